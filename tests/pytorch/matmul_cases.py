"""matmul_cases.py: PyTorch 1.13's answers to random matrix products,
printed as the C table that tests/check_ch03.c replays (test_matmul_cases).

Run with /usr/bin/python3 (torch 1.13), from the repository's root:
  /usr/bin/python3 tests/pytorch/matmul_cases.py > tests/check_ch03_matmul_cases.h
Deterministic (random.seed(5)). Each case multiplies two operands of 1 to
4 dims (sizes 0 to 4, inner sizes that usually agree, batch dims that
usually broadcast), made as binary_cases.py makes them (dtype and layout:
contiguous, permuted, expanded or stepped), nearly always of one dtype.
The table holds the case as text and PyTorch's answer: the result's dtype,
shape, strides and values, or the first line of its error.

The sweep behind this table (5,000 cases) found three differences: matmul
did not ask should_fold, so a permuted 3-D operand against a matrix failed
with mm's message where PyTorch goes through bmm; a bool first operand of
two different types reported the types, where PyTorch reports the missing
bool kernel first; and a product with no work (no elements, or an empty
inner dimension) checked the types, where PyTorch returns 0s of the
result's type (mm: the first operand's, mv: the vector's, bmm: the second
batch's) without a check.
"""
import os
import random
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import binary_cases as bc    # noqa: E402  (the operands, and the answers' format)


def sizes(n):
    return [random.choice([0, 1, 2, 3, 4]) for _ in range(n)]


def main():
    random.seed(5)
    rows = []
    for _ in range(1000):
        sa, sb = sizes(random.randint(1, 4)), sizes(random.randint(1, 4))
        if random.random() < 0.8:    # inner sizes that agree, batches that broadcast
            k = random.choice([0, 1, 2, 3, 5])
            sa[-1] = k
            if len(sb) == 1:
                sb[0] = k
            else:
                sb[-2] = k
                ba, bb = sa[:-2], sb[:-2]
                for j in range(1, min(len(ba), len(bb)) + 1):
                    if random.random() < 0.8:
                        bb[-j] = random.choice([ba[-j], 1])
                sb = bb + sb[-2:]
        da = random.choice("lfd")
        db = da if random.random() < 0.85 else random.choice("blfd")
        a, b = bc.layout(sa), bc.layout(sb)
        try:
            out = bc.answer(torch.matmul(bc.build(da, a), bc.build(db, b)))
        except Exception as e:
            out = "error: " + str(e).splitlines()[0]
        rows.append(("%s | matmul | %s" % (bc.spec_text(da, a), bc.spec_text(db, b)), out))
    bc.print_table("/* check_ch03_matmul_cases.h: PyTorch %s's answers to random matrix\n"
                   "   products: the case (first operand | matmul | second operand) and the\n"
                   "   result's dtype, shape, strides and values, or the first line of the\n"
                   "   error. Generated, do not edit:\n"
                   "     /usr/bin/python3 tests/pytorch/matmul_cases.py > tests/check_ch03_matmul_cases.h */"
                   % torch.__version__, "matmul_cases", rows)

if __name__ == "__main__":
    main()
