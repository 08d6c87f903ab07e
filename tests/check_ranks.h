/* check_ranks.h: what the suites of chapters 9 and 10 share to run a test
   on several ranks. A rank's body counts its failed expectations in a
   local `bad` and returns it, so that the rank exits non-zero and
   ranks_launch fails the test with the launcher's summary. */
#ifndef CHECK_RANKS_H
#define CHECK_RANKS_H

#include <stdio.h>
#include <string.h>
#include <time.h>

/* Launch n ranks running body(arg, rank) and assert that they all exited
   0 (within two minutes, far more than any test needs). */
static void ranks_launch(int n, int (*body)(void *, int), void *arg)
{
    tc_launch_options o = { .nproc = n, .timeout_seconds = 120 };
    tc_launch_result res;
    ck_assert_msg(tc_launch_fn(&o, body, arg, &res) == 0, "%s", tc_error());
    ck_assert_msg(res.exit_code == 0, "%d ranks: %s", n, res.summary);
}

/* In a rank: count a failed expectation. */
#define RANK_EXPECT(cond)                                                          \
    do {                                                                           \
        if (!(cond)) {                                                             \
            fprintf(stderr, "rank %d: line %d: %s\n", rank, __LINE__, #cond);      \
            bad++;                                                                 \
        }                                                                          \
    } while (0)

/* In a rank: the last call failed with exactly this message. */
#define RANK_MESSAGE(want)                                                         \
    do {                                                                           \
        const char *got_ = tc_error();                                             \
        if (got_ == NULL || strcmp(got_, (want)) != 0) {                           \
            fprintf(stderr, "rank %d: line %d: message\n  got  %s\n  want %s\n",   \
                    rank, __LINE__, got_ ? got_ : "(none)", (want));               \
            bad++;                                                                 \
        }                                                                          \
    } while (0)

/* A monotonic clock, in seconds. */
static double ranks_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

#endif
