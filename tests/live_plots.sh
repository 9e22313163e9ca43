#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# The figures' inputs: tools/plot-seq's data files (what gnuplot draws) with
# exact counts, its lost count equal to gput's arrival line on a real lossy
# run, paced and unpaced (no "all points undefined", no blank half), SVG too.
. "$(dirname "$0")/lib.sh"

if ! command -v gnuplot >/dev/null; then
	skip "figures (gnuplot not installed: apt-get install gnuplot-nox)"
	t_done
fi
lines() { if [ -f "$1" ]; then wc -l <"$1" | tr -d ' '; else echo none; fi; }

# --- a log made by hand: 12 sent; 3 and 5 lost inside, 8 to 11 at the end
cat >"$T_TMP/a.log" <<'LOG'
# gput --log: seq arrive_s send_s delay_ms len flags
# sent 12 datagrams, sequence numbers 0 to 11
0 0.000000000 0.000000000 0.000000 100 -
1 0.001000000 0.001000000 0.010000 100 -
4 0.002000000 0.004000000 0.000000 100 -
2 0.003000000 0.002000000 1.000000 100 reorder
2 0.003500000 0.002000000 1.500000 100 dup
6 0.004000000 0.006000000 0.020000 100 -
7 0.005000000 0.007000000 0.030000 100 late
LOG
run_t 60 tools/plot-seq -k "$T_TMP/k" "$T_TMP/a.log" "$T_TMP/a.png"
eq "hand-made log: exit 0, nothing on stderr" "$RC $(cat "$ERR")" "0 "
eq "hand-made log: in order, reordered, copies, late, delays" \
	"$(lines "$T_TMP/k/ok") $(lines "$T_TMP/k/reorder") $(lines "$T_TMP/k/dup") $(lines "$T_TMP/k/late") $(lines "$T_TMP/k/delay")" \
	"4 1 1 1 7"
eq "hand-made log: the lost, each at the next arrival, the tail at the last" \
	"$(tr '\n' ' ' <"$T_TMP/k/lost")" \
	"0.002000000 3 0.004000000 5 0.005000000 8 0.005000000 9 0.005000000 10 0.005000000 11 "
eq "hand-made log: sent, unique, lost" "$(cat "$T_TMP/k/counts")" "12 6 6 sent"
check "hand-made log: the legend's counts" grep -q "title 'lost (6)'.*title 'in order (4)'.*title 'reordered (1)'" "$T_TMP/k/plot.gp"
check "hand-made log: a PNG" eval '[ "$(head -c 4 "$T_TMP/a.png" | od -An -c | tr -d " ")" = "211PNG" ]'
run_t 60 tools/plot-seq "$T_TMP/a.log" "$T_TMP/a.svg"
eq "hand-made log: SVG too" "$RC $(grep -c '<svg' "$T_TMP/a.svg")" "0 1"

# an older log without the sender's count: the gaps below the highest only
grep -v '^# sent' "$T_TMP/a.log" >"$T_TMP/b.log"
run_t 60 tools/plot-seq -k "$T_TMP/kb" "$T_TMP/b.log" "$T_TMP/b.png"
eq "no sender's count: the gaps only, said so" "$RC $(cat "$T_TMP/kb/counts") $(grep -c "no sender'*s count" "$T_TMP/kb/plot.gp")" \
	"0 - 6 2 gaps 1"

# hostile names: a log file and a figure whose names carry gnuplot
# commands (a backquote, system() after a quote, a ;) are drawn, and
# nothing runs; the canary proves this gnuplot runs such a payload when it
# is pasted unescaped
rm -f "$T_TMP/canary"
gnuplot -e "x = \"\`touch $T_TMP/canary\`\"" >/dev/null 2>&1
check "the payload runs in gnuplot when pasted unescaped (canary)" test -e "$T_TMP/canary"
# (the names hold no /: the commands would touch files in the figure's
# directory, the working directory here)
EV="x\`touch pwned1\`'\"; system(\"touch pwned2\"); y=\"'"
mkdir "$T_TMP/ev"
R=$PWD
cd "$T_TMP/ev" || exit 1
cp "$T_TMP/a.log" "$T_TMP/ev/$EV.log"
run_t 60 "$R/tools/plot-seq" "$EV.log" "$EV.svg"
eq "plot-seq, hostile names: exit 0, nothing on stderr" "$RC $(cat "$ERR")" "0 "
check "plot-seq, hostile names: the figure, the name drawn as text" \
	grep -qF 'system("touch pwned2")' "$T_TMP/ev/$EV.svg"
