# Latency of each request against its intended send time (or, with
# --timeline-by reply, its reply time, as dashboards plot it), one panel per
# tester, stall windows shaded: the closed loop's single dot per stall
# against the open loop's triangle of queued requests. The corrected
# tester's added samples are hollow. Under the panels, the backlog: the
# requests each tester has at the server (sent, not yet answered).
#
# This is the style cosim appends to the generated timeline.gp. It expects:
#   datafile        one block per tester: time_s latency_ms kind (0 a
#                   request, 1 a sample the correction added, 3 and 4 a
#                   bin's largest and mean latency when binned); then one
#                   block per tester: time_s requests (the backlog)
#   stallsfile      start_s end_s of each stall: one block per tester (its
#                   windows and the request stalls its requests met), then
#                   the windows alone (the backlog panel's)
#   shaded, shaded_all   the stalls each tester's panel shades, and the
#                   backlog panel's: "grey: stall" is said only when drawn
#   counts          the number of rows of each block, space separated
#   seen, synthetic, exact   per tester: requests in the window, added
#                   samples, 1 if every request is drawn (0: binned)
#   timeline_by     'intended' or 'reply'
#   chart_title, chart_subtitle, testers, xfrom, xto (seconds), ylog,
#   outfile, term
# Restyle freely: cosim reads this file each time it runs.

n = words(testers)
panel_px = 300
# style 'slides' (cosim --style slides): one 16:9 page, 1920 x 1080 px (a
# 13.33 x 7.5 in PDF), the panels in a grid of two columns from three
# panels on, text sized for the back of a hall; else a column of panels
slides = exists("style") && style eq "slides"
cols = slides && n + 1 >= 3 ? 2 : 1
rows = (n + 1 + cols - 1) / cols
# an odd number of panels in two columns: the backlog spans the last row
# (in a cell of its own it left the cell beside it empty)
wide_backlog = cols == 2 && (n + 1) % 2 == 1
# Speed: gnuplot re-arms its SIGFPE handler (two sigaction and one
# sigprocmask system calls) for every expression in a `using` at every
# data point unless told not to; the timeline's filters made 11,500 such
# evaluations (35 ms of its 260 ms). No division by zero can trap: every
# integer % below has a divisor of at least 1.
set datafile nofpe_trap

if (term eq "pngcairo") {
    if (slides) { set terminal pngcairo enhanced size 1920,1080 font "Sans,24" linewidth 3 } \
    else { set terminal pngcairo enhanced size 1600, (200 + (n + 1) * panel_px) font "Sans,18" linewidth 2 }
} else {
    if (term eq "pdfcairo") {
        if (slides) { set terminal pdfcairo enhanced size 13.333in,7.5in font "Sans,16" linewidth 3 } \
        else { set terminal pdfcairo enhanced size 10in, (1.3 + (n + 1) * 2)*1in font "Sans,11" linewidth 2 }
    } else {
        if (slides) { set terminal svg enhanced size 1920,1080 font "Sans,24" fontscale 4.0/3 linewidth 3 background "white" } \
        else { set terminal svg enhanced size 1600, (200 + (n + 1) * panel_px) font "Sans,18" fontscale 4.0/3 linewidth 2 background "white" }
    }
}
set output outfile
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
canvas_pt = slides ? (pdf ? 540 : 1080) : (pdf ? (1.3 + (n + 1) * 2) * 72 : (200 + (n + 1) * panel_px))

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
byreply = timeline_by eq "reply"
# the title larger than the subtitle: the multiplot title keeps room for
# three lines, the subtitle is a label on the second
if (slides) { set multiplot title chart_title."\n\n" noenhanced font sprintf(",%d", title_pt) } \
else { set multiplot layout rows, cols title chart_title."\n\n" noenhanced font sprintf(",%d", title_pt) }
# (a wrapped subtitle a little higher, its second line clear of the keys
# below: on a slide stall_per_second's touched the first panels' keys; its
# place from the title's size and its own, as a long title shrinks:
# stall_every_5s's 26 pt title and 24 pt subtitle were drawn over each other)
sub_wrapped = strstrt(chart_subtitle, "\n") > 0
set label 99 chart_subtitle at screen 0.5, screen (1 - (sub_wrapped ? 1.9 * title_pt + 1.3 * subtitle_pt : 3.0 * title_pt) / canvas_pt) center noenhanced \
    font sprintf(",%d", subtitle_pt)
