#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Live tests: --zerocopy over loopback, both directions, with -c. Exact
# Bytes on both lines; every lent send's completion read (the sender's -v
# line), every send lent or copied (the partner's budget); every byte
# mapped or copied (the receiver's); behind a zero-copy sender the receiver
# maps some of the data, behind an ordinary one none (the kernel's way on
# one host, gput(1) CAVEATS); usage errors and refusals. The starvation
# attack: a client that has the partner lend pages on 8 streams it never
# reads, under a low RLIMIT_MEMLOCK, and the victims that still get their
# bytes by copy, counted.
. "$(dirname "$0")/lib.sh"

if [ "$(id -u)" = 0 ]; then
	start_daemon --user root || { fail "daemon announces its port"; t_done; }
else
	start_daemon || { fail "daemon announces its port"; t_done; }
fi
P=$D_PORT
B=$((400 * 131072))

# sent N: from "N sends lent their pages, M completed"; mapped: "X bytes
# mapped in C calls, Y copied" -> "X Y"; copied: "N of M sends copied
# instead: E when ... (ENOBUFS), B over the budget of S bytes" -> "N M E B S"
sends() { sed -n 's/^gput: --zerocopy: \([0-9]*\) sends lent their pages, \([0-9]*\) completed.*/\1 \2/p' "$1" | tail -n 1; }
copied() { sed -n 's/^gput: --zerocopy: \([0-9]*\) of \([0-9]*\) sends copied instead: \([0-9]*\) when the kernel would pin no more (ENOBUFS), \([0-9]*\) over the budget of \([0-9]*\) bytes lent at once$/\1 \2 \3 \4 \5/p' "$@"; }
maps() { sed -n 's/^gput: --zerocopy: \([0-9]*\) bytes mapped in [0-9]* calls, \([0-9]*\) copied$/\1 \2/p' "$1" | tail -n 1; }

# local sender and receiver both zero copy, the partner receives: -r sends
# from the partner
run_t 30 "$GPUT" -v -r --zerocopy -c -n 400 -l 131072 -p "$P" 127.0.0.1
eq "-r --zerocopy -c: exit 0" "$RC" 0
eq "-r --zerocopy -c: Bytes both sides" "$(field l 2) $(field 1 2)" "$B $B"
eq "-r --zerocopy -c: every byte as the pattern says, over mapped pages" \
	"$(grep -h '^l: verified' "$OUT" "$ERR")" "l: verified $B bytes, all match the pattern"
set -- $(maps "$ERR")
eq "-r: every byte mapped or copied" "$(( ${1:-0} + ${2:-0} ))" "$B"
check "-r: behind a zero-copy sender, some bytes mapped (${1:-0})" \
	[ "${1:-0}" -gt 0 ]
check "-r: the partner's lent sends all completed" \
	wait_until 5 sh -c "grep -Eq '^gput: --zerocopy: ([0-9]+) sends lent their pages, \\1 completed' '$D_LOG'"
# the partner lends at most its budget (1 MiB for a session) at once: a
# send of 128 KiB is charged 34 pages, so 7 are lent at a time; the rest,
# if any, are copied, and every send is one or the other
set -- $(sends "$D_LOG") $(copied "$D_LOG" | tail -n 1)
eq "-r: every send lent ($1) or copied over the budget (${3:-0} of ${4:-400})" \
	"$(( $1 + ${3:-0} )) ${4:-400} ${5:-0} ${7:-1048576}" "400 400 0 1048576"

# the local side sends with MSG_ZEROCOPY, the partner copies as usual
run_t 30 "$GPUT" -v -n 400 -l 131072 -p "$P" 127.0.0.1
eq "plain: exit 0" "$RC" 0
eq "plain: no zero-copy line" "$(grep -c 'zerocopy' "$ERR")" 0

run_t 30 "$GPUT" -v -n 400 -l 131072 -p "$P" 127.0.0.1 --zerocopy
eq "partner receives --zerocopy behind an ordinary sender: exit 0" "$RC" 0
eq "  Bytes" "$(field 1 2)" "$B"
check "  the partner mapped nothing, copied every byte" \
	wait_until 5 sh -c "grep -Eq '^gput: --zerocopy: 0 bytes mapped in [0-9]+ calls, $B copied' '$D_LOG'"

