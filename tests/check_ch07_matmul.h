/* check_ch07_matmul.h: the matmul helper's tests of chapter 7 (included by
   check_ch07.c): the blocked product against a textbook triple loop written
   here (long double sums), on odd shapes, transposed and sliced operands,
   both float types, under every CPU capability the machine has; bmm;
   sparse.mm against the dense product and against chapter 4's loop; the
   same bits for 1 and 2 threads. */
#include <float.h>

/* xorshift64*: the same operands on every run. */
static uint64_t mm_state = 0x2545f4914f6cdd1du;

static double mm_random(void)    /* in [-1, 1), a multiple of 2^-20 */
{
    mm_state ^= mm_state >> 12;
    mm_state ^= mm_state << 25;
    mm_state ^= mm_state >> 27;
    return (double)((mm_state * 0x2545f4914f6cdd1du) >> 44) / (double)(1 << 19) - 1.0;
}

/* Random values into every element of a contiguous float tensor. */
static void mm_fill(tc_tensor *base)
{
    ck_assert_ptr_nonnull(base);
    for (int64_t k = 0; k < tc_numel(base); k++)
        if (base->dtype == TC_FLOAT32)
            ((float *)tc_data_ptr(base))[k] = (float)mm_random();
        else
            ((double *)tc_data_ptr(base))[k] = mm_random();
}

/* A contiguous tensor of this shape holding random values, kept. */
static tc_tensor *mm_random_tensor(tc_shape shape, tc_dtype dtype)
{
    tc_tensor *t = K(tc_empty(shape, dtype));

    mm_fill(t);
    return t;
}

/* How a test operand is laid out over its storage. */
enum { MM_CONTIGUOUS, MM_TRANSPOSED, MM_SLICED, MM_LAYOUTS };
static const char *const mm_layout_name[] = { "contiguous", "transposed", "sliced" };

/* A (rows, cols) tensor of dtype holding random values, kept (K): contiguous;
   or the transpose of a contiguous (cols, rows); or every other row (from
   row 1) and columns 2.. of a contiguous (2 rows + 1, cols + 3). */
static tc_tensor *mm_operand(int64_t rows, int64_t cols, tc_dtype dtype, int layout)
{
    tc_tensor *base, *t;

    if (layout == MM_TRANSPOSED) {
        base = K(tc_empty(TC_SHAPE(cols, rows), dtype));
        t = K(tc_t(base));
    } else if (layout == MM_SLICED) {
        base = K(tc_empty(TC_SHAPE(2 * rows + 1, cols + 3), dtype));
        t = K(tc_narrow(K(tc_slice(base, 0, 1, 2 * rows + 1, 2)), 1, 2, cols));
    } else {
        base = t = K(tc_empty(TC_SHAPE(rows, cols), dtype));
    }
    ck_assert_ptr_nonnull(t);
    mm_fill(base);
    ck_assert_int_eq(t->sizes[0], rows);
    ck_assert_int_eq(t->sizes[1], cols);
    return t;
}

/* The elements of a 2-D or 3-D t, row-major, as doubles (malloc'd). */
static double *mm_values(const tc_tensor *t)
{
    int64_t n = tc_numel(t);
    double *v = malloc((size_t)(n > 0 ? n : 1) * sizeof *v);

    ck_assert_ptr_nonnull(v);
    for (int64_t k = 0; k < n; k++)
        v[k] = testing_element(t, k);
    return v;
}

/* c holds a (m, k) @ b (k, n) (row-major values) to within (k + 2) units of
   rounding of c's type times sum_p |a_ip| |b_pj| (the bound of any order of
   summation, with or without FMA), the sums taken here in long double. */
static void mm_expect_close(const char *what, const double *a, const double *b,
                            const tc_tensor *c, int64_t m, int64_t k, int64_t n)
{
    double unit = c->dtype == TC_FLOAT32 ? FLT_EPSILON / 2 : DBL_EPSILON / 2;

    ck_assert_ptr_nonnull(c);
    ck_assert_int_eq(tc_numel(c), m * n);
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < n; j++) {
            long double sum = 0, size = 0;
            double got = testing_element(c, i * n + j), err;
            for (int64_t p = 0; p < k; p++) {
                sum += (long double)a[i * k + p] * b[p * n + j];
                size += fabsl((long double)a[i * k + p] * b[p * n + j]);
            }
            err = fabs(got - (double)sum);
            if (!(err <= (double)(k + 2) * unit * (double)size))
                ck_abort_msg("%s: element (%lld, %lld) is %.17g, the triple loop gives "
                             "%.17Lg (error %.3g, bound %.3g)", what, (long long)i,
                             (long long)j, got, sum, err,
                             (double)(k + 2) * unit * (double)size);
        }
}

