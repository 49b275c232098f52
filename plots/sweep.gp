# p99 (with its 95% confidence interval over the replications) against the
# varied key, one curve per tester and value of the other --vary keys: the
# open loop's hockey stick against the flat closed loop.
#
# This is the style cosim sweep appends to the generated sweep.gp. It expects:
#   datafile        blocks: x p99_ms ci p50_ms ci p99.9_ms ci p99_bar_low p99_bar_high
#   nblocks, block_tester[b] (1-based in testers), block_combo[b] (0-based)
#                   and block_text[b] (the other keys' values, "" with one
#                   --vary), combos (how many)
#   affected[i]     1 if a varied key can change tester i's runs
#   xkey, xmoves, xutil   the x axis's label, the keys moving along it, and
#                   whether x is the offered utilisation
#   replications    seeds per point
#   rated[i], first_rated   with xutil: whether tester i has a request rate,
#                   and the first that has (the others are drawn at its x)
#   chart_title, testers, labels, styles, ylog, outfile, term
# Restyle freely: cosim reads this file each time it runs.

# style 'slides' (cosim sweep --style slides): 16:9, 1920 x 1080 px (a
# 13.33 x 7.5 in PDF, a slide's page), text for the back of a hall; else
# 1600 x 1000 px (10 x 6.25 in)
slides = exists("style") && style eq "slides"
pdf = term eq "pdfcairo"
base_pt = slides ? (pdf ? 16 : 30) : (pdf ? 12 : 20)
# Speed: gnuplot re-arms its SIGFPE handler (two sigaction and one
# sigprocmask system calls) for every expression in a `using` at every
# data point unless told not to; the timeline's filters made 11,500 such
# evaluations (35 ms of its 260 ms). No division by zero can trap: every
# integer % below has a divisor of at least 1.
set datafile nofpe_trap

if (term eq "pngcairo") {
    if (slides) { set terminal pngcairo enhanced size 1920,1080 font sprintf("Sans,%d", base_pt) linewidth 3 } \
    else { set terminal pngcairo enhanced size 1600,1000 font "Sans,20" linewidth 2 }
} else {
    if (pdf) {
        if (slides) { set terminal pdfcairo enhanced size 13.333in,7.5in font sprintf("Sans,%d", base_pt) linewidth 3 } \
        else { set terminal pdfcairo enhanced size 10in,6.25in font "Sans,12" linewidth 2 }
    } else {
        if (slides) { set terminal svg enhanced size 1920,1080 font sprintf("Sans,%d", base_pt) fontscale 4.0/3 linewidth 3 \
                          background "white" } \
        else { set terminal svg enhanced size 1600,1000 font "Sans,20" fontscale 4.0/3 linewidth 2 background "white" }
    }
}
# the title a size above the rest, the line under it a size below (a long
# title shrinks to the page's width: about 0.6 of its size a character)
title_pt = slides ? (pdf ? 23 : 44) : (pdf ? 16 : 28)
small_pt = slides ? (pdf ? 11 : 22) : (pdf ? 10 : 17)
room_pt = 0.76 * (slides ? (pdf ? 960 : 1920) : (pdf ? 720 : 1600))
title_pt = strlen(chart_title) * title_pt * 0.6 > room_pt ? int(room_pt / (0.6 * strlen(chart_title))) : title_pt
small_pt = small_pt <= 0.8 * title_pt ? small_pt : int(0.8 * title_pt)
big = sprintf(",%d", title_pt)
small = sprintf(",%d", small_pt)
set output outfile
# with one replication every interval is zero: no error bars, and the
# subtitle says nothing of them
stats datafile using 3 nooutput
has_ci = STATS_max > 0
stats datafile using 1 nooutput
x_lo = STATS_min
x_hi = STATS_max
what = xutil ? "p99 against each tester's offered utilisation as ".xmoves." varies" : "p99 as ".xmoves." varies"
set title chart_title font big noenhanced offset 0,1.2
seeds = replications > 1 ? sprintf(" (%d seeds per point, all alike: no error bars)", replications) \
        : " (one seed per point)"
set label 1 what.(has_ci ? " (error bars: 95% confidence over the seeds)" : seeds) \
    at graph 0.5, graph 1.04 center font small noenhanced
