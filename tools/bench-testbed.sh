#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# bench-testbed.sh: the testbed's delay line at a rate (make bench runs it
# with BENCH_TESTBED=1; tools/gput-testbed calibrate runs one round).
#
#   sh tools/bench-testbed.sh [-r ROUNDS] [-t SECONDS] [-q] RATE VARIANT...
#
# VARIANT: none (up RATE: the same path without a delay line, the ceiling),
# ring or copy (up RATE --delay 0.5 with that gput-delay path), timer (the
# ring path on timer wake-ups alone, GPUT_DELAY_SPIN=0). Each variant
# gets its own testbed (prefix PREFIX-<variant>, from GPUT_TESTBED_PREFIX,
# default gbt$$), all up at once; every round runs one cubic flow a>b of
# SECONDS through each in turn (interleaved), with gput -i in b. Per run:
# the receiver's Mbit/s (gput's own report), frames per second each way at
# once (b's and a's interface receive counters over the run), and for a
# delay line its p99 error each way and its late frames (released later
# than due by more than its budget, 100 us) and drops, from its own
# counters, and the CPU time both delay lines used per frame (us, both
# directions' frames; /proc's ticks). Then per variant the medians and, for ring and copy, the
# ratios to none measured in the same rounds. -q: only the
# "calibrate RATE FPS_AB FPS_BA P99_AB P99_BA LATE DROPS" line of the
# first delay variant's medians (for calibrate). Exit 1 when a run broke.
# No pass or fail on speed.
set -eu
ROUNDS=5 SECS=4 QUIET=no
while getopts r:t:q o; do
	case $o in
	r) ROUNDS=$OPTARG ;; t) SECS=$OPTARG ;; q) QUIET=yes ;;
	*) echo "usage: bench-testbed.sh [-r ROUNDS] [-t SECONDS] [-q] RATE VARIANT..." >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 2 ] || { echo "usage: bench-testbed.sh [-r ROUNDS] [-t SECONDS] [-q] RATE VARIANT..." >&2; exit 2; }
RATE=$1
shift
VARIANTS=$*
HERE=$(cd "$(dirname "$0")" && pwd)
TB=$HERE/gput-testbed
GPUT=${GPUT:-$HERE/../gput}
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

for v in $VARIANTS; do
	case $v in
	none) set -- ;; ring | copy | timer) set -- --delay 0.5 ;;
	*) echo "bench-testbed: variant none, ring, timer or copy, not '$v'" >&2; exit 2 ;;
	esac
	_path=$v _spin=
	[ "$v" != timer ] || _path=ring _spin=0
	echo "$_path $_spin" >"$TMP/$v.path"
	GPUT_DELAY_SPIN=$_spin GPUT_DELAY_PATH=$_path GPUT_TESTBED_PREFIX=$BASE-$v "$TB" up "$RATE" "$@" >/dev/null 2>"$TMP/err" ||
		{ cat "$TMP/err" >&2; exit 1; }
	GPUT_TESTBED_PREFIX=$BASE-$v "$TB" exec b "$GPUT" -i </dev/null >/dev/null 2>&1 &
done
say "bench-testbed: $RATE, one cubic flow a>b of ${SECS} s, $ROUNDS rounds of: $VARIANTS; load $(cut -d' ' -f1-3 /proc/loadavg)"
r=1
while [ "$r" -le "$ROUNDS" ]; do
	for v in $VARIANTS; do
		P=$BASE-$v
		export GPUT_TESTBED_PREFIX="$P"
		# fresh delay lines: their counters and histograms are this run's
		if [ "$v" != none ]; then
			read -r _path _spin <"$TMP/$v.path" || true
			for _d in ab ba; do
				GPUT_DELAY_PATH=$_path GPUT_DELAY_SPIN=${_spin:-} "$TB" impair "$_d" delay 0.5 >/dev/null ||
					exit 1
			done
		fi
		c0=$(cpu "$P") b0=$(rx "$P-b" veth-b) a0=$(rx "$P-a" veth-a) t0=$(date +%s%N)
		"$TB" exec a "$GPUT" -T --time "$SECS" --cc cubic 198.18.0.2 >"$TMP/out" 2>&1 ||
			{ cat "$TMP/out" >&2; exit 1; }
		t1=$(date +%s%N) b1=$(rx "$P-b" veth-b) a1=$(rx "$P-a" veth-a) c1=$(cpu "$P")
		mb=$(awk '$1 == "1" { print $5 }' "$TMP/out")
		[ -n "$mb" ] || { cat "$TMP/out" >&2; exit 1; }
		"$TB" counters >"$TMP/c" 2>/dev/null || true
		awk -v v="$v" -v r="$r" -v mb="$mb" -v dt=$((t1 - t0)) -v fab=$((b1 - b0)) -v fba=$((a1 - a0)) \
		    -v cpu=$((c1 - c0)) -v hz="$(getconf CLK_TCK)" '
		    $2 == "delay-err-p99-us" { p[$1] = $3 } $2 == "delay-late" { late += $3 }
		    $2 == "delay-drop" { drop += $3 }
		    END { printf "%s %d %s %.0f %.0f %s %s %d %d %s\n", v, r, mb, fab / dt * 1e9, fba / dt * 1e9,
			(("a>b") in p) ? p["a>b"] : "-", (("b>a") in p) ? p["b>a"] : "-", late, drop,
			v == "none" ? "-" : sprintf("%.2f", cpu / hz * 1e6 / (fab + fba + 1)) }' \
		    "$TMP/c" >>"$TMP/runs"
	done
	r=$((r + 1))
done
unset GPUT_TESTBED_PREFIX
[ "$QUIET" = yes ] && {
	awk -v rate="$RATE" -f "$HERE/bench-testbed.awk" -v quiet=1 "$TMP/runs"
	exit 0
}
echo "runs (variant round Mbit/s fps_ab fps_ba p99_ab_us p99_ba_us late drops cpu_us_per_frame):"
sed 's/^/  /' "$TMP/runs"
awk -v rate="$RATE" -f "$HERE/bench-testbed.awk" "$TMP/runs"
