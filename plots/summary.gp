# p50, p99 and p99.9 of every tester side by side (the truth last, when the
# scenario has one), and the mean: the figures a report would quote.
# (compensation's lesson is its mean, about 98 vs 118 ms; mm1_rho08's
# title quotes the mean.)
#
# This is the style cosim appends to the generated summary.gp. It expects:
#   datafile        rows: tester p50_ms p99_ms p99.9_ms mean_ms
#   chart_title, chart_subtitle, ylog, outfile, term
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

if (term eq "pngcairo") {
    if (slides) { set terminal pngcairo enhanced size 1920,1080 font sprintf("Sans,%d", base_pt) linewidth 3 } \
    else { set terminal pngcairo enhanced size 1600,1000 font sprintf("Sans,%d", base_pt) linewidth 2 }
} else {
    if (pdf) {
        if (slides) { set terminal pdfcairo enhanced size 13.333in,7.5in font sprintf("Sans,%d", base_pt) linewidth 3 } \
        else { set terminal pdfcairo enhanced size 10in,6.25in font sprintf("Sans,%d", base_pt) linewidth 2 }
    } else {
        if (slides) { set terminal svg enhanced size 1920,1080 font sprintf("Sans,%d", base_pt) fontscale 4.0/3 linewidth 3 \
                          background "white" } \
        else { set terminal svg enhanced size 1600,1000 font sprintf("Sans,%d", base_pt) fontscale 4.0/3 linewidth 2 background "white" }
    }
}
set output outfile
# gnuplot's svg terminal draws a point of size 1 as wide as 0.75 of the
# font's size (13.5 px at 18 pt, 24 px at 32 pt: measured, a square of ps
# 10 was 135 px wide in svg at 18 pt), pngcairo about 6.2 px whatever the
# font (63 px at ps 10): points scaled by 8.3 / font size in svg, so a
# lecture page's marker is the size of the png's
ptscale = term eq "svg" ? 8.3 / base_pt : 1.0

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
stats datafile using 2 nooutput
lowest = STATS_min
n_rows = STATS_records
stats datafile using 4 nooutput
highest = STATS_max
# the mean may lie under the p50 or (a rare huge reply) over the p99.9
stats datafile using 5 nooutput
lowest = STATS_min < lowest ? STATS_min : lowest
highest = STATS_max > highest ? STATS_max : highest
# a log axis starts under the smallest value above zero: a zero p50 (a
# zero service time) made the floor 0, which a log axis cannot show, and
# gnuplot stopped; a zero value sits on the floor, its label "0.000".
# Every value zero: a linear axis.
posv(v) = v > 0 ? v : 1e300
minp(a, b) = a < b ? a : b
stats datafile using (minp(minp(posv($2), posv($3)), minp(posv($4), posv($5)))) nooutput
lowest_pos = STATS_min
if (lowest_pos >= 1e300) { ylog = 0 }
lowest = ylog && lowest <= 0 ? lowest_pos : lowest
# each tester a group of three: p50, p99, p99.9, each labelled with its
# value (the point of the slide: "0.16 vs 1.07 vs 1.89 ms"). On a log axis
# a bar's length means nothing, so there the values are points on stems
# from the axis' floor; on a linear axis they are bars from zero.
set xtics noenhanced scale 0
set grid ytics lc rgb "#b0b0b0"
set border 3
set tics nomirror
# the key in a row under the tester names: at the top left its "p99.9"
# sat on the axis' "10" label
set key outside bottom center horizontal reverse Left noenhanced samplen 1 width 2
# the value labels bare numbers in one unit, the largest value's ("0.100"
# to "10.1" ms; a 10^5 s latency's "27.8" h, where plain ms read
# "100000000"), named in the axis title: a unit on each label widened them
# across the next stem on a slide
lab_div = highest < 1000 ? 1.0 : highest < 60000 ? 1000.0 : highest < 3600000 ? 60000.0 : 3600000.0
lab_unit = highest < 1000 ? "ms" : highest < 60000 ? "s" : highest < 3600000 ? "min" : "h"
ms(v) = ms_(v / lab_div)
ms_(v) = v >= 100 ? sprintf("%.0f", v) : v >= 10 ? sprintf("%.1f", v) : v >= 1 ? sprintf("%.2f", v) \
       : sprintf("%.3f", v)
