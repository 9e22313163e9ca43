#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# gput-testbed-build.sh: builds the network of a topology file (up
# --topology FILE) from the plan tools/gput-testbed-graph.sh wrote, and the
# commands that read it (addr, nodes, links), sourced by tools/gput-testbed
# (not run on its own). IPv4 only.
#
# Node NAME is namespace PREFIX-NAME (a router forwards, a host and a switch
# do not; a switch holds a bridge "br"). Link A B is a veth pair, to-B in A
# and to-A in B, with the MAC addresses the plan gave; with a delay (even 0)
# or ECN marking it runs through a wire namespace PREFIX-A-B that holds its
# delay lines. Each direction's rate is a tbf on the sender's end (as every
# testbed link's), its delay line in the wire after it; loss, dup and
# reorder are the impairments of "impair", applied to every IPv4 frame.
# Every namespace is written to $STATE/ns before it is made, so that down,
# a failed up and ^C remove exactly what was made.

# g_rec NS: remember a namespace before it exists (up took down every
# namespace of this testbed first: one that exists is someone else's, and
# is neither used nor removed)
g_rec() {
	[ ! -e "/run/netns/$1" ] ||
		die "namespace $1 exists and is not this testbed's (remove it, or set another GPUT_TESTBED_PREFIX)"
	echo "$1" >>"$STATE/ns"
}

# g_node NAME KIND: the node's namespace (a switch's with its bridge)
g_node() {
	_gns=$PREFIX-$1
	g_rec "$_gns"
	ip netns add "$_gns"
	ip -n "$_gns" link set dev lo up
	_gfw=0
	[ "$2" != router ] || _gfw=1
	[ "$2" != switch ] || g_switch "$1"
	set -- net.ipv4.ip_forward=$_gfw net.ipv4.conf.all.rp_filter=0 net.ipv4.conf.default.rp_filter=0
	[ "$V6" = no ] || set -- "$@" net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1
	ip netns exec "$_gns" sysctl -qw "$@"
}

# g_switch NAME: the bridge of a switch (no STP: a switch links to hosts
# and routers only, so there is no loop)
g_switch() {
	ip -n "$PREFIX-$1" link add name br type bridge forward_delay 0 stp_state 0
	ip -n "$PREFIX-$1" link set dev br up
}

# g_link I A ADEV AMAC B BDEV BMAC MTU WIRE AKIND BKIND: link I's veth
# pair (through its wire when WIRE is not -), up; a switch's end joins its
# bridge
g_link() {
	_gan=$PREFIX-$2 _gbn=$PREFIX-$5
	if [ "$9" != - ]; then
		g_rec "$9"
		wire_make "$9" "$_gan" "$3" "$_gbn" "$6" "$8"
		ip -n "$_gan" link set dev "$3" address "$4" mtu "$8"
		ip -n "$_gbn" link set dev "$6" address "$7" mtu "$8"
	else
		ip link add "$3" netns "$_gan" address "$4" mtu "$8" type veth \
			peer name "$6" netns "$_gbn" address "$7" mtu "$8"
	fi
	offloads_off "$_gan" "$3"
	offloads_off "$_gbn" "$6"
	[ "${10}" != switch ] || ip -n "$_gan" link set dev "$3" master br
	[ "${11}" != switch ] || ip -n "$_gbn" link set dev "$6" master br
	ip -n "$_gan" link set dev "$3" up
	ip -n "$_gbn" link set dev "$6" up
}

# g_batch NAME: the node's addresses, static neighbours and routes
g_batch() { ip -n "$PREFIX-$1" -batch "$STATE/b.$1"; }

# g_fdb NAME: a switch's static forwarding entries (every member's MAC on
# its port), so that no frame is flooded
g_fdb() { bridge -n "$PREFIX-$1" -batch "$STATE/f.$1"; }

# g_settings I: link I's settings line into _s_* (see graph.sh)
g_settings() {
	read -r _ _s_mtu _s_rab _s_rba _s_qab _s_qba _s_dab _s_dba _s_jab _s_jba \
		_s_lab _s_lba _s_uab _s_uba _s_oab _s_oba _s_eab _s_eba <<EOF
$(awk -v i="$1" '$1 == i' "$STATE/settings")
EOF
}

