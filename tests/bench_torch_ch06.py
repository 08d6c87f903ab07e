"""bench_torch_ch06.py: PyTorch's side of chapter 6's cross-entropy benchmark.

`make bench` runs this script from tests/bench_ch06.c, through the command
in $TORCH_BENCH_CH06 (when /usr/bin/python3 has torch), to time in the same
run what the C benchmark times: F.cross_entropy(x, t).backward() on N x C
float32 logits x (a leaf that requires grad, its .grad set to None before
each run) with N int64 targets t, PyTorch's defaults otherwise (mean,
no weight, no smoothing).

  usage:  bench_torch_ch06.py [N C]        (default 1024 1000)
  stdout: exactly three lines,
            torch_default_threads <int>       torch.get_num_threads() at start
            torch_ms <threads> <float>        with torch.set_num_threads(1)
            torch_ms <threads> <float>        with os.cpu_count() threads
          each time the best of 50 runs, in milliseconds; or the single
          line "torch: not installed" when torch cannot be imported.  The
          exit status is 0 in every one of these cases.
"""
import os
import sys
import time


def best_ms(torch, n, c, runs=50):
    import torch.nn.functional as F

    g = torch.Generator().manual_seed(0)
    x = torch.randn(n, c, generator=g).mul_(2).requires_grad_()
    t = torch.randint(0, c, (n,), generator=g)
    best = float("inf")
    for _ in range(runs):
        x.grad = None
        start = time.perf_counter()
        F.cross_entropy(x, t).backward()
        best = min(best, time.perf_counter() - start)
    return best * 1e3


def main():
    try:
        import torch
    except Exception:  # ImportError, or a broken installation
        print("torch: not installed")
        return 0
    n, c = (int(sys.argv[1]), int(sys.argv[2])) if len(sys.argv) > 2 else (1024, 1000)
    default = torch.get_num_threads()
    print(f"torch_default_threads {default}")
    for threads in (1, os.cpu_count() or 1):
        torch.set_num_threads(threads)
        best_ms(torch, n, c, runs=3)    # warm up: first calls pay for code paths
        print(f"torch_ms {threads} {best_ms(torch, n, c):.4f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
