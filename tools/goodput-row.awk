# SPDX-License-Identifier: BSD-2-Clause
# goodput-row.awk: from gput --repeat --csv, the receiving side's
# Real-MBit/s over the runs, as one line of tools/plot-goodput.sh's data:
#   mean min max ci_low ci_high n
# (the interval's ends are the mean when --repeat had one run). The
# receiving side is the row whose role is recv; make demo's sweep uses it.
BEGIN { FS = "," }
$3 == "recv" && $1 !~ /^[0-9]+$/ { v[$1] = $6 }
END {
	if (!("mean" in v)) {
		print "goodput-row.awk: no summary rows of a receiver (gput --repeat --csv?)" > "/dev/stderr"
		exit 1
	}
	printf "%s %s %s %s %s %s\n", v["mean"], v["min"], v["max"],
	    v["ci_low"] != "" ? v["ci_low"] : v["mean"],
	    v["ci_high"] != "" ? v["ci_high"] : v["mean"], v["n"]
}
