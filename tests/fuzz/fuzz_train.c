/* fuzz_train.c: chapter 10's readers of files, on hostile bytes. The
   first byte picks the program:
   - raw checkpoint: the rest of the input is the file, given to
     tc_checkpoint_load (with or without an optimizer);
   - sealed checkpoint: the rest is the body of a checkpoint, which gets
     the magic and version 1 in front and its SHA-256 behind, so that the
     loader gets past its checksum (which a fuzzer cannot forge) to the
     contents' checks, the match with the model and the optimizer, and
     the load;
   - digits: the rest is a CSV file for tc_digits_load.
   The model is Sequential(Linear(3, 2), ReLU(), Linear(2, 2)), made anew
   for each input (the same bits each time), with SGD (momentum 0.9) over
   its parameters and momentum buffers on two of them.
   Invariants: nothing crashes, leaks or overflows; a load returns 0 or
   -1; -1 records a message that names the file, sets neither epoch nor
   step, and leaves the parameters, the momentum buffers and the options
   bit for bit as they were; 0 records no message, and what was loaded,
   saved again and loaded into a fresh model and optimizer, comes back
   bit for bit. tc_digits_load fails with a message naming the file and
   an empty dataset, or gives n >= 1 samples: images (n, 64) float32 of
   multiples of 1/16 in [0, 1], labels (n) int64 in 0..9. */
#define _DEFAULT_SOURCE                 /* mkdtemp */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz.h"

static bool trace;
static char dir[64], ckpt_path[128], again_path[128], csv_path[128];

static void remove_files(void)
{
    unlink(ckpt_path);
    unlink(again_path);
    unlink(csv_path);
    rmdir(dir);
}

/* A scratch directory, in memory where there is one (a save fsyncs). */
static void make_dir(void)
{
    if (dir[0] != '\0')
        return;
    snprintf(dir, sizeof dir, "/dev/shm/fuzz_train-XXXXXX");
    if (mkdtemp(dir) == NULL) {
        snprintf(dir, sizeof dir, "/tmp/fuzz_train-XXXXXX");
        FZ_CHECK(mkdtemp(dir) != NULL, "cannot make a scratch directory");
    }
    snprintf(ckpt_path, sizeof ckpt_path, "%s/ckpt", dir);
    snprintf(again_path, sizeof again_path, "%s/again", dir);
    snprintf(csv_path, sizeof csv_path, "%s/digits.csv", dir);
    atexit(remove_files);
}

static void write_file(const char *path, const void *a, size_t na, const void *b, size_t nb,
                       const void *c, size_t nc)
{
    FILE *f = fopen(path, "wb");
    FZ_CHECK(f != NULL, "cannot write %s", path);
    FZ_CHECK(fwrite(a, 1, na, f) == na && fwrite(b, 1, nb, f) == nb && fwrite(c, 1, nc, f) == nc,
             "cannot write %s", path);
    FZ_CHECK(fclose(f) == 0, "cannot write %s", path);
}

/* ------------------------------------------------ the model and its state */

typedef struct {
    tc_module *m;
    tc_sgd *opt;
} model;

static model make_model(void)
{
    tc_generator g;
    tc_generator_init(&g, 3);
    tc_module *layers[3] = { tc_nn_linear(3, 2, true, &g), tc_nn_relu(),
                             tc_nn_linear(2, 2, true, &g) };
    model x = { tc_nn_sequential(3, layers), NULL };
    FZ_CHECK(x.m != NULL && tc_module_num_parameters(x.m) == 4, "the model: %s", tc_error());
    tc_tensor *params[4];
    for (int i = 0; i < 4; i++)
        params[i] = tc_module_parameter(x.m, i);
    x.opt = tc_sgd_new(4, params, (tc_sgd_options){ .lr = 0.1, .momentum = 0.9 });
    FZ_CHECK(x.opt != NULL, "the optimizer: %s", tc_error());
    for (int k = 0; k < 4; k += 3) {
        tc_tensor *b = tc_full(tc_shape_of(params[k]), 0.25 * (k + 1), TC_FLOAT32);
        FZ_CHECK(b != NULL && tc_sgd_set_momentum_buffer(x.opt, k, b) == 0, "a buffer");
        tc_release(b);
    }
    return x;
}

static void free_model(model *x)
{
    tc_sgd_free(x->opt);
    tc_module_free(x->m);
}

/* The bits of everything a load may change, as one string of bytes. */
typedef struct {
    unsigned char bytes[1024];
    size_t n;
} state;

static void add_tensor(state *s, const tc_tensor *t)
{
    size_t n = (size_t)tc_numel(t) * tc_itemsize(t->dtype);
    FZ_CHECK(tc_is_contiguous(t) && s->n + n + 1 <= sizeof s->bytes, "a state too big");
    s->bytes[s->n++] = (unsigned char)t->dtype;
    memcpy(s->bytes + s->n,
           (const unsigned char *)t->storage->data +
               t->storage_offset * (int64_t)tc_itemsize(t->dtype), n);
    s->n += n;
}

static state take_state(const model *x, bool with_opt)
{
    state s = { .n = 0 };
    for (int i = 0; i < tc_module_num_parameters(x->m); i++)
        add_tensor(&s, tc_module_parameter(x->m, i));
    for (int k = 0; with_opt && k < tc_sgd_num_params(x->opt); k++) {
        const tc_tensor *b = tc_sgd_momentum_buffer(x->opt, k);
        s.bytes[s.n++] = b != NULL;
        if (b != NULL)
            add_tensor(&s, b);
    }
    if (with_opt) {
        tc_sgd_options o = tc_sgd_get_options(x->opt);
        double values[4] = { o.lr, o.momentum, o.dampening, o.weight_decay };
        memcpy(s.bytes + s.n, values, sizeof values);
        s.n += sizeof values;
        s.bytes[s.n++] = (unsigned char)(o.nesterov | o.maximize << 1);
    }
    return s;
}

