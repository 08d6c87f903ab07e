/* check_ch08_native.h: the library's operators in the registry, and the
   autograd kernel of an operator with a registered backward (helper
   native). Values and grad_fn names are PyTorch 1.13's, printed by
   /usr/bin/python3 with torch 1.13 (torch.ops.aten.NAME(...).grad_fn), or
   worked out by hand; the direct tc_ and ag_ calls a registry call is
   compared with are chapters 2-7's, tested there against PyTorch. */

/* --------------------------------------------------------------- helpers */

/* A float64 leaf of these values that requires grad, kept (K). */
static tc_tensor *native_leaf(tc_shape shape, const double *values)
{
    tc_tensor *x = testing_tensor(shape, TC_FLOAT64, values);

    ck_assert_int_eq(ag_set_requires_grad(x, true), 0);
    return x;
}

/* type(t.grad_fn).__name__, "None", or "(failed)" for a NULL t. */
static const char *native_grad_fn(const tc_tensor *t)
{
    if (t == NULL)
        return "(failed)";
    return ag_grad_fn(t) == NULL ? "None" : ag_node_type_name(ag_grad_fn(t));
}

/* got (a call through the registry) and want (the direct call) are the
   same tensor: dtype, sizes, strides, storage offset and every element
   (NaN matching NaN); views also share want's storage. Both released. */
static void native_expect_same(int line, tc_tensor *got, tc_tensor *want, bool view)
{
    bool same = got != NULL && want != NULL && got->dtype == want->dtype &&
                got->dim == want->dim && got->storage_offset == want->storage_offset &&
                (!view || got->storage == want->storage);

    for (int64_t d = 0; same && d < got->dim; d++)
        same = got->sizes[d] == want->sizes[d] && got->strides[d] == want->strides[d];
    for (int64_t k = 0; same && k < tc_numel(got); k++) {
        double a = testing_element(got, k), b = testing_element(want, k);
        same = a == b || (isnan(a) && isnan(b));
    }
    tc_release(got);
    tc_release(want);
    ck_assert_msg(same, "line %d: the registry's result differs from the direct call (%s)",
                  line, tc_error() == NULL ? "no error" : tc_error());
}

/* The pending error starts with prefix; then it is cleared. */
static void native_expect_error_prefix(int line, const char *prefix)
{
    const char *error = tc_error();

    ck_assert_msg(error != NULL && strncmp(error, prefix, strlen(prefix)) == 0,
                  "line %d: error \"%s\", expected one that starts \"%s\"", line,
                  error == NULL ? "(none)" : error, prefix);
    tc_clear_error();
}

#define EXPECT_SAME(got, want) native_expect_same(__LINE__, (got), (want), false)
#define EXPECT_SAME_VIEW(got, want) native_expect_same(__LINE__, (got), (want), true)
#define T(x) tc_value_tensor(x)

/* ------------------------------------------- each operator, by its name */

/* A (2, 3) float64 tensor with a zero and negatives, and another. */
static tc_tensor *native_a(void)
{
    return testing_tensor(TC_SHAPE(2, 3), TC_FLOAT64,
                          (const double[]){ 0.5, -1.0, 2.0, 0.0, 3.0, -2.5 });
}

static tc_tensor *native_b(void)
{
    return testing_tensor(TC_SHAPE(2, 3), TC_FLOAT64,
                          (const double[]){ 1.5, 2.0, -4.0, 0.25, 1.0, 3.0 });
}

