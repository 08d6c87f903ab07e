#!/usr/bin/env bash
# Tests of tcrun (chapter 9, "The launcher"), the program: its options and
# their spellings (torchrun's --nproc_per_node too), --help, the ranks'
# variables, exit codes (a rank's code, 128+signal, 127 and 126 for a
# program that cannot run, 2 for bad options), the one-line summary, the
# failure drill within 5 seconds (also when the others ignore SIGTERM),
# SIGINT and SIGTERM forwarded to the ranks, the ranks gone when tcrun is
# killed, and no process or /dev/shm name left behind. When the snapshot
# has the shared-memory backend, a rank blocked in a collective is stopped
# too when another fails.
# Run from anywhere: bash tests/tooling/test_tcrun.sh [TCRUN]
# Prints PASS/FAIL lines and ends with "tcrun: N passed, M failed".

set -u
source "$(dirname "$0")/lib.sh"

TCRUN=${1:-build/bin/tcrun}
[ -x "$TCRUN" ] || { echo "test_tcrun.sh: no $TCRUN (run make first)"; exit 2; }
TCRUN=$(cd "$(dirname "$TCRUN")" && pwd)/$(basename "$TCRUN")

# Run tcrun with the arguments; its status in $status, its output in
# $TMP/out and $TMP/err, the seconds it took in $took.
run() {
    local t0 t1
    t0=$(date +%s.%N)
    "$TCRUN" "$@" > "$TMP/out" 2> "$TMP/err"
    status=$?
    t1=$(date +%s.%N)
    took=$(echo "$t1 - $t0" | bc)
}

# expect STATUS: the status tcrun exited with, and show what it printed if not.
expect() {
    [ "$status" = "$1" ] && return 0
    echo "exit status $status, expected $1"; cat "$TMP/out" "$TMP/err"
    return 1
}

expect_err() {      # the whole of stderr, as a regular expression
    grep -Eqx "$1" "$TMP/err" && [ "$(wc -l < "$TMP/err")" = 1 ] && return 0
    echo "stderr was:"; cat "$TMP/err"; echo "expected one line matching: $1"
    return 1
}

within() {          # took < SECONDS
    [ "$(echo "$took < $1" | bc)" = 1 ] && return 0
    echo "took $took s, more than $1 s"
    return 1
}

# Every pid written to $TMP/pids (one per line, by the ranks) is gone.
pids_gone() {
    local pid
    [ -s "$TMP/pids" ] || { echo "no pids were recorded"; return 1; }
    while read -r pid; do
        if kill -0 "$pid" 2> /dev/null; then
            echo "rank pid $pid is still running"; return 1
        fi
    done < "$TMP/pids"
}

help_prints_usage() {
    run --help && expect 0 && head -1 "$TMP/out" | grep -q '^Usage: tcrun ' &&
        [ ! -s "$TMP/err" ] || return 1
    run -h && expect 0 && head -1 "$TMP/out" | grep -q '^Usage: tcrun '
}
check "--help and -h print Usage: on stdout and exit 0" help_prints_usage

ranks_and_world() {
    run -n 3 sh -c 'echo "$RANK/$WORLD_SIZE $LOCAL_RANK/$LOCAL_WORLD_SIZE"' && expect 0 || return 1
    printf '0/3 0/3\n1/3 1/3\n2/3 2/3\n' > "$TMP/want"
    sort "$TMP/out" | diff - "$TMP/want"
}
check "-n 3: ranks 0, 1, 2 of 3" ranks_and_world

every_spelling() {
    local spelling
    for spelling in "-n 2" "-n=2" "--nproc-per-node=2" "--nproc-per-node 2" \
                    "--nproc_per_node=2" "--nproc_per_node 2"; do
        # shellcheck disable=SC2086
        run $spelling sh -c 'echo $WORLD_SIZE' && expect 0 || return 1
        [ "$(sort -u "$TMP/out")" = 2 ] && [ "$(wc -l < "$TMP/out")" = 2 ] ||
            { echo "$spelling: $(cat "$TMP/out")"; return 1; }
    done
    run sh -c 'echo $RANK $WORLD_SIZE' && expect 0 && [ "$(cat "$TMP/out")" = "0 1" ] ||
        { echo "default: $(cat "$TMP/out")"; return 1; }
}
check "the count's spellings (torchrun's too); 1 rank by default" every_spelling

