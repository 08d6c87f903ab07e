/* check_ch10_optim.h: torch.optim.SGD. The expected values were printed
   by torch 1.13 on this machine: the step cases by
   tests/pytorch/ch10_sgd_cases.py (into check_ch10_optim_cases.h), the
   others by the short torch lines quoted above each test. */

/* One case of the table: SGD's options, the dtype, the 40 values of (W, b)
   after each of the four steps (uint32 bits for float32, double for
   float64) and the momentum buffers after the last (NULL without
   momentum). */
typedef struct {
    double lr, momentum, dampening, weight_decay;
    bool nesterov, maximize;
    tc_dtype dtype;
    const void *steps[4];
    const void *buf;
} sgd_case;

#include "check_ch10_optim_cases.h"

enum { SGD_W_NUMEL = 35, SGD_NUMEL = 40 };

static tc_sgd_options sgd_opts(double lr, double momentum, double dampening,
                               double weight_decay, bool nesterov, bool maximize)
{
    return (tc_sgd_options){ .lr = lr, .momentum = momentum, .dampening = dampening,
                             .weight_decay = weight_decay, .nesterov = nesterov,
                             .maximize = maximize };
}

/* A float32 or float64 tensor of this shape holding the float32 bits. */
static tc_tensor *sgd_from_bits(tc_shape shape, tc_dtype dtype, const uint32_t *bits)
{
    tc_tensor *t = tc_empty(shape, dtype);
    ck_assert_ptr_nonnull(t);
    for (int64_t i = 0; i < tc_numel(t); i++) {
        float f;
        memcpy(&f, &bits[i], sizeof f);
        tc_store(t, i, f);
    }
    return t;
}

/* A leaf that requires grad, with these values; W transposed: laid out
   as (7, 5).t() would be. */
static tc_tensor *sgd_leaf(tc_shape shape, tc_dtype dtype, const uint32_t *bits,
                           bool transposed)
{
    tc_tensor *values = sgd_from_bits(shape, dtype, bits), *leaf;
    if (transposed) {
        tc_tensor *base = tc_empty(TC_SHAPE(shape.sizes[1], shape.sizes[0]), dtype);
        leaf = tc_t(base);
        tc_release(base);
        ck_assert_int_eq(tc_copy_(leaf, values), 0);
        ck_assert(!tc_is_contiguous(leaf));
    } else {
        leaf = tc_retain(values);
    }
    tc_release(values);
    ck_assert_int_eq(ag_set_requires_grad(leaf, true), 0);
    return leaf;
}

/* Give W the grad gw and b the grad gb (NULL: none), exactly: the grad of
   sum(W * gw) + sum(b * gb) is 1 * gw and 1 * gb. */
static void sgd_set_grads(tc_sgd *opt, tc_tensor *w, const tc_tensor *gw, tc_tensor *b,
                          const tc_tensor *gb)
{
    ck_assert_int_eq(tc_sgd_zero_grad(opt, true), 0);
    tc_tensor *loss = K(ag_sum(K(ag_mul(w, gw))));
    if (gb != NULL)
        loss = K(ag_add(loss, K(ag_sum(K(ag_mul(b, gb))))));
    ck_assert_ptr_nonnull(loss);
    ck_assert_int_eq(ag_backward(loss, NULL, false), 0);
    ck_assert_ptr_nonnull(ag_grad(w));
    ck_assert((ag_grad(b) != NULL) == (gb != NULL));
}

/* The 40 values of (W, b), or of their momentum buffers, equal want
   bitwise (float32 as bits; float64 as doubles, NaN never expected). */
static void sgd_assert_values(const tc_tensor *w, const tc_tensor *b, tc_dtype dtype,
                              const void *want, const char *what, int c, int step)
{
    for (int64_t i = 0; i < SGD_NUMEL; i++) {
        double got = i < SGD_W_NUMEL ? testing_element(w, i)
                                     : testing_element(b, i - SGD_W_NUMEL);
        if (dtype == TC_FLOAT32) {
            float f = (float)got;
            uint32_t bits;
            memcpy(&bits, &f, sizeof bits);
            ck_assert_msg(bits == ((const uint32_t *)want)[i],
                          "case %d %s after step %d, element %lld: 0x%08x, torch 0x%08x", c,
                          what, step, (long long)i, (unsigned)bits,
                          (unsigned)((const uint32_t *)want)[i]);
        } else {
            ck_assert_msg(got == ((const double *)want)[i],
                          "case %d %s after step %d, element %lld: %a, torch %a", c, what,
                          step, (long long)i, got, ((const double *)want)[i]);
        }
    }
}

