#!/usr/bin/env bash
# run.sh [--no-memcheck] NN...: run the tests of snapshots NN... (built by
# `make check`), one line per step, and end with the totals.
#   unit      the Check suites of chapters 1..N, against snapshot N
#   golden    each chapter binary k <= N, built against snapshot N, prints
#             tests/golden/chK.out (addresses and timings normalised)
#   asan      program N built with ASan+UBSan against the newest snapshot, and the unit tests of the
#             newest snapshot (which hold every chapter's suite)
#   valgrind  binary N under valgrind, no leaks allowed, and the unit tests
#             of the newest snapshot
#   tooling   tangle.sh's and the book tooling's own tests (the output blocks
#             and figures too), make install and uninstall into a scratch
#             prefix (tests/tooling/test_install.sh), and PyTorch's recorded
#             output still current
#   twins     every English passage has a current Chinese twin
#   links     every link in the rendered books resolves
#   browser   every page of both books in headless Chromium at 1280 and 390 px
#             (book/browsercheck.py), and both EPUBs through epubcheck
#   collectives  (snapshots 9 and later: the newest) every collective of
#             chapter 9 on both backends: tests/dist_collectives under
#             `tcrun -n k` and, in the MPI build, under `tests/mpirun.sh -n k`
#             for k = 1, 2, 3, 4, 8, each exiting 0, the two reports
#             identical; the chapter's program under mpirun -n 4 prints its
#             golden file; afterwards no new name in /dev/shm and no process
#             of build/ still running
#   fuzz      each libFuzzer target in $FUZZ_TARGETS (set by the Makefile)
#             over its stored corpus, then fuzzed afresh for
#             $FUZZ_CHECK_RUNS inputs from seed $FUZZ_SEED (tests/fuzz/run.sh)
set -uo pipefail
cd "$(dirname "$0")/.."

memcheck=1
if [ "${1:-}" = --no-memcheck ]; then memcheck=0; shift; fi
nums=("$@")

passed=0 failed=0 checks=0 checks_failed=0
logs=build/test/logs
mkdir -p "$logs"

# Steps run TEST_JOBS at a time (default: the number of cores), each into
# its own log, and are reported in the order they were given, so the output
# reads the same as a run one step at a time; a step's time is its own.
# Where order matters (one step reads what another wrote, or checks that
# nothing else is running), `drain` waits for every step given so far.
jobs_max=${TEST_JOBS:-$(nproc 2> /dev/null || echo 2)}
jobdir=$(mktemp -d)
trap 'rm -rf "$jobdir"' EXIT
q_kind=() q_name=() q_order=()   # per job: step|unit|note, its name; the report order
q_next=0                         # the next entry of q_order to report
n_jobs=0

# "  (N s)" after a step that took 5 seconds or more: where make check's time goes.
took() {
    local s=$(($2 - $1))
    [ "$s" -lt 5 ] || printf '  (%d s)' "$s"
}

log_of() {
    echo "$logs/$(echo "$1" | tr ' /' '__').log"
}

# start KIND NAME COMMAND...: start COMMAND when a slot is free; prints the
# job's number. Its status and start and end times go to $jobdir/NUMBER.
start() {
    local kind=$1 name=$2 id=$n_jobs log; shift 2
    while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do
        wait -n 2> /dev/null
        report_ready
    done
    log=$(log_of "$name")
    (
        t0=$(date +%s)
        "$@" > "$log" 2>&1
        s=$?
        echo "$s $t0 $(date +%s)" > "$jobdir/$id.tmp" && mv "$jobdir/$id.tmp" "$jobdir/$id"
    ) &
    q_kind[id]=$kind; q_name[id]=$name
    n_jobs=$((n_jobs + 1))
    started=$id
}

# step NAME COMMAND...: run COMMAND; PASS or FAIL (with the log's tail).
step() {
    start step "$@"; q_order+=("$started"); report_ready
}
# unit NAME COMMAND...: a Check run; its tests count into the totals, the
# step itself does not.
unit() {
    start unit "$@"; q_order+=("$started"); report_ready
}
# note TEXT: a line of the report (a section's title), in its place.
note() {
    local id=$n_jobs
    q_kind[id]=note; q_name[id]=$1; echo "0 0 0" > "$jobdir/$id"
    n_jobs=$((n_jobs + 1)); q_order+=("$id"); report_ready
}
# unit_start NAME COMMAND...: start a Check run now and report it where
# unit_finish NAME is called: the longest step (the newest snapshot's unit
# tests under valgrind) starts first and is reported in its place.
declare -A bg_id
unit_start() {
    start unit "$@"; bg_id[$1]=$started
}
unit_finish() {
    q_order+=("${bg_id[$1]}"); report_ready
}

