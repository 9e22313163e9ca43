#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Live tests: peers that vanish at every moment of a session. A client that
# leaves during the handshake, after PARAMS, mid-transfer (TCP and UDP, both
# directions) or before reading its results, and malformed requests: after
# each the daemon has logged that client in one line, ended its session,
# holds only its own descriptors and serves the next client. A partner that
# vanishes: the client exits 1 with one line naming host and port.
# tests/ctlpeer plays a client or partner that stops wherever it is told.
. "$(dirname "$0")/lib.sh"

need_ctlpeer

# The one client that stays silent waits out the daemon's 10 s control
# timeout; it runs meanwhile, against a daemon of its own.
start_daemon || { fail "second daemon announces its port"; t_done; }
S_PID=$D_PID S_LOG=$D_LOG
"$CTLPEER" client "$D_PORT" 'raw=GPUT\x04' eof >"$T_TMP/silent.out" 2>&1 &
SILENT=$!
T_PIDS="$T_PIDS $SILENT"

# --user root: the out-of-descriptors case below changes the daemon's limits
# with prlimit, which takes the daemon's own user where CAP_SYS_RESOURCE is
# not there (containers)
start_daemon --user root || { fail "daemon announces its port"; t_done; }
P=$D_PORT

nfd() { ls "/proc/$D_PID/fd" | wc -l; }
sessions() { pgrep -P "$D_PID" >/dev/null; }
no_sessions() { ! sessions; }
NFD0=$(nfd)

# z N: N zero bytes as ctlpeer raw= escapes.
z() { printf '\\x00%.0s' $(seq "$1"); }

# mark: remember how much the daemon has logged; new_log: what came since.
mark() { MARK=$(wc -l <"$D_LOG"); }
# The log's time and PID prefix becomes "gput: "; start lines are left out.
new_log() { tail -n "+$((MARK + 1))" "$D_LOG" | sed -E 's/^[0-9T:Z-]+ gput\[[0-9]+\]: /gput: /' | grep -Ev '^gput: client [^ ]* port [0-9]*: (start: |end: .*: ok$)'; }
new_has_text() { new_log | grep -Fxq -- "$1"; }
new_has_re() { new_log | grep -Eq -- "$1"; }

# peer STEP...: a scripted client on the daemon; CPORT is its control port.
peer() {
	mark
	run_t 40 "$CTLPEER" client "$P" hello "$@"
	CPORT=$(sed -n 's/^ok connect from port //p' "$OUT")
	[ "$RC" -eq 0 ] || { echo "ctlpeer failed:"; cat "$ERR"; }
}

# served NAME: the client is logged (LOGGED, set by logged_*), the session
# ended, the daemon is alive with the descriptors it started with, and the
# next client gets an exact transfer.
served() {
	check "$1: daemon logged it in one line" [ "$LOGGED" = 1 ]
	check "$1: session ended" wait_until 20 no_sessions
	check "$1: daemon alive" kill -0 "$D_PID"
	eq "$1: daemon descriptors" "$(nfd)" "$NFD0"
	run_t 20 "$GPUT" -n 100 -l 1000 -p "$P" 127.0.0.1
	eq "$1: next client served" "$RC $(field l 2) $(field 1 2)" "0 100000 100000"
}
# logged_text TEXT / logged_re REGEX: the daemon's only new line is that one.
logged_text() {
	LOGGED=0
	if wait_until 20 new_has_text "$1" && [ "$(new_log | wc -l)" -eq 1 ]; then
		LOGGED=1
	else
		echo "want: $1"; echo "log since the client:"; new_log
	fi
}
logged_re() {
	LOGGED=0
	if wait_until 20 new_has_re "$1" && [ "$(new_log | wc -l)" -eq 1 ]; then
		LOGGED=1
	else
		echo "want /$1/"; echo "log since the client:"; new_log
	fi
}
C="gput: client 127.0.0.1 port"
CRE="^gput: client 127\.0\.0\.1 port [0-9]+"
# the end line of a session that moved N bytes: "end: tcp receive, N bytes, ..."
END_RE=': end: (tcp|udp) (send|receive), [0-9]+ bytes, [0-9]+ calls, [0-9.]+ s'
end_text() { echo "$C $CPORT: end: $1"; }

# --- the handshake: part of a message, then close
peer 'raw=GPU' close
logged_text "$C $CPORT: bad request: connection closed while waiting for a PARAMS message"
served "half a header, then close"

peer "raw=GPUT\x04\x01\x00\xd8$(z 20)" close
logged_text "$C $CPORT: bad request: connection closed while waiting for the rest of the PARAMS message"
served "a header and half a PARAMS, then close"

