#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# tools/gput-testbed's delay lines (tools/gput-delay), checked against counts
# that do not come from them: nftables counters this test puts on the
# hosts' interfaces, ping, and gput's own arrival counts. In a testbed of
# its own (prefix gput-dl$$), always taken down. Needs root and nft;
# skipped otherwise. No timing thresholds: a delay is checked as a lower
# bound (an RTT never below the asked delays: they are added) and against
# the delay line's own counts; how exact the delay is belongs to the
# measurements in the README. About 25 s.
#
#   up 10M --delay 20:    ping's minimum RTT >= 40 ms; every frame a sent
#                         went through the a>b delay line and reached b
#                         (a's egress == delay-fwd == b's ingress, deltas);
#                         the error percentiles are ordered (p50 <= p99 <=
#                         max); status shows the delay lines
#                         both lines on the packet-ring path, the wake
#                         margin at most its 200 us cap; counters'
#                         delay-late a count no larger than delay-fwd
#   impair ab delay 30, ba delay 5: minimum RTT >= 35 ms; status says so;
#                         a>b on the copy path (GPUT_DELAY_PATH=copy, said
#                         in its statistics); GPUT_DELAY_PATH=bogus refused
#                         with one line, exit 1; b>a with GPUT_DELAY_SPIN=0
#                         woke on its timer and spun 0 us, margin 0; the
#                         copy path has no wake-up statistics
#   --jitter 5: minimum RTT >= 30 ms, the RTTs spread; gput -u sees no
#               datagram out of order; with --jitter-reorder it does
#   --queue 100p / 64K: the tbf limit is 100 x 1514 / 65536 bytes (tc, to
#               the byte-times of the 1 us it prints), status shows it;
#               bad sizes are refused
#   a delay line killed: status fails with one line naming it; counters
#               fails; up brings it back
#   --router --delay 10/2: minimum RTT >= 12 ms, a's ping crosses r
#   --ecn 30000: a UDP sender (tests/ecnpeer, ECT(0)) over the link rate:
#               CE at the receiver == the marker's ecn-mark exactly, received
#               + its queue-drop == sent; not-ECT datagrams are dropped,
#               never marked; gput --ecn --cc cubic (TCP): the receiver's
#               TCP_INFO received_ce == the marker's count
#   down:       nothing left
# shellcheck disable=SC2317 # functions called through traps
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

ADDR_B=198.18.0.2
tb_init "testbed delay" dl ip tc ethtool nft ping -- "$GPUT" tools/gput-delay

# rtt N GAP: ping b from a N times; sets RMIN RAVG RMAX RMDEV (ms). One
# ping first, so that neither side's ARP is in the numbers.
rtt() {
	"$TESTBED" exec a ping -c 2 -i 0.2 -q "$ADDR_B" >/dev/null 2>&1
	run_t 60 "$TESTBED" exec a ping -c "$1" -i "$2" -q "$ADDR_B"
	read -r RMIN RAVG RMAX RMDEV <<<"$(sed -n 's|^rtt min/avg/max/mdev = \([0-9.]*\)/\([0-9.]*\)/\([0-9.]*\)/\([0-9.]*\) ms.*|\1 \2 \3 \4|p' "$OUT")"
	[ -n "${RMIN:-}" ] || { echo "ping exited $RC:"; cat "$OUT" "$ERR"; RMIN=0 RAVG=0 RMAX=0 RMDEV=0; }
	echo "ping: $1 x, min/avg/max/mdev $RMIN/$RAVG/$RMAX/$RMDEV ms"
}

ge() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a + 0 >= b + 0) }'; }

# count_on HOST HOOK DEV: a counter of every frame through DEV's HOOK in HOST
# (a new table, so it starts at 0); frames HOST reads with "counted HOST".
count_on() {
	"$TESTBED" exec "$1" nft delete table netdev gput_dltest 2>/dev/null
	"$TESTBED" exec "$1" nft -f - <<EOF
table netdev gput_dltest {
	chain c {
		type filter hook $2 device "$3" priority 0;
		counter
	}
}
EOF
}
counted() {
	"$TESTBED" exec "$1" nft list table netdev gput_dltest |
	    awk '{ for (i = 1; i < NF; i++) if ($i == "packets") { print $(i + 1); exit } }'
}

