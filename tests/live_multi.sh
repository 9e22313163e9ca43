#!/bin/bash
# Live tests: several partners on one command line (nttcp's lines 1 to 9),
# and several clients on one partner at once. Two partners on loopback, a
# daemon each; exact numbers on every line.
. "$(dirname "$0")/lib.sh"

TITLE='     Bytes  Real s   CPU s Real-MBit/s  CPU-MBit/s   Calls  Real-C/s   CPU-C/s'

start_daemon || { fail "first daemon announces its port"; t_done; }
P1=$D_PORT D1=$D_PID D1_LOG=$D_LOG
start_daemon || { fail "second daemon announces its port"; t_done; }
P2=$D_PORT
TWO=(127.0.0.1 -p "$P1" 127.0.0.1 -p "$P2")

# A result line: a tag, then numbers (an interval line has "0.00-" third).
RL='$1 ~ /^[l1-9]$/ && $2 ~ /^[0-9]+$/ && $3 ~ /^[0-9.]+$/'
# The tags of the result lines, in order.
tags() { awk "$RL"' { printf "%s", $1 }' "$OUT"; }
# COLUMN of every result line, in order, space-separated.
cols() { awk -v c="$1" "$RL"' { printf "%s%s", s, $c; s = " " }' "$OUT"; }
# nth TAG N COLUMN: the COLUMN-th field of the N-th result line tagged TAG.
nth() { awk -v t="$1" -v n="$2" -v c="$3" "$RL"' && $1 == t && ++k == n { print $c; exit }' "$OUT"; }
jqe() { jq -e "$@" >/dev/null; }

# --- TCP, both directions: exact Bytes on all four lines, in partner order
run_t 30 "$GPUT" -T -n 1000 -l 1448 "${TWO[@]}"
eq "tcp -t: exit status" "$RC" 0
eq "tcp -t: one title, first" "$(grep -c 'Real-MBit/s' "$OUT") $(head -n 1 "$OUT")" "1 $TITLE"
eq "tcp -t: lines l 1 l 2" "$(tags)" "l1l2"
eq "tcp -t: Bytes on every line" "$(cols 2)" "1448000 1448000 1448000 1448000"
eq "tcp -t: each sender's Calls" "$(nth l 1 7) $(nth l 2 7)" "1000 1000"
eq "tcp -t: nothing on stderr" "$(cat "$ERR")" ""

run_t 30 "$GPUT" -r -n 1000 -l 1448 "${TWO[@]}"
eq "tcp -r: exit status" "$RC" 0
eq "tcp -r: lines l 1 l 2" "$(tags)" "l1l2"
eq "tcp -r: Bytes on every line" "$(cols 2)" "1448000 1448000 1448000 1448000"
eq "tcp -r: each partner (sender) Calls" "$(nth 1 1 7) $(nth 2 1 7)" "1000 1000"

# Each partner's own options: partner 2 reads with 777-byte calls and checks
# the pattern; partner 1 keeps the local -l.
run_t 30 "$GPUT" -c -n 100 -l 1000 127.0.0.1 -p "$P1" 127.0.0.1 -p "$P2" -l 777
eq "own options: exit status" "$RC" 0
eq "own options: verified, each under its tag" "$(grep ': verified' "$OUT")" \
"1: verified 100000 bytes, all match the pattern
2: verified 100000 bytes, all match the pattern"
eq "own options: the senders' Calls, partner 2 reads in 777s" \
	"$(nth l 1 7) $(nth l 2 7) $(awk '$1 == "2" && $2 == 100000 { print ($7 >= 129) }' "$OUT")" \
	"100 100 1"

# --- UDP, both directions (a 4 MiB receive buffer, as in live_gput.sh)
run_t 30 "$GPUT" -u -n 1000 -l 1000 127.0.0.1 -p "$P1" -w 4096 127.0.0.1 -p "$P2" -w 4096
eq "udp -t: exit status" "$RC" 0
eq "udp -t: lines l 1 l 2" "$(tags)" "l1l2"
eq "udp -t: Bytes on every line" "$(cols 2)" "1000000 1000000 1000000 1000000"
eq "udp -t: Calls (n + 3 markers, n)" "$(cols 7)" "1003 1000 1003 1000"
eq "udp -t: arrival lines under their tags" "$(grep ': received' "$OUT")" \
"1: received 1000 of 1000 datagrams, 0 lost (0.00%)
2: received 1000 of 1000 datagrams, 0 lost (0.00%)"

