/* check_ch07_reduce.h: the reduce helper's tests of chapter 7 (included by
   check_ch07.c): sum and mean of float32/float64 through the cascade, and
   same-dtype copies through rows and tiles.

   References are computed here, from the storage and the view's own sizes
   and strides: sums in long double, copies element by element. Tolerances
   are relative to the sum of the magnitudes, S = sum |x_i|:
     float32: |got - exact| <= 2^-20 S (16 eps; the cascade's bound is a few
              eps times its depth of about 3 levels + 16 lanes + pieces);
     float64: |got - exact| <= 2^-49 S (the same 16 eps).
   A plain left-to-right float32 loop misses them: it leaves 2^24 + 8 ones at
   2^24, and sums 1e7 copies of 0.1f to 1087937 instead of 1000000.015. */

/* ---------------------------------------------------------------- helpers */

/* A pseudo-random value in [-1, 1) from a 32-bit LCG state. */
static double red_random(uint32_t *state)
{
    *state = *state * 1664525u + 1013904223u;
    return (double)(*state >> 8) / (double)(1u << 23) - 1.0;
}

/* A new contiguous tensor of shape and dtype (float32, float64) with random
   values; kept (K). */
static tc_tensor *red_random_tensor(tc_shape shape, tc_dtype dtype, uint32_t seed)
{
    tc_tensor *t = K(tc_empty(shape, dtype));
    int64_t n = testing_numel(shape);

    ck_assert_ptr_nonnull(t);
    for (int64_t i = 0; i < n; i++) {
        double v = red_random(&seed);
        if (dtype == TC_FLOAT32)
            ((float *)t->storage->data)[i] = (float)v;
        else
            ((double *)t->storage->data)[i] = v;
    }
    return t;
}

/* x's element at index, read from the storage with x's strides. */
static long double red_at(const tc_tensor *x, const int64_t *index)
{
    int64_t at = x->storage_offset;

    for (int64_t d = 0; d < x->dim; d++)
        at += index[d] * x->strides[d];
    if (x->dtype == TC_FLOAT32)
        return ((const float *)x->storage->data)[at];
    return ((const double *)x->storage->data)[at];
}

/* Advance a row-major index over sizes; false after the last. */
static bool red_next(int64_t dim, const int64_t *sizes, int64_t *index)
{
    for (int64_t d = dim - 1; d >= 0; d--) {
        if (++index[d] < sizes[d])
            return true;
        index[d] = 0;
    }
    return false;
}

/* Check got (x summed, or averaged, over the dims in mask) against sums in
   long double: exact values and magnitudes, per result element. */
static void red_check(int line, const tc_tensor *x, uint32_t mask, bool mean,
                      const tc_tensor *got)
{
    int64_t outputs = 1, count = 1, index[TC_MAX_DIMS] = { 0 };
    long double *sum, *mag;
    double rel = x->dtype == TC_FLOAT32 ? ldexp(1, -20) : ldexp(1, -49);

    ck_assert_msg(got != NULL, "line %d: no result (%s)", line, tc_error());
    for (int64_t d = 0; d < x->dim; d++)
        if (mask & (1u << d))
            count *= x->sizes[d];
        else
            outputs *= x->sizes[d];
    ck_assert_int_eq(tc_numel(got), outputs);
    sum = calloc((size_t)outputs + 1, sizeof *sum);
    mag = calloc((size_t)outputs + 1, sizeof *mag);
    ck_assert(sum != NULL && mag != NULL);
    if (count > 0 && outputs > 0)
        do {
            int64_t o = 0;
            long double v = red_at(x, index);
            for (int64_t d = 0; d < x->dim; d++)
                if (!(mask & (1u << d)))
                    o = o * x->sizes[d] + index[d];
            sum[o] += v;
            mag[o] += fabsl(v);
        } while (red_next(x->dim, x->sizes, index));
    for (int64_t o = 0; o < outputs; o++) {    /* one assertion: Check writes per call */
        double g = testing_element(got, o);
        long double want = mean ? sum[o] / count : sum[o];
        long double bound = rel * (mean ? mag[o] / count : mag[o]);
        if (mean && count == 0 ? !isnan(g) : !(fabsl(g - want) <= bound))
            ck_assert_msg(0, "line %d: element %lld: got %.17g, want %.17Lg within %.3Lg",
                          line, (long long)o, g, want, bound);
    }
    free(sum);
    free(mag);
}

