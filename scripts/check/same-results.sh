#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Check that a change leaves every result as it was: build BASE (a git
# revision, default HEAD) beside the working tree, run every scenario under
# scenarios/ with both builds (`--set replicas=1 --format json`, and
# `--variant all` where the build has it, so that every variant runs, not
# only a scenario's default_variants), and compare the outputs byte for
# byte, less the line of the model identity (which differs whenever the
# sources do: docs/results.md, "Model identity") and the command line (which
# names --variant all only for a build that has it), and standard error
# less its progress lines (at wall-clock intervals); then each result's
# reports (`report --format text`, md, csv, html and summary, and `compare`
# of the result with itself) rendered by the build that made it, compared
# with the model identity masked wherever it appears. Exit 0 when all are
# identical, 1 otherwise.
# Usage: scripts/check/same-results.sh [BASE]     (run ./scripts/setup/setup.sh first)
#        MCS_KEEP=DIR scripts/check/same-results.sh BASE   keeps the outputs in DIR
#        MCS_ONLY=GLOB scripts/check/same-results.sh BASE  only the scenarios GLOB.json
#        MCS_SKIP=GLOB scripts/check/same-results.sh BASE  all but the scenarios GLOB.json
#        MCS_DROP="KEY ..." scripts/check/same-results.sh BASE   the results compared
#            without their members KEY wherever they are (members a change adds; with jq,
#            both sides alike); the reports are still compared byte for byte
set -euo pipefail
cd "$(dirname "$0")/../.."
base=${1:-HEAD}
rev=$(git rev-parse --verify "$base^{commit}")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
out=${MCS_KEEP:-$tmp/out}
mkdir -p "$tmp/src" "$out/base" "$out/new"
git archive "$rev" | tar -x -C "$tmp/src"
cmake -S "$tmp/src" -B "$tmp/build" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$tmp/build" --target memcgsim -j "$(nproc)" >/dev/null
cmake --build build --target memcgsim -j "$(nproc)" >/dev/null

# reports BIN BASE: BASE.raw's reports, as BASE.text, BASE.md ... (the
# model identity masked: it differs whenever the sources do)
reports() {
	local f
	for f in text md csv html summary; do
		"$1" report "$2.raw" --format "$f" 2>&1 | mask >"$2.$f" || echo "exit $?" >>"$2.$f"
	done
	# from the result's directory: the report names its inputs as given
	(cd "$(dirname "$2")" && "$1" compare "${2##*/}.raw" "${2##*/}.raw" 2>&1 | mask \
		>"${2##*/}.compare") || echo "exit $?" >>"$2.compare"
}
mask() {
	sed -E 's/[0-9]+\.[0-9]+\.[0-9]+\+[0-9a-f]{16}/MODEL/g'
}

status=0
while IFS= read -r s; do
	name=$(echo "$s" | tr / _)
	for side in base new; do
		bin=$PWD/build/memcgsim
		[ "$side" = base ] && bin=$tmp/build/memcgsim
		rc=0 all=()
		# a build from before issue 34 runs every variant without it
		grep -q -- '--variant=.*all' <<<"$("$bin" run --help)" && all=(--variant all)
		"$bin" run "$s" --set replicas=1 "${all[@]}" --format json >"$out/$side/$name.raw" \
			2>"$out/$side/$name.err" || rc=$?
		# the progress lines without a terminal come at wall-clock intervals
		sed -i -E '/^memcgsim: [0-9]+ of [0-9]+ simulations? done/d' "$out/$side/$name.err"
		[ "$rc" -eq 0 ] || echo "exit $rc" >>"$out/$side/$name.err"
		if [ -n "${MCS_DROP:-}" ] && [ "$rc" -eq 0 ]; then
			jq --indent 2 --arg ks "$MCS_DROP" \
				'($ks | split(" ")) as $drop | del(.model, .command) |
				 reduce $drop[] as $k (.; del(.. | objects | select(has($k)) | .[$k]))' \
				"$out/$side/$name.raw" >"$out/$side/$name"
		else
			sed '/^  "model": "/d; /^  "command": "/d' "$out/$side/$name.raw" >"$out/$side/$name"
		fi
		[ "$rc" -eq 0 ] && reports "$bin" "$out/$side/$name"
	done
	same=1
	for f in "" .err .text .md .csv .html .summary .compare; do
		[ -e "$out/base/$name$f" ] || [ -e "$out/new/$name$f" ] || continue
		cmp -s "$out/base/$name$f" "$out/new/$name$f" || same=0
	done
	if [ "$same" = 1 ]; then
		printf 'same     %s\n' "$s"
	else
		printf 'DIFFERS  %s\n' "$s"
		status=1
	fi
done < <(find scenarios -name "${MCS_ONLY:-*}.json" ! -name "${MCS_SKIP:-.}.json" | LC_ALL=C sort)
[ "$status" -eq 0 ] && echo "all results identical to $base ($rev)"
exit "$status"
