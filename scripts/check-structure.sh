#!/usr/bin/env bash
# Structural rules of the source tree (docs/architecture.md), checked by the
# build and the test suite:
#   --includes   project headers are included by bare name ("memcg.h"), so
#                that the include directories alone decide what a layer sees
#                (no "../models/memcg.h" around them); the build runs this.
#   --functions  no function outside tests/ is longer than 60 lines, counted
#                from the line with its name to its closing brace.
# Prints each violation and exits 1 when there is one.
set -euo pipefail
cd "$(dirname "$0")/.."
layers="sim models loader analysis cli bench fuzz"
status=0
case "${1:-}" in
--includes)
	if grep -nE '^#[[:space:]]*include[[:space:]]*"[^"]*/' -r $layers --include='*.[ch]'; then
		echo "check-structure: include project headers by name; the layers' include directories decide what is visible"
		status=1
	fi
	;;
--functions)
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
	;;
*)
	echo "usage: $0 --includes | --functions" >&2
	exit 2
	;;
esac
exit "$status"
