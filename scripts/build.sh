#!/usr/bin/env bash
# Installs dependencies (Debian 12 packages) and builds gpuvet with the default CMake preset.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake --preset default >/dev/null
cmake --build --preset default
