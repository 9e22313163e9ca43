#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# make bench: gput's data paths against nuttcp, iperf2 and iperf3 and against
# the host's own ceiling, on loopback; make bench-pcap: gput-pcap against
# tshark and tcptrace on one generated capture.
#
# Each tool's server runs on 127.0.0.1; every run of a row moves the same
# bytes with the same write size, the rows are interleaved (gput nuttcp
# iperf2 iperf3 host gput nuttcp ... in every round) so drift in the machine
# hits every tool alike, each tool gets the same one short warm-up run, and
# every number comes from the tool's own output or the probe's own counts
# (all of them in 10^6 bit/s). The report gives medians with min-max,
# service demand (CPU microseconds per MB, 10^6 bytes, moved) on each side,
# and for every gput row its ratio to the best peer (the fastest of nuttcp,
# iperf2 and iperf3 at that protocol and size) and to the matching host
# ceiling. Nothing here passes or fails on speed: exit 1 means a run broke
# (a tool failed, a short transfer, no result). One exception: a peer whose
# own receiver counted fewer bytes than were sent (iperf2 2.1.8's server,
# see run_iperf2) has no result in that round, and the report says how
# many of its runs that was; nothing takes the missing number's place.
#
# TCP: writes of each BENCH_SIZES length: gput, gput --interval 1, gput -P 1,
#   -P 2, -P 4, gput --discard, gput --full-reads, gput --discard
#   --full-reads (when ./gput -h lists them), nuttcp, iperf2,
#   iperf3; host rows from tools/hostprobe.c: one TCP connection, the same
#   writes, read with copy ("host copy", the ceiling of the rows that copy)
#   and with recv(MSG_TRUNC) ("host trunc", the ceiling of --discard);
#   with the --full-reads rows, both again with SO_RCVLOWAT = LEN ("host:
#   copy, full", "host: TRUNC, full", their ceilings).
# UDP: BENCH_UDP_LEN-byte datagrams at a loss ceiling of BENCH_LOSS percent:
#   a row's result in a round is the best receiver goodput among candidate
#   runs whose loss is at most the ceiling. Each candidate moves the same
#   BENCH_UDP_MB; the first is unpaced, the next paced with the tool's own
#   rate option (gput --rate, nuttcp -R, iperf -b, iperf3 -b) just under what
#   got through, then bisected between the best accepted and the lowest
#   rejected rate, BENCH_UDP_STEPS paced candidates at most, the steps of all
#   rows interleaved. Loss is the tool's own count, cross-checked against the
#   datagrams sent (the larger counts). Every UDP socket gets
#   BENCH_UDP_WIN KiB of send and receive buffer through the tool's own
#   option (gput -w, nuttcp -w -ws, iperf -w on both, iperf3 -w; the probe
#   SO_SNDBUF/SO_RCVBUF): with the system's 208 KiB default, a receiver
#   that wakes a few hundred microseconds late drops datagrams at any rate,
#   and the search measures the scheduler. Rows: gput, gput --batch 64 and
#   gput --gso (when ./gput -h lists them; on both ends), nuttcp -u, iperf2
#   -u, iperf3 -u; host rows from the probe, searched the same way: one
#   send() per datagram ("host send", the ceiling of the peers and plain
#   gput), sendmmsg/recvmmsg of 64 ("host mmsg", of --batch), UDP GSO + GRO
#   ("host gso", of --gso).
#   iperf2 2.1.8 ignores -b with -n, so its paced candidates run for the
#   time (-t) the same bytes take at the target rate.
# pcap (BENCH_PCAP=1 after the rest, BENCH_PCAP=only or make bench-pcap
#   alone): tools/pcapsynth.c writes one TCP connection carrying
#   BENCH_PCAP_MB MiB in 1448-byte segments on Ethernet (snaplen 128), then
#   gput-pcap FILE, tshark -q -z conv,tcp -z io,stat (one pass) and
#   tcptrace -l are timed in interleaved rounds: wall and CPU seconds, ratios,
#   and the payload bytes each counts, which must agree.
#
# With two CPUs or more, servers (the receivers) run on CPU 0 and clients (the
# senders) on CPU 1, the probe's threads likewise: on loopback, whether sender
# and receiver happen to share a CPU changes 1448-byte goodput by 2x, and that
# lottery would swamp any difference between the tools.
#
# A missing peer is skipped with the Debian package to install (nuttcp,
# iperf, iperf3, tshark, tcptrace); no cc: no host rows. The report is also
# written as JSON to BENCH_JSON (default bench-out/bench.json).
# A full run takes about 6 minutes on 2 cores; make bench-pcap under 1.
# Tunables (environment):
#   BENCH_PIN=1         0: let the scheduler place the processes
#   BENCH_REPS=5        rounds (runs per row and size)
#   BENCH_TCP=1, BENCH_UDP=1   0: leave that part out
#   BENCH_SIZES="1448 131072"  TCP write lengths
#   BENCH_MB_SMALL=1024 MiB per TCP run with writes under 64 KiB
#   BENCH_MB_LARGE=4096 MiB per TCP run with larger writes
#   BENCH_UDP_LEN=1472  UDP datagram payload
#   BENCH_UDP_MB=256    MiB per UDP candidate run
#   BENCH_LOSS=1        the loss ceiling, percent
#   BENCH_UDP_STEPS=5   paced candidates after the unpaced one, at most
#   BENCH_UDP_WIN=4096  KiB of UDP socket buffers for every row; 0: the
#                       system's defaults (net.core.rmem_max caps it)
#   BENCH_PCAP=0        1: also time the pcap readers; only: just them
#   BENCH_TESTBED=1     0: leave out the testbed rows (as root only):
#                       tools/bench-testbed.sh, one round of one cubic flow
#                       at BENCH_TESTBED_RATE (1G) across the testbed
#                       without a delay line (the ceiling), through the
#                       wire namespace's kernel forwarding (fwd) and with a
#                       0.5 ms delay line on each path (ring, copy):
#                       frames/s each way at once, the lines' p99 error and
#                       late frames, where the CPU went, ratios to the
#                       ceiling; then a flood of BENCH_TESTBED_FPS (83000)
#                       frames/s each way at once (tests/framegen) through
#                       none, fwd and ring: the share delivered
#   BENCH_PCAP_MB=1024  MiB of payload in the generated capture
#   BENCH_PCAP_REPS=3   rounds of the pcap readers (tshark takes a minute)
#   BENCH_JSON=file     where the JSON goes (default bench-out/bench.json)
#   BENCH_RAW=file      also keep the per-run results there
# Every server it starts is stopped on exit, also on Ctrl-C.
set -eu

