#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# --ecn. On loopback: a UDP sender's datagrams arrive ECT(0), every one
# counted by the receiver's IP_RECVTOS / IPV6_RECVTCLASS, both ways, with
# --batch/--gso too; without --ecn nothing changes. In a private network
# namespace (root): nftables marks CE on a share of the data packets and
# counts them; the UDP receiver's CE count equals the rule's counter
# exactly, and TCP (net.ipv4.tcp_ecn = 1 there) negotiates ECN, the
# receiver's CE bytes (TCP_INFO, Linux 6.18) equal the marked packets'
# payload and the sender counts segments acknowledged with ECE. With
# tcp_ecn = 0 the one line saying ECN was not negotiated.
. "$(dirname "$0")/lib.sh"

command -v jq >/dev/null || { skip "ecn (needs jq)"; t_done; }

# ecn_of SIDE: the udp.ecn object of that side of the last --json run.
ecn_of() { jq -c --arg s "$1" '.sides[] | select(.side == $s) | .udp.ecn' "$OUT"; }
recv_of() { jq -r --arg s "$1" '.sides[] | select(.side == $s) | .udp.received' "$OUT"; }

start_daemon || { fail "daemon started"; t_done; }
for dir in -t -r; do
	rs=1; [ "$dir" = -r ] && rs=l
	run_t 30 "$GPUT" $dir -u --ecn --json -n 300 -l 1000 --rate 20M -w 1M \
		127.0.0.1 -p "$D_PORT"
	eq "UDP $dir --ecn: exit 0" "$RC" 0
	n=$(recv_of "$rs")
	eq "UDP $dir --ecn: every datagram ECT(0) at the receiver" "$(ecn_of "$rs")" \
		"{\"not_ect\":0,\"ect1\":0,\"ect0\":$n,\"ce\":0}"
	check "UDP $dir --ecn: datagrams arrived" test "${n:-0}" -gt 0
done
run_t 30 "$GPUT" -u --ecn --json -n 300 -l 1000 --rate 20M -w 1M --gso --batch 16 \
	127.0.0.1 -p "$D_PORT"
n=$(recv_of 1)
eq "UDP --ecn --gso --batch: ECT(0) counted per datagram" "$(ecn_of 1)" \
	"{\"not_ect\":0,\"ect1\":0,\"ect0\":$n,\"ce\":0}"
# IPv6: IPV6_TCLASS and IPV6_RECVTCLASS
if "$GPUT" -6 -u -n 1 -l 100 ::1 -p "$D_PORT" >/dev/null 2>&1; then
	run_t 30 "$GPUT" -6 -u --ecn --json -n 300 -l 1000 --rate 20M -w 1M ::1 \
		-p "$D_PORT"
	n=$(recv_of 1)
	eq "UDP -6 --ecn: ECT(0) in the Traffic Class" "$(ecn_of 1)" \
		"{\"not_ect\":0,\"ect1\":0,\"ect0\":$n,\"ce\":0}"
else
	skip "UDP -6 --ecn (no IPv6 on loopback)"
fi
# -v: the receiver's line
run_t 30 "$GPUT" -u --ecn -v -n 100 -l 1000 --rate 20M -w 1M 127.0.0.1 -p "$D_PORT"
check "UDP --ecn -v: the receiver's line" \
	grep -Eq '^1: ecn: [0-9]+ data datagrams ECT\(0\), 0 CE, 0 ECT\(1\), 0 not-ECT$' "$OUT"
# without --ecn: no ecn keys, no line
run_t 30 "$GPUT" -u --json -n 100 -l 1000 127.0.0.1 -p "$D_PORT"
eq "UDP without --ecn: no ecn key" "$(jq -c '[.sides[].udp.ecn]' "$OUT")" '[null,null]'
run_t 10 "$GPUT" --ecn -m 239.1.2.3 127.0.0.1 -p "$D_PORT"
eq "--ecn -m: usage error" "$RC" 2

# ---- CE marks in a namespace of our own -------------------------------
if [ "$(id -u)" -ne 0 ] || ! command -v nft >/dev/null || ! command -v ip >/dev/null; then
	skip "ecn CE marks (needs root, ip and nft)"; t_done
fi
NS=gput-e$$
NSX=(ip netns exec "$NS")
ns_cleanup() { t_cleanup; ip netns pids "$NS" 2>/dev/null | xargs -r kill; ip netns del "$NS" 2>/dev/null; }
trap ns_cleanup EXIT
ip netns add "$NS" && ip -n "$NS" link set lo up || { fail "create namespace $NS"; t_done; }
"${NSX[@]}" nft add table inet e && "${NSX[@]}" nft add chain inet e out \
	'{ type filter hook output priority 0; }' || { fail "nft table in $NS"; t_done; }

