#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Live tests: the partner faces hostile clients, the client a hostile partner.
# Each attack of the partner-hardening issue, on loopback (and, as root, in a
# network namespace of the test's own): every wait has a deadline.
. "$(dirname "$0")/lib.sh"

need_ctlpeer
start_daemon --max-sessions 2 --max-per-source 1000 || { fail "daemon announces its port"; t_done; }
P=$D_PORT
sessions() { pgrep -P "$D_PID" | wc -l; }
no_sessions() { [ "$(sessions)" -eq 0 ]; }
log_has() { sed -E 's/^[0-9T:Z-]+ gput\[[0-9]+\]: /gput: /' "$D_LOG" | grep -Eq -- "$1"; }

# --- privileges: started as root, the partner runs as nobody
if [ "$(id -u)" -eq 0 ]; then
	eq "root drops to nobody" "$(awk '/^Uid:/ { print $2, $3, $4 }' "/proc/$D_PID/status")" \
		"$(id -u nobody) $(id -u nobody) $(id -u nobody)"
	run_t 5 "$GPUT" -i -p 0 --user no-such-user-here
	eq "--user unknown: exit 1 and message" "$RC $(cat "$ERR")" \
		"1 gput: --user no-such-user-here: no such user"
else
	skip "privilege drop (not root)"
fi

# --- session cap: two clients' tests (which send nothing: cut 10 s later)
# hold both sessions; the next client is told at once that the partner is
# busy (one address may hold any number here: --max-per-source 1000)
"$CTLPEER" client "$P" hello params=tcp,recv,1000,1000 ready data start hold >"$T_TMP/h1" 2>&1 & H1=$!
"$CTLPEER" client "$P" hello params=tcp,recv,1000,1000 ready data start hold >"$T_TMP/h2" 2>&1 & H2=$!
T_PIDS="$T_PIDS $H1 $H2"
check "two sessions held" wait_until 5 eval 'grep -q "^ok hold" "$T_TMP/h1" && grep -q "^ok hold" "$T_TMP/h2"'
for i in $(seq 98); do "$CTLPEER" client "$P" error >>"$T_TMP/busy" 2>&1 & done
wait_until 20 eval '[ "$(grep -c "^ok error" "$T_TMP/busy")" -eq 98 ]'
eq "98 more clients: all told busy" "$(grep -c '^ok error partner busy: 2 tests running, at most 2 (--max-sessions)$' "$T_TMP/busy")" 98
eq "98 more clients: never more than 2 sessions" "$(sessions)" 2
run_t 10 "$GPUT" -n 10 -p "$P" 127.0.0.1
eq "a real client: busy, exit 1" "$RC $(cat "$ERR")" \
	"1 gput: partner 127.0.0.1 port $P: partner refused the test: partner busy: 2 tests running, at most 2 (--max-sessions)"
# the log is bounded (5 lines, then 2 a second, per reason); once the
# bucket refills, the next refusal's line follows the count of the ones
# not logged: lines + suppressed = refusals
more=0
books() { echo $(( $(grep -c 'refused: partner busy' "$D_LOG") +
	$(sed -n 's/.*refused: \([0-9]*\) similar messages suppressed (--max-sessions)$/\1/p' "$D_LOG" |
	awk '{ s += $1 } END { print s + 0 }') )); }
busy_again() { "$CTLPEER" client "$P" error >/dev/null 2>&1 && more=$((more + 1)) &&
	[ "$(books)" -eq "$((99 + more))" ]; }
check "refusals past the log's bound: their count logged" wait_until 20 busy_again
check "... in a line of its own" grep -q 'refused: [0-9]* similar messages suppressed (--max-sessions)$' "$D_LOG"
eq "each refusal logged or counted once" "$(books)" "$((99 + more))"
kill "$H1" "$H2" 2>/dev/null; wait "$H1" "$H2" 2>/dev/null
check "held sessions end with their clients" wait_until 15 no_sessions

