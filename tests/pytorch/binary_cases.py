"""binary_cases.py: PyTorch 1.13's answers to random binary operations,
printed as the C table that tests/check_ch03.c replays (test_binary_cases).

Run with /usr/bin/python3 (torch 1.13):
  /usr/bin/python3 tests/pytorch/binary_cases.py > tests/check_ch03_binary_cases.h
Deterministic (random.seed(3)). Each case takes two operands of random
shapes (0 to 3 dims, sizes 0 to 3) that usually broadcast, of random dtypes
(bool, int64, float32, float64), each laid out in one of four ways:
contiguous, permuted, expanded from size-1 dims, or every second element of
a last dim twice as long; or a Python number (int, float or bool) for the
second. It applies one of add, sub, mul, div, eq, lt, add_, sub_, mul_,
div_ (the in-place ones write into the first operand). The table holds each
case as text and PyTorch's answer: the result's dtype, shape, strides and
values, or the first line of its error.

The sweep behind this table (6,000 cases) found two differences in the
layout of new outputs: a dimension an input lacks counted as a stride of
its expand (PyTorch's compute_strides counts it as broadcast), and a size 0
was counted as 1 when an output's strides were handed out (TensorIterator
multiplies by it as it is).
"""
import random

import torch

DTYPES = {"b": torch.bool, "l": torch.int64, "f": torch.float32, "d": torch.float64}
OPS = ["add", "sub", "mul", "div", "eq", "lt", "add_", "mul_", "div_", "sub_"]
NUMBERS = [("i", 2), ("i", -3), ("f", 0.5), ("f", -2.0), ("b", True)]


def rshape():
    return [random.choice([0, 1, 1, 2, 2, 3]) for _ in range(random.randint(0, 3))]


def partner(shape):
    """A shape that broadcasts with shape, nearly always."""
    k = random.randint(0, len(shape) + 1)
    full = [1] * max(0, k - len(shape)) + shape
    out = []
    for s in full[len(full) - k:]:
        if random.random() < 0.9:
            out.append(random.choice([s, s, 1]))
        else:
            out.append(random.choice([0, 1, 2, 3]))
    return out


def layout(shape):
    """(kind, base shape, extra): how an operand of this shape is made."""
    kind = random.choice(["c", "c", "p", "e", "s"])
    nd = len(shape)
    if kind == "p" and nd >= 2:        # base.permute(q)
        q = list(range(nd))
        random.shuffle(q)
        base = [0] * nd
        for j in range(nd):
            base[q[j]] = shape[j]
        return "p", base, q
    if kind == "e" and nd >= 1:        # base.expand(shape)
        return "e", [s if random.random() < 0.5 else 1 for s in shape], shape
    if kind == "s" and nd >= 1:        # base[..., ::2]
        return "s", shape[:-1] + [shape[-1] * 2], []
    return "c", list(shape), []


def build(dtype, spec):
    """The base's elements are (i % 7) - 3 (bool: i odd), then the layout."""
    kind, base_shape, extra = spec
    n = 1
    for s in base_shape:
        n *= s
    i = torch.arange(n)
    base = (i % 2) == 1 if dtype == "b" else ((i % 7) - 3).to(DTYPES[dtype])
    base = base.view(base_shape)
    if kind == "p":
        return base.permute(extra)
    if kind == "e":
        return base.expand(extra)
    if kind == "s":
        return base[..., ::2]
    return base


def spec_text(dtype, spec):
    kind, base_shape, extra = spec
    return "%s %s %s / %s" % (dtype, kind, " ".join(map(str, base_shape)) or "-",
                              " ".join(map(str, extra)) or "-")


def answer(r):
    values = " ".join(repr(float(v)) for v in r.flatten().tolist())
    return ("%s %s %s :%s" % (str(r.dtype)[len("torch."):], list(r.shape), list(r.stride()),
                              " " + values if values else ""))


def print_table(comment, name, rows):
    """rows, pairs of a case's text and its answer, as the C array `name`
    of string pairs under `comment` (the table generators share it)."""
    print(comment)
    print("static const char *const %s[][2] = {" % name)
    for case, out in rows:
        print('    { "%s",\n      "%s" },' % (case, out.replace("\\", "\\\\").replace('"', '\\"')))
    print("};")


def main():
    random.seed(3)
    rows = []
    for _ in range(1500):
        sa = rshape()
        sb = partner(sa)
        if random.random() < 0.5:
            sa, sb = sb, sa
        da, db = random.choice("blfd"), random.choice("blfd")
        a, op = layout(sa), random.choice(OPS)
        if random.random() < 0.2:
            kind, value = random.choice(NUMBERS)
            b_text, b = "num %s %s" % (kind, value), value
        else:
            spec = layout(sb)
            b_text, b = spec_text(db, spec), build(db, spec)
        try:
            x = build(da, a)
            r = getattr(x, op)(b) if op.endswith("_") else getattr(torch, op)(x, b)
            out = answer(r)
        except Exception as e:
            out = "error: " + str(e).splitlines()[0]
        rows.append(("%s | %s | %s" % (spec_text(da, a), op, b_text), out))
    print_table("/* check_ch03_binary_cases.h: PyTorch %s's answers to random binary\n"
                "   operations: the case (first operand | operation | second operand or\n"
                "   number) and the result's dtype, shape, strides and values, or the\n"
                "   first line of the error. Generated, do not edit:\n"
                "     /usr/bin/python3 tests/pytorch/binary_cases.py > tests/check_ch03_binary_cases.h */"
                % torch.__version__, "binary_cases", rows)


if __name__ == "__main__":
    main()
