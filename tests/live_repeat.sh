#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# --repeat, --pause, --ci against real partners: on loopback, every output
# format and ^C between runs; on the emulated 10 Mbit/s link (a testbed of
# its own, prefix gput-rp$$, root only), the summary recomputed from the
# runs in the same document (mean, stdev, min, max exactly; the 95% CI with
# t(0.975, 4) to 1e-9), and --repeat 3,20 --ci 95,5 stopping at the first
# run whose CI is met, recomputed from the runs. About 20 s.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

PATH=$PATH:/usr/sbin:/sbin
if ! command -v jq >/dev/null; then
	skip "repeat (needs jq: apt-get install jq)"
	t_done
fi
if [ ! -x "$GPUT" ]; then
	fail "repeat ($GPUT not built)"
	t_done
fi

# recompute FILE: the receiver's real_mbit of every complete run against the
# summary: "mean stdev min max median n" equal (1 each), and ci_low/ci_high
# within 1e-9 of mean -+ T * s / sqrt(n) (T given).
recompute() {
	jq -r --argjson T "$2" '
	  (.runs | map(select(.interrupted | not)) | map(.sides[] |
	     select(.role == "recv") | .real_mbit)) as $x |
	  ($x | length) as $n | ($x | add / $n) as $m |
	  (($x | map((. - $m) * (. - $m)) | add) / ($n - 1) | sqrt) as $s |
	  ($x | sort) as $o |
	  (if $n % 2 == 1 then $o[($n - 1) / 2] else ($o[$n / 2 - 1] + $o[$n / 2]) / 2 end) as $med |
	  (.summary.sides[] | select(.role == "recv") | .real_mbit) as $g |
	  ($T * $s / ($n | sqrt)) as $h |
	  [ ($g.mean == $m), ($g.stdev == $s), ($g.min == $o[0]),
	    ($g.max == $o[-1]), ($g.median == $med), ($g.n == $n),
	    (($g.ci_low - ($m - $h)) | fabs) < 1e-9 * $m,
	    (($g.ci_high - ($m + $h)) | fabs) < 1e-9 * $m ] |
	  map(if . then 1 else 0 end) | join(" ")' "$1"
}

# ---- loopback ----
start_daemon || { fail "daemon on loopback"; t_done; }
run_t 30 "$GPUT" --repeat 3 --pause 0 --json -n 300 -l 1448 -p "$D_PORT" 127.0.0.1
eq "loopback --repeat 3 --json: exit 0" "$RC" 0
eq "loopback --json: one document with 3 runs numbered 1-3" \
    "$(jq -c '[.runs[].run]' "$OUT")" "[1,2,3]"
eq "loopback --json: repeat {n, min, max, level, target, met}" \
    "$(jq -c '.repeat | [.n, .min, .max, .level, .target_width_pct, .met]' "$OUT")" \
    "[3,3,3,95,null,null]"
# t(0.975, 2)
eq "loopback --json: the summary recomputed from the runs" \
    "$(recompute "$OUT" 4.302652729749464)" "1 1 1 1 1 1 1 1"
eq "loopback --json: every figure of both sides" \
    "$(jq -c '[.summary.sides[] | [.side, .role, (.real_mbit.n), (.cpu_mbit.n), (.real_s.n), (.cpu_s.n), (.real_calls_s.n), .loss_pct, .jain]]' "$OUT")" \
    '[["l","send",3,3,3,3,3,null,null],["1","recv",3,3,3,3,3,null,null]]'

run_t 30 "$GPUT" --repeat 2 --pause 0 --json -P 2 -n 300 -l 1448 -p "$D_PORT" 127.0.0.1
eq "loopback -P 2 --json: the receiver's streams, each with real_mbit and fct_s of 2 runs; Jain" \
    "$(jq -c '.summary.sides[1] | [.jain.n, (.streams | map([.stream, .real_mbit.n, .fct_s.n]))]' "$OUT")" \
    "[2,[[1,2,2],[2,2,2]]]"
eq "loopback -P 2 --json: stream 2's mean, min, max from the runs" \
    "$(jq '[.runs[].sides[1].streams[1].real_mbit] as $x |
        .summary.sides[1].streams[1].real_mbit | [.mean == ($x | add / 2),
        .min == ($x | min), .max == ($x | max)] | all' "$OUT")" true

