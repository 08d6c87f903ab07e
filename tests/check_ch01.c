/* check_ch01.c: the Check suite of chapter 1 (storage, tensors, errors,
   constructors, elements, view, add_scalar, printing).

   Every expected value below was obtained from PyTorch 1.13
   (/usr/bin/python3 -c "import torch; ..."), not from this library; the
   comment next to a literal names the Python expression that produced it.
   A few messages are the library's own (no PyTorch counterpart) and are
   marked "library message". */
#include <check.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tc.h"
#include "testing.h"

/* ------------------------------------------------------------------ helpers */

/* 1-D tensors from literal lists, and n-D ones from a shape and a list. */
#define F32V(...)                                                          \
    tc_from_data(TC_SHAPE((int64_t)(sizeof((const float[]){ __VA_ARGS__ }) / \
                                    sizeof(float))),                       \
                 TC_FLOAT32, (const float[]){ __VA_ARGS__ })
#define F64V(...)                                                          \
    tc_from_data(TC_SHAPE((int64_t)(sizeof((const double[]){ __VA_ARGS__ }) / \
                                    sizeof(double))),                      \
                 TC_FLOAT64, (const double[]){ __VA_ARGS__ })
#define I64V(...)                                                          \
    tc_from_data(TC_SHAPE((int64_t)(sizeof((const int64_t[]){ __VA_ARGS__ }) / \
                                    sizeof(int64_t))),                     \
                 TC_INT64, (const int64_t[]){ __VA_ARGS__ })
#define F32S(shape, ...) tc_from_data(shape, TC_FLOAT32, (const float[]){ __VA_ARGS__ })

/* The recorded message is exactly `expected`. */
#define ASSERT_ERROR(expected)                                             \
    do {                                                                   \
        const char *e_ = tc_error();                                       \
        ck_assert_ptr_nonnull(e_);                                         \
        ck_assert_str_eq(e_, expected);                                    \
    } while (0)

/* A tensor-returning call fails with exactly `expected`. */
#define ASSERT_FAILS(call, expected)                                       \
    do {                                                                   \
        tc_tensor *r_;                                                     \
        tc_clear_error();                                                  \
        r_ = (call);                                                       \
        ck_assert_ptr_null(r_);                                            \
        ASSERT_ERROR(expected);                                            \
        tc_clear_error();                                                  \
    } while (0)

/* An int-returning call (tc_get/tc_set) fails with exactly `expected`. */
#define ASSERT_FAILS_INT(call, expected)                                   \
    do {                                                                   \
        tc_clear_error();                                                  \
        ck_assert_int_eq((call), -1);                                      \
        ASSERT_ERROR(expected);                                            \
        tc_clear_error();                                                  \
    } while (0)

/* repr(t) is exactly `expected`; t (an owned reference) is released. */
#define ASSERT_REPR(tensor, expected)                                      \
    do {                                                                   \
        tc_tensor *t_ = (tensor);                                          \
        char *s_;                                                          \
        ck_assert_ptr_nonnull(t_);                                         \
        s_ = tc_repr(t_);                                                  \
        ck_assert_ptr_nonnull(s_);                                         \
        ck_assert_str_eq(s_, expected);                                    \
        free(s_);                                                          \
        tc_release(t_);                                                    \
    } while (0)

static int64_t get_int64(const tc_tensor *t, const int64_t *index)
{
    int64_t v = -12345;

    ck_assert_int_eq(tc_get_int64(t, index, &v), 0);
    return v;
}

/* -------------------------------------------------------------- errors */

START_TEST(test_error_none_at_start)
{
    ck_assert_ptr_null(tc_error());
    tc_fail("first %d", 1);
    ck_assert_ptr_nonnull(tc_error());
    tc_clear_error();
    ck_assert_ptr_null(tc_error());
}
END_TEST

START_TEST(test_error_fail_formats_and_returns_null)
{
    /* tc_fail is printf-like and returns NULL for `return tc_fail(...)`. */
    ck_assert_ptr_null(tc_fail("index %lld of %s", 7LL, "x"));
    ASSERT_ERROR("index 7 of x");
}
END_TEST

START_TEST(test_error_negative_dimension)
{
    /* torch.empty(-1, 2) */
    ASSERT_FAILS(tc_empty(TC_SHAPE(-1, 2), TC_FLOAT32),
                 "Trying to create tensor with negative dimension -1: [-1, 2]");
    /* torch.empty(2, -3, 4) */
    ASSERT_FAILS(tc_zeros(TC_SHAPE(2, -3, 4), TC_INT64),
                 "Trying to create tensor with negative dimension -3: [2, -3, 4]");
    ASSERT_FAILS(tc_full(TC_SHAPE(-1, 2), 1.0, TC_FLOAT64),
                 "Trying to create tensor with negative dimension -1: [-1, 2]");
}
END_TEST

START_TEST(test_error_storage_size_overflow)
{
    const int64_t big = (int64_t)1 << 62;

    /* torch.empty(2**62, 4) */
    ASSERT_FAILS(tc_empty(TC_SHAPE(big, 4), TC_FLOAT32),
                 "Storage size calculation overflowed with sizes=[4611686018427387904, 4]");
    /* torch.empty(2**62): the element count fits, the bytes do not */
    ASSERT_FAILS(tc_empty(TC_SHAPE(big), TC_FLOAT32),
                 "Storage size calculation overflowed with sizes=[4611686018427387904]");
    /* torch.empty(2**61) */
    ASSERT_FAILS(tc_empty(TC_SHAPE((int64_t)1 << 61), TC_FLOAT32),
                 "Storage size calculation overflowed with sizes=[2305843009213693952]");
    /* torch.empty(2**60, dtype=torch.float64) */
    ASSERT_FAILS(tc_empty(TC_SHAPE((int64_t)1 << 60), TC_FLOAT64),
                 "Storage size calculation overflowed with sizes=[1152921504606846976]");
    /* torch.empty(2**62, 4, 0): overflows before the 0 is reached */
    ASSERT_FAILS(tc_empty(TC_SHAPE(big, 4, 0), TC_FLOAT32),
                 "Storage size calculation overflowed with sizes=[4611686018427387904, 4, 0]");
}
END_TEST

START_TEST(test_error_zero_first_is_not_overflow)
{
    /* torch.empty(0, 2**62, 4).shape == (0, 4611686018427387904, 4) */
    tc_tensor *t = tc_empty(TC_SHAPE(0, (int64_t)1 << 62, 4), TC_FLOAT32);

    ck_assert_ptr_nonnull(t);
    ck_assert_ptr_null(tc_error());
    ASSERT_SIZES(t, 0, (int64_t)1 << 62, 4);
    ck_assert_int_eq(tc_numel(t), 0);
    tc_release(t);
}
END_TEST

START_TEST(test_error_allocation_failure)
{
    /* torch.empty(2**40), without the "[enforce fail at ...]" prefix */
    ASSERT_FAILS(tc_empty(TC_SHAPE((int64_t)1 << 40), TC_FLOAT32),
                 "DefaultCPUAllocator: can't allocate memory: you tried to allocate "
                 "4398046511104 bytes. Error code 12 (Cannot allocate memory)");
    /* torch.empty(2**60) */
    ASSERT_FAILS(tc_zeros(TC_SHAPE((int64_t)1 << 60), TC_FLOAT32),
                 "DefaultCPUAllocator: can't allocate memory: you tried to allocate "
                 "4611686018427387904 bytes. Error code 12 (Cannot allocate memory)");
}
END_TEST

START_TEST(test_error_null_chain_keeps_first_message)
{
    /* Four calls in a row, one check at the end: the message is the first. */
    tc_tensor *a = tc_empty(TC_SHAPE(-1, 2), TC_FLOAT32);
    tc_tensor *v = tc_view(a, TC_SHAPE(-1));
    tc_tensor *s = tc_add_scalar(v, 1);
    tc_tensor *d = tc_add_scalar(s, 0.5);
    tc_tensor *l = tc_zeros_like(d);
    char *text = tc_repr(l);

    ck_assert_ptr_null(a);
    ck_assert_ptr_null(v);
    ck_assert_ptr_null(s);
    ck_assert_ptr_null(d);
    ck_assert_ptr_null(l);
    ck_assert_ptr_null(text);
    ASSERT_ERROR("Trying to create tensor with negative dimension -1: [-1, 2]");
    tc_release(l);
    tc_release(d);
    tc_release(s);
    tc_release(v);
    tc_release(a);
}
END_TEST

START_TEST(test_error_null_arguments_keep_message)
{
    double value = 42.0;
    int64_t ivalue = 42;

    ck_assert_ptr_null(tc_arange(0, 5, 0));    /* torch.arange(0, 5, 0) */
    ck_assert_ptr_null(tc_empty_like(NULL));
    ck_assert_ptr_null(tc_ones_like(NULL));
    ck_assert_ptr_null(tc_full_like(NULL, 2.0));
    ck_assert_int_eq(tc_get(NULL, IDX(0), &value), -1);
    ck_assert_int_eq(tc_get_int64(NULL, IDX(0), &ivalue), -1);
    ck_assert_int_eq(tc_set(NULL, IDX(0), 1.0), -1);
    ck_assert_int_eq(tc_set_int64(NULL, IDX(0), 1), -1);
    ck_assert_int_eq(tc_print(stdout, NULL), -1);
    ck_assert_ptr_null(tc_tensor_over(NULL, TC_FLOAT32, 1, SIZES(1), SIZES(1), 0));
    ck_assert(!tc_equal(NULL, NULL));
    ck_assert(value == 42.0);
    ck_assert_int_eq(ivalue, 42);
    ASSERT_ERROR("step must be nonzero");
}
END_TEST

START_TEST(test_error_later_failure_replaces_message)
{
    tc_tensor *t = tc_zeros(TC_SHAPE(3), TC_FLOAT32);
    double v;

    ck_assert_ptr_null(tc_empty(TC_SHAPE(-1, 2), TC_FLOAT32));
    /* A success does not clear the message (it is the most recent failure). */
    ck_assert_int_eq(tc_get(t, IDX(0), &v), 0);
    ASSERT_ERROR("Trying to create tensor with negative dimension -1: [-1, 2]");
    /* A new failure, on a non-NULL argument, records its own message:
       torch.zeros(3)[5] */
    ck_assert_int_eq(tc_get(t, IDX(5), &v), -1);
    ASSERT_ERROR("index 5 is out of bounds for dimension 0 with size 3");
    tc_release(t);
}
END_TEST

START_TEST(test_error_failed_records_when_nothing_failed)
{
    tc_tensor *t = tc_zeros(TC_SHAPE(1), TC_FLOAT32);

    ck_assert(!tc_failed(t));
    ck_assert_ptr_null(tc_error());
    ck_assert(tc_failed(NULL));
    ASSERT_ERROR("tc: NULL argument, but no earlier call failed");   /* library message */
    /* With a failure pending, tc_failed keeps it. */
    tc_clear_error();
    tc_fail("earlier");
    ck_assert(tc_failed(NULL));
    ASSERT_ERROR("earlier");
    /* An op handed NULL with nothing pending says so too. */
    tc_clear_error();
    ck_assert_ptr_null(tc_view(NULL, TC_SHAPE(1)));
    ASSERT_ERROR("tc: NULL argument, but no earlier call failed");
    tc_release(t);
}
END_TEST

START_TEST(test_error_from_data_null)
{
    ASSERT_FAILS(tc_from_data(TC_SHAPE(2), TC_FLOAT32, NULL),
                 "tc_from_data: data is NULL");                       /* library message */
    ASSERT_FAILS(tc_from_data(TC_SHAPE(2, 2), TC_INT64, NULL), "tc_from_data: data is NULL");
}
END_TEST

START_TEST(test_error_arange)
{
    /* torch.arange(0, 5, 0) */
    ASSERT_FAILS(tc_arange(0, 5, 0), "step must be nonzero");
    ASSERT_FAILS(tc_arange(0.0, 1.0, 0.0), "step must be nonzero");
    /* torch.arange(float('nan'), 5) */
    ASSERT_FAILS(tc_arange((double)NAN, 5, 1), "unsupported range: nan -> 5");
    /* torch.arange(0, float('inf')) */
    ASSERT_FAILS(tc_arange(0, (double)INFINITY, 1), "unsupported range: 0 -> inf");
    /* torch.arange(float('-inf'), 5.5) */
    ASSERT_FAILS(tc_arange(-(double)INFINITY, 5.5, 1), "unsupported range: -inf -> 5.5");
    /* torch.arange(5, 0, 1), torch.arange(0, 5, -1) */
    ASSERT_FAILS(tc_arange(5, 0, 1), "upper bound and larger bound inconsistent with step sign");
    ASSERT_FAILS(tc_arange(0, 5, -1), "upper bound and larger bound inconsistent with step sign");
    ASSERT_FAILS(tc_arange(0.0, 1.0, -0.5), "upper bound and larger bound inconsistent with step sign");
    /* torch.arange(0, 1e30, 1.5), torch.arange(0, 1e300, 1e-300) */
    ASSERT_FAILS(tc_arange(0.0, 1e30, 1.5), "invalid size, possible overflow?");
    ASSERT_FAILS(tc_arange(0.0, 1e300, 1e-300), "invalid size, possible overflow?");
}
END_TEST

START_TEST(test_error_value_overflow)
{
    tc_tensor *f = tc_zeros(TC_SHAPE(3), TC_FLOAT32);
    tc_tensor *i = tc_zeros(TC_SHAPE(3), TC_INT64);

    /* torch.full((2,), 1e300), torch.full((2,), -1e39) */
    ASSERT_FAILS(tc_full(TC_SHAPE(2), 1e300, TC_FLOAT32),
                 "value cannot be converted to type float without overflow");
    ASSERT_FAILS(tc_full(TC_SHAPE(2), -1e39, TC_FLOAT32),
                 "value cannot be converted to type float without overflow");
    /* torch.full((1,), 3.4028235e38): just above FLT_MAX */
    ASSERT_FAILS(tc_full(TC_SHAPE(1), 3.4028235e38, TC_FLOAT32),
                 "value cannot be converted to type float without overflow");
    /* torch.full((2,), 1e19 / nan / inf, dtype=torch.int64) */
    ASSERT_FAILS(tc_full(TC_SHAPE(2), 1e19, TC_INT64),
                 "value cannot be converted to type int64_t without overflow");
    ASSERT_FAILS(tc_full(TC_SHAPE(2), (double)NAN, TC_INT64),
                 "value cannot be converted to type int64_t without overflow");
    ASSERT_FAILS(tc_full(TC_SHAPE(2), (double)INFINITY, TC_INT64),
                 "value cannot be converted to type int64_t without overflow");
    /* torch.full_like(torch.zeros(2, dtype=torch.int64), 1e19) */
    ASSERT_FAILS(tc_full_like(i, 1e19), "value cannot be converted to type int64_t without overflow");
    /* torch.full_like(torch.zeros(2), 1e300) */
    ASSERT_FAILS(tc_full_like(f, 1e300), "value cannot be converted to type float without overflow");
    /* x = torch.zeros(2); x[0] = 1e300 */
    ASSERT_FAILS_INT(tc_set(f, IDX(0), 1e300),
                     "value cannot be converted to type float without overflow");
    /* x = torch.zeros(2, dtype=torch.int64); x[0] = 1e19 / float('nan') */
    ASSERT_FAILS_INT(tc_set(i, IDX(0), 1e19),
                     "value cannot be converted to type int64_t without overflow");
    ASSERT_FAILS_INT(tc_set(i, IDX(1), (double)NAN),
                     "value cannot be converted to type int64_t without overflow");
    /* The value is checked before the index: x = torch.zeros(3); x[5] = 1e300
       and x = torch.zeros(3, dtype=torch.int64); x[-9] = float('nan') */
    ASSERT_FAILS_INT(tc_set(f, IDX(5), 1e300),
                     "value cannot be converted to type float without overflow");
    ASSERT_FAILS_INT(tc_set(i, IDX(-9), (double)NAN),
                     "value cannot be converted to type int64_t without overflow");
    /* Nothing was written. */
    ck_assert(testing_get(f, IDX(0)) == 0.0);
    ck_assert_int_eq(get_int64(i, IDX(0)), 0);
    ck_assert_int_eq(get_int64(i, IDX(1)), 0);
    tc_release(f);
    tc_release(i);
}
END_TEST

