/* check_ch07_vec.h: the vec helper's tests of chapter 7 (included by
   check_ch07.c): the CPU capability and its override, the cpu_kernel_vec
   kernels under every capability this CPU has, bit for bit against a scalar
   reference written here, and tc_square's types against PyTorch 1.13. */

/* POSIX, not C11 (the suites are compiled with -std=c11): declared here
   with their POSIX prototypes. */
int setenv(const char *name, const char *value, int overwrite);
int unsetenv(const char *name);

/* ------------------------------------------------------------ reference */

/* The operations as the tests compute them: IEEE arithmetic, one rounding
   per operation (the product of alpha is rounded before the sum). */
static float vec_ref_f32(tc_vec_op op, float a, float b, float alpha)
{
    float p = alpha * b;

    switch (op) {
    case TC_VEC_ADD: return a + p;
    case TC_VEC_SUB: return a - p;
    case TC_VEC_MUL: return a * b;
    case TC_VEC_DIV: return a / b;
    default: return a * a;
    }
}

static double vec_ref_f64(tc_vec_op op, double a, double b, double alpha)
{
    double p = alpha * b;

    switch (op) {
    case TC_VEC_ADD: return a + p;
    case TC_VEC_SUB: return a - p;
    case TC_VEC_MUL: return a * b;
    case TC_VEC_DIV: return a / b;
    default: return a * a;
    }
}

/* Operand values: fractions of both signs, and at some positions the
   values where rounding and IEEE's special cases show (zeros of both signs,
   infinities, one NaN, a subnormal, a value whose square overflows). */
static double vec_value(uint32_t *state, int64_t k, tc_dtype dtype)
{
    static const double specials_f32[] = { 0.0, -0.0, INFINITY, -INFINITY, NAN,
                                           1e-40, 3e38, 1.0 / 3 };
    static const double specials_f64[] = { 0.0, -0.0, INFINITY, -INFINITY, NAN,
                                           1e-310, 1e300, 1.0 / 3 };

    *state = *state * 1664525u + 1013904223u;
    if (k % 13 == 5)
        return (dtype == TC_FLOAT32 ? specials_f32 : specials_f64)[(*state >> 8) % 8];
    return ((double)(*state >> 8) - 8388608.0) / 77777.0;
}

static bool vec_is_binary(tc_vec_op op) { return op != TC_VEC_SQUARE; }

/* ---------------------------------------------------- kernels, directly */

/* How the operands of one kernel call lie: element offsets from a buffer's
   start (0 aligned, 1 unaligned) and strides in elements (0: a broadcast
   scalar, as after expand). */
typedef struct {
    const char *name;
    int64_t offset[3], stride[3];
} vec_layout;

static const vec_layout vec_layouts[] = {
    { "contiguous", { 0, 0, 0 }, { 1, 1, 1 } },
    { "all offset by 1", { 1, 1, 1 }, { 1, 1, 1 } },
    { "mixed offsets", { 3, 1, 2 }, { 1, 1, 1 } },
    { "input 1 broadcast", { 1, 0, 0 }, { 1, 0, 1 } },
    { "input 2 broadcast", { 0, 2, 0 }, { 1, 1, 0 } },
    { "strided", { 0, 1, 2 }, { 2, 3, 1 } },
    { "both inputs broadcast", { 0, 0, 0 }, { 1, 0, 0 } },
};

enum { VEC_SENTINEL = 0x5a };

/* Run kernel on n elements of `layout` and compare every output element,
   byte for byte, with the reference; bytes of the output buffer that are
   not output elements must keep the sentinel. */
