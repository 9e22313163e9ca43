#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Live tests: the partner's own limits hold against clients that try to
# stretch them: deadlines a stalled client cannot extend. Every loop and
# wait is bounded.
. "$(dirname "$0")/lib.sh"

need_ctlpeer
log_has() { sed -E 's/^[0-9T:Z-]+ gput\[[0-9]+\]: /gput: /' "$D_LOG" | grep -Eq -- "$1"; }
# end_s PATTERN: the seconds of the first logged end line matching PATTERN
end_s() { sed -n "s/.*end: .*, \([0-9.]*\) s: $1.*/\1/p" "$D_LOG" | head -n 1; }
# first_window S W: the partner's cut at S s came from the first W-second
# window it names ("moved N bytes in W s"): not before a whole window, and
# before a second one could pass. A loaded host runs the once-a-second check
# late; a check that missed the first window would cut at 2W or later.
first_window() { awk -v s="${1:-99}" -v w="${2:-0}" 'BEGIN { exit !(w > 0 && s >= w && s < 2 * w) }'; }

# --- a TCP client that never reads its data: the partner's sender ends
# 10 s after its data stopped moving (checked each second), not when the
# client gives up (it waited 30 s before)
start_daemon || { fail "daemon announces its port"; t_done; }
P=$D_PORT
for L in 1000 1048576; do
	"$CTLPEER" client "$P" hello params=tcp,send,100000,$L ready data start eof \
		>"$T_TMP/nr" 2>&1 &
	NR=$!
	T_PIDS="$T_PIDS $NR"
	check "-l $L, client never reads: the partner ends the test" \
		wait_until 25 log_has "end: tcp send, [0-9]+ bytes.*too slow: the test's data moved [0-9]+ bytes in 10 s, this partner needs at least 10000$"
	S=$(end_s "too slow")
	W=$(sed -n 's/.*too slow: the test.s data moved [0-9]* bytes in \([0-9]*\) s,.*/\1/p' "$D_LOG" | head -n 1)
	check "-l $L, client never reads: cut at $S s, in the first ${W:-?} s window of no progress" \
		first_window "$S" "$W"
	check "-l $L, client never reads: told so" wait_for_line "$T_TMP/nr" '^ok eof' 5
	kill "$NR" 2>/dev/null; wait "$NR" 2>/dev/null
	: >"$D_LOG"
done

# --- a UDP receive test whose sender dribbles (a 1000-byte datagram every
# 2.5 s, 400 bytes/s, under a schedule that promised 1000 bytes/s) ends at
# its window (10 s plus its idle timeout, 3 s), not at its length
"$CTLPEER" client "$P" hello params=udp,recv,100,1000,1000000 ready data start \
	dribble=2500 error >"$T_TMP/dr" 2>&1 &
DR=$!
T_PIDS="$T_PIDS $DR"
check "UDP dribbler: told why" wait_for_line "$T_TMP/dr" \
	"^ok error too slow: the test's data moved [0-9]+ bytes in 13 s, this partner needs at least 10000$" 25
# its window: 10 s and the idle timeout the partner names (13 s); the
# datagrams it had sent: one each 2.5 s until the cut the partner logs
S=$(end_s "too slow")
check "UDP dribbler: cut at $S s, in the first 13 s window" first_window "$S" 13
check "UDP dribbler: it had sent one datagram each 2.5 s until the cut ($(awk '$2 == "dribble" { print $3 }' "$T_TMP/dr"))" \
	awk -v s="${S:-0}" '$1 == "ok" && $2 == "dribble" { n = $3 } END { exit !(n >= 4 && n <= int(s / 2.5) + 1) }' "$T_TMP/dr"
wait "$DR" 2>/dev/null
run_t 10 "$CTLPEER" client "$P" hello params=udp,recv,100,100,1000000 error
eq "a schedule below the minimum rate: refused at once" "$(tail -n 1 "$OUT")" \
	"ok error refused: the test's schedule moves 100 bytes/s, this partner needs at least 1000 bytes/s of every test"
kill "$D_PID"; wait "$D_PID" 2>/dev/null

