/* check_ch03.c: the Check suite of chapter 3 (broadcasting, type promotion,
   elementwise operations and their in-place forms, output layouts,
   reductions, matmul).

   Every expected dtype, size, stride, value and message below was obtained
   from PyTorch 1.13 (/usr/bin/python3 -c "import torch; ..."), not from
   this library; the comment above each check names the Python expression.
   Floating values are float32 or float64 values printed by .tolist(), so
   the literals are exact; they are compared exactly for +, -, * and / of
   small integers and within a relative tolerance (CH03_F32, CH03_F64) for
   the transcendental functions. The last test cases check hundreds of
   random broadcasting operations on strided operands against the same
   operations on contiguous copies and against a scalar model, and that
   every operation passes a NULL argument on. Where the library and
   PyTorch disagree, the test asserts PyTorch's behaviour. */
#include <check.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tc.h"
#include "testing.h"

/* ------------------------------------------------------------------ helpers */

#define S(...) TC_SHAPE(__VA_ARGS__)    /* sizes, strides or dims */
#define S0 TC_SCALAR_SHAPE               /* () */

/* Relative tolerances: exact, float32 and float64 transcendental results. */
#define CH03_EXACT 0.0
#define CH03_F32 1e-6
#define CH03_F64 1e-14

/* Tensors from literals, in row-major order. */
#define F32(shape, ...) tc_from_data(shape, TC_FLOAT32, (const float[]){ __VA_ARGS__ })
#define F64(shape, ...) tc_from_data(shape, TC_FLOAT64, (const double[]){ __VA_ARGS__ })
#define I64(shape, ...) tc_from_data(shape, TC_INT64, (const int64_t[]){ __VA_ARGS__ })
#define B8(shape, ...) tc_from_data(shape, TC_BOOL, (const bool[]){ __VA_ARGS__ })

/* torch.arange(n.).view(shape) (float32), kept. */
static tc_tensor *ch03_grid(tc_shape shape) { return K(testing_grid(shape)); }

/* torch.arange(n).view(shape) (int64), kept. */
static tc_tensor *ch03_igrid(tc_shape shape)
{
    int64_t n = 1;
    tc_tensor *flat, *t;

    for (int64_t d = 0; d < shape.dim; d++)
        n *= shape.sizes[d];
    flat = tc_arange((int64_t)0, n, (int64_t)1);
    ck_assert_ptr_nonnull(flat);
    t = tc_view(flat, shape);
    tc_release(flat);
    ck_assert_ptr_nonnull(t);
    return K(t);
}

static const char *ch03_dtype(tc_dtype d)
{
    return tc_dtype_name(d);
}

/* Expected values, as doubles or as int64s. */
typedef struct {
    int64_t n;
    const double *f;
    const int64_t *i;
} ch03_values;

#define CH03_COUNT(T, ...) ((int64_t)(sizeof((T[]){ __VA_ARGS__ }) / sizeof(T)))
#define VF(...)                                                               \
    ((ch03_values){ CH03_COUNT(double, __VA_ARGS__), (const double[]){ __VA_ARGS__ }, NULL })
#define VI(...)                                                               \
    ((ch03_values){ CH03_COUNT(int64_t, __VA_ARGS__), NULL,                   \
                    (const int64_t[]){ __VA_ARGS__ } })
#define VNONE ((ch03_values){ 0, NULL, NULL })

static bool ch03_close(double got, double want, double tol)
{
    if (isnan(want))
        return isnan(got);
    if (got == want)
        return true;
    if (isinf(want) || isinf(got) || isnan(got))
        return false;
    return fabs(got - want) <= tol * fabs(want);
}

/* t (an owned reference, kept; or NULL) succeeded without a message and
   has this dtype, these sizes, these strides (unless NULL) and values. */
static void ch03_check(int line, const char *what, tc_tensor *t, tc_dtype dtype,
                       tc_shape sizes, const tc_shape *strides, double tol, ch03_values want)
{
    int64_t index[TC_MAX_DIMS] = { 0 }, k = 0;

    ck_assert_msg(t != NULL, "line %d: %s failed: %s", line, what,
                  tc_error() != NULL ? tc_error() : "(no message)");
    K(t);
    ck_assert_msg(tc_error() == NULL, "line %d: %s succeeded but left the message \"%s\"",
                  line, what, tc_error());
    ck_assert_msg(t->dtype == dtype, "line %d: %s has dtype %s, expected %s", line, what,
                  ch03_dtype(t->dtype), ch03_dtype(dtype));
    ck_assert_msg(t->dim == sizes.dim, "line %d: %s has %lld dimensions, expected %lld", line,
                  what, (long long)t->dim, (long long)sizes.dim);
    for (int64_t d = 0; d < t->dim; d++)
        ck_assert_msg(t->sizes[d] == sizes.sizes[d],
                      "line %d: %s: size %lld is %lld, expected %lld", line, what,
                      (long long)d, (long long)t->sizes[d], (long long)sizes.sizes[d]);
    if (strides != NULL) {
        ck_assert_int_eq(strides->dim, sizes.dim);
        for (int64_t d = 0; d < t->dim; d++)
            ck_assert_msg(t->strides[d] == strides->sizes[d],
                          "line %d: %s: stride %lld is %lld, expected %lld", line, what,
                          (long long)d, (long long)t->strides[d], (long long)strides->sizes[d]);
    }
    ck_assert_msg(tc_numel(t) == want.n, "line %d: %s has %lld elements, expected %lld", line,
                  what, (long long)tc_numel(t), (long long)want.n);
    if (want.n == 0)
        return;
    do {
        if (want.i != NULL) {
            int64_t got = -12345;
            ck_assert_msg(tc_get_int64(t, index, &got) == 0, "line %d: %s: tc_get_int64: %s",
                          line, what, tc_error());
            ck_assert_msg(got == want.i[k], "line %d: %s: element %lld is %lld, expected %lld",
                          line, what, (long long)k, (long long)got, (long long)want.i[k]);
        } else {
            double got = -12345.0;
            ck_assert_msg(tc_get(t, index, &got) == 0, "line %d: %s: tc_get: %s", line, what,
                          tc_error());
            ck_assert_msg(ch03_close(got, want.f[k], tol),
                          "line %d: %s: element %lld is %.17g, expected %.17g", line, what,
                          (long long)k, got, want.f[k]);
        }
        k++;
    } while (tc_next_index(t->dim, t->sizes, index));
}

/* EXPECT(call, dtype, sizes, tolerance, values): values from VF or VI.
   EXPECT_STRIDED also checks the strides. */
