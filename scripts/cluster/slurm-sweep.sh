#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Run a memcgsim sweep on a Slurm cluster: an sbatch job array, one shard of
# the sweep per array task (memcgsim sweep --shard K/N), and a merge job that
# starts when every shard has succeeded (--dependency=afterok) and puts them
# together into the sweep's directory. The merged result.json is
# byte-identical to the one an unsharded sweep writes.
#
# Usage: scripts/cluster/slurm-sweep.sh [-n SHARDS] [-c CPUS] [--wait] [--sbatch ARG]...
#            SCENARIO --out DIR [memcgsim sweep options...]
#   -n SHARDS     array tasks, one shard each (default 4)
#   -c CPUS       CPUs per task, and the simulations each runs at once (default 1)
#   --wait        return when the merge job has finished, with its status; a
#                 shard that failed, was stopped or never started: exit 1,
#                 named (each shard writes its status to DIR.shards/K.status)
#   --sbatch ARG  pass ARG to both sbatch calls (--partition=..., --time=...)
# The shards go to DIR.shards/K (kept: an interrupted shard resumes there on a
# rerun), the jobs' output to DIR.shards/slurm-*.out. Every argument reaches
# the shards as given: single-quoted for the /bin/sh that runs sbatch
# --wrap's script. memcgsim is $MEMCGSIM,
# else the memcgsim on PATH, as the compute nodes see it.
set -euo pipefail
shards=4 cpus=1 wait="" sbatch_args=()
while [ $# -gt 0 ]; do
	case $1 in
	-n) shards=$2; shift 2 ;;
	-c) cpus=$2; shift 2 ;;
	--wait) wait=--wait; shift ;;
	--sbatch) sbatch_args+=("$2"); shift 2 ;;
	-h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) break ;;
	esac
done
source "$(dirname "$0")/sweep-shards.sh"
shards_check slurm-sweep "$shards" "$cpus" "$@"
# each task: the sweep into its shard directory (every argument in single
# quotes: sbatch --wrap runs the script with /bin/sh)
shard_cmd=$(shard_command '"$SLURM_ARRAY_TASK_ID"' "$shards" "$cpus" "$@")

array=$(sbatch --parsable --array=1-"$shards" --cpus-per-task="$cpus" --job-name=memcgsim-sweep \
	--output="$out.shards/slurm-%A_%a.out" "${sbatch_args[@]}" --wrap "$shard_cmd")
array=${array%%;*}
merge_cmd="$(shell_quote "$mcs") merge --out=$(shell_quote "$out") --"
for ((k = 1; k <= shards; k++)); do
	merge_cmd+=" $(shell_quote "$out.shards/$k")"
done
echo "slurm-sweep: array job $array ($shards shards)"
set +e
merge=$(sbatch --parsable $wait --dependency=afterok:"$array" --kill-on-invalid-dep=yes \
	--job-name=memcgsim-merge --output="$out.shards/slurm-merge-%j.out" "${sbatch_args[@]}" \
	--wrap "$merge_cmd")
status=$?
set -e
echo "slurm-sweep: merge job ${merge%%;*} -> $out/result.json"
[ -z "$wait" ] && exit $status
# --wait: every shard's outcome, then the merge's
shards_outcome slurm-sweep "$shards" "their output: $out.shards/slurm-${array}_K.out"
[ $status -eq 0 ] || echo "slurm-sweep: the merge job failed (exit $status)" >&2
exit $status
