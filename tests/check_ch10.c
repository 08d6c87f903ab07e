/* check_ch10.c: the Check suite of chapter 10 (the generator, layers,
   SGD, data and the sampler, data parallelism, checkpoints).

   Each helper of the chapter keeps its tests in its own header
   (check_ch10_NAME.h defining static void ch10_add_NAME(Suite *)).
   Expected values come from PyTorch 1.13 or are worked out by hand (or by
   a simple reference written in the test), never from the code under
   test. */
#define _DEFAULT_SOURCE              /* MAP_ANONYMOUS, mkdtemp */
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
#include "check_ch10_random.h"
#include "check_ch10_nn.h"
#include "check_ch10_optim.h"
#include "check_ch10_data.h"
#include "check_ch10_ddp.h"
#include "check_ch10_ckpt.h"

Suite *suite_ch10(void);

Suite *suite_ch10(void)
{
    Suite *s = suite_create("ch10");

    ch10_add_random(s);
    ch10_add_nn(s);
    ch10_add_optim(s);
    ch10_add_data(s);
    ch10_add_ddp(s);
    ch10_add_ckpt(s);
    return s;
}
