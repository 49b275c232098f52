# The book's Figure 5.2: for a short window around a stall, one bar per
# request from where its tester's latency starts to its reply (the
# intended send, or for latency_from = sent the actual send, the wait
# before it a thin dashed line), a dot where it was really sent; one panel per tester, stalls shaded. A paced tester's slots
# never sent are hollow circles at their intended time; the samples a
# corrected tester adds are hatched bars (the correction fills the gap the
# paced tester left; the open loop queues).
#
# This is the style cosim appends to the generated requests.gp. It expects:
#   datafile        one block per tester: intended_s sent_s reply_s row kind
#                   start_s service_s (kind 0 sent, 1 synthetic, 2 never
#                   sent; start_s where the tester's latency starts,
#                   service_s where its service started: a bar is drawn
#                   light from the send (or start_s, when later) to
#                   service_s, the time it queued at the server)
#   stallsfile      start_s end_s of each stall: one block per tester (its
#                   windows and the request stalls its requests met)
#   counts          the number of requests of each block, space separated
#   seen, never, synthetic, every, from_sent   per tester: requests in the
#                   window, slots never sent, synthetic samples, thinning
#                   (1: every bar), 1 if its latency starts at the actual send
#   shaded          per tester: the stall windows its panel shades (block
#                   i-1 of stallsfile); "grey: stall" is said only if some are
#   chart_title, chart_subtitle, testers, xfrom, xto (seconds), outfile, term
# Restyle freely: cosim reads this file each time it runs.

n = words(testers)
panel_px = 330
# style 'slides' (cosim --style slides): one 16:9 page, 1920 x 1080 px (a
# 13.33 x 7.5 in PDF), the panels in a grid of two columns from three
# panels on, text sized for the back of a hall; else a column of panels
slides = exists("style") && style eq "slides"
cols = slides && n >= 3 ? 2 : 1
rows = (n + cols - 1) / cols
# Speed: gnuplot re-arms its SIGFPE handler (two sigaction and one
# sigprocmask system calls) for every expression in a `using` at every
# data point unless told not to; the timeline's filters made 11,500 such
# evaluations (35 ms of its 260 ms). No division by zero can trap: every
# integer % below has a divisor of at least 1.
set datafile nofpe_trap

# gnuplot's svg terminal draws a point of size 1 as wide as 0.75 of the
# font's size (13.5 px at 18 pt, 24 px at 32 pt: measured, a square of ps
# 10 was 135 px wide in svg at 18 pt), pngcairo about 6.2 px whatever the
# font (63 px at ps 10): points scaled by 8.3 / font size in svg, so a
# lecture page's marker is the size of the png's
ptscale = term eq "svg" ? 8.3 / (slides ? 24 : 18) : 1.0
# the text's size (pt): a slide's at least 32 px on its 1080 px page (24
# pt in a png or svg, 16 in a pdf: 22 pt, 29 px, was too small projected)
font_pt = slides ? (term eq "pdfcairo" ? 16 : 24) : (term eq "pdfcairo" ? 11 : 18)
# and a hollow point's ring is drawn with a stroke that scales with it:
# ~0.5 px at the png's size, too faint to see projected. In svg the
# hollow circles are a ring glyph (U+25CB) in the chart's font instead
# (~13 px across at 18 pt, its stroke ~1.5 px), in the key too
ring_pt = term eq "svg" ? "\342\227\213" : 6
# title and subtitle sizes (points) and the canvas height in points (a png
# or svg pixel counts as a point)
pdf = term eq "pdfcairo"
title_pt = slides ? (pdf ? 22 : 44) : (pdf ? 15 : 24)
subtitle_pt = slides ? (pdf ? 16 : 24) : (pdf ? 10 : 16)
# a long title or subtitle shrinks to fit the page's width rather than run
# off it (a Sans character is at most about 0.6 of its size wide; room_pt
# the width a title may take), and the subtitle stays smaller than the title
room_pt = 0.94 * (slides ? (pdf ? 960 : 1920) : (pdf ? 720 : 1600))
# (pngcairo draws a pt as 1.33 px: figure_5_2's 67-character title at 44
# pt ran ~2270 px across a 1920 px slide, both ends cut)
cw = term eq "pdfcairo" ? 0.6 : 0.8   # svg as png: both draw text 4/3 px a point
fit_pt(pt, text) = strlen(text) * pt * cw > room_pt ? int(room_pt / (cw * strlen(text))) : pt
title_pt = fit_pt(title_pt, chart_title)
subtitle_pt = fit_pt(subtitle_pt, chart_subtitle)
subtitle_pt = subtitle_pt <= 0.8 * title_pt ? subtitle_pt : int(0.8 * title_pt)
# no text under the style's minimum (20 px on a 1600 px page, 32 px on a
# 1080 px slide): a subtitle too long at that size is wrapped below
min_text_pt = slides ? (pdf ? 16 : 24) : (pdf ? 9 : 15)
subtitle_pt = subtitle_pt >= min_text_pt ? subtitle_pt : min_text_pt
# on a slide one subtitle size on all four charts (22 pt, a pdf's 11): a
# subtitle too long for the page at that size is wrapped to two lines at
# the "; " (else the space) nearest its middle, not shrunk (fit_pt took
# stall_every_5s's 118 characters to 19 pt, others' further)
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

