#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Install into a temporary DESTDIR and use memcgsim from there: the files are
# where they belong, `list` and `run NAME` find the installed scenarios, the
# man page renders without a warning and names every option of every
# command, bash completion completes from the installed program, and the
# Debian package (cpack -G DEB) has the files and the dependencies.
# Usage: tests/install.sh SOURCE_DIR BUILD_DIR
set -euo pipefail
src=$1 build=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

DESTDIR=$tmp/root cmake --install "$build" --prefix /usr >/dev/null
root=$tmp/root/usr
for f in bin/memcgsim share/man/man1/memcgsim.1 share/bash-completion/completions/memcgsim \
	share/memcgsim/scenarios/seeds/list_lru_swap.json share/memcgsim/scenarios/sweeps/list_lru_cgroups.json \
	share/doc/memcgsim/scenario.md share/doc/memcgsim/README.md share/doc/memcgsim/LICENSE; do
	[ -f "$root/$f" ] || fail "not installed: $f"
done

# From the installed tree only: no MEMCGSIM_DATADIR, the source tree out of reach.
unset MEMCGSIM_DATADIR
mcs=$root/bin/memcgsim
"$mcs" list >"$tmp/list.txt"
first=$(head -1 "$tmp/list.txt")
[ "$first" = "Bundled scenarios ($root/share/memcgsim/scenarios); run one with memcgsim run NAME:" ] ||
	fail "list: $first"
names=$("$mcs" list --names)
grep -qx list_lru_swap <<<"$names" || fail "list --names has no list_lru_swap"
[ "$("$mcs" list --names list_lru-swap)" = $'v1-before\nv1-after\n6.12\n6.13' ] || fail "list SCENARIO"
# run NAME is the installed file, and gives the bytes the build's program gives
"$mcs" run lockbench_scope --set replicas=1 --format json -o "$tmp/installed.json"
"$build/memcgsim" run lockbench_scope --set replicas=1 --format json -o "$tmp/built.json"
cmp -s "$tmp/installed.json" "$tmp/built.json" || fail "run NAME differs from the build's run"

# The man page: no groff warning, and every option of every command in it.
warnings=$(groff -man -ww -z "$root/share/man/man1/memcgsim.1" 2>&1)
[ -z "$warnings" ] || fail "groff: $warnings"
for cmd in run validate schema sweep merge report compare list; do
	"$mcs" "$cmd" --help >"$tmp/help.txt"
	for opt in $(sed -n '/Application Options/,$p' "$tmp/help.txt" | grep -o -- '--[a-z-]*'); do
		pat=$(printf '%s' "$opt" | sed 's/-/\\\\-/g') # \- as troff writes a hyphen
		grep -q -- "^\\.B.*$pat\\b" "$root/share/man/man1/memcgsim.1" ||
			fail "man page: $cmd $opt is not described"
	done
	grep -q "^\\.B[I]* *$cmd\\b\\|^\\.RI \"$cmd" "$root/share/man/man1/memcgsim.1" ||
		fail "man page: no entry for $cmd"
done

# Completion, from the installed script and program.
complete_words() {
	PATH=$root/bin:/usr/bin:/bin bash -c 'source "$0"; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1));
		_memcgsim; printf "%s\n" "${COMPREPLY[@]}"' \
		"$root/share/bash-completion/completions/memcgsim" "$@"
}
[ "$(complete_words memcgsim c)" = compare ] || fail "completion of commands"
[ "$(complete_words memcgsim run --var)" = --variant ] || fail "completion of options"
[ "$(complete_words memcgsim run -j 2 list_lru_swap --variant v1-)" = $'v1-before\nv1-after' ] ||
	fail "completion of --variant"
[ "$(complete_words memcgsim run list_lru_swap --variant a)" = all ] || fail "completion of --variant all"
[ "$(complete_words memcgsim run list_lru_swap --variant v1-before,6.1)" = $'v1-before,6.12\nv1-before,6.13' ] ||
	fail "completion of a --variant list"
names=$(complete_words memcgsim run lru_lock_read) # whole: grep -q would cut the pipe
grep -qx lru_lock_readtwice_32cpu <<<"$names" || fail "completion of bundled scenario names"
[ "$(complete_words memcgsim compare --format h)" = html ] || fail "completion of --format"

# The Debian package.
cpack -G DEB -B "$tmp/pkg" --config "$build/CPackConfig.cmake" >/dev/null
deb=$(ls "$tmp"/pkg/memcgsim_*_*.deb)
depends=$(dpkg-deb -f "$deb" Depends)
for lib in libsimgrid3.32 libglib2.0-0 libjansson4 libgsl27 libc6 gnuplot-nox; do
	[[ $depends == *"$lib "* || $depends == *"$lib," || $depends == *"$lib" ]] ||
		fail "the package does not depend on $lib: $depends"
done
[ "$(dpkg-deb -f "$deb" Package)" = memcgsim ] || fail "package name"
contents=$(dpkg-deb -c "$deb" | awk '{print $6}')
for f in ./usr/bin/memcgsim ./usr/share/man/man1/memcgsim.1 \
	./usr/share/bash-completion/completions/memcgsim \
	./usr/share/memcgsim/scenarios/seeds/list_lru_swap.json ./usr/share/doc/memcgsim/scenario.md; do
	grep -qx -- "$f" <<<"$contents" || fail "not in the package: $f"
done
echo "install: ok"
