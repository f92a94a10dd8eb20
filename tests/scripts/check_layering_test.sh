#!/usr/bin/env bash
# scripts/check-layering.sh passes on the tree as it is and fails, naming the file, line and rule,
# on each kind of include the dependency rule forbids. Usage: check_layering_test.sh
set -uo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
check() {  # check NAME EXPECTED_RC ACTUAL_RC OUTPUT PATTERN
  if [ "$3" -ne "$2" ] || ! grep -q -- "$5" <<<"$4"; then
    echo "FAIL $1: exit $3 (expected $2), output: $4"
    failures=$((failures + 1))
  else
    echo "ok   $1"
  fi
}
layering() { bash "$repo/scripts/check-layering.sh" "$@" 2>&1; }

out=$(layering "$repo/src"); rc=$?
check "the tree follows the rule" 0 "$rc" "$out" "every include follows the dependency rule"

# One fresh copy of a small clean tree per case, then one violation in it.
fresh() {
  rm -rf "$work/src"
  mkdir -p "$work/src/core" "$work/src/platform" "$work/src/analysis" "$work/src/report" \
           "$work/src/backends/nvml" "$work/src/backends/api" "$work/src/probes" "$work/src/accept" "$work/src/cli"
  printf '#pragma once\n#include <string>\n' >"$work/src/core/finding.hpp"
  printf '#pragma once\n#include "core/finding.hpp"\n' >"$work/src/platform/fs_root.hpp"
  printf '#include "core/finding.hpp"\n' >"$work/src/analysis/judge.cpp"
  printf '#include "accept/accept_model.hpp"\n' >"$work/src/report/html_report.cpp"
  printf '#include "core/finding.hpp"\n' >"$work/src/accept/accept_model.hpp"
  printf '#include "probes/burnin_runner.hpp"\n' >"$work/src/accept/burnin_stage.cpp"
  printf '#include "backends/nvml/nvml_library.hpp"\n#include "platform/fs_root.hpp"\n' >"$work/src/cli/app.cpp"
}
fresh
out=$(layering "$work/src"); rc=$?
check "a small clean tree" 0 "$rc" "$out" "every include follows"

fresh; printf '#include "core/finding.hpp"\n#include "platform/fs_root.hpp"\n' >>"$work/src/analysis/judge.cpp"
out=$(layering "$work/src"); rc=$?
check "analysis includes platform" 1 "$rc" "$out" '^analysis/judge.cpp:3: includes "platform/fs_root.hpp" (platform); analysis may include only core$'

fresh; printf '#include "platform/fs_root.hpp"\n' >"$work/src/core/units.hpp"
out=$(layering "$work/src"); rc=$?
check "core includes platform (header only)" 1 "$rc" "$out" "core/units.hpp:1: .*core may include only nothing but the standard library and fmt"

fresh; printf '#include "backends/nvml/nvml_library.hpp"\n' >"$work/src/backends/api/telemetry_source.hpp"
out=$(layering "$work/src"); rc=$?
check "one backend includes another" 1 "$rc" "$out" "backends/api/telemetry_source.hpp:1: .*(backends/nvml)"

fresh; printf '#include "probes/vram_probe.hpp"\n' >"$work/src/accept/clauses.cpp"
out=$(layering "$work/src"); rc=$?
check "accept decisions measure" 1 "$rc" "$out" "accept/clauses.cpp:1: .*(probes); accept may include only"

fresh; printf '#include "accept/runner.hpp"\n' >>"$work/src/report/html_report.cpp"
out=$(layering "$work/src"); rc=$?
check "report reads the runner" 1 "$rc" "$out" "report/html_report.cpp:2: .*(accept); report may include"

fresh; printf '#include <unistd.h>\n' >"$work/src/report/text_table.cpp"
out=$(layering "$work/src"); rc=$?
check "pure layer includes an OS header" 1 "$rc" "$out" "report/text_table.cpp:1: includes <unistd.h>; report is pure"

fresh; mkdir -p "$work/src/daemon"; printf '#include "core/finding.hpp"\n' >"$work/src/daemon/main.cpp"
out=$(layering "$work/src"); rc=$?
check "a folder with no row" 1 "$rc" "$out" "daemon/main.cpp: folder 'daemon' has no row"

out=$(layering "$work/missing"); rc=$?
check "no such folder" 2 "$rc" "$out" "is not a directory"

[ "$failures" -eq 0 ] || { echo "$failures check(s) failed"; exit 1; }