# g_dir I ab|ba NS DEV MTU RATE QUEUE DELAY JITTER ECN WIRE: one
# direction's shaper (or marking delay line) and delay line
g_dir() {
	_gd=$8
	[ "$_gd" != -1 ] || _gd=0
	if [ "${10}" != 0 ]; then
		unshape "$3" "$4" "$6" "$5" "$7"
		dl_set "$1.$2" "$_gd" "$9" no "$6" "$7" "${10}"
		return
	fi
	[ "$6" = 0 ] || shape "$3" "$4" "$6" "$5" "$7"
	[ "${11}" = - ] || dl_set "$1.$2" "$_gd" "$9" no
}

# g_set I: link I's shapers, delay lines and impairments
g_set() {
	g_settings "$1"
	tlink_ends "$1" || die "no link $1"
	_gw=$(awk -v i="$1" '$1 == i { print $8 }' "$STATE/links")
	g_dir "$1" ab "$LK_LNS" "$LK_LDEV" "$_s_mtu" "$_s_rab" "$_s_qab" "$_s_dab" "$_s_jab" "$_s_eab" "$_gw"
	g_dir "$1" ba "$LK_RNS" "$LK_RDEV" "$_s_mtu" "$_s_rba" "$_s_qba" "$_s_dba" "$_s_jba" "$_s_eba" "$_gw"
	for _gx in "ab $_s_lab $_s_uab $_s_oab" "ba $_s_lba $_s_uba $_s_oba"; do
		# shellcheck disable=SC2086 # split the tuple
		set -- "$1" $_gx
		dir_link "$1" "$2" "$2"
		[ "$3" = 0 ] || impair_do loss "$(pct_of "$3")" "$3" "$MATCH_IP" >/dev/null
		[ "$4" = 0 ] || impair_do dup "$(pct_of "$4")" "$4" "$MATCH_IP" >/dev/null
		[ "$5" = 0 ] || impair_do reorder "$(pct_of "$5")" "$5" "$MATCH_IP" >/dev/null
	done
}

# pct_of THR: the percentage of a threshold out of 10000 (250: 2.5)
pct_of() { awk -v t="$1" 'BEGIN { printf "%g\n", t / 100 }'; }

# graph_up FILE: check FILE (nothing is touched when it has an error), take
# down what is up, and build FILE's network; a failure or ^C half-way
# removes everything.
graph_up() {
	_gtmp=$(mktemp -d "${TMPDIR:-/tmp}/gput-testbed.XXXXXX")
	if ! graph_plan "$1" "$_gtmp"; then
		rm -rf "$_gtmp"
		exit 1
	fi
	need_root
	need_tools ip tc ethtool bridge
	if [ -n "$(awk '$8 != "-"' "$_gtmp/links")" ]; then
		need_tools nft
		delay_bin >/dev/null
	fi
	trap 'trap - EXIT; teardown; rm -rf "$_gtmp"; echo "$PROG: interrupted; testbed removed" >&2; exit 130' INT TERM HUP PIPE
	# shellcheck disable=SC2154 # _grc is set in the trap itself
	trap '_grc=$?; rm -rf "$_gtmp"; up_failed $_grc' EXIT
	teardown
	mkdir -p "$STATE"
	: >"$STATE/ns"
	cp "$_gtmp"/* "$STATE"/
	echo graph >"$STATE/topo"
	V6=no
	[ ! -d /proc/sys/net/ipv6 ] || V6=yes
	# shellcheck source=/dev/null # the plan graph_plan wrote
	. "$STATE/plan"
	trap - INT TERM HUP PIPE EXIT
	rm -rf "$_gtmp"
	awk '$2 == "host" { h++ } $2 == "router" { r++ } $2 == "switch" { s++ }
	    END { printf "%d hosts, %d routers, %d switches", h, r, s }' "$STATE/nodes" >"$STATE/summary"
	echo "$PROG: up: $(cat "$STATE/summary"), $(wc -l <"$STATE/links") links, $(find "$STATE" -name '*.pid' | wc -l) delay lines"
}

# cmd_plan FILE: what up --topology FILE would build, built nothing (no
# root needed): nodes, links (as those commands print them), then each
# node's routes, "route NODE ADDR/32 via HOP dev DEV"
cmd_plan() {
	[ "$#" -eq 1 ] || bad_usage
	_gtmp=$(mktemp -d "${TMPDIR:-/tmp}/gput-testbed.XXXXXX")
	trap 'rm -rf "$_gtmp"' EXIT
	graph_plan "$1" "$_gtmp" || exit 1
	STATE=$_gtmp
	echo graph >"$STATE/topo"
	cmd_nodes
	cmd_links
	for _gn in $(awk '$2 != "switch" { print $1 }' "$STATE/nodes"); do
		[ ! -r "$STATE/b.$_gn" ] ||
			awk -v n="$_gn" '$1 == "route" { print "route", n, $3, $4, $5, $6, $7 }' "$STATE/b.$_gn"
	done
}

# need_graph CMD: the testbed is up with --topology
need_graph() {
	[ "$(topo_mode)" = graph ] || die "$1: the testbed is not up with --topology"
}

# cmd_addr NODE [PEER]: NODE's address: its first, or the one on its link
# toward PEER: the link to PEER, else the subnet it shares with PEER (a
# switch), else the first link of its route to PEER
cmd_addr() {
	case $# in 1 | 2) ;; *) bad_usage ;; esac
	need_graph addr
	_gk=$(awk -v n="$1" '$1 == n { print $2 }' "$STATE/nodes")
	[ -n "$_gk" ] || die "addr: no node '$1'"
	[ "$_gk" != switch ] || die "addr: $1 is a switch, which has no address"
	if [ "$#" = 2 ]; then
		awk -v n="$2" '$1 == n { f = 1 } END { exit !f }' "$STATE/nodes" || die "addr: no node '$2'"
	fi
	awk -v n="$1" -v p="${2:-}" -v routes="$STATE/b.$1" '
	    function net(a) { sub(/\.[0-9]+\/24$/, "", a); return a }
	    function bare(a) { sub(/\/.*/, "", a); return a }
	    $1 == n { k++; A[k] = $3; D[k] = $2; if (p == "" || $4 == p) { print bare($3); f = 1; exit } }
	    $1 == p { P[++m] = $3 }
	    END {
		if (f) exit 0
		for (i = 1; i <= k; i++) for (j = 1; j <= m; j++)
			if (net(A[i]) == net(P[j])) { print bare(A[i]); exit 0 }
		if (m == 0) exit 1
		while ((getline l < routes) > 0) {
			split(l, w, " ")
			if (w[1] == "route" && w[3] == bare(P[1]) "/32")
				for (i = 1; i <= k; i++) if (D[i] == w[7]) { print bare(A[i]); exit 0 }
		}
		exit 1
	    }' "$STATE/addrs" || die "addr: $1 has no link or route toward $2"
}