static void vec_check_call(tc_kernel *kernel, const char *what, tc_vec_op op,
                           tc_dtype dtype, int64_t n, const vec_layout *layout,
                           const double *alpha)
{
    int64_t size = (int64_t)tc_itemsize(dtype), len = 3 * n + 8;
    int nt = vec_is_binary(op) ? 3 : 2;
    char *buffer[3], *data[3];
    int64_t strides[3];
    uint32_t state = (uint32_t)n * 2654435761u;
    bool *written = calloc((size_t)len, 1);

    ck_assert_ptr_nonnull(written);
    for (int k = 0; k < nt; k++) {
        buffer[k] = malloc((size_t)(len * size));
        ck_assert_ptr_nonnull(buffer[k]);
        data[k] = buffer[k] + layout->offset[k] * size;
        strides[k] = layout->stride[k] * size;
    }
    memset(buffer[0], VEC_SENTINEL, (size_t)(len * size));
    for (int k = 1; k < nt; k++)
        for (int64_t i = 0; i < len; i++) {
            double v = vec_value(&state, i, dtype);
            if (dtype == TC_FLOAT32)
                ((float *)buffer[k])[i] = (float)v;
            else
                ((double *)buffer[k])[i] = v;
        }
    kernel(data, strides, n, (void *)alpha);
    for (int64_t i = 0; i < n; i++) {
        char *got = data[0] + i * strides[0];
        const char *a = data[1] + i * strides[1];
        const char *b = nt == 3 ? data[2] + i * strides[2] : a;
        double al = alpha == NULL ? 1 : *alpha;
        char want[8];

        if (dtype == TC_FLOAT32) {
            float r = vec_ref_f32(op, *(const float *)a, *(const float *)b, (float)al);
            memcpy(want, &r, sizeof r);
        } else {
            double r = vec_ref_f64(op, *(const double *)a, *(const double *)b, al);
            memcpy(want, &r, sizeof r);
        }
        if (memcmp(got, want, (size_t)size) != 0)
            ck_abort_msg("%s, %s, n = %lld, %s: element %lld differs from the "
                         "reference", what, tc_scalar_type_name(dtype), (long long)n,
                         layout->name, (long long)i);
        written[(got - buffer[0]) / size] = true;
    }
    for (int64_t e = 0; e < len; e++)
        for (int64_t byte = 0; byte < size && !written[e]; byte++)
            if ((unsigned char)buffer[0][e * size + byte] != VEC_SENTINEL)
                ck_abort_msg("%s, %s, n = %lld, %s: wrote element %lld of the output "
                             "buffer, which is no output element", what,
                             tc_scalar_type_name(dtype), (long long)n, layout->name,
                             (long long)e);
    for (int k = 0; k < nt; k++)
        free(buffer[k]);
    free(written);
}

static const char *const vec_op_names[] = { "add", "sub", "mul", "div", "square" };

/* Every kernel of capability c (or the scalar-path kernels, c < 0), every
   layout its arity has, lengths 0-65, alpha 1 (NULL), 2.5 and -0.1 for add
   and sub (0.1 is where a fused multiply-add would round differently). */
static void vec_check_capability(int c)
{
    static const double alphas[] = { 2.5, -0.1 };

    for (int op = 0; op < TC_VEC_OPS; op++)
        for (int d = 0; d < 2; d++) {
            tc_dtype dtype = d == 0 ? TC_FLOAT32 : TC_FLOAT64;
            tc_kernel *kernel = c < 0 ? tc_vec_basic_kernel((tc_vec_op)op, dtype)
                                      : tc_vec_kernel_for((tc_cpu_capability)c,
                                                          (tc_vec_op)op, dtype);
            char what[64];

            snprintf(what, sizeof what, "%s under %s", vec_op_names[op],
                     c < 0 ? "the scalar path" : tc_cpu_capability_name((tc_cpu_capability)c));
            ck_assert_msg(kernel != NULL, "%s: no kernel", what);
            for (size_t l = 0; l < sizeof vec_layouts / sizeof vec_layouts[0]; l++) {
                const vec_layout *layout = &vec_layouts[l];
                if (!vec_is_binary((tc_vec_op)op) && layout->stride[2] != 1)
                    continue;    /* square has no input 2 */
                for (int64_t n = 0; n <= 65; n++) {
                    vec_check_call(kernel, what, (tc_vec_op)op, dtype, n, layout, NULL);
                    if (op == TC_VEC_ADD || op == TC_VEC_SUB)
                        for (int a = 0; a < 2; a++)
                            vec_check_call(kernel, what, (tc_vec_op)op, dtype, n, layout,
                                           &alphas[a]);
                }
            }
        }
}

START_TEST(test_vec_kernels_every_capability)
{
    int ran = 0;

    for (int c = 0; c < TC_CPU_CAPABILITIES; c++) {
        if (!tc_cpu_capability_supported((tc_cpu_capability)c)) {
            /* never called: the table entry is refused */
            ck_assert(tc_vec_kernel_for((tc_cpu_capability)c, TC_VEC_ADD,
                                        TC_FLOAT32) == NULL);
            continue;
        }
        vec_check_capability(c);
        ran++;
    }
    vec_check_capability(-1);
    ck_assert_int_ge(ran, 1);    /* DEFAULT at least */
}
END_TEST

/* The flags of the mapping that holds address p, from /proc/self/smaps,
   into flags ("rd wr mr mw me ac hg" ...); false if not found. */
static bool vec_mapping_flags(const void *p, char *flags, size_t size)
{
    FILE *f = fopen("/proc/self/smaps", "r");
    char line[512];
    unsigned long lo, hi, at = (unsigned long)(uintptr_t)p;
    bool inside = false, found = false;

    if (f == NULL)
        return false;
    while (!found && fgets(line, sizeof line, f) != NULL) {
        if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2 && strchr(line, '-') < strchr(line, ' '))
            inside = lo <= at && at < hi;
        else if (inside && strncmp(line, "VmFlags:", 8) == 0) {
            snprintf(flags, size, "%s", line + 8);
            found = true;
        }
    }
    fclose(f);
    return found;
}

