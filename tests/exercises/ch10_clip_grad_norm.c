/* Exercise 10.2: torch.nn.utils.clip_grad_norm_(parameters, max_norm),
   int tc_clip_grad_norm_(int n, tc_tensor *const *params, double max_norm,
                          double *total_norm):
   PyTorch 1.13's (norm_type 2, error_if_nonfinite False): the parameters
   whose grad is NULL are left out; total_norm = the 2-norm of the 2-norms
   of the grads; every grad is multiplied in place by
   min(max_norm / (total_norm + 1e-6), 1), in float32 as PyTorch computes
   it; *total_norm gets total_norm. No grad at all: total_norm 0. 0, or -1.

   Expected values from torch 1.13:
       p1 = torch.tensor([[1., -2., 3.], [0.5, 0., -1.5]], requires_grad=True)
       p2 = torch.tensor([4., -0.25, 2.], requires_grad=True)
       p3 = torch.tensor([7.], requires_grad=True)          # gets no grad
       c1 = torch.tensor([[0.3, -1.2, 2.0], [0.7, 0.1, -0.4]])
       c2 = torch.tensor([1.5, -2.5, 0.25])
       ((p1 * c1).sum() + (p2 * c2).sum()).backward()      # grads c1, c2
       clip_grad_norm_([p1, p2, p3], 1.0)   # tensor(3.8408983), grads scaled
       clip_grad_norm_([p1, p2, p3], 5.0)   # tensor(0.9999998), unchanged
       clip_grad_norm_([p3], 1.0)           # tensor(0.) */
#include "exercise.h"

int tc_clip_grad_norm_(int n, tc_tensor *const *params, double max_norm, double *total_norm)
    TC_EXERCISE_WEAK;

static tc_tensor *leaf(tc_shape shape, const float *values)
{
    tc_tensor *t = tc_from_data(shape, TC_FLOAT32, values);

    if (t != NULL)
        ag_set_requires_grad(t, true);
    return t;
}

int main(void)
{
    static const float v1[] = { 1, -2, 3, 0.5f, 0, -1.5f }, v2[] = { 4, -0.25f, 2 }, v3[] = { 7 };
    static const float k1[] = { 0.3f, -1.2f, 2.0f, 0.7f, 0.1f, -0.4f }, k2[] = { 1.5f, -2.5f, 0.25f };
    static const double want_g1[] = { 0.07810671627521515, -0.3124268651008606,
                                      0.5207114219665527,  0.18224899470806122,
                                      0.026035571470856667, -0.10414228588342667 };
    static const double want_g2[] = { 0.39053356647491455, -0.6508892774581909,
                                      0.06508892774581909 };
    tc_tensor *p1, *p2, *p3, *c1, *c2, *m1, *m2, *a, *b, *loss;
    double norm = -1;

    if (tc_clip_grad_norm_ == NULL)
        return exercise_not_started("ch10_clip_grad_norm", "tc_clip_grad_norm_");
    p1 = leaf(TC_SHAPE(2, 3), v1), p2 = leaf(TC_SHAPE(3), v2), p3 = leaf(TC_SHAPE(1), v3);
    c1 = tc_from_data(TC_SHAPE(2, 3), TC_FLOAT32, k1), c2 = tc_from_data(TC_SHAPE(3), TC_FLOAT32, k2);
    m1 = ag_mul(p1, c1), m2 = ag_mul(p2, c2);
    a = ag_sum(m1), b = ag_sum(m2);
    loss = ag_add(a, b);
    if (loss == NULL || ag_backward(loss, NULL, false) < 0) {
        EXPECT(false, "cannot set the test up: %s", tc_error());
        goto out;
    }
    {
        tc_tensor *params[] = { p1, p2, p3 };
        EXPECT(tc_clip_grad_norm_(3, params, 1.0, &norm) == 0, "clip_grad_norm_(..., 1.0) failed: %s",
               tc_error() ? tc_error() : "");
        EXPECT(fabs(norm - 3.840898275375366) <= 1e-6, "the total norm is %.9g, want 3.84089828",
               norm);
        expect_values("p1.grad after clipping to 1", ag_grad(p1), 6, want_g1);
        expect_values("p2.grad after clipping to 1", ag_grad(p2), 3, want_g2);
        EXPECT(ag_grad(p3) == NULL, "p3 had no grad, and should still have none");
        /* the clipped grads have norm 1 - a little: clipping to 5 changes nothing */
        norm = -1;
        EXPECT(tc_clip_grad_norm_(3, params, 5.0, &norm) == 0, "clip_grad_norm_(..., 5.0) failed");
        EXPECT(fabs(norm - 0.9999997615814209) <= 1e-6, "the total norm is %.9g, want 0.99999976",
               norm);
        expect_values("p1.grad after clipping to 5", ag_grad(p1), 6, want_g1);
        norm = -1;
        EXPECT(tc_clip_grad_norm_(1, &params[2], 1.0, &norm) == 0 && norm == 0,
               "clip_grad_norm_ of parameters without grads should give 0, gave %g", norm);
    }
out:
    tc_clear_error();
    tc_release(m1), tc_release(m2), tc_release(a), tc_release(b), tc_release(loss);
    tc_release(p1), tc_release(p2), tc_release(p3), tc_release(c1), tc_release(c2);
    return exercise_verdict("ch10_clip_grad_norm");
}
