#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# What memcgsim promises about the files it writes (docs/results.md,
# "Outputs"), one class of failure a case: tests/outputs.sh CLASS MEMCGSIM
#   o-rule        -o - and character devices written into, a regular file
#                 replaced atomically (keeping its mode; through a symlink,
#                 from a working directory past PATH_MAX too), a FIFO or a
#                 directory refused
#   owned-files   files inside output directories (the sweep's lock, runs
#                 and result, merge --out, plots, trace parts): a symlink or
#                 a FIFO there is never written through, truncated or waited on
#   write-errors  every writer to a full device (/dev/full) fails, exit 1,
#                 naming what it could not write
#   full-fs       every writer onto a full file system (an 8 KiB tmpfs,
#                 mounted in a private mount namespace): exit 1 naming the
#                 file, no crash, nothing half-written left where the output
#                 was expected
# Each case checks the exit status and the exact standard error.
suite=outputs
. "$(dirname "$0")/cases.sh"

# expect NAME RC STDERR COMMAND...: COMMAND (given 60 s) exits RC and prints
# STDERR exactly (a temporary's random suffix read as XXXXXX).
expect() {
	name=$1 rc=$2 want=$3
	shift 3
	timeout 60 "$@" > "$T/stdout" 2> "$T/stderr"
	got=$?
	own_stderr "$T/stderr" | sed -E 's/(\.tmp\.|memcgsim-plots-)[A-Za-z0-9]{6}/\1XXXXXX/g' > "$T/stderr.n"
	printf '%s\n' "$want" | sed '/^$/d' > "$T/want"
	[ "$got" = "$rc" ] || fail "$name: exit status $got, expected $rc"
	cmp -s "$T/stderr.n" "$T/want" || { fail "$name: standard error:"; diff "$T/want" "$T/stderr.n"; }
}

case_o_rule() {
	expect "-o /dev/null" 0 "" "$bin" run "$scen" $quick -o /dev/null
	expect "report -o /dev/null" 0 "" "$bin" report "$result" -o /dev/null
	expect "compare -o /dev/null" 0 "" "$bin" compare "$result" "$result" -o /dev/null
	"$bin" run "$scen" $quick > "$T/plain.txt"
	expect "-o -" 0 "" "$bin" run "$scen" $quick -o -
	cmp -s "$T/stdout" "$T/plain.txt" || fail "-o -: not the report on standard output"
	mkfifo "$T/fifo"
	expect "-o FIFO" 2 "memcgsim: -o: $T/fifo: a FIFO, not a regular file: refusing to replace it" \
		"$bin" run "$scen" $quick -o "$T/fifo"
	[ -p "$T/fifo" ] || fail "-o FIFO: the FIFO is gone"
	mkdir "$T/dir"
	expect "-o DIR" 2 "memcgsim: -o: $T/dir: a directory, not a regular file: refusing to replace it" \
		"$bin" report "$result" -o "$T/dir"
	# a regular file is replaced by a new file (atomically, by rename),
	# through a symlink the user named: its target
	echo old > "$T/r.txt"
	ln -s r.txt "$T/link.txt"
	before=$(stat -c %i "$T/r.txt")
	expect "-o FILE" 0 "" "$bin" run "$scen" $quick -o "$T/link.txt"
	cmp -s "$T/r.txt" "$T/plain.txt" || fail "-o FILE: not the report"
	[ "$(stat -c %i "$T/r.txt")" != "$before" ] || fail "-o FILE: rewritten in place, not replaced"
	[ -L "$T/link.txt" ] || fail "-o FILE: the symlink was replaced"
	ls -a "$T" | grep -q '\.tmp\.' && fail "-o FILE: a temporary was left"
	# the file replaced keeps its mode: a private report stays private
	chmod 600 "$T/r.txt"
	expect "-o FILE 0600" 0 "" "$bin" report "$result" -o "$T/r.txt"
	[ "$(stat -c %a "$T/r.txt")" = 600 ] || fail "-o FILE 0600: now $(stat -c %a "$T/r.txt")"
	# through a relative symlink in a working directory deeper than
	# PATH_MAX (4096 bytes): still its target, and a link to nothing refused
	seg=$(printf 'd%.0s' $(seq 200))
	mkdir "$T/deep"
	(cd "$T/deep" && for i in $(seq 25); do mkdir "$seg" && cd -P "$seg" || exit 1; done &&
		echo old > x.txt && ln -s x.txt lx && ln -s nowhere ln &&
		timeout 60 "$bin" report "$result" -o lx && cmp -s x.txt "$T/r.txt" &&
		[ -L lx ] && ! timeout 60 "$bin" report "$result" -o ln 2> err.txt &&
		grep -qx 'memcgsim: -o: ln: a symbolic link to nothing' err.txt) ||
		fail "-o LINK in a working directory past PATH_MAX: not its target, or not refused"
}

