"""ch06_facts.py: ground truth for chapter 6 (cross-entropy), from PyTorch 1.13.

Run with /usr/bin/python3 (torch 1.13).  Deterministic: literal inputs, or inputs drawn after
torch.manual_seed(...) and printed.  Prints Markdown; FACTS.md is its output:
  /usr/bin/python3 tests/pytorch/ch06_facts.py > tests/pytorch/ch06_facts.md
The values asserted by tests/check_ch06.c are read from this output (cite the entry numbers).
"""
import math
import sys
import warnings

import torch
import torch.nn.functional as F

torch.set_num_threads(1)
F32, F64 = torch.float32, torch.float64

SURPRISES = r"""
## Surprises (what a C implementer would get wrong; read first)

Softmax, log_softmax, logsumexp (section a):

1. **A +inf anywhere in a row makes the whole softmax/log_softmax row NaN** (a.1.23-26, a.1.33),
   not [1, 0, 0]: PyTorch computes x - max = inf - inf = NaN. logsumexp of that row is **+inf**
   (it replaces an infinite max by 0 before subtracting: a.1.23, a.7 `[inf, -inf]` -> inf).
2. **A row of all -inf gives NaN** for softmax and log_softmax (a.1.29, a.1.37), but logsumexp
   gives **-inf**, not NaN (a.1.29; a.5 0-D `tensor(-inf)`: softmax NaN, logsumexp -inf).
   A single -inf among finite values is fine: softmax 0, log_softmax -inf (a.1.27).
3. NaN anywhere in a row: the whole row NaN for all three (a.1.31).
4. The naive `exp(x)/sum(exp(x))` in float32 gives `[nan, 0, 0]` from 88.73 up (exp(88.7228) is
   the last finite value; a.2, e.20), and `[0, 0, 0]` when no single exp overflows but the SUM
   does (a.1.13: [88.7, 88, 0]). float64 overflows at 709.79 (a.1.22: 710 -> nan). The stable
   softmax keeps float32 denormals (a.1.15: 2.2273639090442967e-39), so do not flush them.
5. Empty reductions: `logsumexp` over an empty dim is **-inf** (a.6: zeros(0,3) dim 0 ->
   [-inf,-inf,-inf]; zeros(0,) -> -inf); softmax of an empty tensor is an empty tensor of the
   same shape, along any dim, even for int64 input (no dtype error when numel is 0: a.8).
6. `logsumexp(x, dims=())`: keepdim=True reduces over ALL dims (shape [1,1,1]); keepdim=False
   **raises** `output with shape [] doesn't match the broadcast shape [1, 1, 1]` (a.7, a 1.13 bug).
   A repeated dim: `dim 1 appears multiple times in the list of dims`.
7. dtypes: softmax/log_softmax of int64/bool **raise** with the kernel's name, and the name depends
   on the dim: `"softmax_lastdim_kernel_impl" not implemented for 'Long'` (last dim, also 0-D),
   `"log_softmax_lastdim_kernel_impl" ...` for log_softmax on the last dim, but
   `"softmax_kernel_impl" not implemented for 'Long'` for BOTH softmax and log_softmax on any other
   dim (a.8). float16 also raises on CPU. `logsumexp` of int64/bool does NOT raise: it promotes to
   float32 (a.8).
8. Dim errors are **IndexError**: `Dimension out of range (expected to be in range of [-2, 1], but got 2)`;
   a 0-D tensor accepts dim 0 and -1 (range [-1, 0]); softmax of a 0-D tensor is 1.0, log_softmax 0.0,
   logsumexp the value itself (a.5).
9. Non-contiguous input: the output is a NEW contiguous tensor (row-major strides), never the
   input's layout (a.4). Values along a non-last dim may differ from the last-dim kernel in the
   last ulp (a.4: 0.26894142136999516 vs 0.2689414213699951); compare with a tolerance.
10. Backward: softmax of a row with -inf has finite gradient (0 there, a.9.6); all -inf row:
    NaN gradient (a.9.16/18/20); logsumexp with +inf: NaN at the inf entry, 0 elsewhere (a.9.25);
    log_softmax backward at a -inf entry gives `w` itself (a.9.8: grad = w - softmax * sum(w)).
    The nodes save their OUTPUT (`_saved_result`), plus `_saved_self` for logsumexp (a.10).
    `F.softmax(x, d, dtype=...)` records `SoftmaxBackward0 -> ToCopyBackward0`.

nll_loss / cross_entropy values (section b):

11. **Mean over all-ignored targets is NaN (0/0)** for every path (b.2.10, b.2.13, b.3.16,
    unbatched b.6.6), but the **gradient is all zeros, not NaN** (b.2.10). sum -> 0, none -> zeros.
    In contrast, **targets that are not ignored but whose weights are all 0** give loss NaN AND an
    all-NaN gradient (b.1.15), because nll_loss_backward divides -w[t]=0 by total_weight=0.
12. The weighted mean divides by **sum of the targets' weights**, not N (b.1.7); for probability
    targets the mean divides by **N = input.numel()/C** and the weights do not enter (b.12).
13. Label smoothing (class targets), exactly (b.12, checked on 90 combinations):
    `loss_i = (1-eps)*nll_i + eps/C * smooth_i`, `smooth_i = -sum_c w_c lp[i,c]` (0 if ignored);
    mean: `(1-eps)*sum(nll)/W + eps/C * S` with `W = sum of the non-ignored targets' weights` and
    `S = sum(smooth)/W` with a weight but `S = mean of smooth over non-ignored samples` without one
    (the same number when weights are 1). label_smoothing=1.0 is allowed (b.3.5).
14. **label_smoothing < 0 is silently accepted and acts as 0** (c.7.1: -0.1 gives the same loss as
    0.0; also NaN, c.7.4); only > 1 raises, for class and probability targets alike. The message
    prints the double with C++'s default 6 significant digits: 1.5 -> `Got: 1.5`, 2.0 -> `Got: 2`,
    1.0000001 -> `Got: 1` (c.7.3, c.7.11). In C: `%g`.
15. ignore_index with probability targets raises only if ignore_index >= 0 (c.6.1); -1 and -100 are
    fine (c.6.2). A target value equal to ignore_index is ignored even if >= C (b.2.16) or negative
    (b.2.15); any other negative target raises `Target -1 is out of bounds.` (c.1.8).
16. Probability vs class targets is decided by **shape equality only** (input.sizes() ==
    target.sizes()), before the dtype: an int64 target of the input's shape gives `Expected floating
    point type for target with class probabilities, got Long` (c.3.9, c.6.9); a 0-D input with a
    0-D int target too (c.8.1). Probability target rows are not checked (may not sum to 1, may be
    negative: b.4.14). A -inf logit with p = 0 gives loss **NaN** (0 * -inf) but a finite gradient (b.4.21).
17. Unbatched (C,) input with reduction='none' gives a **0-D** loss (b.6.3, b.4.19). At ATen level,
    `nll_loss_forward` on 1-D input with reduction none returns total_weight = w[t] (1.0), while
    2-D input with reduction none returns total_weight 0 (b.10.3, b.10.13).
18. **uint8 targets are accepted** by nll_loss/cross_entropy for 1-D/2-D input (c.4.6, c.11), but
    not for 3-D+ input (`expected scalar type Long but found Byte`, c.11.4). int32/int16/bool/float
    targets raise `expected scalar type Long but found Int` etc. (c.4).
19. -inf logit at the target: loss inf (b.8.2) but a FINITE gradient (softmax - onehot: -0.5 there,
    b.8.2); with label smoothing any -inf logit makes the loss inf (b.8.5). Logits of ±1000 are exact in float32 (b.8.10:
    loss 0 and 2000). NaN logits give NaN only in their row with reduction='none' (b.8.9).
20. ATen's reduction int other than 0/1/2 (3, -1) is treated as **sum** by nll_loss
    (c.9.7-9.10, b.10.21), while the probability-target and label-smoothing paths raise
    `Invalid reduction type encountered in cross_entropy: 3` (c.9.11). Python's strings: `foo is
    not a valid value for reduction` (ValueError, c.9.1).
21. The float32 hand computation (softmax, pick, -log, mean) differs from F.cross_entropy by 2 ulp
    (e.11: 2.158338785171509 vs 2.1583385467529297); tests need rtol ~1e-6, not equality.

Errors (section c):

22. Exception types differ: batch-size mismatch and 0-D input to nll_loss are **ValueError**
    (`Expected input batch_size (3) to match target batch_size (2).`, `Expected 1 or more dimensions
    (got 0)`); out-of-bounds targets and dim errors are **IndexError**; the rest RuntimeError.
23. A 2-D input with a 0-D target reports `target batch_size (0)` (c.3.7; PyTorch reads sizes()[0]
    of a 0-D tensor).
24. Three different weight-size messages: 1-D/2-D input: `weight tensor should be defined either for
    all 5 classes or no classes but got weight tensor of shape: [4]`; 3-D+ input (nll_loss2d):
    `weight tensor should be defined either for all or no classes` (c.2.15, c.10.16); probability
    targets: the first with the prefix `cross_entropy: ` (c.2.12). A 0-D weight prints `shape: []`.
25. Target shape messages by input rank: 2-D input + 2-D target: `0D or 1D target tensor expected,
    multi-target not supported` (also for float probability-like targets of the wrong shape, c.6.4);
    1-D input: `size mismatch (got input: [5], target: [1])`; 3-D and 5-D input: `Expected target
    size [2, 3], got [2, 4]`; 4-D input: `only batches of spatial targets supported (3D tensors) but
    got targets of dimension: 2` and `size mismatch (got input: [2, 3, 2, 2] , target: [2, 2, 3]`
    (**note the space before the comma and the missing closing parenthesis**, c.3.17).
26. Order of checks (c.10): cross_entropy runs log_softmax FIRST (int input -> the log_softmax
    kernel message even with a bad target, c.10.8; 0-D input -> IndexError from the class dim);
    then nll_loss_nd's batch check (ValueError), then the target's dims, size, then the weight's
    size, then dtypes inside the kernel (input dtype, then weight dtype before target dtype:
    c.10.4 int32 target + float64 weight -> `expected scalar type Float but found Double`), then
    target values, in order, the first bad one reported (c.1.5: [1,7,5] -> `Target 7`).
    Probability targets: dtype check, then ignore_index, then the weight size, then label_smoothing
    (c.10.18-19). For class targets, label_smoothing > 1 is checked FIRST of all, before
    log_softmax and every nll_loss check (c.7.7-7.10; even a 0-D input gives the smoothing message).
27. Weight dtype must equal the input's for class targets (`expected scalar type Float but found
    Double`), but with probability targets a float64 weight or target is **accepted and promotes**
    the loss to float64 (c.2.13, c.6.12). NaN weights are not checked (loss NaN, c.2.16).

Graphs (section d):

28. `cross_entropy` with class targets and no smoothing: `NllLossBackward0 -> LogSoftmaxBackward0 ->
    AccumulateGrad` for 1-D/2-D input (weight or not, any reduction); 4-D input:
    `NllLoss2DBackward0 -> LogSoftmaxBackward0`; **3-D and 5-D input: `NllLoss2DBackward0 ->
    ViewBackward0 -> LogSoftmaxBackward0`, and with reduction='none' one more `ViewBackward0` on
    top** (d.1). nll_loss alone: the same without LogSoftmaxBackward0.
29. Label smoothing: `AddBackward0(MulBackward1(NllLossBackward0), MulBackward1(...))` where the
    smoothing branch is `[MeanBackward0 -> MaskedSelectBackward0 | DivBackward0 -> SumBackward0 |
    SumBackward0 | nothing] -> IndexPutBackward0 -> NegBackward0 -> SumBackward1 -> [MulBackward0
    with weight] -> LogSoftmaxBackward0`, the SAME LogSoftmaxBackward0 node as the nll branch (d.2).
    MulBackward1/DivBackward1 are mul/div by a C++ Scalar (one edge); Python `x * 2.5` is
    MulBackward0 with two edges (d.6).
30. Probability targets: mean `DivBackward1 -> NegBackward0 -> SumBackward0 -> MulBackward0 ->
    [MulBackward0 with weight] -> LogSoftmaxBackward0`; sum drops DivBackward1; none uses
    `NegBackward0 -> SumBackward1` (d.3). Label smoothing changes the target, not the graph.
31. NllLossBackward0 saves self, target, weight, total_weight, reduction (int), ignore_index (d.5).
"""


def tn(fn):
    return None if fn is None else type(fn).__name__


def nf(fn):
    if fn is None:
        return None
    return [(tn(f), i) for f, i in fn.next_functions]


KEEP = []


def chain(fn, depth=0, out=None, seen=None):
    """The whole graph below fn, one node a line, children indented with their input_nr.
    A node reached a second time is printed as 'same node as #k' (the graph is a DAG)."""
    if out is None:
        out = []
    if seen is None:
        seen = {}
    if fn is None:
        out.append("  " * depth + "None")
        return out
    key = id(fn)
    if key in seen:
        out.append("  " * depth + f"{tn(fn)} (same node as #{seen[key]})")
        return out
    seen[key] = len(seen) + 1
    KEEP.append(fn)  # keep the Python object alive so that id() is not reused
    extra = ""
    if tn(fn) == "AccumulateGrad":
        extra = f"  (variable shape {list(fn.variable.shape)})"
    out.append("  " * depth + f"{tn(fn)} #{seen[key]}{extra}")
    for f, i in fn.next_functions:
        out.append("  " * (depth + 1) + f"input_nr={i}:")
        chain(f, depth + 2, out, seen)
    return out


def h(title, level=2):
    print()
    print("#" * level + " " + title)
    print()


def code(lines):
    print("```")
    for l in lines:
        print(l)
    print("```")


def rep(t):
    """Values as nested Python floats/ints (repr: full precision; float32 values are exact)."""
    if t is None:
        return "None"
    if isinstance(t, (float, int, bool)):
        return repr(t)
    if t.dim() == 0:
        return repr(t.item())
    return repr(t.tolist())


def dts(t):
    return str(t.dtype).replace("torch.", "")


def meta(t):
    return (f"dtype={dts(t)} shape={list(t.shape)} strides={list(t.stride())} "
            f"contiguous={t.is_contiguous()}")


def err(f):
    """(type name, str(e)) of what f raises, or None and the result."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            r = f()
        return None, r
    except Exception as e:  # noqa
        return type(e).__name__, str(e)


def naive_softmax(x, dim=-1):
    e = x.exp()
    return e / e.sum(dim, keepdim=True)


# ===========================================================================
print("# Chapter 6 (cross-entropy): facts from PyTorch", torch.__version__)
print()
print("Generated by `/usr/bin/python3 tests/pytorch/ch06_facts.py` (Python "
      f"{sys.version.split()[0]}, torch {torch.__version__}, threads {torch.get_num_threads()}).")
print()
print("Conventions: every float is printed with Python's `repr` of the value as a double; a "
      "float32 value is printed as the exact double it converts to (so `0.1` in float32 shows as "
      "`0.10000000149011612`). Inputs are given as the decimal literals they were made from "
      "(`0.61` means `torch.tensor(0.61, dtype=...)`, i.e. `0.61f` in C for float32). "
      "`nan`, `inf`, `-inf` are IEEE values. Entry numbers (a.1, b.17 ...) are stable: tests cite "
      "them.")

print(SURPRISES)
print("""## Contents

- a) softmax / log_softmax / logsumexp: a.1 rows (23 rows x float32/float64: softmax, log_softmax,
  logsumexp, naive), a.2 the float32/float64 overflow thresholds, a.3 along each dim of 2-D and 3-D
  inputs, a.4 non-contiguous inputs (output strides), a.5 0-D, a.6 empty, a.7 logsumexp over several
  dims / keepdim, a.8 errors and dtypes, a.9 gradients, a.10 node names and saved attributes.
