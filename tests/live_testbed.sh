#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# tools/gput-testbed's impairments and topologies, checked against counts that
# do not come from the testbed: gput's own arrival line and nftables counters
# this test puts on the hosts' and the router's interfaces. In a testbed of
# its own (prefix gput-tb$$), always taken down. Needs root and nft; skipped
# otherwise. About 15 s.
#
#   loss 5% a>b:    gput's "received X of N" == N - the loss counter
#   dup 5% a>b:     UDP data frames reaching b == N + the dup counter
#   reorder 10% a>b (tcp): frames steered > 0, b's kernel saw segments out
#                   of order (TcpExtTCPOFOQueue grew), the transfer is whole;
#                   clear puts the plain queue back
#   up 21M/54M:     each direction's shaper at its rate (tc), TCP each way
#                   within 5% of eta*C of that direction
#   up 10M --router, UDP at 2x the link: the router's queue-drop counter ==
#                   N - received + end markers and other frames dropped
#                   there (counted going into r's queue and arriving at b)
#   down:           nothing left
# shellcheck disable=SC2317 # functions called through traps
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

ADDR_B=198.18.0.2
N=2000          # datagrams per UDP run
L=1000          # their length: 1042-byte frames, UDP length 1008 (matched)
G=200           # us between them: 42 Mbit/s, under the 100M link

tb_init "testbed impairments" tb ip tc ethtool nft -- "$GPUT"

# count_on HOST HOOK DEV: this test's own counters on DEV of HOST, after
# (ingress) or before (egress) the testbed's rules, of IPv4 packets from a:
# UDP data frames (UDP length > 100), short UDP (gput's end markers), the
# rest (the control connection). Not the namespaces' own IPv6 chatter.
# A new table each time, so they start at 0.
count_on() {
	"$TESTBED" exec "$1" nft delete table netdev gput_test 2>/dev/null
	"$TESTBED" exec "$1" nft -f - <<EOF
table netdev gput_test {
	chain c {
		type filter hook $2 device "$3" priority $([ "$2" = ingress ] && echo 100 || echo -100);
		ip saddr 198.18.0.1 udp length > 100 counter
		ip saddr 198.18.0.1 udp length <= 100 counter
		ip saddr 198.18.0.1 meta l4proto != udp counter
	}
}
EOF
}

# counts HOST: "DATA SHORT OTHER" from count_on's table.
counts() {
	"$TESTBED" exec "$1" nft list table netdev gput_test |
	    awk '{ for (i = 1; i < NF; i++) if ($i == "packets") s = s (s == "" ? "" : " ") $(i + 1) }
		 END { print s }'
}

# udp_a2b N GAP: gput -u from a to b; sets RECV from "1: received X of N".
udp_a2b() {
	run_t 30 "$TESTBED" exec a "$GPUT" -u -n "$1" -l "$L" -g "$2" -p "$D_PORT" "$ADDR_B"
	RECV=$(sed -n 's/^1: received \([0-9]*\) of .*/\1/p' "$OUT")
	[ -n "$RECV" ] || { echo "gput exited $RC:"; cat "$OUT" "$ERR"; }
}

# ofo: segments b's TCP put in its out-of-order queue so far.
ofo() {
	# shellcheck disable=SC2016 # awk's own $
	"$TESTBED" exec b awk '$1 == "TcpExt:" {
		if (!h) { for (i = 2; i <= NF; i++) n[i] = $i; h = 1; next }
		for (i = 2; i <= NF; i++) if (n[i] == "TCPOFOQueue") print $i }' /proc/net/netstat
}

# --- the commands refuse what they cannot do
tb up 100M
for bad in "xy loss 1" "ab loss 100.5" "ab loss 1.234" "ab loss -1" "ab jitter 1" "ab loss"; do
	# shellcheck disable=SC2086 # split the arguments
	"$TESTBED" impair $bad >/dev/null 2>&1
	rc=$?
	check "impair $bad is refused (exit $rc)" [ "$rc" -ne 0 ]
