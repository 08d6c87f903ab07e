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
#include <unistd.h>

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
    *counts = testing_quick() ? quick : full;
    return testing_quick() ? 3 : 5;
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
    int n = testing_quick() ? quick[_i % 2] : sizes[_i];
    ranks_launch(n, pg_body_collectives, NULL);
}
END_TEST

/* ------------------------------------------------------- byte counts */

/* The counts on 4 ranks, worked out by hand from the rule:
   all_reduce of 10 float32 (S = 40 bytes): torch.chunk cuts 10 elements in
   chunks of 3, 3, 3, 1, so ranks 0-2 own c = 12 bytes and send
   (40 - 12) + 12 * 3 = 64; rank 3 owns 4 and sends 36 + 12 = 48; each
   receives the same. all_gather of 3 float64 in (24 bytes): 24 * 3 = 72
   both ways. broadcast of 5 int64 from root 2: the root sends 40 * 3 =
   120, the others receive 40. barrier: nothing, one call. */
static int pg_body_counts(void *arg, int rank)
{
    (void)arg;
    tc_pg *w = tc_dist_init();
    int bad = 0;
    if (!w)
        return 1;
    tc_tensor *t = tc_ones(TC_SHAPE(10), TC_FLOAT32);
    RANK_EXPECT(tc_all_reduce(w, t, TC_REDUCE_SUM) == 0);
    tc_pg_stats st = tc_pg_get_stats(w);
    int64_t ar = rank < 3 ? 64 : 48;
    RANK_EXPECT(st.calls == 1 && st.bytes_sent == ar && st.bytes_received == ar);
    tc_pg_reset_stats(w);
    tc_tensor *in = tc_ones(TC_SHAPE(3), TC_FLOAT64), *out = tc_empty(TC_SHAPE(12), TC_FLOAT64);
    RANK_EXPECT(tc_all_gather(w, out, in) == 0);
    tc_pg_count_padding(w, 8, 16);
    st = tc_pg_get_stats(w);
    RANK_EXPECT(st.calls == 1 && st.bytes_sent == 64 && st.bytes_received == 56);
    RANK_EXPECT(st.padding_sent == 8 && st.padding_received == 16);
    tc_pg_reset_stats(w);
    tc_tensor *b = tc_zeros(TC_SHAPE(5), TC_INT64);
    RANK_EXPECT(tc_broadcast(w, b, 2) == 0);
    RANK_EXPECT(tc_barrier(w) == 0);
    RANK_EXPECT(tc_pg_print_ordered(w, stderr, "") == 0);
    st = tc_pg_get_stats(w);
    RANK_EXPECT(st.calls == 2);
    RANK_EXPECT(st.bytes_sent == (rank == 2 ? 120 : 0));
    RANK_EXPECT(st.bytes_received == (rank == 2 ? 0 : 40));
    tc_release(t);
    tc_release(in);
    tc_release(out);
    tc_release(b);
    tc_dist_finalize();
    return bad != 0;
}

START_TEST(test_pg_counts)
{
    ranks_launch(4, pg_body_counts, NULL);
}
END_TEST

/* ------------------------------------------------------------- groups */

/* On 4 ranks, the columns of a 2 x 2 mesh ({0, 2} and {1, 3}) and the
   world reversed ({3, 2, 1, 0}: group rank i is world rank 3 - i), used
   in turn with the world: each all_reduce of the rank's world number + 1
   gives the sum over the group's members. */
