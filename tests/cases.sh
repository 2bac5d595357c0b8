# SPDX-License-Identifier: GPL-2.0-or-later
# What tests/outputs.sh and tests/interrupts.sh share, sourced with $suite
# set and their arguments CLASS MEMCGSIM: the inputs, a quick sweep, a
# temporary directory $T removed at exit, fail() and the verdict.
set -u
class=$1
bin=$2
src=$(cd "$(dirname "$0")/.." && pwd)
scen=$src/scenarios/lockbench_scope.json
quick="--set replicas=1 --set stop.duration_ns=2000000 -q"
result=$src/tests/golden/lockbench.result.json
sweep="$bin sweep $scen --set stop.duration_ns=2000000 --param workloads.0.hold_ns=lin:100:300:2
	--replicas 1 -q -j2"
T=$(mktemp -d "/tmp/memcgsim-$suite-XXXXXX")
trap 'rm -rf "$T"' EXIT
fails=0

fail() {
	echo "FAIL: $*"
	fails=$((fails + 1))
}

# Standard error @1 without the warning AddressSanitizer prints (under
# scripts/check/sanitize.sh) when SimGrid switches stacks: not memcgsim's output.
own_stderr() {
	sed -E '/^==[0-9]+==WARNING: ASan is ignoring requested __asan_handle_no_return/d
		/^False positive error reports may follow$/d
		/^For details see https:\/\/github.com\/google\/sanitizers\/issues\/189$/d' "$1"
}

# After the cases: exit 1 when one failed.
cases_verdict() {
	[ "$fails" = 0 ] || { echo "$fails failed"; exit 1; }
	echo "$suite $class: every case passed"
}
