/* check_ch09_pg.h: process groups and their collectives (helper shm).

   Every collective, dtype and reduction on 1, 2, 3, 4 and 8 ranks started
   by tc_launch_fn: each rank computes, from the inputs (a function of the
   rank and the index), the serial result (a left fold in rank order, as
   the chapter fixes it) and compares it bit for bit with what the
   collective gave. Then the byte counts (worked out by hand), sub-groups,
   PyTorch's messages for bad calls, a timeout that names the rank that did
   not arrive, a mismatch between ranks, and what is left behind. */
#include <dirent.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

static bool pg_quick(void)
{
    const char *q = getenv("TC_TEST_QUICK");
    return q && *q && strcmp(q, "0") != 0;
}

/* Launch n ranks running body and assert that they all exited 0. */
static void pg_launch(int n, int (*body)(void *, int), void *arg)
{
    tc_launch_options o = { .nproc = n, .timeout_seconds = 120 };
    tc_launch_result res;
    ck_assert_msg(tc_launch_fn(&o, body, arg, &res) == 0, "%s", tc_error());
    ck_assert_msg(res.exit_code == 0, "%d ranks: %s", n, res.summary);
}

/* ------------------------------------------------------ inputs and oracle */

/* What rank r holds at element i: values of very different sizes, so
   that a sum in another order would give other bits. */
static double pg_value(int r, int64_t i)
{
    int64_t k = (r * 37 + i * 11) % 97 - 48;
    return (double)k * (r % 2 ? 1.0e-3 : 1.0e4) + 0.1 * (r + 1);
}

static int64_t pg_value_i64(int r, int64_t i)
{
    if (i == 0)
        return INT64_MAX - r;   /* the sum wraps, as PyTorch's does */
    return ((r * 1000003 + i * 7919) % 20011 - 10005) * ((int64_t)1 << 40);
}

/* Element i of rank r's input, stored at dst in dtype. */
static void pg_store(void *dst, int64_t at, tc_dtype dtype, int r, int64_t i)
{
    switch (dtype) {
    case TC_FLOAT32: ((float *)dst)[at] = (float)pg_value(r, i); break;
    case TC_FLOAT64: ((double *)dst)[at] = pg_value(r, i); break;
    case TC_INT64: ((int64_t *)dst)[at] = pg_value_i64(r, i); break;
    case TC_BOOL: ((bool *)dst)[at] = (r + i) % 3 == 0; break;
    }
}

static tc_tensor *pg_input(int r, int64_t count, tc_dtype dtype)
{
    tc_tensor *t = tc_empty(TC_SHAPE(count), dtype);
    for (int64_t i = 0; i < count; i++)
        pg_store(tc_data_ptr(t), i, dtype, r, i);
    return t;
}

/* The serial reduction of element i over ranks 0..n-1: a left fold in rank
   order in the dtype's arithmetic; AVG divides the sum by n. */
static void pg_fold(void *dst, int64_t at, tc_dtype dtype, tc_reduce_op op, int n, int64_t i)
{
    if (dtype == TC_INT64) {
        int64_t acc = pg_value_i64(0, i);
        for (int r = 1; r < n; r++) {
            int64_t x = pg_value_i64(r, i);
            acc = op == TC_REDUCE_MIN ? (x < acc ? x : acc)
                : op == TC_REDUCE_MAX ? (acc < x ? x : acc)
                                      : (int64_t)((uint64_t)acc + (uint64_t)x);
        }
        ((int64_t *)dst)[at] = acc;
    } else if (dtype == TC_FLOAT32) {
        float acc = (float)pg_value(0, i);
        for (int r = 1; r < n; r++) {
            float x = (float)pg_value(r, i);
            acc = op == TC_REDUCE_MIN ? (x < acc ? x : acc)
                : op == TC_REDUCE_MAX ? (acc < x ? x : acc) : acc + x;
        }
        ((float *)dst)[at] = op == TC_REDUCE_AVG ? acc / (float)n : acc;
    } else {
        double acc = pg_value(0, i);
        for (int r = 1; r < n; r++) {
            double x = pg_value(r, i);
            acc = op == TC_REDUCE_MIN ? (x < acc ? x : acc)
                : op == TC_REDUCE_MAX ? (acc < x ? x : acc) : acc + x;
        }
        ((double *)dst)[at] = op == TC_REDUCE_AVG ? acc / n : acc;
    }
}

