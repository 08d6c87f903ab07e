/* bench_ch07.c: chapter 7's goals (issue 10), each a ratio measured in this
   run: square of 6.4e7 float32 into a preallocated output against a memcpy
   of the same bytes and against PyTorch; square of 1,000 float32, the whole
   call, against PyTorch; square of a 4096 x 4096 transposed view into a
   contiguous output against PyTorch and against the contiguous case;
   matmul float32 512 and 1024 against OpenBLAS's sgemm when a libopenblas
   can be loaded, against PyTorch's torch.mm (one thread) and against the
   FMA peak measured here, and two threads against one (with the cost of a
   tc_parallel_for of two empty chunks); chapter 4's sparse.mm against
   PyTorch; sum of 6.4e7 float32 against the read bandwidth; x.t() + x.t()
   against x + x and against PyTorch. PyTorch's side is
   tests/bench_torch_ch07.py, run through $TORCH_BENCH_CH07 when
   /usr/bin/python3 has torch. Everything runs on one thread (ours and
   PyTorch's) except the lines that say two. Last, a sweep of square,
   memcpy, sum and the read baseline over sizes from 10^3 to 6.4e7, drawn
   as $BENCH_DIR/ch07.svg (build/bench/ch07.svg from make bench). */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "tc.h"

enum { BIG = 64000000, SIDE = 4096, SMALL = 1000, RUNS = 5 };
enum { NNZ = 1000000, SP_SIDE = 10000, SP_COLS = 64 };

/* The measurements of PyTorch's side, by name and thread count. */
enum { MAX_TORCH = 64 };
static struct { char name[48]; int threads; double seconds; } torch_m[MAX_TORCH];
static int ntorch;
static char torch_version[64] = "", torch_why[256] = "";

static double torch_seconds(const char *name, int threads)
{
    for (int i = 0; i < ntorch; i++)
        if (strcmp(torch_m[i].name, name) == 0 && torch_m[i].threads == threads)
            return torch_m[i].seconds;
    return -1;
}

/* A line "  WHAT  VALUE  NOTE" of the report. */
#define ROW(what, ...) (printf("  %-50s ", what), printf(__VA_ARGS__), printf("\n"))

/* ---- the kernels timed ---------------------------------------------------- */

/* y = square(x) into the preallocated y, as torch.square(x, out=y): the
   iterator's plan over (y, x) running the vectorized square kernel of the
   capability in use, what tc_square runs once it has allocated y. */
static bool square_into(tc_tensor *y, const tc_tensor *x)
{
    tc_kernel *square = tc_vec_kernel(TC_VEC_SQUARE, x->dtype);

    return square != NULL && tc_iter_loop(2, (tc_tensor *[]){ y, (tc_tensor *)x }, square, NULL);
}

typedef struct {
    tc_tensor *x, *y;
    const tc_sparse *s;
    int64_t n;          /* elements, for the raw loops */
    bool failed;
} job;

static void check(job *j, bool ok)
{
    if (!ok && !j->failed) {
        j->failed = true;
        printf("  failed: %s\n", tc_error() != NULL ? tc_error() : "?");
    }
}

static void run_memcpy(void *p)
{
    job *j = p;
    memcpy(tc_data_ptr(j->y), tc_data_ptr(j->x), (size_t)j->n * sizeof(float));
    bench_escape(tc_data_ptr(j->y));
}

/* The read bandwidth: every 4-byte word of x, read once, xor-ed (the
   compiler vectorizes it; no float rounding holds it back). */
static uint32_t xor_words(const uint32_t *w, int64_t n)
{
    uint32_t acc = 0;

    for (int64_t i = 0; i < n; i++)
        acc ^= w[i];
    return acc;
}

static void run_read(void *p)
{
    static uint32_t result;
    job *j = p;

    result = xor_words(tc_data_ptr(j->x), j->n);
    bench_escape(&result);
}

