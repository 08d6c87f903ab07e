/* testing.c: helpers shared by the chapters' suites. */
#include <check.h>
#include <string.h>

#include "testing.h"

void testing_fails(int line, const char *what, tc_tensor *t, const char *expected)
{
    const char *e = tc_error();
    bool failed = t == NULL;

    tc_release(t);
    ck_assert_msg(failed, "line %d: %s succeeded, expected \"%s\"", line, what, expected);
    ck_assert_msg(e != NULL && strcmp(e, expected) == 0,
                  "line %d: %s: message \"%s\", expected \"%s\"", line, what,
                  e != NULL ? e : "(none)", expected);
    tc_clear_error();
}

tc_tensor *testing_grid(tc_shape shape)
{
    int64_t n = 1;
    tc_tensor *flat, *t;

    for (int64_t d = 0; d < shape.dim; d++)
        n *= shape.sizes[d];
    flat = tc_arange(0.0, (double)n, 1.0);
    ck_assert_ptr_nonnull(flat);
    t = tc_view(flat, shape);
    tc_release(flat);
    ck_assert_ptr_nonnull(t);
    return t;
}

double testing_get(const tc_tensor *t, const int64_t *index)
{
    double value = -12345.0;

    ck_assert_int_eq(tc_get(t, index, &value), 0);
    return value;
}

tc_tensor *testing_over(const tc_tensor *base, int64_t dim, const int64_t *sizes,
                        const int64_t *strides, int64_t offset)
{
    return tc_tensor_over(base->storage, base->dtype, dim, sizes, strides, offset);
}

tc_tensor *testing_transposed_arange6(tc_dtype dtype)
{
    tc_tensor *base = dtype == TC_INT64 ? tc_arange(0, 6, 1) : tc_arange(0.0, 6.0, 1.0);
    tc_tensor *t;

    ck_assert_ptr_nonnull(base);
    ck_assert_int_eq(base->dtype, dtype);
    t = testing_over(base, 2, SIZES(3, 2), SIZES(1, 3), 0);
    tc_release(base);
    return t;
}

tc_storage *testing_scratch_storage(void)
{
    tc_storage *s = tc_storage_new(1024 * sizeof(float));

    ck_assert_ptr_nonnull(s);
    return s;
}

bool testing_layout_is(bool (*query)(const tc_tensor *), int64_t dim,
                       const int64_t *sizes, const int64_t *strides)
{
    tc_storage *s = testing_scratch_storage();
    tc_tensor *t = tc_tensor_over(s, TC_FLOAT32, dim, sizes, strides, 0);
    bool result;

    tc_storage_release(s);
    ck_assert_ptr_nonnull(t);
    result = query(t);
    tc_release(t);
    return result;
}

int64_t testing_empty_like_strides(int64_t dim, const int64_t *sizes,
                                   const int64_t *strides, int64_t *out)
{
    tc_storage *s = testing_scratch_storage();
    tc_tensor *t = tc_tensor_over(s, TC_FLOAT32, dim, sizes, strides, 0);
    tc_tensor *like = tc_empty_like(t);
    int64_t result = -1;

    if (like != NULL) {
        result = like->dim;
        memcpy(out, like->strides, (size_t)like->dim * sizeof(int64_t));
    }
    tc_release(like);
    tc_release(t);
    tc_storage_release(s);
    return result;
}

enum { KEEP_MAX = 512 };
static tc_tensor *kept[KEEP_MAX];
static int nkept;

tc_tensor *testing_keep(tc_tensor *t)
{
    if (t != NULL) {
        ck_assert_msg(nkept < KEEP_MAX, "too many kept tensors");
        kept[nkept++] = t;
    }
    return t;
}

void testing_release_kept(void)
{
    while (nkept > 0)
        tc_release(kept[--nkept]);
}

static void fixture_setup(void)
{
    tc_clear_error();
    nkept = 0;
}

static void fixture_teardown(void)
{
    testing_release_kept();
    tc_clear_error();
}

TCase *testing_tcase(const char *name, void (*setup)(void), void (*teardown)(void))
{
    TCase *tc = tcase_create(name);

    tcase_add_checked_fixture(tc, fixture_setup, fixture_teardown);
    if (setup != NULL || teardown != NULL)
        tcase_add_checked_fixture(tc, setup, teardown);
    return tc;
}
