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
#   --spdx       every source file (C, shell, CMake, the man page) names its
#                licence in an SPDX-License-Identifier line near its top
#                (LICENSE); the build runs this too.
# Prints each violation and exits 1 when there is one.
set -euo pipefail
cd "$(dirname "$0")/../.."
layers="base sim models loader results runner sweep report calib cli bench fuzz"
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

[ $# -gt 0 ] || set -- usage
for mode in "$@"; do
	case "$mode" in
	--includes) check_includes ;;
	--folders) check_folders ;;
	--functions) check_functions ;;
	--spdx) check_spdx ;;
	--format) check_format ;;
	*)
		echo "usage: $0 [--includes] [--folders] [--functions] [--spdx] [--format]" >&2
		exit 2
		;;
	esac
done
exit "$status"
