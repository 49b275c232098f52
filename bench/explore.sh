#!/usr/bin/env bash
# The interactive lecture page's speed (not a test: it only reports):
#  1. one control change's redraw in headless chromium, from the input
#     event to the charts and table drawn (the page's own clock), and to
#     the testers drawn while the truth's part still runs, with the
#     engine's share (the pool's parts and their merge) and the drawing's:
#     the freeze's length of scenarios/stall_per_second.ini (as shipped:
#     100 s, about 2.27 million requests over its testers and the truth's
#     probes) moved 10 -> 20 -> ... ms (every part of the run reruns), then
#     the paced tester's rate 1000/s -> 900/s -> ... (its part alone
#     reruns: the time charts' windows, set by the densest tester, stay),
#     then the service's sigma 0.2 -> 0.21 -> ... (every part reruns and
#     draws its service times anew: the workers' tapes restart);
#  2. browser vs native per simulated request, in CPU time (a shared
#     machine's wall time says more about the neighbours than the code):
#     the CLI (`cosim ... --set ... --charts none -q`: the whole process's
#     user + sys) against the engine under node (V8's WebAssembly, as in
#     chromium: process.cpuUsage around the call, after a warming run);
#     requests = every tester's sent plus the truth's probes (summary.json).
# Medians of RUNS (default 5). The page's figures are wall time: on a busy
# machine they hold the waits for a core too.
# Usage: bench/explore.sh [BUILD_DIR] [RUNS]
set -eu
cd "$(dirname "$0")/.."
build=${1:-build} runs=${2:-5}
root=$PWD
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
scn=scenarios/stall_per_second.ini
"$build/cosim" lecture "$scn" -o "$work/L" -q
grep -q 'id="engine-src"' "$work/L/index.html" ||
    { echo "index.html is the static lesson: build the browser engine (meson -Dweb=enabled) first" >&2; exit 1; }
npm_dir=$root/.cache/npm-test
[ -d "$npm_dir/node_modules/puppeteer-core" ] ||
    npm install --prefix "$npm_dir" --no-audit --no-fund --loglevel=error puppeteer-core@25.19.0 >/dev/null
