#!/usr/bin/env bash
# The chart review (issue 35): every shipped scenario (scenarios/ and
# scenarios/tools/) in every style (default, slides, svg, pdf, animate),
# each chart rendered by gnuplot from the .gp and .dat cosim wrote, as
# cosim renders it (gnuplot -d, outfile given), plus review=1: the scripts
# then print what they drew (plot area, axes, data extents, ticks, levels,
# placed labels, smallest text), which tests/charts_review.py checks along
# with gnuplot's stderr. A contact sheet of every picture (one PNG of
# thumbnails per style) is left in OUT for a person to look at.
#
# Usage: charts_review.sh COSIM SOURCE_ROOT OUT [JOBS]
#   OUT is emptied first; JOBS gnuplots run at once (default 2);
#   CHARTS_REVIEW_ONLY="NAME ..." reviews those scenarios alone (tools_NAME
#   for scenarios/tools/NAME.ini).
set -u
cosim=$(realpath "$1") root=$(realpath "$2") out=$3 jobs=${4:-2}
command -v gnuplot >/dev/null || { echo "charts_review: gnuplot is not installed: skipped"; exit 77; }
command -v python3 >/dev/null || { echo "charts_review: python3 is not installed"; exit 1; }
rm -rf "$out"
mkdir -p "$out"
out=$(realpath "$out")
cd "$root" || exit 1

styles="default slides svg pdf animate"
opts() {
    case $1 in
    default) ;;
    slides) echo "--style slides" ;;
    svg) echo "--format svg" ;;
    pdf) echo "--format pdf" ;;
    animate) echo "--animate --charts requests" ;;
    esac
}

# 1. the charts' scripts and data, by cosim (no gnuplot: fast)
fails=0
for st in $styles; do
    mkdir -p "$out/$st"
    for sc in scenarios/*.ini scenarios/tools/*.ini; do
        n=$(basename "$sc" .ini)
        case $sc in scenarios/tools/*) n=tools_$n ;; esac
        # (CHARTS_REVIEW_ONLY="one_stall tools_wrk2": those alone, while working on a style)
        if [ -n "${CHARTS_REVIEW_ONLY:-}" ] && ! [[ " $CHARTS_REVIEW_ONLY " == *" $n "* ]]; then continue; fi
        # shellcheck disable=SC2046 # the style's options are words
        "$cosim" -q --no-plot -o "$out/$st/$n" "$sc" $(opts "$st") 2>"$out/$st/$n.cosim-err"
        rc=$?
        if [ $rc -ne 0 ]; then
            echo "FAIL $st/$n: cosim exited $rc: $(cat "$out/$st/$n.cosim-err")"
            fails=$((fails + 1))
        fi
    done
done

# 2. every chart rendered, JOBS gnuplots at once: one gnuplot a folder,
# its charts one after the other after "reset session" as cosim's batches
# do (a gnuplot's start costs about 0.13 s of CPU: 663 of them were a
# minute and a half), each bounded by 300 s. What gnuplot prints is split
# back by chart: the review lines by the chart they name, the messages by
# the script they name ("requests.gp" line 12: ...); one that names none is
# the folder's (_folder.err), a failure too.
ext() {
    case $1 in svg) echo svg ;; pdf) echo pdf ;; *) echo png ;; esac
}
for st in $styles; do
    for d in "$out/$st"/*/; do
        [ -d "$d" ] && printf '%s\t%s\n' "$d" "$(ext "$st")"
    done
done >"$out/jobs.tsv"
render_dir() { # DIR EXT
    cd "$1" || return
    local args=(-d) b e names=()
    for gp in *.gp; do
        [ -e "$gp" ] || continue
        b=${gp%.gp}
        e=$2
        [ "$b" = requests_anim ] && e=gif
        case $1 in */animate/*) [ "$b" = requests_anim ] || continue ;; esac
        [ ${#names[@]} -gt 0 ] && args+=(-e "reset session")
        args+=(-e "review=1" -e "outfile='$b.$e'" "$gp")
        names+=("$b")
        : >"$b.review"
        : >"$b.err"
    done
    [ ${#names[@]} -gt 0 ] || return
    timeout 300 gnuplot "${args[@]}" >_folder.out 2>_folder.all
    local rc=$?
    [ $rc -eq 0 ] || echo "gnuplot exited $rc on $1 (${names[*]})" >>_folder.all
    awk '/^review chart=/ { split($2, a, "="); c = a[2] == "animate" ? "requests_anim" : a[2] }
         /^review/ && c != "" { print > (c ".review") }' _folder.out
    awk '{ if (match($0, /^"[A-Za-z_]+\.gp"/)) { n = substr($0, 2, RLENGTH - 5); print > (n ".err") }
           else if ($0 != "") print > "_folder.err" }' _folder.all
    rm -f _folder.out _folder.all
}
export -f render_dir
tr '\t' '\n' <"$out/jobs.tsv" | xargs -d '\n' -n 2 -P "$jobs" bash -c 'render_dir "$@"' _
echo "charts_review: $(cat "$out"/*/*/*.review 2>/dev/null | grep -c '^review chart=') panels drawn in $(wc -l <"$out/jobs.tsv") folders, $(echo $styles | wc -w) styles"

# 3. the checks
python3 "$root/tests/charts_review.py" "$out"/*/*/ || fails=$((fails + 1))

# 4. the contact sheets, for a person (not checked): thumbnails named by
# scenario and chart
if command -v montage >/dev/null; then
    for st in default slides animate; do
        case $st in animate) pat='*/requests_anim.gif' ;; *) pat='*/*.png' ;; esac
        list=()
        # each picture made a thumbnail first, JOBS at once (montage read
        # them one by one, resized with its default filter: the grown
        # request bars, up to 1600 x 4200 px, took the default sheet to a
        # minute); a GIF's first frame, the only whole one of an optimized GIF
        mkdir -p "$out/thumbs/$st"
        k=0
        for f in "$out/$st"/$pat; do
            [ -e "$f" ] || continue
            k=$((k + 1))
            printf '%s\t%s\n' "$f" "$out/thumbs/$st/$(printf '%04d' $k).png"
        done >"$out/thumbs/$st.tsv"
        tr '\t' '\n' <"$out/thumbs/$st.tsv" | xargs -d '\n' -n 2 -P "$jobs" \
            sh -c 'case $1 in *.gif) convert "$1[0]" -thumbnail 320x200 "$2" ;; *) convert "$1" -thumbnail 320x200 "$2" ;; esac' _
        while IFS=$'\t' read -r f th; do
            lab="$(basename "$(dirname "$f")")/$(basename "$f")"
            list+=(-label "$lab" "$th")
        done <"$out/thumbs/$st.tsv"
        [ ${#list[@]} -gt 0 ] || continue
        # (ImageMagick's default label font, Helvetica, is not on Debian:
        # the Sans gnuplot draws with)
        font=$(fc-match -f '%{file}' Sans 2>/dev/null)
        montage "${list[@]}" -tile 8x -geometry 320x200+4+4 ${font:+-font "$font"} -pointsize 10 -depth 8 \
            "$out/contact-$st.png" \
            || { echo "FAIL: montage could not make contact-$st.png"; fails=$((fails + 1)); }
        echo "charts_review: contact sheet $out/contact-$st.png ($((${#list[@]} / 3)) charts)"
    done
fi
[ "$fails" -eq 0 ] || { echo "charts_review: $fails failure(s)"; exit 1; }
echo "charts_review: ok"