/* Chapter 7's advice to tc_storage_new: the pages of a block of 2 MB or
   more are marked for transparent huge pages (madvise(MADV_HUGEPAGE)),
   which /proc/self/smaps shows as "hg" among the mapping's flags. Only
   where the kernel has transparent huge pages (the sysfs directory exists)
   and reports the flags. */
START_TEST(test_vec_large_storage_asks_for_huge_pages)
{
    FILE *thp = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
    tc_tensor *big;
    char flags[256];

    if (thp == NULL)
        return;                                  /* no THP in this kernel */
    fclose(thp);
    big = tc_empty(TC_SHAPE(1024, 1024), TC_FLOAT32);    /* 4 MB */
    ck_assert_ptr_nonnull(big);
    memset(tc_data_ptr(big), 1, 4 << 20);
    if (vec_mapping_flags((char *)tc_data_ptr(big) + (2 << 20), flags, sizeof flags))
        ck_assert_msg(strstr(flags, " hg") != NULL, "flags of a 4 MB block:%s", flags);
    tc_release(big);
}
END_TEST

/* The same with every output streamed (threshold 0): the head that aligns
   the output, the streamed body and the tail, at every length and offset. */
START_TEST(test_vec_kernels_streaming_every_length)
{
    int64_t old = tc_vec_set_stream_threshold(0);

    for (int c = 0; c < TC_CPU_CAPABILITIES; c++)
        if (tc_cpu_capability_supported((tc_cpu_capability)c))
            vec_check_capability(c);
    ck_assert_int_eq(tc_vec_set_stream_threshold(old), 0);
    ck_assert_int_eq(tc_vec_stream_threshold(), TC_STREAM_THRESHOLD);
}
END_TEST

/* Lengths above the real threshold: a few layouts, square and add. */
START_TEST(test_vec_kernels_large)
{
    static const double alpha = -0.1;

    for (int c = 0; c < TC_CPU_CAPABILITIES; c++) {
        if (!tc_cpu_capability_supported((tc_cpu_capability)c))
            continue;
        for (int d = 0; d < 2; d++) {
            tc_dtype dtype = d == 0 ? TC_FLOAT32 : TC_FLOAT64;
            int64_t n = TC_STREAM_THRESHOLD / (int64_t)tc_itemsize(dtype) + 37;
            const char *name = tc_cpu_capability_name((tc_cpu_capability)c);

            for (int l = 0; l < 4; l++) {
                vec_check_call(tc_vec_kernel_for((tc_cpu_capability)c, TC_VEC_SQUARE, dtype),
                               name, TC_VEC_SQUARE, dtype, n, &vec_layouts[l], NULL);
                vec_check_call(tc_vec_kernel_for((tc_cpu_capability)c, TC_VEC_ADD, dtype),
                               name, TC_VEC_ADD, dtype, n, &vec_layouts[l], &alpha);
            }
        }
    }
}
END_TEST

START_TEST(test_vec_kernel_lookup)
{
    ck_assert(tc_vec_kernel(TC_VEC_ADD, TC_INT64) == NULL);
    ck_assert(tc_vec_kernel(TC_VEC_SQUARE, TC_BOOL) == NULL);
    ck_assert(tc_vec_kernel(TC_VEC_OPS, TC_FLOAT32) == NULL);
    ck_assert(tc_vec_basic_kernel(TC_VEC_MUL, TC_INT64) == NULL);
    ck_assert(tc_vec_kernel(TC_VEC_DIV, TC_FLOAT64) != NULL);
    ck_assert(tc_vec_kernel_for(TC_CPU_DEFAULT, TC_VEC_SUB, TC_FLOAT32) != NULL);
}
END_TEST

/* ---------------------------------------------- through the operators */

/* Operands of the operator tests: rows x cols of fractions, in float32 or
   float64, and views of them (all kept). */
static tc_tensor *vec_grid(tc_dtype dtype, int64_t rows, int64_t cols, uint32_t seed)
{
    double values[256];

    for (int64_t k = 0; k < rows * cols; k++) {
        seed = seed * 1664525u + 1013904223u;
        values[k] = ((double)(seed >> 12) - 524288.0) / 3333.0;
    }
    return testing_tensor(TC_SHAPE(rows, cols), dtype, values);
}

/* got must equal op applied elementwise (row-major) to a and b (b NULL for
   square), bit for bit, both read in dtype. */
