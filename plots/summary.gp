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
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border rgb "#333333"
set boxwidth 0.9
set ylabel "latency (ms)"
set xtics noenhanced
set grid ytics lc rgb "#b0b0b0"
set border 3
set tics nomirror
set key top left noenhanced
if (ylog) {
    set logscale y
    set format y "%g"
    set yrange [lowest / 3 : highest * 3]
} else {
    set yrange [0 : highest * 1.15]
}
plot datafile using 2:xtic(1) title "p50" lc rgb "#56B4E9", \
     '' using 3 title "p99" lc rgb "#E69F00", \
     '' using 4 title "p99.9" lc rgb "#D55E00"