set grid xtics ytics lc rgb "#b0b0b0"
# the time axis, padded by 3% of the window on each side (preemption_restart's
# point, its 115 ms request at x = 0, was a dot on the y axis), ticks by hand
# on a step of 1, 2 or 5 x 10^k, four to six of them: in ms for a window
# under 1 s (figure_5_2's 10 ms window read "0.002 ... 0.01" s), else in s,
# thousands separated, with the decimals the step needs (mm1_rho08's
# window 4000 s in read "4000.01"; now "4,000.01")
in_ms = xto - xfrom < 1
tunit = in_ms ? "ms" : "s"
xpad = (xto - xfrom) * 0.03
xlo_ax = xfrom - xpad
xhi_ax = xto + xpad
thou(v) = v < 0 ? "-".thou(-v) : v < 999.5 ? sprintf("%.0f", v) : thou(floor((v + 0.5) / 1000)).sprintf(",%03.0f", floor(v + 0.5) - 1000 * floor((v + 0.5) / 1000))
thoud(v, dec) = dec <= 0 ? thou(v) : thou(floor(v)).sprintf(sprintf("%%.%df", dec), v - floor(v))[2:]
tmul = in_ms ? 1000.0 : 1.0
xs_u = (xto - xfrom) * tmul / 5.0
xmag_u = 10 ** floor(log10(xs_u))
xstep_u = xs_u / xmag_u > 5 ? 10 * xmag_u : xs_u / xmag_u > 2 ? 5 * xmag_u : \
          xs_u / xmag_u > 1 ? 2 * xmag_u : xmag_u
