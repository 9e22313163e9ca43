#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# make bench's report (tools/bench-report.awk) from raw lines made here: a
# ratio to the host's ceiling is printed only when the row stays under it;
# a row that beats its ceiling makes the report say "ceiling invalid" for
# it, with both figures, and the JSON marks the row, ratio null. A peer's
# run whose receiver counted less than was sent ("short": iperf2 2.1.8's
# server) is no result: not in its row, said once, counted in the JSON.
. "$(dirname "$0")/lib.sh"

RAW="$T_TMP/raw"
# run PROTO LEN ROW ROUND RXBYTES TXBYTES MBITS TXCPU RXCPU CLIENTCPU LOSS TARGET
for r in 1 2 3; do
	cat <<EOT
run tcp 131072 gput $r 1000000000 1000000000 30000 0.2 0.2 0.2 - -
run tcp 131072 iperf3 $r 1000000000 1000000000 20000 0.3 0.3 0.3 - -
run tcp 131072 hostcopy $r 1000000000 1000000000 25000 0.2 0.2 0.2 - -
run tcp 1448 gput $r 1000000000 1000000000 4000 0.5 0.5 0.5 - -
run tcp 1448 hostcopy $r 1000000000 1000000000 5000 0.4 0.4 0.4 - -
EOT
	if [ $r = 3 ]; then
		echo "short tcp 1448 iperf2 $r 989999000 1000000000"
		echo "run tcp 1448 iperf2 $r 989999000 1000000000 - - - - 0 -"
	else
		echo "run tcp 1448 iperf2 $r 1000000000 1000000000 3000 - 0.4 0.5 - -"
	fi
done >"$RAW"
awk -v place="test" -v ceil=1 -v json="$T_TMP/b.json" -v steps=1 -v udpmb=0 \
	-v uwin=0 -v took=1 -f tools/bench-report.awk "$RAW" >"$T_TMP/out" 2>&1
eq "report: exit 0" "$?" 0
row() { awk -v l="$1" -v n="$2" '$0 ~ "^" l " " { c++; if (c == n) { print $NF; exit } }' "$T_TMP/out"; }
eq "128 KiB: gput's /ceil says invalid" "$(row gput 1)" "invalid"
eq "128 KiB: iperf3 under the ceiling keeps its ratio" \
	"$(awk '/^iperf3 / { print $NF; exit }' "$T_TMP/out")" "0.800"
eq "1448: gput under the ceiling keeps its ratio" "$(row gput 2)" "0.800"
eq "the verdict line, once" "$(grep -c '^ceiling invalid:' "$T_TMP/out")" 1
eq "the verdict names both figures" "$(grep '^ceiling invalid:' "$T_TMP/out")" \
	"ceiling invalid: TCP 131072, gput at 30000.0 Mbit/s beat host: copy at 25000.0 (1.200x)"
eq "JSON: the row marked, no ratio" \
	"$(jq -c '[.sections[] | select(.len == 131072) | .rows[] | select(.row == "gput") | .ceiling_invalid, .vs_ceiling]' "$T_TMP/b.json" 2>&1)" \
	'[true,null]'
eq "JSON: a row under its ceiling" \
	"$(jq -c '[.sections[] | select(.len == 1448) | .rows[] | select(.row == "gput") | .ceiling_invalid, .vs_ceiling]' "$T_TMP/b.json" 2>&1)" \
	'[false,0.8]'
eq "the short run is not in iperf2's row" \
	"$(awk '/^iperf2 / { print $2, $3, $4, $5; exit }' "$T_TMP/out")" "2 3000.0 3000.0 3000.0"
eq "the short run said once" "$(grep 'under-counted' "$T_TMP/out")" \
	"iperf2 server under-counted 1 of 3 runs: its own count short of the bytes sent, not used (those rounds' best peer is the best of the others)"
eq "paired: rounds with a peer only" \
	"$(awk '/^best peer: iperf2/ { getline; print $1, $2, $3; exit }' "$T_TMP/out")" "gput 1.333 [1.333..1.333]"
eq "JSON: the short run counted" \
	"$(jq -c '[.sections[] | select(.len == 1448) | .rows[] | .undercounted]' "$T_TMP/b.json" 2>&1)" \
	'[0,0,1]'
t_done