# --- a client that dribbles one byte a second is cut 3 s after HELLO (the
# grace for its PARAMS), not kept alive by each byte: a v4 PARAMS header
# (216 bytes to follow) by 8 s, then its payload a byte at a time, 26 s in all
(exec 3<>"/dev/tcp/127.0.0.1/$P" || exit
for b in G P U T '\x04' '\x01' '\x00' '\xd8' $(printf 'x %.0s' $(seq 18)); do
	printf "$b" >&3 || exit; sleep 1       # the dribble's pace, not a synchronisation
done) 2>/dev/null &
DR=$!
T_PIDS="$T_PIDS $DR"
check "dribbler: session cut" wait_until 20 eval \
	'log_has "bad request: timed out waiting for (the rest of the|a) PARAMS message$"'
check "dribbler: session gone before its bytes end" wait_until 5 no_sessions
check "dribbler: still dribbling when cut" kill -0 "$DR"
kill "$DR" 2>/dev/null; wait "$DR" 2>/dev/null

# --- limits named in the refusal
run_t 10 "$GPUT" -c -l 64M -n 1 -p "$P" 127.0.0.1
eq "-l 64M -c: refused by --max-buffer" "$RC $(cat "$ERR")" \
	"1 gput: partner 127.0.0.1 port $P: partner refused the test: refused: a 67108864-byte buffer is larger than this partner allows, 4194304 bytes (--max-buffer)"

# --- a remote's -w never passes the host's limits (a 1 GiB request)
RMAX=$(cat /proc/sys/net/core/rmem_max) WMAX=$(cat /proc/sys/net/core/wmem_max)
run_t 20 "$GPUT" -v -n 100 -p "$P" 127.0.0.1 -w 1048576
eq "-w 1 GiB: exit 0" "$RC" 0
BUFS=$(sed -n 's/^1: data socket buffers: send \([0-9]*\), receive \([0-9]*\) bytes.*/\1 \2/p' "$OUT")
check "-w 1 GiB: partner's buffers within wmem_max/rmem_max ($BUFS; $WMAX $RMAX)" \
	awk -v b="$BUFS" -v w="$WMAX" -v r="$RMAX" 'BEGIN { split(b, x, " "); exit !(x[1] > 0 && x[1] <= 2 * w && x[2] > 0 && x[2] <= 2 * r) }'

# --- the control connection closes mid-transfer: the partner's sender stops
# at once (TCP: it fills the socket; UDP: the client's data socket stays open)
for proto in tcp udp; do
	: >"$T_TMP/cc"
	"$CTLPEER" client "$P" hello params=$proto,send,100000000,1000 ready data start close hold \
		>"$T_TMP/cc" 2>&1 &
	CC=$!
	T_PIDS="$T_PIDS $CC"
	check "$proto: control closed mid-send: transfer started" wait_for_line "$T_TMP/cc" '^ok close$' 10
	check "$proto: control closed mid-send: the partner's session ends" wait_until 5 no_sessions
	check "$proto: control closed mid-send: logged with the bytes sent" \
		log_has "end: $proto send, [0-9]+ bytes, [0-9]+ calls, [0-9.]+ s: the client closed the control connection$"
	kill "$CC" 2>/dev/null; wait "$CC" 2>/dev/null
done

# --- a partner in a network namespace of the test's own (needs root): the
# counters there (/proc/net/snmp) count only the test's traffic, and nft
# rules there touch nothing else. N_PID, N_PORT, N_LOG; NX runs a command there.
NSP=gput-t$$n
NX=()
if [ "$(id -u)" -eq 0 ] && t_netns "$NSP"; then
	M_PID=$D_PID M_LOG=$D_LOG
	D_WRAP=(ip netns exec "$NSP")
	if start_daemon; then
		NX=("${D_WRAP[@]}") N_PID=$D_PID N_PORT=$D_PORT N_LOG=$D_LOG
	else
		fail "a partner in $NSP"
	fi
	D_WRAP=() D_PID=$M_PID D_LOG=$M_LOG
