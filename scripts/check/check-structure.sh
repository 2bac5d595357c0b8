#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Structural rules of the source tree (docs/architecture.md), checked by the
# build and the test suite; any of these, in one call:
#   --includes   project headers are included by bare name ("memcg.h"), so
#                that the include directories alone decide what a layer sees
#                (no "../models/memcg.h" around them); the build runs this.
#   --folders    no folder holds more than 20 .c files, no two headers share
#                a name, and no folder includes another's header around a
#                loop (a folder's include/ counts as the folder); the build
#                runs this too.
#   --functions  no function outside tests/ is longer than 60 lines, counted
#                from the line with its name to its closing brace.
#   --format     every C source and header is in the project's .clang-format
#                style (clang-format-14 --dry-run -Werror: the version Debian
#                12 ships, as its output differs between versions); the test
#                suite runs this (scripts/setup/setup-test.sh installs it).
#   --circles BUILD
#                no files of the layers call each other around a circle (a
#                name one defines called by another that a name of it calls,
#                read from the objects of BUILD's libraries with nm), but
#                those scripts/check/circles-left.txt lists, each circle as
#                its files; a circle that is gone must leave the list too.
#                The test suite runs this.
#   --spdx       every source file (C, shell, CMake, the man page) names its
#                licence in an SPDX-License-Identifier line near its top
#                (LICENSE); the build runs this too.
# Prints each violation and exits 1 when there is one.
set -euo pipefail
cd "$(dirname "$0")/../.."
layers="base sim models loader results runner sweep report calib baseline cli bench fuzz"
# (a tree without one of them, as the test's small trees, checks the others)
layers=$(for d in $layers; do if [ -d "$d" ]; then echo "$d"; fi; done)
status=0

# The folder a source or header belongs to: its directory, less a final include/.
folder_of() {
	local d
	d=$(dirname "$1")
	[ "$(basename "$d")" = include ] && d=$(dirname "$d")
	echo "$d"
}

check_includes() {
	if grep -nE '^#[[:space:]]*include[[:space:]]*"[^"]*/' -r $layers --include='*.[ch]'; then
		echo "check-structure: include project headers by name; the layers' include directories decide what is visible"
		status=1
	fi
}

check_folders() {
	local tmp h f from to
	tmp=$(mktemp -d)
	find $layers tests -name '*.c' -printf '%h\n' | sort | uniq -c |
		awk '$1 > 20 { printf "check-structure: %s holds %d .c files (at most 20)\n", $2, $1; bad = 1 }
		     END { exit bad }' || status=1
	find $layers -name '*.h' | while read -r h; do echo "$(basename "$h") $(folder_of "$h")"; done |
		sort >"$tmp/headers"
	awk 'seen[$1]++ { printf "check-structure: two headers named %s\n", $1; bad = 1 } END { exit bad }' \
		"$tmp/headers" || status=1
	# one pass over every source: "HEADER_FOLDER INCLUDER_FOLDER" for each
	# include of another folder's header
	find $layers -name '*.[ch]' | LC_ALL=C sort >"$tmp/files"
	# shellcheck disable=SC2046
	awk 'function folder(p,  d) { d = p; sub(/\/[^\/]*$/, "", d); if (d == p) d = ".";
					if (d ~ /(^|\/)include$/) { sub(/\/?include$/, "", d); if (d == "") d = "." }
					return d }
	     FILENAME == ARGV[1] { if (!($1 in where)) where[$1] = $2; next }
	     /^#[[:space:]]*include[[:space:]]*"/ {
		h = $0; sub(/^#[[:space:]]*include[[:space:]]*"/, "", h); sub(/".*/, "", h)
		if ((h in where) && where[h] != folder(FILENAME)) print where[h], folder(FILENAME)
	     }' "$tmp/headers" $(cat "$tmp/files") | sort -u >"$tmp/edges"
	if ! tsort "$tmp/edges" >/dev/null 2>"$tmp/loop"; then
		# tsort names each loop's folders after a line "...: input contains a loop:"
		awk '/input contains a loop/ { if (l) print l; l = "check-structure: folders include each other around a loop:"; next }
		     { sub(/^tsort: /, ""); l = l " " $0 } END { if (l) print l }' "$tmp/loop"
		status=1
	fi
	rm -rf "$tmp"
}

check_spdx() {
	# one awk reads the first three lines of every file
	# shellcheck disable=SC2046
	awk 'BEGIN {
		for (i = 1; i < ARGC; i++) {
			f = ARGV[i]; ok = 0
			for (n = 0; n < 3 && (getline l < f) > 0; n++)
				if (l ~ /SPDX-License-Identifier: GPL-2.0-or-later/) ok = 1
			close(f)
			if (!ok) { printf "check-structure: %s: no SPDX-License-Identifier line (LICENSE)\n", f; bad = 1 }
		}
		exit bad
	}' $(find $layers tests scripts .ci docs -type f \( -name '*.[ch]' -o -name '*.sh' \
		-o -name '*.bash' -o -name '*.in' -o -name CMakeLists.txt -o -name '*.1' \
		-o -path .ci/run \) | LC_ALL=C sort) CMakeLists.txt || status=1
}

