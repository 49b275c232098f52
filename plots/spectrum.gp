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
#   bandfile        (with --replications) per tester but the truth: x
#                   latency_ms low_ms high_ms at the curve's own points
#   labels, styles  each block's legend text and style (one look per tester)
#   outfile, term   the chart file and gnuplot terminal
# Restyle freely: cosim reads this file each time it runs.

# style 'slides' (cosim --style slides): 16:9, 1920 x 1080 px (a 13.33 x
# 7.5 in PDF, a slide's page), fonts legible at the back of a hall; else
# 1600 x 1000 px (10 x 6.25 in). The title is always larger than the
# subtitle (title_pt, subtitle_pt; base_pt the rest of the text).
slides = exists("style") && style eq "slides"
pdf = term eq "pdfcairo"
base_pt = slides ? (pdf ? 16 : 32) : (pdf ? 12 : 20)
title_pt = int(base_pt * (slides ? 1.45 : 1.25) + 0.5)
subtitle_pt = int(base_pt * (slides ? 0.7 : 0.75) + 0.5)
# a long title or subtitle shrinks to fit the page's width rather than run
# off it (a Sans character is at most about 0.6 of its size wide; room_pt
# the width a title may take), and the subtitle stays smaller than the title
room_pt = (slides ? 0.94 : 0.76) * (slides ? (pdf ? 960 : 1920) : (pdf ? 720 : 1600))
# (pngcairo draws a pt as 1.33 px: figure_5_2's 67-character title at 44
# pt ran ~2270 px across a 1920 px slide, both ends cut)
cw = term eq "pdfcairo" ? 0.6 : 0.8   # svg as png: both draw text 4/3 px a point
fit_pt(pt, text) = strlen(text) * pt * cw > room_pt ? int(room_pt / (cw * strlen(text))) : pt
title_pt = fit_pt(title_pt, chart_title)
subtitle_pt = fit_pt(subtitle_pt, chart_subtitle)
subtitle_pt = subtitle_pt <= 0.8 * title_pt ? subtitle_pt : int(0.8 * title_pt)
# no text under the style's minimum, as the chart review checks it: 20 px
# on a 1600 px page (15 pt in a png, 9 in a pdf), 32 px on a 1080 px slide
# (24 pt, a pdf's 16); a subtitle too long at that size is wrapped below
# (preemption_restart's was shrunk to 14 pt, 19 px, unreadable projected)
min_text_pt = slides ? (pdf ? 16 : 24) : (pdf ? 9 : 15)
subtitle_pt = subtitle_pt >= min_text_pt ? subtitle_pt : min_text_pt
# on a slide one subtitle size on all four charts (24 pt, a pdf's 16): a
# subtitle too long for the page at its size (on any page) is wrapped to
# two lines at the "; " (else the space) nearest its middle, not shrunk
# (fit_pt took stall_every_5s's 118 characters to 19 pt, others' further)
if (slides) { subtitle_pt = min_text_pt }
if (1) {
    if (strlen(chart_subtitle) * subtitle_pt * cw > room_pt) {
        sub_mid = strlen(chart_subtitle) / 2; sub_at = 0
        do for [k=2:strlen(chart_subtitle)-2] {
            if (chart_subtitle[k:k+1] eq "; " && (sub_at == 0 || abs(k - sub_mid) < abs(sub_at - sub_mid))) { sub_at = k }
        }
        if (sub_at == 0) {
            do for [k=2:strlen(chart_subtitle)-2] {
                if (chart_subtitle[k:k] eq " " && (sub_at == 0 || abs(k - sub_mid) < abs(sub_at - sub_mid))) { sub_at = k }
            }
        }
        if (sub_at > 0) {
            sub_semi = chart_subtitle[sub_at:sub_at] eq ";"
            chart_subtitle = chart_subtitle[1:(sub_semi ? sub_at : sub_at - 1)]."\n".chart_subtitle[sub_at+(sub_semi ? 2 : 1):]
        }
    }
}
# Speed: gnuplot re-arms its SIGFPE handler (two sigaction and one
# sigprocmask system calls) for every expression in a `using` at every
# data point unless told not to; the timeline's filters made 11,500 such
# evaluations (35 ms of its 260 ms). No division by zero can trap: every
# integer % below has a divisor of at least 1.
set datafile nofpe_trap

