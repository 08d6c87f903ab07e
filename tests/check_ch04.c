/* check_ch04.c: the Check suite of chapter 4 (sparse COO tensors:
   construction, accessors, coalesce, to_dense/to_sparse, addition,
   multiplication by numbers, sums, transpose, sparse.mm, printing, bytes).

   Every expected value below was obtained from PyTorch 1.13
   (/usr/bin/python3 -c "import torch; ..."), not from this library; the
   comment next to a literal names the Python expression that produced it.
   In those comments
     s  = torch.sparse_coo_tensor([[0,1,1,0],[2,0,2,2]], [3.,4.,5.,6.], (2,3))
     t  = torch.sparse_coo_tensor([[1,0,0],[1,2,0]], [10.,20.,30.], (2,3))
     c  = s.coalesce()
     si = torch.sparse_coo_tensor([[0,1],[1,2]], torch.tensor([7,8]), (2,3))
     sd = torch.sparse_coo_tensor([[0,1,1,0],[2,0,2,2]],
                                  torch.tensor([3.,4.,5.,6.], dtype=torch.float64), (2,3))
     e  = torch.sparse_coo_tensor(torch.zeros(2,0,dtype=torch.long), torch.zeros(0), (2,3))
   A few messages are the library's own (no PyTorch counterpart) and are
   marked "library message"; the byte counts are hand-computed; the random
   and large coalesce tests compare with a reference computed here (a
   qsort of (linear key, position) pairs, each run summed in input order).

   Every tensor and sparse tensor a test makes is handed to ch04_t/ch04_s,
   which release it in the fixture's teardown, so a failing assertion leaks
   nothing (the teardown runs under CK_FORK=no too). */
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

#define CH04_I64(...) ((const int64_t[]){ __VA_ARGS__ })
#define CH04_F32(...) ((const float[]){ __VA_ARGS__ })
#define CH04_F64(...) ((const double[]){ __VA_ARGS__ })
#define CH04_BOOL(...) ((const bool[]){ __VA_ARGS__ })
#define CH04_VALS(...) ((const double[]){ __VA_ARGS__ })
#define CH04_SIZE(...) (&TC_SHAPE(__VA_ARGS__))

/* Sparse tensors released by the fixture's teardown, latest first (K keeps
   dense ones, tests/testing.h). */
enum { CH04_MAX_OWNED = 512 };
static tc_sparse *ch04_sparses[CH04_MAX_OWNED];
static int ch04_nsparses;

static tc_sparse *ch04_s(tc_sparse *s)
{
    ck_assert_int_lt(ch04_nsparses, CH04_MAX_OWNED);
    ch04_sparses[ch04_nsparses++] = s;
    return s;
}

static void ch04_setup(void)
{
    ch04_nsparses = 0;
    tc_clear_error();
}

static void ch04_teardown(void)
{
    while (ch04_nsparses > 0)
        tc_sparse_release(ch04_sparses[--ch04_nsparses]);
    tc_clear_error();
}

/* The recorded message is exactly `expected`; then it is cleared. */
static void ch04_error_is(const char *expected)
{
    const char *e = tc_error();

    ck_assert_ptr_nonnull(e);
    ck_assert_str_eq(e, expected);
    tc_clear_error();
}