done
# MATCH reaches an nft -f script: each injection (a ';' that starts a new
# command, '#' that comments out the drop, include, a statement word) is
# refused in one line, exit 1, nothing built. The
# attack is real: nft itself accepts the script each would have made.
for inj in "udp dport 1; add table netdev gput_inj #" "udp dport 1 #" \
    "udp dport 1; include \"$T_TMP/inc.nft\" #" "meta l4proto udp log"; do
	{
		echo "add table netdev gput_ab"
		echo "add chain netdev gput_ab loss { type filter hook ingress device \"lo\" priority 0; policy accept; }"
		echo "add rule netdev gput_ab loss $inj numgen random mod 10000 < 500 counter drop"
	} >"$T_TMP/inj.nft"
	printf 'add table netdev gput_inc\n' >"$T_TMP/inc.nft"
	check "MATCH '$inj': nft takes the script it would make (the attack is real)" \
		"$TESTBED" exec b nft -c -f "$T_TMP/inj.nft"
	"$TESTBED" impair ab loss 5 $inj >"$T_TMP/inj.out" 2>&1
	rc=$?
	eq "impair ab loss 5 '$inj': exit 1, one line" "$rc $(wc -l <"$T_TMP/inj.out")" "1 1"
	check "... says which word" grep -q "^gput-testbed: impair: \(bad MATCH word\|MATCH word '.*' is not allowed\)" "$T_TMP/inj.out"
	eq "... nothing built in b" "$("$TESTBED" exec b nft list tables | grep -c 'gput_\(ab\|inj\|inc\)')" 0
done
tb impair ab loss 5 udp dport 9 ip daddr 198.18.0.2
eq "a MATCH of names, numbers and an address is taken" \
	"$(sed -n 's/.*: \(a>b: loss 5% of .*\) (.*/\1/p' "$T_TMP/tb.log")" "a>b: loss 5% of 'udp dport 9 ip daddr 198.18.0.2'"
tb impair ab clear

tb_daemon

# --- loss: every frame the rule dropped is one datagram gput missed
tb impair 'a>b' loss 5
udp_a2b "$N" "$G"
LOSS=$(counter 'a>b' loss)
eq "loss 5%: gput exit" "$RC" 0
check "loss 5%: the counter counted some (${LOSS:-none} of $N)" [ "${LOSS:-0}" -gt 0 ]
eq "loss 5%: received == $N - loss counter ($LOSS)" "$RECV" "$(( N - ${LOSS:-0} ))"
eq "loss 5%: a>b queue-drop" "$(counter 'a>b' queue-drop)" 0
eq "loss 5%: gput's lost == the drop counter" \
	"$(sed -n 's/^1: received [0-9]* of [0-9]* datagrams, \([0-9]*\) lost.*/\1/p' "$OUT")" "${LOSS:-0}"

# --- dup: b's interface sees the originals and exactly the counted copies
tb impair ab clear
eq "clear: a>b has no impairment lines" "$("$TESTBED" counters | grep -c '^a>b \(loss\|dup\|reorder\) ')" 0
tb impair ab dup 5
count_on b ingress veth-b
udp_a2b "$N" "$G"
DUP=$(counter 'a>b' dup)
check "dup 5%: the counter counted some (${DUP:-none} of $N)" [ "${DUP:-0}" -gt 0 ]
want=$(( N + ${DUP:-0} ))
# the receiver may stop at N arrivals (it cannot tell a copy); frames still
# on the wire then arrive within microseconds: poll with a deadline
data_at_b() { [ "$(counts b | cut -d' ' -f1)" = "$want" ]; }
wait_until 3 data_at_b
eq "dup 5%: UDP data frames at b == $N + dup counter ($DUP)" "$(counts b | cut -d' ' -f1)" "$want"
# gput's sequence numbers tell every copy: its duplicates are the counter's,
# and a copy is not goodput
eq "dup 5%: gput's duplicates == the dup counter" \
	"$(sed -n 's/^1: .*; \([0-9]*\) duplicates\{0,1\}\(;.*\)\{0,1\}$/\1/p' "$OUT")" "${DUP:-0}"
