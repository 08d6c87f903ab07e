/* check_ch06_fused.h: the tests of the fused cross-entropy of chapter 6
   ("One node for the whole loss"): ag_cross_entropy_fused and its kernels.
   check_ch06.c includes it and calls ch06_add_fused(s).

   The expected losses and gradients are PyTorch 1.13's, from
   tests/pytorch/ch06_fused_cases.py (the table in check_ch06_fused_cases.h),
   compared within rtol 1e-5, atol 1e-6 for float32 and rtol 1e-12 for
   float64 (NaN matches NaN, an infinity itself). The gradients of the
   fused node are also checked numerically by ag_gradcheck, in float64. */
#include <check.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "tc.h"
#include "testing.h"

typedef struct {
    const char *name;
    tc_dtype dtype;
    tc_shape shape;
    bool transposed;             /* the logits laid out as x.t().contiguous().t() */
    const double *x;
    tc_dtype target_dtype;       /* TC_INT64: classes; else probabilities */
    const double *target;
    const double *weight;        /* or NULL */
    tc_reduction reduction;
    int64_t ignore_index;
    double label_smoothing;
    const double *loss, *grad;
    const double *target_grad, *weight_grad;    /* probabilities: or NULL */
} fused_case;

#include "check_ch06_fused_cases.h"

#define fused_numel(shape) testing_numel(shape)

/* A tensor of values v (row-major), kept until the test ends. */
#define fused_tensor(shape, dtype, v) testing_tensor(shape, dtype, v)

/* t's n values against want, within the tolerance of float32 work when
   precision (the logits' type) is float32, whatever t's type: rtol 1e-5,
   atol 1e-6; of float64 otherwise: 1e-12 of the larger of 1 and |want|. */
static void fused_expect(const char *name, const char *what, tc_dtype precision,
                         const tc_tensor *t, const double *want, int64_t n)
{
    char label[256];

    snprintf(label, sizeof label, "%s: %s", name, what);
    testing_expect_values(0, label, t, n, want,
                          precision == TC_FLOAT32 ? TESTING_TOL(1e-5, 1e-6)
                                                  : (testing_tol){ 1e-12, 1e-12, true });
}

static void fused_assert_values(const char *what, const fused_case *c, const tc_tensor *t,
                                const double *want, int64_t n)
{
    fused_expect(c->name, what, c->dtype, t, want, n);
}

/* The logits of case c: a leaf that requires grad, laid out as PyTorch's. */
static tc_tensor *fused_logits(const fused_case *c)
{
    tc_tensor *x = fused_tensor(c->shape, c->dtype, c->x);

    if (c->transposed) {
        tc_tensor *t = K(tc_t(x));
        x = K(tc_t(K(tc_contiguous(t))));
    }
    ck_assert_int_eq(ag_set_requires_grad(x, true), 0);
    return x;
}

/* The target of case c: class indices of the input's shape without the
   class dim, or probabilities of the input's shape (kept). */
static tc_tensor *fused_target(const fused_case *c)
{
    tc_shape shape = c->shape;

    if (c->target_dtype == TC_INT64) {
        shape = (tc_shape){ .dim = c->shape.dim == 1 ? 0 : c->shape.dim - 1 };
        for (int64_t d = 0, k = 0; d < c->shape.dim; d++)
            if (d != (c->shape.dim == 1 ? 0 : 1))
                shape.sizes[k++] = c->shape.sizes[d];
    }
    return fused_tensor(shape, c->target_dtype, c->target);
}

/* The weight of case c, of C values, or NULL (kept). */
static tc_tensor *fused_weight(const fused_case *c)
{
    int64_t classes = c->shape.sizes[c->shape.dim == 1 ? 0 : 1];

    return c->weight == NULL ? NULL : fused_tensor(TC_SHAPE(classes), c->dtype, c->weight);
}

