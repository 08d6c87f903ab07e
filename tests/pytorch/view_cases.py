"""view_cases.py: PyTorch 1.13's answers to random view operations, printed
as the C table that tests/check_ch02.c replays (test_view_cases).

Run with /usr/bin/python3 (torch 1.13), from the repository's root:
  /usr/bin/python3 tests/pytorch/view_cases.py > tests/check_ch02_view_cases.h
Deterministic (random.seed(2)): each case makes a float32 tensor of a random
shape (0 to 4 dims, sizes 0 to 4) over one storage of 2048 elements,
sometimes transposes it or spreads it (strides doubled, offset 1), then
applies one view operation with random arguments, valid or not: view,
reshape, transpose, t, permute, movedim, narrow, select, slice (x[...,
a:b:c] along a dim), expand, squeeze, unsqueeze, flatten, diagonal, unfold,
as_strided. The table holds each case as text and PyTorch's answer: the
sizes, strides, storage offset and is_contiguous() of the result, or the
first line of its error message.

Left out: unfold with a negative size, which PyTorch 1.13 does not check
(it makes a tensor whose last size is -1), and a slice of a 0-dim tensor
along a dim it lacks, which has no Python indexing form. The sweep behind
this table found one difference in 12,000 cases: tc_slice checked the
step before the dim (Python's indexing counts the indices first).
"""
import os
import random
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import binary_cases as bc    # noqa: E402  (the table printer)

OPS = ["view", "reshape", "transpose", "t", "permute", "movedim", "narrow", "select",
       "slice", "expand", "squeeze", "squeeze_dim", "unsqueeze", "flatten", "diagonal",
       "unfold", "as_strided"]


def rdim(nd):
    """A dim of an nd-dim tensor, in range most of the time."""
    if nd > 0 and random.random() < 0.85:
        return random.randint(-nd, nd - 1)
    return random.randint(-nd - 2, nd + 1)


def rshape(maxd=4):
    return [random.choice([0, 1, 1, 2, 2, 3, 4]) for _ in range(random.randint(0, maxd))]


def same_numel_shape(n):
    """A random factorisation of n (often what view and reshape accept)."""
    sh, m = [], n
    while m > 1 and len(sh) < 4:
        d = random.choice([x for x in range(1, m + 1) if m % x == 0])
        sh.append(d)
        m //= d
    if m != 1:
        sh.append(m)
    random.shuffle(sh)
    return sh


def mkop(nd, shape):
    """A random operation on a tensor of this shape, and its arguments."""
    op = random.choice(OPS)
    n = 1
    for s in shape:
        n *= s
    if op in ("view", "reshape"):
        sh = same_numel_shape(n) if random.random() < 0.5 else rshape()
        if sh and random.random() < 0.4:
            sh[random.randrange(len(sh))] = -1
        if sh and random.random() < 0.05:
            sh[0] = -2
        return op, sh
    if op in ("transpose", "movedim", "flatten"):
        return op, [rdim(nd), rdim(nd)]
    if op in ("t", "squeeze"):
        return op, []
    if op == "permute":
        p = list(range(nd))
        random.shuffle(p)
        if p and random.random() < 0.3:
            p[random.randrange(len(p))] = rdim(nd)
        if random.random() < 0.1:
            p = p + [0]
        return op, p
    if op == "narrow":
        return op, [rdim(nd), random.randint(-5, 5), random.randint(-1, 4)]
    if op == "select":
        return op, [rdim(nd), random.randint(-5, 5)]
    if op == "slice":
        return op, [rdim(nd), random.randint(-6, 6), random.randint(-6, 6),
                    random.choice([1, 1, 2, 3, 0, -1])]
    if op == "expand":
        sh = [random.choice([-1, 1, 2, 3, s]) for s in shape]
        if random.random() < 0.3:
            sh = [random.choice([1, 2])] + sh
        if sh and random.random() < 0.1:
            sh = sh[1:]
        return op, sh
    if op == "squeeze_dim":
        return op, [rdim(nd)]
    if op == "unsqueeze":
        return op, [random.randint(-nd - 2, nd + 2)]
    if op == "diagonal":
        return op, [random.randint(-3, 3), rdim(nd), rdim(nd)]
    if op == "unfold":
        return op, [rdim(nd), random.randint(-1, 4), random.randint(-1, 3)]
    # as_strided: k, k sizes, k strides (sometimes one short), the offset
    k = random.randint(0, 3)
    sz = [random.randint(0, 3) for _ in range(k)]
    st = [random.randint(-1, 3) for _ in range(k)]
    if random.random() < 0.1:
        st = st[:-1] if st else [1]
    return op, [len(sz)] + sz + st + [random.randint(-1, 5)]


def apply(t, op, a):
    """PyTorch's answer; None where the case has no Python form."""
    if op in ("view", "reshape", "permute", "expand"):
        return getattr(t, op)(a)
    if op in ("t", "squeeze"):
        return getattr(t, op)()
    if op == "squeeze_dim":
        return t.squeeze(a[0])
    if op == "slice":    # x[..., start:stop:step, ...] along dim d
        d, start, stop, step = a
        nd = t.dim()
        if nd == 0 and -1 <= d < 1:
            return t[start:stop:step]
        if -max(nd, 1) <= d < max(nd, 1):
            after = -d - 1 if d < 0 else nd - d - 1
            return t[(Ellipsis, slice(start, stop, step)) + (slice(None),) * after]
        return torch.ops.aten.slice(t, d, start, stop, 1) if nd > 0 else None
    if op == "as_strided":
        k = a[0]
        return t.as_strided(a[1:1 + k], a[1 + k:len(a) - 1], a[-1])
    return getattr(t, op)(*a)


def desc(r):
    return "%s %s %d %d" % (list(r.shape), list(r.stride()), r.storage_offset(),
                            int(r.is_contiguous()))


def case_text(shape, pre, op, args):
    return "%s | %s | %s %s" % (" ".join(map(str, shape)) or "-", pre, op,
                                " ".join(map(str, args)) or "-")


def main():
    random.seed(2)
    rows = []
    while len(rows) < 1500:
        shape = rshape()
        base = torch.zeros(2048)
        n = 1
        for s in shape:
            n *= s
        t = base[:n].view(shape)
        pre = random.choice(["none", "t", "flip"])
        if pre == "t" and len(shape) >= 2:
            t = t.transpose(0, len(shape) - 1)
        elif pre == "flip" and len(shape) >= 1:
            t = t.as_strided(t.shape, [2 * s for s in t.stride()], 1)
        else:
            pre = "none"
        op, args = mkop(t.dim(), list(t.shape))
        if op == "unfold" and args[1] < 0:
            continue
        try:
            r = apply(t, op, args)
            if r is None:
                continue
            out = desc(r)
        except Exception as e:
            out = "error: " + str(e).splitlines()[0]
        rows.append((case_text(shape, pre, op, args), out))
    bc.print_table("/* check_ch02_view_cases.h: PyTorch %s's answers to random view\n"
                   "   operations: the case (shape | prelude | operation and arguments) and\n"
                   "   the result's sizes, strides, storage offset and contiguity, or the\n"
                   "   first line of the error. Generated, do not edit:\n"
                   "     /usr/bin/python3 tests/pytorch/view_cases.py > tests/check_ch02_view_cases.h */"
                   % torch.__version__, "view_cases", rows)

if __name__ == "__main__":
    main()
