#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Live tests: --zerocopy over loopback, both directions, with -c. Exact
# Bytes on both lines; every send's completion read (the sender's -v line);
# every byte mapped or copied (the receiver's); behind a zero-copy sender
# the receiver maps some of the data, behind an ordinary one none (the
# kernel's way on one host, gput(1) CAVEATS); usage errors and refusals.
. "$(dirname "$0")/lib.sh"

if [ "$(id -u)" = 0 ]; then
	start_daemon --user root || { fail "daemon announces its port"; t_done; }
else
	start_daemon || { fail "daemon announces its port"; t_done; }
fi
P=$D_PORT
B=$((400 * 131072))

# sent N: from "N sends lent their pages, M completed"; mapped: "X bytes
# mapped in C calls, Y copied" -> "X Y"
sends() { sed -n 's/^gput: --zerocopy: \([0-9]*\) sends lent their pages, \([0-9]*\) completed.*/\1 \2/p' "$1" | tail -n 1; }
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
check "-r: the partner's sends all completed" \
	wait_until 5 sh -c "grep -q '^gput: --zerocopy: 400 sends lent their pages, 400 completed' '$D_LOG'"

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
t_done
