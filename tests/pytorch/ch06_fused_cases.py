"""ch06_fused_cases.py: PyTorch 1.13's F.cross_entropy on the cases of
tests/check_ch06_fused.h, printed as the C table it includes.

Run with /usr/bin/python3 (torch 1.13):
  /usr/bin/python3 tests/pytorch/ch06_fused_cases.py > tests/check_ch06_fused_cases.h
Deterministic: the inputs are fixed formulas, printed exactly (as hex
floats) together with the loss and the input's gradient that PyTorch
computes from them, and with probability targets the gradients of the
target and the weight too. For reduction 'none' the backward's grad_output
is 0.5, 0.75, 1, ... (one per element of the loss); otherwise 1.
"""
import math

import torch
import torch.nn.functional as F

REDUCTIONS = {"none": "TC_REDUCTION_NONE", "mean": "TC_REDUCTION_MEAN",
              "sum": "TC_REDUCTION_SUM"}


def logits(shape, dtype, scale=3.0, seed=1):
    n = math.prod(shape)
    x = torch.tensor([scale * math.sin(seed * 0.7 + 1.3 * i) + 0.1 * (i % 7)
                      for i in range(n)], dtype=torch.float64)
    return x.to(dtype).view(shape)


def probabilities(shape, dtype, class_dim):
    return logits(shape, torch.float64, 2.0, seed=5).softmax(class_dim).to(dtype)


def hexes(t):
    return ", ".join(float(v).hex() if math.isfinite(v) else
                     ("NAN" if math.isnan(v) else ("INFINITY" if v > 0 else "-INFINITY"))
                     for v in t.reshape(-1).double().tolist())


CASES = []


def case(name, shape, dtype, target, weight=None, reduction="mean", ignore_index=-100,
         smoothing=0.0, x=None, transposed=False):
    CASES.append((name, shape, dtype, target, weight, reduction, ignore_index, smoothing, x,
                  transposed))


F32, F64 = torch.float32, torch.float64
T3 = torch.tensor([1, 0, 4])
W5 = torch.tensor([0.5, 1.0, 2.0, 1.0, 0.25])
for red in ("none", "mean", "sum"):
    case(f"classes, {red}", (3, 5), F32, T3, reduction=red)
case("weight, mean", (3, 5), F32, T3, W5)
case("weight, ignore_index 0, mean", (3, 5), F32, T3, W5, ignore_index=0)
case("weight, ignore_index 0, none", (3, 5), F32, T3, W5, "none", ignore_index=0)
case("smoothing 0.1, mean", (3, 5), F32, T3, smoothing=0.1)
case("smoothing 0.3, weight, sum", (3, 5), F32, T3, W5, "sum", smoothing=0.3)
case("smoothing 0.2, weight, ignored, mean", (3, 5), F32, T3, W5, ignore_index=4,
     smoothing=0.2)
case("smoothing 1, none", (3, 5), F32, T3, reduction="none", smoothing=1.0)
case("all ignored, mean", (3, 5), F32, torch.tensor([-100, -100, -100]))
case("unbatched, none", (5,), F32, torch.tensor(3), reduction="none")
case("unbatched, weight, mean", (5,), F64, torch.tensor(2), W5.double())
case("4-D, ignored, mean", (2, 3, 2, 2), F32,
     torch.tensor([[[0, 1], [2, -100]], [[2, 2], [1, 0]]]))
case("3-D, weight, smoothing, none", (2, 4, 3), F64,
     torch.tensor([[0, 3, 1], [2, 2, 0]]), torch.tensor([1.0, 0.5, 2.0, 1.5], dtype=F64),
     "none", smoothing=0.25)
case("probabilities, mean", (3, 5), F32, "p")
case("probabilities, weight, smoothing 0.2, sum", (3, 5), F32, "p", W5, "sum", smoothing=0.2)
case("probabilities, 3-D, none", (2, 4, 3), F64, "p", reduction="none")
case("probabilities, unbatched, mean", (5,), F32, "p")
case("float64 probabilities of float32 logits, mean", (3, 5), F32, "p64")
# The smoothed target is computed in the target's type: float32 here, rounded
# twice, which float64 logits can tell from a float64 computation.
case("float32 probabilities of float64 logits, weight, smoothing 0.1, sum", (3, 5), F64, "p32",
     W5, "sum", smoothing=0.1)
