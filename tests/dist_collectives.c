/* dist_collectives.c: every collective of chapter 9, on every dtype and
   reduction it takes and on a few sizes (one element, uneven, larger than
   the shared-memory backend's buffers), on the world and on a sub-group,
   against the serial result that each rank computes itself: the inputs are
   a function of (rank, index), so every rank knows every rank's input.

   It prints, through rank 0 (tc_pg_print_ordered), one block per case: for
   each rank OK or what differs, a checksum of the result's bits, and the
   bytes the call counted (checked against the rule of the section on the
   byte counts, worked out here independently). Nothing in it depends on
   the backend or the launcher, so tests/run.sh runs it under `tcrun -n k`
   and under `tests/mpirun.sh -n k` (the MPI build) for k = 1, 2, 3, 4, 8
   and requires the same report and exit status 0 from both.

   The float inputs mix magnitudes (a rank's values are scaled by 2^-6r or
   2^-20r), so that a sum in another order than the left fold in rank
   order, ((x0 + x1) + x2) ..., gives other bits: the report's checksums
   prove the fixed order, not only values close enough. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tc.h"

/* ---- inputs and the serial reference -------------------------------------- */

static uint64_t mix(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return x;
}

/* Element i of world rank r's input for case `salt`. */
static void input_value(tc_dtype dtype, int r, int64_t i, uint64_t salt, void *out)
{
    uint64_t h = mix(salt * 0x9e3779b97f4a7c15ULL + (uint64_t)r * 0x100000001b3ULL + (uint64_t)i);
    int64_t small = (int64_t)(h % 20001) - 10000;

    switch (dtype) {
    case TC_FLOAT32: *(float *)out = ldexpf((float)small, -6 * (r % 4)); break;
    case TC_FLOAT64: *(double *)out = ldexp((double)small, -20 * (r % 4)); break;
    case TC_INT64: *(int64_t *)out = (int64_t)(h % (1ULL << 41)) - (1LL << 40); break;
    default: *(unsigned char *)out = (unsigned char)(h & 1); break;
    }
}

static void fill(tc_tensor *t, int r, int64_t first, uint64_t salt)
{
    size_t item = tc_itemsize(t->dtype);
    char *p = tc_data_ptr(t);

    for (int64_t i = 0; i < tc_numel(t); i++)
        input_value(t->dtype, r, first + i, salt, p + (size_t)i * item);
}

/* acc = acc op x, for one element: MIN and MAX as gloo's std::min and
   std::max (x replaces acc only when it compares less, or greater: a NaN
   in acc stays, a NaN in x is dropped); int64 sums wrap. */
static void fold_one(tc_dtype dtype, tc_reduce_op op, void *acc, const void *x)
{
    if (dtype == TC_FLOAT32) {
        float a = *(float *)acc, b = *(const float *)x;
        *(float *)acc = op == TC_REDUCE_MIN ? (b < a ? b : a) : op == TC_REDUCE_MAX ? (a < b ? b : a) : a + b;
    } else if (dtype == TC_FLOAT64) {
        double a = *(double *)acc, b = *(const double *)x;
        *(double *)acc = op == TC_REDUCE_MIN ? (b < a ? b : a) : op == TC_REDUCE_MAX ? (a < b ? b : a) : a + b;
    } else {
        int64_t a = *(int64_t *)acc, b = *(const int64_t *)x;
        *(int64_t *)acc = op == TC_REDUCE_MIN   ? (b < a ? b : a)
                          : op == TC_REDUCE_MAX ? (a < b ? b : a)
                                                : (int64_t)((uint64_t)a + (uint64_t)b);
    }
}

/* The reduction over the group's ranks (world ranks ranks[0..n-1], in that
   order) of input element i: the left fold, then / n for AVG. */
