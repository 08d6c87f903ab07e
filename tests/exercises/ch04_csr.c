/* Exercise 4.3: s.to_sparse_csr() for a 2-D sparse tensor with no dense
   dimensions: int tc_sparse_to_csr(const tc_sparse *s, tc_tensor **crow_indices,
   tc_tensor **col_indices, tc_tensor **values), 0 or -1. */
#include "exercise.h"

int tc_sparse_to_csr(const tc_sparse *s, tc_tensor **crow_indices, tc_tensor **col_indices,
                     tc_tensor **values) TC_EXERCISE_WEAK;

static tc_sparse *coo(int64_t nnz, const int64_t *ii, tc_tensor *values, tc_shape size)
{
    tc_tensor *indices = tc_from_data(TC_SHAPE(2, nnz), TC_INT64, ii);
    tc_sparse *s = tc_sparse_coo_tensor(indices, values, &size);

    tc_release(indices);
    tc_release(values);
    return s;
}

static void expect_csr(const char *what, const tc_sparse *s, const char *crow, const char *col,
                       const char *values)
{
    tc_tensor *r = NULL, *c = NULL, *v = NULL;
    int status = tc_sparse_to_csr(s, &r, &c, &v);

    EXPECT(status == 0, "%s failed: %s", what, tc_error() != NULL ? tc_error() : "");
    expect_repr("crow_indices", status == 0 ? r : NULL, crow);
    expect_repr("col_indices", status == 0 ? c : NULL, col);
    expect_repr("values", status == 0 ? v : NULL, values);
    if (status == 0) {
        tc_release(r);
        tc_release(c);
        tc_release(v);
    }
}

int main(void)
{
    /* s = torch.sparse_coo_tensor([[0, 1, 1, 0], [2, 0, 2, 2]], [3., 4., 5., 1.], (2, 3)) */
    tc_sparse *s = coo(4, (const int64_t[]){ 0, 1, 1, 0, 2, 0, 2, 2 },
                       tc_from_data(TC_SHAPE(4), TC_FLOAT32, (const float[]){ 3, 4, 5, 1 }),
                       TC_SHAPE(2, 3));
    /* w = torch.sparse_coo_tensor([[2, 0], [1, 1]], [1, 2], (4, 2)) */
    tc_sparse *w = coo(2, (const int64_t[]){ 2, 0, 1, 1 },
                       tc_from_data(TC_SHAPE(2), TC_INT64, (const int64_t[]){ 1, 2 }),
                       TC_SHAPE(4, 2));

    if (tc_sparse_to_csr == NULL) {
        tc_sparse_release(s), tc_sparse_release(w);
        return exercise_not_started("ch04_csr", "tc_sparse_to_csr");
    }
    /* s.to_sparse_csr(): crow_indices [0, 1, 3], col_indices [2, 0, 2], values [4., 4., 5.] */
    expect_csr("s.to_sparse_csr()", s, "tensor([0, 1, 3])", "tensor([2, 0, 2])",
               "tensor([4., 4., 5.])");
    /* w.to_sparse_csr(): crow_indices [0, 1, 1, 2, 2], col_indices [1, 1], values [2, 1] */
    expect_csr("w.to_sparse_csr()", w, "tensor([0, 1, 1, 2, 2])", "tensor([1, 1])",
               "tensor([2, 1])");
    tc_sparse_release(s), tc_sparse_release(w);
    return exercise_verdict("ch04_csr");
}
