#!/bin/sh
# The monitor's HTTP endpoint under load (issue 14): `gpuvet monitor --sim hgx-h100-8x` (8 GPUs,
# real time, 1 s interval) on a loopback port, without and with --dcgm-names, driven by
# bench/monitor_endpoint_load.cpp (compiled here when not given): GET /metrics at 100 requests/s
# on one keep-alive connection (as Prometheus scrapes), as fast as 4 connections go, and at
# 100 requests/s while slow clients, idle connections, slow readers (20 scrapes pipelined, one byte
# read a second) or Range abusers (2000 ranges a request; issue 20) hold the server; the daemon's
# RSS before and after and its peak (VmHWM). Loopback only; each run is bounded by DURATION_S.
# Results are key=value lines.
# Usage: bench/monitor_endpoint.sh BINARY [DURATION_S (default 20)] [LOAD_BINARY] [WORKDIR]
# Environment: DAEMONS="native dcgm" (the default: both), ABUSE_ONLY=1 (only the issue-20 lines:
# slow readers and Range abusers, then 100/s after them).
# Method and results: docs/measurement.md "Monitor endpoint".
set -eu
bin=${1:?usage: monitor_endpoint.sh BINARY [DURATION_S] [LOAD_BINARY] [WORKDIR]}
duration=${2:-20}
load=${3:-}
work=${4:-$(mktemp -d)}
mkdir -p "$work"
here=$(cd "$(dirname "$0")" && pwd)
if [ -z "$load" ]; then
  load="$work/monitor_endpoint_load"
  c++ -O2 -std=c++20 -pthread "$here/monitor_endpoint_load.cpp" -o "$load"
fi
port=$((20000 + $$ % 20000))

rss_kib() { awk '/^VmRSS:/ { print $2 }' "/proc/$1/status"; }
hwm_kib() { awk '/^VmHWM:/ { print $2 }' "/proc/$1/status"; }

run_daemon() {  # $1: label, $2: extra flag (or empty)
  "$bin" monitor --sim hgx-h100-8x --listen "127.0.0.1:$port" $2 2>"$work/$1.log" &
  pid=$!
  tries=0
  until curl -sf -o /dev/null "http://127.0.0.1:$port/healthz"; do
    tries=$((tries + 1))
    [ "$tries" -lt 100 ] || { echo "$1: daemon not answering /healthz" >&2; kill "$pid"; exit 1; }
    sleep 0.1
  done
  sleep 2  # a few ticks: the snapshot has its full size
  bytes=$(curl -s "http://127.0.0.1:$port/metrics" | wc -c)
  rss0=$(rss_kib "$pid")
  echo "[$1] /metrics body ${bytes} bytes, daemon RSS before ${rss0} KiB; load average $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs"
  if [ "${ABUSE_ONLY:-0}" != 1 ]; then
    echo "[$1] 100/s, 1 connection:        $("$load" --port "$port" --rate 100 --connections 1 --duration "$duration" || true)"
    echo "[$1] closed loop, 4 connections: $("$load" --port "$port" --rate 0 --connections 4 --duration "$duration" || true)"
    echo "[$1] 100/s, 3 slow clients:      $("$load" --port "$port" --rate 100 --connections 1 --slow 3 --duration "$duration" || true)"
    for idle in 3 4 64; do
      echo "[$1] 100/s, $idle idle connections: $("$load" --port "$port" --rate 100 --connections 1 --idle "$idle" --duration "$duration" || true)"
    done
  fi
  for readers in 8 64; do
    echo "[$1] 100/s, $readers slow readers: $("$load" --port "$port" --rate 100 --connections 1 --slow-readers "$readers" --duration "$duration" || true)"
  done
  # 8 clients in a closed loop saturate 2 CPUs: at 100/s the scrapes compete for what is left;
  # 10/s shows what one scrape waits.
  for rate in 100 10; do
    echo "[$1] $rate/s, 8 Range abusers: $("$load" --port "$port" --rate "$rate" --connections 1 --ranges 8 --duration "$duration" || true)"
  done
  echo "[$1] 100/s, after the abuse:     $("$load" --port "$port" --rate 100 --connections 1 --duration "$duration" || true)"
  rss1=$(rss_kib "$pid")
  ticks=$(curl -s "http://127.0.0.1:$port/metrics" | awk '/^gpuvet_monitor_ticks_total/ { print $2 }')
  dropped=$(curl -s "http://127.0.0.1:$port/metrics" | awk '/^gpuvet_monitor_samples_dropped_total/ { print $2 }')
  echo "[$1] daemon RSS after ${rss1} KiB, peak $(hwm_kib "$pid") KiB; ticks ${ticks}, ticks dropped ${dropped}; load average $(cut -d' ' -f1-3 /proc/loadavg)"
  kill "$pid"
  wait "$pid" || true
}

for daemon in ${DAEMONS:-native dcgm}; do
  case $daemon in
    native) run_daemon native "" ;;
    dcgm) run_daemon dcgm --dcgm-names ;;
    *) echo "DAEMONS: native and/or dcgm, not $daemon" >&2; exit 2 ;;
  esac
done
echo "work dir: $work"
