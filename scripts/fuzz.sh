#!/usr/bin/env bash
# Builds the libFuzzer targets in build/fuzz (clang, every library instrumented, ASan + UBSan),
# replays the crash inputs kept in fuzz/regressions/, then runs each target for SECONDS from its
# seed corpus in fuzz/corpus/ and prints executions and coverage. Exits 1 on any crash.
#   scripts/fuzz.sh [SECONDS] [TARGET...]      SECONDS defaults to 30; 0 only replays
# New corpus entries go to build/fuzz/corpus/<target>, crash inputs to build/fuzz/crashes/<target>.
# Long runs and triage: docs/fuzzing.md.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${1:-30}"
[ $# -gt 0 ] && shift
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(parse_input_fuzzer paste_fuzzer pasted_views_fuzzer spec_fuzzer accept_report_fuzzer accept_state_fuzzer manifest_fuzzer telemetry_db_fuzzer
           bundle_report_fuzzer offers_fuzzer)
fi
jobs="${GPUVET_FUZZ_JOBS:-2}"
cxx="${GPUVET_FUZZ_CXX:-$(command -v clang++-14 || command -v clang++ || true)}"
if [ -z "$cxx" ]; then
  echo "fuzz: no clang++ (scripts/install-deps.sh installs clang-14 and libclang-rt-14-dev)" >&2
  exit 2
fi

start=$(date +%s)
# -O1 -g without NDEBUG: asserts stay on, stacks stay readable.
nice -n 10 cmake -S . -B build/fuzz -G Ninja -DCMAKE_CXX_COMPILER="$cxx" -DGPUVET_FUZZ=ON \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g" >/dev/null
nice -n 10 cmake --build build/fuzz --target gpuvet_fuzzers -j "$jobs"
echo "fuzz: built in $(( $(date +%s) - start )) s"

export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1}"
failed=()
for t in "${targets[@]}"; do
  bin="build/fuzz/fuzz/$t"
  log="build/fuzz/logs/$t.log"
  crashes="build/fuzz/crashes/$t"
  rm -rf "$crashes"
  mkdir -p "build/fuzz/corpus/$t" "build/fuzz/logs" "$crashes" "fuzz/corpus/$t" "fuzz/regressions/$t"

  # Every input once: the kept crash inputs must not crash any more.
  if ! nice -n 10 "$bin" -runs=0 -timeout=10 -rss_limit_mb=2048 "fuzz/regressions/$t" >"$log" 2>&1; then
    echo "fuzz: $t: a kept input in fuzz/regressions/$t crashes again:" >&2
    tail -n 40 "$log" >&2
    failed+=("$t")
    continue
  fi
  [ "$seconds" -eq 0 ] && { echo "fuzz: $t: regressions pass"; continue; }

  # -rss_limit_mb/-timeout: an input that takes over 2 GB or 10 s is a finding too.
  status=0
  nice -n 10 "$bin" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$crashes/" "build/fuzz/corpus/$t" "fuzz/corpus/$t" >"$log" 2>&1 || status=$?
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  last=$(grep -E '^#[0-9]+' "$log" | grep -E 'cov: ' | tail -n 1 || true)
  cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")
  ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
  corpus=$(sed -n 's/.* corp: \([0-9]*\/[0-9A-Za-z]*\).*/\1/p' <<<"$last")
  echo "fuzz: $t: ${seconds} s, ${runs:-?} executions, cov ${cov:-?} edges, ft ${ft:-?} features, corpus ${corpus:-?}"
  if [ "$status" -ne 0 ]; then
    echo "fuzz: $t: FAILED (exit $status); last lines of $log:" >&2
    grep -E 'ERROR|SUMMARY|^    #[0-9]+ ' "$log" | head -n 30 >&2 || true
    for input in "$crashes"/*; do
      [ -f "$input" ] || continue
      echo "fuzz: $t: crash input $input (base64, keep it in fuzz/regressions/$t/):" >&2
      head -c 4096 "$input" | base64 >&2
    done
    failed+=("$t")
  fi
done

echo "fuzz: done in $(( $(date +%s) - start )) s"
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz: failed: ${failed[*]}" >&2
  exit 1
fi
