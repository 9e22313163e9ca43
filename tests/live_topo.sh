#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# tools/gput-testbed's lab topologies: a dumbbell of host pairs through one
# bottleneck (--pairs) and a chain of routers whose links each have their
# own rate, delay and queue (--hops, link I ...). Counts come from
# tests/ecnpeer (a UDP sender and a receiver counting what arrived, with its
# ECN field) and are checked exactly against the bottleneck's own counters.
# In a testbed of its own (prefix gput-tp$$), always taken down. Needs root;
# skipped otherwise. About 20 s.
#
#   --pairs 2 --delay 5: a2 reaches b2 (exec a2), RTT >= 10 ms; two senders
#       (a1>b1, a2>b2, 13.9 Mbit/s each) into the 10M bottleneck: both lose,
#       and received1 + received2 + the bottleneck's queue-drop == sent
#       a1 reaches rb's far address; impair a>b loss 100% of ICMP counts
#       exactly the 2 echo requests of a lost ping; every neighbour entry is
#       the static one; down leaves no namespace or delay line
#   --pairs 2 --ecn 30000: the same with ECT(0): CE at the two receivers
#       == the marker's ecn-mark, received + queue-drop == sent
#   --hops 2 --delay 2, link 1 rate 10M delay 10/5 queue 100p: RTT >= 23 ms;
#       link 1's queue exactly 151400 bytes in status; a sender over 10M
#       loses exactly link 1's queue-drop, links 0 and 2 drop nothing
#       every node reaches every address; impair a>b:1 loss 100% of ICMP
#       counts exactly 2; counters name every direction a>b:I / b>a:I with
#       its delay line (b>a:I were all named b>a:0, their lines dropped)
#   bad topologies are refused; down leaves nothing
# shellcheck disable=SC2317 # functions called through traps
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

tb_init "testbed topologies" tp ip tc ethtool nft ping -- tools/gput-delay tests/ecnpeer

# minrtt FROM TO: ping's minimum RTT after two pings that settle ARP
minrtt() {
	"$TESTBED" exec "$1" ping -c 2 -i 0.2 -q "$2" >/dev/null 2>&1
	"$TESTBED" exec "$1" ping -c 10 -i 0.05 -q "$2" 2>&1 |
	    sed -n 's|^rtt min/avg/max/mdev = \([0-9.]*\)/.*|\1|p'
}
ge() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a != "" && a + 0 >= b + 0) }'; }

# flows TOS FROM:TO...: one ecnpeer receiver per TO and sender per FROM, all
# at once, 2000 datagrams of 1000 bytes every 600 us each; sets RECV (sum
# received) and CE (sum of CE marks) over the receivers.
flows() {
	_tos=$1
	shift
	_k=0 _rps=
	for _p in "$@"; do
		"$TESTBED" exec "${_p#*:}" tests/ecnpeer recv 1000 >"$T_TMP/r$_k" 2>&1 &
		T_PIDS="$T_PIDS $!"
		_rps="$_rps $!"
		wait_for_line "$T_TMP/r$_k" '^port [0-9]+' 5 || { fail "ecnpeer recv in ${_p#*:}"; t_done; }
		_k=$((_k + 1))
	done
	_k=0 _sps=
	for _p in "$@"; do
		_to=$("$TESTBED" exec "${_p#*:}" ip -4 -o addr show dev veth-b | awk '{ print $4 }')
		timeout 30 "$TESTBED" exec "${_p%%:*}" tests/ecnpeer send "${_to%%/*}" \
			"$(sed -n 's/^port //p' "$T_TMP/r$_k")" 2000 1000 600 "$_tos" >/dev/null &
		_sps="$_sps $!"
		_k=$((_k + 1))
	done
	# shellcheck disable=SC2086 # lists of pids
	wait $_sps
	# shellcheck disable=SC2086
	wait $_rps
	RECV=0 CE=0
	for _f in "$T_TMP"/r[0-9]*; do
		read -r _ n _ _ _ _ _ _ _ c <<<"$(grep '^received ' "$_f")"
		RECV=$((RECV + ${n:-0})) CE=$((CE + ${c:-0}))
		rm -f "$_f"
	done
}

# --- refusals
for bad in "--pairs 9" "--pairs 0" "--hops 5" "--hops x" "--pairs 2 --hops 2" "--pairs 2 --router"; do
	# shellcheck disable=SC2086
	"$TESTBED" up 10M $bad >"$T_TMP/bad" 2>&1
	rc=$?
	check "up 10M $bad is refused (exit $rc: $(head -n 1 "$T_TMP/bad"))" [ "$rc" -ne 0 ]
done

# --- a dumbbell: two pairs, one bottleneck
tb up 10M --pairs 2 --delay 5
"$TESTBED" status >/dev/null 2>&1
eq "pairs: status exit" "$?" 0
r=$(minrtt a2 198.18.0.4)
check "pairs: a2 reaches b2, minimum RTT ${r:-none} >= 10 ms" ge "$r" 10
r=$(minrtt a1 198.18.0.2)
check "pairs: a1 reaches b1, minimum RTT ${r:-none} >= 10 ms" ge "$r" 10
q0=$(counter 'a>b' queue-drop)
flows 0 a1:b1 a2:b2
QD=$(( $(counter 'a>b' queue-drop) - q0 ))
echo "pairs: received $RECV of 4000, bottleneck queue-drop $QD"
check "pairs: the two flows overfilled the one bottleneck ($QD dropped)" [ "$QD" -gt 0 ]
eq "pairs: received (both pairs) + the bottleneck's queue-drop == 4000" "$(( RECV + QD ))" 4000