# More than twelve curves: the legend alone names them (no end labels, no
# p99 in its entries), in as many columns as the page's width holds, and a
# page (not a slide) grows by its rows past three: 64 testers' legend had
# filled the page and pushed the title and the axis off it
n_curves = words(testers)
many = n_curves > 12
many_lab = 0
do for [i=1:n_curves] {
    t_lab = exists("labels") ? labels[i] : word(testers, i)
    many_lab = strlen(t_lab) > many_lab ? strlen(t_lab) : many_lab
}
char_w = 0.6 * base_pt * (pdf ? 1 : 4.0 / 3)
many_cols = int(0.9 * (pdf ? (slides ? 960 : 720) : (slides ? 1920 : 1600)) / (char_w * (many_lab + 7)))
many_cols = many_cols < 1 ? 1 : many_cols
many_rows = (n_curves + many_cols - 1) / many_cols
extra_lines = many && !slides && many_rows > 3 ? many_rows - 3 : 0
extra_px = int(extra_lines * 1.1 * base_pt * 4.0 / 3)
if (term eq "pngcairo") {
    if (slides) { set terminal pngcairo enhanced size 1920,1080 font sprintf("Sans,%d", base_pt) linewidth 3 } \
    else { set terminal pngcairo enhanced size 1600,(1000 + extra_px) font sprintf("Sans,%d", base_pt) linewidth 2 }
} else {
    if (pdf) {
        if (slides) { set terminal pdfcairo enhanced size 13.333in,7.5in font sprintf("Sans,%d", base_pt) linewidth 3 } \
        else { set terminal pdfcairo enhanced size 10in,(6.25 + extra_lines * 1.1 * base_pt / 72.0)*1in font sprintf("Sans,%d", base_pt) linewidth 2 }
    } else {
        if (slides) { set terminal svg enhanced size 1920,1080 font sprintf("Sans,%d", base_pt) fontscale 4.0/3 linewidth 3 \
                          background "white" } \
        else { set terminal svg enhanced size 1600,(1000 + extra_px) font sprintf("Sans,%d", base_pt) fontscale 4.0/3 linewidth 2 background "white" }
    }
}
set output outfile
# gnuplot's svg terminal draws a point of size 1 as wide as 0.75 of the
# font's size (13.5 px at 18 pt, 24 px at 32 pt: measured, a square of ps
# 10 was 135 px wide in svg at 18 pt), pngcairo about 6.2 px whatever the
# font (63 px at ps 10): points scaled by 8.3 / font size in svg, so a
# lecture page's marker is the size of the png's
ptscale = term eq "svg" ? 8.3 / base_pt : 1.0

# the curves' last x, read before ranges and log scales alter stats
stats datafile index 0:(words(testers)-1) using 2 nooutput
xend = STATS_max * 0.9999   # inside the axis, or clipped
# each end label's height (lat) and rank from the lowest (0: none)
label(i) = exists("labels") ? labels[i] : word(testers, i)
nl = words(testers)
array lat[nl]
array rank[nl]
do for [i=1:nl] {
    stats datafile index (nl+1) using (strcol(3) eq label(i) ? 1 : 0) nooutput
    rank[i] = 0
    if (STATS_sum > 0) {
        stats datafile index (nl+1) using (strcol(3) eq label(i) ? $0 + 1 : NaN) nooutput
        rank[i] = STATS_max
        stats datafile index (nl+1) using (strcol(3) eq label(i) ? $2 : NaN) nooutput
        lat[i] = STATS_max
    }
}

# each curve's last point: its largest latency at x = n, the rank of the
# last of its n requests. A run of fewer than 100 requests (figure_5_2: 6
# and 10) has no percentile past 1 - 1/n but its largest, so its curve
# stopped short of its p99 dot (at x = 100, the largest too): a dotted
# line in its colour carries it there, and a note says why
array cx[nl]
array cy[nl]
do for [i=1:nl] {
    stats datafile index (i-1) using 2 nooutput
    cx[i] = STATS_max
    stats datafile index (i-1) using 3 nooutput
    cy[i] = STATS_max
}

