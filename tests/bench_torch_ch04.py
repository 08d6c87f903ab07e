"""bench_torch_ch04.py: PyTorch's side of chapter 4's coalesce benchmark.

`make bench` starts this script from tests/bench_ch04.c (when /usr/bin/python3
has torch) and talks to it through stdin and stdout, so that both libraries
coalesce the very same matrix, turn by turn, in one run:

  stdin:  a line "NNZ SIDE", then the indices (2 x NNZ int64, row-major) and
          the values (NNZ float32) as raw native-endian bytes; then one line
          "run" per timed call, and end of file to stop.
  stdout: a line "ready TORCH_VERSION THREADS" once the tensor is built, then
          for each "run" the seconds that coalesce() took, one per line.
"""
import sys
import time

import torch


def main():
    stdin, stdout = sys.stdin.buffer, sys.stdout
    nnz, side = (int(x) for x in stdin.readline().split())
    indices = torch.frombuffer(bytearray(stdin.read(16 * nnz)), dtype=torch.int64)
    values = torch.frombuffer(bytearray(stdin.read(4 * nnz)), dtype=torch.float32)
    s = torch.sparse_coo_tensor(indices.view(2, nnz), values, (side, side))
    assert not s.is_coalesced()
    s.coalesce()    # warm up: the first call pays for allocations and code paths
    print("ready", torch.__version__, torch.get_num_threads(), flush=True)
    for line in stdin:
        if line.strip() != b"run":
            break
        start = time.perf_counter()
        c = s.coalesce()
        elapsed = time.perf_counter() - start
        print(f"{elapsed:.9f} {c._nnz()}", flush=True)


if __name__ == "__main__":
    main()