set tmargin 5
set xlabel xkey noenhanced
set ylabel "p99 latency"
if (ylog) { set logscale y }
# Ticks in human units: the latencies ("1 ms", "1 s", "2 min": gnuplot's
# own printed plain ms, "1000" for a second) at 1, 2, 5 x 10^e (on a log
# axis the 2s and 5s only under two decades), the varied key's values
# grouped by thousands ("2,000", not "2000"), with the decimals a step needs
hu(v) = v == 0 ? "0" : v < 0.001 ? sprintf("%.4g ns", v * 1e6) : v < 1 ? sprintf("%.4g \302\265s", v * 1e3) \
      : v < 1000 ? sprintf("%.4g ms", v) \
      : v < 60000 || (v < 1e6 && v / 60000.0 != int(v / 60000.0)) ? sprintf("%.4g s", v / 1e3) \
      : v < 3600000 || (v < 6e7 && v / 3600000.0 != int(v / 3600000.0)) ? sprintf("%.4g min", v / 60000.0) \
      : sprintf("%.4g h", v / 3600000.0)
thou(v) = v < 0 ? "-".thou(-v) : v < 999.5 ? sprintf("%.0f", v) : thou(floor((v + 0.5) / 1000)).sprintf(",%03.0f", floor(v + 0.5) - 1000 * floor((v + 0.5) / 1000))
thoud(v, dec) = v < 0 ? "-".thoud(-v, dec) : dec <= 0 ? thou(v) : thou(floor(v)).sprintf(sprintf("%%.%df", dec), v - floor(v))[2:]
# round latencies (ms) a tick may sit on: 1, 2 and 5 x 10^e ms up to 50 s,
# then 1, 2, 5, 10, 20 and 30 min, then 1, 2, 5 x 10^e h (a 10^5 s latency
# had ticks "833.3 min" and "1667 min" at a step of 5 x 10^7 ms)
array round_v[60]
n_round = 0
do for [e=-6:4] { do for [m=1:3] { n_round = n_round + 1; round_v[n_round] = (m == 1 ? 1 : m == 2 ? 2 : 5) * 10.0 ** e } }
do for [m=1:6] { n_round = n_round + 1; round_v[n_round] = 60000.0 * word("1 2 5 10 20 30", m) }
do for [e=0:6] { do for [m=1:3] { n_round = n_round + 1; round_v[n_round] = 3600000.0 * (m == 1 ? 1 : m == 2 ? 2 : 5) * 10.0 ** e } }
# the smallest of them giving at most k steps up to top
human_step(top, k) = sum [j_=1:n_round] (top / round_v[j_] <= k && (j_ == 1 || top / round_v[j_ - 1] > k) ? round_v[j_] : 0)
nice(r) = r <= 0 ? 1 : (r / 10 ** floor(log10(r)) > 5 ? 10 : r / 10 ** floor(log10(r)) > 2 ? 5 : r / 10 ** floor(log10(r)) > 1 ? 2 : 1) \
          * 10 ** floor(log10(r))
stats datafile using 2 nooutput
y_lo = STATS_min; y_hi = STATS_max
if (has_ci) {
    stats datafile using 8 nooutput; y_lo = STATS_min < y_lo ? STATS_min : y_lo
    stats datafile using 9 nooutput; y_hi = STATS_max > y_hi ? STATS_max : y_hi
}
set ytics ()
if (ylog) {
    y_lo = y_lo > 0 ? y_lo : 1e-6
    y_hi = y_hi > y_lo ? y_hi : y_lo * 10
    do for [e=-6:9] {
        do for [m=1:3] {
            v = (m == 1 ? 1 : m == 2 ? 2 : 5) * 10.0 ** e
            if (v >= y_lo / 1.5 && v <= y_hi * 1.5 && (m == 1 || y_hi / y_lo < 100)) { set ytics add (hu(v) v) }
        }
    }
} else {
    y_step = human_step(y_hi > 0 ? y_hi * 1.05 : 1, 6)
    do for [k=0:int(floor((y_hi > 0 ? y_hi * 1.05 : 1) / y_step)) + 1] { set ytics add (hu(k * y_step) k * y_step) }
}
set autoscale yfix
set offsets 0, 0, graph 0.05, 0
# a little room either side, but an axis of values >= 0 never goes below 0
pad = (x_hi > x_lo ? (x_hi - x_lo) : (x_hi != 0 ? abs(x_hi) : 1)) * 0.03
set xrange [(x_lo >= 0 && x_lo - pad < 0) ? 0 : x_lo - pad : x_hi + pad]
x_a = (x_lo >= 0 && x_lo - pad < 0) ? 0 : x_lo - pad
x_step = nice((x_hi + pad - x_a) / 6.0)
x_dec = x_step >= 1 ? 0 : int(ceil(-log10(x_step) - 1e-9))
set xtics ()
do for [k=int(ceil(x_a / x_step - 1e-9)):int(floor((x_hi + pad) / x_step + 1e-9))] { set xtics add (thoud(k * x_step, x_dec) k * x_step) }
if (!ylog) { set yrange [0:*] }
# utilisation 1: the server's capacity, past which the queue has no bound
if (xutil && x_lo <= 1 && x_hi >= 1) {
    set arrow 2 from 1, graph 0 to 1, graph 1 nohead dt (4,6) lc rgb "#606060" lw 1.5 back
    set label 3 "capacity" at 1, graph 1 offset 0.5,-0.8 left textcolor rgb "#404040" front
}
set grid xtics ytics lc rgb "#b0b0b0"
set border 3
set tics nomirror
# the key under the x label, two columns, with room kept for its rows
key_rows = nblocks > 1 ? (nblocks + 1) / 2 : 1
set bmargin 4.5 + 1.25 * key_rows
set key at screen 0.5, screen 0.015 center bottom horizontal Left reverse box noenhanced samplen 3 \
    spacing 1.1 width 2 maxcols 2
