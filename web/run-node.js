// run-node.js - the browser's engine (cosim-engine.js) under node, as
// `cosim SCENARIO --set ...` would run it: prints the answer's field
// FIELD ("summary": summary.json's text, "text": the printed summary, ...),
// or the error message on standard error with the CLI's exit code.
// The real file system is mounted (NODEFS) at the working folder, so a
// scenario's data files are found as the CLI finds them.
// Usage: node run-node.js ENGINE.js FIELD SCENARIO [--set K=V]... [--allow-long]
//        node run-node.js ENGINE.js --errors OUTDIR SCENARIO...
// The second form runs each scenario in turn in one engine (as the page
// runs one change after another) and writes OUTDIR/NAME.err (what the CLI
// would print on standard error: "cosim: MESSAGE", or nothing) and
// OUTDIR/NAME.rc (the exit code), NAME the scenario's file name.
'use strict';
const path = require('path');

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
    for (let i = 0; field !== '--errors' && i < rest.length; i++) {
        if (rest[i] === '--set' && i + 1 < rest.length) sets.push(rest[++i]);
        else if (rest[i] === '--allow-long') allowLong = 1;
        else { process.stderr.write(`run-node: unknown argument ${rest[i]}\n`); return 2; }
    }
    const createCosimEngine = require(path.resolve(enginePath));
    const engine = await createCosimEngine({ print: () => {}, printErr: (t) => process.stderr.write(t + '\n') });
    const cwd = process.cwd();
    engine.FS.mkdirTree(cwd);
    engine.FS.mount(engine.FS.filesystems.NODEFS, { root: cwd }, cwd);
    engine.FS.chdir(cwd);
    if (field === '--errors') return errors(engine, scenario, rest);
    const text = engine.ccall('cosim_web_run', 'string', ['string', 'string', 'number'],
                              [scenario, sets.join('\n'), allowLong]);
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
