# Makefile of "PyTorch internals, rebuilt in literate C".  `make help` lists the targets.
#
# Everything is driven by the table of contents, chapters.tsv: adding a chapter
# there (and its .nw, tests/check_chNN.c and tests/golden/chNN.out) is all the
# Makefile needs. Everything generated goes under build/.

SHELL := /bin/bash
.DEFAULT_GOAL := all
.DELETE_ON_ERROR:
# The README's `make` and `make check` use every core; a -j on the command
# line (CI's make -j2, or make -j1 to read the output in order) wins.
MAKEFLAGS += -j$(shell nproc 2>/dev/null || echo 1)

TOC   := chapters.tsv
NUMS  := $(shell awk -F'\t' 'NR > 1 { printf "%02d ", $$1 }' $(TOC))
NW    := $(shell awk -F'\t' 'NR > 1 { print $$2 }' $(TOC))
PAGES := $(basename $(notdir $(NW)))
# Chapters whose program draws figures for the book (`chNN --figures DIR`).
FIGNUMS := $(shell awk -F'\t' 'NR > 1 && $$7 == 1 { printf "%02d ", $$1 }' $(TOC))
LAST  := $(lastword $(NUMS))

# DWARF 4: valgrind 3.19 cannot read the DWARF 5 that clang 14 writes by default.
CFLAGS   := -std=c11 -Wall -Wextra -Wpedantic -Werror -O2 -g -gdwarf-4
SANFLAGS := -std=c11 -Wall -Wextra -Wpedantic -Werror -O1 -g -gdwarf-4 \
            -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
# -rdynamic: programs export the library's symbols, which the extensions that
# chapter 8's load_inline compiles and dlopens call; -ldl for dlopen.
LDLIBS   := -lm -pthread -ldl -rdynamic
# In backquotes, for the shell: check may not be installed when make reads this.
CHECK_LIBS = `pkg-config --cflags --libs check`

# $(call int,07) -> 7;  $(call upto,03) -> 01 02 03
int  = $(patsubst 0%,%,$(1))
upto = $(wordlist 1,$(call int,$(1)),$(NUMS))
snap = build/snap/ch$(1)
# where load_inline finds <tc/tc.h> for snapshot n's extensions
snapinclude = $(CURDIR)/$(call snap,$(1))/include

BINS   := $(foreach n,$(NUMS),build/bin/ch$(n))
CHECKS := $(foreach n,$(NUMS),build/test/ch$(n)/check)
# Every demo k <= n is also built against snapshot n: the code only grows.
DEMOS  := $(foreach n,$(NUMS),$(foreach k,$(call upto,$(n)),build/test/ch$(n)/demo$(k)))
# ASan+UBSan: the newest snapshot only (one more build of the library, not
# one per snapshot): its test program, which holds every chapter's suite,
# and every chapter's program built against it.
ASAN   := build/asan/ch$(LAST)/check $(foreach k,$(NUMS),build/asan/ch$(LAST)/demo$(k))
# The glossary page exists only if book/glossary.tsv does.
GLOSSARY := $(wildcard book/glossary.tsv)
BACK   := $(if $(GLOSSARY),glossary) identifiers chunks
HTML   := $(foreach l,en zh,$(foreach p,index search $(BACK) $(PAGES),build/book/$(l)/$(p).html))
EPUB   := build/book/pytorch-internals-en.epub build/book/pytorch-internals-zh.epub
FIGS   := $(foreach n,$(FIGNUMS),build/book/fig/ch$(n).stamp)
SEARCH := build/book/en/search-index.js build/book/zh/search-index.js
# What each chapter program prints, its parts marked (`chNN --parts`), for
# the output blocks of the book (book/answers.py).
OUTS   := $(foreach n,$(NUMS),build/book/out/ch$(n).txt)
BOOK   := $(HTML) $(EPUB) build/book/book.css build/book/answers.css build/book/book.js \
          $(SEARCH) $(FIGS)

# pandoc one at a time (flock, from util-linux): rendering chapter 10 took
# about 8 GB, and make -j2 ran the English and the Chinese page at once.
PANDOC := flock build/.pandoc.lock pandoc

