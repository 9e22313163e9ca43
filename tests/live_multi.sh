#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
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

# A result line of several partners: the partner's tag, the line's tag, then
# numbers (an interval line has "0.00-" fourth); COLUMN below counts from
# the line's tag, as in a single partner's table.
RL='$1 ~ /^[1-9]$/ && $2 ~ /^[l1-9]$/ && $3 ~ /^[0-9]+$/ && $4 ~ /^[0-9.]+$/'
# The line tags of the result lines, in order.
tags() { awk "$RL"' { printf "%s", $2 }' "$OUT"; }
# The partner tags of the result lines, in order.
ptags() { awk "$RL"' { printf "%s", $1 }' "$OUT"; }
# COLUMN of every result line, in order, space-separated.
cols() { awk -v c="$1" "$RL"' { printf "%s%s", s, $(c + 1); s = " " }' "$OUT"; }
# nth TAG N COLUMN: the COLUMN-th field of the N-th result line tagged TAG.
nth() { awk -v t="$1" -v n="$2" -v c="$3" "$RL"' && $2 == t && ++k == n { print $(c + 1); exit }' "$OUT"; }
# sumcol ROLE COLUMN: COLUMN of the sum line over the partners ("+ t", "+ r").
sumcol() { awk -v t="$1" -v c="$2" '$1 == "+" && $2 == t && $3 ~ /^[0-9]+$/ { print $(c + 1); exit }' "$OUT"; }
# A single partner's result line, and its COLUMN of every one.
RL1='$1 ~ /^[l1-9]$/ && $2 ~ /^[0-9]+$/ && $3 ~ /^[0-9.]+$/'
cols1() { awk -v c="$1" "$RL1"' { printf "%s%s", s, $c; s = " " }' "$OUT"; }
jqe() { jq -e "$@" >/dev/null; }

# --- TCP, both directions: exact Bytes on all four lines, in partner order
run_t 30 "$GPUT" -T -n 1000 -l 1448 "${TWO[@]}"
eq "tcp -t: exit status" "$RC" 0
eq "tcp -t: one title, first, over the columns" "$(grep -c 'Real-MBit/s' "$OUT") $(head -n 1 "$OUT")" "1   $TITLE"
eq "tcp -t: lines l 1 l 2" "$(tags)" "l1l2"
eq "tcp -t: each under its partner's tag" "$(ptags)" "1122"
eq "tcp -t: Bytes on every line" "$(cols 2)" "1448000 1448000 1448000 1448000"
eq "tcp -t: each sender's Calls" "$(nth l 1 7) $(nth l 2 7)" "1000 1000"
eq "tcp -t: nothing on stderr" "$(cat "$ERR")" ""
# the sums over the partners: exact Bytes and Calls per role
eq "tcp -t: sum of the senders: Bytes, Calls" "$(sumcol t 2) $(sumcol t 7)" \
	"2896000 2000"
eq "tcp -t: sum of the receivers: Bytes, Calls" "$(sumcol r 2) $(sumcol r 7)" \
	"2896000 $(( $(nth 1 1 7) + $(nth 2 1 7) ))"
check "tcp -t: a sum's Real s is at least each of its lines'" awk -v s="$(sumcol r 3)" \
	"$RL"' && $2 != "l" && $4 > s + 0.005 { exit 1 }' "$OUT"
# Jain's index of the receivers' goodputs, from their lines (4 decimals)
J=$(awk "$RL"' && $2 != "l" { x += $6; q += $6 * $6; n++ } END { printf "%.3f", x * x / (n * q) }' "$OUT")
# (within 0.001: the lines' goodputs are rounded to 4 decimals, so J from
# them and gput's own index can fall on either side of a third decimal)
JG=$(sed -n 's/^+ r: fairness of 2 receivers: Jain.s index \([0-9.]*\), shares 1 [0-9.]*% 2 [0-9.]*%$/\1/p' "$OUT")
check "tcp -t: fairness over the receivers, Jain's index of their lines ($JG, $J)" \
	awk -v a="$JG" -v b="$J" 'BEGIN { d = a - b; exit !(a != "" && d <= 0.001 && d >= -0.001) }'

# -P after a partner's name: two streams to partner 1, one to partner 2
run_t 30 "$GPUT" -n 1000 -l 1448 127.0.0.1 -p "$P1" -P 2 127.0.0.1 -p "$P2"
eq "-P per partner: exit status" "$RC" 0
eq "-P per partner: partner 1's streams and sums, partner 2's lines" \
	"$(awk "$RL"' { printf "%s%s%s ", $1, $2, ($0 ~ /stream 1/ ? "s1" : $0 ~ /stream 2/ ? "s2" : $0 ~ /sum of 2/ ? "S" : "") }' "$OUT")" \
	"1ls1 1ls2 1lS 11s1 11s2 11S 2l 22 "
eq "-P per partner: the sums over the partners (3 flows)" "$(sumcol t 2) $(sumcol r 2)" \
	"4344000 4344000"

# --bidir: the senders are l (to 1) and 2, the receivers 1 and l
run_t 30 "$GPUT" --bidir -n 1000 -l 1448 -p "$P1" 127.0.0.1
eq "--bidir: exit status" "$RC" 0
eq "--bidir: sums per role" "$(sumcol t 7) $(sumcol r 2)" \
	"$(( $(nth l 1 7) + $(nth 2 1 7) )) 2896000"

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
"1 1: verified 100000 bytes, all match the pattern
2 2: verified 100000 bytes, all match the pattern"
eq "own options: the senders' Calls, partner 2 reads in 777s" \
	"$(nth l 1 7) $(nth l 2 7) $(awk '$1 == "2" && $2 == "2" && $3 == 100000 { print ($8 >= 129) }' "$OUT")" \
	"100 100 1"

