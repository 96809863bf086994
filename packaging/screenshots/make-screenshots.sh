#!/bin/sh
# Regenerates the screenshots the README and the AppStream metainfo show, from a build:
#   packaging/screenshots/make-screenshots.sh [BUILD_DIR]   (default build/release)
# A simulated Llama 3 405B run on meta-roce-24k (two steps) is replayed at one instant.
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
rm -f "$run"
