// run-node.js - the browser's engine (cosim-engine.js) under node, as
// `cosim SCENARIO --set ...` would run it: prints the answer's field
// FIELD ("summary": summary.json's text, "text": the printed summary, ...),
// or the error message on standard error with the CLI's exit code.
// The real file system is mounted (NODEFS) at the working folder, so a
// scenario's data files are found as the CLI finds them.
// Usage: node run-node.js ENGINE.js FIELD SCENARIO [--set K=V]... [--allow-long]
//        node run-node.js ENGINE.js --errors OUTDIR SCENARIO...
//        node run-node.js ENGINE.js --same-parts SCENARIO [--set K=V]... [-- SCENARIO [--set K=V]...]...
// The second form runs each scenario in turn in one engine (as the page
// runs one change after another) and writes OUTDIR/NAME.err (what the CLI
// would print on standard error: "cosim: MESSAGE", or nothing) and
// OUTDIR/NAME.rc (the exit code), NAME the scenario's file name.
// The third runs each scenario (its --set options up to the next "--") as
// the page's pool of workers does: cosim_web_plan, each part
// (cosim_web_part) in one of two engine instances in turn, their bytes
// merged (cosim_web_merge) in the first; the answer must equal
// cosim_web_run's byte for byte (every field: summary.json, the printed
// summary, the table, the chart data). Prints one line per scenario; exit 1
// on a difference.
'use strict';
const path = require('path');

/* The --set options as the engine takes them: one a line, a backslash,
 * newline, carriage return or NUL in one escaped (\\, \n, \r, \0), as
 * the page's jobArgs does (web/engine.c, unescape_set). */
const ESC = { '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\0': '\\0' };
function setLines(sets) { return sets.map((s) => s.replace(/[\\\n\r\0]/g, (c) => ESC[c])).join('\n'); }

/* The merge (cosim_web_merge) of blobs in engine e0: the answer's text. */
function merge(e0, scn, sets, allowLong, blobs) {
    const len = blobs.reduce((n, b) => n + b.length, 0);
    const ptr = e0._malloc(len || 1);
    let at = ptr;
    for (const b of blobs) { e0.HEAPU8.set(b, at); at += b.length; }
    const text = e0.ccall('cosim_web_merge', 'string', ['string', 'string', 'number', 'number', 'number'],
                          [scn, sets, allowLong, ptr, len]);
    e0._free(ptr);
    return text;
}

/* A run as the page's pool makes it: the plan, the parts shared out over
 * the engines, the merge in the first. {text: the answer's text,
 * testers: the merge of the testers' parts alone (the page's "truth
 * pending" answer) when the plan has a truth part, else null}. */
function partsRun(engines, scn, sets, allowLong) {
    const e0 = engines[0];
    const planText = e0.ccall('cosim_web_plan', 'string', ['string', 'string', 'number'], [scn, sets, allowLong]);
    const plan = JSON.parse(planText);
    if (plan.exit !== 0) return { text: planText, testers: null };
    const blobs = [];
    let testers = null;
    for (let i = 0; i < plan.parts.length; i++) {
        const e = engines[i % engines.length];
        const aText = e.ccall('cosim_web_part', 'string', ['string', 'string', 'number', 'number'], [scn, sets, allowLong, i]);
        const a = JSON.parse(aText);
        if (a.exit !== 0) return { text: aText, testers: null }; /* the first part's refusal, as the CLI's */
        if (plan.parts[i].kind === 'truth') testers = merge(e0, scn, sets, allowLong, blobs);
        blobs.push(e.HEAPU8.slice(a.ptr, a.ptr + a.len));
    }
    return { text: merge(e0, scn, sets, allowLong, blobs), testers };
}