START_TEST(test_error_index_out_of_bounds)
{
    tc_tensor *v = tc_zeros(TC_SHAPE(3), TC_FLOAT32);
    tc_tensor *m = tc_zeros(TC_SHAPE(2, 3), TC_INT64);
    double d;
    int64_t i;

    /* torch.zeros(3)[5], torch.zeros(3)[-4] */
    ASSERT_FAILS_INT(tc_get(v, IDX(5), &d), "index 5 is out of bounds for dimension 0 with size 3");
    ASSERT_FAILS_INT(tc_get(v, IDX(-4), &d), "index -4 is out of bounds for dimension 0 with size 3");
    ASSERT_FAILS_INT(tc_get(v, IDX(3), &d), "index 3 is out of bounds for dimension 0 with size 3");
    ASSERT_FAILS_INT(tc_set(v, IDX(3), 1.0), "index 3 is out of bounds for dimension 0 with size 3");
    /* torch.zeros(2, 3)[1, 3], torch.zeros(2, 3)[1, -4] */
    ASSERT_FAILS_INT(tc_get_int64(m, IDX(1, 3), &i), "index 3 is out of bounds for dimension 1 with size 3");
    ASSERT_FAILS_INT(tc_set_int64(m, IDX(1, -4), 1), "index -4 is out of bounds for dimension 1 with size 3");
    ASSERT_FAILS_INT(tc_set_int64(m, IDX(2, 0), 1), "index 2 is out of bounds for dimension 0 with size 2");
    /* torch.zeros(3)[-3] is fine */
    ck_assert(testing_get(v, IDX(-3)) == 0.0);
    ck_assert_ptr_null(tc_error());
    tc_release(v);
    tc_release(m);
}
END_TEST

START_TEST(test_error_view)
{
    tc_tensor *six = tc_arange(0, 6, 1);
    tc_tensor *none = tc_empty(TC_SHAPE(0), TC_FLOAT32);
    tc_tensor *t = testing_transposed_arange6(TC_INT64);

    /* torch.arange(6).view(-1, -1) */
    ASSERT_FAILS(tc_view(six, TC_SHAPE(-1, -1)), "only one dimension can be inferred");
    /* torch.arange(6).view(-2, 3), .view(-1, -2) */
    ASSERT_FAILS(tc_view(six, TC_SHAPE(-2, 3)), "invalid shape dimension -2");
    ASSERT_FAILS(tc_view(six, TC_SHAPE(-1, -2)), "invalid shape dimension -2");
    /* torch.arange(6).view(2, 4), .view(-1, 4), .view(()) */
    ASSERT_FAILS(tc_view(six, TC_SHAPE(2, 4)), "shape '[2, 4]' is invalid for input of size 6");
    ASSERT_FAILS(tc_view(six, TC_SHAPE(-1, 4)), "shape '[-1, 4]' is invalid for input of size 6");
    ASSERT_FAILS(tc_view(six, TC_SCALAR_SHAPE), "shape '[]' is invalid for input of size 6");
    /* torch.empty(0).view(-1, 0), .view(0, -1) */
    ASSERT_FAILS(tc_view(none, TC_SHAPE(-1, 0)),
                 "cannot reshape tensor of 0 elements into shape [-1, 0] because the "
                 "unspecified dimension size -1 can be any value and is ambiguous");
    ASSERT_FAILS(tc_view(none, TC_SHAPE(0, -1)),
                 "cannot reshape tensor of 0 elements into shape [0, -1] because the "
                 "unspecified dimension size -1 can be any value and is ambiguous");
    /* torch.arange(6).view(2, 3).t().view(6), .view(-1) */
    ASSERT_FAILS(tc_view(t, TC_SHAPE(6)),
                 "view size is not compatible with input tensor's size and stride (at "
                 "least one dimension spans across two contiguous subspaces). Use "
                 ".reshape(...) instead.");
    ASSERT_FAILS(tc_view(t, TC_SHAPE(-1)),
                 "view size is not compatible with input tensor's size and stride (at "
                 "least one dimension spans across two contiguous subspaces). Use "
                 ".reshape(...) instead.");
    /* Failed views leave no extra reference behind. */
    ck_assert_int_eq(six->storage->refcount, 1);
    ck_assert_int_eq(t->storage->refcount, 1);
    tc_release(six);
    tc_release(none);
    tc_release(t);
}
END_TEST

START_TEST(test_error_format_sizes)
{
    char buf[TC_SIZES_STRLEN];

    ck_assert_str_eq(tc_format_sizes(buf, 2, SIZES(2, 3)), "[2, 3]");
    ck_assert_str_eq(tc_format_sizes(buf, 1, SIZES(-1)), "[-1]");
    ck_assert_str_eq(tc_format_sizes(buf, 0, NULL), "[]");
}
END_TEST

/* ---------------------------------------------------- storage refcounts */

START_TEST(test_storage_new)
{
    tc_storage *empty = tc_storage_new(0);
    tc_storage *s = tc_storage_new(100);

    ck_assert_ptr_nonnull(empty);
    ck_assert_ptr_null(empty->data);    /* torch.empty(0).data_ptr() == 0 */
    ck_assert_uint_eq(empty->nbytes, 0);
    ck_assert_int_eq(empty->refcount, 1);
    ck_assert_ptr_nonnull(s);
    ck_assert_uint_eq(s->nbytes, 100);
    ck_assert_int_eq(s->refcount, 1);
    ck_assert_uint_eq((uintptr_t)s->data % TC_ALIGNMENT, 0);
    ck_assert_ptr_eq(tc_storage_retain(s), s);
    ck_assert_int_eq(s->refcount, 2);
    tc_storage_release(s);
    ck_assert_int_eq(s->refcount, 1);
    tc_storage_release(s);
    tc_storage_release(empty);
}
END_TEST

START_TEST(test_storage_live_count)
{
    int64_t before = tc_live_storages();
    tc_storage *s = tc_storage_new(8);
    tc_tensor *t = tc_zeros(TC_SHAPE(2, 3), TC_FLOAT32);
    tc_tensor *v = tc_view(t, TC_SHAPE(6));    /* a view: no new storage */

    ck_assert_int_eq(tc_live_storages(), before + 2);
    tc_storage_retain(s);
    tc_storage_release(s);    /* one reference left: still alive */
    ck_assert_int_eq(tc_live_storages(), before + 2);
    tc_storage_release(s);
    ck_assert_int_eq(tc_live_storages(), before + 1);
    tc_release(t);            /* v still holds the storage */
    ck_assert_int_eq(tc_live_storages(), before + 1);
    tc_release(v);
    ck_assert_int_eq(tc_live_storages(), before);
}
END_TEST

START_TEST(test_storage_view_shares)
{
    tc_tensor *flat = tc_arange(0, 6, 1);
    tc_tensor *grid;

    ck_assert_int_eq(flat->storage->refcount, 1);
    grid = tc_view(flat, TC_SHAPE(2, 3));
    ck_assert_ptr_nonnull(grid);
    ck_assert_ptr_eq(grid->storage, flat->storage);
    ck_assert_int_eq(flat->storage->refcount, 2);
    ck_assert_int_eq(grid->refcount, 1);
    /* Writing through the view is seen by the base. */
    ck_assert_int_eq(tc_set_int64(grid, IDX(1, 0), 30), 0);
    ck_assert_int_eq(get_int64(flat, IDX(3)), 30);
    /* Releasing the base keeps the view's data alive and valid. */
    tc_release(flat);
    ck_assert_int_eq(grid->storage->refcount, 1);
    ck_assert_int_eq(get_int64(grid, IDX(1, 2)), 5);
    ck_assert_int_eq(get_int64(grid, IDX(0, 1)), 1);
    ck_assert_int_eq(get_int64(grid, IDX(1, 0)), 30);
    tc_release(grid);
}
END_TEST

/* tc_tensor_new: the header, the storage and the bytes in one block, the
   bytes aligned to 64; the block outlives the header while a view holds
   the storage; a storage of its own is a block of its own. */
START_TEST(test_tensor_new_one_block)
{
    int64_t before = tc_live_storages();
    tc_tensor *t = tc_tensor_new(TC_FLOAT32, 2, SIZES(2, 3), SIZES(3, 1), 6 * sizeof(float));
    tc_storage *own = tc_storage_new(8);
    tc_tensor *v;

    ck_assert_ptr_nonnull(t);
    ck_assert_ptr_eq((void *)t->storage, (void *)(t + 1));
    ck_assert_ptr_eq(t->storage->block, (void *)t);
    ck_assert_int_eq((uintptr_t)t->storage->data % TC_ALIGNMENT, 0);
    ck_assert_int_eq(t->storage->nbytes, 6 * sizeof(float));
    ck_assert_int_eq(tc_live_storages(), before + 2);
    ck_assert_ptr_eq(own->block, (void *)own);
    tc_storage_release(own);
    for (int64_t k = 0; k < 6; k++)
        ((float *)t->storage->data)[k] = (float)k;
    v = tc_view(t, TC_SHAPE(6));
    tc_release(t);            /* its header stays, in the block v's storage frees */
    ck_assert_int_eq(tc_live_storages(), before + 1);
    ck_assert(tc_load(v, 5) == 5.0);
    tc_release(v);
    ck_assert_int_eq(tc_live_storages(), before);
}
END_TEST

START_TEST(test_storage_tensor_over_retains)
{
    tc_storage *s = tc_storage_new(6 * sizeof(double));
    tc_tensor *a, *b;

    ck_assert_ptr_nonnull(s);
    a = tc_tensor_over(s, TC_FLOAT64, 1, SIZES(6), SIZES(1), 0);
    b = tc_tensor_over(s, TC_FLOAT64, 2, SIZES(3, 2), SIZES(1, 3), 0);
    ck_assert_ptr_nonnull(a);
    ck_assert_ptr_nonnull(b);
    ck_assert_int_eq(s->refcount, 3);
    tc_storage_release(s);
    ck_assert_int_eq(a->storage->refcount, 2);
    ck_assert_int_eq(tc_set(b, IDX(2, 1), 7.5), 0);
    tc_release(b);
    ck_assert_int_eq(a->storage->refcount, 1);
    ck_assert(testing_get(a, IDX(5)) == 7.5);
    tc_release(a);
}
END_TEST

START_TEST(test_storage_tensor_retain_release)
{
    tc_tensor *t = tc_zeros(TC_SHAPE(2), TC_FLOAT32);

    ck_assert_int_eq(t->refcount, 1);
    ck_assert_ptr_eq(tc_retain(t), t);
    ck_assert_int_eq(t->refcount, 2);
    ck_assert_int_eq(t->storage->refcount, 1);    /* headers count, not storage */
    tc_release(t);
    ck_assert_int_eq(t->refcount, 1);
    ck_assert(testing_get(t, IDX(1)) == 0.0);
    tc_release(t);
    /* NULL is harmless everywhere. */
    tc_release(NULL);
    tc_storage_release(NULL);
    ck_assert_ptr_null(tc_retain(NULL));
    ck_assert_ptr_null(tc_storage_retain(NULL));
}
END_TEST

START_TEST(test_storage_new_results_do_not_share)
{
    tc_tensor *t = tc_arange(0, 4, 1);
    tc_tensor *like = tc_zeros_like(t);
    tc_tensor *sum = tc_add_scalar(t, 1);

    ck_assert_ptr_ne(like->storage, t->storage);
    ck_assert_ptr_ne(sum->storage, t->storage);
    ck_assert_int_eq(t->storage->refcount, 1);
    ck_assert_int_eq(like->storage->refcount, 1);
    ck_assert_int_eq(sum->storage->refcount, 1);
    tc_release(t);
    tc_release(like);
    tc_release(sum);
}
END_TEST

/* ------------------------------------------ shapes, strides, contiguity */

START_TEST(test_shape_macro)
{
    tc_shape a = TC_SHAPE(2, 3, 4), b = TC_SHAPE(7), s = TC_SCALAR_SHAPE;
    tc_tensor *t = tc_empty(TC_SHAPE(4, 1, 5), TC_INT64);
    tc_shape c = tc_shape_of(t);

    ck_assert_int_eq(a.dim, 3);
    ck_assert_int_eq(a.sizes[0], 2);
    ck_assert_int_eq(a.sizes[1], 3);
    ck_assert_int_eq(a.sizes[2], 4);
    ck_assert_int_eq(b.dim, 1);
    ck_assert_int_eq(b.sizes[0], 7);
    ck_assert_int_eq(s.dim, 0);
    ck_assert_int_eq(c.dim, 3);
    ck_assert_int_eq(c.sizes[0], 4);
    ck_assert_int_eq(c.sizes[1], 1);
    ck_assert_int_eq(c.sizes[2], 5);
    tc_release(t);
}
END_TEST

START_TEST(test_shape_numel)
{
    tc_tensor *s = tc_empty(TC_SCALAR_SHAPE, TC_FLOAT32);
    tc_tensor *z = tc_empty(TC_SHAPE(2, 0, 3), TC_FLOAT32);
    tc_tensor *m = tc_empty(TC_SHAPE(2, 3, 4), TC_FLOAT64);

    /* torch.empty(()).numel() == 1, .dim() == 0; torch.empty(2,0,3).numel() == 0 */
    ck_assert_int_eq(s->dim, 0);
    ck_assert_int_eq(tc_numel(s), 1);
    ck_assert_uint_eq(s->storage->nbytes, 4);
    ck_assert_int_eq(tc_numel(z), 0);
    ck_assert_uint_eq(z->storage->nbytes, 0);
    ck_assert_int_eq(tc_numel(m), 24);
    ck_assert_uint_eq(m->storage->nbytes, 24 * 8);
    tc_release(s);
    tc_release(z);
    tc_release(m);
}
END_TEST

