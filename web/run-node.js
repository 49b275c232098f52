// run-node.js - the browser's engine (cosim-engine.js) under node, as
// `cosim SCENARIO --set ...` would run it: prints the answer's field
// FIELD ("summary": summary.json's text, "text": the printed summary, ...),
// or the error message on standard error with the CLI's exit code.
// The real file system is mounted (NODEFS) at the working folder, so a
// scenario's data files are found as the CLI finds them.
// Usage: node run-node.js ENGINE.js FIELD SCENARIO [--set K=V]... [--allow-long]
'use strict';
const path = require('path');

async function main(argv) {
    const [enginePath, field, scenario, ...rest] = argv;
    const sets = [];
    let allowLong = 0;
    for (let i = 0; i < rest.length; i++) {
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
