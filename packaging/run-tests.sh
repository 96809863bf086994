#!/usr/bin/env bash
# Sets up (Debian packages), builds (release preset) and runs the whole test suite. Anything
# that draws runs under Xvfb, as on a headless machine.
set -euo pipefail
cd "$(dirname "$0")/.."
bash packaging/install-deps.sh
cmake --preset release >/dev/null
cmake --build --preset release -j "$(nproc)"
# Two suites side by side on a 2-core machine (those that time themselves run alone: SERIAL in
# tests/CMakeLists.txt).
(cd build/release && xvfb-run -a -s "-screen 0 1920x1080x24" ctest --output-on-failure -j 2 "$@")
# The fuzz suite (clang, ASan + UBSan, the model only): every kept input once, then a short
# campaign per target (tests/fuzz/README.md). Skipped when ctest arguments pick tests.
if [ $# -eq 0 ]; then
  cmake --preset fuzz >/dev/null
  cmake --build --preset fuzz -j "$(nproc)"
  (cd build/fuzz && ASAN_SYMBOLIZER_PATH=/usr/lib/llvm-14/bin/llvm-symbolizer \
     ctest --output-on-failure -j 1)
fi
