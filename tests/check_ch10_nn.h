/* check_ch10_nn.h: layers and parameters (chapter 10, "Layers and
   parameters"): ag_linear and its graph, nn.Linear's initial values, ReLU,
   Sequential, parameters and their names, zero_grad, repr, and a gradcheck
   of a two-layer network in float64.

   The expected values were printed by torch 1.13 (/usr/bin/python3) on the
   same inputs: the scripts are quoted above each table. Initial weights are
   compared bit for bit (as uint32 of the float32 values; a large tensor by
   the hash sum over i of bits[i] * (i + 1) mod 2^64, computed by numpy in
   uint64); forward values and gradients within rtol 1e-5, atol 1e-6 (our
   products sum in another order than PyTorch's). */

/* ------------------------------------------------------------- init */

static uint32_t nn_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

/* t's float32 elements (contiguous) against want, bit for bit. */
static void nn_expect_bits(const tc_tensor *t, const uint32_t *want, int64_t n)
{
    ck_assert_ptr_nonnull(t);
    ck_assert_int_eq(t->dtype, TC_FLOAT32);
    ck_assert_int_eq(tc_numel(t), n);
    ck_assert(tc_is_contiguous(t));
    const float *p = tc_data_ptr(t);
    for (int64_t i = 0; i < n; i++)
        ck_assert_msg(nn_bits(p[i]) == want[i], "element %lld: bits %u, want %u", (long long)i,
                      nn_bits(p[i]), want[i]);
}

/* sum over i of bits(t[i]) * (i + 1), mod 2^64: numpy's
   (b.astype(uint64) * arange(1, n + 1, dtype=uint64)).sum(dtype=uint64). */
static uint64_t nn_hash(const tc_tensor *t)
{
    const float *p = tc_data_ptr(t);
    uint64_t h = 0;

    for (int64_t i = 0; i < tc_numel(t); i++)
        h += (uint64_t)nn_bits(p[i]) * (uint64_t)(i + 1);
    return h;
}

/* The next float32 draw of the default generator: torch.rand(1). */
static uint32_t nn_next_rand_bits(void)
{
    tc_tensor *t = K(tc_empty(TC_SHAPE(1), TC_FLOAT32));
    ck_assert_int_eq(tc_uniform_(t, 0, 1, NULL), 0);
    return nn_bits(*(const float *)tc_data_ptr(t));
}

/* g = torch.Generator().manual_seed(11); torch.empty(12).uniform_(-0.37,
   0.41, generator=g) as uint32, and the same with dtype=torch.float64 (6
   values, as uint64). torch 1.13's kernel rounds x * (to - from) + from
   once (a fused multiply-add); rounding the product first gives other bits
   for about 1 draw in 200 in float32 and 1 in 2 in float64 over this range
   (a regression test: tc_uniform_ once rounded twice, and nn.Linear(3, 5)'s
   first weight came out 8 ulp off). */
START_TEST(test_nn_uniform_rounds_once)
{
    static const uint32_t f32[] = { 3196185392u, 1008457166u, 1053569434u, 3195297754u,
                                    1034882551u, 1043274891u, 1034792670u, 3196724648u,
                                    1033645034u, 1051977571u, 3190014250u, 1047926140u };
    static const uint64_t f64[] = { 13820465660742516099u, 4599445739921466510u,
                                    4594709503427775794u, 4594516495347169743u,
                                    4590432290369737558u, 13821523196748213521u };
    tc_generator g;
    tc_generator_init(&g, 11);
    tc_tensor *t = K(tc_empty(TC_SHAPE(12), TC_FLOAT32));
    ck_assert_int_eq(tc_uniform_(t, -0.37, 0.41, &g), 0);
    nn_expect_bits(t, f32, 12);
    tc_generator_init(&g, 11);
    t = K(tc_empty(TC_SHAPE(6), TC_FLOAT64));
    ck_assert_int_eq(tc_uniform_(t, -0.37, 0.41, &g), 0);
    const double *p = tc_data_ptr(t);
    for (int i = 0; i < 6; i++) {
        uint64_t u;
        memcpy(&u, &p[i], sizeof u);
        ck_assert_msg(u == f64[i], "float64 element %d: bits %llu, want %llu", i,
                      (unsigned long long)u, (unsigned long long)f64[i]);
    }
}
END_TEST

/* torch.manual_seed(0); l = nn.Linear(4, 3): weight and bias as uint32
   (w.detach().numpy().view(np.uint32)). Both are leaves that require grad,
   at version 1; weight (3, 4), bias (3). */
START_TEST(test_nn_linear_init_bits)
{
    static const uint32_t weight[] = { 3145028608u, 1049187422u, 3201479446u, 3200018048u,
                                       3192206068u, 1040796652u, 3156365120u, 1053489870u,
                                       3174416240u, 1040677708u, 3189423020u, 3184085104u };
    static const uint32_t bias[] = { 3203699128u, 3198782290u, 3193114344u };
    tc_manual_seed(0);
    tc_module *l = tc_nn_linear(4, 3, true, NULL);
    ck_assert_ptr_nonnull(l);
    ck_assert_int_eq(tc_module_num_parameters(l), 2);
    tc_tensor *w = tc_module_parameter(l, 0), *b = tc_module_parameter(l, 1);
    ck_assert_str_eq(tc_module_parameter_name(l, 0), "weight");
    ck_assert_str_eq(tc_module_parameter_name(l, 1), "bias");
    ASSERT_SIZES(w, 3, 4);
    ASSERT_SIZES(b, 3);
    nn_expect_bits(w, weight, 12);
    nn_expect_bits(b, bias, 3);
    ck_assert(ag_requires_grad(w) && ag_is_leaf(w) && ag_requires_grad(b) && ag_is_leaf(b));
    ck_assert_int_eq(ag_version(w), 1);
    ck_assert_int_eq(ag_version(b), 1);
    ck_assert_ptr_null(ag_grad(w));
    tc_module_free(l);
}
END_TEST

/* torch.manual_seed(7); nn.Linear(3, 5, bias=False).weight, then
   torch.rand(2): the weight's 15 draws, and no more, were taken. The same
   from a generator of our own seeded 7 (nn.Linear has no generator
   argument; ours draws from the one it is given). */
START_TEST(test_nn_linear_init_no_bias)
{
    static const uint32_t weight[] = { 1025846248u, 3199341007u, 1044136200u, 1043956312u,
                                       3198025279u, 3182507903u, 3199020086u, 1041852138u,
                                       3189719170u, 1053797397u, 1053939778u, 1030809576u,
                                       3195800414u, 3199049789u, 3179403819u };
    tc_manual_seed(7);
    tc_module *l = tc_nn_linear(3, 5, false, NULL);
    ck_assert_int_eq(tc_module_num_parameters(l), 1);
    ck_assert_str_eq(tc_module_parameter_name(l, 0), "weight");
    nn_expect_bits(tc_module_parameter(l, 0), weight, 15);
    ck_assert_uint_eq(nn_next_rand_bits(), 1052243028u);
    ck_assert_uint_eq(nn_next_rand_bits(), 1060661978u);
    tc_module_free(l);

    tc_generator g;
    tc_generator_init(&g, 7);
    tc_manual_seed(99);                           /* must not matter */
    l = tc_nn_linear(3, 5, false, &g);
    nn_expect_bits(tc_module_parameter(l, 0), weight, 15);
    tc_module_free(l);
}
END_TEST

