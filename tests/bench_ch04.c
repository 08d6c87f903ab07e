/* bench_ch04.c: coalesce against qsort of the same keys and against
   PyTorch's coalesce of the same matrix, and the sparse x dense product
   against the memory bandwidth it needs. */
#define _POSIX_C_SOURCE 200809L
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"
#include "tc.h"

enum { NNZ = 1000000, SIDE = 10000, COLS = 64, ROUNDS = 11 };

static tc_sparse *s, *c;
static tc_tensor *dense;
static uint64_t *keys, *sorted;
static float *from, *to;

/* A small deterministic generator (xorshift64*), so every run times the
   same matrix. */
static uint64_t state = 0x9e3779b97f4a7c15u;
static uint64_t next_random(void)
{
    state ^= state >> 12;
    state ^= state << 25;
    state ^= state >> 27;
    return state * 0x2545f4914f6cdd1du;
}

static int compare_keys(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

static void run_coalesce(void *arg) { (void)arg; tc_sparse_release(tc_sparse_coalesce(s)); }
static void run_qsort(void *arg)
{
    (void)arg;
    memcpy(sorted, keys, NNZ * sizeof *keys);
    qsort(sorted, NNZ, sizeof *sorted, compare_keys);
    bench_escape(sorted);
}
static void run_spmm(void *arg) { (void)arg; tc_release(tc_sparse_mm(c, dense)); }
static void run_memcpy(void *arg)
{
    (void)arg;
    memcpy(to, from, (size_t)SIDE * COLS * sizeof *from);
    bench_escape(to);
}

/* PyTorch's coalesce, in a child process running the command in
   $TORCH_BENCH (tests/bench_torch_ch04.py, which says the protocol). */
typedef struct {
    pid_t pid;
    FILE *to, *from;
    char version[64];
    int threads;
} torch_child;

static bool torch_start(torch_child *t, const char *command, const tc_sparse *m)
{
    int in[2], out[2];

    if (pipe(in) < 0)
        return false;
    if (pipe(out) < 0) {
        close(in[0]);
        close(in[1]);
        return false;
    }
    t->pid = fork();
    if (t->pid == 0) {
        dup2(in[0], STDIN_FILENO);
        dup2(out[1], STDOUT_FILENO);
        close(in[0]), close(in[1]), close(out[0]), close(out[1]);
        execl("/bin/sh", "sh", "-c", command, (char *)NULL);
        _exit(127);
    }
    close(in[0]);
    close(out[1]);
    t->to = t->pid > 0 ? fdopen(in[1], "w") : NULL;
    t->from = t->pid > 0 ? fdopen(out[0], "r") : NULL;
    if (t->to == NULL || t->from == NULL)
        return false;
    fprintf(t->to, "%d %d\n", NNZ, SIDE);
    fwrite(tc_data_ptr(m->indices), sizeof(int64_t), 2 * (size_t)NNZ, t->to);
    fwrite(tc_data_ptr(m->values), sizeof(float), NNZ, t->to);
    fflush(t->to);
    return fscanf(t->from, "ready %63s %d", t->version, &t->threads) == 2;
}

/* One timed torch coalesce: its seconds (negative if the child failed). */
static double torch_run(torch_child *t, long long *nnz)
{
    double seconds;

    fprintf(t->to, "run\n");
    fflush(t->to);
    return fscanf(t->from, "%lf %lld", &seconds, nnz) == 2 ? seconds : -1;
}

static void torch_stop(torch_child *t)
{
    if (t->to != NULL)
        fclose(t->to);
    if (t->from != NULL)
        fclose(t->from);
    if (t->pid > 0)
        waitpid(t->pid, NULL, 0);
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *x, int n)
{
    qsort(x, (size_t)n, sizeof *x, compare_doubles);
    return x[n / 2];
}

/* Ours and PyTorch's coalesce of s, turn by turn; prints the medians. */
static void compare_with_torch(void)
{
    const char *command = getenv("TORCH_BENCH");
    torch_child t = { 0 };
    double ours[ROUNDS], theirs[ROUNDS], mine, torch;
    long long torch_nnz = -1;
    bool ok;

    if (command == NULL || command[0] == '\0') {
        printf("  %-44s (skipped: TORCH_BENCH is not set)\n", "coalesce, PyTorch");
        return;
    }
    signal(SIGPIPE, SIG_IGN);    /* a child that dies must not kill the bench */
    ok = torch_start(&t, command, s);
    run_coalesce(NULL);    /* warm up, as the child did */
    for (int r = 0; ok && r < ROUNDS; r++) {
        double start = bench_seconds();
        run_coalesce(NULL);
        ours[r] = bench_seconds() - start;
        theirs[r] = torch_run(&t, &torch_nnz);
        ok = theirs[r] >= 0;
    }
    torch_stop(&t);
    if (!ok) {
        printf("  %-44s (failed: %s did not answer)\n", "coalesce, PyTorch", command);
        return;
    }
    mine = median(ours, ROUNDS);
    torch = median(theirs, ROUNDS);
    printf("  %-44s %8.1f ms   (median of %d, turn by turn with PyTorch's)\n",
           "coalesce, this library", mine * 1e3, ROUNDS);
    printf("  %-44s %8.1f ms   (torch %s, %d thread%s, nnz after: %lld)\n",
           "coalesce, PyTorch, the same matrix", torch * 1e3, t.version, t.threads,
           t.threads == 1 ? "" : "s", torch_nnz);
    printf("  %-44s %8.2fx %s\n", "PyTorch's time / ours", torch / mine,
           torch_nnz == tc_sparse_nnz(c) ? "" : "(nnz differ!)");
}

/* 900,000 random positions, then 100,000 of them again: about 10% duplicates. */
static tc_sparse *random_matrix(void)
{
    return bench_random_sparse(SIDE, NNZ, next_random, keys);
}

void bench_ch04(void)
{
    double t_coalesce, t_qsort, t_spmm, t_copy, bytes;

    keys = malloc(NNZ * sizeof *keys);
    sorted = malloc(NNZ * sizeof *sorted);
    from = malloc((size_t)SIDE * COLS * sizeof *from);
    to = malloc((size_t)SIDE * COLS * sizeof *to);
    s = keys != NULL ? random_matrix() : NULL;
    c = tc_sparse_coalesce(s);
    dense = tc_ones(TC_SHAPE(SIDE, COLS), TC_FLOAT32);
    printf("chapter 4: sparse COO, 10^6 entries in 10^4 x 10^4, ~10%% duplicates\n");
    if (s == NULL || c == NULL || dense == NULL || sorted == NULL || from == NULL ||
        to == NULL) {
        printf("  out of memory\n");
        goto done;
    }
    memset(from, 0, (size_t)SIDE * COLS * sizeof *from);
    t_coalesce = bench_best(run_coalesce, NULL, 5);
    t_qsort = bench_best(run_qsort, NULL, 3);
    printf("  %-44s %8.1f ms   (baseline)\n", "qsort of the 10^6 linear keys", t_qsort * 1e3);
    printf("  %-44s %8.1f ms   %5.2fx the time of qsort (nnz after: %lld)\n",
           "coalesce (radix sort, merge, sum)", t_coalesce * 1e3, t_coalesce / t_qsort,
           (long long)tc_sparse_nnz(c));
    compare_with_torch();
    t_spmm = bench_best(run_spmm, NULL, 5);
    t_copy = bench_best(run_memcpy, NULL, 5);
    /* what the product must read: each entry's 2 indices and value, and the
       row of the dense matrix it names */
    bytes = (double)tc_sparse_nnz(c) * (2 * 8 + 4 + COLS * 4);
    printf("  %-44s %8.2f GFLOP/s (2 nnz 64 flops)\n", "sparse.mm with a dense 10^4 x 64",
           2.0 * (double)tc_sparse_nnz(c) * COLS / t_spmm * 1e-9);
    printf("  %-44s %8.2f GB/s    %5.2fx memcpy's bandwidth (%.2f GB/s)\n",
           "  bytes it must read / its time", bytes / t_spmm * 1e-9,
           (bytes / t_spmm) / (2.0 * SIDE * COLS * 4 / t_copy),
           2.0 * SIDE * COLS * 4 / t_copy * 1e-9);
done:
    tc_sparse_release(s);
    tc_sparse_release(c);
    tc_release(dense);
    free(keys);
    free(sorted);
    free(from);
    free(to);
}