cd "$(dirname "$0")/.."
GPUT=${GPUT:-./gput}
GPUT_PCAP=${GPUT_PCAP:-./gput-pcap}
REPS=${BENCH_REPS:-5}
MB_SMALL=${BENCH_MB_SMALL:-1024}
MB_LARGE=${BENCH_MB_LARGE:-4096}
SIZES=${BENCH_SIZES:-"1448 131072"}
UDP_LEN=${BENCH_UDP_LEN:-1472}
UDP_MB=${BENCH_UDP_MB:-256}
LOSS=${BENCH_LOSS:-1}
STEPS=${BENCH_UDP_STEPS:-5}
UWIN=${BENCH_UDP_WIN:-4096}
[ "$UWIN" != 0 ] || UWIN=""
PCAP=${BENCH_PCAP:-0}
PCAP_MB=${BENCH_PCAP_MB:-1024}
PCAP_REPS=${BENCH_PCAP_REPS:-3}
JSON=${BENCH_JSON:-bench-out/bench.json}
DO_TCP=${BENCH_TCP:-1}
DO_UDP=${BENCH_UDP:-1}
[ "$PCAP" != only ] || { DO_TCP=0; DO_UDP=0; }
HOST=127.0.0.1
SRV=""        # command prefixes that pin servers and clients, or nothing
CLI=""
PRX=-1        # the probe's receiver and sender CPUs (-1: not pinned)
PTX=-1
REPORT=tools/bench-report.awk

TMP=$(mktemp -d "${TMPDIR:-/tmp}/gput-bench.XXXXXX")
PIDS=""

die() { echo "bench: $*" >&2; exit 1; }
note() { echo "bench: $*" >&2; }

