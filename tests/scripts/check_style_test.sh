#!/usr/bin/env bash
# scripts/check-commit-msg.sh and scripts/check-style.sh on a small git repository made here: a clean
# change passes, and each kind of finding (format, clang-tidy in a source or a changed header, a
# commit message) fails naming the file or commit and the fix. Usage: check_style_test.sh
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

message() { printf "$1" | bash "$repo/scripts/check-commit-msg.sh" - 2>&1; }
subject72=$(printf 'x%.0s' $(seq 72))
out=$(message "monitor: keep the last snapshot\n\nWhy it matters.\n"); rc=$?
check "subject, blank line, body" 0 "$rc" "$out" ""
out=$(message "$subject72\n"); rc=$?
check "a 72-character subject alone" 0 "$rc" "$out" ""
out=$(message "${subject72}y\n\nbody\n"); rc=$?
check "a 73-character subject" 1 "$rc" "$out" "subject of 73 characters, at most 72"
out=$(message "monitor: keep the last snapshot\nWhy it matters.\n"); rc=$?
check "no blank line after the subject" 1 "$rc" "$out" "second line must be blank"
out=$(message "# a comment\n\nmonitor: keep it\n"); rc=$?
check "comments and leading blank lines are not the subject" 0 "$rc" "$out" ""
out=$(message "\n\n"); rc=$?
check "an empty message" 1 "$rc" "$out" "subject is empty"
out=$(bash "$repo/scripts/check-commit-msg.sh" 2>&1); rc=$?
check "no argument" 2 "$rc" "$out" "usage:"

# A repository with the scripts and configs, one clean source, and the baseline at its first commit.
cd "$work" || exit 1
git init -q . && git config user.email ci@example.com && git config user.name ci
mkdir -p scripts src/core build/default
cp "$repo/scripts/check-style.sh" "$repo/scripts/check-commit-msg.sh" scripts/
cp "$repo/.clang-format" "$repo/.clang-tidy" .
printf '/build/\n' >.gitignore
cat >src/core/size.hpp <<'EOF'
#pragma once
#include <string>

int text_size(const std::string& text);
EOF
cat >src/core/size.cpp <<'EOF'
#include "core/size.hpp"

int text_size(const std::string& text) { return static_cast<int>(text.size()); }
EOF
cat >build/default/compile_commands.json <<EOF
[{"directory": "$work", "command": "c++ -std=c++20 -I$work/src -c $work/src/core/size.cpp", "file": "$work/src/core/size.cpp"},
 {"directory": "$work", "command": "c++ -std=c++20 -I$work/src -c $work/src/core/more.cpp", "file": "$work/src/core/more.cpp"}]
EOF
git add -A && git commit -q -m "core: text_size"
git rev-parse HEAD >.style-baseline
git add .style-baseline && git commit -q -m "ci: the style baseline"
style() { bash scripts/check-style.sh "$@" 2>&1; }

out=$(style); rc=$?
check "no C++ change" 0 "$rc" "$out" "0 C++ files and 1 commits since"

cat >src/core/more.cpp <<'EOF'
#include <string>

bool is_blank(const std::string& text) { return text.empty(); }
EOF
git add -A && git commit -q -m "core: is_blank" -m "A clean change."
out=$(style); rc=$?
check "a clean new source" 0 "$rc" "$out" "1 C++ files (1 through clang-tidy) and 2 commits since .*: clean"

printf 'int   badly_spaced() { return 1; }\n' >>src/core/more.cpp
out=$(style); rc=$?
check "an uncommitted format change" 1 "$rc" "$out" "src/core/more.cpp is not clang-formatted; fix: clang-format-14 -i src/core/more.cpp"
check "the line to reformat" 1 "$rc" "$out" "src/core/more.cpp:4:4: error: code should be clang-formatted"
git checkout -q src/core/more.cpp

printf 'bool has_text(std::string text) { return text.size() != 0; }\n' >>src/core/more.cpp
out=$(style); rc=$?
check "clang-tidy in a source" 1 "$rc" "$out" "src/core/more.cpp:4:.*\[performance-unnecessary-value-param\]"
check "clang-tidy: each finding" 1 "$rc" "$out" "src/core/more.cpp:4:.*\[readability-container-size-empty\]"
git checkout -q src/core/more.cpp

printf 'inline bool empty_text(std::string text) { return text.size() == 0; }\n' >>src/core/size.hpp
out=$(style); rc=$?
check "clang-tidy in a changed header, through its source" 1 "$rc" "$out" "src/core/size.hpp:5:.*\[readability-container-size-empty\]"
git checkout -q src/core/size.hpp

printf 'bool is_short(const std::string& text) { return text.size() < 3; }\n' >>src/core/more.cpp
git commit -q -a -m "core: is_short, a helper for the short texts that the parsers will hand it later"
out=$(style); rc=$?
check "a long commit subject" 1 "$rc" "$out" "subject of 80 characters, at most 72: core: is_short"
check "the commit named" 1 "$rc" "$out" "^check-style: commit [0-9a-f]* \"core: is_short, a helper"
out=$(style HEAD); rc=$?
check "BASE given: nothing after it" 0 "$rc" "$out" "0 C++ files and 0 commits since"

out=$(style no-such-commit); rc=$?
check "an unknown base" 2 "$rc" "$out" "no-such-commit is not a commit in this clone"
out=$(style a b); rc=$?
check "two arguments" 2 "$rc" "$out" "usage:"

[ "$failures" -eq 0 ] || { echo "$failures check(s) failed"; exit 1; }
