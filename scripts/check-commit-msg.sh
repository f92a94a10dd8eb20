#!/usr/bin/env bash
# Checks a commit message: a subject of at most 72 characters, then a blank line before the body
# (which says why). Usable as a git commit-msg hook (docs/ci.md); scripts/check-style.sh runs it
# on the commits of a change.   scripts/check-commit-msg.sh FILE|-   Exit 0 ok, 1 not, 2 usage.
set -euo pipefail

max_subject=72
if [ $# -ne 1 ]; then
  echo "usage: scripts/check-commit-msg.sh FILE (the message; - reads it from stdin)" >&2
  exit 2
fi
if [ "$1" = - ]; then
  message=$(cat)
elif [ -r "$1" ]; then
  message=$(cat -- "$1")
else
  echo "check-commit-msg: cannot read $1" >&2
  exit 2
fi

# As git's default cleanup: comment lines and leading blank lines are not part of the message.
mapfile -t lines < <(printf '%s\n' "$message" | grep -v '^#' | sed '/./,$!d')
subject="${lines[0]:-}"
status=0
if [ -z "$subject" ]; then
  echo "commit message: the subject is empty"
  status=1
elif [ "${#subject}" -gt "$max_subject" ]; then
  echo "commit message: subject of ${#subject} characters, at most $max_subject: $subject"
  status=1
fi
if [ "${#lines[@]}" -gt 1 ] && [ -n "${lines[1]}" ]; then
  echo "commit message: the second line must be blank (subject, blank line, then the why)"
  status=1
fi
exit "$status"
