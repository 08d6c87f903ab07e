/* Exercise 1.1: torch.eye as a constructor,
   tc_tensor *tc_eye(int64_t n, int64_t m, tc_dtype dtype). */
#include "exercise.h"

tc_tensor *tc_eye(int64_t n, int64_t m, tc_dtype dtype) TC_EXERCISE_WEAK;

int main(void)
{
    tc_tensor *a, *b, *c, *d, *bad;

    if (tc_eye == NULL)
        return exercise_not_started("ch01_eye", "tc_eye");
    a = tc_eye(2, 3, TC_FLOAT32);    /* torch.eye(2, 3) */
    expect_repr("tc_eye(2, 3, TC_FLOAT32)", a,
                "tensor([[1., 0., 0.],\n        [0., 1., 0.]])");
    b = tc_eye(3, 3, TC_INT64);      /* torch.eye(3, dtype=torch.int64) */
    expect_repr("tc_eye(3, 3, TC_INT64)", b,
                "tensor([[1, 0, 0],\n        [0, 1, 0],\n        [0, 0, 1]])");
    c = tc_eye(0, 2, TC_FLOAT32);    /* torch.eye(0, 2) */
    expect_repr("tc_eye(0, 2, TC_FLOAT32)", c, "tensor([], size=(0, 2))");
    d = tc_eye(1, 1, TC_FLOAT32);    /* torch.eye(1) */
    expect_repr("tc_eye(1, 1, TC_FLOAT32)", d, "tensor([[1.]])");
    bad = tc_eye(-1, 2, TC_FLOAT32); /* torch.eye(-1, 2) */
    expect_error("tc_eye(-1, 2, TC_FLOAT32)", bad, "n must be greater or equal to 0, got -1");
    tc_release(bad);
    bad = tc_eye(2, -3, TC_FLOAT32); /* torch.eye(2, -3) */
    expect_error("tc_eye(2, -3, TC_FLOAT32)", bad, "m must be greater or equal to 0, got -3");
    tc_release(bad);
    tc_release(a);
    tc_release(b);
    tc_release(c);
    tc_release(d);
    return exercise_verdict("ch01_eye");
}
