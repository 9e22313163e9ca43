#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# gput-testbed-impair.sh: the impairments of tools/gput-testbed
# (impair DIR loss|dup|reorder|delay|clear), sourced by it (not run on its
# own): nftables chains at the receiver's ingress and the bottleneck's
# egress, and the reorder lane in the bottleneck's tbf.

# dir_ends ab|ba: set, for that direction, the namespace and device of the
# receiver (RCV_NS RCV_DEV: where loss drops), of the bottleneck shaper
# (BN_NS BN_DEV: where dup copies and reorder steers, in front of its queue),
# and the direction's name in output (DNAME).
dir_ends() {
	if [ "$1" = ab ]; then
		RCV_NS=$NS_B RCV_DEV=$DEV_B DNAME='a>b'
		if router_mode; then BN_NS=$NS_R BN_DEV=$DEV_RB; else BN_NS=$NS_A BN_DEV=$DEV_A; fi
	else
		RCV_NS=$NS_A RCV_DEV=$DEV_A DNAME='b>a'
		if router_mode; then BN_NS=$NS_R BN_DEV=$DEV_RA; else BN_NS=$NS_B BN_DEV=$DEV_B; fi
	fi
}

parse_dir() {
	case $1 in
	'a>b' | ab | a-b | a2b) echo ab ;;
	'b>a' | ba | b-a | b2a) echo ba ;;
	*) die "bad DIR '$1': use a>b (or ab) or b>a (or ba)" ;;
	esac
}

# The impairments of direction D live in the nftables table "netdev gput_D"
# of the namespace concerned, one base chain per kind (loss, dups, reorder:
# "dup" is an nft keyword), each holding one rule with a counter.
chain_exists() {
	ip netns exec "$1" nft list chain netdev "gput_$2" "$(chain_of "$3")" >/dev/null 2>&1
}

chain_of() { if [ "$1" = dup ]; then echo dups; else echo "$1"; fi; }

# chain_packets NS D KIND: the packets counted by that chain's rule.
chain_packets() {
	ip netns exec "$1" nft list chain netdev "gput_$2" "$(chain_of "$3")" 2>/dev/null | awk '
	    { for (i = 1; i < NF; i++) if ($i == "packets") { print $(i + 1); exit } }'
}

# chain_set NS D KIND HOOK DEV PRIO RULE: (re)create the chain with RULE,
# atomically; its counter starts at 0.
chain_set() {
	set -- "$1" "$2" "$(chain_of "$3")" "$4" "$5" "$6" "$7"
	ip netns exec "$1" nft -f - <<EOF
add table netdev gput_$2
add chain netdev gput_$2 $3 { type filter hook $4 device "$5" priority $6; policy accept; }
flush chain netdev gput_$2 $3
add rule netdev gput_$2 $3 $7
EOF
}

# chain_del NS D KIND: remove the chain; the table too once it is empty.
chain_del() {
	chain_exists "$1" "$2" "$3" || return 0
	ip netns exec "$1" nft delete chain netdev "gput_$2" "$(chain_of "$3")"
	if ! ip netns exec "$1" nft list table netdev "gput_$2" | grep -q '^[[:space:]]*chain '; then
		ip netns exec "$1" nft delete table netdev "gput_$2"
	fi
}

# lane_on / lane_off: the reorder lane in the bottleneck's tbf (BN_NS BN_DEV).
# tbf's queue becomes an htb (never the limit: 10 Gbit/s classes) with two
# classes, each with a byte fifo of the tbf's own limit: 10:1 for everything,
# 10:2 served first (prio 0), for frames nft gave priority 10:2. A frame in
# 10:2 leaves before every frame waiting in 10:1; tbf still sets the pace.
lane_on() {
	_rate=$(dev_rate "$BN_NS" "$BN_DEV")
	[ -n "$_rate" ] || die "$BN_NS/$BN_DEV has no shaper (run: $PROG up)"
	_limit=$(dev_queue "$BN_NS" "$BN_DEV")
	_q=$(( $(ip -n "$BN_NS" -o link show dev "$BN_DEV" | sed 's/.* mtu \([0-9]*\).*/\1/') + 14 ))
	# htb cannot be changed in place: make it only when it is not there
	tc -n "$BN_NS" qdisc show dev "$BN_DEV" parent 1:1 | grep -q '^qdisc htb 10:' ||
		tc -n "$BN_NS" qdisc replace dev "$BN_DEV" parent 1:1 handle 10: htb default 1
	tc -n "$BN_NS" class replace dev "$BN_DEV" parent 10: classid 10:1 htb rate 10gbit quantum "$_q" prio 1
	tc -n "$BN_NS" class replace dev "$BN_DEV" parent 10: classid 10:2 htb rate 10gbit quantum "$_q" prio 0
	tc -n "$BN_NS" qdisc replace dev "$BN_DEV" parent 10:1 handle 11: bfifo limit "$_limit"
	tc -n "$BN_NS" qdisc replace dev "$BN_DEV" parent 10:2 handle 12: bfifo limit "$_limit"
}

lane_off() {
	_rate=$(dev_rate "$BN_NS" "$BN_DEV")
	[ -n "$_rate" ] || return 0
	tc -n "$BN_NS" qdisc replace dev "$BN_DEV" parent 1:1 bfifo limit "$(dev_queue "$BN_NS" "$BN_DEV")"
}

