#!/bin/sh
# kill -9 and restart mid-run (issue 14): `gpuvet monitor --sim` in real time (--speed 1, 1 s
# interval, the live daemon's commit pacing) is killed with SIGKILL after RUN_S seconds; the newest
# stored tick is compared with the moment of the kill, then the daemon is started again on the same
# --db for a few seconds and the history is checked to go on in the same file (a second segment).
# Usage: bench/monitor_kill_restart.sh BINARY [RUN_S (default 20)] [WORKDIR]
# Method and results: docs/measurement.md "Monitor benchmarks".
set -eu
bin=${1:?usage: monitor_kill_restart.sh BINARY [RUN_S] [WORKDIR]}
run_s=${2:-20}
work=${3:-$(mktemp -d)}
mkdir -p "$work"
db="$work/kill.db"
rm -f "$db" "$db-wal" "$db-shm" "$db-journal"
"$bin" monitor --sim hgx-h100-8x --speed 1 --db "$db" --listen 127.0.0.1:0 2>"$work/first.log" &
pid=$!
sleep "$run_s"
kill -9 "$pid"
killed_ms=$(date +%s%3N)
wait "$pid" 2>/dev/null || true
last_ms=$(sqlite3 "file:$db?mode=ro" "SELECT MAX(unix_ms) FROM ticks")
ticks=$(sqlite3 "file:$db?mode=ro" "SELECT COUNT(*) FROM ticks")
echo "killed after ${run_s} s: ${ticks} ticks stored, newest $((killed_ms - last_ms)) ms before the kill"
"$bin" monitor --sim hgx-h100-8x --speed 1 --duration 5s --db "$db" --listen 127.0.0.1:0 2>"$work/second.log" || true
segments=$(sqlite3 "file:$db?mode=ro" "SELECT COUNT(*) FROM segments")
ticks2=$(sqlite3 "file:$db?mode=ro" "SELECT COUNT(*) FROM ticks")
echo "restarted on the same file: ${segments} segments, ${ticks2} ticks ($((ticks2 - ticks)) more)"
"$bin" report --db "$db" >/dev/null 2>&1 && echo "report --db: read" || echo "report --db: exit $?"
echo "work dir: $work"
