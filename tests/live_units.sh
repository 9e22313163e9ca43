#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Live test: gput.service's limits hold what the partner it runs allows.
# The unit's TasksMax is computed from its ExecStart (--max-sessions,
# --max-handshakes, --max-streams, the defaults of include/config.h
# otherwise) as 1 + H + S x (P + 3), and its MemoryMax from the tests' memory
# budget; its key-file advice is the credential way (DynamicUser= owns no
# file of /etc). As root the "+ 3" is measured: a partner run by a user of
# its own under RLIMIT_NPROC serves -P 8 --latency with exactly 1 + 8 + 3
# tasks, and with one fewer tells its client why the last stream could not
# start (an ERROR, not a stream that saw its peer vanish).
. "$(dirname "$0")/lib.sh"

UNIT=tools/gput.service
# key VALUE of the unit's first "KEY=" line
key() { sed -n "s/^$1=//p" "$UNIT" | head -n 1; }
# opt NAME DEFAULT: the value of --NAME on the ExecStart line, or DEFAULT
opt() {
	_v=$(key ExecStart | sed -n "s/.*--$1[ =]\([^ ]*\).*/\1/p")
	echo "${_v:-$2}"
}
# def NAME: a #define of include/config.h (STREAM_MAX's of xfer_params.h)
def() { sed -n "s/^#define $1 *\([0-9]*\).*/\1/p" include/config.h include/xfer_params.h; }
# bytes SIZE: 4M, 512M, 64K as bytes (K, M, G: powers of 1024)
bytes() {
	case $1 in
	*K) echo $(( ${1%K} << 10 )) ;; *M) echo $(( ${1%M} << 20 )) ;;
	*G) echo $(( ${1%G} << 30 )) ;; *) echo "$1" ;;
	esac
}

S=$(opt max-sessions "$(def PARTNER_MAX_SESSIONS)")
H=$(opt max-handshakes "$(def PARTNER_MAX_HANDSHAKES)")
P=$(opt max-streams "$(def STREAM_MAX)")
B=$(bytes "$(opt max-buffer 4M)")
eq "the unit's limits read (sessions, handshakes, streams)" \
	"$S $H $P" "4 10 128"
NEED=$(( 1 + H + S * (P + 3) ))
TM=$(key TasksMax)
check "gput.service TasksMax=$TM holds 1 + $H + $S x ($P + 3) = $NEED tasks" \
	eval '[ -n "$TM" ] && [ "$TM" -ge "$NEED" ]'
MEM=$(( S * (16 * B + (32 << 20)) ))
MM=$(bytes "$(key MemoryMax)")
check "gput.service MemoryMax=$(key MemoryMax) holds $S tests' budgets ($MEM bytes)" \
	eval '[ -n "$MM" ] && [ "$MM" -gt "$MEM" ]'
eq "gput.service: the limits' comment names the figure" \
	"$(grep -c "= $NEED\. " "$UNIT")" 1
check "gput.service: the key comes as a credential (LoadCredential=, %d)" eval \
	'grep -q "^#   LoadCredential=key:/etc/gput/key$" "$UNIT" &&
	 grep -q "^#   ExecStart=.* --key-file %d/key$" "$UNIT" &&
	 ! grep -q -- "--key-file /etc" "$UNIT"'

if [ "$(id -u)" != 0 ] || ! command -v setpriv >/dev/null || ! command -v prlimit >/dev/null; then
	skip "tasks of a partner under RLIMIT_NPROC (root, setpriv and prlimit needed)"
	t_done
fi
# nproc_daemon LIMIT: a partner (1 session, 1 handshake, 8 streams) run by
# a user id nothing else uses, with RLIMIT_NPROC LIMIT: every one of its
# tasks counts, and nothing else does
nproc_daemon() {
	_u=
	for _try in 1 2 3 4 5 6 7 8; do
		_u=$(( 400000 + (RANDOM * 32768 + RANDOM) % 500000 ))
		[ -z "$(ps -L -u "$_u" --no-headers 2>/dev/null)" ] && break
	done
	D_WRAP=(setpriv --reuid="$_u" --regid="$_u" --clear-groups prlimit --nproc="$1")
	start_daemon --max-sessions 1 --max-handshakes 1 --max-streams 8
	_rc=$?
	D_WRAP=()
	return $_rc
}
LAT=(--latency --latency-idle 0.2 --time 1)
# 1 listener + the test's main thread, watcher, echo and 8 streams
if nproc_daemon 12; then
	run_t 30 "$GPUT" "${LAT[@]}" -P 8 -p "$D_PORT" 127.0.0.1
	eq "RLIMIT_NPROC 12 = 1 + 8 + 3: -P 8 --latency runs" "$RC" 0
	[ "$RC" = 0 ] || cat "$ERR"
	kill "$D_PID"; wait "$D_PID" 2>/dev/null
else
	fail "a partner under RLIMIT_NPROC 12 starts"
fi
if nproc_daemon 11; then
	run_t 30 "$GPUT" "${LAT[@]}" -P 8 -p "$D_PORT" 127.0.0.1
	eq "RLIMIT_NPROC 11: exit 1" "$RC" 1
	eq "RLIMIT_NPROC 11: the client is told why (the partner's ERROR)" \
		"$(cat "$ERR")" "gput: partner 127.0.0.1 port $D_PORT: partner: cannot start stream 8 of 8: Resource temporarily unavailable"
	check "RLIMIT_NPROC 11: the partner's log says so" grep -q \
		': end: tcp receive, 8 streams, .*: cannot start stream 8 of 8: Resource temporarily unavailable$' "$D_LOG"
	# the partner sends: its streams' end reaches the receiving client too
	run_t 30 "$GPUT" -r "${LAT[@]}" -P 8 -p "$D_PORT" 127.0.0.1
	eq "RLIMIT_NPROC 11, the partner sends: the client is told why" \
		"$(cat "$ERR")" "gput: partner 127.0.0.1 port $D_PORT: partner: cannot start stream 8 of 8: Resource temporarily unavailable"
	kill "$D_PID"; wait "$D_PID" 2>/dev/null
else
	fail "a partner under RLIMIT_NPROC 11 starts"
fi
t_done
