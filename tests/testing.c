/* testing.c: helpers shared by the chapters' suites. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
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

bool testing_quick(void)
{
    const char *q = getenv("TC_TEST_QUICK");
    return q != NULL && *q != '\0' && strcmp(q, "0") != 0;
}

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

int64_t testing_numel(tc_shape shape)
{
    int64_t n = 1;

    for (int64_t d = 0; d < shape.dim; d++)
        n *= shape.sizes[d];
    return n;
}

tc_tensor *testing_tensor(tc_shape shape, tc_dtype dtype, const double *values)
{
    tc_tensor *t = testing_keep(tc_empty(shape, dtype));

    ck_assert_ptr_nonnull(t);
    for (int64_t k = 0; k < testing_numel(shape); k++)
        if (dtype == TC_INT64)
            tc_store_int64(t, k, (int64_t)values[k]);
        else
            tc_store(t, k, values[k]);
    return t;
}

tc_tensor *testing_int64_tensor(tc_shape shape, const int64_t *values)
{
    tc_tensor *t = testing_keep(tc_empty(shape, TC_INT64));

    ck_assert_ptr_nonnull(t);
    for (int64_t k = 0; k < testing_numel(shape); k++)
        tc_store_int64(t, k, values[k]);
    return t;
}

double testing_element(const tc_tensor *t, int64_t k)
{
    int64_t position = t->storage_offset;

    for (int64_t d = t->dim - 1; d >= 0; d--) {
        position += (k % t->sizes[d]) * t->strides[d];
        k /= t->sizes[d];
    }
    return tc_load(t, position);
}

bool testing_close(double got, double want, testing_tol tol)
{
    double error = fabs(got - want), scaled = tol.rtol * fabs(want);

    if (isnan(want) || isnan(got))
        return isnan(want) && isnan(got);
    if (isinf(want) || isinf(got))
        return got == want;
    return error <= (tol.max_rule ? fmax(tol.atol, scaled) : tol.atol + scaled);
}

/* "line N: what" (or "what" alone if line <= 0), for the messages. */
static const char *testing_label(char *buf, size_t size, int line, const char *what)
{
    if (line > 0)
        snprintf(buf, size, "line %d: %s", line, what);
    else
        snprintf(buf, size, "%s", what);
    return buf;
}

void testing_expect_values(int line, const char *what, const tc_tensor *t, int64_t n,
                           const double *values, testing_tol tol)
{
    char buf[512];
    const char *label = testing_label(buf, sizeof buf, line, what);

    ck_assert_msg(t != NULL, "%s is NULL (%s)", label, tc_error() ? tc_error() : "no error");
    ck_assert_msg(tc_numel(t) == n, "%s has %lld elements, expected %lld", label,
                  (long long)tc_numel(t), (long long)n);
    for (int64_t k = 0; k < n; k++)
        ck_assert_msg(testing_close(testing_element(t, k), values[k], tol),
                      "%s element %lld is %.17g, expected %.17g", label, (long long)k,
                      testing_element(t, k), values[k]);
}

void testing_expect_tensor(int line, const char *what, const tc_tensor *t, tc_dtype dtype,
                           tc_shape shape, const double *values, testing_tol tol)
{
    char buf[512];
    const char *label = testing_label(buf, sizeof buf, line, what);

    ck_assert_msg(t != NULL, "%s is NULL (%s)", label, tc_error() ? tc_error() : "no error");
    ck_assert_msg(t->dtype == dtype, "%s has dtype %s, expected %s", label,
                  tc_dtype_name(t->dtype), tc_dtype_name(dtype));
    ck_assert_msg(t->dim == shape.dim, "%s has dim %lld, expected %lld", label,
                  (long long)t->dim, (long long)shape.dim);
    for (int64_t d = 0; d < shape.dim; d++)
        ck_assert_msg(t->sizes[d] == shape.sizes[d], "%s size %lld is %lld, not %lld", label,
                      (long long)d, (long long)t->sizes[d], (long long)shape.sizes[d]);
    testing_expect_values(line, what, t, testing_numel(shape), values, tol);
}

/* ------------------------------------------ the cases tables of tests/pytorch/ */

int testing_parse_ints(const char *text, int64_t *v, int max)
{
    int n = 0;
    char *end;

    for (;;) {
        while (*text == ' ')
            text++;
        if (*text == '\0' || *text == '/' || (*text == '-' && (text[1] == ' ' || text[1] == '\0')))
            break;
        ck_assert_int_lt(n, max);
        v[n++] = strtoll(text, &end, 10);
        ck_assert_ptr_ne(end, text);
        text = end;
    }
    return n;
}

tc_shape testing_shape_of_sizes(const int64_t *sizes, int n)
{
    tc_shape s = { .dim = n };

    memcpy(s.sizes, sizes, (size_t)n * sizeof *sizes);
    return s;
}

bool testing_case_parts(char *text, char **middle, char **last)
{
    char *bar1 = strchr(text, '|'), *bar2 = bar1 == NULL ? NULL : strchr(bar1 + 1, '|');

    if (bar2 == NULL)
        return false;
    *bar1 = *bar2 = '\0';
    *middle = bar1 + 1;
    *last = bar2 + 1;
    return true;
}
