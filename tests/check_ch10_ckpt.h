/* check_ch10_ckpt.h: checkpoints (tc_checkpoint_save, tc_checkpoint_load).

   The format is checked against bytes written by hand from the chapter's
   table (and a SHA-256 from Python's hashlib), not against the writer;
   damaged files are made by a small writer of this file's own. PyTorch's
   load_state_dict messages were printed by torch 1.13 for the same
   models. Every refusal is checked to change nothing: the parameters'
   bits, the momentum buffers' bits and the options are compared with a
   copy taken before the call. The kill-and-resume test runs a training in
   a child process that SIGKILLs itself after step k, resumes from its
   last checkpoint in the parent, and compares the end with a run that was
   never interrupted, bit for bit. */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

/* ------------------------------------------------------------ a scratch directory */

static char cp_dir[64];

static void cp_setup(void)
{
    strcpy(cp_dir, "/tmp/tc-ckpt-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(cp_dir));
}

static void cp_teardown(void)
{
    DIR *d = opendir(cp_dir);
    char path[512];
    for (struct dirent *e; d != NULL && (e = readdir(d)) != NULL;) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        snprintf(path, sizeof path, "%s/%s", cp_dir, e->d_name);
        unlink(path);
    }
    if (d != NULL)
        closedir(d);
    rmdir(cp_dir);
}

/* cp_dir/name, in one of a few rotating buffers. */
static const char *cp_path(const char *name)
{
    static char paths[4][512];
    static int next;
    char *p = paths[next++ % 4];
    snprintf(p, 512, "%s/%s", cp_dir, name);
    return p;
}

