#!/bin/sh
# make bench: gput's TCP data path against nuttcp and iperf2, on loopback.
#
# Each tool's server runs on 127.0.0.1 for the whole benchmark; every run
# sends the same bytes with the same write size (1448 and 131072 bytes), the
# runs are interleaved (gput nuttcp iperf2 gput nuttcp iperf2 ...) so drift in
# the machine hits every tool alike, and each tool's receiver goodput is taken
# from that tool's own output (all three print 10^6 bit/s). The table gives
# medians, the spread, CPU seconds per GB on each side, and the ratios
# gput/nuttcp and gput/iperf2. Nothing here passes or fails on speed:
# exit 1 means a run broke (a tool failed, short transfer, no result).
#
# With two CPUs or more, servers (the receivers) run on CPU 0 and clients (the
# senders) on CPU 1: on loopback, whether sender and receiver happen to share a
# CPU changes 1448-byte goodput by 2x, and that lottery would swamp any
# difference between the tools.
#
# A missing nuttcp or iperf is skipped with the Debian package to install.
# Takes about 1.5 minutes on 2 cores. Tunables (environment):
#   BENCH_PIN=1         0: let the scheduler place the processes
#   BENCH_REPS=5        runs per tool and size
#   BENCH_SIZES="1448 131072"  write lengths
#   BENCH_MB_SMALL=1024 MiB per run with writes under 64 KiB (whole writes)
#   BENCH_MB_LARGE=4096 MiB per run with larger writes
#   BENCH_RAW=file      also keep the per-run results there
# Every server it starts is stopped on exit, also on Ctrl-C.
set -eu

cd "$(dirname "$0")/.."
GPUT=${GPUT:-./gput}
REPS=${BENCH_REPS:-5}
MB_SMALL=${BENCH_MB_SMALL:-1024}
MB_LARGE=${BENCH_MB_LARGE:-4096}
SIZES=${BENCH_SIZES:-"1448 131072"}
HOST=127.0.0.1
SRV=""        # command prefixes that pin servers and clients, or nothing
CLI=""
REPORT=tools/bench-report.awk

TMP=$(mktemp -d "${TMPDIR:-/tmp}/gput-bench.XXXXXX")
PIDS=""

die() { echo "bench: $*" >&2; exit 1; }
note() { echo "bench: $*" >&2; }

cleanup() {
	trap - EXIT INT TERM
	for p in $PIDS; do kill "$p" 2>/dev/null || true; done
	for p in $PIDS; do wait "$p" 2>/dev/null || true; done
	rm -rf "$TMP"
}
trap cleanup EXIT
trap 'echo "bench: interrupted" >&2; exit 130' INT TERM HUP PIPE

# deadline SECONDS: the date +%s by which a wait must have succeeded.
deadline() { echo $(( $(date +%s) + $1 )); }

# listening PORT: is anything listening on TCP PORT (IPv4 or IPv6)?
# (/proc/net/tcp*: local address "ADDR:PORT" in hex, state 0A is LISTEN.)
listening() {
	cat /proc/net/tcp /proc/net/tcp6 2>/dev/null | awk -v port="$(printf %04X "$1")" '
	    $4 == "0A" && substr($2, length($2) - 3) == port { found = 1 }
	    END { exit !found }'
}

# in_use PORT: is PORT bound by any TCP socket, in any state?
in_use() {
	cat /proc/net/tcp /proc/net/tcp6 2>/dev/null | awk -v port="$(printf %04X "$1")" '
	    substr($2, length($2) - 3) == port { found = 1 }
	    END { exit !found }'
}

# free_ports N: the first of N consecutive ports nobody uses (from a
# pid-dependent start, so two benches rarely collide).
free_ports() {
	_p=$(( 20000 + ($$ * 7) % 30000 ))
	while :; do
		_i=0
		while [ $_i -lt "$1" ] && ! in_use $((_p + _i)); do _i=$((_i + 1)); done
		[ $_i -eq "$1" ] && { echo "$_p"; return 0; }
		_p=$((_p + _i + 1))
		[ $_p -lt 60000 ] || die "no free TCP ports"
	done
}

