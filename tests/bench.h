/* bench.h: what every tests/bench_chNN.c may use. */
#ifndef BENCH_H
#define BENCH_H

double bench_seconds(void);
/* The best time in seconds of `runs` calls of run(arg). */
double bench_best(void (*run)(void *), void *arg, int runs);

/* Make the compiler believe that *p is read (so writes to it are kept). */
void bench_escape(void *p);

#endif
