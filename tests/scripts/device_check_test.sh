#!/usr/bin/env bash
# scripts/device-check.sh fails clearly and fast where there is no GPU, and its machine
# comparison finds a difference and only a difference. Usage: device_check_test.sh GPUVET
set -uo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
gpuvet=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
check() {  # check NAME EXPECTED_RC ACTUAL_RC OUTPUT PATTERN
  if [ "$3" -ne "$2" ] || ! grep -q -- "$5" <<<"$4"; then
    echo "FAIL $1: exit $3 (expected $2), output: $4"
    failures=$((failures + 1))
  else
    echo "ok   $1"
  fi
}

# No nvidia-smi on PATH: exit 4 at once, nothing written.
out=$(cd "$work" && PATH=/usr/bin:/bin timeout 20 bash "$repo/scripts/device-check.sh" --gpuvet "$gpuvet" --out "$work/r1" 2>&1)
rc=$?
[ -e "$work/r1" ] && out+=" (and it wrote $work/r1)"
check "no driver" 4 "$rc" "$out" "no NVIDIA driver. Run this on the GPU machine; nothing was written.$"

# A driver that sees no GPU, and one that cannot talk to its GPUs.
mkdir -p "$work/bin-none" "$work/bin-broken"
printf '#!/bin/sh\nexit 0\n' >"$work/bin-none/nvidia-smi"
printf '#!/bin/sh\necho "NVIDIA-SMI has failed because it could not communicate with the NVIDIA driver."\nexit 9\n' >"$work/bin-broken/nvidia-smi"
chmod +x "$work/bin-none/nvidia-smi" "$work/bin-broken/nvidia-smi"
out=$(PATH="$work/bin-none:/usr/bin:/bin" timeout 20 bash "$repo/scripts/device-check.sh" --gpuvet "$gpuvet" --out "$work/r2" 2>&1)
check "no GPU listed" 4 $? "$out" "lists no GPU"
out=$(PATH="$work/bin-broken:/usr/bin:/bin" timeout 20 bash "$repo/scripts/device-check.sh" --gpuvet "$gpuvet" --out "$work/r3" 2>&1)
check "driver unreachable" 4 $? "$out" "could not communicate with the NVIDIA driver"
out=$(timeout 20 bash "$repo/scripts/device-check.sh" --frobnicate 2>&1)
check "bad argument" 2 $? "$out" "unknown argument '--frobnicate'"

# The machine comparison: a machine against itself has no difference; a GPU gone is one.
"$gpuvet" inspect --sim hgx-h100-8x --json >"$work/a.json"
"$gpuvet" inspect --sim hgx-h100-8x --fault gpu-missing:gpu=3 --json >"$work/b.json"
out=$(python3 "$repo/scripts/device_compare.py" machine "$work/a.json" "$work/a.json" 2>&1)
check "same machine" 0 $? "$out" "^0 differences"
out=$(python3 "$repo/scripts/device_compare.py" machine "$work/a.json" "$work/b.json" 2>&1)
check "GPU gone" 1 $? "$out" "DIFFERS  GPU count: live 8, nvidia-smi 7"
"$gpuvet" bench host --sim hgx-h100-8x --samples 1 --json >"$work/bench.json"
out=$(python3 "$repo/scripts/device_compare.py" ratio "$work/bench.json" "$work/bench.json" 2>&1)
check "ratio of a figure to itself" 0 $? "$out" "host_to_device_memcpy_ce (median GB/s): .* ratio 1.000"

echo "$((8 - failures)) passed, $failures failed"
[ "$failures" -eq 0 ]
