"""special_cases.py: PyTorch 1.13's results and gradients at special values
(NaN, the infinities, signed zeros, saturation), printed as the C tables
that tests/check_ch05.c and tests/check_ch06.c include and run through
tests/testing_special.h.

Run with /usr/bin/python3 (torch 1.13):
  /usr/bin/python3 tests/pytorch/special_cases.py 5 > tests/check_ch05_special_cases.h
  /usr/bin/python3 tests/pytorch/special_cases.py 6 > tests/check_ch06_special_cases.h
Deterministic: fixed inputs. Each case is one operation on one or two
float32 or float64 leaves, then y.backward(g) with every element of g the
same number (1, NaN or infinity); the table holds the inputs as the tensor
holds them (after rounding to the dtype), the result, and the leaves'
gradients, all as
hex floats, so that NaN, infinities and the sign of zero survive.

The sweep that found chapter 5's relu gradient at NaN (PyTorch lets it
through, the book stopped it), the -0 of sigmoid and tanh at saturation,
chapter 3's relu(-0.), which PyTorch keeps -0., and the fused
cross-entropy's +0 loss where PyTorch's is -(log p) = -0.
"""
import math
import sys

import torch
import torch.nn.functional as F

NAN, INF = float("nan"), float("inf")
DTYPES = {torch.float32: "TC_FLOAT32", torch.float64: "TC_FLOAT64"}

# Special values and points where a function saturates in float32 or
# float64 (sigmoid(20) is 1 in float32; tanh(10) is 1 in float32).
V = [NAN, INF, -INF, 0.0, -0.0, 1.0, -1.0, 0.5, 20.0, -20.0, 10.0, -40.0,
     100.0, -100.0, 1e-40, -1e-300]
A = [NAN, INF, -INF, 0.0, 0.0, 1.0, INF, 2.0, -2.0]
B = [1.0, 0.0, INF, 0.0, -0.0, NAN, INF, -INF, 0.5]
ROWS = [V, [1.0, INF, INF, -INF], [2.0, 2.0, 1.0], [NAN, 1.0, NAN], [-INF, -INF]]
M = [[NAN, 1.0, 2.0], [3.0, 3.0, -INF], [INF, INF, NAN]]
SOFT = [[INF, 1.0, 2.0], [-INF, 1.0, 2.0], [-INF, -INF], [NAN, 1.0], [INF, INF]]
LOGITS = [([INF, 0.0, 1.0], 0), ([-INF, 0.0, 1.0], 1), ([-INF, 0.0, 1.0], 0),
          ([NAN, 0.0, 1.0], 1), ([-INF, 0.0, -INF], 1)]