case_owned_files() {
	echo precious > "$T/precious.txt"
	mknod "$T/null" c 1 3
	mkdir "$T/lock"
	ln -s ../precious.txt "$T/lock/.memcgsim.lock"
	expect "sweep: lock a symlink" 2 \
		"memcgsim: $T/lock/.memcgsim.lock: a symbolic link, not a regular file: refusing to replace it" \
		$sweep --out "$T/lock"
	expect "sweep: a finished sweep" 0 "memcgsim: $T/done: all 4 runs done; result in $T/done/result.json" \
		$sweep --out "$T/done"
	mkdir "$T/merged"
	ln -s ../precious.txt "$T/merged/.memcgsim.lock"
	expect "merge: lock a symlink" 2 \
		"memcgsim: $T/merged/.memcgsim.lock: a symbolic link, not a regular file: refusing to replace it" \
		"$bin" merge --out "$T/merged" "$T/done"
	mkdir "$T/dev"
	ln -s ../null "$T/dev/result.json"
	expect "sweep: result.json a symlink to a device" 2 \
		"memcgsim: $T/dev/result.json: a symbolic link, not a regular file: refusing to replace it" \
		$sweep --out "$T/dev"
	[ -c "$T/null" ] || fail "result.json a symlink: the device it points to was replaced"
	rm "$T/done/result.json"
	mkfifo "$T/done/result.json"
	expect "sweep --resume: result.json a FIFO" 2 \
		"memcgsim: $T/done/result.json: a FIFO, not a regular file: refusing to replace it" \
		$sweep --out "$T/done" --resume
	[ -p "$T/done/result.json" ] || fail "result.json a FIFO: replaced"
	mkdir -p "$T/runs"
	ln -s "$T/elsewhere" "$T/runs/runs"
	mkdir "$T/elsewhere"
	expect "sweep: runs a symlink" 2 \
		"memcgsim: $T/runs/runs: a symbolic link, not a directory: refusing to write in it" \
		$sweep --out "$T/runs"
	[ -z "$(ls "$T/elsewhere")" ] || fail "runs a symlink: written through"
	mkdir "$T/plots"
	mkfifo "$T/plots/wait-00.svg"
	expect "report --plots: a FIFO named like a plot" 2 \
		"memcgsim: $T/plots/wait-00.svg: a FIFO, not a regular file: refusing to replace it" \
		"$bin" report "$result" --plots "$T/plots"
	[ -p "$T/plots/wait-00.svg" ] || fail "a FIFO named like a plot: replaced"
	ls -a "$T/plots" | grep -q memcgsim-plots && fail "report --plots: its work directory was left"
	# the names a trace's parts had: a FIFO and a symlink, left alone
	mkfifo "$T/t.json.0.part"
	ln -s precious.txt "$T/t.json.1.part"
	expect "run --trace: FIFO and symlink at part names" 0 "" "$bin" run "$scen" $quick --trace "$T/t.json"
	[ -p "$T/t.json.0.part" ] && [ -L "$T/t.json.1.part" ] || fail "trace parts: replaced"
	python3 -c "import json,sys; json.load(open(sys.argv[1]))" "$T/t.json" || fail "trace: not JSON"
	[ "$(cat "$T/precious.txt")" = precious ] || fail "precious.txt was written"
}

case_write_errors() {
	full="memcgsim: standard output: cannot write: No space left on device"
	expect "run > /dev/full" 1 "$full" sh -c "'$bin' run '$scen' $quick > /dev/full"
	expect "run --format json > /dev/full" 1 "$full" \
		sh -c "'$bin' run '$scen' $quick --format json > /dev/full"
	expect "report > /dev/full" 1 "$full" sh -c "'$bin' report '$result' > /dev/full"
	expect "compare > /dev/full" 1 "$full" sh -c "'$bin' compare '$result' '$result' > /dev/full"
	expect "list > /dev/full" 1 "$full" sh -c "'$bin' list > /dev/full"
	expect "schema > /dev/full" 1 "$full" sh -c "'$bin' schema > /dev/full"
	expect "validate > /dev/full" 1 "$full" sh -c "'$bin' validate '$scen' > /dev/full"
	expect "--version > /dev/full" 1 "$full" sh -c "'$bin' --version > /dev/full"
	expect "--help > /dev/full" 1 "$full" sh -c "'$bin' --help > /dev/full"
	expect "run --help > /dev/full" 1 "$full" sh -c "'$bin' run --help > /dev/full"
	expect "run -o /dev/full" 1 "memcgsim: /dev/full: cannot write: No space left on device" \
		"$bin" run "$scen" $quick -o /dev/full
	expect "report -o /dev/full" 1 "memcgsim: /dev/full: cannot write: No space left on device" \
		"$bin" report "$result" -o /dev/full
	expect "run --trace /dev/full" 1 "memcgsim: /dev/full: cannot write: No space left on device" \
		"$bin" run "$scen" $quick --trace /dev/full
}

