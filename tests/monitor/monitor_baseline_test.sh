#!/usr/bin/env bash
# gpuvet monitor --baseline BUNDLE_DIR end to end on the simulator: the acceptance bundle of
# `gpuvet accept --sim hgx-h100-8x` (1 h burn-in) as the baseline; 12 simulated hours of
# production with GPU 3 drifting 20 °C hotter a day fire baseline_drift for GPU 3 only (warn, about
# +8 °C over the last hour); a clean run fires nothing; an L40S machine's bundle is refused with
# exit 2 naming the GPU and both UUIDs; a directory that is not a bundle is exit 2 too; an unsigned
# baseline is said so in the log, and refused with --key. While it
# runs with --baseline, /metrics exports the bundle's steady state (gpuvet_baseline_*) per GPU.
# Usage: monitor_baseline_test.sh GPUVET
set -euo pipefail
gpuvet="$1"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; echo "--- stderr:" >&2; cat "$work/err" >&2 || true; exit 1; }

bundle() {  # TEMPLATE OUT
  "$gpuvet" spec init --template "$1" -o "$work/$1.yaml" >/dev/null
  sed -i 's/duration: 4h/duration: 1h/' "$work/$1.yaml"
  "$gpuvet" accept --spec "$work/$1.yaml" --sim "$1" --out "$2" >/dev/null 2>"$work/err" || fail "accept --sim $1"
}
bundle hgx-h100-8x "$work/bundle"
bundle l40s-8x "$work/l40s-bundle"

monitor() {  # extra args...
  set +e
  "$gpuvet" monitor --sim hgx-h100-8x --speed max --duration 12h --listen 127.0.0.1:0 "$@" 2>"$work/err"
  rc=$?
  set -e
}

monitor --fault temp-drift:gpu=3,per_day=20 --baseline "$work/bundle"
[ "$rc" = 0 ] || fail "drifting run: exit $rc, expected 0"
fired="$(grep -o 'alert baseline_drift ([a-z]*): GPU [0-9]*' "$work/err" || true)"
[ -n "$fired" ] || fail "baseline_drift did not fire for the drifting GPU 3"
if echo "$fired" | grep -qv 'GPU 3$'; then fail "baseline_drift fired for another GPU: $fired"; fi
grep -q 'alert baseline_drift (warn): GPU 3 passed its acceptance burn-in at [0-9]* °C; under load it now runs at' "$work/err" ||
  fail "the alert does not say the acceptance and current temperatures"

monitor --baseline "$work/bundle"
[ "$rc" = 0 ] || fail "clean run: exit $rc, expected 0"
grep -q "^<6>gpuvet: baseline $work/bundle ([^)]*): GPU(s) 0,1,2,3,4,5,6,7 compared with their acceptance burn-in" "$work/err" ||
  fail "the log does not say which GPUs are compared with the baseline"
if grep -q 'alert baseline_drift' "$work/err"; then fail "a clean machine drifted from its own baseline"; fi
grep -q -- "^<4>gpuvet: --baseline $work/bundle: unsigned: anyone can regenerate this MANIFEST" "$work/err" ||
  fail "the log does not say that nothing vouches for an unsigned baseline"

# --key: the baseline is read only when its MANIFEST is signed by the key's private half (issue 20).
"$gpuvet" keygen -o "$work/buyer.key" >/dev/null
monitor --baseline "$work/bundle" --key "$work/buyer.key.pub"
[ "$rc" = 2 ] || fail "an unsigned baseline with --key: exit $rc, expected 2"
grep -q -- "$work/bundle: NOT SIGNED" "$work/err" || fail "no message naming the unsigned bundle"

# /metrics exports the bundle's steady state per GPU (gpuvet_baseline_*), for the Prometheus rules.
port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')"
"$gpuvet" monitor --sim hgx-h100-8x --speed 60 --duration 1h --listen "127.0.0.1:$port" --baseline "$work/bundle" 2>"$work/err" &
daemon=$!
for _ in $(seq 50); do
  curl -sf "http://127.0.0.1:$port/metrics" > "$work/metrics" 2>/dev/null && grep -q '^gpuvet_baseline_' "$work/metrics" && break
  sleep 0.2
done
kill "$daemon" 2>/dev/null || true
wait "$daemon" || true
for family in gpuvet_baseline_temperature_celsius gpuvet_baseline_sm_clock_hertz gpuvet_baseline_power_watts; do
  n="$(grep -cE "^$family\{gpu=\"[0-7]\",uuid=\"GPU-[^\"]+\".*\} [0-9.e+]+$" "$work/metrics" || true)"
  [ "$n" = 8 ] || fail "/metrics has $n series of $family, expected one per GPU (8)"
done
temp0="$(sed -n 's/^gpuvet_baseline_temperature_celsius{gpu="0",.*} //p' "$work/metrics")"
awk -v t="$temp0" 'BEGIN { exit !(t > 30 && t < 95) }' || fail "GPU 0's baseline temperature $temp0 is not a burn-in temperature"

monitor --baseline "$work/l40s-bundle"
[ "$rc" = 2 ] || fail "another machine's bundle: exit $rc, expected 2"
grep -q -- "--baseline $work/l40s-bundle: accepted on other GPUs (GPU 0 is GPU-" "$work/err" || fail "no message naming the other GPUs"

monitor --baseline "$work"
[ "$rc" = 2 ] || fail "a directory that is no bundle: exit $rc, expected 2"
echo "PASS"