# match_expr WORD...: the nftables match for MATCH (see usage). MATCH is
# pasted into an nft -f script, so it must be a match and nothing else: each
# word a name, number, address or range ([A-Za-z0-9_.:/-], starting with a
# letter or digit) or a comparison (== != < > <= >=), and no word that ends
# the match or adds a statement (a verdict, counter, set, include...). A
# ';', '#', quote, brace or newline cannot pass: nothing else reaches nft.
match_expr() {
	case "$*" in
	'' | udp) echo "$MATCH_UDP"; return ;;
	tcp) echo "$MATCH_TCP"; return ;;
	esac
	for _w in "$@"; do
		case $_w in
		'==' | '!=' | '<' | '>' | '<=' | '>=') continue ;;
		'' | [!A-Za-z0-9]* | *[!A-Za-z0-9_.:/-]*)
			die "impair: bad MATCH word '$(printf '%s' "$_w" | tr -d '\000-\037')': an nftables match of names, numbers, addresses and == != < > <= >= only" ;;
		esac
		case $_w in
		include | define | redefine | undefine | set | add | delete | flush | \
		table | chain | rule | drop | accept | reject | queue | jump | goto | \
		return | continue | dup | fwd | log | limit | counter | quota | \
		notrack | masquerade | snat | dnat | redirect | tproxy | meter | \
		synproxy | update | vmap | map)
			die "impair: MATCH word '$_w' is not allowed: MATCH only selects packets" ;;
		esac
	done
	echo "$*"
}

cmd_impair() {
	[ "$#" -ge 2 ] || bad_usage
	_d=$(parse_dir "$1")
	_kind=$2
	shift 2
	case $_kind in
	clear) [ "$#" -eq 0 ] || bad_usage ;;
	delay)
		[ "$#" -ge 1 ] || bad_usage
		_dly=$(parse_delay "$1") || exit 1
		_jit=0 _ro=no
		shift
		if [ "$#" -ge 2 ] && [ "$1" = jitter ]; then
			_jit=$(parse_delay "$2") || exit 1
			shift 2
			[ "${1:-}" != reorder ] || { _ro=yes; shift; }
		fi
		[ "$#" -eq 0 ] || bad_usage
		;;
	loss | dup | reorder)
		[ "$#" -ge 1 ] || bad_usage
		_pct=$1
		shift
		[ "$_pct" = off ] || _thr=$(parse_pct "$_pct")
		_m=$(match_expr "$@") || exit 1
		;;
	*) die "impair: unknown impairment '$_kind' (loss, dup, reorder, delay or clear)" ;;
	esac
	need_root
	need_tools ip tc nft
	need_up
	[ -z "$(topo_mode)" ] || die "impair: not with --pairs or --hops (set a link's delay with: $PROG link I delay D)"
	dir_ends "$_d"
	if [ "$_kind" = delay ]; then
		wired || die "no delay line: bring the testbed up with --delay (--delay 0 is allowed)"
		_rqe="0 0 0"
		[ ! -r "$STATE/$_d.conf" ] || _rqe=$(awk '{ print $4 + 0, $5 + 0, $6 + 0 }' "$STATE/$_d.conf")
		# shellcheck disable=SC2086 # split rate, queue, ecn
		dl_set "$_d" "$_dly" "$_jit" "$_ro" $_rqe
		echo "$PROG: $DNAME: delay $(human_delay "$_dly"), jitter $(human_delay "$_jit")$([ "$_ro" != yes ] || echo ', may reorder')"
		return
	fi
	if [ "$_kind" = clear ]; then
		chain_del "$RCV_NS" "$_d" loss
		chain_del "$BN_NS" "$_d" dup
		chain_del "$BN_NS" "$_d" reorder
		lane_off
		egress_frames "$BN_NS" "$BN_DEV" off
		echo "$PROG: $DNAME: no impairments"
		return
	fi
	if [ "$_pct" = off ]; then
		case $_kind in
		loss) chain_del "$RCV_NS" "$_d" loss ;;
		dup) chain_del "$BN_NS" "$_d" dup ;;
		reorder) chain_del "$BN_NS" "$_d" reorder; lane_off ;;
		esac
		echo "$PROG: $DNAME: $_kind off"
		return
	fi
	_rnd="numgen random mod 10000 < $_thr counter"
	case $_kind in
	loss)
		chain_set "$RCV_NS" "$_d" loss ingress "$RCV_DEV" 0 "$_m $_rnd drop" ||
			die "nft refused the rule (MATCH '$_m')"
		_where="$RCV_NS $RCV_DEV ingress"
		;;
	dup)
		egress_frames "$BN_NS" "$BN_DEV" on
		# the copy passes the egress hook again: marked, it is not copied
		# again (a copy of a copy, or one lost to nft's recursion limit)
		chain_set "$BN_NS" "$_d" dup egress "$BN_DEV" 0 \
			"$_m meta mark != $DUP_MARK $_rnd meta mark set $DUP_MARK dup to \"$BN_DEV\"" ||
			die "nft refused the rule (MATCH '$_m')"
		_where="$BN_NS $BN_DEV egress"
		;;
	reorder)
		if ip -n "$BN_NS" -o link show dev "$BN_DEV" | grep -q 'in gput-delay'; then
			die "impair reorder: with --ecn the bottleneck is the delay line, which has no lane to steer into"
		fi
		egress_frames "$BN_NS" "$BN_DEV" on
		lane_on
		chain_set "$BN_NS" "$_d" reorder egress "$BN_DEV" 10 "$_m $_rnd meta priority set 10:2" ||
			die "nft refused the rule (MATCH '$_m')"
		_where="$BN_NS $BN_DEV egress, lane 10:2 of its tbf"
		;;
	esac
	echo "$PROG: $DNAME: $_kind $_pct% of '$_m' ($_where)"
}