# libFuzzer targets: tests/fuzz/fuzz_NAME.c (see "fuzzing" below).
FUZZ_SRC   := $(sort $(wildcard tests/fuzz/fuzz_*.c))
FUZZ_NAMES := $(patsubst tests/fuzz/fuzz_%.c,%,$(FUZZ_SRC))
FUZZ_BINS  := $(foreach f,$(FUZZ_NAMES),build/fuzz/fuzz_$(f))
FUZZ_CC    := clang
FUZZ_SECONDS ?= 180
FUZZ_CHECK_RUNS ?= 30000
FUZZ_SEED ?= 1

.PHONY: all deps book browsercheck check test bench golden clean help pytorch-outputs exercises fuzz \
        install uninstall FORCE

all: $(BINS) book

help:
	@echo 'make            install missing Debian packages, build every chapter binary'
	@echo '                (build/bin/chNN) and both books (build/book/en/index.html,'
	@echo '                build/book/zh/index.html, build/book/pytorch-internals-*.epub)'
	@echo 'make check      build and run every test: unit tests of every snapshot,'
	@echo '                golden outputs, tooling tests, translations, book links,'
	@echo '                ASan+UBSan and valgrind runs, each fuzz target over its'
	@echo '                stored corpus plus FUZZ_CHECK_RUNS (default 30000) fresh'
	@echo '                inputs from the fixed seed FUZZ_SEED (default 1), the same'
	@echo '                on every machine; ends with "N passed, M failed"'
	@echo 'make test       the same without the sanitizer and valgrind runs (faster)'
	@echo 'make book       render the books only'
	@echo 'make browsercheck  open every page in headless Chromium (1280 and 390 px)'
	@echo '                and run epubcheck on the EPUBs (also part of check and test)'
	@echo 'make bench      run the benchmarks (ratios to baselines measured in the same run);'
	@echo '                BENCH=bench_ch07 runs one chapter'"'"'s only'
	@echo 'make exercises  run the tests of the exercises at the end of each chapter'
	@echo '                (they fail until you solve them; EX=ch01_eye runs one)'
	@echo 'make fuzz       run every libFuzzer target (tests/fuzz/fuzz_*.c) for'
	@echo '                FUZZ_SECONDS each (default $(FUZZ_SECONDS)); prints executions/s'
	@echo 'make golden     rewrite tests/golden/*.out from the binaries (read the diff!)'
	@echo 'make pytorch-outputs   record what PyTorch prints for the Python lines of'
	@echo '                the chapters (book/pytorch/*.out; needs torch, read the diff!)'
	@echo 'make install    install the final snapshot'"'"'s library for programs outside the'
	@echo '                book: PREFIX/lib/libtc.a and libtc.so, the headers in'
	@echo '                PREFIX/include/tc/, PREFIX/lib/pkgconfig/tc.pc (PREFIX defaults'
	@echo '                to /usr/local; DESTDIR=DIR stages the tree under DIR); then'
	@echo '                cc prog.c $$(pkg-config --cflags --libs tc)'
	@echo 'make uninstall  remove the files make install wrote (same PREFIX and DESTDIR)'
	@echo 'make clean      remove build/'
	@echo 'CC=clang make check   the same with clang'

deps:
	@tools/deps.sh

# The compiler and flags in use: rewritten only when they change, so that
# `CC=clang make` rebuilds everything and a second `make` rebuilds nothing.
build/.cc: FORCE
	@mkdir -p build
	@echo '$(CC) $(CFLAGS) | $(SANFLAGS)' | cmp -s - $@ || echo '$(CC) $(CFLAGS) | $(SANFLAGS)' > $@

# ---- snapshots, binaries, test programs ------------------------------------