# each tester's p99 (the marks block after the curves), read here, before
# the latency range is set: stats skips the points outside it, and a fast
# p99 under a long stall's five decades (a closed loop's 0.1 ms beside a
# 20 s freeze) found no point and stopped the chart
nb = words(testers)
array p99s[nb]
p99min = 0
do for [i=1:nb] {
    stats datafile index nb every ::(i-1)::(i-1) using 2 nooutput
    p99s[i] = STATS_max
    p99min = p99s[i] > 0 && (p99min == 0 || p99s[i] < p99min) ? p99s[i] : p99min
}

# on a slide the title and subtitle are centred on the page, not the plot
if (slides) {
    set label 98 chart_title at screen 0.5, screen 0.95 center noenhanced font sprintf(",%d", title_pt)
    # (a wrapped subtitle's second line falls below the position: both
    # lines raised, clear of the plot's top at 0.85)
    set label 1 chart_subtitle at screen 0.5, screen (strstrt(chart_subtitle, "\n") > 0 ? 0.905 : 0.885) center \
        noenhanced font sprintf(",%d", subtitle_pt)
    set tmargin at screen (strstrt(chart_subtitle, "\n") > 0 ? 0.83 : 0.85)
} else {
    # (a wrapped subtitle: its first line a line higher, the title and
    # the margin above the plot a line taller)
    sub_lines = strstrt(chart_subtitle, "\n") > 0 ? 2 : 1
    set title chart_title noenhanced offset 0,(sub_lines == 2 ? 2.2 : 1.2) font sprintf(",%d", title_pt)
    set label 1 chart_subtitle at graph 0.5, graph 1.04 center font sprintf(",%d", subtitle_pt) noenhanced \
        offset 0,(sub_lines == 2 ? 1 : 0)
    set tmargin (sub_lines == 2 ? 6 : 5)
}
set xlabel "percentile" offset 0,(slides ? 0.3 : 0.4)
set ylabel "latency"
set logscale x
set xtics ("0%%" 1, "90%%" 10, "99%%" 100, "99.9%%" 1000, "99.99%%" 10000, \
           "99.999%%" 100000, "99.9999%%" 1000000)
# the axis runs past the last point (x = n, or the p99 marks at 100) by a
# factor 1.6, so no curve's last step or mark lies on the right frame
# (one_stall's and gc_log's closed loop ended half hidden under it)
xaxis_max = (xend / 0.9999 > 100 ? xend / 0.9999 : 100) * 1.6
set xrange [1 : xaxis_max]

stats datafile index 0:(words(testers)-1) using 3 nooutput
ymax = STATS_max
ymin = STATS_min
if (ymax <= 0) { ylog = 0 }   # every latency 0: nothing to show on a log axis
if (ylog) {
    # at most five decades below the largest value: one near-zero sample
    # must not squash the range that matters
    lowest = ymax / 1e5
    # but every p99 mark drawn: the axis reaches down to a factor 4 under
    # the lowest p99, which keeps its dot clear of the "p99" name at the
    # line's foot (the curves below are clipped at the axis, as before)
    lowest = p99min > 0 && p99min / 4 < lowest ? p99min / 4 : lowest
    set logscale y
    set yrange [(ymin > lowest ? ymin / 1.5 : lowest) : ymax * 2]
} else {
    set yrange [0 : (ymax > 0 ? ymax * 1.1 : 1)]
}
# The latency ticks, in human units (ns, \302\265s, ms, s, min, h: gnuplot's
# own put "660" and "2000" on pool5_users6's axis and "6.66667e+08" under
# a 10^6 s stall): first each level holding more than a tenth of a curve's
# samples (levels, from cosim: pool5_users6's 1 s, 41 of 51 requests, had
# no tick), then round values (decades; 2s and 5s too under two decades;
# minutes and hours past a minute), each only where no tick is nearer than
# a label's height
# (four significant digits: a level is a histogram bucket's value, which
# printed whole read "8.02816 ms"; a value not a whole number of minutes or
# hours in the smaller unit only below 1000 of it: a 10^5 s level read
# "1667 min", now "27.78 h")
hu(v) = v < 0.001 ? sprintf("%.4g ns", v * 1e6) : v < 1 ? sprintf("%.4g \302\265s", v * 1e3) \
      : v < 1000 ? sprintf("%.4g ms", v) \
      : v < 60000 || (v < 1e6 && v / 60000.0 != int(v / 60000.0)) ? sprintf("%.4g s", v / 1e3) \
      : v < 3600000 || (v < 6e7 && v / 3600000.0 != int(v / 3600000.0)) ? sprintf("%.4g min", v / 60000.0) \
      : sprintf("%.4g h", v / 3600000.0)