check_functions() {
	# clang-format's Linux braces: a definition's body opens with "{" alone
	# at column 0 and closes with "}" at column 0.
	awk -v max=60 '
		FNR == 1 { start = 0 }
		/^\{$/ { start = FNR; name = prev; from = prev_line; next }
		/^\}/ && start {
			n = FNR - from + 1
			if (match(name, /[A-Za-z_][A-Za-z0-9_]*\(/))
				name = substr(name, RSTART, RLENGTH - 1)
			if (n > max) { printf "%s:%d: %s: %d lines (at most %d)\n", FILENAME, from, name, n, max; bad = 1 }
			start = 0; next
		}
		!start && /^[A-Za-z_]/ { prev = $0; prev_line = FNR }
		END { exit bad }' $(find $layers -name '*.c' | LC_ALL=C sort) || status=1
}

check_format() {
	local cf=clang-format-14 out
	command -v "$cf" >/dev/null || {
		echo "check-structure: $cf not found (scripts/setup/setup-test.sh installs it)"
		status=1
		return
	}
	# shellcheck disable=SC2046
	if ! out=$("$cf" --dry-run -Werror $(find $layers tests -name '*.[ch]' -not -path 'tests/fixtures/*' |
		LC_ALL=C sort) 2>&1); then
		# one line a file: its first complaint, as FILE:LINE:COLUMN
		printf '%s\n' "$out" | awk -F: '/: error: code should be clang-formatted/ && !seen[$1]++ {
			printf "check-structure: %s:%s:%s: not in .clang-format'"'"'s style (clang-format-14 -i %s)\n", $1, $2, $3, $1 }'
		status=1
	fi
}

# The groups of files that call each other around a circle (strongly
# connected components of more than one file), from BUILD's library objects:
# one group a line, its files sorted, the lines sorted.
file_circles() {
	local objs o src build=${1%/}/
	# the objects of sources that still exist (a build tree keeps those of
	# files moved or removed since)
	objs=$(find "$1" -path '*/CMakeFiles/mcs_*.dir/*.c.o' | LC_ALL=C sort | while read -r o; do
		src=${o#"$build"}
		src=$(echo "$src" | sed -E 's#CMakeFiles/[^/]*\.dir/##; s#\.o$##')
		if [ -e "$src" ]; then echo "$o"; fi
	done)
	[ -n "$objs" ] || {
		echo "check-structure: --circles: no library objects under $1 (build first)" >&2
		return 1
	}
	# shellcheck disable=SC2086
	# an object's source: BUILD/SUB/CMakeFiles/LIB.dir/PATH.o is SUB/PATH
	nm -A $objs | awk -v build="${1%/}/" '
		{ split($1, a, ":"); f = substr(a[1], length(build) + 1)
		  sub(/CMakeFiles\/[^\/]*\.dir\//, "", f); sub(/\.o$/, "", f) }
		$2 == "U" { use[f] = use[f] " " $3; next }
		$2 ~ /^[TDBRC]$/ { def[$3] = f }
		END { for (f in use) { n = split(use[f], u, " ")
			for (i = 1; i <= n; i++) if ((u[i] in def) && def[u[i]] != f) print f, def[u[i]] } }' |
		awk '{ if (!(($1, $2) in seen)) { seen[$1, $2] = 1; out[$1] = out[$1] " " $2 }; node[$1] = node[$2] = 1 }
		END {
			for (v in node) { # what v reaches, breadth first
				delete reach; delete queue; head = tail = 0; queue[tail++] = v; reach[v] = 1
				while (head < tail) {
					n = split(out[queue[head++]], nx, " ")
					for (k = 1; k <= n; k++)
						if (!(nx[k] in reach)) { reach[nx[k]] = 1; queue[tail++] = nx[k] }
				}
				for (u in reach) r[v, u] = 1
			}
			for (v in node) {
				if (v in done) continue
				count = 0
				for (u in node) if ((v, u) in r && (u, v) in r) { m[++count] = u; done[u] = 1 }
				if (count < 2) continue
				for (i = 2; i <= count; i++) { x = m[i]; for (j = i - 1; j >= 1 && m[j] > x; j--) m[j + 1] = m[j]; m[j + 1] = x }
				g = m[1]; for (i = 2; i <= count; i++) g = g " " m[i]
				print g
			}
		}' | LC_ALL=C sort
}

check_circles() {
	local left=scripts/check/circles-left.txt found
	found=$(file_circles "$1") || { status=1; return; }
	# shellcheck disable=SC2016
	awk -v left="$left" '
		FILENAME == left { if ($0 !~ /^(#|$)/) known[$0] = 1; next }
		{ if ($0 in known) seen[$0] = 1; else { printf "check-structure: files call each other around a circle: %s\n", $0; bad = 1 } }
		END { for (k in known) if (!(k in seen)) { printf "check-structure: %s: this circle is gone: take it off the list\n", left; bad = 1 }
		      exit bad }' "$left" <(printf '%s\n' "$found" | sed '/^$/d') || status=1
}

usage() {
	echo "usage: $0 [--includes] [--folders] [--functions] [--spdx] [--format] [--circles BUILD]" >&2
	exit 2
}

[ $# -gt 0 ] || usage
while [ $# -gt 0 ]; do
	mode=$1
	shift
	case "$mode" in
	--includes) check_includes ;;
	--folders) check_folders ;;
	--functions) check_functions ;;
	--spdx) check_spdx ;;
	--format) check_format ;;
	--circles)
		[ $# -gt 0 ] || usage
		check_circles "$1"
		shift
		;;
	*) usage ;;
	esac
done
exit "$status"