# usage errors and the partner's refusal
run_t 10 "$GPUT" -u --zerocopy -p "$P" 127.0.0.1
eq "-u --zerocopy: exit 2" "$RC" 2
eq "-u --zerocopy: reason" "$(cat "$ERR")" "gput: --zerocopy applies to TCP only"
run_t 10 "$GPUT" -r --discard --zerocopy -p "$P" 127.0.0.1
eq "--discard --zerocopy: exit 2" "$RC" 2

# Starvation (issue 28): MSG_ZEROCOPY pins pages against the partner user's
# RLIMIT_MEMLOCK, which all its sessions share. A partner of a uid of its
# own (no CAP_IPC_LOCK, no other process's pages) with 512 KiB of it; a
# client has it send 16 KiB writes with zero copy on 8 streams and never
# reads. Before: every other client's zero-copy send got ENOBUFS for good
# (a counted run "too slow", a timed one 0 bytes with exit 0).
ZU=$(( 2000000000 + $$ % 100000000 ))
if [ "$(id -u)" = 0 ]; then
	D_WRAP=(prlimit --memlock=524288:524288 setpriv --reuid="$ZU" \
		--regid="$ZU" --clear-groups)
else
	D_WRAP=(prlimit --memlock=524288:524288)
fi
start_daemon || { fail "starvation: daemon announces its port"; t_done; }
D_WRAP=()
ZL=$D_LOG
need_ctlpeer
"$CTLPEER" client "$D_PORT" hello zerocopy streams=8 params=tcp,send,100000,16384 \
	ready data start hold >"$T_TMP/hostile.out" 2>&1 &
T_PIDS="$T_PIDS $!"
HOSTILE=$!
check "starvation: the hostile client holds 8 streams it never reads" \
	wait_for_line "$T_TMP/hostile.out" '^ok hold' 20
# the attack ran: the partner could pin no more for the hostile's session
check "starvation: the kernel refused to pin more (ENOBUFS) in its session" \
	wait_for_line "$ZL" '^gput: --zerocopy: the kernel would pin no more pages \(ENOBUFS' 20
run_t 30 "$GPUT" -r -n 100 -l 131072 -p "$D_PORT" 127.0.0.1 --zerocopy
eq "starvation: a counted victim: exit 0, every byte both sides" \
	"$RC $(field l 2) $(field 1 2)" "0 13107200 13107200"
set -- $(copied "$ZL" | awk '$2 == 100')
check "starvation: the victim's sends copied on ENOBUFS, counted (${3:-none} of ${2:-?})" \
	[ "${3:-0}" -gt 0 -a "${1:-0}" -eq "$(( ${3:-0} + ${4:-0} ))" ]
run_t 30 "$GPUT" -r --time 1 -l 131072 -p "$D_PORT" 127.0.0.1 --zerocopy
eq "starvation: a timed victim: exit 0" "$RC" 0
check "starvation: the timed victim's Bytes ($(field 1 2)) > 0, both sides equal" \
	[ "$(field 1 2)" -gt 0 -a "$(field 1 2)" = "$(field l 2)" ]
set -- $(copied "$ZL" | awk '$2 != 100' | tail -n 1)
check "starvation: the timed victim's sends copied on ENOBUFS (${3:-none} of ${2:-?})" \
	[ "${3:-0}" -gt 0 ]
eq "starvation: the hostile client still held its streams meanwhile" \
	"$(grep -c ': end: tcp send, 8 streams' "$ZL")" 0
kill "$HOSTILE" 2>/dev/null
# its 8 streams, each with an eighth of the session's budget
check "starvation: the hostile's 8 streams each lent within 128 KiB" \
	wait_until 20 sh -c "[ \$(grep -c 'over the budget of 131072 bytes lent at once' '$ZL') -eq 8 ]"
t_done