/* A call returning a sparse tensor / a dense tensor fails with `expected`. */
#define CH04_FAILS_S(call, expected)                                       \
    do {                                                                   \
        tc_clear_error();                                                  \
        ck_assert_msg(ch04_s(call) == NULL, "%s succeeded, expected: %s",  \
                      #call, expected);                                    \
        ch04_error_is(expected);                                           \
    } while (0)
#define CH04_FAILS_T(call, expected)                                       \
    do {                                                                   \
        tc_clear_error();                                                  \
        ck_assert_msg(K(call) == NULL, "%s succeeded, expected: %s",  \
                      #call, expected);                                    \
        ch04_error_is(expected);                                           \
    } while (0)

/* A dense tensor from a shape and the C array of its dtype (owned). */
static tc_tensor *ch04_dense(tc_shape shape, tc_dtype dtype, const void *data)
{
    tc_tensor *t = K(tc_from_data(shape, dtype, data));

    ck_assert_ptr_nonnull(t);
    return t;
}

/* torch.sparse_coo_tensor(indices, values, size): indices sparse_dim x nnz
   given row-major, values of vshape and dtype; size may be NULL. The result
   is owned (NULL on failure); the two input tensors are released. */
static tc_sparse *ch04_coo(int64_t sparse_dim, int64_t nnz, const int64_t *indices,
                           tc_shape vshape, tc_dtype dtype, const void *values,
                           const tc_shape *size)
{
    tc_tensor *i = tc_from_data(TC_SHAPE(sparse_dim, nnz), TC_INT64, indices);
    tc_tensor *v = tc_from_data(vshape, dtype, values);
    tc_sparse *s;

    ck_assert_ptr_nonnull(i);
    ck_assert_ptr_nonnull(v);
    s = ch04_s(tc_sparse_coo_tensor(i, v, size));
    tc_release(i);
    tc_release(v);
    return s;
}

/* The tensors named in the header comment. */
static tc_sparse *ch04_demo(void)    /* s */
{
    tc_sparse *s = ch04_coo(2, 4, CH04_I64(0, 1, 1, 0, 2, 0, 2, 2), TC_SHAPE(4), TC_FLOAT32,
                            CH04_F32(3, 4, 5, 6), CH04_SIZE(2, 3));

    ck_assert_ptr_nonnull(s);
    return s;
}

static tc_sparse *ch04_other(void)   /* t */
{
    tc_sparse *t = ch04_coo(2, 3, CH04_I64(1, 0, 0, 1, 2, 0), TC_SHAPE(3), TC_FLOAT32,
                            CH04_F32(10, 20, 30), CH04_SIZE(2, 3));

    ck_assert_ptr_nonnull(t);
    return t;
}

static tc_sparse *ch04_empty(tc_dtype dtype)   /* e, or e of another dtype */
{
    tc_sparse *e = ch04_coo(2, 0, CH04_I64(0), TC_SHAPE(0), dtype, CH04_F64(0), CH04_SIZE(2, 3));

    ck_assert_ptr_nonnull(e);
    return e;
}

/* The k-th element of t in row-major order, as a double / an int64. */
static int64_t ch04_position(const tc_tensor *t, int64_t k)
{
    int64_t position = t->storage_offset;

    for (int64_t d = t->dim - 1; d >= 0; d--) {
        position += (k % t->sizes[d]) * t->strides[d];
        k /= t->sizes[d];
    }
    return position;
}

static double ch04_at(const tc_tensor *t, int64_t k)
{
    return tc_load(t, ch04_position(t, k));
}

static int64_t ch04_int_at(const tc_tensor *t, int64_t k)
{
    return tc_load_int64(t, ch04_position(t, k));
}

static void ch04_expect_tensor_sizes(const tc_tensor *t, int64_t dim, const int64_t *sizes)
{
    ck_assert_ptr_nonnull(t);
    ck_assert_int_eq(t->dim, dim);
    for (int64_t d = 0; d < dim; d++)
        ck_assert_int_eq(t->sizes[d], sizes[d]);
}

/* t (any layout) has this dtype, these sizes and these elements (row-major). */
static void ch04_expect_dense(const tc_tensor *t, tc_dtype dtype, int64_t dim,
                              const int64_t *sizes, const double *values)
{
    ch04_expect_tensor_sizes(t, dim, sizes);
    ck_assert_int_eq(t->dtype, dtype);
    for (int64_t k = 0; k < tc_numel(t); k++)
        ck_assert_msg(ch04_at(t, k) == values[k], "element %lld is %.17g, expected %.17g",
                      (long long)k, ch04_at(t, k), values[k]);
}

/* s's size, sparse_dim and dense_dim. */
static void ch04_expect_shape(const tc_sparse *s, int64_t dim, const int64_t *sizes,
                              int64_t sparse_dim)
{
    ck_assert_ptr_nonnull(s);
    ck_assert_int_eq(s->dim, dim);
    for (int64_t d = 0; d < dim; d++)
        ck_assert_int_eq(s->sizes[d], sizes[d]);
    ck_assert_int_eq(s->sparse_dim, sparse_dim);
    ck_assert_int_eq(s->dense_dim, dim - sparse_dim);
}

/* s's raw lists: nnz, _indices() (sparse_dim x nnz, row-major), _values()
   (flattened row-major, of this dtype), and is_coalesced(). */
static void ch04_expect_lists(const tc_sparse *s, int64_t nnz, const int64_t *indices,
                              tc_dtype dtype, const double *values, bool coalesced)
{
    const tc_tensor *i, *v;

    ck_assert_ptr_nonnull(s);
    i = s->indices;
    v = s->values;
    ck_assert_int_eq(tc_sparse_nnz(s), nnz);
    ck_assert_int_eq(i->dtype, TC_INT64);
    ck_assert_int_eq(i->dim, 2);
    ck_assert_int_eq(i->sizes[0], s->sparse_dim);
    ck_assert_int_eq(i->sizes[1], nnz);
    for (int64_t k = 0; k < s->sparse_dim * nnz; k++)
        ck_assert_msg(ch04_int_at(i, k) == indices[k], "index %lld is %lld, expected %lld",
                      (long long)k, (long long)ch04_int_at(i, k), (long long)indices[k]);
    ck_assert_int_eq(v->dtype, dtype);
    ck_assert_int_eq(v->dim, 1 + s->dense_dim);
    ck_assert_int_eq(v->sizes[0], nnz);
    for (int64_t d = 1; d < v->dim; d++)
        ck_assert_int_eq(v->sizes[d], s->sizes[s->sparse_dim + d - 1]);
    for (int64_t k = 0; k < tc_numel(v); k++)
        ck_assert_msg(ch04_at(v, k) == values[k], "value %lld is %.17g, expected %.17g",
                      (long long)k, ch04_at(v, k), values[k]);
    ck_assert_msg(s->coalesced == coalesced, "is_coalesced is %d, expected %d",
                  (int)s->coalesced, (int)coalesced);
}

/* tc_sparse_repr(s) is exactly `expected`. */
static void ch04_expect_repr(const tc_sparse *s, const char *expected)
{
    char *text;

    ck_assert_ptr_nonnull(s);
    text = tc_sparse_repr(s);
    ck_assert_ptr_nonnull(text);
    ck_assert_msg(strcmp(text, expected) == 0, "repr is\n%s\nexpected\n%s", text, expected);
    free(text);
}

/* -------------------------------------------------------------- construction */

START_TEST(test_construct_with_size)
{
    tc_tensor *i = ch04_dense(TC_SHAPE(2, 4), TC_INT64, CH04_I64(0, 1, 1, 0, 2, 0, 2, 2));
    tc_tensor *v = ch04_dense(TC_SHAPE(4), TC_FLOAT32, CH04_F32(3, 4, 5, 6));
    tc_sparse *s = ch04_s(tc_sparse_coo_tensor(i, v, CH04_SIZE(2, 3)));

    /* s.shape == (2, 3), s.sparse_dim() == 2, s.dense_dim() == 0 */
    ch04_expect_shape(s, 2, CH04_I64(2, 3), 2);
    /* s._indices(), s._values(), s._nnz() == 4, s.is_coalesced() == False */
    ch04_expect_lists(s, 4, CH04_I64(0, 1, 1, 0, 2, 0, 2, 2), TC_FLOAT32,
                      CH04_VALS(3, 4, 5, 6), false);
    /* s._indices().data_ptr() == i.data_ptr(): contiguous lists are shared */
    ck_assert_ptr_eq(s->indices->storage, i->storage);
    ck_assert_ptr_eq(s->values->storage, v->storage);
    ck_assert_ptr_null(tc_error());
}
END_TEST

START_TEST(test_construct_inferred_size)
{
    const float fifteen[15] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14 };
    tc_sparse *s = ch04_coo(2, 4, CH04_I64(0, 1, 1, 0, 2, 0, 2, 2), TC_SHAPE(4), TC_FLOAT32,
                            CH04_F32(3, 4, 5, 6), NULL);
    /* torch.sparse_coo_tensor([[0,2,0]], torch.arange(15.).view(3,5)) */
    tc_sparse *h = ch04_coo(1, 3, CH04_I64(0, 2, 0), TC_SHAPE(3, 5), TC_FLOAT32, fifteen, NULL);
    /* torch.sparse_coo_tensor([[0,2,0],[1,1,3]], torch.arange(15.).view(3,5)) */
    tc_sparse *h2 = ch04_coo(2, 3, CH04_I64(0, 2, 0, 1, 1, 3), TC_SHAPE(3, 5), TC_FLOAT32,
                             fifteen, NULL);
    /* torch.sparse_coo_tensor(torch.zeros(2,0,dtype=torch.long), torch.zeros(0)) */
    tc_sparse *e = ch04_coo(2, 0, CH04_I64(0), TC_SHAPE(0), TC_FLOAT32, CH04_F32(0), NULL);
    /* torch.sparse_coo_tensor(torch.zeros(1,0,dtype=torch.long), torch.zeros(0,5)) */
    tc_sparse *eh = ch04_coo(1, 0, CH04_I64(0), TC_SHAPE(0, 5), TC_FLOAT32, CH04_F32(0), NULL);

    /* torch.sparse_coo_tensor(i, v).shape == (2, 3) */
    ch04_expect_shape(s, 2, CH04_I64(2, 3), 2);
    ck_assert(!s->coalesced);
    /* .shape == (3, 5), sparse_dim 1, dense_dim 1, is_coalesced False */
    ch04_expect_shape(h, 2, CH04_I64(3, 5), 1);
    ck_assert(!h->coalesced);
    ck_assert_int_eq(tc_sparse_nnz(h), 3);
    ch04_expect_tensor_sizes(h->values, 2, CH04_I64(3, 5));
    /* .shape == (3, 4, 5) */
    ch04_expect_shape(h2, 3, CH04_I64(3, 4, 5), 2);
    /* .shape == (0, 0) */
    ch04_expect_shape(e, 2, CH04_I64(0, 0), 2);
    ck_assert(e->coalesced);
    /* .shape == (0, 5) */
    ch04_expect_shape(eh, 2, CH04_I64(0, 5), 1);
}
END_TEST

START_TEST(test_construct_float_indices)
{
    tc_tensor *fi = ch04_dense(TC_SHAPE(2, 2), TC_FLOAT32, CH04_F32(0.7f, 1.2f, 2.9f, 0.0f));
    tc_tensor *di = ch04_dense(TC_SHAPE(2, 2), TC_FLOAT64, CH04_F64(0.0, 1.0, 2.0, 0.0));
    tc_tensor *v = ch04_dense(TC_SHAPE(2), TC_FLOAT32, CH04_F32(1, 2));
    tc_sparse *f = ch04_s(tc_sparse_coo_tensor(fi, v, CH04_SIZE(2, 3)));
    tc_sparse *d = ch04_s(tc_sparse_coo_tensor(di, v, CH04_SIZE(2, 3)));

    /* torch.sparse_coo_tensor(torch.tensor([[0.7,1.2],[2.9,0.]]), torch.tensor([1.,2.]),
       (2,3))._indices(): int64 [[0, 1], [2, 0]] (truncated) */
    ch04_expect_lists(f, 2, CH04_I64(0, 1, 2, 0), TC_FLOAT32, CH04_VALS(1, 2), false);
    ch04_expect_lists(d, 2, CH04_I64(0, 1, 2, 0), TC_FLOAT32, CH04_VALS(1, 2), false);
    ch04_expect_shape(f, 2, CH04_I64(2, 3), 2);
}
END_TEST

START_TEST(test_construct_noncontiguous_values)
{
    const float six[6] = { 0, 1, 2, 3, 4, 5 };
    tc_tensor *base = ch04_dense(TC_SHAPE(2, 3), TC_FLOAT32, six);
    tc_tensor *vt = K(tc_t(base));
    tc_tensor *i = ch04_dense(TC_SHAPE(1, 3), TC_INT64, CH04_I64(1, 0, 1));
    tc_sparse *h;

    ck_assert(!tc_is_contiguous(vt));
    h = ch04_s(tc_sparse_coo_tensor(i, vt, CH04_SIZE(2, 2)));
    /* torch.sparse_coo_tensor([[1,0,1]], torch.arange(6.).view(2,3).t(),
       (2,2))._values().tolist() == [[0.,3.],[1.,4.],[2.,5.]] */
    ch04_expect_lists(h, 3, CH04_I64(1, 0, 1), TC_FLOAT32, CH04_VALS(0, 3, 1, 4, 2, 5), false);
}
END_TEST

START_TEST(test_construct_coalesced_flag)
{
    /* torch.sparse_coo_tensor([[1],[2]], [7.], (2,3)).is_coalesced() == True */
    tc_sparse *one = ch04_coo(2, 1, CH04_I64(1, 2), TC_SHAPE(1), TC_FLOAT32, CH04_F32(7),
                              CH04_SIZE(2, 3));
    /* torch.sparse_coo_tensor([[0,1]], [1.,2.], (2,)).is_coalesced() == False:
       sorted and unique, but nobody looked */
    tc_sparse *two = ch04_coo(1, 2, CH04_I64(0, 1), TC_SHAPE(2), TC_FLOAT32, CH04_F32(1, 2),
                              CH04_SIZE(2));

    ck_assert(one->coalesced);
    ck_assert(!two->coalesced);
    /* e.is_coalesced() == True */
    ck_assert(ch04_empty(TC_FLOAT32)->coalesced);
    ck_assert_int_eq(tc_sparse_nnz(ch04_empty(TC_FLOAT32)), 0);
}
END_TEST

START_TEST(test_construct_zero_dim_values)
{
    tc_tensor *i = ch04_dense(TC_SHAPE(1, 1), TC_INT64, CH04_I64(1));
    tc_tensor *v = K(tc_full(TC_SCALAR_SHAPE, 7.0, TC_FLOAT32));
    tc_sparse *s;

    /* torch.sparse_coo_tensor([[1]], torch.tensor(7.), (3,)): values are
       expanded to (1,): indices [[1]], values [7.], nnz 1 */
    s = ch04_s(tc_sparse_coo_tensor(i, v, CH04_SIZE(3)));
    ck_assert_msg(s != NULL, "failed: %s", tc_error() ? tc_error() : "");
    ch04_expect_shape(s, 1, CH04_I64(3), 1);
    ch04_expect_lists(s, 1, CH04_I64(1), TC_FLOAT32, CH04_VALS(7), true);
}
END_TEST

START_TEST(test_construct_errors)
{
    tc_tensor *i1 = ch04_dense(TC_SHAPE(4), TC_INT64, CH04_I64(0, 1, 1, 0));
    tc_tensor *i3 = ch04_dense(TC_SHAPE(2, 2, 2), TC_INT64, CH04_I64(0, 0, 0, 0, 0, 0, 0, 0));
    tc_tensor *i24 = ch04_dense(TC_SHAPE(2, 4), TC_INT64, CH04_I64(0, 1, 1, 0, 2, 0, 2, 2));
    tc_tensor *i14 = ch04_dense(TC_SHAPE(1, 4), TC_INT64, CH04_I64(0, 1, 2, 3));
    tc_tensor *v4 = ch04_dense(TC_SHAPE(4), TC_FLOAT32, CH04_F32(3, 4, 5, 6));
    tc_tensor *v3 = ch04_dense(TC_SHAPE(3), TC_FLOAT32, CH04_F32(1, 2, 3));
    tc_tensor *v45 = K(tc_zeros(TC_SHAPE(4, 5), TC_FLOAT32));
    tc_tensor *v2 = ch04_dense(TC_SHAPE(2), TC_FLOAT32, CH04_F32(1, 2));
    tc_tensor *neg = ch04_dense(TC_SHAPE(2, 2), TC_INT64, CH04_I64(-1, 1, 0, 0));
    tc_tensor *big = ch04_dense(TC_SHAPE(2, 2), TC_INT64, CH04_I64(0, 1, 0, 2));
    tc_tensor *neg3 = ch04_dense(TC_SHAPE(2, 2), TC_INT64, CH04_I64(0, 1, 0, -3));
    tc_tensor *twoneg = ch04_dense(TC_SHAPE(2, 2), TC_INT64, CH04_I64(-1, -3, 0, 0));
    tc_tensor *twobig = ch04_dense(TC_SHAPE(2, 2), TC_INT64, CH04_I64(0, 1, 3, 5));

    /* torch.sparse_coo_tensor(torch.tensor([0,1,1,0]), v, (2,3)) */
    CH04_FAILS_S(tc_sparse_coo_tensor(i1, v4, CH04_SIZE(2, 3)),
                 "indices must be sparse_dim x nnz, but got: [4]");
    CH04_FAILS_S(tc_sparse_coo_tensor(i1, v4, NULL),
                 "indices must be sparse_dim x nnz, but got: [4]");
    /* torch.sparse_coo_tensor(torch.zeros(2,2,2,dtype=torch.long), v, (2,3)) */
    CH04_FAILS_S(tc_sparse_coo_tensor(i3, v4, CH04_SIZE(2, 3)),
                 "indices must be sparse_dim x nnz, but got: [2, 2, 2]");
    /* torch.sparse_coo_tensor(i, torch.tensor([1.,2.,3.]), (2,3)) */
    CH04_FAILS_S(tc_sparse_coo_tensor(i24, v3, CH04_SIZE(2, 3)),
                 "indices and values must have same nnz, but got nnz from indices: 4, "
                 "nnz from values: 3");
    CH04_FAILS_S(tc_sparse_coo_tensor(i24, v3, NULL),
                 "indices and values must have same nnz, but got nnz from indices: 4, "
                 "nnz from values: 3");
    /* torch.sparse_coo_tensor(i, v, (2,3,4)) */
    CH04_FAILS_S(tc_sparse_coo_tensor(i24, v4, CH04_SIZE(2, 3, 4)),
                 "number of dimensions must be sparse_dim (2) + dense_dim (0), but got 3");
    /* torch.sparse_coo_tensor(torch.tensor([[0,1,2,3]]), torch.zeros(4,5), (4,4)) */
    CH04_FAILS_S(tc_sparse_coo_tensor(i14, v45, CH04_SIZE(4, 4)),
                 "values has incorrect size, expected [4, 4], got [4, 5]");
    /* torch.sparse_coo_tensor(torch.tensor([[-1,1],[0,0]]), [1.,2.], (2,3)) */
    CH04_FAILS_S(tc_sparse_coo_tensor(neg, v2, CH04_SIZE(2, 3)),
                 "found negative index -1 for dim 0");
    CH04_FAILS_S(tc_sparse_coo_tensor(neg, v2, NULL), "found negative index -1 for dim 0");
    /* torch.sparse_coo_tensor(torch.tensor([[0,1],[0,2]]), [1.,2.], (2,2)) */
    CH04_FAILS_S(tc_sparse_coo_tensor(big, v2, CH04_SIZE(2, 2)),
                 "size is inconsistent with indices: for dim 1, size is 2 but found index 2");
    /* torch.sparse_coo_tensor(torch.tensor([[0,1],[0,-3]]), [1.,2.]) */
    CH04_FAILS_S(tc_sparse_coo_tensor(neg3, v2, NULL), "found negative index -3 for dim 1");
    /* the smallest index is named: torch.sparse_coo_tensor([[-1,-3],[0,0]], [1.,2.], (2,3)) */
    CH04_FAILS_S(tc_sparse_coo_tensor(twoneg, v2, CH04_SIZE(2, 3)),
                 "found negative index -3 for dim 0");
    /* the largest: torch.sparse_coo_tensor([[0,1],[3,5]], [1.,2.], (2,3)) */
    CH04_FAILS_S(tc_sparse_coo_tensor(twobig, v2, CH04_SIZE(2, 3)),
                 "size is inconsistent with indices: for dim 1, size is 3 but found index 5");
}
END_TEST

START_TEST(test_construct_error_order_passes)
{
    /* Orders where the library and PyTorch agree. */
    tc_tensor *i3 = ch04_dense(TC_SHAPE(2, 2, 2), TC_INT64, CH04_I64(0, 0, 0, 0, 0, 0, 0, 0));
    tc_tensor *i14 = ch04_dense(TC_SHAPE(1, 4), TC_INT64, CH04_I64(0, 1, 2, 3));
    tc_tensor *i13 = ch04_dense(TC_SHAPE(1, 3), TC_INT64, CH04_I64(0, 1, 2));
    tc_tensor *v4 = ch04_dense(TC_SHAPE(4), TC_FLOAT32, CH04_F32(3, 4, 5, 6));
    tc_tensor *v45 = K(tc_zeros(TC_SHAPE(4, 5), TC_FLOAT32));
    tc_tensor *v25 = K(tc_zeros(TC_SHAPE(2, 5), TC_FLOAT32));
    tc_tensor *v2 = ch04_dense(TC_SHAPE(2), TC_FLOAT32, CH04_F32(1, 2));
    tc_tensor *a = ch04_dense(TC_SHAPE(2, 2), TC_INT64, CH04_I64(0, 5, -1, 0));
    tc_tensor *b = ch04_dense(TC_SHAPE(2, 2), TC_INT64, CH04_I64(0, 5, 0, -1));
    tc_tensor *c = ch04_dense(TC_SHAPE(1, 2), TC_INT64, CH04_I64(-1, 5));

    /* indices shape before nnz: torch.sparse_coo_tensor(torch.zeros(2,2,2,dtype=torch.long),
       torch.tensor([3.,4.,5.,6.]), (2,3)) */
    CH04_FAILS_S(tc_sparse_coo_tensor(i3, v4, CH04_SIZE(2, 3)),
                 "indices must be sparse_dim x nnz, but got: [2, 2, 2]");
    /* dimensions before values size: torch.sparse_coo_tensor([[0,1,2,3]], torch.zeros(4,5),
       (4,4,4)) */
    CH04_FAILS_S(tc_sparse_coo_tensor(i14, v45, CH04_SIZE(4, 4, 4)),
                 "number of dimensions must be sparse_dim (1) + dense_dim (1), but got 3");
    /* nnz before values size: torch.sparse_coo_tensor([[0,1,2]], torch.zeros(2,5), (4,4)) */
    CH04_FAILS_S(tc_sparse_coo_tensor(i13, v25, CH04_SIZE(4, 4)),
                 "indices and values must have same nnz, but got nnz from indices: 3, "
                 "nnz from values: 2");
    /* dimension by dimension: torch.sparse_coo_tensor([[0,5],[-1,0]], [1.,2.], (2,3)) and
       torch.sparse_coo_tensor([[0,5],[0,-1]], [1.,2.], (2,3)) */
    CH04_FAILS_S(tc_sparse_coo_tensor(a, v2, CH04_SIZE(2, 3)),
                 "size is inconsistent with indices: for dim 0, size is 2 but found index 5");
    CH04_FAILS_S(tc_sparse_coo_tensor(b, v2, CH04_SIZE(2, 3)),
                 "size is inconsistent with indices: for dim 0, size is 2 but found index 5");
    /* negative before too large in one dimension:
       torch.sparse_coo_tensor([[-1,5]], [1.,2.], (3,)) */
    CH04_FAILS_S(tc_sparse_coo_tensor(c, v2, CH04_SIZE(3)), "found negative index -1 for dim 0");
}
END_TEST

START_TEST(test_construct_order_dims_before_nnz)
{
    tc_tensor *i = ch04_dense(TC_SHAPE(2, 4), TC_INT64, CH04_I64(0, 1, 1, 0, 2, 0, 2, 2));
    tc_tensor *i13 = ch04_dense(TC_SHAPE(1, 3), TC_INT64, CH04_I64(0, 1, 2));
    tc_tensor *v3 = ch04_dense(TC_SHAPE(3), TC_FLOAT32, CH04_F32(1, 2, 3));
    tc_tensor *v2 = ch04_dense(TC_SHAPE(2), TC_FLOAT32, CH04_F32(1, 2));

    /* torch.sparse_coo_tensor(i, torch.tensor([1.,2.,3.]), (2,3,4)) */
    CH04_FAILS_S(tc_sparse_coo_tensor(i, v3, CH04_SIZE(2, 3, 4)),
                 "number of dimensions must be sparse_dim (2) + dense_dim (0), but got 3");
    /* torch.sparse_coo_tensor([[0,1,2]], torch.zeros(2), (4,4)) */
    CH04_FAILS_S(tc_sparse_coo_tensor(i13, v2, CH04_SIZE(4, 4)),
                 "number of dimensions must be sparse_dim (1) + dense_dim (0), but got 2");
}
END_TEST

START_TEST(test_construct_order_indices_before_nnz)
{
    tc_tensor *big = ch04_dense(TC_SHAPE(1, 3), TC_INT64, CH04_I64(0, 5, 1));
    tc_tensor *neg = ch04_dense(TC_SHAPE(1, 3), TC_INT64, CH04_I64(0, -1, 1));
    tc_tensor *v2 = ch04_dense(TC_SHAPE(2), TC_FLOAT32, CH04_F32(1, 2));

    /* torch.sparse_coo_tensor([[0,5,1]], [1.,2.], (3,)) */
    CH04_FAILS_S(tc_sparse_coo_tensor(big, v2, CH04_SIZE(3)),
                 "size is inconsistent with indices: for dim 0, size is 3 but found index 5");
    /* torch.sparse_coo_tensor([[0,-1,1]], [1.,2.], (3,)) */
    CH04_FAILS_S(tc_sparse_coo_tensor(neg, v2, CH04_SIZE(3)), "found negative index -1 for dim 0");
    /* torch.sparse_coo_tensor([[0,-1,1]], [1.,2.]) */
    CH04_FAILS_S(tc_sparse_coo_tensor(neg, v2, NULL), "found negative index -1 for dim 0");
}
END_TEST

START_TEST(test_construct_order_indices_before_values_size)
{
    tc_tensor *big = ch04_dense(TC_SHAPE(1, 4), TC_INT64, CH04_I64(0, 1, 2, 9));
    tc_tensor *neg = ch04_dense(TC_SHAPE(1, 4), TC_INT64, CH04_I64(0, 1, 2, -2));
    tc_tensor *v45 = K(tc_zeros(TC_SHAPE(4, 5), TC_FLOAT32));

    /* torch.sparse_coo_tensor([[0,1,2,9]], torch.zeros(4,5), (4,4)) */
    CH04_FAILS_S(tc_sparse_coo_tensor(big, v45, CH04_SIZE(4, 4)),
                 "size is inconsistent with indices: for dim 0, size is 4 but found index 9");
    /* torch.sparse_coo_tensor([[0,1,2,-2]], torch.zeros(4,5), (4,4)) */
    CH04_FAILS_S(tc_sparse_coo_tensor(neg, v45, CH04_SIZE(4, 4)),
                 "found negative index -2 for dim 0");
}
END_TEST

START_TEST(test_construct_null_propagation)
{
    tc_tensor *v = ch04_dense(TC_SHAPE(2), TC_FLOAT32, CH04_F32(1, 2));
    tc_tensor *dense = K(tc_ones(TC_SHAPE(3, 2), TC_FLOAT32));
    tc_sparse *s = ch04_demo();
    /* A failed constructor, then every operation on its NULL. */
    tc_tensor *bad = K(tc_empty(TC_SHAPE(-1, 2), TC_INT64));
    tc_sparse *n = ch04_s(tc_sparse_coo_tensor(bad, v, NULL));

    ck_assert_ptr_null(bad);
    ck_assert_ptr_null(n);
    ck_assert_ptr_null(ch04_s(tc_sparse_coo_tensor(v, NULL, NULL)));
    ck_assert_ptr_null(ch04_s(tc_sparse_coalesce(n)));
    ck_assert_ptr_null(K(tc_sparse_raw_indices(n)));
    ck_assert_ptr_null(K(tc_sparse_raw_values(n)));
    ck_assert_ptr_null(K(tc_sparse_indices(n)));
    ck_assert_ptr_null(K(tc_sparse_values(n)));
    ck_assert_ptr_null(K(tc_sparse_to_dense(n)));
    ck_assert_ptr_null(ch04_s(tc_to_sparse(NULL, -1)));
    ck_assert_ptr_null(ch04_s(tc_sparse_add(n, s)));
    ck_assert_ptr_null(ch04_s(tc_sparse_add(s, n)));
    ck_assert_ptr_null(ch04_s(tc_sparse_mul_scalar(n, 2)));
    ck_assert_ptr_null(ch04_s(tc_sparse_mul(s, NULL)));
    ck_assert_ptr_null(ch04_s(tc_sparse_mul_number(s, NULL)));
    ck_assert_ptr_null(K(tc_sparse_sum(n)));
    ck_assert_ptr_null(ch04_s(tc_sparse_sum_dims(n, TC_DIMS(0))));
    ck_assert_ptr_null(ch04_s(tc_sparse_transpose(n, 0, 1)));
    ck_assert_ptr_null(K(tc_sparse_mm(n, dense)));
    ck_assert_ptr_null(K(tc_sparse_mm(s, NULL)));
    ck_assert_ptr_null(tc_sparse_repr(n));
    ck_assert_int_eq(tc_sparse_print(stdout, n), -1);
    ck_assert_ptr_null(tc_sparse_retain(NULL));
    tc_sparse_release(NULL);
    /* the first failure's message survives: torch.empty(-1, 2) */
    ch04_error_is("Trying to create tensor with negative dimension -1: [-1, 2]");
    /* NULL with nothing pending says so (library message) */
    CH04_FAILS_S(tc_sparse_coalesce(NULL), "tc: NULL argument, but no earlier call failed");
    CH04_FAILS_T(tc_sparse_to_dense(NULL), "tc: NULL argument, but no earlier call failed");
}
END_TEST

START_TEST(test_construct_refcount)
{
    tc_sparse *s = ch04_demo();

    ck_assert_int_eq(s->refcount, 1);
    ck_assert_ptr_eq(ch04_s(tc_sparse_retain(s)), s);
    ck_assert_int_eq(s->refcount, 2);
}
END_TEST

/* --------------------------------------------------------------- accessors */

START_TEST(test_accessors_raw)
{
    tc_sparse *s = ch04_demo();
    tc_tensor *i = K(tc_sparse_raw_indices(s));
    tc_tensor *v = K(tc_sparse_raw_values(s));

    /* s._indices(), s._values(): the raw lists, duplicates and all */
    ch04_expect_dense(i, TC_INT64, 2, CH04_I64(2, 4), CH04_VALS(0, 1, 1, 0, 2, 0, 2, 2));
    ch04_expect_dense(v, TC_FLOAT32, 1, CH04_I64(4), CH04_VALS(3, 4, 5, 6));
    ck_assert_ptr_eq(i, s->indices);
    ck_assert_ptr_eq(v, s->values);
    /* s._values()[0] = 100.; s.to_dense() == [[0,0,106],[4,0,5]]: not a copy */
    ck_assert_int_eq(tc_set(v, CH04_I64(0), 100.0), 0);
    ch04_expect_dense(K(tc_sparse_to_dense(s)), TC_FLOAT32, 2, CH04_I64(2, 3),
                      CH04_VALS(0, 0, 106, 4, 0, 5));
}
END_TEST

START_TEST(test_accessors_refuse_uncoalesced)
{
    tc_sparse *s = ch04_demo();
    tc_sparse *c = ch04_s(tc_sparse_coalesce(s));

    /* s.indices(), s.values() */
    CH04_FAILS_T(tc_sparse_indices(s),
                 "Cannot get indices on an uncoalesced tensor, please call .coalesce() first");
    CH04_FAILS_T(tc_sparse_values(s),
                 "Cannot get values on an uncoalesced tensor, please call .coalesce() first");
    /* c.indices() == [[0,1,1],[2,0,2]], c.values() == [9.,4.,5.] */
    ch04_expect_dense(K(tc_sparse_indices(c)), TC_INT64, 2, CH04_I64(2, 3),
                      CH04_VALS(0, 1, 1, 2, 0, 2));
    ch04_expect_dense(K(tc_sparse_values(c)), TC_FLOAT32, 1, CH04_I64(3),
                      CH04_VALS(9, 4, 5));
    ck_assert_ptr_null(tc_error());
}
END_TEST

START_TEST(test_accessors_dims_and_nnz)
{
    tc_sparse *s = ch04_demo();
    /* h = torch.sparse_coo_tensor([[1,0],[0,2]], [[1.,2.],[3.,4.]], (2,3,2)) */
    tc_sparse *h = ch04_coo(2, 2, CH04_I64(1, 0, 0, 2), TC_SHAPE(2, 2), TC_FLOAT32,
                            CH04_F32(1, 2, 3, 4), CH04_SIZE(2, 3, 2));

    /* s.sparse_dim(), s.dense_dim(), s._nnz() == 2, 0, 4 */
    ck_assert_int_eq(s->sparse_dim, 2);
    ck_assert_int_eq(s->dense_dim, 0);
    ck_assert_int_eq(tc_sparse_nnz(s), 4);
    /* h.sparse_dim(), h.dense_dim(), h._nnz() == 2, 1, 2 */
    ck_assert_int_eq(h->sparse_dim, 2);
    ck_assert_int_eq(h->dense_dim, 1);
    ck_assert_int_eq(tc_sparse_nnz(h), 2);
    /* e._nnz() == 0 */
    ck_assert_int_eq(tc_sparse_nnz(ch04_empty(TC_FLOAT32)), 0);
}
END_TEST

/* ---------------------------------------------------------------- coalesce */

START_TEST(test_coalesce_sums_duplicates)
{
    tc_sparse *s = ch04_demo();
    tc_sparse *c = ch04_s(tc_sparse_coalesce(s));

    /* s.coalesce(): indices [[0,1,1],[2,0,2]], values [9.,4.,5.], coalesced */
    ch04_expect_shape(c, 2, CH04_I64(2, 3), 2);
    ch04_expect_lists(c, 3, CH04_I64(0, 1, 1, 2, 0, 2), TC_FLOAT32, CH04_VALS(9, 4, 5), true);
    ck_assert_ptr_ne(c, s);
    /* the input is unchanged */
    ch04_expect_lists(s, 4, CH04_I64(0, 1, 1, 0, 2, 0, 2, 2), TC_FLOAT32,
                      CH04_VALS(3, 4, 5, 6), false);
}
END_TEST

START_TEST(test_coalesce_sums_in_order)
{
    /* torch.sparse_coo_tensor([[0,0,0]], vals, (1,)).coalesce()._values() */
    tc_sparse *a = ch04_coo(1, 3, CH04_I64(0, 0, 0), TC_SHAPE(3), TC_FLOAT32,
                            CH04_F32(1e8f, -1e8f, 1.0f), CH04_SIZE(1));
    tc_sparse *b = ch04_coo(1, 3, CH04_I64(0, 0, 0), TC_SHAPE(3), TC_FLOAT32,
                            CH04_F32(1.0f, 1e8f, -1e8f), CH04_SIZE(1));
    tc_sparse *c = ch04_coo(1, 3, CH04_I64(0, 0, 0), TC_SHAPE(3), TC_FLOAT32,
                            CH04_F32(-1e8f, 1.0f, 1e8f), CH04_SIZE(1));
    /* torch.sparse_coo_tensor([[1,0,1,2,1]], torch.tensor([.1,5.,.2,6.,.3],
       dtype=torch.float64), (3,)).coalesce()._values().tolist() */
    tc_sparse *d = ch04_coo(1, 5, CH04_I64(1, 0, 1, 2, 1), TC_SHAPE(5), TC_FLOAT64,
                            CH04_F64(.1, 5., .2, 6., .3), CH04_SIZE(3));
    tc_sparse *e = ch04_coo(1, 5, CH04_I64(1, 0, 1, 2, 1), TC_SHAPE(5), TC_FLOAT64,
                            CH04_F64(.3, 5., .2, 6., .1), CH04_SIZE(3));

    /* [1e8, -1e8, 1.] -> [1.0]; [1., 1e8, -1e8] -> [0.0]; [-1e8, 1., 1e8] -> [0.0] */
    ch04_expect_lists(ch04_s(tc_sparse_coalesce(a)), 1, CH04_I64(0), TC_FLOAT32,
                      CH04_VALS(1.0), true);
    ch04_expect_lists(ch04_s(tc_sparse_coalesce(b)), 1, CH04_I64(0), TC_FLOAT32,
                      CH04_VALS(0.0), true);
    ch04_expect_lists(ch04_s(tc_sparse_coalesce(c)), 1, CH04_I64(0), TC_FLOAT32,
                      CH04_VALS(0.0), true);
    /* [5.0, 0.6000000000000001, 6.0] and [5.0, 0.6, 6.0] */
    ch04_expect_lists(ch04_s(tc_sparse_coalesce(d)), 3, CH04_I64(0, 1, 2), TC_FLOAT64,
                      CH04_VALS(5.0, 0.6000000000000001, 6.0), true);
    ch04_expect_lists(ch04_s(tc_sparse_coalesce(e)), 3, CH04_I64(0, 1, 2), TC_FLOAT64,
                      CH04_VALS(5.0, 0.6, 6.0), true);
}
END_TEST

START_TEST(test_coalesce_unsorted)
{
    /* torch.sparse_coo_tensor([[1,0,1],[2,1,0]], [1.,2.,3.], (2,3)): is_coalesced False;
       .coalesce(): [[0,1,1],[1,0,2]], [2.,3.,1.] */
    tc_sparse *u = ch04_coo(2, 3, CH04_I64(1, 0, 1, 2, 1, 0), TC_SHAPE(3), TC_FLOAT32,
                            CH04_F32(1, 2, 3), CH04_SIZE(2, 3));

    ck_assert(!u->coalesced);
    ch04_expect_lists(ch04_s(tc_sparse_coalesce(u)), 3, CH04_I64(0, 1, 1, 1, 0, 2), TC_FLOAT32,
                      CH04_VALS(2, 3, 1), true);
}
END_TEST

START_TEST(test_coalesce_keeps_minus_zero)
{
    /* torch.sparse_coo_tensor([[1,0,1,2]], [-0.,2.,-0.,-0.], (3,)).coalesce():
       values [2., -0., -0.] (signbit False, True, True): a run's first value is
       copied, the others added, and -0 + -0 is -0; with [-0.,2.,0.,-0.] in float64
       the run of index 1 is -0 + 0 = 0 */
    tc_sparse *u = ch04_coo(1, 4, CH04_I64(1, 0, 1, 2), TC_SHAPE(4), TC_FLOAT32,
                            CH04_F32(-0.0f, 2, -0.0f, -0.0f), CH04_SIZE(3));
    tc_sparse *v = ch04_coo(1, 4, CH04_I64(1, 0, 1, 2), TC_SHAPE(4), TC_FLOAT64,
                            CH04_F64(-0.0, 2, 0.0, -0.0), CH04_SIZE(3));
    tc_sparse *cu = ch04_s(tc_sparse_coalesce(u)), *cv = ch04_s(tc_sparse_coalesce(v));

    ck_assert(!signbit(tc_load(cu->values, 0)) && tc_load(cu->values, 0) == 2);
    ck_assert(signbit(tc_load(cu->values, 1)) && signbit(tc_load(cu->values, 2)));
    ck_assert(!signbit(tc_load(cv->values, 1)) && signbit(tc_load(cv->values, 2)));
}
END_TEST

START_TEST(test_coalesce_same_object)
{
    tc_sparse *s = ch04_demo();
    tc_sparse *c = ch04_s(tc_sparse_coalesce(s));
    tc_sparse *e = ch04_empty(TC_FLOAT32);

    /* c.coalesce() is c */
    ck_assert_ptr_eq(ch04_s(tc_sparse_coalesce(c)), c);
    ck_assert_int_eq(c->refcount, 2);
    /* e.coalesce() is e; e.coalesce()._indices().shape == (2, 0) */
    ck_assert_ptr_eq(ch04_s(tc_sparse_coalesce(e)), e);
    ch04_expect_tensor_sizes(e->indices, 2, CH04_I64(2, 0));
    ch04_expect_tensor_sizes(e->values, 1, CH04_I64(0));
}
END_TEST

START_TEST(test_coalesce_empty_uncoalesced)
{
    /* e.transpose(0,1) (float64 values) is coalesced: nnz 0;
       e.transpose(0,1).coalesce(): indices [[],[]], size (3, 2), is_coalesced True */
    tc_sparse *e = ch04_empty(TC_FLOAT64);
    tc_sparse *et = ch04_s(tc_sparse_transpose(e, 0, 1));
    tc_sparse *c = ch04_s(tc_sparse_coalesce(et));

    ch04_expect_shape(c, 2, CH04_I64(3, 2), 2);
    ch04_expect_lists(c, 0, CH04_I64(0), TC_FLOAT64, CH04_VALS(0), true);
}
END_TEST

START_TEST(test_coalesce_no_sparse_dims)
{
    /* z = torch.sparse_coo_tensor(torch.zeros(0,3,dtype=torch.long),
       [[1.,2.],[3.,4.],[5.,6.]], (2,)); z.coalesce(): indices size (0, 1),
       values [[9.,12.]], nnz 1; z.to_dense() == [9., 12.] */
    tc_sparse *z = ch04_coo(0, 3, CH04_I64(0), TC_SHAPE(3, 2), TC_FLOAT32,
                            CH04_F32(1, 2, 3, 4, 5, 6), CH04_SIZE(2));
    tc_sparse *c = ch04_s(tc_sparse_coalesce(z));

    ch04_expect_shape(z, 1, CH04_I64(2), 0);
    ck_assert(!z->coalesced);
    ch04_expect_dense(K(tc_sparse_to_dense(z)), TC_FLOAT32, 1, CH04_I64(2), CH04_VALS(9, 12));
    ch04_expect_shape(c, 1, CH04_I64(2), 0);
    ch04_expect_tensor_sizes(c->indices, 2, CH04_I64(0, 1));
    ch04_expect_lists(c, 1, CH04_I64(0), TC_FLOAT32, CH04_VALS(9, 12), true);
}
END_TEST

START_TEST(test_coalesce_hybrid)
{
    /* h = torch.sparse_coo_tensor([[1,0,1]], [[1.,2.],[3.,4.],[5.,6.]], (2,2));
       h.coalesce(): [[0,1]], [[3.,4.],[6.,8.]], True */
    tc_sparse *h = ch04_coo(1, 3, CH04_I64(1, 0, 1), TC_SHAPE(3, 2), TC_FLOAT32,
                            CH04_F32(1, 2, 3, 4, 5, 6), CH04_SIZE(2, 2));
    tc_sparse *c = ch04_s(tc_sparse_coalesce(h));

    ch04_expect_shape(c, 2, CH04_I64(2, 2), 1);
    ch04_expect_lists(c, 2, CH04_I64(0, 1), TC_FLOAT32, CH04_VALS(3, 4, 6, 8), true);
}
END_TEST

START_TEST(test_coalesce_dims_and_dtypes)
{
    /* torch.sparse_coo_tensor([[2,0,2,1,0]], torch.tensor([1,2,3,4,5]), (3,)).coalesce():
       [[0,1,2]], [7,4,4] int64 */
    tc_sparse *i = ch04_coo(1, 5, CH04_I64(2, 0, 2, 1, 0), TC_SHAPE(5), TC_INT64,
                            CH04_I64(1, 2, 3, 4, 5), CH04_SIZE(3));
    /* the same with torch.tensor([.1,.2,.3,.4,.5], dtype=torch.float64): [0.7, 0.4, 0.4] */
    tc_sparse *d = ch04_coo(1, 5, CH04_I64(2, 0, 2, 1, 0), TC_SHAPE(5), TC_FLOAT64,
                            CH04_F64(.1, .2, .3, .4, .5), CH04_SIZE(3));
    /* torch.sparse_coo_tensor([[1,0,1,0,1],[0,1,0,1,1],[2,0,2,0,0]], [1.,2.,3.,4.,5.],
       (2,2,3)).coalesce(): [[0,1,1],[1,0,1],[0,2,0]], [6.,4.,5.] */
    tc_sparse *t = ch04_coo(3, 5, CH04_I64(1, 0, 1, 0, 1, 0, 1, 0, 1, 1, 2, 0, 2, 0, 0),
                            TC_SHAPE(5), TC_FLOAT32, CH04_F32(1, 2, 3, 4, 5), CH04_SIZE(2, 2, 3));
    /* torch.sparse_coo_tensor([[0,1,0]], torch.tensor([True,False,True]), (2,)).coalesce():
       [[0,1]], [True, False] */
    tc_sparse *b = ch04_coo(1, 3, CH04_I64(0, 1, 0), TC_SHAPE(3), TC_BOOL,
                            CH04_BOOL(true, false, true), CH04_SIZE(2));

    ch04_expect_lists(ch04_s(tc_sparse_coalesce(i)), 3, CH04_I64(0, 1, 2), TC_INT64,
                      CH04_VALS(7, 4, 4), true);
    ch04_expect_lists(ch04_s(tc_sparse_coalesce(d)), 3, CH04_I64(0, 1, 2), TC_FLOAT64,
                      CH04_VALS(0.7, 0.4, 0.4), true);
    ch04_expect_lists(ch04_s(tc_sparse_coalesce(t)), 3, CH04_I64(0, 1, 1, 1, 0, 1, 0, 2, 0),
                      TC_FLOAT32, CH04_VALS(6, 4, 5), true);
    ch04_expect_lists(ch04_s(tc_sparse_coalesce(b)), 2, CH04_I64(0, 1), TC_BOOL,
                      CH04_VALS(1, 0), true);
}
END_TEST

START_TEST(test_coalesce_int64_exact)
{
    /* torch.sparse_coo_tensor([[1,0,1]], torch.tensor([2**62, 5, 2**62+1]), (2,)).coalesce()
       ._values().tolist() == [5, -9223372036854775807]: two's-complement wraparound */
    const int64_t big = (int64_t)1 << 62;
    tc_sparse *s = ch04_coo(1, 3, CH04_I64(1, 0, 1), TC_SHAPE(3), TC_INT64,
                            CH04_I64(big, 5, big + 1), CH04_SIZE(2));
    tc_sparse *c = ch04_s(tc_sparse_coalesce(s));

    ck_assert_ptr_nonnull(c);
    ck_assert_int_eq(tc_sparse_nnz(c), 2);
    ck_assert_int_eq(ch04_int_at(c->values, 0), 5);
    ck_assert_int_eq(ch04_int_at(c->values, 1), INT64_MIN + 1);
}
END_TEST

START_TEST(test_coalesce_keeps_explicit_zeros)
{
    /* torch.sparse_coo_tensor([[0,0,1]], [1.,-1.,0.], (2,)).coalesce():
       [[0,1]], [0.,0.], nnz 2 */
    tc_sparse *z = ch04_coo(1, 3, CH04_I64(0, 0, 1), TC_SHAPE(3), TC_FLOAT32,
                            CH04_F32(1, -1, 0), CH04_SIZE(2));

    ch04_expect_lists(ch04_s(tc_sparse_coalesce(z)), 2, CH04_I64(0, 1), TC_FLOAT32,
                      CH04_VALS(0, 0), true);
}
END_TEST

START_TEST(test_coalesce_lexicographic)
{
    /* torch.sparse_coo_tensor([[1,0,1,0],[0,3,0,3],[2,1,1,0]], [1.,2.,3.,4.],
       (2,4,3)).coalesce(): [[0,0,1,1],[3,3,0,0],[0,1,1,2]], [4.,2.,3.,1.] */
    tc_sparse *x = ch04_coo(3, 4, CH04_I64(1, 0, 1, 0, 0, 3, 0, 3, 2, 1, 1, 0), TC_SHAPE(4),
                            TC_FLOAT32, CH04_F32(1, 2, 3, 4), CH04_SIZE(2, 4, 3));

    ch04_expect_lists(ch04_s(tc_sparse_coalesce(x)), 4,
                      CH04_I64(0, 0, 1, 1, 3, 3, 0, 0, 0, 1, 1, 2), TC_FLOAT32,
                      CH04_VALS(4, 2, 3, 1), true);
}
END_TEST

/* A small deterministic PRNG (splitmix64), independent of the library. */
static uint64_t ch04_rng;

static uint64_t ch04_next(void)
{
    uint64_t z = (ch04_rng += 0x9E3779B97F4A7C15u);

    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    return z ^ (z >> 31);
}

static int64_t ch04_below(int64_t n)
{
    return (int64_t)(ch04_next() % (uint64_t)n);
}

/* An entry of the reference: its linear key and its place in the input. */
typedef struct {
    uint64_t key;
    int64_t position;
} ch04_entry;

static int ch04_entry_cmp(const void *x, const void *y)
{
    const ch04_entry *a = x, *b = y;

    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    return (a->position > b->position) - (a->position < b->position);
}

/* One random trial: a COO tensor of random sparse/dense shape, dtype and
   entries; its coalesce must equal the reference map key -> summed values (in
   input order), and its to_dense the reference's dense form. Returns a
   description of the first difference, or NULL. Everything is released
   before returning. */
static const char *ch04_random_trial(int trial, char *why, size_t n_why)
{
    enum { MAX_NNZ = 50 };
    static const tc_dtype dtypes[3] = { TC_FLOAT32, TC_FLOAT64, TC_INT64 };
    static const double pool[8] = { 1.0, -1.0, 0.5, 3.25, 1e8, -1e8, 0.1, 0.0 };
    int64_t sparse_dim = 1 + ch04_below(3), dense_dim = ch04_below(3) == 0 ? 1 : 0;
    int64_t sizes[4], positions = 1, slice = 1, nnz = ch04_below(MAX_NNZ + 1);
    tc_dtype dtype = dtypes[trial % 3];
    int64_t idx[3 * MAX_NNZ], strides[3];
    double raw[MAX_NNZ * 3];
    float f32[MAX_NNZ * 3];
    ch04_entry entries[MAX_NNZ];
    double ref_values[MAX_NNZ * 3], *dense_ref;
    int64_t ref_idx[3 * MAX_NNZ], unique = 0;
    tc_tensor *i = NULL, *v = NULL, *dense = NULL;
    tc_sparse *s = NULL, *c = NULL;
    const char *result = NULL;

    for (int64_t d = 0; d < sparse_dim; d++)
        positions *= sizes[d] = 1 + ch04_below(4);
    if (dense_dim)
        slice = sizes[sparse_dim] = 1 + ch04_below(3);
    for (int64_t d = sparse_dim - 1, stride = 1; d >= 0; d--) {
        strides[d] = stride;
        stride *= sizes[d];
    }
    /* coordinates: uniform, or (half the time) a copy of an earlier entry's */
    for (int64_t k = 0; k < nnz; k++) {
        int64_t from = k > 0 && ch04_below(2) ? ch04_below(k) : -1;
        entries[k].key = 0;
        entries[k].position = k;
        for (int64_t d = 0; d < sparse_dim; d++) {
            idx[d * nnz + k] = from >= 0 ? idx[d * nnz + from] : ch04_below(sizes[d]);
            entries[k].key += (uint64_t)(idx[d * nnz + k] * strides[d]);
        }
    }
    for (int64_t k = 0; k < nnz * slice; k++) {
        raw[k] = dtype == TC_INT64 ? (double)(ch04_below(2001) - 1000) : pool[ch04_below(8)];
        f32[k] = (float)raw[k];
    }
    /* the reference: sort (key, position) pairs, sum each run in input order */
    qsort(entries, (size_t)nnz, sizeof entries[0], ch04_entry_cmp);
    for (int64_t k = 0; k < nnz; k++) {
        bool first = k == 0 || entries[k].key != entries[k - 1].key;
        if (first) {
            uint64_t key = entries[k].key;
            for (int64_t d = 0; d < sparse_dim; d++) {
                ref_idx[d * MAX_NNZ + unique] = (int64_t)(key / (uint64_t)strides[d]);
                key %= (uint64_t)strides[d];
            }
            for (int64_t e = 0; e < slice; e++)
                ref_values[unique * slice + e] = 0.0;
            unique++;
        }
        for (int64_t e = 0; e < slice; e++) {
            double *acc = &ref_values[(unique - 1) * slice + e];
            double x = raw[entries[k].position * slice + e];
            if (dtype == TC_FLOAT32)
                *acc = (double)((float)*acc + (float)x);
            else
                *acc += x;   /* int64 values are small: exact in a double */
        }
    }
    dense_ref = calloc((size_t)(positions * slice), sizeof *dense_ref);
    ck_assert_ptr_nonnull(dense_ref);
    for (int64_t u = 0; u < unique; u++) {
        int64_t key = 0;
        for (int64_t d = 0; d < sparse_dim; d++)
            key += ref_idx[d * MAX_NNZ + u] * strides[d];
        for (int64_t e = 0; e < slice; e++)
            dense_ref[key * slice + e] = ref_values[u * slice + e];
    }

    /* the library */
    i = tc_from_data(TC_SHAPE(sparse_dim, nnz), TC_INT64, idx);
    if (dtype == TC_INT64) {
        int64_t ints[MAX_NNZ * 3];
        for (int64_t k = 0; k < nnz * slice; k++)
            ints[k] = (int64_t)raw[k];
        v = dense_dim ? tc_from_data(TC_SHAPE(nnz, slice), dtype, ints)
                      : tc_from_data(TC_SHAPE(nnz), dtype, ints);
    } else {
        const void *data = dtype == TC_FLOAT32 ? (const void *)f32 : (const void *)raw;
        v = dense_dim ? tc_from_data(TC_SHAPE(nnz, slice), dtype, data)
                      : tc_from_data(TC_SHAPE(nnz), dtype, data);
    }
    {
        tc_shape size = { .dim = sparse_dim + dense_dim };
        memcpy(size.sizes, sizes, (size_t)size.dim * sizeof sizes[0]);
        s = tc_sparse_coo_tensor(i, v, &size);
    }
    c = tc_sparse_coalesce(s);
    dense = tc_sparse_to_dense(s);

    if (c == NULL || dense == NULL) {
        snprintf(why, n_why, "trial %d: failed: %s", trial, tc_error() ? tc_error() : "?");
        result = why;
    } else if (!c->coalesced || tc_sparse_nnz(c) != unique) {
        snprintf(why, n_why, "trial %d: nnz %lld (coalesced %d), expected %lld", trial,
                 (long long)tc_sparse_nnz(c), (int)c->coalesced, (long long)unique);
        result = why;
    }
    for (int64_t u = 0; result == NULL && u < unique; u++) {
        for (int64_t d = 0; d < sparse_dim && result == NULL; d++)
            if (ch04_int_at(c->indices, d * unique + u) != ref_idx[d * MAX_NNZ + u]) {
                snprintf(why, n_why, "trial %d: index [%lld, %lld] differs", trial,
                         (long long)d, (long long)u);
                result = why;
            }
        for (int64_t e = 0; e < slice && result == NULL; e++)
            if (ch04_at(c->values, u * slice + e) != ref_values[u * slice + e]) {
                snprintf(why, n_why, "trial %d: value %lld is %.17g, expected %.17g", trial,
                         (long long)(u * slice + e), ch04_at(c->values, u * slice + e),
                         ref_values[u * slice + e]);
                result = why;
            }
    }
    for (int64_t k = 0; result == NULL && k < positions * slice; k++)
        if (ch04_at(dense, k) != dense_ref[k]) {
            snprintf(why, n_why, "trial %d: to_dense element %lld is %.17g, expected %.17g",
                     trial, (long long)k, ch04_at(dense, k), dense_ref[k]);
            result = why;
        }
    free(dense_ref);
    tc_release(dense);
    tc_sparse_release(c);
    tc_sparse_release(s);
    tc_release(v);
    tc_release(i);
    return result;
}

START_TEST(test_coalesce_property_random)
{
    char why[256];

    ch04_rng = 20240601u;
    for (int trial = 0; trial < 400; trial++) {
        const char *failure = ch04_random_trial(trial, why, sizeof why);
        ck_assert_msg(failure == NULL, "%s", failure);
    }
}
END_TEST

/* n random entries of an (rows, cols) int64 tensor, a third of them repeating
   an earlier entry's coordinates: coalesce against a qsort-based reference.
   Returns a description of the first difference, or NULL. */
static const char *ch04_large_trial(int64_t rows, int64_t cols, int64_t n, uint64_t seed,
                                    char *why, size_t n_why)
{
    int64_t *idx = malloc((size_t)(2 * n) * sizeof *idx);
    int64_t *vals = malloc((size_t)n * sizeof *vals);
    ch04_entry *entries = malloc((size_t)n * sizeof *entries);
    tc_tensor *i, *v;
    tc_sparse *s, *c;
    const char *result = NULL;
    int64_t unique = 0, u = -1, sum = 0;

    ck_assert(idx != NULL && vals != NULL && entries != NULL);
    ch04_rng = seed;
    for (int64_t k = 0; k < n; k++) {
        int64_t from = k > 0 && ch04_below(3) == 0 ? ch04_below(k) : -1;
        idx[k] = from >= 0 ? idx[from] : ch04_below(rows);
        idx[n + k] = from >= 0 ? idx[n + from] : ch04_below(cols);
        vals[k] = ch04_below(1000) - 500;
        entries[k].key = (uint64_t)idx[k] * (uint64_t)cols + (uint64_t)idx[n + k];
        entries[k].position = k;
    }
    qsort(entries, (size_t)n, sizeof entries[0], ch04_entry_cmp);
    for (int64_t k = 0; k < n; k++)
        unique += k == 0 || entries[k].key != entries[k - 1].key;

    i = tc_from_data(TC_SHAPE(2, n), TC_INT64, idx);
    v = tc_from_data(TC_SHAPE(n), TC_INT64, vals);
    s = tc_sparse_coo_tensor(i, v, CH04_SIZE(rows, cols));
    c = tc_sparse_coalesce(s);
    if (c == NULL) {
        snprintf(why, n_why, "coalesce failed: %s", tc_error() ? tc_error() : "?");
        result = why;
    } else if (tc_sparse_nnz(c) != unique || !c->coalesced) {
        snprintf(why, n_why, "nnz %lld, expected %lld", (long long)tc_sparse_nnz(c),
                 (long long)unique);
        result = why;
    } else {
        const int64_t *ci = tc_data_ptr(c->indices), *cv = tc_data_ptr(c->values);
        for (int64_t k = 0; k <= n && result == NULL; k++) {
            if (k == n || (k > 0 && entries[k].key != entries[k - 1].key)) {
                uint64_t key = entries[k - 1].key;
                if (ci[u] != (int64_t)(key / (uint64_t)cols) ||
                    ci[unique + u] != (int64_t)(key % (uint64_t)cols) || cv[u] != sum) {
                    snprintf(why, n_why, "entry %lld: (%lld, %lld) = %lld, expected "
                             "(%lld, %lld) = %lld", (long long)u, (long long)ci[u],
                             (long long)ci[unique + u], (long long)cv[u],
                             (long long)(key / (uint64_t)cols),
                             (long long)(key % (uint64_t)cols), (long long)sum);
                    result = why;
                }
            }
            if (k < n) {
                if (k == 0 || entries[k].key != entries[k - 1].key) {
                    u++;
                    sum = 0;
                }
                sum += vals[entries[k].position];
            }
        }
    }
    tc_sparse_release(c);
    tc_sparse_release(s);
    tc_release(v);
    tc_release(i);
    free(entries);
    free(vals);
    free(idx);
    return result;
}

START_TEST(test_coalesce_large_three_passes)
{
    char why[256];
    /* (5000, 5000): keys up to 25e6 > 2^22, three 11-bit radix passes */
    const char *failure = ch04_large_trial(5000, 5000, 100000, 7u, why, sizeof why);

    ck_assert_msg(failure == NULL, "%s", failure);
}
END_TEST

START_TEST(test_coalesce_large_other_pass_counts)
{
    char why[256];
    const char *failure;

    /* (100, 100): 14-bit keys, two passes (the data ends in the caller's arrays) */
    failure = ch04_large_trial(100, 100, 10000, 11u, why, sizeof why);
    ck_assert_msg(failure == NULL, "two passes: %s", failure);
    /* (2^20, 2^20): 40-bit keys, four passes */
    failure = ch04_large_trial((int64_t)1 << 20, (int64_t)1 << 20, 3000, 13u, why, sizeof why);
    ck_assert_msg(failure == NULL, "four passes: %s", failure);
    /* (1, 1): every key is 0, no pass at all */
    failure = ch04_large_trial(1, 1, 100, 17u, why, sizeof why);
    ck_assert_msg(failure == NULL, "no pass: %s", failure);
    /* (40, 50): 11-bit keys, one pass */
    failure = ch04_large_trial(40, 50, 5000, 19u, why, sizeof why);
    ck_assert_msg(failure == NULL, "one pass: %s", failure);
}
END_TEST

/* ------------------------------------------------------- to_dense, to_sparse */

START_TEST(test_to_dense)
{
    /* s.to_dense() == [[0.,0.,9.],[4.,0.,5.]] (duplicates summed) */
    ch04_expect_dense(K(tc_sparse_to_dense(ch04_demo())), TC_FLOAT32, 2, CH04_I64(2, 3),
                      CH04_VALS(0, 0, 9, 4, 0, 5));
    /* torch.sparse_coo_tensor([[1,0,1]], [[1.,2.],[3.,4.],[5.,6.]], (3,2)).to_dense()
       == [[3.,4.],[6.,8.],[0.,0.]] */
    ch04_expect_dense(K(tc_sparse_to_dense(ch04_coo(1, 3, CH04_I64(1, 0, 1),
                                                         TC_SHAPE(3, 2), TC_FLOAT32,
                                                         CH04_F32(1, 2, 3, 4, 5, 6),
                                                         CH04_SIZE(3, 2)))),
                      TC_FLOAT32, 2, CH04_I64(3, 2), CH04_VALS(3, 4, 6, 8, 0, 0));
    /* e.to_dense() == zeros(2, 3) */
    ch04_expect_dense(K(tc_sparse_to_dense(ch04_empty(TC_FLOAT32))), TC_FLOAT32, 2,
                      CH04_I64(2, 3), CH04_VALS(0, 0, 0, 0, 0, 0));
    /* torch.sparse_coo_tensor(s's indices, torch.tensor([3,4,5,6]), (2,3)).to_dense():
       [[0,0,9],[4,0,5]] int64 */
    ch04_expect_dense(K(tc_sparse_to_dense(ch04_coo(2, 4, CH04_I64(0, 1, 1, 0, 2, 0, 2, 2),
                                                         TC_SHAPE(4), TC_INT64,
                                                         CH04_I64(3, 4, 5, 6),
                                                         CH04_SIZE(2, 3)))),
                      TC_INT64, 2, CH04_I64(2, 3), CH04_VALS(0, 0, 9, 4, 0, 5));
    /* torch.sparse_coo_tensor([[0,1,0]], torch.tensor([True,False,True]), (3,)).to_dense()
       == [True, False, False] */
    ch04_expect_dense(K(tc_sparse_to_dense(ch04_coo(1, 3, CH04_I64(0, 1, 0), TC_SHAPE(3),
                                                         TC_BOOL, CH04_BOOL(true, false, true),
                                                         CH04_SIZE(3)))),
                      TC_BOOL, 1, CH04_I64(3), CH04_VALS(1, 0, 0));
}
END_TEST

START_TEST(test_to_sparse_full)
{
    /* x = torch.tensor([[0.,2.,0.],[0.,0.,0.],[3.,0.,-1.]]) */
    tc_tensor *x = ch04_dense(TC_SHAPE(3, 3), TC_FLOAT32, CH04_F32(0, 2, 0, 0, 0, 0, 3, 0, -1));
    tc_sparse *a = ch04_s(tc_to_sparse(x, -1));
    tc_sparse *b = ch04_s(tc_to_sparse(x, 2));

    /* x.to_sparse(): [[0,2,2],[1,0,2]], [2.,3.,-1.], True, (3,3), 2, 0 */
    ch04_expect_shape(a, 2, CH04_I64(3, 3), 2);
    ch04_expect_lists(a, 3, CH04_I64(0, 2, 2, 1, 0, 2), TC_FLOAT32, CH04_VALS(2, 3, -1), true);
    /* x.to_sparse(2): the same */
    ch04_expect_shape(b, 2, CH04_I64(3, 3), 2);
    ch04_expect_lists(b, 3, CH04_I64(0, 2, 2, 1, 0, 2), TC_FLOAT32, CH04_VALS(2, 3, -1), true);
}
END_TEST

START_TEST(test_to_sparse_hybrid)
{
    tc_tensor *x = ch04_dense(TC_SHAPE(3, 3), TC_FLOAT32, CH04_F32(0, 2, 0, 0, 0, 0, 3, 0, -1));
    /* x3 = torch.tensor([[[0,1],[0,0]],[[0,0],[0,0]],[[2,0],[0,3]]]) */
    tc_tensor *x3 = ch04_dense(TC_SHAPE(3, 2, 2), TC_INT64,
                               CH04_I64(0, 1, 0, 0, 0, 0, 0, 0, 2, 0, 0, 3));
    tc_sparse *r;

    /* x.to_sparse(1): [[0,2]], [[0.,2.,0.],[3.,0.,-1.]], True, (3,3), 1, 1 */
    r = ch04_s(tc_to_sparse(x, 1));
    ch04_expect_shape(r, 2, CH04_I64(3, 3), 1);
    ch04_expect_lists(r, 2, CH04_I64(0, 2), TC_FLOAT32, CH04_VALS(0, 2, 0, 3, 0, -1), true);
    /* x3.to_sparse(): [[0,2,2],[0,0,1],[1,0,1]], [1,2,3] int64, True */
    r = ch04_s(tc_to_sparse(x3, -1));
    ch04_expect_shape(r, 3, CH04_I64(3, 2, 2), 3);
    ch04_expect_lists(r, 3, CH04_I64(0, 2, 2, 0, 0, 1, 1, 0, 1), TC_INT64, CH04_VALS(1, 2, 3),
                      true);
    /* x3.to_sparse(1): [[0,2]], [[[0,1],[0,0]],[[2,0],[0,3]]], (3,2,2), 1, 2 */
    r = ch04_s(tc_to_sparse(x3, 1));
    ch04_expect_shape(r, 3, CH04_I64(3, 2, 2), 1);
    ch04_expect_lists(r, 2, CH04_I64(0, 2), TC_INT64, CH04_VALS(0, 1, 0, 0, 2, 0, 0, 3), true);
    /* x3.to_sparse(2): [[0,2,2],[0,0,1]], [[0,1],[2,0],[0,3]], 2, 1 */
    r = ch04_s(tc_to_sparse(x3, 2));
    ch04_expect_shape(r, 3, CH04_I64(3, 2, 2), 2);
    ch04_expect_lists(r, 3, CH04_I64(0, 2, 2, 0, 0, 1), TC_INT64, CH04_VALS(0, 1, 2, 0, 0, 3),
                      true);
}
END_TEST

START_TEST(test_to_sparse_special_inputs)
{
    /* torch.zeros(2,3).to_sparse(): indices [[],[]] (2, 0), values [], True */
    tc_sparse *z = ch04_s(tc_to_sparse(K(tc_zeros(TC_SHAPE(2, 3), TC_FLOAT32)), -1));
    /* torch.tensor([0.,1.5,0.,-2.]).to_sparse(): [[1,3]], [1.5,-2.] */
    tc_sparse *v = ch04_s(tc_to_sparse(ch04_dense(TC_SHAPE(4), TC_FLOAT32,
                                                  CH04_F32(0, 1.5f, 0, -2)), -1));
    /* torch.tensor([[0., nan],[-0., 1.]]).to_sparse(): [[0,1],[1,1]], [nan, 1.]:
       NaN is stored, -0. is not */
    tc_sparse *n = ch04_s(tc_to_sparse(ch04_dense(TC_SHAPE(2, 2), TC_FLOAT32,
                                                  CH04_F32(0, NAN, -0.0f, 1)),
                                       -1));
    /* torch.tensor([[True,False],[False,True]]).to_sparse(): [[0,1],[0,1]], [True,True] */
    tc_sparse *b = ch04_s(tc_to_sparse(ch04_dense(TC_SHAPE(2, 2), TC_BOOL,
                                                  CH04_BOOL(true, false, false, true)), -1));
    /* x.t().to_sparse(): [[0,1,2],[2,0,2]], [3.,2.,-1.] */
    tc_tensor *x = ch04_dense(TC_SHAPE(3, 3), TC_FLOAT32, CH04_F32(0, 2, 0, 0, 0, 0, 3, 0, -1));
    tc_sparse *xt = ch04_s(tc_to_sparse(K(tc_t(x)), -1));
    /* torch.tensor(5.).to_sparse(): indices size (0, 1), values [5.], size (), nnz 1;
       torch.tensor(0.).to_sparse(): nnz 0 */
    tc_sparse *five = ch04_s(tc_to_sparse(K(tc_full(TC_SCALAR_SHAPE, 5.0, TC_FLOAT32)), -1));
    tc_sparse *zero = ch04_s(tc_to_sparse(K(tc_full(TC_SCALAR_SHAPE, 0.0, TC_FLOAT32)), 0));

    ch04_expect_shape(z, 2, CH04_I64(2, 3), 2);
    ch04_expect_lists(z, 0, CH04_I64(0), TC_FLOAT32, CH04_VALS(0), true);
    ch04_expect_lists(v, 2, CH04_I64(1, 3), TC_FLOAT32, CH04_VALS(1.5, -2), true);
    ck_assert_ptr_nonnull(n);
    ck_assert_int_eq(tc_sparse_nnz(n), 2);
    ck_assert_int_eq(ch04_int_at(n->indices, 0), 0);
    ck_assert_int_eq(ch04_int_at(n->indices, 1), 1);
    ck_assert_int_eq(ch04_int_at(n->indices, 2), 1);
    ck_assert_int_eq(ch04_int_at(n->indices, 3), 1);
    ck_assert(ch04_at(n->values, 0) != ch04_at(n->values, 0));   /* NaN */
    ck_assert(ch04_at(n->values, 1) == 1.0);
    ch04_expect_lists(b, 2, CH04_I64(0, 1, 0, 1), TC_BOOL, CH04_VALS(1, 1), true);
    ch04_expect_lists(xt, 3, CH04_I64(0, 1, 2, 2, 0, 2), TC_FLOAT32, CH04_VALS(3, 2, -1), true);
    ch04_expect_shape(five, 0, CH04_I64(0), 0);
    ch04_expect_tensor_sizes(five->indices, 2, CH04_I64(0, 1));
    ch04_expect_lists(five, 1, CH04_I64(0), TC_FLOAT32, CH04_VALS(5), true);
    ch04_expect_shape(zero, 0, CH04_I64(0), 0);
    ch04_expect_lists(zero, 0, CH04_I64(0), TC_FLOAT32, CH04_VALS(0), true);
}
END_TEST

START_TEST(test_to_sparse_round_trips)
{
    tc_sparse *s = ch04_demo();
    /* h = torch.sparse_coo_tensor([[1,0,1]], [[1.,2.],[3.,4.],[5.,6.]], (3,2)) */
    tc_sparse *h = ch04_coo(1, 3, CH04_I64(1, 0, 1), TC_SHAPE(3, 2), TC_FLOAT32,
                            CH04_F32(1, 2, 3, 4, 5, 6), CH04_SIZE(3, 2));
    tc_tensor *hd = K(tc_sparse_to_dense(h));
    tc_sparse *r;

    /* s.to_dense().to_sparse(): [[0,1,1],[2,0,2]], [9.,4.,5.], True: s.coalesce() */
    r = ch04_s(tc_to_sparse(K(tc_sparse_to_dense(s)), -1));
    ch04_expect_lists(r, 3, CH04_I64(0, 1, 1, 2, 0, 2), TC_FLOAT32, CH04_VALS(9, 4, 5), true);
    /* and back: r.to_dense() == s.to_dense() */
    ck_assert(tc_equal(K(tc_sparse_to_dense(r)), K(tc_sparse_to_dense(s))));
    /* h.to_dense().to_sparse(1): [[0,1]], [[3.,4.],[6.,8.]], True */
    r = ch04_s(tc_to_sparse(hd, 1));
    ch04_expect_shape(r, 2, CH04_I64(3, 2), 1);
    ch04_expect_lists(r, 2, CH04_I64(0, 1), TC_FLOAT32, CH04_VALS(3, 4, 6, 8), true);
    /* h.to_dense().to_sparse(): [[0,0,1,1],[0,1,0,1]], [3.,4.,6.,8.], True */
    r = ch04_s(tc_to_sparse(hd, -1));
    ch04_expect_lists(r, 4, CH04_I64(0, 0, 1, 1, 0, 1, 0, 1), TC_FLOAT32, CH04_VALS(3, 4, 6, 8),
                      true);
    ck_assert(tc_equal(K(tc_sparse_to_dense(r)), hd));
}
END_TEST

START_TEST(test_to_sparse_errors)
{
    tc_tensor *x = K(tc_zeros(TC_SHAPE(3, 3), TC_FLOAT32));

    /* torch.zeros(3,3).to_sparse(3) */
    CH04_FAILS_S(tc_to_sparse(x, 3), "sparse_dim must be less than or equal to self.dim()");
    /* torch.tensor(5.).to_sparse(1) */
    CH04_FAILS_S(tc_to_sparse(K(tc_full(TC_SCALAR_SHAPE, 5.0, TC_FLOAT32)), 1),
                 "sparse_dim must be less than or equal to self.dim()");
}
END_TEST

START_TEST(test_to_sparse_nonpositive_sparse_dim)
{
    tc_tensor *x = ch04_dense(TC_SHAPE(3, 3), TC_FLOAT32, CH04_F32(0, 2, 0, 0, 0, 0, 3, 0, -1));

    /* x.to_sparse(0) */
    CH04_FAILS_S(tc_to_sparse(x, 0), "sparse_dim must be >0 if dimensionality > 0");
    /* x.to_sparse(-2) (-1 is this API's "no argument") */
    CH04_FAILS_S(tc_to_sparse(x, -2), "sparse_dim must be >0 if dimensionality > 0");
}
END_TEST

/* ---------------------------------------------------------------- addition */

START_TEST(test_add_merge_walk_uncoalesced)
{
    tc_sparse *s = ch04_demo(), *t = ch04_other();
    tc_sparse *st = ch04_s(tc_sparse_add(s, t)), *ts = ch04_s(tc_sparse_add(t, s));

    /* (s+t)._indices() == [[0,1,1,0,0,1,0],[2,0,1,2,0,2,2]], values [3,4,10,20,30,5,6],
       nnz 7, is_coalesced False; (t+s) gives the same lists */
    ch04_expect_shape(st, 2, CH04_I64(2, 3), 2);
    ch04_expect_lists(st, 7, CH04_I64(0, 1, 1, 0, 0, 1, 0, 2, 0, 1, 2, 0, 2, 2), TC_FLOAT32,
                      CH04_VALS(3, 4, 10, 20, 30, 5, 6), false);
    ch04_expect_lists(ts, 7, CH04_I64(0, 1, 1, 0, 0, 1, 0, 2, 0, 1, 2, 0, 2, 2), TC_FLOAT32,
                      CH04_VALS(3, 4, 10, 20, 30, 5, 6), false);
    /* the sum is right: (s+t).to_dense() == s.to_dense() + t.to_dense()
       == [[30.,0.,29.],[4.,10.,5.]] */
    ch04_expect_dense(K(tc_sparse_to_dense(st)), TC_FLOAT32, 2, CH04_I64(2, 3),
                      CH04_VALS(30, 0, 29, 4, 10, 5));
}
END_TEST

START_TEST(test_add_one_coalesced)
{
    tc_sparse *s = ch04_demo(), *tc = ch04_s(tc_sparse_coalesce(ch04_other()));

    /* t.coalesce(): [[0,0,1],[0,2,1]], [30.,20.,10.] */
    ch04_expect_lists(tc, 3, CH04_I64(0, 0, 1, 0, 2, 1), TC_FLOAT32, CH04_VALS(30, 20, 10), true);
    /* s + t.coalesce(): [[0,0,1,1,1,0],[0,2,0,1,2,2]], [30,23,4,10,5,6], False;
       t.coalesce() + s: the same */
    ch04_expect_lists(ch04_s(tc_sparse_add(s, tc)), 6,
                      CH04_I64(0, 0, 1, 1, 1, 0, 0, 2, 0, 1, 2, 2), TC_FLOAT32,
                      CH04_VALS(30, 23, 4, 10, 5, 6), false);
    ch04_expect_lists(ch04_s(tc_sparse_add(tc, s)), 6,
                      CH04_I64(0, 0, 1, 1, 1, 0, 0, 2, 0, 1, 2, 2), TC_FLOAT32,
                      CH04_VALS(30, 23, 4, 10, 5, 6), false);
}
END_TEST

START_TEST(test_add_both_coalesced)
{
    tc_sparse *c = ch04_s(tc_sparse_coalesce(ch04_demo()));
    tc_sparse *tc = ch04_s(tc_sparse_coalesce(ch04_other()));

    /* c + c: [[0,1,1],[2,0,2]], [18.,8.,10.], nnz 3, True */
    ch04_expect_lists(ch04_s(tc_sparse_add(c, c)), 3, CH04_I64(0, 1, 1, 2, 0, 2), TC_FLOAT32,
                      CH04_VALS(18, 8, 10), true);
    /* c + t.coalesce(): [[0,0,1,1,1],[0,2,0,1,2]], [30.,29.,4.,10.,5.], True */
    ch04_expect_lists(ch04_s(tc_sparse_add(c, tc)), 5, CH04_I64(0, 0, 1, 1, 1, 0, 2, 0, 1, 2),
                      TC_FLOAT32, CH04_VALS(30, 29, 4, 10, 5), true);
}
END_TEST

START_TEST(test_add_self)
{
    tc_sparse *s = ch04_demo();

    /* s + s: [[0,1,1,0],[2,0,2,2]], [6.,8.,10.,12.], nnz 4, False */
    ch04_expect_lists(ch04_s(tc_sparse_add(s, s)), 4, CH04_I64(0, 1, 1, 0, 2, 0, 2, 2),
                      TC_FLOAT32, CH04_VALS(6, 8, 10, 12), false);
}
END_TEST

START_TEST(test_add_promotion)
{
    tc_sparse *s = ch04_demo();
    tc_sparse *si = ch04_coo(2, 2, CH04_I64(0, 1, 1, 2), TC_SHAPE(2), TC_INT64, CH04_I64(7, 8),
                             CH04_SIZE(2, 3));
    tc_sparse *sd = ch04_coo(2, 2, CH04_I64(0, 1, 1, 2), TC_SHAPE(2), TC_FLOAT64,
                             CH04_F64(7, 8), CH04_SIZE(2, 3));

    /* s + si, si + s: [[0,0,1,1,0],[1,2,0,2,2]], [7.,3.,4.,13.,6.], float32, False */
    ch04_expect_lists(ch04_s(tc_sparse_add(s, si)), 5, CH04_I64(0, 0, 1, 1, 0, 1, 2, 0, 2, 2),
                      TC_FLOAT32, CH04_VALS(7, 3, 4, 13, 6), false);
    ch04_expect_lists(ch04_s(tc_sparse_add(si, s)), 5, CH04_I64(0, 0, 1, 1, 0, 1, 2, 0, 2, 2),
                      TC_FLOAT32, CH04_VALS(7, 3, 4, 13, 6), false);
    /* s + torch.sparse_coo_tensor([[0,1],[1,2]], torch.tensor([7.,8.],
       dtype=torch.float64), (2,3)): the same lists, float64 */
    ch04_expect_lists(ch04_s(tc_sparse_add(s, sd)), 5, CH04_I64(0, 0, 1, 1, 0, 1, 2, 0, 2, 2),
                      TC_FLOAT64, CH04_VALS(7, 3, 4, 13, 6), false);
}
END_TEST

START_TEST(test_add_hybrid_and_empty)
{
    /* h1 = torch.sparse_coo_tensor([[1,0]], [[1.,2.],[3.,4.]], (2,2))
       h2 = torch.sparse_coo_tensor([[0,1,0]], [[10.,20.],[30.,40.],[50.,60.]], (2,2)) */
    tc_sparse *h1 = ch04_coo(1, 2, CH04_I64(1, 0), TC_SHAPE(2, 2), TC_FLOAT32,
                             CH04_F32(1, 2, 3, 4), CH04_SIZE(2, 2));
    tc_sparse *h2 = ch04_coo(1, 3, CH04_I64(0, 1, 0), TC_SHAPE(3, 2), TC_FLOAT32,
                             CH04_F32(10, 20, 30, 40, 50, 60), CH04_SIZE(2, 2));
    tc_sparse *s = ch04_demo(), *e = ch04_empty(TC_FLOAT32);
    tc_sparse *c = ch04_s(tc_sparse_coalesce(s));
    tc_sparse *r;

    /* h1 + h2: [[0,1,0]], [[10.,20.],[31.,42.],[53.,64.]], False */
    ch04_expect_lists(ch04_s(tc_sparse_add(h1, h2)), 3, CH04_I64(0, 1, 0), TC_FLOAT32,
                      CH04_VALS(10, 20, 31, 42, 53, 64), false);
    /* e + s, s + e: s's lists, False; e + c: c's lists, True */
    ch04_expect_lists(ch04_s(tc_sparse_add(e, s)), 4, CH04_I64(0, 1, 1, 0, 2, 0, 2, 2),
                      TC_FLOAT32, CH04_VALS(3, 4, 5, 6), false);
    ch04_expect_lists(ch04_s(tc_sparse_add(s, e)), 4, CH04_I64(0, 1, 1, 0, 2, 0, 2, 2),
                      TC_FLOAT32, CH04_VALS(3, 4, 5, 6), false);
    ch04_expect_lists(ch04_s(tc_sparse_add(e, c)), 3, CH04_I64(0, 1, 1, 2, 0, 2), TC_FLOAT32,
                      CH04_VALS(9, 4, 5), true);
    /* e(int64) + s: float32 values, False */
    r = ch04_s(tc_sparse_add(ch04_empty(TC_INT64), s));
    ch04_expect_lists(r, 4, CH04_I64(0, 1, 1, 0, 2, 0, 2, 2), TC_FLOAT32, CH04_VALS(3, 4, 5, 6),
                      false);
    /* e + e: nnz 0, True */
    ch04_expect_lists(ch04_s(tc_sparse_add(e, e)), 0, CH04_I64(0), TC_FLOAT32, CH04_VALS(0), true);
}
END_TEST

START_TEST(test_add_size_mismatch)
{
    tc_sparse *s = ch04_demo();
    tc_sparse *w = ch04_coo(2, 1, CH04_I64(0, 0), TC_SHAPE(1), TC_FLOAT32, CH04_F32(1),
                            CH04_SIZE(2, 4));

    /* s + torch.sparse_coo_tensor([[0],[0]], [1.], (2,4)) */
    CH04_FAILS_S(tc_sparse_add(s, w),
                 "add: expected sizes of 'self' and 'other' to match, but [2, 3] != [2, 4]");
    CH04_FAILS_S(tc_sparse_add(w, s),
                 "add: expected sizes of 'self' and 'other' to match, but [2, 4] != [2, 3]");
}
END_TEST

START_TEST(test_add_density_mismatch)
{
    tc_sparse *s = ch04_demo();
    /* h = torch.sparse_coo_tensor([[0]], [[1.,2.,3.]], (2,3)): the same size, sparse_dim 1 */
    tc_sparse *h = ch04_coo(1, 1, CH04_I64(0), TC_SHAPE(1, 3), TC_FLOAT32, CH04_F32(1, 2, 3),
                            CH04_SIZE(2, 3));

    /* s + h */
    CH04_FAILS_S(tc_sparse_add(s, h),
                 "add: expected 'self' and 'other' to have same density, but 'self' has 2 "
                 "sparse dimensions while 'other' has 1 sparse dimensions");
    /* h + s */
    CH04_FAILS_S(tc_sparse_add(h, s),
                 "add: expected 'self' and 'other' to have same density, but 'self' has 1 "
                 "sparse dimensions while 'other' has 2 sparse dimensions");
}
END_TEST

START_TEST(test_add_empty_other_density)
{
    tc_sparse *s = ch04_demo();
    /* eh = torch.sparse_coo_tensor(torch.zeros(1,0,dtype=torch.long), torch.zeros(0,3), (2,3)) */
    tc_sparse *eh = ch04_coo(1, 0, CH04_I64(0), TC_SHAPE(0, 3), TC_FLOAT32, CH04_F32(0),
                             CH04_SIZE(2, 3));
    tc_sparse *r;

    /* s + eh and eh + s: an empty operand is skipped before the density check;
       both give s's lists: [[0,1,1,0],[2,0,2,2]], [3.,4.,5.,6.] */
    r = ch04_s(tc_sparse_add(s, eh));
    ck_assert_msg(r != NULL, "s + eh failed: %s", tc_error() ? tc_error() : "");
    ch04_expect_lists(r, 4, CH04_I64(0, 1, 1, 0, 2, 0, 2, 2), TC_FLOAT32, CH04_VALS(3, 4, 5, 6),
                      false);
    r = ch04_s(tc_sparse_add(eh, s));
    ck_assert_msg(r != NULL, "eh + s failed: %s", tc_error() ? tc_error() : "");
    ch04_expect_lists(r, 4, CH04_I64(0, 1, 1, 0, 2, 0, 2, 2), TC_FLOAT32, CH04_VALS(3, 4, 5, 6),
                      false);
}
END_TEST

/* ---------------------------------------------------------- multiplication */

START_TEST(test_mul_scalar)
{
    tc_sparse *s = ch04_demo();
    tc_sparse *c = ch04_s(tc_sparse_coalesce(s));
    tc_sparse *si = ch04_coo(2, 2, CH04_I64(0, 1, 1, 2), TC_SHAPE(2), TC_INT64, CH04_I64(7, 8),
                             CH04_SIZE(2, 3));
    tc_sparse *sd = ch04_coo(2, 4, CH04_I64(0, 1, 1, 0, 2, 0, 2, 2), TC_SHAPE(4), TC_FLOAT64,
                             CH04_F64(3, 4, 5, 6), CH04_SIZE(2, 3));
    tc_sparse *r;

    /* s * 2: [[0,1,1,0],[2,0,2,2]], [6.,8.,10.,12.], float32, False */
    r = ch04_s(tc_sparse_mul_scalar(s, 2));
    ch04_expect_shape(r, 2, CH04_I64(2, 3), 2);
    ch04_expect_lists(r, 4, CH04_I64(0, 1, 1, 0, 2, 0, 2, 2), TC_FLOAT32,
                      CH04_VALS(6, 8, 10, 12), false);
    /* c * 2.5: [22.5, 10.0, 12.5], float32, True */
    ch04_expect_lists(ch04_s(tc_sparse_mul_scalar(c, 2.5)), 3, CH04_I64(0, 1, 1, 2, 0, 2),
                      TC_FLOAT32, CH04_VALS(22.5, 10, 12.5), true);
    /* si * 2.5: [17.5, 20.0], float32; si * 3: [21, 24], int64; si.is_coalesced() False */
    ch04_expect_lists(ch04_s(tc_sparse_mul_scalar(si, 2.5)), 2, CH04_I64(0, 1, 1, 2), TC_FLOAT32,
                      CH04_VALS(17.5, 20), false);
    ch04_expect_lists(ch04_s(tc_sparse_mul_scalar(si, 3)), 2, CH04_I64(0, 1, 1, 2), TC_INT64,
                      CH04_VALS(21, 24), false);
    /* sd * 2: [6.,8.,10.,12.], float64 */
    ch04_expect_lists(ch04_s(tc_sparse_mul_scalar(sd, 2)), 4, CH04_I64(0, 1, 1, 0, 2, 0, 2, 2),
                      TC_FLOAT64, CH04_VALS(6, 8, 10, 12), false);
    /* s * True: [3.,4.,5.,6.], float32, False */
    ch04_expect_lists(ch04_s(tc_sparse_mul_number(s, tc_number_bool(true))), 4,
                      CH04_I64(0, 1, 1, 0, 2, 0, 2, 2), TC_FLOAT32, CH04_VALS(3, 4, 5, 6), false);
    /* the input is unchanged */
    ch04_expect_lists(s, 4, CH04_I64(0, 1, 1, 0, 2, 0, 2, 2), TC_FLOAT32, CH04_VALS(3, 4, 5, 6),
                      false);
}
END_TEST

START_TEST(test_mul_zero_dim_tensor)
{
    tc_sparse *s = ch04_demo();
    tc_tensor *two = K(tc_full(TC_SCALAR_SHAPE, 2.0, TC_FLOAT64));

    /* (s * torch.tensor(2., dtype=torch.float64))._values(): [6.,8.,10.,12.], float32 */
    ch04_expect_lists(ch04_s(tc_sparse_mul(s, two)), 4, CH04_I64(0, 1, 1, 0, 2, 0, 2, 2),
                      TC_FLOAT32, CH04_VALS(6, 8, 10, 12), false);
    /* e * 2: nnz 0, True */
    ch04_expect_lists(ch04_s(tc_sparse_mul_scalar(ch04_empty(TC_FLOAT32), 2)), 0, CH04_I64(0),
                      TC_FLOAT32, CH04_VALS(0), true);
}
END_TEST

/* -------------------------------------------------------------------- sums */

START_TEST(test_sum_all)
{
    const float twelve[12] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11 };
    tc_sparse *h = ch04_coo(2, 3, CH04_I64(1, 0, 1, 0, 2, 0), TC_SHAPE(3, 2, 2), TC_FLOAT32,
                            twelve, CH04_SIZE(2, 3, 2, 2));
    tc_tensor *r;

    /* torch.sparse.sum(s) == tensor(18.) */
    r = K(tc_sparse_sum(ch04_demo()));
    ch04_expect_dense(r, TC_FLOAT32, 0, NULL, CH04_VALS(18));
    /* torch.sparse.sum(torch.sparse_coo_tensor(s's indices, torch.tensor([3,4,5,6]),
       (2,3))) == tensor(18) */
    r = K(tc_sparse_sum(ch04_coo(2, 4, CH04_I64(0, 1, 1, 0, 2, 0, 2, 2), TC_SHAPE(4),
                                      TC_INT64, CH04_I64(3, 4, 5, 6), CH04_SIZE(2, 3))));
    ch04_expect_dense(r, TC_INT64, 0, NULL, CH04_VALS(18));
    /* torch.sparse.sum(h) for h = torch.sparse_coo_tensor([[1,0,1],[0,2,0]],
       torch.arange(12.).view(3,2,2), (2,3,2,2)) == tensor(66.) */
    ch04_expect_dense(K(tc_sparse_sum(h)), TC_FLOAT32, 0, NULL, CH04_VALS(66));
    /* torch.sparse.sum(e) == tensor(0.) */
    ch04_expect_dense(K(tc_sparse_sum(ch04_empty(TC_FLOAT32))), TC_FLOAT32, 0, NULL,
                      CH04_VALS(0));
}
END_TEST