# --- a client that stops reading its control connection (SIGSTOP) while the
# partner sends UDP and 129 INTERVALs a tenth of a second: --max-time 5 and --time 4 still
# end the test (the watcher never waits on the control connection). The
# client stays stopped until the partner has logged its end, so nothing of
# the client's ends it: the reason must be one of the partner's own
# deadlines, --time's (ok) or --max-time's, never the control connection
# (a partner blocked on it would end by TCP's user timeout, or not at all).
# How late a starved host lets the watcher notice is no measure of gput: at
# 5% of one CPU (a cgroup quota) the partner logged 9.7 s, --max-time.
start_daemon --max-time 5 || { fail "daemon with --max-time 5 starts"; t_done; }
"$GPUT" --interval 0.1 --time 4 -u -r -P 128 -l 100 -g 2000 -p "$D_PORT" 127.0.0.1 \
	>"$T_TMP/stopped.out" 2>"$T_TMP/stopped.err" &
SC=$!
T_PIDS="$T_PIDS $SC"
check "stopped client: its test runs (an interval line)" \
	wait_for_line "$T_TMP/stopped.out" '^[l1] +0\.00- 0\.10 s' 10
kill -STOP "$SC"
check "stopped client: the partner's test ends" wait_until 60 log_has "end: udp send"
S=$(sed -n 's/.*end: udp send.*, \([0-9.]*\) s: .*/\1/p' "$D_LOG" | head -n 1)
check "stopped client: ended by its own deadline, --time 4 or --max-time 5 ($S s)" \
	log_has "end: udp send, .*, [0-9.]+ s: (ok|stopped at this partner.s limit of 5 s per test \(--max-time\))$"
kill -CONT "$SC"; kill "$SC" 2>/dev/null; wait "$SC" 2>/dev/null
kill "$D_PID"; wait "$D_PID" 2>/dev/null

# --- --max-rate holds over any 100 ms: at most the rate's 100 ms plus
# 10 ms (bursts of 5 ms at most, a late sender 5 ms behind at most), here
# 137500 bytes at 10 Mbit/s. Measured on the client's arrival times
# (--log), over every window that starts at an arrival.
maxwin() {      # FILE: the most bytes that arrived within any 100 ms
	grep -v '^#' "$1" | sort -k2,2g | awk '{ t[n] = $2; b[n] = $5; n++ }
	END { for (i = 0; i < n; i++) { s += b[i]
		while (t[i] - t[j] >= 0.1) { s -= b[j]; j++ }
		if (s > m) m = s }
	print m + 0 }'
}
# within RC BYTES: exit 0, and between 100000 (the rate was kept) and 137500
within() { [ "$1" -eq 0 ] && [ "${2:-0}" -gt 100000 ] && [ "${2:-0}" -le 137500 ]; }
start_daemon --max-rate 10M || { fail "daemon with --max-rate starts"; t_done; }
run_t 10 "$GPUT" -u -r -l 1472 --rate 10M --burst 1000000 -n 1000000 -p "$D_PORT" 127.0.0.1
eq "--burst 1000000 under --max-rate 10M: refused" "$RC $(cat "$ERR")" \
	"1 gput: partner 127.0.0.1 port $D_PORT: partner refused the test: refused: UDP bursts of 1472000000 bytes (--burst 1000000, -l 1472, 1 streams): this partner sends at most 6250 bytes at once, 5 ms at its --max-rate"
run_t 10 "$GPUT" -u -r -P 4 -l 1472 --rate 2500k --burst 2 -n 100 -p "$D_PORT" 127.0.0.1
eq "four streams' bursts of 2 together: refused" "$RC $(sed 's/.*refused: //' "$ERR")" \
	"1 UDP bursts of 11776 bytes (--burst 2, -l 1472, 4 streams): this partner sends at most 6250 bytes at once, 5 ms at its --max-rate"
run_t 30 "$GPUT" -u -r -l 1472 --rate 10M --burst 4 -n 1000 --log "$T_TMP/rate.log" \
	-p "$D_PORT" 127.0.0.1 -w 1024
