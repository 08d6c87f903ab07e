/* bench_main.c: `make bench`. Runs each chapter's benchmarks against the last
   snapshot. A benchmark reports throughput and its ratio to a baseline that
   the same run measures on the same machine; never an absolute target. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "bench.h"
#include "tc.h"
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

struct tc_sparse *bench_random_sparse(int64_t side, int64_t nnz,
                                      uint64_t (*next_random)(void), uint64_t *keys)
{
    tc_tensor *indices = tc_empty(TC_SHAPE(2, nnz), TC_INT64);
    tc_tensor *values = tc_empty(TC_SHAPE(nnz), TC_FLOAT32);
    tc_sparse *m = NULL;
    int64_t distinct = nnz / 10 * 9;

    if (indices != NULL && values != NULL) {
        int64_t *ind = tc_data_ptr(indices);
        float *val = tc_data_ptr(values);
        for (int64_t k = 0; k < nnz; k++) {
            int64_t from_k = k < distinct ? k : (int64_t)(next_random() % (uint64_t)distinct);
            ind[k] = k < distinct ? (int64_t)(next_random() % (uint64_t)side) : ind[from_k];
            ind[nnz + k] = k < distinct ? (int64_t)(next_random() % (uint64_t)side)
                                        : ind[nnz + from_k];
            val[k] = (float)(next_random() % 1000) / 1000.0f;
            if (keys != NULL)
                keys[k] = (uint64_t)ind[k] * (uint64_t)side + (uint64_t)ind[nnz + k];
        }
        m = tc_sparse_coo_tensor(indices, values, &TC_SHAPE(side, side));
    }
    tc_release(indices);
    tc_release(values);
    return m;
}
