/* Exercise 4.2: s * t for two sparse tensors of one shape, the intersection
   of their entries: tc_sparse *tc_sparse_mul_sparse(const tc_sparse *a, const tc_sparse *b). */
#include "exercise.h"

tc_sparse *tc_sparse_mul_sparse(const tc_sparse *a, const tc_sparse *b) TC_EXERCISE_WEAK;

static tc_sparse *coo(int64_t nnz, const int64_t *ii, const float *vv, tc_shape size)
{
    tc_tensor *indices = tc_from_data(TC_SHAPE(2, nnz), TC_INT64, ii);
    tc_tensor *values = tc_from_data(TC_SHAPE(nnz), TC_FLOAT32, vv);
    tc_sparse *s = tc_sparse_coo_tensor(indices, values, &size);

    tc_release(indices);
    tc_release(values);
    return s;
}

int main(void)
{
    /* s = torch.sparse_coo_tensor([[0, 1, 1, 0], [2, 0, 2, 2]], [3., 4., 5., 1.], (2, 3))
       t = torch.sparse_coo_tensor([[0, 1, 1], [2, 2, 1]], [2., 10., 7.], (2, 3))
       u = torch.sparse_coo_tensor([[0], [0]], [1.], (3, 3)) */
    tc_sparse *s = coo(4, (const int64_t[]){ 0, 1, 1, 0, 2, 0, 2, 2 },
                       (const float[]){ 3, 4, 5, 1 }, TC_SHAPE(2, 3));
    tc_sparse *t = coo(3, (const int64_t[]){ 0, 1, 1, 2, 2, 1 }, (const float[]){ 2, 10, 7 },
                       TC_SHAPE(2, 3));
    tc_sparse *u = coo(1, (const int64_t[]){ 0, 0 }, (const float[]){ 1 }, TC_SHAPE(3, 3));
    tc_sparse *p, *bad;
    tc_tensor *dense;

    if (tc_sparse_mul_sparse == NULL) {
        tc_sparse_release(s), tc_sparse_release(t), tc_sparse_release(u);
        return exercise_not_started("ch04_mul", "tc_sparse_mul_sparse");
    }
    p = tc_sparse_mul_sparse(s, t);
    dense = p != NULL ? tc_sparse_to_dense(p) : NULL;
    /* (s * t).to_dense() */
    expect_repr("(s * t).to_dense()", dense, "tensor([[ 0.,  0.,  8.],\n        [ 0.,  0., 50.]])");
    tc_release(dense);
    bad = tc_sparse_mul_sparse(s, u);    /* s * u */
    expect_error("s * u", bad,
                 "sparse_binary_op_intersection_cpu(): expects sparse inputs with equal "
                 "dimensionality, number of sparse dimensions, and shape of sparse dimensions");
    tc_sparse_release(bad);
    tc_sparse_release(p), tc_sparse_release(s), tc_sparse_release(t), tc_sparse_release(u);
    return exercise_verdict("ch04_mul");
}
