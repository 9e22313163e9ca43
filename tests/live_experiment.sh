#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# The five experiments that were tools/gput-experiment, now lab files run by
# gput-lab (tools/labs/exp-*.lab), each with --quick in a testbed of its
# own: exit 0; each plot's .dat has the commented header naming its columns
# (n, mean, stdev, ci_low, ci_high, met, the models) and a row per point and
# series with that many columns, n = 2 runs, every mean inside its CI;
# results.json holds every run's gput document whose figures gave the row;
# the PNG and SVG are real figures. Root only (network namespaces); needs
# gnuplot and python3.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

PATH=$PATH:/usr/sbin:/sbin
if [ "$(id -u)" -ne 0 ]; then
	skip "experiments (need root for network namespaces)"
	t_done
fi
for t in gnuplot python3 file; do
	command -v "$t" >/dev/null || { skip "experiments (need $t)"; t_done; }
done
X=$T_TMP/x

# NAME PLOT ROWS: exp-NAME's run and its plot PLOT's ROWS rows.
experiment() {
	local name=$1 plot=$2 rows=$3 o=$X/$1 dat=$X/$1/$2.dat
	GPUT_TESTBED_PREFIX=gput-ex$$ timeout -k 5 300 tools/gput-lab run "exp-$name" \
	    --quick --out "$o" >"$T_TMP/$name.log" 2>&1
	eq "exp-$name --quick: exit 0" "$?" 0 || { tail -n 5 "$T_TMP/$name.log"; return; }
	local ncol
	ncol=$(grep -c '^# *[0-9][0-9]* ' "$dat")
	eq "$plot.dat: the header names n, mean, stdev, ci_low, ci_high, met in columns 3-8" \
	    "$(sed -n 's/^# *\([3-8]\) \([a-z_]*\) .*/\1\2/p' "$dat" | tr '\n' ' ')" \
	    "3n 4mean 5stdev 6ci_low 7ci_high 8met "
	eq "$plot.dat: $rows rows of $ncol columns" \
	    "$(grep -v '^#' "$dat" | awk -F'\t' 'NF { n++; if (NF != c) bad++ } END { print n + 0, bad + 0 }' c="$ncol")" \
	    "$rows 0"
	eq "$plot.dat: n = 2, ci_low <= mean <= ci_high" \
	    "$(grep -v '^#' "$dat" | awk -F'\t' 'NF { if ($3 != 2 || $6 > $4 || $4 > $7) bad++ } END { print bad + 0 }')" 0
	check "$plot.png: a PNG over 10 KB" sh -c \
	    "file -b '$o/$plot.png' | grep -q '^PNG image' && [ \$(wc -c <'$o/$plot.png') -gt 10000 ]"
	check "$plot.svg: an SVG with paths" sh -c "grep -q '<svg' '$o/$plot.svg' && grep -q '<path' '$o/$plot.svg'"
}

experiment size size 4
experiment loss loss 2
experiment streams sum 2
experiment rtt rtt 4
experiment share goodput 8
# a row is the statistics of its runs' gput documents: the first size row
eq "size.dat's first row is the mean of its runs' receiver goodput" \
    "$(grep -v '^#' "$X/size/size.dat" | head -n 1 | cut -f4)" \
    "$(python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))
s = r["points"][0]["steps"][0]
v = [f["conns"][0]["goodput"] for run in s["runs"] for f in run["flows"]]
print(sum(v) / len(v))' "$X/size/results.json")"
# the figure's words: the x axis from exp-loss.lab's label line, the
# legend's head naming the CI, Mathis beside cubic (the one control --quick
# runs), never with bbr
eq "loss-png.gp: the x axis from the lab's label line" \
    "$(grep '^set xlabel' "$X/loss/loss-png.gp")" "set xlabel 'loss from a to b (%)' noenhanced"
check "loss-png.gp: the legend's head names the runs and the 95% CI" \
    grep -q "^set key bmargin .* title 'points: mean of 2 runs, bars: its 95% CI (Student t)'$" "$X/loss/loss-png.gp"
check "loss-png.gp: the Mathis bound in the legend" grep -q "^ *keyentry .* title 'Mathis bound'" "$X/loss/loss-png.gp"
eq "streams: Jain's index over 4 streams from 2 runs" \
    "$(grep -v '^#' "$X/streams/jain.dat" | awk -F'\t' '$1 == 4 { print $3 }')" 2
t_done
