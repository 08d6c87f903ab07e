/* check_ch06_nll.h: the tests of chapter 6's sections "The negative
   log-likelihood" and "Cross-entropy, as PyTorch composes it" (kernels
   tc_nll_loss_forward/backward, ag_nll_loss, ag_cross_entropy,
   ag_masked_fill and the ops with a C number), written on branch nll
   while tests/check_ch06.c was written on branch tests. Include it in
   check_ch06.c after check.h, tc.h and testing.h, and call
   ch06_add_nll(s) from the suite function. Every expected value is
   what PyTorch 1.13 gives for the Python in the comment above it (run
   with `import torch, torch.nn.functional as F`, A = torch.ops.aten),
   every message its text. Helpers are prefixed nll_ so as not to clash
   with the suite's own. */
#include <math.h>
#include <stdint.h>
#include <string.h>

/* ------------------------------------------------------------------ helpers */

#define NLL_S(...) TC_SHAPE(__VA_ARGS__)
#define NLL_NONE TC_REDUCTION_NONE
#define NLL_MEAN TC_REDUCTION_MEAN
#define NLL_SUM TC_REDUCTION_SUM

/* A tensor of shape and dtype from doubles (kept); a leaf requiring grad if grad. */
static tc_tensor *nll_tensor(tc_shape shape, tc_dtype dtype, const double *v, bool grad)
{
    tc_tensor *t = testing_tensor(shape, dtype, v);

    if (grad)
        ck_assert_int_eq(ag_set_requires_grad(t, true), 0);
    return t;
}

#define NLL_D(...) ((const double[]){ __VA_ARGS__ })
#define NLL_F32(shape, ...) nll_tensor(shape, TC_FLOAT32, NLL_D(__VA_ARGS__), false)
#define NLL_F64(shape, ...) nll_tensor(shape, TC_FLOAT64, NLL_D(__VA_ARGS__), false)
#define NLL_LEAF_F32(shape, ...) nll_tensor(shape, TC_FLOAT32, NLL_D(__VA_ARGS__), true)
#define NLL_LEAF_F64(shape, ...) nll_tensor(shape, TC_FLOAT64, NLL_D(__VA_ARGS__), true)
/* int64 targets, exact (kept). */
#define NLL_I64(shape, ...) testing_int64_tensor(shape, (const int64_t[]){ __VA_ARGS__ })
#define NLL_I64_0D(v) testing_int64_tensor(TC_SCALAR_SHAPE, (const int64_t[]){ v })

/* Assert that t holds n values (row-major) within rtol 1e-5, atol 1e-6 of
   want, whatever its dtype (NaN matches NaN). */
static void nll_assert_values(int line, const tc_tensor *t, int64_t n, const double *want)
{
    testing_expect_values(line, "the tensor", t, n, want, TESTING_TOL(1e-5, 1e-6));
}
#define NLL_ASSERT_VALUES(t, ...)                                                               \
    nll_assert_values(__LINE__, t, (int64_t)(sizeof(NLL_D(__VA_ARGS__)) / sizeof(double)), \
                      NLL_D(__VA_ARGS__))

/* The forward kernel's two results, kept. */
typedef struct {
    tc_tensor *output, *total_weight;
} nll_pair;

static nll_pair nll_run_forward(const tc_tensor *input, const tc_tensor *target,
                            const tc_tensor *weight, tc_reduction reduction, int64_t ignore)
{
    nll_pair p = { NULL, NULL };

    tc_clear_error();
    ck_assert_msg(tc_nll_loss_forward(input, target, weight, reduction, ignore, &p.output,
                                      &p.total_weight) == 0, "%s", tc_error());
    K(p.output);
    K(p.total_weight);
    return p;
}

/* The forward kernel fails with exactly `expected`, and sets both outputs to NULL. */
static void nll_run_forward_fails(int line, const tc_tensor *input, const tc_tensor *target,
                              const tc_tensor *weight, tc_reduction reduction, int64_t ignore,
                              const char *expected)
{
    tc_tensor *out = (tc_tensor *)1, *tw = (tc_tensor *)1;

    tc_clear_error();
    ck_assert_msg(tc_nll_loss_forward(input, target, weight, reduction, ignore, &out, &tw) < 0,
                  "line %d: succeeded", line);
    ck_assert_ptr_null(out);
    ck_assert_ptr_null(tw);
    ck_assert_msg(tc_error() != NULL && strcmp(tc_error(), expected) == 0,
                  "line %d: message \"%s\", expected \"%s\"", line,
                  tc_error() ? tc_error() : "(none)", expected);
    tc_clear_error();
}
#define NLL_FORWARD_FAILS(input, target, weight, reduction, ignore, expected) \
    nll_run_forward_fails(__LINE__, input, target, weight, reduction, ignore, expected)

/* The names of the nodes from t's grad_fn down edge 0 of each, joined by
   " -> " (the chain() of the Python comments). */
static const char *nll_chain(const tc_tensor *t)
{
    static char buf[1024];
    ag_node *fn = ag_grad_fn(t);

    buf[0] = '\0';
    while (fn != NULL) {
        if (buf[0] != '\0')
            strcat(buf, " -> ");
        strcat(buf, ag_node_type_name(fn));
        fn = ag_node_num_next(fn) > 0 ? ag_node_next(fn, 0).node : NULL;
    }
    return buf;
}

/* The name of the node at the end of edge i of fn ("None" if empty). */
static const char *nll_next_name(const ag_node *fn, int i)
{
    ag_node *next = ag_node_next(fn, i).node;

    return next == NULL ? "None" : ag_node_type_name(next);
}

/* def chain(fn):
       names = []
       while fn is not None:
           names.append(type(fn).__name__)
           fn = fn.next_functions[0][0] if fn.next_functions else None
       return ' -> '.join(names) */

/* The shared inputs. X2 = torch.tensor([[-0.5, -1.2, -2.0, -0.7],
   [-1.5, -0.3, -2.5, -1.1], [-2.2, -1.9, -0.2, -0.9]]); W4 =
   torch.tensor([1.0, 2.0, 0.5, 1.5]) */
#define NLL_X2_VALUES -0.5, -1.2, -2.0, -0.7, -1.5, -0.3, -2.5, -1.1, -2.2, -1.9, -0.2, -0.9
#define NLL_X2() NLL_F32(NLL_S(3, 4), NLL_X2_VALUES)
#define NLL_W4() NLL_F32(NLL_S(4), 1.0, 2.0, 0.5, 1.5)

/* ------------------------------------------------------- the forward kernel */

/* A.nll_loss_forward(X2, torch.tensor([0, 1, 3]), None, r, -100) for r = 0, 1, 2 */
START_TEST(nll_test_nll_forward_reductions)
{
    tc_tensor *x = NLL_X2(), *t = NLL_I64(NLL_S(3), 0, 1, 3);
    nll_pair none = nll_run_forward(x, t, NULL, NLL_NONE, -100);
    nll_pair mean = nll_run_forward(x, t, NULL, NLL_MEAN, -100);
    nll_pair sum = nll_run_forward(x, t, NULL, NLL_SUM, -100);

    ASSERT_SIZES(none.output, 3);
    NLL_ASSERT_VALUES(none.output, 0.5, 0.30000001192092896, 0.8999999761581421);
    NLL_ASSERT_VALUES(none.total_weight, 0.0);    /* not computed for 'none' */
    ck_assert_int_eq(mean.output->dim, 0);
    ck_assert_int_eq(mean.output->dtype, TC_FLOAT32);
    NLL_ASSERT_VALUES(mean.output, 0.5666666626930237);
    NLL_ASSERT_VALUES(mean.total_weight, 3.0);
    NLL_ASSERT_VALUES(sum.output, 1.7000000476837158);
    NLL_ASSERT_VALUES(sum.total_weight, 3.0);
}
END_TEST

/* A.nll_loss_forward(X2, torch.tensor([0, -100, 3]), W4, r, -100) */
START_TEST(nll_test_nll_forward_weight_and_ignore)
{
    tc_tensor *x = NLL_X2(), *t = NLL_I64(NLL_S(3), 0, -100, 3), *w = NLL_W4();
    nll_pair none = nll_run_forward(x, t, w, NLL_NONE, -100);
    nll_pair mean = nll_run_forward(x, t, w, NLL_MEAN, -100);
    nll_pair sum = nll_run_forward(x, t, w, NLL_SUM, -100);
    /* A.nll_loss_forward(X2, torch.tensor([0, 1, 3]), None, 1, 1): ignore_index 1 */
    nll_pair one = nll_run_forward(x, NLL_I64(NLL_S(3), 0, 1, 3), NULL, NLL_MEAN, 1);

    NLL_ASSERT_VALUES(none.output, 0.5, 0.0, 1.3499999046325684);
    NLL_ASSERT_VALUES(mean.output, 0.7399999499320984);    /* (0.5 + 1.35) / (1 + 1.5) */
    NLL_ASSERT_VALUES(mean.total_weight, 2.5);
    NLL_ASSERT_VALUES(sum.output, 1.8499999046325684);
    NLL_ASSERT_VALUES(sum.total_weight, 2.5);
    NLL_ASSERT_VALUES(one.output, 0.699999988079071);
    NLL_ASSERT_VALUES(one.total_weight, 2.0);
}
END_TEST

/* All ignored, and an empty batch:
   F.nll_loss(X2, torch.tensor([-100, -100, -100]))              -> nan
   F.nll_loss(X2, ..., weight=W4)                               -> nan
   F.nll_loss(X2, ..., reduction='sum')                         -> 0.
   F.nll_loss(torch.zeros(0, 4), torch.zeros(0, dtype=torch.long)) -> nan ('sum': 0., 'none': [])
   F.nll_loss(torch.zeros(0, 4), torch.zeros(0)) -> nan: the float target is
   never read (PyTorch checks its type in the loop) */
START_TEST(nll_test_nll_forward_nothing_counts)
{
    tc_tensor *x = NLL_X2(), *ignored = NLL_I64(NLL_S(3), -100, -100, -100);
    tc_tensor *empty = K(tc_zeros(NLL_S(0, 4), TC_FLOAT32));
    tc_tensor *no_targets = K(tc_zeros(NLL_S(0), TC_INT64));
    nll_pair p;

    p = nll_run_forward(x, ignored, NULL, NLL_MEAN, -100);
    NLL_ASSERT_VALUES(p.output, NAN);
    NLL_ASSERT_VALUES(p.total_weight, 0.0);
    NLL_ASSERT_VALUES(nll_run_forward(x, ignored, NLL_W4(), NLL_MEAN, -100).output, NAN);
    NLL_ASSERT_VALUES(nll_run_forward(x, ignored, NULL, NLL_SUM, -100).output, 0.0);
    p = nll_run_forward(empty, no_targets, NULL, NLL_MEAN, -100);
    ck_assert_int_eq(p.output->dim, 0);
    NLL_ASSERT_VALUES(p.output, NAN);
    NLL_ASSERT_VALUES(p.total_weight, 0.0);
    NLL_ASSERT_VALUES(nll_run_forward(empty, no_targets, NULL, NLL_SUM, -100).output, 0.0);
    ASSERT_SIZES(nll_run_forward(empty, no_targets, NULL, NLL_NONE, -100).output, 0);
    NLL_ASSERT_VALUES(nll_run_forward(empty, K(tc_zeros(NLL_S(0), TC_FLOAT32)), NULL, NLL_MEAN, -100)
                      .output, NAN);
}
END_TEST

/* An unbatched input: X1 = torch.tensor([-1.5, -0.25, -2.0, -0.75])
   A.nll_loss_forward(X1, torch.tensor(2), W4, r, -100)    -> (1., .5), (2., .5), (1., .5)
   A.nll_loss_forward(X1, torch.tensor(-100), W4, r, -100) -> (0., 0.), (nan, 0.), (0., 0.)
   F.nll_loss(X1, torch.tensor([3, 0, 1, 2])) -> 0.75: a 1-D target of the
   input's length passes PyTorch 1.13's checks, and only its first entry is read */
