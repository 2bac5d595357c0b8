#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The hand-over engine (the default, sim_sched.h) against SimGrid's timed
# sleeps (MEMCGSIM_ENGINE=sleep): the same actors through the same states at
# the same simulated times, but actors due at the very same picosecond run in
# the order they were entered instead of SimGrid's. Where no such tie decides
# anything the two results are the same bytes (but for the engine calls);
# where one does, the run takes another path, as with another seed, and every
# headline figure of every variant (elapsed_ns and the workloads' figures:
# the rows of the CSV report without a ':' and other than sim_time_ns and
# cpu_time_ns.*) must lie within BOUND_PCT of the sleep engine's, the
# model's stated resolution (CHANGE_MIN_RESOLUTION_PCT). Prints the largest
# difference of each case.
#   tests/handover.sh SOURCE_DIR MEMCGSIM
set -u
src=$1
bin=$2
BOUND_PCT=1.0
T=$(mktemp -d /tmp/memcgsim-handover-XXXXXX)
trap 'rm -rf "$T"' EXIT
fails=0

# The headline rows of @1's CSV report: "variant,replica,metric value".
headline() {
	"$bin" report "$1" --format csv | awk -F, 'NR > 1 && $6 !~ /:/ && $6 != "sim_time_ns" &&
		$6 !~ /^cpu_time_ns/ { print $3 "," $4 "," $6, $7 }' | sort
}

# check NAME SCENARIO [ARG ...]
check() {
	name=$1 scen=$src/scenarios/$2
	shift 2
	for e in sleep handover; do
		MEMCGSIM_ENGINE=$e "$bin" run "$scen" --set replicas=1 --format json -q "$@" \
			>"$T/$e.json" 2>"$T/$e.err" || { echo "FAIL: $name: engine $e:"; cat "$T/$e.err"; fails=$((fails + 1)); return; }
		sed '/^  "model": "/d; /"engine_calls": /d' "$T/$e.json" >"$T/$e.rest"
	done
	if cmp -s "$T/sleep.rest" "$T/handover.rest"; then
		echo "same: $name"
		return
	fi
	headline "$T/sleep.json" >"$T/sleep.h"
	headline "$T/handover.json" >"$T/handover.h"
	if ! cut -d' ' -f1 "$T/sleep.h" | cmp -s - "$(cut -d' ' -f1 "$T/handover.h" >"$T/keys"; echo "$T/keys")" ||
		[ ! -s "$T/keys" ]; then
		echo "FAIL: $name: the two results have different figures"
		fails=$((fails + 1))
		return
	fi
	worst=$(paste -d' ' "$T/sleep.h" "$T/handover.h" | awk '
		{ d = $2 == 0 ? ($4 == 0 ? 0 : 100) : ($4 - $2) * 100 / $2; if (d < 0) d = -d
		  if (d >= w) { w = d; k = $1 } }
		END { printf "%.4f %s\n", w, k }')
	pct=${worst%% *}
	if awk -v p="$pct" -v b="$BOUND_PCT" 'BEGIN { exit !(p > b) }'; then
		echo "FAIL: $name: ${worst#* } differs by $pct% between the engines (bound $BOUND_PCT%)"
		fails=$((fails + 1))
		return
	fi
	echo "within $BOUND_PCT%: $name (largest: ${worst#* }, $pct%)"
}

check irq_latency irq_latency.json
check page_cgroup_dd page_cgroup_dd.json
check page_cgroup_kbuild page_cgroup_kbuild.json
# 5.10/5.11's charging (a stock of 32 pages, usage beside the limits, since
# 2026-12-03): the engines' tie orders move bytes_read by 1.08% (0.63%
# before); no seed moves this scenario at all. Bounded here at 1.5%: at 32
# CPUs the model resolves readtwice to about 1.1%, not 1%.
BOUND_PCT=1.5
check readtwice_32cpu seeds/lru_lock_readtwice_32cpu.json
BOUND_PCT=1.0
check swap seeds/list_lru_swap.json --set workloads.0.size_mb=48
check swap_longer seeds/list_lru_swap.json --variant v1-before --set workloads.0.size_mb=160 \
	--set kernel.version=6.12
# v1's own tree (mm-2024-06): its exit frees every slot under the one si->lock,
# where all 64 exiting tasks queue at once. Which of two tasks arriving at the
# same picosecond queues first decides which socket the next holder is on, and
# so what each holder's stores to the lock's own line cost while the head
# waiter spins on it (47.5 or 148.8 ns): the two engines' tie orders differ in
# a way seeds do not (elapsed 1.957 s against 2.001 s, +2.2%, seeds 1-3
# within 0.6%; si->lock's hold 13.3 against 14.1 us; measured 2026-12-03).
# Bounded here at 3%, not the 1% of the others.
BOUND_PCT=3.0
check swap_longer_2024 seeds/list_lru_swap.json --variant v1-before --set workloads.0.size_mb=160
BOUND_PCT=1.0
check inode_dentry seeds/list_lru_inode_dentry.json --set workloads.0.count=16 \
	--set workloads.1.count=16 --set workloads.1.files=2000
check charge_2009 seeds/memcg_charge_2009.json --set stop.duration_ns=100000000
check charge_2022 seeds/memcg_charge_2022.json --set stop.duration_ns=10000000
check static_key seeds/static_key_swap.json
check lockbench_queued validation/lockbench.json --set 'machine.contention="queued"'
check smt seeds/lru_lock_readtwice_104cpu.json --set stop.duration_ns=20000000

[ "$fails" = 0 ] || { echo "$fails failed"; exit 1; }
echo "handover: every case within its bound"
