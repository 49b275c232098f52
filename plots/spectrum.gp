# Latency by percentile (the book's Figure 5.3): one curve per tester, the
# percentile on a 1/(1-p) log axis, so each decade to the right is one more
# nine (90%, 99%, 99.9%, ...).
#
# This is the style cosim appends to the generated spectrum.gp. It expects:
#   datafile        the spectrum data (one block per tester)
#   chart_title     the scenario's title
#   chart_subtitle  service, stalls, duration, seed and rank rule
#   testers         the tester names, space separated, in block order (the
#                   ground truth, when the scenario has one, is "truth")
#   ylog            1 for a log latency axis (cosim --latency-axis)
#   bandfile        (with --replications) per tester: x mean_ms low_ms high_ms
#   slots           each block's tester position in the scenario (its colour)
#   outfile, term   the chart file and gnuplot terminal
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

set title chart_title noenhanced offset 0,1.2
set label 1 chart_subtitle at graph 0.5, graph 1.04 center font ",15" noenhanced
set tmargin 5
set xlabel "percentile"
set ylabel "latency (ms)"
set logscale x
set xtics ("0%%" 1, "90%%" 10, "99%%" 100, "99.9%%" 1000, "99.99%%" 10000, \
           "99.999%%" 100000, "99.9999%%" 1000000)
set xrange [1:*]
set autoscale xfixmax

stats datafile using 3 nooutput
ymax = STATS_max
ymin = STATS_min
if (ymax <= 0) { ylog = 0 }   # every latency 0: nothing to show on a log axis
if (ylog) {
    # at most five decades below the largest value: one near-zero sample
    # must not squash the range that matters
    lowest = ymax / 1e5
    set logscale y
    set format y "%g"
    set yrange [(ymin > lowest ? ymin / 1.5 : lowest) : ymax * 2]
} else {
    set yrange [0 : (ymax > 0 ? ymax * 1.1 : 1)]
}
set grid xtics ytics lc rgb "#a0a0a0" lw 1, lc rgb "#d8d8d8" lw 0.5
set mytics 10
set grid mytics
set key outside right top vertical box noenhanced title "tester" samplen 2
set border 3
set tics nomirror

# A fixed colour per tester position, so charts of one run agree: the
# Okabe-Ito palette, told apart also by colour-blind viewers.
array colours[8] = ["#009E73", "#E69F00", "#0072B2", "#D55E00", "#CC79A7", "#56B4E9", \
                    "#000000", "#F0E442"]

# the truth, when there is one, is the dashed black curve
is_truth(i) = word(testers, i) eq "truth"
dash(i) = is_truth(i) ? 2 : 1
# colour by the tester's place in the scenario (slots), as in every chart
slot(i) = exists("slots") ? word(slots, i) + 0 : i
colour(i) = is_truth(i) ? "#000000" : colours[(slot(i)-1)%8+1]
# with --replications, each tester's 95% band over the seeds, behind its curve
if (exists("bandfile")) {
    set style fill transparent solid 0.2 noborder
    plot for [i=1:words(testers)] bandfile index (i-1) using 1:3:4 with filledcurves \
             lc rgb colour(i) notitle, \
         for [i=1:words(testers)] datafile index (i-1) using 2:3 with lines \
             lw 3 dt dash(i) lc rgb colour(i) title word(testers, i)
} else {
    plot for [i=1:words(testers)] datafile index (i-1) using 2:3 with lines \
         lw 3 dt dash(i) lc rgb colour(i) title word(testers, i)
}
