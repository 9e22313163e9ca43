#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# gput-testbed-topo.sh: the lab topologies of tools/gput-testbed, sourced by
# it (not run on its own): a dumbbell of N host pairs through one bottleneck
# (up --pairs N) and a chain of K routers (up --hops K), each link with its
# own rate, queue and delay (link I ...). IPv4 only.
#
# Every link I runs through a wire namespace PREFIX-wI (see wire_make): the
# link's a>b shaper sits on its left end's egress, its b>a shaper on its
# right end's, and the delay lines in the wire come after both, so a
# direction's delay always follows its queue. $STATE/links lists the links,
# "I LNS LDEV RNS RDEV"; $STATE/topo says "pairs N" or "hops K".
#
#   --pairs N (1..8): a1..aN -- ra ==link 0== rb -- b1..bN; ai is
#     198.18.0.(2i-1), bi 198.18.0.(2i) (a1 and b1 the usual a and b); the
#     hosts' own links are unshaped veth, so every pair's traffic meets in
#     ra's queue toward rb (a>b) and rb's toward ra (b>a).
#   --hops K (1..4): a --link 0-- r1 --link 1-- ... rK --link K-- b; router
#     rI is 198.18.I.1 toward a and 198.18.I.2 toward b. Every link starts
#     with the up's RATE, queue and delay; link I moves the bottleneck.

# topo_mode: "pairs N", "hops K", or nothing for the plain testbed.
topo_mode() { cat "$STATE/topo" 2>/dev/null || true; }

# topo_ns_all: every namespace of this prefix a testbed may have made: the
# fixed names of up, --router, --pairs and --hops, and those a topology
# file's up recorded in $STATE/ns (each before it was made).
topo_ns_all() {
	{ cat "$STATE/ns" 2>/dev/null || true; echo --; ip netns list 2>/dev/null || true; } | awk -v p="$PREFIX-" '
	    $1 == "--" { l = 1; next }
	    !l { w[$1] = 1; next }
	    ($1 in w) && !s[$1]++ { print $1; next }
	    index($1, p) == 1 {
		    n = substr($1, length(p) + 1)
		    if (n ~ /^(a|b|r|w|wa|wb|ra|rb|a[1-8]|b[1-8]|r[1-4]|w[0-4])$/ && !s[$1]++) print $1 }'
}

# topo_ns NAME: the namespace "exec NAME" runs in (a and b are a1 and b1 of
# a dumbbell).
topo_ns() {
	case "$(topo_mode)" in
	pairs*) case $1 in a) echo "$PREFIX-a1"; return ;; b) echo "$PREFIX-b1"; return ;; esac ;;
	esac
	echo "$PREFIX-$1"
}

# neigh_pin NS DEV ADDR PNS PDEV: a permanent neighbour entry for ADDR
# (PDEV's MAC in PNS) on DEV, so that no first packet waits for ARP (across
# a delay line, twice its delay).
neigh_pin() {
	_mac=$(ip -n "$4" -o link show dev "$5" | sed -n 's|.* link/ether \([0-9a-f:]*\) .*|\1|p')
	ip -n "$1" neigh replace "$3" lladdr "$_mac" dev "$2" nud permanent
}

# pin_pair NS1 DEV1 IP4 IP6 NS2 DEV2 IP4 IP6: each end of a veth knows the
# other's MAC for good (neigh_pin), IPv4 and IPv6: no first packet waits for
# ARP or neighbour discovery across the delay line.
pin_pair() {
	neigh_pin "$1" "$2" "$7" "$5" "$6"
	neigh_pin "$5" "$6" "$3" "$1" "$2"
	[ "$V6" = no ] && return
	neigh_pin "$1" "$2" "$8" "$5" "$6"
	neigh_pin "$5" "$6" "$4" "$1" "$2"
}

# tlink_make I LNS LDEV RNS RDEV MTU: link I, through its wire PREFIX-wI.
tlink_make() {
	wire_make "$PREFIX-w$1" "$2" "$3" "$4" "$5" "$6"
	echo "$1 $2 $3 $4 $5" >>"$STATE/links"
	offloads_off "$2" "$3"
	ip -n "$2" link set dev "$3" mtu "$6" up
	offloads_off "$4" "$5"
	ip -n "$4" link set dev "$5" mtu "$6" up
}