static void reduce_serial(tc_dtype dtype, tc_reduce_op op, int n, const int *ranks, int64_t i,
                          uint64_t salt, void *out)
{
    tc_reduce_op fold = op == TC_REDUCE_AVG ? TC_REDUCE_SUM : op;
    char x[8];

    input_value(dtype, ranks[0], i, salt, out);
    for (int k = 1; k < n; k++) {
        input_value(dtype, ranks[k], i, salt, x);
        fold_one(dtype, fold, out, x);
    }
    if (op == TC_REDUCE_AVG && dtype == TC_FLOAT32)
        *(float *)out = *(float *)out / (float)n;
    else if (op == TC_REDUCE_AVG)
        *(double *)out = *(double *)out / (double)n;
}

/* ---- one case ---------------------------------------------------------------- */

typedef struct {
    tc_pg *pg;
    int n, rank;               /* the group's size and this rank in it */
    const int *ranks;          /* world rank of each group rank */
    int failures;
    int cases;
    char *keep;                /* not NULL: append the lines here (sub-group) */
    size_t keep_size;
} run;

static uint64_t checksum(const tc_tensor *t)
{
    const unsigned char *p = tc_data_ptr(t);
    uint64_t h = 0xcbf29ce484222325ULL;
    size_t bytes = (size_t)tc_numel(t) * tc_itemsize(t->dtype);

    for (size_t i = 0; i < bytes; i++)
        h = (h ^ p[i]) * 0x100000001b3ULL;
    return h;
}

/* Compare got with the expected values (want, the same shape); write what
   differs, or "OK", into line. */
static bool same_bits(const tc_tensor *got, const tc_tensor *want, char *line, size_t size)
{
    size_t item = tc_itemsize(got->dtype);
    const char *g = tc_data_ptr(got), *w = tc_data_ptr(want);

    for (int64_t i = 0; i < tc_numel(got); i++)
        if (memcmp(g + (size_t)i * item, w + (size_t)i * item, item) != 0) {
            snprintf(line, size, "FAIL: element %lld differs from the serial result",
                     (long long)i);
            return false;
        }
    snprintf(line, size, "OK");
    return true;
}

/* Finish a case: check the result and the counts, and print the block. */
static void report(run *R, const char *title, int rc, const tc_tensor *got,
                   const tc_tensor *want, int64_t sent, int64_t received)
{
    char verdict[160], text[512];
    tc_pg_stats st = tc_pg_get_stats(R->pg);
    bool ok;

    if (rc != 0) {
        snprintf(verdict, sizeof verdict, "FAIL: %s", tc_error());
        ok = false;
    } else if (got != NULL) {
        ok = same_bits(got, want, verdict, sizeof verdict);
    } else {
        snprintf(verdict, sizeof verdict, "OK");
        ok = true;
    }
    if (ok && (st.calls != 1 || st.bytes_sent != sent || st.bytes_received != received ||
               st.padding_sent != 0 || st.padding_received != 0)) {
        snprintf(verdict, sizeof verdict,
                 "FAIL: counted %lld call(s), %lld sent, %lld received; the rule says 1, %lld, %lld",
                 (long long)st.calls, (long long)st.bytes_sent, (long long)st.bytes_received,
                 (long long)sent, (long long)received);
        ok = false;
    }
    R->cases++;
    R->failures += !ok;
    snprintf(text, sizeof text, "%s%s  rank %d: %s  %016llx  sent %lld received %lld\n",
             R->rank == 0 || R->keep != NULL ? title : "", R->rank == 0 || R->keep != NULL ? "\n" : "",
             R->rank, verdict, got != NULL && rc == 0 ? (unsigned long long)checksum(got) : 0ULL,
             (long long)st.bytes_sent, (long long)st.bytes_received);
    tc_pg_reset_stats(R->pg);
    if (R->keep != NULL) {
        size_t used = strlen(R->keep);
        snprintf(R->keep + used, R->keep_size - used, "%s", text);
    } else if (tc_pg_print_ordered(R->pg, stdout, text) != 0) {
        fprintf(stderr, "dist_collectives: tc_pg_print_ordered: %s\n", tc_error());
        R->failures++;
    }
}

