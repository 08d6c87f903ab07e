/* check_ch06.c: the Check suite of chapter 6 (softmax, log_softmax,
   logsumexp, nll_loss, cross_entropy and the fused cross-entropy).

   Every expected value, name and message below comes from PyTorch 1.13
   (/usr/bin/python3, torch 1.13), never from this library's output: from
   tests/pytorch/ch06_facts.md (FACTS.md, printed by ch06_facts.py), whose
   entry the comment above a check cites (b.1.7, c.3.17 ...). Section t of
   that file is this suite's own block of the script, for the values the
   other sections do not record. The tables between the BEGIN TABLES and
   END TABLES markers (the 147 loss cases of FACTS b.1-b.9 and the 17 rows
   of t.1) are written from ch06_facts.md by tests/pytorch/ch06_tables.py;
   `python3 tests/pytorch/ch06_tables.py --check` says whether they still
   match it.

   Tolerances (the issue's): float32 values within rtol 1e-5 and atol
   1e-6, float64 within rtol 1e-12 and atol 1e-14 (the library's exp and
   log and PyTorch's may differ in the last bits, and the sums run in
   another order); NaN and infinities exactly.

   Every loss case checks the loss and the gradient that backward() leaves
   on the input, twice: with FACTS's seed and a contiguous input, then with
   the seed times 2.5 and an input laid out strided (a formula that forgets
   grad_output, or reads the input as if contiguous, fails). The
   cross-entropy cases run through ag_cross_entropy (composed as PyTorch
   composes it) and through ag_cross_entropy_fused, which must agree with
   PyTorch and with each other; every error is asserted on both paths,
   with no storage left behind.

   The softmax, nll and fused helpers wrote tests of their own beside
   their code, in tests/check_ch06_softmax.h, check_ch06_nll.h and
   check_ch06_fused.h (each defining static void ch06_add_NAME(Suite *));
   they are compiled in when present, and this file leaves out what they
   test already. -DCH06_FUSED=0 builds the suite against a library without
   ag_cross_entropy_fused. */
#include <check.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tc.h"
#include "testing.h"
#include "testing_graph.h"

#ifndef CH06_FUSED
#define CH06_FUSED 1    /* ag_cross_entropy_fused (branch fused); -DCH06_FUSED=0 builds the rest */
#endif

#if defined(__has_include)
#if __has_include("check_ch06_softmax.h")
#define CH06_SOFTMAX_TESTS 1
#endif
#if __has_include("check_ch06_nll.h")
#define CH06_NLL_TESTS 1
#endif
#if __has_include("check_ch06_fused.h")
#define CH06_FUSED_TESTS 1
#endif
#endif

/* ------------------------------------------------------------------ helpers */

#define S(...) TC_SHAPE(__VA_ARGS__)
#define S0 TC_SCALAR_SHAPE
#define D(...) ((const double[]){ __VA_ARGS__ })
#define L64(...) ((const int64_t[]){ __VA_ARGS__ })

#define MEAN TC_REDUCTION_MEAN
#define SUM TC_REDUCTION_SUM
#define NONE TC_REDUCTION_NONE

/* A tensor of this shape and dtype holding v (row-major), kept; a leaf
   that requires grad, or a constant. */
static tc_tensor *tensor_of(tc_shape shape, tc_dtype dtype, const double *v, bool grad)
{
    tc_tensor *t = testing_tensor(shape, dtype, v);

    if (grad)
        ck_assert_int_eq(ag_set_requires_grad(t, true), 0);
    return t;
}

/* Inputs whose values do not matter (graphs) or that gradcheck perturbs:
   ramp(shape) is ((torch.arange(n) * 7 + 3) % 13 - 6) * 0.375, viewed as
   shape: exact in float32, neither sorted nor periodic along a row. */
static double ramp_value(int64_t k)
{
    return (double)((k * 7 + 3) % 13 - 6) * 0.375;
}

static tc_tensor *ramp(tc_shape shape, tc_dtype dtype, bool grad)
{
    tc_tensor *t = K(tc_empty(shape, dtype));

    ck_assert_ptr_nonnull(t);
    for (int64_t k = 0; k < testing_numel(shape); k++)
        tc_store(t, k, ramp_value(k));
    if (grad)
        ck_assert_int_eq(ag_set_requires_grad(t, true), 0);
    return t;
}

#define X32(shape, ...) tensor_of(shape, TC_FLOAT32, D(__VA_ARGS__), true)
#define C32(shape, ...) tensor_of(shape, TC_FLOAT32, D(__VA_ARGS__), false)
#define C64(shape, ...) tensor_of(shape, TC_FLOAT64, D(__VA_ARGS__), false)
#define TGT(shape, ...) testing_int64_tensor(shape, L64(__VA_ARGS__))

/* The tolerance of a dtype's values (see the top). */
static testing_tol tol_of(tc_dtype dtype)
{
    return dtype == TC_FLOAT64 ? TESTING_TOL(1e-12, 1e-14) : TESTING_TOL(1e-5, 1e-6);
}

/* got is want within the dtype's tolerance. */
static bool near(double got, double want, tc_dtype dtype)
{
    return testing_close(got, want, tol_of(dtype));
}

/* t has this shape and these values (row-major), within the tolerance of
   `tolerance`, and the dtype `dtype`. */
static void expect_values_within(int line, const char *what, const tc_tensor *t,
                                 tc_dtype dtype, tc_dtype tolerance, tc_shape shape,
                                 const double *v)
{
    testing_expect_tensor(line, what, t, dtype, shape, v, tol_of(tolerance));
}

static void expect_values(int line, const char *what, const tc_tensor *t, tc_dtype dtype,
                          tc_shape shape, const double *v)
{
    expect_values_within(line, what, t, dtype, dtype, shape, v);
}

