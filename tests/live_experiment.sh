#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# tools/gput-experiment NAME --quick for every experiment, each in a testbed
# of its own (prefix gput-ex$$): its .dat has the commented header naming
# every column (ci_low, ci_high among them) and a row per point with that
# many columns, n = 2 runs, every mean inside its CI and the model a number;
# its .json holds each point's gput document whose summary gave the row;
# the PNG and SVG are real figures (file(1)'s type, over 10 KB). Root only
# (network namespaces); needs jq and gnuplot. About 60 s.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

PATH=$PATH:/usr/sbin:/sbin
if [ "$(id -u)" -ne 0 ]; then
	skip "experiments (need root for network namespaces)"
	t_done
fi
for t in jq gnuplot nft tc ping file; do
	if ! command -v "$t" >/dev/null 2>&1; then
		skip "experiments (need $t)"
		t_done
	fi
done
X=$T_TMP/x

# NAME ROWS STATCOL POINTS: the experiment's files: ROWS rows in the .dat
# (POINTS points in the .json, ROWS when not given); STATCOL is the column
# of n (mean .. ci_high follow it).
experiment() {
	local name=$1 rows=$2 c=$3 points=${4:-$2} dat=$X/$1.dat
	GPUT_TESTBED_PREFIX=gput-ex$$ timeout -k 5 300 tools/gput-experiment "$name" \
	    --quick --out "$X" >"$T_TMP/$name.log" 2>&1
	eq "$name --quick: exit 0" "$?" 0 || { cat "$T_TMP/$name.log"; return; }
	local ncol
	ncol=$(grep -c '^# *[0-9][0-9]* ' "$dat")
	check "$name.dat: the header names ci_low and ci_high" \
	    grep -q "^# *$((c + 6)) ci_low " "$dat"
	check "$name.dat: ... and ci_high after it" grep -q "^# *$((c + 7)) ci_high" "$dat"
	eq "$name.dat: $rows rows of $ncol columns" \
	    "$(grep -v '^#' "$dat" | awk -F'\t' 'NF { n++; if (NF != c) bad++ } END { print n + 0, bad + 0 }' c="$ncol")" \
	    "$rows 0"
	eq "$name.dat: n = 2, min <= mean <= max, ci_low <= mean <= ci_high, model a number" \
	    "$(grep -v '^#' "$dat" | awk -F'\t' -v c="$c" -v m="$((c + 8))" 'NF {
	        if ($c != 2 || $(c+3) > $(c+1) || $(c+1) > $(c+5) ||
	            $(c+6) > $(c+1) || $(c+1) > $(c+7) || $m !~ /^[0-9.]+$/) bad++
	    } END { print bad + 0 }')" 0
	eq "$name.json: $points points, each a gput document with 2 runs" \
	    "$(jq '[.points[] | .result.runs | length] | [length, (map(. == 2) | all)]' -c "$X/$name.json")" \
	    "[$points,true]"
	check "$name.png: a PNG over 10 KB" sh -c \
	    "file -b '$X/$name.png' | grep -q '^PNG image' && [ \$(wc -c <'$X/$name.png') -gt 10000 ]"
	check "$name.svg: an SVG over 10 KB with paths" sh -c \
	    "grep -q '<svg' '$X/$name.svg' && grep -q '<path' '$X/$name.svg' && [ \$(wc -c <'$X/$name.svg') -gt 10000 ]"
}

experiment size 4 3
experiment loss 2 3
experiment streams 2 3
experiment rtt 4 3
experiment share 8 5 5
# each mean is gput's own: the first size point's row against its document
eq "size.dat's first row is the summary of the first point's document" \
    "$(grep -v '^#' "$X/size.dat" | head -n 1 | cut -f3,4,9,10)" \
    "$(jq -r '.points[0].result.summary.sides[] | select(.role == "recv") | .real_mbit |
        [.n, .mean, .ci_low, .ci_high] | @tsv' "$X/size.json")"
eq "streams: Jain's index over 4 streams has 2 runs" \
    "$(grep -v '^#' "$X/streams.dat" | awk -F'\t' '$2 == 4 { print $12 }')" 2
t_done
