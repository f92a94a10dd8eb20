#!/usr/bin/env bash
# What CI runs (.ci/run; docs/ci.md): install, style of the change, build, every test (unit, parser,
# backend, golden, CLI), each fuzz target, then the pure layers' unit tests under ASan + UBSan.
# Switches, each "off" to skip a step: GPUVET_STYLE (scripts/check-style.sh against
# GPUVET_STYLE_BASE, default .style-baseline), GPUVET_FUZZ_SECONDS (default 30; 0 only replays
# fuzz/regressions), GPUVET_SANITIZE (scripts/sanitize.sh). A failed step does not stop the later
# ones, except a failed build; the exit status is the first failure's.
set -euo pipefail
cd "$(dirname "$0")/.."

failed=()
status=0
summary=()
step() {  # step NAME COMMAND...: runs it, times it, remembers a failure
  local name="$1" start rc=0
  shift
  start=$(date +%s)
  echo "test: == $name"
  "$@" || rc=$?
  summary+=("$(printf '%-10s %5d s  %s' "$name" "$(( $(date +%s) - start ))" "$([ "$rc" -eq 0 ] && echo ok || echo "FAILED (exit $rc)")")")
  if [ "$rc" -ne 0 ]; then
    failed+=("$name")
    [ "$status" -ne 0 ] || status=$rc
  fi
  return 0
}
has_failed() { [[ " ${failed[*]} " == *" $1 "* ]]; }
report() {
  echo "test: summary"
  printf '  %s\n' "${summary[@]}"
  [ ${#failed[@]} -eq 0 ] || echo "test: failed: ${failed[*]}" >&2
}

step deps bash scripts/install-deps.sh
if [ "${GPUVET_STYLE:-on}" != off ]; then
  step style bash scripts/check-style.sh ${GPUVET_STYLE_BASE:+"$GPUVET_STYLE_BASE"}
fi
step build bash scripts/build.sh
if has_failed deps || has_failed build; then
  report
  exit "$status"
fi
step ctest ctest --preset default -j2
if [ "${GPUVET_FUZZ_SECONDS:-30}" != off ]; then
  step fuzz bash scripts/fuzz.sh "${GPUVET_FUZZ_SECONDS:-30}"
fi
if [ "${GPUVET_SANITIZE:-on}" != off ]; then
  step sanitize bash scripts/sanitize.sh
fi
report
exit "$status"