static int pg_body_groups(void *arg, int rank)
{
    (void)arg;
    tc_pg *w = tc_dist_init(), *col0, *col1, *rev;
    int bad = 0;
    if (!w)
        return 1;
    RANK_EXPECT(tc_pg_new_group(w, 2, (const int[]){ 0, 2 }, &col0) == 0);
    RANK_EXPECT(tc_pg_new_group(w, 2, (const int[]){ 1, 3 }, &col1) == 0);
    RANK_EXPECT(tc_pg_new_group(w, 4, (const int[]){ 3, 2, 1, 0 }, &rev) == 0);
    tc_pg *col = rank % 2 ? col1 : col0;
    RANK_EXPECT((rank % 2 ? col0 : col1) == NULL);
    RANK_EXPECT(tc_pg_rank(col) == rank / 2 && tc_pg_size(col) == 2);
    RANK_EXPECT(tc_pg_world_rank(col, 1) == rank % 2 + 2 && tc_pg_world_rank(col, 2) == -1);
    RANK_EXPECT(tc_pg_rank(NULL) == -1 && tc_pg_size(NULL) == -1);
    RANK_EXPECT(tc_pg_rank(rev) == 3 - rank);
    for (int round = 0; round < 3; round++) {
        tc_tensor *t = tc_full(TC_SHAPE(3), rank + 1, TC_INT64);
        RANK_EXPECT(tc_all_reduce(col, t, TC_REDUCE_SUM) == 0);
        RANK_EXPECT(testing_get(t, IDX(2)) == (rank % 2 ? 2 + 4 : 1 + 3));
        RANK_EXPECT(tc_all_reduce(w, t, TC_REDUCE_SUM) == 0);
        RANK_EXPECT(testing_get(t, IDX(0)) == 4 + 6 + 4 + 6);
        tc_tensor *g = tc_empty(TC_SHAPE(4), TC_INT64), *one = tc_full(TC_SHAPE(1), rank, TC_INT64);
        RANK_EXPECT(tc_all_gather(rev, g, one) == 0);
        RANK_EXPECT(testing_get(g, IDX(0)) == 3 && testing_get(g, IDX(3)) == 0);
        tc_release(t);
        tc_release(g);
        tc_release(one);
    }
    tc_pg_stats st = tc_pg_get_stats(col);
    RANK_EXPECT(st.calls == 3 && st.bytes_sent == 3 * 24);   /* chunks of 16 and 8 bytes: (24 - c) + c */
    tc_pg_free(col);
    tc_pg *again;
    RANK_EXPECT(tc_pg_new_group(w, 1, (const int[]){ 1 }, &again) == 0);
    RANK_EXPECT((again != NULL) == (rank == 1));
    if (again) {
        tc_tensor *t = tc_ones(TC_SHAPE(2), TC_FLOAT32);
        RANK_EXPECT(tc_all_reduce(again, t, TC_REDUCE_SUM) == 0 && testing_get(t, IDX(1)) == 1);
        RANK_EXPECT(tc_pg_get_stats(again).bytes_sent == 0);
        tc_release(t);
    }
    RANK_EXPECT(tc_barrier(w) == 0);
    tc_dist_finalize();                    /* frees rev and again */
    return bad != 0;
}

START_TEST(test_pg_groups)
{
    ranks_launch(4, pg_body_groups, NULL);
}
END_TEST

/* ------------------------------------------------- PyTorch's messages */

/* The message of the failed call, which must be exactly `want`. */
static int pg_fails(int rank, int line, int rc, const char *want)
{
    if (rc == -1 && tc_error() && strcmp(tc_error(), want) == 0)
        return 0;
    fprintf(stderr, "rank %d: line %d: rc %d, message \"%s\", expected \"%s\"\n", rank, line,
            rc, rc ? tc_error() : "", want);
    return 1;
}
#define PG_FAILS(call, want) (bad += pg_fails(rank, __LINE__, (tc_clear_error(), (call)), want))

/* Bad calls on 2 ranks (every rank makes the same one: the checks come
   before any communication, so the group stays usable). The texts are
   torch 1.13's: gloo's (root, bool, dtypes), NCCL's for the *_base
   collectives gloo lacks in 1.13, c10d's for the indivisible all_to_all,
   distributed_c10d.py's for new_group. */