eq "dup 5%: received $N of $N, Bytes count each once" "$RECV $(field 1 2)" "$N $(( N * L ))"

# --- reorder, UDP: a sender faster than the link queues in its own shaper,
# and the steered datagrams overtake the queue; gput and gput-pcap (from a
# capture at b) agree on every count
tb impair ab clear
tb impair ab reorder 10 udp
if command -v tcpdump >/dev/null && [ -x "$GPUT_PCAP" ] && command -v jq >/dev/null; then
	# the capture must hold every UDP frame from a that reached b, as this
	# test's own counters at b's ingress count them (data and short)
	count_on b ingress veth-b
	CAP_WRAP=("$TESTBED" exec b)
	cap_start ro veth-b "udp and src host 198.18.0.1" || fail "tcpdump in b"
	run_t 60 "$TESTBED" exec a "$GPUT" --json -u -n 2000 -l "$L" -p "$D_PORT" "$ADDR_B" -w 4096
	cp "$OUT" "$T_TMP/ro.json"
	read -r _data _short _ <<-EOS
	$(counts b)
	EOS
	[ -n "$CAP" ] && cap_stop "$((_data + _short))"
	STEER=$(counter 'a>b' reorder)
	check "reorder 10% udp: frames steered (${STEER:-none})" [ "${STEER:-0}" -gt 0 ]
	check "reorder 10% udp: gput saw reordered datagrams" eval \
		"jq -e '.sides[1].udp.reordered > 0' \"$T_TMP/ro.json\" >/dev/null"
	run_t 20 "$GPUT_PCAP" --json "$CAP"
	for k in received unique duplicates; do
		eq "reorder 10% udp: gput-pcap's $k == gput's" \
			"$(jq -r "[.flows[] | select(.gput_udp != null)][0].gput_udp.$k" "$OUT")" \
			"$(jq -r ".sides[1].udp.$k" "$T_TMP/ro.json")"
	done
	# order is another matter: two frames that softirqs on the two CPUs
	# handle at once can reach the capture and the socket in either order,
	# so the counts that depend on order agree within 1%, not to the frame
	for k in reordered max_displacement; do
		_pc=$(jq -r "[.flows[] | select(.gput_udp != null)][0].gput_udp.$k" "$OUT")
		_gp=$(jq -r ".sides[1].udp.$k" "$T_TMP/ro.json")
		check "reorder 10% udp: gput-pcap's $k ($_pc) within 1% of gput's ($_gp)" \
			awk -v a="$_pc" -v b="$_gp" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(b > 0 && d <= b / 100 + 0.5) }'
	done
else
	skip "reorder udp with gput-pcap (needs tcpdump, gput-pcap and jq)"
fi

# --- reorder: steered frames overtake the queue; b's TCP sees them early
tb impair ab clear
tb impair ab reorder 10 tcp
ofo0=$(ofo)
run_t 30 "$TESTBED" exec a "$GPUT" -n 3000 -l 1448 -p "$D_PORT" "$ADDR_B"
ofo1=$(ofo)
STEER=$(counter 'a>b' reorder)
eq "reorder 10% tcp: gput exit" "$RC" 0
eq "reorder 10% tcp: the receiver got every byte" "$(field 1 2)" 4344000
check "reorder 10% tcp: frames steered (${STEER:-none})" [ "${STEER:-0}" -gt 0 ]
check "reorder 10% tcp: b's TCP queued segments out of order ($ofo0 -> $ofo1)" \
	[ "${ofo1:-0}" -gt "${ofo0:-0}" ]
