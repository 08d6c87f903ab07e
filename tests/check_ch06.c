/* check_ch06.c: the Check suite of chapter 6 (softmax, log_softmax,
   logsumexp, nll_loss, cross_entropy and the fused cross-entropy).
   Being written on branch "tests". */
#include <check.h>
#include <math.h>

#include "tc.h"
#include "testing.h"

/* The reduction enumeration keeps at::Reduction's values (None 0, Mean 1, Sum 2). */
START_TEST(test_reduction_values)
{
    ck_assert_int_eq(TC_REDUCTION_NONE, 0);
    ck_assert_int_eq(TC_REDUCTION_MEAN, 1);
    ck_assert_int_eq(TC_REDUCTION_SUM, 2);
}
END_TEST

Suite *suite_ch06(void)
{
    Suite *s = suite_create("ch06");
    TCase *tc = testing_tcase("reduction", NULL, NULL);

    tcase_add_test(tc, test_reduction_values);
    suite_add_tcase(s, tc);
    return s;
}
