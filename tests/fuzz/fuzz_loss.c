/* fuzz_loss.c: chapter 6's cross-entropy, fused against composed. The
   input builds the arguments of F.cross_entropy as a careless caller
   might: logits of 0 to 5 dims (sizes 0 to 4, float32 or float64, now and
   then int64 or bool, sometimes transposed), with values that are mostly
   moderate and sometimes +-inf, NaN or large; a target of class indices
   (in range, the ignore_index, out of range, huge), of probabilities, or
   of a wrong shape or type; a weight that is missing, right, of the wrong
   size or type, with odd values (0, negative, NaN), or that requires grad;
   any reduction (some invalid), ignore_index and label_smoothing (NaN,
   negative, above 1); grad mode on or off. Then it calls ag_cross_entropy
   (PyTorch's composition) and ag_cross_entropy_fused (one node) on them,
   and backward through each.
   Invariants: nothing crashes or leaks; a failure returns NULL and records
   a message; both fail with the same message, or both succeed with a loss
   of the same shape, type and values (float32 within 1e-4 of the values'
   scale, float64 within 1e-9; NaN matching NaN, an infinity itself); the
   backward passes both fail or both succeed, and the gradients of the
   logits, and of the target and the weight where they require one, agree
   in the same way. Last, the fused backward kernel given a wrong
   grad_output or wrong stats fails with a message. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

static bool trace;

/* With FZ_TRACE set: what a tensor holds, to read a finding. */
static void dump(const char *label, const tc_tensor *t)
{
    char *text;

    if (!trace)
        return;
    text = t == NULL ? NULL : ag_repr(t);
    fprintf(stderr, "%s: %s\n", label, text == NULL ? "(none)" : text);
    free(text);
    tc_clear_error();
}

/* Float32 logits: then every value is finite below 1e6, or infinite. */
static bool small_values;

/* A value for a floating tensor: moderate mostly, sometimes an edge. The
   fused loss computes in double where PyTorch's float32 products and
   gradients may overflow (beyond 3.4e38: it then returns finite values
   where PyTorch's are inf or NaN, as the chapter says), so with float32
   logits the values stay finite below 1e6 or are infinite. */
static double value(fz_reader *r)
{
    uint8_t k = fz_byte(r);
    double v;

    if (k < 200)
        return (double)((int)fz_byte(r) - 128) / 16;
    if (k < 215)
        return (double)((int)fz_byte(r) - 128) * 64;    /* up to +-8192 */
    v = fz_double(r);
    return small_values && isfinite(v) && fabs(v) > 1e6 ? copysign(INFINITY, v) : v;
}

/* A target's or a weight's values: in [lo, hi] mostly, sometimes an edge,
   but never infinite. An infinite coefficient times a log-probability
   that is 0 in one computation and -1e-8 in the other (the rounding of a
   sum like 1 + 8e-8, which float32 makes 1 or 1 + 1.2e-7 depending on the
   order of its terms) is NaN in one and inf in the other: both are right
   to within rounding, so the comparison would be of rounding. And the
   fused loss multiplies a target by its weight before the log-probability
   where PyTorch multiplies after, so values stay below 1e6, whose
   products cannot overflow. */
static tc_tensor *filled(fz_reader *r, tc_shape shape, tc_dtype dtype, double lo, double hi)
{
    tc_tensor *t = tc_empty(shape, dtype);

    for (int64_t k = 0; t != NULL && k < tc_numel(t); k++) {
        bool edge = fz_byte(r) >= 240;
        double v = edge ? value(r) : lo + (hi - lo) * fz_byte(r) / 255.0;
        if (fabs(v) > 1e6)    /* and NaN stays NaN */
            v = copysign(1e6, v);
        if (dtype == TC_INT64)
            tc_store_int64(t, k, edge ? fz_int64(r) : (int64_t)v);
        else
            tc_store(t, k, dtype == TC_BOOL ? v != 0 : v);
    }
    return t;
}

