#!/usr/bin/env bash
# Installs dependencies (Debian 12 packages) and builds with the default CMake preset: every
# target, or only the targets named as arguments (scripts/run.sh builds just `gpuvet`).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake --preset default >/dev/null
if [ "$#" -gt 0 ]; then
  cmake --build --preset default --target "$@"
else
  cmake --build --preset default
fi