/* Every reduction of x over a non-empty set of dims, keepdim or not, sum
   and mean, and the all-dims forms. */
static void red_check_all_masks(int line, const tc_tensor *x)
{
    for (uint32_t mask = 1; mask < (1u << x->dim); mask++)
        for (int keep = 0; keep < 2; keep++) {
            tc_shape dims = { .dim = 0 };
            for (int64_t d = 0; d < x->dim; d++)
                if (mask & (1u << d))
                    dims.sizes[dims.dim++] = d;
            red_check(line, x, mask, false, K(tc_sum_dims(x, dims, keep)));
            red_check(line, x, mask, true, K(tc_mean_dims(x, dims, keep)));
        }
    red_check(line, x, (1u << x->dim) - 1, false, K(tc_sum(x)));
    red_check(line, x, (1u << x->dim) - 1, true, K(tc_mean(x)));
}

/* ------------------------------------------------------------------ sums */

/* (3, 70, 300): 63000 elements, more than one piece (32768) when all or
   the last two dims are summed; (3, 70) outputs of 300 when the last is. */
START_TEST(test_sum_contiguous)
{
    red_check_all_masks(__LINE__, red_random_tensor(TC_SHAPE(3, 70, 300), TC_FLOAT32, 1));
    red_check_all_masks(__LINE__, red_random_tensor(TC_SHAPE(3, 70, 300), TC_FLOAT64, 2));
    red_check_all_masks(__LINE__, red_random_tensor(TC_SHAPE(5, 17, 33), TC_FLOAT32, 3));
    /* rows of 47 = 2 blocks of 16 lanes and 15 columns one by one */
    red_check_all_masks(__LINE__, red_random_tensor(TC_SHAPE(2, 40, 47), TC_FLOAT64, 15));
}
END_TEST

/* Transposed: (3, 300, 70) with strides (21000, 1, 300): the reduced and
   the kept dims change places in memory. */
START_TEST(test_sum_transposed)
{
    for (int dt = 0; dt < 2; dt++) {
        tc_tensor *base = red_random_tensor(TC_SHAPE(3, 70, 300),
                                            dt ? TC_FLOAT64 : TC_FLOAT32, 4 + dt);
        tc_tensor *x = K(tc_transpose(base, 1, 2));
        ASSERT_STRIDES(x, 21000, 1, 300);
        red_check_all_masks(__LINE__, x);
        red_check_all_masks(__LINE__, K(tc_t(red_random_tensor(TC_SHAPE(129, 65),
                                                                dt ? TC_FLOAT64 : TC_FLOAT32,
                                                                6 + dt))));
    }
}
END_TEST

/* Permuted (the fastest dim in front) and sliced with steps (no dim of
   stride 1 at all). */
START_TEST(test_sum_permuted_and_sliced)
{
    for (int dt = 0; dt < 2; dt++) {
        tc_dtype dtype = dt ? TC_FLOAT64 : TC_FLOAT32;
        tc_tensor *p = K(tc_permute(red_random_tensor(TC_SHAPE(300, 3, 70), dtype, 8 + dt),
                                    TC_DIMS(2, 0, 1)));
        tc_tensor *base = red_random_tensor(TC_SHAPE(6, 70, 601), dtype, 10 + dt);
        tc_tensor *s = K(tc_slice(K(tc_slice(base, 0, 0, 6, 2)), 2, 1, 601, 2));

        ASSERT_SIZES(p, 70, 300, 3);
        ASSERT_STRIDES(p, 1, 210, 70);
        red_check_all_masks(__LINE__, p);
        ASSERT_SIZES(s, 3, 70, 300);
        ASSERT_STRIDES(s, 84140, 601, 2);
        red_check_all_masks(__LINE__, s);
    }
}
END_TEST

