# SPDX-License-Identifier: GPL-2.0-or-later
# Sourced by slurm-sweep.sh and parallel-sweep.sh: what both check of their
# command line, the command a shard runs, and the shards' outcome.
# shards_check sets mcs (the memcgsim to run) and out (the sweep's --out
# DIR); exits 2 with the reason when something is wrong.
# Usage: shards_check NAME SHARDS CPUS SWEEP_ARGS...
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
	mkdir -p -- "$out.shards"
}

# $1 in single quotes, as any POSIX shell reads it back byte for byte (dash
# runs sbatch --wrap's script; bash's printf %q writes $'...', which dash
# does not read): each ' becomes '\''.
shell_quote()
{
	local q="'\\''"
	printf "'%s'" "${1//\'/$q}"
}

# The sweep's arguments with --out DIR left out, shell-quoted, for a command line.
shards_args_without_out()
{
	local quoted=""
	while [ $# -gt 0 ]; do
		case $1 in
		--out) shift ;;
		--out=*) ;;
		*) quoted+="$(shell_quote "$1") " ;;
		esac
		shift
	done
	printf '%s' "$quoted"
}

# The command one shard runs, for any POSIX shell (/bin/sh under sbatch
# --wrap): the sweep's shard K into DIR.shards/K, then its exit status into
# DIR.shards/K.status, which shards_outcome reads. K is $1 as the launcher
# writes it ("$SLURM_ARRAY_TASK_ID", or parallel's {}).
# Usage: shard_command K SHARDS CPUS SWEEP_ARGS...
shard_command()
{
	local k=$1 shards=$2 cpus=$3 dir
	shift 3
	dir=$(shell_quote "$out.shards")
	rm -f -- "$out.shards"/*.status
	printf '%s sweep %s--out=%s/%s --shard=%s/%s -j %s --quiet; s=$?; echo $s >%s/%s.status; exit $s' \
		"$(shell_quote "$mcs")" "$(shards_args_without_out "$@")" "$dir" "$k" "$k" "$shards" \
		"$cpus" "$dir" "$k"
}

# Every shard's outcome from its status file: exits 1 naming the shards
# that failed, were stopped or never started, and where to look (HINT).
# Usage: shards_outcome NAME SHARDS HINT
shards_outcome()
{
	local name=$1 shards=$2 hint=$3 k s failed=""
	for ((k = 1; k <= shards; k++)); do
		s=$(cat -- "$out.shards/$k.status" 2>/dev/null) || s="no outcome: stopped or never started"
		[ "$s" = 0 ] || failed+=" $k ($s)"
	done
	[ -z "$failed" ] && return 0
	echo "$name: shards that did not succeed (exit status):$failed; $hint" >&2
	exit 1
}