/* Each case: the loss, its node, and the logits' gradient, against PyTorch's. */
START_TEST(test_fused_matches_pytorch)
{
    const fused_case *c = &FUSED_CASES[_i];
    tc_tensor *x = fused_logits(c), *target = fused_target(c), *weight = fused_weight(c);
    tc_tensor *loss, *seed;
    int64_t n;

    if (c->target_grad != NULL)    /* probabilities: they and the weight get gradients */
        ck_assert_int_eq(ag_set_requires_grad(target, true), 0);
    if (c->weight_grad != NULL)
        ck_assert_int_eq(ag_set_requires_grad(weight, true), 0);
    loss = K(ag_cross_entropy_fused(x, target, weight, c->reduction, c->ignore_index,
                                    c->label_smoothing));
    ck_assert_msg(loss != NULL, "%s: %s", c->name, tc_error());
    n = tc_numel(loss);
    fused_assert_values("loss", c, loss, c->loss, n);
    ck_assert_str_eq(ag_node_type_name(ag_grad_fn(loss)), "FusedCrossEntropyBackward");
    seed = K(tc_empty(tc_shape_of(loss), loss->dtype));
    for (int64_t k = 0; k < n; k++)
        tc_store(seed, k, c->reduction == TC_REDUCTION_NONE ? 0.5 + 0.25 * (double)k : 1.0);
    ck_assert_msg(ag_backward(loss, seed, false) == 0, "%s: %s", c->name, tc_error());
    fused_assert_values("grad", c, ag_grad(x), c->grad, fused_numel(c->shape));
    if (c->target_grad != NULL)
        fused_assert_values("target grad", c, ag_grad(target), c->target_grad,
                            fused_numel(c->shape));
    if (c->weight_grad != NULL)
        fused_assert_values("weight grad", c, ag_grad(weight), c->weight_grad,
                            tc_numel(weight));
}
END_TEST

/* gradcheck's function: the fused loss of inputs[0] (the logits) against
   the target of the context, or inputs[1] (probabilities) and inputs[2]
   (the weight) when these are given. */
typedef struct {
    const tc_tensor *target, *weight;
    tc_reduction reduction;
    int64_t ignore_index;
    double label_smoothing;
} fused_gc;

static tc_tensor *fused_gc_loss(tc_tensor *const *inputs, void *context)
{
    const fused_gc *g = context;

    return ag_cross_entropy_fused(inputs[0], g->target != NULL ? g->target : inputs[1],
                                  g->weight != NULL || g->target != NULL ? g->weight
                                                                         : inputs[2],
                                  g->reduction, g->ignore_index, g->label_smoothing);
}

/* gradcheck of FusedCrossEntropyBackward in float64: class targets with a
   weight, an ignored target and smoothing, every reduction; a 4-D input. */
START_TEST(test_fused_gradcheck_classes)
{
    tc_tensor *x = fused_tensor(TC_SHAPE(3, 5), TC_FLOAT64, C0_X);
    tc_tensor *x4 = fused_tensor(TC_SHAPE(2, 3, 2, 2), TC_FLOAT64, C13_X);
    const double t[] = { 1, 0, 4 }, t4[] = { 0, 1, 2, -100, 2, 2, 1, 0 };
    fused_gc g = { fused_tensor(TC_SHAPE(3), TC_INT64, t), fused_tensor(TC_SHAPE(5), TC_FLOAT64,
                                                                         C3_W),
                   TC_REDUCTION_MEAN, 0, 0.2 };
    ag_gradcheck_mismatch m;

    ck_assert_int_eq(ag_set_requires_grad(x, true), 0);
    ck_assert_int_eq(ag_set_requires_grad(x4, true), 0);
    for (int r = TC_REDUCTION_NONE; r <= TC_REDUCTION_SUM; r++) {
        g.reduction = (tc_reduction)r;
        ck_assert_msg(ag_gradcheck(fused_gc_loss, &g, 1, &x, &m) == 0, "%s", tc_error());
    }
    g = (fused_gc){ fused_tensor(TC_SHAPE(2, 2, 2), TC_INT64, t4), NULL, TC_REDUCTION_MEAN,
                    -100, 0.0 };
    ck_assert_msg(ag_gradcheck(fused_gc_loss, &g, 1, &x4, &m) == 0, "%s", tc_error());
}
END_TEST

/* gradcheck with probability targets: the logits, the target and the
   weight all require grad, with smoothing 0.3. */