# One look per tester, as on cosim's other charts (styles: the first
# closed, paced, corrected, open and partly_open tester are 1..5, every
# other the first free of 6..8 then 1..5): Okabe-Ito colours, and markers and dashes that keep the
# curves apart in greyscale. With a grid, the curves of one tester keep its
# colour and take a dash and marker per value of the other keys.
array colours[8] = ["#D55E00", "#E69F00", "#0072B2", "#009E73", "#CC79A7", "#56B4E9", "#882255", "#999933"]
array markers[8] = [7, 5, 9, 13, 11, 6, 4, 8]
set dashtype 11 (2,4)
set dashtype 12 (14,6)
set dashtype 13 (10,5,2,5)
set dashtype 14 solid
set dashtype 15 (10,4,2,4,2,4)
set dashtype 16 (20,5,5,5)
set dashtype 17 (6,3)
set dashtype 18 (3,3,12,3)
t(b) = block_tester[b]
sty(b) = exists("styles") ? (word(styles, t(b)) + 0 - 1) % 8 + 1 : (t(b) - 1) % 8 + 1
colour(b) = colours[sty(b)]
look(b) = combos > 1 && affected[t(b)] ? block_combo[b] % 8 + 1 : sty(b)
label(i) = exists("labels") ? labels[i] : word(testers, i)
title_of(b) = label(t(b)).(block_text[b] ne "" && affected[t(b)] ? ": ".block_text[b] : "") \
              .(affected[t(b)] ? "" : " (no varied key affects it)") \
              .(xutil && !rated[t(b)] && first_rated > 0 ? " (no rate: at ".label(first_rated)."'s utilisation)" : "")
dash(b) = 10 + look(b)
width(b) = affected[t(b)] ? 3 : 2
# the key under the x label, with room kept for its rows: two columns, or
# one when a legend is too long to share the width
longest = 0
do for [b=1:nblocks] { longest = strlen(title_of(b)) > longest ? strlen(title_of(b)) : longest }
key_cols = nblocks > 1 && longest <= 48 ? 2 : 1
key_rows = (nblocks + key_cols - 1) / key_cols
set bmargin 4.5 + 1.25 * key_rows
set key at screen 0.5, screen 0.015 center bottom horizontal Left reverse box noenhanced samplen 3 \
    spacing 1.1 width 2 maxcols key_cols
# the testers no varied key affects last, so their curves lie on top of any
# they coincide with (dotted over dashed: both stay visible)
array order[nblocks]
k = 0
do for [b=1:nblocks] { if (affected[t(b)]) { k = k + 1; order[k] = b } }
do for [b=1:nblocks] { if (!affected[t(b)]) { k = k + 1; order[k] = b } }
if (has_ci) {
    plot for [j=1:nblocks] datafile index (order[j]-1) using 1:2:8:9 with yerrorlines lw width(order[j]) \
         pt markers[look(order[j])] ps 1.5 dt dash(order[j]) lc rgb colour(order[j]) title title_of(order[j])
} else {
    plot for [j=1:nblocks] datafile index (order[j]-1) using 1:2 with linespoints lw width(order[j]) \
         pt markers[look(order[j])] ps 1.5 dt dash(order[j]) lc rgb colour(order[j]) title title_of(order[j])
}