xdec = xstep_u >= 1 ? 0 : int(ceil(-log10(xstep_u) - 1e-9))
set xtics ()
do for [k=int(ceil(xlo_ax * tmul / xstep_u - 1e-9)):int(floor(xhi_ax * tmul / xstep_u + 1e-9))] {
    set xtics add (thoud(k * xstep_u, xdec) k * xstep_u / tmul)
}
set border 3
set tics nomirror
# each panel's key above it, never over its bars or dots; on a slide a
# panel is half the page wide, and a row of long entries (figure_5_3's
# "closed-loop, corrected: each dot one request (200)" beside "samples the
# correction added (9)") did not fit it, so gnuplot dropped the key: there
# an entry a line
if (slides) { set key outside top center horizontal maxcols 1 Left reverse noenhanced samplen 1.5 nobox width -30 } \
else { set key outside top center horizontal noenhanced samplen 1.5 nobox width -4 }
# a slide's panels placed by hand (gnuplot's layout took each key's lines
# from its own panel's height: stall_per_second's backlog panel, under a
# two-line key in one cell, was ~20 px tall with its tick labels on top of
# each other, the corrected panel shorter than its neighbours). Every panel
# gets the same plot height; a row's keys sit in a band above it as tall
# as its longest key (a line a key entry, ~34 px of a 1080 px page), tick
# labels in a 70 px band under each row; fractions of the page, so the
# same for the pdf's 540 pt
key_lines(i) = 1 + (word(exact, i) + 0 ? 0 : 1) + (word(synthetic, i) + 0 > 0 ? 1 : 0)
array rkey[rows]
do for [r=1:rows] { rkey[r] = 1 }
do for [i=1:n] { r = (i - 1) / cols + 1; rkey[r] = key_lines(i) > rkey[r] ? key_lines(i) : rkey[r] }
# the backlog's key: a row across the page, a line a tester in a half-width cell
rkey[rows] = wide_backlog || cols == 1 ? (rkey[rows] > 1 ? rkey[rows] : 1) : (rkey[rows] > n ? rkey[rows] : n)
keys_px = 0
do for [r=1:rows] { keys_px = keys_px + rkey[r] * 42 + 14 }
sl_top = (sub_wrapped ? 190.0 : 170.0) / 1080; sl_foot = 140.0 / 1080; sl_gap = 70.0 / 1080
sl_plot = (1 - sl_top - sl_foot - keys_px / 1080.0 - (rows - 1) * sl_gap) / rows
# the top of row r's key band (r from 0), and of its plot
array rtop[rows]
rtop[1] = 1 - sl_top
do for [r=2:rows] { rtop[r] = rtop[r-1] - (rkey[r-1] * 42 + 14) / 1080.0 - sl_plot - sl_gap }
sl_rowtop(r) = rtop[r + 1]
sl_ptop(r) = rtop[r + 1] - (rkey[r + 1] * 42 + 14) / 1080.0
# place panel p (1-based; wide: the whole row) and its key
sl_lm = 0.085; sl_rm = 0.02   # room for the last x label ("20" was cut at the edge) and a tick "500 ms"
sl_left(p, wide) = wide || cols == 1 ? sl_lm : ((p - 1) % cols == 0 ? sl_lm : 0.5 + sl_lm)
sl_right(p, wide) = wide || cols == 1 ? 1 - sl_rm : ((p - 1) % cols == 0 ? 0.5 - sl_rm : 1 - sl_rm)
# ticks at a step of 1, 2 or 5 x 10^k giving at most four labels on a
# slide's short panel (autofreq gave six, 26 px apart, at 22 pt)
nice_step(range) = range <= 0 ? 1 : (range / 4.0 / 10 ** floor(log10(range / 4.0)) > 5 ? 10 : \
    range / 4.0 / 10 ** floor(log10(range / 4.0)) > 2 ? 5 : \
    range / 4.0 / 10 ** floor(log10(range / 4.0)) > 1 ? 2 : 1) * 10 ** floor(log10(range / 4.0))
# latencies in human units (gnuplot's own ticks printed stall_range's and
# pool5_users6's "1000" to "3000" ms): the values are ms; four significant
# digits, the unit chosen per tick ("500 ms", "1 s", "1.5 s")
hu(v) = v == 0 ? "0" : v < 0.001 ? sprintf("%.4g ns", v * 1e6) : v < 1 ? sprintf("%.4g \302\265s", v * 1e3) \
      : v < 1000 ? sprintf("%.4g ms", v) \
      : v < 60000 || (v < 1e6 && v / 60000.0 != int(v / 60000.0)) ? sprintf("%.4g s", v / 1e3) \
      : v < 3600000 || (v < 6e7 && v / 3600000.0 != int(v / 3600000.0)) ? sprintf("%.4g min", v / 60000.0) \
      : sprintf("%.4g h", v / 3600000.0)
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
# a linear axis: every step from 0 to the top; a log one: 1, 2, 5 x 10^k
# (the 2s and 5s only under two decades)
lat_ticks = "set ytics (); \
  if (ylog) { do for [e_=-6:9] { do for [m_=1:3] { v_ = (m_ == 1 ? 1 : m_ == 2 ? 2 : 5) * 10.0 ** e_; \
      if (v_ >= bottom && v_ <= top && (m_ == 1 || top / bottom < 100)) { set ytics add (hu(v_) v_) } } } } \
  else { do for [k_=0:int(floor(top / ystep + 1e-9))] { set ytics add (hu(k_ * ystep) k_ * ystep) } }"