static void run_square_into(void *p) { job *j = p; check(j, square_into(j->y, j->x)); }
static void run_square(void *p)
{
    job *j = p;
    tc_tensor *y = tc_square(j->x);
    check(j, y != NULL);
    tc_release(y);
}
static void run_sum(void *p)
{
    job *j = p;
    tc_tensor *s = tc_sum(j->x);
    check(j, s != NULL);
    tc_release(s);
}
static void run_add(void *p)
{
    job *j = p;
    tc_tensor *z = tc_add(j->x, j->x);
    check(j, z != NULL);
    tc_release(z);
}
static void run_matmul(void *p)
{
    job *j = p;
    tc_tensor *z = tc_matmul(j->x, j->y);
    check(j, z != NULL);
    tc_release(z);
}
static void run_spmm(void *p)
{
    job *j = p;
    tc_tensor *z = tc_sparse_mm(j->s, j->x);
    check(j, z != NULL);
    tc_release(z);
}

/* A tc_parallel_for of two chunks of one iteration each: what a loop pays
   to use the pool's second thread (woken, or still spinning), and to wait
   for it. */
static void chunk_nothing(int64_t begin, int64_t end, void *context)
{
    bench_escape(context);
    (void)begin, (void)end;
}
static void run_parallel_for(void *p)
{
    (void)p;
    tc_parallel_for(0, 2, 1, chunk_nothing, NULL);
}

/* Seconds per call of run(j), from the best of `runs` loops of `calls`. */
static double per_call(void (*run)(void *), job *j, int calls, int runs)
{
    double best = -1;

    run(j);    /* warm up: first touches, first calls */
    for (int r = 0; r < runs; r++) {
        double start = bench_seconds(), t;
        for (int c = 0; c < calls; c++)
            run(j);
        t = (bench_seconds() - start) / calls;
        if (best < 0 || t < best)
            best = t;
    }
    return best;
}

/* The FMA peak of one core, measured: 12 independent chains of vector
   fused multiply-adds (enough to cover the latency of two FMA units), with
   the widest vectors the compiler was told this CPU has (-march=native),
   2 flops per lane. GFLOP/s. */
#if defined(__AVX512F__)
#include <immintrin.h>
typedef __m512 peak_vec;
#define PEAK_LANES 16
#define PEAK_SET(x) _mm512_set1_ps(x)
#define PEAK_FMA(a, b, c) _mm512_fmadd_ps(a, b, c)
#elif defined(__FMA__)
#include <immintrin.h>
typedef __m256 peak_vec;
#define PEAK_LANES 8
#define PEAK_SET(x) _mm256_set1_ps(x)
#define PEAK_FMA(a, b, c) _mm256_fmadd_ps(a, b, c)
#else
typedef float peak_vec;
#define PEAK_LANES 1
#define PEAK_SET(x) (x)
#define PEAK_FMA(a, b, c) fmaf(a, b, c)
#endif