# one look per tester, as in spectrum.gp (cosim's styles: the first closed,
# paced, corrected, open and partly_open tester are 1..5, every other the
# first free of 6..8 then 1..5), so a tester has the same colour and marker
# on every chart
array colours[8] = ["#D55E00", "#E69F00", "#0072B2", "#009E73", "#CC79A7", "#56B4E9", "#882255", \
                    "#999933"]
array markers[8] = [7, 5, 9, 13, 11, 6, 4, 8]
style(i) = exists("styles") ? word(styles, i) + 0 : i
sty(i) = style(i) == 0 ? 1 : (style(i)-1)%8+1
colour(i) = colours[sty(i)]
marker(i) = markers[sty(i)]
label(i) = exists("labels") ? labels[i] : label(i)
# the rows of every panel, for one shared axis when they overlap
rmin = 1e300; rmax = -1e300; span = 1
array prmin[n]
array prmax[n]
do for [i=1:n] {
    if (word(counts, i) + 0 > 0) {
        stats datafile index (i-1) using 4 nooutput
        rmin = STATS_min < rmin ? STATS_min : rmin
        rmax = STATS_max > rmax ? STATS_max : rmax
        span = STATS_max - STATS_min > span ? STATS_max - STATS_min : span
        prmin[i] = STATS_min; prmax[i] = STATS_max
        minspan = (exists("minspan") ? (STATS_max - STATS_min < minspan ? STATS_max - STATS_min : minspan) \
                                     : STATS_max - STATS_min)
    }
}
# The time axis holds every bar it shows: a bar that runs past the window's
# end (one_stall's and stall_range's open loop replied up to 2.19 s, the
# panel stopped at 1.5 s, the bars cut with no mark) widens the axis to
# its reply, up to twice the window; past that the axis stops at the
# window's end plus the widening, each bar running past ends in an arrow
# head at the edge, and the key gives the last reply
last_reply = xto
array plast[n]
do for [i=1:n] {
    plast[i] = xfrom
    if (word(counts, i) + 0 > 0) {
        stats datafile index (i-1) using ($5 == 2 ? xfrom : $3) nooutput
        plast[i] = STATS_max
        last_reply = STATS_max > last_reply ? STATS_max : last_reply
    }
}
xto_ax = last_reply <= xfrom + 2 * (xto - xfrom) ? last_reply : xfrom + 2 * (xto - xfrom)
# a little room after the last reply, so no bar ends on the frame
xto_ax = xto_ax + (xto_ax - xfrom) * 0.02
runs_past = last_reply > xto_ax
# numbers with thousands separators (mm1_rho08's rows near 3.2 million
# read "3198920"): whole numbers, and times with the decimals a step needs
thou(v) = v < 0 ? "-".thou(-v) : v < 999.5 ? sprintf("%.0f", v) : thou(floor((v + 0.5) / 1000)).sprintf(",%03.0f", floor(v + 0.5) - 1000 * floor((v + 0.5) / 1000))
thoud(v, dec) = dec <= 0 ? thou(v) : thou(floor(v)).sprintf(sprintf("%%.%df", dec), v - floor(v))[2:]
# one shared axis only when it squashes no panel: a fast closed tester's
# hundreds of rows beside an open one's tens (gc_log) get an axis each
minspan = exists("minspan") ? (minspan > 1 ? minspan : 1) : 1
shared = (rmax - rmin) <= 3 * minspan
# the queue wait of a request sent: from its send (or where its latency
# starts, when later) to its service's start; qd[i] 1 when some request of
# tester i waited (pool5_users6's ten 2 s transactions: a second for a free
# worker, then a second of service; one_stall's open loop behind request 90)
wstart(s2, s6) = s2 > s6 ? s2 : s6
waited(s2, s6, s7) = s7 > wstart(s2, s6)
array qd[n]
do for [i=1:n] {
    qd[i] = 0
    if (word(counts, i) + 0 > 0) {
        stats datafile index (i-1) using (($5 == 0 && waited($2, $6, $7)) ? 1 : 0) nooutput
        qd[i] = STATS_max > 0
    }
}
# Panel height from the rows (the default style; a slide's page is fixed):
# a hollow circle needs about 12 px and a hatched bar 14 px (10 of bar, 4
# of gap), so a panel whose rows fit in at most 60 rows' height (840 px of
# plot, the most requests cosim keeps unthinned in a panel) grows until
# every row has 14 px, and every never-sent slot, corrected sample and bar
# is drawn (stall_per_second's 40-row panels had ~5 px a row: 1 in 3 of the
# never-sent slots drawn, the open loop's bars a wedge). A panel of more
# rows keeps 330 px and is thinned, or grows to 840 px when it holds
# never-sent or corrected samples, its key saying how many are drawn. All
# panels take the tallest one's height (gnuplot's layout), the page at most
# 6000 px high (docs/decisions.md, "request bars' panel height")
row_min_px = 14.0
grow_cap_px = 60 * row_min_px
panel_px = 330
if (!slides) {
    do for [i=1:n] {
        if (word(counts, i) + 0 > 0) {
            lo_g = shared ? rmin : prmin[i]; hi_g = shared ? rmax : prmax[i]
            pad_g = (hi_g - lo_g) / 25.0 > 1 ? (hi_g - lo_g) / 25.0 : 1
            need_g = (hi_g - lo_g + 2 * pad_g) * row_min_px
            need_g = need_g <= grow_cap_px ? need_g : \
                     ((word(never, i) + 0) + (word(synthetic, i) + 0) > 0 ? grow_cap_px : 0)
            ent_g = 1 + qd[i] + (plast[i] > xto_ax) + (word(synthetic, i) + 0 > 0) \
                    + (exists("from_sent") ? word(from_sent, i) + 0 : 0) + (word(never, i) + 0 > 0)
            want_g = ceil(need_g + 70 + 27 * ((ent_g + 1) / 2))
            panel_px = want_g > panel_px ? want_g : panel_px
        }
    }
    panel_px = 200 + n * panel_px <= 6000 ? panel_px : int((6000 - 200) / n)
}
canvas_pt = slides ? (pdf ? 540 : 1080) : (pdf ? (1.3 + n * 2.1 * panel_px / 330.0) * 72 : (200 + n * panel_px))
if (term eq "pngcairo") {
    if (slides) { set terminal pngcairo enhanced size 1920,1080 font "Sans,24" linewidth 3 } \
    else { set terminal pngcairo enhanced size 1600, (200 + n * panel_px) font "Sans,18" linewidth 2 }
} else {
    if (term eq "pdfcairo") {
        if (slides) { set terminal pdfcairo enhanced size 13.333in,7.5in font "Sans,16" linewidth 3 } \
        else { set terminal pdfcairo enhanced size 10in, (1.3 + n * 2.1 * panel_px / 330.0)*1in font "Sans,11" linewidth 2 }
    } else {
        if (slides) { set terminal svg enhanced size 1920,1080 font "Sans,24" fontscale 4.0/3 linewidth 3 background "white" } \
        else { set terminal svg enhanced size 1600, (200 + n * panel_px) font "Sans,18" fontscale 4.0/3 linewidth 2 background "white" }
    }
}
set output outfile
# the title larger than the subtitle: the multiplot title keeps room for
# three lines, the subtitle is a label on the second
anyshaded = 0
do for [i=1:n] { anyshaded = anyshaded || (exists("shaded") ? word(shaded, i) + 0 : 1) }
what_bars = "time (".(xto_ax >= 10 ? "s" : "ms")."): bar from where the tester's latency starts to the reply, dot at the actual send". \
            (anyshaded ? "; grey: stall" : "")."\nrows: each request's index in the run (a paced tester's: its slot)"
