/* Exercise 3.2: torch.clamp(x, min, max) as a ternary elementwise operation
   whose bounds are numbers (tc_number), promoted like any operand:
   tc_tensor *tc_clamp(const tc_tensor *x, const tc_tensor *min, const tc_tensor *max). */
#include "exercise.h"

tc_tensor *tc_clamp(const tc_tensor *x, const tc_tensor *min, const tc_tensor *max)
    TC_EXERCISE_WEAK;

int main(void)
{
    const float xf[] = { -2, 0.5f, 3, 7 };
    const int64_t xi[] = { -2, 1, 9 };
    tc_tensor *x = tc_from_data(TC_SHAPE(4), TC_FLOAT32, xf);
    tc_tensor *i = tc_from_data(TC_SHAPE(3), TC_INT64, xi);
    tc_tensor *zero = tc_number(0), *five = tc_number(5), *half = tc_number(0.5);
    tc_tensor *r1, *r2, *r3, *r4;

    if (tc_clamp == NULL) {
        tc_release(x), tc_release(i), tc_release(zero), tc_release(five), tc_release(half);
        return exercise_not_started("ch03_clamp", "tc_clamp");
    }
    r1 = tc_clamp(x, zero, five);    /* torch.clamp(torch.tensor([-2., .5, 3., 7.]), 0, 5) */
    expect_repr("clamp(x, 0, 5)", r1, "tensor([0.0000, 0.5000, 3.0000, 5.0000])");
    r2 = tc_clamp(i, zero, five);    /* torch.clamp(torch.tensor([-2, 1, 9]), 0, 5) */
    expect_repr("clamp([-2, 1, 9], 0, 5)", r2, "tensor([0, 1, 5])");
    r3 = tc_clamp(i, half, five);    /* ... 0.5, 5): float32, tensor([0.5000, 1.0000, 5.0000]) */
    expect_repr("clamp([-2, 1, 9], 0.5, 5)", r3, "tensor([0.5000, 1.0000, 5.0000])");
    r4 = tc_clamp(x, five, zero);    /* min > max: every element is max, tensor([0., 0., 0., 0.]) */
    expect_repr("clamp(x, 5, 0)", r4, "tensor([0., 0., 0., 0.])");
    tc_release(r1), tc_release(r2), tc_release(r3), tc_release(r4);
    tc_release(x), tc_release(i), tc_release(zero), tc_release(five), tc_release(half);
    return exercise_verdict("ch03_clamp");
}
