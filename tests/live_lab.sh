#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# gput-lab run: on a stand-in testbed (tests/labstub-testbed: one namespace,
# loopback only) a small lab runs and reports; ^C, SIGTERM, a failing step
# and a testbed that cannot be built each end the run with everything it
# started gone (gput-testbed down called, the namespace removed, no process
# left: every process the lab starts runs this test's own gput path). Then,
# where tools/gput-testbed builds topologies (up --topology), every shipped
# lab with --quick: exit 0, report.md with every step, each plot's PNG and
# SVG, the .dat and results.json, and after every point with delay lines
# whether the host kept up (lab 003 has them). Root only.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

PATH=$PATH:/usr/sbin:/sbin
if [ "$(id -u)" -ne 0 ]; then
	skip "gput-lab run (needs root for network namespaces)"
	t_done
fi
for t in gnuplot python3 ping; do
	command -v "$t" >/dev/null || { skip "gput-lab run (needs $t)"; t_done; }
done
LAB=tools/gput-lab
STUB=$PWD/tests/labstub-testbed
# every process a lab starts names this path: none may outlive the run
MYGPUT=$T_TMP/gput-labtest
ln -s "$PWD/gput" "$MYGPUT"
PFX=gput-lt$$
left() { pgrep -f "$MYGPUT" | wc -l; }
ns_left() { ip netns list | grep -c "^$PFX" ; }
stub_run() {
	GPUT=$MYGPUT GPUT_LAB_TESTBED=$STUB GPUT_LABSTUB_LOG=$T_TMP/stub.log \
	    GPUT_TESTBED_PREFIX=$PFX "$@"
}

cat >"$T_TMP/small.lab" <<'LAB'
title a small lab on the stand-in testbed
host a
host b
link a b rate 10M delay 1ms
sweep L 1000 1448
repeat 2 ci 90
step one: gput a -> b -l ${L} -x 200K
step two: gput a -> b -x 100K & gput b -> a -x 100K & ping a b -c 2 -i 0.2
step ecn: gput a -> b --ecn -x 100K
plot g: x L, y conn, series flow, model etac
table j: x L, y jain
LAB
: >"$T_TMP/stub.log"
stub_run timeout -k 5 300 "$LAB" run "$T_TMP/small.lab" --out "$T_TMP/small" \
    >"$T_TMP/run.out" 2>"$T_TMP/run.err"
eq "a small lab: exit 0" "$?" 0 || cat "$T_TMP/run.err"
eq "... the testbed built once (no swept value in the network), taken down once after" \
    "$(grep -c '^up --topology' "$T_TMP/stub.log") $(tail -n 1 "$T_TMP/stub.log")" "1 down"
eq "... report.md, results.json, g.dat, g.png, g.svg, j.dat" \
    "$(for f in report.md results.json g.dat g.png g.svg j.dat; do [ -s "$T_TMP/small/$f" ] && echo "$f"; done | wc -l)" 6
eq "... results: 2 points, step one at both, two and ecn at the first only (they use no swept value)" \
    "$(python3 -c 'import json,sys; r=json.load(open(sys.argv[1]));
print(" ".join(",".join(s["step"] for s in p["steps"]) for p in r["points"]))' "$T_TMP/small/results.json")" \
    "one,two,ecn one"
eq "... each step ran twice; two's three actions every time" \
    "$(python3 -c 'import json,sys; r=json.load(open(sys.argv[1]));
print(" ".join("%d/%d" % (len(s["runs"]), len(s["runs"][0]["flows"])) for p in r["points"] for s in p["steps"]))' "$T_TMP/small/results.json")" \
    "2/1 2/3 2/1 2/1"
eq "... the two flows of step two were given one start time, the single flows none" \
    "$(grep -o 'start-at [0-9.]*' "$T_TMP/stub.log" | sort | uniq -c | awk '{ print $1 }' | sort | uniq -c | awk '{ print $1 "x" $2 }' | tr '\n' ' ')" \
    "2x2 "
eq "... --ecn: tcp_ecn=1 set in the sender's node once, before its flows; gput said nothing against it" \
    "$(grep -c '^exec a sysctl -q -w net.ipv4.tcp_ecn=1$' "$T_TMP/stub.log") $(grep -c 'did not negotiate' "$T_TMP/small/report.md")" "1 0"
check "... report.md gives each command and Jain's index" \
    grep -q "Jain's index over the connections" "$T_TMP/small/report.md"
check "... g.png is a PNG" sh -c "file -b '$T_TMP/small/g.png' | grep -q '^PNG image'"
eq "... nothing left running, no namespace left" "$(left) $(ns_left)" "0 0"

