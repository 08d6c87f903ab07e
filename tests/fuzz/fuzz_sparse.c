/* fuzz_sparse.c: sparse COO tensors from arbitrary indices, values and
   sizes (small ones mostly, the int64 edges sometimes), then every sparse
   operation of chapter 4 on them and on what they return.
   Invariants: a failure records a message and a success none; coalesce()
   is marked coalesced, its indices are in range, sorted by coordinates and
   unique, and it keeps sizes and sparse_dim; to_dense of a tensor equals
   to_dense of its coalesce() (exactly: both add duplicates in list order);
   coalesce() of a coalesced tensor is that tensor; transposing twice and
   to_sparse(to_dense()) give back the same dense tensor; nothing leaks
   (libFuzzer's ASan). */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

enum { MAX_NNZ = 12, MAX_STEPS = 6, DENSE_LIMIT = 1 << 12 };

/* A size: mostly 0..5, sometimes an int64 edge. */
static int64_t size_arg(fz_reader *r)
{
    return fz_byte(r) < 224 ? fz_range(r, 0, 5) : fz_int64(r);
}

/* An index for a dimension of size n: mostly near 0 or near n - 1,
   sometimes anything. */
static int64_t index_arg(fz_reader *r, int64_t n)
{
    uint8_t kind = fz_byte(r);
    int64_t reach = n <= 0 ? 0 : n - 1 < 5 ? n - 1 : 5;

    if (kind < 160 && n > 0)
        return fz_range(r, 0, reach);
    if (kind < 232 && n > 0)
        return n - 1 - fz_range(r, 0, reach);
    return fz_int64(r);
}

/* torch.sparse_coo_tensor from the input: NULL (message checked) if refused. */
static tc_sparse *build(fz_reader *r)
{
    int64_t sparse_dim = fz_range(r, 0, 3), dense_dim = fz_range(r, 0, 2);
    int64_t nnz = fz_range(r, 0, MAX_NNZ);
    tc_shape size = { .dim = sparse_dim + dense_dim }, vshape = { .dim = 1 + dense_dim };
    int64_t indices[3 * MAX_NNZ];
    bool given = fz_byte(r) < 200;
    tc_tensor *i, *v;
    tc_sparse *s;

    for (int64_t d = 0; d < size.dim; d++)
        size.sizes[d] = size_arg(r);
    if (fz_byte(r) < 16)    /* a wrong number of dimensions */
        size.dim = fz_range(r, 0, TC_MAX_DIMS);
    for (int64_t d = 0; d < sparse_dim; d++)
        for (int64_t k = 0; k < nnz; k++)
            indices[d * nnz + k] = index_arg(r, given ? size.sizes[d] : 6);
    vshape.sizes[0] = fz_byte(r) < 16 ? fz_range(r, 0, MAX_NNZ) : nnz;
    for (int64_t d = 0; d < dense_dim; d++)
        vshape.sizes[1 + d] = fz_byte(r) < 32 || !given ? fz_range(r, 0, 3)
                                                        : size.sizes[sparse_dim + d];
    for (int64_t d = 1; d < vshape.dim; d++)    /* values that can be built */
        if (vshape.sizes[d] < 0 || (vshape.sizes[0] > 0 && vshape.sizes[d] > 3))
            vshape.sizes[d] = 2;
    i = tc_from_data(TC_SHAPE(sparse_dim, nnz), TC_INT64, indices);
    v = fz_tensor(r, vshape, fz_dtype(r));
    FZ_CHECK(i != NULL && v != NULL, "cannot build the inputs: %s", tc_error());
    if (fz_byte(r) < 32) {    /* indices given as floats, converted as PyTorch does */
        tc_tensor *f = tc_empty(tc_shape_of(i), TC_FLOAT64);
        FZ_CHECK(f != NULL && tc_copy_(f, i) == 0, "cannot convert the indices");
        tc_release(i);
        i = f;
    }
    tc_clear_error();
    s = tc_sparse_coo_tensor(i, v, given ? &size : NULL);
    if (s == NULL)
        fz_check_failed("sparse_coo_tensor");
    else
        fz_check_no_error("sparse_coo_tensor");
    tc_release(i);
    tc_release(v);
    return s;
}

/* Does a dense tensor of s's sizes have at most DENSE_LIMIT elements? */
static bool small(const tc_sparse *s)
{
    return fz_numel_at_most(s->dim, s->sizes, DENSE_LIMIT);
}