check "plot-seq, hostile names: no command ran" eval '[ ! -e pwned1 ] && [ ! -e pwned2 ]'
cd "$R" || exit 1

run_t 10 tools/plot-seq "$T_TMP/a.log" "$T_TMP/a.jpg"
eq "a figure named neither .png nor .svg: refused" "$RC" 1

# --- real runs on loopback: a tiny receive buffer loses datagrams
start_daemon || { fail "daemon announces its port"; t_done; }
P=$D_PORT
lost_of() { sed -n 's/^l: received [0-9]* of [0-9]* datagrams, \([0-9]*\) lost.*/\1/p' "$OUT"; }
got_of() { sed -n 's/^l: received \([0-9]*\) of.*/\1/p' "$OUT"; }

run_t 60 "$GPUT" -u -r -n 20000 -l 1000 -w 8 --log "$T_TMP/u.log" -p "$P" 127.0.0.1
eq "unpaced: exit 0" "$RC" 0
L=$(lost_of) G=$(got_of)
check "unpaced: the run lost datagrams (else this test proves nothing: $L)" [ "${L:-0}" -gt 0 ]
run_t 60 tools/plot-seq -k "$T_TMP/ku" "$T_TMP/u.log" "$T_TMP/u.png"
eq "unpaced: plot-seq exit 0, gnuplot silent" "$RC $(cat "$ERR")" "0 "
eq "unpaced: the figure's lost and received are gput's" "$(cat "$T_TMP/ku/counts")" "20000 $G $L sent"
eq "unpaced: a lost marker per lost datagram" "$(lines "$T_TMP/ku/lost")" "$L"
eq "unpaced: no delay panel (no send times)" "$(lines "$T_TMP/ku/delay") $(grep -c 'layout 1,1' "$T_TMP/ku/plot.gp")" "0 1"

run_t 60 "$GPUT" -u -r --rate 50M -n 3000 -l 1000 -w 8 --log "$T_TMP/p.log" -p "$P" 127.0.0.1
eq "paced: exit 0" "$RC" 0
L=$(lost_of) G=$(got_of)
run_t 60 tools/plot-seq -k "$T_TMP/kp" "$T_TMP/p.log" "$T_TMP/p.png"
eq "paced: plot-seq exit 0, gnuplot silent" "$RC $(cat "$ERR")" "0 "
eq "paced: the figure's counts are gput's" "$(cat "$T_TMP/kp/counts")" "3000 $G $L sent"
eq "paced: a delay point per datagram that arrived" "$(lines "$T_TMP/kp/delay")" "$(grep -vc '^#' "$T_TMP/p.log")"