fi
n_log_has() { D_LOG=$N_LOG log_has "$@"; }

# --- data without the proof: a wrong nonce is no proof. The partner must
# send nothing at all, not one datagram, to an unproven client: in its
# namespace the only UDP datagram sent is the client's own proof.
if [ "${#NX[@]}" -gt 0 ]; then
	out0=$(snmp_udp OutDatagrams "${NX[@]}")
	timeout 20 "${NX[@]}" "$CTLPEER" client "$N_PORT" hello params=udp,send,1000,100 ready \
		data=bad error >"$T_TMP/rc.out" 2>&1
	out1=$(snmp_udp OutDatagrams "${NX[@]}")
	eq "UDP -r with a wrong nonce: one datagram in all, the client's own proof" \
		"datagrams sent: $((out1 - out0))" "datagrams sent: 1"
	check "UDP -r with a wrong nonce: refused after the handshake deadline" grep -q \
		"^ok error data connection: timed out waiting for the client's proof datagram of stream 1 (1 others ignored)$" "$T_TMP/rc.out"
else
	skip "reflection (needs root for a network namespace)"
fi
run_t 20 "$CTLPEER" client "$P" hello params=tcp,recv,10,1000 ready data=bad error
eq "TCP with a wrong nonce: refused" "$(sed -n 's/^ok error //p' "$OUT")" \
	"data connection: timed out waiting for the data connection"

# --- third-party datagrams and forged markers, both ways: the data sockets
# are connected to the partner's, so the kernel drops the strangers'. In a
# namespace of the test's own, whose UDP counters see only this traffic:
# every stranger's datagram is one more "NoPorts" (no socket took it), all
# 201 of them, sent while the receiver's data socket was still open (ss
# finds it after the last one); an attack that could not run (no port, the
# transfer over, datagrams taken by a socket) fails here. The stream is
# longer than any wait here and ends by ^C once the strangers are counted:
# its end is the test's to choose, not a race with a loaded host.
blast() {       # PORT: 200 datagrams of 100 bytes and a forged end marker
	for i in $(seq 200); do printf '%0100d' 0 >"/dev/udp/127.0.0.1/$1"; done 2>/dev/null
	printf 'GPUE\001\001\000\000\000\000\000\000\000\000\000\001%020d' 0 >"/dev/udp/127.0.0.1/$1" 2>/dev/null
}
if [ "${#NX[@]}" -gt 0 ]; then
	for dir in -r -t; do
		"${NX[@]}" "$GPUT" -v -u $dir -g 2000 -n 100000 -l 100 -p "$N_PORT" 127.0.0.1 -w 1024 \
			>"$T_TMP/fo" 2>"$T_TMP/fe" &
		FC=$!
		port= n0= n1= open=0
		if wait_for_line "$T_TMP/fe" '^gput: data udp ' 10; then
			if [ "$dir" = -r ]; then
				port=$(sed -n 's/^gput: data udp [^ ]* port \([0-9]*\) .*/\1/p' "$T_TMP/fe")
			else
				port=$(sed -n 's/^gput: data udp .* -> [^ ]* port \([0-9]*\),.*/\1/p' "$T_TMP/fe")
			fi
			n0=$(snmp_udp NoPorts "${NX[@]}")
			"${NX[@]}" bash -c "$(declare -f blast); blast $port"
			n1=$(snmp_udp NoPorts "${NX[@]}")
			open=$("${NX[@]}" ss -Hanu "sport = :$port" | wc -l)
		fi
		kill -INT "$FC" 2>/dev/null
		wait "$FC"
		eq "UDP $dir with strangers: ^C ends it (exit 130)" "$?" 130
		eq "UDP $dir with strangers: all 201 dropped by the kernel (NoPorts), the receiver's port ${port:-unknown} open after them" \
			"$((${n1:-0} - ${n0:-0})) $open" "201 1"
		rx=$( [ "$dir" = -r ] && echo l || echo 1 ) tx=$( [ "$dir" = -r ] && echo 1 || echo l )
		RB=$(awk -v t="$rx" '$1 == t { print $2 }' "$T_TMP/fo")
		SB=$(awk -v t="$tx" '$1 == t { print $2 }' "$T_TMP/fo")
		# the stream's datagrams only: whole 100-byte datagrams, no more
		# than were sent (a stranger's 201 would add 20100 bytes)
		check "UDP $dir with strangers: the receiver counted the stream only ($RB of $SB bytes sent)" \
			awk -v r="$RB" -v s="$SB" 'BEGIN { exit !(r > 0 && r <= s && r % 100 == 0) }'
		# an interrupted receiver's window still closes: its time is the
		# time it received for, not 0
		check "UDP $dir with strangers: the interrupted receiver's Real s > 0" \
			awk -v t="$rx" '$1 == t && $3 > 0 { ok = 1 } END { exit !ok }' "$T_TMP/fo"
		check "UDP $dir with strangers: marked interrupted" \
			grep -qx 'interrupted: the lines above count what was moved until the stop' "$T_TMP/fo"
	done