static int64_t index_of(const tc_sparse *s, int64_t d, int64_t k)
{
    return ((const int64_t *)tc_data_ptr(s->indices))[d * tc_sparse_nnz(s) + k];
}

/* c is a coalesced twin of s: flag, sizes, ranges, strictly sorted columns. */
static void check_coalesced(const tc_sparse *s, const tc_sparse *c)
{
    int64_t nnz = tc_sparse_nnz(c);

    FZ_CHECK(c->coalesced, "coalesce() is not marked coalesced");
    FZ_CHECK(c->dim == s->dim && c->sparse_dim == s->sparse_dim &&
             memcmp(c->sizes, s->sizes, (size_t)s->dim * sizeof s->sizes[0]) == 0,
             "coalesce() changed the sizes");
    FZ_CHECK(nnz <= tc_sparse_nnz(s), "coalesce() has more entries (%lld > %lld)",
             (long long)nnz, (long long)tc_sparse_nnz(s));
    FZ_CHECK(c->values->sizes[0] == nnz, "coalesce(): %lld values for %lld indices",
             (long long)c->values->sizes[0], (long long)nnz);
    for (int64_t k = 0; k < nnz; k++) {
        int order = k == 0 ? 1 : 0;
        for (int64_t d = 0; d < c->sparse_dim; d++) {
            int64_t x = index_of(c, d, k);
            FZ_CHECK(x >= 0 && x < c->sizes[d], "coalesce(): index %lld out of [0, %lld)",
                     (long long)x, (long long)c->sizes[d]);
            if (order == 0 && x != index_of(c, d, k - 1))
                order = x > index_of(c, d, k - 1) ? 1 : -1;
        }
        FZ_CHECK(order == 1 || c->sparse_dim == 0,
                 "coalesce(): column %lld is %s the one before", (long long)k,
                 order == 0 ? "equal to" : "below");
    }
    FZ_CHECK(c->sparse_dim > 0 || nnz <= 1, "coalesce(): %lld entries and no index",
             (long long)nnz);
}

/* to_dense(a) and to_dense(b) have one shape and the same values. */
static void check_same_dense(const tc_sparse *a, const tc_sparse *b, const char *what)
{
    tc_tensor *x, *y;

    if (!small(a))
        return;
    x = tc_sparse_to_dense(a);
    y = x == NULL ? NULL : tc_sparse_to_dense(b);
    if (x == NULL || y == NULL)    /* out of memory is the only excuse */
        FZ_CHECK(tc_error() != NULL && strstr(tc_error(), "memory") != NULL,
                 "%s: to_dense failed: %s", what, tc_error() ? tc_error() : "(no message)");
    else
        fz_check_same_values(x, y, what);
    tc_clear_error();
    tc_release(x);
    tc_release(y);
}

/* The result of one call: a failure has a message, a success none. */
static tc_sparse *checked(tc_sparse *out, const char *what)
{
    if (out == NULL)
        fz_check_failed(what);
    else
        fz_check_no_error(what);
    return out;
}

static tc_tensor *checked_t(tc_tensor *out, const char *what)
{
    if (out == NULL)
        fz_check_failed(what);
    else
        fz_check_no_error(what);
    return out;
}