run_t 30 "$GPUT" --repeat 2 --pause 0.1 -T -n 300 -l 1448 -p "$D_PORT" 127.0.0.1
eq "loopback table: exit 0" "$RC" 0
eq "loopback table: a title line per run" "$(grep -c '^run [12]:$' "$OUT")" 2
eq "loopback table: two nttcp lines per run" \
    "$(sed '/^summary/q' "$OUT" | grep -c '^[l1] ')" 4
eq "loopback table: 5 summary lines per side, n 2" \
    "$(grep -c '^[l1] .* +- .* min .* max .* n 2$' "$OUT")" 10
check "loopback table: the summary header" grep -q '^summary of 2 runs: mean +- half-width of the 95% confidence interval' "$OUT"

run_t 30 "$GPUT" --repeat 2 --pause 0 --csv -u -n 300 -l 1448 -p "$D_PORT" 127.0.0.1
eq "loopback --csv: exit 0" "$RC" 0
eq "loopback --csv: the header" "$(head -n 1 "$OUT")" \
    "run,side,role,bytes,calls,real_mbit,cpu_mbit,real_s,cpu_s,real_calls_s,loss_pct,jitter_ms,jain,link_ratio,latency_idle_p50_ms,latency_loaded_p50_ms,rpm,fct_s"
eq "loopback --csv: 2 runs x 2 sides, 8 statistics x 2 sides" \
    "$(cut -d, -f1 "$OUT" | sed 1d | sort | uniq -c | awk '{ printf "%s%s:%s", (NR > 1 ? " " : ""), $2, $1 }')" \
    "1:2 2:2 ci_high:2 ci_low:2 max:2 mean:2 median:2 min:2 n:2 stdev:2"
eq "loopback --csv: every row has 18 fields" \
    "$(awk -F, 'NF != 18' "$OUT" | wc -l)" 0
eq "loopback --csv -u: the receiver's loss_pct is a number in every run row" \
    "$(awk -F, '$2 == "1" && $11 != "" { n++ } END { print n + 0 }' "$OUT")" 10

# JSON lines, and ^C during the pause after the first run
"$GPUT" --repeat 50 --pause 30 --json-lines -n 300 -l 1448 -p "$D_PORT" 127.0.0.1 \
    >"$T_TMP/jl" 2>"$T_TMP/jl.err" &
JP=$!
T_PIDS="$T_PIDS $JP"
one_run() { [ "$(grep -c '"type":"run"' "$T_TMP/jl" 2>/dev/null)" -ge 1 ]; }
if wait_until 20 one_run; then
	kill -INT "$JP"
	wait "$JP"
	eq "^C in the pause: exit 130" "$?" 130
	eq "^C: the run lines and the summary last" \
	    "$(jq -r '.type' "$T_TMP/jl" | tr '\n' ' ')" "run repeat "
	eq "^C: the summary of the complete run, interrupted; no stdev or CI of one" \
	    "$(tail -n 1 "$T_TMP/jl" | jq -c '[.repeat.n, .interrupted, (.summary.sides[1].real_mbit | [.n, .stdev, .ci_low])]')" \
	    "[1,true,[1,null,null]]"
	eq "^C: the run's goodput is the summary's mean" \
	    "$(jq -s '.[0].sides[1].real_mbit == .[1].summary.sides[1].real_mbit.mean' "$T_TMP/jl")" true
else
	fail "--json-lines: a run line within 20 s"
fi

# ^C inside the second run (its intervals are arriving): that run's line,
# interrupted, and the summary of the first
"$GPUT" --repeat 3 --pause 0 --time 3 --interval 0.2 --json-lines -p "$D_PORT" \
    127.0.0.1 >"$T_TMP/jl2" 2>"$T_TMP/jl2.err" &
JP=$!
T_PIDS="$T_PIDS $JP"
second_running() {
	awk '/"type":"run"/ { r = 1; next } r && /"type":"interval"/ { f = 1 }
	     END { exit !f }' "$T_TMP/jl2" 2>/dev/null
}
if wait_until 20 second_running; then
	kill -INT "$JP"
	wait "$JP"
	eq "^C in run 2: exit 130" "$?" 130
	eq "^C in run 2: two run lines (the second interrupted), the summary of one" \
	    "$(jq -c 'select(.type != "interval") | [.type, .run, .interrupted, .repeat.n]' "$T_TMP/jl2" | tr '\n' ' ')" \
	    '["run",1,false,null] ["run",2,true,null] ["repeat",null,true,1] '
else
	fail "--json-lines: run 2's intervals within 20 s"
fi

