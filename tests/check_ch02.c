/* check_ch02.c: the Check suite of chapter 2 (views and strides: transpose,
   permute, narrow, select, slices, expand, squeeze, unsqueeze, flatten,
   diagonal, unfold, as_strided, view and reshape of strided tensors,
   contiguous, clone, the layout of *_like results, copy_ and its overlap
   checks).

   Every expected size, stride, storage offset, value and message below was
   obtained from PyTorch 1.13 (/usr/bin/python3 -c "import torch; ..."), not
   from this library; the comment above each check names the Python
   expression. The tensors the expressions start from are, in Python,

       x = torch.arange(12.).view(3, 4)     y = torch.arange(24.).view(2, 3, 4)
       v = torch.arange(6.)                 w = torch.arange(3.)
       s = torch.tensor(5.)                 e = torch.arange(0.).view(2, 0, 3)
       z = torch.arange(12.).view(4, 1, 3)  c = torch.arange(3.).view(3, 1)
       q = torch.arange(8.).view(2, 2, 2)

   (all float32), and the fixture builds the same tensors in C before each
   test. The last test case checks thousands of random chains of views
   against a model that knows nothing of strides. */
#include <check.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tc.h"
#include "testing.h"

/* ------------------------------------------------------------------ helpers */

#define S(...) TC_SHAPE(__VA_ARGS__)    /* sizes, strides or dims */
#define S0 TC_SCALAR_SHAPE               /* () */

/* Expected values of a tensor, in row-major order. */
typedef struct {
    int64_t n;
    const double *v;
} values;

#define V(...)                                                             \
    ((values){ (int64_t)(sizeof((const double[]){ __VA_ARGS__ }) /         \
                         sizeof(double)),                                  \
               (const double[]){ __VA_ARGS__ } })
#define V0 ((values){ 0, NULL })

#define F32(shape, ...) tc_from_data(shape, TC_FLOAT32, (const float[]){ __VA_ARGS__ })
#define F64(shape, ...) tc_from_data(shape, TC_FLOAT64, (const double[]){ __VA_ARGS__ })
#define I64(shape, ...) tc_from_data(shape, TC_INT64, (const int64_t[]){ __VA_ARGS__ })

/* torch.arange(n.).view(shape), float32 (tests/testing.c). */
static tc_tensor *grid(tc_shape shape) { return testing_grid(shape); }

/* Advance a row-major index over sizes; false once it wraps to 0. */
static bool next_index(int64_t dim, const int64_t *sizes, int64_t *index)
{
    for (int64_t d = dim - 1; d >= 0; d--) {
        if (++index[d] < sizes[d])
            return true;
        index[d] = 0;
    }
    return false;
}

/* t (an owned reference, or NULL) has exactly these sizes, strides,
   storage offset and values, and shares base's storage or not. */
static void expect_layout(int line, const char *what, const tc_tensor *base, bool shares,
                          tc_tensor *t, tc_shape sizes, tc_shape strides, int64_t offset,
                          values want)
{
    int64_t index[TC_MAX_DIMS] = { 0 }, k = 0;

    ck_assert_msg(t != NULL, "line %d: %s failed: %s", line, what,
                  tc_error() != NULL ? tc_error() : "(no message)");
    K(t);
    ck_assert_msg(tc_error() == NULL, "line %d: %s succeeded but left the message \"%s\"",
                  line, what, tc_error());
    ck_assert_int_eq(sizes.dim, strides.dim);
    ck_assert_msg(t->dim == sizes.dim, "line %d: %s has %lld dimensions, expected %lld", line,
                  what, (long long)t->dim, (long long)sizes.dim);
    for (int64_t d = 0; d < t->dim; d++) {
        ck_assert_msg(t->sizes[d] == sizes.sizes[d], "line %d: %s: size %lld is %lld, expected %lld",
                      line, what, (long long)d, (long long)t->sizes[d], (long long)sizes.sizes[d]);
        ck_assert_msg(t->strides[d] == strides.sizes[d],
                      "line %d: %s: stride %lld is %lld, expected %lld", line, what,
                      (long long)d, (long long)t->strides[d], (long long)strides.sizes[d]);
    }
    ck_assert_msg(t->storage_offset == offset, "line %d: %s: storage offset %lld, expected %lld",
                  line, what, (long long)t->storage_offset, (long long)offset);
    ck_assert_msg((t->storage == base->storage) == shares, "line %d: %s %s the base's storage",
                  line, what, shares ? "does not share" : "shares");
    ck_assert_msg(tc_numel(t) == want.n, "line %d: %s has %lld elements, expected %lld", line,
                  what, (long long)tc_numel(t), (long long)want.n);
    if (want.n == 0)
        return;
    do {
        double got = -12345.0;
        ck_assert_msg(tc_get(t, index, &got) == 0, "line %d: %s: tc_get failed: %s", line, what,
                      tc_error());
        ck_assert_msg(got == want.v[k], "line %d: %s: element %lld is %.17g, expected %.17g",
                      line, what, (long long)k, got, want.v[k]);
        k++;
    } while (next_index(t->dim, t->sizes, index));
}