# a slide: the grid's panels share one note at the page's foot
if (slides) { set label 97 what_bars at screen 0.5, screen 0.045 center font sprintf(",%d", subtitle_pt) }
if (slides) { set multiplot title chart_title."\n\n" noenhanced font sprintf(",%d", title_pt) } \
else { set multiplot layout rows, cols title chart_title."\n\n" noenhanced font sprintf(",%d", title_pt) }
# (a wrapped subtitle a little higher, its second line clear of the keys
# below: on a slide stall_per_second's touched the first panels' keys; its
# place from the title's size and its own, as a long title shrinks:
# stall_every_5s's 26 pt title and 24 pt subtitle were drawn over each other)
sub_wrapped = strstrt(chart_subtitle, "\n") > 0
set label 99 chart_subtitle at screen 0.5, screen (1 - (sub_wrapped ? 1.9 * title_pt + 1.3 * subtitle_pt : 3.0 * title_pt) / canvas_pt) center noenhanced \
    font sprintf(",%d", subtitle_pt)
set grid xtics lc rgb "#b0b0b0"
set border 3
set tics nomirror
set ylabel (slides ? "" : "request")
# each panel's key above it, never over its bars or dots
# (on a slide, a half-page panel: an entry a line, as in timeline.gp; a row
# of stall_every_5s's long entries ran past the page's edge and gnuplot
# warned "difficulty fitting plot titles into key")
if (slides) { set key outside top center horizontal maxcols 1 Left reverse noenhanced samplen 1.5 nobox width -30 } \
else { set key outside top center horizontal noenhanced samplen 1.5 nobox width -4 }
# fixed margins, so the panels line up whatever the names
set lmargin (slides ? 9 : 14)
set rmargin (slides ? 2 : 4)
# a slide's panels placed by hand, as in timeline.gp (gnuplot's layout took
# each key's lines from its own panel: stall_per_second's corrected panel,
# under a three-line key, was ~110 px tall beside its neighbours' ~200):
# every panel the same plot height, a row's keys in a band above it as
# tall as its longest key (~34 px a line of a 1080 px page), tick labels in
# a 70 px band under each row, the two-line note at the foot
key_entries(i) = 1 + qd[i] + (plast[i] > xto_ax) + (word(synthetic, i) + 0 > 0) + (exists("from_sent") ? word(from_sent, i) + 0 : 0) \
                 + (word(never, i) + 0 > 0)
