// explore_page.js - bench/explore.sh's browser half: open the lecture's index.html
// from file:// in headless chromium, move the freeze's length RUNS times
// (20, 30, ... ms: every part of the run reruns), then the paced tester's
// rate RUNS times (900/s, 800/s, ...: only that tester's part reruns, the
// others are kept; a rate above the others' 1000/s would move the time
// charts' windows, which follow the densest tester, and rerun every part),
// then the service's sigma RUNS times (0.21, 0.22, ...: every part reruns,
// and every worker's service tape restarts, server.h), and print for each
// kind of change the median and
// the least redraw (input event to charts drawn), engine (the pool's
// parts and their merge) and drawing (the four charts and the table) times
// in ms, the parts run, and the time to the testers drawn (the truth still
// running; a change that draws no such state, its truth kept or ended
// first, counts its complete redraw) with how many changes drew it:
// "freeze R R_MIN E E_MIN D D_MIN PARTS T T_MIN PENDING", "rate ..." and
// "sigma ..." lines.
// Usage: node explore_page.js PAGE CHROMIUM RUNS
'use strict';
const puppeteer = require('puppeteer-core');
const [page_path, chromium, runs_s] = process.argv.slice(2);
const runs = +runs_s;
const median = (a) => { const s = a.slice().sort((x, y) => x - y); const n = s.length; return n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2; };
(async () => {
    const b = await puppeteer.launch({ executablePath: chromium, headless: true,
        args: ['--no-sandbox', '--disable-gpu', '--allow-file-access-from-files', '--disable-dev-shm-usage'] });
    const p = await b.newPage();
    await p.setViewport({ width: 1280, height: 1400 });
    await p.goto('file://' + page_path);
    await p.waitForFunction(() => (+document.body.dataset.runs || 0) >= 1, { timeout: 120000 });
    const change = (id, value, k) => p.evaluate((i, v, k) => new Promise((resolve) => {
        const t0 = performance.now();
        const el = document.getElementById(i);
        const testers0 = +document.body.dataset.testersRuns || 0;
        let testersAt = null; /* the testers drawn, the truth pending */
        const obs = new MutationObserver(() => {
            const d = document.body.dataset;
            if (testersAt === null && (+d.testersRuns || 0) > testers0) {
                testersAt = -1;
                requestAnimationFrame(() => { testersAt = performance.now() - t0; });
            }
            if ((+d.runs || 0) > k) {
                obs.disconnect();
                /* the charts drawn: the next frame after the run's answer */
                requestAnimationFrame(() => {
                    const all = performance.now() - t0;
                    const pend = testersAt !== null && testersAt >= 0;
                    resolve([all, +d.engineMs, +d.drawMs, +d.partsRun, pend ? testersAt : all, pend ? 1 : 0]);
                });
            }
        });
        obs.observe(document.body, { attributes: true });
        el.value = v;
        el.dispatchEvent(new Event('change'));
    }), id, value, k);
    let k = 1;
    const lines = [];
    for (const [what, id, value] of [['freeze', 'k:stall.freeze.length', (i) => (10 * (i + 1)) + 'ms'],
                                     ['rate', 'k:tester.paced.rate', (i) => (1000 - 100 * i) + '/s'],
                                     ['sigma', 'k:service.sigma', (i) => (0.2 + 0.01 * i).toFixed(2)]]) {
        const rows = [];
        for (let i = 1; i <= runs; i++) rows.push(await change(id, value(i), k++));
        const col = (j) => rows.map((r) => r[j]);
        const fmt = (a) => median(a).toFixed(1) + ' ' + Math.min(...a).toFixed(1);
        lines.push(`${what} ${fmt(col(0))} ${fmt(col(1))} ${fmt(col(2))} ${median(col(3))} ${fmt(col(4))} ` +
                   col(5).reduce((a, b) => a + b, 0));
    }
    await b.close();
    process.stdout.write(lines.join('\n') + '\n');
})().catch((e) => { process.stderr.write(String(e && e.stack || e) + '\n'); process.exitCode = 1; });