/* torch.manual_seed(0); nn.Sequential(nn.Linear(64, 64), nn.ReLU(),
   nn.Linear(64, 10)) (chapter 10's model): the hash of each parameter,
   then torch.rand(1); torch.manual_seed(123); nn.Linear(784, 128),
   nn.Linear(128, 10) (the benchmark's model); torch.manual_seed(2**32 + 9):
   only the seed's low 32 bits seed mt19937. */
START_TEST(test_nn_linear_init_hashes)
{
    static const struct { const char *name; uint64_t hash; } want[] = {
        { "0.weight", 17784345429139890u }, { "0.bias", 4256720362058u },
        { "2.weight", 428038789837344u }, { "2.bias", 127415457294u } };
    tc_manual_seed(0);
    tc_module *m = tc_nn_sequential(3, (tc_module *[]){ tc_nn_linear(64, 64, true, NULL),
                                                        tc_nn_relu(),
                                                        tc_nn_linear(64, 10, true, NULL) });
    ck_assert_ptr_nonnull(m);
    ck_assert_int_eq(tc_module_num_parameters(m), 4);
    for (int i = 0; i < 4; i++) {
        ck_assert_str_eq(tc_module_parameter_name(m, i), want[i].name);
        ck_assert_uint_eq(nn_hash(tc_module_parameter(m, i)), want[i].hash);
    }
    ck_assert_uint_eq(nn_next_rand_bits(), 1042753460u);
    tc_module_free(m);

    tc_manual_seed(123);
    tc_module *a = tc_nn_linear(784, 128, true, NULL), *b = tc_nn_linear(128, 10, true, NULL);
    ck_assert_uint_eq(nn_hash(tc_module_parameter(a, 0)), 10476074164672463445u);
    ck_assert_uint_eq(nn_hash(tc_module_parameter(a, 1)), 17608698278273u);
    ck_assert_uint_eq(nn_hash(tc_module_parameter(b, 0)), 1756741934328737u);
    ck_assert_uint_eq(nn_hash(tc_module_parameter(b, 1)), 129373665142u);
    tc_module_free(a);
    tc_module_free(b);

    static const uint32_t w2[] = { 1046583708u, 3197065683u, 3169380249u, 1053349639u };
    static const uint32_t b2[] = { 1058492858u, 1058802947u };
    tc_manual_seed((UINT64_C(1) << 32) + 9);
    m = tc_nn_linear(2, 2, true, NULL);
    nn_expect_bits(tc_module_parameter(m, 0), w2, 4);
    nn_expect_bits(tc_module_parameter(m, 1), b2, 2);
    tc_module_free(m);
}
END_TEST

/* torch.manual_seed(5); nn.Linear(0, 3): the weight (3, 0) draws nothing
   (PyTorch warns "Initializing zero-element tensors is a no-op"), the bias
   is uniform in [0, 0): zeros, but three draws are consumed, as torch.rand(1)
   afterwards shows; nn.Linear(3, 0) draws nothing at all. Negative sizes:
   torch.empty's message, for the weight's shape (out, in). */
START_TEST(test_nn_linear_init_edges)
{
    static const uint32_t zeros[] = { 0, 0, 0 };
    tc_manual_seed(5);
    tc_module *l = tc_nn_linear(0, 3, true, NULL);
    ASSERT_SIZES(tc_module_parameter(l, 0), 3, 0);
    nn_expect_bits(tc_module_parameter(l, 1), zeros, 3);
    ck_assert_uint_eq(nn_next_rand_bits(), 1062332093u);
    tc_module_free(l);
    tc_manual_seed(5);
    l = tc_nn_linear(3, 0, true, NULL);
    ASSERT_SIZES(tc_module_parameter(l, 0), 0, 3);
    ASSERT_SIZES(tc_module_parameter(l, 1), 0);
    ck_assert_uint_eq(nn_next_rand_bits(), 1062505315u);
    tc_module_free(l);

    tc_clear_error();
    ck_assert_ptr_null(tc_nn_linear(-1, 3, true, NULL));
    ck_assert_str_eq(tc_error(), "Trying to create tensor with negative dimension -1: [3, -1]");
    tc_clear_error();
    ck_assert_ptr_null(tc_nn_linear(3, -1, false, NULL));
    ck_assert_str_eq(tc_error(), "Trying to create tensor with negative dimension -1: [-1, 3]");
    tc_clear_error();
}
END_TEST

/* ------------------------------------------------------ forward, backward */

/* torch.manual_seed(0); m = nn.Sequential(nn.Linear(4, 6), nn.ReLU(),
   nn.Linear(6, 3)); x = tensor([((i * 7) % 11) / 10 - 0.5 for i in
   range(20)]).view(5, 4).requires_grad_(); target = [0, 2, 1, 1, 0];
   out = m(x); loss = F.cross_entropy(out, target); loss.backward(). */
static const double nn_mlp_out[] = {
    -0.20405404269695282, 0.1898401528596878, -0.007078766822814941, -0.2731872797012329,
    0.04869416356086731, 0.1583952009677887, -0.36910656094551086, 0.035932619124650955,
    0.10729511082172394, -0.2610607147216797, 0.05356714129447937, 0.15467016398906708,
    -0.3546160161495209, 0.047276925295591354, 0.10631506145000458 };
static const double nn_mlp_grad_w0[] = {
    -0.014757052063941956, 0.01315644197165966, -0.0027941258158534765, -0.0187446940690279,
    0.029969647526741028, -0.021153021603822708, -0.01882138103246689, -0.007056740578263998,
    -0.010890855453908443, 0.0026712340768426657, -0.01690182089805603, 0.028299471363425255,
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
    -0.027392685413360596, 0.010957074351608753, -0.010957074351608753, 0.027392685413360596 };
static const double nn_mlp_grad_b0[] = { 0.03987642005085945, -0.16263675689697266,
                                         -0.020036550238728523, 0.0, 0.0,
                                         0.05478537082672119 };
static const double nn_mlp_grad_w2[] = {
    -0.015399842523038387, -0.054629042744636536, -0.09189552068710327, 0.0, 0.0,
    -0.01069976668804884, -0.015952177345752716, 0.02768600359559059, -0.011885707266628742,
    0.0, 0.0, 0.005874933674931526, 0.03135201707482338, 0.026943033561110497,
    0.10378120839595795, 0.0, 0.0, 0.004824831150472164 };
