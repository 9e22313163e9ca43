#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# tools/gput-testbed up --topology FILE: a network of any shape. In a
# testbed of its own (prefix gput-tg$$), always taken down. Needs root;
# skipped otherwise. About 20 s.
#
#   bad files: refused with "FILE:LINE: message", exit 1, nothing built
#       (and a testbed that is up stays up)
#   lab 000 (nine hosts, four routers, 40M/30M/20M links of 10/20/10 ms):
#       the build time (printed); nodes, addr, links; every host pings
#       every other: the FIRST packet's RTT >= 2 x the path's one-way
#       delays (and its distance from that printed; within 0.5 ms asserted
#       with GPUT_TIMING=1: a loaded host has no timing guarantees), every
#       neighbour entry still PERMANENT afterwards (no ARP was needed); h1
#       reaches every address of every node; impair r2>r3 loss 100% of
#       ICMP: exactly the 2 echo requests of h1's ping to h4 counted and
#       lost; impair r3>r4 delay 15: RTT h1-h9 >= 90 ms; counters name
#       every direction, delay lines on both directions; down leaves no
#       namespace, state or delay line
#   a switch: three hosts on one /24 with static fdb entries, a router
#       behind it over a delayed link; impair h1>s1 (at the switch's port)
#       counts exactly the 2 lost echo requests
#   ecn 30000/0 on r-d at 10M: 2000 ECT(0) datagrams at 13.3 Mbit/s
#       (tests/ecnpeer): CE at d == r>d's ecn-mark, received + r>d's
#       queue-drop == 2000, no marker on d>r
#   up failing midway (a namespace of the name it needs exists already):
#       exit 1, everything it made removed, the stranger's kept
#   ^C during up: exit 130, nothing left
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

tb_init "testbed topology files" tg ip tc ethtool nft ping bridge -- tools/gput-delay tests/ecnpeer

STATEDIR=${GPUT_TESTBED_STATE:-/run/gput-testbed}/$GPUT_TESTBED_PREFIX
ours() { ip netns list | awk -v p="$GPUT_TESTBED_PREFIX-" 'index($1, p) == 1' | wc -l; }
delay_lines() { pgrep -fc "$STATEDIR/" || true; }
nothing_left() {
	eq "$1: no namespace left" "$(ours)" 0
	check "$1: no state left" test ! -e "$STATEDIR"
	eq "$1: no delay line left" "$(delay_lines)" 0
}
# rtt1 FROM TO: the first (and only) ping's RTT in ms (from its summary:
# to the microsecond, where its reply line rounds to 0.1 ms), empty when none
rtt1() {
	"$TESTBED" exec "$1" ping -c 1 -W 3 -n "$2" 2>/dev/null | sed -n 's|^rtt min/avg/max/mdev = \([0-9.]*\)/.*|\1|p'
}

