#!/usr/bin/env bash
# Tests of the output blocks and numbered figures woven into the chapters
# (book/answers.py, called by weave.py), on the fixture chapter in
# tests/tooling/fixtures/answers/. Run from the repository root:
#   bash tests/tooling/test_answers.sh
# Prints PASS/FAIL lines and ends with "answers: N passed, M failed".

set -u
source "$(dirname "$0")/lib.sh"

FIX=tests/tooling/fixtures/answers

# weave NW OUTDIR [OUTPUTS PYTORCH]: weave one fixture chapter.
weave() {
    /usr/lib/noweb/markup "$1" |
        python3 book/weave.py --toc "$TMP/toc.tsv" --outdir "$2" \
            --outputs "${3:-$FIX/out}" --pytorch "${4:-$FIX/pytorch}"
}

# A copy of the fixture chapter with one edit, and a table of contents for it.
variant() {     # SED-EXPRESSION -> $TMP/03-gamma.nw
    sed "$1" "$FIX/03-gamma.nw" >"$TMP/03-gamma.nw"
    sed "s|$FIX/03-gamma.nw|$TMP/03-gamma.nw|" "$FIX/toc.tsv" >"$TMP/toc.tsv"
}

t_fills() {
    variant '' && weave "$TMP/03-gamma.nw" "$TMP/md" || return 1
    local md=$TMP/md/03-gamma.md
    grep -q '{.answer #answer-ch03-double}' "$md" &&
    grep -qF 'print(2 * 21)' "$md" &&
    grep -qF 'print(len([[1, 2]]))' "$md" &&      # noweb's @[[ escape, undone
    grep -qF 'our C program, `build/bin/ch03`' "$md" &&
    # the program's part, without the marker and the text before the first part
    ! grep -q '@part\|header line' "$md" &&
    [ "$(grep -c '^42$' "$md")" -eq 2 ] &&     # PyTorch's 42 and the program's
    grep -qF 'only the program' "$md" &&
    ! grep -q '{.output' "$md"
}
t_no_python() {     # an empty output div shows only the program's part
    awk '/#answer-ch03-plain/,/^:::::$/' "$TMP/md/03-gamma.md" >"$TMP/plain" &&
    grep -q 'only the program' "$TMP/plain" && ! grep -q 'answer-pytorch' "$TMP/plain"
}
t_numbers() {
    local md=$TMP/md/03-gamma.md
    grep -qF '![Figure 3.1. Doubling.](../fig/ch03-double.en.svg){#fig-ch03-double}' "$md" &&
    grep -qF '![Figure 3.2. Halving.](../fig/ch03-half.en.svg){#fig-ch03-half}' "$md" &&
    grep -qF '![图 3.1　加倍。](../fig/ch03-double.zh.svg){#fig-ch03-double}' "$md" &&
    grep -qF 'As [Figure 3.1](#fig-ch03-double) shows' "$md" &&
    grep -qF '如 [图 3.1](#fig-ch03-double) 所示' "$md"
}
# expect_failure SED-EXPRESSION MESSAGE [OUTPUTS PYTORCH]: the weave stops and says why.
expect_failure() {
    variant "$1"
    local out
    out=$(weave "$TMP/03-gamma.nw" "$TMP/bad" "${3:-}" "${4:-}" 2>&1)
    local rc=$?
    echo "$out"
    [ $rc -ne 0 ] && grep -qF -- "$2" <<<"$out"
}
t_missing_part() {
    expect_failure 's/part=double/part=triple/' \
        'has no part "triple": build/bin/ch03 --parts prints the parts double, plain'
}
t_missing_capture() {
    expect_failure '' "$TMP/none/ch03.txt is missing" "$TMP/none"
}
t_missing_recording() {
    printf '# recorded\n@part other\n1\n' >"$TMP/stale.out" && mkdir -p "$TMP/rec" &&
    cp "$TMP/stale.out" "$TMP/rec/ch03.out" &&
    expect_failure '' 'has no part "double" (run: make pytorch-outputs)' "$FIX/out" "$TMP/rec"
}
t_unknown_figure() {
    expect_failure 's/As \[\](#fig-ch03-double)/As [](#fig-ch03-nothing)/' \
        'reference to an unknown figure #fig-ch03-nothing'
}
t_python_unescaped() {  # what book/pytorch.py runs is the Python the reader sees
    python3 -c 'import sys; sys.path.insert(0, "book"); import answers
lines = open(sys.argv[1]).read().split("\n")
code = [answers.python_lines(b) for _, _, _, b in answers.output_divs(lines)]
assert code[0] == "print(2 * 21)\nprint(len([[1, 2]]))", code' "$FIX/03-gamma.nw"
}
t_twins_neutral() {     # an output div needs no twin and is not "text outside"
    python3 book/twins.py check "$FIX/03-gamma.nw"
}
t_real_book() {         # the real book's outputs are the golden outputs, marked
    local f n           # (and with their [timed] and [machine] values kept)
    for f in build/book/out/ch*.txt; do
        [ -e "$f" ] || continue
        n=$(basename "$f" .txt)
        diff <(grep -v '^@part ' "$f" | tests/normalize.sh) "tests/golden/$n.out" ||
            { echo "$f"; return 1; }
    done
}
t_normalize() {         # timings and the machine out of the golden output, not the book's
    local in='at 0x7ffd12 [timed]: 1.23
capability [machine]: AVX2
plain: 0x10'
    [ "$(printf '%s\n' "$in" | tests/normalize.sh)" = 'at 0xADDR [timed]: ...
capability [machine]: ...
plain: 0xADDR' ] &&
    [ "$(printf '%s\n' "$in" | tests/normalize.sh --book)" = 'at 0xADDR [timed]: 1.23
capability [machine]: AVX2
plain: 0xADDR' ]
}

check "an output div becomes PyTorch's lines and output and the program's part" t_fills
check "an output div without Python shows only the program" t_no_python
check "figures are numbered, captions and references in both languages" t_numbers
check "a part the program does not print stops the weave" t_missing_part
check "a missing capture of the program stops the weave" t_missing_capture
check "a missing PyTorch recording stops the weave" t_missing_recording
check "a reference to an unknown figure stops the weave" t_unknown_figure
check "the Python run for PyTorch is the Python shown, noweb escapes undone" t_python_unescaped
check "twins check accepts language-neutral output divs" t_twins_neutral
check "the book's captured outputs, unmarked, are the golden outputs" t_real_book
check "normalize.sh hides [timed] and [machine] values, except for the book" t_normalize

finish "answers"