static const double nn_mlp_grad_b2[] = { -0.14576417207717896, -0.03271469473838806,
                                         0.17847886681556702 };
static const double nn_mlp_grad_x[] = {
    0.017778949812054634, 0.020723801106214523, -0.010265807621181011, -0.0020302513148635626,
    -0.0015593853313475847, 0.004649696871638298, -0.00531040271744132, -0.0034539916086941957,
    0.002519383328035474, -0.00032959491363726556, -0.0025626386050134897, -0.004469495732337236,
    0.013653159141540527, -0.015613195486366749, 0.009664993733167648, -0.01668676920235157,
    0.009617302566766739, -0.00044550985330715775, -0.008934780955314636, -0.0300417710095644 };

#define NN_TOL TESTING_TOL(1e-5, 1e-6)

/* torch.arange(n.).view(sizes), float32, kept until the test ends. */
#define NN_GRID(...) K(testing_grid(TC_SHAPE(__VA_ARGS__)))

/* The call fails (returns NULL) with some message recorded. */
#define NN_FAILS(call)                                                     \
    do {                                                                   \
        tc_clear_error();                                                  \
        ck_assert_ptr_null(call);                                          \
        ck_assert_ptr_nonnull(tc_error());                                 \
        tc_clear_error();                                                  \
    } while (0)

/* ((i * 7) % 11) / 10 - 0.5 for i < n, float32, in the given shape. */
static tc_tensor *nn_input(tc_shape shape)
{
    double v[64];
    int64_t n = testing_numel(shape);

    ck_assert_int_le(n, 64);
    for (int64_t i = 0; i < n; i++)
        v[i] = (double)((i * 7) % 11) / 10 - 0.5;
    return testing_tensor(shape, TC_FLOAT32, v);
}

static const int64_t nn_target[] = { 0, 2, 1, 1, 0 };

START_TEST(test_nn_mlp_forward_backward)
{
    tc_manual_seed(0);
    tc_module *m = tc_nn_sequential(3, (tc_module *[]){ tc_nn_linear(4, 6, true, NULL),
                                                        tc_nn_relu(),
                                                        tc_nn_linear(6, 3, true, NULL) });
    tc_tensor *x = nn_input(TC_SHAPE(5, 4));
    ck_assert_int_eq(ag_set_requires_grad(x, true), 0);
    tc_tensor *out = K(tc_module_forward(m, x));
    testing_expect_tensor(__LINE__, "m(x)", out, TC_FLOAT32, TC_SHAPE(5, 3), nn_mlp_out, NN_TOL);
    ck_assert_str_eq(ag_node_type_name(ag_grad_fn(out)), "AddmmBackward0");
    tc_tensor *loss = K(ag_cross_entropy(out, testing_int64_tensor(TC_SHAPE(5), nn_target), NULL,
                                         TC_REDUCTION_MEAN, -100, 0.0));
    testing_expect_values(__LINE__, "loss", loss, 1, (const double[]){ 1.1399619579315186 },
                          NN_TOL);
    ck_assert_int_eq(ag_backward(loss, NULL, false), 0);
    testing_expect_values(__LINE__, "0.weight.grad", ag_grad(tc_module_parameter(m, 0)), 24,
                          nn_mlp_grad_w0, NN_TOL);
    testing_expect_values(__LINE__, "0.bias.grad", ag_grad(tc_module_parameter(m, 1)), 6,
                          nn_mlp_grad_b0, NN_TOL);
    testing_expect_values(__LINE__, "2.weight.grad", ag_grad(tc_module_parameter(m, 2)), 18,
                          nn_mlp_grad_w2, NN_TOL);
    testing_expect_values(__LINE__, "2.bias.grad", ag_grad(tc_module_parameter(m, 3)), 3,
                          nn_mlp_grad_b2, NN_TOL);
    testing_expect_values(__LINE__, "x.grad", ag_grad(x), 20, nn_mlp_grad_x, NN_TOL);
    /* The weight's gradient was kept as the product made it: contiguous
       with the weight's strides. */
    ASSERT_STRIDES(ag_grad(tc_module_parameter(m, 0)), 4, 1);
    ASSERT_STRIDES(ag_grad(tc_module_parameter(m, 2)), 6, 1);
    tc_module_free(m);
}
END_TEST

/* torch.manual_seed(0); lin = nn.Linear(4, 6); base = (the values of
   nn_input).view(4, 5).requires_grad_(); y = lin(base.t()) (a
   column-major input); (y * torch.arange(30.).view(5, 6)).sum().backward(). */
START_TEST(test_nn_linear_column_major_input)
{
    static const double y_want[] = {
        -0.154831200838089, 0.14960716664791107, 0.44051462411880493, -0.10319238901138306,
        -0.4914822578430176, -0.29423949122428894, 0.3421005308628082, -0.0459570437669754,
        0.6018242835998535, -0.5943272113800049, 0.07957381010055542, 0.015019938349723816,
        -0.309335321187973, 0.24801906943321228, 0.39207813143730164, -0.4021139144897461,
        -0.5091891884803772, -0.033821992576122284, -0.10744758695363998, -0.09503169357776642,
        0.40785089135169983, -0.528993546962738, -0.2681456208229065, -0.18127591907978058,
        -0.059072963893413544, -0.08965826034545898, 0.45175260305404663, -0.7214094400405884,
        -0.2873914837837219, -0.18497595191001892 };
    static const double base_grad[] = {
        -0.01563084125518799, -2.050175189971924, -4.084719181060791, -6.119264125823975,
        -8.153807640075684, 2.681283473968506, 8.193309783935547, 13.70533561706543,
        19.217363357543945, 24.729389190673828, -2.8008368015289307, -10.123944282531738,
        -17.447050094604492, -24.770158767700195, -32.093265533447266, 1.255298376083374,
        1.8861311674118042, 2.5169639587402344, 3.147796154022217, 3.7786293029785156 };
    static const double w_grad[] = {
        10.199999809265137, 2.4000000953674316, 7.800000190734863, -6.600000381469727,
        10.300000190734863, 2.4000003337860107, 7.700000286102295, -6.800000190734863,
        10.40000057220459, 2.4000000953674316, 7.600000381469727, -7.0,
        10.5, 2.4000000953674316, 7.499999523162842, -7.200000286102295,
        10.600000381469727, 2.4000003337860107, 7.400000095367432, -7.400000095367432,
        10.699999809265137, 2.4000000953674316, 7.300000190734863, -7.600000381469727 };
    static const double b_grad[] = { 60, 65, 70, 75, 80, 85 };
    tc_manual_seed(0);
    tc_module *lin = tc_nn_linear(4, 6, true, NULL);
    tc_tensor *base = nn_input(TC_SHAPE(4, 5));
    ck_assert_int_eq(ag_set_requires_grad(base, true), 0);
    tc_tensor *xt = K(ag_t(base));
    tc_tensor *y = K(tc_module_forward(lin, xt));
    testing_expect_tensor(__LINE__, "lin(base.t())", y, TC_FLOAT32, TC_SHAPE(5, 6), y_want,
                          NN_TOL);
    tc_tensor *weights = K(tc_view(K(tc_arange(0.0, 30.0, 1.0)), TC_SHAPE(5, 6)));
    tc_tensor *s = K(ag_sum(K(ag_mul(y, weights))));
    ck_assert_int_eq(ag_backward(s, NULL, false), 0);
    testing_expect_tensor(__LINE__, "base.grad", ag_grad(base), TC_FLOAT32, TC_SHAPE(4, 5),
                          base_grad, NN_TOL);
    ASSERT_STRIDES(ag_grad(base), 5, 1);
    testing_expect_values(__LINE__, "weight.grad", ag_grad(tc_module_parameter(lin, 0)), 24,
                          w_grad, NN_TOL);
    testing_expect_values(__LINE__, "bias.grad", ag_grad(tc_module_parameter(lin, 1)), 6, b_grad,
                          NN_TOL);
    tc_module_free(lin);
}
END_TEST