# --- bad input is refused before anything is built
for bad in "--delay" "--delay x" "--delay 20/" "--delay 11s" "--delay -1" "--jitter 2" \
	"--delay 20 --queue 0" "--delay 20 --queue 12q" "--queue 0p" "--queue 99999999999"; do
	# shellcheck disable=SC2086 # split the arguments
	"$TESTBED" up 10M $bad >"$T_TMP/bad" 2>&1
	rc=$?
	check "up 10M $bad is refused (exit $rc: $(head -n 1 "$T_TMP/bad"))" [ "$rc" -ne 0 ]
done
eq "nothing was built by a refused up" "$(ip netns list | grep -c "^$GPUT_TESTBED_PREFIX-")" 0

# --- a direct link with 20 ms each way. A descriptor open in the caller
# (as flock(1) leaves its lock) must not stay open in the delay lines.
exec 9>"$T_TMP/held"
tb up 10M --delay 20
exec 9>&-
eq "the delay lines keep none of their starter's descriptors" \
	"$(for p in $(cat "/run/gput-testbed/$GPUT_TESTBED_PREFIX"/*.pid); do ls -l "/proc/$p/fd"; done | grep -c "$T_TMP/held")" 0
"$TESTBED" status >"$T_TMP/st" 2>&1
eq "status: up (exit)" "$?" 0
check "status: a>b delay line running" grep -q '^a>b: delay 20 ms, jitter 0 ms (gput-delay pid [0-9]*' "$T_TMP/st"
check "status: b>a delay line running" grep -q '^b>a: delay 20 ms, jitter 0 ms (gput-delay pid [0-9]*' "$T_TMP/st"
rtt 20 0.05
check "delay 20: ping's minimum RTT $RMIN >= 40 ms" ge "$RMIN" 40
eq "delay 20: every ping answered" "$(grep -c ' 0% packet loss' "$OUT")" 1
eq "delay 20: a's and b's neighbour entries are still the static ones (no ARP across the delay)" \
	"$({ "$TESTBED" exec a ip neigh show; "$TESTBED" exec b ip neigh show; } | grep -vc PERMANENT)" 0
check "delay 20: error percentiles ordered (p50 $(counter 'a>b' delay-err-p50-us) <= p99 $(counter 'a>b' delay-err-p99-us) <= max $(counter 'a>b' delay-err-max-us))" \
	awk -v a="$(counter 'a>b' delay-err-p50-us)" -v b="$(counter 'a>b' delay-err-p99-us)" \
	    -v c="$(counter 'a>b' delay-err-max-us)" 'BEGIN { exit !(a != "" && a <= b && b <= c + 1) }'
for d in ab ba; do
	eq "delay 20: $d runs the packet-ring path" \
		"$(awk '$1 == "path" { print $2 }' "/run/gput-testbed/$GPUT_TESTBED_PREFIX/$d.stats")" ring
done
check "delay 20: the ring path's wake margin ($(awk '$1 == "wake-margin-us" { print $2 }' "/run/gput-testbed/$GPUT_TESTBED_PREFIX/ab.stats") us) is at most its cap, 200 us" \
	awk '$1 == "wake-margin-us" { n++; ok = $2 <= 200 } END { exit !(n == 1 && ok) }' \
	    "/run/gput-testbed/$GPUT_TESTBED_PREFIX/ab.stats"
check "delay 20: counters' a>b delay-late ($(counter 'a>b' delay-late)) is a count, at most delay-fwd" \
	awk -v l="$(counter 'a>b' delay-late)" -v f="$(counter 'a>b' delay-fwd)" \
	    'BEGIN { exit !(l ~ /^[0-9]+$/ && l + 0 <= f + 0) }'

# every frame a sends passes the a>b delay line and reaches b
tb_daemon
count_on a egress veth-a
count_on b ingress veth-b
# the books start from a moment with nothing in the delay line: the three
# counts the same twice, 100 ms apart (the line holds a frame 20 ms). A frame
# of the host's own (an ARP probe) between the counters' start and a lone
# look at the line's count was in a's and b's counts and not in the line's
# (1013, 1012, 1013 once)
snapshot() { echo "$(counted a) $(counter 'a>b' delay-fwd) $(counted b)"; }
quiet() {
	_s1=$(snapshot); sleep 0.1; _s2=$(snapshot)
	[ "$_s1" = "$_s2" ] && BASE=$_s2
}
BASE=
wait_until 10 quiet || fail "delay 20: the delay line never idle for 100 ms"
read -r a0 fwd0 b0 <<EOF2
${BASE:-0 0 0}
EOF2
run_t 60 "$TESTBED" exec a "$GPUT" -u -n 1000 -l 1000 -g 1000 -p "$D_PORT" "$ADDR_B"
eq "delay 20: gput -u exit" "$RC" 0
eq "delay 20: gput received 1000 of 1000" "$(sed -n 's/^1: received \([0-9]*\) of .*/\1/p' "$OUT")" 1000
# the last frames are still on the wire when gput returns: poll until the
# books balance, with a deadline
books() {
	A=$(( $(counted a) - a0 )) B=$(( $(counted b) - b0 )) F=$(( $(counter 'a>b' delay-fwd) - fwd0 ))
	[ "$A" = "$F" ] && [ "$F" = "$B" ]
}
# (judged when they balance: a second look may catch a frame of the
# control connection's close on its way, 20 ms in the delay line)
if wait_until 5 books; then
	pass "delay 20: a's egress ($A) == delay-fwd ($F) == b's ingress ($B)"