# tlink_ends I: LK_LNS LK_LDEV LK_RNS LK_RDEV of link I (fails if none).
tlink_ends() {
	# shellcheck disable=SC2034 # used by the callers
	LK_LNS=
	read -r _ LK_LNS LK_LDEV LK_RNS LK_RDEV _ <<EOF
$(awk -v i="$1" '$1 == i' "$STATE/links" 2>/dev/null)
EOF
	[ -n "${LK_LNS:-}" ]
}

# tlink_set I RATE_AB RATE_BA Q_AB Q_BA D_AB D_BA J_AB J_BA REORDER ECN:
# shape link I's two ends (or, with ECN bytes, let its delay lines be the
# bottleneck) and (re)start its delay lines.
tlink_set() {
	tlink_ends "$1" || die "no link $1"
	_mtu=$(ip -n "$LK_LNS" -o link show dev "$LK_LDEV" | sed 's/.* mtu \([0-9]*\).*/\1/')
	if [ "${11}" != 0 ]; then
		unshape "$LK_LNS" "$LK_LDEV" "$2" "$_mtu" "$4"
		unshape "$LK_RNS" "$LK_RDEV" "$3" "$_mtu" "$5"
		dl_set "$1.ab" "$6" "$8" "${10}" "$2" "$4" "${11}"
		dl_set "$1.ba" "$7" "$9" "${10}" "$3" "$5" "${11}"
	else
		shape "$LK_LNS" "$LK_LDEV" "$2" "$_mtu" "$4"
		shape "$LK_RNS" "$LK_RDEV" "$3" "$_mtu" "$5"
		dl_set "$1.ab" "$6" "$8" "${10}"
		dl_set "$1.ba" "$7" "$9" "${10}"
	fi
}

# host_p2p NS DEV ADDR PEER: DEV's address with PEER as on-link neighbour,
# and every testbed address (198.18.0.0/15) through PEER.
host_p2p() {
	ip -n "$1" addr replace "$3" peer "$4/32" dev "$2"
	ip -n "$1" link set dev "$2" up
	ip -n "$1" route replace 198.18.0.0/15 via "$4" dev "$2"
}

forwarding() { ip netns exec "$1" sysctl -qw net.ipv4.ip_forward=1; }

ns_new() {
	ns_exists "$1" || ip netns add "$1"
	ip -n "$1" link set dev lo up
	ip netns exec "$1" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 2>/dev/null || true
	ip netns exec "$1" sysctl -qw net.ipv6.conf.default.disable_ipv6=1 2>/dev/null || true
}

# topo_pairs N MTU: the dumbbell (see the top of this file).
topo_pairs() {
	ns_new "$PREFIX-ra"
	ns_new "$PREFIX-rb"
	forwarding "$PREFIX-ra"
	forwarding "$PREFIX-rb"
	_tpi=1
	while [ "$_tpi" -le "$1" ]; do
		for _s in a b; do
			_h=$PREFIX-$_s$_tpi
			ns_new "$_h"
			veth "$_h" "veth-$_s" "$PREFIX-r$_s" "veth-$_s$_tpi"
			for _e in "$_h veth-$_s" "$PREFIX-r$_s veth-$_s$_tpi"; do
				# shellcheck disable=SC2086 # split the pair
				set -- "$1" $_e
				offloads_off "$2" "$3"
				ip -n "$2" link set dev "$3" mtu "$MTU" up
			done
			_addr=198.18.0.$(( 2 * _tpi - $([ "$_s" = a ] && echo 1 || echo 0) ))
			_rt=198.18.1.$([ "$_s" = a ] && echo 1 || echo 2)
			host_p2p "$_h" "veth-$_s" "$_addr" "$_rt"
			ip -n "$PREFIX-r$_s" addr replace "$_rt" peer "$_addr/32" dev "veth-$_s$_tpi"
			neigh_pin "$_h" "veth-$_s" "$_rt" "$PREFIX-r$_s" "veth-$_s$_tpi"
			neigh_pin "$PREFIX-r$_s" "veth-$_s$_tpi" "$_addr" "$_h" "veth-$_s"
		done
		_tpi=$((_tpi + 1))
	done
	tlink_make 0 "$PREFIX-ra" veth-bn "$PREFIX-rb" veth-bn "$MTU"
	ip -n "$PREFIX-ra" addr replace 198.18.2.1 peer 198.18.2.2/32 dev veth-bn
	ip -n "$PREFIX-rb" addr replace 198.18.2.2 peer 198.18.2.1/32 dev veth-bn
	ip -n "$PREFIX-ra" route replace 198.18.0.0/24 via 198.18.2.2 dev veth-bn
	ip -n "$PREFIX-rb" route replace 198.18.0.0/24 via 198.18.2.1 dev veth-bn
	# the routers' far addresses
	ip -n "$PREFIX-ra" route replace 198.18.1.2/32 via 198.18.2.2 dev veth-bn
	ip -n "$PREFIX-rb" route replace 198.18.1.1/32 via 198.18.2.1 dev veth-bn
	neigh_pin "$PREFIX-ra" veth-bn 198.18.2.2 "$PREFIX-rb" veth-bn
	neigh_pin "$PREFIX-rb" veth-bn 198.18.2.1 "$PREFIX-ra" veth-bn
}