START_TEST(test_fused_gradcheck_probabilities)
{
    tc_tensor *in[3] = { fused_tensor(TC_SHAPE(3, 5), TC_FLOAT64, C15_X),
                         fused_tensor(TC_SHAPE(3, 5), TC_FLOAT64, C15_T),
                         fused_tensor(TC_SHAPE(5), TC_FLOAT64, C16_W) };
    fused_gc g = { NULL, NULL, TC_REDUCTION_MEAN, -100, 0.3 };
    ag_gradcheck_mismatch m;

    for (int k = 0; k < 3; k++)
        ck_assert_int_eq(ag_set_requires_grad(in[k], true), 0);
    for (int r = TC_REDUCTION_NONE; r <= TC_REDUCTION_SUM; r++) {
        g.reduction = (tc_reduction)r;
        ck_assert_msg(ag_gradcheck(fused_gc_loss, &g, 3, in, &m) == 0, "%s", tc_error());
    }
}
END_TEST

/* The node saves the logits as themselves: changing them in place after
   the forward makes the backward fail with chapter 5's message, PyTorch's
   for a saved input: x = torch.randn(3, 5, dtype=torch.float64,
   requires_grad=True); y = x * 1.0; z = y.sin().sum(); y.add_(1);
   z.backward() names [torch.DoubleTensor [3, 5]], output 0 of AddBackward0. */
START_TEST(test_fused_sees_an_inplace_change)
{
    tc_tensor *x = fused_tensor(TC_SHAPE(3, 5), TC_FLOAT64, C0_X), *y, *loss;
    const double t[] = { 1, 0, 4 };

    ck_assert_int_eq(ag_set_requires_grad(x, true), 0);
    y = K(ag_mul_scalar(x, 1.0));
    loss = K(ag_cross_entropy_fused(y, fused_tensor(TC_SHAPE(3), TC_INT64, t), NULL,
                                    TC_REDUCTION_SUM, -100, 0.0));
    ck_assert_ptr_nonnull(K(ag_add_(y, K(tc_number(1.0)))));
    ck_assert_int_eq(ag_backward(loss, NULL, false), -1);
    ck_assert_str_eq(tc_error(), "one of the variables needed for gradient computation has "
                     "been modified by an inplace operation: [torch.DoubleTensor [3, 5]], "
                     "which is output 0 of AddBackward0, is at version 1; expected version 0 "
                     "instead. Hint: enable anomaly detection to find the operation that "
                     "failed to compute its gradient, with "
                     "torch.autograd.set_detect_anomaly(True).");
}
END_TEST

/* The fused loss's float32 exp against the C library's exp in double, at
   every 4099th float32 x <= 0 where e^x is a normal float (the benchmark
   goes through them all): within 2.5 units in the last place of the
   correctly rounded value (2.26 is the largest, at -27.33321); e^0 = 1
   exactly (a row's largest logit), e^-inf = 0, and 0 below -87.68, where
   e^x is less than 2^-126.5. */
START_TEST(test_fused_exp_accuracy)
{
    for (uint32_t bits = 0x80000000u;; bits += 4099) {
        float x, rounded;
        double exact, ulp;

        memcpy(&x, &bits, sizeof x);
        exact = exp((double)x);
        if (exact < 0x1p-126)
            break;
        rounded = (float)exact;
        ulp = (double)nextafterf(rounded, INFINITY) - (double)rounded;
        ck_assert_msg(fabs((double)tc_expf_nonpositive(x) - exact) <= 2.5 * ulp,
                      "e^%.9g is %.9g, the exact %.17g", x, tc_expf_nonpositive(x), exact);
    }
    ck_assert(tc_expf_nonpositive(0.0f) == 1.0f && tc_expf_nonpositive(-0.0f) == 1.0f);
    ck_assert(tc_expf_nonpositive(-INFINITY) == 0.0f);
    ck_assert(tc_expf_nonpositive(-87.7f) == 0.0f && tc_expf_nonpositive(-1000.0f) == 0.0f);
    ck_assert(tc_expf_nonpositive(-87.6f) > 0.0f);    /* a subnormal, not flushed */
}
END_TEST

/* ---- regressions: what fuzz_loss found (each value is PyTorch 1.13's,
   from the Python expression above the test) ---------------------------- */

#define FUSED_D(...) ((const double[]){ __VA_ARGS__ })

/* A leaf that requires grad, float32 or float64, from literals. */
static tc_tensor *fused_leaf(tc_shape shape, tc_dtype dtype, const double *v)
{
    tc_tensor *t = fused_tensor(shape, dtype, v);

    ck_assert_int_eq(ag_set_requires_grad(t, true), 0);
    return t;
}