# Report the finished jobs at the head of the report order.
report_ready() {
    local id s t0 t1
    while [ "$q_next" -lt "${#q_order[@]}" ]; do
        id=${q_order[q_next]}
        [ -e "$jobdir/$id" ] || return 0
        read -r s t0 t1 < "$jobdir/$id"
        case ${q_kind[id]} in
        note) echo "${q_name[id]}" ;;
        step) step_report "${q_name[id]}" "$s" "$t0" "$t1" ;;
        unit) unit_report "${q_name[id]}" "$s" "$t0" "$t1" ;;
        esac
        q_next=$((q_next + 1))
    done
}

# Wait for every job given so far, and report them all.
drain() {
    while [ "$q_next" -lt "${#q_order[@]}" ]; do
        wait -n 2> /dev/null || sleep 0.2
        report_ready
    done
}

step_report() {  # step_report NAME STATUS T0 T1
    local name=$1 log; log=$(log_of "$1")
    if [ "$2" -eq 0 ]; then
        printf 'PASS  %s%s\n' "$name" "$(took "$3" "$4")"; passed=$((passed + 1))
    else
        printf 'FAIL  %s  (log: %s)%s\n' "$name" "$log" "$(took "$3" "$4")"
        tail -n 25 "$log" | sed 's/^/      /'
        failed=$((failed + 1))
    fi
}

# unit_report NAME STATUS T0 T1: PASS or FAIL from the run's log and status.
unit_report() {
    local name=$1 status=$2 log line
    log=$(log_of "$name")
    line=$(grep -E '^[0-9]+%: Checks: ' "$log" | tail -n 1)
    echo "$line" | sed -E 's/^/      /'
    local n f e
    n=$(echo "$line" | sed -nE 's/.*Checks: ([0-9]+).*/\1/p'); n=${n:-0}
    f=$(echo "$line" | sed -nE 's/.*Failures: ([0-9]+).*/\1/p'); f=${f:-0}
    e=$(echo "$line" | sed -nE 's/.*Errors: ([0-9]+).*/\1/p'); e=${e:-0}
    if [ "$status" -ne 0 ] || [ -z "$line" ]; then
        printf 'FAIL  %s  (log: %s)%s\n' "$name" "$log" "$(took "$3" "$4")"
        grep -E ':[EF]:' "$log" | head -n 20 | sed 's/^/      /'
        tail -n 15 "$log" | sed 's/^/      /'
        [ "$f" -gt 0 ] || [ "$e" -gt 0 ] || f=1
    else
        printf 'PASS  %s%s\n' "$name" "$(took "$3" "$4")"
    fi
    checks=$((checks + n)); checks_failed=$((checks_failed + f + e))
}

golden() {  # golden BINARY K
    diff -u "tests/golden/ch$2.out" <("$1" | tests/normalize.sh)
}

help_works() {
    "$1" --help | grep -q '^Usage: '
}

export ASAN_OPTIONS=allocator_may_return_null=1:detect_leaks=1:abort_on_error=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
# --child-silent-after-fork: a test that forks (chapter 8's load_inline
# races two processes) would otherwise print the leak report of each child,
# which holds the whole test program's memory and exits with _exit.
vg=(valgrind -q --error-exitcode=99 --leak-check=full --show-leak-kinds=all
    --errors-for-leak-kinds=all --child-silent-after-fork=yes)

newest=${nums[-1]}
# TC_TEST_QUICK=1: the multi-rank tests of chapter 9 use fewer world sizes
# and shapes under valgrind (every rank is a forked process it watches).
[ $memcheck = 0 ] ||
    unit_start "valgrind unit ch$newest" env CK_FORK=no TC_TEST_QUICK=1 "${vg[@]}" \
        build/test/ch$newest/check

