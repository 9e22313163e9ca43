#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Live tests: --latency on loopback. Exact probe counts (sent = answered +
# lost, the idle phase's due probes), the JSON keys, the table's lines, the
# usage errors; and the partner's echo under attack: probes from strangers,
# with a wrong nonce or of the wrong size get nothing, a burst over the
# agreed rate is cut to the bucket and counted, an echo is never longer than
# its probe, and the echo's port closes with the session.
. "$(dirname "$0")/lib.sh"

need_ctlpeer
jqe() { jq -e "$@" >/dev/null; }
if ! command -v jq >/dev/null; then
	fail "jq is installed (tools/install-deps)"
	t_done
fi

start_daemon || { fail "daemon announces its port"; t_done; }
P=$D_PORT

# --- UDP: 0.3 s idle at 10 ms: 30 probes due; then 1 s loaded
run_t 30 "$GPUT" -u --rate 20M -l 1000 --time 1 --interval 0.5 --latency \
	--latency-idle 0.3 --json -p "$P" 127.0.0.1
eq "udp --latency --json: exit status" "$RC" 0
check "idle: 30 probes due, each sent or counted unsent" jqe \
	'.latency.idle | .n + .unsent == 30' "$OUT"
check "idle and loaded: n = answered + lost" jqe \
	'.latency | (.idle | .n == .answered + .lost) and (.loaded | .n == .answered + .lost)' "$OUT"
check "loaded: about a probe per 10 ms of the 1 s (90..102 with the unsent)" jqe \
	'.latency.loaded | (.n + .unsent) >= 90 and (.n + .unsent) <= 102' "$OUT"
check "the keys: n lost min p50 p90 p99 max, ordered" jqe \
	'.latency | [.idle, .loaded][] | (.min_ms <= .p50_ms and .p50_ms <= .p90_ms and .p90_ms <= .p99_ms and .p99_ms <= .max_ms and .lost >= 0)' "$OUT"
check "increase and rpm" jqe \
	'.latency | (.increase_ms == .loaded.p50_ms - .idle.p50_ms) and .rpm > 0 and (.rpm - 60000 / .loaded.trimmed_mean_ms | fabs) < 0.001 * .rpm' "$OUT"
check "the partner's echo counts add up, nothing refused" jqe \
	'.latency.echo | .received == .echoed + .over_rate + .strangers + .malformed + .unsent and .over_rate == 0 and .strangers == 0 and .malformed == 0' "$OUT"
check "per interval: the local side's latency_p50_ms" jqe \
	'[.sides[0].intervals[] | select(.last | not) | has("latency_p50_ms")] | all and length == 2' "$OUT"
check "the partner's intervals have none" jqe \
	'[.sides[1].intervals[] | has("latency_p50_ms")] | any | not' "$OUT"
check "no one-way delays without --same-clock" jqe \
	'.latency.loaded | has("up_p50_ms") | not' "$OUT"

# --- TCP with --same-clock: one-way delays, the connection's srtt
run_t 30 "$GPUT" --time 0.5 --latency --latency-idle 0.1 --latency-interval 5 \
	--same-clock --json -p "$P" 127.0.0.1
eq "tcp --latency --same-clock: exit status" "$RC" 0
check "tcp: 20 idle probes due at 5 ms" jqe '.latency.idle.n + .latency.idle.unsent == 20' "$OUT"
check "tcp: the data's smoothed rtt" jqe '.latency.tcp_srtt_ms > 0' "$OUT"
check "--same-clock: up and down p50 per phase, one clock: not negative" jqe \
	'.latency | [.idle, .loaded][] | .up_p50_ms >= 0 and .down_p50_ms >= 0' "$OUT"

# --- the table's lines
run_t 30 "$GPUT" -u --rate 5M --time 0.3 --latency --latency-idle 0.1 \
	-p "$P" 127.0.0.1