/* F.cross_entropy(torch.zeros(2, 0), torch.full((2,), -100), reduction='none',
   label_smoothing=0.5) is [nan, nan] and, over torch.zeros(0, 0) with
   reduction='sum' and label_smoothing=1.0, nan: the smoothing term is
   multiplied by 1.0 / 0 classes, inf, even for ignored rows and none. */
START_TEST(test_fused_smoothing_without_classes_is_nan)
{
    tc_tensor *none = K(ag_cross_entropy_fused(K(tc_zeros(TC_SHAPE(2, 0), TC_FLOAT32)),
                                               K(tc_full(TC_SHAPE(2), -100, TC_INT64)), NULL,
                                               TC_REDUCTION_NONE, -100, 0.5));
    tc_tensor *sum = K(ag_cross_entropy_fused(K(tc_zeros(TC_SHAPE(0, 0), TC_FLOAT32)),
                                              K(tc_zeros(TC_SHAPE(0), TC_INT64)), NULL,
                                              TC_REDUCTION_SUM, -100, 1.0));

    fused_expect("no classes", "none", TC_FLOAT32, none, FUSED_D(NAN, NAN), 2);
    fused_expect("no classes", "sum", TC_FLOAT32, sum, FUSED_D(NAN), 1);
}
END_TEST

/* x = torch.zeros(0, 0, requires_grad=True); F.cross_entropy(x,
   torch.zeros(0), reduction='sum') is 0 (an empty sum reads no target),
   and its backward fails: nll_loss_backward checks the target's type. */
START_TEST(test_fused_float_target_of_an_empty_batch)
{
    tc_tensor *x = fused_leaf(TC_SHAPE(0, 0), TC_FLOAT32, FUSED_D(0));
    tc_tensor *loss = K(ag_cross_entropy_fused(x, K(tc_zeros(TC_SHAPE(0), TC_FLOAT32)), NULL,
                                               TC_REDUCTION_SUM, -100, 0.0));

    fused_expect("empty batch", "loss", TC_FLOAT32, loss, FUSED_D(0), 1);
    ck_assert_int_eq(ag_backward(loss, NULL, false), -1);
    ck_assert_str_eq(tc_error(), "expected scalar type Long but found Float");
    tc_clear_error();
}
END_TEST

/* x = torch.full((4,), 1.5625, dtype=torch.float64, requires_grad=True);
   F.cross_entropy(x, torch.tensor([0.6, -inf, -3., -3.])) is -inf (each
   log-probability is -log 4, never 0, so -inf * it is inf, not NaN), and
   x.grad is [-inf, nan, -inf, -inf]. */
START_TEST(test_fused_infinite_probability)
{
    tc_tensor *x = fused_leaf(TC_SHAPE(4), TC_FLOAT64, FUSED_D(1.5625, 1.5625, 1.5625, 1.5625));
    tc_tensor *loss = K(ag_cross_entropy_fused(x, fused_tensor(TC_SHAPE(4), TC_FLOAT32,
                                                               FUSED_D(0.6, -INFINITY, -3, -3)),
                                               NULL, TC_REDUCTION_MEAN, -100, 0.0));

    fused_expect("infinite probability", "loss", TC_FLOAT64, loss, FUSED_D(-INFINITY), 1);
    ck_assert_int_eq(ag_backward(loss, NULL, false), 0);
    fused_expect("infinite probability", "grad", TC_FLOAT64, ag_grad(x),
                 FUSED_D(-INFINITY, NAN, -INFINITY, -INFINITY), 4);
}
END_TEST

/* With class targets and smoothing, the weight must also pass
   cross_entropy_loss_label_smoothing: weight=torch.tensor(-1.) for
   torch.zeros(4, 1, 0) fails with "Dimension specified as 0 but tensor has
   no dimensions"; torch.ones(1, 3) for torch.zeros(2, 3, 2, 2) with "shape
   '[1, 1, 1, 1]' is invalid for input of size 3"; torch.ones(3, 1) with
   the mean: "Index tensor must have the same number of dimensions as input
   tensor", and with the sum the loss is 8 ln 3 (eight positions of ln 3).
   A target out of range comes first: F.cross_entropy(torch.zeros(4, 1, 1,
   1), torch.tensor([0, 6, 0, 0]).view(4, 1, 1), weight=torch.tensor(1.8),
   label_smoothing=0.999) fails with "Target 6 is out of bounds." */
