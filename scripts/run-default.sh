#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Set up, build, and run the default comparison scenario, printing its report.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
./build/memcgsim run scenarios/seeds/list_lru_swap.json