/* The other inputs, through at::linear's other cases, with lin as above
   and x3 = torch.arange(24.).view(2, 3, 4) / 10: lin(x3) (contiguous 3-D:
   views around addmm), lin(x3.transpose(0, 1)) (matmul, then add_),
   lin(x3[0, 0]) (1-D), F.linear(x3[0], lin.weight) (no bias). */
START_TEST(test_nn_linear_other_ranks)
{
    static const double y3[] = {
        -0.24646487832069397, 0.1832670271396637, 0.40626260638237, -0.532615065574646,
        -0.4178813695907593, 0.006603524088859558, -0.4524703323841095, 0.3144828677177429,
        0.3416806161403656, -0.9311770796775818, -0.4414905309677124, 0.3538268506526947,
        -0.6584758162498474, 0.44569873809814453, 0.2770986258983612, -1.3297390937805176,
        -0.4650997519493103, 0.7010502219200134, -0.8644813299179077, 0.5769146084785461,
        0.2125166356563568, -1.7283012866973877, -0.4887089133262634, 1.0482735633850098,
        -1.0704867839813232, 0.708130419254303, 0.1479346752166748, -2.1268632411956787,
        -0.5123180150985718, 1.3954968452453613, -1.2764922380447388, 0.8393462896347046,
        0.08335265517234802, -2.5254251956939697, -0.5359272956848145, 1.742720127105713 };
    static const int rows_t[] = { 0, 3, 1, 4, 2, 5 };    /* x3.transpose(0, 1)'s rows in y3 */
    static const double nobias[] = {
        -0.1658731997013092, 0.1303599774837494, -0.04647548869252205, -0.06877987831830978,
        -0.10311239957809448, 0.13318614661693573, -0.37187865376472473, 0.2615758180618286,
        -0.11105748265981674, -0.46734189987182617, -0.1267215758562088, 0.4804094731807709,
        -0.5778841376304626, 0.3927916884422302, -0.17563948035240173, -0.8659039735794067,
        -0.15033076703548431, 0.8276328444480896 };
    double yt[36];
    tc_manual_seed(0);
    tc_module *lin = tc_nn_linear(4, 6, true, NULL);
    tc_tensor *w = tc_module_parameter(lin, 0), *b = tc_module_parameter(lin, 1);
    tc_tensor *x3 = K(tc_div_scalar(K(tc_view(K(tc_arange(0.0, 24.0, 1.0)), TC_SHAPE(2, 3, 4))),
                                    10.0));

    tc_tensor *y = K(ag_linear(x3, w, b));
    testing_expect_tensor(__LINE__, "lin(x3)", y, TC_FLOAT32, TC_SHAPE(2, 3, 6), y3, NN_TOL);
    ck_assert_str_eq(ag_node_type_name(ag_grad_fn(y)), "ViewBackward0");
    ck_assert_int_eq(ag_version(y), 0);

    for (int r = 0; r < 6; r++)
        memcpy(yt + 6 * r, y3 + 6 * rows_t[r], 6 * sizeof(double));
    y = K(ag_linear(K(tc_transpose(x3, 0, 1)), w, b));
    testing_expect_tensor(__LINE__, "lin(x3.transpose(0, 1))", y, TC_FLOAT32,
                          TC_SHAPE(3, 2, 6), yt, NN_TOL);
    ck_assert_str_eq(ag_node_type_name(ag_grad_fn(y)), "AddBackward0");
    ck_assert_int_eq(ag_version(y), 1);                 /* output.add_(bias) */

    y = K(ag_linear(K(tc_select(K(tc_select(x3, 0, 0)), 0, 0)), w, b));
    testing_expect_tensor(__LINE__, "lin(x3[0, 0])", y, TC_FLOAT32, TC_SHAPE(6), y3, NN_TOL);
    ck_assert_str_eq(ag_node_type_name(ag_grad_fn(y)), "AddBackward0");
    ck_assert_int_eq(ag_version(y), 2);                 /* squeeze_, then add_ */

    y = K(ag_linear(K(tc_select(x3, 0, 0)), w, NULL));
    testing_expect_tensor(__LINE__, "F.linear(x3[0], w)", y, TC_FLOAT32, TC_SHAPE(3, 6), nobias,
                          NN_TOL);
    ck_assert_str_eq(ag_node_type_name(ag_grad_fn(y)), "MmBackward0");
    tc_module_free(lin);
}
END_TEST

/* ------------------------------------------------------------- the graph */

/* The type name of edge i of fn's next_functions, "None" for no node. */
static const char *nn_next(const ag_node *fn, int i)
{
    ag_edge e = ag_node_next(fn, i);
    ck_assert_int_eq(e.input_nr, 0);
    return e.node == NULL ? "None" : ag_node_type_name(e.node);
}

/* x = torch.randn(3, 4); w = torch.randn(5, 4, requires_grad=True);
   b = torch.randn(5, requires_grad=True); F.linear(x, w, b).grad_fn is
   AddmmBackward0 with next_functions ((AccumulateGrad, 0), (None, 0),
   (TBackward0, 0)), TBackward0's ((AccumulateGrad, 0),) (w's); with x
   requiring grad the middle one is x's AccumulateGrad; F.linear(x, w) is
   MmBackward0 ((AccumulateGrad, 0), (TBackward0, 0)); x3 (2, 3, 4)
   contiguous: ViewBackward0 ((AddmmBackward0, 0),), the addmm's middle edge
   ViewBackward0; under no_grad, or with nothing requiring grad, no grad_fn. */
