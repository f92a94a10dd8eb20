#!/bin/sh
# The CUDA backend on a real GPU, in about five minutes: what docs/compatibility.md lists as not
# yet verified. Usage: device_check.sh [path/to/gpuvet] (default build/default/src/cli/gpuvet).
# Prints each command, its exit code and the tail of its output; exits 1 if any step that must
# work did not. Registered as ctest `cuda_device_check` (label device) with -DGPUVET_DEVICE_TESTS=ON.
gpuvet=${1:-build/default/src/cli/gpuvet}
failed=0
step() {  # step EXPECTED_EXIT_CODES TIMEOUT_S ARGS...
  expected=$1
  limit=$2
  shift 2
  echo "== gpuvet $*"
  out=$(timeout "$limit" "$gpuvet" "$@" 2>&1)
  rc=$?
  echo "$out" | tail -n 25
  case " $expected " in
    *" $rc "*) echo "-- exit $rc (ok)" ;;
    *) echo "-- exit $rc (expected one of: $expected)"; failed=1 ;;
  esac
}
nvidia-smi --query-gpu=index,name,pci.bus_id,driver_version,compute_cap --format=csv 2>&1 | head -n 20
step "0" 30 --version
# 0 pass, 1 a finding (the numbers are what matter here), never 4 (environment) or 5.
step "0 1" 240 bench host --samples 3 --size 256
step "0 1" 240 bench memory --samples 3 --size 256
step "0 1" 240 bench p2p --samples 3 --size 256
step "0 1" 300 bench vram --gpus 0
step "0 1" 240 nccl --sweep 64M:256M
step "0 1" 240 burnin --duration 1m --dtype bf16 --db /tmp/gpuvet-device-check.db
rm -f /tmp/gpuvet-device-check.db*
exit $failed
