#!/usr/bin/env bash
# Tests of chapter 10's program around a crash ("A crash, and a resume"): a
# run killed by --kill-after-step K (SIGKILL, status 137) and started again
# with --resume ends with the same checkpoint, byte for byte, as a run that
# was never stopped, and prints the same lines for the epochs it trains and
# the same confusion matrix; on one rank alone and on four under tcrun. A kill
# at the last step of an epoch comes after that epoch's checkpoint; no .tmp
# file is left; --resume without a file starts afresh; a damaged checkpoint
# is refused, with a message that names it, and left as it was.
# Run from anywhere: bash tests/tooling/test_train_resume.sh [CH10 [TCRUN]]
# Prints PASS/FAIL lines and ends with "train resume: N passed, M failed".

set -u
source "$(dirname "$0")/lib.sh"

CH10=${1:-build/bin/ch10}
TCRUN=${2:-build/bin/tcrun}
[ -x "$CH10" ] || { echo "test_train_resume.sh: no $CH10 (run make first)"; exit 2; }
# 4 epochs of 45 steps: short, and long enough to die in the third.
EPOCHS=4

# train NAME ARGS...: run ch10 --epochs 4 ARGS (under tcrun -n 4 if RANKS=4),
# its output in $TMP/NAME.out, its status in $status.
RANKS=1
train() {
    local name=$1; shift
    if [ "$RANKS" = 1 ]; then
        "$CH10" --epochs "$EPOCHS" "$@" > "$TMP/$name.out" 2> "$TMP/$name.err"
    else
        "$TCRUN" -n "$RANKS" "$CH10" --epochs "$EPOCHS" "$@" > "$TMP/$name.out" 2> "$TMP/$name.err"
    fi
    status=$?
}

expect() {          # expect STATUS WHAT
    [ "$status" = "$1" ] && return 0
    echo "$2: exit status $status, expected $1"; cat "$TMP"/*.err
    return 1
}

epochs() {          # the epoch lines of run NAME from epoch FIRST on
    awk -v first="$2" '$1 == "epoch" && $2 >= first' "$TMP/$1.out"
}

after_training() {  # run NAME's lines from the confusion matrix on
    sed -n '/^confusion matrix/,$p' "$TMP/$1.out"
}

same_as_uninterrupted() {   # same_as_uninterrupted NAME FIRST_EPOCH CKPT FULL
    diff <(epochs "$4" "$2") <(epochs "$1" "$2") || return 1
    [ "$(epochs "$1" 1 | wc -l)" = $((EPOCHS - $2 + 1)) ] ||
        { echo "$1 printed other epochs than $2 to $EPOCHS"; cat "$TMP/$1.out"; return 1; }
    diff <(after_training "$4") <(after_training "$1") || return 1
    cmp "$TMP/$4.ckpt" "$3" || { echo "the checkpoints differ"; return 1; }
}

# kill_and_resume K FIRST: killed after step K, resumed from epoch FIRST.
kill_and_resume() {
    local k=$1 first=$2 ckpt="$TMP/k$1.r$RANKS.ckpt" full=full$RANKS
    train "full$RANKS" --checkpoint "$TMP/$full.ckpt"
    expect 0 "the uninterrupted run" || return 1
    train killed --checkpoint "$ckpt" --kill-after-step "$k"
    expect 137 "the run killed after step $k" || return 1
    [ -e "$ckpt" ] || { echo "no checkpoint after the kill"; return 1; }
    [ ! -e "$ckpt.tmp" ] || { echo "$ckpt.tmp was left"; return 1; }
    grep -q "^killed after step $k " "$TMP/killed.out" ||
        { echo "the killed run does not say where it died"; cat "$TMP/killed.out"; return 1; }
    [ "$(epochs killed 1 | tail -n 1 | awk '{ print $2 }')" = $((first - 1)) ] ||
        { echo "the killed run should have finished epoch $((first - 1))"; cat "$TMP/killed.out"; return 1; }
    train resumed --checkpoint "$ckpt" --resume
    expect 0 "the resumed run" || return 1
    grep -q "^resumed from $ckpt: $((first - 1)) epochs, $(((first - 1) * 45)) steps done$" \
        "$TMP/resumed.out" || { echo "no 'resumed from' line"; cat "$TMP/resumed.out"; return 1; }
    same_as_uninterrupted resumed "$first" "$ckpt" "$full"
}

t_mid_epoch() { kill_and_resume 100 3; }       # 100 = 2 * 45 + 10: dies in epoch 3
t_epoch_end() { kill_and_resume 90 3; }        # 90 = 2 * 45: the checkpoint of epoch 2 first

t_no_checkpoint_yet() {
    train full1 --checkpoint "$TMP/full1.ckpt"
    expect 0 "the uninterrupted run" || return 1
    train fresh --checkpoint "$TMP/fresh.ckpt" --resume
    expect 0 "--resume without a file" || return 1
    grep -q "^no checkpoint at $TMP/fresh.ckpt yet: starting from epoch 1$" "$TMP/fresh.out" ||
        { echo "no 'no checkpoint' line"; cat "$TMP/fresh.out"; return 1; }
    same_as_uninterrupted fresh 1 "$TMP/fresh.ckpt" full1
}

t_damaged() {
    local ckpt="$TMP/damaged.ckpt"
    train first --checkpoint "$ckpt" --kill-after-step 50
    expect 137 "the run killed after step 50" || return 1
    # flip one bit in the middle of the file
    python3 -c 'import sys; p = sys.argv[1]; b = bytearray(open(p, "rb").read()); b[len(b) // 2] ^= 1; open(p, "wb").write(b)' "$ckpt"
    cp "$ckpt" "$TMP/damaged.copy"
    train second --checkpoint "$ckpt" --resume
    expect 1 "resuming from a damaged checkpoint" || return 1
    grep -q "$ckpt" "$TMP/second.err" ||
        { echo "the message does not name the file:"; cat "$TMP/second.err"; return 1; }
    cmp "$ckpt" "$TMP/damaged.copy" || { echo "the damaged checkpoint was changed"; return 1; }
}

t_resume_needs_checkpoint() {
    "$CH10" --resume > /dev/null 2> "$TMP/err"
    status=$?
    expect 2 "--resume without --checkpoint" &&
        grep -q -- '--checkpoint' "$TMP/err"
}

check "killed in the middle of an epoch, resumed: the same checkpoint and lines" t_mid_epoch
check "killed after an epoch's checkpoint, resumed: the same checkpoint and lines" t_epoch_end
check "--resume without a checkpoint yet starts from epoch 1" t_no_checkpoint_yet
check "a damaged checkpoint is refused, named, and left alone" t_damaged
check "--resume without --checkpoint is a usage error" t_resume_needs_checkpoint
if [ -x "$TCRUN" ]; then
    RANKS=4
    check "on 4 ranks under tcrun: killed, resumed, the same checkpoint and lines" t_mid_epoch
    RANKS=1
else
    echo "SKIP the 4-rank test: no $TCRUN"
fi
finish "train resume"
