/* Exercise 7.1: a vectorized relu,
   tc_kernel *tc_vec_relu_kernel(tc_cpu_capability c, tc_dtype dtype):
   the cpu_kernel_vec kernel of relu for float32 or float64 under
   capability c (NULL for another dtype or a capability the CPU cannot
   run), written with the chapter's vectorized loop: a scalar op and a
   vector op. Its results must be PyTorch's, bit for bit, under every
   capability: torch.relu keeps -0. (its sign bit set) and NaN, and turns
   -inf into 0 (PyTorch 1.13: torch.relu(torch.tensor([-0., nan, -inf]))
   is tensor([-0., nan, 0.])). */
#include "exercise.h"

tc_kernel *tc_vec_relu_kernel(tc_cpu_capability c, tc_dtype dtype) TC_EXERCISE_WEAK;

/* PyTorch's relu of one float: x < 0 ? 0 : x (so -0. and NaN stay). */
static float relu_f(float x) { return x < 0 ? 0.0f : x; }
static double relu_d(double x) { return x < 0 ? 0.0 : x; }

static const float SPECIAL[] = { -1.5f, -0.0f, 0.0f, 2.5f, NAN, -INFINITY, INFINITY, 1e-45f,
                                 -1e-45f, 3e38f, -3e38f, 1.0f, -2.0f };
enum { NSPECIAL = sizeof SPECIAL / sizeof SPECIAL[0] };

/* relu through kernel, via the iterator, of the n elements starting at
   offset (unaligned when odd) of a float32 or float64 buffer of specials,
   compared bit for bit with relu_f / relu_d. */
static void check_length(tc_cpu_capability c, tc_dtype dtype, int64_t n, int64_t offset)
{
    tc_kernel *kernel = tc_vec_relu_kernel(c, dtype);
    tc_tensor *base = tc_empty(TC_SHAPE(n + offset), dtype), *x = NULL, *y = NULL;
    bool same = kernel != NULL && base != NULL;

    for (int64_t i = 0; same && i < n + offset; i++)
        tc_store(base, i, SPECIAL[i % NSPECIAL]);
    if (same && (x = tc_slice(base, 0, offset, offset + n, 1)) != NULL &&
        (y = tc_empty(TC_SHAPE(n), dtype)) != NULL)
        same = tc_iter_loop(2, (tc_tensor *[]){ y, x }, kernel, NULL);
    for (int64_t i = 0; same && i < n; i++) {
        if (dtype == TC_FLOAT32) {
            float got = ((float *)tc_data_ptr(y))[i];
            float want = relu_f(SPECIAL[(i + offset) % NSPECIAL]);
            same = memcmp(&got, &want, sizeof got) == 0;
        } else {
            double got = ((double *)tc_data_ptr(y))[i];
            double want = relu_d((double)SPECIAL[(i + offset) % NSPECIAL]);
            same = memcmp(&got, &want, sizeof got) == 0;
        }
    }
    EXPECT(same, "relu of %lld %s under %s (offset %lld) differs from PyTorch's, bit for bit",
           (long long)n, tc_dtype_name(dtype), tc_cpu_capability_name(c), (long long)offset);
    tc_release(base), tc_release(x), tc_release(y);
}

int main(void)
{
    static const tc_cpu_capability caps[] = { TC_CPU_DEFAULT, TC_CPU_AVX2, TC_CPU_AVX512 };
    int64_t before = tc_live_storages();

    if (tc_vec_relu_kernel == NULL)
        return exercise_not_started("ch07_relu", "tc_vec_relu_kernel");
    for (int k = 0; k < 3; k++) {
        if (!tc_cpu_capability_supported(caps[k])) {
            EXPECT(tc_vec_relu_kernel(caps[k], TC_FLOAT32) == NULL,
                   "a capability this CPU cannot run (%s) should give NULL",
                   tc_cpu_capability_name(caps[k]));
            continue;
        }
        for (int64_t n = 0; n <= 65; n++) {
            check_length(caps[k], TC_FLOAT32, n, n % 2);
            check_length(caps[k], TC_FLOAT64, n, n % 3);
        }
        EXPECT(tc_vec_relu_kernel(caps[k], TC_INT64) == NULL, "int64 should give NULL");
    }
    tc_clear_error();
    EXPECT(tc_live_storages() == before, "storages leaked: %lld",
           (long long)(tc_live_storages() - before));
    return exercise_verdict("ch07_relu");
}
