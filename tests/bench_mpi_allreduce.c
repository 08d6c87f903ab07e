/* bench_mpi_allreduce.c: MPI_Allreduce of Open MPI timed as bench_ch09
   times the library's all_reduce, so that `make bench` can print the two
   side by side (bench_ch09 runs this program through the command in
   MPI_BENCH_CH09, which the Makefile sets to
   `tests/mpirun.sh -n 2 build/bench/mpi_allreduce` when mpicc exists).

   OSU style (osu_allreduce): float32 SUM in place, on sizes 4 B to 16 MiB
   (powers of 2); per size a warm-up, then a barrier, then a timed loop of
   `iters` calls (no barrier inside the timing); the time per call is the
   slowest rank's; the best of 3 timed loops is kept (the machine is
   shared). Bus bandwidth as NCCL's tests define it: busbw = S * 2(n-1)/n /
   time, the bytes each rank must move at least, per second.

   Output, on rank 0: lines starting with '#' are comments; then one line
   per size: "BYTES LATENCY_US BUSBW_GBPS". */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    const long max_bytes = 16L << 20;
    int rank, size, len;
    char version[MPI_MAX_LIBRARY_VERSION_STRING];
    float *buf;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    buf = calloc((size_t)max_bytes / sizeof *buf, sizeof *buf);   /* zeros: sums stay 0 */
    if (buf == NULL) {
        fprintf(stderr, "bench_mpi_allreduce: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    MPI_Get_library_version(version, &len);
    for (int i = 0; i < len; i++)
        if (version[i] == ',' || version[i] == '\n') {
            version[i] = '\0';
            break;
        }
    if (rank == 0)
        printf("# MPI_Allreduce float32 sum in place, %d ranks: %s\n"
               "# bytes latency_us busbw_GBps\n", size, version);

    for (long bytes = 4; bytes <= max_bytes; bytes *= 2) {
        int count = (int)(bytes / (long)sizeof *buf);
        int iters = bytes <= 65536 ? 2000 : bytes <= (1L << 20) ? 200 : 20;
        double best = 0;

        for (int i = 0; i < iters / 10 + 2; i++)
            MPI_Allreduce(MPI_IN_PLACE, buf, count, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
        for (int run = 0; run < 3; run++) {
            double start, mine, slowest;
            MPI_Barrier(MPI_COMM_WORLD);
            start = MPI_Wtime();
            for (int i = 0; i < iters; i++)
                MPI_Allreduce(MPI_IN_PLACE, buf, count, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
            mine = (MPI_Wtime() - start) / iters;
            MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
            if (run == 0 || slowest < best)
                best = slowest;
        }
        if (rank == 0)
            printf("%ld %.3f %.3f\n", bytes, best * 1e6,
                   (double)bytes * 2.0 * (size - 1) / size / best / 1e9);
    }
    free(buf);
    MPI_Finalize();
    return 0;
}
