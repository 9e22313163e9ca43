# SPDX-License-Identifier: BSD-2-Clause
# bench-testbed.awk: medians of tools/bench-testbed.sh's runs per variant,
# and each delay variant's median ratio to none within the same round.
# Input lines: variant round mbit fps_ab fps_ba p99_ab p99_ba late drops cpu
# and % of a CPU: sender receiver delay-lines host-softirq host-busy (with
# -v flood=FPS, mbit is the share of the frames sent that arrived).
function med(a, n,    i, j, t) {
	for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
function col(v, c, out,    k, n) {
	n = 0
	for (k = 1; k <= nr; k++) if (V[k] == v && F[k, c] != "-") out[++n] = F[k, c]
	return n
}
{ nr++; V[nr] = $1; R[nr] = $2; for (c = 3; c <= 15; c++) F[nr, c] = $c; if (!($1 in seen)) { seen[$1] = 1; order[++nv] = $1 } }
END {
	for (i = 1; i <= nv; i++) {
		v = order[i]
		for (c = 3; c <= 15; c++) { delete a; n = col(v, c, a); m[v, c] = n ? med(a, n) : "-" }
		late = 0; drops = 0
		for (k = 1; k <= nr; k++) if (V[k] == v) { late += F[k, 8]; drops += F[k, 9] }
		tot[v] = late " " drops
	}
	if (quiet) {
		for (i = 1; i <= nv; i++) if (order[i] != "none") {
			v = order[i]
			printf "calibrate %s %.0f %.0f %s %s %s\n", rate, m[v, 4], m[v, 5], m[v, 6], m[v, 7], tot[v]
			exit
		}
		exit
	}
	printf "%-6s %9s %9s %9s %8s %8s %7s %7s %7s %5s %5s %5s %5s %5s   %s\n", "path", flood ? "deliv." : "Mbit/s", "fps a>b", "fps b>a", "p99 a>b", "p99 b>a", "late", "drops", "us/fr", "snd%", "rcv%", "dl%", "sirq%", "busy%", "ratio to none (median of rounds): " (flood ? "delivered" : "Mbit/s") " fps a>b fps b>a"
	for (i = 1; i <= nv; i++) {
		v = order[i]; split(tot[v], t, " ")
		line = sprintf("%-6s %9s %9.0f %9.0f %8s %8s %7d %7d %7s %5s %5s %5s %5s %5s", v, flood ? sprintf("%.5f", m[v, 3]) : sprintf("%.1f", m[v, 3]), m[v, 4], m[v, 5], m[v, 6], m[v, 7], t[1], t[2], m[v, 10], m[v, 11], m[v, 12], m[v, 13], m[v, 14], m[v, 15])
		if (v != "none" && ("none" in seen)) {
			for (c = 3; c <= 5; c++) {
				delete q; n = 0
				for (k = 1; k <= nr; k++) if (V[k] == v)
					for (j = 1; j <= nr; j++) if (V[j] == "none" && R[j] == R[k] && F[j, c] > 0) q[++n] = F[k, c] / F[j, c]
				line = line sprintf("   %.3f", n ? med(q, n) : 0)
			}
		}
		print line
	}
}
