#!/usr/bin/env bash
# gpuvet monitor restarted on an existing --db (review r2 findings 3, 8, 20): a GPU that fell off
# the bus across the restart is reported (gpu_lost naming its UUID and history index) while the
# others go on under their history's numbers and the history stays readable; another machine's
# history, a corrupt history (left byte-identical, no sidecar) and a monitor history of an
# unknown schema version are refused with exit 2 and a message naming what the file is.
# Usage: monitor_restart_test.sh GPUVET
set -uo pipefail
gpuvet="$1"
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*" >&2; [ -f "$dir/err" ] && cat "$dir/err" >&2; exit 1; }
monitor() { "$gpuvet" monitor --listen 127.0.0.1:0 --speed max "$@" >/dev/null 2>"$dir/err"; }

monitor --sim hgx-h100-8x --duration 10m --db "$dir/h.db" || fail "first run: exit $?"
uuid2="$(python3 -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute('SELECT uuid FROM gpus WHERE idx=2').fetchone()[0])" "$dir/h.db")"
uuid3="$(python3 -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute('SELECT uuid FROM gpus WHERE idx=3').fetchone()[0])" "$dir/h.db")"

# 3: GPU 2 missing after the restart; the driver calls the card of GPU 3 index 2 now.
cp "$dir/h.db" "$dir/miss.db"
monitor --sim hgx-h100-8x --fault gpu-missing:gpu=2 --duration 5m --db "$dir/miss.db" || fail "restart with GPU 2 missing: exit $?"
grep -q "^<3>gpuvet: alert gpu_lost (fail): GPU 2 stopped answering.*$uuid2.*GPU 2 of this history" "$dir/err" \
  || fail "no gpu_lost for GPU 2 naming $uuid2"
grep -q "GPU 3 of the history ($uuid3) is index 2 for the driver now" "$dir/err" || fail "renumbering not logged"
[ "$(grep -c "alert .* (fail)\|alert .* (warn)" "$dir/err")" = 1 ] || fail "alerts other than GPU 2's"
# The history goes on (one run, samples of GPUs 0,1,3..7 up to the end) and stays readable.
python3 - "$dir/miss.db" "$uuid3" <<'PY' || fail "history after the restart"
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
assert db.execute("SELECT count(*) FROM gpus").fetchone()[0] == 8
assert db.execute("SELECT uuid FROM gpus WHERE idx=3").fetchone()[0] == sys.argv[2]
assert db.execute("SELECT count(*) FROM segments").fetchone()[0] == 2
last = db.execute("SELECT max(t_s) FROM ticks").fetchone()[0]
assert last >= 900 - 2, last
absent = db.execute("SELECT DISTINCT gpu FROM sample_absences WHERE reason LIKE '%not enumerated by the driver%'").fetchall()
assert absent == [(2,)], absent
PY
"$gpuvet" report --db "$dir/miss.db" >/dev/null 2>"$dir/err"
[ $? -le 3 ] || fail "report --db on the continued history"

# Review r3 finding 4: a card replaced (RMA) since the history began: the history is moved aside
# whole (with its -wal), a <4> journal line names both UUIDs, and a new history starts (exit 0).
cp "$dir/h.db" "$dir/swap.db"
python3 -c "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute(\"UPDATE gpus SET uuid='GPU-00000000-dead-beef-0000-000000000003' WHERE idx=3\"); c.commit()" "$dir/swap.db"
cp "$dir/swap.db" "$dir/swap.copy"
monitor --sim hgx-h100-8x --duration 1m --db "$dir/swap.db" || fail "a replaced card: exit $?, expected 0"
grep -q "continuing the history" "$dir/err" && fail "a replaced card: says it continued the history"
grep -q "^<4>gpuvet: a card replaced or added: GPU 3 $uuid3 not in the history $dir/swap.db; of the history not enumerated now: GPU 3 GPU-00000000-dead-beef-0000-000000000003; that history is moved aside to $dir/swap.db.replaced-[0-9]\{8\}T[0-9]\{6\}Z" "$dir/err" \
  || fail "a replaced card: journal line"
aside="$(ls "$dir"/swap.db.replaced-*Z)"
cmp -s "$aside" "$dir/swap.copy" || fail "the replaced history was changed when moved aside"
python3 - "$dir/swap.db" "$uuid3" <<'PY' || fail "a replaced card: the new history"
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
assert db.execute("SELECT count(*) FROM segments").fetchone()[0] == 1
assert db.execute("SELECT uuid FROM gpus WHERE idx=3").fetchone()[0] == sys.argv[2]
PY
# The same restart again continues the new history (nothing moved aside twice).
monitor --sim hgx-h100-8x --duration 1m --db "$dir/swap.db" || fail "restart on the new history: exit $?"
[ "$(ls "$dir"/swap.db.replaced-* | wc -l)" = 1 ] || fail "a second history moved aside"

# A history of another machine (no UUID in common) is still refused.
monitor --sim l40s-8x --duration 1m --db "$dir/l40.db" || fail "l40s run: exit $?"
cp "$dir/l40.db" "$dir/other.db"
monitor --sim hgx-h100-8x --duration 1m --db "$dir/other.db"
[ $? = 2 ] || fail "another machine's history: not exit 2"
grep -q "holds the history of other GPUs (no GPU UUID in common" "$dir/err" || fail "another machine: message"
cmp -s "$dir/l40.db" "$dir/other.db" || fail "another machine's history was changed"

# 8 and 20: a corrupt history is refused, named as such with SQLite's words, and left untouched.
cp "$dir/h.db" "$dir/bad.db"
size=$(stat -c %s "$dir/bad.db")
dd if=/dev/urandom of="$dir/bad.db" bs=4096 count=16 seek=$(( size / 4096 / 2 )) conv=notrunc 2>/dev/null
cp "$dir/bad.db" "$dir/bad.copy"
monitor --sim hgx-h100-8x --duration 1m --db "$dir/bad.db"
[ $? = 2 ] || fail "corrupt history: not exit 2"
grep -q "bad.db: a gpuvet monitor history that is corrupt (SQLite's quick_check: " "$dir/err" || fail "corrupt: message"
cmp -s "$dir/bad.db" "$dir/bad.copy" || fail "corrupt history was changed"
ls "$dir"/bad.db-* >/dev/null 2>&1 && fail "a sidecar was left beside the corrupt history"

# 20: a monitor history of a schema this gpuvet does not know is called a monitor history.
cp "$dir/h.db" "$dir/v9.db"
python3 -c "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute(\"UPDATE meta SET value='9' WHERE key='schema_version'\"); c.commit()" "$dir/v9.db"
monitor --sim hgx-h100-8x --duration 1m --db "$dir/v9.db"
[ $? = 2 ] || fail "schema 9: not exit 2"
grep -q "v9.db: a gpuvet monitor history, schema version 9, this gpuvet reads versions" "$dir/err" || fail "schema 9: message"
grep -q "burn-in" "$dir/err" && fail "schema 9: called a burn-in database"
echo PASS
