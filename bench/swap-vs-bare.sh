#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Issue 10's performance check (docs/performance.md): wall time of one replica
# of the swap benchmark's per-node variant, before the issue (BASE, default
# cb68407) and now, each beside the bare SimGrid loop (build/bench_bare) as
# the yardstick of the machine's speed, in one invocation.
#
# It builds BASE's memcgsim out of the source tree (build/bench-base/REV,
# kept for the next run) unless --old-bin names one, takes BASE's scenario
# file unless --old-scenario names one, and runs old / new / bare in turn,
# ROUNDS times, one process at a time (-j1). It prints each run (wall time,
# CPU time, load average, simulated time, engine calls), the medians, each
# median divided by the bare loop's, the ratio new / old of the normalised
# medians and of each round. A benchmark, not a test: nothing fails on a
# slow figure. The bare loop cancels out of a ratio taken within one
# invocation; it makes figures of different invocations (another load,
# another machine) comparable.
#
# Usage: bench/swap-vs-bare.sh [options] [NEW_SCENARIO]
#   NEW_SCENARIO         default scenarios/seeds/list_lru_swap.json
#   --rounds N           default 3
#   --base REV           the revision before the issue, default cb68407
#   --old-bin PATH       an already-built old memcgsim (no build)
#   --old-scenario FILE  default: BASE's scenarios/seeds/list_lru_swap.json
#   --variant NAME       the old side's variant, default per-node
#   --new-variant NAME   the new side's, default v1-before (issue 22 renamed the
#                        variants: v1-before is the old per-node)
#   --bare "ACTORS MS"   the bare loop's work, default "32 150"
#   --set PATH=VALUE     passed to both memcgsim runs (e.g. to shorten them)
#   --new-set PATH=VALUE passed to the new run only (issue 21: --new-set
#                        machine.contention=queued, against BASE's model)
# Needs jq, GNU time (/usr/bin/time) and a built tree (cmake --build build).
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=3 base=cb68407 old_bin= old_scen= variant=per-node new_variant=v1-before bare="32 150"
new_scen=scenarios/seeds/list_lru_swap.json
sets=(--set replicas=1)
new_sets=()
while [ $# -gt 0 ]; do
	case "$1" in
	--rounds) rounds=$2; shift 2 ;;
	--base) base=$2; shift 2 ;;
	--old-bin) old_bin=$2; shift 2 ;;
	--old-scenario) old_scen=$2; shift 2 ;;
	--variant) variant=$2; shift 2 ;;
	--new-variant) new_variant=$2; shift 2 ;;
	--bare) bare=$2; shift 2 ;;
	--set) sets+=(--set "$2"); shift 2 ;;
	--new-set) new_sets+=(--set "$2"); shift 2 ;;
	-h | --help) sed -n '2,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	-*) echo "swap-vs-bare: unknown option $1" >&2; exit 2 ;;
	*) new_scen=$1; shift ;;
	esac
done
command -v jq >/dev/null && [ -x /usr/bin/time ] || { echo "swap-vs-bare: needs jq and /usr/bin/time" >&2; exit 2; }
rev=$(git rev-parse --verify "$base^{commit}")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# BASE's memcgsim, built once into build/bench-base/REV from a git archive.
build_old() {
	local dir=build/bench-base/$rev
	if [ ! -x "$dir/build/memcgsim" ]; then
		echo "building $base ($rev) in $dir ..." >&2
		rm -rf "$dir" && mkdir -p "$dir/src"
		git archive "$rev" | tar -x -C "$dir/src"
		cmake -S "$dir/src" -B "$dir/build" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
		cmake --build "$dir/build" --target memcgsim -j "$(nproc)" >/dev/null
	fi
	echo "$dir/build/memcgsim"
}
[ -n "$old_bin" ] || old_bin=$(build_old)
if [ -z "$old_scen" ]; then
	old_scen=$tmp/old_scenario.json
	git show "$rev:scenarios/seeds/list_lru_swap.json" >"$old_scen"
fi
cmake --build build --target memcgsim bench_bare -j "$(nproc)" >/dev/null

now() { date +%s.%N; }
load() { cut -d' ' -f1 /proc/loadavg; }