static int pg_body_errors(void *arg, int rank)
{
    (void)arg;
    tc_pg *w = tc_dist_init();
    int bad = 0;
    if (!w)
        return 1;
    tc_tensor *f4 = tc_ones(TC_SHAPE(4), TC_FLOAT32), *f8 = tc_ones(TC_SHAPE(8), TC_FLOAT32);
    tc_tensor *f5 = tc_ones(TC_SHAPE(5), TC_FLOAT32), *d8 = tc_ones(TC_SHAPE(8), TC_FLOAT64);
    tc_tensor *i4 = tc_ones(TC_SHAPE(4), TC_INT64), *b4 = tc_ones(TC_SHAPE(4), TC_BOOL);
    tc_tensor *tr = testing_transposed_arange6(TC_FLOAT32);
    PG_FAILS(tc_all_reduce(w, tr, TC_REDUCE_SUM), "Tensors must be contiguous");
    PG_FAILS(tc_all_reduce(w, b4, TC_REDUCE_MAX), "Invalid scalar type");
    PG_FAILS(tc_all_reduce(w, i4, TC_REDUCE_AVG), "Cannot use ReduceOp.AVG with integer inputs");
    PG_FAILS(tc_all_reduce(w, f4, (tc_reduce_op)9), "Unhandled ReduceOp");
    PG_FAILS(tc_all_gather(w, f5, f4), "output tensor size must be equal to world_size times "
                                       "input tensor size");
    PG_FAILS(tc_all_gather(w, d8, f4), "output tensor must have the same type as input tensor");
    PG_FAILS(tc_reduce_scatter(w, f4, f5, TC_REDUCE_SUM),
             "input tensor must be the same size as output size times world size");
    PG_FAILS(tc_reduce_scatter(w, f4, d8, TC_REDUCE_SUM),
             "input tensor must be the same type as the output tensor.");
    PG_FAILS(tc_broadcast(w, f4, 5), "ProcessGroupGloo::broadcast: invalid root rank: 5");
    PG_FAILS(tc_broadcast(w, f4, -1), "ProcessGroupGloo::broadcast: invalid root rank: -1");
    PG_FAILS(tc_scatter(w, f4, f8, 2), "ProcessGroupGloo::scatter: invalid root rank: 2");
    if (rank == 0)   /* only the root checks its input: rank 1 must not call */
        PG_FAILS(tc_scatter(w, f4, d8, 0), "Invalid usage of tensors with different "
                                           "dtypesFound torch.float32 and  torch.float64");
    PG_FAILS(tc_all_to_all(w, d8, f8), "Invalid usage of tensors with different dtypesFound "
                                       "torch.float64 and  torch.float32");
    PG_FAILS(tc_all_to_all(w, f5, f5), "Tensor's dim 0 does not divide equally across group "
                                       "size");
    PG_FAILS(tc_all_to_all(w, f4, f8), "all_to_all: the output and the input must have the same "
                                       "number of elements (got 4 and 8)");
    PG_FAILS(tc_barrier(NULL), "Invalid process group specified");
    tc_pg *g = (tc_pg *)1;
    PG_FAILS(tc_pg_new_group(w, 2, (const int[]){ 0, 2 }, &g),
             "The new group's rank should be within the the world_size set by "
             "init_process_group");
    RANK_EXPECT(g == NULL);
    PG_FAILS(tc_pg_new_group(w, 2, (const int[]){ 1, 1 }, &g),
             "new_group: rank 1 appears twice in ranks");
    PG_FAILS(tc_pg_new_group(w, 0, (const int[]){ 0 }, &g),
             "new_group: ranks must list at least one rank (got 0)");
    /* The group still works, and nothing was counted. */
    RANK_EXPECT(tc_all_reduce(w, f4, TC_REDUCE_SUM) == 0 && testing_get(f4, IDX(3)) == 2);
    RANK_EXPECT(tc_pg_get_stats(w).calls == 1);
    tc_release(f4);
    tc_release(f8);
    tc_release(f5);
    tc_release(d8);
    tc_release(i4);
    tc_release(b4);
    tc_release(tr);
    tc_dist_finalize();
    return bad != 0;
}

START_TEST(test_pg_errors)
{
    ranks_launch(2, pg_body_errors, NULL);
}
END_TEST

/* ------------------------------------------ timeouts and mismatches */

static bool pg_contains(const char *s, const char *part)
{
    return s && strstr(s, part) != NULL;
}

/* Rank 2 of 3 skips the second collective (it leaves); ranks 0 and 1 wait
   out the 1-second timeout, get the watchdog's message naming rank 2, and
   find the group refusing the next call. */
