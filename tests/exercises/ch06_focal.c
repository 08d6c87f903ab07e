/* Exercise 6.3: the focal loss of Lin et al. (2017) for C classes,
   tc_tensor *ag_focal_loss(const tc_tensor *input, const tc_tensor *target,
                            double gamma, tc_reduction reduction):
   -(1 - p_t)^gamma log p_t for each sample of an (N, C) input with int64
   class indices, reduced as cross-entropy is; with gamma 0 it is the
   cross-entropy. Built from the chapter's nodes, its gradient comes from
   them. PyTorch has no such function: the expected values are those of
       logp = F.log_softmax(x, 1); nll = F.nll_loss(logp, t, reduction='none')
       pt = torch.exp(-nll); l = (1 - pt) ** gamma * nll      (then reduced)
   in PyTorch 1.13. */
#include "exercise.h"

tc_tensor *ag_focal_loss(const tc_tensor *input, const tc_tensor *target, double gamma,
                         tc_reduction reduction) TC_EXERCISE_WEAK;

static const float LOGITS[] = { 2.0f,  1.0f, 0.1f,  -1.0f, 0.5f, 0.5f, 2.5f, -0.3f,
                                0.0f,  1.0f, -1.2f, 0.3f,  0.8f, 1.5f, 3.0f };
static const int64_t TARGETS[] = { 1, 0, 4 };

/* l = focal(x, t, gamma, reduction); l.sum().backward() */
static void check(double gamma, tc_reduction reduction, int64_t n, const double *want,
                  const double *want_grad)
{
    static const char *const names[] = { "none", "mean", "sum" };
    char what[80];
    tc_tensor *x = tc_from_data(TC_SHAPE(3, 5), TC_FLOAT32, LOGITS);
    tc_tensor *t = tc_from_data(TC_SHAPE(3), TC_INT64, TARGETS);
    tc_tensor *l, *s = NULL;

    ag_set_requires_grad(x, true);
    l = ag_focal_loss(x, t, gamma, reduction);
    snprintf(what, sizeof what, "focal loss, gamma %g, reduction '%s'", gamma, names[reduction]);
    expect_values(what, l, n, want);
    if (l != NULL && (s = ag_sum(l)) != NULL)
        EXPECT(ag_backward(s, NULL, false) == 0, "%s: backward failed", what);
    snprintf(what, sizeof what, "x.grad of the focal loss, gamma %g, reduction '%s'", gamma,
             names[reduction]);
    expect_values(what, ag_grad(x), 15, want_grad);
    tc_release(x), tc_release(t), tc_release(l), tc_release(s);
}

int main(void)
{
    static const double ce_none[] = { 1.58241963, 2.40637183, 0.34793088 };
    static const double ce_mean[] = { 1.44557416 };
    static const double ce_sum[] = { 4.33672237 };
    static const double g_ce[] = { 0.55854523,  -0.79452270, 0.08354086, 0.02780833, 0.12462829,
                                   -0.90985823, 0.66606247,  0.04050330, 0.05467374, 0.14861862,
                                   0.01058909,  0.04745701,  0.07824339, 0.15756284, -0.29385233 };
    static const double g_ce_mean[] = { 0.18618175,  -0.26484090, 0.02784695, 0.00926944,
                                        0.04154276,  -0.30328611, 0.22202083, 0.01350110,
                                        0.01822458,  0.04953954,  0.00352970, 0.01581901,
                                        0.02608113,  0.05252095,  -0.09795078 };
    static const double f_none[] = { 0.99892819, 1.99209571, 0.03004355 };
    static const double f_mean[] = { 1.00702250 };
    static const double f_sum[] = { 3.02106762 };
    static const double g_f[] = { 0.64118010,  -0.91206962, 0.09590044, 0.03192248, 0.14306661,
                                  -1.11236084, 0.81430465,  0.04951791, 0.06684219, 0.18169592,
                                  0.00244336,  0.01095036,  0.01805409, 0.03635647, -0.06780428 };
    static const double g_f_mean[] = { 0.21372668,  -0.30402318, 0.03196681, 0.01064083,
                                       0.04768887,  -0.37078694, 0.27143490, 0.01650597,
                                       0.02228073,  0.06056531,  0.00081445, 0.00365012,
                                       0.00601803,  0.01211882,  -0.02260143 };
    int64_t before = tc_live_storages();

    if (ag_focal_loss == NULL)
        return exercise_not_started("ch06_focal", "ag_focal_loss");
    check(0, TC_REDUCTION_NONE, 3, ce_none, g_ce);
    check(0, TC_REDUCTION_MEAN, 1, ce_mean, g_ce_mean);
    check(0, TC_REDUCTION_SUM, 1, ce_sum, g_ce);
    check(2, TC_REDUCTION_NONE, 3, f_none, g_f);
    check(2, TC_REDUCTION_MEAN, 1, f_mean, g_f_mean);
    check(2, TC_REDUCTION_SUM, 1, f_sum, g_f);
    EXPECT(tc_live_storages() == before, "%lld storages left behind",
           (long long)(tc_live_storages() - before));
    return exercise_verdict("ch06_focal");
}