else
	skip "third-party datagrams (needs root for a namespace whose UDP counters are the test's)"
fi

# --- a partner that sends more than agreed, or results that cannot be
fake() {        # GPUT-ARGS -- STEPS: the client's stderr into ERR
	_args=()
	while [ "$1" != "--" ]; do _args+=("$1"); shift; done
	shift
	"$CTLPEER" partner "$@" >"$T_TMP/fp.out" 2>&1 &
	_fp=$!
	T_PIDS="$T_PIDS $_fp"
	wait_for_line "$T_TMP/fp.out" '^ok listen port ' 5 || return 1
	_port=$(sed -n 's/^ok listen port //p' "$T_TMP/fp.out")
	run_t 30 "$GPUT" "${_args[@]}" -p "$_port" 127.0.0.1
	FPORT=$_port
	kill "$_fp" 2>/dev/null; wait "$_fp" 2>/dev/null
}
fake -r -n 10 -l 1000 -- sendhello getparams sendready acceptdata put=start sendmore hold
eq "partner sends more than agreed: exit 1 and why" "$RC $(cat "$ERR")" \
	"1 gput: partner 127.0.0.1 port $FPORT: the sender sent more than the agreed bytes"
fake -c -n 10 -l 1000 -- sendhello getparams sendready acceptdata put=start drain put=badresult hold
eq "impossible RESULT: exit 1, nothing printed" "$RC $(wc -c <"$OUT") $(cat "$ERR")" \
	"1 0 gput: partner 127.0.0.1 port $FPORT: the partner's results do not fit the test: it reports more bytes that differ from the pattern than bytes"

# --- ^C: the run ends at once with what it measured, marked, exit 130
"$GPUT" -v -r -n 100000000 -l 1448 -p "$P" 127.0.0.1 >"$T_TMP/io" 2>"$T_TMP/ie" &
IC=$!
# ^C once data has arrived: the client's data socket counts received bytes
ic_moved() {
	_p=$(sed -n 's/^gput: data tcp [^ ]* port \([0-9]*\) .*/\1/p' "$T_TMP/ie")
	[ -n "$_p" ] && ss -Htin "sport = :$_p" | grep -q 'bytes_received:[1-9]'
}
if wait_for_line "$T_TMP/ie" '^gput: data tcp ' 10 && wait_until 10 ic_moved; then
	kill -INT "$IC"
	check "^C: the client ends" wait_until 5 eval '! kill -0 $IC 2>/dev/null'
	wait "$IC"; IRC=$?
	eq "^C: exit 130" "$IRC" 130
	eq "^C: both lines" "$(grep -c '^[l1] ' "$T_TMP/io")" 2
	check "^C: marked" grep -qx 'interrupted: the lines above count what was moved until the stop' "$T_TMP/io"
	check "^C: partial Bytes" awk '$1 == "l" && $2 > 0 && $2 < 144800000000 { ok = 1 } END { exit !ok }' "$T_TMP/io"
	check "^C: the partner logged the stop" wait_until 5 eval 'log_has "end: tcp send, [0-9]+ bytes.*: stopped by the client$"'
