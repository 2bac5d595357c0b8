#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Fuzz with libFuzzer: ./scripts/check/fuzz.sh [SECONDS] [scenario|result]
#  scenario (default): the scenario loader (fuzz/fuzz_scenario.c); seeds:
#    every scenario under scenarios/ and every bad-input case of
#    tests/invalid/ (its args as leading "#set PATH=VALUE" lines).
#  result: the readers of result and run files and of lock statistics
#    (fuzz/fuzz_result.c); seeds: tests/golden/*.json, tests/fixtures/lockstat/*,
#    and a run result, a sweep result, its plan and a run file made here with
#    the fuzzing build's memcgsim.
# The seed corpus is assembled here, not committed, so it follows the files
# as they change. What the fuzzer adds stays in build-fuzz/corpus-run-TARGET/.
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:-600}
target=${2:-scenario}
./scripts/setup/setup.sh
CC=clang cmake -S . -B build-fuzz -DMEMCGSIM_FUZZ=ON -DMEMCGSIM_SANITIZE=OFF >/dev/null
cmake --build build-fuzz --target "fuzz_$target" memcgsim -j "$(nproc)"
seeds=build-fuzz/corpus-seed-$target
rm -rf "$seeds"
mkdir -p "$seeds" "build-fuzz/corpus-run-$target"
if [ "$target" = scenario ]; then
	for f in $(find scenarios -name '*.json'); do
		cp "$f" "$seeds/$(echo "$f" | tr / _)"
	done
	for d in tests/invalid/*/; do
		name=$(basename "$d")
		: >"$seeds/invalid-$name"
		if [ -f "$d/args" ]; then sed 's/^/#set /' "$d/args" >>"$seeds/invalid-$name"; fi
		if [ -f "$d/input" ]; then cat "$d/input" >>"$seeds/invalid-$name"; fi
	done
else
	cp tests/golden/*.json "$seeds/"
	for f in tests/fixtures/lockstat/*; do cp "$f" "$seeds/lockstat-$(basename "$f")"; done
	export ASAN_OPTIONS=detect_leaks=0
	m=./build-fuzz/memcgsim
	$m run scenarios/lockbench_scope.json --set replicas=2 --set stop.duration_ns=100000 \
		--draw-costs 1 --format json -o "$seeds/run-result.json" 2>/dev/null || true
	rm -rf build-fuzz/sweep-seed
	$m sweep scenarios/lockbench_scope.json --set stop.duration_ns=100000 --replicas 1 \
		--param workloads.0.hold_ns=100,200 --out build-fuzz/sweep-seed 2>/dev/null || true
	cp build-fuzz/sweep-seed/result.json "$seeds/sweep-result.json" || true
	cp build-fuzz/sweep-seed/runs/p0000-v00-r000.json "$seeds/run-file.json" || true
	cp build-fuzz/sweep-seed/sweep.json "$seeds/sweep-plan.json" || true
fi
ASAN_OPTIONS=detect_leaks=0 "./build-fuzz/fuzz_$target" -max_total_time="$seconds" \
	-max_len=1048576 -timeout=10 -rss_limit_mb=2048 "build-fuzz/corpus-run-$target" "$seeds"
