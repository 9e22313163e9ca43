#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Live tests: multicast (-m). One client sends one UDP stream to a group and
# two partners (two daemons, one group and port) each report their own
# arrivals: the l line once, then lines 1 and 2, exact on every partner.
# Multicast needs an interface that takes it, so everything runs in a
# private network namespace: lo with multicast on and a route for
# 224.0.0.0/4 (IPv4), and a veth pair (IPv4 and IPv6: Linux does not loop
# IPv6 multicast back over lo, but IP_MULTICAST_LOOP delivers a copy sent
# out of a veth to the members on this host). With -v each receiver's
# verdict, from its own losses. Needs root; skipped otherwise.
. "$(dirname "$0")/lib.sh"

if [ "$(id -u)" -ne 0 ]; then
	skip "multicast (needs root for a network namespace)"; t_done
fi
command -v ip >/dev/null || { skip "multicast (needs ip: apt-get install iproute2)"; t_done; }
NS=gput-mc$$
NSX=(ip netns exec "$NS")
ns_cleanup() { t_cleanup; ip netns pids "$NS" 2>/dev/null | xargs -r kill; ip netns del "$NS" 2>/dev/null; }
trap ns_cleanup EXIT
if ! ip netns add "$NS" 2>/dev/null; then
	skip "multicast (ip netns is not available here)"; t_done
fi
ip -n "$NS" link set lo up && ip -n "$NS" link set lo multicast on &&
ip -n "$NS" route add 224.0.0.0/4 dev lo &&
ip -n "$NS" link add mc0 type veth peer name mc1 &&
ip -n "$NS" link set mc0 up && ip -n "$NS" link set mc1 up &&
ip -n "$NS" addr add 198.51.100.1/24 dev mc0 ||
	{ fail "set up the namespace $NS (lo multicast, a veth pair)"; t_done; }
HAVE6=1
ip -n "$NS" addr add 2001:db8::1/64 dev mc0 nodad 2>/dev/null || HAVE6=0

TITLE='     Bytes  Real s   CPU s Real-MBit/s  CPU-MBit/s   Calls  Real-C/s   CPU-C/s'
RL='$1 ~ /^[l1-9]$/ && $2 ~ /^[0-9]+$/ && $3 ~ /^[0-9.]+$/'
tags() { awk "$RL"' { printf "%s", $1 }' "$OUT"; }
cols() { awk -v c="$1" "$RL"' { printf "%s%s", s, $c; s = " " }' "$OUT"; }
ARRIVED="1: received 1000 of 1000 datagrams, 0 lost (0.00%)
2: received 1000 of 1000 datagrams, 0 lost (0.00%)"

D_WRAP=("${NSX[@]}")
start_daemon || { fail "first daemon in $NS"; t_done; }
P1=$D_PORT D1_LOG=$D_LOG
start_daemon || { fail "second daemon in $NS"; t_done; }
P2=$D_PORT D2_LOG=$D_LOG
G=("${NSX[@]}" "$GPUT")
# -n 1000 -l 1000 -g 100: paced at 80 Mbit/s; with 1 MiB socket buffers
# (-w, both ends) nothing is lost even where a partner checks every byte in
# the sanitizers' build (with the default buffers it lost 1% there)
N=(-n 1000 -l 1000 -g 100 -w 1024)

# exact NAME: the l line once, lines 1 and 2, every count exact.
exact() {
	eq "$1: exit status" "$RC" 0
	eq "$1: one title, first" "$(grep -c 'Real-MBit/s' "$OUT") $(head -n 1 "$OUT")" "1 $TITLE"
	eq "$1: lines l 1 2" "$(tags)" "l12"
	eq "$1: Bytes on every line" "$(cols 2)" "1000000 1000000 1000000"
	eq "$1: Calls (n + 3 markers, n, n)" "$(cols 7)" "1003 1000 1000"
	# exactly: a duplicate or a reordered datagram would be named there
	eq "$1: each partner's arrivals" "$(grep ': received' "$OUT")" "$ARRIVED"
	eq "$1: nothing on stderr" "$(cat "$ERR")" ""
}

# capture NAME DEV FILTER: headers on DEV (cap_start in tests/lib.sh), the
# group's datagrams: n data and 3 end markers (cap_stop's count); wire: after
# cap_stop, tcpdump -v's text of the first packet in $T_TMP/cap
CAP_WRAP=("${NSX[@]}")
capture() { cap_start "$@" -s 128 -B 32768; }
wire() { tcpdump -r "$CAP" -n -v -c 1 >"$T_TMP/cap" 2>/dev/null; }
HAVE_TCPDUMP=1
command -v tcpdump >/dev/null || HAVE_TCPDUMP=0

# --- IPv4 over lo: two partners, one group and port
run_t 30 "${G[@]}" -T -m 239.1.2.3 "${N[@]}" 127.0.0.1 -p "$P1" 127.0.0.1 -p "$P2"
exact "ipv4 lo"
eq "ipv4 lo: both partners joined" \
	"$(grep -c 'joined group 239.1.2.3 port' "$D1_LOG") $(grep -c 'joined group 239.1.2.3 port' "$D2_LOG")" "1 1"