def cases(chapter):
    """(name, op, number, inputs (nested lists), upstream g, function)."""
    out = []
    if chapter == 5:
        for gname, g in (("1", 1.0), ("nan", NAN), ("inf", INF)):
            for op in ("neg", "exp", "log", "sqrt", "abs", "relu", "sigmoid", "tanh"):
                out.append((f"{op} g={gname}", op, 0.0, [V], g, getattr(torch, op)))
        for op in ("add", "sub", "mul", "div", "pow"):
            out.append((op, op, 0.0, [A, B], 1.0, getattr(torch, op)))
        for e in (0.0, 0.5, -1.0, 2.0, -0.5, 3.0):
            out.append((f"pow_scalar {e}", "pow_scalar", e, [V], 1.0,
                        lambda x, e=e: x ** e))
        for b in (0.0, 2.0, -1.0, 1.0):
            out.append((f"number_pow {b}", "number_pow", b, [V], 1.0,
                        lambda x, b=b: torch.pow(b, x)))
        for k, row in enumerate(ROWS):
            for op in ("sum", "mean", "max", "min"):
                out.append((f"{op} row {k}", op, 0.0, [row], 1.0, getattr(torch, op)))
        for d in (0, 1):
            out.append((f"max_dim {d}", "max_dim", d, [M], 1.0,
                        lambda x, d=d: torch.max(x, d)[0]))
            out.append((f"min_dim {d}", "min_dim", d, [M], 1.0,
                        lambda x, d=d: torch.min(x, d)[0]))
        out.append(("mm", "mm", 0.0, [[[INF, 0.0], [1.0, NAN]], [[0.0, 1.0], [INF, 2.0]]],
                    1.0, torch.mm))
    else:
        for k, row in enumerate(SOFT):
            out.append((f"softmax row {k}", "softmax", 0, [row], 1.0,
                        lambda x: torch.softmax(x, 0)))
            out.append((f"log_softmax row {k}", "log_softmax", 0, [row], 1.0,
                        lambda x: torch.log_softmax(x, 0)))
            out.append((f"logsumexp row {k}", "logsumexp", 0, [row], 1.0,
                        lambda x: torch.logsumexp(x, 0)))
        # Each loss twice: composed (ag_cross_entropy) and fused; PyTorch's
        # F.cross_entropy is the oracle of both.
        for row, t in LOGITS:
            for red in ("mean", "none"):
                for way in ("cross_entropy", "cross_entropy_fused"):
                    op = way if red == "mean" else way + "_none"
                    out.append((f"{op} {row} target {t}", op, t, [[row]], 1.0,
                                lambda x, t=t, red=red: F.cross_entropy(x, torch.tensor([t]),
                                                                        reduction=red)))
        out.append(("masked_fill nan", "masked_fill", NAN, [[1.0, INF, 2.0]], NAN,
                    lambda x: x.masked_fill(torch.tensor([True, False, True]), NAN)))
    return out


def hexes(values):
    def one(v):
        if math.isnan(v):
            return "NAN"
        if math.isinf(v):
            return "INFINITY" if v > 0 else "-INFINITY"
        return float(v).hex()
    return "{ " + ", ".join(one(v) for v in values) + " }"


def shape(t):
    return (0, t.shape[0]) if t.dim() == 1 else (t.shape[0], t.shape[1])


def main():
    chapter = int(sys.argv[1])
    print(f"/* check_ch0{chapter}_special_cases.h: PyTorch {torch.__version__}'s gradients at special")
    print("   values, one row per case: the operation, its dtype, its number (an")
    print("   exponent, a base, a dim, a class, a fill value), the leaves' shapes")
    print("   (rows 0: a vector) and values, the upstream gradient's every element,")
    print("   and the leaves' gradients. Generated, do not edit:")
    print(f"     /usr/bin/python3 tests/pytorch/special_cases.py {chapter} \\")
    print(f"         > tests/check_ch0{chapter}_special_cases.h */")
    rows = []
    for dtype, dname in DTYPES.items():
        for name, op, number, inputs, g, f in cases(chapter):
            leaves = [torch.tensor(x, dtype=dtype, requires_grad=True) for x in inputs]
            y = f(*leaves)
            y.backward(torch.full_like(y, g))
            ins = [hexes(l.detach().flatten().tolist()) for l in leaves]
            outs = y.detach().flatten().tolist()
            grads = [hexes(l.grad.flatten().tolist()) for l in leaves]
            second = len(leaves) == 2
            (r0, c0), (r1, c1) = shape(leaves[0]), shape(leaves[-1])
            num = hexes([float(number)])[2:-2]
            rows.append(
                f"    {{ \"{name}\", SP_{op.upper()}, {dname}, {num}, {r0}, {c0}, {r1}, {c1},\n"
                f"      (const double[]){ins[0]},\n"
                f"      {'(const double[])' + ins[1] if second else 'NULL'},\n"
                f"      {len(outs)}, (const double[]){hexes(outs)},\n"
                f"      {hexes([g])[2:-2]},\n"
                f"      (const double[]){grads[0]},\n"
                f"      {'(const double[])' + grads[1] if second else 'NULL'} }},")
    print("static const special_case special_cases[] = {")
    print("\n".join(rows))
    print("};")


if __name__ == "__main__":
    main()
