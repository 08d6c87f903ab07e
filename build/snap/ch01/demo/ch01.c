#line 2397 "chapters/01-storage.nw"
/* ch01: per-rank inputs made three ways; storage, strides and pointers. */
#define _POSIX_C_SOURCE 200809L    /* for clock_gettime's monotonic clock */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tc.h"

#line 2413 "chapters/01-storage.nw"
static tc_tensor *by_loops(int64_t rank, int64_t rows, int64_t cols)
{
    tc_tensor *t = tc_empty(TC_SHAPE(rows, cols), TC_INT64);
    int64_t *data;

    if (t == NULL)
        return NULL;
    data = tc_data_ptr(t);
    for (int64_t i = 0; i < rows; i++)
        for (int64_t j = 0; j < cols; j++)
            data[i * cols + j] = rank * rows * cols + i * cols + j;
    return t;
}
#line 2449 "chapters/01-storage.nw"
static tc_tensor *by_literal(int64_t rank)
{
    const int64_t b = rank * 6;
    const int64_t (*rows)[3] = (const int64_t[2][3]){
        [0] = { b + 0, b + 1, b + 2 },
        [1] = { b + 3, b + 4, b + 5 },
    };

    return tc_from_data(TC_SHAPE(2, 3), TC_INT64, rows);
}
#line 2478 "chapters/01-storage.nw"
#define L4(f, i) f(4 * (i) + 0) f(4 * (i) + 1) f(4 * (i) + 2) f(4 * (i) + 3)
#define L16(f, i) L4(f, 4 * (i) + 0) L4(f, 4 * (i) + 1) L4(f, 4 * (i) + 2) L4(f, 4 * (i) + 3)
#define L256(f, i) L16(f, 16 * (i) + 0) L16(f, 16 * (i) + 1) \
                   L16(f, 16 * (i) + 2) L16(f, 16 * (i) + 3) \
                   L16(f, 16 * (i) + 4) L16(f, 16 * (i) + 5) \
                   L16(f, 16 * (i) + 6) L16(f, 16 * (i) + 7) \
                   L16(f, 16 * (i) + 8) L16(f, 16 * (i) + 9) \
                   L16(f, 16 * (i) + 10) L16(f, 16 * (i) + 11) \
                   L16(f, 16 * (i) + 12) L16(f, 16 * (i) + 13) \
                   L16(f, 16 * (i) + 14) L16(f, 16 * (i) + 15)
#define L4096(f) L256(f, 0) L256(f, 1) L256(f, 2) L256(f, 3) \
                 L256(f, 4) L256(f, 5) L256(f, 6) L256(f, 7) \
                 L256(f, 8) L256(f, 9) L256(f, 10) L256(f, 11) \
                 L256(f, 12) L256(f, 13) L256(f, 14) L256(f, 15)
#define ELEMENT(i) b + (i),

enum { BIG = 64 };    /* BIG x BIG = 4096 elements */

static tc_tensor *by_big_literal(int64_t rank)
{
    const int64_t b = rank * BIG * BIG;
    const int64_t values[BIG * BIG] = { L4096(ELEMENT) };

    return tc_from_data(TC_SHAPE(BIG, BIG), TC_INT64, values);
}
#line 2525 "chapters/01-storage.nw"
static tc_tensor *by_vector_ops(int64_t rank, int64_t rows, int64_t cols,
                                int *shared_refcount)
{
    tc_tensor *flat = tc_arange(0, rows * cols, 1);
    tc_tensor *grid = tc_view(flat, TC_SHAPE(rows, cols));
    tc_tensor *input = tc_add_scalar(grid, rank * rows * cols);

    if (shared_refcount != NULL && grid != NULL)
        *shared_refcount = grid->storage->refcount;
    tc_release(grid);    /* releasing NULL is harmless: one check, at the end */
    tc_release(flat);
    return input;
}
#line 2551 "chapters/01-storage.nw"
static void show(const char *title, const tc_tensor *t)
{
    char sizes[TC_SIZES_STRLEN], strides[TC_SIZES_STRLEN];

    printf("  %s\n", title);
    if (t == NULL) {
        printf("    error: %s\n", tc_error());
        return;
    }
    printf("    sizes %s  strides %s  storage_offset %lld  dtype %s\n",
           tc_format_sizes(sizes, t->dim, t->sizes),
           tc_format_sizes(strides, t->dim, t->strides),
           (long long)t->storage_offset, tc_dtype_name(t->dtype));
    printf("    data_ptr %p  storage nbytes %zu  storage refcount %d\n",
           tc_data_ptr(t), t->storage->nbytes, t->storage->refcount);
    tc_print_indented(stdout, t, 4);
}
#line 2583 "chapters/01-storage.nw"
typedef tc_tensor *maker(int64_t rank);

