#!/usr/bin/env bash
# `cosim lecture` in a real browser: headless Chromium opens the static lesson (lesson.html)
# (through a harness page in an iframe), every image must load
# (complete, naturalWidth > 0) and the console must stay silent; a
# screenshot is kept in the build folder (lecture-screenshot.png) to look
# at. At 1280 px wide (a projector's) no page scrolls sideways. Skipped (exit 77) only when chromium is absent.
# Usage: lecture_browser.sh COSIM SOURCE_ROOT
set -u
cosim=$(realpath "$1") root=$2
chromium=$(command -v chromium || command -v chromium-browser) || { echo "chromium not installed: skipped"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$root" || exit 1
"$cosim" lecture scenarios/one_stall.ini scenarios/compensation.ini scenarios/stall_per_second.ini \
    -o "$work/L" >"$work/out" 2>"$work/err" || { echo "FAIL: cosim lecture exited $?: $(cat "$work/err")"; exit 1; }
fails=0
run_chromium() { # URL ARGS...: headless, files may read files, logging to stderr
    local url=$1
    shift
    timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --allow-file-access-from-files \
        --enable-logging=stderr --v=0 --virtual-time-budget=5000 "$@" "$url"
}
check_page() { # PAGE: its images all load, nothing on the console
    local page=$1 n
    cat >"$work/harness.html" <<HTML
<!DOCTYPE html><html><body><iframe id="f" src="L/$page" width="1280" height="800" style="border:0"></iframe><pre id="out">pending</pre>
<script>window.addEventListener('load', function () {
  var doc = document.getElementById('f').contentDocument, imgs = doc.images, bad = [];
  var over = doc.documentElement.scrollWidth - doc.documentElement.clientWidth;
  for (var i = 0; i < imgs.length; i++)
    if (!imgs[i].complete || !(imgs[i].naturalWidth > 0)) bad.push(imgs[i].getAttribute('src'));
  document.getElementById('out').textContent = 'RESULT images=' + imgs.length + ' broken=' + bad.length + ' ' + bad.join(' ') +
    ' sideways=' + over;
});</script></body></html>
HTML
    run_chromium "file://$work/harness.html" --dump-dom >"$work/dom" 2>"$work/log"
    local result
    result=$(grep -o 'RESULT images=[0-9]* broken=[0-9]*[^<]*' "$work/dom")
    n=$(ls "$work/L"/*.svg | wc -l)
    echo "$page: $result"
    case $result in
    "RESULT images=0 "* | "") echo "FAIL: $page: no image seen ($result)"; fails=$((fails + 1)) ;;
    *" broken=0 "*) ;;
    *) echo "FAIL: $page: $result"; fails=$((fails + 1)) ;;
    esac
    case $result in
    *" sideways=0") ;;
    *) echo "FAIL: $page: scrolls sideways at 1280 px ($result)"; fails=$((fails + 1)) ;;
    esac
    if grep -q 'CONSOLE' "$work/log"; then
        echo "FAIL: $page: console messages:"; grep 'CONSOLE' "$work/log"; fails=$((fails + 1))
    fi
    [ "$page" = lesson.html ] && [ "${result#RESULT images=$n }" = "$result" ] &&
        { echo "FAIL: lesson.html shows not every chart ($n SVG files): $result"; fails=$((fails + 1)); }
    return 0
}
check_page lesson.html
check_page one_stall.html
check_page compensation.html
check_page stall_per_second.html
# the harness sees a broken image (so a pass above means something)
printf '<!DOCTYPE html><html><head><title>t</title></head><body><img src="missing.svg"></body></html>' >"$work/L/broken.html"
check_page broken.html >"$work/neg" 2>&1
# and a page wider than the window (a 2000 px box)
printf '<!DOCTYPE html><html><head><title>t</title></head><body><div style="width:2000px">x</div></body></html>' >"$work/L/wide.html"
check_page wide.html >>"$work/neg" 2>&1
grep -q 'FAIL: wide.html: scrolls sideways' "$work/neg" || { echo "FAIL: a sideways scroll went unseen: $(cat "$work/neg")"; fails=$((fails + 1)); }
grep -q 'broken=1 missing.svg' "$work/neg" || { echo "FAIL: a missing image went unseen: $(cat "$work/neg")"; fails=$((fails + 1)); }
fails=$((fails - $(grep -c '^FAIL' "$work/neg")))
shot=${COSIM_BUILD_ROOT:-$work}/lecture-screenshot.png
run_chromium "file://$work/L/lesson.html" --window-size=1280,4000 --screenshot="$shot" >/dev/null 2>&1
[ -s "$shot" ] || { echo "FAIL: no screenshot"; fails=$((fails + 1)); }
echo "screenshot: $shot"
[ "$fails" -eq 0 ] && echo "lecture page: every image loads, console silent" && exit 0
exit 1
