# --animate: the request bars of requests.gp (the book's Figure 5.2) as an
# animated GIF, one frame per step of the window, so a lecture can watch
# the queue build during the stall and drain after it. At each frame's
# time t a bar runs from its intended send to min(reply, t); a request's
# dot appears when it is sent, a never-sent slot's circle when its time
# passes, and the correction's samples only when the late reply comes
# (that is when the corrected tester records them).
#
# This is the style cosim appends to the generated requests_anim.gp; it
# reads the same variables and data as requests.gp (requests.dat).
# Restyle freely: cosim reads this file each time it runs.

n = words(testers)
frames = 40
# text at 15 pt, 20 px (gnuplot's gif draws 4/3 px a point): the chart
# review's minimum for a 1600 px page (at 1000 px and 10 pt, about 13 px,
# the GIF was unreadable projected)
font_pt = 15
set terminal gif animate delay 15 loop 0 optimize size 1600, (150 + n * 300) font "Sans,15"
set datafile nofpe_trap  # no SIGFPE handler re-armed at every data point (see timeline.gp)
set output outfile

# one look per tester, as in spectrum.gp and requests.gp (cosim's styles:
# the first closed, paced, corrected, open and partly_open tester are
# 1..5, every other the first free of 6..8 then 1..5), so a tester keeps
# its colour here too
array colours[8] = ["#D55E00", "#E69F00", "#0072B2", "#009E73", "#CC79A7", "#56B4E9", "#882255", \
                    "#999933"]
style(i) = exists("styles") ? word(styles, i) + 0 : i
sty(i) = style(i) == 0 ? 1 : (style(i)-1)%8+1
colour(i) = colours[sty(i)]
# each tester's legend text, its label (the names alone lost them)
label(i) = exists("labels") ? labels[i] : word(testers, i)
array lo[n]
array hi[n]
do for [i=1:n] {
    lo[i] = 0; hi[i] = 1
    if (word(counts, i) + 0 > 0) {
        stats datafile index (i-1) using 4 nooutput
        lo[i] = STATS_min; hi[i] = STATS_max
    }
}
# ticks as requests.gp's: rows and times grouped by thousands (gnuplot's
# own wrote stall_per_second's "1000" ms and "9700" rows), a step of 1, 2
# or 5 x 10^k, the time in s from 10 s into the run
thou(v) = v < 0 ? "-".thou(-v) : v < 999.5 ? sprintf("%.0f", v) : thou(floor((v + 0.5) / 1000)).sprintf(",%03.0f", floor(v + 0.5) - 1000 * floor((v + 0.5) / 1000))
thoud(v, dec) = dec <= 0 ? thou(v) : thou(floor(v)).sprintf(sprintf("%%.%df", dec), v - floor(v))[2:]
nice(r) = r <= 0 ? 1 : (r / 10 ** floor(log10(r)) > 5 ? 10 : r / 10 ** floor(log10(r)) > 2 ? 5 : r / 10 ** floor(log10(r)) > 1 ? 2 : 1) \
          * 10 ** floor(log10(r))
x_in_s = xto >= 10
xdiv = x_in_s ? 1000.0 : 1.0
xstep = nice((xto - xfrom) * 1000 / 6.0)
xdec = xstep / xdiv >= 1 ? 0 : int(ceil(-log10(xstep / xdiv) - 1e-9))
set xtics ()
do for [k=int(ceil(xfrom * 1000 / xstep - 1e-9)):int(floor(xto * 1000 / xstep + 1e-9))] { set xtics add (thoud(k * xstep / xdiv, xdec) k * xstep) }
set grid xtics lc rgb "#b0b0b0"
set border 3
set tics nomirror
set ylabel "request"
set key inside right top noenhanced samplen 1 box opaque
set lmargin 14
set rmargin 4
do for [f=1:frames] {
    t = xfrom + (xto - xfrom) * f / frames
    set multiplot layout n, 1 title sprintf("%s\nt = %.1f ms", chart_title, t * 1000) noenhanced
    do for [i=1:n] {
        set xrange [xfrom * 1000 : xto * 1000]
        set yrange [hi[i] + 1 : lo[i] - 1]
        bh = (hi[i] - lo[i]) / 100.0 > 0.35 ? (hi[i] - lo[i]) / 100.0 : 0.35
        ystep = hi[i] - lo[i] <= 6 ? 1 : nice((hi[i] - lo[i]) / 4.0)
        set ytics ()
        do for [k=int(ceil((lo[i] - 1) / ystep)):int(floor((hi[i] + 1) / ystep))] { set ytics add (thou(k * ystep) k * ystep) }
        if (i == n) { set xlabel "time (".(x_in_s ? "s" : "ms")."): bar from intended send to reply (or now), dot at the actual send" } else { unset xlabel }
        plot stallsfile index (i-1) using (($1+$2)*500):((hi[i]+lo[i])/2.0):(($2-$1)*500):((hi[i]-lo[i])/2.0 + 1) \
                 with boxxyerror fs solid 0.25 noborder lc rgb "#999999" notitle, \
             datafile index (i-1) using ($5 == 1 && $3 <= t ? $1*1000 : NaN):4:($1*1000):($3*1000):($4-bh):($4+bh) \
                 with boxxyerror fs pattern 4 border lc rgb colour(i) notitle, \
             datafile index (i-1) using ($5 == 0 && $1 <= t ? $1*1000 : NaN):4:($1*1000):(($3 < t ? $3 : t)*1000):($4-bh):($4+bh) \
                 with boxxyerror fs solid 0.8 noborder lc rgb colour(i) title label(i), \
             datafile index (i-1) using ($5 == 0 && $2 <= t ? $2*1000 : NaN):4 with points pt 7 ps 0.6 lc rgb "#000000" notitle, \
             datafile index (i-1) using ($5 == 2 && $1 <= t ? $1*1000 : NaN):4 with points pt 6 ps 1 \
                 lc rgb colour(i) notitle
        # review (tests/charts_review.sh: gnuplot -e "review=1"): the last
        # frame's panels
        if (exists("review") && f == frames) {
            set print "-"
            print sprintf("review chart=animate panel=%d term=gif slides=0 canvas_w=%.10g canvas_h=%.10g px_xmin=%.10g px_xmax=%.10g px_ymin=%.10g px_ymax=%.10g min_pt=%.10g ylog=0 xlog=0 x_min=%.10g x_max=%.10g y_min=%.10g y_max=%.10g", \
                i, GPVAL_TERM_XSIZE / GPVAL_TERM_SCALE, GPVAL_TERM_YSIZE / GPVAL_TERM_SCALE, \
                GPVAL_TERM_XMIN, GPVAL_TERM_XMAX, GPVAL_TERM_YMIN, GPVAL_TERM_YMAX, font_pt, \
                GPVAL_X_MIN, GPVAL_X_MAX, GPVAL_Y_MIN, GPVAL_Y_MAX)
        }
    }
    unset multiplot
}