array rkey[rows]
do for [r=1:rows] { rkey[r] = 1 }
do for [i=1:n] { r = (i - 1) / cols + 1; rkey[r] = key_entries(i) > rkey[r] ? key_entries(i) : rkey[r] }
keys_px = 0
do for [r=1:rows] { keys_px = keys_px + rkey[r] * 42 + 14 }
sl_top = (sub_wrapped ? 190.0 : 170.0) / 1080; sl_foot = 175.0 / 1080; sl_gap = 70.0 / 1080
sl_plot = (1 - sl_top - sl_foot - keys_px / 1080.0 - (rows - 1) * sl_gap) / rows
array rtop[rows]
rtop[1] = 1 - sl_top
do for [r=2:rows] { rtop[r] = rtop[r-1] - (rkey[r-1] * 42 + 14) / 1080.0 - sl_plot - sl_gap }
sl_ptop(r) = rtop[r + 1] - (rkey[r + 1] * 42 + 14) / 1080.0
# the left margin as wide as the longest row number (~19 px a digit at 22
# pt, and the tick's gap): stall_every_5s's closed rows "238500" were cut
# at the page's edge in a fixed 125 px
row_digits = rmax >= 1 ? int(log10(rmax + 0.5)) + 1 : 1
sl_lm = ((row_digits > 4 ? row_digits * 4 / 3 : 4) * 21 + 40) / 1920.0
sl_left(p) = cols == 1 || (p - 1) % cols == 0 ? sl_lm : 0.5 + sl_lm
sl_right(p) = cols == 1 || (p - 1) % cols == 1 ? 0.98 : 0.48   # room for the last x label
do for [i=1:n] {
    if (i == 2) { unset label 99; unset label 97 }
    if (slides) {
        r = (i - 1) / cols
        set lmargin at screen sl_left(i); set rmargin at screen sl_right(i)
        set tmargin at screen sl_ptop(r); set bmargin at screen sl_ptop(r) - sl_plot
        # one column, an entry a line (gnuplot's own count of rows, from
        # the short plot's height, put stall_every_5s's entries in
        # columns over each other)
        # from the panel's left edge (over its axis name), not centred: a
        # 24 pt entry is up to ~900 px, the panel ~710 px wide
        # (from the left of the panel's half: after a wide row number,
        # stall_every_5s's right-hand keys ran past the page)
        key_x = cols == 1 || (i - 1) % cols == 0 ? 0.015 : 0.515
        set key at screen key_x, screen rtop[r + 1] - 6 / 1080.0 left top maxcols 1
    }
    set autoscale xy
    empty = word(counts, i) + 0 == 0
    # the slowest request sent, kept when the bars are thinned (stats reads
    # the ranges, so before they are set)
    slowest = 0
    if (!empty && word(every, i) + 0 > 1) {
        stats datafile index (i-1) using ($5 == 0 ? $3 - $6 : NaN) nooutput; slowest = STATS_max
    }
    panel_last = xfrom; panel_first = xto
    if (!empty) {
        stats datafile index (i-1) using ($5 == 2 ? xfrom : $3) nooutput; panel_last = STATS_max
        stats datafile index (i-1) using 1 nooutput; panel_first = STATS_min
    }
    past = panel_last > xto_ax
    if (!empty) { stats datafile index (i-1) using 4 nooutput }
    lo = empty ? 0 : (shared ? rmin : STATS_min)
    hi = empty ? 1 : (shared ? rmax : STATS_max)
    pad = (hi - lo) / 25.0 > 1 ? (hi - lo) / 25.0 : 1   # the first and last rows clear of the axes
    # a few rows: ticks on real rows only (not on the padding above and below)
    # more rows: three to five row ticks (a step of 1, 2 or 5 x 10^k at
    # least a quarter of the rows: closed's 280 rows had 50, six labels),
    # printed whole (gnuplot's default format wrote mm1_rho08's rows near
    # 3.2 million as "3.1989x10^6" three times over)
    rs = (hi - lo) / 4.0
    mag = rs > 0 ? 10 ** floor(log10(rs)) : 1
    tstep = rs / mag > 5 ? 10 * mag : rs / mag > 2 ? 5 * mag : rs / mag > 1 ? 2 * mag : mag
    tstep = tstep >= 1 ? tstep : 1
    ystep_r = hi - lo <= 12 && !(slides && hi - lo > 6) ? (hi - lo <= 6 ? 1 : 2) : tstep
    yfirst = hi - lo <= 12 && !(slides && hi - lo > 6) ? lo : ystep_r * ceil((lo - pad) / ystep_r)
    set ytics (thou(yfirst) yfirst)
    do for [k=1:int((hi + pad - yfirst) / ystep_r)] { set ytics add (thou(yfirst + k * ystep_r) yfirst + k * ystep_r) }
    # time ticks likewise: four to six on a step of 1, 2 or 5 x 10^k ms,
    # whole ms when the step is (mm1_rho08's window 4000 s into the run
    # had "3.99998x10^6" under each tick)
    # (in ms up to 10 s into the run, else in s: mm1_rho08's window 4000 s
    # in read "4000000" under each tick; now "4,000.01"), thousands
    # separated, with the decimals the step needs
    xs = (xto_ax - xfrom) * 1000 / (slides && cols > 1 ? 4.0 : 6.0)
    xmag = xs > 0 ? 10 ** floor(log10(xs)) : 1
    xstep = xs / xmag > 5 ? 10 * xmag : xs / xmag > 2 ? 5 * xmag : xs / xmag > 1 ? 2 * xmag : xmag
    x_in_s = xto_ax >= 10
    xdiv = x_in_s ? 1000.0 : 1.0
    xdec = xstep / xdiv >= 1 ? 0 : int(ceil(-log10(xstep / xdiv) - 1e-9))
    set xtics ()
    do for [k=int(ceil(xfrom * 1000 / xstep - 1e-9)):int(floor(xto_ax * 1000 / xstep + 1e-9))] {
        set xtics add (thoud(k * xstep / xdiv, xdec) k * xstep)
    }
    # dense markers thinned to what the panel's height shows apart: a 500
    # ms stall at 1000/s leaves ~500 slots never sent and ~500 synthetic
    # samples, one a row, that merged into a solid band and a solid
    # triangle. The plot area's height (px, about: the panel less its key
    # and tick labels) over the rows it shows gives a row's height; a
    # hollow circle needs about 12 px, a hatched bar 14 px (10 of bar, 4 of
    # gap), so every k-th slot is drawn (row divisible by k) and the key
    # says "1 in k"; a thinned bar's half-height is 0.35 k rows
    # the key above the panel takes a line an entry on a slide, two entries
    # a line else
    entries = 1 + qd[i] + (plast[i] > xto_ax) + (word(synthetic, i) + 0 > 0) + (exists("from_sent") ? word(from_sent, i) + 0 : 0) \
              + (word(never, i) + 0 > 0)
    key_lines = slides ? entries : (entries + 1) / 2
    plot_px = slides ? sl_plot * 1080 : panel_px - 70 - 27 * key_lines
    plot_px = plot_px > 40 ? plot_px : 40
    row_px = plot_px / (hi - lo + 2 * pad)
    # bar half-height: visible in a tall panel, and at least 5 px (a 10 px
    # bar, about a thinned bar's): stall_every_5s's paced panel of ~540
    # rows in ~150 px drew its one slow request, 2500 -> 3000 ms, as a
    # 2-3 px bar that read as one of the thin "waited" lines (those now
    # dashed, and drawn under the bars: row 2501's wait, 2501 -> 3000 ms,
    # lies 0.3 px from that bar)
    bh = (hi - lo) / 100.0 > 0.35 ? (hi - lo) / 100.0 : 0.35
    bh = bh * row_px >= 5 ? bh : 5.0 / row_px
    # but rows apart when a bar of 0.8 row is still 4 px tall: 5 px bars on
    # pool5_users6's ~6 px rows overlapped, and each 2 s bar's light queue
    # wait lay under the next row's bar
    bh = bh > 0.4 && 0.8 * row_px >= 4 ? 0.4 : bh
    # (one k for both, so each circle sits at the start of its hatched bar)
    ksy = 14.0 / row_px > 1 ? int(ceil(14.0 / row_px)) : 1
    knv = ksy
    bhs = ksy > 1 ? 0.35 * ksy : bh
    # requests sent, once cosim already thinned them (every > 1: hundreds
    # in the window; cosim keeps every ev-th and each slow one): when the
    # rows kept do not fit 14 px apart (an open loop queueing through a
    # stall, every one of them slow: stall_every_5s's 508 bars kept drew a
    # solid triangle), every kb-th row (a multiple of cosim's step) and the
    # slowest, so the bars stay apart
    ev = word(every, i) + 0
    kept = 0
    if (!empty && ev > 1) { stats datafile index (i-1) using ($5 == 0 ? 1 : 0) nooutput; kept = STATS_sum }
    thin_sent = ev > 1 && (ksy > ev || kept * 14.0 > plot_px)
    kb = thin_sent ? ev * (ksy > ev ? int(ceil(1.0 * ksy / ev)) : 1) : ev
    sent(r, lat) = !thin_sent || int(r) % kb == 0 || lat >= slowest
    if (thin_sent) { bh = 0.35 * kb }
    # how many of each are drawn, counted from the data as the plot below
    # filters them (stats, before the ranges are set: it reads only rows
    # inside them), for the key: "4 of 10 drawn", not a bare "1 in 3"
    nv = word(never, i) + 0
    sy = word(synthetic, i) + 0
    nv_drawn = nv; sy_drawn = sy; sent_drawn = word(seen, i) + 0
    if (!empty && knv > 1 && nv > 0) {
        stats datafile index (i-1) using ($5 == 2 && int($4) % knv == 0 ? 1 : 0) nooutput; nv_drawn = int(STATS_sum)
    }
    if (!empty && ksy > 1 && sy > 0) {
        stats datafile index (i-1) using ($5 == 1 && int($4) % ksy == 0 ? 1 : 0) nooutput; sy_drawn = int(STATS_sum)
    }
    if (!empty && ev > 1) {
        stats datafile index (i-1) using ($5 == 0 && sent($4, $3 - $6) ? 1 : 0) nooutput; sent_drawn = int(STATS_sum)
    }
    set xrange [xfrom * 1000 : xto_ax * 1000]
    set yrange [hi + pad : lo - pad]
    if (i == n && !slides) { set xlabel what_bars } else { unset xlabel }
    # a slide's bottom row: its axis named, room below for the shared note
    if (slides && i > n - cols) { set xlabel (xto_ax >= 10 ? "time (s)" : "time (ms)") offset 0,0.5 }
    fs = exists("from_sent") ? word(from_sent, i) + 0 : 0
    # a panel without stalls queues only for a busy worker (pool5_users6);
    # with one, a request may wait for the stall window's end instead
    sh = exists("shaded") ? word(shaded, i) + 0 : 1
    name = label(i).(fs ? ": latency from the actual send" : "") \
           .(thin_sent ? sprintf(" (%s of %s drawn: 1 in %d, and the slowest)", thou(sent_drawn), thou(word(seen, i) + 0), kb) : \
             ev > 1 ? sprintf(" (%s of %s drawn: 1 in %d, and each slow one)", thou(sent_drawn), thou(word(seen, i) + 0), ev) : "")
    sy_title = sy > 0 ? sprintf("added by the correction: %s", thou(sy)).(sy_drawn < sy ? \
               sprintf(" (%s drawn: 1 in %d)", thou(sy_drawn), ksy) : "") : ""
    nv_title = nv > 0 ? sprintf("planned, never sent: %s", thou(nv)).(nv_drawn < nv ? \
               sprintf(" (%s drawn: 1 in %d)", thou(nv_drawn), knv) : "") : ""
    unset label 1
    if (empty) { set label 1 "no request in this window" at graph 0.5, 0.5 center }
    # a slide's key: one entry a line (maxcols 1), its column narrowed by
    # up to 30 characters so gnuplot finds it fits the half-page panel, but
    # never below its longest entry less 6: a negative column width put
    # stall_per_second's "open" and "queued at the server" on one line, over
    # each other
    key_chars = strlen(name)
    key_chars = strlen(sy_title) > key_chars ? strlen(sy_title) : key_chars
    key_chars = strlen(nv_title) > key_chars ? strlen(nv_title) : key_chars
    key_chars = fs && key_chars < 44 ? 44 : key_chars
    key_chars = qd[i] && key_chars < (sh ? 20 : 43) ? (sh ? 20 : 43) : key_chars
    if (slides) { set key width -(key_chars - 6 < 30 ? key_chars - 6 : 30) }
    plot stallsfile index (i-1) using (($1+$2)*500):((hi+lo)/2.0):(($2-$1)*500):((hi-lo)/2.0 + pad) \
             with boxxyerror fs solid 0.25 noborder lc rgb "#999999" notitle, \
         datafile index (i-1) using ($5 == 1 && int($4) % ksy == 0 ? $1*1000 : NaN):4:($1*1000):($3*1000) \
             :($4-bhs):($4+bhs) with boxxyerror fs pattern 4 border lc rgb colour(i) \
             title sy_title, \
         datafile index (i-1) using ($5 == 0 && $6 > $1 && sent($4, $3 - $6) ? $1*1000 : NaN):4:($6*1000 - $1*1000):(0) \
             with vectors nohead lw 1 dt (4,4) lc rgb colour(i) \
             title (fs ? "waited before the send (not in its latency)" : ""), \
         datafile index (i-1) using ($5 == 0 && sent($4, $3 - $6) && $2 > $6 ? $6*1000 : NaN):4:($6*1000):($2*1000) \
             :($4-bh):($4+bh) with boxxyerror fs solid 0.8 noborder lc rgb colour(i) notitle, \
         datafile index (i-1) using ($5 == 0 && sent($4, $3 - $6) ? $3*1000 : NaN):4 \
             :((waited($2, $6, $7) ? $7 : wstart($2, $6))*1000):($3*1000):($4-bh):($4+bh) \
             with boxxyerror fs solid 0.8 noborder lc rgb colour(i) title name, \
         datafile index (i-1) using ($5 == 0 && sent($4, $3 - $6) && waited($2, $6, $7) ? $7*1000 : NaN):4 \
             :(wstart($2, $6)*1000):($7*1000):($4-bh):($4+bh) \
             with boxxyerror fs solid 0.3 border lc rgb colour(i) lc rgb colour(i) \
             title (qd[i] ? (slides ? "" : "    ")."queued at the server".(sh ? "" : " (waiting for a worker)") : ""), \
         datafile index (i-1) using ($5 == 0 && sent($4, $3 - $6) ? $2*1000 : NaN):4 with points pt 7 ps (1.0 * ptscale) lc rgb "#000000" \
             notitle, \
         datafile index (i-1) using ($5 == 2 && int($4) % knv == 0 ? $1*1000 : NaN):4 with points pt ring_pt \
             ps (1.3 * ptscale) lw 1.5 lc rgb colour(i) \
             title nv_title, \
         datafile index (i-1) using ($5 != 2 && $3 > xto_ax && sent($4, $3 - $6) ? xto_ax*1000 : NaN):4:("\342\226\266") \
             with labels right tc rgb colour(i) \
             title (past ? sprintf("\342\226\266 runs past the axis: the last reply at %s ms", thou(panel_last * 1000)) : "")
    # review (tests/charts_review.sh: gnuplot -e "review=1"): this panel's
    # plot area, axes and bars (marked: the bars past the axis end in an
    # arrow head), for the chart review's checks
    if (exists("review")) {
        set print "-"
        print sprintf("review chart=requests panel=%d term=%s slides=%d canvas_w=%.10g canvas_h=%.10g px_xmin=%.10g px_xmax=%.10g px_ymin=%.10g px_ymax=%.10g min_pt=%.10g ylog=0 xlog=0 x_min=%.10g x_max=%.10g y_min=%.10g y_max=%.10g data_xmax=%.10g data_ymin=%.10g data_ymax=%.10g pad=1 marked=%d", \
            i, term, slides, GPVAL_TERM_XSIZE / GPVAL_TERM_SCALE, GPVAL_TERM_YSIZE / GPVAL_TERM_SCALE, \
            GPVAL_TERM_XMIN, GPVAL_TERM_XMAX, GPVAL_TERM_YMIN, GPVAL_TERM_YMAX, \
            (subtitle_pt < font_pt ? subtitle_pt : font_pt), GPVAL_X_MIN, GPVAL_X_MAX, GPVAL_Y_MIN, GPVAL_Y_MAX, \
            panel_last * 1000, empty ? GPVAL_Y_MIN : lo, empty ? GPVAL_Y_MIN : hi, past)
        # what each kind drew of how many, and the key's text that says so
        # (the review fails a thinned never-sent or corrected sample unless
        # the key gives the count drawn)
        print sprintf("review-thin panel=%d what=never total=%d drawn=%d text=%s", i, nv, nv_drawn, nv_title)
        print sprintf("review-thin panel=%d what=corrected total=%d drawn=%d text=%s", i, sy, sy_drawn, sy_title)
        print sprintf("review-thin panel=%d what=sent total=%d drawn=%d text=%s", i, word(seen, i) + 0, sent_drawn, name)
        # a slide's key, placed by hand: its longest entry must end on the page
        if (slides) {
            print sprintf("review-key panel=%d x_screen=%.6g chars=%d pt=%g samplen=1.5", i, key_x, key_chars, font_pt)
        }
    }
}
unset multiplot
