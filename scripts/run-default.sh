#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Set up, build, and run the default comparison, printing its report: the
# swap benchmark's published pair (v1-before against v1-after, the scenario's
# default_variants), one simulation each, side by side on two CPUs. Arguments
# go to memcgsim run: `./scripts/run-default.sh --variant all` adds the
# mainline pair (6.12, 6.13).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup/setup.sh >&2 # the build's lines on stderr: stdout is the report
./build/memcgsim run scenarios/seeds/list_lru_swap.json "$@"
