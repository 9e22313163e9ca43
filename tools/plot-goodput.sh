#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# plot-goodput.sh: draw expected (eta*C) and measured goodput across message
# sizes, with gnuplot and tools/goodput.gp, as PNG or SVG (by OUT's name).
#
#   tools/plot-goodput.sh [-C MBIT] [-b ci|minmax] [-s SUBTITLE] DATAFILE OUT.png|OUT.svg
#
# DATAFILE has one size and protocol a line, whitespace-separated ('#'
# starts a comment):
#   proto length expected_mbit measured_mbit [min max ci_low ci_high n]
#   udp   1472   9.5709        9.5371        9.5302 9.5420 9.5211 9.5531 3
#   tcp   1448   9.4148        9.4030
# expected_mbit is the "expected" line of gput --predict; measured_mbit the
# receiver's Real-MBit/s, the mean of n runs (gput --repeat) with their min,
# max and confidence interval, or one run (4 columns, no bar). make demo
# writes such a file (demo-out/goodput.dat).
# -C is the link rate in MBit/s (default 10); -b the bars, the confidence
# interval (ci, the default) or the runs' range (minmax); -s the subtitle
# (a \n in it starts a second line; the default says what lines, dots and
# bars are).
set -eu

PROG=plot-goodput.sh
die() { echo "$PROG: $*" >&2; exit 1; }
usage() {
	echo "usage: $PROG [-C MBIT] [-b ci|minmax] [-s SUBTITLE] DATAFILE OUT.png|OUT.svg" >&2
	exit 2
}

link=10
bars=ci
subtitle=
while getopts C:b:s: opt; do
	case $opt in
	C) link=$OPTARG ;;
	b) bars=$OPTARG ;;
	s) subtitle=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ "$#" -eq 2 ] || usage
data=$1
out=$2

command -v gnuplot >/dev/null 2>&1 ||
	die "gnuplot not found: install the Debian package gnuplot-nox"
[ -r "$data" ] || die "cannot read $data"
case $link in
'' | . | *[!0-9.]* | *.*.*) die "bad -C '$link': a rate in MBit/s such as 10 or 9.5" ;;
esac
case $bars in ci | minmax) ;; *) die "bad -b '$bars': ci or minmax" ;; esac
if [ -z "$subtitle" ]; then
	case $bars in
	ci) _b="their 95% confidence interval" ;;
	*) _b="from the slowest run to the fastest" ;;
	esac
	subtitle="lines: expected goodput η·C; dots: measured by the receiver, the mean of the runs; bars: $_b"
fi
case $out in
*.png) term="pngcairo size 1000,900 font 'sans,11' noenhanced" ;;
*.svg) term="svg size 1000,900 font 'sans,11' noenhanced dynamic" ;;
*) die "$out: the figure's name ends in .png or .svg" ;;
esac
# The names and the subtitle reach gnuplot only as single-quoted strings,
# in which it substitutes nothing (no `command`, no @macro): control
# characters dropped, ' doubled; the subtitle's \n (a backslash and n)
# joins its lines with gnuplot's newline.
gp_str() {
	printf "'%s'" "$(printf '%s' "$1" | tr -d '\000-\037\177' | sed "s/'/''/g")"
}
case $data$out in
*[[:cntrl:]]*) die "control characters are not allowed in file names" ;;
esac
sub_expr=
rest=$subtitle
while :; do
	line=${rest%%\\n*}
	sub_expr=$sub_expr${sub_expr:+.\"\\n\".}$(gp_str "$line")
	[ "$line" != "$rest" ] || break
	rest=${rest#*\\n}
done
awk '!/^[ \t]*(#|$)/ { n++; if (NF != 4 && NF != 9) bad = NR }
     END { if (bad) { print "line " bad ": 4 or 9 columns"; exit 1 } exit n == 0 }' "$data" >&2 ||
	die "$data: no data lines, or a line of neither 4 nor 9 columns"

here=$(dirname "$0")
err=$(mktemp "${TMPDIR:-/tmp}/plot-goodput.XXXXXX")
trap 'rm -f "$err"' EXIT
# The labels are UTF-8 (eta, the middle dot): a UTF-8 locale, whatever the
# caller's, or gnuplot warns that it cannot convert them.
LC_ALL=C.UTF-8 gnuplot -e "datafile=$(gp_str "$data"); outfile=$(gp_str "$out"); link=$link; bars='$bars'; term=\"$term\"; subtitle=$sub_expr" \
	"$here/goodput.gp" 2>"$err" || { cat "$err" >&2; die "gnuplot failed"; }
# gnuplot warns and exits 0 (a point undefined, a panel blank): any word
# from it is a failure here
[ ! -s "$err" ] || { cat "$err" >&2; die "gnuplot complained: $out may be incomplete"; }
echo "$PROG: wrote $out"