START_TEST(test_sum_all_coalesces_first)
{
    /* torch.sparse.sum(torch.sparse_coo_tensor([[0,1,0,1]], [1e8,1.,-1e8,1.], (2,)))
       == tensor(2.): the duplicates are summed first, [0., 2.]; its
       _values().sum() is tensor(1.) */
    tc_sparse *f = ch04_coo(1, 4, CH04_I64(0, 1, 0, 1), TC_SHAPE(4), TC_FLOAT32,
                            CH04_F32(1e8f, 1, -1e8f, 1), CH04_SIZE(2));

    ch04_expect_dense(K(tc_sparse_sum(f)), TC_FLOAT32, 0, NULL, CH04_VALS(2));
}
END_TEST

START_TEST(test_sum_all_bool_coalesces_first)
{
    /* torch.sparse.sum(torch.sparse_coo_tensor([[0,1,0]], torch.tensor([True,False,True]),
       (2,))) == tensor(1): coalesce makes [True, False] */
    tc_sparse *b = ch04_coo(1, 3, CH04_I64(0, 1, 0), TC_SHAPE(3), TC_BOOL,
                            CH04_BOOL(true, false, true), CH04_SIZE(2));
    /* torch.sparse.sum(torch.sparse_coo_tensor([[0,1,2]], torch.tensor([True,False,True]),
       (3,))) == tensor(2) */
    tc_sparse *u = ch04_coo(1, 3, CH04_I64(0, 1, 2), TC_SHAPE(3), TC_BOOL,
                            CH04_BOOL(true, false, true), CH04_SIZE(3));

    ch04_expect_dense(K(tc_sparse_sum(u)), TC_INT64, 0, NULL, CH04_VALS(2));
    ch04_expect_dense(K(tc_sparse_sum(b)), TC_INT64, 0, NULL, CH04_VALS(1));
}
END_TEST