static const char *dtype_name(tc_dtype d)
{
    return d == TC_FLOAT32 ? "float32" : d == TC_FLOAT64 ? "float64" : d == TC_INT64 ? "int64" : "bool";
}

/* The torch.chunk rule: chunk r of count elements cut in n. */
static int64_t chunk(int64_t count, int n, int r)
{
    int64_t per = (count + n - 1) / n, start = per * r < count ? per * r : count;

    return count - start < per ? count - start : per;
}

/* ---- the collectives ---------------------------------------------------------- */

static void case_all_reduce(run *R, tc_dtype dtype, tc_reduce_op op, int64_t count, uint64_t salt)
{
    tc_tensor *t = tc_empty(TC_SHAPE(count), dtype), *want = tc_empty(TC_SHAPE(count), dtype);
    size_t item = tc_itemsize(dtype);
    int64_t S = count * (int64_t)item, c = chunk(count, R->n, R->rank) * (int64_t)item;
    char title[128];
    int rc;

    fill(t, R->ranks[R->rank], 0, salt);
    for (int64_t i = 0; i < count; i++)
        reduce_serial(dtype, op, R->n, R->ranks, i, salt, (char *)tc_data_ptr(want) + (size_t)i * item);
    rc = tc_all_reduce(R->pg, t, op);
    snprintf(title, sizeof title, "all_reduce %s %s numel=%lld", dtype_name(dtype),
             tc_reduce_op_name(op), (long long)count);
    report(R, title, rc, t, want, R->n == 1 ? 0 : (S - c) + c * (R->n - 1),
           R->n == 1 ? 0 : c * (R->n - 1) + (S - c));
    tc_release(t);
    tc_release(want);
}

static void case_reduce_scatter(run *R, tc_dtype dtype, tc_reduce_op op, int64_t count,
                                uint64_t salt)
{
    tc_tensor *in = tc_empty(TC_SHAPE(count * R->n), dtype);
    tc_tensor *out = tc_empty(TC_SHAPE(count), dtype), *want = tc_empty(TC_SHAPE(count), dtype);
    size_t item = tc_itemsize(dtype);
    int64_t S = count * (int64_t)item;
    char title[128];
    int rc;

    fill(in, R->ranks[R->rank], 0, salt);
    for (int64_t i = 0; i < count; i++)
        reduce_serial(dtype, op, R->n, R->ranks, R->rank * count + i, salt,
                      (char *)tc_data_ptr(want) + (size_t)i * item);
    rc = tc_reduce_scatter(R->pg, out, in, op);
    snprintf(title, sizeof title, "reduce_scatter %s %s numel=%lld per rank", dtype_name(dtype),
             tc_reduce_op_name(op), (long long)count);
    report(R, title, rc, out, want, S * (R->n - 1), S * (R->n - 1));
    tc_release(in);
    tc_release(out);
    tc_release(want);
}

static void case_all_gather(run *R, tc_dtype dtype, int64_t count, uint64_t salt)
{
    tc_tensor *in = tc_empty(TC_SHAPE(count), dtype);
    tc_tensor *out = tc_empty(TC_SHAPE(count * R->n), dtype);
    tc_tensor *want = tc_empty(TC_SHAPE(count * R->n), dtype);
    size_t item = tc_itemsize(dtype);
    int64_t S = count * (int64_t)item;
    char title[128];
    int rc;

    fill(in, R->ranks[R->rank], 0, salt);
    for (int k = 0; k < R->n; k++)
        for (int64_t i = 0; i < count; i++)
            input_value(dtype, R->ranks[k], i, salt,
                        (char *)tc_data_ptr(want) + (size_t)(k * count + i) * item);
    rc = tc_all_gather(R->pg, out, in);
    snprintf(title, sizeof title, "all_gather %s numel=%lld per rank", dtype_name(dtype),
             (long long)count);
    report(R, title, rc, out, want, S * (R->n - 1), S * (R->n - 1));
    tc_release(in);
    tc_release(out);
    tc_release(want);
}

