#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Sharded sweeps on the engines users have, for real: GNU parallel running
# the shards (scripts/cluster/parallel-sweep.sh), or a single-node Slurm cluster
# started here for the test (munge and slurmctld/slurmd on localhost, on
# private ports and files, torn down after) running them as a job array with
# a dependent merge job (scripts/cluster/slurm-sweep.sh). Either way the merged
# result.json must be byte-identical to the unsharded sweep's. A cluster
# that cannot start is a failure, with its logs.
# Usage: tests/sweep_engines.sh SOURCE_DIR BUILD_DIR parallel|slurm
set -euo pipefail
src=$1 build=$2 engine=$3
tmp=$(mktemp -d /tmp/memcgsim-engines-XXXXXX)
chmod 755 "$tmp"
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
	for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
	rm -rf "$tmp"
}
trap cleanup EXIT
fail() {
	echo "FAIL: $*" >&2
	for log in "$tmp"/*.log; do [ -f "$log" ] && { echo "--- $log" >&2; tail -20 "$log" >&2; }; done
	exit 1
}
export MEMCGSIM=$build/memcgsim
sweep=("$src/scenarios/lockbench_scope.json" --param workloads.0.hold_ns=50,100,200
	--set stop.duration_ns=100000 --replicas 2)

"$MEMCGSIM" sweep "${sweep[@]}" --out "$tmp/whole" -j2 -q 2>/dev/null
[ -f "$tmp/whole/result.json" ] || fail "the unsharded sweep wrote no result"

start_slurm() {
	command -v munged >/dev/null && command -v slurmctld >/dev/null && command -v slurmd >/dev/null ||
		fail "munge and slurm-wlm are not installed (scripts/setup/setup-test.sh installs them)"
	mkdir -p "$tmp/munge" "$tmp/state" "$tmp/spool"
	chmod 711 "$tmp/munge"
	dd if=/dev/urandom of="$tmp/munge/munge.key" bs=1024 count=1 status=none
	chmod 400 "$tmp/munge/munge.key"
	munged --foreground --force --key-file="$tmp/munge/munge.key" --socket="$tmp/munge/sock" \
		--pid-file="$tmp/munge/pid" --seed-file="$tmp/munge/seed" >"$tmp/munge.log" 2>&1 &
	pids+=($!)
	for _ in $(seq 100); do [ -S "$tmp/munge/sock" ] && break; sleep 0.1; done
	[ -S "$tmp/munge/sock" ] || fail "munged did not start"
	# ports of our own, away from a real cluster's 6817/6818
	local ctld=$((20000 + RANDOM % 20000))
	local node
	node=$(slurmd -C | head -1 | sed 's/^NodeName=[^ ]* //')
	cat >"$tmp/slurm.conf" <<EOF
ClusterName=memcgsim-test
SlurmctldHost=localhost
SlurmctldPort=$ctld
SlurmdPort=$((ctld + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$tmp/munge/sock
CredType=cred/munge
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/slurmctld.log
SlurmdLogFile=$tmp/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
ReturnToService=2
MpiDefault=none
NodeName=localhost NodeAddr=127.0.0.1 $node State=UNKNOWN
PartitionName=test Nodes=localhost Default=YES MaxTime=INFINITE State=UP
EOF
	export SLURM_CONF=$tmp/slurm.conf
	slurmctld -D -i >"$tmp/slurmctld.out.log" 2>&1 &
	pids+=($!)
	slurmd -D -N localhost >"$tmp/slurmd.out.log" 2>&1 &
	pids+=($!)
	for _ in $(seq 300); do
		[ "$(sinfo -h -n localhost -o %T 2>/dev/null)" = idle ] && return
		sleep 0.1
	done
	fail "the Slurm node did not come up: $(sinfo -h -o '%T %E' 2>&1)"
}

case $engine in
parallel)
	command -v parallel >/dev/null || fail "GNU parallel is not installed (scripts/setup/setup-test.sh)"
	"$src/scripts/cluster/parallel-sweep.sh" -n 3 "${sweep[@]}" --out "$tmp/merged" 2>"$tmp/parallel.log" ||
		fail "parallel-sweep.sh failed"
	;;
slurm)
	start_slurm
	"$src/scripts/cluster/slurm-sweep.sh" -n 3 --wait "${sweep[@]}" --out "$tmp/merged" \
		>"$tmp/slurm-sweep.log" 2>&1 || fail "slurm-sweep.sh: $(cat "$tmp/slurm-sweep.log")"
	grep -q "^slurm-sweep: array job [0-9]* (3 shards)$" "$tmp/slurm-sweep.log" ||
		fail "no array job: $(cat "$tmp/slurm-sweep.log")"
	# every array task ran its own shard
	for k in 1 2 3; do
		[ -f "$tmp/merged.shards/$k/sweep.json" ] || fail "shard $k did not run"
	done
	;;
*) fail "engine: expected parallel or slurm, got $engine" ;;
esac
[ -f "$tmp/merged/result.json" ] || fail "$engine: the merge wrote no result"
cmp "$tmp/merged/result.json" "$tmp/whole/result.json" ||
	fail "$engine: the merged result differs from the unsharded sweep's"
echo "$engine sweep: merged result byte-identical to the unsharded sweep's"
