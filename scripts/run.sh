#!/usr/bin/env bash
# Quick start: install, build gpuvet (only the binary: tests are built by scripts/test.sh), and
# inspect this machine. Without an NVIDIA driver it says so and inspects the built-in simulated
# 8x H100 SXM server instead. Extra arguments go to `gpuvet inspect` (e.g. --json, --expect nvswitch).
set -uo pipefail
cd "$(dirname "$0")/.."
echo "run.sh: installing dependencies and building gpuvet (the first build of gpuvet alone takes about 5 minutes on 2 cores)..." >&2
bash scripts/build.sh gpuvet >&2 || { echo "run.sh: build failed" >&2; exit 5; }
gpuvet=build/default/src/cli/gpuvet

"$gpuvet" inspect "$@"
rc=$?
if [ "$rc" -eq 4 ]; then
  {
    echo
    echo "== No usable NVIDIA driver on this machine: showing the built-in simulated 8x H100 SXM server (profile hgx-h100-8x) instead. =="
    echo "== Every number below is simulated, not measured. =="
    echo
  } >&2
  "$gpuvet" inspect --sim hgx-h100-8x "$@"
  rc=$?
fi
exit "$rc"
