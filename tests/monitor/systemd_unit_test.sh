#!/usr/bin/env bash
# dist/systemd/gpuvet-monitor.service (review r2 findings 3, 15, 21): a start that fails with exit 4
# (NVML not ready at boot; README exit table) is retried, exit 2 is not; every Documentation= URI
# and the install section the unit's comment names exist.
# Usage: systemd_unit_test.sh SOURCE_DIR GPUVET
set -uo pipefail
src="$1"; gpuvet="$2"
unit="$src/dist/systemd/gpuvet-monitor.service"
fail() { echo "FAIL: $*" >&2; exit 1; }
[ -f "$unit" ] || fail "no $unit"
grep -q '^Restart=on-failure$' "$unit" || fail "Restart=on-failure missing"
prevent="$(sed -n 's/^RestartPreventExitStatus=//p' "$unit")"
for code in $prevent; do [ "$code" = 4 ] && fail "exit 4 (environment, e.g. NVML not ready at boot) stops the retries"; done
grep -q '| 4 ' "$src/README.md" || fail "README exit table has no exit 4"
for code in $prevent; do [ "$code" = 2 ] && found2=1; done
[ "${found2:-}" = 1 ] || fail "exit 2 (bad --db) should not be retried"
docs="$(sed -n 's/^Documentation=//p' "$unit")"
[ -n "$docs" ] || fail "no Documentation="
for uri in $docs; do
  case "$uri" in
    man:gpuvet\(1\)) "$gpuvet" man 2>/dev/null | grep -c "^\.TH" >/dev/null || fail "$uri: gpuvet man prints no man page" ;;
    https://*) ;;
    *) fail "$uri: not something the install steps put on the machine" ;;
  esac
done
section="$(sed -n 's/.*docs\/monitor.md "\([^"]*\)".*/\1/p' "$unit" | head -1)"
[ -n "$section" ] || fail "the unit's comment names no docs/monitor.md section"
grep -q "^## $section\$" "$src/docs/monitor.md" || fail "docs/monitor.md has no section '$section'"
grep -q "gpuvet-monitor.service" "$src/docs/monitor.md" || fail "docs/monitor.md does not say how to install the unit"
echo PASS
