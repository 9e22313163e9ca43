#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Live tests: the partner's refusal log is bounded per reason (a burst, then
# 2 lines a second, then "N similar messages suppressed"), while every
# refused client still gets its ERROR. One address outside --allow connects
# in a tight, bounded loop (tests/flood); the books are exact: refusals
# logged + suppressed = connections made.
. "$(dirname "$0")/lib.sh"

FLOOD=tests/flood
[ -x "$FLOOD" ] || { fail "tests/flood is built (make tests/flood)"; t_done; }
N=3000
burst=5          # RATELOG_BURST (partner_ratelog.h)
every_ms=500     # RATELOG_EVERY_NS

start_daemon --allow 10.0.0.0/8 || { fail "daemon announces its port"; t_done; }
run_t 120 "$FLOOD" 127.0.0.1 "$D_PORT" "$N"
eq "flood: $N connections from outside --allow, each answered (the attack ran)" \
	"$RC $(cut -d' ' -f1-5 "$OUT")" "0 ok flood $N answered $N"
MS=$(sed -n 's/.* ms \([0-9]*\)$/\1/p' "$OUT")
lines() { grep -c "refused: access denied: 127.0.0.1 is not in this partner's --allow list" "$D_LOG"; }
L=$(lines)
max=$((burst + ${MS:-0} / every_ms + 1))
check "flood: $L refusal lines for $N refusals in $MS ms (at most $max: the burst, 2 a second)" \
	eval '[ "$L" -ge "$burst" ] && [ "$L" -le "$max" ]'
echo "log lines: $L for $N refused connections in $MS ms"

# one more connection at a time until the bucket has refilled: that
# line comes after the count of what was not logged since the last line,
# and the books balance: lines logged + suppressed = connections
more=0
books() { echo $(( $(lines) + $(sed -n 's/.*refused: \([0-9]*\) similar messages suppressed (not in --allow)$/\1/p' "$D_LOG" |
	awk '{ s += $1 } END { print s + 0 }') )); }
again() { "$FLOOD" 127.0.0.1 "$D_PORT" 1 >/dev/null && more=$((more + 1)) &&
	[ "$(books)" -eq "$((N + more))" ]; }
check "a refusal after the flood: the suppressed count is logged" wait_until 30 again
check "... as one line" grep -q 'refused: [0-9]* similar messages suppressed (not in --allow)$' "$D_LOG"
eq "the books: lines logged + suppressed = connections" "$(books)" "$((N + more))"
check "each refusal line is whole" eval \
	'! grep refused "$D_LOG" | grep -v "client 127.0.0.1 port [0-9]*: refused: access denied: 127.0.0.1 is not in this partner.s --allow list$\|gput\[[0-9]*\]: refused: [0-9]* similar messages suppressed (not in --allow)$" | grep -q .'
t_done