# --- -v: each receiver's verdict under its arrivals (its warnings, if any,
# after it), on its own figures: unpaced into 8 KiB receive buffers on lo,
# every loss is the socket's
run_t 30 "${G[@]}" -v -m 239.1.2.3 -n 20000 -l 1000 127.0.0.1 -p "$P1" -w 8 \
	127.0.0.1 -p "$P2" -w 8
eq "-v: exit status" "$RC" 0
eq "-v: a verdict per receiver, after its arrivals" \
	"$(grep -E '^[12]: ' "$OUT" | grep -v '^[12]: warning: ' | sed -E 's/^([12]): received .*/\1 arrivals/; s/^([12]): [0-9.]+ MBit\/s: limited by the receiver.s socket buffer: .*/\1 verdict/')" \
	"1 arrivals
1 verdict
2 arrivals
2 verdict"
for t in 1 2; do
	check "-v: receiver $t's verdict counts its own losses, as its arrivals line" eval \
		'[ "$(sed -nE "s/^$t: received [0-9]+ of 20000 datagrams, ([0-9]+) lost \(([0-9.]+%)\).*/\1 \2/p" "$OUT")" = \
		   "$(sed -nE "s/^$t: .*limited by .*: ([0-9]+) of 20000 datagrams lost \(([0-9.]+%)\).*/\1 \2/p" "$OUT")" ] &&
		 grep -Eq "^$t: received [0-9]+ of 20000 datagrams, [1-9]" "$OUT"'
done

# --- IPv4 over a veth, --ttl and --mport: the TTL and port on the wire
if [ "$HAVE_TCPDUMP" = 1 ] && capture ttl4 mc1 'udp and dst host 239.1.2.4'; then
	run_t 30 "${G[@]}" -T -m 239.1.2.4 --ttl 3 --mport 40001 "${N[@]}" \
		198.51.100.1 -p "$P1" 198.51.100.1 -p "$P2"
	exact "ipv4 veth --ttl 3"
	cap_stop 1003
	wire
	check "ipv4 veth: TTL 3 on the wire" grep -q 'ttl 3,' "$T_TMP/cap"
	check "ipv4 veth: from and to the data port" \
		grep -q '198.51.100.1.40001 > 239.1.2.4.40001: UDP' "$T_TMP/cap"
else
	skip "ipv4 veth --ttl 3 (no tcpdump to see the TTL)"
fi

# --- IPv6 over a veth, -c on every partner, the hop limit on the wire
if [ "$HAVE6" = 0 ]; then
	skip "ipv6 group (no IPv6 address on the veth)"
elif [ "$HAVE_TCPDUMP" = 1 ] && capture hlim6 mc1 'udp and dst host ff15::1234'; then
	run_t 30 "${G[@]}" -T -c -m ff15::1234 --ttl 5 "${N[@]}" \
		2001:db8::1 -p "$P1" 2001:db8::1 -p "$P2"
	exact "ipv6 veth -c --ttl 5"
	eq "ipv6: verified under each tag" "$(grep ': verified' "$OUT")" \
"1: verified 1000000 bytes, all match the pattern
2: verified 1000000 bytes, all match the pattern"
	cap_stop 1003
	wire
	check "ipv6: hop limit 5 on the wire" grep -q 'hlim 5,' "$T_TMP/cap"
else
	run_t 30 "${G[@]}" -T -m ff15::1234 "${N[@]}" 2001:db8::1 -p "$P1" 2001:db8::1 -p "$P2"
	exact "ipv6 veth"
fi

# --- IPv6 groups of interface- or link-local scope are the link's own, as
# 224.0.0.0/24 is: refused like it (ff02::1 all nodes, ff02::fb mDNS,
# ff01::1, the transient ff12::/16)
for grp in ff02::1 ff02::fb ff01::1 ff12::4321; do
	run_t 10 "$GPUT" -m "$grp" ::1
	eq "-m $grp: exit 2, one line" "$RC $(wc -l <"$ERR")" "2 1"
	eq "-m $grp: the reason" "$(cat "$ERR")" "gput: -m: $grp: an IPv6 group of scope 1 or 2 (ff01::/16, ff02::/16, ff12::/16...) is the link's own, not for tests"
done

# --- ^C: the stream stops, every partner sends what it got until then, 130
"${G[@]}" -v -m 239.1.2.3 -n 100000 -l 1000 -g 1000 127.0.0.1 -p "$P1" \
	127.0.0.1 -p "$P2" >"$T_TMP/io" 2>"$T_TMP/ie" &
IC=$!
T_PIDS="$T_PIDS $IC"
if wait_for_line "$T_TMP/ie" '^gput: data udp .* -> group 239.1.2.3 port' 15; then
	kill -INT "$IC"
	check "^C: gput ends" wait_until 15 eval '! kill -0 $IC 2>/dev/null'
	wait "$IC"; IRC=$?
	OUT=$T_TMP/io
	eq "^C: exit 130" "$IRC" 130
	eq "^C: lines l 1 2" "$(tags)" "l12"
	eq "^C: marked once" "$(grep -cx 'interrupted: the lines above count what was moved until the stop' "$OUT")" 1
	check "^C: partial Bytes, no partner more than was sent" awk '
		$1 == "l" { s = $2 } $1 ~ /^[12]$/ && $2 > 0 && $2 <= s && $2 < 100000000 { n++ }
		END { exit n != 2 }' "$OUT"
