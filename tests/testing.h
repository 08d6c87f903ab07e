/* testing.h: what the suites of several chapters share. */
#ifndef TESTING_H
#define TESTING_H

#include "tc.h"

/* Assert that t (the result of `what`, at `line`) is NULL and that the
   recorded message is exactly `expected`; release t either way. */
void testing_fails(int line, const char *what, tc_tensor *t, const char *expected);

/* The call, run with no pending error, fails with exactly `expected`. */
#define EXPECT_FAILS(call, expected) \
    testing_fails(__LINE__, #call, (tc_clear_error(), (call)), expected)

/* torch.arange(n.).view(shape), float32, n the number of elements: a new
   reference (the test fails if it cannot be made). */
tc_tensor *testing_grid(tc_shape shape);

#endif
