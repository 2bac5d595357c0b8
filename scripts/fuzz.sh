#!/usr/bin/env bash
# Fuzz the scenario loader with libFuzzer: ./scripts/fuzz.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
CC=clang cmake -S . -B build-fuzz -DMEMCGSIM_FUZZ=ON -DMEMCGSIM_SANITIZE=OFF >/dev/null
cmake --build build-fuzz --target fuzz_scenario -j "$(nproc)"
mkdir -p fuzz/corpus-run
ASAN_OPTIONS=detect_leaks=0 ./build-fuzz/fuzz_scenario -max_total_time="${1:-600}" \
	-max_len=65536 -timeout=10 -rss_limit_mb=2048 fuzz/corpus-run fuzz/corpus