/* Expanded (stride 0): every reduced element is one of 70 values. */
START_TEST(test_sum_expanded)
{
    for (int dt = 0; dt < 2; dt++) {
        tc_tensor *col = red_random_tensor(TC_SHAPE(1, 70, 1), dt ? TC_FLOAT64 : TC_FLOAT32,
                                           12 + dt);
        tc_tensor *x = K(tc_expand(col, TC_SHAPE(3, 70, 300)));
        ASSERT_STRIDES(x, 0, 1, 0);
        red_check_all_masks(__LINE__, x);
    }
}
END_TEST

/* Shapes, keepdim and the reductions of nothing, as torch 1.13:
   torch.zeros(0).sum() -> tensor(0.), torch.zeros(0).mean() -> tensor(nan),
   torch.zeros(3, 0).sum(1) -> tensor([0., 0., 0.]),
   torch.zeros(0, 3).mean(0) -> tensor([nan, nan, nan]). */
START_TEST(test_sum_empty_and_keepdim)
{
    tc_tensor *e = K(tc_zeros(TC_SHAPE(0), TC_FLOAT32));
    tc_tensor *r = K(tc_zeros(TC_SHAPE(3, 0), TC_FLOAT64));
    tc_tensor *c = K(tc_zeros(TC_SHAPE(0, 3), TC_FLOAT32));
    tc_tensor *t;

    ck_assert_double_eq(testing_element(K(tc_sum(e)), 0), 0.0);
    ck_assert(isnan(testing_element(K(tc_mean(e)), 0)));
    t = K(tc_sum_dims(r, TC_DIMS(1), false));
    ASSERT_SIZES(t, 3);
    for (int64_t i = 0; i < 3; i++)
        ck_assert_double_eq(testing_element(t, i), 0.0);
    t = K(tc_sum_dims(r, TC_DIMS(1), true));
    ASSERT_SIZES(t, 3, 1);
    t = K(tc_mean_dims(c, TC_DIMS(0), false));
    ASSERT_SIZES(t, 3);
    for (int64_t i = 0; i < 3; i++)
        ck_assert(isnan(testing_element(t, i)));
    t = K(tc_sum_dims(c, TC_DIMS(1), true));    /* no result elements */
    ASSERT_SIZES(t, 0, 1);
    t = K(tc_sum_dims(red_random_tensor(TC_SHAPE(4, 5, 6), TC_FLOAT32, 14), TC_DIMS(0, 2),
                      true));
    ASSERT_SIZES(t, 1, 5, 1);
    ASSERT_STRIDES(t, 5, 1, 1);
}
END_TEST

/* The classic inputs against torch 1.13 (one thread; torch's own sum of
   0.1s changes with the thread count, ours does not):
   >>> torch.full((10**7,), 0.1).sum().item()        # 999999.4375 (2 threads: 999999.5625)
   >>> torch.ones(2**24 + 8).sum().item()            # 16777224.0
   >>> torch.arange(10**6, dtype=torch.float32).sum().item()   # 499999506432.0
   >>> x = torch.arange(10**6, dtype=torch.float32).view(1000, 1000)
   >>> x.sum(0)[999].item(), x.sum(1)[999].item()    # (500499008.0, 999499520.0)
   >>> torch.full((10**7,), 0.1, dtype=torch.float64).sum().item()   # 1000000.0000000008
   Neither rounds as a long double sum would, so each value is asserted
   within 2 ulp of the exact sum (worked out by hand: 1e7 float32 0.1s are
   1000000.0149011612, ulp 0.0625; 499999500000, ulp 32768; 500499000 and
   999499500, ulp 32 and 64), where torch is within 9.2, 0.2, 0.25 and 0.3
   ulp. Ours are exact where torch's are: 2^24 + 8 ones, and their mean. */
static void red_expect_ulps(int line, double got, double exact, double ulp)
{
    ck_assert_msg(fabs(got - exact) <= 2 * ulp, "line %d: %.17g is not within 2 ulp (%g) of "
                  "%.17g", line, got, ulp, exact);
}

