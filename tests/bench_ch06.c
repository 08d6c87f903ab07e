/* bench_ch06.c: what the fused cross-entropy costs. Forward and backward
   of the mean loss of N x C = 1024 x 1000 float32 logits with int64
   targets (ag_cross_entropy_fused, then ag_backward, the logits' grad
   dropped before each run as PyTorch's script sets x.grad = None), against
   the memory traffic the loss cannot avoid: a memcpy of the same bytes,
   reading the logits and writing their gradient, timed in the same run.
   Each on one thread (chapter 6's loss, whose rows chapter 7 splits) and
   on every core (tc_get_num_threads() at start, our default). Then each of
   the two passes alone (the kernels: the forward without and with the
   gradient it computes ahead for a grad_output of 1, which the ag_ node
   then hands on, and the backward that recomputes it), the largest error of the loss's
   float32 exp over its whole normal range, and PyTorch's
   F.cross_entropy(x, t).backward() on the same shape, measured in the
   same run by tests/bench_torch_ch06.py on one thread and on every core:
   each compared with ours on as many threads. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "tc.h"

enum { N = 1024, C = 1000, RUNS = 50 };

static tc_tensor *logits, *targets, *loss, *stats, *ahead;
static float *copy_to;

static void run_memcpy(void *arg)
{
    (void)arg;
    memcpy(copy_to, tc_data_ptr(logits), (size_t)N * C * sizeof(float));
    bench_escape(copy_to);
}

static void run_fused(void *arg)
{
    tc_tensor *l;

    (void)arg;
    ag_zero_grad(logits, true);
    l = ag_cross_entropy_fused(logits, targets, NULL, TC_REDUCTION_MEAN, -100, 0.0);
    if (l == NULL || ag_backward(l, NULL, false) < 0)
        printf("  failed: %s\n", tc_error());
    tc_release(l);
}

static void run_forward(void *arg)
{
    (void)arg;
    tc_release(loss);
    tc_release(stats);
    tc_cross_entropy_fused_forward(logits, targets, NULL, TC_REDUCTION_MEAN, -100, 0.0, &loss,
                                   &stats, arg == NULL ? NULL : &ahead);
    tc_release(ahead);
    ahead = NULL;
}

static void run_backward(void *arg)
{
    tc_tensor *grad = NULL;

    tc_cross_entropy_fused_backward(arg, logits, targets, NULL, TC_REDUCTION_MEAN, -100, 0.0,
                                    stats, &grad, NULL, NULL);
    bench_escape(grad);
    tc_release(grad);
}

/* The logits 2 z for standard normal z (Box-Muller over a fixed LCG, as
   PyTorch's script draws randn * 2), and targets in [0, C). */
static bool make_inputs(void)
{
    uint64_t state = 42;
    float *x;
    int64_t *t;

    logits = tc_empty(TC_SHAPE(N, C), TC_FLOAT32);
    targets = tc_empty(TC_SHAPE(N), TC_INT64);
    copy_to = malloc((size_t)N * C * sizeof(float));
    if (logits == NULL || targets == NULL || copy_to == NULL)
        return false;
    x = tc_data_ptr(logits);
    t = tc_data_ptr(targets);
    for (int64_t i = 0; i < (int64_t)N * C; i += 2) {
        double u, v;
        state = state * 6364136223846793005u + 1442695040888963407u;
        u = ((double)(state >> 11) + 0.5) / 9007199254740992.0;
        state = state * 6364136223846793005u + 1442695040888963407u;
        v = ((double)(state >> 11) + 0.5) / 9007199254740992.0;
        x[i] = (float)(2 * sqrt(-2 * log(u)) * cos(6.283185307179586 * v));
        x[i + 1] = (float)(2 * sqrt(-2 * log(u)) * sin(6.283185307179586 * v));
    }
    for (int64_t i = 0; i < N; i++) {
        state = state * 6364136223846793005u + 1442695040888963407u;
        t[i] = (int64_t)((state >> 33) % C);
    }
    return ag_set_requires_grad(logits, true) == 0;
}

/* PyTorch's best times, from the script in $TORCH_BENCH_CH06: with one
   thread and with every core (threads[1]), and its default thread count.
   false if skipped, with the reason in why. */
static bool torch_ms(double ms[2], int threads[2], int *standard, char *why, size_t why_size)
{
    const char *command = getenv("TORCH_BENCH_CH06");
    char line[256], full[1024];
    int have = 0;
    FILE *p;

    if (command == NULL || command[0] == '\0') {
        snprintf(why, why_size, "skipped: TORCH_BENCH_CH06 is not set");
        return false;
    }
    snprintf(full, sizeof full, "%s %d %d", command, N, C);
    fflush(stdout);
    if ((p = popen(full, "r")) == NULL) {
        snprintf(why, why_size, "failed: cannot start %s", command);
        return false;
    }
    while (fgets(line, sizeof line, p) != NULL) {
        if (have < 2 && sscanf(line, "torch_ms %d %lf", &threads[have], &ms[have]) == 2)
            have++;
        sscanf(line, "torch_default_threads %d", standard);
        if (strncmp(line, "torch: not installed", 20) == 0)
            snprintf(why, why_size, "skipped: torch is not installed");
    }
    if (pclose(p) != 0 || have < 2) {
        if (why[0] == '\0')
            snprintf(why, why_size, "failed: %s did not answer", command);
        return false;
    }
    return true;
}

