#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# bench-testbed.sh: the testbed's delay line at a rate (make bench runs it
# with BENCH_TESTBED=1; tools/gput-testbed calibrate runs one round).
#
#   sh tools/bench-testbed.sh [-r ROUNDS] [-t SECONDS] [-f FPS] [-q] RATE VARIANT...
#
# VARIANT: none (up RATE: the same path without a delay line, the ceiling),
# fwd (up RATE --delay 0.5 with both directions' delay set to 0: the wire
# namespace forwards in the kernel, nftables fwd: what the extra hop costs
# without a delay line), ring or copy (up RATE --delay 0.5 with that
# gput-delay path), timer (the ring path on timer wake-ups alone,
# GPUT_DELAY_SPIN=0). Each variant gets its own testbed (prefix
# PREFIX-<variant>, from GPUT_TESTBED_PREFIX, default gbt$$), all up at
# once; every round runs through each in turn (interleaved) one cubic flow
# a>b of SECONDS, with gput -i in b, or with -f a flood: tests/framegen in a
# and in b at once, FPS frames/s of 1514 bytes each way for SECONDS (they
# bypass the hosts' qdiscs: the delay line, not tbf, is what they load).
# Per run: the receiver's Mbit/s (gput's own report; with -f the share of
# the frames sent that arrived, both ways), frames per second each way at
# once (b's and a's interface receive counters over the run), and for a
# delay line its p99 error each way and its late frames (released later
# than due by more than its budget, 100 us) and drops, from its own
# counters, and the CPU time both delay lines used per frame (us, both
# directions' frames; /proc's ticks); then where the host's time went, in
# % of one CPU over the run: the sender's and the receiver's gput (their
# own CPU figures; - with -f), the delay lines, and from /proc/stat the
# host's softirq and its busy time all told (both CPUs, other work
# included). Then per variant the medians and, for ring, timer, copy and
# fwd, the ratios to none measured in the same rounds. -q: only the
# "calibrate RATE FPS_AB FPS_BA P99_AB P99_BA LATE DROPS" line of the
# first delay variant's medians (for calibrate). Exit 1 when a run broke.
# No pass or fail on speed.
set -eu
ROUNDS=5 SECS=4 QUIET=no FLOOD=
USAGE="usage: bench-testbed.sh [-r ROUNDS] [-t SECONDS] [-f FPS] [-q] RATE VARIANT..."
while getopts r:t:f:q o; do
	case $o in
	r) ROUNDS=$OPTARG ;; t) SECS=$OPTARG ;; f) FLOOD=$OPTARG ;; q) QUIET=yes ;;
	*) echo "$USAGE" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 2 ] || { echo "$USAGE" >&2; exit 2; }
case $FLOOD in
*[!0-9]*) echo "bench-testbed: -f takes frames per second, not '$FLOOD'" >&2; exit 2 ;;
esac
RATE=$1
shift
VARIANTS=$*
HERE=$(cd "$(dirname "$0")" && pwd)
TB=$HERE/gput-testbed
GPUT=${GPUT:-$HERE/../gput}
FRAMEGEN=$HERE/../tests/framegen
[ -z "$FLOOD" ] || [ -x "$FRAMEGEN" ] || { echo "bench-testbed: -f needs tests/framegen (make tests/framegen)" >&2; exit 2; }
BASE=${GPUT_TESTBED_PREFIX:-gbt$$}
TMP=$(mktemp -d)
cleanup() {
	for v in $VARIANTS; do GPUT_TESTBED_PREFIX=$BASE-$v "$TB" down >/dev/null 2>&1 || true; done
	rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
say() { [ "$QUIET" = yes ] || echo "$*"; }

# rx NS DEV: the frames DEV in NS has received
# cpu PREFIX: the CPU ticks its delay lines have used (0 without)
cpu() {
	for _d in ab ba; do
		_p=$(cat "/run/gput-testbed/$1/$_d.pid" 2>/dev/null) || continue
		awk '{ print $14 + $15 }' "/proc/$_p/stat" 2>/dev/null || true
	done | awk '{ s += $1 } END { print s + 0 }'
}
rx() { ip netns exec "$1" cat "/sys/class/net/$2/statistics/rx_packets"; }
# host: the host's softirq and busy ticks so far (/proc/stat, all CPUs)
host() { awk '$1 == "cpu" { print $8, $2 + $3 + $4 + $7 + $8 + $9; exit }' /proc/stat; }

# flood: framegen in a and in b at once, FLOOD frames/s each for SECS;
# then the frames still in flight drain (the receive counters stand still
# for 100 ms; at most 5 s). Writes "sent_ab sent_ba" to $TMP/out.
flood() {
	_n=$((FLOOD * SECS))
	"$TB" exec a "$FRAMEGEN" veth-a "$_n" 1514 "$FLOOD" >"$TMP/ga" 2>&1 &
	_ga=$!
	"$TB" exec b "$FRAMEGEN" veth-b "$_n" 1514 "$FLOOD" >"$TMP/gb" 2>&1 &
	_gb=$!
	wait "$_ga" || { cat "$TMP/ga" >&2; return 1; }
	wait "$_gb" || { cat "$TMP/gb" >&2; return 1; }
	_i=0 _last=
	while [ "$_i" -lt 50 ]; do
		_now="$(rx "$P-b" veth-b) $(rx "$P-a" veth-a)"
		[ "$_now" != "$_last" ] || break
		_last=$_now
		sleep 0.1
		_i=$((_i + 1))
	done
	echo "$(awk '{ print $2 }' "$TMP/ga") $(awk '{ print $2 }' "$TMP/gb")" >"$TMP/out"
}

for v in $VARIANTS; do
	case $v in
	none) set -- ;; ring | copy | timer | fwd) set -- --delay 0.5 ;;
	*) echo "bench-testbed: variant none, fwd, ring, timer or copy, not '$v'" >&2; exit 2 ;;
	esac
	_path=$v _spin=
	[ "$v" != timer ] || _path=ring _spin=0
	[ "$v" != fwd ] || _path=ring
	echo "$_path $_spin" >"$TMP/$v.path"
	GPUT_DELAY_SPIN=$_spin GPUT_DELAY_PATH=$_path GPUT_TESTBED_PREFIX=$BASE-$v "$TB" up "$RATE" "$@" >/dev/null 2>"$TMP/err" ||
		{ cat "$TMP/err" >&2; exit 1; }
	if [ "$v" = fwd ]; then
		for _d in ab ba; do
			GPUT_TESTBED_PREFIX=$BASE-$v "$TB" impair "$_d" delay 0 >/dev/null || exit 1
		done
	fi
	[ -n "$FLOOD" ] || GPUT_TESTBED_PREFIX=$BASE-$v "$TB" exec b "$GPUT" -i </dev/null >/dev/null 2>&1 &