START_TEST(test_sum_dims_matrix)
{
    tc_sparse *s = ch04_demo();
    tc_sparse *r;

    /* torch.sparse.sum(s, 0): [[0,2]], [4.,14.], True, (3,), sparse_dim 1 */
    r = ch04_s(tc_sparse_sum_dims(s, TC_DIMS(0)));
    ch04_expect_shape(r, 1, CH04_I64(3), 1);
    ch04_expect_lists(r, 2, CH04_I64(0, 2), TC_FLOAT32, CH04_VALS(4, 14), true);
    /* torch.sparse.sum(s, 1) and torch.sparse.sum(s, -1): [[0,1]], [9.,9.], (2,) */
    r = ch04_s(tc_sparse_sum_dims(s, TC_DIMS(1)));
    ch04_expect_shape(r, 1, CH04_I64(2), 1);
    ch04_expect_lists(r, 2, CH04_I64(0, 1), TC_FLOAT32, CH04_VALS(9, 9), true);
    r = ch04_s(tc_sparse_sum_dims(s, TC_DIMS(-1)));
    ch04_expect_lists(r, 2, CH04_I64(0, 1), TC_FLOAT32, CH04_VALS(9, 9), true);
    /* torch.sparse.sum(s, []): s.coalesce() */
    r = ch04_s(tc_sparse_sum_dims(s, (tc_shape){ .dim = 0 }));
    ch04_expect_shape(r, 2, CH04_I64(2, 3), 2);
    ch04_expect_lists(r, 3, CH04_I64(0, 1, 1, 2, 0, 2), TC_FLOAT32, CH04_VALS(9, 4, 5), true);
    /* torch.sparse.sum(s.t(), 1): [[0,2]], [4.,14.], True */
    r = ch04_s(tc_sparse_sum_dims(ch04_s(tc_sparse_transpose(s, 0, 1)), TC_DIMS(1)));
    ch04_expect_lists(r, 2, CH04_I64(0, 2), TC_FLOAT32, CH04_VALS(4, 14), true);
    /* int64: [[0,2]], [4,14] int64; float64 over dim 1: [[0,1]], [9.,9.] float64 */
    r = ch04_s(tc_sparse_sum_dims(ch04_coo(2, 4, CH04_I64(0, 1, 1, 0, 2, 0, 2, 2), TC_SHAPE(4),
                                           TC_INT64, CH04_I64(3, 4, 5, 6), CH04_SIZE(2, 3)),
                                  TC_DIMS(0)));
    ch04_expect_lists(r, 2, CH04_I64(0, 2), TC_INT64, CH04_VALS(4, 14), true);
    r = ch04_s(tc_sparse_sum_dims(ch04_coo(2, 4, CH04_I64(0, 1, 1, 0, 2, 0, 2, 2), TC_SHAPE(4),
                                           TC_FLOAT64, CH04_F64(3, 4, 5, 6), CH04_SIZE(2, 3)),
                                  TC_DIMS(1)));
    ch04_expect_lists(r, 2, CH04_I64(0, 1), TC_FLOAT64, CH04_VALS(9, 9), true);
}
END_TEST