set ylabel "latency (the values over the marks: ".lab_unit.")"
array pc[3] = ["#56B4E9", "#E69F00", "#D55E00"]
array pt_[3] = [7, 5, 9]
array pname[3] = ["p50", "p99", "p99.9"]
# a group of four slots: p50, p99, p99.9, then the mean (a black diamond,
# not a bar: it is not a percentile), 0.22 apart
xat(k) = column(0) + (k - 2.5) * 0.22
# Value labels placed apart, every label against every other (across
# groups too: on a slide stall_per_second's mean of one tester, "0.103",
# and the next one's p50, "0.100", 0.34 apart, were printed into
# "0.1030.100"; gc_log's mean label, moved under its diamond, lay across
# its own stem). Each label is centred over its value; from the lowest
# up, one whose box meets a box already placed goes a text line above
# it. The boxes are estimated from the page: a Sans digit about 0.62 of
# the size wide, a pt 4/3 px in png and svg (a pdf's unit is its pt); a
# line 1.2 of the size over a plot about 0.72 of the page high, its width
# about 0.86 of the page's.
lab_pt = int(base_pt * 0.8 + 0.5)
lab_pt = lab_pt >= min_text_pt ? lab_pt : min_text_pt
unit_pt = term eq "pdfcairo" ? 1 : 4.0 / 3
page_w = pdf ? (slides ? 960 : 720) : (slides ? 1920 : 1600)
page_h = pdf ? (slides ? 540 : 450) : (slides ? 1080 : 1000)
line_frac = 1.2 * lab_pt * unit_pt / (0.72 * page_h)
xspan = n_rows - 1 + 0.33 + 0.6 + 0.6
unit_px = 0.86 * page_w / xspan
n_lab = 4 * n_rows
array LX[n_lab]
array LV[n_lab]
array LY[n_lab]
array LW[n_lab]
array LS[n_lab]
do for [r=0:n_rows-1] {
    do for [k=1:4] {
        stats datafile every ::r::r using (column(k + 1)) nooutput
        m = 4 * r + k
        LX[m] = r + (k - 2.5) * 0.22
        LV[m] = STATS_max
        LS[m] = ms(STATS_max)
        LW[m] = 0.62 * lab_pt * unit_pt * (strlen(LS[m]) + 0.5)
    }
}
# the labels placed (see above): from the lowest value up, each a line above
# any label box it meets (a hair more than a line: exactly a line, up() then
# near() in floating point found the two still a line apart less a rounding,
# and stall_every_5s's labels went up forever; a label moves at most once
# past each other, so at most n_lab rounds)
place_labels = "array ord[n_lab]; do for [m=1:n_lab] { ord[m] = m }; \
  do for [a=2:n_lab] { j = a; while (j > 1 && LV[ord[j]] < LV[ord[j-1]]) { t = ord[j]; ord[j] = ord[j-1]; ord[j-1] = t; j = j - 1 } }; \
  do for [a=1:n_lab] { m = ord[a]; LY[m] = ylog ? cl(LV[m]) : LV[m]; moved = 1; moves = 0; \
    while (moved && moves <= n_lab) { moved = 0; moves = moves + 1; do for [b=1:a-1] { q = ord[b]; \
      if (abs(LX[m] - LX[q]) * unit_px < (LW[m] + LW[q]) / 2 && near(LY[m], LY[q], dl)) { LY[m] = up(LY[q], 1.001 * dl); moved = 1 } } } }"
near(a, b, d) = ylog ? (a > 0 && b > 0 && abs(log10(a / b)) < d) : abs(a - b) < d
up(a, d) = ylog ? a * 10 ** d : a + d
set xrange [-0.6 : n_rows - 1 + 0.33 + 0.6]
# The latency ticks in human units, as spectrum.gp's: gnuplot's own printed
# plain ms, "1000" for a second (gc_log, one_stall). Round values: 1, 2
# and 5 x 10^e ms up to 50 s, then 1, 2, 5, 10, 20, 30 min, then 1, 2, 5 x
# 10^e h; on a log axis the 2s and 5s (and 20, 30 min) only under two
# decades; on a linear one the step of those giving four to seven ticks
hu(v) = v == 0 ? "0" : v < 0.001 ? sprintf("%.4g ns", v * 1e6) : v < 1 ? sprintf("%.4g \302\265s", v * 1e3) \
      : v < 1000 ? sprintf("%.4g ms", v) \
      : v < 60000 || (v < 1e6 && v / 60000.0 != int(v / 60000.0)) ? sprintf("%.4g s", v / 1e3) \
      : v < 3600000 || (v < 6e7 && v / 3600000.0 != int(v / 3600000.0)) ? sprintf("%.4g min", v / 60000.0) \
      : sprintf("%.4g h", v / 3600000.0)
array round_v[60]
array round_fine[60]
n_round = 0
do for [e=-6:4] {
    do for [m=1:3] { n_round = n_round + 1; round_v[n_round] = (m == 1 ? 1 : m == 2 ? 2 : 5) * 10.0 ** e; round_fine[n_round] = m > 1 }
}
do for [m=1:6] { n_round = n_round + 1; round_v[n_round] = 60000.0 * word("1 2 5 10 20 30", m); round_fine[n_round] = m != 1 && m != 4 }
do for [e=0:6] {
    do for [m=1:3] { n_round = n_round + 1; round_v[n_round] = 3600000.0 * (m == 1 ? 1 : m == 2 ? 2 : 5) * 10.0 ** e; round_fine[n_round] = m > 1 }
}
human_ticks = "set ytics (); \
  if (ylog) { fine_t = hi_t / lo_t < 100; do for [j=1:n_round] { if ((!round_fine[j] || fine_t) && round_v[j] >= lo_t && round_v[j] <= hi_t) { set ytics add (hu(round_v[j]) round_v[j]) } } } \
  else { step_t = 0; do for [j=1:n_round] { if (step_t == 0 && hi_t / round_v[j] <= 7) { step_t = round_v[j] } }; \
         do for [k=0:7] { if (k * step_t <= hi_t) { set ytics add (hu(k * step_t) k * step_t) } } }"