# timed FILE CMD...: run CMD, its wall and CPU (user + sys) seconds into FILE.
timed() {
	local f=$1
	shift
	/usr/bin/time -f '%e %U %S' -o "$f" "$@"
}

# run_sim SIDE BIN SCENARIO VARIANT [--set P=V ...]: one simulation; appends a row to
# $tmp/runs: side, wall s, CPU s, load, simulated s, engine calls.
run_sim() {
	local l out=$tmp/$1.json
	l=$(load)
	timed "$tmp/time" "$2" run "$3" --variant "$4" "${sets[@]}" "${@:5}" -j 1 \
		--format json >"$out"
	read -r wall user sys <"$tmp/time"
	jq -r --arg side "$1" --arg wall "$wall" --arg cpu "$(awk -v u="$user" -v s="$sys" \
		'BEGIN {print u + s}')" --arg load "$l" '.variants[0] | [$side, $wall, $cpu, $load,
		.sim_time_ns / 1e9, .per_replica[0].engine_calls] | @tsv' "$out" >>"$tmp/runs"
}

run_bare() {
	local l calls
	l=$(load)
	timed "$tmp/time" ./build/bench_bare $bare >"$tmp/bare.out"
	read -r wall user sys <"$tmp/time"
	calls=$(awk '{print $8}' "$tmp/bare.out")
	printf 'bare\t%s\t%s\t%s\t%s\t%s\n' "$wall" "$(awk -v u="$user" -v s="$sys" \
		'BEGIN {print u + s}')" "$l" "$(echo "$bare" | awk '{print $2 / 1e3}')" "$calls" \
		>>"$tmp/runs"
}

echo "# $(uptime)"
echo "# old: $old_bin on $old_scen; new: build/memcgsim on $new_scen"
echo "# variant $variant (new: $new_variant), ${sets[*]}, new only: ${new_sets[*]:-none}, -j1; bare loop: $bare (actors, simulated ms)"
printf '%-5s %-4s %9s %8s %6s %12s %14s\n' round run wall_s cpu_s load1 simulated_s engine_calls
for r in $(seq "$rounds"); do
	run_sim old "$old_bin" "$old_scen" "$variant"
	run_sim new build/memcgsim "$new_scen" "$new_variant" "${new_sets[@]}"
	run_bare
	tail -n 3 "$tmp/runs" | awk -v r="$r" -F'\t' \
		'{printf "%-5s %-4s %9.2f %8.2f %6s %12.3f %14d\n", r, $1, $2, $3, $4, $5, $6}'
done
echo "# $(uptime)"

# Medians per side (wall and CPU), each over the bare loop's; new / old.
awk -F'\t' '
	function median(side, col,   n, i, j, t, v) {
		n = 0
		for (i = 1; i <= NR; i++) if (s[i] == side) v[++n] = x[i, col]
		for (i = 2; i <= n; i++) for (j = i; j > 1 && v[j-1] > v[j]; j--) { t = v[j]; v[j] = v[j-1]; v[j-1] = t }
		return n % 2 ? v[(n+1)/2] : (v[n/2] + v[n/2+1]) / 2
	}
	function row(side) {
		printf "%-5s %14.2f %8.2f %13.2f %8.2f %12.3f %14d\n", side, median(side, 2),
			median(side, 2) / median("bare", 2), median(side, 3),
			median(side, 3) / median("bare", 3), sim[side], calls[side]
	}
	{ s[NR] = $1; x[NR, 2] = $2; x[NR, 3] = $3; sim[$1] = $5; calls[$1] = $6
	  if ($1 == "old") o = $2; if ($1 == "new") rounds = rounds sprintf(" %.2f", $2 / o) }
	END {
		printf "\n%-5s %14s %8s %13s %8s %12s %14s\n", "run", "median wall_s", "/ bare",
			"median cpu_s", "/ bare", "simulated_s", "engine_calls"
		row("old"); row("new"); row("bare")
		printf "\nnew / old, normalised by the bare loop: wall %.2fx, CPU %.2fx (target: wall at most 1.3x)\n",
			median("new", 2) / median("old", 2), median("new", 3) / median("old", 3)
		printf "new / old wall, each round:%s\n", rounds
	}' "$tmp/runs"
