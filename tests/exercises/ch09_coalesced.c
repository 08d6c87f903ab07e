/* Exercise 9.3: many tensors in one collective,
   int tc_all_reduce_coalesced(tc_pg *pg, int n, tc_tensor *const tensors[],
                               tc_reduce_op op):
   torch.distributed.all_reduce_coalesced (PyTorch 1.13, gloo): every
   tensor reduced in place as tc_all_reduce would, but in ONE collective:
   the group counts one call, and the bytes of one all_reduce of all their
   bytes together (the rule of the section on the counts, with S the sum of
   the tensors' bytes and the chunks cut over all their elements in order).
   That is what DDP's gradient buckets buy: one collective's latency for
   many small gradients. Messages, from torch 1.13's gloo:
   tensors of two dtypes: "Invalid usage of tensors with different
   dtypesFound torch.float32 and  torch.int64" (sic: no space after
   "dtypes", two before the second dtype); no tensor: "ProcessGroupGloo::
   allreduce_coalesced: requires non-empty tensor list" (one line, no
   space after "::"). A refused call leaves the group usable.

   The test starts 3 ranks (tc_launch_fn): 13 elements do not cut evenly in
   3 chunks (5, 5 and 3 elements), so the ranks' counts differ. */
#include "exercise.h"

int tc_all_reduce_coalesced(tc_pg *pg, int n, tc_tensor *const tensors[], tc_reduce_op op)
    TC_EXERCISE_WEAK;

enum { RANKS = 3 };

/* Rank r's element i of the three tensors, read as one list: i * (r + 1) + r. */
static double value(int r, int64_t i) { return (double)(i * (r + 1) + r); }

static int ranks_body(void *arg, int rank)
{
    tc_pg *world = tc_dist_init();
    tc_tensor *t[3] = { tc_empty(TC_SHAPE(5), TC_FLOAT32), tc_empty(TC_SHAPE(2, 3), TC_FLOAT32),
                        tc_empty(TC_SHAPE(2), TC_FLOAT32) };
    tc_tensor *other = tc_zeros(TC_SHAPE(2), TC_INT64);
    tc_pg_stats before, after;
    /* S = 13 float32 = 52 bytes; chunks of 5, 5, 3 elements: 20, 20, 12
       bytes. sent = received = (S - c) + c (n - 1). */
    static const int64_t want_bytes[RANKS] = { 32 + 40, 32 + 40, 40 + 24 };

    (void)arg;
    if (rank != 0 && freopen("/dev/null", "w", stdout) == NULL)
        return 2;
    if (world == NULL || t[0] == NULL || t[1] == NULL || t[2] == NULL || other == NULL) {
        printf("    cannot set the test up: %s\n", tc_error());
        exercise_missing++;
        goto out;
    }
    for (int64_t i = 0, k = 0; k < 3; k++)
        for (int64_t j = 0; j < tc_numel(t[k]); j++, i++)
            tc_store(t[k], j, value(rank, i));
    before = tc_pg_get_stats(world);
    EXPECT(tc_all_reduce_coalesced(world, 3, t, TC_REDUCE_SUM) == 0,
           "all_reduce_coalesced of 3 tensors failed: %s", tc_error());
    after = tc_pg_get_stats(world);
    for (int64_t i = 0, k = 0; k < 3; k++)
        for (int64_t j = 0; j < tc_numel(t[k]); j++, i++) {
            double want = value(0, i) + value(1, i) + value(2, i);
            EXPECT(tc_load(t[k], j) == want, "tensor %lld, element %lld is %g, want %g",
                   (long long)k, (long long)j, tc_load(t[k], j), want);
        }
    EXPECT(after.calls - before.calls == 1, "the group counted %lld calls, want 1",
           (long long)(after.calls - before.calls));
    EXPECT(after.bytes_sent - before.bytes_sent == want_bytes[rank]
           && after.bytes_received - before.bytes_received == want_bytes[rank],
           "rank %d sent %lld and received %lld bytes, want %lld and %lld", rank,
           (long long)(after.bytes_sent - before.bytes_sent),
           (long long)(after.bytes_received - before.bytes_received),
           (long long)want_bytes[rank], (long long)want_bytes[rank]);
    /* MAX of [r, -r] over the ranks is [2, 0]. */
    tc_store(t[2], 0, rank), tc_store(t[2], 1, -rank);
    EXPECT(tc_all_reduce_coalesced(world, 1, &t[2], TC_REDUCE_MAX) == 0
           && tc_load(t[2], 0) == 2 && tc_load(t[2], 1) == 0,
           "all_reduce_coalesced with MAX of [r, -r] should give [2, 0]: %s",
           tc_error() != NULL ? tc_error() : "other values");
    tc_clear_error();
    expect_error("tensors of two dtypes",
                 tc_all_reduce_coalesced(world, 2, (tc_tensor *[]){ t[0], other }, TC_REDUCE_SUM)
                     == 0 ? (void *)t : NULL,
                 "Invalid usage of tensors with different dtypesFound torch.float32 and  torch.int64");
    expect_error("no tensor", tc_all_reduce_coalesced(world, 0, t, TC_REDUCE_SUM) == 0 ? (void *)t : NULL,
                 "ProcessGroupGloo::allreduce_coalesced: requires non-empty tensor list");
    EXPECT(tc_all_reduce(world, other, TC_REDUCE_SUM) == 0,
           "the group should still work after a refused call: %s", tc_error());
out:
    tc_clear_error();
    fflush(stdout);
    if (world != NULL)
        tc_barrier(world);
    for (int k = 0; k < 3; k++)
        tc_release(t[k]);
    tc_release(other);
    tc_dist_finalize();
    return exercise_missing > 0 ? 1 : 0;
}

int main(void)
{
    if (tc_all_reduce_coalesced == NULL)
        return exercise_not_started("ch09_coalesced", "tc_all_reduce_coalesced");
    exercise_on_ranks(RANKS, ranks_body);
    return exercise_verdict("ch09_coalesced");
}
