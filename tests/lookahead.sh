#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The engine's lookahead (sim_task_flush: no engine call where no other actor
# can run before the task's clock) changes no result: each case runs with it
# and without it (MEMCGSIM_NO_LOOKAHEAD=1), and the two results are the same
# bytes but for the engine calls, which are never more with it and, where
# tasks run on past each other's flushes, fewer. That is under SimGrid's
# timed sleeps (MEMCGSIM_ENGINE=sleep); the hand-over engine makes the same
# decision without the lookahead (a task first in the queue hands over to
# nobody), so there the results and the engine calls are the same.
#   tests/lookahead.sh SOURCE_DIR MEMCGSIM
# Cases, shortened where the scenario is long: interrupts with handler
# bodies (interrupt tasks, yields), page_cgroup, the lru lock and folio
# reclaim, the swap benchmark (memcg reclaim, shadow nodes, list_lru), the
# dentry and inode benchmark (cgroup churn, RCU), both charging cases
# (res_counter and page_counter, netperf), lockbench under "queued", SMT.
set -u
src=$1
bin=$2
T=$(mktemp -d /tmp/memcgsim-lookahead-XXXXXX)
trap 'rm -rf "$T"' EXIT
fails=0

# check NAME FEWER SCENARIO [ARG ...]: FEWER is "fewer" when the lookahead must
# save engine calls, "any" when it may save none (every flush contended).
check() {
	name=$1 fewer=$2 scen=$src/scenarios/$3
	shift 3
	MEMCGSIM_ENGINE=sleep check_engine "$name" "$fewer" "$scen" "$@"
	check_engine "$name (hand-over)" any "$scen" "$@"
}

check_engine() {
	name=$1 fewer=$2 scen=$3
	shift 3
	MEMCGSIM_NO_LOOKAHEAD=1 "$bin" run "$scen" --set replicas=1 --format json -q "$@" \
		>"$T/off.json" 2>"$T/off.err" || { echo "FAIL: $name: without the lookahead:"; cat "$T/off.err"; fails=$((fails + 1)); return; }
	"$bin" run "$scen" --set replicas=1 --format json -q "$@" >"$T/on.json" 2>"$T/on.err" ||
		{ echo "FAIL: $name: with the lookahead:"; cat "$T/on.err"; fails=$((fails + 1)); return; }
	for side in off on; do
		sed '/^  "model": "/d; /"engine_calls": /d' "$T/$side.json" >"$T/$side.rest"
		sed -n 's/.*"engine_calls": \([0-9]*\).*/\1/p' "$T/$side.json" >"$T/$side.calls"
	done
	if ! cmp -s "$T/off.rest" "$T/on.rest"; then
		echo "FAIL: $name: results differ:"
		diff "$T/off.rest" "$T/on.rest" | head -20
		fails=$((fails + 1))
		return
	fi
	off=$(awk '{s += $1} END {print s}' "$T/off.calls")
	on=$(awk '{s += $1} END {print s}' "$T/on.calls")
	[ -s "$T/on.calls" ] && [ "$(wc -l <"$T/on.calls")" = "$(wc -l <"$T/off.calls")" ] ||
		{ echo "FAIL: $name: no engine calls in the result"; fails=$((fails + 1)); return; }
	if [ "$on" -gt "$off" ] || { [ "$fewer" = fewer ] && [ "$on" -ge "$off" ]; }; then
		echo "FAIL: $name: engine calls $on with the lookahead, $off without"
		fails=$((fails + 1))
		return
	fi
	echo "same: $name (engine calls $off without the lookahead, $on with)"
}

check irq_latency any irq_latency.json
check page_cgroup_dd fewer page_cgroup_dd.json
check page_cgroup_kbuild fewer page_cgroup_kbuild.json
check readtwice_32cpu fewer seeds/lru_lock_readtwice_32cpu.json
check swap fewer seeds/list_lru_swap.json --set workloads.0.size_mb=48
check inode_dentry fewer seeds/list_lru_inode_dentry.json --set workloads.0.count=16 \
	--set workloads.1.count=16 --set workloads.1.files=2000
check charge_2009 fewer seeds/memcg_charge_2009.json --set stop.duration_ns=100000000
check charge_2022 any seeds/memcg_charge_2022.json --set stop.duration_ns=10000000
check static_key any seeds/static_key_swap.json
check lockbench_queued any validation/lockbench.json --set 'machine.contention="queued"'
check smt fewer seeds/lru_lock_readtwice_104cpu.json --set stop.duration_ns=20000000

[ "$fails" = 0 ] || { echo "$fails failed"; exit 1; }
echo "lookahead: every case the same"