START_TEST(test_fused_smoothing_checks_the_weight)
{
    tc_tensor *x = K(tc_zeros(TC_SHAPE(2, 3, 2, 2), TC_FLOAT32));
    tc_tensor *t = K(tc_zeros(TC_SHAPE(2, 2, 2), TC_INT64));

    EXPECT_FAILS(ag_cross_entropy_fused(K(tc_zeros(TC_SHAPE(4, 1, 0), TC_FLOAT32)),
                                        K(tc_zeros(TC_SHAPE(4, 0), TC_INT64)),
                                        K(tc_full(TC_SCALAR_SHAPE, -1, TC_FLOAT32)),
                                        TC_REDUCTION_MEAN, -100, 0.999),
                 "Dimension specified as 0 but tensor has no dimensions");
    EXPECT_FAILS(ag_cross_entropy_fused(x, t, K(tc_ones(TC_SHAPE(1, 3), TC_FLOAT32)),
                                        TC_REDUCTION_MEAN, -100, 0.5),
                 "shape '[1, 1, 1, 1]' is invalid for input of size 3");
    EXPECT_FAILS(ag_cross_entropy_fused(x, t, K(tc_ones(TC_SHAPE(3, 1), TC_FLOAT32)),
                                        TC_REDUCTION_MEAN, -100, 0.5),
                 "Index tensor must have the same number of dimensions as input tensor");
    EXPECT_FAILS(ag_cross_entropy_fused(K(tc_zeros(TC_SHAPE(4, 1, 1, 1), TC_FLOAT64)),
                                        fused_tensor(TC_SHAPE(4, 1, 1), TC_INT64,
                                                     FUSED_D(0, 6, 0, 0)),
                                        K(tc_full(TC_SCALAR_SHAPE, 1.8, TC_FLOAT64)),
                                        TC_REDUCTION_MEAN, -100, 0.999),
                 "Target 6 is out of bounds.");
    fused_expect("weight (3, 1)", "sum", TC_FLOAT32,
                 K(ag_cross_entropy_fused(x, t, K(tc_ones(TC_SHAPE(3, 1), TC_FLOAT32)),
                                          TC_REDUCTION_SUM, -100, 0.5)),
                 FUSED_D(8.788898309344878), 1);
}
END_TEST

/* x = torch.tensor([[-4.3125, -4.3125, -1e300, -1e300]], dtype=torch.float64,
   requires_grad=True); q = torch.full((1, 4), 0.25, requires_grad=True);
   F.cross_entropy(x, q, reduction='sum', label_smoothing=1.0) is 5e299 and
   q.grad is [0, 0, nan, nan]: the gradient reaches q's float32 (1e300 is
   inf there) before it is multiplied by 1 - 1.0. */
START_TEST(test_fused_target_gradient_in_the_target_type)
{
    tc_tensor *x = fused_leaf(TC_SHAPE(1, 4), TC_FLOAT64, FUSED_D(-4.3125, -4.3125, -1e300, -1e300));
    tc_tensor *q = fused_leaf(TC_SHAPE(1, 4), TC_FLOAT32, FUSED_D(0.25, 0.25, 0.25, 0.25));
    tc_tensor *loss = K(ag_cross_entropy_fused(x, q, NULL, TC_REDUCTION_SUM, -100, 1.0));

    fused_expect("float32 target", "loss", TC_FLOAT64, loss, FUSED_D(5e299), 1);
    ck_assert_int_eq(ag_backward(loss, NULL, false), 0);
    fused_expect("float32 target", "target grad", TC_FLOAT32, ag_grad(q),
                 FUSED_D(0, 0, NAN, NAN), 4);
}
END_TEST

/* x = torch.tensor([[1., 2., 3.], [0.5, -1., 2.]], requires_grad=True);
   F.cross_entropy(x, torch.tensor([0, -100]), weight=torch.tensor([1., 2.,
   inf]), reduction='none', label_smoothing=0.25) is [inf, 0], and its
   backward gives the ignored row NaN: its smoothing term's gradient, 0,
   is multiplied by the weight, inf. */