"$build/cosim" "$scn" --charts none -q -o "$work/n" --force
requests=$(node -e '
const s = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
let n = s.testers.reduce((a, t) => a + t.sent, 0);
if (s.truth && s.truth.probes) n += s.truth.probes;
process.stdout.write(String(n));' "$work/n/summary.json")
median() { sort -g | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }
# native: wall ms per run, the same lengths as the page's changes
for i in $(seq 1 "$runs"); do
    len=$((10 * (i + 1)))ms
    /usr/bin/time -f "%U %S" -o "$work/t" "$build/cosim" "$scn" --set "stall.freeze.length=$len" --charts none -q \
        -o "$work/n" --force
    awk '{print ($1 + $2) * 1000}' "$work/t"
done | median >"$work/native"
# the engine under node: one process, two warming runs first (V8 compiles
# WebAssembly in tiers: the page's later runs have the optimised code too),
# then RUNS runs, each's CPU time
node -e '
const path = require("path");
const create = require(path.resolve(process.argv[1]));
create({ print: () => {}, printErr: () => {} }).then((m) => {
  const cwd = process.cwd();
  m.FS.mkdirTree(cwd); m.FS.mount(m.FS.filesystems.NODEFS, { root: cwd }, cwd); m.FS.chdir(cwd);
  const run = (sets) => m.ccall("cosim_web_run", "string", ["string", "string", "number"], [process.argv[2], sets, 0]);
  run(""); run("");
  for (let i = 1; i <= +process.argv[3]; i++) {
    const t = process.cpuUsage();
    run("stall.freeze.length=" + (10 * (i + 1)) + "ms");
    const d = process.cpuUsage(t);
    process.stdout.write(String((d.user + d.system) / 1000) + "\n");
  }
});' "$build/web/cosim-engine.js" "$scn" "$runs" | median >"$work/node"
# the pool's work in CPU time, under node: each part alone (a tester, the
# truth) and the merge, after warming runs; the longest-first share of the
# parts over 2 workers plus the plan and the merge is what a cold change
# costs on 2 idle cores (a figure derived from CPU times, not measured)
node -e '
const path = require("path");
const create = require(path.resolve(process.argv[1]));
const S = "string", N = "number";
create({ print: () => {}, printErr: () => {} }).then((m) => {
  const cwd = process.cwd();
  m.FS.mkdirTree(cwd); m.FS.mount(m.FS.filesystems.NODEFS, { root: cwd }, cwd); m.FS.chdir(cwd);
  const scn = process.argv[2], runs = +process.argv[3];
  const cpu = (f) => { const t = process.cpuUsage(); const r = f(); const d = process.cpuUsage(t); return [r, (d.user + d.system) / 1000]; };
  const med = (a) => { const s = a.slice().sort((x, y) => x - y); return s[s.length >> 1]; };
  const plan = JSON.parse(m.ccall("cosim_web_plan", S, [S, S, N], [scn, "", 0]));
  const parts = plan.parts.map(() => []), merges = [], plans = [];
  for (let r = -1; r < runs; r++) {
    const sets = "stall.freeze.length=" + (10 * (r + 3)) + "ms";
    const [, tp] = cpu(() => m.ccall("cosim_web_plan", S, [S, S, N], [scn, sets, 0]));
    const blobs = plan.parts.map((p, i) => {
      const [a, t] = cpu(() => JSON.parse(m.ccall("cosim_web_part", S, [S, S, N, N], [scn, sets, 0, i])));
      if (r >= 0) parts[i].push(t);
      return m.HEAPU8.slice(a.ptr, a.ptr + a.len);
    });
    const len = blobs.reduce((n, b) => n + b.length, 0), ptr = m._malloc(len);
    let at = ptr; for (const b of blobs) { m.HEAPU8.set(b, at); at += b.length; }
    const [, tm] = cpu(() => m.ccall("cosim_web_merge", S, [S, S, N, N, N], [scn, sets, 0, ptr, len]));
    m._free(ptr);
    if (r >= 0) { merges.push(tm); plans.push(tp); }
  }
  const pm = parts.map(med), bins = [0, 0];
  pm.map((t, i) => [t, i]).sort((a, b) => b[0] - a[0]).forEach(([t]) => { bins[bins[0] <= bins[1] ? 0 : 1] += t; });
  const line = plan.parts.map((p, i) => p.name + " " + pm[i].toFixed(0)).join(", ");
  process.stdout.write("parts under node, ms CPU each: " + line + "; merge " + med(merges).toFixed(0) + ", plan " + med(plans).toFixed(1) +
    "\nderived cold change on 2 idle cores (plan + longest-first share of the parts + merge): " +
    (med(plans) + Math.max(...bins) + med(merges)).toFixed(0) + " ms, against " + pm.reduce((a, b) => a + b, 0).toFixed(0) + " ms of parts in one piece\n");
});' "$build/web/cosim-engine.js" "$scn" "$runs" >"$work/parts"
NODE_PATH=$npm_dir/node_modules node "$root/bench/explore_page.js" "$work/L/index.html" \
    "$(command -v chromium)" "$runs" >"$work/page"
native=$(cat "$work/native") nodems=$(cat "$work/node")
size=$(wc -c <"$work/L/index.html")
echo "scenario: stall_per_second as shipped, $requests requests simulated per run; medians (and least) of $runs"
echo "page: index.html $size bytes ($((size / 1024)) KiB); the pool: navigator.hardwareConcurrency workers ($(nproc) here)"
while read -r what red redmin eng engmin drw drwmin parts tst tstmin npend; do
    case $what in
    freeze) say="the freeze's length (every part reruns)" ;;
    rate) say="the paced tester's rate (its part reruns, the others kept)" ;;
    sigma) say="the service's sigma (every part reruns, its draws anew: the service tapes restart)" ;;
    esac
    echo "change of $say: testers drawn $tst ms (least $tstmin; $npend of $runs changes drew them before the truth), complete $red ms (least $redmin), of which engine $eng ms (least $engmin), drawing $drw ms (least $drwmin); parts run $parts"
done <"$work/page"
cat "$work/parts"
awk -v r="$requests" -v nat="$native" -v nod="$nodems" 'BEGIN {
    printf "engine under node, CPU, one piece: %.0f ms (%.0f ns per request)\n", nod, nod * 1e6 / r
    printf "native cosim, CPU (whole process, --charts none -q): %.0f ms (%.0f ns per request)\n", nat, nat * 1e6 / r
    printf "browser engine / native per request (CPU): %.2fx\n", nod / nat
}'