run_t 30 "$GPUT" -r -u -w 4096 -n 1000 -l 1000 "${TWO[@]}"
eq "udp -r: exit status" "$RC" 0
eq "udp -r: lines l 1 l 2" "$(tags)" "l1l2"
eq "udp -r: Bytes on every line" "$(cols 2)" "1000000 1000000 1000000 1000000"
eq "udp -r: Calls (n, n + 3 markers)" "$(cols 7)" "1000 1003 1000 1003"

# --- one partner down (nothing listens there): its error, the other's lines
start_daemon || fail "a third daemon starts"
DEAD=$D_PORT
kill "$D_PID"; wait "$D_PID" 2>/dev/null
run_t 30 "$GPUT" -n 1000 -l 1448 127.0.0.1 -p "$P1" 127.0.0.1 -p "$DEAD"
eq "partner 2 down: exit 1" "$RC" 1
eq "partner 2 down: partner 1's lines" "$(tags) $(cols 2)" "l1 1448000 1448000"
eq "partner 2 down: one line naming it" "$(cat "$ERR")" \
	"gput: cannot connect to 127.0.0.1 port $DEAD: Connection refused (is gput -i running there?)"
run_t 30 "$GPUT" -n 1000 -l 1448 127.0.0.1 -p "$DEAD" 127.0.0.1 -p "$P2"
eq "partner 1 down: exit 1, partner 2 keeps its tag" "$RC $(tags) $(cols 2)" "1 l2 1448000 1448000"

# --- machine-readable output with two partners
if command -v jq >/dev/null; then
	run_t 30 "$GPUT" --json -n 1000 -l 1448 "${TWO[@]}"
	eq "--json: exit status" "$RC" 0
	check "--json: one document, a run per partner in order, exact bytes" jqe \
		'(.partners | length) == 2 and ([.partners[].sides[].bytes] == [1448000, 1448000, 1448000, 1448000]) and ([.partners[].sides[].side] == ["l", "1", "l", "2"]) and .partners[0].params.port == '"$P1"' and .partners[1].params.port == '"$P2"' and ([.partners[].error] == [null, null])' "$OUT"
	run_t 30 "$GPUT" --json -n 10 127.0.0.1 -p "$P1" 127.0.0.1 -p "$DEAD"
	eq "--json, partner 2 down: exit 1" "$RC" 1
	check "--json, partner 2 down: valid, its error in its place" jqe \
		'(.partners | length) == 2 and .partners[0].error == null and (.partners[1].error | test("Connection refused"))' "$OUT"
	run_t 30 "$GPUT" --json-lines --time 0.6 --interval 0.2 "${TWO[@]}"
	eq "--json-lines: exit status" "$RC" 0
	check "--json-lines: every line an object with its partner" \
		jqe -s 'length > 4 and all(.[]; .partner == 1 or .partner == 2)' "$OUT"
	check "--json-lines: the summaries last, in partner order" jqe -s \
		'[.[] | select(.type == "summary") | .partner] == [1, 2] and (.[-2:] | map(.type)) == ["summary", "summary"]' "$OUT"
	check "--json-lines: partner 2's intervals add up to its summary" jqe -s \
		'([.[] | select(.partner == 2 and .type == "interval" and .side == "2") | .bytes] | add) == (.[] | select(.partner == 2 and .type == "summary") | .sides[1].bytes)' "$OUT"
else
	skip "--json with two partners (jq not installed)"
fi
run_t 30 "$GPUT" --csv -n 1000 -l 1448 "${TWO[@]}"
eq "--csv: a partner column, one header" "$(cut -d, -f1-4 "$OUT")" \
"partner,side,role,bytes
1,l,send,1448000
1,1,recv,1448000
2,l,send,1448000
2,2,recv,1448000"

# --- live intervals: whole lines, each prefixed with its partner's tag
run_t 30 "$GPUT" -T --time 1 --interval 0.25 "${TWO[@]}"
eq "--interval: exit status" "$RC" 0
eq "--interval: every line is whole and known" \
	"$(grep -Evc '^(1 [l1]|2 [l2]) +[0-9.]+- *[0-9.]+ s +[0-9]+ bytes +[0-9]+ calls|^  +Interval +Bytes|^ +Bytes +Real s|^[l12] +[0-9]+ ' "$OUT")" 0
eq "--interval: interval lines of both sides of both partners" \
	"$(awk '$3 ~ /-/ { print $1 $2 }' "$OUT" | sort -u | tr -d '\n')" "111l222l"
