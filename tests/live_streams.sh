#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Live tests: parallel streams (-P) on loopback. Exact Bytes and Calls per
# stream and their sums, both protocols and directions; per-stream intervals
# add up; JSON and CSV carry the streams; --cc takes turns; the partner's
# bounds; a stream killed mid-run ends the run naming it, and the partner
# serves the next client with nothing left behind.
. "$(dirname "$0")/lib.sh"

jqe() { jq -e "$@" >/dev/null; }
# sline TAG K COLUMN: COLUMN of TAG's table line for stream K
sline() { awk -v t="$1" -v k="$2" -v c="$3" '$1 == t && / stream / && !/ bytes / { for (i = 1; i < NF; i++) if ($i == "stream" && $(i + 1) == k) { print $c; exit } }' "$OUT"; }
# sumline TAG COLUMN: COLUMN of TAG's sum line
sumline() { awk -v t="$1" -v c="$2" '$1 == t && /sum of [0-9]+ streams/ { print $c; exit }' "$OUT"; }

if [ "$(id -u)" = 0 ]; then
	start_daemon --user root || { fail "daemon announces its port"; t_done; }
else
	start_daemon || { fail "daemon announces its port"; t_done; }
fi
P=$D_PORT

for dir in -t -r; do
	n="tcp $dir -P 4 -n 1000 -l 1448"
	run_t 30 "$GPUT" $dir -P 4 -n 1000 -l 1448 -p "$P" 127.0.0.1
	eq "$n: exit 0" "$RC" 0
	for t in l 1; do
		for k in 1 2 3 4; do
			eq "$n: $t stream $k Bytes" "$(sline $t $k 2)" 1448000
		done
		eq "$n: $t sum Bytes" "$(sumline $t 2)" 5792000
	done
	s=l; [ "$dir" = -r ] && s=1
	eq "$n: sender's Calls, stream 3 and the sum" "$(sline $s 3 7) $(sumline $s 7)" "1000 4000"
	check "$n: a fairness line for the receiver" grep -Eq "^[l1]: fairness of 4 streams: Jain's index [01]\.[0-9]{4}, shares( [0-9.]+%){4}$" "$OUT"

	n="udp $dir -P 4 -n 500 -l 1000 -g 200"
	run_t 30 "$GPUT" -u $dir -P 4 -n 500 -l 1000 -g 200 -w 1024 -p "$P" 127.0.0.1 -w 1024
	eq "$n: exit 0" "$RC" 0
	s=l; r=1; [ "$dir" = -r ] && s=1 && r=l
	for k in 1 2 3 4; do
		eq "$n: sender stream $k Bytes and Calls (3 markers)" "$(sline $s $k 2) $(sline $s $k 7)" "500000 503"
		eq "$n: receiver stream $k Bytes" "$(sline $r $k 2)" 500000
	done
	eq "$n: sums" "$(sumline $s 2) $(sumline $s 7) $(sumline $r 2)" "2000000 2012 2000000"
	check "$n: the arrival line counts every stream's datagrams" grep -Eq "^$r: received 2000 of 2000 datagrams, 0 lost" "$OUT"
done

# intervals per stream and their sums add up to the stream and sum lines
run_t 30 "$GPUT" -P 2 --time 2 --interval 0.5 -p "$P" 127.0.0.1
eq "-P 2 --time 2 --interval 0.5: exit 0" "$RC" 0
for t in l 1; do
	for k in 1 2; do
		got=$(awk -v t=$t -v k=$k '$1 == t && / bytes / && $0 ~ ("stream " k "( |$)") { for (i = 2; i <= NF; i++) if ($i == "bytes") s += $(i - 1) } END { printf "%.0f", s }' "$OUT")
		eq "intervals: $t stream $k adds up to its Bytes" "$got" "$(sline $t $k 2)"
	done
	got=$(awk -v t=$t '$1 == t && / bytes / && / sum( |$)/ { for (i = 2; i <= NF; i++) if ($i == "bytes") s += $(i - 1) } END { printf "%.0f", s }' "$OUT")
	eq "intervals: $t sums add up to the sum line" "$got" "$(sumline $t 2)"
	eq "intervals: the stream lines add up ($t)" "$(( $(sline $t 1 2) + $(sline $t 2 2) ))" "$(sumline $t 2)"
done

# JSON: streams inside each side, the side's fields their sums
run_t 30 "$GPUT" --json -P 3 -n 100 -l 1000 -p "$P" 127.0.0.1
eq "--json -P 3: exit 0" "$RC" 0
check "--json -P 3: 3 streams per side, sums exact" jqe '.streams == 3 and
	(.sides | all(.streams | length == 3)) and
	(.sides | all(.bytes == ([.streams[].bytes] | add) and .bytes == 300000)) and
	(.sides | all(.calls == ([.streams[].calls] | add))) and
	(.fairness.jain | type == "number")' "$OUT"

# CSV: a row per stream after its side's
run_t 30 "$GPUT" --csv -P 2 -n 100 -l 1000 -p "$P" 127.0.0.1
eq "--csv -P 2: exit 0" "$RC" 0
eq "--csv -P 2: rows l, l.1, l.2, 1, 1.1, 1.2" "$(cut -d, -f1 "$OUT" | tail -n +2 | tr '\n' ' ')" "l l.1 l.2 1 1.1 1.2 "

# -P 1 prints what gput always printed
run_t 30 "$GPUT" -P 1 -n 100 -l 1000 -p "$P" 127.0.0.1
eq "-P 1: two plain lines" "$(grep -c 'stream' "$OUT") $(awk '$1 == "l" || $1 == "1" { n++ } END { print n }' "$OUT")" "0 2"