/* a (m, k) @ b (k, n) through tc_matmul, checked against the triple loop. */
static void mm_check_product(const char *what, const tc_tensor *a, const tc_tensor *b)
{
    int64_t m = a->sizes[0], k = a->sizes[1], n = b->sizes[1];
    double *av = mm_values(a), *bv = mm_values(b);
    tc_tensor *c = tc_matmul(a, b);

    ck_assert_msg(c != NULL, "%s: %s", what, tc_error());
    ck_assert_int_eq(c->dtype, a->dtype);
    ASSERT_SIZES(c, m, n);
    mm_expect_close(what, av, bv, c, m, k, n);
    tc_release(c);
    free(av);
    free(bv);
}

/* The capabilities this CPU has, DEFAULT first. */
static int mm_capabilities(tc_cpu_capability caps[3])
{
    int n = 0;

    caps[n++] = TC_CPU_DEFAULT;
    if (tc_cpu_capability_supported(TC_CPU_AVX2))
        caps[n++] = TC_CPU_AVX2;
    if (tc_cpu_capability_supported(TC_CPU_AVX512))
        caps[n++] = TC_CPU_AVX512;
    return n;
}

/* Each test runs between these: the capability in use is restored. */
static tc_cpu_capability mm_saved_capability;
static void mm_save_capability(void) { mm_saved_capability = tc_cpu_capability_get(); }
static void mm_restore_capability(void)
{
    ck_assert(tc_cpu_capability_set(mm_saved_capability));
}

static const int64_t mm_shapes[][3] = {    /* m, k, n */
    { 1, 1, 1 },    { 7, 7, 7 },    { 33, 33, 33 }, { 65, 65, 65 }, { 127, 127, 127 },
    { 33, 65, 7 },  { 1, 65, 33 },  { 65, 33, 1 },  { 7, 1, 65 },   { 2, 127, 1 },
};

static void mm_shapes_under_each_capability(tc_dtype dtype)
{
    tc_cpu_capability caps[3];
    int ncaps = mm_capabilities(caps);
    char what[160];

    for (int c = 0; c < ncaps; c++) {
        ck_assert(tc_cpu_capability_set(caps[c]));
        for (size_t s = 0; s < sizeof mm_shapes / sizeof mm_shapes[0]; s++) {
            const int64_t *sh = mm_shapes[s];
            snprintf(what, sizeof what, "%s (%lld, %lld) @ (%lld, %lld), %s",
                     tc_dtype_name(dtype), (long long)sh[0], (long long)sh[1],
                     (long long)sh[1], (long long)sh[2], tc_cpu_capability_name(caps[c]));
            mm_check_product(what, mm_operand(sh[0], sh[1], dtype, MM_CONTIGUOUS),
                             mm_operand(sh[1], sh[2], dtype, MM_CONTIGUOUS));
            testing_release_kept();
        }
    }
}

START_TEST(test_matmul_odd_shapes_float32)
{
    mm_shapes_under_each_capability(TC_FLOAT32);
}
END_TEST

START_TEST(test_matmul_odd_shapes_float64)
{
    mm_shapes_under_each_capability(TC_FLOAT64);
}
END_TEST

/* Every pair of layouts (contiguous, transposed, sliced) of a and b, both
   types, every capability: the packing reads any strides. */
START_TEST(test_matmul_transposed_and_sliced_operands)
{
    static const int64_t shapes[][3] = { { 33, 65, 7 }, { 127, 127, 127 } };
    static const tc_dtype dtypes[] = { TC_FLOAT32, TC_FLOAT64 };
    tc_cpu_capability caps[3];
    int ncaps = mm_capabilities(caps);
    char what[200];

    for (int c = 0; c < ncaps; c++) {
        ck_assert(tc_cpu_capability_set(caps[c]));
        for (int d = 0; d < 2; d++)
            for (int s = 0; s < 2; s++)
                for (int la = 0; la < MM_LAYOUTS; la++)
                    for (int lb = 0; lb < MM_LAYOUTS; lb++) {
                        const int64_t *sh = shapes[s];
                        snprintf(what, sizeof what, "%s %s (%lld, %lld) @ %s (%lld, %lld), %s",
                                 tc_dtype_name(dtypes[d]), mm_layout_name[la],
                                 (long long)sh[0], (long long)sh[1], mm_layout_name[lb],
                                 (long long)sh[1], (long long)sh[2],
                                 tc_cpu_capability_name(caps[c]));
                        mm_check_product(what, mm_operand(sh[0], sh[1], dtypes[d], la),
                                         mm_operand(sh[1], sh[2], dtypes[d], lb));
                        testing_release_kept();
                    }
    }
}
END_TEST