START_TEST(nll_test_nll_forward_unbatched)
{
    tc_tensor *x = NLL_F32(NLL_S(4), -1.5, -0.25, -2.0, -0.75), *w = NLL_W4();
    nll_pair none = nll_run_forward(x, NLL_I64_0D(2), w, NLL_NONE, -100);
    nll_pair mean = nll_run_forward(x, NLL_I64_0D(2), w, NLL_MEAN, -100);

    ck_assert_int_eq(none.output->dim, 0);
    NLL_ASSERT_VALUES(none.output, 1.0);
    NLL_ASSERT_VALUES(none.total_weight, 0.5);
    NLL_ASSERT_VALUES(mean.output, 2.0);
    NLL_ASSERT_VALUES(mean.total_weight, 0.5);
    NLL_ASSERT_VALUES(nll_run_forward(x, NLL_I64_0D(2), w, NLL_SUM, -100).output, 1.0);
    NLL_ASSERT_VALUES(nll_run_forward(x, NLL_I64_0D(-100), w, NLL_NONE, -100).output, 0.0);
    NLL_ASSERT_VALUES(nll_run_forward(x, NLL_I64_0D(-100), w, NLL_MEAN, -100).output, NAN);
    NLL_ASSERT_VALUES(nll_run_forward(x, NLL_I64_0D(-100), w, NLL_MEAN, -100).total_weight, 0.0);
    NLL_ASSERT_VALUES(nll_run_forward(x, NLL_I64_0D(-100), w, NLL_SUM, -100).output, 0.0);
    NLL_ASSERT_VALUES(nll_run_forward(x, NLL_I64(NLL_S(4), 3, 0, 1, 2), NULL, NLL_MEAN, -100).output, 0.75);
}
END_TEST

/* X4 = torch.arange(24.).view(2, 3, 2, 2) / -10 - 0.05
   T4 = torch.tensor([[[0, 2], [1, -100]], [[2, 2], [0, 1]]]); W3 = torch.tensor([0.5, 2.0, 1.0])
   A.nll_loss2d_forward(X4, T4, W3, r, -100) */
START_TEST(nll_test_nll_forward_4d)
{
    tc_tensor *x = K(tc_sub_scalar(K(tc_div_scalar(K(tc_view(K(tc_arange(0.0, 24.0, 1.0)),
                                                             NLL_S(2, 3, 2, 2))), -10.0)),
                                   0.05));
    tc_tensor *t = NLL_I64(NLL_S(2, 2, 2), 0, 2, 1, -100, 2, 2, 0, 1);
    tc_tensor *w = NLL_F32(NLL_S(3), 0.5, 2.0, 1.0);
    nll_pair none = nll_run_forward(x, t, w, NLL_NONE, -100);
    nll_pair mean = nll_run_forward(x, t, w, NLL_MEAN, -100);

    ASSERT_SIZES(none.output, 2, 2, 2);
    NLL_ASSERT_VALUES(none.output, 0.02500000037252903, 0.949999988079071, 1.3000000715255737, 0.0,
                  2.049999952316284, 2.1499998569488525, 0.7249999642372131,
                  3.8999998569488525);
    NLL_ASSERT_VALUES(mean.output, 1.3874999284744263);
    NLL_ASSERT_VALUES(mean.total_weight, 8.0);
    NLL_ASSERT_VALUES(nll_run_forward(x, t, w, NLL_SUM, -100).output, 11.09999942779541);
}
END_TEST

/* X3 = torch.arange(24.).view(2, 3, 4) / -8; T3 = torch.tensor([[0, 1, 2, 0], [2, 2, 1, -100]])
   F.nll_loss(X3, T3, reduction=r); and of 5 dimensions:
   X5 = torch.arange(24.).view(2, 3, 2, 1, 2) / -6
   T5 = torch.tensor([[[[0, 1]], [[2, 0]]], [[[1, 1]], [[2, -100]]]]) */
START_TEST(nll_test_nll_forward_other_ranks)
{
    tc_tensor *x3 = K(tc_div_scalar(K(tc_view(K(tc_arange(0.0, 24.0, 1.0)), NLL_S(2, 3, 4))),
                                    -8.0));
    tc_tensor *t3 = NLL_I64(NLL_S(2, 4), 0, 1, 2, 0, 2, 2, 1, -100);
    tc_tensor *x5 = K(tc_div_scalar(K(tc_view(K(tc_arange(0.0, 24.0, 1.0)),
                                              NLL_S(2, 3, 2, 1, 2))), -6.0));
    tc_tensor *t5 = NLL_I64(NLL_S(2, 2, 1, 2), 0, 1, 2, 0, 1, 1, 2, -100);
    nll_pair none3 = nll_run_forward(x3, t3, NULL, NLL_NONE, -100);
    nll_pair none5 = nll_run_forward(x5, t5, NULL, NLL_NONE, -100);

    ASSERT_SIZES(none3.output, 2, 4);
    NLL_ASSERT_VALUES(none3.output, 0.0, 0.625, 1.25, 0.375, 2.5, 2.625, 2.25, 0.0);
    NLL_ASSERT_VALUES(nll_run_forward(x3, t3, NULL, NLL_MEAN, -100).output, 1.375);
    NLL_ASSERT_VALUES(nll_run_forward(x3, t3, NULL, NLL_SUM, -100).output, 9.625);
    ASSERT_SIZES(none5.output, 2, 2, 1, 2);
    NLL_ASSERT_VALUES(none5.output, 0.0, 0.8333333134651184, 1.6666666269302368, 0.5,
                  2.6666667461395264, 2.8333332538604736, 3.6666667461395264, 0.0);
    NLL_ASSERT_VALUES(nll_run_forward(x5, t5, NULL, NLL_SUM, -100).output, 12.166666984558105);
    /* F.nll_loss(X5, T5, weight=W3) */
    NLL_ASSERT_VALUES(nll_run_forward(x5, t5, NLL_F32(NLL_S(3), 0.5, 2.0, 1.0), NLL_MEAN, -100).output,
                  2.027777671813965);
}
END_TEST

/* A transposed input, read through its strides, and float64:
   F.nll_loss(X2.t(), torch.tensor([2, 0, 1, 2]), reduction='none')
   F.nll_loss(X2.t(), torch.tensor([2, 0, 1, 2]), weight=torch.tensor([1.0, 2.0, 0.5]))
   F.nll_loss(X2.double() / 3, torch.tensor([0, 1, 3]), weight=W4.double()) */
START_TEST(nll_test_nll_forward_strided_and_double)
{
    tc_tensor *xt = K(tc_t(NLL_X2())), *t = NLL_I64(NLL_S(4), 2, 0, 1, 2);
    tc_tensor *x64 = K(tc_empty(NLL_S(3, 4), TC_FLOAT64)), *x32 = NLL_X2();
    nll_pair d;

    for (int64_t k = 0; k < 12; k++)    /* X2.double(): the float32 values, widened */
        tc_store(x64, k, tc_load(x32, k));
    x64 = K(tc_div_scalar(x64, 3.0));
    d = nll_run_forward(x64, NLL_I64(NLL_S(3), 0, 1, 3), NLL_F64(NLL_S(4), 1.0, 2.0, 0.5, 1.5), NLL_MEAN,
                    -100);

    ck_assert(!tc_is_contiguous(xt));
    NLL_ASSERT_VALUES(nll_run_forward(xt, t, NULL, NLL_NONE, -100).output, 2.200000047683716,
                  1.2000000476837158, 2.5, 0.8999999761581421);
    NLL_ASSERT_VALUES(nll_run_forward(xt, t, NLL_F32(NLL_S(3), 1.0, 2.0, 0.5), NLL_MEAN, -100).output,
                  1.9374998807907104);
    ck_assert_int_eq(d.output->dtype, TC_FLOAT64);
    ck_assert_int_eq(d.total_weight->dtype, TC_FLOAT64);
    ck_assert_double_eq_tol(tc_load(d.output, 0), 0.1814814805984497, 1e-15);
}
END_TEST

/* PyTorch's cascade sum, to the last bit of float32 (the naive running sum
   gives 121649.625 here, the exact sum is 121650.51):
   N = 70000; i = torch.arange(N); X = torch.zeros(N, 2)
   X[:, 0] = -(1.0 + (i % 997).float() * 0.001); X[:, 1] = -(i % 13).float() * 0.37
   T = (i % 3 == 0).long()
   F.nll_loss(X, T, reduction='sum') -> 121650.508, F.nll_loss(X, T) -> 1.73786438
   F.nll_loss(X, T, weight=torch.tensor([0.3, 1.7])) -> 2.03130269 (naive: 2.03098464) */
START_TEST(nll_test_nll_forward_cascade)
{
    enum { N = 70000 };
    tc_tensor *x = K(tc_empty(NLL_S(N, 2), TC_FLOAT32)), *t = K(tc_empty(NLL_S(N), TC_INT64));
    float *xd = tc_data_ptr(x);
    int64_t *td = tc_data_ptr(t);

    for (int64_t i = 0; i < N; i++) {
        xd[2 * i] = -(1.0f + (float)(i % 997) * 0.001f);
        xd[2 * i + 1] = -(float)(i % 13) * 0.37f;
        td[i] = i % 3 == 0;
    }
    ck_assert_float_eq((float)tc_load(nll_run_forward(x, t, NULL, NLL_SUM, -100).output, 0),
                       121650.508f);
    ck_assert_float_eq((float)tc_load(nll_run_forward(x, t, NULL, NLL_MEAN, -100).output, 0),
                       1.73786438f);
    ck_assert_float_eq((float)tc_load(nll_run_forward(x, t, NLL_F32(NLL_S(2), 0.3, 1.7), NLL_MEAN,
                                                  -100).output, 0),
                       2.03130269f);
}
END_TEST

/* ------------------------------------------------------ the backward kernel */

/* t = torch.tensor([0, -100, 3]); o, tw = A.nll_loss_forward(X2, t, W4, r, -100)
   A.nll_loss_backward(go, X2, t, W4, r, -100, tw), go = [0.5, 2., -1.] for
   'none', 1.5 otherwise */