eq "table: exit status" "$RC" 0
check "table: the idle line" grep -Eq '^latency idle  : [0-9]+ sent, [0-9]+ answered, [0-9]+ lost; rtt min ' "$OUT"
check "table: the loaded line" grep -Eq '^latency loaded: [0-9]+ sent, ' "$OUT"
check "table: responsiveness" grep -Eq '^latency: [-+][0-9.]+ ms under load \(p50\), responsiveness [0-9]+ RPM' "$OUT"
run_t 30 "$GPUT" -u --rate 5M --time 0.3 --latency --latency-idle 0.1 \
	--link 100M --queue-bytes 125000 -p "$P" 127.0.0.1
check "--link --queue-bytes: the expected loaded rtt (idle p50 + 10 ms)" \
	grep -Eq '^latency: expected loaded rtt [0-9.]+ ms \(idle p50 [0-9.]+ \+ 10\.00 to drain 125000 bytes of queue at 100\.00 Mbit/s\), measured p50 [0-9.]+$' "$OUT"

# --- ^C in the idle phase: exit 130 at once, valid JSON, the partner ends
"$GPUT" --time 1 --latency --latency-idle 20 --json -p "$P" 127.0.0.1 \
	>"$T_TMP/int.json" 2>"$T_TMP/int.err" &
CPID=$!
T_PIDS="$T_PIDS $CPID"
if wait_for_line "$D_LOG" 'start: tcp, partner receives for 1.000 s' 10; then
	kill -INT "$CPID"
	wait_until 5 sh -c "! kill -0 $CPID 2>/dev/null" || fail "^C in the idle phase: gput ended within 5 s"
	wait "$CPID"
	eq "^C in the idle phase: exit 130" "$?" 130
	check "^C in the idle phase: valid JSON that says so" jqe \
		'.interrupted == true and .error == "interrupted"' "$T_TMP/int.json"
else
	fail "^C in the idle phase: the partner logs the session's start"
fi

# --- usage errors: one line, exit 2
usage_err() {
	run_t 5 "$GPUT" "${@:2}"
	eq "usage: $1" "$RC:$(wc -l <"$ERR"):$(cat "$ERR")" "2:1:gput: $1"
}
usage_err "--latency needs --time (the probes' memory is sized by the run's length)" --latency host
usage_err "--latency-idle, --latency-interval and --queue-bytes need --latency" --time 1 --latency-idle 2 host
usage_err "--latency-interval: '0' is out of range (1 to 1000)" --time 1 --latency --latency-interval 0 host
usage_err "--latency-interval: '1001' is out of range (1 to 1000)" --time 1 --latency --latency-interval 1001 host
usage_err "--latency-idle: at most 60 seconds" --time 1 --latency --latency-idle 61 host
usage_err "--queue-bytes needs --link (the queue drains at its rate)" --time 1 --latency --queue-bytes 100000 host
usage_err "--latency: more than 1000000 probes; raise --latency-interval or shorten --time" --time 86400 --latency --latency-interval 1 host
usage_err "--latency probes a partner that echoes: not with -m" -u -m 239.1.2.3 --time 1 --latency host
usage_err "--same-clock applies to UDP or --latency" --same-clock --time 1 host

# --- the echo cannot reflect or amplify. Forged first requests from
# another port of the client's address (one that does not echo the
# cookie: a UDP service's) get one cookie, smaller than they are, and no
# echo; from a privileged port, nothing; the client's own probe socket,
# which echoes the cookie, is validated and echoed
start_daemon --once || { fail "daemon announces its port"; t_done; }
run_t 60 "$CTLPEER" client "$D_PORT" hello latency=10000,0 params=udp,recv,100,1000 \
	ready echoport probes=3,forged probes=3,badnonce probes=2,other probes=3,lowport \
	validate probes=5,ok probes=3,stranger \
	probes=2,big probes=2,short probes=200,ok closed
