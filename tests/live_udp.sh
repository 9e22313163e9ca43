#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Live tests: UDP truth on loopback. A scripted partner (tests/ctlpeer) sends
# headed datagrams in any order, with copies and gaps, so every count of the
# receiver's accounting is known exactly; --rate and --burst keep to their
# schedule; --log and tools/plot-seq; the fallback below the header's size.
. "$(dirname "$0")/lib.sh"

need_ctlpeer
jqe() { jq -e "$@" >/dev/null; }

# seq NAME GPUT-ARGS -- SEQUENCE: a partner that sends SEQUENCE (ctlpeer
# sendseq=) to a receiving gput; OUT, ERR, RC as run_t sets them.
seq_run() {
	_name=$1; shift
	_args=()
	while [ "$1" != "--" ]; do _args+=("$1"); shift; done
	shift
	rm -f "$T_TMP/sp.out"   # not the last run's "ok listen port" line
	"$CTLPEER" partner sendhello getparams sendready acceptdata put=start \
		"sendseq=$1" put=sendresult eof >"$T_TMP/sp.out" 2>&1 &
	_sp=$!
	T_PIDS="$T_PIDS $_sp"
	wait_for_line "$T_TMP/sp.out" '^ok listen port ' 5 || { fail "$_name: partner listens"; return; }
	run_t 30 "$GPUT" -u -r -p "$(sed -n 's/^ok listen port //p' "$T_TMP/sp.out")" \
		"${_args[@]}" 127.0.0.1
	wait "$_sp" 2>/dev/null
}

arrival() { sed -n 's/^l: received/received/p' "$OUT"; }

seq_run in-order -n 6 -l 100 -- 0,1,2,3,4,5
eq "in order: arrival line" "$(arrival)" "received 6 of 6 datagrams, 0 lost (0.00%)"
eq "in order: Bytes" "$(field l 2)" 600

seq_run lost-dup-reorder -n 6 -l 100 -- 0,1,1,3,2,5
eq "loss, a copy, reordering: arrival line" "$(arrival)" \
	"received 5 of 6 datagrams, 1 lost (16.67%); 1 duplicate; 1 reordered (displaced by up to 1)"
eq "a copy is not goodput: Bytes count each datagram once" "$(field l 2)" 500
eq "a copy is a call all the same" "$(field l 7)" 6

seq_run far -n 10 -l 64 -- 9,8,7,6,5,4,3,2,1,0,0,9
eq "reversed, with copies: arrival line" "$(arrival)" \
	"received 10 of 10 datagrams, 0 lost (0.00%); 2 duplicates; 9 reordered (displaced by up to 9)"

seq_run late -n 5 -l 100 -- 0,1,2,M,3,M,M
eq "after the end marker: late" "$(arrival)" \
	"received 4 of 5 datagrams, 1 lost (20.00%); 1 late (after the end marker)"

if command -v jq >/dev/null; then
	seq_run json -n 6 -l 100 --json --interval 0.1 -- 0,1,1,3,2,5
	check "--json --interval: the intervals' copies and reordering add up" jqe \
		'.sides[0] | ([.intervals[].duplicates] | add) == .udp.duplicates and ([.intervals[].reordered] | add) == .udp.reordered' "$OUT"
	check "--json: the udp keys, and unique + lost = sent" jqe \
		'.sides[0].udp | .sent == 6 and .received == 6 and .unique == 5 and .lost == 1 and .duplicates == 1 and .reordered == 1 and .late == 0 and .sequenced == true and .jitter_ms == null and (.unique + .lost == .sent)' "$OUT"
fi

# Below the header's 24 bytes: counted by length, as nttcp does
start_daemon || { fail "daemon announces its port"; t_done; }
P=$D_PORT
run_t 20 "$GPUT" -u -n 200 -l 16 -p "$P" 127.0.0.1 -w 2048
eq "-l 16, no header: arrival line" "$(sed -n 's/^1: //p' "$OUT")" \
	"received 200 of 200 datagrams, 0 lost (0.00%); datagrams under 24 bytes carry no sequence numbers, so copies and order are not told"

# --rate: the schedule bounds the sender from below (100 datagrams of
# 1000 bytes at 8 Mbit/s: 99 gaps of 1 ms), whatever the machine
run_t 20 "$GPUT" -u --rate 8M -n 100 -l 1000 -p "$P" 127.0.0.1 -w 2048
eq "--rate 8M: exit 0" "$RC" 0
check "--rate 8M: the sender kept its schedule (Real s $(field l 3) >= 0.099)" \
	awk -v t="$(awk '$1 == "l" { print $3; exit }' "$OUT")" 'BEGIN { exit !(t >= 0.099) }'
check "--rate 8M: the timing line" grep -Eq '^1: jitter [0-9.]+ ms \(RFC 3550\), delay variation [0-9.]+ ms mean, [0-9.]+ ms max$' "$OUT"
run_t 20 "$GPUT" -u --rate 8M --burst 10 -n 100 -l 1000 -p "$P" 127.0.0.1 -w 2048
check "--burst 10: 9 gaps of 10 ms (Real s >= 0.09)" \
	awk -v t="$(awk '$1 == "l" { print $3; exit }' "$OUT")" 'BEGIN { exit !(t >= 0.09) }'
eq "--burst 10: every datagram" "$(sed -n 's/^1: received \([0-9]*\) of.*/\1/p' "$OUT")" 100
run_t 20 "$GPUT" --rate 80M -n 100 -l 10000 -p "$P" 127.0.0.1
check "--rate with TCP: the schedule too (Real s >= 0.099)" \
	awk -v t="$(awk '$1 == "l" { print $3; exit }' "$OUT")" 'BEGIN { exit !(t >= 0.099) }'

# --log and the figure
run_t 20 "$GPUT" -u -r --rate 20M -n 300 -l 1000 --log "$T_TMP/seq.log" -p "$P" 127.0.0.1 -w 2048
eq "--log: exit 0" "$RC" 0
eq "--log: a line per datagram that arrived" "$(grep -vc '^#' "$T_TMP/seq.log")" \
	"$(sed -n 's/^l: received \([0-9]*\) of.*/\1/p' "$OUT")"
check "--log: the sender's count" grep -qx '# sent 300 datagrams, sequence numbers 0 to 299' "$T_TMP/seq.log"
check "--log: the fields" awk '!/^#/ && !($1 ~ /^[0-9]+$/ && $2 ~ /^[0-9.]+$/ && $3 ~ /^[0-9.]+$/ && $4 ~ /^-?[0-9.]+$/ && $5 == 1000) { bad = 1 } END { exit bad }' "$T_TMP/seq.log"
if command -v gnuplot >/dev/null; then
	run_t 60 tools/plot-seq "$T_TMP/seq.log" "$T_TMP/seq.png"
	check "tools/plot-seq draws a PNG" eval '[ "$RC" = 0 ] && [ "$(head -c 4 "$T_TMP/seq.png" | od -An -c | tr -d " ")" = "211PNG" ]'
fi

usage_err() {
	run_t 5 "$GPUT" "${@:2}"
	eq "usage: $1" "$RC:$(cat "$ERR")" "2:gput: $1"
}
usage_err "--rate and -g cannot be used together" -u --rate 5M -g 100 host
usage_err "--burst needs --rate or -g" -u --burst 4 host
usage_err "--log writes what the local side receives: use it with -r" -u --log x host
usage_err "--log applies to UDP only" -r --log x host
usage_err "--rate: 'fast' is not a rate (use e.g. 10M, 1G, 100k)" --rate fast host
t_done
