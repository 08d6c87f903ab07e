/* bench_ch09.c: chapter 9's goals (issue 12): all_reduce of the
   shared-memory backend on 2 ranks, float32 sum in place, 4 B to 16 MiB,
   OSU style (osu_allreduce): per size a warm-up, a barrier, then a timed
   loop of calls with no barrier inside; the time per call is the slower
   rank's, the best of 3 loops (the machine is shared). Reported as latency
   and bus bandwidth as NCCL's tests define it, busbw = S * 2(n-1)/n / time
   (the bytes a rank must at least move, per second). Goals: 4 KiB in at
   most 2 us; at least 10 GB/s from 1 to 16 MiB.

   Baselines in the same run: memcpy of S bytes in one process (the floor:
   a shared-memory all_reduce copies at least that much per rank), and,
   when MPI_BENCH_CH09 names a command (the Makefile sets it to
   `tests/mpirun.sh -n 2 build/bench/mpi_allreduce` when mpicc exists),
   Open MPI's MPI_Allreduce timed the same way by that program, whose
   lines read "BYTES LATENCY_US BUSBW_GBPS". */
#define _GNU_SOURCE            /* MAP_ANONYMOUS, popen */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "bench.h"
#include "tc.h"

enum { SIZES = 23, MAX_BYTES = 16 << 20 };

static int bench9_iters(long bytes)
{
    return bytes <= 65536 ? 2000 : bytes <= (1L << 20) ? 200 : 20;
}

/* Seconds per call, the slower rank's, per size: filled by rank 0 in a
   shared anonymous mapping that the forked ranks inherit. */
static double *bench9_shm_time;

static int bench9_rank(void *arg, int rank)
{
    (void)arg;
    tc_pg *w = tc_dist_init();
    if (!w) {
        fprintf(stderr, "bench_ch09: rank %d: %s\n", rank, tc_error());
        return 1;
    }
    tc_tensor *buf = tc_zeros(TC_SHAPE(MAX_BYTES / 4), TC_FLOAT32);
    tc_tensor *t = tc_zeros(TC_SHAPE(1), TC_FLOAT64);
    int bad = 0;
    for (int s = 0; s < SIZES && !bad; s++) {
        long bytes = 4L << s;
        int iters = bench9_iters(bytes);
        /* A contiguous prefix of buf: its first bytes / 4 floats. */
        tc_tensor *v = tc_tensor_over(buf->storage, TC_FLOAT32, 1, (int64_t[]){ bytes / 4 },
                           (int64_t[]){ 1 }, 0);
        double best = 0;
        for (int i = 0; i < iters / 10 + 2; i++)
            bad |= tc_all_reduce(w, v, TC_REDUCE_SUM);
        for (int run = 0; run < 3 && !bad; run++) {
            bad |= tc_barrier(w);
            double start = bench_seconds();
            for (int i = 0; i < iters; i++)
                bad |= tc_all_reduce(w, v, TC_REDUCE_SUM);
            ((double *)tc_data_ptr(t))[0] = (bench_seconds() - start) / iters;
            bad |= tc_all_reduce(w, t, TC_REDUCE_MAX);
            double slower = ((double *)tc_data_ptr(t))[0];
            if (run == 0 || slower < best)
                best = slower;
        }
        if (rank == 0)
            bench9_shm_time[s] = best;
        tc_release(v);
    }
    if (bad)
        fprintf(stderr, "bench_ch09: rank %d: %s\n", rank, tc_error());
    tc_release(buf);
    tc_release(t);
    tc_dist_finalize();
    return bad != 0;
}

/* memcpy of bytes: the best of 3 loops, seconds per copy. */
static double bench9_memcpy(unsigned char *dst, const unsigned char *src, long bytes)
{
    int iters = bench9_iters(bytes);
    double best = 0;
    for (int run = 0; run < 3; run++) {
        double start = bench_seconds();
        for (int i = 0; i < iters; i++) {
            memcpy(dst, src, (size_t)bytes);
            bench_escape(dst);
        }
        double per = (bench_seconds() - start) / iters;
        if (run == 0 || per < best)
            best = per;
    }
    return best;
}