program_options_untouched() {
    # After the program's name, and after --, arguments are the program's.
    run -n 1 sh -c 'echo "$*"' x -n 5 --help && expect 0 &&
        [ "$(cat "$TMP/out")" = "-n 5 --help" ] || return 1
    run -n 1 -- sh -c 'echo "$*"' x --grace && expect 0 && [ "$(cat "$TMP/out")" = "--grace" ]
}
check "options end at the program (or --)" program_options_untouched

torchrun_variables() {
    # torch 1.13's torchrun --no_python --nproc_per_node=2 env sets these
    # (besides OMP_NUM_THREADS, TORCHELASTIC_USE_AGENT_STORE,
    # TORCHELASTIC_ERROR_FILE and NCCL_ASYNC_ERROR_HANDLING, which are its own).
    run -n 2 --timeout 2.5 sh -c 'if [ $RANK = 1 ]; then env; fi' && expect 0 || return 1
    local v
    for v in RANK=1 WORLD_SIZE=2 LOCAL_RANK=1 LOCAL_WORLD_SIZE=2 GROUP_RANK=0 \
             GROUP_WORLD_SIZE=1 ROLE_RANK=1 ROLE_WORLD_SIZE=2 ROLE_NAME=default \
             MASTER_ADDR=127.0.0.1 MASTER_PORT=29500 TORCHELASTIC_RUN_ID=none \
             TORCHELASTIC_RESTART_COUNT=0 TORCHELASTIC_MAX_RESTARTS=0 TC_NUM_THREADS=1 \
             TC_DIST_TIMEOUT=2.5; do
        grep -qx "$v" "$TMP/out" || { echo "missing $v"; cat "$TMP/out"; return 1; }
    done
    grep -Eqx 'TC_SHM_FD=[0-9]+' "$TMP/out" || { echo "no TC_SHM_FD"; return 1; }
    # The descriptor is open in the rank, on a file with no name left.
    run -n 2 sh -c 'readlink /proc/self/fd/$TC_SHM_FD' && expect 0 || return 1
    grep -q 'deleted' "$TMP/out" || { echo "segment: $(cat "$TMP/out")"; return 1; }
}
check "the ranks' variables are torchrun's, and TC_SHM_FD" torchrun_variables

one_rank_fails() {
    : > "$TMP/pids"
    # Rank 2 leaves once every rank has written its pid (a fixed nap alone
    # was a race on a loaded machine).
    run -n 4 sh -c 'echo $$ >> '"$TMP/pids"'; test $RANK = 2 && exec sh -c "until [ \$(wc -l < '"$TMP/pids"') -ge 4 ]; do sleep 0.05; done; sleep 0.2; exit 3"; exec sleep 30'
    expect 3 && expect_err 'tcrun: rank 2 \(pid [0-9]+\) exited with code 3; stopped the other 3 ranks' &&
        within 5 && pids_gone
}
check "the drill: rank 2 exits 3, the others stopped, exit 3 within 5 s" one_rank_fails

others_ignore_sigterm() {
    : > "$TMP/pids"
    # The others set SIGTERM aside before they write their pid; rank 0
    # leaves once all three pids are written.
    local body='test $RANK = 0 || trap "" TERM; echo $$ >> '"$TMP/pids"'; test $RANK = 0 && exec sh -c "until [ \$(wc -l < '"$TMP/pids"') -ge 3 ]; do sleep 0.05; done; sleep 0.2; exit 4"; exec sleep 30'
    run -n 3 sh -c "$body"
    expect 4 && within 5 && pids_gone || return 1
    [ "$(echo "$took >= 3" | bc)" = 1 ] || { echo "default grace: took $took s"; return 1; }
    : > "$TMP/pids"
    run -n 3 --grace 0.5 sh -c "$body"
    expect 4 && within 3 && pids_gone
}
check "ranks that ignore SIGTERM: SIGKILL after the grace (3 s, --grace 0.5)" others_ignore_sigterm

killed_by_signal() {
    run -n 2 sh -c 'test $RANK = 1 && kill -9 $$; exec sleep 30'
    expect 137 &&
        expect_err 'tcrun: rank 1 \(pid [0-9]+\) was killed by signal 9 \(Killed\); stopped the other rank'
}
check "a rank killed by SIGKILL: exit 137 and the signal named" killed_by_signal