/* Run case c: four steps as ch10_sgd_cases.py takes them (both grads; W's
   only; both; zero grads after zero_grad(set_to_none=false)), each
   compared with torch's values bitwise. */
static void sgd_run_case(int c, bool transposed)
{
    const sgd_case *k = &SGD_CASES[c];
    const uint32_t *gw_bits[] = { SGD_GW1, SGD_GW2, SGD_GW3 };
    const uint32_t *gb_bits[] = { SGD_GB1, SGD_GB2, SGD_GB3 };
    tc_tensor *w = K(sgd_leaf(TC_SHAPE(5, 7), k->dtype, SGD_W0, transposed));
    tc_tensor *b = K(sgd_leaf(TC_SHAPE(5), k->dtype, SGD_B0, false));
    tc_tensor *params[] = { w, b };
    tc_sgd *opt = tc_sgd_new(2, params, sgd_opts(k->lr, k->momentum, k->dampening,
                                                 k->weight_decay, k->nesterov, k->maximize));
    ck_assert_ptr_nonnull(opt);
    for (int step = 1; step <= 4; step++) {
        if (step < 4) {
            tc_tensor *gw = K(sgd_from_bits(TC_SHAPE(5, 7), k->dtype, gw_bits[step - 1]));
            tc_tensor *gb = K(sgd_from_bits(TC_SHAPE(5), k->dtype, gb_bits[step - 1]));
            sgd_set_grads(opt, w, gw, b, step == 2 ? NULL : gb);
        } else {
            ck_assert_int_eq(tc_sgd_zero_grad(opt, false), 0);
        }
        ck_assert_int_eq(tc_sgd_step(opt), 0);
        sgd_assert_values(w, b, k->dtype, k->steps[step - 1], "params", c, step);
    }
    if (k->buf != NULL)
        sgd_assert_values(tc_sgd_momentum_buffer(opt, 0), tc_sgd_momentum_buffer(opt, 1),
                          k->dtype, k->buf, "momentum buffers", c, 4);
    else
        ck_assert(tc_sgd_momentum_buffer(opt, 0) == NULL && tc_sgd_momentum_buffer(opt, 1) == NULL);
    tc_sgd_free(opt);
}

/* Every option combination of the table, float32 and float64, four steps
   each, bit for bit. Element for element, SGD is PyTorch's chain of
   elementwise operations, so the bits agree wherever the rounding agrees:
   each alpha rounded to the parameter's type as a Scalar is, and each
   a + alpha * b fused into one rounding as PyTorch's AVX2 kernels (vector
   body and scalar tail alike) compute it. */
START_TEST(test_sgd_steps_match_torch)
{
    int n = (int)(sizeof SGD_CASES / sizeof SGD_CASES[0]);
    for (int cap = TC_CPU_DEFAULT; cap <= TC_CPU_AVX2; cap++) {    /* scalar, then 8 lanes */
        if (!tc_cpu_capability_supported((tc_cpu_capability)cap))
            continue;
        ck_assert(tc_cpu_capability_set((tc_cpu_capability)cap));
        for (int c = 0; c < n; c++) {
            sgd_run_case(c, false);
            testing_release_kept();
        }
    }
    tc_cpu_capability_reset();
}
END_TEST

/* A parameter that is not contiguous (W laid out transposed) takes the
   same steps, element for element. */
START_TEST(test_sgd_steps_strided_param)
{
    sgd_run_case(6, true);      /* momentum, nesterov, weight decay, maximize */
    sgd_run_case(10, true);     /* momentum with dampening */
}
END_TEST

/* The table is strong enough to tell a fused multiply-add from a product
   rounded before the sum: W - lr * g with the product rounded first
   differs from torch's first step of case 0 in some element. */
START_TEST(test_sgd_table_sees_fma)
{
    int differ = 0;
    for (int i = 0; i < SGD_W_NUMEL; i++) {
        float w, g, want;
        memcpy(&w, &SGD_W0[i], sizeof w);
        memcpy(&g, &SGD_GW1[i], sizeof g);
        memcpy(&want, &((const uint32_t *)SGD_CASES[0].steps[0])[i], sizeof want);
        volatile float product = (float)-0.1 * g;
        volatile float unfused = w + product;
        ck_assert(fmaf((float)-0.1, g, w) == want);
        differ += unfused != want;
    }
    ck_assert_int_gt(differ, 0);
}
END_TEST