static bool same_state(const state *a, const state *b)
{
    return a->n == b->n && memcmp(a->bytes, b->bytes, a->n) == 0;
}

/* --------------------------------------------------------- checkpoints */

static void load_and_check(bool with_opt)
{
    model x = make_model();
    state before = take_state(&x, true);
    int64_t epoch = -1, step = -1;

    tc_clear_error();
    int status = tc_checkpoint_load(ckpt_path, x.m, with_opt ? x.opt : NULL, &epoch, &step);
    if (trace)
        fprintf(stderr, "load%s: %d %s\n", with_opt ? " with the optimizer" : "", status,
                tc_error() ? tc_error() : "");
    FZ_CHECK(status == 0 || status == -1, "load returned %d", status);
    if (status < 0) {
        const char *msg = tc_error();
        FZ_CHECK(msg != NULL && strstr(msg, ckpt_path) != NULL, "a message without the file: %s",
                 msg ? msg : "(none)");
        FZ_CHECK(epoch == -1 && step == -1, "a refused load set epoch %lld, step %lld",
                 (long long)epoch, (long long)step);
        state after = take_state(&x, true);
        FZ_CHECK(same_state(&before, &after), "a refused load changed the model: %s", msg);
        tc_clear_error();
        free_model(&x);
        return;
    }
    fz_check_no_error("tc_checkpoint_load");
    FZ_CHECK(epoch >= 0 && step >= 0, "epoch %lld, step %lld", (long long)epoch,
             (long long)step);
    /* what was loaded, saved and loaded again, comes back bit for bit */
    FZ_CHECK(tc_checkpoint_save(again_path, x.m, with_opt ? x.opt : NULL, epoch, step) == 0,
             "save: %s", tc_error());
    model y = make_model();
    int64_t epoch2, step2;
    FZ_CHECK(tc_checkpoint_load(again_path, y.m, with_opt ? y.opt : NULL, &epoch2, &step2) == 0,
             "load of a save: %s", tc_error());
    FZ_CHECK(epoch2 == epoch && step2 == step, "epoch and step changed");
    state a = take_state(&x, with_opt), b = take_state(&y, with_opt);
    FZ_CHECK(same_state(&a, &b), "a saved checkpoint loads other bits");
    free_model(&y);
    free_model(&x);
}

static void fuzz_raw(const uint8_t *data, size_t size, bool with_opt)
{
    write_file(ckpt_path, data, size, "", 0, "", 0);
    load_and_check(with_opt);
}

static void fuzz_sealed(const uint8_t *data, size_t size, bool with_opt)
{
    static const unsigned char head[12] = { 'T', 'C', '-', 'C', 'K', 'P', 'T', '\n', 1, 0, 0, 0 };
    unsigned char digest[32];
    tc_sha256 h;
    tc_sha256_init(&h);
    tc_sha256_update(&h, head, sizeof head);
    tc_sha256_update(&h, data, size);
    tc_sha256_final(&h, digest);
    write_file(ckpt_path, head, sizeof head, data, size, digest, sizeof digest);
    load_and_check(with_opt);
}

/* --------------------------------------------------------- the digits */

static void fuzz_digits(const uint8_t *data, size_t size)
{
    tc_dataset d = { NULL, NULL };
    write_file(csv_path, data, size, "", 0, "", 0);
    tc_clear_error();
    int status = tc_digits_load(csv_path, &d);
    if (trace)
        fprintf(stderr, "digits: %d %s\n", status, tc_error() ? tc_error() : "");
    if (status < 0) {
        const char *msg = tc_error();
        FZ_CHECK(status == -1, "returned %d", status);
        FZ_CHECK(msg != NULL && strstr(msg, csv_path) != NULL, "a message without the file: %s",
                 msg ? msg : "(none)");
        FZ_CHECK(d.images == NULL && d.labels == NULL, "a failed load left a dataset");
        tc_clear_error();
        return;
    }
    fz_check_no_error("tc_digits_load");
    FZ_CHECK(status == 0 && d.images != NULL && d.labels != NULL, "no dataset");
    int64_t n = tc_dataset_len(&d);
    FZ_CHECK(n >= 1 && d.images->dtype == TC_FLOAT32 && d.images->dim == 2 &&
                 d.images->sizes[0] == n && d.images->sizes[1] == 64 &&
                 d.labels->dtype == TC_INT64 && d.labels->dim == 1 && d.labels->sizes[0] == n,
             "the dataset's shapes");
    fz_check_in_storage(d.images);
    fz_check_in_storage(d.labels);
    for (int64_t i = 0; i < n * 64; i++) {
        float v = ((const float *)d.images->storage->data)[d.images->storage_offset + i] * 16;
        FZ_CHECK(v >= 0 && v <= 16 && v == (float)(int)v, "pixel %lld is %g / 16", (long long)i,
                 (double)v);
    }
    for (int64_t i = 0; i < n; i++) {
        int64_t c = ((const int64_t *)d.labels->storage->data)[d.labels->storage_offset + i];
        FZ_CHECK(c >= 0 && c <= 9, "label %lld is %lld", (long long)i, (long long)c);
    }
    tc_dataset_free(&d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    trace = getenv("FZ_TRACE") != NULL;
    make_dir();
    uint8_t mode = size > 0 ? data[0] : 0;
    if (size > 0) {
        data++;
        size--;
    }
    switch (mode % 3) {
    case 0: fuzz_raw(data, size, mode & 4); break;
    case 1: fuzz_sealed(data, size, mode & 4); break;
    default: fuzz_digits(data, size); break;
    }
    tc_clear_error();
    return 0;
}