START_TEST(test_shape_dtypes)
{
    /* torch.empty(0, dtype=...).element_size(); str(torch.float32) ... */
    ck_assert_uint_eq(tc_itemsize(TC_FLOAT32), 4);
    ck_assert_uint_eq(tc_itemsize(TC_FLOAT64), 8);
    ck_assert_uint_eq(tc_itemsize(TC_INT64), 8);
    ck_assert_str_eq(tc_dtype_name(TC_FLOAT32), "torch.float32");
    ck_assert_str_eq(tc_dtype_name(TC_FLOAT64), "torch.float64");
    ck_assert_str_eq(tc_dtype_name(TC_INT64), "torch.int64");
}
END_TEST

START_TEST(test_shape_contiguous_strides)
{
    int64_t st[4];
    tc_tensor *t;

    /* torch.empty(2, 0, 3).stride() == (3, 3, 1) */
    tc_contiguous_strides(3, SIZES(2, 0, 3), st);
    ck_assert_int_eq(st[0], 3);
    ck_assert_int_eq(st[1], 3);
    ck_assert_int_eq(st[2], 1);
    /* torch.empty(3, 1, 0, 2).stride() == (2, 2, 2, 1) */
    tc_contiguous_strides(4, SIZES(3, 1, 0, 2), st);
    ck_assert_int_eq(st[0], 2);
    ck_assert_int_eq(st[1], 2);
    ck_assert_int_eq(st[2], 2);
    ck_assert_int_eq(st[3], 1);
    /* torch.empty(4, 0).stride() == (1, 1); torch.empty(0).stride() == (1,) */
    tc_contiguous_strides(2, SIZES(4, 0), st);
    ck_assert_int_eq(st[0], 1);
    ck_assert_int_eq(st[1], 1);
    tc_contiguous_strides(1, SIZES(0), st);
    ck_assert_int_eq(st[0], 1);
    /* Tensors made by constructors carry the same strides. */
    t = tc_empty(TC_SHAPE(2, 1, 3), TC_FLOAT32);    /* (3, 3, 1) */
    ASSERT_STRIDES(t, 3, 3, 1);
    tc_release(t);
    t = tc_zeros(TC_SHAPE(1, 1), TC_INT64);         /* (1, 1) */
    ASSERT_STRIDES(t, 1, 1);
    tc_release(t);
    t = tc_ones(TC_SHAPE(2, 0, 3), TC_FLOAT64);     /* (3, 3, 1) */
    ASSERT_STRIDES(t, 3, 3, 1);
    tc_release(t);
    t = tc_empty(TC_SHAPE(2, 3, 4), TC_FLOAT32);    /* (12, 4, 1) */
    ASSERT_STRIDES(t, 12, 4, 1);
    ck_assert_int_eq(t->storage_offset, 0);
    tc_release(t);
}
END_TEST

START_TEST(test_shape_is_contiguous)
{
    /* torch.empty_strided(sizes, strides).is_contiguous() */
    ck_assert(testing_layout_is(tc_is_contiguous, 2, SIZES(2, 3), SIZES(3, 1)));  /* True */
    ck_assert(!testing_layout_is(tc_is_contiguous, 2, SIZES(3, 2), SIZES(1, 3)));  /* False */
    ck_assert(testing_layout_is(tc_is_contiguous, 3, SIZES(2, 1, 3), SIZES(3, 100, 1)));  /* True */
    ck_assert(testing_layout_is(tc_is_contiguous, 1, SIZES(1), SIZES(5)));  /* True */
    ck_assert(testing_layout_is(tc_is_contiguous, 2, SIZES(0, 3), SIZES(5, 7)));  /* True */
    ck_assert(testing_layout_is(tc_is_contiguous, 1, SIZES(0), SIZES(3)));  /* True */
    ck_assert(!testing_layout_is(tc_is_contiguous, 2, SIZES(2, 3), SIZES(6, 1)));  /* False */
    ck_assert(testing_layout_is(tc_is_contiguous, 2, SIZES(4, 1), SIZES(1, 1)));  /* True */
    ck_assert(testing_layout_is(tc_is_contiguous, 2, SIZES(1, 4), SIZES(9, 1)));  /* True */
    ck_assert(testing_layout_is(tc_is_contiguous, 2, SIZES(2, 1), SIZES(1, 1)));  /* True */
    ck_assert(testing_layout_is(tc_is_contiguous, 0, NULL, NULL));                        /* True */
}
END_TEST

START_TEST(test_shape_data_ptr)
{
    tc_tensor *d = tc_empty(TC_SHAPE(10), TC_FLOAT64);
    tc_tensor *i = tc_empty(TC_SHAPE(10), TC_INT64);
    tc_tensor *f = tc_empty(TC_SHAPE(10), TC_FLOAT32);
    tc_tensor *dv = testing_over(d, 1, SIZES(6), SIZES(1), 4);
    tc_tensor *iv = testing_over(i, 1, SIZES(7), SIZES(1), 3);
    tc_tensor *fv = testing_over(f, 1, SIZES(7), SIZES(1), 3);
    tc_tensor *e1 = tc_empty(TC_SHAPE(0), TC_FLOAT32);
    tc_tensor *e2 = tc_zeros(TC_SHAPE(2, 0, 3), TC_FLOAT64);

    /* x = torch.arange(10., dtype=torch.float64); x[4:].data_ptr() - x.data_ptr() == 32;
       torch.arange(10)[3:] -> 24; torch.arange(10.)[3:] -> 12 */
    ck_assert_ptr_eq(tc_data_ptr(d), d->storage->data);
    ck_assert_int_eq((char *)tc_data_ptr(dv) - (char *)tc_data_ptr(d), 32);
    ck_assert_int_eq((char *)tc_data_ptr(iv) - (char *)tc_data_ptr(i), 24);
    ck_assert_int_eq((char *)tc_data_ptr(fv) - (char *)tc_data_ptr(f), 12);
    /* torch.empty(0).data_ptr() == 0, torch.empty(2, 0, 3).data_ptr() == 0 */
    ck_assert_ptr_null(tc_data_ptr(e1));
    ck_assert_ptr_null(tc_data_ptr(e2));
    tc_release(d);
    tc_release(i);
    tc_release(f);
    tc_release(dv);
    tc_release(iv);
    tc_release(fv);
    tc_release(e1);
    tc_release(e2);
}
END_TEST

START_TEST(test_shape_storage_extent)
{
    ck_assert_int_eq(tc_storage_extent(2, SIZES(2, 3), SIZES(3, 1)), 6);
    ck_assert_int_eq(tc_storage_extent(2, SIZES(4, 3), SIZES(6, 2)), 23);
    ck_assert_int_eq(tc_storage_extent(2, SIZES(2, 0), SIZES(1, 1)), 0);
    ck_assert_int_eq(tc_storage_extent(0, NULL, NULL), 1);
}
END_TEST

/* ------------------------------------------------------------ constructors */

START_TEST(test_empty)
{
    tc_tensor *t = tc_empty(TC_SHAPE(2, 3), TC_FLOAT64);
    tc_tensor *s = tc_empty(TC_SCALAR_SHAPE, TC_INT64);

    ck_assert_ptr_nonnull(t);
    ck_assert_int_eq(t->dtype, TC_FLOAT64);
    ASSERT_SIZES(t, 2, 3);
    ASSERT_STRIDES(t, 3, 1);
    ck_assert_int_eq(t->storage_offset, 0);
    ck_assert_int_eq(t->refcount, 1);
    ck_assert_uint_eq(t->storage->nbytes, 48);
    ck_assert(tc_is_contiguous(t));
    ck_assert_int_eq(s->dim, 0);
    ck_assert_int_eq(s->dtype, TC_INT64);
    ck_assert_uint_eq(s->storage->nbytes, 8);
    tc_release(t);
    tc_release(s);
}
END_TEST

START_TEST(test_zeros)
{
    tc_tensor *f = tc_zeros(TC_SHAPE(2, 3), TC_FLOAT32);
    tc_tensor *i = tc_zeros(TC_SHAPE(4), TC_INT64);
    tc_tensor *s = tc_zeros(TC_SCALAR_SHAPE, TC_FLOAT64);
    double v;

    ck_assert_int_eq(f->dtype, TC_FLOAT32);    /* torch.zeros(2, 3).dtype */
    ck_assert_int_eq(i->dtype, TC_INT64);
    ck_assert_int_eq(s->dtype, TC_FLOAT64);
    ck_assert_int_eq(s->dim, 0);               /* torch.zeros(()).shape == () */
    for (int64_t r = 0; r < 2; r++)
        for (int64_t c = 0; c < 3; c++)
            ck_assert(testing_get(f, IDX(r, c)) == 0.0);
    for (int64_t k = 0; k < 4; k++)
        ck_assert_int_eq(get_int64(i, IDX(k)), 0);
    ck_assert_int_eq(tc_get(s, NULL, &v), 0);
    ck_assert(v == 0.0 && !signbit(v));
    tc_release(f);
    tc_release(i);
    tc_release(s);
}
END_TEST

START_TEST(test_ones)
{
    tc_tensor *i = tc_ones(TC_SHAPE(2), TC_INT64);    /* tensor([1, 1]) */
    tc_tensor *d = tc_ones(TC_SHAPE(3, 1), TC_FLOAT64);

    ck_assert_int_eq(i->dtype, TC_INT64);
    ck_assert_int_eq(get_int64(i, IDX(0)), 1);
    ck_assert_int_eq(get_int64(i, IDX(1)), 1);
    ck_assert_int_eq(d->dtype, TC_FLOAT64);
    for (int64_t k = 0; k < 3; k++)
        ck_assert(testing_get(d, IDX(k, 0)) == 1.0);
    tc_release(i);
    tc_release(d);
}
END_TEST

START_TEST(test_full)
{
    tc_tensor *a = tc_full(TC_SHAPE(2, 2), 2.5, TC_FLOAT32);
    tc_tensor *b = tc_full(TC_SHAPE(2), 7.9, TC_INT64);     /* tensor([7, 7]) */
    tc_tensor *c = tc_full(TC_SHAPE(2), -7.9, TC_INT64);    /* tensor([-7, -7]) */
    tc_tensor *d = tc_full(TC_SHAPE(2), 0.1, TC_FLOAT32);
    tc_tensor *e = tc_full(TC_SHAPE(2), 0.1, TC_FLOAT64);
    tc_tensor *g = tc_full(TC_SHAPE(2), (double)INFINITY, TC_FLOAT32);
    tc_tensor *h = tc_full(TC_SHAPE(1), -0x1p63, TC_INT64);
    tc_tensor *k = tc_full(TC_SHAPE(1), 3.4028234663852886e38, TC_FLOAT32);
    tc_tensor *m = tc_full(TC_SHAPE(1), 1e-50, TC_FLOAT32);
    tc_tensor *n = tc_full(TC_SHAPE(1), 1e300, TC_FLOAT64);
    tc_tensor *p = tc_full(TC_SHAPE(1), 9.2233720368547748e18, TC_INT64);

    ck_assert_int_eq(a->dtype, TC_FLOAT32);
    ck_assert(testing_get(a, IDX(1, 1)) == 2.5);
    ck_assert_int_eq(get_int64(b, IDX(1)), 7);
    ck_assert_int_eq(get_int64(c, IDX(0)), -7);
    /* torch.full((2,), 0.1).tolist() == [0.10000000149011612] * 2 */
    ck_assert(testing_get(d, IDX(0)) == 0x1.99999ap-4);
    /* torch.full((2,), 0.1, dtype=torch.float64).tolist() == [0.1, 0.1] */
    ck_assert(testing_get(e, IDX(1)) == 0.1);
    ck_assert(isinf(testing_get(g, IDX(0))) && testing_get(g, IDX(0)) > 0);    /* tensor([inf, inf]) */
    /* torch.full((1,), -2**63, dtype=torch.int64) */
    ck_assert_ptr_nonnull(h);
    ck_assert_int_eq(get_int64(h, IDX(0)), INT64_MIN);
    /* torch.full((1,), 3.4028234663852886e38) fits exactly */
    ck_assert_ptr_nonnull(k);
    ck_assert(testing_get(k, IDX(0)) == 3.4028234663852886e38);
    ck_assert(testing_get(m, IDX(0)) == 0.0);                          /* [0.0] */
    ck_assert(testing_get(n, IDX(0)) == 1e300);
    /* torch.full((1,), 9.2233720368547748e18, dtype=torch.int64) */
    ck_assert_int_eq(get_int64(p, IDX(0)), 9223372036854774784);
    tc_release(a);
    tc_release(b);
    tc_release(c);
    tc_release(d);
    tc_release(e);
    tc_release(g);
    tc_release(h);
    tc_release(k);
    tc_release(m);
    tc_release(n);
    tc_release(p);
}
END_TEST

START_TEST(test_full_int64_two_to_the_63)
{
    /* c10::overflows lets 2**63 through for int64 (int64's max converts to
       2.0**63), and the x86 conversion then gives -2**63:
       torch.full((1,), 2.0**63, dtype=torch.int64) -> tensor([-9223372036854775808])
       x = torch.zeros(2, dtype=torch.int64); x[0] = 2.0**63 -> tensor([-9223372036854775808, 0])
       torch.full((1,), 2.0**63 * (1 + 2**-52), dtype=torch.int64) fails. */
    tc_tensor *a = tc_full(TC_SHAPE(1), 0x1p63, TC_INT64);
    tc_tensor *b = tc_zeros(TC_SHAPE(2), TC_INT64);
    tc_tensor *c = tc_full(TC_SHAPE(1), 0x1.0000000000001p63, TC_INT64);
    int64_t a0 = 0, b0 = 0;
    int ra = tc_get_int64(a, IDX(0), &a0);
    int rs = tc_set(b, IDX(0), 0x1p63);
    int rb = tc_get_int64(b, IDX(0), &b0);

    tc_release(a);
    tc_release(b);
    tc_release(c);
    ck_assert_ptr_null(c);
    ASSERT_ERROR("value cannot be converted to type int64_t without overflow");
    ck_assert_int_eq(ra, 0);
    ck_assert_int_eq(a0, INT64_MIN);
    ck_assert_int_eq(rs, 0);
    ck_assert_int_eq(rb, 0);
    ck_assert_int_eq(b0, INT64_MIN);
}
END_TEST

