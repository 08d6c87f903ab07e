/* Exercise 2.3: x.is_contiguous(memory_format=torch.channels_last) as
   bool tc_is_contiguous_channels_last(const tc_tensor *t). */
#include "exercise.h"

bool tc_is_contiguous_channels_last(const tc_tensor *t) TC_EXERCISE_WEAK;

/* torch.empty_strided(sizes, strides).is_contiguous(memory_format=torch.channels_last) */
static void expect_cl(tc_storage *storage, int64_t dim, const int64_t *sizes,
                      const int64_t *strides, bool want, const char *what)
{
    tc_tensor *t = tc_tensor_over(storage, TC_FLOAT32, dim, sizes, strides, 0);

    EXPECT(t != NULL && tc_is_contiguous_channels_last(t) == want, "%s should be %s", what,
           want ? "True" : "False");
    tc_release(t);
}

int main(void)
{
    tc_storage *s = tc_storage_new(1024 * sizeof(float));

    if (tc_is_contiguous_channels_last == NULL) {
        tc_storage_release(s);
        return exercise_not_started("ch02_channels_last", "tc_is_contiguous_channels_last");
    }
    /* torch.empty(2, 3, 4, 5).contiguous(memory_format=torch.channels_last): strides (60, 1, 15, 3) */
    expect_cl(s, 4, (const int64_t[]){ 2, 3, 4, 5 }, (const int64_t[]){ 60, 1, 15, 3 }, true,
              "(2, 3, 4, 5) with strides (60, 1, 15, 3)");
    /* torch.empty(2, 3, 4, 5): strides (60, 20, 5, 1) */
    expect_cl(s, 4, (const int64_t[]){ 2, 3, 4, 5 }, (const int64_t[]){ 60, 20, 5, 1 }, false,
              "a contiguous (2, 3, 4, 5)");
    /* torch.empty_strided((2, 3, 1, 1), (3, 1, 3, 3)) */
    expect_cl(s, 4, (const int64_t[]){ 2, 3, 1, 1 }, (const int64_t[]){ 3, 1, 3, 3 }, true,
              "(2, 3, 1, 1) with strides (3, 1, 3, 3)");
    /* torch.empty_strided((2, 1, 4, 5), (20, 1, 5, 1)): one channel, both layouts at once */
    expect_cl(s, 4, (const int64_t[]){ 2, 1, 4, 5 }, (const int64_t[]){ 20, 1, 5, 1 }, true,
              "(2, 1, 4, 5) with strides (20, 1, 5, 1)");
    /* torch.empty(0, 3, 4, 5): no exception for empty tensors here */
    expect_cl(s, 4, (const int64_t[]){ 0, 3, 4, 5 }, (const int64_t[]){ 60, 20, 5, 1 }, false,
              "an empty contiguous (0, 3, 4, 5)");
    /* torch.empty(2, 3, 4): only 4-D tensors can be channels-last */
    expect_cl(s, 3, (const int64_t[]){ 2, 3, 4 }, (const int64_t[]){ 12, 4, 1 }, false,
              "a 3-D tensor");
    /* torch.empty(2, 4, 5, 3).permute(0, 3, 1, 2) */
    expect_cl(s, 4, (const int64_t[]){ 2, 3, 4, 5 }, (const int64_t[]){ 60, 1, 15, 3 }, true,
              "torch.empty(2, 4, 5, 3).permute(0, 3, 1, 2)");
    tc_storage_release(s);
    return exercise_verdict("ch02_channels_last");
}
