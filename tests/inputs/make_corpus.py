#!/usr/bin/env python3
"""make_corpus.py - writes the damaged-input corpus of tests/inputs from
undamaged files (run from the repository's root; the files are committed,
this script says how each was made). Each damaged file changes one thing of
its base: cut (no newline at the end), spliced, signed, exponent,
unit-less, junk, UTF-16, CRLF, blank lines, footers that disagree, tags,
offsets, bombs. corpus.txt says what each must give."""

D = 'tests/inputs/'


def rd(p):
    with open(p, 'rb') as f:
        return f.read()


def wr(p, b):
    with open(D + p, 'wb') as f:
        f.write(b)


def crlf(b):
    return b.replace(b'\n', b'\r\n')


def blank(b):
    # a blank line after every line
    return b.replace(b'\n', b'\n\n')


def utf16(b):
    return b'\xff\xfe' + b.decode('utf-8').encode('utf-16-le')


def cut_at(b, marker, keep):
    """b up to the first marker, keeping `keep` bytes of it; no newline."""
    i = b.index(marker)
    return b[:i + keep]


# ---- JDK 8 (base: a Parallel GC log with stopped-time lines) ----
j8 = rd('tests/data/gclog/parallel_jdk8.log')
wr('gclog/jdk8_base.log', j8)
full = b'3012K->3012K(1056768K)], 0.2345678 secs]'
wr('gclog/jdk8_sign.log', j8.replace(full, full.replace(b'0.2345678', b'-0.2345678')))
wr('gclog/jdk8_exponent.log', j8.replace(full, full.replace(b'0.2345678', b'1e5')))
wr('gclog/jdk8_junk.log', j8.replace(full, full.replace(b'0.2345678', b'abc0.2345678')))
wr('gclog/jdk8_huge.log', j8.replace(full, full.replace(b'0.2345678', b'99999999999999.5')))
wr('gclog/jdk8_no_length.log', j8.replace(full, full.replace(b', 0.2345678 secs]', b']')))
wr('gclog/jdk8_cut.log', cut_at(j8, full, len(full) - 12))  # "..., 0.23"
wr('gclog/jdk8_crlf.log', crlf(j8))
wr('gclog/jdk8_blank_lines.log', blank(j8))
wr('gclog/jdk8_utf16.log', utf16(j8))
# the stopped-time record of line 5 printed into the end of line 4 (the
# JVM does: the safepoint's end is written while another line is open)
lines = j8.split(b'\n')
spliced = lines[:3] + [lines[3].rstrip(b' ') + lines[4]] + lines[5:]
wr('gclog/jdk8_spliced_stopped.log', b'\n'.join(spliced))
# ... and into a concurrent phase's line with no blank before it
spliced = lines[:5] + [b'2026-03-02T09:20:02.300+0100: 2.190: [GC concurrent-mark-start]' + lines[5]] + lines[6:]
wr('gclog/jdk8_spliced_concurrent.log', b'\n'.join(spliced))
# an application's line between the JVM's
app = lines[:4] + [b'refresh took 27.805ms'] + lines[4:]
wr('gclog/jdk8_app_line.log', b'\n'.join(app))
# an application's text before a GC record, on its line
app = lines[:3] + [b'refresh took 27.805ms' + lines[3]] + lines[4:]
wr('gclog/jdk8_app_before_record.log', b'\n'.join(app))

# ---- JDK unified logging (base: the shipped G1 sample) ----
g1 = rd('scenarios/data/g1_sample.log')
wr('gclog/g1_base.log', g1)
fl = b'250M->98M(256M) 452.667ms'
wr('gclog/g1_cut_in_full_gc.log', cut_at(g1, fl, len(fl) - 4))  # "... 452.6"
wr('gclog/g1_no_unit.log', g1.replace(fl, fl[:-2]))
wr('gclog/g1_sign.log', g1.replace(fl, fl.replace(b'452.667', b'-452.667')))
wr('gclog/g1_exponent.log', g1.replace(fl, fl.replace(b'452.667', b'4.52667e2')))
wr('gclog/g1_junk.log', g1.replace(fl, fl.replace(b'452.667', b'x452.667')))
last = b'122M->100M(256M) 16.925ms'
wr('gclog/g1_spliced_after.log', g1.replace(last, last + b' refresh took 27.805ms'))
wr('gclog/g1_spliced_glued.log', g1.replace(last, last + b'refresh took 27.805ms'))
gl = g1.split(b'\n')
wr('gclog/g1_app_lines.log', b'\n'.join(gl[:30] + [b'refresh took 27.805ms'] + gl[30:60] +
                                        [b'refresh took 12.5ms'] + gl[60:]))