/* Shapes that cross the cache blocks of every kernel: k beyond kc (256 or
   128: several block sums per element), m beyond mc (144, 72, 128, 336,
   168), n beyond nc (4080, 2040, 4096). */
START_TEST(test_matmul_across_cache_blocks)
{
    static const int64_t shapes[][3] = { { 20, 600, 30 }, { 350, 40, 50 }, { 3, 5, 4200 } };
    static const tc_dtype dtypes[] = { TC_FLOAT32, TC_FLOAT64 };
    tc_cpu_capability caps[3];
    int ncaps = mm_capabilities(caps);
    char what[160];

    for (int c = 0; c < ncaps; c++) {
        ck_assert(tc_cpu_capability_set(caps[c]));
        for (int d = 0; d < 2; d++)
            for (int s = 0; s < 3; s++) {
                const int64_t *sh = shapes[s];
                snprintf(what, sizeof what, "%s (%lld, %lld) @ (%lld, %lld), %s",
                         tc_dtype_name(dtypes[d]), (long long)sh[0], (long long)sh[1],
                         (long long)sh[1], (long long)sh[2], tc_cpu_capability_name(caps[c]));
                mm_check_product(what, mm_operand(sh[0], sh[1], dtypes[d], MM_CONTIGUOUS),
                                 mm_operand(sh[1], sh[2], dtypes[d], MM_TRANSPOSED));
                testing_release_kept();
            }
    }
}
END_TEST

/* The kernel each capability runs: the tile its registers allow. */
START_TEST(test_matmul_kernel_of_each_capability)
{
    tc_cpu_capability caps[3];
    int ncaps = mm_capabilities(caps);

    for (int c = 0; c < ncaps; c++) {
        const char *want32 = caps[c] == TC_CPU_AVX512 ? "AVX512 14x32"
                             : caps[c] == TC_CPU_AVX2 ? "AVX2 6x16" : "DEFAULT 4x4";
        const char *want64 = caps[c] == TC_CPU_AVX512 ? "AVX512 14x16"
                             : caps[c] == TC_CPU_AVX2 ? "AVX2 6x8" : "DEFAULT 4x4";
        ck_assert(tc_cpu_capability_set(caps[c]));
        ck_assert_str_eq(tc_gemm_kernel_for(TC_FLOAT32)->name, want32);
        ck_assert_str_eq(tc_gemm_kernel_for(TC_FLOAT64)->name, want64);
    }
}
END_TEST

/* Empty products: an empty k gives zeros, an empty m or n an empty result. */
START_TEST(test_matmul_empty)
{
    tc_tensor *c = K(tc_matmul(K(tc_ones(TC_SHAPE(2, 0), TC_FLOAT32)),
                               K(tc_ones(TC_SHAPE(0, 3), TC_FLOAT32))));

    testing_expect_tensor(__LINE__, "(2, 0) @ (0, 3)", c, TC_FLOAT32, TC_SHAPE(2, 3),
                          (const double[]){ 0, 0, 0, 0, 0, 0 }, TESTING_TOL(0, 0));
    c = K(tc_matmul(K(tc_ones(TC_SHAPE(0, 4), TC_FLOAT64)),
                    K(tc_ones(TC_SHAPE(4, 3), TC_FLOAT64))));
    ck_assert_ptr_nonnull(c);
    ASSERT_SIZES(c, 0, 3);
    c = K(tc_matmul(K(tc_ones(TC_SHAPE(2, 0, 5), TC_FLOAT64)),
                    K(tc_ones(TC_SHAPE(2, 5, 3), TC_FLOAT64))));
    ck_assert_ptr_nonnull(c);
    ASSERT_SIZES(c, 2, 0, 3);
}
END_TEST

