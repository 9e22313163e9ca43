#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Live tests: the client against a lying partner (tests/ctlpeer plays it).
# Each lie is a field no partner could mean for the test (gput(1), What the
# client checks, gives each bound); the client must
# fail the run with one line naming that field, exit 1 and print nothing of
# the run (interval lines are shown only once checked: those of intervals
# before the lie stay, the lie's own never appears). A flood of INTERVALs
# is refused at the first one the run's time cannot hold, with little
# memory. Every wait has a deadline.
. "$(dirname "$0")/lib.sh"

need_ctlpeer

liar() {        # GPUT-ARGS -- STEPS: the client's stdout in OUT, stderr in ERR
	_args=()
	while [ "$1" != "--" ]; do _args+=("$1"); shift; done
	shift
	# emptied here, not by the background job's redirection: the wait
	# below must not see the previous peer's port
	: >"$T_TMP/fp.out"
	"$CTLPEER" partner "$@" >"$T_TMP/fp.out" 2>&1 &
	_fp=$!
	T_PIDS="$T_PIDS $_fp"
	wait_for_line "$T_TMP/fp.out" '^ok listen port ' 5 || { RC=x; return 1; }
	FPORT=$(sed -n 's/^ok listen port //p' "$T_TMP/fp.out")
	run_t 30 ${TIMECMD:+"${TIMECMD[@]}"} "$GPUT" "${_args[@]}" -p "$FPORT" 127.0.0.1
	# the peer says "ok lie" just after its lie is out, and the client may
	# have acted on the lie and exited before that line was written: let
	# the peer write it (or end) before it is stopped, within a deadline
	_dl=$(( $(date +%s%N) / 1000000 + 5000 ))
	while ! grep -Eq '^ok (lie|hold)' "$T_TMP/fp.out" && kill -0 "$_fp" 2>/dev/null &&
	    [ "$(( $(date +%s%N) / 1000000 ))" -lt "$_dl" ]; do
		sleep 0.02      # poll interval; the deadline above bounds the wait
	done
	kill "$_fp" 2>/dev/null; wait "$_fp" 2>/dev/null
}
A="sendhello getparams sendready acceptdata put=start"
N="[0-9]+"

# lie NAME GPUT-ARGS -- STEPS -- REGEX: exit 1, no stdout, stderr one line
lie() {
	_name=$1; shift
	_a=()
	while [ "$1" != "--" ]; do _a+=("$1"); shift; done
	shift
	_s=()
	while [ "$1" != "--" ]; do _s+=("$1"); shift; done
	_re="^gput: partner 127\.0\.0\.1 port $N: the partner's $2\$"
	liar "${_a[@]}" -- "${_s[@]}"
	eq "$_name: exit 1, nothing on stdout" "$RC $(wc -c <"$OUT")" "1 0"
	if [ "$(wc -l <"$ERR")" -eq 1 ] && grep -Eq -- "$_re" "$ERR"; then
		pass "$_name: one line naming the field"
	else
		fail "$_name: one line naming the field (got '$(cat "$ERR")')"
	fi
	check "$_name: the lie was told" grep -q '^ok lie ' "$T_TMP/fp.out"
}

lie "RESULT real 1 ns, CPU 2^64-1 ns" -t -n 10 -l 1000 -- $A drain lie=cpu hold -- \
	"RESULT cpu_ns 18446744073709551615 is more than 3 threads can use in its window of 100000 ns \(at most 60303000\)"
lie "RESULT real time longer than the run" -t -n 10 -l 1000 -- $A drain lie=real hold -- \
	"RESULT real_ns 9223372036854775808 is longer than the run so far \(at most $N ns\)"
lie "UDPSTATS jitter 1.8e13 ms" -u -t -n 10 -l 1000 -- $A drain lie=jitter hold -- \
	"UDPSTATS jitter_ns 18000000000000000 is more than twice the run so far \($N\)"
lie "UDPSTATS one-way delay -9.2e12 ms" -u -t --same-clock -n 10 -l 1000 -- $A drain lie=owd hold -- \
	"UDPSTATS owd_min_ns -9200000000000000 is beyond the run so far either way \(at most $N ns, same clock\)"
lie "UDPSTATS more datagrams than sent" -u -t -n 10 -l 1000 -- $A drain lie=unique hold -- \
	"UDPSTATS unique 11 is more than the sender sends \(10\)"
lie "TCPINFO retransmits 2^64-1" -r -n 10 -l 1000 -- $A send lie=retrans hold -- \
	"TCPINFO retrans 18446744073709551615 is more than the test's bytes can make \(640128\)"
lie "UDP sender sent fewer than arrived" -u -r -n 10 -l 1000 -- $A send lie=fewer hold -- \
	"RESULT dgrams 1 is fewer than arrived here \(10\)"