static void case_broadcast(run *R, tc_dtype dtype, int64_t count, int root, uint64_t salt)
{
    tc_tensor *t = tc_empty(TC_SHAPE(count), dtype), *want = tc_empty(TC_SHAPE(count), dtype);
    int64_t S = count * (int64_t)tc_itemsize(dtype);
    char title[128];
    int rc;

    fill(t, R->ranks[R->rank], 0, salt);
    fill(want, R->ranks[root], 0, salt);
    rc = tc_broadcast(R->pg, t, root);
    snprintf(title, sizeof title, "broadcast %s numel=%lld root=%d", dtype_name(dtype),
             (long long)count, root);
    report(R, title, rc, t, want, R->rank == root ? S * (R->n - 1) : 0,
           R->rank == root ? 0 : S);
    tc_release(t);
    tc_release(want);
}

static void case_scatter(run *R, tc_dtype dtype, int64_t count, int root, uint64_t salt)
{
    tc_tensor *in = R->rank == root ? tc_empty(TC_SHAPE(count * R->n), dtype) : NULL;
    tc_tensor *out = tc_empty(TC_SHAPE(count), dtype), *want = tc_empty(TC_SHAPE(count), dtype);
    int64_t S = count * (int64_t)tc_itemsize(dtype);
    char title[128];
    int rc;

    if (in != NULL)
        fill(in, R->ranks[root], 0, salt);
    fill(want, R->ranks[root], R->rank * count, salt);
    rc = tc_scatter(R->pg, out, in, root);
    snprintf(title, sizeof title, "scatter %s numel=%lld per rank root=%d", dtype_name(dtype),
             (long long)count, root);
    report(R, title, rc, out, want, R->rank == root ? S * (R->n - 1) : 0,
           R->rank == root ? 0 : S);
    tc_release(in);
    tc_release(out);
    tc_release(want);
}

static void case_all_to_all(run *R, tc_dtype dtype, int64_t count, uint64_t salt)
{
    tc_tensor *in = tc_empty(TC_SHAPE(count * R->n), dtype);
    tc_tensor *out = tc_empty(TC_SHAPE(count * R->n), dtype);
    tc_tensor *want = tc_empty(TC_SHAPE(count * R->n), dtype);
    size_t item = tc_itemsize(dtype);
    int64_t S = count * (int64_t)item;
    char title[128];
    int rc;

    fill(in, R->ranks[R->rank], 0, salt);
    /* slice k of my out is slice (my rank) of rank k's in */
    for (int k = 0; k < R->n; k++)
        for (int64_t i = 0; i < count; i++)
            input_value(dtype, R->ranks[k], R->rank * count + i, salt,
                        (char *)tc_data_ptr(want) + (size_t)(k * count + i) * item);
    rc = tc_all_to_all(R->pg, out, in);
    snprintf(title, sizeof title, "all_to_all %s numel=%lld per peer", dtype_name(dtype),
             (long long)count);
    report(R, title, rc, out, want, S * (R->n - 1), S * (R->n - 1));
    tc_release(in);
    tc_release(out);
    tc_release(want);
}

/* MIN and MAX with NaNs: world rank r's element r % 7 is a NaN. Whether
   a NaN survives depends on the order (it stays when it is in the running
   value, it is dropped when it comes later), so this pins the order too. */
static float nan_input(int r, int64_t i)
{
    float x;

    input_value(TC_FLOAT32, r, i, 99, &x);
    return i == r % 7 ? NAN : x;
}