static void vec_expect_op(int line, const char *what, const tc_tensor *got,
                          tc_vec_op op, const tc_tensor *a, const tc_tensor *b,
                          double alpha)
{
    int64_t n = tc_numel(a);

    ck_assert_msg(got != NULL, "line %d, %s: failed: %s", line, what,
                  tc_error() ? tc_error() : "");
    ck_assert_int_eq(got->dtype, a->dtype);
    ck_assert_int_eq(tc_numel(got), n);
    for (int64_t k = 0; k < n; k++) {
        double x = testing_element(a, k), y = b == NULL ? x : testing_element(b, k);
        double g = testing_element(got, k);
        double want = a->dtype == TC_FLOAT32
                          ? (double)vec_ref_f32(op, (float)x, (float)y, (float)alpha)
                          : vec_ref_f64(op, x, y, alpha);
        if (memcmp(&g, &want, sizeof g) != 0)
            ck_abort_msg("line %d, %s: element %lld is %.17g, not %.17g", line, what,
                         (long long)k, g, want);
    }
}

#define VEC_EXPECT(got, op, a, b, alpha) \
    vec_expect_op(__LINE__, #got, K(got), op, a, b, alpha)

/* Operands of one shape (4, 21) in the layouts the loop meets: contiguous,
   transposed, sliced, unaligned (offset 1), expanded (stride 0). Rows of 21
   elements: two vectors and a tail, however the loop splits them. */
static void vec_check_operators(tc_dtype dtype)
{
    tc_tensor *x = vec_grid(dtype, 4, 21, 1), *y = vec_grid(dtype, 4, 21, 2);
    tc_tensor *xt = K(tc_t(K(tc_contiguous(K(tc_t(x)))))); /* x's values, transposed strides */
    tc_tensor *wide = vec_grid(dtype, 4, 43, 3);
    tc_tensor *sliced = K(tc_slice(wide, 1, 1, TC_END, 2));          /* (4, 21), strides (43, 2) */
    tc_tensor *unaligned = K(tc_narrow(wide, 1, 1, 21));             /* offset 1 */
    tc_tensor *row = K(tc_expand(vec_grid(dtype, 1, 21, 4), TC_SHAPE(4, 21)));
    tc_tensor *column = K(tc_expand(vec_grid(dtype, 4, 1, 5), TC_SHAPE(4, 21)));
    tc_tensor *alpha = K(tc_number(-0.1));
    double al = dtype == TC_FLOAT32 ? (double)(float)-0.1 : -0.1;

    ck_assert_int_eq(xt->strides[0], 1);
    VEC_EXPECT(tc_add(x, y), TC_VEC_ADD, x, y, 1);
    VEC_EXPECT(tc_add_alpha(x, y, alpha), TC_VEC_ADD, x, y, al);
    VEC_EXPECT(tc_sub_alpha(xt, y, alpha), TC_VEC_SUB, xt, y, al);
    VEC_EXPECT(tc_mul(xt, xt), TC_VEC_MUL, xt, xt, 1);
    VEC_EXPECT(tc_div(sliced, unaligned), TC_VEC_DIV, sliced, unaligned, 1);
    VEC_EXPECT(tc_add_alpha(unaligned, column, alpha), TC_VEC_ADD, unaligned, column, al);
    VEC_EXPECT(tc_mul(row, sliced), TC_VEC_MUL, row, sliced, 1);
    VEC_EXPECT(tc_sub(column, row), TC_VEC_SUB, column, row, 1);
    VEC_EXPECT(tc_square(x), TC_VEC_SQUARE, x, NULL, 1);
    VEC_EXPECT(tc_square(xt), TC_VEC_SQUARE, xt, NULL, 1);
    VEC_EXPECT(tc_square(sliced), TC_VEC_SQUARE, sliced, NULL, 1);
    VEC_EXPECT(tc_square(unaligned), TC_VEC_SQUARE, unaligned, NULL, 1);
    VEC_EXPECT(tc_square(column), TC_VEC_SQUARE, column, NULL, 1);
    {   /* in place, into an unaligned view */
        tc_tensor *copy = K(tc_clone(wide));
        tc_tensor *view = K(tc_narrow(copy, 1, 1, 21));
        tc_tensor *same = K(tc_mul_(view, y));
        ck_assert_ptr_eq(same, view);
        VEC_EXPECT(tc_retain(view), TC_VEC_MUL, unaligned, y, 1);
    }
}

START_TEST(test_vec_operators_every_capability)
{
    tc_cpu_capability saved = tc_cpu_capability_get();

    for (int c = 0; c < TC_CPU_CAPABILITIES; c++) {
        if (!tc_cpu_capability_set((tc_cpu_capability)c)) {
            tc_clear_error();
            continue;
        }
        vec_check_operators(TC_FLOAT32);
        vec_check_operators(TC_FLOAT64);
    }
    ck_assert(tc_cpu_capability_set(saved));
}
END_TEST

/* ---------------------------------------------------------- tc_square */

START_TEST(test_square_types)
{
    /* /usr/bin/python3 -c 'import torch; print(torch.square(torch.tensor([1.5, -2.])))'
       tensor([2.2500, 4.0000]) */
    testing_expect_tensor(__LINE__, "float32", K(tc_square(testing_tensor(TC_SHAPE(2),
                          TC_FLOAT32, (double[]){ 1.5, -2 }))), TC_FLOAT32, TC_SHAPE(2),
                          (double[]){ 2.25, 4 }, TESTING_TOL(0, 0));
    /* torch.square(torch.tensor([1.5], dtype=torch.float64)): tensor([2.2500], dtype=torch.float64) */
    testing_expect_tensor(__LINE__, "float64", K(tc_square(testing_tensor(TC_SHAPE(1),
                          TC_FLOAT64, (double[]){ 1.5 }))), TC_FLOAT64, TC_SHAPE(1),
                          (double[]){ 2.25 }, TESTING_TOL(0, 0));
    /* torch.square(torch.tensor([2, -3])): tensor([4, 9]) (int64) */
    testing_expect_tensor(__LINE__, "int64", K(tc_square(testing_tensor(TC_SHAPE(2),
                          TC_INT64, (double[]){ 2, -3 }))), TC_INT64, TC_SHAPE(2),
                          (double[]){ 4, 9 }, TESTING_TOL(0, 0));
    /* torch.square(torch.tensor([True, False])): tensor([1, 0]), dtype int64 */
    testing_expect_tensor(__LINE__, "bool", K(tc_square(testing_tensor(TC_SHAPE(2),
                          TC_BOOL, (double[]){ 1, 0 }))), TC_INT64, TC_SHAPE(2),
                          (double[]){ 1, 0 }, TESTING_TOL(0, 0));
    /* torch.square(torch.tensor(3)): tensor(9), 0-D int64 */
    testing_expect_tensor(__LINE__, "0-D", K(tc_square(K(tc_number(3)))), TC_INT64,
                          TC_SCALAR_SHAPE, (double[]){ 9 }, TESTING_TOL(0, 0));
    /* torch.square(torch.empty(0)).shape: torch.Size([0]) */
    testing_expect_tensor(__LINE__, "empty", K(tc_square(K(tc_empty(TC_SHAPE(0),
                          TC_FLOAT32)))), TC_FLOAT32, TC_SHAPE(0), NULL, TESTING_TOL(0, 0));
}
END_TEST

START_TEST(test_square_wraps_and_keeps_layout)
{
    /* torch.square(torch.tensor([2**32 + 1])): tensor([8589934593]): 2^64 +
       2^33 + 1 wraps around to 2^33 + 1 */
    tc_tensor *big = K(tc_square(testing_int64_tensor(TC_SHAPE(1),
                                                      (int64_t[]){ (INT64_C(1) << 32) + 1 })));
    /* x = torch.arange(6.).view(2, 3).t(); torch.square(x).stride(): (1, 3) */
    tc_tensor *t = K(tc_square(K(testing_transposed_arange6(TC_FLOAT32))));

    ck_assert_ptr_nonnull(big);
    ck_assert_int_eq(*(int64_t *)tc_data_ptr(big), (INT64_C(1) << 33) + 1);
    ck_assert_ptr_nonnull(t);
    ASSERT_SIZES(t, 3, 2);
    ASSERT_STRIDES(t, 1, 3);
    ck_assert(testing_get(t, IDX(2, 1)) == 25.0);
}
END_TEST

START_TEST(test_square_errors)
{
    EXPECT_FAILS(tc_square(NULL), "tc: NULL argument, but no earlier call failed");
    /* a failed argument keeps the first message */
    tc_clear_error();
    ck_assert_ptr_null(tc_square(tc_t(K(tc_empty(TC_SHAPE(2, 2, 2), TC_FLOAT32)))));
    ck_assert_ptr_nonnull(tc_error());
    ck_assert_ptr_null(strstr(tc_error(), "NULL argument"));
    tc_clear_error();
}
END_TEST

/* --------------------------------------------------------- small calls */

/* Calls that chapter 7's small_call runs without an iterator: a number of
   every type converted as tc_copy_ converts it, 0-D tensors that are not
   wrapped numbers, comparisons and where, and the result's strides where a
   dim of size 1 lets the driver choose an unusual one. Every expected
   value is PyTorch 1.13's. */
START_TEST(test_small_calls_match_pytorch)
{
    tc_tensor *ones = K(tc_ones(TC_SHAPE(3), TC_FLOAT32));
    tc_tensor *i3 = testing_int64_tensor(TC_SHAPE(3), (int64_t[]){ 1, 2, 3 });
    tc_tensor *f3 = testing_tensor(TC_SHAPE(3), TC_FLOAT32, (double[]){ 1, 2, 4 });
    tc_tensor *base = K(tc_ones(TC_SHAPE(6), TC_FLOAT32));
    tc_tensor *odd = K(tc_as_strided(base, TC_SHAPE(2, 1, 3), TC_SHAPE(3, 7, 1), 0));
    tc_tensor *m3 = testing_tensor(TC_SHAPE(3), TC_BOOL, (double[]){ 1, 0, 1 });
    tc_tensor *x3 = testing_tensor(TC_SHAPE(3), TC_FLOAT32, (double[]){ 1.5, 2.5, 3.5 });
    tc_tensor *product, *sum;

    /* torch.ones(3) * (2**60 + 2**36 + 1): float32, each 2**60 + 2**37
       (1152921642045800448): the integer rounded once, not through double */
    testing_expect_tensor(__LINE__, "int64 number", K(tc_mul_scalar(ones,
                          (INT64_C(1) << 60) + (INT64_C(1) << 36) + 1)), TC_FLOAT32,
                          TC_SHAPE(3), (double[]){ 1152921642045800448.0, 1152921642045800448.0,
                          1152921642045800448.0 }, TESTING_TOL(0, 0));
    /* (torch.ones(3) + 0.1).tolist(): [1.100000023841858] * 3 */
    testing_expect_tensor(__LINE__, "float64 number", K(tc_add_scalar(ones, 0.1)), TC_FLOAT32,
                          TC_SHAPE(3), (double[]){ 1.100000023841858, 1.100000023841858,
                          1.100000023841858 }, TESTING_TOL(0, 0));
    /* torch.tensor([1, 2, 3]) + True: tensor([2, 3, 4]) */
    testing_expect_tensor(__LINE__, "bool number", K(tc_add(i3, K(tc_number((bool)true)))),
                          TC_INT64, TC_SHAPE(3), (double[]){ 2, 3, 4 }, TESTING_TOL(0, 0));
    /* torch.tensor([1, 2, 3]) + torch.tensor(5): tensor([6, 7, 8]) */
    testing_expect_tensor(__LINE__, "0-D int64", K(tc_add(i3, K(tc_full(TC_SCALAR_SHAPE, 5,
                          TC_INT64)))), TC_INT64, TC_SHAPE(3), (double[]){ 6, 7, 8 },
                          TESTING_TOL(0, 0));
    /* (torch.tensor([1., 2., 4.]) + torch.tensor(0.1, dtype=torch.float64)).tolist():
       [1.100000023841858, 2.0999999046325684, 4.099999904632568], float32 */
    testing_expect_tensor(__LINE__, "0-D float64", K(tc_add(f3, K(tc_full(TC_SCALAR_SHAPE, 0.1,
                          TC_FLOAT64)))), TC_FLOAT32, TC_SHAPE(3), (double[]){
                          1.100000023841858, 2.0999999046325684, 4.099999904632568 },
                          TESTING_TOL(0, 0));
    /* torch.tensor([1, 2, 3]) * 2.5: tensor([2.5000, 5.0000, 7.5000]) */
    testing_expect_tensor(__LINE__, "int64 tensor, float number", K(tc_mul_scalar(i3, 2.5)),
                          TC_FLOAT32, TC_SHAPE(3), (double[]){ 2.5, 5, 7.5 }, TESTING_TOL(0, 0));
    /* torch.tensor([1., 2., 4.]) < 2: tensor([ True, False, False]) */
    testing_expect_tensor(__LINE__, "comparison", K(tc_lt(f3, K(tc_number(2)))), TC_BOOL,
                          TC_SHAPE(3), (double[]){ 1, 0, 0 }, TESTING_TOL(0, 0));
    /* torch.where(torch.tensor([True, False, True]), torch.tensor([1.5, 2.5, 3.5]), 0.):
       tensor([1.5000, 0.0000, 3.5000]), float32 */
    testing_expect_tensor(__LINE__, "where", K(tc_where(m3, x3, K(tc_number(0.0)))),
                          TC_FLOAT32, TC_SHAPE(3), (double[]){ 1.5, 0, 3.5 }, TESTING_TOL(0, 0));
    /* x = torch.ones(6).as_strided((2, 1, 3), (3, 7, 1)); (x * 3).stride(): (3, 6, 1),
       (x + x).stride(): (3, 3, 1) */
    product = K(tc_mul_scalar(odd, 3));
    sum = K(tc_add(odd, odd));
    ck_assert_ptr_nonnull(product);
    ck_assert_ptr_nonnull(sum);
    ASSERT_STRIDES(product, 3, 6, 1);
    ASSERT_STRIDES(sum, 3, 3, 1);
    ck_assert(testing_get(product, IDX(1, 0, 2)) == 3.0);
}
END_TEST

/* The same sums on both sides of TC_GRAIN_SIZE elements, where the call
   leaves small_call for the iterator: x * 0.5 + 1 against the same
   arithmetic in float, done here. */
START_TEST(test_small_calls_either_side_of_the_grain)
{
    for (int64_t n = TC_GRAIN_SIZE - 1; n <= TC_GRAIN_SIZE; n++) {
        tc_tensor *x = K(tc_arange(0.0, (double)n, 1.0));
        tc_tensor *y = K(tc_add_scalar(K(tc_mul_scalar(x, 0.5)), 1));
        const float *at;

        ck_assert_ptr_nonnull(y);
        ck_assert_int_eq(y->dtype, TC_FLOAT32);
        at = tc_data_ptr(y);
        for (int64_t k = 0; k < n; k++)
            if (at[k] != (float)k * 0.5f + 1.0f)
                ck_abort_msg("n %lld, element %lld: %.9g", (long long)n, (long long)k,
                             (double)at[k]);
    }
}
END_TEST

/* ------------------------------------------------------ the capability */

START_TEST(test_capability_names)
{
    /* torch.backends.cpu.get_cpu_capability() (PyTorch 2.x) returns these */
    ck_assert_str_eq(tc_cpu_capability_name(TC_CPU_DEFAULT), "DEFAULT");
    ck_assert_str_eq(tc_cpu_capability_name(TC_CPU_AVX2), "AVX2");
    ck_assert_str_eq(tc_cpu_capability_name(TC_CPU_AVX512), "AVX512");
    tc_clear_error();
    ck_assert_ptr_null(tc_cpu_capability_name((tc_cpu_capability)3));
    ck_assert_str_eq(tc_error(), "tc: no CPU capability 3");
    tc_clear_error();
}
END_TEST

/* What the processor supports, asked here without the library: on x86 the
   compiler's builtin, elsewhere nothing but DEFAULT. */
static bool vec_cpu_has(tc_cpu_capability c)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_cpu_init();
    if (c == TC_CPU_AVX2)
        return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    if (c == TC_CPU_AVX512)
        return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") &&
               __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq") &&
               __builtin_cpu_supports("fma");
#endif
    return c == TC_CPU_DEFAULT;
}

