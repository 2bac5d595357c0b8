#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Wall time of one sweep at -j1 and at -j2, alternating, REPS times each
# (default 3); prints each time, the medians and their ratio. Also checks
# that both give the same result.json. Usage: bench/bench-sweep.sh [REPS] [SCENARIO]
set -euo pipefail
cd "$(dirname "$0")/.."
reps=${1:-3}
scen=${2:-scenarios/sweeps/list_lru_cgroups.json}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
declare -A times
for r in $(seq "$reps"); do
	for j in 1 2; do
		rm -rf "$tmp/j$j"
		start=$(date +%s.%N)
		./build/memcgsim sweep "$scen" -j "$j" --out "$tmp/j$j" 2>/dev/null
		t=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN {print b - a}')
		times[$j]="${times[$j]:-} $t"
		printf 'rep %d -j%d: %.2f s\n' "$r" "$j" "$t"
	done
	cmp -s "$tmp/j1/result.json" "$tmp/j2/result.json" || { echo "results differ"; exit 1; }
done
median() { tr ' ' '\n' | grep . | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
m1=$(echo "${times[1]}" | median)
m2=$(echo "${times[2]}" | median)
runs=$(ls "$tmp/j1/runs" | wc -l)
printf 'runs %s; median -j1 %.2f s, -j2 %.2f s: %.2fx; results identical\n' "$runs" "$m1" "$m2" \
	"$(awk -v a="$m1" -v b="$m2" 'BEGIN {print a / b}')"