# --cc takes turns over the streams, on both ends
avail=$(cat /proc/sys/net/ipv4/tcp_available_congestion_control 2>/dev/null)
# (bbr where the kernel has it, as the issue asks; else reno, always built in)
other=reno; echo " $avail " | grep -q ' bbr ' && other=bbr
if [ "$(id -u)" = 0 ] && echo " $avail " | grep -q ' cubic '; then
	run_t 30 "$GPUT" -P 3 --cc cubic,$other -n 100 -l 1448 -p "$P" 127.0.0.1
	eq "--cc cubic,$other: exit 0" "$RC" 0
	for t in l 1; do
		eq "--cc cubic,$other: $t streams 1, 2, 3" "$(awk -v t=$t '$1 == t && / stream / { for (i = 1; i < NF; i++) if ($i == "cc") printf "%s ", $(i + 1) }' "$OUT")" "cubic $other cubic "
	done
else
	skip "--cc cubic,$other (needs root and both algorithms)"
fi
run_t 10 "$GPUT" -P 2 --cc cubic,nosuchcc -p "$P" 127.0.0.1
eq "--cc with an unknown name: usage error" "$RC" 2
check "--cc with an unknown name: named" grep -q "nosuchcc" "$ERR"

# --bidir: the test and its reverse at once, each with exact counts
for proto in tcp udp; do
	u=; [ "$proto" = udp ] && u="-u -g 1000"
	run_t 30 "$GPUT" --bidir $u -P 2 -n 100 -l 1000 -p "$P" 127.0.0.1
	eq "--bidir $proto: exit 0" "$RC" 0
	# two partners' lines: each after its partner's tag
	eq "--bidir $proto: l sums of both tests" "$(awk '$2 == "l" && /sum of 2 streams/ { printf "%s%s ", $1, $3 }' "$OUT")" "1200000 2200000 "
	eq "--bidir $proto: 1 receives, 2 sends, all of it" \
		"$(awk '$1 == $2 && /sum of 2 streams/ { printf "%s%s ", $1, $3 }' "$OUT")" "1200000 2200000 "
	eq "--bidir $proto: the sums over both directions" \
		"$(awk '$1 == "+" && /sum of 2 (senders|receivers)/ { printf "%s%s ", $2, $3 }' "$OUT")" "t400000 r400000 "
done
run_t 30 "$GPUT" --bidir --json -n 100 -l 1000 -p "$P" 127.0.0.1
check "--bidir --json: one run each way" jqe '[.partners[] | .sides[0].role] == ["send", "recv"] and ([.partners[].sides[].bytes] | all(. == 100000))' "$OUT"

# bounds
run_t 10 "$GPUT" -P 129 -p "$P" 127.0.0.1
eq "-P 129: usage error" "$RC" 2
check "-P 129: one line naming the bound" grep -Eq '^gput: -P: .*128' "$ERR"
run_t 10 "$GPUT" -P 0 -p "$P" 127.0.0.1
eq "-P 0: usage error" "$RC" 2
D1_PID=$D_PID
start_daemon --max-streams 2 || fail "second daemon"
run_t 10 "$GPUT" -P 3 -n 10 -p "$D_PORT" 127.0.0.1
eq "--max-streams 2, -P 3: refused" "$RC" 1
check "--max-streams 2, -P 3: the reason names the option" grep -q 'at most 2 (--max-streams)' "$ERR"
run_t 10 "$GPUT" -P 64 -l 2M -n 1 -p "$P" 127.0.0.1
eq "64 streams of 2 MB buffers: refused" "$RC" 1
check "64 streams of 2 MB buffers: the reason says why" grep -q 'bytes of buffers per test' "$ERR"
run_t 30 "$GPUT" -P 128 -n 10 -l 1000 -p "$P" 127.0.0.1
eq "-P 128: exit 0" "$RC" 0
[ "$RC" = 0 ] || cat "$ERR"
eq "-P 128: the sums" "$(sumline l 2) $(sumline 1 2)" "1280000 1280000"

# a stream killed mid-run: the run ends at once, naming it; the partner's
# session ends and it serves the next client
D_PID=$D1_PID
fds0=$(ls /proc/$D_PID/fd | wc -l)
"$GPUT" -v -P 3 --time 30 -p "$P" 127.0.0.1 >"$T_TMP/kill.out" 2>"$T_TMP/kill.err" &
KC=$!
if wait_for_line "$T_TMP/kill.err" 'data \(stream 2\) tcp .* port [0-9]+ ->' 5; then
	KP=$(sed -n 's/.*data (stream 2) tcp [^ ]* port \([0-9]*\) ->.*/\1/p' "$T_TMP/kill.err")
	ss -K -tn "sport = :$KP" >/dev/null 2>&1
	if wait_until 10 sh -c "! kill -0 $KC 2>/dev/null"; then
		wait "$KC"; krc=$?
		eq "killed stream: exit 1" "$krc" 1
		check "killed stream: the error names stream 2" grep -q 'stream 2: ' "$T_TMP/kill.err"
		grep -q 'stream 2: ' "$T_TMP/kill.err" || cat "$T_TMP/kill.err"
	else
		kill "$KC"; fail "killed stream: the run ends within 10 s"
	fi
	check "killed stream: the partner's session ends (no child left)" \
		wait_until 10 sh -c "[ -z \"\$(pgrep -P $D_PID)\" ]"
	eq "killed stream: the partner holds the descriptors it held before" "$(ls /proc/$D_PID/fd | wc -l)" "$fds0"
	run_t 30 "$GPUT" -P 2 -n 100 -l 1000 -p "$P" 127.0.0.1
	eq "killed stream: the next client is served" "$RC $(sumline 1 2)" "0 200000"
else
	kill "$KC"; fail "killed stream: -v names stream 2's port"
fi
t_done
