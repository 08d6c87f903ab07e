/* Exercise 2.2: x.unflatten(dim, sizes), the inverse of flatten, as a view:
   tc_tensor *tc_unflatten(const tc_tensor *self, int64_t dim, tc_shape sizes). */
#include "exercise.h"

tc_tensor *tc_unflatten(const tc_tensor *self, int64_t dim, tc_shape sizes) TC_EXERCISE_WEAK;

static void expect_layout(const char *what, const tc_tensor *base, tc_tensor *t, tc_shape sizes,
                          tc_shape strides)
{
    bool ok = t != NULL && t->dim == sizes.dim && t->storage == base->storage;

    for (int64_t d = 0; ok && d < sizes.dim; d++)
        ok = t->sizes[d] == sizes.sizes[d] && t->strides[d] == strides.sizes[d];
    EXPECT(ok, "%s: wrong sizes or strides, or not a view (%s)", what,
           t == NULL && tc_error() != NULL ? tc_error() : "");
    tc_release(t);
    tc_clear_error();
}

int main(void)
{
    tc_tensor *flat = tc_arange(0.0, 12.0, 1.0);
    tc_tensor *y = tc_view(flat, TC_SHAPE(3, 4));    /* torch.arange(12.).view(3, 4) */
    tc_tensor *yt = tc_t(y), *bad;

    if (tc_unflatten == NULL) {
        tc_release(flat), tc_release(y), tc_release(yt);
        return exercise_not_started("ch02_unflatten", "tc_unflatten");
    }
    /* y.unflatten(1, (2, 2)): size (3, 2, 2), stride (4, 2, 1) */
    expect_layout("y.unflatten(1, (2, 2))", y, tc_unflatten(y, 1, TC_SHAPE(2, 2)),
                  TC_SHAPE(3, 2, 2), TC_SHAPE(4, 2, 1));
    /* y.unflatten(-1, (-1, 2)): the same */
    expect_layout("y.unflatten(-1, (-1, 2))", y, tc_unflatten(y, -1, TC_SHAPE(-1, 2)),
                  TC_SHAPE(3, 2, 2), TC_SHAPE(4, 2, 1));
    /* y.t().unflatten(0, (2, 2)): size (2, 2, 3), stride (2, 1, 4) */
    expect_layout("y.t().unflatten(0, (2, 2))", y, tc_unflatten(yt, 0, TC_SHAPE(2, 2)),
                  TC_SHAPE(2, 2, 3), TC_SHAPE(2, 1, 4));
    /* y.unflatten(1, (3, 2)) */
    bad = tc_unflatten(y, 1, TC_SHAPE(3, 2));
    expect_error("y.unflatten(1, (3, 2))", bad,
                 "unflatten: Provided sizes [3, 2] don't multiply up to the size of dim 1 (4) in "
                 "the input tensor");
    tc_release(bad);
    tc_release(flat);
    tc_release(y);
    tc_release(yt);
    return exercise_verdict("ch02_unflatten");
}