START_TEST(nll_test_nll_backward_2d)
{
    tc_tensor *x = NLL_X2(), *t = NLL_I64(NLL_S(3), 0, -100, 3), *w = NLL_W4(), *g;
    nll_pair none = nll_run_forward(x, t, w, NLL_NONE, -100);
    nll_pair mean = nll_run_forward(x, t, w, NLL_MEAN, -100);
    nll_pair sum = nll_run_forward(x, t, w, NLL_SUM, -100);

    g = K(tc_nll_loss_backward(NLL_F32(NLL_S(3), 0.5, 2.0, -1.0), x, t, w, NLL_NONE, -100,
                               none.total_weight));
    ASSERT_SIZES(g, 3, 4);
    NLL_ASSERT_VALUES(g, -0.5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1.5);
    g = K(tc_nll_loss_backward(NLL_F32(TC_SCALAR_SHAPE, 1.5), x, t, w, NLL_MEAN, -100,
                               mean.total_weight));
    NLL_ASSERT_VALUES(g, -0.6000000238418579, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -0.9000000357627869);
    g = K(tc_nll_loss_backward(NLL_F32(TC_SCALAR_SHAPE, 1.5), x, t, w, NLL_SUM, -100,
                               sum.total_weight));
    NLL_ASSERT_VALUES(g, -1.5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -2.25);
    /* every target ignored: tw is 0, and the gradient is zeros, not NaN
       t = torch.tensor([-100, -100, -100]); o, tw = A.nll_loss_forward(X2, t, None, 1, -100)
       A.nll_loss_backward(torch.tensor(1.), X2, t, None, 1, -100, tw) -> zeros */
    t = NLL_I64(NLL_S(3), -100, -100, -100);
    g = K(tc_nll_loss_backward(NLL_F32(TC_SCALAR_SHAPE, 1.0), x, t, NULL, NLL_MEAN, -100,
                               nll_run_forward(x, t, NULL, NLL_MEAN, -100).total_weight));
    NLL_ASSERT_VALUES(g, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
}
END_TEST

/* A.nll_loss2d_backward(torch.arange(8.).view(2, 2, 2) - 3, X4, T4, W3, 0, -100, tw)
   A.nll_loss2d_backward(torch.tensor(2.), X4, T4, W3, 1, -100, tw) (tw = 8.)
   A.nll_loss_backward(torch.tensor(1.5), X1, torch.tensor(2), W4, r, -100, torch.tensor(0.5))
   x3 = X3.clone().requires_grad_()
   F.nll_loss(x3, T3, reduction='none').backward(torch.arange(8.).view(2, 4)); x3.grad */
START_TEST(nll_test_nll_backward_other_ranks)
{
    tc_tensor *x4 = K(tc_zeros(NLL_S(2, 3, 2, 2), TC_FLOAT32));
    tc_tensor *t4 = NLL_I64(NLL_S(2, 2, 2), 0, 2, 1, -100, 2, 2, 0, 1);
    tc_tensor *w3 = NLL_F32(NLL_S(3), 0.5, 2.0, 1.0), *x1 = K(tc_zeros(NLL_S(4), TC_FLOAT32));
    tc_tensor *go4 = K(tc_sub_scalar(K(tc_view(K(tc_arange(0.0, 8.0, 1.0)), NLL_S(2, 2, 2))),
                                     3.0));
    tc_tensor *x3 = K(tc_zeros(NLL_S(2, 3, 4), TC_FLOAT32));
    tc_tensor *t3 = NLL_I64(NLL_S(2, 4), 0, 1, 2, 0, 2, 2, 1, -100), *g;

    g = K(tc_nll_loss_backward(go4, x4, t4, w3, NLL_NONE, -100, NLL_F32(TC_SCALAR_SHAPE, 0)));
    ASSERT_SIZES(g, 2, 3, 2, 2);
    NLL_ASSERT_VALUES(g, 1.5, 0, 0, 0, 0, 0, 2, 0, 0, 2, 0, 0, 0, 0, -1.5, 0, 0, 0, 0, -8, -1, -2,
                  0, 0);
    g = K(tc_nll_loss_backward(NLL_F32(TC_SCALAR_SHAPE, 2.0), x4, t4, w3, NLL_MEAN, -100,
                               NLL_F32(TC_SCALAR_SHAPE, 8.0)));
    NLL_ASSERT_VALUES(g, -0.125, 0, 0, 0, 0, 0, -0.5, 0, 0, -0.25, 0, 0, 0, 0, -0.125, 0, 0, 0, 0,
                  -0.5, -0.25, -0.25, 0, 0);
    g = K(tc_nll_loss_backward(NLL_F32(TC_SCALAR_SHAPE, 1.5), x1, NLL_I64_0D(2), NLL_W4(), NLL_NONE, -100,
                               NLL_F32(TC_SCALAR_SHAPE, 0.5)));
    NLL_ASSERT_VALUES(g, 0, 0, -0.75, 0);
    g = K(tc_nll_loss_backward(NLL_F32(TC_SCALAR_SHAPE, 1.5), x1, NLL_I64_0D(2), NLL_W4(), NLL_MEAN, -100,
                               NLL_F32(TC_SCALAR_SHAPE, 0.5)));
    NLL_ASSERT_VALUES(g, 0, 0, -1.5, 0);
    g = K(tc_nll_loss_backward(K(tc_view(K(tc_arange(0.0, 8.0, 1.0)), NLL_S(2, 4))), x3, t3,
                               NULL, NLL_NONE, -100, NLL_F32(TC_SCALAR_SHAPE, 0)));
    ASSERT_SIZES(g, 2, 3, 4);
    NLL_ASSERT_VALUES(g, -0.0, 0, 0, -3, 0, -1, 0, 0, 0, 0, -2, 0, 0, 0, 0, 0, 0, 0, -6, 0, -4, -5,
                  0, 0);
}
END_TEST

/* The backward kernel's checks, in PyTorch's order:
   A.nll_loss_backward(go, torch.zeros(3, 5), torch.tensor([1, 0, 4]), w, r, -100, tw) */
START_TEST(nll_test_nll_backward_errors)
{
    tc_tensor *x = K(tc_zeros(NLL_S(3, 5), TC_FLOAT32)), *t = NLL_I64(NLL_S(3), 1, 0, 4);
    tc_tensor *tw = NLL_F32(TC_SCALAR_SHAPE, 3.0), *one = NLL_F32(TC_SCALAR_SHAPE, 1.0);
    tc_tensor *x4 = K(tc_zeros(NLL_S(3, 5, 2, 2), TC_FLOAT32));
    tc_tensor *t4 = K(tc_zeros(NLL_S(3, 2, 2), TC_INT64));

    /* go = torch.ones(2), reduction 0 */
    EXPECT_FAILS(tc_nll_loss_backward(K(tc_ones(NLL_S(2), TC_FLOAT32)), x, t, NULL, NLL_NONE,
                                      -100, tw),
                 "Expected a tensor of dimension 1 and tensor.size[0] == 3 but got: dimension 1 "
                 "and tensor.size[0] = 2");
    /* go = torch.tensor(1.), reduction 0 */
    EXPECT_FAILS(tc_nll_loss_backward(one, x, t, NULL, NLL_NONE, -100, tw),
                 "Dimension specified as 0 but tensor has no dimensions");
    /* go = torch.ones(1, 1), reduction 1 */
    EXPECT_FAILS(tc_nll_loss_backward(K(tc_ones(NLL_S(1, 1), TC_FLOAT32)), x, t, NULL,
                                      NLL_MEAN, -100, tw),
                 "Expected a single element grad_output tensor, but got: [1, 1]");
    /* tw = torch.ones(2) (sic: two spaces) */
    EXPECT_FAILS(tc_nll_loss_backward(one, x, t, NULL, NLL_MEAN, -100,
                                      K(tc_ones(NLL_S(2), TC_FLOAT32))),
                 "expected total_weight to be a  single element tensor, got: [2] (2 elements)");
    EXPECT_FAILS(tc_nll_loss_backward(one, x, t, K(tc_ones(NLL_S(4), TC_FLOAT32)), NLL_MEAN,
                                      -100, tw),
                 "weight tensor should be defined either for all or no classes");
    EXPECT_FAILS(tc_nll_loss_backward(one, x, NLL_I64(NLL_S(3), 1, 7, 4), NULL, NLL_MEAN, -100, tw),
                 "Target 7 is out of bounds.");
    EXPECT_FAILS(tc_nll_loss_backward(one, K(tc_zeros(NLL_S(3, 5), TC_INT64)), t, NULL,
                                      NLL_MEAN, -100, tw),
                 "\"nll_loss_backward_out_frame\" not implemented for 'Long'");
    EXPECT_FAILS(tc_nll_loss_backward(NLL_F64(TC_SCALAR_SHAPE, 1.0), x, t, NULL, NLL_MEAN, -100,
                                      tw),
                 "expected scalar type Float but found Double");
    EXPECT_FAILS(tc_nll_loss_backward(one, x, NLL_F32(NLL_S(3), 1, 0, 4), NULL, NLL_MEAN, -100, tw),
                 "expected scalar type Long but found Float");
    EXPECT_FAILS(tc_nll_loss_backward(one, x, NLL_I64(NLL_S(2), 1, 0), NULL, NLL_MEAN, -100, tw),
                 "size mismatch (got input: [3, 5], target: [2])");
    /* A.nll_loss2d_backward(go, torch.zeros(3, 5, 2, 2), torch.zeros(3, 2, 2, dtype=torch.long), ...) */
    EXPECT_FAILS(tc_nll_loss_backward(K(tc_ones(NLL_S(3, 2), TC_FLOAT32)), x4, t4, NULL,
                                      NLL_NONE, -100, tw),
                 "grad_output must have same dimension as target (3) but got dimension: [3, 2]");
    EXPECT_FAILS(tc_nll_loss_backward(K(tc_ones(NLL_S(3, 2, 1), TC_FLOAT32)), x4, t4, NULL,
                                      NLL_NONE, -100, tw),
                 "size mismatch (got grad_output: [3, 2, 1] target: [3, 2, 2]");
    EXPECT_FAILS(tc_nll_loss_backward(one, x4, t4, NULL, NLL_MEAN, -100,
                                      K(tc_ones(NLL_S(2), TC_FLOAT32))),
                 "expected total_weight to be a single element tensor, got: [2] (2 elements)");
    EXPECT_FAILS(tc_nll_loss_backward(one, K(tc_zeros(NLL_S(3, 5, 2, 2), TC_INT64)), t4, NULL,
                                      NLL_MEAN, -100, tw),
                 "\"nll_loss2d_backward_out_frame\" not implemented for 'Long'");
    /* PyTorch does not check the targets of a 'none' gradient, and writes
       out of bounds (it aborts: "double free or corruption"); we check */
    EXPECT_FAILS(tc_nll_loss_backward(K(tc_ones(NLL_S(3, 2, 2), TC_FLOAT32)), x4,
                                      K(tc_add_scalar(t4, (int64_t)5)), NULL, NLL_NONE, -100, tw),
                 "Target 5 is out of bounds.");
    EXPECT_FAILS(tc_nll_loss_backward(one, K(tc_zeros(TC_SCALAR_SHAPE, TC_FLOAT32)), NLL_I64_0D(0),
                                      NULL, NLL_MEAN, -100, tw),
                 "input tensor should be 1D or 2D");
}
END_TEST

/* ------------------------------------------------- the forward kernel's checks */

/* F.nll_loss(input, target, ...) for each bad input, with PyTorch 1.13's
   message; x = torch.zeros(3, 5), t = torch.tensor([1, 0, 4]) */
START_TEST(nll_test_nll_forward_errors)
{
    tc_tensor *x = K(tc_zeros(NLL_S(3, 5), TC_FLOAT32)), *t = NLL_I64(NLL_S(3), 1, 0, 4);
    tc_tensor *x4 = K(tc_zeros(NLL_S(3, 5, 2, 2), TC_FLOAT32));
    tc_tensor *t4 = K(tc_zeros(NLL_S(3, 2, 2), TC_INT64));
    tc_tensor *x3 = K(tc_zeros(NLL_S(3, 5, 2), TC_FLOAT32));
    tc_tensor *f64w = K(tc_ones(NLL_S(5), TC_FLOAT64));

    NLL_FORWARD_FAILS(x, NLL_I64(NLL_S(3), 1, 5, 4), NULL, NLL_MEAN, -100, "Target 5 is out of bounds.");
    NLL_FORWARD_FAILS(x, NLL_I64(NLL_S(3), 1, -1, 4), NULL, NLL_NONE, -100,
                  "Target -1 is out of bounds.");
    NLL_FORWARD_FAILS(x, NLL_I64(NLL_S(3), 1, 4611686018427387904LL, 4), NULL, NLL_SUM, -100,
                  "Target 4611686018427387904 is out of bounds.");
    /* weight=torch.ones(4); torch.ones(5, 1) */
    NLL_FORWARD_FAILS(x, t, K(tc_ones(NLL_S(4), TC_FLOAT32)), NLL_MEAN, -100,
                  "weight tensor should be defined either for all 5 classes or no classes but "
                  "got weight tensor of shape: [4]");
    NLL_FORWARD_FAILS(x, t, K(tc_ones(NLL_S(5, 1), TC_FLOAT32)), NLL_MEAN, -100,
                  "weight tensor should be defined either for all 5 classes or no classes but "
                  "got weight tensor of shape: [5, 1]");
    NLL_FORWARD_FAILS(x, NLL_I64(NLL_S(2), 1, 0), NULL, NLL_MEAN, -100,
                  "Expected input batch_size (3) to match target batch_size (2).");
    NLL_FORWARD_FAILS(x, NLL_I64_0D(1), NULL, NLL_MEAN, -100,
                  "Expected input batch_size (3) to match target batch_size (0).");
    NLL_FORWARD_FAILS(K(tc_zeros(NLL_S(0, 5), TC_FLOAT32)), NLL_I64_0D(1), NULL, NLL_MEAN, -100,
                  "Dimension specified as 0 but tensor has no dimensions");
    NLL_FORWARD_FAILS(x, NLL_F32(NLL_S(3), 1, 0, 4), NULL, NLL_MEAN, -100,
                  "expected scalar type Long but found Float");
    NLL_FORWARD_FAILS(x, K(tc_zeros(NLL_S(3), TC_BOOL)), NULL, NLL_NONE, -100,
                  "expected scalar type Long but found Bool");
    NLL_FORWARD_FAILS(x, NLL_I64(NLL_S(3, 1), 1, 0, 4), NULL, NLL_MEAN, -100,
                  "0D or 1D target tensor expected, multi-target not supported");
    NLL_FORWARD_FAILS(K(tc_zeros(TC_SCALAR_SHAPE, TC_FLOAT32)), NLL_I64_0D(0), NULL, NLL_MEAN, -100,
                  "Expected 1 or more dimensions (got 0)");
    NLL_FORWARD_FAILS(K(tc_zeros(NLL_S(5), TC_FLOAT32)), NLL_I64(NLL_S(1), 1), NULL, NLL_MEAN, -100,
                  "size mismatch (got input: [5], target: [1])");
    NLL_FORWARD_FAILS(K(tc_zeros(NLL_S(3, 5), TC_INT64)), t, NULL, NLL_MEAN, -100,
                  "\"nll_loss_out_frame\" not implemented for 'Long'");
    NLL_FORWARD_FAILS(K(tc_zeros(NLL_S(3, 5), TC_BOOL)), t, NULL, NLL_MEAN, -100,
                  "\"nll_loss_out_frame\" not implemented for 'Bool'");
    NLL_FORWARD_FAILS(x, t, f64w, NLL_MEAN, -100, "expected scalar type Float but found Double");
    /* the order: the weight's size before the target's type, its type too */
    NLL_FORWARD_FAILS(x, NLL_F32(NLL_S(3), 1, 0, 4), K(tc_ones(NLL_S(4), TC_FLOAT32)), NLL_MEAN, -100,
                  "weight tensor should be defined either for all 5 classes or no classes but "
                  "got weight tensor of shape: [4]");
    NLL_FORWARD_FAILS(x, NLL_F32(NLL_S(3), 1, 0, 4), f64w, NLL_NONE, -100,
                  "expected scalar type Float but found Double");
    NLL_FORWARD_FAILS(x, NLL_I64(NLL_S(3), 1, 0, 7), f64w, NLL_MEAN, -100,
                  "expected scalar type Float but found Double");
    NLL_FORWARD_FAILS(x, NLL_I64(NLL_S(2), 1, 0), K(tc_ones(NLL_S(4), TC_FLOAT32)), NLL_MEAN, -100,
                  "Expected input batch_size (3) to match target batch_size (2).");
    /* 4-D: nll_loss2d's own words */
    NLL_FORWARD_FAILS(x4, t4, K(tc_ones(NLL_S(4), TC_FLOAT32)), NLL_MEAN, -100,
                  "weight tensor should be defined either for all or no classes");
    NLL_FORWARD_FAILS(x4, K(tc_zeros(NLL_S(3, 2, 3), TC_INT64)), NULL, NLL_MEAN, -100,
                  "size mismatch (got input: [3, 5, 2, 2] , target: [3, 2, 3]");
    NLL_FORWARD_FAILS(x4, K(tc_zeros(NLL_S(3, 4), TC_INT64)), NULL, NLL_MEAN, -100,
                  "only batches of spatial targets supported (3D tensors) but got targets of "
                  "dimension: 2");
    NLL_FORWARD_FAILS(x4, K(tc_zeros(NLL_S(2, 2, 2), TC_INT64)), NULL, NLL_MEAN, -100,
                  "Expected input batch_size (3) to match target batch_size (2).");
    NLL_FORWARD_FAILS(x4, K(tc_full(NLL_S(3, 2, 2), 5, TC_INT64)), NULL, NLL_MEAN, -100,
                  "Target 5 is out of bounds.");
    NLL_FORWARD_FAILS(K(tc_zeros(NLL_S(3, 5, 2, 2), TC_INT64)), t4, NULL, NLL_MEAN, -100,
                  "\"nll_loss2d_forward_out_frame\" not implemented for 'Long'");
    NLL_FORWARD_FAILS(x4, K(tc_zeros(NLL_S(3, 2, 2), TC_FLOAT32)), NULL, NLL_NONE, -100,
                  "expected scalar type Long but found Float");
    NLL_FORWARD_FAILS(x4, K(tc_zeros(NLL_S(3, 2, 2), TC_FLOAT32)), f64w, NLL_MEAN, -100,
                  "expected scalar type Float but found Double");
    /* F.nll_loss(torch.zeros(0, 5, 2, 2), torch.tensor(1)) */
    NLL_FORWARD_FAILS(K(tc_zeros(NLL_S(0, 5, 2, 2), TC_FLOAT32)), NLL_I64_0D(1), NULL, NLL_MEAN, -100,
                  "only batches of spatial targets supported (3D tensors) but got targets of "
                  "dimension: 0");
    /* 3-D and 5-D: nll_loss_nd's target check, then nll_loss2d's on the views */
    NLL_FORWARD_FAILS(x3, K(tc_zeros(NLL_S(3, 3), TC_INT64)), NULL, NLL_MEAN, -100,
                  "Expected target size [3, 2], got [3, 3]");
    NLL_FORWARD_FAILS(x3, K(tc_zeros(NLL_S(3), TC_INT64)), NULL, NLL_MEAN, -100,
                  "Expected target size [3, 2], got [3]");
    NLL_FORWARD_FAILS(K(tc_zeros(NLL_S(0, 5, 2), TC_FLOAT32)), NLL_I64_0D(1), NULL, NLL_MEAN, -100,
                  "Expected target size [0, 2], got []");
    NLL_FORWARD_FAILS(K(tc_zeros(NLL_S(3, 5, 2, 2, 2), TC_FLOAT32)),
                  K(tc_zeros(NLL_S(3, 2, 2, 3), TC_INT64)), NULL, NLL_MEAN, -100,
                  "Expected target size [3, 2, 2, 2], got [3, 2, 2, 3]");
    NLL_FORWARD_FAILS(x3, K(tc_zeros(NLL_S(3, 2), TC_FLOAT32)), NULL, NLL_MEAN, -100,
                  "expected scalar type Long but found Float");
    NLL_FORWARD_FAILS(K(tc_zeros(NLL_S(3, 5, 2), TC_INT64)), K(tc_zeros(NLL_S(3, 2), TC_INT64)),
                  NULL, NLL_MEAN, -100,
                  "\"nll_loss2d_forward_out_frame\" not implemented for 'Long'");
    /* F.nll_loss(torch.zeros(2, 0, 3), torch.zeros(2, 3, dtype=torch.long)) */
    NLL_FORWARD_FAILS(K(tc_zeros(NLL_S(2, 0, 3), TC_FLOAT32)), K(tc_zeros(NLL_S(2, 3), TC_INT64)),
                  NULL, NLL_MEAN, -100,
                  "size mismatch (got input: [2, 0, 0, 0] , target: [2, 1, 3]");
    /* F.nll_loss(torch.zeros(3, 0), t): no class at all */
    NLL_FORWARD_FAILS(K(tc_zeros(NLL_S(3, 0), TC_FLOAT32)), t, NULL, NLL_MEAN, -100,
                  "Target 1 is out of bounds.");
    /* F.nll_loss(x, t, reduction='avg') -> 'avg is not a valid value for reduction';
       a C enum holds a number instead */
    NLL_FORWARD_FAILS(x, t, NULL, (tc_reduction)7, -100, "7 is not a valid value for reduction");
}
END_TEST

/* NULL arguments never crash: each call fails, and says so. */
START_TEST(nll_test_nll_null_arguments)
{
    tc_tensor *x = NLL_X2(), *t = NLL_I64(NLL_S(3), 0, 1, 3), *out, *tw;

    tc_clear_error();
    ck_assert_int_lt(tc_nll_loss_forward(NULL, t, NULL, NLL_MEAN, -100, &out, &tw), 0);
    ck_assert_ptr_nonnull(tc_error());
    tc_clear_error();
    ck_assert_int_lt(tc_nll_loss_forward(x, NULL, NULL, NLL_MEAN, -100, &out, &tw), 0);
    ck_assert_ptr_null(out);
    tc_clear_error();
    ck_assert_int_lt(tc_nll_loss_forward(x, t, NULL, NLL_MEAN, -100, NULL, &tw), 0);
    ck_assert_ptr_nonnull(tc_error());
    tc_clear_error();
    ck_assert_ptr_null(tc_nll_loss_backward(NULL, x, t, NULL, NLL_MEAN, -100, NULL));
    ck_assert_ptr_nonnull(tc_error());
    tc_clear_error();
    ck_assert_ptr_null(ag_nll_loss(NULL, t, NULL, NLL_MEAN, -100));
    ck_assert_ptr_null(ag_cross_entropy(x, NULL, NULL, NLL_MEAN, -100, 0.0));
    ck_assert_ptr_null(ag_masked_fill(NULL, NULL, 0.0));
    ck_assert_ptr_null(ag_mul_number(NULL, 2.0));
    ck_assert_ptr_nonnull(tc_error());
    tc_clear_error();
}
END_TEST

/* ------------------------------------------------------------- ag_nll_loss */

/* The graph of F.nll_loss for inputs of 1 to 5 dimensions and each
   reduction: shapes (5,), (3, 5), (3, 5, 2), (3, 5, 2, 2), (3, 5, 2, 1, 2),
   x = torch.zeros(shape, requires_grad=True), targets of zeros;
   chain(F.nll_loss(x, t, reduction=r).grad_fn) */
START_TEST(nll_test_nll_graph_by_rank)
{
    static const tc_shape shapes[5] = { { 1, { 5 } }, { 2, { 3, 5 } }, { 3, { 3, 5, 2 } },
                                        { 4, { 3, 5, 2, 2 } }, { 5, { 3, 5, 2, 1, 2 } } };
    static const char *const want[5][3] = {    /* none, mean, sum */
        { "NllLossBackward0 -> AccumulateGrad", "NllLossBackward0 -> AccumulateGrad",
          "NllLossBackward0 -> AccumulateGrad" },
        { "NllLossBackward0 -> AccumulateGrad", "NllLossBackward0 -> AccumulateGrad",
          "NllLossBackward0 -> AccumulateGrad" },
        { "ViewBackward0 -> NllLoss2DBackward0 -> ViewBackward0 -> AccumulateGrad",
          "NllLoss2DBackward0 -> ViewBackward0 -> AccumulateGrad",
          "NllLoss2DBackward0 -> ViewBackward0 -> AccumulateGrad" },
        { "NllLoss2DBackward0 -> AccumulateGrad", "NllLoss2DBackward0 -> AccumulateGrad",
          "NllLoss2DBackward0 -> AccumulateGrad" },
        { "ViewBackward0 -> NllLoss2DBackward0 -> ViewBackward0 -> AccumulateGrad",
          "NllLoss2DBackward0 -> ViewBackward0 -> AccumulateGrad",
          "NllLoss2DBackward0 -> ViewBackward0 -> AccumulateGrad" },
    };
    static const tc_reduction reductions[3] = { NLL_NONE, NLL_MEAN, NLL_SUM };

    for (int r = 0; r < 5; r++) {
        tc_tensor *x = K(tc_zeros(shapes[r], TC_FLOAT32)), *t;
        tc_shape ts = { .dim = r == 0 ? 0 : shapes[r].dim - 1 };

        for (int64_t d = 0; d < ts.dim; d++)
            ts.sizes[d] = shapes[r].sizes[d == 0 ? 0 : d + 1];
        t = K(tc_zeros(ts, TC_INT64));
        ck_assert_int_eq(ag_set_requires_grad(x, true), 0);
        for (int k = 0; k < 3; k++) {
            tc_tensor *loss = K(ag_nll_loss(x, t, NULL, reductions[k], -100));
            ck_assert_msg(loss != NULL, "%s", tc_error());
            ck_assert_str_eq(nll_chain(loss), want[r][k]);
            ck_assert_int_eq(ag_node_num_next(ag_grad_fn(loss)), 1);
        }
    }
}
END_TEST

/* Gradients through the graph:
   x = X2.clone().requires_grad_(); F.nll_loss(x, torch.tensor([0, -100, 3]), weight=W4).backward()
   x = torch.zeros(2, 3, 4, requires_grad=True)
   F.nll_loss(x, T3, weight=torch.tensor([0.5, 2.0, 1.0])).backward()
   xn = torch.zeros(2, 4, 3, requires_grad=True): a transposed input is copied (CloneBackward0)
   l = F.nll_loss(xn.transpose(1, 2), T3, reduction='sum'); chain(l.grad_fn); l.backward() */
START_TEST(nll_test_nll_graph_gradients)
{
    tc_tensor *x = NLL_LEAF_F32(NLL_S(3, 4), NLL_X2_VALUES), *loss;
    tc_tensor *x3 = K(tc_zeros(NLL_S(2, 3, 4), TC_FLOAT32));
    tc_tensor *xn = K(tc_zeros(NLL_S(2, 4, 3), TC_FLOAT32));
    tc_tensor *t3 = NLL_I64(NLL_S(2, 4), 0, 1, 2, 0, 2, 2, 1, -100);

    loss = K(ag_nll_loss(x, NLL_I64(NLL_S(3), 0, -100, 3), NLL_W4(), NLL_MEAN, -100));
    ck_assert_int_eq(ag_backward(loss, NULL, false), 0);
    NLL_ASSERT_VALUES(ag_grad(x), -0.4000000059604645, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                  -0.6000000238418579);
    ck_assert_int_eq(ag_set_requires_grad(x3, true), 0);
    loss = K(ag_nll_loss(x3, t3, NLL_F32(NLL_S(3), 0.5, 2.0, 1.0), NLL_MEAN, -100));
    ck_assert_int_eq(ag_backward(loss, NULL, false), 0);
    NLL_ASSERT_VALUES(ag_grad(x3), -0.0625, 0, 0, -0.0625, 0, -0.25, 0, 0, 0, 0, -0.125, 0, 0, 0, 0,
                  0, 0, 0, -0.25, 0, -0.125, -0.125, 0, 0);
    ck_assert_int_eq(ag_set_requires_grad(xn, true), 0);
    loss = K(ag_nll_loss(K(ag_transpose(xn, 1, 2)), t3, NULL, NLL_SUM, -100));
    ck_assert_str_eq(nll_chain(loss), "NllLoss2DBackward0 -> ViewBackward0 -> CloneBackward0 -> "
                                      "TransposeBackward0 -> AccumulateGrad");
    ck_assert_int_eq(ag_backward(loss, NULL, false), 0);
    NLL_ASSERT_VALUES(ag_grad(xn), -1, 0, 0, 0, -1, 0, 0, 0, -1, -1, 0, 0, 0, 0, -1, 0, 0, -1, 0,
                  -1, 0, 0, 0, 0);
}
END_TEST

/* The weight may not require a gradient (while grad mode is on):
   F.nll_loss(torch.zeros(3, 4), t, weight=torch.ones(4, requires_grad=True)) -> the
   message for 'nll_loss_forward', even before the out-of-bounds target; for 4-D and
   3-D inputs 'nll_loss2d_forward'; under torch.no_grad() no message.
   And the saved input, modified in place, is caught:
   x = torch.zeros(3, 4, requires_grad=True); l = F.nll_loss(x, torch.tensor([0, 1, 3]))
   with torch.no_grad(): x.add_(1)
   l.backward() */
START_TEST(nll_test_nll_graph_refusals)
{
    tc_tensor *w = K(tc_ones(NLL_S(4), TC_FLOAT32)), *x = K(tc_zeros(NLL_S(3, 4), TC_FLOAT32));
    tc_tensor *loss;
    bool previous;

    ck_assert_int_eq(ag_set_requires_grad(w, true), 0);
    EXPECT_FAILS(ag_nll_loss(x, NLL_I64(NLL_S(3), 0, 9, 3), w, NLL_MEAN, -100),
                 "The function 'nll_loss_forward' is not differentiable with respect to "
                 "argument 'weight'. This input cannot have requires_grad True.");
    EXPECT_FAILS(ag_nll_loss(K(tc_zeros(NLL_S(3, 4, 2, 2), TC_FLOAT32)),
                             K(tc_zeros(NLL_S(3, 2, 2), TC_INT64)), w, NLL_MEAN, -100),
                 "The function 'nll_loss2d_forward' is not differentiable with respect to "
                 "argument 'weight'. This input cannot have requires_grad True.");
    EXPECT_FAILS(ag_nll_loss(K(tc_zeros(NLL_S(3, 4, 2), TC_FLOAT32)),
                             K(tc_zeros(NLL_S(3, 2), TC_INT64)), w, NLL_MEAN, -100),
                 "The function 'nll_loss2d_forward' is not differentiable with respect to "
                 "argument 'weight'. This input cannot have requires_grad True.");
    /* the batch sizes are checked first (nll_loss_nd) */
    EXPECT_FAILS(ag_nll_loss(x, NLL_I64(NLL_S(2), 0, 1), w, NLL_MEAN, -100),
                 "Expected input batch_size (3) to match target batch_size (2).");
    previous = ag_set_grad_enabled(false);
    loss = K(ag_nll_loss(x, NLL_I64(NLL_S(3), 0, 1, 3), w, NLL_MEAN, -100));
    ag_set_grad_enabled(previous);
    NLL_ASSERT_VALUES(loss, 0.0);

    ck_assert_int_eq(ag_set_requires_grad(x, true), 0);
    loss = K(ag_nll_loss(x, NLL_I64(NLL_S(3), 0, 1, 3), NULL, NLL_MEAN, -100));
    previous = ag_set_grad_enabled(false);
    ck_assert_ptr_nonnull(K(ag_add_(x, K(tc_number(1.0)))));
    ag_set_grad_enabled(previous);
    tc_clear_error();
    ck_assert_int_lt(ag_backward(loss, NULL, false), 0);
    ck_assert_str_eq(tc_error(), "one of the variables needed for gradient computation has been "
                                 "modified by an inplace operation: [torch.FloatTensor [3, 4]] "
                                 "is at version 1; expected version 0 instead. Hint: enable "
                                 "anomaly detection to find the operation that failed to "
                                 "compute its gradient, with "
                                 "torch.autograd.set_detect_anomaly(True).");
    tc_clear_error();
}
END_TEST

/* ---------------------------------------------------------- ag_cross_entropy */

/* Z = torch.tensor([[2.0, 1.0, 0.1, -0.5], [0.5, 2.5, 0.3, 0.0], [1.0, -1.0, 0.5, 2.0]]) */
#define NLL_Z_VALUES 2.0, 1.0, 0.1, -0.5, 0.5, 2.5, 0.3, 0.0, 1.0, -1.0, 0.5, 2.0

/* Z4 = (torch.arange(24.).view(2, 3, 2, 2) * 0.37).sin() * 2 */
#define NLL_Z4_VALUES                                                                          \
    0.0, 0.7232308983802795, 1.3485758304595947, 1.7913973331451416, 1.9917616844177246,   \
        1.9225504398345947, 1.5931309461593628, 1.0480884313583374, 0.3611924648284912,    \
        -0.3745891749858856, -1.0596723556518555, -1.601333737373352, -1.9262619018554688, \
        -1.990479588508606, -1.7852951288223267, -1.3384793996810913, -0.7105069756507874, \
        0.013629203662276268, 0.7359207272529602, 1.3586095571517944, 1.79741632938385,    \
        1.9929512739181519, 1.918749451637268, 1.584854006767273

/* F.cross_entropy(z, torch.tensor([0, 1, 3]), reduction=r), r = 'none', 'mean',
   'sum', then l.sum().backward(); z = Z.clone().requires_grad_() each time */
START_TEST(nll_test_cross_entropy_class_targets)
{
    static const double grad_each[12] = {
        -0.37481749057769775, 0.22999179363250732, 0.09350769221782684, 0.05131809785962105,
        0.10189194977283478, -0.2471146583557129, 0.08342207223176956, 0.06180059164762497,
        0.2242078185081482, 0.030343230813741684, 0.13598890602588654, -0.3905399441719055 };
    static const tc_reduction reductions[3] = { NLL_NONE, NLL_MEAN, NLL_SUM };

    for (int k = 0; k < 3; k++) {
        tc_tensor *z = NLL_LEAF_F32(NLL_S(3, 4), NLL_Z_VALUES), *t = NLL_I64(NLL_S(3), 0, 1, 3);
        tc_tensor *loss = K(ag_cross_entropy(z, t, NULL, reductions[k], -100, 0.0));
        double scale = reductions[k] == NLL_MEAN ? 1.0 / 3 : 1.0;

        ck_assert_msg(loss != NULL, "%s", tc_error());
        ck_assert_str_eq(nll_chain(loss), "NllLossBackward0 -> LogSoftmaxBackward0 -> "
                                          "AccumulateGrad");
        if (reductions[k] == NLL_NONE)
            NLL_ASSERT_VALUES(loss, 0.46971169114112854, 0.2838422954082489, 0.4951818883419037);
        else
            NLL_ASSERT_VALUES(loss, reductions[k] == NLL_MEAN ? 0.41624531149864197
                                                           : 1.2487359046936035);
        ck_assert_int_eq(ag_backward(K(ag_sum(loss)), NULL, false), 0);
        for (int64_t i = 0; i < 12; i++)
            ck_assert_double_eq_tol(tc_load(ag_grad(z), i), grad_each[i] * scale, 1e-6);
    }
}
END_TEST

/* z = Z.clone().requires_grad_(); l = F.cross_entropy(z, torch.tensor([0, -100, 3]), weight=W4)
   z1 = torch.tensor([1.0, 2.0, 0.5], requires_grad=True); F.cross_entropy(z1, torch.tensor(1))
   Z4 = (torch.arange(24.).view(2, 3, 2, 2) * 0.37).sin() * 2; z = Z4.clone().requires_grad_()
   F.cross_entropy(z, T4, weight=torch.tensor([0.5, 2.0, 1.0])); each .backward() */
START_TEST(nll_test_cross_entropy_options)
{
    tc_tensor *z = NLL_LEAF_F32(NLL_S(3, 4), NLL_Z_VALUES), *z1 = NLL_LEAF_F32(NLL_S(3), 1.0, 2.0, 0.5);
    tc_tensor *z4 = NLL_LEAF_F32(NLL_S(2, 3, 2, 2), NLL_Z4_VALUES), *loss;

    loss = K(ag_cross_entropy(z, NLL_I64(NLL_S(3), 0, -100, 3), NLL_W4(), NLL_MEAN, -100, 0.0));
    NLL_ASSERT_VALUES(loss, 0.4849937856197357);
    ck_assert_int_eq(ag_backward(loss, NULL, false), 0);
    NLL_ASSERT_VALUES(ag_grad(z), -0.14992700517177582, 0.09199672192335129, 0.03740307688713074,
                  0.02052723988890648, 0, 0, 0, 0, 0.13452470302581787, 0.01820593886077404,
                  0.0815933495759964, -0.23432397842407227);
    loss = K(ag_cross_entropy(z1, NLL_I64_0D(1), NULL, NLL_MEAN, -100, 0.0));
    NLL_ASSERT_VALUES(loss, 0.4643687903881073);
    ck_assert_int_eq(ag_backward(loss, NULL, false), 0);
    NLL_ASSERT_VALUES(ag_grad(z1), 0.23122388124465942, -0.37146830558776855, 0.14024437963962555);
    loss = K(ag_cross_entropy(z4, NLL_I64(NLL_S(2, 2, 2), 0, 2, 1, -100, 2, 2, 0, 1),
                              NLL_F32(NLL_S(3), 0.5, 2.0, 1.0), NLL_MEAN, -100, 0.0));
    NLL_ASSERT_VALUES(loss, 1.1167175769805908);
    ck_assert_str_eq(nll_chain(loss), "NllLoss2DBackward0 -> LogSoftmaxBackward0 -> "
                                      "AccumulateGrad");
    ck_assert_int_eq(ag_backward(loss, NULL, false), 0);
    NLL_ASSERT_VALUES(ag_grad(z4), -0.056098587810993195, 0.026873305439949036, 0.10561777651309967,
                  0.0, 0.046912312507629395, 0.08916182816028595, -0.11512050032615662, 0.0,
                  0.009186278097331524, -0.11603513360023499, 0.009502723813056946, 0.0,
                  0.0027298959903419018, 0.002012220211327076, -0.06134377047419548,
                  0.0072590685449540615, 0.009207499213516712, 0.01492962334305048,
                  0.014387810602784157, -0.14230096340179443, -0.011937402188777924,
                  -0.016941845417022705, 0.046955954283475876, 0.13504189252853394);
}
END_TEST

/* Label smoothing, class targets, with an ignored sample:
   TS = torch.tensor([0, 1, -100]); z = Z.clone().requires_grad_()
   l = F.cross_entropy(z, TS, weight=w, reduction=r, label_smoothing=0.1)
   l.sum().backward(), for w in None, W4 and r in 'none', 'mean', 'sum' */
START_TEST(nll_test_cross_entropy_smoothing)
{
    static const struct {
        tc_reduction reduction;
        bool weighted;
        double loss[3], grad[8];    /* the third row's gradient is 0 (ignored) */
    } cases[] = {
        { NLL_NONE, false, { 0.6047117114067078, 0.45134228467941284, 0.0 },
          { -0.2998175323009491, 0.20499177277088165, 0.06850767880678177, 0.02631809189915657,
            0.0768919363617897, -0.17211470007896423, 0.058422062546014786,
            0.03680058568716049 } },
        { NLL_NONE, true, { 0.6489545106887817, 0.7176464200019836, 0.0 },
          { -0.2841878831386566, 0.18574158847332, 0.08334538340568542, 0.015101047232747078,
            0.17114199697971344, -0.40069565176963806, 0.1480874866247177,
            0.08146613091230392 } },
        { NLL_MEAN, false, { 0.5280269980430603 },
          { -0.14990876615047455, 0.10249588638544083, 0.034253839403390884,
            0.013159045949578285, 0.03844596818089485, -0.08605735003948212,
            0.029211031273007393, 0.018400292843580246 } },
        { NLL_MEAN, true, { 0.4555336534976959 },
          { -0.09472930431365967, 0.061913855373859406, 0.027781791985034943,
            0.0050336807034909725, 0.05704732611775398, -0.1335652470588684,
            0.049362488090991974, 0.027155373245477676 } },
        { NLL_SUM, false, { 1.0560539960861206 },
          { -0.2998175323009491, 0.20499177277088165, 0.06850767880678177, 0.02631809189915657,
            0.0768919363617897, -0.17211470007896423, 0.058422062546014786,
            0.03680058568716049 } },
        { NLL_SUM, true, { 1.3666009902954102 },
          { -0.2841878831386566, 0.18574158847332, 0.08334538340568542, 0.015101047232747078,
            0.17114199697971344, -0.40069565176963806, 0.1480874866247177,
            0.08146613091230392 } },
    };

    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        tc_tensor *z = NLL_LEAF_F32(NLL_S(3, 4), NLL_Z_VALUES), *t = NLL_I64(NLL_S(3), 0, 1, -100);
        tc_tensor *loss = K(ag_cross_entropy(z, t, cases[k].weighted ? NLL_W4() : NULL,
                                             cases[k].reduction, -100, 0.1));
        int64_t n = cases[k].reduction == NLL_NONE ? 3 : 1;

        nll_assert_values(__LINE__, loss, n, cases[k].loss);
        ck_assert_int_eq(ag_backward(K(ag_sum(loss)), NULL, false), 0);
        for (int64_t i = 0; i < 12; i++)
            ck_assert_msg(fabs(tc_load(ag_grad(z), i) - (i < 8 ? cases[k].grad[i] : 0)) < 1e-6,
                          "case %zu, element %lld", k, (long long)i);
    }
}
END_TEST