static tc_sparse *step(fz_reader *r, tc_sparse *s)
{
    tc_sparse *out = NULL;
    int64_t n = s->dim;

    tc_clear_error();
    switch (fz_byte(r) % 12) {
    case 0: {
        tc_sparse *c = checked(tc_sparse_coalesce(s), "coalesce");
        if (c != NULL) {
            tc_sparse *again = tc_sparse_coalesce(c);
            check_coalesced(s, c);
            FZ_CHECK(again == c, "coalesce() of a coalesced tensor is another tensor");
            tc_sparse_release(again);
            check_same_dense(s, c, "to_dense(s) vs to_dense(s.coalesce())");
        }
        return c;
    }
    case 1: {
        tc_sparse *c = tc_sparse_coalesce(s), *sum;
        tc_clear_error();
        sum = checked(tc_sparse_add(s, fz_bool(r) || c == NULL ? s : c), "add");
        tc_sparse_release(c);
        return sum;
    }
    case 2:
        return checked(tc_sparse_mul_scalar(s, fz_double(r)), "mul");
    case 3: {
        tc_tensor *t = checked_t(tc_sparse_sum(s), "sparse.sum");
        if (t != NULL)
            FZ_CHECK(t->dim == 0, "sparse.sum is not 0-D");
        tc_release(t);
        return NULL;
    }
    case 4: {
        tc_shape dims = { .dim = fz_range(r, 0, n + 1 < TC_MAX_DIMS ? n + 1 : TC_MAX_DIMS) };
        for (int64_t d = 0; d < dims.dim; d++)
            dims.sizes[d] = fz_dim_arg(r, n);
        out = checked(tc_sparse_sum_dims(s, dims), "sparse.sum(dims)");
        if (out != NULL)
            check_coalesced(out, out);
        return out;
    }
    case 5: {
        int64_t a = fz_dim_arg(r, n), b = fz_dim_arg(r, n);
        out = checked(tc_sparse_transpose(s, a, b), "transpose");
        if (out != NULL) {
            tc_sparse *back = checked(tc_sparse_transpose(out, a, b), "transpose back");
            if (back != NULL)
                check_same_dense(s, back, "transpose twice");
            tc_sparse_release(back);
        }
        return out;
    }
    case 6: {
        tc_shape shape = fz_shape(r, 3, 4);
        tc_tensor *d, *p;
        if (fz_bool(r) && n == 2 && s->sizes[1] >= 0 && s->sizes[1] <= 6) {    /* fitting */
            shape.dim = 2;
            shape.sizes[0] = s->sizes[1];
        }
        d = fz_tensor(r, shape, fz_bool(r) ? s->values->dtype : fz_dtype(r));
        FZ_CHECK(d != NULL, "cannot build a dense operand");
        tc_clear_error();
        p = checked_t(tc_sparse_mm(s, d), "sparse.mm");
        if (p != NULL)
            FZ_CHECK(p->dim == 2 && p->sizes[0] == s->sizes[0] && p->sizes[1] == d->sizes[1],
                     "sparse.mm has the wrong shape");
        tc_release(p);
        tc_release(d);
        return NULL;
    }
    case 7: {
        tc_tensor *d;
        if (!small(s))
            return NULL;
        d = checked_t(tc_sparse_to_dense(s), "to_dense");
        if (d != NULL) {
            out = checked(tc_to_sparse(d, fz_range(r, -1, n + 1)), "to_sparse");
            if (out != NULL) {
                check_coalesced(out, out);
                check_same_dense(s, out, "to_sparse(to_dense(s))");
            }
        }
        tc_release(d);
        return out;
    }
    case 8: {
        tc_tensor *i = tc_sparse_indices(s), *v = tc_sparse_values(s);
        FZ_CHECK((i == NULL) == !s->coalesced && (v == NULL) == !s->coalesced,
                 "indices()/values() disagree with is_coalesced()");
        if (i == NULL)
            fz_check_failed("indices()");
        tc_release(i);
        tc_release(v);
        return NULL;
    }
    case 9: {
        char *text = tc_sparse_repr(s);
        FZ_CHECK(text != NULL && strstr(text, "layout=torch.sparse_coo") != NULL,
                 "repr failed: %s", tc_error() ? tc_error() : "(no message)");
        free(text);
        return NULL;
    }
    case 10: {
        tc_tensor *number = tc_full(TC_SCALAR_SHAPE, fz_double(r), fz_dtype(r));
        tc_clear_error();
        out = number == NULL ? NULL : checked(tc_sparse_mul(s, number), "mul(tensor)");
        tc_release(number);
        return out;
    }
    default:
        FZ_CHECK(tc_sparse_nbytes(s) == (size_t)tc_numel(s->indices) * 8 +
                     (size_t)tc_numel(s->values) * tc_itemsize(s->values->dtype),
                 "nbytes");
        return NULL;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_reader r = fz_reader_of(data, size);
    tc_sparse *cur;

    tc_clear_error();
    cur = build(&r);
    for (int k = 0; cur != NULL && k < MAX_STEPS && fz_more(&r); k++) {
        tc_sparse *next = step(&r, cur);
        if (next != NULL && fz_bool(&r)) {    /* go on from the result */
            tc_sparse_release(cur);
            cur = next;
        } else {
            tc_sparse_release(next);
        }
    }
    tc_sparse_release(cur);
    tc_clear_error();
    return 0;
}
