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

# calib_trial BPS DIR: one cubic flow a>b of 3 s (after one of 1 s) across a
# testbed of its own (PREFIX-cal: BPS, delay 0.5 ms each way, taken down
# after); the
# figures as "key value" lines in DIR/cal. Kept up: the flow reached 0.9 of
# eta*C, and each delay line dropped nothing and left at most 1% of its
# frames later than its 100 us budget (its p99 error within it)
calib_trial() {
	# (up's warning against the last calibration is not this one's business)
	GPUT_TESTBED_PREFIX=$_cp "$0" up "$1" --delay 0.5 >/dev/null 2>"$2/up.err" ||
		{ cat "$2/up.err" >&2; exit 1; }
	GPUT_TESTBED_PREFIX=$_cp "$0" exec b "$_g" -i </dev/null >/dev/null 2>&1 &
	_i=0
	until ip netns exec "$_cp-b" ss -Hltn 'sport = :5037' | grep -q .; do
		[ "$_i" -lt 100 ] || die "calibrate: gput -i did not listen in $_cp-b"
		sleep 0.05
		_i=$((_i + 1))
	done
	# a flow of 1 s first, then fresh delay lines: the measured flow finds
	# the host past the testbed's start (and the previous trial's namespaces'
	# teardown, which the kernel finishes in the background), and the
	# lines' counters are its own
	GPUT_TESTBED_PREFIX=$_cp "$0" exec a "$_g" -T --time 1 --cc cubic "$IP4_B" >/dev/null 2>&1 ||
		die "calibrate: the warm-up flow failed"
	for _d in ab ba; do
		GPUT_TESTBED_PREFIX=$_cp "$0" impair "$_d" delay 0.5 >/dev/null ||
			die "calibrate: could not restart the delay line $_d"
	done
	GPUT_TESTBED_PREFIX=$_cp "$0" exec a "$_g" -T --time 3 --cc cubic "$IP4_B" >"$2/out" 2>&1 ||
		die "calibrate: the flow failed: $(tail -1 "$2/out")"
	GPUT_TESTBED_PREFIX=$_cp "$0" counters >"$2/c" ||
		die "calibrate: the delay lines did not answer"
	GPUT_TESTBED_PREFIX=$_cp "$0" down >/dev/null 2>&1
	_mb=$(awk '$1 == "1" { print $5 }' "$2/out")
	[ -n "$_mb" ] || die "calibrate: no receiver figure from gput"
	awk -v mb="$_mb" -v r="$1" -v eta="$CALIB_ETA" '
	    { k = $1 == "a>b" ? "ab" : $1 == "b>a" ? "ba" : "" }
	    k != "" && $2 == "delay-fwd" { f[k] = $3 } k != "" && $2 == "delay-late" { l[k] = $3 }
	    k != "" && $2 == "delay-drop" { d[k] = $3 } k != "" && $2 == "delay-err-p99-us" { p[k] = $3 }
	    END {
		ratio = mb * 1e6 / (eta * r)
		timed = 1
		for (k in f) if (l[k] * 100 > f[k] || d[k] > 0) timed = 0
		printf "tried %d\ngoodput-mbit %s\nratio %.3f\ntimed %d\n", r, mb, ratio, timed
		printf "frames %d\nlate %d\nframes-ab %d\nlate-ab %d\nframes-ba %d\nlate-ba %d\n",
		    f["ab"] + f["ba"], l["ab"] + l["ba"], f["ab"], l["ab"], f["ba"], l["ba"]
		printf "drops %d\np99-ab-us %s\np99-ba-us %s\n", d["ab"] + d["ba"], p["ab"], p["ba"]
	    }' "$2/c" >"$2/cal"
}

# cmd_calibrate [RATE]: what this host emulates through a delay line. A
# trial at RATE (calib_trial); when its delay lines missed their budget, the
# next at a tenth of the rate, down to 1 Mbit/s. The capacity: the rate of
# the first trial that kept up; the rate whose eta*C its goodput is, when its
# delay lines kept time but the flow fell short of 0.9 of eta*C; 0 when none
# kept time. Stored with the deciding trial's figures.
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
	_try=$_cbps
	while :; do
		calib_trial "$_try" "$_ct"
		awk '{ v[$1] = $2 } END {
			printf "calibrate: %g Mbit/s: goodput %s Mbit/s (%s of eta*C), late %d of %d frames a>b, %d of %d b>a, p99 error %s/%s us, %d dropped\n",
			    v["tried"] / 1e6, v["goodput-mbit"], v["ratio"], v["late-ab"], v["frames-ab"],
			    v["late-ba"], v["frames-ba"], v["p99-ab-us"], v["p99-ba-us"], v["drops"] }' "$_ct/cal"
		if [ "$(awk '$1 == "timed" { print $2 }' "$_ct/cal")" = 1 ] || [ "$_try" -lt 10000000 ]; then
			break
		fi
		_try=$((_try / 10))
	done
	awk -v r="$_cbps" -v eta="$CALIB_ETA" -v now="$(date -u +%Y-%m-%dT%H:%M:%SZ)" \
	    -v load="$(cut -d' ' -f1 /proc/loadavg)" '{ v[$1] = $2; print }
	    END {
		cap = !v["timed"] ? 0 : v["ratio"] >= 0.9 ? v["tried"] : int(v["goodput-mbit"] * 1e6 / eta)
		printf "rate %d\ncapacity %d\nload %s\ndate %s\n", r, cap, load, now
	    }' "$_ct/cal" >"$_ct/final"
	_tmpf=$(mktemp "$CALIB_DIR/calibration.XXXXXX")
	cat "$_ct/final" >"$_tmpf"
	mv -f "$_tmpf" "$CALIB_FILE"
	awk '{ v[$1] = $2 } END {
		if (v["capacity"] > 0)
			printf "calibrate: this host emulates up to %g Mbit/s with its delay lines in time (load %s; stored: up warns above it)\n", v["capacity"] / 1e6, v["load"]
		else
			printf "calibrate: the delay lines left more than 1%% of their frames over their 100 us budget (or dropped frames) down to %g Mbit/s: this host emulated no rate within it (load %s; stored: up warns at every rate with a delay line)\n", v["tried"] / 1e6, v["load"] }' "$CALIB_FILE"
}
