#!/usr/bin/env bash
# One command on a real GPU machine: runs every live path of gpuvet (NVML, CUDA copies and VRAM
# check, NCCL, the cuBLAS burn-in, accept --quick) next to what nvidia-smi and, where installed,
# the reference tools (nvbandwidth, nccl-tests) say about the same GPUs, and writes one results
# folder with each step's output, exit code and wall time (summary.md). Read-only, like gpuvet.
#
#   scripts/device-check.sh [--out DIR] [--gpuvet PATH] [--burnin DURATION]
#
# Exit: 0 when every step ran (a machine finding is not a script failure: see summary.md),
# 4 at once when this machine has no NVIDIA driver or GPU, 2 on a wrong argument, 5 when a
# step crashed gpuvet (exit 5) or nothing could be written.
set -uo pipefail
cd "$(dirname "$0")/.."

out=""
gpuvet="build/default/src/cli/gpuvet"
burnin_duration="2m"
while [ $# -gt 0 ]; do
  case "$1" in
    --out) out="${2:?--out needs a directory}"; shift 2 ;;
    --gpuvet) gpuvet="${2:?--gpuvet needs a path}"; shift 2 ;;
    --burnin) burnin_duration="${2:?--burnin needs a duration}"; shift 2 ;;
    -h|--help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "device-check: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done

fail_env() { echo "device-check: $*" >&2; exit 4; }

# Fail fast where there is nothing to check: no driver, no GPU, no gpuvet.
command -v nvidia-smi >/dev/null 2>&1 ||
  fail_env "no nvidia-smi on PATH: this machine has no NVIDIA driver. Run this on the GPU machine; nothing was written."
gpu_list=$(timeout 30 nvidia-smi -L 2>&1) ||
  fail_env "nvidia-smi -L failed: ${gpu_list:-no output}. The driver cannot reach a GPU; nothing was written."
gpu_count=$(printf '%s\n' "$gpu_list" | grep -c '^GPU [0-9]')
[ "$gpu_count" -gt 0 ] || fail_env "nvidia-smi -L lists no GPU; nothing was written."
[ -x "$gpuvet" ] || fail_env "no gpuvet binary at $gpuvet: build it first (bash scripts/build.sh gpuvet) or pass --gpuvet PATH."
command -v python3 >/dev/null 2>&1 || echo "device-check: no python3: the comparisons are skipped" >&2

out=${out:-device-check-$(hostname -s 2>/dev/null || echo host)-$(date -u +%Y%m%dT%H%M%SZ)}
if [ -e "$out" ] && [ -n "$(ls -A "$out" 2>/dev/null)" ]; then
  echo "device-check: $out exists and is not empty; pass another --out" >&2
  exit 2
fi
mkdir -p "$out" || { echo "device-check: cannot create $out" >&2; exit 5; }
steps="$out/steps.tsv"
printf 'step\texit\tseconds\toutput\n' >"$steps"
crashed=0

# step NAME TIMEOUT_S COMMAND...: stdout to NAME.out, stderr to NAME.err, one line in steps.tsv.
step() {
  local name=$1 limit=$2
  shift 2
  echo "device-check: $name ..." >&2
  local start end rc
  start=$(date +%s.%N)
  timeout --kill-after=10 "$limit" "$@" >"$out/$name.out" 2>"$out/$name.err"
  rc=$?
  end=$(date +%s.%N)
  [ "$rc" -eq 124 ] && echo "device-check: $name timed out after ${limit}s" >>"$out/$name.err"
  [ "$rc" -eq 5 ] && crashed=1
  printf '%s\t%s\t%s\t%s\n' "$name" "$rc" "$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }')" "$name.out" >>"$steps"
  return 0
}
have() { command -v "$1" >/dev/null 2>&1; }

# What the machine and its driver say, captured once for gpuvet analyze to read back.
step version 30 "$gpuvet" --version
step nvidia-smi 60 nvidia-smi
step smi-q-xml 120 nvidia-smi -q -x
step smi-q 120 nvidia-smi -q
step topo 60 nvidia-smi topo -m
step nvlink-s 60 nvidia-smi nvlink -s
step nvlink-e 60 nvidia-smi nvlink -e

