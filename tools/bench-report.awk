# SPDX-License-Identifier: BSD-2-Clause
# bench-report.awk: the tables make bench prints, and its JSON, from
# tools/bench.sh's raw lines:
#   run PROTO LEN ROW ROUND RXBYTES TXBYTES MBITS TXCPU RXCPU CLIENTCPU LOSS TARGET
#       one row's result in one round (UDP: the best accepted candidate;
#       MBITS "-" when none was within the loss ceiling); CPU in seconds,
#       "-" where unknown; TXCPU, the sender's own figure, is kept in the
#       JSON only: CLIENTCPU measures the sending process alike for all.
#   short PROTO LEN ROW ROUND GOT WANT
#       a peer's receiver counted GOT of the WANT bytes sent (iperf2 2.1.8's
#       server can lose a ring of its reads' records): that run is no
#       result (its run line has MBITS "-"), and the report says how many
#   cand udp LEN ROW ROUND STEP TARGET MBITS LOSS_TOOL LOSS_COUNT VERDICT
#       every UDP candidate run of the search (TARGET 0: unpaced)
#   pcapfile BYTES FRAMES FILEBYTES SECONDS   the generated capture
#   pcap TOOL ROUND WALL CPU BYTES            one pcap reader's run
# Variables: place (the CPU placement line), ceil (loss ceiling, %), json
# (file), steps, udpmb, uwin (UDP socket buffers, KiB; 0: defaults), took
# (seconds the bench ran).
# Medians, not means: on a 2-core box one run in five can lose a core.

BEGIN { CONVFMT = "%.10g"; OFMT = "%.10g" }

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
	return n ? m : "-"
}

function hi(list,    a, n, i, m) {
	n = split(list, a, " "); m = a[1]
	for (i = 2; i <= n; i++) if (a[i] + 0 > m + 0) m = a[i]
	return n ? m : "-"
}

function count(list,    a) { return split(list, a, " ") }

function add(arr, key, v) { arr[key] = arr[key] == "" ? v : arr[key] " " v }

function label(t) {
	if (t == "gputi1") return "gput --interval 1"
	if (t ~ /^gputP/) return "gput -P " substr(t, 6)
	if (t == "gputD") return "gput --discard"
	if (t == "gputF") return "gput --full-reads"
	if (t == "gputDF") return "gput --discard --full-reads"
	if (t == "gputB64") return "gput --batch 64"
	if (t == "gputGSO") return "gput --gso"
	if (t == "nuttcp" || t == "iperf2" || t == "iperf3") return t (proto_of_row == "udp" ? " -u" : "")
	if (t == "hostcopy") return "host: copy"
	if (t == "hosttrunc") return "host: MSG_TRUNC"
	if (t == "hostcopyF") return "host: copy, full"
	if (t == "hosttruncF") return "host: TRUNC, full"
	if (t == "hostsend") return "host: send()"
	if (t == "hostmmsg") return "host: sendmmsg 64"
	if (t == "hostgso") return "host: GSO+GRO"
	return t
}

function ispeer(t) { return t == "nuttcp" || t == "iperf2" || t == "iperf3" }
function ishost(t) { return t ~ /^host/ }
function isgput(t) { return t ~ /^gput/ }

# The host row that bounds row t: what the probe does the way t does it.
function ceilof(p, t) {
	if (ishost(t)) return ""
	if (p == "tcp")         # the --full-reads rows: the probe's -full modes
		return (t ~ /^gputD/ ? "hosttrunc" : "hostcopy") (t ~ /F$/ ? "F" : "")
	if (t == "gputB64") return "hostmmsg"
	if (t == "gputGSO") return "hostgso"
	return "hostsend"
}

function num(x) { return (x == "-" || x == "") ? "null" : x + 0 }
function fmt(f, x) { return (x == "-" || x == "") ? "-" : sprintf(f, x) }
function ratio(a, b) { return (a == "-" || b == "-" || b + 0 <= 0) ? "-" : a / b }