static tc_cpu_capability vec_cpu_best(void)
{
    return vec_cpu_has(TC_CPU_AVX512) ? TC_CPU_AVX512
           : vec_cpu_has(TC_CPU_AVX2) ? TC_CPU_AVX2 : TC_CPU_DEFAULT;
}

START_TEST(test_capability_set)
{
    tc_cpu_capability saved = tc_cpu_capability_get();

    for (int c = 0; c < TC_CPU_CAPABILITIES; c++) {
        ck_assert_int_eq(tc_cpu_capability_supported((tc_cpu_capability)c),
                         vec_cpu_has((tc_cpu_capability)c));
        tc_clear_error();
        if (vec_cpu_has((tc_cpu_capability)c)) {
            ck_assert(tc_cpu_capability_set((tc_cpu_capability)c));
            ck_assert_int_eq(tc_cpu_capability_get(), c);
        } else {
            char want[64];
            snprintf(want, sizeof want, "tc: this CPU cannot run %s code",
                     tc_cpu_capability_name((tc_cpu_capability)c));
            ck_assert(!tc_cpu_capability_set((tc_cpu_capability)c));
            ck_assert_str_eq(tc_error(), want);
            ck_assert_int_ne(tc_cpu_capability_get(), c);
        }
    }
    tc_clear_error();
    ck_assert(!tc_cpu_capability_set((tc_cpu_capability)7));
    ck_assert_str_eq(tc_error(), "tc: no CPU capability 7");
    tc_clear_error();
    ck_assert(tc_cpu_capability_set(saved));
}
END_TEST

