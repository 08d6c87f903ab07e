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
