/* bench_ch10.c: chapter 10's goals (issue 13), in two parts.

   One training step of a 784-128-10 MLP (Linear, ReLU, Linear) on a batch
   of 64, float32, one thread: zero_grad, forward, cross-entropy, backward,
   SGD's step; goal at least 2.5 times faster than PyTorch 1.13's same
   step, measured in this run by tests/bench_torch_ch10.py (through
   $TORCH_BENCH_CH10, when /usr/bin/python3 has torch). The step's time is
   also shown as a ratio to the time of its matrix products alone (the five
   tc_gemm calls the step makes, into buffers allocated beforehand), and
   where the rest of the step goes (forward, backward, optimizer).

   Both sides start from the same weights (torch.manual_seed(0) and
   tc_manual_seed(0) draw the same bits), take the same input (the next
   64 x 784 draws of torch.rand from the same generator) and the targets
   i % 10; each side prints its loss after the timed steps, so the run also
   shows that both trained the same network.

   Data parallelism, with the chapter's reducer (tc_ddp) over the
   shared-memory backend, the ranks forked by chapter 9's tc_launch_fn (2 at
   most: this machine has 2 cores, and a rank with its communication thread
   wants one), each rank on one thread:
   - an epoch of the chapter's program: its 64-64-10 network on
     data/digits.csv (or, if the file cannot be read, synthetic data of the
     same shapes drawn with the library's generator, said in the output),
     its split, weights, SGD (momentum) and DistributedSampler, 45 steps of
     a global batch of 32 (16 a rank on 2 ranks), the reducer's default
     25 MiB bucket cap; the time of the 45 steps on 1 rank and on 2, and
     their ratio (2 ranks / 1 rank: below 1, two ranks train an epoch
     faster), the best of DP_EPOCHS epochs after DP_WARMUP; the last
     epoch's loss on both, to show they trained the same network;
   - the overlap: the 784-128-10 step above on 2 ranks (32 rows each, the
     first 32 of its input), the reducer with PyTorch's default cap, with
     100 KB (bucket_cap_mb=0.1, still one bucket here: the first layer's
     weight alone is 392 KiB) and with 512 B (3 buckets); and a deeper
     network, 784-1024-1024-1024-10, whose later layers' gradients are
     ready while backward still works on the earlier ones, with the
     default cap (one bucket) and 4 MiB (a bucket a layer); per pass:
     backward, the all_reduces on the communication thread, the wait at
     the end of the pass (exposed), and the share of communication hidden
     behind backward, max(0, comm - exposed) / comm (exposed includes the
     hand-off to the communication thread and can exceed comm, so both are
     printed), from the fastest of OV_RUNS runs.
   Both parts zero the grads with the model's zero_grad, as the step above
   does (see dp_step). The multi-rank parts are timed with the wall clock
   (one process's CPU time does not measure several processes), each time
   the slower rank's. Rank 0 writes its results into a shared anonymous
   mapping made before the fork; the parent prints them. */
#define _DEFAULT_SOURCE        /* MAP_ANONYMOUS */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <time.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

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

/* ---- data parallel: an epoch on 1 and 2 ranks, and the overlap ---------------------- */

/* The chapter's program (build/snap/ch10/demo/ch10.c): its network, data,
   batch, split and SGD. */
enum { DP_PIXELS = 64, DP_HIDDEN = 64, DP_CLASSES = 10, DP_BATCH = 32, DP_HELD_OUT = 357,
       DP_SAMPLES = 1797 /* synthetic: as many as the digits */ };
enum { DP_WARMUP = 3, DP_EPOCHS = 50, DP_MAX_RANKS = 2 };
#define DP_LR 0.1
#define DP_MOMENTUM 0.9
#define DP_BUCKET_CAP ((int64_t)25 << 20)    /* DDP's default, as the program's */
#define DP_DIGITS "data/digits.csv"

/* The overlap: the step above on 2 ranks, BATCH / 2 rows each, with these
   bucket caps (bytes). */
