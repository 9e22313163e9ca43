#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Live tests: the receiving host's UDP counters (HOSTUDP, CTL_XF_HOSTUDP).
# In a namespace of the test's own (its /proc/net/snmp counts only this
# test's traffic), an unpaced UDP run of 20000 datagrams of 1400 bytes into
# a receive buffer of -w 8 overflows it: the partner's RcvbufErrors delta
# is at least the drops its socket counted (SO_MEMINFO), and the verdict is
# receiver_socket_buffer. Without SO_MEMINFO (tests/nomeminfo.so) the
# verdict rests on the host's count, named host_rcvbuf_errors. -r -u reads
# this host's the same way. An older partner, which refuses the PARAMS bit,
# is asked again without it (tests/ctlpeer oldparams).
. "$(dirname "$0")/lib.sh"
not_grep() { ! grep -q "$@"; }

need_ctlpeer
NS=gput-hu$$
t_netns "$NS" || { fail "a network namespace (needs root)"; t_done; }
make -s tests/nomeminfo.so >/dev/null 2>&1 || { fail "tests/nomeminfo.so builds"; t_done; }
IN=(ip netns exec "$NS")
D_WRAP=("${IN[@]}")
start_daemon || { fail "daemon announces its port"; t_done; }
G=("${IN[@]}" "$GPUT" -p "$D_PORT" -u -l 1400 -n 20000 -w 8)
R='.sides[] | select(.role == "recv")'

# the partner receives: its socket's drops, its host's counters
run_t 60 "${G[@]}" --json 127.0.0.1
eq "overflow: exit 0" "$RC" 0
drops=$(jq -r '.explain.evidence.socket_drops // 0' "$OUT")
hr=$(jq -r "$R | .udp.host_rcvbuf_errors" "$OUT")
hi=$(jq -r "$R | .udp.host_in_errors" "$OUT")
check "overflow: the receiving socket dropped datagrams ($drops)" [ "$drops" -gt 0 ]
check "overflow: host RcvbufErrors $hr >= the socket's drops $drops" [ "$hr" -ge "$drops" ]
check "overflow: host InErrors $hi >= RcvbufErrors $hr" [ "$hi" -ge "$hr" ]
eq "overflow: the verdict" "$(jq -r '.explain.limit' "$OUT")" receiver_socket_buffer
run_t 60 "${G[@]}" -v 127.0.0.1
check "overflow: -v names the host's counters" grep -Eq \
	'^1: the receiving host.s UDP counters over the run \(all its sockets\): RcvbufErrors [1-9][0-9]*, InErrors [1-9][0-9]*$' "$OUT"
# over IPv6: the Udp6 counters of /proc/net/snmp6
run_t 60 "${G[@]}" -v ::1
check "IPv6: -v names the host's UDP6 counters" grep -Eq \
	'^1: the receiving host.s UDP6 counters over the run \(all its sockets\): RcvbufErrors [1-9][0-9]*, InErrors [1-9][0-9]*$' "$OUT"

# no SO_MEMINFO on the partner's host: the host's count decides
kill "$D_PID"; wait "$D_PID" 2>/dev/null
D_WRAP=("${IN[@]}" env ASAN_OPTIONS="${ASAN_OPTIONS:-}:verify_asan_link_order=0" LD_PRELOAD=tests/nomeminfo.so)
start_daemon || { fail "daemon (no SO_MEMINFO) announces its port"; t_done; }
G=("${IN[@]}" "$GPUT" -p "$D_PORT" -u -l 1400 -n 20000 -w 8)
run_t 60 "${G[@]}" --json 127.0.0.1
hr=$(jq -r "$R | .udp.host_rcvbuf_errors" "$OUT")
lost=$(jq -r "$R | .udp.lost" "$OUT")
eq "no SO_MEMINFO: the verdict, on the host's evidence" \
	"$(jq -r '.explain.limit, .explain.evidence.host_rcvbuf_errors, .explain.evidence.socket_drops' "$OUT" | tr '\n' ' ')" \
	"receiver_socket_buffer $hr null "
check "no SO_MEMINFO: host RcvbufErrors $hr >= half the lost $lost" [ $((hr * 2)) -ge "$lost" ]
check "no SO_MEMINFO: datagrams were lost ($lost)" [ "$lost" -gt 0 ]
run_t 60 "${G[@]}" -v 127.0.0.1
check "no SO_MEMINFO: the verdict line names the host's overflows" grep -Eq \
	'^1: .*limited by the receiver.s socket buffer: [0-9]+ of 20000 datagrams lost \([0-9.]+%\), [1-9][0-9]* receive buffer overflows on the receiving host \(all its UDP sockets\)$' "$OUT"

# -r -u: this host reads its own
run_t 60 "${G[@]}" -r --json 127.0.0.1
eq "-r -u: exit 0" "$RC" 0
drops=$(jq -r '.explain.evidence.socket_drops // 0' "$OUT")
hr=$(jq -r "$R | .udp.host_rcvbuf_errors" "$OUT")
check "-r -u: the local socket dropped datagrams ($drops)" [ "$drops" -gt 0 ]
check "-r -u: this host's RcvbufErrors $hr >= the socket's drops $drops" [ "$hr" -ge "$drops" ]

# an older partner (ctlpeer oldparams: it refuses xflags it does not know,
# 0x80 among them): the client asks once more without the bit, and the
# test goes on (the partner's made-up results are then refused: ctlpeer
# moves no UDP as a partner would)
"$CTLPEER" partner sendhello oldparams sendready acceptdata put=start drain lie=nothing hold >"$T_TMP/fp.out" 2>&1 &
T_PIDS="$T_PIDS $!"
if wait_for_line "$T_TMP/fp.out" '^ok listen port ' 5; then
	FPORT=$(sed -n 's/^ok listen port //p' "$T_TMP/fp.out")
	run_t 30 "$GPUT" -p "$FPORT" -u -t -n 10 -l 1000 127.0.0.1
	check "older partner: the first PARAMS asked HOSTUDP, refused; the second did not" \
		grep -qx 'ok oldparams refused 1 xflags 0x0' "$T_TMP/fp.out"
	check "older partner: the test went on to its data" grep -q '^ok drain ' "$T_TMP/fp.out"
	check "older partner: the refusal is not the run's error" \
		not_grep 'reserved bits' "$ERR"
else
	fail "ctlpeer listens"
fi
t_done
