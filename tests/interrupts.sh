#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# An interrupt or --timeout that comes before an output is put in place
# leaves every output as it was (docs/results.md, "Outputs"), one command
# class a case: tests/interrupts.sh CLASS MEMCGSIM
#   report   SIGTERM while `report -o old.html` renders: old.html as it was
#   merge    SIGINT while a merge builds result.json: no result.json
#   trace    SIGINT while `run -o --trace` joins the trace: both as they were
#   timeout  --timeout while a sweep builds result.json: no result.json,
#            exit 1 with the reason; --resume then finishes it
#   read     SIGTERM while report reads its input: no report, old r.txt as it
#            was; SIGINT while --resume reads a run file: the file is not
#            taken for damaged (not moved to bad/), no result.json
#   after    SIGTERM just after `report -o r.txt` put r.txt in place (the
#            hook's SIG:NAME:after): it exits 0, r.txt the new report
#   plan     SIGTERM just before a new sweep's sweep.json is in place (DIR
#            holds the lock and an empty runs/): --resume, and the same
#            command without it, both take the directory and finish
#   answer   SIGTERM 1 s into work of seconds that writes nothing (validate
#            of a hostile 4 MiB scenario, the plan of a 5,000-point sweep):
#            it dies of it at once, saying so, before that work is done (its
#            own message would come first); the delay is printed, not judged
# The signal comes (but for read, which has it come once an input is read,
# before it is parsed) at the latest moment, just before the rename, from the
# test hook MEMCGSIM_TEST_SIGNAL_AT=SIG:NAME (base/output.c). Each case
# checks the exit status, the exact standard error, the files' bytes and
# that no temporary is left.
suite=interrupts
. "$(dirname "$0")/cases.sh"

# expect NAME RC STDERR COMMAND...: COMMAND exits RC (128 + N: dies of
# signal N) and prints STDERR exactly.
expect() {
	name=$1 rc=$2 want=$3
	shift 3
	# redirected in the subshell it replaces: the shell's "Terminated" is not its
	(exec "$@" > /dev/null 2> "$T/stderr") 2> /dev/null
	got=$?
	printf '%s\n' "$want" | sed '/^$/d' > "$T/want"
	own_stderr "$T/stderr" > "$T/stderr.n"
	[ "$got" = "$rc" ] || fail "$name: exit status $got, expected $rc"
	cmp -s "$T/stderr.n" "$T/want" || { fail "$name: standard error:"; diff "$T/want" "$T/stderr.n"; }
}

# no_temps NAME DIR...: no temporary left in DIR
no_temps() {
	name=$1
	shift
	find "$@" -name '*.tmp.*' | grep -q . && fail "$name: a temporary was left: $(find "$@" -name '*.tmp.*')"
}

case_report() {
	echo old > "$T/old.html"
	expect "report -o" 143 "memcgsim: $T/old.html: left as it was: interrupted by signal 15 (Terminated)" \
		env MEMCGSIM_TEST_SIGNAL_AT=15:old.html "$bin" report "$result" --format html -o "$T/old.html"
	[ "$(cat "$T/old.html")" = old ] || fail "report -o: old.html was replaced"
	no_temps "report -o" "$T"
}

case_merge() {
	$sweep --out "$T/s1" --shard 1/2 2> /dev/null || fail "merge: shard 1"
	$sweep --out "$T/s2" --shard 2/2 2> /dev/null || fail "merge: shard 2"
	expect "merge" 130 "memcgsim: $T/m/result.json: left as it was: interrupted by signal 2 (Interrupt)" \
		env MEMCGSIM_TEST_SIGNAL_AT=2:result.json "$bin" merge --out "$T/m" "$T/s1" "$T/s2"
	[ -e "$T/m/result.json" ] && fail "merge: result.json was written"
	no_temps "merge" "$T"
	# the same merge, not interrupted, writes it
	expect "merge again" 0 "memcgsim: $T/m: all 4 runs done; result in $T/m/result.json" "$bin" merge --out "$T/m" "$T/s1" "$T/s2"
	[ -s "$T/m/result.json" ] || fail "merge again: no result.json"
}

case_trace() {
	echo old > "$T/r.txt"
	echo old-trace > "$T/t.json"
	expect "run --trace" 130 "memcgsim: $T/t.json: left as it was: interrupted by signal 2 (Interrupt)" \
		env MEMCGSIM_TEST_SIGNAL_AT=2:t.json "$bin" run "$scen" $quick -o "$T/r.txt" --trace "$T/t.json"
	[ "$(cat "$T/r.txt")" = old ] || fail "run --trace: -o's file was replaced"
	[ "$(cat "$T/t.json")" = old-trace ] || fail "run --trace: the trace was replaced"
	no_temps "run --trace" "$T" /tmp -maxdepth 1
}

case_timeout() {
	expect "sweep --timeout" 1 "memcgsim: $T/s/result.json: left as it was: timed out after 600 s (--timeout)" \
		env MEMCGSIM_TEST_SIGNAL_AT=14:result.json $sweep --out "$T/s" --timeout 600
	[ -e "$T/s/result.json" ] && fail "sweep --timeout: result.json was written"
	no_temps "sweep --timeout" "$T"
	# the runs it finished are kept: --resume builds the result from them
	expect "sweep --resume" 0 "memcgsim: $T/s: all 4 runs done; result in $T/s/result.json" $sweep --out "$T/s" --resume
	[ -s "$T/s/result.json" ] || fail "sweep --resume: no result.json"
}

