#!/bin/sh
# Writes the same file as `gpuvet collect` on a machine without gpuvet: the read-only outputs
# gpuvet analyze reads (nvidia-smi -q -x, topo -m, nvlink -s/-e, ibstat, ibv_devinfo, lscpu,
# driver and fabric manager versions), each after a "### section:" and a "### status:" line
# (format: docs/collect.md). POSIX sh; nothing it runs changes GPU, NIC or driver state.
#   sh gpuvet-collect.sh > node1.txt        then, anywhere: gpuvet analyze node1.txt
# Exit 4 (and nothing on standard output) when nvidia-smi is missing or the driver does not answer.
set -u

timeout_s="${GPUVET_COLLECT_TIMEOUT:-120}"
tmp="$(mktemp -d "${TMPDIR:-/tmp}/gpuvet-collect.XXXXXX")" || exit 4
trap 'rm -rf "$tmp"' EXIT INT TERM

# run LABEL COMMAND...: appends the section to $tmp/file; sets $status.
run() {
  label="$1"
  shift
  if ! command -v "$1" >/dev/null 2>&1; then
    status="not found"
  else
    if command -v timeout >/dev/null 2>&1; then
      timeout "$timeout_s" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
    else
      "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
    fi
    rc=$?
    if [ "$rc" -eq 0 ]; then
      status="exit 0"
    elif [ "$rc" -eq 124 ] && command -v timeout >/dev/null 2>&1; then
      status="timed out after $timeout_s s"
    else
      why="$(cat "$tmp/err" "$tmp/out" | sed -n '/[^[:space:]]/{s/^[[:space:]]*//;p;q;}' | cut -c1-200)"
      status="exit $rc${why:+: $why}"
    fi
  fi
  {
    printf '### section: %s\n### status: %s\n' "$label" "$status"
    if [ "$status" = "exit 0" ] && [ -s "$tmp/out" ]; then
      cat "$tmp/out"
      # the next marker must start a line
      [ "$(tail -c 1 "$tmp/out" | od -An -c | tr -d ' ')" = '\n' ] || printf '\n'
    fi
  } >>"$tmp/file"
}

{
  printf '### gpuvet-collect 1\n'
  printf '### host: %s\n' "$(hostname 2>/dev/null || uname -n)"
  printf '### date: %s\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)"
  printf '### written by: scripts/gpuvet-collect.sh\n'
} >"$tmp/file"

run "nvidia-smi -q -x" nvidia-smi -q -x
if [ "$status" != "exit 0" ]; then
  if [ "$status" = "not found" ]; then
    echo "gpuvet-collect: nvidia-smi not found on PATH: no NVIDIA driver on this machine, nothing to collect" >&2
  else
    echo "gpuvet-collect: nvidia-smi -q -x failed ($status): the NVIDIA driver does not answer, nothing to collect" >&2
  fi
  exit 4
fi
run "nvidia-smi topo -m" nvidia-smi topo -m
run "nvidia-smi nvlink -s" nvidia-smi nvlink -s
run "nvidia-smi nvlink -e" nvidia-smi nvlink -e
run "ibstat" ibstat
run "ibv_devinfo" ibv_devinfo
run "lscpu" lscpu
run "driver version" cat /proc/driver/nvidia/version
run "fabric manager version" nv-fabricmanager --version
printf '### end\n' >>"$tmp/file"
cat "$tmp/file"