M=$(maxwin "$T_TMP/rate.log")
check "--burst 4 at the rate: exit 0, at most 137500 bytes in any 100 ms ($M)" \
	within "$RC" "$M"
# the partner's sender held up 300 ms mid-run (SIGSTOP), once data flows
# (the client's first 100 ms interval carried some): it moves its schedule
# on rather than send the 375 kB it fell behind back to back
"$GPUT" -u -r -l 1472 --rate 10M -n 2000 --interval 0.1 --log "$T_TMP/late.log" -p "$D_PORT" \
	127.0.0.1 -w 4096 >"$T_TMP/late.out" 2>&1 &
LC=$!
T_PIDS="$T_PIDS $LC"
S=
if wait_until 10 eval 'S=$(pgrep -P "$D_PID" | head -n 1); [ -n "$S" ]' &&
    wait_for_line "$T_TMP/late.out" '^l +0\.00- 0\.10 s +[1-9][0-9]* bytes' 10; then
	kill -STOP "$S"; sleep 0.3; kill -CONT "$S"   # the fault itself: 300 ms
fi
wait "$LC"; LRC=$?
M=$(maxwin "$T_TMP/late.log")
check "a sender held up 300 ms: exit 0, at most 137500 bytes in any 100 ms ($M)" \
	within "$LRC" "$M"
check "a sender held up 300 ms: it was held up (a 300 ms gap in its arrivals)" \
	awk '!/^#/ { if (p != "" && $2 - p > 0.25) g = 1; p = $2 } END { exit !g }' "$T_TMP/late.log"
kill "$D_PID"; wait "$D_PID" 2>/dev/null

# --- lock-outs. Handshakes are apart from tests: four idle connections
# (each cut 3 s after HELLO and reopened) hold four of the ten
# handshake places, none of the four tests' (the attack is from one
# address here, so --max-per-source is lifted as for four addresses). The
# attack runs until the real clients are done (a file says when), however
# long a loaded host takes to serve them.
start_daemon --max-sessions 4 --max-per-source 1000 || { fail "daemon starts"; t_done; }
ATTACKERS=""
for a in 1 2 3 4; do
	(while [ ! -e "$T_TMP/attack.end" ]; do
		timeout 6 "$CTLPEER" client "$D_PORT" hello hold >>"$T_TMP/idle.$a" 2>&1
	done) &
	ATTACKERS="$ATTACKERS $!"
	T_PIDS="$T_PIDS $!"
done
check "idle attack: four connections held" wait_until 5 eval \
	'[ "$(cat "$T_TMP"/idle.* 2>/dev/null | grep -c "^ok hold")" -ge 4 ]'
served=0
for i in $(seq 10); do
	run_t 20 "$GPUT" -n 100 -l 1000 -p "$D_PORT" 127.0.0.1
	[ "$RC" -eq 0 ] && served=$((served + 1))
done
eq "idle attack: a real client served 10 times of 10" "$served" 10
check "idle attack: the idle ones cut at the 3 s grace" wait_until 8 \
	log_has "bad request: timed out waiting for a PARAMS message$"
# shellcheck disable=SC2086 # the list of pids
check "idle attack: still under way after the real clients" kill -0 $ATTACKERS
: >"$T_TMP/attack.end"
kill "$D_PID"; wait "$D_PID" 2>/dev/null

# --- one address holds at most 2 (--max-per-source, default): four UDP
# receive tests that dribble hold two places, the other two are refused,
# and a client from another address (::1) is served meanwhile
start_daemon || { fail "daemon starts"; t_done; }
for a in 1 2 3 4; do
	"$CTLPEER" client "$D_PORT" hello params=udp,recv,100,1000,1000000 ready data \
		start dribble=2500 error >"$T_TMP/ds.$a" 2>&1 &
	T_PIDS="$T_PIDS $!"
done
check "dribblers: two refused at once" wait_until 5 eval \
	'[ "$(cat "$T_TMP"/ds.* | grep -c "^ctlpeer: hello: ERROR instead of HELLO: partner busy: 2 tests or handshakes from 127.0.0.1, at most 2 (--max-per-source)$")" -eq 2 ]'