for n in "${nums[@]}"; do
    note "== snapshot $n"
    unit "unit ch$n" build/test/ch$n/check
    for k in "${nums[@]}"; do
        [ "$((10#$k))" -le "$((10#$n))" ] || continue
        step "golden demo ch$k against snapshot $n" golden build/test/ch$n/demo$k "$k"
    done
    step "ch$n --help" help_works build/bin/ch$n
    if [ "$n" = "${nums[-1]}" ]; then
        # Chapter 7 chooses an instruction set and a number of threads at
        # run time: the newest snapshot's tests once more on the portable
        # path and one thread (they also loop over every capability inside).
        unit "unit ch$n, TC_CPU_CAPABILITY=default TC_NUM_THREADS=1" \
            env TC_CPU_CAPABILITY=default TC_NUM_THREADS=1 build/test/ch$n/check
    fi
    if [ $memcheck = 1 ]; then
        # The unit tests under the sanitizers and valgrind run against the
        # newest snapshot only: its program holds every chapter's suite, so
        # every test still runs under both, and make check stays short.
        if [ "$n" = "${nums[-1]}" ]; then
            unit "asan+ubsan unit ch$n" env CK_FORK=no build/asan/ch$n/check
            unit_finish "valgrind unit ch$n"   # started at the top
        fi
        # Each chapter's program under the sanitizers, built against the
        # newest snapshot (the Makefile builds the sanitized library once).
        step "asan+ubsan ch$n (snapshot $newest)" build/asan/ch$newest/demo$n
        # From chapter 9 on, the program run alone starts its ranks with
        # exec: valgrind follows them, and a rank's error fails the run.
        vg_children=()
        [ "$((10#$n))" -lt 9 ] || vg_children=(--trace-children=yes)
        step "valgrind ch$n" "${vg[@]}" "${vg_children[@]}" build/bin/ch$n
    fi
done