/* The logits: mostly a floating tensor of 1 to 4 dims, sometimes a view. */
static tc_tensor *logits(fz_reader *r)
{
    static const tc_dtype dtypes[] = { TC_FLOAT32, TC_FLOAT64, TC_FLOAT32, TC_FLOAT64,
                                       TC_FLOAT32, TC_FLOAT64, TC_INT64, TC_BOOL };
    tc_shape shape = fz_shape(r, 5, 4);
    tc_dtype dtype = dtypes[fz_byte(r) % 8];
    tc_tensor *x;

    small_values = dtype != TC_FLOAT64;

    if (fz_byte(r) < 200 && (shape.dim == 0 || shape.dim > 4))
        shape.dim = 2;
    x = tc_empty(shape, dtype);
    for (int64_t k = 0; x != NULL && k < tc_numel(x); k++)
        if (dtype == TC_INT64 || dtype == TC_BOOL)
            tc_store_int64(x, k, fz_byte(r) % 3);
        else
            tc_store(x, k, value(r));
    if (x != NULL && x->dim >= 2 && fz_byte(r) < 40) {    /* laid out transposed */
        tc_tensor *t = tc_transpose(x, 0, x->dim - 1);
        tc_tensor *c = t == NULL ? NULL : tc_contiguous(t);

        tc_release(t);
        tc_release(x);
        x = c == NULL ? NULL : tc_transpose(c, 0, c->dim - 1);
        tc_release(c);
    }
    return x;
}

/* The class dim's size and the shape without it (0-D logits: 0 and ()). */
static int64_t classes_of(const tc_tensor *x, tc_shape *rest)
{
    int64_t class_dim = x->dim == 1 ? 0 : 1;

    *rest = (tc_shape){ .dim = x->dim <= 1 ? 0 : x->dim - 1 };
    for (int64_t d = 0, k = 0; d < x->dim; d++)
        if (d != class_dim)
            rest->sizes[k++] = x->sizes[d];
    return x->dim == 0 ? 0 : x->sizes[class_dim];
}

/* The target: class indices, probabilities, or something wrong. */
static tc_tensor *target_for(fz_reader *r, const tc_tensor *x, int64_t ignore_index)
{
    tc_shape rest;
    int64_t classes = classes_of(x, &rest);
    uint8_t kind = fz_byte(r);
    tc_tensor *t;

    if (kind < 140) {    /* class indices, some ignored or out of range */
        t = tc_empty(rest, TC_INT64);
        for (int64_t k = 0; t != NULL && k < tc_numel(t); k++) {
            uint8_t c = fz_byte(r);
            tc_store_int64(t, k, c < 200 ? (classes > 0 ? c % classes : 0)
                                 : c < 230 ? ignore_index : fz_int64(r));
        }
        return t;
    }
    if (kind < 220) {    /* probabilities, rows summing to 1 mostly */
        tc_tensor *raw = filled(r, tc_shape_of(x), fz_bool(r) ? TC_FLOAT32 : TC_FLOAT64, -3, 3);
        if (raw == NULL || fz_byte(r) < 40)
            return raw;
        t = tc_softmax(raw, x->dim == 1 ? 0 : 1);
        tc_clear_error();    /* a 0-D one has no class dim: keep it raw */
        if (t == NULL)
            return raw;
        tc_release(raw);
        return t;
    }
    if (kind < 235)    /* class indices of a float type */
        return filled(r, rest, TC_FLOAT32, 0, (double)classes);
    return filled(r, fz_shape(r, 4, 4), fz_dtype(r), -1, (double)classes + 1);
}

/* The weight: mostly none or one per class, sometimes wrong. */
static tc_tensor *weight_for(fz_reader *r, const tc_tensor *x)
{
    tc_shape rest;
    int64_t classes = classes_of(x, &rest);
    uint8_t kind = fz_byte(r);

    if (kind < 110)
        return NULL;
    if (kind < 230)
        return filled(r, TC_SHAPE(classes), x->dtype == TC_FLOAT64 ? TC_FLOAT64 : TC_FLOAT32,
                      0, 3);
    return filled(r, fz_shape(r, 2, 5), fz_dtype(r), -1, 2);
}

static double number(fz_reader *r)
{
    static const double smoothing[] = { 0, 0.1, 0.25, 0.5, 1, 0, 0, 0.05,
                                        -0.5, 1.5, NAN, INFINITY, -0.0, 1.0000001, 0.999, 0 };
    return smoothing[fz_byte(r) % 16];
}

/* ---- one call, composed or fused, and its backward pass ---------------------- */