static double fma_peak(void)
{
    const int64_t iters = 20000000;
    double best = -1;

    for (int r = 0; r < 3; r++) {
        /* Each chain starts from its own value: chains that start equal
           compute equal values, and GCC merged them into one, a chain of
           dependent FMAs that ran at one FMA per latency and counted as 12. */
        peak_vec m = PEAK_SET(0.999999f), c = PEAK_SET(1e-7f);
        peak_vec a0 = PEAK_SET(0.10f), a1 = PEAK_SET(0.11f), a2 = PEAK_SET(0.12f);
        peak_vec a3 = PEAK_SET(0.13f), a4 = PEAK_SET(0.14f), a5 = PEAK_SET(0.15f);
        peak_vec a6 = PEAK_SET(0.16f), a7 = PEAK_SET(0.17f), a8 = PEAK_SET(0.18f);
        peak_vec a9 = PEAK_SET(0.19f), a10 = PEAK_SET(0.20f), a11 = PEAK_SET(0.21f);
        double start = bench_seconds(), t;
        for (int64_t i = 0; i < iters; i++) {
            a0 = PEAK_FMA(a0, m, c), a1 = PEAK_FMA(a1, m, c), a2 = PEAK_FMA(a2, m, c);
            a3 = PEAK_FMA(a3, m, c), a4 = PEAK_FMA(a4, m, c), a5 = PEAK_FMA(a5, m, c);
            a6 = PEAK_FMA(a6, m, c), a7 = PEAK_FMA(a7, m, c), a8 = PEAK_FMA(a8, m, c);
            a9 = PEAK_FMA(a9, m, c), a10 = PEAK_FMA(a10, m, c), a11 = PEAK_FMA(a11, m, c);
        }
        t = bench_seconds() - start;
        {
            static peak_vec keep[12];
            keep[0] = a0, keep[1] = a1, keep[2] = a2, keep[3] = a3, keep[4] = a4, keep[5] = a5;
            keep[6] = a6, keep[7] = a7, keep[8] = a8, keep[9] = a9, keep[10] = a10;
            keep[11] = a11;
            bench_escape(keep);
        }
        if (best < 0 || t < best)
            best = t;
    }
    return 2.0 * 12 * PEAK_LANES * (double)iters / best * 1e-9;
}

/* The same on two threads at once, through the pool: the sum of their
   rates, the ceiling of what two threads can give a product. */
static void peak_chunk(int64_t begin, int64_t end, void *context)
{
    double *rates = context;

    for (int64_t i = begin; i < end; i++)
        rates[i] = fma_peak();
}

static double fma_peak_two(void)
{
    double rates[2] = { 0, 0 };

    tc_set_num_threads(2);
    tc_parallel_for(0, 2, 1, peak_chunk, rates);
    tc_set_num_threads(1);
    return rates[0] + rates[1];
}

/* ---- chapter 4's bench matrix, and PyTorch's side --------------------------- */

static uint64_t state = 0x9e3779b97f4a7c15u;
static uint64_t next_random(void)
{
    state ^= state >> 12;
    state ^= state << 25;
    state ^= state >> 27;
    return state * 0x2545f4914f6cdd1du;
}

/* bench_ch04.c's matrix: 900,000 random positions in 10^4 x 10^4, then
   100,000 of them again; coalesced. */
static tc_sparse *chapter4_matrix(void)
{
    tc_sparse *m = bench_random_sparse(SP_SIDE, NNZ, next_random, NULL);
    tc_sparse *c = m != NULL ? tc_sparse_coalesce(m) : NULL;

    tc_sparse_release(m);
    return c;
}

/* The coalesced matrix for PyTorch's side, in the file format that
   bench_torch_ch07.py reads. */
static bool write_matrix(const char *path, const tc_sparse *c)
{
    FILE *f = fopen(path, "wb");
    int64_t nnz = tc_sparse_nnz(c);
    tc_tensor *ind = tc_contiguous(c->indices), *val = tc_contiguous(c->values);
    bool ok = f != NULL && ind != NULL && val != NULL;

    if (ok) {
        fprintf(f, "%lld %d %d %d\n", (long long)nnz, SP_SIDE, SP_SIDE, SP_COLS);
        ok = fwrite(tc_data_ptr(ind), sizeof(int64_t), 2 * (size_t)nnz, f) == 2 * (size_t)nnz &&
             fwrite(tc_data_ptr(val), sizeof(float), (size_t)nnz, f) == (size_t)nnz;
    }
    if (f != NULL && fclose(f) != 0)
        ok = false;
    tc_release(ind), tc_release(val);
    return ok;
}

/* The sizes of the sweep (the plot). */
static const int64_t sweep_sizes[] = { 1000, 10000, 100000, 1000000, 10000000, BIG };
enum { NSWEEP = sizeof sweep_sizes / sizeof sweep_sizes[0] };

/* Run PyTorch's side to the end (before ours, so that the two never share
   the cores), reading its measurements. false, with torch_why, if not. */
