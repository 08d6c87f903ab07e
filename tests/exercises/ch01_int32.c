/* Exercise 1.4: a fifth element type, torch.int32. The library announces
   it with `#define TC_INT32 TC_INT32` next to the enum constant, so that
   this test (and any program) can ask whether it exists. */
#include "exercise.h"

int main(void)
{
#ifndef TC_INT32
    return exercise_not_started("ch01_int32", "TC_INT32");
#else
    tc_tensor *z = tc_zeros(TC_SHAPE(2), TC_INT32);    /* torch.zeros(2, dtype=torch.int32) */
    tc_tensor *r = tc_empty(TC_SHAPE(3), TC_INT32);
    tc_tensor *e = tc_empty(TC_SHAPE(0), TC_INT32);    /* torch.empty(0, dtype=torch.int32) */
    tc_tensor *big, *plus_int, *plus_float;

    EXPECT(tc_itemsize(TC_INT32) == 4, "tc_itemsize(TC_INT32) is %zu, want 4",
           tc_itemsize(TC_INT32));
    EXPECT(strcmp(tc_dtype_name(TC_INT32), "torch.int32") == 0, "tc_dtype_name(TC_INT32) is %s",
           tc_dtype_name(TC_INT32));
    expect_repr("torch.zeros(2, dtype=torch.int32)", z, "tensor([0, 0], dtype=torch.int32)");
    for (int64_t i = 0; r != NULL && i < 3; i++)
        tc_set_int64(r, (const int64_t[]){ i }, i);    /* torch.arange(3, dtype=torch.int32) */
    expect_repr("torch.arange(3, dtype=torch.int32)", r, "tensor([0, 1, 2], dtype=torch.int32)");
    expect_repr("torch.empty(0, dtype=torch.int32)", e, "tensor([], dtype=torch.int32)");
    big = tc_full(TC_SHAPE(1), 0x1p40, TC_INT32);    /* torch.full((1,), 2**40, dtype=torch.int32) */
    expect_error("tc_full(.., 2^40, TC_INT32)", big, "value cannot be converted to type int without overflow");
    tc_release(big);
    plus_int = tc_add_scalar(r, 1);      /* (torch.arange(3, dtype=torch.int32) + 1).dtype == torch.int32 */
    plus_float = tc_add_scalar(r, 1.5);  /* ... + 1.5: torch.float32, tensor([1.5000, 2.5000, 3.5000]) */
    expect_repr("arange(3, int32) + 1", plus_int, "tensor([1, 2, 3], dtype=torch.int32)");
    expect_repr("arange(3, int32) + 1.5", plus_float, "tensor([1.5000, 2.5000, 3.5000])");
    tc_release(z);
    tc_release(r);
    tc_release(e);
    tc_release(plus_int);
    tc_release(plus_float);
    return exercise_verdict("ch01_int32");
#endif
}
