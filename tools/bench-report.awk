# bench-report.awk: the table make bench prints, from tools/bench.sh's runs.
# Input, one line per run: LEN TOOL REP BYTES MBITS TXCPU RXCPU CLIENTCPU
# (CPU in seconds, "-" where unknown). TXCPU, the sender's own figure, is kept
# in the raw file only: CLIENTCPU measures the same process alike for all. Set tools="gput
# nuttcp iperf2" (gput first: the ratios are gput over each of the others).
# Medians, not means: on a 2-core box one run in five can lose a core.

function median(list,    a, n, i, j, t) {
	n = split(list, a, " ")
	for (i = 2; i <= n; i++)                # insertion sort: n is small
		for (j = i; j > 1 && a[j - 1] + 0 > a[j] + 0; j--) {
			t = a[j]; a[j] = a[j - 1]; a[j - 1] = t
		}
	if (n == 0)
		return "-"
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}

function lo(list,    a, n, i, m) {
	n = split(list, a, " "); m = a[1]
	for (i = 2; i <= n; i++) if (a[i] + 0 < m + 0) m = a[i]
	return m
}

function hi(list,    a, n, i, m) {
	n = split(list, a, " "); m = a[1]
	for (i = 2; i <= n; i++) if (a[i] + 0 > m + 0) m = a[i]
	return m
}

# CPU seconds per 10^9 bytes, or "-".
function pergb(list) {
	return list == "" ? "-" : sprintf("%.3f", median(list))
}

function add(arr, key, v) { arr[key] = arr[key] == "" ? v : arr[key] " " v }

{
	k = $1 SUBSEP $2
	if (!($1 in seen)) { seen[$1] = 1; lens[++nlen] = $1 }
	add(rate, k, $5)
	rates[$1, $2, $3] = $5
	add(cli, k, $8 / $4 * 1e9)
	if ($7 != "-") {
		add(rx, k, $7 / $4 * 1e9)
		add(sum, k, ($7 + $8) / $4 * 1e9)
	}
	nrep[$1] = $3 > nrep[$1] ? $3 : nrep[$1]
	bytes[$1] = $4
}

END {
	nt = split(tools, tool, " ")
	printf "TCP on loopback, receiver goodput in Mbit/s (10^6 bit/s), " \
	    "runs interleaved;\n%s\n", place
	printf "CPU seconds per GB (10^9 bytes), medians: snd = the sending client " \
	    "process, measured\nalike for every tool; rcv = the receiver as the " \
	    "tool reports it (iperf2: its server\nprocess). On loopback the " \
	    "receiving TCP work runs on whichever side the kernel\nhappens to " \
	    "be in, so compare sums, not sides.\n\n"
	printf "%7s %-7s %4s %10s %10s %10s %7s %6s %6s %6s\n", "write", "tool",
	    "runs", "median", "min", "max", "spread", "snd", "rcv", "sum"
	for (i = 1; i <= nlen; i++) {
		l = lens[i]
		for (j = 1; j <= nt; j++) {
			k = l SUBSEP tool[j]
			m = median(rate[k])
			spread = m > 0 ? (hi(rate[k]) - lo(rate[k])) / m * 100 : 0
			printf "%7s %-7s %4d %10.1f %10.1f %10.1f %6.1f%% %6s %6s %6s\n",
			    l, tool[j], split(rate[k], tmp, " "), m, lo(rate[k]),
			    hi(rate[k]), spread, pergb(cli[k]), pergb(rx[k]), pergb(sum[k])
		}
	}
	printf "\nratios of median goodput; paired per round: median [min..max]\n"
	for (i = 1; i <= nlen; i++) {
		l = lens[i]
		g = median(rate[l SUBSEP "gput"])
		for (j = 2; j <= nt; j++) {
			k = l SUBSEP tool[j]
			for (r = 1; r <= nrep[l]; r++) {
				o = rates[l, tool[j], r]
				if (o > 0)
					add(pr, k, rates[l, "gput", r] / o)
			}
			o = median(rate[k])
			ratio = o > 0 ? g / o : 0
			# One ratio under 1 is not a verdict: rounds that disagree mean
			# the difference is inside the run-to-run noise.
			if (lo(pr[k]) >= 1)
				verdict = "gput as fast or faster in every round"
			else if (hi(pr[k]) < 1)
				verdict = "gput SLOWER in every round"
			else
				verdict = "rounds disagree: within noise"
			printf "%7s gput/%-7s %6.3f   %.3f [%.3f..%.3f]   %s\n", l,
			    tool[j], ratio, median(pr[k]), lo(pr[k]), hi(pr[k]), verdict
		}
	}
}