# a slide's bottom row: its panels' time axes named, and the notes on what
# grey and a backlog point are at the page's foot (under the right-hand
# panel alone they ran off the page)
bottom_row(p) = slides && p > (rows - 1) * cols
xname = byreply ? "reply time (".tunit.")" : "intended send time (".tunit.")"
# fixed margins, so the panels line up whatever the names
set lmargin (slides ? 9 : 14)
set rmargin (slides ? 2 : 4)
do for [i=1:n] {
    if (i == 2) { unset label 99; unset label 97 }
    if (slides) {
        r = (i - 1) / cols
        set lmargin at screen sl_left(i, 0); set rmargin at screen sl_right(i, 0)
        set tmargin at screen sl_ptop(r); set bmargin at screen sl_ptop(r) - sl_plot
        # the key from the panel's left edge (over its axis name), not
        # centred: stall_every_5s's "closed: largest latency of each bin
        # (191090 requests)", ~790 px with its sample, centred on a ~830
        # px plot ran past the page's left edge
        # (0.07 left of the panel: figure_5_3's right-hand "closed-loop,
        # corrected: 200 requests, a dot each" ran a letter past the page)
        key_x = sl_left(i, 0) - 0.07
        set key at screen key_x, screen sl_rowtop(r) - 6 / 1080.0 left top maxcols 1
    }
    set autoscale xy
    set ylabel (slides ? "" : "latency")
    if (ylog) { set logscale y } else { unset logscale y }
    empty = word(counts, i) + 0 == 0
    # the correction's samples thinned to what the panel's width shows
    # apart: stall_every_5s's 499, 1 ms apart, are 0.56 px apart on its
    # 2.5 s axis and drew one thick line. Their mean spacing (stats read
    # before the ranges are set; every row is valid data, so no stats
    # fails) in px of the plot's width, and every k-th drawn (by its place
    # in the block), about 10 px apart
    ksy = 1
    if (!empty && word(synthetic, i) + 0 > 1) {
        stats datafile index (i-1) using ($3 == 1 ? 1 : 0) nooutput
        nsy = STATS_sum
        stats datafile index (i-1) using ($3 == 1 ? $1 : xto) nooutput
        sy_lo = STATS_min
        stats datafile index (i-1) using ($3 == 1 ? $1 : xfrom) nooutput
        sy_hi = STATS_max
        stats datafile index (i-1) using ($3 == 1 ? $2 : 1e300) nooutput
        lat_lo = STATS_min
        stats datafile index (i-1) using ($3 == 1 ? $2 : -1e300) nooutput
        lat_hi = STATS_max
        stats datafile index (i-1) using 2 nooutput
        lat_top = STATS_max > 0 ? STATS_max * 1.15 : 1
        width_px = pdf ? (slides ? 960 / cols : 720) - 100 : (slides ? 1920 / cols : 1600) - 250
        height_px = slides ? sl_plot * (pdf ? 540 : 1080) : (pdf ? 144 - 60 : panel_px - 100)
        # apart along the curve: across the width and, on a linear axis,
        # down the height (figure_5_3's 9 samples are 1 ms apart both ways:
        # 4 px across its 0.21 s slide panel but 20 px down its 11.5 ms)
        dx_px = nsy > 1 && xto > xfrom ? (sy_hi - sy_lo) / (nsy - 1) * width_px / (xto - xfrom) : 10
        dy_px = nsy > 1 && !ylog ? (lat_hi - lat_lo) / (nsy - 1) * height_px / lat_top : 0
        gap_px = sqrt(dx_px ** 2 + dy_px ** 2)
        # (svg's ring glyph is ~16 px across on a slide: 18 px apart there)
        apart_px = term eq "svg" ? 18.0 : 10.0
        ksy = gap_px > 0 && gap_px < apart_px ? int(ceil(apart_px / gap_px)) : 1
    }
    # how many of them are drawn, for the key ("32 drawn", not "1 in 16")
    sy_drawn = word(synthetic, i) + 0
    if (ksy > 1) {
        stats datafile index (i-1) using ($3 == 1 && int($0) % ksy == 0 ? 1 : 0) nooutput
        sy_drawn = int(STATS_sum)
    }
    # (review: the data's extent, read before the ranges are set)
    if (exists("review") && !empty) {
        set autoscale xy
        stats datafile index (i-1) using 1 nooutput; d_x0 = STATS_min; d_x1 = STATS_max
        stats datafile index (i-1) using 2 nooutput; d_y0 = STATS_min; d_y1 = STATS_max
    }
    if (!empty) { stats datafile index (i-1) using 2 nooutput }
    set xrange [xlo_ax:xhi_ax]
    top = empty ? 1 : (STATS_max > 0 ? STATS_max * 1.15 : 1)
    bottom = ylog ? (empty ? 0.001 : (STATS_min > 0 ? STATS_min / 1.5 : 0.001)) : 0
    set yrange [bottom:top]
    ystep = human_step(top, slides ? 4 : 6)
    eval lat_ticks
    unset xlabel
    if (bottom_row(i)) { set xlabel xname offset 0,0.5 }
    ex = word(exact, i) + 0
    sy = word(synthetic, i) + 0
    # (a slide's half-width key: shorter words, figure_5_3's "closed-loop,
    # corrected: each dot one request (200)" ran past the page's edge)
    what = ex ? sprintf(slides ? "%s: %s requests, a dot each" : "%s: each dot one request (%s)", label(i), thou(word(seen, i) + 0)) \
              : sprintf(slides ? "%s: each bin's largest (%s requests)" : "%s: largest latency of each bin (%s requests)", \
                        label(i), thou(word(seen, i) + 0))
    # requests in the window the tester did not record (warm-up, timed
    # out, failed) are counted above but have no dot: said, so a gap in
    # the dots is not read as requests never sent
    unrec = exists("unrecorded") ? word(unrecorded, i) + 0 : 0
    if (unrec > 0) { what = what . sprintf("; %d not recorded, not drawn", unrec) }
    # an empty panel's key says what the window held: requests a warm-up
    # or a timeout left unrecorded, or none at all
    if (empty) { what = word(seen, i) + 0 > 0 ? sprintf("%s: %s requests in the window, none recorded", label(i), \
                     thou(word(seen, i) + 0)) : sprintf("%s: no request in the window", label(i)) }
    unset label 1
    if (empty) { set label 1 "no request recorded in this window" at graph 0.5, 0.5 center }
    sy_title = sy > 0 ? sprintf("samples the correction added (%s%s)", thou(sy), \
                          sy_drawn < sy ? sprintf("; %s drawn: 1 in %d", thou(sy_drawn), ksy) : "") : ""
    # a slide's key, one entry a line, its column narrowed by up to 30
    # characters but never below its longest entry less 6 (a negative
    # column width drew two short entries on one line, over each other)
    key_chars = strlen(what) > strlen(sy_title) ? strlen(what) : strlen(sy_title)
    key_chars = !ex && !empty && key_chars < 24 ? 24 : key_chars
    if (slides) { set key width -(key_chars - 6 < 30 ? key_chars - 6 : 30) }
    plot stallsfile index (i-1) using (($1+$2)/2):((top+bottom)/2):(($2-$1)/2):((top-bottom)/2) \
             with boxxyerror fs solid 0.25 noborder lc rgb "#999999" notitle, \
         datafile index (i-1) using 1:($3 == 0 || $3 == 3 ? $2 : NaN) with points pt marker(i) ps (1.0 * ptscale) \
             lc rgb colour(i) title what, \
         datafile index (i-1) using 1:($3 == 4 ? $2 : NaN) with lines lw 2 dt 2 lc rgb "#000000" \
             title (ex || empty ? "" : "mean latency of each bin"), \
         datafile index (i-1) using 1:($3 == 1 && int($0) % ksy == 0 ? $2 : NaN) with points pt ring_pt \
             ps (1.3 * ptscale) lc rgb colour(i) \
             title sy_title
    # review (tests/charts_review.sh: gnuplot -e "review=1"): this panel's
    # plot area, axes and points, for the chart review's checks
    if (exists("review")) {
        set print "-"
        if (empty) { d_x0 = xfrom; d_x1 = xfrom; d_y0 = bottom; d_y1 = bottom }
        print sprintf("review chart=timeline panel=%d term=%s slides=%d canvas_w=%.10g canvas_h=%.10g px_xmin=%.10g px_xmax=%.10g px_ymin=%.10g px_ymax=%.10g min_pt=%.10g ylog=%d xlog=0 x_min=%.10g x_max=%.10g y_min=%.10g y_max=%.10g data_xmin=%.10g data_xmax=%.10g data_ymin=%.10g data_ymax=%.10g pad=1", \
            i, term, slides, GPVAL_TERM_XSIZE / GPVAL_TERM_SCALE, GPVAL_TERM_YSIZE / GPVAL_TERM_SCALE, \
            GPVAL_TERM_XMIN, GPVAL_TERM_XMAX, GPVAL_TERM_YMIN, GPVAL_TERM_YMAX, \
            (subtitle_pt < font_pt ? subtitle_pt : font_pt), ylog, GPVAL_X_MIN, GPVAL_X_MAX, GPVAL_Y_MIN, GPVAL_Y_MAX, \
            d_x0, d_x1, (ylog && d_y0 <= 0 ? GPVAL_Y_MIN : d_y0), d_y1)
        print sprintf("review-thin panel=%d what=corrected total=%d drawn=%d text=%s", i, sy, sy_drawn, sy_title)
        # a slide's key, placed by hand: its longest entry must end on the page
        if (slides) {
            print sprintf("review-key panel=%d x_screen=%.6g chars=%d pt=%g samplen=1.5", i, key_x, key_chars, font_pt)
        }
    }
}
# the backlog: requests at the server, one line per tester (an empty
# last panel's note not carried over)
unset label 1
unset logscale y
set format y "%g"
bmax = 1
# stats skips the points outside the axes' ranges, and the last panel's
# latency range stayed set: a backlog of 1 over a panel whose latencies
# end at 0.14 ms found no point, and gnuplot stopped on the undefined
# STATS_max (a paced tester warming up through the window). The latency
# range dropped first; a block stats still finds empty is skipped.
set autoscale y
do for [i=1:n] {
    undefine STATS_max
    stats datafile index (n + i - 1) using 2 nooutput
    if (exists("STATS_max")) { bmax = STATS_max > bmax ? STATS_max : bmax }
}
set yrange [0:bmax * 1.15]
# whole requests (no 0.5 ticks on a small backlog), as many labels as the
# panel's height holds a label's height and a half apart (~24 px a line at
# 18 pt, ~29 px at a slide's 22 pt; a pdf's panel in proportion), at most
# 5: the first step of 1, 2, 5 x 10^k that labels no more (gatling_ramp's
# 0..9 in steps of 1 on its ~170 px panel overlapped; now 0 and 5, and
# figure_5_3's and stall_per_second's 0..12 by 2 now 0, 5, 10)
bplot_px = slides ? sl_plot * 1080 : panel_px - 130
bmaxlab = int(bplot_px / (1.5 * (slides ? 29 : 24)))
bmaxlab = bmaxlab < 2 ? 2 : bmaxlab > 5 ? 5 : bmaxlab
ystep = 1; bk = 0
while (floor(bmax * 1.15 / ystep) + 1 > bmaxlab) {
    bk = bk + 1
    ystep = (bk % 3 == 0 ? 1 : bk % 3 == 1 ? 2 : 5) * 10 ** (bk / 3)
}
# (counts grouped by thousands: a backlog of 12,000 read "12000")
set ytics ()
do for [k=0:int(floor(bmax * 1.15 / ystep + 1e-9))] { set ytics add (thou(k * ystep) k * ystep) }
set ylabel (slides ? "at the server" : "requests at the server")
# what a point of the backlog is, and grey only where grey is drawn
binw = exists("backlog_bin_s") ? backlog_bin_s : 0
binned = binw >= 1 ? sprintf("%g s", binw) : binw >= 0.001 ? sprintf("%g ms", binw * 1000) \
       : sprintf("%g us", binw * 1e6)
