#!/usr/bin/env python3
"""Check what the chart scripts say they drew (their "review" lines, printed
with gnuplot -e review=1) and what gnuplot said on stderr.

Usage: charts_review.py FOLDER...   (each FOLDER/NAME.review holds a chart's
review lines, FOLDER/NAME.err gnuplot's stderr)

The rules (issue 35), each from gnuplot's own figures (GPVAL_TERM_* for the
plot area in terminal units, GPVAL_X/Y_MIN/MAX for the axes' ranges):
  - gnuplot said nothing on stderr (no warning reaches the user);
  - the plot area lies inside the canvas;
  - the data lie inside the axes' ranges, and with pad=1 clear of the
    frame by at least 1% of the axis (log axes: of its decades);
  - every level holding more than a tenth of a curve's samples has a tick
    within 0.5% (of a decade on a log axis), or lies in the range a tick's
    label gives ("16 ms to 17 ms": levels closer than a label's height);
  - no two tick labels and no two placed labels overlap: their centres are
    at least 0.9 of a text line apart (a line: 1.15 em);
  - a placed label stays inside the canvas;
  - a key placed by hand (a slide's panels) ends on the page;
  - a panel that draws fewer never-sent slots, corrected samples or
    requests than it holds says in its key how many it draws of how many;
    in the default style a panel of at most 60 rows thins no never-sent or
    corrected sample (the page grows instead: docs/decisions.md);
  - (svg charts, read from gnuplot's own output) every tick label is a
    number grouped by thousands, with or without a unit, or a name: no
    exponent ("6.66667e+08"), no "4000000";
  - no text is smaller than the style's minimum: 20 px on a 1600 px-wide
    page by default (a 1.25% of the width), 32 px on a 1080 px-high slide
    (2.96% of the height); sizes in the terminal's units: pngcairo and gif
    draw 4/3 px a point, svg (with fontscale 4/3) too, pdfcairo's canvas is
    in points.
Exit 0 when every chart passes, 1 otherwise (each failure named).
"""
import math
import re
import os
import sys

UNITS_PER_PT = {"pngcairo": 4.0 / 3, "svg": 4.0 / 3, "gif": 4.0 / 3, "pdfcairo": 1.0}
LINE_EM = 1.15


def parse(line):
    words = line.split()
    kv = {}
    for w in words[1:]:
        if "=" in w:
            k, v = w.split("=", 1)
            kv[k] = v
    return words[0], kv


def num(kv, k):
    return float(kv[k])


def pos(v, lo, hi, log):
    """v's place on an axis from lo to hi, 0 to 1."""
    if log:
        if v <= 0 or lo <= 0:
            return float("nan")
        return math.log(v / lo) / math.log(hi / lo)
    return (v - lo) / (hi - lo) if hi != lo else 0.0


def thou(v):
    """v with thousands separators, as the chart scripts print counts."""
    return "{:,}".format(int(v))


