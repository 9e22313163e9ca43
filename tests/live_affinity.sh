#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Live tests: --affinity. Before the partner's name it pins this side's data
# threads, after it the partner's (each stream takes the listed CPUs in
# turn); what the threads' Cpus_allowed_list says while the run goes on is
# checked, on both sides, with one stream (the calling thread, whose own
# CPUs come back after the run) and with two. A CPU this host does not
# offer is refused before connecting here and in the handshake there.
. "$(dirname "$0")/lib.sh"

# cpus_of PID: the Cpus_allowed_list of each of PID's threads, sorted
cpus_of() {
	for t in /proc/"$1"/task/*/status; do
		sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' "$t" 2>/dev/null
	done | sort
}
# has_lists PID LIST...: PID's threads show every LIST at once
has_lists() {
	_p=$1; shift
	_all=$(cpus_of "$_p")
	for _l in "$@"; do
		printf '%s\n' "$_all" | grep -qx -- "$_l" || return 1
	done
}
# session PID: the partner's process serving the test (a child of D_PID)
session_pid() { pgrep -P "$D_PID" | head -n 1; }
partner_has() {
	_s=$(session_pid)
	[ -n "$_s" ] && has_lists "$_s" "$@"
}

if [ "$(id -u)" = 0 ]; then
	start_daemon --user root || { fail "daemon announces its port"; t_done; }
else
	start_daemon || { fail "daemon announces its port"; t_done; }
fi
P=$D_PORT
ALLOWED=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status)

# --- refusals: here before connecting (exit 2), there in the handshake
run_t 10 "$GPUT" --affinity 64 -p "$P" 127.0.0.1
eq "--affinity 64: exit 2" "$RC" 2
eq "--affinity 64: the reason" "$(cat "$ERR")" \
	"gput: --affinity: CPU 64 is out of range (0 to 63)"
run_t 10 "$GPUT" -p "$P" 127.0.0.1 --affinity 1-
eq "after the host, '1-': exit 2" "$RC" 2
eq "after the host, '1-': the reason" "$(cat "$ERR")" \
	"gput: --affinity: '' is not a CPU number"
if [ "$(nproc --all)" -lt 64 ]; then
	run_t 10 "$GPUT" --affinity 63 -p "$P" 127.0.0.1
	eq "--affinity 63 here: exit 2" "$RC" 2
	eq "--affinity 63 here: the reason" "$(cat "$ERR")" \
		"gput: --affinity: CPU 63 is not available here (this process may run on $ALLOWED)"
	run_t 10 "$GPUT" -n 10 -p "$P" 127.0.0.1 --affinity 63
	eq "--affinity 63 there: exit 1" "$RC" 1
	eq "--affinity 63 there: the partner's reason" "$(cat "$ERR")" \
		"gput: partner 127.0.0.1 port $P: partner refused the test: refused: --affinity: CPU 63 is not available to this partner (it may run on $ALLOWED)"
	run_t 10 "$GPUT" -n 10 -l 100 -p "$P" 127.0.0.1
	eq "the next test runs" "$RC $(field 1 2)" "0 1000"
else
	skip "a host with 64 CPUs or more: no CPU to refuse"
fi

# --- pinning, seen in /proc while the run goes on (needs CPUs 0 and 1)
if ! printf '%s\n' "$ALLOWED" | grep -Eq '^0-([1-9]|[1-9][0-9]+)$|^0,1(,|$)'; then
	skip "pinning: this process may not run on both CPUs 0 and 1 ($ALLOWED)"
	t_done
fi
"$GPUT" -P 2 --affinity 0,1 --time 4 -p "$P" 127.0.0.1 --affinity 1 \
	>"$T_TMP/p2.out" 2>"$T_TMP/p2.err" &
C=$!
T_PIDS="$T_PIDS $C"
check "-P 2 --affinity 0,1: the local streams on CPU 0 and CPU 1" \
	wait_until 3 has_lists "$C" 0 1
check "-P 2, partner's --affinity 1: both its streams on CPU 1" \
	wait_until 3 partner_has 1 1
wait "$C"
eq "-P 2 --affinity: exit 0" "$?" 0
check "-P 2 --affinity: a sum line each side" \
	grep -Eq '^1 +[0-9]+ .*sum of 2 streams' "$T_TMP/p2.out"

"$GPUT" --affinity 1 --time 4 -p "$P" 127.0.0.1 --affinity 0 \
	>"$T_TMP/p1.out" 2>"$T_TMP/p1.err" &
C=$!
T_PIDS="$T_PIDS $C"
check "one stream, --affinity 1: the client's own thread runs on CPU 1" \
	wait_until 3 has_lists "$C" 1
check "one stream, the partner's --affinity 0: its session on CPU 0" \
	wait_until 3 partner_has 0
wait "$C"
eq "one stream --affinity: exit 0" "$?" 0

"$GPUT" -P 2 --time 3 -p "$P" 127.0.0.1 >"$T_TMP/p0.out" 2>&1 &
C=$!
T_PIDS="$T_PIDS $C"
partner_threads() { _s=$(session_pid); [ -n "$_s" ] && [ "$(cpus_of "$_s" | wc -l)" -ge 3 ]; }
check "without --affinity: the partner's session has its stream threads" \
	wait_until 3 partner_threads
eq "without --affinity: every thread may run anywhere it could" \
	"$(cpus_of "$(session_pid)" | sort -u)" "$ALLOWED"
wait "$C"
eq "without --affinity: exit 0" "$?" 0
t_done
