/* Exercise 3.1: torch.maximum as a binary elementwise operation,
   tc_tensor *tc_maximum(const tc_tensor *a, const tc_tensor *b). */
#include "exercise.h"

tc_tensor *tc_maximum(const tc_tensor *a, const tc_tensor *b) TC_EXERCISE_WEAK;

int main(void)
{
    const float af[] = { 1, 5, 3 }, nf[] = { 1, NAN }, zf[] = { 2, 0 };
    const int64_t bi[] = { 4, 2, 6 }, ci[] = { 1, 7 }, di[] = { 3, 5, 9 };
    tc_tensor *a = tc_from_data(TC_SHAPE(3), TC_FLOAT32, af);
    tc_tensor *b = tc_from_data(TC_SHAPE(3), TC_INT64, bi);
    tc_tensor *c = tc_from_data(TC_SHAPE(2, 1), TC_INT64, ci);
    tc_tensor *d = tc_from_data(TC_SHAPE(3), TC_INT64, di);
    tc_tensor *n = tc_from_data(TC_SHAPE(2), TC_FLOAT32, nf);
    tc_tensor *z = tc_from_data(TC_SHAPE(2), TC_FLOAT32, zf);
    tc_tensor *two = tc_ones(TC_SHAPE(2), TC_FLOAT32), *three = tc_ones(TC_SHAPE(3), TC_FLOAT32);
    tc_tensor *r1, *r2, *r3, *bad;

    if (tc_maximum == NULL) {
        tc_release(a), tc_release(b), tc_release(c), tc_release(d), tc_release(n);
        tc_release(z), tc_release(two), tc_release(three);
        return exercise_not_started("ch03_maximum", "tc_maximum");
    }
    r1 = tc_maximum(a, b);    /* torch.maximum(torch.tensor([1., 5., 3.]), torch.tensor([4, 2, 6])) */
    expect_repr("maximum([1., 5., 3.], [4, 2, 6])", r1, "tensor([4., 5., 6.])");
    r2 = tc_maximum(c, d);    /* torch.maximum(torch.tensor([[1], [7]]), torch.tensor([3, 5, 9])) */
    expect_repr("maximum([[1], [7]], [3, 5, 9])", r2, "tensor([[3, 5, 9],\n        [7, 7, 9]])");
    r3 = tc_maximum(n, z);    /* a NaN wins: tensor([2., nan]) */
    expect_repr("maximum([1., nan], [2., 0.])", r3, "tensor([2., nan])");
    bad = tc_maximum(two, three);
    expect_error("maximum of sizes 2 and 3", bad,
                 "The size of tensor a (2) must match the size of tensor b (3) at non-singleton "
                 "dimension 0");
    tc_release(bad);
    tc_release(r1), tc_release(r2), tc_release(r3);
    tc_release(a), tc_release(b), tc_release(c), tc_release(d), tc_release(n);
    tc_release(z), tc_release(two), tc_release(three);
    return exercise_verdict("ch03_maximum");
}