# Live machine picture against nvidia-smi's, read by gpuvet itself.
step inspect 120 "$gpuvet" inspect --json
pasted=("$out/smi-q-xml.out" "$out/topo.out")
[ -s "$out/nvlink-s.out" ] && pasted+=("$out/nvlink-s.out")
step analyze 60 "$gpuvet" analyze "${pasted[@]}" --json
if have python3; then
  step compare-machine 30 python3 scripts/device_compare.py machine "$out/inspect.out" "$out/analyze.out"
fi

# Measuring paths, sample counts as docs/measurement.md states them (the defaults).
step bench-host 240 "$gpuvet" bench host --json
[ "$gpu_count" -ge 2 ] && step bench-p2p 300 "$gpuvet" bench p2p --json
step bench-memory 120 "$gpuvet" bench memory --json
step bench-vram 300 "$gpuvet" bench vram --json
step nccl 300 "$gpuvet" nccl --ops all_reduce --json
step burnin 600 "$gpuvet" burnin --duration "$burnin_duration" --db "$out/burnin.db" --json
step report-db 120 "$gpuvet" report --db "$out/burnin.db" --json

# accept --quick against a spec of what this machine says it is (count and memory).
if have python3 && [ -s "$out/inspect.out" ]; then
  python3 - "$out/inspect.out" "$gpu_count" >"$out/spec.yaml" <<'PY'
import json, sys
machine = json.load(open(sys.argv[1]))
gpus = machine.get("gpus") or []
memory = min((g.get("memory_total_mib") or 0) for g in gpus) / 1024 if gpus else 1
print("spec_version: 1\nname: device-check of this machine (what it says it is)")
print(f"gpu:\n  count: {len(gpus)}\n  memory_gib: {max(1, int(memory) - 1)}")
print("bandwidth:\n  h2d_gbps: auto")
if len(gpus) >= 2:
    print("  p2p_gbps: auto\ncollectives:\n  all_reduce: {all: auto}")
print("vram:\n  min_fraction: 0.9")
PY
  step accept-quick 600 "$gpuvet" accept --spec "$out/spec.yaml" --quick --out "$out/bundle"
  step verify 60 "$gpuvet" verify "$out/bundle"
fi

# Reference tools on the same GPUs, where installed, read back by gpuvet analyze.
if have nvbandwidth; then
  step ref-nvbandwidth 600 nvbandwidth -t host_to_device_memcpy_ce device_to_host_memcpy_ce device_to_device_memcpy_read_ce
  step ref-nvbandwidth-read 60 "$gpuvet" analyze "$out/ref-nvbandwidth.out" --json
  have python3 && step ratio-copies 30 python3 scripts/device_compare.py ratio "$out/bench-host.out" "$out/ref-nvbandwidth-read.out"
fi
if have all_reduce_perf; then
  step ref-nccl-tests 600 all_reduce_perf -b 32M -e 8G -f 2 -g "$gpu_count"
  step ref-nccl-tests-read 60 "$gpuvet" analyze "$out/ref-nccl-tests.out" --json
  have python3 && step ratio-busbw 30 python3 scripts/device_compare.py ratio "$out/nccl.out" "$out/ref-nccl-tests-read.out"
fi
step ref-dmon 60 nvidia-smi dmon -c 10 -s pucvmet

# summary.md: every step, its exit code and wall time; then the comparisons.
{
  echo "# gpuvet device check: $(hostname 2>/dev/null), $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo
  echo "GPUs ($gpu_count):"
  printf '%s\n' "$gpu_list" | sed 's/^/    /'
  echo
  echo "| Step | Exit | Seconds | Output |"
  echo "|---|---|---|---|"
  tail -n +2 "$steps" | awk -F'\t' '{printf "| %s | %s | %s | %s |\n", $1, $2, $3, $4}'
  echo
  echo "Exit codes: 0 pass, 1 the machine failed a check, 3 incomplete, 4 environment, 5 gpuvet crashed, 124 timed out."
  for f in compare-machine ratio-copies ratio-busbw; do
    [ -s "$out/$f.out" ] && { echo; echo "## $f"; echo; sed 's/^/    /' "$out/$f.out"; }
  done
  have nvbandwidth || echo -e "\nnvbandwidth not installed: copy ratios not measured."
  have all_reduce_perf || echo -e "\nnccl-tests (all_reduce_perf) not installed: busbw ratio not measured."
  echo -e "\ngpuvet monitor: not built yet, not run."
} >"$out/summary.md"
echo "device-check: results in $out (summary.md)" >&2
[ "$crashed" -eq 0 ] || exit 5
exit 0