START_TEST(test_sum_torch_values)
{
    tc_tensor *tenth = K(tc_full(TC_SHAPE(10000000), 0.1, TC_FLOAT32));
    tc_tensor *ones = K(tc_ones(TC_SHAPE((1 << 24) + 8), TC_FLOAT32));
    tc_tensor *ramp = K(tc_arange_double(0, 1e6, 1));
    tc_tensor *grid = K(tc_view(ramp, TC_SHAPE(1000, 1000)));
    double s = testing_element(K(tc_sum(tenth)), 0);

    ck_assert_int_eq(ramp->dtype, TC_FLOAT32);
    red_expect_ulps(__LINE__, s, 1000000.0149011612, 0.0625);
    ck_assert_double_eq(testing_element(K(tc_sum(ones)), 0), 16777224.0);
    ck_assert_double_eq(testing_element(K(tc_mean(ones)), 0), 1.0);
    red_expect_ulps(__LINE__, testing_element(K(tc_sum(ramp)), 0), 499999500000.0, 32768);
    red_expect_ulps(__LINE__, testing_element(K(tc_sum_dims(grid, TC_DIMS(0), false)), 999),
                    500499000.0, 32);
    red_expect_ulps(__LINE__, testing_element(K(tc_sum_dims(grid, TC_DIMS(1), false)), 999),
                    999499500.0, 64);
    red_expect_ulps(__LINE__,
                    testing_element(K(tc_sum_dims(K(tc_t(grid)), TC_DIMS(1), false)), 999),
                    500499000.0, 32);
    s = testing_element(K(tc_sum(K(tc_full(TC_SHAPE(10000000), 0.1, TC_FLOAT64)))), 0);
    ck_assert_msg(fabs(s - 1000000.0000000008) <= 1e-9, "0.1 x 1e7 (float64): %.17g", s);
}
END_TEST

/* sum and mean of x over dims on n threads, as a new tensor (kept). */
static tc_tensor *red_on_threads(int n, const tc_tensor *x, tc_shape dims, bool all, bool mean)
{
    tc_tensor *r;

    tc_set_num_threads(n);
    if (all)
        r = mean ? tc_mean(x) : tc_sum(x);
    else
        r = mean ? tc_mean_dims(x, dims, false) : tc_sum_dims(x, dims, false);
    ck_assert_msg(r != NULL, "%s", tc_error());
    return K(r);
}

/* The partition into pieces and items depends on the sizes and the grain,
   never on the thread count, and the pieces are combined in one order:
   the results of 1 and 2 threads are equal bit for bit. Every input here is
   larger than the grain, so that tc_parallel_for splits it on 2 threads. */
START_TEST(test_sum_same_on_any_thread_count)
{
    int threads = tc_get_num_threads();

    for (int dt = 0; dt < 2; dt++) {
        tc_dtype dtype = dt ? TC_FLOAT64 : TC_FLOAT32;
        size_t item = tc_itemsize(dtype);
        tc_tensor *line = red_random_tensor(TC_SHAPE(1000123), dtype, 20 + dt);
        tc_tensor *wide = red_random_tensor(TC_SHAPE(64, 40000), dtype, 22 + dt);
        const tc_tensor *inputs[] = { line, wide, wide, K(tc_t(wide)), K(tc_t(wide)),
                                      K(tc_slice(wide, 1, 0, 40000, 3)) };
        const int64_t dims[] = { 0, 1, 0, 1, 0, 1 };

        for (int i = 0; i < 6; i++)
            for (int all = 0; all < 2; all++)
                for (int mean = 0; mean < 2; mean++) {
                    tc_tensor *one = red_on_threads(1, inputs[i], TC_DIMS(dims[i]), all, mean);
                    tc_tensor *two = red_on_threads(2, inputs[i], TC_DIMS(dims[i]), all, mean);
                    ck_assert_int_eq(tc_numel(one), tc_numel(two));
                    ck_assert_msg(memcmp(tc_data_ptr(one), tc_data_ptr(two),
                                         (size_t)tc_numel(one) * item) == 0,
                                  "input %d all %d mean %d: 1 and 2 threads differ", i, all,
                                  mean);
                }
        testing_release_kept();
    }
    tc_set_num_threads(threads);
}
END_TEST

/* ------------------------------------------------- the loss's rows */

/* A tensor of the given shape and floating dtype holding sin(0.37 i) * 4
   in row-major order. */
