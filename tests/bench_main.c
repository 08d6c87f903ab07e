/* bench_main.c: `make bench`. Runs each chapter's benchmarks against the last
   snapshot. A benchmark reports throughput and its ratio to a baseline that
   the same run measures on the same machine; never an absolute target. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "bench.h"
#include "benches.h"    /* generated: #define BENCHES BENCH(bench_ch01) ... */

#define BENCH(name) void name(void);
BENCHES
#undef BENCH

double bench_seconds(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

double bench_best(void (*run)(void *), void *arg, int runs)
{
    double best = 0;

    for (int i = 0; i < runs; i++) {
        double start = bench_seconds(), elapsed;
        run(arg);
        elapsed = bench_seconds() - start;
        if (i == 0 || elapsed < best)
            best = elapsed;
    }
    return best;
}

/* Defined here, in another translation unit, so the compiler must assume
   that it reads *p: a benchmark's writes cannot be optimised away. */
void *volatile bench_sink;

void bench_escape(void *p)
{
    bench_sink = p;
}

/* bench [NAME...]: every benchmark, or only those named (bench_ch07). */
int main(int argc, char **argv)
{
    int ran = 0;

#define BENCH(name)                                                         \
    for (int i = 1; i <= argc; i++)                                         \
        if (argc == 1 || (i < argc && strcmp(argv[i], #name) == 0)) {       \
            name();                                                         \
            ran++;                                                          \
            break;                                                          \
        }
    BENCHES
#undef BENCH
    if (ran == 0)
        fprintf(stderr, "bench: no benchmark named so\n");
    return ran == 0;
}
