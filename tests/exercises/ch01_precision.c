/* Exercise 1.3: torch.set_printoptions(precision=p) as
   void tc_set_print_precision(int precision). */
#include "exercise.h"

void tc_set_print_precision(int precision) TC_EXERCISE_WEAK;

int main(void)
{
    const float thirds[] = { 1.0f / 3, 2.0f / 3 }, tiny[] = { 1e-5f, 1.0f }, whole[] = { 2, 3 };
    tc_tensor *a = tc_from_data(TC_SHAPE(2), TC_FLOAT32, thirds);
    tc_tensor *b = tc_from_data(TC_SHAPE(2), TC_FLOAT32, tiny);
    tc_tensor *c = tc_from_data(TC_SHAPE(2), TC_FLOAT32, whole);

    if (tc_set_print_precision == NULL) {
        tc_release(a), tc_release(b), tc_release(c);
        return exercise_not_started("ch01_precision", "tc_set_print_precision");
    }
    tc_set_print_precision(2);    /* torch.set_printoptions(precision=2) */
    expect_repr("[1/3, 2/3] at precision 2", a, "tensor([0.33, 0.67])");
    expect_repr("[1e-5, 1] at precision 2", b, "tensor([1.00e-05, 1.00e+00])");
    expect_repr("[2, 3] at precision 2", c, "tensor([2., 3.])");
    tc_set_print_precision(6);    /* torch.set_printoptions(precision=6) */
    expect_repr("[1/3, 2/3] at precision 6", a, "tensor([0.333333, 0.666667])");
    tc_set_print_precision(4);    /* the default again */
    expect_repr("[1/3, 2/3] at precision 4", a, "tensor([0.3333, 0.6667])");
    tc_release(a);
    tc_release(b);
    tc_release(c);
    return exercise_verdict("ch01_precision");
}
