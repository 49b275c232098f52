# p50, p99 and p99.9 of every tester side by side (the truth last, when the
# scenario has one): the figures a report would quote.
#
# This is the style cosim appends to the generated summary.gp. It expects:
#   datafile        rows: tester p50_ms p99_ms p99.9_ms
#   chart_title, chart_subtitle, ylog, outfile, term
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
stats datafile using 2 nooutput
lowest = STATS_min
stats datafile using 4 nooutput
highest = STATS_max
# each tester a group of three: p50, p99, p99.9, each labelled with its
# value (the point of the slide: "0.16 vs 1.07 vs 1.89 ms"). On a log axis
# a bar's length means nothing, so there the values are points on stems
# from the axis' floor; on a linear axis they are bars from zero.
set ylabel "latency (ms)"
set xtics noenhanced scale 0
set grid ytics lc rgb "#b0b0b0"
set border 3
set tics nomirror
set key top left noenhanced
ms(v) = v >= 100 ? sprintf("%.0f", v) : v >= 10 ? sprintf("%.1f", v) : v >= 1 ? sprintf("%.2f", v) \
      : sprintf("%.3f", v)
array pc[3] = ["#56B4E9", "#E69F00", "#D55E00"]
array pt_[3] = [7, 5, 9]
array pname[3] = ["p50", "p99", "p99.9"]
xat(k) = column(0) + (k - 2) * 0.27
set xrange [-0.6 : *]
set offsets 0, 0.6, 0, 0
if (ylog) {
    set logscale y
    set format y "%g"
    floor = lowest / 3
    set yrange [floor : highest * 4]
    plot for [k=1:3] datafile using (xat(k)):(column(k+1)):(floor):(column(k+1)) with yerrorbars \
             pt pt_[k] ps 2.5 lw 2 lc rgb pc[k] title pname[k], \
         for [k=1:3] '' using (xat(k)):(column(k+1)):(ms(column(k+1))) with labels offset 0,1.3 \
             font ",16" notitle, \
         '' using 0:(NaN):xtic(1) notitle
} else {
    set yrange [0 : highest * 1.15]
    set style fill solid 0.85 border rgb "#333333"
    set boxwidth 0.25
    plot for [k=1:3] datafile using (xat(k)):(column(k+1)) with boxes lc rgb pc[k] title pname[k], \
         for [k=1:3] '' using (xat(k)):(column(k+1)):(ms(column(k+1))) with labels offset 0,0.8 \
             font ",16" notitle, \
         '' using 0:(NaN):xtic(1) notitle
}