START_TEST(test_native_by_name_equals_direct_call)
{
    tc_tensor *a = native_a(), *b = native_b();
    tc_tensor *bt = K(tc_t(b));

    EXPECT_SAME(tc_call("aten::add.Tensor", T(a), T(b)), tc_add(a, b));
    /* C has no keywords: the keyword-only alpha is passed by position */
    EXPECT_SAME(tc_call("aten::add.Tensor", T(a), T(b), tc_value_double(0.5)),
                tc_add_alpha(a, b, K(tc_number(0.5))));
    EXPECT_SAME(tc_call("aten::sub.Tensor", T(a), T(b)), tc_sub(a, b));
    EXPECT_SAME(tc_call("aten::sub.Tensor", T(a), T(b), tc_value_int(-3)),
                tc_sub_alpha(a, b, K(tc_number(-3))));
    EXPECT_SAME(tc_call("aten::mul.Tensor", T(a), T(b)), tc_mul(a, b));
    EXPECT_SAME(tc_call("aten::div.Tensor", T(a), T(b)), tc_div(a, b));
    EXPECT_SAME(tc_call("aten::neg", T(a)), tc_neg(a));
    EXPECT_SAME(tc_call("aten::exp", T(a)), tc_exp(a));
    EXPECT_SAME(tc_call("aten::log", T(a)), tc_log(a));
    EXPECT_SAME(tc_call("aten::sqrt", T(a)), tc_sqrt(a));
    EXPECT_SAME(tc_call("aten::abs", T(a)), tc_abs(a));
    EXPECT_SAME(tc_call("aten::relu", T(a)), tc_relu(a));
    EXPECT_SAME(tc_call("aten::sigmoid", T(a)), tc_sigmoid(a));
    EXPECT_SAME(tc_call("aten::tanh", T(a)), tc_tanh(a));
    /* a and b require no grad: ag_pow records nothing */
    EXPECT_SAME(tc_call("aten::pow.Tensor_Tensor", T(a), T(b)), ag_pow(a, b));
    EXPECT_SAME(tc_call("aten::pow.Tensor_Scalar", T(a), tc_value_double(2.5)),
                tc_pow_scalar(a, 2.5));
    EXPECT_SAME(tc_call("aten::sum", T(a)), tc_sum(a));
    EXPECT_SAME(tc_call("aten::sum.dim_IntList", T(a), tc_value_ints(TC_SHAPE(1)),
                        tc_value_bool(true)),
                tc_sum_dims(a, TC_SHAPE(1), true));
    /* int[1]: one int stands for a list of one */
    EXPECT_SAME(tc_call("aten::sum.dim_IntList", T(a), tc_value_int(-1)),
                tc_sum_dims(a, TC_SHAPE(-1), false));
    EXPECT_SAME(tc_call("aten::mean", T(a)), tc_mean(a));
    EXPECT_SAME(tc_call("aten::mean.dim", T(a), tc_value_ints(TC_SHAPE(0))),
                tc_mean_dims(a, TC_SHAPE(0), false));
    EXPECT_SAME(tc_call("aten::matmul", T(a), T(bt)), tc_matmul(a, bt));
    EXPECT_SAME(tc_call("aten::mm", T(a), T(bt)), tc_matmul(a, bt));
    EXPECT_SAME_VIEW(tc_call("aten::t", T(a)), tc_t(a));
    EXPECT_SAME_VIEW(tc_call("aten::transpose.int", T(a), tc_value_int(0), tc_value_int(-1)),
                     tc_transpose(a, 0, -1));
    EXPECT_SAME_VIEW(tc_call("aten::view", T(a), tc_value_ints(TC_SHAPE(3, 2))),
                     tc_view(a, TC_SHAPE(3, 2)));
    EXPECT_SAME(tc_call("aten::reshape", T(bt), tc_value_ints(TC_SHAPE(6))),
                tc_reshape(bt, TC_SHAPE(6)));
    EXPECT_SAME(tc_call("aten::clone", T(bt)), tc_clone(bt));
    EXPECT_SAME(tc_call("aten::contiguous", T(bt)), tc_contiguous(bt));
    EXPECT_SAME(tc_call("aten::square", T(a)), tc_square(a));
}
END_TEST

/* With inputs that require grad the call reaches the ag_ function: the
   same values as the direct ag_ call, and PyTorch 1.13's grad_fn. */
static void native_expect_recorded(int line, tc_tensor *got, tc_tensor *want, const char *name)
{
    const char *got_name = native_grad_fn(got);

    ck_assert_msg(strcmp(got_name, name) == 0, "line %d: grad_fn %s, expected %s", line,
                  got_name, name);
    native_expect_same(line, got, want, false);
}

#define EXPECT_RECORDED(got, want, name) native_expect_recorded(__LINE__, (got), (want), (name))

