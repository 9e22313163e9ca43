#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Live tests: --time, --interval, --omit, --cc, --json, --json-lines, --csv
# on loopback. Interval sums equal the totals exactly, both sides, both
# protocols and directions; the partner's intervals arrive while the run
# goes on; JSON parses; ^C leaves valid JSON.
. "$(dirname "$0")/lib.sh"

jqe() { jq -e "$@" >/dev/null; }
start_daemon || { fail "daemon announces its port"; t_done; }
P=$D_PORT

# ivsum TAG FIELD-WORD: the sum of the numbers before "bytes" or "calls" on
# TAG's interval lines
ivsum() { awk -v t="$1" -v w="$2" '$1 == t && /calls/ { for (i = 2; i <= NF; i++) if ($i == w) s += $(i - 1) } END { printf "%.0f\n", s }' "$OUT"; }
ivcount() { awk -v t="$1" '$1 == t && / s +[0-9]+ bytes/ { n++ } END { print n + 0 }' "$OUT"; }
total() { awk -v t="$1" -v c="$2" '$1 == t && !/calls/ { print $c; exit }' "$OUT"; }

for dir in -t -r; do
	for proto in tcp udp; do
		u=; [ "$proto" = udp ] && u="-u -g 200 -l 1000"
		n="$proto $dir --time 3 --interval 1"
		run_t 30 "$GPUT" $dir $u --time 3 --interval 1 -p "$P" 127.0.0.1 -w 2048
		eq "$n: exit 0" "$RC" 0
		for t in l 1; do
			eq "$n: $t intervals add up to Bytes" "$(ivsum $t bytes)" "$(total $t 2)"
			eq "$n: $t intervals add up to Calls" "$(ivsum $t calls)" "$(total $t 7)"
			check "$n: $t has 3 or 4 intervals, the last marked" \
				awk -v t="$t" '$1 == t && / s +[0-9]+ bytes/ { n++; last = $0 } END { exit !(n >= 3 && n <= 4 && last ~ /last/) }' "$OUT"
		done
		check "$n: the sender ran about 3 s" awk -v d="$dir" \
			'($1 == (d == "-t" ? "l" : "1")) && !/calls/ && $3 >= 2.9 && $3 <= 3.5 { ok = 1 } END { exit !ok }' "$OUT"
	done
done

# the partner's lines arrive while the run goes on
"$GPUT" --time 3 --interval 1 -p "$P" 127.0.0.1 >"$T_TMP/live.out" 2>&1 &
LC=$!
if wait_for_line "$T_TMP/live.out" '^1 +0\.00- *1\.00 s' 3; then
	check "partner's first interval shown before the run ends" kill -0 "$LC"
else
	fail "partner's first interval shown before the run ends"
fi
wait "$LC"

# count mode with intervals
run_t 30 "$GPUT" --interval 0.1 -n 20000 -l 1448 -g 10 -p "$P" 127.0.0.1
eq "count mode --interval: exit 0" "$RC" 0
eq "count mode --interval: l adds up" "$(ivsum l bytes) $(ivsum l calls)" "28960000 20000"
eq "count mode --interval: 1 adds up" "$(ivsum 1 bytes)" 28960000

# --omit: the first second omitted, a steady line per side of the rest
run_t 30 "$GPUT" --time 3 --interval 1 --omit 1 -p "$P" 127.0.0.1
eq "--omit: exit 0" "$RC" 0
check "--omit: the first interval is omitted" grep -Eq '^l +0\.00- *1\.00 s .*omitted' "$OUT"
STEADY=$(awk '$1 == "l" && /calls/ && !/omitted/ { for (i = 2; i <= NF; i++) if ($i == "bytes") s += $(i - 1) } END { printf "%.0f", s }' "$OUT")
check "--omit: steady line = the bytes of the intervals not omitted ($STEADY)" \
	grep -Eq "^l steady state after 1\.00 s: $STEADY bytes in [0-9.]+ s, [0-9.]+ MBit/s" "$OUT"

# --cc
if grep -qw reno /proc/sys/net/ipv4/tcp_available_congestion_control; then
	run_t 20 "$GPUT" -v --cc reno -n 1000 -p "$P" 127.0.0.1
	eq "--cc reno: exit 0" "$RC" 0
	check "--cc reno: both ends report reno" [ "$(grep -Ec '^[l1]: tcp reno,' "$OUT")" -eq 2 ]
fi
run_t 5 "$GPUT" --cc nosuchcc -p "$P" 127.0.0.1
check "--cc unknown: usage error listing the algorithms" [ "$RC" -eq 2 ] && \
	grep -q "^gput: --cc: unknown congestion control 'nosuchcc' (this host offers: " "$ERR"