# --- malformed requests: refused with an ERROR the client can read
reply() { sed -n 's/^ok error //p' "$OUT"; }
peer put=ready error
eq "READY instead of PARAMS: reply" "$(reply)" \
	"bad request: unexpected READY message (expected PARAMS)"
logged_text "$C $CPORT: bad request: unexpected READY message (expected PARAMS)"
served "READY instead of PARAMS"

peer 'raw=GPUT\x04\x04\x00\x03bye' error
eq "ERROR instead of PARAMS: reply" "$(reply)" "bad request: ERROR instead of PARAMS: bye"
logged_text "$C $CPORT: bad request: ERROR instead of PARAMS: bye"
served "ERROR instead of PARAMS"

peer 'raw=GPUT\x04\x30\x00\x00' error
eq "unknown type: reply" "$(reply)" "bad request: unknown control message type 48"
logged_text "$C $CPORT: bad request: unknown control message type 48"
served "unknown type"

# PARAMS (216 bytes) with the reserved flag 0x40: tcp, receive, 1 x 1024
# bytes, one stream (128..129), else valid
peer "raw=GPUT\x04\x01\x00\xd8\x00\x01\x40\x00\x00\x00\x04\x00$(z 7)\x01$(z 8)\x00\x00\x04\x00$(z 10)\x04\x00$(z 88)\x00\x01$(z 86)" error
eq "reserved PARAMS bits: reply" "$(reply)" "bad request: bad PARAMS message: reserved bits set"
logged_text "$C $CPORT: bad request: bad PARAMS message: reserved bits set"
served "reserved PARAMS bits"

peer "raw=GPUT\x04\x04\x00\xc9$(printf 'e%.0s' $(seq 201))" error
eq "ERROR text over 200 bytes: reply" "$(reply)" "bad request: bad ERROR message: text of 201 bytes"
logged_text "$C $CPORT: bad request: bad ERROR message: text of 201 bytes"
served "ERROR text over 200 bytes"

# --- after PARAMS, before the data socket: the daemon stops waiting at once
peer params=tcp,recv,10,1000 ready close
logged_text "$C $CPORT: data connection: the client closed the control connection"
served "TCP: gone after READY"

peer params=tcp,send,10,1000 ready close
logged_text "$C $CPORT: data connection: the client closed the control connection"
served "TCP -r: gone after READY"

peer params=udp,recv,10,1000 ready close
logged_text "$C $CPORT: data connection: the client closed the control connection"
served "UDP: gone after READY"

peer params=udp,send,100000,1000 ready close
logged_text "$C $CPORT: data connection: the client closed the control connection"
served "UDP -r: gone after READY"

peer params=tcp,recv,10,1000 ready data start close closedata
logged_re "$CRE$END_RE: the client closed the control connection$"
served "TCP: gone once connected"

# --- mid-transfer. A real client killed once its data flows (gput -v names
# the data connection just before the first write, or for a UDP receiver
# after the first datagram).
killed_client() {       # NAME ARGS...: run gput ARGS, kill it mid-transfer
	_n=$1; shift
	mark
	"$GPUT" -v "$@" -p "$P" 127.0.0.1 >/dev/null 2>"$T_TMP/victim.err" &
	_c=$!
	check "$_n: transfer started" wait_for_line "$T_TMP/victim.err" '^gput: data ' 10
	{ kill -9 "$_c"; wait "$_c"; } 2>/dev/null
}
killed_client "TCP: client killed" -g 20000 -n 1000 -l 100
logged_re "$CRE$END_RE: the client closed the control connection$"
served "TCP: client killed mid-transfer"

killed_client "TCP -r: client killed" -r -g 20000 -n 1000 -l 100
logged_re "$CRE$END_RE: the client closed the control connection$"
served "TCP -r: client killed mid-transfer"

killed_client "UDP -r: client killed" -u -r -g 20000 -n 1000 -l 100
logged_re "$CRE$END_RE: the client closed the control connection$"
served "UDP -r: client killed mid-transfer"

# UDP to the daemon: ten datagrams of a thousand are in the daemon's socket
# before the client is killed. The daemon's receive ends idle; the control
# connection says why.
mark
"$CTLPEER" client "$P" hello params=udp,recv,1000,100 ready data start send=10 hold \
	>"$T_TMP/udp.out" 2>&1 &