$1 == "run" {
	s = $2 SUBSEP $3
	if (!(s in seen)) { seen[s] = 1; secs[++nsec] = s; sproto[s] = $2; slen[s] = $3 }
	k = s SUBSEP $4
	if (!(k in rseen)) { rseen[k] = 1; rows[s, ++nrow[s]] = $4 }
	rounds[k]++
	nrep[s] = $5 > nrep[s] ? $5 : nrep[s]
	if ($8 == "-")
		next
	add(rate, k, $8)
	rates[k, $5] = $8
	if ($11 != "-" && $7 > 0) add(snd, k, $11 / $7 * 1e12)
	if ($10 != "-" && $6 > 0) add(rcv, k, $10 / $6 * 1e12)
	add(loss, k, $12)
	add(tgt, k, $13)
	bytes[s] = $7
	raw[k] = raw[k] (raw[k] == "" ? "" : ",") sprintf("{\"round\":%d,\"mbit\":%s,\"rx_bytes\":%s,\"tx_bytes\":%s,\"tx_cpu_s\":%s,\"rx_cpu_s\":%s,\"client_cpu_s\":%s,\"loss_pct\":%s,\"target_mbit\":%s}",
	    $5, num($8), num($6), num($7), num($9), num($10), num($11),
	    $2 == "udp" ? num($12) : "null", $2 == "udp" ? num($13) : "null")
	next
}
$1 == "short" { nshort[$2 SUBSEP $3 SUBSEP $4]++; next }
$1 == "cand" {
	cands = cands (cands == "" ? "" : ",\n    ") sprintf("{\"len\":%d,\"row\":\"%s\",\"round\":%d,\"step\":%d,\"target_mbit\":%s,\"mbit\":%s,\"loss_tool_pct\":%s,\"loss_count_pct\":%s,\"accepted\":%s}",
	    $3, $4, $5, $6, $7 == 0 ? "\"unpaced\"" : $7 + 0, num($8), num($9), num($10),
	    $11 == "accepted" ? "true" : "false")
	ncand[$4]++
	next
}
$1 == "pcapfile" { pbytes = $2; pframes = $3; pfile = $4; psynth = $5; next }
$1 == "pcap" {
	if (!($2 in pseen)) { pseen[$2] = 1; ptools[++npt] = $2 }
	add(pwall, $2, $4); add(pcpu, $2, $5)
	if ($6 != pbytes) pbad = pbad " " $2 "(" $6 ")"
	pcnt[$2] = $6
	next
}

