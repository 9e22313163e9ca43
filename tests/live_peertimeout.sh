#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# --peer-timeout (the client's dead-peer deadline, asked of the partner in
# PARAMS) against the partner's --max-peer-timeout, on loopback: a larger
# ask refused with the limit's words and exit 1, one within it served, the
# bounds of both options and of --params-grace, and a partner of an older
# gput (ctlpeer oldparams: it refuses the PARAMS bit it does not know)
# named as such. The lossy path it is for: live_lossy.sh.
cd "$(dirname "$0")/.." || exit 1
. tests/lib.sh
need_ctlpeer

# --- the partner's bound: a larger ask is refused, exit 1, its words
start_daemon --max-peer-timeout 20 || { fail "gput -i starts"; t_done; }
run_t 30 "$GPUT" --peer-timeout 30 -n 100 -l 1000 -p "$D_PORT" 127.0.0.1
eq "--peer-timeout 30 over --max-peer-timeout 20: exit 1 and why" \
	"$RC $(cat "$ERR")" "1 gput: partner 127.0.0.1 port $D_PORT: partner refused the test: refused: --peer-timeout 30 s is longer than this partner allows, 20 s (--max-peer-timeout)"
check "--peer-timeout 30 refused: nothing on standard output" [ ! -s "$OUT" ]
check "--peer-timeout 30 refused: the partner logs it" wait_for_line "$D_LOG" \
	"refused: --peer-timeout 30 s is longer than this partner allows, 20 s \(--max-peer-timeout\)" 10

# --- an ask within the bound: served, both sides' lines, nothing said
run_t 30 "$GPUT" --peer-timeout 20 -n 100 -l 1000 -p "$D_PORT" 127.0.0.1
eq "--peer-timeout 20 within the bound: exit 0, both sides' bytes" \
	"$RC $(field l 2) $(field 1 2)" "0 100000 100000"
eq "--peer-timeout 20: nothing on standard error" "$(cat "$ERR")" ""
# -r: the partner sends, its data socket's timeouts the granted ones
run_t 30 "$GPUT" -r --peer-timeout 20 -n 100 -l 1000 -p "$D_PORT" 127.0.0.1
eq "-r --peer-timeout 20: exit 0, both sides' bytes" \
	"$RC $(field l 2) $(field 1 2)" "0 100000 100000"

# --- the default bound (60) and the default deadline (10: nothing asked)
start_daemon || { fail "gput -i starts"; t_done; }
run_t 30 "$GPUT" --peer-timeout 60 -n 100 -l 1000 -p "$D_PORT" 127.0.0.1
eq "--peer-timeout 60 within the default bound" "$RC $(field 1 2)" "0 100000"
run_t 30 "$GPUT" --peer-timeout 61 -n 100 -l 1000 -p "$D_PORT" 127.0.0.1
eq "--peer-timeout 61 over the default bound of 60" "$RC $(cat "$ERR")" \
	"1 gput: partner 127.0.0.1 port $D_PORT: partner refused the test: refused: --peer-timeout 61 s is longer than this partner allows, 60 s (--max-peer-timeout)"
run_t 30 "$GPUT" -u --peer-timeout 40 -n 100 -l 1000 -p "$D_PORT" 127.0.0.1
# what arrived is the loopback's under load; the books must close
check "-u --peer-timeout 40: exit 0, the partner's books of the 100 datagrams" \
	eval '[ "$RC" = 0 ] && [ "$(( $(field 1 2) / 1000 + $(sed -n "s/^1: received [0-9]* of 100 datagrams, \([0-9]*\) lost .*/\1/p" "$OUT") ))" = 100 ]'

# peer NAME STEPS...: ctlpeer playing a partner with STEPS, its output in
# $T_TMP/NAME.out; PORT is where it listens (1 when it does not)
peer() {
	_o="$T_TMP/$1.out"; shift
	"$CTLPEER" partner "$@" >"$_o" 2>&1 &
	T_PIDS="$T_PIDS $!"
	wait_for_line "$_o" '^ok listen port ' 5 || return 1
	PORT=$(sed -n 's/^ok listen port //p' "$_o")
}

# --- a partner of an older gput refuses the bit: the client says so
if peer old sendhello oldparams; then
	OPORT=$PORT
	run_t 30 "$GPUT" --peer-timeout 30 -n 10 -l 100 -p "$OPORT" 127.0.0.1
	eq "older partner: exit 1, the refusal named" "$RC $(cat "$ERR")" \
		"1 gput: partner 127.0.0.1 port $OPORT: partner refused the test: bad request: bad PARAMS message: reserved bits set (a partner older than --peer-timeout: without it, its deadline is 10 s)"
else
	fail "ctlpeer listens"
fi
# the default asks nothing: an older partner sees the PARAMS it always saw
if peer def sendhello getparams; then
	DPORT=$PORT
	run_t 30 "$GPUT" --peer-timeout 10 -n 10 -l 100 -p "$DPORT" 127.0.0.1
	check "--peer-timeout 10 (the default): PARAMS xflags 0x0" \
		wait_for_line "$T_TMP/def.out" '^ok getparams xflags 0x0$' 10
else
	fail "ctlpeer listens"
fi

# --- the options' bounds: one line, exit 2
run_t 10 "$GPUT" --peer-timeout 9 127.0.0.1
eq "--peer-timeout 9" "$RC $(cat "$ERR")" \
	"2 gput: --peer-timeout: '9' is out of range (10 to 240)"
run_t 10 "$GPUT" --peer-timeout 241 127.0.0.1
eq "--peer-timeout 241" "$RC $(cat "$ERR")" \
	"2 gput: --peer-timeout: '241' is out of range (10 to 240)"
run_t 10 "$GPUT" -i --max-peer-timeout 241
eq "--max-peer-timeout 241" "$RC $(cat "$ERR")" \
	"2 gput: --max-peer-timeout: '241' is out of range (10 to 240)"
run_t 10 "$GPUT" -i --params-grace 0
eq "--params-grace 0" "$RC $(cat "$ERR")" \
	"2 gput: --params-grace: '0' is out of range (1 to 60)"
run_t 10 "$GPUT" -i --peer-timeout 20
eq "--peer-timeout with -i" "$RC $(cat "$ERR")" \
	"2 gput: --peer-timeout has no meaning with -i"
run_t 10 "$GPUT" --params-grace 10 127.0.0.1
eq "--params-grace without -i" "$RC $(cat "$ERR")" \
	"2 gput: --params-grace only applies to the partner (-i)"

# --- --params-grace: a client that sends no PARAMS is cut at its grace
start_daemon --params-grace 1 || { fail "gput -i starts"; t_done; }
run_t 30 "$CTLPEER" client "$D_PORT" hello readable
check "--params-grace 1: a client without PARAMS is cut, its reason logged" \
	wait_for_line "$D_LOG" "bad request: timed out waiting for a PARAMS message" 10
t_done