check "dribblers: two tests running" wait_until 5 eval \
	'[ "$(cat "$T_TMP"/ds.* | grep -c "^ok start")" -eq 2 ]'
if ping -6 -c 1 -W 1 ::1 >/dev/null 2>&1 || "$GPUT" -6 -n 1 -p "$D_PORT" ::1 >/dev/null 2>&1; then
	run_t 20 "$GPUT" -6 -n 100 -l 1000 -p "$D_PORT" ::1
	eq "dribblers: a client from ::1 served meanwhile" "$RC $(field 1 2)" "0 100000"
else
	skip "a client from ::1 (no IPv6 loopback)"
fi
run_t 20 "$GPUT" -n 100 -l 1000 -p "$D_PORT" 127.0.0.1
eq "dribblers: a third from their address refused" "$RC $(cat "$ERR")" \
	"1 gput: partner 127.0.0.1 port $D_PORT: partner refused the test: partner busy: 2 tests or handshakes from 127.0.0.1, at most 2 (--max-per-source)"
check "dribblers: both cut as too slow" wait_until 20 eval \
	'[ "$(cat "$T_TMP"/ds.* | grep -c "^ok error too slow")" -eq 2 ]'
run_t 20 "$GPUT" -n 100 -l 1000 -p "$D_PORT" 127.0.0.1
eq "dribblers cut: their address served again" "$RC $(field 1 2)" "0 100000"
kill "$D_PID"; wait "$D_PID" 2>/dev/null

# --- one memory budget per test, 16 x --max-buffer + 32 MiB (96 MiB by
# default), counted before anything is taken; the partner's session's peak
# (VmHWM) for the largest allowed requests stays within it (and the idle
# partner's own pages, which the session shares)
start_daemon || { fail "daemon starts"; t_done; }
run_t 20 "$GPUT" -u -r -P 128 -l 32768 --batch 128 --rate 1M --time 4 -p "$D_PORT" 127.0.0.1
eq "-P 128 --batch 128 -l 32768: refused, with its memory" "$RC $(cat "$ERR")" \
	"1 gput: partner 127.0.0.1 port $D_PORT: partner refused the test: refused: memory: the test takes 580993024 bytes, this partner allows 100663296 (16 x --max-buffer + 32 MiB); a stream: stack 262144, data 65536, batch 4194304, intervals 0"
run_t 20 "$GPUT" -c -P 16 -l 4M --time 4 -p "$D_PORT" 127.0.0.1
check "-c -P 16 -l 4M: refused for memory" grep -q "refused: memory: the test takes" "$ERR"
BASE=$(awk '/^VmRSS:/ { print $2 }' "/proc/$D_PID/status")
# hwm CMD...: run the client, follow its session's VmHWM (kB) to its end
hwm() {
	"$@" >"$T_TMP/hwm.out" 2>&1 &
	_c=$!; _s=
	wait_until 10 eval '_s=$(pgrep -P "$D_PID" | head -n 1); [ -n "$_s" ]'
	H=0
	while _v=$(awk '/^VmHWM:/ { print $2 }' "/proc/$_s/status" 2>/dev/null) && [ -n "$_v" ]; do
		H=$_v; sleep 0.02       # the sampling period; the loop ends with the session
	done
	wait "$_c"
}
# (the UDP run paced for 2 s: a session that ends within a sampling period
# of a loaded host is never read; its memory is the same for any length)
for req in "-c -P 6 -l 4M -n 50" "-u -r -P 16 -l 32768 --batch 64 --time 2 --rate 16M -w 4096"; do
	hwm "$GPUT" $req -p "$D_PORT" 127.0.0.1
	RCH=$?
	check "$req: served, the session's peak $H kB within 98304 + $BASE kB" \
		[ "$RCH" -eq 0 -a "$H" -gt 0 -a "$H" -le $((98304 + BASE)) ]
done
kill "$D_PID"; wait "$D_PID" 2>/dev/null
t_done
