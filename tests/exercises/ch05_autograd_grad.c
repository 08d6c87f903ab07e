/* Exercise 5.4: torch.autograd.grad(output, inputs, gradient, retain_graph),
   int ag_autograd_grad(tc_tensor *output, const tc_tensor *gradient, int n,
                        tc_tensor *const *inputs, tc_tensor **grads,
                        bool retain_graph):
   the gradients of output with respect to the n inputs (leaves or computed
   tensors), as new references in grads, without touching any .grad. 0, or
   -1 with PyTorch's message. */
#include "exercise.h"

int ag_autograd_grad(tc_tensor *output, const tc_tensor *gradient, int n,
                     tc_tensor *const *inputs, tc_tensor **grads,
                     bool retain_graph) TC_EXERCISE_WEAK;

static const char SECOND_TIME[] =
    "Trying to backward through the graph a second time (or directly access saved tensors "
    "after they have already been freed). Saved intermediate values of the graph are freed "
    "when you call .backward() or autograd.grad(). Specify retain_graph=True if you need to "
    "backward through the graph a second time or if you need to access saved tensors after "
    "calling backward.";

int main(void)
{
    const float xs[] = { 1, 2, 3 }, ws[] = { 4, 5, 6 }, gs[] = { 1, 2, 3 };
    tc_tensor *x = tc_from_data(TC_SHAPE(3), TC_FLOAT32, xs);
    tc_tensor *w = tc_from_data(TC_SHAPE(3), TC_FLOAT32, ws);
    tc_tensor *g = tc_from_data(TC_SHAPE(3), TC_FLOAT32, gs);
    tc_tensor *ones = tc_ones(TC_SHAPE(3), TC_FLOAT32), *c = tc_ones(TC_SHAPE(3), TC_FLOAT32);
    tc_tensor *a, *y, *y2, *grads[2] = { NULL, NULL };
    int status;

    if (ag_autograd_grad == NULL) {
        tc_release(x), tc_release(w), tc_release(g), tc_release(ones), tc_release(c);
        return exercise_not_started("ch05_autograd_grad", "ag_autograd_grad");
    }
    ag_set_requires_grad(x, true);
    ag_set_requires_grad(w, true);
    a = ag_mul(x, w);
    y = ag_add(a, x);
    /* torch.autograd.grad(y, [x, w], torch.ones(3), retain_graph=True)
       == (tensor([5., 6., 7.]), tensor([1., 2., 3.])); x.grad is None */
    status = ag_autograd_grad(y, ones, 2, (tc_tensor *[]){ x, w }, grads, true);
    EXPECT(status == 0, "autograd.grad(y, [x, w]) failed: %s", tc_error() ? tc_error() : "");
    expect_repr("the gradient for x", status == 0 ? grads[0] : NULL, "tensor([5., 6., 7.])");
    expect_repr("the gradient for w", status == 0 ? grads[1] : NULL, "tensor([1., 2., 3.])");
    EXPECT(ag_grad(x) == NULL && ag_grad(w) == NULL, "x.grad and w.grad should stay None");
    tc_release(grads[0]), tc_release(grads[1]);
    grads[0] = grads[1] = NULL;
    /* torch.autograd.grad(y, [x, a], torch.tensor([1., 2., 3.]))
       == (tensor([ 5., 12., 21.]), tensor([1., 2., 3.])): a is not a leaf */
    status = ag_autograd_grad(y, g, 2, (tc_tensor *[]){ x, a }, grads, false);
    EXPECT(status == 0, "autograd.grad(y, [x, a]) failed: %s", tc_error() ? tc_error() : "");
    expect_repr("the gradient for x", status == 0 ? grads[0] : NULL, "tensor([ 5., 12., 21.])");
    expect_repr("the gradient for a", status == 0 ? grads[1] : NULL, "tensor([1., 2., 3.])");
    tc_release(grads[0]), tc_release(grads[1]);
    grads[0] = grads[1] = NULL;
    /* the graph was not retained: torch.autograd.grad(y, [x], torch.ones(3)) fails */
    status = ag_autograd_grad(y, ones, 1, &x, grads, false);
    expect_error("a second autograd.grad without retain_graph",
                 status == 0 ? (void *)grads[0] : NULL, SECOND_TIME);
    tc_release(grads[0]);
    grads[0] = NULL;
    /* y2 = x * 2; torch.autograd.grad(y2, [w], torch.ones(3)) */
    y2 = ag_mul_scalar(x, 2);
    status = ag_autograd_grad(y2, ones, 1, &w, grads, true);
    expect_error("the gradient for an input the output does not use",
                 status == 0 ? (void *)grads[0] : NULL,
                 "One of the differentiated Tensors appears to not have been used in the "
                 "graph. Set allow_unused=True if this is the desired behavior.");
    tc_release(grads[0]);
    grads[0] = NULL;
    /* torch.autograd.grad(y2, [torch.ones(3)], torch.ones(3)) */
    status = ag_autograd_grad(y2, ones, 1, &c, grads, true);
    expect_error("the gradient for an input that does not require grad",
                 status == 0 ? (void *)grads[0] : NULL,
                 "One of the differentiated Tensors does not require grad");
    tc_release(grads[0]);
    tc_release(x), tc_release(w), tc_release(g), tc_release(ones), tc_release(c);
    tc_release(a), tc_release(y), tc_release(y2);
    return exercise_verdict("ch05_autograd_grad");
}