/* Compare got with want (count elements) bit for bit; print the first
   difference. 0 if equal. */
static int pg_same(int rank, const char *what, const tc_tensor *got, const void *want,
                   int64_t count)
{
    size_t isz = tc_itemsize(got->dtype);
    const unsigned char *g = tc_data_ptr(got), *w = want;
    for (int64_t i = 0; i < count; i++)
        if (memcmp(g + i * isz, w + i * isz, isz) != 0) {
            fprintf(stderr, "rank %d: %s (%s, %lld elements): element %lld differs\n", rank,
                    what, tc_dtype_name(got->dtype), (long long)count, (long long)i);
            return 1;
        }
    return 0;
}

static int pg_call(int rank, const char *what, int rc)
{
    if (rc != 0)
        fprintf(stderr, "rank %d: %s failed: %s\n", rank, what, tc_error());
    return rc != 0;
}

/* -------------------------------------------------- every collective */

static const tc_dtype pg_dtypes[] = { TC_FLOAT32, TC_FLOAT64, TC_INT64 };
static const tc_reduce_op pg_ops[] = { TC_REDUCE_SUM, TC_REDUCE_AVG, TC_REDUCE_MIN,
                                       TC_REDUCE_MAX };

static int pg_check_all_reduce(tc_pg *w, int64_t count, tc_dtype dtype, tc_reduce_op op)
{
    int n = tc_pg_size(w), me = tc_pg_rank(w), bad = 0;
    tc_tensor *t = pg_input(me, count, dtype);
    void *want = malloc((size_t)count * tc_itemsize(dtype) + 1);
    for (int64_t i = 0; i < count; i++)
        pg_fold(want, i, dtype, op, n, i);
    bad += pg_call(me, "all_reduce", tc_all_reduce(w, t, op));
    bad += bad ? 0 : pg_same(me, tc_reduce_op_name(op), t, want, count);
    free(want);
    tc_release(t);
    return bad;
}

static int pg_check_all_gather(tc_pg *w, int64_t count, tc_dtype dtype)
{
    int n = tc_pg_size(w), me = tc_pg_rank(w), bad = 0;
    tc_tensor *in = pg_input(me, count, dtype), *out = tc_empty(TC_SHAPE(count * n), dtype);
    void *want = malloc((size_t)(count * n) * tc_itemsize(dtype) + 1);
    for (int r = 0; r < n; r++)
        for (int64_t i = 0; i < count; i++)
            pg_store(want, r * count + i, dtype, r, i);
    bad += pg_call(me, "all_gather", tc_all_gather(w, out, in));
    bad += bad ? 0 : pg_same(me, "all_gather", out, want, count * n);
    free(want);
    tc_release(in);
    tc_release(out);
    return bad;
}

/* reduce_scatter: rank r's input holds n blocks of count; block j of it is
   the values of "rank r" at indices j * count + i, so that the expected
   block is the fold of those. */
static int pg_check_reduce_scatter(tc_pg *w, int64_t count, tc_dtype dtype, tc_reduce_op op)
{
    int n = tc_pg_size(w), me = tc_pg_rank(w), bad = 0;
    tc_tensor *in = pg_input(me, count * n, dtype), *out = tc_empty(TC_SHAPE(count), dtype);
    void *want = malloc((size_t)count * tc_itemsize(dtype) + 1);
    for (int64_t i = 0; i < count; i++)
        pg_fold(want, i, dtype, op, n, me * count + i);
    bad += pg_call(me, "reduce_scatter", tc_reduce_scatter(w, out, in, op));
    bad += bad ? 0 : pg_same(me, "reduce_scatter", out, want, count);
    free(want);
    tc_release(in);
    tc_release(out);
    return bad;
}

static int pg_check_broadcast(tc_pg *w, int64_t count, tc_dtype dtype, int root)
{
    int me = tc_pg_rank(w), bad = 0;
    tc_tensor *t = pg_input(me, count, dtype);
    void *want = malloc((size_t)count * tc_itemsize(dtype) + 1);
    for (int64_t i = 0; i < count; i++)
        pg_store(want, i, dtype, root, i);
    bad += pg_call(me, "broadcast", tc_broadcast(w, t, root));
    bad += bad ? 0 : pg_same(me, "broadcast", t, want, count);
    free(want);
    tc_release(t);
    return bad;
}