- b) losses with values AND input gradients: b.1 (N,C) class targets, b.2 ignore_index, b.3 label
  smoothing, b.4 probability targets, b.5 K-dim inputs, b.6 unbatched, b.7 empty batch, b.8 -inf /
  NaN / 1000 logits, b.9 nll_loss alone, b.10 total_weight from aten.nll_loss_forward, b.11
  aten.nll_loss_backward called directly, b.12 the formulas (checked), b.13 gradients w.r.t. weight
  and probability targets.
- c) error messages: c.1 target out of bounds, c.2 weight, c.3 target shapes, c.4 target dtypes,
  c.5 nll_loss ranks, c.6 probability targets, c.7 label_smoothing, c.8 input rank and dtype,
  c.9 reduction, c.10 which check comes first, c.11 uint8 targets.
- d) graphs: d.1 ranks 1-5 x reductions, d.2 weight / smoothing, d.3 probability targets, d.4
  nll_loss alone, d.5 saved attributes, d.6 Scalar-op node names (MulBackward1, DivBackward1).
- e) the study script: by hand vs F.cross_entropy (e.1-e.19), e.20 naive vs stable table,
  e.21 loss and gradient as one logit varies (for a figure).
""")


# ===========================================================================
h("a) softmax, log_softmax, logsumexp")

SM_ROWS = [
    ("ordinary", [1.0, 2.0, 3.0]),
    ("negatives", [-1.0, 0.0, 0.5, -2.0]),
    ("+-1000", [1000.0, 0.0, -1000.0]),
    ("all 1000", [1000.0, 1000.0, 1000.0]),
    ("all -1000", [-1000.0, -1000.0, -999.0]),
    ("near 88", [88.0, 0.0, 1.0]),
    ("88.7 (exp just below FLT_MAX)", [88.7, 88.0, 0.0]),
    ("89 (float32 exp overflows)", [89.0, 0.0, 1.0]),
    ("90", [90.0, 89.0, 1.0]),
    ("709 (double exp ok)", [709.0, 0.0, 1.0]),
    ("710 (double exp overflows)", [710.0, 0.0, 1.0]),
    ("+inf in row", [math.inf, 0.0, 1.0]),
    ("two +inf", [math.inf, math.inf, 1.0]),
    ("-inf in row", [-math.inf, 0.0, 1.0]),
    ("all -inf", [-math.inf, -math.inf, -math.inf]),
    ("NaN in row", [math.nan, 0.0, 1.0]),
    ("+inf and -inf", [math.inf, -math.inf, 0.0]),
    ("single element", [5.0]),
    ("single -inf", [-math.inf]),
    ("single +inf", [math.inf]),
    ("all equal", [2.0, 2.0, 2.0, 2.0]),
    ("huge spread", [3.0e38, -3.0e38, 0.0]),
    ("tiny values", [1e-30, -1e-30, 0.0]),
]

h("a.1 Rows along dim=-1 (1-D input of the row; results identical as a row of a 2-D input)", 3)
print("For each row and dtype: `F.softmax(x, -1)`, `F.log_softmax(x, -1)`, "
      "`torch.logsumexp(x, -1)` (0-D), and the naive `x.exp() / x.exp().sum()`.")
n = 0
for lab, vals in SM_ROWS:
    for dt in (F32, F64):
        n += 1
        x = torch.tensor(vals, dtype=dt)
        print(f"\n**a.1.{n}** {lab}, {dts(x)}: x = `{vals!r}`")
        print(f"- softmax     = `{rep(F.softmax(x, -1))}`")
        print(f"- log_softmax = `{rep(F.log_softmax(x, -1))}`")
        print(f"- logsumexp   = `{rep(torch.logsumexp(x, -1))}`")
        print(f"- naive       = `{rep(naive_softmax(x))}`  (exp(x) = `{rep(x.exp())}`)")
# batched check: the rows as a 2-D tensor give the same values
ok = True
for dt in (F32, F64):
    rows3 = [r for _, r in SM_ROWS if len(r) == 3]
    X = torch.tensor(rows3, dtype=dt)
    for i, r in enumerate(rows3):
        a = F.softmax(X, 1)[i]
        b = F.softmax(torch.tensor(r, dtype=dt), 0)
        ok = ok and torch.equal(a.nan_to_num(7.0), b.nan_to_num(7.0))
print(f"\nSame bits when the 3-element rows are stacked into one 2-D tensor (dim=1): {ok}")

h("a.2 Float32 exp overflow threshold", 3)
t = torch.tensor([88.72283172607421875, 88.7228469848632812], dtype=F32)
print(f"- float32 exp([88.72283172607421875, 88.72284698486328125]) = `{rep(t.exp())}`")
print(f"- float32 max = `{torch.finfo(F32).max!r}`, log(max) = `{math.log(torch.finfo(F32).max)!r}`")
t = torch.tensor([709.782712893384, 709.7827128933841], dtype=F64)
print(f"- float64 exp([709.782712893384, 709.7827128933841]) = `{rep(t.exp())}`")
for v in (88.0, 88.5, 88.7, 88.8, 89.0, 90.0):
    x = torch.tensor([v, 0.0], dtype=F32)
    print(f"- float32 [{v}, 0.0]: naive = `{rep(naive_softmax(x))}` softmax = `{rep(F.softmax(x, 0))}`")

h("a.3 Along each dim of 2-D and 3-D inputs", 3)
A = torch.tensor([[1.0, 2.0, 3.0], [-1.0, 0.5, 4.0]], dtype=F64)
print(f"A (2x3, float64) = `{rep(A)}`")
for d in (0, 1, -1, -2):
    print(f"- softmax(A, {d}) = `{rep(F.softmax(A, d))}`")
    print(f"- log_softmax(A, {d}) = `{rep(F.log_softmax(A, d))}`")
    print(f"- logsumexp(A, {d}) = `{rep(torch.logsumexp(A, d))}`")
B = (torch.arange(24, dtype=F64).view(2, 3, 4) * 0.25 - 2.0)
B[1, 2, 3] = 5.0
print(f"\nB (2x3x4, float64) = (arange(24)*0.25 - 2.0).view(2,3,4) with B[1,2,3]=5.0: `{rep(B)}`")
for d in (0, 1, 2):
    print(f"- softmax(B, {d}) = `{rep(F.softmax(B, d))}`")
    print(f"- log_softmax(B, {d}) = `{rep(F.log_softmax(B, d))}`")
    print(f"- logsumexp(B, {d}) = `{rep(torch.logsumexp(B, d))}`")

h("a.4 Non-contiguous input: output layout", 3)
At = A.t()
print(f"At = A.t(): {meta(At)}, values `{rep(At)}`")
for d in (0, 1):
    s = F.softmax(At, d)
    print(f"- softmax(At, {d}): {meta(s)} values `{rep(s)}`")
    s = F.log_softmax(At, d)
    print(f"- log_softmax(At, {d}): {meta(s)}")
    s = torch.logsumexp(At, d)
    print(f"- logsumexp(At, {d}): {meta(s)} values `{rep(s)}`")
Bp = B.permute(2, 0, 1)
print(f"Bp = B.permute(2,0,1): {meta(Bp)}")
for d in (0, 1, 2):
    print(f"- softmax(Bp, {d}): {meta(F.softmax(Bp, d))}")
Bs = B[:, :, ::2]
print(f"Bs = B[:, :, ::2]: {meta(Bs)}")
for d in (0, 1, 2):
    print(f"- softmax(Bs, {d}): {meta(F.softmax(Bs, d))}; values equal to softmax(Bs.contiguous()): "
          f"{torch.equal(F.softmax(Bs, d), F.softmax(Bs.contiguous(), d))}")
s = F.softmax(A, 1)
print(f"- softmax(A contiguous, 1): {meta(s)}")

h("a.5 0-D input", 3)
z = torch.tensor(3.5, dtype=F64)
for d in (0, -1):
    for name, f in (("softmax", lambda: F.softmax(z, d)), ("log_softmax", lambda: F.log_softmax(z, d)),
                    ("logsumexp", lambda: torch.logsumexp(z, d))):
        e, r = err(f)
        print(f"- {name}(tensor(3.5), {d}) = " + (f"ERROR {e}: `{r}`" if e else f"`{rep(r)}` {meta(r)}"))
for d in (1, -2):
    for name, f in (("softmax", lambda: F.softmax(z, d)), ("logsumexp", lambda: torch.logsumexp(z, d))):
        e, r = err(f)
        print(f"- {name}(tensor(3.5), {d}) = " + (f"ERROR {e}: `{r}`" if e else f"`{rep(r)}` {meta(r)}"))
zi = torch.tensor(-math.inf, dtype=F64)
print(f"- softmax(tensor(-inf), 0) = `{rep(F.softmax(zi, 0))}`, log_softmax = `{rep(F.log_softmax(zi, 0))}`, "
      f"logsumexp = `{rep(torch.logsumexp(zi, 0))}`")
zn = torch.tensor(math.nan, dtype=F64)
print(f"- softmax(tensor(nan), 0) = `{rep(F.softmax(zn, 0))}`, log_softmax = `{rep(F.log_softmax(zn, 0))}`")

h("a.6 Empty tensors", 3)
for shp, d in (((0, 3), 1), ((0, 3), 0), ((3, 0), 1), ((3, 0), 0), ((0,), 0), ((2, 0, 3), 2)):
    x = torch.zeros(shp, dtype=F32)
    for name, f in (("softmax", lambda: F.softmax(x, d)), ("log_softmax", lambda: F.log_softmax(x, d)),
                    ("logsumexp", lambda: torch.logsumexp(x, d))):
        e, r = err(f)
        print(f"- {name}(zeros{shp}, {d}) = " + (f"ERROR {e}: `{r}`" if e else f"`{rep(r)}` {meta(r)}"))

h("a.7 logsumexp over several dims, keepdim", 3)
for dims, kd in (((0,), False), ((0,), True), ((1, 2), False), ((1, 2), True), ((0, 2), False),
                 ((2, 0), True), ((0, 1, 2), False), ((0, 1, 2), True), ((-1, -3), False), ((), False),
                 ((), True)):
    e, r = err(lambda: torch.logsumexp(B, dims, keepdim=kd))
    print(f"- logsumexp(B, {dims}, keepdim={kd}) = " + (f"ERROR {e}: `{r}`" if e else f"`{rep(r)}` {meta(r)}"))
e, r = err(lambda: torch.logsumexp(A, (1, 1)))
print(f"- logsumexp(A, (1, 1)) = " + (f"ERROR {e}: `{r}`" if e else f"`{rep(r)}`"))
x = torch.tensor([[-math.inf, -math.inf], [math.inf, 1.0], [math.inf, math.inf], [math.nan, 1.0],
                  [math.inf, -math.inf]], dtype=F64)
print(f"- logsumexp(`{rep(x)}`, 1) = `{rep(torch.logsumexp(x, 1))}`")
print(f"- logsumexp(zeros(0,3) float32, (0,1)) = `{rep(torch.logsumexp(torch.zeros(0, 3), (0, 1)))}`")

h("a.8 Errors and dtypes", 3)
xi = torch.tensor([[1, 2, 3]])
xb = torch.tensor([[True, False]])
xh = torch.tensor([[1.0, 2.0]], dtype=torch.float16)
xbf = torch.tensor([[1.0, 2.0]], dtype=torch.bfloat16)
cases = [
    ("F.softmax(int64 [[1,2,3]], 1)", lambda: F.softmax(xi, 1)),
    ("F.log_softmax(int64 [[1,2,3]], 1)", lambda: F.log_softmax(xi, 1)),
    ("torch.logsumexp(int64 [[1,2,3]], 1)", lambda: torch.logsumexp(xi, 1)),
    ("torch.softmax(int64, 1)", lambda: torch.softmax(xi, 1)),
    ("torch._softmax(int64, 1, False)", lambda: torch._softmax(xi, 1, False)),
    ("torch._log_softmax(int64, 1, False)", lambda: torch._log_softmax(xi, 1, False)),
    ("F.softmax(int64, 1, dtype=torch.float64)", lambda: F.softmax(xi, 1, dtype=F64)),
    ("F.softmax(bool, 1)", lambda: F.softmax(xb, 1)),
    ("torch.logsumexp(bool, 1)", lambda: torch.logsumexp(xb, 1)),
    ("F.softmax(float16, 1)", lambda: F.softmax(xh, 1)),
    ("F.softmax(bfloat16, 1)", lambda: F.softmax(xbf, 1)),
    ("F.softmax(int64 [[1,2],[3,4]], 0) (not the last dim)", lambda: F.softmax(torch.tensor([[1, 2], [3, 4]]), 0)),
    ("F.log_softmax(int64 [[1,2],[3,4]], 0) (not the last dim)",
     lambda: F.log_softmax(torch.tensor([[1, 2], [3, 4]]), 0)),
    ("F.log_softmax(float16 [[1,2]], 0)", lambda: F.log_softmax(xh, 0)),
    ("F.softmax(int64 0-D tensor(3), 0)", lambda: F.softmax(torch.tensor(3), 0)),
    ("F.softmax(int64 zeros(0,3), 1) (empty)", lambda: F.softmax(torch.zeros(0, 3, dtype=torch.int64), 1)),
    ("F.log_softmax(int64 zeros(0,3), 0) (empty)", lambda: F.log_softmax(torch.zeros(0, 3, dtype=torch.int64), 0)),
    ("torch.logsumexp(int64 zeros(0,3), 1) (empty)", lambda: torch.logsumexp(torch.zeros(0, 3, dtype=torch.int64), 1)),
    ("torch.logsumexp(int64 [1,2], 0) (0-D result)", lambda: torch.logsumexp(torch.tensor([1, 2]), 0)),
    ("torch.logsumexp(float64 A, 1) (stays float64)", lambda: torch.logsumexp(A, 1)),
    ("F.softmax(A, 2) (A is 2-D)", lambda: F.softmax(A, 2)),
    ("F.softmax(A, -3)", lambda: F.softmax(A, -3)),
    ("F.log_softmax(A, 2)", lambda: F.log_softmax(A, 2)),
    ("torch.logsumexp(A, 2)", lambda: torch.logsumexp(A, 2)),
    ("torch.logsumexp(A, (0, 5))", lambda: torch.logsumexp(A, (0, 5))),
    ("F.softmax(B, 3) (B is 3-D)", lambda: F.softmax(B, 3)),
    ("F.softmax(B, -4)", lambda: F.softmax(B, -4)),
    ("F.softmax(A, 1, dtype=torch.float32) (float64 input)", lambda: F.softmax(A, 1, dtype=F32)),
    ("torch._softmax_backward_data(g, out, 1, float64) with g 2x2, out 2x3",
     lambda: torch._softmax_backward_data(torch.ones(2, 2, dtype=F64), F.softmax(A, 1), 1, F64)),
]
for lab, f in cases:
    e, r = err(f)
    if e:
        print(f"- `{lab}`: **{e}**: `{r}`")
    else:
        print(f"- `{lab}`: no error, result `{rep(r)}` {meta(r)}")
with warnings.catch_warnings(record=True) as wl:
    warnings.simplefilter("always")
    r = F.softmax(A)
print(f"- `F.softmax(A)` (no dim): result dim chosen = "
      f"{'1' if torch.equal(r, F.softmax(A, 1)) else '0'}; warning: `{wl[0].message if wl else None}`")

h("a.9 Gradients", 3)
print("Backward of `(y * w).sum()` where y is the op's output and w a fixed weight; "
      "float64 leaves. logsumexp is over dim=-1 with keepdim=False, w of the output's shape.")
GRAD_CASES = [
    ("plain", [[1.0, 2.0, 3.0], [-1.0, 0.5, 4.0]]),
    ("with -inf", [[-math.inf, 0.0, 1.0], [2.0, -math.inf, -math.inf]]),
    ("large", [[1000.0, 0.0, -1000.0], [89.0, 0.0, 1.0]]),
    ("all -inf row", [[-math.inf, -math.inf, -math.inf], [0.0, 0.0, 0.0]]),
    ("+inf row", [[math.inf, 0.0, 1.0], [0.0, 0.0, 0.0]]),
]
W = torch.tensor([[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]], dtype=F64)
Wl = torch.tensor([0.5, -2.0], dtype=F64)
print(f"w (softmax/log_softmax) = `{rep(W)}`, w (logsumexp) = `{rep(Wl)}`")
k = 0
for lab, vals in GRAD_CASES:
    for name in ("softmax", "log_softmax", "logsumexp"):
        for d in ((1, 0) if name != "logsumexp" else (1,)):
            k += 1
            x = torch.tensor(vals, dtype=F64, requires_grad=True)
            if name == "softmax":
                y = F.softmax(x, d)
            elif name == "log_softmax":
                y = F.log_softmax(x, d)
            else:
                y = torch.logsumexp(x, d)
            w = W if name != "logsumexp" else Wl
            (y * w).sum().backward()
            print(f"\n**a.9.{k}** {name}(x, {d}), {lab}: x = `{rep(x.detach())}`")
            print(f"- y = `{rep(y.detach())}`")
            print(f"- x.grad = `{rep(x.grad)}`")
# a 3-D case along dim 1
x = B.clone().requires_grad_()
y = F.log_softmax(x, 1)
w3 = torch.linspace(-1.0, 1.0, 24, dtype=F64).view(2, 3, 4)
(y * w3).sum().backward()
print(f"\n**a.9.{k + 1}** log_softmax(B, 1), w = linspace(-1, 1, 24).view(2,3,4): x.grad = `{rep(x.grad)}`")
x = B.clone().requires_grad_()
y = F.softmax(x, 1)
(y * w3).sum().backward()
print(f"\n**a.9.{k + 2}** softmax(B, 1), same w: x.grad = `{rep(x.grad)}`")
x = B.clone().requires_grad_()
y = torch.logsumexp(x, (0, 2), keepdim=True)
(y * torch.tensor([1.0, -2.0, 0.5], dtype=F64).view(1, 3, 1)).sum().backward()
print(f"\n**a.9.{k + 3}** logsumexp(B, (0,2), keepdim=True), w = [1,-2,0.5].view(1,3,1): "
      f"y = `{rep(y.detach())}` x.grad = `{rep(x.grad)}`")
x = torch.tensor([1.0, 2.0, 3.0], dtype=F32, requires_grad=True)
y = F.softmax(x, 0)
(y * torch.tensor([0.5, -1.0, 2.0])).sum().backward()
print(f"\n**a.9.{k + 4}** softmax float32 [1,2,3], w=[0.5,-1,2]: y = `{rep(y.detach())}`, "
      f"grad = `{rep(x.grad)}` ({dts(x.grad)})")
print("\nBackward kernels called directly (`torch._softmax_backward_data(grad, output, dim, input_dtype)`):")
out = F.softmax(A, 1)
print(f"- _softmax_backward_data(W, softmax(A,1), 1, float64) = "
      f"`{rep(torch._softmax_backward_data(W, out, 1, F64))}`")
out = F.log_softmax(A, 1)
print(f"- _log_softmax_backward_data(W, log_softmax(A,1), 1, float64) = "
      f"`{rep(torch._log_softmax_backward_data(W, out, 1, F64))}`")

h("a.10 grad_fn names and next_functions", 3)
x = torch.tensor([[1.0, 2.0, 3.0]], dtype=F64, requires_grad=True)
for lab, f in (("F.softmax(x, 1)", lambda: F.softmax(x, 1)), ("torch.softmax(x, 1)", lambda: torch.softmax(x, 1)),
               ("x.softmax(1)", lambda: x.softmax(1)),
               ("F.log_softmax(x, 1)", lambda: F.log_softmax(x, 1)),
               ("torch.logsumexp(x, 1)", lambda: torch.logsumexp(x, 1)),
               ("torch.logsumexp(x, (0, 1), keepdim=True)", lambda: torch.logsumexp(x, (0, 1), keepdim=True)),
               ("F.softmax(x, 1, dtype=torch.float32)", lambda: F.softmax(x, 1, dtype=F32)),
               ("F.log_softmax(x, 1, dtype=torch.float32)", lambda: F.log_softmax(x, 1, dtype=F32)),
               ("F.softmax(x.exp(), 1)", lambda: F.softmax(x.exp(), 1)),
               ("naive x.exp() / x.exp().sum(1, keepdim=True)", lambda: naive_softmax(x, 1))):
    y = f()
    print(f"- `{lab}`: {tn(y.grad_fn)} next_functions {nf(y.grad_fn)}")
    fn = y.grad_fn
    saved = sorted(a for a in dir(fn) if a.startswith("_saved_"))
    if saved:
        print(f"  saved attributes: {', '.join(f'{a}={getattr(fn, a)!r}' if not torch.is_tensor(getattr(fn, a)) else f'{a}=<tensor>' for a in saved)}")
    if "result" in " ".join(saved):
        print(f"  (_saved_result is the output: {getattr(fn, '_saved_result') is not None})")


# ===========================================================================
h("b) nll_loss and cross_entropy: values and input gradients")

print("Each case: the input (logits for cross_entropy, log-probabilities for nll_loss; any "
      "values: nll_loss does not check them), the target, the options, the loss "
      "(values, shape, dtype) and `input.grad` after `loss.sum().backward()` for reductions "
      "mean/sum, or after `(loss * g).sum().backward()` for reduction none, with g printed "
      "(g = 0.5, 1.0, 1.5, 0.5, 1.0, 1.5, ... in the loss's shape, row-major). "
      "Options not named are PyTorch's defaults (weight None, ignore_index -100, reduction "
      "'mean', label_smoothing 0.0). Inputs are float32 unless the case says float64.")

X35 = [[0.5, -1.0, 2.0, 0.1, -0.3],
       [1.2, 0.3, -0.7, 0.0, 2.5],
       [-0.4, 1.6, 0.2, -2.0, 0.9]]
T3 = [1, 0, 4]
W5 = [0.2, 1.0, 0.5, 2.0, 1.5]
P35 = [[0.1, 0.2, 0.3, 0.4, 0.0],
       [0.5, 0.0, 0.0, 0.25, 0.25],
       [0.2, 0.2, 0.2, 0.2, 0.2]]
print(f"\nNamed values: X35 = `{X35!r}`; T3 = `{T3!r}`; W5 = `{W5!r}`; P35 = `{P35!r}` "
      "(P35's rows sum to 1).")


def round2(t):
    """Two decimals, as the shortest literal (round() in Python, so that repr prints 0.59, not
    0.5900000000000001)."""
    def r(v):
        return [r(u) for u in v] if isinstance(v, list) else round(v, 2)
    return torch.tensor(r(t.tolist()), dtype=F64)


def seeded(seed, shape, C_dim=None):
    """Values with two decimals from a seeded randn (printed with the case)."""
    g = torch.Generator().manual_seed(seed)
    return round2(torch.randn(shape, generator=g, dtype=F64))


def seeded_targets(seed, shape, C):
    g = torch.Generator().manual_seed(seed)
    return torch.randint(0, C, shape, generator=g)


def seeded_probs(seed, shape, cdim):
    g = torch.Generator().manual_seed(seed)
    p = torch.rand(shape, generator=g, dtype=F64)
    p = p / p.sum(cdim, keepdim=True)
    return round2(p)  # two decimals; rows sum to about 1 (not checked by PyTorch)


def gfor(shape, dt):
    n = 1
    for s in shape:
        n *= s
    return (torch.tensor([0.5 * (1 + i % 3) for i in range(n)], dtype=dt)).view(shape)


CASES = []  # (id, fn name, description)


def case(cid, desc, x, t, fn="ce", dt=F32, **kw):
    """x: nested list (or float64 tensor) of the input; t: nested list / tensor of targets."""
    xt = x if torch.is_tensor(x) else torch.tensor(x, dtype=F64)
    xin = xt.to(dt).clone().requires_grad_()
    if torch.is_tensor(t):
        tt = t
    elif isinstance(t, (int,)):
        tt = torch.tensor(t)
    else:
        tt = torch.tensor(t)
        if tt.is_floating_point():
            tt = torch.tensor(t, dtype=F64).to(dt)
    kwp = dict(kw)
    if "weight" in kwp and kwp["weight"] is not None and not torch.is_tensor(kwp["weight"]):
        kwp["weight"] = torch.tensor(kwp["weight"], dtype=dt)
    if torch.is_tensor(tt) and tt.is_floating_point() and tt.dtype != dt:
        tt = tt.to(dt)
    f = F.cross_entropy if fn == "ce" else F.nll_loss
    CASES.append((cid, fn, desc))
    print(f"\n**{cid}** `{'cross_entropy' if fn == 'ce' else 'nll_loss'}` {desc}")
    print(f"- input ({dts(xin)}, shape {list(xin.shape)}) = `{rep(xt)}`")
    if tt.is_floating_point():
        src = t if torch.is_tensor(t) else torch.tensor(t, dtype=F64)
        print(f"- target ({dts(tt)}, shape {list(tt.shape)}) = `{rep(src)}` (as literals)")
    else:
        print(f"- target ({dts(tt)}, shape {list(tt.shape)}) = `{rep(tt)}`")
    opts = ", ".join(f"{k}={rep(v) if torch.is_tensor(v) else repr(v)}" for k, v in kw.items())
    print(f"- options: {opts if opts else '(defaults)'}")
    e, loss = err(lambda: f(xin, tt, **kwp))
    if e:
        print(f"- ERROR {e}: `{loss}`")
        return
    print(f"- loss = `{rep(loss.detach())}` (dtype {dts(loss)}, shape {list(loss.shape)}, "
          f"grad_fn {tn(loss.grad_fn)})")
    if kw.get("reduction", "mean") == "none":
        g = gfor(list(loss.shape), loss.dtype)
        print(f"- g = `{rep(g)}`")
        (loss * g).sum().backward()
    else:
        loss.sum().backward()
    print(f"- input.grad = `{rep(xin.grad)}`")


RED = ("mean", "sum", "none")
# --- basic
h("b.1 Class targets, (N, C) input", 3)
i = 0
for dt in (F32, F64):
    for r in RED:
        i += 1
        case(f"b.1.{i}", f"reduction={r}, {dts(torch.zeros(0, dtype=dt))}", X35, T3, dt=dt, reduction=r)
for r in RED:
    i += 1
    case(f"b.1.{i}", f"weight W5, reduction={r}", X35, T3, weight=W5, reduction=r)
i += 1
case(f"b.1.{i}", "weight W5, float64", X35, T3, dt=F64, weight=W5)
i += 1
case(f"b.1.{i}", "N=1, C=1 (loss 0)", [[3.0]], [0])
i += 1
case(f"b.1.{i}", "repeated targets, weight W5, mean", X35, [2, 2, 2], weight=W5)
i += 1
case(f"b.1.{i}", "zero weight on two of the three target classes, mean", X35, T3,
     weight=[1.0, 0.0, 1.0, 1.0, 0.0])
i += 1
case(f"b.1.{i}", "zero weight on two of the three target classes, sum", X35, T3,
     weight=[1.0, 0.0, 1.0, 1.0, 0.0], reduction="sum")
i += 1
case(f"b.1.{i}", "zero weight on every target class (weighted mean 0/0), mean", X35, [1, 4, 4],
     weight=[1.0, 0.0, 1.0, 1.0, 0.0])
i += 1
case(f"b.1.{i}", "zero weight on every target class, sum", X35, [1, 4, 4],
     weight=[1.0, 0.0, 1.0, 1.0, 0.0], reduction="sum")
i += 1
case(f"b.1.{i}", "negative weights, mean", X35, T3, weight=[1.0, -1.0, 1.0, 1.0, 0.5])

h("b.2 ignore_index", 3)
i = 0
for r in RED:
    i += 1
    case(f"b.2.{i}", f"default ignore_index -100 in target, reduction={r}", X35, [1, -100, 4], reduction=r)
for r in RED:
    i += 1
    case(f"b.2.{i}", f"ignore_index=1 (targets [1,0,4]: row 0 ignored), reduction={r}", X35, T3,
         ignore_index=1, reduction=r)
i += 1
case(f"b.2.{i}", "ignore_index=1 with weight W5, mean", X35, T3, ignore_index=1, weight=W5)
i += 1
case(f"b.2.{i}", "ignore_index=1 with weight W5, sum", X35, T3, ignore_index=1, weight=W5, reduction="sum")
i += 1
case(f"b.2.{i}", "-100 in target with weight W5, mean", X35, [1, -100, 4], weight=W5)
for r in RED:
    i += 1
    case(f"b.2.{i}", f"all targets ignored (-100), reduction={r}", X35, [-100, -100, -100], reduction=r)
i += 1
case(f"b.2.{i}", "all targets ignored, weight W5, mean", X35, [-100, -100, -100], weight=W5)
i += 1
case(f"b.2.{i}", "all targets ignored by ignore_index=2, mean", X35, [2, 2, 2], ignore_index=2)
i += 1
case(f"b.2.{i}", "ignore_index=-1 with target -1, mean", X35, [1, -1, 4], ignore_index=-1)
i += 1
case(f"b.2.{i}", "ignore_index=7 (>= C) with target 7, mean", X35, [1, 7, 4], ignore_index=7)

h("b.3 label_smoothing (class targets)", 3)
i = 0
for r in RED:
    i += 1
    case(f"b.3.{i}", f"label_smoothing=0.1, reduction={r}", X35, T3, label_smoothing=0.1, reduction=r)
for ls in (0.5, 1.0, 0.0):
    i += 1
    case(f"b.3.{i}", f"label_smoothing={ls}, mean", X35, T3, label_smoothing=ls)
for r in RED:
    i += 1
    case(f"b.3.{i}", f"label_smoothing=0.1, weight W5, reduction={r}", X35, T3, label_smoothing=0.1,
         weight=W5, reduction=r)
for r in RED:
    i += 1
    case(f"b.3.{i}", f"label_smoothing=0.1, -100 in target, reduction={r}", X35, [1, -100, 4],
         label_smoothing=0.1, reduction=r)
i += 1
case(f"b.3.{i}", "label_smoothing=0.2, ignore_index=1, weight W5, mean", X35, T3, label_smoothing=0.2,
     ignore_index=1, weight=W5)
i += 1
case(f"b.3.{i}", "label_smoothing=0.2, ignore_index=1, weight W5, sum", X35, T3, label_smoothing=0.2,
     ignore_index=1, weight=W5, reduction="sum")
i += 1
case(f"b.3.{i}", "label_smoothing=0.2, ignore_index=1, weight W5, none", X35, T3, label_smoothing=0.2,
     ignore_index=1, weight=W5, reduction="none")
i += 1
case(f"b.3.{i}", "label_smoothing=0.1, all targets ignored, mean", X35, [-100, -100, -100],
     label_smoothing=0.1)
i += 1
case(f"b.3.{i}", "label_smoothing=0.1, all targets ignored, sum", X35, [-100, -100, -100],
     label_smoothing=0.1, reduction="sum")
i += 1
case(f"b.3.{i}", "label_smoothing=0.1, all targets ignored, weight W5, mean", X35, [-100, -100, -100],
     label_smoothing=0.1, weight=W5)
i += 1
case(f"b.3.{i}", "label_smoothing=0.1, float64, weight W5, mean", X35, T3, dt=F64, label_smoothing=0.1,
     weight=W5)

h("b.4 Probability targets (target of the input's shape, floating)", 3)
i = 0
for r in RED:
    i += 1
    case(f"b.4.{i}", f"P35, reduction={r}", X35, P35, reduction=r)
for r in RED:
    i += 1
    case(f"b.4.{i}", f"P35, weight W5, reduction={r}", X35, P35, weight=W5, reduction=r)
for r in RED:
    i += 1
    case(f"b.4.{i}", f"P35, label_smoothing=0.1, reduction={r}", X35, P35, label_smoothing=0.1, reduction=r)
i += 1
case(f"b.4.{i}", "P35, label_smoothing=0.3, weight W5, mean", X35, P35, label_smoothing=0.3, weight=W5)
i += 1
case(f"b.4.{i}", "P35, float64, mean", X35, P35, dt=F64)
i += 1
case(f"b.4.{i}", "P35, label_smoothing=1.0, mean", X35, P35, label_smoothing=1.0)
i += 1
case(f"b.4.{i}", "one-hot P (equals class targets T3), mean",
     X35, [[0.0, 1.0, 0.0, 0.0, 0.0], [1.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 1.0]])
i += 1
case(f"b.4.{i}", "rows not summing to 1 (not checked), mean", X35,
     [[1.0, 1.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0], [-0.5, 0.0, 2.0, 0.0, 0.0]])
i += 1
Xk = seeded(11, (2, 3, 4))
Pk = seeded_probs(12, (2, 3, 4), 1)
case(f"b.4.{i}", "K-dim (2,3,4) logits (seed 11), prob target (seed 12, class dim 1), mean", Xk, Pk)
i += 1
case(f"b.4.{i}", "K-dim (2,3,4), prob target, weight [0.5,1,2], none", Xk, Pk, weight=[0.5, 1.0, 2.0],
     reduction="none")
for r in RED:
    i += 1
    case(f"b.4.{i}", f"unbatched (5,) input, prob target (5,), reduction={r}", X35[0], P35[0], reduction=r)
i += 1
case(f"b.4.{i}", "unbatched (5,), prob target, weight W5, label_smoothing 0.1, mean", X35[0], P35[0],
     weight=W5, label_smoothing=0.1)
i += 1
case(f"b.4.{i}", "P35 with -inf logit where p = 0, mean",
     [[0.5, -1.0, 2.0, 0.1, -math.inf], [1.2, 0.3, -0.7, 0.0, 2.5], [-0.4, 1.6, 0.2, -2.0, 0.9]], P35)

h("b.5 K-dimensional inputs (class dim 1)", 3)
i = 0
X3d = seeded(1, (2, 4, 3))
T3d = seeded_targets(2, (2, 3), 4)
for r in RED:
    i += 1
    case(f"b.5.{i}", f"(N,C,d1)=(2,4,3) (seed 1), target (2,3) (seed 2), reduction={r}", X3d, T3d, reduction=r)
i += 1
case(f"b.5.{i}", "(2,4,3), weight [0.1,0.2,0.3,0.4], mean", X3d, T3d, weight=[0.1, 0.2, 0.3, 0.4])
T3di = T3d.clone()
T3di[0, 1] = -100
T3di[1, 2] = -100
i += 1
case(f"b.5.{i}", "(2,4,3), two targets -100, weight [0.1,0.2,0.3,0.4], mean", X3d, T3di,
     weight=[0.1, 0.2, 0.3, 0.4])
i += 1
case(f"b.5.{i}", "(2,4,3), label_smoothing 0.1, mean", X3d, T3d, label_smoothing=0.1)
X4d = seeded(3, (2, 3, 2, 2))
T4d = seeded_targets(4, (2, 2, 2), 3)
for r in RED:
    i += 1
    case(f"b.5.{i}", f"(N,C,d1,d2)=(2,3,2,2) (seed 3), target (seed 4), reduction={r}", X4d, T4d, reduction=r)
T4di = T4d.clone()
T4di[1, 0, 1] = -100
i += 1
case(f"b.5.{i}", "(2,3,2,2), one -100, weight [2,1,0.5], mean", X4d, T4di, weight=[2.0, 1.0, 0.5])
i += 1
case(f"b.5.{i}", "(2,3,2,2), weight [2,1,0.5], label_smoothing 0.2, ignore_index=0, none", X4d, T4d,
     weight=[2.0, 1.0, 0.5], label_smoothing=0.2, ignore_index=0, reduction="none")
X5d = seeded(5, (2, 3, 2, 1, 2))
T5d = seeded_targets(6, (2, 2, 1, 2), 3)
for r in RED:
    i += 1
    case(f"b.5.{i}", f"(N,C,d1,d2,d3)=(2,3,2,1,2) (seed 5), target (seed 6), reduction={r}", X5d, T5d,
         reduction=r)
i += 1
case(f"b.5.{i}", "(2,3,2,1,2), weight [2,1,0.5], mean", X5d, T5d, weight=[2.0, 1.0, 0.5])
i += 1
case(f"b.5.{i}", "(2,3,2,1,2), float64, label_smoothing 0.1, mean", X5d, T5d, dt=F64, label_smoothing=0.1)
i += 1
case(f"b.5.{i}", "(N,C,d1)=(1,3,0) empty spatial, mean", torch.zeros(1, 3, 0, dtype=F64),
     torch.zeros(1, 0, dtype=torch.int64))
i += 1
case(f"b.5.{i}", "(N,C,d1)=(1,3,0) empty spatial, sum", torch.zeros(1, 3, 0, dtype=F64),
     torch.zeros(1, 0, dtype=torch.int64), reduction="sum")

h("b.6 Unbatched input (C,) with a 0-D target", 3)
i = 0
for r in RED:
    i += 1
    case(f"b.6.{i}", f"(5,), target 2, reduction={r}", X35[0], 2, reduction=r)
i += 1
case(f"b.6.{i}", "(5,), target 2, weight W5, mean", X35[0], 2, weight=W5)
i += 1
case(f"b.6.{i}", "(5,), target 2, weight W5, sum", X35[0], 2, weight=W5, reduction="sum")
i += 1
case(f"b.6.{i}", "(5,), target -100 (ignored), mean", X35[0], -100)
i += 1
case(f"b.6.{i}", "(5,), target -100 (ignored), none", X35[0], -100, reduction="none")
i += 1
case(f"b.6.{i}", "(5,), target 2, label_smoothing 0.1, weight W5, mean", X35[0], 2, weight=W5,
     label_smoothing=0.1)
i += 1
case(f"b.6.{i}", "(5,), target 2, float64, none", X35[0], 2, dt=F64, reduction="none")

h("b.7 Empty batch (0, C)", 3)
i = 0
E05 = torch.zeros(0, 5, dtype=F64)
for r in RED:
    i += 1
    case(f"b.7.{i}", f"(0,5), target (0,), reduction={r}", E05, torch.zeros(0, dtype=torch.int64), reduction=r)
i += 1
case(f"b.7.{i}", "(0,5), weight W5, mean", E05, torch.zeros(0, dtype=torch.int64), weight=W5)
i += 1
case(f"b.7.{i}", "(0,5), label_smoothing 0.1, mean", E05, torch.zeros(0, dtype=torch.int64), label_smoothing=0.1)
i += 1
case(f"b.7.{i}", "(0,5), label_smoothing 0.1, sum", E05, torch.zeros(0, dtype=torch.int64),
     label_smoothing=0.1, reduction="sum")
for r in RED:
    i += 1
    case(f"b.7.{i}", f"(0,5), prob target (0,5), reduction={r}", E05, torch.zeros(0, 5, dtype=F64), reduction=r)

h("b.8 Extreme logits: -inf, 1000", 3)
i = 0
XINF = [[-math.inf, 0.0, 1.0], [2.0, -math.inf, 0.5]]
i += 1
case(f"b.8.{i}", "-inf at non-target classes, mean", XINF, [2, 0])
i += 1
case(f"b.8.{i}", "-inf at the target class (row 0), mean", XINF, [0, 0])
i += 1
case(f"b.8.{i}", "-inf at the target class (row 0), none", XINF, [0, 0], reduction="none")
i += 1
case(f"b.8.{i}", "-inf at the target class, but that row ignored, mean", XINF, [-100, 0])
i += 1
case(f"b.8.{i}", "-inf logits, label_smoothing 0.1, mean", XINF, [2, 0], label_smoothing=0.1)
i += 1
case(f"b.8.{i}", "-inf logits, label_smoothing 0.1, none", XINF, [2, 0], label_smoothing=0.1, reduction="none")
i += 1
case(f"b.8.{i}", "a row of all -inf, mean", [[-math.inf, -math.inf, -math.inf], [1.0, 2.0, 3.0]], [1, 2])
i += 1
case(f"b.8.{i}", "+inf logit, mean", [[math.inf, 0.0, 1.0], [1.0, 2.0, 3.0]], [1, 2])
i += 1
case(f"b.8.{i}", "NaN logit, none", [[math.nan, 0.0, 1.0], [1.0, 2.0, 3.0]], [1, 2], reduction="none")
XL = [[1000.0, 0.0, -1000.0], [0.0, 1000.0, 1000.0]]
i += 1
case(f"b.8.{i}", "+-1000, targets [0, 1], mean", XL, [0, 1])
i += 1
case(f"b.8.{i}", "+-1000, targets [2, 0], none", XL, [2, 0], reduction="none")
i += 1
case(f"b.8.{i}", "+-1000, float64, targets [2, 0], sum", XL, [2, 0], dt=F64, reduction="sum")
i += 1
case(f"b.8.{i}", "+-1000, label_smoothing 0.1, mean", XL, [0, 1], label_smoothing=0.1)
i += 1
case(f"b.8.{i}", "89 (float32), mean", [[89.0, 0.0, 1.0], [90.0, 89.0, 1.0]], [1, 0])

h("b.9 nll_loss alone (input taken as log-probabilities; any values)", 3)
i = 0
for r in RED:
    i += 1
    case(f"b.9.{i}", f"X35 as input, reduction={r}", X35, T3, fn="nll", reduction=r)
for r in RED:
    i += 1
    case(f"b.9.{i}", f"X35, weight W5, reduction={r}", X35, T3, fn="nll", weight=W5, reduction=r)
i += 1
case(f"b.9.{i}", "X35, target [1,-100,4], weight W5, mean", X35, [1, -100, 4], fn="nll", weight=W5)
i += 1
case(f"b.9.{i}", "X35, ignore_index=0, none", X35, T3, fn="nll", ignore_index=0, reduction="none")
i += 1
case(f"b.9.{i}", "X35, all ignored, mean", X35, [-100, -100, -100], fn="nll")
i += 1
case(f"b.9.{i}", "X35, float64, weight W5, sum", X35, T3, fn="nll", dt=F64, weight=W5, reduction="sum")
i += 1
case(f"b.9.{i}", "log_softmax(X35) values (float64), mean",
     F.log_softmax(torch.tensor(X35, dtype=F64), 1), T3, fn="nll", dt=F64)
for r in RED:
    i += 1
    case(f"b.9.{i}", f"(2,4,3) K-dim (seed 1), reduction={r}", X3d, T3d, fn="nll", reduction=r)
i += 1
case(f"b.9.{i}", "(2,3,2,2) 4-D (seed 3), weight [2,1,0.5], mean", X4d, T4d, fn="nll", weight=[2.0, 1.0, 0.5])
i += 1
case(f"b.9.{i}", "(2,3,2,1,2) 5-D (seed 5), none", X5d, T5d, fn="nll", reduction="none")
i += 1
case(f"b.9.{i}", "unbatched (5,), target 3, mean", X35[0], 3, fn="nll")
i += 1
case(f"b.9.{i}", "unbatched (5,), target 3, weight W5, mean", X35[0], 3, fn="nll", weight=W5)
i += 1
case(f"b.9.{i}", "unbatched (5,), target 3, none", X35[0], 3, fn="nll", reduction="none")
i += 1
case(f"b.9.{i}", "(0,5) empty, mean", E05, torch.zeros(0, dtype=torch.int64), fn="nll")
i += 1
case(f"b.9.{i}", "(0,5) empty, sum", E05, torch.zeros(0, dtype=torch.int64), fn="nll", reduction="sum")
i += 1
case(f"b.9.{i}", "(0,5) empty, none", E05, torch.zeros(0, dtype=torch.int64), fn="nll", reduction="none")
i += 1
case(f"b.9.{i}", "inf / nan inputs, none", [[math.inf, 1.0], [math.nan, 2.0], [-math.inf, 0.0]], [0, 0, 1],
     fn="nll", reduction="none")
i += 1
case(f"b.9.{i}", "-inf input at target, mean", [[-math.inf, 1.0], [3.0, 2.0]], [0, 1], fn="nll")

h("b.10 total_weight: `torch.ops.aten.nll_loss_forward(input, target, weight, reduction, ignore_index)`", 3)
print("reduction as ATen's int: 0 = none, 1 = mean, 2 = sum. Returns (output, total_weight). "
      "4-D input: `torch.ops.aten.nll_loss2d_forward` (same arguments). Input X35 (float32).")
x35 = torch.tensor(X35)
w5 = torch.tensor(W5)
TW = [
    ("nll_loss_forward", x35, torch.tensor(T3), None, 1, -100),
    ("nll_loss_forward", x35, torch.tensor(T3), None, 2, -100),
    ("nll_loss_forward", x35, torch.tensor(T3), None, 0, -100),
    ("nll_loss_forward", x35, torch.tensor(T3), w5, 1, -100),
    ("nll_loss_forward", x35, torch.tensor(T3), w5, 2, -100),
    ("nll_loss_forward", x35, torch.tensor(T3), w5, 0, -100),
    ("nll_loss_forward", x35, torch.tensor([1, -100, 4]), w5, 1, -100),
    ("nll_loss_forward", x35, torch.tensor([1, -100, 4]), w5, 2, -100),
    ("nll_loss_forward", x35, torch.tensor([-100, -100, -100]), None, 1, -100),
    ("nll_loss_forward", x35, torch.tensor([-100, -100, -100]), None, 2, -100),
    ("nll_loss_forward", x35, torch.tensor([-100, -100, -100]), None, 0, -100),
    ("nll_loss_forward", x35[0], torch.tensor(2), w5, 1, -100),
    ("nll_loss_forward", x35[0], torch.tensor(2), None, 0, -100),
    ("nll_loss_forward", x35[0], torch.tensor(-100), None, 1, -100),
    ("nll_loss_forward", torch.zeros(0, 5), torch.zeros(0, dtype=torch.int64), None, 1, -100),
    ("nll_loss_forward", torch.zeros(0, 5), torch.zeros(0, dtype=torch.int64), None, 0, -100),
    ("nll_loss_forward", torch.tensor(X35, dtype=F64), torch.tensor(T3), torch.tensor(W5, dtype=F64), 1, -100),
    ("nll_loss2d_forward", X4d.float(), T4d, None, 1, -100),
    ("nll_loss2d_forward", X4d.float(), T4d, torch.tensor([2.0, 1.0, 0.5]), 2, -100),
    ("nll_loss2d_forward", X4d.float(), T4d, None, 0, -100),
    ("nll_loss_forward", x35, torch.tensor(T3), None, 3, -100),
    ("nll_loss_forward", x35, torch.tensor(T3), None, -1, -100),
]
for k, (op, a, t, w, r, ii) in enumerate(TW, 1):
    e, res = err(lambda: getattr(torch.ops.aten, op)(a, t, w, r, ii))
    wl = "None" if w is None else rep(w)
    if e:
        print(f"- **b.10.{k}** `{op}`(input {list(a.shape)} {dts(a)}, target {rep(t)}, weight {wl}, "
              f"reduction {r}, ignore_index {ii}): ERROR {e}: `{res}`")
    else:
        out, tw = res
        print(f"- **b.10.{k}** `{op}`(input {list(a.shape)} {dts(a)}, target {rep(t)}, weight {wl}, "
              f"reduction {r}, ignore_index {ii}): output `{rep(out)}` (shape {list(out.shape)}, {dts(out)}); "
              f"total_weight `{rep(tw)}` (shape {list(tw.shape)}, {dts(tw)})")

h("b.11 nll_loss_backward called directly", 3)
print("`torch.ops.aten.nll_loss_backward(grad_output, input, target, weight, reduction, ignore_index, "
      "total_weight)`; input X35 float32.")
BW = [
    (torch.tensor(1.0), torch.tensor(T3), None, 1, -100, torch.tensor(3.0)),
    (torch.tensor(2.0), torch.tensor(T3), w5, 1, -100, torch.tensor(3.2)),
    (torch.tensor(1.0), torch.tensor(T3), w5, 2, -100, torch.tensor(3.2)),
    (torch.tensor([0.5, 1.0, 1.5]), torch.tensor(T3), w5, 0, -100, torch.tensor(0.0)),
    (torch.tensor(1.0), torch.tensor([1, -100, 4]), None, 1, -100, torch.tensor(2.0)),
    (torch.tensor(1.0), torch.tensor([-100, -100, -100]), None, 1, -100, torch.tensor(0.0)),
    (torch.tensor(1.0), torch.tensor(T3), None, 1, -100, torch.tensor(7.0)),
]
for k, (go, t, w, r, ii, tw) in enumerate(BW, 1):
    e, res = err(lambda: torch.ops.aten.nll_loss_backward(go, x35, t, w, r, ii, tw))
    print(f"- **b.11.{k}** grad_output {rep(go)}, target {rep(t)}, weight {'None' if w is None else rep(w)}, "
          f"reduction {r}, ignore_index {ii}, total_weight {rep(tw)}: "
          + (f"ERROR {e}: `{res}`" if e else f"`{rep(res)}` ({dts(res)}, shape {list(res.shape)})"))
print("\n(b.11.7 shows the backward divides by the total_weight it is given, not one it recomputes.)")


h("b.12 The formulas PyTorch 1.13 uses (checked here in float64 against F.cross_entropy)", 3)
print("Notation: lp = log_softmax(x, class dim); t_i the class target of sample i; w the weight "
      "(all ones when None); m_i = 0 if t_i == ignore_index else 1; C classes; eps = label_smoothing.")
print()
print("- class targets: nll_i = -m_i w[t_i] lp[i, t_i]; smooth_i = -m_i sum_c w_c lp[i, c]; "
      "loss_i = (1 - eps) nll_i + (eps / C) smooth_i.")
print("  none: loss_i; sum: sum_i loss_i; mean: (1 - eps) sum_i nll_i / W + (eps / C) S, where "
      "W = sum_i m_i w[t_i] and S = sum_i smooth_i / W when weight is given, but "
      "S = mean of smooth_i over the non-ignored samples (masked_select(...).mean()) when weight is None.")
print("- probability targets p: q = p (1 - eps) + eps / C; loss_i = -sum_c w_c q[i, c] lp[i, c]; "
      "none: loss_i; sum: sum_i; mean: sum_i loss_i / N where N = input.numel() / C "
      "(number of samples, the weights do NOT enter the divisor).")


def formula_class(x, t, w, red, ii, eps, cdim=1):
    x = x.double()
    C = x.shape[cdim]
    lp = F.log_softmax(x, cdim)
    wv = torch.ones(C, dtype=F64) if w is None else w.double()
    lpm = lp.movedim(cdim, -1).reshape(-1, C)
    tf = t.reshape(-1)
    m = (tf != ii).double()
    tsafe = torch.where(tf == ii, torch.zeros_like(tf), tf)
    nll = -m * wv[tsafe] * lpm[torch.arange(len(tf)), tsafe]
    smooth = -m * (lpm * wv).sum(1)
    per = (1 - eps) * nll + eps / C * smooth
    if red == "none":
        return per.reshape(t.shape)
    if red == "sum":
        return per.sum()
    W = (m * wv[tsafe]).sum()
    if w is None:
        S = smooth[m > 0].mean()
    else:
        S = smooth.sum() / W
    return (1 - eps) * nll.sum() / W + eps / C * S


def formula_prob(x, p, w, red, eps, cdim=1):
    x = x.double()
    C = x.shape[cdim]
    lp = F.log_softmax(x, cdim)
    q = p.double() * (1 - eps) + eps / C
    shape = [1] * x.dim()
    shape[cdim] = C
    wv = torch.ones(C, dtype=F64) if w is None else w.double()
    per = -(q * lp * wv.view(shape)).sum(cdim)
    if red == "none":
        return per
    if red == "sum":
        return per.sum()
    return per.sum() / (x.numel() / C)


k = 0
xs = torch.tensor(X35, dtype=F64)
for tl, ii in (([1, 0, 4], -100), ([1, -100, 4], -100), ([1, 0, 4], 1)):
    for w in (None, torch.tensor(W5, dtype=F64)):
        for eps in (0.0, 0.1, 0.7):
            for r in RED:
                tt = torch.tensor(tl)
                a = F.cross_entropy(xs, tt, weight=w, reduction=r, ignore_index=ii, label_smoothing=eps)
                b = formula_class(xs, tt, w, r, ii, eps)
                k += 1
                if not torch.allclose(a, b, rtol=1e-12, atol=1e-12):
                    print(f"- MISMATCH class t={tl} ii={ii} w={w is not None} eps={eps} {r}: {rep(a)} vs {rep(b)}")
for w in (None, torch.tensor([0.5, 1.0, 2.0, 0.25], dtype=F64)):
    for eps in (0.0, 0.2):
        for r in RED:
            a = F.cross_entropy(X3d, T3di, weight=w, reduction=r, label_smoothing=eps)
            b = formula_class(X3d, T3di, w, r, -100, eps)
            k += 1
            if not torch.allclose(a, b, rtol=1e-12, atol=1e-12):
                print(f"- MISMATCH K-dim w={w is not None} eps={eps} {r}: {rep(a)} vs {rep(b)}")
for (xx_, pp, cd) in ((xs, torch.tensor(P35, dtype=F64), 1), (X3d.transpose(1, 2).contiguous()[:, :3], None, 1)):
    if pp is None:
        xx_ = Xk
        pp = Pk
    C = xx_.shape[cd]
    for w in (None, torch.linspace(0.5, 2.0, C, dtype=F64)):
        for eps in (0.0, 0.1):
            for r in RED:
                a = F.cross_entropy(xx_, pp, weight=w, reduction=r, label_smoothing=eps)
                b = formula_prob(xx_, pp, w, r, eps, cd)
                k += 1
                if not torch.allclose(a, b, rtol=1e-12, atol=1e-12):
                    print(f"- MISMATCH prob w={w is not None} eps={eps} {r}: {rep(a)} vs {rep(b)}")
print(f"\n{k} combinations checked (class targets: 3 target/ignore settings x weight or not x eps 0, 0.1, 0.7 "
      "x 3 reductions, and K-dim (2,4,3) with two ignored; probability targets (3,5) and (2,3,4)); "
      "every mismatch would be listed above.")


h("b.13 Gradients with respect to the weight and a probability target", 3)
xx = torch.tensor(X35, requires_grad=True)
wr = torch.tensor(W5, requires_grad=True)
e, r = err(lambda: F.cross_entropy(xx, torch.tensor(T3), weight=wr))
print(f"- b.13.1 `F.cross_entropy(x, T3, weight=W5 with requires_grad)`: "
      + (f"**{e}**: `{r}`" if e else f"no error, loss {rep(r)}"))
e, r = err(lambda: F.nll_loss(xx, torch.tensor(T3), weight=wr))
print(f"- b.13.2 `F.nll_loss(x, T3, weight=W5 with requires_grad)`: "
      + (f"**{e}**: `{r}`" if e else f"no error, loss {rep(r)}"))
e, r = err(lambda: F.cross_entropy(xx, torch.tensor(T3), weight=wr, label_smoothing=0.1))
print(f"- b.13.3 the same with label_smoothing=0.1: " + (f"**{e}**: `{r}`" if e else f"no error, loss {rep(r)}"))
xx = torch.tensor(X35, requires_grad=True)
pr = torch.tensor(P35, requires_grad=True)
l = F.cross_entropy(xx, pr)
l.backward()
print(f"- b.13.4 `F.cross_entropy(X35, P35 with requires_grad)` (float32, mean): loss `{rep(l.detach())}`; "
      f"target.grad = `{rep(pr.grad)}` (= -log_softmax(x) / N); input.grad = `{rep(xx.grad)}`")
xx = torch.tensor(X35, requires_grad=True)
pr = torch.tensor(P35, requires_grad=True)
l = F.cross_entropy(xx, pr, weight=w5, label_smoothing=0.2, reduction="sum")
l.backward()
print(f"- b.13.5 the same with weight W5, label_smoothing 0.2, sum: loss `{rep(l.detach())}`; "
      f"target.grad = `{rep(pr.grad)}`")
e, r = err(lambda: F.cross_entropy(torch.tensor(X35, requires_grad=True), torch.tensor(T3), reduction="none")
           .backward(torch.ones(3)))
print(f"- b.13.6 reduction none, backward(ones(3)) (grad_output of the loss's shape): "
      + (f"**{e}**: `{r}`" if e else "fine"))


# ===========================================================================
h("c) Error messages")
print("Each line: the call, the exception type, and `str(e)` exactly (between backticks; "
      "multi-line messages are shown with \\n). Unless stated: x = X35 as float32 (3,5) with "
      "requires_grad, t = T3 int64, C = 5. `F.cross_entropy` calls "
      "`torch._C._nn.cross_entropy_loss(input, target, weight, reduction_int, ignore_index, "
      "label_smoothing)`; `F.nll_loss` calls `torch._C._nn.nll_loss_nd(input, target, weight, "
      "reduction_int, ignore_index)`.")
x = torch.tensor(X35, requires_grad=True)
x64 = torch.tensor(X35, dtype=F64, requires_grad=True)
t = torch.tensor(T3)
CE, NLL = F.cross_entropy, F.nll_loss
nll_nd = torch._C._nn.nll_loss_nd
nll_ = torch._C._nn.nll_loss
nll2d = torch._C._nn.nll_loss2d
ce_ = torch._C._nn.cross_entropy_loss
P = torch.tensor(P35)
ERRS = [
    # --- target values
    ("target out of bounds", [
        ("CE(x, [1,5,4])", lambda: CE(x, torch.tensor([1, 5, 4]))),
        ("NLL(x, [1,5,4])", lambda: NLL(x, torch.tensor([1, 5, 4]))),
        ("CE(x, [1,5,4], reduction='none')", lambda: CE(x, torch.tensor([1, 5, 4]), reduction="none")),
        ("CE(x, [1,5,4], reduction='sum')", lambda: CE(x, torch.tensor([1, 5, 4]), reduction="sum")),
        ("CE(x, [1,5,7]) (two bad: which is reported)", lambda: CE(x, torch.tensor([1, 7, 5]))),
        ("CE(x, [1,5,4], label_smoothing=0.1)", lambda: CE(x, torch.tensor([1, 5, 4]), label_smoothing=0.1)),
        ("CE(x, [1,5,4], weight=W5)", lambda: CE(x, torch.tensor([1, 5, 4]), weight=w5)),
        ("CE(x, [1,-1,4])", lambda: CE(x, torch.tensor([1, -1, 4]))),
        ("CE(x, [1,-5,4])", lambda: CE(x, torch.tensor([1, -5, 4]))),
        ("CE(x, [1,-1,4], reduction='none')", lambda: CE(x, torch.tensor([1, -1, 4]), reduction="none")),
        ("CE(x, [1,-100,4], ignore_index=1) (-100 not ignored now)",
         lambda: CE(x, torch.tensor([1, -100, 4]), ignore_index=1)),
        ("CE(x, [1,-1,4], label_smoothing=0.1)", lambda: CE(x, torch.tensor([1, -1, 4]), label_smoothing=0.1)),
        ("CE(x, [1,5,4], label_smoothing=0.1, reduction='none')",
         lambda: CE(x, torch.tensor([1, 5, 4]), label_smoothing=0.1, reduction="none")),
        ("CE(x[0], tensor(5)) unbatched", lambda: CE(x[0], torch.tensor(5))),
        ("CE(x[0], tensor(-1)) unbatched", lambda: CE(x[0], torch.tensor(-1))),
        ("CE(X3d (2,4,3), target with a 4) K-dim", lambda: CE(X3d.float(), torch.tensor([[0, 4, 1], [0, 2, 3]]))),
        ("CE(X3d, target with a -1) K-dim", lambda: CE(X3d.float(), torch.tensor([[0, -1, 1], [0, 2, 3]]))),
        ("CE(X3d, target with a 4, reduction='none') K-dim",
         lambda: CE(X3d.float(), torch.tensor([[0, 4, 1], [0, 2, 3]]), reduction="none")),
        ("CE(X4d (2,3,2,2), target with a 3)", lambda: CE(X4d.float(), torch.where(T4d == 2, 3, T4d))),
        ("CE(X4d, target with a 3, reduction='none')",
         lambda: CE(X4d.float(), torch.where(T4d == 2, 3, T4d), reduction="none")),
        ("CE(X5d (2,3,2,1,2), target with a 3)", lambda: CE(X5d.float(), torch.where(T5d == 2, 3, T5d))),
        ("CE(x, huge target 2**40)", lambda: CE(x, torch.tensor([1, 2 ** 40, 4]))),
    ]),
    ("weight", [
        ("CE(x, t, weight=ones(4))", lambda: CE(x, t, weight=torch.ones(4))),
        ("CE(x, t, weight=ones(6))", lambda: CE(x, t, weight=torch.ones(6))),
        ("CE(x, t, weight=ones(5,1))", lambda: CE(x, t, weight=torch.ones(5, 1))),
        ("CE(x, t, weight=ones(1,5))", lambda: CE(x, t, weight=torch.ones(1, 5))),
        ("CE(x, t, weight=tensor(1.0)) 0-D", lambda: CE(x, t, weight=torch.tensor(1.0))),
        ("NLL(x, t, weight=ones(4))", lambda: NLL(x, t, weight=torch.ones(4))),
        ("CE(x, t, weight=ones(5, float64)) float32 input", lambda: CE(x, t, weight=torch.ones(5, dtype=F64))),
        ("CE(x64, t, weight=ones(5, float32))", lambda: CE(x64, t, weight=torch.ones(5))),
        ("NLL(x, t, weight=ones(5, float64))", lambda: NLL(x, t, weight=torch.ones(5, dtype=F64))),
        ("CE(x, t, weight=ones(5, int64))", lambda: CE(x, t, weight=torch.ones(5, dtype=torch.int64))),
        ("CE(x, t, weight=ones(4), label_smoothing=0.1)", lambda: CE(x, t, weight=torch.ones(4), label_smoothing=0.1)),
        ("CE(x, P, weight=ones(4)) prob target", lambda: CE(x, P, weight=torch.ones(4))),
        ("CE(x, P, weight=ones(5, float64)) prob target", lambda: CE(x, P, weight=torch.ones(5, dtype=F64))),
        ("CE(x, t, weight=ones(4), reduction='none')", lambda: CE(x, t, weight=torch.ones(4), reduction="none")),
        ("CE(X4d, T4d, weight=ones(4)) 4-D", lambda: CE(X4d.float(), T4d, weight=torch.ones(4))),
        ("CE(x, t, weight=nan*ones(5))", lambda: CE(x, t, weight=torch.full((5,), math.nan))),
    ]),
    ("shapes of class targets", [
        ("CE(x (3,5), t (2,))", lambda: CE(x, torch.tensor([1, 0]))),
        ("NLL(x (3,5), t (2,))", lambda: NLL(x, torch.tensor([1, 0]))),
        ("CE(x (3,5), t (4,))", lambda: CE(x, torch.tensor([1, 0, 2, 3]))),
        ("CE(x (3,5), t (3,1))", lambda: CE(x, torch.tensor([[1], [0], [4]]))),
        ("CE(x (3,5), t (1,3))", lambda: CE(x, torch.tensor([[1, 0, 4]]))),
        ("NLL(x (3,5), t (3,1))", lambda: NLL(x, torch.tensor([[1], [0], [4]]))),
        ("CE(x (3,5), 0-D t)", lambda: CE(x, torch.tensor(1))),
        ("CE(x (5,), t (1,))", lambda: CE(x[0], torch.tensor([1]))),
        ("CE(x (5,), t (5,)) int64 target of the input's shape", lambda: CE(x[0], torch.tensor([0, 1, 2, 3, 4]))),
        ("NLL(x (5,), t (1,))", lambda: NLL(x[0], torch.tensor([1]))),
        ("CE(X3d (2,4,3), t (2,4))", lambda: CE(X3d.float(), torch.zeros(2, 4, dtype=torch.int64))),
        ("CE(X3d (2,4,3), t (2,3,1))", lambda: CE(X3d.float(), torch.zeros(2, 3, 1, dtype=torch.int64))),
        ("CE(X3d (2,4,3), t (3,3))", lambda: CE(X3d.float(), torch.zeros(3, 3, dtype=torch.int64))),
        ("CE(X3d (2,4,3), t (2,))", lambda: CE(X3d.float(), torch.zeros(2, dtype=torch.int64))),
        ("NLL(X3d (2,4,3), t (2,4))", lambda: NLL(X3d.float(), torch.zeros(2, 4, dtype=torch.int64))),
        ("NLL(X3d (2,4,3), t (2,3,4)) 3-D target", lambda: NLL(X3d.float(), torch.zeros(2, 3, 4, dtype=torch.int64))),
        ("CE(X4d (2,3,2,2), t (2,2,3))", lambda: CE(X4d.float(), torch.zeros(2, 2, 3, dtype=torch.int64))),
        ("CE(X4d (2,3,2,2), t (2,2))", lambda: CE(X4d.float(), torch.zeros(2, 2, dtype=torch.int64))),
        ("NLL(X4d (2,3,2,2), t (3,2,2))", lambda: NLL(X4d.float(), torch.zeros(3, 2, 2, dtype=torch.int64))),
        ("CE(X5d (2,3,2,1,2), t (2,2,1,3))", lambda: CE(X5d.float(), torch.zeros(2, 2, 1, 3, dtype=torch.int64))),
        ("CE(X5d, t (3,2,1,2)) batch mismatch", lambda: CE(X5d.float(), torch.zeros(3, 2, 1, 2, dtype=torch.int64))),
        ("CE(x (3,5), t (0,))", lambda: CE(x, torch.zeros(0, dtype=torch.int64))),
        ("CE(zeros(0,5), t (3,))", lambda: CE(torch.zeros(0, 5), t)),
    ]),
    ("dtypes of targets", [
        ("CE(x (3,5), float t (3,)) wrong shape float target",
         lambda: CE(x, torch.tensor([1.0, 0.0, 4.0]))),
        ("NLL(x, float t (3,))", lambda: NLL(x, torch.tensor([1.0, 0.0, 4.0]))),
        ("CE(x, float64 t (3,))", lambda: CE(x, torch.tensor([1.0, 0.0, 4.0], dtype=F64))),
        ("CE(x, int32 t)", lambda: CE(x, torch.tensor(T3, dtype=torch.int32))),
        ("NLL(x, int32 t)", lambda: NLL(x, torch.tensor(T3, dtype=torch.int32))),
        ("CE(x, uint8 t)", lambda: CE(x, torch.tensor(T3, dtype=torch.uint8))),
        ("CE(x, int16 t)", lambda: CE(x, torch.tensor(T3, dtype=torch.int16))),
        ("CE(x, bool t)", lambda: CE(x, torch.tensor([True, False, True]))),
        ("CE(x, int32 t, label_smoothing=0.1)", lambda: CE(x, torch.tensor(T3, dtype=torch.int32), label_smoothing=0.1)),
        ("CE(x, int32 t (2,)) int32 and wrong size", lambda: CE(x, torch.tensor([1, 0], dtype=torch.int32))),
        ("CE(x, float t (2,)) float and wrong size", lambda: CE(x, torch.tensor([1.0, 0.0]))),
        ("CE(x[0] (5,), float 0-D t)", lambda: CE(x[0], torch.tensor(1.0))),
        ("CE(x[0] (5,), int32 0-D t)", lambda: CE(x[0], torch.tensor(1, dtype=torch.int32))),
        ("CE(X3d (2,4,3), float t (2,3))", lambda: CE(X3d.float(), torch.zeros(2, 3))),
        ("CE(X4d (2,3,2,2), int32 t)", lambda: CE(X4d.float(), T4d.int())),
        ("CE(X4d (2,3,2,2), float t (2,2,2))", lambda: CE(X4d.float(), T4d.float())),
    ]),
    ("NLL with 2-D target for 2-D input, other ranks", [
        ("NLL(x (3,5), t (3,5) int64)", lambda: NLL(x, torch.zeros(3, 5, dtype=torch.int64))),
        ("NLL(x (3,5), P (3,5) float)", lambda: NLL(x, P)),
        ("NLL(x (3,5), t (3,2) int64)", lambda: NLL(x, torch.zeros(3, 2, dtype=torch.int64))),
        ("torch._C._nn.nll_loss(x (3,5), t (3,5) int64, None, 1, -100)",
         lambda: nll_(x, torch.zeros(3, 5, dtype=torch.int64), None, 1, -100)),
        ("torch._C._nn.nll_loss(X3d (2,4,3), t (2,3), None, 1, -100)",
         lambda: nll_(X3d.float(), torch.zeros(2, 3, dtype=torch.int64), None, 1, -100)),
        ("torch._C._nn.nll_loss(X4d, T4d, None, 1, -100)", lambda: nll_(X4d.float(), T4d, None, 1, -100)),
        ("torch._C._nn.nll_loss(x (3,5), t (2,), None, 1, -100)",
         lambda: nll_(x, torch.tensor([1, 0]), None, 1, -100)),
        ("torch._C._nn.nll_loss(x[0] (5,), t (1,), None, 1, -100)", lambda: nll_(x[0], torch.tensor([1]), None, 1, -100)),
        ("torch._C._nn.nll_loss2d(x (3,5), t, None, 1, -100)", lambda: nll2d(x, t, None, 1, -100)),
        ("torch._C._nn.nll_loss2d(X3d, t (2,3), None, 1, -100)",
         lambda: nll2d(X3d.float(), torch.zeros(2, 3, dtype=torch.int64), None, 1, -100)),
        ("torch._C._nn.nll_loss2d(X4d, t (2,2,3), None, 1, -100)",
         lambda: nll2d(X4d.float(), torch.zeros(2, 2, 3, dtype=torch.int64), None, 1, -100)),
        ("torch._C._nn.nll_loss2d(X4d, t (3,2,2), None, 1, -100)",
         lambda: nll2d(X4d.float(), torch.zeros(3, 2, 2, dtype=torch.int64), None, 1, -100)),
        ("torch._C._nn.nll_loss2d(X4d, t (2,2,2) with a 3, None, 1, -100)",
         lambda: nll2d(X4d.float(), torch.where(T4d == 2, 3, T4d), None, 1, -100)),
        ("torch._C._nn.nll_loss2d(X4d, t, weight ones(4), 1, -100)",
         lambda: nll2d(X4d.float(), T4d, torch.ones(4), 1, -100)),
        ("nll_loss_nd(X3d (2,4,3), t (2,3,4)) ", lambda: nll_nd(X3d.float(), torch.zeros(2, 3, 4, dtype=torch.int64), None, 1, -100)),
    ]),
    ("probability targets", [
        ("CE(x, P, ignore_index=1)", lambda: CE(x, P, ignore_index=1)),
        ("CE(x, P, ignore_index=-1)", lambda: CE(x, P, ignore_index=-1)),
        ("CE(x, P, ignore_index=-100) (the default, explicit)", lambda: CE(x, P, ignore_index=-100)),
        ("CE(x, P (3,4))", lambda: CE(x, P[:, :4])),
        ("CE(x, P (2,5))", lambda: CE(x, P[:2])),
        ("CE(x, P (3,5,1))", lambda: CE(x, P.view(3, 5, 1))),
        ("CE(x, P (5,3)) transposed shape", lambda: CE(x, P.t())),
        ("CE(x, P (15,))", lambda: CE(x, P.reshape(15))),
        ("CE(x, int64 target (3,5))", lambda: CE(x, torch.zeros(3, 5, dtype=torch.int64))),
        ("CE(x, int32 target (3,5))", lambda: CE(x, torch.zeros(3, 5, dtype=torch.int32))),
        ("CE(x, bool target (3,5))", lambda: CE(x, torch.zeros(3, 5, dtype=torch.bool))),
        ("CE(x, P float64) float32 input", lambda: CE(x, P.double())),
        ("CE(x64, P float32)", lambda: CE(x64, P)),
        ("CE(x, P float16)", lambda: CE(x, P.half())),
        ("CE(x, P, ignore_index=1, reduction='none')", lambda: CE(x, P, ignore_index=1, reduction="none")),
        ("CE(x, P (3,4), ignore_index=1) (two wrong)", lambda: CE(x, P[:, :4], ignore_index=1)),
        ("CE(x, P (3,4), label_smoothing=1.5) (two wrong)", lambda: CE(x, P[:, :4], label_smoothing=1.5)),
        ("CE(x, P, ignore_index=1, label_smoothing=1.5) (two wrong)",
         lambda: CE(x, P, ignore_index=1, label_smoothing=1.5)),
        ("CE(x[0] (5,), P[0] (5,), ignore_index=1)", lambda: CE(x[0], P[0], ignore_index=1)),
        ("CE(X4d (2,3,2,2), prob (2,3,2,1))", lambda: CE(X4d.float(), torch.ones(2, 3, 2, 1) / 3)),
        ("CE(x, P, weight=ones(6))", lambda: CE(x, P, weight=torch.ones(6))),
    ]),
    ("label_smoothing", [
        ("CE(x, t, label_smoothing=-0.1)", lambda: CE(x, t, label_smoothing=-0.1)),
        ("CE(x, t, label_smoothing=1.5)", lambda: CE(x, t, label_smoothing=1.5)),
        ("CE(x, t, label_smoothing=1.0000001)", lambda: CE(x, t, label_smoothing=1.0000001)),
        ("CE(x, t, label_smoothing=nan)", lambda: CE(x, t, label_smoothing=math.nan)),
        ("CE(x, P, label_smoothing=-0.1)", lambda: CE(x, P, label_smoothing=-0.1)),
        ("CE(x, P, label_smoothing=1.5)", lambda: CE(x, P, label_smoothing=1.5)),
        ("CE(x, t (2,), label_smoothing=1.5) (two wrong)", lambda: CE(x, torch.tensor([1, 0]), label_smoothing=1.5)),
        ("CE(x, [1,5,4], label_smoothing=1.5) (two wrong)", lambda: CE(x, torch.tensor([1, 5, 4]), label_smoothing=1.5)),
        ("CE(x, float t (3,), label_smoothing=1.5) (two wrong)",
         lambda: CE(x, torch.tensor([1.0, 0.0, 4.0]), label_smoothing=1.5)),
        ("CE(x, t, weight=ones(4), label_smoothing=1.5) (two wrong)",
         lambda: CE(x, t, weight=torch.ones(4), label_smoothing=1.5)),
        ("cross_entropy_loss(x, t, None, 1, -100, 2.0) ATen level", lambda: ce_(x, t, None, 1, -100, 2.0)),
    ]),
    ("input rank and dtype", [
        ("CE(tensor(1.0) 0-D, tensor(0))", lambda: CE(torch.tensor(1.0), torch.tensor(0))),
        ("CE(tensor(1.0) 0-D, tensor([0]))", lambda: CE(torch.tensor(1.0), torch.tensor([0]))),
        ("CE(tensor(1.0) 0-D, tensor(1.0)) 0-D prob target", lambda: CE(torch.tensor(1.0), torch.tensor(1.0))),
        ("NLL(tensor(1.0) 0-D, tensor(0))", lambda: NLL(torch.tensor(1.0), torch.tensor(0))),
        ("CE(int64 x (3,5), t)", lambda: CE(torch.tensor(X35).long(), t)),
        ("NLL(int64 x (3,5), t)", lambda: NLL(torch.tensor(X35).long(), t)),
        ("CE(int64 x (3,5), float P)", lambda: CE(torch.tensor(X35).long(), P)),
        ("CE(bool x (3,5), t)", lambda: CE(torch.tensor(X35) > 0, t)),
        ("CE(float16 x (3,5), t)", lambda: CE(torch.tensor(X35).half(), t)),
        ("NLL(float16 x (3,5), t)", lambda: NLL(torch.tensor(X35).half(), t)),
        ("CE(bfloat16 x (3,5), t)", lambda: CE(torch.tensor(X35).bfloat16(), t)),
        ("CE(x (3,5), t, weight int) int weight", lambda: CE(x, t, weight=torch.ones(5, dtype=torch.int64))),
    ]),
    ("reduction", [
        ("CE(x, t, reduction='foo')", lambda: CE(x, t, reduction="foo")),
        ("NLL(x, t, reduction='foo')", lambda: NLL(x, t, reduction="foo")),
        ("CE(x, t, reduction='Mean')", lambda: CE(x, t, reduction="Mean")),
        ("CE(x, t, reduction=None)", lambda: CE(x, t, reduction=None)),
        ("CE(x, t, size_average=False) legacy", lambda: CE(x, t, size_average=False)),
        ("CE(x, t, reduce=False) legacy", lambda: CE(x, t, reduce=False)),
        ("torch._C._nn.nll_loss_nd(x, t, None, 3, -100)", lambda: nll_nd(x, t, None, 3, -100)),
        ("torch._C._nn.nll_loss_nd(x, t, None, -1, -100)", lambda: nll_nd(x, t, None, -1, -100)),
        ("torch._C._nn.nll_loss(x, t, None, 3, -100)", lambda: nll_(x, t, None, 3, -100)),
        ("torch._C._nn.cross_entropy_loss(x, t, None, 3, -100, 0.0)", lambda: ce_(x, t, None, 3, -100, 0.0)),
        ("torch._C._nn.cross_entropy_loss(x, P, None, 3, -100, 0.0)", lambda: ce_(x, P, None, 3, -100, 0.0)),
        ("torch._C._nn.cross_entropy_loss(x, t, None, 3, -100, 0.1)", lambda: ce_(x, t, None, 3, -100, 0.1)),
        ("torch._C._nn.nll_loss_nd(X3d, T3d, None, 3, -100)", lambda: nll_nd(X3d.float(), T3d, None, 3, -100)),
    ]),
    ("which check comes first (two things wrong)", [
        ("CE(x, [1,5,4], weight=ones(4)): bad target + bad weight size",
         lambda: CE(x, torch.tensor([1, 5, 4]), weight=torch.ones(4))),
        ("CE(x, [1,5], ...): bad target + batch mismatch", lambda: CE(x, torch.tensor([1, 5]))),
        ("CE(x, int32 t, weight=ones(4)): int32 target + bad weight size",
         lambda: CE(x, torch.tensor(T3, dtype=torch.int32), weight=torch.ones(4))),
        ("CE(x, int32 t, weight=ones(5, float64)): int32 target + weight dtype",
         lambda: CE(x, torch.tensor(T3, dtype=torch.int32), weight=torch.ones(5, dtype=F64))),
        ("CE(x, [1,5,4], weight=ones(5, float64)): bad target + weight dtype",
         lambda: CE(x, torch.tensor([1, 5, 4]), weight=torch.ones(5, dtype=F64))),
        ("CE(x, float t (3,), weight=ones(4)): float target + bad weight size",
         lambda: CE(x, torch.tensor([1.0, 0.0, 4.0]), weight=torch.ones(4))),
        ("CE(x, int32 t (3,1)): int32 + 2-D target", lambda: CE(x, torch.tensor([[1], [0], [4]], dtype=torch.int32))),
        ("CE(int64 x, t (2,)): int input + batch mismatch", lambda: CE(torch.tensor(X35).long(), torch.tensor([1, 0]))),
        ("NLL(int64 x, t (2,)): int input + batch mismatch", lambda: NLL(torch.tensor(X35).long(), torch.tensor([1, 0]))),
        ("NLL(int64 x, [1,5,4]): int input + bad target", lambda: NLL(torch.tensor(X35).long(), torch.tensor([1, 5, 4]))),
        ("NLL(int64 x, int32 t): int input + int32 target", lambda: NLL(torch.tensor(X35).long(), t.int())),
        ("NLL(x, int32 t, weight=ones(5, float64))", lambda: NLL(x, t.int(), weight=torch.ones(5, dtype=F64))),
        ("CE(x, [1,5,4], label_smoothing=0.1, weight=ones(5, float64))",
         lambda: CE(x, torch.tensor([1, 5, 4]), label_smoothing=0.1, weight=torch.ones(5, dtype=F64))),
        ("CE(x, [1,-100,4] with ignore_index=-100, weight ones(5, float64)) ignored row + weight dtype",
         lambda: CE(x, torch.tensor([1, -100, 4]), weight=torch.ones(5, dtype=F64))),
        ("CE(X3d, t (2,4) with value 9): K-dim shape + bad target",
         lambda: CE(X3d.float(), torch.full((2, 4), 9, dtype=torch.int64))),
        ("CE(X3d, t (2,3) int32, weight ones(3)): K-dim int32 + bad weight",
         lambda: CE(X3d.float(), T3d.int(), weight=torch.ones(3))),
        ("CE(X4d, t (2,2,2) int32, weight ones(4)): 4-D int32 + bad weight",
         lambda: CE(X4d.float(), T4d.int(), weight=torch.ones(4))),
        ("CE(x, P, weight=ones(4), label_smoothing=1.5): prob + bad weight + bad smoothing",
         lambda: CE(x, P, weight=torch.ones(4), label_smoothing=1.5)),
        ("CE(x, int64 (3,5), ignore_index=1): int prob target + ignore_index",
         lambda: CE(x, torch.zeros(3, 5, dtype=torch.int64), ignore_index=1)),
        ("CE(x (3,5) 0-D target, label_smoothing=0.1)", lambda: CE(x, torch.tensor(1), label_smoothing=0.1)),
        ("CE(x (3,5), t (3,1), label_smoothing=0.1)", lambda: CE(x, torch.tensor([[1], [0], [4]]), label_smoothing=0.1)),
    ]),
    ("uint8 targets (accepted)", [
        ("NLL(x, uint8 [1,0,4], reduction='none')", lambda: NLL(x, torch.tensor(T3, dtype=torch.uint8), reduction="none")),
        ("CE(x, uint8 [1,5,4])", lambda: CE(x, torch.tensor([1, 5, 4], dtype=torch.uint8))),
        ("CE(x, uint8 [1,0,4], label_smoothing=0.1)", lambda: CE(x, torch.tensor(T3, dtype=torch.uint8), label_smoothing=0.1)),
        ("CE(X4d, uint8 T4d)", lambda: CE(X4d.float(), T4d.to(torch.uint8))),
        ("CE(X3d, uint8 T3d)", lambda: CE(X3d.float(), T3d.to(torch.uint8))),
        ("CE(x, uint8 [1,0,4]) backward: grad equals the int64 case (b.1.1)",
         lambda: torch.autograd.grad(CE(x, torch.tensor(T3, dtype=torch.uint8)), x)[0]),
    ]),
]
n = 0
for title, items in ERRS:
    k = 0
    n += 1
    h(f"c.{n} {title}", 3)
    for lab, f in items:
        if f is None:
            continue
        k += 1
        e, r = err(f)
        if e:
            print(f"- **c.{n}.{k}** `{lab}`: **{e}**: `{r!s}`".replace("\n", "\\n"))
        else:
            if torch.is_tensor(r):
                print(f"- **c.{n}.{k}** `{lab}`: no error: `{rep(r.detach())}` ({dts(r)}, shape {list(r.shape)})")
            else:
                print(f"- **c.{n}.{k}** `{lab}`: no error: {r!r}")


# ===========================================================================
h("d) Graphs")
print("`type(grad_fn).__name__` of the loss and the whole graph below it (each child shown with "
      "the input_nr of its edge). Leaves are float32 with requires_grad; the weight and targets "
      "do not require grad.")


def graph(label, f):
    e, y = err(f)
    if e:
        print(f"\n`{label}`: ERROR {e}: `{y}`")
        return
    print(f"\n`{label}` (loss shape {list(y.shape)}):")
    code(chain(y.grad_fn))


GI = {1: ([0.5, -1.0, 2.0], 1, [0.2, 0.3, 0.5]),
      2: (X35, T3, P35)}
n = 0
shapes = {1: (5,), 2: (3, 5), 3: (2, 4, 3), 4: (2, 3, 2, 2), 5: (2, 3, 2, 1, 2)}
tgts = {1: torch.tensor(2), 2: torch.tensor(T3), 3: T3d, 4: T4d, 5: T5d}
h("d.1 cross_entropy, class targets, input rank 1..5, each reduction", 3)
for rank in range(1, 6):
    shp = shapes[rank]
    C = shp[0] if rank == 1 else shp[1]
    for r in RED:
        xx = torch.linspace(-1, 1, math.prod(shp)).view(shp).requires_grad_()
        graph(f"d.1 rank {rank} {list(shp)}, reduction={r}", lambda: F.cross_entropy(xx, tgts[rank], reduction=r))
h("d.2 cross_entropy, class targets, with weight / label_smoothing / both (rank 2, and rank 3, 4, 1)", 3)
for rank in (2, 1, 3, 4):
    shp = shapes[rank]
    C = shp[0] if rank == 1 else shp[1]
    wC = torch.linspace(0.5, 1.5, C)
    for r in RED:
        for opts in (dict(weight=wC), dict(label_smoothing=0.1), dict(weight=wC, label_smoothing=0.1)):
            if rank != 2 and r != "mean":
                continue
            xx = torch.linspace(-1, 1, math.prod(shp)).view(shp).requires_grad_()
            ol = ", ".join(f"{k}" + ("=0.1" if k == "label_smoothing" else "") for k in opts)
            graph(f"d.2 rank {rank}, {ol}, reduction={r}",
                  lambda: F.cross_entropy(xx, tgts[rank], reduction=r, **opts))
h("d.3 cross_entropy, probability targets", 3)
for rank in (2, 1, 3):
    shp = shapes[rank]
    cdim = 0 if rank == 1 else 1
    C = shp[cdim]
    wC = torch.linspace(0.5, 1.5, C)
    pt = torch.softmax(torch.linspace(-2, 2, math.prod(shp)).view(shp), cdim)
    for r in RED:
        for opts in (dict(), dict(weight=wC), dict(label_smoothing=0.1), dict(weight=wC, label_smoothing=0.1)):
            if rank != 2 and (r != "mean" and opts):
                continue
            xx = torch.linspace(-1, 1, math.prod(shp)).view(shp).requires_grad_()
            ol = ", ".join(f"{k}" + ("=0.1" if k == "label_smoothing" else "") for k in opts) or "no options"
            graph(f"d.3 rank {rank} prob target, {ol}, reduction={r}",
                  lambda: F.cross_entropy(xx, pt, reduction=r, **opts))
h("d.4 nll_loss alone", 3)
for rank in range(1, 6):
    shp = shapes[rank]
    for r in RED:
        if rank in (1, 2) or r != "sum":
            xx = torch.linspace(-1, 1, math.prod(shp)).view(shp).requires_grad_()
            graph(f"d.4 nll_loss rank {rank} {list(shp)}, reduction={r}",
                  lambda: F.nll_loss(xx, tgts[rank], reduction=r))
xx = torch.linspace(-1, 1, 15).view(3, 5).requires_grad_()
graph("d.4 nll_loss(x, t, weight=W5)", lambda: F.nll_loss(xx, tgts[2], weight=w5))
graph("d.4 nll_loss(F.log_softmax(x, 1), t)", lambda: F.nll_loss(F.log_softmax(xx, 1), tgts[2]))
graph("d.4 nll_loss(x.log(), t) on probabilities", lambda: F.nll_loss(F.softmax(xx, 1).log(), tgts[2]))

h("d.5 Saved values of the nodes (rank 2, class targets)", 3)
xx = torch.tensor(X35, requires_grad=True)
y = F.cross_entropy(xx, torch.tensor(T3), weight=w5, ignore_index=3)
fn = y.grad_fn
print(f"- NllLossBackward0 attributes: "
      + ", ".join(f"{a}={getattr(fn, a)!r}" if not torch.is_tensor(getattr(fn, a)) else
                  f"{a}=<tensor {dts(getattr(fn, a))} {list(getattr(fn, a).shape)} {rep(getattr(fn, a))}>"
                  if getattr(fn, a).numel() <= 5 else f"{a}=<tensor {dts(getattr(fn, a))} {list(getattr(fn, a).shape)}>"
                  for a in sorted(dir(fn)) if a.startswith("_saved_")))
fn2 = fn.next_functions[0][0]
print(f"- LogSoftmaxBackward0 attributes: "
      + ", ".join(f"{a}={getattr(fn2, a)!r}" if not torch.is_tensor(getattr(fn2, a)) else
                  f"{a}=<tensor {list(getattr(fn2, a).shape)}>" for a in sorted(dir(fn2)) if a.startswith("_saved_")))
xx = torch.tensor(X35, requires_grad=True)
y = F.cross_entropy(xx, torch.tensor(T3), reduction="none")
fn = y.grad_fn
print(f"- reduction none: NllLossBackward0 _saved_reduction={fn._saved_reduction!r}, "
      f"_saved_total_weight={rep(fn._saved_total_weight)}")
xx4 = X4d.float().requires_grad_()
y = F.cross_entropy(xx4, T4d)
print(f"- 4-D: NllLoss2DBackward0 _saved_reduction={y.grad_fn._saved_reduction!r}, "
      f"_saved_total_weight={rep(y.grad_fn._saved_total_weight)}, _saved_ignore_index={y.grad_fn._saved_ignore_index!r}")
xx = torch.tensor(X35, requires_grad=True)
y = F.cross_entropy(xx, torch.tensor(T3), reduction="sum")
print(f"- reduction sum: _saved_reduction={y.grad_fn._saved_reduction!r}; mean: 1; none: 0 (ATen's Reduction enum)")

h("d.6 Composite-op node names (what C++ composite code records)", 3)
xx = torch.tensor(X35, requires_grad=True)
for lab, f in (("x * 2.5 (Python number)", lambda: xx * 2.5),
               ("torch.ops.aten.mul.Scalar(x, 2.5)", lambda: torch.ops.aten.mul.Scalar(xx, 2.5)),
               ("torch.ops.aten.div.Scalar(x, 2.5)", lambda: torch.ops.aten.div.Scalar(xx, 2.5)),
               ("x / 2.5 (Python number)", lambda: xx / 2.5),
               ("torch.ops.aten.masked_fill.Scalar(x, mask, 0.0)",
                lambda: torch.ops.aten.masked_fill.Scalar(xx, torch.tensor(X35) > 0, 0.0)),
               ("x.masked_fill(mask, 0.0)", lambda: xx.masked_fill(torch.tensor(X35) > 0, 0.0)),
               ("x.masked_select(mask)", lambda: xx.masked_select(torch.tensor(X35) > 0)),
               ("x.sum(1)", lambda: xx.sum(1)), ("-x", lambda: -xx),
               ("x.mean()", lambda: xx.mean())):
    y = f()
    print(f"- `{lab}`: {tn(y.grad_fn)} next_functions {nf(y.grad_fn)}")


# ===========================================================================
h("e) The study script: cross_entropy by hand and with F.cross_entropy")
print("Logits X35 (float32, (3,5), requires_grad) and targets T3 = [1, 0, 4] (int64). Step by step "
      "in float32, as a C program computing in float32 would (each step's result printed):")
xx = torch.tensor(X35, requires_grad=True)
tt = torch.tensor(T3)
with torch.no_grad():
    mx = xx.max(1, keepdim=True).values
    ex = (xx - mx).exp()
    sm = ex / ex.sum(1, keepdim=True)
    picked = sm[torch.arange(3), tt]
    nlog = -picked.log()
    mean = nlog.mean()
    naive = xx.exp() / xx.exp().sum(1, keepdim=True)
print(f"- e.1 row max = `{rep(mx.view(3))}`")
print(f"- e.2 exp(x - max) = `{rep(ex)}`")
print(f"- e.3 sum of exp per row = `{rep(ex.sum(1))}`")
print(f"- e.4 softmax (stable) = `{rep(sm)}`")
print(f"- e.5 softmax (naive exp(x)/sum exp(x), fine here) = `{rep(naive)}`")
print(f"- e.6 softmax by F.softmax = `{rep(F.softmax(xx, 1).detach())}`")
print(f"- e.7 picked p[i, t[i]] = `{rep(picked)}`")
print(f"- e.8 -log(p) = `{rep(nlog)}`")
print(f"- e.9 mean = `{rep(mean)}`")
loss = F.cross_entropy(xx, tt)
print(f"- e.10 F.cross_entropy(x, t) = `{rep(loss.detach())}` (grad_fn {tn(loss.grad_fn)})")
print(f"- e.11 |by hand - library| = `{abs(mean.item() - loss.item())!r}`; torch.allclose(by hand, library) "
      f"= {torch.allclose(mean, loss.detach())}; float32 eps = {torch.finfo(F32).eps!r}")
loss.backward()
print(f"- e.12 x.grad after loss.backward() = `{rep(xx.grad)}`")
oh = torch.zeros(3, 5)
oh[torch.arange(3), tt] = 1
print(f"- e.13 (softmax - onehot)/N = `{rep((sm - oh) / 3)}`; equal to x.grad within 1e-7: "
      f"{torch.allclose((sm - oh) / 3, xx.grad, atol=1e-7, rtol=0)}")
x64 = torch.tensor(X35, dtype=F64)
print(f"- e.14 the same loss in float64 = `{rep(F.cross_entropy(x64, tt))}`")
print("\nA study script would more likely draw random logits; with `torch.manual_seed(0)`:")
torch.manual_seed(0)
xr = torch.randn(3, 5, requires_grad=True)
tr = torch.tensor([1, 0, 4])
lr = F.cross_entropy(xr, tr)
with torch.no_grad():
    smr = F.softmax(xr, 1)
    hand = -(smr[torch.arange(3), tr].log()).mean()
print(f"- e.15 torch.manual_seed(0); x = torch.randn(3, 5) = `{rep(xr.detach())}`")
print(f"- e.16 softmax = `{rep(smr)}`")
print(f"- e.17 picked = `{rep(smr[torch.arange(3), tr])}`, by hand = `{rep(hand)}`, "
      f"F.cross_entropy = `{rep(lr.detach())}`")
lr.backward()
print(f"- e.18 x.grad = `{rep(xr.grad)}`")
torch.manual_seed(0)
xr2 = torch.randn(3, 5)
tr2 = torch.randint(0, 5, (3,))
print(f"- e.19 torch.manual_seed(0); x = torch.randn(3, 5); t = torch.randint(0, 5, (3,)) gives t = "
      f"`{rep(tr2)}`, loss `{rep(F.cross_entropy(xr2, tr2))}`")

h("e.20 The naive softmax overflowing while the stable one does not (float32, one row [v, 0, 1])", 3)
print("| v | naive softmax | stable softmax | cross_entropy with target 0 | target 1 |")
print("|---|---|---|---|---|")
for v in (10.0, 50.0, 80.0, 88.0, 88.5, 88.7, 88.72, 88.73, 89.0, 90.0, 100.0, 1000.0):
    row = torch.tensor([[v, 0.0, 1.0]])
    print(f"| {v!r} | `{rep(naive_softmax(row, 1)[0])}` | `{rep(F.softmax(row, 1)[0])}` | "
          f"`{rep(F.cross_entropy(row, torch.tensor([0])))}` | `{rep(F.cross_entropy(row, torch.tensor([1])))}` |")

h("e.21 Loss and its gradient as one logit varies (float32, row [z, 0.5, -0.5], target 0)", 3)
print("| z | loss | d loss / d z | d loss / d x[1] | d loss / d x[2] |")
print("|---|---|---|---|---|")
for z in (-6.0, -4.0, -2.0, -1.0, 0.0, 0.5, 1.0, 2.0, 4.0, 6.0):
    row = torch.tensor([[z, 0.5, -0.5]], requires_grad=True)
    l = F.cross_entropy(row, torch.tensor([0]))
    l.backward()
    g = row.grad[0].tolist()
    print(f"| {z!r} | `{l.item()!r}` | `{g[0]!r}` | `{g[1]!r}` | `{g[2]!r}` |")


# ===========================================================================
# The block of the "tests" helper: values that check_ch06.c asserts and the
# sections above do not record. Entries t.1 ... t.5; tests/pytorch/ch06_tables.py
# turns t.1 (and the loss cases of section b) into the C tables of check_ch06.c.
# ===========================================================================
h("t) More values for check_ch06.c (the tests helper's block)")

h("t.1 Rows of four logits, forward and backward", 3)
print("Each row x (float32 and float64, 1-D, requires grad): `F.softmax(x, 0)` and x.grad after "
      "`y.backward(G)`, G = `[1.0, -2.0, 0.5, 3.0]`; the same for `F.log_softmax(x, 0)`; "
      "`torch.logsumexp(x, 0)` and x.grad after `y.backward(torch.tensor(1.5))`.")
T_ROWS = [
    ([1.0, 2.0, 3.0, 4.0], "plain"),
    ([1000.0, 0.0, -1000.0, 999.0], "+-1000"),
    ([-1000.0, -1000.0, -1000.0, -1000.0], "all -1000: uniform"),
    ([88.0, 89.0, 90.0, 88.5], "exp overflows float32 from 88.73"),
    ([88.7, 88.8, 0.0, -88.7], "around the float32 overflow"),
    ([-88.0, -104.0, -105.0, 0.0], "subnormal exponentials"),
    ([3.0e38, -3.0e38, 1e-30, 0.0], "near the float32 maximum"),
    ([0.0, 0.0, 0.0, 0.0], "zeros"),
    ([math.inf, 1.0, 2.0, 3.0], "+inf"),
    ([math.inf, math.inf, 1.0, 2.0], "two +inf"),
    ([math.inf, -math.inf, 0.0, 0.0], "+inf and -inf"),
    ([-math.inf, 1.0, 2.0, 3.0], "-inf"),
    ([-math.inf, -math.inf, 5.0, -math.inf], "one finite"),
    ([-math.inf, -math.inf, -math.inf, -math.inf], "all -inf"),
    ([math.nan, 1.0, 2.0, 3.0], "NaN"),
    ([1.0, math.nan, -math.inf, -math.inf], "NaN and -inf"),
    ([math.nan, -math.inf, math.inf, 0.0], "NaN, -inf, +inf"),
]
T_G = [1.0, -2.0, 0.5, 3.0]
k = 0
for dt in (F32, F64):
    for vals, lab in T_ROWS:
        k += 1
        out = {}
        for name in ("softmax", "log_softmax", "logsumexp"):
            x = torch.tensor(vals, dtype=dt, requires_grad=True)
            if name == "softmax":
                y = F.softmax(x, 0)
                y.backward(torch.tensor(T_G, dtype=dt))
            elif name == "log_softmax":
                y = F.log_softmax(x, 0)
                y.backward(torch.tensor(T_G, dtype=dt))
            else:
                y = torch.logsumexp(x, 0)
                y.backward(torch.tensor(1.5, dtype=dt))
            out[name] = (y.detach(), x.grad)
        print(f"\n**t.1.{k}** {lab}, {dts(x)}: x = `{vals!r}`")
        for name in ("softmax", "log_softmax", "logsumexp"):
            print(f"- {name} = `{rep(out[name][0])}`; grad = `{rep(out[name][1])}`")

h("t.2 0-D and empty inputs: backward", 3)
for name, f in (("softmax(x, 0)", lambda x: F.softmax(x, 0)),
                ("log_softmax(x, -1)", lambda x: F.log_softmax(x, -1)),
                ("logsumexp(x, 0)", lambda x: torch.logsumexp(x, 0)),
                ("logsumexp(x, ())", lambda x: torch.logsumexp(x, ()))):
    x = torch.tensor(3.0, requires_grad=True)
    y = f(x)
    y.backward(torch.tensor(2.5))
    print(f"- t.2 x = tensor(3.) float32: {name} = `{rep(y.detach())}`, "
          f"after y.backward(tensor(2.5)) x.grad = `{rep(x.grad)}` {tn(y.grad_fn)}")
x = torch.zeros(0, 3, requires_grad=True)
F.softmax(x, 1).backward(torch.ones(0, 3))
print(f"- t.2 softmax(zeros(0, 3), 1).backward(ones(0, 3)): x.grad {meta(x.grad)}")
x = torch.zeros(3, 0, requires_grad=True)
y = torch.logsumexp(x, 1)
y.backward(torch.ones(3))
print(f"- t.2 logsumexp(zeros(3, 0), 1) = `{rep(y.detach())}`, backward(ones(3)): x.grad {meta(x.grad)}")

h("t.3 A saved tensor modified in place before backward()", 3)
print("x = X35 float32 leaf, t = T3, a = x * 1, then `a.add_(1)` (or the named tensor) before "
      "`backward()`:")
TT3 = torch.tensor(T3)
for lab, f in (("F.cross_entropy(a, t)", lambda a: F.cross_entropy(a, TT3)),
               ("F.nll_loss(a, t)", lambda a: F.nll_loss(a, TT3)),
               ("torch.logsumexp(a, 1).sum()", lambda a: torch.logsumexp(a, 1).sum()),
               ("F.cross_entropy(a, P35)", lambda a: F.cross_entropy(a, torch.tensor(P35))),
               ("F.cross_entropy(a, t, label_smoothing=0.1)",
                lambda a: F.cross_entropy(a, TT3, label_smoothing=0.1))):
    x = torch.tensor(X35, requires_grad=True)
    a = x * 1
    loss = f(a)
    a.add_(1)
    e, r = err(lambda: loss.backward())
    print(f"- t.3 {lab}: " + (f"**{e}**: `{r}`" if e else f"backward works; x.grad = `{rep(x.grad)}`"))
x = torch.tensor(X35, requires_grad=True)
y = F.softmax(x * 1, 1)
s = y.sum()
y.mul_(2)
e, r = err(lambda: s.backward())
print(f"- t.3 y = F.softmax(x * 1, 1); s = y.sum(); y.mul_(2); s.backward(): **{e}**: `{r}`")
for lab, mk in (("weight w = ones(5): w.add_(1)", "w"), ("target t2 = T3: t2.add_(0)", "t"),
                ("probabilities p = full((3, 5), 0.2): p.add_(1)", "p")):
    x = torch.tensor(X35, requires_grad=True)
    w = torch.ones(5)
    t2 = torch.tensor(T3)
    p = torch.full((3, 5), 0.2)
    loss = (F.cross_entropy(x, t2, weight=w) if mk != "p" else F.cross_entropy(x, p))
    {"w": w, "t": t2, "p": p}[mk].add_(1 if mk != "t" else 0)
    e, r = err(lambda: loss.backward())
    print(f"- t.3 F.cross_entropy then {lab}: **{e}**: `{r}`")

h("t.4 gradcheck verdicts", 3)
print("`torch.autograd.gradcheck(f, (x,))` in float64 (x = the values shown, requires grad):")
xg = (torch.tensor([((k * 7 + 3) % 13 - 6) * 0.375 * 0.9 + 0.01 * k for k in range(20)],
                   dtype=F64)).view(4, 5).requires_grad_()
tg = torch.tensor([3, 0, 4, 1])
wg = torch.tensor(W5, dtype=F64)
pg = torch.tensor([((k * 5 + 1) % 7) / 8 for k in range(20)], dtype=F64).view(4, 5)
for lab, f in (("F.cross_entropy(x, t)", lambda x: F.cross_entropy(x, tg)),
               ("F.cross_entropy(x, t, weight=W5, reduction='sum')",
                lambda x: F.cross_entropy(x, tg, weight=wg, reduction="sum")),
               ("F.cross_entropy(x, t, weight=W5, ignore_index=1, label_smoothing=0.3)",
                lambda x: F.cross_entropy(x, tg, weight=wg, ignore_index=1, label_smoothing=0.3)),
               ("F.cross_entropy(x, p, reduction='none', label_smoothing=0.1)",
                lambda x: F.cross_entropy(x, pg, reduction="none", label_smoothing=0.1)),
               ("F.nll_loss(x, t, weight=W5, reduction='none', ignore_index=0)",
                lambda x: F.nll_loss(x, tg, weight=wg, reduction="none", ignore_index=0)),
               ("F.softmax(x, 0)", lambda x: F.softmax(x, 0)),
               ("F.log_softmax(x, 1)", lambda x: F.log_softmax(x, 1)),
               ("torch.logsumexp(x, (0, 1), keepdim=True)",
                lambda x: torch.logsumexp(x, (0, 1), keepdim=True))):
    print(f"- t.4 gradcheck({lab}): `{torch.autograd.gradcheck(f, (xg,))}`")
pq = pg.clone().requires_grad_()
print(f"- t.4 gradcheck(lambda x, p: F.cross_entropy(x, p, label_smoothing=0.2), (x, p)) with p "
      f"requiring grad: `{torch.autograd.gradcheck(lambda x, p: F.cross_entropy(x, p, label_smoothing=0.2), (xg, pq))}`")
print(f"- t.4 x = `{rep(xg.detach())}`")

h("t.5 More errors", 3)
x = torch.tensor(X35, requires_grad=True)
for lab, f in (("CE(x, [1,5,7])", lambda: F.cross_entropy(x, torch.tensor([1, 5, 7]))),
               ("NLL(x, [1,5,7])", lambda: F.nll_loss(x, torch.tensor([1, 5, 7]))),
               ("CE(zeros(3, 0), [0, 0, 0])", lambda: F.cross_entropy(torch.zeros(3, 0),
                                                                      torch.tensor([0, 0, 0]))),
               ("NLL(zeros(3, 0), [0, 0, 0])", lambda: F.nll_loss(torch.zeros(3, 0),
                                                                  torch.tensor([0, 0, 0]))),
               ("CE(x, [1,0,7], weight=zeros(5))",
                lambda: F.cross_entropy(x, torch.tensor([1, 0, 7]), weight=torch.zeros(5))),
               ("NLL(x, [1,0,7], weight=zeros(5))",
                lambda: F.nll_loss(x, torch.tensor([1, 0, 7]), weight=torch.zeros(5)))):
    e, r = err(f)
    print(f"- t.5 `{lab}`: " + (f"**{e}**: `{r}`" if e else f"no error: `{rep(r)}`"))

h("t.6 The nll_loss twins of section c's cross_entropy errors (and a few more)", 3)
x = torch.tensor(X35, requires_grad=True)
LT = lambda *v: torch.tensor(v)  # noqa: E731
w4, w64 = torch.ones(4), torch.ones(5, dtype=F64)
X3z, X4z, X5z = torch.zeros(2, 4, 3), torch.zeros(2, 3, 2, 2), torch.zeros(2, 3, 2, 1, 2)
T3b = torch.tensor([[0, 1, 2], [3, 4, 0]])
T4b = torch.tensor([0, 1, 2, 0, 1, 3, 0, 0])
for lab, f in (("NLL(x, [1,7,5])", lambda: F.nll_loss(x, LT(1, 7, 5))),
               ("NLL(x, [1,-5,4])", lambda: F.nll_loss(x, LT(1, -5, 4))),
               ("NLL(x, [1,-100,4], ignore_index=1)", lambda: F.nll_loss(x, LT(1, -100, 4), ignore_index=1)),
               ("NLL(x[0], tensor(5))", lambda: F.nll_loss(x[0], torch.tensor(5))),
               ("NLL(x[0], tensor(-1))", lambda: F.nll_loss(x[0], torch.tensor(-1))),
               ("NLL(X3d zeros, [[0,1,2],[3,4,0]])", lambda: F.nll_loss(X3z, T3b)),
               ("NLL(X3d zeros, [[0,1,2],[3,4,0]], reduction='none')",
                lambda: F.nll_loss(X3z, T3b, reduction="none")),
               ("NLL(X3d zeros, [[0,-1,2],[3,1,0]])", lambda: F.nll_loss(X3z, torch.tensor([[0, -1, 2], [3, 1, 0]]))),
               ("NLL(X4d zeros, [0,1,2,0,1,3,0,0].view(2,2,2), reduction='none')",
                lambda: F.nll_loss(X4z, T4b.view(2, 2, 2), reduction="none")),
               ("NLL(X5d zeros, [0,1,2,0,1,3,0,0].view(2,2,1,2))", lambda: F.nll_loss(X5z, T4b.view(2, 2, 1, 2))),
               ("NLL(x, [1,2**40,4])", lambda: F.nll_loss(x, LT(1, 2 ** 40, 4))),
               ("NLL(X4d zeros, zeros(2,2,2), weight=ones(4))",
                lambda: F.nll_loss(X4z, torch.zeros(2, 2, 2, dtype=torch.long), weight=w4)),
               ("NLL(x, [1,5,4], weight=ones(4))", lambda: F.nll_loss(x, LT(1, 5, 4), weight=w4)),
               ("NLL(x, [1,5])", lambda: F.nll_loss(x, LT(1, 5))),
               ("NLL(x, [1,5,4], weight=ones(5, float64))", lambda: F.nll_loss(x, LT(1, 5, 4), weight=w64)),
               ("NLL(x, float zeros(3), weight=ones(4))", lambda: F.nll_loss(x, torch.zeros(3), weight=w4)),
               ("CE(x, float zeros(3), weight=ones(4))", lambda: F.cross_entropy(x, torch.zeros(3), weight=w4)),
               ("CE(x, bool zeros(3))", lambda: F.cross_entropy(x, torch.zeros(3, dtype=torch.bool))),
               ("CE(x[0], tensor(1.0))", lambda: F.cross_entropy(x[0], torch.tensor(1.0))),
               ("CE(x, P35, ignore_index=0)", lambda: F.cross_entropy(x, torch.tensor(P35), ignore_index=0)),
               ("CE(bool zeros(3,5), T3)", lambda: F.cross_entropy(torch.zeros(3, 5, dtype=torch.bool), LT(1, 0, 4))),
               ("torch.logsumexp(tensor(3.5), -2)", lambda: torch.logsumexp(torch.tensor(3.5), -2))):
    e, r = err(f)
    print(f"- t.6 `{lab}`: " + (f"**{e}**: `{r}`" if e else f"no error: `{rep(r)}`"))

h("t.7 A weight that requires grad, with probability targets", 3)
x = torch.tensor(X35, requires_grad=True)
wq = torch.tensor(W5, requires_grad=True)
l = F.cross_entropy(x, torch.tensor(P35), weight=wq, label_smoothing=0.1)
l.backward()
print(f"- t.7 `F.cross_entropy(X35, P35, weight=W5 requiring grad, label_smoothing=0.1)` (float32, "
      f"mean): loss `{rep(l.detach())}`; weight.grad = `{rep(wq.grad)}`; input.grad = `{rep(x.grad)}`")