/* EXPECT_T(t, TC_FLOAT32, S(2), 1.0, 2.0) */
#define EXPECT_T(t, dtype, shape, ...) \
    expect_values(__LINE__, #t, t, dtype, shape, D(__VA_ARGS__))
/* A float64 result computed from float32 values (a float32 input or
   target promoted by a float64 operand): PyTorch rounds its float32
   intermediates where it does, and a library may round elsewhere, so the
   result is only as exact as float32. */
#define EXPECT_MIXED(t, shape, ...) \
    expect_values_within(__LINE__, #t, t, TC_FLOAT64, TC_FLOAT32, shape, D(__VA_ARGS__))
#define EXPECT_GRAD(x, shape, ...) \
    expect_values(__LINE__, "grad of " #x, ag_grad(x), (x)->dtype, shape, D(__VA_ARGS__))

/* a and b have the same shape and values within the tolerance of a's dtype. */
static void expect_same(int line, const char *what, const tc_tensor *a, const tc_tensor *b)
{
    ck_assert_msg(a != NULL && b != NULL, "line %d: %s: NULL", line, what);
    ck_assert_msg(a->dim == b->dim, "line %d: %s: dims %lld and %lld", line, what,
                  (long long)a->dim, (long long)b->dim);
    for (int64_t d = 0; d < a->dim; d++)
        ck_assert_msg(a->sizes[d] == b->sizes[d], "line %d: %s: size %lld differs", line, what,
                      (long long)d);
    for (int64_t k = 0; k < tc_numel(a); k++)
        ck_assert_msg(near(testing_element(b, k), testing_element(a, k), a->dtype),
                      "line %d: %s: element %lld is %.17g and %.17g", line, what, (long long)k,
                      testing_element(a, k), testing_element(b, k));
}

#define OK(call) ck_assert_msg((call) == 0, "line %d: %s failed: %s", __LINE__, #call, \
                               tc_error() ? tc_error() : "(no message)")

/* The call (returning an int) fails with exactly `expected`. */
#define EXPECT_FAIL_INT(call, expected)                                                   \
    do {                                                                                   \
        tc_clear_error();                                                                  \
        ck_assert_msg((call) < 0, "line %d: %s succeeded", __LINE__, #call);                \
        ck_assert_msg(tc_error() != NULL && strcmp(tc_error(), expected) == 0,             \
                      "line %d: %s: message \"%s\", expected \"%s\"", __LINE__, #call,      \
                      tc_error() ? tc_error() : "(none)", expected);                        \
        tc_clear_error();                                                                  \
    } while (0)

/* backward(gradient) with the gradient seed of the loss cases: a 0-D
   `seed` for a 0-D loss, else (arange(n) % 3 + 1) * seed of its shape. */
static int backward_seeded(tc_tensor *loss, double seed)
{
    tc_tensor *g;
    int status;

    ck_assert_ptr_nonnull(loss);
    g = tc_empty_like(loss);
    ck_assert_ptr_nonnull(g);
    for (int64_t k = 0; k < tc_numel(g); k++)
        tc_store(g, k, (double)(k % 3 + 1) * seed);
    if (loss->dim == 0)
        tc_store(g, 0, seed);
    status = ag_backward(loss, g, false);
    tc_release(g);
    return status;
}

/* ------------------------------------------------ names and next_functions */

/* EXPECT_NODE(fn, "NllLossBackward0", {"LogSoftmaxBackward0", 0}) */
#define EXPECT_NODE(fn, type, ...) expect_node(__LINE__, fn, type, type, EDGES(__VA_ARGS__))
#define ACC { "AccumulateGrad", 0 }
#define NO_EDGE { NULL, 0 }

/* The node the j-th edge of fn leads to. */
static ag_node *next_node(const ag_node *fn, int j)
{
    ck_assert_ptr_nonnull(fn);
    return ag_node_next(fn, j).node;
}

static void setup(void)
{
    ag_set_grad_enabled(true);
    ag_clear_warning();
}

static void teardown(void)
{
    ag_set_grad_enabled(true);
    ag_clear_warning();
}

/* The reduction enumeration keeps at::Reduction's values (None 0, Mean 1,
   Sum 2: aten/src/ATen/core/Reduction.h). */
START_TEST(test_reduction_values)
{
    ck_assert_int_eq(TC_REDUCTION_NONE, 0);
    ck_assert_int_eq(TC_REDUCTION_MEAN, 1);
    ck_assert_int_eq(TC_REDUCTION_SUM, 2);
}
END_TEST

/* ------------------------------------------------------------ loss cases */

typedef enum { OP_CE, OP_NLL } loss_op;

/* One call of F.cross_entropy or F.nll_loss and what PyTorch answered (an
   entry of FACTS section b). */
typedef struct {
    const char *id;             /* the FACTS entry */
    loss_op op;
    tc_dtype dtype;             /* of the input, the weight and probability targets */
    tc_shape shape;             /* of the input */
    const double *x;            /* its values (NULL when empty) */
    bool prob;                  /* the target holds probabilities (else int64 indices) */
    tc_shape tshape;
    const double *target;       /* NULL when empty */
    int64_t nweight;
    const double *weight;       /* NULL: no weight */
    tc_reduction reduction;
    int64_t ignore_index;
    double smoothing;
    double seed;                /* FACTS's gradient seed (backward_seeded) */
    tc_shape lshape;            /* the loss's shape */
    const double *loss;         /* its values (NULL when empty) */
    const double *grad;         /* the input's gradient (NULL when empty) */
} loss_case;

typedef enum { BY_COMPOSED, BY_FUSED, BY_NLL } loss_path;

/* The last cross-entropy path: for (path = BY_COMPOSED; path <= LAST_CE; path++) */
#define LAST_CE (CH06_FUSED ? BY_FUSED : BY_COMPOSED)

static const char *const path_names[] = { "ag_cross_entropy", "ag_cross_entropy_fused",
                                          "ag_nll_loss" };

/* The case's input, a leaf that requires grad (kept), laid out
   contiguously (strided false) or not: for 2 dims or more its storage
   holds it in the reverse order of the dims (x.permute(reversed dims)
   .contiguous().permute(...) in PyTorch: a transposed matrix for 2-D), for
   1 dim every other element of a storage twice as long (x[::2]). */
static tc_tensor *case_input(const loss_case *c, bool strided)
{
    const tc_shape *s = &c->shape;
    int64_t n = testing_numel(*s), strides[TC_MAX_DIMS], step = 1;
    tc_tensor *base, *x;

    if (!strided || s->dim == 0)
        return tensor_of(*s, c->dtype, c->x, true);
    for (int64_t d = 0; d < s->dim; d++) {    /* column-major */
        strides[d] = step;
        step *= s->sizes[d] > 0 ? s->sizes[d] : 1;
    }
    if (s->dim == 1)
        strides[0] = 2;
    base = K(tc_zeros(S(2 * n + 1), c->dtype));
    ck_assert_ptr_nonnull(base);
    x = K(testing_over(base, s->dim, s->sizes, strides, 0));
    ck_assert_ptr_nonnull(x);
    for (int64_t k = 0; k < n; k++) {
        int64_t position = 0, rest = k;
        for (int64_t d = s->dim - 1; d >= 0; d--) {
            position += (rest % s->sizes[d]) * strides[d];
            rest /= s->sizes[d];
        }
        tc_store(x, position, c->x[k]);
    }
    ck_assert_int_eq(ag_set_requires_grad(x, true), 0);
    if (n > 1 && s->dim > 0)
        ck_assert(!tc_is_contiguous(x));
    return x;
}

static tc_tensor *case_target(const loss_case *c)
{
    int64_t n = testing_numel(c->tshape);
    tc_tensor *t;

    if (c->prob)
        return tensor_of(c->tshape, c->dtype, c->target, false);
    t = K(tc_empty(c->tshape, TC_INT64));
    ck_assert_ptr_nonnull(t);
    for (int64_t k = 0; k < n; k++)
        tc_store_int64(t, k, (int64_t)c->target[k]);
    return t;
}

static tc_tensor *call_path(loss_path path, const tc_tensor *x, const tc_tensor *t,
                            const tc_tensor *w, tc_reduction r, int64_t ignore_index,
                            double smoothing)
{
    switch (path) {
    case BY_COMPOSED:
        return ag_cross_entropy(x, t, w, r, ignore_index, smoothing);
    case BY_FUSED:
#if CH06_FUSED
        return ag_cross_entropy_fused(x, t, w, r, ignore_index, smoothing);
#else
        break;
#endif
    case BY_NLL:
        return ag_nll_loss(x, t, w, r, ignore_index);
    }
    return NULL;
}

/* Run case c along path with its input laid out `strided` or not and
   the gradient seed times `scale` (backward is linear in its seed, so the
   input's gradient is `scale` times FACTS's): the loss and the gradient
   must be PyTorch's. *loss and *grad receive them (kept). */
static void run_case(const loss_case *c, loss_path path, bool strided, double scale,
                     tc_tensor **loss, tc_tensor **grad)
{
    tc_tensor *x = case_input(c, strided), *t = case_target(c);
    tc_tensor *w = c->weight != NULL ? tensor_of(S(c->nweight), c->dtype, c->weight, false) : NULL;
    tc_tensor *y;
    int64_t n = testing_numel(c->shape);
    double *want = malloc((size_t)(n > 0 ? n : 1) * sizeof *want);
    char what[128];

    ck_assert_ptr_nonnull(want);
    snprintf(what, sizeof what, "%s by %s%s, seed x %g", c->id, path_names[path],
             strided ? " (strided input)" : "", scale);
    tc_clear_error();
    y = K(call_path(path, x, t, w, c->reduction, c->ignore_index, c->smoothing));
    ck_assert_msg(y != NULL, "%s failed: %s", what, tc_error() ? tc_error() : "?");
    expect_values(__LINE__, what, y, c->dtype, c->lshape, c->loss != NULL ? c->loss : D(0));
    ck_assert_msg(ag_requires_grad(y) && ag_grad_fn(y) != NULL, "%s: no grad_fn", what);
    ck_assert_msg(backward_seeded(y, c->seed * scale) == 0, "%s: backward failed: %s", what,
                  tc_error() ? tc_error() : "?");
    for (int64_t k = 0; k < n; k++)
        want[k] = c->grad[k] * scale;
    expect_values(__LINE__, what, ag_grad(x), c->dtype, c->shape, want);
    free(want);
    /* the engine gives a dense leaf's gradient the leaf's strides (chapter 5) */
    if (strided && c->shape.dim >= 2)
        for (int64_t d = 0; d < c->shape.dim; d++)
            ck_assert_msg(ag_grad(x)->sizes[d] < 2 || ag_grad(x)->strides[d] == x->strides[d],
                          "%s: the gradient's stride %lld is %lld, the input's %lld", what,
                          (long long)d, (long long)ag_grad(x)->strides[d],
                          (long long)x->strides[d]);
    *loss = y;
    *grad = ag_grad(x);
}

/* ------------------------------------------- softmax, log_softmax, logsumexp */

/* A row of four logits and what F.softmax, F.log_softmax and
   torch.logsumexp along it give, forward and backward (FACTS t.1): the
   gradients are x.grad after y.backward(G), G = [1, -2, 0.5, 3], for
   softmax and log_softmax, and after logsumexp(x, 0).backward(tensor(1.5)). */
typedef struct {
    const char *id;
    const double *x;
    const double *softmax, *softmax_grad;
    const double *log_softmax, *log_softmax_grad;
    const double *logsumexp, *logsumexp_grad;
} softmax_row;

#define ROW_G D(1.0, -2.0, 0.5, 3.0)
#define ROW_GL 1.5

/* BEGIN TABLES: written by tests/pytorch/ch06_tables.py from ch06_facts.md; do not edit */

static const softmax_row softmax_rows_f32[] = {
    /* t.1.1 (float32): plain */
    { .id = "t.1.1",
      .x = D(1.0, 2.0, 3.0, 4.0),
      .softmax = D(0.032058604061603546, 0.08714432269334793, 0.23688283562660217,
          0.6439142823219299),
      .softmax_grad = D(-0.029107749462127686, -0.3405560255050659, -0.33352020382881165,
          0.7031838297843933),
      .log_softmax = D(-3.4401895999908447, -2.4401895999908447, -1.4401897192001343,
          -0.4401896893978119),
      .log_softmax_grad = D(0.9198535084724426, -2.2178609371185303, -0.09220701456069946,
          1.3902143239974976),
      .logsumexp = D(4.440189838409424),
      .logsumexp_grad = D(0.04808790236711502, 0.1307164579629898, 0.3553241789340973,
          0.9658712148666382) },
    /* t.1.2 (float32): +-1000 */
    { .id = "t.1.2",
      .x = D(1000.0, 0.0, -1000.0, 999.0),
      .softmax = D(0.7310585975646973, 0.0, 0.0, 0.2689414322376251),
      .softmax_grad = D(-0.39322394132614136, -0.0, -0.0, 0.3932238519191742),
      .log_softmax = D(-0.31326165795326233, -1000.313232421875, -2000.313232421875,
          -1.31326162815094),
      .log_softmax_grad = D(-0.8276464939117432, -2.0, 0.5, 2.327646493911743),
      .logsumexp = D(1000.313232421875),
      .logsumexp_grad = D(1.0966198444366455, 0.0, 0.0, 0.4034239649772644) },
    /* t.1.3 (float32): all -1000: uniform */
    { .id = "t.1.3",
      .x = D(-1000.0, -1000.0, -1000.0, -1000.0),
      .softmax = D(0.25, 0.25, 0.25, 0.25),
      .softmax_grad = D(0.09375, -0.65625, -0.03125, 0.59375),
      .log_softmax = D(-1.3862943649291992, -1.3862943649291992, -1.3862943649291992,
          -1.3862943649291992),
      .log_softmax_grad = D(0.375, -2.625, -0.125, 2.375),
      .logsumexp = D(-998.6137084960938),
      .logsumexp_grad = D(0.37500107288360596, 0.37500107288360596, 0.37500107288360596,
          0.37500107288360596) },
    /* t.1.4 (float32): exp overflows float32 from 88.73 */
    { .id = "t.1.4",
      .x = D(88.0, 89.0, 90.0, 88.5),
      .softmax = D(0.07839412242174149, 0.21309731900691986, 0.5792585611343384,
          0.12925006449222565),
      .softmax_grad = D(0.05255706608295441, -0.4964269995689392, 0.09871784597635269,
          0.3451521098613739),
      .log_softmax = D(-2.546006441116333, -1.546006441116333, -0.5460063815116882,
          -2.046006441116333),
      .log_softmax_grad = D(0.8040146827697754, -2.532743215560913, -0.948146402835846,
          2.676874876022339),
      .logsumexp = D(90.54600524902344),
      .logsumexp_grad = D(0.11759130656719208, 0.31964629888534546, 0.8688888549804688,
          0.1938752979040146) },
    /* t.1.5 (float32): around the float32 overflow */
    { .id = "t.1.5",
      .x = D(88.7, 88.8, 0.0, -88.7),
      .softmax = D(0.47501930594444275, 0.5249807238578796, 1.4282104013321752e-39, 0.0),
      .softmax_grad = D(0.7481279373168945, -0.7481279373168945, 1.535242979335769e-39, 0.0),
      .log_softmax = D(-0.7443998456001282, -0.6443937420845032, -89.44439697265625,
          -178.14439392089844),
      .log_softmax_grad = D(-0.18754826486110687, -3.3124518394470215, 0.5, 3.0),
      .logsumexp = D(89.44439697265625),
      .logsumexp_grad = D(0.7125288248062134, 0.7874709367752075, 2.1423135000505663e-39, 0.0) },
    /* t.1.6 (float32): subnormal exponentials */
    { .id = "t.1.6",
      .x = D(-88.0, -104.0, -105.0, 0.0),
      .softmax = D(6.054601485195952e-39, 0.0, 0.0, 1.0),
      .softmax_grad = D(-1.2109202970391903e-38, -0.0, -0.0, 0.0),
      .log_softmax = D(-88.0, -104.0, -105.0, 0.0),
      .log_softmax_grad = D(1.0, -2.0, 0.5, 0.5),
      .logsumexp = D(0.0),
      .logsumexp_grad = D(9.081902227793928e-39, 0.0, 0.0, 1.5) },
    /* t.1.7 (float32): near the float32 maximum */
    { .id = "t.1.7",
      .x = D(3e+38, -3e+38, 1e-30, 0.0),
      .softmax = D(1.0, 0.0, 0.0, 0.0),
      .softmax_grad = D(0.0, -0.0, -0.0, 0.0),
      .log_softmax = D(0.0, -INFINITY, -3.0000000054977558e+38, -3.0000000054977558e+38),
      .log_softmax_grad = D(-1.5, -2.0, 0.5, 3.0),
      .logsumexp = D(3.0000000054977558e+38),
      .logsumexp_grad = D(1.5, 0.0, 0.0, 0.0) },
    /* t.1.8 (float32): zeros */
    { .id = "t.1.8",
      .x = D(0.0, 0.0, 0.0, 0.0),
      .softmax = D(0.25, 0.25, 0.25, 0.25),
      .softmax_grad = D(0.09375, -0.65625, -0.03125, 0.59375),
      .log_softmax = D(-1.3862943649291992, -1.3862943649291992, -1.3862943649291992,
          -1.3862943649291992),
      .log_softmax_grad = D(0.375, -2.625, -0.125, 2.375),
      .logsumexp = D(1.3862943649291992),
      .logsumexp_grad = D(0.375, 0.375, 0.375, 0.375) },
    /* t.1.9 (float32): +inf */
    { .id = "t.1.9",
      .x = D(INFINITY, 1.0, 2.0, 3.0),
      .softmax = D(NAN, NAN, NAN, NAN),
      .softmax_grad = D(NAN, NAN, NAN, NAN),
      .log_softmax = D(NAN, NAN, NAN, NAN),
      .log_softmax_grad = D(NAN, NAN, NAN, NAN),
      .logsumexp = D(INFINITY),
      .logsumexp_grad = D(NAN, 0.0, 0.0, 0.0) },
    /* t.1.10 (float32): two +inf */
    { .id = "t.1.10",
      .x = D(INFINITY, INFINITY, 1.0, 2.0),
      .softmax = D(NAN, NAN, NAN, NAN),
      .softmax_grad = D(NAN, NAN, NAN, NAN),
      .log_softmax = D(NAN, NAN, NAN, NAN),
      .log_softmax_grad = D(NAN, NAN, NAN, NAN),
      .logsumexp = D(INFINITY),
      .logsumexp_grad = D(NAN, NAN, 0.0, 0.0) },
    /* t.1.11 (float32): +inf and -inf */
    { .id = "t.1.11",
      .x = D(INFINITY, -INFINITY, 0.0, 0.0),
      .softmax = D(NAN, NAN, NAN, NAN),
      .softmax_grad = D(NAN, NAN, NAN, NAN),
      .log_softmax = D(NAN, NAN, NAN, NAN),
      .log_softmax_grad = D(NAN, NAN, NAN, NAN),
      .logsumexp = D(INFINITY),
      .logsumexp_grad = D(NAN, 0.0, 0.0, 0.0) },
    /* t.1.12 (float32): -inf */
    { .id = "t.1.12",
      .x = D(-INFINITY, 1.0, 2.0, 3.0),
      .softmax = D(0.0, 0.09003057330846786, 0.2447284758090973, 0.6652409434318542),
      .softmax_grad = D(-0.0, -0.35454273223876953, -0.35192587971687317, 0.7064687013626099),
      .log_softmax = D(-INFINITY, -2.4076058864593506, -1.4076058864593506,
          -0.40760594606399536),
      .log_softmax_grad = D(1.0, -2.22507643699646, -0.11182122677564621, 1.3368974924087524),
      .logsumexp = D(3.4076058864593506),
      .logsumexp_grad = D(0.0, 0.1350458711385727, 0.36709272861480713, 0.9978615045547485) },
    /* t.1.13 (float32): one finite */
    { .id = "t.1.13",
      .x = D(-INFINITY, -INFINITY, 5.0, -INFINITY),
      .softmax = D(0.0, 0.0, 1.0, 0.0),
      .softmax_grad = D(0.0, -0.0, 0.0, 0.0),
      .log_softmax = D(-INFINITY, -INFINITY, 0.0, -INFINITY),
      .log_softmax_grad = D(1.0, -2.0, -2.0, 3.0),
      .logsumexp = D(5.0),
      .logsumexp_grad = D(0.0, 0.0, 1.5, 0.0) },
    /* t.1.14 (float32): all -inf */
    { .id = "t.1.14",
      .x = D(-INFINITY, -INFINITY, -INFINITY, -INFINITY),
      .softmax = D(NAN, NAN, NAN, NAN),
      .softmax_grad = D(NAN, NAN, NAN, NAN),
      .log_softmax = D(NAN, NAN, NAN, NAN),
      .log_softmax_grad = D(NAN, NAN, NAN, NAN),
      .logsumexp = D(-INFINITY),
      .logsumexp_grad = D(NAN, NAN, NAN, NAN) },
    /* t.1.15 (float32): NaN */
    { .id = "t.1.15",
      .x = D(NAN, 1.0, 2.0, 3.0),
      .softmax = D(NAN, NAN, NAN, NAN),
      .softmax_grad = D(NAN, NAN, NAN, NAN),
      .log_softmax = D(NAN, NAN, NAN, NAN),
      .log_softmax_grad = D(NAN, NAN, NAN, NAN),
      .logsumexp = D(NAN),
      .logsumexp_grad = D(NAN, NAN, NAN, NAN) },
    /* t.1.16 (float32): NaN and -inf */
    { .id = "t.1.16",
      .x = D(1.0, NAN, -INFINITY, -INFINITY),
      .softmax = D(NAN, NAN, NAN, NAN),
      .softmax_grad = D(NAN, NAN, NAN, NAN),
      .log_softmax = D(NAN, NAN, NAN, NAN),
      .log_softmax_grad = D(NAN, NAN, NAN, NAN),
      .logsumexp = D(NAN),
      .logsumexp_grad = D(NAN, NAN, NAN, NAN) },
    /* t.1.17 (float32): NaN, -inf, +inf */
    { .id = "t.1.17",
      .x = D(NAN, -INFINITY, INFINITY, 0.0),
      .softmax = D(NAN, NAN, NAN, NAN),
      .softmax_grad = D(NAN, NAN, NAN, NAN),
      .log_softmax = D(NAN, NAN, NAN, NAN),
      .log_softmax_grad = D(NAN, NAN, NAN, NAN),
      .logsumexp = D(NAN),
      .logsumexp_grad = D(NAN, NAN, NAN, NAN) },
};

static const softmax_row softmax_rows_f64[] = {
    /* t.1.18 (float64): plain */
    { .id = "t.1.18",
      .x = D(1.0, 2.0, 3.0, 4.0),
      .softmax = D(0.03205860328008499, 0.08714431874203257, 0.23688281808991016,
          0.6439142598879724),
      .softmax_grad = D(-0.02910774203577732, -0.3405560024694247, -0.3335201478605156,
          0.7031838923657175),
      .log_softmax = D(-3.4401896985611953, -2.4401896985611953, -1.4401896985611953,
          -0.44018969856119533),
      .log_softmax_grad = D(0.9198534917997875, -2.2178607968550814, -0.0922070452247754,
          1.3902143502800692),
      .logsumexp = D(4.440189698561196),
      .logsumexp_grad = D(0.04808790492012746, 0.1307164781130488, 0.35532422713486506,
          0.965871389831958) },
    /* t.1.19 (float64): +-1000 */
    { .id = "t.1.19",
      .x = D(1000.0, 0.0, -1000.0, 999.0),
      .softmax = D(0.7310585786300049, 0.0, 0.0, 0.26894142136999516),
      .softmax_grad = D(-0.39322386648296387, -0.0, -0.0, 0.3932238664829637),
      .log_softmax = D(-0.31326168751822286, -1000.3132616875182, -2000.3132616875182,
          -1.3132616875182228),
      .log_softmax_grad = D(-0.8276464465750122, -2.0, 0.5, 2.327646446575012),
      .logsumexp = D(1000.3132616875182),
      .logsumexp_grad = D(1.0965878679450252, 0.0, 0.0, 0.40341213205499926) },
    /* t.1.20 (float64): all -1000: uniform */
    { .id = "t.1.20",
      .x = D(-1000.0, -1000.0, -1000.0, -1000.0),
      .softmax = D(0.25, 0.25, 0.25, 0.25),
      .softmax_grad = D(0.09375, -0.65625, -0.03125, 0.59375),
      .log_softmax = D(-1.3862943611198906, -1.3862943611198906, -1.3862943611198906,
          -1.3862943611198906),
      .log_softmax_grad = D(0.375, -2.625, -0.125, 2.375),
      .logsumexp = D(-998.6137056388801),
      .logsumexp_grad = D(0.37499999999999856, 0.37499999999999856, 0.37499999999999856,
          0.37499999999999856) },
    /* t.1.21 (float64): exp overflows float32 from 88.73 */
    { .id = "t.1.21",
      .x = D(88.0, 89.0, 90.0, 88.5),
      .softmax = D(0.07839411721683971, 0.21309730428862375, 0.5792585299413737,
          0.12925004855316274),
      .softmax_grad = D(0.052557068787406215, -0.4964269878239928, 0.09871786469481478,
          0.34515205434177193),
      .log_softmax = D(-2.5460063899405725, -1.5460063899405725, -0.5460063899405724,
          -2.0460063899405725),
      .log_softmax_grad = D(0.8040147069579008, -2.5327432607215594, -0.9481463248534343,
          2.676874878617093),
      .logsumexp = D(90.54600638994057),
      .logsumexp_grad = D(0.11759117582525955, 0.3196459564329356, 0.8688877949120604,
          0.19387507282974412) },
    /* t.1.22 (float64): around the float32 overflow */
    { .id = "t.1.22",
      .x = D(88.7, 88.8, 0.0, -88.7),
      .softmax = D(0.47502081252106143, 0.5249791874789386, 1.4282100782164621e-39,
          4.294094013888356e-78),
      .softmax_grad = D(0.7481281205786761, -0.7481281205786762, 1.5352366601256974e-39,
          1.535111798688456e-77),
      .log_softmax = D(-0.7443966600735679, -0.6443966600735735, -89.44439666007356,
          -178.14439666007357),
      .log_softmax_grad = D(-0.18755203130265358, -3.3124479686973465, 0.5, 3.0),
      .logsumexp = D(89.44439666007356),
      .logsumexp_grad = D(0.7125312187815963, 0.7874687812184125, 2.1423151173247057e-39,
          6.441141020832571e-78) },
    /* t.1.23 (float64): subnormal exponentials */
    { .id = "t.1.23",
      .x = D(-88.0, -104.0, -105.0, 0.0),
      .softmax = D(6.054601895401186e-39, 6.813556821545298e-46, 2.506567475899953e-46, 1.0),
      .softmax_grad = D(-1.2109203790802372e-38, -3.406778410772649e-45,
          -6.266418689749883e-46, 0.0),
      .log_softmax = D(-88.0, -104.0, -105.0, 0.0),
      .log_softmax_grad = D(1.0, -2.0, 0.5, 0.5),
      .logsumexp = D(0.0),
      .logsumexp_grad = D(9.081902843101779e-39, 1.0220335232317947e-45,
          3.7598512138499295e-46, 1.5) },
    /* t.1.24 (float64): near the float32 maximum */
    { .id = "t.1.24",
      .x = D(3e+38, -3e+38, 1e-30, 0.0),
      .softmax = D(1.0, 0.0, 0.0, 0.0),
      .softmax_grad = D(0.0, -0.0, -0.0, 0.0),
      .log_softmax = D(0.0, -6e+38, -3e+38, -3e+38),
      .log_softmax_grad = D(-1.5, -2.0, 0.5, 3.0),
      .logsumexp = D(3e+38),
      .logsumexp_grad = D(1.5, 0.0, 0.0, 0.0) },
    /* t.1.25 (float64): zeros */
    { .id = "t.1.25",
      .x = D(0.0, 0.0, 0.0, 0.0),
      .softmax = D(0.25, 0.25, 0.25, 0.25),
      .softmax_grad = D(0.09375, -0.65625, -0.03125, 0.59375),
      .log_softmax = D(-1.3862943611198906, -1.3862943611198906, -1.3862943611198906,
          -1.3862943611198906),
      .log_softmax_grad = D(0.375, -2.625, -0.125, 2.375),
      .logsumexp = D(1.3862943611198906),
      .logsumexp_grad = D(0.375, 0.375, 0.375, 0.375) },
    /* t.1.26 (float64): +inf */
    { .id = "t.1.26",
      .x = D(INFINITY, 1.0, 2.0, 3.0),
      .softmax = D(NAN, NAN, NAN, NAN),
      .softmax_grad = D(NAN, NAN, NAN, NAN),
      .log_softmax = D(NAN, NAN, NAN, NAN),
      .log_softmax_grad = D(NAN, NAN, NAN, NAN),
      .logsumexp = D(INFINITY),
      .logsumexp_grad = D(NAN, 0.0, 0.0, 0.0) },
    /* t.1.27 (float64): two +inf */
    { .id = "t.1.27",
      .x = D(INFINITY, INFINITY, 1.0, 2.0),
      .softmax = D(NAN, NAN, NAN, NAN),
      .softmax_grad = D(NAN, NAN, NAN, NAN),
      .log_softmax = D(NAN, NAN, NAN, NAN),
      .log_softmax_grad = D(NAN, NAN, NAN, NAN),
      .logsumexp = D(INFINITY),
      .logsumexp_grad = D(NAN, NAN, 0.0, 0.0) },
    /* t.1.28 (float64): +inf and -inf */
    { .id = "t.1.28",
      .x = D(INFINITY, -INFINITY, 0.0, 0.0),
      .softmax = D(NAN, NAN, NAN, NAN),
      .softmax_grad = D(NAN, NAN, NAN, NAN),
      .log_softmax = D(NAN, NAN, NAN, NAN),
      .log_softmax_grad = D(NAN, NAN, NAN, NAN),
      .logsumexp = D(INFINITY),
      .logsumexp_grad = D(NAN, 0.0, 0.0, 0.0) },
    /* t.1.29 (float64): -inf */
    { .id = "t.1.29",
      .x = D(-INFINITY, 1.0, 2.0, 3.0),
      .softmax = D(0.0, 0.09003057317038045, 0.2447284710547976, 0.6652409557748218),
      .softmax_grad = D(-0.0, -0.35454273402453035, -0.3519258936740752, 0.7064686276986057),
      .log_softmax = D(-INFINITY, -2.4076059644443806, -1.4076059644443804, -0.4076059644443804),
      .log_softmax_grad = D(1.0, -2.225076432925951, -0.1118211776369941, 1.3368976105629455),
      .logsumexp = D(3.4076059644443806),
      .logsumexp_grad = D(0.0, 0.13504585975557065, 0.3670927065821964, 0.9978614336622325) },
    /* t.1.30 (float64): one finite */
    { .id = "t.1.30",
      .x = D(-INFINITY, -INFINITY, 5.0, -INFINITY),
      .softmax = D(0.0, 0.0, 1.0, 0.0),
      .softmax_grad = D(0.0, -0.0, 0.0, 0.0),
      .log_softmax = D(-INFINITY, -INFINITY, 0.0, -INFINITY),
      .log_softmax_grad = D(1.0, -2.0, -2.0, 3.0),
      .logsumexp = D(5.0),
      .logsumexp_grad = D(0.0, 0.0, 1.5, 0.0) },
    /* t.1.31 (float64): all -inf */
    { .id = "t.1.31",
      .x = D(-INFINITY, -INFINITY, -INFINITY, -INFINITY),
      .softmax = D(NAN, NAN, NAN, NAN),
      .softmax_grad = D(NAN, NAN, NAN, NAN),
      .log_softmax = D(NAN, NAN, NAN, NAN),
      .log_softmax_grad = D(NAN, NAN, NAN, NAN),
      .logsumexp = D(-INFINITY),
      .logsumexp_grad = D(NAN, NAN, NAN, NAN) },
    /* t.1.32 (float64): NaN */
    { .id = "t.1.32",
      .x = D(NAN, 1.0, 2.0, 3.0),
      .softmax = D(NAN, NAN, NAN, NAN),
      .softmax_grad = D(NAN, NAN, NAN, NAN),
      .log_softmax = D(NAN, NAN, NAN, NAN),
      .log_softmax_grad = D(NAN, NAN, NAN, NAN),
      .logsumexp = D(NAN),
      .logsumexp_grad = D(NAN, NAN, NAN, NAN) },
    /* t.1.33 (float64): NaN and -inf */
    { .id = "t.1.33",
      .x = D(1.0, NAN, -INFINITY, -INFINITY),
      .softmax = D(NAN, NAN, NAN, NAN),
      .softmax_grad = D(NAN, NAN, NAN, NAN),
      .log_softmax = D(NAN, NAN, NAN, NAN),
      .log_softmax_grad = D(NAN, NAN, NAN, NAN),
      .logsumexp = D(NAN),
      .logsumexp_grad = D(NAN, NAN, NAN, NAN) },
    /* t.1.34 (float64): NaN, -inf, +inf */
    { .id = "t.1.34",
      .x = D(NAN, -INFINITY, INFINITY, 0.0),
      .softmax = D(NAN, NAN, NAN, NAN),
      .softmax_grad = D(NAN, NAN, NAN, NAN),
      .log_softmax = D(NAN, NAN, NAN, NAN),
      .log_softmax_grad = D(NAN, NAN, NAN, NAN),
      .logsumexp = D(NAN),
      .logsumexp_grad = D(NAN, NAN, NAN, NAN) },
};

static const loss_case loss_cases[] = {
    /* b.1.1: cross_entropy reduction=mean, float32 */
    { .id = "b.1.1", .op = OP_CE, .dtype = TC_FLOAT32, .shape = { 2, { 3, 5 } },
      .x = D(0.5, -1.0, 2.0, 0.1, -0.3, 1.2, 0.3, -0.7, 0.0, 2.5, -0.4, 1.6, 0.2, -2.0, 0.9),
      .tshape = { 1, { 3 } },
      .target = D(1.0, 0.0, 4.0),
      .reduction = MEAN, .ignore_index = -100, .seed = 1.0, .lshape = { 0, { 0 } },
      .loss = D(2.1583385467529297),
      .grad = D(0.0488438606262207, -0.32243481278419495, 0.21890299022197723,
          0.03274101763963699, 0.021946962922811508, -0.27301931381225586,
          0.024521857500076294, 0.009021087549626827, 0.01816624030470848, 0.2213101089000702,
          0.023670263588428497, 0.17490088939666748, 0.04313002526760101, 0.00477894302457571,
          -0.24648012220859528) },
    /* b.1.2: cross_entropy reduction=sum, float32 */
    { .id = "b.1.2", .op = OP_CE, .dtype = TC_FLOAT32, .shape = { 2, { 3, 5 } },
      .x = D(0.5, -1.0, 2.0, 0.1, -0.3, 1.2, 0.3, -0.7, 0.0, 2.5, -0.4, 1.6, 0.2, -2.0, 0.9),
      .tshape = { 1, { 3 } },
      .target = D(1.0, 0.0, 4.0),
      .reduction = SUM, .ignore_index = -100, .seed = 1.0, .lshape = { 0, { 0 } },
      .loss = D(6.475015640258789),
      .grad = D(0.1465315818786621, -0.9673044085502625, 0.6567089557647705,
          0.09822304546833038, 0.06584088504314423, -0.8190578818321228, 0.07356557250022888,
          0.027063261717557907, 0.054498717188835144, 0.6639302968978882, 0.07101079076528549,
          0.5247026681900024, 0.12939007580280304, 0.014336829073727131, -0.7394403219223022) },
    /* b.1.3: cross_entropy reduction=none, float32 */
    { .id = "b.1.3", .op = OP_CE, .dtype = TC_FLOAT32, .shape = { 2, { 3, 5 } },
      .x = D(0.5, -1.0, 2.0, 0.1, -0.3, 1.2, 0.3, -0.7, 0.0, 2.5, -0.4, 1.6, 0.2, -2.0, 0.9),
      .tshape = { 1, { 3 } },
      .target = D(1.0, 0.0, 4.0),
      .reduction = NONE, .ignore_index = -100, .seed = 0.5, .lshape = { 1, { 3 } },
      .loss = D(3.4205143451690674, 1.709578037261963, 1.344923496246338),
      .grad = D(0.07326579093933105, -0.4836522042751312, 0.32835447788238525,
          0.04911152273416519, 0.03292044252157211, -0.8190578818321228, 0.07356557250022888,
          0.027063261717557907, 0.054498717188835144, 0.6639302968978882, 0.10651618242263794,
          0.7870540022850037, 0.19408512115478516, 0.021505244076251984, -1.1091605424880981) },
    /* b.1.4: cross_entropy reduction=mean, float64 */
    { .id = "b.1.4", .op = OP_CE, .dtype = TC_FLOAT64, .shape = { 2, { 3, 5 } },
      .x = D(0.5, -1.0, 2.0, 0.1, -0.3, 1.2, 0.3, -0.7, 0.0, 2.5, -0.4, 1.6, 0.2, -2.0, 0.9),
      .tshape = { 1, { 3 } },
      .target = D(1.0, 0.0, 4.0),
      .reduction = MEAN, .ignore_index = -100, .seed = 1.0, .lshape = { 0, { 0 } },
      .loss = D(2.1583386744228243),
      .grad = D(0.04884385443371991, -0.3224347962712708, 0.21890296856878594,
          0.0327410147525692, 0.02194695851619573, -0.2730192931157108, 0.024521858808859584,
          0.009021087715088274, 0.018166239810587667, 0.2213101067811753, 0.02367026137386115,
          0.17490088916781132, 0.04313002825946966, 0.004778943351405952, -0.2464801221525481) },
    /* b.1.5: cross_entropy reduction=sum, float64 */
    { .id = "b.1.5", .op = OP_CE, .dtype = TC_FLOAT64, .shape = { 2, { 3, 5 } },
      .x = D(0.5, -1.0, 2.0, 0.1, -0.3, 1.2, 0.3, -0.7, 0.0, 2.5, -0.4, 1.6, 0.2, -2.0, 0.9),
      .tshape = { 1, { 3 } },
      .target = D(1.0, 0.0, 4.0),
      .reduction = SUM, .ignore_index = -100, .seed = 1.0, .lshape = { 0, { 0 } },
      .loss = D(6.475016023268473),
      .grad = D(0.14653156330115974, -0.9673043888138124, 0.6567089057063579,
          0.0982230442577076, 0.0658408755485872, -0.8190578793471325, 0.07356557642657875,
          0.02706326314526482, 0.05449871943176301, 0.663930320343526, 0.07101078412158345,
          0.524702667503434, 0.129390084778409, 0.014336830054217856, -0.7394403664576443) },
    /* b.1.6: cross_entropy reduction=none, float64 */
    { .id = "b.1.6", .op = OP_CE, .dtype = TC_FLOAT64, .shape = { 2, { 3, 5 } },
      .x = D(0.5, -1.0, 2.0, 0.1, -0.3, 1.2, 0.3, -0.7, 0.0, 2.5, -0.4, 1.6, 0.2, -2.0, 0.9),
      .tshape = { 1, { 3 } },
      .target = D(1.0, 0.0, 4.0),
      .reduction = NONE, .ignore_index = -100, .seed = 0.5, .lshape = { 1, { 3 } },
      .loss = D(3.420514424576177, 1.7095780742538884, 1.344923524438407),
      .grad = D(0.07326578165057987, -0.4836521944069062, 0.32835445285317894,
          0.0491115221288538, 0.0329204377742936, -0.8190578793471325, 0.07356557642657875,
          0.02706326314526482, 0.05449871943176301, 0.663930320343526, 0.10651617618237516,
          0.787054001255151, 0.1940851271676135, 0.021505245081326785, -1.1091605496864665) },
    /* b.1.7: cross_entropy weight W5, reduction=mean */
    { .id = "b.1.7", .op = OP_CE, .dtype = TC_FLOAT32, .shape = { 2, { 3, 5 } },
      .x = D(0.5, -1.0, 2.0, 0.1, -0.3, 1.2, 0.3, -0.7, 0.0, 2.5, -0.4, 1.6, 0.2, -2.0, 0.9),
      .tshape = { 1, { 3 } },
      .target = D(1.0, 0.0, 4.0),
      .nweight = 5,
      .weight = D(0.2, 1.0, 0.5, 2.0, 1.5),
      .reduction = MEAN, .ignore_index = -100, .seed = 1.0, .lshape = { 0, { 0 } },
      .loss = D(2.140672206878662),
      .grad = D(0.05427095293998718, -0.3582608699798584, 0.24322552978992462,
          0.036378905177116394, 0.024385511875152588, -0.06067095324397087,
          0.005449301563203335, 0.0020046860445290804, 0.004036942031234503,
          0.04918002337217331, 0.03945043683052063, 0.2915014624595642, 0.07188337296247482,
          0.0079649044200778, -0.41080015897750854) },
    /* b.1.8: cross_entropy weight W5, reduction=sum */
    { .id = "b.1.8", .op = OP_CE, .dtype = TC_FLOAT32, .shape = { 2, { 3, 5 } },
      .x = D(0.5, -1.0, 2.0, 0.1, -0.3, 1.2, 0.3, -0.7, 0.0, 2.5, -0.4, 1.6, 0.2, -2.0, 0.9),
      .tshape = { 1, { 3 } },
      .target = D(1.0, 0.0, 4.0),
      .nweight = 5,
      .weight = D(0.2, 1.0, 0.5, 2.0, 1.5),
      .reduction = SUM, .ignore_index = -100, .seed = 1.0, .lshape = { 0, { 0 } },
      .loss = D(5.779815196990967),
      .grad = D(0.1465315818786621, -0.9673044085502625, 0.6567089557647705,
          0.09822304546833038, 0.06584088504314423, -0.1638115793466568, 0.014713115058839321,
          0.005412652622908354, 0.010899743996560574, 0.13278606534004211, 0.10651618242263794,
          0.7870540022850037, 0.19408512115478516, 0.021505244076251984, -1.1091605424880981) },
    /* b.1.9: cross_entropy weight W5, reduction=none */
    { .id = "b.1.9", .op = OP_CE, .dtype = TC_FLOAT32, .shape = { 2, { 3, 5 } },
      .x = D(0.5, -1.0, 2.0, 0.1, -0.3, 1.2, 0.3, -0.7, 0.0, 2.5, -0.4, 1.6, 0.2, -2.0, 0.9),
      .tshape = { 1, { 3 } },
      .target = D(1.0, 0.0, 4.0),
      .nweight = 5,
      .weight = D(0.2, 1.0, 0.5, 2.0, 1.5),
      .reduction = NONE, .ignore_index = -100, .seed = 0.5, .lshape = { 1, { 3 } },
      .loss = D(3.4205143451690674, 0.3419156074523926, 2.017385244369507),
      .grad = D(0.07326579093933105, -0.4836522042751312, 0.32835447788238525,
          0.04911152273416519, 0.03292044252157211, -0.1638115793466568, 0.014713115058839321,
          0.005412652622908354, 0.010899743996560574, 0.13278606534004211, 0.1597742736339569,
          1.180580973625183, 0.29112768173217773, 0.032257866114377975, -1.6637407541275024) },
    /* b.1.10: cross_entropy weight W5, float64 */
    { .id = "b.1.10", .op = OP_CE, .dtype = TC_FLOAT64, .shape = { 2, { 3, 5 } },
      .x = D(0.5, -1.0, 2.0, 0.1, -0.3, 1.2, 0.3, -0.7, 0.0, 2.5, -0.4, 1.6, 0.2, -2.0, 0.9),
      .tshape = { 1, { 3 } },
      .target = D(1.0, 0.0, 4.0),
      .nweight = 5,
      .weight = D(0.2, 1.0, 0.5, 2.0, 1.5),
      .reduction = MEAN, .ignore_index = -100, .seed = 1.0, .lshape = { 0, { 0 } },
      .loss = D(2.140672342994283),
      .grad = D(0.054270949370799904, -0.35826088474585643, 0.24322552063198438,
          0.036378905280632444, 0.0243855094624397, -0.060670954025713514,
          0.005449301957524352, 0.002004686158908505, 0.004036942180130593,
          0.04918002372915007, 0.039450435623101916, 0.2915014819463522, 0.07188338043244945,
          0.007964905585676587, -0.41080020358758024) },
    /* b.1.11: cross_entropy N=1, C=1 (loss 0) */
    { .id = "b.1.11", .op = OP_CE, .dtype = TC_FLOAT32, .shape = { 2, { 1, 1 } },
      .x = D(3.0),
      .tshape = { 1, { 1 } },
      .target = D(0.0),
      .reduction = MEAN, .ignore_index = -100, .seed = 1.0, .lshape = { 0, { 0 } },
      .loss = D(0.0),
      .grad = D(0.0) },
    /* b.1.12: cross_entropy repeated targets, weight W5, mean */
    { .id = "b.1.12", .op = OP_CE, .dtype = TC_FLOAT32, .shape = { 2, { 3, 5 } },
      .x = D(0.5, -1.0, 2.0, 0.1, -0.3, 1.2, 0.3, -0.7, 0.0, 2.5, -0.4, 1.6, 0.2, -2.0, 0.9),
      .tshape = { 1, { 3 } },
      .target = D(2.0, 2.0, 2.0),
      .nweight = 5,
      .weight = D(0.2, 1.0, 0.5, 2.0, 1.5),
      .reduction = MEAN, .ignore_index = -100, .seed = 1.0, .lshape = { 0, { 0 } },
      .loss = D(2.025005578994751),
      .grad = D(0.0488438606262207, 0.010898537933826447, -0.11443035304546356,
          0.03274101763963699, 0.021946962922811508, 0.06031404063105583, 0.024521857500076294,
          -0.3243122696876526, 0.01816624030470848, 0.2213101089000702, 0.023670263588428497,
          0.17490088939666748, -0.2902033030986786, 0.00477894302457571, 0.08685322105884552) },
    /* b.1.13: cross_entropy zero weight on two of the three target classes, mean */
    { .id = "b.1.13", .op = OP_CE, .dtype = TC_FLOAT32, .shape = { 2, { 3, 5 } },
      .x = D(0.5, -1.0, 2.0, 0.1, -0.3, 1.2, 0.3, -0.7, 0.0, 2.5, -0.4, 1.6, 0.2, -2.0, 0.9),
      .tshape = { 1, { 3 } },
      .target = D(1.0, 0.0, 4.0),
      .nweight = 5,
      .weight = D(1.0, 0.0, 1.0, 1.0, 0.0),
      .reduction = MEAN, .ignore_index = -100, .seed = 1.0, .lshape = { 0, { 0 } },
      .loss = D(1.709578037261963),
      .grad = D(0.0, -0.0, 0.0, 0.0, 0.0, -0.8190578818321228, 0.07356557250022888,
          0.027063261717557907, 0.054498717188835144, 0.6639302968978882, 0.0, 0.0, 0.0, 0.0,
          -0.0) },
    /* b.1.14: cross_entropy zero weight on two of the three target classes, sum */
    { .id = "b.1.14", .op = OP_CE, .dtype = TC_FLOAT32, .shape = { 2, { 3, 5 } },
      .x = D(0.5, -1.0, 2.0, 0.1, -0.3, 1.2, 0.3, -0.7, 0.0, 2.5, -0.4, 1.6, 0.2, -2.0, 0.9),
      .tshape = { 1, { 3 } },
      .target = D(1.0, 0.0, 4.0),
      .nweight = 5,
      .weight = D(1.0, 0.0, 1.0, 1.0, 0.0),
      .reduction = SUM, .ignore_index = -100, .seed = 1.0, .lshape = { 0, { 0 } },
      .loss = D(1.709578037261963),
      .grad = D(0.0, -0.0, 0.0, 0.0, 0.0, -0.8190578818321228, 0.07356557250022888,
          0.027063261717557907, 0.054498717188835144, 0.6639302968978882, 0.0, 0.0, 0.0, 0.0,
          -0.0) },
    /* b.1.15: cross_entropy zero weight on every target class (weighted mean 0/0), mean */
    { .id = "b.1.15", .op = OP_CE, .dtype = TC_FLOAT32, .shape = { 2, { 3, 5 } },
      .x = D(0.5, -1.0, 2.0, 0.1, -0.3, 1.2, 0.3, -0.7, 0.0, 2.5, -0.4, 1.6, 0.2, -2.0, 0.9),
      .tshape = { 1, { 3 } },
      .target = D(1.0, 4.0, 4.0),
      .nweight = 5,
      .weight = D(1.0, 0.0, 1.0, 1.0, 0.0),
      .reduction = MEAN, .ignore_index = -100, .seed = 1.0, .lshape = { 0, { 0 } },
      .loss = D(NAN),
      .grad = D(NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN) },
    /* b.1.16: cross_entropy zero weight on every target class, sum */
    { .id = "b.1.16", .op = OP_CE, .dtype = TC_FLOAT32, .shape = { 2, { 3, 5 } },
      .x = D(0.5, -1.0, 2.0, 0.1, -0.3, 1.2, 0.3, -0.7, 0.0, 2.5, -0.4, 1.6, 0.2, -2.0, 0.9),
      .tshape = { 1, { 3 } },
      .target = D(1.0, 4.0, 4.0),
      .nweight = 5,
      .weight = D(1.0, 0.0, 1.0, 1.0, 0.0),
      .reduction = SUM, .ignore_index = -100, .seed = 1.0, .lshape = { 0, { 0 } },
      .loss = D(0.0),
      .grad = D(0.0, -0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, -0.0, 0.0, 0.0, 0.0, 0.0, -0.0) },
    /* b.1.17: cross_entropy negative weights, mean */
    { .id = "b.1.17", .op = OP_CE, .dtype = TC_FLOAT32, .shape = { 2, { 3, 5 } },
      .x = D(0.5, -1.0, 2.0, 0.1, -0.3, 1.2, 0.3, -0.7, 0.0, 2.5, -0.4, 1.6, 0.2, -2.0, 0.9),
      .tshape = { 1, { 3 } },
      .target = D(1.0, 0.0, 4.0),
      .nweight = 5,
      .weight = D(1.0, -1.0, 1.0, 1.0, 0.5),
      .reduction = MEAN, .ignore_index = -100, .seed = 1.0, .lshape = { 0, { 0 } },
      .loss = D(-2.076949119567871),
      .grad = D(-0.2930631637573242, 1.934608817100525, -1.313417911529541,
          -0.19644609093666077, -0.13168177008628845, -1.6381157636642456, 0.14713114500045776,
          0.054126523435115814, 0.10899743437767029, 1.3278605937957764, 0.07101079076528549,
          0.5247026681900024, 0.12939007580280304, 0.014336829073727131, -0.7394403219223022) },
    /* b.2.1: cross_entropy default ignore_index -100 in target, reduction=mean */
    { .id = "b.2.1", .op = OP_CE, .dtype = TC_FLOAT32, .shape = { 2, { 3, 5 } },
      .x = D(0.5, -1.0, 2.0, 0.1, -0.3, 1.2, 0.3, -0.7, 0.0, 2.5, -0.4, 1.6, 0.2, -2.0, 0.9),
      .tshape = { 1, { 3 } },
      .target = D(1.0, -100.0, 4.0),
      .reduction = MEAN, .ignore_index = -100, .seed = 1.0, .lshape = { 0, { 0 } },
      .loss = D(2.382719039916992),
      .grad = D(0.07326579093933105, -0.4836522042751312, 0.32835447788238525,
          0.04911152273416519, 0.03292044252157211, 0.0, 0.0, 0.0, 0.0, 0.0,
          0.035505395382642746, 0.2623513340950012, 0.06469503790140152, 0.0071684145368635654,
          -0.3697201609611511) },
    /* b.2.2: cross_entropy default ignore_index -100 in target, reduction=sum */
    { .id = "b.2.2", .op = OP_CE, .dtype = TC_FLOAT32, .shape = { 2, { 3, 5 } },
      .x = D(0.5, -1.0, 2.0, 0.1, -0.3, 1.2, 0.3, -0.7, 0.0, 2.5, -0.4, 1.6, 0.2, -2.0, 0.9),
      .tshape = { 1, { 3 } },
      .target = D(1.0, -100.0, 4.0),
      .reduction = SUM, .ignore_index = -100, .seed = 1.0, .lshape = { 0, { 0 } },
      .loss = D(4.765438079833984),
      .grad = D(0.1465315818786621, -0.9673044085502625, 0.6567089557647705,
          0.09822304546833038, 0.06584088504314423, 0.0, 0.0, 0.0, 0.0, 0.0,
          0.07101079076528549, 0.5247026681900024, 0.12939007580280304, 0.014336829073727131,
          -0.7394403219223022) },
    /* b.2.3: cross_entropy default ignore_index -100 in target, reduction=none */
    { .id = "b.2.3", .op = OP_CE, .dtype = TC_FLOAT32, .shape = { 2, { 3, 5 } },
      .x = D(0.5, -1.0, 2.0, 0.1, -0.3, 1.2, 0.3, -0.7, 0.0, 2.5, -0.4, 1.6, 0.2, -2.0, 0.9),
      .tshape = { 1, { 3 } },
      .target = D(1.0, -100.0, 4.0),
      .reduction = NONE, .ignore_index = -100, .seed = 0.5, .lshape = { 1, { 3 } },
      .loss = D(3.4205143451690674, 0.0, 1.344923496246338),
      .grad = D(0.07326579093933105, -0.4836522042751312, 0.32835447788238525,
          0.04911152273416519, 0.03292044252157211, 0.0, 0.0, 0.0, 0.0, 0.0,
          0.10651618242263794, 0.7870540022850037, 0.19408512115478516, 0.021505244076251984,
          -1.1091605424880981) },
    /* b.2.4: cross_entropy ignore_index=1 (targets [1,0,4]: row 0 ignored), reduction=mean */
    { .id = "b.2.4", .op = OP_CE, .dtype = TC_FLOAT32, .shape = { 2, { 3, 5 } },
      .x = D(0.5, -1.0, 2.0, 0.1, -0.3, 1.2, 0.3, -0.7, 0.0, 2.5, -0.4, 1.6, 0.2, -2.0, 0.9),
      .tshape = { 1, { 3 } },
      .target = D(1.0, 0.0, 4.0),
      .reduction = MEAN, .ignore_index = 1, .seed = 1.0, .lshape = { 0, { 0 } },
      .loss = D(1.5272507667541504),
      .grad = D(0.0, 0.0, 0.0, 0.0, 0.0, -0.4095289409160614, 0.03678278625011444,
          0.013531630858778954, 0.027249358594417572, 0.3319651484489441, 0.035505395382642746,
          0.2623513340950012, 0.06469503790140152, 0.0071684145368635654, -0.3697201609611511) },
    /* b.2.5: cross_entropy ignore_index=1 (targets [1,0,4]: row 0 ignored), reduction=sum */
    { .id = "b.2.5", .op = OP_CE, .dtype = TC_FLOAT32, .shape = { 2, { 3, 5 } },
      .x = D(0.5, -1.0, 2.0, 0.1, -0.3, 1.2, 0.3, -0.7, 0.0, 2.5, -0.4, 1.6, 0.2, -2.0, 0.9),
      .tshape = { 1, { 3 } },
      .target = D(1.0, 0.0, 4.0),
      .reduction = SUM, .ignore_index = 1, .seed = 1.0, .lshape = { 0, { 0 } },
      .loss = D(3.054501533508301),
      .grad = D(0.0, 0.0, 0.0, 0.0, 0.0, -0.8190578818321228, 0.07356557250022888,
          0.027063261717557907, 0.054498717188835144, 0.6639302968978882, 0.07101079076528549,
          0.5247026681900024, 0.12939007580280304, 0.014336829073727131, -0.7394403219223022) },
    /* b.2.6: cross_entropy ignore_index=1 (targets [1,0,4]: row 0 ignored), reduction=none */
    { .id = "b.2.6", .op = OP_CE, .dtype = TC_FLOAT32, .shape = { 2, { 3, 5 } },
      .x = D(0.5, -1.0, 2.0, 0.1, -0.3, 1.2, 0.3, -0.7, 0.0, 2.5, -0.4, 1.6, 0.2, -2.0, 0.9),
      .tshape = { 1, { 3 } },
      .target = D(1.0, 0.0, 4.0),
      .reduction = NONE, .ignore_index = 1, .seed = 0.5, .lshape = { 1, { 3 } },
      .loss = D(0.0, 1.709578037261963, 1.344923496246338),
      .grad = D(0.0, 0.0, 0.0, 0.0, 0.0, -0.8190578818321228, 0.07356557250022888,
          0.027063261717557907, 0.054498717188835144, 0.6639302968978882, 0.10651618242263794,
          0.7870540022850037, 0.19408512115478516, 0.021505244076251984, -1.1091605424880981) },
    /* b.2.7: cross_entropy ignore_index=1 with weight W5, mean */
    { .id = "b.2.7", .op = OP_CE, .dtype = TC_FLOAT32, .shape = { 2, { 3, 5 } },
      .x = D(0.5, -1.0, 2.0, 0.1, -0.3, 1.2, 0.3, -0.7, 0.0, 2.5, -0.4, 1.6, 0.2, -2.0, 0.9),
      .tshape = { 1, { 3 } },
      .target = D(1.0, 0.0, 4.0),
      .nweight = 5,
      .weight = D(0.2, 1.0, 0.5, 2.0, 1.5),
      .reduction = MEAN, .ignore_index = 1, .seed = 1.0, .lshape = { 0, { 0 } },
      .loss = D(1.3878239393234253),
      .grad = D(0.0, 0.0, 0.0, 0.0, 0.0, -0.0963597446680069, 0.00865477230399847,
          0.0031839129514992237, 0.006411613430827856, 0.07810944318771362,
          0.06265657395124435, 0.4629729092121124, 0.1141677051782608, 0.012650142423808575,
          -0.6524473428726196) },
    /* b.2.8: cross_entropy ignore_index=1 with weight W5, sum */
    { .id = "b.2.8", .op = OP_CE, .dtype = TC_FLOAT32, .shape = { 2, { 3, 5 } },
      .x = D(0.5, -1.0, 2.0, 0.1, -0.3, 1.2, 0.3, -0.7, 0.0, 2.5, -0.4, 1.6, 0.2, -2.0, 0.9),
      .tshape = { 1, { 3 } },
      .target = D(1.0, 0.0, 4.0),
      .nweight = 5,
      .weight = D(0.2, 1.0, 0.5, 2.0, 1.5),
      .reduction = SUM, .ignore_index = 1, .seed = 1.0, .lshape = { 0, { 0 } },
      .loss = D(2.3593008518218994),
      .grad = D(0.0, 0.0, 0.0, 0.0, 0.0, -0.1638115793466568, 0.014713115058839321,
          0.005412652622908354, 0.010899743996560574, 0.13278606534004211, 0.10651618242263794,
          0.7870540022850037, 0.19408512115478516, 0.021505244076251984, -1.1091605424880981) },
    /* b.2.9: cross_entropy -100 in target with weight W5, mean */
    { .id = "b.2.9", .op = OP_CE, .dtype = TC_FLOAT32, .shape = { 2, { 3, 5 } },
      .x = D(0.5, -1.0, 2.0, 0.1, -0.3, 1.2, 0.3, -0.7, 0.0, 2.5, -0.4, 1.6, 0.2, -2.0, 0.9),
      .tshape = { 1, { 3 } },
      .target = D(1.0, -100.0, 4.0),
      .nweight = 5,
      .weight = D(0.2, 1.0, 0.5, 2.0, 1.5),
      .reduction = MEAN, .ignore_index = -100, .seed = 1.0, .lshape = { 0, { 0 } },
      .loss = D(2.1751599311828613),
      .grad = D(0.0586126334965229, -0.386921763420105, 0.26268360018730164,
          0.039289217442274094, 0.02633635513484478, 0.0, 0.0, 0.0, 0.0, 0.0,
          0.042606476694345474, 0.31482160091400146, 0.0776340514421463, 0.008602097630500793,
          -0.44366422295570374) },
    /* b.2.10: cross_entropy all targets ignored (-100), reduction=mean */
    { .id = "b.2.10", .op = OP_CE, .dtype = TC_FLOAT32, .shape = { 2, { 3, 5 } },
      .x = D(0.5, -1.0, 2.0, 0.1, -0.3, 1.2, 0.3, -0.7, 0.0, 2.5, -0.4, 1.6, 0.2, -2.0, 0.9),
      .tshape = { 1, { 3 } },
      .target = D(-100.0, -100.0, -100.0),
      .reduction = MEAN, .ignore_index = -100, .seed = 1.0, .lshape = { 0, { 0 } },
      .loss = D(NAN),
      .grad = D(0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0) },
    /* b.2.11: cross_entropy all targets ignored (-100), reduction=sum */
    { .id = "b.2.11", .op = OP_CE, .dtype = TC_FLOAT32, .shape = { 2, { 3, 5 } },
      .x = D(0.5, -1.0, 2.0, 0.1, -0.3, 1.2, 0.3, -0.7, 0.0, 2.5, -0.4, 1.6, 0.2, -2.0, 0.9),
      .tshape = { 1, { 3 } },
      .target = D(-100.0, -100.0, -100.0),
      .reduction = SUM, .ignore_index = -100, .seed = 1.0, .lshape = { 0, { 0 } },
      .loss = D(0.0),
      .grad = D(0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0) },
    /* b.2.12: cross_entropy all targets ignored (-100), reduction=none */
    { .id = "b.2.12", .op = OP_CE, .dtype = TC_FLOAT32, .shape = { 2, { 3, 5 } },
      .x = D(0.5, -1.0, 2.0, 0.1, -0.3, 1.2, 0.3, -0.7, 0.0, 2.5, -0.4, 1.6, 0.2, -2.0, 0.9),
      .tshape = { 1, { 3 } },
      .target = D(-100.0, -100.0, -100.0),
      .reduction = NONE, .ignore_index = -100, .seed = 0.5, .lshape = { 1, { 3 } },
      .loss = D(0.0, 0.0, 0.0),
      .grad = D(0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0) },
    /* b.2.13: cross_entropy all targets ignored, weight W5, mean */
    { .id = "b.2.13", .op = OP_CE, .dtype = TC_FLOAT32, .shape = { 2, { 3, 5 } },
      .x = D(0.5, -1.0, 2.0, 0.1, -0.3, 1.2, 0.3, -0.7, 0.0, 2.5, -0.4, 1.6, 0.2, -2.0, 0.9),
      .tshape = { 1, { 3 } },
      .target = D(-100.0, -100.0, -100.0),
      .nweight = 5,
      .weight = D(0.2, 1.0, 0.5, 2.0, 1.5),
      .reduction = MEAN, .ignore_index = -100, .seed = 1.0, .lshape = { 0, { 0 } },
      .loss = D(NAN),
      .grad = D(0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0) },
    /* b.2.14: cross_entropy all targets ignored by ignore_index=2, mean */
    { .id = "b.2.14", .op = OP_CE, .dtype = TC_FLOAT32, .shape = { 2, { 3, 5 } },
      .x = D(0.5, -1.0, 2.0, 0.1, -0.3, 1.2, 0.3, -0.7, 0.0, 2.5, -0.4, 1.6, 0.2, -2.0, 0.9),
      .tshape = { 1, { 3 } },
      .target = D(2.0, 2.0, 2.0),
      .reduction = MEAN, .ignore_index = 2, .seed = 1.0, .lshape = { 0, { 0 } },
      .loss = D(NAN),
      .grad = D(0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0) },
    /* b.2.15: cross_entropy ignore_index=-1 with target -1, mean */
    { .id = "b.2.15", .op = OP_CE, .dtype = TC_FLOAT32, .shape = { 2, { 3, 5 } },
      .x = D(0.5, -1.0, 2.0, 0.1, -0.3, 1.2, 0.3, -0.7, 0.0, 2.5, -0.4, 1.6, 0.2, -2.0, 0.9),
      .tshape = { 1, { 3 } },
      .target = D(1.0, -1.0, 4.0),
      .reduction = MEAN, .ignore_index = -1, .seed = 1.0, .lshape = { 0, { 0 } },
      .loss = D(2.382719039916992),
      .grad = D(0.07326579093933105, -0.4836522042751312, 0.32835447788238525,
          0.04911152273416519, 0.03292044252157211, 0.0, 0.0, 0.0, 0.0, 0.0,
          0.035505395382642746, 0.2623513340950012, 0.06469503790140152, 0.0071684145368635654,
          -0.3697201609611511) },
    /* b.2.16: cross_entropy ignore_index=7 (>= C) with target 7, mean */
    { .id = "b.2.16", .op = OP_CE, .dtype = TC_FLOAT32, .shape = { 2, { 3, 5 } },
      .x = D(0.5, -1.0, 2.0, 0.1, -0.3, 1.2, 0.3, -0.7, 0.0, 2.5, -0.4, 1.6, 0.2, -2.0, 0.9),
      .tshape = { 1, { 3 } },
      .target = D(1.0, 7.0, 4.0),
      .reduction = MEAN, .ignore_index = 7, .seed = 1.0, .lshape = { 0, { 0 } },
      .loss = D(2.382719039916992),
      .grad = D(0.07326579093933105, -0.4836522042751312, 0.32835447788238525,
          0.04911152273416519, 0.03292044252157211, 0.0, 0.0, 0.0, 0.0, 0.0,
          0.035505395382642746, 0.2623513340950012, 0.06469503790140152, 0.0071684145368635654,
          -0.3697201609611511) },
    /* b.3.1: cross_entropy label_smoothing=0.1, reduction=mean */
    { .id = "b.3.1", .op = OP_CE, .dtype = TC_FLOAT32, .shape = { 2, { 3, 5 } },
      .x = D(0.5, -1.0, 2.0, 0.1, -0.3, 1.2, 0.3, -0.7, 0.0, 2.5, -0.4, 1.6, 0.2, -2.0, 0.9),
      .tshape = { 1, { 3 } },
      .target = D(1.0, 0.0, 4.0),
      .reduction = MEAN, .ignore_index = -100, .smoothing = 0.1, .seed = 1.0,
      .lshape = { 0, { 0 } },
      .loss = D(2.1623384952545166),
      .grad = D(0.04217718541622162, -0.2957681119441986, 0.21223628520965576,
          0.026074344292283058, 0.015280292369425297, -0.24635261297225952,
          0.017855187878012657, 0.002354419557377696, 0.01149956975132227, 0.21464340388774872,
          0.01700359582901001, 0.1682342141866684, 0.036463357508182526, -0.001887723570689559,
          -0.21981343626976013) },
    /* b.3.2: cross_entropy label_smoothing=0.1, reduction=sum */
    { .id = "b.3.2", .op = OP_CE, .dtype = TC_FLOAT32, .shape = { 2, { 3, 5 } },
      .x = D(0.5, -1.0, 2.0, 0.1, -0.3, 1.2, 0.3, -0.7, 0.0, 2.5, -0.4, 1.6, 0.2, -2.0, 0.9),
      .tshape = { 1, { 3 } },
      .target = D(1.0, 0.0, 4.0),
      .reduction = SUM, .ignore_index = -100, .smoothing = 0.1, .seed = 1.0, .lshape = { 0, { 0 } },
      .loss = D(6.487015247344971),
      .grad = D(0.12653157114982605, -0.8873043656349182, 0.6367088556289673,
          0.07822303473949432, 0.045840878039598465, -0.7390578389167786, 0.05356556549668312,
          0.007063258904963732, 0.03449871018528938, 0.643930196762085, 0.05101078748703003,
          0.504702627658844, 0.10939006507396698, -0.005663171410560608, -0.6594403386116028) },
    /* b.3.3: cross_entropy label_smoothing=0.1, reduction=none */
    { .id = "b.3.3", .op = OP_CE, .dtype = TC_FLOAT32, .shape = { 2, { 3, 5 } },
      .x = D(0.5, -1.0, 2.0, 0.1, -0.3, 1.2, 0.3, -0.7, 0.0, 2.5, -0.4, 1.6, 0.2, -2.0, 0.9),
      .tshape = { 1, { 3 } },
      .target = D(1.0, 0.0, 4.0),
      .reduction = NONE, .ignore_index = -100, .smoothing = 0.1, .seed = 0.5,
      .lshape = { 1, { 3 } },
      .loss = D(3.2945141792297363, 1.7635780572891235, 1.428923487663269),
      .grad = D(0.06326578557491302, -0.4436521828174591, 0.31835442781448364,
          0.03911151736974716, 0.022920439019799232, -0.7390578389167786, 0.05356556549668312,
          0.007063258904963732, 0.03449871018528938, 0.643930196762085, 0.07651618123054504,
          0.7570539116859436, 0.16408510506153107, -0.008494757115840912, -0.989160418510437) },
    /* b.3.4: cross_entropy label_smoothing=0.5, mean */
    { .id = "b.3.4", .op = OP_CE, .dtype = TC_FLOAT32, .shape = { 2, { 3, 5 } },
      .x = D(0.5, -1.0, 2.0, 0.1, -0.3, 1.2, 0.3, -0.7, 0.0, 2.5, -0.4, 1.6, 0.2, -2.0, 0.9),
      .tshape = { 1, { 3 } },
      .target = D(1.0, 0.0, 4.0),
      .reduction = MEAN, .ignore_index = -100, .smoothing = 0.5, .seed = 1.0,
      .lshape = { 0, { 0 } },
      .loss = D(2.1783385276794434),
      .grad = D(0.015510527417063713, -0.1891014575958252, 0.1855696588754654,
          -0.0005923189455643296, -0.011386373080313206, -0.1396859586238861,
          -0.00881147664040327, -0.024312248453497887, -0.015167095698416233,
          0.18797677755355835, -0.009663070552051067, 0.14156755805015564,
          0.009796691127121449, -0.028554391115903854, -0.11314678192138672) },
    /* b.3.5: cross_entropy label_smoothing=1.0, mean */
    { .id = "b.3.5", .op = OP_CE, .dtype = TC_FLOAT32, .shape = { 2, { 3, 5 } },
      .x = D(0.5, -1.0, 2.0, 0.1, -0.3, 1.2, 0.3, -0.7, 0.0, 2.5, -0.4, 1.6, 0.2, -2.0, 0.9),
      .tshape = { 1, { 3 } },
      .target = D(1.0, 0.0, 4.0),
      .reduction = MEAN, .ignore_index = -100, .smoothing = 1.0, .seed = 1.0,
      .lshape = { 0, { 0 } },
      .loss = D(2.198338508605957),
      .grad = D(-0.017822807654738426, -0.05576813220977783, 0.15223632752895355,
          -0.033925652503967285, -0.04471970722079277, -0.006352629046887159,
          -0.042144812643527985, -0.05764558166265488, -0.0485004298388958,
          0.15464343130588531, -0.04299640655517578, 0.1082342267036438, -0.023536643013358116,
          -0.061887726187705994, 0.020186549052596092) },
    /* b.3.6: cross_entropy label_smoothing=0.0, mean */
    { .id = "b.3.6", .op = OP_CE, .dtype = TC_FLOAT32, .shape = { 2, { 3, 5 } },
      .x = D(0.5, -1.0, 2.0, 0.1, -0.3, 1.2, 0.3, -0.7, 0.0, 2.5, -0.4, 1.6, 0.2, -2.0, 0.9),
      .tshape = { 1, { 3 } },
      .target = D(1.0, 0.0, 4.0),
      .reduction = MEAN, .ignore_index = -100, .seed = 1.0, .lshape = { 0, { 0 } },
      .loss = D(2.1583385467529297),
      .grad = D(0.0488438606262207, -0.32243481278419495, 0.21890299022197723,
          0.03274101763963699, 0.021946962922811508, -0.27301931381225586,
          0.024521857500076294, 0.009021087549626827, 0.01816624030470848, 0.2213101089000702,
          0.023670263588428497, 0.17490088939666748, 0.04313002526760101, 0.00477894302457571,
          -0.24648012220859528) },
    /* b.3.7: cross_entropy label_smoothing=0.1, weight W5, reduction=mean */
    { .id = "b.3.7", .op = OP_CE, .dtype = TC_FLOAT32, .shape = { 2, { 3, 5 } },
      .x = D(0.5, -1.0, 2.0, 0.1, -0.3, 1.2, 0.3, -0.7, 0.0, 2.5, -0.4, 1.6, 0.2, -2.0, 0.9),
      .tshape = { 1, { 3 } },
      .target = D(1.0, 0.0, 4.0),
      .nweight = 5,
      .weight = D(0.2, 1.0, 0.5, 2.0, 1.5),
      .reduction = MEAN, .ignore_index = -100, .smoothing = 0.1, .seed = 1.0,
      .lshape = { 0, { 0 } },
      .loss = D(2.197938919067383),
      .grad = D(0.05300655588507652, -0.3285827934741974, 0.2404947280883789,
          0.021709604188799858, 0.01337194349616766, -0.04911571368575096,
          0.00033060077112168074, -0.0008570495410822332, -0.00908235739916563,
          0.05872451886534691, 0.0367591418325901, 0.2751546800136566, 0.06597524136304855,
          -0.007094167172908783, -0.3707948923110962) },
    /* b.3.8: cross_entropy label_smoothing=0.1, weight W5, reduction=sum */
    { .id = "b.3.8", .op = OP_CE, .dtype = TC_FLOAT32, .shape = { 2, { 3, 5 } },
      .x = D(0.5, -1.0, 2.0, 0.1, -0.3, 1.2, 0.3, -0.7, 0.0, 2.5, -0.4, 1.6, 0.2, -2.0, 0.9),
      .tshape = { 1, { 3 } },
      .target = D(1.0, 0.0, 4.0),
      .nweight = 5,
      .weight = D(0.2, 1.0, 0.5, 2.0, 1.5),
      .reduction = SUM, .ignore_index = -100, .smoothing = 0.1, .seed = 1.0, .lshape = { 0, { 0 } },
      .loss = D(5.9344353675842285),
      .grad = D(0.14311769604682922, -0.8871735334396362, 0.6493357419967651,
          0.05861593410372734, 0.036104246973991394, -0.1326124221086502,
          0.0008926215232349932, -0.002314033918082714, -0.024522364139556885,
          0.15855619311332703, 0.09924968332052231, 0.7429175972938538, 0.17813315987586975,
          -0.019154250621795654, -1.0011461973190308) },
    /* b.3.9: cross_entropy label_smoothing=0.1, weight W5, reduction=none */
    { .id = "b.3.9", .op = OP_CE, .dtype = TC_FLOAT32, .shape = { 2, { 3, 5 } },
      .x = D(0.5, -1.0, 2.0, 0.1, -0.3, 1.2, 0.3, -0.7, 0.0, 2.5, -0.4, 1.6, 0.2, -2.0, 0.9),
      .tshape = { 1, { 3 } },
      .target = D(1.0, 0.0, 4.0),
      .nweight = 5,
      .weight = D(0.2, 1.0, 0.5, 2.0, 1.5),
      .reduction = NONE, .ignore_index = -100, .smoothing = 0.1, .seed = 0.5,
      .lshape = { 1, { 3 } },
      .loss = D(3.3331964015960693, 0.5315201282501221, 2.069718599319458),
      .grad = D(0.07155884802341461, -0.4435867667198181, 0.32466787099838257,
          0.02930796705186367, 0.018052123486995697, -0.1326124221086502,
          0.0008926215232349932, -0.002314033918082714, -0.024522364139556885,
          0.15855619311332703, 0.14887453615665436, 1.1143765449523926, 0.2671997547149658,
          -0.028731374070048332, -1.501719355583191) },
    /* b.3.10: cross_entropy label_smoothing=0.1, -100 in target, reduction=mean */
    { .id = "b.3.10", .op = OP_CE, .dtype = TC_FLOAT32, .shape = { 2, { 3, 5 } },
      .x = D(0.5, -1.0, 2.0, 0.1, -0.3, 1.2, 0.3, -0.7, 0.0, 2.5, -0.4, 1.6, 0.2, -2.0, 0.9),
      .tshape = { 1, { 3 } },
      .target = D(1.0, -100.0, 4.0),
      .reduction = MEAN, .ignore_index = -100, .smoothing = 0.1, .seed = 1.0,
      .lshape = { 0, { 0 } },
      .loss = D(2.3617188930511475),
      .grad = D(0.06326578557491302, -0.4436521828174591, 0.31835442781448364,
          0.03911151736974716, 0.022920439019799232, 0.0, 0.0, 0.0, 0.0, 0.0,
          0.025505393743515015, 0.252351313829422, 0.05469503253698349, -0.002831585705280304,
          -0.3297201693058014) },
    /* b.3.11: cross_entropy label_smoothing=0.1, -100 in target, reduction=sum */
    { .id = "b.3.11", .op = OP_CE, .dtype = TC_FLOAT32, .shape = { 2, { 3, 5 } },
      .x = D(0.5, -1.0, 2.0, 0.1, -0.3, 1.2, 0.3, -0.7, 0.0, 2.5, -0.4, 1.6, 0.2, -2.0, 0.9),
      .tshape = { 1, { 3 } },
      .target = D(1.0, -100.0, 4.0),
      .reduction = SUM, .ignore_index = -100, .smoothing = 0.1, .seed = 1.0, .lshape = { 0, { 0 } },
      .loss = D(4.723437786102295),
      .grad = D(0.12653157114982605, -0.8873043656349182, 0.6367088556289673,
          0.07822303473949432, 0.045840878039598465, 0.0, 0.0, 0.0, 0.0, 0.0,
          0.05101078748703003, 0.504702627658844, 0.10939006507396698, -0.005663171410560608,
          -0.6594403386116028) },
    /* b.3.12: cross_entropy label_smoothing=0.1, -100 in target, reduction=none */
    { .id = "b.3.12", .op = OP_CE, .dtype = TC_FLOAT32, .shape = { 2, { 3, 5 } },
      .x = D(0.5, -1.0, 2.0, 0.1, -0.3, 1.2, 0.3, -0.7, 0.0, 2.5, -0.4, 1.6, 0.2, -2.0, 0.9),
      .tshape = { 1, { 3 } },
      .target = D(1.0, -100.0, 4.0),
      .reduction = NONE, .ignore_index = -100, .smoothing = 0.1, .seed = 0.5,
      .lshape = { 1, { 3 } },
      .loss = D(3.2945141792297363, 0.0, 1.428923487663269),
      .grad = D(0.06326578557491302, -0.4436521828174591, 0.31835442781448364,
          0.03911151736974716, 0.022920439019799232, 0.0, 0.0, 0.0, 0.0, 0.0,
          0.07651618123054504, 0.7570539116859436, 0.16408510506153107, -0.008494757115840912,
          -0.989160418510437) },
    /* b.3.13: cross_entropy label_smoothing=0.2, ignore_index=1, weight W5, mean */
    { .id = "b.3.13", .op = OP_CE, .dtype = TC_FLOAT32, .shape = { 2, { 3, 5 } },
      .x = D(0.5, -1.0, 2.0, 0.1, -0.3, 1.2, 0.3, -0.7, 0.0, 2.5, -0.4, 1.6, 0.2, -2.0, 0.9),
      .tshape = { 1, { 3 } },
      .target = D(1.0, 0.0, 4.0),
      .nweight = 5,
      .weight = D(0.2, 1.0, 0.5, 2.0, 1.5),
      .reduction = MEAN, .ignore_index = 1, .smoothing = 0.2, .seed = 1.0, .lshape = { 0, { 0 } },
      .loss = D(1.672456979751587),
      .grad = D(0.0, 0.0, 0.0, 0.0, 0.0, -0.05965488776564598, -0.007604627870023251,
          -0.005906305275857449, -0.035261452198028564, 0.1084272637963295,
          0.05410776287317276, 0.41104787588119507, 0.09540072828531265, -0.035184551030397415,
          -0.525371789932251) },
    /* b.3.14: cross_entropy label_smoothing=0.2, ignore_index=1, weight W5, sum */
    { .id = "b.3.14", .op = OP_CE, .dtype = TC_FLOAT32, .shape = { 2, { 3, 5 } },
      .x = D(0.5, -1.0, 2.0, 0.1, -0.3, 1.2, 0.3, -0.7, 0.0, 2.5, -0.4, 1.6, 0.2, -2.0, 0.9),
      .tshape = { 1, { 3 } },
      .target = D(1.0, 0.0, 4.0),
      .nweight = 5,
      .weight = D(0.2, 1.0, 0.5, 2.0, 1.5),
      .reduction = SUM, .ignore_index = 1, .smoothing = 0.2, .seed = 1.0, .lshape = { 0, { 0 } },
      .loss = D(2.84317684173584),
      .grad = D(0.0, 0.0, 0.0, 0.0, 0.0, -0.1014133095741272, -0.012927868403494358,
          -0.01004071906208992, -0.05994446948170662, 0.18432635068893433, 0.09198319166898727,
          0.6987813711166382, 0.16218122839927673, -0.059813741594552994, -0.8931320309638977) },
    /* b.3.15: cross_entropy label_smoothing=0.2, ignore_index=1, weight W5, none */
    { .id = "b.3.15", .op = OP_CE, .dtype = TC_FLOAT32, .shape = { 2, { 3, 5 } },
      .x = D(0.5, -1.0, 2.0, 0.1, -0.3, 1.2, 0.3, -0.7, 0.0, 2.5, -0.4, 1.6, 0.2, -2.0, 0.9),
      .tshape = { 1, { 3 } },
      .target = D(1.0, 0.0, 4.0),
      .nweight = 5,
      .weight = D(0.2, 1.0, 0.5, 2.0, 1.5),
      .reduction = NONE, .ignore_index = 1, .smoothing = 0.2, .seed = 0.5, .lshape = { 1, { 3 } },
      .loss = D(0.0, 0.7211247086524963, 2.1220521926879883),
      .grad = D(0.0, 0.0, 0.0, 0.0, 0.0, -0.1014133095741272, -0.012927868403494358,
          -0.01004071906208992, -0.05994446948170662, 0.18432635068893433, 0.1379747837781906,
          1.0481719970703125, 0.2432718425989151, -0.08972061425447464, -1.339698076248169) },
    /* b.3.16: cross_entropy label_smoothing=0.1, all targets ignored, mean */
    { .id = "b.3.16", .op = OP_CE, .dtype = TC_FLOAT32, .shape = { 2, { 3, 5 } },
      .x = D(0.5, -1.0, 2.0, 0.1, -0.3, 1.2, 0.3, -0.7, 0.0, 2.5, -0.4, 1.6, 0.2, -2.0, 0.9),
      .tshape = { 1, { 3 } },
      .target = D(-100.0, -100.0, -100.0),
      .reduction = MEAN, .ignore_index = -100, .smoothing = 0.1, .seed = 1.0,
      .lshape = { 0, { 0 } },
      .loss = D(NAN),
      .grad = D(0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0) },
    /* b.3.17: cross_entropy label_smoothing=0.1, all targets ignored, sum */
    { .id = "b.3.17", .op = OP_CE, .dtype = TC_FLOAT32, .shape = { 2, { 3, 5 } },
      .x = D(0.5, -1.0, 2.0, 0.1, -0.3, 1.2, 0.3, -0.7, 0.0, 2.5, -0.4, 1.6, 0.2, -2.0, 0.9),
      .tshape = { 1, { 3 } },
      .target = D(-100.0, -100.0, -100.0),
      .reduction = SUM, .ignore_index = -100, .smoothing = 0.1, .seed = 1.0, .lshape = { 0, { 0 } },
      .loss = D(0.0),
      .grad = D(0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0) },
    /* b.3.18: cross_entropy label_smoothing=0.1, all targets ignored, weight W5, mean */
    { .id = "b.3.18", .op = OP_CE, .dtype = TC_FLOAT32, .shape = { 2, { 3, 5 } },
      .x = D(0.5, -1.0, 2.0, 0.1, -0.3, 1.2, 0.3, -0.7, 0.0, 2.5, -0.4, 1.6, 0.2, -2.0, 0.9),
      .tshape = { 1, { 3 } },
      .target = D(-100.0, -100.0, -100.0),
      .nweight = 5,
      .weight = D(0.2, 1.0, 0.5, 2.0, 1.5),
      .reduction = MEAN, .ignore_index = -100, .smoothing = 0.1, .seed = 1.0,
      .lshape = { 0, { 0 } },
      .loss = D(NAN),
      .grad = D(0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0) },
    /* b.3.19: cross_entropy label_smoothing=0.1, float64, weight W5, mean */
    { .id = "b.3.19", .op = OP_CE, .dtype = TC_FLOAT64, .shape = { 2, { 3, 5 } },
      .x = D(0.5, -1.0, 2.0, 0.1, -0.3, 1.2, 0.3, -0.7, 0.0, 2.5, -0.4, 1.6, 0.2, -2.0, 0.9),
      .tshape = { 1, { 3 } },
      .target = D(1.0, 0.0, 4.0),
      .nweight = 5,
      .weight = D(0.2, 1.0, 0.5, 2.0, 1.5),
      .reduction = MEAN, .ignore_index = -100, .smoothing = 0.1, .seed = 1.0,
      .lshape = { 0, { 0 } },
      .loss = D(2.1979390592207517),
      .grad = D(0.05300655168680163, -0.3285828171737288, 0.24049471901080866,
          0.021709606086940163, 0.013371940389178353, -0.04911571767947616,
          0.00033060137227717315, -0.0008570493580536258, -0.009082356919029371,
          0.05872452258428199, 0.036759140782511975, 0.27515469575925666, 0.06597525306215062,
          -0.007094166333765643, -0.3707949232701536) },
    /* b.4.1: cross_entropy P35, reduction=mean */
    { .id = "b.4.1", .op = OP_CE, .dtype = TC_FLOAT32, .shape = { 2, { 3, 5 } },
      .x = D(0.5, -1.0, 2.0, 0.1, -0.3, 1.2, 0.3, -0.7, 0.0, 2.5, -0.4, 1.6, 0.2, -2.0, 0.9),
      .tshape = { 2, { 3, 5 } }, .prob = true,
      .target = D(0.1, 0.2, 0.3, 0.4, 0.0, 0.5, 0.0, 0.0, 0.25, 0.25, 0.2, 0.2, 0.2, 0.2, 0.2),
      .reduction = MEAN, .ignore_index = -100, .seed = 1.0, .lshape = { 0, { 0 } },
      .loss = D(1.9333387613296509),
      .grad = D(0.015510531142354012, -0.05576813220977783, 0.11890300363302231,
          -0.10059232264757156, 0.021946964785456657, -0.10635262727737427,
          0.024521857500076294, 0.009021087549626827, -0.06516709923744202, 0.1379767656326294,
          -0.04299640655517578, 0.1082342267036438, -0.023536643013358116,
          -0.061887726187705994, 0.020186549052596092) },
    /* b.4.2: cross_entropy P35, reduction=sum */
    { .id = "b.4.2", .op = OP_CE, .dtype = TC_FLOAT32, .shape = { 2, { 3, 5 } },
      .x = D(0.5, -1.0, 2.0, 0.1, -0.3, 1.2, 0.3, -0.7, 0.0, 2.5, -0.4, 1.6, 0.2, -2.0, 0.9),
      .tshape = { 2, { 3, 5 } }, .prob = true,
      .target = D(0.1, 0.2, 0.3, 0.4, 0.0, 0.5, 0.0, 0.0, 0.25, 0.25, 0.2, 0.2, 0.2, 0.2, 0.2),
      .reduction = SUM, .ignore_index = -100, .seed = 1.0, .lshape = { 0, { 0 } },
      .loss = D(5.800016403198242),
      .grad = D(0.04653158038854599, -0.1673043966293335, 0.35670894384384155,
          -0.3017769455909729, 0.06584088504314423, -0.3190578818321228, 0.07356557250022888,
          0.027063261717557907, -0.19550128281116486, 0.4139302968978882, -0.12898921966552734,
          0.3247026801109314, -0.0706099271774292, -0.18566317856311798, 0.06055964529514313) },
    /* b.4.3: cross_entropy P35, reduction=none */
    { .id = "b.4.3", .op = OP_CE, .dtype = TC_FLOAT32, .shape = { 2, { 3, 5 } },
      .x = D(0.5, -1.0, 2.0, 0.1, -0.3, 1.2, 0.3, -0.7, 0.0, 2.5, -0.4, 1.6, 0.2, -2.0, 0.9),
      .tshape = { 2, { 3, 5 } }, .prob = true,
      .target = D(0.1, 0.2, 0.3, 0.4, 0.0, 0.5, 0.0, 0.0, 0.25, 0.25, 0.2, 0.2, 0.2, 0.2, 0.2),
      .reduction = NONE, .ignore_index = -100, .seed = 0.5, .lshape = { 1, { 3 } },
      .loss = D(1.9305143356323242, 1.6845780611038208, 2.1849236488342285),
      .grad = D(0.023265790194272995, -0.08365219831466675, 0.17835447192192078,
          -0.15088847279548645, 0.03292044252157211, -0.3190578818321228, 0.07356557250022888,
          0.027063261717557907, -0.19550128281116486, 0.4139302968978882, -0.19348382949829102,
          0.4870539903640747, -0.1059148982167244, -0.27849477529525757, 0.0908394604921341) },
    /* b.4.4: cross_entropy P35, weight W5, reduction=mean */
    { .id = "b.4.4", .op = OP_CE, .dtype = TC_FLOAT32, .shape = { 2, { 3, 5 } },
      .x = D(0.5, -1.0, 2.0, 0.1, -0.3, 1.2, 0.3, -0.7, 0.0, 2.5, -0.4, 1.6, 0.2, -2.0, 0.9),
      .tshape = { 2, { 3, 5 } }, .prob = true,
      .target = D(0.1, 0.2, 0.3, 0.4, 0.0, 0.5, 0.0, 0.0, 0.25, 0.25, 0.2, 0.2, 0.2, 0.2, 0.2),
      .nweight = 5,
      .weight = D(0.2, 1.0, 0.5, 2.0, 1.5),
      .reduction = MEAN, .ignore_index = -100, .seed = 1.0, .lshape = { 0, { 0 } },
      .loss = D(2.3206870555877686),
      .grad = D(0.05048065260052681, -0.05391538143157959, 0.20611649751663208,
          -0.22835968434810638, 0.025677945464849472, 0.0254728514701128, 0.023908810690045357,
          0.008795559406280518, -0.1489545851945877, 0.09077733755111694, 0.01128374133259058,
          0.1152302697300911, 0.011521894484758377, -0.128363236784935, -0.009672650136053562) },
    /* b.4.5: cross_entropy P35, weight W5, reduction=sum */
    { .id = "b.4.5", .op = OP_CE, .dtype = TC_FLOAT32, .shape = { 2, { 3, 5 } },
      .x = D(0.5, -1.0, 2.0, 0.1, -0.3, 1.2, 0.3, -0.7, 0.0, 2.5, -0.4, 1.6, 0.2, -2.0, 0.9),
      .tshape = { 2, { 3, 5 } }, .prob = true,
      .target = D(0.1, 0.2, 0.3, 0.4, 0.0, 0.5, 0.0, 0.0, 0.25, 0.25, 0.2, 0.2, 0.2, 0.2, 0.2),
      .nweight = 5,
      .weight = D(0.2, 1.0, 0.5, 2.0, 1.5),
      .reduction = SUM, .ignore_index = -100, .seed = 1.0, .lshape = { 0, { 0 } },
      .loss = D(6.962060928344727),
      .grad = D(0.15144196152687073, -0.16174612939357758, 0.618349552154541,
          -0.685079038143158, 0.07703384011983871, 0.07641857117414474, 0.07172643393278122,
          0.026386680081486702, -0.44686374068260193, 0.2723320424556732, 0.03385121747851372,
          0.3456907570362091, 0.034565672278404236, -0.3850896954536438, -0.029017986729741096) },
    /* b.4.6: cross_entropy P35, weight W5, reduction=none */
    { .id = "b.4.6", .op = OP_CE, .dtype = TC_FLOAT32, .shape = { 2, { 3, 5 } },
      .x = D(0.5, -1.0, 2.0, 0.1, -0.3, 1.2, 0.3, -0.7, 0.0, 2.5, -0.4, 1.6, 0.2, -2.0, 0.9),
      .tshape = { 2, { 3, 5 } }, .prob = true,
      .target = D(0.1, 0.2, 0.3, 0.4, 0.0, 0.5, 0.0, 0.0, 0.25, 0.25, 0.2, 0.2, 0.2, 0.2, 0.2),
      .nweight = 5,
      .weight = D(0.2, 1.0, 0.5, 2.0, 1.5),
      .reduction = NONE, .ignore_index = -100, .seed = 0.5, .lshape = { 1, { 3 } },
      .loss = D(2.6420018672943115, 1.7793385982513428, 2.5407204627990723),
      .grad = D(0.07572098076343536, -0.08087306469678879, 0.3091747760772705,
          -0.342539519071579, 0.03851692005991936, 0.07641857117414474, 0.07172643393278122,
          0.026386680081486702, -0.44686374068260193, 0.2723320424556732, 0.05077683553099632,
          0.5185362100601196, 0.05184851959347725, -0.5776345729827881, -0.04352695122361183) },
    /* b.4.7: cross_entropy P35, label_smoothing=0.1, reduction=mean */
    { .id = "b.4.7", .op = OP_CE, .dtype = TC_FLOAT32, .shape = { 2, { 3, 5 } },
      .x = D(0.5, -1.0, 2.0, 0.1, -0.3, 1.2, 0.3, -0.7, 0.0, 2.5, -0.4, 1.6, 0.2, -2.0, 0.9),
      .tshape = { 2, { 3, 5 } }, .prob = true,
      .target = D(0.1, 0.2, 0.3, 0.4, 0.0, 0.5, 0.0, 0.0, 0.25, 0.25, 0.2, 0.2, 0.2, 0.2, 0.2),
      .reduction = MEAN, .ignore_index = -100, .smoothing = 0.1, .seed = 1.0,
      .lshape = { 0, { 0 } },
      .loss = D(1.9598385095596313),
      .grad = D(0.01217719353735447, -0.055768124759197235, 0.12223631143569946,
          -0.09392564743757248, 0.01528029516339302, -0.09635262936353683,
          0.017855189740657806, 0.0023544197902083397, -0.06350042670965195,
          0.13964341580867767, -0.042996399104595184, 0.1082342192530632,
          -0.023536639288067818, -0.0618877187371254, 0.020186549052596092) },
    /* b.4.8: cross_entropy P35, label_smoothing=0.1, reduction=sum */
    { .id = "b.4.8", .op = OP_CE, .dtype = TC_FLOAT32, .shape = { 2, { 3, 5 } },
      .x = D(0.5, -1.0, 2.0, 0.1, -0.3, 1.2, 0.3, -0.7, 0.0, 2.5, -0.4, 1.6, 0.2, -2.0, 0.9),
      .tshape = { 2, { 3, 5 } }, .prob = true,
      .target = D(0.1, 0.2, 0.3, 0.4, 0.0, 0.5, 0.0, 0.0, 0.25, 0.25, 0.2, 0.2, 0.2, 0.2, 0.2),
      .reduction = SUM, .ignore_index = -100, .smoothing = 0.1, .seed = 1.0, .lshape = { 0, { 0 } },
      .loss = D(5.879515647888184),
      .grad = D(0.03653158247470856, -0.1673043668270111, 0.3667089343070984,
          -0.28177696466445923, 0.04584088549017906, -0.2890578806400299, 0.05356557294726372,
          0.007063262164592743, -0.19050127267837524, 0.4189302921295166, -0.12898920476436615,
          0.324702650308609, -0.0706099197268486, -0.1856631636619568, 0.06055964529514313) },
    /* b.4.9: cross_entropy P35, label_smoothing=0.1, reduction=none */
    { .id = "b.4.9", .op = OP_CE, .dtype = TC_FLOAT32, .shape = { 2, { 3, 5 } },
      .x = D(0.5, -1.0, 2.0, 0.1, -0.3, 1.2, 0.3, -0.7, 0.0, 2.5, -0.4, 1.6, 0.2, -2.0, 0.9),
      .tshape = { 2, { 3, 5 } }, .prob = true,
      .target = D(0.1, 0.2, 0.3, 0.4, 0.0, 0.5, 0.0, 0.0, 0.25, 0.25, 0.2, 0.2, 0.2, 0.2, 0.2),
      .reduction = NONE, .ignore_index = -100, .smoothing = 0.1, .seed = 0.5,
      .lshape = { 1, { 3 } },
      .loss = D(1.9535143375396729, 1.7410778999328613, 2.1849234104156494),
      .grad = D(0.01826579123735428, -0.08365218341350555, 0.1833544671535492,
          -0.14088848233222961, 0.02292044274508953, -0.2890578806400299, 0.05356557294726372,
          0.007063262164592743, -0.19050127267837524, 0.4189302921295166, -0.19348379969596863,
          0.4870539605617523, -0.1059148833155632, -0.2784947454929352, 0.0908394604921341) },
    /* b.4.10: cross_entropy P35, label_smoothing=0.3, weight W5, mean */
    { .id = "b.4.10", .op = OP_CE, .dtype = TC_FLOAT32, .shape = { 2, { 3, 5 } },
      .x = D(0.5, -1.0, 2.0, 0.1, -0.3, 1.2, 0.3, -0.7, 0.0, 2.5, -0.4, 1.6, 0.2, -2.0, 0.9),
      .tshape = { 2, { 3, 5 } }, .prob = true,
      .target = D(0.1, 0.2, 0.3, 0.4, 0.0, 0.5, 0.0, 0.0, 0.25, 0.25, 0.2, 0.2, 0.2, 0.2, 0.2),
      .nweight = 5,
      .weight = D(0.2, 1.0, 0.5, 2.0, 1.5),
      .reduction = MEAN, .ignore_index = -100, .smoothing = 0.3, .seed = 1.0,
      .lshape = { 0, { 0 } },
      .loss = D(2.3570826053619385),
      .grad = D(0.04657573997974396, -0.0543404221534729, 0.20257927477359772,
          -0.18963658809661865, -0.0051779854111373425, 0.032648976892232895,
          0.004386987071484327, -0.0010285286698490381, -0.13860033452510834,
          0.10259289294481277, 0.01128374133259058, 0.1152302697300911, 0.011521894484758377,
          -0.128363236784935, -0.009672650136053562) },
    /* b.4.11: cross_entropy P35, float64, mean */
    { .id = "b.4.11", .op = OP_CE, .dtype = TC_FLOAT64, .shape = { 2, { 3, 5 } },
      .x = D(0.5, -1.0, 2.0, 0.1, -0.3, 1.2, 0.3, -0.7, 0.0, 2.5, -0.4, 1.6, 0.2, -2.0, 0.9),
      .tshape = { 2, { 3, 5 } }, .prob = true,
      .target = D(0.1, 0.2, 0.3, 0.4, 0.0, 0.5, 0.0, 0.0, 0.25, 0.25, 0.2, 0.2, 0.2, 0.2, 0.2),
      .reduction = MEAN, .ignore_index = -100, .seed = 1.0, .lshape = { 0, { 0 } },
      .loss = D(1.9333386744228243),
      .grad = D(0.015510521100386586, -0.055768129604604144, 0.11890296856878599,
          -0.10059231858076413, 0.021946958516195735, -0.10635262644904415,
          0.024521858808859584, 0.009021087715088274, -0.06516709352274566,
          0.13797677344784198, -0.04299640529280552, 0.10823422250114464,
          -0.023536638407197004, -0.06188772331526071, 0.020186544514118537) },
    /* b.4.12: cross_entropy P35, label_smoothing=1.0, mean */
    { .id = "b.4.12", .op = OP_CE, .dtype = TC_FLOAT32, .shape = { 2, { 3, 5 } },
      .x = D(0.5, -1.0, 2.0, 0.1, -0.3, 1.2, 0.3, -0.7, 0.0, 2.5, -0.4, 1.6, 0.2, -2.0, 0.9),
      .tshape = { 2, { 3, 5 } }, .prob = true,
      .target = D(0.1, 0.2, 0.3, 0.4, 0.0, 0.5, 0.0, 0.0, 0.25, 0.25, 0.2, 0.2, 0.2, 0.2, 0.2),
      .reduction = MEAN, .ignore_index = -100, .smoothing = 1.0, .seed = 1.0,
      .lshape = { 0, { 0 } },
      .loss = D(2.198338747024536),
      .grad = D(-0.017822807654738426, -0.05576813220977783, 0.15223632752895355,
          -0.033925652503967285, -0.04471970722079277, -0.006352629046887159,
          -0.042144812643527985, -0.05764558166265488, -0.0485004298388958,
          0.15464343130588531, -0.04299640655517578, 0.1082342267036438, -0.023536643013358116,
          -0.061887726187705994, 0.020186549052596092) },
    /* b.4.13: cross_entropy one-hot P (equals class targets T3), mean */
    { .id = "b.4.13", .op = OP_CE, .dtype = TC_FLOAT32, .shape = { 2, { 3, 5 } },
      .x = D(0.5, -1.0, 2.0, 0.1, -0.3, 1.2, 0.3, -0.7, 0.0, 2.5, -0.4, 1.6, 0.2, -2.0, 0.9),
      .tshape = { 2, { 3, 5 } }, .prob = true,
      .target = D(0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0),
      .reduction = MEAN, .ignore_index = -100, .seed = 1.0, .lshape = { 0, { 0 } },
      .loss = D(2.158338785171509),
      .grad = D(0.0488438606262207, -0.32243481278419495, 0.21890299022197723,
          0.03274101763963699, 0.021946962922811508, -0.27301931381225586,
          0.024521857500076294, 0.009021087549626827, 0.01816624030470848, 0.2213101089000702,
          0.023670263588428497, 0.17490088939666748, 0.04313002526760101, 0.00477894302457571,
          -0.24648012220859528) },
    /* b.4.14: cross_entropy rows not summing to 1 (not checked), mean */
    { .id = "b.4.14", .op = OP_CE, .dtype = TC_FLOAT32, .shape = { 2, { 3, 5 } },
      .x = D(0.5, -1.0, 2.0, 0.1, -0.3, 1.2, 0.3, -0.7, 0.0, 2.5, -0.4, 1.6, 0.2, -2.0, 0.9),
      .tshape = { 2, { 3, 5 } }, .prob = true,
      .target = D(1.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, -0.5, 0.0, 2.0, 0.0, 0.0),
      .reduction = MEAN, .ignore_index = -100, .seed = 1.0, .lshape = { 0, { 0 } },
      .loss = D(2.7028045654296875),
      .grad = D(-0.2356456220149994, -0.3115362524986267, 0.43780598044395447,
          0.06548203527927399, 0.043893925845623016, 0.0, 0.0, 0.0, 0.0, 0.0,
          0.20217207074165344, 0.2623513340950012, -0.6019716262817383, 0.0071684145368635654,
          0.13027982413768768) },
    /* b.4.15: cross_entropy K-dim (2,3,4) logits (seed 11), prob target (seed 12, class dim 1),
       mean */
    { .id = "b.4.15", .op = OP_CE, .dtype = TC_FLOAT32, .shape = { 3, { 2, 3, 4 } },
      .x = D(0.28, -1.87, 1.46, -0.53, -0.28, -0.55, 0.51, 0.54, 0.85, 2.31, -0.3, 0.15, -0.05,
          -0.71, -0.12, 1.19, 1.25, 0.4, 1.44, -2.0, -0.19, 1.21, 1.41, 0.87),
      .tshape = { 3, { 2, 3, 4 } }, .prob = true,
      .target = D(0.3, 0.51, 0.22, 0.12, 0.35, 0.49, 0.55, 0.56, 0.35, 0.0, 0.23, 0.32, 0.36,
          0.37, 0.37, 0.63, 0.26, 0.05, 0.08, 0.2, 0.38, 0.58, 0.54, 0.17),
      .reduction = MEAN, .ignore_index = -100, .seed = 1.0, .lshape = { 0, { 0 } },
      .loss = D(1.5503342151641846),
      .grad = D(-6.89774751663208e-05, -0.061967067420482635, 0.05269061401486397,
          0.006225091405212879, -0.022369058802723885, -0.054575737565755844,
          -0.037737004458904266, -0.008120812475681305, 0.02243804559111595,
          0.11654280871152878, -0.014953617006540298, 0.0018957294523715973,
          -0.02243134379386902, -0.034734904766082764, -0.034324586391448975,
          -0.00802147388458252, 0.05031110346317291, 0.028690921142697334, 0.04675091430544853,
          -0.022087974473834038, -0.027879752218723297, 0.006043985486030579,
          -0.012426337227225304, 0.030109448358416557) },
    /* b.4.16: cross_entropy K-dim (2,3,4), prob target, weight [0.5,1,2], none */
    { .id = "b.4.16", .op = OP_CE, .dtype = TC_FLOAT32, .shape = { 3, { 2, 3, 4 } },
      .x = D(0.28, -1.87, 1.46, -0.53, -0.28, -0.55, 0.51, 0.54, 0.85, 2.31, -0.3, 0.15, -0.05,
          -0.71, -0.12, 1.19, 1.25, 0.4, 1.44, -2.0, -0.19, 1.21, 1.41, 0.87),
      .tshape = { 3, { 2, 3, 4 } }, .prob = true,
      .target = D(0.3, 0.51, 0.22, 0.12, 0.35, 0.49, 0.55, 0.56, 0.35, 0.0, 0.23, 0.32, 0.36,
          0.37, 0.37, 0.63, 0.26, 0.05, 0.08, 0.2, 0.38, 0.58, 0.54, 0.17),
      .nweight = 3,
      .weight = D(0.5, 1.0, 2.0),
      .reduction = NONE, .ignore_index = -100, .seed = 0.5, .lshape = { 2, { 2, 4 } },
      .loss = D(1.2439765930175781, 2.5194907188415527, 1.829276204109192, 1.1997435092926025,
          1.8225018978118896, 1.0438936948776245, 1.3695509433746338, 1.2336924076080322),
      .grad = D(0.10466892272233963, -0.24437372386455536, 0.912761926651001,
          0.07697445899248123, -0.0723714753985405, -0.45022138953208923, -0.40818533301353455,
          0.03187110275030136, -0.03229736536741257, 0.6945951581001282, -0.5045766234397888,
          -0.10884552448987961, 0.0366591177880764, -0.08473731577396393,
          -0.027693212032318115, 0.16878312826156616, 0.5349866151809692, 0.5099110007286072,
          0.2684039771556854, -0.18008174002170563, -0.5716456174850464, -0.4251737594604492,
          -0.2407108098268509, 0.011298632249236107) },
    /* b.4.17: cross_entropy unbatched (5,) input, prob target (5,), reduction=mean */
    { .id = "b.4.17", .op = OP_CE, .dtype = TC_FLOAT32, .shape = { 1, { 5 } },
      .x = D(0.5, -1.0, 2.0, 0.1, -0.3),
      .tshape = { 1, { 5 } }, .prob = true,
      .target = D(0.1, 0.2, 0.3, 0.4, 0.0),
      .reduction = MEAN, .ignore_index = -100, .seed = 1.0, .lshape = { 0, { 0 } },
      .loss = D(1.9305143356323242),
      .grad = D(0.04653158038854599, -0.1673043966293335, 0.35670894384384155,
          -0.3017769455909729, 0.06584088504314423) },
    /* b.4.18: cross_entropy unbatched (5,) input, prob target (5,), reduction=sum */
    { .id = "b.4.18", .op = OP_CE, .dtype = TC_FLOAT32, .shape = { 1, { 5 } },
      .x = D(0.5, -1.0, 2.0, 0.1, -0.3),
      .tshape = { 1, { 5 } }, .prob = true,
      .target = D(0.1, 0.2, 0.3, 0.4, 0.0),
      .reduction = SUM, .ignore_index = -100, .seed = 1.0, .lshape = { 0, { 0 } },
      .loss = D(1.9305143356323242),
      .grad = D(0.04653158038854599, -0.1673043966293335, 0.35670894384384155,
          -0.3017769455909729, 0.06584088504314423) },
    /* b.4.19: cross_entropy unbatched (5,) input, prob target (5,), reduction=none */
    { .id = "b.4.19", .op = OP_CE, .dtype = TC_FLOAT32, .shape = { 1, { 5 } },
      .x = D(0.5, -1.0, 2.0, 0.1, -0.3),
      .tshape = { 1, { 5 } }, .prob = true,
      .target = D(0.1, 0.2, 0.3, 0.4, 0.0),
      .reduction = NONE, .ignore_index = -100, .seed = 0.5, .lshape = { 0, { 0 } },
      .loss = D(1.9305143356323242),
      .grad = D(0.023265790194272995, -0.08365219831466675, 0.17835447192192078,
          -0.15088847279548645, 0.03292044252157211) },
    /* b.4.20: cross_entropy unbatched (5,), prob target, weight W5, label_smoothing 0.1, mean */
    { .id = "b.4.20", .op = OP_CE, .dtype = TC_FLOAT32, .shape = { 1, { 5 } },
      .x = D(0.5, -1.0, 2.0, 0.1, -0.3),
      .tshape = { 1, { 5 } }, .prob = true,
      .target = D(0.1, 0.2, 0.3, 0.4, 0.0),
      .nweight = 5,
      .weight = D(0.2, 1.0, 0.5, 2.0, 1.5),
      .reduction = MEAN, .ignore_index = -100, .smoothing = 0.1, .seed = 1.0,
      .lshape = { 0, { 0 } },
      .loss = D(2.632534980773926),
      .grad = D(0.14753703773021698, -0.1621711701154709, 0.6148121953010559,
          -0.646355926990509, 0.046177901327610016) },
    /* b.4.21: cross_entropy P35 with -inf logit where p = 0, mean */
    { .id = "b.4.21", .op = OP_CE, .dtype = TC_FLOAT32, .shape = { 2, { 3, 5 } },
      .x = D(0.5, -1.0, 2.0, 0.1, -INFINITY, 1.2, 0.3, -0.7, 0.0, 2.5, -0.4, 1.6, 0.2, -2.0,
          0.9),
      .tshape = { 2, { 3, 5 } }, .prob = true,
      .target = D(0.1, 0.2, 0.3, 0.4, 0.0, 0.5, 0.0, 0.0, 0.25, 0.25, 0.2, 0.2, 0.2, 0.2, 0.2),
      .reduction = MEAN, .ignore_index = -100, .seed = 1.0, .lshape = { 0, { 0 } },
      .loss = D(NAN),
      .grad = D(0.01895311288535595, -0.05499998852610588, 0.1343315839767456,
          -0.09828468412160873, 0.0, -0.10635262727737427, 0.024521857500076294,
          0.009021087549626827, -0.06516709923744202, 0.1379767656326294, -0.04299640655517578,
          0.1082342267036438, -0.023536643013358116, -0.061887726187705994,
          0.020186549052596092) },
    /* b.5.1: cross_entropy (N,C,d1)=(2,4,3) (seed 1), target (2,3) (seed 2), reduction=mean */
    { .id = "b.5.1", .op = OP_CE, .dtype = TC_FLOAT32, .shape = { 3, { 2, 4, 3 } },
      .x = D(-0.31, -0.71, -0.73, -0.3, -0.25, -0.36, 0.94, 1.16, 0.09, 0.51, 0.6, 1.29, 1.75,
          -0.41, -0.99, -0.3, -1.93, -0.27, -0.14, 2.57, -0.52, 0.99, 0.29, 1.01),
      .tshape = { 2, { 2, 3 } },
      .target = D(0.0, 3.0, 1.0, 0.0, 2.0, 3.0),
      .reduction = MEAN, .ignore_index = -100, .seed = 1.0, .lshape = { 0, { 0 } },
      .loss = D(1.1038217544555664),
      .grad = D(-0.1452191174030304, 0.013042697682976723, 0.013598160818219185,
          0.021663110703229904, 0.02066059410572052, -0.1469801366329193, 0.07485933601856232,
          0.08462487906217575, 0.030874624848365784, 0.04869667813181877, -0.11832816898822784,
          0.10250735282897949, -0.07129085063934326, 0.007271580398082733,
          0.013838741928339005, 0.012278197333216667, 0.0015903807943686843,
          0.028430772945284843, 0.014408598653972149, -0.02350512146949768,
          0.02214190922677517, 0.044604070484638214, 0.014643166214227676, -0.06441143155097961) },
    /* b.5.2: cross_entropy (N,C,d1)=(2,4,3) (seed 1), target (2,3) (seed 2), reduction=sum */
    { .id = "b.5.2", .op = OP_CE, .dtype = TC_FLOAT32, .shape = { 3, { 2, 4, 3 } },
      .x = D(-0.31, -0.71, -0.73, -0.3, -0.25, -0.36, 0.94, 1.16, 0.09, 0.51, 0.6, 1.29, 1.75,
          -0.41, -0.99, -0.3, -1.93, -0.27, -0.14, 2.57, -0.52, 0.99, 0.29, 1.01),
      .tshape = { 2, { 2, 3 } },
      .target = D(0.0, 3.0, 1.0, 0.0, 2.0, 3.0),
      .reduction = SUM, .ignore_index = -100, .seed = 1.0, .lshape = { 0, { 0 } },
      .loss = D(6.622930526733398),
      .grad = D(-0.8713146448135376, 0.07825618237257004, 0.08158896118402481,
          0.12997865676879883, 0.12396356463432312, -0.8818808197975159, 0.4491559863090515,
          0.5077492594718933, 0.1852477490901947, 0.29218006134033203, -0.7099689841270447,
          0.615044116973877, -0.42774510383605957, 0.0436294823884964, 0.08303245157003403,
          0.0736691802740097, 0.009542284533381462, 0.17058463394641876, 0.08645159006118774,
          -0.14103072881698608, 0.13285145163536072, 0.2676244080066681, 0.08785899728536606,
          -0.3864685893058777) },
    /* b.5.3: cross_entropy (N,C,d1)=(2,4,3) (seed 1), target (2,3) (seed 2), reduction=none */
    { .id = "b.5.3", .op = OP_CE, .dtype = TC_FLOAT32, .shape = { 3, { 2, 4, 3 } },
      .x = D(-0.31, -0.71, -0.73, -0.3, -0.25, -0.36, 0.94, 1.16, 0.09, 0.51, 0.6, 1.29, 1.75,
          -0.41, -0.99, -0.3, -1.93, -0.27, -0.14, 2.57, -0.52, 0.99, 0.29, 1.01),
      .tshape = { 2, { 2, 3 } },
      .target = D(0.0, 3.0, 1.0, 0.0, 2.0, 3.0),
      .reduction = NONE, .ignore_index = -100, .seed = 0.5, .lshape = { 2, { 2, 3 } },
      .loss = D(2.050384998321533, 1.2377674579620361, 2.136061191558838, 0.5581707954406738,
          0.15202213823795319, 0.48852378129959106),
      .grad = D(-0.4356573224067688, 0.07825618237257004, 0.12238344550132751,
          0.06498932838439941, 0.12396356463432312, -1.3228212594985962, 0.22457799315452576,
          0.5077492594718933, 0.27787160873413086, 0.14609003067016602, -0.7099689841270447,
          0.9225661754608154, -0.21387255191802979, 0.0436294823884964, 0.12454867362976074,
          0.03683459013700485, 0.009542284533381462, 0.25587695837020874, 0.04322579503059387,
          -0.14103072881698608, 0.19927717745304108, 0.13381220400333405, 0.08785899728536606,
          -0.5797028541564941) },
    /* b.5.4: cross_entropy (2,4,3), weight [0.1,0.2,0.3,0.4], mean */
    { .id = "b.5.4", .op = OP_CE, .dtype = TC_FLOAT32, .shape = { 3, { 2, 4, 3 } },
      .x = D(-0.31, -0.71, -0.73, -0.3, -0.25, -0.36, 0.94, 1.16, 0.09, 0.51, 0.6, 1.29, 1.75,
          -0.41, -0.99, -0.3, -1.93, -0.27, -0.14, 2.57, -0.52, 0.99, 0.29, 1.01),
      .tshape = { 2, { 2, 3 } },
      .target = D(0.0, 3.0, 1.0, 0.0, 2.0, 3.0),
      .nweight = 4,
      .weight = D(0.1, 0.2, 0.3, 0.4),
      .reduction = MEAN, .ignore_index = -100, .seed = 1.0, .lshape = { 0, { 0 } },
      .loss = D(0.9494606852531433),
      .grad = D(-0.05808764696121216, 0.020868316292762756, 0.010878528468310833,
          0.008665244095027447, 0.03305695205926895, -0.11758411675691605,
          0.029943734407424927, 0.13539980351924896, 0.024699700996279716, 0.01947867125272751,
          -0.18932507932186127, 0.08200588822364807, -0.028516341000795364,
          0.008725897409021854, 0.022141987457871437, 0.004911278840154409,
          0.0019084570230916142, 0.04548923671245575, 0.0057634394615888596,
          -0.028206149116158485, 0.03542705625295639, 0.017841627821326256,
          0.01757180131971836, -0.10305829346179962) },
    /* b.5.5: cross_entropy (2,4,3), two targets -100, weight [0.1,0.2,0.3,0.4], mean */
    { .id = "b.5.5", .op = OP_CE, .dtype = TC_FLOAT32, .shape = { 3, { 2, 4, 3 } },
      .x = D(-0.31, -0.71, -0.73, -0.3, -0.25, -0.36, 0.94, 1.16, 0.09, 0.51, 0.6, 1.29, 1.75,
          -0.41, -0.99, -0.3, -1.93, -0.27, -0.14, 2.57, -0.52, 0.99, 0.29, 1.01),
      .tshape = { 2, { 2, 3 } },
      .target = D(0.0, -100.0, 1.0, 0.0, 2.0, -100.0),
      .nweight = 4,
      .weight = D(0.1, 0.2, 0.3, 0.4),
      .reduction = MEAN, .ignore_index = -100, .seed = 1.0, .lshape = { 0, { 0 } },
      .loss = D(1.04810631275177),
      .grad = D(-0.12447351217269897, 0.0, 0.023311130702495575, 0.018568377941846848, 0.0,
          -0.2519659399986267, 0.0641651377081871, 0.0, 0.05292792618274689,
          0.04174000769853592, 0.0, 0.17572687566280365, -0.06110643967986107,
          0.018698349595069885, 0.0, 0.01052416767925024, 0.004089550580829382, 0.0,
          0.012350226752460003, -0.06044173985719681, 0.0, 0.03823205456137657,
          0.037653855979442596, 0.0) },
    /* b.5.6: cross_entropy (2,4,3), label_smoothing 0.1, mean */
    { .id = "b.5.6", .op = OP_CE, .dtype = TC_FLOAT32, .shape = { 3, { 2, 4, 3 } },
      .x = D(-0.31, -0.71, -0.73, -0.3, -0.25, -0.36, 0.94, 1.16, 0.09, 0.51, 0.6, 1.29, 1.75,
          -0.41, -0.99, -0.3, -1.93, -0.27, -0.14, 2.57, -0.52, 0.99, 0.29, 1.01),
      .tshape = { 2, { 2, 3 } },
      .target = D(0.0, 3.0, 1.0, 0.0, 2.0, 3.0),
      .reduction = MEAN, .ignore_index = -100, .smoothing = 0.1, .seed = 1.0,
      .lshape = { 0, { 0 } },
      .loss = D(1.1749050617218018),
      .grad = D(-0.13271909952163696, 0.008876029402017593, 0.009431491605937481,
          0.017496438696980476, 0.01649392582476139, -0.13448013365268707, 0.07069265097379684,
          0.08045820146799088, 0.026707952842116356, 0.044530004262924194,
          -0.10582815110683441, 0.09834066778421402, -0.05879085138440132,
          0.0031049130484461784, 0.00967207457870245, 0.008111528120934963,
          -0.002576286206021905, 0.024264104664325714, 0.010241929441690445,
          -0.011005116626620293, 0.01797524094581604, 0.04043739289045334,
          0.010476498864591122, -0.05191142484545708) },
    /* b.5.7: cross_entropy (N,C,d1,d2)=(2,3,2,2) (seed 3), target (seed 4), reduction=mean */
    { .id = "b.5.7", .op = OP_CE, .dtype = TC_FLOAT32, .shape = { 4, { 2, 3, 2, 2 } },
      .x = D(-0.22, 0.15, 0.67, -0.51, -1.59, -0.75, 0.65, 0.91, 1.08, 0.34, 0.72, 0.83, 0.51,
          -1.53, -1.9, 0.25, 0.03, 0.24, 0.78, -1.0, 1.19, 0.41, 0.18, -0.15),
      .tshape = { 3, { 2, 2, 2 } },
      .target = D(1.0, 0.0, 1.0, 2.0, 0.0, 2.0, 2.0, 1.0),
      .reduction = MEAN, .ignore_index = -100, .seed = 1.0, .lshape = { 0, { 0 } },
      .loss = D(1.3593499660491943),
      .grad = D(0.025388939306139946, -0.0772138237953186, 0.04123412072658539,
          0.013956868089735508, -0.11854849755764008, 0.01942841149866581, -0.0845823734998703,
          0.05774125084280968, 0.09315955638885498, 0.05778541788458824, 0.04334824159741402,
          -0.07169811427593231, -0.09020684659481049, 0.009038581512868404,
          0.005298953969031572, 0.06387899816036224, 0.02152942307293415, 0.05306418240070343,
          0.07728572934865952, -0.10669836401939392, 0.06867742538452148, -0.06210276484489441,
          -0.0825846940279007, 0.042819369584321976) },
    /* b.5.8: cross_entropy (N,C,d1,d2)=(2,3,2,2) (seed 3), target (seed 4), reduction=sum */
    { .id = "b.5.8", .op = OP_CE, .dtype = TC_FLOAT32, .shape = { 4, { 2, 3, 2, 2 } },
      .x = D(-0.22, 0.15, 0.67, -0.51, -1.59, -0.75, 0.65, 0.91, 1.08, 0.34, 0.72, 0.83, 0.51,
          -1.53, -1.9, 0.25, 0.03, 0.24, 0.78, -1.0, 1.19, 0.41, 0.18, -0.15),
      .tshape = { 3, { 2, 2, 2 } },
      .target = D(1.0, 0.0, 1.0, 2.0, 0.0, 2.0, 2.0, 1.0),
      .reduction = SUM, .ignore_index = -100, .seed = 1.0, .lshape = { 0, { 0 } },
      .loss = D(10.874799728393555),
      .grad = D(0.20311151444911957, -0.6177105903625488, 0.3298729658126831,
          0.11165494471788406, -0.9483879804611206, 0.15542729198932648, -0.6766589879989624,
          0.4619300067424774, 0.7452764511108398, 0.46228334307670593, 0.34678593277931213,
          -0.5735849142074585, -0.7216547727584839, 0.07230865210294724, 0.04239163175225258,
          0.511031985282898, 0.1722353845834732, 0.42451345920562744, 0.6182858347892761,
          -0.8535869121551514, 0.5494194030761719, -0.4968221187591553, -0.6606775522232056,
          0.3425549566745758) },
    /* b.5.9: cross_entropy (N,C,d1,d2)=(2,3,2,2) (seed 3), target (seed 4), reduction=none */
    { .id = "b.5.9", .op = OP_CE, .dtype = TC_FLOAT32, .shape = { 4, { 2, 3, 2, 2 } },
      .x = D(-0.22, 0.15, 0.67, -0.51, -1.59, -0.75, 0.65, 0.91, 1.08, 0.34, 0.72, 0.83, 0.51,
          -1.53, -1.9, 0.25, 0.03, 0.24, 0.78, -1.0, 1.19, 0.41, 0.18, -0.15),
      .tshape = { 3, { 2, 2, 2 } },
      .target = D(1.0, 0.0, 1.0, 2.0, 0.0, 2.0, 2.0, 1.0),
      .reduction = NONE, .ignore_index = -100, .seed = 0.5, .lshape = { 3, { 2, 2, 2 } },
      .loss = D(2.9640002250671387, 0.961577296257019, 1.1290476322174072, 0.8523419499397278,
          1.278893232345581, 0.6868115663528442, 1.0808043479919434, 1.9213230609893799),
      .grad = D(0.10155575722455978, -0.6177105903625488, 0.49480944871902466,
          0.05582747235894203, -0.4741939902305603, 0.15542729198932648, -1.0149884223937988,
          0.2309650033712387, 0.3726382255554199, 0.46228334307670593, 0.5201789140701294,
          -0.28679245710372925, -0.7216547727584839, 0.10846297442913055, 0.02119581587612629,
          0.511031985282898, 0.1722353845834732, 0.6367701888084412, 0.30914291739463806,
          -0.8535869121551514, 0.5494194030761719, -0.7452331781387329, -0.3303387761116028,
          0.3425549566745758) },
    /* b.5.10: cross_entropy (2,3,2,2), one -100, weight [2,1,0.5], mean */
    { .id = "b.5.10", .op = OP_CE, .dtype = TC_FLOAT32, .shape = { 4, { 2, 3, 2, 2 } },
      .x = D(-0.22, 0.15, 0.67, -0.51, -1.59, -0.75, 0.65, 0.91, 1.08, 0.34, 0.72, 0.83, 0.51,
          -1.53, -1.9, 0.25, 0.03, 0.24, 0.78, -1.0, 1.19, 0.41, 0.18, -0.15),
      .tshape = { 3, { 2, 2, 2 } },
      .target = D(1.0, 0.0, 1.0, 2.0, 0.0, -100.0, 2.0, 1.0),
      .nweight = 3,
      .weight = D(2.0, 1.0, 0.5),
      .reduction = MEAN, .ignore_index = -100, .seed = 1.0, .lshape = { 0, { 0 } },
      .loss = D(1.4327356815338135),
      .grad = D(0.025388939306139946, -0.1544276475906372, 0.04123412072658539,
          0.006978434044867754, -0.11854849755764008, 0.03885682299733162, -0.0845823734998703,
          0.02887062542140484, 0.09315955638885498, 0.11557083576917648, 0.04334824159741402,
          -0.035849057137966156, -0.18041369318962097, 0.0, 0.002649476984515786,
          0.06387899816036224, 0.0430588461458683, 0.0, 0.03864286467432976,
          -0.10669836401939392, 0.13735485076904297, 0.0, -0.04129234701395035,
          0.042819369584321976) },
    /* b.5.11: cross_entropy (2,3,2,2), weight [2,1,0.5], label_smoothing 0.2, ignore_index=0,
       none */
    { .id = "b.5.11", .op = OP_CE, .dtype = TC_FLOAT32, .shape = { 4, { 2, 3, 2, 2 } },
      .x = D(-0.22, 0.15, 0.67, -0.51, -1.59, -0.75, 0.65, 0.91, 1.08, 0.34, 0.72, 0.83, 0.51,
          -1.53, -1.9, 0.25, 0.03, 0.24, 0.78, -1.0, 1.19, 0.41, 0.18, -0.15),
      .tshape = { 3, { 2, 2, 2 } },
      .target = D(1.0, 0.0, 1.0, 2.0, 0.0, 2.0, 2.0, 1.0),
      .nweight = 3,
      .weight = D(2.0, 1.0, 0.5),
      .reduction = NONE, .ignore_index = 0, .smoothing = 0.2, .seed = 0.5,
      .lshape = { 3, { 2, 2, 2 } },
      .loss = D(2.7911336421966553, 0.0, 1.1616826057434082, 0.713149905204773, 0.0,
          0.7049806714057922, 0.9218428134918213, 1.7903672456741333),
      .grad = D(0.03827427700161934, 0.0, 0.31130310893058777, -0.03130927309393883,
          -0.4066671133041382, 0.0, -0.7988214492797852, 0.11294449865818024,
          0.36839282512664795, 0.0, 0.48751822113990784, -0.08163521438837051, 0.0,
          -0.13130679726600647, -0.053242653608322144, 0.3947330415248871, 0.0,
          0.3032878041267395, 0.1624571830034256, -0.7153730988502502, 0.0,
          -0.17198102176189423, -0.10921455174684525, 0.32064011693000793) },
    /* b.5.12: cross_entropy (N,C,d1,d2,d3)=(2,3,2,1,2) (seed 5), target (seed 6),
       reduction=mean */
    { .id = "b.5.12", .op = OP_CE, .dtype = TC_FLOAT32, .shape = { 5, { 2, 3, 2, 1, 2 } },
      .x = D(0.82, -0.74, -0.59, -0.4, 0.25, 0.38, 1.01, -0.76, -0.36, -0.71, 0.61, 0.5, -0.82,
          -0.77, -0.54, -2.15, 1.92, 0.25, -0.13, 0.17, 0.95, -1.88, 1.65, -0.83),
      .tshape = { 4, { 2, 2, 1, 2 } },
      .target = D(2.0, 0.0, 0.0, 2.0, 1.0, 0.0, 2.0, 0.0),
      .reduction = MEAN, .ignore_index = -100, .seed = 1.0, .lshape = { 0, { 0 } },
      .loss = D(1.364564061164856),
      .grad = D(0.06674482673406601, -0.10046762973070145, -0.11152022331953049,
          0.030067741870880127, 0.037745896726846695, 0.07518813759088516, 0.06676577776670456,
          0.020977551117539406, -0.1044907346367836, 0.025279492139816284, 0.04475444555282593,
          -0.051045291125774384, 0.005590880289673805, -0.09453266113996506,
          0.010924633592367172, -0.1166214793920517, -0.0384141206741333, 0.08449187129735947,
          0.016461433842778206, 0.0852571353316307, 0.032823242247104645, 0.010040785185992718,
          -0.027386069297790527, 0.03136434778571129) },
    /* b.5.13: cross_entropy (N,C,d1,d2,d3)=(2,3,2,1,2) (seed 5), target (seed 6), reduction=sum */
    { .id = "b.5.13", .op = OP_CE, .dtype = TC_FLOAT32, .shape = { 5, { 2, 3, 2, 1, 2 } },
      .x = D(0.82, -0.74, -0.59, -0.4, 0.25, 0.38, 1.01, -0.76, -0.36, -0.71, 0.61, 0.5, -0.82,
          -0.77, -0.54, -2.15, 1.92, 0.25, -0.13, 0.17, 0.95, -1.88, 1.65, -0.83),
      .tshape = { 4, { 2, 2, 1, 2 } },
      .target = D(2.0, 0.0, 0.0, 2.0, 1.0, 0.0, 2.0, 0.0),
      .reduction = SUM, .ignore_index = -100, .seed = 1.0, .lshape = { 0, { 0 } },
      .loss = D(10.916512489318848),
      .grad = D(0.5339586138725281, -0.8037410378456116, -0.8921617865562439,
          0.24054193496704102, 0.30196717381477356, 0.6015051007270813, 0.5341262221336365,
          0.16782040894031525, -0.8359258770942688, 0.20223593711853027, 0.3580355644226074,
          -0.40836232900619507, 0.04472704231739044, -0.7562612891197205, 0.08739706873893738,
          -0.9329718351364136, -0.3073129653930664, 0.6759349703788757, 0.13169147074222565,
          0.6820570826530457, 0.26258593797683716, 0.08032628148794174, -0.21908855438232422,
          0.2509147822856903) },
    /* b.5.14: cross_entropy (N,C,d1,d2,d3)=(2,3,2,1,2) (seed 5), target (seed 6),
       reduction=none */
    { .id = "b.5.14", .op = OP_CE, .dtype = TC_FLOAT32, .shape = { 5, { 2, 3, 2, 1, 2 } },
      .x = D(0.82, -0.74, -0.59, -0.4, 0.25, 0.38, 1.01, -0.76, -0.36, -0.71, 0.61, 0.5, -0.82,
          -0.77, -0.54, -2.15, 1.92, 0.25, -0.13, 0.17, 0.95, -1.88, 1.65, -0.83),
      .tshape = { 4, { 2, 2, 1, 2 } },
      .target = D(2.0, 0.0, 0.0, 2.0, 1.0, 0.0, 2.0, 0.0),
      .reduction = NONE, .ignore_index = -100, .seed = 0.5, .lshape = { 4, { 2, 2, 1, 2 } },
      .loss = D(1.8074369430541992, 1.6283202171325684, 2.2271230220794678, 0.5248608589172363,
          0.36717694997787476, 1.4116584062576294, 0.24729348719120026, 2.7026419639587402),
      .grad = D(0.26697930693626404, -0.8037410378456116, -1.3382426500320435,
          0.12027096748352051, 0.15098358690738678, 0.6015051007270813, 0.8011893033981323,
          0.08391020447015762, -0.4179629385471344, 0.20223593711853027, 0.5370533466339111,
          -0.20418116450309753, 0.04472704231739044, -1.1343919038772583, 0.04369853436946869,
          -0.9329718351364136, -0.3073129653930664, 1.0139024257659912, 0.06584573537111282,
          0.6820570826530457, 0.26258593797683716, 0.12048941850662231, -0.10954427719116211,
          0.2509147822856903) },
    /* b.5.15: cross_entropy (2,3,2,1,2), weight [2,1,0.5], mean */
    { .id = "b.5.15", .op = OP_CE, .dtype = TC_FLOAT32, .shape = { 5, { 2, 3, 2, 1, 2 } },
      .x = D(0.82, -0.74, -0.59, -0.4, 0.25, 0.38, 1.01, -0.76, -0.36, -0.71, 0.61, 0.5, -0.82,
          -0.77, -0.54, -2.15, 1.92, 0.25, -0.13, 0.17, 0.95, -1.88, 1.65, -0.83),
      .tshape = { 4, { 2, 2, 1, 2 } },
      .target = D(2.0, 0.0, 0.0, 2.0, 1.0, 0.0, 2.0, 0.0),
      .nweight = 3,
      .weight = D(2.0, 1.0, 0.5),
      .reduction = MEAN, .ignore_index = -100, .seed = 1.0, .lshape = { 0, { 0 } },
      .loss = D(1.6758533716201782),
      .grad = D(0.025426601991057396, -0.15309353172779083, -0.16993558406829834,
          0.011454378254711628, 0.014379389584064484, 0.11457240581512451, 0.1017383262515068,
          0.007991448044776917, -0.03980599343776703, 0.03852113336324692, 0.06819725036621094,
          -0.01944582536816597, 0.004259718582034111, -0.1440497636795044,
          0.004161765333265066, -0.1777089238166809, -0.029267901554703712, 0.1287495195865631,
          0.006271022371947765, 0.12991563975811005, 0.02500818483531475, 0.015300244092941284,
          -0.010432788170874119, 0.04779329150915146) },
    /* b.5.16: cross_entropy (2,3,2,1,2), float64, label_smoothing 0.1, mean */
    { .id = "b.5.16", .op = OP_CE, .dtype = TC_FLOAT64, .shape = { 5, { 2, 3, 2, 1, 2 } },
      .x = D(0.82, -0.74, -0.59, -0.4, 0.25, 0.38, 1.01, -0.76, -0.36, -0.71, 0.61, 0.5, -0.82,
          -0.77, -0.54, -2.15, 1.92, 0.25, -0.13, 0.17, 0.95, -1.88, 1.65, -0.83),
      .tshape = { 4, { 2, 2, 1, 2 } },
      .target = D(2.0, 0.0, 0.0, 2.0, 1.0, 0.0, 2.0, 0.0),
      .reduction = MEAN, .ignore_index = -100, .smoothing = 0.1, .seed = 1.0,
      .lshape = { 0, { 0 } },
      .loss = D(1.3668556548199788),
      .grad = D(0.06257816523570896, -0.09213429651090857, -0.10318688808004609,
          0.02590107400061654, 0.03357923367585117, 0.07102147112194836, 0.06259911374653201,
          0.01681088417534001, -0.09615739891156014, 0.021112825388960223, 0.04058777433351406,
          -0.04271195817595655, 0.0014242136966729413, -0.08619932488177878,
          0.006757967351063363, -0.10828814274985615, -0.03008078580420659, 0.0803252060430951,
          0.012294766167097834, 0.08109046387644295, 0.028656572107533647,
          0.0058741188386836835, -0.01905273351816121, 0.027197678873413206) },
    /* b.5.17: cross_entropy (N,C,d1)=(1,3,0) empty spatial, mean */
    { .id = "b.5.17", .op = OP_CE, .dtype = TC_FLOAT32, .shape = { 3, { 1, 3, 0 } },
      .x = NULL,
      .tshape = { 2, { 1, 0 } },
      .target = NULL,
      .reduction = MEAN, .ignore_index = -100, .seed = 1.0, .lshape = { 0, { 0 } },
      .loss = D(NAN),
      .grad = NULL },
    /* b.5.18: cross_entropy (N,C,d1)=(1,3,0) empty spatial, sum */
    { .id = "b.5.18", .op = OP_CE, .dtype = TC_FLOAT32, .shape = { 3, { 1, 3, 0 } },
      .x = NULL,
      .tshape = { 2, { 1, 0 } },
      .target = NULL,
      .reduction = SUM, .ignore_index = -100, .seed = 1.0, .lshape = { 0, { 0 } },
      .loss = D(0.0),
      .grad = NULL },
    /* b.6.1: cross_entropy (5,), target 2, reduction=mean */
    { .id = "b.6.1", .op = OP_CE, .dtype = TC_FLOAT32, .shape = { 1, { 5 } },
      .x = D(0.5, -1.0, 2.0, 0.1, -0.3),
      .tshape = { 0, { 0 } },
      .target = D(2.0),
      .reduction = MEAN, .ignore_index = -100, .seed = 1.0, .lshape = { 0, { 0 } },
      .loss = D(0.42051440477371216),
      .grad = D(0.1465315818786621, 0.03269561380147934, -0.3432910442352295,
          0.09822304546833038, 0.06584088504314423) },
    /* b.6.2: cross_entropy (5,), target 2, reduction=sum */
    { .id = "b.6.2", .op = OP_CE, .dtype = TC_FLOAT32, .shape = { 1, { 5 } },
      .x = D(0.5, -1.0, 2.0, 0.1, -0.3),
      .tshape = { 0, { 0 } },
      .target = D(2.0),
      .reduction = SUM, .ignore_index = -100, .seed = 1.0, .lshape = { 0, { 0 } },
      .loss = D(0.42051440477371216),
      .grad = D(0.1465315818786621, 0.03269561380147934, -0.3432910442352295,
          0.09822304546833038, 0.06584088504314423) },
    /* b.6.3: cross_entropy (5,), target 2, reduction=none */
    { .id = "b.6.3", .op = OP_CE, .dtype = TC_FLOAT32, .shape = { 1, { 5 } },
      .x = D(0.5, -1.0, 2.0, 0.1, -0.3),
      .tshape = { 0, { 0 } },
      .target = D(2.0),
      .reduction = NONE, .ignore_index = -100, .seed = 0.5, .lshape = { 0, { 0 } },
      .loss = D(0.42051440477371216),
      .grad = D(0.07326579093933105, 0.01634780690073967, -0.17164552211761475,
          0.04911152273416519, 0.03292044252157211) },
    /* b.6.4: cross_entropy (5,), target 2, weight W5, mean */
    { .id = "b.6.4", .op = OP_CE, .dtype = TC_FLOAT32, .shape = { 1, { 5 } },
      .x = D(0.5, -1.0, 2.0, 0.1, -0.3),
      .tshape = { 0, { 0 } },
      .target = D(2.0),
      .nweight = 5,
      .weight = D(0.2, 1.0, 0.5, 2.0, 1.5),
      .reduction = MEAN, .ignore_index = -100, .seed = 1.0, .lshape = { 0, { 0 } },
      .loss = D(0.42051440477371216),
      .grad = D(0.1465315818786621, 0.03269561380147934, -0.3432910442352295,
          0.09822304546833038, 0.06584088504314423) },
    /* b.6.5: cross_entropy (5,), target 2, weight W5, sum */
    { .id = "b.6.5", .op = OP_CE, .dtype = TC_FLOAT32, .shape = { 1, { 5 } },
      .x = D(0.5, -1.0, 2.0, 0.1, -0.3),
      .tshape = { 0, { 0 } },
      .target = D(2.0),
      .nweight = 5,
      .weight = D(0.2, 1.0, 0.5, 2.0, 1.5),
      .reduction = SUM, .ignore_index = -100, .seed = 1.0, .lshape = { 0, { 0 } },
      .loss = D(0.21025720238685608),
      .grad = D(0.07326579093933105, 0.01634780690073967, -0.17164552211761475,
          0.04911152273416519, 0.03292044252157211) },
    /* b.6.6: cross_entropy (5,), target -100 (ignored), mean */
    { .id = "b.6.6", .op = OP_CE, .dtype = TC_FLOAT32, .shape = { 1, { 5 } },
      .x = D(0.5, -1.0, 2.0, 0.1, -0.3),
      .tshape = { 0, { 0 } },
      .target = D(-100.0),
      .reduction = MEAN, .ignore_index = -100, .seed = 1.0, .lshape = { 0, { 0 } },
      .loss = D(NAN),
      .grad = D(0.0, 0.0, 0.0, 0.0, 0.0) },
    /* b.6.7: cross_entropy (5,), target -100 (ignored), none */
    { .id = "b.6.7", .op = OP_CE, .dtype = TC_FLOAT32, .shape = { 1, { 5 } },
      .x = D(0.5, -1.0, 2.0, 0.1, -0.3),
      .tshape = { 0, { 0 } },
      .target = D(-100.0),
      .reduction = NONE, .ignore_index = -100, .seed = 0.5, .lshape = { 0, { 0 } },
      .loss = D(0.0),
      .grad = D(0.0, 0.0, 0.0, 0.0, 0.0) },
    /* b.6.8: cross_entropy (5,), target 2, label_smoothing 0.1, weight W5, mean */
    { .id = "b.6.8", .op = OP_CE, .dtype = TC_FLOAT32, .shape = { 1, { 5 } },
      .x = D(0.5, -1.0, 2.0, 0.1, -0.3),
      .tshape = { 0, { 0 } },
      .target = D(2.0),
      .nweight = 5,
      .weight = D(0.2, 1.0, 0.5, 2.0, 1.5),
      .reduction = MEAN, .ignore_index = -100, .smoothing = 0.1, .seed = 1.0,
      .lshape = { 0, { 0 } },
      .loss = D(0.8879299163818359),
      .grad = D(0.15435698628425598, -0.003773261560127139, -0.19236648082733154,
          0.028831128031015396, 0.01295169722288847) },
    /* b.6.9: cross_entropy (5,), target 2, float64, none */
    { .id = "b.6.9", .op = OP_CE, .dtype = TC_FLOAT64, .shape = { 1, { 5 } },
      .x = D(0.5, -1.0, 2.0, 0.1, -0.3),
      .tshape = { 0, { 0 } },
      .target = D(2.0),
      .reduction = NONE, .ignore_index = -100, .seed = 0.5, .lshape = { 0, { 0 } },
      .loss = D(0.42051442457617716),
      .grad = D(0.07326578165057987, 0.01634780559309378, -0.17164554714682106,
          0.0491115221288538, 0.0329204377742936) },
    /* b.7.1: cross_entropy (0,5), target (0,), reduction=mean */
    { .id = "b.7.1", .op = OP_CE, .dtype = TC_FLOAT32, .shape = { 2, { 0, 5 } },
      .x = NULL,
      .tshape = { 1, { 0 } },
      .target = NULL,
      .reduction = MEAN, .ignore_index = -100, .seed = 1.0, .lshape = { 0, { 0 } },
      .loss = D(NAN),
      .grad = NULL },
    /* b.7.2: cross_entropy (0,5), target (0,), reduction=sum */
    { .id = "b.7.2", .op = OP_CE, .dtype = TC_FLOAT32, .shape = { 2, { 0, 5 } },
      .x = NULL,
      .tshape = { 1, { 0 } },
      .target = NULL,
      .reduction = SUM, .ignore_index = -100, .seed = 1.0, .lshape = { 0, { 0 } },
      .loss = D(0.0),
      .grad = NULL },
    /* b.7.3: cross_entropy (0,5), target (0,), reduction=none */
    { .id = "b.7.3", .op = OP_CE, .dtype = TC_FLOAT32, .shape = { 2, { 0, 5 } },
      .x = NULL,
      .tshape = { 1, { 0 } },
      .target = NULL,
      .reduction = NONE, .ignore_index = -100, .seed = 0.5, .lshape = { 1, { 0 } },
      .loss = NULL,
      .grad = NULL },
    /* b.7.4: cross_entropy (0,5), weight W5, mean */
    { .id = "b.7.4", .op = OP_CE, .dtype = TC_FLOAT32, .shape = { 2, { 0, 5 } },
      .x = NULL,
      .tshape = { 1, { 0 } },
      .target = NULL,
      .nweight = 5,
      .weight = D(0.2, 1.0, 0.5, 2.0, 1.5),
      .reduction = MEAN, .ignore_index = -100, .seed = 1.0, .lshape = { 0, { 0 } },
      .loss = D(NAN),
      .grad = NULL },
    /* b.7.5: cross_entropy (0,5), label_smoothing 0.1, mean */
    { .id = "b.7.5", .op = OP_CE, .dtype = TC_FLOAT32, .shape = { 2, { 0, 5 } },
      .x = NULL,
      .tshape = { 1, { 0 } },
      .target = NULL,
      .reduction = MEAN, .ignore_index = -100, .smoothing = 0.1, .seed = 1.0,
      .lshape = { 0, { 0 } },
      .loss = D(NAN),
      .grad = NULL },
    /* b.7.6: cross_entropy (0,5), label_smoothing 0.1, sum */
    { .id = "b.7.6", .op = OP_CE, .dtype = TC_FLOAT32, .shape = { 2, { 0, 5 } },
      .x = NULL,
      .tshape = { 1, { 0 } },
      .target = NULL,
      .reduction = SUM, .ignore_index = -100, .smoothing = 0.1, .seed = 1.0, .lshape = { 0, { 0 } },
      .loss = D(0.0),
      .grad = NULL },
    /* b.7.7: cross_entropy (0,5), prob target (0,5), reduction=mean */
    { .id = "b.7.7", .op = OP_CE, .dtype = TC_FLOAT32, .shape = { 2, { 0, 5 } },
      .x = NULL,
      .tshape = { 2, { 0, 5 } }, .prob = true,
      .target = NULL,
      .reduction = MEAN, .ignore_index = -100, .seed = 1.0, .lshape = { 0, { 0 } },
      .loss = D(NAN),
      .grad = NULL },
    /* b.7.8: cross_entropy (0,5), prob target (0,5), reduction=sum */
    { .id = "b.7.8", .op = OP_CE, .dtype = TC_FLOAT32, .shape = { 2, { 0, 5 } },
      .x = NULL,
      .tshape = { 2, { 0, 5 } }, .prob = true,
      .target = NULL,
      .reduction = SUM, .ignore_index = -100, .seed = 1.0, .lshape = { 0, { 0 } },
      .loss = D(-0.0),
      .grad = NULL },
    /* b.7.9: cross_entropy (0,5), prob target (0,5), reduction=none */
    { .id = "b.7.9", .op = OP_CE, .dtype = TC_FLOAT32, .shape = { 2, { 0, 5 } },
      .x = NULL,
      .tshape = { 2, { 0, 5 } }, .prob = true,
      .target = NULL,
      .reduction = NONE, .ignore_index = -100, .seed = 0.5, .lshape = { 1, { 0 } },
      .loss = NULL,
      .grad = NULL },
    /* b.8.1: cross_entropy -inf at non-target classes, mean */
    { .id = "b.8.1", .op = OP_CE, .dtype = TC_FLOAT32, .shape = { 2, { 2, 3 } },
      .x = D(-INFINITY, 0.0, 1.0, 2.0, -INFINITY, 0.5),
      .tshape = { 1, { 2 } },
      .target = D(2.0, 0.0),
      .reduction = MEAN, .ignore_index = -100, .seed = 1.0, .lshape = { 0, { 0 } },
      .loss = D(0.2573375105857849),
      .grad = D(0.0, 0.13447071611881256, -0.13447070121765137, -0.09121277928352356, 0.0,
          0.09121274948120117) },
    /* b.8.2: cross_entropy -inf at the target class (row 0), mean */
    { .id = "b.8.2", .op = OP_CE, .dtype = TC_FLOAT32, .shape = { 2, { 2, 3 } },
      .x = D(-INFINITY, 0.0, 1.0, 2.0, -INFINITY, 0.5),
      .tshape = { 1, { 2 } },
      .target = D(0.0, 0.0),
      .reduction = MEAN, .ignore_index = -100, .seed = 1.0, .lshape = { 0, { 0 } },
      .loss = D(INFINITY),
      .grad = D(-0.5, 0.13447071611881256, 0.36552929878234863, -0.09121277928352356, 0.0,
          0.09121274948120117) },
    /* b.8.3: cross_entropy -inf at the target class (row 0), none */
    { .id = "b.8.3", .op = OP_CE, .dtype = TC_FLOAT32, .shape = { 2, { 2, 3 } },
      .x = D(-INFINITY, 0.0, 1.0, 2.0, -INFINITY, 0.5),
      .tshape = { 1, { 2 } },
      .target = D(0.0, 0.0),
      .reduction = NONE, .ignore_index = -100, .seed = 0.5, .lshape = { 1, { 2 } },
      .loss = D(INFINITY, 0.2014133334159851),
      .grad = D(-0.5, 0.13447071611881256, 0.36552929878234863, -0.18242555856704712, 0.0,
          0.18242549896240234) },
    /* b.8.4: cross_entropy -inf at the target class, but that row ignored, mean */
    { .id = "b.8.4", .op = OP_CE, .dtype = TC_FLOAT32, .shape = { 2, { 2, 3 } },
      .x = D(-INFINITY, 0.0, 1.0, 2.0, -INFINITY, 0.5),
      .tshape = { 1, { 2 } },
      .target = D(-100.0, 0.0),
      .reduction = MEAN, .ignore_index = -100, .seed = 1.0, .lshape = { 0, { 0 } },
      .loss = D(0.2014133334159851),
      .grad = D(0.0, 0.0, 0.0, -0.18242555856704712, 0.0, 0.18242549896240234) },
    /* b.8.5: cross_entropy -inf logits, label_smoothing 0.1, mean */
    { .id = "b.8.5", .op = OP_CE, .dtype = TC_FLOAT32, .shape = { 2, { 2, 3 } },
      .x = D(-INFINITY, 0.0, 1.0, 2.0, -INFINITY, 0.5),
      .tshape = { 1, { 2 } },
      .target = D(2.0, 0.0),
      .reduction = MEAN, .ignore_index = -100, .smoothing = 0.1, .seed = 1.0,
      .lshape = { 0, { 0 } },
      .loss = D(INFINITY),
      .grad = D(-0.01666666753590107, 0.11780405044555664, -0.10113736987113953,
          -0.05787944793701172, -0.01666666753590107, 0.07454608380794525) },
    /* b.8.6: cross_entropy -inf logits, label_smoothing 0.1, none */
    { .id = "b.8.6", .op = OP_CE, .dtype = TC_FLOAT32, .shape = { 2, { 2, 3 } },
      .x = D(-INFINITY, 0.0, 1.0, 2.0, -INFINITY, 0.5),
      .tshape = { 1, { 2 } },
      .target = D(2.0, 0.0),
      .reduction = NONE, .ignore_index = -100, .smoothing = 0.1, .seed = 0.5,
      .lshape = { 1, { 2 } },
      .loss = D(INFINITY, INFINITY),
      .grad = D(-0.01666666753590107, 0.11780405044555664, -0.10113736987113953,
          -0.11575889587402344, -0.03333333507180214, 0.1490921676158905) },
    /* b.8.7: cross_entropy a row of all -inf, mean */
    { .id = "b.8.7", .op = OP_CE, .dtype = TC_FLOAT32, .shape = { 2, { 2, 3 } },
      .x = D(-INFINITY, -INFINITY, -INFINITY, 1.0, 2.0, 3.0),
      .tshape = { 1, { 2 } },
      .target = D(1.0, 2.0),
      .reduction = MEAN, .ignore_index = -100, .seed = 1.0, .lshape = { 0, { 0 } },
      .loss = D(NAN),
      .grad = D(NAN, NAN, NAN, 0.04501529037952423, 0.12236424535512924, -0.1673794984817505) },
    /* b.8.8: cross_entropy +inf logit, mean */
    { .id = "b.8.8", .op = OP_CE, .dtype = TC_FLOAT32, .shape = { 2, { 2, 3 } },
      .x = D(INFINITY, 0.0, 1.0, 1.0, 2.0, 3.0),
      .tshape = { 1, { 2 } },
      .target = D(1.0, 2.0),
      .reduction = MEAN, .ignore_index = -100, .seed = 1.0, .lshape = { 0, { 0 } },
      .loss = D(NAN),
      .grad = D(NAN, NAN, NAN, 0.04501529037952423, 0.12236424535512924, -0.1673794984817505) },
    /* b.8.9: cross_entropy NaN logit, none */
    { .id = "b.8.9", .op = OP_CE, .dtype = TC_FLOAT32, .shape = { 2, { 2, 3 } },
      .x = D(NAN, 0.0, 1.0, 1.0, 2.0, 3.0),
      .tshape = { 1, { 2 } },
      .target = D(1.0, 2.0),
      .reduction = NONE, .ignore_index = -100, .seed = 0.5, .lshape = { 1, { 2 } },
      .loss = D(NAN, 0.40760594606399536),
      .grad = D(NAN, NAN, NAN, 0.09003058075904846, 0.24472849071025848, -0.334758996963501) },
    /* b.8.10: cross_entropy +-1000, targets [0, 1], mean */
    { .id = "b.8.10", .op = OP_CE, .dtype = TC_FLOAT32, .shape = { 2, { 2, 3 } },
      .x = D(1000.0, 0.0, -1000.0, 0.0, 1000.0, 1000.0),
      .tshape = { 1, { 2 } },
      .target = D(0.0, 1.0),
      .reduction = MEAN, .ignore_index = -100, .seed = 1.0, .lshape = { 0, { 0 } },
      .loss = D(0.3465735912322998),
      .grad = D(0.0, 0.0, 0.0, 0.0, -0.25, 0.25) },
    /* b.8.11: cross_entropy +-1000, targets [2, 0], none */
    { .id = "b.8.11", .op = OP_CE, .dtype = TC_FLOAT32, .shape = { 2, { 2, 3 } },
      .x = D(1000.0, 0.0, -1000.0, 0.0, 1000.0, 1000.0),
      .tshape = { 1, { 2 } },
      .target = D(2.0, 0.0),
      .reduction = NONE, .ignore_index = -100, .seed = 0.5, .lshape = { 1, { 2 } },
      .loss = D(2000.0, 1000.6931762695312),
      .grad = D(0.5, 0.0, -0.5, -1.0, 0.5, 0.5) },
    /* b.8.12: cross_entropy +-1000, float64, targets [2, 0], sum */
    { .id = "b.8.12", .op = OP_CE, .dtype = TC_FLOAT64, .shape = { 2, { 2, 3 } },
      .x = D(1000.0, 0.0, -1000.0, 0.0, 1000.0, 1000.0),
      .tshape = { 1, { 2 } },
      .target = D(2.0, 0.0),
      .reduction = SUM, .ignore_index = -100, .seed = 1.0, .lshape = { 0, { 0 } },
      .loss = D(3000.69314718056),
      .grad = D(1.0, 0.0, -1.0, -1.0, 0.5, 0.5) },
    /* b.8.13: cross_entropy +-1000, label_smoothing 0.1, mean */
    { .id = "b.8.13", .op = OP_CE, .dtype = TC_FLOAT32, .shape = { 2, { 2, 3 } },
      .x = D(1000.0, 0.0, -1000.0, 0.0, 1000.0, 1000.0),
      .tshape = { 1, { 2 } },
      .target = D(0.0, 1.0),
      .reduction = MEAN, .ignore_index = -100, .smoothing = 0.1, .seed = 1.0,
      .lshape = { 0, { 0 } },
      .loss = D(67.01324462890625),
      .grad = D(0.03333333134651184, -0.01666666753590107, -0.01666666753590107,
          -0.01666666753590107, -0.21666666865348816, 0.23333333432674408) },
    /* b.8.14: cross_entropy 89 (float32), mean */
    { .id = "b.8.14", .op = OP_CE, .dtype = TC_FLOAT32, .shape = { 2, { 2, 3 } },
      .x = D(89.0, 0.0, 1.0, 90.0, 89.0, 1.0),
      .tshape = { 1, { 2 } },
      .target = D(1.0, 0.0),
      .reduction = MEAN, .ignore_index = -100, .seed = 1.0, .lshape = { 0, { 0 } },
      .loss = D(44.65663146972656),
      .grad = D(0.5, -0.5, 3.027300742597976e-39, -0.13447070121765137, 0.13447071611881256,
          8.141656181604333e-40) },
    /* b.9.1: nll_loss X35 as input, reduction=mean */
    { .id = "b.9.1", .op = OP_NLL, .dtype = TC_FLOAT32, .shape = { 2, { 3, 5 } },
      .x = D(0.5, -1.0, 2.0, 0.1, -0.3, 1.2, 0.3, -0.7, 0.0, 2.5, -0.4, 1.6, 0.2, -2.0, 0.9),
      .tshape = { 1, { 3 } },
      .target = D(1.0, 0.0, 4.0),
      .reduction = MEAN, .ignore_index = -100, .seed = 1.0, .lshape = { 0, { 0 } },
      .loss = D(-0.36666664481163025),
      .grad = D(0.0, -0.3333333432674408, 0.0, 0.0, 0.0, -0.3333333432674408, 0.0, 0.0, 0.0,
          0.0, 0.0, 0.0, 0.0, 0.0, -0.3333333432674408) },
    /* b.9.2: nll_loss X35 as input, reduction=sum */
    { .id = "b.9.2", .op = OP_NLL, .dtype = TC_FLOAT32, .shape = { 2, { 3, 5 } },
      .x = D(0.5, -1.0, 2.0, 0.1, -0.3, 1.2, 0.3, -0.7, 0.0, 2.5, -0.4, 1.6, 0.2, -2.0, 0.9),
      .tshape = { 1, { 3 } },
      .target = D(1.0, 0.0, 4.0),
      .reduction = SUM, .ignore_index = -100, .seed = 1.0, .lshape = { 0, { 0 } },
      .loss = D(-1.0999999046325684),
      .grad = D(0.0, -1.0, 0.0, 0.0, 0.0, -1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, -1.0) },
    /* b.9.3: nll_loss X35 as input, reduction=none */
    { .id = "b.9.3", .op = OP_NLL, .dtype = TC_FLOAT32, .shape = { 2, { 3, 5 } },
      .x = D(0.5, -1.0, 2.0, 0.1, -0.3, 1.2, 0.3, -0.7, 0.0, 2.5, -0.4, 1.6, 0.2, -2.0, 0.9),
      .tshape = { 1, { 3 } },
      .target = D(1.0, 0.0, 4.0),
      .reduction = NONE, .ignore_index = -100, .seed = 0.5, .lshape = { 1, { 3 } },
      .loss = D(1.0, -1.2000000476837158, -0.8999999761581421),
      .grad = D(0.0, -0.5, 0.0, 0.0, 0.0, -1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, -1.5) },
    /* b.9.4: nll_loss X35, weight W5, reduction=mean */
    { .id = "b.9.4", .op = OP_NLL, .dtype = TC_FLOAT32, .shape = { 2, { 3, 5 } },
      .x = D(0.5, -1.0, 2.0, 0.1, -0.3, 1.2, 0.3, -0.7, 0.0, 2.5, -0.4, 1.6, 0.2, -2.0, 0.9),
      .tshape = { 1, { 3 } },
      .target = D(1.0, 0.0, 4.0),
      .nweight = 5,
      .weight = D(0.2, 1.0, 0.5, 2.0, 1.5),
      .reduction = MEAN, .ignore_index = -100, .seed = 1.0, .lshape = { 0, { 0 } },
      .loss = D(-0.2185184806585312),
      .grad = D(0.0, -0.37037035822868347, 0.0, 0.0, 0.0, -0.07407407462596893, 0.0, 0.0, 0.0,
          0.0, 0.0, 0.0, 0.0, 0.0, -0.555555522441864) },
    /* b.9.5: nll_loss X35, weight W5, reduction=sum */
    { .id = "b.9.5", .op = OP_NLL, .dtype = TC_FLOAT32, .shape = { 2, { 3, 5 } },
      .x = D(0.5, -1.0, 2.0, 0.1, -0.3, 1.2, 0.3, -0.7, 0.0, 2.5, -0.4, 1.6, 0.2, -2.0, 0.9),
      .tshape = { 1, { 3 } },
      .target = D(1.0, 0.0, 4.0),
      .nweight = 5,
      .weight = D(0.2, 1.0, 0.5, 2.0, 1.5),
      .reduction = SUM, .ignore_index = -100, .seed = 1.0, .lshape = { 0, { 0 } },
      .loss = D(-0.5899999141693115),
      .grad = D(0.0, -1.0, 0.0, 0.0, 0.0, -0.20000000298023224, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
          0.0, 0.0, -1.5) },
    /* b.9.6: nll_loss X35, weight W5, reduction=none */
    { .id = "b.9.6", .op = OP_NLL, .dtype = TC_FLOAT32, .shape = { 2, { 3, 5 } },
      .x = D(0.5, -1.0, 2.0, 0.1, -0.3, 1.2, 0.3, -0.7, 0.0, 2.5, -0.4, 1.6, 0.2, -2.0, 0.9),
      .tshape = { 1, { 3 } },
      .target = D(1.0, 0.0, 4.0),
      .nweight = 5,
      .weight = D(0.2, 1.0, 0.5, 2.0, 1.5),
      .reduction = NONE, .ignore_index = -100, .seed = 0.5, .lshape = { 1, { 3 } },
      .loss = D(1.0, -0.24000000953674316, -1.3499999046325684),
      .grad = D(0.0, -0.5, 0.0, 0.0, 0.0, -0.20000000298023224, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
          0.0, 0.0, -2.25) },
    /* b.9.7: nll_loss X35, target [1,-100,4], weight W5, mean */
    { .id = "b.9.7", .op = OP_NLL, .dtype = TC_FLOAT32, .shape = { 2, { 3, 5 } },
      .x = D(0.5, -1.0, 2.0, 0.1, -0.3, 1.2, 0.3, -0.7, 0.0, 2.5, -0.4, 1.6, 0.2, -2.0, 0.9),
      .tshape = { 1, { 3 } },
      .target = D(1.0, -100.0, 4.0),
      .nweight = 5,
      .weight = D(0.2, 1.0, 0.5, 2.0, 1.5),
      .reduction = MEAN, .ignore_index = -100, .seed = 1.0, .lshape = { 0, { 0 } },
      .loss = D(-0.13999995589256287),
      .grad = D(0.0, -0.4000000059604645, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
          0.0, 0.0, -0.6000000238418579) },
    /* b.9.8: nll_loss X35, ignore_index=0, none */
    { .id = "b.9.8", .op = OP_NLL, .dtype = TC_FLOAT32, .shape = { 2, { 3, 5 } },
      .x = D(0.5, -1.0, 2.0, 0.1, -0.3, 1.2, 0.3, -0.7, 0.0, 2.5, -0.4, 1.6, 0.2, -2.0, 0.9),
      .tshape = { 1, { 3 } },
      .target = D(1.0, 0.0, 4.0),
      .reduction = NONE, .ignore_index = 0, .seed = 0.5, .lshape = { 1, { 3 } },
      .loss = D(1.0, 0.0, -0.8999999761581421),
      .grad = D(0.0, -0.5, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, -1.5) },
    /* b.9.9: nll_loss X35, all ignored, mean */
    { .id = "b.9.9", .op = OP_NLL, .dtype = TC_FLOAT32, .shape = { 2, { 3, 5 } },
      .x = D(0.5, -1.0, 2.0, 0.1, -0.3, 1.2, 0.3, -0.7, 0.0, 2.5, -0.4, 1.6, 0.2, -2.0, 0.9),
      .tshape = { 1, { 3 } },
      .target = D(-100.0, -100.0, -100.0),
      .reduction = MEAN, .ignore_index = -100, .seed = 1.0, .lshape = { 0, { 0 } },
      .loss = D(NAN),
      .grad = D(0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0) },
    /* b.9.10: nll_loss X35, float64, weight W5, sum */
    { .id = "b.9.10", .op = OP_NLL, .dtype = TC_FLOAT64, .shape = { 2, { 3, 5 } },
      .x = D(0.5, -1.0, 2.0, 0.1, -0.3, 1.2, 0.3, -0.7, 0.0, 2.5, -0.4, 1.6, 0.2, -2.0, 0.9),
      .tshape = { 1, { 3 } },
      .target = D(1.0, 0.0, 4.0),
      .nweight = 5,
      .weight = D(0.2, 1.0, 0.5, 2.0, 1.5),
      .reduction = SUM, .ignore_index = -100, .seed = 1.0, .lshape = { 0, { 0 } },
      .loss = D(-0.5900000000000001),
      .grad = D(0.0, -1.0, 0.0, 0.0, 0.0, -0.2, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, -1.5) },
    /* b.9.11: nll_loss log_softmax(X35) values (float64), mean */
    { .id = "b.9.11", .op = OP_NLL, .dtype = TC_FLOAT64, .shape = { 2, { 3, 5 } },
      .x = D(-1.9205144245761772, -3.420514424576177, -0.42051442457617716, -2.320514424576177,
          -2.720514424576177, -1.7095780742538884, -2.6095780742538888, -3.6095780742538888,
          -2.9095780742538886, -0.4095780742538884, -2.644923524438407, -0.6449235244384068,
          -2.044923524438407, -4.244923524438407, -1.344923524438407),
      .tshape = { 1, { 3 } },
      .target = D(1.0, 0.0, 4.0),
      .reduction = MEAN, .ignore_index = -100, .seed = 1.0, .lshape = { 0, { 0 } },
      .loss = D(2.1583386744228243),
      .grad = D(0.0, -0.3333333333333333, 0.0, 0.0, 0.0, -0.3333333333333333, 0.0, 0.0, 0.0,
          0.0, 0.0, 0.0, 0.0, 0.0, -0.3333333333333333) },
    /* b.9.12: nll_loss (2,4,3) K-dim (seed 1), reduction=mean */
    { .id = "b.9.12", .op = OP_NLL, .dtype = TC_FLOAT32, .shape = { 3, { 2, 4, 3 } },
      .x = D(-0.31, -0.71, -0.73, -0.3, -0.25, -0.36, 0.94, 1.16, 0.09, 0.51, 0.6, 1.29, 1.75,
          -0.41, -0.99, -0.3, -1.93, -0.27, -0.14, 2.57, -0.52, 0.99, 0.29, 1.01),
      .tshape = { 2, { 2, 3 } },
      .target = D(0.0, 3.0, 1.0, 0.0, 2.0, 3.0),
      .reduction = MEAN, .ignore_index = -100, .seed = 1.0, .lshape = { 0, { 0 } },
      .loss = D(-0.8766666054725647),
      .grad = D(-0.1666666716337204, 0.0, 0.0, 0.0, 0.0, -0.1666666716337204, 0.0, 0.0, 0.0,
          0.0, -0.1666666716337204, 0.0, -0.1666666716337204, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
          -0.1666666716337204, 0.0, 0.0, 0.0, -0.1666666716337204) },
    /* b.9.13: nll_loss (2,4,3) K-dim (seed 1), reduction=sum */
    { .id = "b.9.13", .op = OP_NLL, .dtype = TC_FLOAT32, .shape = { 3, { 2, 4, 3 } },
      .x = D(-0.31, -0.71, -0.73, -0.3, -0.25, -0.36, 0.94, 1.16, 0.09, 0.51, 0.6, 1.29, 1.75,
          -0.41, -0.99, -0.3, -1.93, -0.27, -0.14, 2.57, -0.52, 0.99, 0.29, 1.01),
      .tshape = { 2, { 2, 3 } },
      .target = D(0.0, 3.0, 1.0, 0.0, 2.0, 3.0),
      .reduction = SUM, .ignore_index = -100, .seed = 1.0, .lshape = { 0, { 0 } },
      .loss = D(-5.259999752044678),
      .grad = D(-1.0, 0.0, 0.0, 0.0, 0.0, -1.0, 0.0, 0.0, 0.0, 0.0, -1.0, 0.0, -1.0, 0.0, 0.0,
          0.0, 0.0, 0.0, 0.0, -1.0, 0.0, 0.0, 0.0, -1.0) },
    /* b.9.14: nll_loss (2,4,3) K-dim (seed 1), reduction=none */
    { .id = "b.9.14", .op = OP_NLL, .dtype = TC_FLOAT32, .shape = { 3, { 2, 4, 3 } },
      .x = D(-0.31, -0.71, -0.73, -0.3, -0.25, -0.36, 0.94, 1.16, 0.09, 0.51, 0.6, 1.29, 1.75,
          -0.41, -0.99, -0.3, -1.93, -0.27, -0.14, 2.57, -0.52, 0.99, 0.29, 1.01),
      .tshape = { 2, { 2, 3 } },
      .target = D(0.0, 3.0, 1.0, 0.0, 2.0, 3.0),
      .reduction = NONE, .ignore_index = -100, .seed = 0.5, .lshape = { 2, { 2, 3 } },
      .loss = D(0.3100000023841858, -0.6000000238418579, 0.36000001430511475, -1.75,
          -2.569999933242798, -1.0099999904632568),
      .grad = D(-0.5, 0.0, 0.0, 0.0, 0.0, -1.5, 0.0, 0.0, 0.0, 0.0, -1.0, 0.0, -0.5, 0.0, 0.0,
          0.0, 0.0, 0.0, 0.0, -1.0, 0.0, 0.0, 0.0, -1.5) },
    /* b.9.15: nll_loss (2,3,2,2) 4-D (seed 3), weight [2,1,0.5], mean */
    { .id = "b.9.15", .op = OP_NLL, .dtype = TC_FLOAT32, .shape = { 4, { 2, 3, 2, 2 } },
      .x = D(-0.22, 0.15, 0.67, -0.51, -1.59, -0.75, 0.65, 0.91, 1.08, 0.34, 0.72, 0.83, 0.51,
          -1.53, -1.9, 0.25, 0.03, 0.24, 0.78, -1.0, 1.19, 0.41, 0.18, -0.15),
      .tshape = { 3, { 2, 2, 2 } },
      .target = D(1.0, 0.0, 1.0, 2.0, 0.0, 2.0, 2.0, 1.0),
      .nweight = 3,
      .weight = D(2.0, 1.0, 0.5),
      .reduction = MEAN, .ignore_index = -100, .seed = 1.0, .lshape = { 0, { 0 } },
      .loss = D(-0.010588211007416248),
      .grad = D(0.0, -0.23529411852359772, 0.0, 0.0, -0.11764705926179886, 0.0,
          -0.11764705926179886, 0.0, 0.0, 0.0, 0.0, -0.05882352963089943, -0.23529411852359772,
          0.0, 0.0, 0.0, 0.0, 0.0, 0.0, -0.11764705926179886, 0.0, -0.05882352963089943,
          -0.05882352963089943, 0.0) },
    /* b.9.16: nll_loss (2,3,2,1,2) 5-D (seed 5), none */
    { .id = "b.9.16", .op = OP_NLL, .dtype = TC_FLOAT32, .shape = { 5, { 2, 3, 2, 1, 2 } },
      .x = D(0.82, -0.74, -0.59, -0.4, 0.25, 0.38, 1.01, -0.76, -0.36, -0.71, 0.61, 0.5, -0.82,
          -0.77, -0.54, -2.15, 1.92, 0.25, -0.13, 0.17, 0.95, -1.88, 1.65, -0.83),
      .tshape = { 4, { 2, 2, 1, 2 } },
      .target = D(2.0, 0.0, 0.0, 2.0, 1.0, 0.0, 2.0, 0.0),
      .reduction = NONE, .ignore_index = -100, .seed = 0.5, .lshape = { 4, { 2, 2, 1, 2 } },
      .loss = D(0.36000001430511475, 0.7400000095367432, 0.5899999737739563, -0.5,
          -1.9199999570846558, 0.7699999809265137, -1.649999976158142, 2.1500000953674316),
      .grad = D(0.0, -1.0, -1.5, 0.0, 0.0, 0.0, 0.0, 0.0, -0.5, 0.0, 0.0, -0.5, 0.0, -1.5, 0.0,
          -1.0, -1.0, 0.0, 0.0, 0.0, 0.0, 0.0, -0.5, 0.0) },
    /* b.9.17: nll_loss unbatched (5,), target 3, mean */
    { .id = "b.9.17", .op = OP_NLL, .dtype = TC_FLOAT32, .shape = { 1, { 5 } },
      .x = D(0.5, -1.0, 2.0, 0.1, -0.3),
      .tshape = { 0, { 0 } },
      .target = D(3.0),
      .reduction = MEAN, .ignore_index = -100, .seed = 1.0, .lshape = { 0, { 0 } },
      .loss = D(-0.10000000149011612),
      .grad = D(0.0, 0.0, 0.0, -1.0, 0.0) },
    /* b.9.18: nll_loss unbatched (5,), target 3, weight W5, mean */
    { .id = "b.9.18", .op = OP_NLL, .dtype = TC_FLOAT32, .shape = { 1, { 5 } },
      .x = D(0.5, -1.0, 2.0, 0.1, -0.3),
      .tshape = { 0, { 0 } },
      .target = D(3.0),
      .nweight = 5,
      .weight = D(0.2, 1.0, 0.5, 2.0, 1.5),
      .reduction = MEAN, .ignore_index = -100, .seed = 1.0, .lshape = { 0, { 0 } },
      .loss = D(-0.10000000149011612),
      .grad = D(0.0, 0.0, 0.0, -1.0, 0.0) },
    /* b.9.19: nll_loss unbatched (5,), target 3, none */
    { .id = "b.9.19", .op = OP_NLL, .dtype = TC_FLOAT32, .shape = { 1, { 5 } },
      .x = D(0.5, -1.0, 2.0, 0.1, -0.3),
      .tshape = { 0, { 0 } },
      .target = D(3.0),
      .reduction = NONE, .ignore_index = -100, .seed = 0.5, .lshape = { 0, { 0 } },
      .loss = D(-0.10000000149011612),
      .grad = D(0.0, 0.0, 0.0, -0.5, 0.0) },
    /* b.9.20: nll_loss (0,5) empty, mean */
    { .id = "b.9.20", .op = OP_NLL, .dtype = TC_FLOAT32, .shape = { 2, { 0, 5 } },
      .x = NULL,
      .tshape = { 1, { 0 } },
      .target = NULL,
      .reduction = MEAN, .ignore_index = -100, .seed = 1.0, .lshape = { 0, { 0 } },
      .loss = D(NAN),
      .grad = NULL },
    /* b.9.21: nll_loss (0,5) empty, sum */
    { .id = "b.9.21", .op = OP_NLL, .dtype = TC_FLOAT32, .shape = { 2, { 0, 5 } },
      .x = NULL,
      .tshape = { 1, { 0 } },
      .target = NULL,
      .reduction = SUM, .ignore_index = -100, .seed = 1.0, .lshape = { 0, { 0 } },
      .loss = D(0.0),
      .grad = NULL },
    /* b.9.22: nll_loss (0,5) empty, none */
    { .id = "b.9.22", .op = OP_NLL, .dtype = TC_FLOAT32, .shape = { 2, { 0, 5 } },
      .x = NULL,
      .tshape = { 1, { 0 } },
      .target = NULL,
      .reduction = NONE, .ignore_index = -100, .seed = 0.5, .lshape = { 1, { 0 } },
      .loss = NULL,
      .grad = NULL },
    /* b.9.23: nll_loss inf / nan inputs, none */
    { .id = "b.9.23", .op = OP_NLL, .dtype = TC_FLOAT32, .shape = { 2, { 3, 2 } },
      .x = D(INFINITY, 1.0, NAN, 2.0, -INFINITY, 0.0),
      .tshape = { 1, { 3 } },
      .target = D(0.0, 0.0, 1.0),
      .reduction = NONE, .ignore_index = -100, .seed = 0.5, .lshape = { 1, { 3 } },
      .loss = D(-INFINITY, NAN, -0.0),
      .grad = D(-0.5, 0.0, -1.0, 0.0, 0.0, -1.5) },
    /* b.9.24: nll_loss -inf input at target, mean */
    { .id = "b.9.24", .op = OP_NLL, .dtype = TC_FLOAT32, .shape = { 2, { 2, 2 } },
      .x = D(-INFINITY, 1.0, 3.0, 2.0),
      .tshape = { 1, { 2 } },
      .target = D(0.0, 1.0),
      .reduction = MEAN, .ignore_index = -100, .seed = 1.0, .lshape = { 0, { 0 } },
      .loss = D(INFINITY),
      .grad = D(-0.5, 0.0, 0.0, -0.5) },
};

/* END TABLES */

enum { NUM_LOSS_CASES = (int)(sizeof loss_cases / sizeof loss_cases[0]) };

enum { NUM_ROWS = (int)(sizeof softmax_rows_f32 / sizeof softmax_rows_f32[0]) };

typedef enum { FN_SOFTMAX, FN_LOG_SOFTMAX, FN_LOGSUMEXP } row_fn;

static const char *const row_fn_names[] = { "softmax", "log_softmax", "logsumexp" };

static const double *row_expected(const softmax_row *r, row_fn fn, bool grad)
{
    switch (fn) {
    case FN_SOFTMAX:
        return grad ? r->softmax_grad : r->softmax;
    case FN_LOG_SOFTMAX:
        return grad ? r->log_softmax_grad : r->log_softmax;
    case FN_LOGSUMEXP:
        return grad ? r->logsumexp_grad : r->logsumexp;
    }
    return NULL;
}

/* The rows laid out in a tensor of `layout`: 0 the (R, 4) matrix, reduced
   along dim 1 (written `dim`, 1 or -1); 1 its transpose (4, R), strides
   (1, 4), along dim 0 (or -2); 2 a (2, 4, R) tensor holding the rows
   twice, x[a][c][r] = row r's c-th logit, along the middle dim (1 or -2). */
static tc_tensor *rows_tensor(const softmax_row *rows, tc_dtype dtype, int layout)
{
    tc_tensor *t;

    if (layout == 2) {
        t = K(tc_empty(S(2, 4, NUM_ROWS), dtype));
        ck_assert_ptr_nonnull(t);
        for (int a = 0; a < 2; a++)
            for (int c = 0; c < 4; c++)
                for (int r = 0; r < NUM_ROWS; r++)
                    tc_store(t, (a * 4 + c) * NUM_ROWS + r, rows[r].x[c]);
    } else {
        t = K(tc_empty(S(NUM_ROWS, 4), dtype));
        ck_assert_ptr_nonnull(t);
        for (int r = 0; r < NUM_ROWS; r++)
            for (int c = 0; c < 4; c++)
                tc_store(t, r * 4 + c, rows[r].x[c]);
        if (layout == 1)
            t = K(tc_t(t));
    }
    ck_assert_int_eq(ag_set_requires_grad(t, true), 0);
    return t;
}

/* The value of row r, position c, in t of `layout` (copy a of layout 2). */
static double row_element(const tc_tensor *t, int layout, int a, int r, int c)
{
    int64_t index[3];

    if (layout == 0) {
        index[0] = r;
        index[1] = c;
    } else if (layout == 1) {
        index[0] = c;
        index[1] = r;
    } else {
        index[0] = a;
        index[1] = c;
        index[2] = r;
    }
    if (t->dim == 1)    /* logsumexp along the row dim of layout 0 or 1 */
        index[0] = r;
    else if (t->dim == 2 && layout == 2) {    /* logsumexp of layout 2: (2, R) */
        index[0] = a;
        index[1] = r;
    }
    return testing_get(t, index);
}

/* Check t (an output, or a gradient of the input's layout) against the
   rows' expected values of fn. */
static void expect_rows(int line, const char *what, const tc_tensor *t, tc_dtype dtype,
                        int layout, const softmax_row *rows, row_fn fn, bool grad)
{
    int width = fn == FN_LOGSUMEXP && !grad ? 1 : 4;

    ck_assert_msg(t != NULL, "line %d: %s is NULL: %s", line, what,
                  tc_error() ? tc_error() : "?");
    ck_assert_msg(t->dtype == dtype, "line %d: %s has the wrong dtype", line, what);
    for (int a = 0; a < (layout == 2 ? 2 : 1); a++)
        for (int r = 0; r < NUM_ROWS; r++)
            for (int c = 0; c < width; c++) {
                double got = row_element(t, layout, a, r, c);
                double want = row_expected(&rows[r], fn, grad)[c];
                ck_assert_msg(near(got, want, dtype),
                              "line %d: %s, layout %d, %s (%s) [%d]: %.9g, expected %.9g",
                              line, what, layout, rows[r].id, tc_dtype_name(dtype), c, got, want);
            }
}

/* The gradient seed of the rows in t's layout: G along each row for
   softmax and log_softmax, 1.5 everywhere for logsumexp's (R) or (2, R). */
static tc_tensor *rows_seed(const tc_tensor *y, int layout, row_fn fn)
{
    tc_tensor *g = K(tc_empty(tc_shape_of(y), y->dtype));

    ck_assert_ptr_nonnull(g);
    for (int64_t k = 0; k < tc_numel(g); k++) {
        int c;
        if (fn == FN_LOGSUMEXP) {
            tc_store(g, k, ROW_GL);
            continue;
        }
        /* the c of the k-th element of a contiguous tensor of y's shape */
        c = layout == 0 ? (int)(k % 4) : layout == 1 ? (int)(k / NUM_ROWS)
                                                     : (int)(k / NUM_ROWS % 4);
        tc_store(g, k, ROW_G[c]);
    }
    return g;
}

static tc_tensor *row_fn_call(row_fn fn, const tc_tensor *x, int64_t dim)
{
    switch (fn) {
    case FN_SOFTMAX:
        return ag_softmax(x, dim);
    case FN_LOG_SOFTMAX:
        return ag_log_softmax(x, dim);
    case FN_LOGSUMEXP:
        return ag_logsumexp(x, (tc_shape){ .dim = 1, .sizes = { dim } }, false);
    }
    return NULL;
}

/* The 17 rows of FACTS t.1 (t.1.1-17 float32, t.1.18-34 float64) along
   every layout and both spellings of the dim: the outputs and the input's
   gradients. The outputs of softmax and log_softmax are contiguous
   whatever the input's strides (a.4). */
START_TEST(test_softmax_rows)
{
    for (int d = 0; d < 2; d++) {
        tc_dtype dtype = d == 0 ? TC_FLOAT32 : TC_FLOAT64;
        const softmax_row *rows = d == 0 ? softmax_rows_f32 : softmax_rows_f64;
        for (int layout = 0; layout < 3; layout++)
            for (int spelling = 0; spelling < 2; spelling++)
                for (row_fn fn = FN_SOFTMAX; fn <= FN_LOGSUMEXP; fn++) {
                    static const int64_t dims[3][2] = { { 1, -1 }, { 0, -2 }, { 1, -2 } };
                    tc_tensor *x = rows_tensor(rows, dtype, layout);
                    tc_tensor *y = K(row_fn_call(fn, x, dims[layout][spelling]));
                    char what[64];

                    snprintf(what, sizeof what, "%s along %lld", row_fn_names[fn],
                             (long long)dims[layout][spelling]);
                    expect_rows(__LINE__, what, y, dtype, layout, rows, fn, false);
                    if (fn != FN_LOGSUMEXP)
                        ck_assert(tc_is_contiguous(y));
                    ck_assert(ag_grad_fn(y) != NULL);
                    OK(ag_backward(y, rows_seed(y, layout, fn), false));
                    expect_rows(__LINE__, what, ag_grad(x), dtype, layout, rows, fn, true);
                    testing_release_kept();
                }
    }
}
END_TEST

/* The nodes on 0-D and empty inputs (FACTS t.2; the kernels' values are
   check_ch06_softmax.h's): softmax(tensor(3.), 0) is 1 and its gradient
   after backward(tensor(2.5)) 0; log_softmax(x, -1) is 0, grad 0;
   logsumexp(x, 0) and logsumexp(x, ()) are 3, grad 2.5; dim -1 is dim 0.
   Empty inputs get an empty gradient of their shape. */
START_TEST(test_softmax_0d_and_empty)
{
    for (int spelling = 0; spelling < 2; spelling++) {
        int64_t dim = spelling == 0 ? 0 : -1;
        tc_tensor *x = X32(S0, 3.0);
        tc_tensor *y = K(ag_softmax(x, dim));

        EXPECT_T(y, TC_FLOAT32, S0, 1.0);
        OK(ag_backward(y, C32(S0, 2.5), false));
        EXPECT_GRAD(x, S0, 0.0);
        x = X32(S0, 3.0);
        y = K(ag_log_softmax(x, dim));
        EXPECT_T(y, TC_FLOAT32, S0, 0.0);
        OK(ag_backward(y, C32(S0, 2.5), false));
        EXPECT_GRAD(x, S0, 0.0);
        x = X32(S0, 3.0);
        y = K(ag_logsumexp(x, S(dim), false));
        EXPECT_T(y, TC_FLOAT32, S0, 3.0);
        OK(ag_backward(y, C32(S0, 2.5), false));
        EXPECT_GRAD(x, S0, 2.5);
    }
    {
        tc_tensor *x = X32(S0, 3.0);
        tc_tensor *y = K(ag_logsumexp(x, S0, false));

        EXPECT_T(y, TC_FLOAT32, S0, 3.0);
        OK(ag_backward(y, C32(S0, 2.5), false));
        EXPECT_GRAD(x, S0, 2.5);
    }
    /* t.2: backward through empty inputs gives a gradient of the input's shape */
    {
        tc_tensor *x = K(tc_zeros(S(0, 3), TC_FLOAT32)), *y;

        OK(ag_set_requires_grad(x, true));
        y = K(ag_softmax(x, 1));
        OK(ag_backward(y, K(tc_ones(S(0, 3), TC_FLOAT32)), false));
        ck_assert_ptr_nonnull(ag_grad(x));
        ASSERT_SIZES(ag_grad(x), 0, 3);
        x = K(tc_zeros(S(3, 0), TC_FLOAT32));
        OK(ag_set_requires_grad(x, true));
        y = K(ag_logsumexp(x, S(1), false));
        EXPECT_T(y, TC_FLOAT32, S(3), -INFINITY, -INFINITY, -INFINITY);
        OK(ag_backward(y, C32(S(3), 1, 1, 1), false));
        ck_assert_ptr_nonnull(ag_grad(x));
        ASSERT_SIZES(ag_grad(x), 3, 0);
    }
}
END_TEST

/* Each case of FACTS b.1-b.9 through each of its paths, twice: with the
   input contiguous and FACTS's seed, then laid out strided with the seed
   times 2.5. The composed and fused answers agree with PyTorch and with
   each other; and when everything made is released, no storage is left
   (the graph, its saved tensors and the gradients are gone). */
START_TEST(test_loss_case)
{
    const loss_case *c = &loss_cases[_i];
    int64_t live = tc_live_storages();

    for (int run = 0; run < 2; run++) {
        bool strided = run == 1;
        double scale = run == 0 ? 1.0 : 2.5;
        tc_tensor *composed, *fused, *gc, *gf, *y, *g;

        if (c->op == OP_NLL) {
            run_case(c, BY_NLL, strided, scale, &y, &g);
            continue;
        }
        run_case(c, BY_COMPOSED, strided, scale, &composed, &gc);
        if (!CH06_FUSED)
            continue;
        run_case(c, BY_FUSED, strided, scale, &fused, &gf);
        expect_same(__LINE__, c->id, composed, fused);
        expect_same(__LINE__, c->id, gc, gf);
        ck_assert_str_eq(ag_node_type_name(ag_grad_fn(fused)), "FusedCrossEntropyBackward");
    }
    testing_release_kept();
    ck_assert_int_eq(tc_live_storages(), live);
}
END_TEST

/* ------------------------------------------- the kernels of nll_loss */

/* FACTS's named values: X35 (3, 5), T3 = [1, 0, 4], W5, P35 (rows summing to 1). */
static tc_tensor *x35(tc_dtype dtype, bool grad)
{
    return tensor_of(S(3, 5), dtype,
                     D(0.5, -1.0, 2.0, 0.1, -0.3, 1.2, 0.3, -0.7, 0.0, 2.5, -0.4, 1.6, 0.2, -2.0,
                       0.9),
                     grad);
}

static tc_tensor *w5(tc_dtype dtype)
{
    return tensor_of(S(5), dtype, D(0.2, 1.0, 0.5, 2.0, 1.5), false);
}

static tc_tensor *p35(tc_dtype dtype)
{
    return tensor_of(S(3, 5), dtype,
                     D(0.1, 0.2, 0.3, 0.4, 0.0, 0.5, 0.0, 0.0, 0.25, 0.25, 0.2, 0.2, 0.2, 0.2, 0.2),
                     false);
}

#define T3() TGT(S(3), 1, 0, 4)

/* torch.ops.aten.nll_loss_forward(X35, target, weight, reduction, -100)
   -> (output, total_weight), FACTS b.10: total_weight is 0-D of the
   input's dtype, the sum of the targets' weights for mean and sum, 0 for
   none (not computed) with a 2-D input but w[t] for a 1-D one.
   nll_loss_backward(grad_output, X35, target, weight, reduction, -100,
   total_weight), b.11: it divides by the total_weight it is given. */
START_TEST(test_nll_kernels)
{
    tc_tensor *x = x35(TC_FLOAT32, false), *t = T3(), *w = w5(TC_FLOAT32);
    tc_tensor *t100 = TGT(S(3), 1, -100, 4), *all100 = TGT(S(3), -100, -100, -100);
    tc_tensor *out = NULL, *total = NULL;

#define FORWARD(x, t, w, r)                                                  \
    do {                                                                     \
        out = total = NULL;                                                  \
        OK(tc_nll_loss_forward(x, t, w, r, -100, &out, &total));             \
        K(out);                                                              \
        K(total);                                                            \
    } while (0)
    FORWARD(x, t, NULL, MEAN);                                      /* b.10.1 */
    EXPECT_T(out, TC_FLOAT32, S0, -0.36666664481163025);
    EXPECT_T(total, TC_FLOAT32, S0, 3.0);
    ck_assert_ptr_null(ag_grad_fn(out));
    FORWARD(x, t, NULL, SUM);                                       /* b.10.2 */
    EXPECT_T(out, TC_FLOAT32, S0, -1.0999999046325684);
    EXPECT_T(total, TC_FLOAT32, S0, 3.0);
    FORWARD(x, t, NULL, NONE);                                      /* b.10.3 */
    EXPECT_T(out, TC_FLOAT32, S(3), 1.0, -1.2000000476837158, -0.8999999761581421);
    EXPECT_T(total, TC_FLOAT32, S0, 0.0);
    FORWARD(x, t, w, MEAN);                                         /* b.10.4 */
    EXPECT_T(out, TC_FLOAT32, S0, -0.2185184806585312);
    EXPECT_T(total, TC_FLOAT32, S0, 2.700000047683716);
    FORWARD(x, t, w, NONE);                                         /* b.10.6 */
    EXPECT_T(out, TC_FLOAT32, S(3), 1.0, -0.24000000953674316, -1.3499999046325684);
    FORWARD(x, t100, w, SUM);                                       /* b.10.8 */
    EXPECT_T(out, TC_FLOAT32, S0, -0.34999990463256836);
    EXPECT_T(total, TC_FLOAT32, S0, 2.5);
    FORWARD(x, all100, NULL, MEAN);                                 /* b.10.9 */
    EXPECT_T(out, TC_FLOAT32, S0, NAN);
    EXPECT_T(total, TC_FLOAT32, S0, 0.0);
    FORWARD(x, all100, NULL, SUM);                                  /* b.10.10 */
    EXPECT_T(out, TC_FLOAT32, S0, 0.0);
    FORWARD(K(tc_select(x, 0, 0)), TGT(S0, 2), w, MEAN);            /* b.10.12 */
    EXPECT_T(out, TC_FLOAT32, S0, -2.0);
    EXPECT_T(total, TC_FLOAT32, S0, 0.5);
    FORWARD(K(tc_select(x, 0, 0)), TGT(S0, 2), NULL, NONE);         /* b.10.13 */
    EXPECT_T(out, TC_FLOAT32, S0, -2.0);
    EXPECT_T(total, TC_FLOAT32, S0, 1.0);
    FORWARD(K(tc_zeros(S(0, 5), TC_FLOAT32)), K(tc_zeros(S(0), TC_INT64)), NULL, MEAN);
    EXPECT_T(out, TC_FLOAT32, S0, NAN);                             /* b.10.15 */
    EXPECT_T(total, TC_FLOAT32, S0, 0.0);
    FORWARD(x35(TC_FLOAT64, false), t, w5(TC_FLOAT64), MEAN);      /* b.10.17 */
    EXPECT_T(out, TC_FLOAT64, S0, -0.21851851851851853);
    EXPECT_T(total, TC_FLOAT64, S0, 2.7);
#undef FORWARD
    /* b.11.1 - b.11.7 */
    EXPECT_T(K(tc_nll_loss_backward(C32(S0, 1.0), x, t, NULL, MEAN, -100, C32(S0, 3.0))),
             TC_FLOAT32, S(3, 5), 0, -0.3333333432674408, 0, 0, 0, -0.3333333432674408, 0, 0, 0,
             0, 0, 0, 0, 0, -0.3333333432674408);
    EXPECT_T(K(tc_nll_loss_backward(C32(S0, 2.0), x, t, w, MEAN, -100,
                                    C32(S0, 3.200000047683716))),
             TC_FLOAT32, S(3, 5), 0, -0.625, 0, 0, 0, -0.125, 0, 0, 0, 0, 0, 0, 0, 0, -0.9375);
    EXPECT_T(K(tc_nll_loss_backward(C32(S(3), 0.5, 1.0, 1.5), x, t, w, NONE, -100,
                                    C32(S0, 0.0))),
             TC_FLOAT32, S(3, 5), 0, -0.5, 0, 0, 0, -0.20000000298023224, 0, 0, 0, 0, 0, 0, 0, 0,
             -2.25);
    EXPECT_T(K(tc_nll_loss_backward(C32(S0, 1.0), x, t100, NULL, MEAN, -100, C32(S0, 2.0))),
             TC_FLOAT32, S(3, 5), 0, -0.5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -0.5);
    EXPECT_T(K(tc_nll_loss_backward(C32(S0, 1.0), x, all100, NULL, MEAN, -100, C32(S0, 0.0))),
             TC_FLOAT32, S(3, 5), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    EXPECT_T(K(tc_nll_loss_backward(C32(S0, 1.0), x, t, NULL, MEAN, -100, C32(S0, 7.0))),
             TC_FLOAT32, S(3, 5), 0, -0.1428571492433548, 0, 0, 0, -0.1428571492433548, 0, 0, 0,
             0, 0, 0, 0, 0, -0.1428571492433548);
    /* a failure sets neither output and leaves nothing behind (c.1.2) */
    {
        tc_tensor *bad = TGT(S(3), 1, 5, 4);
        int64_t live = tc_live_storages();

        out = total = NULL;
        EXPECT_FAIL_INT(tc_nll_loss_forward(x, bad, NULL, MEAN, -100, &out, &total),
                        "Target 5 is out of bounds.");
        ck_assert_ptr_null(out);
        ck_assert_ptr_null(total);
        ck_assert_int_eq(tc_live_storages(), live);
    }
}
END_TEST

/* ------------------------------------------ the graphs PyTorch records */

/* The graphs of F.nll_loss and F.cross_entropy in PyTorch 1.13 (FACTS d.1,
   d.3, d.4), node by node (type(fn).__name__ == fn.name(), next_functions): class targets
   through NllLossBackward0 for 1-D/2-D input, NllLoss2DBackward0 for 4-D,
   and nll_loss_nd's views around NllLoss2DBackward0 for 3-D and 5-D;
   probability targets through -(log_softmax(x, 1) * t [* w]).sum(1), then
   .sum() / N for mean (DivBackward1: a Python-number divisor), .sum()
   for sum; weight does not change the class-target graph. */
START_TEST(test_loss_graphs)
{
    tc_tensor *x = ramp(S(3, 5), TC_FLOAT32, true);
    tc_tensor *t = TGT(S(3), 1, 0, 4);
    tc_tensor *w = C32(S(5), 0.5, 2, 1, 0.25, 1.5);
    tc_tensor *p = K(tc_full(S(3, 5), 0.2, TC_FLOAT32));
    tc_tensor *x3 = ramp(S(2, 3, 4), TC_FLOAT32, true), *t3 = K(tc_zeros(S(2, 4), TC_INT64));
    tc_tensor *x4 = ramp(S(2, 3, 2, 2), TC_FLOAT32, true), *t4 = K(tc_zeros(S(2, 2, 2), TC_INT64));
    tc_tensor *x5 = ramp(S(1, 3, 2, 1, 2), TC_FLOAT32, true);
    tc_tensor *t5 = K(tc_zeros(S(1, 2, 1, 2), TC_INT64));
    tc_tensor *w3 = C32(S(3), 0.25, 1.0, 3.0);
    ag_node *fn;

    /* F.cross_entropy(x, t) for every reduction, with and without weight
       (nll_loss alone, d.4, is check_ch06_nll.h's) */
    for (tc_reduction r = NONE; r <= SUM; r++)
        for (int weighted = 0; weighted < 2; weighted++) {
            fn = ag_grad_fn(K(ag_cross_entropy(x, t, weighted ? w : NULL, r, -100, 0.0)));
            EXPECT_NODE(fn, "NllLossBackward0", { "LogSoftmaxBackward0", 0 });
            EXPECT_NODE(next_node(fn, 0), "LogSoftmaxBackward0", ACC);
        }
    /* unbatched */
    fn = ag_grad_fn(K(ag_cross_entropy(ramp(S(5), TC_FLOAT32, true), TGT(S0, 1), NULL, NONE,
                                       -100, 0.0)));
    EXPECT_NODE(fn, "NllLossBackward0", { "LogSoftmaxBackward0", 0 });
    /* 3-D: NllLoss2DBackward0 -> ViewBackward0 -> LogSoftmaxBackward0, and
       for 'none' one more ViewBackward0 on top */
    fn = ag_grad_fn(K(ag_cross_entropy(x3, t3, NULL, MEAN, -100, 0.0)));
    EXPECT_NODE(fn, "NllLoss2DBackward0", { "ViewBackward0", 0 });
    EXPECT_NODE(next_node(fn, 0), "ViewBackward0", { "LogSoftmaxBackward0", 0 });
    EXPECT_NODE(next_node(next_node(fn, 0), 0), "LogSoftmaxBackward0", ACC);
    fn = ag_grad_fn(K(ag_cross_entropy(x3, t3, w3, NONE, -100, 0.0)));
    EXPECT_NODE(fn, "ViewBackward0", { "NllLoss2DBackward0", 0 });
    EXPECT_NODE(next_node(fn, 0), "NllLoss2DBackward0", { "ViewBackward0", 0 });
    EXPECT_NODE(next_node(next_node(fn, 0), 0), "ViewBackward0", { "LogSoftmaxBackward0", 0 });
    /* 4-D: NllLoss2DBackward0 -> LogSoftmaxBackward0 */
    fn = ag_grad_fn(K(ag_cross_entropy(x4, t4, NULL, SUM, -100, 0.0)));
    EXPECT_NODE(fn, "NllLoss2DBackward0", { "LogSoftmaxBackward0", 0 });
    EXPECT_NODE(next_node(fn, 0), "LogSoftmaxBackward0", ACC);
    fn = ag_grad_fn(K(ag_cross_entropy(x4, t4, w3, NONE, -100, 0.0)));
    EXPECT_NODE(fn, "NllLoss2DBackward0", { "LogSoftmaxBackward0", 0 });
    /* 5-D: as 3-D */
    fn = ag_grad_fn(K(ag_cross_entropy(x5, t5, NULL, MEAN, -100, 0.0)));
    EXPECT_NODE(fn, "NllLoss2DBackward0", { "ViewBackward0", 0 });
    EXPECT_NODE(next_node(fn, 0), "ViewBackward0", { "LogSoftmaxBackward0", 0 });
    fn = ag_grad_fn(K(ag_cross_entropy(x5, t5, NULL, NONE, -100, 0.0)));
    EXPECT_NODE(fn, "ViewBackward0", { "NllLoss2DBackward0", 0 });
    /* probability targets, mean: DivBackward1 -> NegBackward0 -> SumBackward0
       -> MulBackward0 [(LogSoftmaxBackward0, 0), (None, 0)] */
    fn = ag_grad_fn(K(ag_cross_entropy(x, p, NULL, MEAN, -100, 0.0)));
    EXPECT_NODE(fn, "DivBackward1", { "NegBackward0", 0 });
    fn = next_node(fn, 0);
    EXPECT_NODE(fn, "NegBackward0", { "SumBackward0", 0 });
    fn = next_node(fn, 0);
    EXPECT_NODE(fn, "SumBackward0", { "MulBackward0", 0 });
    fn = next_node(fn, 0);
    EXPECT_NODE(fn, "MulBackward0", { "LogSoftmaxBackward0", 0 }, NO_EDGE);
    EXPECT_NODE(next_node(fn, 0), "LogSoftmaxBackward0", ACC);
    /* the same with label_smoothing=0.1 (it changes only the target) and unbatched */
    EXPECT_NODE(ag_grad_fn(K(ag_cross_entropy(x, p, NULL, MEAN, -100, 0.1))), "DivBackward1",
                { "NegBackward0", 0 });
    EXPECT_NODE(ag_grad_fn(K(ag_cross_entropy(ramp(S(5), TC_FLOAT32, true),
                                              K(tc_full(S(5), 0.2, TC_FLOAT32)), NULL, MEAN,
                                              -100, 0.0))),
                "DivBackward1", { "NegBackward0", 0 });
    /* none: NegBackward0 -> SumBackward1 -> MulBackward0 */
    fn = ag_grad_fn(K(ag_cross_entropy(x, p, NULL, NONE, -100, 0.0)));
    EXPECT_NODE(fn, "NegBackward0", { "SumBackward1", 0 });
    EXPECT_NODE(next_node(fn, 0), "SumBackward1", { "MulBackward0", 0 });
    EXPECT_NODE(next_node(next_node(fn, 0), 0), "MulBackward0", { "LogSoftmaxBackward0", 0 },
                NO_EDGE);
    /* sum with weight: NegBackward0 -> SumBackward0 -> MulBackward0 [(MulBackward0, 0),
       (None, 0)] -> MulBackward0 [(LogSoftmaxBackward0, 0), (None, 0)] */
    fn = ag_grad_fn(K(ag_cross_entropy(x, p, w, SUM, -100, 0.0)));
    EXPECT_NODE(fn, "NegBackward0", { "SumBackward0", 0 });
    fn = next_node(fn, 0);
    EXPECT_NODE(fn, "SumBackward0", { "MulBackward0", 0 });
    fn = next_node(fn, 0);
    EXPECT_NODE(fn, "MulBackward0", { "MulBackward0", 0 }, NO_EDGE);
    EXPECT_NODE(next_node(fn, 0), "MulBackward0", { "LogSoftmaxBackward0", 0 }, NO_EDGE);
#if CH06_FUSED
    /* the fused node: ours, one node straight to the input's AccumulateGrad */
    fn = ag_grad_fn(K(ag_cross_entropy_fused(x, t, w, MEAN, -100, 0.1)));
    ck_assert_str_eq(ag_node_type_name(fn), "FusedCrossEntropyBackward");
    ck_assert_str_eq(ag_node_name(fn), "FusedCrossEntropyBackward");
    ck_assert_int_ge(ag_node_num_next(fn), 1);
    ck_assert_str_eq(ag_node_type_name(next_node(fn, 0)), "AccumulateGrad");
    ck_assert_ptr_eq(ag_node_variable(next_node(fn, 0)), x);
    fn = ag_grad_fn(K(ag_cross_entropy_fused(x4, t4, NULL, NONE, -100, 0.0)));
    ck_assert_str_eq(ag_node_type_name(fn), "FusedCrossEntropyBackward");
    ck_assert_ptr_eq(ag_node_variable(next_node(fn, 0)), x4);
    fn = ag_grad_fn(K(ag_cross_entropy_fused(x, p, NULL, SUM, -100, 0.0)));
    ck_assert_str_eq(ag_node_type_name(fn), "FusedCrossEntropyBackward");
    ck_assert_ptr_eq(ag_node_variable(next_node(fn, 0)), x);
#endif
    /* nothing requires grad: nothing is recorded, by any path */
    {
        tc_tensor *c = ramp(S(3, 5), TC_FLOAT32, false);
        tc_tensor *y = K(ag_cross_entropy(c, t, NULL, MEAN, -100, 0.0));

        ck_assert_ptr_nonnull(y);
        ck_assert_ptr_null(ag_grad_fn(y));
        ck_assert(!ag_requires_grad(y));
#if CH06_FUSED
        y = K(ag_cross_entropy_fused(c, t, NULL, MEAN, -100, 0.0));
        ck_assert_ptr_nonnull(y);
        ck_assert_ptr_null(ag_grad_fn(y));
#endif
        y = K(ag_nll_loss(c, t, NULL, MEAN, -100));
        ck_assert_ptr_nonnull(y);
        ck_assert_ptr_null(ag_grad_fn(y));
    }
}
END_TEST

/* ------------------------------------------------------------------ errors */

/* The call along `path` fails with exactly `expected`, and no storage
   made during it is left alive. */
static void path_fails(int line, loss_path path, const tc_tensor *x, const tc_tensor *t,
                       const tc_tensor *w, tc_reduction r, int64_t ignore_index,
                       double smoothing, const char *expected)
{
    int64_t live = tc_live_storages();
    tc_tensor *y;
    const char *e;

    tc_clear_error();
    y = call_path(path, x, t, w, r, ignore_index, smoothing);
    e = tc_error();
    ck_assert_msg(y == NULL, "line %d: %s succeeded, expected \"%s\"", line, path_names[path],
                  expected);
    ck_assert_msg(e != NULL && strcmp(e, expected) == 0,
                  "line %d: %s: message \"%s\", expected \"%s\"", line, path_names[path],
                  e != NULL ? e : "(none)", expected);
    ck_assert_msg(tc_live_storages() == live, "line %d: %s left %lld storages behind", line,
                  path_names[path], (long long)(tc_live_storages() - live));
    tc_clear_error();
}

/* F.cross_entropy fails so: both cross-entropy paths give the message. */
#define CE_FAILS(x, t, w, r, ii, ls, expected)                          \
    do {                                                                \
        path_fails(__LINE__, BY_COMPOSED, x, t, w, r, ii, ls, expected); \
        if (CH06_FUSED)                                                 \
            path_fails(__LINE__, BY_FUSED, x, t, w, r, ii, ls, expected); \
    } while (0)
#define NLL_FAILS(x, t, w, r, ii, expected) \
    path_fails(__LINE__, BY_NLL, x, t, w, r, ii, 0.0, expected)
/* both F.cross_entropy and F.nll_loss */
#define LOSS_FAILS(x, t, w, r, ii, expected)      \
    do {                                          \
        CE_FAILS(x, t, w, r, ii, 0.0, expected);  \
        NLL_FAILS(x, t, w, r, ii, expected);      \
    } while (0)

#define MSG_WEIGHT(classes, shape)                                                    \
    "weight tensor should be defined either for all " classes " classes or no classes " \
    "but got weight tensor of shape: " shape
#define MSG_BATCH(n, m) "Expected input batch_size (" n ") to match target batch_size (" m ")."
#define MSG_MULTI "0D or 1D target tensor expected, multi-target not supported"
#define MSG_IGNORE_PROB "ignore_index is not supported for floating point target"
#define MSG_SMOOTHING(got) "label_smoothing must be between 0.0 and 1.0. Got: " got
#define MSG_PROB_DTYPE(type) \
    "Expected floating point type for target with class probabilities, got " type
#define MSG_NULL "tc: NULL argument, but no earlier call failed"

/* Targets out of bounds (FACTS c.1), each through every path and every
   reduction named: x = X35 (float32, requires grad), C = 5. Section c
   records cross_entropy's messages; LOSS_FAILS also asserts nll_loss's,
   which t.6 records. */
START_TEST(test_error_target_out_of_bounds)
{
    tc_tensor *x = x35(TC_FLOAT32, true), *x64 = x35(TC_FLOAT64, true);
    tc_tensor *x3 = tensor_of(S(2, 4, 3), TC_FLOAT32, D(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                                                        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0), true);
    tc_tensor *x4 = K(tc_zeros(S(2, 3, 2, 2), TC_FLOAT32));
    tc_tensor *x5 = K(tc_zeros(S(2, 3, 2, 1, 2), TC_FLOAT32));
    tc_tensor *x0 = K(tc_select(x, 0, 0));

    /* c.1.1 - c.1.4, c.1.8, c.1.10: [1, 5, 4], [1, -1, 4] */
    for (tc_reduction r = NONE; r <= SUM; r++) {
        LOSS_FAILS(x, TGT(S(3), 1, 5, 4), NULL, r, -100, "Target 5 is out of bounds.");
        LOSS_FAILS(x64, TGT(S(3), 1, -1, 4), NULL, r, -100, "Target -1 is out of bounds.");
    }
    /* c.1.5: the first bad target in order ([1, 7, 5] -> 7; [1, 5, 7] -> 5, t.5) */
    LOSS_FAILS(x, TGT(S(3), 1, 7, 5), NULL, MEAN, -100, "Target 7 is out of bounds.");
    LOSS_FAILS(x, TGT(S(3), 1, 5, 7), NULL, MEAN, -100, "Target 5 is out of bounds.");
    /* c.1.6, c.1.12, c.1.13: with label smoothing; c.1.7: with a weight */
    CE_FAILS(x, TGT(S(3), 1, 5, 4), NULL, MEAN, -100, 0.1, "Target 5 is out of bounds.");
    CE_FAILS(x, TGT(S(3), 1, -1, 4), NULL, MEAN, -100, 0.1, "Target -1 is out of bounds.");
    CE_FAILS(x, TGT(S(3), 1, 5, 4), NULL, NONE, -100, 0.1, "Target 5 is out of bounds.");
    LOSS_FAILS(x, TGT(S(3), 1, 5, 4), w5(TC_FLOAT32), MEAN, -100, "Target 5 is out of bounds.");
    /* c.1.9: -5; c.1.11: -100 is a target like any other when ignore_index is 1 */
    LOSS_FAILS(x, TGT(S(3), 1, -5, 4), NULL, MEAN, -100, "Target -5 is out of bounds.");
    LOSS_FAILS(x, TGT(S(3), 1, -100, 4), NULL, MEAN, 1, "Target -100 is out of bounds.");
    /* c.1.14, c.1.15: unbatched */
    LOSS_FAILS(x0, TGT(S0, 5), NULL, MEAN, -100, "Target 5 is out of bounds.");
    LOSS_FAILS(x0, TGT(S0, -1), NULL, MEAN, -100, "Target -1 is out of bounds.");
    /* c.1.16 - c.1.21: K-dimensional inputs */
    LOSS_FAILS(x3, TGT(S(2, 3), 0, 1, 2, 3, 4, 0), NULL, MEAN, -100, "Target 4 is out of bounds.");
    LOSS_FAILS(x3, TGT(S(2, 3), 0, -1, 2, 3, 1, 0), NULL, MEAN, -100,
               "Target -1 is out of bounds.");
    LOSS_FAILS(x3, TGT(S(2, 3), 0, 1, 2, 3, 4, 0), NULL, NONE, -100, "Target 4 is out of bounds.");
    LOSS_FAILS(x4, TGT(S(2, 2, 2), 0, 1, 2, 0, 1, 3, 0, 0), NULL, MEAN, -100,
               "Target 3 is out of bounds.");
    LOSS_FAILS(x4, TGT(S(2, 2, 2), 0, 1, 2, 0, 1, 3, 0, 0), NULL, NONE, -100,
               "Target 3 is out of bounds.");
    LOSS_FAILS(x5, TGT(S(2, 2, 1, 2), 0, 1, 2, 0, 1, 3, 0, 0), NULL, MEAN, -100,
               "Target 3 is out of bounds.");
    /* c.1.22: 2**40 */
    LOSS_FAILS(x, TGT(S(3), 1, INT64_C(1099511627776), 4), NULL, MEAN, -100,
               "Target 1099511627776 is out of bounds.");
    /* t.5: a (3, 0) input has no class 0; a zero weight does not make a
       target valid */
    LOSS_FAILS(K(tc_zeros(S(3, 0), TC_FLOAT32)), TGT(S(3), 0, 0, 0), NULL, MEAN, -100,
               "Target 0 is out of bounds.");
    LOSS_FAILS(x, TGT(S(3), 1, 0, 7), K(tc_zeros(S(5), TC_FLOAT32)), MEAN, -100,
               "Target 7 is out of bounds.");
    ck_assert_ptr_null(ag_grad(x));
}
END_TEST

/* The weight (FACTS c.2, c.6.21, b.13): its size for 1-D/2-D inputs,
   another text for K-dim inputs (nll_loss2d), prefixed 'cross_entropy: '
   for probability targets; its dtype; NaN weights are not checked; a
   weight that requires grad is refused for class targets. */
START_TEST(test_error_weight)
{
    tc_tensor *x = x35(TC_FLOAT32, true), *t = T3(), *p = p35(TC_FLOAT32);
    tc_tensor *wg = w5(TC_FLOAT32);

    LOSS_FAILS(x, t, K(tc_ones(S(4), TC_FLOAT32)), MEAN, -100, MSG_WEIGHT("5", "[4]"));
    CE_FAILS(x, t, K(tc_ones(S(6), TC_FLOAT32)), MEAN, -100, 0.0, MSG_WEIGHT("5", "[6]"));
    CE_FAILS(x, t, K(tc_ones(S(5, 1), TC_FLOAT32)), MEAN, -100, 0.0, MSG_WEIGHT("5", "[5, 1]"));
    CE_FAILS(x, t, K(tc_ones(S(1, 5), TC_FLOAT32)), MEAN, -100, 0.0, MSG_WEIGHT("5", "[1, 5]"));
    CE_FAILS(x, t, C32(S0, 1.0), MEAN, -100, 0.0, MSG_WEIGHT("5", "[]"));
    CE_FAILS(x, t, K(tc_ones(S(4), TC_FLOAT32)), MEAN, -100, 0.1, MSG_WEIGHT("5", "[4]"));
    CE_FAILS(x, t, K(tc_ones(S(4), TC_FLOAT32)), NONE, -100, 0.0, MSG_WEIGHT("5", "[4]"));
    CE_FAILS(x, p, K(tc_ones(S(4), TC_FLOAT32)), MEAN, -100, 0.0,
             "cross_entropy: " MSG_WEIGHT("5", "[4]"));
    CE_FAILS(x, p, K(tc_ones(S(6), TC_FLOAT32)), MEAN, -100, 0.0,
             "cross_entropy: " MSG_WEIGHT("5", "[6]"));
    LOSS_FAILS(K(tc_zeros(S(2, 3, 2, 2), TC_FLOAT32)), K(tc_zeros(S(2, 2, 2), TC_INT64)),
               K(tc_ones(S(4), TC_FLOAT32)), MEAN, -100,
               "weight tensor should be defined either for all or no classes");
    LOSS_FAILS(x, t, K(tc_ones(S(5), TC_FLOAT64)), MEAN, -100,
               "expected scalar type Float but found Double");
    CE_FAILS(x35(TC_FLOAT64, true), t, K(tc_ones(S(5), TC_FLOAT32)), MEAN, -100, 0.0,
             "expected scalar type Double but found Float");
    CE_FAILS(x, t, K(tc_ones(S(5), TC_INT64)), MEAN, -100, 0.0,
             "expected scalar type Float but found Long");
    /* c.2.13: probabilities take a float64 weight and promote: 1.9333386992414792
       (float64, from float32 log-probabilities) */
    for (loss_path path = BY_COMPOSED; path <= LAST_CE; path++)
        EXPECT_MIXED(K(call_path(path, x, p, K(tc_ones(S(5), TC_FLOAT64)), MEAN, -100, 0.0)), S0,
                     1.9333386992414792);
    /* c.2.16: NaN weights -> nan */
    for (loss_path path = BY_COMPOSED; path <= LAST_CE; path++)
        EXPECT_T(K(call_path(path, x, t, K(tc_full(S(5), NAN, TC_FLOAT32)), MEAN, -100, 0.0)),
                 TC_FLOAT32, S0, NAN);
    /* b.13.1 - b.13.3 */
    OK(ag_set_requires_grad(wg, true));
    LOSS_FAILS(x, t, wg, MEAN, -100,
               "The function 'nll_loss_forward' is not differentiable with respect to argument "
               "'weight'. This input cannot have requires_grad True.");
    CE_FAILS(x, t, wg, MEAN, -100, 0.1,
             "The function 'nll_loss_forward' is not differentiable with respect to argument "
             "'weight'. This input cannot have requires_grad True.");
}
END_TEST

/* Shapes (FACTS c.3, c.5.1-2, c.6.4-8, c.6.20, c.8.1-4): x = X35,
   X3d (2, 4, 3), X4d (2, 3, 2, 2), X5d (2, 3, 2, 1, 2). Note c.3.17's text:
   a space before the comma and no closing parenthesis, as PyTorch has it. */
START_TEST(test_error_shapes)
{
    tc_tensor *x = x35(TC_FLOAT32, true), *x0 = K(tc_select(x, 0, 0));
    tc_tensor *x3 = K(tc_zeros(S(2, 4, 3), TC_FLOAT32));
    tc_tensor *x4 = K(tc_zeros(S(2, 3, 2, 2), TC_FLOAT32));
    tc_tensor *x5 = K(tc_zeros(S(2, 3, 2, 1, 2), TC_FLOAT32));
    tc_tensor *s = X32(S0, 1.0);

#define Z(...) K(tc_zeros(S(__VA_ARGS__), TC_INT64))
    for (tc_reduction r = NONE; r <= SUM; r++)
        LOSS_FAILS(x, TGT(S(2), 1, 0), NULL, r, -100, MSG_BATCH("3", "2"));      /* c.3.1-2 */
    CE_FAILS(x, Z(4), NULL, MEAN, -100, 0.0, MSG_BATCH("3", "4"));               /* c.3.3 */
    LOSS_FAILS(x, Z(3, 1), NULL, MEAN, -100, MSG_MULTI);                          /* c.3.4, 6 */
    CE_FAILS(x, Z(1, 3), NULL, MEAN, -100, 0.0, MSG_BATCH("3", "1"));            /* c.3.5 */
    CE_FAILS(x, TGT(S0, 1), NULL, MEAN, -100, 0.0, MSG_BATCH("3", "0"));         /* c.3.7 */
    LOSS_FAILS(x0, Z(1), NULL, MEAN, -100, "size mismatch (got input: [5], target: [1])");
    CE_FAILS(x0, Z(5), NULL, MEAN, -100, 0.0, MSG_PROB_DTYPE("Long"));           /* c.3.9 */
    LOSS_FAILS(x3, Z(2, 4), NULL, MEAN, -100, "Expected target size [2, 3], got [2, 4]");
    CE_FAILS(x3, Z(2, 3, 1), NULL, MEAN, -100, 0.0, "Expected target size [2, 3], got [2, 3, 1]");
    CE_FAILS(x3, Z(3, 3), NULL, MEAN, -100, 0.0, MSG_BATCH("2", "3"));           /* c.3.13 */
    CE_FAILS(x3, Z(2), NULL, MEAN, -100, 0.0, "Expected target size [2, 3], got [2]");
    NLL_FAILS(x3, Z(2, 3, 4), NULL, MEAN, -100, "Expected target size [2, 3], got [2, 3, 4]");
    CE_FAILS(x4, Z(2, 2, 3), NULL, MEAN, -100, 0.0,
             "size mismatch (got input: [2, 3, 2, 2] , target: [2, 2, 3]");     /* c.3.17 */
    CE_FAILS(x4, Z(2, 2), NULL, MEAN, -100, 0.0,
             "only batches of spatial targets supported (3D tensors) but got targets of "
             "dimension: 2");                                                     /* c.3.18 */
    NLL_FAILS(x4, Z(3, 2, 2), NULL, MEAN, -100, MSG_BATCH("2", "3"));            /* c.3.19 */
    CE_FAILS(x5, Z(2, 2, 1, 3), NULL, MEAN, -100, 0.0,
             "Expected target size [2, 2, 1, 2], got [2, 2, 1, 3]");             /* c.3.20 */
    CE_FAILS(x5, Z(3, 2, 1, 2), NULL, MEAN, -100, 0.0, MSG_BATCH("2", "3"));     /* c.3.21 */
    CE_FAILS(x, Z(0), NULL, MEAN, -100, 0.0, MSG_BATCH("3", "0"));               /* c.3.22 */
    CE_FAILS(K(tc_zeros(S(0, 5), TC_FLOAT32)), Z(3), NULL, MEAN, -100, 0.0, MSG_BATCH("0", "3"));
    NLL_FAILS(x, Z(3, 5), NULL, MEAN, -100, MSG_MULTI);                          /* c.5.1 */
    NLL_FAILS(x, p35(TC_FLOAT32), NULL, MEAN, -100, MSG_MULTI);                  /* c.5.2 */
    /* c.6.4 - c.6.8: probabilities of another shape are class targets */
    CE_FAILS(x, K(tc_zeros(S(3, 4), TC_FLOAT32)), NULL, MEAN, -100, 0.0, MSG_MULTI);
    CE_FAILS(x, K(tc_zeros(S(2, 5), TC_FLOAT32)), NULL, MEAN, -100, 0.0, MSG_BATCH("3", "2"));
    CE_FAILS(x, K(tc_zeros(S(3, 5, 1), TC_FLOAT32)), NULL, MEAN, -100, 0.0, MSG_MULTI);
    CE_FAILS(x, K(tc_zeros(S(5, 3), TC_FLOAT32)), NULL, MEAN, -100, 0.0, MSG_BATCH("3", "5"));
    CE_FAILS(x, K(tc_zeros(S(15), TC_FLOAT32)), NULL, MEAN, -100, 0.0, MSG_BATCH("3", "15"));
    CE_FAILS(x4, K(tc_zeros(S(2, 3, 2, 1), TC_FLOAT32)), NULL, MEAN, -100, 0.0,
             "only batches of spatial targets supported (3D tensors) but got targets of "
             "dimension: 4");                                                     /* c.6.20 */
    /* c.8.1 - c.8.4: a 0-D input */
    CE_FAILS(s, TGT(S0, 0), NULL, MEAN, -100, 0.0, MSG_PROB_DTYPE("Long"));
    CE_FAILS(s, Z(1), NULL, MEAN, -100, 0.0,
             "Dimension out of range (expected to be in range of [-1, 0], but got 1)");
    CE_FAILS(s, C32(S0, 1.0), NULL, MEAN, -100, 0.0,
             "Dimension specified as 1 but tensor has no dimensions");
    NLL_FAILS(s, TGT(S0, 0), NULL, MEAN, -100, "Expected 1 or more dimensions (got 0)");
#undef Z
}
END_TEST

/* dtypes (FACTS c.4, c.6.9-14, c.8.5-8): a float target not of the
   input's shape is taken for class indices; an integer one of the input's
   shape for probabilities; an integer or bool input fails in log_softmax
   (cross_entropy) or in nll_loss's kernel. Probabilities of another
   floating dtype than the input promote the loss. */
START_TEST(test_error_dtypes)
{
    tc_tensor *x = x35(TC_FLOAT32, true), *x0 = K(tc_select(x, 0, 0));
    tc_tensor *i = K(tc_zeros(S(3, 5), TC_INT64)), *b = K(tc_zeros(S(3, 5), TC_BOOL));

    LOSS_FAILS(x, K(tc_zeros(S(3), TC_FLOAT32)), NULL, MEAN, -100,
               "expected scalar type Long but found Float");                     /* c.4.1-2 */
    CE_FAILS(x, K(tc_zeros(S(3), TC_FLOAT64)), NULL, MEAN, -100, 0.0,
             "expected scalar type Long but found Double");                      /* c.4.3 */
    CE_FAILS(x, K(tc_zeros(S(3), TC_BOOL)), NULL, MEAN, -100, 0.0,
             "expected scalar type Long but found Bool");                        /* c.4.8 */
    CE_FAILS(x, K(tc_zeros(S(2), TC_FLOAT32)), NULL, MEAN, -100, 0.0, MSG_BATCH("3", "2"));
    CE_FAILS(x0, C32(S0, 1.0), NULL, MEAN, -100, 0.0,
             "expected scalar type Long but found Float");                       /* c.4.12 */
    CE_FAILS(K(tc_zeros(S(2, 4, 3), TC_FLOAT32)), K(tc_zeros(S(2, 3), TC_FLOAT32)), NULL, MEAN,
             -100, 0.0, "expected scalar type Long but found Float");            /* c.4.14 */
    CE_FAILS(K(tc_zeros(S(2, 3, 2, 2), TC_FLOAT32)), K(tc_zeros(S(2, 2, 2), TC_FLOAT32)), NULL,
             MEAN, -100, 0.0, "expected scalar type Long but found Float");      /* c.4.16 */
    CE_FAILS(x, i, NULL, MEAN, -100, 0.0, MSG_PROB_DTYPE("Long"));               /* c.6.9 */
    CE_FAILS(x, b, NULL, MEAN, -100, 0.0, MSG_PROB_DTYPE("Bool"));               /* c.6.11 */
    CE_FAILS(i, T3(), NULL, MEAN, -100, 0.0,
             "\"log_softmax_lastdim_kernel_impl\" not implemented for 'Long'");   /* c.8.5 */
    NLL_FAILS(i, T3(), NULL, MEAN, -100, "\"nll_loss_out_frame\" not implemented for 'Long'");
    CE_FAILS(i, p35(TC_FLOAT32), NULL, MEAN, -100, 0.0,
             "\"log_softmax_lastdim_kernel_impl\" not implemented for 'Long'");   /* c.8.7 */
    CE_FAILS(b, T3(), NULL, MEAN, -100, 0.0,
             "\"log_softmax_lastdim_kernel_impl\" not implemented for 'Bool'");   /* c.8.8 */
    /* c.6.12: float32 input, P.double() (P35 rounded to float32, then
       float64): 1.9333386839712416 (float64); c.6.13: float64 input,
       float32 P: 1.9333386959087846 */
    for (loss_path path = BY_COMPOSED; path <= LAST_CE; path++) {
        tc_tensor *p64 = K(tc_empty(S(3, 5), TC_FLOAT64)), *p32 = p35(TC_FLOAT32);

        for (int64_t k = 0; k < 15; k++)
            tc_store(p64, k, tc_load(p32, k));
        EXPECT_MIXED(K(call_path(path, x, p64, NULL, MEAN, -100, 0.0)), S0, 1.9333386839712416);
        EXPECT_T(K(call_path(path, x35(TC_FLOAT64, true), p35(TC_FLOAT32), NULL, MEAN, -100,
                             0.0)),
                 TC_FLOAT64, S0, 1.9333386959087846);
    }
}
END_TEST

/* ignore_index with probabilities and label_smoothing (FACTS c.6, c.7):
   ignore_index >= 0 is refused, -1 and -100 are fine (1.9333387613296509);
   label_smoothing above 1 is refused with C++'s %g of it (1.0000001 prints
   'Got: 1', 2.0 'Got: 2'), below 0 or NaN is no smoothing (2.1583385467529297,
   b.1.1's loss). */
START_TEST(test_error_options)
{
    tc_tensor *x = x35(TC_FLOAT32, true), *t = T3(), *p = p35(TC_FLOAT32);

    CE_FAILS(x, p, NULL, MEAN, 1, 0.0, MSG_IGNORE_PROB);                       /* c.6.1 */
    CE_FAILS(x, p, NULL, NONE, 1, 0.0, MSG_IGNORE_PROB);                       /* c.6.15 */
    CE_FAILS(x, p, NULL, MEAN, 0, 0.0, MSG_IGNORE_PROB);
    CE_FAILS(K(tc_select(x, 0, 0)), K(tc_select(p, 0, 0)), NULL, MEAN, 1, 0.0,
             MSG_IGNORE_PROB);                                                  /* c.6.19 */
    CE_FAILS(x, t, NULL, MEAN, -100, 1.5, MSG_SMOOTHING("1.5"));               /* c.7.2 */
    CE_FAILS(x, t, NULL, MEAN, -100, 1.0000001, MSG_SMOOTHING("1"));           /* c.7.3 */
    CE_FAILS(x, p, NULL, MEAN, -100, 1.5, MSG_SMOOTHING("1.5"));               /* c.7.6 */
    CE_FAILS(x, t, NULL, SUM, -100, 2.0, MSG_SMOOTHING("2"));                  /* c.7.11 */
    for (loss_path path = BY_COMPOSED; path <= LAST_CE; path++) {
        EXPECT_T(K(call_path(path, x, p, NULL, MEAN, -1, 0.0)), TC_FLOAT32, S0,
                 1.9333387613296509);                                           /* c.6.2 */
        EXPECT_T(K(call_path(path, x, p, NULL, MEAN, -100, 0.0)), TC_FLOAT32, S0,
                 1.9333387613296509);                                           /* c.6.3 */
        EXPECT_T(K(call_path(path, x, t, NULL, MEAN, -100, -0.1)), TC_FLOAT32, S0,
                 2.1583385467529297);                                           /* c.7.1 */
        EXPECT_T(K(call_path(path, x, t, NULL, MEAN, -100, NAN)), TC_FLOAT32, S0,
                 2.1583385467529297);                                           /* c.7.4 */
        EXPECT_T(K(call_path(path, x, p, NULL, MEAN, -100, -0.1)), TC_FLOAT32, S0,
                 1.9333387613296509);                                           /* c.7.5 */
    }
}
END_TEST

/* When two things are wrong, the one PyTorch 1.13 checks first (FACTS
   c.10, c.6.16-18, c.7.7-10): for class targets label_smoothing > 1 before
   everything; cross_entropy's log_softmax before nll_loss's checks;
   nll_loss: the batch size, the target's dims and size, the weight's size,
   then dtypes (the input's, the weight's, the target's), then the target's
   values. Probability targets: their dtype, ignore_index, the weight's
   size, then label_smoothing. */
START_TEST(test_error_order)
{
    tc_tensor *x = x35(TC_FLOAT32, true), *p = p35(TC_FLOAT32);
    tc_tensor *i = K(tc_zeros(S(3, 5), TC_INT64));
    tc_tensor *w4 = K(tc_ones(S(4), TC_FLOAT32)), *w64 = K(tc_ones(S(5), TC_FLOAT64));

    LOSS_FAILS(x, TGT(S(3), 1, 5, 4), w4, MEAN, -100, MSG_WEIGHT("5", "[4]"));   /* c.10.1 */
    LOSS_FAILS(x, TGT(S(2), 1, 5), NULL, MEAN, -100, MSG_BATCH("3", "2"));       /* c.10.2 */
    LOSS_FAILS(x, TGT(S(3), 1, 5, 4), w64, MEAN, -100,
               "expected scalar type Float but found Double");                   /* c.10.5 */
    LOSS_FAILS(x, K(tc_zeros(S(3), TC_FLOAT32)), w4, MEAN, -100, MSG_WEIGHT("5", "[4]"));
    CE_FAILS(i, TGT(S(2), 1, 0), NULL, MEAN, -100, 0.0,
             "\"log_softmax_lastdim_kernel_impl\" not implemented for 'Long'");   /* c.10.8 */
    NLL_FAILS(i, TGT(S(2), 1, 0), NULL, MEAN, -100, MSG_BATCH("3", "2"));        /* c.10.9 */
    NLL_FAILS(i, TGT(S(3), 1, 5, 4), NULL, MEAN, -100,
              "\"nll_loss_out_frame\" not implemented for 'Long'");              /* c.10.10 */
    CE_FAILS(x, TGT(S(3), 1, 5, 4), w64, MEAN, -100, 0.1,
             "expected scalar type Float but found Double");                     /* c.10.13 */
    CE_FAILS(x, TGT(S(3), 1, -100, 4), w64, MEAN, -100, 0.0,
             "expected scalar type Float but found Double");                     /* c.10.14 */
    CE_FAILS(K(tc_zeros(S(2, 4, 3), TC_FLOAT32)), TGT(S(2, 4), 9, 0, 0, 0, 0, 0, 0, 0), NULL,
             MEAN, -100, 0.0, "Expected target size [2, 3], got [2, 4]");        /* c.10.15 */
    CE_FAILS(x, p, w4, MEAN, -100, 1.5, "cross_entropy: " MSG_WEIGHT("5", "[4]"));
    CE_FAILS(x, i, NULL, MEAN, 1, 0.0, MSG_PROB_DTYPE("Long"));                  /* c.10.19 */
    CE_FAILS(x, TGT(S0, 1), NULL, MEAN, -100, 0.1, MSG_BATCH("3", "0"));         /* c.10.20 */
    CE_FAILS(x, K(tc_zeros(S(3, 1), TC_INT64)), NULL, MEAN, -100, 0.1, MSG_MULTI);
    CE_FAILS(x, K(tc_zeros(S(3, 4), TC_FLOAT32)), NULL, MEAN, 1, 0.0, MSG_MULTI); /* c.6.16 */
    CE_FAILS(x, K(tc_zeros(S(3, 4), TC_FLOAT32)), NULL, MEAN, -100, 1.5, MSG_SMOOTHING("1.5"));
    CE_FAILS(x, p, NULL, MEAN, 1, 1.5, MSG_IGNORE_PROB);                        /* c.6.18 */
    CE_FAILS(x, TGT(S(2), 1, 0), NULL, MEAN, -100, 1.5, MSG_SMOOTHING("1.5"));  /* c.7.7 */
    CE_FAILS(x, TGT(S(3), 1, 5, 4), NULL, MEAN, -100, 1.5, MSG_SMOOTHING("1.5"));
    CE_FAILS(x, K(tc_zeros(S(3), TC_FLOAT32)), NULL, MEAN, -100, 1.5, MSG_SMOOTHING("1.5"));
    CE_FAILS(x, T3(), w4, MEAN, -100, 1.5, MSG_SMOOTHING("1.5"));               /* c.7.10 */
}
END_TEST

/* NULL arguments: the input or the target NULL with no failure pending ->
   chapter 1's 'tc: NULL argument, but no earlier call failed'; with one
   pending, its message passes on; the weight NULL is no weight. The
   kernels answer the same way. */
START_TEST(test_error_null)
{
    tc_tensor *x = x35(TC_FLOAT32, true), *t = T3();
    tc_tensor *out = NULL, *total = NULL;

    for (loss_path path = BY_COMPOSED; path <= BY_NLL; path++) {
        if (path == BY_FUSED && !CH06_FUSED)
            continue;
        path_fails(__LINE__, path, NULL, t, NULL, MEAN, -100, 0.0, MSG_NULL);
        path_fails(__LINE__, path, x, NULL, NULL, MEAN, -100, 0.0, MSG_NULL);
        tc_fail("earlier");
        ck_assert_ptr_null(call_path(path, x, NULL, NULL, MEAN, -100, 0.0));
        ck_assert_str_eq(tc_error(), "earlier");
        tc_clear_error();
    }
    EXPECT_FAILS(ag_softmax(NULL, 0), MSG_NULL);
    EXPECT_FAILS(ag_log_softmax(NULL, 0), MSG_NULL);
    EXPECT_FAILS(ag_logsumexp(NULL, S(0), false), MSG_NULL);
    EXPECT_FAILS(tc_softmax(NULL, 0), MSG_NULL);
    EXPECT_FAILS(tc_log_softmax(NULL, 0), MSG_NULL);
    EXPECT_FAILS(tc_logsumexp(NULL, S(0), false), MSG_NULL);
    EXPECT_FAILS(tc_softmax_backward_data(NULL, x, 1), MSG_NULL);
    EXPECT_FAILS(tc_log_softmax_backward_data(x, NULL, 1), MSG_NULL);
    EXPECT_FAIL_INT(tc_nll_loss_forward(NULL, t, NULL, MEAN, -100, &out, &total), MSG_NULL);
    ck_assert_ptr_null(out);
    ck_assert_ptr_null(total);
    EXPECT_FAILS(tc_nll_loss_backward(NULL, x, t, NULL, MEAN, -100, x), MSG_NULL);
}
END_TEST

/* After each failure the caller goes on: the same tensors give PyTorch's
   answer (FACTS b.1.1: F.cross_entropy(X35, T3) = 2.1583385467529297 and
   its input gradient). */
START_TEST(test_error_then_go_on)
{
    tc_tensor *x = x35(TC_FLOAT32, true);
    tc_tensor *t = T3(), *bad = TGT(S(3), 1, 5, 4);
    tc_tensor *y;

    for (loss_path path = BY_COMPOSED; path <= LAST_CE; path++) {
        path_fails(__LINE__, path, x, bad, NULL, MEAN, -100, 0.0, "Target 5 is out of bounds.");
        path_fails(__LINE__, path, x, t, NULL, MEAN, -100, 1.5, MSG_SMOOTHING("1.5"));
        y = K(call_path(path, x, t, NULL, MEAN, -100, 0.0));
        EXPECT_T(y, TC_FLOAT32, S0, 2.1583385467529297);
        OK(ag_backward(y, NULL, false));
        EXPECT_GRAD(x, S(3, 5), 0.0488438606262207, -0.32243481278419495, 0.21890299022197723,
                    0.03274101763963699, 0.021946962922811508, -0.27301931381225586,
                    0.024521857500076294, 0.009021087549626827, 0.01816624030470848,
                    0.2213101089000702, 0.023670263588428497, 0.17490088939666748,
                    0.04313002526760101, 0.00477894302457571, -0.24648012220859528);
        OK(ag_zero_grad(x, true));
    }
}
END_TEST

/* -------------------------------- the fused node against chapter 5's ops */

/* Cross-entropy written with chapter 5's operations alone, against a
   target distribution q (a constant of x's shape) and a divisor:
   m = x.max(1, keepdim=True).values.detach(); z = x - m;
   logp = z - z.exp().sum(1, keepdim=True).log();
   loss = -(logp * q).sum() / divisor. With q[i][c] = ((1 - eps) [c == t_i]
   + eps / C) w_c this is FACTS b.12's formula: mean divides by the sum of
   the targets' weights, sum by 1; probabilities are q = p (mean: N).
   Temporaries are released as they go. */
static tc_tensor *ch05_cross_entropy(const tc_tensor *x, const tc_tensor *q, double divisor)
{
    tc_tensor *values = NULL, *indices = NULL, *m, *z, *e, *s, *l, *logp, *prod, *total, *neg;
    tc_tensor *loss;

    OK(ag_max_dim(x, 1, true, &values, &indices));
    m = ag_detach(values);
    z = ag_sub(x, m);
    e = ag_exp(z);
    s = ag_sum_dims(e, S(1), true);
    l = ag_log(s);
    logp = ag_sub(z, l);
    prod = ag_mul(logp, q);
    total = ag_sum(prod);
    neg = ag_neg(total);
    loss = ag_div_scalar(neg, divisor);
    {
        tc_tensor *all[] = { values, indices, m, z, e, s, l, logp, prod, total, neg };
        for (size_t k = 0; k < sizeof all / sizeof all[0]; k++)
            tc_release(all[k]);
    }
    return loss;
}

/* x = X35 (float64) through the fused node, the composed ag_cross_entropy
   and chapter 5's composition: the same loss and x.grad as PyTorch
   (FACTS b.1.4: mean; b.1.10: weight W5, mean (divisor 0.2 + 1 + 1.5 =
   2.7); b.3.19: W5 and label_smoothing 0.1; b.4.11: P35, mean; b.8.12:
   logits of +-1000, targets [2, 0], sum, where the max subtracted is what
   keeps exp finite). */
START_TEST(test_fused_against_chapter5_ops)
{
    static const double w5v[5] = { 0.2, 1.0, 0.5, 2.0, 1.5 };
    static const double x35v[15] = { 0.5, -1.0, 2.0, 0.1, -0.3, 1.2, 0.3, -0.7,
                                     0.0, 2.5, -0.4, 1.6, 0.2, -2.0, 0.9 };
    static const double p35v[15] = { 0.1, 0.2, 0.3, 0.4, 0.0, 0.5, 0.0, 0.0,
                                     0.25, 0.25, 0.2, 0.2, 0.2, 0.2, 0.2 };
    static const double big[6] = { 1000.0, 0.0, -1000.0, 0.0, 1000.0, 1000.0 };
    const struct {
        const char *id;
        int64_t n, classes;
        const double *x;
        int64_t t[3];
        bool weighted, prob;
        tc_reduction reduction;
        double eps, divisor, loss, grad[15];
    } cases[] = {
        { "b.1.4", 3, 5, x35v, { 1, 0, 4 }, false, false, MEAN, 0.0, 3.0, 2.1583386744228243,
          { 0.04884385443371991, -0.3224347962712708, 0.21890296856878594, 0.0327410147525692,
            0.02194695851619573, -0.2730192931157108, 0.024521858808859584,
            0.009021087715088274, 0.018166239810587667, 0.2213101067811753, 0.02367026137386115,
            0.17490088916781132, 0.04313002825946966, 0.004778943351405952,
            -0.2464801221525481 } },
        { "b.1.10", 3, 5, x35v, { 1, 0, 4 }, true, false, MEAN, 0.0, 2.7, 2.140672342994283,
          { 0.054270949370799904, -0.35826088474585643, 0.24322552063198438,
            0.036378905280632444, 0.0243855094624397, -0.060670954025713514,
            0.005449301957524352, 0.002004686158908505, 0.004036942180130593,
            0.04918002372915007, 0.039450435623101916, 0.2915014819463522, 0.07188338043244945,
            0.007964905585676587, -0.41080020358758024 } },
        { "b.3.19", 3, 5, x35v, { 1, 0, 4 }, true, false, MEAN, 0.1, 2.7, 2.1979390592207517,
          { 0.05300655168680163, -0.3285828171737288, 0.24049471901080866,
            0.021709606086940163, 0.013371940389178353, -0.04911571767947616,
            0.00033060137227717315, -0.0008570493580536258, -0.009082356919029371,
            0.05872452258428199, 0.036759140782511975, 0.27515469575925666,
            0.06597525306215062, -0.007094166333765643, -0.3707949232701536 } },
        { "b.4.11", 3, 5, x35v, { 0, 0, 0 }, false, true, MEAN, 0.0, 3.0, 1.9333386744228243,
          { 0.015510521100386586, -0.055768129604604144, 0.11890296856878599,
            -0.10059231858076413, 0.021946958516195735, -0.10635262644904415,
            0.024521858808859584, 0.009021087715088274, -0.06516709352274566,
            0.13797677344784198, -0.04299640529280552, 0.10823422250114464,
            -0.023536638407197004, -0.06188772331526071, 0.020186544514118537 } },
        { "b.8.12", 2, 3, big, { 2, 0 }, false, false, SUM, 0.0, 1.0, 3000.69314718056,
          { 1.0, 0.0, -1.0, -1.0, 0.5, 0.5 } },
    };

    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        int64_t n = cases[k].n, classes = cases[k].classes;
        tc_shape shape = S(n, classes);
        tc_tensor *q = K(tc_zeros(shape, TC_FLOAT64)), *target, *w;
        tc_tensor *x[3], *y[3];

        for (int64_t i = 0; i < n; i++)
            for (int64_t c = 0; c < classes; c++) {
                double wc = cases[k].weighted ? w5v[c] : 1.0, eps = cases[k].eps;
                tc_store(q, i * classes + c,
                         cases[k].prob ? p35v[i * classes + c]
                                       : ((c == cases[k].t[i] ? 1.0 - eps : 0.0) +
                                          eps / (double)classes) * wc);
            }
        target = cases[k].prob ? tensor_of(shape, TC_FLOAT64, p35v, false)
                               : testing_int64_tensor(S(n), cases[k].t);
        w = cases[k].weighted ? tensor_of(S(5), TC_FLOAT64, w5v, false) : NULL;
        for (int path = CH06_FUSED ? 0 : 1; path < 3; path++) {
            x[path] = tensor_of(shape, TC_FLOAT64, cases[k].x, true);
            y[path] = K(path == 0   ? call_path(BY_FUSED, x[path], target, w,
                                                cases[k].reduction, -100, cases[k].eps)
                        : path == 1 ? ag_cross_entropy(x[path], target, w, cases[k].reduction,
                                                       -100, cases[k].eps)
                                    : ch05_cross_entropy(x[path], q, cases[k].divisor));
            ck_assert_msg(y[path] != NULL, "%s, path %d: %s", cases[k].id, path,
                          tc_error() ? tc_error() : "?");
            expect_values(__LINE__, cases[k].id, y[path], TC_FLOAT64, S0, D(cases[k].loss));
            OK(ag_backward(y[path], NULL, false));
            expect_values(__LINE__, cases[k].id, ag_grad(x[path]), TC_FLOAT64, shape,
                          cases[k].grad);
        }
        if (CH06_FUSED)
            expect_same(__LINE__, cases[k].id, ag_grad(x[0]), ag_grad(x[1]));
        expect_same(__LINE__, cases[k].id, ag_grad(x[1]), ag_grad(x[2]));
        testing_release_kept();
    }
}
END_TEST

/* With probability targets PyTorch differentiates the target too (FACTS
   b.13.4: F.cross_entropy(X35, P35) with P35 requiring grad, float32,
   mean: target.grad = -log_softmax(x) / N; b.13.5: weight W5,
   label_smoothing 0.2, sum). The fused node must deliver the same: it
   records an edge to the target when the target requires grad. */
START_TEST(test_probability_target_gradient)
{
    for (loss_path path = BY_COMPOSED; path <= LAST_CE; path++) {
        tc_tensor *x = x35(TC_FLOAT32, true), *p = p35(TC_FLOAT32), *y;

        OK(ag_set_requires_grad(p, true));
        y = K(call_path(path, x, p, NULL, MEAN, -100, 0.0));
        EXPECT_T(y, TC_FLOAT32, S0, 1.9333387613296509);
        OK(ag_backward(y, NULL, false));
        EXPECT_GRAD(p, S(3, 5), 0.640171468257904, 1.1401715278625488, 0.14017146825790405,
                    0.7735048532485962, 0.9068381190299988, 0.5698593854904175,
                    0.8698593974113464, 1.2031927108764648, 0.9698593616485596,
                    0.13652604818344116, 0.881641149520874, 0.214974507689476,
                    0.6816412210464478, 1.414974570274353, 0.4483078420162201);
        EXPECT_GRAD(x, S(3, 5), 0.015510531142354012, -0.05576813220977783, 0.11890300363302231,
                    -0.10059232264757156, 0.021946964785456657, -0.10635262727737427,
                    0.024521857500076294, 0.009021087549626827, -0.06516709923744202,
                    0.1379767656326294, -0.04299640655517578, 0.1082342267036438,
                    -0.023536643013358116, -0.061887726187705994, 0.020186549052596092);
        x = x35(TC_FLOAT32, true);
        p = p35(TC_FLOAT32);
        OK(ag_set_requires_grad(p, true));
        y = K(call_path(path, x, p, w5(TC_FLOAT32), SUM, -100, 0.2));
        EXPECT_T(y, TC_FLOAT32, S0, 7.034852981567383);
        OK(ag_backward(y, NULL, false));
        EXPECT_GRAD(p, S(3, 5), 0.30728229880332947, 2.7364115715026855, 0.16820576786994934,
                    3.7128231525421143, 3.2646172046661377, 0.2735324800014496, 2.0876624584198,
                    1.4438313245773315, 4.655324935913086, 0.49149376153945923,
                    0.423187792301178, 0.5159388184547424, 0.8179694414138794, 6.791877746582031,
                    1.6139081716537476);
    }
}
END_TEST

/* With probability targets PyTorch multiplies by the weight in the graph,
   so a weight that requires grad gets a gradient (FACTS t.7:
   F.cross_entropy(X35, P35, weight=W5 requiring grad, label_smoothing=0.1),
   float32, mean); the fused node must give it too. */
START_TEST(test_probability_weight_gradient)
{
    for (loss_path path = BY_COMPOSED; path <= LAST_CE; path++) {
        tc_tensor *x = x35(TC_FLOAT32, true), *w = w5(TC_FLOAT32), *y;

        OK(ag_set_requires_grad(w, true));
        y = K(call_path(path, x, p35(TC_FLOAT32), w, MEAN, -100, 0.1));
        EXPECT_T(y, TC_FLOAT32, S0, 2.3328187465667725);
        OK(ag_backward(y, NULL, false));
        EXPECT_GRAD(w, S(5), 0.5145809650421143, 0.28842636942863464, 0.2010418176651001,
                    0.814542293548584, 0.1412471979856491);
        EXPECT_GRAD(x, S(3, 5), 0.049179013818502426, -0.054057054221630096, 0.2049374133348465,
                    -0.21545197069644928, 0.015392635017633438, 0.027864892035722733,
                    0.01740153506398201, 0.005520862992852926, -0.14550316333770752,
                    0.09471585601568222, 0.011283738538622856, 0.1152302473783493,
                    0.011521890759468079, -0.1283632218837738, -0.009672657586634159);
    }
}
END_TEST

/* --------------------------------------------------------------- gradcheck */

/* A loss as a function of its input (and, for probability targets marked
   `target_is_input`, of its target too) for ag_gradcheck. */
typedef struct {
    loss_path path;
    const tc_tensor *target, *weight;
    tc_reduction reduction;
    int64_t ignore_index;
    double smoothing;
    bool target_is_input;
} gc_loss;

static tc_tensor *gc_loss_fn(tc_tensor *const *in, void *context)
{
    const gc_loss *g = context;

    return call_path(g->path, in[0], g->target_is_input ? in[1] : g->target, g->weight,
                     g->reduction, g->ignore_index, g->smoothing);
}

static void gradcheck_loss(int line, const char *what, loss_path path, tc_tensor *x,
                           const tc_tensor *target, const tc_tensor *weight, tc_reduction r,
                           int64_t ignore_index, double smoothing)
{
    gc_loss g = { path, target, weight, r, ignore_index, smoothing, false };
    ag_gradcheck_mismatch m;

    tc_clear_error();
    ck_assert_msg(ag_gradcheck(gc_loss_fn, &g, 1, &x, &m) == 0,
                  "line %d: gradcheck of %s by %s: %s", line, what, path_names[path],
                  tc_error() ? tc_error() : "?");
}

/* ramp(shape) * 0.9 + 0.01 * k (float64, requires grad): no two logits of a
   row equal, which gradcheck does not need but makes a wrong index show. */
static tc_tensor *gc_input(tc_shape shape)
{
    tc_tensor *x = ramp(shape, TC_FLOAT64, false);

    for (int64_t k = 0; k < testing_numel(shape); k++)
        tc_store(x, k, ramp_value(k) * 0.9 + 0.01 * (double)k);
    OK(ag_set_requires_grad(x, true));
    return x;
}

/* gradcheck(lambda x: F.cross_entropy(x, t, ...), (x,)) passes in PyTorch
   1.13 (FACTS t.4, with x the same values: gc_input(S(4, 5))) for the
   options below; so must the fused node, the composed graph and nll_loss,
   for these and the other combinations (K-dim, unbatched, strided). */
START_TEST(test_gradcheck_losses)
{
    tc_tensor *x = gc_input(S(4, 5));
    tc_tensor *t = TGT(S(4), 3, 0, 4, 1);
    tc_tensor *w = w5(TC_FLOAT64);
    tc_tensor *p = gc_input(S(4, 5));
    tc_tensor *x4 = gc_input(S(2, 3, 2, 2)), *t4 = TGT(S(2, 2, 2), 0, 2, 1, 1, 2, 0, 0, 1);
    tc_tensor *x3 = gc_input(S(2, 3, 4)), *t3 = TGT(S(2, 4), 0, 2, 1, 1, 2, 0, 0, 1);
    tc_tensor *w3 = C64(S(3), 0.25, 1.0, 3.0);
    tc_tensor *x1 = gc_input(S(5)), *t1 = TGT(S0, 2);
    tc_tensor *xt = K(tc_t(gc_input(S(5, 4))));
    tc_tensor *p1 = K(tc_full(S(5), 0.3, TC_FLOAT64));

    /* p: probabilities need not sum to 1; make them positive */
    for (int k = 0; k < 20; k++)
        tc_store(p, k, (double)((k * 5 + 1) % 7) / 8.0);
    OK(ag_set_requires_grad(p, false));
    OK(ag_set_requires_grad(xt, true));
    for (loss_path path = BY_COMPOSED; path <= BY_NLL; path++) {
        bool ce = path != BY_NLL;

        if (path == BY_FUSED && !CH06_FUSED)
            continue;
        gradcheck_loss(__LINE__, "mean", path, x, t, NULL, MEAN, -100, 0.0);
        gradcheck_loss(__LINE__, "sum, weight", path, x, t, w, SUM, -100, 0.0);
        gradcheck_loss(__LINE__, "none, weight, ignore 0", path, x, t, w, NONE, 0, 0.0);
        gradcheck_loss(__LINE__, "K-dim 4-D, weight", path, x4, t4, w3, MEAN, -100, 0.0);
        gradcheck_loss(__LINE__, "K-dim 3-D, none, ignore 2", path, x3, t3, NULL, NONE, 2, 0.0);
        gradcheck_loss(__LINE__, "unbatched, sum", path, x1, t1, NULL, SUM, -100, 0.0);
        gradcheck_loss(__LINE__, "transposed input", path, xt, t, w, MEAN, 1, 0.0);
        if (!ce)
            continue;
        gradcheck_loss(__LINE__, "mean, weight, ignore 1, smoothing 0.3", path, x, t, w, MEAN,
                       1, 0.3);
        gradcheck_loss(__LINE__, "none, smoothing 1", path, x, t, NULL, NONE, -100, 1.0);
        gradcheck_loss(__LINE__, "K-dim, weight, smoothing", path, x4, t4, w3, SUM, -100, 0.15);
        gradcheck_loss(__LINE__, "probabilities, none, smoothing", path, x, p, NULL, NONE, -100,
                       0.1);
        gradcheck_loss(__LINE__, "probabilities, mean, weight", path, x, p, w, MEAN, -100, 0.0);
        gradcheck_loss(__LINE__, "unbatched probabilities", path, x1, p1, NULL, MEAN, -100, 0.0);
    }
    ck_assert_ptr_null(ag_grad(x));
}
END_TEST

/* gradcheck(lambda x, p: F.cross_entropy(x, p, label_smoothing=0.2),
   (x, p)) with p requiring grad passes in PyTorch (FACTS t.4: the target
   is differentiated too). */
START_TEST(test_gradcheck_probability_target)
{
    for (loss_path path = BY_COMPOSED; path <= LAST_CE; path++) {
        tc_tensor *in[2] = { gc_input(S(3, 4)), gc_input(S(3, 4)) };
        gc_loss g = { path, NULL, NULL, MEAN, -100, 0.2, true };

        tc_clear_error();
        ck_assert_msg(ag_gradcheck(gc_loss_fn, &g, 2, in, NULL) == 0, "%s: %s",
                      path_names[path], tc_error() ? tc_error() : "?");
    }
}
END_TEST

typedef struct {
    row_fn fn;
    tc_shape dims;
} gc_softmax;

static tc_tensor *gc_softmax_fn(tc_tensor *const *in, void *context)
{
    const gc_softmax *g = context;

    switch (g->fn) {
    case FN_SOFTMAX:
        return ag_softmax(in[0], g->dims.sizes[0]);
    case FN_LOG_SOFTMAX:
        return ag_log_softmax(in[0], g->dims.sizes[0]);
    case FN_LOGSUMEXP:
        return ag_logsumexp(in[0], g->dims, g->dims.dim > 1);
    }
    return NULL;
}

/* gradcheck of what check_ch06_softmax.h's gradcheck leaves out (it runs
   every dim of a 3-D input and a strided one): a 0-D input, logsumexp
   over two dims with keepdim, a transposed input (FACTS t.4: PyTorch's
   gradcheck passes for these functions). */
START_TEST(test_gradcheck_softmax)
{
    tc_tensor *x3 = gc_input(S(2, 3, 4));
    tc_tensor *xt = K(tc_t(gc_input(S(4, 3))));
    tc_tensor *s = gc_input(S0);
    const struct {
        tc_tensor *x;
        gc_softmax g;
    } checks[] = {
        { x3, { FN_LOGSUMEXP, S(0, 2) } }, { x3, { FN_LOGSUMEXP, S(-1, 0, 1) } },
        { xt, { FN_SOFTMAX, S(1) } },      { xt, { FN_LOG_SOFTMAX, S(0) } },
        { xt, { FN_LOGSUMEXP, S(0, 1) } }, { s, { FN_SOFTMAX, S(0) } },
        { s, { FN_LOG_SOFTMAX, S(-1) } },  { s, { FN_LOGSUMEXP, S(0) } },
    };

    OK(ag_set_requires_grad(xt, true));
    for (size_t k = 0; k < sizeof checks / sizeof checks[0]; k++) {
        tc_tensor *in = checks[k].x;
        tc_clear_error();
        ck_assert_msg(ag_gradcheck(gc_softmax_fn, (void *)&checks[k].g, 1, &in, NULL) == 0,
                      "%s, check %zu: %s", row_fn_names[checks[k].g.fn], k,
                      tc_error() ? tc_error() : "?");
    }
}
END_TEST

/* -------------------------------------------- saved tensors changed in place */

#define MSG_MODIFIED(what, tail)                                                           \
    "one of the variables needed for gradient computation has been modified by an "       \
    "inplace operation: [" what "]" tail " Hint: enable anomaly detection to find the "    \
    "operation that failed to compute its gradient, with "                                 \
    "torch.autograd.set_detect_anomaly(True)."

static void bump(tc_tensor *t, double number)
{
    tc_tensor *n = t->dtype == TC_INT64 ? tc_number((int64_t)number) : tc_number(number);
    tc_tensor *r = ag_add_(t, n);

    ck_assert_msg(r != NULL, "add_ failed: %s", tc_error() ? tc_error() : "?");
    tc_release(r);
    tc_release(n);
}

/* FACTS t.3: x = X35 (float32 leaf), t = T3, a = x * 1, then a.add_(1)
   before backward():
   - F.cross_entropy(a, t): backward works (log_softmax saved its result,
     nll_loss that result), and x.grad is b.1.1's;
   - F.nll_loss(a, t), torch.logsumexp(a, 1).sum(): 'one of the variables
     needed for gradient computation has been modified by an inplace
     operation: [torch.FloatTensor [3, 5]], which is output 0 of
     AddBackward0, is at version 1; expected version 0 instead. Hint: ...';
   - the fused node saves its input as itself (version-checked): the same
     error, where PyTorch's composed graph has none (ours, by design);
   - y = F.softmax(x * 1, 1); s = y.sum(); y.mul_(2): '... which is output
     0 of SoftmaxBackward0, is at version 1 ...' (softmax saves its result);
   - the weight (w.add_(1)), the target (t2.add_(0)) or the probabilities
     (p.add_(1)) changed after F.cross_entropy: '[torch.FloatTensor [5]]
     is at version 1; expected version 0 instead.', '[torch.LongTensor
     [3]] ...', '[torch.FloatTensor [3, 5]] ...'. */
START_TEST(test_saved_tensors_modified)
{
    tc_tensor *x = x35(TC_FLOAT32, true), *t = T3();
    tc_tensor *a, *y;
    const char *modified_a = MSG_MODIFIED("torch.FloatTensor [3, 5]",
                                          ", which is output 0 of AddBackward0, is at version "
                                          "1; expected version 0 instead.");

    a = K(ag_mul_scalar(x, 1));
    y = K(ag_cross_entropy(a, t, NULL, MEAN, -100, 0.0));
    bump(a, 1);
    OK(ag_backward(y, NULL, false));
    EXPECT_GRAD(x, S(3, 5), 0.0488438606262207, -0.32243481278419495, 0.21890299022197723,
                0.03274101763963699, 0.021946962922811508, -0.27301931381225586,
                0.024521857500076294, 0.009021087549626827, 0.01816624030470848,
                0.2213101089000702, 0.023670263588428497, 0.17490088939666748,
                0.04313002526760101, 0.00477894302457571, -0.24648012220859528);
    OK(ag_zero_grad(x, true));

#if CH06_FUSED
    a = K(ag_mul_scalar(x, 1));
    y = K(ag_cross_entropy_fused(a, t, NULL, MEAN, -100, 0.0));
    bump(a, 1);
    EXPECT_FAIL_INT(ag_backward(y, NULL, false), modified_a);
#endif
    a = K(ag_mul_scalar(x, 1));
    y = K(ag_nll_loss(a, t, NULL, MEAN, -100));
    bump(a, 1);
    EXPECT_FAIL_INT(ag_backward(y, NULL, false), modified_a);
    a = K(ag_mul_scalar(x, 1));
    y = K(ag_sum(K(ag_logsumexp(a, S(1), false))));
    bump(a, 1);
    EXPECT_FAIL_INT(ag_backward(y, NULL, false), modified_a);
    ck_assert_ptr_null(ag_grad(x));

    /* softmax's saved result */
    y = K(ag_softmax(K(ag_mul_scalar(x, 1)), 1));
    {
        tc_tensor *total = K(ag_sum(y));
        tc_tensor *two = K(tc_number(2.0));
        tc_release(ag_mul_(y, two));
        EXPECT_FAIL_INT(ag_backward(total, NULL, false),
                        MSG_MODIFIED("torch.FloatTensor [3, 5]",
                                     ", which is output 0 of SoftmaxBackward0, is at version "
                                     "1; expected version 0 instead."));
    }
    /* the weight, the target, probabilities */
    for (loss_path path = BY_COMPOSED; path <= LAST_CE; path++) {
        tc_tensor *w = K(tc_ones(S(5), TC_FLOAT32)), *t2 = T3();
        tc_tensor *p = K(tc_full(S(3, 5), 0.2, TC_FLOAT32));

        y = K(call_path(path, x, t, w, MEAN, -100, 0.0));
        bump(w, 1);
        EXPECT_FAIL_INT(ag_backward(y, NULL, false),
                        MSG_MODIFIED("torch.FloatTensor [5]",
                                     " is at version 1; expected version 0 instead."));
        y = K(call_path(path, x, t2, NULL, MEAN, -100, 0.0));
        bump(t2, 0);
        EXPECT_FAIL_INT(ag_backward(y, NULL, false),
                        MSG_MODIFIED("torch.LongTensor [3]",
                                     " is at version 1; expected version 0 instead."));
        y = K(call_path(path, x, p, NULL, MEAN, -100, 0.0));
        bump(p, 1);
        EXPECT_FAIL_INT(ag_backward(y, NULL, false),
                        MSG_MODIFIED("torch.FloatTensor [3, 5]",
                                     " is at version 1; expected version 0 instead."));
    }
    ck_assert_ptr_null(ag_grad(x));
}
END_TEST

/* softmax, log_softmax, logsumexp, cross_entropy (composed and fused) and
   masked_fill at NaN and the infinities, in float32 and float64, against PyTorch
   (testing_special.h; the table is tests/pytorch/special_cases.py's). */
#include "testing_special.h"
#include "check_ch06_special_cases.h"

static tc_tensor *ch06_special_apply(const special_case *c, tc_tensor *x, tc_tensor *y)
{
    (void)y;
    switch (c->op) {
    case SP_SOFTMAX: return ag_softmax(x, (int64_t)c->number);
    case SP_LOG_SOFTMAX: return ag_log_softmax(x, (int64_t)c->number);
    case SP_LOGSUMEXP: return ag_logsumexp(x, TC_SHAPE((int64_t)c->number), false);
    case SP_CROSS_ENTROPY:
    case SP_CROSS_ENTROPY_NONE:
    case SP_CROSS_ENTROPY_FUSED:
    case SP_CROSS_ENTROPY_FUSED_NONE: {
        bool fused = c->op == SP_CROSS_ENTROPY_FUSED || c->op == SP_CROSS_ENTROPY_FUSED_NONE;
        bool none = c->op == SP_CROSS_ENTROPY_NONE || c->op == SP_CROSS_ENTROPY_FUSED_NONE;
        tc_tensor *target = testing_int64_tensor(TC_SHAPE(1), (int64_t[]){ (int64_t)c->number });

        return (fused ? ag_cross_entropy_fused : ag_cross_entropy)(
            x, target, NULL, none ? TC_REDUCTION_NONE : TC_REDUCTION_MEAN, -100, 0.0);
    }
    case SP_MASKED_FILL:
        return ag_masked_fill(x, K(tc_from_data(TC_SHAPE(3), TC_BOOL, (bool[]){ true, false, true })),
                              c->number);
    default: ck_abort_msg("%s: not an operation of chapter 6", c->name);
    }
    return NULL;
}

START_TEST(test_special_values)
{
    special_run_all(special_cases, sizeof special_cases / sizeof special_cases[0],
                    ch06_special_apply);
}
END_TEST

/* The tests the softmax, nll and fused helpers wrote beside their code. */
#ifdef CH06_SOFTMAX_TESTS
#include "check_ch06_softmax.h"
#endif
#ifdef CH06_NLL_TESTS
#include "check_ch06_nll.h"
#endif
#ifdef CH06_FUSED_TESTS
#include "check_ch06_fused.h"
#endif

Suite *suite_ch06(void)
{
    Suite *s = suite_create("ch06");
    TCase *tc;

    tc = testing_tcase("reduction", NULL, NULL);
    tcase_add_test(tc, test_reduction_values);
    suite_add_tcase(s, tc);

    tc = testing_tcase("softmax, log_softmax, logsumexp", setup, teardown);
    tcase_add_test(tc, test_softmax_rows);
    tcase_add_test(tc, test_softmax_0d_and_empty);
    tcase_add_test(tc, test_special_values);
    suite_add_tcase(s, tc);

    tc = testing_tcase("loss cases (FACTS b.1-b.9)", setup, teardown);
    tcase_add_loop_test(tc, test_loss_case, 0, NUM_LOSS_CASES);
    suite_add_tcase(s, tc);

    tc = testing_tcase("nll_loss kernels", setup, teardown);
    tcase_add_test(tc, test_nll_kernels);
    suite_add_tcase(s, tc);

    tc = testing_tcase("graphs", setup, teardown);
    tcase_add_test(tc, test_loss_graphs);
    suite_add_tcase(s, tc);

    tc = testing_tcase("errors", setup, teardown);
    tcase_add_test(tc, test_error_target_out_of_bounds);
    tcase_add_test(tc, test_error_weight);
    tcase_add_test(tc, test_error_shapes);
    tcase_add_test(tc, test_error_dtypes);
    tcase_add_test(tc, test_error_options);
    tcase_add_test(tc, test_error_order);
    tcase_add_test(tc, test_error_null);
    tcase_add_test(tc, test_error_then_go_on);
    suite_add_tcase(s, tc);

    tc = testing_tcase("fused against composed", setup, teardown);
    tcase_add_test(tc, test_fused_against_chapter5_ops);
    tcase_add_test(tc, test_probability_target_gradient);
    tcase_add_test(tc, test_probability_weight_gradient);
    suite_add_tcase(s, tc);

    tc = testing_tcase("gradcheck", setup, teardown);
    tcase_add_test(tc, test_gradcheck_losses);
    tcase_add_test(tc, test_gradcheck_probability_target);
    tcase_add_test(tc, test_gradcheck_softmax);
    suite_add_tcase(s, tc);

    tc = testing_tcase("saved tensors modified in place", setup, teardown);
    tcase_add_test(tc, test_saved_tensors_modified);
    suite_add_tcase(s, tc);

#ifdef CH06_SOFTMAX_TESTS
    ch06_add_softmax(s);
#endif
#ifdef CH06_NLL_TESTS
    ch06_add_nll(s);
#endif
#ifdef CH06_FUSED_TESTS
    ch06_add_fused(s);
#endif
    return s;
}