ylo_t = ylog ? (ymin > lowest ? ymin / 1.5 : lowest) : 0
yhi_t = ylog ? ymax * 2 : (ymax > 0 ? ymax * 1.1 : 1)
# a tick label's height as a share of the plot's (about 0.6 of the page)
tick_gap = 1.3 * base_pt * (pdf ? 1 : 4.0 / 3) / (0.55 * (pdf ? (slides ? 540 : 450) : (slides ? 1080 : 1000)))
ypos(v) = ylog ? log(v / ylo_t) / log(yhi_t / ylo_t) : (v - ylo_t) / (yhi_t - ylo_t)
array tick_v[200]
array tick_s[200]
array tick_hi[200]
n_ticks = 0
tick_free(v) = n_ticks == 0 ? 1 : (sum [tk_=1:n_ticks] (abs(ypos(tick_v[tk_]) - ypos(v)) < tick_gap ? 1 : 0)) == 0
n_levels = exists("levels") ? words(levels) : 0
# levels closer than a label's height share one tick, labelled with their
# range ("16 ms to 17 ms": memtier's pipeline has three levels between 16
# and 17 ms, each over 10% of its requests)
do for [j=1:n_levels] {
    lv = word(levels, j) + 0.0
    if (lv >= ylo_t && lv <= yhi_t && n_ticks < 200) {
        if (tick_free(lv)) {
            n_ticks = n_ticks + 1; tick_v[n_ticks] = lv; tick_s[n_ticks] = hu(lv); tick_hi[n_ticks] = lv
        } else {
            tick_hi[n_ticks] = lv; tick_s[n_ticks] = hu(tick_v[n_ticks])." to ".hu(lv)
        }
    }
}
# round values: 1, 2 and 5 x 10^e ms up to 50 s, then 1, 2, 5, 10, 20
# and 30 min, then 1, 2, 5 x 10^e h; the 2s and 5s (and 20, 30 min)
# only on an axis of under two decades (figure_5_2: 0.13 to 9.4 ms) or a
# linear one
array round_v[60]
array round_fine[60]
n_round = 0
do for [e=-6:4] {
    do for [m=1:3] {
        n_round = n_round + 1; round_v[n_round] = (m == 1 ? 1 : m == 2 ? 2 : 5) * 10.0 ** e; round_fine[n_round] = m > 1
    }
}
do for [m=1:6] {
    n_round = n_round + 1; round_v[n_round] = 60000.0 * word("1 2 5 10 20 30", m); round_fine[n_round] = m != 1 && m != 4
}
do for [e=0:6] {
    do for [m=1:3] {
        n_round = n_round + 1; round_v[n_round] = 3600000.0 * (m == 1 ? 1 : m == 2 ? 2 : 5) * 10.0 ** e; round_fine[n_round] = m > 1
    }
}
fine_ticks = !ylog || yhi_t / ylo_t < 120
# on a linear axis the step of 1, 2 or 5 x 10^e that gives four to seven ticks
lin_step = 0
if (!ylog) {
    do for [j=1:n_round] { if (lin_step == 0 && yhi_t / round_v[j] <= 7) { lin_step = round_v[j] } }
}
do for [j=1:n_round] {
    rv = round_v[j]
    on_axis = ylog ? (!round_fine[j] || fine_ticks) : (lin_step > 0 && abs(rv / lin_step - int(rv / lin_step + 0.5)) < 1e-9)
    if (!ylog && lin_step > 0) { on_axis = 0 }
    if (on_axis && rv >= ylo_t && rv <= yhi_t && n_ticks < 200 && tick_free(rv)) {
        n_ticks = n_ticks + 1; tick_v[n_ticks] = rv; tick_s[n_ticks] = hu(rv); tick_hi[n_ticks] = rv
    }
}
if (!ylog && lin_step > 0) {
    do for [k=0:7] {
        rv = k * lin_step
        if (rv <= yhi_t && n_ticks < 200 && tick_free(rv)) { n_ticks = n_ticks + 1; tick_v[n_ticks] = rv; tick_s[n_ticks] = hu(rv); tick_hi[n_ticks] = rv }
    }
}
set ytics (tick_s[1] tick_v[1])
do for [j=2:n_ticks] { set ytics add (tick_s[j] tick_v[j]) }
set grid xtics ytics lc rgb "#a0a0a0" lw 1, lc rgb "#d8d8d8" lw 0.5
set key outside center bottom horizontal Left reverse box noenhanced samplen 3 spacing 1.1 width 2 maxrows 3
# on a slide the legend (with each p99) is in two rows under the plot, in
# place of the end labels, which slide-sized text would push apart
if (slides) { set key outside center bottom horizontal Left reverse box noenhanced samplen 2 spacing 1.0 width -1 maxrows 2 }
# the legend at the page's foot, its rows counted, and the bottom margin
# made to hold the tick labels, the "percentile" axis name and the legend
# one above the other (gnuplot's own placement set the legend's box over
# the axis name): a text line is about 1.1 characters at spacing 1.1
# (counted below, once the entries' texts are known)
set key at screen 0.5, screen 0.012 center bottom

