/* bench.h: what every tests/bench_chNN.c may use. */
#ifndef BENCH_H
#define BENCH_H

#include <stdint.h>

double bench_seconds(void);
/* The best time in seconds of `runs` calls of run(arg). */
double bench_best(void (*run)(void *), void *arg, int runs);

/* Make the compiler believe that *p is read (so writes to it are kept). */
void bench_escape(void *p);

/* The sparse matrix of chapters 4 and 7's benchmarks: nnz entries of a side x
   side float32 matrix, the first 90% at random positions (from next_random),
   the rest repeating random ones of them (about 10% duplicates), values
   k/1000; uncoalesced. If keys is not NULL, keys[k] = row * side + column of
   entry k. NULL if out of memory. */
struct tc_sparse;
struct tc_sparse *bench_random_sparse(int64_t side, int64_t nnz,
                                      uint64_t (*next_random)(void), uint64_t *keys);

#endif
