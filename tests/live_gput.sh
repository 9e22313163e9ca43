#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Live tests: a real gput -i on loopback, real clients, exact numbers.
. "$(dirname "$0")/lib.sh"

TITLE='     Bytes  Real s   CPU s Real-MBit/s  CPU-MBit/s   Calls  Real-C/s   CPU-C/s'

start_daemon || { fail "daemon announces its port"; t_done; }
pass "daemon on port 0 announces port $D_PORT"
P=$D_PORT

# --- TCP, both directions: exact Bytes on both lines, exact Calls on the sender
run_t 20 "$GPUT" -T -n 1000 -l 1448 -p "$P" 127.0.0.1
eq "tcp -t: exit status" "$RC" 0
eq "tcp -t: title line" "$(head -n 1 "$OUT")" "$TITLE"
eq "tcp -t: local Bytes" "$(field l 2)" 1448000
eq "tcp -t: partner Bytes" "$(field 1 2)" 1448000
eq "tcp -t: local Calls" "$(field l 7)" 1000
eq "tcp -t: two result lines" "$(grep -c '^[l1] ' "$OUT")" 2

run_t 20 "$GPUT" -r -n 1000 -l 1448 -p "$P" 127.0.0.1
eq "tcp -r: exit status" "$RC" 0
eq "tcp -r: local Bytes" "$(field l 2)" 1448000
eq "tcp -r: partner Bytes" "$(field 1 2)" 1448000
eq "tcp -r: partner (sender) Calls" "$(field 1 7)" 1000

# --- UDP, both directions. The receiver gets a 4 MiB buffer (-w 4096) so a
# loopback burst is not lost while the receiver is being scheduled.
run_t 20 "$GPUT" -u -n 1000 -l 1000 -p "$P" 127.0.0.1 -w 4096
eq "udp -t: exit status" "$RC" 0
eq "udp -t: sender Calls = n + 3 markers" "$(field l 7)" 1003
eq "udp -t: sender Bytes" "$(field l 2)" 1000000
eq "udp -t: receiver Bytes" "$(field 1 2)" 1000000
eq "udp -t: receiver Calls" "$(field 1 7)" 1000
check "udp -t: receiver's window is not empty" awk '$1 == "1" && $5 ~ /^[0-9.]+$/ && $5 > 0 { ok = 1 } END { exit !ok }' "$OUT"
eq "udp -t: arrival line" "$(grep '^1: received' "$OUT")" \
	"1: received 1000 of 1000 datagrams, 0 lost (0.00%)"

run_t 20 "$GPUT" -r -u -w 4096 -n 1000 -l 1000 -p "$P" 127.0.0.1
eq "udp -r: exit status" "$RC" 0
eq "udp -r: partner (sender) Calls" "$(field 1 7)" 1003
eq "udp -r: local Bytes" "$(field l 2)" 1000000
eq "udp -r: arrival line" "$(grep '^l: received' "$OUT")" \
	"l: received 1000 of 1000 datagrams, 0 lost (0.00%)"

# The default receive buffer on loopback: a burst overruns it. Whatever was
# lost, the receiving socket's own drop count says so (the markers may be
# dropped too, so at most 3 more).
run_t 20 "$GPUT" -u -n 3000 -l 1000 -p "$P" 127.0.0.1
eq "udp, default buffer: exit status" "$RC" 0
_lost=$(sed -n 's/^1: received [0-9]* of 3000 datagrams, \([0-9]*\) lost.*/\1/p' "$OUT")
_drop=$(sed -n 's/.*; the receiving socket dropped \([0-9]*\) (its buffer was full: see -w, -g).*/\1/p' "$OUT")
check "udp, default buffer: every lost datagram dropped by the socket (lost ${_lost:-?}, dropped ${_drop:-0})" \
	awk -v l="${_lost:-x}" -v d="${_drop:-0}" 'BEGIN { exit !(l ~ /^[0-9]+$/ && d >= l && d <= l + 3) }'

# Tiny datagrams: a 1-byte payload and a 32-byte one (the marker's base size).
for len in 1 32; do
	run_t 20 "$GPUT" -u -n 200 -l "$len" -p "$P" 127.0.0.1 -w 4096
	eq "udp -l $len: receiver Bytes" "$(field 1 2)" $((200 * len))
	eq "udp -l $len: sender Calls" "$(field l 7)" 203
done

# --- -x: total bytes, the last write shorter
run_t 20 "$GPUT" -x 10000 -l 3000 -p "$P" 127.0.0.1
eq "tcp -x: Bytes both" "$(field l 2) $(field 1 2)" "10000 10000"
eq "tcp -x: sender Calls" "$(field l 7)" 4
run_t 20 "$GPUT" -u -x 10000 -l 3000 -p "$P" 127.0.0.1 -w 4096
eq "udp -x: Bytes both" "$(field l 2) $(field 1 2)" "10000 10000"
eq "udp -x: sender Calls" "$(field l 7)" 7