UPID=$!
check "UDP: ten datagrams sent" wait_for_line "$T_TMP/udp.out" '^ok hold$' 10
CPORT=$(sed -n 's/^ok connect from port //p' "$T_TMP/udp.out")
{ kill -9 "$UPID"; wait "$UPID"; } 2>/dev/null
logged_re "$CRE$END_RE: the client closed the control connection$"
served "UDP: client killed mid-transfer"

# --- around the results
peer params=tcp,recv,10,1000 ready data start send close closedata
logged_re "$CRE$END_RE: the client closed the control connection$"
served "TCP: gone before the results were sent"

peer params=tcp,recv,10,1000 ready data start send closedata readable close
logged_text "$C $CPORT: results not read: the client reset the control connection"
served "TCP: results arrived, never read"

peer params=udp,recv,10,1000 ready data start send readable close
logged_text "$C $CPORT: results not read: the client reset the control connection"
served "UDP: results arrived, never read"

peer params=tcp,recv,10,1000 ready data start put=ready error
eq "a message out of turn: reply" "$(reply)" "control connection: unexpected READY message (expected STOP)"
logged_re "$CRE$END_RE: control connection: unexpected READY message \(expected STOP\)$"
served "data on the control connection out of turn"

# --- out of descriptors: accept fails until the limit is raised. One line
# when the burst starts, one when it ends; the queued client is served.
lowest_free() {
	ls "/proc/$D_PID/fd" | sort -n | awk 'BEGIN { n = 0 } $1 == n { n++ } END { print n }'
}
ctxt() { awk '/^voluntary_ctxt_switches/ { print $2 }' "/proc/$D_PID/status"; }
queued() {      # a client connection to the daemon's port is established
	awk -v p=":$(printf '%04X' "$P")" '$4 == "01" && substr($3, length($3) - 4) == p { f = 1 }
	    END { exit !f }' /proc/net/tcp /proc/net/tcp6
}
retried() { [ "$(ctxt)" -ge $((CTX0 + 3)) ]; }
if ! command -v prlimit >/dev/null; then
	skip "accept out of descriptors (no prlimit)"
else
	read -r SOFT HARD < <(awk '/^Max open files/ { print $4, $5 }' "/proc/$D_PID/limits")
	mark
	prlimit --pid "$D_PID" --nofile="$(lowest_free):$HARD"
	# a blocked accept may hold a descriptor from before: this one takes it
	"$CTLPEER" client "$P" close >/dev/null 2>&1
	check "EMFILE: burst logged" wait_until 10 new_has_text \
		"gput: accept: Too many open files (retrying at most every 1000 ms)"
	CTX0=$(ctxt)
	timeout -k 2 40 "$GPUT" -n 100 -l 1000 -p "$P" 127.0.0.1 >"$T_TMP/q.out" 2>"$T_TMP/q.err" &
	QPID=$!
	check "EMFILE: a client waits in the queue" wait_until 10 queued
	check "EMFILE: the daemon retried (backing off)" wait_until 20 retried
	prlimit --pid "$D_PID" --nofile="$SOFT:$HARD"
	wait "$QPID"
	eq "EMFILE: queued client served" "$? $(awk '$1 == "1" { print $2 }' "$T_TMP/q.out")" "0 100000"
	eq "EMFILE: one line for the burst" \
		"$(new_log | grep -c '^gput: accept: ')" 1
	check "EMFILE: one line when accept works again" [ "$(new_log | grep -Ec \
		'^gput: accept works again after [0-9]+ failed calls$')" = 1 ]
	eq "EMFILE: daemon descriptors" "$(nfd)" "$NFD0"
fi

# --- the silent client (started first): the daemon's control timeout
check "silent client: daemon closed on it" wait_for_line "$T_TMP/silent.out" '^ok eof after' 30
SPORT=$(sed -n 's/^ok connect from port //p' "$T_TMP/silent.out")
eq "silent client: logged" "$(grep -c " gput\[[0-9]*\]: client 127.0.0.1 port $SPORT: " "$S_LOG")" 1
check "silent client: log line" grep -Eq \
	"^[0-9T:Z-]+ gput\[[0-9]+\]: client 127\.0\.0\.1 port $SPORT: bad request: timed out waiting for a PARAMS message$" "$S_LOG"
check "silent client: reply (HELLO, then ERROR)" grep -Fxq "ok eof after 107 bytes" "$T_TMP/silent.out"
check "silent client: session ended" wait_until 10 eval '! pgrep -P "$S_PID" >/dev/null'

