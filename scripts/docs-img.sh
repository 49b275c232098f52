#!/usr/bin/env bash
# Redraw the charts docs/examples.md and docs/sweeps.md embed (docs/img/)
# from the scenarios, with the cosim given (default build/cosim), so the
# documentation shows what cosim draws today. Usage: scripts/docs-img.sh [COSIM]
set -eu
cd "$(dirname "$0")/.."
cosim=$(realpath "${1:-build/cosim}")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# IMAGE  SCENARIO  CHART: docs/img/IMAGE.png is CHART.png of SCENARIO
while read -r img scn chart; do
    [ -d "$work/$scn" ] || "$cosim" -q "scenarios/$scn.ini" -o "$work/$scn"
    cp "$work/$scn/$chart.png" "docs/img/$img.png"
done <<'LIST'
stall_per_second stall_per_second spectrum
stall_per_second.requests stall_per_second requests
stall_per_second.timeline stall_per_second timeline
stall_50ms_every_5s stall_50ms_every_5s spectrum
stall_every_5s stall_every_5s spectrum
stall_every_5s.summary stall_every_5s summary
stall_every_5s.requests stall_every_5s requests
one_stall one_stall spectrum
one_stall.timeline one_stall timeline
stall_range stall_range spectrum
mm1_rho08 mm1_rho08 spectrum
compensation compensation spectrum
LIST
# docs/sweeps.md: every tester's rate at once, over five rates
"$cosim" sweep -q scenarios/stall_per_second.ini --set scenario.duration=10s \
    --vary tester.open.rate=1000/s..5000/s:5 --zip tester.paced.rate=1000/s..5000/s:5 \
    --zip tester.corrected.rate=1000/s..5000/s:5 --replications 3 \
    --title "Every tester's rate at once: only the open loop's p99 climbs" -o "$work/sweep"
cp "$work/sweep/sweep.png" docs/img/sweep_zip.png
echo "docs-img: redrew $(ls docs/img | wc -l) charts in docs/img"