def check_chart(name, lines, err):
    fails = []
    # what cosim's relay drops (sim/plot_render.c, relay_emit): blank lines
    # and the gif terminal's "N frames in animation sequence"
    said = [l for l in err.splitlines() if l.strip() and not re.fullmatch(r"\d+ frames in animation sequence", l)]
    if said:
        fails.append("gnuplot said: " + said[0])
    panels = {}
    levels, ticks, labels, stems, spans, thins, hkeys = {}, {}, {}, {}, {}, {}, {}
    for line in lines:
        if line.startswith("review-thin "):
            # what a panel drew of how many, and its key's text (free text,
            # last on the line)
            head, _, text = line.partition(" text=")
            _, kv = parse(head)
            thins.setdefault(kv.get("panel", "1"), []).append((kv["what"], int(kv["total"]), int(kv["drawn"]), text))
            continue
        kind, kv = parse(line)
        p = kv.get("panel", "1")
        if kind == "review":
            panels[p] = kv
        elif kind == "review-level":
            levels.setdefault(p, []).append(float(kv["v"]))
        elif kind == "review-tick":
            ticks.setdefault(p, []).append((float(kv["v"]), float(kv["pt"])))
            if "hi" in kv:  # a tick labelled with a range of levels
                spans.setdefault(p, []).append((float(kv["v"]), float(kv["hi"])))
        elif kind == "review-stem":
            stems.setdefault(p, []).append((float(kv["x"]), float(kv["y"])))
        elif kind == "review-label":
            labels.setdefault(p, []).append(kv)
        elif kind == "review-key":
            hkeys.setdefault(p, []).append(kv)
    if not panels:
        fails.append("no review line: the script printed nothing (or failed)")
        return fails
    for p, kv in sorted(panels.items()):
        where = "panel %s: " % p
        term = kv["term"]
        u = UNITS_PER_PT[term]
        cw, ch = num(kv, "canvas_w"), num(kv, "canvas_h")
        x0, x1, y0, y1 = (num(kv, k) for k in ("px_xmin", "px_xmax", "px_ymin", "px_ymax"))
        if not (0 <= x0 < x1 <= cw + 1 and 0 <= y0 < y1 <= ch + 1):
            fails.append(where + "plot area %g..%g x %g..%g outside the %gx%g canvas" % (x0, x1, y0, y1, cw, ch))
        # text size
        min_pt = num(kv, "min_pt")
        if int(kv.get("slides", "0")):
            share, want = min_pt * u / ch, 32.0 / 1080
            if share < want * 0.999:
                fails.append(where + "smallest text %g pt is %.1f px on a 1080 px slide, under 32" %
                             (min_pt, share * 1080))
        else:
            share, want = min_pt * u / cw, 20.0 / 1600
            if share < want * 0.999:
                fails.append(where + "smallest text %g pt is %.1f px on a 1600 px page, under 20" %
                             (min_pt, share * 1600))
        # data inside the axes
        xlog, ylog = int(kv.get("xlog", "0")), int(kv.get("ylog", "0"))
        pad = int(kv.get("pad", "0"))
        for axis, log, keys in (("x", xlog, ("data_xmin", "data_xmax")), ("y", ylog, ("data_ymin", "data_ymax"))):
            lo, hi = num(kv, axis + "_min"), num(kv, axis + "_max")
            if lo > hi:
                lo, hi = hi, lo
            for k in keys:
                if k not in kv:
                    continue
                v = num(kv, k)
                at = pos(v, lo, hi, log)
                if axis == "x" and k == "data_xmax" and int(kv.get("marked", "0")) and at > 1:
                    continue  # the bars past the axis end in a mark giving their end
                if math.isnan(at) or at < -1e-9 or at > 1 + 1e-9:
                    fails.append(where + "%s %g outside the %s axis %g..%g" % (k, v, axis, lo, hi))
                elif pad and k.endswith("max") and at > 0.99 and not (axis == "x" and int(kv.get("marked", "0"))):
                    fails.append(where + "%s %g on the %s axis's frame (%g..%g): no padding" % (k, v, axis, lo, hi))
        # thinned markers said: a panel that draws fewer never-sent slots,
        # corrected samples or requests than it has gives the count drawn
        # and the count there are in its key ("2 drawn" beside "10"); in
        # the default style (a page that grows) a panel of at most 60 rows
        # thins no never-sent or corrected sample at all
        rows_shown = abs(num(kv, "y_max") - num(kv, "y_min"))
        for what, total, drawn, text in thins.get(p, []):
            if drawn > total or drawn < 0:
                fails.append(where + "%d of %d %s drawn: not a count" % (drawn, total, what))
            elif drawn < total:
                if not (thou(drawn) + " " in text or thou(drawn) + " drawn" in text) or thou(total) not in text \
                        or "drawn" not in text:
                    fails.append(where + "%d of %d %s samples drawn, and the key (%r) does not say so" %
                                 (drawn, total, what, text))
                if kv.get("chart") == "requests" and what in ("never", "corrected") and not int(kv.get("slides", "0")) and rows_shown <= 60:
                    fails.append(where + "%d of %d %s samples drawn in a panel of %.0f rows: it should have grown" %
                                 (drawn, total, what, rows_shown))
        # a key placed by hand (a slide's panels) ends on the page: its
        # sample, two gaps and its longest entry, a letter ~0.55 em wide
        # (the Sans letters of figure_5_3's keys measured 0.51 em)
        for kk in hkeys.get(p, []):
            pt = float(kk["pt"])
            right = float(kk["x_screen"]) * cw + (float(kk["samplen"]) + 2 + int(kk["chars"])) * 0.55 * pt * u
            if float(kk["x_screen"]) < 0 or right > cw + 1:
                fails.append(where + "its key (%s characters) runs %.0f units past the page's right edge" %
                             (kk["chars"], right - cw))
        # levels have ticks
        ylo, yhi = num(kv, "y_min"), num(kv, "y_max")
        if ylo > yhi:
            ylo, yhi = yhi, ylo
        tv = [t for t, _ in ticks.get(p, [])]
        for v in levels.get(p, []):
            if not (ylo <= v <= yhi):
                continue
            near = [t for t in tv if (abs(math.log10(t / v)) < 0.005 if ylog and t > 0 else abs(t - v) <= 0.005 * (yhi - ylo))]
            near += [lo for lo, hi in spans.get(p, []) if lo <= v <= hi]
            if not near:
                fails.append(where + "the level %g holding over 10%% of a curve's samples has no tick" % v)
        # tick labels apart
        plot_h = y1 - y0
        tk = sorted((pos(t, ylo, yhi, ylog) * plot_h, pt) for t, pt in ticks.get(p, []) if ylo <= t <= yhi)
        for (a, pa), (b, pb) in zip(tk, tk[1:]):
            if b - a < 0.9 * LINE_EM * max(pa, pb) * u:
                fails.append(where + "two tick labels overlap (%.0f and %.0f units up the axis)" % (a, b))
        # placed labels apart and inside the canvas
        lb = []
        for kv2 in labels.get(p, []):
            pt = float(kv2["pt"])
            h = LINE_EM * pt * u
            w = 0.6 * pt * u * int(kv2.get("chars", "0"))
            x = 0.0
            if "y_graph" in kv2:
                y = y0 + float(kv2["y_graph"]) * plot_h
            else:  # data coordinates, offset dy_em text lines up
                x = x0 + pos(float(kv2["x"]), num(kv, "x_min"), num(kv, "x_max"), xlog) * (x1 - x0)
                y = y0 + pos(float(kv2["y"]), ylo, yhi, ylog) * plot_h + float(kv2.get("dy_em", "0")) * pt * u
                if x - w / 2 < 0 or x + w / 2 > cw + 1:
                    fails.append(where + "a label at %.0f units across is outside the canvas" % x)
            if y - h / 2 < 0 or y + h / 2 > ch + 1:
                fails.append(where + "a label at %.0f units is outside the canvas (0..%g)" % (y, ch))
            if kv2.get("where") == "right":
                right = x1 + 0.6 * pt * u * (1 + int(kv2.get("chars", "0")))
                if right > cw + 1:
                    fails.append(where + "a label right of the plot runs %.0f units past the canvas" % (right - cw))
            lb.append((kv2.get("where", ""), x, y, h, w))
        # no label across a stem (a line from the axis' floor up to a value)
        for sx, sy in stems.get(p, []):
            px_ = x0 + pos(sx, num(kv, "x_min"), num(kv, "x_max"), xlog) * (x1 - x0)
            py_ = y0 + pos(sy, ylo, yhi, ylog) * plot_h
            for wh, lx, ly, lh, lw in lb:
                if wh == "data" and abs(lx - px_) < lw / 2 and ly - lh / 2 < py_ - 1:
                    fails.append(where + "a label (at %.0f, %.0f) lies across a stem (at %.0f, up to %.0f)" %
                                 (lx, ly, px_, py_))
        for i in range(len(lb)):
            for j in range(i + 1, len(lb)):
                wi, xi, yi, hi_, wdi = lb[i]
                wj, xj, yj, hj, wdj = lb[j]
                if wi != wj:
                    continue
                apart_x = wdi and wdj and abs(xi - xj) >= (wdi + wdj) / 2
                if not apart_x and abs(yi - yj) < 0.9 * max(hi_, hj):
                    fails.append(where + "two labels overlap (at %.0f and %.0f units up)" % (yi, yj))
    return fails


