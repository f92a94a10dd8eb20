#!/usr/bin/env bash
# gpuvet monitor as a daemon under SIGTERM: start it on the simulator at --speed 60 with an
# ephemeral port and a history file, send SIGTERM after about 1 s, and expect exit 0, journal-format
# log lines on stderr (<N>gpuvet: ..., sd-daemon(3) priority prefixes) ending with the flush, and a
# history that reads back (gpuvet report --db) completed, with every tick's sample of every GPU
# up to the stop. SIGHUP before it logs one status line and the daemon keeps going. Then the live
# path: the fake libnvidia-ml.so.1 with GPU 3's driver hung for good; SIGTERM still ends the daemon
# at once with exit 0, saying the call is still hung and NVML left loaded.
# Usage: monitor_live_sigterm_test.sh GPUVET FAKE_LIBNVIDIA_ML
set -euo pipefail
gpuvet="$1"
fake_nvml="$2"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; echo "--- stderr:" >&2; cat "$work/err" >&2 || true; exit 1; }

"$gpuvet" monitor --sim hgx-h100-8x --speed 60 --db "$work/history.db" --listen 127.0.0.1:0 2>"$work/err" &
pid=$!
# Wait (bounded) until it samples, then give it about one more second.
for _ in $(seq 1 100); do
  grep -q "sampling 8 GPU" "$work/err" 2>/dev/null && break
  sleep 0.05
done
kill -HUP "$pid"
for _ in $(seq 1 100); do
  grep -q "status: " "$work/err" 2>/dev/null && break
  sleep 0.05
done
grep -qE '^<5>gpuvet: status: [0-9]+ tick\(s\)' "$work/err" || fail "no status line after SIGHUP"
sleep 1
kill -TERM "$pid"
status=0
wait "$pid" || status=$?
[ "$status" -eq 0 ] || fail "exit $status after SIGTERM, expected 0"

# Every stderr line is a journal line: <priority>gpuvet: message.
if grep -vqE '^<[0-7]>gpuvet: ' "$work/err"; then fail "a stderr line is not in the journal format"; fi
grep -qE '^<6>gpuvet: stopped after [0-9]+ tick\(s\); history flushed to ' "$work/err" || fail "no flush line"
ticks="$(sed -nE 's/^<6>gpuvet: stopped after ([0-9]+) tick\(s\).*/\1/p' "$work/err")"
# About 1 s at 60 simulated seconds per second: well over 30 one-second ticks.
[ "$ticks" -ge 30 ] || fail "only $ticks tick(s) before SIGTERM"

"$gpuvet" report --db "$work/history.db" --json >"$work/report.json" || [ $? -le 3 ] || fail "report --db failed"
python3 - "$work/report.json" "$ticks" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
ticks = int(sys.argv[2])
run = report["run"]
assert run["status"] == "completed", f"history status {run['status']}, expected completed"
# Ticks are 1 simulated second apart from t=0: the last one is at ticks-1 s.
assert run["ended_t_s"] >= ticks - 1 - 1e-6, f"history ends at {run['ended_t_s']} s, {ticks} ticks were taken"
assert len(report["gpus"]) == 8, f"{len(report['gpus'])} GPUs in the history"
for gpu in report["gpus"]:
    assert gpu["samples"] == ticks, f"GPU {gpu['index']}: {gpu['samples']} samples, {ticks} ticks"
PY
echo "ok: exit 0 on SIGTERM after $ticks ticks, history flushed and read back"

# Live, with an NVML call that never returns on GPU 3 (the daemon allows 2 s per call).
rm -f "$work/err"
GPUVET_NVML_LIBRARY="$fake_nvml" GPUVET_FAKE_NVML_PROFILE=hgx-h100-8x GPUVET_FAKE_NVML_HANG_GPU=3 \
  "$gpuvet" monitor --db "$work/live.db" --listen 127.0.0.1:0 2>"$work/err" &
pid=$!
for _ in $(seq 1 200); do
  grep -q "alert gpu_lost (fail): GPU 3" "$work/err" 2>/dev/null && break
  sleep 0.05
done
grep -q "alert gpu_lost (fail): GPU 3 stopped answering" "$work/err" || fail "no gpu_lost alert for the hung GPU 3"
kill -TERM "$pid"
started=$SECONDS
status=0
wait "$pid" || status=$?
[ "$status" -eq 0 ] || fail "live: exit $status after SIGTERM, expected 0"
[ $((SECONDS - started)) -le 5 ] || fail "live: SIGTERM took $((SECONDS - started)) s with a hung call"
grep -q '^<4>gpuvet: 1 NVML call(s) still hung at exit; leaving NVML loaded' "$work/err" || fail "live: no hung-call line"
if grep -qE 'GPU [0-24-7] stopped answering' "$work/err"; then fail "live: a GPU other than 3 was reported"; fi
echo "ok: live daemon with a hung NVML call on GPU 3 reported it and exited 0 on SIGTERM"