START_TEST(test_native_grad_fn_names)
{
    tc_tensor *x = native_leaf(TC_SHAPE(3), (const double[]){ 1, 2, 3 });
    tc_tensor *y = native_leaf(TC_SHAPE(2, 3), (const double[]){ 1, 2, 3, 4, 5, 6 });
    tc_tensor *yt = K(ag_t(y));

    EXPECT_RECORDED(tc_call("aten::add", T(x), T(x)), ag_add(x, x), "AddBackward0");
    EXPECT_RECORDED(tc_call("aten::sub", T(x), T(x)), ag_sub(x, x), "SubBackward0");
    EXPECT_RECORDED(tc_call("aten::mul", T(x), T(x)), ag_mul(x, x), "MulBackward0");
    EXPECT_RECORDED(tc_call("aten::div", T(x), T(x)), ag_div(x, x), "DivBackward0");
    EXPECT_RECORDED(tc_call("aten::neg", T(x)), ag_neg(x), "NegBackward0");
    EXPECT_RECORDED(tc_call("aten::exp", T(x)), ag_exp(x), "ExpBackward0");
    EXPECT_RECORDED(tc_call("aten::log", T(x)), ag_log(x), "LogBackward0");
    EXPECT_RECORDED(tc_call("aten::sqrt", T(x)), ag_sqrt(x), "SqrtBackward0");
    EXPECT_RECORDED(tc_call("aten::abs", T(x)), ag_abs(x), "AbsBackward0");
    EXPECT_RECORDED(tc_call("aten::relu", T(x)), ag_relu(x), "ReluBackward0");
    EXPECT_RECORDED(tc_call("aten::sigmoid", T(x)), ag_sigmoid(x), "SigmoidBackward0");
    EXPECT_RECORDED(tc_call("aten::tanh", T(x)), ag_tanh(x), "TanhBackward0");
    /* by name without an overload: pow.Tensor_Tensor refuses the int 2 */
    EXPECT_RECORDED(tc_call("aten::pow", T(x), T(x)), ag_pow(x, x), "PowBackward1");
    EXPECT_RECORDED(tc_call("aten::pow", T(x), tc_value_int(2)), ag_pow_scalar(x, 2),
                    "PowBackward0");
    EXPECT_RECORDED(tc_call("aten::square", T(x)), ag_pow_scalar(x, 2), "PowBackward0");
    /* sum.dim_IntList comes first and needs its dim: sum(x) is aten::sum */
    EXPECT_RECORDED(tc_call("aten::sum", T(x)), ag_sum(x), "SumBackward0");
    EXPECT_RECORDED(tc_call("aten::sum", T(x), tc_value_ints(TC_SHAPE(0))),
                    ag_sum_dims(x, TC_SHAPE(0), false), "SumBackward1");
    EXPECT_RECORDED(tc_call("aten::mean", T(x)), ag_mean(x), "MeanBackward0");
    EXPECT_RECORDED(tc_call("aten::mean", T(y), tc_value_ints(TC_SHAPE(1))),
                    ag_mean_dims(y, TC_SHAPE(1), false), "MeanBackward1");
    EXPECT_RECORDED(tc_call("aten::matmul", T(y), T(yt)), ag_matmul(y, yt), "MmBackward0");
    EXPECT_RECORDED(tc_call("aten::matmul", T(x), T(x)), ag_matmul(x, x), "DotBackward0");
    EXPECT_RECORDED(tc_call("aten::mm", T(y), T(yt)), ag_mm(y, yt), "MmBackward0");
    EXPECT_RECORDED(tc_call("aten::t", T(y)), ag_t(y), "TBackward0");
    EXPECT_RECORDED(tc_call("aten::transpose", T(y), tc_value_int(0), tc_value_int(1)),
                    ag_transpose(y, 0, 1), "TransposeBackward0");
    EXPECT_RECORDED(tc_call("aten::view", T(y), tc_value_ints(TC_SHAPE(3, 2))),
                    ag_view(y, TC_SHAPE(3, 2)), "ViewBackward0");
    EXPECT_RECORDED(tc_call("aten::reshape", T(y), tc_value_ints(TC_SHAPE(3, 2))),
                    ag_reshape(y, TC_SHAPE(3, 2)), "ReshapeAliasBackward0");
    EXPECT_RECORDED(tc_call("aten::reshape", T(yt), tc_value_ints(TC_SHAPE(6))),
                    ag_reshape(yt, TC_SHAPE(6)), "UnsafeViewBackward0");
    EXPECT_RECORDED(tc_call("aten::clone", T(y)), ag_clone(y), "CloneBackward0");
    EXPECT_RECORDED(tc_call("aten::contiguous", T(yt)), ag_contiguous(yt), "CloneBackward0");
    /* y.contiguous() of a contiguous leaf is y itself: no grad_fn */
    EXPECT_RECORDED(tc_call("aten::contiguous", T(y)), ag_contiguous(y), "None");
}
END_TEST

/* torch.ops.aten.add(a, b, alpha=2) of [1, 2] and [10, 20]: [21, 42];
   of int64 tensors with alpha=0.5, PyTorch's refusal. */
