#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Live tests: iperf's habits are refused with one line and exit 2 before
# gput connects anywhere (the partner's log shows no client, and strace, when
# present, no connect); the partner's log names a --time run's time.
. "$(dirname "$0")/lib.sh"

start_daemon || { fail "daemon announces its port"; t_done; }
P=$D_PORT

# habit: exit 2, the one line, and no client in the partner's log
habit() {
	run_t 10 "$GPUT" "${@:2}"
	eq "habit ${*:2}: exit 2, one line" "$RC:$(wc -l <"$ERR"):$(cat "$ERR")" "2:1:gput: $1"
}
habit "-t transmits as in nttcp; for a timed run use --time 10" -t 10 -p "$P" 127.0.0.1
habit "-t transmits as in nttcp; for a timed run use --time 1" -p "$P" 127.0.0.1 -t 1
habit "-i starts the partner as in nttcp; for interval lines use --interval 1" -p "$P" 127.0.0.1 -i 1
habit "-b is iperf's bitrate: gput paces the sender with --rate 10M (payload bit/s)" -u -b 10M -p "$P" 127.0.0.1
habit "-R is iperf's reverse: in gput, -r makes this host receive and the partner send" -R -p "$P" 127.0.0.1
habit "-J is iperf's JSON: gput prints JSON with --json (or --json-lines)" -J -p "$P" 127.0.0.1
habit "-n counts buffers of -l bytes as in nttcp; for a number of bytes use -x 10M" -n 10M -p "$P" 127.0.0.1
habit "--client is iperf's: gput takes the partner's name alone (gput 127.0.0.1)" -p "$P" --client 127.0.0.1
eq "no habit reached the partner" "$(grep -c 'client .*start' "$D_LOG")" 0

if command -v strace >/dev/null; then
	# LeakSanitizer cannot run under ptrace (make check-asan)
	export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
	run_t 10 strace -f -qq -e trace=connect -o "$T_TMP/st" "$GPUT" -t 5 -p "$P" 127.0.0.1 -n 1
	eq "strace: the habit exits 2" "$RC" 2
	eq "strace: no connect at all" "$(grep -c 'connect(' "$T_TMP/st")" 0
	# the same trace sees a real run's connects (the check above can fail)
	run_t 20 strace -f -qq -e trace=connect -o "$T_TMP/st" "$GPUT" -t -n 1 -p "$P" 127.0.0.1
	eq "strace: a real run exits 0" "$RC" 0
	check "strace: a real run's connects are seen" [ "$(grep -c 'connect(' "$T_TMP/st")" -ge 2 ]
else
	skip "strace: not installed"
fi

# a test that runs is in the log (so the count of 0 above means something),
# with bytes; a --time run with its time, not the byte count standing in
run_t 20 "$GPUT" -n 3 -l 1000 -p "$P" 127.0.0.1
eq "a real run: exit 0" "$RC" 0
check "the log has its bytes" wait_for_line "$D_LOG" 'start: tcp, partner receives 3000 bytes$' 5
run_t 20 "$GPUT" -r --time 0.2 -p "$P" 127.0.0.1
eq "a --time run: exit 0" "$RC" 0
check "the log has its time" wait_for_line "$D_LOG" 'start: tcp, partner sends for 0\.200 s$' 5
check "no byte count for a --time run" [ "$(grep -c 4611686018427387904 "$D_LOG")" -eq 0 ]
t_done
