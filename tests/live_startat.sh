#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# --start-at: two clients given one moment begin their transfers at it. In a
# network namespace of the test's own (its loopback carries nothing else), a
# capture of the data segments shows each flow's first segment at or after
# the moment and the two flows running at once; ^C wakes a client waiting
# before its handshake and one waiting after START (exit 130, one line); bad
# moments are refused with one line, exit 2, before anything connects.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

PATH=$PATH:/usr/sbin:/sbin
now() { date +%s.%N; }

# the refusals need no partner
past=$(( $(date +%s) - 1 ))
run_t 10 "$GPUT" --start-at "$past" 127.0.0.1
eq "--start-at in the past: exit 2, one line" "$RC $(wc -l <"$ERR") $(grep -c "^gput: --start-at: '$past' is in the past (now " "$ERR")" "2 1 1"
far=$(( $(date +%s) + 3600 ))
run_t 10 "$GPUT" --start-at "$far" 127.0.0.1
eq "--start-at an hour ahead: exit 2, one line" "$RC $(wc -l <"$ERR") $(grep -c "^gput: --start-at: '$far' is 3[56][0-9][0-9]\.[0-9]* s ahead: at most 60 s from now$" "$ERR")" "2 1 1"
run_t 10 "$GPUT" --start-at soon 127.0.0.1
eq "--start-at soon: not a time" "$RC $(cat "$ERR")" "2 gput: --start-at: 'soon' is not a time (seconds since 1970, e.g. 1700000000.25)"
soon=$(( $(date +%s) + 30 ))
run_t 10 "$GPUT" -r --start-at "$soon" 127.0.0.1
eq "--start-at with -r refused" "$RC $(cat "$ERR")" "2 gput: --start-at: the client must send (not with -r or --bidir): its first write is the start"
run_t 10 "$GPUT" --repeat 2 --start-at "$soon" 127.0.0.1
eq "--start-at with --repeat refused" "$RC $(cat "$ERR")" "2 gput: --start-at is one moment: it cannot be used with --repeat"

if [ "$(id -u)" -ne 0 ] || ! command -v tcpdump >/dev/null; then
	skip "--start-at across a capture (needs root and tcpdump)"
	t_done
fi
NS=gput-sa$$
t_netns "$NS" || { fail "network namespace $NS"; t_done; }
D_WRAP=(ip netns exec "$NS")
start_daemon -v || { fail "gput -i in $NS"; t_done; }
CAP_WRAP=(ip netns exec "$NS")
# data segments only: the control connection's port left out, bare ACKs
# and the handshake's small messages under 1000 bytes
cap_start sa lo "tcp and not port $D_PORT and greater 1000" ||
    { fail "tcpdump in $NS"; t_done; }

# the moment 3 s ahead: both handshakes happen at once and wait after START
T=$(awk -v t="$(now)" 'BEGIN { printf "%.3f", t + 3 }')
"${D_WRAP[@]}" "$GPUT" -q --time 1 --rate 16M --start-at "$T" -p "$D_PORT" 127.0.0.1 \
    >"$T_TMP/c1.out" 2>"$T_TMP/c1.err" &
C1=$!
"${D_WRAP[@]}" "$GPUT" -q --time 1 --rate 16M --start-at "$T" -p "$D_PORT" 127.0.0.1 \
    >"$T_TMP/c2.out" 2>"$T_TMP/c2.err" &
C2=$!
T_PIDS="$T_PIDS $C1 $C2"
wait "$C1"; r1=$?
wait "$C2"; r2=$?
eq "two clients with one --start-at: both exit 0" "$r1 $r2" "0 0"
cap_stop
# per flow (the client's port): the first and last data segment's time
tcpdump -r "$CAP" -n -tt 2>/dev/null | awk '{ split($3, a, "."); f = a[5]
	if (!(f in first)) first[f] = $1; last[f] = $1 }
	END { for (f in first) print f, first[f], last[f] }' >"$T_TMP/flows"
cat "$T_TMP/flows"
eq "the capture holds two data flows" "$(wc -l <"$T_TMP/flows")" 2
eq "each flow's first data segment at or after the moment $T" \
    "$(awk -v t="$T" '$2 + 0 < t + 0 { bad++ } END { print bad + 0 }' "$T_TMP/flows")" 0
eq "the flows run at once: each begins before the other ends" \
    "$(awk 'NR == 1 { f1 = $2; l1 = $3 } NR == 2 { f2 = $2; l2 = $3 }
        END { print (f1 < l2 && f2 < l1) ? "overlap" : "apart" }' "$T_TMP/flows")" overlap
awk -v t="$T" '{ printf "flow %s: first segment %.6f s after the moment\n", $1, $2 - t }' "$T_TMP/flows"

# ^C before the handshake (the moment 40 s ahead: the client waits to
# connect): exit 130 at once, one line, the partner never saw it
n0=$(grep -c ': start: ' "$D_LOG")
T=$(( $(date +%s) + 40 ))
"${D_WRAP[@]}" "$GPUT" -v --start-at "$T" -p "$D_PORT" 127.0.0.1 >"$T_TMP/c3.out" 2>"$T_TMP/c3.err" &
C3=$!
T_PIDS="$T_PIDS $C3"
# -v says it waits (its ^C handler is set by then)
wait_for_text "$T_TMP/c3.err" "gput: --start-at: connecting 5 s before it" 10 ||
    fail "the client says it waits to connect"
kill -INT "$C3"
wait_until 10 sh -c "! kill -0 $C3 2>/dev/null"
wait "$C3"; r3=$?
eq "^C waiting to connect: exit 130, and its line" "$r3 $(tail -n 1 "$T_TMP/c3.err")" \
    "130 gput: partner 127.0.0.1 port $D_PORT: interrupted waiting for --start-at"
eq "... and the partner never saw the client" "$(grep -c ': start: ' "$D_LOG")" "$n0"

# ^C after START (the moment 4.5 s ahead: inside the 5 s lead, so the client
# connects at once): once the client (-v) says START came and it waits, ^C
T=$(awk -v t="$(now)" 'BEGIN { printf "%.3f", t + 4.5 }')
"${D_WRAP[@]}" "$GPUT" -v --start-at "$T" -p "$D_PORT" 127.0.0.1 >"$T_TMP/c4.out" 2>"$T_TMP/c4.err" &
C4=$!
T_PIDS="$T_PIDS $C4"
wait_for_line "$T_TMP/c4.err" '^gput: START came [0-9.]+ s before --start-at; waiting$' 10 ||
    fail "the client says it waits after START"
kill -INT "$C4"
wait "$C4"; r4=$?
eq "^C waiting after START: exit 130, and its line" "$r4 $(tail -n 1 "$T_TMP/c4.err")" \
    "130 gput: partner 127.0.0.1 port $D_PORT: interrupted waiting for --start-at"
wait_until 10 grep -q 'the client closed the control connection' "$D_LOG"
check "... and the partner ends its test (the client closed)" \
    grep -q 'end: tcp receive, 0 bytes, 0 calls.*the client closed the control connection' "$D_LOG"
t_done