/* Parameters without a grad are skipped: no change to the value, the
   version or the momentum buffer (step 2 of the table leaves b alone,
   which torch's values show too). */
START_TEST(test_sgd_skips_params_without_grad)
{
    for (int c = 0; c < (int)(sizeof SGD_CASES / sizeof SGD_CASES[0]); c++) {
        size_t size = SGD_CASES[c].dtype == TC_FLOAT32 ? 4 : 8;
        const char *s1 = SGD_CASES[c].steps[0], *s2 = SGD_CASES[c].steps[1];
        ck_assert(memcmp(s1 + SGD_W_NUMEL * size, s2 + SGD_W_NUMEL * size, 5 * size) == 0);
        ck_assert(memcmp(s1, s2, SGD_W_NUMEL * size) != 0);
    }
    tc_tensor *p = K(tc_from_data(TC_SHAPE(2), TC_FLOAT32, (float[]){ 1, 2 }));
    tc_tensor *q = K(tc_from_data(TC_SHAPE(2), TC_FLOAT32, (float[]){ 3, 4 }));
    ck_assert_int_eq(ag_set_requires_grad(p, true), 0);
    tc_tensor *params[] = { p, q };     /* q does not even require grad */
    tc_sgd *opt = tc_sgd_new(2, params, sgd_opts(0.5, 0.9, 0, 0.1, false, false));
    ck_assert_ptr_nonnull(opt);
    ck_assert_int_eq(tc_sgd_step(opt), 0);             /* no grads at all: nothing */
    ck_assert_int_eq(ag_version(p), 0);
    ck_assert(tc_sgd_momentum_buffer(opt, 0) == NULL);
    ck_assert_int_eq(ag_backward(K(ag_sum(p)), NULL, false), 0);
    ck_assert_int_eq(tc_sgd_step(opt), 0);
    /* p - 0.5 * (1 + 0.1 p): 1 - 0.5 * 1.1 = 0.45, 2 - 0.5 * 1.2 = 1.4 (in float) */
    ck_assert(testing_get(p, IDX(0)) == (double)fmaf(-0.5f, fmaf(0.1f, 1, 1), 1));
    ck_assert(testing_get(p, IDX(1)) == (double)fmaf(-0.5f, fmaf(0.1f, 2, 1), 2));
    ck_assert(testing_get(q, IDX(0)) == 3 && testing_get(q, IDX(1)) == 4);
    ck_assert_int_eq(ag_version(q), 0);
    ck_assert(tc_sgd_momentum_buffer(opt, 1) == NULL);
    ck_assert_ptr_nonnull(tc_sgd_momentum_buffer(opt, 0));
    tc_sgd_free(opt);
}
END_TEST

/* SGD.__init__'s checks, with torch 1.13's texts (each printed by
   torch.optim.SGD([p], ...) in a try/except). */