/* A message naming a path, in one of a few rotating buffers. */
static const char *cp_msg(const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
static const char *cp_msg(const char *format, ...)
{
    static char texts[4][2048];
    static int next;
    char *t = texts[next++ % 4];
    va_list args;
    va_start(args, format);
    vsnprintf(t, 2048, format, args);
    va_end(args);
    return t;
}

static bool cp_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

static void cp_write(const char *path, const unsigned char *bytes, size_t n)
{
    FILE *f = fopen(path, "wb");
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(fwrite(bytes, 1, n, f), n);
    ck_assert_int_eq(fclose(f), 0);
}

/* The file's bytes (malloc'd) and their number. */
static unsigned char *cp_read(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    ck_assert_ptr_nonnull(f);
    unsigned char *bytes = malloc(1 << 20);
    ck_assert_ptr_nonnull(bytes);
    *n = fread(bytes, 1, 1 << 20, f);
    fclose(f);
    return bytes;
}

/* ------------------------------------------------------------ models and optimizers */

/* Sequential(Linear(s0, s1), ReLU(), Linear(s1, s2), ...) of n sizes,
   initialised from a generator seeded with seed; n == 2 and lone: a lone
   Linear. */
static tc_module *cp_mlp(int n, const int64_t *sizes, uint64_t seed, bool lone)
{
    tc_generator g;
    tc_module *layers[16];
    int k = 0;
    tc_generator_init(&g, seed);
    if (lone)
        return tc_nn_linear(sizes[0], sizes[1], true, &g);
    for (int i = 0; i + 1 < n; i++) {
        if (i > 0)
            layers[k++] = tc_nn_relu();
        layers[k++] = tc_nn_linear(sizes[i], sizes[i + 1], true, &g);
    }
    tc_module *m = tc_nn_sequential(k, layers);
    ck_assert_ptr_nonnull(m);
    return m;
}
#define CP_MLP(seed, ...) \
    cp_mlp((int)(sizeof(int64_t[]){ __VA_ARGS__ } / sizeof(int64_t)), \
           (const int64_t[]){ __VA_ARGS__ }, seed, false)

static tc_sgd *cp_sgd(tc_module *m, tc_sgd_options o)
{
    tc_tensor *params[16];
    int n = tc_module_num_parameters(m);
    for (int i = 0; i < n; i++)
        params[i] = tc_module_parameter(m, i);
    tc_sgd *opt = tc_sgd_new(n, params, o);
    ck_assert_msg(opt != NULL, "%s", tc_error());
    return opt;
}

/* Fill t with draws of g in [-1, 1). */
static void cp_fill(tc_tensor *t, tc_generator *g)
{
    ck_assert_int_eq(tc_uniform_(t, -1, 1, g), 0);
}

/* Give opt's parameters momentum buffers of random values, except
   those whose bit in `skip` is set. */
static void cp_buffers(tc_sgd *opt, uint64_t seed, unsigned skip)
{
    tc_generator g;
    tc_generator_init(&g, seed);
    for (int k = 0; k < tc_sgd_num_params(opt); k++) {
        if (skip >> k & 1u)
            continue;
        tc_tensor *b = tc_empty(tc_shape_of(tc_sgd_param(opt, k)), TC_FLOAT32);
        cp_fill(b, &g);
        ck_assert_int_eq(tc_sgd_set_momentum_buffer(opt, k, b), 0);
        tc_release(b);
    }
}

/* ------------------------------------------------------------ "nothing changed" */

/* A copy of everything a load may change: every parameter's bytes, every
   momentum buffer's bytes (or its absence), the options. */
typedef struct {
    int n, k;
    unsigned char *params[16], *buffers[16];
    size_t param_bytes[16], buffer_bytes[16];
    tc_sgd_options options;
} cp_state;

static unsigned char *cp_bytes_of(const tc_tensor *t, size_t *n)
{
    ck_assert(tc_is_contiguous(t));
    *n = (size_t)tc_numel(t) * tc_itemsize(t->dtype);
    unsigned char *copy = malloc(*n + 1);
    ck_assert_ptr_nonnull(copy);
    if (*n > 0)
        memcpy(copy, (const unsigned char *)t->storage->data +
                         t->storage_offset * (int64_t)tc_itemsize(t->dtype), *n);
    return copy;
}

static cp_state cp_take(const tc_module *m, const tc_sgd *opt)
{
    cp_state s = { .n = tc_module_num_parameters(m), .k = opt ? tc_sgd_num_params(opt) : 0 };
    for (int i = 0; i < s.n; i++)
        s.params[i] = cp_bytes_of(tc_module_parameter(m, i), &s.param_bytes[i]);
    for (int k = 0; k < s.k; k++) {
        const tc_tensor *b = tc_sgd_momentum_buffer(opt, k);
        s.buffers[k] = b ? cp_bytes_of(b, &s.buffer_bytes[k]) : NULL;
    }
    if (opt)
        s.options = tc_sgd_get_options(opt);
    return s;
}

static bool cp_same_options(tc_sgd_options a, tc_sgd_options b)
{
    return memcmp(&a.lr, &b.lr, 8) == 0 && memcmp(&a.momentum, &b.momentum, 8) == 0 &&
           memcmp(&a.dampening, &b.dampening, 8) == 0 &&
           memcmp(&a.weight_decay, &b.weight_decay, 8) == 0 && a.nesterov == b.nesterov &&
           a.maximize == b.maximize;
}

/* The state of m and opt now is s, bit for bit. */
static void cp_unchanged(const cp_state *s, const tc_module *m, const tc_sgd *opt,
                         const char *what)
{
    size_t n;
    for (int i = 0; i < s->n; i++) {
        unsigned char *now = cp_bytes_of(tc_module_parameter(m, i), &n);
        ck_assert_msg(n == s->param_bytes[i] && memcmp(now, s->params[i], n) == 0,
                      "%s: parameter %d changed", what, i);
        free(now);
    }
    for (int k = 0; k < s->k; k++) {
        const tc_tensor *b = tc_sgd_momentum_buffer(opt, k);
        ck_assert_msg((b == NULL) == (s->buffers[k] == NULL), "%s: buffer %d came or went",
                      what, k);
        if (b == NULL)
            continue;
        unsigned char *now = cp_bytes_of(b, &n);
        ck_assert_msg(n == s->buffer_bytes[k] && memcmp(now, s->buffers[k], n) == 0,
                      "%s: buffer %d changed", what, k);
        free(now);
    }
    if (opt)
        ck_assert_msg(cp_same_options(s->options, tc_sgd_get_options(opt)),
                      "%s: the options changed", what);
}

static void cp_state_free(cp_state *s)
{
    for (int i = 0; i < s->n; i++)
        free(s->params[i]);
    for (int k = 0; k < s->k; k++)
        free(s->buffers[k]);
}

/* load(path) into m and opt is refused with exactly `expected` (or, with
   prefix_only, a message that begins with it), and changes nothing. */
static void cp_refused(const char *path, tc_module *m, tc_sgd *opt, const char *expected,
                       bool prefix_only)
{
    cp_state before = cp_take(m, opt);
    int64_t epoch = -7, step = -7;
    tc_clear_error();
    int status = tc_checkpoint_load(path, m, opt, &epoch, &step);
    ck_assert_msg(status == -1, "%s: loaded", expected);
    const char *msg = tc_error();
    ck_assert_ptr_nonnull(msg);
    if (prefix_only)
        ck_assert_msg(strncmp(msg, expected, strlen(expected)) == 0, "\n got %s\nwant %s...", msg,
                      expected);
    else
        ck_assert_str_eq(msg, expected);
    ck_assert_int_eq(epoch, -7);
    ck_assert_int_eq(step, -7);
    cp_unchanged(&before, m, opt, expected);
    cp_state_free(&before);
    tc_clear_error();
}

/* -------------------------------------------------- the format, byte for byte */

/* Linear(2, 1) with weight [[0.5, -1.25]], bias [2.0]; SGD(lr=0.1,
   momentum=0.9, weight_decay=0.001, nesterov=True) whose weight has the
   momentum buffer [[0.25, -0.125]] and whose bias has none; epoch 3,
   step 70. The bytes as the chapter's table lays them out, written by
   hand (and by Python's struct.pack, which agreed); the last 32 are
   hashlib.sha256 of the 159 before them. */
static const unsigned char cp_golden[191] = {
    'T', 'C', '-', 'C', 'K', 'P', 'T', '\n',                 /* magic */
    0x01, 0x00, 0x00, 0x00,                                   /* version 1 */
    0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,           /* epoch 3 */
    0x46, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,           /* step 70 */
    0x02, 0x00, 0x00, 0x00,                                   /* 2 parameters */
    0x06, 0x00, 'w', 'e', 'i', 'g', 'h', 't',                 /* name */
    0x06, 0x02,                                               /* float32, 2 dims */
    0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,           /* 1 */
    0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,           /* 2 */
    0x00, 0x00, 0x00, 0x3f, 0x00, 0x00, 0xa0, 0xbf,           /* 0.5, -1.25 */
    0x04, 0x00, 'b', 'i', 'a', 's', 0x06, 0x01,               /* bias: float32, 1 dim */
    0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,           /* 1 */
    0x00, 0x00, 0x00, 0x40,                                   /* 2.0 */
    0x01,                                                     /* the optimizer follows */
    0x9a, 0x99, 0x99, 0x99, 0x99, 0x99, 0xb9, 0x3f,           /* lr 0.1 */
    0xcd, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xec, 0x3f,           /* momentum 0.9 */
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,           /* dampening 0 */
    0xfc, 0xa9, 0xf1, 0xd2, 0x4d, 0x62, 0x50, 0x3f,           /* weight_decay 0.001 */
    0x01, 0x00,                                               /* nesterov, not maximize */
    0x01, 0x00, 0x00, 0x00,                                   /* 1 momentum buffer */
    0x06, 0x00, 'w', 'e', 'i', 'g', 'h', 't', 0x06, 0x02,
    0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x80, 0x3e, 0x00, 0x00, 0x00, 0xbe,           /* 0.25, -0.125 */
    0x6a, 0xd1, 0x34, 0x4c, 0xea, 0xe4, 0x15, 0xaa,           /* SHA-256 */
    0xb3, 0x5c, 0x94, 0x76, 0x46, 0xdd, 0xd6, 0x38,
    0x21, 0x13, 0xc3, 0xc1, 0x50, 0x3d, 0xa6, 0x2e,
    0x3f, 0xa3, 0xe9, 0xe0, 0x18, 0x20, 0xa1, 0x5c,
};

static const tc_sgd_options cp_golden_options = {
    .lr = 0.1, .momentum = 0.9, .weight_decay = 0.001, .nesterov = true
};

static void cp_set(tc_tensor *t, const float *values)
{
    float *p = (float *)t->storage->data + t->storage_offset;
    memcpy(p, values, (size_t)tc_numel(t) * sizeof *p);
}

/* The golden checkpoint's model and optimizer (*opt) made in memory. */
static tc_module *cp_golden_model(tc_sgd **opt)
{
    tc_module *m = cp_mlp(2, (const int64_t[]){ 2, 1 }, 0, true);
    cp_set(tc_module_parameter(m, 0), (const float[]){ 0.5f, -1.25f });
    cp_set(tc_module_parameter(m, 1), (const float[]){ 2.0f });
    *opt = cp_sgd(m, cp_golden_options);
    tc_tensor *b = tc_from_data(TC_SHAPE(1, 2), TC_FLOAT32, (const float[]){ 0.25f, -0.125f });
    ck_assert_int_eq(tc_sgd_set_momentum_buffer(*opt, 0, b), 0);
    tc_release(b);
    return m;
}

START_TEST(test_ckpt_format_bytes)
{
    tc_sgd *opt;
    tc_module *m = cp_golden_model(&opt);
    const char *path = cp_path("golden.ckpt");
    ck_assert_msg(tc_checkpoint_save(path, m, opt, 3, 70) == 0, "%s", tc_error());
    size_t n;
    unsigned char *bytes = cp_read(path, &n);
    ck_assert_uint_eq(n, sizeof cp_golden);
    for (size_t i = 0; i < n; i++)
        ck_assert_msg(bytes[i] == cp_golden[i], "byte %zu: %02x, want %02x", i, bytes[i],
                      cp_golden[i]);
    free(bytes);
    ck_assert(!cp_exists(cp_path("golden.ckpt.tmp")));

    /* and the hand-written bytes load into another Linear(2, 1) */
    tc_module *other = cp_mlp(2, (const int64_t[]){ 2, 1 }, 9, true);
    tc_sgd *other_opt = cp_sgd(other, (tc_sgd_options){ .lr = 3 });
    cp_write(cp_path("hand.ckpt"), cp_golden, sizeof cp_golden);
    int64_t epoch, step;
    ck_assert_msg(tc_checkpoint_load(cp_path("hand.ckpt"), other, other_opt, &epoch, &step) == 0,
                  "%s", tc_error());
    ck_assert_int_eq(epoch, 3);
    ck_assert_int_eq(step, 70);
    cp_state want = cp_take(m, opt);
    cp_unchanged(&want, other, other_opt, "the hand-written checkpoint");
    ck_assert_ptr_null(tc_sgd_momentum_buffer(other_opt, 1));
    cp_state_free(&want);
    tc_sgd_free(other_opt);
    tc_module_free(other);
    tc_sgd_free(opt);
    tc_module_free(m);
}
END_TEST

/* ------------------------------------------------------------ round trip */

/* A 4-3-2 MLP with odd values (a NaN with a payload, -0, a denormal, an
   infinity) and three of its four parameters with momentum buffers, saved
   and loaded into a model and an optimizer of other values and options
   (and a buffer where the file has none): everything comes back bit for
   bit, the fourth buffer is gone, and saving again writes the same
   bytes. */
START_TEST(test_ckpt_round_trip)
{
    tc_module *m = CP_MLP(1, 4, 3, 2);
    tc_sgd_options o = { .lr = 0.05, .momentum = 0.9, .dampening = 0.25, .weight_decay = 1e-4,
                         .maximize = true };
    tc_sgd *opt = cp_sgd(m, o);
    cp_buffers(opt, 11, 1u << 2);
    float *w = tc_module_parameter(m, 0)->storage->data;
    uint32_t nan_bits = 0x7fc01234u;
    memcpy(&w[0], &nan_bits, 4);
    w[1] = -0.0f;
    w[2] = 1e-42f;
    w[3] = -INFINITY;
    const char *path = cp_path("round.ckpt");
    ck_assert_msg(tc_checkpoint_save(path, m, opt, 2, 17) == 0, "%s", tc_error());
    ck_assert(!cp_exists(cp_path("round.ckpt.tmp")));

    tc_module *m2 = CP_MLP(2, 4, 3, 2);
    tc_sgd *opt2 = cp_sgd(m2, (tc_sgd_options){ .lr = 0.5, .momentum = 0.1, .nesterov = true });
    cp_buffers(opt2, 12, 0);
    int64_t epoch = 0, step = 0;
    ck_assert_msg(tc_checkpoint_load(path, m2, opt2, &epoch, &step) == 0, "%s", tc_error());
    ck_assert_int_eq(epoch, 2);
    ck_assert_int_eq(step, 17);
    cp_state want = cp_take(m, opt);
    cp_unchanged(&want, m2, opt2, "round trip");
    cp_state_free(&want);
    ck_assert_ptr_null(tc_sgd_momentum_buffer(opt2, 2));

    const char *again = cp_path("again.ckpt");
    ck_assert_int_eq(tc_checkpoint_save(again, m2, opt2, 2, 17), 0);
    size_t n1, n2;
    unsigned char *b1 = cp_read(path, &n1), *b2 = cp_read(again, &n2);
    ck_assert_uint_eq(n1, n2);
    ck_assert(memcmp(b1, b2, n1) == 0);
    free(b1);
    free(b2);

    /* without an optimizer: the model alone, either way */
    ck_assert_int_eq(tc_checkpoint_save(cp_path("model.ckpt"), m, NULL, 0, 0), 0);
    tc_module *m3 = CP_MLP(3, 4, 3, 2);
    ck_assert_int_eq(tc_checkpoint_load(cp_path("model.ckpt"), m3, NULL, NULL, NULL), 0);
    ck_assert_int_eq(tc_checkpoint_load(path, m3, NULL, NULL, NULL), 0);
    want = cp_take(m, NULL);
    cp_unchanged(&want, m3, NULL, "model only");
    cp_state_free(&want);
    cp_refused(cp_path("model.ckpt"), m2, opt2,
               cp_msg("%s: the checkpoint holds no optimizer state", cp_path("model.ckpt")),
               false);
    tc_module_free(m3);
    tc_sgd_free(opt2);
    tc_module_free(m2);
    tc_sgd_free(opt);
    tc_module_free(m);
}
END_TEST

/* A load writes the parameters in place, as load_state_dict's
   param.copy_ does: each one's version goes up by one (torch 1.13:
   m[2].weight._version 1 -> 2), and a graph recorded before the load
   that saved a parameter refuses to run backward (torch 1.13: "one of
   the variables needed for gradient computation has been modified by an
   inplace operation: ..."). */
START_TEST(test_ckpt_bumps_versions)
{
    tc_module *m = CP_MLP(1, 2, 3, 1);
    const char *path = cp_path("v.ckpt");
    ck_assert_int_eq(tc_checkpoint_save(path, m, NULL, 0, 0), 0);
    tc_tensor *x = tc_ones(TC_SHAPE(4, 2), TC_FLOAT32);
    tc_tensor *y = tc_module_forward(m, x);
    ck_assert_ptr_nonnull(y);
    tc_tensor *loss = ag_sum(y);
    ck_assert_ptr_nonnull(loss);
    int64_t before[4];
    for (int i = 0; i < 4; i++)
        before[i] = ag_version(tc_module_parameter(m, i));
    ck_assert_int_eq(tc_checkpoint_load(path, m, NULL, NULL, NULL), 0);
    for (int i = 0; i < 4; i++)
        ck_assert_int_eq(ag_version(tc_module_parameter(m, i)), before[i] + 1);
    tc_clear_error();
    ck_assert_int_eq(ag_backward(loss, NULL, false), -1);
    const char *want = "one of the variables needed for gradient computation has been modified "
                       "by an inplace operation: ";
    ck_assert_msg(strncmp(tc_error(), want, strlen(want)) == 0, "%s", tc_error());
    tc_clear_error();
    tc_release(loss);
    tc_release(y);
    tc_release(x);
    tc_module_free(m);
}
END_TEST

/* --------------------------------------------- truncated, flipped, not ours */

/* A model and an optimizer of the golden checkpoint's shapes but other
   values, to load into. */
static tc_module *cp_target(tc_sgd **opt)
{
    tc_module *m = cp_mlp(2, (const int64_t[]){ 2, 1 }, 4, true);
    *opt = cp_sgd(m, (tc_sgd_options){ .lr = 0.7, .momentum = 0.2 });
    cp_buffers(*opt, 5, 0);
    return m;
}

/* The golden checkpoint cut at every length: refused, saying where the
   file ends (the offsets are the table's), nothing changed. */
START_TEST(test_ckpt_truncated)
{
    tc_sgd *opt;
    tc_module *m = cp_target(&opt);
    const char *path = cp_path("cut.ckpt");
    static const struct {
        size_t len;
        const char *inside;
    } where[] = {
        { 8, "the header" },           { 12, "the header" },
        { 31, "the header" },          { 32, "the parameter records (2 announced)" },
        { 50, "parameter record 1" },  { 65, "parameter record 1" },
        { 70, "parameter record 2" },  { 86, "the optimizer's state" },
        { 100, "the optimizer's state" }, { 123, "the optimizer's state" },
        { 125, "the momentum buffer records (1 announced)" },
        { 130, "momentum buffer record 1" }, { 159, "the checksum" }, { 190, "the checksum" },
    };
    for (size_t len = 0; len < sizeof cp_golden; len++) {
        cp_write(path, cp_golden, len);
        if (len < 8)
            cp_refused(path, m, opt,
                       cp_msg("%s: not a checkpoint (it does not begin with \"TC-CKPT\\n\")", path),
                       false);
        else
            cp_refused(path, m, opt,
                       cp_msg("%s: truncated: the file ends at byte %zu, inside ", path, len),
                       true);
    }
    for (size_t k = 0; k < sizeof where / sizeof where[0]; k++) {
        cp_write(path, cp_golden, where[k].len);
        cp_refused(path, m, opt,
                   cp_msg("%s: truncated: the file ends at byte %zu, inside %s", path,
                          where[k].len, where[k].inside),
                   false);
    }
    tc_sgd_free(opt);
    tc_module_free(m);
}
END_TEST

/* Every single bit of the golden checkpoint flipped in turn: refused,
   nothing changed. A flip in the magic is "not a checkpoint", in the
   version a version this code does not read; in a value or in the
   checksum a checksum that does not match; elsewhere (a length, a count,
   a size) one of that and "truncated". */
START_TEST(test_ckpt_flipped_bits)
{
    tc_sgd *opt;
    tc_module *m = cp_target(&opt);
    const char *path = cp_path("flipped.ckpt");
    const char *checksum = cp_msg("%s: the checksum does not match: the file is damaged", path);
    char sum_text[256];
    snprintf(sum_text, sizeof sum_text, "%s", checksum);
    unsigned char bytes[sizeof cp_golden];
    cp_state before = cp_take(m, opt);
    for (size_t i = 0; i < sizeof cp_golden; i++) {
        for (int bit = 0; bit < 8; bit++) {
            memcpy(bytes, cp_golden, sizeof bytes);
            bytes[i] ^= (unsigned char)(1u << bit);
            cp_write(path, bytes, sizeof bytes);
            tc_clear_error();
            ck_assert_int_eq(tc_checkpoint_load(path, m, opt, NULL, NULL), -1);
            const char *msg = tc_error();
            ck_assert_ptr_nonnull(msg);
            bool is_sum = strcmp(msg, sum_text) == 0;
            bool is_cut = strncmp(msg, path, strlen(path)) == 0 &&
                          strncmp(msg + strlen(path), ": truncated: ", 13) == 0;
            bool value = (i >= 58 && i < 66) || (i >= 82 && i < 86) || (i >= 87 && i < 119) ||
                         (i >= 151);
            if (i < 8)
                ck_assert_str_eq(msg, cp_msg("%s: not a checkpoint (it does not begin with "
                                             "\"TC-CKPT\\n\")", path));
            else if (i < 12)
                ck_assert_str_eq(msg, cp_msg("%s: a checkpoint of version %u; this code reads "
                                             "version 1", path,
                                             1u ^ (1u << (8 * (i - 8) + (size_t)bit))));
            else if (value)
                ck_assert_msg(is_sum, "byte %zu bit %d: %s", i, bit, msg);
            else
                ck_assert_msg(is_sum || is_cut, "byte %zu bit %d: %s", i, bit, msg);
            cp_unchanged(&before, m, opt, "a flipped bit");
        }
    }
    cp_state_free(&before);
    tc_clear_error();
    tc_sgd_free(opt);
    tc_module_free(m);
}
END_TEST

START_TEST(test_ckpt_not_a_checkpoint)
{
    tc_sgd *opt;
    tc_module *m = cp_target(&opt);
    const char *path = cp_path("other.ckpt");
    const char *not_ours = "%s: not a checkpoint (it does not begin with \"TC-CKPT\\n\")";
    cp_write(path, (const unsigned char *)"", 0);
    cp_refused(path, m, opt, cp_msg(not_ours, path), false);
    cp_write(path, (const unsigned char *)"hello, world\n", 13);
    cp_refused(path, m, opt, cp_msg(not_ours, path), false);
    unsigned char bytes[sizeof cp_golden];
    memcpy(bytes, cp_golden, sizeof bytes);
    bytes[6] = 't';                                   /* TC-CKPt */
    cp_write(path, bytes, sizeof bytes);
    cp_refused(path, m, opt, cp_msg(not_ours, path), false);

    /* the version is read before anything else, checksum included */
    memcpy(bytes, cp_golden, sizeof bytes);
    bytes[8] = 2;
    cp_write(path, bytes, sizeof bytes);
    cp_refused(path, m, opt,
               cp_msg("%s: a checkpoint of version 2; this code reads version 1", path), false);
    bytes[8] = 0;
    cp_write(path, bytes, sizeof bytes);
    cp_refused(path, m, opt,
               cp_msg("%s: a checkpoint of version 0; this code reads version 1", path), false);
    bytes[8] = 1;
    bytes[11] = 0x80;
    cp_write(path, bytes, sizeof bytes);
    cp_refused(path, m, opt,
               cp_msg("%s: a checkpoint of version 2147483649; this code reads version 1", path),
               false);

    /* files that cannot be read */
    const char *missing = cp_path("missing.ckpt");
    cp_refused(missing, m, opt, cp_msg("cannot open %s: No such file or directory", missing),
               false);
    cp_refused(cp_dir, m, opt, cp_msg("cannot read %s: Is a directory", cp_dir), false);
    tc_clear_error();
    ck_assert_int_eq(tc_checkpoint_load(NULL, m, opt, NULL, NULL), -1);
    ck_assert_str_eq(tc_error(), "tc_checkpoint_load: path is NULL");
    ck_assert_int_eq(tc_checkpoint_load(path, NULL, opt, NULL, NULL), -1);
    ck_assert_str_eq(tc_error(), "tc_checkpoint_load: the module is NULL");
    tc_clear_error();
    tc_sgd_free(opt);
    tc_module_free(m);
}
END_TEST

/* ------------------------------------------- load_state_dict's refusals */

/* A checkpoint of Sequential(Linear(4, 3), ReLU(), Linear(3, 2)) loaded
   into other models: the messages are torch 1.13's, printed by
   m.load_state_dict(seq(4, 3, 2).state_dict()) for the same m. */
START_TEST(test_ckpt_state_dict_mismatch)
{
    tc_module *saved = CP_MLP(1, 4, 3, 2);
    const char *path = cp_path("mlp.ckpt");
    ck_assert_int_eq(tc_checkpoint_save(path, saved, NULL, 0, 0), 0);
    static const char *const prefix = "%s: Error(s) in loading state_dict for ";

    tc_module *fewer = CP_MLP(2, 4, 3);
    cp_refused(path, fewer, NULL,
               cp_msg("%s%s", cp_msg(prefix, path),
                      "Sequential:\n\tUnexpected key(s) in state_dict: \"2.weight\", "
                      "\"2.bias\". "),
               false);
    tc_module *more = CP_MLP(3, 4, 3, 2, 2);
    cp_refused(path, more, NULL,
               cp_msg("%s%s", cp_msg(prefix, path),
                      "Sequential:\n\tMissing key(s) in state_dict: \"4.weight\", \"4.bias\". "),
               false);
    tc_module *wider = CP_MLP(4, 4, 5, 2);
    cp_refused(path, wider, NULL,
               cp_msg("%s%s", cp_msg(prefix, path),
                      "Sequential:\n\tsize mismatch for 0.weight: copying a param with shape "
                      "torch.Size([3, 4]) from checkpoint, the shape in current model is "
                      "torch.Size([5, 4]).\n\tsize mismatch for 0.bias: copying a param with "
                      "shape torch.Size([3]) from checkpoint, the shape in current model is "
                      "torch.Size([5]).\n\tsize mismatch for 2.weight: copying a param with "
                      "shape torch.Size([2, 3]) from checkpoint, the shape in current model is "
                      "torch.Size([2, 5])."),
               false);
    tc_module *lone = cp_mlp(2, (const int64_t[]){ 4, 3 }, 5, true);
    cp_refused(path, lone, NULL,
               cp_msg("%s%s", cp_msg(prefix, path),
                      "Linear:\n\tMissing key(s) in state_dict: \"weight\", \"bias\". "
                      "\n\tUnexpected key(s) in state_dict: \"0.weight\", \"0.bias\", "
                      "\"2.weight\", \"2.bias\". "),
               false);
    tc_module *both = CP_MLP(6, 4, 5);
    cp_refused(path, both, NULL,
               cp_msg("%s%s", cp_msg(prefix, path),
                      "Sequential:\n\tUnexpected key(s) in state_dict: \"2.weight\", "
                      "\"2.bias\". \n\tsize mismatch for 0.weight: copying a param with shape "
                      "torch.Size([3, 4]) from checkpoint, the shape in current model is "
                      "torch.Size([5, 4]).\n\tsize mismatch for 0.bias: copying a param with "
                      "shape torch.Size([3]) from checkpoint, the shape in current model is "
                      "torch.Size([5])."),
               false);
    tc_module *m[] = { fewer, more, wider, lone, both, saved };
    for (size_t i = 0; i < sizeof m / sizeof m[0]; i++)
        tc_module_free(m[i]);
}
END_TEST

/* The optimizer's part: a checkpoint without one, an optimizer over a
   tensor that is not the module's, an optimizer that does not hold a
   parameter the file has a buffer for (loadable without the optimizer). */
START_TEST(test_ckpt_optimizer_mismatch)
{
    tc_module *m = CP_MLP(1, 4, 3, 2);
    tc_sgd *opt = cp_sgd(m, (tc_sgd_options){ .lr = 0.1, .momentum = 0.9 });
    cp_buffers(opt, 3, 0);
    const char *path = cp_path("opt.ckpt");
    ck_assert_int_eq(tc_checkpoint_save(path, m, opt, 1, 9), 0);

    tc_tensor *stranger = tc_zeros(TC_SHAPE(3, 4), TC_FLOAT32);
    ck_assert_int_eq(ag_set_requires_grad(stranger, true), 0);
    tc_sgd *foreign = tc_sgd_new(1, &stranger, (tc_sgd_options){ .lr = 0.1 });
    ck_assert_ptr_nonnull(foreign);
    const char *other = cp_path("foreign.ckpt");
    tc_clear_error();
    ck_assert_int_eq(tc_checkpoint_save(other, m, foreign, 0, 0), -1);
    ck_assert_str_eq(tc_error(), "tc_checkpoint_save: parameter 0 of the optimizer is not a "
                                 "parameter of the module");
    ck_assert(!cp_exists(other));
    ck_assert(!cp_exists(cp_path("foreign.ckpt.tmp")));
    cp_refused(path, m, foreign,
               cp_msg("%s: parameter 0 of the optimizer is not a parameter of the module", path),
               false);

    tc_module *m2 = CP_MLP(2, 4, 3, 2);
    tc_tensor *first[] = { tc_module_parameter(m2, 0), tc_module_parameter(m2, 1) };
    tc_sgd *part = tc_sgd_new(2, first, (tc_sgd_options){ .lr = 0.1, .momentum = 0.9 });
    ck_assert_ptr_nonnull(part);
    cp_refused(path, m2, part,
               cp_msg("%s: a momentum buffer for 2.weight, which the optimizer does not hold",
                      path),
               false);
    ck_assert_int_eq(tc_checkpoint_load(path, m2, NULL, NULL, NULL), 0);
    cp_state want = cp_take(m, NULL);
    cp_unchanged(&want, m2, NULL, "without the optimizer");
    cp_state_free(&want);

    /* a parameter given twice (PyTorch warns and keeps it, with one
       state): one buffer in the file, shared again after the load */
    tc_tensor *twice[] = { tc_module_parameter(m, 0), tc_module_parameter(m, 1),
                           tc_module_parameter(m, 0) };
    tc_sgd *dup = tc_sgd_new(3, twice, (tc_sgd_options){ .lr = 0.1, .momentum = 0.9 });
    ck_assert_ptr_nonnull(dup);
    cp_buffers(dup, 8, 1u << 1);
    ck_assert_int_eq(tc_checkpoint_save(cp_path("dup.ckpt"), m, dup, 0, 0), 0);
    tc_tensor *twice2[] = { tc_module_parameter(m2, 0), tc_module_parameter(m2, 1),
                            tc_module_parameter(m2, 0) };
    tc_sgd *dup2 = tc_sgd_new(3, twice2, (tc_sgd_options){ .lr = 0.2 });
    ck_assert_ptr_nonnull(dup2);
    ck_assert_msg(tc_checkpoint_load(cp_path("dup.ckpt"), m2, dup2, NULL, NULL) == 0, "%s",
                  tc_error());
    want = cp_take(m, dup);
    cp_unchanged(&want, m2, dup2, "a parameter given twice");
    cp_state_free(&want);
    ck_assert_ptr_eq(tc_sgd_momentum_buffer(dup2, 0), tc_sgd_momentum_buffer(dup2, 2));
    ck_assert_ptr_null(tc_sgd_momentum_buffer(dup2, 1));
    tc_sgd_free(dup2);
    tc_sgd_free(dup);

    tc_clear_error();
    ck_assert_int_eq(tc_checkpoint_save(path, m, opt, -1, 0), -1);
    ck_assert_str_eq(tc_error(), "tc_checkpoint_save: epoch and step must be >= 0, not -1 and 0");
    ck_assert_int_eq(tc_checkpoint_save(NULL, m, opt, 0, 0), -1);
    ck_assert_str_eq(tc_error(), "tc_checkpoint_save: path is NULL");
    ck_assert_int_eq(tc_checkpoint_save(path, NULL, opt, 0, 0), -1);
    ck_assert_str_eq(tc_error(), "tc_checkpoint_save: the module is NULL");
    tc_clear_error();
    tc_sgd_free(part);
    tc_module_free(m2);
    tc_sgd_free(foreign);
    tc_release(stranger);
    tc_sgd_free(opt);
    tc_module_free(m);
}
END_TEST

/* ----------------------------- files with a good checksum and bad contents */

/* A writer of checkpoints of this test's own, field by field as the
   chapter's table lays them out, to make what tc_checkpoint_save never
   writes; cw_seal appends the SHA-256 (chapter 8's, tested there). */
typedef struct {
    unsigned char b[1024];
    size_t n;
} cp_file;

static void cw_le(cp_file *w, uint64_t v, int nbytes)
{
    for (int k = 0; k < nbytes; k++)
        w->b[w->n++] = (unsigned char)(v >> (8 * k));
}

static void cw_f64(cp_file *w, double x)
{
    uint64_t bits;
    memcpy(&bits, &x, 8);
    cw_le(w, bits, 8);
}

static void cw_header(cp_file *w, int64_t epoch, int64_t step, uint32_t count)
{
    memcpy(w->b, "TC-CKPT\n", 8);
    w->n = 8;
    cw_le(w, 1, 4);
    cw_le(w, (uint64_t)epoch, 8);
    cw_le(w, (uint64_t)step, 8);
    cw_le(w, count, 4);
}

/* name of name_len bytes, dtype code, dim sizes, then numel float32
   values (code 6) or float64 values (any other code) from `values`. */
static void cw_record(cp_file *w, const char *name, size_t name_len, int code, int dim,
                      const int64_t *sizes, int64_t numel, const double *values)
{
    cw_le(w, name_len, 2);
    memcpy(w->b + w->n, name, name_len);
    w->n += name_len;
    cw_le(w, (uint64_t)code, 1);
    cw_le(w, (uint64_t)dim, 1);
    for (int d = 0; d < dim; d++)
        cw_le(w, (uint64_t)sizes[d], 8);
    for (int64_t i = 0; i < numel; i++) {
        if (code == 6) {
            float f = (float)values[i];
            uint32_t bits;
            memcpy(&bits, &f, 4);
            cw_le(w, bits, 4);
        } else {
            cw_f64(w, values[i]);
        }
    }
}

/* Linear(2, 1)'s two records, float32. */
static void cw_params(cp_file *w)
{
    cw_record(w, "weight", 6, 6, 2, (const int64_t[]){ 1, 2 }, 2, (const double[]){ 1, 2 });
    cw_record(w, "bias", 4, 6, 1, (const int64_t[]){ 1 }, 1, (const double[]){ 3 });
}

static void cw_options(cp_file *w, tc_sgd_options o, int nesterov, int maximize)
{
    cw_le(w, 1, 1);
    cw_f64(w, o.lr);
    cw_f64(w, o.momentum);
    cw_f64(w, o.dampening);
    cw_f64(w, o.weight_decay);
    cw_le(w, (uint64_t)nesterov, 1);
    cw_le(w, (uint64_t)maximize, 1);
}

static void cw_seal(cp_file *w, const char *path)
{
    tc_sha256 h;
    tc_sha256_init(&h);
    tc_sha256_update(&h, w->b, w->n);
    tc_sha256_final(&h, w->b + w->n);
    w->n += 32;
    cp_write(path, w->b, w->n);
}

START_TEST(test_ckpt_damaged_contents)
{
    tc_sgd *opt;
    tc_module *m = cp_target(&opt);
    const char *path = cp_path("crafted.ckpt");
    const tc_sgd_options good = { .lr = 0.1, .momentum = 0.5 };
    const int64_t one_two[] = { 1, 2 };
    cp_file w;
#define CP_DAMAGED(what) cp_refused(path, m, opt, cp_msg("%s: damaged: %s", path, what), false)

    cw_header(&w, 0, 0, 1);
    cw_record(&w, "weight", 6, 5, 2, one_two, 2, (const double[]){ 1, 2 });
    cw_seal(&w, path);
    CP_DAMAGED("parameter record 1 has dtype code 5 (6 is float32, 7 float64)");

    cw_header(&w, 0, 0, 1);
    cw_record(&w, "weight", 6, 6, 17, (const int64_t[17]){ 1, 2 }, 0, NULL);
    cw_seal(&w, path);
    CP_DAMAGED("parameter record 1 has 17 dimensions (at most 16)");

    cw_header(&w, 0, 0, 1);
    cw_record(&w, "weight", 6, 6, 2, (const int64_t[]){ -1, -2 }, 0, NULL);
    cw_seal(&w, path);
    CP_DAMAGED("parameter record 1 has a size -1");

    cw_header(&w, 0, 0, 3);
    cw_params(&w);
    cw_record(&w, "weight", 6, 6, 2, one_two, 2, (const double[]){ 1, 2 });
    cw_le(&w, 0, 1);
    cw_seal(&w, path);
    CP_DAMAGED("two parameter records are named \"weight\"");

    cw_header(&w, 0, 0, 3);
    cw_params(&w);
    cw_record(&w, "", 0, 6, 0, NULL, 1, (const double[]){ 1 });
    cw_le(&w, 0, 1);
    cw_seal(&w, path);
    CP_DAMAGED("parameter record 3 has an empty name");

    cw_header(&w, 0, 0, 3);
    cw_params(&w);
    cw_record(&w, "bi\0as", 5, 6, 0, NULL, 1, (const double[]){ 1 });
    cw_le(&w, 0, 1);
    cw_seal(&w, path);
    CP_DAMAGED("parameter record 3 has a NUL byte in its name");

    cw_header(&w, -1, 70, 2);
    cw_params(&w);
    cw_le(&w, 0, 1);
    cw_seal(&w, path);
    CP_DAMAGED("epoch -1, step 70");

    cw_header(&w, 0, 0, 2);
    cw_params(&w);
    cw_le(&w, 2, 1);
    cw_seal(&w, path);
    CP_DAMAGED("the optimizer's flag is 2 (0 or 1)");

    cw_header(&w, 0, 0, 2);
    cw_params(&w);
    cw_options(&w, good, 3, 0);
    cw_le(&w, 0, 4);
    cw_seal(&w, path);
    CP_DAMAGED("nesterov is 3, maximize 0 (0 or 1)");

    cw_header(&w, 0, 0, 2);
    cw_params(&w);
    cw_le(&w, 0, 1);
    cw_le(&w, 0xabcdef, 3);                /* 3 bytes more, inside the checksum's cover */
    cw_seal(&w, path);
    CP_DAMAGED("3 bytes after the checksum");

    /* counts and sizes that the file cannot hold are truncation */
    cw_header(&w, 0, 0, 1000);
    cw_params(&w);
    cw_le(&w, 0, 1);
    cw_seal(&w, path);
    cp_refused(path, m, opt,
               cp_msg("%s: truncated: the file ends at byte %zu, inside the parameter records "
                      "(1000 announced)", path, w.n),
               false);
    cw_header(&w, 0, 0, 1);
    cw_record(&w, "weight", 6, 7, 2, (const int64_t[]){ INT64_MAX, 3 }, 0, NULL);
    cw_le(&w, 0, 1);
    cw_seal(&w, path);
    cp_refused(path, m, opt,
               cp_msg("%s: truncated: the file ends at byte %zu, inside parameter record 1",
                      path, w.n),
               false);

    /* a size 0 with a huge one: no data, and PyTorch's size mismatch */
    cw_header(&w, 0, 0, 2);
    cw_record(&w, "weight", 6, 6, 2, (const int64_t[]){ 0, (int64_t)1 << 62 }, 0, NULL);
    cw_record(&w, "bias", 4, 6, 1, (const int64_t[]){ 1 }, 1, (const double[]){ 3 });
    cw_le(&w, 0, 1);
    cw_seal(&w, path);
    cp_refused(path, m, NULL,
               cp_msg("%s: Error(s) in loading state_dict for Linear:\n\tsize mismatch for "
                      "weight: copying a param with shape torch.Size([0, 4611686018427387904]) "
                      "from checkpoint, the shape in current model is torch.Size([1, 2]).",
                      path),
               false);

    /* the optimizer's part, checked even when it is not loaded */
    cw_header(&w, 0, 0, 2);
    cw_params(&w);
    cw_options(&w, good, 0, 0);
    cw_le(&w, 1, 4);
    cw_record(&w, "w", 1, 6, 2, one_two, 2, (const double[]){ 1, 2 });
    cw_seal(&w, path);
    cp_refused(path, m, opt,
               cp_msg("%s: a momentum buffer for \"w\", which is not a parameter of the model",
                      path),
               false);
    cp_refused(path, m, NULL,
               cp_msg("%s: a momentum buffer for \"w\", which is not a parameter of the model",
                      path),
               false);
    cw_header(&w, 0, 0, 2);
    cw_params(&w);
    cw_options(&w, good, 0, 0);
    cw_le(&w, 1, 4);
    cw_record(&w, "weight", 6, 6, 1, (const int64_t[]){ 2 }, 2, (const double[]){ 1, 2 });
    cw_seal(&w, path);
    cp_refused(path, m, opt,
               cp_msg("%s: size mismatch for the momentum buffer of weight: copying a buffer "
                      "with shape torch.Size([2]) from checkpoint, the shape in current model "
                      "is torch.Size([1, 2]).", path),
               false);
    cw_header(&w, 0, 0, 2);
    cw_params(&w);
    cw_options(&w, (tc_sgd_options){ .lr = -0.1 }, 0, 0);
    cw_le(&w, 0, 4);
    cw_seal(&w, path);
    cp_refused(path, m, opt, cp_msg("%s: Invalid learning rate: -0.1", path), false);
    cp_refused(path, m, NULL, cp_msg("%s: Invalid learning rate: -0.1", path), false);
    cw_header(&w, 0, 0, 2);
    cw_params(&w);
    cw_options(&w, (tc_sgd_options){ .lr = 0.1 }, 1, 0);
    cw_le(&w, 0, 4);
    cw_seal(&w, path);
    cp_refused(path, m, opt,
               cp_msg("%s: Nesterov momentum requires a momentum and zero dampening", path),
               false);
#undef CP_DAMAGED
    tc_sgd_free(opt);
    tc_module_free(m);
}
END_TEST

/* float64 records load into float32 parameters as PyTorch's copy_ casts
   them (torch 1.13: w.copy_(torch.tensor([0.1, -1.0000000596046448,
   1e300], dtype=torch.float64)) gives 0.10000000149011612, -1.0, inf);
   the options come from the file, and a buffer the file lacks is
   dropped. */
START_TEST(test_ckpt_float64_records)
{
    tc_sgd *opt;
    tc_module *m = cp_target(&opt);
    const char *path = cp_path("double.ckpt");
    cp_file w;
    cw_header(&w, 4, 44, 2);
    cw_record(&w, "bias", 4, 7, 1, (const int64_t[]){ 1 }, 1, (const double[]){ 1e300 });
    cw_record(&w, "weight", 6, 7, 2, (const int64_t[]){ 1, 2 }, 2,
              (const double[]){ 0.1, -1.0000000596046448 });
    cw_options(&w, (tc_sgd_options){ .lr = 0.25, .momentum = 0.5, .dampening = 0.125 }, 0, 1);
    cw_le(&w, 1, 4);
    cw_record(&w, "bias", 4, 7, 1, (const int64_t[]){ 1 }, 1, (const double[]){ -2.5 });
    cw_seal(&w, path);
    int64_t epoch, step;
    ck_assert_msg(tc_checkpoint_load(path, m, opt, &epoch, &step) == 0, "%s", tc_error());
    ck_assert_int_eq(epoch, 4);
    ck_assert_int_eq(step, 44);
    const float *weight = tc_module_parameter(m, 0)->storage->data;
    const float *bias = tc_module_parameter(m, 1)->storage->data;
    ck_assert(weight[0] == 0.1f);
    ck_assert(weight[1] == -1.0f);      /* halfway to -1.0000001192092896: to even */
    ck_assert(isinf(bias[0]) && bias[0] > 0);
    ck_assert_ptr_null(tc_sgd_momentum_buffer(opt, 0));
    const tc_tensor *b = tc_sgd_momentum_buffer(opt, 1);
    ck_assert_ptr_nonnull(b);
    ck_assert(b->dtype == TC_FLOAT32 && ((const float *)b->storage->data)[0] == -2.5f);
    ck_assert(cp_same_options(tc_sgd_get_options(opt),
                              (tc_sgd_options){ .lr = 0.25, .momentum = 0.5, .dampening = 0.125,
                                                .maximize = true }));
    tc_sgd_free(opt);
    tc_module_free(m);
}
END_TEST

/* -------------------------------------------------- the temporary file */

/* Run body(arg) in a child process, by chapter 9's tc_launch_fn (one
   rank): how it ended. Its return value is reported through the launcher,
   not the exit status, which valgrind replaces with its own after a leak
   check of the memory the child inherited. */
static tc_launch_result cp_in_child(int (*body)(void *, int), void *arg)
{
    tc_launch_options o = { .nproc = 1 };
    tc_launch_result res;
    ck_assert_msg(tc_launch_fn(&o, body, arg, &res) == 0, "%s", tc_error());
    return res;
}

/* A save in a child whose files may not grow past 64 bytes (RLIMIT_FSIZE).
   With SIGXFSZ ignored, write fails (EFBIG) and the save must fail
   cleanly: the child returns 0 if it did (-1, the message, no .tmp left),
   else 1. With SIGXFSZ's default action the kernel kills the child in the
   middle of writing path.tmp, as a crash or a power cut would stop it. */
typedef struct {
    const char *path;
    const tc_module *m;
    bool ignore_signal;
} cp_limited;

static int cp_save_limited_body(void *arg, int rank)
{
    const cp_limited *a = arg;
    struct rlimit limit = { .rlim_cur = 64, .rlim_max = 64 };
    char tmp[600], want[700];
    (void)rank;
    snprintf(tmp, sizeof tmp, "%s.tmp", a->path);
    snprintf(want, sizeof want, "cannot write %s: File too large", tmp);
    if (a->ignore_signal)
        signal(SIGXFSZ, SIG_IGN);
    if (setrlimit(RLIMIT_FSIZE, &limit) < 0)
        return 2;
    tc_clear_error();
    int status = tc_checkpoint_save(a->path, a->m, NULL, 5, 50);
    return status == -1 && tc_error() && strcmp(tc_error(), want) == 0 && !cp_exists(tmp) ? 0 : 1;
}

START_TEST(test_ckpt_temporary_file)
{
    tc_module *m = CP_MLP(1, 4, 3, 2), *m2 = CP_MLP(2, 4, 3, 2), *into = CP_MLP(3, 4, 3, 2);
    tc_sgd *opt = cp_sgd(m, (tc_sgd_options){ .lr = 0.1, .momentum = 0.9 });
    cp_buffers(opt, 1, 0);
    const char *path = cp_path("ckpt"), *tmp = cp_path("ckpt.tmp");
    ck_assert_int_eq(tc_checkpoint_save(path, m, opt, 1, 10), 0);
    ck_assert(!cp_exists(tmp));
    cp_state old = cp_take(m, NULL);

    /* a save that fails leaves the old checkpoint and no .tmp */
    cp_limited limited = { path, m2, true };
    tc_launch_result res = cp_in_child(cp_save_limited_body, &limited);
    ck_assert_msg(res.exit_code == 0, "%s", res.summary);
    ck_assert(!cp_exists(tmp));
    ck_assert_int_eq(tc_checkpoint_load(path, into, NULL, NULL, NULL), 0);
    cp_unchanged(&old, into, NULL, "after a failed save");

    /* a save killed in the middle leaves the old checkpoint whole, and a
       .tmp that no load takes for a checkpoint */
    limited.ignore_signal = false;
    res = cp_in_child(cp_save_limited_body, &limited);
    ck_assert_msg(res.failed_signal == SIGXFSZ, "%s", res.summary);
    struct stat st;
    ck_assert_int_eq(stat(tmp, &st), 0);
    ck_assert_int_eq(st.st_size, 64);
    cp_refused(tmp, into, NULL,
               cp_msg("%s: truncated: the file ends at byte 64, inside parameter record 1", tmp),
               false);
    ck_assert_int_eq(tc_checkpoint_load(path, into, NULL, NULL, NULL), 0);
    cp_unchanged(&old, into, NULL, "after a killed save");

    /* the next save writes over the stale .tmp and renames it away */
    ck_assert_int_eq(tc_checkpoint_save(path, m2, NULL, 2, 20), 0);
    ck_assert(!cp_exists(tmp));
    int64_t epoch, step;
    ck_assert_int_eq(tc_checkpoint_load(path, into, NULL, &epoch, &step), 0);
    ck_assert_int_eq(epoch, 2);
    ck_assert_int_eq(step, 20);
    cp_state now = cp_take(m2, NULL);
    cp_unchanged(&now, into, NULL, "the new checkpoint");
    cp_state_free(&now);

    /* a directory that does not exist: nothing is created */
    const char *nowhere = cp_path("no/such/dir/ckpt");
    tc_clear_error();
    ck_assert_int_eq(tc_checkpoint_save(nowhere, m, opt, 0, 0), -1);
    ck_assert_str_eq(tc_error(), cp_msg("cannot write %s.tmp: No such file or directory", nowhere));
    tc_clear_error();
    cp_state_free(&old);
    tc_sgd_free(opt);
    tc_module_free(into);
    tc_module_free(m2);
    tc_module_free(m);
}
END_TEST

/* -------------------------------------------------- kill and resume */

/* The training of the kill-and-resume test: Sequential(Linear(6, 8),
   ReLU(), Linear(8, 3)) on 48 samples of 6 features (uniform in [-1, 1)
   from seed 6, classes randperm(48) % 3 from seed 7), batches of 8 (6
   steps an epoch) in an order drawn for each epoch from randperm(48) of a
   generator seeded 100 + epoch, cross-entropy, SGD. Nothing else draws
   random numbers: where a run is is all in (epoch, step), the weights and
   the momentum buffers. */
enum { CP_SAMPLES = 48, CP_FEATURES = 6, CP_BATCH = 8, CP_STEPS_PER_EPOCH = 6 };

typedef struct {
    tc_tensor *x, *y;
} cp_data;

static cp_data cp_data_make(void)
{
    tc_generator g;
    cp_data d = { tc_empty(TC_SHAPE(CP_SAMPLES, CP_FEATURES), TC_FLOAT32), NULL };
    tc_generator_init(&g, 6);
    cp_fill(d.x, &g);
    tc_generator_init(&g, 7);
    d.y = tc_randperm(CP_SAMPLES, &g);
    int64_t *y = d.y->storage->data;
    for (int i = 0; i < CP_SAMPLES; i++)
        y[i] %= 3;
    return d;
}

/* One step on batch b of the epoch's order: 0, or -1. */
static int cp_step(tc_module *m, tc_sgd *opt, const cp_data *d, const int64_t *order, int64_t b)
{
    tc_tensor *x = tc_empty(TC_SHAPE(CP_BATCH, CP_FEATURES), TC_FLOAT32);
    tc_tensor *y = tc_empty(TC_SHAPE(CP_BATCH), TC_INT64);
    if (x == NULL || y == NULL)
        return -1;
    for (int i = 0; i < CP_BATCH; i++) {
        int64_t s = order[b * CP_BATCH + i];
        memcpy((float *)x->storage->data + i * CP_FEATURES,
               (const float *)d->x->storage->data + s * CP_FEATURES, CP_FEATURES * sizeof(float));
        ((int64_t *)y->storage->data)[i] = ((const int64_t *)d->y->storage->data)[s];
    }
    tc_tensor *logits = NULL, *loss = NULL;
    int status = tc_sgd_zero_grad(opt, false);
    if (status == 0 && (logits = tc_module_forward(m, x)) == NULL)
        status = -1;
    if (status == 0 &&
        (loss = ag_cross_entropy(logits, y, NULL, TC_REDUCTION_MEAN, -100, 0.0)) == NULL)
        status = -1;
    if (status == 0)
        status = ag_backward(loss, NULL, false);
    if (status == 0)
        status = tc_sgd_step(opt);
    if (loss)
        tc_release(loss);
    if (logits)
        tc_release(logits);
    tc_release(x);
    tc_release(y);
    return status;
}

/* Train to `total` steps, from the start or (resume) from the checkpoint
   at path; save there after every save_every-th step (0: never); raise SIGKILL right
   after step kill_after (0: never), after the save due at that step.
   *ran counts the steps this call took. 0, or -1 with a message. */
static int cp_train(tc_module *m, tc_sgd *opt, const cp_data *d, const char *path, bool resume,
                    int64_t total, int64_t save_every, int64_t kill_after, int64_t *ran)
{
    int64_t epoch = 0, step = 0;
    *ran = 0;
    if (resume && tc_checkpoint_load(path, m, opt, &epoch, &step) < 0)
        return -1;
    if (epoch != step / CP_STEPS_PER_EPOCH) {
        tc_fail("epoch %lld does not go with step %lld", (long long)epoch, (long long)step);
        return -1;
    }
    while (step < total) {
        tc_generator g;
        tc_generator_init(&g, 100 + (uint64_t)epoch);
        tc_tensor *order = tc_randperm(CP_SAMPLES, &g);
        if (order == NULL)
            return -1;
        /* mid-epoch: skip the batches the checkpointed run had taken */
        for (int64_t b = step % CP_STEPS_PER_EPOCH; b < CP_STEPS_PER_EPOCH && step < total; b++) {
            if (cp_step(m, opt, d, order->storage->data, b) < 0) {
                tc_release(order);
                return -1;
            }
            step++;
            ++*ran;
            if (save_every > 0 && step % save_every == 0 &&
                tc_checkpoint_save(path, m, opt, step / CP_STEPS_PER_EPOCH, step) < 0) {
                tc_release(order);
                return -1;
            }
            if (step == kill_after)
                raise(SIGKILL);
        }
        tc_release(order);
        epoch = step / CP_STEPS_PER_EPOCH;
    }
    return 0;
}

static const tc_sgd_options cp_train_options = {
    .lr = 0.1, .momentum = 0.9, .weight_decay = 1e-3, .nesterov = true
};

enum { CP_TOTAL = 30, CP_EVERY = 5, CP_KILL_AFTER = 13 };

/* The run that is killed: in a child process, it trains from the start
   and raises SIGKILL after step CP_KILL_AFTER. Returning is a failure. */
typedef struct {
    const cp_data *d;
    const char *path;
} cp_killed;

static int cp_killed_body(void *arg, int rank)
{
    const cp_killed *k = arg;
    int64_t ran;
    (void)rank;
    tc_module *m = CP_MLP(5, CP_FEATURES, 8, 3);
    tc_sgd *opt = cp_sgd(m, cp_train_options);
    cp_train(m, opt, k->d, k->path, false, CP_TOTAL, CP_EVERY, CP_KILL_AFTER, &ran);
    return 1;
}

/* 30 steps (5 epochs) with a checkpoint every 5 steps. One run goes
   through; another is killed after step 13 (its last checkpoint: step
   10, the middle of epoch 1) and resumed from that checkpoint by a model
   and an optimizer made with another seed and other options, which the
   checkpoint replaces. Both end with the same bits, weights and momentum
   buffers. The same resume without the optimizer's state (fresh momentum)
   ends elsewhere: the test sees what the checkpoint carries. */
START_TEST(test_ckpt_kill_and_resume)
{
    cp_data d = cp_data_make();
    int64_t ran;

    tc_module *ref = CP_MLP(5, CP_FEATURES, 8, 3);
    tc_sgd *ref_opt = cp_sgd(ref, cp_train_options);
    ck_assert_msg(cp_train(ref, ref_opt, &d, cp_path("ref.ckpt"), false, CP_TOTAL, 0, 0, &ran)
                      == 0, "%s", tc_error());
    ck_assert_int_eq(ran, CP_TOTAL);

    const char *path = cp_path("run.ckpt");
    cp_killed killed_run = { &d, path };
    tc_launch_result res = cp_in_child(cp_killed_body, &killed_run);
    ck_assert_msg(res.failed_signal == SIGKILL, "%s", res.summary);
    ck_assert(!cp_exists(cp_path("run.ckpt.tmp")));
    size_t killed_len;
    unsigned char *killed = cp_read(path, &killed_len);

    tc_module *m = CP_MLP(77, CP_FEATURES, 8, 3);
    tc_sgd *opt = cp_sgd(m, (tc_sgd_options){ .lr = 0.3, .momentum = 0.5 });
    ck_assert_msg(cp_train(m, opt, &d, path, true, CP_TOTAL, CP_EVERY, 0, &ran) == 0, "%s",
                  tc_error());
    ck_assert_int_eq(ran, CP_TOTAL - 10);
    cp_state want = cp_take(ref, ref_opt);
    cp_unchanged(&want, m, opt, "resumed after a kill");

    /* the control: the same checkpoint, its momentum buffers left out */
    const char *control = cp_path("control.ckpt");
    cp_write(control, killed, killed_len);
    free(killed);
    tc_module *forgetful = CP_MLP(77, CP_FEATURES, 8, 3);
    tc_sgd *fresh = cp_sgd(forgetful, cp_train_options);
    int64_t epoch, step;
    ck_assert_int_eq(tc_checkpoint_load(control, forgetful, NULL, &epoch, &step), 0);
    ck_assert_int_eq(step, 10);
    ck_assert_int_eq(tc_checkpoint_save(control, forgetful, fresh, epoch, step), 0);
    ck_assert_int_eq(cp_train(forgetful, fresh, &d, control, true, CP_TOTAL, CP_EVERY, 0, &ran),
                     0);
    size_t n;
    unsigned char *end = cp_bytes_of(tc_module_parameter(forgetful, 0), &n);
    ck_assert(n == want.param_bytes[0] && memcmp(end, want.params[0], n) != 0);
    free(end);

    cp_state_free(&want);
    tc_sgd_free(fresh);
    tc_module_free(forgetful);
    tc_sgd_free(opt);
    tc_module_free(m);
    tc_sgd_free(ref_opt);
    tc_module_free(ref);
    tc_release(d.x);
    tc_release(d.y);
}
END_TEST

static void ch10_add_ckpt(Suite *s)
{
    TCase *tc = testing_tcase("checkpoint", cp_setup, cp_teardown);
    tcase_set_timeout(tc, 120);        /* valgrind: ~1,500 loads of the flipped-bit test */
    tcase_add_test(tc, test_ckpt_format_bytes);
    tcase_add_test(tc, test_ckpt_round_trip);
    tcase_add_test(tc, test_ckpt_bumps_versions);
    tcase_add_test(tc, test_ckpt_truncated);
    tcase_add_test(tc, test_ckpt_flipped_bits);
    tcase_add_test(tc, test_ckpt_not_a_checkpoint);
    tcase_add_test(tc, test_ckpt_state_dict_mismatch);
    tcase_add_test(tc, test_ckpt_optimizer_mismatch);
    tcase_add_test(tc, test_ckpt_damaged_contents);
    tcase_add_test(tc, test_ckpt_float64_records);
    tcase_add_test(tc, test_ckpt_temporary_file);
    tcase_add_test(tc, test_ckpt_kill_and_resume);
    suite_add_tcase(s, tc);
}
