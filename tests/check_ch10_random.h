/* check_ch10_random.h: the generator and its draws, against torch 1.13
   (the values below were printed by torch.manual_seed / torch.Generator,
   uniform_ and randperm on this machine's torch 1.13). */

static uint32_t rn_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

/* torch.manual_seed(0); torch.empty(5).uniform_(-0.125, 0.125), as bits. */
START_TEST(test_random_uniform_float32)
{
    static const uint32_t want[] = { 3128251392u, 1032410206u, 3184702230u, 3183240832u,
                                     3175428852u };
    tc_manual_seed(0);
    tc_tensor *t = tc_empty(TC_SHAPE(5), TC_FLOAT32);
    ck_assert_int_eq(tc_uniform_(t, -0.125, 0.125, NULL), 0);
    const float *p = t->storage->data;
    for (int i = 0; i < 5; i++)
        ck_assert_uint_eq(rn_bits(p[i]), want[i]);
    tc_release(t);
}
END_TEST

/* g.manual_seed(3); torch.empty(3, dtype=torch.float64).uniform_(-1, 2, generator=g) */
START_TEST(test_random_uniform_float64)
{
    static const double want[] = { -0.8976754130484386, -0.13977931983607916, 1.318744832985753 };
    tc_generator g;
    tc_generator_init(&g, 3);
    tc_tensor *t = tc_empty(TC_SHAPE(3), TC_FLOAT64);
    ck_assert_int_eq(tc_uniform_(t, -1, 2, &g), 0);
    const double *p = t->storage->data;
    for (int i = 0; i < 3; i++)
        ck_assert(p[i] == want[i]);
    tc_release(t);
}
END_TEST

/* A transposed tensor takes the draws in memory order: x = empty(3, 4).t()
   filled from seed 5 equals, transposed back, a (3, 4) filled from seed 5
   (torch.equal was True in torch 1.13); a strided slice of a transposed
   tensor likewise takes them in decreasing-stride order. */
START_TEST(test_random_uniform_memory_order)
{
    tc_generator g;
    tc_tensor *base = tc_empty(TC_SHAPE(3, 4), TC_FLOAT32), *x = tc_t(base);
    tc_generator_init(&g, 5);
    ck_assert_int_eq(tc_uniform_(x, 0, 1, &g), 0);
    tc_tensor *y = tc_empty(TC_SHAPE(3, 4), TC_FLOAT32);
    tc_generator_init(&g, 5);
    ck_assert_int_eq(tc_uniform_(y, 0, 1, &g), 0);
    ck_assert(tc_equal(base, y));
    tc_release(x);
    tc_release(base);
    tc_release(y);
}
END_TEST

/* g.manual_seed(7): randperm(10); seed 42: randperm(1797)'s first 8 and
   last 3 values and sum(i * p[i]); seed 2**40 + 7 (only the low 32 bits
   seed mt19937): randperm(5). */
START_TEST(test_random_randperm)
{
    tc_generator g;
    tc_generator_init(&g, 7);
    tc_tensor *p = tc_randperm(10, &g);
    static const int64_t want10[] = { 5, 0, 3, 4, 1, 7, 9, 6, 8, 2 };
    ck_assert_mem_eq(p->storage->data, want10, sizeof want10);
    tc_release(p);

    tc_generator_init(&g, 42);
    p = tc_randperm(1797, &g);
    const int64_t *v = p->storage->data;
    static const int64_t first[] = { 879, 1100, 1133, 553, 798, 1, 1714, 91 };
    ck_assert_mem_eq(v, first, sizeof first);
    ck_assert_int_eq(v[1794], 658);
    ck_assert_int_eq(v[1795], 984);
    ck_assert_int_eq(v[1796], 1475);
    int64_t sum = 0;
    for (int64_t i = 0; i < 1797; i++)
        sum += i * v[i];
    ck_assert_int_eq(sum, 1431281803);
    tc_release(p);

    tc_generator_init(&g, (UINT64_C(1) << 40) + 7);
    p = tc_randperm(5, &g);
    static const int64_t want5[] = { 0, 1, 3, 2, 4 };
    ck_assert_mem_eq(p->storage->data, want5, sizeof want5);
    tc_release(p);

    p = tc_randperm(0, &g);
    ck_assert_int_eq(tc_numel(p), 0);
    tc_release(p);
}
END_TEST

START_TEST(test_random_errors)
{
    tc_tensor *t = tc_empty(TC_SHAPE(3), TC_FLOAT32);
    ck_assert_int_eq(tc_uniform_(t, 1, 0, NULL), -1);
    ck_assert_str_eq(tc_error(), "uniform_ expects to return a [from, to) range, but found from=1 > to=0");
    tc_release(t);
    t = tc_empty(TC_SHAPE(3), TC_INT64);
    ck_assert_int_eq(tc_uniform_(t, 0, 1, NULL), -1);
    ck_assert_str_eq(tc_error(), "\"check_uniform_bounds\" not implemented for 'Long'");
    tc_release(t);
    ck_assert_ptr_null(tc_randperm(-1, NULL));
    ck_assert_str_eq(tc_error(), "Trying to create tensor with negative dimension -1: [-1]");
}
END_TEST

static void ch10_add_random(Suite *s)
{
    TCase *tc = tcase_create("random");
    tcase_add_test(tc, test_random_uniform_float32);
    tcase_add_test(tc, test_random_uniform_float64);
    tcase_add_test(tc, test_random_uniform_memory_order);
    tcase_add_test(tc, test_random_randperm);
    tcase_add_test(tc, test_random_errors);
    suite_add_tcase(s, tc);
}
