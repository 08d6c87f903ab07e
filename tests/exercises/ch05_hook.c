/* Exercise 5.3: t.register_hook(hook),
   int ag_register_hook(tc_tensor *t,
                        tc_tensor *(*hook)(const tc_tensor *grad, void *context),
                        void *context): the engine calls hook with the gradient
   of t (the sum of every path's) before using it; a new tensor returned by
   the hook replaces the gradient, NULL leaves it as it is. 0, or -1. */
#include "exercise.h"

int ag_register_hook(tc_tensor *t, tc_tensor *(*hook)(const tc_tensor *grad, void *context),
                     void *context) TC_EXERCISE_WEAK;

static tc_tensor *twice(const tc_tensor *grad, void *context)
{
    (void)context;
    return tc_mul_scalar(grad, 2);
}

/* Records the gradient it sees in *context, returns it times 10. */
static tc_tensor *record_times_ten(const tc_tensor *grad, void *context)
{
    tc_tensor **seen = context;

    tc_release(*seen);
    *seen = tc_clone(grad);
    return tc_mul_scalar(grad, 10);
}

static tc_tensor *record(const tc_tensor *grad, void *context)
{
    tc_tensor **seen = context;

    tc_release(*seen);
    *seen = tc_clone(grad);
    return NULL;
}

static tc_tensor *leaf(void)
{
    const float xs[] = { 1, 2, 3 };
    tc_tensor *x = tc_from_data(TC_SHAPE(3), TC_FLOAT32, xs);

    ag_set_requires_grad(x, true);
    return x;
}

int main(void)
{
    tc_tensor *ones = tc_ones(TC_SHAPE(3), TC_FLOAT32), *seen = NULL;
    tc_tensor *x, *y, *z, *t;
    int status;

    if (ag_register_hook == NULL) {
        tc_release(ones);
        return exercise_not_started("ch05_hook", "ag_register_hook");
    }
    /* x.register_hook(lambda g: g * 2); (x * x).backward(torch.ones(3)); x.grad */
    x = leaf();
    EXPECT(ag_register_hook(x, twice, NULL) == 0, "register_hook on a leaf failed");
    z = ag_mul(x, x);
    ag_backward(z, ones, false);
    expect_repr("x.grad with a doubling hook", ag_grad(x), "tensor([ 4.,  8., 12.])");
    tc_release(x), tc_release(z);
    /* y = x * 3; y.register_hook(h); (y * y).backward(torch.ones(3)):
       h sees tensor([ 6., 12., 18.]); x.grad == tensor([180., 360., 540.]) */
    x = leaf();
    y = ag_mul_scalar(x, 3);
    EXPECT(ag_register_hook(y, record_times_ten, &seen) == 0,
           "register_hook on a computed tensor failed");
    z = ag_mul(y, y);
    ag_backward(z, ones, false);
    expect_repr("the gradient the hook of y saw", seen, "tensor([ 6., 12., 18.])");
    expect_repr("x.grad when the hook of y multiplies by 10", ag_grad(x),
                "tensor([180., 360., 540.])");
    tc_release(x), tc_release(y), tc_release(z), tc_release(seen);
    seen = NULL;
    /* a hook on a leaf used on two paths is called once, with the sum:
       (x * x + x).backward(torch.ones(3)): the hook sees tensor([3., 5., 7.]) */
    x = leaf();
    EXPECT(ag_register_hook(x, record, &seen) == 0, "register_hook failed");
    z = ag_mul(x, x);
    y = ag_add(z, x);
    ag_backward(y, ones, false);
    expect_repr("the gradient the hook of x saw", seen, "tensor([3., 5., 7.])");
    expect_repr("x.grad when the hook returns None", ag_grad(x), "tensor([3., 5., 7.])");
    tc_release(x), tc_release(y), tc_release(z), tc_release(seen);
    /* torch.ones(3).register_hook(lambda g: g) */
    t = tc_ones(TC_SHAPE(3), TC_FLOAT32);
    status = ag_register_hook(t, twice, NULL);
    expect_error("register_hook on a tensor that does not require grad",
                 status == 0 ? (void *)t : NULL,
                 "cannot register a hook on a tensor that doesn't require gradient");
    tc_release(t), tc_release(ones);
    return exercise_verdict("ch05_hook");
}