START_TEST(test_sum_dims_empty)
{
    /* torch.sparse.sum(e, 0): [[]], [], True, (3,) */
    tc_sparse *r = ch04_s(tc_sparse_sum_dims(ch04_empty(TC_FLOAT32), TC_DIMS(0)));

    ch04_expect_shape(r, 1, CH04_I64(3), 1);
    ch04_expect_lists(r, 0, CH04_I64(0), TC_FLOAT32, CH04_VALS(0), true);
}
END_TEST

START_TEST(test_sum_dims_hybrid)
{
    const float twelve[12] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11 };
    /* h = torch.sparse_coo_tensor([[1,0,1],[0,2,0]], torch.arange(12.).view(3,2,2), (2,3,2,2)) */
    tc_sparse *h = ch04_coo(2, 3, CH04_I64(1, 0, 1, 0, 2, 0), TC_SHAPE(3, 2, 2), TC_FLOAT32,
                            twelve, CH04_SIZE(2, 3, 2, 2));
    tc_sparse *r;

    /* torch.sparse.sum(h, 0): [[0,2]], [[[8,10],[12,14]],[[4,5],[6,7]]], (3,2,2), 1, 2 */
    r = ch04_s(tc_sparse_sum_dims(h, TC_DIMS(0)));
    ch04_expect_shape(r, 3, CH04_I64(3, 2, 2), 1);
    ch04_expect_lists(r, 2, CH04_I64(0, 2), TC_FLOAT32, CH04_VALS(8, 10, 12, 14, 4, 5, 6, 7), true);
    /* torch.sparse.sum(h, 1): [[0,1]], [[[4,5],[6,7]],[[8,10],[12,14]]], (2,2,2), 1, 2 */
    r = ch04_s(tc_sparse_sum_dims(h, TC_DIMS(1)));
    ch04_expect_shape(r, 3, CH04_I64(2, 2, 2), 1);
    ch04_expect_lists(r, 2, CH04_I64(0, 1), TC_FLOAT32, CH04_VALS(4, 5, 6, 7, 8, 10, 12, 14), true);
    /* torch.sparse.sum(h, 2): [[0,1],[2,0]], [[10,12],[20,24]], (2,3,2), 2, 1 */
    r = ch04_s(tc_sparse_sum_dims(h, TC_DIMS(2)));
    ch04_expect_shape(r, 3, CH04_I64(2, 3, 2), 2);
    ch04_expect_lists(r, 2, CH04_I64(0, 1, 2, 0), TC_FLOAT32, CH04_VALS(10, 12, 20, 24), true);
    /* torch.sparse.sum(h, 3): [[0,1],[2,0]], [[9,13],[18,26]], (2,3,2) */
    r = ch04_s(tc_sparse_sum_dims(h, TC_DIMS(3)));
    ch04_expect_shape(r, 3, CH04_I64(2, 3, 2), 2);
    ch04_expect_lists(r, 2, CH04_I64(0, 1, 2, 0), TC_FLOAT32, CH04_VALS(9, 13, 18, 26), true);
    /* torch.sparse.sum(h, [2,3]): [[0,1],[2,0]], [22,44], (2,3), 2, 0 */
    r = ch04_s(tc_sparse_sum_dims(h, TC_DIMS(2, 3)));
    ch04_expect_shape(r, 2, CH04_I64(2, 3), 2);
    ch04_expect_lists(r, 2, CH04_I64(0, 1, 2, 0), TC_FLOAT32, CH04_VALS(22, 44), true);
    /* torch.sparse.sum(h, [0,3]): [[0,2]], [[18,26],[9,13]], (3,2), 1, 1 */
    r = ch04_s(tc_sparse_sum_dims(h, TC_DIMS(0, 3)));
    ch04_expect_shape(r, 2, CH04_I64(3, 2), 1);
    ch04_expect_lists(r, 2, CH04_I64(0, 2), TC_FLOAT32, CH04_VALS(18, 26, 9, 13), true);
    /* torch.sparse.sum(h, [0,1]) is a strided tensor, [[12.,15.],[18.,21.]]; here a
       sparse tensor with no sparse dimension, whose to_dense() is that tensor */
    r = ch04_s(tc_sparse_sum_dims(h, TC_DIMS(0, 1)));
    ch04_expect_shape(r, 2, CH04_I64(2, 2), 0);
    ch04_expect_dense(K(tc_sparse_to_dense(r)), TC_FLOAT32, 2, CH04_I64(2, 2),
                      CH04_VALS(12, 15, 18, 21));
    /* torch.sparse.sum(h, [0,1,2]) is strided [30., 36.] */
    r = ch04_s(tc_sparse_sum_dims(h, TC_DIMS(0, 1, 2)));
    ch04_expect_dense(K(tc_sparse_to_dense(r)), TC_FLOAT32, 1, CH04_I64(2),
                      CH04_VALS(30, 36));
}
END_TEST

