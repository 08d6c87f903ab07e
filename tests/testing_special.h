/* testing_special.h: gradients at special values (NaN, the infinities,
   signed zeros, saturation) against the tables that
   tests/pytorch/special_cases.py prints from PyTorch 1.13, for the suites
   of chapters 5 and 6 (static, as testing_graph.h: snapshots 1-4 have no
   autograd).

   A case makes one or two leaves of its dtype from the table's values,
   applies its operation (the suite's `apply`), runs backward with every
   element of the upstream gradient the table's number, and compares the
   result and each leaf's gradient element by element: a NaN must be a NaN, an infinity or
   a zero the same value with the same sign, and any other number within a
   relative 1e-6 (float32) or 1e-8 (float64). Those tolerances leave room
   for PyTorch's fused multiply-adds (its tanh backward computes
   1 - y*y in one rounding, this library in two, and near saturation that
   cancellation shows) and nothing else: each special value is exact. */
#ifndef TESTING_SPECIAL_H
#define TESTING_SPECIAL_H

#include <check.h>
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "tc.h"
#include "testing.h"

typedef enum {
    SP_NEG, SP_EXP, SP_LOG, SP_SQRT, SP_ABS, SP_RELU, SP_SIGMOID, SP_TANH,
    SP_ADD, SP_SUB, SP_MUL, SP_DIV, SP_POW, SP_POW_SCALAR, SP_NUMBER_POW,
    SP_SUM, SP_MEAN, SP_MAX, SP_MIN, SP_MAX_DIM, SP_MIN_DIM, SP_MM,
    SP_SOFTMAX, SP_LOG_SOFTMAX, SP_LOGSUMEXP, SP_CROSS_ENTROPY, SP_CROSS_ENTROPY_NONE,
    SP_CROSS_ENTROPY_FUSED, SP_CROSS_ENTROPY_FUSED_NONE, SP_MASKED_FILL
} special_op;

typedef struct {
    const char *name;
    special_op op;
    tc_dtype dtype;
    double number;              /* exponent, base, dim, class or fill value */
    int rows0, cols0;           /* the first leaf's shape; rows 0: a vector */
    int rows1, cols1;           /* the second's, if any */
    const double *x, *y;        /* the leaves' values (y NULL: one leaf) */
    int out_n;                  /* the result's elements */
    const double *out;
    double grad;                /* every element of the upstream gradient */
    const double *grad_x, *grad_y;
} special_case;

static tc_shape special_shape(int rows, int cols)
{
    return rows == 0 ? TC_SHAPE(cols) : TC_SHAPE(rows, cols);
}

static bool special_same(double got, double want, tc_dtype dtype)
{
    if (isnan(want))
        return isnan(got);
    if (isinf(want) || want == 0)
        return got == want && signbit(got) == signbit(want);
    return fabs(got - want) <= (dtype == TC_FLOAT32 ? 1e-6 : 1e-8) * fabs(want);
}

/* t (what: "out", "x.grad" ...) holds n elements, each special_same as want's. */
static void special_expect(const special_case *c, const char *what, const tc_tensor *t,
                           int64_t n, const double *want)
{
    ck_assert_msg(t != NULL, "%s (%s): no %s", c->name, tc_dtype_name(c->dtype), what);
    ck_assert_msg(tc_numel(t) == n, "%s (%s): %s has %lld elements, not %lld", c->name,
                  tc_dtype_name(c->dtype), what, (long long)tc_numel(t), (long long)n);
    for (int64_t k = 0; k < n; k++) {
        double got = testing_element(t, k);
        ck_assert_msg(special_same(got, want[k], c->dtype), "%s (%s): %s[%lld] is %a, PyTorch gives %a",
                      c->name, tc_dtype_name(c->dtype), what, (long long)k, got, want[k]);
    }
}

/* Run every case of the table through apply (the chapter's operations on
   the leaves, a new tensor or NULL). */
static void special_run_all(const special_case *cases, size_t n,
                            tc_tensor *(*apply)(const special_case *, tc_tensor *x,
                                                tc_tensor *y))
{
    for (size_t i = 0; i < n; i++) {
        const special_case *c = &cases[i];
        tc_shape sx = special_shape(c->rows0, c->cols0), sy = special_shape(c->rows1, c->cols1);
        tc_tensor *x = testing_tensor(sx, c->dtype, c->x);
        tc_tensor *y = c->y == NULL ? NULL : testing_tensor(sy, c->dtype, c->y);
        tc_tensor *out, *grad;

        ck_assert_int_eq(ag_set_requires_grad(x, true), 0);
        if (y != NULL)
            ck_assert_int_eq(ag_set_requires_grad(y, true), 0);
        out = K(apply(c, x, y));
        ck_assert_msg(out != NULL, "%s (%s): %s", c->name, tc_dtype_name(c->dtype), tc_error());
        special_expect(c, "out", out, c->out_n, c->out);
        grad = K(tc_full(tc_shape_of(out), c->grad, c->dtype));
        ck_assert_msg(ag_backward(out, grad, false) == 0, "%s (%s): backward failed: %s",
                      c->name, tc_dtype_name(c->dtype), tc_error());
        special_expect(c, "x.grad", ag_grad(x), testing_numel(sx), c->grad_x);
        if (y != NULL)
            special_expect(c, "y.grad", ag_grad(y), testing_numel(sy), c->grad_y);
        testing_release_kept();
    }
}

#endif
