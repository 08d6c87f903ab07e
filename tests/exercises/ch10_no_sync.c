/* Exercise 10.3: gradient accumulation, DDP's no_sync(),
   bool tc_ddp_set_require_backward_grad_sync(tc_ddp *d, bool sync):
   PyTorch 1.13's `with ddp.no_sync():` sets the reducer's
   require_backward_grad_sync to False, and restores it on leaving. While it
   is false, a backward pass only accumulates each rank's own gradients:
   the reducer neither fills a bucket nor communicates. The next pass with
   it true averages what has accumulated since the last synchronised pass.
   Returns the previous setting (true for a new reducer), as
   ag_set_grad_enabled does for grad mode.

   The test starts 2 ranks (tc_launch_fn). Each has one parameter w of 3
   elements, the same on both, and computes loss = (w * x).sum(), whose
   gradient is x, a different x on each rank and in each pass:
       pass 1, no_sync:  x = [1 + r, 2, -r]   grad: rank 0 [1, 2, 0], rank 1 [2, 2, -1]
       pass 2, synced:   x = [0.5, r, 3]      grad: the mean over the ranks of
                         [1.5, 2, 3] and [2.5, 3, 2]: [2, 2.5, 2.5] on both
       pass 3, synced, after zero_grad: x = [1 + r, 2, -r]   grad: [1.5, 2, -0.5]
   (small binary fractions: every sum and mean is exact in float32). The
   same three passes in torch 1.13, DistributedDataParallel over gloo on 2
   processes (torch.multiprocessing.spawn), with `with ddp.no_sync():`
   around pass 1, print these grads. The world's group counts no collective
   during pass 1. */
#include "exercise.h"

bool tc_ddp_set_require_backward_grad_sync(tc_ddp *d, bool sync) TC_EXERCISE_WEAK;

enum { RANKS = 2 };

/* (w * x).sum().backward() */
static int pass(tc_tensor *w, const float *xs)
{
    tc_tensor *x = tc_from_data(TC_SHAPE(3), TC_FLOAT32, xs);
    tc_tensor *wx = ag_mul(w, x), *loss = ag_sum(wx);
    int status = loss != NULL ? ag_backward(loss, NULL, false) : -1;

    tc_release(x), tc_release(wx), tc_release(loss);
    return status;
}

static void expect_grad(const char *what, const tc_tensor *w, double a, double b, double c)
{
    expect_values(what, ag_grad(w), 3, (const double[]){ a, b, c });
}

static int ranks_body(void *arg, int rank)
{
    static const float w0[] = { 0.25f, -1, 2 };
    tc_pg *world = tc_dist_init();
    tc_tensor *w = tc_from_data(TC_SHAPE(3), TC_FLOAT32, w0);
    tc_ddp *ddp = NULL;
    tc_pg_stats before, after;
    float r = (float)rank;

    (void)arg;
    if (rank != 0 && freopen("/dev/null", "w", stdout) == NULL)
        return 2;
    if (world == NULL || w == NULL || ag_set_requires_grad(w, true) < 0
        || (ddp = tc_ddp_new(world, 1, &w, (int64_t)25 << 20)) == NULL) {
        printf("    cannot set the test up: %s\n", tc_error());
        exercise_missing++;
        goto out;
    }
    EXPECT(tc_ddp_set_require_backward_grad_sync(ddp, false) == true,
           "a new reducer should synchronise: the previous setting should be true");
    before = tc_pg_get_stats(world);
    EXPECT(pass(w, (const float[]){ 1 + r, 2, -r }) == 0, "pass 1 failed: %s", tc_error() ? tc_error() : "");
    after = tc_pg_get_stats(world);
    EXPECT(after.calls == before.calls, "pass 1 (no_sync) communicated: %lld collective(s)",
           (long long)(after.calls - before.calls));
    if (rank == 0)
        expect_grad("rank 0's grad after pass 1 (its own)", w, 1, 2, 0);
    else
        expect_grad("rank 1's grad after pass 1 (its own)", w, 2, 2, -1);
    EXPECT(tc_ddp_set_require_backward_grad_sync(ddp, true) == false,
           "the previous setting should be false");
    EXPECT(pass(w, (const float[]){ 0.5f, r, 3 }) == 0, "pass 2 failed: %s", tc_error() ? tc_error() : "");
    expect_grad("the grad after pass 2 (accumulated, then averaged)", w, 2, 2.5, 2.5);
    EXPECT(ag_zero_grad(w, false) == 0, "zero_grad failed");
    EXPECT(pass(w, (const float[]){ 1 + r, 2, -r }) == 0, "pass 3 failed: %s", tc_error() ? tc_error() : "");
    expect_grad("the grad after pass 3 (averaged)", w, 1.5, 2, -0.5);
out:
    tc_clear_error();
    fflush(stdout);
    if (ddp != NULL)
        tc_ddp_free(ddp);
    tc_release(w);
    tc_dist_finalize();
    return exercise_missing > 0 ? 1 : 0;
}

int main(void)
{
    if (tc_ddp_set_require_backward_grad_sync == NULL)
        return exercise_not_started("ch10_no_sync", "tc_ddp_set_require_backward_grad_sync");
    exercise_on_ranks(RANKS, ranks_body);
    return exercise_verdict("ch10_no_sync");
}
