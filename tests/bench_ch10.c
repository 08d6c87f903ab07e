/* bench_ch10.c: chapter 10's goal (issue 13): one training step of a
   784-128-10 MLP (Linear, ReLU, Linear) on a batch of 64, float32, one
   thread: zero_grad, forward, cross-entropy, backward, SGD's step; goal at
   least 2.5 times faster than PyTorch 1.13's same step, measured in this
   run by tests/bench_torch_ch10.py (through $TORCH_BENCH_CH10, when
   /usr/bin/python3 has torch). The step's time is also shown as a ratio to
   the time of its matrix products alone (the five tc_gemm calls the step
   makes, into buffers allocated beforehand), and where the rest of the
   step goes (forward, backward, optimizer).

   Both sides start from the same weights (torch.manual_seed(0) and
   tc_manual_seed(0) draw the same bits), take the same input (the next
   64 x 784 draws of torch.rand from the same generator) and the targets
   i % 10; each side prints its loss after the timed steps, so the run also
   shows that both trained the same network. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <time.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "tc.h"

enum { BATCH = 64, IN = 784, HIDDEN = 128, OUT = 10, SEED = 0 };
enum { STEPS = 10, RUNS = 100, CHECK_STEPS = 20 };
#define LR 0.01

/* The CPU time of this process, in seconds. Each side times its steps with
   it (Python's time.process_time), not with a wall clock: on a machine
   that other work shares, a wall clock also counts the time the process
   waited for a core, and the two sides, timed one after the other, would
   wait differently. Process time also counts any thread a library starts
   behind our back (OpenBLAS does, unless told otherwise: the Python side
   tells it, OPENBLAS_NUM_THREADS=1). On an idle machine the two clocks
   agree. */