static bool run_torch(const char *matrix_file)
{
    const char *command = getenv("TORCH_BENCH_CH07");
    char full[1024], line[256];
    size_t used;
    FILE *p;

    if (command == NULL || command[0] == '\0') {
        snprintf(torch_why, sizeof torch_why, "skipped: TORCH_BENCH_CH07 is not set");
        return false;
    }
    used = (size_t)snprintf(full, sizeof full, "%s %s", command, matrix_file);
    for (int k = 0; k < NSWEEP && used < sizeof full; k++)
        used += (size_t)snprintf(full + used, sizeof full - used, " %lld",
                                 (long long)sweep_sizes[k]);
    fflush(stdout);
    if ((p = popen(full, "r")) == NULL) {
        snprintf(torch_why, sizeof torch_why, "failed: cannot start %s", command);
        return false;
    }
    while (fgets(line, sizeof line, p) != NULL) {
        if (ntorch < MAX_TORCH && sscanf(line, "torch %47s %d %lf", torch_m[ntorch].name,
                                         &torch_m[ntorch].threads,
                                         &torch_m[ntorch].seconds) == 3)
            ntorch++;
        sscanf(line, "torch_version %63s", torch_version);
        if (strncmp(line, "torch: not installed", 20) == 0)
            snprintf(torch_why, sizeof torch_why, "skipped: torch is not installed");
    }
    if (pclose(p) != 0 || ntorch == 0) {
        if (torch_why[0] == '\0')
            snprintf(torch_why, sizeof torch_why, "failed: %s did not answer", command);
        return false;
    }
    return true;
}

/* "  WHAT  T ms  WHO's time / ours: R  GOAL" for the measurement name of the
   Python side, or why there is none. */
static void versus(const char *what, const char *who, const char *name, int threads,
                   double ours, const char *goal)
{
    double theirs = torch_seconds(name, threads);

    if (theirs < 0)
        ROW(what, "(%s)", torch_why[0] != '\0' ? torch_why : "no measurement");
    else
        ROW(what, "%9.3f ms  %s's time / ours: %5.2f  %s", theirs * 1e3, who, theirs / ours,
            goal);
}

static void versus_torch(const char *what, const char *name, int threads, double ours,
                         const char *goal)
{
    versus(what, "PyTorch", name, threads, ours, goal);
}

/* ---- the plot ----------------------------------------------------------------- */

enum { NLINES = 5 };
static const char *const line_name[NLINES] = {
    "memcpy (read + write)", "square into y (ours)", "square into y (PyTorch)",
    "sum (ours)", "read baseline (xor of every word)"
};
static const char *const line_color[NLINES] = { "#777777", "#0b5cad", "#c0392b", "#2e8b57",
                                                "#b8860b" };

/* GB/s of each line at each size of the sweep (negative: not measured),
   as lines, both axes logarithmic, into path. */