/* The error of tc_expf_nonpositive in units in the last place of the
   correctly rounded e^x (the float nearest the double exp(x)), at every
   float32 x <= 0 where e^x is a normal float (x >= -87.34): the largest,
   and where it is. */
static double exp_max_ulps(float *where)
{
    double worst = 0;

    for (uint32_t bits = 0x80000000u;; bits++) {    /* -0, then down from there */
        float x, y, rounded;
        double exact, ulp, error;

        memcpy(&x, &bits, sizeof x);
        exact = exp((double)x);
        if (exact < 0x1p-126)
            return worst;
        y = tc_expf_nonpositive(x);
        rounded = (float)exact;
        ulp = (double)nextafterf(rounded, INFINITY) - (double)rounded;
        error = fabs((double)y - exact) / ulp;
        if (error > worst) {
            worst = error;
            *where = x;
        }
    }
}

void bench_ch06(void)
{
    double copy, fused[2], forward, ahead_too, backward, ms[2], start, ulps;
    float where = 0;
    int threads[2], standard = 0, cores = tc_get_num_threads();
    char why[256] = "", what[64];
    tc_tensor *seed = NULL;

    printf("chapter 6: cross-entropy, forward + backward, (%d, %d) float32 logits, "
           "int64 targets\n", N, C);
    if (!make_inputs() || (seed = tc_ones(TC_SCALAR_SHAPE, TC_FLOAT32)) == NULL) {
        printf("  out of memory\n");
        goto done;
    }
    copy = bench_best(run_memcpy, NULL, RUNS);
    tc_set_num_threads(1);
    fused[0] = bench_best(run_fused, NULL, RUNS);
    forward = bench_best(run_forward, NULL, RUNS);
    ahead_too = bench_best(run_forward, &ahead, RUNS);
    backward = bench_best(run_backward, seed, RUNS);
    tc_set_num_threads(cores);
    fused[1] = bench_best(run_fused, NULL, RUNS);
    printf("  %-46s %8.3f ms   (baseline: read the logits, write the gradient)\n",
           "memcpy of the logits' bytes", copy * 1e3);
    printf("  %-46s %8.3f ms   %5.2fx the baseline\n", "fused: forward + backward (ag_)",
           fused[0] * 1e3, fused[0] / copy);
    printf("  %-46s %8.3f ms   (%.2f ns per logit)\n", "fused forward kernel alone",
           forward * 1e3, forward * 1e9 / ((double)N * C));
    printf("  %-46s %8.3f ms   (%.2f ns per logit)\n", "fused forward kernel, gradient ahead",
           ahead_too * 1e3, ahead_too * 1e9 / ((double)N * C));
    printf("  %-46s %8.3f ms   (%.2f ns per logit)\n", "fused backward kernel alone",
           backward * 1e3, backward * 1e9 / ((double)N * C));
    snprintf(what, sizeof what, "fused: forward + backward, %d thread%s", cores,
             cores == 1 ? "" : "s");
    printf("  %-46s %8.3f ms   %5.2fx the baseline, %.2fx faster than on 1\n", what,
           fused[1] * 1e3, fused[1] / copy, fused[0] / fused[1]);
    printf("  %-46s %8.4f\n", "the loss", loss == NULL ? -1.0 : tc_load(loss, 0));
    start = bench_seconds();
    ulps = exp_max_ulps(&where);
    printf("  %-46s %8.2f ulp at x = %.7g (every float32 in [-87.34, 0], %.0f s)\n",
           "its exp: the largest error", ulps, where, bench_seconds() - start);
    if (!torch_ms(ms, threads, &standard, why, sizeof why)) {
        printf("  %-46s (%s)\n", "PyTorch", why);
        goto done;
    }
    for (int k = 0; k < 2; k++) {    /* each against ours on as many threads */
        double ours = threads[k] == 1 ? fused[0] : threads[k] == cores ? fused[1] : 0;
        snprintf(what, sizeof what, "PyTorch, %d thread%s%s", threads[k],
                 threads[k] == 1 ? "" : "s", threads[k] == standard ? " (its default)" : "");
        if (ours > 0)
            printf("  %-46s %8.3f ms   ours on %d: %5.2fx faster (goal: >= 4x)\n", what,
                   ms[k], threads[k], ms[k] / (ours * 1e3));
        else
            printf("  %-46s %8.3f ms\n", what, ms[k]);
        if (k == 0 && threads[1] == threads[0])
            break;                    /* one core: the same line twice */
    }
    if (standard > 0 && standard != cores)    /* each at its own default */
        printf("  %-46s %8s      ours on %d: %5.2fx faster\n", "PyTorch at its default", "",
               cores, ms[standard == threads[0] ? 0 : 1] / (fused[1] * 1e3));
done:
    tc_release(seed);
    tc_release(loss);
    tc_release(stats);
    tc_release(logits);
    tc_release(targets);
    free(copy_to);
}