/* The graph: PyTorch's, except where it zeroes the ignored samples
   (IndexPutBackward0 there, MaskedFillBackward0 here) and takes the
   unweighted mean (MeanBackward0 -> MaskedSelectBackward0 there,
   DivBackward1 -> SumBackward0 here):
   fn = F.cross_entropy(z, TS, label_smoothing=0.1).grad_fn
   type(fn).__name__ -> AddBackward0; its edges: MulBackward1, MulBackward1
   chain(fn.next_functions[0][0]) -> MulBackward1 -> NllLossBackward0 -> LogSoftmaxBackward0 -> AccumulateGrad
   chain(fn.next_functions[1][0]) -> MulBackward1 -> MeanBackward0 -> MaskedSelectBackward0 ->
       IndexPutBackward0 -> NegBackward0 -> SumBackward1 -> LogSoftmaxBackward0 -> AccumulateGrad
   with weight=W4: MulBackward1 -> DivBackward0 -> SumBackward0 -> IndexPutBackward0 ->
       NegBackward0 -> SumBackward1 -> MulBackward0 -> LogSoftmaxBackward0 -> AccumulateGrad,
       the DivBackward0's edges (SumBackward0, None) */
START_TEST(nll_test_cross_entropy_smoothing_graph)
{
    tc_tensor *z = NLL_LEAF_F32(NLL_S(3, 4), NLL_Z_VALUES), *t = NLL_I64(NLL_S(3), 0, 1, -100);
    tc_tensor *loss = K(ag_cross_entropy(z, t, NULL, NLL_MEAN, -100, 0.1));
    ag_node *fn = ag_grad_fn(loss), *smooth;

    ck_assert_str_eq(ag_node_type_name(fn), "AddBackward0");
    ck_assert_int_eq(ag_node_num_next(fn), 2);
    ck_assert_str_eq(nll_next_name(fn, 0), "MulBackward1");
    ck_assert_str_eq(nll_next_name(fn, 1), "MulBackward1");
    ck_assert_str_eq(nll_chain(K(ag_mul_number(K(ag_nll_loss(K(ag_log_softmax(z, 1)), t, NULL,
                                                              NLL_MEAN, -100)), 0.9))),
                     "MulBackward1 -> NllLossBackward0 -> LogSoftmaxBackward0 -> AccumulateGrad");
    smooth = ag_node_next(fn, 1).node;
    ck_assert_int_eq(ag_node_num_next(smooth), 1);
    ck_assert_str_eq(nll_next_name(smooth, 0), "DivBackward1");
    smooth = ag_node_next(smooth, 0).node;
    ck_assert_str_eq(nll_next_name(smooth, 0), "SumBackward0");
    smooth = ag_node_next(smooth, 0).node;
    ck_assert_str_eq(nll_next_name(smooth, 0), "MaskedFillBackward0");
    smooth = ag_node_next(smooth, 0).node;
    ck_assert_str_eq(nll_next_name(smooth, 0), "NegBackward0");
    loss = K(ag_cross_entropy(z, t, NLL_W4(), NLL_MEAN, -100, 0.1));
    smooth = ag_node_next(ag_node_next(ag_grad_fn(loss), 1).node, 0).node;
    ck_assert_str_eq(ag_node_type_name(smooth), "DivBackward0");
    ck_assert_str_eq(nll_next_name(smooth, 0), "SumBackward0");
    ck_assert_str_eq(nll_next_name(smooth, 1), "None");
    smooth = ag_node_next(ag_node_next(smooth, 0).node, 0).node;    /* MaskedFillBackward0 */
    smooth = ag_node_next(ag_node_next(smooth, 0).node, 0).node;    /* SumBackward1 */
    ck_assert_str_eq(ag_node_type_name(smooth), "SumBackward1");
    ck_assert_str_eq(nll_next_name(smooth, 0), "MulBackward0");
    ck_assert_str_eq(nll_next_name(ag_node_next(smooth, 0).node, 0), "LogSoftmaxBackward0");
    ck_assert_str_eq(nll_next_name(ag_node_next(smooth, 0).node, 1), "None");
}
END_TEST