# --- bad files
bad() {
	printf "$2" >"$T_TMP/bad.topo"
	"$TESTBED" up --topology "$T_TMP/bad.topo" >"$T_TMP/out" 2>"$T_TMP/err"
	rc=$?
	eq "bad file ($1): exit 1" "$rc" 1
	eq "bad file ($1): the message" "$(cat "$T_TMP/err")" "$T_TMP/bad.topo:$3"
}
bad "node twice" 'host h1\n# a comment\nhost h1\n' '3: node h1 declared again (first on line 1)'
bad "unknown node" 'host h1\n\nlink h1 r9 rate 10M\n' '3: unknown node "r9" (declare it first: host, router or switch NAME)'
bad "bad rate" 'host a\nhost b\nlink a b rate 10X delay 5\n' '3: bad rate "10X": use e.g. 10M, 100k, 1G or plain bit/s'
bad "rate range" 'host a\nhost b\nlink a b rate 10M/20G\n' '3: rate 20G out of range (10k..10G)'
bad "unknown setting" 'host a\nhost b\nlink a b delay 5 speed 1\n' '3: unknown link setting "speed" (rate, delay, jitter, queue, loss, dup, reorder, ecn, mtu)'
bad "no value" 'host a\nhost b\nlink a b delay\n' '3: setting "delay" has no value'
bad "two switches" 'switch s\nswitch t\nlink s t\n' '3: a link between two switches (hang their hosts on one switch)'
bad "jitter alone" 'host a\nhost b\nlink a b jitter 2\n' '3: jitter needs delay (e.g. delay 20 jitter 2)'
bad "queue alone" 'host a\nhost b\nlink a b queue 100p\n' '3: queue needs a rate (it is the rate shaper queue)'
bad "name" 'host H1\n' '1: bad node name "H1": [a-z][a-z0-9], at most 10 characters'
bad "loss" 'host a\nhost b\nlink a b loss 1.234%%\n' '3: bad percentage "1.234%": use e.g. 2%, 0.5% or 12.25%'
bad "second link" 'host a\nhost b\nlink a b\nlink b a\n' '4: a second link between b and a (first on line 3)'
bad "unknown line" 'host a\nnode b\n' '2: unknown line "node" (host, router, switch or link)'
printf 'host a\nlink a a\n' | "$TESTBED" up --topology - >/dev/null 2>"$T_TMP/err"
eq "bad file on stdin: named stdin" "$(cat "$T_TMP/err")" "stdin:2: a link from a to itself"
nothing_left "after the bad files"

# --- lab 000
cp tests/data/lab000.topo "$T_TMP/lab000.topo"
t0=$(date +%s%N)
tb up --topology "$T_TMP/lab000.topo"
t1=$(date +%s%N)
echo "lab 000: up took $(( (t1 - t0) / 1000000 )) ms: $(cat "$T_TMP/tb.log")"
"$TESTBED" nodes >"$T_TMP/nodes"
eq "nodes: 13" "$(wc -l <"$T_TMP/nodes")" 13
eq "nodes: h1" "$(sed -n 1p "$T_TMP/nodes")" "h1 host 198.18.3.1"
eq "nodes: r2" "$(grep '^r2 ' "$T_TMP/nodes")" "r2 router 198.18.0.2 198.18.1.1 198.18.6.2"
eq "addr r2 r3" "$("$TESTBED" addr r2 r3)" 198.18.1.1
eq "addr r2" "$("$TESTBED" addr r2)" 198.18.0.2
eq "addr r2 h9 (toward h9: its link to r3)" "$("$TESTBED" addr r2 h9)" 198.18.1.1
eq "addr r2 h1 (toward h1: its link to r1)" "$("$TESTBED" addr r2 h1)" 198.18.0.2
eq "addr h4 h1 (its one link)" "$("$TESTBED" addr h4 h1)" 198.18.7.1
"$TESTBED" addr r2 h10 >/dev/null 2>&1
check "addr r2 h10 (no such node) fails" [ "$?" -eq 1 ]
eq "links: r2-r3" "$("$TESTBED" links | grep '^r2-r3 ')" \
    "r2-r3 mtu 1500 r2>r3 rate 30000000 queue 151400 delay 20 jitter 0 loss 0 dup 0 reorder 0 ecn 0 r3>r2 rate 30000000 queue 151400 delay 20 jitter 0 loss 0 dup 0 reorder 0 ecn 0"
eq "links: h9-r4" "$("$TESTBED" links | grep '^h9-r4 ')" \
    "h9-r4 mtu 1500 h9>r4 rate 0 queue 0 delay - jitter 0 loss 0 dup 0 reorder 0 ecn 0 r4>h9 rate 0 queue 0 delay - jitter 0 loss 0 dup 0 reorder 0 ecn 0"

