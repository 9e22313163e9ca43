#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# gput-testbed-graph.sh: the topology file of tools/gput-testbed (up
# --topology FILE), sourced by it (not run on its own): graph_plan reads the
# file, checks every line (errors "FILE:LINE: message"), numbers the
# addresses, computes every node's routes and neighbours, and writes the
# plan (shell calls of the g_* functions in tools/gput-testbed-build.sh)
# and the tables the other commands read into a directory. Nothing is
# built here.
#
# The file: "#" comments, blank lines, and
#   host NAME | router NAME | switch NAME        (NAME: [a-z][a-z0-9]{0,9})
#   link A B [rate R[/R2]] [delay D[/D2]] [jitter J[/J2]] [queue Np[/Np2]]
#            [loss P%[/P2%]] [dup P%[/P2%]] [reorder P%[/P2%]] [ecn K[/K2]]
#            [mtu N]
# (first value A>B, the second, if given, B>A).
#
# Addresses: each link, or each switch with all its links, is a segment;
# segment s (numbered in the order of the links) is
# 198.(18 + s/256).(s%256).0/24, its members .1, .2, ... in the order they
# join it (A before B).
# Routes: one /32 per address of every other node, through the first hop
# of a breadth-first search by hop count that passes through routers only
# and visits each node's links in the file's order, so of paths with equal
# hops the one whose first differing link comes first in the file wins.
#
# The plan directory holds: nodes ("NAME KIND"), links ("I ANS ADEV BNS
# BDEV A B WIRE", WIRE a namespace or -), dirs ("A>B I ab"), addrs ("NODE
# DEV ADDR/24 PEER"), settings ("I MTU" then per field its a>b and b>a:
# rate, queue, delay, jitter, loss, dup, reorder, ecn; delay -1 = no delay
# line), plan (the build's calls), b.NODE (ip -batch: addresses,
# neighbours, routes) and f.SWITCH (bridge -batch: static fdb entries).

# graph_plan FILE DIR: check FILE and write its plan into DIR; prints
# "FILE:LINE: message" and fails on the first error.
graph_plan() {
	_gf=$1
	_gname=$1
	[ "$_gf" != - ] || { _gf=/dev/stdin; _gname=stdin; }
	[ "$_gf" = /dev/stdin ] || [ -r "$_gf" ] || die "cannot read the topology file '$1'"
	awk -v file="$_gname" -v out="$2" -v prefix="$PREFIX" "$GRAPH_AWK" <"$_gf"
}