static int pg_check_scatter(tc_pg *w, int64_t count, tc_dtype dtype, int root)
{
    int n = tc_pg_size(w), me = tc_pg_rank(w), bad = 0;
    tc_tensor *in = me == root ? pg_input(me, count * n, dtype) : NULL;
    tc_tensor *out = tc_zeros(TC_SHAPE(count), dtype);
    void *want = malloc((size_t)count * tc_itemsize(dtype) + 1);
    for (int64_t i = 0; i < count; i++)
        pg_store(want, i, dtype, root, me * count + i);
    bad += pg_call(me, "scatter", tc_scatter(w, out, in, root));
    bad += bad ? 0 : pg_same(me, "scatter", out, want, count);
    free(want);
    tc_release(in);
    tc_release(out);
    return bad;
}

/* all_to_all: slice j of rank i's input lands in slice i of rank j's output. */
static int pg_check_all_to_all(tc_pg *w, int64_t count, tc_dtype dtype)
{
    int n = tc_pg_size(w), me = tc_pg_rank(w), bad = 0;
    tc_tensor *in = pg_input(me, count * n, dtype), *out = tc_zeros(TC_SHAPE(count * n), dtype);
    void *want = malloc((size_t)(count * n) * tc_itemsize(dtype) + 1);
    for (int i = 0; i < n; i++)
        for (int64_t k = 0; k < count; k++)
            pg_store(want, i * count + k, dtype, i, me * count + k);
    bad += pg_call(me, "all_to_all", tc_all_to_all(w, out, in));
    bad += bad ? 0 : pg_same(me, "all_to_all", out, want, count * n);
    free(want);
    tc_release(in);
    tc_release(out);
    return bad;
}

/* Element counts: empty, one, uneven, above the one-round size, and (not
   quick) more than one piece of the buffer. */
static int pg_counts(const int64_t **counts)
{
    static const int64_t full[] = { 0, 1, 10, 5001, 300007 }, quick[] = { 1, 10, 5001 };
    *counts = pg_quick() ? quick : full;
    return pg_quick() ? 3 : 5;
}

static int pg_body_collectives(void *arg, int rank)
{
    (void)arg;
    tc_pg *w = tc_dist_init();
    if (!w) {
        fprintf(stderr, "rank %d: tc_dist_init: %s\n", rank, tc_error());
        return 1;
    }
    int n = tc_pg_size(w), bad = 0;
    const int64_t *counts;
    int ncounts = pg_counts(&counts);
    for (int c = 0; c < ncounts; c++) {
        int64_t k = counts[c];
        for (size_t d = 0; d < sizeof pg_dtypes / sizeof pg_dtypes[0]; d++) {
            tc_dtype dt = pg_dtypes[d];
            for (size_t o = 0; o < sizeof pg_ops / sizeof pg_ops[0]; o++) {
                if (dt == TC_INT64 && pg_ops[o] == TC_REDUCE_AVG)
                    continue;
                bad += pg_check_all_reduce(w, k, dt, pg_ops[o]);
                if (k < 20000 || pg_ops[o] == TC_REDUCE_SUM)
                    bad += pg_check_reduce_scatter(w, k, dt, pg_ops[o]);
            }
        }
        for (int d = 0; d < 4; d++) {
            tc_dtype dt = d == 3 ? TC_BOOL : pg_dtypes[d];
            bad += pg_check_all_gather(w, k, dt);
            bad += pg_check_broadcast(w, k, dt, n - 1);
            bad += pg_check_scatter(w, k, dt, n / 2);
            bad += pg_check_all_to_all(w, k, dt);
        }
        bad += pg_call(rank, "barrier", tc_barrier(w));
        if (bad)
            break;
    }
    tc_dist_finalize();
    return bad != 0;
}

START_TEST(test_pg_collectives)
{
    static const int sizes[] = { 1, 2, 3, 4, 8 }, quick[] = { 2, 3 };
    int n = pg_quick() ? quick[_i % 2] : sizes[_i];
    pg_launch(n, pg_body_collectives, NULL);
}
END_TEST

static void ch09_add_pg(Suite *s)
{
    TCase *tc = tcase_create("ch09_pg");
    tcase_set_timeout(tc, 600);
    tcase_add_loop_test(tc, test_pg_collectives, 0, 5);
    suite_add_tcase(s, tc);
}