"$TESTBED" exec a1 ping -c 1 -W 2 -q 198.18.1.2 >/dev/null 2>&1
eq "pairs: a1 reaches rb's far address 198.18.1.2" "$?" 0
tb impair 'a>b' loss 100 meta l4proto icmp
"$TESTBED" exec a2 ping -c 2 -i 0.2 -W 1 -q 198.18.0.4 >/dev/null 2>&1
check "pairs: impair a>b loss 100% of ICMP: a2 cannot ping b2" [ "$?" -ne 0 ]
eq "pairs: impair a>b: exactly the 2 echo requests counted" "$(counter 'a>b' loss)" 2
tb impair ab loss off
eq "pairs: every neighbour entry of a1, ra, rb, b1 is static (no ARP)" \
    "$(for n in a1 ra rb b1; do "$TESTBED" exec "$n" ip neigh show; done | grep -vc PERMANENT)" 0

# --- the dumbbell's bottleneck marking instead
tb up 10M --pairs 2 --delay 1 --ecn 30000
"$TESTBED" exec a1 ping -c 1 -q 198.18.0.2 >/dev/null 2>&1
"$TESTBED" exec a2 ping -c 1 -q 198.18.0.4 >/dev/null 2>&1
m0=$(counter 'a>b' ecn-mark) q0=$(counter 'a>b' queue-drop)
flows 2 a1:b1 a2:b2
MARK=$(( $(counter 'a>b' ecn-mark) - m0 )) QD=$(( $(counter 'a>b' queue-drop) - q0 ))
echo "pairs ecn: received $RECV of 4000, CE $CE; marker: $MARK marked, $QD dropped"
check "pairs ecn: marked some ($MARK)" [ "$MARK" -gt 0 ]
eq "pairs ecn: CE at the receivers == the marker's ecn-mark" "$CE" "$MARK"
eq "pairs ecn: received + queue-drop == 4000" "$(( RECV + QD ))" 4000

tb down
eq "pairs: down leaves no namespace of ours" "$(ip netns list | grep -c "^$GPUT_TESTBED_PREFIX-")" 0
eq "pairs: down leaves no delay line" "$(pgrep -fc "/run/gput-testbed/$GPUT_TESTBED_PREFIX/")" 0

# --- a chain of two routers, the bottleneck on the middle link
tb up 100M --hops 2 --delay 2
tb link 1 rate 10M delay 10/5 queue 100p
check "hops: status shows link 1's queue" sh -c "'$TESTBED' status | grep -q '^a>b:1: rate 10000000 bit/s, queue 151400 bytes'"
r=$(minrtt a 198.18.0.2)
check "hops: minimum RTT ${r:-none} >= 2+2+10+5+2+2 = 23 ms" ge "$r" 23
q0=$(counter 'a>b:0' queue-drop) q1=$(counter 'a>b:1' queue-drop) q2=$(counter 'a>b:2' queue-drop)
flows 0 a:b
QD1=$(( $(counter 'a>b:1' queue-drop) - q1 ))
echo "hops: received $RECV of 2000; link 1 queue-drop $QD1"
check "hops: link 1 dropped ($QD1)" [ "$QD1" -gt 0 ]
eq "hops: received + link 1's queue-drop == 2000" "$(( RECV + QD1 ))" 2000
eq "hops: links 0 and 2 dropped nothing" "$(( $(counter 'a>b:0' queue-drop) - q0 )) $(( $(counter 'a>b:2' queue-drop) - q2 ))" "0 0"
miss=
for p in "a 198.18.2.1" "a 198.18.2.2" "a 198.18.1.2" "r2 198.18.0.1" "r1 198.18.0.2" "r1 198.18.2.2" "b 198.18.1.1" "r2 198.18.1.1"; do
	"$TESTBED" exec "${p% *}" ping -c 1 -W 2 -q "${p#* }" >/dev/null 2>&1 || miss="$miss ($p)"
done
eq "hops: every node reaches every address" "${miss:-none}" none
tb impair 'a>b:1' loss 100 meta l4proto icmp
"$TESTBED" exec a ping -c 2 -i 0.2 -W 1 -q 198.18.0.2 >/dev/null 2>&1
check "hops: impair a>b:1 loss 100% of ICMP: a cannot ping b" [ "$?" -ne 0 ]
eq "hops: impair a>b:1: exactly the 2 echo requests counted" "$(counter 'a>b:1' loss)" 2
tb impair 'a>b:1' loss off
"$TESTBED" counters >"$T_TMP/counters"
eq "hops: counters name each direction of each link, delay lines on both" \
    "$(awk '$2 == "delay-fwd" { printf "%s ", $1 }' "$T_TMP/counters")" "a>b:0 b>a:0 a>b:1 b>a:1 a>b:2 b>a:2 "
check "hops: b>a:2's delay line forwarded frames" \
    awk '$1 == "b>a:2" && $2 == "delay-fwd" && $3 > 0 { f = 1 } END { exit !f }' "$T_TMP/counters"
"$TESTBED" link 7 rate 1M >/dev/null 2>&1
check "hops: link 7 is refused" [ "$?" -ne 0 ]

tb down
eq "down: no namespace of ours left" "$(ip netns list | grep -c "^$GPUT_TESTBED_PREFIX-")" 0
t_done
