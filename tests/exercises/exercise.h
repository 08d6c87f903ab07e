/* exercise.h: what the exercise tests share.

   tests/exercises/chNN_NAME.c checks exercise NAME at the end of chapter
   NN. It is a program built against snapshot NN (`make exercises` builds
   and runs them all; `make exercises EX=ch01_eye` runs one). It exits 0
   once the exercise is solved and 1, saying what is still missing, before.
   `make check` builds every one, so they always compile against the book's
   code, and checks that each still reports "to do" there.

   A function the reader is asked to add is declared here with
   TC_EXERCISE_WEAK: until the reader defines it, the linker leaves its
   address NULL, and the test reports the exercise as not started. Declare
   it in the library with exactly the prototype the exercise gives. Every
   expected value was worked out with PyTorch 1.13 (the Python expression
   is quoted next to it). */
#ifndef EXERCISE_H
#define EXERCISE_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tc.h"

#define TC_EXERCISE_WEAK __attribute__((weak))

static int exercise_missing;

/* Record a check that does not hold yet, with a message. */
#define EXPECT(cond, ...)                                                  \
    do {                                                                   \
        if (!(cond)) {                                                     \
            printf("    not yet: ");                                       \
            printf(__VA_ARGS__);                                           \
            printf("\n");                                                  \
            exercise_missing++;                                            \
        }                                                                  \
    } while (0)

/* repr(t) is exactly `want` (t may be NULL: then it is a failure). */
static inline void expect_repr(const char *what, const tc_tensor *t, const char *want)
{
    char *got = t != NULL ? tc_repr(t) : NULL;

    EXPECT(got != NULL && strcmp(got, want) == 0, "%s is %s, want %s", what,
           got != NULL ? got : (tc_error() != NULL ? tc_error() : "NULL"), want);
    free(got);
}

/* t (may be NULL: then it is a failure) has n elements, which read in
   row-major order are want[0..n) to within 1e-6 + 1e-5 |want[i]| (the
   tolerance of the chapters' checks); a NaN matches only a NaN, an infinity
   only itself. */
static inline void expect_values(const char *what, const tc_tensor *t, int64_t n,
                                 const double *want)
{
    int64_t index[TC_MAX_DIMS] = { 0 }, i = 0;
    double got = 0;
    bool same = t != NULL && tc_numel(t) == n;

    if (same && n > 0) {
        do {
            if (tc_get(t, index, &got) < 0)
                same = false;
            else if (isnan(want[i]) || isinf(want[i]))
                same = isnan(want[i]) ? isnan(got) : got == want[i];
            else
                same = fabs(got - want[i]) <= 1e-6 + 1e-5 * fabs(want[i]);
            i++;
        } while (same && tc_next_index(t->dim, t->sizes, index));
    }
    EXPECT(same, "%s: %s", what,
           t == NULL ? (tc_error() != NULL ? tc_error() : "NULL")
           : tc_numel(t) != n ? "wrong number of elements"
                              : "element differs from PyTorch's");
    if (same)
        return;
    if (t != NULL && tc_numel(t) == n && i > 0)
        printf("      element %lld is %.9g, want %.9g\n", (long long)(i - 1), got, want[i - 1]);
    tc_clear_error();
}

/* The call failed with exactly PyTorch's message `want`. */
static inline void expect_error(const char *what, const void *result, const char *want)
{
    const char *got = tc_error();

    EXPECT(result == NULL && got != NULL && strcmp(got, want) == 0,
           "%s should fail with \"%s\", got %s%s%s", what, want,
           result != NULL ? "a result" : "\"", result != NULL ? "" : (got ? got : "(none)"),
           result != NULL ? "" : "\"");
    tc_clear_error();
}

/* The exercise's verdict, as the program's exit status. */
static inline int exercise_verdict(const char *name)
{
    if (exercise_missing > 0) {
        printf("%s: to do (%d check%s not passing yet)\n", name, exercise_missing,
               exercise_missing == 1 ? "" : "s");
        return 1;
    }
    printf("%s: solved\n", name);
    return 0;
}

/* The function the exercise adds does not exist yet. */
static inline int exercise_not_started(const char *name, const char *function)
{
    printf("%s: to do (%s is not defined yet)\n", name, function);
    return 1;
}

#ifdef TC_LAUNCH_H
/* Chapter 9's exercises: run body on n ranks (forked by tc_launch_fn); a
   rank that fails counts as a missing piece, a rank killed by a signal
   also prints the launcher's summary. */
static inline void exercise_on_ranks(int n, int (*body)(void *arg, int rank))
{
    tc_launch_options options = { .nproc = n };
    tc_launch_result result;

    fflush(stdout);
    if (tc_launch_fn(&options, body, NULL, &result) < 0) {
        printf("    cannot start %d ranks: %s\n", n, tc_error());
        exercise_missing++;
    } else if (result.exit_code != 0) {
        exercise_missing++;
        if (result.failed_signal != 0)
            printf("    %s\n", result.summary);
    }
}
#endif

#endif
