#!/usr/bin/env bash
# run.sh MODE SECONDS NAME...: run the fuzz targets build/fuzz/fuzz_NAME.
#   fuzz     fuzz each target for SECONDS, starting from its stored corpus
#            tests/fuzz/corpus/NAME/ (new inputs go to build/fuzz/work/NAME/,
#            the stored corpus is not touched); print executions per second
#            and total executions; a crashing input is saved as
#            build/fuzz/crashes/NAME/crash-SHA1 (and the run fails).
#   corpus   run every stored input of each target once (the regressions).
#   fresh    a short fuzz run from the stored corpus, in a scratch
#            directory (what `make check` does after `corpus`): SECONDS is
#            here a number of executions, and the seed is fixed
#            (FUZZ_SEED, default 1), so that every machine tries the same
#            inputs and a failure in CI fails the same way on yours. A seed
#            alone does not give that: libFuzzer also mutates with values
#            the target compared, heap addresses among them, and worker
#            threads add coverage as they happen to run. So these runs turn
#            that dictionary off (-use_cmp=0) and run on one thread
#            (TC_NUM_THREADS=1); `make fuzz` keeps both. What may still
#            differ is a branch on a heap address (is a buffer aligned
#            already?), which changes a feature count, rarely an input.
# On a find, the failing input is printed in base64 beside the message:
#   echo BASE64 | base64 -d > crash; build/fuzz/fuzz_NAME crash
# Exit status: 0 if no target found anything.
set -uo pipefail
cd "$(dirname "$0")/../.."

mode=$1 seconds=$2; shift 2

# Out-of-memory is an error the library reports: allocations above 512 MB
# fail (return NULL) instead of killing the process. Leaks are findings.
export ASAN_OPTIONS=allocator_may_return_null=1:max_allocation_size_mb=512:detect_leaks=1:abort_on_error=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
common=(-rss_limit_mb=2048 -timeout=60 -max_len=4096 -print_final_stats=1)

status=0
for name in "$@"; do
    bin=build/fuzz/fuzz_$name corpus=tests/fuzz/corpus/$name
    crashes=build/fuzz/crashes/$name
    mkdir -p "$corpus" "$crashes"
    log=build/fuzz/logs/$name.$mode.log
    mkdir -p "$(dirname "$log")"
    case $mode in
    corpus)
        "$bin" "${common[@]}" -runs=0 -artifact_prefix="$crashes/" "$corpus" > "$log" 2>&1 ;;
    fuzz|fresh)
        work=build/fuzz/work/$name
        limit=(-max_total_time="$seconds")
        if [ "$mode" = fresh ]; then
            rm -rf "$work"
            limit=(-runs="$seconds" -seed="${FUZZ_SEED:-1}" -use_cmp=0)
            export TC_NUM_THREADS=1
        fi
        mkdir -p "$work"
        "$bin" "${common[@]}" "${limit[@]}" -artifact_prefix="$crashes/" \
            "$work" "$corpus" > "$log" 2>&1 ;;
    *)
        echo "run.sh: unknown mode $mode" >&2; exit 2 ;;
    esac
    s=$?
    runs=$(sed -nE 's/^stat::number_of_executed_units: *([0-9]+).*/\1/p' "$log" | tail -n 1)
    rate=$(sed -nE 's/^stat::average_exec_per_sec: *([0-9]+).*/\1/p' "$log" | tail -n 1)
    inputs=$(find "$corpus" -type f | wc -l)
    if [ $s -eq 0 ]; then
        printf '%-10s %-7s ok     %10s executions  %7s exec/s  (%s stored inputs)\n' \
            "$name" "$mode" "${runs:-?}" "${rate:-?}" "$inputs"
    else
        status=1
        printf '%-10s %-7s FOUND  after %s executions (log: %s)\n' "$name" "$mode" \
            "${runs:-?}" "$log"
        grep -A1 -E 'ERROR: |runtime error|invariant broken|SUMMARY|Test unit written' "$log" |
            grep -v '^--$' | head -n 12 | sed 's/^/    /'
        unit=$(sed -nE 's/.*Test unit written to (.*)$/\1/p' "$log" | tail -n 1)
        if [ -n "$unit" ] && [ -f "$unit" ]; then
            echo "    the input, in base64 (echo ... | base64 -d > crash; $bin crash):"
            base64 -w 0 "$unit" | fold -w 100 | sed 's/^/    /'
            echo
        fi
    fi
done
exit $status