static double cpu_seconds(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- PyTorch's side ---------------------------------------------------------- */

enum { MAX_TORCH = 16 };
static struct { char name[48]; double value; } torch_m[MAX_TORCH];
static int ntorch;
static char torch_version[64] = "", torch_why[256] = "";

static double torch_value(const char *name)
{
    for (int i = 0; i < ntorch; i++)
        if (strcmp(torch_m[i].name, name) == 0)
            return torch_m[i].value;
    return -1;
}

/* Run PyTorch's side to its end before ours, reading "torch NAME VALUE"
   lines. false, with torch_why, if it did not run. */
static bool run_torch(void)
{
    const char *command = getenv("TORCH_BENCH_CH10");
    char full[1024], line[256];
    FILE *p;

    if (command == NULL || command[0] == '\0') {
        snprintf(torch_why, sizeof torch_why, "skipped: TORCH_BENCH_CH10 is not set");
        return false;
    }
    snprintf(full, sizeof full, "%s %d %d %d %d %d %g %d %d %d", command, BATCH, IN, HIDDEN,
             OUT, SEED, LR, STEPS, RUNS, CHECK_STEPS);
    fflush(stdout);
    if ((p = popen(full, "r")) == NULL) {
        snprintf(torch_why, sizeof torch_why, "failed: cannot start %s", command);
        return false;
    }
    while (fgets(line, sizeof line, p) != NULL) {
        if (ntorch < MAX_TORCH &&
            sscanf(line, "torch %47s %lf", torch_m[ntorch].name, &torch_m[ntorch].value) == 2)
            ntorch++;
        sscanf(line, "torch_version %63s", torch_version);
        if (strncmp(line, "torch: not installed", 20) == 0)
            snprintf(torch_why, sizeof torch_why, "skipped: torch is not installed");
    }
    if (pclose(p) != 0 || ntorch == 0) {
        if (torch_why[0] == '\0')
            snprintf(torch_why, sizeof torch_why, "failed: %s did not answer", command);
        return false;
    }
    return true;
}

/* ---- the step -------------------------------------------------------------------- */

#define ROW(what, ...) (printf("  %-50s ", what), printf(__VA_ARGS__), printf("\n"))

typedef struct {
    tc_module *model;
    tc_sgd *sgd;
    tc_tensor *x, *target;
    bool fused;            /* chapter 6's fused cross-entropy, or the composed one */
    bool set_to_none;      /* zero_grad(set_to_none) */
    bool failed;
    double loss;
    /* the parts of the step, accumulated by step_parts */
    double t_zero, t_forward, t_loss, t_backward, t_step;
} job;

static void fail(job *j, const char *what)
{
    if (!j->failed)
        printf("  failed: %s: %s\n", what, tc_error() != NULL ? tc_error() : "?");
    j->failed = true;
}

static tc_tensor *loss_of(job *j, const tc_tensor *logits)
{
    return (j->fused ? ag_cross_entropy_fused : ag_cross_entropy)(
        logits, j->target, NULL, TC_REDUCTION_MEAN, -100, 0.0);
}

/* One training step, as a PyTorch user writes it:
       model.zero_grad(); loss = F.cross_entropy(model(x), y);
       loss.backward(); optimizer.step()
   (model.zero_grad() and optimizer.zero_grad() clear the same gradients;
   the Python side calls the optimizer's). */
static void step(void *p)
{
    job *j = p;
    tc_tensor *logits, *loss;

    if (j->failed)
        return;
    if (tc_module_zero_grad(j->model, j->set_to_none) < 0)
        { fail(j, "zero_grad"); return; }
    logits = tc_module_forward(j->model, j->x);
    loss = logits == NULL ? NULL : loss_of(j, logits);
    tc_release(logits);
    if (loss == NULL || ag_backward(loss, NULL, false) < 0 || tc_sgd_step(j->sgd) < 0) {
        tc_release(loss);
        { fail(j, "step"); return; }
    }
    j->loss = tc_load(loss, loss->storage_offset);
    tc_release(loss);
}

/* The same step, timing each part into j->t_*. */
static void step_parts(void *p)
{
    job *j = p;
    double t0 = cpu_seconds(), t1, t2, t3, t4, t5;
    tc_tensor *logits, *loss;

    if (j->failed || tc_module_zero_grad(j->model, j->set_to_none) < 0)
        { fail(j, "zero_grad"); return; }
    t1 = cpu_seconds();
    logits = tc_module_forward(j->model, j->x);
    t2 = cpu_seconds();
    loss = logits == NULL ? NULL : loss_of(j, logits);
    tc_release(logits);
    t3 = cpu_seconds();
    if (loss == NULL || ag_backward(loss, NULL, false) < 0) {
        tc_release(loss);
        { fail(j, "backward"); return; }
    }
    tc_release(loss);
    t4 = cpu_seconds();
    if (tc_sgd_step(j->sgd) < 0)
        { fail(j, "sgd step"); return; }
    t5 = cpu_seconds();
    j->t_zero += t1 - t0, j->t_forward += t2 - t1, j->t_loss += t3 - t2;
    j->t_backward += t4 - t3, j->t_step += t5 - t4;
}

/* Seconds per call of run(j): the best of RUNS loops of `calls`, after
   a warm-up loop. */
static double per_call(void (*run)(void *), job *j, int calls)
{
    double best = -1;

    for (int c = 0; c < calls / 4 + 1; c++)
        run(j);
    for (int r = 0; r < RUNS; r++) {
        double start = cpu_seconds(), t;
        for (int c = 0; c < calls; c++)
            run(j);
        t = (cpu_seconds() - start) / calls;
        if (best < 0 || t < best)
            best = t;
    }
    return best;
}

/* The model, its optimizer, the input and the targets, as the Python side
   makes them. false if something failed (said). */
static bool job_init(job *j, bool fused, bool set_to_none)
{
    *j = (job){ .fused = fused, .set_to_none = set_to_none };
    tc_manual_seed(SEED);
    j->model = tc_nn_sequential(3, (tc_module *[]){ tc_nn_linear(IN, HIDDEN, true, NULL),
                                                    tc_nn_relu(),
                                                    tc_nn_linear(HIDDEN, OUT, true, NULL) });
    j->x = tc_empty(TC_SHAPE(BATCH, IN), TC_FLOAT32);
    j->target = tc_empty(TC_SHAPE(BATCH), TC_INT64);
    if (j->model == NULL || j->x == NULL || j->target == NULL ||
        tc_uniform_(j->x, 0, 1, NULL) < 0) {
        fail(j, "making the model");
        return false;
    }
    for (int64_t i = 0; i < BATCH; i++)
        ((int64_t *)tc_data_ptr(j->target))[i] = i % OUT;
    tc_tensor *params[4];
    for (int i = 0; i < 4; i++)
        params[i] = tc_module_parameter(j->model, i);
    j->sgd = tc_sgd_new(4, params, (tc_sgd_options){ .lr = LR });
    if (j->sgd == NULL) {
        fail(j, "making SGD");
        return false;
    }
    return true;
}

static void job_free(job *j)
{
    tc_sgd_free(j->sgd);
    tc_module_free(j->model);
    tc_release(j->x);
    tc_release(j->target);
}

/* ---- the baseline: the step's matrix products alone ------------------------------- */

typedef struct {
    float *x, *w1, *w2, *h, *y, *gy, *gh, *gw1, *gw2;
} products;

static tc_gemm_operand op(const float *p, int64_t rs, int64_t cs)
{
    return (tc_gemm_operand){ p, rs, cs };
}

/* The five products of the step, with the step's shapes and transposes:
   forward h = x @ w1.t(), y = h @ w2.t(); backward gw2 = gy.t() @ h,
   gh = gy @ w2, gw1 = gh.t() @ x (the input needs no gradient). */
static void run_products(void *p)
{
    products *m = p;

    tc_gemm(TC_FLOAT32, BATCH, HIDDEN, IN, op(m->x, IN, 1), op(m->w1, 1, IN), m->h, HIDDEN);
    tc_gemm(TC_FLOAT32, BATCH, OUT, HIDDEN, op(m->h, HIDDEN, 1), op(m->w2, 1, HIDDEN), m->y, OUT);
    tc_gemm(TC_FLOAT32, OUT, HIDDEN, BATCH, op(m->gy, 1, OUT), op(m->h, HIDDEN, 1), m->gw2,
            HIDDEN);
    tc_gemm(TC_FLOAT32, BATCH, HIDDEN, OUT, op(m->gy, OUT, 1), op(m->w2, HIDDEN, 1), m->gh,
            HIDDEN);
    tc_gemm(TC_FLOAT32, HIDDEN, IN, BATCH, op(m->gh, 1, HIDDEN), op(m->x, IN, 1), m->gw1, IN);
    bench_escape(m->gw1);
}

static double products_time(void)
{
    size_t sizes[] = { BATCH * IN, HIDDEN * IN, OUT * HIDDEN, BATCH * HIDDEN, BATCH * OUT,
                       BATCH * OUT, BATCH * HIDDEN, HIDDEN * IN, OUT * HIDDEN };
    float *buf[9];
    double t = -1;
    bool ok = true;

    for (int i = 0; i < 9; i++) {
        buf[i] = malloc(sizes[i] * sizeof(float));
        ok = ok && buf[i] != NULL;
        for (size_t k = 0; buf[i] != NULL && k < sizes[i]; k++)
            buf[i][k] = (float)((k * 2654435761u) % 1000) / 1000.0f - 0.5f;
    }
    if (ok) {
        products m = { buf[0], buf[1], buf[2], buf[3], buf[4], buf[5], buf[6], buf[7], buf[8] };
        double best = -1;
        for (int c = 0; c < STEPS / 4 + 1; c++)
            run_products(&m);
        for (int r = 0; r < RUNS; r++) {
            double start = cpu_seconds(), e;
            for (int c = 0; c < STEPS; c++)
                run_products(&m);
            e = (cpu_seconds() - start) / STEPS;
            if (best < 0 || e < best)
                best = e;
        }
        t = best;
    }
    for (int i = 0; i < 9; i++)
        free(buf[i]);
    return t;
}

/* ---- the report --------------------------------------------------------------------- */

/* The loss after CHECK_STEPS steps from the initial weights (the same
   number of steps as the Python side takes before it times). */
static double loss_after_steps(bool fused)
{
    job j;
    double loss = NAN;

    if (job_init(&j, fused, false)) {
        for (int s = 0; s < CHECK_STEPS; s++)
            step(&j);
        if (!j.failed)
            loss = j.loss;
    }
    job_free(&j);
    return loss;
}

static void versus(const char *what, const char *name, double ours)
{
    double theirs = torch_value(name);

    if (theirs < 0)
        ROW(what, "(%s)", torch_why[0] != '\0' ? torch_why : "no measurement");
    else
        ROW(what, "%9.3f ms  PyTorch's time / ours: %5.2f", theirs * 1e3, theirs / ours);
}

static void bench_step(void)
{
    double gemms = products_time(), flops;
    double t_fused, t_composed, t_none;
    job j;

    flops = 2.0 * BATCH * IN * HIDDEN * 2 + 2.0 * BATCH * HIDDEN * OUT * 3;
    ROW("the step's 5 matrix products alone (baseline)", "%9.3f ms  %.1f GFLOP/s", gemms * 1e3,
        flops / gemms * 1e-9);
    versus("  PyTorch, the same 5 products (torch.mm)", "products", gemms);

    if (!job_init(&j, true, false)) {
        job_free(&j);
        return;
    }
    t_fused = per_call(step, &j, STEPS);
    ROW("training step, 784-128-10, batch 64, SGD", "%9.3f ms  ours / its products: %.2f",
        t_fused * 1e3, t_fused / gemms);
    versus("  PyTorch 1.13, the same step", "step", t_fused);
    if (torch_value("step") > 0)
        ROW("", "(goal: PyTorch's time / ours >= 2.5)");
    j.t_zero = j.t_forward = j.t_loss = j.t_backward = j.t_step = 0;
    for (int s = 0; s < STEPS; s++)
        step_parts(&j);
    ROW("  where it goes (mean of a step)", "zero_grad %.3f, forward %.3f, loss %.3f, "
        "backward %.3f, SGD %.3f ms", j.t_zero / STEPS * 1e3, j.t_forward / STEPS * 1e3,
        j.t_loss / STEPS * 1e3, j.t_backward / STEPS * 1e3, j.t_step / STEPS * 1e3);
    job_free(&j);

    if (job_init(&j, false, false)) {
        t_composed = per_call(step, &j, STEPS);
        ROW("  with the composed cross-entropy (log_softmax, nll)", "%9.3f ms", t_composed * 1e3);
    }
    job_free(&j);
    if (job_init(&j, true, true)) {
        t_none = per_call(step, &j, STEPS);
        ROW("  with zero_grad(set_to_none=True)", "%9.3f ms", t_none * 1e3);
        versus("  PyTorch, zero_grad(set_to_none=True)", "step_set_to_none", t_none);
    }
    job_free(&j);

    double ours = loss_after_steps(true), composed = loss_after_steps(false);
    double theirs = torch_value("loss_after_steps");
    char what[64];
    snprintf(what, sizeof what, "loss after %d steps from the same weights", CHECK_STEPS);
    if (theirs < 0)
        ROW(what, "ours %.7f (composed %.7f)", ours, composed);
    else
        ROW(what, "ours %.7f (composed %.7f), PyTorch's %.7f", ours, composed, theirs);
}

void bench_ch10(void)
{
    int threads = tc_get_num_threads();

    printf("chapter 10: a training step on one thread, capability %s\n",
           tc_cpu_capability_name(tc_cpu_capability_get()));
    if (run_torch())
        printf("  PyTorch %s measured first, in this run (tests/bench_torch_ch10.py)\n",
               torch_version);
    else
        printf("  PyTorch: %s\n", torch_why);
    tc_set_num_threads(1);
    bench_step();
    tc_set_num_threads(threads);
}
