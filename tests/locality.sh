#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# CPU-local acquisitions (spin_lock_set_local: a lock taken at the task's
# clock, without an engine call, while its line is the CPU's and nobody
# holds it) against every acquisition flushing (MEMCGSIM_NO_LOCAL=1).
# Unlike the lookahead they may move results: the task runs on ahead of the
# engine's present, and what it reads there of the other CPUs (whether its
# SMT siblings are busy, their cursors in the queued line model, the lines
# its section finds where another CPU left them) is the present's, not its
# clock's. Each case runs both ways and asks for the simulated times
# (sim_time_ns) and the busy CPU times (user, sys with its unexplained part,
# spin) within P percent,
# no inversion, and fewer engine calls with local locks.
#   tests/locality.sh SOURCE_DIR MEMCGSIM
set -u
src=$1
bin=$2
T=$(mktemp -d /tmp/memcgsim-locality-XXXXXX)
trap 'rm -rf "$T"' EXIT
fails=0

# The numbers the bound applies to, one per line, in document order: sys
# with the unexplained part of its flat costs that follows it (what sys was
# before machine.private_ns split it).
result_times() {
	sed -n 's/.*"\(sim_time_ns\|user\|sys\|spin\|unexplained\)": \([0-9.e+-]*\),\{0,1\}$/\1 \2/p' "$1" |
		awk '$1 == "sys" { sys = $2; held = 1; next }
		     $1 == "unexplained" && held { printf "%.17g\n", sys + $2; held = 0; next }
		     $1 == "unexplained" { next }
		     { print $2 }'
}

calls() {
	sed -n 's/.*"engine_calls": \([0-9]*\).*/\1/p' "$1" | awk '{s += $1} END {print s + 0}'
}

# check NAME PCT SCENARIO [ARG ...]
check() {
	name=$1 pct=$2 scen=$src/scenarios/$3
	shift 3
	MEMCGSIM_NO_LOCAL=1 "$bin" run "$scen" --set replicas=1 --format json -q "$@" >"$T/off.json" \
		2>"$T/off.err" || { echo "FAIL: $name: without local locks:"; cat "$T/off.err"; fails=$((fails + 1)); return; }
	"$bin" run "$scen" --set replicas=1 --format json -q "$@" >"$T/on.json" 2>"$T/on.err" ||
		{ echo "FAIL: $name: with local locks:"; cat "$T/on.err"; fails=$((fails + 1)); return; }
	inv=$(sed -n 's/.*"inversions": \([0-9]*\).*/\1/p' "$T/on.json" | awk '{s += $1} END {print s + 0}')
	[ "$inv" = 0 ] || { echo "FAIL: $name: $inv inversions"; fails=$((fails + 1)); return; }
	result_times "$T/off.json" >"$T/off.t"
	result_times "$T/on.json" >"$T/on.t"
	if [ ! -s "$T/on.t" ] || [ "$(wc -l <"$T/on.t")" != "$(wc -l <"$T/off.t")" ]; then
		echo "FAIL: $name: the results do not have the same times"
		fails=$((fails + 1))
		return
	fi
	worst=$(paste "$T/off.t" "$T/on.t" | awk '
		{ d = $2 - $1; if (d < 0) d = -d; r = $1 > 0 ? 100 * d / $1 : (d > 0 ? 100 : 0); if (r > w) w = r }
		END { printf "%.4f", w }')
	if awk -v w="$worst" -v p="$pct" 'BEGIN { exit !(w > p) }'; then
		echo "FAIL: $name: a time moved by $worst% (bound $pct%)"
		fails=$((fails + 1))
		return
	fi
	off=$(calls "$T/off.json")
	on=$(calls "$T/on.json")
	if [ "$on" -ge "$off" ]; then
		echo "FAIL: $name: engine calls $on with local locks, $off without"
		fails=$((fails + 1))
		return
	fi
	echo "$name: within $worst% (bound $pct%) (engine calls $off without local locks, $on with)"
}

# The swap benchmark, swapping (72 MiB memhogs over 64 MiB limits), with
# the swap cluster, address-space and zswap-tree locks local. Measured when
# the test was written: elapsed moves by 0.003% (v1-after), spin by 0.85%;
# since reclaim visits both nodes a pass (2026-12-03), elapsed 0.11% and
# spin 3.09% (v1-after: 291 against 300 ms of a 5.5 s run's busy time, the
# waits' order at si->lock and the list lock): bound 4%. Since the kernel
# paths' line costs are stalls unstretched by SMT (2026-12-03, night),
# v1-before's spin moved by 7.41% (261.3 against 280.7 ms; si->lock's
# waits 231.7 against 249.6 ms, the exits' order again; sim_time_ns
# 0.25%): bound 9% for it, as for the 2024 tree below. Since reclaim's
# lru_note_cost takes each level's lruvec lock (2026-12-06), v1-after's
# spin moves by 13.1% (244.4 against 276.5 ms; si->lock's waits 226.4
# against 258.6 ms, the exits' order; sim_time_ns 0.39%): bound 15% for it.
check swap-v1-before 9 seeds/list_lru_swap.json --variant v1-before \
	--set workloads.0.size_mb=72 --set kernel.version=6.12
check swap-v1-after 15 seeds/list_lru_swap.json --variant v1-after \
	--set workloads.0.size_mb=72 --set kernel.version=6.12
# v1's own tree (mm-2024-06): the exits free every slot under the one
# si->lock, where all 64 tasks queue; a task running ahead of the present
# takes its place in that queue in another order, and the order decides
# what the holders' stores to the lock's own line cost (tests/handover.sh).
# Measured 2026-12-03: 2.80% (v1-before), 1.74% (v1-after). Bound 4%.
# Since v1-before's shadow nodes are on the root lists (2026-12-03 evening):
# 7.47%, its spin (1.601 against 1.482 s: si->lock's waits 1.566 against
# 1.446 s, the exits' order; sim_time_ns 1.70%). Bound 9% for it.
check swap-v1-before-2024 9 seeds/list_lru_swap.json --variant v1-before \
	--set workloads.0.size_mb=72
check swap-v1-after-2024 4 seeds/list_lru_swap.json --variant v1-after \
	--set workloads.0.size_mb=72

[ "$fails" = 0 ] || { echo "$fails failed"; exit 1; }
echo "locality: every case within its bound"