lie "INTERVAL bytes that wrap around 2^64" -r -n 10 -l 1000 --interval 0.1 -- $A send lie=wrap hold -- \
	"INTERVAL bytes that add up to more than the test moves \(0 \+ 18446744073709550616 > 10000\)"
# a "stopped on request" flag with no STOP sent: before, 1 byte was taken
# where 10000 crossed, exit 0 (the flag turned TCP's byte check off)
lie "RESULT stopped on request without a STOP" -t -n 10 -l 1000 -- $A drain lie=stopped hold -- \
	"RESULT flag 32 \(stopped on request\) came though this client sent no STOP"
# counts and rates bounded by physics (each was printed with exit 0)
lie "RESULT calls 2^64-1" -t -n 10 -l 1000 -- $A drain lie=calls hold -- \
	"RESULT calls 18446744073709551615 is more than its bytes \(a TCP call moves one at least\) \(10000\)"
lie "RESULT real time 1 ns" -t -n 10 -l 1000 -- $A drain lie=fast hold -- \
	"RESULT real_ns 1 is too short for its 10000 bytes \(at most 2250 at 10 Tbit/s\)"
lie "RESULT socket buffer 2^31" -t -n 10 -l 1000 -- $A drain lie=bufs hold -- \
	"RESULT sndbuf 2147483648 is more than a socket buffer holds \(2147483647\)"
lie "TCPINFO delivery rate 2^64-1" -r -n 10 -l 1000 -- $A send lie=rate hold -- \
	"TCPINFO delivery_rate 18446744073709551615 is more than 10 Tbit/s \(bytes/s\) \(1250000000000\)"
lie "TCPINFO CE bytes beyond the bytes" -t -n 10 -l 1000 -- $A drain lie=ce hold -- \
	"TCPINFO received_ce_bytes 651171 is more than the test's bytes and proof can carry, each sent 65 times \(651170\)"
lie "TCPINFO in a UDP test" -u -t -n 10 -l 1000 -- $A drain lie=tcpinfo hold -- \
	"TCPINFO came in a test where it moves no TCP"
lie "UDPSTATS in a TCP test" -t -n 10 -l 1000 -- $A drain lie=udpstats hold -- \
	"UDPSTATS came in a test where it receives no UDP"
lie "UDPSTATS 2^62 duplicates of 100 datagrams" -u -t -n 100 -l 1000 -- $A drain lie=dups hold -- \
	"UDPSTATS received 46116860184273(87|88)[0-9]{3} is more than datagrams can arrive in the run so far \($N\)"
lie "ECHOSTATS without --latency" -t -n 10 -l 1000 -- $A drain lie=echostats hold -- \
	"ECHOSTATS came in a test without --latency"
# HOSTUDP (the receiving host's UDP counters): only where asked, once,
# bounded by the run's time
lie "HOSTUDP in a TCP test (not asked)" -t -n 10 -l 1000 -- $A drain lie=hostudp hold -- \
	"HOSTUDP came in a test that did not ask for it \(the partner does not receive UDP\)"
lie "HOSTUDP from a UDP sender (not asked)" -u -r -n 10 -l 1000 -- $A send lie=hostudp hold -- \
	"HOSTUDP came in a test that did not ask for it \(the partner does not receive UDP\)"
lie "HOSTUDP RcvbufErrors 2^32 in a short run" -u -t -n 10 -l 1000 -- $A drain lie=hostudpbig hold -- \
	"HOSTUDP RcvbufErrors 4294967296 is more than $N, what [0-9]+\.[0-9]{3} s allows at 150000000 datagrams/s"
lie "HOSTUDP twice" -u -t -n 10 -l 1000 -- $A drain lie=hostudptwice hold -- \
	"HOSTUDP came twice"
lie "INTERVAL calls 2^64-1" -r -n 10 -l 1000 --interval 0.1 -- $A send lie=ivcalls hold -- \
	"INTERVAL calls that add up to more than the run so far can make \(0 \+ 18446744073709551615 > 10000\)"
# a timed run that moved nothing is no success (before: 0 bytes, exit 0;
# the zero-copy starvation of issue 28 made one)
liar -r --time 1 -- $A closedata lie=nothing hold
eq "--time, nothing sent: exit 1, nothing on stdout, one line" \
	"$RC $(wc -c <"$OUT") $(cat "$ERR")" \
	"1 0 gput: partner 127.0.0.1 port $FPORT: received nothing in its --time (the sender closed at once)"
check "--time, nothing sent: the partner said it sent nothing" \
	grep -q '^ok lie nothing' "$T_TMP/fp.out"
