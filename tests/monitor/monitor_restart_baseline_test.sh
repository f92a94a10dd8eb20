#!/usr/bin/env bash
# gpuvet monitor --baseline with a GPU that fell off the bus (review r3 finding 3): the bundle is
# matched with the history's GPUs by UUID, after the history's own match, so the daemon keeps
# watching, raises gpu_lost for the missing GPU and applies each card's acceptance baseline to
# that card under its history index. On a restart (the driver calls the card of GPU 3 index 2
# now) and on a fresh --db (numbered as the bundle, so the missing GPU is known from it). Another
# machine's bundle is still refused, naming a bundle GPU and the history's GPU of that index, and
# nothing is written. Usage: monitor_restart_baseline_test.sh GPUVET
set -uo pipefail
gpuvet="$1"
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*" >&2; [ -f "$dir/err" ] && cat "$dir/err" >&2; exit 1; }
monitor() { "$gpuvet" monitor --listen 127.0.0.1:0 --speed max "$@" >/dev/null 2>"$dir/err"; }
uuid_of() { python3 -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute('SELECT uuid FROM gpus WHERE idx=?', (int(sys.argv[2]),)).fetchone()[0])" "$1" "$2"; }

"$gpuvet" spec init --template hgx-h100-8x -o "$dir/spec.yaml" >/dev/null 2>&1 || fail "spec init"
sed -i 's/duration: 4h/duration: 1h/' "$dir/spec.yaml"
"$gpuvet" accept --spec "$dir/spec.yaml" --sim hgx-h100-8x --out "$dir/bundle" >/dev/null 2>"$dir/err" || fail "accept --sim"

check_missing_run() {  # WHAT DB
  local what="$1" db="$2"
  uuid2="$(uuid_of "$db" 2)"
  grep -q "^<3>gpuvet: alert gpu_lost (fail): GPU 2 stopped answering.*$uuid2" "$dir/err" || fail "$what: no gpu_lost for GPU 2 ($uuid2)"
  grep -q "^<6>gpuvet: baseline $dir/bundle ([^)]*): GPU(s) 0,1,3,4,5,6,7 compared" "$dir/err" || fail "$what: GPUs compared"
  fired="$(grep -o 'alert baseline_drift ([a-z]*): GPU [0-9]*' "$dir/err" || true)"
  [ -n "$fired" ] || fail "$what: baseline_drift did not fire for the drifting GPU 3"
  if echo "$fired" | grep -qv 'GPU 3$'; then fail "$what: baseline_drift fired for another GPU: $fired"; fi
  # GPU 3's acceptance temperature (the bundle's GPU 3, by UUID), not the bundle's GPU 2's nor 4's.
  python3 - "$dir/bundle/report.json" "$dir/err" <<'PY' || fail "$what: GPU 3 judged against another card's baseline"
import json, re, statistics, sys
report = json.load(open(sys.argv[1]))
burnin = next(s for s in report["stages"] if s["id"] == "burnin")
chart = next(c for c in burnin["series"] if c["title"] == "GPU temperature")
def steady(points):
    last = max(t for t, _ in points)
    return statistics.median(v for t, v in points if t >= last / 2)
want = {line["name"]: steady(line["points"]) for line in chart["lines"]}
m = re.search(r"GPU 3 passed its acceptance burn-in at (\d+) °C", open(sys.argv[2]).read())
assert m, "no acceptance temperature in the alert"
assert abs(int(m.group(1)) - want["GPU 3"]) <= 0.5, (m.group(1), want)
PY
}

# A restart: the history of 8 GPUs, then GPU 2 missing and GPU 3 drifting hotter.
monitor --sim hgx-h100-8x --duration 10m --db "$dir/h.db" || fail "first run: exit $?"
monitor --sim hgx-h100-8x --fault gpu-missing:gpu=2 --fault temp-drift:gpu=3,per_day=20 --duration 12h \
  --db "$dir/h.db" --baseline "$dir/bundle" || fail "restart with GPU 2 missing and --baseline: exit $?"
check_missing_run restart "$dir/h.db"

# A fresh --db: numbered as the bundle, GPU 2 known from it.
monitor --sim hgx-h100-8x --fault gpu-missing:gpu=2 --fault temp-drift:gpu=3,per_day=20 --duration 12h \
  --db "$dir/fresh.db" --baseline "$dir/bundle" || fail "fresh --db with GPU 2 missing and --baseline: exit $?"
grep -q "GPU 2 of the acceptance bundle $dir/bundle, is not enumerated by the driver" "$dir/err" || fail "fresh: lost message"
[ "$(python3 -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute('SELECT count(*) FROM gpus').fetchone()[0])" "$dir/fresh.db")" = 8 ] \
  || fail "fresh: the history does not hold the 8 GPUs of the bundle"
check_missing_run fresh "$dir/fresh.db"

# Another machine's bundle: refused before anything is written, naming the bundle's GPU 0 and the history's.
monitor --sim l40s-8x --duration 1m --db "$dir/l40.db" || fail "l40s run: exit $?"
cp "$dir/l40.db" "$dir/l40.copy"
l40_0="$(uuid_of "$dir/l40.db" 0)"
bundle_0="$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['identity']['gpus'][0]['uuid'])" "$dir/bundle/report.json")"
monitor --sim l40s-8x --duration 1m --db "$dir/l40.db" --baseline "$dir/bundle"
[ $? = 2 ] || fail "another machine's bundle: not exit 2"
grep -qF -- "--baseline $dir/bundle: accepted on other GPUs (GPU 0 is $bundle_0 in the bundle, the history's GPU 0 is $l40_0" "$dir/err" \
  || fail "another machine's bundle: message"
grep -q "continuing the history" "$dir/err" && fail "a refusal says it continued the history"
cmp -s "$dir/l40.db" "$dir/l40.copy" || fail "another machine's bundle: the history was changed"
monitor --sim l40s-8x --duration 1m --db "$dir/new.db" --baseline "$dir/bundle"
[ $? = 2 ] || fail "another machine's bundle on a fresh --db: not exit 2"
[ -e "$dir/new.db" ] && fail "a refused bundle left a new --db behind"
echo PASS