START_TEST(test_native_alpha)
{
    tc_tensor *a = testing_tensor(TC_SHAPE(2), TC_FLOAT32, (const double[]){ 1, 2 });
    tc_tensor *b = testing_tensor(TC_SHAPE(2), TC_FLOAT32, (const double[]){ 10, 20 });
    tc_tensor *i = testing_int64_tensor(TC_SHAPE(2), (const int64_t[]){ 1, 2 });

    testing_expect_values(__LINE__, "add alpha=2",
                          K(tc_call("aten::add", T(a), T(b), tc_value_int(2))), 2,
                          (const double[]){ 21, 42 }, TESTING_TOL(0, 0));
    testing_expect_values(__LINE__, "sub alpha=2",
                          K(tc_call("aten::sub", T(a), T(b), tc_value_int(2))), 2,
                          (const double[]){ -19, -38 }, TESTING_TOL(0, 0));
    EXPECT_FAILS(tc_call("aten::add", T(i), T(i), tc_value_double(0.5)),
                 "For integral input tensors, argument alpha must not be a floating point "
                 "number.");
}
END_TEST

/* torch.ops.aten.sum(x, None) and mean(x, None): every dimension. */
START_TEST(test_native_dim_none)
{
    tc_tensor *x = native_leaf(TC_SHAPE(2, 2), (const double[]){ 1, 2, 3, 4 });
    tc_tensor *s = K(tc_call("aten::sum", T(x), tc_value_none()));
    tc_tensor *m = K(tc_call("aten::mean.dim", T(x), tc_value_none()));

    testing_expect_values(__LINE__, "sum", s, 1, (const double[]){ 10 }, TESTING_TOL(0, 0));
    ck_assert_int_eq(s->dim, 0);
    ck_assert_str_eq(native_grad_fn(s), "SumBackward1");
    testing_expect_values(__LINE__, "mean", m, 1, (const double[]){ 2.5 }, TESTING_TOL(0, 0));
    ck_assert_str_eq(native_grad_fn(m), "MeanBackward1");
}
END_TEST

/* torch.square(x) == torch.pow(x, 2): bool squares as int64, and the value
   is chapter 7's tc_square bit for bit (pow's kernel computes x * x for 2). */
START_TEST(test_native_square)
{
    tc_tensor *f = testing_tensor(TC_SHAPE(4), TC_FLOAT32,
                                  (const double[]){ 1.1, -3.7e-20, 1e20, NAN });
    tc_tensor *i = testing_int64_tensor(TC_SHAPE(2), (const int64_t[]){ 3, -2 });
    tc_tensor *b = testing_tensor(TC_SHAPE(2), TC_BOOL, (const double[]){ 1, 0 });
    tc_tensor *x = native_leaf(TC_SHAPE(3), (const double[]){ 1, 2, 3 });
    tc_tensor *y, *loss;

    EXPECT_SAME(tc_call("aten::square", T(f)), tc_square(f));
    y = K(tc_call("aten::square", T(i)));
    ck_assert_ptr_nonnull(y);
    ck_assert_int_eq(y->dtype, TC_INT64);
    testing_expect_values(__LINE__, "square(int64)", y, 2, (const double[]){ 9, 4 },
                          TESTING_TOL(0, 0));
    y = K(tc_call("aten::square", T(b)));
    ck_assert_ptr_nonnull(y);
    ck_assert_int_eq(y->dtype, TC_INT64);
    testing_expect_values(__LINE__, "square(bool)", y, 2, (const double[]){ 1, 0 },
                          TESTING_TOL(0, 0));
    /* the gradient of x * x is 2 x */
    y = K(tc_call("aten::square", T(x)));
    loss = K(ag_sum(y));
    ck_assert_int_eq(ag_backward(loss, NULL, false), 0);
    testing_expect_values(__LINE__, "x.grad", ag_grad(x), 3, (const double[]){ 2, 4, 6 },
                          TESTING_TOL(0, 0));
}
END_TEST

/* ------------------------------------------ a replaced library kernel */

static tc_tensor *native_forty_two(const tc_tensor *x)
{
    return tc_full_like(x, 42);
}

/* A CPU kernel that replaces aten::neg's serves the calls that record
   nothing (PyTorch's autograd kernel redispatches to CPU), and the calls
   that record still compute with tc_neg (our ag_ functions fuse record and
   compute: PyTorch would reach the replacement there too). */
