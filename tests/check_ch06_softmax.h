/* check_ch06_softmax.h: the tests of chapter 6's section "Softmax, and why
   the textbook formula overflows" (tc_softmax, tc_log_softmax,
   tc_logsumexp, the two backward kernels and the nodes SoftmaxBackward0,
   LogSoftmaxBackward0, LogsumexpBackward0), written on branch softmax
   while tests/check_ch06.c was being written on branch tests. Include it
   in check_ch06.c and call ch06_add_softmax(s) from the suite function;
   it needs nothing from the file that includes it (its names all start
   with sm_ or SM_).

   Every expected value, message, name and stride is PyTorch 1.13's: from
   /work/wt/facts6/FACTS.md (tests/pytorch/ch06_facts.py), cited by entry
   (a.3, a.9.5 ...), or from tests/pytorch/ch06_softmax_tests.py, whose
   Python is in the comment above the check. float64 values are compared
   to a relative 1e-12, float32 ones to 1e-6 (PyTorch's exp and the C
   library's may differ in the last bits); NaN and infinities exactly, and
   the sums in lanes bit for bit. */
#include <check.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "tc.h"
#include "testing.h"

#define SM_S(...) TC_SHAPE(__VA_ARGS__)
#define SM_D(...) ((const double[]){ __VA_ARGS__ })
#define SM_INF INFINITY

/* A tensor of shape and dtype from row-major values, kept (K). */
#define sm_tensor(shape, dtype, v) testing_tensor(shape, dtype, v)
#define SM_F64(shape, ...) sm_tensor(shape, TC_FLOAT64, SM_D(__VA_ARGS__))
#define SM_F32(shape, ...) sm_tensor(shape, TC_FLOAT32, SM_D(__VA_ARGS__))

/* The same, a leaf that requires grad. */
static tc_tensor *sm_leaf(tc_tensor *t)
{
    ck_assert_int_eq(ag_set_requires_grad(t, true), 0);
    return t;
}

/* got is want within rtol (relative alone: a zero, an infinity or NaN
   exactly). */
static bool sm_close(double got, double want, double rtol)
{
    return testing_close(got, want, TESTING_TOL(rtol, 0));
}

/* t has this shape, dtype and these values (rtol by dtype: 1e-6 for
   float32, 1e-12 for float64, exact with rtol 0). */
static void sm_expect(int line, const char *what, const tc_tensor *t, tc_shape shape,
                      tc_dtype dtype, const double *v, double rtol)
{
    testing_expect_tensor(line, what, t, dtype, shape, v, TESTING_TOL(rtol, 0));
}

