#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# The verdict's causes a host makes (gput(1), WHY A RUN FELL SHORT), on
# loopback, each checked against what really happened:
#
#   sender_cpu:   the client makes 1-byte writes (a system call per byte)
#                 under SCHED_FIFO on CPU 0, the partner receives under
#                 SCHED_FIFO on CPU 1, so neither waits for a CPU whatever
#                 else the host runs; the receiver reads whole 4 KiB
#                 (--full-reads): the sender's CPU s is its Real s, the
#                 receiver's under half its Real s
#   receiver_cpu: the client receives (-r) with 1-byte reads the same way,
#                 the partner writes 16 KiB at a time and is done in under a
#                 tenth of the receiver's Real s
#   receiver_socket_buffer: unpaced UDP into a partner with -w 8 and -c:
#                 datagrams lost, nearly all of them dropped by the
#                 receiving socket (SO_MEMINFO), none elsewhere on loopback
#   -P 2 -v:      a line per receiving stream, with its share; JSON lines
#                 and CSV carry the run's and the streams' verdicts
#   --repeat 2:   how many runs share the verdict (the table, JSON)
# The CPU cases need chrt (root, util-linux); skipped without. Each is
# tried until its cause was produced (at most three times), and then the
# verdict must name it. About 3 s.
# shellcheck disable=SC2016,SC2119,SC2317 # jq and awk programs in single
# quotes; tb_daemon without arguments; functions called through eval
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

command -v jq >/dev/null || { skip "verdict on loopback (needs jq)"; t_done; }

# ge A B: A >= B (numbers).
ge() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a + 0 >= b + 0) }'; }
# lim, ev NAME, side I KEY: from the run's JSON ($OUT).
lim() { jq -r '.explain.limit' "$OUT"; }
ev() { jq -r ".explain.evidence.$1" "$OUT"; }
side() { jq -r ".sides[$1].$2" "$OUT"; }

# sender_busy: the cause, produced: the sender's (local) CPU s >= 0.85 of
# its Real s, the receiver's under half of its own.
sender_busy() {
	ge "$(side 0 cpu_s)" "$(awk -v r="$(side 0 real_s)" 'BEGIN { print 0.85 * r }')" &&
	    ! ge "$(side 1 cpu_s)" "$(awk -v r="$(side 1 real_s)" 'BEGIN { print 0.5 * r }')"
}
# receiver_busy: the receiver's (local) CPU s >= 0.85 of its Real s, the
# sender done in a tenth of it (it put everything into the buffers).
receiver_busy() {
	ge "$(side 0 cpu_s)" "$(awk -v r="$(side 0 real_s)" 'BEGIN { print 0.85 * r }')" &&
	    ! ge "$(side 1 real_s)" "$(awk -v r="$(side 0 real_s)" 'BEGIN { print 0.1 * r }')"
}
# cpu_case NAME LIMIT PROOF CMD...: run CMD until PROOF says the cause was
# produced (three tries: an interrupt storm or another SCHED_FIFO task on
# the host can take a CPU from it), then the verdict must be LIMIT; a cause
# never produced fails.
cpu_case() {
	_name=$1 _want=$2 _proof=$3; shift 3
	for _try in 1 2 3; do
		run_t 30 "$@"
		"$_proof" && break
		echo "$_name: try $_try did not produce the cause: $(jq -c \
		    '[.sides[] | {real_s, cpu_s}]' "$OUT")"
	done
	check "$_name: the cause produced ($_proof)" "$_proof"
	eq "$_name: $_want" "$(lim)" "$_want"
	[ "$(lim)" = "$_want" ] || cat "$OUT"
}