START_TEST(test_native_replaced_cpu_kernel)
{
    tc_op *neg = tc_op_find("aten::neg");
    tc_tensor *a = testing_tensor(TC_SHAPE(2), TC_FLOAT64, (const double[]){ 1, -2 });
    tc_tensor *x = native_leaf(TC_SHAPE(2), (const double[]){ 1, -2 });
    tc_registration *r;
    tc_tensor *y;
    bool previous;

    ck_assert_ptr_nonnull(neg);
    r = tc_op_impl(neg, TC_KEY_CPU, native_forty_two);
    ck_assert_ptr_nonnull(r);
    ck_assert_ptr_nonnull(tc_op_warning());
    tc_op_clear_warning();
    testing_expect_values(__LINE__, "neg(a)", K(tc_call("aten::neg", T(a))), 2,
                          (const double[]){ 42, 42 }, TESTING_TOL(0, 0));
    previous = ag_set_grad_enabled(false);
    y = K(tc_call("aten::neg", T(x)));
    ag_set_grad_enabled(previous);
    testing_expect_values(__LINE__, "neg(x), no_grad", y, 2, (const double[]){ 42, 42 },
                          TESTING_TOL(0, 0));
    ck_assert_str_eq(native_grad_fn(y), "None");
    y = K(tc_call("aten::neg", T(x)));
    testing_expect_values(__LINE__, "neg(x)", y, 2, (const double[]){ -1, 2 },
                          TESTING_TOL(0, 0));
    ck_assert_str_eq(native_grad_fn(y), "NegBackward0");
    tc_registration_remove(r);
    testing_expect_values(__LINE__, "neg(a) restored", K(tc_call("aten::neg", T(a))), 2,
                          (const double[]){ -1, 2 }, TESTING_TOL(0, 0));
}
END_TEST

/* --------------------------------------------- operators with a backward */

/* cube(x) = x * x * x, whose gradient is 3 x^2 g. */
static tc_tensor *native_cube(const tc_tensor *x)
{
    tc_tensor *xx = tc_mul(x, x);
    tc_tensor *y = xx == NULL ? NULL : tc_mul(xx, x);

    tc_release(xx);
    return y;
}

static int native_cube_backward(const tc_tensor *grad, const tc_value *args,
                                const tc_tensor *result, tc_tensor **grads)
{
    const tc_tensor *x = args[0].as.tensor;
    tc_tensor *xx = tc_mul(x, x);
    tc_tensor *g = xx == NULL ? NULL : tc_mul_scalar(xx, 3);

    (void)result;
    grads[0] = g == NULL ? NULL : tc_mul(g, grad);
    tc_release(xx);
    tc_release(g);
    return grads[0] == NULL ? -1 : 0;
}

/* mul_add(a, b, c) = a * b + c: gradients g b, g a, g. */
static tc_tensor *native_mul_add(const tc_tensor *a, const tc_tensor *b, const tc_tensor *c)
{
    tc_tensor *ab = tc_mul(a, b);
    tc_tensor *y = ab == NULL ? NULL : tc_add(ab, c);

    tc_release(ab);
    return y;
}

static int native_mul_add_backward(const tc_tensor *grad, const tc_value *args,
                                   const tc_tensor *result, tc_tensor **grads)
{
    (void)result;
    grads[0] = tc_mul(grad, args[1].as.tensor);
    grads[1] = tc_mul(grad, args[0].as.tensor);
    grads[2] = tc_clone(grad);
    return grads[0] == NULL || grads[1] == NULL || grads[2] == NULL ? -1 : 0;
}

/* same(x) returns x itself; its gradient passes through. */
static tc_tensor *native_same(const tc_tensor *x)
{
    return tc_retain((tc_tensor *)x);
}

static int native_pass_backward(const tc_tensor *grad, const tc_value *args,
                                const tc_tensor *result, tc_tensor **grads)
{
    (void)args;
    (void)result;
    grads[0] = tc_clone(grad);
    return grads[0] == NULL ? -1 : 0;
}

/* A backward of the wrong shape, and one that fails without a message. */
static int native_bad_backward(const tc_tensor *grad, const tc_value *args,
                               const tc_tensor *result, tc_tensor **grads)
{
    (void)grad;
    (void)args;
    (void)result;
    grads[0] = tc_zeros(TC_SHAPE(2), TC_FLOAT64);
    return grads[0] == NULL ? -1 : 0;
}

static int native_failing_backward(const tc_tensor *grad, const tc_value *args,
                                   const tc_tensor *result, tc_tensor **grads)
{
    (void)grad;
    (void)args;
    (void)result;
    (void)grads;
    return -1;
}

/* The operators of these tests, defined once per process (the registry is
   the process's; Check may run several tests in one). */
static struct {
    tc_op *cube, *mul_add, *same, *plain, *bad, *failing, *scaled;
} native_ops;