# One look per tester (cosim's styles: the first closed, paced, corrected,
# open and partly_open tester are 1..5, every other the first free of 6..8
# then 1..5, eight testers all apart; 0 is the truth), so a tester keeps its colour, dash and marker whatever else is
# drawn. Okabe-Ito colours, told apart by colour-blind viewers; distinct
# dashes and markers keep the curves apart in greyscale too.
array colours[9] = ["#D55E00", "#E69F00", "#0072B2", "#009E73", "#CC79A7", "#56B4E9", "#882255", \
                    "#999933", "#000000"]
array markers[9] = [7, 5, 9, 13, 11, 6, 4, 8, 0]
style(i) = exists("styles") ? word(styles, i) + 0 : i
sty(i) = style(i) == 0 ? 9 : (style(i)-1)%8+1
colour(i) = colours[sty(i)]
marker(i) = markers[sty(i)]
label(i) = exists("labels") ? labels[i] : word(testers, i)
# dashes: closed dotted, paced long dashes, corrected dash-dot, open solid,
# partly_open dash-dot-dot, more testers of a kind other patterns; the
# truth dashed black without markers
set dashtype 11 (2,4)
set dashtype 12 (14,6)
set dashtype 13 (10,5,2,5)
set dashtype 14 solid
set dashtype 15 (10,4,2,4,2,4)
set dashtype 16 (20,5,5,5)
set dashtype 17 (6,3)
set dashtype 18 (3,3,12,3)
set dashtype 19 (8,6)
dash(i) = 10 + sty(i)
nb = words(testers)
# the p99 line, and on each curve its p99 marked and given in the legend
set arrow 1 from 100, graph 0 to 100, graph 1 nohead dt (4,6) lc rgb "#606060" lw 1.5 back
# its name at the line's foot, inside the plot, on an opaque white box: at
# the top it sat on stall_every_5s's open and corrected curves (~450 ms on
# a slide), and when the axis ends at 99% (figure_5_2, hey_q, memtier) it
# stood in the right margin like a series' name, or across the frame
# (k6_constant_arrival_rate). Right of the line, or left of it when the
# line is in the last fifth of the axis (xend: the curves' last x)
set style textbox 1 opaque fillcolor rgb "#ffffff" noborder margins 1.5,1.5
p99_left = log(100) / log(xaxis_max) > 0.8
if (p99_left) { set label 2 "p99" at 100, graph 0 offset -0.6,0.9 right textcolor rgb "#404040" boxed bs 1 front } \
else { set label 2 "p99" at 100, graph 0 offset 0.6,0.9 left textcolor rgb "#404040" boxed bs 1 front }
# (three significant digits, in the unit the ticks use from a second up:
# pool5_users6's legend read "p99 2000 ms" beside a "2 s" tick)
ms(v) = v >= 3600000 ? sprintf("%.3g h", v / 3600000.0) : v >= 60000 ? sprintf("%.3g min", v / 60000.0) \
      : v >= 1000 ? sprintf("%.3g s", v / 1000.0) \
      : v >= 100 ? sprintf("%.0f ms", v) : v >= 10 ? sprintf("%.1f ms", v) : v >= 1 ? sprintf("%.2f ms", v) \
      : sprintf("%.3f ms", v)
