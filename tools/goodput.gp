# goodput.gp: expected (eta*C) and measured goodput against message size.
# Driven by tools/plot-goodput.sh, which sets:
#   datafile  whitespace columns: proto length expected_mbit measured_mbit
#             ('#' comments; proto is "udp" or "tcp")
#   outfile   PNG to write
#   link      link rate in MBit/s (drawn as the ceiling C)
#   subtitle  one line saying where the numbers come from
set encoding utf8
set terminal pngcairo size 1000,620 font "sans,11" noenhanced
set output outfile

set title sprintf("Goodput on a %g MBit/s Ethernet link: expected (η·C) vs measured\n%s", link, subtitle)
set xlabel "message size -l (bytes; log scale)"
set ylabel "goodput (MBit/s)"
set logscale x 2
set xrange [48:6000]
set yrange [0:link * 1.08]
set xtics ("64" 64, "128" 128, "256" 256, "512" 512, "1024" 1024, "1472" 1472, "2000" 2000, "4000" 4000)
set grid ytics xtics lc rgb "#dddddd"
set key bottom right box opaque
set arrow from graph 0, first link to graph 1, first link nohead dt 3 lc rgb "#888888"
set label sprintf("C = %g MBit/s", link) at graph 0.02, first link * 1.03 tc rgb "#555555"

udp(p) = (strcol(1) eq "udp") ? p : NaN
tcp(p) = (strcol(1) eq "tcp") ? p : NaN

plot datafile using 2:(udp($3)) with linespoints lw 2 pt 6 ps 1.2 lc rgb "#1f77b4" title "UDP expected (η·C)", \
     datafile using 2:(udp($4)) with points pt 7 ps 1.6 lc rgb "#d62728" title "UDP measured (receiver)", \
     datafile using 2:(tcp($3)) with linespoints lw 2 dt 2 pt 4 ps 1.2 lc rgb "#2ca02c" title "TCP expected (η·C)", \
     datafile using 2:(tcp($4)) with points pt 5 ps 1.3 lc rgb "#ff7f0e" title "TCP measured (receiver)"
