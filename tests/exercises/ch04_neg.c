/* Exercise 4.1: -s for a sparse tensor, tc_sparse *tc_sparse_neg(const tc_sparse *s):
   the values negated, the indices and the coalesced flag unchanged. */
#include "exercise.h"

tc_sparse *tc_sparse_neg(const tc_sparse *s) TC_EXERCISE_WEAK;

int main(void)
{
    const int64_t ii[] = { 0, 1, 1, 0, 2, 0, 2, 2 };
    const float vv[] = { 3, 4, 5, 1 };
    tc_tensor *indices = tc_from_data(TC_SHAPE(2, 4), TC_INT64, ii);
    tc_tensor *values = tc_from_data(TC_SHAPE(4), TC_FLOAT32, vv);
    tc_shape size = TC_SHAPE(2, 3);
    /* s = torch.sparse_coo_tensor([[0, 1, 1, 0], [2, 0, 2, 2]], [3., 4., 5., 1.], (2, 3)) */
    tc_sparse *s = tc_sparse_coo_tensor(indices, values, &size);
    tc_sparse *c = tc_sparse_coalesce(s);
    tc_sparse *n, *nc;
    tc_tensor *dense;

    if (tc_sparse_neg == NULL) {
        tc_sparse_release(s), tc_sparse_release(c), tc_release(indices), tc_release(values);
        return exercise_not_started("ch04_neg", "tc_sparse_neg");
    }
    n = tc_sparse_neg(s);
    nc = tc_sparse_neg(c);
    /* torch.neg(s)._values() == tensor([-3., -4., -5., -1.]); is_coalesced() False */
    expect_repr("neg(s)._values()", n != NULL ? n->values : NULL, "tensor([-3., -4., -5., -1.])");
    expect_repr("neg(s)._indices()", n != NULL ? n->indices : NULL,
                "tensor([[0, 1, 1, 0],\n        [2, 0, 2, 2]])");
    EXPECT(n != NULL && !n->coalesced, "neg of an uncoalesced tensor is uncoalesced");
    /* torch.neg(s.coalesce()): values tensor([-4., -4., -5.]), is_coalesced() True */
    expect_repr("neg(s.coalesce())._values()", nc != NULL ? nc->values : NULL,
                "tensor([-4., -4., -5.])");
    EXPECT(nc != NULL && nc->coalesced, "neg of a coalesced tensor is coalesced");
    dense = n != NULL ? tc_sparse_to_dense(n) : NULL;
    /* torch.neg(s).to_dense() */
    expect_repr("neg(s).to_dense()", dense, "tensor([[ 0.,  0., -4.],\n        [-4.,  0., -5.]])");
    tc_release(dense);
    tc_sparse_release(n), tc_sparse_release(nc), tc_sparse_release(s), tc_sparse_release(c);
    tc_release(indices), tc_release(values);
    return exercise_verdict("ch04_neg");
}