static tc_tensor *ce_logits(tc_shape shape, tc_dtype dtype)
{
    tc_tensor *x = K(tc_empty(shape, dtype));
    int64_t n = tc_numel(x);

    for (int64_t i = 0; i < n; i++)
        if (dtype == TC_FLOAT32)
            ((float *)tc_data_ptr(x))[i] = (float)(sin(0.37 * (double)i) * 4);
        else
            ((double *)tc_data_ptr(x))[i] = sin(0.37 * (double)i) * 4;
    return x;
}

/* int64 class targets of the given shape, (7 i) mod classes, every ninth
   -100 (ignore_index) when `ignored`. */
static tc_tensor *ce_targets(tc_shape shape, int64_t classes, bool ignored)
{
    tc_tensor *t = K(tc_empty(shape, TC_INT64));

    for (int64_t i = 0; i < tc_numel(t); i++)
        ((int64_t *)tc_data_ptr(t))[i] = ignored && i % 9 == 4 ? -100 : 7 * i % classes;
    return t;
}

/* The fused loss's forward and backward (grad_output 0.75 everywhere) on
   `threads` threads: got[0] the loss, got[1] the stats, got[2] the input's
   gradient, got[3] the one the forward computed for a grad_output of 1,
   kept until the test ends. */
static void ce_on_threads(int threads, const tc_tensor *x, const tc_tensor *t,
                          const tc_tensor *w, tc_reduction reduction, double smoothing,
                          tc_tensor *got[4])
{
    tc_set_num_threads(threads);
    ck_assert_msg(tc_cross_entropy_fused_forward(x, t, w, reduction, -100, smoothing, &got[0],
                                                 &got[1], &got[3]) == 0, "%s", tc_error());
    (void)K(got[0]);
    (void)K(got[1]);
    (void)K(got[3]);
    tc_tensor *go = K(tc_full(tc_shape_of(got[0]), 0.75, got[0]->dtype));
    ck_assert_msg(tc_cross_entropy_fused_backward(go, x, t, w, reduction, -100, smoothing,
                                                  got[1], &got[2], NULL, NULL) == 0,
                  "%s", tc_error());
    (void)K(got[2]);
}

/* Chapter 6's fused cross-entropy, whose rows chapter 7 shares between
   threads (class targets, contiguous class dim) or not (a strided class
   dim, probability targets): the loss, the statistics and the gradient
   are the same bits on 1 and 2 threads. The shapes are above the grain,
   GRAIN_SIZE / (16 C) rows: 40 rows for C = 50, 2 for C = 1000. For
   (64, 1000) float32 the loss and two rows of the gradient are also
   checked against the formulas, computed here in long double:
   loss = mean over rows of (m + log sum_j e^(x_j - m) - x_y), gradient
   (softmax_j - [j = y]) * 0.75 / 64. */
