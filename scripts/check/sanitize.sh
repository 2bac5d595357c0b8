#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The test suite under AddressSanitizer and UndefinedBehaviorSanitizer.
# Leak checking is off: SimGrid keeps its engine alive until exit.
set -euo pipefail
cd "$(dirname "$0")/../.."
./scripts/setup/setup.sh
cmake -S . -B build-asan -DMEMCGSIM_SANITIZE=ON >/dev/null
cmake --build build-asan -j "$(nproc)"
cd build-asan
ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	ctest --output-on-failure -j "$(nproc)"