/* c[s] holds a[s] @ b[s] for each s of a 3-D c. */
static void mm_expect_batch(const char *what, const tc_tensor *a, const tc_tensor *b,
                            const tc_tensor *c)
{
    char slice[160];

    ck_assert_msg(c != NULL, "%s: %s", what, tc_error());
    for (int64_t s = 0; s < c->sizes[0]; s++) {
        tc_tensor *as = tc_select(a, 0, s), *bs = tc_select(b, 0, s);
        tc_tensor *cs = tc_select(c, 0, s);
        double *av = mm_values(as), *bv = mm_values(bs);
        snprintf(slice, sizeof slice, "%s, item %lld", what, (long long)s);
        mm_expect_close(slice, av, bv, cs, as->sizes[0], as->sizes[1], bs->sizes[1]);
        free(av);
        free(bv);
        tc_release(as);
        tc_release(bs);
        tc_release(cs);
    }
}

/* a[s] @ b[s] for 3-D operands, one transposed in its matrix dims; the
   result is contiguous (batch, m, n) as PyTorch's. */
START_TEST(test_bmm_against_the_triple_loop)
{
    static const tc_dtype dtypes[] = { TC_FLOAT32, TC_FLOAT64 };

    for (int d = 0; d < 2; d++) {
        tc_tensor *a = K(tc_transpose(mm_random_tensor(TC_SHAPE(3, 33, 7), dtypes[d]), 1, 2));
        tc_tensor *b = mm_random_tensor(TC_SHAPE(3, 33, 65), dtypes[d]);
        tc_tensor *c = K(tc_matmul(a, b));

        ck_assert_ptr_nonnull(c);
        ASSERT_SIZES(c, 3, 7, 65);
        ASSERT_STRIDES(c, 7 * 65, 65, 1);
        mm_expect_batch(tc_dtype_name(dtypes[d]), a, b, c);
        testing_release_kept();
    }
}
END_TEST

/* A dimension of size 1 is never walked, so a view may give it any
   stride, INT64_MAX among them, as PyTorch allows. The product must not
   scale such a stride to bytes: it did, and overflowed (a fuzzer's find,
   in tests/fuzz/corpus/ops/ca3899c5...). Batch, row and column dims of
   size 1, in a and in b. */
START_TEST(test_bmm_size_one_dims_of_any_stride)
{
    static const tc_dtype dtypes[] = { TC_FLOAT32, TC_FLOAT64 };

    for (int d = 0; d < 2; d++) {
        tc_tensor *a12 = mm_random_tensor(TC_SHAPE(12), dtypes[d]);
        tc_tensor *b4 = mm_random_tensor(TC_SHAPE(4), dtypes[d]);
        tc_tensor *a8 = mm_random_tensor(TC_SHAPE(8), dtypes[d]);
        tc_tensor *b24 = mm_random_tensor(TC_SHAPE(2, 4, 3), dtypes[d]);
        /* (1, 3, 4) @ (1, 4, 1): the batch dims and b's column dim */
        tc_tensor *a = K(tc_as_strided(a12, TC_SHAPE(1, 3, 4), TC_SHAPE(INT64_MAX, 4, 1), 0));
        tc_tensor *b = K(tc_as_strided(b4, TC_SHAPE(1, 4, 1),
                                       TC_SHAPE(INT64_MAX, 1, INT64_MAX), 0));

        mm_expect_batch("(1, 3, 4) @ (1, 4, 1)", a, b, K(tc_matmul(a, b)));
        /* (2, 1, 4) @ (2, 4, 3): a's row dim */
        a = K(tc_as_strided(a8, TC_SHAPE(2, 1, 4), TC_SHAPE(4, INT64_MAX, 1), 0));
        mm_expect_batch("(2, 1, 4) @ (2, 4, 3)", a, b24, K(tc_matmul(a, b24)));
        /* (1, 4) @ (4, 3): mm views a as a batch of one, whose stride,
           unsqueeze's size times stride, is INT64_MAX too */
        a = K(tc_as_strided(a8, TC_SHAPE(1, 4), TC_SHAPE(INT64_MAX, 1), 0));
        b = K(tc_select(b24, 0, 1));
        {
            double *av = mm_values(a), *bv = mm_values(b);
            mm_expect_close("(1, 4) @ (4, 3)", av, bv, K(tc_matmul(a, b)), 1, 4, 3);
            free(av);
            free(bv);
        }
        testing_release_kept();
    }
}
END_TEST

/* Broadcast batch dimensions reach the product as stride-0 views:
   (4, 1, 5, 6) @ (3, 6, 2) is (4, 3, 5, 2), item (i, j) = a[i, 0] @ b[j]. */