case("transposed logits, sum", (3, 5), F32, T3, reduction="sum", transposed=True)
big = torch.tensor([[1000.0, -1000.0, 999.0, 0.0], [-1000.0, -999.0, -1000.0, -998.0],
                    [float("-inf"), 2.0, float("-inf"), 1.0]])
case("logits of +-1000 and -inf, none", (3, 4), F32, torch.tensor([2, 1, 3]),
     reduction="none", x=big)
nan = torch.tensor([[float("nan"), 1.0, 2.0], [float("inf"), 0.0, 1.0],
                    [float("-inf"), float("-inf"), float("-inf")], [0.5, 1.0, -1.0]])
case("rows with NaN, +inf, all -inf, none", (4, 3), F32, torch.tensor([1, 1, 0, 2]),
     reduction="none", x=nan)
case("rows with NaN, +inf, all -inf, ignored", (4, 3), F32, torch.tensor([-100, -100, -100, 2]),
     reduction="sum", x=nan)


def main():
    print("/* check_ch06_fused_cases.h: PyTorch %s's F.cross_entropy on the cases of\n"
          "   tests/check_ch06_fused.h: each case's logits, target, weight, loss and\n"
          "   the logits' gradient, as PyTorch computed them. Generated, do not edit:\n"
          "     /usr/bin/python3 tests/pytorch/ch06_fused_cases.py \\\n"
          "         > tests/check_ch06_fused_cases.h\n"
          "   Included by check_ch06_fused.h, which defines fused_case. */" % torch.__version__)
    for k, (name, shape, dtype, target, weight, red, ii, ls, x, transposed) in enumerate(CASES):
        x = (logits(shape, dtype) if x is None else x.to(dtype))
        if transposed:
            x = x.t().contiguous().t()
        x = x.clone().requires_grad_()
        class_dim = 0 if len(shape) == 1 else 1
        probs = isinstance(target, str)
        if probs:
            t = probabilities(shape, {"p64": F64, "p32": F32}.get(target, dtype), class_dim)
        else:
            t = target
        w = None if weight is None else weight.to(dtype)
        if probs:    # the target and the weight get gradients too
            t = t.clone().requires_grad_()
            w = None if w is None else w.clone().requires_grad_()
        loss = F.cross_entropy(x, t, weight=w, reduction=red, ignore_index=ii,
                               label_smoothing=ls)
        if red == "none":
            g = torch.tensor([0.5 + 0.25 * i for i in range(loss.numel())],
                             dtype=loss.dtype).view(loss.shape)
        else:
            g = torch.ones((), dtype=loss.dtype)
        loss.backward(g)
        print("static const double C%d_X[] = { %s };" % (k, hexes(x.detach())))
        print("static const double C%d_T[] = { %s };" % (k, hexes(t.detach())))
        if w is not None:
            print("static const double C%d_W[] = { %s };" % (k, hexes(w.detach())))
        if probs:
            print("static const double C%d_T_GRAD[] = { %s };" % (k, hexes(t.grad)))
        if probs and w is not None:
            print("static const double C%d_W_GRAD[] = { %s };" % (k, hexes(w.grad)))
        print("static const double C%d_LOSS[] = { %s };" % (k, hexes(loss.detach())))
        print("static const double C%d_GRAD[] = { %s };" % (k, hexes(x.grad)))
    print("static const fused_case FUSED_CASES[] = {")
    for k, (name, shape, dtype, target, weight, red, ii, ls, x, transposed) in enumerate(CASES):
        probs = isinstance(target, str)
        tdtype = "TC_FLOAT32" if target == "p32" else \
                 "TC_FLOAT64" if target == "p64" or (probs and dtype == F64) else \
                 ("TC_FLOAT32" if probs else "TC_INT64")
        print('    { "%s", %s, { %d, { %s } }, %s, C%d_X, %s, C%d_T, %s, %s, %d, %r, C%d_LOSS, '
              'C%d_GRAD, %s, %s },'
              % (name, "TC_FLOAT32" if dtype == F32 else "TC_FLOAT64", len(shape),
                 ", ".join(map(str, shape)), "true" if transposed else "false", k, tdtype, k,
                 "NULL" if weight is None else "C%d_W" % k, REDUCTIONS[red], ii, ls, k, k,
                 "C%d_T_GRAD" % k if probs else "NULL",
                 "C%d_W_GRAD" % k if probs and weight is not None else "NULL"))
    print("};")


if __name__ == "__main__":
    main()
