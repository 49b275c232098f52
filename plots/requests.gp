# The book's Figure 5.2: for a short window around a stall, one bar per
# request from its intended send time to its reply, a dot where it was
# really sent; one panel per tester (closed above open), stalls shaded.
#
# This is the style cosim appends to the generated requests.gp. It expects:
#   datafile        one block per tester: intended_s sent_s reply_s row
#   stallsfile      start_s end_s of each stall window
#   counts          the number of rows of each block, space separated
#   chart_title, chart_subtitle, testers, xfrom, xto (seconds), outfile, term
# Restyle freely: cosim reads this file each time it runs.

n = words(testers)
panel_px = 300
if (term eq "pngcairo") {
    set terminal pngcairo enhanced size 1600, (180 + n * panel_px) font "Sans,18" linewidth 2
} else {
    if (term eq "pdfcairo") {
        set terminal pdfcairo enhanced size 10in, (1.2 + n * 2)*1in font "Sans,11" linewidth 2
    } else {
        set terminal svg enhanced size 1600, (180 + n * panel_px) font "Sans,18" linewidth 2 background "white"
    }
}
set output outfile

array colours[8] = ["#009E73", "#E69F00", "#0072B2", "#D55E00", "#CC79A7", "#56B4E9", \
                    "#000000", "#F0E442"]
set multiplot layout n, 1 title chart_title."\n".chart_subtitle noenhanced font ",16"
set grid xtics lc rgb "#b0b0b0"
set border 3
set tics nomirror
set style fill solid 0.25 noborder
set ylabel "request"
set key outside right top noenhanced samplen 1
# fixed margins, so the panels line up whatever the names
set lmargin 12
set rmargin 18
do for [i=1:n] {
    set autoscale xy
    if (word(counts, i) + 0 > 0) { stats datafile index (i-1) using 4 nooutput }
    set xrange [xfrom * 1000 : xto * 1000]
    rows = (word(counts, i) + 0 > 0) ? STATS_max : 1
    set yrange [rows + 1 : 0]
    if (i == n) { set xlabel "time (ms): bar from intended send to reply, dot at the actual send" } else { unset xlabel }
    plot stallsfile using (($1+$2)*500):(rows/2.0 + 0.5):(($2-$1)*500):(rows/2.0 + 0.5) \
             with boxxyerror lc rgb "#999999" notitle, \
         datafile index (i-1) using ($1*1000):4:(($3-$1)*1000):(0) with vectors nohead lw 2 \
             lc rgb colours[(i-1)%8+1] title word(testers, i), \
         datafile index (i-1) using ($2*1000):4 with points pt 7 ps 0.6 lc rgb "#000000" notitle
}
unset multiplot