# topo_hops K MTU: the chain (see the top of this file).
topo_hops() {
	ns_new "$PREFIX-a"
	ns_new "$PREFIX-b"
	_thi=1
	while [ "$_thi" -le "$1" ]; do
		ns_new "$PREFIX-r$_thi"
		forwarding "$PREFIX-r$_thi"
		_thi=$((_thi + 1))
	done
	_thi=0
	while [ "$_thi" -le "$1" ]; do
		if [ "$_thi" = 0 ]; then
			_ln=$PREFIX-a _ld=veth-a _la=198.18.0.1
		else
			_ln=$PREFIX-r$_thi _ld=veth-r _la=198.18.$_thi.2
		fi
		if [ "$_thi" = "$1" ]; then
			_rn=$PREFIX-b _rd=veth-b _ra=198.18.0.2
		else
			_rn=$PREFIX-r$((_thi + 1)) _rd=veth-l _ra=198.18.$((_thi + 1)).1
		fi
		tlink_make "$_thi" "$_ln" "$_ld" "$_rn" "$_rd" "$MTU"
		ip -n "$_ln" addr replace "$_la" peer "$_ra/32" dev "$_ld"
		ip -n "$_rn" addr replace "$_ra" peer "$_la/32" dev "$_rd"
		neigh_pin "$_ln" "$_ld" "$_ra" "$_rn" "$_rd"
		neigh_pin "$_rn" "$_rd" "$_la" "$_ln" "$_ld"
		_thi=$((_thi + 1))
	done
	hops_routes "$1"
}

# hops_routes K: every node of the chain reaches every address: a and b
# the whole range through their router, router rI each address of the
# others through its neighbour toward it (the on-link peers are routes
# already).
hops_routes() {
	ip -n "$PREFIX-a" route replace 198.18.0.0/15 via 198.18.1.1 dev veth-a
	ip -n "$PREFIX-b" route replace 198.18.0.0/15 via "198.18.$1.2" dev veth-b
	_hri=1
	while [ "$_hri" -le "$1" ]; do
		# rI: veth-l toward a (next hop _hl), veth-r toward b (_hr)
		_hl=198.18.$((_hri - 1)).2 _hr=198.18.$((_hri + 1)).1
		[ "$_hri" != 1 ] || _hl=198.18.0.1
		[ "$_hri" != "$1" ] || _hr=198.18.0.2
		_hj=0
		while [ "$_hj" -le "$1" ]; do
			for _hx in "198.18.$_hj.1" "198.18.$_hj.2"; do
				if [ "$_hj" = 0 ]; then
					_hs=$([ "$_hx" = 198.18.0.1 ] && echo 0 || echo $(($1 + 1)))
				else
					_hs=$_hj
				fi
				case $_hx in "$_hl" | "$_hr") continue ;; esac
				if [ "$_hs" -lt "$_hri" ]; then
					ip -n "$PREFIX-r$_hri" route replace "$_hx/32" via "$_hl" dev veth-l
				elif [ "$_hs" -gt "$_hri" ]; then
					ip -n "$PREFIX-r$_hri" route replace "$_hx/32" via "$_hr" dev veth-r
				fi
			done
			_hj=$((_hj + 1))
		done
		_hri=$((_hri + 1))
	done
}


