#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Issue 24's engine figures (docs/performance.md), in one run on one machine:
# for each variant of each shipped seed scenario (one replica, -j1), its wall
# time, simulated time, engine calls (sleeps, blocks and wakes asked of
# SimGrid), simulated events (every point where a task met the simulated
# present: engine calls, flushes that needed none, CPU-local acquisitions),
# wall time per simulated second and events per wall second; then the same
# figures for the bare SimGrid loop (build/bench_bare: four engine calls per
# acquisition) and for the plain C event loop doing the same lock cycles
# without SimGrid (build/bench_plain: two events per acquisition), the floor
# of what an event costs here; and, with --default, the default
# comparison's wall time (`memcgsim run scenarios/seeds/list_lru_swap.json`,
# as scripts/run-default.sh runs it: the published pair, its default_variants;
# the build excluded).
# A benchmark, not a test: nothing fails on a slow figure.
#
# Usage: bench/seeds.sh [--default] [--bin PATH] [--only GLOB] [--skip GLOB] [--set PATH=VALUE]...
#   --bin PATH    another memcgsim (a build before a change), default build/memcgsim
#   --only GLOB   only the seed files matching GLOB (e.g. 'lru_lock*')
#   --skip GLOB   leave out the seed files matching GLOB
#   --set         passed to every memcgsim run (e.g. to shorten them)
# Needs jq, GNU time (/usr/bin/time) and a built tree (cmake --build build).
set -euo pipefail
cd "$(dirname "$0")/.."
default=0 only='*' skip= sets=(--set replicas=1) bin=build/memcgsim
while [ $# -gt 0 ]; do
	case "$1" in
	--default) default=1; shift ;;
	--bin) bin=$2; shift 2 ;;
	--only) only=$2; shift 2 ;;
	--skip) skip=$2; shift 2 ;;
	--set) sets+=(--set "$2"); shift 2 ;;
	-h | --help) sed -n '2,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) echo "seeds: unknown argument $1" >&2; exit 2 ;;
	esac
done
command -v jq >/dev/null && [ -x /usr/bin/time ] || { echo "seeds: needs jq and /usr/bin/time" >&2; exit 2; }
for b in "$bin" build/bench_bare build/bench_plain; do
	[ -x "$b" ] || { echo "seeds: $b is not built (cmake --build build)" >&2; exit 2; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "# $(date -u +%FT%TZ) $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-32s %-22s %8s %8s %12s %12s %9s %12s %10s\n' scenario variant wall_s sim_s \
	engine_calls events wall/sim_s events/wall_s calls/event
for f in scenarios/seeds/$only.json; do
	base=$(basename "$f" .json)
	# shellcheck disable=SC2053
	[ -n "$skip" ] && [[ $base == $skip ]] && continue
	for v in $(jq -r '.variants[].name' "$f"); do
		MEMCGSIM_ENGINE_STATS=1 /usr/bin/time -f '%e' -o "$tmp/time" "$bin" run "$f" \
			--variant "$v" "${sets[@]}" -j 1 --format json -o "$tmp/out.json" 2>"$tmp/err" ||
			{ echo "seeds: $f --variant $v failed:" >&2; cat "$tmp/err" >&2; exit 1; }
		wall=$(tail -1 "$tmp/time")
		jq -r --arg s "$base" --arg v "$v" --argjson wall "$wall" '
			.variants[0].per_replica[0] as $r
			| ($r.sim_time_ns / 1e9) as $sim
			| ($r.engine_calls + ($r.flushes_skipped // 0) + ($r.local_locks.acquisitions // 0)) as $ev
			| [$s, $v, ($wall | tostring), ($sim | . * 1000 | round / 1000 | tostring),
			   ($r.engine_calls | tostring), ($ev | tostring),
			   (if $sim > 0 then ($wall / $sim | . * 10 | round / 10 | tostring) else "-" end),
			   (if $wall > 0 then ($ev / $wall | round | tostring) else "-" end),
			   ($r.engine_calls / $ev | . * 1000 | round / 1000 | tostring)]
			| @tsv' "$tmp/out.json" |
			awk -F'\t' '{printf "%-32s %-22s %8s %8s %12s %12s %9s %12s %10s\n", $1, $2, $3, $4, $5, $6, $7, $8, $9}'
	done
done
# The yardsticks: 32 tasks on one lock for 150 simulated ms, 1.5 million
# acquisitions either way.
read -r _ n _ ms _ acq _ calls _ wall < <(build/bench_bare 32 150)
printf '%-32s %-22s %8s %8s %12s %12s %9s %12s %10s\n' "bare SimGrid loop" "$n actors" "$wall" \
	"$(echo "$ms / 1000" | bc -l | sed 's/0*$//')" "$calls" "$calls" \
	"$(echo "$wall * 1000 / $ms" | bc -l | xargs printf '%.1f')" \
	"$(echo "$calls / $wall" | bc -l | xargs printf '%.0f')" 1
read -r _ n _ ms _ acq _ ev _ wall _ _ < <(build/bench_plain 32 1500)
printf '%-32s %-22s %8s %8s %12s %12s %9s %12s %10s\n' "plain C event loop" "$n tasks" "$wall" \
	"$(echo "$ms / 1000" | bc -l | sed 's/0*$//')" 0 "$ev" \
	"$(echo "$wall * 1000 / $ms" | bc -l | xargs printf '%.1f')" \
	"$(echo "$ev / $wall" | bc -l | xargs printf '%.0f')" 0
if [ "$default" = 1 ]; then
	/usr/bin/time -f '%e %U' -o "$tmp/time" "$bin" run scenarios/seeds/list_lru_swap.json \
		>"$tmp/report" 2>"$tmp/err" || { cat "$tmp/err" >&2; exit 1; }
	read -r wall user <"$tmp/time"
	echo "# default comparison (memcgsim run scenarios/seeds/list_lru_swap.json, built): wall $wall s, user $user s"
fi
