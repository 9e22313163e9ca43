#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# gput-testbed-calib.sh: calibrate, what this host can emulate through a
# delay line, and up's warning above it; sourced by tools/gput-testbed.
#
# The calibration is one file, CALIB_DIR/calibration, written by root into
# a directory root owns and no one else may write (GPUT_TESTBED_STATE, or
# /run/gput-testbed): a file someone else could have placed or replaced is
# never read, and writing replaces the name (rename), never following it.

CALIB_DIR=${GPUT_TESTBED_STATE:-/run/gput-testbed}
CALIB_FILE=$CALIB_DIR/calibration
# TCP with timestamps over MTU 1500: 1448 payload bytes per 1538 on the wire
CALIB_ETA=0.941482

# calib_trusted DIR: true when DIR is a directory (not a symlink) owned by
# this user and writable by no one else
calib_trusted() {
	[ -d "$1" ] && [ ! -L "$1" ] || return 1
	_st=$(stat -c '%u %a' "$1")
	[ "${_st% *}" = "$(id -u)" ] && [ $(( 0${_st#* } & 022 )) -eq 0 ]
}

# calib_read: the stored calibration's "key value" lines, or nothing
calib_read() {
	calib_trusted "$CALIB_DIR" || return 0
	[ -f "$CALIB_FILE" ] && [ ! -L "$CALIB_FILE" ] || return 0
	[ "$(stat -c %u "$CALIB_FILE")" = "$(id -u)" ] || return 0
	cat "$CALIB_FILE"
}

# calib_warn RATE_AB RATE_BA: a warning on stderr when either rate (bit/s)
# exceeds the capacity of the last calibration
calib_warn() {
	_cap=$(calib_read | awk '$1 == "capacity" { print $2; exit }')
	[ -n "$_cap" ] || return 0
	_over=$(awk -v a="$1" -v b="$2" -v c="$_cap" 'BEGIN { m = a > b ? a : b; if (m > c) printf "%g", m / 1e6 }')
	if [ -n "$_over" ] && [ "$_cap" = 0 ]; then
		echo "$PROG: warning: $_over Mbit/s asked; at its last calibration ($(calib_read | awk '$1 == "date" { print $2 }'), $PROG calibrate) this host's delay lines missed their budget: the results may measure the host, not the link" >&2
		return 0
	fi
	[ -z "$_over" ] || echo "$PROG: warning: $_over Mbit/s asked, above the $(awk -v c="$_cap" 'BEGIN { printf "%g", c / 1e6 }') Mbit/s this host emulated through a delay line at its last calibration ($(calib_read | awk '$1 == "date" { print $2 }'), $PROG calibrate): the results may measure the host, not the link" >&2
}

# calib_gput: the gput program, next to this script's directory (the
# source tree) or in PATH
calib_gput() {
	_self=$(cd "$(dirname "$0")" && pwd)
	if [ -x "$_self/../gput" ]; then echo "$_self/../gput"
	else command -v gput 2>/dev/null || die "gput not found (run make, or make install)"; fi
}

# cmd_calibrate [RATE]: one cubic flow a>b of 3 s across a testbed of its
# own (PREFIX-cal: RATE, delay 0.5 ms each way), then the capacity: RATE when
# the flow reached 0.9 of eta*C with at most 0.01% of the frames late; with
# more late, 0 (no rate kept the delay's accuracy); else the rate whose eta*C
# the flow's goodput is
cmd_calibrate() {
	[ "$#" -le 1 ] || die "usage: $PROG calibrate [RATE]"
	need_root
	_crate=${1:-1G}
	_cbps=$(parse_rate "$_crate") || exit 1
	mkdir -p "$CALIB_DIR"
	calib_trusted "$CALIB_DIR" ||
		die "calibrate: $CALIB_DIR is not a directory of $(id -un)'s that only it may write: nothing written"
	_g=$(calib_gput)
	_cp=$PREFIX-cal
	_ct=$(mktemp -d)
	trap 'GPUT_TESTBED_PREFIX=$_cp "$0" down >/dev/null 2>&1; rm -rf "$_ct"' EXIT
	GPUT_TESTBED_PREFIX=$_cp "$0" up "$_crate" --delay 0.5 >/dev/null || exit 1
	GPUT_TESTBED_PREFIX=$_cp "$0" exec b "$_g" -i </dev/null >/dev/null 2>&1 &
	_i=0
	until ip netns exec "$_cp-b" ss -Hltn 'sport = :5037' | grep -q .; do
		[ "$_i" -lt 100 ] || die "calibrate: gput -i did not listen in $_cp-b"
		sleep 0.05
		_i=$((_i + 1))
	done
	GPUT_TESTBED_PREFIX=$_cp "$0" counters >/dev/null
	GPUT_TESTBED_PREFIX=$_cp "$0" exec a "$_g" -T --time 3 --cc cubic "$IP4_B" >"$_ct/out" 2>&1 ||
		die "calibrate: the flow failed: $(tail -1 "$_ct/out")"
	GPUT_TESTBED_PREFIX=$_cp "$0" counters >"$_ct/c" ||
		die "calibrate: the delay lines did not answer"
	_mb=$(awk '$1 == "1" { print $5 }' "$_ct/out")
	[ -n "$_mb" ] || die "calibrate: no receiver figure from gput"
	awk -v mb="$_mb" -v r="$_cbps" -v eta="$CALIB_ETA" -v now="$(date -u +%Y-%m-%dT%H:%M:%SZ)" \
	    -v load="$(cut -d' ' -f1 /proc/loadavg)" '
	    $2 == "delay-fwd" { f += $3 } $2 == "delay-late" { l += $3 }
	    $2 == "delay-err-p99-us" { p[$1] = $3 }
	    END {
		ratio = mb * 1e6 / (eta * r)
		# late frames past the budget: the delay line did not keep its
		# accuracy at RATE, and no lower rate was tried: none verified (0)
		timed = l * 10000 <= f
		cap = !timed ? 0 : ratio >= 0.9 ? r : int(mb * 1e6 / eta)
		printf "rate %d\ncapacity %d\ngoodput-mbit %s\nratio %.3f\nframes %d\nlate %d\n", r,
		    cap, mb, ratio, f, l
		printf "p99-ab-us %s\np99-ba-us %s\nload %s\ndate %s\n", p["a>b"], p["b>a"], load, now
	    }' "$_ct/c" >"$_ct/cal"
	_tmpf=$(mktemp "$CALIB_DIR/calibration.XXXXXX")
	cat "$_ct/cal" >"$_tmpf"
	mv -f "$_tmpf" "$CALIB_FILE"
	awk '{ v[$1] = $2 } END {
		printf "calibrate: %g Mbit/s with a 0.5 ms delay line each way: goodput %s Mbit/s (%s of eta*C), %d of %d frames late, p99 error %s/%s us; load %s\n",
		    v["rate"] / 1e6, v["goodput-mbit"], v["ratio"], v["late"], v["frames"], v["p99-ab-us"], v["p99-ba-us"], v["load"]
		if (v["capacity"] > 0)
			printf "calibrate: this host emulates up to %g Mbit/s (stored; up warns above it)\n", v["capacity"] / 1e6
		else
			printf "calibrate: the delay lines missed their 100 us budget for more than 0.01%% of the frames: this host emulated no rate within it (stored; up warns at every rate with a delay line)\n" }' "$CALIB_FILE"
}