if chrt -f 1 true 2>/dev/null && command -v taskset >/dev/null &&
    [ "$(nproc)" -ge 2 ]; then
	D_WRAP=(chrt -f 1 taskset -c 1)
	start_daemon || { fail "gput -i under SCHED_FIFO"; t_done; }
	D_WRAP=()
	RT=(chrt -f 1 taskset -c 0)
	cpu_case "1-byte writes under SCHED_FIFO" sender_cpu sender_busy \
	    "${RT[@]}" "$GPUT" --json -l 1 -n 200000 -p "$D_PORT" 127.0.0.1 \
	    -l 4096 --full-reads
	cpu_case "1-byte reads under SCHED_FIFO" receiver_cpu receiver_busy \
	    "${RT[@]}" "$GPUT" --json -r -l 1 -p "$D_PORT" 127.0.0.1 -l 16384 -n 20
	kill "$D_PID"
else
	skip "sender_cpu, receiver_cpu (need chrt -f, taskset (root, util-linux) and two CPUs)"
fi

start_daemon || { fail "gput -i"; t_done; }

run_t 30 "$GPUT" --json -u -l 1400 -n 20000 -p "$D_PORT" 127.0.0.1 -w 8 -c
eq "UDP into -w 8 -c: receiver_socket_buffer" "$(lim)" receiver_socket_buffer
check "UDP into -w 8 -c: lost > 0, the socket's drops at least half of them" \
	eval '[ "$(ev lost)" -gt 0 ] && [ $(( 2 * $(ev socket_drops) )) -ge "$(ev lost)" ]'

run_t 30 "$GPUT" -v -P 2 -n 200 -p "$D_PORT" 127.0.0.1
check "-P 2 -v: the run's verdict line" grep -Eq '^1: [0-9.]+ MBit/s: (limited by|limit unknown)' "$OUT"
check "-P 2 -v: a line per receiving stream, with its share" \
	eval '[ "$(grep -Ec "^1\.[12]: [0-9.]+ MBit/s: .*, share 0\.[0-9]{3}" "$OUT")" = 2 ]'

run_t 30 "$GPUT" --json-lines -P 2 -n 200 -p "$D_PORT" 127.0.0.1
check "--json-lines -P 2: the summary's explain, and each receiving stream's" \
	eval '[ "$(tail -n 1 "$OUT" | jq -r "[.explain.limit, (.sides[] | select(.role == \"recv\") | .streams[].explain.limit)] | map(select(. != null)) | length")" = 3 ]'
run_t 30 "$GPUT" --csv -P 2 -n 200 -p "$D_PORT" 127.0.0.1
check "--csv -P 2: the limit column on the receiver's rows, empty on the sender's" \
	eval '[ "$(awk -F, '\''$2 == "recv" && $(NF - 1) != "" { n++ } $2 == "send" && $(NF - 1) == "" { n++ } END { print n }'\'' "$OUT")" = 6 ]'

run_t 30 "$GPUT" --repeat 2 --pause 0 -u --rate 20M -n 300 -l 1000 -p "$D_PORT" 127.0.0.1
check "--repeat 2: how many runs share each verdict, 2 in all" \
	eval 'grep "^limits:" "$OUT" | grep -Eq "^limits: [a-z_]+ in ([12]) of 2 runs(, [a-z_]+ in 1 of 2 runs)?$" &&
	    [ "$(grep "^limits:" "$OUT" | grep -Eo "in [12] of" | awk "{ n += \$2 } END { print n }")" = 2 ]'
run_t 30 "$GPUT" --json --repeat 2 --pause 0 -u --rate 20M -n 300 -l 1000 -p "$D_PORT" 127.0.0.1
eq "--repeat 2 --json: limits counts the runs' own verdicts" \
	"$(jq -c '.limits' "$OUT")" \
	"$(jq -c '[.runs[].explain.limit] | group_by(.) | map({(.[0]): length}) | add' "$OUT")"
check "--repeat 2 --json: paced UDP on loopback: pacing or, behind its schedule, sender" \
	eval '[ -z "$(jq -r ".runs[].explain.limit | select(. != \"pacing\" and . != \"sender\")" "$OUT")" ]'

t_done
