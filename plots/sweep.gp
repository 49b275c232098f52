# p99 (with its 95% confidence interval over the replications) against the
# varied key, one curve per tester: the open loop's hockey stick against the
# flat closed loop.
#
# This is the style cosim sweep appends to the generated sweep.gp. It expects:
#   datafile        one block per tester: x p99_ms ci p50_ms ci p99.9_ms ci
#   xkey            the varied key (the x axis)
#   chart_title, chart_subtitle, testers, ylog, outfile, term
# Restyle freely: cosim reads this file each time it runs.

if (term eq "pngcairo") {
    set terminal pngcairo enhanced size 1600,1000 font "Sans,20" linewidth 2
} else {
    if (term eq "pdfcairo") {
        set terminal pdfcairo enhanced size 10in,6.25in font "Sans,12" linewidth 2
    } else {
        set terminal svg enhanced size 1600,1000 font "Sans,20" linewidth 2 background "white"
    }
}
set output outfile
# with one replication every interval is zero: no error bars, and the
# title says nothing of them
stats datafile using 3 nooutput
has_ci = STATS_max > 0
stats datafile using 1 nooutput
x_lo = STATS_min
x_hi = STATS_max
set title chart_title."\np99 as ".xkey." varies".(has_ci ? " (error bars: 95% confidence over the seeds)" : \
          " (one seed per point)") noenhanced
set xlabel xkey noenhanced
set ylabel "p99 latency (ms)"
if (ylog) { set logscale y; set format y "%g" }
set autoscale yfix
set offsets 0, 0, graph 0.05, 0
# a little room either side, but an axis of values >= 0 never goes below 0
pad = (x_hi > x_lo ? (x_hi - x_lo) : (x_hi != 0 ? abs(x_hi) : 1)) * 0.03
set xrange [(x_lo >= 0 && x_lo - pad < 0) ? 0 : x_lo - pad : x_hi + pad]
if (!ylog) { set yrange [0:*] }
set grid xtics ytics lc rgb "#b0b0b0"
set border 3
set tics nomirror
set key outside right top vertical box noenhanced title "tester" width 2
array colours[8] = ["#009E73", "#E69F00", "#0072B2", "#D55E00", "#CC79A7", "#56B4E9", \
                    "#000000", "#F0E442"]
# a confidence bar never below zero: latencies are not negative
low(y, ci) = y - ci < 0 ? 0 : y - ci
if (has_ci) {
    plot for [i=1:words(testers)] datafile index (i-1) using 1:2:(low($2,$3)):($2+$3) with yerrorlines \
         lw 3 pt 7 lc rgb colours[(i-1)%8+1] title word(testers, i)
} else {
    plot for [i=1:words(testers)] datafile index (i-1) using 1:2 with linespoints \
         lw 3 pt 7 lc rgb colours[(i-1)%8+1] title word(testers, i)
}