typedef struct {
    tc_tensor *x, *target, *weight;
    tc_reduction reduction;
    int64_t ignore_index;
    double smoothing;
    bool backward;             /* run one, if the loss has a graph */
    uint8_t seed_kind;         /* the gradient of the loss: ones, or ramps */
} call;

typedef struct {
    tc_tensor *loss, *grad[3];    /* of the logits, the target, the weight */
    char message[512];            /* the call's failure, or "" */
    int backward;                 /* 0 ran, -1 failed, 1 not run */
    char backward_message[512];
} outcome;

static void copy_message(char *to, const char *what)
{
    const char *m = tc_error();

    FZ_CHECK(m != NULL && m[0] != '\0', "%s failed without a message", what);
    snprintf(to, 512, "%s", m);
    tc_clear_error();
}

static tc_tensor *seed_for(const tc_tensor *loss, uint8_t kind)
{
    tc_tensor *seed = tc_empty(tc_shape_of(loss), loss->dtype);

    for (int64_t k = 0; seed != NULL && k < tc_numel(seed); k++)
        tc_store(seed, k, kind < 128 ? 1.0 : 0.5 + 0.25 * (double)(k % 5));
    return seed;
}

static void run(const call *c, bool fused, outcome *o)
{
    tc_tensor *inputs[3] = { c->x, c->target, c->weight }, *seed;

    *o = (outcome){ .backward = 1 };
    for (int k = 0; k < 3; k++)
        if (inputs[k] != NULL)
            ag_zero_grad(inputs[k], true);
    tc_clear_error();
    o->loss = (fused ? ag_cross_entropy_fused : ag_cross_entropy)(
        c->x, c->target, c->weight, c->reduction, c->ignore_index, c->smoothing);
    if (o->loss == NULL) {
        copy_message(o->message, fused ? "ag_cross_entropy_fused" : "ag_cross_entropy");
        return;
    }
    fz_check_no_error(fused ? "ag_cross_entropy_fused" : "ag_cross_entropy");
    fz_check_in_storage(o->loss);
    if (!c->backward || !ag_requires_grad(o->loss))
        return;
    seed = seed_for(o->loss, c->seed_kind);
    o->backward = seed == NULL ? -1 : ag_backward(o->loss, seed, false);
    tc_release(seed);
    if (o->backward < 0) {
        copy_message(o->backward_message, "backward");
        return;
    }
    for (int k = 0; k < 3; k++)
        o->grad[k] = inputs[k] == NULL ? NULL : tc_retain(ag_grad(inputs[k]));
}

static void release_outcome(outcome *o)
{
    tc_release(o->loss);
    for (int k = 0; k < 3; k++)
        tc_release(o->grad[k]);
}

/* ---- comparing ----------------------------------------------------------------- */

/* The row-major number of the element at index. */
static int64_t element_number(const tc_tensor *t, const int64_t *index)
{
    int64_t k = 0;

    for (int64_t d = 0; d < t->dim; d++)
        k = k * t->sizes[d] + index[d];
    return k;
}

/* The largest finite magnitude in t (0 for NULL or none). */
static double magnitude(const tc_tensor *t)
{
    int64_t index[TC_MAX_DIMS] = { 0 };
    double m = 0;

    if (t == NULL || tc_numel(t) == 0)
        return 0;
    do {
        double v = fz_ref_load(t, index);
        m = isfinite(v) ? fmax(m, fabs(v)) : m;
    } while (tc_next_index(t->dim, t->sizes, index));
    return m;
}

/* a and b (either may be NULL only if both are) agree: one shape and type,
   and values within tolerance times the larger finite magnitude in them
   (at least scale); NaN where the other has NaN, an infinity where the
   other has the same. */