START_TEST(test_nn_linear_graph)
{
    tc_tensor *x = NN_GRID(3, 4);
    tc_tensor *w = K(tc_div_scalar(NN_GRID(5, 4), 20.0));
    tc_tensor *b = NN_GRID(5);
    ck_assert_int_eq(ag_set_requires_grad(w, true), 0);
    ck_assert_int_eq(ag_set_requires_grad(b, true), 0);

    tc_tensor *y = K(ag_linear(x, w, b));
    ag_node *fn = ag_grad_fn(y);
    ck_assert_str_eq(ag_node_type_name(fn), "AddmmBackward0");
    ck_assert_str_eq(ag_node_name(fn), "AddmmBackward0");
    ck_assert_int_eq(ag_node_num_next(fn), 3);
    ck_assert_str_eq(nn_next(fn, 0), "AccumulateGrad");
    ck_assert_ptr_eq(ag_node_variable(ag_node_next(fn, 0).node), b);
    ck_assert_str_eq(nn_next(fn, 1), "None");
    ck_assert_str_eq(nn_next(fn, 2), "TBackward0");
    ag_node *t = ag_node_next(fn, 2).node;
    ck_assert_int_eq(ag_node_num_next(t), 1);
    ck_assert_ptr_eq(ag_node_variable(ag_node_next(t, 0).node), w);
    char *r = ag_repr(y);
    ck_assert_ptr_nonnull(r);
    ck_assert_ptr_nonnull(strstr(r, "grad_fn=<AddmmBackward0>)"));
    free(r);

    ck_assert_int_eq(ag_set_requires_grad(x, true), 0);
    y = K(ag_linear(x, w, b));
    ck_assert_ptr_eq(ag_node_variable(ag_node_next(ag_grad_fn(y), 1).node), x);

    y = K(ag_linear(x, w, NULL));
    fn = ag_grad_fn(y);
    ck_assert_str_eq(ag_node_type_name(fn), "MmBackward0");
    ck_assert_int_eq(ag_node_num_next(fn), 2);
    ck_assert_str_eq(nn_next(fn, 0), "AccumulateGrad");
    ck_assert_str_eq(nn_next(fn, 1), "TBackward0");

    tc_tensor *x3 = NN_GRID(2, 3, 4);
    ck_assert_int_eq(ag_set_requires_grad(x3, true), 0);
    y = K(ag_linear(x3, w, b));
    fn = ag_grad_fn(y);
    ck_assert_str_eq(ag_node_type_name(fn), "ViewBackward0");
    ck_assert_str_eq(nn_next(fn, 0), "AddmmBackward0");
    fn = ag_node_next(fn, 0).node;
    ck_assert_str_eq(nn_next(fn, 0), "AccumulateGrad");
    ck_assert_str_eq(nn_next(fn, 1), "ViewBackward0");
    ck_assert_str_eq(nn_next(fn, 2), "TBackward0");

    bool previous = ag_set_grad_enabled(false);
    y = K(ag_linear(x, w, b));
    ag_set_grad_enabled(previous);
    ck_assert_ptr_null(ag_grad_fn(y));
    ck_assert(!ag_requires_grad(y));
    tc_tensor *w2 = NN_GRID(5, 4), *b2 = NN_GRID(5);
    y = K(ag_linear(NN_GRID(3, 4), w2, b2));
    ck_assert_ptr_null(ag_grad_fn(y));
}
END_TEST

/* What the node saved, and PyTorch's messages when it cannot be used
   (torch 1.13, x (3, 4) and w (5, 4), b (5) requiring grad; y =
   F.linear(x, w, b)): a second backward without retain_graph; x changed in
   place before the backward ("[torch.FloatTensor [3, 4]] is at version 1;
   expected version 0 instead"); w changed ("[torch.FloatTensor [4, 5]],
   which is output 0 of AsStridedBackward0, is at version 1"). With retain_graph, the gradients of two
   backward calls add up. */
START_TEST(test_nn_linear_saved)
{
    static const char second[] =
        "Trying to backward through the graph a second time (or directly access saved "
        "tensors after they have already been freed). Saved intermediate values of the graph "
        "are freed when you call .backward() or autograd.grad(). Specify retain_graph=True if "
        "you need to backward through the graph a second time or if you need to access saved "
        "tensors after calling backward.";
    static const char changed[] =
        "one of the variables needed for gradient computation has been modified by an inplace "
        "operation: [torch.FloatTensor [3, 4]] is at version 1; expected version 0 instead. "
        "Hint: enable anomaly detection to find the operation that failed to compute its "
        "gradient, with torch.autograd.set_detect_anomaly(True).";
    static const char changed_view[] =
        "one of the variables needed for gradient computation has been modified by an inplace "
        "operation: [torch.FloatTensor [4, 5]], which is output 0 of AsStridedBackward0, is at "
        "version 1; expected version 0 instead. Hint: enable anomaly detection to find the "
        "operation that failed to compute its gradient, with "
        "torch.autograd.set_detect_anomaly(True).";
    tc_tensor *x = NN_GRID(3, 4);
    tc_tensor *w = K(tc_div_scalar(NN_GRID(5, 4), 20.0));
    tc_tensor *b = NN_GRID(5);
    ck_assert_int_eq(ag_set_requires_grad(x, true), 0);
    ck_assert_int_eq(ag_set_requires_grad(w, true), 0);
    ck_assert_int_eq(ag_set_requires_grad(b, true), 0);

    tc_tensor *s = K(ag_sum(K(ag_linear(x, w, b))));
    ck_assert_int_eq(ag_backward(s, NULL, true), 0);
    ck_assert_int_eq(ag_backward(s, NULL, false), 0);
    /* d sum / d b = 3 (rows) per backward; d / d w[o][i] = sum over rows of x[r][i] */
    testing_expect_values(__LINE__, "b.grad", ag_grad(b), 5, (const double[]){ 6, 6, 6, 6, 6 },
                          NN_TOL);
    double w_grad[20];
    for (int k = 0; k < 20; k++)
        w_grad[k] = 2 * (12 + 3 * (k % 4));
    testing_expect_values(__LINE__, "w.grad", ag_grad(w), 20, w_grad, NN_TOL);
    tc_clear_error();
    ck_assert_int_eq(ag_backward(s, NULL, false), -1);
    ck_assert_str_eq(tc_error(), second);
    tc_clear_error();

    s = K(ag_sum(K(ag_linear(x, w, b))));
    bool previous = ag_set_grad_enabled(false);
    tc_release(ag_mul_(x, K(tc_number(2.0))));
    ag_set_grad_enabled(previous);
    ck_assert_int_eq(ag_backward(s, NULL, false), -1);
    ck_assert_str_eq(tc_error(), changed);
    tc_clear_error();

    /* w changed: the node saved weight.t(), a view, whose grad_fn PyTorch
       regenerates from the base when its message asks for it. */
    s = K(ag_sum(K(ag_linear(x, w, b))));
    previous = ag_set_grad_enabled(false);
    tc_release(ag_add_(w, K(tc_number(1.0))));
    ag_set_grad_enabled(previous);
    ck_assert_int_eq(ag_backward(s, NULL, false), -1);
    ck_assert_str_eq(tc_error(), changed_view);
    tc_clear_error();
}
END_TEST

