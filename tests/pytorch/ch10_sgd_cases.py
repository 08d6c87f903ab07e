"""ch10_sgd_cases.py: PyTorch 1.13's torch.optim.SGD on the cases of
tests/check_ch10_optim.h, printed as the C table it includes.

Run with /usr/bin/python3 (torch 1.13):
  /usr/bin/python3 tests/pytorch/ch10_sgd_cases.py > tests/check_ch10_optim_cases.h
Deterministic: two parameters, W (5, 7) and b (5), start from values drawn
by torch.Generator().manual_seed(10) (uniform_ in [-1, 1)); the gradients
of the four steps come from generators seeded 101, 102, 103 (the same
draws for every case). Step 1 gives both parameters a grad, step 2 only W
(b.grad is None, so SGD skips b), step 3 both again, step 4 follows
optimizer.zero_grad() (PyTorch 1.13's default, set_to_none=False: zero
grads, which SGD does not skip). Every value is printed exactly, as hex:
float32 tensors as their bits (uint32), float64 ones as hex floats. The
same case runs with foreach=False and foreach=True; the script checks that
both give the same bits before it prints.
"""
import math

import torch

# lr, momentum, dampening, weight_decay, nesterov, maximize, dtypes
CASES = [
    (0.1, 0.0, 0.0, 0.0, False, False, "f"),
    (0.1, 0.0, 0.0, 0.01, False, False, "f"),
    (0.1, 0.9, 0.0, 0.0, False, False, "f"),
    (0.1, 0.9, 0.1, 0.0, False, False, "f"),
    (0.1, 0.9, 0.0, 0.0, True, False, "f"),
    (0.1, 0.0, 0.0, 0.0, False, True, "f"),
    (0.05, 0.8, 0.0, 0.01, True, True, "fd"),
    (0.1, 0.5, 0.5, 0.1, False, True, "fd"),
    (0.01, 0.9, 0.3, 0.001, False, False, "fd"),
]
STEPS = 4


def draw(seed, *shapes):
    g = torch.Generator().manual_seed(seed)
    return [torch.empty(s).uniform_(-1, 1, generator=g) for s in shapes]


W0, B0 = draw(10, (5, 7), (5,))
GRADS = [draw(100 + k, (5, 7), (5,)) for k in range(1, STEPS)]


def run(case, dtype, foreach):
    lr, momentum, dampening, weight_decay, nesterov, maximize, _ = case
    w = W0.to(dtype).clone().requires_grad_()
    b = B0.to(dtype).clone().requires_grad_()
    opt = torch.optim.SGD([w, b], lr=lr, momentum=momentum, dampening=dampening,
                          weight_decay=weight_decay, nesterov=nesterov,
                          maximize=maximize, foreach=foreach)
    after = []
    for step in range(1, STEPS + 1):
        if step < STEPS:
            gw, gb = GRADS[step - 1]
            w.grad = gw.to(dtype).clone()
            b.grad = gb.to(dtype).clone() if step != 2 else None
        else:
            opt.zero_grad()
        opt.step()
        after.append(torch.cat([w.detach().reshape(-1), b.detach().reshape(-1)]).clone())
    bufs = None
    if momentum != 0:
        bufs = torch.cat([opt.state[w]["momentum_buffer"].reshape(-1),
                          opt.state[b]["momentum_buffer"].reshape(-1)])
    return after, bufs


def values(t):
    if t.dtype == torch.float32:
        bits = t.reshape(-1).view(torch.int32).tolist()
        return ", ".join("0x%08x" % (x & 0xffffffff) for x in bits)
    return ", ".join(float(v).hex() for v in t.reshape(-1).tolist())


def table(name, ctype, t):
    print("static const %s %s[] = {" % (ctype, name))
    items = values(t).split(", ")
    per = 6 if t.dtype == torch.float32 else 3
    for k in range(0, len(items), per):
        print("    " + ", ".join(items[k:k + per]) + ",")
    print("};")


print("/* check_ch10_optim_cases.h: PyTorch %s's torch.optim.SGD on the cases of" %
      torch.__version__)
print("   tests/check_ch10_optim.h. Generated, do not edit:")
print("     /usr/bin/python3 tests/pytorch/ch10_sgd_cases.py > tests/check_ch10_optim_cases.h")
print("   See that script for how the inputs were made. Float32 values are bits")
print("   (uint32), float64 values hex floats. */")
print()
table("SGD_W0", "uint32_t", W0)
table("SGD_B0", "uint32_t", B0)
for k, (gw, gb) in enumerate(GRADS):
    table("SGD_GW%d" % (k + 1), "uint32_t", gw)
    table("SGD_GB%d" % (k + 1), "uint32_t", gb)
rows = []
n = 0
for case in CASES:
    for d in case[6]:
        dtype = torch.float32 if d == "f" else torch.float64
        after, bufs = run(case, dtype, False)
        after2, bufs2 = run(case, dtype, True)
        assert all(torch.equal(a.view(torch.int32 if d == "f" else torch.int64),
                               c.view(torch.int32 if d == "f" else torch.int64))
                   for a, c in zip(after, after2))
        ctype = "uint32_t" if d == "f" else "double"
        suffix = "32" if d == "f" else "64"
        for s, t in enumerate(after):
            table("SGD_C%d_STEP%d" % (n, s + 1), ctype, t)
        if bufs is not None:
            table("SGD_C%d_BUF" % n, ctype, bufs)
        rows.append("    { %r, %r, %r, %r, %s, %s, TC_FLOAT%s, { %s }, %s }," % (
            case[0], case[1], case[2], case[3], "true" if case[4] else "false",
            "true" if case[5] else "false", suffix,
            ", ".join("SGD_C%d_STEP%d" % (n, s + 1) for s in range(STEPS)),
            "SGD_C%d_BUF" % n if bufs is not None else "NULL"))
        n += 1
print()
print("/* lr, momentum, dampening, weight_decay, nesterov, maximize, dtype,")
print("   the 40 values of (W, b) after each step, the momentum buffers after the last. */")
print("static const sgd_case SGD_CASES[] = {")
for r in rows:
    print(r)
print("};")
