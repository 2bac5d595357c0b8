#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Issue 14's scale benchmark (docs/performance.md): a run at the kernel's
# limit of 65,535 memcg ids on 1024 CPUs (bench/scale_65535.json), one
# simulation at a time, ROUNDS times: wall time, engine calls and the peak
# resident memory of the simulation (GNU time's maximum RSS, which covers the
# child process that simulates). A benchmark, not a test: nothing fails on a
# slow or large figure. The target is under 2 GiB resident.
# Usage: bench/scale.sh [ROUNDS] [SCENARIO]     (needs jq and /usr/bin/time)
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3} scen=${2:-bench/scale_65535.json}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '%-6s %10s %14s %14s\n' round "wall (s)" "engine calls" "peak RSS (MiB)"
for ((r = 1; r <= rounds; r++)); do
	/usr/bin/time -f '%e %M' -o "$tmp/time" build/memcgsim run "$scen" -j1 -q --format json \
		-o "$tmp/out.json"
	read -r wall rss <"$tmp/time"
	calls=$(jq '[.variants[].per_replica[].engine_calls] | add' "$tmp/out.json")
	printf '%-6s %10s %14s %14.0f\n' "$r" "$wall" "$calls" "$(echo "$rss / 1024" | bc -l)"
done
jq -r '.variants[0].per_replica[0] | "cpus \(.cpus), simulated \(.sim_time_ns / 1e6) ms"' "$tmp/out.json"
