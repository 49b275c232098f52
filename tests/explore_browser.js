// explore_browser.js - cosim lecture's interactive page (the lecture's index.html) in
// Debian's chromium, headless, driven by puppeteer-core: opened from
// file://, the stall length and a rate changed as a lecturer would, the
// redrawn table read and compared with the CLI's printed figures for the
// same --set (every cell), a bad value's message compared with the CLI's,
// a URL with a fragment opened cold, hostile fragments answered with the
// CLI's message for the --set each stands for, and no console error. Screenshots go
// to OUTDIR.
// Usage: node explore_browser.js PAGE CHROMIUM OUTDIR EXPECT.json
// EXPECT.json (written by explore_browser.sh from the CLI's runs):
//   {"scenario", "sets": [...], "text": CLI stdout for the sets,
//    "bad_set", "bad_message": the CLI's stderr line for it, "command",
//    "hostile": [{"fragment", "message": the CLI's first stderr line, "note": the URL's note}]}
'use strict';
const fs = require('fs');
const puppeteer = require('puppeteer-core');

const [page_path, chromium, outdir, expect_path] = process.argv.slice(2);
const expect = JSON.parse(fs.readFileSync(expect_path, 'utf8'));
let fails = 0;
const fail = (m) => { console.log('FAIL: ' + m); fails++; };

/* The CLI's two tables (counts, latencies) and its "vs truth" block: rows
 * of cells by tester, as printed. */
function cliRows(text) {
    const rows = {}, vs = {};
    const lines = text.split('\n');
    let mode = null;
    for (const l of lines) {
        if (/^tester\s+kind\s+planned/.test(l)) { mode = 'counts'; continue; }
        if (/^tester\s+mean\s+p50/.test(l)) { mode = 'lat'; continue; }
        if (/^vs truth/.test(l)) { mode = 'vs'; continue; }
        if (!l.trim() || l.startsWith('note')) { mode = null; continue; }
        if (!mode) continue;
        if (mode === 'counts') {
            /* tester, kind (may hold blanks and commas), then 5 counts */
            const m = /^(\S+)\s+(.*?)\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)$/.exec(l);
            if (m) rows[m[1]] = { kind: m[2], counts: m.slice(3, 8) };
        } else if (mode === 'lat') {
            const name = l.split(/\s+/)[0];
            const vals = [];
            const re = /(-|\d[\d.,]*\s\S?s)/g;
            let m;
            const rest = l.replace(/\(.*$/, '').slice(name.length);
            while ((m = re.exec(rest))) vals.push(m[1]);
            rows[name] = rows[name] || { kind: '', counts: null };
            rows[name].lat = vals;
        } else if (mode === 'vs') {
            const c = l.trim().split(/\s+/);
            vs[c[0]] = c.slice(1);
        }
    }
    return { rows, vs };
}

async function readPage(page) {
    return page.evaluate(() => {
        const t = document.querySelector('#table table.summary');
        const rows = {};
        if (t) for (const tr of t.tBodies[0].rows) {
            const c = Array.from(tr.cells, (td) => td.textContent);
            rows[c[0]] = c;
        }
        const vs = {};
        const v = document.querySelector('#vs table');
        if (v) for (const tr of Array.from(v.rows).slice(1)) {
            const c = Array.from(tr.cells, (td) => td.textContent);
            vs[c[0]] = c.slice(1);
        }
        return { rows, vs, hash: location.hash, command: document.getElementById('command').textContent,
                 error: document.getElementById('error').textContent, runs: +document.body.dataset.runs || 0,
                 ms: +document.body.dataset.lastMs, status: document.getElementById('status').textContent,
                 canvases: document.querySelectorAll('#charts canvas').length,
                 truthPending: document.body.dataset.truthPending,
                 vsText: document.getElementById('vs').textContent,
                 spectrumPending: !document.getElementById('spectrum-pending').hidden,
                 text: document.getElementById('text').textContent };
    });
}
async function waitRuns(page, n) {
    await page.waitForFunction((k) => (+document.body.dataset.runs || 0) >= k &&
        document.getElementById('status').textContent.startsWith('done'), { timeout: 120000 }, n);
}
function compare(what, got, cli) {
    let n = 0;
    for (const [name, r] of Object.entries(cli.rows)) {
        const c = got.rows[name];
        if (!c) { fail(`${what}: the page's table has no row ${name}`); continue; }
        /* the page's cells: tester, kind, planned, sent, in flight, recorded, > thr, mean..max */
        const want = [name, r.kind].concat(r.counts || ['', '', '', '', '']).concat(r.lat || []);
        const have = c.map((x) => x.trim());
        if (name === 'truth') { want[1] = have[1]; } /* the truth's kind cell: "random probes" */
        for (let i = 0; i < want.length; i++) {
            if (name === 'truth' && i >= 2 && i <= 6) continue; /* the CLI prints no counts for the truth */
            if (want[i] !== have[i]) fail(`${what}: ${name} cell ${i}: page ${JSON.stringify(have[i])}, CLI ${JSON.stringify(want[i])}`);
            else n++;
        }
    }
    if (!cli.vs) return n; /* the truth pending: no errors to compare */
    for (const [name, v] of Object.entries(cli.vs)) {
        if (JSON.stringify(got.vs[name]) !== JSON.stringify(v))
            fail(`${what}: vs truth ${name}: page ${JSON.stringify(got.vs[name])}, CLI ${JSON.stringify(v)}`);
        else n += v.length;
    }
    return n;
}