/* ------------------------------------------------------------- errors */

/* F.linear's messages, as torch 1.13 gave them for these arguments; the
   checks come in addmm's order (bias dtype, input dtype, mat2 a matrix,
   sizes), t() first of all, expand last. */
START_TEST(test_nn_linear_errors)
{
    tc_tensor *w = NN_GRID(5, 4), *b = NN_GRID(5);
    tc_tensor *x = NN_GRID(3, 4), *x6 = NN_GRID(3, 6);
    tc_tensor *xd = K(tc_zeros(TC_SHAPE(3, 4), TC_FLOAT64));
    tc_tensor *x6d = K(tc_zeros(TC_SHAPE(3, 6), TC_FLOAT64));
    tc_tensor *bd = K(tc_zeros(TC_SHAPE(5), TC_FLOAT64));
    tc_tensor *wd = K(tc_zeros(TC_SHAPE(5, 4), TC_FLOAT64));
    tc_tensor *xl = K(tc_zeros(TC_SHAPE(3, 4), TC_INT64));

    EXPECT_FAILS(ag_linear(x6, w, b), "mat1 and mat2 shapes cannot be multiplied (3x6 and 4x5)");
    EXPECT_FAILS(ag_linear(x6, w, NULL),
                 "mat1 and mat2 shapes cannot be multiplied (3x6 and 4x5)");
    EXPECT_FAILS(ag_linear(x, w, NN_GRID(6)),
                 "The expanded size of the tensor (5) must match the existing size (6) at "
                 "non-singleton dimension 1.  Target sizes: [3, 5].  Tensor sizes: [6]");
    EXPECT_FAILS(ag_linear(x, w, NN_GRID(5, 1)),
                 "The expanded size of the tensor (3) must match the existing size (5) at "
                 "non-singleton dimension 0.  Target sizes: [3, 5].  Tensor sizes: [5, 1]");
    EXPECT_FAILS(ag_linear(x, w, NN_GRID(4, 3, 5)),
                 "expand(torch.FloatTensor{[4, 3, 5]}, size=[3, 5]): the number of sizes "
                 "provided (2) must be greater or equal to the number of dimensions in the "
                 "tensor (3)");
    EXPECT_FAILS(ag_linear(x6d, w, b), "mat1 and mat2 must have the same dtype");
    EXPECT_FAILS(ag_linear(x, w, bd), "self and mat2 must have the same dtype");
    EXPECT_FAILS(ag_linear(x, wd, b), "self and mat2 must have the same dtype");
    EXPECT_FAILS(ag_linear(xd, w, bd), "self and mat2 must have the same dtype");
    EXPECT_FAILS(ag_linear(xl, w, b), "mat1 and mat2 must have the same dtype");
    EXPECT_FAILS(ag_linear(x6, w, K(tc_zeros(TC_SHAPE(7), TC_FLOAT64))),
                 "self and mat2 must have the same dtype");
    EXPECT_FAILS(ag_linear(x, NN_GRID(4), b),
                 "mat2 must be a matrix, got 1-D tensor");
    tc_tensor *zero_d = K(tc_full(TC_SCALAR_SHAPE, 1.0, TC_FLOAT32));
    EXPECT_FAILS(ag_linear(x, zero_d, b), "mat2 must be a matrix, got 0-D tensor");
    EXPECT_FAILS(ag_linear(x, NN_GRID(2, 5, 4), b),
                 "t() expects a tensor with <= 2 dimensions, but self is 3D");
    EXPECT_FAILS(ag_linear(NN_GRID(6), w, b),
                 "mat1 and mat2 shapes cannot be multiplied (1x6 and 4x5)");
    EXPECT_FAILS(ag_linear(zero_d, w, b),
                 "both arguments to matmul need to be at least 1D, but they are 0D and 2D");
    EXPECT_FAILS(ag_linear(NN_GRID(2, 3, 4), NN_GRID(4), b),
                 "mat2 must be a matrix, got 1-D tensor");
    EXPECT_FAILS(ag_linear(NN_GRID(2, 3, 4), w, NN_GRID(7)),
                 "The expanded size of the tensor (5) must match the existing size (7) at "
                 "non-singleton dimension 1.  Target sizes: [6, 5].  Tensor sizes: [7]");
    NN_FAILS(ag_linear(NULL, w, b));
    NN_FAILS(ag_linear(x, NULL, b));

    /* PyTorch computes these: integers all through (no autograd), no bias
       with a 1-D weight, an empty batch. */
    tc_tensor *y = K(ag_linear(xl, K(tc_ones(TC_SHAPE(5, 4), TC_INT64)),
                               K(tc_ones(TC_SHAPE(5), TC_INT64))));
    ck_assert_ptr_nonnull(y);
    ck_assert_int_eq(y->dtype, TC_INT64);
    testing_expect_tensor(__LINE__, "long", y, TC_INT64, TC_SHAPE(3, 5),
                          (const double[]){ 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1 },
                          TESTING_TOL(0, 0));
    y = K(ag_linear(x, NN_GRID(4), NULL));
    testing_expect_tensor(__LINE__, "F.linear(x, arange(4.))", y, TC_FLOAT32, TC_SHAPE(3),
                          (const double[]){ 14, 38, 62 }, TESTING_TOL(0, 0));
    y = K(ag_linear(K(tc_zeros(TC_SHAPE(0, 4), TC_FLOAT32)), w, b));
    ASSERT_SIZES(y, 0, 5);
}
END_TEST

/* The modules' own errors: a NULL module (a constructor that failed)
   fails Sequential with that constructor's message and frees the others;
   a module given twice, or already in a container, is refused (PyTorch
   accepts both; our containers own their modules); forward with the wrong
   width is F.linear's message; parameter indexes out of range get Python's. */
