# SPDX-License-Identifier: GPL-2.0-or-later
# Sourced by slurm-sweep.sh and parallel-sweep.sh: what both check of their
# command line, after their own options. Sets mcs (the memcgsim to run) and
# out (the sweep's --out DIR); exits 2 with the reason when something is
# wrong. Usage: shards_check NAME SHARDS CPUS SWEEP_ARGS...
shards_check()
{
	local name=$1 shards=$2 cpus=$3
	shift 3
	case $shards$cpus in *[!0-9]*) echo "$name: -n and -c take a number" >&2; exit 2 ;; esac
	[ "$shards" -ge 1 ] && [ "$cpus" -ge 1 ] || { echo "$name: -n and -c must be at least 1" >&2; exit 2; }
	[ $# -ge 1 ] || { echo "$name: expected SCENARIO --out DIR [sweep options]" >&2; exit 2; }
	out=""
	while [ $# -gt 0 ]; do
		case $1 in
		--out) out=${2:-}; shift ;;
		--out=*) out=${1#--out=} ;;
		--shard | --shard=*) echo "$name: the shards are this script's to choose" >&2; exit 2 ;;
		esac
		shift
	done
	[ -n "$out" ] || { echo "$name: --out DIR is required" >&2; exit 2; }
	mcs=${MEMCGSIM:-$(command -v memcgsim || true)}
	[ -n "$mcs" ] || { echo "$name: no memcgsim on PATH (set MEMCGSIM)" >&2; exit 2; }
	mkdir -p "$out.shards"
}

# The sweep's arguments with --out DIR left out, shell-quoted, for a command line.
shards_args_without_out()
{
	local quoted=""
	while [ $# -gt 0 ]; do
		case $1 in
		--out) shift ;;
		--out=*) ;;
		*) quoted+="$(printf '%q' "$1") " ;;
		esac
		shift
	done
	printf '%s' "$quoted"
}