let browser = null;
(async () => {
    browser = await puppeteer.launch({
        executablePath: chromium, headless: true,
        args: ['--no-sandbox', '--disable-gpu', '--allow-file-access-from-files', '--disable-dev-shm-usage'],
    });
    const consoleErrors = [];
    const watch = (page) => {
        page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning' || m.type() === 'warn') consoleErrors.push(m.type() + ': ' + m.text()); });
        page.on('pageerror', (e) => consoleErrors.push('pageerror: ' + e.message));
        page.on('requestfailed', (r) => consoleErrors.push('request failed: ' + r.url().slice(0, 120)));
    };
    const page = await browser.newPage();
    watch(page);
    /* the test's hold on one part: window.__holdPart = {part, ms} delays
     * that part's job to its worker, so the state while the truth runs
     * lasts long enough to read and to screenshot */
    await page.evaluateOnNewDocument(() => {
        /* a one-core machine: a pool of two all the same (with one worker
         * the page draws no pending state, which this test checks) */
        if ((navigator.hardwareConcurrency || 1) < 2)
            Object.defineProperty(Navigator.prototype, 'hardwareConcurrency', { get: () => 2 });
        const W = window.Worker;
        window.Worker = class extends W {
            postMessage(m, t) {
                const h = window.__holdPart;
                if (h && m && m.type === 'part' && m.part === h.part) setTimeout(() => super.postMessage(m, t), h.ms);
                else super.postMessage(m, t);
            }
        };
    });
    await page.setViewport({ width: 1280, height: 1500 });
    const url = 'file://' + page_path;
    await page.goto(url + '#scenario=' + expect.scenario);
    await waitRuns(page, 1);
    const before = await readPage(page);
    if (!(await page.evaluate(() => document.getElementById('changed').hidden))) fail('as written, yet changes are said under the title');
    const cliPlain = cliRows(expect.text_plain);
    const n0 = compare('as written', before, cliPlain);
    await page.screenshot({ path: outdir + '/explore-as-written.png', fullPage: true });

    /* a lecturer's change: the freeze's length, then the open tester's rate */
    const setInput = async (id, value) => {
        await page.evaluate((i, v) => {
            const el = document.getElementById(i);
            el.value = v;
            el.dispatchEvent(new Event('input'));
            el.dispatchEvent(new Event('change'));
        }, id, value);
    };
    /* the truth's part (the plan's last, after the testers) held 2 s: the
     * testers must be drawn before it ends */
    const truthPart = Object.keys(before.rows).length - 1;
    if (!before.rows.truth) fail('no truth row in the table as written');
    await page.evaluate((k) => { window.__holdPart = { part: k, ms: 2000 }; }, truthPart);
    for (const s of expect.sets) {
        const eq = s.indexOf('=');
        const id = 'k:' + s.slice(0, eq);
        if (!(await page.$('[id="' + id + '"]'))) fail(`no control ${id}`);
        await setInput(id, s.slice(eq + 1));
    }
    /* the testers drawn, the truth running: the testers' cells are the
     * CLI's, and no truth figure is shown (not this state's, not the last) */
    await page.waitForFunction((c) => document.getElementById('command').textContent === c &&
        document.body.dataset.truthPending === '1', { timeout: 120000 }, expect.command);
    const pending = await readPage(page);
    await page.screenshot({ path: outdir + '/explore-truth-pending.png', fullPage: true });
    const cliPending = cliRows(expect.text);
    const truthRow = cliPending.rows.truth;
    delete cliPending.rows.truth;
    cliPending.vs = null;
    const np = compare('testers drawn, truth pending', pending, cliPending);
    if (!truthRow) fail('the CLI printed no truth row');
    if (JSON.stringify(pending.rows.truth) !== JSON.stringify(['truth', 'truth: running…']))
        fail(`truth pending: its row is ${JSON.stringify(pending.rows.truth)}`);
    if (Object.keys(pending.vs).length || !pending.vsText.includes('truth: running'))
        fail(`truth pending: the errors against it show ${JSON.stringify(pending.vsText)}`);
    if (!pending.spectrumPending) fail('truth pending: the spectrum does not say so');
    if (/^truth\s|^vs truth/m.test(pending.text)) fail('truth pending: the printed summary shows a truth figure');
    if (!pending.status.includes('truth: running')) fail(`truth pending: status ${pending.status}`);
    await page.evaluate(() => { window.__holdPart = null; });
    await page.waitForFunction((c) => document.getElementById('command').textContent === c &&
        document.getElementById('status').textContent.startsWith('done') && !document.getElementById('out').classList.contains('stale'),
        { timeout: 120000 }, expect.command);
    const after = await readPage(page);
    if (after.truthPending !== '0') fail('complete, yet the truth is marked pending');
    const cliSet = cliRows(expect.text);
    const n1 = compare('after the change', after, cliSet);
    if (after.command !== expect.command) fail(`copy as command: ${after.command}, expected ${expect.command}`);
    if (after.hash !== '#' + expect.fragment) fail(`the fragment: ${after.hash}, expected #${expect.fragment}`);
    if (after.canvases < 3) fail(`only ${after.canvases} charts drawn`);
    /* the title is the scenario's as written: the changes said under it */
    const changed = await page.evaluate(() => { const e = document.getElementById('changed'); return e.hidden ? null : e.textContent; });
    if (!changed || !expect.sets.every((x) => changed.includes(x)))
        fail(`the changes under the title: ${JSON.stringify(changed)}, expected ${expect.sets.join(', ')}`);
    await page.screenshot({ path: outdir + '/explore-changed.png', fullPage: true });

    /* a third change, answered from the parts kept: the paced tester's rate */
    const more = expect.more.indexOf('=');
    await setInput('k:' + expect.more.slice(0, more), expect.more.slice(more + 1));
    await page.waitForFunction((c) => document.getElementById('command').textContent.includes(c) &&
        document.getElementById('status').textContent.startsWith('done') && !document.getElementById('out').classList.contains('stale'),
        { timeout: 120000 }, ' --set ' + expect.more);
    const third = await readPage(page);
    const n3 = compare('from kept parts', third, cliRows(expect.text3));
    const partsRun = await page.evaluate(() => +document.body.dataset.partsRun);
    if (partsRun !== 1) fail(`the third change ran ${partsRun} parts, not the paced tester's alone`);
    /* back to the two changes (the bad value below is the CLI's for those) */
    await setInput('k:' + expect.more.slice(0, more), '1000/s');
    await page.waitForFunction((c) => document.getElementById('command').textContent === c &&
        document.getElementById('status').textContent.startsWith('done'), { timeout: 120000 }, expect.command);

    /* Copy as command: the clipboard holds the command, or, where the
     * browser refuses the clipboard, the command is selected and the status
     * says to press Ctrl+C (never a silent nothing) */
    const copyOnce = async () => {
        await page.evaluate(() => { document.getElementById('status').textContent = ''; window.getSelection().removeAllRanges(); });
        await page.click('#copy');
        await page.waitForFunction(() => document.getElementById('status').textContent !== '', { timeout: 10000 })
            .catch(() => {});
        return page.evaluate(() => ({ status: document.getElementById('status').textContent,
                                      selected: window.getSelection().toString() }));
    };
    const copied = await copyOnce();
    if (copied.status !== 'command copied' && copied.selected !== expect.command)
        fail(`copy as command: status ${JSON.stringify(copied.status)}, selected ${JSON.stringify(copied.selected)}`);
    await page.evaluate(() => {
        navigator.clipboard.writeText = () => Promise.reject(new DOMException('denied', 'NotAllowedError'));
    });
    const refused = await copyOnce();
    if (!/the command is selected, press Ctrl\+C/.test(refused.status) || refused.selected !== expect.command)
        fail(`copy as command, the clipboard refused: status ${JSON.stringify(refused.status)}, ` +
             `selected ${JSON.stringify(refused.selected)}, expected the command ${JSON.stringify(expect.command)}`);

    /* a bad value: the CLI's message for that key */
    await setInput('k:' + expect.bad_set.slice(0, expect.bad_set.indexOf('=')), expect.bad_set.slice(expect.bad_set.indexOf('=') + 1));
    await page.waitForFunction(() => document.getElementById('error').textContent !== '', { timeout: 60000 });
    const bad = await readPage(page);
    if (bad.error.split('\n')[0] !== expect.bad_message)
        fail(`bad value: page says ${JSON.stringify(bad.error.split('\n')[0])}, CLI ${JSON.stringify(expect.bad_message)}`);
    const marked = await page.evaluate(() => Array.from(document.querySelectorAll('input.bad'), (e) => e.id));
    if (marked.length !== 1) fail(`bad value: controls marked ${JSON.stringify(marked)}`);
    await page.screenshot({ path: outdir + '/explore-bad-value.png' });

    /* the what-if as a URL: opened cold, the same figures */
    const cold = await browser.newPage();
    watch(cold);
    await cold.setViewport({ width: 1280, height: 1500 });
    await cold.goto(url + '#' + expect.fragment);
    await waitRuns(cold, 1);
    const coldRead = await readPage(cold);
    const n2 = compare('opened from the URL', coldRead, cliSet);
    if (coldRead.command !== expect.command) fail(`from the URL: command ${coldRead.command}`);

    /* a URL the page cannot show as written: said under the status, not
     * dropped in silence; a key given twice (the last used), a scenario the
     * lecture does not hold (the first shown) */
    const twice = await browser.newPage();
    watch(twice);
    await twice.goto(url + '#' + expect.fragment + '&' + expect.fragment);
    await waitRuns(twice, 1);
    const twiceRead = await readPage(twice);
    const twiceNote = await twice.evaluate(() => document.getElementById('fragment-note').hidden ? '' :
        document.getElementById('fragment-note').textContent);
    if (!/^the URL gives \S+ twice \(.*\); cosim takes each --set once: showing the last, /.test(twiceNote))
        fail(`a key twice in the URL: the note is ${JSON.stringify(twiceNote)}`);
    if (twiceRead.command !== expect.command) fail(`a key twice in the URL: command ${twiceRead.command}`);
    const n4 = compare('a key twice in the URL', twiceRead, cliSet);
    await twice.goto(url + '#scenario=no_such_scenario');
    await twice.waitForFunction(() => !document.getElementById('fragment-note').hidden &&
        document.getElementById('fragment-note').textContent.includes('no_such_scenario'), { timeout: 60000 });
    const noSuch = await twice.evaluate(() => document.getElementById('fragment-note').textContent);
    if (!/^the URL names scenario no_such_scenario, which this lecture does not hold \(it holds .+\): showing \S+$/.test(noSuch))
        fail(`an unknown scenario in the URL: the note is ${JSON.stringify(noSuch)}`);
    await twice.close();

    /* a run that fails part way: the CLI's message and exit code, no
     * merge of the parts that failed (no worker error), the figures of the
     * last good run kept under it */
    const failing = await browser.newPage();
    watch(failing);
    await failing.goto(url + '#' + expect.fail_fragment);
    await failing.waitForFunction(() => document.getElementById('status').textContent === 'refused', { timeout: 120000 });
    const failed = await readPage(failing);
    if (failed.error.split('\n')[0] !== expect.fail_message)
        fail(`a failing run: page says ${JSON.stringify(failed.error.split('\n')[0])}, CLI ${JSON.stringify(expect.fail_message)}`);
    if (!failed.error.includes('(exit 5;')) fail(`a failing run: no exit 5 in ${JSON.stringify(failed.error)}`);

    /* hostile URLs: the CLI's message for the --set each stands for; the
     * first opened cold (its fragment froze the page at load), the others
     * by a change of the fragment in the same page */
    const hostile = await browser.newPage();
    watch(hostile);
    let nh = 0;
    for (const h of expect.hostile) {
        if (!nh++) await hostile.goto(url + '#' + h.fragment);
        else await hostile.evaluate((f) => { location.hash = f; }, h.fragment);
        const said = await hostile.waitForFunction((m) => document.getElementById('status').textContent === 'refused' &&
            document.getElementById('error').textContent.split('\n')[0] === m, { timeout: 60000 }, h.message).then(() => true, () => false);
        if (!said) {
            const r = await readPage(hostile);
            fail(`hostile URL #${h.fragment}: status ${JSON.stringify(r.status)}, page says ${JSON.stringify(r.error.split('\n')[0])}, CLI ${JSON.stringify(h.message)}`);
        }
        const note = await hostile.evaluate(() => document.getElementById('fragment-note').hidden ? '' :
            document.getElementById('fragment-note').textContent);
        if (note !== h.note) fail(`hostile URL #${h.fragment}: the URL's note says ${JSON.stringify(note)}, not ${JSON.stringify(h.note)}`);
    }

    await browser.close();
    for (const e of consoleErrors) fail('console: ' + e);
    console.log(`cells equal to the CLI's: ${n0} as written, ${np} with the truth pending, ${n1} after the change, ${n3} from kept parts, ${n2} from the URL, ${n4} from a URL giving each key twice; ` +
                `redraw after the change ${after.ms} ms (the truth held 2 s)`);
    process.exitCode = fails ? 1 : 0;
})().catch((e) => {
    console.log('FAIL: ' + (e && e.stack || e));
    process.exitCode = 1;
    if (browser) browser.close().catch(() => {}).then(() => process.exit(1)); /* never left waiting */
});