# cmd_nodes: "NAME KIND ADDR..." per node, in the file's order
cmd_nodes() {
	[ "$#" -eq 0 ] || bad_usage
	need_graph nodes
	awk 'FNR == NR { sub(/\/.*/, "", $3); a[$1] = a[$1] " " $3; next } { print $1 " " $2 a[$1] }' \
		"$STATE/addrs" "$STATE/nodes"
}

# cmd_links: per link "A-B mtu N", then per direction "A>B rate R queue Q
# delay D jitter J loss L dup U reorder O ecn E" (rate bit/s, 0: not
# shaped; queue and ecn bytes, 0: none; delay and jitter ms, delay -: no
# delay line; loss, dup, reorder %), as last set by up or impair
cmd_links() {
	[ "$#" -eq 0 ] || bad_usage
	need_graph links
	awk 'function ms(n) { return n < 0 ? "-" : sprintf("%.9g", n / 1e6) }
	    function pc(t) { return sprintf("%g", t / 100) }
	    function dir(n, v) {
		return sprintf(" %s rate %s queue %s delay %s jitter %s loss %s dup %s reorder %s ecn %s", n,
		    $(3 + v), $(5 + v), ms($(7 + v)), ms($(9 + v)), pc($(11 + v)), pc($(13 + v)), pc($(15 + v)), $(17 + v))
	    }
	    FNR == NR { a[$1] = $6; b[$1] = $7; next }
	    { print a[$1] "-" b[$1] " mtu " $2 dir(a[$1] ">" b[$1], 0) dir(b[$1] ">" a[$1], 1) }' \
		"$STATE/links" "$STATE/settings"
}

# graph_note I ab|ba FIELD VALUE: impair changed a setting of link I
# (FIELD: delay jitter loss dup reorder); links shows it
graph_note() {
	[ "$(topo_mode)" = graph ] || return 0
	awk -v i="$1" -v d="$2" -v f="$3" -v v="$4" '
	    BEGIN { n = split("rate queue delay jitter loss dup reorder ecn", F, " "); for (k = 1; k <= n; k++) c[F[k]] = 1 + 2 * k }
	    $1 == i { $(c[f] + (d == "ba")) = v } { print }' "$STATE/settings" >"$STATE/settings.new"
	mv "$STATE/settings.new" "$STATE/settings"
}