/* F.cross_entropy(Z, TS, label_smoothing=1.0)  -> 1.8892769813537598
   F.cross_entropy(Z, TS, label_smoothing=-0.5) -> 0.3767769932746887 (= no smoothing)
   F.cross_entropy(Z, TS, label_smoothing=nan)  -> the same
   F.cross_entropy(Z, torch.tensor([-100, -100, -100]), label_smoothing=0.2) -> nan
   z1 = torch.tensor([1.0, 2.0, 0.5], requires_grad=True)
   F.cross_entropy(z1, torch.tensor(1), label_smoothing=0.3, reduction='none') -> 0.7143688201904297
   z = Z4.clone().requires_grad_()
   F.cross_entropy(z, T4, weight=torch.tensor([0.5, 2.0, 1.0]), label_smoothing=0.25) -> 1.208601474761963
   F.cross_entropy(z, T4, label_smoothing=0.25, reduction='none').sum().backward() */
START_TEST(nll_test_cross_entropy_smoothing_limits)
{
    tc_tensor *z = NLL_F32(NLL_S(3, 4), NLL_Z_VALUES), *t = NLL_I64(NLL_S(3), 0, 1, -100);
    tc_tensor *z1 = NLL_LEAF_F32(NLL_S(3), 1.0, 2.0, 0.5), *loss;
    tc_tensor *z4 = NLL_LEAF_F32(NLL_S(2, 3, 2, 2), NLL_Z4_VALUES);
    tc_tensor *t4 = NLL_I64(NLL_S(2, 2, 2), 0, 2, 1, -100, 2, 2, 0, 1);

    NLL_ASSERT_VALUES(K(ag_cross_entropy(z, t, NULL, NLL_MEAN, -100, 1.0)), 1.8892769813537598);
    NLL_ASSERT_VALUES(K(ag_cross_entropy(z, t, NULL, NLL_MEAN, -100, -0.5)), 0.3767769932746887);
    NLL_ASSERT_VALUES(K(ag_cross_entropy(z, t, NULL, NLL_MEAN, -100, NAN)), 0.3767769932746887);
    NLL_ASSERT_VALUES(K(ag_cross_entropy(z, NLL_I64(NLL_S(3), -100, -100, -100), NULL, NLL_MEAN, -100,
                                     0.2)), NAN);
    loss = K(ag_cross_entropy(z1, NLL_I64_0D(1), NULL, NLL_NONE, -100, 0.3));
    NLL_ASSERT_VALUES(loss, 0.7143688201904297);
    ck_assert_int_eq(ag_backward(loss, NULL, false), 0);
    NLL_ASSERT_VALUES(ag_grad(z1), 0.1312238872051239, -0.1714683175086975, 0.04024437814950943);
    NLL_ASSERT_VALUES(K(ag_cross_entropy(z4, t4, NLL_F32(NLL_S(3), 0.5, 2.0, 1.0), NLL_MEAN, -100,
                                     0.25)), 1.208601474761963);
    loss = K(ag_cross_entropy(z4, t4, NULL, NLL_NONE, -100, 0.25));
    ASSERT_SIZES(loss, 2, 2, 2);
    NLL_ASSERT_VALUES(loss, 2.082568645477295, 2.3520872592926025, 0.8585256338119507, 0.0,
                  0.6196722388267517, 0.6425403356552124, 3.471229314804077, 1.04802405834198);
    ck_assert_int_eq(ag_backward(K(ag_sum(loss)), NULL, false), 0);
    NLL_ASSERT_VALUES(ag_grad(z4), -0.7309107184410095, 0.1316531002521515, 0.3391377329826355, 0.0,
                  0.6672636270523071, 0.6299613118171692, -0.29381534457206726, 0.0,
                  0.06364710628986359, -0.7616143822669983, -0.045322444289922714, 0.0,
                  -0.061494167894124985, -0.06723557412624359, -0.8148336410522461,
                  -0.0542970634996891, -0.009673342108726501, 0.03610365092754364,
                  0.1468716263771057, -0.40253719687461853, 0.0711674690246582,
                  0.03113192319869995, 0.6679618954658508, 0.45683419704437256);
}
END_TEST

