#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Run a memcgsim sweep's shards with GNU parallel (on this machine, or on the
# machines of --sshlogin/--slf that parallel is given), then merge them into
# the sweep's directory. The merged result.json is byte-identical to the one
# an unsharded sweep writes.
#
# Usage: scripts/cluster/parallel-sweep.sh [-n SHARDS] [-c CPUS] [--parallel ARG]...
#            SCENARIO --out DIR [memcgsim sweep options...]
#   -n SHARDS       shards (default: the CPUs online)
#   -c CPUS         simulations each shard runs at once (default 1)
#   --parallel ARG  pass ARG to parallel (-j 4, --sshloginfile FILE, ...)
# The shards go to DIR.shards/K. memcgsim is $MEMCGSIM, else the memcgsim on
# PATH.
set -euo pipefail
shards=$(nproc) cpus=1 parallel_args=()
while [ $# -gt 0 ]; do
	case $1 in
	-n) shards=$2; shift 2 ;;
	-c) cpus=$2; shift 2 ;;
	--parallel) parallel_args+=("$2"); shift 2 ;;
	-h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) break ;;
	esac
done
source "$(dirname "$0")/sweep-shards.sh"
shards_check parallel-sweep "$shards" "$cpus" "$@"
# parallel runs the shard's command for K = 1..N from a script in
# DIR.shards, named by the environment: parallel reads its command line for
# replacement strings ({}, {= ... =}), so no argument of the sweep goes there.
export MCS_SHARD_SCRIPT=$out.shards/shard.sh
printf '#!/bin/sh\n# parallel-sweep.sh: shard $1 of %s\n%s\n' "$shards" \
	"$(shard_command '"$1"' "$shards" "$cpus" "$@")" >"$MCS_SHARD_SCRIPT"
set +e
seq 1 "$shards" | parallel --will-cite --halt soon,fail=1 --env MCS_SHARD_SCRIPT \
	"${parallel_args[@]}" 'sh -- "$MCS_SHARD_SCRIPT" {}'
status=$?
set -e
shards_outcome parallel-sweep "$shards" "parallel's exit status: $status"
shard_dirs=()
for ((k = 1; k <= shards; k++)); do
	shard_dirs+=("$out.shards/$k")
done
"$mcs" merge --out="$out" -- "${shard_dirs[@]}"