START_TEST(test_sgd_constructor_errors)
{
    tc_tensor *p = K(tc_zeros(TC_SHAPE(3), TC_FLOAT32));
    ck_assert_int_eq(ag_set_requires_grad(p, true), 0);
    tc_tensor *params[] = { p };
    static const struct {
        tc_sgd_options o;
        const char *message;
    } bad[] = {
        { { .lr = -0.1 }, "Invalid learning rate: -0.1" },
        { { .lr = -1 }, "Invalid learning rate: -1" },              /* lr=-1 */
        { { .lr = -1e-20 }, "Invalid learning rate: -1e-20" },
        { { .lr = -INFINITY }, "Invalid learning rate: -inf" },
        { { .lr = 0.1, .momentum = -1 }, "Invalid momentum value: -1" },
        { { .lr = 0.1, .momentum = -0.5 }, "Invalid momentum value: -0.5" },
        { { .lr = 0.1, .weight_decay = -1 }, "Invalid weight_decay value: -1" },
        { { .lr = 0.1, .nesterov = true },
          "Nesterov momentum requires a momentum and zero dampening" },
        { { .lr = 0.1, .momentum = 0.9, .dampening = 0.1, .nesterov = true },
          "Nesterov momentum requires a momentum and zero dampening" },
        { { .lr = 0.1, .momentum = 0.9, .dampening = -0.1, .nesterov = true },
          "Nesterov momentum requires a momentum and zero dampening" },
        /* the first failing check speaks: lr, momentum, weight_decay, nesterov */
        { { .lr = -0.1, .momentum = -1 }, "Invalid learning rate: -0.1" },
        { { .lr = 0.1, .momentum = -1, .weight_decay = -1 }, "Invalid momentum value: -1" },
        { { .lr = 0.1, .weight_decay = -1, .nesterov = true }, "Invalid weight_decay value: -1" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        tc_clear_error();
        ck_assert_ptr_null(tc_sgd_new(1, params, bad[i].o));
        ck_assert_str_eq(tc_error(), bad[i].message);
    }
    tc_clear_error();
    ck_assert_ptr_null(tc_sgd_new(0, params, sgd_opts(0.1, 0, 0, 0, false, false)));
    ck_assert_str_eq(tc_error(), "optimizer got an empty parameter list");
    tc_tensor *computed = K(ag_mul_scalar(p, 2.0));
    tc_clear_error();
    ck_assert_ptr_null(tc_sgd_new(1, &computed, sgd_opts(0.1, 0, 0, 0, false, false)));
    ck_assert_str_eq(tc_error(), "can't optimize a non-leaf Tensor");
    /* accepted as by torch: NaN options, a negative dampening, a computed
       tensor that retains its grad, a tensor that does not require grad */
    tc_sgd *opt = tc_sgd_new(1, params, sgd_opts(NAN, NAN, 0, NAN, false, false));
    ck_assert_ptr_nonnull(opt);
    ck_assert(isnan(tc_sgd_get_options(opt).lr));
    tc_sgd_free(opt);
    opt = tc_sgd_new(1, params, sgd_opts(0.1, 0, -5, 0, false, false));
    ck_assert_ptr_nonnull(opt);
    ck_assert(tc_sgd_get_options(opt).dampening == -5);
    tc_sgd_free(opt);
    ck_assert_int_eq(ag_retain_grad(computed), 0);
    opt = tc_sgd_new(1, &computed, sgd_opts(0.1, 0, 0, 0, false, false));
    ck_assert_ptr_nonnull(opt);
    tc_sgd_free(opt);
    tc_tensor *plain = K(tc_zeros(TC_SHAPE(2), TC_FLOAT32));
    opt = tc_sgd_new(1, &plain, sgd_opts(0.1, 0, 0, 0, false, false));
    ck_assert_ptr_nonnull(opt);
    ck_assert_int_eq(tc_sgd_num_params(opt), 1);
    ck_assert_ptr_eq(tc_sgd_param(opt, 0), plain);
    tc_clear_error();
    ck_assert_ptr_null(tc_sgd_param(opt, 1));
    ck_assert_str_eq(tc_error(), "list index out of range");
    ck_assert_ptr_null(tc_sgd_momentum_buffer(opt, -1));
    ck_assert_str_eq(tc_error(), "list index out of range");
    tc_sgd_free(opt);
    /* a failed tensor passes its message through */
    tc_tensor *failed = K(tc_view(p, TC_SHAPE(2)));
    ck_assert_ptr_null(failed);
    const char *why = tc_error();
    ck_assert_ptr_nonnull(why);
    char saved[256];
    snprintf(saved, sizeof saved, "%s", why);
    ck_assert_ptr_null(tc_sgd_new(1, &failed, sgd_opts(0.1, 0, 0, 0, false, false)));
    ck_assert_str_eq(tc_error(), saved);
    tc_clear_error();
}
END_TEST

/* Alphas that float32 cannot hold: torch's add converts its alpha with
   c10's checked conversion ("value cannot be converted to type float
   without overflow", printed by torch 1.13 for each case below), while
   mul_'s plain number is cast, to inf. A refused step changes nothing. */
START_TEST(test_sgd_step_overflow)
{
    static const struct {
        tc_sgd_options o;
        bool first_ok, second_ok;
    } cases[] = {
        { { .lr = 1e39 }, false, false },
        { { .lr = 0.1, .weight_decay = 1e39 }, false, false },
        { { .lr = 0.1, .momentum = 1e39, .nesterov = true }, false, false },
        { { .lr = 0.1, .momentum = 1e39 }, true, true },            /* then -inf */
        { { .lr = 0.1, .momentum = 0.5, .dampening = -1e39 }, true, false },
        { { .lr = INFINITY }, true, true },                         /* then -inf */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tc_tensor *p = K(tc_ones(TC_SHAPE(3), TC_FLOAT32));
        ck_assert_int_eq(ag_set_requires_grad(p, true), 0);
        tc_sgd *opt = tc_sgd_new(1, &p, cases[i].o);
        ck_assert_ptr_nonnull(opt);
        ck_assert_int_eq(ag_backward(K(ag_sum(p)), NULL, false), 0);     /* grad 1 */
        for (int step = 0; step < 2; step++) {
            bool ok = step == 0 ? cases[i].first_ok : cases[i].second_ok;
            tc_tensor *before = K(tc_clone(p));
            tc_tensor *buf = tc_sgd_momentum_buffer(opt, 0);
            tc_tensor *buf_before = buf != NULL ? K(tc_clone(buf)) : NULL;
            int64_t version = ag_version(p);
            tc_clear_error();
            ck_assert_int_eq(tc_sgd_step(opt), ok ? 0 : -1);
            if (ok)
                continue;
            ck_assert_str_eq(tc_error(), "value cannot be converted to type float without overflow");
            ck_assert(tc_equal(p, before));
            ck_assert_int_eq(ag_version(p), version);
            ck_assert(buf_before == NULL ? tc_sgd_momentum_buffer(opt, 0) == NULL
                                         : tc_equal(tc_sgd_momentum_buffer(opt, 0), buf_before));
        }
        tc_sgd_free(opt);
    }
    /* torch: momentum=1e39 leaves p = [-inf] * 3 after two steps, lr=inf too */
    tc_tensor *p = K(tc_ones(TC_SHAPE(3), TC_FLOAT32));
    ck_assert_int_eq(ag_set_requires_grad(p, true), 0);
    tc_sgd *opt = tc_sgd_new(1, &p, sgd_opts(0.1, 1e39, 0, 0, false, false));
    ck_assert_int_eq(ag_backward(K(ag_sum(p)), NULL, false), 0);
    ck_assert_int_eq(tc_sgd_step(opt), 0);
    ck_assert(testing_get(p, IDX(0)) == (double)0.9f);
    ck_assert_int_eq(tc_sgd_step(opt), 0);
    ck_assert(testing_get(p, IDX(2)) == -INFINITY);
    ck_assert(testing_get(tc_sgd_momentum_buffer(opt, 0), IDX(1)) == INFINITY);
    tc_sgd_free(opt);
    /* float64 holds 1e39: no error */
    tc_tensor *d = K(tc_ones(TC_SHAPE(3), TC_FLOAT64));
    ck_assert_int_eq(ag_set_requires_grad(d, true), 0);
    opt = tc_sgd_new(1, &d, sgd_opts(1e39, 0, 0, 0, false, false));
    ck_assert_int_eq(ag_backward(K(ag_sum(d)), NULL, false), 0);
    ck_assert_int_eq(tc_sgd_step(opt), 0);
    ck_assert(testing_get(d, IDX(0)) == 1 - 1e39);
    tc_sgd_free(opt);
    tc_clear_error();
}
END_TEST

/* zero_grad both ways, as torch 1.13's Optimizer.zero_grad: by default
   the grad tensor stays and is zeroed in place (p.grad.zero_(), which
   bumps its version: torch printed 1), set_to_none drops it. */
START_TEST(test_sgd_zero_grad)
{
    tc_tensor *p = K(tc_from_data(TC_SHAPE(3), TC_FLOAT32, (float[]){ 1, 2, 3 }));
    tc_tensor *q = K(tc_zeros(TC_SHAPE(2), TC_FLOAT32));
    ck_assert_int_eq(ag_set_requires_grad(p, true), 0);
    ck_assert_int_eq(ag_set_requires_grad(q, true), 0);
    tc_tensor *params[] = { p, q };
    tc_sgd *opt = tc_sgd_new(2, params, sgd_opts(0.1, 0, 0, 0, false, false));
    ck_assert_int_eq(tc_sgd_zero_grad(opt, false), 0);   /* no grads yet: nothing to do */
    ck_assert_ptr_null(ag_grad(p));
    ck_assert_int_eq(ag_backward(K(ag_sum(K(ag_mul(p, p)))), NULL, false), 0);
    tc_tensor *grad = ag_grad(p);
    ck_assert_ptr_nonnull(grad);
    ck_assert(testing_get(grad, IDX(2)) == 6);
    int64_t version = ag_version(grad);
    ck_assert_int_eq(tc_sgd_zero_grad(opt, false), 0);
    ck_assert_ptr_eq(ag_grad(p), grad);
    for (int64_t i = 0; i < 3; i++)
        ck_assert(testing_get(grad, IDX(i)) == 0);
    ck_assert_int_eq(ag_version(grad), version + 1);
    ck_assert_ptr_null(ag_grad(q));
    ck_assert_int_eq(tc_sgd_zero_grad(opt, true), 0);
    ck_assert_ptr_null(ag_grad(p));
    tc_sgd_free(opt);
    ck_assert_int_eq(tc_sgd_zero_grad(NULL, true), -1);
    ck_assert_int_eq(tc_sgd_step(NULL), -1);
    tc_clear_error();
}
END_TEST

/* SGD runs under no_grad, but its in-place updates still move the
   version counters, as PyTorch's do (torch 1.13 printed p._version 1 and
   2 after two steps with momentum, the buffer's _version 0 and 2): a graph
   that saved a parameter before a step refuses to use it after, with
   PyTorch's message. */
START_TEST(test_sgd_versions)
{
    tc_tensor *p = K(tc_from_data(TC_SHAPE(3), TC_FLOAT32, (float[]){ 1, 2, 3 }));
    ck_assert_int_eq(ag_set_requires_grad(p, true), 0);
    tc_sgd *opt = tc_sgd_new(1, &p, sgd_opts(0.1, 0.9, 0, 0, false, false));
    ck_assert_int_eq(ag_backward(K(ag_sum(p)), NULL, false), 0);
    ck_assert(ag_is_grad_enabled());
    ck_assert_int_eq(tc_sgd_step(opt), 0);       /* grad mode on: still allowed */
    ck_assert(ag_is_grad_enabled());
    ck_assert(ag_is_leaf(p) && ag_grad_fn(p) == NULL);
    ck_assert_int_eq(ag_version(p), 1);
    ck_assert_int_eq(ag_version(tc_sgd_momentum_buffer(opt, 0)), 0);
    ck_assert_int_eq(tc_sgd_step(opt), 0);
    ck_assert_int_eq(ag_version(p), 2);
    ck_assert_int_eq(ag_version(tc_sgd_momentum_buffer(opt, 0)), 2);
    tc_sgd_free(opt);

    /* x = tensor([1., 2., 3.], requires_grad=True); y = (x * x).sum();
       SGD([x], lr=0.1) steps; y.backward() raises: */
    tc_tensor *x = K(tc_from_data(TC_SHAPE(3), TC_FLOAT32, (float[]){ 1, 2, 3 }));
    ck_assert_int_eq(ag_set_requires_grad(x, true), 0);
    tc_tensor *y = K(ag_sum(K(ag_mul(x, x))));
    ck_assert_int_eq(ag_backward(K(ag_sum(x)), NULL, false), 0);
    opt = tc_sgd_new(1, &x, sgd_opts(0.1, 0, 0, 0, false, false));
    ck_assert_int_eq(tc_sgd_step(opt), 0);
    tc_clear_error();
    ck_assert_int_eq(ag_backward(y, NULL, false), -1);
    ck_assert_str_eq(tc_error(),
                     "one of the variables needed for gradient computation has been modified "
                     "by an inplace operation: [torch.FloatTensor [3]] is at version 1; "
                     "expected version 0 instead. Hint: enable anomaly detection to find the "
                     "operation that failed to compute its gradient, with "
                     "torch.autograd.set_detect_anomaly(True).");
    tc_clear_error();
    tc_sgd_free(opt);
}
END_TEST

/* The same tensor twice: torch 1.13 warns and keeps both entries; the
   state is per tensor. p = tensor([1., 2., 3.]); SGD([p, p], lr=0.1,
   momentum=0.9, weight_decay=0.1); grads [0.5, -0.25, 1] then
   [0.125, 0.75, -2]; torch printed (hex) after each step p and
   state[p]["momentum_buffer"]: */
START_TEST(test_sgd_duplicate_param)
{
    static const double want_p[2][3] = {
        { 0x1.c2de000000000p-1, 0x1.01460c0000000p+1, 0x1.5ee2ea0000000p+1 },
        { 0x1.6f9be60000000p-1, 0x1.be58260000000p+0, 0x1.82b54a0000000p+1 },
    };
    static const double want_buf[2][3] = {
        { 0x1.3020c40000000p-1, -0x1.9580fe0000000p-5, 0x1.4978d40000000p+0 },
        { 0x1.c1c7c80000000p-1, 0x1.c1faaa0000000p+0, -0x1.1d91a60000000p+1 },
    };
    static const float grads[2][3] = { { 0.5f, -0.25f, 1.0f }, { 0.125f, 0.75f, -2.0f } };
    tc_tensor *p = K(tc_from_data(TC_SHAPE(3), TC_FLOAT32, (float[]){ 1, 2, 3 }));
    ck_assert_int_eq(ag_set_requires_grad(p, true), 0);
    tc_tensor *params[] = { p, p };
    tc_sgd *opt = tc_sgd_new(2, params, sgd_opts(0.1, 0.9, 0, 0.1, false, false));
    for (int s = 0; s < 2; s++) {
        ck_assert_int_eq(tc_sgd_zero_grad(opt, true), 0);
        tc_tensor *g = K(tc_from_data(TC_SHAPE(3), TC_FLOAT32, grads[s]));
        ck_assert_int_eq(ag_backward(K(ag_sum(K(ag_mul(p, g)))), NULL, false), 0);
        ck_assert_int_eq(tc_sgd_step(opt), 0);
        ck_assert_ptr_eq(tc_sgd_momentum_buffer(opt, 0), tc_sgd_momentum_buffer(opt, 1));
        for (int64_t i = 0; i < 3; i++) {
            ck_assert(testing_get(p, IDX(i)) == want_p[s][i]);
            ck_assert(testing_get(tc_sgd_momentum_buffer(opt, 1), IDX(i)) == want_buf[s][i]);
        }
    }
    tc_sgd_free(opt);
}
END_TEST

/* A 0-dim parameter (torch: tensor(1.) with grad tensor(.5), SGD lr=0.1,
   one step: 0x1.e666660000000p-1) and an empty one. */
START_TEST(test_sgd_scalar_and_empty_params)
{
    tc_tensor *s = K(tc_full(TC_SCALAR_SHAPE, 1.0, TC_FLOAT32));
    tc_tensor *e = K(tc_zeros(TC_SHAPE(0, 3), TC_FLOAT32));
    ck_assert_int_eq(ag_set_requires_grad(s, true), 0);
    ck_assert_int_eq(ag_set_requires_grad(e, true), 0);
    tc_tensor *params[] = { s, e };
    tc_sgd *opt = tc_sgd_new(2, params, sgd_opts(0.1, 0.9, 0, 0, false, false));
    tc_tensor *loss = K(ag_add(K(ag_mul_scalar(s, 0.5)), K(ag_sum(e))));
    ck_assert_int_eq(ag_backward(loss, NULL, false), 0);
    ck_assert_ptr_nonnull(ag_grad(e));
    ck_assert_int_eq(tc_sgd_step(opt), 0);      /* momentum's first step: the grad itself */
    ck_assert(testing_element(s, 0) == 0x1.e666660000000p-1);
    ck_assert_int_eq(tc_numel(tc_sgd_momentum_buffer(opt, 1)), 0);
    ck_assert_int_eq(tc_sgd_step(opt), 0);
    tc_sgd_free(opt);
}
END_TEST

/* The momentum buffers through the checkpoint interface: an optimizer
   given another one's buffers (and the same parameter values) takes the
   same next step, bit for bit; a buffer of another dtype is converted, of
   another shape refused; NULL clears it. */
START_TEST(test_sgd_momentum_buffer_roundtrip)
{
    const sgd_case *k = &SGD_CASES[6];
    tc_tensor *w = K(sgd_leaf(TC_SHAPE(5, 7), TC_FLOAT32, SGD_W0, false));
    tc_tensor *b = K(sgd_leaf(TC_SHAPE(5), TC_FLOAT32, SGD_B0, false));
    tc_tensor *params[] = { w, b };
    tc_sgd_options o = sgd_opts(k->lr, k->momentum, k->dampening, k->weight_decay,
                                k->nesterov, k->maximize);
    tc_sgd *opt = tc_sgd_new(2, params, o);
    tc_tensor *gw = K(sgd_from_bits(TC_SHAPE(5, 7), TC_FLOAT32, SGD_GW1));
    tc_tensor *gb = K(sgd_from_bits(TC_SHAPE(5), TC_FLOAT32, SGD_GB1));
    sgd_set_grads(opt, w, gw, b, gb);
    ck_assert_int_eq(tc_sgd_step(opt), 0);

    /* a second model at the same point, its optimizer loaded from the first */
    tc_tensor *w2 = K(tc_clone(w)), *b2 = K(tc_clone(b));
    ck_assert_int_eq(ag_set_requires_grad(w2, true), 0);
    ck_assert_int_eq(ag_set_requires_grad(b2, true), 0);
    tc_tensor *params2[] = { w2, b2 };
    tc_sgd *opt2 = tc_sgd_new(2, params2, o);
    ck_assert_int_eq(tc_sgd_set_momentum_buffer(opt2, 0, tc_sgd_momentum_buffer(opt, 0)), 0);
    tc_tensor *b64 = K(tc_empty(TC_SHAPE(5), TC_FLOAT64));
    ck_assert_int_eq(tc_copy_(b64, tc_sgd_momentum_buffer(opt, 1)), 0);
    ck_assert_int_eq(tc_sgd_set_momentum_buffer(opt2, 1, b64), 0);
    ck_assert_int_eq(tc_sgd_momentum_buffer(opt2, 1)->dtype, TC_FLOAT32);
    ck_assert(tc_sgd_momentum_buffer(opt2, 0) != tc_sgd_momentum_buffer(opt, 0));  /* a copy */

    tc_tensor *gw3 = K(sgd_from_bits(TC_SHAPE(5, 7), TC_FLOAT32, SGD_GW3));
    tc_tensor *gb3 = K(sgd_from_bits(TC_SHAPE(5), TC_FLOAT32, SGD_GB3));
    sgd_set_grads(opt, w, gw3, b, gb3);
    sgd_set_grads(opt2, w2, gw3, b2, gb3);
    ck_assert_int_eq(tc_sgd_step(opt), 0);
    ck_assert_int_eq(tc_sgd_step(opt2), 0);
    ck_assert(tc_equal(w, w2) && tc_equal(b, b2));
    /* a fresh optimizer (no buffers) would have stepped elsewhere */
    ck_assert_int_eq(tc_sgd_set_momentum_buffer(opt2, 0, NULL), 0);
    ck_assert_ptr_null(tc_sgd_momentum_buffer(opt2, 0));
    ck_assert_int_eq(tc_sgd_step(opt2), 0);
    ck_assert_int_eq(tc_sgd_step(opt), 0);
    ck_assert(!tc_equal(w, w2) && tc_equal(b, b2));

    tc_clear_error();
    ck_assert_int_eq(tc_sgd_set_momentum_buffer(opt2, 1, w), -1);
    ck_assert_str_eq(tc_error(),
                     "momentum_buffer of parameter 1 has shape [5, 7], the parameter has shape [5]");
    ck_assert_int_eq(tc_sgd_set_momentum_buffer(opt2, 2, NULL), -1);
    ck_assert_str_eq(tc_error(), "list index out of range");
    tc_clear_error();
    tc_sgd_free(opt);
    tc_sgd_free(opt2);
}
END_TEST

static void ch10_add_optim(Suite *s)
{
    TCase *tc = testing_tcase("optim", NULL, NULL);

    tcase_add_test(tc, test_sgd_steps_match_torch);
    tcase_add_test(tc, test_sgd_steps_strided_param);
    tcase_add_test(tc, test_sgd_table_sees_fma);
    tcase_add_test(tc, test_sgd_skips_params_without_grad);
    tcase_add_test(tc, test_sgd_constructor_errors);
    tcase_add_test(tc, test_sgd_step_overflow);
    tcase_add_test(tc, test_sgd_zero_grad);
    tcase_add_test(tc, test_sgd_versions);
    tcase_add_test(tc, test_sgd_duplicate_param);
    tcase_add_test(tc, test_sgd_scalar_and_empty_params);
    tcase_add_test(tc, test_sgd_momentum_buffer_roundtrip);
    suite_add_tcase(s, tc);
}