# topo_up MODE N RATE_AB RATE_BA Q_AB Q_BA D_AB D_BA J_AB J_BA REORDER ECN:
# build the dumbbell or the chain from nothing (teardown first) and set
# every link.
topo_up() {
	teardown
	mkdir -p "$STATE"
	echo "$1 $2" >"$STATE/topo"
	: >"$STATE/links"
	if [ "$1" = pairs ]; then topo_pairs "$2"; else topo_hops "$2"; fi
	_mode=$1 _cnt=$2
	topo_dirs "$1"
	shift 2
	_tui=0
	while tlink_ends "$_tui"; do
		tlink_set "$_tui" "$@"
		_tui=$((_tui + 1))
	done
	echo "$PROG: up: $([ "$_mode" = pairs ] && echo "$_cnt pairs a1..a$_cnt / b1..b$_cnt through one bottleneck (ra -- rb)" ||
	    echo "a -- r1 .. r$_cnt -- b, $((_cnt + 1)) links") at $(human_rate "$1") a>b, $(human_rate "$2") b>a, queue $3 bytes, delay $(human_delay "$5") a>b, $(human_delay "$6") b>a, MTU $MTU"
}

# topo_dirs: $STATE/dirs, each direction's name in output and impair
# ("NAME I ab|ba"): a>b and b>a of a dumbbell's one link, a>b:I and b>a:I
# of a chain's link I.
topo_dirs() {
	awk -v m="$1" '{
	    if (m == "pairs") { print "a>b", $1, "ab"; print "b>a", $1, "ba" }
	    else { print "a>b:" $1, $1, "ab"; print "b>a:" $1, $1, "ba" } }' "$STATE/links" >"$STATE/dirs"
}

# cmd_link I [rate R[/R]] [delay D[/D]] [jitter J] [queue SIZE]: change one
# link of a --hops (or --pairs: link 0) testbed; what is not given is kept.
cmd_link() {
	[ "$#" -ge 3 ] || bad_usage
	need_root
	_li=$1
	shift
	case $(topo_mode) in
	pairs* | hops*) ;;
	*) die "link: the testbed is not up with --pairs or --hops (a topology file's links: impair A>B delay D)" ;;
	esac
	tlink_ends "$_li" || die "link: no link '$_li' (links: $(awk '{ printf "%s ", $1 }' "$STATE/links"))"
	_mtu=$(ip -n "$LK_LNS" -o link show dev "$LK_LDEV" | sed 's/.* mtu \([0-9]*\).*/\1/')
	_rab=$(dev_rate "$LK_LNS" "$LK_LDEV") _rba=$(dev_rate "$LK_RNS" "$LK_RDEV")
	_qab=$(dev_queue "$LK_LNS" "$LK_LDEV") _qba=$(dev_queue "$LK_RNS" "$LK_RDEV")
	read -r _dab _jab _ro _ _ _ _ek <"$STATE/$_li.ab.conf" 2>/dev/null || true
	read -r _dba _jba _ <"$STATE/$_li.ba.conf" 2>/dev/null || true
	_ek=$(awk '{ print $6 + 0 }' "$STATE/$_li.ab.conf" 2>/dev/null)
	while [ "$#" -ge 2 ]; do
		case $1 in
		rate) _rr=$(parse_pair "$2" parse_rate) || exit 1; _rab=${_rr% *} _rba=${_rr#* } ;;
		delay) _rr=$(parse_pair "$2" parse_delay) || exit 1; _dab=${_rr% *} _dba=${_rr#* } ;;
		jitter) _rr=$(parse_pair "$2" parse_delay) || exit 1; _jab=${_rr% *} _jba=${_rr#* } ;;
		queue) _qab=$(parse_queue "$2" "$_mtu") || exit 1; _qba=$_qab ;;
		*) die "link: unknown setting '$1' (rate, delay, jitter or queue)" ;;
		esac
		shift 2
	done
	[ "$#" -eq 0 ] || bad_usage
	if [ -z "$_rab" ] || [ -z "$_rba" ] || [ -z "$_dab" ] || [ -z "$_dba" ]; then
		die "link: link $_li has no settings to keep (run: $PROG up ...)"
	fi
	tlink_set "$_li" "$_rab" "$_rba" "$_qab" "$_qba" "$_dab" "$_dba" "${_jab:-0}" "${_jba:-0}" "${_ro:-no}" "${_ek:-0}"
	echo "$PROG: link $_li: $(human_rate "$_rab") a>b, $(human_rate "$_rba") b>a, queue $_qab bytes, delay $(human_delay "$_dab") a>b, $(human_delay "$_dba") b>a"
}

