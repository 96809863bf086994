#!/usr/bin/env bash
# Sets up (Debian packages), builds (release preset) and starts the GUI; arguments go to the
# app (default: the meta-roce-24k preset).
set -euo pipefail
cd "$(dirname "$0")/.."
bash packaging/install-deps.sh
cmake --preset release >/dev/null
cmake --build --preset release -j "$(nproc)"
exec build/release/app/clusterscope "$@"