# The full file system: an 8 KiB tmpfs at $F, in a mount namespace of its
# own (this script again, under unshare).
case_full_fs() {
	F=$T/full
	if [ -z "${MCS_OUTPUTS_NS:-}" ]; then
		mkdir "$F" "$T/plots" "$T/tmp" "$T/sweep"
		trap '' EXIT # the namespace's run removes $T
		MCS_OUTPUTS_NS=1 exec unshare -m ${MCS_UNSHARE_USER:+-r} sh "$0" "$class" "$bin" "$T"
	fi
	mount -t tmpfs -o size=8k tmpfs "$F" || { fail "cannot mount a tmpfs to fill"; return; }
	nospc="cannot write: No space left on device"
	echo old > "$F/r.txt"
	expect "run -o FILE" 1 "memcgsim: $F/r.txt: $nospc" "$bin" run "$scen" $quick -o "$F/r.txt"
	[ "$(cat "$F/r.txt")" = old ] || fail "run -o FILE: the old output was not kept"
	expect "run --format json > FILE" 1 "memcgsim: standard output: $nospc" \
		sh -c "'$bin' run '$scen' $quick --format json > '$F/r.json'"
	rm -f "$F/r.json"
	expect "run --trace FILE" 1 "memcgsim: $F/t.json.tmp.XXXXXX: $nospc" \
		"$bin" run "$scen" $quick --trace "$F/t.json"
	# room for the first plot's data, script and SVG (16 KiB), not its PNG
	mount -t tmpfs -o size=40k tmpfs "$T/plots"
	expect "report --plots DIR" 1 \
		"memcgsim: $T/plots/wait-00.png: gnuplot could not write all of it (is the disk full?); nothing kept" \
		"$bin" report "$result" --plots "$T/plots"
	kept=$(ls -a "$T/plots" | grep -v '^\.\.*$')
	[ -z "$kept" ] || fail "report --plots DIR: kept $kept"
	# room for the first plot's data and script, not its SVG
	mount -t tmpfs -o size=16k tmpfs "$T/tmp"
	expect "report --format html, TMPDIR full" 1 \
		"memcgsim: $T/tmp/memcgsim-plots-XXXXXX/wait-00.svg: gnuplot could not write all of it (is the disk full?); nothing kept" \
		env TMPDIR="$T/tmp" "$bin" report "$result" --format html -o "$T/r.html"
	[ -e "$T/r.html" ] && fail "report --format html: a report with a cut plot"
	[ -z "$(ls "$T/tmp")" ] || fail "report --format html: temporaries left in TMPDIR"
	rm -rf "$F/t.json.tmp."*
	# room for the lock, sweep.json and one run file (two pages)
	mount -t tmpfs -o size=16k tmpfs "$T/sweep"
	expect "sweep --out DIR" 1 "memcgsim: $T/sweep/sw/runs/p0000-v01-r000.json: $nospc
memcgsim: $T/sweep/sw: 1 of 4 runs done; resume the sweep, or merge its shards, for the result" \
		$sweep --out "$T/sweep/sw" -j1
	left=$(ls -a "$F" "$T/sweep/sw/runs" | grep -E '\.tmp\.|memcgsim-plots')
	[ -z "$left" ] || fail "temporaries left: $left"
}

if [ $# -ge 3 ]; then # the second time, in the mount namespace
	rm -rf "$T"
	T=$3
	trap 'umount "$T/full" "$T/plots" "$T/tmp" "$T/sweep" 2>/dev/null; rm -rf "$T"' EXIT
fi
case $class in
o-rule) case_o_rule ;;
owned-files) case_owned_files ;;
write-errors) case_write_errors ;;
full-fs) case_full_fs ;;
*) echo "tests/outputs.sh: unknown class $class" >&2; exit 2 ;;
esac
cases_verdict
