#!/bin/sh
# normalize.sh: make a chapter binary's output comparable with its golden file.
# Addresses change from run to run, and so do timings and what the machine
# offers: a line marked [timed] or [machine] keeps its text up to the first
# colon. With --book, those lines keep their values: the book shows what the
# program printed when the book was built (addresses are still normalised).
if [ "${1:-}" = --book ]; then
    exec sed -E -e 's/0x[0-9a-f]+/0xADDR/g'
fi
exec sed -E -e 's/0x[0-9a-f]+/0xADDR/g' -e '/\[(timed|machine)\]/s/:.*/: .../'
