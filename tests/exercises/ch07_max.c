/* Exercise 7.3: a vectorized max reduction,
   tc_tensor *tc_max_vec(const tc_tensor *x):
   x.max() of a float32 or float64 tensor, a 0-dim tensor, through the
   iterator's reduction mode with a vectorized inner loop and threads. Its
   value is chapter 3's tc_max's, which is PyTorch's: a NaN anywhere gives
   NaN; an empty tensor is refused with PyTorch's message. Since max picks
   one of its inputs, the order of the work cannot change the result: the
   same bits for 1 and 2 threads and every capability. */
#include "exercise.h"

tc_tensor *tc_max_vec(const tc_tensor *x) TC_EXERCISE_WEAK;

enum { N = 1 << 20 };

/* tc_max_vec(x) under every capability and 1 and 2 threads is want (NaN
   matches NaN). */
static void check_everywhere(const char *what, const tc_tensor *x, double want)
{
    static const tc_cpu_capability caps[] = { TC_CPU_DEFAULT, TC_CPU_AVX2, TC_CPU_AVX512 };
    tc_cpu_capability chosen = tc_cpu_capability_get();
    int threads = tc_get_num_threads();

    for (int k = 0; k < 3; k++) {
        if (!tc_cpu_capability_set(caps[k]))
            continue;
        for (int t = 1; t <= 2; t++) {
            tc_tensor *m;
            double got = 0;
            tc_set_num_threads(t);
            m = tc_max_vec(x);
            EXPECT(m != NULL && m->dim == 0 && tc_get(m, NULL, &got) == 0 &&
                       (isnan(want) ? isnan(got) : got == want),
                   "%s under %s, %d thread%s: got %.9g, want %.9g", what,
                   tc_cpu_capability_name(caps[k]), t, t == 1 ? "" : "s", got, want);
            tc_release(m);
        }
    }
    tc_set_num_threads(threads);
    tc_cpu_capability_set(chosen);
}

int main(void)
{
    int64_t before = tc_live_storages();
    tc_tensor *x, *xt, *e, *m;
    float *v;

    if (tc_max_vec == NULL)
        return exercise_not_started("ch07_max", "tc_max_vec");
    x = tc_empty(TC_SHAPE(1024, 1024), TC_FLOAT32);
    v = tc_data_ptr(x);
    for (int64_t i = 0; i < N; i++)
        v[i] = -(float)((i * 7919) % 1000003) - 1;
    check_everywhere("max of 2^20 negatives", x, -1);
    v[777777] = 3.5f;               /* one maximum, far from any boundary */
    check_everywhere("x.max()", x, 3.5);
    xt = tc_t(x);
    check_everywhere("x.t().max()", xt, 3.5);
    v[N - 1] = NAN;                 /* torch.tensor([1., nan, 3.]).max() is nan */
    check_everywhere("max with a NaN at the end", x, NAN);
    v[N - 1] = -INFINITY;
    check_everywhere("max with -inf", x, 3.5);
    e = tc_empty(TC_SHAPE(0), TC_FLOAT32);
    m = tc_max_vec(e);
    expect_error("torch.empty(0).max()", m,
                 "max(): Expected reduction dim to be specified for input.numel() == 0. "
                 "Specify the reduction dim with the 'dim' argument.");
    tc_release(m), tc_release(e), tc_release(x), tc_release(xt);
    EXPECT(tc_live_storages() == before, "storages leaked: %lld",
           (long long)(tc_live_storages() - before));
    return exercise_verdict("ch07_max");
}