# The awk program (no single quotes in it).
# shellcheck disable=SC2016 # an awk program, not shell
GRAPH_AWK='
function fail(m) { printf "%s:%d: %s\n", file, NR, m > "/dev/stderr"; bad = 1; exit 1 }
function fail_at(l, m) { printf "%s:%d: %s\n", file, l, m > "/dev/stderr"; bad = 1; exit 1 }
function num(t) { return t != "" && t != "." && t ~ /^[0-9]*\.?[0-9]*$/ }
function prate(s,   t, m) {
	t = s; sub(/(bit|bps|b\/s)$/, "", t); m = 1
	if (t ~ /[kK]$/) m = 1e3; else if (t ~ /[mM]$/) m = 1e6; else if (t ~ /[gG]$/) m = 1e9
	if (m > 1) t = substr(t, 1, length(t) - 1)
	if (!num(t)) fail("bad rate \"" s "\": use e.g. 10M, 100k, 1G or plain bit/s")
	if (t * m < 10000 || t * m > 1e10) fail("rate " s " out of range (10k..10G)")
	return sprintf("%.0f", t * m)
}
function pdelay(s,   t, m) {
	t = s; m = 1e6
	if (t ~ /us$/) { m = 1e3; t = substr(t, 1, length(t) - 2) }
	else if (t ~ /ms$/) t = substr(t, 1, length(t) - 2)
	else if (t ~ /s$/) { m = 1e9; t = substr(t, 1, length(t) - 1) }
	if (!num(t)) fail("bad delay \"" s "\": use ms (20) or a unit: 500us, 20ms, 1.5ms")
	if (t * m > 1e10) fail("delay " s " out of range (0..10s)")
	return sprintf("%.0f", t * m)
}
function pqueue(s, mtu,   t, m) {
	t = s; m = 1
	if (t ~ /[kK]$/) m = 1024; else if (t ~ /M$/) m = 1048576; else if (t ~ /p$/) m = mtu + 14
	if (m > 1) t = substr(t, 1, length(t) - 1)
	if (t !~ /^[0-9]+$/ || length(t) > 9) fail("bad queue \"" s "\": use packets (100p) or bytes (100000, 64K)")
	if (t * m < mtu + 14 || t * m > 1e9) fail("queue " s " out of range (one frame, " mtu + 14 " bytes, .. 1000000000 bytes)")
	return sprintf("%.0f", t * m)
}
function ppct(s,   t) {
	t = s; sub(/%$/, "", t)
	if (t !~ /^([0-9]+\.?[0-9]?[0-9]?|\.[0-9][0-9]?)$/) fail("bad percentage \"" s "\": use e.g. 2%, 0.5% or 12.25%")
	if (t + 0 > 100) fail("percentage " s " out of range (0..100%)")
	return sprintf("%.0f", t * 100)
}
function okname(n) { return n ~ /^[a-z][a-z0-9]*$/ && length(n) <= 10 }
# one link option: KEY VAL into link L (raw; queue and ecn wait for the MTU)
function opt(l, k, v,   n, p) {
	if (k !~ /^(rate|delay|jitter|queue|loss|dup|reorder|ecn|mtu)$/)
		fail("unknown link setting \"" k "\" (rate, delay, jitter, queue, loss, dup, reorder, ecn, mtu)")
	if ((l, k) in got) fail(k " given twice")
	got[l, k] = 1
	if (k == "mtu") {
		if (v !~ /^[0-9]+$/ || length(v) > 5 || v < 1280 || v > 9000) fail("bad mtu \"" v "\" (1280..9000)")
		mtu[l] = v + 0; return
	}
	n = split(v, p, "/")
	if (n > 2 || v ~ /^\/|\/$/) fail("bad " k " \"" v "\": use X or A>B/B>A")
	if (n == 1) p[2] = p[1]
	raw[l, k, 1] = p[1]; raw[l, k, 2] = p[2]
}
function val(l, k, d, v,   x) {
	if (!((l, k) in got)) return d
	x = raw[l, k, v]
	if (k == "rate") return prate(x)
	if (k == "delay" || k == "jitter") return pdelay(x)
	if (k == "ecn" && x == "0") return 0
	if (k == "queue" || k == "ecn") return pqueue(x, mtu[l])
	return ppct(x)
}
# the settings of link L, direction V (1: A>B, 2: B>A), checked
function settle(l, v,   r) {
	r = val(l, "rate", 0, v); S[l, "rate", v] = r
	S[l, "queue", v] = val(l, "queue", (r > 0 ? sprintf("%.0f", (r / 8 * 0.16 > 200000 ? r / 8 * 0.16 : 200000)) : 0), v)
	S[l, "delay", v] = val(l, "delay", -1, v)
	S[l, "jitter", v] = val(l, "jitter", 0, v)
	S[l, "loss", v] = val(l, "loss", 0, v)
	S[l, "dup", v] = val(l, "dup", 0, v)
	S[l, "reorder", v] = val(l, "reorder", 0, v)
	S[l, "ecn", v] = val(l, "ecn", 0, v)
	if (r == 0 && (l, "queue") in got) fail("queue needs a rate (it is the rate shaper queue)")
	if (r == 0 && S[l, "reorder", v] > 0) fail("reorder needs a rate (it steers frames past the rate shaper queue)")
	if (r == 0 && S[l, "ecn", v] > 0) fail("ecn needs a rate (the marker is the rate shaper queue)")
	if (S[l, "ecn", v] > 0 && S[l, "reorder", v] > 0) fail("reorder and ecn exclude each other (the marking queue has no lane to steer into)")
	if (S[l, "jitter", v] > 0 && S[l, "delay", v] < 0) fail("jitter needs delay (e.g. delay 20 jitter 2)")
}
{ sub(/#.*/, "") }
NF == 0 { next }
$1 == "host" || $1 == "router" || $1 == "switch" {
	if (NF != 2) fail("use: " $1 " NAME")
	if (!okname($2)) fail("bad node name \"" $2 "\": [a-z][a-z0-9], at most 10 characters")
	if ($2 in kind) fail("node " $2 " declared again (first on line " line[$2] ")")
	kind[$2] = $1; line[$2] = NR; node[++nn] = $2
	next
}
$1 == "link" {
	if (NF < 3) fail("use: link A B [SETTING VALUE]...")
	for (i = 2; i <= 3; i++)
		if (!($i in kind)) fail("unknown node \"" $i "\" (declare it first: host, router or switch NAME)")
	if ($2 == $3) fail("a link from " $2 " to itself")
	if ((($2, $3) in pair) || (($3, $2) in pair)) fail("a second link between " $2 " and " $3 " (first on line " pair[$2, $3] pair[$3, $2] ")")
	if (kind[$2] == "switch" && kind[$3] == "switch") fail("a link between two switches (hang their hosts on one switch)")
	nl++; A[nl] = $2; B[nl] = $3; pair[$2, $3] = NR; lline[nl] = NR; mtu[nl] = 1500
	if ((NF - 3) % 2) fail("setting \"" $NF "\" has no value")
	for (i = 4; i < NF; i += 2) opt(nl, $i, $(i + 1))
	next
}
{ fail("unknown line \"" $1 "\" (host, router, switch or link)") }
function mac(n) { return sprintf("02:67:74:%02x:%02x:%02x", int(n / 65536) % 256, int(n / 256) % 256, n % 256) }
function addr(s, j) { return "198." (18 + int(s / 256)) "." (s % 256) "." j }
# end E (of node X, on segment s, device dev); L3 ends get the next address
function end_(l, x, peer, s,   e) {
	e = ++ne; E_node[e] = x; E_dev[e] = "to-" peer; E_mac[e] = mac(e); E_seg[e] = s; E_link[e] = l
	if (kind[x] != "switch") {
		if (++members[s] > 253) fail_at(lline[l], "more than 253 nodes on switch " peer)
		M[s, members[s]] = e; E_addr[e] = addr(s, members[s])
		ends[x, ++nends[x]] = e
	}
	return e
}
END {
	if (bad) exit 1
	if (nn == 0) fail_at(NR > 0 ? NR : 1, "no nodes (host, router or switch NAME)")
	for (l = 1; l <= nl; l++) {
		NR = lline[l]
		settle(l, 1); settle(l, 2)
		sw = (kind[A[l]] == "switch") ? A[l] : (kind[B[l]] == "switch") ? B[l] : ""
		if (sw != "" && (sw in segof)) s = segof[sw]
		else { s = nseg++; if (sw != "") { segof[sw] = s; segmtu[s] = mtu[l] } }
		if (nseg > 512) fail("more than 512 links and switches (198.18.0.0/15 in /24s)")
		if (sw != "" && mtu[l] != segmtu[s]) fail("mtu " mtu[l] " on switch " sw ", whose first link has " segmtu[s])
		ea[l] = end_(l, A[l], B[l], s); eb[l] = end_(l, B[l], A[l], s)
		wire[l] = "-"
		if (S[l, "delay", 1] >= 0 || S[l, "delay", 2] >= 0 || S[l, "ecn", 1] > 0 || S[l, "ecn", 2] > 0)
			wire[l] = prefix "-" A[l] "-" B[l]
		for (v = 1; v <= 2; v++) if (wire[l] != "-" && S[l, "delay", v] < 0) S[l, "delay", v] = 0
	}
	plan = out "/plan"
	for (i = 1; i <= nn; i++) {
		x = node[i]
		print x, kind[x] > (out "/nodes")
		print "g_node", x, kind[x] > plan
	}
	for (l = 1; l <= nl; l++) {
		a = ea[l]; b = eb[l]; i = l - 1
		print i, prefix "-" A[l], E_dev[a], prefix "-" B[l], E_dev[b], A[l], B[l], wire[l] > (out "/links")
		print A[l] ">" B[l], i, "ab" > (out "/dirs"); print B[l] ">" A[l], i, "ba" > (out "/dirs")
		print "g_link", i, A[l], E_dev[a], E_mac[a], B[l], E_dev[b], E_mac[b], mtu[l], wire[l], kind[A[l]], kind[B[l]] > plan
		if (kind[A[l]] == "switch") print "fdb replace", E_mac[b], "dev", E_dev[a], "master static" > (out "/f." A[l])
		if (kind[B[l]] == "switch") print "fdb replace", E_mac[a], "dev", E_dev[b], "master static" > (out "/f." B[l])
		st = i " " mtu[l]
		split("rate queue delay jitter loss dup reorder ecn", F, " ")
		for (f = 1; f <= 8; f++) st = st " " S[l, F[f], 1] " " S[l, F[f], 2]
		print st > (out "/settings")
	}
	for (e = 1; e <= ne; e++) {
		if (!(e in E_addr)) continue
		x = E_node[e]; s = E_seg[e]
		print x, E_dev[e], E_addr[e] "/24", substr(E_dev[e], 4) > (out "/addrs")
		print "addr add", E_addr[e] "/24", "dev", E_dev[e] > (out "/b." x)
		for (j = 1; j <= members[s]; j++)
			if (M[s, j] != e)
				print "neigh replace", E_addr[M[s, j]], "lladdr", E_mac[M[s, j]], "dev", E_dev[e], "nud permanent" > (out "/b." x)
	}
	for (i = 1; i <= nn; i++) if (kind[node[i]] != "switch") routes(node[i])
	for (i = 1; i <= nn; i++) {
		x = node[i]
		if (kind[x] != "switch") { if (nends[x]) print "g_batch", x > plan }
		else if (segof[x] != "") print "g_fdb", x > plan
	}
	for (l = 1; l <= nl; l++) print "g_set", l - 1 > plan
}
# routes(X): breadth-first from X through routers; a /32 to every address
# of every node reached, through the first hop, unless X shares its segment
function routes(x,   q, h, t, u, k, e, s, j, m, y, seen, fa, fd, mine) {
	delete seen; delete fa; delete fd; delete mine
	h = 1; t = 1; q[1] = x; seen[x] = 1
	for (k = 1; k <= nends[x]; k++) mine[E_seg[ends[x, k]]] = 1
	while (h <= t) {
		u = q[h++]
		if (u != x && kind[u] != "router") continue
		for (k = 1; k <= nends[u]; k++) {
			e = ends[u, k]; s = E_seg[e]
			for (j = 1; j <= members[s]; j++) {
				m = M[s, j]; y = E_node[m]
				if (y in seen) continue
				seen[y] = 1; q[++t] = y
				if (u == x) { fa[y] = E_addr[m]; fd[y] = E_dev[e] } else { fa[y] = fa[u]; fd[y] = fd[u] }
			}
		}
	}
	for (j = 2; j <= t; j++) {
		y = q[j]
		for (k = 1; k <= nends[y]; k++) {
			e = ends[y, k]
			if (!(E_seg[e] in mine))
				print "route replace", E_addr[e] "/32", "via", fa[y], "dev", fd[y] > (out "/b." x)
		}
	}
}
'