# --- -c verification, TCP and UDP, with -S seed and -s stream pattern
run_t 20 "$GPUT" -c -S lab7 -n 300 -l 1000 -p "$P" 127.0.0.1 -l 777
eq "tcp -c: exit status" "$RC" 0
eq "tcp -c: partner reads with its own -l" "$(grep '^1: ' "$OUT")" \
	"1: verified 300000 bytes, all match the pattern"
run_t 20 "$GPUT" -r -u -c -s -w 4096 -n 300 -l 999 -p "$P" 127.0.0.1
eq "udp -r -c -s: verified" "$(grep '^l: verified' "$OUT")" \
	"l: verified 299700 bytes, all match the pattern"

# --- -f and -T: the title follows the format
run_t 20 "$GPUT" -T -f '%b|%l|%n|%c' -n 10 -l 100 -p "$P" 127.0.0.1
eq "-f: title" "$(sed -n 1p "$OUT")" " Bytes|Length|Count|Calls"
eq "-f: local line" "$(sed -n 2p "$OUT")" "l 1000|100|10|10"

# --- options that shape the transfer still move exact bytes
run_t 20 "$GPUT" -D -w 256 -g 100 -n 50 -l 1448 -p "$P" 127.0.0.1
eq "-D -w -g: Bytes both" "$(field l 2) $(field 1 2)" "72400 72400"
run_t 20 "$GPUT" -v -n 100 -l 1448 -p "$P" 127.0.0.1
check "-v: sender's queue line" grep -Eq \
	'^l: when the last write returned, [0-9]+ bytes were not yet sent and [0-9]+ not yet acknowledged$' "$OUT"
GPUT_LOC_OPT="-n 7 -l 100" GPUT_REM_OPT="-l 50" run_t 20 "$GPUT" -p "$P" 127.0.0.1
eq "GPUT_LOC_OPT/GPUT_REM_OPT" "$(field l 2) $(field 1 2) $(field 1 7)" "700 700 14"

# --- --link on a live connection: the data segments TCP_INFO counted carry
# exactly the Bytes moved (loopback: nothing retransmitted), either direction
link_segs_ok() {   # the "N data segments of S bytes" of the link line, times, = $1
	awk -v b="$1" '/^link / { for (i = 1; i < NF; i++) if ($(i + 1) == "data") { n = $i; s = $(i + 4) } }
	    END { d = n * s - b; exit !(n > 0 && d < n * 0.05 && d > -n * 0.05) }' "$OUT"
}
run_t 20 "$GPUT" -n 100 -l 1448 --link 10M -p "$P" 127.0.0.1
check "--link: expected line" grep -Eq \
	'^link 10 MBit/s: TCP over IPv4, MTU [0-9]+, MSS [0-9]+, TCP options 12 bytes, [0-9]+ data segments of [0-9.]+ bytes: eta 0\.[0-9]{4}, expected [0-9.]+ MBit/s$' "$OUT"
check "--link: the sender's segments carried 144800 bytes" link_segs_ok 144800
check "--link: measured line per side" grep -Eq '^1: measured [0-9.]+ MBit/s, [0-9.]+ of expected$' "$OUT"
run_t 20 "$GPUT" -r -n 100 -l 1000 --link 1G -p "$P" 127.0.0.1
check "--link -r: the receiver's segments carried 100000 bytes" link_segs_ok 100000
run_t 20 "$GPUT" -u -n 10 -l 1000 --link 1G --vlan 2 --pppoe -p "$P" 127.0.0.1 -w 4096
check "--link UDP: datagram line" grep -Eq \
	'^link 1000 MBit/s: UDP over IPv4, MTU [0-9]+, 2 802\.1Q tags, PPPoE, datagram 1000 bytes in 1 frame: eta 0\.[0-9]{4}, expected [0-9.]+ MBit/s$' "$OUT"
# 1000 / (1000 + 8 + 20 + 14 + 8 + 8 + 4 + 20) = 1000/1082 on any MTU above 1036
check "--link UDP: eta with two tags and PPPoE" grep -q 'eta 0.9242, expected 924.2144 MBit/s$' "$OUT"

# --- --predict from the command line: the model's worked numbers
run_t 5 "$GPUT" --predict -u -l 1472 --link 10M
eq "--predict UDP 1472: eta, expected" "$(tail -n 2 "$OUT" | tr '\n' ' ')" "eta 0.9571 expected 9.5709 MBit/s "
# PPPoE: MTU 1492 by default, so 1472 + 8 + 20 no longer fits: 2 fragments
run_t 5 "$GPUT" --predict --pppoe -u -l 1472 --link 10M
eq "--predict --pppoe: title" "$(head -n 2 "$OUT" | tr '\n' ' ')" \
	"UDP over IPv4, MTU 1492, Ethernet, PPPoE a 1472-byte message is 2 IP fragments; bytes per message: "
