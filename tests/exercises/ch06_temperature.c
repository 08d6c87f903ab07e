/* Exercise 6.1: softmax with a temperature,
   tc_tensor *ag_softmax_temperature(const tc_tensor *x, int64_t dim, double temperature):
   softmax(x / temperature) along dim, recorded as PyTorch records
   (x / T).softmax(dim): its grad_fn is SoftmaxBackward0. A temperature
   that is not positive is refused with "temperature must be positive, got T"
   (T printed with %g). */
#include "exercise.h"

tc_tensor *ag_softmax_temperature(const tc_tensor *x, int64_t dim, double temperature)
    TC_EXERCISE_WEAK;

static const float XS[] = { 1, 2, 3, 0.5f, -1, 4 };
static const float WS[] = { 1, 0, 0, 0, 2, -1 };

/* y = ag_softmax_temperature(x, dim, t); (y * w).sum().backward(); y and
   x.grad are the values PyTorch 1.13 gives for (x / t).softmax(dim). */
static void check(double t, int64_t dim, const double *want_y, const double *want_grad)
{
    char what[80];
    tc_tensor *x = tc_from_data(TC_SHAPE(2, 3), TC_FLOAT32, XS);
    tc_tensor *w = tc_from_data(TC_SHAPE(2, 3), TC_FLOAT32, WS);
    tc_tensor *y, *yw = NULL, *s = NULL;

    ag_set_requires_grad(x, true);
    y = ag_softmax_temperature(x, dim, t);
    snprintf(what, sizeof what, "softmax(x / %g, dim=%lld)", t, (long long)dim);
    expect_values(what, y, 6, want_y);
    EXPECT(y != NULL && ag_grad_fn(y) != NULL &&
               strcmp(ag_node_type_name(ag_grad_fn(y)), "SoftmaxBackward0") == 0,
           "%s: grad_fn should be SoftmaxBackward0", what);
    if (y != NULL && (yw = ag_mul(y, w)) != NULL && (s = ag_sum(yw)) != NULL)
        EXPECT(ag_backward(s, NULL, false) == 0, "%s: backward failed", what);
    snprintf(what, sizeof what, "x.grad of (softmax(x / %g, dim=%lld) * w).sum()", t,
             (long long)dim);
    expect_values(what, ag_grad(x), 6, want_grad);
    tc_release(x), tc_release(w), tc_release(y), tc_release(yw), tc_release(s);
}

int main(void)
{
    /* x = torch.tensor([[1., 2., 3.], [0.5, -1., 4.]], requires_grad=True)
       w = torch.tensor([[1., 0., 0.], [0., 2., -1.]])
       y = (x / T).softmax(dim); (y * w).sum().backward() */
    static const double y_half[] = { 1.58762410e-02, 1.17310427e-01, 8.66813362e-01,
                                     9.11009905e-04, 4.53565117e-05, 9.99043643e-01 };
    static const double g_half[] = { 0.03124837, -0.00372490, -0.02752348,
                                     0.00182011, 0.00027204,  -0.00209215 };
    static const double y_one[] = { 0.09003057, 0.24472848, 0.66524094,
                                    0.02912176, 0.00649794, 0.96438032 };
    static const double g_one[] = { 0.08192507, -0.02203305, -0.05989202,
                                    0.02770599, 0.01917793,  -0.04688390 };
    static const double y_ten[] = { 0.30060959, 0.33222499, 0.36716539,
                                    0.30489892, 0.26242894, 0.43267217 };
    static const double g_ten[] = { 0.02102435,  -0.00998700, -0.01103734,
                                    -0.00281073, 0.05006657,  -0.04725584 };
    /* T = 0.01: x / T reaches 400, which the stable softmax survives */
    static const double y_cold[] = { 0, 3.78350585e-44, 1, 0, 0, 1 };
    static const double g_cold[] = { 0, 0, 0, 0, 0, 0 };
    static const double y_dim0[] = { 0.56217653, 0.81757444, 0.37754068,
                                     0.43782350, 0.18242551, 0.62245935 };
    static const double g_dim0[] = { 0.12306704,  -0.14914644, 0.11750186,
                                     -0.12306705, 0.14914645,  -0.11750185 };
    int64_t before = tc_live_storages();
    tc_tensor *x, *y;

    if (ag_softmax_temperature == NULL)
        return exercise_not_started("ch06_temperature", "ag_softmax_temperature");
    check(0.5, 1, y_half, g_half);
    check(1, 1, y_one, g_one);
    check(10, -1, y_ten, g_ten);
    check(0.01, 1, y_cold, g_cold);
    check(2, 0, y_dim0, g_dim0);
    x = tc_from_data(TC_SHAPE(2, 3), TC_FLOAT32, XS);
    y = ag_softmax_temperature(x, 1, 0);
    expect_error("softmax with temperature 0", y, "temperature must be positive, got 0");
    tc_release(y);
    y = ag_softmax_temperature(x, 1, -1.5);
    expect_error("softmax with temperature -1.5", y, "temperature must be positive, got -1.5");
    tc_release(y);
    y = ag_softmax_temperature(x, 1, NAN);
    expect_error("softmax with temperature NaN", y, "temperature must be positive, got nan");
    tc_release(y), tc_release(x);
    EXPECT(tc_live_storages() == before, "%lld storages left behind",
           (long long)(tc_live_storages() - before));
    return exercise_verdict("ch06_temperature");
}