START_TEST(test_from_data)
{
    float fsrc[6] = { 0.5f, 1.5f, 2.5f, 3.5f, 4.5f, 5.5f };
    double dsrc[2] = { 0.1, -2.0 };
    int64_t isrc[3] = { INT64_MAX, -1, INT64_MIN };
    tc_tensor *f = tc_from_data(TC_SHAPE(2, 3), TC_FLOAT32, fsrc);
    tc_tensor *d = tc_from_data(TC_SHAPE(2), TC_FLOAT64, dsrc);
    tc_tensor *i = tc_from_data(TC_SHAPE(3), TC_INT64, isrc);
    tc_tensor *z = tc_from_data(TC_SHAPE(0, 4), TC_FLOAT32, NULL);    /* nothing to copy */

    /* A copy: changing the source afterwards changes nothing. */
    fsrc[4] = 99.0f;
    dsrc[0] = 99.0;
    isrc[1] = 99;
    ASSERT_SIZES(f, 2, 3);
    ASSERT_STRIDES(f, 3, 1);
    ck_assert_ptr_ne(tc_data_ptr(f), (void *)fsrc);
    ck_assert(testing_get(f, IDX(1, 1)) == 4.5);
    ck_assert(testing_get(f, IDX(0, 2)) == 2.5);
    ck_assert(testing_get(d, IDX(0)) == 0.1);
    ck_assert(testing_get(d, IDX(1)) == -2.0);
    ck_assert_int_eq(get_int64(i, IDX(0)), INT64_MAX);
    ck_assert_int_eq(get_int64(i, IDX(1)), -1);
    ck_assert_int_eq(get_int64(i, IDX(2)), INT64_MIN);
    ck_assert_ptr_nonnull(z);
    ck_assert_int_eq(tc_numel(z), 0);
    tc_release(f);
    tc_release(d);
    tc_release(i);
    tc_release(z);
}
END_TEST

/* ------------------------------------------------------------------ arange */

START_TEST(test_arange_int64)
{
    tc_tensor *a = tc_arange(0, 5, 1);       /* torch.arange(0, 5, 1).dtype == torch.int64 */
    tc_tensor *b = tc_arange(5, 0, -1);      /* tensor([5, 4, 3, 2, 1]) */
    tc_tensor *c = tc_arange(-3, 3, 2);      /* tensor([-3, -1,  1]) */
    tc_tensor *d = tc_arange(0, 10, 3);      /* tensor([0, 3, 6, 9]) */
    tc_tensor *e = tc_arange(0, 0, 1);       /* tensor([], dtype=torch.int64) */
    tc_tensor *f = tc_arange(10, 0, -3);     /* [10, 7, 4, 1] */
    /* torch.arange(2**53, 2**53+4, 2) == [9007199254740992, 9007199254740994] */
    tc_tensor *g = tc_arange((int64_t)1 << 53, ((int64_t)1 << 53) + 4, 2);

    ck_assert_int_eq(a->dtype, TC_INT64);
    ck_assert_int_eq(tc_numel(a), 5);
    for (int64_t k = 0; k < 5; k++)
        ck_assert_int_eq(get_int64(a, IDX(k)), k);
    ck_assert_int_eq(tc_numel(b), 5);
    ck_assert_int_eq(get_int64(b, IDX(0)), 5);
    ck_assert_int_eq(get_int64(b, IDX(4)), 1);
    ck_assert_int_eq(tc_numel(c), 3);
    ck_assert_int_eq(get_int64(c, IDX(2)), 1);
    ck_assert_int_eq(tc_numel(d), 4);
    ck_assert_int_eq(get_int64(d, IDX(3)), 9);
    ck_assert_int_eq(e->dtype, TC_INT64);
    ck_assert_int_eq(e->dim, 1);
    ck_assert_int_eq(tc_numel(e), 0);
    ck_assert_int_eq(tc_numel(f), 4);
    ck_assert_int_eq(get_int64(f, IDX(3)), 1);
    ck_assert_int_eq(tc_numel(g), 2);
    ck_assert_int_eq(get_int64(g, IDX(1)), 9007199254740994);
    tc_release(a);
    tc_release(b);
    tc_release(c);
    tc_release(d);
    tc_release(e);
    tc_release(f);
    tc_release(g);
}
END_TEST

START_TEST(test_arange_float32)
{
    /* torch.arange(0, 1, 0.25) -> float32 [0, 0.25, 0.5, 0.75] */
    tc_tensor *a = tc_arange(0, 1, 0.25);
    /* torch.arange(0, 1, 0.3): 4 elements, hex from .tolist() */
    tc_tensor *b = tc_arange(0, 1, 0.3);
    /* len(torch.arange(0, 1, 0.1)) == 10; [7] == 0x1.666666p-1 */
    tc_tensor *c = tc_arange(0, 1, 0.1);
    /* torch.arange(1, 0, -0.25) -> [1.0, 0.75, 0.5, 0.25] */
    tc_tensor *d = tc_arange(1, 0, -0.25);
    /* torch.arange(0.5, 2) -> [0.5, 1.5]  (float start, int end and step) */
    tc_tensor *e = tc_arange(0.5, 2, 1);
    /* torch.arange(0, -1, -0.3) -> [0, -0x1.333334p-2, -0x1.333334p-1, -0x1.ccccccp-1] */
    tc_tensor *f = tc_arange(0, -1, -0.3);
    /* float arguments with whole values still make float32: torch.arange(0., 5.) */
    tc_tensor *g = tc_arange(0.0, 5.0, 1.0);
    /* a float argument of type float selects float32 too */
    tc_tensor *h = tc_arange(0, 2, 0.5f);

    ck_assert_int_eq(a->dtype, TC_FLOAT32);
    ck_assert_int_eq(tc_numel(a), 4);
    ck_assert(testing_get(a, IDX(3)) == 0.75);
    ck_assert_int_eq(b->dtype, TC_FLOAT32);
    ck_assert_int_eq(tc_numel(b), 4);
    ck_assert(testing_get(b, IDX(1)) == 0x1.333334p-2);
    ck_assert(testing_get(b, IDX(2)) == 0x1.333334p-1);
    ck_assert(testing_get(b, IDX(3)) == 0x1.ccccccp-1);
    ck_assert_int_eq(tc_numel(c), 10);
    ck_assert(testing_get(c, IDX(3)) == 0x1.333334p-2);
    ck_assert(testing_get(c, IDX(7)) == 0x1.666666p-1);
    ck_assert(testing_get(c, IDX(9)) == 0x1.ccccccp-1);
    ck_assert_int_eq(tc_numel(d), 4);
    ck_assert(testing_get(d, IDX(0)) == 1.0);
    ck_assert(testing_get(d, IDX(3)) == 0.25);
    ck_assert_int_eq(e->dtype, TC_FLOAT32);
    ck_assert_int_eq(tc_numel(e), 2);
    ck_assert(testing_get(e, IDX(1)) == 1.5);
    ck_assert_int_eq(tc_numel(f), 4);
    ck_assert(testing_get(f, IDX(3)) == -0x1.ccccccp-1);
    ck_assert_int_eq(g->dtype, TC_FLOAT32);
    ck_assert_int_eq(tc_numel(g), 5);
    ck_assert_int_eq(h->dtype, TC_FLOAT32);
    ck_assert_int_eq(tc_numel(h), 4);
    tc_release(a);
    tc_release(b);
    tc_release(c);
    tc_release(d);
    tc_release(e);
    tc_release(f);
    tc_release(g);
    tc_release(h);
}
END_TEST

START_TEST(test_arange_int64_exact_length)
{
    /* PyTorch computes an int64 arange's length in integer arithmetic:
       torch.arange(0, 2**60+1, 2**60).tolist() == [0, 1152921504606846976]
       torch.arange(2**60+1, 0, -2**60).tolist() == [1152921504606846977, 1]
       torch.arange(2**53, 2**53+5, 2).tolist() ==
           [9007199254740992, 9007199254740994, 9007199254740996] */
    const int64_t p = (int64_t)1 << 60, q = (int64_t)1 << 53;
    tc_tensor *a = tc_arange((int64_t)0, p + 1, p);
    tc_tensor *b = tc_arange(p + 1, (int64_t)0, -p);
    tc_tensor *c = tc_arange(q, q + 5, (int64_t)2);
    int64_t na = a ? tc_numel(a) : -1, nb = b ? tc_numel(b) : -1, nc = c ? tc_numel(c) : -1;
    int64_t a1 = -1, b1 = -1, c2 = -1;
    int ra = tc_get_int64(a, IDX(1), &a1), rb = tc_get_int64(b, IDX(1), &b1);
    int rc = tc_get_int64(c, IDX(2), &c2);

    tc_release(a);
    tc_release(b);
    tc_release(c);
    tc_clear_error();
    ck_assert_int_eq(na, 2);
    ck_assert_int_eq(nb, 2);
    ck_assert_int_eq(nc, 3);
    ck_assert_int_eq(ra, 0);
    ck_assert_int_eq(rb, 0);
    ck_assert_int_eq(rc, 0);
    ck_assert_int_eq(a1, 1152921504606846976);
    ck_assert_int_eq(b1, 1);
    ck_assert_int_eq(c2, 9007199254740996);
}
END_TEST

/* ------------------------------------------------------------------ *_like */

START_TEST(test_like_shape_dtype_values)
{
    tc_tensor *src = tc_arange(0, 6, 1);
    tc_tensor *g = tc_view(src, TC_SHAPE(2, 3));
    tc_tensor *e = tc_empty_like(g);
    tc_tensor *z = tc_zeros_like(g);
    tc_tensor *o = tc_ones_like(g);
    tc_tensor *f = tc_full_like(g, 2.7);    /* torch.full_like(int64 tensor, 2.7) -> 2 */
    tc_tensor *d = tc_full(TC_SCALAR_SHAPE, 1.0, TC_FLOAT64);
    tc_tensor *ds = tc_full_like(d, -0.5);

    ASSERT_SIZES(e, 2, 3);
    ASSERT_STRIDES(e, 3, 1);
    ck_assert_int_eq(e->dtype, TC_INT64);
    ck_assert_int_eq(z->dtype, TC_INT64);
    ck_assert_int_eq(get_int64(z, IDX(1, 2)), 0);
    ck_assert_int_eq(get_int64(o, IDX(0, 1)), 1);
    ck_assert_int_eq(get_int64(f, IDX(1, 0)), 2);
    ck_assert_int_eq(get_int64(f, IDX(1, 2)), 2);
    ck_assert_int_eq(ds->dim, 0);
    ck_assert_int_eq(ds->dtype, TC_FLOAT64);
    ck_assert(testing_get(ds, NULL) == -0.5);
    /* The source is untouched. */
    ck_assert_int_eq(get_int64(g, IDX(1, 2)), 5);
    tc_release(src);
    tc_release(g);
    tc_release(e);
    tc_release(z);
    tc_release(o);
    tc_release(f);
    tc_release(d);
    tc_release(ds);
}
END_TEST

START_TEST(test_like_zero_size_keeps_strides)
{
    /* A zero-size tensor is contiguous, hence dense, whatever its strides:
       torch.empty_like(torch.empty_strided((0, 3), (5, 7))).stride() == (5, 7)
       torch.empty_like(torch.empty_strided((5, 0, 3), (1, 1, 20))).stride() == (1, 1, 20) */
    int64_t a[TC_MAX_DIMS] = { 0 }, b[TC_MAX_DIMS] = { 0 };
    int64_t na = testing_empty_like_strides(2, SIZES(0, 3), SIZES(5, 7), a);
    int64_t nb = testing_empty_like_strides(3, SIZES(5, 0, 3), SIZES(1, 1, 20), b);

    ck_assert_int_eq(na, 2);
    ck_assert_int_eq(nb, 3);
    ck_assert_int_eq(a[0], 5);
    ck_assert_int_eq(a[1], 7);
    ck_assert_int_eq(b[0], 1);
    ck_assert_int_eq(b[1], 1);
    ck_assert_int_eq(b[2], 20);
}
END_TEST

/* ----------------------------------------------------------------- get/set */

START_TEST(test_get_set_negative_indices)
{
    tc_tensor *t = tc_zeros(TC_SHAPE(2, 3), TC_INT64);

    ck_assert_int_eq(tc_set_int64(t, IDX(1, -1), 7), 0);
    ck_assert_int_eq(get_int64(t, IDX(1, 2)), 7);
    ck_assert_int_eq(get_int64(t, IDX(-1, -1)), 7);
    ck_assert(testing_get(t, IDX(-1, 2)) == 7.0);
    ck_assert_int_eq(tc_set(t, IDX(-2, -3), -4.0), 0);
    ck_assert_int_eq(get_int64(t, IDX(0, 0)), -4);
    ck_assert_int_eq(get_int64(t, IDX(0, 1)), 0);
    tc_release(t);
}
END_TEST

START_TEST(test_get_set_int64_precision)
{
    tc_tensor *t = tc_zeros(TC_SHAPE(3), TC_INT64);
    tc_tensor *f = tc_zeros(TC_SHAPE(2), TC_FLOAT32);

    /* x = torch.zeros(2, dtype=torch.int64); x[0] = 2**53 + 1; x[0].item() */
    ck_assert_int_eq(tc_set_int64(t, IDX(0), 9007199254740993), 0);
    ck_assert_int_eq(get_int64(t, IDX(0)), 9007199254740993);
    /* x[1] = 2**62 + 3; x[-1].item() == 4611686018427387907 */
    ck_assert_int_eq(tc_set_int64(t, IDX(-2), 4611686018427387907), 0);
    ck_assert_int_eq(get_int64(t, IDX(1)), 4611686018427387907);
    ck_assert_int_eq(tc_set_int64(t, IDX(2), INT64_MAX), 0);
    ck_assert_int_eq(get_int64(t, IDX(-1)), INT64_MAX);
    /* x = torch.zeros(2); x[0] = 2**53 + 1; x[0].item() == 9007199254740992.0 */
    ck_assert_int_eq(tc_set_int64(f, IDX(0), 9007199254740993), 0);
    ck_assert(testing_get(f, IDX(0)) == 9007199254740992.0);
    tc_release(t);
    tc_release(f);
}
END_TEST