static int pg_body_timeout(void *arg, int rank)
{
    (void)arg;
    tc_pg *w = tc_dist_init();
    int bad = 0;
    if (!w)
        return 1;
    tc_pg_set_timeout(w, 1.0);
    RANK_EXPECT(tc_pg_timeout(w) == 1.0);
    tc_tensor *t = tc_ones(TC_SHAPE(4), TC_FLOAT32);
    RANK_EXPECT(tc_barrier(w) == 0);
    if (rank != 2) {
        double t0 = ranks_seconds();
        RANK_EXPECT(tc_all_reduce(w, t, TC_REDUCE_SUM) == -1);
        double took = ranks_seconds() - t0;
        RANK_EXPECT(took >= 0.99 && took < 4.0);
        char want[160];
        snprintf(want, sizeof want, "[Rank %d] Watchdog caught collective operation timeout: "
                 "WorkSHM(SeqNum=2, OpType=ALLREDUCE, Timeout(ms)=1000) ran for ", rank);
        RANK_EXPECT(strncmp(tc_error(), want, strlen(want)) == 0);
        RANK_EXPECT(pg_contains(tc_error(), " milliseconds before timing out. Ranks that did not "
                                          "arrive: 2"));
        PG_FAILS(tc_barrier(w), rank == 0 ? "[Rank 0] barrier: this process group failed in an "
                                            "earlier collective (a timeout or a mismatch between "
                                            "ranks) and refuses every later one"
                                          : "[Rank 1] barrier: this process group failed in an "
                                            "earlier collective (a timeout or a mismatch between "
                                            "ranks) and refuses every later one");
    }
    tc_release(t);
    tc_dist_finalize();
    return bad != 0;
}

START_TEST(test_pg_timeout)
{
    ranks_launch(3, pg_body_timeout, NULL);
}
END_TEST

/* PyTorch's TORCH_DISTRIBUTED_DEBUG=DETAIL text (torch 1.13, gloo, two
   ranks; PyTorch adds TensorDeviceTypes=..., which we leave out). */
static const char *const pg_mismatch_texts[2][2] = {
    { "Detected mismatch between collectives on ranks. Rank 0 is running collective: "
      "CollectiveFingerPrint(OpType=ALLREDUCE, TensorShape=[4], TensorDtypes=Float), but Rank 1 "
      "is running collective: CollectiveFingerPrint(OpType=BROADCAST, TensorShape=[4], "
      "TensorDtypes=Float).",
      "Detected mismatch between collectives on ranks. Rank 1 is running collective: "
      "CollectiveFingerPrint(OpType=BROADCAST, TensorShape=[4], TensorDtypes=Float), but Rank 0 "
      "is running collective: CollectiveFingerPrint(OpType=ALLREDUCE, TensorShape=[4], "
      "TensorDtypes=Float)." },
    { "Detected mismatch between collectives on ranks. Rank 0 is running collective: "
      "CollectiveFingerPrint(OpType=ALLREDUCE, TensorShape=[4, 3], TensorDtypes=Float), but Rank "
      "1 is running collective: CollectiveFingerPrint(OpType=ALLREDUCE, TensorShape=[2, 3], "
      "TensorDtypes=Double).",
      "Detected mismatch between collectives on ranks. Rank 1 is running collective: "
      "CollectiveFingerPrint(OpType=ALLREDUCE, TensorShape=[2, 3], TensorDtypes=Double), but "
      "Rank 0 is running collective: CollectiveFingerPrint(OpType=ALLREDUCE, TensorShape=[4, 3], "
      "TensorDtypes=Float)." },
};

static int pg_body_mismatch(void *arg, int rank)
{
    int which = *(const int *)arg, bad = 0;
    tc_pg *w = tc_dist_init();
    if (!w)
        return 1;
    tc_pg_set_timeout(w, 20.0);
    tc_tensor *t = which == 0 ? tc_ones(TC_SHAPE(4), TC_FLOAT32)
                 : rank == 0  ? tc_ones(TC_SHAPE(4, 3), TC_FLOAT32)
                              : tc_ones(TC_SHAPE(2, 3), TC_FLOAT64);
    PG_FAILS(which == 0 && rank == 1 ? tc_broadcast(w, t, 0) : tc_all_reduce(w, t, TC_REDUCE_SUM),
             pg_mismatch_texts[which][rank]);
    RANK_EXPECT(tc_all_reduce(w, t, TC_REDUCE_SUM) == -1);
    tc_release(t);
    tc_dist_finalize();
    return bad != 0;
}