#define SM_EXPECT64(t, shape, ...) \
    sm_expect(__LINE__, #t, t, shape, TC_FLOAT64, SM_D(__VA_ARGS__), 1e-12)
#define SM_EXPECT32(t, shape, ...) \
    sm_expect(__LINE__, #t, t, shape, TC_FLOAT32, SM_D(__VA_ARGS__), 1e-6)
#define SM_EXACT32(t, shape, ...) \
    sm_expect(__LINE__, #t, t, shape, TC_FLOAT32, SM_D(__VA_ARGS__), 0)

/* FACTS a.3: A = [[1, 2, 3], [-1, 0.5, 4]] (float64). */
static tc_tensor *sm_a(void)
{
    return SM_F64(SM_S(2, 3), 1.0, 2.0, 3.0, -1.0, 0.5, 4.0);
}

/* FACTS a.3: B = (arange(24) * 0.25 - 2).view(2, 3, 4), B[1, 2, 3] = 5. */
static tc_tensor *sm_b(void)
{
    double v[24];

    for (int k = 0; k < 24; k++)
        v[k] = k * 0.25 - 2.0;
    v[23] = 5.0;
    return sm_tensor(SM_S(2, 3, 4), TC_FLOAT64, v);
}

/* --------------------------------------------------------- the kernels */

/* FACTS a.1.1-a.1.2 (rows along the last dim) and a.3 (A along each dim,
   negative dims too). */
START_TEST(test_sm_values_along_each_dim)
{
    tc_tensor *a = sm_a();
    tc_tensor *r32 = SM_F32(SM_S(3), 1.0, 2.0, 3.0);

    SM_EXPECT32(K(tc_softmax(r32, 0)), SM_S(3), 0.09003057330846786, 0.2447284758090973,
                0.6652409434318542);
    SM_EXPECT32(K(tc_log_softmax(r32, -1)), SM_S(3), -2.4076058864593506, -1.4076058864593506,
                -0.40760594606399536);
    SM_EXPECT32(K(tc_logsumexp(r32, TC_DIMS(0), false)), TC_SCALAR_SHAPE, 3.4076058864593506);
    SM_EXPECT64(K(tc_softmax(a, 0)), SM_S(2, 3), 0.8807970779778823, 0.8175744761936437,
                0.2689414213699951, 0.11920292202211755, 0.18242552380635632,
                0.7310585786300049);
    SM_EXPECT64(K(tc_log_softmax(a, -2)), SM_S(2, 3), -0.1269280110429726, -0.20141327798275246,
                -1.3132616875182228, -2.1269280110429727, -1.7014132779827524,
                -0.31326168751822286);
    SM_EXPECT64(K(tc_softmax(a, -1)), SM_S(2, 3), 0.09003057317038045, 0.2447284710547976,
                0.6652409557748218, 0.00649794331566194, 0.0291217615374784,
                0.9643802951468596);
    SM_EXPECT64(K(tc_log_softmax(a, 1)), SM_S(2, 3), -2.4076059644443806, -1.4076059644443804,
                -0.4076059644443804, -5.036269565124779, -3.5362695651247793,
                -0.03626956512477912);
    SM_EXPECT64(K(tc_logsumexp(a, TC_DIMS(0), false)), SM_S(3), 1.1269280110429727,
                2.2014132779827524, 4.313261687518223);
    SM_EXPECT64(K(tc_logsumexp(a, TC_DIMS(-1), false)), SM_S(2), 3.4076059644443806,
                4.036269565124779);
}
END_TEST

/* FACTS a.3: the middle dimension of a 3-D tensor (outer 2, inner 4). */
START_TEST(test_sm_middle_dim)
{
    tc_tensor *b = sm_b(), *s = K(tc_softmax(b, 1)), *l = K(tc_log_softmax(b, 1));

    ck_assert_ptr_nonnull(s);
    ck_assert_ptr_nonnull(l);
    /* softmax(B, 1)[1, :, 3] and [0, :, 0] */
    ck_assert(sm_close(testing_get(s, IDX(1, 0, 3)), 0.033888400773829534, 1e-12));
    ck_assert(sm_close(testing_get(s, IDX(1, 1, 3)), 0.09211822401903827, 1e-12));
    ck_assert(sm_close(testing_get(s, IDX(1, 2, 3)), 0.8739933752071322, 1e-12));
    ck_assert(sm_close(testing_get(s, IDX(0, 0, 0)), 0.09003057317038046, 1e-12));
    /* log_softmax(B, 1)[1, :, 3] */
    ck_assert(sm_close(testing_get(l, IDX(1, 0, 3)), -3.3846824832098688, 1e-12));
    ck_assert(sm_close(testing_get(l, IDX(1, 2, 3)), -0.1346824832098687, 1e-12));
    /* softmax(B, 0)[:, 2, 3] */
    s = K(tc_softmax(b, 0));
    ck_assert(sm_close(testing_get(s, IDX(0, 2, 3)), 0.014063627043245474, 1e-12));
    ck_assert(sm_close(testing_get(s, IDX(1, 2, 3)), 0.9859363729567544, 1e-12));
    /* logsumexp(B, 2) */
    SM_EXPECT64(K(tc_logsumexp(b, TC_DIMS(2), false)), SM_S(2, 3), -0.19998359594104986,
                0.8000164040589501, 1.8000164040589501, 2.80001640405895, 3.80001640405895,
                5.426730316836947);
}
END_TEST

/* The overflow of the section: z = torch.tensor([1., 2., 88., 89.]);
   torch.softmax(z, 0), torch.log_softmax(z, 0) (ch06_softmax_tests.py 4),
   and three logits of 88, whose exponentials' sum overflows; FACTS a.2:
   [89, 0] keeps a subnormal. */
START_TEST(test_sm_overflow)
{
    tc_tensor *z = SM_F32(SM_S(4), 1.0, 2.0, 88.0, 89.0);
    tc_tensor *naive = K(tc_div(K(tc_exp(z)), K(tc_sum(K(tc_exp(z))))));

    SM_EXPECT32(K(tc_softmax(z, 0)), SM_S(4), 4.426268847576621e-39, 1.2031845689967316e-38,
                0.2689414322376251, 0.7310585975646973);
    SM_EXPECT32(K(tc_log_softmax(z, 0)), SM_S(4), -88.31326293945312, -87.31326293945312,
                -1.31326162815094, -0.31326165795326233);
    /* the textbook formula: z.exp() / z.exp().sum() */
    SM_EXACT32(naive, SM_S(4), 0.0, 0.0, 0.0, NAN);
    /* torch.softmax(torch.tensor([88., 88., 88.]), 0) */
    SM_EXPECT32(K(tc_softmax(SM_F32(SM_S(3), 88.0, 88.0, 88.0), 0)), SM_S(3),
                0.3333333432674408, 0.3333333432674408, 0.3333333432674408);
    /* torch.log_softmax(torch.tensor([0., 200.]), 0) */
    SM_EXACT32(K(tc_log_softmax(SM_F32(SM_S(2), 0.0, 200.0), 0)), SM_S(2), -200.0, 0.0);
    /* torch.log_softmax(torch.tensor([10000., 10000.5]), 0): x - max first */
    SM_EXPECT32(K(tc_log_softmax(SM_F32(SM_S(2), 10000.0, 10000.5), 0)), SM_S(2),
                -0.9740769863128662, -0.4740769863128662);
    /* FACTS a.2: float32 [89, 0] */
    SM_EXPECT32(K(tc_softmax(SM_F32(SM_S(2), 89.0, 0.0), 0)), SM_S(2), 1.0,
                2.2273639090442967e-39);
}
END_TEST

/* FACTS a.1.23-a.1.40, a.7: +inf, -inf and NaN, in float32 and float64. */
START_TEST(test_sm_infinities)
{
    static const tc_dtype types[] = { TC_FLOAT32, TC_FLOAT64 };

    for (int k = 0; k < 2; k++) {
        tc_dtype dt = types[k];
        tc_tensor *minus = sm_tensor(SM_S(3), dt, SM_D(-SM_INF, 0.0, 1.0));
        tc_tensor *all_minus = sm_tensor(SM_S(3), dt, SM_D(-SM_INF, -SM_INF, -SM_INF));
        tc_tensor *plus = sm_tensor(SM_S(3), dt, SM_D(SM_INF, -SM_INF, 0.0));
        tc_tensor *nan = sm_tensor(SM_S(3), dt, SM_D(NAN, 0.0, 1.0));
        double rtol = dt == TC_FLOAT32 ? 1e-6 : 1e-12;

        /* a.1.27-28: -inf among finite values */
        sm_expect(__LINE__, "softmax", K(tc_softmax(minus, 0)), SM_S(3), dt,
                  SM_D(0.0, 0.26894142136999516, 0.7310585786300049), rtol);
        sm_expect(__LINE__, "log_softmax", K(tc_log_softmax(minus, 0)), SM_S(3), dt,
                  SM_D(-SM_INF, -1.3132616875182228, -0.31326168751822286), rtol);
        sm_expect(__LINE__, "logsumexp", K(tc_logsumexp(minus, TC_DIMS(0), false)),
                  TC_SCALAR_SHAPE, dt, SM_D(1.3132616875182228), rtol);
        /* a.1.29-30: all -inf */
        sm_expect(__LINE__, "softmax", K(tc_softmax(all_minus, 0)), SM_S(3), dt,
                  SM_D(NAN, NAN, NAN), 0);
        sm_expect(__LINE__, "log_softmax", K(tc_log_softmax(all_minus, -1)), SM_S(3), dt,
                  SM_D(NAN, NAN, NAN), 0);
        sm_expect(__LINE__, "logsumexp", K(tc_logsumexp(all_minus, TC_DIMS(0), false)),
                  TC_SCALAR_SHAPE, dt, SM_D(-SM_INF), 0);
        /* a.1.33-34: +inf and -inf */
        sm_expect(__LINE__, "softmax", K(tc_softmax(plus, 0)), SM_S(3), dt,
                  SM_D(NAN, NAN, NAN), 0);
        sm_expect(__LINE__, "log_softmax", K(tc_log_softmax(plus, 0)), SM_S(3), dt,
                  SM_D(NAN, NAN, NAN), 0);
        sm_expect(__LINE__, "logsumexp", K(tc_logsumexp(plus, TC_DIMS(0), false)),
                  TC_SCALAR_SHAPE, dt, SM_D(SM_INF), 0);
        /* a.1.31-32: NaN */
        sm_expect(__LINE__, "softmax", K(tc_softmax(nan, 0)), SM_S(3), dt, SM_D(NAN, NAN, NAN),
                  0);
        sm_expect(__LINE__, "log_softmax", K(tc_log_softmax(nan, 0)), SM_S(3), dt,
                  SM_D(NAN, NAN, NAN), 0);
        sm_expect(__LINE__, "logsumexp", K(tc_logsumexp(nan, TC_DIMS(0), false)),
                  TC_SCALAR_SHAPE, dt, SM_D(NAN), 0);
    }
    /* a.7: logsumexp of [[-inf, -inf], [inf, 1], [inf, inf], [nan, 1], [inf, -inf]] along 1 */
    SM_EXPECT64(K(tc_logsumexp(SM_F64(SM_S(5, 2), -SM_INF, -SM_INF, SM_INF, 1.0, SM_INF, SM_INF,
                                      NAN, 1.0, SM_INF, -SM_INF),
                               TC_DIMS(1), false)),
                SM_S(5), -SM_INF, SM_INF, SM_INF, NAN, SM_INF);
    /* along dim 0 of a transpose, the non-last-dim kernel (ch06_softmax_tests.py):
       torch.softmax(torch.tensor([[-inf, 1., nan], [-inf, 2., 0.]], dtype=torch.float64).t(), 0) */
    SM_EXPECT64(K(tc_softmax(K(tc_t(SM_F64(SM_S(2, 3), -SM_INF, 1.0, NAN, -SM_INF, 2.0, 0.0))),
                             0)),
                SM_S(3, 2), NAN, 0.0, NAN, 0.8807970779778823, NAN, 0.11920292202211755);
}
END_TEST

/* FACTS a.4: a non-contiguous input gives a new contiguous output. */
START_TEST(test_sm_layout)
{
    tc_tensor *at = K(tc_t(sm_a()));
    tc_tensor *bp = K(tc_permute(sm_b(), TC_DIMS(2, 0, 1)));
    tc_tensor *bs = K(tc_slice(sm_b(), 2, 0, TC_END, 2));
    tc_tensor *s;

    s = K(tc_softmax(at, 0));
    SM_EXPECT64(s, SM_S(3, 2), 0.09003057317038046, 0.00649794331566194, 0.24472847105479764,
                0.0291217615374784, 0.6652409557748218, 0.9643802951468596);
    ASSERT_STRIDES(s, 2, 1);
    s = K(tc_softmax(at, 1));
    SM_EXPECT64(s, SM_S(3, 2), 0.8807970779778823, 0.11920292202211755, 0.8175744761936437,
                0.18242552380635632, 0.26894142136999516, 0.7310585786300049);
    ASSERT_STRIDES(s, 2, 1);
    ASSERT_STRIDES(K(tc_log_softmax(at, 1)), 2, 1);
    s = K(tc_logsumexp(at, TC_DIMS(0), false));
    SM_EXPECT64(s, SM_S(2), 3.4076059644443806, 4.036269565124779);
    for (int d = 0; d < 3; d++) {
        ASSERT_STRIDES(K(tc_softmax(bp, d)), 6, 3, 1);
        ASSERT_STRIDES(K(tc_log_softmax(bp, d)), 6, 3, 1);
        s = K(tc_softmax(bs, d));
        ASSERT_STRIDES(s, 6, 2, 1);
        ck_assert(tc_equal(s, K(tc_softmax(K(tc_contiguous(bs)), d))));
    }
    /* an expanded input: torch.softmax(torch.tensor([1., 2.]).expand(3, 2), 0) */
    s = K(tc_softmax(K(tc_expand(SM_F32(SM_S(2), 1.0, 2.0), SM_S(3, 2))), 0));
    SM_EXPECT32(s, SM_S(3, 2), 1.0 / 3, 1.0 / 3, 1.0 / 3, 1.0 / 3, 1.0 / 3, 1.0 / 3);
    ASSERT_STRIDES(s, 2, 1);
}
END_TEST

/* FACTS a.5, a.6: 0-D and empty tensors. */
START_TEST(test_sm_scalar_and_empty)
{
    tc_tensor *x = SM_F64(TC_SCALAR_SHAPE, 3.5), *e;

    SM_EXPECT64(K(tc_softmax(x, 0)), TC_SCALAR_SHAPE, 1.0);
    SM_EXPECT64(K(tc_log_softmax(x, -1)), TC_SCALAR_SHAPE, 0.0);
    SM_EXPECT64(K(tc_logsumexp(x, TC_DIMS(0), false)), TC_SCALAR_SHAPE, 3.5);
    SM_EXPECT64(K(tc_logsumexp(x, TC_DIMS(-1), true)), TC_SCALAR_SHAPE, 3.5);
    SM_EXPECT64(K(tc_logsumexp(x, TC_SCALAR_SHAPE, false)), TC_SCALAR_SHAPE, 3.5);
    SM_EXPECT64(K(tc_softmax(SM_F64(TC_SCALAR_SHAPE, -SM_INF), 0)), TC_SCALAR_SHAPE, NAN);
    SM_EXPECT64(K(tc_logsumexp(SM_F64(TC_SCALAR_SHAPE, -SM_INF), TC_DIMS(0), false)),
                TC_SCALAR_SHAPE, -SM_INF);
    e = K(tc_zeros(SM_S(0, 3), TC_FLOAT32));
    ASSERT_SIZES(K(tc_softmax(e, 1)), 0, 3);
    ASSERT_STRIDES(K(tc_softmax(e, 1)), 3, 1);
    ASSERT_STRIDES(K(tc_log_softmax(e, 0)), 3, 1);
    ASSERT_SIZES(K(tc_logsumexp(e, TC_DIMS(1), false)), 0);
    SM_EXACT32(K(tc_logsumexp(e, TC_DIMS(0), false)), SM_S(3), -SM_INF, -SM_INF, -SM_INF);
    SM_EXACT32(K(tc_logsumexp(e, TC_DIMS(0, 1), false)), TC_SCALAR_SHAPE, -SM_INF);
    e = K(tc_zeros(SM_S(3, 0), TC_FLOAT32));
    ASSERT_STRIDES(K(tc_softmax(e, 1)), 1, 1);
    SM_EXACT32(K(tc_logsumexp(e, TC_DIMS(1), false)), SM_S(3), -SM_INF, -SM_INF, -SM_INF);
    SM_EXACT32(K(tc_logsumexp(K(tc_zeros(SM_S(0), TC_FLOAT32)), TC_DIMS(0), false)),
               TC_SCALAR_SHAPE, -SM_INF);
    /* torch.logsumexp(torch.ones(2, 0), ()) and with keepdim=True */
    SM_EXACT32(K(tc_logsumexp(K(tc_ones(SM_S(2, 0), TC_FLOAT32)), TC_SCALAR_SHAPE, false)),
               TC_SCALAR_SHAPE, -SM_INF);
    SM_EXACT32(K(tc_logsumexp(K(tc_ones(SM_S(2, 0), TC_FLOAT32)), TC_SCALAR_SHAPE, true)),
               SM_S(1, 1), -SM_INF);
    /* a.8: an empty int64 tensor passes through without the type's error */
    e = K(tc_softmax(K(tc_zeros(SM_S(0, 3), TC_INT64)), 1));
    ck_assert_ptr_nonnull(e);
    ck_assert_int_eq(e->dtype, TC_INT64);
    ASSERT_STRIDES(e, 3, 1);
    e = K(tc_log_softmax(K(tc_zeros(SM_S(0, 3), TC_INT64)), 0));
    ck_assert_ptr_nonnull(e);
    ck_assert_int_eq(e->dtype, TC_INT64);
}
END_TEST

/* FACTS a.7: logsumexp over several dims, keepdim, and the output strides. */
START_TEST(test_sm_logsumexp_dims)
{
    tc_tensor *b = sm_b(), *r;

    r = K(tc_logsumexp(b, TC_DIMS(0, 2), false));
    SM_EXPECT64(r, SM_S(3), 2.848603755632692, 3.848603755632692, 5.452986060492742);
    r = K(tc_logsumexp(b, TC_DIMS(2, 0), true));
    SM_EXPECT64(r, SM_S(1, 3, 1), 2.848603755632692, 3.848603755632692, 5.452986060492742);
    ASSERT_STRIDES(r, 3, 1, 1);
    SM_EXPECT64(K(tc_logsumexp(b, TC_DIMS(-1, -3), false)), SM_S(3), 2.848603755632692,
                3.848603755632692, 5.452986060492742);
    r = K(tc_logsumexp(b, TC_DIMS(1, 2), true));
    SM_EXPECT64(r, SM_S(2, 1, 1), 2.2076223685033307, 5.664872963416777);
    ASSERT_STRIDES(r, 1, 1, 1);
    r = K(tc_logsumexp(b, TC_DIMS(0), true));
    ASSERT_SIZES(r, 1, 3, 4);
    ASSERT_STRIDES(r, 12, 4, 1);
    ck_assert(sm_close(testing_get(r, IDX(0, 2, 3)), 5.014163456931505, 1e-12));
    SM_EXPECT64(K(tc_logsumexp(b, TC_DIMS(0, 1, 2), false)), TC_SCALAR_SHAPE,
                5.6959028132993685);
    SM_EXPECT64(K(tc_logsumexp(b, TC_SCALAR_SHAPE, true)), SM_S(1, 1, 1), 5.6959028132993685);
    /* a.8: integers and bools become float32 */
    SM_EXPECT32(K(tc_logsumexp(K(tc_arange(1, 4, 1)), TC_DIMS(0), true)), SM_S(1),
                3.4076058864593506);
    r = K(tc_logsumexp(K(tc_from_data(SM_S(1, 2), TC_INT64, (const int64_t[]){ 1, 0 })),
                       TC_DIMS(1), false));
    SM_EXPECT32(r, SM_S(1), 1.31326162815094);
    SM_EXACT32(K(tc_logsumexp(K(tc_zeros(SM_S(2, 0), TC_INT64)), TC_DIMS(1), false)),
               SM_S(2), -SM_INF, -SM_INF);
    SM_EXPECT32(K(tc_logsumexp(K(tc_gt(K(tc_arange(0, 2, 1)), K(tc_number((int64_t)0)))),
                               TC_DIMS(0), false)),
                TC_SCALAR_SHAPE, 1.31326162815094);
}
END_TEST

#define SM_RANGE(lo, hi, got) \
    "Dimension out of range (expected to be in range of [" lo ", " hi "], but got " got ")"

/* FACTS a.5, a.7, a.8: every error of the forward kernels. */
START_TEST(test_sm_errors)
{
    tc_tensor *a = sm_a(), *b = sm_b();
    tc_tensor *n = K(tc_from_data(SM_S(2, 2), TC_INT64, (const int64_t[]){ 1, 2, 3, 4 }));

    EXPECT_FAILS(tc_softmax(a, 2), SM_RANGE("-2", "1", "2"));
    EXPECT_FAILS(tc_softmax(a, -3), SM_RANGE("-2", "1", "-3"));
    EXPECT_FAILS(tc_log_softmax(a, 2), SM_RANGE("-2", "1", "2"));
    EXPECT_FAILS(tc_softmax(b, -4), SM_RANGE("-3", "2", "-4"));
    EXPECT_FAILS(tc_softmax(SM_F64(TC_SCALAR_SHAPE, 3.5), 1), SM_RANGE("-1", "0", "1"));
    EXPECT_FAILS(tc_logsumexp(SM_F64(TC_SCALAR_SHAPE, 3.5), TC_DIMS(-2), false),
                 SM_RANGE("-1", "0", "-2"));
    EXPECT_FAILS(tc_logsumexp(a, TC_DIMS(2), false), SM_RANGE("-2", "1", "2"));
    EXPECT_FAILS(tc_logsumexp(a, TC_DIMS(0, 5), false), SM_RANGE("-2", "1", "5"));
    EXPECT_FAILS(tc_logsumexp(a, TC_DIMS(1, 1), false),
                 "dim 1 appears multiple times in the list of dims");
    EXPECT_FAILS(tc_logsumexp(a, TC_DIMS(0, -2), false),
                 "dim 0 appears multiple times in the list of dims");
    /* every dim in range before any repeat: torch.logsumexp(torch.ones(2, 3), (0, 0, 5)) */
    EXPECT_FAILS(tc_logsumexp(a, TC_DIMS(0, 0, 5), false), SM_RANGE("-2", "1", "5"));
    /* torch.logsumexp(torch.tensor(1.5), (0, -1)) */
    EXPECT_FAILS(tc_logsumexp(SM_F64(TC_SCALAR_SHAPE, 1.5), TC_DIMS(0, -1), false),
                 "dim 0 appears multiple times in the list of dims");
    /* a.7; torch.logsumexp(torch.ones(4), ()) */
    EXPECT_FAILS(tc_logsumexp(b, TC_SCALAR_SHAPE, false),
                 "output with shape [] doesn't match the broadcast shape [1, 1, 1]");
    EXPECT_FAILS(tc_logsumexp(K(tc_ones(SM_S(4), TC_FLOAT32)), TC_SCALAR_SHAPE, false),
                 "output with shape [] doesn't match the broadcast shape [1]");
    /* a.8: the kernels' names, by dimension */
    EXPECT_FAILS(tc_softmax(n, 1), "\"softmax_lastdim_kernel_impl\" not implemented for 'Long'");
    EXPECT_FAILS(tc_log_softmax(n, -1),
                 "\"log_softmax_lastdim_kernel_impl\" not implemented for 'Long'");
    EXPECT_FAILS(tc_softmax(n, 0), "\"softmax_kernel_impl\" not implemented for 'Long'");
    EXPECT_FAILS(tc_log_softmax(n, 0), "\"softmax_kernel_impl\" not implemented for 'Long'");
    EXPECT_FAILS(tc_softmax(K(tc_from_data(TC_SCALAR_SHAPE, TC_INT64, (const int64_t[]){ 3 })),
                            0),
                 "\"softmax_lastdim_kernel_impl\" not implemented for 'Long'");
    EXPECT_FAILS(tc_softmax(K(tc_gt(n, K(tc_number((int64_t)2)))), 1),
                 "\"softmax_lastdim_kernel_impl\" not implemented for 'Bool'");
    /* the dimension is checked before the type: torch.softmax(torch.ones(2, dtype=torch.long), 1) */
    EXPECT_FAILS(tc_softmax(K(tc_ones(SM_S(2), TC_INT64)), 1), SM_RANGE("-1", "0", "1"));
    /* NULL arguments fail, with a message, and do not crash */
    tc_clear_error();
    ck_assert_ptr_null(tc_softmax(NULL, 0));
    ck_assert_ptr_nonnull(tc_error());
    tc_clear_error();
    ck_assert_ptr_null(tc_logsumexp(NULL, TC_DIMS(0), false));
    ck_assert_ptr_nonnull(tc_error());
    tc_clear_error();
}
END_TEST

/* ------------------------------------------------- the backward kernels */

/* FACTS a.9 (the kernels called directly) and ch06_softmax_tests.py 1. */
START_TEST(test_sm_backward_kernels)
{
    tc_tensor *a = sm_a();
    tc_tensor *w = SM_F64(SM_S(2, 3), 0.5, -1.0, 2.0, 1.5, 0.25, -0.75);
    tc_tensor *y = K(tc_softmax(a, 1)), *z = K(tc_log_softmax(a, 1)), *r;

    /* torch._softmax_backward_data(W, softmax(A, 1), 1, torch.float64) */
    SM_EXPECT64(K(tc_softmax_backward_data(w, y, 1)), SM_S(2, 3), -0.05678847003696693,
                -0.5214597727496746, 0.5782482427866417, 0.014336138553016107,
                0.02784791354205644, -0.04218405209507253);
    SM_EXPECT64(K(tc_log_softmax_backward_data(w, z, -1)), SM_S(2, 3), 0.36495414024442935,
                -1.3670927065821965, 1.0021385663377673, 1.493502056684338,
                0.2208782384625216, -1.7143802951468596);
    /* y = torch.softmax(A.t(), 0); torch._softmax_backward_data(W.t(),
       y.contiguous(), 0, torch.float64), here with a strided output too,
       y.t().contiguous().t(): PyTorch 1.13 reads such an output as if it
       were contiguous and gives [[0.0956, 0.4539], ...] (sbd_t_bug); we
       expect its answer for the same output made contiguous. */
    y = K(tc_softmax(K(tc_t(a)), 0));
    r = K(tc_softmax_backward_data(K(tc_t(w)), K(tc_t(K(tc_contiguous(K(tc_t(y)))))), 0));
    SM_EXPECT64(r, SM_S(3, 2), -0.056788470036966944, 0.014336138553016107,
                -0.5214597727496746, 0.02784791354205644, 0.5782482427866417,
                -0.04218405209507253);
    ASSERT_STRIDES(r, 2, 1);
    z = K(tc_log_softmax(K(tc_t(a)), 0));
    r = K(tc_log_softmax_backward_data(K(tc_t(w)), K(tc_t(K(tc_contiguous(K(tc_t(z)))))), 0));
    SM_EXPECT64(r, SM_S(3, 2), 0.36495414024442935, 1.493502056684338, -1.3670927065821965,
                0.2208782384625216, 1.0021385663377673, -1.7143802951468596);
    ASSERT_STRIDES(r, 2, 1);
    /* 0-D: torch._softmax_backward_data(torch.tensor(2.), torch.tensor(1.), 0, torch.float32) */
    SM_EXACT32(K(tc_softmax_backward_data(SM_F32(TC_SCALAR_SHAPE, 2.0),
                                          SM_F32(TC_SCALAR_SHAPE, 1.0), 0)),
               TC_SCALAR_SHAPE, 0.0);
    SM_EXACT32(K(tc_log_softmax_backward_data(SM_F32(TC_SCALAR_SHAPE, 2.0),
                                              SM_F32(TC_SCALAR_SHAPE, 0.0), -1)),
               TC_SCALAR_SHAPE, 0.0);
    /* empty: torch._softmax_backward_data(torch.ones(0, 2), torch.ones(0, 2), 1, torch.float32),
       and an int64 one, which passes without the type's error */
    r = K(tc_softmax_backward_data(K(tc_ones(SM_S(0, 2), TC_FLOAT32)),
                                   K(tc_ones(SM_S(0, 2), TC_FLOAT32)), 1));
    ASSERT_SIZES(r, 0, 2);
    ASSERT_STRIDES(r, 2, 1);
    r = K(tc_softmax_backward_data(K(tc_ones(SM_S(0), TC_INT64)), K(tc_ones(SM_S(0), TC_INT64)),
                                   0));
    ck_assert_ptr_nonnull(r);
    ck_assert_int_eq(r->dtype, TC_INT64);
}
END_TEST

/* ch06_softmax_tests.py 2: g = torch.ones(16); g[0], g[8] = 1e8, -1e8.
   Along the last dim PyTorch sums g in eight lanes, lane 0 gets 1e8 and
   -1e8 and the ones survive in the others (sum 14); along dim 0 of
   g.view(16, 1) it sums in order and the first seven ones vanish into 1e8
   (sum 7). The results are g - sum (the output is 0, or 1 for softmax),
   bit for bit. */
START_TEST(test_sm_sums_in_lanes)
{
    double g[16], lanes[16], order[16];
    tc_tensor *gt, *r;

    for (int k = 0; k < 16; k++) {
        g[k] = k == 0 ? 1e8 : k == 8 ? -1e8 : 1.0;
        lanes[k] = k == 0 ? 99999984.0 : k == 8 ? -100000016.0 : -13.0;
        order[k] = k == 0 ? 99999992.0 : k == 8 ? -100000008.0 : -6.0;
    }
    gt = sm_tensor(SM_S(16), TC_FLOAT32, g);
    /* torch._log_softmax_backward_data(g, torch.zeros(16), 0, torch.float32) */
    r = K(tc_log_softmax_backward_data(gt, K(tc_zeros(SM_S(16), TC_FLOAT32)), 0));
    sm_expect(__LINE__, "lanes", r, SM_S(16), TC_FLOAT32, lanes, 0);
    /* torch._softmax_backward_data(g, torch.ones(16), 0, torch.float32) */
    r = K(tc_softmax_backward_data(gt, K(tc_ones(SM_S(16), TC_FLOAT32)), 0));
    sm_expect(__LINE__, "lanes", r, SM_S(16), TC_FLOAT32, lanes, 0);
    /* the same along dim 0 of g.view(16, 1) */
    gt = K(tc_view(gt, SM_S(16, 1)));
    r = K(tc_log_softmax_backward_data(gt, K(tc_zeros(SM_S(16, 1), TC_FLOAT32)), 0));
    sm_expect(__LINE__, "in order", r, SM_S(16, 1), TC_FLOAT32, order, 0);
    r = K(tc_softmax_backward_data(gt, K(tc_ones(SM_S(16, 1), TC_FLOAT32)), 0));
    sm_expect(__LINE__, "in order", r, SM_S(16, 1), TC_FLOAT32, order, 0);
}
END_TEST

/* ch06_softmax_tests.py 3: x = tensor([10 * math.sin(k) for k in
   range(10000)], dtype=float64).float(); softmax(x, 0), log_softmax(x, 0)
   at 0, 1234 and the argmax 9929, and logsumexp(x, 0): a long float32 row
   agrees with PyTorch to 1e-6 (one running sum would drift by 1e-5). */
START_TEST(test_sm_long_row)
{
    static double v[10000];
    tc_tensor *x, *s, *l;

    for (int k = 0; k < 10000; k++)
        v[k] = (float)(10 * sin((double)k));
    x = sm_tensor(SM_S(10000), TC_FLOAT32, v);
    s = K(tc_softmax(x, 0));
    l = K(tc_log_softmax(x, 0));
    ck_assert_ptr_nonnull(s);
    ck_assert_ptr_nonnull(l);
    ck_assert(sm_close(testing_get(s, IDX(0)), 3.5502711881463256e-08, 1e-6));
    ck_assert(sm_close(testing_get(s, IDX(1234)), 1.4601590919482987e-05, 1e-6));
    ck_assert(sm_close(testing_get(s, IDX(9929)), 0.0007819493184797466, 1e-6));
    ck_assert(sm_close(testing_get(l, IDX(0)), -17.153656005859375, 1e-6));
    ck_assert(sm_close(testing_get(l, IDX(1234)), -11.134380340576172, 1e-6));
    ck_assert(sm_close(testing_get(l, IDX(9929)), -7.153720378875732, 1e-6));
    SM_EXPECT32(K(tc_logsumexp(x, TC_DIMS(0), false)), TC_SCALAR_SHAPE, 17.153657913208008);
}
END_TEST

/* ch06_softmax_tests.py 1, FACTS a.8: the backward kernels' errors. */
START_TEST(test_sm_backward_errors)
{
    tc_tensor *f = K(tc_ones(SM_S(3, 2), TC_FLOAT32)), *d = K(tc_ones(SM_S(3, 2), TC_FLOAT64));
    tc_tensor *n = K(tc_ones(SM_S(3, 2), TC_INT64)), *t = K(tc_ones(SM_S(2, 3), TC_FLOAT32));

    EXPECT_FAILS(tc_softmax_backward_data(f, t, 0),
                 "Expected tensor for argument #1 'grad' to have same size as tensor for "
                 "argument #2 'output'; but [3, 2] does not equal [2, 3] (while checking "
                 "arguments for softmax_backward)");
    /* the size is checked before the dimension */
    EXPECT_FAILS(tc_softmax_backward_data(f, t, 5),
                 "Expected tensor for argument #1 'grad' to have same size as tensor for "
                 "argument #2 'output'; but [3, 2] does not equal [2, 3] (while checking "
                 "arguments for softmax_backward)");
    /* ours: PyTorch 1.13's _log_softmax_backward_data checks no size */
    EXPECT_FAILS(tc_log_softmax_backward_data(f, t, 0),
                 "Expected tensor for argument #1 'grad' to have same size as tensor for "
                 "argument #2 'output'; but [3, 2] does not equal [2, 3] (while checking "
                 "arguments for log_softmax_backward)");
    EXPECT_FAILS(tc_softmax_backward_data(f, f, 2), SM_RANGE("-2", "1", "2"));
    EXPECT_FAILS(tc_log_softmax_backward_data(f, f, 2), SM_RANGE("-2", "1", "2"));
    EXPECT_FAILS(tc_softmax_backward_data(n, n, 0),
                 "\"softmax_backward_kernel_impl\" not implemented for 'Long'");
    EXPECT_FAILS(tc_softmax_backward_data(n, n, 1),
                 "\"softmax_backward_lastdim_kernel_impl\" not implemented for 'Long'");
    EXPECT_FAILS(tc_log_softmax_backward_data(n, n, 0),
                 "\"log_softmax_backward_kernel_impl\" not implemented for 'Long'");
    EXPECT_FAILS(tc_log_softmax_backward_data(n, n, -1),
                 "\"log_softmax_backward_lastdim_kernel_impl\" not implemented for 'Long'");
    EXPECT_FAILS(tc_softmax_backward_data(f, d, 0), "expected scalar type Float but found Double");
    EXPECT_FAILS(tc_softmax_backward_data(d, f, 0), "expected scalar type Double but found Float");
    EXPECT_FAILS(tc_log_softmax_backward_data(f, d, 0),
                 "expected scalar type Float but found Double");
    tc_clear_error();
    ck_assert_ptr_null(tc_softmax_backward_data(f, NULL, 0));
    ck_assert_ptr_nonnull(tc_error());
    tc_clear_error();
    ck_assert_ptr_null(tc_log_softmax_backward_data(NULL, f, 0));
    ck_assert_ptr_nonnull(tc_error());
    tc_clear_error();
}
END_TEST

/* ----------------------------------------------------------- the nodes */

/* The type name of edge j of t's grad_fn. */
static const char *sm_next_name(const tc_tensor *t, int j)
{
    ag_edge e = ag_node_next(ag_grad_fn(t), j);

    return e.node == NULL ? "None" : ag_node_type_name(e.node);
}

/* FACTS a.10: the nodes' names and next_functions; the kernels record nothing. */
START_TEST(test_sm_nodes)
{
    tc_tensor *x = sm_leaf(sm_a()), *y;

    y = K(ag_softmax(x, 1));
    ck_assert_str_eq(ag_node_type_name(ag_grad_fn(y)), "SoftmaxBackward0");
    ck_assert_str_eq(ag_node_name(ag_grad_fn(y)), "SoftmaxBackward0");
    ck_assert_int_eq(ag_node_num_next(ag_grad_fn(y)), 1);
    ck_assert_str_eq(sm_next_name(y, 0), "AccumulateGrad");
    y = K(ag_log_softmax(x, -1));
    ck_assert_str_eq(ag_node_type_name(ag_grad_fn(y)), "LogSoftmaxBackward0");
    ck_assert_int_eq(ag_node_num_next(ag_grad_fn(y)), 1);
    ck_assert_str_eq(sm_next_name(y, 0), "AccumulateGrad");
    y = K(ag_logsumexp(x, TC_DIMS(0, 1), true));
    ck_assert_str_eq(ag_node_type_name(ag_grad_fn(y)), "LogsumexpBackward0");
    ck_assert_int_eq(ag_node_num_next(ag_grad_fn(y)), 1);
    ck_assert_str_eq(sm_next_name(y, 0), "AccumulateGrad");
    /* F.softmax(x.exp(), 1): SoftmaxBackward0 -> ExpBackward0 */
    y = K(ag_softmax(K(ag_exp(x)), 1));
    ck_assert_str_eq(sm_next_name(y, 0), "ExpBackward0");
    /* the kernels never record */
    ck_assert_ptr_null(ag_grad_fn(K(tc_softmax(x, 1))));
    ck_assert_ptr_null(ag_grad_fn(K(tc_logsumexp(x, TC_DIMS(1), false))));
    /* no node when nothing requires grad, or under no_grad */
    ck_assert_ptr_null(ag_grad_fn(K(ag_softmax(sm_a(), 1))));
    ag_set_grad_enabled(false);
    ck_assert_ptr_null(ag_grad_fn(K(ag_log_softmax(x, 1))));
    ag_set_grad_enabled(true);
    /* a failing forward records nothing and returns NULL */
    EXPECT_FAILS(ag_softmax(x, 2), SM_RANGE("-2", "1", "2"));
    EXPECT_FAILS(ag_logsumexp(x, TC_DIMS(1, 1), false),
                 "dim 1 appears multiple times in the list of dims");
}
END_TEST

/* FACTS a.9.1-a.9.5, a.9.28; the backward of (y * w).sum() is y.backward(w). */
START_TEST(test_sm_gradients)
{
    tc_tensor *w = SM_F64(SM_S(2, 3), 0.5, -1.0, 2.0, 1.5, 0.25, -0.75);
    tc_tensor *x;

    x = sm_leaf(sm_a());
    ck_assert_int_eq(ag_backward(K(ag_softmax(x, 1)), w, false), 0);
    SM_EXPECT64(ag_grad(x), SM_S(2, 3), -0.05678847003696693, -0.5214597727496746,
                0.5782482427866417, 0.014336138553016107, 0.02784791354205644,
                -0.04218405209507253);
    x = sm_leaf(sm_a());
    ck_assert_int_eq(ag_backward(K(ag_softmax(x, 0)), w, false), 0);
    SM_EXPECT64(ag_grad(x), SM_S(2, 3), -0.10499358540350642, -0.18643306508791607,
                0.5406828164140751, 0.10499358540350652, 0.18643306508791602,
                -0.540682816414075);
    x = sm_leaf(sm_a());
    ck_assert_int_eq(ag_backward(K(ag_log_softmax(x, 0)), w, false), 0);
    SM_EXPECT64(ag_grad(x), SM_S(2, 3), -1.2615941559557646, -0.38681914285476726,
                1.663823223287506, 1.2615941559557649, 0.38681914285476726,
                -1.663823223287506);
    x = sm_leaf(sm_a());
    ck_assert_int_eq(ag_backward(K(ag_logsumexp(x, TC_DIMS(1), false)),
                                 SM_F64(SM_S(2), 0.5, -2.0), false),
                     0);
    SM_EXPECT64(ag_grad(x), SM_S(2, 3), 0.04501528658519022, 0.12236423552739879,
                0.33262047788741084, -0.012995886631323884, -0.058243523074956824,
                -1.92876059029372);
    /* a.9.28: logsumexp(B, (0, 2), keepdim=True), w = [1, -2, 0.5].view(1, 3, 1) */
    x = sm_leaf(sm_b());
    ck_assert_int_eq(ag_backward(K(ag_logsumexp(x, TC_DIMS(0, 2), true)),
                                 SM_F64(SM_S(1, 3, 1), 1.0, -2.0, 0.5), false),
                     0);
    ck_assert(sm_close(testing_get(ag_grad(x), IDX(0, 0, 0)), 0.007839315511541212, 1e-12));
    ck_assert(sm_close(testing_get(ag_grad(x), IDX(1, 1, 3)), -0.6666723553812159, 1e-12));
    ck_assert(sm_close(testing_get(ag_grad(x), IDX(1, 2, 3)), 0.3178634976428579, 1e-12));
    /* ch06_softmax_tests.py 5: the same without keepdim, y.backward([1, -2, 0.5]) */
    x = sm_leaf(sm_b());
    ck_assert_int_eq(ag_backward(K(ag_logsumexp(x, TC_DIMS(0, 2), false)),
                                 SM_F64(SM_S(3), 1.0, -2.0, 0.5), false),
                     0);
    ck_assert(sm_close(testing_get(ag_grad(x), IDX(0, 1, 2)), -0.025849692463214904, 1e-12));
    ck_assert(sm_close(testing_get(ag_grad(x), IDX(1, 2, 3)), 0.3178634976428579, 1e-12));
    /* 0-D: logsumexp(tensor(3.5), (0,)).backward() gives 1; softmax's 0 */
    x = sm_leaf(SM_F64(TC_SCALAR_SHAPE, 3.5));
    ck_assert_int_eq(ag_backward(K(ag_logsumexp(x, TC_DIMS(0), false)), NULL, false), 0);
    SM_EXPECT64(ag_grad(x), TC_SCALAR_SHAPE, 1.0);
    x = sm_leaf(SM_F64(TC_SCALAR_SHAPE, 3.5));
    ck_assert_int_eq(ag_backward(K(ag_softmax(x, 0)), SM_F64(TC_SCALAR_SHAPE, 2.0), false), 0);
    SM_EXPECT64(ag_grad(x), TC_SCALAR_SHAPE, 0.0);
    /* float32 through a transposed leaf: x = A.float().t().contiguous().t() */
    x = sm_leaf(K(tc_t(K(tc_contiguous(K(tc_t(sm_tensor(SM_S(2, 3), TC_FLOAT32,
                                                      SM_D(1.0, 2.0, 3.0, -1.0, 0.5, 4.0)))))))));
    ck_assert_int_eq(ag_backward(K(ag_log_softmax(x, 0)),
                                 sm_tensor(SM_S(2, 3), TC_FLOAT32,
                                           SM_D(0.5, -1.0, 2.0, 1.5, 0.25, -0.75)),
                                 false),
                     0);
    SM_EXPECT32(ag_grad(x), SM_S(2, 3), -1.2615940570831299, -0.38681918382644653,
                1.6638232469558716, 1.2615941762924194, 0.38681912422180176,
                -1.6638232469558716);
}
END_TEST

/* FACTS a.9.6-a.9.25: the infinities in the backward pass. */
START_TEST(test_sm_gradient_infinities)
{
    tc_tensor *w = SM_F64(SM_S(2, 3), 0.5, -1.0, 2.0, 1.5, 0.25, -0.75);
    tc_tensor *x;

    /* a.9.6 */
    x = sm_leaf(SM_F64(SM_S(2, 3), -SM_INF, 0.0, 1.0, 2.0, -SM_INF, -SM_INF));
    ck_assert_int_eq(ag_backward(K(ag_softmax(x, 1)), w, false), 0);
    SM_EXPECT64(ag_grad(x), SM_S(2, 3), -0.0, -0.5898357997244457, 0.5898357997244457, 0.0,
                -0.0, -0.0);
    ck_assert(signbit(testing_get(ag_grad(x), IDX(0, 0))));
    /* a.9.8 */
    x = sm_leaf(SM_F64(SM_S(2, 3), -SM_INF, 0.0, 1.0, 2.0, -SM_INF, -SM_INF));
    ck_assert_int_eq(ag_backward(K(ag_log_softmax(x, 1)), w, false), 0);
    SM_EXPECT64(ag_grad(x), SM_S(2, 3), 0.5, -1.4034121320549926, 0.9034121320549926, 0.5,
                0.25, -0.75);
    /* a.9.20 */
    x = sm_leaf(SM_F64(SM_S(2, 3), -SM_INF, -SM_INF, -SM_INF, 0.0, 0.0, 0.0));
    ck_assert_int_eq(ag_backward(K(ag_logsumexp(x, TC_DIMS(1), false)),
                                 SM_F64(SM_S(2), 0.5, -2.0), false),
                     0);
    SM_EXPECT64(ag_grad(x), SM_S(2, 3), NAN, NAN, NAN, -0.6666666666666666,
                -0.6666666666666666, -0.6666666666666666);
    /* a.9.16 */
    x = sm_leaf(SM_F64(SM_S(2, 3), -SM_INF, -SM_INF, -SM_INF, 0.0, 0.0, 0.0));
    ck_assert_int_eq(ag_backward(K(ag_softmax(x, 1)), w, false), 0);
    SM_EXPECT64(ag_grad(x), SM_S(2, 3), NAN, NAN, NAN, 0.38888888888888884,
                -0.02777777777777779, -0.36111111111111116);
    /* a.9.24 */
    x = sm_leaf(SM_F64(SM_S(2, 3), SM_INF, 0.0, 1.0, 0.0, 0.0, 0.0));
    ck_assert_int_eq(ag_backward(K(ag_log_softmax(x, 0)), w, false), 0);
    SM_EXPECT64(ag_grad(x), SM_S(2, 3), NAN, -0.625, 1.086176776712494, NAN, 0.625,
                -1.086176776712494);
    /* a.9.25 */
    x = sm_leaf(SM_F64(SM_S(2, 3), SM_INF, 0.0, 1.0, 0.0, 0.0, 0.0));
    ck_assert_int_eq(ag_backward(K(ag_logsumexp(x, TC_DIMS(1), false)),
                                 SM_F64(SM_S(2), 0.5, -2.0), false),
                     0);
    SM_EXPECT64(ag_grad(x), SM_S(2, 3), NAN, 0.0, 0.0, -0.6666666666666666,
                -0.6666666666666666, -0.6666666666666666);
}
END_TEST

#define SM_MODIFIED                                                                        \
    "one of the variables needed for gradient computation has been modified by an "       \
    "inplace operation: [torch.DoubleTensor [2, 3]], which is output 0 of "                \
    "SoftmaxBackward0, is at version 1; expected version 0 instead. Hint: enable anomaly " \
    "detection to find the operation that failed to compute its gradient, with "           \
    "torch.autograd.set_detect_anomaly(True)."
#define SM_SECOND_TIME                                                                     \
    "Trying to backward through the graph a second time (or directly access saved tensors " \
    "after they have already been freed). Saved intermediate values of the graph are "     \
    "freed when you call .backward() or autograd.grad(). Specify retain_graph=True if you " \
    "need to backward through the graph a second time or if you need to access saved "     \
    "tensors after calling backward."

/* ch06_softmax_tests.py 5: the saved result, changed in place or freed. */
START_TEST(test_sm_saved_result)
{
    tc_tensor *x = sm_leaf(sm_a()), *y, *ones = K(tc_ones(SM_S(2, 3), TC_FLOAT64));

    /* y = torch.softmax(x, 1); y.mul_(2); y.sum().backward() */
    y = K(ag_softmax(x, 1));
    ck_assert_ptr_nonnull(K(ag_mul_(y, K(tc_number(2.0)))));
    tc_clear_error();
    ck_assert_int_lt(ag_backward(y, ones, false), 0);
    ck_assert_str_eq(tc_error(), SM_MODIFIED);
    tc_clear_error();
    /* y = torch.logsumexp(x, (1,)); y.sum().backward(); y.sum().backward() */
    y = K(ag_logsumexp(x, TC_DIMS(1), false));
    ck_assert_int_eq(ag_backward(y, K(tc_ones(SM_S(2), TC_FLOAT64)), false), 0);
    ck_assert_int_lt(ag_backward(y, K(tc_ones(SM_S(2), TC_FLOAT64)), false), 0);
    ck_assert_str_eq(tc_error(), SM_SECOND_TIME);
    tc_clear_error();
}
END_TEST

static tc_tensor *sm_gc_softmax(tc_tensor *const *in, void *dim)
{
    return ag_softmax(in[0], *(const int64_t *)dim);
}

static tc_tensor *sm_gc_log_softmax(tc_tensor *const *in, void *dim)
{
    return ag_log_softmax(in[0], *(const int64_t *)dim);
}

static tc_tensor *sm_gc_logsumexp(tc_tensor *const *in, void *dims)
{
    return ag_logsumexp(in[0], *(const tc_shape *)dims, false);
}

/* gradcheck of the three nodes along every dim of B and of a strided input. */
START_TEST(test_sm_gradcheck)
{
    tc_tensor *b = sm_leaf(sm_b());
    tc_tensor *strided = sm_leaf(K(tc_slice(K(tc_permute(sm_b(), TC_DIMS(2, 0, 1))), 0, 0,
                                            TC_END, 2)));
    tc_shape dims[] = { TC_DIMS(0), TC_DIMS(2), TC_DIMS(0, 2), TC_DIMS(-1, 1) };

    for (int64_t d = -3; d < 3; d++) {
        ck_assert_msg(ag_gradcheck(sm_gc_softmax, &d, 1, &b, NULL) == 0, "softmax %lld: %s",
                      (long long)d, tc_error());
        ck_assert_msg(ag_gradcheck(sm_gc_log_softmax, &d, 1, &b, NULL) == 0,
                      "log_softmax %lld: %s", (long long)d, tc_error());
        ck_assert_msg(ag_gradcheck(sm_gc_softmax, &d, 1, &strided, NULL) == 0,
                      "softmax of a strided leaf %lld: %s", (long long)d, tc_error());
    }
    for (int k = 0; k < 4; k++)
        ck_assert_msg(ag_gradcheck(sm_gc_logsumexp, &dims[k], 1, &b, NULL) == 0,
                      "logsumexp %d: %s", k, tc_error());
}
END_TEST

static void sm_setup(void)
{
    ag_set_grad_enabled(true);
}

static void ch06_add_softmax(Suite *s)
{
    TCase *tc = testing_tcase("softmax", sm_setup, sm_setup);

    tcase_add_test(tc, test_sm_values_along_each_dim);
    tcase_add_test(tc, test_sm_middle_dim);
    tcase_add_test(tc, test_sm_overflow);
    tcase_add_test(tc, test_sm_infinities);
    tcase_add_test(tc, test_sm_layout);
    tcase_add_test(tc, test_sm_scalar_and_empty);
    tcase_add_test(tc, test_sm_logsumexp_dims);
    tcase_add_test(tc, test_sm_errors);
    tcase_add_test(tc, test_sm_backward_kernels);
    tcase_add_test(tc, test_sm_sums_in_lanes);
    tcase_add_test(tc, test_sm_long_row);
    tcase_add_test(tc, test_sm_backward_errors);
    tcase_add_test(tc, test_sm_nodes);
    tcase_add_test(tc, test_sm_gradients);
    tcase_add_test(tc, test_sm_gradient_infinities);
    tcase_add_test(tc, test_sm_saved_result);
    tcase_add_test(tc, test_sm_gradcheck);
    suite_add_tcase(s, tc);
}