SVG_TEXT = re.compile(r'<g transform="translate\(([-\d.]+),([-\d.]+)\)"[^>]*font-size="([\d.]+)"\s*text-anchor="(\w+)">\s*<text>(.*?)</text>',
                      re.S)
UNIT = r"(?:ns|\u00b5s|us|ms|s|min|h|%)"
# a tick label as a person reads it: a number with its thousands grouped
# ("9,700", "4,000.01"), a unit after it or not ("250 ms", "1 s", "99.9%"),
# a range of two ("16 ms to 17 ms"), or a word (a tester's name)
NUMBER = r"-?(?:\d{1,3}(?:,\d{3})+|\d{1,3})(?:\.\d+)?"
TICK_OK = re.compile(r"(?:%s(?: ?%s)?)(?: to %s(?: ?%s)?)?" % (NUMBER, UNIT, NUMBER, UNIT))


def svg_tick_labels(svg, panels):
    """The tick labels gnuplot wrote in an svg chart, found by where they
    sit: right-aligned just left of a panel's plot area (the y axis) or
    centred just under it (the x axis). svg's y runs down the page, the
    review's up. Returns [(panel, axis, text)]; an exponent's tspan (gnuplot's
    enhanced 10^6) comes back as "^6"."""
    out = []
    for m in SVG_TEXT.finditer(svg):
        x, y, size, anchor, body = float(m.group(1)), float(m.group(2)), float(m.group(3)), m.group(4), m.group(5)
        parts = re.findall(r"<tspan([^>]*)>([^<]*)</tspan>", body)
        text = "".join(("^" if 'dy="-' in attrs else "") + t for attrs, t in parts) if parts else re.sub(r"<[^>]*>", "", body)
        text = text.replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">").strip()
        for p, kv in panels.items():
            ch = float(kv["canvas_h"])
            up = ch - y
            x0, x1, y0, y1 = (float(kv[k]) for k in ("px_xmin", "px_xmax", "px_ymin", "px_ymax"))
            if anchor == "end" and x0 - 0.3 * float(kv["canvas_w"]) < x < x0 and y0 - 0.6 * size <= up <= y1 + 0.1 * size:
                out.append((p, "y", text))
            elif anchor == "middle" and x0 - 1 <= x <= x1 + 1 and y0 - 1.8 * size <= up < y0:
                out.append((p, "x", text))
    return out