title_of(i) = many ? label(i) : label(i).": p99 ".ms(p99s[i])
# The legend's rows. gnuplot puts as many columns as the longest entry
# allows (on this page two up to about 24 characters, else one; tried
# with 3 to 39 characters), then fills ceil(n / columns) rows, at most
# maxrows (3; 2 on a slide, whose entries are shorter than its width).
longest_title = 0
longest_label = 0
do for [i=1:nb] {
    longest_title = strlen(title_of(i)) > longest_title ? strlen(title_of(i)) : longest_title
    longest_label = strlen(label(i)) > longest_label ? strlen(label(i)) : longest_label
}
key_maxrows = slides ? 2 : 3
key_cols = slides || longest_title <= 24 ? 2 : 1
key_rows = (nb + key_cols - 1) / key_cols
# gnuplot adds rows past maxrows rather than columns that do not fit:
# ten testers' 20-character entries took five rows, the lower two over
# the axis's name and tick labels (on a slide too). So the rows are not
# capped, but for a slide's three (stall_per_second's five entries), which
# fit in the margin made for two
key_rows = slides && key_rows == 3 ? key_maxrows : key_rows
key_rows = many ? many_rows : key_rows
set bmargin ((slides ? 3.0 : 2.6) + key_rows * 1.1 + 1.2)
# the end labels' column: as wide as the longest label (at least 10
# characters, at most 44 of the page's width)
end_cols = int(longest_label * (pdf ? 1.25 : 1.15)) + (pdf ? 6 : 3)
# (a label's characters are wider than gnuplot counts them, in a pdf and
# an svg most: stall_per_second's "corrected" and figure_5_3's
# "closed-loop, corrected" ran past the page's edge at longest + 3)
end_cols = end_cols < 10 ? 10 : end_cols > 44 ? 44 : end_cols
# end labels for up to eight curves; past that the legend alone names them
# (twelve testers' labels, stacked a line apart from the top, stood far
# from the curves they named, and with more they left the picture)
end_labels = !slides && nb <= 8
if (many) { set key maxrows many_rows maxcols many_cols }
if (end_labels) { set rmargin end_cols } else { set rmargin 6 }
# end labels in a column right of the plot, in the curves' colours, pushed
# apart to a text line each (up from the lowest, then down from the top)
ylo = ylog ? (ymin > lowest ? ymin / 1.5 : lowest) : 0
yhi = ylog ? ymax * 2 : (ymax > 0 ? ymax * 1.1 : 1)
# a text line (1.25 of the font's size) as a share of the plot's height
# (about 0.6 of the page's), at least 0.05: a pdf's 12 pt text on its
# 450 pt page needs 0.056, so labels 0.05 apart overlapped there
gap = 1.25 * base_pt / (0.6 * (pdf ? 450 : 1000))
gap = gap > 0.05 ? gap : 0.05
array at[nb]
do for [i=1:nb] {
    at[i] = rank[i] == 0 ? 0 : (ylog ? log(lat[i] / ylo) / log(yhi / ylo) : (lat[i] - ylo) / (yhi - ylo))
}
prev = -1
do for [r=1:nb] {
    do for [i=1:nb] {
        if (rank[i] == r) { at[i] = (prev > -1 && at[i] < prev + gap) ? prev + gap : at[i]; prev = at[i] }
    }
}
next = 1 + gap
do for [r=nb:1:-1] {
    do for [i=1:nb] {
        if (rank[i] == r) { at[i] = at[i] > next - gap ? next - gap : at[i]; next = at[i] }
    }
}
do for [i=1:nb] {
    if (rank[i] > 0 && end_labels) {
        set label (10 + i) label(i) at graph 1, graph at[i] left offset 1,0 noenhanced textcolor rgb colour(i) front
    }
}
short = 0
do for [i=1:nb] {
    if (cx[i] < 99.5) {
        set arrow (20 + i) from cx[i], cy[i] to 100, cy[i] nohead dt 3 lw 3 lc rgb colour(i) back
        short = short + 1
    }
}
# the note a second, smaller line of the axis's name, in the bottom margin
# (at graph 0.99, 0.04 it lay over stall_range's, hey_q's, gatling_open's,
# memtier's and wrk2_threads's curves and grid), the margin a line taller
if (short > 0) {
    set xlabel "percentile\n{/*0.75 fewer than 100 requests: past the dotted line every percentile is the largest value}"
    set bmargin ((slides ? 3.0 : 2.6) + key_rows * 1.1 + 1.2 + 1.0)
}
# the curves are drawn last to first, so that a later tester's solid line
# (open) never hides an earlier one's dashes where they coincide
if (exists("bandfile")) {
    # the band's blocks: the testers', not the truth's (last, style 0),
    # which has no seeds to spread over (reading its block gnuplot warned
    # "Skipping data file with no valid points")
    nband = style(nb) == 0 ? nb - 1 : nb
    set style fill transparent solid 0.2 noborder
    plot for [i=1:nband] bandfile index (i-1) using 1:3:4 with filledcurves lc rgb colour(i) notitle, \
         for [i=nb:1:-1] datafile index (i-1) using 2:3 with linespoints pointinterval -12 pointsize (1.3 * ptscale) \
             pt marker(i) lw 3 dt dash(i) lc rgb colour(i) notitle, \
         for [i=1:nb] keyentry with linespoints pointsize (1.3 * ptscale) pt marker(i) lw 3 dt dash(i) lc rgb colour(i) \
             title title_of(i), \
         for [i=1:nb] datafile index nb every ::(i-1)::(i-1) using 1:2 with points pt 7 ps (2.2 * ptscale) \
             lc rgb colour(i) notitle
} else {
    plot for [i=nb:1:-1] datafile index (i-1) using 2:3 with linespoints pointinterval -12 pointsize (1.3 * ptscale) \
             pt marker(i) lw 3 dt dash(i) lc rgb colour(i) notitle, \
         for [i=1:nb] keyentry with linespoints pointsize (1.3 * ptscale) pt marker(i) lw 3 dt dash(i) lc rgb colour(i) \
             title title_of(i), \
         for [i=1:nb] datafile index nb every ::(i-1)::(i-1) using 1:2 with points pt 7 ps (2.2 * ptscale) \
             lc rgb colour(i) notitle
}

