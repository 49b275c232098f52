// make_js_hlog.js - writes tests/inputs/hlog/js_offset.hlog with
// hdr-histogram-js (npm, 3.0.1), whose encoder always writes normalizing
// index offset 1 in the histogram header. cosim must read it as HdrHistogram
// Java does (tests/interop/interop.sh compares the two readers; test_inputs
// checks the figures below).
//
//   npm install --prefix DIR hdr-histogram-js@3.0.1
//   NODE_PATH=DIR/node_modules node tests/inputs/make_js_hlog.js OUT.hlog
//
// Interval [0 s, 1 s): 100 values of 1000 ns, 10 of 5000 ns, 1 of 45 ms.
// Interval [1 s, 2 s): 50 values of 2 ms, 1 of 20 ms.
// d = 3, lowest 1, highest 3600 s: every value below 2048 is its own
// bucket; 5000 lies in [5000, 5001], 2 ms in [1998848, 1999871]... (the
// reader's figures are HdrHistogram's bucket edges).
'use strict';
const fs = require('fs');
const hdr = require('hdr-histogram-js');

const out = process.argv[2];
if (!out) {
    console.error('usage: make_js_hlog.js OUT.hlog');
    process.exit(2);
}
const parts = [];
const w = new hdr.HistogramLogWriter((s) => parts.push(s));
w.outputLogFormatVersion();
w.outputComment('[StartTime: 0.000 (seconds since epoch), Thu Jan 01 00:00:00 UTC 1970]');
w.outputLegend();
function interval(values, start, end) {
    const h = hdr.build({ numberOfSignificantValueDigits: 3, lowestDiscernibleValue: 1,
                          highestTrackableValue: 3600 * 1e9, useWebAssembly: false });
    for (const [v, n] of values)
        h.recordValueWithCount(v, n);
    w.outputIntervalHistogram(h, start, end, 1e6);
}
interval([[1000, 100], [5000, 10], [45000000, 1]], 0, 1);
interval([[2000000, 50], [20000000, 1]], 1, 2);
fs.writeFileSync(out, parts.join(''));