static tc_op *native_define(const char *schema, tc_unboxed_fn *cpu, tc_backward_fn *backward)
{
    tc_op *op = tc_op_def(schema);

    ck_assert_msg(op != NULL, "%s: %s", schema, tc_error());
    ck_assert_ptr_nonnull(tc_op_impl_unboxed(op, TC_KEY_CPU, cpu, "cpu"));
    if (backward != NULL)
        ck_assert_msg(tc_op_impl_autograd(op, backward) != NULL, "%s: %s", schema, tc_error());
    return op;
}

static void native_define_ops(void)
{
    static bool done;

    if (done)
        return;
    done = true;
    native_ops.cube = native_define("native_test::cube(Tensor x) -> Tensor",
                                    (tc_unboxed_fn *)native_cube, native_cube_backward);
    native_ops.mul_add = native_define(
        "native_test::mul_add(Tensor a, Tensor b, Tensor c) -> Tensor",
        (tc_unboxed_fn *)native_mul_add, native_mul_add_backward);
    native_ops.same = native_define("native_test::same(Tensor x) -> Tensor",
                                    (tc_unboxed_fn *)native_same, native_pass_backward);
    native_ops.plain = native_define("native_test::plain(Tensor x) -> Tensor",
                                     (tc_unboxed_fn *)native_cube, NULL);
    native_ops.bad = native_define("native_test::bad(Tensor x) -> Tensor",
                                   (tc_unboxed_fn *)native_cube, native_bad_backward);
    native_ops.failing = native_define("native_test::failing(Tensor x) -> Tensor",
                                       (tc_unboxed_fn *)native_cube, native_failing_backward);
    native_ops.scaled = tc_op_def("native_test::scaled(Tensor x, float s) -> Tensor");
    ck_assert_ptr_nonnull(native_ops.scaled);
}

static tc_tensor *native_call1(tc_op *op, const tc_tensor *x)
{
    return tc_op_call(op, 1, (tc_value[]){ T(x) });
}

START_TEST(test_native_autograd_of_an_operator)
{
    tc_tensor *x = native_leaf(TC_SHAPE(3), (const double[]){ 1, 2, 3 });
    tc_tensor *y, *loss;

    native_define_ops();
    y = K(native_call1(native_ops.cube, x));
    testing_expect_values(__LINE__, "cube(x)", y, 3, (const double[]){ 1, 8, 27 },
                          TESTING_TOL(0, 0));
    ck_assert_str_eq(native_grad_fn(y), "CubeBackward0");
    ck_assert(ag_requires_grad(y));
    ck_assert_int_eq(ag_node_num_next(ag_grad_fn(y)), 1);
    ck_assert_str_eq(ag_node_type_name(ag_node_next(ag_grad_fn(y), 0).node), "AccumulateGrad");
    loss = K(ag_sum(y));
    ck_assert_int_eq(ag_backward(loss, NULL, false), 0);
    testing_expect_values(__LINE__, "x.grad", ag_grad(x), 3, (const double[]){ 3, 12, 27 },
                          TESTING_TOL(0, 0));
    /* the saved tensors went with that backward (no retain_graph) */
    ck_assert_int_eq(ag_backward(loss, NULL, false), -1);
    native_expect_error_prefix(__LINE__, "Trying to backward through the graph a second time");
}
END_TEST

/* Three inputs: the edge of one that needs no gradient leads nowhere, and
   the others get g b and g a. */
START_TEST(test_native_autograd_three_inputs)
{
    tc_tensor *a = native_leaf(TC_SHAPE(2), (const double[]){ 1, 2 });
    tc_tensor *b = native_leaf(TC_SHAPE(2), (const double[]){ 3, 4 });
    tc_tensor *c = testing_tensor(TC_SHAPE(2), TC_FLOAT64, (const double[]){ 5, 6 });
    tc_tensor *y;

    native_define_ops();
    y = K(tc_op_call(native_ops.mul_add, 3, (tc_value[]){ T(a), T(b), T(c) }));
    testing_expect_values(__LINE__, "mul_add", y, 2, (const double[]){ 8, 14 },
                          TESTING_TOL(0, 0));
    ck_assert_str_eq(native_grad_fn(y), "MulAddBackward0");
    ck_assert_int_eq(ag_node_num_next(ag_grad_fn(y)), 3);
    ck_assert_ptr_null(ag_node_next(ag_grad_fn(y), 2).node);
    ck_assert_int_eq(ag_backward(K(ag_sum(y)), NULL, false), 0);
    testing_expect_values(__LINE__, "a.grad", ag_grad(a), 2, (const double[]){ 3, 4 },
                          TESTING_TOL(0, 0));
    testing_expect_values(__LINE__, "b.grad", ag_grad(b), 2, (const double[]){ 1, 2 },
                          TESTING_TOL(0, 0));
    ck_assert_ptr_null(ag_grad(c));
}
END_TEST

