#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Set up, build, install what the tests need (Chromium, Slurm, GNU parallel:
# scripts/setup/setup-test.sh), and run the whole test suite through ctest.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup/setup.sh
./scripts/setup/setup-test.sh
cd build
ctest --output-on-failure -j "$(nproc)"
