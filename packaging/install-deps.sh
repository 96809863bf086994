#!/usr/bin/env bash
# Installs what ClusterScope needs to build, test and run, from Debian 12 packages.
# Idempotent and quiet when everything is already there. Needs root or sudo.
set -euo pipefail

packages=(
  build-essential cmake pkg-config file dpkg-dev
  qt6-base-dev qt6-base-dev-tools libqt6opengl6-dev libqt6sql6-sqlite qt6-svg-dev qt6-qpa-plugins
  libgl-dev libgl1-mesa-dri mesa-utils
  libvtk9-dev            # VTK 9.1 core modules only; never libvtk9-qt-dev (Qt 5)
  libqcustomplot-dev     # ships the Qt 6 build (QCustomPlotQt6)
  libsqlite3-dev
  libyaml-cpp-dev        # InfraGraph fabric descriptions (YAML)
  nlohmann-json3-dev     # Prometheus answers read as events (SAX), header-only
  xvfb xauth fonts-dejavu-core
  desktop-file-utils appstream
  prometheus             # tests import from a real server (prometheus + promtool)
  ffmpeg                 # `movie` encodes with it; tests read movies back with ffprobe
  clang libclang-rt-14-dev llvm-14   # the fuzz suite: libFuzzer, sanitizers, symbolizer
  slurm-wlm munge        # study --slurm: tests submit to a real single-node Slurm
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "Installing: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
