/* check_main.c: the test program of snapshot N, which runs the Check suites
   of chapters 1..N. The Makefile writes suites.h for each snapshot, e.g.
   #define SUITES SUITE(ch01) SUITE(ch02) */
#include <check.h>
#include <stdlib.h>

#include "suites.h"

#define SUITE(name) Suite *suite_##name(void);
SUITES
#undef SUITE

int main(void)
{
    SRunner *runner = srunner_create(NULL);
    int failed;

#define SUITE(name) srunner_add_suite(runner, suite_##name());
    SUITES
#undef SUITE
    srunner_run_all(runner, CK_NORMAL);
    failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
