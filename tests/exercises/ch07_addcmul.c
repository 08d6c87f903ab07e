/* Exercise 7.2: torch.addcmul, a kernel of three inputs,
   tc_tensor *tc_addcmul(const tc_tensor *self, const tc_tensor *tensor1,
                         const tc_tensor *tensor2, double value):
   self + value * tensor1 * tensor2, float32 or float64, the three
   broadcast together by the iterator and the output laid out as the
   iterator allocates it; value is first rounded to the element type, as
   PyTorch's addcmul_cpu_kernel does, and each element is computed as
   ((value * t1) * t2) + self: two products and a sum, each rounded, no
   fused multiply-add, so that every capability gives the same bits.
   Values below from PyTorch 1.13, except where the comment says. */
#include "exercise.h"

tc_tensor *tc_addcmul(const tc_tensor *self, const tc_tensor *tensor1, const tc_tensor *tensor2,
                      double value) TC_EXERCISE_WEAK;

/* Every element of r is ((v * a) * b) + s of the broadcast elements, bit
   for bit; r has PyTorch's strides. */
static void check_bits(const char *what, const tc_tensor *r, float s, float a, float b, float v)
{
    float product = v * a, want;    /* one rounding per statement: no FMA */
    bool same = r != NULL && r->dtype == TC_FLOAT32;

    product = product * b;
    want = product + s;
    for (int64_t i = 0; same && i < tc_numel(r); i++) {
        float got = ((float *)tc_data_ptr(r))[i];
        same = memcmp(&got, &want, sizeof got) == 0;
    }
    EXPECT(same, "%s: every element should be %.9g, bit for bit", what, want);
}

int main(void)
{
    static const float S[] = { 1, 2 }, T1[] = { 1, 2, 3 }, T2[] = { 0.5f, -1 };
    /* torch.addcmul(s, t1, t2, value=0.1), t1 of shape (3, 1) */
    static const double WANT[] = { 1.0499999523162842, 1.899999976158142, 1.100000023841858,
                                   1.7999999523162842, 1.149999976158142, 1.7000000476837158 };
    static const tc_cpu_capability caps[] = { TC_CPU_DEFAULT, TC_CPU_AVX2, TC_CPU_AVX512 };
    tc_cpu_capability chosen = tc_cpu_capability_get();
    int64_t before = tc_live_storages();
    tc_tensor *s, *t1, *t2, *r;

    if (tc_addcmul == NULL)
        return exercise_not_started("ch07_addcmul", "tc_addcmul");
    s = tc_from_data(TC_SHAPE(2), TC_FLOAT32, S);
    t1 = tc_from_data(TC_SHAPE(3, 1), TC_FLOAT32, T1);
    t2 = tc_from_data(TC_SHAPE(2), TC_FLOAT32, T2);
    r = tc_addcmul(s, t1, t2, 0.1);
    expect_values("torch.addcmul(s, t1, t2, value=0.1)", r, 6, WANT);
    EXPECT(r != NULL && r->dim == 2 && r->strides[0] == 2 && r->strides[1] == 1,
           "its strides should be (2, 1)");
    tc_release(r);
    r = tc_addcmul(t2, t1, s, 1);    /* t2 (2) and s (2) against t1 (3, 1): fine */
    EXPECT(r != NULL && r->dim == 2 && r->sizes[0] == 3, "addcmul(t2, t1, s) is (3, 2)");
    tc_release(r);
    {
        tc_tensor *t3 = tc_from_data(TC_SHAPE(3), TC_FLOAT32, T1);
        r = tc_addcmul(s, t3, t2, 1);
        expect_error("torch.addcmul(s, torch.ones(3), t2)", r,
                     "The size of tensor a (2) must match the size of tensor b (3) at "
                     "non-singleton dimension 0");
        tc_release(r), tc_release(t3);
    }
    /* s + a * a with a = 1 + 2^-12, s = -(1 + 2^-11): a * a is 1 + 2^-11 + 2^-24,
       which rounds (a tie, to even) to 1 + 2^-11, and the sum is 0. A fused
       multiply-add rounds once, at the end, and gives 2^-24: so does the
       Debian build of PyTorch 1.13 used for this book, whose compiler
       contracted the kernel's a * b + c into an FMA. The exercise asks for 0. */
    for (int k = 0; k < 3; k++) {
        float a = 1 + 0x1p-12f, sv = -(1 + 0x1p-11f);
        tc_tensor *va, *vs;
        char what[96];

        if (!tc_cpu_capability_set(caps[k]))
            continue;
        for (int64_t n = 1; n <= 65; n += 16) {
            va = tc_full(TC_SHAPE(n), a, TC_FLOAT32), vs = tc_full(TC_SHAPE(n), sv, TC_FLOAT32);
            r = tc_addcmul(vs, va, va, 1);
            snprintf(what, sizeof what, "addcmul of %lld elements under %s", (long long)n,
                     tc_cpu_capability_name(caps[k]));
            check_bits(what, r, sv, a, a, 1);
            tc_release(r), tc_release(va), tc_release(vs);
        }
    }
    tc_cpu_capability_set(chosen);
    tc_release(s), tc_release(t1), tc_release(t2);
    tc_clear_error();
    EXPECT(tc_live_storages() == before, "storages leaked: %lld",
           (long long)(tc_live_storages() - before));
    return exercise_verdict("ch07_addcmul");
}