enum { OV_RANKS = 2, OV_WARMUP = 10, OV_STEPS = 10, OV_RUNS = 20, OV_CASES = 5, OV_MAX_LAYERS = 4 };

/* The overlap's cases: a network and a bucket cap. The step above's
   network can hide almost nothing (its first layer's weight, the last
   gradient backward writes, is 392 KiB of its 398); a deeper one of alike
   layers, whose later layers' gradients are written while backward still
   works on the earlier ones, shows what buckets are for. */
typedef struct {
    int layers;                          /* Linear layers, ReLU between */
    int64_t width[OV_MAX_LAYERS + 1];
    int64_t cap;
} ov_case;
static const ov_case ov_cases[OV_CASES] = {
    { 2, { IN, HIDDEN, OUT }, (int64_t)25 << 20 },
    { 2, { IN, HIDDEN, OUT }, 100000 },
    { 2, { IN, HIDDEN, OUT }, 512 },
    { 4, { IN, 1024, 1024, 1024, OUT }, (int64_t)25 << 20 },
    { 4, { IN, 1024, 1024, 1024, OUT }, (int64_t)4 << 20 },
};

/* What rank 0 hands back, in memory shared with the parent. */
typedef struct {
    bool done;
    bool synthetic;             /* the digits could not be read */
    int64_t steps;              /* a rank's steps per epoch */
    double seconds;             /* the best epoch's 45 steps, the slower rank's */
    double loss;                /* the last epoch's mean loss over every rank's batches */
} dp_epoch_result;

typedef struct {
    bool done;
    int buckets;
    int64_t bytes;              /* all_reduced per pass */
    int64_t last_bytes;         /* the last bucket's (launched at the end of backward) */
    double step;                /* seconds per step, the slower rank's */
    double backward, comm, exposed;   /* rank 0's seconds per pass */
} dp_overlap_result;

typedef struct {
    dp_epoch_result epoch[DP_MAX_RANKS + 1];    /* by the number of ranks */
    dp_overlap_result overlap[OV_CASES];
} dp_shared;

static dp_shared *dp;

/* Report a rank's failure on stderr (rank 0 prints nothing else); 1. */
static int rank_failed(int rank, const char *what)
{
    fprintf(stderr, "bench_ch10: rank %d: %s: %s\n", rank, what,
            tc_error() != NULL ? tc_error() : "failed");
    return 1;
}

/* *v becomes the largest of every rank's *v (the slower rank's time). */
static int slowest(tc_pg *world, double *v)
{
    tc_tensor *t = tc_zeros(TC_SHAPE(1), TC_FLOAT64);
    int status = t == NULL ? -1 : 0;

    if (status == 0) {
        tc_store(t, 0, *v);
        status = tc_all_reduce(world, t, TC_REDUCE_MAX);
        *v = tc_load(t, 0);
    }
    tc_release(t);
    return status;
}

/* One step on this rank's rows: zero_grad, forward, loss, backward (the
   reducer averages the gradients over the ranks), SGD. zero_grad is the
   model's, as in the step above; the chapter's program calls the
   optimizer's, which clears the same grads the same way (a memset each). */
static int dp_step(tc_module *model, tc_sgd *opt, const tc_tensor *x, const tc_tensor *y,
                   bool fused, double *loss_value)
{
    tc_tensor *logits = NULL, *loss = NULL;
    int status = -1;

    if (tc_module_zero_grad(model, false) == 0 && (logits = tc_module_forward(model, x)) != NULL &&
        (loss = (fused ? ag_cross_entropy_fused : ag_cross_entropy)(
             logits, y, NULL, TC_REDUCTION_MEAN, -100, 0.0)) != NULL &&
        ag_backward(loss, NULL, false) == 0 && tc_sgd_step(opt) == 0) {
        *loss_value = tc_load(loss, loss->storage_offset);
        status = 0;
    }
    tc_release(logits);
    tc_release(loss);
    return status;
}