static tc_tensor *big_loops(int64_t rank) { return by_loops(rank, BIG, BIG); }
static tc_tensor *big_vector_ops(int64_t rank)
{
    return by_vector_ops(rank, BIG, BIG, NULL);
}

static double seconds(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Best time, over 5 runs, of making `repeat` inputs for each of w ranks. */
static double best_time(maker *make, int64_t w, int repeat)
{
    double best = 0;

    for (int run = 0; run < 5; run++) {
        double start = seconds(), elapsed;
        for (int k = 0; k < repeat; k++)
            for (int64_t r = 0; r < w; r++)
                tc_release(make(r));
        elapsed = seconds() - start;
        if (run == 0 || elapsed < best)
            best = elapsed;
    }
    return best;
}
#line 2618 "chapters/01-storage.nw"
static int usage(FILE *f, int status)
{
    fprintf(f,
            "Usage: ch01 [--help]\n"
            "\n"
            "Chapter 1 of PyTorch internals, rebuilt in literate C.\n"
            "For each rank r of a world of W = 4, makes the (2, 3) input\n"
            "arange(6) + 6r three ways: (a) nested loops, (b) a literal\n"
            "initializer, (c) vectorized ops (arange, view, add of a scalar).\n"
            "For each it prints the tensor as PyTorch would, its sizes,\n"
            "strides, storage_offset, data pointer and the reference count of\n"
            "its storage, and checks that the three agree. Then it times the\n"
            "three ways on a 64 x 64 input per rank and prints their ratios.\n");
    return status;
}

int main(int argc, char **argv)
{
    const int64_t w = 4, rows = 2, cols = 3;
    bool all_agree = true;

    if (argc > 1)
        return usage(strcmp(argv[1], "--help") == 0 ? stdout : stderr,
                     strcmp(argv[1], "--help") == 0 ? 0 : 2);
    printf("Per-rank inputs, W = %lld, each (%lld, %lld) = arange(%lld) + rank * %lld\n",
           (long long)w, (long long)rows, (long long)cols, (long long)(rows * cols),
           (long long)(rows * cols));
    for (int64_t r = 0; r < w; r++) {
        int shared = 0;
        tc_tensor *a = by_loops(r, rows, cols);
        tc_tensor *b = by_literal(r);
        tc_tensor *c = by_vector_ops(r, rows, cols, &shared);
        bool agree = tc_equal(a, b) && tc_equal(b, c);

        printf("\nrank %lld\n", (long long)r);
        show("(a) nested loops", a);
        show("(b) literal initializer", b);
        show("(c) vectorized: arange(6).view(2, 3) + base", c);
        printf("  while the view was alive, the arange storage had refcount %d\n",
               shared);
        printf("  the three agree: %s\n", agree ? "yes" : "NO");
        all_agree = all_agree && agree;
        tc_release(a);
        tc_release(b);
        tc_release(c);
    }
    
#line 2680 "chapters/01-storage.nw"
{
    tc_tensor *a = big_loops(3), *b = by_big_literal(3), *c = big_vector_ops(3);
    bool agree = tc_equal(a, b) && tc_equal(b, c);
    double ta, tb, tc;

    tc_release(a);
    tc_release(b);
    tc_release(c);
    printf("\nOn a (%d, %d) input per rank, the three ways agree: %s\n", BIG, BIG,
           agree ? "yes" : "NO");
    all_agree = all_agree && agree;
    ta = best_time(big_loops, w, 200);
    tb = best_time(by_big_literal, w, 200);
    tc = best_time(big_vector_ops, w, 200);
    printf("time relative to (a) nested loops, best of 5 [timed]: "
           "(a) 1.00  (b) %.2f  (c) %.2f\n", tb / ta, tc / ta);
    printf("fastest [timed]: %s\n",
           ta <= tb && ta <= tc ? "(a) nested loops"
           : tb <= tc           ? "(b) literal initializer"
                                : "(c) vectorized");
}
#line 2665 "chapters/01-storage.nw"
    return all_agree ? 0 : 1;
}