/* Q = torch.tensor([[0.7, 0.2, 0.1, 0.0], [0.0, 1.0, 0.0, 0.0], [0.25, 0.25, 0.25, 0.25]]) */
#define NLL_Q_VALUES 0.7, 0.2, 0.1, 0.0, 0.0, 1.0, 0.0, 0.0, 0.25, 0.25, 0.25, 0.25

/* Probability targets: z = Z.clone().requires_grad_()
   l = F.cross_entropy(z, Q, weight=w, reduction=r, label_smoothing=ls); l.sum().backward()
   for r in 'none', 'mean', 'sum', w in None, W4, ls in 0.0, 0.2 */
START_TEST(nll_test_cross_entropy_probabilities)
{
    static const struct {
        tc_reduction reduction;
        bool weighted;
        double smoothing, loss[3], grad[8];    /* the third row's gradient comes after */
    } cases[] = {
        { NLL_NONE, false, 0.0, { 0.8597116470336914, 0.2838422954082489, 1.870181918144226 },
          { -0.0748174786567688, 0.029991790652275085, -0.006492309272289276,
            0.05131809785962105, 0.10189194977283478, -0.2471146583557129,
            0.08342207223176956, 0.06180059164762497 } },
        { NLL_NONE, false, 0.2, { 1.0517116785049438, 0.6188423037528992, 1.870181918144226 },
          { 0.0151824951171875, 0.019991785287857056, -0.03649231791496277,
            0.0013180971145629883, 0.05189194902777672, -0.0971146821975708,
            0.0334220714867115, 0.01180059090256691 } },
        { NLL_NONE, true, 0.2, { 1.2805627584457397, 0.8676083087921143, 2.5564773082733154 },
          { 0.12146356701850891, -0.15090960264205933, 0.04440400376915932,
            -0.014957824721932411, 0.13850010931491852, -0.3071621358394623,
            0.1293308287858963, 0.039331093430519104 } },
        { NLL_MEAN, false, 0.0, { 1.0045785903930664 },
          { -0.02493915893137455, 0.009997263550758362, -0.0021641033235937357,
            0.017106033861637115, 0.03396398574113846, -0.0823715552687645,
            0.027807358652353287, 0.020600197836756706 } },
        { NLL_MEAN, true, 0.0, { 1.3864434957504272 },
          { 0.006319974549114704, -0.04516981542110443, 0.01917794905602932,
            0.019671939313411713, 0.06792797148227692, -0.164743110537529,
            0.055614717304706573, 0.04120039567351341 } },
        { NLL_MEAN, true, 0.2, { 1.5682162046432495 },
          { 0.0404878593981266, -0.05030320584774017, 0.014801335521042347,
            -0.004985939711332321, 0.04616670310497284, -0.10238742083311081,
            0.04311027750372887, 0.01311036478728056 } },
        { NLL_SUM, false, 0.2, { 3.540736198425293 },
          { 0.0151824951171875, 0.019991785287857056, -0.03649231791496277,
            0.0013180971145629883, 0.05189194902777672, -0.0971146821975708,
            0.0334220714867115, 0.01180059090256691 } },
        { NLL_SUM, true, 0.0, { 4.159330368041992 },
          { 0.018959883600473404, -0.1355094462633133, 0.05753384158015251,
            0.05901581048965454, 0.20378389954566956, -0.4942293167114258,
            0.16684414446353912, 0.12360118329524994 } },
    };

    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        tc_tensor *z = NLL_LEAF_F32(NLL_S(3, 4), NLL_Z_VALUES), *q = NLL_F32(NLL_S(3, 4), NLL_Q_VALUES);
        tc_tensor *loss = K(ag_cross_entropy(z, q, cases[k].weighted ? NLL_W4() : NULL,
                                             cases[k].reduction, -100, cases[k].smoothing));

        nll_assert_values(__LINE__, loss, cases[k].reduction == NLL_NONE ? 3 : 1, cases[k].loss);
        ck_assert_int_eq(ag_backward(K(ag_sum(loss)), NULL, false), 0);
        for (int64_t i = 0; i < 8; i++)
            ck_assert_msg(fabs(tc_load(ag_grad(z), i) - cases[k].grad[i]) < 1e-6,
                          "case %zu, element %lld", k, (long long)i);
    }
}
END_TEST