/* The digits' shapes, drawn from a generator seeded with 0: pixels in
   [0, 1), labels random() % 10. */
static int synthetic_digits(tc_dataset *all)
{
    tc_generator g;

    tc_generator_init(&g, 0);
    all->images = tc_empty(TC_SHAPE(DP_SAMPLES, DP_PIXELS), TC_FLOAT32);
    all->labels = tc_empty(TC_SHAPE(DP_SAMPLES), TC_INT64);
    if (all->images == NULL || all->labels == NULL || tc_uniform_(all->images, 0, 1, &g) < 0)
        return -1;
    for (int64_t i = 0; i < DP_SAMPLES; i++)
        tc_store_int64(all->labels, i, (int64_t)(tc_generator_random(&g) % DP_CLASSES));
    return 0;
}

/* The model's n parameters and SGD over them. */
static const char *dp_model(int n, tc_tensor **params, tc_module *model, tc_sgd **opt, double lr,
                            double momentum)
{
    if (model == NULL)
        return "making the model";
    if (tc_module_num_parameters(model) != n)
        return "the model's parameters";
    for (int i = 0; i < n; i++)
        params[i] = tc_module_parameter(model, i);
    *opt = tc_sgd_new(n, params, (tc_sgd_options){ .lr = lr, .momentum = momentum });
    return *opt == NULL ? "making SGD" : NULL;
}

/* nn.Sequential of `layers` Linear layers of the widths given, a ReLU
   between two, made one after the other (the first takes the first
   draws), as the chapter's mlp. */
static tc_module *mlp(int layers, const int64_t *width)
{
    tc_module *modules[2 * OV_MAX_LAYERS - 1];
    int n = 0;
    bool ok = true;

    for (int l = 0; l < layers; l++) {
        if (l > 0)
            ok = (modules[n++] = tc_nn_relu()) != NULL && ok;
        ok = (modules[n++] = tc_nn_linear(width[l], width[l + 1], true, NULL)) != NULL && ok;
    }
    if (!ok) {
        for (int i = 0; i < n; i++)
            if (modules[i] != NULL)
                tc_module_free(modules[i]);
        return NULL;
    }
    return tc_nn_sequential(n, modules);
}

/* A rank of the epoch's run: the chapter's program without its prints,
   DP_WARMUP + DP_EPOCHS epochs, each timed between a barrier and the end
   of its last step. */