tb impair ab clear
check "clear: a's shaper has its plain queue again" \
	sh -c "! '$TESTBED' exec a tc qdisc show dev veth-a | grep -q htb"

# --- asymmetric rates: each direction shaped at its own rate
tb up 21M/54M
check "up 21M/54M: a's egress (a>b) shaped at 21Mbit" \
	sh -c "'$TESTBED' exec a tc qdisc show dev veth-a | grep -q 'tbf 1: root .*rate 21Mbit'"
check "up 21M/54M: b's egress (b>a) shaped at 54Mbit" \
	sh -c "'$TESTBED' exec b tc qdisc show dev veth-b | grep -q 'tbf 1: root .*rate 54Mbit'"
# TCP each way: the receiver's Real-MBit/s within 5% of eta*C
for case in "a>b 21M -t 1 1500" "b>a 54M -r l 4000"; do
	# shellcheck disable=SC2086 # split the tuple
	set -- $case
	x=$("$GPUT" --predict -l 1448 --link "$2" | awk '$1 == "expected" { print $2 }')
	run_t 30 "$TESTBED" exec a "$GPUT" "$3" -n "$5" -l 1448 -p "$D_PORT" "$ADDR_B"
	m=$(field "$4" 5)
	[ -n "$m" ] || { echo "# gput exit $RC:"; sed 's/^/# /' "$OUT" "$ERR"; }
	check "up 21M/54M: TCP $1 receiver ${m:-none} within 5% of eta*C ${x:-none} MBit/s" \
		awk -v m="$m" -v x="$x" 'BEGIN { exit !(m != "" && x != "" && m >= 0.95 * x && m <= 1.05 * x) }'
done

# --- router: a sender at twice the link rate loses datagrams in r's queue
tb up 10M --router
tb_daemon                       # the change of topology ended the first one
count_on r egress veth-rb       # what enters r's queue toward b
count_on b ingress veth-b       # what leaves it
# 1042-byte frames cost 1066 byte-times, 853 us at 10M: one every 426 us
udp_a2b 1000 426
# r's books: what entered its queue toward b either reached b or was dropped
# there. A control-connection segment may still be on its way to b when
# gput returns: poll until they balance, with a deadline.
books() {
	QD=$(counter 'a>b' queue-drop)
	read -r din mkin oin <<<"$(counts r)"
	read -r dout mkout oout <<<"$(counts b)"
	[ "$(( din + mkin + oin - dout - mkout - oout ))" = "${QD:-x}" ]
}
# (judged when they balance, not by a second look that may catch the next
# segment on its way)
if wait_until 3 books; then
	pass "router: r's books balance (entered - reached b == queue-drop $QD)"
else
	fail "router: r's books balance (entered - reached b == queue-drop ${QD:-?})"
fi
echo "router: entered r's queue $din data, $mkin markers, $oin other;" \
	"reached b $dout, $mkout, $oout; queue-drop $QD; gput received $RECV of 1000"
lost=$(( 1000 - ${RECV:-0} ))
check "router: datagrams were lost in r's queue ($lost of 1000)" [ "$lost" -gt 0 ]
eq "router: every datagram reached r's queue" "$din" 1000
eq "router: lost (1000 - received) == data frames that entered r's queue and never left" \
	"$lost" "$(( din - dout ))"
eq "router: lost == queue-drop $QD - markers dropped $(( mkin - mkout )) - other dropped $(( oin - oout ))" \
	"$lost" "$(( QD - (mkin - mkout) - (oin - oout) ))"
eq "router: b>a queue-drop" "$(counter 'b>a' queue-drop)" 0

# --- down leaves nothing
tb down
"$TESTBED" status >/dev/null 2>&1
eq "down: status says it is down (exit)" "$?" 1
eq "down: no namespace of ours left" "$(ip netns list | grep -c "^$GPUT_TESTBED_PREFIX-")" 0
t_done