# wait_listen PID PORT SECONDS: poll until PORT listens; fail if the server
# PID dies or the deadline passes.
wait_listen() {
	_end=$(deadline "$3")
	until listening "$2"; do
		kill -0 "$1" 2>/dev/null || return 1
		[ "$(date +%s)" -lt "$_end" ] || return 1
		sleep 0.05
	done
}

# wait_count FILE REGEX N SECONDS: poll until FILE has N lines matching REGEX.
wait_count() {
	_end=$(deadline "$4")
	until [ "$(grep -Ec "$2" "$1" 2>/dev/null)" -ge "$3" ]; do
		[ "$(date +%s)" -lt "$_end" ] || return 1
		sleep 0.05
	done
}

# client_cpu FILE: the CPU seconds (user + system) of the client process the
# subshell ran, from the shell's `times` (its children's line).
client_cpu() {
	awk 'function s(t) { split(t, a, /[ms]/); return a[1] * 60 + a[2] }
	    NR == 2 { printf "%.3f\n", s($1) + s($2) }' "$1"
}

# ---- the tools -------------------------------------------------------------
# Each run_TOOL LEN COUNT prints one line, "Mbit/s txcpu rxcpu clientcpu"
# (CPU in seconds, "-" where the tool does not say), or fails.

HAVE=""

start_gput() {
	[ -x "$GPUT" ] || die "$GPUT not built (run make gput)"
	$SRV "$GPUT" -i -p 0 2>"$TMP/gput.srv" &
	PIDS="$PIDS $!"
	_end=$(deadline 5)
	until grep -q 'listening on .* port [0-9]' "$TMP/gput.srv" 2>/dev/null; do
		[ "$(date +%s)" -lt "$_end" ] || die "gput -i did not announce its port"
		sleep 0.05
	done
	GPUT_PORT=$(sed -n 's/.*listening on .* port \([0-9]*\)$/\1/p' "$TMP/gput.srv")
	HAVE="$HAVE gput gputi1 gputP1 gputP2 gputP4"
}

# gput with --interval 1: what sampling both sides every second costs.
run_gputi1() { GPUT_EXTRA="--interval 1" run_gput "$@"; }
# gput -P N: N streams, each moving the run's bytes / N (its sum line
# counts); -P 1 is the single stream by another road, P2 and P4 show how
# streams scale on the CPUs pinned here (one for each side's threads).
run_gputP1() { GPUT_STREAMS=1 run_gput "$@"; }
run_gputP2() { GPUT_STREAMS=2 run_gput "$1" $(($2 / 2)); }
run_gputP4() { GPUT_STREAMS=4 run_gput "$1" $(($2 / 4)); }

# Local side sends (-t); its line is "l", the partner's (the receiver) "1".
# GPUT_EXTRA: more options (the gputi1 row: live intervals every second);
# the table's lines come after any interval lines, so the last one counts.
run_gput() {
	_p=${GPUT_STREAMS:-}
	( $CLI "$GPUT" -f ' %.3rbr %.6ct %b' ${GPUT_EXTRA:-} ${_p:+-P $_p} \
	    -p "$GPUT_PORT" -l "$1" -n "$2" "$HOST" \
	    >"$TMP/out" 2>"$TMP/err"; echo "rc $?" >>"$TMP/out"; times ) >"$TMP/times"
	grep -q '^rc 0$' "$TMP/out" || { cat "$TMP/err" >&2; return 1; }
	awk -v want=$(($1 * $2 * ${_p:-1})) -v cpu="$(client_cpu "$TMP/times")" '
	    $1 == "l" { tx = $3 }
	    $1 == "1" { rate = $2; rx = $3; bytes = $4 }
	    END { if (bytes != want) exit 1; print rate, tx, rx, cpu }' "$TMP/out"
}

