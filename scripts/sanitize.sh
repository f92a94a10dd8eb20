#!/usr/bin/env bash
# Runs the unit tests of the pure layers under ASan + UBSan: builds them in build/fuzz, the tree
# scripts/fuzz.sh compiles with clang-14 and the sanitizers, so the libraries the fuzzers already
# built are reused, then runs them with ctest (label `sanitize`). Which tests, and what they cost:
# docs/ci.md.   scripts/sanitize.sh [REGEX]   (REGEX: only the ctest tests it matches)
# Exit 0 all pass, 1 a test failed or a sanitizer reported, 2 usage or no clang.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ $# -gt 1 ] || [[ "${1:-}" == -* ]]; then
  echo "usage: scripts/sanitize.sh [REGEX]   (a ctest -R regex over the sanitized tests)" >&2
  exit 2
fi
jobs="${GPUVET_SANITIZE_JOBS:-2}"
cxx="${GPUVET_FUZZ_CXX:-$(command -v clang++-14 || command -v clang++ || true)}"
if [ -z "$cxx" ]; then
  echo "sanitize: no clang++ (scripts/install-deps.sh installs clang-14 and libclang-rt-14-dev)" >&2
  exit 2
fi

start=$(date +%s)
# The same compiler and flags as scripts/fuzz.sh, or the fuzz build's objects would be rebuilt.
nice -n 10 cmake -S . -B build/fuzz -G Ninja -DCMAKE_CXX_COMPILER="$cxx" -DGPUVET_FUZZ=ON -DGPUVET_SANITIZE_TESTS=ON \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g" >/dev/null
nice -n 10 cmake --build build/fuzz --target gpuvet_sanitized_tests -j "$jobs"
built=$(date +%s)
echo "sanitize: built in $(( built - start )) s"

# The first report ends the test (UBSan is also compiled with -fno-sanitize-recover); leaks count.
# Options already in the environment come last, so they win.
export ASAN_OPTIONS="halt_on_error=1:detect_leaks=1:detect_stack_use_after_return=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
# Left out here, not from the default ctest: replays of 4 to 12 simulated hours (42 % of the run;
# the shorter tests of the same suites drive the same sampler, store and judges) and a wall-clock
# budget, which measures the speed the sanitizers take away. GPUVET_SANITIZE_SKIP= runs them too.
default_skip='^(BurninSim\.(CleanFourHourRunOfEightGpusHasNoFindings|StragglerIsFound|LostGpuIsStoppedAndTheOthersKeepGoing'
default_skip+='|ThermalThrottleIsFoundWithItsTime)|MonitorDaemon\.(EvaluatorMemoryIsFlatOverDays'
default_skip+='|ACardHotterAndSlowerThanItsPeersForHoursIsNamed|ACard22DegreesAboveItsPeersIsAFailFromItsFirstAlert)'
default_skip+='|MonitorHistory\.RawRowsArePrunedToTheRetentionAndStillDecode'
default_skip+='|HttpAbuseTest\.SixtyFourSlowReadersDoNotStarveAFreshScrape)$'
skip="${GPUVET_SANITIZE_SKIP-$default_skip}"
status=0
ctest_args=(--test-dir build/fuzz -L '^sanitize$' -j "$jobs" --output-on-failure --no-tests=error)
[ -n "$skip" ] && ctest_args+=(-E "$skip")
[ $# -eq 1 ] && ctest_args+=(-R "$1")
nice -n 10 ctest "${ctest_args[@]}" || status=1
echo "sanitize: tests ran in $(( $(date +%s) - built )) s, $(( $(date +%s) - start )) s in all"
exit "$status"