# ^C and SIGTERM in the middle of a step
cat >"$T_TMP/long.lab" <<'LAB'
host a
host b
link a b
step long: gput a -> b --time 60 & ping a b -c 300 -i 0.2
LAB
for sig in INT TERM; do
	: >"$T_TMP/stub.log"
	# not through a function: $! must be gput-lab itself
	GPUT=$MYGPUT GPUT_LAB_TESTBED=$STUB GPUT_LABSTUB_LOG=$T_TMP/stub.log GPUT_TESTBED_PREFIX=$PFX \
	    "$LAB" run "$T_TMP/long.lab" --out "$T_TMP/long" >"$T_TMP/run.out" 2>"$T_TMP/run.err" &
	P=$!
	T_PIDS="$T_PIDS $P"
	wait_for_line "$T_TMP/stub.log" '^exec a .*gput-labtest .*--time 60' 30 || fail "SIG$sig: the step started"
	# the client is in its namespace once the partner has logged its
	# session (the client connects before its start)
	wait_until 20 sh -c "[ \$(pgrep -f '$MYGPUT .*--time 60' | wc -l) -ge 1 ]"
	kill -"$sig" "$P"
	wait_until 30 sh -c "! kill -0 $P 2>/dev/null"
	wait "$P"; rc=$?
	eq "SIG$sig during a step: exit 130, one line" \
	    "$rc $(grep -c '^gput-lab: interrupted; everything it built is taken down' "$T_TMP/run.err")" "130 1"
	eq "... gput-testbed down was the last call" "$(tail -n 1 "$T_TMP/stub.log")" down
	eq "... nothing left running, no namespace left" "$(left) $(ns_left)" "0 0"
done

# a step that fails
cat >"$T_TMP/fail.lab" <<'LAB'
host a
host b
link a b
step fine: ping a b -c 1
step bad: gput a -> b --cc nosuchcc -x 10K
LAB
: >"$T_TMP/stub.log"
stub_run timeout -k 5 120 "$LAB" run "$T_TMP/fail.lab" --out "$T_TMP/fail" >"$T_TMP/run.out" 2>"$T_TMP/run.err"
rc=$?
eq "a failing step: exit 1, its line and gput's words" \
    "$rc $(grep -c "^gput-lab: step bad (line 5): gput a -> b --cc nosuchcc -x 10K: exit 2: gput: --cc: " "$T_TMP/run.err")" "1 1"
eq "... gput-testbed down was the last call" "$(tail -n 1 "$T_TMP/stub.log")" down
eq "... nothing left running, no namespace left" "$(left) $(ns_left)" "0 0"
check "... results.json says why" grep -q '"incomplete": "step bad (line 5)' "$T_TMP/fail/results.json"

# a testbed that cannot be built
: >"$T_TMP/stub.log"
LABSTUB_FAIL_UP=1 stub_run timeout -k 5 120 "$LAB" run "$T_TMP/fail.lab" --out "$T_TMP/fail" \
    >"$T_TMP/run.out" 2>"$T_TMP/run.err"
eq "a testbed that cannot be built: exit 1, gput-testbed's words" \
    "$? $(grep -c '^gput-lab: gput-testbed up --topology: labstub: up failed as asked; everything' "$T_TMP/run.err")" "1 1"
eq "... and it is taken down all the same" "$(tail -n 1 "$T_TMP/stub.log")" down

# the shipped labs on the real testbed
if ! grep -q -- '--topology' tools/gput-testbed; then
	skip "the shipped labs with --quick (tools/gput-testbed has no up --topology yet)"
	t_done
fi
for f in tools/labs/lab*.lab; do
	n=$(basename "$f" .lab)
	o=$T_TMP/labs/$n
	"$LAB" check "$f" --quick >"$T_TMP/$n.check"
	GPUT=$MYGPUT GPUT_TESTBED_PREFIX=gput-lq$$ timeout -k 10 400 "$LAB" run "$f" --quick \
	    --out "$o" >"$T_TMP/$n.out" 2>"$T_TMP/$n.err"
	rc=$?
	eq "$n --quick: exit 0" "$rc" 0 || { tail -n 5 "$T_TMP/$n.err"; continue; }
	steps=$(grep -c '^step ' "$f")
	eq "$n: report.md has every step ($steps)" \
	    "$(grep '^#### step ' "$o/report.md" | awk '{ print $3 }' | sort -u | wc -l)" "$steps"
	for p in $(sed -n 's/^plot \([A-Za-z0-9_-]*\):.*/\1/p' "$f"); do
		check "$n: $p.png and $p.svg" sh -c "file -b '$o/$p.png' | grep -q '^PNG image' &&
		    grep -q '<svg' '$o/$p.svg' && grep -q '^# columns:' '$o/$p.dat'"
		# the x axis in the words check gives it, the legend under the plot
		eq "$n: $p's x axis in words, as check said" \
		    "$(sed -n "s/^set xlabel '\(.*\)' noenhanced$/\1/p" "$o/$p-png.gp")" \
		    "$(sed -n "/^  plot $p: /{n;s/^    x axis: //p;}" "$T_TMP/$n.check")"
		check "$n: $p's legend under the plot" grep -q '^set key bmargin center horizontal' "$o/$p-png.gp"
	done
	# whether the host kept up, in words, after every point whose network
	# has delay lines (their counters): lab 003's 1 Gbit/s link has them
	dl=$(python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))
print(sum(1 for p in r["points"] if " delay-fwd " in p.get("counters", "")))' "$o/results.json")
	eq "$n: report.md says after each of its $dl points with delay lines whether the host kept up" \
	    "$(grep -cE '^(The host kept up: every delay line|\*\*The host did not keep up with this network\*\*: the delay line of )' "$o/report.md")" "$dl"
	[ "$n" != lab003 ] || check "lab003: its points have delay lines ($dl)" [ "$dl" -gt 0 ]
	eq "$n: nothing left running" "$(left)" 0
done
t_done
