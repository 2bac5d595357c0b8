#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# scripts/check/check-structure.sh --folders on small trees made here: a clean one
# passes; a loop between two folders, a folder of 21 sources and two headers
# of one name each fail with their exact message, and so does --spdx on a
# source without its licence line, --format on a source out of
# .clang-format's style, and --circles on two objects that call each other.
# Usage: tests/check_structure.sh SOURCE_DIR
set -euo pipefail
src=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

# A tree with sim/ below models/a and models/b/include (b's header) above.
tree() {
	rm -rf "$tmp/t" && mkdir -p "$tmp/t"/{scripts/check,loader,results,report,cli,bench,fuzz,tests} \
		"$tmp/t/sim/include" "$tmp/t/models/a" \
		"$tmp/t/models/b/include"
	cp "$src/scripts/check/check-structure.sh" "$tmp/t/scripts/check/"
	echo '#pragma once' >"$tmp/t/sim/include/sim.h"
	printf '#include "sim.h"\n' >"$tmp/t/models/a/a.c"
	printf '#pragma once\n#include "sim.h"\n' >"$tmp/t/models/a/a.h"
	printf '#include "a.h"\n' >"$tmp/t/models/b/b.c"
	echo '#pragma once' >"$tmp/t/models/b/include/b.h"
}

expect() { # NAME WANT_STATUS WANT_OUTPUT [MODE [ARG]]
	local got status=0 args=("${@:4}")
	[ ${#args[@]} -gt 0 ] || args=(--folders)
	got=$("$tmp/t/scripts/check/check-structure.sh" "${args[@]}" 2>&1) || status=$?
	if [ "$status" != "$2" ] || [ "$got" != "$3" ]; then
		printf 'FAIL %s: status %s, output:\n%s\nwanted status %s, output:\n%s\n' "$1" "$status" \
			"$got" "$2" "$3"
		fail=1
	else
		echo "ok   $1"
	fi
}

tree
expect clean 0 ""

tree
printf '#include "b.h"\n' >>"$tmp/t/models/a/a.c" # a includes b, b includes a
expect loop 1 "check-structure: folders include each other around a loop: models/a models/b"

tree
for i in $(seq 1 20); do : >"$tmp/t/models/b/extra$i.c"; done
expect too-many-sources 1 "check-structure: models/b holds 21 .c files (at most 20)"

tree
echo '#pragma once' >"$tmp/t/models/b/a.h"
expect same-header-name 1 "check-structure: two headers named a.h"

tree
mkdir -p "$tmp/t/.ci" "$tmp/t/docs"
for f in sim/include/sim.h models/a/a.h models/b/include/b.h; do
	sed -i '1i /* SPDX-License-Identifier: GPL-2.0-or-later */' "$tmp/t/$f"
done
printf '# SPDX-License-Identifier: GPL-2.0-or-later\n' >"$tmp/t/CMakeLists.txt"
sed -i '1i // SPDX-License-Identifier: GPL-2.0-or-later' "$tmp/t/models/a/a.c"
expect spdx 1 "check-structure: models/b/b.c: no SPDX-License-Identifier line (LICENSE)" --spdx

tree
cp "$src/.clang-format" "$tmp/t/"
printf 'int main(void)\n{\n\treturn 0;\n}\n' >"$tmp/t/models/b/b.c"
expect formatted 0 "" --format
printf 'int main(void)\n{\n  return 0;\n}\n' >"$tmp/t/models/b/b.c"
expect unformatted 1 "check-structure: models/b/b.c:2:2: not in .clang-format's style (clang-format-14 -i models/b/b.c)" --format

# --circles: a.c calls b() and b.c calls a(), compiled as a library's
# objects are; listed in circles-left.txt it passes, and the list must shrink
tree
objs=$tmp/t/build/models/CMakeFiles/mcs_x.dir
mkdir -p "$objs/a" "$objs/b"
printf 'void b(void);\nvoid a(void) { b(); }\n' >"$tmp/a.c"
printf 'void a(void);\nvoid b(void) { a(); }\n' >"$tmp/b.c"
cc -c -o "$objs/a/a.c.o" "$tmp/a.c"
cc -c -o "$objs/b/b.c.o" "$tmp/b.c"
printf '# none left\n' >"$tmp/t/scripts/check/circles-left.txt"
expect circle 1 "check-structure: files call each other around a circle: models/a/a.c models/b/b.c" --circles build
printf 'models/a/a.c models/b/b.c\n' >>"$tmp/t/scripts/check/circles-left.txt"
expect circle-left 0 "" --circles build
printf 'void b(void) {}\n' >"$tmp/b.c"
cc -c -o "$objs/b/b.c.o" "$tmp/b.c"
expect circle-gone 1 "check-structure: scripts/check/circles-left.txt: this circle is gone: take it off the list" --circles build

[ "$fail" = 0 ] && echo "10 passed, 0 failed" || exit 1