else
	fail "delay 20: a's egress ($A) == delay-fwd ($F) == b's ingress ($B)"
fi
check "delay 20: more than the 1000 datagrams crossed ($F)" [ "${F:-0}" -gt 1000 ]
eq "delay 20: a>b delay-drop" "$(counter 'a>b' delay-drop)" 0

# --- asymmetric, changed on the running testbed
GPUT_DELAY_PATH=bogus "$TESTBED" impair ab delay 30 >"$OUT" 2>&1
eq "GPUT_DELAY_PATH=bogus: exit" "$?" 1
eq "GPUT_DELAY_PATH=bogus: one line" "$(cat "$OUT")" \
	"gput-testbed: GPUT_DELAY_PATH must be ring or copy, not 'bogus'"
# a>b on the copy path (recvmmsg/sendmmsg) from here on
GPUT_DELAY_PATH=copy tb impair ab delay 30
eq "GPUT_DELAY_PATH=copy: a>b runs the copy path" \
	"$(awk '$1 == "path" { print $2 }' "/run/gput-testbed/$GPUT_TESTBED_PREFIX/ab.stats")" copy
GPUT_DELAY_SPIN=0 tb impair 'b>a' delay 5ms
"$TESTBED" status >"$T_TMP/st" 2>&1
check "impair: status shows a>b 30 ms" grep -q '^a>b: delay 30 ms' "$T_TMP/st"
check "impair: status shows b>a 5 ms" grep -q '^b>a: delay 5 ms' "$T_TMP/st"
rtt 20 0.05
check "delay 30/5: ping's minimum RTT $RMIN >= 35 ms" ge "$RMIN" 35
"$TESTBED" counters >/dev/null 2>&1
# stat DIR KEY: a key of that direction's delay line statistics
stat() { awk -v k="$2" '$1 == k { print $2 }' "/run/gput-testbed/$GPUT_TESTBED_PREFIX/$1.stats"; }
check "GPUT_DELAY_SPIN=0: b>a woke on its timer ($(stat ba wakes) times)" [ "$(stat ba wakes)" -gt 0 ]
eq "GPUT_DELAY_SPIN=0: b>a never spun (spin-us)" "$(stat ba spin-us)" 0
eq "GPUT_DELAY_SPIN=0: b>a wakes early by 0 us" "$(stat ba wake-margin-us)" 0
eq "the copy path has no wake-up statistics" "$(stat ab wakes)" ""
eq "impair: a fresh delay line counts from 0" \
	"$(awk '$1 == "received" { print ($2 < 100) }' "/run/gput-testbed/$GPUT_TESTBED_PREFIX/ab.stats")" 1

# --- the queue: exact in tc and in status
# tc shows a tbf's limit as its latency, (limit - burst) / rate in whole
# us: the limit is that, to the byte-times of one us
# shellcheck disable=SC2020 # three characters, each to a newline
tbf_limit_is() {
	"$TESTBED" exec "$1" tc -j qdisc show dev "$2" | tr ',{}' '\n\n\n' | awk -F: -v want="$3" '
	    $1 == "\"rate\"" { r = $2 } $1 == "\"burst\"" { b = $2 } $1 == "\"lat\"" { l = $2 }
	    END { got = l * r / 1e6 + b; d = got - want; if (d < 0) d = -d
		  printf "tbf: rate %d B/s, burst %d, lat %d us: limit %.1f, want %d\n", r, b, l, got, want
		  exit !(r > 0 && d <= r / 1e6 + 1) }'
}
tb up 10M --delay 1 --queue 100p
check "queue 100p: a's tbf limit 151400 bytes (tc)" tbf_limit_is a veth-a 151400
check "queue 100p: status shows it" sh -c "'$TESTBED' status | grep -q '^a>b: rate 10000000 bit/s, queue 151400 bytes'"
tb up 10M --delay 1 --queue 64K
check "queue 64K: b's tbf limit 65536 bytes (tc)" tbf_limit_is b veth-b 65536
eq "up starts the queue's counters from 0" "$(counter 'a>b' queue-drop)" 0