START_TEST(test_get_set_conversions)
{
    tc_tensor *i = tc_zeros(TC_SHAPE(2), TC_INT64);
    tc_tensor *f = tc_zeros(TC_SHAPE(2), TC_FLOAT32);
    tc_tensor *d = tc_zeros(TC_SHAPE(2), TC_FLOAT64);

    /* x = torch.zeros(2, dtype=torch.int64); x[0] = 1.7 -> tensor([1, 0]);
       x[0] = -1.7 -> tensor([-1, 0]) */
    ck_assert_int_eq(tc_set(i, IDX(0), 1.7), 0);
    ck_assert_int_eq(get_int64(i, IDX(0)), 1);
    ck_assert_int_eq(tc_set(i, IDX(1), -1.7), 0);
    ck_assert_int_eq(get_int64(i, IDX(1)), -1);
    /* x = torch.zeros(2); x[0] = 0.1; x[0].item() == 0.10000000149011612 */
    ck_assert_int_eq(tc_set(f, IDX(0), 0.1), 0);
    ck_assert(testing_get(f, IDX(0)) == 0x1.99999ap-4);
    ck_assert_int_eq(tc_set(d, IDX(0), 0.1), 0);
    ck_assert(testing_get(d, IDX(0)) == 0.1);
    /* int(torch.tensor([2.5])[0]) == 2, int(torch.tensor([-2.5])[0]) == -2 */
    ck_assert_int_eq(tc_set(f, IDX(1), 2.5), 0);
    ck_assert_int_eq(get_int64(f, IDX(1)), 2);
    ck_assert_int_eq(tc_set(d, IDX(1), -2.5), 0);
    ck_assert_int_eq(get_int64(d, IDX(1)), -2);
    /* NaN and infinities are fine for float types */
    ck_assert_int_eq(tc_set(f, IDX(1), (double)NAN), 0);
    ck_assert(isnan(testing_get(f, IDX(1))));
    ck_assert_int_eq(tc_set(d, IDX(1), -(double)INFINITY), 0);
    ck_assert(isinf(testing_get(d, IDX(1))) && testing_get(d, IDX(1)) < 0);
    tc_release(i);
    tc_release(f);
    tc_release(d);
}
END_TEST

START_TEST(test_get_set_scalar_and_strided)
{
    tc_tensor *s = tc_full(TC_SCALAR_SHAPE, 3.5, TC_FLOAT64);
    tc_tensor *t = testing_transposed_arange6(TC_FLOAT32);
    tc_tensor *base = tc_arange(0, 6, 1);
    tc_tensor *tail = testing_over(base, 1, SIZES(4), SIZES(1), 2);    /* torch.arange(6)[2:] */
    double v;

    ck_assert_int_eq(tc_get(s, NULL, &v), 0);
    ck_assert(v == 3.5);
    ck_assert_int_eq(tc_set(s, NULL, -1.25), 0);
    ck_assert(testing_get(s, NULL) == -1.25);
    /* torch.arange(6.).view(2, 3).t() == [[0, 3], [1, 4], [2, 5]] */
    ck_assert(testing_get(t, IDX(2, 1)) == 5.0);
    ck_assert(testing_get(t, IDX(0, 1)) == 3.0);
    ck_assert(testing_get(t, IDX(1, 0)) == 1.0);
    ck_assert(testing_get(t, IDX(-1, 0)) == 2.0);
    ck_assert_int_eq(get_int64(tail, IDX(0)), 2);
    ck_assert_int_eq(get_int64(tail, IDX(-1)), 5);
    ck_assert_int_eq(tc_set_int64(tail, IDX(1), 33), 0);
    ck_assert_int_eq(get_int64(base, IDX(3)), 33);
    tc_release(s);
    tc_release(t);
    tc_release(base);
    tc_release(tail);
}
END_TEST

START_TEST(test_get_set_odometer)
{
    int64_t index[2] = { 0, 0 };
    const int64_t sizes[2] = { 2, 3 };
    tc_tensor *t = testing_transposed_arange6(TC_FLOAT32);
    int steps = 1;

    while (tc_next_index(2, sizes, index))
        steps++;
    ck_assert_int_eq(steps, 6);
    ck_assert_int_eq(index[0], 0);    /* wrapped back to zero */
    ck_assert_int_eq(index[1], 0);
    index[0] = 0;
    index[1] = 2;
    ck_assert(tc_next_index(2, sizes, index));
    ck_assert_int_eq(index[0], 1);
    ck_assert_int_eq(index[1], 0);
    /* storage position of t[2, 1] with strides (1, 3): 2 + 3 */
    ck_assert_int_eq(tc_position(t, IDX(2, 1)), 5);
    tc_release(t);
}
END_TEST

/* ------------------------------------------------------------------ equal */

START_TEST(test_equal_dtypes)
{
    tc_tensor *i = I64V(1, 2, 3);
    tc_tensor *f = F32V(1.f, 2.f, 3.f);
    tc_tensor *d = F64V(1., 2., 3.);
    tc_tensor *f01 = F32V(0.1f);
    tc_tensor *d01 = F64V(0.1);
    tc_tensor *big = I64V(9007199254740993);             /* 2**53 + 1 */
    tc_tensor *big2 = I64V(9007199254740992);            /* 2**53 */
    tc_tensor *bigd = F64V(9007199254740992.0);
    tc_tensor *si = tc_full(TC_SCALAR_SHAPE, 5, TC_INT64);
    tc_tensor *sf = tc_full(TC_SCALAR_SHAPE, 5, TC_FLOAT32);

    /* torch.equal(torch.tensor([1, 2, 3]), torch.tensor([1., 2., 3.])) == True */
    ck_assert(tc_equal(i, f));
    ck_assert(tc_equal(f, i));
    /* ... float32 vs float64 [1., 2., 3.] == True */
    ck_assert(tc_equal(f, d));
    /* torch.equal(torch.tensor([0.1]), torch.tensor([0.1], dtype=torch.float64)) == False */
    ck_assert(!tc_equal(f01, d01));
    /* torch.equal(torch.tensor([2**53+1]), torch.tensor([2**53])) == False */
    ck_assert(!tc_equal(big, big2));
    /* torch.equal(torch.tensor([2**53+1]), torch.tensor([2.**53], dtype=torch.float64)) == True */
    ck_assert(tc_equal(big, bigd));
    /* torch.equal(torch.tensor(5), torch.tensor(5.)) == True */
    ck_assert(tc_equal(si, sf));
    tc_release(i);
    tc_release(f);
    tc_release(d);
    tc_release(f01);
    tc_release(d01);
    tc_release(big);
    tc_release(big2);
    tc_release(bigd);
    tc_release(si);
    tc_release(sf);
}
END_TEST

START_TEST(test_equal_shapes_nan_layouts)
{
    tc_tensor *row = F32V(1.f, 2.f, 3.f);
    tc_tensor *mat = F32S(TC_SHAPE(1, 3), 1.f, 2.f, 3.f);
    tc_tensor *n1 = F32V(NAN);
    tc_tensor *n2 = F32V(NAN);
    tc_tensor *sc = tc_full(TC_SCALAR_SHAPE, 5, TC_INT64);
    tc_tensor *v1 = F32V(5.f);
    tc_tensor *e1 = tc_empty(TC_SHAPE(0, 3), TC_FLOAT32);
    tc_tensor *e2 = tc_empty(TC_SHAPE(0, 3), TC_INT64);
    tc_tensor *e3 = tc_empty(TC_SHAPE(3, 0), TC_FLOAT32);
    tc_tensor *t = testing_transposed_arange6(TC_FLOAT32);
    tc_tensor *c = F32S(TC_SHAPE(3, 2), 0.f, 3.f, 1.f, 4.f, 2.f, 5.f);
    tc_tensor *z = F32V(0.f, 1.f);
    tc_tensor *nz = F32V(-0.f, 1.f);

    /* torch.equal(torch.tensor([1., 2., 3.]), torch.tensor([[1., 2., 3.]])) == False */
    ck_assert(!tc_equal(row, mat));
    /* torch.equal(torch.tensor(5), torch.tensor([5.])) == False */
    ck_assert(!tc_equal(sc, v1));
    /* NaN: torch.equal(x, y) == False, and torch.equal(x, x) == False */
    ck_assert(!tc_equal(n1, n2));
    ck_assert(!tc_equal(n1, n1));
    /* torch.equal(torch.empty(0, 3), torch.empty(0, 3, dtype=torch.int64)) == True;
       (0, 3) vs (3, 0) == False */
    ck_assert(tc_equal(e1, e2));
    ck_assert(!tc_equal(e1, e3));
    /* torch.equal(torch.arange(6.).view(2, 3).t(), torch.tensor([[0., 3.], [1., 4.], [2., 5.]])) */
    ck_assert(tc_equal(t, c));
    ck_assert(tc_equal(c, t));
    /* torch.equal(torch.tensor([0., 1.]), torch.tensor([-0., 1.])) == True */
    ck_assert(tc_equal(z, nz));
    ck_assert(tc_set(c, IDX(2, 1), 6.0) == 0);
    ck_assert(!tc_equal(t, c));
    tc_release(row);
    tc_release(mat);
    tc_release(n1);
    tc_release(n2);
    tc_release(sc);
    tc_release(v1);
    tc_release(e1);
    tc_release(e2);
    tc_release(e3);
    tc_release(t);
    tc_release(c);
    tc_release(z);
    tc_release(nz);
}
END_TEST

/* ------------------------------------------------------------------- view */

START_TEST(test_view_infer_and_share)
{
    tc_tensor *six = tc_arange(0, 6, 1);
    tc_tensor *a = tc_view(six, TC_SHAPE(3, -1));           /* torch.Size([3, 2]) */
    tc_tensor *b = tc_view(six, TC_SHAPE(2, -1, 3));        /* stride (3, 3, 1) */
    tc_tensor *big = tc_arange(0, 24, 1);
    tc_tensor *c = tc_view(big, TC_SHAPE(2, -1, 4));        /* torch.Size([2, 3, 4]) */

    ASSERT_SIZES(a, 3, 2);
    ASSERT_STRIDES(a, 2, 1);
    ASSERT_SIZES(b, 2, 1, 3);
    ASSERT_STRIDES(b, 3, 3, 1);
    ASSERT_SIZES(c, 2, 3, 4);
    ASSERT_STRIDES(c, 12, 4, 1);
    ck_assert_ptr_eq(a->storage, six->storage);
    ck_assert_ptr_eq(b->storage, six->storage);
    ck_assert_int_eq(six->storage->refcount, 3);
    ck_assert_int_eq(a->dtype, TC_INT64);
    ck_assert_int_eq(get_int64(a, IDX(2, 1)), 5);
    ck_assert_int_eq(get_int64(c, IDX(1, 2, 3)), 23);
    ck_assert_ptr_eq(tc_data_ptr(a), tc_data_ptr(six));
    tc_release(six);
    tc_release(a);
    tc_release(b);
    tc_release(big);
    tc_release(c);
}
END_TEST

START_TEST(test_view_strides)
{
    tc_tensor *six = tc_arange(0, 6, 1);
    tc_tensor *t = testing_transposed_arange6(TC_INT64);
    tc_shape a = TC_SHAPE(2, 3), b = TC_SHAPE(3, 1, 2), c = TC_SHAPE(6);
    int64_t st[TC_MAX_DIMS] = { 0 };

    /* torch.arange(6).view(2, 3).stride() == (3, 1) */
    ck_assert(tc_view_strides(six, &a, st));
    ck_assert_int_eq(st[0], 3);
    ck_assert_int_eq(st[1], 1);
    /* torch.arange(6).view(3, 1, 2).stride() == (2, 2, 1) */
    ck_assert(tc_view_strides(six, &b, st));
    ck_assert_int_eq(st[0], 2);
    ck_assert_int_eq(st[1], 2);
    ck_assert_int_eq(st[2], 1);
    /* torch.arange(6).view(2, 3).t().view(6) fails: no strides exist */
    ck_assert(!tc_view_strides(t, &c, st));
    tc_release(six);
    tc_release(t);
}
END_TEST

START_TEST(test_view_keeps_offset)
{
    tc_tensor *base = tc_arange(0.0, 6.0, 1.0);
    tc_tensor *tail = testing_over(base, 1, SIZES(4), SIZES(1), 2);    /* torch.arange(6.)[2:] */
    tc_tensor *v = tc_view(tail, TC_SHAPE(2, 2));

    /* torch.arange(6.)[2:].view(2, 2).storage_offset() == 2, values [[2, 3], [4, 5]] */
    ck_assert_int_eq(v->storage_offset, 2);
    ck_assert_ptr_eq(tc_data_ptr(v), tc_data_ptr(tail));
    ck_assert(testing_get(v, IDX(0, 0)) == 2.0);
    ck_assert(testing_get(v, IDX(1, 1)) == 5.0);
    tc_release(base);
    tc_release(tail);
    tc_release(v);
}
END_TEST

START_TEST(test_view_scalar_and_zero_size)
{
    tc_tensor *s = tc_full(TC_SCALAR_SHAPE, 5.0, TC_FLOAT32);
    tc_tensor *a = tc_view(s, TC_SHAPE(1));             /* tensor([5.]) */
    tc_tensor *b = tc_view(s, TC_SHAPE(-1));            /* torch.Size([1]) */
    tc_tensor *c = tc_view(s, TC_SHAPE(1, 1, -1));      /* stride (1, 1, 1) */
    tc_tensor *one = tc_arange(0, 1, 1);
    tc_tensor *d = tc_view(one, TC_SCALAR_SHAPE);       /* torch.arange(1).view(()) == tensor(0) */
    tc_tensor *none = tc_empty(TC_SHAPE(0), TC_FLOAT32);
    tc_tensor *e = tc_view(none, TC_SHAPE(2, 0));       /* stride (1, 1) */
    tc_tensor *z30 = tc_empty(TC_SHAPE(3, 0), TC_FLOAT32);
    tc_tensor *f = tc_view(z30, TC_SHAPE(0, 5));        /* stride (5, 1) */
    tc_tensor *z20 = tc_empty(TC_SHAPE(2, 0), TC_FLOAT32);
    tc_tensor *g = tc_view(z20, TC_SHAPE(-1));          /* tensor([]), size (0,) */

    ASSERT_SIZES(a, 1);
    ck_assert(testing_get(a, IDX(0)) == 5.0);
    ASSERT_SIZES(b, 1);
    ASSERT_SIZES(c, 1, 1, 1);
    ASSERT_STRIDES(c, 1, 1, 1);
    ck_assert_int_eq(d->dim, 0);
    ck_assert_int_eq(get_int64(d, NULL), 0);
    ASSERT_SIZES(e, 2, 0);
    ASSERT_STRIDES(e, 1, 1);
    ASSERT_SIZES(f, 0, 5);
    ASSERT_STRIDES(f, 5, 1);
    ASSERT_SIZES(g, 0);
    tc_release(s);
    tc_release(a);
    tc_release(b);
    tc_release(c);
    tc_release(one);
    tc_release(d);
    tc_release(none);
    tc_release(e);
    tc_release(z30);
    tc_release(f);
    tc_release(z20);
    tc_release(g);
}
END_TEST

/* ------------------------------------------------------------- add_scalar */

