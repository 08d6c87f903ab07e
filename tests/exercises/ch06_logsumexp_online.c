/* Exercise 6.4: logsumexp in one pass,
   tc_tensor *tc_logsumexp_online(const tc_tensor *x):
   for a 2-D float32 or float64 x, the (N,) tensor of each row's
   log(sum(exp(x))), of x's dtype, reading each element once: a running
   maximum m and a running sum s of exp(x - m), s rescaled by exp(m_old - m)
   when the maximum grows (Milakov and Gimelshein, 2018). The values must
   be torch.logsumexp(x, 1)'s, also for infinities and NaN, which the
   rescaling is easy to get wrong on. (The test checks the values; that the
   function reads each element once is for the reader to keep.) */
#include "exercise.h"

tc_tensor *tc_logsumexp_online(const tc_tensor *x) TC_EXERCISE_WEAK;

int main(void)
{
    /* torch.logsumexp(x, 1) of these rows of two, in PyTorch 1.13 */
    static const float rows[][2] = { { 1000, 1000 },          { -1000, -1000.5f },
                                     { -INFINITY, -INFINITY }, { -INFINITY, 0 },
                                     { INFINITY, 1 },          { NAN, 1 },
                                     { INFINITY, -INFINITY },  { INFINITY, INFINITY },
                                     { 1, NAN } };
    static const double want[] = { 1000.6931762695312, -999.5259399414062, -INFINITY, 0,
                                   INFINITY, NAN, INFINITY, INFINITY, NAN };
    /* torch.logsumexp(torch.tensor([[1., 2., 3., 89.], [0.5, -2., 1.5, -1.]]), 1) */
    static const float wide[] = { 1, 2, 3, 89, 0.5f, -2, 1.5f, -1 };
    static const double want_wide[] = { 89.0, 1.8921513557434082 };
    /* ... in float64: [[1000., 1000.], [0.5, -2.]] */
    static const double rows64[] = { 1000, 1000, 0.5, -2 };
    static const double want64[] = { 1000.6931471805599, 0.5788897342925495 };
    int64_t before = tc_live_storages();
    tc_tensor *x, *r;

    if (tc_logsumexp_online == NULL)
        return exercise_not_started("ch06_logsumexp_online", "tc_logsumexp_online");
    x = tc_from_data(TC_SHAPE(9, 2), TC_FLOAT32, rows);
    r = tc_logsumexp_online(x);
    expect_values("logsumexp of the rows of two", r, 9, want);
    EXPECT(r == NULL || r->dtype == TC_FLOAT32, "the result of a float32 input is float32");
    tc_release(x), tc_release(r);
    x = tc_from_data(TC_SHAPE(2, 4), TC_FLOAT32, wide);
    r = tc_logsumexp_online(x);
    expect_values("logsumexp of rows of four", r, 2, want_wide);
    tc_release(x), tc_release(r);
    x = tc_from_data(TC_SHAPE(2, 2), TC_FLOAT64, rows64);
    r = tc_logsumexp_online(x);
    expect_values("logsumexp in float64", r, 2, want64);
    EXPECT(r == NULL || r->dtype == TC_FLOAT64, "the result of a float64 input is float64");
    tc_release(x), tc_release(r);
    EXPECT(tc_live_storages() == before, "%lld storages left behind",
           (long long)(tc_live_storages() - before));
    return exercise_verdict("ch06_logsumexp_online");
}