# ---- chapter 9: the collectives on both backends --------------------------------
# A hung collective must not hang make check: every run is stopped after
# 300 s (SIGTERM, which tcrun and mpirun pass to their ranks; SIGKILL 10 s later).
limit=(timeout -k 10 300)
dist_report() {  # dist_report LAUNCHER K: where the report of that run goes
    echo "$logs/dist_collectives.$1.$2.out"
}
collectives_tcrun() {  # collectives_tcrun N K
    local out; out=$(dist_report tcrun "$2")
    rm -f "$out"
    "${limit[@]}" build/test/ch$1/tcrun -n "$2" build/test/ch$1/dist_collectives > "$out" || return 1
    cat "$out"
    grep -q ' 0 failed$' "$out"
}
collectives_mpi() {  # collectives_mpi N K: also the same report as under tcrun
    local out; out=$(dist_report mpirun "$2")
    rm -f "$out"
    "${limit[@]}" tests/mpirun.sh -n "$2" build/mpi/ch$1/dist_collectives > "$out" || return 1
    grep -q ' 0 failed$' "$out" || { cat "$out"; return 1; }
    diff -u "$(dist_report tcrun "$2")" "$out"
}
# What chapter N's program prints on 4 ranks: tests/golden/chN.ranks4.out
# where a chapter has one (chapter 10: training on 4 ranks adds the
# gradients in another order than on one), else its golden output.
golden4() {
    if [ -e "tests/golden/ch$1.ranks4.out" ]; then echo "tests/golden/ch$1.ranks4.out"
    else echo "tests/golden/ch$1.out"; fi
}
golden_tcrun() {  # golden_tcrun N: chapter N's program, 4 ranks under tcrun
    diff -u "$(golden4 "$1")" <("${limit[@]}" build/test/ch$1/tcrun -n 4 build/bin/ch$1 |
                                tests/normalize.sh)
}
golden_mpi() {  # golden_mpi N: chapter N's program, 4 ranks under mpirun
    diff -u "$(golden4 "$1")" <("${limit[@]}" tests/mpirun.sh -n 4 build/mpi/ch$1/ch$1 |
                                tests/normalize.sh)
}
# The processes running a program of this tree's build/, and the names in
# /dev/shm; what is left after the steps is what they left.
build_procs() {
    local p exe
    for p in /proc/[0-9]*; do
        exe=$(readlink "$p/exe" 2> /dev/null) || continue
        case $exe in "$PWD"/build/*) echo "pid ${p#/proc/}: $exe" ;; esac
    done
}
shm_names() {
    ls -A /dev/shm 2> /dev/null | sort
}
nothing_left() {  # nothing_left NAMES_BEFORE
    local i new procs
    for i in 1 2 3 4 5 6 7 8 9 10; do   # mpirun's daemons take a moment to go
        new=$(comm -13 <(echo "$1") <(shm_names))
        procs=$(build_procs)
        [ -n "$new$procs" ] || return 0
        sleep 0.5
    done
    [ -z "$new" ] || printf 'left in /dev/shm:\n%s\n' "$new"
    [ -z "$procs" ] || printf 'still running:\n%s\n' "$procs"
    return 1
}
if [ "$((10#$newest))" -ge 9 ]; then
    # These runs start up to 8 ranks each and end by checking that no
    # process of build/ is left: they run after everything before them, one
    # at a time (the mpirun reports are compared with the tcrun ones).
    drain
    note "== collectives on both backends, snapshot $newest"
    shm_before=$(shm_names)
    jobs_max_saved=$jobs_max; jobs_max=1
    for k in 1 2 3 4 8; do
        step "collectives under tcrun -n $k" collectives_tcrun "$newest" "$k"
    done
    step "ch$newest under tcrun -n 4 prints $(golden4 "$newest")" golden_tcrun "$newest"
    # The Makefile builds the MPI programs when it finds mpicc as it starts;
    # on a first make check, deps may install Open MPI only after that.
    if [ -x "build/mpi/ch$newest/dist_collectives" ]; then
        for k in 1 2 3 4 8; do
            step "collectives under mpirun -n $k: the report under tcrun" collectives_mpi "$newest" "$k"
        done
        step "ch$newest under mpirun -n 4 prints $(golden4 "$newest")" golden_mpi "$newest"
    elif command -v mpicc > /dev/null; then
        note "SKIP  the MPI runs: Open MPI was installed during this make; run make check again"
    else
        note "SKIP  the MPI runs: mpicc not found (tools/deps.sh installs Open MPI)"
    fi
    drain
    step "no name left in /dev/shm, no process of build/ left" nothing_left "$shm_before"
    drain
    jobs_max=$jobs_max_saved
fi

note "== tooling and book"
step "tangle.sh tests" tests/tooling/test_tangle.sh
step "book tooling tests" tests/tooling/test_book.sh
step "output blocks and figures tests" tests/tooling/test_answers.sh
step "make install and uninstall tests" tests/tooling/test_install.sh
[ ! -x build/bin/tcrun ] || step "tcrun tests" tests/tooling/test_tcrun.sh
step "PyTorch recordings current" python3 book/pytorch.py check
step "translations current" python3 book/twins.py check $(awk -F'\t' 'NR > 1 { print $2 }' chapters.tsv) book/preface.md
# The exercise tests (built by make) compile against the book's code and
# report "to do" there: a test that passes before the reader's change checks nothing.
exercises_todo() {
    local bins=() f
    for f in tests/exercises/ch[0-9][0-9]_*.c; do
        [ -e "$f" ] || continue
        f=build/exercises/$(basename "$f" .c)
        [ -x "$f" ] && bins+=("$f")
    done
    tests/exercises/run.sh --expect-todo "${bins[@]}"
}
step "exercise tests compile and report to do" exercises_todo
step "links in the HTML books" python3 book/checklinks.py build/book
svg_well_formed() {
    local f
    for f in build/book/fig/*.svg; do
        [ -e "$f" ] || continue
        python3 -c 'import sys, xml.dom.minidom as m; m.parse(sys.argv[1])' "$f" || { echo "$f"; return 1; }
    done
}
step "figures are well-formed SVG" svg_well_formed
epub_links() {
    local dir; dir=$(mktemp -d)
    for l in en zh; do
        mkdir -p "$dir/$l" && (cd "$dir/$l" && python3 -c 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall()' \
            "$OLDPWD/build/book/pytorch-internals-$l.epub") || return 1
    done
    python3 book/checklinks.py "$dir"; local s=$?
    rm -rf "$dir"; return $s
}
step "links in the EPUBs" epub_links
step "book in Chromium at 1280 and 390 px" python3 book/browsercheck.py build/book
# epubcheck's jar run by java itself (the /usr/bin/epubcheck wrapper needs
# binfmt_misc, which containers often lack); C1 only: it starts faster.
# Both books at once, one java each.
epubcheck_all() {
    local e pids=() s=0 p
    for e in build/book/pytorch-internals-en.epub build/book/pytorch-internals-zh.epub; do
        java -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -jar /usr/share/java/epubcheck.jar -q "$e" &
        pids+=($!)
    done
    for p in "${pids[@]}"; do wait "$p" || s=1; done
    return $s
}
step "EPUBs pass epubcheck" epubcheck_all

if [ $memcheck = 1 ] && [ -n "${FUZZ_TARGETS:-}" ]; then
    note "== fuzz targets (tests/fuzz)"
    for t in $FUZZ_TARGETS; do
        step "fuzz $t: stored corpus" tests/fuzz/run.sh corpus 0 "$t"
        step "fuzz $t: ${FUZZ_CHECK_RUNS:-30000} fresh inputs, seed ${FUZZ_SEED:-1}" \
            tests/fuzz/run.sh fresh "${FUZZ_CHECK_RUNS:-30000}" "$t"
    done
fi

drain
echo
echo "unit tests (Check): $((checks - checks_failed)) passed, $checks_failed failed"
echo "other steps: $passed passed, $failed failed"
echo "check: $((passed + checks - checks_failed)) passed, $((failed + checks_failed)) failed"
[ "$failed" -eq 0 ] && [ "$checks_failed" -eq 0 ]
