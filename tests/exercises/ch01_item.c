/* Exercise 1.2: x.item(), int tc_item(const tc_tensor *t, double *value):
   0 and the value for a tensor of one element, -1 and PyTorch's message
   otherwise. */
#include "exercise.h"

int tc_item(const tc_tensor *t, double *value) TC_EXERCISE_WEAK;

int main(void)
{
    const float f = 2.5f;
    tc_tensor *one = tc_from_data(TC_SHAPE(1, 1), TC_FLOAT32, &f);    /* torch.tensor([[2.5]]) */
    tc_tensor *seven = tc_full(TC_SCALAR_SHAPE, 7, TC_INT64);          /* torch.tensor(7) */
    tc_tensor *six = tc_arange(0, 6, 1);                               /* torch.arange(6) */
    tc_tensor *none = tc_empty(TC_SHAPE(0), TC_FLOAT32);               /* torch.empty(0) */
    double v = -1;
    int status;

    if (tc_item == NULL) {
        tc_release(one), tc_release(seven), tc_release(six), tc_release(none);
        return exercise_not_started("ch01_item", "tc_item");
    }
    status = tc_item(one, &v);    /* torch.tensor([[2.5]]).item() == 2.5 */
    EXPECT(status == 0 && v == 2.5, "tc_item of [[2.5]] gave status %d, value %g", status, v);
    status = tc_item(seven, &v);  /* torch.tensor(7).item() == 7 */
    EXPECT(status == 0 && v == 7, "tc_item of tensor(7) gave status %d, value %g", status, v);
    tc_clear_error();
    status = tc_item(six, &v);    /* torch.arange(6).item() */
    EXPECT(status == -1 && tc_error() != NULL &&
               strcmp(tc_error(), "only one element tensors can be converted to Python scalars") == 0,
           "tc_item of 6 elements: status %d, message %s", status,
           tc_error() != NULL ? tc_error() : "(none)");
    tc_clear_error();
    status = tc_item(none, &v);   /* torch.empty(0).item() */
    EXPECT(status == -1 && tc_error() != NULL &&
               strcmp(tc_error(), "only one element tensors can be converted to Python scalars") == 0,
           "tc_item of 0 elements: status %d", status);
    tc_clear_error();
    EXPECT(tc_item(NULL, &v) == -1, "tc_item(NULL) must fail");
    tc_clear_error();
    tc_release(one);
    tc_release(seven);
    tc_release(six);
    tc_release(none);
    return exercise_verdict("ch01_item");
}
