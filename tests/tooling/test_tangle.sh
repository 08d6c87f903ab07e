#!/usr/bin/env bash
# test_tangle.sh: tangle.sh's own tests, on the tiny chapters in fixtures/tangle.
set -uo pipefail
cd "$(dirname "$0")/../.."
fx=tests/tooling/fixtures/tangle
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0
ok()  { printf 'PASS %s\n' "$1"; passed=$((passed + 1)); }
bad() { printf 'FAIL %s\n' "$1"; failed=$((failed + 1)); }
# expect NAME CONDITION...: the condition (a command) must succeed.
expect() { local name=$1; shift; if "$@"; then ok "$name"; else bad "$name"; fi; }
tangle() { TANGLE_TOC=$fx/$1 ./tangle.sh "${@:2}"; }

expect "--help exits 0 and explains" bash -c './tangle.sh --help | grep -q "Usage: ./tangle.sh N"'
expect "no argument is an error" bash -c '! ./tangle.sh 2>/dev/null'
expect "N beyond the table is an error" bash -c "! TANGLE_TOC=$fx/good.tsv ./tangle.sh 3 $tmp/x 2>/dev/null"

tangle good.tsv 1 "$tmp/s1" 2> "$tmp/err"
expect "snapshot 1 is written" test -f "$tmp/s1/src/a.c"
expect "snapshot 1 has chapter 1's code only" bash -c "grep -q 'x += 1;' $tmp/s1/src/a.c && ! grep -q 'x += 2;' $tmp/s1/src/a.c && [ ! -e $tmp/s1/src/b.h ]"
expect "#line points at the .nw file" grep -q '^#line [0-9]* ".*good1.nw"' "$tmp/s1/src/a.c"

tangle good.tsv 2 "$tmp/s2" 2> "$tmp/err"
expect "snapshot 2 concatenates a chunk across chapters" bash -c "grep -A3 'x += 1;' $tmp/s2/src/a.c | grep -q 'x += 2;'"
expect "snapshot 2 adds chapter 2's file" test -f "$tmp/s2/src/b.h"
expect "tangled snapshot 2 compiles and computes 3" bash -c "cc -o $tmp/a $tmp/s2/src/a.c && { $tmp/a; [ \$? -eq 3 ]; }"

touch -d '2000-01-01' "$tmp/s2/src/a.c"
tangle good.tsv 2 "$tmp/s2" 2>/dev/null
expect "an unchanged file is not rewritten" bash -c "[ \$(stat -c %Y $tmp/s2/src/a.c) -eq \$(date -d 2000-01-01 +%s) ]"

tangle undefined.tsv 1 "$tmp/u" 2> "$tmp/err"; status=$?
expect "an undefined chunk fails" test "$status" -ne 0
expect "... naming the chunk and the chapter" grep -q 'undefined.nw: chunk <<no such chunk>> is used but never defined' "$tmp/err"

tangle forward.tsv 2 "$tmp/f" 2> "$tmp/err"; status=$?
expect "a use before the defining chapter fails" test "$status" -ne 0
expect "... naming both chapters" grep -q 'forward1.nw: chunk <<src/b.h>> is used before the chapter that defines it (.*good2.nw)' "$tmp/err"

tangle badroot.tsv 1 "$tmp/b" 2> "$tmp/err"; status=$?
expect "a root chunk that is not a file path fails" test "$status" -ne 0
expect "... naming the chunk" grep -q 'badroot.nw: root chunk <<helper code>> is not a file path' "$tmp/err"
expect "nothing is written when the check fails" test ! -e "$tmp/b/src/a.c"

# Indentation and #line directives (tools/tangle.py), checked against output
# written by hand in fixtures/tangle/indent.expected.
tangle indent.tsv 1 "$tmp/i" 2> "$tmp/err"
expect "indented uses keep their indentation, exact output" diff -u $fx/indent.expected "$tmp/i/src/c.c"
expect "indented snapshot compiles and computes 3" bash -c "cc -Wall -Wextra -Werror -o $tmp/c $tmp/i/src/c.c && { $tmp/c; [ \$? -eq 3 ]; }"
# Every non-blank line is, indentation aside, the .nw line that the last
# #line directive (plus the lines since) says it is; a line with an inline
# use is checked only up to the use.
line_map_ok() {  # FILE: each line matches its .nw line
    python3 - "$1" <<'PY'
import re, sys
src, n, bad = None, 0, 0
for out in open(sys.argv[1]).read().split('\n')[:-1]:
    m = re.match(r'#line (\d+) "(.*)"$', out)
    if m:
        n, src = int(m.group(1)), open(m.group(2)).read().split('\n')
        continue
    want = src[n - 1].strip()
    want = want.split('<<')[0] if '<<' in want else want
    if not out.strip().startswith(want):
        print('line %d: %r is not %r' % (n, out, want)); bad = 1
    n += 1
sys.exit(bad)
PY
}
expect "#line directives map every line to its .nw line" line_map_ok "$tmp/i/src/c.c"
expect "... also in snapshot 2 of the good chapters" line_map_ok "$tmp/s2/src/a.c"

echo "tangle.sh tests: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
