#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The cluster scripts pass every sweep argument to the shards verbatim,
# whatever bytes it holds, through the shell that runs them: sbatch --wrap's
# /bin/sh (dash on Debian, which has no $'...') for scripts/cluster/slurm-sweep.sh,
# and GNU parallel's command line (which expands {} and {= perl =}) for
# scripts/cluster/parallel-sweep.sh. A fake sbatch stands in for the cluster: like
# the real one (slurm's sbatch --wrap) it writes the command under
# "#!/bin/sh" and runs it, each array task with SLURM_ARRAY_TASK_ID. Also:
# an --out starting with '-', every shard's outcome checked (a failed shard
# makes the script exit 1 and name it).
# Usage: tests/cluster_quoting.sh SOURCE_DIR BUILD_DIR
set -uo pipefail
src=$(cd "$1" && pwd) build=$(cd "$2" && pwd)
tmp=$(mktemp -d /tmp/memcgsim-quoting-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }
mkdir "$tmp/bin"
cat >"$tmp/bin/sbatch" <<'SB'
#!/bin/bash
array="" wrap=""
while [ $# -gt 0 ]; do
	case $1 in --array=*) array=${1#--array=} ;; --wrap) wrap=$2; shift ;; esac
	shift
done
s=$(mktemp)
printf '#!/bin/sh\n# This script was created by sbatch --wrap.\n\n%s\n' "$wrap" >"$s"
if [ -n "$array" ]; then
	for ((k = ${array%-*}; k <= ${array#*-}; k++)); do
		SLURM_ARRAY_TASK_ID=$k /bin/sh "$s" >>"$SBATCH_LOG" 2>&1
	done
else
	/bin/sh "$s" >>"$SBATCH_LOG" 2>&1
fi
rm -f "$s"
echo 4242
SB
chmod +x "$tmp/bin/sbatch"
export PATH="$tmp/bin:$PATH" MEMCGSIM=$build/memcgsim SBATCH_LOG=$tmp/sbatch.log
sc=$src/scenarios/lockbench_scope.json
grid=(--set replicas=1 --set stop.duration_ns=100000 --param workloads.0.hold_ns=100,200)
cd "$tmp" || exit 1

# $1: the script; $2: the --out; the rest: more sweep options. The sweep's
# result must be in the --out named, and no file "pwned" anywhere here.
verbatim() {
	local script=$1 out=$2 rc
	shift 2
	bash "$src/scripts/cluster/$script" -n 2 "$sc" "${grid[@]}" "$@" --out "$out" >/dev/null 2>"$tmp/err"
	rc=$?
	[ $rc -eq 0 ] || fail "$script --out $(printf %q "$out") $*: exit $rc: $(cat "$tmp/err")"
	[ -f "$out/result.json" ] || fail "$script --out $(printf %q "$out"): no $out/result.json"
	if [ -e "$tmp/pwned" ]; then
		fail "$script --out $(printf %q "$out") $*: an argument ran as shell"
		rm -f "$tmp/pwned"
	fi
}
quote="'; touch $tmp/pwned; #"
for script in slurm-sweep.sh parallel-sweep.sh; do
	LC_ALL=C verbatim "$script" "o-set-$script" --set "description=café$quote"
	verbatim "$script" "$(printf 'o-nl-%s\n%s' "$script" "$quote")"
	LC_ALL=C verbatim "$script" "résultats-$script"
	verbatim "$script" "-x-$script"
	verbatim "$script" "p{}x-$script" --set "description=\"{= \`touch $tmp/pwned\` =}\""
	# the description arrived as typed
	want="café$quote"
	got=$(LC_ALL=C "$MEMCGSIM" report "o-set-$script" --format json 2>/dev/null |
		python3 -c 'import json,sys; print(json.load(sys.stdin)["description"], end="")' 2>/dev/null)
	[ "$got" = "$want" ] || fail "$script: description arrived as $(printf %q "$got")"
done

# A shard that fails: the scripts exit 1 and name it.
cat >"$tmp/bin/failing-memcgsim" <<EOF2
#!/bin/sh
case " \$* " in *" --shard=2/2 "*) echo "shard 2 broke" >&2; exit 3 ;; esac
exec "$build/memcgsim" "\$@"
EOF2
chmod +x "$tmp/bin/failing-memcgsim"
for script in "slurm-sweep.sh --wait" parallel-sweep.sh; do
	# shellcheck disable=SC2086
	MEMCGSIM=$tmp/bin/failing-memcgsim bash "$src/scripts/cluster/"$script -n 2 "$sc" "${grid[@]}" \
		--out "fails-${script%% *}" >/dev/null 2>"$tmp/err"
	rc=$?
	[ $rc -eq 1 ] || fail "$script with shard 2 failing: exit $rc, not 1"
	grep -q "shards that did not succeed (exit status):.* 2 (3)" "$tmp/err" ||
		fail "$script with shard 2 failing: $(cat "$tmp/err")"
done
[ $fails -eq 0 ] && echo "cluster quoting: all cases held"
exit $((fails > 0))