# review (tests/charts_review.sh: gnuplot -e "review=1"): what the chart
# drew, for the checks that nothing sits outside the plot, every level has
# a tick, no two labels overlap and no text is below the style's minimum
if (exists("review")) {
    set print "-"
    # the smallest text drawn: the subtitle, the axes' and keys' base size,
    # and the "fewer than 100 requests" note at 0.75 of it
    min_pt = subtitle_pt < base_pt ? subtitle_pt : base_pt
    min_pt = short > 0 && 0.75 * base_pt < min_pt ? 0.75 * base_pt : min_pt
    print sprintf("review chart=spectrum panel=1 term=%s slides=%d canvas_w=%.10g canvas_h=%.10g px_xmin=%.10g px_xmax=%.10g px_ymin=%.10g px_ymax=%.10g min_pt=%.10g ylog=%d xlog=1 x_min=%.10g x_max=%.10g y_min=%.10g y_max=%.10g data_xmax=%.10g data_ymin=%.10g data_ymax=%.10g pad=1", \
        term, slides, GPVAL_TERM_XSIZE / GPVAL_TERM_SCALE, GPVAL_TERM_YSIZE / GPVAL_TERM_SCALE, \
        GPVAL_TERM_XMIN, GPVAL_TERM_XMAX, GPVAL_TERM_YMIN, GPVAL_TERM_YMAX, \
        min_pt, \
        ylog, GPVAL_X_MIN, GPVAL_X_MAX, GPVAL_Y_MIN, GPVAL_Y_MAX, xend / 0.9999, ymin > ylo_t ? ymin : ylo_t, ymax)
    do for [j=1:n_levels] { print sprintf("review-level panel=1 v=%s", word(levels, j)) }
    do for [j=1:n_ticks] { print sprintf("review-tick panel=1 v=%.10g hi=%.10g pt=%.10g", tick_v[j], tick_hi[j], base_pt) }
    do for [i=1:nb] {
        if (rank[i] > 0 && end_labels) {
            print sprintf("review-label panel=1 where=right y_graph=%.10g pt=%.10g chars=%d", at[i], base_pt, strlen(label(i)))
        }
    }
}
