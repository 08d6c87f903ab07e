#!/bin/sh
# normalize.sh: make a chapter binary's output comparable with its golden file.
# Addresses change from run to run, and so do timings: a line marked [timed]
# keeps its text up to the first colon.
exec sed -E -e 's/0x[0-9a-f]+/0xADDR/g' -e '/\[timed\]/s/:.*/: .../'