START_TEST(test_sum_dims_errors)
{
    tc_sparse *s = ch04_demo();

    /* torch.sparse.sum(s, [0,0]), torch.sparse.sum(s, [1,-1]) */
    CH04_FAILS_S(tc_sparse_sum_dims(s, TC_DIMS(0, 0)),
                 "dim 0 appears multiple times in the list of dims");
    CH04_FAILS_S(tc_sparse_sum_dims(s, TC_DIMS(1, -1)),
                 "dim 1 appears multiple times in the list of dims");
    /* torch.sparse.sum(s, 2), torch.sparse.sum(s, -3) */
    CH04_FAILS_S(tc_sparse_sum_dims(s, TC_DIMS(2)),
                 "Dimension out of range (expected to be in range of [-2, 1], but got 2)");
    CH04_FAILS_S(tc_sparse_sum_dims(s, TC_DIMS(-3)),
                 "Dimension out of range (expected to be in range of [-2, 1], but got -3)");
    /* every dimension: library message (torch returns a dense scalar) */
    CH04_FAILS_S(tc_sparse_sum_dims(s, TC_DIMS(0, 1)),
                 "tc_sparse_sum_dims: summing over every dimension gives a dense scalar; "
                 "use tc_sparse_sum");
}
END_TEST

/* --------------------------------------------------------------- transpose */

START_TEST(test_transpose_lists)
{
    tc_sparse *s = ch04_demo();
    tc_sparse *c = ch04_s(tc_sparse_coalesce(s));
    /* t3 = torch.sparse_coo_tensor([[1,0],[0,2],[3,1]], [1.,2.], (2,3,4)) */
    tc_sparse *t3 = ch04_coo(3, 2, CH04_I64(1, 0, 0, 2, 3, 1), TC_SHAPE(2), TC_FLOAT32,
                             CH04_F32(1, 2), CH04_SIZE(2, 3, 4));
    /* hh = torch.sparse_coo_tensor([[1,0],[0,2]], [[1.,2.],[3.,4.]], (2,3,2)) */
    tc_sparse *hh = ch04_coo(2, 2, CH04_I64(1, 0, 0, 2), TC_SHAPE(2, 2), TC_FLOAT32,
                             CH04_F32(1, 2, 3, 4), CH04_SIZE(2, 3, 2));
    tc_sparse *r;

    /* s.t(): [[2,0,2,2],[0,1,1,0]], [3.,4.,5.,6.], False, (3,2) */
    r = ch04_s(tc_sparse_transpose(s, 0, 1));
    ch04_expect_shape(r, 2, CH04_I64(3, 2), 2);
    ch04_expect_lists(r, 4, CH04_I64(2, 0, 2, 2, 0, 1, 1, 0), TC_FLOAT32, CH04_VALS(3, 4, 5, 6),
                      false);
    /* s.transpose(1,0): the same */
    r = ch04_s(tc_sparse_transpose(s, 1, 0));
    ch04_expect_lists(r, 4, CH04_I64(2, 0, 2, 2, 0, 1, 1, 0), TC_FLOAT32, CH04_VALS(3, 4, 5, 6),
                      false);
    /* s.transpose(1,1): s's lists, (2,3), False */
    r = ch04_s(tc_sparse_transpose(s, 1, 1));
    ch04_expect_shape(r, 2, CH04_I64(2, 3), 2);
    ch04_expect_lists(r, 4, CH04_I64(0, 1, 1, 0, 2, 0, 2, 2), TC_FLOAT32, CH04_VALS(3, 4, 5, 6),
                      false);
    /* c.transpose(0,1): [[2,0,2],[0,1,1]], [9.,4.,5.], False (no longer sorted) */
    r = ch04_s(tc_sparse_transpose(c, 0, 1));
    ch04_expect_lists(r, 3, CH04_I64(2, 0, 2, 0, 1, 1), TC_FLOAT32, CH04_VALS(9, 4, 5), false);
    /* t3.transpose(0,2) and t3.transpose(-1,0): [[3,1],[0,2],[1,0]], (4,3,2), False */
    r = ch04_s(tc_sparse_transpose(t3, 0, 2));
    ch04_expect_shape(r, 3, CH04_I64(4, 3, 2), 3);
    ch04_expect_lists(r, 2, CH04_I64(3, 1, 0, 2, 1, 0), TC_FLOAT32, CH04_VALS(1, 2), false);
    r = ch04_s(tc_sparse_transpose(t3, -1, 0));
    ch04_expect_shape(r, 3, CH04_I64(4, 3, 2), 3);
    ch04_expect_lists(r, 2, CH04_I64(3, 1, 0, 2, 1, 0), TC_FLOAT32, CH04_VALS(1, 2), false);
    /* hh.transpose(0,1): [[0,2],[1,0]], [[1.,2.],[3.,4.]], (3,2,2), False */
    r = ch04_s(tc_sparse_transpose(hh, 0, 1));
    ch04_expect_shape(r, 3, CH04_I64(3, 2, 2), 2);
    ch04_expect_lists(r, 2, CH04_I64(0, 2, 1, 0), TC_FLOAT32, CH04_VALS(1, 2, 3, 4), false);
    /* e.transpose(0,1): nnz 0, (3,2), True */
    r = ch04_s(tc_sparse_transpose(ch04_empty(TC_FLOAT32), 0, 1));
    ch04_expect_shape(r, 2, CH04_I64(3, 2), 2);
    ck_assert(r->coalesced);
    /* the input is unchanged */
    ch04_expect_lists(s, 4, CH04_I64(0, 1, 1, 0, 2, 0, 2, 2), TC_FLOAT32, CH04_VALS(3, 4, 5, 6),
                      false);
}
END_TEST

START_TEST(test_transpose_one_entry_uncoalesced)
{
    /* torch.sparse_coo_tensor([[1],[0]], [1.], (2,3)).transpose(0,1): [[0],[1]], [1.],
       is_coalesced False */
    tc_sparse *one = ch04_coo(2, 1, CH04_I64(1, 0), TC_SHAPE(1), TC_FLOAT32, CH04_F32(1),
                              CH04_SIZE(2, 3));

    ch04_expect_lists(ch04_s(tc_sparse_transpose(one, 0, 1)), 1, CH04_I64(0, 1), TC_FLOAT32,
                      CH04_VALS(1), false);
}
END_TEST

START_TEST(test_transpose_same_dim_keeps_coalesced)
{
    /* c.transpose(0,0): [[0,1,1],[2,0,2]], [9.,4.,5.], is_coalesced True */
    tc_sparse *c = ch04_s(tc_sparse_coalesce(ch04_demo()));

    ch04_expect_lists(ch04_s(tc_sparse_transpose(c, 0, 0)), 3, CH04_I64(0, 1, 1, 2, 0, 2),
                      TC_FLOAT32, CH04_VALS(9, 4, 5), true);
}
END_TEST

START_TEST(test_transpose_errors)
{
    tc_sparse *hh = ch04_coo(2, 2, CH04_I64(1, 0, 0, 2), TC_SHAPE(2, 2), TC_FLOAT32,
                             CH04_F32(1, 2, 3, 4), CH04_SIZE(2, 3, 2));

    /* hh.transpose(0,2), hh.transpose(2,1), hh.transpose(-1,0) */
    CH04_FAILS_S(tc_sparse_transpose(hh, 0, 2),
                 "sparse transpose: transposed dimensions must be sparse Got sparse_dim: 2, "
                 "d0: 0, d1: 2");
    CH04_FAILS_S(tc_sparse_transpose(hh, 2, 1),
                 "sparse transpose: transposed dimensions must be sparse Got sparse_dim: 2, "
                 "d0: 2, d1: 1");
    CH04_FAILS_S(tc_sparse_transpose(hh, -1, 0),
                 "sparse transpose: transposed dimensions must be sparse Got sparse_dim: 2, "
                 "d0: 2, d1: 0");
    /* hh.transpose(0,3) */
    CH04_FAILS_S(tc_sparse_transpose(hh, 0, 3),
                 "Dimension out of range (expected to be in range of [-3, 2], but got 3)");
}
END_TEST

/* ---------------------------------------------------------------- sparse.mm */

START_TEST(test_mm_values)
{
    tc_sparse *s = ch04_demo();
    tc_sparse *c = ch04_s(tc_sparse_coalesce(s));
    tc_tensor *d = ch04_dense(TC_SHAPE(3, 2), TC_FLOAT32, CH04_F32(0, 1, 2, 3, 4, 5));
    tc_tensor *r = K(tc_sparse_mm(s, d));

    /* torch.sparse.mm(s, torch.arange(6.).view(3,2)) == [[36.,45.],[20.,29.]]
       == s.to_dense() @ torch.arange(6.).view(3,2) (uncoalesced input) */
    ch04_expect_dense(r, TC_FLOAT32, 2, CH04_I64(2, 2), CH04_VALS(36, 45, 20, 29));
    ck_assert(tc_equal(r, K(tc_matmul(K(tc_sparse_to_dense(s)), d))));
    /* torch.sparse.mm(c, ...): the same */
    ch04_expect_dense(K(tc_sparse_mm(c, d)), TC_FLOAT32, 2, CH04_I64(2, 2),
                      CH04_VALS(36, 45, 20, 29));
    /* torch.sparse.mm(e, torch.ones(3,2)) == zeros(2,2) */
    ch04_expect_dense(K(tc_sparse_mm(ch04_empty(TC_FLOAT32),
                                          K(tc_ones(TC_SHAPE(3, 2), TC_FLOAT32)))),
                      TC_FLOAT32, 2, CH04_I64(2, 2), CH04_VALS(0, 0, 0, 0));
}
END_TEST

START_TEST(test_mm_no_columns)
{
    /* torch.sparse.mm(s, torch.ones(3,0)) == tensor([], size=(2, 0)) */
    ch04_expect_dense(K(tc_sparse_mm(ch04_demo(),
                                          K(tc_ones(TC_SHAPE(3, 0), TC_FLOAT32)))),
                      TC_FLOAT32, 2, CH04_I64(2, 0), CH04_VALS(0));
}
END_TEST

START_TEST(test_mm_float64_and_int64)
{
    tc_sparse *sd = ch04_coo(2, 4, CH04_I64(0, 1, 1, 0, 2, 0, 2, 2), TC_SHAPE(4), TC_FLOAT64,
                             CH04_F64(3, 4, 5, 6), CH04_SIZE(2, 3));
    /* dd = torch.tensor([[0.5,1.25],[2.,-1.],[0.1,3.]], dtype=torch.float64) */
    tc_tensor *dd = ch04_dense(TC_SHAPE(3, 2), TC_FLOAT64, CH04_F64(0.5, 1.25, 2, -1, 0.1, 3));
    tc_sparse *si = ch04_coo(2, 4, CH04_I64(0, 1, 1, 0, 2, 0, 2, 2), TC_SHAPE(4), TC_INT64,
                             CH04_I64(3, 4, 5, 6), CH04_SIZE(2, 3));
    tc_tensor *di = ch04_dense(TC_SHAPE(3, 2), TC_INT64, CH04_I64(0, 1, 2, 3, 4, 5));

    /* torch.sparse.mm(sd, dd).tolist() == [[0.9000000000000001, 27.0], [2.5, 20.0]]
       (entry by entry: 3*0.1 + 6*0.1; the dense product sd.to_dense() @ dd gives 0.9) */
    ch04_expect_dense(K(tc_sparse_mm(sd, dd)), TC_FLOAT64, 2, CH04_I64(2, 2),
                      CH04_VALS(0.9000000000000001, 27.0, 2.5, 20.0));
    /* torch.sparse.mm(si, torch.arange(6).view(3,2)) == [[36,45],[20,29]] int64 */
    ch04_expect_dense(K(tc_sparse_mm(si, di)), TC_INT64, 2, CH04_I64(2, 2),
                      CH04_VALS(36, 45, 20, 29));
}
END_TEST