# topo_status: every namespace's devices, then each direction's shaper
# and delay line; fails when a delay line died.
topo_status() {
	for _ns in $(topo_ns_all); do
		echo "$_ns:"
		for _dev in $(ip -n "$_ns" -o link show | awk -F': ' '$2 != "lo" { sub(/@.*/, "", $2); print $2 }'); do
			status_dev "$_ns" "$_dev"
		done
	done
	_dead=
	while read -r _tn _ti _td <&3; do
		dir_link "$_ti" "$_td" "$_tn"
		_tr=$(dev_rate "$BN_NS" "$BN_DEV")
		if [ -n "$_tr" ]; then
			echo "$_tn: rate $_tr bit/s, queue $(dev_queue "$BN_NS" "$BN_DEV") bytes ($BN_NS $BN_DEV)"
		else
			echo "$_tn: not shaped ($BN_NS $BN_DEV)"
		fi
		if [ ! -r "$STATE/$DKEY.conf" ]; then
			echo "$_tn: no delay line"
			continue
		fi
		read -r _dly _jit _ _ _tq _ek <"$STATE/$DKEY.conf"
		dl_ends "$DKEY"
		[ "${_ek:-0}" = 0 ] || echo "$_tn: the delay line is the bottleneck: queue $_tq bytes, ECN CE above $_ek bytes"
		if [ "$_dly $_jit" = "0 0" ] && ! dl_pid "$DKEY" >/dev/null; then
			echo "$_tn: delay 0 (no delay line; $DL_NS forwards in the kernel)"
		elif _p=$(dl_pid "$DKEY"); then
			echo "$_tn: delay $(human_delay "$_dly"), jitter $(human_delay "$_jit") (gput-delay pid $_p in $DL_NS)"
		else
			echo "$_tn: delay $(human_delay "$_dly"): delay line NOT RUNNING"
			_dead="$_dead $_tn"
		fi
	done 3<"$STATE/dirs"
	if [ -n "$_dead" ]; then
		echo "$PROG: testbed is broken: the delay line of$_dead died (run: $PROG up ...)" >&2
		echo "testbed is down"
		return 1
	fi
	echo "testbed is up"
}

# topo_counters: per direction (its name from $STATE/dirs) the
# impairments', the shaper's queue-drop and the delay line's counters.
topo_counters() {
	_dead=
	while read -r _tn _ti _td <&3; do
		dir_link "$_ti" "$_td" "$_tn"
		for _k in loss dup reorder; do
			_ns=$BN_NS
			[ "$_k" != loss ] || _ns=$RCV_NS
			chain_exists "$_ns" "$DTAB" "$_k" || continue
			echo "$_tn $_k $(chain_packets "$_ns" "$DTAB" "$_k")"
		done
		if [ -n "$(dev_rate "$BN_NS" "$BN_DEV")" ] &&
		    ! ip -n "$BN_NS" -o link show dev "$BN_DEV" | grep -q 'in gput-delay'; then
			_qd=$(tbf_drops "$BN_NS" "$BN_DEV")
			echo "$_tn queue-drop ${_qd:-0}"
		fi
		[ -r "$STATE/$DKEY.pid" ] || continue
		dl_counters "$DKEY" "$_tn" || _dead="$_dead $_tn"
	done 3<"$STATE/dirs"
	if [ -n "$_dead" ]; then
		echo "$PROG: the delay line of$_dead is not running" >&2
		return 1
	fi
}