start_nuttcp() {
	command -v nuttcp >/dev/null 2>&1 || {
		note "nuttcp not found: install the Debian package nuttcp; skipping it"
		return 0; }
	# --nofork keeps the server in the foreground, so it is ours to stop.
	NUT_CTL=$PORTS
	NUT_DATA=$((PORTS + 1))
	$SRV nuttcp --nofork -S -P "$NUT_CTL" >"$TMP/nuttcp.srv" 2>&1 &
	PIDS="$PIDS $!"
	wait_listen $! "$NUT_CTL" 5 || die "nuttcp -S did not listen on port $NUT_CTL"
	HAVE="$HAVE nuttcp"
}

# -fparse: "megabytes=... real_seconds=... rate_Mbps=... tx_cpu=%% rx_cpu=%%";
# the rate is the receiver's. CPU seconds = percent of real time.
run_nuttcp() {
	( $CLI nuttcp -fparse -P "$NUT_CTL" -p "$NUT_DATA" -l "$1" -n "$2" "$HOST" \
	    >"$TMP/out" 2>"$TMP/err"; echo "rc $?" >>"$TMP/out"; times ) >"$TMP/times"
	grep -q '^rc 0$' "$TMP/out" || { cat "$TMP/out" "$TMP/err" >&2; return 1; }
	awk -v want=$(($1 * $2)) -v cpu="$(client_cpu "$TMP/times")" '
	    /rate_Mbps=/ { for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] } }
	    END { if (v["megabytes"] * 1048576 < want * 0.9999) exit 1
	        t = v["real_seconds"] / 100
	        printf "%s %.3f %.3f %s\n", v["rate_Mbps"], v["tx_cpu"] * t,
	            v["rx_cpu"] * t, cpu }' "$TMP/out"
}

start_iperf2() {
	command -v iperf >/dev/null 2>&1 || {
		note "iperf (iperf2) not found: install the Debian package iperf; skipping it"
		return 0; }
	iperf --version 2>&1 | grep -q '^iperf version 2' || {
		note "iperf is not iperf2 (install the Debian package iperf); skipping it"
		return 0; }
	HAVE="$HAVE iperf2"
}

# iperf2's server reads with its own -l (default 128 KiB), not the client's;
# the other tools' receivers read with the writer's length, so iperf2 gets a
# server per length, started when that length's runs begin.
iperf2_for() {
	[ -z "${IPERF_PID:-}" ] || { kill "$IPERF_PID"; wait "$IPERF_PID" || true; }
	IPERF_PORT=$((PORTS + 2 + ${IPERF_PORT_NEXT:-0}))
	IPERF_PORT_NEXT=$(( ${IPERF_PORT_NEXT:-0} + 1 ))
	$SRV iperf -s -B "$HOST" -p "$IPERF_PORT" -l "$1" -f m >"$TMP/iperf.srv" 2>&1 &
	IPERF_PID=$!
	PIDS="$PIDS $IPERF_PID"
	wait_listen $! "$IPERF_PORT" 5 || die "iperf -s did not listen on port $IPERF_PORT"
	IPERF_RUNS=0
}

# proc_cpu PID: CPU seconds (user + system, all threads) of PID so far.
proc_cpu() {
	awk -v hz="$(getconf CLK_TCK)" '{ sub(/.*\) /, ""); printf "%.2f\n", ($12 + $13) / hz }' \
	    "/proc/$1/stat"
}

