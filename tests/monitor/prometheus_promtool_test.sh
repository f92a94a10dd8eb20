#!/usr/bin/env bash
# promtool (Debian's prometheus package) on what gpuvet monitor serves and ships:
#  - check metrics: the /metrics body of the tests' snapshot is lint-clean in gpuvet_* names;
#    with --dcgm-names it parses, and lint complains only of dcgm-exporter's own spellings;
#  - check rules: dist/prometheus/gpuvet-rules.yml and a --speed variant;
#  - test rules: tests/monitor/rules_promtool_test.yml (each rule fires for the right GPU only).
# Usage: prometheus_promtool_test.sh MONITOR_METRICS_EXAMPLE [PROMTOOL]
set -euo pipefail
example="$1"
promtool="${2:-promtool}"
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

"$example" metrics > "$tmp/native.prom"
grep -q '^gpuvet_gpu_temperature_celsius{' "$tmp/native.prom"
if ! "$promtool" check metrics < "$tmp/native.prom" > "$tmp/native.out" 2>&1; then
  echo "FAIL: promtool check metrics on the gpuvet_* names:"; cat "$tmp/native.out"; exit 1
fi

"$example" metrics --dcgm-names > "$tmp/dcgm.prom"
grep -q '^DCGM_FI_DEV_GPU_TEMP{gpu="0",UUID=' "$tmp/dcgm.prom"
set +e
"$promtool" check metrics < "$tmp/dcgm.prom" > "$tmp/dcgm.out" 2>&1
rc=$?
set -e
if [ "$rc" -ne 3 ]; then  # 3: lint problems only; 1: the text did not parse
  echo "FAIL: promtool check metrics on the DCGM names exited $rc (expected 3, lint only):"; cat "$tmp/dcgm.out"; exit 1
fi
# The lint findings expected of dcgm-exporter's names: camelCase labels (UUID, modelName, Hostname),
# counters without _total, and PCIE_REPLAY_COUNTER's "counter". Anything else is ours.
expected=(-e "label names should be written in 'snake_case' not 'camelCase'"
          -e 'counter metrics should have "_total" suffix'
          -e "^DCGM_FI_DEV_PCIE_REPLAY_COUNTER metric name should not include type 'counter'")
if grep -v "${expected[@]}" "$tmp/dcgm.out" | grep -q .; then
  echo "FAIL: unexpected promtool findings on the DCGM names:"
  grep -v "${expected[@]}" "$tmp/dcgm.out"; exit 1
fi

"$promtool" check rules "$root/dist/prometheus/gpuvet-rules.yml" > "$tmp/rules.out" 2>&1 || {
  echo "FAIL: promtool check rules dist/prometheus/gpuvet-rules.yml:"; cat "$tmp/rules.out"; exit 1; }
"$example" rules 180 > "$tmp/rules-fast.yml"
"$promtool" check rules "$tmp/rules-fast.yml" > "$tmp/rules-fast.out" 2>&1 || {
  echo "FAIL: promtool check rules on the --speed 180 rules:"; cat "$tmp/rules-fast.out"; exit 1; }

# The behaviour: next_step annotations are catalogue text (rules_test.cpp checks them), dropped here.
"$example" rules | grep -v '^          next_step: ' > "$tmp/gpuvet-rules.yml"
cp "$here/rules_promtool_test.yml" "$tmp/"
if ! "$promtool" test rules "$tmp/rules_promtool_test.yml" > "$tmp/test.out" 2>&1; then
  echo "FAIL: promtool test rules:"; cat "$tmp/test.out"; exit 1
fi
echo "promtool: metrics, DCGM names, rules and rule tests pass"