shaded_any = 0
do for [i=1:n] { shaded_any = shaded_any || (exists("shaded") ? word(shaded, i) + 0 : 1) }
grey = exists("shaded_all") && shaded_all == 0 ? (shaded_any ? "; grey above: a stalled request in service" : "") \
     : "; grey: stall"
set xlabel (byreply ? "reply time (".tunit."): a stall shows as a gap, then a spike" : "intended send time (".tunit.")").grey.\
    (binw > 0 ? "\nbacklog: the most requests at the server in each ".binned : "")
if (slides) {
    set key outside top center horizontal width 1
    note = (byreply ? "a stall shows as a gap, then a spike" : "").grey.\
           (binw > 0 ? "; backlog: the most requests at the server in each ".binned : "")
    note = note[1:2] eq "; " ? note[3:] : note
    set label 97 note at screen 0.5, screen 0.03 center font sprintf(",%d", subtitle_pt) noenhanced
    set xlabel xname offset 0,0.5
    r = rows - 1
    set lmargin at screen sl_left(n + 1, wide_backlog); set rmargin at screen sl_right(n + 1, wide_backlog)
    set tmargin at screen sl_ptop(r); set bmargin at screen sl_ptop(r) - sl_plot
    set key at screen (sl_left(n + 1, wide_backlog) + sl_right(n + 1, wide_backlog)) / 2, screen sl_rowtop(r) - 6 / 1080.0 \
        center top width 1
    if (wide_backlog || cols == 1) { set key horizontal } else { set key vertical }
} else { set key outside top center horizontal width 1 }
# each tester's dash as on the spectrum (closed dotted, paced long dashes,
# corrected dash-dot, open solid, ...), so coinciding lines stay apart,
# and key samples long enough to show the pattern: the dash was the
# tester's number (open, 4th, dash-dot), which on the open loop's climb
# through a stall looked broken while its 1.5-character sample looked solid;
# drawn last to first, so open's solid line never hides the others' dashes
set dashtype 11 (2,4)
set dashtype 12 (14,6)
set dashtype 13 (10,5,2,5)
set dashtype 14 solid
set dashtype 15 (10,4,2,4,2,4)
set dashtype 16 (20,5,5,5)
set dashtype 17 (6,3)
set dashtype 18 (3,3,12,3)
set key samplen 4
dash(i) = 10 + sty(i)
plot stallsfile index n using (($1+$2)/2):(0):(($2-$1)/2):(bmax * 1.15) with boxxyerror fs solid 0.25 noborder lc rgb "#999999" notitle, \
     for [i=n:1:-1] datafile index (n + i - 1) using 1:2 with steps lw 2 dt dash(i) lc rgb colour(i) notitle, \
     for [i=1:n] keyentry with lines lw 2 dt dash(i) lc rgb colour(i) title label(i)
if (exists("review")) {
    set print "-"
    print sprintf("review chart=timeline panel=%d term=%s slides=%d canvas_w=%.10g canvas_h=%.10g px_xmin=%.10g px_xmax=%.10g px_ymin=%.10g px_ymax=%.10g min_pt=%.10g ylog=0 xlog=0 x_min=%.10g x_max=%.10g y_min=%.10g y_max=%.10g data_ymax=%.10g pad=1", \
        n + 1, term, slides, GPVAL_TERM_XSIZE / GPVAL_TERM_SCALE, GPVAL_TERM_YSIZE / GPVAL_TERM_SCALE, \
        GPVAL_TERM_XMIN, GPVAL_TERM_XMAX, GPVAL_TERM_YMIN, GPVAL_TERM_YMAX, \
        (subtitle_pt < font_pt ? subtitle_pt : font_pt), GPVAL_X_MIN, GPVAL_X_MAX, GPVAL_Y_MIN, GPVAL_Y_MAX, bmax)
}
unset multiplot