START_TEST(test_fused_ignored_row_times_an_infinite_weight)
{
    tc_tensor *x = fused_leaf(TC_SHAPE(2, 3), TC_FLOAT32, FUSED_D(1, 2, 3, 0.5, -1, 2));
    tc_tensor *loss = K(ag_cross_entropy_fused(x, fused_tensor(TC_SHAPE(2), TC_INT64,
                                                               FUSED_D(0, -100)),
                                               fused_tensor(TC_SHAPE(3), TC_FLOAT32,
                                                            FUSED_D(1, 2, INFINITY)),
                                               TC_REDUCTION_NONE, -100, 0.25));

    fused_expect("infinite weight", "loss", TC_FLOAT32, loss, FUSED_D(INFINITY, 0), 2);
    ck_assert_int_eq(ag_backward(loss, K(tc_ones(TC_SHAPE(2), TC_FLOAT32)), false), 0);
    fused_expect("infinite weight", "grad", TC_FLOAT32, ag_grad(x),
                 FUSED_D(INFINITY, INFINITY, NAN, NAN, NAN, NAN), 6);
}
END_TEST

/* x = torch.tensor([-inf, -3., -5.3125], requires_grad=True);
   F.cross_entropy(x, torch.tensor(1), weight=torch.tensor([-6.75, 0.,
   2.5]), label_smoothing=0.5) is nan, and x.grad [nan, nan, nan]: the
   mean's total weight is 0, and PyTorch divides each term by it before
   adding them, so 0/0 in the first is NaN though the second is -inf. */
START_TEST(test_fused_zero_total_weight)
{
    tc_tensor *x = fused_leaf(TC_SHAPE(3), TC_FLOAT32, FUSED_D(-INFINITY, -3, -5.3125));
    tc_tensor *loss = K(ag_cross_entropy_fused(x, K(tc_full(TC_SCALAR_SHAPE, 1, TC_INT64)),
                                               fused_tensor(TC_SHAPE(3), TC_FLOAT32,
                                                            FUSED_D(-6.75, 0, 2.5)),
                                               TC_REDUCTION_MEAN, -100, 0.5));

    fused_expect("zero total weight", "loss", TC_FLOAT32, loss, FUSED_D(NAN), 1);
    ck_assert_int_eq(ag_backward(loss, NULL, false), 0);
    fused_expect("zero total weight", "grad", TC_FLOAT32, ag_grad(x), FUSED_D(NAN, NAN, NAN), 3);
}
END_TEST

/* F.cross_entropy(torch.tensor([[-7.875, -6.9375, 19.25]]),
   torch.tensor([[0., 0., -inf]]), reduction='sum') is nan: in float32 the
   row's sum of exponentials, 1 + 5.9e-12, is 1, so the last
   log-probability is 0 (in float64, -5.9e-12), and -inf times 0 is NaN. */
START_TEST(test_fused_float32_log_sum)
{
    tc_tensor *loss = K(ag_cross_entropy_fused(
        fused_tensor(TC_SHAPE(1, 3), TC_FLOAT32, FUSED_D(-7.875, -6.9375, 19.25)),
        fused_tensor(TC_SHAPE(1, 3), TC_FLOAT32, FUSED_D(0, 0, -INFINITY)), NULL,
        TC_REDUCTION_SUM, -100, 0.0));

    fused_expect("float32 log-sum", "loss", TC_FLOAT32, loss, FUSED_D(NAN), 1);
}
END_TEST

/* For every case, the input's gradient that the forward kernel computes
   ahead is the backward kernel's for a grad_output of ones, bit for bit:
   the same exponentials, scaled by the same numbers (NaN rows, ignored
   rows, weights, smoothing, strided rows and probabilities included). */