static bool plot(const char *path, double gbs[NLINES][NSWEEP])
{
    const int left = 60, top = 30, width = 440, height = 250;
    double x0 = 3, x1 = 8, y0, y1, ymin = 1e9, ymax = 1;
    FILE *f = fopen(path, "w");

    if (f == NULL)
        return false;
    for (int l = 0; l < NLINES; l++)
        for (int k = 0; k < NSWEEP; k++)
            if (gbs[l][k] > 0) {
                ymax = fmax(ymax, gbs[l][k]);
                ymin = fmin(ymin, gbs[l][k]);
            }
    y1 = ceil(log10(ymax));
    y0 = fmin(floor(log10(ymin)), y1 - 1);
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"560\" height=\"420\" "
               "font-family=\"DejaVu Sans, sans-serif\" font-size=\"12\">\n"
               "<rect width=\"560\" height=\"420\" fill=\"#ffffff\"/>\n"
               "<text x=\"%d\" y=\"18\">chapter 7, one thread: GB/s of the bytes "
               "each kernel must move</text>\n", left);
    fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" "
               "stroke=\"#333\"/>\n", left, top, width, height);
    for (int e = 3; e <= 8; e++) {
        double x = left + (e - x0) / (x1 - x0) * width;
        fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#ddd\"/>\n"
                   "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">1e%d</text>\n",
                x, top, x, top + height, x, top + height + 16, e);
    }
    for (int e = (int)y0; e <= (int)y1; e++) {
        double y = top + height - (e - y0) / (y1 - y0) * height;
        fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>\n"
                   "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%g</text>\n",
                left, y, left + width, y, left - 6, y + 4, pow(10, e));
    }
    fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">float32 elements</text>\n",
            left + width / 2, top + height + 34);
    for (int l = 0; l < NLINES; l++) {
        fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"",
                line_color[l]);
        for (int k = 0; k < NSWEEP; k++)
            if (gbs[l][k] > 0)
                fprintf(f, "%.1f,%.1f ",
                        left + (log10((double)sweep_sizes[k]) - x0) / (x1 - x0) * width,
                        top + height - (fmax(log10(gbs[l][k]), y0) - y0) / (y1 - y0) * height);
        fprintf(f, "\"/>\n<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" "
                   "stroke-width=\"2\"/><text x=\"%d\" y=\"%d\">%s</text>\n",
                left, top + height + 52 + 18 * l, left + 24, top + height + 52 + 18 * l,
                line_color[l], left + 30, top + height + 56 + 18 * l, line_name[l]);
    }
    fprintf(f, "</svg>\n");
    return fclose(f) == 0;
}

/* ---- the goals ------------------------------------------------------------------ */

/* A float32 tensor of the shape with values in [0, 1) from the generator. */
static tc_tensor *random_tensor(tc_shape shape)
{
    tc_tensor *t = tc_empty(shape, TC_FLOAT32);

    if (t != NULL) {
        float *v = tc_data_ptr(t);
        for (int64_t i = 0; i < tc_numel(t); i++)
            v[i] = (float)(next_random() >> 40) / 16777216.0f;
    }
    return t;
}

static void goals_square(void)
{
    tc_tensor *x = random_tensor(TC_SHAPE(BIG)), *y = tc_empty(TC_SHAPE(BIG), TC_FLOAT32);
    tc_tensor *small = random_tensor(TC_SHAPE(SMALL));
    job j = { .x = x, .y = y, .n = BIG }, js = { .x = small };
    double copy, sq, one;

    if (x == NULL || y == NULL || small == NULL) {
        printf("  out of memory\n");
    } else {
        copy = bench_best(run_memcpy, &j, RUNS);
        sq = bench_best(run_square_into, &j, RUNS);
        ROW("memcpy of 6.4e7 float32 (baseline)", "%9.3f ms  %.1f GB/s read + write", copy * 1e3,
            2.0 * BIG * 4 / copy * 1e-9);
        ROW("square(x) into a preallocated y, 6.4e7 float32", "%9.3f ms  memcpy's time / ours: "
            "%5.2f  (goal >= 0.8)", sq * 1e3, copy / sq);
        versus_torch("  PyTorch, torch.square(x, out=y)", "square_big", 1, sq, "(goal >= 1.3)");
        one = per_call(run_square, &js, 20000, RUNS);
        ROW("square(x), 1,000 float32, the whole call", "%9.1f ns", one * 1e9);
        versus_torch("  PyTorch, torch.square(x)", "square_small", 1, one, "(goal >= 10)");
    }
    tc_release(x), tc_release(y), tc_release(small);
}