START_TEST(test_fused_loss_same_on_any_thread_count)
{
    int saved = tc_get_num_threads();
    tc_tensor *w50 = ce_logits(TC_SHAPE(50), TC_FLOAT32), *probs;
    struct {
        const tc_tensor *x, *t, *w;
        tc_reduction reduction;
        double smoothing;
    } cases[6];

    for (int64_t j = 0; j < 50; j++)    /* positive weights */
        ((float *)tc_data_ptr(w50))[j] = 1.5f + ((float *)tc_data_ptr(w50))[j] / 8;
    probs = K(tc_softmax(ce_logits(TC_SHAPE(100, 40), TC_FLOAT32), 1));
    ck_assert_ptr_nonnull(probs);
    cases[0].x = ce_logits(TC_SHAPE(300, 50), TC_FLOAT32);
    cases[0].t = ce_targets(TC_SHAPE(300), 50, true);
    cases[0].w = w50, cases[0].reduction = TC_REDUCTION_MEAN, cases[0].smoothing = 0.1;
    cases[1].x = ce_logits(TC_SHAPE(64, 1000), TC_FLOAT32);
    cases[1].t = ce_targets(TC_SHAPE(64), 1000, false);
    cases[1].w = NULL, cases[1].reduction = TC_REDUCTION_MEAN, cases[1].smoothing = 0;
    cases[2].x = ce_logits(TC_SHAPE(64, 1000), TC_FLOAT64);
    cases[2].t = cases[1].t;
    cases[2].w = NULL, cases[2].reduction = TC_REDUCTION_NONE, cases[2].smoothing = 0;
    cases[3].x = ce_logits(TC_SHAPE(300, 50), TC_FLOAT32);
    cases[3].t = ce_targets(TC_SHAPE(300), 50, true);
    cases[3].w = NULL, cases[3].reduction = TC_REDUCTION_SUM, cases[3].smoothing = 0;
    cases[4].x = ce_logits(TC_SHAPE(6, 40, 30), TC_FLOAT32);      /* strided rows */
    cases[4].t = ce_targets(TC_SHAPE(6, 30), 40, true);
    cases[4].w = NULL, cases[4].reduction = TC_REDUCTION_MEAN, cases[4].smoothing = 0.2;
    cases[5].x = ce_logits(TC_SHAPE(100, 40), TC_FLOAT32);        /* probabilities */
    cases[5].t = probs;
    cases[5].w = NULL, cases[5].reduction = TC_REDUCTION_MEAN, cases[5].smoothing = 0;
    for (int c = 0; c < 6; c++) {
        tc_tensor *one[4], *two[4];

        ce_on_threads(1, cases[c].x, cases[c].t, cases[c].w, cases[c].reduction,
                      cases[c].smoothing, one);
        ce_on_threads(2, cases[c].x, cases[c].t, cases[c].w, cases[c].reduction,
                      cases[c].smoothing, two);
        for (int k = 0; k < 4; k++) {
            size_t bytes = (size_t)tc_numel(one[k]) * tc_itemsize(one[k]->dtype);
            ck_assert_int_eq(tc_numel(one[k]), tc_numel(two[k]));
            ck_assert_msg(memcmp(tc_data_ptr(one[k]), tc_data_ptr(two[k]), bytes) == 0,
                          "case %d, result %d: 1 and 2 threads differ", c, k);
        }
        if (c == 1) {    /* against the formulas */
            const float *x = tc_data_ptr(cases[1].x), *grad = tc_data_ptr(two[2]);
            const int64_t *y = tc_data_ptr(cases[1].t);
            long double total = 0;
            for (int64_t r = 0; r < 64; r++) {
                const float *row = x + r * 1000;
                long double m = row[0], sum = 0;
                for (int64_t j = 1; j < 1000; j++)
                    m = row[j] > m ? row[j] : m;
                for (int64_t j = 0; j < 1000; j++)
                    sum += expl(row[j] - m);
                total += m + logl(sum) - row[y[r]];
                for (int64_t j = 0; r < 2 && j < 1000; j++) {
                    long double want = (expl(row[j] - m) / sum - (j == y[r])) * 0.75L / 64;
                    ck_assert_msg(fabsl(grad[r * 1000 + j] - want) <= 1e-7L,
                                  "row %lld class %lld: %g, want %Lg", (long long)r,
                                  (long long)j, (double)grad[r * 1000 + j], want);
                }
            }
            double loss = tc_load(one[0], 0), want = (double)(total / 64);
            ck_assert_msg(fabs(loss - want) <= 1e-5 * fabs(want), "loss %.9g, want %.9g",
                          loss, want);
        }
    }
    tc_set_num_threads(saved);
}
END_TEST

/* ---------------------------------------------------------------- copies */

/* Assert that y (a new tensor of x's shape and dtype) holds x's elements,
   byte for byte, in row-major order: the expected bytes are read from x's
   storage with x's strides. */
static void copy_check(int line, const tc_tensor *x, const tc_tensor *y)
{
    size_t item = tc_itemsize(x->dtype);
    int64_t n = tc_numel(x), index[TC_MAX_DIMS] = { 0 }, k = 0;
    char *want = malloc((size_t)n * item + 1), *got = malloc((size_t)n * item + 1);

    ck_assert_msg(y != NULL, "line %d: no copy (%s)", line, tc_error());
    ck_assert(want != NULL && got != NULL);
    ck_assert_int_eq(y->dim, x->dim);
    ck_assert_int_eq(y->dtype, x->dtype);
    ck_assert(memcmp(y->sizes, x->sizes, (size_t)x->dim * sizeof x->sizes[0]) == 0);
    if (n > 0)
        do {
            int64_t from = x->storage_offset, to = y->storage_offset;
            for (int64_t d = 0; d < x->dim; d++) {
                from += index[d] * x->strides[d];
                to += index[d] * y->strides[d];
            }
            memcpy(want + k * (int64_t)item, (char *)x->storage->data + from * (int64_t)item,
                   item);
            memcpy(got + k++ * (int64_t)item, (char *)y->storage->data + to * (int64_t)item,
                   item);
        } while (red_next(x->dim, x->sizes, index));
    ck_assert_msg(memcmp(want, got, (size_t)n * item) == 0, "line %d: copy differs", line);
    free(want);
    free(got);
}