def check_tick_labels(svg, lines):
    """The rules on tick labels: no exponent (6.66667e+08, 10^6), no number
    of four or more digits without a thousands separator (4000000, 3198920,
    1000), each label a number (grouped), with its unit or not, or a name."""
    fails = []
    panels = {}
    for line in lines:
        if line.startswith("review "):
            _, kv = parse(line)
            panels[kv.get("panel", "1")] = kv
    for p, axis, text in svg_tick_labels(svg, panels):
        bad = re.search(r"\d[eE][-+]?\d|\^|x10|\u00d7 ?10", text) or re.search(r"(?<![\d,.])\d{4,}", text)
        if bad or (re.match(r"-?\d", text) and not TICK_OK.fullmatch(text)):
            fails.append("panel %s: the %s axis's tick label %r is not in human units (a number grouped by "
                         "thousands, its unit after it or in the axis' title)" % (p, axis, text))
    return fails


def main(folders):
    n = bad = 0
    for folder in folders:
        fe = os.path.join(folder, "_folder.err")
        if os.path.exists(fe) and open(fe).read().strip():
            said = [l for l in open(fe).read().splitlines()
                    if l.strip() and not re.fullmatch(r"\d+ frames in animation sequence", l)]
            if said:
                print("FAIL %s: gnuplot said: %s" % (folder, said[0]))
                bad += 1
        for f in sorted(os.listdir(folder)):
            if not f.endswith(".review"):
                continue
            name = f[:-len(".review")]
            with open(os.path.join(folder, f)) as fh:
                lines = [l for l in fh.read().splitlines() if l.startswith("review")]
            errp = os.path.join(folder, name + ".err")
            err = open(errp).read() if os.path.exists(errp) else ""
            n += 1
            msgs = check_chart(name, lines, err)
            svgp = os.path.join(folder, name + ".svg")
            if os.path.exists(svgp):
                msgs += check_tick_labels(open(svgp, encoding="utf-8").read(), lines)
            for msg in msgs:
                print("FAIL %s/%s: %s" % (folder, name, msg))
                bad += 1
    print("charts_review: %d charts checked, %d failure(s)" % (n, bad))
    return 1 if bad or n == 0 else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