START_TEST(test_fused_gradient_ahead_is_the_backwards)
{
    const fused_case *c = &FUSED_CASES[_i];
    tc_tensor *x = fused_logits(c), *target = fused_target(c), *weight = fused_weight(c);
    tc_tensor *loss, *stats, *ahead, *ones, *grad;

    ck_assert_msg(tc_cross_entropy_fused_forward(x, target, weight, c->reduction,
                                                 c->ignore_index, c->label_smoothing, &loss,
                                                 &stats, &ahead) == 0,
                  "%s: %s", c->name, tc_error());
    (void)K(loss);
    (void)K(stats);
    (void)K(ahead);
    ones = K(tc_ones(tc_shape_of(loss), loss->dtype));
    ck_assert_msg(tc_cross_entropy_fused_backward(ones, x, target, weight, c->reduction,
                                                  c->ignore_index, c->label_smoothing, stats,
                                                  &grad, NULL, NULL) == 0,
                  "%s: %s", c->name, tc_error());
    (void)K(grad);
    ck_assert(ahead->dtype == grad->dtype && tc_numel(ahead) == tc_numel(grad));
    ck_assert_msg(tc_numel(grad) == 0 ||
                      memcmp(tc_data_ptr(ahead), tc_data_ptr(grad),
                             (size_t)tc_numel(grad) * tc_itemsize(grad->dtype)) == 0,
                  "%s: the gradient computed ahead is not the backward's", c->name);
}
END_TEST

/* The node hands its gradient on only as the leaf's first grad, when the
   pass frees the node: with retain_graph the leaf gets a copy, so that
   three backward passes give 3 g, as PyTorch's (had the node's own tensor
   become x.grad, the adds would double it: g, 2 g, 4 g). A grad_output
   that is not 1, from (2 loss).backward(), takes the backward kernel's
   path: 2 g. g is the backward kernel's gradient for a grad_output of 1. */
START_TEST(test_fused_gradient_ahead_handed_on_once)
{
    static const double logits[] = { 0.5, -1.25, 3.0, 0.0, 2.5, -0.75, 1.0, 1.0, -2.0 };
    tc_tensor *x = fused_tensor(TC_SHAPE(3, 3), TC_FLOAT32, logits);
    tc_tensor *t = fused_tensor(TC_SHAPE(3), TC_INT64, FUSED_D(2, 0, 1));
    tc_tensor *loss, *stats, *g, *twice;
    const float *want, *got;

    ck_assert_int_eq(tc_cross_entropy_fused_forward(x, t, NULL, TC_REDUCTION_MEAN, -100, 0.0,
                                                    &loss, &stats, NULL), 0);
    (void)K(loss);
    (void)K(stats);
    ck_assert_int_eq(tc_cross_entropy_fused_backward(K(tc_ones(TC_SCALAR_SHAPE, TC_FLOAT32)), x,
                                                     t, NULL, TC_REDUCTION_MEAN, -100, 0.0,
                                                     stats, &g, NULL, NULL), 0);
    want = tc_data_ptr(K(g));
    ck_assert_int_eq(ag_set_requires_grad(x, true), 0);
    loss = K(ag_cross_entropy_fused(x, t, NULL, TC_REDUCTION_MEAN, -100, 0.0));
    for (int pass = 1; pass <= 3; pass++) {
        ck_assert_msg(ag_backward(loss, NULL, pass < 3) == 0, "%s", tc_error());
        got = tc_data_ptr(ag_grad(x));
        for (int j = 0; j < 9; j++)
            ck_assert_msg(got[j] == (float)pass * want[j], "pass %d, [%d]: %g, not %d * %g",
                          pass, j, (double)got[j], pass, (double)want[j]);
    }
    ck_assert_int_eq(ag_zero_grad(x, true), 0);
    loss = K(ag_cross_entropy_fused(x, t, NULL, TC_REDUCTION_MEAN, -100, 0.0));
    twice = K(ag_mul_scalar(loss, 2.0));
    ck_assert_msg(ag_backward(twice, NULL, false) == 0, "%s", tc_error());
    got = tc_data_ptr(ag_grad(x));
    for (int j = 0; j < 9; j++)
        ck_assert_msg(got[j] == 2 * want[j], "2 loss, [%d]: %g, not 2 * %g", j, (double)got[j],
                      (double)want[j]);
}
END_TEST

/* A target that is not contiguous is checked in row-major order, as
   PyTorch's loop meets it, not in the order of its storage:
   F.cross_entropy(torch.zeros(2, 3, 2), torch.tensor([[0, 7], [9, 1]]).t())
   and F.cross_entropy(torch.zeros(2, 3), torch.tensor([[0, 7], [9, 1]])[:, 0])
   both fail with "Target 9 is out of bounds.", where the storage has 7 first. */