static void goals_transposed(void)
{
    tc_tensor *x = random_tensor(TC_SHAPE(SIDE, SIDE)), *xt = tc_t(x);
    tc_tensor *out = tc_empty(TC_SHAPE(SIDE, SIDE), TC_FLOAT32);
    job jt = { .x = xt, .y = out }, jc = { .x = x, .y = out };
    double t, c, add_t, add_c;

    if (xt == NULL || out == NULL) {
        printf("  out of memory\n");
    } else {
        c = bench_best(run_square_into, &jc, RUNS);
        t = bench_best(run_square_into, &jt, RUNS);
        ROW("square, 4096 x 4096 contiguous into contiguous", "%9.3f ms", c * 1e3);
        ROW("square, its transpose x.t() into contiguous", "%9.3f ms  %.3f elements/ns; "
            "ours / contiguous: %.2f  (goal <= 4)", t * 1e3, (double)SIDE * SIDE / t * 1e-9, t / c);
        versus_torch("  PyTorch, torch.square(x.t(), out=y)", "square_t", 1, t, "(goal >= 4)");
        add_c = bench_best(run_add, &jc, RUNS);
        add_t = bench_best(run_add, &jt, RUNS);
        ROW("x + x, 4096 x 4096", "%9.3f ms", add_c * 1e3);
        ROW("x.t() + x.t()", "%9.3f ms  ours / x + x: %.2f  (goal: about 1)", add_t * 1e3,
            add_t / add_c);
        versus_torch("  PyTorch, x.t() + x.t()", "add_tt", 1, add_t, "(goal >= 1)");
    }
    tc_release(x), tc_release(xt), tc_release(out);
}

static void goals_matmul(double peak)
{
    job none = { 0 };
    double peak2 = fma_peak_two();

    tc_set_num_threads(2);
    ROW("tc_parallel_for, two chunks of nothing", "%9.2f us  the whole call, on two threads",
        per_call(run_parallel_for, &none, 2000, RUNS) * 1e6);
    tc_set_num_threads(1);
    ROW("FMA peak of one core, measured here", "%9.1f GFLOP/s", peak);
    ROW("FMA peak of two threads at once", "%9.1f GFLOP/s  %.2f times one core's: the ceiling "
        "of two threads", peak2, peak2 / peak);
    for (int n = 512; n <= 1024; n *= 2) {
        tc_tensor *a = random_tensor(TC_SHAPE(n, n)), *b = random_tensor(TC_SHAPE(n, n));
        job j = { .x = a, .y = b };
        double one, two, flops = 2.0 * n * n * n;
        char what[64], name[32];

        if (a == NULL || b == NULL) {
            printf("  out of memory\n");
        } else {
            tc_set_num_threads(1);
            one = bench_best(run_matmul, &j, RUNS);
            tc_set_num_threads(2);
            two = bench_best(run_matmul, &j, RUNS);
            tc_set_num_threads(1);
            snprintf(what, sizeof what, "matmul float32 %d x %d, one thread", n, n);
            ROW(what, "%9.3f ms  %.1f GFLOP/s, %.2f of the peak", one * 1e3, flops / one * 1e-9,
                flops / one * 1e-9 / peak);
            snprintf(name, sizeof name, "openblas_mm_%d", n);
            if (torch_seconds(name, 1) > 0)
                versus("  OpenBLAS sgemm, one thread", "OpenBLAS", name, 1, one, "(goal >= 0.9)");
            else
                ROW("  OpenBLAS sgemm, one thread", "(no libopenblas here: not measured)");
            snprintf(name, sizeof name, "mm_%d", n);
            versus_torch("  PyTorch, torch.mm, one thread", name, 1, one, "");
            ROW("  two threads", "%9.3f ms  one thread's time / two's: %.2f  (goal >= 1.7)",
                two * 1e3, one / two);
            versus_torch("  PyTorch, torch.mm, two threads", name, 2, two, "");
        }
        tc_release(a), tc_release(b);
    }
}