/* A contiguous tensor of distinct values (bool: a pattern) of any dtype. */
static tc_tensor *copy_source(tc_shape shape, tc_dtype dtype)
{
    tc_tensor *t = K(tc_empty(shape, dtype));
    int64_t n = testing_numel(shape);

    ck_assert_ptr_nonnull(t);
    for (int64_t i = 0; i < n; i++)
        switch (dtype) {
        case TC_BOOL: ((bool *)t->storage->data)[i] = (i * 7) % 3 == 1; break;
        case TC_INT64: ((int64_t *)t->storage->data)[i] = i * 1000003 - 7; break;
        case TC_FLOAT32: ((float *)t->storage->data)[i] = (float)i + 0.25f; break;
        case TC_FLOAT64: ((double *)t->storage->data)[i] = (double)i * 1.5 - 3; break;
        }
    return t;
}

/* contiguous(x), and copy_ into a fresh contiguous tensor and into one laid
   out transposed (its last dim slowest): all equal x element by element. */
static void copy_check_all(int line, const tc_tensor *x)
{
    tc_shape shape = tc_shape_of(x), reversed = { .dim = x->dim }, order = { .dim = x->dim };
    tc_tensor *fresh = K(tc_empty(shape, x->dtype)), *flipped;

    copy_check(line, x, K(tc_contiguous(x)));
    ck_assert_int_eq(tc_copy_(fresh, x), 0);
    copy_check(line, x, fresh);
    for (int64_t d = 0; d < x->dim; d++) {
        reversed.sizes[d] = x->sizes[x->dim - 1 - d];
        order.sizes[d] = x->dim - 1 - d;
    }
    flipped = K(tc_permute(K(tc_empty(reversed, x->dtype)), order));
    ck_assert_int_eq(tc_copy_(flipped, x), 0);
    copy_check(line, x, flipped);
}

/* x.t().contiguous() around the tile's side (32): 1, 7, 33, 65, 127, in
   every dtype. */
START_TEST(test_copy_transposed)
{
    static const int64_t sizes[] = { 1, 7, 33, 65, 127 };

    for (tc_dtype dtype = TC_BOOL; dtype <= TC_FLOAT64; dtype++)
        for (int i = 0; i < 5; i++)
            for (int j = 0; j < 5; j++) {
                copy_check_all(__LINE__,
                               K(tc_t(copy_source(TC_SHAPE(sizes[i], sizes[j]), dtype))));
                testing_release_kept();
            }
}
END_TEST

/* Every permutation of a (7, 33, 65) tensor. */
START_TEST(test_copy_permuted)
{
    static const int64_t perms[6][3] = { { 0, 1, 2 }, { 0, 2, 1 }, { 1, 0, 2 },
                                         { 1, 2, 0 }, { 2, 0, 1 }, { 2, 1, 0 } };

    for (tc_dtype dtype = TC_INT64; dtype <= TC_FLOAT64; dtype++)
        for (int p = 0; p < 6; p++) {
            copy_check_all(__LINE__,
                           K(tc_permute(copy_source(TC_SHAPE(7, 33, 65), dtype),
                                        TC_DIMS(perms[p][0], perms[p][1], perms[p][2]))));
            testing_release_kept();
        }
}
END_TEST