done
if [ -n "$FLOOD" ]; then WHAT="a flood of $FLOOD frames/s each way at once for ${SECS} s"
else WHAT="one cubic flow a>b of ${SECS} s"; fi
say "bench-testbed: $RATE, $WHAT, $ROUNDS rounds of: $VARIANTS; load $(cut -d' ' -f1-3 /proc/loadavg)"
r=1
while [ "$r" -le "$ROUNDS" ]; do
	for v in $VARIANTS; do
		P=$BASE-$v
		export GPUT_TESTBED_PREFIX="$P"
		# fresh delay lines: their counters and histograms are this run's
		if [ "$v" != none ] && [ "$v" != fwd ]; then
			read -r _path _spin <"$TMP/$v.path" || true
			for _d in ab ba; do
				GPUT_DELAY_PATH=$_path GPUT_DELAY_SPIN=${_spin:-} "$TB" impair "$_d" delay 0.5 >/dev/null ||
					exit 1
			done
		fi
		c0=$(cpu "$P") b0=$(rx "$P-b" veth-b) a0=$(rx "$P-a" veth-a) h0=$(host) t0=$(date +%s%N)
		if [ -n "$FLOOD" ]; then
			flood || exit 1
		else
			"$TB" exec a "$GPUT" -T --time "$SECS" --cc cubic 198.18.0.2 >"$TMP/out" 2>&1 ||
				{ cat "$TMP/out" >&2; exit 1; }
		fi
		t1=$(date +%s%N) h1=$(host) b1=$(rx "$P-b" veth-b) a1=$(rx "$P-a" veth-a) c1=$(cpu "$P")
		if [ -n "$FLOOD" ]; then
			read -r sab sba <"$TMP/out"
			mb=$(awk -v s="$((sab + sba))" -v g="$((b1 - b0 + a1 - a0))" 'BEGIN { printf "%.6f", g / s }')
			ucpu="- -"
		else
			mb=$(awk '$1 == "1" { print $5 }' "$TMP/out")
			[ -n "$mb" ] || { cat "$TMP/out" >&2; exit 1; }
			ucpu=$(awk '$1 == "l" { s = $4 } $1 == "1" { r = $4 } END { print s, r }' "$TMP/out")
		fi
		"$TB" counters >"$TMP/c" 2>/dev/null || true
		awk -v v="$v" -v r="$r" -v mb="$mb" -v dt=$((t1 - t0)) -v fab=$((b1 - b0)) -v fba=$((a1 - a0)) \
		    -v cpu=$((c1 - c0)) -v hz="$(getconf CLK_TCK)" -v ucpu="$ucpu" -v h="$h0 $h1" '
		    $2 == "delay-err-p99-us" { p[$1] = $3 } $2 == "delay-late" { late += $3 }
		    $2 == "delay-drop" { drop += $3 }
		    function pc(s) { return s == "-" ? "-" : sprintf("%.1f", s * 1e11 / dt) }
		    END { split(ucpu, u, " "); split(h, k, " ")
			printf "%s %d %s %.0f %.0f %s %s %d %d %s %s %s %s %s %s\n", v, r, mb, fab / dt * 1e9, fba / dt * 1e9,
			(("a>b") in p) ? p["a>b"] : "-", (("b>a") in p) ? p["b>a"] : "-", late, drop,
			(v == "none" || v == "fwd") ? "-" : sprintf("%.2f", cpu / hz * 1e6 / (fab + fba + 1)),
			pc(u[1]), pc(u[2]), (v == "none" || v == "fwd") ? "-" : pc(cpu / hz),
			pc((k[3] - k[1]) / hz), pc((k[4] - k[2]) / hz) }' \
		    "$TMP/c" >>"$TMP/runs"
	done
	r=$((r + 1))
done
unset GPUT_TESTBED_PREFIX
[ "$QUIET" = yes ] && {
	awk -v rate="$RATE" -f "$HERE/bench-testbed.awk" -v quiet=1 "$TMP/runs"
	exit 0
}
echo "runs (variant round $([ -n "$FLOOD" ] && echo delivered || echo Mbit/s) fps_ab fps_ba p99_ab_us p99_ba_us late drops cpu_us_per_frame, % of a CPU: sender receiver delay-lines host-softirq host-busy):"
sed 's/^/  /' "$TMP/runs"
awk -v rate="$RATE" -v flood="$FLOOD" -f "$HERE/bench-testbed.awk" "$TMP/runs"
