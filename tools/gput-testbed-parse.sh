#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# gput-testbed-parse.sh: the values of tools/gput-testbed's
# arguments (rates, MTU, percentages, durations, queues), sourced by it (not
# run on its own). Each prints its value, or fails with a reason.

# parse_rate STRING: print the rate in bit/s (integer), or fail with a reason.
# Same rule as gput --link: k, M, G = 10^3, 10^6, 10^9; fractions allowed;
# a trailing "bit", "bps" or "b/s" is ignored.
parse_rate() {
	_r=$1
	case $_r in *bit|*bps|*b/s) _r=${_r%bit}; _r=${_r%bps}; _r=${_r%b/s} ;; esac
	_mul=1
	case $_r in
	*[kK]) _mul=1000; _r=${_r%?} ;;
	*[mM]) _mul=1000000; _r=${_r%?} ;;
	*[gG]) _mul=1000000000; _r=${_r%?} ;;
	esac
	case $_r in
	'' | . | *[!0-9.]* | *.*.*) die "bad RATE '$1': use e.g. 10M, 100k, 1G or plain bit/s" ;;
	esac
	awk -v r="$_r" -v m="$_mul" -v s="$1" -v p="$PROG" 'BEGIN {
		b = r * m
		if (b < 10000 || b > 10000000000) {
			printf "%s: RATE %s out of range (10k..10G)\n", p, s > "/dev/stderr"
			exit 1
		}
		printf "%.0f\n", b
	}' || exit 1
}

# parse_mtu STRING: print the MTU, or fail. 1280 is the IPv6 minimum (the link
# carries IPv6 too); 9000 is the usual jumbo-frame size.
parse_mtu() {
	case $1 in
	'' | *[!0-9]*) die "bad MTU '$1': use a number such as 1500, 1492 or 9000" ;;
	esac
	if [ "${#1}" -gt 5 ] || [ "$1" -lt 1280 ] || [ "$1" -gt 9000 ]; then
		die "MTU $1 out of range (1280..9000)"
	fi
	echo "$1"
}

# parse_pct STRING: print PCT x 100 as an integer 0..10000 (the numgen
# threshold out of 10000), or fail. At most two decimals, so nothing rounds.
parse_pct() {
	case $1 in
	'' | . | *[!0-9.]* | *.*.* | *.???*) die "bad PCT '$1': use a percentage such as 2, 0.5 or 12.25" ;;
	esac
	awk -v p="$1" -v n="$PROG" 'BEGIN {
		if (p > 100) { printf "%s: PCT %s out of range (0..100)\n", n, p > "/dev/stderr"; exit 1 }
		printf "%.0f\n", p * 100
	}' || exit 1
}

# parse_delay STRING: print the duration in ns (integer), or fail. A bare
# number is ms; us, ms and s are accepted; fractions allowed; 0..10 s.
parse_delay() {
	_d=$1
	_m=1000000
	case $_d in
	*us) _m=1000; _d=${_d%us} ;;
	*ms) _d=${_d%ms} ;;
	*s) _m=1000000000; _d=${_d%s} ;;
	esac
	case $_d in
	'' | . | *[!0-9.]* | *.*.*) die "bad delay '$1': use ms (20) or a unit: 500us, 20ms, 1.5ms" ;;
	esac
	awk -v d="$_d" -v m="$_m" -v s="$1" -v p="$PROG" 'BEGIN {
		n = d * m
		if (n > 10000000000) { printf "%s: delay %s out of range (0..10s)\n", p, s > "/dev/stderr"; exit 1 }
		printf "%.0f\n", n
	}' || exit 1
}

# parse_pair STRING PARSER: "X" or "X/Y" through PARSER; prints "X Y".
parse_pair() {
	case $1 in
	*/*/*) die "bad '$1': use X or A>B/B>A" ;;
	*/*) _v1=$($2 "${1%/*}") || exit 1; _v2=$($2 "${1#*/}") || exit 1; echo "$_v1 $_v2" ;;
	*) _v1=$($2 "$1") || exit 1; echo "$_v1 $_v1" ;;
	esac
}

# parse_queue STRING MTU: print the queue in bytes: N, NK, NM (2^10, 2^20)
# or Np (N frames of MTU + 14 bytes, what tbf counts of a full frame).
parse_queue() {
	_q=$1
	_m=1
	case $_q in
	*[kK]) _m=1024; _q=${_q%?} ;;
	*M) _m=1048576; _q=${_q%?} ;;
	*p) _m=$(( $2 + 14 )); _q=${_q%p} ;;
	esac
	case $_q in
	'' | *[!0-9]*) die "bad queue '$1': use bytes (100000, 64K) or packets (100p)" ;;
	esac
	[ "${#_q}" -le 9 ] || die "queue $1 out of range (one frame .. 1000000000 bytes)"
	_b=$(( _q * _m ))
	if [ "$_b" -lt $(( $2 + 14 )) ] || [ "$_b" -gt 1000000000 ]; then
		die "queue $1 out of range (one frame, $(( $2 + 14 )) bytes, .. 1000000000 bytes)"
	fi
	echo "$_b"
}
