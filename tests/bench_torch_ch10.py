"""bench_torch_ch10.py: PyTorch's side of chapter 10's benchmark.

`make bench` runs this script from tests/bench_ch10.c, through the command
in $TORCH_BENCH_CH10 (when /usr/bin/python3 has torch), to time in the same
run what the C benchmark times: one training step of an MLP, on one thread,

    optimizer.zero_grad()
    loss = F.cross_entropy(model(x), y)
    loss.backward()
    optimizer.step()

with model = nn.Sequential(nn.Linear(IN, HIDDEN), nn.ReLU(),
nn.Linear(HIDDEN, OUT)) made right after torch.manual_seed(SEED), x the next
torch.rand(BATCH, IN) of that generator, y[i] = i % OUT, and
optimizer = torch.optim.SGD(model.parameters(), lr=LR): the C side makes the
same weights and input bit for bit.

  usage:  bench_torch_ch10.py BATCH IN HIDDEN OUT SEED LR STEPS RUNS CHECK
  stdout: "torch_version V", then lines "torch NAME VALUE":
            step               seconds per step (the best of RUNS loops of
                               STEPS steps, after a warm-up, in this
                               process's CPU time), zero_grad()
                               as torch 1.13's default (set_to_none=False)
            step_set_to_none   the same with zero_grad(set_to_none=True)
            products           seconds for the step's five matrix products
                               alone (torch.mm into preallocated outputs)
            loss_after_steps   the loss of step number CHECK from the
                               initial weights (a fresh model)
          or the single line "torch: not installed" when torch cannot be
          imported. The exit status is 0 in every one of these cases.
"""
import os
import sys
import time

# One thread: torch.set_num_threads(1) limits PyTorch's own threads, but
# the OpenBLAS that Debian's torch calls for its matrix products starts one
# per core unless told before it is loaded.
for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_name] = "1"


def per_call(fn, calls, runs):
    """Seconds per call of fn: the best of `runs` loops of `calls`, in
    this process's CPU time (the C side's clock: see bench_ch10.c)."""
    for _ in range(calls // 4 + 1):
        fn()
    best = float("inf")
    for _ in range(runs):
        start = time.process_time()
        for _ in range(calls):
            fn()
        best = min(best, (time.process_time() - start) / calls)
    return best


def main():
    try:
        import torch
        import torch.nn.functional as F
    except Exception:  # ImportError, or a broken installation
        print("torch: not installed")
        return 0
    batch, n_in, hidden, n_out, seed = (int(v) for v in sys.argv[1:6])
    lr = float(sys.argv[6])
    steps, runs, check = (int(v) for v in sys.argv[7:10])
    print(f"torch_version {torch.__version__}")
    torch.set_num_threads(1)

    def report(name, value):
        print(f"torch {name} {value:.9g}", flush=True)

    def setup():
        torch.manual_seed(seed)
        model = torch.nn.Sequential(torch.nn.Linear(n_in, hidden), torch.nn.ReLU(),
                                    torch.nn.Linear(hidden, n_out))
        x = torch.rand(batch, n_in)
        y = torch.arange(batch) % n_out
        return model, torch.optim.SGD(model.parameters(), lr=lr), x, y

    for set_to_none, name in ((False, "step"), (True, "step_set_to_none")):
        model, optimizer, x, y = setup()

        def step():
            optimizer.zero_grad(set_to_none=set_to_none)
            loss = F.cross_entropy(model(x), y)
            loss.backward()
            optimizer.step()
        report(name, per_call(step, steps, runs))

    model, optimizer, x, y = setup()
    for _ in range(check):
        optimizer.zero_grad()
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        optimizer.step()
    report("loss_after_steps", loss.item())

    w1, w2 = torch.rand(hidden, n_in), torch.rand(n_out, hidden)
    h, out = torch.empty(batch, hidden), torch.empty(batch, n_out)
    gy, gh = torch.rand(batch, n_out), torch.empty(batch, hidden)
    gw1, gw2 = torch.empty(hidden, n_in), torch.empty(n_out, hidden)

    def products():
        torch.mm(x, w1.t(), out=h)
        torch.mm(h, w2.t(), out=out)
        torch.mm(gy.t(), h, out=gw2)
        torch.mm(gy, w2, out=gh)
        torch.mm(gh.t(), x, out=gw1)
    report("products", per_call(products, steps, runs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