static int dp_epoch_rank(void *arg, int rank)
{
    (void)arg;
    tc_dataset all = { 0 }, train = { 0 }, test = { 0 };
    tc_module *model = NULL;
    tc_sgd *opt = NULL;
    tc_ddp *ddp = NULL;
    tc_distributed_sampler sampler;
    tc_tensor *params[4], *total = NULL;
    const char *what = NULL;
    bool synthetic = false;
    double best = -1, sum = 0;
    int64_t steps = 0, local = 0;
    tc_pg *world;
    int ranks;

    tc_set_num_threads(1);
    if ((world = tc_dist_init()) == NULL)
        return rank_failed(rank, "joining the world");
    ranks = tc_pg_size(world), local = DP_BATCH / ranks;
    if (tc_digits_load(DP_DIGITS, &all) < 0) {
        tc_dataset_free(&all);
        synthetic = true;
        if (synthetic_digits(&all) < 0)
            what = "synthetic digits";
    }
    if (what == NULL && tc_dataset_split(&all, DP_HELD_OUT, SEED, &train, &test) < 0)
        what = "splitting the digits";
    if (what == NULL) {
        tc_manual_seed(SEED);
        model = mlp(2, (const int64_t[]){ DP_PIXELS, DP_HIDDEN, DP_CLASSES });
        what = dp_model(4, params, model, &opt, DP_LR, DP_MOMENTUM);
    }
    if (what == NULL && (ddp = tc_ddp_new(world, 4, params, DP_BUCKET_CAP)) == NULL)
        what = "DistributedDataParallel";
    if (what == NULL && tc_sampler_init(&sampler, tc_dataset_len(&train), ranks, rank, true,
                                        SEED, false) < 0)
        what = "DistributedSampler";
    for (int e = 0; what == NULL && e < DP_WARMUP + DP_EPOCHS; e++) {
        int64_t *indices, n;
        double start, seconds, loss = 0;

        tc_sampler_set_epoch(&sampler, e);
        if ((indices = tc_sampler_indices(&sampler)) == NULL) {
            what = "the sampler's indices";
            break;
        }
        n = sampler.num_samples, steps = (n + local - 1) / local, sum = 0;
        if (tc_barrier(world) < 0)
            what = "barrier";
        start = bench_seconds();
        for (int64_t k = 0; what == NULL && k < steps; k++) {
            int64_t count = n - k * local < local ? n - k * local : local;
            tc_tensor *x = NULL, *y = NULL;
            if (tc_dataset_batch(&train, indices + k * local, count, &x, &y) < 0 ||
                dp_step(model, opt, x, y, false, &loss) < 0)
                what = "a step";
            sum += loss;
            tc_release(x);
            tc_release(y);
        }
        seconds = bench_seconds() - start;
        free(indices);
        if (what == NULL && slowest(world, &seconds) < 0)
            what = "all_reduce of the times";
        if (what == NULL && e >= DP_WARMUP && (best < 0 || seconds < best))
            best = seconds;
    }
    /* the program's epoch loss: the sum over every rank's steps / ranks / steps */
    if (what == NULL && ((total = tc_zeros(TC_SHAPE(1), TC_FLOAT64)) == NULL ||
                         (tc_store(total, 0, sum), tc_all_reduce(world, total, TC_REDUCE_SUM)) < 0))
        what = "all_reduce of the loss";
    if (what == NULL && rank == 0)
        dp->epoch[ranks] = (dp_epoch_result){ .done = true, .synthetic = synthetic,
                                              .steps = steps, .seconds = best,
                                              .loss = tc_load(total, 0) / ranks / (double)steps };
    int status = what == NULL ? 0 : rank_failed(rank, what);
    tc_release(total);
    if (ddp != NULL)
        tc_ddp_free(ddp);
    tc_sgd_free(opt);
    if (model != NULL)
        tc_module_free(model);
    tc_dataset_free(&train), tc_dataset_free(&test), tc_dataset_free(&all);
    tc_dist_finalize();
    return status;
}

/* A rank of the overlap's run: for each cap, a reducer over the step's
   784-128-10 network, OV_WARMUP steps, then OV_RUNS runs of OV_STEPS; the
   fastest run's step and rank 0's reducer times per pass. */