for t in 1 2; do
	eq "--interval: partner $t's intervals add up to its line" \
		"$(awk -v t=$t '$1 == t && $2 == t && /calls/ { for (i = 3; i <= NF; i++) if ($i == "bytes") s += $(i - 1) } END { printf "%.0f", s }' "$OUT")" \
		"$(nth "$t" 1 2)"
done

# --- several clients on one partner at once: each its own session (own
# process, own data connection), exact bytes, each checks its own pattern.
# Paced (3 s each) so that the two surely overlap.
for s in alpha beta; do
	timeout -k 2 60 "$GPUT" -c -S "$s" -g 3000 -n 1000 -l 1448 -p "$P1" 127.0.0.1 \
		>"$T_TMP/c.$s" 2>&1 &
	eval "C_$s=\$!"
done
T_PIDS="$T_PIDS $C_alpha $C_beta"
check "two clients: two sessions at once" \
	wait_until 20 eval '[ "$(pgrep -P "$D1" | wc -l)" -eq 2 ]'
wait "$C_alpha"; RA=$?
wait "$C_beta"; RB=$?
eq "two clients: both exit 0" "$RA $RB" "0 0"
for s in alpha beta; do
	OUT=$T_TMP/c.$s
	eq "two clients: $s: exact bytes both sides" "$(cols 2)" "1448000 1448000"
	eq "two clients: $s: its own pattern, every byte" "$(grep '^1: verified' "$OUT")" \
		"1: verified 1448000 bytes, all match the pattern"
done
check "two clients: logged by two session processes" eval \
	'[ "$(grep -E "gput\[[0-9]+\]: client .*: start" "$D1_LOG" | tail -n 2 | sed -E "s/.*gput\[([0-9]+)\].*/\1/" | sort -u | wc -l)" -eq 2 ]'

# Two partners that are one daemon: the same, from one command line.
run_t 30 "$GPUT" -n 1000 -l 1448 127.0.0.1 -p "$P1" 127.0.0.1 -p "$P1"
eq "one daemon twice: exit, lines, Bytes" "$RC $(tags) $(cols 2)" \
	"0 l1l2 1448000 1448000 1448000 1448000"

# --- ^C to the parent: both partners stop, print what they measured, 130,
# and no process of ours is left
# (the first interval line of each partner's sender says data moved there)
"$GPUT" -v --time 60 --interval 0.2 "${TWO[@]}" >"$T_TMP/io" 2>"$T_TMP/ie" &
IC=$!
T_PIDS="$T_PIDS $IC"
if wait_until 15 eval '[ "$(grep -c "^gput: data tcp " "$T_TMP/ie")" -eq 2 ] &&
    grep -Eq "^1 l +0\.00- *0\.20 s +[1-9]" "$T_TMP/io" &&
    grep -Eq "^2 l +0\.00- *0\.20 s +[1-9]" "$T_TMP/io"'; then
	KIDS=$(pgrep -P "$IC" | tr '\n' ' ')
	eq "^C: a process per partner" "$(echo $KIDS | wc -w)" 2
	kill -INT "$IC"
	check "^C: gput ends" wait_until 15 eval '! kill -0 $IC 2>/dev/null'
	wait "$IC"; IRC=$?
	eq "^C: exit 130" "$IRC" 130
	OUT=$T_TMP/io
	eq "^C: both partners' lines" "$(tags)" "l1l2"
	eq "^C: each marked" "$(grep -cx 'interrupted: the lines above count what was moved until the stop' "$OUT")" 2
	check "^C: partial Bytes" awk "$RL"' && $2 > 0 { n++ } END { exit n != 4 }' "$OUT"
	left=""
	for k in $KIDS; do kill -0 "$k" 2>/dev/null && left="$left $k"; done
	eq "^C: no partner process left" "$left" ""
else
	fail "^C: both transfers started"; cat "$T_TMP/ie"
fi

# --- usage errors: one line, exit 2
usage_err() {
	run_t 5 "$GPUT" "${@:2}"
	eq "usage: $1" "$RC:$(wc -l <"$ERR"):$(cat "$ERR")" "2:1:gput: $1"
}
usage_err "at most 9 partners (their lines are tagged 1 to 9): 'j' is one too many" \
	a b c d e f g h i j
usage_err "--link predicts one connection on a link of its own: give one partner" \
	--link 10M a b
usage_err "-u must come before the partner name (it applies to both sides)" a b -u
t_done