else
	fail "^C: the stream started"; cat "$T_TMP/ie"
fi

# --- usage errors: one line, exit 2
usage() {
	run_t 10 "$GPUT" "${@:3}"
	eq "$1: exit 2, one line" "$RC $(wc -l <"$ERR")" "2 1"
	eq "$1: the reason" "$(cat "$ERR")" "gput: $2"
}
usage "-m with -r" "-m: only the local side sends to a group, so it cannot be used with -r" \
	-r -m 239.1.2.3 127.0.0.1
usage "a unicast group" "-m: 10.1.2.3: not an IPv4 multicast address (224.0.0.0/4)" \
	-m 10.1.2.3 127.0.0.1
usage "--ttl without -m" "--ttl and --mport need -m" --ttl 3 127.0.0.1
usage "--ttl 0" "--ttl: '0' is out of range (1 to 255)" -m 239.1.2.3 --ttl 0 127.0.0.1

# --- the partner: a hand-made PARAMS with a group no client sends
need_ctlpeer
run_t 20 "${NSX[@]}" "$CTLPEER" client "$P1" group=10.1.2.3,40002 hello \
	params=udp,recv,10,1000 error
eq "partner refuses a unicast group" "$(grep '^ok error' "$OUT")" \
	"ok error bad request: bad PARAMS message: not an IPv4 multicast address (224.0.0.0/4)"
run_t 20 "${NSX[@]}" "$CTLPEER" client "$P1" group=239.1.2.3,40002 hello \
	params=udp,send,10,1000 error
eq "partner refuses to send to a group" "$(grep '^ok error' "$OUT")" \
	"ok error bad request: bad PARAMS message: multicast: a partner only receives from a group"
run_t 20 "${NSX[@]}" "$CTLPEER" client "$P1" group=239.1.2.3,80 hello \
	params=udp,recv,10,1000 error
eq "partner refuses a privileged data port" "$(grep '^ok error' "$OUT")" \
	"ok error bad request: bad PARAMS message: multicast data port below 1024"
# a client may not make the partner hold a service's port: only one of its
# host's ephemeral ports (mDNS's 5353 is not; the range is the namespace's)
read -r LO HI < <("${NSX[@]}" cat /proc/sys/net/ipv4/ip_local_port_range)
for port in 5353 $((LO - 1)) $((HI + 1)); do
	run_t 20 "${NSX[@]}" "$CTLPEER" client "$P1" group=239.1.2.3,$port hello \
		params=udp,recv,10,1000 error
	eq "partner refuses group port $port (outside $LO-$HI)" "$(grep '^ok error' "$OUT")" \
		"ok error refused: the group's port $port is outside this partner's ephemeral ports $LO-$HI (net.ipv4.ip_local_port_range): a client may not make it hold another"
done
run_t 20 "${NSX[@]}" "$CTLPEER" client "$P1" group=ff02::fb,40002 hello \
	params=udp,recv,10,1000 error
eq "partner refuses a link-local IPv6 group" "$(grep '^ok error' "$OUT")" \
	"ok error bad request: bad PARAMS message: an IPv6 group of scope 1 or 2 (ff01::/16, ff02::/16, ff12::/16...) is the link's own, not for tests"
check "partner joined no group for them" \
	test "$(grep -c 'joined group' "$D1_LOG")" = "$(grep -c 'joined group' "$D2_LOG")"

# --- --no-multicast: that partner refuses, the other still reports
start_daemon --no-multicast || { fail "daemon --no-multicast"; t_done; }
P3=$D_PORT
run_t 30 "${G[@]}" -m 239.1.2.3 "${N[@]}" 127.0.0.1 -p "$P1" 127.0.0.1 -p "$P3"
eq "--no-multicast: exit 1, lines l 1" "$RC $(tags)" "1 l1"
eq "--no-multicast: partner 1 still reports" "$(grep ': received' "$OUT")" \
	"1: received 1000 of 1000 datagrams, 0 lost (0.00%)"
eq "--no-multicast: partner 2's one line" "$(cat "$ERR")" \
	"gput: partner 127.0.0.1 port $P3: partner refused the test: refused: this partner takes no part in multicast tests (--no-multicast)"

# --- partners reached from two addresses: the group leaves by one
run_t 30 "${G[@]}" -m 239.1.2.3 "${N[@]}" 127.0.0.1 -p "$P1" 198.51.100.1 -p "$P2"
eq "two source addresses: exit 1, lines l 1" "$RC $(tags)" "1 l1"
eq "two source addresses: partner 2's one line" "$(cat "$ERR")" \
	"gput: partner 198.51.100.1 port $P2: reached from 198.51.100.1, but the group is sent from 127.0.0.1 (partner 1's): multicast leaves by one interface"

t_done