cleanup() {
	trap - EXIT INT TERM
	for p in $PIDS; do kill "$p" 2>/dev/null || true; done
	sleep 0.2
	# iperf2's UDP server does not always heed SIGTERM
	for p in $PIDS; do kill -9 "$p" 2>/dev/null || true; done
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

# udp_bound PORT: is a UDP socket bound to PORT?
udp_bound() {
	cat /proc/net/udp /proc/net/udp6 2>/dev/null | awk -v port="$(printf %04X "$1")" '
	    NR > 1 && substr($2, length($2) - 3) == port { found = 1 }
	    END { exit !found }'
}

# in_use PORT: is PORT bound by any TCP or UDP socket, in any state?
in_use() {
	cat /proc/net/tcp /proc/net/tcp6 /proc/net/udp /proc/net/udp6 2>/dev/null |
	    awk -v port="$(printf %04X "$1")" '
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
		[ $_p -lt 60000 ] || die "no free ports"
	done
}

# wait_listen PID PORT SECONDS: poll until PORT listens; fail if the server
# PID dies or the deadline passes. wait_udp: the same for a UDP port.
wait_listen() {
	_end=$(deadline "$3")
	until listening "$2"; do
		kill -0 "$1" 2>/dev/null || return 1
		[ "$(date +%s)" -lt "$_end" ] || return 1
		sleep 0.05
	done
}
wait_udp() {
	_end=$(deadline "$3")
	until udp_bound "$2"; do
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

# proc_cpu PID: CPU seconds (user + system, all threads) of PID so far.
proc_cpu() {
	awk -v hz="$(getconf CLK_TCK)" '{ sub(/.*\) /, ""); printf "%.2f\n", ($12 + $13) / hz }' \
	    "/proc/$1/stat"
}

# client OUT CMD...: run CMD (pinned as a client) with stdout in OUT, stderr
# in $TMP/err; its CPU seconds go to $TMP/times. Fails as CMD does.
client() {
	_o=$1
	shift
	( $CLI "$@" >"$_o" 2>"$TMP/err"; echo "rc $?" >"$TMP/rc"; times ) >"$TMP/times"
	grep -q '^rc 0$' "$TMP/rc" || { cat "$_o" "$TMP/err" >&2; return 1; }
}

# gput_has OPTION: does this gput's usage list OPTION?
gput_has() { "$GPUT" -h 2>&1 | grep -q -- "$1"; }

# ---- the tools -------------------------------------------------------------
# TCP: each run_TOOL LEN COUNT prints one line, "Mbit/s txcpu rxcpu clientcpu"
# (CPU in seconds, "-" where the tool does not say), or fails.
# UDP: each udp_TOOL LEN COUNT MBITS (0: unpaced) prints "Mbit/s txcpu rxcpu
# clientcpu rxbytes txbytes loss_tool loss_check" (loss in percent: the
# tool's own figure, and 100 * (datagrams sent - datagrams the receiver
# counted) / datagrams sent), or fails.

HAVE_TCP=""
HAVE_UDP=""

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
	HAVE_TCP="$HAVE_TCP gput gputi1 gputP1 gputP2 gputP4"
	HAVE_UDP="$HAVE_UDP gput"
	# The data-path options being added (issue 13): rows when gput has them.
	if gput_has --discard; then HAVE_TCP="$HAVE_TCP gputD"
	else note "gput has no --discard yet: no gput --discard row"; fi
	# --full-reads: each receiver read waits for a whole -l (SO_RCVLOWAT)
	if gput_has --full-reads; then HAVE_TCP="$HAVE_TCP gputF"
		gput_has --discard && HAVE_TCP="$HAVE_TCP gputDF"
	else note "gput has no --full-reads yet: no gput --full-reads row"; fi
	if gput_has --batch; then HAVE_UDP="$HAVE_UDP gputB64"
	else note "gput has no --batch yet: no gput --batch 64 row"; fi
	if gput_has --gso; then HAVE_UDP="$HAVE_UDP gputGSO"
	else note "gput has no --gso yet: no gput --gso row"; fi
}

# gput with --interval 1: what sampling both sides every second costs.
run_gputi1() { GPUT_EXTRA="--interval 1" run_gput "$@"; }
# gput -P N: N streams, each moving the run's bytes / N (its sum line
# counts); -P 1 is the single stream by another road, P2 and P4 show how
# streams scale on the CPUs pinned here (one for each side's threads).
run_gputP1() { GPUT_STREAMS=1 run_gput "$@"; }
run_gputP2() { GPUT_STREAMS=2 run_gput "$1" $(($2 / 2)); }
run_gputP4() { GPUT_STREAMS=4 run_gput "$1" $(($2 / 4)); }
# --discard, --batch 64, --gso: on both ends (before the partner: the local
# side; after it: the partner's).
run_gputD() { GPUT_BOTH="--discard" run_gput "$@"; }
run_gputF() { GPUT_BOTH="--full-reads" run_gput "$@"; }
run_gputDF() { GPUT_BOTH="--discard --full-reads" run_gput "$@"; }
udp_gputB64() { GPUT_BOTH="--batch 64" GPUT_BURST=64 udp_gput "$@"; }
udp_gputGSO() { GPUT_BOTH="--gso" GPUT_BURST=44 udp_gput "$@"; }

# Local side sends (-t); its line is "l", the partner's (the receiver) "1".
# GPUT_EXTRA: more options (the gputi1 row: live intervals every second);
# the table's lines come after any interval lines, so the last one counts.
run_gput() {
	_p=${GPUT_STREAMS:-}
	client "$TMP/out" "$GPUT" -f ' %.3rbr %.6ct %b' ${GPUT_EXTRA:-} ${GPUT_BOTH:-} \
	    ${_p:+-P $_p} -p "$GPUT_PORT" -l "$1" -n "$2" "$HOST" ${GPUT_BOTH:-} || return 1
	awk -v want=$(($1 * $2 * ${_p:-1})) -v cpu="$(client_cpu "$TMP/times")" '
	    $1 == "l" { tx = $3 }
	    $1 == "1" { rate = $2; rx = $3; bytes = $4 }
	    END { if (bytes != want) exit 1; print rate, tx, rx, cpu }' "$TMP/out"
}

# UDP: "1: received R of S datagrams, L lost (P%)" under the table; S is
# what the sender says it sent, which must be COUNT, and Bytes R * LEN.
udp_gput() {
	_r=""
	# paced, a batching row sends a batch per gap (--burst: a GSO message
	# holds at most 44 1472-byte datagrams in 64 KiB), or it would send
	# one datagram per call
	[ "$3" = 0 ] || _r="--rate ${3}M${GPUT_BURST:+ --burst $GPUT_BURST}"
	client "$TMP/out" "$GPUT" -f ' %.3rbr %.6ct %b' -u ${UWIN:+-w $UWIN} ${GPUT_BOTH:-} $_r \
	    -p "$GPUT_PORT" -l "$1" -n "$2" "$HOST" ${GPUT_BOTH:-} || return 1
	awk -v len="$1" -v n="$2" -v cpu="$(client_cpu "$TMP/times")" '
	    $1 == "l" && $2 ~ /^[0-9.]+$/ { tx = $3; txb = $4 }
	    $1 == "1" && $2 ~ /^[0-9.]+$/ { rate = $2; rx = $3; bytes = $4 }
	    $1 == "1:" && $2 == "received" { got = $3; sent = $5; p = $9
	        gsub(/[()%;,]/, "", p) }
	    END { if (sent != n || bytes != got * len || txb != n * len) {
	            printf "gput: sent %s of %s datagrams, %s bytes for %s\n",
	                sent, n, bytes, got > "/dev/stderr"; exit 1 }
	        printf "%s %s %s %s %s %s %s %.4f\n", rate, tx, rx, cpu, bytes,
	            txb, p, 100 * (n - got) / n }' "$TMP/out"
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
	HAVE_TCP="$HAVE_TCP nuttcp"
	HAVE_UDP="$HAVE_UDP nuttcp"
}

# -fparse: "megabytes=... real_seconds=... rate_Mbps=... tx_cpu=%% rx_cpu=%%";
# the rate is the receiver's. CPU seconds = percent of real time.
run_nuttcp() {
	client "$TMP/out" nuttcp -fparse -P "$NUT_CTL" -p "$NUT_DATA" -l "$1" \
	    -n "$2" "$HOST" || return 1
	awk -v want=$(($1 * $2)) -v cpu="$(client_cpu "$TMP/times")" '
	    /rate_Mbps=/ { for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] } }
	    END { if (v["megabytes"] * 1048576 < want * 0.9999) exit 1
	        t = v["real_seconds"] / 100
	        printf "%s %.3f %.3f %s\n", v["rate_Mbps"], v["tx_cpu"] * t,
	            v["rx_cpu"] * t, cpu }' "$TMP/out"
}