if (ylog) {
    set logscale y
    floor = lowest / 3
    cl(v) = v > floor ? v : floor   # a zero on the floor
    set yrange [floor : highest * 4]
    lo_t = floor; hi_t = highest * 4
    eval human_ticks
    dl = line_frac * log10(highest * 4 / floor)   # a text line, in decades
    eval place_labels
    # the key's marker alone, a text line high (drawn with its stem at the
    # data's 2.5 the three markers overlapped each other)
    plot for [k=1:3] datafile using (xat(k)):(cl(column(k+1))):(floor):(cl(column(k+1))) with yerrorbars \
             pt pt_[k] ps (2.5 * ptscale) lw 2 lc rgb pc[k] notitle, \
         for [k=1:3] keyentry with points pt pt_[k] ps (2 * ptscale) lc rgb pc[k] title pname[k], \
         datafile using (xat(4)):(cl($5)):(floor):(cl($5)) with yerrorbars pt 13 ps (2.5 * ptscale) lw 1 dt 2 \
             lc rgb "#000000" notitle, \
         keyentry with points pt 13 ps (2 * ptscale) lc rgb "#000000" title "mean", \
         [m=1:n_lab:1] '+' using (LX[m]):(LY[m]):(LS[m]) with labels offset 0,1.3 \
             font sprintf(",%d", lab_pt) notitle, \
         datafile using 0:(NaN):xtic(1) notitle
} else {
    set yrange [0 : (highest > 0 ? highest * 1.15 : 1)]   # every value 0: an axis to 1 ms
    lo_t = 0; hi_t = highest > 0 ? highest * 1.15 : 1
    eval human_ticks
    dl = line_frac * (highest > 0 ? highest * 1.15 : 1)   # a text line, in ms
    cl(v) = v
    eval place_labels
    set style fill solid 0.85 border rgb "#333333"
    set boxwidth 0.2
    # the mean: a diamond in the group's fourth slot with its value (a
    # dashed line across the bars at its height crossed the p50's label)
    plot for [k=1:3] datafile using (xat(k)):(column(k+1)) with boxes lc rgb pc[k] title pname[k], \
         datafile using (xat(4)):5 with points pt 13 ps (2.5 * ptscale) lc rgb "#000000" title "mean", \
         [m=1:n_lab:1] '+' using (LX[m]):(LY[m]):(LS[m]) with labels offset 0,1.3 \
             font sprintf(",%d", lab_pt) notitle, \
         datafile using 0:(NaN):xtic(1) notitle
}

# review (tests/charts_review.sh: gnuplot -e "review=1"): what the chart
# drew, for the checks that nothing sits outside the plot, no two value
# labels overlap and no text is below the style's minimum. The labels'
# places are the plot's own (the arrays the labels are drawn from)
if (exists("review")) {
    set print "-"
    min_pt = subtitle_pt < lab_pt ? subtitle_pt : lab_pt
    print sprintf("review chart=summary panel=1 term=%s slides=%d canvas_w=%.10g canvas_h=%.10g px_xmin=%.10g px_xmax=%.10g px_ymin=%.10g px_ymax=%.10g min_pt=%.10g ylog=%d xlog=0 x_min=%.10g x_max=%.10g y_min=%.10g y_max=%.10g data_xmin=%.10g data_xmax=%.10g data_ymin=%.10g data_ymax=%.10g pad=1", \
        term, slides, GPVAL_TERM_XSIZE / GPVAL_TERM_SCALE, GPVAL_TERM_YSIZE / GPVAL_TERM_SCALE, \
        GPVAL_TERM_XMIN, GPVAL_TERM_XMAX, GPVAL_TERM_YMIN, GPVAL_TERM_YMAX, min_pt, ylog, \
        GPVAL_X_MIN, GPVAL_X_MAX, GPVAL_Y_MIN, GPVAL_Y_MAX, -1.5 * 0.22, n_rows - 1 + 1.5 * 0.22, \
        ylog ? (lowest > 0 ? lowest : lowest_pos) : 0, highest)
    # the stems (log axis: from the floor to each value), which no label may cross
    if (ylog) {
        set table $review_stems
        plot for [k=1:3] datafile using (xat(k)):(cl(column(k+1))) with points, '' using (xat(4)):(cl($5)) with points
        unset table
        do for [q=1:|$review_stems|] {
            line = $review_stems[q]
            if (words(line) >= 2 && line[1:1] ne "#") { print sprintf("review-stem panel=1 x=%s y=%s", word(line, 1), word(line, 2)) }
        }
    }
    do for [m=1:n_lab] {
        print sprintf("review-label panel=1 where=data x=%.10g y=%.10g pt=%.10g chars=%d dy_em=1.3", LX[m], LY[m], lab_pt, strlen(LS[m]))
    }
}
