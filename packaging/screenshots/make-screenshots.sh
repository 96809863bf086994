#!/bin/sh
# Regenerates the screenshots the README, docs/ and the AppStream metainfo show, from a build:
#   packaging/screenshots/make-screenshots.sh [BUILD_DIR]   (default build/release)
# A simulated Llama 3 405B run on meta-roce-24k (two steps) is replayed at one instant; two
# more, on two oversubscriptions, are compared.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-build/release}
app="$build/app/clusterscope"
draw() { xvfb-run -a -s "-screen 0 1920x1080x24" "$@"; }
run=$(mktemp -d)/run405.sqlite
"$app" simulate --preset meta-roce-24k --model llama3-405b --gpus 16384 --tp 8 --pp 16 \
  --dp 128 --seq 8192 --batch-tokens 16777216 --steps 2 --out "$run" > /dev/null
at=${AT:-9.5s}
gpu=roce.pod0.rack3.host1.gpu3
draw "$app" render --preset meta-roce-24k --run "$run" --at "$at" --color value \
  --aggregate max --size 1280x720 -o "$here/overview.png"
draw "$app" render --preset meta-roce-24k --run "$run" --at "$at" --color value \
  --camera roce.pod0.rack3 --select "$gpu" --size 1280x720 -o "$here/rack-closeup.png"
draw "$app" render --preset meta-roce-24k --run "$run" --at "$at" --color value \
  --aggregate max --layout fabric --size 1280x720 -o "$here/fabric-labels.png"
draw "$app" --preset meta-roce-24k --run "$run" --at "$at" --select "$gpu" \
  --screenshot "$here/charts-dock.png"
# Explaining the run: the Step Breakdown dock (one bar per pipeline stage); the step's hottest
# link selected, with what crosses it in the inspector and the Hottest Links list; the Events
# dock of a 54-day span with failures.
draw "$app" --preset meta-roce-24k --run "$run" --at "$at" --dock stepBreakdown \
  --screenshot "$here/step-breakdown.png"
hot=$("$app" frame --preset meta-roce-24k "$run" --at "$at" --metric link_bytes_per_s \
  --hottest 1 --json | sed -n 's/.*"link":"\([^"]*\)".*/\1/p')
draw "$app" --preset meta-roce-24k --run "$run" --at "$at" --select "$hot" --dock inspector \
  --dock hotLinks --screenshot "$here/hot-link.png"
span=$(dirname "$run")/span.sqlite
"$app" simulate --preset meta-roce-24k --model llama3-405b --gpus 16384 --tp 8 --pp 16 \
  --dp 128 --seq 8192 --batch-tokens 16777216 --span 54d --failures on --out "$span" > /dev/null
draw "$app" --preset meta-roce-24k --run "$span" --at 12d7m --dock events \
  --screenshot "$here/events-dock.png"
# Exploring a design: the Design dock on 1:3 uplinks, the bill of materials in the Summary tab.
draw "$app" --preset meta-roce-24k --set 'generator.clusters[0].oversubscription=3' --no-run \
  --dock design --dock summary --screenshot "$here/design-dock.png"
# Two designs side by side: the 405B job scattered over the pods (fragmented) at 1:7 and at
# 1:3, the left coloured by the difference A - B during the end-of-step DP burst.
dir=$(dirname "$run")
for o in 7 3; do
  "$app" simulate --preset meta-roce-24k --set "generator.clusters[0].oversubscription=$o" \
    --model llama3-405b --gpus 16384 --tp 8 --pp 16 --dp 128 --seq 8192 \
    --batch-tokens 16777216 --steps 2 --placement fragmented --out "$dir/os$o.sqlite" > /dev/null
done
cat > "$dir/compare.clusterscope" <<EOF
{"format": "clusterscope-session", "version": 2, "topology": "preset:meta-roce-24k",
 "run": "os7.sqlite", "timeNs": 6600000000, "layout": "fabric", "colour": "difference",
 "aggregate": "max", "compare": {"run": "os3.sqlite", "linkedCameras": true}}
EOF
draw "$app" "$dir/compare.clusterscope" --screenshot "$here/split-view.png"
# The shipped design studies, each charted as File > Open Study first shows it: the figure
# against cost per GPU, one series per value of an axis, the Pareto front ringed.
for study in meta-roce-vs-ib nic-speed-zero gpu-generations; do
  "$app" study "$here/../../resources/studies/$study.json" --out "$dir/$study.sqlite" > /dev/null
  draw "$app" --preset small-256 --study "$dir/$study.sqlite" --screenshot "$here/study-$study.png"
done
# Many jobs on one cluster: the two-day mix, one job chosen in the Jobs dock (its racks
# outlined, its GPUs' busy and its traffic in the charts).
"$app" simulate-cluster --preset meta-roce-24k "$here/../../resources/workloads/meta-mix-2d.json" \
  --out "$dir/mix.sqlite" > /dev/null
draw "$app" --preset meta-roce-24k --run "$dir/mix.sqlite" --dock jobs --select job:mix-20 \
  --screenshot "$here/jobs-dock.png"
rm -rf "$dir"