START_TEST(test_mm_errors)
{
    tc_sparse *s = ch04_demo();
    /* s1 = torch.sparse_coo_tensor([[1]], [1.], (2,)) */
    tc_sparse *s1 = ch04_coo(1, 1, CH04_I64(1), TC_SHAPE(1), TC_FLOAT32, CH04_F32(1),
                             CH04_SIZE(2));

    /* torch.sparse.mm(s, torch.ones(4,2)) */
    CH04_FAILS_T(tc_sparse_mm(s, K(tc_ones(TC_SHAPE(4, 2), TC_FLOAT32))),
                 "addmm: Argument #3 (dense): Expected dim 0 size 3, got 4");
    /* torch.sparse.mm(s, torch.ones(4,2,dtype=torch.float64)): the size first */
    CH04_FAILS_T(tc_sparse_mm(s, K(tc_ones(TC_SHAPE(4, 2), TC_FLOAT64))),
                 "addmm: Argument #3 (dense): Expected dim 0 size 3, got 4");
    /* torch.sparse.mm(s, torch.ones(3)), torch.sparse.mm(s, torch.ones(4)) */
    CH04_FAILS_T(tc_sparse_mm(s, K(tc_ones(TC_SHAPE(3), TC_FLOAT32))),
                 "Dimension out of range (expected to be in range of [-1, 0], but got 1)");
    CH04_FAILS_T(tc_sparse_mm(s, K(tc_ones(TC_SHAPE(4), TC_FLOAT32))),
                 "Dimension out of range (expected to be in range of [-1, 0], but got 1)");
    /* torch.sparse.mm(s1, torch.ones(2,2)) */
    CH04_FAILS_T(tc_sparse_mm(s1, K(tc_ones(TC_SHAPE(2, 2), TC_FLOAT32))),
                 "Dimension out of range (expected to be in range of [-1, 0], but got -2)");
}
END_TEST

START_TEST(test_mm_dtype_mismatch)
{
    tc_sparse *sd = ch04_coo(2, 4, CH04_I64(0, 1, 1, 0, 2, 0, 2, 2), TC_SHAPE(4), TC_FLOAT64,
                             CH04_F64(3, 4, 5, 6), CH04_SIZE(2, 3));

    /* torch.sparse.mm(s, torch.ones(3,2,dtype=torch.float64)) */
    CH04_FAILS_T(tc_sparse_mm(ch04_demo(), K(tc_ones(TC_SHAPE(3, 2), TC_FLOAT64))),
                 "expected scalar type Float but found Double");
    /* torch.sparse.mm(sd, torch.ones(3,2)) */
    CH04_FAILS_T(tc_sparse_mm(sd, K(tc_ones(TC_SHAPE(3, 2), TC_FLOAT32))),
                 "expected scalar type Double but found Float");
}
END_TEST

START_TEST(test_mm_dense_3d)
{
    /* torch.sparse.mm(s, torch.ones(3,2,2)) */
    CH04_FAILS_T(tc_sparse_mm(ch04_demo(), K(tc_ones(TC_SHAPE(3, 2, 2), TC_FLOAT32))),
                 "addmm: matrices expected, got 3D tensor");
}
END_TEST

START_TEST(test_mm_dense_0d)
{
    /* torch.sparse.mm(s, torch.tensor(1.)) */
    CH04_FAILS_T(tc_sparse_mm(ch04_demo(), K(tc_full(TC_SCALAR_SHAPE, 1.0, TC_FLOAT32))),
                 "Dimension specified as -1 but tensor has no dimensions");
}
END_TEST

START_TEST(test_mm_sparse_3d)
{
    /* s3 = torch.sparse_coo_tensor([[1],[0],[1]], [1.], (2,2,2)) */
    tc_sparse *s3 = ch04_coo(3, 1, CH04_I64(1, 0, 1), TC_SHAPE(1), TC_FLOAT32, CH04_F32(1),
                             CH04_SIZE(2, 2, 2));

    /* torch.sparse.mm(s3, torch.ones(2,2)) */
    CH04_FAILS_T(tc_sparse_mm(s3, K(tc_ones(TC_SHAPE(2, 2), TC_FLOAT32))),
                 "addmm: matrices expected, got 3D tensor");
}
END_TEST

START_TEST(test_mm_sparse_hybrid)
{
    /* h = torch.sparse_coo_tensor([[1,0,1]], [[1.,2.],[3.,4.],[5.,6.]], (3,2)) */
    tc_sparse *h = ch04_coo(1, 3, CH04_I64(1, 0, 1), TC_SHAPE(3, 2), TC_FLOAT32,
                            CH04_F32(1, 2, 3, 4, 5, 6), CH04_SIZE(3, 2));

    /* torch.sparse.mm(h, torch.ones(2,2)) */
    CH04_FAILS_T(tc_sparse_mm(h, K(tc_ones(TC_SHAPE(2, 2), TC_FLOAT32))),
                 "addmm: matrices expected, got 1D tensor");
}
END_TEST

/* -------------------------------------------------------------------- repr */

START_TEST(test_repr_demo_and_coalesced)
{
    tc_sparse *s = ch04_demo();

    /* repr(s) */
    ch04_expect_repr(s, "tensor(indices=tensor([[0, 1, 1, 0],\n"
                        "                       [2, 0, 2, 2]]),\n"
                        "       values=tensor([3., 4., 5., 6.]),\n"
                        "       size=(2, 3), nnz=4, layout=torch.sparse_coo)");
    /* repr(s.coalesce()) */
    ch04_expect_repr(ch04_s(tc_sparse_coalesce(s)),
                     "tensor(indices=tensor([[0, 1, 1],\n"
                     "                       [2, 0, 2]]),\n"
                     "       values=tensor([9., 4., 5.]),\n"
                     "       size=(2, 3), nnz=3, layout=torch.sparse_coo)");
}
END_TEST

START_TEST(test_repr_hybrid_and_dtypes)
{
    /* repr(torch.sparse_coo_tensor([[1,0,1]], [[1.,2.],[3.,4.],[5.,6.]], (3,2))) */
    ch04_expect_repr(ch04_coo(1, 3, CH04_I64(1, 0, 1), TC_SHAPE(3, 2), TC_FLOAT32,
                              CH04_F32(1, 2, 3, 4, 5, 6), CH04_SIZE(3, 2)),
                     "tensor(indices=tensor([[1, 0, 1]]),\n"
                     "       values=tensor([[1., 2.],\n"
                     "                      [3., 4.],\n"
                     "                      [5., 6.]]),\n"
                     "       size=(3, 2), nnz=3, layout=torch.sparse_coo)");
    /* repr(sd) */
    ch04_expect_repr(ch04_coo(2, 4, CH04_I64(0, 1, 1, 0, 2, 0, 2, 2), TC_SHAPE(4), TC_FLOAT64,
                              CH04_F64(3, 4, 5, 6), CH04_SIZE(2, 3)),
                     "tensor(indices=tensor([[0, 1, 1, 0],\n"
                     "                       [2, 0, 2, 2]]),\n"
                     "       values=tensor([3., 4., 5., 6.]),\n"
                     "       size=(2, 3), nnz=4, dtype=torch.float64, layout=torch.sparse_coo)");
    /* repr(torch.sparse_coo_tensor([[0,1,0]], torch.tensor([True,False,True]), (2,))) */
    ch04_expect_repr(ch04_coo(1, 3, CH04_I64(0, 1, 0), TC_SHAPE(3), TC_BOOL,
                              CH04_BOOL(true, false, true), CH04_SIZE(2)),
                     "tensor(indices=tensor([[0, 1, 0]]),\n"
                     "       values=tensor([ True, False,  True]),\n"
                     "       size=(2,), nnz=3, layout=torch.sparse_coo)");
    /* repr(torch.sparse_coo_tensor(s's indices, torch.tensor([3,4,5,-6]), (2,3))) */
    ch04_expect_repr(ch04_coo(2, 4, CH04_I64(0, 1, 1, 0, 2, 0, 2, 2), TC_SHAPE(4), TC_INT64,
                              CH04_I64(3, 4, 5, -6), CH04_SIZE(2, 3)),
                     "tensor(indices=tensor([[0, 1, 1, 0],\n"
                     "                       [2, 0, 2, 2]]),\n"
                     "       values=tensor([ 3,  4,  5, -6]),\n"
                     "       size=(2, 3), nnz=4, layout=torch.sparse_coo)");
    /* repr(torch.sparse_coo_tensor([[1,0],[0,2]], torch.tensor([[1.5,2.],[3.,4.]],
       dtype=torch.float64), (2,3,2))) */
    ch04_expect_repr(ch04_coo(2, 2, CH04_I64(1, 0, 0, 2), TC_SHAPE(2, 2), TC_FLOAT64,
                              CH04_F64(1.5, 2, 3, 4), CH04_SIZE(2, 3, 2)),
                     "tensor(indices=tensor([[1, 0],\n"
                     "                       [0, 2]]),\n"
                     "       values=tensor([[1.5000, 2.0000],\n"
                     "                      [3.0000, 4.0000]]),\n"
                     "       size=(2, 3, 2), nnz=2, dtype=torch.float64, "
                     "layout=torch.sparse_coo)");
    /* repr(torch.sparse_coo_tensor([[0,10,1,0],[2,0,200,2]], [0.5,4.,5.,6.], (20,300))) */
    ch04_expect_repr(ch04_coo(2, 4, CH04_I64(0, 10, 1, 0, 2, 0, 200, 2), TC_SHAPE(4), TC_FLOAT32,
                              CH04_F32(0.5f, 4, 5, 6), CH04_SIZE(20, 300)),
                     "tensor(indices=tensor([[  0,  10,   1,   0],\n"
                     "                       [  2,   0, 200,   2]]),\n"
                     "       values=tensor([0.5000, 4.0000, 5.0000, 6.0000]),\n"
                     "       size=(20, 300), nnz=4, layout=torch.sparse_coo)");
}
END_TEST

START_TEST(test_repr_wrapping)
{
    const int64_t idx[12] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11 };
    float v[12];

    for (int k = 0; k < 12; k++)
        v[k] = (float)k * 1.1f;
    /* repr(torch.sparse_coo_tensor([list(range(12))], torch.arange(12.)*1.1, (12,))) */
    ch04_expect_repr(ch04_coo(1, 12, idx, TC_SHAPE(12), TC_FLOAT32, v, CH04_SIZE(12)),
                     "tensor(indices=tensor([[ 0,  1,  2,  3,  4,  5,  6,  7,  8,  9, 10, 11]]),\n"
                     "       values=tensor([ 0.0000,  1.1000,  2.2000,  3.3000,  4.4000,  5.5000,\n"
                     "                       6.6000,  7.7000,  8.8000,  9.9000, 11.0000, 12.1000]),\n"
                     "       size=(12,), nnz=12, layout=torch.sparse_coo)");
}
END_TEST

START_TEST(test_repr_empty)
{
    /* repr(e) */
    ch04_expect_repr(ch04_empty(TC_FLOAT32),
                     "tensor(indices=tensor([], size=(2, 0)),\n"
                     "       values=tensor([], size=(0,)),\n"
                     "       size=(2, 3), nnz=0, layout=torch.sparse_coo)");
    /* the float64 one */
    ch04_expect_repr(ch04_empty(TC_FLOAT64),
                     "tensor(indices=tensor([], size=(2, 0)),\n"
                     "       values=tensor([], size=(0,)),\n"
                     "       size=(2, 3), nnz=0, dtype=torch.float64, layout=torch.sparse_coo)");
    /* repr(torch.sparse_coo_tensor(torch.zeros(1,0,dtype=torch.long), torch.zeros(0,2), (2,2))) */
    ch04_expect_repr(ch04_coo(1, 0, CH04_I64(0), TC_SHAPE(0, 2), TC_FLOAT32, CH04_F32(0),
                              CH04_SIZE(2, 2)),
                     "tensor(indices=tensor([], size=(1, 0)),\n"
                     "       values=tensor([], size=(0, 2)),\n"
                     "       size=(2, 2), nnz=0, layout=torch.sparse_coo)");
    /* repr(torch.sparse_coo_tensor(torch.zeros(2,0,dtype=torch.long), torch.zeros(0))) */
    ch04_expect_repr(ch04_coo(2, 0, CH04_I64(0), TC_SHAPE(0), TC_FLOAT32, CH04_F32(0), NULL),
                     "tensor(indices=tensor([], size=(2, 0)),\n"
                     "       values=tensor([], size=(0,)),\n"
                     "       size=(0, 0), nnz=0, layout=torch.sparse_coo)");
    /* repr(torch.tensor(5.).to_sparse()) */
    ch04_expect_repr(ch04_s(tc_to_sparse(K(tc_full(TC_SCALAR_SHAPE, 5.0, TC_FLOAT32)), -1)),
                     "tensor(indices=tensor([], size=(0, 1)),\n"
                     "       values=tensor([5.]),\n"
                     "       size=(), nnz=1, layout=torch.sparse_coo)");
}
END_TEST

START_TEST(test_repr_print)
{
    FILE *f = tmpfile();
    char buf[512] = { 0 };
    size_t n;
    const char *expected = "tensor(indices=tensor([[0, 1, 1, 0],\n"
                           "                       [2, 0, 2, 2]]),\n"
                           "       values=tensor([3., 4., 5., 6.]),\n"
                           "       size=(2, 3), nnz=4, layout=torch.sparse_coo)\n";

    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(tc_sparse_print(f, ch04_demo()), 0);
    rewind(f);
    n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    ck_assert_uint_eq(n, strlen(expected));
    ck_assert_str_eq(buf, expected);
}
END_TEST

/* ------------------------------------------------------------------- bytes */

START_TEST(test_bytes_nbytes)
{
    const int64_t n = 10000;
    int64_t *idx = malloc((size_t)(2 * n) * sizeof *idx);
    float *vals = malloc((size_t)n * sizeof *vals);
    tc_sparse *big;

    ck_assert(idx != NULL && vals != NULL);
    /* s: 2 x 4 indices of 8 bytes + 4 float32 values = 64 + 16 */
    ck_assert_uint_eq(tc_sparse_nbytes(ch04_demo()), 80);
    /* s.coalesce(): 2 x 3 x 8 + 3 x 4 = 48 + 12 */
    ck_assert_uint_eq(tc_sparse_nbytes(ch04_s(tc_sparse_coalesce(ch04_demo()))), 60);
    /* sd: 64 + 4 x 8 */
    ck_assert_uint_eq(tc_sparse_nbytes(ch04_coo(2, 4, CH04_I64(0, 1, 1, 0, 2, 0, 2, 2),
                                                TC_SHAPE(4), TC_FLOAT64, CH04_F64(3, 4, 5, 6),
                                                CH04_SIZE(2, 3))), 96);
    /* hybrid: 1 x 3 x 8 + 3 x 2 x 4 = 24 + 24 */
    ck_assert_uint_eq(tc_sparse_nbytes(ch04_coo(1, 3, CH04_I64(1, 0, 1), TC_SHAPE(3, 2),
                                                TC_FLOAT32, CH04_F32(1, 2, 3, 4, 5, 6),
                                                CH04_SIZE(3, 2))), 48);
    /* e: nothing stored */
    ck_assert_uint_eq(tc_sparse_nbytes(ch04_empty(TC_FLOAT32)), 0);
    /* a 1000 x 1000 float32 matrix at 1%: 10000 x (16 + 4) = 200000 bytes, against
       4000000 dense */
    for (int64_t k = 0; k < n; k++) {
        idx[k] = k / 10;
        idx[n + k] = (k % 10) * 100;
        vals[k] = 1.0f;
    }
    big = ch04_coo(2, n, idx, TC_SHAPE(n), TC_FLOAT32, vals, CH04_SIZE(1000, 1000));
    free(idx);
    free(vals);
    ck_assert_uint_eq(tc_sparse_nbytes(big), 200000);
    ck_assert_int_eq(1000 * 1000 * (int64_t)sizeof(float), 4000000);
}
END_TEST

START_TEST(test_bytes_break_even)
{
    char text[32];

    /* float32 matrix: 4 / (2*8 + 4) = 20% */
    ck_assert(tc_sparse_break_even_density(2, 1, sizeof(float)) == 0.2);
    /* float64 matrix: 8 / (2*8 + 8) = 1/3 */
    ck_assert(tc_sparse_break_even_density(2, 1, sizeof(double)) == 1.0 / 3.0);
    /* rows of 64 float32, sparse_dim 1: 256 / (8 + 256) = 32/33 */
    ck_assert(tc_sparse_break_even_density(1, 64, sizeof(float)) == 32.0 / 33.0);
    snprintf(text, sizeof text, "%.0f%% %.0f%% %.0f%%",
             100 * tc_sparse_break_even_density(2, 1, sizeof(float)),
             100 * tc_sparse_break_even_density(2, 1, sizeof(double)),
             100 * tc_sparse_break_even_density(1, 64, sizeof(float)));
    ck_assert_str_eq(text, "20% 33% 97%");
    /* a 3-D float64 tensor: 8 / (3*8 + 8) = 25% */
    ck_assert(tc_sparse_break_even_density(3, 1, sizeof(double)) == 0.25);
}
END_TEST

/* -------------------------------------------------------------- huge sizes */

/* Issue 15, finding 2: sizes near 2^63 and 2^64. PyTorch refuses a sparse
   tensor whose sizes' product, taken left to right in 64 unsigned bits,
   overflows or ends above INT64_MAX ("numel: integer multiplication
   overflow"); with a zero dense size the product of the sparse sizes alone
   may still pass 2^63 and come close to 2^64, where signed linear keys
   wrap. */
#define CH04_NUMEL_OVERFLOW "numel: integer multiplication overflow"
#define CH04_2P31 ((int64_t)1 << 31)
#define CH04_2P32 ((int64_t)1 << 32)
#define CH04_2P62 ((int64_t)1 << 62)

START_TEST(test_huge_inferred_size)
{
    /* torch.sparse_coo_tensor([[2**63-2]], [1.]).shape == (2**63-1,) */
    tc_sparse *s = ch04_coo(1, 1, CH04_I64(INT64_MAX - 1), TC_SHAPE(1), TC_FLOAT32,
                            CH04_F32(1), NULL);

    ch04_expect_shape(s, 1, CH04_I64(INT64_MAX), 1);
    /* torch.sparse_coo_tensor([[2**63-1]], [1.]): numel: integer multiplication overflow
       (the inferred size, max + 1, does not fit) */
    ck_assert_ptr_null(ch04_coo(1, 1, CH04_I64(INT64_MAX), TC_SHAPE(1), TC_FLOAT32,
                                CH04_F32(1), NULL));
    ch04_error_is(CH04_NUMEL_OVERFLOW);
    /* torch.sparse_coo_tensor([[2**63-1],[0]], [1.]): the same */
    ck_assert_ptr_null(ch04_coo(2, 1, CH04_I64(INT64_MAX, 0), TC_SHAPE(1), TC_FLOAT32,
                                CH04_F32(1), NULL));
    ch04_error_is(CH04_NUMEL_OVERFLOW);
}
END_TEST