START_TEST(test_nn_module_errors)
{
    tc_clear_error();
    ck_assert_ptr_null(tc_nn_sequential(2, (tc_module *[]){ tc_nn_linear(2, 2, true, NULL),
                                                           tc_nn_linear(-2, 2, true, NULL) }));
    ck_assert_str_eq(tc_error(), "Trying to create tensor with negative dimension -2: [2, -2]");
    tc_clear_error();

    tc_module *relu = tc_nn_relu();
    ck_assert_ptr_null(tc_nn_sequential(3, (tc_module *[]){ relu, tc_nn_linear(2, 2, true, NULL),
                                                           relu }));
    ck_assert_str_eq(tc_error(),
                     "nn.Sequential: module 2 appears twice (a container owns its modules)");
    tc_clear_error();

    tc_module *inner = tc_nn_linear(2, 3, true, NULL);
    tc_module *outer = tc_nn_sequential(1, &inner);
    ck_assert_ptr_nonnull(outer);
    ck_assert_ptr_null(tc_nn_sequential(2, (tc_module *[]){ tc_nn_relu(), inner }));
    ck_assert_str_eq(tc_error(), "nn.Sequential: module 1 is already in another container "
                                 "(a container owns its modules)");
    tc_clear_error();
    ck_assert_ptr_null(tc_nn_sequential(-1, NULL));
    ck_assert_str_eq(tc_error(), "nn.Sequential: expected a count >= 0 and a list of modules, "
                                 "got -1");
    tc_clear_error();

    EXPECT_FAILS(tc_module_forward(outer, NN_GRID(4, 3)),
                 "mat1 and mat2 shapes cannot be multiplied (4x3 and 2x3)");
    NN_FAILS(tc_module_forward(NULL, NN_GRID(4, 3)));
    EXPECT_FAILS(tc_module_parameter(outer, 2), "list index out of range");
    EXPECT_FAILS(tc_module_parameter(outer, -1), "list index out of range");
    tc_clear_error();
    ck_assert_ptr_null(tc_module_parameter_name(outer, 5));
    ck_assert_str_eq(tc_error(), "list index out of range");
    tc_clear_error();
    ck_assert_int_eq(tc_module_num_parameters(NULL), -1);
    ck_assert_ptr_null(tc_module_repr(NULL));
    ck_assert_int_eq(tc_module_zero_grad(NULL, true), -1);
    tc_clear_error();
    tc_module_free(outer);
    tc_module_free(NULL);
}
END_TEST

/* ---------------------------------------------- modules, repr, zero_grad */

/* print(nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Sequential(
   nn.Linear(3, 3, bias=False)))) and its named_parameters() names, in torch
   1.13; print(nn.Sequential()); an empty Sequential passes its input
   through. */
START_TEST(test_nn_repr_and_names)
{
    static const char nested[] = "Sequential(\n"
                                 "  (0): Linear(in_features=2, out_features=3, bias=True)\n"
                                 "  (1): ReLU()\n"
                                 "  (2): Sequential(\n"
                                 "    (0): Linear(in_features=3, out_features=3, bias=False)\n"
                                 "  )\n"
                                 ")";
    tc_module *inner = tc_nn_sequential(1, (tc_module *[]){ tc_nn_linear(3, 3, false, NULL) });
    tc_module *m = tc_nn_sequential(3, (tc_module *[]){ tc_nn_linear(2, 3, true, NULL),
                                                        tc_nn_relu(), inner });
    char *r = tc_module_repr(m);
    ck_assert_str_eq(r, nested);
    free(r);
    ck_assert_int_eq(tc_module_num_parameters(m), 3);
    ck_assert_str_eq(tc_module_parameter_name(m, 0), "0.weight");
    ck_assert_str_eq(tc_module_parameter_name(m, 1), "0.bias");
    ck_assert_str_eq(tc_module_parameter_name(m, 2), "2.0.weight");
    ck_assert_ptr_eq(tc_module_parameter(m, 2), tc_module_parameter(inner, 0));
    tc_module_free(m);

    m = tc_nn_sequential(0, NULL);
    r = tc_module_repr(m);
    ck_assert_str_eq(r, "Sequential()");
    free(r);
    ck_assert_int_eq(tc_module_num_parameters(m), 0);
    tc_tensor *x = NN_GRID(2);
    tc_tensor *y = K(tc_module_forward(m, x));
    ck_assert_ptr_eq(y, x);
    tc_module_free(m);

    m = tc_nn_relu();
    r = tc_module_repr(m);
    ck_assert_str_eq(r, "ReLU()");
    free(r);
    y = K(tc_module_forward(m, K(tc_sub_scalar(NN_GRID(4), 1.5))));
    testing_expect_values(__LINE__, "relu", y, 4, (const double[]){ 0, 0, 0.5, 1.5 },
                          TESTING_TOL(0, 0));
    tc_module_free(m);
    m = tc_nn_linear(784, 128, true, NULL);
    r = tc_module_repr(m);
    ck_assert_str_eq(r, "Linear(in_features=784, out_features=128, bias=True)");
    free(r);
    tc_module_free(m);
}
END_TEST

/* zero_grad(): grads zeroed in place (the same tensors), then with
   set_to_none dropped; a backward after zero_grad() adds into the zeros. */
START_TEST(test_nn_zero_grad)
{
    tc_module *m = tc_nn_sequential(2, (tc_module *[]){ tc_nn_linear(3, 2, true, NULL),
                                                        tc_nn_relu() });
    tc_tensor *x = NN_GRID(4, 3);
    ck_assert_int_eq(tc_module_zero_grad(m, false), 0);    /* no grads yet: nothing */
    ck_assert_int_eq(ag_backward(K(ag_sum(K(tc_module_forward(m, x)))), NULL, false), 0);
    tc_tensor *gb = ag_grad(tc_module_parameter(m, 1));
    ck_assert_ptr_nonnull(gb);
    int64_t version = ag_version(gb);
    ck_assert_int_eq(tc_module_zero_grad(m, false), 0);
    ck_assert_ptr_eq(ag_grad(tc_module_parameter(m, 1)), gb);
    /* p.grad.zero_(): torch 1.13's model.zero_grad() bumps the version by 1 */
    ck_assert_int_eq(ag_version(gb), version + 1);
    testing_expect_values(__LINE__, "zeroed", gb, 2, (const double[]){ 0, 0 }, TESTING_TOL(0, 0));
    testing_expect_values(__LINE__, "zeroed w", ag_grad(tc_module_parameter(m, 0)), 6,
                          (const double[]){ 0, 0, 0, 0, 0, 0 }, TESTING_TOL(0, 0));
    /* all of x's rows are positive: bias' gradient is 4 where the ReLU passes */
    tc_tensor *w = tc_module_parameter(m, 0), *b = tc_module_parameter(m, 1);
    tc_tensor *pre = K(ag_linear(x, w, b));
    ck_assert_int_eq(ag_backward(K(ag_sum(K(tc_module_forward(m, x)))), NULL, false), 0);
    ck_assert_ptr_eq(ag_grad(b), gb);
    for (int j = 0; j < 2; j++) {
        int live = 0;
        for (int r = 0; r < 4; r++)
            live += testing_get(pre, IDX(r, j)) > 0;
        ck_assert_double_eq(testing_get(gb, IDX(j)), live);
    }
    ck_assert_int_eq(tc_module_zero_grad(m, true), 0);
    for (int i = 0; i < tc_module_num_parameters(m); i++)
        ck_assert_ptr_null(ag_grad(tc_module_parameter(m, i)));
    tc_module_free(m);
}
END_TEST