static tc_tensor *native_gradcheck_call(tc_tensor *const *inputs, void *context)
{
    tc_op *op = context;
    int n = tc_op_schema(op)->nargs;
    tc_value args[3];

    for (int i = 0; i < n; i++)
        args[i] = T(inputs[i]);
    return tc_op_call(op, n, args);
}

START_TEST(test_native_gradcheck)
{
    tc_tensor *x = native_leaf(TC_SHAPE(2, 2), (const double[]){ 0.5, -1.25, 2, 0.75 });
    tc_tensor *in[3] = {
        native_leaf(TC_SHAPE(3), (const double[]){ 0.3, -0.7, 1.1 }),
        native_leaf(TC_SHAPE(3), (const double[]){ 2.0, 0.5, -1.5 }),
        native_leaf(TC_SHAPE(3), (const double[]){ -0.2, 0.9, 0.4 }),
    };
    ag_gradcheck_mismatch m;

    native_define_ops();
    ck_assert_msg(ag_gradcheck(native_gradcheck_call, native_ops.cube, 1, &x, &m) == 0, "%s",
                  tc_error());
    ck_assert_msg(ag_gradcheck(native_gradcheck_call, native_ops.mul_add, 3, in, &m) == 0,
                  "%s", tc_error());
}
END_TEST

/* Without a backward, AutogradCPU falls through (PyTorch 1.13's fallback
   for a custom operator): the value, and no grad_fn. With grad mode off,
   an operator with a backward records nothing either. */
START_TEST(test_native_no_backward_no_grad_fn)
{
    tc_tensor *x = native_leaf(TC_SHAPE(2), (const double[]){ 2, 3 });
    tc_tensor *y;
    bool previous;

    native_define_ops();
    y = K(native_call1(native_ops.plain, x));
    testing_expect_values(__LINE__, "plain(x)", y, 2, (const double[]){ 8, 27 },
                          TESTING_TOL(0, 0));
    ck_assert_str_eq(native_grad_fn(y), "None");
    ck_assert(!ag_requires_grad(y));
    previous = ag_set_grad_enabled(false);
    y = K(native_call1(native_ops.cube, x));
    ag_set_grad_enabled(previous);
    ck_assert_str_eq(native_grad_fn(y), "None");
    testing_expect_values(__LINE__, "cube(x), no_grad", y, 2, (const double[]){ 8, 27 },
                          TESTING_TOL(0, 0));
}
END_TEST

/* A kernel that returns its input: the result is a new header with the
   history, and the input stays a leaf. */
START_TEST(test_native_kernel_returning_its_input)
{
    tc_tensor *x = native_leaf(TC_SHAPE(2), (const double[]){ 2, 3 });
    tc_tensor *y;

    native_define_ops();
    y = K(native_call1(native_ops.same, x));
    ck_assert_ptr_nonnull(y);
    ck_assert_ptr_ne(y, x);
    ck_assert_ptr_eq(y->storage, x->storage);
    ck_assert(ag_is_leaf(x));
    ck_assert_str_eq(native_grad_fn(x), "None");
    ck_assert_str_eq(native_grad_fn(y), "SameBackward0");
    ck_assert_int_eq(ag_backward(K(ag_sum(y)), NULL, false), 0);
    testing_expect_values(__LINE__, "x.grad", ag_grad(x), 2, (const double[]){ 1, 1 },
                          TESTING_TOL(0, 0));
}
END_TEST

/* Errors: a gradient of the wrong shape (the engine's check, PyTorch's
   message), a backward that fails without a message, a saved input
   modified in place, and the operators tc_op_impl_autograd refuses. */
