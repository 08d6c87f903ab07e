/* bench_ch05.c: what a node of the autograd graph costs. A chain of
   10^5 small elementwise ops (y = y * 1.0001 and y = y + 0.0001, in turn)
   on a 16-element float32 tensor, so that the arithmetic is negligible and
   what is timed is the bookkeeping: the forward pass with grad mode on
   (a node per op) and the backward pass through it, against the same
   forward with grad mode off, and against PyTorch's autograd on the same
   chain, measured in the same run by tests/bench_torch_ch05.py. */
#define _POSIX_C_SOURCE 200809L
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "tc.h"

enum { N = 100000, NUMEL = 16, RUNS = 5 };

/* y = x, then y * 1.0001 and y + 0.0001 in turn, n ops; a new reference
   (x itself when n = 0), or NULL. ag_ records when grad mode is on. */
static tc_tensor *chain(const tc_tensor *x, int n, bool kernels)
{
    tc_tensor *y = tc_retain((tc_tensor *)x);

    for (int i = 0; i < n && y != NULL; i++) {
        tc_tensor *next = kernels ? (i % 2 == 0 ? tc_mul_scalar(y, 1.0001)
                                                : tc_add_scalar(y, 0.0001))
                                  : (i % 2 == 0 ? ag_mul_scalar(y, 1.0001)
                                                : ag_add_scalar(y, 0.0001));
        tc_release(y);
        y = next;
    }
    return y;
}

static tc_tensor *x, *seed;

/* How the chain is computed: with the kernels of chapters 1-4, or with the
   ag_ functions in grad mode off or on; with grad mode on, backward follows. */
typedef enum { KERNELS, GRAD_OFF, GRAD_ON } mode;

/* The seconds of each phase of the best of RUNS runs (the smallest
   forward + backward): forward, backward (GRAD_ON only), and the release
   of the result, with what is left of the graph (its nodes: backward
   already freed the saved tensors), which PyTorch's script does not time
   either. false if a run failed. */
typedef struct {
    double forward, backward, release;
} phases;

static bool time_chain(mode m, phases *best)
{
    for (int r = 0; r < RUNS; r++) {
        bool previous = ag_set_grad_enabled(m == GRAD_ON);
        double t0, t1, t2, t3;
        tc_tensor *y;
        int status = 0;

        ag_zero_grad(x, true);
        t0 = bench_seconds();
        y = chain(x, N, m == KERNELS);
        t1 = bench_seconds();
        if (m == GRAD_ON && y != NULL)
            status = ag_backward(y, seed, false);
        t2 = bench_seconds();
        tc_release(y);
        t3 = bench_seconds();
        ag_set_grad_enabled(previous);
        if (y == NULL || status < 0)
            return false;
        if (r == 0 || t2 - t0 < best->forward + best->backward)
            *best = (phases){ t1 - t0, t2 - t1, t3 - t2 };
    }
    return true;
}

/* PyTorch's ns per node, with and without grad, from the script in
   $TORCH_BENCH_CH05 (tests/bench_torch_ch05.py). false if skipped. */
static bool torch_ns_per_node(double *autograd, double *nograd, char *why, size_t why_size)
{
    const char *command = getenv("TORCH_BENCH_CH05");
    char line[256], full[1024];
    bool have_a = false, have_n = false;
    FILE *p;

    if (command == NULL || command[0] == '\0') {
        snprintf(why, why_size, "skipped: TORCH_BENCH_CH05 is not set");
        return false;
    }
    snprintf(full, sizeof full, "%s %d", command, N);
    fflush(stdout);
    if ((p = popen(full, "r")) == NULL) {
        snprintf(why, why_size, "failed: cannot start %s", command);
        return false;
    }
    while (fgets(line, sizeof line, p) != NULL) {
        have_a = have_a || sscanf(line, "torch_autograd_ns_per_node %lf", autograd) == 1;
        have_n = have_n || sscanf(line, "torch_nograd_ns_per_node %lf", nograd) == 1;
        if (strncmp(line, "torch: not installed", 20) == 0)
            snprintf(why, why_size, "skipped: torch is not installed");
    }
    if (pclose(p) != 0 || !have_a || !have_n) {
        if (why[0] == '\0')
            snprintf(why, why_size, "failed: %s did not answer", command);
        return false;
    }
    return true;
}

void bench_ch05(void)
{
    double torch_a = 0, torch_n = 0, ns = 1e9 / N, off, on;
    phases kernels, grad_off, grad_on;
    char why[256] = "";
    tc_tensor *g;

    printf("chapter 5: autograd, a chain of 10^5 elementwise ops on 16 float32 "
           "(ns per op = per node)\n");
    x = tc_ones(TC_SHAPE(NUMEL), TC_FLOAT32);
    seed = tc_ones(TC_SHAPE(NUMEL), TC_FLOAT32);
    if (x == NULL || seed == NULL || ag_set_requires_grad(x, true) < 0) {
        printf("  out of memory\n");
        goto done;
    }
    if (!time_chain(KERNELS, &kernels) || !time_chain(GRAD_OFF, &grad_off) ||
        !time_chain(GRAD_ON, &grad_on)) {
        printf("  failed: %s\n", tc_error());
        goto done;
    }
    off = grad_off.forward * ns;
    on = (grad_on.forward + grad_on.backward) * ns;
    g = ag_grad(x);
    printf("  %-44s %8.1f ns\n", "forward, tc_ kernels", kernels.forward * ns);
    printf("  %-44s %8.1f ns   (baseline)\n", "forward, ag_ with grad mode off", off);
    printf("  %-44s %8.1f ns   %5.2fx the baseline (goal: <= 3x)\n",
           "forward, grad mode on (a node per op)", grad_on.forward * ns,
           grad_on.forward * ns / off);
    printf("  %-44s %8.1f ns\n", "backward", grad_on.backward * ns);
    printf("  %-44s %8.1f ns   %5.2fx the baseline\n", "forward + backward", on, on / off);
    printf("  %-44s %8.1f ns   (not in the totals)\n", "then releasing the graph's nodes",
           grad_on.release * ns);
    printf("  %-44s %8.2f     (1.0001^50000 = 148.41)\n", "x.grad[0]",
           g == NULL ? -1.0 : tc_load(g, g->storage_offset));
    if (!torch_ns_per_node(&torch_a, &torch_n, why, sizeof why)) {
        printf("  %-44s (%s)\n", "PyTorch", why);
        goto done;
    }
    printf("  %-44s %8.1f ns   (torch, 1 thread, best of 3)\n",
           "PyTorch: forward + backward", torch_a);
    printf("  %-44s %8.1f ns\n", "PyTorch: forward under no_grad", torch_n);
    printf("  %-44s %8.2fx    (goal: >= 20x)\n", "PyTorch's time / ours, with grad",
           torch_a / on);
    printf("  %-44s %8.2fx\n", "PyTorch's time / ours, no grad", torch_n / off);
done:
    tc_release(x);
    tc_release(seed);
}
