/* bench_ch01.c: constructors and the scalar add, against memset/memcpy of
   the same bytes, measured in the same run. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "tc.h"

enum { N = 1 << 24 };    /* elements: 64 MiB of float32 */

static float *a;
static tc_tensor *x;

/* The baselines do what the constructors must do: take fresh memory from the
   allocator (the kernel maps and zeroes its pages on first touch), write it,
   give it back. */
static void run_memset(void *arg)
{
    float *p = malloc(N * sizeof *p);
    (void)arg;
    if (p != NULL)
        memset(p, 1, N * sizeof *p);    /* not 0: malloc + memset 0 may become calloc */
    bench_escape(p);
    free(p);
}
static void run_memcpy(void *arg)
{
    float *p = malloc(N * sizeof *p);
    (void)arg;
    if (p != NULL)
        memcpy(p, a, N * sizeof *p);
    bench_escape(p);
    free(p);
}
static void run_zeros(void *arg) { (void)arg; tc_release(tc_zeros(TC_SHAPE(N), TC_FLOAT32)); }
static void run_arange(void *arg) { (void)arg; tc_release(tc_arange(0.0, (double)N, 1.0)); }
static void run_add(void *arg) { (void)arg; tc_release(tc_add_scalar(x, 1.0)); }

static void report(const char *what, double t, const char *base, double tb, double bytes)
{
    printf("  %-34s %7.2f GB/s   %5.2fx the speed of %s\n", what, bytes / t * 1e-9,
           tb / t, base);
}

void bench_ch01(void)
{
    double t_memset, t_memcpy;

    a = malloc(N * sizeof *a);
    x = tc_ones(TC_SHAPE(N), TC_FLOAT32);
    if (a == NULL || x == NULL) {
        printf("bench_ch01: out of memory\n");
        goto done;
    }
    memset(a, 1, N * sizeof *a);
    printf("chapter 1: constructors on 2^24 float32 (64 MiB), best of 5\n");
    t_memset = bench_best(run_memset, NULL, 5);
    t_memcpy = bench_best(run_memcpy, NULL, 5);
    printf("  %-34s %7.2f GB/s   (baseline)\n", "malloc + memset + free", N * 4.0 / t_memset * 1e-9);
    printf("  %-34s %7.2f GB/s   (baseline, bytes read + written)\n", "malloc + memcpy + free",
           N * 8.0 / t_memcpy * 1e-9);
    report("tc_zeros (allocate + fill)", bench_best(run_zeros, NULL, 5), "memset",
           t_memset, N * 4.0);
    report("tc_arange(0., 2^24, 1.)", bench_best(run_arange, NULL, 5), "memset",
           t_memset, N * 4.0);
    report("tc_add_scalar (read + write)", bench_best(run_add, NULL, 5), "malloc + memcpy + free",
           t_memcpy, N * 8.0);
done:
    tc_release(x);
    free(a);
}