/* The spectrum data's blocks (plot_write_spectrum_data) of the testers. */
function testerBlocks(text) {
    return text.split('\n\n\n').filter((b) => /^# tester /m.test(b) && !/^# tester truth$/m.test(b));
}

/* The whole answer's summary.json without what the truth gives: its
 * member and every tester's error_vs_truth; what the testers' merge must
 * hold, field for field. */
function withoutTruth(summaryText) {
    const o = JSON.parse(summaryText);
    delete o.truth;
    for (const t of o.testers) delete t.error_vs_truth;
    return JSON.stringify(o);
}

async function sameParts(engines, args) {
    let bad = 0;
    const runs = [];
    for (let i = 0, cur = null; i < args.length; i++) {
        if (args[i] === '--') { cur = null; continue; }
        if (args[i] === '--set' && cur) { cur.sets.push(args[++i]); continue; }
        cur = { scn: args[i], sets: [] };
        runs.push(cur);
    }
    for (const r of runs) {
        const sets = setLines(r.sets);
        const whole = engines[0].ccall('cosim_web_run', 'string', ['string', 'string', 'number'], [r.scn, sets, 0]);
        const run = partsRun(engines, r.scn, sets, 0);
        const parts = run.text;
        const what = r.scn + r.sets.map((s) => ' --set ' + s).join('');
        if (run.testers !== null) { /* the testers drawn first: their figures, no truth's */
            const a = JSON.parse(whole), t = JSON.parse(run.testers);
            const ok = t.exit === 0 && t.truth_pending === true && a.exit === 0 &&
                withoutTruth(a.summary) === JSON.stringify(JSON.parse(t.summary)) &&
                !('truth' in JSON.parse(t.summary)) && !/error_vs_truth/.test(t.summary) &&
                t.timeline === a.timeline && t.requests === a.requests && t.stalls === a.stalls &&
                JSON.stringify(testerBlocks(a.spectrum)) === JSON.stringify(testerBlocks(t.spectrum)) &&
                !/^# tester truth$/m.test(t.spectrum);
            if (ok) console.log(`testers first: ${what}`);
            else { bad++; console.log(`DIFFERENT: ${what}: the testers' merge without the truth`); }
        }
        if (whole === parts) {
            console.log(`same: ${what} (${JSON.parse(whole).exit === 0 ? 'ran' : 'refused'})`);
        } else {
            bad++;
            const a = JSON.parse(whole), b = JSON.parse(parts);
            const fields = Object.keys(a).filter((k) => JSON.stringify(a[k]) !== JSON.stringify(b[k]));
            console.log(`DIFFERENT: ${what}: the fields ${fields.join(', ') || '(the text around them)'}`);
        }
    }
    return bad ? 1 : 0;
}

async function errors(engine, outdir, scenarios) {
    const fs = require('fs');
    for (const scn of scenarios) {
        const text = engine.ccall('cosim_web_run', 'string', ['string', 'string', 'number'], [scn, '', 0]);
        const answer = text === null ? { exit: 5, error: 'out of memory' } : JSON.parse(text);
        const base = path.join(outdir, path.basename(scn));
        fs.writeFileSync(base + '.err', answer.exit !== 0 ? `cosim: ${answer.error}\n` : '');
        fs.writeFileSync(base + '.rc', `${answer.exit}\n`);
    }
    return 0;
}

async function main(argv) {
    const [enginePath, field, scenario, ...rest] = argv;
    const sets = [];
    let allowLong = 0;
    for (let i = 0; field !== '--errors' && field !== '--same-parts' && i < rest.length; i++) {
        if (rest[i] === '--set' && i + 1 < rest.length) sets.push(rest[++i]);
        else if (rest[i] === '--allow-long') allowLong = 1;
        else { process.stderr.write(`run-node: unknown argument ${rest[i]}\n`); return 2; }
    }
    const createCosimEngine = require(path.resolve(enginePath));
    const make = async () => {
        const e = await createCosimEngine({ print: () => {}, printErr: (t) => process.stderr.write(t + '\n') });
        const cwd = process.cwd();
        e.FS.mkdirTree(cwd);
        e.FS.mount(e.FS.filesystems.NODEFS, { root: cwd }, cwd);
        e.FS.chdir(cwd);
        return e;
    };
    if (field === '--same-parts') return sameParts([await make(), await make()], [scenario, ...rest]);
    const engine = await make();
    if (field === '--errors') return errors(engine, scenario, rest);
    const text = engine.ccall('cosim_web_run', 'string', ['string', 'string', 'number'],
                              [scenario, setLines(sets), allowLong]);
    if (text === null) { process.stderr.write('cosim: out of memory\n'); return 5; }
    const answer = JSON.parse(text);
    if (answer.exit !== 0) { process.stderr.write(`cosim: ${answer.error}\n`); return answer.exit; }
    if (!(field in answer)) { process.stderr.write(`run-node: no field ${field}\n`); return 2; }
    const v = answer[field];
    process.stdout.write(typeof v === 'string' ? v : JSON.stringify(v) + '\n');
    return 0;
}

main(process.argv.slice(2)).then((rc) => { process.exitCode = rc; },
    (e) => { process.stderr.write(`run-node: ${e && e.stack || e}\n`); process.exitCode = 70; });
