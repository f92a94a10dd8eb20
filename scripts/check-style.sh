#!/usr/bin/env bash
# Checks what a change touches, not the whole tree: clang-format-14 and clang-tidy-14 on the C++
# files under src/ tests/ fuzz/ bench/ changed since BASE, and scripts/check-commit-msg.sh on each
# commit message after BASE (docs/ci.md).   scripts/check-style.sh [BASE]
# BASE defaults to the commit in .style-baseline; the change is what lies between the merge base of
# BASE and HEAD and the working tree (commits, uncommitted edits and new files alike).
# Exit 0 clean, 1 findings (each names the file and what to fix), 2 usage or a tool missing.
set -euo pipefail
cd "$(dirname "$0")/.."

usage() {
  echo "usage: scripts/check-style.sh [BASE]   (BASE: a commit; default the one in .style-baseline)" >&2
  exit 2
}
[ $# -le 1 ] || usage
case "${1:-}" in -h | --help) usage ;; esac
if [ $# -eq 1 ]; then
  base="$1"
elif [ -r .style-baseline ]; then
  base=$(head -n 1 .style-baseline | tr -d '[:space:]')
else
  echo "check-style: no BASE given and no .style-baseline to read it from" >&2
  exit 2
fi
if ! git rev-parse -q --verify "$base^{commit}" >/dev/null; then
  echo "check-style: $base is not a commit in this clone (a shallow clone? git fetch --unshallow)" >&2
  exit 2
fi
if ! fork=$(git merge-base "$base" HEAD); then
  echo "check-style: $base and HEAD share no history" >&2
  exit 2
fi

findings=0

# Commit messages: subject, blank line, body (scripts/check-commit-msg.sh).
commits=$(git rev-list --reverse "$fork..HEAD")
for c in $commits; do
  if ! out=$(git log -1 --format=%B "$c" | bash scripts/check-commit-msg.sh -); then
    echo "check-style: commit $(git log -1 --format='%h "%s"' "$c"):"
    printf '  %s\n' "$out"
    echo "  fix: git rebase -i $(git rev-parse --short "$fork") and reword it"
    findings=1
  fi
done

mapfile -t files < <({ git diff --name-only --diff-filter=d "$fork" -- src tests fuzz bench
                       git ls-files --others --exclude-standard -- src tests fuzz bench; } |
                     grep -E '\.(cpp|hpp|h|cc|cu|cuh)$' | sort -u || true)
if [ ${#files[@]} -eq 0 ]; then
  echo "check-style: ${#files[@]} C++ files and $(wc -w <<<"$commits") commits since $(git rev-parse --short "$fork")"
  exit "$findings"
fi

format="${GPUVET_CLANG_FORMAT:-clang-format-14}"
tidy="${GPUVET_CLANG_TIDY:-clang-tidy-14}"
for tool in "$format" "$tidy"; do
  if ! command -v "$tool" >/dev/null; then
    echo "check-style: $tool not found (scripts/install-deps.sh installs clang-format-14 and clang-tidy-14)" >&2
    exit 2
  fi
done

# Formatting (.clang-format): clang-format names each line it would change.
for f in "${files[@]}"; do
  if ! out=$("$format" --dry-run --Werror "$f" 2>&1); then
    echo "check-style: $f is not clang-formatted; fix: $format -i $f"
    grep -E '^[^ ].*: error:' <<<"$out" | head -n 5 | sed 's/^/  /' || true
    findings=1
  fi
done

# clang-tidy (.clang-tidy) with the compile commands of build/default. Sources there are checked as
# built; a changed header through its own .cpp, else through the first source that includes it, with
# findings in changed headers shown (--header-filter). fuzz/ and bench/ are not in build/default:
# they are checked with the project's include path alone.
db=build/default/compile_commands.json
in_db() { grep -qF "\"file\": \"$PWD/$1\"" "$db"; }
db_lacks_a_source() {
  [ -f "$db" ] || return 0
  for f in "${files[@]}"; do
    case "$f" in src/*.cpp | tests/*.cpp) in_db "$f" || return 0 ;; esac
  done
  return 1
}
# A new source, or no build yet: configuring (seconds) writes the compile commands.
if db_lacks_a_source; then
  cmake --preset default >/dev/null || { echo "check-style: cmake --preset default failed" >&2; exit 2; }
fi

headers=()
declare -A units=()
for f in "${files[@]}"; do
  case "$f" in
    *.cu | *.cuh) echo "check-style: $f: CUDA, checked by clang-format only" ;;
    *.cpp | *.cc) units["$f"]=1 ;;
    *)
      headers+=("$f")
      stem="${f%.*}"
      unit=""
      for candidate in "$stem.cpp" "$stem.cc"; do
        if [ -f "$candidate" ] && in_db "$candidate"; then unit="$candidate"; break; fi
      done
      if [ -z "$unit" ]; then
        include="${f#src/}"
        include="${include#tests/}"
        unit=$(git grep -l -F -e "\"$include\"" -e "\"$(basename "$f")\"" -- 'src/*.cpp' 'tests/*.cpp' 'fuzz/*.cpp' 'bench/*.cpp' |
               head -n 1 || true)
      fi
      if [ -z "$unit" ]; then
        echo "check-style: $f: no source includes it, so clang-tidy cannot check it; include it from a .cpp"
        findings=1
      else
        units["$unit"]=1
      fi
      ;;
  esac
done

header_filter='^$'
if [ ${#headers[@]} -gt 0 ]; then
  header_filter=$(printf '%s\n' "${headers[@]}" | sed 's/[.[\*^$+?(){}|]/\\&/g; s|^|/|' | paste -sd '|')
  header_filter="($header_filter)\$"
fi

logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
tidy_one() {
  local unit="$1" log="$logs/$(tr / _ <<<"$1").log" extra=()
  in_db "$unit" || extra=(-- -std=c++20 -Isrc -Itests -Ifuzz)
  "$tidy" -p build/default --quiet --header-filter="$header_filter" "$unit" "${extra[@]}" >"$log" 2>&1 || true
}
jobs="${GPUVET_STYLE_JOBS:-2}"
for unit in "${!units[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
  tidy_one "$unit" &
done
wait

for unit in $(printf '%s\n' "${!units[@]}" | sort); do
  log="$logs/$(tr / _ <<<"$unit").log"
  # Diagnostics in the changed files only: a header that did not change is not this change's business.
  report=$(grep -E '^/.*: (warning|error): ' "$log" | while IFS= read -r line; do
             path="${line%%:*}"
             path="${path#"$PWD"/}"
             printf '%s\n' "${files[@]}" | grep -qxF "$path" && printf '%s\n' "${line#"$PWD"/}"
           done || true)
  if [ -n "$report" ]; then
    echo "check-style: clang-tidy on $unit (the check is in [brackets]; NOLINT(check) with a reason if it is wrong):"
    sed 's/^/  /' <<<"$report" | sort -u
    findings=1
  elif grep -qE 'error: |Error while processing' "$log"; then
    echo "check-style: clang-tidy could not compile $unit:"
    grep -E 'error: ' "$log" | head -n 5 | sed 's/^/  /'
    findings=1
  fi
done

echo "check-style: ${#files[@]} C++ files ($(printf '%s\n' "${!units[@]}" | grep -c .) through clang-tidy) and" \
     "$(wc -w <<<"$commits") commits since $(git rev-parse --short "$fork"): $([ "$findings" -eq 0 ] && echo clean || echo 'findings above')"
exit "$findings"
