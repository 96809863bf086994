#!/usr/bin/env bash
# Sets up (Debian packages), builds (release preset) and runs the whole test suite. Anything
# that draws runs under Xvfb, as on a headless machine.
set -euo pipefail
cd "$(dirname "$0")/.."
bash packaging/install-deps.sh
cmake --preset release >/dev/null
cmake --build --preset release -j "$(nproc)"
cd build/release
xvfb-run -a -s "-screen 0 1920x1080x24" ctest --output-on-failure -j 1 "$@"