# a run that fails ends the repeat: a partner that serves one test only
# (--once) refuses the second; the first run and its summary are printed
start_daemon --once || fail "daemon --once"
run_t 30 "$GPUT" --repeat 3 --pause 0 --json -n 100 -p "$D_PORT" 127.0.0.1
eq "a failed second run: exit 1, one run and its summary, the error said" \
    "$RC $(jq -c '[(.runs | length), .repeat.n, (.summary.sides[1].real_mbit.n), (.error != null)]' "$OUT")" \
    "1 [1,1,1,true]"
# refused (the partner has closed its socket), or reset (its backlog still
# took the connection as it exited): both name the port and why
check "a failed second run: stderr names the partner and why" \
    grep -Eq "^gput: (partner 127.0.0.1 port $D_PORT: .|cannot connect to 127.0.0.1 port $D_PORT: Connection refused)" "$ERR"
start_daemon --once || fail "daemon --once"
run_t 30 "$GPUT" --repeat 3 --pause 0 -n 100 -p "$D_PORT" 127.0.0.1
eq "the table: run 1's lines, run 2's title, the summary of 1 run; exit 1" \
    "$RC $(grep -c '^run [0-9]:$' "$OUT") $(grep -c '^summary of 1 run:' "$OUT")" "1 2 1"

# bad input: exit 2, one line
for a in "--repeat 1" "--repeat 4,3" "--repeat 3 --ci 40" "--ci 95" "--pause 1" \
    "--repeat 3 --ci 95,0"; do
	# shellcheck disable=SC2086 # the options are words
	run_t 5 "$GPUT" $a 127.0.0.1
	eq "'$a': exit 2 with one line" "$RC $(wc -l <"$ERR")" "2 1"
done

# ---- the emulated 10 Mbit/s link ----
tb_init "repeat on the testbed" rp nft tc
tb up 10M
tb_daemon
run_t 60 "$TESTBED" exec a "$GPUT" --repeat 5 --json -n 300 -l 1448 -p "$D_PORT" 198.18.0.2
eq "10M: --repeat 5 --json: exit 0, 5 runs" "$RC $(jq '.runs | length' "$OUT")" "0 5"
# t(0.975, 4)
eq "10M: mean, stdev, min, max, median, n and the 95% CI from the 5 runs" \
    "$(recompute "$OUT" 2.7764451051977987)" "1 1 1 1 1 1 1 1"
run_t 120 "$TESTBED" exec a "$GPUT" --repeat 3,20 --ci 95,5 --json -n 300 -l 1448 \
    -p "$D_PORT" 198.18.0.2
# The stopping rule, recomputed from the runs: the 95% CI's whole width (2 t
# s / sqrt(k) over the mean, t(0.975, k - 1)) of the first k runs' receiver
# goodput is over 5% for every k from 3 below n and at most 5% at n. How
# many runs that takes is the link's and the host's (3 on a quiet host).
stops_when_met() {
	jq -r '[4.302652729749464, 3.182446305284263, 2.7764451051977987,
	    2.570581835636314, 2.446911848791681, 2.3646242515927849,
	    2.306004135033371, 2.2621571627409915, 2.2281388519649385,
	    2.200985160082949, 2.1788128296634177, 2.1603686564610127,
	    2.1447866879169273, 2.131449545559323, 2.1199052992210112,
	    2.1098155778331806, 2.10092204024096, 2.093024054408263] as $t |
	  (.runs | map(select(.interrupted | not)) | map(.sides[] |
	     select(.role == "recv") | .real_mbit)) as $x | ($x | length) as $n |
	  def w($k): ($x[:$k]) as $y | ($y | add / $k) as $m |
	    (($y | map((. - $m) * (. - $m)) | add) / ($k - 1) | sqrt) as $s |
	    200 * $t[$k - 3] * $s / ($k | sqrt) / $m;
	  [ $n >= 3, $n <= 20, .repeat.n == $n, .repeat.met,
	    (w($n) <= 5 + 1e-9),
	    ([range(3; $n)] | all(w(.) > 5 - 1e-9)) ] |
	  map(if . then 1 else 0 end) | join(" ")' "$1"
}
eq "10M: --repeat 3,20 --ci 95,5 stops at the first run whose CI is met ($(jq .repeat.n "$OUT") runs)" \
    "$RC $(jq -c '.repeat | [.target_width_pct, .met, (.width_pct <= 5)]' "$OUT") $(stops_when_met "$OUT")" \
    "0 [5,true,true] 1 1 1 1 1 1"
t_done