/* A view: the result shares base's storage. A copy: it does not. */
#define EXPECT_VIEW(base, call, sizes, strides, offset, want)                 \
    expect_layout(__LINE__, #call, (base), true, (call), sizes, strides, offset, want)
#define EXPECT_COPY(base, call, sizes, strides, offset, want)                 \
    expect_layout(__LINE__, #call, (base), false, (call), sizes, strides, offset, want)

/* The recorded message is exactly `expected`. */
#define ASSERT_ERROR(expected)                                             \
    do {                                                                   \
        const char *e_ = tc_error();                                       \
        ck_assert_ptr_nonnull(e_);                                         \
        ck_assert_str_eq(e_, expected);                                    \
    } while (0)

#define ASSERT_FAILS(call, expected) EXPECT_FAILS(call, expected)

/* tc_copy_(dst, src) fails with exactly `expected`. */
#define ASSERT_COPY_FAILS(dst, src, expected)                              \
    do {                                                                   \
        tc_clear_error();                                                  \
        ck_assert_int_eq(tc_copy_((dst), (src)), -1);                      \
        ASSERT_ERROR(expected);                                            \
        tc_clear_error();                                                  \
    } while (0)

/* The values of t, read as int64, are exactly want[0..n). */
static void expect_int64s(const tc_tensor *t, int64_t n, const int64_t *want)
{
    int64_t index[TC_MAX_DIMS] = { 0 }, k = 0;

    ck_assert_int_eq(tc_numel(t), n);
    if (n == 0)
        return;
    do {
        int64_t got = -12345;
        ck_assert_int_eq(tc_get_int64(t, index, &got), 0);
        ck_assert_msg(got == want[k], "element %lld is %lld, expected %lld", (long long)k,
                      (long long)got, (long long)want[k]);
        k++;
    } while (next_index(t->dim, t->sizes, index));
}

#define EXPECT_INT64S(t, ...)                                              \
    expect_int64s((t), (int64_t)(sizeof((const int64_t[]){ __VA_ARGS__ }) / \
                                 sizeof(int64_t)),                          \
                  (const int64_t[]){ __VA_ARGS__ })

/* The values of t, read as doubles, are exactly want (sizes not checked). */
static void expect_values(int line, const tc_tensor *t, values want)
{
    int64_t index[TC_MAX_DIMS] = { 0 }, k = 0;

    ck_assert_msg(tc_numel(t) == want.n, "line %d: %lld elements, expected %lld", line,
                  (long long)tc_numel(t), (long long)want.n);
    if (want.n == 0)
        return;
    do {
        double got = -12345.0;
        ck_assert_int_eq(tc_get(t, index, &got), 0);
        ck_assert_msg(got == want.v[k] || (isnan(got) && isnan(want.v[k])),
                      "line %d: element %lld is %.17g, expected %.17g", line, (long long)k, got,
                      want.v[k]);
        k++;
    } while (next_index(t->dim, t->sizes, index));
}

#define EXPECT_VALUES(t, want) expect_values(__LINE__, (t), want)

/* The base tensors of the module comment, rebuilt for every test. */
static tc_tensor *x, *y, *v, *w, *s, *e, *z, *c, *q;

static void setup(void)
{
    tc_clear_error();
    x = grid(S(3, 4));
    y = grid(S(2, 3, 4));
    v = grid(S(6));
    w = grid(S(3));
    s = tc_full(S0, 5.0, TC_FLOAT32);
    e = grid(S(2, 0, 3));
    z = grid(S(4, 1, 3));
    c = grid(S(3, 1));
    q = grid(S(2, 2, 2));
    ck_assert_ptr_nonnull(s);
    tc_clear_error();
}

static void teardown(void)
{
    tc_release(x);
    tc_release(y);
    tc_release(v);
    tc_release(w);
    tc_release(s);
    tc_release(e);
    tc_release(z);
    tc_release(c);
    tc_release(q);
    x = y = v = w = s = e = z = c = q = NULL;
    tc_clear_error();
}

static const char view_refused[] =
    "view size is not compatible with input tensor's size and stride (at least one "
    "dimension spans across two contiguous subspaces). Use .reshape(...) instead.";

/* ---------------------------------------------------- transpose, t, permute */

START_TEST(test_transpose_views)
{
    /* x.t() */
    EXPECT_VIEW(x, tc_t(x),
                S(4, 3), S(1, 4), 0, V(0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11));
    /* x.transpose(0, 1) */
    EXPECT_VIEW(x, tc_transpose(x, 0, 1),
                S(4, 3), S(1, 4), 0, V(0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11));
    /* x.transpose(-1, -2) */
    EXPECT_VIEW(x, tc_transpose(x, -1, -2),
                S(4, 3), S(1, 4), 0, V(0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11));
    /* x.transpose(1, 1) */
    EXPECT_VIEW(x, tc_transpose(x, 1, 1),
                S(3, 4), S(4, 1), 0, V(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11));
    /* y.transpose(0, 2) */
    EXPECT_VIEW(y, tc_transpose(y, 0, 2),
                S(4, 3, 2), S(1, 4, 12), 0, V(0, 12, 4, 16, 8, 20, 1, 13, 5, 17, 9, 21, 2, 14,
                  6, 18, 10, 22, 3, 15, 7, 19, 11, 23));
    /* y.transpose(-3, 1) */
    EXPECT_VIEW(y, tc_transpose(y, -3, 1),
                S(3, 2, 4), S(4, 12, 1), 0, V(0, 1, 2, 3, 12, 13, 14, 15, 4, 5, 6, 7, 16, 17,
                  18, 19, 8, 9, 10, 11, 20, 21, 22, 23));
    /* s.transpose(0, -1) */
    EXPECT_VIEW(s, tc_transpose(s, 0, -1),
                S0, S0, 0, V(5));
    /* s.t() */
    EXPECT_VIEW(s, tc_t(s),
                S0, S0, 0, V(5));
    /* v.t() */
    EXPECT_VIEW(v, tc_t(v),
                S(6), S(1), 0, V(0, 1, 2, 3, 4, 5));
    /* x.t().t() */
    EXPECT_VIEW(x, tc_t(K(tc_t(x))),
                S(3, 4), S(4, 1), 0, V(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11));
    /* x[1:].t() */
    EXPECT_VIEW(x, tc_t(K(tc_slice(x, 0, 1, TC_END, 1))),
                S(4, 2), S(1, 4), 4, V(4, 8, 5, 9, 6, 10, 7, 11));
    /* y.permute(2, 0, 1) */
    EXPECT_VIEW(y, tc_permute(y, TC_DIMS(2, 0, 1)),
                S(4, 2, 3), S(1, 12, 4), 0, V(0, 4, 8, 12, 16, 20, 1, 5, 9, 13, 17, 21, 2, 6,
                  10, 14, 18, 22, 3, 7, 11, 15, 19, 23));
    /* y.permute(-1, -3, -2) */
    EXPECT_VIEW(y, tc_permute(y, TC_DIMS(-1, -3, -2)),
                S(4, 2, 3), S(1, 12, 4), 0, V(0, 4, 8, 12, 16, 20, 1, 5, 9, 13, 17, 21, 2, 6,
                  10, 14, 18, 22, 3, 7, 11, 15, 19, 23));
    /* y.permute(0, 1, 2) */
    EXPECT_VIEW(y, tc_permute(y, TC_DIMS(0, 1, 2)),
                S(2, 3, 4), S(12, 4, 1), 0, V(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14,
                  15, 16, 17, 18, 19, 20, 21, 22, 23));
    /* y.permute(1, 0, -1) */
    EXPECT_VIEW(y, tc_permute(y, TC_DIMS(1, 0, -1)),
                S(3, 2, 4), S(4, 12, 1), 0, V(0, 1, 2, 3, 12, 13, 14, 15, 4, 5, 6, 7, 16, 17,
                  18, 19, 8, 9, 10, 11, 20, 21, 22, 23));
    /* x.permute(1, 0) */
    EXPECT_VIEW(x, tc_permute(x, TC_DIMS(1, 0)),
                S(4, 3), S(1, 4), 0, V(0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11));
    /* s.permute(()) */
    EXPECT_VIEW(s, tc_permute(s, TC_SCALAR_SHAPE),
                S0, S0, 0, V(5));
}
END_TEST

START_TEST(test_movedim_views)
{
    tc_tensor *z = K(tc_empty(S(2, 3, 4, 5), TC_FLOAT32));
    tc_tensor *m;

    /* y.movedim(0, 2) */
    EXPECT_VIEW(y, tc_movedim(y, TC_DIMS(0), TC_DIMS(2)),
                S(3, 4, 2), S(4, 1, 12), 0, V(0, 12, 1, 13, 2, 14, 3, 15, 4, 16, 5, 17, 6, 18,
                  7, 19, 8, 20, 9, 21, 10, 22, 11, 23));
    /* y.movedim(-1, 0) */
    EXPECT_VIEW(y, tc_movedim(y, TC_DIMS(-1), TC_DIMS(0)),
                S(4, 2, 3), S(1, 12, 4), 0, V(0, 4, 8, 12, 16, 20, 1, 5, 9, 13, 17, 21, 2, 6,
                  10, 14, 18, 22, 3, 7, 11, 15, 19, 23));
    /* y.movedim((0, 1), (2, 0)) */
    EXPECT_VIEW(y, tc_movedim(y, TC_DIMS(0, 1), TC_DIMS(2, 0)),
                S(3, 4, 2), S(4, 1, 12), 0, V(0, 12, 1, 13, 2, 14, 3, 15, 4, 16, 5, 17, 6, 18,
                  7, 19, 8, 20, 9, 21, 10, 22, 11, 23));
    /* y.movedim((2, 0), (0, 1)) */
    EXPECT_VIEW(y, tc_movedim(y, TC_DIMS(2, 0), TC_DIMS(0, 1)),
                S(4, 2, 3), S(1, 12, 4), 0, V(0, 4, 8, 12, 16, 20, 1, 5, 9, 13, 17, 21, 2, 6,
                  10, 14, 18, 22, 3, 7, 11, 15, 19, 23));
    /* y.moveaxis((0, 1, 2), (2, 0, 1)) */
    EXPECT_VIEW(y, tc_moveaxis(y, TC_DIMS(0, 1, 2), TC_DIMS(2, 0, 1)),
                S(3, 4, 2), S(4, 1, 12), 0, V(0, 12, 1, 13, 2, 14, 3, 15, 4, 16, 5, 17, 6, 18,
                  7, 19, 8, 20, 9, 21, 10, 22, 11, 23));
    /* y.movedim((), ()) */
    EXPECT_VIEW(y, tc_movedim(y, S0, S0),
                S(2, 3, 4), S(12, 4, 1), 0, V(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14,
                  15, 16, 17, 18, 19, 20, 21, 22, 23));
    /* x.moveaxis(-2, -1) */
    EXPECT_VIEW(x, tc_moveaxis(x, TC_DIMS(-2), TC_DIMS(-1)),
                S(4, 3), S(1, 4), 0, V(0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11));
    /* s.movedim(0, 0), s.movedim(-1, 0) */
    EXPECT_VIEW(s, tc_movedim(s, TC_DIMS(0), TC_DIMS(0)), S0, S0, 0, V(5));
    EXPECT_VIEW(s, tc_movedim(s, TC_DIMS(-1), TC_DIMS(0)), S0, S0, 0, V(5));
    /* torch.empty(2,3,4,5).movedim((0,3),(2,1)): (3, 5, 2, 4), strides (20, 1, 60, 5) */
    m = K(tc_movedim(z, TC_DIMS(0, 3), TC_DIMS(2, 1)));
    ck_assert_ptr_nonnull(m);
    ck_assert_int_eq(m->dim, 4);
    ck_assert(m->sizes[0] == 3 && m->sizes[1] == 5 && m->sizes[2] == 2 && m->sizes[3] == 4);
    ck_assert(m->strides[0] == 20 && m->strides[1] == 1 && m->strides[2] == 60 &&
              m->strides[3] == 5);
    /* ....movedim((3,-4),(0,-1)): (5, 3, 4, 2), strides (1, 20, 5, 60) */
    m = K(tc_movedim(z, TC_DIMS(3, -4), TC_DIMS(0, -1)));
    ck_assert_ptr_nonnull(m);
    ck_assert(m->sizes[0] == 5 && m->sizes[1] == 3 && m->sizes[2] == 4 && m->sizes[3] == 2);
    ck_assert(m->strides[0] == 1 && m->strides[1] == 20 && m->strides[2] == 5 &&
              m->strides[3] == 60);
}
END_TEST

START_TEST(test_movedim_errors)
{
    /* y.movedim((0, 1), (2,)) */
    ASSERT_FAILS(tc_movedim(y, TC_DIMS(0, 1), TC_DIMS(2)),
                 "movedim: Invalid source or destination dims: source ([0, 1] dims) should "
                 "contain the same number of dims as destination ([2] dims)");
    /* y.movedim((0, 0), (1,)): the lengths before the repeat */
    ASSERT_FAILS(tc_movedim(y, TC_DIMS(0, 0), TC_DIMS(1)),
                 "movedim: Invalid source or destination dims: source ([0, 0] dims) should "
                 "contain the same number of dims as destination ([1] dims)");
    /* y.movedim((0, 1, 2, 3), (0,)) */
    ASSERT_FAILS(tc_movedim(y, TC_DIMS(0, 1, 2, 3), TC_DIMS(0)),
                 "movedim: Invalid source or destination dims: source ([0, 1, 2, 3] dims) "
                 "should contain the same number of dims as destination ([0] dims)");
    /* y.movedim((0, 0), (1, 2)) */
    ASSERT_FAILS(tc_movedim(y, TC_DIMS(0, 0), TC_DIMS(1, 2)),
                 "movedim: repeated dim in `source` ([0, 0])");
    /* y.movedim((0, -3), (1, 2)): quoted as given */
    ASSERT_FAILS(tc_movedim(y, TC_DIMS(0, -3), TC_DIMS(1, 2)),
                 "movedim: repeated dim in `source` ([0, -3])");
    /* y.moveaxis((0, 0), (1, 2)): moveaxis says movedim */
    ASSERT_FAILS(tc_moveaxis(y, TC_DIMS(0, 0), TC_DIMS(1, 2)),
                 "movedim: repeated dim in `source` ([0, 0])");
    /* y.movedim((1, 2), (0, 0)) */
    ASSERT_FAILS(tc_movedim(y, TC_DIMS(1, 2), TC_DIMS(0, 0)),
                 "movedim: repeated dim in `destination` ([0, 0])");
    /* y.movedim((0, 1, 2, 0), (0, 1, 2, 0)) */
    ASSERT_FAILS(tc_movedim(y, TC_DIMS(0, 1, 2, 0), TC_DIMS(0, 1, 2, 0)),
                 "movedim: repeated dim in `source` ([0, 1, 2, 0])");
    /* y.movedim(3, 0), y.movedim(-4, 0), y.movedim(0, 3), y.movedim(0, -4) */
    ASSERT_FAILS(tc_movedim(y, TC_DIMS(3), TC_DIMS(0)),
                 "Dimension out of range (expected to be in range of [-3, 2], but got 3)");
    ASSERT_FAILS(tc_movedim(y, TC_DIMS(-4), TC_DIMS(0)),
                 "Dimension out of range (expected to be in range of [-3, 2], but got -4)");
    ASSERT_FAILS(tc_movedim(y, TC_DIMS(0), TC_DIMS(3)),
                 "Dimension out of range (expected to be in range of [-3, 2], but got 3)");
    ASSERT_FAILS(tc_movedim(y, TC_DIMS(0), TC_DIMS(-4)),
                 "Dimension out of range (expected to be in range of [-3, 2], but got -4)");
    /* y.moveaxis(5, 0) */
    ASSERT_FAILS(tc_moveaxis(y, TC_DIMS(5), TC_DIMS(0)),
                 "Dimension out of range (expected to be in range of [-3, 2], but got 5)");
    /* y.movedim((0, 0), (5, 1)) and y.movedim((0, 0), (1, 9)): range before repeats */
    ASSERT_FAILS(tc_movedim(y, TC_DIMS(0, 0), TC_DIMS(5, 1)),
                 "Dimension out of range (expected to be in range of [-3, 2], but got 5)");
    ASSERT_FAILS(tc_movedim(y, TC_DIMS(0, 0), TC_DIMS(1, 9)),
                 "Dimension out of range (expected to be in range of [-3, 2], but got 9)");
    /* s.movedim(1, 0), s.movedim((0, -1), (0, 0)), s.movedim((0,), (1,)) */
    ASSERT_FAILS(tc_movedim(s, TC_DIMS(1), TC_DIMS(0)),
                 "Dimension out of range (expected to be in range of [-1, 0], but got 1)");
    ASSERT_FAILS(tc_movedim(s, TC_DIMS(0, -1), TC_DIMS(0, 0)),
                 "movedim: repeated dim in `source` ([0, -1])");
    ASSERT_FAILS(tc_movedim(s, TC_DIMS(0), TC_DIMS(1)),
                 "Dimension out of range (expected to be in range of [-1, 0], but got 1)");
    /* lists that no tc_shape can hold: the library's messages */
    {
        tc_shape above = { .dim = TC_MAX_DIMS + 1 }, negative = { .dim = -1 };
        ASSERT_FAILS(tc_movedim(y, above, above), "tc: a tensor has at most 16 dimensions, got 17");
        ASSERT_FAILS(tc_movedim(y, TC_DIMS(0), negative),
                     "tc: a number of dimensions cannot be negative, got -1");
    }
}
END_TEST

START_TEST(test_transpose_errors)
{
    /* y.t() */
    ASSERT_FAILS(tc_t(y),
                 "t() expects a tensor with <= 2 dimensions, but self is 3D");
    /* x.transpose(0, 2) */
    ASSERT_FAILS(tc_transpose(x, 0, 2),
                 "Dimension out of range (expected to be in range of [-2, 1], but got 2)");
    /* x.transpose(-3, 0) */
    ASSERT_FAILS(tc_transpose(x, -3, 0),
                 "Dimension out of range (expected to be in range of [-2, 1], but got -3)");
    /* s.transpose(1, 0) */
    ASSERT_FAILS(tc_transpose(s, 1, 0),
                 "Dimension out of range (expected to be in range of [-1, 0], but got 1)");
    /* s.transpose(0, -2) */
    ASSERT_FAILS(tc_transpose(s, 0, -2),
                 "Dimension out of range (expected to be in range of [-1, 0], but got -2)");
    /* y.permute(0, 1) */
    ASSERT_FAILS(tc_permute(y, TC_DIMS(0, 1)),
                 "permute(sparse_coo): number of dimensions in the tensor input does not "
                 "match the length of the desired ordering of dimensions i.e. input.dim() = "
                 "3 is not equal to len(dims) = 2");
    /* y.permute(0, 1, 2, 3) */
    ASSERT_FAILS(tc_permute(y, TC_DIMS(0, 1, 2, 3)),
                 "permute(sparse_coo): number of dimensions in the tensor input does not "
                 "match the length of the desired ordering of dimensions i.e. input.dim() = "
                 "3 is not equal to len(dims) = 4");
    /* s.permute(0) */
    ASSERT_FAILS(tc_permute(s, TC_DIMS(0)),
                 "permute(sparse_coo): number of dimensions in the tensor input does not "
                 "match the length of the desired ordering of dimensions i.e. input.dim() = "
                 "0 is not equal to len(dims) = 1");
    /* y.permute(0, 0, 1) */
    ASSERT_FAILS(tc_permute(y, TC_DIMS(0, 0, 1)),
                 "permute(): duplicate dims are not allowed.");
    /* y.permute(0, 2, -1) */
    ASSERT_FAILS(tc_permute(y, TC_DIMS(0, 2, -1)),
                 "permute(): duplicate dims are not allowed.");
    /* y.permute(0, 1, 3) */
    ASSERT_FAILS(tc_permute(y, TC_DIMS(0, 1, 3)),
                 "Dimension out of range (expected to be in range of [-3, 2], but got 3)");
    /* y.permute(-4, 1, 2) */
    ASSERT_FAILS(tc_permute(y, TC_DIMS(-4, 1, 2)),
                 "Dimension out of range (expected to be in range of [-3, 2], but got -4)");
}
END_TEST

/* ------------------------------------------------------------------- narrow */

START_TEST(test_narrow_views)
{
    /* x.narrow(0, 1, 2) */
    EXPECT_VIEW(x, tc_narrow(x, 0, 1, 2),
                S(2, 4), S(4, 1), 4, V(4, 5, 6, 7, 8, 9, 10, 11));
    /* x.narrow(1, 1, 2) */
    EXPECT_VIEW(x, tc_narrow(x, 1, 1, 2),
                S(3, 2), S(4, 1), 1, V(1, 2, 5, 6, 9, 10));
    /* x.narrow(1, -2, 2) */
    EXPECT_VIEW(x, tc_narrow(x, 1, -2, 2),
                S(3, 2), S(4, 1), 2, V(2, 3, 6, 7, 10, 11));
    /* x.narrow(0, -3, 3) */
    EXPECT_VIEW(x, tc_narrow(x, 0, -3, 3),
                S(3, 4), S(4, 1), 0, V(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11));
    /* x.narrow(-1, 0, 4) */
    EXPECT_VIEW(x, tc_narrow(x, -1, 0, 4),
                S(3, 4), S(4, 1), 0, V(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11));
    /* x.narrow(0, 3, 0) */
    EXPECT_VIEW(x, tc_narrow(x, 0, 3, 0),
                S(0, 4), S(4, 1), 12, V0);
    /* x.narrow(1, 4, 0) */
    EXPECT_VIEW(x, tc_narrow(x, 1, 4, 0),
                S(3, 0), S(4, 1), 4, V0);
    /* x.narrow(0, 0, 0) */
    EXPECT_VIEW(x, tc_narrow(x, 0, 0, 0),
                S(0, 4), S(4, 1), 0, V0);
    /* y.narrow(2, 1, 2) */
    EXPECT_VIEW(y, tc_narrow(y, 2, 1, 2),
                S(2, 3, 2), S(12, 4, 1), 1, V(1, 2, 5, 6, 9, 10, 13, 14, 17, 18, 21, 22));
    /* x.t().narrow(0, 1, 2) */
    EXPECT_VIEW(x, tc_narrow(K(tc_t(x)), 0, 1, 2),
                S(2, 3), S(1, 4), 1, V(1, 5, 9, 2, 6, 10));
    /* e.narrow(1, 0, 0) */
    EXPECT_VIEW(e, tc_narrow(e, 1, 0, 0),
                S(2, 0, 3), S(3, 3, 1), 0, V0);
    /* e.narrow(1, -1, 0) */
    EXPECT_VIEW(e, tc_narrow(e, 1, -1, 0),
                S(2, 0, 3), S(3, 3, 1), 0, V0);
}
END_TEST

START_TEST(test_narrow_errors)
{
    /* x.narrow(0, 2, 2) */
    ASSERT_FAILS(tc_narrow(x, 0, 2, 2),
                 "start (2) + length (2) exceeds dimension size (3).");
    /* x.narrow(0, -1, 2) */
    ASSERT_FAILS(tc_narrow(x, 0, -1, 2),
                 "start (2) + length (2) exceeds dimension size (3).");
    /* x.narrow(0, 0, -1) */
    ASSERT_FAILS(tc_narrow(x, 0, 0, -1),
                 "start (0) + length (-1) exceeds dimension size (3).");
    /* x.narrow(1, 3, 2) */
    ASSERT_FAILS(tc_narrow(x, 1, 3, 2),
                 "start (3) + length (2) exceeds dimension size (4).");
    /* x.narrow(0, 4, 0) */
    ASSERT_FAILS(tc_narrow(x, 0, 4, 0),
                 "Dimension out of range (expected to be in range of [-3, 2], but got 4)");
    /* x.narrow(0, -4, 1) */
    ASSERT_FAILS(tc_narrow(x, 0, -4, 1),
                 "Dimension out of range (expected to be in range of [-3, 2], but got -4)");
    /* x.narrow(2, 0, 1) */
    ASSERT_FAILS(tc_narrow(x, 2, 0, 1),
                 "Dimension out of range (expected to be in range of [-2, 1], but got 2)");
    /* x.narrow(-3, 0, 1) */
    ASSERT_FAILS(tc_narrow(x, -3, 0, 1),
                 "Dimension out of range (expected to be in range of [-2, 1], but got -3)");
    /* s.narrow(0, 0, 1) */
    ASSERT_FAILS(tc_narrow(s, 0, 0, 1),
                 "narrow() cannot be applied to a 0-dim tensor.");
    /* e.narrow(1, 1, 0) */
    ASSERT_FAILS(tc_narrow(e, 1, 1, 0),
                 "Dimension out of range (expected to be in range of [-1, 0], but got 1)");
}
END_TEST

/* ------------------------------------------------------------------- select */

START_TEST(test_select_views)
{
    /* x.select(0, 1) */
    EXPECT_VIEW(x, tc_select(x, 0, 1),
                S(4), S(1), 4, V(4, 5, 6, 7));
    /* x.select(1, 2) */
    EXPECT_VIEW(x, tc_select(x, 1, 2),
                S(3), S(4), 2, V(2, 6, 10));
    /* x.select(0, -1) */
    EXPECT_VIEW(x, tc_select(x, 0, -1),
                S(4), S(1), 8, V(8, 9, 10, 11));
    /* x.select(-1, -4) */
    EXPECT_VIEW(x, tc_select(x, -1, -4),
                S(3), S(4), 0, V(0, 4, 8));
    /* y.select(1, 2) */
    EXPECT_VIEW(y, tc_select(y, 1, 2),
                S(2, 4), S(12, 1), 8, V(8, 9, 10, 11, 20, 21, 22, 23));
    /* y.select(2, -1) */
    EXPECT_VIEW(y, tc_select(y, 2, -1),
                S(2, 3), S(12, 4), 3, V(3, 7, 11, 15, 19, 23));
    /* v.select(0, 3) */
    EXPECT_VIEW(v, tc_select(v, 0, 3),
                S0, S0, 3, V(3));
    /* x.select(1, 0).select(0, 2) */
    EXPECT_VIEW(x, tc_select(K(tc_select(x, 1, 0)), 0, 2),
                S0, S0, 8, V(8));
    /* x.t().select(0, 3) */
    EXPECT_VIEW(x, tc_select(K(tc_t(x)), 0, 3),
                S(3), S(4), 3, V(3, 7, 11));
    /* e.select(0, 1) */
    EXPECT_VIEW(e, tc_select(e, 0, 1),
                S(0, 3), S(3, 1), 3, V0);
}
END_TEST

START_TEST(test_select_errors)
{
    /* x.select(0, 3) */
    ASSERT_FAILS(tc_select(x, 0, 3),
                 "select(): index 3 out of range for tensor of size [3, 4] at dimension 0");
    /* x.select(1, -5) */
    ASSERT_FAILS(tc_select(x, 1, -5),
                 "select(): index -5 out of range for tensor of size [3, 4] at dimension 1");
    /* x.select(-1, 4) */
    ASSERT_FAILS(tc_select(x, -1, 4),
                 "select(): index 4 out of range for tensor of size [3, 4] at dimension 1");
    /* x.select(2, 0) */
    ASSERT_FAILS(tc_select(x, 2, 0),
                 "Dimension out of range (expected to be in range of [-2, 1], but got 2)");
    /* s.select(0, 0) */
    ASSERT_FAILS(tc_select(s, 0, 0),
                 "select() cannot be applied to a 0-dim tensor.");
    /* e.select(1, 0) */
    ASSERT_FAILS(tc_select(e, 1, 0),
                 "select(): index 0 out of range for tensor of size [2, 0, 3] at dimension 1");
}
END_TEST

/* ------------------------------------------------------------------- slices */

START_TEST(test_slice_views)
{
    /* x[1:3] */
    EXPECT_VIEW(x, tc_slice(x, 0, 1, 3, 1),
                S(2, 4), S(4, 1), 4, V(4, 5, 6, 7, 8, 9, 10, 11));
    /* x[:, 1:3] */
    EXPECT_VIEW(x, tc_slice(x, 1, 1, 3, 1),
                S(3, 2), S(4, 1), 1, V(1, 2, 5, 6, 9, 10));
    /* x[-100:100] */
    EXPECT_VIEW(x, tc_slice(x, 0, -100, 100, 1),
                S(3, 4), S(4, 1), 0, V(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11));
    /* x[5:] */
    EXPECT_VIEW(x, tc_slice(x, 0, 5, TC_END, 1),
                S(0, 4), S(4, 1), 12, V0);
    /* x[3:] */
    EXPECT_VIEW(x, tc_slice(x, 0, 3, TC_END, 1),
                S(0, 4), S(4, 1), 12, V0);
    /* x[2:1] */
    EXPECT_VIEW(x, tc_slice(x, 0, 2, 1, 1),
                S(0, 4), S(4, 1), 8, V0);
    /* x[:, 3:1] */
    EXPECT_VIEW(x, tc_slice(x, 1, 3, 1, 1),
                S(3, 0), S(4, 1), 3, V0);
    /* x[::2] */
    EXPECT_VIEW(x, tc_slice(x, 0, 0, TC_END, 2),
                S(2, 4), S(8, 1), 0, V(0, 1, 2, 3, 8, 9, 10, 11));
    /* x[:, ::3] */
    EXPECT_VIEW(x, tc_slice(x, 1, 0, TC_END, 3),
                S(3, 2), S(4, 3), 0, V(0, 3, 4, 7, 8, 11));
    /* x[:, 1::2] */
    EXPECT_VIEW(x, tc_slice(x, 1, 1, TC_END, 2),
                S(3, 2), S(4, 2), 1, V(1, 3, 5, 7, 9, 11));
    /* x[:, 1::3] */
    EXPECT_VIEW(x, tc_slice(x, 1, 1, TC_END, 3),
                S(3, 1), S(4, 3), 1, V(1, 5, 9));
    /* x[:, 2::3] */
    EXPECT_VIEW(x, tc_slice(x, 1, 2, TC_END, 3),
                S(3, 1), S(4, 3), 2, V(2, 6, 10));
    /* x[-2:] */
    EXPECT_VIEW(x, tc_slice(x, 0, -2, TC_END, 1),
                S(2, 4), S(4, 1), 4, V(4, 5, 6, 7, 8, 9, 10, 11));
    /* x[:, :-1] */
    EXPECT_VIEW(x, tc_slice(x, 1, 0, -1, 1),
                S(3, 3), S(4, 1), 0, V(0, 1, 2, 4, 5, 6, 8, 9, 10));
    /* x[:, -3:-1] */
    EXPECT_VIEW(x, tc_slice(x, 1, -3, -1, 1),
                S(3, 2), S(4, 1), 1, V(1, 2, 5, 6, 9, 10));
    /* x[:, :-5] */
    EXPECT_VIEW(x, tc_slice(x, 1, 0, -5, 1),
                S(3, 0), S(4, 1), 0, V0);
    /* x[:, -100:2] */
    EXPECT_VIEW(x, tc_slice(x, 1, -100, 2, 1),
                S(3, 2), S(4, 1), 0, V(0, 1, 4, 5, 8, 9));
    /* v[1:6:2] */
    EXPECT_VIEW(v, tc_slice(v, 0, 1, 6, 2),
                S(3), S(2), 1, V(1, 3, 5));
    /* v[::4] */
    EXPECT_VIEW(v, tc_slice(v, 0, 0, TC_END, 4),
                S(2), S(4), 0, V(0, 4));
    /* v[-1:] */
    EXPECT_VIEW(v, tc_slice(v, -1, -1, TC_END, 1),
                S(1), S(1), 5, V(5));
    /* v[:0] */
    EXPECT_VIEW(v, tc_slice(v, 0, 0, 0, 1),
                S(0), S(1), 0, V0);
    /* v[::100] */
    EXPECT_VIEW(v, tc_slice(v, 0, 0, TC_END, 100),
                S(1), S(100), 0, V(0));
    /* y[:, 1:, ::2] */
    EXPECT_VIEW(y, tc_slice(K(tc_slice(y, 1, 1, TC_END, 1)), 2, 0, TC_END, 2),
                S(2, 2, 2), S(12, 4, 2), 4, V(4, 6, 8, 10, 16, 18, 20, 22));
    /* x.t()[1:3] */
    EXPECT_VIEW(x, tc_slice(K(tc_t(x)), 0, 1, 3, 1),
                S(2, 3), S(1, 4), 1, V(1, 5, 9, 2, 6, 10));
    /* x[:, 1:][:, 1:] */
    EXPECT_VIEW(x, tc_slice(K(tc_slice(x, 1, 1, TC_END, 1)), 1, 1, TC_END, 1),
                S(3, 2), S(4, 1), 2, V(2, 3, 6, 7, 10, 11));
    /* x[::2, ::2] */
    EXPECT_VIEW(x, tc_slice(K(tc_slice(x, 0, 0, TC_END, 2)), 1, 0, TC_END, 2),
                S(2, 2), S(8, 2), 0, V(0, 2, 8, 10));
}
END_TEST

/* ------------------------------------------------ random cases against PyTorch */

/* tests/pytorch/view_cases.py's table: 1,500 random view operations, valid
   or not, on contiguous, transposed and spread tensors, with PyTorch's
   answer to each (sizes, strides, offset and contiguity, or the message). */
#include "check_ch02_view_cases.h"

/* The case's tensor: a view of base of the shape given, then the prelude. */
static tc_tensor *view_case_tensor(const tc_tensor *base, const char *shape, const char *pre)
{
    int64_t sizes[TC_MAX_DIMS], strides[TC_MAX_DIMS], numel = 1;
    int dim = testing_parse_ints(shape, sizes, TC_MAX_DIMS);
    tc_tensor *t;

    for (int i = 0; i < dim; i++)
        numel *= sizes[i];
    t = K(tc_view(K(tc_narrow(base, 0, 0, numel)), testing_shape_of_sizes(sizes, dim)));
    if (strcmp(pre, "t") == 0)
        return K(tc_transpose(t, 0, dim - 1));
    if (strcmp(pre, "flip") == 0) {
        for (int i = 0; i < dim; i++)
            strides[i] = 2 * t->strides[i];
        return K(tc_as_strided(t, tc_shape_of(t), testing_shape_of_sizes(strides, dim), 1));
    }
    return t;
}

static tc_tensor *view_case_apply(const tc_tensor *t, const char *op, const int64_t *a, int n)
{
    if (strcmp(op, "view") == 0) return tc_view(t, testing_shape_of_sizes(a, n));
    if (strcmp(op, "reshape") == 0) return tc_reshape(t, testing_shape_of_sizes(a, n));
    if (strcmp(op, "transpose") == 0) return tc_transpose(t, a[0], a[1]);
    if (strcmp(op, "t") == 0) return tc_t(t);
    if (strcmp(op, "permute") == 0) return tc_permute(t, testing_shape_of_sizes(a, n));
    if (strcmp(op, "movedim") == 0) return tc_movedim(t, TC_SHAPE(a[0]), TC_SHAPE(a[1]));
    if (strcmp(op, "narrow") == 0) return tc_narrow(t, a[0], a[1], a[2]);
    if (strcmp(op, "select") == 0) return tc_select(t, a[0], a[1]);
    if (strcmp(op, "slice") == 0) return tc_slice(t, a[0], a[1], a[2], a[3]);
    if (strcmp(op, "expand") == 0) return tc_expand(t, testing_shape_of_sizes(a, n));
    if (strcmp(op, "squeeze") == 0) return tc_squeeze(t);
    if (strcmp(op, "squeeze_dim") == 0) return tc_squeeze_dim(t, a[0]);
    if (strcmp(op, "unsqueeze") == 0) return tc_unsqueeze(t, a[0]);
    if (strcmp(op, "flatten") == 0) return tc_flatten(t, a[0], a[1]);
    if (strcmp(op, "diagonal") == 0) return tc_diagonal(t, a[0], a[1], a[2]);
    if (strcmp(op, "unfold") == 0) return tc_unfold(t, a[0], a[1], a[2]);
    if (strcmp(op, "as_strided") == 0)    /* k, k sizes, the strides, the offset */
        return tc_as_strided(t, testing_shape_of_sizes(a + 1, (int)a[0]),
                             testing_shape_of_sizes(a + 1 + a[0], n - 2 - (int)a[0]), a[n - 1]);
    ck_abort_msg("unknown operation %s", op);
    return NULL;
}

/* r as view_cases.py's desc prints it, or "error: " and the first line. */
static void view_case_answer(const tc_tensor *r, char *out, size_t size)
{
    size_t k = 0;

    if (r == NULL) {
        snprintf(out, size, "error: %.*s", (int)strcspn(tc_error(), "\n"), tc_error());
        return;
    }
    k += (size_t)snprintf(out + k, size - k, "[");
    for (int64_t i = 0; i < r->dim; i++)
        k += (size_t)snprintf(out + k, size - k, "%s%lld", i ? ", " : "", (long long)r->sizes[i]);
    k += (size_t)snprintf(out + k, size - k, "] [");
    for (int64_t i = 0; i < r->dim; i++)
        k += (size_t)snprintf(out + k, size - k, "%s%lld", i ? ", " : "", (long long)r->strides[i]);
    snprintf(out + k, size - k, "] %lld %d", (long long)r->storage_offset, tc_is_contiguous(r));
}

START_TEST(test_view_cases)
{
    tc_tensor *base = K(tc_zeros(S(2048), TC_FLOAT32));

    for (size_t c = 0; c < sizeof view_cases / sizeof view_cases[0]; c++) {
        char text[256], answer[1024], pre[16], op[16], *middle, *last;
        int64_t args[32];
        int n, used = 0;
        tc_tensor *r;

        snprintf(text, sizeof text, "%s", view_cases[c][0]);
        ck_assert_msg(testing_case_parts(text, &middle, &last), "case %zu", c);
        ck_assert_int_eq(sscanf(middle, " %15s", pre), 1);
        ck_assert_int_eq(sscanf(last, " %15s %n", op, &used), 1);
        n = testing_parse_ints(last + used, args, 32);
        r = view_case_apply(view_case_tensor(base, text, pre), op, args, n);
        view_case_answer(r, answer, sizeof answer);
        tc_release(r);
        tc_clear_error();
        ck_assert_msg(strcmp(answer, view_cases[c][1]) == 0, "%s\n  got      %s\n  PyTorch  %s",
                      view_cases[c][0], answer, view_cases[c][1]);
        testing_release_kept();
        base = K(tc_zeros(S(2048), TC_FLOAT32));
    }
}
END_TEST

START_TEST(test_slice_errors)
{
    /* x[::0] */
    ASSERT_FAILS(tc_slice(x, 0, 0, TC_END, 0),
                 "slice step cannot be zero");
    /* x[:, ::0] */
    ASSERT_FAILS(tc_slice(x, 1, 0, TC_END, 0),
                 "slice step cannot be zero");
    /* x[::-1] */
    ASSERT_FAILS(tc_slice(x, 0, 0, TC_END, -1),
                 "step must be greater than zero");
    /* x[:, 1:3:-2] */
    ASSERT_FAILS(tc_slice(x, 1, 1, 3, -2),
                 "step must be greater than zero");
    /* s[1:] */
    ASSERT_FAILS(tc_slice(s, 0, 1, TC_END, 1),
                 "slice() cannot be applied to a 0-dim tensor.");
    /* torch.ops.aten.slice(x, 2, 0, 3, 1) */
    ASSERT_FAILS(tc_slice(x, 2, 0, 3, 1),
                 "Dimension out of range (expected to be in range of [-2, 1], but got 2)");
    /* A dimension x lacks comes before the step, as x[:, :, ::0] is
       "too many indices for tensor of dimension 2" and not the step's
       ValueError; tc_slice's message for it is aten.slice's. */
    ASSERT_FAILS(tc_slice(x, 2, 0, TC_END, 0),
                 "Dimension out of range (expected to be in range of [-2, 1], but got 2)");
    ASSERT_FAILS(tc_slice(x, -3, 0, TC_END, -1),
                 "Dimension out of range (expected to be in range of [-2, 1], but got -3)");
}
END_TEST

START_TEST(test_slice_scalar_step_checked_first)
{
    /* Python unpacks the slice, and refuses its step, before PyTorch looks
       at the tensor */
    /* s[::0] */
    ASSERT_FAILS(tc_slice(s, 0, 0, TC_END, 0),
                 "slice step cannot be zero");
    /* s[::-1] */
    ASSERT_FAILS(tc_slice(s, 0, 0, TC_END, -1),
                 "step must be greater than zero");
}
END_TEST

/* ------------------------------------------------------------------- expand */

START_TEST(test_expand_views)
{
    /* x[0].expand(3, 4) */
    EXPECT_VIEW(x, tc_expand(K(tc_select(x, 0, 0)), S(3, 4)),
                S(3, 4), S(0, 1), 0, V(0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3));
    /* w.expand(1, 3) */
    EXPECT_VIEW(w, tc_expand(w, S(1, 3)),
                S(1, 3), S(3, 1), 0, V(0, 1, 2));
    /* w.expand(2, 1, 3) */
    EXPECT_VIEW(w, tc_expand(w, S(2, 1, 3)),
                S(2, 1, 3), S(0, 3, 1), 0, V(0, 1, 2, 0, 1, 2));
    /* w.expand(1, 1, 3) */
    EXPECT_VIEW(w, tc_expand(w, S(1, 1, 3)),
                S(1, 1, 3), S(3, 3, 1), 0, V(0, 1, 2));
    /* x.select(1, 0).unsqueeze(1).expand(3, 4) */
    EXPECT_VIEW(x, tc_expand(K(tc_unsqueeze(K(tc_select(x, 1, 0)), 1)), S(3, 4)),
                S(3, 4), S(4, 0), 0, V(0, 0, 0, 0, 4, 4, 4, 4, 8, 8, 8, 8));
    /* x[:, 1:2].expand(-1, 3) */
    EXPECT_VIEW(x, tc_expand(K(tc_slice(x, 1, 1, 2, 1)), S(-1, 3)),
                S(3, 3), S(4, 0), 1, V(1, 1, 1, 5, 5, 5, 9, 9, 9));
    /* x.expand(3, 4) */
    EXPECT_VIEW(x, tc_expand(x, S(3, 4)),
                S(3, 4), S(4, 1), 0, V(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11));
    /* x.expand(-1, -1) */
    EXPECT_VIEW(x, tc_expand(x, S(-1, -1)),
                S(3, 4), S(4, 1), 0, V(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11));
    /* x.expand(2, 3, 4) */
    EXPECT_VIEW(x, tc_expand(x, S(2, 3, 4)),
                S(2, 3, 4), S(0, 4, 1), 0, V(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 0, 1, 2, 3,
                  4, 5, 6, 7, 8, 9, 10, 11));
    /* x.expand(1, 3, 4) */
    EXPECT_VIEW(x, tc_expand(x, S(1, 3, 4)),
                S(1, 3, 4), S(12, 4, 1), 0, V(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11));
    /* x.expand(2, 1, -1, 4) */
    EXPECT_VIEW(x, tc_expand(x, S(2, 1, -1, 4)),
                S(2, 1, 3, 4), S(0, 12, 4, 1), 0, V(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 0, 1,
                  2, 3, 4, 5, 6, 7, 8, 9, 10, 11));
    /* x.t().expand(2, 4, 3) */
    EXPECT_VIEW(x, tc_expand(K(tc_t(x)), S(2, 4, 3)),
                S(2, 4, 3), S(0, 1, 4), 0, V(0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11, 0, 4, 8, 1,
                  5, 9, 2, 6, 10, 3, 7, 11));
    /* s.expand(2, 3) */
    EXPECT_VIEW(s, tc_expand(s, S(2, 3)),
                S(2, 3), S(0, 0), 0, V(5, 5, 5, 5, 5, 5));
    /* s.expand(1) */
    EXPECT_VIEW(s, tc_expand(s, S(1)),
                S(1), S(0), 0, V(5));
    /* s.expand(()) */
    EXPECT_VIEW(s, tc_expand(s, TC_SCALAR_SHAPE),
                S0, S0, 0, V(5));
    /* s.expand(1, 1) */
    EXPECT_VIEW(s, tc_expand(s, S(1, 1)),
                S(1, 1), S(0, 0), 0, V(5));
    /* c.expand(3, 0) */
    EXPECT_VIEW(c, tc_expand(c, S(3, 0)),
                S(3, 0), S(1, 0), 0, V0);
    /* x[:1].expand(0, 4) */
    EXPECT_VIEW(x, tc_expand(K(tc_slice(x, 0, 0, 1, 1)), S(0, 4)),
                S(0, 4), S(0, 1), 0, V0);
    /* e.unsqueeze(1).expand(2, 5, 0, 3) */
    EXPECT_VIEW(e, tc_expand(K(tc_unsqueeze(e, 1)), S(2, 5, 0, 3)),
                S(2, 5, 0, 3), S(3, 0, 3, 1), 0, V0);
    /* x[0].expand_as(x) */
    EXPECT_VIEW(x, tc_expand_as(K(tc_select(x, 0, 0)), x),
                S(3, 4), S(0, 1), 0, V(0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3));
    /* c.expand_as(x) */
    EXPECT_VIEW(c, tc_expand_as(c, x),
                S(3, 4), S(1, 0), 0, V(0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2));
    /* c.expand_as(x.t()) */
    ASSERT_FAILS(tc_expand_as(c, K(tc_t(x))),
                 "The expanded size of the tensor (4) must match the existing size (3) at "
                 "non-singleton dimension 0.  Target sizes: [4, 3].  Tensor sizes: [3, 1]");
    /* s.expand_as(y) */
    EXPECT_VIEW(s, tc_expand_as(s, y),
                S(2, 3, 4), S(0, 0, 0), 0, V(5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5,
                  5, 5, 5, 5, 5, 5, 5));
}
END_TEST

START_TEST(test_expand_errors)
{
    /* x.expand(3, 5) */
    ASSERT_FAILS(tc_expand(x, S(3, 5)),
                 "The expanded size of the tensor (5) must match the existing size (4) at "
                 "non-singleton dimension 1.  Target sizes: [3, 5].  Tensor sizes: [3, 4]");
    /* x.expand(2, 4) */
    ASSERT_FAILS(tc_expand(x, S(2, 4)),
                 "The expanded size of the tensor (2) must match the existing size (3) at "
                 "non-singleton dimension 0.  Target sizes: [2, 4].  Tensor sizes: [3, 4]");
    /* x.expand(6, 3, 5) */
    ASSERT_FAILS(tc_expand(x, S(6, 3, 5)),
                 "The expanded size of the tensor (5) must match the existing size (4) at "
                 "non-singleton dimension 2.  Target sizes: [6, 3, 5].  Tensor sizes: [3, 4]");
    /* x.expand(4) */
    ASSERT_FAILS(tc_expand(x, S(4)),
                 "expand(torch.FloatTensor{[3, 4]}, size=[4]): the number of sizes provided "
                 "(1) must be greater or equal to the number of dimensions in the tensor (2)");
    /* s.expand_as(y).expand(3, 4) */
    ASSERT_FAILS(tc_expand(K(tc_expand_as(s, y)), S(3, 4)),
                 "expand(torch.FloatTensor{[2, 3, 4]}, size=[3, 4]): the number of sizes "
                 "provided (2) must be greater or equal to the number of dimensions in the "
                 "tensor (3)");
    /* x.expand(-1, 3, 4) */
    ASSERT_FAILS(tc_expand(x, S(-1, 3, 4)),
                 "The expanded size of the tensor (-1) isn't allowed in a leading, "
                 "non-existing dimension 0");
    /* x.expand(2, -1, 3, 4) */
    ASSERT_FAILS(tc_expand(x, S(2, -1, 3, 4)),
                 "The expanded size of the tensor (-1) isn't allowed in a leading, "
                 "non-existing dimension 1");
    /* x[:1].expand(-2, 4) */
    ASSERT_FAILS(tc_expand(K(tc_slice(x, 0, 0, 1, 1)), S(-2, 4)),
                 "numel: integer multiplication overflow");
    /* x.expand(3, -2) */
    ASSERT_FAILS(tc_expand(x, S(3, -2)),
                 "The expanded size of the tensor (-2) must match the existing size (4) at "
                 "non-singleton dimension 1.  Target sizes: [3, -2].  Tensor sizes: [3, 4]");
    /* w.expand(-2, 3) */
    ASSERT_FAILS(tc_expand(w, S(-2, 3)),
                 "numel: integer multiplication overflow");
    /* x.expand_as(w) */
    ASSERT_FAILS(tc_expand_as(x, w),
                 "expand(torch.FloatTensor{[3, 4]}, size=[3]): the number of sizes provided "
                 "(1) must be greater or equal to the number of dimensions in the tensor (2)");
    /* x.expand_as(y[0, :2]) */
    ASSERT_FAILS(tc_expand_as(x, K(tc_slice(K(tc_select(y, 0, 0)), 0, 0, 2, 1))),
                 "The expanded size of the tensor (2) must match the existing size (3) at "
                 "non-singleton dimension 0.  Target sizes: [2, 4].  Tensor sizes: [3, 4]");
}
END_TEST

START_TEST(test_expand_type_names)
{
    tc_tensor *longs = K(tc_arange(0, 12, 1));
    tc_tensor *doubles = K(tc_zeros(S(3, 4), TC_FLOAT64));

    /* torch.arange(12).view(3, 4).expand(4) */
    ASSERT_FAILS(tc_expand(K(tc_view(longs, S(3, 4))), S(4)),
                 "expand(torch.LongTensor{[3, 4]}, size=[4]): the number of sizes provided (1) "
                 "must be greater or equal to the number of dimensions in the tensor (2)");
    /* torch.arange(12., dtype=torch.float64).view(3, 4).expand(4) */
    ASSERT_FAILS(tc_expand(doubles, S(4)),
                 "expand(torch.DoubleTensor{[3, 4]}, size=[4]): the number of sizes provided "
                 "(1) must be greater or equal to the number of dimensions in the tensor (2)");
    /* torch.zeros(2, 3).expand(()) */
    ASSERT_FAILS(tc_expand(K(tc_zeros(S(2, 3), TC_FLOAT32)), S0),
                 "expand(torch.FloatTensor{[2, 3]}, size=[]): the number of sizes provided (0) "
                 "must be greater or equal to the number of dimensions in the tensor (2)");
}
END_TEST

START_TEST(test_expand_type_name_bool)
{
    /* torch.zeros(3, 4, dtype=torch.bool).expand(4): PyTorch names a bool
       tensor's type CPUBoolType here */
    ASSERT_FAILS(tc_expand(K(tc_zeros(S(3, 4), TC_BOOL)), S(4)),
                 "expand(CPUBoolType{[3, 4]}, size=[4]): the number of sizes provided (1) "
                 "must be greater or equal to the number of dimensions in the tensor (2)");
}
END_TEST

START_TEST(test_expand_scalar_minus_one)
{
    /* torch.tensor(5.).expand(-1), .expand(-1, 2), .expand(2, -1): a 0-dim
       tensor's sizes are taken as given, and -1 fails as a negative size */
    ASSERT_FAILS(tc_expand(s, S(-1)), "numel: integer multiplication overflow");
    ASSERT_FAILS(tc_expand(s, S(-1, 2)), "numel: integer multiplication overflow");
    ASSERT_FAILS(tc_expand(s, S(2, -1)), "numel: integer multiplication overflow");
}
END_TEST

/* ------------------------------------------------------------------ squeeze */

START_TEST(test_squeeze)
{
    /* z.squeeze() */
    EXPECT_VIEW(z, tc_squeeze(z),
                S(4, 3), S(3, 1), 0, V(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11));
    /* z.squeeze(1) */
    EXPECT_VIEW(z, tc_squeeze_dim(z, 1),
                S(4, 3), S(3, 1), 0, V(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11));
    /* z.squeeze(-2) */
    EXPECT_VIEW(z, tc_squeeze_dim(z, -2),
                S(4, 3), S(3, 1), 0, V(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11));
    /* z.squeeze(0) */
    EXPECT_VIEW(z, tc_squeeze_dim(z, 0),
                S(4, 1, 3), S(3, 3, 1), 0, V(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11));
    /* z.squeeze(-1) */
    EXPECT_VIEW(z, tc_squeeze_dim(z, -1),
                S(4, 1, 3), S(3, 3, 1), 0, V(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11));
    /* x.squeeze() */
    EXPECT_VIEW(x, tc_squeeze(x),
                S(3, 4), S(4, 1), 0, V(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11));
    /* x[:, 1:2].squeeze() */
    EXPECT_VIEW(x, tc_squeeze(K(tc_slice(x, 1, 1, 2, 1))),
                S(3), S(4), 1, V(1, 5, 9));
    /* x[1:2, 1:2].squeeze() */
    EXPECT_VIEW(x, tc_squeeze(K(tc_slice(K(tc_slice(x, 0, 1, 2, 1)), 1, 1, 2, 1))),
                S0, S0, 5, V(5));
    /* x.t().unsqueeze(0).squeeze() */
    EXPECT_VIEW(x, tc_squeeze(K(tc_unsqueeze(K(tc_t(x)), 0))),
                S(4, 3), S(1, 4), 0, V(0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11));
    /* s.squeeze() */
    EXPECT_VIEW(s, tc_squeeze(s),
                S0, S0, 0, V(5));
    /* s.squeeze(0) */
    EXPECT_VIEW(s, tc_squeeze_dim(s, 0),
                S0, S0, 0, V(5));
    /* s.squeeze(-1) */
    EXPECT_VIEW(s, tc_squeeze_dim(s, -1),
                S0, S0, 0, V(5));
    /* w[:1].squeeze() */
    EXPECT_VIEW(w, tc_squeeze(K(tc_slice(w, 0, 0, 1, 1))),
                S0, S0, 0, V(0));
    /* e.squeeze() */
    EXPECT_VIEW(e, tc_squeeze(e),
                S(2, 0, 3), S(3, 3, 1), 0, V0);
    /* e.squeeze(1) */
    EXPECT_VIEW(e, tc_squeeze_dim(e, 1),
                S(2, 0, 3), S(3, 3, 1), 0, V0);
    /* z.squeeze(3) */
    ASSERT_FAILS(tc_squeeze_dim(z, 3),
                 "Dimension out of range (expected to be in range of [-3, 2], but got 3)");
    /* z.squeeze(-4) */
    ASSERT_FAILS(tc_squeeze_dim(z, -4),
                 "Dimension out of range (expected to be in range of [-3, 2], but got -4)");
    /* s.squeeze(1) */
    ASSERT_FAILS(tc_squeeze_dim(s, 1),
                 "Dimension out of range (expected to be in range of [-1, 0], but got 1)");
}
END_TEST

/* ---------------------------------------------------------------- unsqueeze */

START_TEST(test_unsqueeze)
{
    /* x.unsqueeze(0) */
    EXPECT_VIEW(x, tc_unsqueeze(x, 0),
                S(1, 3, 4), S(12, 4, 1), 0, V(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11));
    /* x.unsqueeze(1) */
    EXPECT_VIEW(x, tc_unsqueeze(x, 1),
                S(3, 1, 4), S(4, 4, 1), 0, V(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11));
    /* x.unsqueeze(2) */
    EXPECT_VIEW(x, tc_unsqueeze(x, 2),
                S(3, 4, 1), S(4, 1, 1), 0, V(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11));
    /* x.unsqueeze(-1) */
    EXPECT_VIEW(x, tc_unsqueeze(x, -1),
                S(3, 4, 1), S(4, 1, 1), 0, V(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11));
    /* x.unsqueeze(-3) */
    EXPECT_VIEW(x, tc_unsqueeze(x, -3),
                S(1, 3, 4), S(12, 4, 1), 0, V(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11));
    /* x.t().unsqueeze(0) */
    EXPECT_VIEW(x, tc_unsqueeze(K(tc_t(x)), 0),
                S(1, 4, 3), S(4, 1, 4), 0, V(0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11));
    /* x.t().unsqueeze(1) */
    EXPECT_VIEW(x, tc_unsqueeze(K(tc_t(x)), 1),
                S(4, 1, 3), S(1, 12, 4), 0, V(0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11));
    /* x.t().unsqueeze(2) */
    EXPECT_VIEW(x, tc_unsqueeze(K(tc_t(x)), 2),
                S(4, 3, 1), S(1, 4, 1), 0, V(0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11));
    /* x[:, 1:3].unsqueeze(1) */
    EXPECT_VIEW(x, tc_unsqueeze(K(tc_slice(x, 1, 1, 3, 1)), 1),
                S(3, 1, 2), S(4, 2, 1), 1, V(1, 2, 5, 6, 9, 10));
    /* x[0].expand(3, 4).unsqueeze(0) */
    EXPECT_VIEW(x, tc_unsqueeze(K(tc_expand(K(tc_select(x, 0, 0)), S(3, 4))), 0),
                S(1, 3, 4), S(0, 0, 1), 0, V(0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3));
    /* x[0].expand(3, 4).unsqueeze(1) */
    EXPECT_VIEW(x, tc_unsqueeze(K(tc_expand(K(tc_select(x, 0, 0)), S(3, 4))), 1),
                S(3, 1, 4), S(0, 4, 1), 0, V(0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3));
    /* s.unsqueeze(0) */
    EXPECT_VIEW(s, tc_unsqueeze(s, 0),
                S(1), S(1), 0, V(5));
    /* s.unsqueeze(-1) */
    EXPECT_VIEW(s, tc_unsqueeze(s, -1),
                S(1), S(1), 0, V(5));
    /* e.unsqueeze(2) */
    EXPECT_VIEW(e, tc_unsqueeze(e, 2),
                S(2, 0, 1, 3), S(3, 3, 3, 1), 0, V0);
    /* x.unsqueeze(3) */
    ASSERT_FAILS(tc_unsqueeze(x, 3),
                 "Dimension out of range (expected to be in range of [-3, 2], but got 3)");
    /* x.unsqueeze(-4) */
    ASSERT_FAILS(tc_unsqueeze(x, -4),
                 "Dimension out of range (expected to be in range of [-3, 2], but got -4)");
    /* s.unsqueeze(1) */
    ASSERT_FAILS(tc_unsqueeze(s, 1),
                 "Dimension out of range (expected to be in range of [-1, 0], but got 1)");
    /* s.unsqueeze(-2) */
    ASSERT_FAILS(tc_unsqueeze(s, -2),
                 "Dimension out of range (expected to be in range of [-1, 0], but got -2)");
}
END_TEST

/* ------------------------------------------------------------------ flatten */

START_TEST(test_flatten)
{
    /* x.flatten() */
    EXPECT_VIEW(x, tc_flatten(x, 0, -1),
                S(12), S(1), 0, V(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11));
    /* x.t().flatten() */
    EXPECT_COPY(x, tc_flatten(K(tc_t(x)), 0, -1),
                S(12), S(1), 0, V(0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11));
    /* y.flatten(1) */
    EXPECT_VIEW(y, tc_flatten(y, 1, -1),
                S(2, 12), S(12, 1), 0, V(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
                  16, 17, 18, 19, 20, 21, 22, 23));
    /* y.flatten(0, 1) */
    EXPECT_VIEW(y, tc_flatten(y, 0, 1),
                S(6, 4), S(4, 1), 0, V(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
                  17, 18, 19, 20, 21, 22, 23));
    /* y.flatten(-3, -2) */
    EXPECT_VIEW(y, tc_flatten(y, -3, -2),
                S(6, 4), S(4, 1), 0, V(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
                  17, 18, 19, 20, 21, 22, 23));
    /* y.transpose(0, 1).flatten(1) */
    EXPECT_COPY(y, tc_flatten(K(tc_transpose(y, 0, 1)), 1, -1),
                S(3, 8), S(8, 1), 0, V(0, 1, 2, 3, 12, 13, 14, 15, 4, 5, 6, 7, 16, 17, 18, 19,
                  8, 9, 10, 11, 20, 21, 22, 23));
    /* y.transpose(0, 1).flatten(0, 1) */
    EXPECT_COPY(y, tc_flatten(K(tc_transpose(y, 0, 1)), 0, 1),
                S(6, 4), S(4, 1), 0, V(0, 1, 2, 3, 12, 13, 14, 15, 4, 5, 6, 7, 16, 17, 18, 19,
                  8, 9, 10, 11, 20, 21, 22, 23));
    /* y[:, :, :2].flatten(0, 1) */
    EXPECT_VIEW(y, tc_flatten(K(tc_slice(y, 2, 0, 2, 1)), 0, 1),
                S(6, 2), S(4, 1), 0, V(0, 1, 4, 5, 8, 9, 12, 13, 16, 17, 20, 21));
    /* y[:, :, :2].flatten() */
    EXPECT_COPY(y, tc_flatten(K(tc_slice(y, 2, 0, 2, 1)), 0, -1),
                S(12), S(1), 0, V(0, 1, 4, 5, 8, 9, 12, 13, 16, 17, 20, 21));
    /* x[1:].flatten() */
    EXPECT_VIEW(x, tc_flatten(K(tc_slice(x, 0, 1, TC_END, 1)), 0, -1),
                S(8), S(1), 4, V(4, 5, 6, 7, 8, 9, 10, 11));
    /* s.flatten() */
    EXPECT_VIEW(s, tc_flatten(s, 0, -1),
                S(1), S(1), 0, V(5));
    /* s.flatten(-1, 0) */
    EXPECT_VIEW(s, tc_flatten(s, -1, 0),
                S(1), S(1), 0, V(5));
    /* e.flatten() */
    EXPECT_VIEW(e, tc_flatten(e, 0, -1),
                S(0), S(1), 0, V0);
    /* x[0].expand(3, 4).flatten() */
    EXPECT_COPY(x, tc_flatten(K(tc_expand(K(tc_select(x, 0, 0)), S(3, 4))), 0, -1),
                S(12), S(1), 0, V(0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3));
    /* x.flatten(1, 0) */
    ASSERT_FAILS(tc_flatten(x, 1, 0),
                 "flatten() has invalid args: start_dim cannot come after end_dim");
    /* x.flatten(-1, 0) */
    ASSERT_FAILS(tc_flatten(x, -1, 0),
                 "flatten() has invalid args: start_dim cannot come after end_dim");
    /* x.flatten(0, 2) */
    ASSERT_FAILS(tc_flatten(x, 0, 2),
                 "Dimension out of range (expected to be in range of [-2, 1], but got 2)");
    /* s.flatten(0, 1) */
    ASSERT_FAILS(tc_flatten(s, 0, 1),
                 "Dimension out of range (expected to be in range of [-1, 0], but got 1)");
}
END_TEST

/* ----------------------------------------------------------------- diagonal */

START_TEST(test_diagonal)
{
    /* x.diagonal() */
    EXPECT_VIEW(x, tc_diagonal(x, 0, 0, 1),
                S(3), S(5), 0, V(0, 5, 10));
    /* x.diagonal(1) */
    EXPECT_VIEW(x, tc_diagonal(x, 1, 0, 1),
                S(3), S(5), 1, V(1, 6, 11));
    /* x.diagonal(2) */
    EXPECT_VIEW(x, tc_diagonal(x, 2, 0, 1),
                S(2), S(5), 2, V(2, 7));
    /* x.diagonal(3) */
    EXPECT_VIEW(x, tc_diagonal(x, 3, 0, 1),
                S(1), S(5), 3, V(3));
    /* x.diagonal(4) */
    EXPECT_VIEW(x, tc_diagonal(x, 4, 0, 1),
                S(0), S(5), 0, V0);
    /* x.diagonal(-1) */
    EXPECT_VIEW(x, tc_diagonal(x, -1, 0, 1),
                S(2), S(5), 4, V(4, 9));
    /* x.diagonal(-2) */
    EXPECT_VIEW(x, tc_diagonal(x, -2, 0, 1),
                S(1), S(5), 8, V(8));
    /* x.diagonal(-3) */
    EXPECT_VIEW(x, tc_diagonal(x, -3, 0, 1),
                S(0), S(5), 0, V0);
    /* x.diagonal(1, 1, 0) */
    EXPECT_VIEW(x, tc_diagonal(x, 1, 1, 0),
                S(2), S(5), 4, V(4, 9));
    /* x.diagonal(0, -1, -2) */
    EXPECT_VIEW(x, tc_diagonal(x, 0, -1, -2),
                S(3), S(5), 0, V(0, 5, 10));
    /* x.t().diagonal() */
    EXPECT_VIEW(x, tc_diagonal(K(tc_t(x)), 0, 0, 1),
                S(3), S(5), 0, V(0, 5, 10));
    /* x[1:].diagonal(1) */
    EXPECT_VIEW(x, tc_diagonal(K(tc_slice(x, 0, 1, TC_END, 1)), 1, 0, 1),
                S(2), S(5), 5, V(5, 10));
    /* y.diagonal() */
    EXPECT_VIEW(y, tc_diagonal(y, 0, 0, 1),
                S(4, 2), S(1, 16), 0, V(0, 16, 1, 17, 2, 18, 3, 19));
    /* y.diagonal(0, 0, 2) */
    EXPECT_VIEW(y, tc_diagonal(y, 0, 0, 2),
                S(3, 2), S(4, 13), 0, V(0, 13, 4, 17, 8, 21));
    /* y.diagonal(1, 0, 2) */
    EXPECT_VIEW(y, tc_diagonal(y, 1, 0, 2),
                S(3, 2), S(4, 13), 1, V(1, 14, 5, 18, 9, 22));
    /* y.diagonal(-1, 1, 2) */
    EXPECT_VIEW(y, tc_diagonal(y, -1, 1, 2),
                S(2, 2), S(12, 5), 4, V(4, 9, 16, 21));
    /* y.diagonal(0, 2, 0) */
    EXPECT_VIEW(y, tc_diagonal(y, 0, 2, 0),
                S(3, 2), S(4, 13), 0, V(0, 13, 4, 17, 8, 21));
    /* e.diagonal(0, 0, 2) */
    EXPECT_VIEW(e, tc_diagonal(e, 0, 0, 2),
                S(0, 2), S(3, 4), 0, V0);
    /* x.diagonal(0, 0, -2) */
    ASSERT_FAILS(tc_diagonal(x, 0, 0, -2),
                 "diagonal dimensions cannot be identical 0, -2");
    /* x.diagonal(0, 1, 1) */
    ASSERT_FAILS(tc_diagonal(x, 0, 1, 1),
                 "diagonal dimensions cannot be identical 1, 1");
    /* y.diagonal(0, -1, 2) */
    ASSERT_FAILS(tc_diagonal(y, 0, -1, 2),
                 "diagonal dimensions cannot be identical -1, 2");
    /* x.diagonal(0, 0, 2) */
    ASSERT_FAILS(tc_diagonal(x, 0, 0, 2),
                 "Dimension out of range (expected to be in range of [-2, 1], but got 2)");
    /* v.diagonal() */
    ASSERT_FAILS(tc_diagonal(v, 0, 0, 1),
                 "Dimension out of range (expected to be in range of [-1, 0], but got 1)");
    /* s.diagonal() */
    ASSERT_FAILS(tc_diagonal(s, 0, 0, 1),
                 "Dimension out of range (expected to be in range of [-1, 0], but got 1)");
}
END_TEST

/* ------------------------------------------------------------------- unfold */

START_TEST(test_unfold)
{
    /* x.unfold(1, 2, 1) */
    EXPECT_VIEW(x, tc_unfold(x, 1, 2, 1),
                S(3, 3, 2), S(4, 1, 1), 0, V(0, 1, 1, 2, 2, 3, 4, 5, 5, 6, 6, 7, 8, 9, 9, 10,
                  10, 11));
    /* x.unfold(1, 2, 2) */
    EXPECT_VIEW(x, tc_unfold(x, 1, 2, 2),
                S(3, 2, 2), S(4, 2, 1), 0, V(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11));
    /* x.unfold(0, 2, 1) */
    EXPECT_VIEW(x, tc_unfold(x, 0, 2, 1),
                S(2, 4, 2), S(4, 1, 4), 0, V(0, 4, 1, 5, 2, 6, 3, 7, 4, 8, 5, 9, 6, 10, 7, 11));
    /* x.unfold(-1, 3, 1) */
    EXPECT_VIEW(x, tc_unfold(x, -1, 3, 1),
                S(3, 2, 3), S(4, 1, 1), 0, V(0, 1, 2, 1, 2, 3, 4, 5, 6, 5, 6, 7, 8, 9, 10, 9,
                  10, 11));
    /* v.unfold(0, 3, 1) */
    EXPECT_VIEW(v, tc_unfold(v, 0, 3, 1),
                S(4, 3), S(1, 1), 0, V(0, 1, 2, 1, 2, 3, 2, 3, 4, 3, 4, 5));
    /* v.unfold(0, 2, 5) */
    EXPECT_VIEW(v, tc_unfold(v, 0, 2, 5),
                S(1, 2), S(5, 1), 0, V(0, 1));
    /* v.unfold(0, 2, 3) */
    EXPECT_VIEW(v, tc_unfold(v, 0, 2, 3),
                S(2, 2), S(3, 1), 0, V(0, 1, 3, 4));
    /* v.unfold(0, 6, 1) */
    EXPECT_VIEW(v, tc_unfold(v, 0, 6, 1),
                S(1, 6), S(1, 1), 0, V(0, 1, 2, 3, 4, 5));
    /* v.unfold(0, 0, 1) */
    EXPECT_VIEW(v, tc_unfold(v, 0, 0, 1),
                S(7, 0), S(1, 1), 0, V0);
    /* v.unfold(0, 0, 4) */
    EXPECT_VIEW(v, tc_unfold(v, 0, 0, 4),
                S(2, 0), S(4, 1), 0, V0);
    /* x.t().unfold(0, 3, 1) */
    EXPECT_VIEW(x, tc_unfold(K(tc_t(x)), 0, 3, 1),
                S(2, 3, 3), S(1, 4, 1), 0, V(0, 1, 2, 4, 5, 6, 8, 9, 10, 1, 2, 3, 5, 6, 7, 9,
                  10, 11));
    /* x[:, 1:].unfold(1, 2, 1) */
    EXPECT_VIEW(x, tc_unfold(K(tc_slice(x, 1, 1, TC_END, 1)), 1, 2, 1),
                S(3, 2, 2), S(4, 1, 1), 1, V(1, 2, 2, 3, 5, 6, 6, 7, 9, 10, 10, 11));
    /* s.unfold(0, 1, 1) */
    EXPECT_VIEW(s, tc_unfold(s, 0, 1, 1),
                S(1), S(1), 0, V(5));
    /* s.unfold(0, 0, 1) */
    EXPECT_VIEW(s, tc_unfold(s, 0, 0, 1),
                S(0), S(1), 0, V0);
    /* s.unfold(-1, 1, 2) */
    EXPECT_VIEW(s, tc_unfold(s, -1, 1, 2),
                S(1), S(1), 0, V(5));
    /* e.unfold(1, 0, 1) */
    EXPECT_VIEW(e, tc_unfold(e, 1, 0, 1),
                S(2, 1, 3, 0), S(3, 3, 1, 3), 0, V0);
    /* e.unfold(2, 2, 1) */
    EXPECT_VIEW(e, tc_unfold(e, 2, 2, 1),
                S(2, 0, 2, 2), S(3, 3, 1, 1), 0, V0);
    /* v.unfold(0, 7, 1) */
    ASSERT_FAILS(tc_unfold(v, 0, 7, 1),
                 "maximum size for tensor at dimension 0 is 6 but size is 7");
    /* x.unfold(-1, 5, 1) */
    ASSERT_FAILS(tc_unfold(x, -1, 5, 1),
                 "maximum size for tensor at dimension 1 is 4 but size is 5");
    /* v.unfold(0, 2, 0) */
    ASSERT_FAILS(tc_unfold(v, 0, 2, 0),
                 "step is 0 but must be > 0");
    /* v.unfold(0, 2, -1) */
    ASSERT_FAILS(tc_unfold(v, 0, 2, -1),
                 "step is -1 but must be > 0");
    /* v.unfold(1, 1, 1) */
    ASSERT_FAILS(tc_unfold(v, 1, 1, 1),
                 "Dimension out of range (expected to be in range of [-1, 0], but got 1)");
    /* s.unfold(0, 2, 1) */
    ASSERT_FAILS(tc_unfold(s, 0, 2, 1),
                 "maximum size for tensor at dimension 0 is 1 but size is 2");
    /* s.unfold(1, 1, 1) */
    ASSERT_FAILS(tc_unfold(s, 1, 1, 1),
                 "Dimension out of range (expected to be in range of [-1, 0], but got 1)");
    /* v.unfold(0, -1, 1) */
    ASSERT_FAILS(tc_unfold(v, 0, -1, 1),
                 "Storage size calculation overflowed with sizes=[8, -1] and strides=[1, 1]");
    /* x.unfold(1, 9, 0) */
    ASSERT_FAILS(tc_unfold(x, 1, 9, 0),
                 "maximum size for tensor at dimension 1 is 4 but size is 9");
}
END_TEST

/* --------------------------------------------------------------- as_strided */

START_TEST(test_as_strided)
{
    /* v.as_strided((3, 2), (1, 3), 0) */
    EXPECT_VIEW(v, tc_as_strided(v, S(3, 2), S(1, 3), 0),
                S(3, 2), S(1, 3), 0, V(0, 3, 1, 4, 2, 5));
    /* v.as_strided((2, 2), (1, 2), 1) */
    EXPECT_VIEW(v, tc_as_strided(v, S(2, 2), S(1, 2), 1),
                S(2, 2), S(1, 2), 1, V(1, 3, 2, 4));
    /* v.as_strided((2, 3), (0, 1), 3) */
    EXPECT_VIEW(v, tc_as_strided(v, S(2, 3), S(0, 1), 3),
                S(2, 3), S(0, 1), 3, V(3, 4, 5, 3, 4, 5));
    /* v.as_strided((3, 2), (1, 1), 0) */
    EXPECT_VIEW(v, tc_as_strided(v, S(3, 2), S(1, 1), 0),
                S(3, 2), S(1, 1), 0, V(0, 1, 1, 2, 2, 3));
    /* v.as_strided((), (), 5) */
    EXPECT_VIEW(v, tc_as_strided(v, TC_SCALAR_SHAPE, TC_SCALAR_SHAPE, 5),
                S0, S0, 5, V(5));
    /* v.as_strided((6,), (1,), 0) */
    EXPECT_VIEW(v, tc_as_strided(v, S(6), S(1), 0),
                S(6), S(1), 0, V(0, 1, 2, 3, 4, 5));
    /* v.as_strided((0,), (1,), 100) */
    EXPECT_VIEW(v, tc_as_strided(v, S(0), S(1), 100),
                S(0), S(1), 100, V0);
    /* v.as_strided((2, 0), (1, 1), 1000) */
    EXPECT_VIEW(v, tc_as_strided(v, S(2, 0), S(1, 1), 1000),
                S(2, 0), S(1, 1), 1000, V0);
    /* x[1].as_strided((2,), (4,), 0) */
    EXPECT_VIEW(x, tc_as_strided(K(tc_select(x, 0, 1)), S(2), S(4), 0),
                S(2), S(4), 0, V(0, 4));
    /* x.as_strided((4, 4), (4, 1), 0) */
    ASSERT_FAILS(tc_as_strided(x, S(4, 4), S(4, 1), 0),
                 "setStorage: sizes [4, 4], strides [4, 1], storage offset 0, and itemsize 4 "
                 "requiring a storage size of 64 are out of bounds for storage of size 48");
    /* x.as_strided((2, 2), (1, 1), 11) */
    ASSERT_FAILS(tc_as_strided(x, S(2, 2), S(1, 1), 11),
                 "setStorage: sizes [2, 2], strides [1, 1], storage offset 11, and itemsize "
                 "4 requiring a storage size of 56 are out of bounds for storage of size 48");
    /* x.as_strided((), (), 12) */
    ASSERT_FAILS(tc_as_strided(x, TC_SCALAR_SHAPE, TC_SCALAR_SHAPE, 12),
                 "setStorage: sizes [], strides [], storage offset 12, and itemsize 4 "
                 "requiring a storage size of 52 are out of bounds for storage of size 48");
    /* x.as_strided((2,), (-1,), 5) */
    ASSERT_FAILS(tc_as_strided(x, S(2), S(-1), 5),
                 "as_strided: Negative strides are not supported at the moment, got strides: "
                 "[-1]");
    /* x.as_strided((2, 2), (4, -1), 5) */
    ASSERT_FAILS(tc_as_strided(x, S(2, 2), S(4, -1), 5),
                 "as_strided: Negative strides are not supported at the moment, got strides: "
                 "[4, -1]");
    /* x.as_strided((2,), (1,), -1) */
    ASSERT_FAILS(tc_as_strided(x, S(2), S(1), -1),
                 "Tensor: invalid storage offset -1");
    /* x.as_strided((0,), (1,), -1) */
    ASSERT_FAILS(tc_as_strided(x, S(0), S(1), -1),
                 "Tensor: invalid storage offset -1");
    /* x.as_strided((2, 2), (1,), 0) */
    ASSERT_FAILS(tc_as_strided(x, S(2, 2), S(1), 0),
                 "mismatch in length of strides and shape");
    /* x.as_strided((2, -1), (1, 1), 0) */
    ASSERT_FAILS(tc_as_strided(x, S(2, -1), S(1, 1), 0),
                 "Storage size calculation overflowed with sizes=[2, -1] and strides=[1, 1]");
}
END_TEST

START_TEST(test_as_strided_negative_offset_out_of_bounds)
{
    /* torch.arange(6.).as_strided((100,), (1,), -1): the bounds are checked
       before the offset's sign */
    ASSERT_FAILS(tc_as_strided(v, S(100), S(1), -1),
                 "setStorage: sizes [100], strides [1], storage offset -1, and itemsize 4 "
                 "requiring a storage size of 396 are out of bounds for storage of size 24");
}
END_TEST

/* -------------------------------------------------- view of strided tensors */

START_TEST(test_view_strided_inputs)
{
    /* x.t().view(4, 3) */
    EXPECT_VIEW(x, tc_view(K(tc_t(x)), S(4, 3)),
                S(4, 3), S(1, 4), 0, V(0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11));
    /* x.t().view(4, 1, 3) */
    EXPECT_VIEW(x, tc_view(K(tc_t(x)), S(4, 1, 3)),
                S(4, 1, 3), S(1, 12, 4), 0, V(0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11));
    /* x.t().view(2, 2, 3) */
    EXPECT_VIEW(x, tc_view(K(tc_t(x)), S(2, 2, 3)),
                S(2, 2, 3), S(2, 1, 4), 0, V(0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11));
    /* x.t().view(1, 4, 3, 1) */
    EXPECT_VIEW(x, tc_view(K(tc_t(x)), S(1, 4, 3, 1)),
                S(1, 4, 3, 1), S(4, 1, 4, 4), 0, V(0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11));
    /* x.t().view(12) */
    ASSERT_FAILS(tc_view(K(tc_t(x)), S(12)),
                 "view size is not compatible with input tensor's size and stride (at least "
                 "one dimension spans across two contiguous subspaces). Use .reshape(...) "
                 "instead.");
    /* x.t().view(3, 4) */
    ASSERT_FAILS(tc_view(K(tc_t(x)), S(3, 4)),
                 "view size is not compatible with input tensor's size and stride (at least "
                 "one dimension spans across two contiguous subspaces). Use .reshape(...) "
                 "instead.");
    /* x.t().view(4, 3, 1).view(2, 2, 3) */
    EXPECT_VIEW(x, tc_view(K(tc_view(K(tc_t(x)), S(4, 3, 1))), S(2, 2, 3)),
                S(2, 2, 3), S(2, 1, 4), 0, V(0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11));
    /* x[:, 1:3].view(3, 2) */
    EXPECT_VIEW(x, tc_view(K(tc_slice(x, 1, 1, 3, 1)), S(3, 2)),
                S(3, 2), S(4, 1), 1, V(1, 2, 5, 6, 9, 10));
    /* x[:, 1:3].view(3, 1, 2) */
    EXPECT_VIEW(x, tc_view(K(tc_slice(x, 1, 1, 3, 1)), S(3, 1, 2)),
                S(3, 1, 2), S(4, 2, 1), 1, V(1, 2, 5, 6, 9, 10));
    /* x[:, 1:3].view(3, 2, 1) */
    EXPECT_VIEW(x, tc_view(K(tc_slice(x, 1, 1, 3, 1)), S(3, 2, 1)),
                S(3, 2, 1), S(4, 1, 1), 1, V(1, 2, 5, 6, 9, 10));
    /* x[:, 1:3].view(-1, 2) */
    EXPECT_VIEW(x, tc_view(K(tc_slice(x, 1, 1, 3, 1)), S(-1, 2)),
                S(3, 2), S(4, 1), 1, V(1, 2, 5, 6, 9, 10));
    /* x[:, 1:3].view(6) */
    ASSERT_FAILS(tc_view(K(tc_slice(x, 1, 1, 3, 1)), S(6)),
                 "view size is not compatible with input tensor's size and stride (at least "
                 "one dimension spans across two contiguous subspaces). Use .reshape(...) "
                 "instead.");
    /* x[:, 1:3].view(2, 3) */
    ASSERT_FAILS(tc_view(K(tc_slice(x, 1, 1, 3, 1)), S(2, 3)),
                 "view size is not compatible with input tensor's size and stride (at least "
                 "one dimension spans across two contiguous subspaces). Use .reshape(...) "
                 "instead.");
    /* x[:, ::2].view(3, 2) */
    EXPECT_VIEW(x, tc_view(K(tc_slice(x, 1, 0, TC_END, 2)), S(3, 2)),
                S(3, 2), S(4, 2), 0, V(0, 2, 4, 6, 8, 10));
    /* x[::2].view(8) */
    ASSERT_FAILS(tc_view(K(tc_slice(x, 0, 0, TC_END, 2)), S(8)),
                 "view size is not compatible with input tensor's size and stride (at least "
                 "one dimension spans across two contiguous subspaces). Use .reshape(...) "
                 "instead.");
    /* x[::2].view(2, 2, 2) */
    EXPECT_VIEW(x, tc_view(K(tc_slice(x, 0, 0, TC_END, 2)), S(2, 2, 2)),
                S(2, 2, 2), S(8, 2, 1), 0, V(0, 1, 2, 3, 8, 9, 10, 11));
    /* x[::2].view(4, 2) */
    ASSERT_FAILS(tc_view(K(tc_slice(x, 0, 0, TC_END, 2)), S(4, 2)),
                 "view size is not compatible with input tensor's size and stride (at least "
                 "one dimension spans across two contiguous subspaces). Use .reshape(...) "
                 "instead.");
    /* y[:, :2].view(2, 8) */
    EXPECT_VIEW(y, tc_view(K(tc_slice(y, 1, 0, 2, 1)), S(2, 8)),
                S(2, 8), S(12, 1), 0, V(0, 1, 2, 3, 4, 5, 6, 7, 12, 13, 14, 15, 16, 17, 18,
                  19));
    /* y[:, :2].view(2, 2, 2, 2) */
    EXPECT_VIEW(y, tc_view(K(tc_slice(y, 1, 0, 2, 1)), S(2, 2, 2, 2)),
                S(2, 2, 2, 2), S(12, 4, 2, 1), 0, V(0, 1, 2, 3, 4, 5, 6, 7, 12, 13, 14, 15, 16,
                  17, 18, 19));
    /* y[:, :2].view(4, 4) */
    ASSERT_FAILS(tc_view(K(tc_slice(y, 1, 0, 2, 1)), S(4, 4)),
                 "view size is not compatible with input tensor's size and stride (at least "
                 "one dimension spans across two contiguous subspaces). Use .reshape(...) "
                 "instead.");
    /* y[:, :2].view(16) */
    ASSERT_FAILS(tc_view(K(tc_slice(y, 1, 0, 2, 1)), S(16)),
                 "view size is not compatible with input tensor's size and stride (at least "
                 "one dimension spans across two contiguous subspaces). Use .reshape(...) "
                 "instead.");
    /* y[:, :, 1:3].view(6, 2) */
    EXPECT_VIEW(y, tc_view(K(tc_slice(y, 2, 1, 3, 1)), S(6, 2)),
                S(6, 2), S(4, 1), 1, V(1, 2, 5, 6, 9, 10, 13, 14, 17, 18, 21, 22));
    /* y[:, :, 1:3].view(2, 6) */
    ASSERT_FAILS(tc_view(K(tc_slice(y, 2, 1, 3, 1)), S(2, 6)),
                 "view size is not compatible with input tensor's size and stride (at least "
                 "one dimension spans across two contiguous subspaces). Use .reshape(...) "
                 "instead.");
    /* y.permute(1, 0, 2).view(3, 2, 2, 2) */
    EXPECT_VIEW(y, tc_view(K(tc_permute(y, TC_DIMS(1, 0, 2))), S(3, 2, 2, 2)),
                S(3, 2, 2, 2), S(4, 12, 2, 1), 0, V(0, 1, 2, 3, 12, 13, 14, 15, 4, 5, 6, 7, 16,
                  17, 18, 19, 8, 9, 10, 11, 20, 21, 22, 23));
    /* y.permute(1, 0, 2).view(6, 4) */
    ASSERT_FAILS(tc_view(K(tc_permute(y, TC_DIMS(1, 0, 2))), S(6, 4)),
                 "view size is not compatible with input tensor's size and stride (at least "
                 "one dimension spans across two contiguous subspaces). Use .reshape(...) "
                 "instead.");
    /* y.permute(2, 0, 1).view(4, 6) */
    EXPECT_VIEW(y, tc_view(K(tc_permute(y, TC_DIMS(2, 0, 1))), S(4, 6)),
                S(4, 6), S(1, 4), 0, V(0, 4, 8, 12, 16, 20, 1, 5, 9, 13, 17, 21, 2, 6, 10, 14,
                  18, 22, 3, 7, 11, 15, 19, 23));
    /* y.permute(2, 0, 1).view(2, 2, 6) */
    EXPECT_VIEW(y, tc_view(K(tc_permute(y, TC_DIMS(2, 0, 1))), S(2, 2, 6)),
                S(2, 2, 6), S(2, 1, 4), 0, V(0, 4, 8, 12, 16, 20, 1, 5, 9, 13, 17, 21, 2, 6, 10,
                  14, 18, 22, 3, 7, 11, 15, 19, 23));
    /* z.transpose(0, 1).view(4, 3) */
    EXPECT_VIEW(z, tc_view(K(tc_transpose(z, 0, 1)), S(4, 3)),
                S(4, 3), S(3, 1), 0, V(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11));
    /* z.transpose(0, 1).view(12) */
    EXPECT_VIEW(z, tc_view(K(tc_transpose(z, 0, 1)), S(12)),
                S(12), S(1), 0, V(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11));
    /* z.transpose(0, 1).view(2, 2, 3) */
    EXPECT_VIEW(z, tc_view(K(tc_transpose(z, 0, 1)), S(2, 2, 3)),
                S(2, 2, 3), S(6, 3, 1), 0, V(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11));
    /* c.as_strided((3, 1), (1, 7), 0).view(3, 1) */
    EXPECT_VIEW(c, tc_view(K(tc_as_strided(c, S(3, 1), S(1, 7), 0)), S(3, 1)),
                S(3, 1), S(1, 7), 0, V(0, 1, 2));
    /* c.as_strided((3, 1), (1, 7), 0).view(3) */
    EXPECT_VIEW(c, tc_view(K(tc_as_strided(c, S(3, 1), S(1, 7), 0)), S(3)),
                S(3), S(1), 0, V(0, 1, 2));
    /* c.as_strided((3, 1), (1, 7), 0).view(1, 3, 1) */
    EXPECT_VIEW(c, tc_view(K(tc_as_strided(c, S(3, 1), S(1, 7), 0)), S(1, 3, 1)),
                S(1, 3, 1), S(3, 1, 7), 0, V(0, 1, 2));
    /* c.as_strided((1, 3), (5, 1), 0).view(3, 1) */
    EXPECT_VIEW(c, tc_view(K(tc_as_strided(c, S(1, 3), S(5, 1), 0)), S(3, 1)),
                S(3, 1), S(1, 1), 0, V(0, 1, 2));
    /* c.as_strided((1, 3), (5, 1), 0).view(1, 3) */
    EXPECT_VIEW(c, tc_view(K(tc_as_strided(c, S(1, 3), S(5, 1), 0)), S(1, 3)),
                S(1, 3), S(3, 1), 0, V(0, 1, 2));
    /* x[0].expand(3, 4).view(12) */
    ASSERT_FAILS(tc_view(K(tc_expand(K(tc_select(x, 0, 0)), S(3, 4))), S(12)),
                 "view size is not compatible with input tensor's size and stride (at least "
                 "one dimension spans across two contiguous subspaces). Use .reshape(...) "
                 "instead.");
    /* x[0].expand(3, 4).view(3, 2, 2) */
    EXPECT_VIEW(x, tc_view(K(tc_expand(K(tc_select(x, 0, 0)), S(3, 4))), S(3, 2, 2)),
                S(3, 2, 2), S(0, 2, 1), 0, V(0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3));
    /* x[0].expand(3, 4).view(3, 4, 1) */
    EXPECT_VIEW(x, tc_view(K(tc_expand(K(tc_select(x, 0, 0)), S(3, 4))), S(3, 4, 1)),
                S(3, 4, 1), S(0, 1, 1), 0, V(0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3));
    /* x[:, :1].expand(3, 4).view(3, 2, 2) */
    EXPECT_VIEW(x, tc_view(K(tc_expand(K(tc_slice(x, 1, 0, 1, 1)), S(3, 4))), S(3, 2, 2)),
                S(3, 2, 2), S(4, 0, 0), 0, V(0, 0, 0, 0, 4, 4, 4, 4, 8, 8, 8, 8));
    /* x[:, :1].expand(3, 4).view(12) */
    ASSERT_FAILS(tc_view(K(tc_expand(K(tc_slice(x, 1, 0, 1, 1)), S(3, 4))), S(12)),
                 "view size is not compatible with input tensor's size and stride (at least "
                 "one dimension spans across two contiguous subspaces). Use .reshape(...) "
                 "instead.");
    /* s.expand(2, 3).view(6) */
    EXPECT_VIEW(s, tc_view(K(tc_expand(s, S(2, 3))), S(6)),
                S(6), S(0), 0, V(5, 5, 5, 5, 5, 5));
    /* s.expand(2, 3).view(3, 2) */
    EXPECT_VIEW(s, tc_view(K(tc_expand(s, S(2, 3))), S(3, 2)),
                S(3, 2), S(0, 0), 0, V(5, 5, 5, 5, 5, 5));
    /* x[3:].view(0, 4) */
    EXPECT_VIEW(x, tc_view(K(tc_slice(x, 0, 3, TC_END, 1)), S(0, 4)),
                S(0, 4), S(4, 1), 12, V0);
    /* x[3:].view(4, 0) */
    EXPECT_VIEW(x, tc_view(K(tc_slice(x, 0, 3, TC_END, 1)), S(4, 0)),
                S(4, 0), S(1, 1), 12, V0);
    /* x[3:].view(-1) */
    EXPECT_VIEW(x, tc_view(K(tc_slice(x, 0, 3, TC_END, 1)), S(-1)),
                S(0), S(1), 12, V0);
    /* x.t()[:, 3:].view(0) */
    EXPECT_VIEW(x, tc_view(K(tc_slice(K(tc_t(x)), 1, 3, TC_END, 1)), S(0)),
                S(0), S(1), 12, V0);
    /* e.transpose(0, 2).view(3, 0, 2) */
    EXPECT_VIEW(e, tc_view(K(tc_transpose(e, 0, 2)), S(3, 0, 2)),
                S(3, 0, 2), S(1, 3, 3), 0, V0);
    /* e.transpose(0, 2).view(6, 0) */
    EXPECT_VIEW(e, tc_view(K(tc_transpose(e, 0, 2)), S(6, 0)),
                S(6, 0), S(1, 1), 0, V0);
    /* e.view(0, 5, 7) */
    EXPECT_VIEW(e, tc_view(e, S(0, 5, 7)),
                S(0, 5, 7), S(35, 7, 1), 0, V0);
    /* s.view(1, 1) */
    EXPECT_VIEW(s, tc_view(s, S(1, 1)),
                S(1, 1), S(1, 1), 0, V(5));
    /* s.view(()) */
    EXPECT_VIEW(s, tc_view(s, TC_SCALAR_SHAPE),
                S0, S0, 0, V(5));
    /* s.view(-1) */
    EXPECT_VIEW(s, tc_view(s, S(-1)),
                S(1), S(1), 0, V(5));
    /* x[1, 2].view(1) */
    EXPECT_VIEW(x, tc_view(K(tc_select(K(tc_select(x, 0, 1)), 0, 2)), S(1)),
                S(1), S(1), 6, V(6));
    /* x[1, 2].view(1, 1, 1) */
    EXPECT_VIEW(x, tc_view(K(tc_select(K(tc_select(x, 0, 1)), 0, 2)), S(1, 1, 1)),
                S(1, 1, 1), S(1, 1, 1), 6, V(6));
    /* x[1:2, 2:3].view(()) */
    EXPECT_VIEW(x, tc_view(K(tc_slice(K(tc_slice(x, 0, 1, 2, 1)), 1, 2, 3, 1)), TC_SCALAR_SHAPE),
                S0, S0, 6, V(6));
    /* x.diagonal().view(3, 1) */
    EXPECT_VIEW(x, tc_view(K(tc_diagonal(x, 0, 0, 1)), S(3, 1)),
                S(3, 1), S(5, 5), 0, V(0, 5, 10));
    /* x.unfold(1, 2, 1).view(3, 6) */
    ASSERT_FAILS(tc_view(K(tc_unfold(x, 1, 2, 1)), S(3, 6)),
                 "view size is not compatible with input tensor's size and stride (at least "
                 "one dimension spans across two contiguous subspaces). Use .reshape(...) "
                 "instead.");
    /* x.unfold(1, 2, 2).view(3, 4) */
    EXPECT_VIEW(x, tc_view(K(tc_unfold(x, 1, 2, 2)), S(3, 4)),
                S(3, 4), S(4, 1), 0, V(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11));
    /* x.unfold(1, 2, 2).view(12) */
    EXPECT_VIEW(x, tc_view(K(tc_unfold(x, 1, 2, 2)), S(12)),
                S(12), S(1), 0, V(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11));
}
END_TEST

/* ------------------------------------------------------------------ reshape */

START_TEST(test_reshape)
{
    /* x.t().reshape(12) */
    EXPECT_COPY(x, tc_reshape(K(tc_t(x)), S(12)),
                S(12), S(1), 0, V(0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11));
    /* x.t().reshape(4, 3) */
    EXPECT_VIEW(x, tc_reshape(K(tc_t(x)), S(4, 3)),
                S(4, 3), S(1, 4), 0, V(0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11));
    /* x.t().reshape(2, 6) */
    EXPECT_COPY(x, tc_reshape(K(tc_t(x)), S(2, 6)),
                S(2, 6), S(6, 1), 0, V(0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11));
    /* x.t().reshape(2, 2, -1) */
    EXPECT_VIEW(x, tc_reshape(K(tc_t(x)), S(2, 2, -1)),
                S(2, 2, 3), S(2, 1, 4), 0, V(0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11));
    /* x[:, 1:3].reshape(6) */
    EXPECT_COPY(x, tc_reshape(K(tc_slice(x, 1, 1, 3, 1)), S(6)),
                S(6), S(1), 0, V(1, 2, 5, 6, 9, 10));
    /* x[:, 1:3].reshape(3, 2) */
    EXPECT_VIEW(x, tc_reshape(K(tc_slice(x, 1, 1, 3, 1)), S(3, 2)),
                S(3, 2), S(4, 1), 1, V(1, 2, 5, 6, 9, 10));
    /* y[:, :2].reshape(2, 8) */
    EXPECT_VIEW(y, tc_reshape(K(tc_slice(y, 1, 0, 2, 1)), S(2, 8)),
                S(2, 8), S(12, 1), 0, V(0, 1, 2, 3, 4, 5, 6, 7, 12, 13, 14, 15, 16, 17, 18,
                  19));
    /* y[:, :2].reshape(4, 4) */
    EXPECT_COPY(y, tc_reshape(K(tc_slice(y, 1, 0, 2, 1)), S(4, 4)),
                S(4, 4), S(4, 1), 0, V(0, 1, 2, 3, 4, 5, 6, 7, 12, 13, 14, 15, 16, 17, 18, 19));
    /* x[0].expand(3, 4).reshape(12) */
    EXPECT_COPY(x, tc_reshape(K(tc_expand(K(tc_select(x, 0, 0)), S(3, 4))), S(12)),
                S(12), S(1), 0, V(0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3));
    /* x[0].expand(3, 4).reshape(6, 2) */
    EXPECT_COPY(x, tc_reshape(K(tc_expand(K(tc_select(x, 0, 0)), S(3, 4))), S(6, 2)),
                S(6, 2), S(2, 1), 0, V(0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3));
    /* x.reshape(2, -1) */
    EXPECT_VIEW(x, tc_reshape(x, S(2, -1)),
                S(2, 6), S(6, 1), 0, V(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11));
    /* x.reshape(-1) */
    EXPECT_VIEW(x, tc_reshape(x, S(-1)),
                S(12), S(1), 0, V(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11));
    /* s.reshape(1) */
    EXPECT_VIEW(s, tc_reshape(s, S(1)),
                S(1), S(1), 0, V(5));
    /* s.reshape(1, 1, 1) */
    EXPECT_VIEW(s, tc_reshape(s, S(1, 1, 1)),
                S(1, 1, 1), S(1, 1, 1), 0, V(5));
    /* x.unfold(1, 2, 1).reshape(-1) */
    EXPECT_COPY(x, tc_reshape(K(tc_unfold(x, 1, 2, 1)), S(-1)),
                S(18), S(1), 0, V(0, 1, 1, 2, 2, 3, 4, 5, 5, 6, 6, 7, 8, 9, 9, 10, 10, 11));
    /* e.transpose(0, 2).reshape(-1, 3) */
    EXPECT_VIEW(e, tc_reshape(K(tc_transpose(e, 0, 2)), S(-1, 3)),
                S(0, 3), S(3, 1), 0, V0);
    /* x.t().reshape(5, -1) */
    ASSERT_FAILS(tc_reshape(K(tc_t(x)), S(5, -1)),
                 "shape '[5, -1]' is invalid for input of size 12");
    /* x.t().reshape(-1, -1) */
    ASSERT_FAILS(tc_reshape(K(tc_t(x)), S(-1, -1)),
                 "only one dimension can be inferred");
    /* e.reshape(-1, 0) */
    ASSERT_FAILS(tc_reshape(e, S(-1, 0)),
                 "cannot reshape tensor of 0 elements into shape [-1, 0] because the "
                 "unspecified dimension size -1 can be any value and is ambiguous");
}
END_TEST

/* ----------------------------------------------------- contiguous and clone */

START_TEST(test_contiguous_and_clone)
{
    /* x.contiguous() */
    EXPECT_VIEW(x, tc_contiguous(x),
                S(3, 4), S(4, 1), 0, V(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11));
    /* x.t().contiguous() */
    EXPECT_COPY(x, tc_contiguous(K(tc_t(x))),
                S(4, 3), S(3, 1), 0, V(0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11));
    /* x[:, 1:3].contiguous() */
    EXPECT_COPY(x, tc_contiguous(K(tc_slice(x, 1, 1, 3, 1))),
                S(3, 2), S(2, 1), 0, V(1, 2, 5, 6, 9, 10));
    /* x[1:].contiguous() */
    EXPECT_VIEW(x, tc_contiguous(K(tc_slice(x, 0, 1, TC_END, 1))),
                S(2, 4), S(4, 1), 4, V(4, 5, 6, 7, 8, 9, 10, 11));
    /* x[:, :1].contiguous() */
    EXPECT_COPY(x, tc_contiguous(K(tc_slice(x, 1, 0, 1, 1))),
                S(3, 1), S(1, 1), 0, V(0, 4, 8));
    /* x[0].expand(3, 4).contiguous() */
    EXPECT_COPY(x, tc_contiguous(K(tc_expand(K(tc_select(x, 0, 0)), S(3, 4)))),
                S(3, 4), S(4, 1), 0, V(0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3));
    /* c.as_strided((3, 1), (1, 7), 0).contiguous() */
    EXPECT_VIEW(c, tc_contiguous(K(tc_as_strided(c, S(3, 1), S(1, 7), 0))),
                S(3, 1), S(1, 7), 0, V(0, 1, 2));
    /* x.t()[:, 4:].contiguous() */
    EXPECT_VIEW(x, tc_contiguous(K(tc_slice(K(tc_t(x)), 1, 4, TC_END, 1))),
                S(4, 0), S(1, 4), 12, V0);
    /* x.clone() */
    EXPECT_COPY(x, tc_clone(x),
                S(3, 4), S(4, 1), 0, V(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11));
    /* x.t().clone() */
    EXPECT_COPY(x, tc_clone(K(tc_t(x))),
                S(4, 3), S(1, 4), 0, V(0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11));
    /* x.t().expand(2, 4, 3).clone() */
    EXPECT_COPY(x, tc_clone(K(tc_expand(K(tc_t(x)), S(2, 4, 3)))),
                S(2, 4, 3), S(12, 1, 4), 0, V(0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11, 0, 4, 8, 1,
                  5, 9, 2, 6, 10, 3, 7, 11));
    /* x[:, ::2].clone() */
    EXPECT_COPY(x, tc_clone(K(tc_slice(x, 1, 0, TC_END, 2))),
                S(3, 2), S(2, 1), 0, V(0, 2, 4, 6, 8, 10));
    /* x[0].expand(3, 4).clone() */
    EXPECT_COPY(x, tc_clone(K(tc_expand(K(tc_select(x, 0, 0)), S(3, 4)))),
                S(3, 4), S(4, 1), 0, V(0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3));
    /* y.permute(2, 0, 1).clone() */
    EXPECT_COPY(y, tc_clone(K(tc_permute(y, TC_DIMS(2, 0, 1)))),
                S(4, 2, 3), S(1, 12, 4), 0, V(0, 4, 8, 12, 16, 20, 1, 5, 9, 13, 17, 21, 2, 6,
                  10, 14, 18, 22, 3, 7, 11, 15, 19, 23));
    /* y.permute(2, 0, 1)[:, :, 1:].clone() */
    EXPECT_COPY(y, tc_clone(K(tc_slice(K(tc_permute(y, TC_DIMS(2, 0, 1))), 2, 1, TC_END, 1))),
                S(4, 2, 2), S(1, 8, 4), 0, V(4, 8, 16, 20, 5, 9, 17, 21, 6, 10, 18, 22, 7, 11,
                  19, 23));
    /* x[1:].clone() */
    EXPECT_COPY(x, tc_clone(K(tc_slice(x, 0, 1, TC_END, 1))),
                S(2, 4), S(4, 1), 0, V(4, 5, 6, 7, 8, 9, 10, 11));
    /* s.clone() */
    EXPECT_COPY(s, tc_clone(s),
                S0, S0, 0, V(5));
    /* x.diagonal().clone() */
    EXPECT_COPY(x, tc_clone(K(tc_diagonal(x, 0, 0, 1))),
                S(3), S(1), 0, V(0, 5, 10));
    /* e.transpose(0, 2).clone() */
    EXPECT_COPY(e, tc_clone(K(tc_transpose(e, 0, 2))),
                S(3, 0, 2), S(1, 3, 3), 0, V0);
}
END_TEST

/* ---------------------------------------------------------- chains of views */

START_TEST(test_chains)
{
    /* x.t()[1:3].select(1, 2) */
    EXPECT_VIEW(x, tc_select(K(tc_slice(K(tc_t(x)), 0, 1, 3, 1)), 1, 2),
                S(2), S(1), 9, V(9, 10));
    /* x.t()[1:3].view(2, 1, 3) */
    EXPECT_VIEW(x, tc_view(K(tc_slice(K(tc_t(x)), 0, 1, 3, 1)), S(2, 1, 3)),
                S(2, 1, 3), S(1, 12, 4), 1, V(1, 5, 9, 2, 6, 10));
    /* x.t()[:, 1:].view(4, 2) */
    EXPECT_VIEW(x, tc_view(K(tc_slice(K(tc_t(x)), 1, 1, TC_END, 1)), S(4, 2)),
                S(4, 2), S(1, 4), 4, V(4, 8, 5, 9, 6, 10, 7, 11));
    /* y.transpose(0, 2)[1:3].view(2, 3, 2, 1) */
    EXPECT_VIEW(y, tc_view(K(tc_slice(K(tc_transpose(y, 0, 2)), 0, 1, 3, 1)), S(2, 3, 2, 1)),
                S(2, 3, 2, 1), S(1, 4, 12, 12), 1, V(1, 13, 5, 17, 9, 21, 2, 14, 6, 18, 10,
                  22));
    /* y.transpose(0, 2)[1:3].reshape(2, 6) */
    EXPECT_COPY(y, tc_reshape(K(tc_slice(K(tc_transpose(y, 0, 2)), 0, 1, 3, 1)), S(2, 6)),
                S(2, 6), S(6, 1), 0, V(1, 13, 5, 17, 9, 21, 2, 14, 6, 18, 10, 22));
    /* y.transpose(1, 2)[:, 1:3].view(2, 2, 3) */
    EXPECT_VIEW(y, tc_view(K(tc_slice(K(tc_transpose(y, 1, 2)), 1, 1, 3, 1)), S(2, 2, 3)),
                S(2, 2, 3), S(12, 1, 4), 1, V(1, 5, 9, 2, 6, 10, 13, 17, 21, 14, 18, 22));
    /* y.transpose(1, 2)[:, ::2].select(2, 1) */
    EXPECT_VIEW(y, tc_select(K(tc_slice(K(tc_transpose(y, 1, 2)), 1, 0, TC_END, 2)), 2, 1),
                S(2, 2), S(12, 2), 4, V(4, 6, 16, 18));
    /* y[1].t().unsqueeze(0).expand(2, 4, 3) */
    EXPECT_VIEW(y, tc_expand(K(tc_unsqueeze(K(tc_t(K(tc_select(y, 0, 1)))), 0)), S(2, 4, 3)),
                S(2, 4, 3), S(0, 1, 4), 12, V(12, 16, 20, 13, 17, 21, 14, 18, 22, 15, 19, 23,
                  12, 16, 20, 13, 17, 21, 14, 18, 22, 15, 19, 23));
    /* y[:, 1:, 1:].diagonal(0, 1, 2) */
    EXPECT_VIEW(y, tc_diagonal(K(tc_slice(K(tc_slice(y, 1, 1, TC_END, 1)), 2, 1, TC_END, 1)), 0, 1, 2),
                S(2, 2), S(12, 5), 5, V(5, 10, 17, 22));
    /* y.unfold(2, 2, 2).transpose(2, 3).select(3, 1) */
    EXPECT_VIEW(y, tc_select(K(tc_transpose(K(tc_unfold(y, 2, 2, 2)), 2, 3)), 3, 1),
                S(2, 3, 2), S(12, 4, 1), 2, V(2, 3, 6, 7, 10, 11, 14, 15, 18, 19, 22, 23));
    /* y.diagonal(0, 0, 2).t()[1:].unsqueeze(1) */
    EXPECT_VIEW(y, tc_unsqueeze(K(tc_slice(K(tc_t(K(tc_diagonal(y, 0, 0, 2)))), 0, 1, TC_END, 1)), 1),
                S(1, 1, 3), S(13, 12, 4), 13, V(13, 17, 21));
    /* x[1:, 1:].t().flatten() */
    EXPECT_COPY(x, tc_flatten(K(tc_t(K(tc_slice(K(tc_slice(x, 0, 1, TC_END, 1)), 1, 1, TC_END, 1)))), 0, -1),
                S(6), S(1), 0, V(5, 9, 6, 10, 7, 11));
    /* x.unfold(0, 2, 1).unfold(1, 2, 2).select(-1, 0) */
    EXPECT_VIEW(x, tc_select(K(tc_unfold(K(tc_unfold(x, 0, 2, 1)), 1, 2, 2)), -1, 0),
                S(2, 2, 2), S(4, 2, 4), 0, V(0, 4, 2, 6, 4, 8, 6, 10));
    /* x.narrow(1, 1, 3).diagonal(-1).expand(2, 2) */
    EXPECT_VIEW(x, tc_expand(K(tc_diagonal(K(tc_narrow(x, 1, 1, 3)), -1, 0, 1)), S(2, 2)),
                S(2, 2), S(0, 5), 5, V(5, 10, 5, 10));
    /* z.squeeze(1).t().unsqueeze(1).squeeze() */
    EXPECT_VIEW(z, tc_squeeze(K(tc_unsqueeze(K(tc_t(K(tc_squeeze_dim(z, 1)))), 1))),
                S(3, 4), S(1, 3), 0, V(0, 3, 6, 9, 1, 4, 7, 10, 2, 5, 8, 11));
    /* y.flatten(0, 1)[::2].t().contiguous() */
    EXPECT_COPY(y, tc_contiguous(K(tc_t(K(tc_slice(K(tc_flatten(y, 0, 1)), 0, 0, TC_END, 2))))),
                S(4, 3), S(3, 1), 0, V(0, 8, 16, 1, 9, 17, 2, 10, 18, 3, 11, 19));
    /* q.permute(2, 1, 0).reshape(4, 2) */
    EXPECT_COPY(q, tc_reshape(K(tc_permute(q, TC_DIMS(2, 1, 0))), S(4, 2)),
                S(4, 2), S(2, 1), 0, V(0, 4, 2, 6, 1, 5, 3, 7));
    /* q.permute(1, 2, 0).reshape(4, 2) */
    EXPECT_VIEW(q, tc_reshape(K(tc_permute(q, TC_DIMS(1, 2, 0))), S(4, 2)),
                S(4, 2), S(1, 4), 0, V(0, 4, 1, 5, 2, 6, 3, 7));
    /* q[:, :, :1].expand(2, 2, 3)[1] */
    EXPECT_VIEW(q, tc_select(K(tc_expand(K(tc_slice(q, 2, 0, 1, 1)), S(2, 2, 3))), 0, 1),
                S(2, 3), S(2, 0), 4, V(4, 4, 4, 6, 6, 6));
}
END_TEST

/* ------------------------------------------ dimensions of size one and zero */

START_TEST(test_size_one_and_zero)
{
    /* x[:, 1:2].t() */
    EXPECT_VIEW(x, tc_t(K(tc_slice(x, 1, 1, 2, 1))),
                S(1, 3), S(1, 4), 1, V(1, 5, 9));
    /* x[:, 1:2].t().view(3) */
    EXPECT_VIEW(x, tc_view(K(tc_t(K(tc_slice(x, 1, 1, 2, 1)))), S(3)),
                S(3), S(4), 1, V(1, 5, 9));
    /* x[1:2].unsqueeze(0).transpose(0, 2) */
    EXPECT_VIEW(x, tc_transpose(K(tc_unsqueeze(K(tc_slice(x, 0, 1, 2, 1)), 0)), 0, 2),
                S(4, 1, 1), S(1, 4, 4), 4, V(4, 5, 6, 7));
    /* x[1:2].unsqueeze(0).transpose(0, 2).squeeze() */
    EXPECT_VIEW(x, tc_squeeze(K(tc_transpose(K(tc_unsqueeze(K(tc_slice(x, 0, 1, 2, 1)), 0)), 0, 2))),
                S(4), S(1), 4, V(4, 5, 6, 7));
    /* x[1:2].expand(4, 4) */
    EXPECT_VIEW(x, tc_expand(K(tc_slice(x, 0, 1, 2, 1)), S(4, 4)),
                S(4, 4), S(0, 1), 4, V(4, 5, 6, 7, 4, 5, 6, 7, 4, 5, 6, 7, 4, 5, 6, 7));
    /* x[2:2].t() */
    EXPECT_VIEW(x, tc_t(K(tc_slice(x, 0, 2, 2, 1))),
                S(4, 0), S(1, 4), 8, V0);
    /* x[2:2].t().unsqueeze(1) */
    EXPECT_VIEW(x, tc_unsqueeze(K(tc_t(K(tc_slice(x, 0, 2, 2, 1)))), 1),
                S(4, 1, 0), S(1, 0, 4), 8, V0);
    /* x[:, 4:].unfold(1, 0, 2) */
    EXPECT_VIEW(x, tc_unfold(K(tc_slice(x, 1, 4, TC_END, 1)), 1, 0, 2),
                S(3, 1, 0), S(4, 2, 1), 4, V0);
    /* x[:, 4:].diagonal() */
    EXPECT_VIEW(x, tc_diagonal(K(tc_slice(x, 1, 4, TC_END, 1)), 0, 0, 1),
                S(0), S(5), 4, V0);
    /* x[:, 4:].reshape(0, 3) */
    EXPECT_VIEW(x, tc_reshape(K(tc_slice(x, 1, 4, TC_END, 1)), S(0, 3)),
                S(0, 3), S(3, 1), 4, V0);
    /* x[:, 4:].flatten() */
    EXPECT_VIEW(x, tc_flatten(K(tc_slice(x, 1, 4, TC_END, 1)), 0, -1),
                S(0), S(1), 4, V0);
    /* x[:, 4:].select(0, 2) */
    EXPECT_VIEW(x, tc_select(K(tc_slice(x, 1, 4, TC_END, 1)), 0, 2),
                S(0), S(1), 12, V0);
    /* x[:, 4:].clone() */
    EXPECT_COPY(x, tc_clone(K(tc_slice(x, 1, 4, TC_END, 1))),
                S(3, 0), S(4, 1), 0, V0);
    /* x[:, 4:].contiguous() */
    EXPECT_VIEW(x, tc_contiguous(K(tc_slice(x, 1, 4, TC_END, 1))),
                S(3, 0), S(4, 1), 4, V0);
    /* e.permute(2, 0, 1) */
    EXPECT_VIEW(e, tc_permute(e, TC_DIMS(2, 0, 1)),
                S(3, 2, 0), S(1, 3, 3), 0, V0);
    /* e[1:, :, ::2] */
    EXPECT_VIEW(e, tc_slice(K(tc_slice(e, 0, 1, TC_END, 1)), 2, 0, TC_END, 2),
                S(1, 0, 2), S(3, 3, 2), 3, V0);
    /* e.flatten(1) */
    EXPECT_VIEW(e, tc_flatten(e, 1, -1),
                S(2, 0), S(1, 1), 0, V0);
    /* w[:1].expand(0) */
    EXPECT_VIEW(w, tc_expand(K(tc_slice(w, 0, 0, 1, 1)), S(0)),
                S(0), S(0), 0, V0);
    /* w[:1].view(1, 1).expand(5, 0) */
    EXPECT_VIEW(w, tc_expand(K(tc_view(K(tc_slice(w, 0, 0, 1, 1)), S(1, 1))), S(5, 0)),
                S(5, 0), S(0, 0), 0, V0);
}
END_TEST

/* ----------------------------------------------------------------- wrap_dim */

START_TEST(test_wrap_dim)
{
    int64_t d;

    /* A scalar takes -1 and 0: torch.tensor(5.).transpose(-1, 0) */
    d = -1;
    ck_assert(tc_wrap_dim(&d, 0));
    ck_assert_int_eq(d, 0);
    d = 0;
    ck_assert(tc_wrap_dim(&d, 0));
    ck_assert_int_eq(d, 0);
    ck_assert_ptr_null(tc_error());
    /* torch.tensor(5.).transpose(1, 0) */
    d = 1;
    ck_assert(!tc_wrap_dim(&d, 0));
    ASSERT_ERROR("Dimension out of range (expected to be in range of [-1, 0], but got 1)");
    tc_clear_error();
    /* torch.tensor(5.).transpose(-2, 0) */
    d = -2;
    ck_assert(!tc_wrap_dim(&d, 0));
    ASSERT_ERROR("Dimension out of range (expected to be in range of [-1, 0], but got -2)");
    tc_clear_error();
    /* torch.zeros(3).transpose(1, 0) */
    d = 1;
    ck_assert(!tc_wrap_dim(&d, 1));
    ASSERT_ERROR("Dimension out of range (expected to be in range of [-1, 0], but got 1)");
    tc_clear_error();
    /* torch.zeros(2, 3, 4): -3 is 0, -1 is 2, 2 is 2 */
    d = -3;
    ck_assert(tc_wrap_dim(&d, 3));
    ck_assert_int_eq(d, 0);
    d = -1;
    ck_assert(tc_wrap_dim(&d, 3));
    ck_assert_int_eq(d, 2);
    d = 2;
    ck_assert(tc_wrap_dim(&d, 3));
    ck_assert_int_eq(d, 2);
    ck_assert_ptr_null(tc_error());
    /* torch.zeros(2, 3, 4).transpose(3, 0), .transpose(-4, 0) */
    d = 3;
    ck_assert(!tc_wrap_dim(&d, 3));
    ASSERT_ERROR("Dimension out of range (expected to be in range of [-3, 2], but got 3)");
    tc_clear_error();
    d = -4;
    ck_assert(!tc_wrap_dim(&d, 3));
    ASSERT_ERROR("Dimension out of range (expected to be in range of [-3, 2], but got -4)");
}
END_TEST

/* ----------------------------------------------- results that are the input */

START_TEST(test_same_object)
{
    tc_tensor *row = K(tc_select(x, 0, 1));
    tc_tensor *odd = K(tc_as_strided(c, S(3, 1), S(1, 7), 0));
    tc_tensor *r;

    /* x.contiguous() is x */
    r = tc_contiguous(x);
    ck_assert_ptr_eq(r, x);
    ck_assert_int_eq(x->refcount, 2);
    tc_release(r);
    ck_assert_int_eq(x->refcount, 1);
    /* t = x[1]; t.contiguous() is t */
    r = tc_contiguous(row);
    ck_assert_ptr_eq(r, row);
    tc_release(r);
    /* a = c.as_strided((3, 1), (1, 7), 0); a.contiguous() is a */
    r = tc_contiguous(odd);
    ck_assert_ptr_eq(r, odd);
    tc_release(r);
    /* x.flatten(1, 1) is x; y.flatten(-1, 2) is y; y.flatten(0, 0) is y */
    r = tc_flatten(x, 1, 1);
    ck_assert_ptr_eq(r, x);
    tc_release(r);
    r = tc_flatten(y, -1, 2);
    ck_assert_ptr_eq(r, y);
    tc_release(r);
    r = tc_flatten(y, 0, 0);
    ck_assert_ptr_eq(r, y);
    tc_release(r);
    /* s.flatten() is not s: it is s.reshape(1), shape (1,) */
    r = tc_flatten(s, 0, 0);
    ck_assert_ptr_ne(r, s);
    tc_release(r);
    /* x[:, :1].contiguous() is not x[:, :1] (not contiguous: (3, 1), (4, 1)) */
    row = K(tc_slice(x, 1, 0, 1, 1));
    r = tc_contiguous(row);
    ck_assert_ptr_ne(r, row);
    ck_assert_ptr_ne(r->storage, row->storage);
    tc_release(r);
    ck_assert_int_eq(x->refcount, 1);
    ck_assert_int_eq(y->refcount, 1);
    ck_assert_ptr_null(tc_error());
}
END_TEST

/* ---------------------------------------------------------------- refcounts */

START_TEST(test_refcount_view_outlives_base)
{
    tc_tensor *base = grid(S(3, 4));
    tc_storage *storage = base->storage;
    tc_tensor *xt = tc_t(base);
    tc_tensor *part = tc_slice(xt, 0, 1, 3, 1);
    tc_tensor *col = tc_select(part, 1, 2);

    ck_assert_ptr_nonnull(col);
    ck_assert_ptr_eq(col->storage, storage);
    ck_assert_int_eq(storage->refcount, 4);    /* one per living header */
    ck_assert_int_eq(base->refcount, 1);       /* views do not own their base */
    tc_release(base);
    ck_assert_int_eq(storage->refcount, 3);
    tc_release(xt);
    tc_release(part);
    ck_assert_int_eq(col->storage->refcount, 1);
    /* x = torch.arange(12.).view(3, 4); c = x.t()[1:3].select(1, 2); del x;
       c -> tensor([9., 10.]), size (2,), stride (1,), offset 9 */
    ck_assert_int_eq(col->dim, 1);
    ck_assert_int_eq(col->sizes[0], 2);
    ck_assert_int_eq(col->strides[0], 1);
    ck_assert_int_eq(col->storage_offset, 9);
    EXPECT_VALUES(col, V(9, 10));
    tc_release(col);
}
END_TEST

START_TEST(test_refcount_copies_and_failures)
{
    tc_tensor *base = grid(S(3, 4));
    tc_storage *storage = base->storage;
    tc_tensor *xt = tc_t(base);
    tc_tensor *flat = tc_reshape(xt, S(12));    /* x.t().reshape(12): a copy */
    tc_tensor *same = tc_reshape(xt, S(4, 3));  /* x.t().reshape(4, 3): a view */

    ck_assert_ptr_nonnull(flat);
    ck_assert_ptr_nonnull(same);
    ck_assert_ptr_ne(flat->storage, storage);
    ck_assert_int_eq(flat->storage->refcount, 1);
    ck_assert_ptr_eq(same->storage, storage);
    ck_assert_int_eq(storage->refcount, 3);
    /* Failed views take no reference: x.t().view(12), x.t().transpose(0, 2),
       x.expand(2, 4), x.as_strided((4, 4), (4, 1), 0) */
    ASSERT_FAILS(tc_view(xt, S(12)), view_refused);
    ASSERT_FAILS(tc_transpose(xt, 0, 2),
                 "Dimension out of range (expected to be in range of [-2, 1], but got 2)");
    ASSERT_FAILS(tc_expand(base, S(2, 4)),
                 "The expanded size of the tensor (2) must match the existing size (3) at "
                 "non-singleton dimension 0.  Target sizes: [2, 4].  Tensor sizes: [3, 4]");
    ASSERT_FAILS(tc_as_strided(base, S(4, 4), S(4, 1), 0),
                 "setStorage: sizes [4, 4], strides [4, 1], storage offset 0, and itemsize 4 "
                 "requiring a storage size of 64 are out of bounds for storage of size 48");
    ck_assert_int_eq(storage->refcount, 3);
    ck_assert_int_eq(xt->refcount, 1);
    tc_release(base);
    tc_release(xt);
    ck_assert_int_eq(same->storage->refcount, 1);
    /* the copy does not depend on x: x.t().reshape(12) */
    EXPECT_VALUES(flat, V(0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11));
    EXPECT_VALUES(same, V(0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11));
    tc_release(flat);
    tc_release(same);
}
END_TEST

START_TEST(test_refcount_write_through_view)
{
    tc_tensor *xt = K(tc_t(x));
    tc_tensor *col = K(tc_select(x, 1, 1));
    tc_tensor *windows = K(tc_unfold(x, 1, 2, 1));
    double got;

    /* x.t()[1, 2] = 100.; x[2, 1] -> 100 */
    ck_assert_int_eq(tc_set(xt, (const int64_t[]){ 1, 2 }, 100.0), 0);
    ck_assert_int_eq(tc_get(x, (const int64_t[]){ 2, 1 }, &got), 0);
    ck_assert(got == 100.0);
    /* ... and x[:, 1] -> [1., 5., 100.], x.unfold(1, 2, 1)[2, 0] -> [8., 100.],
       x.unfold(1, 2, 1)[2, 1] -> [100., 10.] */
    EXPECT_VALUES(col, V(1, 5, 100));
    ck_assert_int_eq(tc_get(windows, (const int64_t[]){ 2, 0, 1 }, &got), 0);
    ck_assert(got == 100.0);
    ck_assert_int_eq(tc_get(windows, (const int64_t[]){ 2, 1, 0 }, &got), 0);
    ck_assert(got == 100.0);
    EXPECT_VALUES(x, V(0, 1, 2, 3, 4, 5, 6, 7, 8, 100, 10, 11));
}
END_TEST

/* -------------------------------------------------------------------- copy_ */

START_TEST(test_copy_float_to_int64)
{
    tc_tensor *d = K(tc_zeros(S(4), TC_INT64));
    tc_tensor *big = K(tc_zeros(S(3), TC_INT64));

    /* d = torch.zeros(4, dtype=torch.int64);
       d.copy_(torch.tensor([2.7, -2.7, 0.5, -0.5])) -> [2, -2, 0, 0] */
    ck_assert_int_eq(tc_copy_(d, K(F32(S(4), 2.7f, -2.7f, 0.5f, -0.5f))), 0);
    EXPECT_INT64S(d, 2, -2, 0, 0);
    /* d.copy_(torch.tensor([1e30, -1e30, float('inf'), float('nan')])) -> all
       -9223372036854775808, float32 and float64 alike */
    ck_assert_int_eq(tc_copy_(d, K(F32(S(4), 1e30f, -1e30f, INFINITY, NAN))), 0);
    EXPECT_INT64S(d, INT64_MIN, INT64_MIN, INT64_MIN, INT64_MIN);
    ck_assert_int_eq(tc_copy_(d, K(F64(S(4), 1, 2, 3, 4))), 0);
    EXPECT_INT64S(d, 1, 2, 3, 4);
    ck_assert_int_eq(tc_copy_(d, K(F64(S(4), 1e30, -1e30, INFINITY, NAN))), 0);
    EXPECT_INT64S(d, INT64_MIN, INT64_MIN, INT64_MIN, INT64_MIN);
    /* torch.zeros(3, dtype=torch.int64).copy_(torch.tensor([9.2233720368547748e18,
       -9.2233720368547758e18, 9.2233720368547758e18], dtype=torch.float64))
       -> [9223372036854774784, -9223372036854775808, -9223372036854775808] */
    ck_assert_int_eq(tc_copy_(big, K(F64(S(3), 9.2233720368547748e18, -9.2233720368547758e18,
                                            9.2233720368547758e18))), 0);
    EXPECT_INT64S(big, INT64_C(9223372036854774784), INT64_MIN, INT64_MIN);
    ck_assert_ptr_null(tc_error());
}
END_TEST

START_TEST(test_copy_other_conversions)
{
    tc_tensor *f = K(tc_zeros(S(3), TC_FLOAT32));
    tc_tensor *f2 = K(tc_zeros(S(2), TC_FLOAT32));
    tc_tensor *d = K(tc_zeros(S(2), TC_FLOAT64));
    tc_tensor *i = K(tc_zeros(S(2, 3), TC_INT64));

    /* torch.zeros(3).copy_(torch.tensor([2**53 + 1, 2**62, -3]))
       -> [9007199254740992., 4.611686018427388e+18, -3.] */
    ck_assert_int_eq(tc_copy_(f, K(I64(S(3), (INT64_C(1) << 53) + 1, INT64_C(1) << 62, -3))),
                     0);
    EXPECT_VALUES(f, V(9007199254740992.0, 4.611686018427388e+18, -3));
    /* torch.zeros(2).copy_(torch.tensor([0.1, 1e300], dtype=torch.float64))
       -> [0.10000000149011612, inf] */
    ck_assert_int_eq(tc_copy_(f2, K(F64(S(2), 0.1, 1e300))), 0);
    EXPECT_VALUES(f2, V(0.10000000149011612, INFINITY));
    /* torch.zeros(2, dtype=torch.float64).copy_(torch.tensor([0.1, 3.4e38]))
       -> [0.10000000149011612, 3.3999999521443642e+38] */
    ck_assert_int_eq(tc_copy_(d, K(F32(S(2), 0.1f, 3.4e38f))), 0);
    EXPECT_VALUES(d, V(0.10000000149011612, 3.3999999521443642e+38));
    /* torch.zeros(2, 3, dtype=torch.int64).copy_(torch.tensor([[-1, 2**62, 5]]))
       -> [[-1, 4611686018427387904, 5]] * 2, exact */
    ck_assert_int_eq(tc_copy_(i, K(I64(S(1, 3), -1, INT64_C(1) << 62, 5))), 0);
    EXPECT_INT64S(i, -1, INT64_C(1) << 62, 5, -1, INT64_C(1) << 62, 5);
    ck_assert_ptr_null(tc_error());
}
END_TEST

START_TEST(test_copy_int64_to_float32_rounds_once)
{
    tc_tensor *f = K(tc_zeros(S(1), TC_FLOAT32));

    /* torch.zeros(1).copy_(torch.tensor([2**60 + 2**36 + 1])).item()
       -> 1.1529216420458004e+18 (2**60 + 2**37): the int64 is rounded to
       float32 once, not through a double (which would give 2**60) */
    ck_assert_int_eq(tc_copy_(f, K(I64(S(1), (INT64_C(1) << 60) + (INT64_C(1) << 36) + 1))),
                     0);
    EXPECT_VALUES(f, V(1152921642045800448.0));
}
END_TEST

START_TEST(test_copy_bool)
{
    tc_tensor *b = K(tc_zeros(S(3), TC_BOOL));
    tc_tensor *f = K(tc_zeros(S(3), TC_FLOAT32));
    tc_tensor *src = K(F32(S(3), 0.0f, -0.5f, NAN));

    /* torch.zeros(3, dtype=torch.bool).copy_(torch.tensor([0., -0.5, nan]))
       -> [False, True, True] */
    ck_assert_int_eq(tc_copy_(b, src), 0);
    EXPECT_VALUES(b, V(0, 1, 1));
    /* torch.zeros(3).copy_(that) -> [0., 1., 1.] */
    ck_assert_int_eq(tc_copy_(f, b), 0);
    EXPECT_VALUES(f, V(0, 1, 1));
}
END_TEST

START_TEST(test_copy_broadcast)
{
    tc_tensor *m = K(tc_zeros(S(3, 4), TC_FLOAT32));
    tc_tensor *cube = K(tc_zeros(S(2, 3, 4), TC_FLOAT32));
    tc_tensor *cube64 = K(tc_zeros(S(2, 3, 4), TC_INT64));
    tc_tensor *empty = K(tc_zeros(S(0, 3), TC_FLOAT32));
    tc_tensor *table = K(F32(S(3, 4), 0, 1, 2, 3, 10, 11, 12, 13, 20, 21, 22, 23));

    /* torch.zeros(3, 4).copy_(torch.arange(4.)): a row into every row */
    ck_assert_int_eq(tc_copy_(m, K(grid(S(4)))), 0);
    EXPECT_VALUES(m, V(0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3));
    /* torch.zeros(3, 4).copy_(torch.arange(3.).view(3, 1)): a column */
    ck_assert_int_eq(tc_copy_(m, c), 0);
    EXPECT_VALUES(m, V(0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2));
    /* torch.zeros(3, 4).copy_(torch.tensor(5.)): a scalar */
    ck_assert_int_eq(tc_copy_(m, s), 0);
    EXPECT_VALUES(m, V(5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5));
    /* torch.zeros(2, 3, 4).copy_(torch.arange(3.).view(3, 1) * 10 + torch.arange(4.)) */
    ck_assert_int_eq(tc_copy_(cube, table), 0);
    EXPECT_VALUES(cube, V(0, 1, 2, 3, 10, 11, 12, 13, 20, 21, 22, 23,
                          0, 1, 2, 3, 10, 11, 12, 13, 20, 21, 22, 23));
    /* torch.zeros(2, 3, 4, dtype=torch.int64).copy_(torch.arange(3.).view(1, 3, 1))
       -> [0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2] twice */
    ck_assert_int_eq(tc_copy_(cube64, K(tc_view(w, S(1, 3, 1)))), 0);
    EXPECT_INT64S(cube64, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2);
    /* torch.zeros(0, 3).copy_(torch.zeros(3)): nothing to do */
    ck_assert_int_eq(tc_copy_(empty, w), 0);
    ck_assert_ptr_null(tc_error());
}
END_TEST

START_TEST(test_copy_broadcast_errors)
{
    tc_tensor *m = K(tc_zeros(S(3, 4), TC_FLOAT32));
    tc_tensor *three = K(tc_zeros(S(3), TC_FLOAT32));
    tc_tensor *none = K(tc_zeros(S(0), TC_FLOAT32));
    tc_tensor *pair = K(tc_zeros(S(2, 3), TC_FLOAT32));

    /* torch.zeros(3, 4).copy_(torch.zeros(5)) */
    ASSERT_COPY_FAILS(m, K(tc_zeros(S(5), TC_FLOAT32)),
                      "The size of tensor a (4) must match the size of tensor b (5) at "
                      "non-singleton dimension 1");
    /* torch.zeros(3, 4).copy_(torch.zeros(2, 4)) */
    ASSERT_COPY_FAILS(m, K(tc_zeros(S(2, 4), TC_FLOAT32)),
                      "The size of tensor a (3) must match the size of tensor b (2) at "
                      "non-singleton dimension 0");
    /* torch.zeros(3).copy_(torch.zeros(2, 3)) */
    ASSERT_COPY_FAILS(three, pair, "output with shape [3] doesn't match the broadcast shape [2, 3]");
    /* torch.zeros(3).copy_(torch.zeros(2, 1)) */
    ASSERT_COPY_FAILS(three, K(tc_zeros(S(2, 1), TC_FLOAT32)),
                      "output with shape [3] doesn't match the broadcast shape [2, 3]");
    /* torch.tensor(1.).copy_(torch.tensor([4.])), .copy_(torch.tensor([[4.]])) */
    ASSERT_COPY_FAILS(K(tc_zeros(S0, TC_FLOAT32)), K(tc_zeros(S(1), TC_FLOAT32)),
                      "output with shape [] doesn't match the broadcast shape [1]");
    ASSERT_COPY_FAILS(K(tc_zeros(S0, TC_FLOAT32)), K(tc_zeros(S(1, 1), TC_FLOAT32)),
                      "output with shape [] doesn't match the broadcast shape [1, 1]");
    /* torch.zeros(0).copy_(torch.zeros(2)) */
    ASSERT_COPY_FAILS(none, K(tc_zeros(S(2), TC_FLOAT32)),
                      "The size of tensor a (0) must match the size of tensor b (2) at "
                      "non-singleton dimension 0");
    /* torch.zeros(2, 3).copy_(torch.zeros(0, 3)) */
    ASSERT_COPY_FAILS(pair, K(tc_zeros(S(0, 3), TC_FLOAT32)),
                      "The size of tensor a (2) must match the size of tensor b (0) at "
                      "non-singleton dimension 0");
    /* Nothing was written. */
    EXPECT_VALUES(m, V(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0));
}
END_TEST

START_TEST(test_copy_broadcast_output_shape)
{
    /* torch.zeros(1, 3).copy_(torch.zeros(2, 3)): the shapes broadcast, to a
       shape the output does not have */
    ASSERT_COPY_FAILS(K(tc_zeros(S(1, 3), TC_FLOAT32)), K(tc_zeros(S(2, 3), TC_FLOAT32)),
                      "output with shape [1, 3] doesn't match the broadcast shape [2, 3]");
}
END_TEST

START_TEST(test_copy_broadcast_incompatible_longer_source)
{
    /* torch.zeros(3).copy_(torch.zeros(2, 4)): the shapes do not broadcast at
       all, and that is reported first */
    ASSERT_COPY_FAILS(K(tc_zeros(S(3), TC_FLOAT32)), K(tc_zeros(S(2, 4), TC_FLOAT32)),
                      "The size of tensor a (3) must match the size of tensor b (4) at "
                      "non-singleton dimension 1");
}
END_TEST

static const char internal_overlap[] =
    "unsupported operation: more than one element of the written-to tensor refers to a "
    "single memory location. Please clone() the tensor before performing the operation.";
static const char partial_overlap[] =
    "unsupported operation: some elements of the input tensor and the written-to tensor "
    "refer to a single memory location. Please clone() the tensor before performing the "
    "operation.";

START_TEST(test_copy_internal_overlap)
{
    tc_tensor *rows = K(tc_expand(K(tc_select(x, 0, 0)), S(3, 4)));
    tc_tensor *cols = K(tc_expand(K(tc_slice(x, 1, 0, 1, 1)), S(3, 4)));
    tc_tensor *one = K(tc_expand(K(tc_select(x, 0, 0)), S(1, 4)));
    tc_tensor *windows = K(tc_unfold(x, 1, 2, 1));

    /* x[0].expand(3, 4).copy_(torch.zeros(3, 4)) */
    ASSERT_COPY_FAILS(rows, K(tc_zeros(S(3, 4), TC_FLOAT32)), internal_overlap);
    /* x[:, :1].expand(3, 4).copy_(torch.zeros(4)) */
    ASSERT_COPY_FAILS(cols, K(tc_zeros(S(4), TC_FLOAT32)), internal_overlap);
    /* x[0].expand(3, 4).copy_(torch.zeros(5)): overlap is checked before shapes */
    ASSERT_COPY_FAILS(rows, K(tc_zeros(S(5), TC_FLOAT32)), internal_overlap);
    /* x[0].expand(3, 4).copy_(x) */
    ASSERT_COPY_FAILS(rows, x, internal_overlap);
    EXPECT_VALUES(x, V(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11));
    /* x[0].expand(1, 4).copy_(torch.ones(4)): a stride-0 dimension of size 1
       is no overlap */
    ck_assert_int_eq(tc_copy_(one, K(tc_ones(S(4), TC_FLOAT32))), 0);
    EXPECT_VALUES(x, V(1, 1, 1, 1, 4, 5, 6, 7, 8, 9, 10, 11));
    /* x.unfold(1, 2, 1).copy_(torch.arange(18.).view(3, 3, 2)): overlapping
       windows are "too hard" to prove overlapping, so PyTorch writes them in
       order -> x = [0, 2, 4, 5, 6, 8, 10, 11, 12, 14, 16, 17] */
    ck_assert_int_eq(tc_copy_(windows, K(grid(S(3, 3, 2)))), 0);
    EXPECT_VALUES(x, V(0, 2, 4, 5, 6, 8, 10, 11, 12, 14, 16, 17));
    ck_assert(tc_check_no_internal_overlap(windows));
    ck_assert(!tc_check_no_internal_overlap(rows));
    ASSERT_ERROR(internal_overlap);
}
END_TEST

START_TEST(test_copy_partial_overlap)
{
    tc_tensor *a = K(grid(S(6)));
    tc_tensor *tail = K(tc_slice(a, 0, 1, TC_END, 1));
    tc_tensor *head = K(tc_slice(a, 0, 0, -1, 1));

    /* a = torch.arange(6.); a[1:].copy_(a[:-1]), a[:-1].copy_(a[1:]) */
    ASSERT_COPY_FAILS(tail, head, partial_overlap);
    ASSERT_COPY_FAILS(head, tail, partial_overlap);
    /* a[:3].copy_(a[2:5]) */
    ASSERT_COPY_FAILS(K(tc_slice(a, 0, 0, 3, 1)), K(tc_slice(a, 0, 2, 5, 1)),
                      partial_overlap);
    /* a.view(2, 3).copy_(a.view(3, 2).t()): same memory, other order */
    ASSERT_COPY_FAILS(K(tc_view(a, S(2, 3))), K(tc_t(K(tc_view(a, S(3, 2))))),
                      partial_overlap);
    /* a.view(2, 3).t().copy_(a.view(3, 2)) */
    ASSERT_COPY_FAILS(K(tc_t(K(tc_view(a, S(2, 3))))), K(tc_view(a, S(3, 2))),
                      partial_overlap);
    /* a.view(2, 3).copy_(a), a.copy_(a.view(1, 6)) */
    ASSERT_COPY_FAILS(K(tc_view(a, S(2, 3))), a, partial_overlap);
    ASSERT_COPY_FAILS(a, K(tc_view(a, S(1, 6))), partial_overlap);
    EXPECT_VALUES(a, V(0, 1, 2, 3, 4, 5));
    ck_assert(!tc_check_no_partial_overlap(tail, head));
    ASSERT_ERROR(partial_overlap);
}
END_TEST

START_TEST(test_copy_partial_overlap_other_rank)
{
    tc_tensor *a = K(grid(S(6)));

    /* a = torch.arange(6.); a.copy_(a.view(6, 1)): same bytes, strides (1,)
       and (1, 1) differ, so PyTorch calls it a partial overlap */
    ASSERT_COPY_FAILS(a, K(tc_view(a, S(6, 1))), partial_overlap);
}
END_TEST

START_TEST(test_copy_allowed_overlaps)
{
    tc_tensor *a = K(grid(S(6)));
    tc_tensor *m = K(tc_view(a, S(2, 3)));

    /* a.copy_(a): allowed, nothing changes */
    ck_assert_int_eq(tc_copy_(a, a), 0);
    EXPECT_VALUES(a, V(0, 1, 2, 3, 4, 5));
    /* a.view(2, 3).copy_(a.view(2, 3)), .copy_(a.view(2, 3).t().t()): the same
       memory in the same order */
    ck_assert_int_eq(tc_copy_(m, K(tc_view(a, S(2, 3)))), 0);
    ck_assert_int_eq(tc_copy_(m, K(tc_t(K(tc_t(m))))), 0);
    EXPECT_VALUES(a, V(0, 1, 2, 3, 4, 5));
    /* a[:3].copy_(a[3:]): disjoint -> [3, 4, 5, 3, 4, 5] */
    ck_assert_int_eq(tc_copy_(K(tc_slice(a, 0, 0, 3, 1)), K(tc_slice(a, 0, 3, TC_END, 1))),
                     0);
    EXPECT_VALUES(a, V(3, 4, 5, 3, 4, 5));
    /* x[:, ::2].copy_(x[:, 1::2]): interleaved, not dense, so not checked
       -> [1, 1, 3, 3, 5, 5, 7, 7, 9, 9, 11, 11] */
    ck_assert_int_eq(tc_copy_(K(tc_slice(x, 1, 0, TC_END, 2)),
                              K(tc_slice(x, 1, 1, TC_END, 2))), 0);
    EXPECT_VALUES(x, V(1, 1, 3, 3, 5, 5, 7, 7, 9, 9, 11, 11));
    ck_assert(tc_check_no_partial_overlap(a, a));
    ck_assert_ptr_null(tc_error());
}
END_TEST

START_TEST(test_copy_into_views)
{
    tc_tensor *xt = K(tc_t(x));
    tc_tensor *m = K(tc_zeros(S(3, 4), TC_FLOAT32));
    tc_tensor *g = K(grid(S(3, 4)));
    tc_tensor *corner = K(tc_slice(K(tc_slice(g, 0, 1, TC_END, 1)), 1, 1, TC_END, 1));

    /* x.t().copy_(torch.arange(12.).view(4, 3)) -> x.t() is that, and x is
       [0, 3, 6, 9, 1, 4, 7, 10, 2, 5, 8, 11] */
    ck_assert_int_eq(tc_copy_(xt, K(grid(S(4, 3)))), 0);
    EXPECT_VALUES(xt, V(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11));
    EXPECT_VALUES(x, V(0, 3, 6, 9, 1, 4, 7, 10, 2, 5, 8, 11));
    /* x.t().copy_(torch.arange(12, dtype=torch.int64).view(4, 3) * 10) */
    ck_assert_int_eq(tc_copy_(xt, K(I64(S(4, 3), 0, 10, 20, 30, 40, 50, 60, 70, 80, 90,
                                          100, 110))), 0);
    EXPECT_VALUES(xt, V(0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110));
    /* m = torch.zeros(3, 4); m[:, 1:3].copy_(torch.tensor([7., 8.])) */
    ck_assert_int_eq(tc_copy_(K(tc_slice(m, 1, 1, 3, 1)), K(F32(S(2), 7, 8))), 0);
    EXPECT_VALUES(m, V(0, 7, 8, 0, 0, 7, 8, 0, 0, 7, 8, 0));
    /* m.t()[1].copy_(torch.arange(3.)) -> column 1 is [0, 1, 2] */
    ck_assert_int_eq(tc_copy_(K(tc_select(K(tc_t(m)), 0, 1)), w), 0);
    EXPECT_VALUES(m, V(0, 0, 8, 0, 0, 1, 8, 0, 0, 2, 8, 0));
    /* g = torch.arange(12.).view(3, 4); g[1:, 1:].copy_(torch.arange(3.).neg())
       -> g[1:, 1:] has sizes (2, 3), strides (4, 1), offset 5 and values
       [-0., -1., -2., -0., -1., -2.] */
    ck_assert_int_eq(tc_copy_(corner, K(F32(S(3), -0.0f, -1, -2))), 0);
    ck_assert_int_eq(corner->storage_offset, 5);
    EXPECT_VALUES(corner, V(-0.0, -1, -2, -0.0, -1, -2));
    EXPECT_VALUES(g, V(0, 1, 2, 3, 4, -0.0, -1, -2, 8, -0.0, -1, -2));
    ck_assert_ptr_null(tc_error());
}
END_TEST

/* ------------------------------------------------------------ property test */

/* Random chains of view operations, each element checked against a model
   that knows nothing of strides. The model keeps, for every element of the
   current tensor in row-major order, the element of the base it shows (the
   base is arange(n) in float64, so that is also its value) and the storage
   position it is read from. Each operation's model is its index mapping,
   as PyTorch documents it: x.transpose(0, 1)[i, j] is x[j, i],
   x[a:b:k][i] is x[a' + k * i], x.view(shape) reads x in row-major order,
   and so on. A view keeps the positions it maps; a copy (reshape when no
   view exists) lays its elements out row-major in a new storage.

   Whether a view exists is decided by brute force: the shape can view
   the elements iff their positions are an affine function of the new
   index, position = p0 + sum(i_k * stride_k). (Checked in Python against
   torch 1.13's Tensor.view on 60000 random strided tensors and shapes:
   no disagreement.) */

/* ck_assert_msg reports every passing check to Check (a system call each);
   the million checks below only report a failure. */
#define CHECK(cond, ...)                                                   \
    do {                                                                   \
        if (!(cond))                                                       \
            ck_abort_msg(__VA_ARGS__);                                     \
    } while (0)

enum { CHAINS = 10000, P_MAXD = 8, P_MAXN = 4096, BASE_MAXN = 625 };

typedef enum {
    OP_TRANSPOSE, OP_T, OP_PERMUTE, OP_SLICE, OP_NARROW, OP_SELECT, OP_EXPAND,
    OP_UNSQUEEZE, OP_SQUEEZE, OP_SQUEEZE_DIM, OP_DIAGONAL, OP_UNFOLD, OP_VIEW,
    OP_RESHAPE, OP_FLATTEN, OP_COUNT
} op_kind;

typedef struct {
    int64_t dim, sizes[TC_MAX_DIMS], numel;
    int64_t src[P_MAXN];    /* the base element shown (= its value) */
    int64_t pos[P_MAXN];    /* the storage position it is read from */
    bool copied;            /* the storage is no longer the base's */
} model;

typedef struct {
    op_kind kind;
    int64_t a, b, c, d;      /* the arguments, as passed to the library */
    tc_shape shape;          /* permute's dims, expand's or view's sizes */
    int64_t d1, d2;          /* wrapped dimensions */
    int64_t first, step;     /* slice, narrow, select, unfold */
    int64_t lead;            /* expand: new leading dimensions */
} op;

static uint64_t rng_state;

static uint64_t rng_next(void)    /* splitmix64 */
{
    uint64_t r = (rng_state += UINT64_C(0x9E3779B97F4A7C15));

    r = (r ^ (r >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    r = (r ^ (r >> 27)) * UINT64_C(0x94D049BB133111EB);
    return r ^ (r >> 31);
}

/* A random integer in [lo, hi]. */
static int64_t rnd(int64_t lo, int64_t hi)
{
    return lo + (int64_t)(rng_next() % (uint64_t)(hi - lo + 1));
}

/* A dimension argument of a tensor of dim dimensions as PyTorch reads it:
   in [-n, n - 1], n = dim (1 for a scalar). */
static int64_t wrapped(int64_t d, int64_t dim)
{
    int64_t n = dim > 0 ? dim : 1;

    return d < 0 ? d + n : d;
}

static int64_t random_dim(int64_t dim)
{
    int64_t n = dim > 0 ? dim : 1;

    return rnd(-n, n - 1);
}

/* Python's slice bound: negative counts from the end, then clamp. */
static int64_t python_bound(int64_t i, int64_t size)
{
    if (i == TC_END)
        return size;
    if (i < 0)
        i += size;
    return i < 0 ? 0 : i > size ? size : i;
}

static int64_t product(int64_t dim, const int64_t *sizes)
{
    int64_t n = 1;

    for (int64_t d = 0; d < dim; d++)
        n *= sizes[d];
    return n;
}

static char chain[4096];

static void describe(const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

static void describe(const char *format, ...)
{
    size_t used = strlen(chain);
    va_list args;

    va_start(args, format);
    if (used < sizeof chain)
        vsnprintf(chain + used, sizeof chain - used, format, args);
    va_end(args);
}

static void describe_shape(const char *name, tc_shape shape)
{
    describe("%s(", name);
    for (int64_t d = 0; d < shape.dim; d++)
        describe("%s%lld", d > 0 ? ", " : "", (long long)shape.sizes[d]);
    describe(")");
}

/* A random shape of n elements for view and reshape, maybe with a -1. */
static void random_shape(int64_t n, tc_shape *shape, model *next)
{
    int64_t dim = n == 1 ? rnd(0, 4) : rnd(1, 4), left = n;

    shape->dim = dim;
    for (int64_t d = 0; d < dim; d++) {
        if (n == 0) {
            shape->sizes[d] = rnd(0, 3);
        } else if (d == dim - 1) {
            shape->sizes[d] = left;
        } else {
            int64_t k;
            do
                k = rnd(1, left);
            while (left % k != 0);
            shape->sizes[d] = k;
            left /= k;
        }
    }
    if (n == 0)
        shape->sizes[rnd(0, dim - 1)] = 0;
    next->dim = dim;
    memcpy(next->sizes, shape->sizes, sizeof shape->sizes);
    if (dim > 0 && rnd(0, 2) == 0) {
        int64_t d = rnd(0, dim - 1), others = 1;
        for (int64_t i = 0; i < dim; i++)
            others *= i == d ? 1 : shape->sizes[i];
        if (others > 0)    /* otherwise -1 is ambiguous, and refused */
            shape->sizes[d] = -1;
    }
}

/* Choose an operation that applies to m and the shape of its result;
   false if the one drawn does not apply. */
static bool plan(op *o, const model *m, model *next)
{
    int64_t dim = m->dim, sizes[TC_MAX_DIMS], k = 0, pick;

    memset(o, 0, sizeof *o);
    pick = rnd(0, OP_COUNT + 2);    /* view, reshape and flatten twice as often */
    o->kind = pick < OP_COUNT ? (op_kind)pick
            : pick == OP_COUNT ? OP_VIEW : pick == OP_COUNT + 1 ? OP_RESHAPE : OP_FLATTEN;
    next->dim = dim;
    memcpy(next->sizes, m->sizes, sizeof m->sizes);
    memcpy(sizes, m->sizes, sizeof sizes);
    switch (o->kind) {
    case OP_TRANSPOSE:
        o->a = random_dim(dim);
        o->b = random_dim(dim);
        o->d1 = wrapped(o->a, dim);
        o->d2 = wrapped(o->b, dim);
        if (dim > 0) {
            next->sizes[o->d1] = sizes[o->d2];
            next->sizes[o->d2] = sizes[o->d1];
        }
        break;
    case OP_T:
        if (dim > 2)
            return false;
        if (dim == 2) {
            next->sizes[0] = sizes[1];
            next->sizes[1] = sizes[0];
        }
        break;
    case OP_PERMUTE: {
        int64_t perm[TC_MAX_DIMS];
        for (int64_t d = 0; d < dim; d++)
            perm[d] = d;
        for (int64_t d = dim - 1; d > 0; d--) {
            int64_t j = rnd(0, d), t = perm[d];
            perm[d] = perm[j];
            perm[j] = t;
        }
        o->shape.dim = dim;
        for (int64_t d = 0; d < dim; d++) {
            o->shape.sizes[d] = perm[d] - (rnd(0, 1) ? dim : 0);
            next->sizes[d] = sizes[perm[d]];
        }
        break;
    }
    case OP_SLICE: {
        int64_t size, lo, hi;
        if (dim == 0)
            return false;
        o->a = random_dim(dim);
        o->d1 = wrapped(o->a, dim);
        size = sizes[o->d1];
        o->b = rnd(-size - 2, size + 2);
        o->c = rnd(0, 3) == 0 ? TC_END : rnd(-size - 2, size + 2);
        o->d = o->step = rnd(1, 3);
        lo = python_bound(o->b, size);
        hi = python_bound(o->c, size);
        o->first = lo;
        next->sizes[o->d1] = 0;
        for (int64_t j = 0; j < size; j++)    /* the positions range(size)[b:c:d] keeps */
            if (j >= lo && j < hi && (j - lo) % o->step == 0)
                next->sizes[o->d1]++;
        break;
    }
    case OP_NARROW: {
        int64_t size;
        if (dim == 0)
            return false;
        o->a = random_dim(dim);
        o->d1 = wrapped(o->a, dim);
        size = sizes[o->d1];
        o->first = rnd(0, size);               /* start == size is allowed */
        o->c = rnd(0, size - o->first);        /* length */
        o->b = o->first < size && rnd(0, 1) ? o->first - size : o->first;
        o->step = 1;
        next->sizes[o->d1] = o->c;
        break;
    }
    case OP_SELECT:
        if (dim == 0)
            return false;
        o->a = random_dim(dim);
        o->d1 = wrapped(o->a, dim);
        if (sizes[o->d1] == 0)
            return false;
        o->b = rnd(-sizes[o->d1], sizes[o->d1] - 1);
        o->first = o->b < 0 ? o->b + sizes[o->d1] : o->b;
        next->dim = dim - 1;
        for (int64_t d = 0; d < dim; d++)
            if (d != o->d1)
                next->sizes[k++] = sizes[d];
        break;
    case OP_EXPAND:
        o->lead = dim + 2 <= P_MAXD ? rnd(0, 2) : 0;
        o->shape.dim = next->dim = dim + o->lead;
        for (int64_t i = 0; i < o->lead; i++)
            o->shape.sizes[i] = next->sizes[i] = rnd(0, 3);
        for (int64_t d = 0; d < dim; d++) {
            int64_t want = sizes[d] == 1 ? rnd(-1, 4) : rnd(0, 1) ? -1 : sizes[d];
            o->shape.sizes[o->lead + d] = want;
            next->sizes[o->lead + d] = want == -1 ? sizes[d] : want;
        }
        break;
    case OP_UNSQUEEZE:
        if (dim >= P_MAXD)
            return false;
        o->a = rnd(-(dim + 1), dim);
        o->d1 = o->a < 0 ? o->a + dim + 1 : o->a;
        next->dim = dim + 1;
        for (int64_t d = 0; d <= dim; d++)
            next->sizes[d] = d < o->d1 ? sizes[d] : d == o->d1 ? 1 : sizes[d - 1];
        break;
    case OP_SQUEEZE:
    case OP_SQUEEZE_DIM:
        o->a = random_dim(dim);
        o->d1 = o->kind == OP_SQUEEZE ? -1 : wrapped(o->a, dim);
        for (int64_t d = 0; d < dim; d++)
            if (sizes[d] != 1 || (o->d1 >= 0 && d != o->d1))
                next->sizes[k++] = sizes[d];
        next->dim = k;
        break;
    case OP_DIAGONAL: {
        int64_t length = 0, up, down;
        if (dim < 2)
            return false;
        o->d1 = rnd(0, dim - 1);
        o->d2 = rnd(0, dim - 2);
        if (o->d2 >= o->d1)
            o->d2++;
        o->b = o->d1 - (rnd(0, 1) ? dim : 0);
        o->c = o->d2 - (rnd(0, 1) ? dim : 0);
        o->a = rnd(-sizes[o->d1] - 1, sizes[o->d2] + 1);    /* offset */
        down = o->a < 0 ? -o->a : 0;
        up = o->a > 0 ? o->a : 0;
        while (length + down < sizes[o->d1] && length + up < sizes[o->d2])
            length++;
        for (int64_t d = 0; d < dim; d++)
            if (d != o->d1 && d != o->d2)
                next->sizes[k++] = sizes[d];
        next->sizes[k++] = length;
        next->dim = k;
        break;
    }
    case OP_UNFOLD: {
        int64_t have, windows = 0;
        if (dim >= P_MAXD)
            return false;
        o->a = random_dim(dim);
        o->d1 = wrapped(o->a, dim);
        have = dim == 0 ? 1 : sizes[o->d1];
        o->b = rnd(0, have);              /* window size */
        o->c = o->step = rnd(1, 3);
        while (windows * o->step + o->b <= have)
            windows++;
        if (dim > 0)
            next->sizes[o->d1] = windows;
        next->sizes[dim] = o->b;
        next->dim = dim + 1;
        break;
    }
    case OP_VIEW:
    case OP_RESHAPE:
        random_shape(m->numel, &o->shape, next);
        break;
    case OP_FLATTEN:
        o->a = random_dim(dim);
        o->b = random_dim(dim);
        if (wrapped(o->a, dim) > wrapped(o->b, dim)) {
            int64_t t = o->a;
            o->a = o->b;
            o->b = t;
        }
        o->d1 = wrapped(o->a, dim);
        o->d2 = wrapped(o->b, dim);
        if (dim == 0) {
            next->dim = 1;
            next->sizes[0] = 1;
        } else {
            for (int64_t d = 0; d < dim; d++) {
                if (d <= o->d1 || d > o->d2)
                    next->sizes[k++] = sizes[d];
                else
                    next->sizes[k - 1] *= sizes[d];
            }
            next->dim = k;
        }
        break;
    case OP_COUNT:
        return false;
    }
    next->numel = product(next->dim, next->sizes);
    return next->numel <= P_MAXN;
}

/* The library call for o, and its line in the chain's description. */
static tc_tensor *apply(const op *o, const tc_tensor *t)
{
    switch (o->kind) {
    case OP_TRANSPOSE:
        describe(" -> transpose(%lld, %lld)", (long long)o->a, (long long)o->b);
        return tc_transpose(t, o->a, o->b);
    case OP_T:
        describe(" -> t()");
        return tc_t(t);
    case OP_PERMUTE:
        describe_shape(" -> permute", o->shape);
        return tc_permute(t, o->shape);
    case OP_SLICE:
        if (o->c == TC_END)
            describe(" -> slice(%lld, %lld, END, %lld)", (long long)o->a, (long long)o->b,
                     (long long)o->d);
        else
            describe(" -> slice(%lld, %lld, %lld, %lld)", (long long)o->a, (long long)o->b,
                     (long long)o->c, (long long)o->d);
        return tc_slice(t, o->a, o->b, o->c, o->d);
    case OP_NARROW:
        describe(" -> narrow(%lld, %lld, %lld)", (long long)o->a, (long long)o->b,
                 (long long)o->c);
        return tc_narrow(t, o->a, o->b, o->c);
    case OP_SELECT:
        describe(" -> select(%lld, %lld)", (long long)o->a, (long long)o->b);
        return tc_select(t, o->a, o->b);
    case OP_EXPAND:
        describe_shape(" -> expand", o->shape);
        return tc_expand(t, o->shape);
    case OP_UNSQUEEZE:
        describe(" -> unsqueeze(%lld)", (long long)o->a);
        return tc_unsqueeze(t, o->a);
    case OP_SQUEEZE:
        describe(" -> squeeze()");
        return tc_squeeze(t);
    case OP_SQUEEZE_DIM:
        describe(" -> squeeze(%lld)", (long long)o->a);
        return tc_squeeze_dim(t, o->a);
    case OP_DIAGONAL:
        describe(" -> diagonal(%lld, %lld, %lld)", (long long)o->a, (long long)o->b,
                 (long long)o->c);
        return tc_diagonal(t, o->a, o->b, o->c);
    case OP_UNFOLD:
        describe(" -> unfold(%lld, %lld, %lld)", (long long)o->a, (long long)o->b,
                 (long long)o->c);
        return tc_unfold(t, o->a, o->b, o->c);
    case OP_VIEW:
        describe_shape(" -> view", o->shape);
        return tc_view(t, o->shape);
    case OP_RESHAPE:
        describe_shape(" -> reshape", o->shape);
        return tc_reshape(t, o->shape);
    case OP_FLATTEN:
        describe(" -> flatten(%lld, %lld)", (long long)o->a, (long long)o->b);
        return tc_flatten(t, o->a, o->b);
    case OP_COUNT:
        break;
    }
    return NULL;
}

/* The index of the element of m that index ni of o's result shows. */
static void map_back(const op *o, const model *m, const model *next, const int64_t *ni,
                     int64_t *pi)
{
    int64_t k = 0;

    switch (o->kind) {
    case OP_TRANSPOSE:
        memcpy(pi, ni, (size_t)m->dim * sizeof *pi);
        if (m->dim > 0) {
            pi[o->d1] = ni[o->d2];
            pi[o->d2] = ni[o->d1];
        }
        break;
    case OP_T:
        for (int64_t d = 0; d < m->dim; d++)
            pi[d] = ni[m->dim - 1 - d];
        break;
    case OP_PERMUTE:
        for (int64_t d = 0; d < m->dim; d++)
            pi[wrapped(o->shape.sizes[d], m->dim)] = ni[d];
        break;
    case OP_SLICE:
    case OP_NARROW:
        memcpy(pi, ni, (size_t)m->dim * sizeof *pi);
        pi[o->d1] = o->first + ni[o->d1] * o->step;
        break;
    case OP_SELECT:
        for (int64_t d = 0; d < m->dim; d++)
            pi[d] = d == o->d1 ? o->first : ni[k++];
        break;
    case OP_EXPAND:
        for (int64_t d = 0; d < m->dim; d++)
            pi[d] = m->sizes[d] == 1 ? 0 : ni[o->lead + d];
        break;
    case OP_UNSQUEEZE:
        for (int64_t d = 0; d <= m->dim; d++)
            if (d != o->d1)
                pi[k++] = ni[d];
        break;
    case OP_SQUEEZE:
    case OP_SQUEEZE_DIM:
        for (int64_t d = 0; d < m->dim; d++)
            pi[d] = m->sizes[d] == 1 && (o->d1 < 0 || d == o->d1) ? 0 : ni[k++];
        break;
    case OP_DIAGONAL: {
        int64_t i = ni[next->dim - 1];
        for (int64_t d = 0; d < m->dim; d++)
            if (d != o->d1 && d != o->d2)
                pi[d] = ni[k++];
        pi[o->d1] = i + (o->a < 0 ? -o->a : 0);
        pi[o->d2] = i + (o->a > 0 ? o->a : 0);
        break;
    }
    case OP_UNFOLD:
        memcpy(pi, ni, (size_t)m->dim * sizeof *pi);
        if (m->dim > 0)
            pi[o->d1] = ni[o->d1] * o->step + ni[m->dim];
        break;
    case OP_VIEW:
    case OP_RESHAPE:
    case OP_FLATTEN:
    case OP_COUNT:
        break;
    }
}

static int64_t row_major(int64_t dim, const int64_t *sizes, const int64_t *index)
{
    int64_t k = 0;

    for (int64_t d = 0; d < dim; d++)
        k = k * sizes[d] + index[d];
    return k;
}

/* Can shape view m's elements, i.e. are their positions affine in the
   new row-major index? */
static bool affine(const model *m, int64_t dim, const int64_t *sizes)
{
    int64_t strides[TC_MAX_DIMS], index[TC_MAX_DIMS] = { 0 }, k = 0;

    if (m->numel == 0)
        return true;
    for (int64_t d = 0; d < dim; d++) {
        index[d] = sizes[d] > 1 ? 1 : 0;
        strides[d] = sizes[d] > 1 ? m->pos[row_major(dim, sizes, index)] - m->pos[0] : 0;
        index[d] = 0;
    }
    do {
        int64_t p = m->pos[0];
        for (int64_t d = 0; d < dim; d++)
            p += index[d] * strides[d];
        if (m->pos[k++] != p)
            return false;
    } while (next_index(dim, sizes, index));
    return true;
}

/* next's elements for o applied to m; `view` tells whether a view/reshape/
   flatten can keep the storage. */
static void fill_model(const op *o, const model *m, model *next, bool view)
{
    int64_t ni[TC_MAX_DIMS] = { 0 }, pi[TC_MAX_DIMS] = { 0 }, k = 0;

    next->copied = m->copied;
    if (o->kind == OP_VIEW || o->kind == OP_RESHAPE || o->kind == OP_FLATTEN) {
        memcpy(next->src, m->src, (size_t)m->numel * sizeof *m->src);
        if (view) {
            memcpy(next->pos, m->pos, (size_t)m->numel * sizeof *m->pos);
        } else {
            for (int64_t i = 0; i < m->numel; i++)
                next->pos[i] = i;    /* a contiguous copy */
            next->copied = true;
        }
        return;
    }
    if (next->numel == 0)
        return;
    do {
        int64_t j;
        map_back(o, m, next, ni, pi);
        j = row_major(m->dim, m->sizes, pi);
        next->src[k] = m->src[j];
        next->pos[k] = m->pos[j];
        k++;
    } while (next_index(next->dim, next->sizes, ni));
}

static int64_t elements_checked;

/* t has m's shape, storage and elements. */
static void check_model(int chain_no, const tc_tensor *t, const model *m,
                        const tc_storage *base_storage)
{
    int64_t index[TC_MAX_DIMS] = { 0 }, k = 0;

    CHECK(tc_error() == NULL, "chain %d: %s: success left the message \"%s\"", chain_no,
                  chain, tc_error());
    CHECK(t->dim == m->dim, "chain %d: %s: %lld dimensions, expected %lld", chain_no,
                  chain, (long long)t->dim, (long long)m->dim);
    for (int64_t d = 0; d < m->dim; d++)
        CHECK(t->sizes[d] == m->sizes[d], "chain %d: %s: size %lld is %lld, expected %lld",
                      chain_no, chain, (long long)d, (long long)t->sizes[d],
                      (long long)m->sizes[d]);
    CHECK((t->storage == base_storage) == !m->copied,
                  "chain %d: %s: %s the base's storage", chain_no, chain,
                  m->copied ? "still shares" : "no longer shares");
    if (m->numel == 0)
        return;
    do {
        double got = -1.0;
        int64_t p = t->storage_offset;
        for (int64_t d = 0; d < t->dim; d++)
            p += index[d] * t->strides[d];
        CHECK(tc_get(t, index, &got) == 0, "chain %d: %s: tc_get failed: %s", chain_no,
                      chain, tc_error());
        CHECK(got == (double)m->src[k],
                      "chain %d: %s: element %lld is %g, expected %lld", chain_no, chain,
                      (long long)k, got, (long long)m->src[k]);
        CHECK(p == m->pos[k],
                      "chain %d: %s: element %lld is at storage position %lld, expected %lld",
                      chain_no, chain, (long long)k, (long long)p, (long long)m->pos[k]);
        k++;
    } while (next_index(t->dim, t->sizes, index));
    elements_checked += k;
}

static model models[2];

START_TEST(test_property_random_view_chains)
{
    static double data[BASE_MAXN];
    int64_t steps = 0, refused = 0, copies = 0;

    for (int64_t i = 0; i < BASE_MAXN; i++)
        data[i] = (double)i;
    rng_state = UINT64_C(20260202);
    elements_checked = 0;
    for (int n = 0; n < CHAINS; n++) {
        model *m = &models[0], *next = &models[1];
        tc_shape shape = { .dim = rnd(0, 4) };
        tc_tensor *base, *t;
        int length = (int)rnd(1, 6);

        for (int64_t d = 0; d < shape.dim; d++)
            shape.sizes[d] = rnd(0, 7) == 0 ? 0 : rnd(1, 5);
        m->dim = shape.dim;
        memcpy(m->sizes, shape.sizes, sizeof shape.sizes);
        m->numel = product(m->dim, m->sizes);
        m->copied = false;
        for (int64_t i = 0; i < m->numel; i++)
            m->src[i] = m->pos[i] = i;
        chain[0] = '\0';
        describe("arange(%lld).view", (long long)m->numel);
        describe_shape("", shape);
        base = tc_from_data(shape, TC_FLOAT64, data);
        ck_assert_ptr_nonnull(base);
        t = tc_retain(base);
        check_model(n, t, m, base->storage);
        for (int step = 0; step < length; step++) {
            op o;
            tc_tensor *r;
            bool view = true;

            while (!plan(&o, m, next))
                ;
            if (o.kind == OP_VIEW || o.kind == OP_RESHAPE || o.kind == OP_FLATTEN)
                view = affine(m, next->dim, next->sizes);
            r = apply(&o, t);
            if (o.kind == OP_VIEW && !view) {
                describe(" refused");
                CHECK(r == NULL, "chain %d: %s: the view should be refused", n, chain);
                ASSERT_ERROR(view_refused);
                tc_clear_error();
                refused++;
                continue;
            }
            CHECK(r != NULL, "chain %d: %s: failed: %s", n, chain, tc_error());
            if (o.kind == OP_FLATTEN && t->dim > 0 && o.d1 == o.d2)
                CHECK(r == t, "chain %d: %s: not the same tensor", n, chain);
            fill_model(&o, m, next, view);
            copies += next->copied && !m->copied;
            tc_release(t);
            t = r;
            check_model(n, t, next, base->storage);
            m = next;
            next = m == &models[0] ? &models[1] : &models[0];
            steps++;
        }
        tc_release(t);
        tc_release(base);
    }
    /* Deterministic for the seed: 10000 chains, 35065 operations, of which
       176 were views refused as PyTorch refuses them; 233 chains went
       through a copy (reshape or flatten with no view); 525379 elements
       were checked, value and storage position. */
    ck_assert_int_eq(steps + refused, 35065);
    ck_assert_int_eq(refused, 176);
    ck_assert_int_eq(copies, 233);
    ck_assert_int_eq(elements_checked, 525379);
}
END_TEST

/* ------------------------------------ laid out like the input (*_like) */

/* These tests came from chapter 1's suite when the full *_like layout rule
   moved to chapter 2. They build layouts directly with tc_tensor_over, as
   torch.empty_strided does in the Python expressions quoted. */

START_TEST(test_shape_is_non_overlapping_and_dense)
{
    /* torch._prims_common.is_non_overlapping_and_dense(
           torch.empty_strided(sizes, strides)) */
    ck_assert(testing_layout_is(tc_is_non_overlapping_and_dense, 2, SIZES(2, 3), SIZES(3, 1)));               /* True */
    ck_assert(testing_layout_is(tc_is_non_overlapping_and_dense, 2, SIZES(3, 2), SIZES(1, 3)));               /* True */
    ck_assert(!testing_layout_is(tc_is_non_overlapping_and_dense, 2, SIZES(4, 3), SIZES(6, 2)));              /* False */
    ck_assert(!testing_layout_is(tc_is_non_overlapping_and_dense, 2, SIZES(2, 3), SIZES(0, 1)));              /* False */
    ck_assert(testing_layout_is(tc_is_non_overlapping_and_dense, 3, SIZES(2, 1, 3), SIZES(3, 100, 1)));       /* True */
    ck_assert(!testing_layout_is(tc_is_non_overlapping_and_dense, 1, SIZES(3), SIZES(2)));                    /* False */
    ck_assert(testing_layout_is(tc_is_non_overlapping_and_dense, 1, SIZES(3), SIZES(1)));                     /* True */
    ck_assert(testing_layout_is(tc_is_non_overlapping_and_dense, 1, SIZES(1), SIZES(5)));                     /* True */
    ck_assert(!testing_layout_is(tc_is_non_overlapping_and_dense, 2, SIZES(2, 2), SIZES(1, 1)));              /* False */
    ck_assert(testing_layout_is(tc_is_non_overlapping_and_dense, 3, SIZES(2, 3, 4), SIZES(1, 8, 2)));         /* True */
    ck_assert(testing_layout_is(tc_is_non_overlapping_and_dense, 0, NULL, NULL));                             /* True */
    ck_assert(!testing_layout_is(tc_is_non_overlapping_and_dense, 2, SIZES(4, 3), SIZES(1, 8)));              /* False */
    ck_assert(testing_layout_is(tc_is_non_overlapping_and_dense, 2, SIZES(3, 0), SIZES(1, 1)));               /* True */
    ck_assert(testing_layout_is(tc_is_non_overlapping_and_dense, 3, SIZES(2, 1, 3), SIZES(1, 7, 2)));         /* True */
    ck_assert(!testing_layout_is(tc_is_non_overlapping_and_dense, 2, SIZES(4, 1), SIZES(2, 1)));              /* False */
}
END_TEST

START_TEST(test_shape_dense_zero_size)
{
    /* A zero-size tensor is contiguous, hence non-overlapping and dense, in
       PyTorch whatever its strides:
       torch._prims_common.is_non_overlapping_and_dense(
           torch.empty_strided((0, 3), (5, 7))) == True
       torch.empty_strided((3, 0), (2, 1)) likewise. */
    bool a = testing_layout_is(tc_is_non_overlapping_and_dense, 2, SIZES(0, 3), SIZES(5, 7));
    bool b = testing_layout_is(tc_is_non_overlapping_and_dense, 2, SIZES(3, 0), SIZES(2, 1));
    bool c = testing_layout_is(tc_is_non_overlapping_and_dense, 3, SIZES(5, 0, 3), SIZES(1, 1, 20));

    ck_assert(a);
    ck_assert(b);
    ck_assert(c);
}
END_TEST

START_TEST(test_like_preserves_dense_strides)
{
    tc_tensor *t = testing_transposed_arange6(TC_FLOAT32);
    tc_tensor *e = tc_empty_like(t);
    tc_tensor *z = tc_zeros_like(t);
    tc_tensor *o = tc_ones_like(t);
    tc_tensor *f = tc_full_like(t, 2.5);

    /* torch.empty_like(torch.empty(2, 3).t()).stride() == (1, 3);
       zeros_like, ones_like, full_like likewise */
    ASSERT_SIZES(e, 3, 2);
    ASSERT_STRIDES(e, 1, 3);
    ASSERT_STRIDES(z, 1, 3);
    ASSERT_STRIDES(o, 1, 3);
    ASSERT_STRIDES(f, 1, 3);
    ck_assert_int_eq(e->storage_offset, 0);
    ck_assert_uint_eq(e->storage->nbytes, 6 * sizeof(float));
    for (int64_t r = 0; r < 3; r++)
        for (int64_t c = 0; c < 2; c++) {
            ck_assert(testing_get(z, IDX(r, c)) == 0.0);
            ck_assert(testing_get(o, IDX(r, c)) == 1.0);
            ck_assert(testing_get(f, IDX(r, c)) == 2.5);
        }
    tc_release(t);
    tc_release(e);
    tc_release(z);
    tc_release(o);
    tc_release(f);
}
END_TEST

START_TEST(test_like_non_dense_row_major)
{
    tc_tensor *base = tc_arange(0.0, 24.0, 1.0);
    /* torch.empty(4, 6)[:, ::2]: sizes (4, 3), strides (6, 2), offset 0 */
    tc_tensor *t = testing_over(base, 2, SIZES(4, 3), SIZES(6, 2), 0);
    tc_tensor *e = tc_empty_like(t);
    tc_tensor *o = tc_ones_like(t);
    tc_tensor *x = testing_over(base, 2, SIZES(2, 3), SIZES(0, 1), 1);    /* expanded */
    tc_tensor *xe = tc_zeros_like(x);
    int64_t st[TC_MAX_DIMS];

    /* torch.empty_like(torch.empty(4, 6)[:, ::2]).stride() == (3, 1) */
    ASSERT_SIZES(e, 4, 3);
    ASSERT_STRIDES(e, 3, 1);
    ASSERT_STRIDES(o, 3, 1);
    ck_assert(testing_get(o, IDX(3, 2)) == 1.0);
    /* torch.empty_like(torch.empty_strided((2, 3), (0, 1))).stride() == (3, 1) */
    ASSERT_STRIDES(xe, 3, 1);
    ck_assert(testing_get(xe, IDX(1, 2)) == 0.0);
    /* torch.empty_like(torch.empty_strided(sizes, strides)).stride(): */
    ck_assert_int_eq(testing_empty_like_strides(1, SIZES(3), SIZES(2), st), 1);          /* (1,) */
    ck_assert_int_eq(st[0], 1);
    ck_assert_int_eq(testing_empty_like_strides(2, SIZES(2, 2), SIZES(1, 1), st), 2);    /* (2, 1) */
    ck_assert_int_eq(st[0], 2);
    ck_assert_int_eq(st[1], 1);
    ck_assert_int_eq(testing_empty_like_strides(3, SIZES(2, 1, 3), SIZES(3, 100, 1), st), 3);
    ck_assert_int_eq(st[0], 3);                                                   /* (3, 100, 1) */
    ck_assert_int_eq(st[1], 100);
    ck_assert_int_eq(st[2], 1);
    ck_assert_int_eq(testing_empty_like_strides(1, SIZES(1), SIZES(5), st), 1);          /* (5,) */
    ck_assert_int_eq(st[0], 5);
    ck_assert_int_eq(testing_empty_like_strides(3, SIZES(2, 3, 4), SIZES(1, 8, 2), st), 3);
    ck_assert_int_eq(st[0], 1);                                                   /* (1, 8, 2) */
    ck_assert_int_eq(st[1], 8);
    ck_assert_int_eq(st[2], 2);
    ck_assert_int_eq(testing_empty_like_strides(0, NULL, NULL, st), 0);                  /* () */
    tc_release(base);
    tc_release(t);
    tc_release(e);
    tc_release(o);
    tc_release(x);
    tc_release(xe);
}
END_TEST

/* A layout and the strides torch.empty_like(torch.empty_strided(sizes,
   strides)).stride() gives it in PyTorch 1.13. */
typedef struct {
    int64_t dim, sizes[3], strides[3], like[3];
} layout_case;

static const layout_case non_dense_cases[] = {
    { 2, { 4, 3 }, { 1, 8 }, { 1, 4 } },
    { 2, { 3, 4 }, { 2, 6 }, { 1, 3 } },
    { 2, { 4, 3 }, { 6, 2 }, { 3, 1 } },
    { 2, { 2, 3 }, { 0, 1 }, { 3, 1 } },
    { 2, { 2, 2 }, { 1, 1 }, { 2, 1 } },
    { 1, { 3 }, { 2 }, { 1 } },
    { 3, { 2, 3, 4 }, { 0, 1, 0 }, { 12, 4, 1 } },
    { 2, { 3, 2 }, { 1, 1 }, { 2, 1 } },
    { 3, { 2, 3, 4 }, { 24, 1, 6 }, { 12, 1, 3 } },
    { 2, { 2, 3 }, { 3, 0 }, { 3, 1 } },
    { 2, { 4, 1 }, { 2, 1 }, { 1, 1 } },
};

START_TEST(test_like_non_dense_keeps_permutation)
{
    /* PyTorch 1.13's preserve_format gives a non-dense input dense strides in
       the input's own dimension order (infer_dense_strides), e.g.
       torch.empty_like(torch.empty(6, 4)[::2].t()).stride() == (1, 4). */
    for (size_t k = 0; k < sizeof non_dense_cases / sizeof non_dense_cases[0]; k++) {
        const layout_case *c = &non_dense_cases[k];
        int64_t got[TC_MAX_DIMS] = { 0 }, inferred[TC_MAX_DIMS] = { 0 };
        int64_t n = testing_empty_like_strides(c->dim, c->sizes, c->strides, got);

        ck_assert_msg(!testing_layout_is(tc_is_non_overlapping_and_dense, c->dim, c->sizes, c->strides), "case %zu is not dense", k);
        tc_infer_dense_strides(c->dim, c->sizes, c->strides, inferred);
        ck_assert_int_eq(n, c->dim);
        for (int64_t d = 0; d < c->dim; d++) {
            ck_assert_msg(got[d] == c->like[d], "case %zu: empty_like stride[%lld] = %lld, want %lld",
                          k, (long long)d, (long long)got[d], (long long)c->like[d]);
            ck_assert_msg(inferred[d] == c->like[d], "case %zu: inferred stride[%lld] = %lld, want %lld",
                          k, (long long)d, (long long)inferred[d], (long long)c->like[d]);
        }
    }
}
END_TEST

START_TEST(test_like_dense_null)
{
    /* Issue 15, finding 4, for the query this chapter adds: NULL gives false
       and records a message (library message). */
    tc_clear_error();
    ck_assert(!tc_is_non_overlapping_and_dense(NULL));
    ck_assert_ptr_nonnull(tc_error());
    ck_assert_str_eq(tc_error(), "tc: NULL argument, but no earlier call failed");
    tc_clear_error();
}
END_TEST

START_TEST(test_like_add_scalar_keeps_layout)
{
    /* The result of chapter 1's add_scalar is made by empty_like:
       x = torch.arange(6).view(2, 3).t()
       (x + 10).stride() == (1, 3), (x + 0.5).stride() == (1, 3), float32;
       (torch.arange(24.).view(4, 6)[:, ::2] + 1).stride() == (3, 1) */
    tc_tensor *ti = testing_transposed_arange6(TC_INT64);
    tc_tensor *a = tc_add_scalar(ti, 10);
    tc_tensor *b = tc_add_scalar(ti, 0.5);
    tc_tensor *base = tc_arange(0.0, 24.0, 1.0);
    tc_tensor *gaps = testing_over(base, 2, SIZES(4, 3), SIZES(6, 2), 0);
    tc_tensor *c = tc_add_scalar(gaps, 1);

    ASSERT_STRIDES(a, 1, 3);
    ASSERT_STRIDES(b, 1, 3);
    ck_assert_int_eq(b->dtype, TC_FLOAT32);
    ASSERT_STRIDES(c, 3, 1);
    /* values: x + 10 == [[10, 13], [11, 14], [12, 15]]; gaps + 1 at [3, 2] is 23 */
    ck_assert(testing_get(a, IDX(0, 1)) == 13.0);
    ck_assert(testing_get(a, IDX(2, 0)) == 12.0);
    ck_assert(testing_get(b, IDX(1, 1)) == 4.5);
    ck_assert(testing_get(c, IDX(3, 2)) == 23.0);
    tc_release(ti);
    tc_release(a);
    tc_release(b);
    tc_release(base);
    tc_release(gaps);
    tc_release(c);
}
END_TEST

/* ---------------------------------- issue 15, finding 1: overflow in views */

/* torch.empty(0).as_strided(sizes, strides): no element is reachable, so
   PyTorch accepts any strides, and the views below compute with them. */
static tc_tensor *empty_strided(tc_shape sizes, tc_shape strides)
{
    tc_tensor *base = tc_empty(S(0), TC_FLOAT32);
    tc_tensor *t = tc_as_strided(base, sizes, strides, 0);

    tc_release(base);
    ck_assert_ptr_nonnull(t);
    return t;
}

static void assert_geometry(tc_tensor *t, tc_shape sizes, tc_shape strides, int64_t offset)
{
    ck_assert_ptr_nonnull(t);
    ck_assert_int_eq(t->dim, sizes.dim);
    for (int64_t d = 0; d < sizes.dim; d++) {
        ck_assert_int_eq(t->sizes[d], sizes.sizes[d]);
        ck_assert_int_eq(t->strides[d], strides.sizes[d]);
    }
    ck_assert_int_eq(t->storage_offset, offset);
    tc_release(t);
}

#define P62 ((int64_t)1 << 62)
#define M INT64_MAX

START_TEST(test_overflow_as_strided_offsets)
{
    tc_tensor *x = tc_empty(S(4), TC_FLOAT32);

    /* torch.empty(4).as_strided((2,), (1,), -2**62) */
    ASSERT_FAILS(tc_as_strided(x, S(2), S(1), -P62), "Tensor: invalid storage offset -4611686018427387904");
    /* torch.empty(4).as_strided((200,), (1,), -2**62): the offset's bytes wrap to 0 */
    ASSERT_FAILS(tc_as_strided(x, S(200), S(1), -P62),
          "setStorage: sizes [200], strides [1], storage offset -4611686018427387904, and "
          "itemsize 4 requiring a storage size of 800 are out of bounds for storage of size 16");
    /* torch.empty(4).as_strided((2,), (1,), -2**61-3) */
    ASSERT_FAILS(tc_as_strided(x, S(2), S(1), -(P62 / 2) - 3),
          "setStorage: sizes [2], strides [1], storage offset -2305843009213693955, and "
          "itemsize 4 requiring a storage size of 9223372036854775804 are out of bounds for "
          "storage of size 16");
    /* torch.empty(0).as_strided((0, 3), (2**62, 2**62), -5) */
    ASSERT_FAILS(tc_as_strided(x, S(0, 3), S(P62, P62), -5), "Tensor: invalid storage offset -5");
    /* torch.empty(4).as_strided((2, 3), (2**62, 2**62), 0) */
    ASSERT_FAILS(tc_as_strided(x, S(2, 3), S(P62, P62), 0),
          "Storage size calculation overflowed with sizes=[2, 3] and "
          "strides=[4611686018427387904, 4611686018427387904]");
    /* PyTorch 1.13 accepts torch.empty(4).as_strided((2,), (1,), 2**62), a view
       far outside its storage (its sum wraps); we refuse it */
    ASSERT_FAILS(tc_as_strided(x, S(2), S(1), P62),
          "Storage size calculation overflowed with sizes=[2] and strides=[1]");
    /* torch.empty(4).as_strided((1, 2), (M, 1), 0): a size-1 dim, any stride */
    assert_geometry(tc_as_strided(x, S(1, 2), S(M, 1), 0), S(1, 2), S(M, 1), 0);
    tc_release(x);
}
END_TEST

START_TEST(test_overflow_views_of_empty_tensors)
{
    /* e = torch.empty(0).as_strided((2, 0, 3), (2**62, 1, M)) */
    tc_tensor *e = empty_strided(S(2, 0, 3), S(P62, 1, M));
    /* f = torch.empty(0).as_strided((0, 3, 3), (1, M, M)) */
    tc_tensor *f = empty_strided(S(0, 3, 3), S(1, M, M));
    /* g = torch.empty(0).as_strided((0, 3), (M, M)) */
    tc_tensor *g = empty_strided(S(0, 3), S(M, M));

    /* torch.empty(0, 2**62, 4): strides (0, 4, 1), 4 * 2**62 wrapped to 0;
       .select(1, 5): shape (0, 4), strides (0, 1), offset 20 */
    assert_geometry(tc_select(K(tc_empty(S(0, P62, 4), TC_FLOAT32)), 1, 5), S(0, 4), S(0, 1), 20);
    /* e.select(0, 1): shape (0, 3), strides (1, M), offset 2**62 */
    assert_geometry(tc_select(e, 0, 1), S(0, 3), S(1, M), P62);
    /* e.select(2, 2): 2 * M wraps to -2 */
    ASSERT_FAILS(tc_select(e, 2, 2), "Tensor: invalid storage offset -2");
    /* e.narrow(0, 1, 1) */
    assert_geometry(tc_narrow(e, 0, 1, 1), S(1, 0, 3), S(P62, 1, M), P62);
    /* e.expand(3, 2, 0, 3): the new dim's stride is 0, 2 * 2**62 never kept */
    assert_geometry(tc_expand(e, S(3, 2, 0, 3)), S(3, 2, 0, 3), S(0, P62, 1, M), 0);
    /* e.unfold(2, 2, 1) */
    assert_geometry(tc_unfold(e, 2, 2, 1), S(2, 0, 2, 2), S(P62, 1, M, M), 0);
    /* g.unsqueeze(1): stride 3 * M wraps to M - 2; g.unsqueeze(0), g.unsqueeze(2) */
    assert_geometry(tc_unsqueeze(g, 1), S(0, 1, 3), S(M, M - 2, M), 0);
    assert_geometry(tc_unsqueeze(g, 0), S(1, 0, 3), S(0, M, M), 0);
    assert_geometry(tc_unsqueeze(g, 2), S(0, 3, 1), S(M, M, 1), 0);
    /* f.diagonal(0, 1, 2): M + M wraps to -2 */
    ASSERT_FAILS(tc_diagonal(f, 0, 1, 2),
          "as_strided: Negative strides are not supported at the moment, got strides: [1, -2]");
    /* f[:, 1:, 1:]: the second slice's offset M + M wraps to -2 */
    ASSERT_FAILS(tc_slice(K(tc_slice(f, 1, 1, TC_END, 1)), 2, 1, TC_END, 1),
          "Tensor: invalid storage offset -2");
    /* f[:, ::2**62]: stride M * 2**62 wraps */
    ASSERT_FAILS(tc_slice(f, 1, 0, TC_END, P62),
          "as_strided: Negative strides are not supported at the moment, got strides: "
          "[1, -4611686018427387904, 9223372036854775807]");
    /* f.flatten(1) and f.flatten() */
    assert_geometry(tc_flatten(f, 1, 2), S(0, 9), S(9, 1), 0);
    assert_geometry(tc_flatten(f, 0, 2), S(0), S(1), 0);
    /* f.clone(), f.contiguous(): the strides are kept (it is "contiguous") */
    assert_geometry(tc_clone(f), S(0, 3, 3), S(1, M, M), 0);
    assert_geometry(tc_contiguous(f), S(0, 3, 3), S(1, M, M), 0);
    /* torch.empty(0).as_strided((3, 0, 3), (M, 1, M)).clone() */
    assert_geometry(tc_clone(K(empty_strided(S(3, 0, 3), S(M, 1, M)))), S(3, 0, 3),
                    S(M, 1, M), 0);
    /* torch.empty(0).as_strided((0, 2**62, 4), (1, 1, 1)).flatten(1, 2) gives a
       wrapped (0, 0) in PyTorch; the product overflows: PyTorch's message for
       torch.empty(0).as_strided((2**62, 4, 0), (1, 1, 1)).flatten(0, 1) */
    ASSERT_FAILS(tc_flatten(K(empty_strided(S(0, P62, 4), S(1, 1, 1))), 1, 2),
          "numel: integer multiplication overflow");
    tc_release(e);
    tc_release(f);
    tc_release(g);
}
END_TEST
#undef M
#undef P62

/* Issue 15, finding 3: malformed dim counts, refused before any size is read. */
START_TEST(test_dim_count_views)
{
    tc_tensor *x = tc_empty(S(2, 2), TC_FLOAT32);
    tc_shape above = { .dim = TC_MAX_DIMS + 1 }, negative = { .dim = -3 };

    ASSERT_FAILS(tc_as_strided(x, above, above, 0), "tc: a tensor has at most 16 dimensions, got 17");
    ASSERT_FAILS(tc_as_strided(x, negative, negative, 0),
          "tc: a number of dimensions cannot be negative, got -3");
    ASSERT_FAILS(tc_expand(x, above), "tc: a tensor has at most 16 dimensions, got 17");
    ASSERT_FAILS(tc_expand(x, negative), "tc: a number of dimensions cannot be negative, got -3");
    ASSERT_FAILS(tc_reshape(x, negative), "tc: a number of dimensions cannot be negative, got -3");
    ASSERT_FAILS(tc_permute(x, above), "tc: a tensor has at most 16 dimensions, got 17");
    tc_release(x);
}
END_TEST

/* Issue 15, finding 4: the NULL rule for chapter 2's queries. */
START_TEST(test_null_rule_views)
{
    tc_tensor *x = tc_empty(S(2), TC_FLOAT32);

    tc_clear_error();
    ck_assert(!tc_same_storage(x, NULL));
    ck_assert_ptr_nonnull(tc_error());
    ck_assert_str_eq(tc_error(), "tc: NULL argument, but no earlier call failed");
    tc_clear_error();
    tc_release(x);
}
END_TEST

/* -------------------------------------------------------------------- suite */

Suite *suite_ch02(void)
{
    Suite *suite = suite_create("ch02");
    TCase *tc;

    tc = testing_tcase("wrap_dim", setup, teardown);
    tcase_add_test(tc, test_wrap_dim);
    suite_add_tcase(suite, tc);

    tc = testing_tcase("transpose", setup, teardown);
    tcase_add_test(tc, test_transpose_views);
    tcase_add_test(tc, test_transpose_errors);
    tcase_add_test(tc, test_movedim_views);
    tcase_add_test(tc, test_movedim_errors);
    suite_add_tcase(suite, tc);

    tc = testing_tcase("narrow", setup, teardown);
    tcase_add_test(tc, test_narrow_views);
    tcase_add_test(tc, test_narrow_errors);
    suite_add_tcase(suite, tc);

    tc = testing_tcase("select", setup, teardown);
    tcase_add_test(tc, test_select_views);
    tcase_add_test(tc, test_select_errors);
    suite_add_tcase(suite, tc);

    tc = testing_tcase("slice", setup, teardown);
    tcase_add_test(tc, test_slice_views);
    tcase_add_test(tc, test_slice_errors);
    tcase_add_test(tc, test_view_cases);
    tcase_add_test(tc, test_slice_scalar_step_checked_first);
    suite_add_tcase(suite, tc);

    tc = testing_tcase("expand", setup, teardown);
    tcase_add_test(tc, test_expand_views);
    tcase_add_test(tc, test_expand_errors);
    tcase_add_test(tc, test_expand_type_names);
    tcase_add_test(tc, test_expand_type_name_bool);
    tcase_add_test(tc, test_expand_scalar_minus_one);
    suite_add_tcase(suite, tc);

    tc = testing_tcase("squeeze", setup, teardown);
    tcase_add_test(tc, test_squeeze);
    suite_add_tcase(suite, tc);

    tc = testing_tcase("unsqueeze", setup, teardown);
    tcase_add_test(tc, test_unsqueeze);
    suite_add_tcase(suite, tc);

    tc = testing_tcase("flatten", setup, teardown);
    tcase_add_test(tc, test_flatten);
    suite_add_tcase(suite, tc);

    tc = testing_tcase("diagonal", setup, teardown);
    tcase_add_test(tc, test_diagonal);
    suite_add_tcase(suite, tc);

    tc = testing_tcase("unfold", setup, teardown);
    tcase_add_test(tc, test_unfold);
    suite_add_tcase(suite, tc);

    tc = testing_tcase("as_strided", setup, teardown);
    tcase_add_test(tc, test_as_strided);
    tcase_add_test(tc, test_as_strided_negative_offset_out_of_bounds);
    suite_add_tcase(suite, tc);

    tc = testing_tcase("view", setup, teardown);
    tcase_add_test(tc, test_view_strided_inputs);
    suite_add_tcase(suite, tc);

    tc = testing_tcase("reshape", setup, teardown);
    tcase_add_test(tc, test_reshape);
    suite_add_tcase(suite, tc);

    tc = testing_tcase("laid out like the input", setup, teardown);
    tcase_add_test(tc, test_shape_is_non_overlapping_and_dense);
    tcase_add_test(tc, test_shape_dense_zero_size);
    tcase_add_test(tc, test_like_preserves_dense_strides);
    tcase_add_test(tc, test_like_non_dense_row_major);
    tcase_add_test(tc, test_like_non_dense_keeps_permutation);
    tcase_add_test(tc, test_like_add_scalar_keeps_layout);
    tcase_add_test(tc, test_like_dense_null);
    suite_add_tcase(suite, tc);

    tc = testing_tcase("contiguous and clone", setup, teardown);
    tcase_add_test(tc, test_contiguous_and_clone);
    tcase_add_test(tc, test_same_object);
    suite_add_tcase(suite, tc);

    tc = testing_tcase("chains", setup, teardown);
    tcase_add_test(tc, test_chains);
    suite_add_tcase(suite, tc);

    tc = testing_tcase("size one and zero", setup, teardown);
    tcase_add_test(tc, test_size_one_and_zero);
    suite_add_tcase(suite, tc);

    tc = testing_tcase("refcounts", setup, teardown);
    tcase_add_test(tc, test_refcount_view_outlives_base);
    tcase_add_test(tc, test_refcount_copies_and_failures);
    tcase_add_test(tc, test_refcount_write_through_view);
    suite_add_tcase(suite, tc);

    tc = testing_tcase("copy_", setup, teardown);
    tcase_add_test(tc, test_copy_float_to_int64);
    tcase_add_test(tc, test_copy_other_conversions);
    tcase_add_test(tc, test_copy_int64_to_float32_rounds_once);
    tcase_add_test(tc, test_copy_bool);
    tcase_add_test(tc, test_copy_broadcast);
    tcase_add_test(tc, test_copy_broadcast_errors);
    tcase_add_test(tc, test_copy_broadcast_output_shape);
    tcase_add_test(tc, test_copy_broadcast_incompatible_longer_source);
    tcase_add_test(tc, test_copy_internal_overlap);
    tcase_add_test(tc, test_copy_partial_overlap);
    tcase_add_test(tc, test_copy_partial_overlap_other_rank);
    tcase_add_test(tc, test_copy_allowed_overlaps);
    tcase_add_test(tc, test_copy_into_views);
    suite_add_tcase(suite, tc);

    tc = testing_tcase("random view chains", setup, teardown);
    tcase_add_test(tc, test_property_random_view_chains);
    suite_add_tcase(suite, tc);

    tc = testing_tcase("issue 15: overflow, dim counts, NULL", setup, teardown);
    tcase_add_test(tc, test_overflow_as_strided_offsets);
    tcase_add_test(tc, test_overflow_views_of_empty_tensors);
    tcase_add_test(tc, test_dim_count_views);
    tcase_add_test(tc, test_null_rule_views);
    suite_add_tcase(suite, tc);

    return suite;
}