START_TEST(test_fused_strided_target_out_of_bounds)
{
    tc_tensor *square = fused_tensor(TC_SHAPE(2, 2), TC_INT64, FUSED_D(0, 7, 9, 1));
    const tc_tensor *targets[2] = { K(tc_t(square)), K(tc_select(square, 1, 0)) };
    const tc_tensor *inputs[2] = { K(tc_zeros(TC_SHAPE(2, 3, 2), TC_FLOAT32)),
                                   K(tc_zeros(TC_SHAPE(2, 3), TC_FLOAT32)) };

    for (int k = 0; k < 2; k++) {
        ck_assert(!tc_is_contiguous(targets[k]));
        tc_clear_error();
        ck_assert_ptr_null(ag_cross_entropy_fused(inputs[k], targets[k], NULL,
                                                  TC_REDUCTION_MEAN, -100, 0.0));
        ck_assert_str_eq(tc_error(), "Target 9 is out of bounds.");
        tc_clear_error();
        ck_assert_ptr_null(ag_cross_entropy(inputs[k], targets[k], NULL, TC_REDUCTION_MEAN, -100,
                                            0.0));
        ck_assert_str_eq(tc_error(), "Target 9 is out of bounds.");
        tc_clear_error();
    }
}
END_TEST

/* No classes: the forward kernel's gradient ahead is empty, as the
   backward's (an input of (2, 0) has two rows and no element; a row of it
   must not be addressed from the empty data, NULL, which Clang's UBSan
   reports and fuzz_loss found). */
START_TEST(test_fused_gradient_ahead_without_classes)
{
    tc_tensor *x = K(tc_zeros(TC_SHAPE(2, 0), TC_FLOAT32));
    tc_tensor *t = fused_tensor(TC_SHAPE(2), TC_INT64, FUSED_D(-100, -100));
    tc_tensor *loss, *stats, *ahead;

    ck_assert_msg(tc_cross_entropy_fused_forward(x, t, NULL, TC_REDUCTION_NONE, -100, 0.5,
                                                 &loss, &stats, &ahead) == 0,
                  "%s", tc_error());
    (void)K(loss);
    (void)K(stats);
    ck_assert_ptr_nonnull(K(ahead));
    ck_assert_int_eq(ahead->dim, 2);
    ck_assert_int_eq(ahead->sizes[0], 2);
    ck_assert_int_eq(ahead->sizes[1], 0);
    fused_expect("no classes", "loss", TC_FLOAT32, loss, FUSED_D(NAN, NAN), 2);
}
END_TEST

static void ch06_add_fused(Suite *s)
{
    TCase *tc = testing_tcase("fused", NULL, NULL);

    tcase_add_loop_test(tc, test_fused_matches_pytorch, 0,
                        (int)(sizeof FUSED_CASES / sizeof FUSED_CASES[0]));
    tcase_add_loop_test(tc, test_fused_gradient_ahead_is_the_backwards, 0,
                        (int)(sizeof FUSED_CASES / sizeof FUSED_CASES[0]));
    tcase_add_test(tc, test_fused_gradient_ahead_handed_on_once);
    tcase_add_test(tc, test_fused_gradient_ahead_without_classes);
    tcase_add_test(tc, test_fused_strided_target_out_of_bounds);
    tcase_add_test(tc, test_fused_gradcheck_classes);
    tcase_add_test(tc, test_fused_gradcheck_probabilities);
    tcase_add_test(tc, test_fused_sees_an_inplace_change);
    tcase_add_test(tc, test_fused_exp_accuracy);
    tcase_add_test(tc, test_fused_smoothing_without_classes_is_nan);
    tcase_add_test(tc, test_fused_float_target_of_an_empty_batch);
    tcase_add_test(tc, test_fused_infinite_probability);
    tcase_add_test(tc, test_fused_smoothing_checks_the_weight);
    tcase_add_test(tc, test_fused_target_gradient_in_the_target_type);
    tcase_add_test(tc, test_fused_ignored_row_times_an_infinite_weight);
    tcase_add_test(tc, test_fused_zero_total_weight);
    tcase_add_test(tc, test_fused_float32_log_sum);
    suite_add_tcase(s, tc);
}
