#!/usr/bin/env bash
# cosim lecture's interactive page (the lecture's index.html) in Debian's chromium,
# headless (tests/explore_browser.js drives it with puppeteer-core from npm,
# installed here into .cache/npm-test of the source tree, never a browser
# download): from file://, change the freeze's length and the open tester's
# rate, and the redrawn table equals the CLI's printed figures for the same
# --set (and again after a third change answered from the parts the pool
# kept: only the changed tester's part reruns); a bad value shows the CLI's
# message; the URL's fragment reproduces
# the state; the console stays silent. Screenshots: BUILD_ROOT/explore-*.png.
# Skipped (exit 77), saying so, when chromium or node is missing or the
# browser engine is not built (no emcc).
# Usage: explore_browser.sh COSIM SOURCE_ROOT BUILD_ROOT
set -u
cosim=$(realpath "$1") root=$(realpath "$2") out=$(realpath "$3")
chromium=$(command -v chromium || command -v chromium-browser) || { echo "chromium not installed: skipped"; exit 77; }
command -v node >/dev/null && command -v npm >/dev/null || { echo "node or npm not installed: skipped"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$root" || exit 1
"$cosim" lecture scenarios/stall_per_second.ini scenarios/one_stall.ini -o "$work/L" -q 2>"$work/err" ||
    { echo "FAIL: cosim lecture exited $?: $(cat "$work/err")"; exit 1; }
grep -q 'id="engine-src"' "$work/L/index.html" ||
    { echo "index.html is the static lesson: the browser engine is not built (emcc missing): skipped"; exit 77; }
[ -s "$work/L/lesson.html" ] || { echo "FAIL: no lesson.html beside the interactive page"; exit 1; }
npm_dir=$root/.cache/npm-test
if [ ! -f "$npm_dir/.done-25.19.0" ]; then
    mkdir -p "$npm_dir"
    [ -f "$npm_dir/package.json" ] || echo '{"private": true}' >"$npm_dir/package.json"
    npm install --prefix "$npm_dir" --no-audit --no-fund --loglevel=error puppeteer-core@25.19.0 >/dev/null ||
        { echo "FAIL: npm install puppeteer-core"; exit 1; }
    touch "$npm_dir/.done-25.19.0"
fi
scn=scenarios/stall_per_second.ini
sets=(stall.freeze.length=50ms tester.open.rate=500/s)
"$cosim" "$scn" --charts none -o "$work/a" >"$work/plain.txt" || { echo "FAIL: cosim $scn exited $?"; exit 1; }
"$cosim" "$scn" --set "${sets[0]}" --set "${sets[1]}" --charts none -o "$work/b" >"$work/set.txt" ||
    { echo "FAIL: cosim $scn --set ... exited $?"; exit 1; }
# a third change the pool answers from kept parts: the paced tester's rate
# lowered (the time charts' windows, set by the densest tester, stay), so
# only its part reruns
more=tester.paced.rate=500/s
"$cosim" "$scn" --set "${sets[0]}" --set "${sets[1]}" --set "$more" --charts none -o "$work/b3" >"$work/set3.txt" ||
    { echo "FAIL: cosim $scn --set ... --set $more exited $?"; exit 1; }
bad=tester.open.rate=500
"$cosim" "$scn" --set "${sets[0]}" --set "${sets[1]%%=*}=500" --charts none -q -o "$work/c" 2>"$work/bad.err" &&
    { echo "FAIL: the CLI took --set $bad"; exit 1; }
# a run that fails part way (exit 5, not a refused value): 2 s requests
# restarted by the 10 ms freeze each second never end; every tester's part
# fails and the page shows the CLI's message (the first tester's)
fails=(stall.freeze.preemption=restart service.median=2s)
"$cosim" "$scn" --set "${fails[0]}" --set "${fails[1]}" --charts none -q -o "$work/d" 2>"$work/fail.err"
[ $? -eq 5 ] || { echo "FAIL: the CLI did not stop with exit 5 for --set ${fails[*]}"; exit 1; }
# hostile URLs: each fragment (as a browser sends it) and the --set the CLI
# is given for it, whose message the page must show: text that is no
# %-encoding taken as written (it froze the page: an uncaught URIError), a
# choice the select lacks, a line break an input strips, a tick box's word
# other than yes or no, a KEY without '=', an allow-long other than 0 or 1
# (each silently dropped or changed before); the third field, what the
# URL's note under the status says (nothing: no note)
hostile=()
while IFS='|' read -r frag set note; do
    set=$(printf '%b' "$set")
    "$cosim" "$scn" --set "$set" --charts none -q -o "$work/h" 2>"$work/h.err" && { echo "FAIL: the CLI took --set $set"; exit 1; }
    hostile+=("$frag" "$(head -1 "$work/h.err")" "$note")
done <<'EOF'
stall.freeze.length=%|stall.freeze.length=%|the URL's "%" is not %-encoded UTF-8: taken as written
scenario.rank_rule=bogus|scenario.rank_rule=bogus|
tester.open.rate=500%0A/s|tester.open.rate=500\n/s|
tester.open.chart=maybe|tester.open.chart=maybe|
allow-long=2&tester.open.rate|tester.open.rate|the URL's allow-long=2: 1 (run a job over the budget) or 0; not taken
EOF
FAIL_FRAGMENT="${fails[0]}&${fails[1]}" \
MORE=$more SCENARIO=stall_per_second COMMAND="cosim $scn --set ${sets[0]} --set ${sets[1]}" \
FRAGMENT="${sets[0]}&${sets[1]}" \
HOSTILE=$(node -e 'const a = process.argv.slice(1), o = []; for (let i = 0; i < a.length; i += 3) o.push({ fragment: a[i], message: a[i + 1], note: a[i + 2] }); console.log(JSON.stringify(o));' "${hostile[@]}") \
node -e '
const fs = require("fs"), w = process.argv[1];
fs.writeFileSync(w + "/expect.json", JSON.stringify({
  scenario: process.env.SCENARIO, sets: process.argv.slice(2, 4), command: process.env.COMMAND,
  fragment: process.env.FRAGMENT, text_plain: fs.readFileSync(w + "/plain.txt", "utf8"),
  text: fs.readFileSync(w + "/set.txt", "utf8"), bad_set: process.argv[4],
  more: process.env.MORE, text3: fs.readFileSync(w + "/set3.txt", "utf8"),
  bad_message: fs.readFileSync(w + "/bad.err", "utf8").split("\n")[0],
  fail_fragment: process.env.FAIL_FRAGMENT,
  fail_message: fs.readFileSync(w + "/fail.err", "utf8").split("\n")[0],
  hostile: JSON.parse(process.env.HOSTILE) }));' "$work" "${sets[@]}" "$bad"
NODE_PATH=$npm_dir/node_modules timeout 600 node "$root/tests/explore_browser.js" "$work/L/index.html" "$chromium" \
    "$out" "$work/expect.json"
rc=$?
echo "screenshots: $out/explore-as-written.png $out/explore-changed.png $out/explore-bad-value.png"
echo "page: $(wc -c <"$work/L/index.html") bytes"
exit $rc