static void case_nan(run *R, tc_reduce_op op)
{
    tc_tensor *t = tc_empty(TC_SHAPE(7), TC_FLOAT32), *want = tc_empty(TC_SHAPE(7), TC_FLOAT32);
    float *p = tc_data_ptr(t), *w = tc_data_ptr(want);
    int64_t c = 4 * chunk(7, R->n, R->rank);
    char title[128];
    int rc;

    for (int64_t i = 0; i < 7; i++) {
        p[i] = nan_input(R->ranks[R->rank], i);
        w[i] = nan_input(R->ranks[0], i);
        for (int k = 1; k < R->n; k++) {
            float x = nan_input(R->ranks[k], i);
            fold_one(TC_FLOAT32, op, &w[i], &x);
        }
    }
    rc = tc_all_reduce(R->pg, t, op);
    snprintf(title, sizeof title, "all_reduce float32 %s numel=7, a NaN in element rank %% 7",
             tc_reduce_op_name(op));
    report(R, title, rc, t, want, R->n == 1 ? 0 : (28 - c) + c * (R->n - 1),
           R->n == 1 ? 0 : c * (R->n - 1) + (28 - c));
    tc_release(t);
    tc_release(want);
}

static void every_collective(run *R, bool quick)
{
    static const tc_dtype reduced[] = { TC_FLOAT32, TC_FLOAT64, TC_INT64 };
    static const tc_dtype moved[] = { TC_FLOAT32, TC_FLOAT64, TC_INT64, TC_BOOL };
    static const tc_reduce_op ops[] = { TC_REDUCE_SUM, TC_REDUCE_AVG, TC_REDUCE_MIN, TC_REDUCE_MAX };
    /* none, one element, uneven over every group size, and, for float32 only
       (to keep the run short), just over 1 MiB: more than the
       shared-memory backend's buffers, so that it goes in pieces */
    const int64_t sizes[] = { 0, 1, 7, 1000 };
    const int64_t large = quick ? 5000 : (1 << 18) + 3;
    const int64_t large_unit = (large + R->n - 1) / R->n;
    uint64_t salt = 1;

    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++)
        for (size_t d = 0; d < 3; d++)
            for (size_t o = 0; o < 4; o++)
                if (ops[o] != TC_REDUCE_AVG || reduced[d] != TC_INT64)
                    case_all_reduce(R, reduced[d], ops[o], sizes[s], salt++);
    case_all_reduce(R, TC_FLOAT32, TC_REDUCE_SUM, large, salt++);
    case_nan(R, TC_REDUCE_MIN);
    case_nan(R, TC_REDUCE_MAX);
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++)
        for (size_t d = 0; d < 3; d++)
            for (size_t o = 0; o < 4; o++)
                if (ops[o] != TC_REDUCE_AVG || reduced[d] != TC_INT64)
                    case_reduce_scatter(R, reduced[d], ops[o], sizes[s], salt++);
    case_reduce_scatter(R, TC_FLOAT32, TC_REDUCE_SUM, large_unit, salt++);
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++)
        for (size_t d = 0; d < 4; d++) {
            case_all_gather(R, moved[d], sizes[s], salt++);
            case_broadcast(R, moved[d], sizes[s], 0, salt++);
            case_broadcast(R, moved[d], sizes[s], R->n - 1, salt++);
            case_scatter(R, moved[d], sizes[s], R->n - 1, salt++);
            case_all_to_all(R, moved[d], sizes[s], salt++);
        }
    case_all_gather(R, TC_FLOAT32, large_unit, salt++);
    case_broadcast(R, TC_FLOAT32, large, 0, salt++);
    case_scatter(R, TC_FLOAT32, large_unit, 0, salt++);
    case_all_to_all(R, TC_FLOAT32, large_unit, salt++);
    report(R, "barrier", tc_barrier(R->pg), NULL, NULL, 0, 0);
}

/* A sub-group: the odd world ranks from the highest down (rank 0 alone on
   a world of 1), so that group rank i is not world rank i. Its lines are
   printed through the world, in world rank order: one stream (rank 0's)
   carries the whole report, whatever the launcher does with the others. */