i = next(k for k, x in enumerate(gl) if x.endswith(last))
wr('gclog/g1_app_before_record.log', b'\n'.join(gl[:i] + [b'refresh took 27.805ms' + gl[i]] + gl[i + 1:]))
wr('gclog/g1_crlf.log', crlf(g1))
wr('gclog/g1_blank_lines.log', blank(g1))
wr('gclog/g1_utf16.log', utf16(g1))
# ZGC, Shenandoah and safepoint logs whose last pause line is cut
z = rd('tests/data/gclog/zgc_jdk11.log')
zl = b'Pause Relocate Start 0.560ms'
wr('gclog/zgc_cut.log', cut_at(z, zl, len(zl) - 4))
wr('gclog/zgc_base.log', z)
sh = rd('tests/data/gclog/shenandoah_uptimenanos.log')
wr('gclog/shenandoah_base.log', sh)
wr('gclog/shenandoah_cut.log', cut_at(sh, b'120M->60M(128M) 23.456ms', 20))
sp = rd('tests/data/gclog/g1_safepoint_jdk17.log')
wr('gclog/safepoint_base.log', sp)
wr('gclog/safepoint_cut.log', cut_at(sp, b'Total: 169134 ns', 11))
wr('gclog/safepoint_no_unit.log', sp.replace(b'Total: 169134 ns', b'Total: 169134'))

# ---- Go gctrace ----
go = rd('tests/data/gclog/go_gctrace.log')
wr('gclog/go_base.log', go)
wr('gclog/go_cut.log', cut_at(go, b'0.018+3.4+0.062 ms clock', 14))
wr('gclog/go_exponent.log', go.replace(b'0.15+12+0.087', b'0.15+1.2e1+0.087'))
wr('gclog/go_sign.log', go.replace(b'@1.504s', b'@-1.504s'))
wr('gclog/go_crlf.log', crlf(go))
wr('gclog/go_app_before_record.log', go.replace(b'gc 3 @', b'listening gc 3 @'))

# ---- .hgrm (base: a cosim spectrum, values in us) ----
h = rd(D + 'hgrm/base.hgrm')
hl = h.split(b'\n')
wr('hgrm/blank_inside.hgrm', b'\n'.join(hl[:20] + [b''] + hl[20:]))
wr('hgrm/crlf.hgrm', crlf(h))
row = hl[20]
wr('hgrm/inf_value.hgrm', b'\n'.join(hl[:20] + [b'         inf' + row[12:]] + hl[21:]))
wr('hgrm/text_inside.hgrm', b'\n'.join(hl[:20] + [b'(interrupted)'] + hl[20:]))
wr('hgrm/sign.hgrm', b'\n'.join(hl[:2] + [hl[2].replace(b'  152.488', b' -152.488')] + hl[3:]))
wr('hgrm/exponent.hgrm', b'\n'.join(hl[:2] + [hl[2].replace(b'  152.488', b'1.52488e2')] + hl[3:]))
wr('hgrm/footer_total.hgrm', h.replace(b'Total count    =          891', b'Total count    =          991'))
wr('hgrm/footer_max.hgrm', h.replace(b'#[Max     =     4197.200', b'#[Max     =     4297.200'))
wr('hgrm/footer_mean.hgrm', h.replace(b'#[Mean    =     1123.921', b'#[Mean    =     2123.921'))
wr('hgrm/percentile_contradicts.hgrm', b'\n'.join(hl[:10] + [hl[10].replace(b'0.650000000000', b'0.690000000000')] + hl[11:]))
wr('hgrm/cut.hgrm', b'\n'.join(hl[:30]) + b'\n' + hl[30][:8])
wr('hgrm/utf16.hgrm', utf16(h))

# ---- .hlog ----
js = rd(D + 'hlog/js_offset.hlog')
jl = js.split(b'\n')
wr('hlog/js_crlf.hlog', crlf(js))
tagged = jl[:3] + [b'Tag=A,' + jl[3], b'Tag=B,' + jl[4]] + jl[5:]
wr('hlog/tags_ab.hlog', b'\n'.join(tagged))
wr('hlog/js_cut.hlog', b'\n'.join(jl[:4]) + b'\n' + jl[4][:40])
wr('hlog/js_junk.hlog', b'\n'.join(jl[:4] + [b'x' + jl[4]] + jl[5:]))
wr('hlog/js_sign.hlog', b'\n'.join(jl[:4] + [b'-' + jl[4]] + jl[5:]))


# the resource bombs (megabytes) are made at test time: corpus_tool bomb
