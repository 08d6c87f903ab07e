/* bench.h: what every tests/bench_chNN.c may use. */
#ifndef BENCH_H
#define BENCH_H

double bench_seconds(void);
/* The best time in seconds of `runs` calls of run(arg). */
double bench_best(void (*run)(void *), void *arg, int runs);

#endif