START_TEST(test_pg_mismatch)
{
    int which = _i;
    ranks_launch(2, pg_body_mismatch, &which);
}
END_TEST

/* ------------------------------------------- printing, the lone process */

static int pg_body_print(void *arg, int rank)
{
    const char *path = arg;
    tc_pg *w = tc_dist_init();
    if (!w)
        return 1;
    FILE *f = rank == 0 ? fopen(path, "w") : NULL;
    char text[64];
    text[0] = '\0';   /* rank 1 says nothing */
    if (rank != 1)
        snprintf(text, sizeof text, "rank %d says %.*s\n", rank, rank * 3, "hello hello hello");
    int rc = tc_pg_print_ordered(w, f, text);
    int64_t calls = tc_pg_get_stats(w).calls;
    if (f)
        fclose(f);
    tc_dist_finalize();
    return rc != 0 || calls != 0;
}

START_TEST(test_pg_print_ordered)
{
    char path[] = "/tmp/tc-pg-print-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    close(fd);
    ranks_launch(3, pg_body_print, path);
    FILE *f = fopen(path, "r");
    char buf[256] = "";
    size_t got = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    unlink(path);
    buf[got] = '\0';
    ck_assert_str_eq(buf, "rank 0 says \nrank 2 says hello \n");
}
END_TEST

/* Started alone (no launcher's variables), a process is a world of one:
   the collectives are copies and move no bytes. */
START_TEST(test_pg_single)
{
    static const char *const vars[] = { "RANK", "WORLD_SIZE", "TC_DIST_BACKEND", "TC_SHM_FD",
                                        "OMPI_COMM_WORLD_SIZE", "PMIX_RANK" };
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++)
        unsetenv(vars[i]);
    int rank = 0, bad = 0;
    tc_pg *w = tc_dist_init();
    ck_assert_ptr_nonnull(w);
    ck_assert_ptr_eq(tc_dist_init(), w);
    ck_assert_ptr_eq(tc_dist_world(), w);
    ck_assert_str_eq(tc_pg_backend_name(w), "single");
    ck_assert_int_eq(tc_pg_rank(w), 0);
    ck_assert_int_eq(tc_pg_size(w), 1);
    ck_assert(tc_pg_timeout(w) == 1800);
    tc_tensor *t = tc_arange(0., 4., 1.), *out = tc_zeros(TC_SHAPE(4), TC_FLOAT32);
    RANK_EXPECT(tc_all_reduce(w, t, TC_REDUCE_AVG) == 0 && testing_get(t, IDX(3)) == 3);
    RANK_EXPECT(tc_all_gather(w, out, t) == 0 && testing_get(out, IDX(2)) == 2);
    RANK_EXPECT(tc_scatter(w, out, t, 0) == 0 && tc_all_to_all(w, out, t) == 0);
    RANK_EXPECT(tc_broadcast(w, t, 0) == 0 && tc_barrier(w) == 0);
    tc_pg_stats st = tc_pg_get_stats(w);
    RANK_EXPECT(st.calls == 6 && st.bytes_sent == 0 && st.bytes_received == 0);
    tc_pg *g;
    RANK_EXPECT(tc_pg_new_group(w, 1, (const int[]){ 0 }, &g) == 0 && tc_pg_size(g) == 1);
    RANK_EXPECT(tc_all_reduce(g, t, TC_REDUCE_MAX) == 0);
    ck_assert_int_eq(bad, 0);
    tc_release(t);
    tc_release(out);
    tc_dist_finalize();
    ck_assert_ptr_null(tc_dist_world());
    setenv("TC_DIST_BACKEND", "tcp", 1);
    ck_assert_ptr_null(tc_dist_init());
    ck_assert_str_eq(tc_error(), "TC_DIST_BACKEND=tcp: expected shm, mpi or single");
    setenv("TC_DIST_BACKEND", "shm", 1);
    ck_assert_ptr_null(tc_dist_init());
    ck_assert_str_eq(tc_error(), "Error initializing torch.distributed using env:// rendezvous: "
                                 "environment variable RANK expected, but not set");
    unsetenv("TC_DIST_BACKEND");
}
END_TEST