# UDP: nuttcp paces with -R (its default for UDP is 1 Mbit/s; -R 0 is no
# limit) and adds "drop=... pkt=... data_loss=%"; the datagrams that arrived
# are megabytes (MiB, 4 decimals) / LEN.
udp_nuttcp() {
	client "$TMP/out" nuttcp -u -fparse -R "${3}m" ${UWIN:+-w$UWIN -ws$UWIN} \
	    -P "$NUT_CTL" -p "$NUT_DATA" \
	    -l "$1" -n "$2" "$HOST" || return 1
	awk -v len="$1" -v n="$2" -v cpu="$(client_cpu "$TMP/times")" '
	    /rate_Mbps=/ { for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] } }
	    END { if (!("data_loss" in v)) exit 1
	        got = int(v["megabytes"] * 1048576 / len + 0.5)
	        t = v["real_seconds"] / 100
	        printf "%s %.3f %.3f %s %d %d %s %.4f\n", v["rate_Mbps"],
	            v["tx_cpu"] * t, v["rx_cpu"] * t, cpu, got * len, n * len,
	            v["data_loss"], 100 * (n - got) / n }' "$TMP/out"
}

start_iperf2() {
	command -v iperf >/dev/null 2>&1 || {
		note "iperf (iperf2) not found: install the Debian package iperf; skipping it"
		return 0; }
	iperf --version 2>&1 | grep -q '^iperf version 2' || {
		note "iperf is not iperf2 (install the Debian package iperf); skipping it"
		return 0; }
	HAVE_TCP="$HAVE_TCP iperf2"
	HAVE_UDP="$HAVE_UDP iperf2"
}

# iperf2's server reads with its own -l (default 128 KiB), not the client's;
# the other tools' receivers read with the writer's length, so iperf2 gets a
# server per length, started when that length's runs begin. -f b: its
# counts in bytes and bits/s, exact.
iperf2_for() {
	[ -z "${IPERF_PID:-}" ] || { kill "$IPERF_PID"; wait "$IPERF_PID" || true; }
	IPERF_PORT=$((PORTS + 4 + ${IPERF_PORT_NEXT:-0}))
	IPERF_PORT_NEXT=$(( ${IPERF_PORT_NEXT:-0} + 1 ))
	$SRV iperf -s -B "$HOST" -p "$IPERF_PORT" -l "$1" -f b >"$TMP/iperf.srv" 2>&1 &
	IPERF_PID=$!
	PIDS="$PIDS $IPERF_PID"
	wait_listen $! "$IPERF_PORT" 5 || die "iperf -s did not listen on port $IPERF_PORT"
	IPERF_RUNS=0
}

# The receiver is the server: its rate comes from the server's line for this
# connection; its CPU from the server process's counters around the run.
# iperf2 2.1.8's server can count less than it read: its reader thread
# hands each read's record to the reporter thread through a ring of 10000
# (NUM_REPORT_STRUCTS), and when the reporter falls a whole ring behind
# (both threads share the server's CPU) the ring's wrap test misses "full"
# and a ring's worth of reads vanishes from the count ("Reads=" under -e
# shows 10000 fewer). -e does not change it; a larger
# --NUM_REPORT_STRUCTS makes it rarer only by giving the server hundreds
# of MB of records to fault in, which is not the iperf2 users run; the
# client's report counts what it wrote, not what arrived. So a run whose
# server counted fewer bytes than were sent is not a result: run_iperf2
# prints "short GOT" and returns 3, and the round goes on without iperf2
# (the report says how many runs that was).
run_iperf2() {
	_rx0=$(proc_cpu "$IPERF_PID")
	client "$TMP/out" iperf -c "$HOST" -p "$IPERF_PORT" -l "$1" -n $(($1 * $2)) \
	    -f b || return 1
	IPERF_RUNS=$((IPERF_RUNS + 1))
	wait_count "$TMP/iperf.srv" ' Bytes .* bits/sec' "$IPERF_RUNS" 10 || {
		note "no iperf -s result for run $IPERF_RUNS"; return 1; }
	_rx1=$(proc_cpu "$IPERF_PID")
	awk -v want=$(($1 * $2)) -v rx="$_rx0 $_rx1" -v cpu="$(client_cpu "$TMP/times")" '
	    / Bytes .* bits\/sec/ { for (i = 2; i <= NF; i++) {
	            if ($i == "bits/sec") rate = $(i - 1) / 1e6
	            if ($i == "Bytes") bytes = $(i - 1) } }
	    END { if (bytes == "" || bytes + 0 > want + 0) exit 1
	        if (bytes + 0 < want + 0) { print "short", bytes; exit 3 }
	        split(rx, r, " "); printf "%.3f - %.2f %s\n", rate, r[2] - r[1], cpu }' \
	    "$TMP/iperf.srv"
}