# --- up starts every counter from 0, an impairment's too
tb up 10M
tb impair ab loss 50 meta l4proto icmp
"$TESTBED" exec a ping -c 20 -i 0.05 -q "$ADDR_B" >/dev/null 2>&1
check "before up: the loss rule counted ($(counter 'a>b' loss))" [ "$(counter 'a>b' loss)" -gt 0 ]
tb up 10M
eq "up again: the loss rule kept, its counter from 0" "$(counter 'a>b' loss)" 0

# --- jitter: spread, order kept; reordered when allowed
tb up 100M --delay 20 --jitter 5
tb_daemon
rtt 50 0.02
check "jitter 5: ping's minimum RTT $RMIN >= 30 ms" ge "$RMIN" 30
check "jitter 5: the RTTs spread (max $RMAX - min $RMIN > 1 ms)" ge "$RMAX" "$(awk -v m="$RMIN" 'BEGIN { print m + 1 }')"
# the sender on one CPU: a sender that moves between CPUs queues its frames
# to two CPUs' backlogs of the veth, which may hand them over out of order
# before any delay line sees them (once, on a loaded host under ASan)
run_t 60 "$TESTBED" exec a taskset -c 0 "$GPUT" --json -u -n 2000 -l 1000 -g 100 -p "$D_PORT" "$ADDR_B"
if command -v jq >/dev/null; then
	# (a late frame holds back those behind it, which then leave together:
	# a burst the receiving socket may not hold; order is the point here)
	jq -c '.sides[1].udp | {received, lost, reordered}' "$OUT"
	eq "jitter 5 (order kept): gput saw datagrams, none reordered" \
		"$(jq -r '.sides[1].udp | "\(.received > 0) \(.reordered)"' "$OUT")" "true 0"
	tb up 100M --delay 20 --jitter 5 --jitter-reorder
	tb_daemon
	run_t 60 "$TESTBED" exec a "$GPUT" --json -u -n 2000 -l 1000 -g 100 -p "$D_PORT" "$ADDR_B"
	# (a datagram may now also arrive after gput's end markers: counted lost)
	check "jitter 5 reorder: gput saw datagrams out of order ($(jq -r '.sides[1].udp.reordered' "$OUT"))" \
		sh -c "jq -e '.sides[1].udp.reordered > 0' '$OUT' >/dev/null"
else
	skip "jitter and order (needs jq)"
fi

# --- a delay line that dies takes the testbed down with it
tb up 10M --delay 20
pid=$(cat "/run/gput-testbed/$GPUT_TESTBED_PREFIX/ab.pid")
kill -KILL "$pid"
wait_until 5 sh -c "! [ -d /proc/$pid ]"
"$TESTBED" status >"$T_TMP/st" 2>"$T_TMP/st.err"
eq "dead delay line: status exit" "$?" 1
eq "dead delay line: status says so on one line" "$(wc -l <"$T_TMP/st.err")" 1
check "dead delay line: the line names a>b ($(cat "$T_TMP/st.err"))" grep -q 'delay line of a>b died' "$T_TMP/st.err"
"$TESTBED" counters >/dev/null 2>&1
eq "dead delay line: counters exit" "$?" 1
tb up 10M --delay 20
"$TESTBED" status >/dev/null 2>&1
eq "up again: status exit" "$?" 0

# --- through a router: a>b's delay after r's queue toward b, b>a's toward a
tb up 10M --router --delay 10/2
check "router: both wires" sh -c "ip netns list | grep -q '^$GPUT_TESTBED_PREFIX-wa' && ip netns list | grep -q '^$GPUT_TESTBED_PREFIX-wb'"
rtt 20 0.05
check "router delay 10/2: ping's minimum RTT $RMIN >= 12 ms" ge "$RMIN" 12
"$TESTBED" exec a ping -c 1 -t 1 "$ADDR_B" >"$T_TMP/ttl" 2>&1
check "router: a ping with TTL 1 dies at r" grep -q 'Time to live exceeded' "$T_TMP/ttl"

