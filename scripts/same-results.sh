#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Check that a change leaves every result as it was: build BASE (a git
# revision, default HEAD) beside the working tree, run every scenario under
# scenarios/ with both builds (`--set replicas=1 --format json`, and
# `--variant all` where the build has it, so that every variant runs, not
# only a scenario's default_variants), and compare the outputs byte for
# byte, less the line of the model identity (which differs whenever the
# sources do: docs/results.md, "Model identity") and the command line (which
# names --variant all only for a build that has it). Exit 0 when all are
# identical, 1 otherwise.
# Usage: scripts/same-results.sh [BASE]     (run ./scripts/setup.sh first)
#        MCS_KEEP=DIR scripts/same-results.sh BASE   keeps the outputs in DIR
set -euo pipefail
cd "$(dirname "$0")/.."
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

status=0
while IFS= read -r s; do
	name=$(echo "$s" | tr / _)
	for side in base new; do
		bin=build/memcgsim
		[ "$side" = base ] && bin=$tmp/build/memcgsim
		rc=0 all=()
		# a build from before issue 34 runs every variant without it
		grep -q -- '--variant=.*all' <<<"$("$bin" run --help)" && all=(--variant all)
		"$bin" run "$s" --set replicas=1 "${all[@]}" --format json >"$out/$side/$name.raw" \
			2>"$out/$side/$name.err" || rc=$?
		[ "$rc" -eq 0 ] || echo "exit $rc" >>"$out/$side/$name.err"
		sed '/^  "model": "/d; /^  "command": "/d' "$out/$side/$name.raw" >"$out/$side/$name"
	done
	if cmp -s "$out/base/$name" "$out/new/$name" && cmp -s "$out/base/$name.err" "$out/new/$name.err"; then
		printf 'same     %s\n' "$s"
	else
		printf 'DIFFERS  %s\n' "$s"
		status=1
	fi
done < <(find scenarios -name '*.json' | LC_ALL=C sort)
[ "$status" -eq 0 ] && echo "all results identical to $base ($rev)"
exit "$status"