# UDP: iperf2 2.1.8's UDP server stops reporting after its first test, so
# every run gets a server of its own (-P 1: it exits after one test; its CPU
# from the shell's times). The server's line: "... 7867840 Bytes 313733184
# bits/sec 0.000 ms 0/5345 (0%)" (-f b: exact bytes); the client's "Sent N
# datagrams" (N counts a closing datagram or two too: at most 0.002% here).
# Unpaced: -b far above any loopback rate; paced: -t, since it ignores -b
# with -n.
udp_iperf2() {
	( $SRV iperf -s -u -B "$HOST" -p "$IPERF_UPORT" -l "$1" -f b -P 1 ${UWIN:+-w ${UWIN}K} \
	    >"$TMP/iperf.usrv" 2>&1; times >"$TMP/iperf.utimes" ) &
	_sp=$!
	PIDS="$PIDS $_sp"
	wait_udp "$_sp" "$IPERF_UPORT" 5 || { note "iperf -s -u did not bind"; return 1; }
	if [ "$3" = 0 ]; then
		set -- "$1" "$2" "$3" -n $(($1 * $2)) -b 100000M
	else
		set -- "$1" "$2" "$3" -t "$(awk -v b=$(($1 * $2)) -v r="$3" \
		    'BEGIN { printf "%.3f", b * 8 / (r * 1e6) }')" -b "${3}M"
	fi
	_len=$1 _n=$2
	shift 3
	client "$TMP/out" iperf -c "$HOST" -u -p "$IPERF_UPORT" -l "$_len" -f b \
	    ${UWIN:+-w ${UWIN}K} "$@" ||
	    { kill -9 "$_sp" 2>/dev/null; return 1; }
	_end=$(deadline 10)
	while kill -0 "$_sp" 2>/dev/null; do
		[ "$(date +%s)" -lt "$_end" ] || { kill -9 "$_sp"; note "iperf -s -u did not end"; return 1; }
		sleep 0.05
	done
	wait "$_sp" 2>/dev/null || true
	awk -v len="$_len" -v cpu="$(client_cpu "$TMP/times")" \
	    -v rx="$(client_cpu "$TMP/iperf.utimes")" '
	    FILENAME ~ /out$/ && /Sent [0-9]+ datagrams/ {
	        for (i = 1; i <= NF; i++) if ($i == "Sent") sent = $(i + 1) }
	    FILENAME ~ /usrv$/ && /bits\/sec/ && /\// {
	        for (i = 2; i <= NF; i++) {
	            if ($i == "Bytes") bytes = $(i - 1)
	            if ($i == "bits/sec") rate = $(i - 1) / 1e6
	            if ($i ~ /^[0-9]+\/[0-9]+$/) { split($i, lt, "/"); p = 100 * lt[1] / lt[2] } } }
	    END { if (sent == "" || bytes == "") exit 1
	        got = bytes / len
	        printf "%.3f - %s %s %d %d %.4f %.4f\n", rate, rx, cpu, bytes,
	            sent * len, p, 100 * (sent - got) / sent }' "$TMP/out" "$TMP/iperf.usrv"
}

start_iperf3() {
	command -v iperf3 >/dev/null 2>&1 || {
		note "iperf3 not found: install the Debian package iperf3; skipping it"
		return 0; }
	IPERF3_PORT=$((PORTS + 2))
	$SRV iperf3 -s -B "$HOST" -p "$IPERF3_PORT" >"$TMP/iperf3.srv" 2>&1 &
	IPERF3_PID=$!
	PIDS="$PIDS $IPERF3_PID"
	wait_listen $! "$IPERF3_PORT" 5 || die "iperf3 -s did not listen on port $IPERF3_PORT"
	HAVE_TCP="$HAVE_TCP iperf3"
	HAVE_UDP="$HAVE_UDP iperf3"
}