static void check_close(const tc_tensor *a, const tc_tensor *b, double tolerance,
                        double scale, const char *what)
{
    int64_t index[TC_MAX_DIMS] = { 0 };

    FZ_CHECK((a == NULL) == (b == NULL), "%s: composed %s, fused %s", what,
             a == NULL ? "none" : "one", b == NULL ? "none" : "one");
    if (a == NULL)
        return;
    fz_check_shape(b, tc_shape_of(a), what);
    FZ_CHECK(a->dtype == b->dtype, "%s: composed %s, fused %s", what, tc_dtype_name(a->dtype),
             tc_dtype_name(b->dtype));
    if (tc_numel(a) == 0)
        return;
    do {
        double va = fz_ref_load(a, index), vb = fz_ref_load(b, index);
        scale = fmax(scale, fmax(isfinite(va) ? fabs(va) : 0, isfinite(vb) ? fabs(vb) : 0));
    } while (tc_next_index(a->dim, a->sizes, index));
    do {
        double va = fz_ref_load(a, index), vb = fz_ref_load(b, index);
        bool same = isnan(va) ? isnan(vb) : isinf(va) ? va == vb
                  : isfinite(vb) && fabs(va - vb) <= tolerance * scale;
        FZ_CHECK(same, "%s: composed %.9g, fused %.9g (scale %g) at element %lld", what, va, vb,
                 scale, (long long)element_number(a, index));
    } while (tc_next_index(a->dim, a->sizes, index));
}

static void compare(const call *c, const outcome *a, const outcome *b)
{
    static const char *const names[3] = { "grad of the logits", "grad of the target",
                                          "grad of the weight" };
    bool float32 = c->x->dtype == TC_FLOAT32 ||
                   (c->target != NULL && c->target->dtype == TC_FLOAT32) ||
                   (c->weight != NULL && c->weight->dtype == TC_FLOAT32);
    double tolerance = float32 ? 1e-4 : 1e-9;    /* float32 anywhere: float32 roundings */
    double scale = 1;

    /* The loss is a sum of weights (times probabilities) times
       log-probabilities, whose rounding (float32's, in PyTorch's
       log_softmax, of the order of the logits' spread) those factors
       magnify, and such sums cancel: a weight of 5248 times a
       log-probability of -3e-4 known to 2e-4 of itself moves the loss by
       2e-4. So errors are measured against the products' size. */
    scale = (1 + magnitude(c->x)) * (1 + magnitude(c->weight));
    if (c->target != NULL && c->target->dtype != TC_INT64)
        scale *= 1 + magnitude(c->target);

    FZ_CHECK(strcmp(a->message, b->message) == 0, "messages differ:\n  composed: %s\n"
             "  fused:    %s", a->message, b->message);
    if (a->loss == NULL)
        return;
    check_close(a->loss, b->loss, tolerance, scale, "loss");
    FZ_CHECK(a->backward == b->backward, "backward: composed %d (%s), fused %d (%s)",
             a->backward, a->backward_message, b->backward, b->backward_message);
    FZ_CHECK(strcmp(a->backward_message, b->backward_message) == 0,
             "backward messages differ:\n  composed: %s\n  fused:    %s", a->backward_message,
             b->backward_message);
    /* A gradient is a difference of terms as large as the weight times the
       loss's gradient (at most 1.5 here), which may cancel: at p = 1 and
       C = 1 it is 0 from terms of 8128 for a weight of 8128. */
    scale *= 2.5 * (1 + magnitude(c->weight));
    for (int k = 0; a->backward == 0 && k < 3; k++)
        check_close(a->grad[k], b->grad[k], tolerance, scale, names[k]);
}

/* The gradient the forward kernel computes for a grad_output of 1 is
   the backward kernel's, bit for bit; and the backward kernel refuses a
   grad_output of another shape and stats that are not the forward's, with
   a message. */