/* tc_parameter_zero_grad on a leaf laid out transposed (strides (1, 3)):
   its grad, made with the leaf's strides, fills its block of memory and
   is zeroed in place; set_to_none drops it; a leaf without grad is fine;
   NULL fails. */
START_TEST(test_nn_parameter_zero_grad)
{
    tc_tensor *p = K(ag_detach(K(tc_t(NN_GRID(3, 2)))));
    ck_assert_int_eq(ag_set_requires_grad(p, true), 0);
    ck_assert_int_eq(tc_parameter_zero_grad(p, false), 0);
    ck_assert_int_eq(ag_backward(K(ag_sum(K(ag_mul(p, p)))), NULL, false), 0);
    tc_tensor *g = ag_grad(p);
    ASSERT_STRIDES(g, 1, 2);
    testing_expect_values(__LINE__, "2p", g, 6, (const double[]){ 0, 4, 8, 2, 6, 10 },
                          TESTING_TOL(0, 0));
    int64_t version = ag_version(g);
    ck_assert_int_eq(tc_parameter_zero_grad(p, false), 0);
    ck_assert_ptr_eq(ag_grad(p), g);
    ck_assert_int_eq(ag_version(g), version + 1);
    testing_expect_values(__LINE__, "zeroed", g, 6, (const double[]){ 0, 0, 0, 0, 0, 0 },
                          TESTING_TOL(0, 0));
    ck_assert_int_eq(tc_parameter_zero_grad(p, true), 0);
    ck_assert_ptr_null(ag_grad(p));
    tc_clear_error();
    ck_assert_int_eq(tc_parameter_zero_grad(NULL, false), -1);
    ck_assert_ptr_nonnull(tc_error());
    tc_clear_error();
}
END_TEST

/* -------------------------------------------------------------- gradcheck */

/* The two-layer network linear, relu, linear in float64 as a function of
   (x, w1, b1, w2, b2); context: whether to pass x transposed (a
   column-major input) and w2 as a transposed tensor's transpose (a weight
   that is not contiguous, so weight.t() is not column-major). */
static tc_tensor *nn_two_layers(tc_tensor *const *in, void *context)
{
    bool odd_layouts = context != NULL;
    tc_tensor *x = odd_layouts ? ag_t(in[0]) : tc_retain(in[0]);
    tc_tensor *w2 = odd_layouts ? ag_t(in[3]) : tc_retain(in[3]);
    tc_tensor *h = ag_linear(x, in[1], in[2]);
    tc_tensor *a = ag_relu(h);
    tc_tensor *y = ag_linear(a, w2, in[4]);

    tc_release(x);
    tc_release(w2);
    tc_release(h);
    tc_release(a);
    return y;
}

/* A float64 leaf requiring grad: (i * 37 % 17) / 8 - 1 scaled by scale,
   in shape; kept. None is 0, so no ReLU input sits on its kink. */
static tc_tensor *nn_leaf64(tc_shape shape, double scale, int salt)
{
    double v[64];
    int64_t n = testing_numel(shape);

    for (int64_t i = 0; i < n; i++)
        v[i] = (((i + salt) * 37 % 17) / 8.0 - 1 + 0.03) * scale;
    tc_tensor *t = testing_tensor(shape, TC_FLOAT64, v);
    ck_assert_int_eq(ag_set_requires_grad(t, true), 0);
    return t;
}

START_TEST(test_nn_gradcheck_two_layers)
{
    ag_gradcheck_mismatch mismatch;
    tc_tensor *in[5] = { nn_leaf64(TC_SHAPE(3, 4), 1.0, 0), nn_leaf64(TC_SHAPE(5, 4), 0.5, 3),
                         nn_leaf64(TC_SHAPE(5), 0.25, 5), nn_leaf64(TC_SHAPE(2, 5), 0.5, 7),
                         nn_leaf64(TC_SHAPE(2), 0.25, 11) };
    ck_assert_int_eq(ag_gradcheck(nn_two_layers, NULL, 5, in, &mismatch), 0);
    ck_assert_int_eq(mismatch.input, -1);

    tc_tensor *odd[5] = { nn_leaf64(TC_SHAPE(4, 3), 1.0, 1), nn_leaf64(TC_SHAPE(5, 4), 0.5, 2),
                          nn_leaf64(TC_SHAPE(5), 0.25, 4), nn_leaf64(TC_SHAPE(5, 2), 0.5, 6),
                          nn_leaf64(TC_SHAPE(2), 0.25, 8) };
    ck_assert_int_eq(ag_gradcheck(nn_two_layers, (void *)1, 5, odd, &mismatch), 0);

    /* the network of a module's own parameters, converted to float64 */
    tc_manual_seed(3);
    tc_module *l1 = tc_nn_linear(4, 5, true, NULL), *l2 = tc_nn_linear(5, 2, true, NULL);
    tc_tensor *params[5] = { in[0] };
    for (int i = 0; i < 4; i++) {
        tc_module *l = i < 2 ? l1 : l2;
        tc_tensor *p = tc_module_parameter(l, i % 2);
        params[i + 1] = K(tc_empty_like_dtype(p, TC_FLOAT64));
        ck_assert_int_eq(tc_copy_(params[i + 1], p), 0);
        ck_assert_int_eq(ag_set_requires_grad(params[i + 1], true), 0);
    }
    ck_assert_int_eq(ag_gradcheck(nn_two_layers, NULL, 5, params, &mismatch), 0);
    tc_module_free(l1);
    tc_module_free(l2);
}
END_TEST

static void ch10_add_nn(Suite *s)
{
    TCase *tc = testing_tcase("nn", NULL, NULL);

    tcase_add_test(tc, test_nn_uniform_rounds_once);
    tcase_add_test(tc, test_nn_linear_init_bits);
    tcase_add_test(tc, test_nn_linear_init_no_bias);
    tcase_add_test(tc, test_nn_linear_init_hashes);
    tcase_add_test(tc, test_nn_linear_init_edges);
    tcase_add_test(tc, test_nn_mlp_forward_backward);
    tcase_add_test(tc, test_nn_linear_column_major_input);
    tcase_add_test(tc, test_nn_linear_other_ranks);
    tcase_add_test(tc, test_nn_linear_graph);
    tcase_add_test(tc, test_nn_linear_saved);
    tcase_add_test(tc, test_nn_linear_errors);
    tcase_add_test(tc, test_nn_module_errors);
    tcase_add_test(tc, test_nn_repr_and_names);
    tcase_add_test(tc, test_nn_zero_grad);
    tcase_add_test(tc, test_nn_parameter_zero_grad);
    tcase_add_test(tc, test_nn_gradcheck_two_layers);
    suite_add_tcase(s, tc);
}
