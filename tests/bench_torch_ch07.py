"""bench_torch_ch07.py: PyTorch's side of chapter 7's benchmarks.

`make bench` runs this script from tests/bench_ch07.c, through the command in
$TORCH_BENCH_CH07 (when /usr/bin/python3 has torch), to time in the same run
what the C benchmark times, on tensors of the same shapes and dtypes:

  usage:  bench_torch_ch07.py SPARSE_FILE SIZE...
          SPARSE_FILE holds chapter 4's bench matrix, coalesced: a line
          "NNZ ROWS COLS DENSE_COLS", then its indices (2 x NNZ int64,
          row-major) and values (NNZ float32) as raw native-endian bytes.
          SIZE... are the lengths of the sweep of square (the plot).
  stdout: "torch_version V", "torch_default_threads T", then one line per
          measurement, "torch NAME THREADS SECONDS" (the best of several
          runs; for the small square, the time of one call), or the
          single line "torch: not installed" when torch cannot be
          imported.  The exit status is 0 in every one of these cases.

Every measurement runs with torch.set_num_threads(1), as the C side runs
with one thread, except those whose THREADS says 2. When a libopenblas can
be loaded (ctypes), the matrix products are also timed with its
cblas_sgemm on one thread, as "torch openblas_mm_N 1 SECONDS".
"""
import ctypes
import ctypes.util
import sys
import time

BIG = 64_000_000
SIDE = 4096
SMALL = 1000


def best(fn, runs):
    """The best time in seconds of `runs` calls of fn, after one warm-up."""
    fn()
    t = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        t = min(t, time.perf_counter() - start)
    return t


def per_call(fn, calls, runs=5):
    """Seconds per call of fn, from the best of `runs` loops of `calls`."""
    def loop():
        for _ in range(calls):
            fn()
    return best(loop, runs) / calls


def openblas():
    """libopenblas through ctypes, on one thread, or None."""
    name = ctypes.util.find_library("openblas")
    if name is None:
        return None
    try:
        lib = ctypes.CDLL(name)
        lib.openblas_set_num_threads(1)
        return lib
    except (OSError, AttributeError):
        return None


def sgemm_seconds(lib, a, b, c):
    """The best time of c = a @ b (square float32 torch tensors) by cblas_sgemm."""
    n = a.shape[0]
    p = [ctypes.c_void_p(t.data_ptr()) for t in (a, b, c)]
    one, zero = ctypes.c_float(1.0), ctypes.c_float(0.0)
    # CblasRowMajor = 101, CblasNoTrans = 111
    return best(lambda: lib.cblas_sgemm(101, 111, 111, n, n, n, one, p[0], n, p[1], n,
                                        zero, p[2], n), 5)


def main():
    try:
        import torch
    except Exception:  # ImportError, or a broken installation
        print("torch: not installed")
        return 0
    sparse_file, sizes = sys.argv[1], [int(s) for s in sys.argv[2:]]
    print(f"torch_version {torch.__version__}")
    print(f"torch_default_threads {torch.get_num_threads()}")

    def report(name, threads, seconds):
        print(f"torch {name} {threads} {seconds:.9f}", flush=True)

    torch.set_num_threads(1)
    x = torch.rand(BIG)
    y = torch.empty(BIG)
    report("square_big", 1, best(lambda: torch.square(x, out=y), 5))
    report("sum_big", 1, best(lambda: x.sum(), 5))
    del x, y
    small = torch.rand(SMALL)
    report("square_small", 1, per_call(lambda: torch.square(small), 20000))
    m = torch.rand(SIDE, SIDE)
    out = torch.empty(SIDE, SIDE)
    report("square_t", 1, best(lambda: torch.square(m.t(), out=out), 5))
    report("square_contiguous", 1, best(lambda: torch.square(m, out=out), 5))
    report("add_tt", 1, best(lambda: m.t() + m.t(), 5))
    report("add_contiguous", 1, best(lambda: m + m, 5))
    del m, out
    blas = openblas()
    for n in (512, 1024):
        a, b = torch.rand(n, n), torch.rand(n, n)
        if blas is not None:
            report(f"openblas_mm_{n}", 1, sgemm_seconds(blas, a, b, torch.empty(n, n)))
        for threads in (1, 2):
            torch.set_num_threads(threads)
            report(f"mm_{n}", threads, best(lambda: torch.mm(a, b), 5))
    torch.set_num_threads(1)
    with open(sparse_file, "rb") as f:
        nnz, rows, cols, dense_cols = (int(v) for v in f.readline().split())
        indices = torch.frombuffer(bytearray(f.read(16 * nnz)), dtype=torch.int64)
        values = torch.frombuffer(bytearray(f.read(4 * nnz)), dtype=torch.float32)
    s = torch.sparse_coo_tensor(indices.view(2, nnz), values, (rows, cols)).coalesce()
    dense = torch.ones(cols, dense_cols)
    report("spmm", 1, best(lambda: torch.sparse.mm(s, dense), 5))
    for n in sizes:
        x, y = torch.rand(n), torch.empty(n)
        calls = max(1, 2_000_000 // n)
        report(f"sweep_square_{n}", 1, per_call(lambda: torch.square(x, out=y), calls, 3))
    return 0


if __name__ == "__main__":
    sys.exit(main())