/* chain(F.cross_entropy(z, Q).grad_fn), with weight=W4, with reduction='none':
   DivBackward1 -> NegBackward0 -> SumBackward0 -> MulBackward0 -> LogSoftmaxBackward0 -> AccumulateGrad
   DivBackward1 -> NegBackward0 -> SumBackward0 -> MulBackward0 -> MulBackward0 -> LogSoftmaxBackward0 -> ...
   NegBackward0 -> SumBackward1 -> MulBackward0 -> LogSoftmaxBackward0 -> AccumulateGrad
   A target that requires grad gets its gradient (q = Q.clone().requires_grad_()):
   l = F.cross_entropy(z, q, label_smoothing=0.2); l.backward(); q.grad
   mul = l.grad_fn.next_functions[0][0].next_functions[0][0].next_functions[0][0]
   [type(f).__name__ for f, _ in mul.next_functions] -> LogSoftmaxBackward0, AddBackward1
   chain(mul.next_functions[1][0]) -> AddBackward1 -> MulBackward1 -> AccumulateGrad
   An empty input: ze = torch.zeros(0, 4, requires_grad=True); l = F.cross_entropy(ze, torch.zeros(0, 4))
   l -> nan; chain(l.grad_fn) -> NegBackward0 -> FillBackward2 -> SumBackward0 -> MulBackward0 -> ...
   The mean divides by N, not by the weights:
   F.cross_entropy(Z, torch.tensor([0, 1, 3]), weight=W4) -> 0.39559313654899597
   F.cross_entropy(Z, onehot, weight=W4) -> 0.5933896899223328 (onehot: the same targets)
   F.cross_entropy(torch.tensor([1.0, 2.0, 0.5]), torch.tensor([0.2, 0.3, 0.5]),
                   weight=torch.tensor([1.0, 2.0, 3.0])) -> 3.5180482864379883
   F.cross_entropy(Z, Q.double()) -> 1.004578619475882, dtype=torch.float64 */
START_TEST(nll_test_cross_entropy_probabilities_graph)
{
    tc_tensor *z = NLL_LEAF_F32(NLL_S(3, 4), NLL_Z_VALUES), *q = NLL_LEAF_F32(NLL_S(3, 4), NLL_Q_VALUES);
    tc_tensor *qc = NLL_F32(NLL_S(3, 4), NLL_Q_VALUES), *loss, *ze, *d;
    ag_node *mul;

    ck_assert_str_eq(nll_chain(K(ag_cross_entropy(z, qc, NULL, NLL_MEAN, -100, 0.0))),
                     "DivBackward1 -> NegBackward0 -> SumBackward0 -> MulBackward0 -> "
                     "LogSoftmaxBackward0 -> AccumulateGrad");
    ck_assert_str_eq(nll_chain(K(ag_cross_entropy(z, qc, NLL_W4(), NLL_MEAN, -100, 0.0))),
                     "DivBackward1 -> NegBackward0 -> SumBackward0 -> MulBackward0 -> "
                     "MulBackward0 -> LogSoftmaxBackward0 -> AccumulateGrad");
    ck_assert_str_eq(nll_chain(K(ag_cross_entropy(z, qc, NULL, NLL_NONE, -100, 0.0))),
                     "NegBackward0 -> SumBackward1 -> MulBackward0 -> LogSoftmaxBackward0 -> "
                     "AccumulateGrad");
    loss = K(ag_cross_entropy(z, q, NULL, NLL_MEAN, -100, 0.2));
    mul = ag_node_next(ag_node_next(ag_node_next(ag_grad_fn(loss), 0).node, 0).node, 0).node;
    ck_assert_str_eq(nll_next_name(mul, 0), "LogSoftmaxBackward0");
    ck_assert_str_eq(nll_next_name(mul, 1), "AddBackward1");
    ck_assert_str_eq(nll_next_name(ag_node_next(mul, 1).node, 0), "MulBackward1");
    ck_assert_int_eq(ag_backward(loss, NULL, false), 0);
    NLL_ASSERT_VALUES(ag_grad(q), 0.1252564638853073, 0.39192312955856323, 0.6319231390953064,
                  0.7919231653213501, 0.6090246438980103, 0.07569128274917603,
                  0.6623579859733582, 0.7423579692840576, 0.39871519804000854, 0.932048499584198,
                  0.5320485234260559, 0.13204851746559143);
    ze = K(tc_zeros(NLL_S(0, 4), TC_FLOAT32));
    ck_assert_int_eq(ag_set_requires_grad(ze, true), 0);
    loss = K(ag_cross_entropy(ze, K(tc_zeros(NLL_S(0, 4), TC_FLOAT32)), NULL, NLL_MEAN, -100,
                              0.0));
    NLL_ASSERT_VALUES(loss, NAN);
    ck_assert_str_eq(nll_chain(loss), "NegBackward0 -> FillBackward2 -> SumBackward0 -> "
                                      "MulBackward0 -> LogSoftmaxBackward0 -> AccumulateGrad");
    NLL_ASSERT_VALUES(K(ag_cross_entropy(NLL_F32(NLL_S(3, 4), NLL_Z_VALUES), NLL_I64(NLL_S(3), 0, 1, 3), NLL_W4(),
                                     NLL_MEAN, -100, 0.0)), 0.39559313654899597);
    NLL_ASSERT_VALUES(K(ag_cross_entropy(NLL_F32(NLL_S(3, 4), NLL_Z_VALUES),
                                     NLL_F32(NLL_S(3, 4), 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1), NLL_W4(),
                                     NLL_MEAN, -100, 0.0)), 0.5933896899223328);
    NLL_ASSERT_VALUES(K(ag_cross_entropy(NLL_F32(NLL_S(3), 1.0, 2.0, 0.5), NLL_F32(NLL_S(3), 0.2, 0.3, 0.5),
                                     NLL_F32(NLL_S(3), 1.0, 2.0, 3.0), NLL_MEAN, -100, 0.0)),
                  3.5180482864379883);
    d = K(ag_cross_entropy(NLL_F32(NLL_S(3, 4), NLL_Z_VALUES), NLL_F64(NLL_S(3, 4), NLL_Q_VALUES), NULL,
                           NLL_MEAN, -100, 0.0));
    ck_assert_int_eq(d->dtype, TC_FLOAT64);
    ck_assert_double_eq_tol(tc_load(d, 0), 1.004578619475882, 1e-7);
}
END_TEST

/* A weight that requires grad is allowed with probability targets (the
   loss is made of ordinary operations), and gets its gradient:
   w = torch.tensor([1.0, 2.0, 0.5, 1.5], requires_grad=True)
   l = F.cross_entropy(Z, Q, weight=w); l.backward(); l -> 1.3864434957504272
   m = l.grad_fn.next_functions[0][0].next_functions[0][0].next_functions[0][0]
   [type(f).__name__ if f else None for f, _ in m.next_functions] -> [None, 'ViewBackward0']
   w.grad -> [0.23419788479804993, 0.483860045671463, 0.24525555968284607, 0.04126515984535217] */
START_TEST(nll_test_cross_entropy_probabilities_weight_grad)
{
    tc_tensor *w = NLL_LEAF_F32(NLL_S(4), 1.0, 2.0, 0.5, 1.5);
    tc_tensor *loss = K(ag_cross_entropy(NLL_F32(NLL_S(3, 4), NLL_Z_VALUES),
                                         NLL_F32(NLL_S(3, 4), NLL_Q_VALUES), w, NLL_MEAN, -100,
                                         0.0));
    ag_node *mul;

    NLL_ASSERT_VALUES(loss, 1.3864434957504272);
    mul = ag_node_next(ag_node_next(ag_node_next(ag_grad_fn(loss), 0).node, 0).node, 0).node;
    ck_assert_str_eq(ag_node_type_name(mul), "MulBackward0");
    ck_assert_str_eq(nll_next_name(mul, 0), "None");
    ck_assert_str_eq(nll_next_name(mul, 1), "ViewBackward0");
    ck_assert_int_eq(ag_backward(loss, NULL, false), 0);
    NLL_ASSERT_VALUES(ag_grad(w), 0.23419788479804993, 0.483860045671463, 0.24525555968284607,
                      0.04126515984535217);
}
END_TEST

/* ag_cross_entropy's own checks, with PyTorch's messages (z = torch.zeros(3, 5)):
   F.cross_entropy(z, torch.ones(3, 5, dtype=torch.long))
   F.cross_entropy(z, torch.rand(3, 5), ignore_index=1)     (ignore_index=-1 is accepted)
   F.cross_entropy(z, torch.rand(3, 5), weight=torch.ones(4))
   F.cross_entropy(z, t, label_smoothing=1.5); with probability targets too; 2.0; 1e10; inf
   F.cross_entropy(torch.tensor(1.), torch.tensor(1.)); (torch.tensor(1.), torch.tensor(1))
   F.cross_entropy(z, torch.rand(3)) (a float class target); torch.rand(3, 4)
   F.cross_entropy(torch.zeros(2, 5, 2, 2), torch.zeros(2, 2, 2, dtype=torch.long),
                   weight=torch.ones(5, 1), label_smoothing=0.1)    (gather's message)
   F.cross_entropy(torch.zeros(2, 1, 2, 2), ..., weight=torch.tensor(2.), label_smoothing=0.1)
   F.cross_entropy(z, t, weight=torch.ones(4), label_smoothing=0.1) (nll_loss's message) */