static int dp_overlap_rank(void *arg, int rank)
{
    (void)arg;
    tc_tensor *x = NULL, *y = NULL;
    const char *what = NULL;
    double loss;
    tc_pg *world;
    int64_t rows;

    tc_set_num_threads(1);
    if ((world = tc_dist_init()) == NULL)
        return rank_failed(rank, "joining the world");
    rows = BATCH / tc_pg_size(world);
    tc_manual_seed(SEED);
    x = tc_empty(TC_SHAPE(rows, IN), TC_FLOAT32);
    y = tc_empty(TC_SHAPE(rows), TC_INT64);
    if (x == NULL || y == NULL || tc_uniform_(x, 0, 1, NULL) < 0)
        what = "the input";
    for (int64_t i = 0; what == NULL && i < rows; i++)
        tc_store_int64(y, i, i % OUT);
    for (int c = 0; what == NULL && c < OV_CASES; c++) {
        tc_tensor *params[2 * OV_MAX_LAYERS];
        int n = 2 * ov_cases[c].layers;
        tc_module *model = mlp(ov_cases[c].layers, ov_cases[c].width);
        tc_sgd *opt = NULL;
        tc_ddp *ddp = NULL;
        dp_overlap_result best = { .done = true, .step = -1 };

        what = dp_model(n, params, model, &opt, LR, 0);
        if (what == NULL && (ddp = tc_ddp_new(world, n, params, ov_cases[c].cap)) == NULL)
            what = "DistributedDataParallel";
        if (what != NULL) {
            tc_sgd_free(opt);
            if (model != NULL)
                tc_module_free(model);
            break;
        }

        for (int s = 0; what == NULL && s < OV_WARMUP; s++)
            if (dp_step(model, opt, x, y, true, &loss) < 0)
                what = "a step";
        for (int r = 0; what == NULL && r < OV_RUNS; r++) {
            tc_ddp_stats s0, s1;
            double start, step;
            if (tc_barrier(world) < 0) {
                what = "barrier";
                break;
            }
            s0 = tc_ddp_get_stats(ddp);
            start = bench_seconds();
            for (int s = 0; what == NULL && s < OV_STEPS; s++)
                if (dp_step(model, opt, x, y, true, &loss) < 0)
                    what = "a step";
            step = (bench_seconds() - start) / OV_STEPS;
            s1 = tc_ddp_get_stats(ddp);
            if (what == NULL && slowest(world, &step) < 0)
                what = "all_reduce of the times";
            if (what == NULL && (best.step < 0 || step < best.step)) {
                double passes = (double)(s1.passes - s0.passes);
                best.step = step;
                best.buckets = tc_ddp_num_buckets(ddp);
                best.bytes = s1.bytes_per_pass;
                best.last_bytes = 0;
                for (int k = 0, b = best.buckets - 1; k < tc_ddp_bucket_size(ddp, b); k++)
                    best.last_bytes += tc_numel(params[tc_ddp_bucket_param(ddp, b, k)]) *
                                       (int64_t)sizeof(float);
                best.backward = (s1.backward_seconds - s0.backward_seconds) / passes;
                best.comm = (s1.comm_seconds - s0.comm_seconds) / passes;
                best.exposed = (s1.exposed_seconds - s0.exposed_seconds) / passes;
            }
        }
        tc_ddp_free(ddp);
        tc_sgd_free(opt);
        tc_module_free(model);
        if (what == NULL && rank == 0)
            dp->overlap[c] = best;
    }
    int status = what == NULL ? 0 : rank_failed(rank, what);
    tc_release(x);
    tc_release(y);
    tc_dist_finalize();
    return status;
}

/* Start n ranks of fn; false, said, if they could not start or one failed. */
static bool launch(int n, int (*fn)(void *, int), const char *what)
{
    tc_launch_result result;

    fflush(stdout);
    if (tc_launch_fn(&(tc_launch_options){ .nproc = n, .timeout_seconds = 300 }, fn, NULL,
                     &result) < 0) {
        ROW(what, "(failed: starting %d rank%s: %s)", n, n == 1 ? "" : "s",
            tc_error() != NULL ? tc_error() : "?");
        return false;
    }
    if (result.exit_code != 0) {
        ROW(what, "(failed on %d rank%s: %s)", n, n == 1 ? "" : "s", result.summary);
        return false;
    }
    return true;
}

static void cap_name(char *buf, size_t size, int64_t cap)
{
    if (cap >= (1 << 20) && cap % (1 << 20) == 0)
        snprintf(buf, size, "%lld MiB", (long long)(cap >> 20));
    else if (cap >= 1000 && cap % 1000 == 0)
        snprintf(buf, size, "%lld KB", (long long)(cap / 1000));
    else
        snprintf(buf, size, "%lld B", (long long)cap);
}