#define EXPECT(call, dtype, sizes, tol, want)                                 \
    ch03_check(__LINE__, #call, (call), (dtype), (sizes), NULL, (tol), want)
#define EXPECT_STRIDED(call, dtype, sizes, strides, tol, want)                \
    do {                                                                      \
        tc_shape st_ = strides;                                               \
        ch03_check(__LINE__, #call, (call), (dtype), (sizes), &st_, (tol), want); \
    } while (0)

#define FAILS(call, expected) EXPECT_FAILS(call, expected)

typedef bool ch03_broadcast_fn(tc_shape a, tc_shape b, tc_shape *out);

/* tc_infer_broadcast_shape(a, b) and tc_broadcast_shapes(a, b) both give want. */
static void ch03_broadcasts(int line, tc_shape a, tc_shape b, tc_shape want)
{
    ch03_broadcast_fn *both[2] = { tc_infer_broadcast_shape, tc_broadcast_shapes };

    for (int f = 0; f < 2; f++) {
        tc_shape out = { .dim = -1 };
        tc_clear_error();
        ck_assert_msg(both[f](a, b, &out), "line %d: refused: %s", line,
                      tc_error() != NULL ? tc_error() : "(no message)");
        ck_assert_msg(out.dim == want.dim, "line %d: %lld dimensions, expected %lld", line,
                      (long long)out.dim, (long long)want.dim);
        for (int64_t d = 0; d < want.dim; d++)
            ck_assert_msg(out.sizes[d] == want.sizes[d],
                          "line %d: size %lld is %lld, expected %lld", line, (long long)d,
                          (long long)out.sizes[d], (long long)want.sizes[d]);
    }
}

static void ch03_no_broadcast(int line, ch03_broadcast_fn *f, tc_shape a, tc_shape b,
                              const char *expected)
{
    tc_shape out;

    tc_clear_error();
    ck_assert_msg(!f(a, b, &out), "line %d: broadcast, expected \"%s\"", line, expected);
    ck_assert_msg(tc_error() != NULL && strcmp(tc_error(), expected) == 0,
                  "line %d: message \"%s\", expected \"%s\"", line,
                  tc_error() != NULL ? tc_error() : "(none)", expected);
    tc_clear_error();
}

#define BROADCASTS(a, b, want) ch03_broadcasts(__LINE__, a, b, want)
/* refused by the operators' rule / by torch.broadcast_shapes */
#define NO_BROADCAST(a, b, expected) \
    ch03_no_broadcast(__LINE__, tc_infer_broadcast_shape, a, b, expected)
#define NO_BROADCAST_SHAPES(a, b, expected) \
    ch03_no_broadcast(__LINE__, tc_broadcast_shapes, a, b, expected)

/* tc_result_type of the listed operands. */
#define RESULT_TYPE(...)                                                      \
    tc_result_type(CH03_COUNT(const tc_tensor *, __VA_ARGS__),                \
                   (const tc_tensor *const[]){ __VA_ARGS__ })

#define ASSERT_DTYPE(got, want)                                               \
    do {                                                                      \
        tc_dtype g_ = (got), w_ = (want);                                     \
        ck_assert_msg(g_ == w_, "%s is %s, expected %s", #got, ch03_dtype(g_), \
                      ch03_dtype(w_));                                        \
    } while (0)

/* ------------------------------------------------------- 1. broadcasting */

START_TEST(test_broadcast_shapes)
{
    /* torch.broadcast_shapes((3,1),(1,4)) == (3, 4) */
    BROADCASTS(S(3, 1), S(1, 4), S(3, 4));
    /* torch.broadcast_shapes((5,1,4),(3,1)) == (5, 3, 4) */
    BROADCASTS(S(5, 1, 4), S(3, 1), S(5, 3, 4));
    BROADCASTS(S(3, 1), S(5, 1, 4), S(5, 3, 4));
    /* torch.broadcast_shapes((),(2,3)) == (2, 3) */
    BROADCASTS(S0, S(2, 3), S(2, 3));
    BROADCASTS(S(2, 3), S0, S(2, 3));
    BROADCASTS(S0, S0, S0);
    /* torch.broadcast_shapes((0,),(1,)) == (0,) */
    BROADCASTS(S(0), S(1), S(0));
    /* torch.broadcast_shapes((2,0,1),(1,5)) == (2, 0, 5) */
    BROADCASTS(S(2, 0, 1), S(1, 5), S(2, 0, 5));
    /* torch.broadcast_shapes((4,1,3),(2,1)) == (4, 2, 3) */
    BROADCASTS(S(4, 1, 3), S(2, 1), S(4, 2, 3));
    /* (torch.zeros(1,0)+torch.zeros(2,1)).shape == (2, 0) */
    BROADCASTS(S(1, 0), S(2, 1), S(2, 0));
    /* (torch.zeros(3)+torch.zeros(2,3)).shape == (2, 3) */
    BROADCASTS(S(3), S(2, 3), S(2, 3));
}
END_TEST

/* The operators' messages (at::infer_size, tc_infer_broadcast_shape):
   torch.zeros(a) + torch.zeros(b). torch.broadcast_shapes's are below. */
START_TEST(test_broadcast_errors)
{
    /* torch.zeros(2,3)+torch.zeros(3,2) */
    NO_BROADCAST(S(2, 3), S(3, 2), "The size of tensor a (3) must match the size of tensor b "
                                   "(2) at non-singleton dimension 1");
    /* torch.zeros(5,2,3)+torch.zeros(4,1,3) */
    NO_BROADCAST(S(5, 2, 3), S(4, 1, 3), "The size of tensor a (5) must match the size of "
                                         "tensor b (4) at non-singleton dimension 0");
    /* torch.zeros(3)+torch.zeros(4) */
    NO_BROADCAST(S(3), S(4), "The size of tensor a (3) must match the size of tensor b (4) "
                             "at non-singleton dimension 0");
    /* torch.zeros(2,3,4)+torch.zeros(5,4) */
    NO_BROADCAST(S(2, 3, 4), S(5, 4), "The size of tensor a (3) must match the size of "
                                      "tensor b (5) at non-singleton dimension 1");
    /* torch.zeros(2,3,4)+torch.zeros(3,5) */
    NO_BROADCAST(S(2, 3, 4), S(3, 5), "The size of tensor a (4) must match the size of "
                                      "tensor b (5) at non-singleton dimension 2");
    /* torch.zeros(0)+torch.zeros(2) and torch.zeros(2)+torch.zeros(0) */
    NO_BROADCAST(S(0), S(2), "The size of tensor a (0) must match the size of tensor b (2) "
                             "at non-singleton dimension 0");
    NO_BROADCAST(S(2), S(0), "The size of tensor a (2) must match the size of tensor b (0) "
                             "at non-singleton dimension 0");
    /* torch.zeros(2,1)+torch.zeros(8,4,3) */
    NO_BROADCAST(S(2, 1), S(8, 4, 3), "The size of tensor a (2) must match the size of "
                                      "tensor b (4) at non-singleton dimension 1");
}
END_TEST

#define CH03_MISMATCH "Shape mismatch: objects cannot be broadcast to a single shape"
#define CH03_NEGATIVE(n) "Trying to create tensor with negative dimension (" n "): (" n ")"

START_TEST(test_broadcast_shapes_errors)
{
    /* torch.broadcast_shapes((3,),(4,)) and ((2,3),(3,2)) */
    NO_BROADCAST_SHAPES(S(3), S(4), CH03_MISMATCH);
    NO_BROADCAST_SHAPES(S(2, 3), S(3, 2), CH03_MISMATCH);
    /* torch.broadcast_shapes((5,),(1,0)) */
    NO_BROADCAST_SHAPES(S(5), S(1, 0), CH03_MISMATCH);
    /* torch.broadcast_shapes((-1,),(3,)) and ((1,),(-1,)) */
    NO_BROADCAST_SHAPES(S(-1), S(3), CH03_NEGATIVE("-1"));
    NO_BROADCAST_SHAPES(S(1), S(-1), CH03_NEGATIVE("-1"));
    /* torch.broadcast_shapes((3,),(-2,)) */
    NO_BROADCAST_SHAPES(S(3), S(-2), CH03_NEGATIVE("-2"));
    /* torch.broadcast_shapes((3,),(-1,4)): the mismatch on the right comes first */
    NO_BROADCAST_SHAPES(S(3), S(-1, 4), CH03_MISMATCH);
    /* torch.broadcast_shapes((2,-1),(3,)) and ((-1,2),(3,)): the first shape first */
    NO_BROADCAST_SHAPES(S(2, -1), S(3), CH03_NEGATIVE("-1"));
    NO_BROADCAST_SHAPES(S(-1, 2), S(3), CH03_NEGATIVE("-1"));
}
END_TEST

START_TEST(test_broadcast_through_ops)
{
    tc_tensor *col = K(F32(S(3, 1), 0, 1, 2)), *row = K(F32(S(1, 4), 0, 10, 20, 30));

    /* (torch.arange(3.).view(3,1) + torch.arange(0.,40.,10.).view(1,4)).tolist() */
    EXPECT(tc_add(col, row), TC_FLOAT32, S(3, 4), CH03_EXACT,
           VF(0, 10, 20, 30, 1, 11, 21, 31, 2, 12, 22, 32));
    /* (torch.zeros(2,0,1) + torch.zeros(1,5)).shape == (2, 0, 5) */
    EXPECT(tc_add(K(tc_zeros(S(2, 0, 1), TC_FLOAT32)), K(tc_zeros(S(1, 5), TC_FLOAT32))),
           TC_FLOAT32, S(2, 0, 5), CH03_EXACT, VNONE);
    /* (torch.ones(5,1,4) * torch.ones(3,1)).shape == (5, 3, 4) */
    EXPECT(tc_mul(K(tc_ones(S(5, 1, 4), TC_FLOAT32)), K(tc_ones(S(3, 1), TC_FLOAT32))),
           TC_FLOAT32, S(5, 3, 4), CH03_EXACT,
           VF(1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
              1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
              1, 1, 1, 1, 1, 1));
    /* (torch.tensor(1.) + torch.tensor(2.)) is 0-D: tensor(3.) */
    EXPECT(tc_add(K(F32(S0, 1)), K(F32(S0, 2))), TC_FLOAT32, S0, CH03_EXACT, VF(3));
    /* torch.zeros(2,3)+torch.zeros(3,2) */
    FAILS(tc_add(K(tc_zeros(S(2, 3), TC_FLOAT32)), K(tc_zeros(S(3, 2), TC_FLOAT32))),
          "The size of tensor a (3) must match the size of tensor b (2) at non-singleton "
          "dimension 1");
    /* torch.zeros(5,2,3)*torch.zeros(4,1,3) */
    FAILS(tc_mul(K(tc_zeros(S(5, 2, 3), TC_FLOAT32)), K(tc_zeros(S(4, 1, 3), TC_FLOAT32))),
          "The size of tensor a (5) must match the size of tensor b (4) at non-singleton "
          "dimension 0");
    /* torch.zeros(3) < torch.zeros(4) */
    FAILS(tc_lt(K(tc_zeros(S(3), TC_FLOAT32)), K(tc_zeros(S(4), TC_FLOAT32))),
          "The size of tensor a (3) must match the size of tensor b (4) at non-singleton "
          "dimension 0");
}
END_TEST

/* ---------------------------------------------------- 1. type promotion */

START_TEST(test_result_type)
{
    tc_tensor *i = K(I64(S(2), 1, 2)), *f = K(F32(S(2), 0.5, 0.25));
    tc_tensor *d = K(F64(S(2), 0.5, 0.25)), *b = K(B8(S(2), true, false));
    tc_tensor *f0 = K(F32(S0, 2.5)), *d0 = K(F64(S0, 2.5)), *i0 = K(I64(S0, 3));
    tc_tensor *n_int = K(tc_number(2)), *n_dbl = K(tc_number(2.5));
    tc_tensor *n_bool = K(tc_number_bool(true));

    ck_assert(n_int->wrapped_number && n_dbl->wrapped_number && n_bool->wrapped_number);
    ASSERT_DTYPE(n_int->dtype, TC_INT64);
    ASSERT_DTYPE(n_dbl->dtype, TC_FLOAT64);
    ASSERT_DTYPE(n_bool->dtype, TC_BOOL);
    ck_assert_int_eq(n_int->dim, 0);
    ck_assert(!i0->wrapped_number);

    /* torch.result_type(torch.tensor([1,2]), torch.tensor([0.5,0.25])) == torch.float32 */
    ASSERT_DTYPE(RESULT_TYPE(i, f), TC_FLOAT32);
    ASSERT_DTYPE(RESULT_TYPE(f, i), TC_FLOAT32);
    /* torch.result_type(torch.tensor([1,2]), torch.tensor([1,2])) == torch.int64 */
    ASSERT_DTYPE(RESULT_TYPE(i, i), TC_INT64);
    /* torch.result_type(torch.tensor([True,False]), torch.tensor([True,False])) == torch.bool */
    ASSERT_DTYPE(RESULT_TYPE(b, b), TC_BOOL);
    /* torch.result_type(torch.tensor([True,False]), 2) == torch.int64 */
    ASSERT_DTYPE(RESULT_TYPE(b, n_int), TC_INT64);
    /* torch.result_type(torch.tensor([1,2]), 2.5) == torch.float32 */
    ASSERT_DTYPE(RESULT_TYPE(i, n_dbl), TC_FLOAT32);
    /* torch.result_type(torch.tensor([True]), 2.5) == torch.float32 */
    ASSERT_DTYPE(RESULT_TYPE(b, n_dbl), TC_FLOAT32);
    /* torch.result_type(torch.tensor([True]), True) == torch.bool */
    ASSERT_DTYPE(RESULT_TYPE(b, n_bool), TC_BOOL);
    /* torch.result_type(torch.tensor([1]), True) == torch.int64 */
    ASSERT_DTYPE(RESULT_TYPE(i, n_bool), TC_INT64);
    /* torch.result_type(torch.tensor([0.5]), torch.tensor(2.5, dtype=torch.float64))
       == torch.float32 */
    ASSERT_DTYPE(RESULT_TYPE(f, d0), TC_FLOAT32);
    /* torch.result_type(torch.tensor([1,2]), torch.tensor(2.5, dtype=torch.float64))
       == torch.float64 */
    ASSERT_DTYPE(RESULT_TYPE(i, d0), TC_FLOAT64);
    /* torch.result_type(torch.tensor([True]), torch.tensor(2.5, dtype=torch.float64))
       == torch.float64 */
    ASSERT_DTYPE(RESULT_TYPE(b, d0), TC_FLOAT64);
    /* torch.result_type(torch.tensor([True]), torch.tensor(3)) == torch.int64 */
    ASSERT_DTYPE(RESULT_TYPE(b, i0), TC_INT64);
    /* torch.result_type(torch.tensor([1,2]), torch.tensor(3)) == torch.int64 */
    ASSERT_DTYPE(RESULT_TYPE(i, i0), TC_INT64);
    /* torch.result_type(torch.tensor([1.],dtype=torch.float64), torch.tensor([1.]))
       == torch.float64 */
    ASSERT_DTYPE(RESULT_TYPE(d, f), TC_FLOAT64);
    /* torch.result_type(torch.tensor([1]), torch.tensor(1.)) == torch.float32 */
    ASSERT_DTYPE(RESULT_TYPE(i, f0), TC_FLOAT32);
    /* torch.result_type(torch.tensor(2.5), torch.tensor(1., dtype=torch.float64))
       == torch.float64 */
    ASSERT_DTYPE(RESULT_TYPE(f0, d0), TC_FLOAT64);
    /* torch.result_type(torch.tensor(2), 2.5) == torch.float32 */
    ASSERT_DTYPE(RESULT_TYPE(i0, n_dbl), TC_FLOAT32);
    /* torch.result_type(torch.tensor(2.5, dtype=torch.float64), 1) == torch.float64 */
    ASSERT_DTYPE(RESULT_TYPE(d0, n_int), TC_FLOAT64);
    /* torch.result_type(2, 2.5) == torch.float32 */
    ASSERT_DTYPE(RESULT_TYPE(n_int, n_dbl), TC_FLOAT32);
    /* one operand: its own dtype (a float number counts as the default float32) */
    ASSERT_DTYPE(RESULT_TYPE(d), TC_FLOAT64);
    ASSERT_DTYPE(RESULT_TYPE(n_dbl), TC_FLOAT32);
}
END_TEST

START_TEST(test_promotion_through_ops)
{
    tc_tensor *i = K(I64(S(2), 1, 2)), *f = K(F32(S(2), 0.5, 0.25));
    tc_tensor *b = K(B8(S(2), true, false)), *bb = K(B8(S(2), true, true));

    /* (torch.tensor([1,2])+torch.tensor([0.5,0.25])).tolist() == [1.5, 2.25], float32 */
    EXPECT(tc_add(i, f), TC_FLOAT32, S(2), CH03_EXACT, VF(1.5, 2.25));
    /* (torch.tensor([1,2,3])/torch.tensor([2,2,2])).tolist() == [0.5, 1.0, 1.5], float32 */
    EXPECT(tc_div(K(I64(S(3), 1, 2, 3)), K(I64(S(3), 2, 2, 2))), TC_FLOAT32, S(3), CH03_EXACT,
           VF(0.5, 1, 1.5));
    /* (torch.tensor([True,False])+torch.tensor([True,True])).tolist() == [True, True], bool */
    EXPECT(tc_add(b, bb), TC_BOOL, S(2), CH03_EXACT, VI(1, 1));
    /* (torch.tensor([True,False])*2).tolist() == [2, 0], int64 */
    EXPECT(tc_mul_scalar(b, 2), TC_INT64, S(2), CH03_EXACT, VI(2, 0));
    /* (torch.tensor([1,2])+2.5).tolist() == [3.5, 4.5], float32 */
    EXPECT(tc_add(i, K(tc_number(2.5))), TC_FLOAT32, S(2), CH03_EXACT, VF(3.5, 4.5));
    /* (torch.tensor([1.,2.])+torch.tensor(2.5,dtype=torch.float64)).tolist()
       == [3.5, 4.5], float32 */
    EXPECT(tc_add(K(F32(S(2), 1, 2)), K(F64(S0, 2.5))), TC_FLOAT32, S(2), CH03_EXACT,
           VF(3.5, 4.5));
    /* (torch.tensor([1,2])+torch.tensor(2.5,dtype=torch.float64)).tolist()
       == [3.5, 4.5], float64 */
    EXPECT(tc_add(i, K(F64(S0, 2.5))), TC_FLOAT64, S(2), CH03_EXACT, VF(3.5, 4.5));
    /* (torch.tensor([1,2]) + torch.tensor(3)).tolist() == [4, 5], int64 */
    EXPECT(tc_add(i, K(I64(S0, 3))), TC_INT64, S(2), CH03_EXACT, VI(4, 5));
    /* (torch.tensor([True]) + torch.tensor(3)).tolist() == [4], int64 */
    EXPECT(tc_add(K(B8(S(1), true)), K(I64(S0, 3))), TC_INT64, S(1), CH03_EXACT, VI(4));
    /* (torch.tensor([True]) + 2.5).tolist() == [3.5], float32 */
    EXPECT(tc_add(K(B8(S(1), true)), K(tc_number(2.5))), TC_FLOAT32, S(1), CH03_EXACT,
           VF(3.5));
    /* (torch.tensor([True]) + True).tolist() == [True], bool */
    EXPECT(tc_add(K(B8(S(1), true)), K(tc_number_bool(true))), TC_BOOL, S(1), CH03_EXACT,
           VI(1));
    /* (torch.tensor([1]) + True).tolist() == [2], int64 */
    EXPECT(tc_add(K(I64(S(1), 1)), K(tc_number_bool(true))), TC_INT64, S(1), CH03_EXACT,
           VI(2));
    /* torch.tensor(2) + 2.5 == tensor(4.5000), float32, 0-D */
    EXPECT(tc_add(K(I64(S0, 2)), K(tc_number(2.5))), TC_FLOAT32, S0, CH03_EXACT, VF(4.5));
    /* torch.tensor(2.5, dtype=torch.float64) + 1 == tensor(3.5, dtype=torch.float64) */
    EXPECT(tc_add(K(F64(S0, 2.5)), K(tc_number(1))), TC_FLOAT64, S0, CH03_EXACT, VF(3.5));
    /* torch.tensor(2.5) + torch.tensor(1, dtype=torch.float64) -> float64 3.5 */
    EXPECT(tc_add(K(F32(S0, 2.5)), K(F64(S0, 1))), TC_FLOAT64, S0, CH03_EXACT, VF(3.5));
    /* (torch.tensor([0.1],dtype=torch.float64)+torch.tensor([0.2])).tolist()
       == [0.3000000029802322], float64 (0.2 rounded to float32 first) */
    EXPECT(tc_add(K(F64(S(1), 0.1)), K(F32(S(1), 0.2f))), TC_FLOAT64, S(1), CH03_EXACT,
           VF(0.3000000029802322));
    /* torch.tensor([2**24+1]) + 0.0 -> float32 [16777216.0] */
    EXPECT(tc_add(K(I64(S(1), 16777217)), K(tc_number(0.0))), TC_FLOAT32, S(1), CH03_EXACT,
           VF(16777216.0));
    /* torch.tensor([2**53+1]) + torch.tensor([0.], dtype=torch.float64) -> [9007199254740992.0] */
    EXPECT(tc_add(K(I64(S(1), 9007199254740993LL)), K(F64(S(1), 0))), TC_FLOAT64, S(1),
           CH03_EXACT, VF(9007199254740992.0));
}
END_TEST

/* ------------------------------------------- 2. elementwise arithmetic */

/* ------------------------------------------------ random cases against PyTorch */

/* tests/pytorch/binary_cases.py's table: 1,500 random binary operations on
   operands of random shapes, dtypes and layouts (or a Python number), with
   PyTorch's answer to each: the result's dtype, shape, strides and values,
   or the message. */
#include "check_ch03_binary_cases.h"

/* An operand from its text, "dtype kind base-sizes / extra" (see
   binary_cases.py's build): elements (i % 7) - 3, or i odd for bool. */
static tc_tensor *binary_case_operand(const char *text)
{
    static const char codes[] = "blfd";
    static const tc_dtype dtypes[] = { TC_BOOL, TC_INT64, TC_FLOAT32, TC_FLOAT64 };
    int64_t sizes[TC_MAX_DIMS], extra[TC_MAX_DIMS], numel = 1;
    const char *slash = strchr(text, '/');
    char code, kind;
    int dim, nextra;
    tc_tensor *base;

    ck_assert_int_eq(sscanf(text, " %c %c", &code, &kind), 2);
    ck_assert(slash != NULL && strchr(codes, code) != NULL);
    dim = testing_parse_ints(strchr(text, kind) + 1, sizes, TC_MAX_DIMS);
    nextra = testing_parse_ints(slash + 1, extra, TC_MAX_DIMS);
    for (int i = 0; i < dim; i++)
        numel *= sizes[i];
    base = K(tc_empty(testing_shape_of_sizes(sizes, dim), dtypes[strchr(codes, code) - codes]));
    for (int64_t i = 0; i < numel; i++) {
        if (code == 'l')
            tc_store_int64(base, i, i % 7 - 3);
        else
            tc_store(base, i, code == 'b' ? (double)(i % 2) : (double)(i % 7 - 3));
    }
    if (kind == 'p')
        return K(tc_permute(base, testing_shape_of_sizes(extra, nextra)));
    if (kind == 'e')
        return K(tc_expand(base, testing_shape_of_sizes(extra, nextra)));
    if (kind == 's')
        return K(tc_slice(base, dim - 1, 0, TC_END, 2));
    return base;
}

/* The second operand: an operand, or "num KIND VALUE", a wrapped number. */
static tc_tensor *binary_case_second(const char *text)
{
    char kind;
    double value;

    if (sscanf(text, " num %c %lf", &kind, &value) == 2)
        return K(kind == 'i' ? tc_number((int64_t)value)
                 : kind == 'f' ? tc_number(value) : tc_number((bool)(value != 0)));
    if (strstr(text, "num b True") != NULL)
        return K(tc_number((bool)true));
    return binary_case_operand(text);
}

static tc_tensor *binary_case_apply(const char *op, tc_tensor *x, const tc_tensor *y)
{
    static const struct {
        const char *name;
        tc_tensor *(*out_of_place)(const tc_tensor *, const tc_tensor *);
        tc_tensor *(*in_place)(tc_tensor *, const tc_tensor *);
    } ops[] = {
        { "add", tc_add, NULL }, { "sub", tc_sub, NULL }, { "mul", tc_mul, NULL },
        { "div", tc_div, NULL }, { "eq", tc_eq, NULL }, { "lt", tc_lt, NULL },
        { "add_", NULL, tc_add_ }, { "sub_", NULL, tc_sub_ }, { "mul_", NULL, tc_mul_ },
        { "div_", NULL, tc_div_ },
    };

    for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++)
        if (strcmp(op, ops[k].name) == 0)
            return ops[k].in_place != NULL ? ops[k].in_place(x, y)    /* a new reference */
                                           : ops[k].out_of_place(x, y);
    ck_abort_msg("unknown operation %s", op);
    return NULL;
}

/* v as Python's repr(float(v)) writes it: the fewest digits that read back
   as v, positional for exponents -4 to 15 (with ".0" if there is no
   fraction), scientific otherwise ("1e+16", "1.5e-05"). */
static int binary_case_repr(char *out, size_t size, double v)
{
    char text[40];
    int digits, exponent;

    if (isnan(v) || isinf(v))
        return snprintf(out, size, "%s", isnan(v) ? "nan" : v > 0 ? "inf" : "-inf");
    if (v == 0)
        return snprintf(out, size, "%s", signbit(v) ? "-0.0" : "0.0");
    for (digits = 1; digits < 17; digits++) {
        snprintf(text, sizeof text, "%.*e", digits - 1, v);
        if (strtod(text, NULL) == v)
            break;
    }
    snprintf(text, sizeof text, "%.*e", digits - 1, v);
    exponent = atoi(strchr(text, 'e') + 1);
    if (exponent < -4 || exponent >= 16)
        return snprintf(out, size, "%s", text);
    if (digits - 1 - exponent > 0)
        return snprintf(out, size, "%.*f", digits - 1 - exponent, v);
    return snprintf(out, size, "%.0f.0", v);
}

/* r as binary_cases.py's answer prints it, or "error: " and the first line. */
static void binary_case_answer(const tc_tensor *r, char *out, size_t size)
{
    size_t k = 0;

    if (r == NULL) {
        snprintf(out, size, "error: %.*s", (int)strcspn(tc_error(), "\n"), tc_error());
        return;
    }
    k += (size_t)snprintf(out, size, "%s [", tc_dtype_name(r->dtype) + strlen("torch."));
    for (int64_t i = 0; i < r->dim; i++)
        k += (size_t)snprintf(out + k, size - k, "%s%lld", i ? ", " : "", (long long)r->sizes[i]);
    k += (size_t)snprintf(out + k, size - k, "] [");
    for (int64_t i = 0; i < r->dim; i++)
        k += (size_t)snprintf(out + k, size - k, "%s%lld", i ? ", " : "", (long long)r->strides[i]);
    k += (size_t)snprintf(out + k, size - k, "] :");
    for (int64_t i = 0; i < tc_numel(r) && k < size; i++) {
        k += (size_t)snprintf(out + k, size - k, " ");
        k += (size_t)binary_case_repr(out + k, size - k, testing_element(r, i));
    }
}

START_TEST(test_binary_cases)
{
    for (size_t c = 0; c < sizeof binary_cases / sizeof binary_cases[0]; c++) {
        char text[256], answer[2048], op[16], *middle, *last;
        tc_tensor *x, *y, *r;

        snprintf(text, sizeof text, "%s", binary_cases[c][0]);
        ck_assert_msg(testing_case_parts(text, &middle, &last), "case %zu", c);
        ck_assert_int_eq(sscanf(middle, " %15s", op), 1);
        x = binary_case_operand(text);
        y = binary_case_second(last);
        r = binary_case_apply(op, x, y);
        binary_case_answer(r, answer, sizeof answer);
        tc_release(r);
        tc_clear_error();
        ck_assert_msg(strcmp(answer, binary_cases[c][1]) == 0, "%s\n  got      %s\n  PyTorch  %s",
                      binary_cases[c][0], answer, binary_cases[c][1]);
        testing_release_kept();
    }
}
END_TEST

/* tests/pytorch/reduction_cases.py's table: 1,500 random reductions of
   operands made as the binary cases make them, with PyTorch's answers. */
#include "check_ch03_reduction_cases.h"

/* The case's reduction of x; for max and min along a dim, the values then
   the indices, " | " between them. */
static void reduction_case_answer(const char *op, const tc_tensor *x, const char *args,
                                  char *answer, size_t size)
{
    int64_t dims[8] = { 0 };
    int keepdim = 0, ndims = 0;
    tc_tensor *r = NULL, *values = NULL, *indices = NULL;

    if (strchr(op, '_') != NULL) {
        ck_assert_int_eq(sscanf(args, " %d", &keepdim), 1);
        ndims = testing_parse_ints(args + strspn(args, " ") + 1, dims, 8);    /* after keepdim */
    }
    if (strcmp(op, "max_dim") == 0 || strcmp(op, "min_dim") == 0) {
        int rc = (op[1] == 'a' ? tc_max_dim : tc_min_dim)(x, dims[0], keepdim, &values, &indices);
        size_t k;

        binary_case_answer(rc == 0 ? values : NULL, answer, size);
        if (rc == 0) {
            k = strlen(answer);
            k += (size_t)snprintf(answer + k, size - k, " | ");
            binary_case_answer(indices, answer + k, size - k);
        }
        tc_release(values);
        tc_release(indices);
        return;
    }
    if (strcmp(op, "sum") == 0) r = tc_sum(x);
    else if (strcmp(op, "mean") == 0) r = tc_mean(x);
    else if (strcmp(op, "max") == 0) r = tc_max(x);
    else if (strcmp(op, "min") == 0) r = tc_min(x);
    else if (strcmp(op, "argmax") == 0) r = tc_argmax(x);
    else if (strcmp(op, "sum_dims") == 0) r = tc_sum_dims(x, testing_shape_of_sizes(dims, ndims), keepdim);
    else if (strcmp(op, "mean_dims") == 0) r = tc_mean_dims(x, testing_shape_of_sizes(dims, ndims), keepdim);
    else if (strcmp(op, "argmax_dim") == 0) r = tc_argmax_dim(x, dims[0], keepdim);
    else ck_abort_msg("unknown operation %s", op);
    binary_case_answer(r, answer, size);
    tc_release(r);
}

START_TEST(test_reduction_cases)
{
    for (size_t c = 0; c < sizeof reduction_cases / sizeof reduction_cases[0]; c++) {
        char text[256], answer[4096], op[16], *middle, *last;

        snprintf(text, sizeof text, "%s", reduction_cases[c][0]);
        ck_assert_msg(testing_case_parts(text, &middle, &last), "case %zu", c);
        ck_assert_int_eq(sscanf(middle, " %15s", op), 1);
        reduction_case_answer(op, binary_case_operand(text), last, answer, sizeof answer);
        tc_clear_error();
        ck_assert_msg(strcmp(answer, reduction_cases[c][1]) == 0, "%s\n  got      %s\n  PyTorch  %s",
                      reduction_cases[c][0], answer, reduction_cases[c][1]);
        testing_release_kept();
    }
}
END_TEST

/* tests/pytorch/matmul_cases.py's table: 1,000 random matrix products of
   operands made as the binary cases make them, with PyTorch's answers. */
#include "check_ch03_matmul_cases.h"

START_TEST(test_matmul_cases)
{
    for (size_t c = 0; c < sizeof matmul_cases / sizeof matmul_cases[0]; c++) {
        char text[256], answer[8192], *middle, *last;
        tc_tensor *r;

        snprintf(text, sizeof text, "%s", matmul_cases[c][0]);
        ck_assert_msg(testing_case_parts(text, &middle, &last), "case %zu", c);
        r = tc_matmul(binary_case_operand(text), binary_case_operand(last));
        binary_case_answer(r, answer, sizeof answer);
        tc_release(r);
        tc_clear_error();
        ck_assert_msg(strcmp(answer, matmul_cases[c][1]) == 0, "%s\n  got      %s\n  PyTorch  %s",
                      matmul_cases[c][0], answer, matmul_cases[c][1]);
        testing_release_kept();
    }
}
END_TEST

START_TEST(test_arith_tensors)
{
    tc_tensor *a = ch03_grid(S(2, 3)), *c = K(F32(S(2, 1), 1, 2));
    tc_tensor *ai = ch03_igrid(S(2, 3)), *ci = K(I64(S(2, 1), 1, -2));

    /* a = torch.arange(6.).view(2,3); c = torch.tensor([[1.],[2.]]) */
    /* (a + c).tolist() */
    EXPECT(tc_add(a, c), TC_FLOAT32, S(2, 3), CH03_EXACT, VF(1, 2, 3, 5, 6, 7));
    /* (a - c).tolist() */
    EXPECT(tc_sub(a, c), TC_FLOAT32, S(2, 3), CH03_EXACT, VF(-1, 0, 1, 1, 2, 3));
    /* (c - a).tolist(): the broadcast operand first */
    EXPECT(tc_sub(c, a), TC_FLOAT32, S(2, 3), CH03_EXACT, VF(1, 0, -1, -1, -2, -3));
    /* (a * c).tolist() */
    EXPECT(tc_mul(a, c), TC_FLOAT32, S(2, 3), CH03_EXACT, VF(0, 1, 2, 6, 8, 10));
    /* (a / c).tolist() */
    EXPECT(tc_div(a, c), TC_FLOAT32, S(2, 3), CH03_EXACT, VF(0, 1, 2, 1.5, 2, 2.5));
    /* ai = torch.arange(6).view(2,3); ci = torch.tensor([[1],[-2]]) */
    /* (ai + ci).tolist(), int64 */
    EXPECT(tc_add(ai, ci), TC_INT64, S(2, 3), CH03_EXACT, VI(1, 2, 3, 1, 2, 3));
    /* (ai - ci).tolist(), int64 */
    EXPECT(tc_sub(ai, ci), TC_INT64, S(2, 3), CH03_EXACT, VI(-1, 0, 1, 5, 6, 7));
    /* (ai * ci).tolist(), int64 */
    EXPECT(tc_mul(ai, ci), TC_INT64, S(2, 3), CH03_EXACT, VI(0, 1, 2, -6, -8, -10));
    /* (ai / ci).tolist(), float32 */
    EXPECT(tc_div(ai, ci), TC_FLOAT32, S(2, 3), CH03_EXACT, VF(0, 1, 2, -1.5, -2, -2.5));
    /* (torch.tensor([7, -7]) / torch.tensor([2, 2])).tolist() == [3.5, -3.5]: true division */
    EXPECT(tc_div(K(I64(S(2), 7, -7)), K(I64(S(2), 2, 2))), TC_FLOAT32, S(2), CH03_EXACT,
           VF(3.5, -3.5));
    /* (torch.tensor([True, False]) / torch.tensor([True, True])).tolist() == [1.0, 0.0] */
    EXPECT(tc_div(K(B8(S(2), true, false)), K(B8(S(2), true, true))), TC_FLOAT32, S(2),
           CH03_EXACT, VF(1, 0));
    /* (torch.tensor([True, False]) * torch.tensor([True, True])).tolist(), bool */
    EXPECT(tc_mul(K(B8(S(2), true, false)), K(B8(S(2), true, true))), TC_BOOL, S(2),
           CH03_EXACT, VI(1, 0));
    /* (torch.tensor(2.5) - torch.tensor([1, 2])).tolist() == [1.5, 0.5], float32 */
    EXPECT(tc_sub(K(F32(S0, 2.5)), K(I64(S(2), 1, 2))), TC_FLOAT32, S(2), CH03_EXACT,
           VF(1.5, 0.5));
    /* float64 operands: (torch.arange(6.,dtype=torch.float64).view(2,3) * 0.5).tolist() */
    EXPECT(tc_mul(K(F64(S(2, 3), 0, 1, 2, 3, 4, 5)), K(F64(S(1), 0.5))), TC_FLOAT64, S(2, 3),
           CH03_EXACT, VF(0, 0.5, 1, 1.5, 2, 2.5));
}
END_TEST

START_TEST(test_arith_numbers)
{
    tc_tensor *a = ch03_grid(S(2, 3)), *ai = ch03_igrid(S(2, 3));

    /* (a * 0.5).tolist(), float32 */
    EXPECT(tc_mul_scalar(a, 0.5), TC_FLOAT32, S(2, 3), CH03_EXACT, VF(0, 0.5, 1, 1.5, 2, 2.5));
    /* (ai * 3).tolist(), int64 */
    EXPECT(tc_mul_scalar(ai, 3), TC_INT64, S(2, 3), CH03_EXACT, VI(0, 3, 6, 9, 12, 15));
    /* (ai * 0.5).tolist(), float32 */
    EXPECT(tc_mul_scalar(ai, 0.5), TC_FLOAT32, S(2, 3), CH03_EXACT,
           VF(0, 0.5, 1, 1.5, 2, 2.5));
    /* (ai - 2).tolist(), int64 */
    EXPECT(tc_sub_scalar(ai, 2), TC_INT64, S(2, 3), CH03_EXACT, VI(-2, -1, 0, 1, 2, 3));
    /* (a - 0.25).tolist(), float32 */
    EXPECT(tc_sub_scalar(a, 0.25), TC_FLOAT32, S(2, 3), CH03_EXACT,
           VF(-0.25, 0.75, 1.75, 2.75, 3.75, 4.75));
    /* (ai / 4).tolist(), float32 */
    EXPECT(tc_div_scalar(ai, 4), TC_FLOAT32, S(2, 3), CH03_EXACT,
           VF(0, 0.25, 0.5, 0.75, 1, 1.25));
    /* (a / 3).tolist(), float32 */
    EXPECT(tc_div_scalar(a, 3), TC_FLOAT32, S(2, 3), CH03_EXACT,
           VF(0.0, 0.3333333432674408, 0.6666666865348816, 1.0, 1.3333333730697632,
              1.6666666269302368));
    /* (torch.tensor([True, False]) * 0.5).tolist() == [0.5, 0.0], float32 */
    EXPECT(tc_mul_scalar(K(B8(S(2), true, false)), 0.5), TC_FLOAT32, S(2), CH03_EXACT,
           VF(0.5, 0));
    /* (torch.tensor([1, 2, 3]) > 2.5).tolist() == [False, False, True] */
    EXPECT(tc_gt(K(I64(S(3), 1, 2, 3)), K(tc_number(2.5))), TC_BOOL, S(3), CH03_EXACT,
           VI(0, 0, 1));
    /* the number may come first: (2 - ai).tolist() == [2, 1, 0, -1, -2, -3] */
    EXPECT(tc_sub(K(tc_number(2)), ai), TC_INT64, S(2, 3), CH03_EXACT,
           VI(2, 1, 0, -1, -2, -3));
    /* two numbers: torch.result_type(2, 2.5) == torch.float32, and 2 + 2.5 == 4.5 */
    EXPECT(tc_add(K(tc_number(2)), K(tc_number(2.5))), TC_FLOAT32, S0, CH03_EXACT, VF(4.5));
}
END_TEST

START_TEST(test_alpha)
{
    tc_tensor *a = ch03_grid(S(2, 3)), *c = K(F32(S(2, 1), 1, 2));
    tc_tensor *ai = ch03_igrid(S(2, 3)), *ci = K(I64(S(2, 1), 1, -2));
    tc_tensor *p = K(B8(S(3), true, false, false)), *q = K(B8(S(3), false, true, false));

    /* torch.add(a, c, alpha=2.5).tolist() */
    EXPECT(tc_add_alpha(a, c, K(tc_number(2.5))), TC_FLOAT32, S(2, 3), CH03_EXACT,
           VF(2.5, 3.5, 4.5, 8, 9, 10));
    /* torch.add(ai, ci, alpha=3).tolist(), int64 */
    EXPECT(tc_add_alpha(ai, ci, K(tc_number(3))), TC_INT64, S(2, 3), CH03_EXACT,
           VI(3, 4, 5, -3, -2, -1));
    /* torch.sub(a, c, alpha=0.5).tolist() */
    EXPECT(tc_sub_alpha(a, c, K(tc_number(0.5))), TC_FLOAT32, S(2, 3), CH03_EXACT,
           VF(-0.5, 0.5, 1.5, 2, 3, 4));
    /* torch.sub(ai, ci, alpha=-2).tolist(), int64 */
    EXPECT(tc_sub_alpha(ai, ci, K(tc_number(-2))), TC_INT64, S(2, 3), CH03_EXACT,
           VI(2, 3, 4, -1, 0, 1));
    /* torch.add(ai, c, alpha=0.5).tolist(): a float input allows a float alpha */
    EXPECT(tc_add_alpha(ai, c, K(tc_number(0.5))), TC_FLOAT32, S(2, 3), CH03_EXACT,
           VF(0.5, 1.5, 2.5, 4, 5, 6));
    /* torch.add(p, q, alpha=True).tolist() == [True, True, False] */
    EXPECT(tc_add_alpha(p, q, K(tc_number_bool(true))), TC_BOOL, S(3), CH03_EXACT,
           VI(1, 1, 0));
    /* torch.add(p, q, alpha=False).tolist() == [True, False, False] */
    EXPECT(tc_add_alpha(p, q, K(tc_number_bool(false))), TC_BOOL, S(3), CH03_EXACT,
           VI(1, 0, 0));
    /* torch.add(torch.tensor([True]), torch.tensor([True]), alpha=2).tolist() == [True] */
    EXPECT(tc_add_alpha(K(B8(S(1), true)), K(B8(S(1), true)), K(tc_number(2))), TC_BOOL, S(1),
           CH03_EXACT, VI(1));
}
END_TEST

/* The unary operations on x = torch.tensor([-2.5, -1., 0., 0.5, 1., 3.])
   (float32 and float64) and xi = torch.tensor([-3, -1, 0, 1, 2, 5]);
   each row is getattr(torch, op)(x).tolist(). */
typedef tc_tensor *ch03_unary_fn(const tc_tensor *);
typedef tc_tensor *ch03_binary_fn(const tc_tensor *, const tc_tensor *);

static const struct {
    const char *name;
    ch03_unary_fn *op;
    double f32[6], f64[6];
    tc_dtype int_type;    /* dtype of op(xi) */
    double i64[6];
} ch03_unary_table[] = {
    { "neg", tc_neg,
      { 2.5, 1.0, -0.0, -0.5, -1.0, -3.0 },
      { 2.5, 1.0, -0.0, -0.5, -1.0, -3.0 },
      TC_INT64, { 3, 1, 0, -1, -2, -5 } },
    { "abs", tc_abs,
      { 2.5, 1.0, 0.0, 0.5, 1.0, 3.0 },
      { 2.5, 1.0, 0.0, 0.5, 1.0, 3.0 },
      TC_INT64, { 3, 1, 0, 1, 2, 5 } },
    { "exp", tc_exp,
      { 0.08208499848842621, 0.3678794503211975, 1.0, 1.6487212181091309,
        2.7182817459106445, 20.08553695678711 },
      { 0.0820849986238988, 0.36787944117144233, 1.0, 1.6487212707001282,
        2.718281828459045, 20.085536923187668 },
      TC_FLOAT32, { 0.049787066876888275, 0.3678794503211975, 1.0, 2.7182817459106445,
                    7.389056205749512, 148.4131622314453 } },
    { "log", tc_log,
      { NAN, NAN, -INFINITY, -0.6931471824645996, 0.0, 1.0986123085021973 },
      { NAN, NAN, -INFINITY, -0.6931471805599453, 0.0, 1.0986122886681098 },
      TC_FLOAT32, { NAN, NAN, -INFINITY, 0.0, 0.6931471824645996, 1.6094379425048828 } },
    { "sqrt", tc_sqrt,
      { NAN, NAN, 0.0, 0.7071067690849304, 1.0, 1.7320507764816284 },
      { NAN, NAN, 0.0, 0.7071067811865476, 1.0, 1.7320508075688772 },
      TC_FLOAT32, { NAN, NAN, 0.0, 1.0, 1.4142135381698608, 2.2360680103302 } },
    { "relu", tc_relu,
      { 0.0, 0.0, 0.0, 0.5, 1.0, 3.0 },
      { 0.0, 0.0, 0.0, 0.5, 1.0, 3.0 },
      TC_INT64, { 0, 0, 0, 1, 2, 5 } },
    { "sigmoid", tc_sigmoid,
      { 0.07585817575454712, 0.2689414322376251, 0.5, 0.622459352016449, 0.7310585975646973,
        0.9525741338729858 },
      { 0.07585818002124355, 0.2689414213699951, 0.5, 0.6224593312018546, 0.7310585786300049,
        0.9525741268224334 },
      TC_FLOAT32, { 0.04742587357759476, 0.2689414322376251, 0.5, 0.7310585975646973,
                    0.8807970285415649, 0.9933071732521057 } },
    { "tanh", tc_tanh,
      { -0.9866142868995667, -0.7615941762924194, 0.0, 0.46211716532707214,
        0.7615941762924194, 0.9950547814369202 },
      { -0.9866142981514303, -0.7615941559557649, 0.0, 0.46211715726000974,
        0.7615941559557649, 0.9950547536867305 },
      TC_FLOAT32, { -0.9950547814369202, -0.7615941762924194, 0.0, 0.7615941762924194,
                    0.9640275835990906, 0.9999092221260071 } },
};

static void ch03_expect_row(const char *name, const char *type, tc_tensor *t, tc_dtype dtype,
                            const double *want, double tol)
{
    ck_assert_msg(t != NULL, "%s(%s) failed: %s", name, type, tc_error());
    K(t);
    ck_assert_msg(t->dtype == dtype, "%s(%s) has dtype %s, expected %s", name, type,
                  ch03_dtype(t->dtype), ch03_dtype(dtype));
    ck_assert_int_eq(t->dim, 1);
    ck_assert_int_eq(t->sizes[0], 6);
    for (int64_t k = 0; k < 6; k++) {
        double got;
        ck_assert_int_eq(tc_get(t, &k, &got), 0);
        ck_assert_msg(ch03_close(got, want[k], tol), "%s(%s)[%lld] is %.17g, expected %.17g",
                      name, type, (long long)k, got, want[k]);
    }
}

START_TEST(test_unary_ops)
{
    tc_tensor *x32 = K(F32(S(6), -2.5, -1., 0., 0.5, 1., 3.));
    tc_tensor *x64 = K(F64(S(6), -2.5, -1., 0., 0.5, 1., 3.));
    tc_tensor *xi = K(I64(S(6), -3, -1, 0, 1, 2, 5));

    for (size_t k = 0; k < sizeof ch03_unary_table / sizeof ch03_unary_table[0]; k++) {
        const char *name = ch03_unary_table[k].name;
        ch03_unary_fn *op = ch03_unary_table[k].op;
        ch03_expect_row(name, "float32", op(x32), TC_FLOAT32, ch03_unary_table[k].f32, CH03_F32);
        ch03_expect_row(name, "float64", op(x64), TC_FLOAT64, ch03_unary_table[k].f64, CH03_F64);
        ch03_expect_row(name, "int64", op(xi), ch03_unary_table[k].int_type,
                        ch03_unary_table[k].i64,
                        ch03_unary_table[k].int_type == TC_INT64 ? CH03_EXACT : CH03_F32);
    }
    /* -0.0: torch.neg(torch.tensor([0.])).tolist() == [-0.0] */
    {
        tc_tensor *z = K(tc_neg(K(F32(S(1), 0))));
        double got = 1;
        int64_t i0 = 0;
        ck_assert_int_eq(tc_get(z, &i0, &got), 0);
        ck_assert(got == 0 && signbit(got));
    }
}
END_TEST

START_TEST(test_unary_bool)
{
    tc_tensor *b = K(B8(S(2), true, false));

    /* torch.exp(torch.tensor([True, False])).tolist(), float32 */
    EXPECT(tc_exp(b), TC_FLOAT32, S(2), CH03_F32, VF(2.7182817459106445, 1.0));
    /* torch.log(torch.tensor([True, False])).tolist() */
    EXPECT(tc_log(b), TC_FLOAT32, S(2), CH03_F32, VF(0.0, -INFINITY));
    /* torch.sqrt(torch.tensor([True, False])).tolist() */
    EXPECT(tc_sqrt(b), TC_FLOAT32, S(2), CH03_F32, VF(1.0, 0.0));
    /* torch.sigmoid(torch.tensor([True, False])).tolist() */
    EXPECT(tc_sigmoid(b), TC_FLOAT32, S(2), CH03_F32, VF(0.7310585975646973, 0.5));
    /* torch.tanh(torch.tensor([True, False])).tolist() */
    EXPECT(tc_tanh(b), TC_FLOAT32, S(2), CH03_F32, VF(0.7615941762924194, 0.0));
    /* -torch.tensor([True, False]) */
    FAILS(tc_neg(b), "Negation, the `-` operator, on a bool tensor is not supported. If you "
                     "are trying to invert a mask, use the `~` or `logical_not()` operator "
                     "instead.");
    /* torch.abs(torch.tensor([True, False])) */
    FAILS(tc_abs(b), "\"abs_cpu\" not implemented for 'Bool'");
    /* torch.relu(torch.tensor([True, False])) */
    FAILS(tc_relu(b), "Boolean inputs not supported for relu");
}
END_TEST

START_TEST(test_unary_strided)
{
    /* torch.exp(torch.arange(4.).view(2,2).t()): shape (2, 2), stride (1, 2) */
    EXPECT_STRIDED(tc_exp(K(tc_t(ch03_grid(S(2, 2))))), TC_FLOAT32, S(2, 2), S(1, 2), CH03_F32,
                   VF(1.0, 7.389056205749512, 2.7182817459106445, 20.08553695678711));
    /* (-torch.arange(12.).view(3,4).t()): shape (4, 3), stride (1, 4) */
    EXPECT_STRIDED(tc_neg(K(tc_t(ch03_grid(S(3, 4))))), TC_FLOAT32, S(4, 3), S(1, 4),
                   CH03_EXACT, VF(-0.0, -4, -8, -1, -5, -9, -2, -6, -10, -3, -7, -11));
    /* torch.relu(torch.zeros(0, 3)).shape == (0, 3) */
    EXPECT(tc_relu(K(tc_zeros(S(0, 3), TC_FLOAT32))), TC_FLOAT32, S(0, 3), CH03_EXACT, VNONE);
    /* torch.tanh(torch.tensor(1.)) == tensor(0.7616), 0-D */
    EXPECT(tc_tanh(K(F32(S0, 1))), TC_FLOAT32, S0, CH03_F32, VF(0.7615941762924194));
}
END_TEST

START_TEST(test_pow)
{
    tc_tensor *xi = K(I64(S(4), -2, 0, 1, 3));

    /* (torch.tensor([-2, 0, 1, 3]) ** 2).tolist() == [4, 0, 1, 9], int64 */
    EXPECT(tc_pow_scalar(xi, 2), TC_INT64, S(4), CH03_EXACT, VI(4, 0, 1, 9));
    /* (torch.tensor([-2, 0, 1, 3]) ** 0).tolist() == [1, 1, 1, 1] */
    EXPECT(tc_pow_scalar(xi, 0), TC_INT64, S(4), CH03_EXACT, VI(1, 1, 1, 1));
    /* (torch.tensor([True, False]) ** 2).tolist() == [1, 0], int64 */
    EXPECT(tc_pow_scalar(K(B8(S(2), true, false)), 2), TC_INT64, S(2), CH03_EXACT, VI(1, 0));
    /* (torch.tensor([0, 1, 2, 4]) ** 2.5).tolist(), float32 */
    EXPECT(tc_pow_scalar(K(I64(S(4), 0, 1, 2, 4)), 2.5), TC_FLOAT32, S(4), CH03_F32,
           VF(0.0, 1.0, 5.656854152679443, 32.0));
    /* (torch.tensor([2, 4]) ** 2.0).tolist() == [4.0, 16.0], float32 */
    EXPECT(tc_pow_scalar(K(I64(S(2), 2, 4)), 2.0), TC_FLOAT32, S(2), CH03_EXACT, VF(4, 16));
    /* (torch.tensor([2, 4]) ** -0.5).tolist(), float32 */
    EXPECT(tc_pow_scalar(K(I64(S(2), 2, 4)), -0.5), TC_FLOAT32, S(2), CH03_F32,
           VF(0.7071067690849304, 0.5));
    /* (torch.tensor([-2., 0.5, 4., 0.]) ** -1).tolist() == [-0.5, 2.0, 0.25, inf] */
    EXPECT(tc_pow_scalar(K(F32(S(4), -2, 0.5, 4, 0)), -1), TC_FLOAT32, S(4), CH03_EXACT,
           VF(-0.5, 2.0, 0.25, INFINITY));
    /* (torch.tensor([2., -4.]) ** -2).tolist() == [0.25, 0.0625] */
    EXPECT(tc_pow_scalar(K(F32(S(2), 2, -4)), -2), TC_FLOAT32, S(2), CH03_EXACT,
           VF(0.25, 0.0625));
    /* (torch.tensor([4., 2., 0., -1.]) ** 0.5).tolist() */
    EXPECT(tc_pow_scalar(K(F32(S(4), 4, 2, 0, -1)), 0.5), TC_FLOAT32, S(4), CH03_F32,
           VF(2.0, 1.4142135381698608, 0.0, NAN));
    /* (torch.tensor([1.5, -2.]) ** 3).tolist() == [3.375, -8.0] */
    EXPECT(tc_pow_scalar(K(F32(S(2), 1.5, -2)), 3), TC_FLOAT32, S(2), CH03_EXACT,
           VF(3.375, -8.0));
    /* (torch.tensor([1.5,-2.],dtype=torch.float64)**2).tolist() == [2.25, 4.0] */
    EXPECT(tc_pow_scalar(K(F64(S(2), 1.5, -2)), 2), TC_FLOAT64, S(2), CH03_EXACT,
           VF(2.25, 4.0));
    /* PyTorch computes x**3 as x*x*x and x**-0.5 as 1/sqrt(x), to the last bit:
       [float.hex(v) for v in (torch.tensor([2.9]) ** 3).tolist()] == ['0x1.86395cp+4'],
       (torch.tensor([1.3]) ** -0.5) gives '0x1.c10dbep-1'; powf would differ in the last bit */
    EXPECT(tc_pow_scalar(K(F32(S(1), 2.9f)), 3), TC_FLOAT32, S(1), CH03_EXACT,
           VF(0x1.86395cp+4));
    EXPECT(tc_pow_scalar(K(F32(S(1), 1.3f)), -0.5), TC_FLOAT32, S(1), CH03_EXACT,
           VF(0x1.c10dbep-1));
    /* (torch.tensor([3]) ** 41).tolist() == [-420491770248316829]: wraps */
    EXPECT(tc_pow_scalar(K(I64(S(1), 3)), 41), TC_INT64, S(1), CH03_EXACT,
           VI(-420491770248316829LL));
    /* 0-D tensor exponents take part in promotion as tensors:
       (torch.tensor([-2, 0, 1, 3]) ** torch.tensor(2)).tolist() == [4, 0, 1, 9], int64 */
    EXPECT(tc_pow(xi, K(I64(S0, 2))), TC_INT64, S(4), CH03_EXACT, VI(4, 0, 1, 9));
    /* (torch.tensor([-2, 0, 1, 3]) ** torch.tensor(2., dtype=torch.float64)).tolist(), float64 */
    EXPECT(tc_pow(xi, K(F64(S0, 2))), TC_FLOAT64, S(4), CH03_EXACT, VF(4, 0, 1, 9));
    /* (torch.tensor([1.5]) ** torch.tensor(2., dtype=torch.float64)).tolist() == [2.25], float32 */
    EXPECT(tc_pow(K(F32(S(1), 1.5)), K(F64(S0, 2))), TC_FLOAT32, S(1), CH03_EXACT, VF(2.25));
    /* torch.tensor([2]) ** -1 */
    FAILS(tc_pow_scalar(xi, -1), "Integers to negative integer powers are not allowed.");
    /* torch.tensor([True]) ** -1 */
    FAILS(tc_pow_scalar(K(B8(S(1), true)), -1),
          "Integers to negative integer powers are not allowed.");
}
END_TEST

/* PyTorch refuses negative integer powers for a Scalar exponent only; a
   0-D tensor exponent goes through the tensor-tensor kernel. */
START_TEST(test_pow_tensor_negative_exponent)
{
    /* (torch.tensor([-2, 0, 1, 3]) ** torch.tensor(-2)).tolist() == [0, 0, 1, 0] */
    EXPECT(tc_pow(K(I64(S(4), -2, 0, 1, 3)), K(I64(S0, -2))), TC_INT64, S(4), CH03_EXACT,
           VI(0, 0, 1, 0));
}
END_TEST

START_TEST(test_pow_bool_exponent)
{
    /* torch.tensor([True, False]) ** True */
    FAILS(tc_pow(K(B8(S(2), true, false)), K(tc_number_bool(true))),
          "\"pow\" not implemented for 'Bool'");
}
END_TEST

START_TEST(test_comparisons)
{
    tc_tensor *a = K(I64(S(3), 1, 2, 3)), *b = K(F32(S(2, 1), 1.5, 2));

    /* a = torch.tensor([1, 2, 3]); b = torch.tensor([[1.5],[2.]]); op(a, b).tolist() */
    EXPECT(tc_eq(a, b), TC_BOOL, S(2, 3), CH03_EXACT, VI(0, 0, 0, 0, 1, 0));
    EXPECT(tc_ne(a, b), TC_BOOL, S(2, 3), CH03_EXACT, VI(1, 1, 1, 1, 0, 1));
    EXPECT(tc_lt(a, b), TC_BOOL, S(2, 3), CH03_EXACT, VI(1, 0, 0, 1, 0, 0));
    EXPECT(tc_le(a, b), TC_BOOL, S(2, 3), CH03_EXACT, VI(1, 0, 0, 1, 1, 0));
    EXPECT(tc_gt(a, b), TC_BOOL, S(2, 3), CH03_EXACT, VI(0, 1, 1, 0, 0, 1));
    EXPECT(tc_ge(a, b), TC_BOOL, S(2, 3), CH03_EXACT, VI(0, 1, 1, 0, 1, 1));
    /* (torch.tensor([True,False,True]) == torch.tensor([1,0,2])).tolist() */
    EXPECT(tc_eq(K(B8(S(3), true, false, true)), K(I64(S(3), 1, 0, 2))), TC_BOOL, S(3),
           CH03_EXACT, VI(1, 1, 0));
    /* (torch.tensor([True,False]) < 0.5).tolist() == [False, True] */
    EXPECT(tc_lt(K(B8(S(2), true, false)), K(tc_number(0.5))), TC_BOOL, S(2), CH03_EXACT,
           VI(0, 1));
    /* (torch.tensor([0.1]) < torch.tensor([0.1], dtype=torch.float64)).tolist() == [False]
       and == gives [False]: compared in float64 */
    EXPECT(tc_lt(K(F32(S(1), 0.1f)), K(F64(S(1), 0.1))), TC_BOOL, S(1), CH03_EXACT, VI(0));
    EXPECT(tc_eq(K(F32(S(1), 0.1f)), K(F64(S(1), 0.1))), TC_BOOL, S(1), CH03_EXACT, VI(0));
    /* (torch.tensor([2**53+1]) == torch.tensor([float(2**53)], dtype=torch.float64)) -> [True] */
    EXPECT(tc_eq(K(I64(S(1), 9007199254740993LL)), K(F64(S(1), 9007199254740992.0))), TC_BOOL,
           S(1), CH03_EXACT, VI(1));
    /* (torch.tensor([2**24+1]) == torch.tensor([float(2**24)])) -> [True]: compared in float32 */
    EXPECT(tc_eq(K(I64(S(1), 16777217)), K(F32(S(1), 16777216.0f))), TC_BOOL, S(1),
           CH03_EXACT, VI(1));
    /* NaN: (torch.tensor([nan, 1.]) == torch.tensor([nan, 1.])).tolist() == [False, True],
       and != gives [True, False] */
    {
        tc_tensor *n = K(F32(S(2), NAN, 1));
        EXPECT(tc_eq(n, n), TC_BOOL, S(2), CH03_EXACT, VI(0, 1));
        EXPECT(tc_ne(n, n), TC_BOOL, S(2), CH03_EXACT, VI(1, 0));
        EXPECT(tc_lt(n, n), TC_BOOL, S(2), CH03_EXACT, VI(0, 0));
        EXPECT(tc_ge(n, n), TC_BOOL, S(2), CH03_EXACT, VI(0, 1));
    }
}
END_TEST

START_TEST(test_where)
{
    tc_tensor *cond = K(B8(S(2, 1), true, false));

    /* torch.where(torch.tensor([[True],[False]]), torch.tensor([1.,2.,3.]), torch.tensor(0.)) */
    EXPECT(tc_where(cond, K(F32(S(3), 1, 2, 3)), K(F32(S0, 0))), TC_FLOAT32, S(2, 3),
           CH03_EXACT, VF(1, 2, 3, 0, 0, 0));
    /* torch.where(torch.tensor([[True],[False]]), torch.tensor([1,2,3]), 0.5): float32 */
    EXPECT(tc_where(cond, K(I64(S(3), 1, 2, 3)), K(tc_number(0.5))), TC_FLOAT32, S(2, 3),
           CH03_EXACT, VF(1, 2, 3, 0.5, 0.5, 0.5));
    /* torch.where(torch.tensor([True,False]), torch.tensor([1,2]),
                   torch.tensor([0.5,0.25],dtype=torch.float64)).tolist() == [1.0, 0.25], float64 */
    EXPECT(tc_where(K(B8(S(2), true, false)), K(I64(S(2), 1, 2)), K(F64(S(2), 0.5, 0.25))),
           TC_FLOAT64, S(2), CH03_EXACT, VF(1, 0.25));
    /* torch.where(torch.tensor([True,False]), torch.tensor([1,2]), torch.tensor([5,6]))
       -> [1, 6] */
    EXPECT(tc_where(K(B8(S(2), true, false)), K(I64(S(2), 1, 2)), K(I64(S(2), 5, 6))), TC_INT64,
           S(2), CH03_EXACT, VI(1, 6));
    /* torch.where(torch.tensor([True,False]), torch.tensor([True,True]),
                   torch.tensor([False,False])).tolist() == [True, False] */
    EXPECT(tc_where(K(B8(S(2), true, false)), K(B8(S(2), true, true)), K(B8(S(2), false, false))),
           TC_BOOL, S(2), CH03_EXACT, VI(1, 0));
    /* torch.where(torch.tensor(True), torch.tensor([1.,2.]), torch.tensor([3.,4.]))
       -> [1.0, 2.0] */
    EXPECT(tc_where(K(B8(S0, true)), K(F32(S(2), 1, 2)), K(F32(S(2), 3, 4))), TC_FLOAT32, S(2),
           CH03_EXACT, VF(1, 2));
    /* torch.where(torch.tensor([True,False]), 1, 2.5).tolist() == [1.0, 2.5], float32 */
    EXPECT(tc_where(K(B8(S(2), true, false)), K(tc_number(1)), K(tc_number(2.5))), TC_FLOAT32,
           S(2), CH03_EXACT, VF(1, 2.5));
    /* torch.where(torch.tensor([1.,0.]), torch.tensor([1.]), torch.tensor([2.])) */
    FAILS(tc_where(K(F32(S(2), 1, 0)), K(F32(S(1), 1)), K(F32(S(1), 2))),
          "where expected condition to be a boolean tensor, but got a tensor with dtype Float");
    /* torch.where(torch.tensor([1,0]), torch.tensor([1.]), torch.tensor([2.])) */
    FAILS(tc_where(K(I64(S(2), 1, 0)), K(F32(S(1), 1)), K(F32(S(1), 2))),
          "where expected condition to be a boolean tensor, but got a tensor with dtype Long");
    /* torch.where(torch.tensor([True,False]), torch.zeros(3), torch.zeros(2)) */
    FAILS(tc_where(K(B8(S(2), true, false)), K(tc_zeros(S(3), TC_FLOAT32)),
                   K(tc_zeros(S(2), TC_FLOAT32))),
          "The size of tensor a (2) must match the size of tensor b (3) at non-singleton "
          "dimension 0");
}
END_TEST

START_TEST(test_nan_inf)
{
    /* torch.relu(torch.tensor([nan, -inf, inf, -0.0])).tolist() == [nan, 0.0, inf, -0.0] */
    EXPECT(tc_relu(K(F32(S(4), NAN, -INFINITY, INFINITY, -0.0))), TC_FLOAT32, S(4), CH03_EXACT,
           VF(NAN, 0.0, INFINITY, 0.0));
    /* torch.relu(torch.tensor([nan], dtype=torch.float64)).tolist() == [nan] */
    EXPECT(tc_relu(K(F64(S(1), NAN))), TC_FLOAT64, S(1), CH03_EXACT, VF(NAN));
    /* The signs of the zeros, which EXPECT does not see: relu keeps -0.0
       (torch.relu(torch.full((n,), -0.0)).signbit().all() for n = 1 ... 70000,
       float32 and float64, and relu_ too), and gives +0.0 for -inf. */
    {
        tc_tensor *r32 = K(tc_relu(K(F32(S(4), NAN, -INFINITY, INFINITY, -0.0))));
        tc_tensor *r64 = K(tc_relu(K(F64(S(2), -0.0, -1.0))));
        tc_tensor *big = K(tc_full(S(1000), -0.0, TC_FLOAT32));

        ck_assert(signbit(testing_element(r32, 3)) && !signbit(testing_element(r32, 1)));
        ck_assert(signbit(testing_element(r64, 0)) && !signbit(testing_element(r64, 1)));
        ck_assert_ptr_eq(K(tc_relu_(big)), big);
        for (int64_t k = 0; k < 1000; k++)
            ck_assert(testing_element(big, k) == 0 && signbit(testing_element(big, k)));
    }
    /* torch.log(torch.tensor([0., -0.0, inf])).tolist() == [-inf, -inf, inf] */
    EXPECT(tc_log(K(F32(S(3), 0, -0.0, INFINITY))), TC_FLOAT32, S(3), CH03_EXACT,
           VF(-INFINITY, -INFINITY, INFINITY));
    /* (torch.tensor([1., -1., 0.]) / 0).tolist() == [inf, -inf, nan] */
    EXPECT(tc_div_scalar(K(F32(S(3), 1, -1, 0)), 0), TC_FLOAT32, S(3), CH03_EXACT,
           VF(INFINITY, -INFINITY, NAN));
    /* (torch.tensor([1, -1, 0]) / 0).tolist() == [inf, -inf, nan] (no integer division trap) */
    EXPECT(tc_div_scalar(K(I64(S(3), 1, -1, 0)), 0), TC_FLOAT32, S(3), CH03_EXACT,
           VF(INFINITY, -INFINITY, NAN));
    /* (torch.tensor([1., -1.]) / torch.tensor([-0.0])).tolist() == [-inf, inf] */
    EXPECT(tc_div(K(F32(S(2), 1, -1)), K(F32(S(1), -0.0))), TC_FLOAT32, S(2), CH03_EXACT,
           VF(-INFINITY, INFINITY));
    /* torch.exp(torch.tensor([inf, -inf, nan, 100.])).tolist() == [inf, 0.0, nan, inf] */
    EXPECT(tc_exp(K(F32(S(4), INFINITY, -INFINITY, NAN, 100))), TC_FLOAT32, S(4), CH03_EXACT,
           VF(INFINITY, 0.0, NAN, INFINITY));
    /* torch.sigmoid(torch.tensor([-100., 100., inf, -inf, nan])).tolist() */
    EXPECT(tc_sigmoid(K(F32(S(5), -100, 100, INFINITY, -INFINITY, NAN))), TC_FLOAT32, S(5),
           CH03_EXACT, VF(0.0, 1.0, 1.0, 0.0, NAN));
    /* torch.tanh(torch.tensor([inf, -inf, nan, 20.])).tolist() == [1.0, -1.0, nan, 1.0] */
    EXPECT(tc_tanh(K(F32(S(4), INFINITY, -INFINITY, NAN, 20))), TC_FLOAT32, S(4), CH03_EXACT,
           VF(1.0, -1.0, NAN, 1.0));
    /* torch.sqrt(torch.tensor([inf, -0.0, -inf])).tolist() == [inf, -0.0, nan] */
    EXPECT(tc_sqrt(K(F32(S(3), INFINITY, -0.0, -INFINITY))), TC_FLOAT32, S(3), CH03_EXACT,
           VF(INFINITY, -0.0, NAN));
    /* (torch.tensor([inf]) - torch.tensor([inf])).tolist() == [nan] */
    EXPECT(tc_sub(K(F32(S(1), INFINITY)), K(F32(S(1), INFINITY))), TC_FLOAT32, S(1),
           CH03_EXACT, VF(NAN));
    /* (torch.tensor([nan, 0.]) * torch.tensor([0., inf])).tolist() == [nan, nan] */
    EXPECT(tc_mul(K(F32(S(2), NAN, 0)), K(F32(S(2), 0, INFINITY))), TC_FLOAT32, S(2),
           CH03_EXACT, VF(NAN, NAN));
}
END_TEST

START_TEST(test_int64_wraparound)
{
    /* (torch.tensor([2**63-1]) * 2).tolist() == [-2] */
    EXPECT(tc_mul_scalar(K(I64(S(1), INT64_MAX)), 2), TC_INT64, S(1), CH03_EXACT, VI(-2));
    /* (torch.tensor([2**63-1]) + 1).tolist() == [-9223372036854775808] */
    EXPECT(tc_add(K(I64(S(1), INT64_MAX)), K(tc_number(1))), TC_INT64, S(1), CH03_EXACT,
           VI(INT64_MIN));
    /* (torch.tensor([-2**63]) - 1).tolist() == [9223372036854775807] */
    EXPECT(tc_sub_scalar(K(I64(S(1), INT64_MIN)), 1), TC_INT64, S(1), CH03_EXACT,
           VI(INT64_MAX));
    /* (-torch.tensor([-2**63])).tolist() == [-9223372036854775808] */
    EXPECT(tc_neg(K(I64(S(1), INT64_MIN))), TC_INT64, S(1), CH03_EXACT, VI(INT64_MIN));
    /* torch.abs(torch.tensor([-2**63])).tolist() == [-9223372036854775808] */
    EXPECT(tc_abs(K(I64(S(1), INT64_MIN))), TC_INT64, S(1), CH03_EXACT, VI(INT64_MIN));
    /* torch.add(torch.tensor([1]), torch.tensor([2**62]), alpha=4).tolist() == [1] */
    EXPECT(tc_add_alpha(K(I64(S(1), 1)), K(I64(S(1), 4611686018427387904LL)), K(tc_number(4))),
           TC_INT64, S(1), CH03_EXACT, VI(1));
}
END_TEST

/* ------------------------------------------------------ 3. in place */

/* r, the result of an in-place operation on x, is x itself (a new
   reference, released here). */
static void ch03_same(int line, const char *what, tc_tensor *x, tc_tensor *r)
{
    ck_assert_msg(r != NULL, "line %d: %s failed: %s", line, what,
                  tc_error() != NULL ? tc_error() : "(no message)");
    ck_assert_msg(r == x, "line %d: %s did not return its first argument", line, what);
    tc_release(r);
}

#define SAME(x, call) ch03_same(__LINE__, #call, (x), (call))

/* x (kept, not owned) now has these values: checked through a new
   reference, so that EXPECT can keep it. */
#define NOW(x, dtype, sizes, strides, tol, want)                              \
    EXPECT_STRIDED(tc_retain(x), dtype, sizes, strides, tol, want)

static const char ch03_overlap_out[] =
    "unsupported operation: more than one element of the written-to tensor refers to a "
    "single memory location. Please clone() the tensor before performing the operation.";
static const char ch03_overlap_in[] =
    "unsupported operation: some elements of the input tensor and the written-to tensor "
    "refer to a single memory location. Please clone() the tensor before performing the "
    "operation.";
static const char ch03_sub_two_bools[] =
    "Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or "
    "`logical_xor()` operator instead.";
static const char ch03_sub_bool[] =
    "Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying "
    "to invert a mask, use the `~` or `logical_not()` operator instead.";
static const char ch03_neg_bool[] =
    "Negation, the `-` operator, on a bool tensor is not supported. If you are trying to "
    "invert a mask, use the `~` or `logical_not()` operator instead.";

START_TEST(test_inplace_values)
{
    tc_tensor *x;

    /* x = torch.arange(6.).view(2,3); x.add_(torch.tensor([1.,2.,3.])) is x; x.tolist() */
    x = ch03_grid(S(2, 3));
    SAME(x, tc_add_(x, K(F32(S(3), 1, 2, 3))));
    NOW(x, TC_FLOAT32, S(2, 3), S(3, 1), CH03_EXACT, VF(1, 3, 5, 4, 6, 8));
    /* x.sub_(1) */
    x = ch03_grid(S(2, 3));
    SAME(x, tc_sub_(x, K(tc_number(1))));
    NOW(x, TC_FLOAT32, S(2, 3), S(3, 1), CH03_EXACT, VF(-1, 0, 1, 2, 3, 4));
    /* x.mul_(torch.tensor([[2.],[3.]])) */
    x = ch03_grid(S(2, 3));
    SAME(x, tc_mul_(x, K(F32(S(2, 1), 2, 3))));
    NOW(x, TC_FLOAT32, S(2, 3), S(3, 1), CH03_EXACT, VF(0, 2, 4, 9, 12, 15));
    /* x.div_(4) */
    x = ch03_grid(S(2, 3));
    SAME(x, tc_div_(x, K(tc_number(4))));
    NOW(x, TC_FLOAT32, S(2, 3), S(3, 1), CH03_EXACT, VF(0, 0.25, 0.5, 0.75, 1, 1.25));
    /* x = torch.arange(6).view(2,3); x.add_(torch.tensor([1,2,3])), int64 */
    x = ch03_igrid(S(2, 3));
    SAME(x, tc_add_(x, K(I64(S(3), 1, 2, 3))));
    NOW(x, TC_INT64, S(2, 3), S(3, 1), CH03_EXACT, VI(1, 3, 5, 4, 6, 8));
    /* x.mul_(2), int64 */
    x = ch03_igrid(S(2, 3));
    SAME(x, tc_mul_(x, K(tc_number(2))));
    NOW(x, TC_INT64, S(2, 3), S(3, 1), CH03_EXACT, VI(0, 2, 4, 6, 8, 10));
    /* x = torch.arange(3); x.add_(torch.tensor([True,False,True])) -> [1, 1, 3] */
    x = K(I64(S(3), 0, 1, 2));
    SAME(x, tc_add_(x, K(B8(S(3), true, false, true))));
    NOW(x, TC_INT64, S(3), S(1), CH03_EXACT, VI(1, 1, 3));
    /* x = torch.tensor([True,False]); x.add_(torch.tensor([False,True])) -> [True, True] */
    x = K(B8(S(2), true, false));
    SAME(x, tc_add_(x, K(B8(S(2), false, true))));
    NOW(x, TC_BOOL, S(2), S(1), CH03_EXACT, VI(1, 1));
    /* x = torch.tensor([True,False]); x.mul_(True) -> [True, False] */
    x = K(B8(S(2), true, false));
    SAME(x, tc_mul_(x, K(tc_number_bool(true))));
    NOW(x, TC_BOOL, S(2), S(1), CH03_EXACT, VI(1, 0));
    /* x = torch.arange(4.); x.add_(x) -> [0.0, 2.0, 4.0, 6.0]: full overlap is allowed */
    x = ch03_grid(S(4));
    SAME(x, tc_add_(x, x));
    NOW(x, TC_FLOAT32, S(4), S(1), CH03_EXACT, VF(0, 2, 4, 6));
    /* x = torch.zeros(2,3); x.add_(torch.ones(3).expand(2,3)): an expanded input is fine */
    x = K(tc_zeros(S(2, 3), TC_FLOAT32));
    SAME(x, tc_add_(x, K(tc_expand(K(tc_ones(S(3), TC_FLOAT32)), S(2, 3)))));
    NOW(x, TC_FLOAT32, S(2, 3), S(3, 1), CH03_EXACT, VF(1, 1, 1, 1, 1, 1));
    /* x = torch.zeros(2,0); x.add_(1): nothing to do */
    x = K(tc_zeros(S(2, 0), TC_FLOAT32));
    SAME(x, tc_add_(x, K(tc_number(1))));
}
END_TEST

START_TEST(test_inplace_unary)
{
    tc_tensor *x;

    /* x = torch.tensor([-1., 0., 1.]); x.exp_() */
    x = K(F32(S(3), -1, 0, 1));
    SAME(x, tc_exp_(x));
    NOW(x, TC_FLOAT32, S(3), S(1), CH03_F32, VF(0.3678794503211975, 1.0, 2.7182817459106445));
    /* x = torch.tensor([-1., nan, 2.]); x.relu_() -> [0.0, nan, 2.0] */
    x = K(F32(S(3), -1, NAN, 2));
    SAME(x, tc_relu_(x));
    NOW(x, TC_FLOAT32, S(3), S(1), CH03_EXACT, VF(0, NAN, 2));
    /* x = torch.tensor([-1, 0, 3]); x.relu_() -> [0, 0, 3] */
    x = K(I64(S(3), -1, 0, 3));
    SAME(x, tc_relu_(x));
    NOW(x, TC_INT64, S(3), S(1), CH03_EXACT, VI(0, 0, 3));
    /* x = torch.tensor([-1, 0, 3]); x.neg_() -> [1, 0, -3] */
    x = K(I64(S(3), -1, 0, 3));
    SAME(x, tc_neg_(x));
    NOW(x, TC_INT64, S(3), S(1), CH03_EXACT, VI(1, 0, -3));
    /* x = torch.tensor([-2.5], dtype=torch.float64); x.neg_() -> [2.5] */
    x = K(F64(S(1), -2.5));
    SAME(x, tc_neg_(x));
    NOW(x, TC_FLOAT64, S(1), S(1), CH03_EXACT, VF(2.5));
}
END_TEST

START_TEST(test_inplace_layout)
{
    tc_tensor *base, *x;

    /* x = torch.arange(6.).view(2,3).t(); x.mul_(2) is x; x.stride() == (1, 3) */
    base = ch03_grid(S(2, 3));
    x = K(tc_t(base));
    SAME(x, tc_mul_(x, K(tc_number(2))));
    NOW(x, TC_FLOAT32, S(3, 2), S(1, 3), CH03_EXACT, VF(0, 6, 2, 8, 4, 10));
    ck_assert(x->storage == base->storage);
    /* the base sees it: base.tolist() == [[0, 2, 4], [6, 8, 10]] */
    NOW(base, TC_FLOAT32, S(2, 3), S(3, 1), CH03_EXACT, VF(0, 2, 4, 6, 8, 10));
    /* x = torch.arange(6.).view(2,3).t(); x.neg_() keeps stride (1, 3) */
    x = K(tc_t(ch03_grid(S(2, 3))));
    SAME(x, tc_neg_(x));
    NOW(x, TC_FLOAT32, S(3, 2), S(1, 3), CH03_EXACT, VF(-0.0, -3, -1, -4, -2, -5));
    /* base = torch.arange(12.).view(3,4); x = base[:, ::2]; x.add_(100); base.tolist() */
    base = ch03_grid(S(3, 4));
    x = K(tc_slice(base, 1, 0, TC_END, 2));
    SAME(x, tc_add_(x, K(tc_number(100))));
    NOW(x, TC_FLOAT32, S(3, 2), S(4, 2), CH03_EXACT, VF(100, 102, 104, 106, 108, 110));
    NOW(base, TC_FLOAT32, S(3, 4), S(4, 1), CH03_EXACT,
        VF(100, 1, 102, 3, 104, 5, 106, 7, 108, 9, 110, 11));
    ck_assert_int_eq(x->storage_offset, 0);
    /* x = torch.arange(3.); x.add_(torch.tensor([0.1,0.2,0.3],dtype=torch.float64)):
       a float64 operand is allowed, the result is stored as float32 */
    x = ch03_grid(S(3));
    SAME(x, tc_add_(x, K(F64(S(3), 0.1, 0.2, 0.3))));
    NOW(x, TC_FLOAT32, S(3), S(1), CH03_EXACT,
        VF(0.10000000149011612, 1.2000000476837158, 2.299999952316284));
    /* x = torch.arange(3.); x.add_(torch.tensor(0.1,dtype=torch.float64)) */
    x = ch03_grid(S(3));
    SAME(x, tc_add_(x, K(F64(S0, 0.1))));
    NOW(x, TC_FLOAT32, S(3), S(1), CH03_EXACT,
        VF(0.10000000149011612, 1.100000023841858, 2.0999999046325684));
    /* x = torch.arange(3.); x.sub_(torch.tensor([1.,1.,1.],dtype=torch.float64)) */
    x = ch03_grid(S(3));
    SAME(x, tc_sub_(x, K(F64(S(3), 1, 1, 1))));
    NOW(x, TC_FLOAT32, S(3), S(1), CH03_EXACT, VF(-1, 0, 1));
    /* transposed float32 output, float64 input: x = torch.arange(6.).view(2,3).t();
       x.add_(torch.ones(3,2,dtype=torch.float64)); x.stride() == (1, 3) */
    base = ch03_grid(S(2, 3));
    x = K(tc_t(base));
    SAME(x, tc_add_(x, K(tc_ones(S(3, 2), TC_FLOAT64))));
    NOW(x, TC_FLOAT32, S(3, 2), S(1, 3), CH03_EXACT, VF(1, 4, 2, 5, 3, 6));
    NOW(base, TC_FLOAT32, S(2, 3), S(3, 1), CH03_EXACT, VF(1, 2, 3, 4, 5, 6));
}
END_TEST

START_TEST(test_inplace_errors)
{
    tc_tensor *xi = ch03_igrid(S(2, 3)), *x;
    static const char float_to_long[] =
        "result type Float can't be cast to the desired output type Long";
    static const char long_to_bool[] =
        "result type Long can't be cast to the desired output type Bool";

    /* x = torch.arange(6).view(2,3); x.add_(torch.tensor([1.5])) */
    FAILS(tc_add_(xi, K(F32(S(1), 1.5))), float_to_long);
    /* x.add_(2.5) */
    FAILS(tc_add_(xi, K(tc_number(2.5))), float_to_long);
    /* x.div_(2) */
    FAILS(tc_div_(xi, K(tc_number(2))), float_to_long);
    /* x.div_(torch.tensor([1,1,1])) */
    FAILS(tc_div_(xi, K(I64(S(3), 1, 1, 1))), float_to_long);
    /* x.mul_(torch.tensor(2.)) */
    FAILS(tc_mul_(xi, K(F32(S0, 2))), float_to_long);
    /* torch.arange(3).exp_() */
    FAILS(tc_exp_(K(I64(S(3), 0, 1, 2))), float_to_long);
    /* the failed operations left x alone */
    NOW(xi, TC_INT64, S(2, 3), S(3, 1), CH03_EXACT, VI(0, 1, 2, 3, 4, 5));
    /* torch.tensor([True,False]).add_(torch.tensor([1,1])) */
    FAILS(tc_add_(K(B8(S(2), true, false)), K(I64(S(2), 1, 1))), long_to_bool);
    /* torch.tensor([True,False]).mul_(1) */
    FAILS(tc_mul_(K(B8(S(2), true, false)), K(tc_number(1))), long_to_bool);
    /* torch.arange(3.).add_(torch.ones(2,3)) */
    FAILS(tc_add_(ch03_grid(S(3)), K(tc_ones(S(2, 3), TC_FLOAT32))),
          "output with shape [3] doesn't match the broadcast shape [2, 3]");
    /* torch.tensor(5.).add_(torch.tensor([1.])) */
    FAILS(tc_add_(K(F32(S0, 5)), K(F32(S(1), 1))),
          "output with shape [] doesn't match the broadcast shape [1]");
    /* torch.zeros(3).expand(2,3).add_(1) */
    x = K(tc_expand(K(tc_zeros(S(3), TC_FLOAT32)), S(2, 3)));
    FAILS(tc_add_(x, K(tc_number(1))), ch03_overlap_out);
    /* torch.zeros(1,3).expand(2,3).add_(torch.ones(2,3)) */
    x = K(tc_expand(K(tc_zeros(S(1, 3), TC_FLOAT32)), S(2, 3)));
    FAILS(tc_add_(x, K(tc_ones(S(2, 3), TC_FLOAT32))), ch03_overlap_out);
    /* torch.tensor([1.]).expand(3).relu_() */
    FAILS(tc_relu_(K(tc_expand(K(F32(S(1), 1)), S(3)))), ch03_overlap_out);
    /* x = torch.arange(4.); x[1:].add_(x[:3]) */
    x = ch03_grid(S(4));
    FAILS(tc_add_(K(tc_slice(x, 0, 1, TC_END, 1)), K(tc_slice(x, 0, 0, 3, 1))), ch03_overlap_in);
    NOW(x, TC_FLOAT32, S(4), S(1), CH03_EXACT, VF(0, 1, 2, 3));
}
END_TEST

START_TEST(test_inplace_bool_errors)
{
    tc_tensor *b = K(B8(S(2), true, false));

    /* torch.tensor([True]) - torch.tensor([True]) */
    FAILS(tc_sub(b, b), ch03_sub_two_bools);
    /* torch.tensor([True]).sub_(torch.tensor([True])) */
    FAILS(tc_sub_(b, K(B8(S(2), true, true))), ch03_sub_two_bools);
    /* torch.tensor([True]) - True */
    FAILS(tc_sub(b, K(tc_number_bool(true))), ch03_sub_two_bools);
    /* torch.tensor([True]) - torch.tensor([1]) */
    FAILS(tc_sub(b, K(I64(S(1), 1))), ch03_sub_bool);
    /* torch.tensor([1]) - torch.tensor([True]) */
    FAILS(tc_sub(K(I64(S(1), 1)), b), ch03_sub_bool);
    /* torch.tensor([True]) - 1 */
    FAILS(tc_sub_scalar(b, 1), ch03_sub_bool);
    /* torch.tensor([1.]) - torch.tensor([True]) */
    FAILS(tc_sub(K(F32(S(1), 1)), b), ch03_sub_bool);
    /* torch.sub(torch.tensor([1.]), torch.tensor([True]), alpha=2.) */
    FAILS(tc_sub_alpha(K(F32(S(1), 1)), b, K(tc_number(2.0))), ch03_sub_bool);
    /* -torch.tensor([True]) and torch.tensor([True]).neg_() */
    FAILS(tc_neg(b), ch03_neg_bool);
    FAILS(tc_neg_(b), ch03_neg_bool);
    /* torch.relu(torch.tensor([True])) and torch.relu_(torch.tensor([True])) */
    FAILS(tc_relu(b), "Boolean inputs not supported for relu");
    FAILS(tc_relu_(b), "Boolean inputs not supported for relu");
    /* torch.abs(torch.tensor([True])) */
    FAILS(tc_abs(b), "\"abs_cpu\" not implemented for 'Bool'");
    /* the bool tensor is unchanged */
    NOW(b, TC_BOOL, S(2), S(1), CH03_EXACT, VI(1, 0));
}
END_TEST

START_TEST(test_other_errors)
{
    static const char alpha_msg[] =
        "For integral input tensors, argument alpha must not be a floating point number.";
    tc_tensor *i = K(I64(S(1), 1));

    /* torch.add(torch.tensor([1]), torch.tensor([1]), alpha=0.5) */
    FAILS(tc_add_alpha(i, i, K(tc_number(0.5))), alpha_msg);
    /* torch.sub(torch.tensor([1]), torch.tensor([1]), alpha=0.5) */
    FAILS(tc_sub_alpha(i, i, K(tc_number(0.5))), alpha_msg);
    /* torch.add(torch.tensor([True]), torch.tensor([True]), alpha=2.5) */
    FAILS(tc_add_alpha(K(B8(S(1), true)), K(B8(S(1), true)), K(tc_number(2.5))), alpha_msg);
    /* torch.tensor([2]) ** -1 */
    FAILS(tc_pow_scalar(i, -1), "Integers to negative integer powers are not allowed.");
    /* torch.where(torch.tensor([1.]), torch.tensor([1.]), torch.tensor([1.])) */
    FAILS(tc_where(K(F32(S(1), 1)), K(F32(S(1), 1)), K(F32(S(1), 1))),
          "where expected condition to be a boolean tensor, but got a tensor with dtype Float");
}
END_TEST

START_TEST(test_alpha_bool_for_integers)
{
    /* torch.add(torch.tensor([1]), torch.tensor([2]), alpha=True) */
    FAILS(tc_add_alpha(K(I64(S(1), 1)), K(I64(S(1), 2)), K(tc_number_bool(true))),
          "Boolean alpha only supported for Boolean results.");
}
END_TEST

/* TensorIterator checks the output for internal overlap, then input and
   output for partial overlap, then shapes, then dtypes: the first failed
   check gives the message. */
START_TEST(test_error_order_overlap_before_dtype)
{
    /* torch.zeros(3,dtype=torch.int64).expand(2,3).add_(2.5) */
    FAILS(tc_add_(K(tc_expand(K(tc_zeros(S(3), TC_INT64)), S(2, 3))), K(tc_number(2.5))),
          ch03_overlap_out);
}
END_TEST

START_TEST(test_error_order_overlap_before_dtype_unary)
{
    /* torch.tensor([1]).expand(3).exp_() */
    FAILS(tc_exp_(K(tc_expand(K(I64(S(1), 1)), S(3)))), ch03_overlap_out);
}
END_TEST

START_TEST(test_error_order_overlap_before_shape)
{
    /* torch.zeros(3).expand(2,3).add_(torch.ones(4)) */
    FAILS(tc_add_(K(tc_expand(K(tc_zeros(S(3), TC_FLOAT32)), S(2, 3))),
                  K(tc_ones(S(4), TC_FLOAT32))),
          ch03_overlap_out);
}
END_TEST

START_TEST(test_error_order_partial_overlap_before_shape)
{
    tc_tensor *x = ch03_grid(S(2, 3));

    /* x = torch.arange(6.).view(2,3); x[0].add_(x) */
    FAILS(tc_add_(K(tc_select(x, 0, 0)), x), ch03_overlap_in);
}
END_TEST

START_TEST(test_error_order_shape_before_dtype)
{
    /* torch.zeros(3,dtype=torch.int64).mul_(torch.ones(2,3)) */
    FAILS(tc_mul_(K(tc_zeros(S(3), TC_INT64)), K(tc_ones(S(2, 3), TC_FLOAT32))),
          "output with shape [3] doesn't match the broadcast shape [2, 3]");
}
END_TEST

/* ------------------------------------------------- 4. output layouts */

/* The output of an elementwise operation is laid out like its inputs
   (TensorIterator's rule: the first input with an opinion decides). */
START_TEST(test_output_strides)
{
    tc_tensor *x = ch03_grid(S(3, 4)), *xt = K(tc_t(x));

    /* x = torch.arange(12.).view(3,4); (x.t()+x.t()).stride() == (1, 4) */
    EXPECT_STRIDED(tc_add(xt, xt), TC_FLOAT32, S(4, 3), S(1, 4), CH03_EXACT,
                   VF(0, 8, 16, 2, 10, 18, 4, 12, 20, 6, 14, 22));
    /* (x.t()+1).stride() == (1, 4) */
    EXPECT_STRIDED(tc_add(xt, K(tc_number(1))), TC_FLOAT32, S(4, 3), S(1, 4), CH03_EXACT,
                   VF(1, 5, 9, 2, 6, 10, 3, 7, 11, 4, 8, 12));
    /* (torch.zeros(3,1)+torch.zeros(1,4)).stride() == (4, 1) */
    EXPECT_STRIDED(tc_add(K(tc_zeros(S(3, 1), TC_FLOAT32)), K(tc_zeros(S(1, 4), TC_FLOAT32))),
                   TC_FLOAT32, S(3, 4), S(4, 1), CH03_EXACT,
                   VF(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0));
    /* (torch.arange(6.).view(2,3).t()+torch.arange(6.).view(3,2)).stride() == (1, 3):
       the first operand decides */
    EXPECT_STRIDED(tc_add(K(tc_t(ch03_grid(S(2, 3)))), ch03_grid(S(3, 2))), TC_FLOAT32,
                   S(3, 2), S(1, 3), CH03_EXACT, VF(0, 4, 3, 7, 6, 10));
    /* (torch.arange(6.).view(3,2)+torch.arange(6.).view(2,3).t()).stride() == (2, 1) */
    EXPECT_STRIDED(tc_add(ch03_grid(S(3, 2)), K(tc_t(ch03_grid(S(2, 3))))), TC_FLOAT32,
                   S(3, 2), S(2, 1), CH03_EXACT, VF(0, 4, 3, 7, 6, 10));
    /* (x[:, ::2]+1).stride() == (2, 1): not dense, so row-major */
    EXPECT_STRIDED(tc_add(K(tc_slice(x, 1, 0, TC_END, 2)), K(tc_number(1))), TC_FLOAT32,
                   S(3, 2), S(2, 1), CH03_EXACT, VF(1, 3, 5, 7, 9, 11));
    /* (x.t() + torch.arange(3.)).stride() == (1, 4) */
    EXPECT_STRIDED(tc_add(xt, ch03_grid(S(3))), TC_FLOAT32, S(4, 3), S(1, 4), CH03_EXACT,
                   VF(0, 5, 10, 1, 6, 11, 2, 7, 12, 3, 8, 13));
    /* (torch.arange(3.).view(3,1).expand(3,4) + 0).stride() == (4, 1) */
    EXPECT_STRIDED(tc_add(K(tc_expand(ch03_grid(S(3, 1)), S(3, 4))), K(tc_number(0))),
                   TC_FLOAT32, S(3, 4), S(4, 1), CH03_EXACT,
                   VF(0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2));
    /* (torch.arange(24.).view(2,3,4).permute(2,0,1) + 1).stride() == (1, 12, 4) */
    EXPECT_STRIDED(tc_add(K(tc_permute(ch03_grid(S(2, 3, 4)), S(2, 0, 1))), K(tc_number(1))),
                   TC_FLOAT32, S(4, 2, 3), S(1, 12, 4), CH03_EXACT,
                   VF(1, 5, 9, 13, 17, 21, 2, 6, 10, 14, 18, 22, 3, 7, 11, 15, 19, 23, 4, 8,
                      12, 16, 20, 24));
    /* p = torch.arange(24.).view(2,3,4).permute(1,2,0); (p * p).stride() == (4, 1, 12) */
    {
        tc_tensor *p = K(tc_permute(ch03_grid(S(2, 3, 4)), S(1, 2, 0)));
        EXPECT_STRIDED(tc_mul(p, p), TC_FLOAT32, S(3, 4, 2), S(4, 1, 12), CH03_EXACT,
                       VF(0, 144, 1, 169, 4, 196, 9, 225, 16, 256, 25, 289, 36, 324, 49, 361,
                          64, 400, 81, 441, 100, 484, 121, 529));
    }
    /* (torch.tensor(1.) + torch.tensor(2.)).stride() == () */
    EXPECT_STRIDED(tc_add(K(F32(S0, 1)), K(F32(S0, 2))), TC_FLOAT32, S0, S0, CH03_EXACT,
                   VF(3));
}
END_TEST

/* PyTorch's fast setup (TensorIteratorBase::compute_fast_setup_type): when
   every operand has the result's shape and all are contiguous, the new
   output is contiguous; when all are non-overlapping and dense with equal
   strides, it takes those strides. A wrapped number (another shape) or
   unequal strides keep the order-of-strides layout. Checked with torch 1.13:
   a = torch.arange(2000.).as_strided((3,1,4), (4,1000,1))   # contiguous
   (a+a).stride(), (a*a).stride(), a.neg().stride() == (4, 4, 1);
   (a+1).stride() == (4, 12, 1)
   d = torch.arange(2000.).as_strided((3,1,4), (1,1000,3))   # dense
   (d+d).stride(), d.neg().stride() == (1, 1000, 3); (d+1).stride() == (1, 12, 3)
   q = torch.arange(12.).view(3,1,4)
   (d+q).stride() == (1, 12, 3); (q+d).stride() == (4, 12, 1)
   torch.where(d > d, d, d).stride() == (1, 1000, 3)
   torch.where(d > 4, d, d).stride() == (1, 12, 3)   # d > 4 is (1, 12, 3)
   i = torch.arange(2000).as_strided((3,1,4), (4,1000,1)); (i+q).stride() == (4, 4, 1)
   e = torch.zeros(2,0,3).permute(2,0,1)              # strides (1, 3, 3)
   (e+e).stride(), e.neg().stride(), torch.where(e > 0, e, e).stride() == (2, 1, 1);
   (e+1).stride() == (1, 0, 3) */
START_TEST(test_output_strides_fast_setup)
{
    tc_tensor *storage = K(tc_arange(0.0, 2000.0, 1.0));
    tc_tensor *a = K(tc_as_strided(storage, S(3, 1, 4), S(4, 1000, 1), 0));
    tc_tensor *d = K(tc_as_strided(storage, S(3, 1, 4), S(1, 1000, 3), 0));
    tc_tensor *q = K(tc_view(K(tc_arange(0.0, 12.0, 1.0)), S(3, 1, 4)));
    tc_tensor *i = K(tc_as_strided(K(tc_arange(0, 2000, 1)), S(3, 1, 4), S(4, 1000, 1), 0));
    tc_tensor *e = K(tc_permute(K(tc_zeros(S(2, 0, 3), TC_FLOAT32)), S(2, 0, 1)));

    EXPECT_STRIDED(tc_add(a, a), TC_FLOAT32, S(3, 1, 4), S(4, 4, 1), CH03_EXACT,
                   VF(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22));
    EXPECT_STRIDED(tc_mul(a, a), TC_FLOAT32, S(3, 1, 4), S(4, 4, 1), CH03_EXACT,
                   VF(0, 1, 4, 9, 16, 25, 36, 49, 64, 81, 100, 121));
    EXPECT_STRIDED(tc_neg(a), TC_FLOAT32, S(3, 1, 4), S(4, 4, 1), CH03_EXACT,
                   VF(-0.0, -1, -2, -3, -4, -5, -6, -7, -8, -9, -10, -11));
    EXPECT_STRIDED(tc_add(a, K(tc_number(1))), TC_FLOAT32, S(3, 1, 4), S(4, 12, 1),
                   CH03_EXACT, VF(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12));
    EXPECT_STRIDED(tc_add(d, d), TC_FLOAT32, S(3, 1, 4), S(1, 1000, 3), CH03_EXACT,
                   VF(0, 6, 12, 18, 2, 8, 14, 20, 4, 10, 16, 22));
    EXPECT_STRIDED(tc_neg(d), TC_FLOAT32, S(3, 1, 4), S(1, 1000, 3), CH03_EXACT,
                   VF(-0.0, -3, -6, -9, -1, -4, -7, -10, -2, -5, -8, -11));
    EXPECT_STRIDED(tc_add(d, K(tc_number(1))), TC_FLOAT32, S(3, 1, 4), S(1, 12, 3),
                   CH03_EXACT, VF(1, 4, 7, 10, 2, 5, 8, 11, 3, 6, 9, 12));
    EXPECT_STRIDED(tc_add(d, q), TC_FLOAT32, S(3, 1, 4), S(1, 12, 3), CH03_EXACT,
                   VF(0, 4, 8, 12, 5, 9, 13, 17, 10, 14, 18, 22));
    EXPECT_STRIDED(tc_add(q, d), TC_FLOAT32, S(3, 1, 4), S(4, 12, 1), CH03_EXACT,
                   VF(0, 4, 8, 12, 5, 9, 13, 17, 10, 14, 18, 22));
    EXPECT_STRIDED(tc_where(K(tc_gt(d, d)), d, d), TC_FLOAT32, S(3, 1, 4), S(1, 1000, 3),
                   CH03_EXACT, VF(0, 3, 6, 9, 1, 4, 7, 10, 2, 5, 8, 11));
    EXPECT_STRIDED(tc_where(K(tc_gt(d, K(tc_number(4)))), d, d), TC_FLOAT32, S(3, 1, 4),
                   S(1, 12, 3), CH03_EXACT, VF(0, 3, 6, 9, 1, 4, 7, 10, 2, 5, 8, 11));
    EXPECT_STRIDED(tc_add(i, q), TC_FLOAT32, S(3, 1, 4), S(4, 4, 1), CH03_EXACT,
                   VF(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22));
    EXPECT_STRIDED(tc_add(e, e), TC_FLOAT32, S(3, 2, 0), S(2, 1, 1), CH03_EXACT, VNONE);
    EXPECT_STRIDED(tc_neg(e), TC_FLOAT32, S(3, 2, 0), S(2, 1, 1), CH03_EXACT, VNONE);
    EXPECT_STRIDED(tc_where(K(tc_gt(e, K(tc_number(0)))), e, e), TC_FLOAT32, S(3, 2, 0),
                   S(2, 1, 1), CH03_EXACT, VNONE);
    /* (e + 1).stride() == (1, 0, 3): the order-of-strides path, where TensorIterator
       multiplies by the size 0 as it is (infer_dense_strides, for empty_like, would
       count it as 1 and give (1, 3, 3)) */
    EXPECT_STRIDED(tc_add(e, K(tc_number(1))), TC_FLOAT32, S(3, 2, 0), S(1, 0, 3), CH03_EXACT,
                   VNONE);
}
END_TEST

START_TEST(test_output_strides_other_ops)
{
    tc_tensor *x = ch03_grid(S(3, 4)), *xt = K(tc_t(x));

    /* (x.t() < 5).stride() == (1, 4) */
    EXPECT_STRIDED(tc_lt(xt, K(tc_number(5))), TC_BOOL, S(4, 3), S(1, 4), CH03_EXACT,
                   VI(1, 1, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0));
    /* (torch.arange(6.).view(2,3).t() == torch.arange(2.)).stride() == (1, 3) */
    EXPECT_STRIDED(tc_eq(K(tc_t(ch03_grid(S(2, 3)))), ch03_grid(S(2))), TC_BOOL, S(3, 2),
                   S(1, 3), CH03_EXACT, VI(1, 0, 0, 0, 0, 0));
    /* torch.where(x.t() > 5, x.t(), torch.tensor(0.)).stride() == (1, 4) */
    EXPECT_STRIDED(tc_where(K(tc_gt(xt, K(tc_number(5)))), xt, K(F32(S0, 0))), TC_FLOAT32,
                   S(4, 3), S(1, 4), CH03_EXACT, VF(0, 0, 8, 0, 0, 9, 0, 6, 10, 0, 7, 11));
    /* torch.where(torch.ones(3,2,dtype=torch.bool).t(), torch.zeros(2,3),
                   torch.zeros(2,3)).stride() == (1, 2): the condition comes first */
    EXPECT_STRIDED(tc_where(K(tc_t(K(tc_ones(S(3, 2), TC_BOOL)))), K(tc_zeros(S(2, 3), TC_FLOAT32)),
                            K(tc_zeros(S(2, 3), TC_FLOAT32))),
                   TC_FLOAT32, S(2, 3), S(1, 2), CH03_EXACT, VF(0, 0, 0, 0, 0, 0));
    /* torch.where(x > 5, x, 0.).stride() == (4, 1) */
    EXPECT_STRIDED(tc_where(K(tc_gt(x, K(tc_number(5)))), x, K(tc_number(0.0))), TC_FLOAT32,
                   S(3, 4), S(4, 1), CH03_EXACT, VF(0, 0, 0, 0, 0, 0, 6, 7, 8, 9, 10, 11));
}
END_TEST

/* Operands converted to the computation type keep their layout too. */
START_TEST(test_output_strides_converted_operands)
{
    tc_tensor *it = K(tc_t(ch03_igrid(S(2, 3))));

    /* (torch.arange(6).view(2,3).t() + 0.5).stride() == (1, 3), float32 */
    EXPECT_STRIDED(tc_add(it, K(tc_number(0.5))), TC_FLOAT32, S(3, 2), S(1, 3), CH03_EXACT,
                   VF(0.5, 3.5, 1.5, 4.5, 2.5, 5.5));
}
END_TEST

START_TEST(test_output_strides_converted_div)
{
    /* (torch.arange(6).view(2,3).t() / 2).stride() == (1, 3), float32 */
    EXPECT_STRIDED(tc_div(K(tc_t(ch03_igrid(S(2, 3)))), K(tc_number(2))), TC_FLOAT32, S(3, 2),
                   S(1, 3), CH03_EXACT, VF(0, 1.5, 0.5, 2, 1, 2.5));
}
END_TEST

START_TEST(test_output_strides_converted_unary)
{
    /* torch.exp(torch.arange(4).view(2,2).t()).stride() == (1, 2), float32 */
    EXPECT_STRIDED(tc_exp(K(tc_t(ch03_igrid(S(2, 2))))), TC_FLOAT32, S(2, 2), S(1, 2), CH03_F32,
                   VF(1.0, 7.389056205749512, 2.7182817459106445, 20.08553695678711));
}
END_TEST

/* ------------------------------------------------------ 5. reductions */

/* tc_max_dim / tc_min_dim: values and indices, both checked and kept. */
static void ch03_values_indices(int line, const char *what, int rc, tc_tensor *values,
                                tc_tensor *indices, tc_dtype dtype, tc_shape sizes,
                                ch03_values want_values, ch03_values want_indices)
{
    ck_assert_msg(rc == 0 && values != NULL && indices != NULL, "line %d: %s failed: %s",
                  line, what, tc_error() != NULL ? tc_error() : "(no message)");
    ch03_check(line, what, values, dtype, sizes, NULL, CH03_EXACT, want_values);
    ch03_check(line, what, indices, TC_INT64, sizes, NULL, CH03_EXACT, want_indices);
}

#define EXPECT_MAX(fn, x, dim, keepdim, dtype, sizes, want_values, want_indices)       \
    do {                                                                             \
        tc_tensor *v_ = NULL, *i_ = NULL;                                            \
        int rc_ = fn((x), (dim), (keepdim), &v_, &i_);                               \
        ch03_values_indices(__LINE__, #fn "(" #x ", " #dim ")", rc_, v_, i_, dtype,  \
                            sizes, want_values, want_indices);                       \
    } while (0)

#define MAX_FAILS(fn, x, dim, expected)                                             \
    do {                                                                             \
        tc_tensor *v_ = (tc_tensor *)1, *i_ = (tc_tensor *)1;                        \
        tc_clear_error();                                                            \
        ck_assert_int_eq(fn((x), (dim), false, &v_, &i_), -1);                       \
        ck_assert_ptr_null(v_);                                                      \
        ck_assert_ptr_null(i_);                                                      \
        testing_fails(__LINE__, #fn, NULL, expected);                                   \
    } while (0)

START_TEST(test_sum)
{
    tc_tensor *y = ch03_grid(S(2, 3, 4));

    /* y = torch.arange(24.).view(2,3,4); y.sum() == tensor(276.) */
    EXPECT_STRIDED(tc_sum(y), TC_FLOAT32, S0, S0, CH03_EXACT, VF(276));
    /* y.sum(1).tolist(), shape (2, 4) */
    EXPECT_STRIDED(tc_sum_dims(y, S(1), false), TC_FLOAT32, S(2, 4), S(4, 1), CH03_EXACT,
                   VF(12, 15, 18, 21, 48, 51, 54, 57));
    /* y.sum((0,2)).tolist() == [60.0, 92.0, 124.0] */
    EXPECT(tc_sum_dims(y, S(0, 2), false), TC_FLOAT32, S(3), CH03_EXACT, VF(60, 92, 124));
    /* y.sum((0,2), keepdim=True): shape (1, 3, 1), stride (3, 1, 1) */
    EXPECT_STRIDED(tc_sum_dims(y, S(0, 2), true), TC_FLOAT32, S(1, 3, 1), S(3, 1, 1),
                   CH03_EXACT, VF(60, 92, 124));
    /* y.sum(-1).tolist(), shape (2, 3) */
    EXPECT(tc_sum_dims(y, S(-1), false), TC_FLOAT32, S(2, 3), CH03_EXACT,
           VF(6, 22, 38, 54, 70, 86));
    /* y.sum((-1,-3), keepdim=True): shape (1, 3, 1) */
    EXPECT(tc_sum_dims(y, S(-1, -3), true), TC_FLOAT32, S(1, 3, 1), CH03_EXACT,
           VF(60, 92, 124));
    /* y.sum((0,1,2)) == tensor(276.); with keepdim=True, shape (1, 1, 1) */
    EXPECT(tc_sum_dims(y, S(0, 1, 2), false), TC_FLOAT32, S0, CH03_EXACT, VF(276));
    EXPECT(tc_sum_dims(y, S(2, 0, 1), true), TC_FLOAT32, S(1, 1, 1), CH03_EXACT, VF(276));
    /* y.transpose(0,2).sum(1).tolist(), shape (4, 2) */
    EXPECT_STRIDED(tc_sum_dims(K(tc_transpose(y, 0, 2)), S(1), false), TC_FLOAT32, S(4, 2),
                   S(2, 1), CH03_EXACT, VF(12, 48, 15, 51, 18, 54, 21, 57));
    /* y.transpose(0,2).sum(1, keepdim=True): shape (4, 1, 2), stride (2, 2, 1) */
    EXPECT_STRIDED(tc_sum_dims(K(tc_transpose(y, 0, 2)), S(1), true), TC_FLOAT32, S(4, 1, 2),
                   S(2, 2, 1), CH03_EXACT, VF(12, 48, 15, 51, 18, 54, 21, 57));
    /* torch.arange(10).view(2,5).sum(0).tolist() == [5, 7, 9, 11, 13], int64 */
    EXPECT(tc_sum_dims(ch03_igrid(S(2, 5)), S(0), false), TC_INT64, S(5), CH03_EXACT,
           VI(5, 7, 9, 11, 13));
    /* torch.arange(6).view(2,3).sum(1, keepdim=True).tolist() == [[3], [12]] */
    EXPECT(tc_sum_dims(ch03_igrid(S(2, 3)), S(1), true), TC_INT64, S(2, 1), CH03_EXACT,
           VI(3, 12));
    /* torch.arange(5,dtype=torch.float64).sum() == 10., float64 */
    EXPECT(tc_sum(K(F64(S(5), 0, 1, 2, 3, 4))), TC_FLOAT64, S0, CH03_EXACT, VF(10));
    /* torch.tensor([[0.1,0.2],[0.3,0.4]],dtype=torch.float64).sum(1).tolist() */
    EXPECT(tc_sum_dims(K(F64(S(2, 2), 0.1, 0.2, 0.3, 0.4)), S(1), false), TC_FLOAT64, S(2),
           CH03_EXACT, VF(0.30000000000000004, 0.7));
    /* torch.tensor([2**63-1, 1]).sum() == -9223372036854775808: wraps */
    EXPECT(tc_sum(K(I64(S(2), INT64_MAX, 1))), TC_INT64, S0, CH03_EXACT, VI(INT64_MIN));
}
END_TEST

START_TEST(test_sum_bool_empty_scalar)
{
    /* torch.tensor([True,False,True]).sum() == tensor(2), int64 */
    EXPECT(tc_sum(K(B8(S(3), true, false, true))), TC_INT64, S0, CH03_EXACT, VI(2));
    /* torch.tensor([[True,False,True],[True,True,True]]).sum(1).tolist() == [2, 3] */
    EXPECT(tc_sum_dims(K(B8(S(2, 3), true, false, true, true, true, true)), S(1), false),
           TC_INT64, S(2), CH03_EXACT, VI(2, 3));
    /* torch.tensor([[True,False],[True,True]]).sum(0, keepdim=True).tolist() == [[2, 1]] */
    EXPECT(tc_sum_dims(K(B8(S(2, 2), true, false, true, true)), S(0), true), TC_INT64, S(1, 2),
           CH03_EXACT, VI(2, 1));
    /* torch.tensor(True).sum() == tensor(1) */
    EXPECT(tc_sum(K(B8(S0, true))), TC_INT64, S0, CH03_EXACT, VI(1));
    /* torch.zeros(0).sum() == tensor(0.) */
    EXPECT(tc_sum(K(tc_zeros(S(0), TC_FLOAT32))), TC_FLOAT32, S0, CH03_EXACT, VF(0));
    /* torch.zeros(2,0,3).sum(1): zeros of shape (2, 3) */
    EXPECT(tc_sum_dims(K(tc_zeros(S(2, 0, 3), TC_FLOAT32)), S(1), false), TC_FLOAT32, S(2, 3),
           CH03_EXACT, VF(0, 0, 0, 0, 0, 0));
    /* torch.zeros(2,0,3).sum(0).shape == (0, 3) */
    EXPECT(tc_sum_dims(K(tc_zeros(S(2, 0, 3), TC_FLOAT32)), S(0), false), TC_FLOAT32, S(0, 3),
           CH03_EXACT, VNONE);
    /* torch.tensor(5.).sum() == tensor(5.); torch.tensor(5).sum() == tensor(5) */
    EXPECT(tc_sum(K(F32(S0, 5))), TC_FLOAT32, S0, CH03_EXACT, VF(5));
    EXPECT(tc_sum(K(I64(S0, 5))), TC_INT64, S0, CH03_EXACT, VI(5));
    /* torch.tensor(5.).sum(0) == tensor(5.); .sum(-1, keepdim=True) is 0-D too */
    EXPECT(tc_sum_dims(K(F32(S0, 5)), S(0), false), TC_FLOAT32, S0, CH03_EXACT, VF(5));
    EXPECT(tc_sum_dims(K(F32(S0, 5)), S(-1), true), TC_FLOAT32, S0, CH03_EXACT, VF(5));
}
END_TEST

START_TEST(test_sum_errors)
{
    tc_tensor *y = ch03_grid(S(2, 3, 4));

    /* y.sum((1,1)) */
    FAILS(tc_sum_dims(y, S(1, 1), false), "dim 1 appears multiple times in the list of dims");
    /* y.sum((1,-2)) */
    FAILS(tc_sum_dims(y, S(1, -2), false), "dim 1 appears multiple times in the list of dims");
    /* y.sum(3) */
    FAILS(tc_sum_dims(y, S(3), false),
          "Dimension out of range (expected to be in range of [-3, 2], but got 3)");
    /* torch.tensor(5.).sum(1) */
    FAILS(tc_sum_dims(K(F32(S0, 5)), S(1), false),
          "Dimension out of range (expected to be in range of [-1, 0], but got 1)");
}
END_TEST

START_TEST(test_sum_scalar_duplicate_dims)
{
    tc_tensor *s = K(F32(S0, 5));

    /* torch.tensor(5.).sum((0,0)) */
    FAILS(tc_sum_dims(s, S(0, 0), false), "dim 0 appears multiple times in the list of dims");
    /* torch.tensor(5.).sum((0,-1)) */
    FAILS(tc_sum_dims(s, S(0, -1), false), "dim 0 appears multiple times in the list of dims");
}
END_TEST

/* torch.full((10**6,), 0.1).sum().item() == 100000.0078125: a float32 sum
   of a million elements stays within 1e-6 of the exact 100000, which a
   sequential float32 accumulation does not. */
START_TEST(test_sum_accuracy)
{
    enum { N = 1000000 };
    tc_tensor *x = K(tc_full(S(N), 0.1, TC_FLOAT32)), *s;
    const float *data = tc_data_ptr(x);
    float naive = 0;
    double got;

    ck_assert_ptr_nonnull(x);
    s = K(tc_sum(x));
    ck_assert_ptr_nonnull(s);
    ck_assert_int_eq(s->dtype, TC_FLOAT32);
    ck_assert_int_eq(tc_get(s, NULL, &got), 0);
    ck_assert_msg(fabs(got - 100000.0) <= 1e-6 * 100000.0, "sum is %.9g", got);
    for (int64_t i = 0; i < N; i++)
        naive += data[i];
    ck_assert_msg(fabs((double)naive - 100000.0) > 1e-6 * 100000.0,
                  "the naive sum %.9g would have passed", (double)naive);
    /* the same through a dim: torch.full((10**6,), 0.1).sum(0).item() == 100000.0078125,
       and torch.full((10**6,), 0.1).mean().item() == 0.10000000894069672 (within 1e-6) */
    EXPECT(tc_sum_dims(x, S(0), false), TC_FLOAT32, S0, 1e-6, VF(100000.0078125));
    EXPECT(tc_mean(x), TC_FLOAT32, S0, 1e-6, VF(0.10000000894069672));
}
END_TEST

START_TEST(test_mean)
{
    tc_tensor *y = ch03_grid(S(2, 3, 4));
    static const char not_float[] =
        "mean(): could not infer output dtype. Input dtype must be either a floating point or "
        "complex dtype. Got: ";

    /* y.mean() == tensor(11.5000) */
    EXPECT(tc_mean(y), TC_FLOAT32, S0, CH03_EXACT, VF(11.5));
    /* y.mean((0,2)).tolist() == [7.5, 11.5, 15.5] */
    EXPECT(tc_mean_dims(y, S(0, 2), false), TC_FLOAT32, S(3), CH03_EXACT, VF(7.5, 11.5, 15.5));
    /* y.mean(1, keepdim=True): shape (2, 1, 4), stride (4, 4, 1) */
    EXPECT_STRIDED(tc_mean_dims(y, S(1), true), TC_FLOAT32, S(2, 1, 4), S(4, 4, 1), CH03_EXACT,
                   VF(4, 5, 6, 7, 16, 17, 18, 19));
    /* y.permute(2,0,1).mean(0).tolist() */
    EXPECT(tc_mean_dims(K(tc_permute(y, S(2, 0, 1))), S(0), false), TC_FLOAT32, S(2, 3),
           CH03_EXACT, VF(1.5, 5.5, 9.5, 13.5, 17.5, 21.5));
    /* torch.tensor([1.,2.,4.],dtype=torch.float64).mean() == 2.3333333333333335 */
    EXPECT(tc_mean(K(F64(S(3), 1, 2, 4))), TC_FLOAT64, S0, CH03_EXACT, VF(2.3333333333333335));
    /* torch.tensor(3.).mean(0) == tensor(3.) */
    EXPECT(tc_mean_dims(K(F32(S0, 3)), S(0), false), TC_FLOAT32, S0, CH03_EXACT, VF(3));
    /* torch.zeros(0).mean() == tensor(nan) */
    EXPECT(tc_mean(K(tc_zeros(S(0), TC_FLOAT32))), TC_FLOAT32, S0, CH03_EXACT, VF(NAN));
    /* torch.zeros(2,0).mean(1).tolist() == [nan, nan]; mean((0,1)) == nan */
    EXPECT(tc_mean_dims(K(tc_zeros(S(2, 0), TC_FLOAT32)), S(1), false), TC_FLOAT32, S(2),
           CH03_EXACT, VF(NAN, NAN));
    EXPECT(tc_mean_dims(K(tc_zeros(S(2, 0), TC_FLOAT32)), S(0, 1), false), TC_FLOAT32, S0,
           CH03_EXACT, VF(NAN));
    /* torch.zeros(2,0).mean(0).shape == (0,) */
    EXPECT(tc_mean_dims(K(tc_zeros(S(2, 0), TC_FLOAT32)), S(0), false), TC_FLOAT32, S(0),
           CH03_EXACT, VNONE);
    /* torch.arange(3).mean(), torch.arange(3).mean(0), torch.tensor([True]).mean() */
    {
        char msg[256];
        snprintf(msg, sizeof msg, "%sLong", not_float);
        FAILS(tc_mean(ch03_igrid(S(3))), msg);
        FAILS(tc_mean_dims(ch03_igrid(S(3)), S(0), false), msg);
        snprintf(msg, sizeof msg, "%sBool", not_float);
        FAILS(tc_mean(K(B8(S(1), true))), msg);
    }
    /* y.mean((0,0)) and y.mean(5) */
    FAILS(tc_mean_dims(y, S(0, 0), false), "dim 0 appears multiple times in the list of dims");
    FAILS(tc_mean_dims(y, S(5), false),
          "Dimension out of range (expected to be in range of [-3, 2], but got 5)");
}
END_TEST

START_TEST(test_max_min)
{
    tc_tensor *m = K(F32(S(2, 3), 3, 1, 3, 2, 5, 5)), *y = ch03_grid(S(2, 3, 4));

    /* m = torch.tensor([[3., 1., 3.], [2., 5., 5.]]); m.max() == 5., m.min() == 1. */
    EXPECT(tc_max(m), TC_FLOAT32, S0, CH03_EXACT, VF(5));
    EXPECT(tc_min(m), TC_FLOAT32, S0, CH03_EXACT, VF(1));
    /* m.max(1) == ([3.0, 5.0], [0, 1]): ties give the first index */
    EXPECT_MAX(tc_max_dim, m, 1, false, TC_FLOAT32, S(2), VF(3, 5), VI(0, 1));
    /* m.min(1) == ([1.0, 2.0], [1, 0]) */
    EXPECT_MAX(tc_min_dim, m, 1, false, TC_FLOAT32, S(2), VF(1, 2), VI(1, 0));
    /* m.max(0) == ([3.0, 5.0, 5.0], [0, 1, 1]) */
    EXPECT_MAX(tc_max_dim, m, 0, false, TC_FLOAT32, S(3), VF(3, 5, 5), VI(0, 1, 1));
    /* torch.tensor([[2., 1., 1.], [0., 0., 4.]]).min(1) == ([1.0, 0.0], [1, 0]): first tie */
    EXPECT_MAX(tc_min_dim, K(F32(S(2, 3), 2, 1, 1, 0, 0, 4)), 1, false, TC_FLOAT32, S(2),
               VF(1, 0), VI(1, 0));
    /* torch.tensor([4, 4, 1]).max(0) == (4, 0) */
    EXPECT_MAX(tc_max_dim, K(I64(S(3), 4, 4, 1)), 0, false, TC_INT64, S0, VI(4), VI(0));
    /* m.min(0) == ([2.0, 1.0, 3.0], [1, 0, 0]) */
    EXPECT_MAX(tc_min_dim, m, 0, false, TC_FLOAT32, S(3), VF(2, 1, 3), VI(1, 0, 0));
    /* m.max(1, keepdim=True): shape (2, 1) */
    EXPECT_MAX(tc_max_dim, m, 1, true, TC_FLOAT32, S(2, 1), VF(3, 5), VI(0, 1));
    /* m.max(-1) == ([3.0, 5.0], [0, 1]) */
    EXPECT_MAX(tc_max_dim, m, -1, false, TC_FLOAT32, S(2), VF(3, 5), VI(0, 1));
    /* y.max(1, keepdim=True): shape (2, 1, 4) */
    EXPECT_MAX(tc_max_dim, y, 1, true, TC_FLOAT32, S(2, 1, 4), VF(8, 9, 10, 11, 20, 21, 22, 23),
               VI(2, 2, 2, 2, 2, 2, 2, 2));
    /* y.min(-3): shape (3, 4), values 0..11, indices 0 */
    EXPECT_MAX(tc_min_dim, y, -3, false, TC_FLOAT32, S(3, 4),
               VF(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11), VI(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0));
    /* torch.arange(6.).view(2,3).t().max(1) == ([3.0, 4.0, 5.0], [1, 1, 1]) */
    EXPECT_MAX(tc_max_dim, K(tc_t(ch03_grid(S(2, 3)))), 1, false, TC_FLOAT32, S(3), VF(3, 4, 5),
               VI(1, 1, 1));
    /* torch.tensor([[3, -7], [9, 9]]).max(1) == ([3, 9], [0, 0]); .min() == -7 */
    EXPECT_MAX(tc_max_dim, K(I64(S(2, 2), 3, -7, 9, 9)), 1, false, TC_INT64, S(2), VI(3, 9),
               VI(0, 0));
    EXPECT(tc_min(K(I64(S(2, 2), 3, -7, 9, 9))), TC_INT64, S0, CH03_EXACT, VI(-7));
    /* torch.tensor([2**53+1, 2**53]).max(0) == (9007199254740993, 0): exact int64 compare */
    EXPECT_MAX(tc_max_dim, K(I64(S(2), 9007199254740993LL, 9007199254740992LL)), 0, false,
               TC_INT64, S0, VI(9007199254740993LL), VI(0));
    /* torch.tensor([[1.5, -2.],[0.25, 8.]],dtype=torch.float64).max(0) == ([1.5, 8.0], [0, 1]) */
    EXPECT_MAX(tc_max_dim, K(F64(S(2, 2), 1.5, -2, 0.25, 8)), 0, false, TC_FLOAT64, S(2),
               VF(1.5, 8), VI(0, 1));
    /* torch.tensor([inf, -inf]).min(0) == (-inf, 1) */
    EXPECT_MAX(tc_min_dim, K(F32(S(2), INFINITY, -INFINITY)), 0, false, TC_FLOAT32, S0,
               VF(-INFINITY), VI(1));
    /* torch.tensor([False, True, True]).max(0) == (True, 1); .min(0) of [True, False, False]
       == (False, 1); torch.tensor([False, True]).max() == True */
    EXPECT_MAX(tc_max_dim, K(B8(S(3), false, true, true)), 0, false, TC_BOOL, S0, VI(1), VI(1));
    EXPECT_MAX(tc_min_dim, K(B8(S(3), true, false, false)), 0, false, TC_BOOL, S0, VI(0), VI(1));
    EXPECT(tc_max(K(B8(S(2), false, true))), TC_BOOL, S0, CH03_EXACT, VI(1));
    /* torch.tensor(7.).max(0) == (7., 0); .max(-1, keepdim=True) is 0-D; .max() == 7. */
    EXPECT_MAX(tc_max_dim, K(F32(S0, 7)), 0, false, TC_FLOAT32, S0, VF(7), VI(0));
    EXPECT_MAX(tc_max_dim, K(F32(S0, 7)), -1, true, TC_FLOAT32, S0, VF(7), VI(0));
    EXPECT(tc_max(K(F32(S0, 7))), TC_FLOAT32, S0, CH03_EXACT, VF(7));
    /* torch.zeros(2,0).max(0) and torch.zeros(0,3).max(1): empty results of shape (0,) */
    EXPECT_MAX(tc_max_dim, K(tc_zeros(S(2, 0), TC_FLOAT32)), 0, false, TC_FLOAT32, S(0), VNONE,
               VNONE);
    EXPECT_MAX(tc_max_dim, K(tc_zeros(S(0, 3), TC_FLOAT32)), 1, false, TC_FLOAT32, S(0), VNONE,
               VNONE);
}
END_TEST

START_TEST(test_max_min_nan)
{
    tc_tensor *mn = K(F32(S(2, 4), 1, NAN, 3, NAN, 4, 2, 0, 1));

    /* mn = torch.tensor([[1., nan, 3., nan], [4., 2., 0., 1.]]); mn.max() and mn.min() are nan */
    EXPECT(tc_max(mn), TC_FLOAT32, S0, CH03_EXACT, VF(NAN));
    EXPECT(tc_min(mn), TC_FLOAT32, S0, CH03_EXACT, VF(NAN));
    /* mn.max(1) == ([nan, 4.0], [1, 0]): the first NaN wins */
    EXPECT_MAX(tc_max_dim, mn, 1, false, TC_FLOAT32, S(2), VF(NAN, 4), VI(1, 0));
    /* mn.min(1) == ([nan, 0.0], [1, 2]) */
    EXPECT_MAX(tc_min_dim, mn, 1, false, TC_FLOAT32, S(2), VF(NAN, 0), VI(1, 2));
    /* mn.max(0) == ([4.0, nan, 3.0, nan], [1, 0, 0, 0]) */
    EXPECT_MAX(tc_max_dim, mn, 0, false, TC_FLOAT32, S(4), VF(4, NAN, 3, NAN), VI(1, 0, 0, 0));
    /* torch.tensor([nan, -1.]).min(0) == (nan, 0) */
    EXPECT_MAX(tc_min_dim, K(F32(S(2), NAN, -1)), 0, false, TC_FLOAT32, S0, VF(NAN), VI(0));
    /* mn.argmax() == 1; mn.argmax(1).tolist() == [1, 0] */
    EXPECT(tc_argmax(mn), TC_INT64, S0, CH03_EXACT, VI(1));
    EXPECT(tc_argmax_dim(mn, 1, false), TC_INT64, S(2), CH03_EXACT, VI(1, 0));
    /* torch.tensor([1., nan, nan],dtype=torch.float64).argmax() == 1 */
    EXPECT(tc_argmax(K(F64(S(3), 1, NAN, NAN))), TC_INT64, S0, CH03_EXACT, VI(1));
}
END_TEST

START_TEST(test_max_min_errors)
{
    tc_tensor *m = K(F32(S(2, 3), 3, 1, 3, 2, 5, 5)), *e = K(tc_zeros(S(2, 0), TC_FLOAT32));

    /* torch.zeros(0).max() and .min() */
    FAILS(tc_max(K(tc_zeros(S(0), TC_FLOAT32))),
          "max(): Expected reduction dim to be specified for input.numel() == 0. Specify the "
          "reduction dim with the 'dim' argument.");
    FAILS(tc_min(K(tc_zeros(S(0), TC_FLOAT32))),
          "min(): Expected reduction dim to be specified for input.numel() == 0. Specify the "
          "reduction dim with the 'dim' argument.");
    /* torch.zeros(2,0).max(1) and .min(1) */
    MAX_FAILS(tc_max_dim, e, 1, "max(): Expected reduction dim 1 to have non-zero size.");
    MAX_FAILS(tc_min_dim, e, 1, "min(): Expected reduction dim 1 to have non-zero size.");
    MAX_FAILS(tc_max_dim, e, -1, "max(): Expected reduction dim 1 to have non-zero size.");
    /* m.max(2) */
    MAX_FAILS(tc_max_dim, m, 2,
              "Dimension out of range (expected to be in range of [-2, 1], but got 2)");
    /* torch.tensor(7.).max(1) */
    MAX_FAILS(tc_max_dim, K(F32(S0, 7)), 1,
              "Dimension out of range (expected to be in range of [-1, 0], but got 1)");
}
END_TEST

START_TEST(test_argmax)
{
    tc_tensor *m = K(F32(S(2, 3), 3, 1, 3, 2, 5, 5)), *y = ch03_grid(S(2, 3, 4));

    /* m.argmax() == 4: the first of the two 5s, in row-major order */
    EXPECT(tc_argmax(m), TC_INT64, S0, CH03_EXACT, VI(4));
    /* m.argmax(1).tolist() == [0, 1]; m.argmax(0).tolist() == [0, 1, 1] */
    EXPECT(tc_argmax_dim(m, 1, false), TC_INT64, S(2), CH03_EXACT, VI(0, 1));
    EXPECT(tc_argmax_dim(m, 0, false), TC_INT64, S(3), CH03_EXACT, VI(0, 1, 1));
    /* m.argmax(1, keepdim=True).tolist() == [[0], [1]] */
    EXPECT_STRIDED(tc_argmax_dim(m, 1, true), TC_INT64, S(2, 1), S(1, 1), CH03_EXACT, VI(0, 1));
    /* y.argmax(-2): shape (2, 4), all 2 */
    EXPECT(tc_argmax_dim(y, -2, false), TC_INT64, S(2, 4), CH03_EXACT,
           VI(2, 2, 2, 2, 2, 2, 2, 2));
    /* y.argmax(2, keepdim=True): shape (2, 3, 1), all 3 */
    EXPECT(tc_argmax_dim(y, 2, true), TC_INT64, S(2, 3, 1), CH03_EXACT, VI(3, 3, 3, 3, 3, 3));
    /* torch.tensor([[1, 5, 5], [-1, -3, -1]]).argmax(1).tolist() == [1, 0] */
    EXPECT(tc_argmax_dim(K(I64(S(2, 3), 1, 5, 5, -1, -3, -1)), 1, false), TC_INT64, S(2),
           CH03_EXACT, VI(1, 0));
    /* torch.tensor([2**53, 2**53+1]).argmax() == 1 */
    EXPECT(tc_argmax(K(I64(S(2), 9007199254740992LL, 9007199254740993LL))), TC_INT64, S0,
           CH03_EXACT, VI(1));
    /* torch.tensor(7.).argmax() == 0 and .argmax(0) == 0 */
    EXPECT(tc_argmax(K(F32(S0, 7))), TC_INT64, S0, CH03_EXACT, VI(0));
    EXPECT(tc_argmax_dim(K(F32(S0, 7)), 0, false), TC_INT64, S0, CH03_EXACT, VI(0));
    /* torch.zeros(2,0).argmax(0).shape == (0,) */
    EXPECT(tc_argmax_dim(K(tc_zeros(S(2, 0), TC_FLOAT32)), 0, false), TC_INT64, S(0),
           CH03_EXACT, VNONE);
    /* torch.zeros(0).argmax() */
    FAILS(tc_argmax(K(tc_zeros(S(0), TC_FLOAT32))),
          "argmax(): Expected reduction dim to be specified for input.numel() == 0.");
    /* torch.zeros(2,0).argmax(1) */
    FAILS(tc_argmax_dim(K(tc_zeros(S(2, 0), TC_FLOAT32)), 1, false),
          "argmax(): Expected reduction dim 1 to have non-zero size.");
    /* m.argmax(-3) */
    FAILS(tc_argmax_dim(m, -3, false),
          "Dimension out of range (expected to be in range of [-2, 1], but got -3)");
}
END_TEST

START_TEST(test_argmax_bool)
{
    /* torch.tensor([False, True, True]).argmax() */
    FAILS(tc_argmax(K(B8(S(3), false, true, true))), "\"argmax_cpu\" not implemented for 'Bool'");
}
END_TEST

START_TEST(test_sum_to_size)
{
    tc_tensor *x = ch03_grid(S(3, 4)), *r;

    /* x = torch.arange(12.).view(3,4); x.sum_to_size(1,4).tolist() == [[12., 15., 18., 21.]] */
    EXPECT(tc_sum_to_size(x, S(1, 4)), TC_FLOAT32, S(1, 4), CH03_EXACT, VF(12, 15, 18, 21));
    /* x.sum_to_size(3,1).tolist() == [[6.], [22.], [38.]] */
    EXPECT(tc_sum_to_size(x, S(3, 1)), TC_FLOAT32, S(3, 1), CH03_EXACT, VF(6, 22, 38));
    /* x.sum_to_size(4).tolist() == [12., 15., 18., 21.] */
    EXPECT(tc_sum_to_size(x, S(4)), TC_FLOAT32, S(4), CH03_EXACT, VF(12, 15, 18, 21));
    /* x.sum_to_size(1,1) == [[66.]]; x.sum_to_size(()) == tensor(66.) */
    EXPECT(tc_sum_to_size(x, S(1, 1)), TC_FLOAT32, S(1, 1), CH03_EXACT, VF(66));
    EXPECT(tc_sum_to_size(x, S0), TC_FLOAT32, S0, CH03_EXACT, VF(66));
    /* torch.arange(24.).view(2,3,4).sum_to_size(3,1).tolist() == [[60.], [92.], [124.]] */
    EXPECT(tc_sum_to_size(ch03_grid(S(2, 3, 4)), S(3, 1)), TC_FLOAT32, S(3, 1), CH03_EXACT,
           VF(60, 92, 124));
    /* torch.arange(6).view(2,3).sum_to_size(1,3).tolist() == [[3, 5, 7]], int64 */
    EXPECT(tc_sum_to_size(ch03_igrid(S(2, 3)), S(1, 3)), TC_INT64, S(1, 3), CH03_EXACT,
           VI(3, 5, 7));
    /* torch.tensor([[True,True],[False,True]]).sum_to_size(1,2).tolist() == [[1, 2]], int64;
       .sum_to_size(2).tolist() == [1, 2] */
    EXPECT(tc_sum_to_size(K(B8(S(2, 2), true, true, false, true)), S(1, 2)), TC_INT64, S(1, 2),
           CH03_EXACT, VI(1, 2));
    EXPECT(tc_sum_to_size(K(B8(S(2, 2), true, true, false, true)), S(2)), TC_INT64, S(2),
           CH03_EXACT, VI(1, 2));
    /* torch.zeros(0,3).sum_to_size(1,3).tolist() == [[0., 0., 0.]] */
    EXPECT(tc_sum_to_size(K(tc_zeros(S(0, 3), TC_FLOAT32)), S(1, 3)), TC_FLOAT32, S(1, 3),
           CH03_EXACT, VF(0, 0, 0));
    /* torch.zeros(2,0).sum_to_size(1,0).shape == (1, 0) */
    EXPECT(tc_sum_to_size(K(tc_zeros(S(2, 0), TC_FLOAT32)), S(1, 0)), TC_FLOAT32, S(1, 0),
           CH03_EXACT, VNONE);
    /* x.sum_to_size(3,4) is x */
    r = tc_sum_to_size(x, S(3, 4));
    ck_assert_ptr_eq(r, x);
    tc_release(r);
    /* b = torch.tensor([[True,True],[False,True]]); b.sum_to_size(2,2) is b (still bool) */
    {
        tc_tensor *b = K(B8(S(2, 2), true, true, false, true));
        r = tc_sum_to_size(b, S(2, 2));
        ck_assert_ptr_eq(r, b);
        tc_release(r);
    }
    /* torch.ones(1,3).sum_to_size(1,3) is the tensor itself */
    {
        tc_tensor *o = K(tc_ones(S(1, 3), TC_FLOAT32));
        r = tc_sum_to_size(o, S(1, 3));
        ck_assert_ptr_eq(r, o);
        tc_release(r);
    }
    /* x.sum_to_size(2,4) */
    FAILS(tc_sum_to_size(x, S(2, 4)), "size {[2, 4]} is not expandable to size {[3, 4]}.");
    /* x.sum_to_size(3,2) */
    FAILS(tc_sum_to_size(x, S(3, 2)), "size {[3, 2]} is not expandable to size {[3, 4]}.");
    /* x.sum_to_size(5) */
    FAILS(tc_sum_to_size(x, S(5)), "size {[5]} is not expandable to size {[3, 4]}.");
    /* torch.arange(3.).sum_to_size(1,3) */
    FAILS(tc_sum_to_size(ch03_grid(S(3)), S(1, 3)),
          "size {[1, 3]} is not expandable to size {[3]}.");
    /* torch.arange(6.).view(2,3).sum_to_size(1,1,3) */
    FAILS(tc_sum_to_size(ch03_grid(S(2, 3)), S(1, 1, 3)),
          "size {[1, 1, 3]} is not expandable to size {[2, 3]}.");
}
END_TEST

/* ---------------------------------------------------------- 6. matmul */

START_TEST(test_matmul_shapes)
{
    tc_tensor *v3 = K(F32(S(3), 1, -2, 3)), *v2 = K(F32(S(2), 1, -2));

    /* torch.arange(3.) @ torch.tensor([1., -2., 3.]) == tensor(4.) */
    EXPECT_STRIDED(tc_matmul(ch03_grid(S(3)), v3), TC_FLOAT32, S0, S0, CH03_EXACT, VF(4));
    /* torch.arange(6.).view(2,3) @ torch.tensor([1., -2., 3.]) == [4., 10.] */
    EXPECT_STRIDED(tc_matmul(ch03_grid(S(2, 3)), v3), TC_FLOAT32, S(2), S(1), CH03_EXACT,
                   VF(4, 10));
    /* torch.tensor([1., -2.]) @ torch.arange(6.).view(2,3) == [-6., -7., -8.] */
    EXPECT_STRIDED(tc_matmul(v2, ch03_grid(S(2, 3))), TC_FLOAT32, S(3), S(1), CH03_EXACT,
                   VF(-6, -7, -8));
    /* torch.arange(6.).view(2,3) @ torch.arange(6.).view(3,2): stride (2, 1) */
    EXPECT_STRIDED(tc_matmul(ch03_grid(S(2, 3)), ch03_grid(S(3, 2))), TC_FLOAT32, S(2, 2),
                   S(2, 1), CH03_EXACT, VF(10, 13, 28, 40));
    /* torch.arange(12.).view(2,2,3) @ torch.arange(6.).view(3,2): shape (2, 2, 2) */
    EXPECT_STRIDED(tc_matmul(ch03_grid(S(2, 2, 3)), ch03_grid(S(3, 2))), TC_FLOAT32, S(2, 2, 2),
                   S(4, 2, 1), CH03_EXACT, VF(10, 13, 28, 40, 46, 67, 64, 94));
    /* torch.arange(12.).view(2,2,3) @ torch.tensor([1., -2., 3.]): shape (2, 2) */
    EXPECT_STRIDED(tc_matmul(ch03_grid(S(2, 2, 3)), v3), TC_FLOAT32, S(2, 2), S(2, 1),
                   CH03_EXACT, VF(4, 10, 16, 22));
    /* torch.tensor([1., -2.]) @ torch.arange(12.).view(2,2,3): shape (2, 3) */
    EXPECT_STRIDED(tc_matmul(v2, ch03_grid(S(2, 2, 3))), TC_FLOAT32, S(2, 3), S(3, 1),
                   CH03_EXACT, VF(-6, -7, -8, -12, -13, -14));
    /* torch.arange(6.).view(2,3) @ torch.arange(12.).view(2,3,2): shape (2, 2, 2) */
    EXPECT_STRIDED(tc_matmul(ch03_grid(S(2, 3)), ch03_grid(S(2, 3, 2))), TC_FLOAT32, S(2, 2, 2),
                   S(4, 2, 1), CH03_EXACT, VF(10, 13, 28, 40, 28, 31, 100, 112));
    /* torch.arange(12.).view(2,2,3) @ torch.arange(12.).view(2,3,2) */
    EXPECT_STRIDED(tc_matmul(ch03_grid(S(2, 2, 3)), ch03_grid(S(2, 3, 2))), TC_FLOAT32,
                   S(2, 2, 2), S(4, 2, 1), CH03_EXACT, VF(10, 13, 28, 40, 172, 193, 244, 274));
    /* (torch.ones(2,1,3,4) @ torch.ones(5,4,2)).shape == (2, 5, 3, 2),
       stride (30, 6, 2, 1), all 4 */
    {
        tc_tensor *r = tc_matmul(K(tc_ones(S(2, 1, 3, 4), TC_FLOAT32)),
                                 K(tc_ones(S(5, 4, 2), TC_FLOAT32)));
        EXPECT_STRIDED(tc_retain(r), TC_FLOAT32, S(2, 5, 3, 2), S(30, 6, 2, 1), CH03_EXACT,
                       VF(4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4,
                          4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4,
                          4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4));
        tc_release(r);
    }
    /* torch.arange(12.).view(2,1,2,3) @ torch.arange(9.).view(3,3,1): shape (2, 3, 2, 1) */
    EXPECT_STRIDED(tc_matmul(ch03_grid(S(2, 1, 2, 3)), ch03_grid(S(3, 3, 1))), TC_FLOAT32,
                   S(2, 3, 2, 1), S(6, 2, 1, 1), CH03_EXACT,
                   VF(5, 14, 14, 50, 23, 86, 23, 32, 86, 122, 149, 212));
    /* (torch.ones(3,1) @ torch.ones(1,3)): all 1, shape (3, 3) */
    EXPECT(tc_matmul(K(tc_ones(S(3, 1), TC_FLOAT32)), K(tc_ones(S(1, 3), TC_FLOAT32))),
           TC_FLOAT32, S(3, 3), CH03_EXACT, VF(1, 1, 1, 1, 1, 1, 1, 1, 1));
}
END_TEST

START_TEST(test_matmul_types_and_layouts)
{
    /* torch.arange(6).view(2,3) @ torch.arange(6).view(3,2) == [[10, 13], [28, 40]], int64 */
    EXPECT(tc_matmul(ch03_igrid(S(2, 3)), ch03_igrid(S(3, 2))), TC_INT64, S(2, 2), CH03_EXACT,
           VI(10, 13, 28, 40));
    /* torch.tensor([1,-1]) @ torch.arange(6).view(2,3) == [-3, -3, -3] */
    EXPECT(tc_matmul(K(I64(S(2), 1, -1)), ch03_igrid(S(2, 3))), TC_INT64, S(3), CH03_EXACT,
           VI(-3, -3, -3));
    /* torch.arange(3) @ torch.tensor([2**62, 2, 2**62]) == -9223372036854775806: wraps */
    EXPECT(tc_matmul(ch03_igrid(S(3)), K(I64(S(3), 4611686018427387904LL, 2,
                                           4611686018427387904LL))),
           TC_INT64, S0, CH03_EXACT, VI(-9223372036854775806LL));
    /* torch.arange(6.).view(2,3).double() @ torch.arange(6.).view(3,2).double(), float64 */
    EXPECT(tc_matmul(K(F64(S(2, 3), 0, 1, 2, 3, 4, 5)), K(F64(S(3, 2), 0, 1, 2, 3, 4, 5))),
           TC_FLOAT64, S(2, 2), CH03_EXACT, VF(10, 13, 28, 40));
    /* torch.arange(6.).view(3,2).t() @ torch.arange(6.).view(2,3).t() == [[10, 28], [13, 40]] */
    EXPECT_STRIDED(tc_matmul(K(tc_t(ch03_grid(S(3, 2)))), K(tc_t(ch03_grid(S(2, 3))))),
                   TC_FLOAT32, S(2, 2), S(2, 1), CH03_EXACT, VF(10, 28, 13, 40));
    /* torch.arange(12.).view(2,3,2).transpose(1,2) @ torch.arange(12.).view(2,3,2) */
    EXPECT(tc_matmul(K(tc_transpose(ch03_grid(S(2, 3, 2)), 1, 2)), ch03_grid(S(2, 3, 2))),
           TC_FLOAT32, S(2, 2, 2), CH03_EXACT, VF(20, 26, 26, 35, 200, 224, 224, 251));
}
END_TEST

/* Products with an empty operand or result. */
START_TEST(test_matmul_empty)
{
    /* empty inner dimension: torch.ones(2,0) @ torch.ones(0,3) == zeros(2, 3) */
    EXPECT(tc_matmul(K(tc_ones(S(2, 0), TC_FLOAT32)), K(tc_ones(S(0, 3), TC_FLOAT32))),
           TC_FLOAT32, S(2, 3), CH03_EXACT, VF(0, 0, 0, 0, 0, 0));
    /* torch.ones(0) @ torch.ones(0) == tensor(0.) */
    EXPECT(tc_matmul(K(tc_ones(S(0), TC_FLOAT32)), K(tc_ones(S(0), TC_FLOAT32))), TC_FLOAT32, S0,
           CH03_EXACT, VF(0));
    /* (torch.ones(0,2,3) @ torch.ones(3,4)).shape == (0, 2, 4) */
    EXPECT(tc_matmul(K(tc_ones(S(0, 2, 3), TC_FLOAT32)), K(tc_ones(S(3, 4), TC_FLOAT32))),
           TC_FLOAT32, S(0, 2, 4), CH03_EXACT, VNONE);
    /* (torch.ones(2,0,3) @ torch.ones(3,4)).shape == (2, 0, 4) */
    EXPECT(tc_matmul(K(tc_ones(S(2, 0, 3), TC_FLOAT32)), K(tc_ones(S(3, 4), TC_FLOAT32))),
           TC_FLOAT32, S(2, 0, 4), CH03_EXACT, VNONE);
}
END_TEST

/* Batched products with an empty matrix dimension. */
START_TEST(test_matmul_empty_fold)
{
    /* torch.ones(2,3,0) @ torch.ones(0,4) == zeros(2, 3, 4) */
    EXPECT(tc_matmul(K(tc_ones(S(2, 3, 0), TC_FLOAT32)), K(tc_ones(S(0, 4), TC_FLOAT32))),
           TC_FLOAT32, S(2, 3, 4), CH03_EXACT,
           VF(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0));
}
END_TEST

START_TEST(test_matmul_empty_vector_batch)
{
    /* torch.ones(0) @ torch.ones(2,0,3) == zeros(2, 3) */
    EXPECT(tc_matmul(K(tc_ones(S(0), TC_FLOAT32)), K(tc_ones(S(2, 0, 3), TC_FLOAT32))),
           TC_FLOAT32, S(2, 3), CH03_EXACT, VF(0, 0, 0, 0, 0, 0));
}
END_TEST

START_TEST(test_matmul_empty_bmm)
{
    /* torch.ones(2,2,0) @ torch.ones(2,0,3) == zeros(2, 2, 3) */
    EXPECT(tc_matmul(K(tc_ones(S(2, 2, 0), TC_FLOAT32)), K(tc_ones(S(2, 0, 3), TC_FLOAT32))),
           TC_FLOAT32, S(2, 2, 3), CH03_EXACT, VF(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0));
    /* (torch.ones(2,0,3) @ torch.ones(2,3,4)).shape == (2, 0, 4) */
    EXPECT(tc_matmul(K(tc_ones(S(2, 0, 3), TC_FLOAT32)), K(tc_ones(S(2, 3, 4), TC_FLOAT32))),
           TC_FLOAT32, S(2, 0, 4), CH03_EXACT, VNONE);
}
END_TEST

static tc_tensor *ch03_ones(tc_shape shape, tc_dtype dtype)
{
    return K(tc_ones(shape, dtype));
}

#define O32(...) ch03_ones(S(__VA_ARGS__), TC_FLOAT32)

START_TEST(test_matmul_errors)
{
    /* torch.ones(3) @ torch.ones(4) */
    FAILS(tc_matmul(O32(3), O32(4)),
          "inconsistent tensor size, expected tensor [3] and src [4] to have the same number "
          "of elements, but got 3 and 4 elements respectively");
    /* torch.ones(2,3) @ torch.ones(4,5) */
    FAILS(tc_matmul(O32(2, 3), O32(4, 5)),
          "mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)");
    /* torch.ones(3) @ torch.ones(4,5) */
    FAILS(tc_matmul(O32(3), O32(4, 5)),
          "mat1 and mat2 shapes cannot be multiplied (1x3 and 4x5)");
    /* torch.ones(2,3,4) @ torch.ones(5,6) */
    FAILS(tc_matmul(O32(2, 3, 4), O32(5, 6)),
          "mat1 and mat2 shapes cannot be multiplied (6x4 and 5x6)");
    /* torch.ones(2,3) @ torch.ones(4) */
    FAILS(tc_matmul(O32(2, 3), O32(4)), "size mismatch, got 2, 2x3,4");
    /* torch.ones(2,5,3) @ torch.ones(4) */
    FAILS(tc_matmul(O32(2, 5, 3), O32(4)), "size mismatch, got 10, 10x3,4");
    /* torch.ones(5) @ torch.ones(2,4,3) */
    FAILS(tc_matmul(O32(5), O32(2, 4, 3)), "size mismatch, got 6, 6x4,5");
    /* torch.ones(5) @ torch.ones(2,4,6) */
    FAILS(tc_matmul(O32(5), O32(2, 4, 6)), "size mismatch, got 12, 12x4,5");
    /* torch.ones(2,2,3) @ torch.ones(2,4,5) */
    FAILS(tc_matmul(O32(2, 2, 3), O32(2, 4, 5)),
          "Expected size for first two dimensions of batch2 tensor to be: [2, 3] but got: "
          "[2, 4].");
    /* torch.ones(2,3,4) @ torch.ones(3,4,5) */
    FAILS(tc_matmul(O32(2, 3, 4), O32(3, 4, 5)),
          "The size of tensor a (2) must match the size of tensor b (3) at non-singleton "
          "dimension 0");
    /* torch.ones(2,2,3,4) @ torch.ones(3,4,5) */
    FAILS(tc_matmul(O32(2, 2, 3, 4), O32(3, 4, 5)),
          "The size of tensor a (2) must match the size of tensor b (3) at non-singleton "
          "dimension 1");
    /* torch.tensor(1.) @ torch.ones(3) */
    FAILS(tc_matmul(K(F32(S0, 1)), O32(3)),
          "both arguments to matmul need to be at least 1D, but they are 0D and 1D");
    /* torch.ones(3,3) @ torch.tensor(1.) */
    FAILS(tc_matmul(O32(3, 3), K(F32(S0, 1))),
          "both arguments to matmul need to be at least 1D, but they are 2D and 0D");
}
END_TEST

START_TEST(test_matmul_dtype_errors)
{
    static const char f_d[] = "expected scalar type Float but found Double";

    /* torch.ones(2,3) @ torch.ones(3,2,dtype=torch.float64) */
    FAILS(tc_matmul(O32(2, 3), ch03_ones(S(3, 2), TC_FLOAT64)), f_d);
    /* torch.ones(2,3,dtype=torch.float64) @ torch.ones(3,2) */
    FAILS(tc_matmul(ch03_ones(S(2, 3), TC_FLOAT64), O32(3, 2)),
          "expected scalar type Double but found Float");
    /* torch.ones(2,3) @ torch.ones(3,dtype=torch.float64) */
    FAILS(tc_matmul(O32(2, 3), ch03_ones(S(3), TC_FLOAT64)), f_d);
    /* torch.ones(3) @ torch.ones(3,2,dtype=torch.float64) */
    FAILS(tc_matmul(O32(3), ch03_ones(S(3, 2), TC_FLOAT64)), f_d);
    /* torch.ones(2,2,3) @ torch.ones(2,3,2,dtype=torch.float64) */
    FAILS(tc_matmul(O32(2, 2, 3), ch03_ones(S(2, 3, 2), TC_FLOAT64)), f_d);
    /* torch.ones(2,2,3) @ torch.ones(3,2,dtype=torch.float64) */
    FAILS(tc_matmul(O32(2, 2, 3), ch03_ones(S(3, 2), TC_FLOAT64)), f_d);
    /* torch.ones(2,3) @ torch.ones(3,2,dtype=torch.int64) */
    FAILS(tc_matmul(O32(2, 3), ch03_ones(S(3, 2), TC_INT64)),
          "expected scalar type Float but found Long");
    /* torch.tensor([1,-1]) @ torch.arange(6.).view(2,3) */
    FAILS(tc_matmul(K(I64(S(2), 1, -1)), ch03_grid(S(2, 3))),
          "expected scalar type Long but found Float");
    /* torch.ones(3) @ torch.ones(3,dtype=torch.float64) */
    FAILS(tc_matmul(O32(3), ch03_ones(S(3), TC_FLOAT64)),
          "dot : expected both vectors to have same dtype, but found Float and Double");
    /* torch.ones(3,dtype=torch.int64) @ torch.ones(3) */
    FAILS(tc_matmul(ch03_ones(S(3), TC_INT64), O32(3)),
          "dot : expected both vectors to have same dtype, but found Long and Float");
    /* torch.ones(2,3,dtype=torch.bool) @ torch.ones(3,2,dtype=torch.bool) */
    FAILS(tc_matmul(ch03_ones(S(2, 3), TC_BOOL), ch03_ones(S(3, 2), TC_BOOL)),
          "\"addmm_impl_cpu_\" not implemented for 'Bool'");
    /* torch.ones(3,dtype=torch.bool) @ torch.ones(3,2,dtype=torch.bool) */
    FAILS(tc_matmul(ch03_ones(S(3), TC_BOOL), ch03_ones(S(3, 2), TC_BOOL)),
          "\"addmm_impl_cpu_\" not implemented for 'Bool'");
    /* torch.ones(2,3,dtype=torch.bool) @ torch.ones(3,dtype=torch.bool) */
    FAILS(tc_matmul(ch03_ones(S(2, 3), TC_BOOL), ch03_ones(S(3), TC_BOOL)),
          "\"addmv_impl_cpu\" not implemented for 'Bool'");
    /* torch.ones(2,2,3,dtype=torch.bool) @ torch.ones(2,3,2,dtype=torch.bool) */
    FAILS(tc_matmul(ch03_ones(S(2, 2, 3), TC_BOOL), ch03_ones(S(2, 3, 2), TC_BOOL)),
          "\"bmm\" not implemented for 'Bool'");
    /* torch.ones(3,dtype=torch.bool) @ torch.ones(3,dtype=torch.bool) */
    FAILS(tc_matmul(ch03_ones(S(3), TC_BOOL), ch03_ones(S(3), TC_BOOL)),
          "\"dot\" not implemented for 'Bool'");
}
END_TEST

/* PyTorch 1.13 folds a 2-D @ 3-D product into one mm of the transposed
   operands (should_fold), so a mismatch is reported by mm. */
START_TEST(test_matmul_2d_3d_error)
{
    /* torch.ones(2,3) @ torch.ones(2,4,5) */
    FAILS(tc_matmul(O32(2, 3), O32(2, 4, 5)),
          "mat1 and mat2 shapes cannot be multiplied (10x4 and 3x2)");
}
END_TEST

/* -------------------------------------------- 7. random strided operands */

/* A fixed-seed xorshift64* generator: the same operands on every run. */
static uint64_t ch03_rng_state;

static uint64_t ch03_rand(void)
{
    ch03_rng_state ^= ch03_rng_state >> 12;
    ch03_rng_state ^= ch03_rng_state << 25;
    ch03_rng_state ^= ch03_rng_state >> 27;
    return ch03_rng_state * 0x2545F4914F6CDD1DULL;
}

static int64_t ch03_below(int64_t n)
{
    return (int64_t)((ch03_rand() >> 11) % (uint64_t)n);
}

/* A tensor of `shape` and dtype holding small random integers (0 or 1 for
   bool), reached through a random permutation, a step-2 slice and an
   expansion of some dimensions, so that it is rarely contiguous. */
static tc_tensor *ch03_random_operand(tc_shape shape, tc_dtype dtype)
{
    tc_shape u = shape, v;
    int64_t perm[TC_MAX_DIMS], inverse[TC_MAX_DIMS], index[TC_MAX_DIMS] = { 0 };
    int64_t sliced = -1, start = 0;
    bool expanded[TC_MAX_DIMS] = { false };
    tc_tensor *c, *x, *y;

    for (int64_t d = 0; d < shape.dim; d++)
        if (shape.sizes[d] != 1 && ch03_below(4) == 0) {
            expanded[d] = true;
            u.sizes[d] = 1;
        }
    if (shape.dim > 0 && ch03_below(2) == 0) {
        sliced = ch03_below(shape.dim);
        if (!expanded[sliced]) {
            start = ch03_below(2);
            u.sizes[sliced] = 2 * u.sizes[sliced] + start;
        } else {
            sliced = -1;
        }
    }
    for (int64_t d = 0; d < shape.dim; d++)
        perm[d] = d;
    if (ch03_below(2) == 0)
        for (int64_t d = shape.dim - 1; d > 0; d--) {
            int64_t k = ch03_below(d + 1), t = perm[d];
            perm[d] = perm[k];
            perm[k] = t;
        }
    v.dim = shape.dim;
    for (int64_t d = 0; d < shape.dim; d++) {
        v.sizes[d] = u.sizes[perm[d]];
        inverse[perm[d]] = d;
    }
    c = tc_empty(v, dtype);
    ck_assert_ptr_nonnull(c);
    if (tc_numel(c) > 0)
        do {
            double value = dtype == TC_BOOL ? (double)ch03_below(2) : (double)(ch03_below(7) - 3);
            ck_assert_int_eq(tc_set(c, index, value), 0);
        } while (tc_next_index(v.dim, v.sizes, index));
    {
        tc_shape dims = { .dim = shape.dim };
        memcpy(dims.sizes, inverse, sizeof(int64_t) * (size_t)shape.dim);
        x = tc_permute(c, dims);
    }
    tc_release(c);
    if (sliced >= 0) {
        y = tc_slice(x, sliced, start, TC_END, 2);
        tc_release(x);
        x = y;
    }
    y = tc_expand(x, shape);
    tc_release(x);
    ck_assert_msg(y != NULL, "building an operand: %s", tc_error());
    for (int64_t d = 0; d < shape.dim; d++)
        ck_assert_int_eq(y->sizes[d], shape.sizes[d]);
    return K(y);
}

/* A random shape that broadcasts to `full`: some leading dimensions
   dropped, some sizes replaced by 1. */
static tc_shape ch03_part_of(tc_shape full)
{
    tc_shape s;
    int64_t drop = ch03_below(full.dim + 1);

    if (ch03_below(2) == 0)
        drop = 0;
    s.dim = full.dim - drop;
    for (int64_t d = 0; d < s.dim; d++)
        s.sizes[d] = ch03_below(3) == 0 ? 1 : full.sizes[d + drop];
    return s;
}

/* The element of operand t (broadcast to out_dim dimensions) at index. */
static double ch03_broadcast_get(const tc_tensor *t, int64_t out_dim, const int64_t *index)
{
    int64_t own[TC_MAX_DIMS];
    double value;

    for (int64_t d = 0; d < t->dim; d++) {
        int64_t i = index[d + out_dim - t->dim];
        own[d] = t->sizes[d] == 1 ? 0 : i;
    }
    ck_assert_int_eq(tc_get(t, own, &value), 0);
    return value;
}

enum { CH03_ADD, CH03_SUB, CH03_MUL, CH03_LT, CH03_WHERE, CH03_NOPS };

static tc_tensor *ch03_apply(int op, const tc_tensor *c, const tc_tensor *a, const tc_tensor *b)
{
    switch (op) {
    case CH03_ADD: return tc_add(a, b);
    case CH03_SUB: return tc_sub(a, b);
    case CH03_MUL: return tc_mul(a, b);
    case CH03_LT: return tc_lt(a, b);
    default: return tc_where(c, a, b);
    }
}

/* The model: op on the doubles of small integers, exact in every dtype. */
static double ch03_model(int op, tc_dtype type, double c, double a, double b)
{
    switch (op) {
    case CH03_ADD: return type == TC_BOOL ? (double)(a != 0 || b != 0) : a + b;
    case CH03_SUB: return a - b;
    case CH03_MUL: return type == TC_BOOL ? (double)(a != 0 && b != 0) : a * b;
    case CH03_LT: return (double)(a < b);
    default: return c != 0 ? a : b;
    }
}

START_TEST(test_random_strided_operands)
{
    static const tc_dtype types[] = { TC_BOOL, TC_INT64, TC_FLOAT32, TC_FLOAT64 };
    int checked = 0, refused = 0, noncontiguous = 0;

    ch03_rng_state = 0x9E3779B97F4A7C15ULL;
    for (int trial = 0; trial < 400; trial++) {
        tc_shape full = { .dim = ch03_below(5) }, sa, sb, sc, want, both;
        tc_dtype ta = types[ch03_below(4)], tb = types[ch03_below(4)];
        int op = trial % CH03_NOPS;
        tc_tensor *a, *b, *c, *ac, *bc, *cc, *r, *rc;
        int64_t index[TC_MAX_DIMS] = { 0 };
        char message[512];

        for (int64_t d = 0; d < full.dim; d++)
            full.sizes[d] = ch03_below(5);
        sa = ch03_part_of(full);
        sb = ch03_part_of(full);
        sc = ch03_part_of(full);
        a = ch03_random_operand(sa, ta);
        b = ch03_random_operand(sb, tb);
        c = ch03_random_operand(sc, TC_BOOL);
        noncontiguous += !tc_is_contiguous(a) + !tc_is_contiguous(b);
        ac = K(tc_contiguous(a));
        bc = K(tc_contiguous(b));
        cc = K(tc_contiguous(c));
        ck_assert(ac != NULL && bc != NULL && cc != NULL);
        ck_assert(tc_is_contiguous(ac) && tc_is_contiguous(bc));

        tc_clear_error();
        r = ch03_apply(op, c, a, b);
        snprintf(message, sizeof message, "%s", tc_error() != NULL ? tc_error() : "");
        tc_clear_error();
        rc = ch03_apply(op, cc, ac, bc);
        if (r == NULL || rc == NULL) {
            /* only a bool subtraction may fail; both fail alike */
            ck_assert_msg(r == NULL && rc == NULL, "trial %d: one of the two failed: %s", trial,
                          message[0] != 0 ? message : tc_error());
            ck_assert_msg(op == CH03_SUB && (ta == TC_BOOL || tb == TC_BOOL),
                          "trial %d: op %d failed: %s", trial, op, message);
            ck_assert_str_eq(message, tc_error());
            tc_clear_error();
            refused++;
            continue;
        }
        K(r);
        K(rc);
        ck_assert(tc_broadcast_shapes(sa, sb, &both));
        ck_assert(tc_broadcast_shapes(both, op == CH03_WHERE ? sc : both, &want));
        ck_assert_int_eq(r->dim, want.dim);
        ck_assert_int_eq(rc->dim, want.dim);
        for (int64_t d = 0; d < want.dim; d++) {
            ck_assert_int_eq(r->sizes[d], want.sizes[d]);
            ck_assert_int_eq(rc->sizes[d], want.sizes[d]);
        }
        ck_assert_int_eq(r->dtype, rc->dtype);
        if (op == CH03_LT)
            ck_assert_int_eq(r->dtype, TC_BOOL);
        else
            ck_assert_int_eq(r->dtype, RESULT_TYPE(a, b));
        if (tc_numel(r) > 0)
            do {
                double got, expected, model;
                ck_assert_int_eq(tc_get(r, index, &got), 0);
                ck_assert_int_eq(tc_get(rc, index, &expected), 0);
                ck_assert_msg(got == expected, "trial %d (op %d): %.17g on strided operands, "
                              "%.17g on contiguous copies", trial, op, got, expected);
                model = ch03_model(op, RESULT_TYPE(a, b),
                                   op == CH03_WHERE ? ch03_broadcast_get(c, want.dim, index) : 0,
                                   ch03_broadcast_get(a, want.dim, index),
                                   ch03_broadcast_get(b, want.dim, index));
                ck_assert_msg(got == model, "trial %d (op %d): %.17g, the model says %.17g",
                              trial, op, got, model);
            } while (tc_next_index(want.dim, want.sizes, index));
        checked++;
        testing_release_kept();
    }
    /* the generator did exercise what it is meant to */
    ck_assert_int_gt(checked, 300);
    ck_assert_int_gt(refused, 0);
    ck_assert_int_gt(noncontiguous, 120);
}
END_TEST

/* ------------------------------------------------- 8. NULL propagation */

static const char ch03_null_message[] = "tc: NULL argument, but no earlier call failed";

/* call fails; with no earlier failure it says so, with one it keeps that
   failure's message. */
#define NULL_PASSES(call)                                                     \
    do {                                                                      \
        FAILS(call, ch03_null_message);                                       \
        tc_fail("earlier failure");                                           \
        testing_fails(__LINE__, #call, (call), "earlier failure");               \
    } while (0)

START_TEST(test_null_elementwise)
{
    tc_tensor *x = ch03_grid(S(2)), *m = K(B8(S(2), true, false)), *n = K(tc_number(2));
    ch03_binary_fn *binaries[] = { tc_add, tc_sub, tc_mul, tc_div, tc_eq, tc_ne,
                                   tc_lt, tc_le, tc_gt, tc_ge, tc_pow };
    ch03_unary_fn *unaries[] = { tc_neg, tc_abs, tc_exp, tc_log, tc_sqrt,
                                 tc_relu, tc_sigmoid, tc_tanh };
    tc_tensor *(*inplace_binaries[])(tc_tensor *, const tc_tensor *) = {
        tc_add_, tc_sub_, tc_mul_, tc_div_ };
    tc_tensor *(*inplace_unaries[])(tc_tensor *) = { tc_neg_, tc_exp_, tc_relu_ };

    for (size_t k = 0; k < sizeof binaries / sizeof binaries[0]; k++) {
        NULL_PASSES(binaries[k](NULL, x));
        NULL_PASSES(binaries[k](x, NULL));
        NULL_PASSES(binaries[k](NULL, NULL));
    }
    for (size_t k = 0; k < sizeof unaries / sizeof unaries[0]; k++)
        NULL_PASSES(unaries[k](NULL));
    for (size_t k = 0; k < sizeof inplace_binaries / sizeof inplace_binaries[0]; k++) {
        NULL_PASSES(inplace_binaries[k](NULL, x));
        NULL_PASSES(inplace_binaries[k](x, NULL));
    }
    for (size_t k = 0; k < sizeof inplace_unaries / sizeof inplace_unaries[0]; k++)
        NULL_PASSES(inplace_unaries[k](NULL));
    NULL_PASSES(tc_add_alpha(NULL, x, n));
    NULL_PASSES(tc_add_alpha(x, NULL, n));
    NULL_PASSES(tc_sub_alpha(NULL, x, n));
    NULL_PASSES(tc_sub_alpha(x, NULL, n));
    NULL_PASSES(tc_where(NULL, x, x));
    NULL_PASSES(tc_where(m, NULL, x));
    NULL_PASSES(tc_where(m, x, NULL));
    /* the scalar forms release their number whether or not the tensor is NULL */
    NULL_PASSES(tc_mul_scalar(NULL, 2));
    NULL_PASSES(tc_sub_scalar(NULL, 2.5));
    NULL_PASSES(tc_div_scalar(NULL, 3));
    NULL_PASSES(tc_pow_scalar(NULL, 2));
    /* x is untouched */
    NOW(x, TC_FLOAT32, S(2), S(1), CH03_EXACT, VF(0, 1));
}
END_TEST

/* A NULL number (a tc_number that failed) is passed on like a NULL tensor. */
START_TEST(test_null_number)
{
    tc_tensor *x = ch03_grid(S(2));

    NULL_PASSES(tc_with_number(tc_add, NULL, NULL));
    NULL_PASSES(tc_with_number(tc_add, x, NULL));
}
END_TEST

/* A NULL alpha (a tc_number that failed) is a failure too, not alpha = 1. */
START_TEST(test_null_alpha)
{
    tc_tensor *x = ch03_grid(S(2));

    NULL_PASSES(tc_add_alpha(x, x, NULL));
    NULL_PASSES(tc_sub_alpha(x, x, NULL));
}
END_TEST

START_TEST(test_null_reductions_and_matmul)
{
    tc_tensor *x = ch03_grid(S(2, 2)), *v = (tc_tensor *)1, *i = (tc_tensor *)1;

    NULL_PASSES(tc_sum(NULL));
    NULL_PASSES(tc_sum_dims(NULL, S(0), false));
    NULL_PASSES(tc_mean(NULL));
    NULL_PASSES(tc_mean_dims(NULL, S(0), true));
    NULL_PASSES(tc_max(NULL));
    NULL_PASSES(tc_min(NULL));
    NULL_PASSES(tc_argmax(NULL));
    NULL_PASSES(tc_argmax_dim(NULL, 0, false));
    NULL_PASSES(tc_sum_to_size(NULL, S(1)));
    NULL_PASSES(tc_matmul(NULL, x));
    NULL_PASSES(tc_matmul(x, NULL));
    tc_clear_error();
    ck_assert_int_eq(tc_max_dim(NULL, 0, false, &v, &i), -1);
    ck_assert_ptr_null(v);
    ck_assert_ptr_null(i);
    ck_assert_str_eq(tc_error(), ch03_null_message);
    v = i = (tc_tensor *)1;
    ck_assert_int_eq(tc_min_dim(NULL, 0, true, &v, &i), -1);
    ck_assert_ptr_null(v);
    ck_assert_ptr_null(i);
    ck_assert_str_eq(tc_error(), ch03_null_message);
    tc_clear_error();
}
END_TEST

/* -------------------------------------- issue 15: overflow, dims, NULL */

/* Finding 1: the loop multiplied the stride of a size-1 inner dimension by
   the item size (signed overflow), though that stride is never stepped. */
START_TEST(test_overflow_loop_size_one_inner_stride)
{
    /* x = torch.arange(4.).view(2, 2); y = x[:, ::2**62]: shape (2, 1),
       strides (2, 2**62); y.neg() is [[-0.], [-2.]] with strides (1, 1) */
    tc_tensor *x = K(tc_view(K(tc_arange(0.0, 4.0, 1.0)), S(2, 2)));
    tc_tensor *y = K(tc_slice(x, 1, 0, TC_END, (int64_t)1 << 62));
    /* z = x.as_strided((2, 1), (2, 2**63 - 1)) */
    tc_tensor *z = K(tc_as_strided(x, S(2, 1), S(2, INT64_MAX), 0));

    ck_assert_int_eq(y->strides[1], (int64_t)1 << 62);
    /* (PyTorch's result strides, (1, 1), come from its byte strides 4 * 2**62
       wrapping to 0; with no overflow, x.as_strided((2, 1), (2, 100)).neg()
       has (1, 2), as ours. Values and shape are what matter here.) */
    EXPECT(tc_neg(y), TC_FLOAT32, S(2, 1), CH03_EXACT, VF(-0.0, -2));
    EXPECT(tc_neg(z), TC_FLOAT32, S(2, 1), CH03_EXACT, VF(-0.0, -2));
    EXPECT_STRIDED(tc_neg(K(tc_as_strided(K(tc_arange(0.0, 400.0, 1.0)), S(2, 1), S(2, 100), 0))),
                   TC_FLOAT32, S(2, 1), S(1, 2), CH03_EXACT, VF(-0.0, -2));
    /* z + z is [[0.], [4.]] */
    EXPECT(tc_add(z, z), TC_FLOAT32, S(2, 1), CH03_EXACT, VF(0, 4));
    EXPECT(tc_sum(z), TC_FLOAT32, S0, CH03_EXACT, VF(2));
}
END_TEST

/* Found by tests/fuzz/fuzz_views: an output's bytes wrapped in size_t.
   torch.tensor(1.).expand(2**62).neg() and (2**61, of 2**63 bytes). */
START_TEST(test_overflow_output_bytes)
{
    tc_tensor *one = K(tc_ones(S0, TC_FLOAT32));

    FAILS(tc_neg(K(tc_expand(one, S((int64_t)1 << 62)))),
          "Storage size calculation overflowed with sizes=[4611686018427387904]");
    FAILS(tc_neg(K(tc_expand(one, S((int64_t)1 << 61)))),
          "Storage size calculation overflowed with sizes=[2305843009213693952]");
    /* x.clone() says "... and strides=[1]", x.contiguous() not */
    FAILS(tc_clone(K(tc_expand(one, S((int64_t)1 << 62)))),
          "Storage size calculation overflowed with sizes=[4611686018427387904] and strides=[1]");
    FAILS(tc_contiguous(K(tc_expand(one, S((int64_t)1 << 62)))),
          "Storage size calculation overflowed with sizes=[4611686018427387904]");
}
END_TEST

/* Found by fuzz_sparse (sparse.sum over the dense dims of an empty hybrid
   tensor): the reduction counted the reduced elements with a signed product
   that overflows when x is empty.
   torch.zeros(0, 2**63-1, 3).sum((1, 2)).shape == (0,);
   torch.zeros(2, 0, 2**63-1).sum((0, 2)) is tensor([]). */
START_TEST(test_overflow_reduce_empty)
{
    EXPECT(tc_sum_dims(K(tc_zeros(S(0, INT64_MAX, 3), TC_FLOAT32)), S(1, 2), false),
           TC_FLOAT32, S(0), CH03_EXACT, VNONE);
    EXPECT(tc_sum_dims(K(tc_zeros(S(2, 0, INT64_MAX), TC_FLOAT32)), S(0, 2), false),
           TC_FLOAT32, S(0), CH03_EXACT, VNONE);
}
END_TEST

/* Finding 3: sum_to_size read sizes past the array for dim > 16 (a stack
   buffer overflow in its message) and accepted a negative dim. PyTorch's
   torch.empty(2, 3).sum_to_size(-1) says "size {[-1]} is not expandable
   to size {[2, 3]}." for a negative size; a negative or too large count
   of dimensions has no Python spelling: library messages. */
START_TEST(test_dim_count_operators)
{
    tc_tensor *x = K(tc_zeros(S(2, 3), TC_FLOAT32));
    tc_shape above = { .dim = TC_MAX_DIMS + 1 }, negative = { .dim = -1 }, out;

    FAILS(tc_sum_to_size(x, above), "tc: a tensor has at most 16 dimensions, got 17");
    FAILS(tc_sum_to_size(x, negative), "tc: a number of dimensions cannot be negative, got -1");
    FAILS(tc_sum_to_size(K(tc_zeros(S0, TC_FLOAT32)), negative),
          "tc: a number of dimensions cannot be negative, got -1");
    FAILS(tc_sum_to_size(x, S(-1)), "size {[-1]} is not expandable to size {[2, 3]}.");
    FAILS(tc_sum_dims(x, above, false), "tc: a tensor has at most 16 dimensions, got 17");
    FAILS(tc_mean_dims(x, negative, true), "tc: a number of dimensions cannot be negative, got -1");
    tc_clear_error();
    ck_assert(!tc_broadcast_shapes(above, S(2), &out));
    ck_assert_str_eq(tc_error(), "tc: a tensor has at most 16 dimensions, got 17");
    tc_clear_error();
    ck_assert(!tc_broadcast_shapes(S(2), negative, &out));
    ck_assert_str_eq(tc_error(), "tc: a number of dimensions cannot be negative, got -1");
    tc_clear_error();
}
END_TEST

/* Finding 4: NULL output pointers and operands get the NULL rule too. */
START_TEST(test_null_rule_operators)
{
    tc_tensor *x = K(tc_zeros(S(2), TC_FLOAT32)), *values = NULL;

    tc_clear_error();
    ck_assert_int_eq(tc_max_dim(x, 0, false, &values, NULL), -1);
    ck_assert_str_eq(tc_error(), "tc: NULL argument, but no earlier call failed");
    ck_assert_ptr_null(values);
    tc_clear_error();
    /* a NULL operand has no type: the others decide (here none: the default) */
    ck_assert_int_eq(tc_result_type(1, (const tc_tensor *const[]){ NULL }), TC_FLOAT32);
    ck_assert_str_eq(tc_error(), "tc: NULL argument, but no earlier call failed");
    tc_clear_error();
    ck_assert_int_eq(tc_result_type(2, (const tc_tensor *const[]){ NULL, x }), TC_FLOAT32);
    tc_clear_error();
}
END_TEST

/* ------------------------------------------------------------------ suite */

static void ch03_add(Suite *suite, const char *name, const TTest *const *tests, int n)
{
    TCase *tc = testing_tcase(name, NULL, NULL);

    tcase_set_timeout(tc, 60);
    for (int k = 0; k < n; k++)
        tcase_add_test(tc, tests[k]);
    suite_add_tcase(suite, tc);
}

#define CASE(suite, name, ...)                                                \
    ch03_add(suite, name, (const TTest *const[]){ __VA_ARGS__ },              \
             CH03_COUNT(const TTest *, __VA_ARGS__))

Suite *suite_ch03(void)
{
    Suite *suite = suite_create("ch03");

    CASE(suite, "broadcasting", test_broadcast_shapes, test_broadcast_errors,
         test_broadcast_shapes_errors, test_broadcast_through_ops);
    CASE(suite, "issue 15: overflow, dim counts, NULL", test_overflow_loop_size_one_inner_stride,
         test_overflow_output_bytes, test_overflow_reduce_empty, test_dim_count_operators,
         test_null_rule_operators);
    CASE(suite, "type promotion", test_result_type, test_promotion_through_ops);
    CASE(suite, "arithmetic", test_arith_tensors, test_arith_numbers, test_alpha,
         test_binary_cases, test_reduction_cases, test_matmul_cases);
    CASE(suite, "unary operations", test_unary_ops, test_unary_bool, test_unary_strided);
    CASE(suite, "pow", test_pow, test_pow_tensor_negative_exponent, test_pow_bool_exponent);
    CASE(suite, "comparisons", test_comparisons);
    CASE(suite, "where", test_where);
    CASE(suite, "nan and inf", test_nan_inf);
    CASE(suite, "int64 wraparound", test_int64_wraparound);
    CASE(suite, "in place", test_inplace_values, test_inplace_unary, test_inplace_layout);
    CASE(suite, "in-place and operator errors", test_inplace_errors, test_inplace_bool_errors,
         test_other_errors, test_alpha_bool_for_integers);
    CASE(suite, "in-place error order", test_error_order_overlap_before_dtype,
         test_error_order_overlap_before_dtype_unary, test_error_order_overlap_before_shape,
         test_error_order_partial_overlap_before_shape, test_error_order_shape_before_dtype);
    CASE(suite, "output layout", test_output_strides, test_output_strides_fast_setup,
         test_output_strides_other_ops,
         test_output_strides_converted_operands, test_output_strides_converted_div,
         test_output_strides_converted_unary);
    CASE(suite, "sum", test_sum, test_sum_bool_empty_scalar, test_sum_errors,
         test_sum_scalar_duplicate_dims, test_sum_accuracy);
    CASE(suite, "mean", test_mean);
    CASE(suite, "max and min", test_max_min, test_max_min_nan, test_max_min_errors);
    CASE(suite, "argmax", test_argmax, test_argmax_bool);
    CASE(suite, "sum_to_size", test_sum_to_size);
    CASE(suite, "matmul", test_matmul_shapes, test_matmul_types_and_layouts, test_matmul_errors,
         test_matmul_dtype_errors, test_matmul_2d_3d_error);
    CASE(suite, "matmul of empty tensors", test_matmul_empty, test_matmul_empty_fold,
         test_matmul_empty_vector_batch, test_matmul_empty_bmm);
    CASE(suite, "random strided operands", test_random_strided_operands);
    CASE(suite, "NULL arguments", test_null_elementwise, test_null_number, test_null_alpha,
         test_null_reductions_and_matmul);
    return suite;
}