START_TEST(nll_test_cross_entropy_errors)
{
    tc_tensor *z = K(tc_zeros(NLL_S(3, 5), TC_FLOAT32)), *t = NLL_I64(NLL_S(3), 1, 0, 4);
    tc_tensor *p = K(tc_full(NLL_S(3, 5), 0.2, TC_FLOAT32));
    tc_tensor *z4 = K(tc_zeros(NLL_S(2, 5, 2, 2), TC_FLOAT32));
    tc_tensor *t4 = K(tc_zeros(NLL_S(2, 2, 2), TC_INT64));

    EXPECT_FAILS(ag_cross_entropy(z, K(tc_ones(NLL_S(3, 5), TC_INT64)), NULL, NLL_MEAN, -100,
                                  0.0),
                 "Expected floating point type for target with class probabilities, got Long");
    EXPECT_FAILS(ag_cross_entropy(z, K(tc_ones(NLL_S(3, 5), TC_BOOL)), NULL, NLL_MEAN, 1, 0.0),
                 "Expected floating point type for target with class probabilities, got Bool");
    EXPECT_FAILS(ag_cross_entropy(z, p, NULL, NLL_MEAN, 1, 0.0),
                 "ignore_index is not supported for floating point target");
    ck_assert_ptr_nonnull(K(ag_cross_entropy(z, p, NULL, NLL_MEAN, -1, 0.0)));
    EXPECT_FAILS(ag_cross_entropy(z, p, K(tc_ones(NLL_S(4), TC_FLOAT32)), NLL_MEAN, -100, 0.0),
                 "cross_entropy: weight tensor should be defined either for all 5 classes or no "
                 "classes but got weight tensor of shape: [4]");
    EXPECT_FAILS(ag_cross_entropy(z, p, K(tc_ones(NLL_S(5, 1), TC_FLOAT32)), NLL_MEAN, -100,
                                  0.0),
                 "cross_entropy: weight tensor should be defined either for all 5 classes or no "
                 "classes but got weight tensor of shape: [5, 1]");
    EXPECT_FAILS(ag_cross_entropy(z, t, NULL, NLL_MEAN, -100, 1.5),
                 "label_smoothing must be between 0.0 and 1.0. Got: 1.5");
    EXPECT_FAILS(ag_cross_entropy(z, p, NULL, NLL_MEAN, -100, 1.5),
                 "label_smoothing must be between 0.0 and 1.0. Got: 1.5");
    EXPECT_FAILS(ag_cross_entropy(z, t, NULL, NLL_MEAN, -100, 2.0),
                 "label_smoothing must be between 0.0 and 1.0. Got: 2");
    EXPECT_FAILS(ag_cross_entropy(z, t, NULL, NLL_MEAN, -100, 1e10),
                 "label_smoothing must be between 0.0 and 1.0. Got: 1e+10");
    EXPECT_FAILS(ag_cross_entropy(z, t, NULL, NLL_MEAN, -100, INFINITY),
                 "label_smoothing must be between 0.0 and 1.0. Got: inf");
    EXPECT_FAILS(ag_cross_entropy(NLL_F32(TC_SCALAR_SHAPE, 1.0), NLL_F32(TC_SCALAR_SHAPE, 1.0), NULL,
                                  NLL_MEAN, -100, 0.0),
                 "Dimension specified as 1 but tensor has no dimensions");
    EXPECT_FAILS(ag_cross_entropy(NLL_F32(TC_SCALAR_SHAPE, 1.0), NLL_I64_0D(1), NULL, NLL_MEAN, -100,
                                  0.0),
                 "Expected floating point type for target with class probabilities, got Long");
    EXPECT_FAILS(ag_cross_entropy(z, K(tc_zeros(NLL_S(3), TC_FLOAT32)), NULL, NLL_MEAN, -100,
                                  0.0),
                 "expected scalar type Long but found Float");
    EXPECT_FAILS(ag_cross_entropy(z, K(tc_zeros(NLL_S(3, 4), TC_FLOAT32)), NULL, NLL_MEAN, -100,
                                  0.0),
                 "0D or 1D target tensor expected, multi-target not supported");
    EXPECT_FAILS(ag_cross_entropy(z4, t4, K(tc_ones(NLL_S(5, 1), TC_FLOAT32)), NLL_MEAN, -100,
                                  0.1),
                 "Index tensor must have the same number of dimensions as input tensor");
    /* ... but the sum is computed: 13.4756-like values, so only its success */
    ck_assert_ptr_nonnull(K(ag_cross_entropy(z4, t4, K(tc_ones(NLL_S(5, 1), TC_FLOAT32)),
                                             NLL_SUM, -100, 0.1)));
    EXPECT_FAILS(ag_cross_entropy(K(tc_zeros(NLL_S(2, 1, 2, 2), TC_FLOAT32)), t4,
                                  NLL_F32(TC_SCALAR_SHAPE, 2.0), NLL_MEAN, -100, 0.1),
                 "Dimension specified as 0 but tensor has no dimensions");
    EXPECT_FAILS(ag_cross_entropy(z, t, K(tc_ones(NLL_S(4), TC_FLOAT32)), NLL_MEAN, -100, 0.1),
                 "weight tensor should be defined either for all 5 classes or no classes but "
                 "got weight tensor of shape: [4]");
    EXPECT_FAILS(ag_cross_entropy(z, NLL_I64(NLL_S(3), 1, 7, 0), NULL, NLL_MEAN, -100, 0.1),
                 "Target 7 is out of bounds.");
    EXPECT_FAILS(ag_cross_entropy(z, t, NULL, (tc_reduction)-1, -100, 0.0),
                 "-1 is not a valid value for reduction");
}
END_TEST

/* -------------------------------------- masked_fill and the ops with a C number */

/* x = torch.tensor([[1., 2., 3.], [4., 5., 6.]], requires_grad=True)
   y = x.masked_fill(torch.tensor([True, False, True]), -1.5)
   y, len(y.grad_fn.next_functions) -> [[-1.5, 2, -1.5], [-1.5, 5, -1.5]], 1
   (y * torch.tensor([1., 2., 3.])).sum().backward(); x.grad -> [[0, 2, 0], [0, 2, 0]]
   torch.zeros(4, dtype=torch.long).masked_fill(torch.ones(4, dtype=torch.bool), 1.5) -> [1, 1, 1, 1]
   torch.ops.aten.mul.Scalar(x, 2.5): MulBackward1, one edge, grad 2.5;
   div.Scalar(x, 4.): DivBackward1, grad 0.25; add.Scalar(x, 4.): AddBackward1 */
START_TEST(nll_test_masked_fill_and_numbers)
{
    tc_tensor *x = NLL_LEAF_F32(NLL_S(2, 3), 1, 2, 3, 4, 5, 6);
    tc_tensor *mask = K(tc_zeros(NLL_S(3), TC_BOOL)), *y, *v;

    tc_store(mask, 0, 1);
    tc_store(mask, 2, 1);
    y = K(ag_masked_fill(x, mask, -1.5));
    NLL_ASSERT_VALUES(y, -1.5, 2, -1.5, -1.5, 5, -1.5);
    ck_assert_str_eq(ag_node_type_name(ag_grad_fn(y)), "MaskedFillBackward0");
    ck_assert_int_eq(ag_node_num_next(ag_grad_fn(y)), 1);
    ck_assert_int_eq(ag_backward(K(ag_sum(K(ag_mul(y, NLL_F32(NLL_S(3), 1, 2, 3))))), NULL, false),
                     0);
    NLL_ASSERT_VALUES(ag_grad(x), 0, 2, 0, 0, 2, 0);
    v = K(ag_masked_fill(K(tc_zeros(NLL_S(4), TC_INT64)), K(tc_ones(NLL_S(4), TC_BOOL)), 1.5));
    ck_assert_int_eq(v->dtype, TC_INT64);
    NLL_ASSERT_VALUES(v, 1, 1, 1, 1);
    EXPECT_FAILS(ag_masked_fill(x, K(tc_ones(NLL_S(3), TC_INT64)), 0.0),
                 "masked_fill_ only supports boolean masks, but got mask with dtype Long");
    EXPECT_FAILS(ag_masked_fill(x, K(tc_ones(NLL_S(2), TC_BOOL)), 0.0),
                 "The size of tensor a (2) must match the size of tensor b (3) at non-singleton "
                 "dimension 1");

    x = NLL_LEAF_F32(NLL_S(2), 1, 2);
    y = K(ag_mul_number(x, 2.5));
    NLL_ASSERT_VALUES(y, 2.5, 5);
    ck_assert_str_eq(ag_node_type_name(ag_grad_fn(y)), "MulBackward1");
    ck_assert_int_eq(ag_node_num_next(ag_grad_fn(y)), 1);
    ck_assert_int_eq(ag_backward(K(ag_sum(y)), NULL, false), 0);
    NLL_ASSERT_VALUES(ag_grad(x), 2.5, 2.5);
    x = NLL_LEAF_F32(NLL_S(2), 1, 2);
    y = K(ag_div_number(x, 4.0));
    NLL_ASSERT_VALUES(y, 0.25, 0.5);
    ck_assert_str_eq(ag_node_type_name(ag_grad_fn(y)), "DivBackward1");
    ck_assert_int_eq(ag_backward(K(ag_sum(y)), NULL, false), 0);
    NLL_ASSERT_VALUES(ag_grad(x), 0.25, 0.25);
    y = K(ag_add_number(x, 4.0));
    NLL_ASSERT_VALUES(y, 5, 6);
    ck_assert_str_eq(ag_node_type_name(ag_grad_fn(y)), "AddBackward1");
    ck_assert_int_eq(ag_node_num_next(ag_grad_fn(y)), 1);
}
END_TEST

/* ------------------------------------------------------------------- the suite */

static void ch06_add_nll(Suite *s)
{
    TCase *kernels = testing_tcase("nll kernels", NULL, NULL);
    TCase *graph = testing_tcase("nll_loss in the autograd layer", NULL, NULL);
    TCase *ce = testing_tcase("cross_entropy composed", NULL, NULL);

    tcase_set_timeout(kernels, 30);
    tcase_add_test(kernels, nll_test_nll_forward_reductions);
    tcase_add_test(kernels, nll_test_nll_forward_weight_and_ignore);
    tcase_add_test(kernels, nll_test_nll_forward_nothing_counts);
    tcase_add_test(kernels, nll_test_nll_forward_unbatched);
    tcase_add_test(kernels, nll_test_nll_forward_4d);
    tcase_add_test(kernels, nll_test_nll_forward_other_ranks);
    tcase_add_test(kernels, nll_test_nll_forward_strided_and_double);
    tcase_add_test(kernels, nll_test_nll_forward_cascade);
    tcase_add_test(kernels, nll_test_nll_backward_2d);
    tcase_add_test(kernels, nll_test_nll_backward_other_ranks);
    tcase_add_test(kernels, nll_test_nll_backward_errors);
    tcase_add_test(kernels, nll_test_nll_forward_errors);
    tcase_add_test(kernels, nll_test_nll_null_arguments);
    suite_add_tcase(s, kernels);
    tcase_add_test(graph, nll_test_nll_graph_by_rank);
    tcase_add_test(graph, nll_test_nll_graph_gradients);
    tcase_add_test(graph, nll_test_nll_graph_refusals);
    suite_add_tcase(s, graph);
    tcase_add_test(ce, nll_test_cross_entropy_class_targets);
    tcase_add_test(ce, nll_test_cross_entropy_options);
    tcase_add_test(ce, nll_test_cross_entropy_smoothing);
    tcase_add_test(ce, nll_test_cross_entropy_smoothing_graph);
    tcase_add_test(ce, nll_test_cross_entropy_smoothing_limits);
    tcase_add_test(ce, nll_test_cross_entropy_probabilities);
    tcase_add_test(ce, nll_test_cross_entropy_probabilities_graph);
    tcase_add_test(ce, nll_test_cross_entropy_probabilities_weight_grad);
    tcase_add_test(ce, nll_test_cross_entropy_errors);
    tcase_add_test(ce, nll_test_masked_fill_and_numbers);
    suite_add_tcase(s, ce);
}