static void bench_data_parallel(void)
{
    dp_epoch_result *one, *two;
    char what[96];

    double load[1] = { -1 };

    printf("  data parallel: the chapter's reducer, ranks forked by tc_launch_fn, shared memory,\n"
           "  one thread a rank; 2 ranks at most (this machine has %ld cores); wall clock,\n"
           "  the slower rank's time", sysconf(_SC_NPROCESSORS_ONLN));
    /* Other work on the machine takes cores from the ranks, and a rank that
       waits for a core holds up the other at every all_reduce. */
    if (getloadavg(load, 1) == 1)
        printf(" (load average %.2f as it starts)", load[0]);
    printf("\n");
    dp = mmap(NULL, sizeof *dp, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (dp == MAP_FAILED) {
        printf("  failed: mmap: %s\n", strerror(errno));
        return;
    }
    memset(dp, 0, sizeof *dp);

    one = &dp->epoch[1], two = &dp->epoch[2];
    if (launch(1, dp_epoch_rank, "epoch on 1 rank") && launch(2, dp_epoch_rank, "epoch on 2 ranks")
        && one->done && two->done) {
        snprintf(what, sizeof what, "epoch (%lld steps of %d), 64-64-10, %s, 1 rank",
                 (long long)one->steps, DP_BATCH, one->synthetic ? "synthetic" : "digits");
        ROW(what, "%9.3f ms", one->seconds * 1e3);
        snprintf(what, sizeof what, "  the same on 2 ranks (%d a rank a step)", DP_BATCH / 2);
        ROW(what, "%9.3f ms  2 ranks / 1 rank: %.2f", two->seconds * 1e3,
            two->seconds / one->seconds);
        ROW("", "(best of %d epochs after %d; below 1: 2 ranks train an epoch faster)",
            DP_EPOCHS, DP_WARMUP);
        snprintf(what, sizeof what, "  loss of epoch %d, 1 rank and 2 ranks",
                 DP_WARMUP + DP_EPOCHS);
        ROW(what, "%.4f, %.4f (the same training: %s)", one->loss, two->loss,
            fabs(one->loss - two->loss) < 5e-5 ? "they agree" : "they differ!");
        if (one->synthetic)
            ROW("", "(%s could not be read: synthetic data of the same shapes)", DP_DIGITS);
    }

    if (launch(OV_RANKS, dp_overlap_rank, "the overlap, on 2 ranks")) {
        for (int c = 0; c < OV_CASES; c++) {
            const dp_overlap_result *r = &dp->overlap[c];
            char cap[32], net[64] = "";
            if (!r->done)
                continue;
            cap_name(cap, sizeof cap, ov_cases[c].cap);
            for (int l = 0; l <= ov_cases[c].layers; l++)
                snprintf(net + strlen(net), sizeof net - strlen(net), "%s%lld", l ? "-" : "",
                         (long long)ov_cases[c].width[l]);
            snprintf(what, sizeof what, "DDP step, %s, %d rows a rank, cap %s", net,
                     BATCH / OV_RANKS, cap);
            ROW(what, "%9.3f ms  %d bucket%s, %lld bytes a pass, the last %lld", r->step * 1e3,
                r->buckets, r->buckets == 1 ? "" : "s", (long long)r->bytes,
                (long long)r->last_bytes);
            ROW("  rank 0, a pass: backward, all_reduce, exposed", "%9.3f ms, %.3f ms, %.3f ms",
                r->backward * 1e3, r->comm * 1e3, r->exposed * 1e3);
            ROW("  communication hidden behind backward", "%8.0f %%",
                100 * tc_ddp_hidden_share((tc_ddp_stats){ .comm_seconds = r->comm,
                                                          .exposed_seconds = r->exposed }));
        }
        ROW("", "(784-128-10: the last bucket holds the first layer's weight, 392 KiB of the");
        ROW("", " 398, the last grad backward writes: only the rest of the pass can hide it;");
        ROW("", " the deeper network's later layers fill buckets while backward goes on)");
        ROW("", "(hidden: max(0, all_reduce - exposed) / all_reduce; exposed, the wait at");
        ROW("", " the end of the pass, includes the hand-off to the communication thread;");
        ROW("", " best of %d runs of %d steps after %d)", OV_RUNS, OV_STEPS, OV_WARMUP);
    }
    munmap(dp, sizeof *dp);
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
    bench_data_parallel();
    tc_set_num_threads(threads);
}
