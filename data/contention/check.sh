#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Check the measurement files in this directory (or those given as arguments)
# against the format declared in README.md. Needs only jq.
# Exit 0 if every file passes; otherwise print "FILE: problem" lines and exit 1.
set -u

dir=$(cd "$(dirname "$0")" && pwd)
# (the fit files, fit-*.json, are memcgsim calibrate's: it checks them)
if [ $# -gt 0 ]; then
	files=("$@")
else
	files=()
	for f in "$dir"/*.json; do
		case "$(basename "$f")" in fit-*) ;; *) files+=("$f") ;; esac
	done
fi
if [ ! -e "${files[0]}" ]; then
	echo "$dir: no .json files" >&2
	exit 1
fi
command -v jq >/dev/null || { echo "check.sh: jq not found" >&2; exit 1; }

# Every problem of one file, one a line; nothing if it passes.
read -r -d '' PROG <<'EOF'
def t: type;
def need($o; $path; $types):
  ($o | getpath($path)) as $v
  | if ($o | getpath($path[:-1]) | type) != "object" or ($o | getpath($path[:-1]) | has($path[-1]) | not)
    then "missing member \($path | join("."))"
    elif ($types | index($v | type)) == null
    then "member \($path | join(".")) is \($v | type), expected \($types | join(" or "))"
    else empty end;

if type != "object" then "top level is not an object" else
  . as $d
  | ( need($d; ["format"]; ["string"]),
      need($d; ["name"]; ["string"]),
      need($d; ["source"]; ["string"]),
      need($d; ["brief_section"]; ["string"]),
      need($d; ["read"]; ["string"]),
      need($d; ["machine"]; ["object"]),
      need($d; ["placement"]; ["object"]),
      need($d; ["benchmark"]; ["object"]),
      need($d; ["x"]; ["object"]),
      need($d; ["measure"]; ["object"]),
      need($d; ["notes"]; ["string"]),
      need($d; ["points"]; ["array"]) ),
    ( if ($d.machine | type) == "object" then
        need($d; ["machine", "description"]; ["string"]),
        need($d; ["machine", "cpu"]; ["string", "null"]),
        need($d; ["machine", "family"]; ["string"]),
        need($d; ["machine", "sockets"]; ["number", "null"]),
        need($d; ["machine", "cores_per_socket"]; ["number", "null"]),
        need($d; ["machine", "threads_per_core"]; ["number", "null"]),
        need($d; ["machine", "ghz"]; ["number", "null"]),
        need($d; ["machine", "virtualised"]; ["boolean"])
      else empty end ),
    ( if ($d.placement | type) == "object" then
        need($d; ["placement", "kind"]; ["string"]),
        need($d; ["placement", "text"]; ["string"])
      else empty end ),
    ( if ($d.benchmark | type) == "object" then
        need($d; ["benchmark", "kind"]; ["string"]),
        need($d; ["benchmark", "lock"]; ["string", "null"]),
        need($d; ["benchmark", "critical_section"]; ["string"]),
        need($d; ["benchmark", "work_outside"]; ["string"]),
        need($d; ["benchmark", "lines_in_critical_section"]; ["number", "null"]),
        need($d; ["benchmark", "work_outside_ns"]; ["number", "null"])
      else empty end ),
    ( if ($d.x | type) == "object" then
        need($d; ["x", "name"]; ["string"]),
        need($d; ["x", "text"]; ["string"])
      else empty end ),
    ( if ($d.measure | type) == "object" then
        need($d; ["measure", "quantity"]; ["string"]),
        need($d; ["measure", "unit"]; ["string"]),
        need($d; ["measure", "text"]; ["string"]),
        need($d; ["measure", "derived"]; ["string"])
      else empty end ),
    ( if $d.format? != null and $d.format != "memcgsim-measurement-1"
      then "format is \"\($d.format)\", expected \"memcgsim-measurement-1\"" else empty end ),
    ( if ($d.name | type) == "string" and $d.name != $file then "name \"\($d.name)\" does not match the file name \"\($file)\"" else empty end ),
    ( if ($d.read | type) == "string" and (["directly", "secondary", "figure"] | index($d.read)) == null
      then "read is \"\($d.read)\", expected directly, secondary or figure" else empty end ),
    ( if ($d.placement | type) == "object" and ($d.placement.kind | type) == "string"
         and (["cores-socket-first", "alternating-sockets", "all-hardware-threads", "cpu-pairs", "unknown"] | index($d.placement.kind)) == null
      then "placement.kind is \"\($d.placement.kind)\", not a declared kind" else empty end ),
    ( if ($d.benchmark | type) == "object" and ($d.benchmark.kind | type) == "string"
         and (["atomic-counter", "lock", "atomics-independent-lines", "cas-loop", "line-ping-pong"] | index($d.benchmark.kind)) == null
      then "benchmark.kind is \"\($d.benchmark.kind)\", not a declared kind" else empty end ),
    ( if ($d.x | type) == "object" and ($d.x.name | type) == "string"
         and (["threads", "n_argument", "distance"] | index($d.x.name)) == null
      then "x.name is \"\($d.x.name)\", not a declared name" else empty end ),
    ( if ($d.measure | type) == "object" and ($d.measure.quantity | type) == "string"
         and (["ns_per_update_per_thread", "ops_per_s_total", "acquisitions_per_s", "ns_per_iter_per_thread",
               "acquisitions_per_ms", "acquisitions_total", "ns_per_transfer"] | index($d.measure.quantity)) == null
      then "measure.quantity is \"\($d.measure.quantity)\", not a declared quantity" else empty end ),
    ( if ($d.points | type) == "array" then
        ( if ($d.points | length) == 0 then "no points" else empty end ),
        ( $d.points | to_entries[] | .key as $i | .value as $p
          | if ($p | type) != "object" then "point \($i) is not an object"
            else
              ( if ($p.x | type) != "number" then "point \($i): x is not a number" else empty end ),
              ( if ($p.value | type) != "number" then "point \($i): value is not a number" else empty end ),
              ( ["min", "max", "sum", "mean", "sharers", "groups", "threads_total",
                 "acquire_us_mean", "acquire_us_stddev", "acquire_us_max"][] as $k
                | if ($p | has($k)) and ($p[$k] | type) != "number" then "point \($i): \($k) is not a number" else empty end ),
              ( if ($p.min | type) == "number" and ($p.value | type) == "number" and $p.min > $p.value
                then "point \($i): min \($p.min) > value \($p.value)" else empty end ),
              ( if ($p.max | type) == "number" and ($p.value | type) == "number" and $p.max < $p.value
                then "point \($i): max \($p.max) < value \($p.value)" else empty end ),
              ( if ($p | has("value_is_midpoint")) and (($p.min | type) != "number" or ($p.max | type) != "number"
                     or ($p.value | type) != "number" or ($p.min + $p.max) != 2 * $p.value)
                then "point \($i): value_is_midpoint but value is not (min + max) / 2" else empty end ),
              ( if ($p | has("sum")) and $p.sum != $p.value then "point \($i): sum differs from value" else empty end )
            end ),
        ( [$d.points[] | .x? | select(type == "number")] as $xs
          | range(1; $xs | length) as $i
          | if $xs[$i] <= $xs[$i - 1] then "x does not strictly increase: \($xs[$i - 1]) then \($xs[$i])" else empty end )
      else empty end )
end
EOF

fail=0
for f in "${files[@]}"; do
	base=$(basename "$f" .json)
	if ! n=$(jq -s length "$f" 2>&1); then
		echo "$f: does not parse as JSON: $n"
		fail=1
		continue
	fi
	if [ "$n" != 1 ]; then
		echo "$f: holds $n JSON values, expected one object"
		fail=1
		continue
	fi
	if ! out=$(jq -r --arg file "$base" "$PROG" "$f" 2>&1); then
		echo "$f: jq failed: $out"
		fail=1
		continue
	fi
	if [ -n "$out" ]; then
		while IFS= read -r line; do echo "$f: $line"; done <<<"$out"
		fail=1
	fi
done
if [ $fail -ne 0 ]; then exit 1; fi
echo "${#files[@]} files OK"
