#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The HTML report as a reader sees it: headless Chromium renders a real
# report (of a run, and of a sweep) to a PNG and to a DOM dump, and the dump
# must show that it rendered: the page's load handler ran, every image has a
# non-zero rendered size, every table (each section's <pre>) is there, and
# the table of contents links to every section heading.
# Usage: tests/render_html.sh SOURCE_DIR BUILD_DIR
set -euo pipefail
src=$1 build=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
command -v chromium >/dev/null || fail "chromium is not installed (scripts/setup/setup-test.sh installs it)"
mcs=$build/memcgsim

# Chromium, headless, as root too; its D-Bus complaints are not ours.
browse() {
	HOME=$tmp chromium --headless --no-sandbox --disable-gpu --hide-scrollbars \
		--window-size=1280,2000 --virtual-time-budget=5000 "$@" 2>"$tmp/chromium.err"
}

check() { # NAME HTML IMAGES: render HTML, which must have IMAGES plots
	local name=$1 html=$2 images=$3
	browse --screenshot="$tmp/$name.png" "file://$html" >/dev/null ||
		fail "$name: chromium: $(tail -3 "$tmp/chromium.err")"
	browse --dump-dom "file://$html" >"$tmp/$name.dom" ||
		fail "$name: chromium --dump-dom: $(tail -3 "$tmp/chromium.err")"
	# a PNG of the window's size, and not a blank page
	[ "$(head -c 8 "$tmp/$name.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] ||
		fail "$name: the screenshot is not a PNG"
	local wh
	wh=$(od -An -tu1 -j16 -N8 "$tmp/$name.png" | awk '{print $1*16777216+$2*65536+$3*256+$4 "x" $5*16777216+$6*65536+$7*256+$8}')
	[ "$wh" = 1280x2000 ] || fail "$name: screenshot of $wh"
	[ "$(stat -c %s "$tmp/$name.png")" -gt 30000 ] || fail "$name: the screenshot is (nearly) blank"
	grep -q 'data-loaded="yes"' "$tmp/$name.dom" || fail "$name: the page's load handler did not run"
	local n sized
	n=$(grep -o '<img ' "$tmp/$name.dom" | wc -l)
	[ "$n" -eq "$images" ] || fail "$name: $n images, expected $images"
	sized=$(grep -o 'data-width="[1-9][0-9]*" data-height="[1-9][0-9]*"' "$tmp/$name.dom" | wc -l)
	[ "$sized" -eq "$images" ] || fail "$name: $sized of $images images have a non-zero rendered size"
	# every section heading is in the contents, and every one has its table
	local heads links pres
	heads=$(grep -o '<h2 id="s[0-9]*">' "$tmp/$name.dom" | wc -l)
	links=$(grep -o '<li><a href="#s[0-9]*">' "$tmp/$name.dom" | wc -l)
	pres=$(grep -o '<pre>' "$tmp/$name.dom" | wc -l)
	[ "$heads" -gt 0 ] && [ "$heads" -eq "$links" ] ||
		fail "$name: $heads section headings, $links links in the contents"
	[ "$pres" -eq "$heads" ] || fail "$name: $heads sections, $pres tables"
}

# A run's report: the fixture (two variants, three plots: two wait-time
# CDFs and the CPU time).
"$mcs" report "$src/tests/golden/lockbench.result.json" --format html -o "$tmp/run.html"
check run "$tmp/run.html" 3
for table in "lock_stat version 0.4" "Hmean     acquisitions_per_us" "per-node beats global"; do
	grep -q "$table" "$tmp/run.dom" || fail "run: no \"$table\" in the rendered page"
done

# A sweep's report: two points; plots of each metric against the parameter.
"$mcs" sweep "$src/scenarios/lockbench_scope.json" --out "$tmp/sweep" --param workloads.0.hold_ns=50,200 \
	--set stop.duration_ns=100000 --replicas 2 -j2 -q
"$mcs" report "$tmp/sweep" --format html -o "$tmp/sweep.html"
plots=$(grep -o '<img alt=' "$tmp/sweep.html" | wc -l)
[ "$plots" -ge 4 ] || fail "sweep: only $plots plots in the HTML"
check sweep "$tmp/sweep.html" "$plots"
grep -q "Command: memcgsim sweep lockbench_scope.json" "$tmp/sweep.dom" || fail "sweep: no command"
echo "render_html: ok"