END {
	if (nsec) {
	printf "loopback; %s.\n", place
	printf "Goodput: the receiver's, Mbit/s (10^6 bit/s), medians of interleaved " \
	    "rounds with min..max.\nsnd/rcv: service demand, CPU microseconds per " \
	    "MB (10^6 bytes) moved, medians: snd\nthe sending client process " \
	    "(alike for every tool), rcv the receiver as the tool\nreports it " \
	    "(iperf2, iperf3: their server process; host: the probe's threads).\n" \
	    "/peer: over the best peer (fastest median of nuttcp, iperf2, iperf3); " \
	    "/ceil: over the\nhost row that does it the same way (tools/hostprobe.c).\n"
	}
	jsec = ""
	for (i = 1; i <= nsec; i++) {
		s = secs[i]; p = sproto[s]; l = slen[s]
		proto_of_row = p
		# the best peer
		bp = ""; bpm = 0
		for (j = 1; j <= nrow[s]; j++) {
			t = rows[s, j]; m = median(rate[s SUBSEP t])
			if (ispeer(t) && m != "-" && m + 0 > bpm) { bp = t; bpm = m + 0 }
		}
		if (p == "tcp")
			printf "\nTCP, %d-byte writes, %.0f MiB per run\n", l, bytes[s] / 1048576
		else
			printf "\nUDP, %d-byte datagrams, loss ceiling %s%%: each round's best " \
			    "receiver goodput with loss <= %s%%\n(the tool's count and " \
			    "datagrams sent vs. received, the larger) among up to %d " \
			    "candidates\nof %d MiB each: unpaced, then paced with the " \
			    "tool's own rate option; socket buffers %s.\nok: rounds " \
			    "with a rate under the ceiling; loss%%, at: the chosen " \
			    "candidates' (median).\n",
			    l, ceil, ceil, steps + 1, udpmb,
			    (uwin + 0) ? (uwin " KiB (each tool's -w)") : "the system's defaults"
		if (p == "tcp")
			printf "%-18s %4s %9s %9s %9s %6s %6s %6s %6s %6s\n", "row", "runs",
			    "median", "min", "max", "spread", "snd", "rcv", "/peer", "/ceil"
		else
			printf "%-18s %4s %9s %9s %9s %6s %6s %8s %6s %6s %6s %6s\n", "row", "ok",
			    "median", "min", "max", "spread", "loss%", "at", "snd", "rcv",
			    "/peer", "/ceil"
		jrows = ""
		for (j = 1; j <= nrow[s]; j++) {
			t = rows[s, j]; k = s SUBSEP t
			m = median(rate[k])
			spread = (m != "-" && m > 0) ? (hi(rate[k]) - lo(rate[k])) / m * 100 : "-"
			c = ceilof(p, t)
			cm = c == "" ? "-" : median(rate[s SUBSEP c])
			rp = (isgput(t) && bp != "") ? ratio(m, bpm) : "-"
			rc = ratio(m, cm)
			# a row faster than the host's own way of doing the same
			# thing shows the probe is no ceiling: say so, print no ratio
			if (rc != "-" && rc > 1) {
				bad = bad sprintf("ceiling invalid: %s %d, %s at %.1f Mbit/s " \
				    "beat %s at %.1f (%.3fx)\n", toupper(p), l, label(t), m,
				    label(c), cm, rc)
				rc = "-"; rcs = "invalid"
			} else
				rcs = fmt("%.3f", rc)
			tg = median(tgt[k])
			at = tg == "-" ? "-" : (tg + 0 == 0 ? "unpaced" : sprintf("%.0f", tg))
			if (p == "tcp")
				printf "%-18s %4d %9s %9s %9s %6s %6s %6s %6s %6s\n", label(t),
				    count(rate[k]), fmt("%.1f", m), fmt("%.1f", lo(rate[k])),
				    fmt("%.1f", hi(rate[k])), fmt("%.1f%%", spread),
				    fmt("%.0f", median(snd[k])), fmt("%.0f", median(rcv[k])),
				    fmt("%.3f", rp), rcs
			else
				printf "%-18s %4s %9s %9s %9s %6s %6s %8s %6s %6s %6s %6s\n",
				    label(t), count(rate[k]) "/" rounds[k], fmt("%.1f", m),
				    fmt("%.1f", lo(rate[k])), fmt("%.1f", hi(rate[k])),
				    fmt("%.1f%%", spread), fmt("%.2f", median(loss[k])), at,
				    fmt("%.0f", median(snd[k])), fmt("%.0f", median(rcv[k])),
				    fmt("%.3f", rp), rcs
			med[s, t] = m
			# paired per round against the best peer of that round
			delete pa
			if (isgput(t))
				for (r = 1; r <= nrep[s]; r++) {
					b = 0
					for (q = 1; q <= nrow[s]; q++) {
						u = rows[s, q]
						if (ispeer(u) && rates[s SUBSEP u, r] + 0 > b) b = rates[s SUBSEP u, r] + 0
					}
					if (b > 0 && rates[k, r] != "") add(pa, 1, rates[k, r] / b)
				}
			paired[s, t] = pa[1]
			# (mawk's sprintf holds 8 KiB: the long parts are concatenated)
			jrows = jrows (jrows == "" ? "" : ",\n      ") sprintf("{\"row\":\"%s\",\"label\":\"%s\",\"rounds\":%d,\"ok\":%d,\"median_mbit\":%s,\"min_mbit\":%s,\"max_mbit\":%s,\"snd_us_per_mb\":%s,\"rcv_us_per_mb\":%s,\"loss_pct\":%s,\"vs_best_peer\":%s,\"ceiling\":%s,\"vs_ceiling\":%s,\"ceiling_invalid\":%s,\"undercounted\":%d,\"runs\":[",
			    t, label(t), rounds[k], count(rate[k]), num(m), num(lo(rate[k])),
			    num(hi(rate[k])), num(median(snd[k])), num(median(rcv[k])),
			    p == "udp" ? num(median(loss[k])) : "null", num(rp),
			    c == "" ? "null" : "\"" c "\"", num(rc),
			    rcs == "invalid" ? "true" : "false", nshort[k]) raw[k] "]}"
			if (nshort[k])
				under = under sprintf("%s server under-counted %d of %d runs: " \
				    "its own count short of the bytes sent, not used (those " \
				    "rounds' best peer is the best of the others)\n",
				    label(t), nshort[k], rounds[k])
		}
		if (under != "") {      # the peers whose count fell short
			printf "%s", under
			under = ""
		}
		if (bad != "") {        # the rows above that beat their ceiling
			printf "%s", bad
			bad = ""
		}
		if (bp != "") {
			printf "best peer: %s, %.1f Mbit/s. gput rows over the best peer of " \
			    "each round: median [min..max]\n", label(bp), bpm
			for (j = 1; j <= nrow[s]; j++) {
				t = rows[s, j]
				if (!isgput(t) || paired[s, t] == "") continue
				v = paired[s, t]
				if (lo(v) >= 1) verdict = "faster in every round"
				else if (hi(v) < 1) verdict = "SLOWER in every round"
				else verdict = "rounds disagree: within noise"
				printf "  %-18s %6.3f [%.3f..%.3f]  %s\n", label(t), median(v),
				    lo(v), hi(v), verdict
			}
		} else
			printf "no peer measured\n"
		jsec = jsec (jsec == "" ? "" : ",\n    ") sprintf("{\"proto\":\"%s\",\"len\":%d,\"bytes_per_run\":%s,\"best_peer\":%s,\"best_peer_mbit\":%s,\"rows\":[\n      ",
		    p, l, num(bytes[s]), bp == "" ? "null" : "\"" bp "\"",
		    bp == "" ? "null" : bpm) jrows "]}"
	}

	# issue 13's targets, where this run measured both sides of a ratio
	ntg = 0
	for (i = 1; i <= nsec; i++) {
		s = secs[i]; p = sproto[s]; l = slen[s]
		b = 0
		for (j = 1; j <= nrow[s]; j++)
			if (ispeer(rows[s, j]) && med[s, rows[s, j]] + 0 > b) b = med[s, rows[s, j]] + 0
		if (p == "tcp") {
			target(sprintf("TCP %d: gput >= 1.1x the best peer", l), med[s, "gput"], b, 1.1)
			if (l >= 65536) {       # the faster of the --discard rows
				d = med[s, "gputDF"] + 0 > med[s, "gputD"] + 0 ? "gputDF" : "gputD"
				target(sprintf("TCP %d: %s >= 1.3x the best peer", l, label(d)),
				    med[s, d], b, 1.3)
			}
			target(sprintf("TCP %d: --interval 1 costs < 2%%", l), med[s, "gputi1"],
			    med[s, "gput"], 0.98)
			target(sprintf("TCP %d: -P 1 costs < 2%%", l), med[s, "gputP1"],
			    med[s, "gput"], 0.98)
		} else {
			g = 0; gr = ""
			for (j = 1; j <= nrow[s]; j++)
				if (isgput(rows[s, j]) && med[s, rows[s, j]] + 0 > g) {
					g = med[s, rows[s, j]] + 0; gr = rows[s, j] }
			target(sprintf("UDP %d: best gput row (%s) >= 5x the best peer", l, label(gr)), g, b, 5)
			target(sprintf("UDP %d: best gput row (%s) >= 0.6x host GSO+GRO", l, label(gr)), g,
			    med[s, "hostgso"], 0.6)
		}
	}
	if (ntg) printf "\nissue 13 targets (ratios of the medians above: where the rows' spread is\nwider than the margin, the verdict is noise):\n%s", tgs

	# pcap readers
	jp = "null"
	if (npt) {
		printf "\npcap readers on one generated capture: %.0f MiB of TCP payload in " \
		    "%d frames (1448-byte\nsegments, Ethernet, snaplen 128), a %.1f MB file " \
		    "written in %d s; medians of %d rounds,\nseconds:\n", pbytes / 1048576,
		    pframes, pfile / 1e6, psynth, count(pwall[ptools[1]])
		printf "%-10s %8s %8s %8s %8s %14s\n", "tool", "wall", "cpu", "wall/gp",
		    "cpu/gp", "payload bytes"
		gw = median(pwall["gput-pcap"]); gc = median(pcpu["gput-pcap"])
		jt = ""
		for (i = 1; i <= npt; i++) {
			t = ptools[i]; w = median(pwall[t]); c = median(pcpu[t])
			printf "%-10s %8.3f %8.3f %8s %8s %14s\n", t, w, c,
			    fmt("%.1f", ratio(w, gw)), fmt("%.1f", ratio(c, gc)), pcnt[t]
			jt = jt (jt == "" ? "" : ",") sprintf("{\"tool\":\"%s\",\"wall_s\":%s,\"cpu_s\":%s,\"min_wall_s\":%s,\"max_wall_s\":%s,\"payload_bytes\":%s}",
			    t, num(w), num(c), num(lo(pwall[t])), num(hi(pwall[t])), num(pcnt[t]))
		}
		agree = (pbad == "") ? sprintf("All agree on the flow's %d payload bytes.", pbytes) : \
		    ("BYTE COUNTS DIFFER from the " pbytes " written:" pbad)
		printf "(wall/gp, cpu/gp: over gput-pcap's.) %s\n", agree
		jp = sprintf("{\"payload_bytes\":%d,\"frames\":%d,\"file_bytes\":%d,\"agree\":%s,\"tools\":[%s]}",
		    pbytes, pframes, pfile, (pbad == "") ? "true" : "false", jt)
	}
	if (took != "")
		printf "\n(the benchmark took %d s)\n", took
	if (json != "") {
		printf "{\n  \"placement\": \"%s\",\n  \"loss_ceiling_pct\": %s,\n  \"udp_buffer_kib\": %s,\n  \"seconds\": %s,\n",
		    place, ceil + 0, uwin + 0, took + 0 > json
		print "  \"sections\": [\n    " jsec "],\n  \"udp_candidates\": [\n    " \
		    cands "],\n  \"targets\": [" jtg "],\n  \"pcap\": " jp "\n}" > json
		close(json)
	}
}

# target(WHAT, A, B, MIN): A / B >= MIN? A line for the report and the JSON.
function target(what, a, b, mn,    r) {
	if (a == "" || a == "-" || b == "" || b == "-" || b + 0 <= 0)
		return
	r = a / b
	tgs = tgs sprintf("  %-58s %6.3f  %s\n", what, r, r >= mn ? "met" : "NOT met")
	jtg = jtg (jtg == "" ? "" : ",") sprintf("{\"what\":\"%s\",\"ratio\":%.4f,\"min\":%s,\"met\":%s}",
	    what, r, mn, r >= mn ? "true" : "false")
	ntg++
}