/* TC_CPU_CAPABILITY as PyTorch reads ATEN_CPU_CAPABILITY: exact lower-case
   values; another value is ignored, with a warning on stderr, as
     ATEN_CPU_CAPABILITY=AVX2 python3 -c 'import torch; print(torch.__config__.show())'
   warns "ignoring invalid value for ATEN_CPU_CAPABILITY: AVX2" and uses AVX2
   found by cpuinfo; a value the CPU cannot run is ignored too (PyTorch takes
   it and dies of SIGILL: ATEN_CPU_CAPABILITY=avx512 on an AVX2 machine, exit
   status 132). */
START_TEST(test_capability_environment)
{
    const char *old = getenv("TC_CPU_CAPABILITY");
    char saved[64] = "";
    bool had = old != NULL;
    static const struct { const char *value; int want; } cases[] = {
        { "default", TC_CPU_DEFAULT }, { "avx2", TC_CPU_AVX2 },
        { "avx512", TC_CPU_AVX512 }, { "AVX2", -1 }, { "", -1 }, { "bogus", -1 },
        { "avx2 ", -1 },
    };

    if (had)
        snprintf(saved, sizeof saved, "%s", old);
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        int want = cases[k].want;
        if (want < 0 || !vec_cpu_has((tc_cpu_capability)want))
            want = (int)vec_cpu_best();
        ck_assert_int_eq(setenv("TC_CPU_CAPABILITY", cases[k].value, 1), 0);
        ck_assert_msg((int)tc_cpu_capability_reset() == want, "TC_CPU_CAPABILITY='%s'",
                      cases[k].value);
        ck_assert_int_eq(tc_cpu_capability_get(), want);
    }
    ck_assert_int_eq(unsetenv("TC_CPU_CAPABILITY"), 0);
    ck_assert_int_eq(tc_cpu_capability_reset(), vec_cpu_best());
    if (had)
        ck_assert_int_eq(setenv("TC_CPU_CAPABILITY", saved, 1), 0);
    tc_cpu_capability_reset();
    ck_assert_ptr_null(tc_error());
}
END_TEST

