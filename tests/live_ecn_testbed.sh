#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# gput --ecn across the testbed's marking bottleneck (gput-testbed --ecn K:
# the delay line marks CE on ECN-capable frames that find more than K bytes
# queued, and counts them): the CE marks gput's receiver reports equal the
# marker's own count exactly. UDP both ways (the sender's data leaves
# ECT(0), its end markers not-ECT, so only data is marked); TCP with ECN
# negotiated (net.ipv4.tcp_ecn = 1 in the client's namespace) and CUBIC:
# the receiver's CE-marked segments (TCP_INFO, Linux 6.18) equal the
# marker's count, and the sender saw ECE. Needs root; skipped otherwise.
# shellcheck disable=SC2317 # functions called through traps
. "$(dirname "$0")/lib.sh"

ADDR_B=198.18.0.2
tb_init "ecn across the testbed" en ip tc ethtool nft jq -- "$GPUT" tools/gput-delay
grep -q -- '--ecn K' "$TESTBED" || { fail "gput-testbed has --ecn K"; t_done; }
side() { jq -r --arg s "$1" ".sides[] | select(.side == \$s) | $2" "$OUT"; }

# 10 Mbit/s, marking above 30000 bytes, a queue of 1 MiB (nothing ECN-capable
# is dropped in these runs: the books below say so), 1 ms each way
tb up 10M --ecn 30000 --queue 1M --delay 1
tb_daemon

# UDP: 2000 datagrams of 1000 bytes every 600 us, 13.3 Mbit/s of payload
# into 10 Mbit/s: the queue passes K and the marker marks
for dir in -t -r; do
	if [ "$dir" = -t ]; then rs=1 d='a>b'; else rs=l d='b>a'; fi
	m0=$(counter "$d" ecn-mark) q0=$(counter "$d" queue-drop)
	run_t 60 "$TESTBED" exec a "$GPUT" $dir -u --ecn --json -n 2000 -l 1000 -g 600 \
		-w 1M -p "$D_PORT" "$ADDR_B"
	eq "UDP $dir: exit 0" "$RC" 0
	mk=$(( $(counter "$d" ecn-mark) - m0 )) qd=$(( $(counter "$d" queue-drop) - q0 ))
	ce=$(side "$rs" .udp.ecn.ce) e0=$(side "$rs" .udp.ecn.ect0) n=$(side "$rs" .udp.received)
	echo "UDP $dir: the marker marked $mk, its queue dropped $qd; gput: $n received, $e0 ECT(0), $ce CE"
	check "UDP $dir: the marker marked some" test "$mk" -gt 0
	eq "UDP $dir: CE counted by gput == the marker's count" "$ce" "$mk"
	eq "UDP $dir: every datagram ECT(0) or CE" "$(( e0 + ce ))" "$n"
	eq "UDP $dir: received + dropped in the queue == 2000" "$(( n + qd ))" 2000
done

# TCP: ECN asked by the connecting side (the client, in a); CUBIC reacts to
# ECE as to a loss, so the marks stay few
"$TESTBED" exec a sysctl -qw net.ipv4.tcp_ecn=1 || { fail "tcp_ecn in a"; t_done; }
m0=$(counter 'a>b' ecn-mark)
run_t 60 "$TESTBED" exec a "$GPUT" --ecn --cc cubic --json -n 3000 -l 1448 \
	-p "$D_PORT" "$ADDR_B"
eq "TCP: exit 0" "$RC" 0
eq "TCP: no line on stderr" "$(cat "$ERR")" ""
mk=$(( $(counter 'a>b' ecn-mark) - m0 ))
eq "TCP: ECN negotiated at both ends" \
	"$(side l .tcp_info.ecn.negotiated) $(side 1 .tcp_info.ecn.negotiated)" "true true"
rce=$(side 1 .tcp_info.ecn.received_ce) dce=$(side l .tcp_info.ecn.delivered_ce)
echo "TCP: the marker marked $mk; receiver: $rce CE-marked segments ($(side 1 .tcp_info.ecn.received_ce_bytes) bytes); sender: $dce acknowledged with ECE"
check "TCP: the marker marked some" test "$mk" -gt 0
if [ "$rce" = null ]; then
	skip "TCP: received CE (this kernel does not count it: Linux 6.18)"
else
	eq "TCP: CE-marked segments at the receiver == the marker's count" "$rce" "$mk"
fi
check "TCP: the sender saw ECE" test "$dce" -gt 0
t_done