else
	fail "^C: transfer started"
fi

# --- the shared secret
umask 077
head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' >"$T_TMP/key.a"
head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' >"$T_TMP/key.b"
start_daemon --key-file "$T_TMP/key.a" || fail "keyed daemon starts"
KP=$D_PORT
run_t 20 "$GPUT" --key-file "$T_TMP/key.a" -n 100 -l 1000 -p "$KP" 127.0.0.1
eq "right key: served" "$RC $(field 1 2)" "0 100000"
run_t 20 "$GPUT" --key-file "$T_TMP/key.b" -n 100 -l 1000 -p "$KP" 127.0.0.1
eq "wrong key: refused" "$RC $(cat "$ERR")" \
	"1 gput: partner 127.0.0.1 port $KP: partner refused the test: refused: authentication failed (--key-file)"
run_t 20 "$GPUT" -n 100 -l 1000 -p "$KP" 127.0.0.1
eq "no key: told to give one" "$RC $(cat "$ERR")" \
	"1 gput: partner 127.0.0.1 port $KP: the partner requires the shared secret: give it with --key-file"
run_t 20 "$GPUT" --key-file "$T_TMP/key.a" -n 100 -l 1000 -p "$P" 127.0.0.1
eq "key, partner without one: refused by the client" "$RC $(cat "$ERR")" \
	"1 gput: partner 127.0.0.1 port $P: the partner does not check the shared secret, so it cannot prove it knows it (--key-file)"
chmod 644 "$T_TMP/key.a"
run_t 5 "$GPUT" -i -p 0 --key-file "$T_TMP/key.a"
eq "key file readable by others: refused" "$RC $(cat "$ERR")" \
	"1 gput: --key-file $T_TMP/key.a: readable by others (chmod 600 it)"

# --- --allow
start_daemon --allow 10.0.0.0/8 --allow ::1 || fail "daemon with --allow starts"
run_t 20 "$GPUT" -n 10 -p "$D_PORT" 127.0.0.1
eq "--allow: 127.0.0.1 refused" "$RC $(cat "$ERR")" \
	"1 gput: partner 127.0.0.1 port $D_PORT: partner refused the test: access denied: 127.0.0.1 is not in this partner's --allow list"
run_t 20 "$GPUT" -6 -n 10 -l 100 -p "$D_PORT" ::1
eq "--allow: ::1 served" "$RC $(field 1 2)" "0 1000"
run_t 5 "$GPUT" -i --allow 10.1.2.3/8
eq "--allow with host bits: usage error" "$RC $(cat "$ERR")" \
	"2 gput: --allow: '10.1.2.3/8': host bits set (did you mean 10.0.0.0/8?)"

# --- --max-time: the partner ends a test that runs past it, and says why
start_daemon --max-time 1 || fail "daemon with --max-time starts"
run_t 30 "$GPUT" -r -n 100000000 -l 1448 -p "$D_PORT" 127.0.0.1
eq "--max-time 1: exit 1 and why" "$RC $(cat "$ERR")" \
	"1 gput: partner 127.0.0.1 port $D_PORT: partner: stopped at this partner's limit of 1 s per test (--max-time)"
run_t 10 "$GPUT" -g 1000000 -n 5 -l 100 -p "$D_PORT" 127.0.0.1
eq "--max-time 1: a paced test that cannot fit is refused" "$RC $(cat "$ERR")" \
	"1 gput: partner 127.0.0.1 port $D_PORT: partner refused the test: refused: the test's gaps alone take 4.0 s, this partner allows 1 s (--max-time)"

