# Latency of each request against its intended send time, one panel per
# tester, stall windows shaded: the closed loop's single dot per stall
# against the open loop's triangle of queued requests.
#
# This is the style cosim appends to the generated timeline.gp. It expects:
#   datafile        one block per tester: intended_s latency_ms (a long run
#                   is binned: the largest latency of each bin)
#   stallsfile      start_s end_s of each stall window
#   counts          the number of rows of each block, space separated
#   chart_title, chart_subtitle, testers, xfrom, xto (seconds), ylog,
#   outfile, term
# Restyle freely: cosim reads this file each time it runs.

n = words(testers)
panel_px = 330
if (term eq "pngcairo") {
    set terminal pngcairo enhanced size 1600, (180 + n * panel_px) font "Sans,18" linewidth 2
} else {
    if (term eq "pdfcairo") {
        set terminal pdfcairo enhanced size 10in, (1.2 + n * 2.1)*1in font "Sans,11" linewidth 2
    } else {
        set terminal svg enhanced size 1600, (180 + n * panel_px) font "Sans,18" linewidth 2 background "white"
    }
}
set output outfile

array colours[8] = ["#009E73", "#E69F00", "#0072B2", "#D55E00", "#CC79A7", "#56B4E9", \
                    "#000000", "#F0E442"]
set multiplot layout n, 1 title chart_title."\n".chart_subtitle noenhanced font ",16"
set grid xtics ytics lc rgb "#b0b0b0"
set border 3
set tics nomirror
set style fill solid 0.25 noborder
set ylabel "latency (ms)"
set key outside right top noenhanced samplen 1
# fixed margins, so the panels line up whatever the names
set lmargin 12
set rmargin 18
if (ylog) { set logscale y; set format y "%g" } else { unset logscale y }
do for [i=1:n] {
    set autoscale xy
    if (word(counts, i) + 0 > 0) { stats datafile index (i-1) using 2 nooutput }
    set xrange [xfrom:xto]
    empty = word(counts, i) + 0 == 0
    top = empty ? 1 : (STATS_max > 0 ? STATS_max * 1.15 : 1)
    bottom = ylog ? (empty ? 0.001 : (STATS_min > 0 ? STATS_min / 1.5 : 0.001)) : 0
    set yrange [bottom:top]
    if (i == n) { set xlabel "intended send time (s)" } else { unset xlabel }
    plot stallsfile using (($1+$2)/2):((top+bottom)/2):(($2-$1)/2):((top-bottom)/2) \
             with boxxyerror lc rgb "#999999" notitle, \
         datafile index (i-1) using 1:2 with points pt 7 ps 0.5 \
             lc rgb colours[(i-1)%8+1] title word(testers, i)
}
unset multiplot
