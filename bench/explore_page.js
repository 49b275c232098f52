// explore_page.js - bench/explore.sh's browser half: open the lecture's index.html
// from file:// in headless chromium, move the freeze's length RUNS times
// (20, 30, ... ms), and print the median redraw (input event to charts
// drawn) and the median engine time, in ms.
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
    const redraw = [], engine = [];
    for (let i = 1; i <= runs; i++) {
        const r = await p.evaluate((len, k) => new Promise((resolve) => {
            const t0 = performance.now();
            const el = document.getElementById('k:stall.freeze.length');
            const obs = new MutationObserver(() => {
                if ((+document.body.dataset.runs || 0) > k) {
                    obs.disconnect();
                    /* the charts drawn: the next frame after the run's answer */
                    requestAnimationFrame(() => resolve([performance.now() - t0, +document.body.dataset.engineMs]));
                }
            });
            obs.observe(document.body, { attributes: true });
            el.value = len;
            el.dispatchEvent(new Event('change'));
        }), (10 * (i + 1)) + 'ms', i);
        redraw.push(r[0]);
        engine.push(r[1]);
    }
    await b.close();
    process.stdout.write(median(redraw).toFixed(1) + ' ' + median(engine).toFixed(1) + '\n');
})().catch((e) => { process.stderr.write(String(e && e.stack || e) + '\n'); process.exitCode = 1; });
