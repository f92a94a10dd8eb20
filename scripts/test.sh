#!/usr/bin/env bash
# Install, build and run every test (unit, parser, backend, golden, CLI).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
ctest --preset default -j2