START_TEST(test_add_scalar_promotion)
{
    tc_tensor *i = I64V(1, 2, 3);
    tc_tensor *f = F32V(1.f, 2.f, 3.f);
    tc_tensor *d = F64V(1., 2., 3.);
    tc_tensor *ii = tc_add_scalar(i, 1);       /* tensor([2, 3, 4]), int64 */
    tc_tensor *id = tc_add_scalar(i, 0.5);     /* tensor([1.5000, 2.5000, 3.5000]), float32 */
    tc_tensor *fi = tc_add_scalar(f, 1);       /* float32 */
    tc_tensor *dd = tc_add_scalar(d, 0.1);     /* tensor([1.1000, 2.1000, 3.1000], dtype=torch.float64) */
    tc_tensor *di = tc_add_scalar(d, 1);       /* float64 */
    tc_tensor *big = tc_add_scalar(i, (int64_t)1 << 40);    /* [1099511627777, ...] */
    tc_tensor *fh = tc_add_scalar(f, 0.5f);    /* a C float is a Python float */

    ck_assert_int_eq(ii->dtype, TC_INT64);
    ck_assert_int_eq(get_int64(ii, IDX(2)), 4);
    ck_assert_int_eq(id->dtype, TC_FLOAT32);
    ck_assert(testing_get(id, IDX(0)) == 1.5);
    ck_assert(testing_get(id, IDX(2)) == 3.5);
    ck_assert_int_eq(fi->dtype, TC_FLOAT32);
    ck_assert(testing_get(fi, IDX(1)) == 3.0);
    ck_assert_int_eq(dd->dtype, TC_FLOAT64);
    ck_assert(testing_get(dd, IDX(0)) == 1.1);
    ck_assert(testing_get(dd, IDX(2)) == 3.1);
    ck_assert_int_eq(di->dtype, TC_FLOAT64);
    ck_assert(testing_get(di, IDX(2)) == 4.0);
    ck_assert_int_eq(big->dtype, TC_INT64);
    ck_assert_int_eq(get_int64(big, IDX(0)), 1099511627777);
    ck_assert_int_eq(get_int64(big, IDX(1)), 1099511627778);
    ck_assert_int_eq(fh->dtype, TC_FLOAT32);
    ck_assert(testing_get(fh, IDX(2)) == 3.5);
    /* The input is unchanged; the result is a new contiguous tensor. */
    ck_assert_int_eq(get_int64(i, IDX(0)), 1);
    ASSERT_STRIDES(ii, 1);
    tc_release(i);
    tc_release(f);
    tc_release(d);
    tc_release(ii);
    tc_release(id);
    tc_release(fi);
    tc_release(dd);
    tc_release(di);
    tc_release(big);
    tc_release(fh);
}
END_TEST

START_TEST(test_add_scalar_rounding)
{
    tc_tensor *f = F32V(0.1f);
    tc_tensor *d = F64V(0.1);
    tc_tensor *one = F32V(1.f);
    tc_tensor *oned = F64V(1.);
    tc_tensor *a = tc_add_scalar(f, 0.2);
    tc_tensor *b = tc_add_scalar(d, 0.2);
    tc_tensor *c = tc_add_scalar(one, 0x1p-24 + 0x1p-60);
    tc_tensor *e = tc_add_scalar(oned, 0x1p-24 + 0x1p-60);
    tc_tensor *g = tc_add_scalar(one, 1e-8);
    tc_tensor *i = I64V(16777217, 9007199254740993);
    tc_tensor *h = tc_add_scalar(i, 0.5);
    tc_tensor *k = tc_add_scalar(i, 0.0);

    /* (torch.tensor([0.1]) + 0.2).item().hex() == '0x1.3333340000000p-2' */
    ck_assert(testing_get(a, IDX(0)) == 0x1.333334p-2);
    /* (torch.tensor([0.1], dtype=torch.float64) + 0.2).item() == 0.30000000000000004 */
    ck_assert(testing_get(b, IDX(0)) == 0x1.3333333333334p-2);
    /* (torch.tensor([1.0]) + (2**-24 + 2**-60)).item() == 1.0: the scalar is
       rounded to float32 first, then the float32 sum ties to even */
    ck_assert(testing_get(c, IDX(0)) == 1.0);
    /* in float64: 1.0000000596046448 == 0x1.0000010000000p+0 */
    ck_assert(testing_get(e, IDX(0)) == 0x1.000001p+0);
    /* (torch.tensor([1.0]) + 1e-8).item() == 1.0 */
    ck_assert(testing_get(g, IDX(0)) == 1.0);
    /* torch.tensor([16777217]) + 0.5 -> 0x1p+24; torch.tensor([2**53+1]) + 0.0 -> 0x1p+53 */
    ck_assert(testing_get(h, IDX(0)) == 0x1p24);
    ck_assert(testing_get(k, IDX(1)) == 0x1p53);
    tc_release(f);
    tc_release(d);
    tc_release(one);
    tc_release(oned);
    tc_release(a);
    tc_release(b);
    tc_release(c);
    tc_release(e);
    tc_release(g);
    tc_release(i);
    tc_release(h);
    tc_release(k);
}
END_TEST

START_TEST(test_add_scalar_wraparound)
{
    tc_tensor *max = I64V(INT64_MAX);
    tc_tensor *min = I64V(INT64_MIN);
    tc_tensor *a = tc_add_scalar(max, 1);     /* tensor([-9223372036854775808]) */
    tc_tensor *b = tc_add_scalar(min, -1);    /* tensor([9223372036854775807]) */

    ck_assert_int_eq(get_int64(a, IDX(0)), INT64_MIN);
    ck_assert_int_eq(get_int64(b, IDX(0)), INT64_MAX);
    tc_release(max);
    tc_release(min);
    tc_release(a);
    tc_release(b);
}
END_TEST

START_TEST(test_add_scalar_strided_and_empty)
{
    tc_tensor *ti = testing_transposed_arange6(TC_INT64);
    tc_tensor *tf = testing_transposed_arange6(TC_FLOAT32);
    tc_tensor *a = tc_add_scalar(ti, 10);      /* [[10, 13], [11, 14], [12, 15]] */
    tc_tensor *b = tc_add_scalar(ti, 0.5);     /* [[0.5, 3.5], [1.5, 4.5], [2.5, 5.5]] float32 */
    tc_tensor *c = tc_add_scalar(tf, 0.5);
    tc_tensor *want = I64V(10, 13, 11, 14, 12, 15);
    tc_tensor *wv = tc_view(want, TC_SHAPE(3, 2));
    tc_tensor *base = tc_arange(0, 6, 1);
    tc_tensor *tail = testing_over(base, 1, SIZES(4), SIZES(1), 2);
    tc_tensor *d = tc_add_scalar(tail, -2);    /* torch.arange(6)[2:] - 2 == [0, 1, 2, 3] */
    tc_tensor *e0 = tc_empty(TC_SHAPE(0, 3), TC_INT64);
    tc_tensor *e = tc_add_scalar(e0, 1);       /* tensor([], size=(0, 3), dtype=torch.int64) */
    tc_tensor *s = tc_full(TC_SCALAR_SHAPE, 5, TC_INT64);
    tc_tensor *s2 = tc_add_scalar(s, 2);       /* tensor(7) */

    ASSERT_SIZES(a, 3, 2);
    ck_assert_int_eq(a->dtype, TC_INT64);
    ck_assert(tc_equal(a, wv));
    ck_assert_int_eq(get_int64(a, IDX(0, 1)), 13);
    ck_assert_int_eq(get_int64(a, IDX(2, 0)), 12);
    ck_assert_int_eq(b->dtype, TC_FLOAT32);
    ck_assert(testing_get(b, IDX(0, 1)) == 3.5);
    ck_assert(testing_get(b, IDX(2, 0)) == 2.5);
    ck_assert(testing_get(c, IDX(1, 1)) == 4.5);
    ck_assert(testing_get(c, IDX(2, 1)) == 5.5);
    ck_assert_int_eq(get_int64(d, IDX(0)), 0);
    ck_assert_int_eq(get_int64(d, IDX(3)), 3);
    ASSERT_SIZES(e, 0, 3);
    ck_assert_int_eq(e->dtype, TC_INT64);
    ck_assert_int_eq(s2->dim, 0);
    ck_assert_int_eq(get_int64(s2, NULL), 7);
    tc_release(ti);
    tc_release(tf);
    tc_release(a);
    tc_release(b);
    tc_release(c);
    tc_release(want);
    tc_release(wv);
    tc_release(base);
    tc_release(tail);
    tc_release(d);
    tc_release(e0);
    tc_release(e);
    tc_release(s);
    tc_release(s2);
}
END_TEST

/* ---------------------------------------------------------------- printing */

START_TEST(test_repr_int)
{
    ASSERT_REPR(I64V(1, 2, 3), "tensor([1, 2, 3])");                /* torch.tensor([1, 2, 3]) */
    ASSERT_REPR(I64V(-5, 3, 100), "tensor([ -5,   3, 100])");       /* torch.tensor([-5, 3, 100]) */
    /* torch.tensor([2**62, -1]) */
    ASSERT_REPR(I64V((int64_t)1 << 62, -1), "tensor([4611686018427387904,                  -1])");
    /* torch.full((2, 3), -7, dtype=torch.int64) */
    ASSERT_REPR(tc_full(TC_SHAPE(2, 3), -7, TC_INT64), "tensor([[-7, -7, -7],\n        [-7, -7, -7]])");
    /* torch.zeros(2, 2, dtype=torch.int64) */
    ASSERT_REPR(tc_zeros(TC_SHAPE(2, 2), TC_INT64), "tensor([[0, 0],\n        [0, 0]])");
}
END_TEST

START_TEST(test_repr_float_fixed)
{
    ASSERT_REPR(F32V(1.f, 2.f, 3.f), "tensor([1., 2., 3.])");      /* torch.tensor([1., 2., 3.]) */
    /* torch.tensor([1.5, 2.25, -3.125]) */
    ASSERT_REPR(F32V(1.5f, 2.25f, -3.125f), "tensor([ 1.5000,  2.2500, -3.1250])");
    /* torch.tensor([0.1, 3.14159265]) */
    ASSERT_REPR(F32V(0.1f, 3.14159265f), "tensor([0.1000, 3.1416])");
    /* torch.tensor([-1.5, 0., 2.]) */
    ASSERT_REPR(F32V(-1.5f, 0.f, 2.f), "tensor([-1.5000,  0.0000,  2.0000])");
    ASSERT_REPR(tc_zeros(TC_SHAPE(3), TC_FLOAT32), "tensor([0., 0., 0.])");     /* torch.zeros(3) */
    ASSERT_REPR(tc_zeros(TC_SHAPE(1, 1, 1), TC_FLOAT32), "tensor([[[0.]]])");  /* torch.zeros(1, 1, 1) */
}
END_TEST

START_TEST(test_repr_sci)
{
    /* torch.tensor([100000.5, 1.5]): ratio > 1000 */
    ASSERT_REPR(F32V(100000.5f, 1.5f), "tensor([1.0000e+05, 1.5000e+00])");
    /* torch.tensor([0.001, 10.]) */
    ASSERT_REPR(F32V(0.001f, 10.f), "tensor([1.0000e-03, 1.0000e+01])");
    /* torch.tensor([1., 2000.]): whole numbers, ratio > 1000 */
    ASSERT_REPR(F32V(1.f, 2000.f), "tensor([1.0000e+00, 2.0000e+03])");
    /* torch.tensor([2e8, 3e8]), torch.tensor([123456789.]), torch.tensor([1e10]): > 1e8 */
    ASSERT_REPR(F32V(2e8f, 3e8f), "tensor([2.0000e+08, 3.0000e+08])");
    ASSERT_REPR(F32V(123456789.f), "tensor([1.2346e+08])");
    ASSERT_REPR(F32V(1e10f), "tensor([1.0000e+10])");
    /* torch.tensor([1e-5, 2e-5]): < 1e-4 */
    ASSERT_REPR(F32V(1e-5f, 2e-5f), "tensor([1.0000e-05, 2.0000e-05])");
    /* torch.tensor([0.0001]): float32 0.0001 is just below 1e-4 */
    ASSERT_REPR(F32V(0.0001f), "tensor([1.0000e-04])");
}
END_TEST

START_TEST(test_repr_nonfinite_and_zero)
{
    /* torch.tensor([nan, 1., inf, -inf]) */
    ASSERT_REPR(F32V(NAN, 1.f, INFINITY, -INFINITY), "tensor([nan, 1., inf, -inf])");
    /* torch.tensor([nan, 1.5, inf, -inf]) */
    ASSERT_REPR(F32V(NAN, 1.5f, INFINITY, -INFINITY), "tensor([   nan, 1.5000,    inf,   -inf])");
    /* torch.tensor([nan, 1e-5, inf]) */
    ASSERT_REPR(F32V(NAN, 1e-5f, INFINITY), "tensor([       nan, 1.0000e-05,        inf])");
    /* torch.tensor([inf, -inf]) */
    ASSERT_REPR(F32V(INFINITY, -INFINITY), "tensor([inf, -inf])");
    /* torch.tensor([[1.5, nan], [inf, -2.]]) */
    ASSERT_REPR(F32S(TC_SHAPE(2, 2), 1.5f, NAN, INFINITY, -2.f),
                "tensor([[ 1.5000,     nan],\n        [    inf, -2.0000]])");
    /* torch.tensor([-0., 1.]), torch.tensor([-0., 100.]), torch.tensor([-0.]) */
    ASSERT_REPR(F32V(-0.f, 1.f), "tensor([-0., 1.])");
    ASSERT_REPR(F32V(-0.f, 100.f), "tensor([ -0., 100.])");
    ASSERT_REPR(F32V(-0.f), "tensor([-0.])");
}
END_TEST

START_TEST(test_repr_scalars)
{
    ASSERT_REPR(tc_full(TC_SCALAR_SHAPE, 5, TC_INT64), "tensor(5)");           /* torch.tensor(5) */
    ASSERT_REPR(tc_full(TC_SCALAR_SHAPE, -12, TC_INT64), "tensor(-12)");       /* torch.tensor(-12) */
    ASSERT_REPR(tc_full(TC_SCALAR_SHAPE, 2.5, TC_FLOAT32), "tensor(2.5000)");  /* torch.tensor(2.5) */
    ASSERT_REPR(tc_full(TC_SCALAR_SHAPE, 3, TC_FLOAT32), "tensor(3.)");        /* torch.tensor(3.) */
    /* torch.tensor(2.5, dtype=torch.float64) */
    ASSERT_REPR(tc_full(TC_SCALAR_SHAPE, 2.5, TC_FLOAT64), "tensor(2.5000, dtype=torch.float64)");
    ASSERT_REPR(tc_full(TC_SCALAR_SHAPE, (double)NAN, TC_FLOAT32), "tensor(nan)");  /* torch.tensor(nan) */
    ASSERT_REPR(tc_full(TC_SCALAR_SHAPE, -0.0, TC_FLOAT32), "tensor(-0.)");    /* torch.tensor(-0.) */
}
END_TEST

START_TEST(test_repr_float64_suffix)
{
    /* torch.tensor([1.5, 2.], dtype=torch.float64), torch.tensor([1., 2.], dtype=torch.float64) */
    ASSERT_REPR(F64V(1.5, 2.), "tensor([1.5000, 2.0000], dtype=torch.float64)");
    ASSERT_REPR(F64V(1., 2.), "tensor([1., 2.], dtype=torch.float64)");
}
END_TEST

