"""bench_torch_ch05.py: PyTorch's side of chapter 5's autograd benchmark.

`make bench` runs this script from tests/bench_ch05.c, through the command
in $TORCH_BENCH_CH05 (when /usr/bin/python3 has torch), to time in the same
run the same chain that the C benchmark builds: N small elementwise ops on a
16-element float32 tensor, alternating y = y * 1.0001 and y = y + 0.0001,
starting from a leaf that requires grad.

  usage:  bench_torch_ch05.py [N]        (N defaults to 100000)
  stdout: exactly two lines,
            torch_autograd_ns_per_node <float>   forward with grad + backward
            torch_nograd_ns_per_node <float>     the same forward under no_grad
          each the best of 3 runs, in nanoseconds per op (node) of the chain;
          or the single line "torch: not installed" when torch cannot be
          imported.  The exit status is 0 in every one of these cases.
"""
import sys
import time


def chain(x, n):
    y = x
    for i in range(n):
        y = y * 1.0001 if i % 2 == 0 else y + 0.0001
    return y


def with_grad(torch, n):
    x = torch.ones(16, dtype=torch.float32, requires_grad=True)
    start = time.perf_counter()
    y = chain(x, n)
    y.sum().backward()
    elapsed = time.perf_counter() - start
    assert x.grad is not None
    return elapsed


def without_grad(torch, n):
    x = torch.ones(16, dtype=torch.float32, requires_grad=True)
    start = time.perf_counter()
    with torch.no_grad():
        y = chain(x, n)
    elapsed = time.perf_counter() - start
    assert y.grad_fn is None
    return elapsed


def main():
    try:
        import torch
    except Exception:  # ImportError, or a broken installation
        print("torch: not installed")
        return 0
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 100000
    if n <= 0:
        n = 100000
    torch.set_num_threads(1)
    with_grad(torch, min(n, 1000))      # warm up: first calls pay for code paths
    without_grad(torch, min(n, 1000))
    autograd = min(with_grad(torch, n) for _ in range(3))
    nograd = min(without_grad(torch, n) for _ in range(3))
    print(f"torch_autograd_ns_per_node {autograd / n * 1e9:.1f}")
    print(f"torch_nograd_ns_per_node {nograd / n * 1e9:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
