#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# gput-testbed-impair.sh: the impairments of tools/gput-testbed
# (impair DIR loss|dup|reorder|delay|clear), sourced by it (not run on its
# own): nftables chains at the receiver's ingress and the bottleneck's
# egress, and the reorder lane in the bottleneck's tbf.

# dir_ends DIR: set, for that direction, the namespace and device of the
# receiver (RCV_NS RCV_DEV: where loss drops), of the bottleneck shaper
# (BN_NS BN_DEV: where dup copies and reorder steers, in front of its queue),
# the direction's name in output (DNAME), its nftables table's suffix (DTAB:
# table netdev gput_DTAB) and its delay line's key (DKEY). DIR is ab or ba,
# or with --pairs, --hops and --topology a name in $STATE/dirs (a>b, a>b:1,
# h1>r1).
dir_ends() {
	if [ -n "$(topo_mode)" ]; then
		_dnl=$(awk -v n="$1" '$1 == n { print $2, $3; exit }' "$STATE/dirs")
		[ -n "$_dnl" ] || die "bad DIR '$1': use one of $(awk '{ printf "%s ", $1 }' "$STATE/dirs")"
		dir_link "${_dnl% *}" "${_dnl#* }" "$1"
		return
	fi
	DTAB=$1 DKEY=$1
	if [ "$1" = ab ]; then
		RCV_NS=$NS_B RCV_DEV=$DEV_B DNAME='a>b'
		if router_mode; then BN_NS=$NS_R BN_DEV=$DEV_RB; else BN_NS=$NS_A BN_DEV=$DEV_A; fi
	else
		RCV_NS=$NS_A RCV_DEV=$DEV_A DNAME='b>a'
		if router_mode; then BN_NS=$NS_R BN_DEV=$DEV_RA; else BN_NS=$NS_B BN_DEV=$DEV_B; fi
	fi
}

# dir_link I ab|ba NAME: dir_ends' variables for a direction of link I
# (--pairs, --hops, --topology): it leaves the link's left end (ab) or
# its right end (ba), where its shaper is.
dir_link() {
	tlink_ends "$1" || die "no link $1"
	if [ "$2" = ab ]; then
		BN_NS=$LK_LNS BN_DEV=$LK_LDEV RCV_NS=$LK_RNS RCV_DEV=$LK_RDEV
	else
		BN_NS=$LK_RNS BN_DEV=$LK_RDEV RCV_NS=$LK_LNS RCV_DEV=$LK_LDEV
	fi
	DNAME=$3 DTAB=$1$2 DKEY=$1.$2
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
	_dn=$1
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
		_thr=0
		[ "$_pct" = off ] || _thr=$(parse_pct "$_pct")
		_m=$(match_expr "$@") || exit 1
		;;
	*) die "impair: unknown impairment '$_kind' (loss, dup, reorder, delay or clear)" ;;
	esac
	need_root
	need_tools ip tc nft
	need_up
	case $(topo_mode) in
	'') _dn=$(parse_dir "$_dn") ;;
	pairs*) _dn=$(parse_dir "$_dn"); [ "$_dn" = ab ] && _dn='a>b' || _dn='b>a' ;;
	esac
	dir_ends "$_dn"
	case $_kind in
	delay) impair_delay ;;
	clear)
		impair_do loss off 0 "$MATCH_UDP" >/dev/null
		impair_do dup off 0 "$MATCH_UDP" >/dev/null
		impair_do reorder off 0 "$MATCH_UDP" >/dev/null
		egress_frames "$BN_NS" "$BN_DEV" off
		echo "$PROG: $DNAME: no impairments"
		;;
	*) impair_do "$_kind" "$_pct" "$_thr" "$_m" ;;
	esac
}

# impair_delay: set the direction's delay line (_dly, _jit, _ro), keeping
# its rate, queue and ECN marking
impair_delay() {
	[ -r "$STATE/$DKEY.conf" ] ||
		die "$DNAME has no delay line: bring the testbed up with --delay (--delay 0 is allowed; in a topology file: delay 0)"
	_rqe=$(awk '{ print $4 + 0, $5 + 0, $6 + 0 }' "$STATE/$DKEY.conf")
	# shellcheck disable=SC2086 # split rate, queue, ecn
	dl_set "$DKEY" "$_dly" "$_jit" "$_ro" $_rqe
	graph_note "${DKEY%.*}" "${DKEY#*.}" delay "$_dly"
	graph_note "${DKEY%.*}" "${DKEY#*.}" jitter "$_jit"
	echo "$PROG: $DNAME: delay $(human_delay "$_dly"), jitter $(human_delay "$_jit")$([ "$_ro" != yes ] || echo ', may reorder')"
}

# impair_do KIND PCT|off THR MATCH: set (or with off remove) one
# impairment of the direction dir_ends chose
impair_do() {
	[ "$DKEY" = ab ] || [ "$DKEY" = ba ] || graph_note "${DKEY%.*}" "${DKEY#*.}" "$1" "$3"
	if [ "$2" = off ]; then
		case $1 in
		loss) chain_del "$RCV_NS" "$DTAB" loss ;;
		dup) chain_del "$BN_NS" "$DTAB" dup ;;
		reorder) chain_del "$BN_NS" "$DTAB" reorder; lane_off ;;
		esac
		echo "$PROG: $DNAME: $1 off"
		return
	fi
	_rnd="numgen random mod 10000 < $3 counter"
	# 100%: every matching frame (nft takes no bound above 9999 here)
	[ "$3" -lt 10000 ] || _rnd=counter
	case $1 in
	loss)
		chain_set "$RCV_NS" "$DTAB" loss ingress "$RCV_DEV" 0 "$4 $_rnd drop" ||
			die "nft refused the rule (MATCH '$4')"
		_where="$RCV_NS $RCV_DEV ingress"
		;;
	dup)
		egress_frames "$BN_NS" "$BN_DEV" on
		# the copy passes the egress hook again: marked, it is not copied
		# again (a copy of a copy, or one lost to nft's recursion limit)
		chain_set "$BN_NS" "$DTAB" dup egress "$BN_DEV" 0 \
			"$4 meta mark != $DUP_MARK $_rnd meta mark set $DUP_MARK dup to \"$BN_DEV\"" ||
			die "nft refused the rule (MATCH '$4')"
		_where="$BN_NS $BN_DEV egress"
		;;
	reorder)
		if ip -n "$BN_NS" -o link show dev "$BN_DEV" | grep -q 'in gput-delay'; then
			die "impair reorder: with --ecn the bottleneck is the delay line, which has no lane to steer into"
		fi
		egress_frames "$BN_NS" "$BN_DEV" on
		lane_on
		chain_set "$BN_NS" "$DTAB" reorder egress "$BN_DEV" 10 "$4 $_rnd meta priority set 10:2" ||
			die "nft refused the rule (MATCH '$4')"
		_where="$BN_NS $BN_DEV egress, lane 10:2 of its tbf"
		;;
	esac
	echo "$PROG: $DNAME: $1 $2% of '$4' ($_where)"
}
