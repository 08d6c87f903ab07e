/* bench_ch08.c: chapter 8's goals (issue 11), each a ratio measured in this
   run: the square of an extension compiled by tc_load_inline, called by
   name through the registry, against the library's tc_square called
   directly (goal: at least 0.95 of its speed), on 6.4e7, 2^20 and 1,000
   float32; the dispatcher's own cost, tc_call("aten::square") against
   tc_square; and a load_inline that hits the cache against one that
   compiles (goal: at least 50 times faster). The extensions go into a
   private temporary directory, removed at the end. No PyTorch side:
   PyTorch's load_inline cannot compile where torch comes without its C++
   headers (Debian's python3-torch), and its cache hit runs a Python
   import, not a comparable path. */
#define _XOPEN_SOURCE 700    /* mkdtemp, setenv, nftw */
#include <ftw.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "tc.h"

enum { BIG = 64000000, MID = 1 << 20, SMALL = 1000, RUNS = 5, COLD_RUNS = 3, HIT_RUNS = 20 };

#define ROW(what, ...) (printf("  %-50s ", what), printf(__VA_ARGS__), printf("\n"))

/* The kernel of chapter 8's program: square of float32 on the iterator,
   two vectors a step on contiguous rows. */
static const char square_source[] =
    "#if defined(__AVX2__) && defined(__FMA__)\n"
    "#define TC_ISA_AVX2\n"
    "#endif\n"
    "#include <tc/tc.h>\n"
    "#include <tc/vectorized.h>\n"
    "static void square_rows(char **data, const int64_t *strides, int64_t n,\n"
    "                        int64_t rows, void *context)\n"
    "{\n"
    "    (void)context;\n"
    "    for (int64_t r = 0; r < rows; r++) {\n"
    "        char *out = data[0] + r * strides[2];\n"
    "        const char *in = data[1] + r * strides[3];\n"
    "        int64_t i = 0;\n"
    "        if (strides[0] == sizeof(float) && strides[1] == sizeof(float)) {\n"
    "            float *y = (float *)out;\n"
    "            const float *x = (const float *)in;\n"
    "            for (; i + 2 * VEC_F32_LANES <= n; i += 2 * VEC_F32_LANES) {\n"
    "                vec_f32 a = vec_f32_loadu(x + i);\n"
    "                vec_f32 b = vec_f32_loadu(x + i + VEC_F32_LANES);\n"
    "                vec_f32_storeu(y + i, vec_f32_mul(a, a));\n"
    "                vec_f32_storeu(y + i + VEC_F32_LANES, vec_f32_mul(b, b));\n"
    "            }\n"
    "        }\n"
    "        for (; i < n; i++) {\n"
    "            float a = *(const float *)(in + i * strides[1]);\n"
    "            *(float *)(out + i * strides[0]) = a * a;\n"
    "        }\n"
    "    }\n"
    "}\n"
    "tc_tensor *square(const tc_tensor *x)\n"
    "{\n"
    "    tc_iter *it;\n"
    "    tc_tensor *y;\n"
    "    if (x->dtype != TC_FLOAT32)\n"
    "        return tc_fail(\"bench: float32 only\");\n"
    "    if ((it = tc_iter_unary_op(NULL, x)) == NULL)\n"
    "        return NULL;\n"
    "    tc_iter_for_each(it, square_rows, NULL, TC_GRAIN_SIZE);\n"
    "    y = tc_retain(tc_iter_output(it, 0));\n"
    "    tc_iter_release(it);\n"
    "    return y;\n"
    "}\n";
static const char *const functions[] = { "square(Tensor self) -> Tensor" };

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    return remove(path);
}

static const tc_extension *load(const char *name, const char *source, double *took)
{
    tc_inline_options options = {
        .cflags = tc_cpu_capability_get() >= TC_CPU_AVX2 ? "-O3 -mavx2 -mfma" : "-O3"
    };
    double start = bench_seconds();
    const tc_extension *e = tc_load_inline(name, source, 1, functions, &options);

    *took = bench_seconds() - start;
    if (e == NULL)
        printf("  load_inline failed: %s\n", tc_error() != NULL ? tc_error() : "?");
    return e;
}

typedef struct {
    const tc_tensor *x;
    const char *name;      /* an operator to call by name, or NULL: */
    const tc_op *op;       /* an operator to call through its handle, or NULL: tc_square */
    bool failed;
} job;

static void run_square(void *p)
{
    job *j = p;
    tc_tensor *y = j->name != NULL ? tc_call(j->name, tc_value_tensor(j->x))
                 : j->op != NULL ? tc_op_call(j->op, 1, (tc_value[]){ tc_value_tensor(j->x) })
                                 : tc_square(j->x);

    j->failed = j->failed || y == NULL;
    tc_release(y);
}

