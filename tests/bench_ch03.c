/* bench_ch03.c: the elementwise loop and the matrix product, against
   baselines measured in the same run: memcpy for the add, the same add on
   contiguous operands for the transposed add, a textbook i-j-k loop for
   matmul. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "tc.h"

enum { N = 1 << 24, SIDE = 4096, M = 512 };

static tc_tensor *a, *b, *x, *y, *xt, *ma, *mb;
static float *src, *dst, *pa, *pb, *pc;

static void run_memcpy(void *arg) { (void)arg; memcpy(dst, src, N * sizeof *src); bench_escape(dst); }
static void run_add_(void *arg) { (void)arg; tc_release(tc_add_(a, b)); }
static void run_add(void *arg) { (void)arg; tc_release(tc_add(a, b)); }
static void run_add_contiguous(void *arg) { (void)arg; tc_release(tc_add_(y, x)); }
static void run_add_transposed(void *arg) { (void)arg; tc_release(tc_add_(y, xt)); }
static void run_matmul(void *arg) { (void)arg; tc_release(tc_matmul(ma, mb)); }

/* The textbook order: each c[i][j] a dot product down a column of b. */
static void run_naive(void *arg)
{
    (void)arg;
    for (int i = 0; i < M; i++)
        for (int j = 0; j < M; j++) {
            float s = 0;
            for (int p = 0; p < M; p++)
                s += pa[i * M + p] * pb[p * M + j];
            pc[i * M + j] = s;
        }
    bench_escape(pc);
}

static void elementwise(void)
{
    double t_copy, t_add_, t_add;

    t_copy = bench_best(run_memcpy, NULL, 5);
    t_add_ = bench_best(run_add_, NULL, 5);
    t_add = bench_best(run_add, NULL, 5);
    printf("  %-44s %7.2f GB/s   (baseline: bytes read + written)\n",
           "memcpy of 64 MiB", 2.0 * N * 4 / t_copy * 1e-9);
    printf("  %-44s %7.2f GB/s   %5.2fx memcpy's throughput\n",
           "a.add_(b), 2^24 float32 (read 2, write 1)", 3.0 * N * 4 / t_add_ * 1e-9,
           (3.0 * N * 4 / t_add_) / (2.0 * N * 4 / t_copy));
    printf("  %-44s %7.2f GB/s   %5.2fx memcpy's throughput (allocates its result)\n",
           "a + b, 2^24 float32", 3.0 * N * 4 / t_add * 1e-9,
           (3.0 * N * 4 / t_add) / (2.0 * N * 4 / t_copy));
}

static void transposed(void)
{
    double t_contiguous = bench_best(run_add_contiguous, NULL, 3);
    double t_transposed = bench_best(run_add_transposed, NULL, 3);

    printf("  %-44s %7.2f GB/s\n", "y.add_(x), 4096 x 4096 contiguous",
           3.0 * SIDE * SIDE * 4 / t_contiguous * 1e-9);
    printf("  %-44s %7.2f GB/s   %5.2fx the time of the contiguous add\n",
           "y.add_(x.t()), 4096 x 4096", 3.0 * SIDE * SIDE * 4 / t_transposed * 1e-9,
           t_transposed / t_contiguous);
}

static void product(void)
{
    double flops = 2.0 * M * M * M;
    double t_naive = bench_best(run_naive, NULL, 3);
    double t_matmul = bench_best(run_matmul, NULL, 3);

    printf("  %-44s %7.2f GFLOP/s\n", "textbook i-j-k loop, 512 x 512 float32",
           flops / t_naive * 1e-9);
    printf("  %-44s %7.2f GFLOP/s  %5.2fx the textbook loop\n", "tc_matmul, 512 x 512 float32",
           flops / t_matmul * 1e-9, t_naive / t_matmul);
}

void bench_ch03(void)
{
    a = tc_ones(TC_SHAPE(N), TC_FLOAT32);
    b = tc_ones(TC_SHAPE(N), TC_FLOAT32);
    x = tc_ones(TC_SHAPE(SIDE, SIDE), TC_FLOAT32);
    y = tc_zeros(TC_SHAPE(SIDE, SIDE), TC_FLOAT32);
    xt = tc_t(x);
    ma = tc_ones(TC_SHAPE(M, M), TC_FLOAT32);
    mb = tc_ones(TC_SHAPE(M, M), TC_FLOAT32);
    src = malloc(N * sizeof *src);
    dst = malloc(N * sizeof *dst);
    pa = tc_data_ptr(ma);
    pb = tc_data_ptr(mb);
    pc = malloc(M * M * sizeof *pc);
    printf("chapter 3: the strided loop and matmul, best of several runs\n");
    if (a == NULL || b == NULL || xt == NULL || y == NULL || ma == NULL || mb == NULL ||
        src == NULL || dst == NULL || pc == NULL) {
        printf("  out of memory\n");
    } else {
        memset(src, 0, N * sizeof *src);
        memset(dst, 0, N * sizeof *dst);
        elementwise();
        transposed();
        product();
    }
    tc_release(a);
    tc_release(b);
    tc_release(x);
    tc_release(y);
    tc_release(xt);
    tc_release(ma);
    tc_release(mb);
    free(src);
    free(dst);
    free(pc);
}