static void check_kernel_refusals(const call *c)
{
    tc_tensor *loss = NULL, *stats = NULL, *grad = NULL, *ahead = NULL, *ones;
    tc_tensor *wrong_grad, *wrong_stats;

    tc_clear_error();
    if (tc_cross_entropy_fused_forward(c->x, c->target, c->weight, c->reduction,
                                       c->ignore_index, c->smoothing, &loss, &stats,
                                       &ahead) < 0) {
        FZ_CHECK(loss == NULL && stats == NULL && ahead == NULL, "a failed forward left outputs");
        fz_check_failed("tc_cross_entropy_fused_forward");
        return;
    }
    ones = tc_ones(tc_shape_of(loss), loss->dtype);
    if (ones != NULL &&
        tc_cross_entropy_fused_backward(ones, c->x, c->target, c->weight, c->reduction,
                                        c->ignore_index, c->smoothing, stats, &grad, NULL,
                                        NULL) == 0) {
        FZ_CHECK(grad->dtype == ahead->dtype && tc_numel(grad) == tc_numel(ahead) &&
                     (tc_numel(grad) == 0 ||
                      memcmp(tc_data_ptr(grad), tc_data_ptr(ahead),
                             (size_t)tc_numel(grad) * tc_itemsize(grad->dtype)) == 0),
                 "the forward's gradient for a grad_output of 1 is not the backward's");
        tc_release(grad);
        grad = NULL;
    }
    tc_release(ones);
    tc_release(ahead);
    tc_clear_error();
    wrong_grad = tc_ones(TC_SHAPE(tc_numel(loss) + 1), TC_FLOAT64);
    wrong_stats = tc_ones(TC_SHAPE(tc_numel(stats) + 1), TC_FLOAT64);
    FZ_CHECK(tc_cross_entropy_fused_backward(wrong_grad, c->x, c->target, c->weight,
                                             c->reduction, c->ignore_index, c->smoothing, stats,
                                             &grad, NULL, NULL) < 0 && grad == NULL,
             "a grad_output of the wrong shape was taken");
    fz_check_failed("backward with a wrong grad_output");
    FZ_CHECK(tc_cross_entropy_fused_backward(loss, c->x, c->target, c->weight, c->reduction,
                                             c->ignore_index, c->smoothing, wrong_stats, &grad,
                                             NULL, NULL) < 0 && grad == NULL,
             "stats of the wrong length were taken");
    fz_check_failed("backward with wrong stats");
    tc_release(wrong_grad);
    tc_release(wrong_stats);
    tc_release(loss);
    tc_release(stats);
}

/* ---- the target ------------------------------------------------------------------ */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const int64_t ignore_indices[] = { -100, -100, -100, 0, 1, 2, -1, INT64_MIN };
    fz_reader r = fz_reader_of(data, size);
    bool grad_mode = fz_byte(&r) < 220, previous;
    call c = { .reduction = TC_REDUCTION_MEAN };
    outcome composed, fused;

    tc_clear_error();
    trace = getenv("FZ_TRACE") != NULL;
    c.x = logits(&r);
    if (c.x == NULL) {
        tc_clear_error();
        return 0;
    }
    c.ignore_index = ignore_indices[fz_byte(&r) % 8];
    c.target = target_for(&r, c.x, c.ignore_index);
    c.weight = weight_for(&r, c.x);
    c.reduction = (tc_reduction)(fz_byte(&r) < 245 ? fz_byte(&r) % 3 : fz_range(&r, -2, 5));
    c.smoothing = number(&r);
    c.backward = fz_byte(&r) < 230;
    c.seed_kind = fz_byte(&r);
    if (c.x->dtype == TC_FLOAT32 || c.x->dtype == TC_FLOAT64)
        ag_set_requires_grad(c.x, fz_byte(&r) < 230);
    if (c.target != NULL && (c.target->dtype == TC_FLOAT32 || c.target->dtype == TC_FLOAT64))
        ag_set_requires_grad(c.target, fz_byte(&r) < 40);
    if (c.weight != NULL && (c.weight->dtype == TC_FLOAT32 || c.weight->dtype == TC_FLOAT64))
        ag_set_requires_grad(c.weight, fz_byte(&r) < 40);
    tc_clear_error();
    previous = ag_set_grad_enabled(grad_mode);
    if (trace)
        fprintf(stderr, "reduction %d, ignore_index %lld, label_smoothing %g, grad mode %d\n",
                (int)c.reduction, (long long)c.ignore_index, c.smoothing, grad_mode);
    dump("logits", c.x);
    dump("target", c.target);
    dump("weight", c.weight);
    run(&c, false, &composed);
    run(&c, true, &fused);
    if (trace)
        fprintf(stderr, "composed: %s\nfused:    %s\n", composed.message, fused.message);
    dump("composed loss", composed.loss);
    dump("fused loss", fused.loss);
    for (int k = 0; k < 3; k++) {
        dump("composed grad", composed.grad[k]);
        dump("fused grad", fused.grad[k]);
    }
    compare(&c, &composed, &fused);
    release_outcome(&composed);
    release_outcome(&fused);
    check_kernel_refusals(&c);
    ag_set_grad_enabled(previous);
    tc_release(c.x);
    tc_release(c.target);
    tc_release(c.weight);
    tc_clear_error();
    return 0;
}
