/* Exercise 3.3: torch.prod over all elements, tc_tensor *tc_prod(const tc_tensor *x):
   a reduction with 1 as its identity, and PyTorch's result types. */
#include "exercise.h"

tc_tensor *tc_prod(const tc_tensor *x) TC_EXERCISE_WEAK;

int main(void)
{
    const float ff[] = { 1.5f, 2, 4 };
    const bool bb[] = { true, true };
    tc_tensor *ints = tc_arange(1, 6, 1);                     /* torch.arange(1, 6) */
    tc_tensor *floats = tc_from_data(TC_SHAPE(3), TC_FLOAT32, ff);
    tc_tensor *bools = tc_from_data(TC_SHAPE(2), TC_BOOL, bb);
    tc_tensor *empty = tc_empty(TC_SHAPE(0), TC_FLOAT32);
    tc_tensor *flat = tc_arange(1, 7, 1);
    tc_tensor *grid = tc_view(flat, TC_SHAPE(2, 3));
    tc_tensor *t = tc_t(grid);
    tc_tensor *r[5];

    if (tc_prod == NULL) {
        tc_release(ints), tc_release(floats), tc_release(bools), tc_release(empty);
        tc_release(flat), tc_release(grid), tc_release(t);
        return exercise_not_started("ch03_prod", "tc_prod");
    }
    r[0] = tc_prod(ints);      /* torch.prod(torch.arange(1, 6)) == tensor(120) */
    expect_repr("prod(arange(1, 6))", r[0], "tensor(120)");
    r[1] = tc_prod(floats);    /* torch.prod(torch.tensor([1.5, 2., 4.])) == tensor(12.) */
    expect_repr("prod([1.5, 2., 4.])", r[1], "tensor(12.)");
    r[2] = tc_prod(bools);     /* torch.prod(torch.tensor([True, True])) == tensor(1), int64 */
    expect_repr("prod([True, True])", r[2], "tensor(1)");
    r[3] = tc_prod(empty);     /* torch.prod(torch.empty(0)) == tensor(1.) */
    expect_repr("prod(empty(0))", r[3], "tensor(1.)");
    r[4] = tc_prod(t);         /* torch.prod(torch.arange(1, 7).view(2, 3).t()) == tensor(720) */
    expect_repr("prod(arange(1, 7).view(2, 3).t())", r[4], "tensor(720)");
    for (int k = 0; k < 5; k++)
        tc_release(r[k]);
    tc_release(ints), tc_release(floats), tc_release(bools), tc_release(empty);
    tc_release(flat), tc_release(grid), tc_release(t);
    return exercise_verdict("ch03_prod");
}