/* tc_vec_transpose32 under every capability the CPU has: blocks of every
   size from 0 to 40 in each direction (whole squares of 8 and 16, edges,
   less than a square), with row strides wider than the block, against
   dst[j][i] = src[i][j] worked out element by element here; the bits of
   each element pass unchanged (every pattern is distinct, NaNs among
   them), and what lies outside the block in dst is not touched. */
START_TEST(test_vec_transpose32_every_capability)
{
    enum { MAX = 40, SS = MAX + 3, DS = MAX + 5 };
    static uint32_t src[MAX * SS], dst[MAX * DS];
    int ran = 0;

    for (int64_t k = 0; k < MAX * SS; k++)    /* distinct; 0x7fc0.... are NaNs */
        src[k] = (k % 3 == 0 ? 0x7fc00000u : 0x3f800000u) + (uint32_t)k;
    for (int c = 0; c < TC_CPU_CAPABILITIES; c++) {
        tc_transpose32 *transpose = tc_vec_transpose32_for((tc_cpu_capability)c);

        if (!tc_cpu_capability_supported((tc_cpu_capability)c)) {
            ck_assert(transpose == NULL);
            continue;
        }
        ck_assert(transpose != NULL);
        ran++;
        for (int64_t rows = 0; rows <= MAX; rows++)
            for (int64_t cols = 0; cols <= MAX; cols += rows % 5 + 1) {
                memset(dst, 0xab, sizeof dst);
                transpose(dst, DS, src, SS, rows, cols);
                for (int64_t j = 0; j < MAX; j++)
                    for (int64_t i = 0; i < DS; i++) {
                        uint32_t want = j < cols && i < rows ? src[i * SS + j] : 0xababababu;
                        ck_assert_msg(dst[j * DS + i] == want,
                                      "%s, %lld x %lld: dst[%lld][%lld] is %08x, not %08x",
                                      tc_cpu_capability_name((tc_cpu_capability)c),
                                      (long long)rows, (long long)cols, (long long)j,
                                      (long long)i, dst[j * DS + i], want);
                    }
            }
    }
    ck_assert_int_ge(ran, 1);
    ck_assert(tc_vec_transpose32() == tc_vec_transpose32_for(tc_cpu_capability_get()));
}
END_TEST