# --- the partner vanishes: the client exits 1 with one line naming host and
# port. First the daemon's session killed mid-transfer.
killed_partner() {      # NAME REGEX ARGS...
	_n=$1 _re=$2; shift 2
	wait_until 10 no_sessions
	timeout -k 2 40 "$GPUT" -v "$@" -p "$P" 127.0.0.1 >"$T_TMP/k.out" 2>"$T_TMP/k.err" &
	_c=$!
	check "$_n: transfer started" wait_for_line "$T_TMP/k.err" '^gput: data ' 10
	kill -9 $(pgrep -P "$D_PID")
	wait "$_c"
	eq "$_n: exit 1" "$?" 1
	eq "$_n: one line" "$(grep -vc '^gput: data ' "$T_TMP/k.err")" 1
	check "$_n: names host and port" grep -Eqx "gput: partner 127\.0\.0\.1 port $P: $_re" "$T_TMP/k.err"
}
GONE="(partner: the partner closed the control connection|partner's results: connection closed while waiting for a RESULT message)"
killed_partner "partner killed, TCP" \
	"(peer vanished \((Broken pipe|Connection reset by peer)\)|$GONE)" -g 20000 -n 1000 -l 100
killed_partner "partner killed, TCP -r" \
	"(connection closed after [0-9]+ of 100000 bytes|peer vanished \(Connection reset by peer\)|$GONE)" \
	-r -g 20000 -n 1000 -l 100
killed_partner "partner killed, UDP" \
	"(the receiver's port refused the data \(receiver gone\)|$GONE)" -u -g 20000 -n 1000 -l 100
killed_partner "partner killed, UDP -r" "$GONE" -u -r -g 20000 -n 1000 -l 100
run_t 20 "$GPUT" -n 100 -l 1000 -p "$P" 127.0.0.1
eq "daemon serves after its sessions were killed" "$RC $(field 1 2)" "0 100000"
eq "daemon descriptors after killed sessions" "$(nfd)" "$NFD0"

# Then a scripted partner that stops short.
fake_partner() {        # NAME WANT GPUT-ARGS -- STEPS...: gput must exit 1 saying WANT
	_n=$1 _want=$2; shift 2
	_args=()
	while [ "$1" != "--" ]; do _args+=("$1"); shift; done
	shift
	"$CTLPEER" partner "$@" >"$T_TMP/fp.out" 2>&1 &
	_fp=$!
	T_PIDS="$T_PIDS $_fp"
	if ! wait_for_line "$T_TMP/fp.out" '^ok listen port ' 5; then
		fail "$_n: scripted partner listens"
		return
	fi
	_port=$(sed -n 's/^ok listen port //p' "$T_TMP/fp.out")
	run_t 40 "$GPUT" "${_args[@]}" -p "$_port" 127.0.0.1
	eq "$_n: exit 1, one line" "$RC:$(wc -l <"$ERR")" "1:1"
	eq "$_n: message" "$(cat "$ERR")" "gput: partner 127.0.0.1 port $_port: $_want"
	wait "$_fp" 2>/dev/null
}
fake_partner "partner gone before READY" \
	"connection closed while waiting for a READY message" \
	-n 10 -l 1000 -- sendhello getparams close
fake_partner "partner refuses" "partner refused the test: busy" \
	-n 10 -l 1000 -- sendhello getparams 'raw=GPUT\x04\x04\x00\x04busy' close
fake_partner "partner answers RESULT for READY" \
	"unexpected RESULT message (expected READY)" \
	-n 10 -l 1000 -- sendhello getparams put=result close
fake_partner "partner speaks something else" \
	"not a gput control message (bad magic)" \
	-n 10 -l 1000 -- sendhello getparams 'raw=HTTP/1.1 400 Bad Request' close
fake_partner "partner gone before its results" \
	"partner's results: connection closed while waiting for a RESULT message" \
	-n 10 -l 1000 -- sendhello getparams sendready acceptdata put=start drain close
fake_partner "UDP partner gone before its results" \
	"partner's results: connection closed while waiting for a RESULT message" \
	-u -n 10 -l 1000 -- sendhello getparams sendready acceptdata put=start drain close
# a UDP receiver hears of a partner's failure after READY at once, not
# after its start timeout
fake_partner "UDP -r: partner fails after READY" "partner: oops" \
	-u -r -n 10 -l 1000 -- sendhello getparams sendready 'raw=GPUT\x04\x04\x00\x04oops' eof
fake_partner "UDP -r: partner gone after READY" \
	"connection closed while waiting for a START message" \
	-u -r -n 10 -l 1000 -- sendhello getparams sendready close

check "daemon still alive at the end" kill -0 "$D_PID"
t_done