/* MPI's latencies (us) per size from the command's output; false if none. */
static bool bench9_mpi(double mpi_us[SIZES])
{
    const char *cmd = getenv("MPI_BENCH_CH09");
    if (!cmd || !*cmd)
        return false;
    FILE *p = popen(cmd, "r");
    if (!p)
        return false;
    char line[256];
    int got = 0;
    while (fgets(line, sizeof line, p)) {
        long bytes;
        double us, bw;
        if (line[0] == '#' || sscanf(line, "%ld %lf %lf", &bytes, &us, &bw) != 3)
            continue;
        for (int s = 0; s < SIZES; s++)
            if (4L << s == bytes) {
                mpi_us[s] = us;
                got++;
            }
    }
    return pclose(p) == 0 && got == SIZES;
}

static void bench9_size(char buf[16], long bytes)
{
    if (bytes >= 1 << 20)
        snprintf(buf, 16, "%ld MiB", bytes >> 20);
    else if (bytes >= 1024)
        snprintf(buf, 16, "%ld KiB", bytes >> 10);
    else
        snprintf(buf, 16, "%ld B", bytes);
}

void bench_ch09(void)
{
    printf("chapter 9: all_reduce (float32 sum, in place) on 2 ranks, shared memory\n");
    bench9_shm_time = mmap(NULL, SIZES * sizeof(double), PROT_READ | PROT_WRITE,
                           MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    unsigned char *a = malloc(MAX_BYTES), *b = malloc(MAX_BYTES);
    if (bench9_shm_time == MAP_FAILED || !a || !b) {
        printf("  out of memory\n");
        free(a);
        free(b);
        return;
    }
    memset(a, 1, MAX_BYTES);
    memset(b, 2, MAX_BYTES);
    tc_launch_options o = { .nproc = 2, .timeout_seconds = 300 };
    tc_launch_result res;
    if (tc_launch_fn(&o, bench9_rank, NULL, &res) != 0 || res.exit_code != 0) {
        printf("  the ranks failed: %s\n", res.exit_code ? res.summary : tc_error());
        munmap(bench9_shm_time, SIZES * sizeof(double));
        free(a);
        free(b);
        return;
    }
    double mpi_us[SIZES];
    bool mpi = bench9_mpi(mpi_us);
    printf("  %-8s %10s %11s %12s %9s", "size", "shm us", "shm busbw", "memcpy GB/s",
           "shm/copy");
    if (mpi)
        printf(" %10s %11s %9s", "MPI us", "MPI busbw", "MPI/shm");
    printf("\n");
    for (int s = 0; s < SIZES; s++) {
        long bytes = 4L << s;
        double t = bench9_shm_time[s], copy = bench9_memcpy(b, a, bytes);
        char size[16];
        bench9_size(size, bytes);
        /* busbw with n = 2: S * 2(n-1)/n / t = S / t */
        printf("  %-8s %10.2f %9.2f GB/s %12.2f %9.2f", size, t * 1e6, bytes / t / 1e9,
               bytes / copy / 1e9, copy / t);
        if (mpi)
            printf(" %10.2f %6.2f GB/s %9.2f", mpi_us[s], bytes / (mpi_us[s] * 1e-6) / 1e9,
                   mpi_us[s] * 1e-6 / t);
        printf("\n");
    }
    printf("  goals: 4 KiB at most 2 us; 1-16 MiB at least 10 GB/s bus bandwidth%s\n",
           mpi ? "" : " (MPI_BENCH_CH09 not set: no MPI column)");
    munmap(bench9_shm_time, SIZES * sizeof(double));
    free(a);
    free(b);
}