/* Slices with steps and offsets, transposed slices, and a 0-D select. */
START_TEST(test_copy_sliced)
{
    tc_tensor *base = copy_source(TC_SHAPE(131, 127), TC_FLOAT32);
    tc_tensor *rows = K(tc_slice(base, 0, 1, 131, 2)), *both = K(tc_slice(rows, 1, 3, 127, 3));

    copy_check_all(__LINE__, rows);
    copy_check_all(__LINE__, both);
    copy_check_all(__LINE__, K(tc_t(both)));
    copy_check_all(__LINE__, K(tc_narrow(K(tc_t(base)), 0, 5, 65)));
    copy_check_all(__LINE__, K(tc_select(K(tc_select(base, 0, 4)), 0, 9)));
    copy_check_all(__LINE__, K(tc_slice(K(tc_t(copy_source(TC_SHAPE(65, 33), TC_BOOL))), 1, 0,
                                        65, 2)));
}
END_TEST

/* Broadcast sources (stride 0): a row, a column, a scalar, expanded; and
   copy_ broadcasting a row into every row of a matrix. */
START_TEST(test_copy_expanded)
{
    tc_tensor *row = copy_source(TC_SHAPE(1, 127), TC_FLOAT64);
    tc_tensor *col = copy_source(TC_SHAPE(65, 1), TC_INT64);
    tc_tensor *one = copy_source(TC_SHAPE(1), TC_FLOAT32);
    tc_tensor *m = K(tc_empty(TC_SHAPE(65, 127), TC_FLOAT64));

    copy_check_all(__LINE__, K(tc_expand(row, TC_SHAPE(65, 127))));
    copy_check_all(__LINE__, K(tc_expand(col, TC_SHAPE(65, 127))));
    copy_check_all(__LINE__, K(tc_expand(one, TC_SHAPE(7, 33, 65))));
    copy_check_all(__LINE__, K(tc_t(K(tc_expand(col, TC_SHAPE(65, 127))))));
    ck_assert_int_eq(tc_copy_(m, K(tc_view(row, TC_SHAPE(127)))), 0);
    copy_check(__LINE__, K(tc_expand(row, TC_SHAPE(65, 127))), m);
}
END_TEST

/* A copy onto another header over the same memory with the same layout is
   allowed (tc_copy_ checks overlaps first) and leaves the values; a copy
   between dtypes still takes chapter 2's path. */
START_TEST(test_copy_same_memory_and_casts)
{
    tc_tensor *base = copy_source(TC_SHAPE(33, 65), TC_FLOAT32);
    tc_tensor *a = K(tc_t(base)), *b = K(tc_t(base)), *d = K(tc_empty(TC_SHAPE(65, 33),
                                                                       TC_FLOAT64));
    tc_tensor *before = K(tc_clone(base));

    ck_assert_int_eq(tc_copy_(a, b), 0);
    copy_check(__LINE__, before, base);
    ck_assert_int_eq(tc_copy_(d, a), 0);
    for (int64_t i = 0; i < 65 * 33; i++)
        ck_assert_double_eq(testing_element(d, i), (double)((i % 33) * 65 + i / 33) + 0.25);
    ck_assert_int_eq(tc_copy_same_type(NULL, a, a->strides), -1);
    tc_clear_error();
}
END_TEST

static void ch07_add_reduce(Suite *s)
{
    TCase *sums = testing_tcase("reduce_sum", NULL, NULL);
    TCase *copies = testing_tcase("reduce_copy", NULL, NULL);

    tcase_set_timeout(sums, 120);
    tcase_add_test(sums, test_sum_contiguous);
    tcase_add_test(sums, test_sum_transposed);
    tcase_add_test(sums, test_sum_permuted_and_sliced);
    tcase_add_test(sums, test_sum_expanded);
    tcase_add_test(sums, test_sum_empty_and_keepdim);
    tcase_add_test(sums, test_sum_torch_values);
    tcase_add_test(sums, test_sum_same_on_any_thread_count);
    tcase_add_test(sums, test_fused_loss_same_on_any_thread_count);
    suite_add_tcase(s, sums);
    tcase_set_timeout(copies, 120);
    tcase_add_test(copies, test_copy_transposed);
    tcase_add_test(copies, test_copy_permuted);
    tcase_add_test(copies, test_copy_sliced);
    tcase_add_test(copies, test_copy_expanded);
    tcase_add_test(copies, test_copy_same_memory_and_casts);
    suite_add_tcase(s, copies);
}
