#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Live tests: socket activation's variables are taken only when LISTEN_PID
# is this process's number and nothing else ("1234x" and another process's
# number are not for it): then the partner opens its own listening socket,
# as it would without them, instead of taking descriptor 3.
. "$(dirname "$0")/lib.sh"

for how in junk other; do
	log="$T_TMP/$how.err"
	# $$ of the shell is the partner's pid after exec
	if [ "$how" = junk ]; then
		sh -c 'LISTEN_PID="$$x" LISTEN_FDS=1 exec "$0" -i -p 0 --once' \
			"$GPUT" 2>"$log" >/dev/null &
	else
		sh -c 'LISTEN_PID=1 LISTEN_FDS=1 exec "$0" -i -p 0 --once' \
			"$GPUT" 2>"$log" >/dev/null &
	fi
	D=$!
	T_PIDS="$T_PIDS $D"
	if wait_for_line "$log" 'listening on .* port [0-9]+' 5; then
		pass "LISTEN_PID $how: the partner listens on its own socket"
		port=$(sed -n 's/.*listening on .* port \([0-9][0-9]*\).*/\1/p' "$log" | head -n 1)
		run_t 20 "$GPUT" -n 10 -l 100 -p "$port" 127.0.0.1
		eq "LISTEN_PID $how: served" "$RC $(field 1 2)" "0 1000"
	else
		fail "LISTEN_PID $how: the partner listens on its own socket ($(head -c 300 "$log"))"
	fi
	wait "$D"
	eq "LISTEN_PID $how: --once exits 0" "$?" 0
done
t_done
