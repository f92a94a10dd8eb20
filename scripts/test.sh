#!/usr/bin/env bash
# Install, build and run every test (unit, parser, backend, golden, CLI), then each fuzz target for
# GPUVET_FUZZ_SECONDS (default 30; 0 only replays fuzz/regressions; "off" skips the fuzz build).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
ctest --preset default -j2
if [ "${GPUVET_FUZZ_SECONDS:-30}" != off ]; then
  bash scripts/fuzz.sh "${GPUVET_FUZZ_SECONDS:-30}"
fi