START_TEST(test_repr_suffix_wraps)
{
    double v[7];

    for (int k = 0; k < 7; k++)
        v[k] = k + 0.5;
    /* torch.arange(6, dtype=torch.float64) + 0.5: the suffix still fits */
    ASSERT_REPR(tc_from_data(TC_SHAPE(6), TC_FLOAT64, v),
                "tensor([0.5000, 1.5000, 2.5000, 3.5000, 4.5000, 5.5000], dtype=torch.float64)");
    /* torch.arange(7, dtype=torch.float64) + 0.5: it wraps */
    ASSERT_REPR(tc_from_data(TC_SHAPE(7), TC_FLOAT64, v),
                "tensor([0.5000, 1.5000, 2.5000, 3.5000, 4.5000, 5.5000, 6.5000],\n"
                "       dtype=torch.float64)");
    /* torch.empty(0, 100000, 100000, 100000, 100000, 100000, 100000, 100000, dtype=torch.int64) */
    ASSERT_REPR(tc_empty(TC_SHAPE(0, 100000, 100000, 100000, 100000, 100000, 100000, 100000),
                         TC_INT64),
                "tensor([], size=(0, 100000, 100000, 100000, 100000, 100000, 100000, 100000),\n"
                "       dtype=torch.int64)");
}
END_TEST

START_TEST(test_repr_empty)
{
    ASSERT_REPR(tc_empty(TC_SHAPE(0), TC_FLOAT32), "tensor([])");                        /* torch.empty(0) */
    ASSERT_REPR(tc_empty(TC_SHAPE(0), TC_INT64), "tensor([], dtype=torch.int64)");
    ASSERT_REPR(tc_empty(TC_SHAPE(0), TC_FLOAT64), "tensor([], dtype=torch.float64)");
    ASSERT_REPR(tc_empty(TC_SHAPE(2, 0), TC_FLOAT32), "tensor([], size=(2, 0))");        /* torch.empty(2, 0) */
    /* torch.empty(0, 3, dtype=torch.float64) */
    ASSERT_REPR(tc_empty(TC_SHAPE(0, 3), TC_FLOAT64), "tensor([], size=(0, 3), dtype=torch.float64)");
    /* torch.arange(0, 0, 1) */
    ASSERT_REPR(tc_arange(0, 0, 1), "tensor([], dtype=torch.int64)");
}
END_TEST

START_TEST(test_repr_multi_dim)
{
    tc_tensor *a = tc_arange(0, 12, 1);
    tc_tensor *b = tc_arange(0.0, 16.0, 1.0);

    /* torch.arange(12).view(2, 2, 3) */
    ASSERT_REPR(tc_view(a, TC_SHAPE(2, 2, 3)),
                "tensor([[[ 0,  1,  2],\n         [ 3,  4,  5]],\n\n"
                "        [[ 6,  7,  8],\n         [ 9, 10, 11]]])");
    /* torch.arange(16.).view(2, 2, 2, 2) */
    ASSERT_REPR(tc_view(b, TC_SHAPE(2, 2, 2, 2)),
                "tensor([[[[ 0.,  1.],\n          [ 2.,  3.]],\n\n"
                "         [[ 4.,  5.],\n          [ 6.,  7.]]],\n\n\n"
                "        [[[ 8.,  9.],\n          [10., 11.]],\n\n"
                "         [[12., 13.],\n          [14., 15.]]]])");
    tc_release(a);
    tc_release(b);
}
END_TEST

START_TEST(test_repr_line_wrapping)
{
    float v[40];

    for (int k = 0; k < 40; k++)
        v[k] = (float)k * 1.1f;    /* torch.arange(40.) * 1.1, in float32 */
    /* torch.arange(30.) * 1.1 */
    ASSERT_REPR(tc_from_data(TC_SHAPE(30), TC_FLOAT32, v),
                "tensor([ 0.0000,  1.1000,  2.2000,  3.3000,  4.4000,  5.5000,  6.6000,  7.7000,\n"
                "         8.8000,  9.9000, 11.0000, 12.1000, 13.2000, 14.3000, 15.4000, 16.5000,\n"
                "        17.6000, 18.7000, 19.8000, 20.9000, 22.0000, 23.1000, 24.2000, 25.3000,\n"
                "        26.4000, 27.5000, 28.6000, 29.7000, 30.8000, 31.9000])");
    /* torch.arange(40.).view(2, 20) * 1.1 */
    ASSERT_REPR(tc_from_data(TC_SHAPE(2, 20), TC_FLOAT32, v),
                "tensor([[ 0.0000,  1.1000,  2.2000,  3.3000,  4.4000,  5.5000,  6.6000,  7.7000,\n"
                "          8.8000,  9.9000, 11.0000, 12.1000, 13.2000, 14.3000, 15.4000, 16.5000,\n"
                "         17.6000, 18.7000, 19.8000, 20.9000],\n"
                "        [22.0000, 23.1000, 24.2000, 25.3000, 26.4000, 27.5000, 28.6000, 29.7000,\n"
                "         30.8000, 31.9000, 33.0000, 34.1000, 35.2000, 36.3000, 37.4000, 38.5000,\n"
                "         39.6000, 40.7000, 41.8000, 42.9000]])");
    /* torch.arange(100.) */
    ASSERT_REPR(tc_arange(0.0, 100.0, 1.0),
                "tensor([ 0.,  1.,  2.,  3.,  4.,  5.,  6.,  7.,  8.,  9., 10., 11., 12., 13.,\n"
                "        14., 15., 16., 17., 18., 19., 20., 21., 22., 23., 24., 25., 26., 27.,\n"
                "        28., 29., 30., 31., 32., 33., 34., 35., 36., 37., 38., 39., 40., 41.,\n"
                "        42., 43., 44., 45., 46., 47., 48., 49., 50., 51., 52., 53., 54., 55.,\n"
                "        56., 57., 58., 59., 60., 61., 62., 63., 64., 65., 66., 67., 68., 69.,\n"
                "        70., 71., 72., 73., 74., 75., 76., 77., 78., 79., 80., 81., 82., 83.,\n"
                "        84., 85., 86., 87., 88., 89., 90., 91., 92., 93., 94., 95., 96., 97.,\n"
                "        98., 99.])");
}
END_TEST

START_TEST(test_repr_summarized)
{
    tc_tensor *a = tc_arange(0.0, 2000.0, 1.0);
    tc_tensor *c = tc_arange(0, 3000, 1);
    tc_tensor *fives = tc_full(TC_SHAPE(2000), 5.0, TC_FLOAT32);

    /* torch.arange(10000) */
    ASSERT_REPR(tc_arange(0, 10000, 1), "tensor([   0,    1,    2,  ..., 9997, 9998, 9999])");
    /* torch.arange(1001): just over the threshold */
    ASSERT_REPR(tc_arange(0, 1001, 1), "tensor([   0,    1,    2,  ...,  998,  999, 1000])");
    /* torch.arange(2000.).view(40, 50) */
    ASSERT_REPR(tc_view(a, TC_SHAPE(40, 50)),
                "tensor([[0.0000e+00, 1.0000e+00, 2.0000e+00,  ..., 4.7000e+01, 4.8000e+01,\n"
                "         4.9000e+01],\n"
                "        [5.0000e+01, 5.1000e+01, 5.2000e+01,  ..., 9.7000e+01, 9.8000e+01,\n"
                "         9.9000e+01],\n"
                "        [1.0000e+02, 1.0100e+02, 1.0200e+02,  ..., 1.4700e+02, 1.4800e+02,\n"
                "         1.4900e+02],\n"
                "        ...,\n"
                "        [1.8500e+03, 1.8510e+03, 1.8520e+03,  ..., 1.8970e+03, 1.8980e+03,\n"
                "         1.8990e+03],\n"
                "        [1.9000e+03, 1.9010e+03, 1.9020e+03,  ..., 1.9470e+03, 1.9480e+03,\n"
                "         1.9490e+03],\n"
                "        [1.9500e+03, 1.9510e+03, 1.9520e+03,  ..., 1.9970e+03, 1.9980e+03,\n"
                "         1.9990e+03]])");
    /* x = torch.full((2000,), 5.); x[1000] = 0.5: the hidden element does not
       decide the format */
    ck_assert_int_eq(tc_set(fives, IDX(1000), 0.5), 0);
    ASSERT_REPR(tc_retain(fives), "tensor([5., 5., 5.,  ..., 5., 5., 5.])");
    ck_assert_int_eq(tc_set(fives, IDX(999), 1e-9), 0);
    ck_assert_int_eq(tc_set(fives, IDX(1001), (double)NAN), 0);
    ASSERT_REPR(tc_retain(fives), "tensor([5., 5., 5.,  ..., 5., 5., 5.])");
    /* torch.arange(3000).view(10, 10, 30) */
    ASSERT_REPR(tc_view(c, TC_SHAPE(10, 10, 30)),
                "tensor([[[   0,    1,    2,  ...,   27,   28,   29],\n"
                "         [  30,   31,   32,  ...,   57,   58,   59],\n"
                "         [  60,   61,   62,  ...,   87,   88,   89],\n"
                "         ...,\n"
                "         [ 210,  211,  212,  ...,  237,  238,  239],\n"
                "         [ 240,  241,  242,  ...,  267,  268,  269],\n"
                "         [ 270,  271,  272,  ...,  297,  298,  299]],\n\n"
                "        [[ 300,  301,  302,  ...,  327,  328,  329],\n"
                "         [ 330,  331,  332,  ...,  357,  358,  359],\n"
                "         [ 360,  361,  362,  ...,  387,  388,  389],\n"
                "         ...,\n"
                "         [ 510,  511,  512,  ...,  537,  538,  539],\n"
                "         [ 540,  541,  542,  ...,  567,  568,  569],\n"
                "         [ 570,  571,  572,  ...,  597,  598,  599]],\n\n"
                "        [[ 600,  601,  602,  ...,  627,  628,  629],\n"
                "         [ 630,  631,  632,  ...,  657,  658,  659],\n"
                "         [ 660,  661,  662,  ...,  687,  688,  689],\n"
                "         ...,\n"
                "         [ 810,  811,  812,  ...,  837,  838,  839],\n"
                "         [ 840,  841,  842,  ...,  867,  868,  869],\n"
                "         [ 870,  871,  872,  ...,  897,  898,  899]],\n\n"
                "        ...,\n\n"
                "        [[2100, 2101, 2102,  ..., 2127, 2128, 2129],\n"
                "         [2130, 2131, 2132,  ..., 2157, 2158, 2159],\n"
                "         [2160, 2161, 2162,  ..., 2187, 2188, 2189],\n"
                "         ...,\n"
                "         [2310, 2311, 2312,  ..., 2337, 2338, 2339],\n"
                "         [2340, 2341, 2342,  ..., 2367, 2368, 2369],\n"
                "         [2370, 2371, 2372,  ..., 2397, 2398, 2399]],\n\n"
                "        [[2400, 2401, 2402,  ..., 2427, 2428, 2429],\n"
                "         [2430, 2431, 2432,  ..., 2457, 2458, 2459],\n"
                "         [2460, 2461, 2462,  ..., 2487, 2488, 2489],\n"
                "         ...,\n"
                "         [2610, 2611, 2612,  ..., 2637, 2638, 2639],\n"
                "         [2640, 2641, 2642,  ..., 2667, 2668, 2669],\n"
                "         [2670, 2671, 2672,  ..., 2697, 2698, 2699]],\n\n"
                "        [[2700, 2701, 2702,  ..., 2727, 2728, 2729],\n"
                "         [2730, 2731, 2732,  ..., 2757, 2758, 2759],\n"
                "         [2760, 2761, 2762,  ..., 2787, 2788, 2789],\n"
                "         ...,\n"
                "         [2910, 2911, 2912,  ..., 2937, 2938, 2939],\n"
                "         [2940, 2941, 2942,  ..., 2967, 2968, 2969],\n"
                "         [2970, 2971, 2972,  ..., 2997, 2998, 2999]]])");
    tc_release(a);
    tc_release(c);
    tc_release(fives);
}
END_TEST

START_TEST(test_repr_strided)
{
    tc_tensor *base = tc_arange(0.0, 6.0, 1.0);
    tc_tensor *ints = tc_arange(0, 6, 1);

    /* torch.arange(6.).view(2, 3).t() */
    ASSERT_REPR(testing_transposed_arange6(TC_FLOAT32), "tensor([[0., 3.],\n        [1., 4.],\n        [2., 5.]])");
    /* torch.arange(6.)[2:] */
    ASSERT_REPR(testing_over(base, 1, SIZES(4), SIZES(1), 2), "tensor([2., 3., 4., 5.])");
    /* torch.arange(6).view(2, 3).t() */
    ASSERT_REPR(testing_transposed_arange6(TC_INT64), "tensor([[0, 3],\n        [1, 4],\n        [2, 5]])");
    /* torch.arange(6).view(2, 3).t().view(3, 1, 2): sizes (3, 1, 2), strides (1, 6, 3) */
    ASSERT_REPR(tc_tensor_over(ints->storage, TC_INT64, 3, SIZES(3, 1, 2), SIZES(1, 6, 3), 0),
                "tensor([[[0, 3]],\n\n        [[1, 4]],\n\n        [[2, 5]]])");
    tc_release(base);
    tc_release(ints);
}
END_TEST

START_TEST(test_repr_print_and_null)
{
    FILE *f = tmpfile();
    tc_tensor *t = I64V(1, 2, 3);
    char buf[64] = { 0 };
    size_t n;

    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(tc_print(f, t), 0);
    rewind(f);
    n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    ck_assert_uint_eq(n, strlen("tensor([1, 2, 3])\n"));
    ck_assert_str_eq(buf, "tensor([1, 2, 3])\n");
    /* repr of a failed result is NULL and keeps the failure's message */
    ck_assert_ptr_null(tc_repr(tc_arange(0, 5, 0)));
    ASSERT_ERROR("step must be nonzero");
    tc_release(t);
}
END_TEST

/* ------------------------------------------------------------------ bool */

/* The bool dtype: one byte per element, True/False in repr, and promotion
   to int64 or float32 when a number is added. */