program_cannot_run() {
    run -n 4 tc-no-such-program a b && expect 127 &&
        expect_err 'tcrun: tc-no-such-program: No such file or directory' || return 1
    printf 'echo hi\n' > "$TMP/not-executable"
    chmod 644 "$TMP/not-executable"
    run -n 2 "$TMP/not-executable" && expect 126 &&
        expect_err "tcrun: $TMP/not-executable: Permission denied"
}
check "a program that cannot run: 127 or 126, the message once" program_cannot_run

bad_options() {
    local args
    for args in "-n 0" "-n -1" "-n abc" "-n 2x" "-n 99999" "-n" "--timeout 0" \
                "--timeout -1" "--grace x" "--frobnicate"; do
        # shellcheck disable=SC2086
        run $args true
        [ "$status" = 2 ] || { echo "tcrun $args true: status $status"; return 1; }
        grep -q "^Try 'tcrun --help'.$" "$TMP/err" || { cat "$TMP/err"; return 1; }
    done
    run -n abc true
    printf "tcrun: invalid number of ranks 'abc'\nTry 'tcrun --help'.\n" | diff "$TMP/err" - || return 1
    run && [ "$status" = 2 ] && grep -qx 'tcrun: no program to run' "$TMP/err"
}
check "bad options: status 2 and a hint" bad_options

forwards_signals() {
    local sig want pid
    for sig in INT TERM; do
        : > "$TMP/pids"
        "$TCRUN" -n 3 sh -c 'echo $$ >> '"$TMP/pids"'; exec sleep 30' 2> "$TMP/err" &
        pid=$!
        # wait until the three ranks run
        for _ in $(seq 100); do [ "$(wc -l < "$TMP/pids")" = 3 ] && break; sleep 0.05; done
        kill -$sig $pid
        wait $pid
        status=$?
        [ $sig = INT ] && want=130 || want=143
        expect $want || return 1
        grep -Eqx "tcrun: received signal [0-9]+ \((Interrupt|Terminated)\); stopped 3 ranks" \
            "$TMP/err" || { cat "$TMP/err"; return 1; }
        pids_gone || return 1
    done
}
check "SIGINT and SIGTERM are forwarded: 130, 143" forwards_signals

ranks_die_with_tcrun() {
    local pid
    : > "$TMP/pids"
    "$TCRUN" -n 2 sh -c 'echo $$ >> '"$TMP/pids"'; exec sleep 30' &
    pid=$!
    for _ in $(seq 100); do [ "$(wc -l < "$TMP/pids")" = 2 ] && break; sleep 0.05; done
    kill -KILL $pid
    wait $pid 2> /dev/null
    # The kernel kills them at once; init reaps them a moment later.
    for _ in $(seq 40); do pids_gone > /dev/null && return 0; sleep 0.05; done
    pids_gone
}
check "tcrun killed by SIGKILL: its ranks die too (Linux)" ranks_die_with_tcrun

# The drill with a collective, when the snapshot has process groups: rank 1
# of 4 leaves while the others wait for it in an all_reduce.
last=$(awk -F'\t' 'NR > 1 { n = $1 } END { printf "%02d", n }' chapters.tsv)
if [ -e "build/obj/ch$last/dist.o" ]; then
    blocked_in_collective() {
        ${CC:-cc} -std=c11 -Wall -Wextra -Werror -Ibuild/snap/ch$last/src \
            tests/tooling/fixtures/tcrun/blocked.c build/obj/ch$last/*.o \
            -lm -pthread -ldl -rdynamic -o "$TMP/blocked" || return 1
        : > "$TMP/pids"
        run -n 4 "$TMP/blocked" 1 "$TMP/pids"
        expect 3 &&
            expect_err 'tcrun: rank 1 \(pid [0-9]+\) exited with code 3; stopped the other 3 ranks' &&
            within 5 && pids_gone
    }
    check "a rank leaves while the others wait in all_reduce: all stopped, exit 3" \
        blocked_in_collective
fi

no_shm_names() {
    local left
    left=$(ls /dev/shm | grep '^tc-launch-' || true)
    [ -z "$left" ] || { echo "left in /dev/shm: $left"; return 1; }
}
check "no tc-launch- name left in /dev/shm" no_shm_names

finish tcrun
