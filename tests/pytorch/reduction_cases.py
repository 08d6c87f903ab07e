"""reduction_cases.py: PyTorch 1.13's answers to random reductions, printed
as the C table that tests/check_ch03.c replays (test_reduction_cases).

Run with /usr/bin/python3 (torch 1.13), from the repository's root:
  /usr/bin/python3 tests/pytorch/reduction_cases.py > tests/check_ch03_reduction_cases.h
Deterministic (random.seed(4)). Each case takes one operand made as
binary_cases.py makes them (random shape of 0 to 4 dims, dtype and layout)
and applies sum, mean, max, min or argmax over everything, or sum or mean
over a random list of dims (in range or not, repeated or not), or max,
min or argmax along one dim, with or without keepdim. The table holds the
case as text and PyTorch's answer: the result's dtype, shape, strides and
values (max and min along a dim: the values, then the indices), or the
first line of its error.

The sweep behind this table (6,000 cases) found two differences in the
order of the checks: a list of dims is checked for range before repeats
(x.sum([0, 0, 5]) of a 3-D x reports the 5), and argmax of a bool tensor
fails only when a kernel would run (not along a dimension of size 1, nor
for an empty result).
"""
import os
import random
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import binary_cases as bc    # noqa: E402  (the operands, and the answers' format)

OPS = ["sum", "mean", "max", "min", "argmax", "sum_dims", "mean_dims", "max_dim", "min_dim",
       "argmax_dim"]


def main():
    random.seed(4)
    rows = []
    for _ in range(1500):
        shape = [random.choice([0, 1, 1, 2, 2, 3]) for _ in range(random.randint(0, 4))]
        dtype, spec, op, nd = random.choice("blfd"), bc.layout(shape), random.choice(OPS), len(shape)

        def rdim():
            if random.random() < 0.85:
                return random.randint(-nd, max(nd - 1, 0))
            return random.randint(-nd - 2, nd + 1)

        keepdim, dims = random.random() < 0.5, []
        if op.endswith("_dims"):
            dims = [rdim() for _ in range(random.randint(0, min(3, nd + 1)))]
        elif op.endswith("_dim"):
            dims = [rdim()]
        args = "%d %s" % (keepdim, " ".join(map(str, dims)) or "-") if "_" in op else "-"
        try:
            x = bc.build(dtype, spec)
            if "_" not in op:
                out = bc.answer(getattr(torch, op)(x))
            elif op.endswith("_dims"):
                out = bc.answer(getattr(torch, op[:-5])(x, dims, keepdim=keepdim))
            elif op == "argmax_dim":
                out = bc.answer(torch.argmax(x, dims[0], keepdim=keepdim))
            else:
                values, indices = getattr(torch, op[:3])(x, dims[0], keepdim=keepdim)
                out = bc.answer(values) + " | " + bc.answer(indices)
        except Exception as e:
            out = "error: " + str(e).splitlines()[0]
        rows.append(("%s | %s | %s" % (bc.spec_text(dtype, spec), op, args), out))
    bc.print_table("/* check_ch03_reduction_cases.h: PyTorch %s's answers to random\n"
                   "   reductions: the case (operand | operation | keepdim and dims) and the\n"
                   "   result's dtype, shape, strides and values (max and min along a dim: then\n"
                   "   the indices), or the first line of the error. Generated, do not edit:\n"
                   "     /usr/bin/python3 tests/pytorch/reduction_cases.py \\\n"
                   "         > tests/check_ch03_reduction_cases.h */" % torch.__version__,
                   "reduction_cases", rows)

if __name__ == "__main__":
    main()