START_TEST(test_bool_dtype)
{
    const bool data[6] = { true, false, true, false, false, true };
    tc_tensor *t = tc_from_data(TC_SHAPE(2, 3), TC_BOOL, data);
    tc_tensor *mask = tc_from_data(TC_SHAPE(2), TC_BOOL, data);
    tc_tensor *sum_int, *sum_float;
    double v;

    ck_assert_uint_eq(tc_itemsize(TC_BOOL), 1);                 /* element_size() == 1 */
    ck_assert_str_eq(tc_dtype_name(TC_BOOL), "torch.bool");
    /* torch.tensor([[True,False,True],[False,False,True]]) */
    ASSERT_REPR(tc_retain(t), "tensor([[ True, False,  True],\n        [False, False,  True]])");
    /* torch.full((2,), 5.0, dtype=torch.bool) */
    ASSERT_REPR(tc_full(TC_SHAPE(2), 5.0, TC_BOOL), "tensor([True, True])");
    /* torch.zeros(2, 0, dtype=torch.bool) */
    ASSERT_REPR(tc_zeros(TC_SHAPE(2, 0), TC_BOOL), "tensor([], size=(2, 0), dtype=torch.bool)");
    /* torch.tensor(False) */
    ASSERT_REPR(tc_zeros(TC_SCALAR_SHAPE, TC_BOOL), "tensor(False)");
    /* torch.tensor([True, False]) + 2 is int64 [3, 2]; + 2.5 is float32 [3.5, 2.5] */
    sum_int = tc_add_scalar(mask, 2);
    sum_float = tc_add_scalar(mask, 2.5);
    ck_assert_int_eq(sum_int->dtype, TC_INT64);
    ck_assert_int_eq(sum_float->dtype, TC_FLOAT32);
    ASSERT_REPR(tc_retain(sum_int), "tensor([3, 2])");
    ASSERT_REPR(tc_retain(sum_float), "tensor([3.5000, 2.5000])");
    /* writing 0.25 into a bool element stores True, reading it gives 1 */
    ck_assert_int_eq(tc_set(t, IDX(0, 1), 0.25), 0);
    ck_assert_int_eq(tc_get(t, IDX(0, 1), &v), 0);
    ck_assert(v == 1.0);
    tc_release(t);
    tc_release(mask);
    tc_release(sum_int);
    tc_release(sum_float);
}
END_TEST

/* ------------------------------------------ issue 15: overflow, shapes, NULL */

/* A tensor of these sizes and strides over an empty storage: legal in
   PyTorch whenever a size is 0, since no element is reachable (in Python,
   torch.empty(0).as_strided(sizes, strides)). */
static tc_tensor *empty_over(int64_t dim, const int64_t *sizes, const int64_t *strides)
{
    tc_storage *storage = tc_storage_new(0);
    tc_tensor *t = tc_tensor_over(storage, TC_FLOAT32, dim, sizes, strides, 0);

    tc_storage_release(storage);
    ck_assert_ptr_nonnull(t);
    return t;
}

/* Issue 15, finding 1: the storage extent of an empty tensor added
   (size - 1) * stride before it saw the zero size (signed overflow). */
START_TEST(test_overflow_like_of_empty_with_huge_strides)
{
    /* M = 2**63 - 1; e = torch.empty(0).as_strided((3, 0, 3), (M, 1, M)) */
    const int64_t M = INT64_MAX;
    tc_tensor *e = empty_over(3, SIZES(3, 0, 3), SIZES(M, 1, M));
    tc_tensor *like;

    ck_assert_int_eq(tc_storage_extent(3, SIZES(3, 0, 3), SIZES(M, 1, M)), 0);
    /* torch.empty_like(e).stride() == (M, 1, M); so zeros_like and ones_like */
    like = tc_empty_like(e);
    ck_assert_ptr_nonnull(like);
    ck_assert_int_eq(like->strides[0], M);
    ck_assert_int_eq(like->strides[1], 1);
    ck_assert_int_eq(like->strides[2], M);
    tc_release(like);
    like = tc_zeros_like(e);
    ck_assert_ptr_nonnull(like);
    ck_assert_int_eq(like->sizes[1], 0);
    ck_assert_int_eq(like->strides[2], M);
    tc_release(like);
    ck_assert_int_eq(tc_numel(e), 0);
    ck_assert(tc_is_contiguous(e));    /* e.is_contiguous() is True */
    tc_release(e);
    /* An extent that does not fit an int64: -1 (library convention). */
    ck_assert_int_eq(tc_storage_extent(2, SIZES(3, 3), SIZES(M, M)), -1);
    /* numel of sizes whose running product overflows before a 0: 0 */
    e = empty_over(3, SIZES((int64_t)1 << 62, 4, 0), SIZES(1, 1, 1));
    ck_assert_int_eq(tc_numel(e), 0);
    tc_release(e);
}
END_TEST

/* Found by tests/fuzz/fuzz_views (corpus: crash-empty-like-of-expand-2p62):
   the bytes of empty_like's storage, 2**62 elements * 4, wrapped to 0 in
   size_t, and the result reached 2**62 elements of a 0-byte storage. */
START_TEST(test_overflow_like_bytes_of_expanded)
{
    /* x = torch.tensor(1.).expand(2**62): one element, stride 0 */
    tc_storage *storage = tc_storage_new(sizeof(float));
    tc_tensor *x = tc_tensor_over(storage, TC_FLOAT32, 1, SIZES((int64_t)1 << 62), SIZES(0), 0);
    tc_tensor *y = tc_tensor_over(storage, TC_FLOAT32, 1, SIZES((int64_t)1 << 61), SIZES(0), 0);

    tc_storage_release(storage);
    /* torch.empty_like(x), torch.zeros_like(x) */
    ASSERT_FAILS(tc_empty_like(x), "Storage size calculation overflowed with "
                                   "sizes=[4611686018427387904] and strides=[1]");
    ASSERT_FAILS(tc_zeros_like(x), "Storage size calculation overflowed with "
                                   "sizes=[4611686018427387904] and strides=[1]");
    /* torch.empty_like(torch.tensor(1.).expand(2**61)): 2**63 bytes */
    ASSERT_FAILS(tc_empty_like(y), "Storage size calculation overflowed with "
                                   "sizes=[2305843009213693952] and strides=[1]");
    tc_release(x);
    tc_release(y);
}
END_TEST

/* Issue 15, finding 3: a shape's dim is checked in one place, by every
   entry point. Library messages (no PyTorch counterpart: a Python list
   cannot have a negative length, and PyTorch has no 16-dim limit). */
START_TEST(test_dim_count_checked_everywhere)
{
    tc_shape above = { .dim = TC_MAX_DIMS + 1 }, negative = { .dim = -1 };
    tc_tensor *x = F32V(1, 2, 3, 4);

    ASSERT_FAILS(tc_empty(above, TC_FLOAT32), "tc: a tensor has at most 16 dimensions, got 17");
    ASSERT_FAILS(tc_empty(negative, TC_FLOAT32),
                 "tc: a number of dimensions cannot be negative, got -1");
    ASSERT_FAILS(tc_zeros(negative, TC_INT64),
                 "tc: a number of dimensions cannot be negative, got -1");
    ASSERT_FAILS(tc_view(x, above), "tc: a tensor has at most 16 dimensions, got 17");
    ASSERT_FAILS(tc_view(x, negative), "tc: a number of dimensions cannot be negative, got -1");
    tc_clear_error();
    ck_assert(!tc_check_dim_count(-5));
    ASSERT_ERROR("tc: a number of dimensions cannot be negative, got -5");
    tc_clear_error();
    ck_assert(tc_check_dim_count(0) && tc_check_dim_count(TC_MAX_DIMS));
    ck_assert_ptr_null(tc_error());
    tc_release(x);
}
END_TEST

/* Issue 15, finding 4: every function given NULL returns its failure value
   and records a message (queries included); an earlier message stays. */
START_TEST(test_null_rule_queries)
{
    const char *null_message = "tc: NULL argument, but no earlier call failed";
    tc_tensor *x = F32V(1, 2);
    double value = 0;
    tc_shape shape;

    tc_clear_error();
    ck_assert_int_eq(tc_numel(NULL), -1);
    ASSERT_ERROR(null_message);
    tc_clear_error();
    ck_assert(!tc_is_contiguous(NULL));
    ASSERT_ERROR(null_message);
    tc_clear_error();
    ck_assert_ptr_null(tc_data_ptr(NULL));
    ASSERT_ERROR(null_message);
    tc_clear_error();
    shape = tc_shape_of(NULL);
    ck_assert_int_eq(shape.dim, -1);
    ASSERT_ERROR(null_message);
    ASSERT_FAILS(tc_empty(shape, TC_FLOAT32),    /* and nothing takes that shape */
                 "tc: a number of dimensions cannot be negative, got -1");
    ck_assert(!tc_equal(x, NULL));
    ASSERT_ERROR(null_message);
    tc_clear_error();
    ASSERT_FAILS_INT(tc_get(x, NULL, &value), "tc: the index is NULL, but the tensor has 1 dimensions");
    ASSERT_FAILS_INT(tc_get(x, IDX(0), NULL), null_message);
    /* an earlier failure's message is kept */
    tc_fail("earlier");
    ck_assert_int_eq(tc_numel(NULL), -1);
    ASSERT_ERROR("earlier");
    tc_clear_error();
    tc_release(x);
}
END_TEST

/* ------------------------------------------------------------------ suite */

Suite *suite_ch01(void)
{
    Suite *s = suite_create("ch01");
    TCase *tc;

    tc = testing_tcase("errors", NULL, NULL);
    tcase_add_test(tc, test_error_none_at_start);
    tcase_add_test(tc, test_error_fail_formats_and_returns_null);
    tcase_add_test(tc, test_error_negative_dimension);
    tcase_add_test(tc, test_error_storage_size_overflow);
    tcase_add_test(tc, test_error_zero_first_is_not_overflow);
    tcase_add_test(tc, test_error_allocation_failure);
    tcase_add_test(tc, test_error_null_chain_keeps_first_message);
    tcase_add_test(tc, test_error_null_arguments_keep_message);
    tcase_add_test(tc, test_error_later_failure_replaces_message);
    tcase_add_test(tc, test_error_failed_records_when_nothing_failed);
    tcase_add_test(tc, test_error_from_data_null);
    tcase_add_test(tc, test_error_arange);
    tcase_add_test(tc, test_error_value_overflow);
    tcase_add_test(tc, test_error_index_out_of_bounds);
    tcase_add_test(tc, test_error_view);
    tcase_add_test(tc, test_error_format_sizes);
    suite_add_tcase(s, tc);

    tc = testing_tcase("storage refcounts", NULL, NULL);
    tcase_add_test(tc, test_storage_new);
    tcase_add_test(tc, test_storage_live_count);
    tcase_add_test(tc, test_storage_view_shares);
    tcase_add_test(tc, test_tensor_new_one_block);
    tcase_add_test(tc, test_storage_tensor_over_retains);
    tcase_add_test(tc, test_storage_tensor_retain_release);
    tcase_add_test(tc, test_storage_new_results_do_not_share);
    suite_add_tcase(s, tc);

    tc = testing_tcase("strides and contiguity", NULL, NULL);
    tcase_add_test(tc, test_shape_macro);
    tcase_add_test(tc, test_shape_numel);
    tcase_add_test(tc, test_shape_dtypes);
    tcase_add_test(tc, test_shape_contiguous_strides);
    tcase_add_test(tc, test_shape_is_contiguous);
    tcase_add_test(tc, test_shape_data_ptr);
    tcase_add_test(tc, test_shape_storage_extent);
    suite_add_tcase(s, tc);

    tc = testing_tcase("empty", NULL, NULL);
    tcase_add_test(tc, test_empty);
    suite_add_tcase(s, tc);
    tc = testing_tcase("zeros", NULL, NULL);
    tcase_add_test(tc, test_zeros);
    suite_add_tcase(s, tc);
    tc = testing_tcase("ones", NULL, NULL);
    tcase_add_test(tc, test_ones);
    suite_add_tcase(s, tc);
    tc = testing_tcase("full", NULL, NULL);
    tcase_add_test(tc, test_full);
    tcase_add_test(tc, test_full_int64_two_to_the_63);
    suite_add_tcase(s, tc);
    tc = testing_tcase("from_data", NULL, NULL);
    tcase_add_test(tc, test_from_data);
    suite_add_tcase(s, tc);

    tc = testing_tcase("arange", NULL, NULL);
    tcase_add_test(tc, test_arange_int64);
    tcase_add_test(tc, test_arange_float32);
    tcase_add_test(tc, test_arange_int64_exact_length);
    suite_add_tcase(s, tc);

    tc = testing_tcase("like", NULL, NULL);
    tcase_add_test(tc, test_like_shape_dtype_values);
    tcase_add_test(tc, test_like_zero_size_keeps_strides);
    suite_add_tcase(s, tc);

    tc = testing_tcase("get/set", NULL, NULL);
    tcase_add_test(tc, test_get_set_negative_indices);
    tcase_add_test(tc, test_get_set_int64_precision);
    tcase_add_test(tc, test_get_set_conversions);
    tcase_add_test(tc, test_get_set_scalar_and_strided);
    tcase_add_test(tc, test_get_set_odometer);
    suite_add_tcase(s, tc);

    tc = testing_tcase("equal", NULL, NULL);
    tcase_add_test(tc, test_equal_dtypes);
    tcase_add_test(tc, test_equal_shapes_nan_layouts);
    suite_add_tcase(s, tc);

    tc = testing_tcase("view", NULL, NULL);
    tcase_add_test(tc, test_view_infer_and_share);
    tcase_add_test(tc, test_view_strides);
    tcase_add_test(tc, test_view_keeps_offset);
    tcase_add_test(tc, test_view_scalar_and_zero_size);
    suite_add_tcase(s, tc);

    tc = testing_tcase("add_scalar", NULL, NULL);
    tcase_add_test(tc, test_add_scalar_promotion);
    tcase_add_test(tc, test_add_scalar_rounding);
    tcase_add_test(tc, test_add_scalar_wraparound);
    tcase_add_test(tc, test_add_scalar_strided_and_empty);
    suite_add_tcase(s, tc);

    tc = testing_tcase("printing", NULL, NULL);
    tcase_add_test(tc, test_repr_int);
    tcase_add_test(tc, test_repr_float_fixed);
    tcase_add_test(tc, test_repr_sci);
    tcase_add_test(tc, test_repr_nonfinite_and_zero);
    tcase_add_test(tc, test_repr_scalars);
    tcase_add_test(tc, test_repr_float64_suffix);
    tcase_add_test(tc, test_repr_suffix_wraps);
    tcase_add_test(tc, test_repr_empty);
    tcase_add_test(tc, test_repr_multi_dim);
    tcase_add_test(tc, test_repr_line_wrapping);
    tcase_add_test(tc, test_repr_summarized);
    tcase_add_test(tc, test_repr_strided);
    tcase_add_test(tc, test_repr_print_and_null);
    suite_add_tcase(s, tc);

    tc = testing_tcase("bool", NULL, NULL);
    tcase_add_test(tc, test_bool_dtype);
    suite_add_tcase(s, tc);

    tc = testing_tcase("issue 15: overflow, dim counts, NULL", NULL, NULL);
    tcase_add_test(tc, test_overflow_like_of_empty_with_huge_strides);
    tcase_add_test(tc, test_overflow_like_bytes_of_expanded);
    tcase_add_test(tc, test_dim_count_checked_everywhere);
    tcase_add_test(tc, test_null_rule_queries);
    suite_add_tcase(s, tc);

    return s;
}
