/* check_ch07.c: the Check suite of chapter 7 (threads, the iterator, the
   vectorized kernels, reductions and copies, the blocked matmul).

   Each helper of the chapter keeps its tests beside the others' in its own
   header (check_ch07_iter.h, check_ch07_vec.h, check_ch07_reduce.h,
   check_ch07_matmul.h), each defining static void ch07_add_NAME(Suite *).
   Expected values come from PyTorch 1.13, from hand-worked stride vectors,
   or from the scalar reference loops written in the headers, never from the
   code under test. */
#include <check.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tc.h"
#include "testing.h"

#include "check_ch07_iter.h"
#include "check_ch07_vec.h"
#include "check_ch07_reduce.h"
#include "check_ch07_matmul.h"

Suite *suite_ch07(void);

Suite *suite_ch07(void)
{
    Suite *s = suite_create("ch07");

    ch07_add_iter(s);
    ch07_add_vec(s);
    ch07_add_reduce(s);
    ch07_add_matmul(s);
    return s;
}
