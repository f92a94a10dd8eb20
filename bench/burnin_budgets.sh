#!/bin/bash
# Burn-in budgets of issue 16, end to end on the simulator: peak RSS, wall and CPU time of
# `gpuvet burnin --sim hgx-h100-8x --duration D` (to a file database) and of `gpuvet report --db`
# on that file, the database's bytes per GPU-sample, and the full simulated `accept` of the
# hgx-h100-8x template. Each command runs pinned to one core (taskset -c 0) under
# /usr/bin/time -v. Method and results: docs/measurement.md "Burn-in", "Budgets".
#
#   bench/burnin_budgets.sh BINARY [LABEL] [DURATION...]      (durations default: 4h 24h 72h)
#
# BURNIN_ARGS adds options to each burn-in, e.g. BURNIN_ARGS="--traffic all" for the soak with link
# traffic (issue 22's budget: a fixed cost per traffic interval on top of the samples' bytes).
#
# Prints one Markdown table row per duration and one for accept. Give two binaries (before and
# after a change) in one session to compare them side by side on the same machine.
set -euo pipefail

bin=${1:?usage: burnin_budgets.sh BINARY [LABEL] [DURATION...]}
label=${2:-$(basename "$bin")}
shift $(( $# >= 2 ? 2 : 1 ))
durations=("$@")
[ ${#durations[@]} -gt 0 ] || durations=(4h 24h 72h)
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/gpuvet-budgets.XXXXXX")
trap 'rm -rf "$work"' EXIT

# Runs "$@" pinned to core 0; sets rss_mib, wall_s, user_s. Exit codes 0-3 are verdicts.
measure() {
  local rc=0
  /usr/bin/time -v -o "$work/time" taskset -c 0 "$@" >/dev/null 2>"$work/stderr" || rc=$?
  if [ "$rc" -gt 3 ]; then
    echo "failed ($rc): $*" >&2
    cat "$work/stderr" >&2
    exit 1
  fi
  rss_mib=$(awk -F': ' '/Maximum resident set size/ {printf "%.0f", $2 / 1024}' "$work/time")
  user_s=$(awk -F': ' '/User time/ {print $2}' "$work/time")
  wall_s=$(awk -F': ' '/Elapsed \(wall clock\)/ {n = split($2, p, ":"); s = 0; for (i = 1; i <= n; ++i) s = s * 60 + p[i]; printf "%.2f", s}' "$work/time")
}

seconds() {
  case "$1" in
    *h) echo $(( ${1%h} * 3600 )) ;;
    *m) echo $(( ${1%m} * 60 )) ;;
    *s) echo "${1%s}" ;;
  esac
}

echo "| Binary | Duration | burnin RSS MiB | burnin wall s | burnin user s | report RSS MiB | report wall s | report user s | DB bytes | bytes / GPU-sample |"
echo "|---|---|---|---|---|---|---|---|---|---|"
for d in "${durations[@]}"; do
  db="$work/run-$d.db"
  # shellcheck disable=SC2086  # BURNIN_ARGS is a list of words
  measure "$bin" burnin --sim hgx-h100-8x --duration "$d" --db "$db" ${BURNIN_ARGS:-}
  b_rss=$rss_mib b_wall=$wall_s b_user=$user_s
  measure "$bin" report --db "$db"
  bytes=$(stat -c %s "$db")
  per=$(awk -v b="$bytes" -v s="$(seconds "$d")" 'BEGIN {printf "%.1f", b / (8 * s)}')
  echo "| $label | $d | $b_rss | $b_wall | $b_user | $rss_mib | $wall_s | $user_s | $bytes | $per |"
  rm -f "$db" "$db-wal" "$db-shm"
done
measure "$bin" accept --spec "$root/profiles/specs/hgx-h100-8x.yaml" --out "$work/accept" --sim hgx-h100-8x
echo
echo "| Binary | accept --sim hgx-h100-8x (template, 4 h burn-in) | RSS MiB | wall s | user s |"
echo "|---|---|---|---|---|"
echo "| $label | full | $rss_mib | $wall_s | $user_s |"