START_TEST(test_matmul_broadcast_batch)
{
    tc_tensor *a = mm_random_tensor(TC_SHAPE(4, 1, 5, 6), TC_FLOAT64);
    tc_tensor *b = mm_random_tensor(TC_SHAPE(3, 6, 2), TC_FLOAT64);
    tc_tensor *c = K(tc_matmul(a, b));
    char what[64];

    ck_assert_ptr_nonnull(c);
    ASSERT_SIZES(c, 4, 3, 5, 2);
    for (int64_t i = 0; i < 4; i++)
        for (int64_t j = 0; j < 3; j++) {
            tc_tensor *ai = K(tc_select(K(tc_select(a, 0, i)), 0, 0));
            tc_tensor *bj = K(tc_select(b, 0, j)), *cij = K(tc_select(K(tc_select(c, 0, i)), 0, j));
            double *av = mm_values(ai), *bv = mm_values(bj);
            snprintf(what, sizeof what, "item (%lld, %lld)", (long long)i, (long long)j);
            mm_expect_close(what, av, bv, cij, 5, 6, 2);
            free(av);
            free(bv);
        }
}
END_TEST

/* The same result bits for 1 and 2 threads: products large enough to be
   split (tiles of rows; of columns when m is small), and a batch of small
   products split over the batch. */
START_TEST(test_matmul_same_bits_for_1_and_2_threads)
{
    static const int64_t shapes[][4] = {    /* batch (0: 2-D), m, k, n */
        { 0, 127, 127, 127 }, { 0, 300, 600, 130 }, { 0, 5, 700, 900 }, { 1500, 8, 8, 8 },
    };
    static const tc_dtype dtypes[] = { TC_FLOAT32, TC_FLOAT64 };
    int saved = tc_get_num_threads();

    for (int d = 0; d < 2; d++)
        for (int s = 0; s < 4; s++) {
            const int64_t *sh = shapes[s];
            tc_shape as = sh[0] ? TC_SHAPE(sh[0], sh[1], sh[2]) : TC_SHAPE(sh[1], sh[2]);
            tc_shape bs = sh[0] ? TC_SHAPE(sh[0], sh[2], sh[3]) : TC_SHAPE(sh[2], sh[3]);
            tc_tensor *a = mm_random_tensor(as, dtypes[d]), *b = mm_random_tensor(bs, dtypes[d]);
            tc_tensor *one, *two;

            tc_set_num_threads(1);
            one = K(tc_matmul(a, b));
            tc_set_num_threads(2);
            two = K(tc_matmul(a, b));
            tc_set_num_threads(saved);
            ck_assert_ptr_nonnull(one);
            ck_assert_ptr_nonnull(two);
            ck_assert_msg(memcmp(tc_data_ptr(one), tc_data_ptr(two),
                                 (size_t)tc_numel(one) * tc_itemsize(dtypes[d])) == 0,
                          "%s shape %d: 1 and 2 threads differ", tc_dtype_name(dtypes[d]), s);
            if (s == 3)
                mm_expect_batch("1500 products of (8, 8)", a, b, two);
            testing_release_kept();
        }
}
END_TEST

/* A random (rows, cols) sparse matrix of nnz entries with duplicates (every
   fifth entry repeats an earlier position), uncoalesced, kept in *s. */
static tc_sparse *mm_random_sparse(int64_t rows, int64_t cols, int64_t nnz, tc_dtype dtype)
{
    tc_tensor *indices = K(tc_empty(TC_SHAPE(2, nnz), TC_INT64));
    tc_tensor *values = mm_random_tensor(TC_SHAPE(nnz), dtype);
    int64_t *ind = tc_data_ptr(indices);
    tc_sparse *s;

    for (int64_t e = 0; e < nnz; e++) {
        bool again = e % 5 == 4;
        int64_t from = e / 2;
        ind[e] = again ? ind[from] : (int64_t)((mm_random() + 1) / 2 * (double)rows);
        ind[nnz + e] = again ? ind[nnz + from] : (int64_t)((mm_random() + 1) / 2 * (double)cols);
    }
    s = tc_sparse_coo_tensor(indices, values, &TC_SHAPE(rows, cols));
    ck_assert_msg(s != NULL, "%s", tc_error());
    return s;
}

/* Chapter 4's loop, written here: for each entry in stored order, out row
   i += v * dense row p, as a multiply then an add. */
