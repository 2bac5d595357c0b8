#!/usr/bin/env bash
# Fuzz the scenario loader with libFuzzer: ./scripts/fuzz.sh [SECONDS]
# The seed corpus is assembled here, not committed: every scenario under
# scenarios/ and every bad-input case of tests/invalid/ (its args as leading
# "#set PATH=VALUE" lines), so it follows them as they change. What the
# fuzzer adds stays in build-fuzz/corpus-run/.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
CC=clang cmake -S . -B build-fuzz -DMEMCGSIM_FUZZ=ON -DMEMCGSIM_SANITIZE=OFF >/dev/null
cmake --build build-fuzz --target fuzz_scenario -j "$(nproc)"
seeds=build-fuzz/corpus-seed
rm -rf "$seeds"
mkdir -p "$seeds" build-fuzz/corpus-run
for f in $(find scenarios -name '*.json'); do
	cp "$f" "$seeds/$(echo "$f" | tr / _)"
done
for d in tests/invalid/*/; do
	name=$(basename "$d")
	: >"$seeds/invalid-$name"
	if [ -f "$d/args" ]; then sed 's/^/#set /' "$d/args" >>"$seeds/invalid-$name"; fi
	if [ -f "$d/input" ]; then cat "$d/input" >>"$seeds/invalid-$name"; fi
done
ASAN_OPTIONS=detect_leaks=0 ./build-fuzz/fuzz_scenario -max_total_time="${1:-600}" \
	-max_len=65536 -timeout=10 -rss_limit_mb=2048 build-fuzz/corpus-run "$seeds"
