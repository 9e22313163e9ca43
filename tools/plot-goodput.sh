#!/bin/sh
# plot-goodput.sh: draw expected (eta*C) and measured goodput across message
# sizes as a PNG, with gnuplot and tools/goodput.gp.
#
#   tools/plot-goodput.sh [-C MBIT] [-s SUBTITLE] DATAFILE OUT.png
#
# DATAFILE has one run per line, whitespace-separated ('#' starts a comment):
#   proto length expected_mbit measured_mbit
#   udp   1472   9.5709        9.5371
#   tcp   1448   9.4148        9.4030
# expected_mbit is the "expected" line of gput --predict; measured_mbit the
# receiver's Real-MBit/s. make demo writes such a file (demo-out/goodput.dat).
# -C is the link rate in MBit/s (default 10); -s a subtitle.
set -eu

PROG=plot-goodput.sh
die() { echo "$PROG: $*" >&2; exit 1; }

link=10
subtitle="measured with gput on the emulated link of tools/gput-testbed"
while getopts C:s: opt; do
	case $opt in
	C) link=$OPTARG ;;
	s) subtitle=$OPTARG ;;
	*) echo "usage: $PROG [-C MBIT] [-s SUBTITLE] DATAFILE OUT.png" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ "$#" -eq 2 ] || { echo "usage: $PROG [-C MBIT] [-s SUBTITLE] DATAFILE OUT.png" >&2; exit 2; }
data=$1
out=$2

command -v gnuplot >/dev/null 2>&1 ||
	die "gnuplot not found: install the Debian package gnuplot-nox"
[ -r "$data" ] || die "cannot read $data"
case $link in
'' | . | *[!0-9.]* | *.*.*) die "bad -C '$link': a rate in MBit/s such as 10 or 9.5" ;;
esac
# The names and subtitle go into gnuplot string literals: keep them plain.
for s in "$data" "$out" "$subtitle"; do
	case $s in *\'* | *\\*) die "quotes and backslashes are not allowed in '$s'" ;; esac
done
awk '!/^[ \t]*(#|$)/ { n++ } END { exit n == 0 }' "$data" ||
	die "$data has no data lines"

here=$(dirname "$0")
# The labels are UTF-8 (eta, the middle dot): a UTF-8 locale, whatever the
# caller's, or gnuplot warns that it cannot convert them.
LC_ALL=C.UTF-8 gnuplot -e "datafile='$data'; outfile='$out'; link=$link; subtitle='$subtitle'" \
	"$here/goodput.gp"
echo "$PROG: wrote $out"
