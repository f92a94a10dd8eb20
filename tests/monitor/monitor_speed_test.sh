#!/usr/bin/env bash
# --speed N means the same range for `gpuvet monitor --sim` and `gpuvet monitor rules`: a number
# from 1 to 10000000, fractions allowed; outside it (or not a number) is a usage error (exit 2)
# whose message says that range.
# Usage: monitor_speed_test.sh GPUVET
set -uo pipefail
gpuvet="$1"
err="$(mktemp)"
trap 'rm -f "$err"' EXIT
fail() { echo "FAIL: $*" >&2; cat "$err" >&2; exit 1; }
expect() {  # EXIT_CODE args...
  local want="$1"; shift
  "$gpuvet" "$@" >/dev/null 2>"$err"
  local rc=$?
  [ "$rc" = "$want" ] || fail "gpuvet $*: exit $rc, expected $want"
  if [ "$want" = 2 ]; then grep -q "expected a number from 1 to 10000000 (fractions allowed" "$err" || fail "gpuvet $*: message without the range"; fi
}
for n in 1 1.5 3600 10000000; do
  expect 0 monitor rules --speed "$n"
  expect 0 monitor --sim hgx-h100-8x --speed "$n" --duration 1s --listen 127.0.0.1:0
done
for n in 0.5 0 -3 10000001 fast; do
  expect 2 monitor rules --speed "$n"
  expect 2 monitor --sim hgx-h100-8x --speed "$n" --duration 1s --listen 127.0.0.1:0
done
echo PASS
