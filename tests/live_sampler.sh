#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Live test: interval boundaries stay on the schedule under load. Eight
# streams end at different moments, some just after a boundary the sampler
# reaches late; every stream's and every sum's intervals must still meet
# end to end (the client refuses a partner's intervals with gaps or
# overlaps). 50 runs, each bounded.
. "$(dirname "$0")/lib.sh"

start_daemon || { fail "daemon announces its port"; t_done; }
ok=0 bad=0
for i in $(seq 50); do
	run_t 30 "$GPUT" -P 8 -n 10000 -l 1000 --interval 0.1 -p "$D_PORT" 127.0.0.1
	if [ "$RC" -eq 0 ] && awk '$NF == "streams" && $1 == "1" { s = 1 } END { exit !s }' "$OUT"; then
		ok=$((ok + 1))
	else
		bad=$((bad + 1))
		[ "$bad" -le 3 ] && { echo "run $i: exit $RC"; cat "$ERR"; }
	fi
done
eq "-P 8 --interval 0.1: 50 runs of 50 whole" "$ok" 50
for i in $(seq 10); do
	run_t 30 "$GPUT" -r -P 8 -n 10000 -l 1000 --interval 0.1 -p "$D_PORT" 127.0.0.1
	[ "$RC" -eq 0 ] || { echo "-r run $i: exit $RC"; cat "$ERR"; break; }
done
eq "-r -P 8 --interval 0.1: 10 runs whole" "$RC" 0
t_done