static void sub_group(run *W)
{
    int n = W->n, ranks[64], k = 0;
    tc_pg *group = NULL;
    char text[2048] = "";

    for (int r = n - 1; r >= 0; r--)
        if (r % 2 == 1 || n == 1)
            ranks[k++] = r;
    if (tc_pg_new_group(W->pg, k, ranks, &group) != 0) {
        snprintf(text, sizeof text, "world rank %d: tc_pg_new_group failed: %s\n", W->rank,
                 tc_error());
        W->failures++;
    } else if (group != NULL) {
        run R = { .pg = group, .n = k, .rank = tc_pg_rank(group), .ranks = ranks,
                  .keep = text, .keep_size = sizeof text };
        size_t used = (size_t)snprintf(text, sizeof text, "world rank %d is group rank %d of %d\n",
                                       W->rank, R.rank, k);
        R.keep = text + used;
        R.keep_size = sizeof text - used;
        case_all_reduce(&R, TC_FLOAT64, TC_REDUCE_SUM, 7, 1001);
        case_all_gather(&R, TC_INT64, 3, 1002);
        case_broadcast(&R, TC_FLOAT32, 5, k - 1, 1003);
        W->failures += R.failures;
        W->cases += R.cases;
        tc_pg_free(group);
    } else {
        snprintf(text, sizeof text, "world rank %d is not in the group\n", W->rank);
    }
    if (tc_pg_print_ordered(W->pg, stdout, text) != 0) {
        fprintf(stderr, "dist_collectives: tc_pg_print_ordered: %s\n", tc_error());
        W->failures++;
    }
}

int main(int argc, char **argv)
{
    bool quick = argc > 1 && strcmp(argv[1], "--quick") == 0;
    tc_pg *world = tc_dist_init();
    int ranks[64];
    tc_tensor *total;
    char line[128];

    if (world == NULL) {
        fprintf(stderr, "dist_collectives: %s\n", tc_error());
        return 1;
    }
    if (tc_pg_size(world) > 64) {
        fprintf(stderr, "dist_collectives: at most 64 ranks\n");
        return 1;
    }
    for (int r = 0; r < tc_pg_size(world); r++)
        ranks[r] = r;
    run R = { .pg = world, .n = tc_pg_size(world), .rank = tc_pg_rank(world), .ranks = ranks };
    if (R.rank == 0)
        printf("world size %d\n", R.n);
    fflush(stdout);
    every_collective(&R, quick);
    if (R.rank == 0)
        printf("sub-group: the odd world ranks from the highest down\n");
    fflush(stdout);
    sub_group(&R);

    /* the totals over every rank */
    total = tc_empty(TC_SHAPE(2), TC_INT64);
    ((int64_t *)tc_data_ptr(total))[0] = R.cases;
    ((int64_t *)tc_data_ptr(total))[1] = R.failures;
    if (tc_all_reduce(world, total, TC_REDUCE_SUM) != 0) {
        fprintf(stderr, "dist_collectives: %s\n", tc_error());
        R.failures++;
    } else if (R.rank == 0) {
        snprintf(line, sizeof line, "%lld checks over every rank, %lld failed\n",
                 (long long)((int64_t *)tc_data_ptr(total))[0],
                 (long long)((int64_t *)tc_data_ptr(total))[1]);
        fputs(line, stdout);
    }
    fflush(stdout);
    tc_release(total);
    bool mpi = strcmp(tc_pg_backend_name(world), "mpi") == 0;
    tc_dist_finalize();
    /* MPI starts once per process: the MPI backend refuses a second world,
       with a message (silent when it does, so the report stays the same) */
    if (mpi) {
        tc_pg *again = tc_dist_init();
        if (again != NULL || tc_error() == NULL || !strstr(tc_error(), "cannot start again")) {
            fprintf(stderr, "dist_collectives: tc_dist_init after tc_dist_finalize under MPI: %s\n",
                    again != NULL ? "started" : tc_error() ? tc_error() : "no message");
            R.failures++;
        }
    }
    return R.failures != 0;
}