# every host pings every other, the first packet measured; the one-way
# delay between hosts is that between their routers, on a line at 0, 10,
# 30 and 40 ms (r1..r4)
pos() { case $1 in h1 | h2 | h3) echo 0 ;; h7) echo 10 ;; h4 | h5 | h6 | h8) echo 30 ;; h9) echo 40 ;; esac; }
under=0 over=0 n=0 worst=0
for s in h1 h2 h3 h4 h5 h6 h7 h8 h9; do
	for d in h1 h2 h3 h4 h5 h6 h7 h8 h9; do
		[ "$s" != "$d" ] || continue
		want=$(( 2 * ($(pos "$s") - $(pos "$d")) ))
		want=${want#-}
		got=$(rtt1 "$s" "$("$TESTBED" addr "$d")")
		n=$((n + 1))
		if [ -z "$got" ]; then
			# a second try says whether the path works at all
			echo "$s -> $d: no reply to the first ping; again: $(rtt1 "$s" "$("$TESTBED" addr "$d")")"
		fi
		if [ -z "$got" ] || ! awk -v g="$got" -v w="$want" 'BEGIN { exit !(g >= w) }'; then
			under=$((under + 1))
			echo "$s -> $d: RTT ${got:-none}, want >= $want"
			continue
		fi
		ex=$(awk -v g="$got" -v w="$want" 'BEGIN { printf "%.3f", g - w }')
		echo "$ex" >>"$T_TMP/excess"
		awk -v e="$ex" -v m="$worst" 'BEGIN { exit !(e > m) }' && worst=$ex
		awk -v e="$ex" 'BEGIN { exit !(e > 0.5) }' && { over=$((over + 1)); echo "$s -> $d: first RTT $got ms, $ex above $want"; }
	done
done
echo "ping matrix: $n pairs, first packets: $over more than 0.5 ms above 2 x the path's delays, the worst $worst ms above;" \
    "excess median $(sort -n "$T_TMP/excess" | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] " ms, p90 " a[int(NR * 0.9 + 0.5)] " ms" }')"
eq "ping matrix: every first packet arrived, none faster than 2 x the path's delays" "$n $under" "72 0"
[ "${GPUT_TIMING:-0}" != 1 ] || eq "ping matrix: every first packet within 0.5 ms (GPUT_TIMING=1)" "$over" 0
nonperm=0
for x in h1 h2 h3 h4 h5 h6 h7 h8 h9 r1 r2 r3 r4; do
	nonperm=$((nonperm + $("$TESTBED" exec "$x" ip neigh show | grep -vc PERMANENT)))
done
eq "after the matrix every neighbour entry is still the static one (no ARP)" "$nonperm" 0
miss=
for a in $(awk '{ for (i = 3; i <= NF; i++) print $i }' "$T_TMP/nodes"); do
	"$TESTBED" exec h1 ping -c 1 -W 3 -q "$a" >/dev/null 2>&1 || miss="$miss $a"
done
eq "h1 reaches every address of every node" "${miss:-none}" none

tb impair 'r2>r3' loss 100 meta l4proto icmp
"$TESTBED" exec h1 ping -c 2 -i 0.2 -W 1 -q "$("$TESTBED" addr h4)" >/dev/null 2>&1
check "impair r2>r3 loss 100% of ICMP: h1 cannot ping h4" [ "$?" -ne 0 ]
eq "impair r2>r3: counted exactly the 2 echo requests" "$(counter 'r2>r3' loss)" 2
eq "links shows r2>r3's loss" "$("$TESTBED" links | grep '^r2-r3 ' | awk '{ print $14 }')" 100
tb impair 'r2>r3' loss off
r=$(rtt1 h4 "$("$TESTBED" addr h1)")
check "impair r2>r3 loss off: h4 pings h1 again (${r:-none} ms)" [ -n "$r" ]
tb impair 'r3>r4' delay 15
r=$(rtt1 h1 "$("$TESTBED" addr h9)")
check "impair r3>r4 delay 15: h1-h9 RTT ${r:-none} >= 85 ms" awk -v r="${r:-0}" 'BEGIN { exit !(r >= 85) }'
"$TESTBED" impair 'h9>r4' delay 5 >/dev/null 2>"$T_TMP/err"
eq "impair on a link without a delay line fails" "$?" 1
"$TESTBED" counters >"$T_TMP/counters"
eq "counters: every direction of the three delayed links has its delay line" \
    "$(awk '$2 == "delay-fwd" { printf "%s ", $1 }' "$T_TMP/counters")" "r1>r2 r2>r1 r2>r3 r3>r2 r3>r4 r4>r3 "
check "counters: r3>r2's delay line forwarded frames" \
    awk '$1 == "r3>r2" && $2 == "delay-fwd" && $3 > 0 { f = 1 } END { exit !f }' "$T_TMP/counters"
"$TESTBED" up --topology "$T_TMP/bad.topo" >/dev/null 2>&1
eq "a bad file while up: lab 000 still up (nodes)" "$("$TESTBED" nodes | wc -l)" 13
tb down
nothing_left "lab 000 down"

# --- a switch
printf '%s\n' 'host h1' 'host h2' 'host h3' 'host far' 'switch s1' 'router r' \
    'link h1 s1' 'link h2 s1 rate 10M' 'link s1 h3' 'link r s1' 'link r far delay 5/2' >"$T_TMP/sw.topo"
tb up --topology "$T_TMP/sw.topo"
eq "switch: one /24 for its members" "$("$TESTBED" nodes | awk '$2 != "switch" { printf "%s=%s ", $1, $3 }')" \
    "h1=198.18.0.1 h2=198.18.0.2 h3=198.18.0.3 far=198.18.1.2 r=198.18.0.4 "
eq "switch: addr r h1 (the switch's subnet)" "$("$TESTBED" addr r h1)" 198.18.0.4
eq "switch: addr r far" "$("$TESTBED" addr r far)" 198.18.1.1
eq "switch: s1 has no address" "$("$TESTBED" nodes | grep '^s1 ')" "s1 switch"
r=$(rtt1 h3 198.18.0.2)
check "switch: h3 pings h2 (${r:-none} ms)" [ -n "$r" ]
r=$(rtt1 h1 "$("$TESTBED" addr far)")
check "switch: h1 pings far behind r, RTT ${r:-none} >= 7 ms" awk -v r="${r:-0}" 'BEGIN { exit !(r >= 7) }'
eq "switch: s1's bridge has a static entry per member" \
    "$("$TESTBED" exec s1 bridge fdb show br br | grep -c 'master br static')" 4
tb impair 'h1>s1' loss 100 meta l4proto icmp
"$TESTBED" exec h1 ping -c 2 -i 0.2 -W 1 -q 198.18.0.2 >/dev/null 2>&1
check "switch: impair h1>s1 loss 100% of ICMP (at the switch's port): h1 cannot ping h2" [ "$?" -ne 0 ]
eq "switch: impair h1>s1: exactly the 2 echo requests counted" "$(counter 'h1>s1' loss)" 2
tb down
nothing_left "switch down"

# --- a marking link, one direction only: r>d marks CE above 30000 bytes
printf '%s\n' 'host s' 'router r' 'host d' 'link s r' 'link r d rate 10M ecn 30000/0 delay 1' >"$T_TMP/ecn.topo"
tb up --topology "$T_TMP/ecn.topo"
eq "ecn: links" "$("$TESTBED" links | grep '^r-d ')" \
    "r-d mtu 1500 r>d rate 10000000 queue 200000 delay 1 jitter 0 loss 0 dup 0 reorder 0 ecn 30000 d>r rate 10000000 queue 200000 delay 1 jitter 0 loss 0 dup 0 reorder 0 ecn 0"
"$TESTBED" exec d tests/ecnpeer recv 1000 >"$T_TMP/recv" 2>&1 &
T_PIDS="$T_PIDS $!"
rpid=$!
if wait_for_line "$T_TMP/recv" '^port [0-9]+' 5; then
	# 2000 ECT(0) datagrams of 1000 bytes every 600 us: 13.3 Mbit/s into 10
	timeout 30 "$TESTBED" exec s tests/ecnpeer send "$("$TESTBED" addr d)" \
		"$(sed -n 's/^port //p' "$T_TMP/recv")" 2000 1000 600 2 >/dev/null
	wait "$rpid"
	read -r _ n _ _ _ _ _ _ _ ce <<<"$(grep '^received ' "$T_TMP/recv")"
	mk=$(counter 'r>d' ecn-mark) qd=$(counter 'r>d' queue-drop)
	echo "ecn: received ${n:-none} of 2000, CE ${ce:-none}; r>d marked $mk, its queue dropped $qd"
	check "ecn: r>d marked some (${mk:-none})" [ "${mk:-0}" -gt 0 ]
	eq "ecn: CE at d == r>d's ecn-mark" "${ce:-none}" "$mk"
	eq "ecn: received + r>d's queue-drop == 2000" "$(( ${n:-0} + ${qd:-0} ))" 2000
	eq "ecn: d>r marks nothing (no marker: no ecn-mark line)" "$(counter 'd>r' ecn-mark)" ""
else
	fail "ecn: ecnpeer recv in d"
fi
tb down
nothing_left "ecn down"

# --- up failing midway: a namespace it needs is someone else's
ip netns add "$GPUT_TESTBED_PREFIX-h5"
"$TESTBED" up --topology "$T_TMP/lab000.topo" >/dev/null 2>"$T_TMP/err"
eq "up failing midway: exit 1" "$?" 1
eq "up failing midway: why" "$(head -n 1 "$T_TMP/err")" \
    "gput-testbed: namespace $GPUT_TESTBED_PREFIX-h5 exists and is not this testbed's (remove it, or set another GPUT_TESTBED_PREFIX)"
eq "up failing midway: only the stranger's namespace is left" \
    "$(ip netns list | awk -v p="$GPUT_TESTBED_PREFIX-" 'index($1, p) == 1 { print $1 }')" "$GPUT_TESTBED_PREFIX-h5"
ip netns del "$GPUT_TESTBED_PREFIX-h5"
nothing_left "up failing midway"

# --- ^C during up (job control: a background job's SIGINT is not ignored).
# The build is held at its first tc (a tc of the test's own, first on PATH,
# waits for a release file) so the ^C surely lands in the middle of it: a
# race against a build that finished first left it up once, exit 0.
realtc=$(command -v tc)
mkdir -p "$T_TMP/bin"
cat >"$T_TMP/bin/tc" <<EOF
#!/bin/sh
if mkdir "$T_TMP/tc.held" 2>/dev/null; then
	: >"$T_TMP/tc.waiting"
	i=0
	while [ ! -e "$T_TMP/tc.go" ] && [ \$i -lt 1500 ]; do
		sleep 0.02      # poll for the release; bounded (30 s)
		i=\$((i + 1))
	done
fi
exec $realtc "\$@"
EOF
chmod +x "$T_TMP/bin/tc"
set -m
# env: SIGINT back to its default, as a terminal's ^C finds it (a shell
# cannot trap a signal ignored when it started, and a background job of a
# non-interactive shell, as CI may run the tests, starts with SIGINT ignored)
PATH="$T_TMP/bin:$PATH" env --default-signal=INT "$TESTBED" up --topology "$T_TMP/lab000.topo" >/dev/null 2>"$T_TMP/err" &
upid=$!
set +m
check "^C during up: the build reached its first tc" wait_until 30 test -e "$T_TMP/tc.waiting"
kill -INT "$upid"
: >"$T_TMP/tc.go"
wait "$upid"
eq "^C during up: exit 130" "$?" 130
eq "^C during up: says so" "$(cat "$T_TMP/err")" "gput-testbed: interrupted; testbed removed"
nothing_left "^C during up"
t_done
