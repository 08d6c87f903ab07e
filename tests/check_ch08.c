/* check_ch08.c: the Check suite of chapter 8 (the operator registry, the
   library's operators in it, load_inline).

   Each helper of the chapter keeps its tests in its own header
   (check_ch08_dispatch.h, check_ch08_native.h, check_ch08_inline.h), each
   defining static void ch08_add_NAME(Suite *). Expected values come from
   PyTorch 1.13 or are worked out by hand, never from the code under test. */
#define _POSIX_C_SOURCE 200809L   /* fork, mkdtemp, setenv, symlink (check_ch08_inline.h) */
#include <check.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tc.h"
#include "testing.h"

#include "check_ch08_dispatch.h"
#include "check_ch08_native.h"
#include "check_ch08_inline.h"

Suite *suite_ch08(void);

Suite *suite_ch08(void)
{
    Suite *s = suite_create("ch08");

    ch08_add_dispatch(s);
    ch08_add_native(s);
    ch08_add_inline(s);
    return s;
}
