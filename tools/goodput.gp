# SPDX-License-Identifier: BSD-2-Clause
# goodput.gp: expected (eta*C) and measured goodput against message size,
# and below it their ratio.
# Driven by tools/plot-goodput.sh, which sets:
#   datafile  whitespace columns, one size and protocol a line ('#' comments):
#               proto length expected_mbit measured_mbit [min max lo hi n]
#             measured is the mean of n runs, min and max their extremes, lo
#             and hi the confidence interval's ends (gput --repeat's); a
#             4-column line is one run (no bars)
#   outfile   the figure (terminal chosen by plot-goodput.sh)
#   term      the gnuplot terminal line
#   link      link rate in MBit/s (drawn as the ceiling C)
#   bars      "ci" (lo..hi) or "minmax" (min..max)
#   subtitle  what the figure shows, in words (may hold \n)
set encoding utf8
eval "set terminal " . term
set output outfile

udp(p) = (strcol(1) eq "udp") ? p : NaN
tcp(p) = (strcol(1) eq "tcp") ? p : NaN
# the bar's ends: a 4-column line (one run) has none, so both are the point
lo(c) = (valid(9) ? (bars eq "ci" ? column(7) : column(5)) : column(4))
hi(c) = (valid(9) ? (bars eq "ci" ? column(8) : column(6)) : column(4))

set multiplot title sprintf("Goodput on a %g Mbit/s Ethernet link: expected and measured\n%s", link, subtitle)
set logscale x 2
set xrange [48:6000]
set xtics ("64" 64, "128" 128, "256" 256, "512" 512, "1024" 1024, "1472" 1472, "2000" 2000, "4000" 4000)
set grid ytics xtics lc rgb "#dddddd"
set lmargin 12
set rmargin 4

# top: the goodputs, with the line rate as the ceiling
set origin 0, 0.36
set size 1, 0.54
set xlabel "message size -l (bytes, log scale)"
set ylabel "goodput (Mbit/s)"
set yrange [0:link * 1.08]
set key bottom right box opaque
set arrow 1 from graph 0, first link to graph 1, first link nohead dt 3 lc rgb "#888888"
set label 1 sprintf("C = %g Mbit/s (the line rate)", link) at graph 0.02, first link * 1.03 tc rgb "#555555"
# measured first, filled; expected after, a line with open markers, so
# neither hides the other
plot datafile using 2:(udp($4)):(udp(lo(0))):(udp(hi(0))) with yerrorbars pt 7 ps 1.1 lw 1.5 lc rgb "#d62728" title "UDP measured", \
     datafile using 2:(tcp($4)):(tcp(lo(0))):(tcp(hi(0))) with yerrorbars pt 5 ps 1.0 lw 1.5 lc rgb "#ff7f0e" title "TCP measured", \
     datafile using 2:(udp($3)) with linespoints lw 1.5 pt 6 ps 1.6 lc rgb "#1f77b4" title "UDP expected (η·C)", \
     datafile using 2:(tcp($3)) with linespoints lw 1.5 dt 2 pt 4 ps 1.6 lc rgb "#2ca02c" title "TCP expected (η·C)"

# bottom: measured / expected, where a few per mille show
unset arrow 1
unset label 1
set origin 0, 0
set size 1, 0.36
set ylabel "measured / expected"
set autoscale y
set key top right box opaque
set arrow 2 from graph 0, first 1 to graph 1, first 1 nohead dt 3 lc rgb "#888888"
plot datafile using ($2 * 0.97):(udp($4 / $3)):(udp(lo(0) / $3)):(udp(hi(0) / $3)) with yerrorbars pt 7 ps 1.0 lw 1.5 lc rgb "#d62728" title "UDP", \
     datafile using ($2 * 1.03):(tcp($4 / $3)):(tcp(lo(0) / $3)):(tcp(hi(0) / $3)) with yerrorbars pt 5 ps 0.9 lw 1.5 lc rgb "#ff7f0e" title "TCP"
unset multiplot