# The receiver is the server: its rate comes from the server's line for this
# connection; its CPU from the server process's counters around the run.
run_iperf2() {
	_rx0=$(proc_cpu "$IPERF_PID")
	( $CLI iperf -c "$HOST" -p "$IPERF_PORT" -l "$1" -n $(($1 * $2)) -f m \
	    >"$TMP/out" 2>"$TMP/err"; echo "rc $?" >>"$TMP/out"; times ) >"$TMP/times"
	grep -q '^rc 0$' "$TMP/out" || { cat "$TMP/out" "$TMP/err" >&2; return 1; }
	IPERF_RUNS=$((IPERF_RUNS + 1))
	wait_count "$TMP/iperf.srv" 'Mbits/sec' "$IPERF_RUNS" 10 || {
		note "no iperf -s result for run $IPERF_RUNS"; return 1; }
	_rx1=$(proc_cpu "$IPERF_PID")
	awk -v want=$(($1 * $2)) -v rx="$_rx0 $_rx1" -v cpu="$(client_cpu "$TMP/times")" '
	    /Mbits\/sec/ { for (i = 2; i <= NF; i++) {
	            if ($i == "Mbits/sec") rate = $(i - 1)
	            if ($i == "MBytes") mb = $(i - 1) } }
	    END { if (mb * 1048576 < want * 0.999) exit 1
	        split(rx, r, " "); printf "%s - %.2f %s\n", rate, r[2] - r[1], cpu }' \
	    "$TMP/iperf.srv"
}

# ---- the benchmark -----------------------------------------------------------

count_for() {        # count_for LEN: writes per run
	if [ "$1" -ge 65536 ]; then echo $((MB_LARGE * 1048576 / $1))
	else echo $((MB_SMALL * 1048576 / $1)); fi
}

PLACE="scheduler's choice of CPUs"
if [ "${BENCH_PIN:-1}" != 0 ] && [ "$(getconf _NPROCESSORS_ONLN)" -ge 2 ]; then
	if command -v taskset >/dev/null 2>&1; then
		SRV="taskset -c 0"
		CLI="taskset -c 1"
		PLACE="receivers on CPU 0, senders on CPU 1"
	else
		note "taskset not found (Debian package util-linux): processes not pinned"
	fi
fi

# nuttcp's control and data ports and iperf's, one per length, taken together:
# nuttcp's data port is bound only during a run, so a later search for a free
# port would hand it out.
PORTS=$(free_ports $((2 + $(echo "$SIZES" | wc -w))))
start_gput
start_nuttcp
start_iperf2
case $HAVE in
*" "*" "*) ;;
*) note "nothing to compare gput with (only:$HAVE); install nuttcp and iperf"
   exit 0 ;;
esac

# busy_pct: how busy the CPUs are (all of them, in %), over one second before
# the runs: anything else running shares the CPUs and widens the spread.
busy_pct() {
	_a=$(head -n 1 /proc/stat)
	sleep 1
	_b=$(head -n 1 /proc/stat)
	echo "$_a
$_b" | awk '{ t = 0; for (i = 2; i <= NF; i++) t += $i; idle = $5 + $6 }
	    NR == 1 { t0 = t; i0 = idle }
	    NR == 2 { printf "%.0f%%\n", (t > t0) ? 100 * (1 - (idle - i0) / (t - t0)) : 0 }'
}
BUSY=$(busy_pct 2>/dev/null || echo "?")
RAW=$TMP/raw
: >"$RAW"
note "tools:$HAVE; $REPS runs each of $SIZES-byte writes, interleaved; $PLACE"
for len in $SIZES; do
	case $HAVE in *iperf2*) iperf2_for "$len" ;; esac
	# One short untimed run per tool first: faults in buffers, warms caches.
	for t in $HAVE; do run_"$t" "$len" $(( $(count_for "$len") / 16 )) >/dev/null ||
	    die "$t: warm-up run failed ($len-byte writes)"; done
	rep=1
	while [ $rep -le "$REPS" ]; do
		for t in $HAVE; do
			n=$(count_for "$len")
			line=$(run_"$t" "$len" "$n") ||
			    die "$t: run $rep failed ($len-byte writes)"
			echo "$len $t $rep $((len * n)) $line" >>"$RAW"
			note "$len $t run $rep: $line"
		done
		rep=$((rep + 1))
	done
done
[ -z "${BENCH_RAW:-}" ] || cp "$RAW" "$BENCH_RAW"
awk -v tools="$HAVE" -v place="$PLACE; CPUs $BUSY busy before the runs" -f "$REPORT" "$RAW"