/* Seconds per call, from the best of RUNS loops of `calls`. */
static double per_call(job *j, int calls)
{
    double best = -1;

    run_square(j);
    for (int r = 0; r < RUNS; r++) {
        double start = bench_seconds(), t;
        for (int c = 0; c < calls; c++)
            run_square(j);
        t = (bench_seconds() - start) / calls;
        if (best < 0 || t < best)
            best = t;
    }
    return best;
}

static tc_tensor *some_floats(int64_t n)
{
    tc_tensor *x = tc_empty(TC_SHAPE(n), TC_FLOAT32);
    float *v = x != NULL ? tc_data_ptr(x) : NULL;

    for (int64_t i = 0; v != NULL && i < n; i++)
        v[i] = (float)((int64_t)(i * 2654435761u % 20011) - 10005) * 1e-3f;
    return x;
}

/* The extension's square, by name and through its handle (as
   torch.ops.square_ext.square holds one), against the library's, called
   directly and by name. */
static void goals_square(const tc_op *ext_op)
{
    static const struct { int64_t n; int calls; const char *what; } sizes[] = {
        { BIG, 1, "6.4e7 float32" }, { MID, 20, "2^20 float32" }, { SMALL, 20000, "1,000 float32" }
    };

    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        tc_tensor *x = some_floats(sizes[s].n);
        job lib = { .x = x }, by_name = { .x = x, .name = "aten::square" },
            ext = { .x = x, .name = tc_op_name(ext_op) }, handle = { .x = x, .op = ext_op };
        double t_lib, t_name, t_ext, t_handle;
        char what[80];

        if (x == NULL) {
            printf("  out of memory\n");
            return;
        }
        t_lib = per_call(&lib, sizes[s].calls);
        t_name = per_call(&by_name, sizes[s].calls);
        t_ext = per_call(&ext, sizes[s].calls);
        t_handle = per_call(&handle, sizes[s].calls);
        tc_release(x);
        if (lib.failed || by_name.failed || ext.failed || handle.failed) {
            printf("  square failed: %s\n", tc_error() != NULL ? tc_error() : "?");
            return;
        }
        snprintf(what, sizeof what, "tc_square(x), %s (baseline)", sizes[s].what);
        ROW(what, "%12.1f us", t_lib * 1e6);
        ROW("  tc_call(\"aten::square\", x)", "%12.1f us  tc_square's time / this: %5.2f",
            t_name * 1e6, t_lib / t_name);
        ROW("  the extension's square, by name", "%12.1f us  tc_square's time / this: %5.2f  "
            "(goal >= 0.95)", t_ext * 1e6, t_lib / t_ext);
        ROW("  the extension's square, through its tc_op", "%12.1f us  tc_square's time / this: "
            "%5.2f", t_handle * 1e6, t_lib / t_handle);
    }
}

/* A cold build (a new source each time: a new key) against a cache hit
   (the same source again: the digest checked, the object dlopened). */
static const tc_extension *goals_load(void)
{
    const tc_extension *e = NULL;
    double cold = -1, hit = -1, t;
    char name[32], *source = malloc(sizeof square_source + 64);

    if (source == NULL)
        return NULL;
    for (int r = 0; r < COLD_RUNS; r++) {
        snprintf(name, sizeof name, "bench_square_%d", r);
        snprintf(source, sizeof square_source + 64, "/* cold build %d */\n%s", r, square_source);
        if ((e = load(name, source, &t)) == NULL)
            break;
        if (!e->compiled)
            printf("  %s did not compile: was the cache not empty?\n", name);
        cold = cold < 0 || t < cold ? t : cold;
    }
    for (int r = 0; e != NULL && r < HIT_RUNS; r++) {
        const tc_extension *again = load(name, source, &t);
        if (again == NULL || again->compiled) {
            printf("  the cache hit compiled\n");
            e = NULL;
            break;
        }
        hit = hit < 0 || t < hit ? t : hit;
    }
    free(source);
    if (e != NULL) {
        ROW("load_inline, a cold build (best of 3)", "%12.1f ms", cold * 1e3);
        ROW("load_inline, a cache hit (best of 20)", "%12.3f ms  cold / hit: %.0f  (goal >= 50)",
            hit * 1e3, cold / hit);
    }
    return e;
}

void bench_ch08(void)
{
    char dir[] = "/tmp/bench_ch08-XXXXXX";
    const tc_extension *e;
    int threads = tc_get_num_threads();

    printf("chapter 8: dispatch and inline extensions, capability %s; one thread\n",
           tc_cpu_capability_name(tc_cpu_capability_get()));
    if (mkdtemp(dir) == NULL || setenv("TC_EXTENSIONS_DIR", dir, 1) != 0) {
        printf("  cannot make a private cache directory\n");
        return;
    }
    tc_set_num_threads(1);
    if ((e = goals_load()) != NULL)
        goals_square(e->ops[0]);
    tc_set_num_threads(threads);
    nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}