eq "attack: the scripted client ran" "$RC" 0
[ "$RC" -eq 0 ] || cat "$ERR"
ln() { sed -n "s/^ok probes $1 sent //p" "$OUT"; }
eq "forged first requests from another port: one cookie (44 bytes), no echo" "$(ln forged)" "3 echoes 0 min 0 max 0 cookies 1"
check "the client's probe socket echoed the cookie: validated" grep -q '^ok validate after [0-9]* requests$' "$OUT"
eq "a wrong nonce: nothing back" "$(ln badnonce)" "3 echoes 0 min 0 max 0 cookies 0"
eq "another address (127.0.0.2), right nonce: nothing back" "$(ln other)" "2 echoes 0 min 0 max 0 cookies 0"
eq "a first request from a privileged port of the client's address: nothing back" "$(ln lowport)" "3 echoes 0 min 0 max 0 cookies 0"
eq "the client's probes: every one back, 48 bytes as sent" "$(sed -n 's/^ok probes ok sent 5 //p' "$OUT")" "echoes 5 min 48 max 48 cookies 0"
eq "another port of the proven address: nothing back" "$(ln stranger)" "3 echoes 0 min 0 max 0 cookies 0"
eq "1400 bytes: nothing back (no reply larger or smaller than 48)" "$(ln big)" "2 echoes 0 min 0 max 0 cookies 0"
eq "20 bytes: nothing back" "$(ln short)" "2 echoes 0 min 0 max 0 cookies 0"
BURST=$(sed -n 's/^ok probes ok sent 200 echoes \([0-9]*\) min 48 max 48 cookies 0$/\1/p' "$OUT")
check "a burst of 200: cut to the bucket (1..199 back, each 48 bytes)" \
	test -n "$BURST" -a "${BURST:-0}" -ge 1 -a "${BURST:-200}" -lt 200
CLOSED=$(sed -n 's/^ok closed echoes \([0-9]*\) then \([0-9]*\)$/\1 \2/p' "$OUT")
check "after the session the echo's port is closed: 5 more probes, no echo" \
	test -n "$CLOSED" -a "${CLOSED#* }" = 0
wait_for_line "$D_LOG" 'echo: [0-9]+ requests before the return path' 10 || fail "the partner logs its echo's counts"
LOG=$(sed -n 's/.*echo: \([0-9]*\) requests before the return path was validated (\([0-9]*\) cookies sent); \([0-9]*\) probes received, \([0-9]*\) echoed, \([0-9]*\) over the rate, \([0-9]*\) from strangers, \([0-9]*\) malformed, \([0-9]*\) unsent$/\1 \2 \3 \4 \5 \6 \7 \8/p' "$D_LOG")
read -r UNV COOK RCV ECH OVR STR MAL UNS <<<"$LOG"
VREQ=$(sed -n 's/^ok validate after \([0-9]*\) requests$/\1/p' "$OUT")
eq "before validation: the 3 forged and the client's requests, 2 cookies (one per 200 ms)" \
	"${UNV:-} ${COOK:-}" "$((3 + ${VREQ:-0})) 2"
E=${CLOSED% *}     # echoes of probes sent after the close, before the session ended
# the attack arrived (else this test proves nothing): the partner counted it
eq "the partner saw every stranger's probe (2 other address + 3 privileged port + 3 other port)" "${STR:-}" 8
eq "the partner saw every malformed probe (3 nonce + 2 big + 2 short)" "${MAL:-}" 7
eq "over the rate: exactly the burst's dropped" "${OVR:-}" "$((200 - ${BURST:-0}))"
# after the close, probes go at half the agreed rate: each that arrived
# before the session ended was echoed, and its echo counted
eq "received: every probe before the close (the 3 from a privileged port too), and the echoed ones after" "${RCV:-}" \
	"$((3 + 2 + 3 + 5 + 3 + 2 + 2 + 200 + ${E:-0}))"
eq "echoed: the 5, the burst's and those before the session ended" "${ECH:-}" \
	"$((5 + ${BURST:-0} + ${E:-0}))"
eq "no echo failed" "${UNS:-}" 0
t_done
