#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Live test: results that survive interruption and misuse. Two SIGINTs in
# quick succession (what timeout(1) sends when it is itself interrupted)
# are one request: the table, or the JSON, is still printed, exit 130.
# SIGTERM exits 143 with the same output. On a terminal (script(1) gives
# one) ^C clears the progress line before the table. A usage error with
# --json prints a JSON object too; iperf's habits are reported all at once;
# -n after the name of a partner that receives is refused, never ignored.
. "$(dirname "$0")/lib.sh"

start_daemon || { fail "daemon announces its port"; t_done; }
P=$D_PORT

# interrupt NAME SIGNALS... -- GPUT-ARGS: a 30 s run, stopped once the
# partner logged its start by each of SIGNALS sent back to back; sets RC
# and OUT, ERR
interrupt() {
	_name=$1; shift
	_sigs=()
	while [ "$1" != -- ]; do _sigs+=("$1"); shift; done
	shift
	OUT=$T_TMP/$_name.out ERR=$T_TMP/$_name.err
	_n0=$(grep -c ': start: ' "$D_LOG")
	"$GPUT" --time 30 "$@" -p "$P" 127.0.0.1 >"$OUT" 2>"$ERR" &
	_pid=$!
	if wait_until 15 eval '[ "$(grep -c ": start: " "$D_LOG")" -gt "$_n0" ]'; then
		for _s in "${_sigs[@]}"; do kill -"$_s" "$_pid"; done
	else
		fail "$_name: the run started"
		kill "$_pid"
	fi
	wait "$_pid"; RC=$?
}

interrupt "two SIGINTs" INT INT --
eq "two SIGINTs at once: exit 130 (one request)" "$RC" 130
check "two SIGINTs at once: both lines of the table" eval \
	'grep -q "^l  *[0-9]" "$OUT" && grep -q "^1  *[0-9]" "$OUT"'
check "two SIGINTs at once: the interrupted note" grep -q \
	'^interrupted: the lines above count what was moved until the stop$' "$OUT"
interrupt "two SIGINTs, UDP, JSON" INT INT -- -u --rate 20M --json
eq "two SIGINTs, UDP --json: exit 130" "$RC" 130
eq "two SIGINTs, UDP --json: one document, interrupted" \
	"$(jq -r '.interrupted' "$OUT" 2>&1)" true
interrupt "SIGTERM" TERM --
eq "SIGTERM: exit 143 (128 + 15)" "$RC" 143
check "SIGTERM: both lines of the table" eval \
	'grep -q "^l  *[0-9]" "$OUT" && grep -q "^1  *[0-9]" "$OUT"'

# ^C on a terminal: the progress line goes before the table starts
if command -v script >/dev/null; then
	_n0=$(grep -c ': start: ' "$D_LOG")
	script -q -c "exec $GPUT --time 30 -p $P 127.0.0.1" /dev/null >"$T_TMP/pty" 2>&1 &
	S=$!
	T_PIDS="$T_PIDS $S"
	if wait_until 15 eval '[ "$(grep -c ": start: " "$D_LOG")" -gt "$_n0" ]' &&
	    wait_until 15 grep -q 'gput: .* MB, .* MBit/s' "$T_TMP/pty"; then
		kill -INT "$(pgrep -P "$S")"
	else
		fail "^C on a terminal: the run started and showed its progress"
	fi
	wait "$S"
	# the terminal's first line holds the progress and the table's first
	# row: what shows is what follows its last \r (the pty ends it \r\n)
	eq "^C on a terminal: the table's first row starts its line" \
		"$(head -n 1 "$T_TMP/pty" | sed 's/\r$//' | tr '\r' '\n' | tail -n 1 | cut -c1-2)" "l "
else
	skip "^C on a terminal (script(1) not installed: apt-get install bsdutils)"
fi

# misuse: the whole story in one go, and JSON for a JSON reader
run_t 10 "$GPUT" --json -c 127.0.0.1 -t 10 -i 1 -J
eq "--json with a usage error: exit 2" "$RC" 2
eq "--json with a usage error: a JSON object on stdout" \
	"$(jq -r '[.type, .exit_status, (.error | split("\n") | length)] | @tsv' "$OUT")" \
	"$(printf 'error\t2\t3')"
eq "iperf's habits: a line each, all at once" "$(cat "$ERR")" \
"gput: -t transmits as in nttcp; for a timed run use --time 10
gput: -i starts the partner as in nttcp; for interval lines use --interval 1
gput: -J is iperf's JSON: gput prints JSON with --json (or --json-lines)"
run_t 10 "$GPUT" --json-lines --no-such-option 127.0.0.1
eq "--json-lines, unknown option: the error as JSON" \
	"$(jq -r '.error' "$OUT")" "unknown option --no-such-option"
run_t 10 "$GPUT" -n 10 -p "$P" 127.0.0.1 -n 100
eq "-n after a receiving partner's name: exit 2" "$RC" 2
eq "-n after a receiving partner's name: says it has no effect" "$(cat "$ERR")" \
	"gput: -n after 127.0.0.1's name has no effect: the partner receives, and the sender (this host) sizes the stream; put it before the partner's name"
run_t 20 "$GPUT" -r -n 10 -l 100 -p "$P" 127.0.0.1 -n 20
eq "-r: -n after the (sending) partner's name sizes the stream" \
	"$RC $(field 1 2) $(field l 2)" "0 2000 2000"
t_done