# iperf3_json FILE: "key value" for the end's sum_sent and sum_received
# (prefixed sent_ and recv_), from iperf3 --json; fails on an error.
iperf3_json() {
	awk '/"error":/ { err = 1 }
	    /"sum_sent":/ { b = "sent_"; next }
	    /"sum_received":/ { b = "recv_"; next }
	    b != "" && /}/ { b = "" }
	    b != "" && /"[a-z_]+":/ { k = $1; v = $2; gsub(/[":,]/, "", k); gsub(/,/, "", v)
	        print b k, v }
	    END { exit err }' "$1"
}

# iperf3's server takes one test at a time and may still be closing the last
# one: a "busy" refusal is tried again once.
iperf3_client() {
	client "$TMP/out" iperf3 -c "$HOST" -p "$IPERF3_PORT" --json "$@" && return 0
	grep -q busy "$TMP/out" || return 1
	sleep 0.5
	client "$TMP/out" iperf3 -c "$HOST" -p "$IPERF3_PORT" --json "$@"
}

# TCP: the receiver's rate from sum_received; its CPU from the server
# process around the run (as for iperf2). iperf3 ends the test when the
# sender has sent its -n bytes: what is still in flight then (a few MB of
# socket buffers) is not counted, so sum_received has less than was sent
# (its rate is what it counted over the receiver's time); the sender's sum
# must have it all.
run_iperf3() {
	_rx0=$(proc_cpu "$IPERF3_PID")
	iperf3_client -l "$1" -n $(($1 * $2)) || return 1
	_rx1=$(proc_cpu "$IPERF3_PID")
	iperf3_json "$TMP/out" | awk -v want=$(($1 * $2)) -v rx="$_rx0 $_rx1" \
	    -v cpu="$(client_cpu "$TMP/times")" '
	    { v[$1] = $2 }
	    END { if (v["sent_bytes"] != want || v["recv_bytes"] <= 0) exit 1
	        split(rx, r, " ")
	        printf "%.3f - %.2f %s\n", v["recv_bits_per_second"] / 1e6, r[2] - r[1], cpu }'
}

# UDP: -b 0 is unpaced; sum_received has the receiver's bytes, rate and
# lost_percent, sum_sent the datagrams sent (which must be COUNT).
udp_iperf3() {
	_rx0=$(proc_cpu "$IPERF3_PID")
	iperf3_client -u -l "$1" -n $(($1 * $2)) -b "${3}M" ${UWIN:+-w ${UWIN}K} || return 1
	_rx1=$(proc_cpu "$IPERF3_PID")
	iperf3_json "$TMP/out" | awk -v len="$1" -v n="$2" -v rx="$_rx0 $_rx1" \
	    -v cpu="$(client_cpu "$TMP/times")" '
	    { v[$1] = $2 }
	    END { if (v["sent_packets"] != n) {
	            printf "iperf3: sent %s of %s datagrams\n", v["sent_packets"], n > "/dev/stderr"
	            exit 1 }
	        split(rx, r, " "); got = v["recv_bytes"] / len
	        printf "%.3f - %.2f %s %d %d %s %.4f\n", v["recv_bits_per_second"] / 1e6,
	            r[2] - r[1], cpu, v["recv_bytes"], n * len, v["recv_lost_percent"],
	            100 * (n - got) / n }'
}

# The host's ceiling: tools/hostprobe.c, built here with cc, its threads
# pinned like the tools' processes (receiver CPU 0, sender CPU 1).
build_probe() {
	command -v "${CC:-cc}" >/dev/null 2>&1 || {
		note "no C compiler (Debian package build-essential): no host rows"
		return 0; }
	"${CC:-cc}" -O2 -pthread -o "$TMP/hostprobe" tools/hostprobe.c 2>"$TMP/cc.err" || {
		cat "$TMP/cc.err" >&2; note "tools/hostprobe.c did not build: no host rows"
		return 0; }
	HAVE_TCP="$HAVE_TCP hostcopy hosttrunc"
	case $HAVE_TCP in *gputF*) HAVE_TCP="$HAVE_TCP hostcopyF hosttruncF" ;; esac
	HAVE_UDP="$HAVE_UDP hostsend hostmmsg"
	if "$TMP/hostprobe" udp-gso 1472 14720 "$PRX" "$PTX" >/dev/null 2>"$TMP/err"; then
		HAVE_UDP="$HAVE_UDP hostgso"
	else
		note "no host gso row: $(cat "$TMP/err")"
	fi
}

# probe MODE LEN BYTES MBITS [BUF]: "rate txcpu rxcpu clientcpu rxbytes
# txbytes loss loss" (the probe counts every datagram: its loss is both
# figures); the client's CPU is its sender thread's.
probe() {
	"$TMP/hostprobe" "$1" "$2" "$3" "$PRX" "$PTX" "$4" "${5:-0}" >"$TMP/out" 2>"$TMP/err" ||
	    { cat "$TMP/err" >&2; return 1; }
	awk -v len="$2" '{ for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
	    printf "%s %s %s %s %s %s %s %s\n", v["rate_Mbps"], v["tx_cpu"], v["rx_cpu"],
	        v["tx_cpu"], v["bytes"], v["sent"] * (v["mode"] ~ /^udp/ ? len : 1),
	        v["loss_pct"], v["loss_pct"] }' "$TMP/out"
}
run_hostcopy() { probe tcp-copy "$1" $(($1 * $2)) 0 | cut -d' ' -f1-4; }
run_hosttrunc() { probe tcp-trunc "$1" $(($1 * $2)) 0 | cut -d' ' -f1-4; }
# the ceilings of the --full-reads rows: the same, each read waiting for LEN
run_hostcopyF() { probe tcp-copy-full "$1" $(($1 * $2)) 0 | cut -d' ' -f1-4; }
run_hosttruncF() { probe tcp-trunc-full "$1" $(($1 * $2)) 0 | cut -d' ' -f1-4; }
udp_hostsend() { probe udp-send "$1" $(($1 * $2)) "$3" $((${UWIN:-0} * 1024)); }
udp_hostmmsg() { probe udp-mmsg "$1" $(($1 * $2)) "$3" $((${UWIN:-0} * 1024)); }
udp_hostgso() { probe udp-gso "$1" $(($1 * $2)) "$3" $((${UWIN:-0} * 1024)); }

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
		PRX=0
		PTX=1
		PLACE="receivers on CPU 0, senders on CPU 1"
	else
		note "taskset not found (Debian package util-linux): processes not pinned"
	fi
fi

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

RAW=$TMP/raw
: >"$RAW"
T_START=$(date +%s)

if [ "$DO_TCP" != 0 ] || [ "$DO_UDP" != 0 ]; then
	# nuttcp's control and data ports, iperf3's, iperf2's UDP port, and
	# iperf2's TCP port per length, taken together: nuttcp's data port is
	# bound only during a run, so a later search for a free port would
	# hand it out.
	PORTS=$(free_ports $((4 + $(echo "$SIZES" | wc -w))))
	IPERF_UPORT=$((PORTS + 3))
	start_gput
	start_nuttcp
	start_iperf2
	start_iperf3
	build_probe
	case $HAVE_TCP in
	*nuttcp*|*iperf*) ;;
	*) note "no peer to compare gput with: install the Debian packages nuttcp, iperf, iperf3" ;;
	esac
	BUSY=$(busy_pct 2>/dev/null || echo "?")