# mark RULE...: one rule that sets CE on what it matches and counts it;
# marked: its counter's packets and bytes.
mark() {
	"${NSX[@]}" nft flush chain inet e out &&
	"${NSX[@]}" nft add rule inet e out "$@" ip ecn set ce counter
}
marked() { "${NSX[@]}" nft list chain inet e out | sed -n 's/.*counter packets \([0-9]*\) bytes \([0-9]*\).*/\1 \2/p'; }

D_WRAP=("${NSX[@]}")
start_daemon || { fail "daemon in $NS"; t_done; }

# UDP: every 7th data datagram (udp length 1008) marked
for dir in -t -r; do
	rs=1; [ "$dir" = -r ] && rs=l
	mark udp length 1008 numgen inc mod 7 == 0 || { fail "nft rule"; t_done; }
	run_t 30 "${NSX[@]}" "$GPUT" $dir -u --ecn --json -n 2000 -l 1000 --rate 20M \
		-w 1M 127.0.0.1 -p "$D_PORT"
	eq "UDP $dir CE: exit 0" "$RC" 0
	eq "UDP $dir CE: nothing lost (else marks could be lost too)" \
		"$(jq -r --arg s "$rs" '.sides[] | select(.side == $s) | .udp.lost' "$OUT")" 0
	read -r pk _ <<<"$(marked)"
	n=$(recv_of "$rs")
	eq "UDP $dir CE: the receiver counts the marker's $pk marks exactly" "$(ecn_of "$rs")" \
		"{\"not_ect\":0,\"ect1\":0,\"ect0\":$((n - pk)),\"ce\":$pk}"
	check "UDP $dir CE: the rule marked some" test "${pk:-0}" -gt 0
done

# TCP: ECN negotiated with tcp_ecn = 1; data packets (longer than 1000
# bytes) to or from the partner's data port marked, one in 5
"${NSX[@]}" sysctl -qw net.ipv4.tcp_ecn=1 || { fail "sysctl tcp_ecn in $NS"; t_done; }
for dir in -t -r; do
	rs=1 ss=l; [ "$dir" = -r ] && rs=l ss=1
	mark meta l4proto tcp tcp sport != "$D_PORT" tcp dport != "$D_PORT" \
		meta length gt 1000 numgen inc mod 5 == 0 || { fail "nft rule"; t_done; }
	run_t 30 "${NSX[@]}" "$GPUT" $dir --ecn --json -n 400 -l 10000 -w 256 \
		127.0.0.1 -p "$D_PORT"
	eq "TCP $dir --ecn: exit 0" "$RC" 0
	eq "TCP $dir --ecn: no line on stderr" "$(cat "$ERR")" ""
	read -r pk by <<<"$(marked)"
	ti() { jq -r --arg s "$1" ".sides[] | select(.side == \$s) | .tcp_info.ecn.$2" "$OUT"; }
	eq "TCP $dir: negotiated at both ends" "$(ti l negotiated) $(ti 1 negotiated)" "true true"
	if [ "$(ti "$rs" received_ce_bytes)" = null ]; then
		skip "TCP $dir: received CE (this kernel does not count it: Linux 6.18)"
	else
		# every marked packet: 20 bytes of IP, 32 of TCP with timestamps
		eq "TCP $dir: the receiver's CE bytes are the $pk marked packets' payload" \
			"$(ti "$rs" received_ce_bytes)" "$((by - 52 * pk))"
		check "TCP $dir: CE-marked segments received" test "$(ti "$rs" received_ce)" -ge "$pk"
	fi
	check "TCP $dir: the sender counts segments acknowledged with ECE" \
		test "$(ti "$ss" delivered_ce)" -gt 0
	check "TCP $dir: the rule marked some" test "${pk:-0}" -gt 0
done

# tcp_ecn = 0 on the connecting side: one line, the run goes on
"${NSX[@]}" sysctl -qw net.ipv4.tcp_ecn=0
run_t 30 "${NSX[@]}" "$GPUT" --ecn -v -n 100 -l 1000 127.0.0.1 -p "$D_PORT"
eq "TCP tcp_ecn=0: exit 0" "$RC" 0
eq "TCP tcp_ecn=0: the line" "$(grep -- '--ecn' "$ERR")" \
	"gput: --ecn: the TCP data connection did not negotiate ECN (net.ipv4.tcp_ecn is 0 here: 1 asks for it on connections this host opens, as does a route with 'features ecn'; the partner's must be 1 or 2): measuring without"
eq "TCP tcp_ecn=0: -v says so" "$(grep '^l: ecn' "$OUT")" "l: ecn not negotiated"
t_done
