# lib.sh: what the tooling test scripts share. Source it from a script in
# tests/tooling; it moves to the repository root, makes a scratch folder
# $TMP (removed on exit) and counts results.
#   check NAME COMMAND...   run a test function; PASS, or FAIL with its output
#   finish LABEL            print "LABEL: N passed, M failed"; status 0 if none failed
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 2
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
passed=0 failed=0

check() {
    local name=$1; shift
    if "$@" >"$TMP/log" 2>&1; then
        echo "PASS $name"; passed=$((passed + 1))
    else
        echo "FAIL $name"; failed=$((failed + 1))
        sed 's/^/    /' "$TMP/log"
    fi
}

finish() {
    echo "$1: $passed passed, $failed failed"
    [ "$failed" -eq 0 ]
}