fi

# ---- TCP: every row, each length, interleaved rounds
if [ "$DO_TCP" != 0 ]; then
	note "TCP rows:$HAVE_TCP; $REPS rounds of $SIZES-byte writes; $PLACE"
	for len in $SIZES; do
		case $HAVE_TCP in *iperf2*) iperf2_for "$len" ;; esac
		n=$(count_for "$len")
		# One short untimed run per row first: faults in buffers, warms caches.
		for t in $HAVE_TCP; do
			rc=0; line=$(run_"$t" "$len" $((n / 16))) || rc=$?
			case $rc in
			0) ;;
			3) note "$t: warm-up run's receiver counted ${line#short } of $((len * n / 16)) bytes (not used)" ;;
			*) die "$t: warm-up run failed ($len-byte writes)" ;;
			esac
		done
		rep=1
		while [ $rep -le "$REPS" ]; do
			for t in $HAVE_TCP; do
				rc=0; line=$(run_"$t" "$len" "$n") || rc=$?
				case $rc in
				0)	echo "run tcp $len $t $rep $((len * n)) $((len * n)) $line 0 -" >>"$RAW"
					note "tcp $len $t run $rep: $line" ;;
				3)	# the peer's receiver under-counted: no result this round
					echo "short tcp $len $t $rep ${line#short } $((len * n))" >>"$RAW"
					echo "run tcp $len $t $rep ${line#short } $((len * n)) - - - - 0 -" >>"$RAW"
					note "tcp $len $t run $rep: its receiver counted ${line#short } of $((len * n)) bytes: not used" ;;
				*)	die "$t: run $rep failed ($len-byte writes)" ;;
				esac
			done
			rep=$((rep + 1))
		done
	done
fi

# ---- UDP: the search for each row's best rate under the loss ceiling
# next_step TARGET RATE LOSS LO HI STEP: the search's next state, "lo hi next
# done". An accepted unpaced run ends the row's search (nothing is above it);
# a rejected one sets hi to the rate it offered (what arrived / (1 - loss))
# and tries just under what arrived; then bisection between the highest
# accepted and the lowest rejected target, or 0.7 of the last target while
# none is accepted; done after STEPS paced candidates or within 2%.
next_step() {
	awk -v T="$1" -v G="$2" -v L="$3" -v C="$LOSS" -v lo="$4" -v hi="$5" \
	    -v step="$6" -v steps="$STEPS" 'BEGIN {
	    acc = L <= C
	    if (T == 0) {
	        if (acc) { print lo, hi, 0, 1; exit }
	        hi = L < 100 ? G / (1 - L / 100) : G; nxt = int(G * 0.98)
	    } else if (acc) {
	        lo = T; if (hi <= lo) hi = lo * 1.25; nxt = int((lo + hi) / 2)
	    } else {
	        hi = T; nxt = lo > 0 ? int((lo + hi) / 2) : int(T * 0.7)
	    }
	    done = step >= steps || (lo > 0 && hi <= lo * 1.02) || nxt < 1
	    printf "%d %d %d %d\n", lo, hi, nxt, done }'
}

if [ "$DO_UDP" != 0 ]; then
	UN=$((UDP_MB * 1048576 / UDP_LEN))
	note "UDP rows:$HAVE_UDP; $REPS rounds of $UN $UDP_LEN-byte datagrams per candidate, loss ceiling $LOSS%"
	for t in $HAVE_UDP; do udp_"$t" "$UDP_LEN" $((UN / 16)) 0 >/dev/null ||
	    die "$t: UDP warm-up run failed"; done
	rep=1
	while [ $rep -le "$REPS" ]; do
		for t in $HAVE_UDP; do eval "lo_$t=0 hi_$t=0 next_$t=0 done_$t=0 best_$t="; done
		step=0
		while :; do
			any=0
			for t in $HAVE_UDP; do
				eval "d=\$done_$t lo=\$lo_$t hi=\$hi_$t target=\$next_$t"
				[ "$d" = 0 ] || continue
				any=1
				line=$(udp_"$t" "$UDP_LEN" "$UN" "$target") ||
				    die "$t: UDP run failed (round $rep, target ${target:-0} Mbit/s)"
				set -- $line
				loss=$(awk -v a="$7" -v b="$8" 'BEGIN { print (a > b) ? a : b }')
				ok=$(awk -v l="$loss" -v c="$LOSS" 'BEGIN { print (l <= c) ? "accepted" : "rejected" }')
				echo "cand udp $UDP_LEN $t $rep $step $target $1 $7 $8 $ok" >>"$RAW"
				note "udp $t round $rep step $step target ${target} Mbit/s: $1 Mbit/s, loss $7% (tool) $8% (count): $ok"
				if [ "$ok" = accepted ]; then
					eval "b=\$best_$t"
					if [ -z "$b" ] || awk -v a="$1" -v b="${b%% *}" 'BEGIN { exit !(a > b) }'; then
						eval "best_$t=\"\$1 \$2 \$3 \$4 \$5 \$6 \$loss \$target\""
					fi
				fi
				set -- $(next_step "$target" "$1" "$loss" "$lo" "$hi" "$step")
				eval "lo_$t=$1 hi_$t=$2 next_$t=$3 done_$t=$4"
			done
			[ $any = 1 ] || break
			step=$((step + 1))
		done
		for t in $HAVE_UDP; do
			eval "b=\$best_$t"
			if [ -n "$b" ]; then
				set -- $b
				echo "run udp $UDP_LEN $t $rep $5 $6 $1 $2 $3 $4 $7 $8" >>"$RAW"
			else
				note "udp $t round $rep: no candidate within the $LOSS% loss ceiling"
				echo "run udp $UDP_LEN $t $rep 0 0 - - - - - -" >>"$RAW"
			fi
		done
		rep=$((rep + 1))
	done