START_TEST(test_native_autograd_errors)
{
    tc_tensor *x = native_leaf(TC_SHAPE(3), (const double[]){ 1, 2, 3 });
    tc_tensor *w, *y;

    native_define_ops();
    y = K(native_call1(native_ops.bad, x));
    ck_assert_int_eq(ag_backward(K(ag_sum(y)), NULL, false), -1);
    ck_assert_str_eq(tc_error(), "Function BadBackward0 returned an invalid gradient at index "
                                 "0 - got [2] but expected shape compatible with [3]");
    tc_clear_error();
    y = K(native_call1(native_ops.failing, x));
    ck_assert_int_eq(ag_backward(K(ag_sum(y)), NULL, false), -1);
    ck_assert_str_eq(tc_error(), "FailingBackward0: the backward function failed");
    tc_clear_error();
    w = K(ag_mul_scalar(x, 1));
    y = K(native_call1(native_ops.cube, w));
    ck_assert_ptr_nonnull(K(ag_mul_(w, w)));
    ck_assert_int_eq(ag_backward(K(ag_sum(y)), NULL, false), -1);
    native_expect_error_prefix(__LINE__, "one of the variables needed for gradient computation "
                                         "has been modified by an inplace operation: "
                                         "[torch.DoubleTensor [3]], which is output 0 of "
                                         "MulBackward0, is at version 1; expected version 0 "
                                         "instead.");
    ck_assert_ptr_null(tc_op_impl_autograd(native_ops.scaled, native_cube_backward));
    ck_assert_str_eq(tc_error(),
                     "tc_op_impl_autograd: native_test::scaled(Tensor x, float s) -> Tensor: an "
                     "operator with a backward takes 1 to 3 arguments, all of type Tensor");
    tc_clear_error();
    ck_assert_ptr_null(tc_op_impl_autograd(native_ops.cube, NULL));
    ck_assert_str_eq(tc_error(), "tc_op_impl_autograd: no backward function");
    tc_clear_error();
    ck_assert_ptr_null(tc_op_impl_autograd(NULL, native_cube_backward));
    ck_assert_str_eq(tc_error(), "tc_op_impl_autograd: no operator");
    tc_clear_error();
}
END_TEST

/* torchgen's names: parts between underscores title-cased, as Python's
   str.title() does ("log1p" -> "Log1P", as PyTorch's Log1PBackward0). */
START_TEST(test_native_node_names)
{
    static const char *const cases[][2] = {
        { "native_test::log1p_x(Tensor x) -> Tensor", "Log1PXBackward0" },
        { "native_test::_fooBar(Tensor x) -> Tensor", "FoobarBackward0" },
    };
    tc_tensor *x = native_leaf(TC_SHAPE(1), (const double[]){ 2 });

    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tc_op *op = tc_op_def(cases[i][0]);
        ck_assert_ptr_nonnull(op);
        ck_assert_ptr_nonnull(tc_op_impl_unboxed(op, TC_KEY_CPU, (tc_unboxed_fn *)native_same,
                                                 "same"));
        ck_assert_ptr_nonnull(tc_op_impl_autograd(op, native_pass_backward));
        tc_op_clear_warning();
        ck_assert_str_eq(native_grad_fn(K(native_call1(op, x))), cases[i][1]);
    }
}
END_TEST

/* ----------------------------------------------------------- the table */

/* torch._C._dispatch_dump_table("aten::square"): the alias fills both. */
START_TEST(test_native_square_table)
{
    FILE *f = tmpfile();
    char text[2048];
    size_t n;

    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(tc_op_print_table(f, tc_op_find("aten::square")), 0);
    rewind(f);
    n = fread(text, 1, sizeof text - 1, f);
    text[n] = '\0';
    fclose(f);
    ck_assert_msg(strstr(text, "aten::square(Tensor self) -> Tensor") != NULL, "%s", text);
    ck_assert_msg(strstr(text, "[math kernel]") != NULL, "%s", text);
}
END_TEST

static void ch08_add_native(Suite *s)
{
    TCase *tc = testing_tcase("native operators", NULL, NULL);

    tcase_add_test(tc, test_native_by_name_equals_direct_call);
    tcase_add_test(tc, test_native_grad_fn_names);
    tcase_add_test(tc, test_native_alpha);
    tcase_add_test(tc, test_native_dim_none);
    tcase_add_test(tc, test_native_square);
    tcase_add_test(tc, test_native_replaced_cpu_kernel);
    tcase_add_test(tc, test_native_square_table);
    suite_add_tcase(s, tc);
    tc = testing_tcase("operators with a backward", NULL, NULL);
    tcase_add_test(tc, test_native_autograd_of_an_operator);
    tcase_add_test(tc, test_native_autograd_three_inputs);
    tcase_add_test(tc, test_native_gradcheck);
    tcase_add_test(tc, test_native_no_backward_no_grad_fn);
    tcase_add_test(tc, test_native_kernel_returning_its_input);
    tcase_add_test(tc, test_native_autograd_errors);
    tcase_add_test(tc, test_native_node_names);
    suite_add_tcase(s, tc);
}