# --- UDP, both directions (a 4 MiB receive buffer, as in live_gput.sh)
run_t 30 "$GPUT" -u -n 1000 -l 1000 127.0.0.1 -p "$P1" -w 4096 127.0.0.1 -p "$P2" -w 4096
eq "udp -t: exit status" "$RC" 0
eq "udp -t: lines l 1 l 2" "$(tags)" "l1l2"
eq "udp -t: Bytes on every line" "$(cols 2)" "1000000 1000000 1000000 1000000"
eq "udp -t: Calls (n + 3 markers, n)" "$(cols 7)" "1003 1000 1003 1000"
eq "udp -t: arrival lines under their tags" "$(grep ': received' "$OUT")" \
"1 1: received 1000 of 1000 datagrams, 0 lost (0.00%)
2 2: received 1000 of 1000 datagrams, 0 lost (0.00%)"

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
	check "--json: the sums over the partners" jqe \
		'.sum.partners == 2 and .sum.send.bytes == 2896000 and .sum.recv.bytes == 2896000 and .sum.send.lines == 2 and .sum.jain > 0.5 and .sum.jain <= 1 and (.sum.shares | length) == 2 and ((.sum.shares | add) - 1 | fabs) < 1e-9' "$OUT"
	run_t 30 "$GPUT" --json -n 10 127.0.0.1 -p "$P1" 127.0.0.1 -p "$DEAD"
	eq "--json, partner 2 down: exit 1" "$RC" 1
	check "--json, partner 2 down: valid, its error in its place" jqe \
		'(.partners | length) == 2 and .partners[0].error == null and (.partners[1].error | test("Connection refused")) and .sum.partners == 1 and .sum.send.lines == 1 and .sum.jain == null' "$OUT"
	run_t 30 "$GPUT" --json-lines --time 0.6 --interval 0.2 "${TWO[@]}"
	eq "--json-lines: exit status" "$RC" 0
	check "--json-lines: every line an object with its partner, but the sum" \
		jqe -s 'length > 4 and all(.[:-1][]; .partner == 1 or .partner == 2) and (.[-1] | has("partner") | not)' "$OUT"
	check "--json-lines: the summaries, in partner order, then the sum" jqe -s \
		'[.[] | select(.type == "summary") | .partner] == [1, 2] and (.[-3:] | map(.type)) == ["summary", "summary", "partners_sum"]' "$OUT"
	check "--json-lines: the sum's bytes are the summaries'" jqe -s \
		'.[-1].send.bytes == ([.[] | select(.type == "summary") | .sides[0].bytes] | add) and .[-1].recv.bytes == ([.[] | select(.type == "summary") | .sides[1].bytes] | add) and .[-1].recv.lines == 2' "$OUT"
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
2,2,recv,1448000
sum,t,send,2896000
sum,r,recv,2896000"

# --- live intervals: whole lines, each prefixed with its partner's tag
run_t 30 "$GPUT" -T --time 1 --interval 0.25 "${TWO[@]}"
eq "--interval: exit status" "$RC" 0
eq "--interval: every line is whole and known" \
	"$(grep -Evc '^(1 [l1]|2 [l2]) +[0-9.]+- *[0-9.]+ s +[0-9]+ bytes +[0-9]+ calls|^  +Interval +Bytes|^ +Bytes +Real s|^(1 [l1]|2 [l2]|\+ [tr]) +[0-9]+ |^\+ r: fairness of 2 receivers' "$OUT")" 0
eq "--interval: each partner's lines, its l first at every interval" \
	"$(awk '$1 ~ /^[12]$/ && $3 ~ /-$/ { k = $1 " " $3; if ($2 == "l") l[k] = 1; else if (!(k in l)) bad++ } END { print bad + 0 }' "$OUT")" 0
eq "--interval: interval lines of both sides of both partners" \
	"$(awk '$3 ~ /-/ { print $1 $2 }' "$OUT" | sort -u | tr -d '\n')" "111l222l"
for t in 1 2; do
	eq "--interval: partner $t's intervals add up to its line" \
		"$(awk -v t=$t '$1 == t && $2 == t && /calls/ { for (i = 3; i <= NF; i++) if ($i == "bytes") s += $(i - 1) } END { printf "%.0f", s }' "$OUT")" \
		"$(nth "$t" 1 2)"
done

# one partner, -r (the partner sends, its lines may arrive first): the same
# order, this side's interval line before the partner's
run_t 30 "$GPUT" -r --time 1 --interval 0.2 -p "$P1" 127.0.0.1
eq "one partner, -r --interval: exit status" "$RC" 0
# The rule (watch.c): the partner's k-th interval line comes after this
# side's k-th, or after this side's last (the two sides' counts of intervals
# may differ by the last, partial one; their starts need not match).
eq "one partner: l first at every interval" \
	"$(awk '$1 ~ /^[l1]$/ && $2 ~ /-/ { if ($1 == "l") nl++; else { np++; seen[np] = nl } }
	    END { if (nl == 0 || np == 0) { print "none"; exit } for (k = 1; k <= np; k++) if (seen[k] < k && seen[k] < nl) bad++; print bad + 0 }' "$OUT")" 0

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
	eq "two clients: $s: exact bytes both sides" "$(cols1 2)" "1448000 1448000"
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
	eq "^C: each marked" "$(grep -cE '^[12] interrupted: the lines above count what was moved until the stop$' "$OUT")" 2
	check "^C: partial Bytes" awk "$RL"' && $3 > 0 { n++ } END { exit n != 4 }' "$OUT"
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