eq "--predict --pppoe: eta, expected" "$(tail -n 2 "$OUT" | tr '\n' ' ')" "eta 0.9075 expected 9.0752 MBit/s "
run_t 5 "$GPUT" --predict --vlan 2 -u -l 1472 --link 10M
eq "--predict --vlan 2: eta" "$(tail -n 2 "$OUT" | head -n 1)" "eta 0.9521"

# --- failures: partner not running, garbage, clients that vanish
FREE=$(( (P + 1) % 65536 )); [ "$FREE" -lt 1024 ] && FREE=40000
while "$GPUT" -V >/dev/null && (exec 3<>"/dev/tcp/127.0.0.1/$FREE") 2>/dev/null; do FREE=$((FREE + 1)); done
run_t 10 "$GPUT" -p "$FREE" 127.0.0.1
eq "partner not running: exit 1" "$RC" 1
eq "partner not running: message" "$(cat "$ERR")" \
	"gput: cannot connect to 127.0.0.1 port $FREE: Connection refused (is gput -i running there?)"
run_t 10 "$GPUT" -p "$P" host.invalid
eq "unknown host: exit 1" "$RC" 1
check "unknown host: names host and port" grep -q '^gput: unknown host host.invalid (port '"$P"'): ' "$ERR"
run_t 10 "$GPUT" -i -p "$P"
eq "port in use: exit 1" "$RC" 1
eq "port in use: message" "$(cat "$ERR")" "gput: cannot listen on port $P: Address already in use"

garbage() {     # send $1 (printf format) on a control connection, print the reply
	exec 3<>"/dev/tcp/127.0.0.1/$P" || return 1
	printf "$1" >&3
	# the partner's HELLO (48 bytes) comes first; then its ERROR
	timeout 5 cat <&3 2>/dev/null | tail -c +49 | tr -d '\000-\037' | sed 's/^GPUT.//'
	exec 3>&-
}
eq "garbage: rejected" "$(garbage 'GARBAGE GARBAGE')" \
	"bad request: not a gput control message (bad magic)"
eq "oversized: rejected" "$(garbage 'GPUT\004\001\377\377')" \
	"bad request: control message too long (65535 bytes, at most 320)"
eq "old version: rejected" "$(garbage 'GPUT\001\001\000\060')" \
	"bad request: control protocol version 1 not supported (this gput speaks 4)"
eq "version 2: rejected" "$(garbage 'GPUT\002\001\000\160')" \
	"bad request: control protocol version 2 not supported (this gput speaks 4)"
eq "truncated PARAMS: rejected" "$(garbage 'GPUT\004\001\000\004abcd')" \
	"bad request: control message type 1 has 4 bytes, expected 216"
run_t 20 "$GPUT" -n 100 -l 1448 -p "$P" 127.0.0.1
eq "good run after garbage" "$RC $(field 1 2)" "0 144800"

# A client killed mid-transfer: its partner child ends, the daemon serves on.
# (-v: "gput: data ..." says the transfer began: killed before, the session
# would end in its handshake instead)
"$GPUT" -v -g 20000 -n 1000 -l 100 -p "$P" 127.0.0.1 >/dev/null 2>"$T_TMP/slow.err" &
CPID=$!
children() { pgrep -P "$D_PID" >/dev/null; }
wait_for_line "$T_TMP/slow.err" '^gput: data tcp ' 10 || fail "slow client's transfer began"
kill -9 "$CPID"; wait "$CPID" 2>/dev/null
check "killed client: partner child exits" wait_until 5 eval '! children'
run_t 20 "$GPUT" -u -n 100 -l 1000 -p "$P" 127.0.0.1 -w 4096
eq "good run after killed client" "$RC $(field 1 2)" "0 100000"
check "daemon logged the vanished client" grep -Eq ': end: tcp receive, [0-9]+ bytes, .*: the client closed the control connection$' "$D_LOG"
check "daemon still alive" kill -0 "$D_PID"
NFD=$(ls "/proc/$D_PID/fd" | wc -l)
for i in 1 2 3; do garbage 'xx' >/dev/null; done
run_t 20 "$GPUT" -n 10 -p "$P" 127.0.0.1
eq "no descriptor leaked by the daemon" "$(ls "/proc/$D_PID/fd" | wc -l)" "$NFD"

# --- usage errors: one line, exit 2
usage_err() {
	run_t 5 "$GPUT" "${@:2}"
	eq "usage: $1" "$RC:$(wc -l <"$ERR"):$(cat "$ERR")" "2:1:gput: $1"
}
usage_err "-n: 'abc' is not a number" -n abc host
usage_err "-l: a UDP datagram carries at most 65507 bytes" -u -l 65508 host
usage_err "-u must come before the partner name (it applies to both sides)" host -u
usage_err "no partner host given (start the partner with gput -i)"
usage_err "unknown option --nope" --nope host
t_done
