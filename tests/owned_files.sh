#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The files a sweep owns cannot be redirected outside its directory:
#  - a hard link at DIR/.memcgsim.lock is refused (exit 2, the exact
#    message), the linked file's bytes untouched;
#  - a run file replaced by a symbolic link is not read through it: --resume
#    says so, moves the link aside and runs the run again; the target's
#    bytes are neither changed nor echoed;
#  - DIR/runs replaced by a symbolic link while the sweep runs stops it at
#    its next write (exit 2, the directory named), and nothing is written
#    through the link.
# Usage: tests/owned_files.sh BUILD_DIR SOURCE_DIR
set -uo pipefail
M=$(cd "$1" && pwd)/memcgsim S=$(cd "$2" && pwd)/scenarios/lockbench_scope.json
tmp=$(mktemp -d /tmp/memcgsim-owned-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }
quick=(--set replicas=1 --set stop.duration_ns=100000 -j1 -q)

# the lock file hard-linked to a file outside DIR
echo "IMPORTANT DATA" >victim
mkdir out
ln victim out/.memcgsim.lock
"$M" sweep "$S" "${quick[@]}" --param workloads.0.hold_ns=100 --out out 2>err
rc=$?
[ $rc -eq 2 ] || fail "hard-linked lock: exit $rc, not 2"
want="memcgsim: out/.memcgsim.lock: has 1 other hard link: refusing to write it (remove it, and the sweep makes its own)"
[ "$(cat err)" = "$want" ] || fail "hard-linked lock: said: $(cat err)"
[ "$(cat victim)" = "IMPORTANT DATA" ] || fail "hard-linked lock: the linked file now holds: $(cat victim)"
[ ! -e out/sweep.json ] || fail "hard-linked lock: the sweep wrote its plan"

# a run file replaced by a symbolic link to a secret
"$M" sweep "$S" "${quick[@]}" --param workloads.0.hold_ns=100 --out s >/dev/null 2>&1 ||
	fail "the sweep to damage did not run"
printf 'SECRET {"x": 1}' >secret
run=$(cd s/runs && ls | head -1)
ln -sf "$tmp/secret" "s/runs/$run"
"$M" sweep "$S" "${quick[@]}" --param workloads.0.hold_ns=100 --out s --resume 2>err
rc=$?
[ $rc -eq 0 ] || fail "symlinked run file: --resume exit $rc: $(cat err)"
grep -qF "memcgsim: s/runs/$run: damaged (not a regular file (a symbolic link)); moved to s/bad/$run, running it again" err ||
	fail "symlinked run file: said: $(cat err)"
! grep -q SECRET err || fail "symlinked run file: its target echoed"
[ "$(cat secret)" = 'SECRET {"x": 1}' ] || fail "symlinked run file: the target changed"
[ -f "s/runs/$run" ] && [ ! -L "s/runs/$run" ] || fail "symlinked run file: not run again"

# DIR/runs replaced by a symbolic link while the sweep runs
mkdir elsewhere
"$M" sweep "$S" "${quick[@]}" --param workloads.0.hold_ns=lin:100:1000:40 --out sw 2>err &
pid=$!
for _ in $(seq 200); do [ -n "$(ls sw/runs 2>/dev/null)" ] && break; sleep 0.05; done
mv sw/runs sw/runs.old && ln -s ../elsewhere sw/runs
wait $pid
rc=$?
[ $rc -eq 2 ] || fail "runs replaced: exit $rc, not 2: $(cat err)"
grep -qE "^memcgsim: sw/runs: replaced while memcgsim ran \(now (a symbolic link|missing)\): refusing to write in it$" err ||
	fail "runs replaced: said: $(cat err)"
[ -z "$(ls elsewhere)" ] || fail "runs replaced: written through the link: $(ls elsewhere)"

[ $fails -eq 0 ] && echo "owned files: all cases held"
exit $((fails > 0))
