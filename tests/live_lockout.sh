#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Live tests: a few addresses cannot lock real clients out of the partner
# (its defaults: --max-handshakes 10, --max-sessions 4, --max-per-source
# 2). Each attack runs from addresses of its own (127.0.0.x; IPv6 in a
# namespace) in loops that reconnect at once, is verified to hold what it
# aims at before a real client tries, and the real client (127.0.0.1, or
# another /64) must have at least half of its tries served:
#  - ten handshake squatters from five addresses (HELLO, never PARAMS),
#    and six from three: a newcomer takes over a squatter's place
#    (partner_gate.h);
#  - four tests held from two addresses by --latency-idle 60000 with no
#    probe: each is ended 4 s after READY, and a newcomer takes one over;
#  - ten squatters from five addresses of one IPv6 /64: one source.
. "$(dirname "$0")/lib.sh"

need_ctlpeer
TRIES=10
STOPF=$T_TMP/stop-attack
# attack ADDR STEP...: reconnect from ADDR (ctlpeer -s) until STOPF exists
attack() {
	_a=$1; shift
	( while [ ! -e "$STOPF" ]; do
		"${WRAP[@]}" "$CTLPEER" $FAM -s "$_a" client "$PORT" "$@" >>"$T_TMP/attack.$_a" 2>&1
	done ) &
	T_PIDS="$T_PIDS $!"
}
# refused_per_source ADDR: one more client from ADDR is told its source
# holds --max-per-source places (the attack holds them)
refused_per_source() {
	"${WRAP[@]}" "$CTLPEER" $FAM -s "$1" client "$PORT" error 2>/dev/null |
	    grep -q "^ok error partner busy: 2 tests or handshakes from $1, at most 2 (--max-per-source)$"
}
# served HOST: how many of TRIES real runs to HOST succeed
served() {
	_n=0
	for _i in $(seq "$TRIES"); do
		"${WRAP[@]}" timeout -k 2 30 "$GPUT" -n 10 -p "$PORT" "$1" >/dev/null 2>&1 && _n=$((_n + 1))
	done
	echo "$_n"
}
stop_attack() {
	: >"$STOPF"
	kill "$D_PID" 2>/dev/null; wait "$D_PID" 2>/dev/null
	for p in $T_PIDS; do wait "$p" 2>/dev/null; done
	T_PIDS=""
	rm -f "$STOPF"
}

# --- ten handshake squatters from five addresses
FAM= WRAP=()
start_daemon || { fail "daemon announces its port"; t_done; }
PORT=$D_PORT
for a in 127.0.0.2 127.0.0.3 127.0.0.4 127.0.0.5 127.0.0.6; do
	attack "$a" hello eof
	attack "$a" hello eof
done
for a in 127.0.0.2 127.0.0.3 127.0.0.4 127.0.0.5 127.0.0.6; do
	check "squatters: $a holds its two handshakes (the attack runs)" \
		wait_until 20 refused_per_source "$a"
done
N=$(served 127.0.0.1)
echo "squatters (10 from 5 addresses): real client served $N of $TRIES"
check "squatters: a real client served at least half its tries ($N of $TRIES)" [ "$N" -ge $((TRIES / 2)) ]
check "squatters: places were taken over" grep -q "evicted: session [0-9]*: its place went to a client of another source" "$D_LOG"
stop_attack

# --- six handshake squatters from three addresses: the random early
# refusal alone let half of a real client's tries through
start_daemon || { fail "daemon announces its port"; t_done; }
PORT=$D_PORT
for a in 127.0.0.2 127.0.0.3 127.0.0.4; do
	attack "$a" hello eof
	attack "$a" hello eof
done
for a in 127.0.0.2 127.0.0.3 127.0.0.4; do
	check "squatters from 3: $a holds its two handshakes (the attack runs)" \
		wait_until 20 refused_per_source "$a"
done
N=$(served 127.0.0.1)
echo "squatters (6 from 3 addresses): real client served $N of $TRIES"
check "squatters from 3: a real client served at least half its tries ($N of $TRIES)" [ "$N" -ge $((TRIES / 2)) ]
stop_attack

# --- four test places held by --latency-idle 60000 without a probe
start_daemon || { fail "daemon announces its port"; t_done; }
PORT=$D_PORT
for a in 127.0.0.2 127.0.0.3; do
	attack "$a" hello latency=100000,60000 params=tcp,recv,1000,1000 ready echoport eof
	attack "$a" hello latency=100000,60000 params=tcp,recv,1000,1000 ready echoport eof
done
check "idle holders: four tests held (the attack runs)" wait_until 20 eval \
	'[ "$(grep -c ": start: tcp, partner receives" "$D_LOG")" -ge 4 ]'
check "idle holders: a held place without probes ends 4 s after READY" wait_until 20 \
	grep -q "data connection: no latency probe for 4000 ms in the idle phase: a test's place is held before its data flows only while probes arrive" "$D_LOG"
N=$(served 127.0.0.1)
echo "idle holders (4 from 2 addresses): real client served $N of $TRIES"
check "idle holders: a real client served at least half its tries ($N of $TRIES)" [ "$N" -ge $((TRIES / 2)) ]
stop_attack

# --- ten squatters from five addresses of one IPv6 /64 (a namespace);
# the real client is ::1, another source
NS=gput-lock-$$
if [ "$(id -u)" -ne 0 ] || ! t_netns "$NS"; then
	skip "IPv6 /64 squatters (needs root for a namespace)"
	t_done
fi
for i in 1 2 3 4 5; do ip -n "$NS" addr add "fd00:28::$i/64" dev lo nodad; done
D_WRAP=(ip netns exec "$NS")
start_daemon || { fail "daemon in the namespace"; t_done; }
PORT=$D_PORT
FAM=-6 WRAP=(ip netns exec "$NS")
for i in 1 2 3 4 5; do attack "fd00:28::$i" hello eof; attack "fd00:28::$i" hello eof; done
check "IPv6 /64: its five addresses are one source (the attack runs: fd00:28::5's client is refused by --max-per-source)" \
	wait_until 20 refused_per_source fd00:28::5
N=$(served ::1)
echo "IPv6 squatters (10 from 5 addresses of one /64): real client served $N of $TRIES"
check "IPv6 /64: a real client served at least half its tries ($N of $TRIES)" [ "$N" -ge $((TRIES / 2)) ]
stop_attack
D_WRAP=() WRAP=()
t_done
