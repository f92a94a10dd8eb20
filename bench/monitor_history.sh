#!/bin/sh
# History on disk and memory of a long simulated monitor run (issue 14): `gpuvet monitor --sim`
# for DURATION of virtual time at --speed max (8 GPUs sampled every 1 s), pinned to one core under
# /usr/bin/time -v; then the database size (WAL checkpointed at close) and `gpuvet trend` over it.
# Also a burn-in of the same length, which keeps every raw sample (the worst case on disk).
# Usage: bench/monitor_history.sh BINARY [DURATION (default 30d)] [WORKDIR]
# Method and results: docs/measurement.md "Monitor benchmarks".
set -eu
bin=${1:?usage: monitor_history.sh BINARY [DURATION] [WORKDIR]}
duration=${2:-30d}
work=${3:-$(mktemp -d)}
mkdir -p "$work"
run() {  # label, command...: wall, user CPU and peak RSS of one command
  label=$1; shift
  /usr/bin/time -v taskset -c 0 "$@" >"$work/$label.out" 2>"$work/$label.time" || true
  rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$work/$label.time")
  wall=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$work/$label.time")
  user=$(sed -n 's/.*User time (seconds): //p' "$work/$label.time")
  code=$(sed -n 's/.*Exit status: //p' "$work/$label.time")
  echo "$label: exit $code, wall $wall, user ${user}s, peak RSS $((rss / 1024)) MiB"
}
size() { stat -c %s "$1"; }
rm -f "$work"/monitor.db* "$work"/burnin.db*
run monitor "$bin" monitor --sim hgx-h100-8x --speed max --duration "$duration" --db "$work/monitor.db" --listen 127.0.0.1:0
echo "monitor.db: $(size "$work/monitor.db") bytes ($(ls "$work" | grep -c 'monitor.db-' || true) sidecar files left)"
run trend "$bin" trend --db "$work/monitor.db" --since 7d --json
run burnin "$bin" burnin --sim hgx-h100-8x --duration "$duration" --db "$work/burnin.db"
echo "burnin.db: $(size "$work/burnin.db") bytes"
run trend_burnin "$bin" trend --db "$work/burnin.db" --since 7d --json
echo "work dir: $work"