# --latency --same-clock: on one clock each echo's stamp lies within its
# probe's round trip. An honest echo passes; stamps of 2^63 (a signed
# overflow before) and 0 printed one-way delays of +-7.4e12 ms, exit 0.
E="sendhello getparams sendready"
L=(-t --time 1 --latency --latency-idle 0.3 --same-clock)
liar "${L[@]}" -- $E echo=real acceptdata put=start drain lie=none hold
eq "echo stamps of the real clock: exit 0" "$RC" 0
check "echo stamps of the real clock: one-way delays shown" \
	grep -Eq '^latency idle  : ([1-9][0-9]*) sent, \1 answered, .* one way p50 up [0-9.]+ down [0-9.]+ ms$' "$OUT"
for st in 9223372036854775808 0; do
	liar "${L[@]}" -- $E echo=$st acceptdata put=start drain lie=none hold
	eq "echo stamp $st: exit 1, nothing on stdout, one line" \
		"$RC $(wc -c <"$OUT") $(wc -l <"$ERR")" "1 0 1"
	check "echo stamp $st: refused, naming it (every echoed probe's)" grep -Eqx -- \
		"gput: partner 127\.0\.0\.1 port $FPORT: the partner's echo stamp $st of probe 0 is outside its round trip here \[[0-9]+, [0-9]+\] on one clock \(--same-clock; ([1-9][0-9]*) of \1 echoed probes\)" "$ERR"
	check "echo stamp $st: the lying echo ran" grep -q '^ok echo ' "$T_TMP/fp.out"
done
# ECHOSTATS "0 echoed" against the probes echoed before the data path
lie "ECHOSTATS 0 echoed against the idle phase's echoes" "${L[@]}" -- \
	$E echo=real acceptdata put=start drain lie=echostats hold -- \
	"ECHOSTATS echoed 0 is fewer than the probes echoed here before the data path opened \([1-9][0-9]*\)"
lie "ECHOSTATS twice" "${L[@]}" -- \
	$E echo=real acceptdata put=start drain lie=echotwice hold -- \
	"ECHOSTATS came twice"
# --json prints a failed run's JSON (with its error), never the numbers
liar -r -n 10 -l 1000 --interval 0.1 --json -- $A send lie=wrap hold
eq "--json: a failed run's object with the error, no result" \
	"$RC $(jq -r '.error, (.sides[] | .error), ([.. | .intervals? // empty] | length)' "$OUT" 2>&1 | tr '\n' '|')" \
	"1 the partner's INTERVAL bytes that add up to more than the test moves (0 + 18446744073709550616 > 10000)|no result|no result|0|"

# overlapping intervals: the second (0 bytes) is never shown (the first,
# which fits, may be)
liar -r -n 10 -l 1000 --interval 0.1 -- $A send lie=overlap hold
eq "INTERVAL overlap: exit 1, the overlapping interval not shown" \
	"$RC $(grep -c ' 0 bytes' "$OUT") $(awk '$5 != 10000' "$OUT" | wc -l)" "1 0 0"
check "INTERVAL overlap: the error names it" grep -Eqx -- \
	"gput: partner 127\.0\.0\.1 port $N: the partner's INTERVAL 1 start_ns 500 overlaps or leaves a gap \(the previous one ended at 1000, this one ends at 2000\)" "$ERR"

# 3,000,000 zero-length INTERVALs: refused at the first the run's time
# cannot hold (2 in the first 100 ms, 3 if the client was slow to read),
# promptly, with little memory (before: 378 MB and 3 M lines)
if [ -x /usr/bin/time ]; then
	TIMECMD=(/usr/bin/time -f 'maxrss_kb %M' -o "$T_TMP/rss")
	_t0=$(date +%s%N)
	liar -r -n 10 -l 1000 --interval 0.1 -- $A send ivals=3000000 hold
	_ms=$(( ($(date +%s%N) - _t0) / 1000000 ))
	unset TIMECMD
	_rss=$(sed -n 's/^maxrss_kb //p' "$T_TMP/rss")
	echo "INTERVAL flood: ${_ms} ms, client VmHWM ${_rss} kB, $(wc -l <"$OUT") lines"
	eq "INTERVAL flood: exit 1" "$RC" 1
	check "INTERVAL flood: refused at the bound" grep -Eqx -- \
		"gput: partner 127\.0\.0\.1 port $N: the partner's INTERVAL index ([23]): more intervals than the run so far holds \(at most \1\)" "$ERR"
	_sent=$(sed -n 's/^ctlpeer: ivals=3000000: sent \([0-9]*\) of .*/\1/p' "$T_TMP/fp.out")
	check "INTERVAL flood: the partner sent more than the bound (${_sent:-none})" \
		[ "${_sent:-0}" -gt 3 ]
	check "INTERVAL flood: at most 3 lines shown" [ "$(wc -l <"$OUT")" -le 3 ]
	check "INTERVAL flood: client VmHWM under 32 MB (${_rss} kB)" \
		[ "${_rss:-999999}" -lt 32768 ]
else
	fail "INTERVAL flood: /usr/bin/time (Debian package time) measures the client's VmHWM"
fi

t_done
