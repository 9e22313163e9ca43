#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Live tests: address families. One daemon listens on IPv6 and IPv4 at once;
# -6 reaches it on ::1 and -4 on 127.0.0.1, TCP and UDP in both directions,
# with exact Bytes and Calls; the data connection and the daemon's log use
# the control connection's family. A host of the other family is refused.
. "$(dirname "$0")/lib.sh"

need_ctlpeer

start_daemon || { fail "daemon announces its port"; t_done; }
P=$D_PORT

# family FLAG HOST: the four transfers and the addresses they used.
family() {
	_f=$1 _h=$2
	_re=$(printf '%s' "$_h" | sed 's/\./\\./g')
	run_t 20 "$GPUT" "$_f" -v -n 1000 -l 1448 -p "$P" "$_h"
	eq "$_f tcp: exit status" "$RC" 0
	eq "$_f tcp: Bytes both, local Calls" "$(field l 2) $(field 1 2) $(field l 7)" \
		"1448000 1448000 1000"
	check "$_f tcp: data connection on $_h" grep -Eq \
		"^gput: data tcp $_re port [0-9]+ -> $_re port [0-9]+, " "$ERR"
	check "$_f tcp: the daemon saw $_h" wait_for_line "$D_LOG" \
		" gput\[[0-9]+\]: client $_re port [0-9]+: end: tcp receive, 1448000 bytes, [0-9]+ calls, [0-9.]+ s: ok$" 10

	run_t 20 "$GPUT" "$_f" -r -n 1000 -l 1448 -p "$P" "$_h"
	eq "$_f tcp -r: exit status" "$RC" 0
	eq "$_f tcp -r: Bytes both, partner Calls" "$(field l 2) $(field 1 2) $(field 1 7)" \
		"1448000 1448000 1000"

	run_t 20 "$GPUT" "$_f" -v -u -w 4096 -n 1000 -l 1000 -p "$P" "$_h"
	eq "$_f udp: exit status" "$RC" 0
	eq "$_f udp: sender Calls, Bytes both, receiver Calls" \
		"$(field l 7) $(field l 2) $(field 1 2) $(field 1 7)" "1003 1000000 1000000 1000"
	eq "$_f udp: arrival line" "$(grep '^1: received' "$OUT")" \
		"1: received 1000 of 1000 datagrams, 0 lost (0.00%)"
	check "$_f udp: data socket on $_h" grep -Eq \
		"^gput: data udp $_re port [0-9]+ -> $_re port [0-9]+, " "$ERR"

	run_t 20 "$GPUT" "$_f" -u -r -w 4096 -n 1000 -l 1000 -p "$P" "$_h"
	eq "$_f udp -r: exit status" "$RC" 0
	eq "$_f udp -r: partner Calls, Bytes both" \
		"$(field 1 7) $(field l 2) $(field 1 2)" "1003 1000000 1000000"
	eq "$_f udp -r: arrival line" "$(grep '^l: received' "$OUT")" \
		"l: received 1000 of 1000 datagrams, 0 lost (0.00%)"
}

family -4 127.0.0.1

if ! ip -6 addr show dev lo 2>/dev/null | grep -q 'inet6 ::1/128'; then
	skip "IPv6 (no ::1 on lo: IPv6 disabled here)"
elif ! grep -q "listening on :: port $P\$" "$D_LOG"; then
	skip "IPv6 (the daemon could not open an IPv6 socket: $(head -n 1 "$D_LOG"))"
else
	family -6 ::1
	# a client that vanishes on IPv6 is logged by its IPv6 address; it
	# reads HELLO first: closing with HELLO unread resets the connection,
	# and whether HELLO had arrived by then is a race the log would show
	# (": Connection reset by peer" after the same words)
	run_t 10 "$CTLPEER" -6 client "$P" hello 'raw=GPU' close
	CPORT=$(sed -n 's/^ok connect from port //p' "$OUT")
	check "-6: vanished client logged" wait_for_line "$D_LOG" \
		" gput\[[0-9]+\]: client ::1 port $CPORT: bad request: connection closed while waiting for a PARAMS message$" 10
	run_t 10 "$GPUT" -4 -p "$P" ::1
	eq "-4 with an IPv6 host: exit 1" "$RC" 1
	eq "-4 with an IPv6 host: message" "$(cat "$ERR")" \
		"gput: host ::1 has no IPv4 address (port $P)"
fi
run_t 10 "$GPUT" -6 -p "$P" 127.0.0.1
eq "-6 with an IPv4 host: exit 1" "$RC" 1
eq "-6 with an IPv4 host: message" "$(cat "$ERR")" \
	"gput: host 127.0.0.1 has no IPv6 address (port $P)"
check "daemon alive" kill -0 "$D_PID"
t_done