case_read() {
	cp "$result" "$T/r.json"
	echo old > "$T/r.txt"
	expect "report, reading" 143 "$T/r.json: interrupted by signal 15 (Terminated)" \
		env MEMCGSIM_TEST_SIGNAL_AT=15:r.json "$bin" report "$T/r.json" -o "$T/r.txt"
	[ "$(cat "$T/r.txt")" = old ] || fail "report, reading: r.txt was replaced"
	no_temps "report, reading" "$T"
	$sweep --out "$T/s" 2> /dev/null || fail "read: the sweep"
	rm "$T/s/result.json"
	cp "$T/s/runs/p0000-v00-r000.json" "$T/run.json"
	expect "sweep --resume, reading" 130 "memcgsim: interrupted by signal 2 (Interrupt)" \
		env MEMCGSIM_TEST_SIGNAL_AT=2:p0000-v00-r000.json $sweep --out "$T/s" --resume
	cmp -s "$T/s/runs/p0000-v00-r000.json" "$T/run.json" ||
		fail "sweep --resume, reading: the run file changed"
	[ -e "$T/s/bad" ] && fail "sweep --resume, reading: a run file was moved to bad/"
	[ -e "$T/s/result.json" ] && fail "sweep --resume, reading: result.json was written"
	no_temps "sweep --resume, reading" "$T"
}

case_plan() {
	expect "sweep, planning" 143 "memcgsim: $T/p/sweep.json: left as it was: interrupted by signal 15 (Terminated)" \
		env MEMCGSIM_TEST_SIGNAL_AT=15:sweep.json $sweep --out "$T/p"
	[ -e "$T/p/sweep.json" ] && fail "sweep, planning: sweep.json was written"
	no_temps "sweep, planning" "$T"
	expect "sweep --resume after planning" 0 "memcgsim: $T/p: all 4 runs done; result in $T/p/result.json" \
		$sweep --out "$T/p" --resume
	env MEMCGSIM_TEST_SIGNAL_AT=15:sweep.json $sweep --out "$T/q" 2>/dev/null
	expect "sweep again after planning" 0 "memcgsim: $T/q: all 4 runs done; result in $T/q/result.json" \
		$sweep --out "$T/q"
}

case_after() {
	echo old > "$T/r.txt"
	"$bin" report "$result" > "$T/want.txt"
	expect "report -o, signal after" 0 "" \
		env MEMCGSIM_TEST_SIGNAL_AT=15:r.txt:after "$bin" report "$result" -o "$T/r.txt"
	cmp -s "$T/r.txt" "$T/want.txt" || fail "report -o, signal after: r.txt is not the report"
	no_temps "report -o, signal after" "$T"
}

# late NAME STDERR COMMAND...: SIGTERM 1 s into COMMAND: it dies of it
# (143), printing STDERR exactly; how long it took to is printed.
late() {
	name=$1 want=$2
	shift 2
	(exec "$@" > /dev/null 2> "$T/stderr") 2> /dev/null &
	pid=$!
	sleep 1
	sent=$(date +%s%N)
	kill -TERM $pid
	wait $pid 2> /dev/null # the shell's "Terminated" is not the command's
	got=$?
	echo "$name: died $(( ($(date +%s%N) - sent) / 1000000 )) ms after the signal"
	printf '%s\n' "$want" > "$T/want"
	own_stderr "$T/stderr" > "$T/stderr.n"
	[ "$got" = 143 ] || fail "$name: exit status $got, expected 143"
	cmp -s "$T/stderr.n" "$T/want" || { fail "$name: standard error:"; diff "$T/want" "$T/stderr.n"; }
}

case_answer() {
	# 1.4 million empty objects: parsed, checked and freed in about 4 s
	awk 'BEGIN { printf "{\"name\": \"x\", \"junk\": ["
		for (i = 0; i < 1398000; i++) printf "{},"; printf "{}]}" }' > "$T/big.json"
	late "validate, loading" "memcgsim: interrupted by signal 15 (Terminated)" \
		"$bin" validate "$T/big.json"
	late "sweep, planning" "memcgsim: interrupted by signal 15 (Terminated)" \
		"$bin" sweep "$src/scenarios/seeds/list_lru_swap.json" --variant v1-before \
		--param seed=lin:1:1000:1000 --param name=a,b,c,d,e --out "$T/p" -q --force
	[ -e "$T/p/sweep.json" ] && fail "sweep, planning: sweep.json was written"
	no_temps "answer" "$T"
}

case $class in
answer) case_answer ;;
after) case_after ;;
plan) case_plan ;;
report) case_report ;;
merge) case_merge ;;
trace) case_trace ;;
timeout) case_timeout ;;
read) case_read ;;
*) echo "tests/interrupts.sh: unknown class $class" >&2; exit 2 ;;
esac
cases_verdict
