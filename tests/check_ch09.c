/* check_ch09.c: the Check suite of chapter 9 (process groups and their
   collectives, the launcher, device meshes, distributed tensors and their
   operators).

   Each helper of the chapter keeps its tests in its own header
   (check_ch09_pg.h, check_ch09_launch.h, check_ch09_dtensor.h,
   check_ch09_dops.h), each defining static void ch09_add_NAME(Suite *).
   Tests that need several ranks start them with tc_launch_fn (fork) and
   check, in every rank, the result against the serial one computed in that
   rank; the test asserts that every rank exited 0. Expected values come
   from PyTorch or are worked out by hand, never from the code under test. */
#define _DEFAULT_SOURCE              /* MAP_ANONYMOUS, for the launcher tests */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tc.h"
#include "testing.h"

#include "check_ranks.h"
#include "check_ch09_pg.h"
#include "check_ch09_launch.h"
#include "check_ch09_dtensor.h"
#include "check_ch09_dops.h"

Suite *suite_ch09(void);

Suite *suite_ch09(void)
{
    Suite *s = suite_create("ch09");

    ch09_add_pg(s);
    ch09_add_launch(s);
    ch09_add_dtensor(s);
    ch09_add_dops(s);
    return s;
}
