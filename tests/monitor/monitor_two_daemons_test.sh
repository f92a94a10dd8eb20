#!/usr/bin/env bash
# Two gpuvet monitor daemons on one --db (issue 20): the second is refused at once with exit 2,
# naming the file and the first daemon's pid, and writes nothing (the history keeps one segment and
# reads back); readers (report --db) need no lock. After the first stops cleanly no lock file is
# left; after it is killed its lock file holds no lock, and a new daemon continues the history.
# Usage: monitor_two_daemons_test.sh GPUVET
set -uo pipefail
gpuvet="$1"
dir="$(mktemp -d)"
first=""
cleanup() { [ -n "$first" ] && kill -KILL "$first" 2>/dev/null; rm -rf "$dir"; }
trap cleanup EXIT
fail() { echo "FAIL: $*" >&2; for f in "$dir"/err*; do echo "--- $f:" >&2; cat "$f" >&2; done; exit 1; }
db="$dir/h.db"
segments() { python3 -c "import sqlite3,sys; print(sqlite3.connect('file:'+sys.argv[1]+'?immutable=1', uri=True).execute('SELECT count(*) FROM segments').fetchone()[0])" "$db"; }

start_first() {
  "$gpuvet" monitor --sim hgx-h100-8x --db "$db" --listen 127.0.0.1:0 2>"$dir/err1" &
  first=$!
  # Wait (bounded) until it samples: by then it holds the history.
  for _ in $(seq 1 200); do
    grep -q "sampling 8 GPU" "$dir/err1" 2>/dev/null && return 0
    kill -0 "$first" 2>/dev/null || fail "the first daemon exited"
    sleep 0.05
  done
  fail "the first daemon never started sampling"
}

start_first
# The second: with --speed max and --duration it would write 10 simulated minutes in a moment.
started=$SECONDS
"$gpuvet" monitor --sim hgx-h100-8x --db "$db" --listen 127.0.0.1:0 --speed max --duration 10m >/dev/null 2>"$dir/err2"
status=$?
[ "$status" = 2 ] || fail "second daemon: exit $status, expected 2"
[ $((SECONDS - started)) -le 5 ] || fail "second daemon: refused only after $((SECONDS - started)) s"
grep -qF "$db is being written by another gpuvet (pid $first, started " "$dir/err2" || fail "second daemon: no refusal naming pid $first"
grep -qF "; refusing to write it too" "$dir/err2" || fail "second daemon: message"
# A reader needs no lock and is not refused.
"$gpuvet" report --db "$db" >/dev/null 2>"$dir/err3"
[ $? -le 3 ] || fail "report --db while the first daemon writes"

kill -TERM "$first"
wait "$first" || fail "first daemon: exit $? after SIGTERM"
first=""
[ -e "$db.lock" ] && fail "a lock file was left after a clean stop"
[ "$(segments)" = 1 ] || fail "the refused daemon wrote a segment"
"$gpuvet" report --db "$db" >/dev/null 2>"$dir/err3"
[ $? -le 3 ] || fail "report --db after the first daemon stopped"

# Killed: its lock file stays, its lock does not; a new daemon continues the history.
start_first
{ kill -KILL "$first"; wait "$first"; } 2>/dev/null  # braces: bash's own "Killed" line goes there too
first=""
[ -e "$db.lock" ] || fail "no lock file beside the history of a killed daemon"
"$gpuvet" monitor --sim hgx-h100-8x --db "$db" --listen 127.0.0.1:0 --speed max --duration 1m >/dev/null 2>"$dir/err2" \
  || fail "a daemon after a killed one: exit $?"
[ "$(segments)" = 3 ] || fail "expected 3 segments, found $(segments)"
[ -e "$db.lock" ] && fail "a lock file was left after a clean stop"
echo PASS