fi

# ---- pcap: gput-pcap, tshark, tcptrace on one generated capture
# pcap_time TOOL FILE: "wall cpu bytes" (seconds; the flow's payload bytes as
# the tool counts them).
pcap_time() {
	_t0=$(date +%s.%N)
	case $1 in
	gput-pcap) ( "$GPUT_PCAP" "$2" >"$TMP/out" 2>"$TMP/err"; echo "rc $?" >"$TMP/rc"; times ) >"$TMP/times" ;;
	tshark) ( tshark -r "$2" -q -z conv,tcp -z 'io,stat,0,SUM(tcp.len)tcp.len' \
	    >"$TMP/out" 2>"$TMP/err"; echo "rc $?" >"$TMP/rc"; times ) >"$TMP/times" ;;
	tcptrace) ( tcptrace -l "$2" >"$TMP/out" 2>"$TMP/err"; echo "rc $?" >"$TMP/rc"; times ) >"$TMP/times" ;;
	esac
	_t1=$(date +%s.%N)
	grep -q '^rc 0$' "$TMP/rc" || { cat "$TMP/err" >&2; return 1; }
	case $1 in
	gput-pcap) _b=$(awk '$1 == "payload" { print $2; exit }' "$TMP/out") ;;
	tshark) _b=$(awk -F'|' '/<>/ { gsub(/ /, "", $3); print $3; exit }' "$TMP/out") ;;
	tcptrace) _b=$(awk '/unique bytes sent:/ { print $4; exit }' "$TMP/out") ;;
	esac
	echo "$_t0 $_t1 $(client_cpu "$TMP/times") ${_b:--}" |
	    awk '{ printf "%.3f %s %s\n", $2 - $1, $3, $4 }'
}

if [ "$PCAP" != 0 ]; then
	PTOOLS=""
	[ -x "$GPUT_PCAP" ] || die "$GPUT_PCAP not built (run make gput-pcap)"
	command -v "${CC:-cc}" >/dev/null 2>&1 || die "no C compiler for tools/pcapsynth.c"
	"${CC:-cc}" -O2 -o "$TMP/pcapsynth" tools/pcapsynth.c || die "tools/pcapsynth.c did not build"
	PTOOLS="gput-pcap"
	if command -v tshark >/dev/null 2>&1; then PTOOLS="$PTOOLS tshark"
	else note "tshark not found: install the Debian package tshark; skipping it"; fi
	if command -v tcptrace >/dev/null 2>&1; then PTOOLS="$PTOOLS tcptrace"
	else note "tcptrace not found: install the Debian package tcptrace; skipping it"; fi
	_t=$(date +%s)
	"$TMP/pcapsynth" "$TMP/bench.pcap" $((PCAP_MB * 1048576)) 128 >"$TMP/synth" ||
	    die "pcapsynth failed"
	PCAP_SIZE=$(wc -c <"$TMP/bench.pcap")
	echo "pcapfile $((PCAP_MB * 1048576)) $(sed 's/.*frames=//' "$TMP/synth") $PCAP_SIZE $(( $(date +%s) - _t ))" >>"$RAW"
	note "pcap: $PCAP_MB MiB of payload, $(cat "$TMP/synth"), $PCAP_SIZE bytes; $PCAP_REPS rounds of:$PTOOLS"
	rep=1
	while [ $rep -le "$PCAP_REPS" ]; do
		for t in $PTOOLS; do
			line=$(pcap_time "$t" "$TMP/bench.pcap") || die "$t failed on the capture"
			echo "pcap $t $rep $line" >>"$RAW"
			note "pcap $t round $rep: $line"
		done
		rep=$((rep + 1))
	done
fi

[ -z "${BENCH_RAW:-}" ] || cp "$RAW" "$BENCH_RAW"
mkdir -p "$(dirname "$JSON")"
if [ "${BENCH_TESTBED:-1}" != 0 ] && [ "$PCAP" != only ]; then
	if [ "$(id -u)" -ne 0 ]; then
		note "testbed rows: not root, skipped"
	else
		note "testbed rows (load $(cut -d' ' -f1-3 /proc/loadavg)):"
		sh tools/bench-testbed.sh -r 1 -t 4 "${BENCH_TESTBED_RATE:-1G}" none fwd ring copy >&2 ||
			die "the testbed rows broke"
		make -s tests/framegen >&2 &&
			sh tools/bench-testbed.sh -r 1 -t 4 -f "${BENCH_TESTBED_FPS:-83000}" \
			    "${BENCH_TESTBED_RATE:-1G}" none fwd ring >&2 ||
			die "the testbed flood rows broke"
	fi
fi
awk -v place="$PLACE; CPUs ${BUSY:-?} busy before the runs" -v ceil="$LOSS" \
    -v json="$JSON" -v steps="$STEPS" -v udpmb="$UDP_MB" -v uwin="${UWIN:-0}" \
    -v took=$(( $(date +%s) - T_START )) -f "$REPORT" "$RAW"
note "JSON in $JSON"