static void mm_sparse_loop(const tc_sparse *s, const tc_tensor *dense, double *out)
{
    int64_t nnz = tc_sparse_nnz(s), n = dense->sizes[1];
    const int64_t *ind = tc_data_ptr(s->indices);

    for (int64_t e = 0; e < nnz; e++)
        for (int64_t j = 0; j < n; j++) {
            int64_t i = ind[e], p = ind[nnz + e];
            if (dense->dtype == TC_FLOAT32) {
                float product = (float)testing_element(s->values, e) *
                                (float)testing_element(dense, p * n + j);
                out[i * n + j] = (float)((float)out[i * n + j] + product);
            } else {
                double product = testing_element(s->values, e) *
                                 testing_element(dense, p * n + j);
                out[i * n + j] = out[i * n + j] + product;
            }
        }
}

/* sparse.mm, uncoalesced and coalesced, both types, every capability:
   within the bound of the dense product, and bit for bit chapter 4's loop
   (a multiply, then an add, in the entries' order). */
START_TEST(test_sparse_mm_vectorized)
{
    static const tc_dtype dtypes[] = { TC_FLOAT32, TC_FLOAT64 };
    tc_cpu_capability caps[3];
    int ncaps = mm_capabilities(caps);

    for (int c = 0; c < ncaps; c++) {
        ck_assert(tc_cpu_capability_set(caps[c]));
        for (int d = 0; d < 2; d++)
            for (int coalesced = 0; coalesced < 2; coalesced++) {
                tc_sparse *u = mm_random_sparse(50, 40, 300, dtypes[d]);
                tc_sparse *s = coalesced ? tc_sparse_coalesce(u) : tc_sparse_retain(u);
                tc_tensor *dense = mm_random_tensor(TC_SHAPE(40, 19), dtypes[d]);
                tc_tensor *p = K(tc_sparse_mm(s, dense));
                tc_tensor *sd = K(tc_sparse_to_dense(s));
                double *sv = mm_values(sd), *dv = mm_values(dense);
                double *want = calloc(50 * 19, sizeof *want);

                ck_assert_msg(p != NULL, "%s", tc_error());
                ASSERT_SIZES(p, 50, 19);
                mm_expect_close("sparse.mm against the dense product", sv, dv, p, 50, 40, 19);
                mm_sparse_loop(s, dense, want);
                for (int64_t k = 0; k < 50 * 19; k++)
                    ck_assert_msg(testing_element(p, k) == want[k],
                                  "%s, %s: element %lld is %.17g, chapter 4's loop %.17g",
                                  tc_dtype_name(dtypes[d]), tc_cpu_capability_name(caps[c]),
                                  (long long)k, testing_element(p, k), want[k]);
                free(sv);
                free(dv);
                free(want);
                tc_sparse_release(s);
                tc_sparse_release(u);
                testing_release_kept();
            }
    }
}
END_TEST

/* sparse.mm splits the result's rows over the threads: the same bits. */
START_TEST(test_sparse_mm_same_bits_for_1_and_2_threads)
{
    tc_sparse *s = mm_random_sparse(2000, 300, 20000, TC_FLOAT32);
    tc_tensor *dense = mm_random_tensor(TC_SHAPE(300, 37), TC_FLOAT32), *one, *two;
    int saved = tc_get_num_threads();

    tc_set_num_threads(1);
    one = K(tc_sparse_mm(s, dense));
    tc_set_num_threads(2);
    two = K(tc_sparse_mm(s, dense));
    tc_set_num_threads(saved);
    ck_assert_ptr_nonnull(one);
    ck_assert_ptr_nonnull(two);
    ck_assert(memcmp(tc_data_ptr(one), tc_data_ptr(two), 2000 * 37 * sizeof(float)) == 0);
    tc_sparse_release(s);
}
END_TEST

static void ch07_add_matmul(Suite *s)
{
    TCase *tc = testing_tcase("blocked matmul", mm_save_capability, mm_restore_capability);

    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_matmul_odd_shapes_float32);
    tcase_add_test(tc, test_matmul_odd_shapes_float64);
    tcase_add_test(tc, test_matmul_transposed_and_sliced_operands);
    tcase_add_test(tc, test_matmul_across_cache_blocks);
    tcase_add_test(tc, test_matmul_kernel_of_each_capability);
    tcase_add_test(tc, test_matmul_empty);
    tcase_add_test(tc, test_bmm_against_the_triple_loop);
    tcase_add_test(tc, test_bmm_size_one_dims_of_any_stride);
    tcase_add_test(tc, test_matmul_broadcast_batch);
    tcase_add_test(tc, test_matmul_same_bits_for_1_and_2_threads);
    tcase_add_test(tc, test_sparse_mm_vectorized);
    tcase_add_test(tc, test_sparse_mm_same_bits_for_1_and_2_threads);
    suite_add_tcase(s, tc);
}