static void ch07_add_vec(Suite *s)
{
    TCase *capability = testing_tcase("the CPU capability", NULL, NULL);
    TCase *kernels = testing_tcase("vector kernels, bit for bit", NULL, NULL);
    TCase *square = testing_tcase("square", NULL, NULL);

    tcase_add_test(capability, test_capability_names);
    tcase_add_test(capability, test_capability_set);
    tcase_add_test(capability, test_capability_environment);
    tcase_add_test(kernels, test_vec_kernel_lookup);
    tcase_add_test(kernels, test_vec_kernels_every_capability);
    tcase_add_test(kernels, test_vec_kernels_streaming_every_length);
    tcase_add_test(kernels, test_vec_large_storage_asks_for_huge_pages);
    tcase_add_test(kernels, test_vec_kernels_large);
    tcase_add_test(kernels, test_vec_transpose32_every_capability);
    tcase_add_test(kernels, test_vec_operators_every_capability);
    tcase_add_test(square, test_square_types);
    tcase_add_test(square, test_square_wraps_and_keeps_layout);
    tcase_add_test(square, test_square_errors);
    tcase_add_test(square, test_small_calls_match_pytorch);
    tcase_add_test(square, test_small_calls_either_side_of_the_grain);
    tcase_set_timeout(kernels, 600);
    suite_add_tcase(s, capability);
    suite_add_tcase(s, kernels);
    suite_add_tcase(s, square);
}