# --- ECN: the delay line is the bottleneck and marks CE above K bytes
if [ -x tests/ecnpeer ]; then
	tb up 10M --ecn 30000 --delay 1
	check "ecn: status shows the marking" sh -c "'$TESTBED' status | grep -q '^a>b: rate 10000000 bit/s, queue 200000 bytes (in the delay line in .*), ECN CE above 30000 bytes'"
	# ecnrun TOS: 2000 datagrams of 1000 bytes every 600 us (13.9 Mbit/s on
	# the wire, over the 10M link) from a to b; sets RCV (the receiver's
	# counts) and the delay line's MARK and QDROP deltas
	ecnrun() {
		m0=$(counter 'a>b' ecn-mark) q0=$(counter 'a>b' queue-drop)
		"$TESTBED" exec b tests/ecnpeer recv 1000 >"$T_TMP/ecn.recv" 2>&1 &
		T_PIDS="$T_PIDS $!"
		_rp=$!
		wait_for_line "$T_TMP/ecn.recv" '^port [0-9]+' 5
		run_t 30 "$TESTBED" exec a tests/ecnpeer send "$ADDR_B" "$(sed -n 's/^port //p' "$T_TMP/ecn.recv")" 2000 1000 600 "$1"
		wait "$_rp"
		RCV=$(sed -n 's/^received //p' "$T_TMP/ecn.recv")
		MARK=$(( $(counter 'a>b' ecn-mark) - m0 )) QDROP=$(( $(counter 'a>b' queue-drop) - q0 ))
		echo "ecn (TOS $1): receiver: $RCV; delay line: $MARK marked, $QDROP dropped by its queue"
	}
	ecnrun 2
	read -r n _ n0 _ n1 _ e0 _ ce <<<"$RCV"
	check "ecn ECT(0): the queue marked some ($MARK)" [ "$MARK" -gt 0 ]
	eq "ecn ECT(0): CE at the receiver == the marker's count" "$ce" "$MARK"
	eq "ecn ECT(0): received + dropped in the queue == 2000" "$(( n + QDROP ))" 2000
	eq "ecn ECT(0): every datagram ECT(0) or CE" "$(( e0 + ce ))/$n0/$n1" "$n/0/0"
	ecnrun 0
	read -r n _ n0 _ n1 _ e0 _ ce <<<"$RCV"
	eq "ecn not-ECT: nothing marked" "$MARK $ce" "0 0"
	eq "ecn not-ECT: received + dropped in the queue == 2000" "$(( n + QDROP ))" 2000
	check "ecn not-ECT: the queue dropped some instead ($QDROP)" [ "$QDROP" -gt 0 ]
	# TCP with ECN (cubic): the receiver's TCP_INFO counts the CE-marked
	# segments it got, which are exactly the marker's (pure ACKs and SYNs
	# are not ECN-capable, so never marked)
	if "$GPUT" -h 2>&1 | grep -q -- '--ecn' && command -v jq >/dev/null; then
		"$TESTBED" exec a sysctl -qw net.ipv4.tcp_ecn=1
		"$TESTBED" exec b sysctl -qw net.ipv4.tcp_ecn=1
		tb_daemon
		m0=$(counter 'a>b' ecn-mark)
		run_t 30 "$TESTBED" exec a "$GPUT" --json --ecn --cc cubic --time 3 -p "$D_PORT" "$ADDR_B"
		MARK=$(( $(counter 'a>b' ecn-mark) - m0 ))
		read -r neg rce <<<"$(jq -r '.sides[1].tcp_info.ecn | "\(.negotiated) \(.received_ce)"' "$OUT" 2>/dev/null)"
		echo "ecn tcp: negotiated ${neg:-?}, receiver's received_ce ${rce:-?}, marker $MARK"
		eq "ecn tcp cubic: negotiated" "${neg:-}" true
		check "ecn tcp cubic: the queue marked segments ($MARK)" [ "$MARK" -gt 0 ]
		if [ "${rce:-null}" = null ]; then
			skip "ecn tcp cubic: received CE (this kernel does not count it: Linux 6.18)"
		else
			eq "ecn tcp cubic: the receiver's received_ce == the marker's count" "$rce" "$MARK"
		fi
	else
		skip "ecn tcp (needs gput --ecn and jq)"
	fi
else
	fail "ecn (tests/ecnpeer not built)"
fi

# --- down leaves nothing
tb down
"$TESTBED" status >/dev/null 2>&1
eq "down: status says it is down (exit)" "$?" 1
eq "down: no namespace of ours left" "$(ip netns list | grep -c "^$GPUT_TESTBED_PREFIX-")" 0
check "down: no delay line state left" [ ! -e "/run/gput-testbed/$GPUT_TESTBED_PREFIX" ]
t_done
