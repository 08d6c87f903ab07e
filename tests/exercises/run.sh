#!/usr/bin/env bash
# run.sh [--expect-todo] BINARY...: run exercise tests (tests/exercises/*.c).
#   default        one line per exercise, then "exercises: N solved, M to do";
#                  exit 1 if any is to do (a reader working on the exercises)
#   --expect-todo  for make check: every exercise must report "to do" (exit 1)
#                  against the book's own code; a crash, or one that is already
#                  solved (its test cannot fail), is an error
set -uo pipefail
expect_todo=0
if [ "${1:-}" = --expect-todo ]; then expect_todo=1; shift; fi
solved=0 todo=0 bad=0
for bin in "$@"; do
    out=$("$bin" 2>&1); status=$?
    if [ $expect_todo = 1 ]; then
        if [ $status -ne 1 ] || ! grep -q ': to do' <<< "$out"; then
            echo "exercise test $(basename "$bin") should report 'to do' and exit 1; it exited $status:"
            echo "$out" | sed 's/^/    /'
            bad=$((bad + 1))
        fi
        continue
    fi
    echo "$out"
    case $status in
        0) solved=$((solved + 1)) ;;
        1) todo=$((todo + 1)) ;;
        *) echo "$(basename "$bin"): crashed (status $status)"; bad=$((bad + 1)) ;;
    esac
done
if [ $expect_todo = 1 ]; then
    echo "exercise tests: $# built, $bad misbehaving"
    [ $bad -eq 0 ]
    exit
fi
if [ $bad -gt 0 ]; then echo "exercises: $solved solved, $todo to do, $bad crashed"; else echo "exercises: $solved solved, $todo to do"; fi
[ $todo -eq 0 ] && [ $bad -eq 0 ]
