/* testing.h: what the suites of several chapters share. */
#ifndef TESTING_H
#define TESTING_H

#include <check.h>
#include <stdbool.h>
#include <stdint.h>

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

/* TC_TEST_QUICK is set and not "0" (the valgrind run): a long test does
   fewer rounds, world sizes or shapes. */
bool testing_quick(void);

/* Sizes, strides or an index, written inline: SIZES(2, 3), IDX(0, 1). */
#define SIZES(...) ((const int64_t[]){ __VA_ARGS__ })
#define IDX(...) ((const int64_t[]){ __VA_ARGS__ })

/* Assert t's dim and each of its strides (sizes) against the list. */
#define ASSERT_STRIDES(t, ...)                                             \
    do {                                                                   \
        const int64_t want_[] = { __VA_ARGS__ };                           \
        int64_t n_ = (int64_t)(sizeof want_ / sizeof want_[0]);            \
        ck_assert_int_eq((t)->dim, n_);                                    \
        for (int64_t d_ = 0; d_ < n_; d_++)                                \
            ck_assert_int_eq((t)->strides[d_], want_[d_]);                 \
    } while (0)

#define ASSERT_SIZES(t, ...)                                               \
    do {                                                                   \
        const int64_t want_[] = { __VA_ARGS__ };                           \
        int64_t n_ = (int64_t)(sizeof want_ / sizeof want_[0]);            \
        ck_assert_int_eq((t)->dim, n_);                                    \
        for (int64_t d_ = 0; d_ < n_; d_++)                                \
            ck_assert_int_eq((t)->sizes[d_], want_[d_]);                   \
    } while (0)

/* The element of t at index, as a double (the read must succeed). */
double testing_get(const tc_tensor *t, const int64_t *index);

/* A header over base's storage with the given layout. */
tc_tensor *testing_over(const tc_tensor *base, int64_t dim, const int64_t *sizes,
                        const int64_t *strides, int64_t offset);

/* torch.arange(6.).view(2, 3).t() (float32) or torch.arange(6).view(2, 3).t()
   (int64): sizes (3, 2), strides (1, 3). */
tc_tensor *testing_transposed_arange6(tc_dtype dtype);

/* A storage of 1024 float32 elements, to lay headers over. */
tc_storage *testing_scratch_storage(void);

/* query(t) for a float32 header with this layout over a scratch storage:
   asks tc_is_contiguous and its kin about layouts no view makes. */
bool testing_layout_is(bool (*query)(const tc_tensor *), int64_t dim,
                       const int64_t *sizes, const int64_t *strides);

/* The strides of empty_like of a tensor with this layout, into out;
   returns the result's dim, or -1 if empty_like failed. No assertion
   fires before everything is released. */
int64_t testing_empty_like_strides(int64_t dim, const int64_t *sizes,
                                   const int64_t *strides, int64_t *out);

/* Temporaries: K(t) returns t and releases it when the test ends (in the
   teardown of testing_tcase), so that a chain of calls can be written as
   one nested expression. NULL passes through. */
tc_tensor *testing_keep(tc_tensor *t);
#define K(t) testing_keep(t)

/* Release what K kept so far (a long test that loops, between trials). */
void testing_release_kept(void);

/* A test case whose every test runs between setup and teardown (either
   may be NULL) with no pending error before and after; what K kept is
   released after teardown. */
TCase *testing_tcase(const char *name, void (*setup)(void), void (*teardown)(void));

/* ---------------------------------------- tensors from C arrays, and values */

/* The number of elements of a tensor of this shape. */
int64_t testing_numel(tc_shape shape);

/* A new tensor of this shape and dtype holding values (row-major), kept (K):
   int64 elements are the doubles converted exactly (below 2^53), the others
   stored by tc_store. The test fails if it cannot be made. */
tc_tensor *testing_tensor(tc_shape shape, tc_dtype dtype, const double *values);

/* An int64 tensor of this shape holding values (class indices ...), kept. */
tc_tensor *testing_int64_tensor(tc_shape shape, const int64_t *values);

/* Element k of t in row-major order, whatever its strides and offset. */
double testing_element(const tc_tensor *t, int64_t k);

/* How near a value must be to the expected one. NaN matches only NaN and an
   infinity only itself (on either side), whatever the tolerance; other values
   match when |got - want| <= atol + rtol * |want| (torch.allclose's rule) or,
   with max_rule, when |got - want| <= max(atol, rtol * |want|). All zero:
   exactly. */
typedef struct {
    double rtol, atol;
    bool max_rule;
} testing_tol;

#define TESTING_TOL(rtol, atol) ((testing_tol){ (rtol), (atol), false })

bool testing_close(double got, double want, testing_tol tol);

/* Assert that t (the result of `what`, at `line`; no line in the messages if
   line <= 0) is not NULL, holds n elements, and that each, in row-major order,
   is its entry of values within tol. Neither dtype nor shape is asserted. */
void testing_expect_values(int line, const char *what, const tc_tensor *t, int64_t n,
                           const double *values, testing_tol tol);

/* Assert that t is not NULL, has this dtype and shape, and that each of its
   elements (row-major) is its entry of values within tol. */
void testing_expect_tensor(int line, const char *what, const tc_tensor *t, tc_dtype dtype,
                           tc_shape shape, const double *values, testing_tol tol);

/* ------------------------------------------ the cases tables of tests/pytorch/ */

/* The integers of a space-separated list into v (at most max of them),
   stopping at the end, at a '/', or at a "-" standing alone (the tables'
   empty list); their count. */
int testing_parse_ints(const char *text, int64_t *v, int max);

/* The shape of n sizes. */
tc_shape testing_shape_of_sizes(const int64_t *sizes, int n);

/* A case's text split in place at its two bars ("a | b | c") into three
   parts; false if it has fewer bars. */
bool testing_case_parts(char *text, char **middle, char **last);

#endif