# --- a client that vanishes without a word (no FIN, no RST: every packet of
# its control connection dropped) while the partner sends: the partner's
# sender stops, ended by the kernel's own timers on the control connection
# (keepalive and TCP_USER_TIMEOUT, within 10 s by gput(1)): "Connection timed
# out" is their word, the judgement here. In a namespace of the test's own
# (its nft rules touch nothing else); the waits only bound a hang: a loaded
# host starts the partner late or runs its session late, the kernel's
# timers still fire on time.
if [ "${#NX[@]}" -gt 0 ] && command -v nft >/dev/null; then
	for proto in tcp udp; do
		"${NX[@]}" "$CTLPEER" client "$N_PORT" hello params=$proto,send,100000000,1000 ready \
			data start hold >"$T_TMP/v.$proto" 2>&1 &
		C=$!
		T_PIDS="$T_PIDS $C"
		wait_for_line "$T_TMP/v.$proto" '^ok hold' 30 || fail "a silent client ($proto): its test runs"
		CP=$(sed -n 's/^ok connect from port //p' "$T_TMP/v.$proto")
		VS=$(pgrep -n -P "$N_PID")      # its session, the newest child
		"${NX[@]}" nft -f - <<-EOF
		table inet vanish {
			chain in { type filter hook input priority 0; tcp sport ${CP:-0} drop; tcp dport ${CP:-0} drop; }
		}
		EOF
		t0=$(date +%s%N)
		check "a silent client ($proto): the partner's sender stops" \
			wait_until 60 eval '! kill -0 "${VS:-0}" 2>/dev/null'
		t1=$(date +%s%N)
		check "a silent client ($proto): ended by the control connection's timeout ($(( (t1 - t0) / 1000000 )) ms)" \
			n_log_has "end: $proto send, .*: control connection: Connection timed out$"
		"${NX[@]}" nft delete table inet vanish
		kill "$C"; wait "$C" 2>/dev/null
	done
else
	skip "a client that vanishes silently (needs root and nft)"
fi

# --- inetd and systemd socket activation
run_t 30 "$CTLPEER" inetd "$GPUT" -i --inetd &
IN=$!
wait_for_line "$OUT" '^ok listen port ' 5
IPORT=$(sed -n 's/^ok listen port //p' "$OUT")
"$GPUT" -n 10 -l 100 -p "$IPORT" 127.0.0.1 >"$T_TMP/in.out" 2>"$T_TMP/in.err"
eq "--inetd: served" "$? $(awk '$1 == "1" { print $2 }' "$T_TMP/in.out")" "0 1000"
wait "$IN"
check "--inetd: exits with the session, 0" grep -qx 'ok exit 0' "$OUT"
"$CTLPEER" activate "$GPUT" -i --once >"$T_TMP/act.out" 2>"$T_TMP/act.err" &
AC=$!
T_PIDS="$T_PIDS $AC"
wait_for_line "$T_TMP/act.out" '^ok listen port ' 5
APORT=$(sed -n 's/^ok listen port //p' "$T_TMP/act.out")
check "socket activation: the partner takes the socket" wait_for_line "$T_TMP/act.err" \
	"listening on 127\.0\.0\.1 port $APORT\$" 5
run_t 20 "$GPUT" -n 10 -l 100 -p "$APORT" 127.0.0.1
eq "socket activation: served" "$RC $(field 1 2)" "0 1000"
wait "$AC"
check "socket activation: --once exits 0" grep -qx 'ok exit 0' "$T_TMP/act.out"

# --- --once: one test, then exit with its status
"$GPUT" -i --once -p 0 2>"$T_TMP/once.log" & OP=$!
T_PIDS="$T_PIDS $OP"
wait_for_line "$T_TMP/once.log" 'listening on .* port [0-9]+' 5
OPORT=$(sed -n 's/.*listening on .* port \([0-9]*\)$/\1/p' "$T_TMP/once.log")
run_t 20 "$GPUT" -n 10 -l 100 -p "$OPORT" 127.0.0.1
eq "--once: served" "$RC $(field 1 2)" "0 1000"
check "--once: exits after the test" wait_until 15 eval '! kill -0 $OP 2>/dev/null'
wait "$OP"; eq "--once: exit 0" "$?" 0
t_done
