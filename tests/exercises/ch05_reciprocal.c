/* Exercise 5.1: 1 / x with a node of its own,
   tc_tensor *ag_reciprocal(const tc_tensor *x): ReciprocalBackward0, whose
   formula -grad * y * y uses the result y, which the node saves. */
#include "exercise.h"

tc_tensor *ag_reciprocal(const tc_tensor *x) TC_EXERCISE_WEAK;

static const char SECOND_TIME[] =
    "Trying to backward through the graph a second time (or directly access saved tensors "
    "after they have already been freed). Saved intermediate values of the graph are freed "
    "when you call .backward() or autograd.grad(). Specify retain_graph=True if you need to "
    "backward through the graph a second time or if you need to access saved tensors after "
    "calling backward.";

int main(void)
{
    const float xs[] = { 1, 2, 4, 0 };
    const double ds[] = { 2 };
    int64_t before = tc_live_storages();
    tc_tensor *x = tc_from_data(TC_SHAPE(4), TC_FLOAT32, xs);
    tc_tensor *d = tc_from_data(TC_SHAPE(1), TC_FLOAT64, ds);
    tc_tensor *ones = tc_ones(TC_SHAPE(4), TC_FLOAT32);
    tc_tensor *y, *yd;
    char *r;
    bool previous;

    if (ag_reciprocal == NULL) {
        tc_release(x), tc_release(d), tc_release(ones);
        return exercise_not_started("ch05_reciprocal", "ag_reciprocal");
    }
    ag_set_requires_grad(x, true);
    ag_set_requires_grad(d, true);
    y = ag_reciprocal(x);
    /* x = torch.tensor([1., 2., 4., 0.], requires_grad=True); x.reciprocal() */
    r = y != NULL ? ag_repr(y) : NULL;
    EXPECT(r != NULL &&
               strcmp(r, "tensor([1.0000, 0.5000, 0.2500,    inf], "
                         "grad_fn=<ReciprocalBackward0>)") == 0,
           "x.reciprocal() is %s, want tensor([1.0000, 0.5000, 0.2500,    inf], "
           "grad_fn=<ReciprocalBackward0>)", r != NULL ? r : "NULL");
    free(r);
    /* y.grad_fn.next_functions == ((<AccumulateGrad>, 0),) */
    EXPECT(y != NULL && ag_node_num_next(ag_grad_fn(y)) == 1 &&
               ag_node_next(ag_grad_fn(y), 0).node != NULL &&
               ag_node_variable(ag_node_next(ag_grad_fn(y), 0).node) == x,
           "y.grad_fn.next_functions should be ((AccumulateGrad of x, 0),)");
    /* y.backward(torch.ones(4)); x.grad == tensor([-1.0000, -0.2500, -0.0625,    -inf]) */
    EXPECT(y != NULL && ag_backward(y, ones, false) == 0, "y.backward(ones) failed: %s",
           tc_error() != NULL ? tc_error() : "");
    expect_repr("x.grad", ag_grad(x), "tensor([-1.0000, -0.2500, -0.0625,    -inf])");
    /* the node saved its result, which the backward freed: a second one fails */
    EXPECT(y != NULL && ag_backward(y, ones, false) < 0 && tc_error() != NULL &&
               strcmp(tc_error(), SECOND_TIME) == 0,
           "a second y.backward() should fail with \"Trying to backward through the graph a "
           "second time ...\"");
    tc_clear_error();
    /* torch.reciprocal(torch.tensor([2.], dtype=torch.float64, requires_grad=True)) */
    yd = ag_reciprocal(d);
    r = yd != NULL ? ag_repr(yd) : NULL;
    EXPECT(r != NULL && strcmp(r, "tensor([0.5000], dtype=torch.float64, "
                                  "grad_fn=<ReciprocalBackward0>)") == 0,
           "reciprocal of a float64 tensor is %s", r != NULL ? r : "NULL");
    free(r);
    tc_release(yd);
    /* with torch.no_grad(): x.reciprocal().grad_fn is None */
    previous = ag_set_grad_enabled(false);
    yd = ag_reciprocal(x);
    EXPECT(yd != NULL && ag_grad_fn(yd) == NULL, "under no_grad, no node is recorded");
    ag_set_grad_enabled(previous);
    tc_release(yd);
    tc_release(y), tc_release(x), tc_release(d), tc_release(ones);
    EXPECT(tc_live_storages() == before, "%lld storages left behind",
           (long long)(tc_live_storages() - before));
    return exercise_verdict("ch05_reciprocal");
}