START_TEST(test_huge_numel_refused)
{
    /* torch.sparse_coo_tensor([[0],[0]], [1.], (2**32, 2**31)): numel overflow (2^63) */
    ck_assert_ptr_null(ch04_coo(2, 1, CH04_I64(0, 0), TC_SHAPE(1), TC_FLOAT32, CH04_F32(1),
                                CH04_SIZE(CH04_2P32, CH04_2P31)));
    ch04_error_is(CH04_NUMEL_OVERFLOW);
    /* ... (2**32, 2**32, 0), with values zeros(1, 0): overflow before the 0 */
    ck_assert_ptr_null(ch04_coo(2, 1, CH04_I64(0, 0), TC_SHAPE(1, 0), TC_FLOAT32, CH04_F32(0),
                                CH04_SIZE(CH04_2P32, CH04_2P32, 0)));
    ch04_error_is(CH04_NUMEL_OVERFLOW);
    /* ... (2**32 + 1, 2**32, 0) and (2, 2**32, 2**32, 0): the same */
    ck_assert_ptr_null(ch04_coo(2, 1, CH04_I64(0, 0), TC_SHAPE(1, 0), TC_FLOAT32, CH04_F32(0),
                                CH04_SIZE(CH04_2P32 + 1, CH04_2P32, 0)));
    ch04_error_is(CH04_NUMEL_OVERFLOW);
    ck_assert_ptr_null(ch04_coo(3, 1, CH04_I64(0, 0, 0), TC_SHAPE(1, 0), TC_FLOAT32,
                                CH04_F32(0), CH04_SIZE(2, CH04_2P32, CH04_2P32, 0)));
    ch04_error_is(CH04_NUMEL_OVERFLOW);
    /* the other side: (2**32, 2**31 - 1), (2**32, 2**31, 0) and, with no entry,
       (0, 2**63-1, 2**63-1) are tensors */
    ck_assert_ptr_nonnull(ch04_coo(2, 1, CH04_I64(0, 0), TC_SHAPE(1), TC_FLOAT32, CH04_F32(1),
                                   CH04_SIZE(CH04_2P32, CH04_2P31 - 1)));
    ck_assert_ptr_nonnull(ch04_coo(2, 1, CH04_I64(0, 0), TC_SHAPE(1, 0), TC_FLOAT32,
                                   CH04_F32(0), CH04_SIZE(CH04_2P32, CH04_2P31, 0)));
    ck_assert_ptr_nonnull(ch04_coo(3, 0, CH04_I64(0), TC_SHAPE(0), TC_FLOAT32, CH04_F32(0),
                                   CH04_SIZE(0, INT64_MAX, INT64_MAX)));
}
END_TEST

START_TEST(test_huge_coalesce_below_2_63)
{
    /* torch.sparse_coo_tensor([[2**63-2,0,2**63-2,5]], [1.,2,3,4], (2**63-1,)).coalesce():
       [[0,5,2**63-2]], [2.,4.,4.] */
    tc_sparse *s = ch04_coo(1, 4, CH04_I64(INT64_MAX - 1, 0, INT64_MAX - 1, 5), TC_SHAPE(4),
                            TC_FLOAT32, CH04_F32(1, 2, 3, 4), CH04_SIZE(INT64_MAX));
    /* ... the same with a second sparse dim of size 1: [[0,5,2**63-2],[0,0,0]] */
    tc_sparse *t = ch04_coo(2, 4, CH04_I64(INT64_MAX - 1, 0, INT64_MAX - 1, 5, 0, 0, 0, 0),
                            TC_SHAPE(4), TC_FLOAT32, CH04_F32(1, 2, 3, 4),
                            CH04_SIZE(INT64_MAX, 1));
    /* i = [[2**32-1,0,1,2**32-1],[2**31-1,5,0,2**31-1]], values zeros(4, 0),
       size (2**32, 2**31, 0): keys up to 2^63 - 1; coalesce() gives
       [[0,1,2**32-1],[5,0,2**31-1]] */
    tc_sparse *u = ch04_coo(2, 4, CH04_I64(CH04_2P32 - 1, 0, 1, CH04_2P32 - 1,
                                           CH04_2P31 - 1, 5, 0, CH04_2P31 - 1),
                            TC_SHAPE(4, 0), TC_FLOAT32, CH04_F32(0),
                            CH04_SIZE(CH04_2P32, CH04_2P31, 0));

    ch04_expect_lists(ch04_s(tc_sparse_coalesce(s)), 3, CH04_I64(0, 5, INT64_MAX - 1),
                      TC_FLOAT32, CH04_VALS(2, 4, 4), true);
    ch04_expect_lists(ch04_s(tc_sparse_coalesce(t)), 3,
                      CH04_I64(0, 5, INT64_MAX - 1, 0, 0, 0), TC_FLOAT32,
                      CH04_VALS(2, 4, 4), true);
    ch04_expect_lists(ch04_s(tc_sparse_coalesce(u)), 3,
                      CH04_I64(0, 1, CH04_2P32 - 1, 5, 0, CH04_2P31 - 1), TC_FLOAT32,
                      CH04_VALS(0), true);
}
END_TEST

START_TEST(test_huge_coalesce_keys_past_2_63)
{
    /* Keys with the top bit set: PyTorch 1.13 accepts these tensors but its
       signed keys wrap, so its coalesce() puts (2, 0) first:
       [[2,0,1],[0,5,0]] for s, [[2**32-2,0,1],[2**32,3,0]] for t. The
       order by coordinates, worked out by hand, is below. */
    /* s: i = [[2,0,1,2,0],[0,5,0,0,5]], zeros(5, 0), size (3, 2**62, 0) */
    tc_sparse *s = ch04_coo(2, 5, CH04_I64(2, 0, 1, 2, 0, 0, 5, 0, 0, 5), TC_SHAPE(5, 0),
                            TC_FLOAT32, CH04_F32(0), CH04_SIZE(3, CH04_2P62, 0));
    /* t: i = [[2**32-2,0,2**32-2,1],[2**32,3,2**32,0]], zeros(4, 0),
       size (2**32-1, 2**32+1, 0): the sparse sizes' product is 2^64 - 1 */
    tc_sparse *t = ch04_coo(2, 4, CH04_I64(CH04_2P32 - 2, 0, CH04_2P32 - 2, 1,
                                           CH04_2P32, 3, CH04_2P32, 0),
                            TC_SHAPE(4, 0), TC_FLOAT32, CH04_F32(0),
                            CH04_SIZE(CH04_2P32 - 1, CH04_2P32 + 1, 0));

    ch04_expect_lists(ch04_s(tc_sparse_coalesce(s)), 3, CH04_I64(0, 1, 2, 5, 0, 0),
                      TC_FLOAT32, CH04_VALS(0), true);
    ch04_expect_lists(ch04_s(tc_sparse_coalesce(t)), 3,
                      CH04_I64(0, 1, CH04_2P32 - 2, 3, 0, CH04_2P32), TC_FLOAT32,
                      CH04_VALS(0), true);
}
END_TEST

START_TEST(test_huge_to_dense_empty)
{
    /* torch.sparse_coo_tensor([[1],[2]], zeros(1, 0), (2**32, 2**31, 0)).to_dense():
       shape (2**32, 2**31, 0) */
    tc_sparse *s = ch04_coo(2, 1, CH04_I64(1, 2), TC_SHAPE(1, 0), TC_FLOAT32, CH04_F32(0),
                            CH04_SIZE(CH04_2P32, CH04_2P31, 0));

    ch04_expect_dense(K(tc_sparse_to_dense(s)), TC_FLOAT32, 3,
                      CH04_I64(CH04_2P32, CH04_2P31, 0), CH04_VALS(0));
}
END_TEST

START_TEST(test_huge_to_sparse_empty_dense_dim)
{
    /* torch.zeros(2**40, 0).to_sparse(1): indices (1, 0), values (0, 0), nnz 0 */
    tc_tensor *wide = K(tc_zeros(TC_SHAPE((int64_t)1 << 40, 0), TC_FLOAT32));
    /* torch.zeros(2**32, 2**31, 0).to_sparse(2) and .to_sparse(): indices (2, 0)
       and (3, 0), values (0, 0) and (0,) */
    tc_tensor *deep = K(tc_zeros(TC_SHAPE(CH04_2P32, CH04_2P31, 0), TC_FLOAT32));
    tc_sparse *a = ch04_s(tc_to_sparse(wide, 1));
    tc_sparse *b = ch04_s(tc_to_sparse(deep, 2));
    tc_sparse *c = ch04_s(tc_to_sparse(deep, -1));

    ch04_expect_shape(a, 2, CH04_I64((int64_t)1 << 40, 0), 1);
    ch04_expect_lists(a, 0, CH04_I64(0), TC_FLOAT32, CH04_VALS(0), true);
    ch04_expect_shape(b, 3, CH04_I64(CH04_2P32, CH04_2P31, 0), 2);
    ch04_expect_lists(b, 0, CH04_I64(0), TC_FLOAT32, CH04_VALS(0), true);
    ch04_expect_shape(c, 3, CH04_I64(CH04_2P32, CH04_2P31, 0), 3);
    ch04_expect_lists(c, 0, CH04_I64(0), TC_FLOAT32, CH04_VALS(0), true);
}
END_TEST

START_TEST(test_huge_sum_dims)
{
    tc_sparse *s = ch04_coo(2, 1, CH04_I64(1, 2), TC_SHAPE(1, 0), TC_FLOAT32, CH04_F32(0),
                            CH04_SIZE(CH04_2P32, CH04_2P31, 0));

    /* torch.sparse.sum(s, 0): [[2]], size (2**31, 0), nnz 1 */
    tc_sparse *r = ch04_s(tc_sparse_sum_dims(s, TC_DIMS(0)));
    ch04_expect_shape(r, 2, CH04_I64(CH04_2P31, 0), 1);
    ch04_expect_lists(r, 1, CH04_I64(2), TC_FLOAT32, CH04_VALS(0), true);
    /* torch.sparse.sum(s, 2): numel: integer multiplication overflow (2^63) */
    CH04_FAILS_S(tc_sparse_sum_dims(s, TC_DIMS(2)), CH04_NUMEL_OVERFLOW);
    /* Found by fuzz_sparse: summing the dense dims of an empty hybrid tensor.
       torch.sparse.sum(torch.sparse_coo_tensor(torch.zeros(1,0,dtype=torch.long),
       torch.zeros(0,2**63-1,3), (0,2**63-1,3)), (1,2)): indices (1, 0), values (0,),
       size (0,), nnz 0 */
    r = ch04_s(tc_sparse_sum_dims(ch04_coo(1, 0, CH04_I64(0), TC_SHAPE(0, INT64_MAX, 3),
                                           TC_FLOAT32, CH04_F32(0),
                                           CH04_SIZE(0, INT64_MAX, 3)),
                                  TC_DIMS(1, 2)));
    ch04_expect_shape(r, 1, CH04_I64(0), 1);
    ch04_expect_lists(r, 0, CH04_I64(0), TC_FLOAT32, CH04_VALS(0), true);
}
END_TEST

/* ---------------------------------------- issue 15: dim counts and NULL */

/* Finding 4: tc_sparse_mul_number(s, NULL) returned NULL and recorded
   nothing; tc_sparse_nnz(NULL) dereferenced NULL. The NULL rule of
   chapter 1: the failure value (NULL, -1, 0) and a message. */
START_TEST(test_null_rule_sparse)
{
    tc_sparse *s = ch04_demo();    /* released by the fixture */

    CH04_FAILS_S(tc_sparse_mul_number(s, NULL), "tc: NULL argument, but no earlier call failed");
    tc_clear_error();
    ck_assert_int_eq(tc_sparse_nnz(NULL), -1);
    ch04_error_is("tc: NULL argument, but no earlier call failed");
    ck_assert_uint_eq(tc_sparse_nbytes(NULL), 0);
    ch04_error_is("tc: NULL argument, but no earlier call failed");
    /* an earlier failure's message is kept */
    tc_fail("earlier");
    ck_assert_ptr_null(tc_sparse_mul_number(s, NULL));
    ch04_error_is("earlier");
}
END_TEST

/* Finding 3: a size or dims list with a bad count is refused before any
   entry is read (library messages: Python has no negative-length list). */
START_TEST(test_dim_count_sparse)
{
    tc_sparse *s = ch04_demo();    /* released by the fixture */
    tc_tensor *indices = ch04_dense(TC_SHAPE(2, 1), TC_INT64, CH04_I64(0, 0));
    tc_tensor *values = ch04_dense(TC_SHAPE(1), TC_FLOAT32, CH04_F32(1));
    tc_shape above = { .dim = TC_MAX_DIMS + 1 }, negative = { .dim = -1 };

    CH04_FAILS_S(tc_sparse_coo_tensor(indices, values, &above),
                 "tc: a tensor has at most 16 dimensions, got 17");
    CH04_FAILS_S(tc_sparse_coo_tensor(indices, values, &negative),
                 "tc: a number of dimensions cannot be negative, got -1");
    CH04_FAILS_S(tc_sparse_sum_dims(s, above), "tc: a tensor has at most 16 dimensions, got 17");
    CH04_FAILS_S(tc_sparse_sum_dims(s, negative),
                 "tc: a number of dimensions cannot be negative, got -1");
}
END_TEST

/* ------------------------------------------------------------------ suite */

Suite *suite_ch04(void)
{
    Suite *s = suite_create("ch04");
    TCase *tc;

    tc = testing_tcase("issue 15: dim counts, NULL", ch04_setup, ch04_teardown);
    tcase_add_test(tc, test_null_rule_sparse);
    tcase_add_test(tc, test_dim_count_sparse);
    suite_add_tcase(s, tc);

    tc = testing_tcase("construction", ch04_setup, ch04_teardown);
    tcase_add_test(tc, test_construct_with_size);
    tcase_add_test(tc, test_construct_inferred_size);
    tcase_add_test(tc, test_construct_float_indices);
    tcase_add_test(tc, test_construct_noncontiguous_values);
    tcase_add_test(tc, test_construct_coalesced_flag);
    tcase_add_test(tc, test_construct_zero_dim_values);
    tcase_add_test(tc, test_construct_errors);
    tcase_add_test(tc, test_construct_error_order_passes);
    tcase_add_test(tc, test_construct_order_dims_before_nnz);
    tcase_add_test(tc, test_construct_order_indices_before_nnz);
    tcase_add_test(tc, test_construct_order_indices_before_values_size);
    tcase_add_test(tc, test_construct_null_propagation);
    tcase_add_test(tc, test_construct_refcount);
    suite_add_tcase(s, tc);

    tc = testing_tcase("accessors", ch04_setup, ch04_teardown);
    tcase_add_test(tc, test_accessors_raw);
    tcase_add_test(tc, test_accessors_refuse_uncoalesced);
    tcase_add_test(tc, test_accessors_dims_and_nnz);
    suite_add_tcase(s, tc);

    tc = testing_tcase("coalesce", ch04_setup, ch04_teardown);
    tcase_add_test(tc, test_coalesce_sums_duplicates);
    tcase_add_test(tc, test_coalesce_sums_in_order);
    tcase_add_test(tc, test_coalesce_unsorted);
    tcase_add_test(tc, test_coalesce_keeps_minus_zero);
    tcase_add_test(tc, test_coalesce_same_object);
    tcase_add_test(tc, test_coalesce_empty_uncoalesced);
    tcase_add_test(tc, test_coalesce_no_sparse_dims);
    tcase_add_test(tc, test_coalesce_hybrid);
    tcase_add_test(tc, test_coalesce_dims_and_dtypes);
    tcase_add_test(tc, test_coalesce_int64_exact);
    tcase_add_test(tc, test_coalesce_keeps_explicit_zeros);
    tcase_add_test(tc, test_coalesce_lexicographic);
    tcase_add_test(tc, test_coalesce_property_random);
    tcase_add_test(tc, test_coalesce_large_three_passes);
    tcase_add_test(tc, test_coalesce_large_other_pass_counts);
    suite_add_tcase(s, tc);

    tc = testing_tcase("to_dense and to_sparse", ch04_setup, ch04_teardown);
    tcase_add_test(tc, test_to_dense);
    tcase_add_test(tc, test_to_sparse_full);
    tcase_add_test(tc, test_to_sparse_hybrid);
    tcase_add_test(tc, test_to_sparse_special_inputs);
    tcase_add_test(tc, test_to_sparse_round_trips);
    tcase_add_test(tc, test_to_sparse_errors);
    tcase_add_test(tc, test_to_sparse_nonpositive_sparse_dim);
    suite_add_tcase(s, tc);

    tc = testing_tcase("addition", ch04_setup, ch04_teardown);
    tcase_add_test(tc, test_add_merge_walk_uncoalesced);
    tcase_add_test(tc, test_add_one_coalesced);
    tcase_add_test(tc, test_add_both_coalesced);
    tcase_add_test(tc, test_add_self);
    tcase_add_test(tc, test_add_promotion);
    tcase_add_test(tc, test_add_hybrid_and_empty);
    tcase_add_test(tc, test_add_size_mismatch);
    tcase_add_test(tc, test_add_density_mismatch);
    tcase_add_test(tc, test_add_empty_other_density);
    suite_add_tcase(s, tc);

    tc = testing_tcase("multiplication by numbers", ch04_setup, ch04_teardown);
    tcase_add_test(tc, test_mul_scalar);
    tcase_add_test(tc, test_mul_zero_dim_tensor);
    suite_add_tcase(s, tc);

    tc = testing_tcase("sums", ch04_setup, ch04_teardown);
    tcase_add_test(tc, test_sum_all);
    tcase_add_test(tc, test_sum_all_coalesces_first);
    tcase_add_test(tc, test_sum_all_bool_coalesces_first);
    tcase_add_test(tc, test_sum_dims_matrix);
    tcase_add_test(tc, test_sum_dims_empty);
    tcase_add_test(tc, test_sum_dims_hybrid);
    tcase_add_test(tc, test_sum_dims_errors);
    suite_add_tcase(s, tc);

    tc = testing_tcase("transpose", ch04_setup, ch04_teardown);
    tcase_add_test(tc, test_transpose_lists);
    tcase_add_test(tc, test_transpose_one_entry_uncoalesced);
    tcase_add_test(tc, test_transpose_same_dim_keeps_coalesced);
    tcase_add_test(tc, test_transpose_errors);
    suite_add_tcase(s, tc);

    tc = testing_tcase("sparse.mm", ch04_setup, ch04_teardown);
    tcase_add_test(tc, test_mm_values);
    tcase_add_test(tc, test_mm_no_columns);
    tcase_add_test(tc, test_mm_float64_and_int64);
    tcase_add_test(tc, test_mm_errors);
    tcase_add_test(tc, test_mm_dtype_mismatch);
    tcase_add_test(tc, test_mm_dense_3d);
    tcase_add_test(tc, test_mm_dense_0d);
    tcase_add_test(tc, test_mm_sparse_3d);
    tcase_add_test(tc, test_mm_sparse_hybrid);
    suite_add_tcase(s, tc);

    tc = testing_tcase("printing", ch04_setup, ch04_teardown);
    tcase_add_test(tc, test_repr_demo_and_coalesced);
    tcase_add_test(tc, test_repr_hybrid_and_dtypes);
    tcase_add_test(tc, test_repr_wrapping);
    tcase_add_test(tc, test_repr_empty);
    tcase_add_test(tc, test_repr_print);
    suite_add_tcase(s, tc);

    tc = testing_tcase("bytes", ch04_setup, ch04_teardown);
    tcase_add_test(tc, test_bytes_nbytes);
    tcase_add_test(tc, test_bytes_break_even);
    suite_add_tcase(s, tc);

    tc = testing_tcase("huge sizes", ch04_setup, ch04_teardown);
    tcase_add_test(tc, test_huge_inferred_size);
    tcase_add_test(tc, test_huge_numel_refused);
    tcase_add_test(tc, test_huge_coalesce_below_2_63);
    tcase_add_test(tc, test_huge_coalesce_keys_past_2_63);
    tcase_add_test(tc, test_huge_to_dense_empty);
    tcase_add_test(tc, test_huge_to_sparse_empty_dense_dim);
    tcase_add_test(tc, test_huge_sum_dims);
    suite_add_tcase(s, tc);

    return s;
}
