/* Exercise 6.2: binary cross-entropy on logits,
   tc_tensor *ag_binary_cross_entropy_with_logits(const tc_tensor *input,
       const tc_tensor *target, const tc_tensor *weight,
       const tc_tensor *pos_weight, tc_reduction reduction):
   F.binary_cross_entropy_with_logits with ATen's argument order; weight and
   pos_weight may be NULL. Right for logits of any size: at -110 with target 1
   the loss is 110, where the log of the sigmoid would be log(0). A target of
   another shape than the input's is refused with PyTorch's message. */
#include "exercise.h"

tc_tensor *ag_binary_cross_entropy_with_logits(const tc_tensor *input, const tc_tensor *target,
                                               const tc_tensor *weight,
                                               const tc_tensor *pos_weight,
                                               tc_reduction reduction) TC_EXERCISE_WEAK;

static const float INPUT[] = { 100, -100, 0.5f, -3, 2, 0 };
static const float TARGET[] = { 1, 0, 1, 0, 0.5f, 1 };
static const float WEIGHT[] = { 1, 2, 0.5f };
static const float POS_WEIGHT[] = { 3, 1, 2 };

/* l = F.binary_cross_entropy_with_logits(input, target, ...);
   l.sum().backward(): l and input.grad are PyTorch 1.13's. */
static void check(const char *what, bool weighted, bool pos_weighted, tc_reduction reduction,
                  int64_t n, const double *want, const double *want_grad)
{
    char line[120];
    tc_tensor *x = tc_from_data(TC_SHAPE(2, 3), TC_FLOAT32, INPUT);
    tc_tensor *t = tc_from_data(TC_SHAPE(2, 3), TC_FLOAT32, TARGET);
    tc_tensor *w = weighted ? tc_from_data(TC_SHAPE(3), TC_FLOAT32, WEIGHT) : NULL;
    tc_tensor *pw = pos_weighted ? tc_from_data(TC_SHAPE(3), TC_FLOAT32, POS_WEIGHT) : NULL;
    tc_tensor *l, *s = NULL;

    ag_set_requires_grad(x, true);
    l = ag_binary_cross_entropy_with_logits(x, t, w, pw, reduction);
    expect_values(what, l, n, want);
    if (l != NULL && (s = ag_sum(l)) != NULL)
        EXPECT(ag_backward(s, NULL, false) == 0, "%s: backward failed", what);
    snprintf(line, sizeof line, "input.grad of %s", what);
    expect_values(line, ag_grad(x), 6, want_grad);
    tc_release(x), tc_release(t), tc_release(w), tc_release(pw), tc_release(l), tc_release(s);
}

int main(void)
{
    /* input = torch.tensor([[100., -100., 0.5], [-3., 2., 0.]], requires_grad=True)
       target = torch.tensor([[1., 0., 1.], [0., 0.5, 1.]])
       weight = torch.tensor([1., 2., 0.5]); pos_weight = torch.tensor([3., 1., 2.]) */
    static const double none[] = { 0, 0, 0.47407699, 0.04858733, 1.12692809, 0.69314718 };
    static const double g_plain[] = { 0, 0, -0.37754065, 0.04742587, 0.38079703, -0.5 };
    static const double mean[] = { 0.39045659 };
    static const double g_mean[] = { 0, 0, -0.06292344, 0.00790431, 0.06346617, -0.08333334 };
    static const double sum[] = { 2.34273958 };
    static const double weighted[] = { 0.48100924 };
    static const double g_weighted[] = { 0, 0, -0.03146172, 0.00790431, 0.12693234, -0.04166667 };
    static const double pos[] = { 0, 0, 0.94815397, 0.04858732, 1.12692809, 1.38629436 };
    static const double g_pos[] = { 0, 0, -0.75508130, 0.04742587, 0.38079703, -1 };
    static const double both[] = { 0.57827795 };
    static const double g_both[] = { 0, 0, -0.06292344, 0.00790431, 0.12693234, -0.08333334 };
    static const float FAR[] = { -110, 110 }, FAR_TARGET[] = { 1, 0 };
    static const double far[] = { 110, 110 }, g_far[] = { -1, 1 };
    int64_t before = tc_live_storages();
    tc_tensor *x, *t, *l, *s;

    if (ag_binary_cross_entropy_with_logits == NULL)
        return exercise_not_started("ch06_bce_with_logits", "ag_binary_cross_entropy_with_logits");
    check("reduction='none'", false, false, TC_REDUCTION_NONE, 6, none, g_plain);
    check("reduction='mean'", false, false, TC_REDUCTION_MEAN, 1, mean, g_mean);
    check("reduction='sum'", false, false, TC_REDUCTION_SUM, 1, sum, g_plain);
    check("weight=weight", true, false, TC_REDUCTION_MEAN, 1, weighted, g_weighted);
    check("pos_weight=pos_weight, reduction='none'", false, true, TC_REDUCTION_NONE, 6, pos, g_pos);
    check("weight=weight, pos_weight=pos_weight", true, true, TC_REDUCTION_MEAN, 1, both, g_both);
    /* x = torch.tensor([[-110., 110.]], requires_grad=True); t = torch.tensor([[1., 0.]])
       F.binary_cross_entropy_with_logits(x, t, reduction='none').sum().backward() */
    x = tc_from_data(TC_SHAPE(1, 2), TC_FLOAT32, FAR);
    t = tc_from_data(TC_SHAPE(1, 2), TC_FLOAT32, FAR_TARGET);
    ag_set_requires_grad(x, true);
    l = ag_binary_cross_entropy_with_logits(x, t, NULL, NULL, TC_REDUCTION_NONE);
    expect_values("the loss of logits -110 and 110, wrong by far", l, 2, far);
    s = l == NULL ? NULL : ag_sum(l);
    EXPECT(s != NULL && ag_backward(s, NULL, false) == 0, "backward of the far logits failed");
    expect_values("the gradient of logits -110 and 110", ag_grad(x), 2, g_far);
    tc_release(x), tc_release(t), tc_release(l), tc_release(s);
    /* F.binary_cross_entropy_with_logits(input, target[:, :2]) */
    x = tc_from_data(TC_SHAPE(2, 3), TC_FLOAT32, INPUT);
    t = tc_zeros(TC_SHAPE(2, 2), TC_FLOAT32);
    l = ag_binary_cross_entropy_with_logits(x, t, NULL, NULL, TC_REDUCTION_MEAN);
    expect_error("a target of shape (2, 2)", l,
                 "Target size (torch.Size([2, 2])) must be the same as input size "
                 "(torch.Size([2, 3]))");
    tc_release(x), tc_release(t), tc_release(l);
    EXPECT(tc_live_storages() == before, "%lld storages left behind",
           (long long)(tc_live_storages() - before));
    return exercise_verdict("ch06_bce_with_logits");
}