# --- make demo's goodput figure: its data rows from gput --repeat --csv
run_t 60 "$GPUT" --repeat 3 --csv -n 100 -l 1000 -p "$P" 127.0.0.1
eq "--repeat 3 --csv: exit 0" "$RC" 0
cp "$OUT" "$T_TMP/rep.csv"
want=$(awk -F, '$1 ~ /^[0-9]+$/ && $3 == "recv" { x[n++] = $6; s += $6 }
    END { m = s / n; lo = hi = x[0]; for (i = 1; i < n; i++) { if (x[i] < lo) lo = x[i]; if (x[i] > hi) hi = x[i] }
          printf "%.6f %.6f %.6f %d", m, lo, hi, n }' "$T_TMP/rep.csv")
got=$(awk -f tools/goodput-row.awk "$T_TMP/rep.csv")
eq "goodput-row.awk: the receiver's mean, min, max, n of the runs" \
	"$(echo "$got" | awk '{ printf "%.6f %.6f %.6f %d", $1, $2, $3, $6 }')" "$want"
check "goodput-row.awk: the CI around the mean" \
	awk -v r="$got" 'BEGIN { split(r, v, " "); exit !(v[4] < v[1] && v[1] < v[5]) }'

cat >"$T_TMP/g.dat" <<'DAT'
# proto length expected_mbit measured_mbit min max ci_low ci_high n
udp 64 4.9231 4.9265 4.9101 4.9380 4.8900 4.9630 3
udp 1472 9.5709 9.5371 9.5302 9.5420 9.5211 9.5531 3
tcp 1448 9.4148 9.4030 9.4000 9.4060 9.3960 9.4100 3
tcp 4000 9.4148 9.4001
DAT
for f in png svg; do
	run_t 60 tools/plot-goodput.sh -s 'one line\nanother' "$T_TMP/g.dat" "$T_TMP/g.$f"
	eq "plot-goodput.sh: $f, gnuplot silent" "$RC $(cat "$ERR")" "0 "
done
cp "$T_TMP/g.dat" "$T_TMP/ev/$EV.dat"
cd "$T_TMP/ev" || exit 1
run_t 60 "$R/tools/plot-goodput.sh" -s "$EV\nsecond \`touch pwned3\` line" "$EV.dat" "$EV.svg"
eq "plot-goodput.sh, hostile names and subtitle: exit 0, gnuplot silent" "$RC $(cat "$ERR")" "0 "
check "plot-goodput.sh, hostile subtitle: drawn as text, on two lines" eval \
	'grep -qF "system(\"touch pwned2\")" "$EV.svg" && grep -qF "second \`touch pwned3\` line" "$EV.svg"'
check "plot-goodput.sh, hostile names: no command ran" eval '[ ! -e pwned1 ] && [ ! -e pwned2 ] && [ ! -e pwned3 ]'
cd "$R" || exit 1
check "plot-goodput.sh: a PNG" eval '[ "$(head -c 4 "$T_TMP/g.png" | od -An -c | tr -d " ")" = "211PNG" ]'
eq "plot-goodput.sh: an SVG" "$(grep -c '<svg' "$T_TMP/g.svg")" 1
run_t 60 tools/plot-goodput.sh -b minmax "$T_TMP/g.dat" "$T_TMP/m.png"
eq "plot-goodput.sh -b minmax" "$RC" 0
echo "udp 64 4.9 4.9 4.8" >>"$T_TMP/g.dat"
run_t 60 tools/plot-goodput.sh "$T_TMP/g.dat" "$T_TMP/b.png"
eq "plot-goodput.sh: a line of 5 columns refused" "$RC $(tail -n 1 "$ERR")" \
	"1 plot-goodput.sh: $T_TMP/g.dat: no data lines, or a line of neither 4 nor 9 columns"

# --- a short run says how far its ratio may read high: 2/N of N frames
run_t 30 "$GPUT" -u -n 52 -l 1000 -w 1024 --link 10M -p "$P" 127.0.0.1
eq "--link, 52 datagrams: exit 0" "$RC" 0
eq "--link, 52 datagrams of one frame: 2/50 = 4%, under the receiver's ratio" \
	"$(grep -A1 '^1: measured' "$OUT" | tail -n 1)" \
	"1: a run of 52 frames: its ratio may read up to 4.00% high (52 frames in 50 frame times: the window opens at the first byte, a shaper may pass the first frame at once)"
run_t 30 "$GPUT" -u -n 45000 -l 64 -w 4096 --link 10M -p "$P" 127.0.0.1
# (the frames are the receiver's: a loaded host may drop datagrams on
# loopback, and under 40000 received the line is due, once)
got=$(awk '$1 == "1" && $2 ~ /^[0-9]+$/ { print $2 / 64 }' "$OUT")
want=0
[ "${got:-0}" -lt 40000 ] && want=1
eq "--link, 45000 frames ($got received): the line only under 40000, once" \
	"$RC $(grep -c 'a run of' "$OUT")" "0 $want"
if command -v jq >/dev/null; then
	run_t 30 "$GPUT" -u -n 52 -l 1000 -w 1024 --link 10M --json -p "$P" 127.0.0.1
	check "--link --json: frames and the bias" jq -e '.link.frames == 52 and .link.ratio_may_read_high == 0.04' "$OUT"
fi
t_done