static void goals_sparse_sum(const tc_sparse *c)
{
    tc_tensor *dense = tc_ones(TC_SHAPE(SP_SIDE, SP_COLS), TC_FLOAT32);
    tc_tensor *x = random_tensor(TC_SHAPE(BIG));
    job js = { .x = dense, .s = c }, j = { .x = x, .n = BIG };
    double spmm, read, sum;

    if (dense == NULL || x == NULL) {
        printf("  out of memory\n");
    } else {
        spmm = bench_best(run_spmm, &js, RUNS);
        ROW("sparse.mm, chapter 4's matrix x dense 10^4 x 64", "%9.3f ms", spmm * 1e3);
        versus_torch("  PyTorch, torch.sparse.mm", "spmm", 1, spmm, "(goal >= 2)");
        read = bench_best(run_read, &j, RUNS);
        sum = bench_best(run_sum, &j, RUNS);
        ROW("read of 6.4e7 float32 (baseline)", "%9.3f ms  %.1f GB/s", read * 1e3,
            4.0 * BIG / read * 1e-9);
        ROW("x.sum(), 6.4e7 float32", "%9.3f ms  the read's time / ours: %5.2f  (goal >= 0.8)",
            sum * 1e3, read / sum);
        versus_torch("  PyTorch, x.sum()", "sum_big", 1, sum, "");
    }
    tc_release(dense), tc_release(x);
}

/* The sweep of the plot: GB/s of each line at each size. */
static void sweep(double gbs[NLINES][NSWEEP])
{
    void (*const runs[NLINES])(void *) = { run_memcpy, run_square_into, NULL, run_sum, run_read };
    const double bytes[NLINES] = { 8, 8, 8, 4, 4 };

    for (int k = 0; k < NSWEEP; k++) {
        int64_t n = sweep_sizes[k];
        tc_tensor *x = random_tensor(TC_SHAPE(n)), *y = tc_empty(TC_SHAPE(n), TC_FLOAT32);
        job j = { .x = x, .y = y, .n = n };
        char name[48];
        double theirs;
        int calls = n < 2000000 ? (int)(2000000 / n) : 1;

        for (int l = 0; l < NLINES; l++)
            gbs[l][k] = x == NULL || y == NULL || runs[l] == NULL
                            ? -1 : bytes[l] * (double)n / per_call(runs[l], &j, calls, 3) * 1e-9;
        snprintf(name, sizeof name, "sweep_square_%lld", (long long)n);
        theirs = torch_seconds(name, 1);
        gbs[2][k] = theirs > 0 ? 8.0 * (double)n / theirs * 1e-9 : -1;
        tc_release(x), tc_release(y);
    }
}

void bench_ch07(void)
{
    const char *dir = getenv("BENCH_DIR") != NULL ? getenv("BENCH_DIR") : "build/bench";
    char matrix_file[1024], plot_file[1024];
    double gbs[NLINES][NSWEEP], peak;
    int threads = tc_get_num_threads();
    tc_sparse *c = chapter4_matrix();

    printf("chapter 7: TensorIterator and SIMD, capability %s; one thread unless said\n",
           tc_cpu_capability_name(tc_cpu_capability_get()));
    snprintf(matrix_file, sizeof matrix_file, "%s/ch07_sparse.bin", dir);
    snprintf(plot_file, sizeof plot_file, "%s/ch07.svg", dir);
    if (c == NULL || !write_matrix(matrix_file, c)) {
        printf("  cannot make or write chapter 4's matrix (%s)\n", matrix_file);
        tc_sparse_release(c);
        return;
    }
    if (run_torch(matrix_file))
        printf("  PyTorch %s measured first, in this run (tests/bench_torch_ch07.py)\n",
               torch_version);
    else
        printf("  PyTorch: %s\n", torch_why);
    tc_set_num_threads(1);
    peak = fma_peak();
    goals_square();
    goals_transposed();
    goals_matmul(peak);
    goals_sparse_sum(c);
    tc_sparse_release(c);
    sweep(gbs);
    printf("  %-50s %s\n", "speed against size (GB/s):",
           plot(plot_file, gbs) ? plot_file : "(cannot write the plot)");
    for (int l = 0; l < NLINES; l++) {
        printf("    %-48s", line_name[l]);
        for (int k = 0; k < NSWEEP; k++)
            printf(gbs[l][k] < 0 ? "      -" : " %6.1f", gbs[l][k]);
        printf("\n");
    }
    tc_set_num_threads(threads);
}