# The library of snapshot n, compiled once per set of flags, into OBJ/chNN/*.o,
# and linked into every program of that snapshot (its test program, its
# chapter's binary, the earlier chapters' demos, the exercises), instead of
# being compiled again for each: $(call library,OBJ,COMPILER,FLAGS,n). The
# objects are rebuilt together when the snapshot or the compiler changes.
# TC_INCLUDE_DIR, where load_inline finds <tc/tc.h> for the extensions it
# compiles, is the snapshot's include/ unless a fifth argument names another
# directory (`make install`: the installed headers).
define library
$(1)/ch$(4)/.stamp: $(call snap,$(4))/.stamp build/.cc
	@rm -rf $$(@D) && mkdir -p $$(@D)
	@echo '$$($(2)) $$($(3)) -c $(call snap,$(4))/src/*.c -> $$(@D)'
	@set -e; for f in $(call snap,$(4))/src/*.c; do \
	    $$($(2)) $$($(3)) -I$(call snap,$(4))/src -c "$$$$f" \
	        -DTC_INCLUDE_DIR='"$(if $(5),$(5),$(call snapinclude,$(4)))"' \
	        -o $$(@D)/"$$$$(basename "$$$$f" .c)".o; \
	done
	@touch $$@
endef
lib = build/obj/ch$(1)/.stamp
libobjs = build/obj/ch$(1)/*.o

# The test program of snapshot n, built into DIR with the flags in variable FLAGS
# and the library's objects in OBJ: $(call test_program,DIR,FLAGS,n,OBJ).
# The tests' own sources are compiled without optimisation (-O0 comes last
# and wins): chapter k's suite is compiled again for every snapshot from k
# on, and -O2 made that the longest part of the build (check_ch05.c: 35 s
# at -O2, 9 s at -O0); the library they test keeps its flags.
define test_program
$(1)/ch$(3)/check: $(4)/ch$(3)/.stamp $(call snap,$(3))/suites.h tests/check_main.c \
        tests/testing.c tests/testing.h $(foreach k,$(call upto,$(3)),tests/check_ch$(k).c) \
        $(wildcard tests/check_ch*.h) tests/testing_graph.h tests/testing_special.h build/.cc
	@mkdir -p $$(@D)
	$$(CC) $$($(2)) -O0 -Itests -I$(call snap,$(3)) -I$(call snap,$(3))/src tests/check_main.c tests/testing.c \
	    $(foreach k,$(call upto,$(3)),tests/check_ch$(k).c) $(4)/ch$(3)/*.o \
	    $(CHECK_LIBS) $$(LDLIBS) -o $$@
endef

define snapshot_rules
$(call snap,$(1))/.stamp: $(wordlist 1,$(call int,$(1)),$(NW)) tangle.sh $(TOC) | deps
	./tangle.sh $(call int,$(1)) $(call snap,$(1))
	@# <tc/tc.h>: the snapshot's headers as extensions include them (chapter 8)
	@mkdir -p $(call snap,$(1))/include && ln -sfn ../src $(call snap,$(1))/include/tc
	@touch $$@

$(call snap,$(1))/suites.h: $(TOC)
	@mkdir -p $$(@D)
	@echo '#define SUITES $(foreach k,$(call upto,$(1)),SUITE(ch$(k)))' > $$@

$(call library,build/obj,CC,CFLAGS,$(1))
$(call library,build/obj-asan,CC,SANFLAGS,$(1))

build/bin/ch$(1): $(call lib,$(1))
	@mkdir -p $$(@D)
	$$(CC) $$(CFLAGS) -I$(call snap,$(1))/src $(call libobjs,$(1)) \
	    $(call snap,$(1))/demo/ch$(1).c $$(LDLIBS) -o $$@

$(call test_program,build/test,CFLAGS,$(1),build/obj)
$(call test_program,build/asan,SANFLAGS,$(1),build/obj-asan)

endef

# demo k built with the sanitizers against the newest snapshot
define asan_demo_rule
build/asan/ch$(LAST)/demo$(1): build/obj-asan/ch$(LAST)/.stamp
	@mkdir -p $$(@D)
	$$(CC) $$(SANFLAGS) -I$(call snap,$(LAST))/src build/obj-asan/ch$(LAST)/*.o \
	    $(call snap,$(LAST))/demo/ch$(1).c $$(LDLIBS) -o $$@
endef

# demo k built against snapshot n
define demo_rule
build/test/ch$(1)/demo$(2): $(call lib,$(1))
	@mkdir -p $$(@D)
	$$(CC) $$(CFLAGS) -I$(call snap,$(1))/src $(call libobjs,$(1)) \
	    $(call snap,$(1))/demo/ch$(2).c $$(LDLIBS) -o $$@
endef

$(foreach n,$(NUMS),$(eval $(call snapshot_rules,$(n))))
$(foreach n,$(NUMS),$(foreach k,$(call upto,$(n)),$(eval $(call demo_rule,$(n),$(k)))))
$(foreach k,$(NUMS),$(eval $(call asan_demo_rule,$(k))))

# ---- chapter 9's launcher ------------------------------------------------------

# tcrun (cmd/tcrun.c, chapter 9) starts N ranks of a program, as torchrun
# does: a program of every snapshot from 9 on; build/bin/tcrun is the newest
# snapshot's.
TCRUN_NUMS := $(filter-out 01 02 03 04 05 06 07 08,$(NUMS))
TCRUNS     := $(foreach n,$(TCRUN_NUMS),build/test/ch$(n)/tcrun) $(if $(TCRUN_NUMS),build/bin/tcrun)

define tcrun_rule
build/test/ch$(1)/tcrun: $(call lib,$(1))
	@mkdir -p $$(@D)
	$$(CC) $$(CFLAGS) -I$(call snap,$(1))/src $(call libobjs,$(1)) \
	    $(call snap,$(1))/cmd/tcrun.c $$(LDLIBS) -o $$@
endef
$(foreach n,$(TCRUN_NUMS),$(eval $(call tcrun_rule,$(n))))

build/bin/tcrun: build/test/ch$(LAST)/tcrun
	@mkdir -p $(@D)
	cp $< $@

# tests/dist_collectives.c runs every collective on every dtype and reduction
# against the serial result and prints a report that must not depend on the
# backend; run.sh runs it under tcrun (here) and under mpirun (below).
DISTCOLLS := $(foreach n,$(TCRUN_NUMS),build/test/ch$(n)/dist_collectives)

define distcoll_rule
build/test/ch$(1)/dist_collectives: tests/dist_collectives.c $(call lib,$(1))
	@mkdir -p $$(@D)
	$$(CC) $$(CFLAGS) -I$(call snap,$(1))/src $(call libobjs,$(1)) $$< $$(LDLIBS) -o $$@
endef
$(foreach n,$(TCRUN_NUMS),$(eval $(call distcoll_rule,$(n))))

# ---- chapter 9's MPI build --------------------------------------------------------

# When Open MPI's mpicc is installed (tools/deps.sh installs it), every
# snapshot from 9 on is built a second time with the MPI backend:
# dist_mpi.c compiled again with TC_HAVE_MPI and <mpi.h> into
# build/obj-mpi/chNN/, linked with the snapshot's other objects and Open
# MPI's library into build/mpi/chNN/chNN (the chapter's program, for
# mpirun) and build/mpi/chNN/dist_collectives. The compiler stays $(CC):
# mpicc is asked only for its flags (--showme), so CC=clang builds the MPI
# programs with clang under the same -Werror. Everything else of the library
# is the same object files as the plain build. (When mpicc is missing as
# make starts, `make` installs it through deps and the next make builds these.)
MPICC := $(shell command -v mpicc 2> /dev/null)
ifneq ($(MPICC),)
MPI_CFLAGS := $(shell mpicc --showme:compile)
MPI_LIBS   := $(shell mpicc --showme:link)
MPI_PROGS  := $(foreach n,$(TCRUN_NUMS),build/mpi/ch$(n)/ch$(n) build/mpi/ch$(n)/dist_collectives)
MPI_BENCH  := $(if $(TCRUN_NUMS),build/bench/mpi_allreduce)
endif
# the plain objects of snapshot n but dist_mpi.o (a shell command, for a recipe)
mpiobjs = `ls build/obj/ch$(1)/*.o | grep -v '/dist_mpi\.o$$$$'` build/obj-mpi/ch$(1)/dist_mpi.o

define mpi_rules
build/obj-mpi/ch$(1)/dist_mpi.o: $(call snap,$(1))/.stamp build/.cc
	@mkdir -p $$(@D)
	$$(CC) $$(CFLAGS) -DTC_HAVE_MPI $$(MPI_CFLAGS) -I$(call snap,$(1))/src \
	    -c $(call snap,$(1))/src/dist_mpi.c -o $$@

build/mpi/ch$(1)/ch$(1): $(call lib,$(1)) build/obj-mpi/ch$(1)/dist_mpi.o
	@mkdir -p $$(@D)
	$$(CC) $$(CFLAGS) -I$(call snap,$(1))/src $(call mpiobjs,$(1)) \
	    $(call snap,$(1))/demo/ch$(1).c $$(MPI_LIBS) $$(LDLIBS) -o $$@

build/mpi/ch$(1)/dist_collectives: tests/dist_collectives.c $(call lib,$(1)) \
        build/obj-mpi/ch$(1)/dist_mpi.o
	@mkdir -p $$(@D)
	$$(CC) $$(CFLAGS) -I$(call snap,$(1))/src $(call mpiobjs,$(1)) \
	    $$< $$(MPI_LIBS) $$(LDLIBS) -o $$@
endef
$(if $(MPICC),$(foreach n,$(TCRUN_NUMS),$(eval $(call mpi_rules,$(n)))))

# (all: was read before these variables were set; name them here)
all: $(TCRUNS) $(DISTCOLLS) $(MPI_PROGS)

# MPI_Allreduce timed as bench_ch09 times the shared-memory all_reduce, for
# its MPI column (make bench runs it through tests/mpirun.sh).
build/bench/mpi_allreduce: tests/bench_mpi_allreduce.c build/.cc
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -O3 $(MPI_CFLAGS) $< $(MPI_LIBS) -o $@

# ---- exercises ------------------------------------------------------------------

# tests/exercises/chNN_NAME.c checks exercise NAME at the end of chapter NN: a
# program built against snapshot NN that exits 0 once the reader has solved the
# exercise, 1 (saying what is missing) until then. `make test` and `make check`
# build them all, so they always compile against the book's code, and check
# that each reports "to do" there; `make exercises` runs them for the reader.
EXERCISES := $(filter $(foreach n,$(NUMS),ch$(n)_%),\
               $(basename $(notdir $(sort $(wildcard tests/exercises/ch[0-9][0-9]_*.c)))))
EXERCISE_BINS := $(foreach e,$(EXERCISES),build/exercises/$(e))
exnum = $(patsubst ch%,%,$(firstword $(subst _, ,$(1))))

define exercise_rule
build/exercises/$(1): tests/exercises/$(1).c tests/exercises/exercise.h $(call lib,$(2))
	@mkdir -p $$(@D)
	$$(CC) $$(CFLAGS) -Itests/exercises -I$(call snap,$(2))/src $(call libobjs,$(2)) \
	    $$< $$(LDLIBS) -o $$@
endef
$(foreach e,$(EXERCISES),$(eval $(call exercise_rule,$(e),$(call exnum,$(e)))))

# make exercises            run every exercise test
# make exercises EX=ch01_eye   run one
exercises: $(if $(EX),build/exercises/$(EX),$(EXERCISE_BINS))
	@tests/exercises/run.sh $^

# ---- the book -----------------------------------------------------------------

PANDOC_COMMON := -f markdown+east_asian_line_breaks --mathml --data-dir=book \
                 --lua-filter book/lang.lua

WEAVE_INPUTS := book/preface.md book/plan.tsv $(GLOSSARY) book/answers.py $(OUTS) \
                $(wildcard book/pytorch/*.out)

build/book/md/.stamp: $(NW) $(TOC) book/weave.py $(WEAVE_INPUTS) | deps
	@mkdir -p $(@D)
	/usr/lib/noweb/markup $(NW) | python3 book/weave.py --toc $(TOC) --outdir $(@D) \
	    --plan book/plan.tsv --preface book/preface.md --glossary book/glossary.tsv \
	    --outputs build/book/out --pytorch book/pytorch
	@touch $@

# The output blocks show what the programs print, captured when the book is
# built; addresses are normalised as for the golden files, while the lines
# marked [timed] or [machine] keep what they said on the machine that built
# the book (the golden files leave those out).
build/book/out/ch%.txt: build/bin/ch% tests/normalize.sh
	@mkdir -p $(@D)
	set -o pipefail; build/bin/ch$* --parts | tests/normalize.sh --book > $@

pytorch-outputs:
	/usr/bin/python3 book/pytorch.py record

# Figures are drawn by the chapter programs, so they never go stale.
build/book/fig/ch%.stamp: build/bin/ch%
	@mkdir -p $(@D)
	build/bin/ch$* --figures $(@D) > /dev/null
	@touch $@

HTML_DEPS := build/book/md/.stamp book/lang.lua book/translations/zh.yaml book/head.html $(FIGS)

build/book/en/%.html: $(HTML_DEPS)
	@mkdir -p $(@D)
	$(PANDOC) build/book/md/$*.md $(PANDOC_COMMON) -t html5 --standalone --wrap=none \
	    --css ../book.css --css ../answers.css -H book/head.html -M lang=en -o $@

build/book/zh/%.html: $(HTML_DEPS)
	@mkdir -p $(@D)
	$(PANDOC) build/book/md/$*.md $(PANDOC_COMMON) -t html5 --standalone --wrap=none \
	    --css ../book.css --css ../answers.css -H book/head.html -M lang=zh -o $@

# The search index of each language, read by search.html with <script src>.
build/book/%/search-index.js: book/searchindex.py $(filter-out %/search.html,$(HTML))
	python3 book/searchindex.py build/book/$*

# Pages refer to figures as ../fig/NAME.LANG.svg, relative to build/book/en/.
# The EPUB: the preface (front.md), the chapters, the back matter.
build/book/pytorch-internals-%.epub: build/book/md/.stamp book/lang.lua book/book.css book/answers.css $(FIGS)
	$(PANDOC) build/book/md/front.md $(foreach p,$(PAGES) $(BACK),build/book/md/$(p).md) \
	    $(PANDOC_COMMON) -t epub3 --css book/book.css --css book/answers.css -M lang=$* \
	    --resource-path=build/book/en \
	    --epub-chapter-level=1 --toc --toc-depth=2 -o $@

build/book/book.css: book/book.css
	@mkdir -p $(@D)
	cp $< $@

build/book/book.js: book/book.js
	@mkdir -p $(@D)
	cp $< $@

build/book/answers.css: book/answers.css
	@mkdir -p $(@D)
	cp $< $@

book: $(BOOK)

# Every page of both books in headless Chromium at 1280 and 390 px (broken
# images, pages wider than the window, missing link targets, console
# errors), and both EPUBs through epubcheck. Also a step of `make check`.
browsercheck: $(BOOK)
	python3 book/browsercheck.py build/book
	for e in $(EPUB); do java -XX:TieredStopAtLevel=1 -jar /usr/share/java/epubcheck.jar -q $$e || exit 1; done

# ---- tests ----------------------------------------------------------------------

TEST_ARTIFACTS := $(BINS) $(TCRUNS) $(DISTCOLLS) $(MPI_PROGS) $(CHECKS) $(DEMOS) $(BOOK) $(EXERCISE_BINS)

test: $(TEST_ARTIFACTS)
	@tests/run.sh --no-memcheck $(NUMS)

check: $(TEST_ARTIFACTS) $(ASAN) $(FUZZ_BINS)
	@FUZZ_TARGETS='$(FUZZ_NAMES)' FUZZ_CHECK_RUNS=$(FUZZ_CHECK_RUNS) FUZZ_SEED=$(FUZZ_SEED) tests/run.sh $(NUMS)

golden: $(BINS)
	@for n in $(NUMS); do \
	    build/bin/ch$$n | tests/normalize.sh > tests/golden/ch$$n.out; \
	    echo "wrote tests/golden/ch$$n.out"; done

# ---- benchmarks -----------------------------------------------------------------

BENCH_SRC := $(sort $(wildcard tests/bench_ch*.c))

build/bench/bench: $(call snap,$(LAST))/.stamp tests/bench_main.c $(BENCH_SRC) build/.cc
	@mkdir -p $(@D)
	@echo '#define BENCHES $(foreach f,$(BENCH_SRC),BENCH($(basename $(notdir $(f)))))' \
	    > $(@D)/benches.h
	$(CC) $(CFLAGS) -O3 -march=native -I$(@D) -I$(call snap,$(LAST))/src tests/bench_main.c \
	    $(BENCH_SRC) $(call snap,$(LAST))/src/*.c \
	    -DTC_INCLUDE_DIR='"$(call snapinclude,$(LAST))"' $(LDLIBS) -o $@

# Chapter 4 times PyTorch's coalesce in the same run, through the script in
# TORCH_BENCH, chapter 5 PyTorch's autograd, through TORCH_BENCH_CH05,
# chapter 6 PyTorch's cross-entropy, through TORCH_BENCH_CH06, and chapter 7
# PyTorch's square, sum, mm, sparse.mm and transposed adds, through
# TORCH_BENCH_CH07, and chapter 10 PyTorch's training step, through
# TORCH_BENCH_CH10, when /usr/bin/python3 has torch. Benchmarks write their
# files (chapter 7's plot, build/bench/ch07.svg) under BENCH_DIR.
TORCH_PY := /usr/bin/python3
TORCH_ENV := TORCH_BENCH='$(TORCH_PY) tests/bench_torch_ch04.py' \
             TORCH_BENCH_CH05='$(TORCH_PY) tests/bench_torch_ch05.py' \
             TORCH_BENCH_CH06='$(TORCH_PY) tests/bench_torch_ch06.py' \
             TORCH_BENCH_CH07='$(TORCH_PY) tests/bench_torch_ch07.py' \
             TORCH_BENCH_CH10='$(TORCH_PY) tests/bench_torch_ch10.py'
# Chapter 9 times Open MPI's MPI_Allreduce in the same run, through the
# command in MPI_BENCH_CH09, when mpicc is installed.
MPI_ENV := $(if $(MPI_BENCH),MPI_BENCH_CH09='tests/mpirun.sh -n 2 $(MPI_BENCH)')

# `make bench BENCH=bench_ch07` runs one chapter's benchmarks.
bench: build/bench/bench $(MPI_BENCH)
	@if $(TORCH_PY) -c 'import torch' 2> /dev/null; then \
	    echo "$(TORCH_ENV) $(MPI_ENV) BENCH_DIR=build/bench build/bench/bench $(BENCH)"; \
	    $(TORCH_ENV) $(MPI_ENV) BENCH_DIR=build/bench build/bench/bench $(BENCH); \
	else \
	    echo "bench: $(TORCH_PY) cannot import torch: the comparisons with PyTorch are skipped"; \
	    $(MPI_ENV) BENCH_DIR=build/bench build/bench/bench $(BENCH); \
	fi

# ---- fuzzing --------------------------------------------------------------------
# Every tests/fuzz/fuzz_NAME.c is a libFuzzer target, built with clang against
# the newest snapshot; its corpus is tests/fuzz/corpus/NAME/. `make check`
# replays each corpus and runs FUZZ_CHECK_RUNS fresh inputs of each target
# from the fixed seed FUZZ_SEED (`make fuzz` explores: time-limited, random seed).

FUZZFLAGS    := -std=c11 -Wall -Wextra -Wpedantic -Werror -O1 -g -gdwarf-4 \
                -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
                -fno-omit-frame-pointer
# The library, compiled once for every target: instrumented for libFuzzer's
# coverage, without its main (which each target's link brings in).
FUZZLIBFLAGS := $(subst -fsanitize=fuzzer,-fsanitize=fuzzer-no-link,$(FUZZFLAGS))
$(eval $(call library,build/obj-fuzz,FUZZ_CC,FUZZLIBFLAGS,$(LAST)))

build/fuzz/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz.c tests/fuzz/fuzz.h \
        build/obj-fuzz/ch$(LAST)/.stamp
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZFLAGS) -Itests/fuzz -I$(call snap,$(LAST))/src $< tests/fuzz/fuzz.c \
	    build/obj-fuzz/ch$(LAST)/*.o $(LDLIBS) -o $@

fuzz: $(FUZZ_BINS)
	@tests/fuzz/run.sh fuzz $(FUZZ_SECONDS) $(FUZZ_NAMES)

# ---- make install ---------------------------------------------------------------
# The final snapshot's library, installed under PREFIX (default /usr/local):
#   PREFIX/lib/libtc.a, PREFIX/lib/libtc.so     static and shared
#   PREFIX/include/tc/*.h                       the public headers (not *_impl.h
#                                               nor *_kernels.h); <tc/tc.h>
#   PREFIX/lib/pkgconfig/tc.pc                  for cc $(pkg-config --cflags --libs tc)
# DESTDIR is prepended to every path written, and to nothing else: a package
# is staged in DESTDIR and works once copied to PREFIX. Everything is first
# built under build/install/PREFIX/ (the objects in obj/, then the tree that
# is copied), compiled again with -fPIC, one set of objects for both
# libraries, and with TC_INCLUDE_DIR = PREFIX/include, where load_inline
# finds the headers for the extensions it compiles. A directory per PREFIX:
# installing into two prefixes does not rebuild back and forth.
PREFIX  ?= /usr/local
DESTDIR ?=
override PREFIX := $(patsubst %/,%,$(PREFIX))
ifneq ($(filter install uninstall,$(MAKECMDGOALS)),)
ifeq ($(PREFIX),)
$(error PREFIX must name a directory other than /)
endif
ifneq ($(PREFIX),$(firstword $(filter /%,$(PREFIX))))
$(error PREFIX must be one absolute path without blanks, not '$(PREFIX)')
endif
ifneq ($(PREFIX),$(subst ',,$(subst ",,$(subst \,,$(PREFIX)))))
$(error PREFIX must not contain quotes or backslashes: '$(PREFIX)')
endif
endif
STAGE    := build/install$(PREFIX)
PICFLAGS := $(CFLAGS) -fPIC
$(eval $(call library,$(STAGE)/obj,CC,PICFLAGS,$(LAST),$(PREFIX)/include))

$(STAGE)/lib/libtc.a: $(STAGE)/obj/ch$(LAST)/.stamp
	@mkdir -p $(@D)
	rm -f $@ && $(AR) rcs $@ $(<D)/*.o

# -z defs: every symbol the library uses is defined in it or in -lm -pthread -ldl.
$(STAGE)/lib/libtc.so: $(STAGE)/obj/ch$(LAST)/.stamp
	@mkdir -p $(@D)
	$(CC) -shared -Wl,-soname,libtc.so -Wl,-z,defs $(<D)/*.o -lm -pthread -ldl -o $@

# The headers without tangle.sh's #line directives (they name the book's
# .nw files, which are not installed).
$(STAGE)/include/tc/.stamp: $(call snap,$(LAST))/.stamp Makefile
	@rm -rf $(@D) && mkdir -p $(@D)
	@set -e; for f in $(call snap,$(LAST))/src/*.h; do \
	    case $$f in *_impl.h|*_kernels.h) continue;; esac; \
	    sed '/^#line [0-9]/d' "$$f" > $(@D)/$$(basename "$$f"); \
	done
	@touch $@

$(STAGE)/lib/pkgconfig/tc.pc: $(TOC) Makefile
	@mkdir -p $(@D)
	@printf '%s\n' 'prefix=$(PREFIX)' 'exec_prefix=$${prefix}' 'libdir=$${exec_prefix}/lib' \
	    'includedir=$${prefix}/include' '' 'Name: tc' \
	    'Description: PyTorch internals, rebuilt in literate C: tensors, autograd, dispatch, inline extensions' \
	    'Version: $(call int,$(LAST))' 'Cflags: -I$${includedir}' 'Libs: -L$${libdir} -ltc' \
	    'Libs.private: -lm -pthread -ldl' > $@

INSTALLED := lib/libtc.a lib/libtc.so lib/pkgconfig/tc.pc
# ld.so finds a new shared library in a directory of /etc/ld.so.conf only
# after ldconfig has rebuilt its cache: run it when that is the case.
LDCONFIG = if [ -z '$(DESTDIR)' ] && [ "$$(id -u)" = 0 ] && command -v ldconfig > /dev/null && \
               grep -qsx '$(PREFIX)/lib' /etc/ld.so.conf /etc/ld.so.conf.d/*.conf; then ldconfig; fi

install: $(addprefix $(STAGE)/,$(INSTALLED)) $(STAGE)/include/tc/.stamp
	install -d '$(DESTDIR)$(PREFIX)/include/tc' '$(DESTDIR)$(PREFIX)/lib/pkgconfig'
	install -m 644 $(STAGE)/include/tc/*.h '$(DESTDIR)$(PREFIX)/include/tc/'
	install -m 644 $(STAGE)/lib/libtc.a '$(DESTDIR)$(PREFIX)/lib/'
	install -m 755 $(STAGE)/lib/libtc.so '$(DESTDIR)$(PREFIX)/lib/'
	install -m 644 $(STAGE)/lib/pkgconfig/tc.pc '$(DESTDIR)$(PREFIX)/lib/pkgconfig/'
	@$(LDCONFIG)

# Removes the files install writes, and include/tc if it is then empty; the
# directories it may have created besides (lib, lib/pkgconfig) are left, as
# other packages share them.
uninstall: $(STAGE)/include/tc/.stamp
	rm -f $(foreach f,$(INSTALLED),'$(DESTDIR)$(PREFIX)/$(f)')
	for h in $(STAGE)/include/tc/*.h; do rm -f '$(DESTDIR)$(PREFIX)/include/tc/'"$${h##*/}"; done
	@rmdir '$(DESTDIR)$(PREFIX)/include/tc' 2> /dev/null || true
	@$(LDCONFIG)

clean:
	rm -rf build