/* The names in /dev/shm that start with "tc-". */
static int pg_shm_names(void)
{
    DIR *d = opendir("/dev/shm");
    int n = 0;
    if (!d)
        return 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;)
        n += strncmp(e->d_name, "tc-", 3) == 0;
    closedir(d);
    return n;
}

START_TEST(test_pg_no_names_left)
{
    int before = pg_shm_names();
    ranks_launch(4, pg_body_counts, NULL);
    ck_assert_int_eq(pg_shm_names(), before);
}
END_TEST

/* Under torchrun (no TC_SHM_FD, but MASTER_PORT and TORCHELASTIC_RUN_ID):
   the named rendezvous; the name is gone once every rank has attached. */
static int pg_body_named(void *arg, int rank)
{
    const char *run = arg;
    unsetenv("TC_SHM_FD");
    setenv("MASTER_PORT", "29511", 1);
    setenv("TORCHELASTIC_RUN_ID", run, 1);
    tc_pg *w = tc_dist_init();
    int bad = 0;
    if (!w) {
        fprintf(stderr, "rank %d: %s\n", rank, tc_error());
        return 1;
    }
    tc_tensor *t = tc_full(TC_SHAPE(2), rank + 1, TC_INT64);
    RANK_EXPECT(tc_all_reduce(w, t, TC_REDUCE_SUM) == 0 && testing_get(t, IDX(1)) == 1 + 2 + 3);
    char path[160];
    snprintf(path, sizeof path, "/dev/shm/tc-%ld-%s-29511", (long)getuid(), run);
    RANK_EXPECT(access(path, F_OK) != 0);
    tc_release(t);
    tc_dist_finalize();
    return bad != 0;
}

START_TEST(test_pg_named_rendezvous)
{
    char run[64];
    snprintf(run, sizeof run, "pgtest%ld", (long)getpid());
    ranks_launch(3, pg_body_named, run);
}
END_TEST

/* Found by tests/fuzz/fuzz_dtensor: every collective of empty tensors on
   two ranks. An empty tensor has no data pointer, and the shared-memory
   backend offset it (by 0 bytes): undefined behaviour that the sanitizer
   build of this test reports. Each call succeeds and moves nothing. */
static int pg_body_empty(void *arg, int rank)
{
    tc_pg *w = tc_dist_init();
    tc_tensor *a = tc_empty(TC_SHAPE(0), TC_FLOAT32), *b = tc_empty(TC_SHAPE(0), TC_FLOAT32);
    int bad = 0;

    (void)arg;
    if (w == NULL || a == NULL || b == NULL)
        return 2;
    bad += tc_all_reduce(w, a, TC_REDUCE_SUM) != 0;
    bad += tc_all_gather(w, a, b) != 0;
    bad += tc_reduce_scatter(w, a, b, TC_REDUCE_MAX) != 0;
    bad += tc_broadcast(w, a, 1) != 0;
    bad += tc_scatter(w, a, rank == 0 ? b : NULL, 0) != 0;
    bad += tc_all_to_all(w, a, b) != 0;
    if (bad)
        fprintf(stderr, "rank %d: %d collectives of empty tensors failed: %s\n", rank, bad,
                tc_error());
    tc_release(a);
    tc_release(b);
    tc_dist_finalize();
    return bad != 0;
}

START_TEST(test_pg_empty_tensors)
{
    ranks_launch(2, pg_body_empty, NULL);
}
END_TEST

static void ch09_add_pg(Suite *s)
{
    TCase *tc = tcase_create("ch09_pg");
    tcase_set_timeout(tc, 600);
    tcase_add_loop_test(tc, test_pg_collectives, 0, 5);
    tcase_add_test(tc, test_pg_counts);
    tcase_add_test(tc, test_pg_empty_tensors);
    tcase_add_test(tc, test_pg_groups);
    tcase_add_test(tc, test_pg_errors);
    tcase_add_test(tc, test_pg_timeout);
    tcase_add_loop_test(tc, test_pg_mismatch, 0, 2);
    tcase_add_test(tc, test_pg_print_ordered);
    tcase_add_test(tc, test_pg_single);
    tcase_add_test(tc, test_pg_no_names_left);
    tcase_add_test(tc, test_pg_named_rendezvous);
    suite_add_tcase(s, tc);
}