# JSON, JSON lines, CSV
if command -v jq >/dev/null; then
	run_t 30 "$GPUT" --json --time 2 --interval 0.5 --omit 0.5 -p "$P" 127.0.0.1
	eq "--json: exit 0" "$RC" 0
	check "--json: parses" jqe . "$OUT"
	check "--json: intervals add up, both sides" jqe \
		'[.sides[] | ([.intervals[].bytes] | add) == .bytes and ([.intervals[].calls] | add) == .calls] | all' "$OUT"
	check "--json: keys" jqe '.version and .params.mode == "time" and (.sides | length) == 2 and .sides[0].side == "l" and .sides[0].role == "send" and (.sides[0].tcp_info.cc | type) == "string" and .sides[1].steady.bytes >= 0 and .error == null' "$OUT"
	run_t 30 "$GPUT" --json -u -n 100 -l 1000 -p "$P" 127.0.0.1 -w 2048
	check "--json UDP: udp counts" jqe '.sides[1].udp.sent == 100 and .sides[1].udp.received == 100 and .sides[1].udp.lost == 0' "$OUT"
	run_t 30 "$GPUT" --json-lines --time 2 --interval 0.5 -p "$P" 127.0.0.1
	eq "--json-lines: exit 0" "$RC" 0
	check "--json-lines: every line parses" eval 'while read -r line; do echo "$line" | jq -e . >/dev/null || exit 1; done <"$OUT"'
	check "--json-lines: intervals, then the summary last" eval \
		'[ "$(head -n 1 "$OUT" | jq -r .type)" = interval ] && [ "$(tail -n 1 "$OUT" | jq -r .type)" = summary ]'
	run_t 10 "$GPUT" --json -p 1 127.0.0.1
	check "--json, partner not running: valid JSON with error, exit 1" eval \
		'[ "$RC" = 1 ] && jqe ".error | test(\"refused\")" "$OUT"'
	"$GPUT" -v --json --time 30 -p "$P" 127.0.0.1 >"$T_TMP/ij" 2>"$T_TMP/ije" &
	IJ=$!
	wait_for_line "$T_TMP/ije" '^gput: data tcp ' 10
	kill -INT "$IJ"
	wait "$IJ"; eq "--json ^C: exit 130" "$?" 130
	check "--json ^C: valid JSON, interrupted, both sides partial" jqe \
		'.interrupted == true and .sides[0].bytes > 0 and .sides[1].bytes > 0' "$T_TMP/ij"
else
	skip "JSON (jq is not installed)"
fi
run_t 20 "$GPUT" --csv -n 100 -p "$P" 127.0.0.1
eq "--csv: header" "$(head -n 1 "$OUT")" "side,role,bytes,calls,real_s,cpu_s,real_mbit,cpu_mbit,real_calls_s,cpu_calls_s,limit,limit_ratio"
check "--csv: a row per side" eval '[ "$(grep -c "^[l1],\(send\|recv\),409600," "$OUT")" = 2 ]'

# progress: on a terminal only, and not with -q (script(1) gives a pty)
if command -v script >/dev/null; then
	run_t 30 script -qec "$GPUT --time 3 -p $P 127.0.0.1 >/dev/null" /dev/null
	check "progress on a terminal" eval "tr '\r' '\n' <\"\$OUT\" | grep -Eq '^gput: [0-9.]+ MB, [0-9.]+ MBit/s, [0-9]+ s left'"
	run_t 30 script -qec "$GPUT -q --time 3 -p $P 127.0.0.1 >/dev/null" /dev/null
	check "no progress with -q" eval "! grep -q 'MBit/s, ' \"\$OUT\""
fi
run_t 30 "$GPUT" --time 3 -p "$P" 127.0.0.1
check "no progress when standard error is not a terminal" eval "! grep -q 'MBit/s, ' \"\$ERR\""

# usage errors
usage_err() {
	run_t 5 "$GPUT" "${@:2}"
	eq "usage: $1" "$RC:$(cat "$ERR")" "2:gput: $1"
}
usage_err "--time and -n/-x cannot be used together" --time 2 -n 10 host
usage_err "--omit must be shorter than --time" --time 2 --omit 2 host
usage_err "--omit must be a whole number of --interval" --interval 1 --omit 1.5 host
usage_err "--cc applies to TCP only" -u --cc reno host
usage_err "--interval: '0.05': from 0.1 s to 86400 s" --interval 0.05 host
usage_err "--time: 'x' is not a number of seconds" --time x host
t_done
