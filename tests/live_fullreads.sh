#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Live tests: --full-reads over loopback, both directions. The receiver's
# Calls (column 7 of its line) are exactly the writes: every read a whole
# -l but the last (-x not a whole -l); without the option the same run is
# allowed any count. Usage errors: UDP, with --zerocopy.
. "$(dirname "$0")/lib.sh"

if [ "$(id -u)" = 0 ]; then
	start_daemon --user root || { fail "daemon announces its port"; t_done; }
else
	start_daemon || { fail "daemon announces its port"; t_done; }
fi
P=$D_PORT
B=$((300 * 131072))

# the partner receives, with the option after the partner's name
run_t 30 "$GPUT" -c -n 300 -l 131072 -p "$P" 127.0.0.1 --full-reads
eq "partner receives --full-reads: exit 0" "$RC" 0
eq "  Bytes both sides" "$(field l 2) $(field 1 2)" "$B $B"
eq "  the partner's Calls: one per write" "$(field 1 7)" 300
eq "  every byte checked" "$(grep -h '^1: verified' "$OUT" "$ERR")" \
	"1: verified $B bytes, all match the pattern"

# the local side receives (-r), the option before the partner: both ends
run_t 30 "$GPUT" -r --full-reads -x $((B + 1000)) -l 131072 -p "$P" 127.0.0.1
eq "-r --full-reads -x not a whole -l: exit 0" "$RC" 0
eq "  Bytes" "$(field l 2)" "$((B + 1000))"
eq "  the local Calls: 300 whole and the last 1000 bytes" "$(field l 7)" 301

# --discard reads whole -l too
run_t 30 "$GPUT" -n 300 -l 131072 -p "$P" 127.0.0.1 --discard --full-reads
eq "--discard --full-reads: exit 0" "$RC" 0
eq "  the partner's Calls" "$(field 1 7)" 300

run_t 10 "$GPUT" -u --full-reads -p "$P" 127.0.0.1
eq "-u --full-reads: exit 2" "$RC" 2
eq "-u --full-reads: reason" "$(cat "$ERR")" \
	"gput: --full-reads applies to TCP only (a UDP read is one datagram)"
run_t 10 "$GPUT" -p "$P" 127.0.0.1 --zerocopy --full-reads
eq "--zerocopy --full-reads: exit 2" "$RC" 2
eq "--zerocopy --full-reads: reason" "$(cat "$ERR")" \
	"gput: --full-reads and --zerocopy cannot be used together (a zero-copy receive maps what is queued, it does not wait)"
t_done
