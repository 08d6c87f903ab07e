"""ch05_facts.py: ground truth for chapter 5 (autograd), from PyTorch 1.13.

Run with /usr/bin/python3 (torch 1.13).  Deterministic: fixed inputs, no randomness.
Prints Markdown; FACTS.md is its output.
  /usr/bin/python3 tests/pytorch/ch05_facts.py > FACTS.md
The values asserted by tests/check_ch05.c were read from this output.
"""
import sys
import warnings

import torch


D = torch.float64

SUMMARY = """
## Surprises and points to watch (read first)

- **Names**: every op node's `type(fn).__name__` equals `fn.name()`. The leaf node is
  `AccumulateGrad` / `torch::autograd::AccumulateGrad`; in-place `copy_` gives
  `CopyBackwards` / `torch::autograd::CopyBackwards`; in-place on a view gives `CopySlices` /
  `torch::autograd::CopySlices` on the base and `AsStridedBackward0` on the view.
- **Scalar forms**: `x + 2`, `x - 2`, `x * 2`, `x / 2` give the *tensor* nodes `AddBackward0`,
  `SubBackward0`, `MulBackward0`, `DivBackward0` with TWO next_functions `[(AccumulateGrad,0), (None,0)]`
  (the number is wrapped as a 0-d tensor). `2 + x` and `2 * x` put the leaf first too.
  `1 - x` is `RsubBackward1` with ONE edge; `torch.rsub(x, w)` is `RsubBackward0` (two edges).
  `2 / x` is `MulBackward0 -> ReciprocalBackward0` (number * x.reciprocal()).
  `2 ** x` is `PowBackward1` with `[(None,0), (AccumulateGrad,0)]` (number wrapped as a tensor base),
  while `torch.pow(2, x)` is `PowBackward2` with one edge. `x.pow(0)` is still `PowBackward0`.
- **`(x*2).sum()` backward twice FAILS** ("Trying to backward through the graph a second time"):
  MulBackward0 saves the wrapped scalar 2 as `_saved_other` and it is freed. `(x+1).sum()` and
  `x.mean()` backward twice succeed (grads accumulate: 1 then 2).
- **max/min**: `x.max()` (all) is `MaxBackward1` and splits the gradient evenly among ties
  (`[1,3,3].max()` -> grad `[0, .5, .5]`); `x.max(dim)` is `MaxBackward0`, indices have no grad_fn,
  the gradient goes to the returned index only (first occurrence): `[1,3,3].max(0)` -> `[0,1,0]`.
- **sum/mean**: `sum()`=`SumBackward0`, `sum(dim)`/`sum((0,1))`=`SumBackward1`; `mean()`=`MeanBackward0`,
  `mean(dim)`=`MeanBackward1`.
- **Views**: `X.T` is `PermuteBackward0` (not TBackward0); `movedim` is `PermuteBackward0`;
  `narrow` is `SliceBackward0`; `X[:, ::2]` and `X[:, 1:]` are TWO `SliceBackward0` (dim 0 full slice
  then dim 1); `X[:]` alone is a `SliceBackward0`. `squeeze()` = `SqueezeBackward0`,
  `squeeze(dim)` = `SqueezeBackward1` (even when nothing is squeezed); matmul 1D@2D uses
  `SqueezeBackward3`. `reshape`/`flatten` of a viewable tensor = `ReshapeAliasBackward0` (even same
  shape: a new tensor, not self); non-viewable = `UnsafeViewBackward0 -> CloneBackward0`.
  `x.flatten()` on 1-D and `X.contiguous()` on a contiguous tensor return **self** (no node).
  `X.t().contiguous()` = `CloneBackward0`. `unbind` outputs share one `UnbindBackward0`
  (output_nr 0..n-1) and can't be modified in place (own error text).
- **matmul**: 1D@1D `DotBackward0`; 2D@1D `MvBackward0`; 2D@2D `MmBackward0`; 3D@3D (and broadcast
  batch) `UnsafeViewBackward0 -> BmmBackward0 -> ReshapeAliasBackward0 -> ExpandBackward0`;
  3D@2D `UnsafeViewBackward0 -> MmBackward0` (folds batch into rows); 2D@3D goes through
  transposes: `CloneBackward0 -> TransposeBackward0 -> UnsafeViewBackward0 -> MmBackward0 ...`.
  See a.6 for every chain. `torch.sparse.mm(S, D)` is `SparseAddmmBackward0` with THREE edges
  `[(None,0),(None,0),(AccumulateGrad,0)]`; `S @ D` / `torch.mm(S, D)` is `MmBackward0` with two.
- **requires_grad texts differ by API**: attribute set on an int tensor: "only Tensors of floating
  point and complex dtype can require gradients"; factory `requires_grad=True`: "Only Tensors of
  floating point and complex dtype can require gradients" (capital O); `requires_grad_()`:
  "only Tensors of floating point dtype can require gradients". Setting `requires_grad=True` on a
  non-leaf: "you can only change requires_grad flags of leaf variables."; setting False adds
  " If you want to use a computed variable in a subgraph that doesn't require differentiation use
  var_no_grad = var.detach()." Setting True on an already-requiring non-leaf via `requires_grad_()`
  is fine.
- **Gradient argument**: a gradient of a different dtype is accepted and cast (no error); a
  broadcastable but different shape ((1,3) for (3)) is an error; a 1-element non-0-d output
  backward() without gradient works.
- **Saved-tensor version error**: the "which is output 0 of XBackward0" part appears only when the
  modified saved tensor is a non-leaf output; for a leaf/constant it is
  "[torch.FloatTensor [3]] is at version 1; expected version 0 instead." Type string is
  `torch.FloatTensor` / `torch.DoubleTensor`, sizes in brackets `[3, 4]`.
  `y = x.exp(); y.exp_(); y.relu_()` makes backward fail (exp_ saved its output).
- **Non-leaf .grad warning** text ends with "(Triggered internally at  ./build/aten/src/ATen/core/
  TensorBody.h:480.)" (two spaces after "at"); the C side should keep the text before it.
- **Grad mode**: under no_grad, ops give requires_grad False / grad_fn None / is_leaf True, BUT views
  of a requires-grad tensor (x.view(3), x[0]) still report requires_grad True (grad_fn None).
  `set_grad_enabled` nests and restores the previous state. `backward()` itself works inside no_grad.
- **zero_grad** default in 1.13 is `set_to_none=False` (zero in place, same tensor object).
- **Versions**: a tensor, its views and `detach()` share one counter; `.data` has its own. Every
  in-place op bumps by one (setitem too); out-of-place results start at 0. `retain_grad()` on a leaf
  is a no-op (`retains_grad` stays False).
- **Timing** (section f): this busy 2-core machine gave ~16-20 us/node forward+backward and ~4-7
  us/node no_grad for PyTorch (the issue text assumed 7.7 us): measure in the same run.
"""


def tn(fn):
    return None if fn is None else type(fn).__name__


def nf(fn):
    """next_functions as [(type name or None, input_nr)]."""
    if fn is None:
        return None
    return [(tn(f), i) for f, i in fn.next_functions]


def chain(fn, depth=0, out=None, seen=None):
    """The whole graph below fn, as indented lines."""
    if out is None:
        out = []
    if fn is None:
        out.append("  " * depth + "None")
        return out
    extra = ""
    if type(fn).__name__ == "AccumulateGrad":
        v = fn.variable
        extra = f"  (variable shape {list(v.shape)})"
    out.append("  " * depth + f"{tn(fn)}  name()={fn.name()!r}{extra}")
    for f, i in fn.next_functions:
        out.append("  " * (depth + 1) + f"input_nr={i}:")
        chain(f, depth + 2, out)
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


def node_row(label, y):
    fn = y.grad_fn
    return (f"| `{label}` | `{tn(fn)}` | `{fn.name() if fn is not None else None}` | "
            f"`{nf(fn)}` | {getattr(y, 'output_nr', '-')} |")


def rep(t):
    """A tensor's values as nested Python floats (full repr)."""
    if t is None:
        return "None"
    if t.dim() == 0:
        return repr(t.item())
    return repr(t.tolist())


# ---------------------------------------------------------------------------
print("# Chapter 5 (autograd): facts from PyTorch", torch.__version__)
print()
print("Generated by `/usr/bin/python3 facts/ch05_facts.py` (Python "
      f"{sys.version.split()[0]}, torch {torch.__version__}, threads {torch.get_num_threads()}).")
print(SUMMARY)
print("All tensors float64 unless stated. `next_functions` is shown as a list of "
      "(type name of the node or None, input_nr).")

# ---------------------------------------------------------------------------
h("a) Node names and next_functions")
print("Inputs: `x`, `w` = float64 leaves with requires_grad=True (shape as needed); "
      "`c` = leaf without requires_grad; `n = w.exp()` (non-leaf, grad_fn ExpBackward0). "
      "Columns: expression, `type(y.grad_fn).__name__`, `y.grad_fn.name()`, next_functions, "
      "`y.output_nr`.")
print()
print("Note: `type(fn).__name__` and `fn.name()` are identical for every op node; only the "
      "leaf node differs (`AccumulateGrad` vs `torch::autograd::AccumulateGrad`).")
print()

x = torch.tensor([1.0, 2.0, 3.0], dtype=D, requires_grad=True)
w = torch.tensor([4.0, 5.0, 6.0], dtype=D, requires_grad=True)
c = torch.tensor([7.0, 8.0, 9.0], dtype=D)
n = w.exp()
X = torch.arange(1.0, 7.0, dtype=D).view(2, 3).requires_grad_()
Nn = X.exp()  # 2x3 non-leaf

rows = []


def R(label, f):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            y = f()
        rows.append(node_row(label, y))
    except Exception as e:  # noqa
        rows.append(f"| `{label}` | ERROR {type(e).__name__}: {e} | | | |")


binops = [
    ("x + w", lambda: x + w), ("x + c", lambda: x + c), ("c + x", lambda: c + x), ("x + n", lambda: x + n),
    ("x - w", lambda: x - w), ("x - c", lambda: x - c), ("c - x", lambda: c - x), ("x - n", lambda: x - n),
    ("torch.add(x, w, alpha=2)", lambda: torch.add(x, w, alpha=2)),
    ("torch.add(x, c, alpha=2)", lambda: torch.add(x, c, alpha=2)),
    ("torch.sub(x, w, alpha=2)", lambda: torch.sub(x, w, alpha=2)),
    ("torch.sub(c, x, alpha=2)", lambda: torch.sub(c, x, alpha=2)),
    ("1 - x", lambda: 1 - x), ("x.__rsub__(1)", lambda: x.__rsub__(1)),
    ("x.__rsub__(w)", lambda: x.__rsub__(w)), ("torch.rsub(x, w)", lambda: torch.rsub(x, w)),
    ("torch.rsub(x, 1)", lambda: torch.rsub(x, 1)),
    ("x + 2", lambda: x + 2), ("2 + x", lambda: 2 + x), ("x - 2", lambda: x - 2),
    ("x * 2", lambda: x * 2), ("2 * x", lambda: 2 * x), ("x / 2", lambda: x / 2),
    ("2 / x", lambda: 2 / x),
    ("torch.add(x, 2, alpha=3)", lambda: torch.add(x, 2, alpha=3)),
    ("x * w", lambda: x * w), ("x * c", lambda: x * c), ("c * x", lambda: c * x), ("x * n", lambda: x * n),
    ("x * x", lambda: x * x),
    ("x / w", lambda: x / w), ("x / c", lambda: x / c), ("c / x", lambda: c / x),
    ("x.pow(2)", lambda: x.pow(2)), ("x ** 2", lambda: x ** 2), ("x.pow(0)", lambda: x.pow(0)),
    ("x.pow(0.5)", lambda: x.pow(0.5)),
    ("x.pow(w)", lambda: x.pow(w)), ("x.pow(c)", lambda: x.pow(c)), ("c.pow(x)", lambda: c.pow(x)),
    ("2 ** x", lambda: 2 ** x), ("torch.pow(2, x)", lambda: torch.pow(2, x)),
    ("-x", lambda: -x), ("x.neg()", lambda: x.neg()), ("-n", lambda: -n),
    ("x.exp()", lambda: x.exp()), ("x.log()", lambda: x.log()), ("x.sqrt()", lambda: x.sqrt()),
    ("x.abs()", lambda: x.abs()), ("x.relu()", lambda: x.relu()),
    ("torch.nn.functional.relu(x)", lambda: torch.nn.functional.relu(x)),
    ("x.sigmoid()", lambda: x.sigmoid()), ("x.tanh()", lambda: x.tanh()),
    ("n.exp()", lambda: n.exp()),
]
for lab, f in binops:
    R(lab, f)

h("a.1 Elementwise ops", 3)
print("| expression | type name | name() | next_functions | output_nr |")
print("|---|---|---|---|---|")
for r in rows:
    print(r)

rows = []
redops = [
    ("X.sum()", lambda: X.sum()), ("X.sum(0)", lambda: X.sum(0)), ("X.sum(1, keepdim=True)", lambda: X.sum(1, keepdim=True)),
    ("X.sum((0, 1))", lambda: X.sum((0, 1))), ("Nn.sum()", lambda: Nn.sum()),
    ("X.mean()", lambda: X.mean()), ("X.mean(0)", lambda: X.mean(0)), ("X.mean(1, keepdim=True)", lambda: X.mean(1, keepdim=True)),
    ("X.max()", lambda: X.max()), ("X.min()", lambda: X.min()),
    ("X.max(1).values", lambda: X.max(1).values), ("X.max(1).indices (no grad_fn)", lambda: X.max(1).indices),
    ("X.min(1).values", lambda: X.min(1).values), ("X.max(1, keepdim=True).values", lambda: X.max(1, keepdim=True).values),
    ("torch.amax(X, 1)", lambda: torch.amax(X, 1)),
]


def R2(label, f):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            y = f()
        if y.grad_fn is None:
            rows.append(f"| `{label}` | None (requires_grad={y.requires_grad}, dtype {y.dtype}) | | | |")
        else:
            rows.append(node_row(label, y))
    except Exception as e:  # noqa
        rows.append(f"| `{label}` | ERROR {type(e).__name__}: {e} | | | |")


for lab, f in redops:
    R2(lab, f)
h("a.2 Reductions (X = arange(1,7).view(2,3) leaf, Nn = X.exp())", 3)
print("| expression | type name | name() | next_functions | output_nr |")
print("|---|---|---|---|---|")
for r in rows:
    print(r)
mx = X.max(1)
print()
print(f"`X.max(1)`: values.grad_fn is indices.grad_fn? -> "
      f"{mx.values.grad_fn is mx.indices.grad_fn}; values.output_nr={mx.values.output_nr}; "
      f"indices.requires_grad={mx.indices.requires_grad}, indices.grad_fn={mx.indices.grad_fn}")

rows = []
Xt = X.t()  # non-contiguous non-leaf
X3 = torch.arange(1.0, 25.0, dtype=D).view(2, 3, 4).requires_grad_()
viewops = [
    ("X.t()", lambda: X.t()), ("X.transpose(0, 1)", lambda: X.transpose(0, 1)),
    ("X.T", lambda: X.T), ("X3.permute(2, 0, 1)", lambda: X3.permute(2, 0, 1)),
    ("X.view(6)", lambda: X.view(6)), ("X.view(3, 2)", lambda: X.view(3, 2)),
    ("X.reshape(6) (contiguous leaf)", lambda: X.reshape(6)),
    ("X.reshape(2, 3) (same shape)", lambda: X.reshape(2, 3)),
    ("Nn.reshape(6) (contiguous non-leaf)", lambda: Nn.reshape(6)),
    ("X.t().reshape(6) (non-viewable)", lambda: X.t().reshape(6)),
    ("X.t().reshape(3, 2) (t is already 3x2: viewable? same shape)", lambda: X.t().reshape(3, 2)),
    ("X.flatten()", lambda: X.flatten()), ("X.t().flatten()", lambda: X.t().flatten()),
    ("X3.flatten(1)", lambda: X3.flatten(1)), ("x.flatten() (1-D: returns self?)", lambda: x.flatten()),
    ("X[1]", lambda: X[1]), ("X.select(1, 0)", lambda: X.select(1, 0)),
    ("x[1] (0-d)", lambda: x[1]),
    ("x[1:3]", lambda: x[1:3]), ("X[:, ::2]", lambda: X[:, ::2]), ("X[:, 1:]", lambda: X[:, 1:]),
    ("X[:] (full slice)", lambda: X[:]), ("X[0:2] (full slice dim0)", lambda: X[0:2]),
    ("X[..., 1]", lambda: X[..., 1]),
    ("X.narrow(1, 1, 2)", lambda: X.narrow(1, 1, 2)),
    ("x.expand(2, 3)", lambda: x.expand(2, 3)), ("X.expand(4, 2, 3)", lambda: X.expand(4, 2, 3)),
    ("X.view(1, 2, 1, 3).squeeze()", lambda: X.view(1, 2, 1, 3).squeeze()),
    ("X.view(1, 2, 3).squeeze(0)", lambda: X.view(1, 2, 3).squeeze(0)),
    ("X.squeeze() (nothing to squeeze)", lambda: X.squeeze()),
    ("X.squeeze(0) (dim 0 has size 2)", lambda: X.squeeze(0)),
    ("X.unsqueeze(0)", lambda: X.unsqueeze(0)), ("X.unsqueeze(-1)", lambda: X.unsqueeze(-1)),
    ("X.diagonal()", lambda: X.diagonal()), ("X.diagonal(1)", lambda: X.diagonal(1)),
    ("torch.diagonal(X, offset=-1)", lambda: torch.diagonal(X, offset=-1)),
    ("X.as_strided((2, 2), (1, 1))", lambda: X.as_strided((2, 2), (1, 1))),
    ("X.clone()", lambda: X.clone()),
    ("X.contiguous() (contiguous leaf: returns self)", lambda: X.contiguous()),
    ("X.t().contiguous()", lambda: X.t().contiguous()),
    ("X3.movedim(0, 2)", lambda: X3.movedim(0, 2)), ("torch.movedim(X3, 2, 0)", lambda: torch.movedim(X3, 2, 0)),
    ("X.detach()", lambda: X.detach()),
]
for lab, f in viewops:
    R2(lab, f)
h("a.3 View and shape ops (X 2x3 leaf, X3 2x3x4 leaf, x 3 leaf)", 3)
print("| expression | type name | name() | next_functions | output_nr |")
print("|---|---|---|---|---|")
for r in rows:
    print(r)

h("a.4 Chains for reshape/flatten/contiguous/movedim", 3)
for lab, f in [("X.t().reshape(6)", lambda: X.t().reshape(6)),
               ("X.t().flatten()", lambda: X.t().flatten()),
               ("X.t().contiguous()", lambda: X.t().contiguous()),
               ("X.t().reshape(3, 2)", lambda: X.t().reshape(3, 2)),
               ("X.reshape(3, 2)", lambda: X.reshape(3, 2)),
               ("X3.flatten(1)", lambda: X3.flatten(1)),
               ("X3.movedim(0, 2)", lambda: X3.movedim(0, 2))]:
    y = f()
    print(f"`{lab}`: shape {list(y.shape)}, stride {y.stride()}, is_contiguous {y.is_contiguous()}")
    code(chain(y.grad_fn))
print("Identity facts:")
print()
print(f"- `X.contiguous() is X`: {X.contiguous() is X}")
t_ = X.t()
print(f"- `X.t().contiguous() is X.t()` (same python object t): {t_.contiguous() is t_}")
nc = Nn.contiguous()
print(f"- `Nn.contiguous() is Nn` (contiguous non-leaf): {nc is Nn}; grad_fn {tn(nc.grad_fn)}")
print(f"- `x.flatten() is x` (1-D leaf): {x.flatten() is x}")
r6 = X.reshape(2, 3)
print(f"- `X.reshape(2, 3) is X`: {r6 is X}; its grad_fn {tn(r6.grad_fn)}; _base is X: {r6._base is X}")
v6 = X.view(2, 3)
print(f"- `X.view(2, 3) is X`: {v6 is X}; its grad_fn {tn(v6.grad_fn)}")
print(f"- `X.detach()`: requires_grad {X.detach().requires_grad}, is_leaf {X.detach().is_leaf}, grad_fn {X.detach().grad_fn}")

h("a.5 unbind", 3)
us = X.unbind(0)
print(f"`X.unbind(0)` ({len(us)} outputs):")
print()
for i, u in enumerate(us):
    print(f"- out[{i}]: grad_fn `{tn(u.grad_fn)}` name() `{u.grad_fn.name()}`, output_nr {u.output_nr}, "
          f"next_functions {nf(u.grad_fn)}, shape {list(u.shape)}, is_view {u._is_view()}")
print(f"- all outputs share the same grad_fn object: {all(u.grad_fn is us[0].grad_fn for u in us)}")
us1 = X.unbind(1)
print(f"- `X.unbind(1)`: {len(us1)} outputs, output_nr {[u.output_nr for u in us1]}, shared grad_fn {all(u.grad_fn is us1[0].grad_fn for u in us1)}")
ua, ub = torch.unbind(Nn)
print(f"- `Nn.unbind()` on non-leaf: next_functions {nf(ua.grad_fn)}")
sp = X.split(1, 1)
print(f"- for comparison, `X.split(1, 1)`: names {[tn(s.grad_fn) for s in sp]}, output_nr {[s.output_nr for s in sp]}, shared {all(s.grad_fn is sp[0].grad_fn for s in sp)}")

h("a.6 matmul, every rank: whole graph down to the leaves", 3)
A1 = torch.arange(1.0, 4.0, dtype=D).requires_grad_()
B1 = torch.arange(4.0, 7.0, dtype=D).requires_grad_()
A2 = torch.arange(1.0, 7.0, dtype=D).view(2, 3).requires_grad_()
B2 = torch.arange(1.0, 13.0, dtype=D).view(3, 4).requires_grad_()
A3 = torch.arange(1.0, 13.0, dtype=D).view(2, 2, 3).requires_grad_()
B3 = torch.arange(1.0, 25.0, dtype=D).view(2, 3, 4).requires_grad_()
A4 = torch.arange(1.0, 25.0, dtype=D).view(2, 2, 2, 3).requires_grad_()
B3b = torch.arange(1.0, 25.0, dtype=D).view(2, 3, 4).requires_grad_()
B3c = torch.arange(1.0, 13.0, dtype=D).view(1, 3, 4).requires_grad_()
mm_cases = [
    ("1D@1D A1(3)@B1(3)", lambda: A1 @ B1),
    ("2D@1D A2(2,3)@A1(3)", lambda: A2 @ A1),
    ("1D@2D A1(3)@B2(3,4)", lambda: A1 @ B2),
    ("2D@2D A2(2,3)@B2(3,4)", lambda: A2 @ B2),
    ("3D@3D A3(2,2,3)@B3(2,3,4)", lambda: A3 @ B3),
    ("3D@2D A3(2,2,3)@B2(3,4)", lambda: A3 @ B2),
    ("2D@3D A2(2,3)@B3(2,3,4)", lambda: A2 @ B3),
    ("4D@3D A4(2,2,2,3)@B3b(2,3,4) broadcast batch", lambda: A4 @ B3b),
    ("3D@3D broadcast A3(2,2,3)@B3c(1,3,4)", lambda: A3 @ B3c),
    ("3D@1D A3(2,2,3)@A1(3)", lambda: A3 @ A1),
    ("1D@3D A1(3)@B3(2,3,4)", lambda: A1 @ B3),
    ("torch.mm(A2, B2)", lambda: torch.mm(A2, B2)),
    ("torch.mv(A2, A1)", lambda: torch.mv(A2, A1)),
    ("torch.dot(A1, B1)", lambda: torch.dot(A1, B1)),
    ("torch.bmm(A3, B3)", lambda: torch.bmm(A3, B3)),
    ("A2 @ B2 with B2 constant", lambda: A2 @ B2.detach()),
]
for lab, f in mm_cases:
    y = f()
    print(f"`{lab}` -> shape {list(y.shape)}")
    code(chain(y.grad_fn))

h("a.7 torch.sparse.mm(sparse, dense requires_grad)", 3)
S = torch.sparse_coo_tensor(torch.tensor([[0, 1, 1], [2, 0, 2]]), torch.tensor([3.0, 4.0, 5.0], dtype=D), (2, 3))
Dn = torch.arange(1.0, 7.0, dtype=D).view(3, 2).requires_grad_()
ys = torch.sparse.mm(S, Dn)
print(f"S = sparse 2x3 indices [[0,1,1],[2,0,2]] values [3,4,5]; Dn = arange(1,7).view(3,2) requires_grad.")
print(f"`torch.sparse.mm(S, Dn)`: layout {ys.layout}, shape {list(ys.shape)}")
code(chain(ys.grad_fn))
ys2 = S @ Dn
print("`S @ Dn` (matmul):")
code(chain(ys2.grad_fn))
ys3 = torch.mm(S, Dn)
print("`torch.mm(S, Dn)`:")
code(chain(ys3.grad_fn))

h("a.8 In-place ops on a non-leaf", 3)
xl = torch.tensor([1.0, -2.0, 3.0], dtype=D, requires_grad=True)
y = xl * 2
lines = [f"y = x*2: grad_fn {tn(y.grad_fn)}, y._version {y._version}, x._version {xl._version}"]
for lab, op in [("y.add_(1)", lambda: y.add_(1)), ("y.mul_(2)", lambda: y.mul_(2)),
                ("y.neg_()", lambda: y.neg_()), ("y.exp_()", lambda: y.exp_()),
                ("y.relu_()", lambda: y.relu_()), ("y.sub_(1)", lambda: y.sub_(1)),
                ("y.div_(2)", lambda: y.div_(2)), ("y.pow_(2)", lambda: y.pow_(2)),
                ("y.sigmoid_()", lambda: y.sigmoid_()), ("y.tanh_()", lambda: y.tanh_()),
                ("y.sqrt_()", lambda: y.sqrt_()), ("y.abs_()", lambda: y.abs_()),
                ("y.log_()", lambda: y.log_()), ("y.zero_()", lambda: y.zero_()),
                ("y.fill_(1)", lambda: y.fill_(1)), ("y.copy_(c)", lambda: y.copy_(c)),
                ("y += 1", None), ("y *= w", None)]:
    if op is None:
        if lab == "y += 1":
            y += 1
        else:
            y *= w
        r = y
    else:
        r = op()
    lines.append(f"{lab}: returns y itself {r is y}; grad_fn {tn(y.grad_fn)} name() {y.grad_fn.name()!r}, "
                 f"next_functions {nf(y.grad_fn)}, y._version {y._version}")
code(lines)
print("Chain after all of these:")
code(chain(y.grad_fn)[:12] + ["..."])

# in-place on a view of a non-leaf
y = xl * 2
v = y[1:]
v.mul_(3)
print("In-place on a view of a non-leaf: `y = x*2; v = y[1:]; v.mul_(3)`:")
print()
print(f"- v.grad_fn {tn(v.grad_fn)} -> {nf(v.grad_fn)}")
print(f"- y.grad_fn {tn(y.grad_fn)} -> {nf(y.grad_fn)}")
print(f"- y._version {y._version}, v._version {v._version}")
y.sum().backward()
print(f"- y.sum().backward(): x.grad {rep(xl.grad)}")
xl.grad = None
y = xl * 2
v = y[1]
v.mul_(3)
print(f"- `y = x*2; y[1].mul_(3)`: y.grad_fn {tn(y.grad_fn)}: {chain(y.grad_fn)[:6]}")

h("a.9 Versions, detach and views", 3)
lines = []
x0 = torch.tensor([1.0, 2.0, 3.0], dtype=D)  # no grad leaf
lines.append(f"x0 = tensor([1,2,3]) (no grad): x0._version {x0._version}")
yv = x0.exp()
lines.append(f"y = x0.exp(): y._version {yv._version}")
x0.add_(1)
lines.append(f"x0.add_(1): x0._version {x0._version}, y._version {yv._version}")
vv = x0.view(3)
sl = x0[1:]
lines.append(f"v = x0.view(3), s = x0[1:]: v._version {vv._version}, s._version {sl._version}")
vv.mul_(2)
lines.append(f"v.mul_(2): x0._version {x0._version}, v._version {vv._version}, s._version {sl._version}")
sl.zero_()
lines.append(f"s.zero_(): x0._version {x0._version}, v._version {vv._version}, s._version {sl._version}")
x0[0] = 5
lines.append(f"x0[0] = 5 (setitem): x0._version {x0._version}")
x0.data.add_(1)
lines.append(f"x0.data.add_(1): x0._version {x0._version} (.data has its own counter)")
x0.add_(1).mul_(2)
lines.append(f"x0.add_(1).mul_(2): x0._version {x0._version}")
xg = torch.tensor([1.0, 2.0], dtype=D, requires_grad=True)
dg = xg.detach()
lines.append(f"xg leaf requires_grad; d = xg.detach(): d.requires_grad {dg.requires_grad}, d.is_leaf {dg.is_leaf}, d.grad_fn {dg.grad_fn}, d._base is xg: {dg._base is xg}, d._is_view() {dg._is_view()}")
lines.append(f"  d shares storage: {dg.data_ptr() == xg.data_ptr()}; xg._version {xg._version}, d._version {dg._version}")
dg.add_(1)
lines.append(f"d.add_(1): xg._version {xg._version}, d._version {dg._version}, xg {xg.tolist()} (xg changed too)")
yn = xg * 3
dn = yn.detach()
dn.zero_()
lines.append(f"yn = xg*3; dn = yn.detach(); dn.zero_(): yn._version {yn._version}, yn values {yn.tolist()}")
xg2 = torch.tensor([1.0, 2.0], dtype=D, requires_grad=True)
dd = xg2.data
lines.append(f"xg2.data: requires_grad {dd.requires_grad}, is_leaf {dd.is_leaf}; dd.add_(1): xg2._version stays {(dd.add_(1), xg2._version)[1]}, dd._version {dd._version}")
z = torch.zeros(3, dtype=D)
lines.append(f"z = zeros(3) (a fresh tensor): is_leaf {z.is_leaf}, requires_grad {z.requires_grad}, grad_fn {z.grad_fn}")
yy = xg * 2
lines.append(f"yy = xg*2: is_leaf {yy.is_leaf}, requires_grad {yy.requires_grad}; xg.is_leaf {xg.is_leaf}")
ca = torch.ones(2) * 2
lines.append(f"(ones(2)*2) without grad: is_leaf {ca.is_leaf}, grad_fn {ca.grad_fn}")
code(lines)

h("b) The leaf node AccumulateGrad")
xb = torch.ones(2, requires_grad=True)
g = (xb * 2).grad_fn.next_functions[0][0]
code([f"x = torch.ones(2, requires_grad=True); g = (x*2).grad_fn.next_functions[0][0]",
      f"type(g).__name__ = {type(g).__name__!r}",
      f"g.name() = {g.name()!r}",
      f"g.variable is x = {g.variable is xb}",
      f"g.next_functions = {g.next_functions!r}",
      f"(x*2).grad_fn.next_functions = {(xb * 2).grad_fn.next_functions!r}".replace(hex(id(g)), "0x..."),
      f"same AccumulateGrad object from two graphs: {(xb * 2).grad_fn.next_functions[0][0] is (xb + 1).grad_fn.next_functions[0][0]}",
      f"x.grad_fn = {xb.grad_fn}, x.is_leaf = {xb.is_leaf}, x.output_nr = {xb.output_nr}",
      f"(x*2).grad_fn repr: {(xb * 2).grad_fn!r}".split(" object at")[0] + " object at 0x...>",
      f"str(x*2): {str(xb * 2)!r}",
      f"str(x.sum()): {str(xb.sum())!r}",
      f"str(x.exp()) float64: {str(torch.ones(2, dtype=D, requires_grad=True).exp())!r}",
      f"str(x): {str(xb)!r}",
      f"str(x.detach()): {str(xb.detach())!r}",
      f"str(x[0]): {str(xb[0])!r}",
      f"str(torch.ones(2, dtype=float64, requires_grad=True)): {str(torch.ones(2, dtype=D, requires_grad=True))!r}",
      ])
sys.stdout.flush()

# ---------------------------------------------------------------------------
h("c) Errors and warnings (exact text)")
print("Each entry: the code, then `type(e).__name__: str(e)` exactly (a fenced block; "
      "newlines in messages are real newlines).")


def E(label, f):
    print()
    print(f"**`{label}`**")
    print()
    with warnings.catch_warnings(record=True) as ws:
        warnings.simplefilter("always")
        try:
            r = f()
            out = [f"(no exception) result: {r!r}"]
        except Exception as e:  # noqa
            out = [f"{type(e).__name__}: {e}"]
        for wm in ws:
            out.append(f"WARNING {wm.category.__name__}: {wm.message}")
    code(out)


def e1():
    x = torch.ones(3)
    x.sum().backward()


E("x = torch.ones(3); x.sum().backward()   # no requires_grad", e1)


def e1b():
    x = torch.ones(3, requires_grad=True)
    with torch.no_grad():
        y = x * 2
    y.sum().backward()


E("with no_grad: y = x*2; y.sum().backward()", e1b)


def e2():
    x = torch.ones(3, requires_grad=True)
    (x * 2).backward()


E("(x*2).backward()   # non-scalar, no gradient", e2)


def e2b():
    x = torch.ones(2, 3, requires_grad=True)
    (x * 2).backward()


E("(X*2).backward()   # 2x3 non-scalar", e2b)


def e2c():
    x = torch.ones(1, requires_grad=True)
    (x * 2).backward()
    return x.grad


E("x=ones(1) requires_grad; (x*2).backward()  # 1-element non-0-d output", e2c)


def e3():
    x = torch.ones(3, requires_grad=True)
    (x * 2).backward(torch.ones(2))


E("(x*2).backward(torch.ones(2))   # wrong shape", e3)


def e3b():
    x = torch.ones(2, 3, requires_grad=True)
    (x * 2).backward(torch.ones(3, 2))


E("(X*2).backward(torch.ones(3, 2))   # X 2x3, gradient 3x2", e3b)


def e3c():
    x = torch.ones(3, requires_grad=True)
    (x * 2).backward(torch.ones(1, 3))


E("(x*2).backward(torch.ones(1, 3))   # x (3), gradient (1,3) (broadcastable)", e3c)


def e3d():
    x = torch.ones(3, requires_grad=True)
    (x.sum()).backward(torch.ones(1))


E("x.sum().backward(torch.ones(1))   # 0-d output, gradient shape (1)", e3d)


def e3e():
    x = torch.ones(3, requires_grad=True)
    x.sum().backward(torch.tensor(2.0))
    return x.grad


E("x.sum().backward(torch.tensor(2.0))", e3e)


def e4():
    x = torch.ones(3, requires_grad=True)
    y = (x * x).sum()
    y.backward()
    y.backward()


E("y = (x*x).sum(); y.backward(); y.backward()", e4)


def e4b():
    x = torch.ones(3, requires_grad=True)
    y = x.exp().sum()
    y.backward()
    y.backward()


E("y = x.exp().sum(); y.backward(); y.backward()", e4b)


def e4c():
    x = torch.ones(3, requires_grad=True)
    w = torch.ones(3, requires_grad=True)
    y = (x * w).sum()
    y.backward()
    y.backward()


E("y = (x*w).sum() (two leaves); y.backward(); y.backward()", e4c)


def e4d():
    x = torch.ones(3, requires_grad=True)
    y = (x * x)
    y.sum().backward()
    return y.grad_fn._saved_self


E("y = x*x; y.sum().backward(); y.grad_fn._saved_self   # access freed saved tensor", e4d)


def e5():
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = (x + 1).sum()
    y.backward()
    g1 = x.grad.tolist()
    y.backward()
    return ("grads after 1st", g1, "after 2nd", x.grad.tolist())


E("y = (x+1).sum(); y.backward(); y.backward()   # nothing saved", e5)


def e5b():
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = (x * 2).sum()
    y.backward()
    y.backward()
    return x.grad.tolist()


E("y = (x*2).sum(); backward twice   # mul by a Python scalar saves no tensor", e5b)


def e5c():
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x.mean()
    y.backward()
    y.backward()
    return x.grad.tolist()


E("y = x.mean(); backward twice", e5c)


def e6():
    x = torch.ones(3, requires_grad=True)
    y = x * 2
    y.requires_grad = True
    return "ok"


E("y = x*2; y.requires_grad = True   # non-leaf, setting True", e6)


def e6b():
    x = torch.ones(3, requires_grad=True)
    y = x * 2
    y.requires_grad = False


E("y = x*2; y.requires_grad = False   # non-leaf, setting False", e6b)


def e6c():
    x = torch.ones(3, requires_grad=True)
    y = x * 2
    y.requires_grad_(False)


E("y = x*2; y.requires_grad_(False)", e6c)


def e6d():
    x = torch.ones(3, requires_grad=True)
    y = x * 2
    return y.requires_grad_(True) is y


E("y = x*2; y.requires_grad_(True)   # already True", e6d)


def e6e():
    x = torch.ones(3, requires_grad=True)
    x.requires_grad = False
    return (x.requires_grad, x.is_leaf)


E("x leaf requires_grad; x.requires_grad = False", e6e)


def e7():
    x = torch.ones(3, dtype=torch.int64)
    x.requires_grad = True


E("torch.ones(3, dtype=torch.int64).requires_grad = True", e7)


def e7b():
    return torch.ones(3, dtype=torch.int64, requires_grad=True)


E("torch.ones(3, dtype=torch.int64, requires_grad=True)", e7b)


def e7c():
    return torch.tensor([1, 2], requires_grad=True)


E("torch.tensor([1, 2], requires_grad=True)", e7c)


def e7d():
    x = torch.ones(3, dtype=torch.bool)
    x.requires_grad_()


E("torch.ones(3, dtype=torch.bool).requires_grad_()", e7d)


def e7e():
    x = torch.ones(3, dtype=torch.int32)
    x.requires_grad = False
    return x.requires_grad


E("int tensor .requires_grad = False", e7e)


def e8():
    x = torch.ones(3, requires_grad=True)
    x.add_(1)


E("x = torch.ones(3, requires_grad=True); x.add_(1)", e8)


def e8b():
    x = torch.ones(3, requires_grad=True)
    x.mul_(2)


E("x.mul_(2)   # leaf", e8b)


def e8c():
    x = torch.ones(3, requires_grad=True)
    x.zero_()


E("x.zero_()   # leaf", e8c)


def e8d():
    x = torch.ones(3, requires_grad=True)
    x += 1


E("x += 1   # leaf", e8d)


def e8e():
    x = torch.ones(3, requires_grad=True)
    x[0] = 5


E("x[0] = 5   # setitem on leaf", e8e)


def e8f():
    x = torch.ones(3, requires_grad=True)
    with torch.no_grad():
        x.add_(1)
    return (x.tolist(), x._version, x.requires_grad, x.is_leaf)


E("with torch.no_grad(): x.add_(1)   # allowed", e8f)


def e9():
    x = torch.ones(2, 2, requires_grad=True)
    x[0].add_(1)


E("x = torch.ones(2, 2, requires_grad=True); x[0].add_(1)", e9)


def e9b():
    x = torch.ones(2, 2, requires_grad=True)
    x.view(4).mul_(2)


E("x.view(4).mul_(2)   # x 2x2 leaf", e9b)


def e9c():
    x = torch.ones(2, 2, requires_grad=True)
    x.t().mul_(2)


E("x.t().mul_(2)", e9c)


def e9d():
    x = torch.ones(2, 2, requires_grad=True)
    x.unbind(0)[0].mul_(2)


E("x.unbind(0)[0].mul_(2)   # multi-output view", e9d)


def e9e():
    x = torch.ones(2, 2, requires_grad=True)
    x.detach().mul_(2)
    return x.tolist()


E("x.detach().mul_(2)   # allowed, changes x", e9e)


def e10():
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x.exp()
    y.add_(1)
    y.sum().backward()


E("y = x.exp(); y.add_(1); y.sum().backward()   # ExpBackward0 saved its result", e10)


def e10b():
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    w = torch.tensor([4.0, 5.0, 6.0])
    z = x * w
    w.add_(1)
    z.sum().backward()


E("w constant (no grad); z = x*w; w.add_(1); z.sum().backward()", e10b)


def e10c():
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    a = x * 2
    w = a.detach()
    z = x * a
    w.add_(1)
    z.sum().backward()


E("a = x*2; z = x*a; a.detach().add_(1); z.sum().backward()", e10c)


def e10d():
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    a = x * 2
    z = a * a
    a.add_(1)
    a.mul_(3)
    z.sum().backward()


E("a = x*2; z = a*a; a.add_(1); a.mul_(3); z.sum().backward()", e10d)


def e10e():
    x = torch.tensor([1.0, 2.0, 3.0], dtype=D, requires_grad=True)
    w = torch.tensor([4.0, 5.0, 6.0], dtype=D)
    z = x * w
    w[0] = 9
    z.sum().backward()


E("float64: w = tensor (no grad); z = x*w; w[0] = 9; backward", e10e)


def e10f():
    x = torch.ones(2, 3, requires_grad=True)
    w = torch.ones(3, 4)
    z = x @ w
    w.add_(1)
    z.sum().backward()


E("x (2,3) @ w (3,4); w.add_(1); backward", e10f)


def e10g():
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x.sigmoid()
    y.mul_(2)
    y.sum().backward()


E("y = x.sigmoid(); y.mul_(2); y.sum().backward()", e10g)


def e10h():
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x * 1
    z = y.exp()
    y.add_(1)   # exp saved its result, not y: ok?
    z.sum().backward()
    return x.grad.tolist()


E("y = x*1; z = y.exp(); y.add_(1); z.sum().backward()   # exp saves result, not input", e10h)


def e10i():
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x * 1
    z = y.pow(2)
    y.add_(1)
    z.sum().backward()


E("y = x*1; z = y.pow(2); y.add_(1); backward   # pow saves input", e10i)


def e10j():
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x * 1
    z = y.relu()
    z.add_(1)
    z.sum().backward()


E("z = (x*1).relu(); z.add_(1); backward   # relu saves result", e10j)


def e11():
    x = torch.ones(3, requires_grad=True)
    y = x * 2
    return y.grad


E("y = x*2; y.grad   # non-leaf .grad", e11)


def e11b():
    x = torch.ones(3, requires_grad=True)
    y = x * 2
    y.retain_grad()
    y.sum().backward()
    return y.grad


E("y = x*2; y.retain_grad(); y.sum().backward(); y.grad", e11b)


def e11c():
    x = torch.ones(3)
    y = x * 2
    return y.grad


E("x no grad; y = x*2; y.grad   # leaf, no warning", e11c)


def e12():
    x = torch.ones(3)
    x.retain_grad()


E("torch.ones(3).retain_grad()   # does not require grad", e12)


def e12b():
    x = torch.ones(3, requires_grad=True)
    x.retain_grad()
    return x.retains_grad


E("leaf with requires_grad: x.retain_grad(); x.retains_grad", e12b)


def e12c():
    x = torch.ones(3, requires_grad=True)
    y = x * 2
    r = (y.retains_grad, x.retains_grad)
    y.retain_grad()
    return r, y.retains_grad


E("retains_grad before/after retain_grad on y = x*2", e12c)


def e13():
    x = torch.ones(3, requires_grad=True)
    (x * 2).backward(torch.ones(3, dtype=torch.float64))
    return (x.grad, x.grad.dtype)


E("x float32; (x*2).backward(torch.ones(3, dtype=torch.float64))", e13)


def e13b():
    x = torch.ones(3, requires_grad=True)
    (x * 2).backward(torch.ones(3, dtype=torch.int64))
    return (x.grad, x.grad.dtype)


E("x float32; (x*2).backward(torch.ones(3, dtype=torch.int64))", e13b)


def e13c():
    x = torch.ones(3, dtype=D, requires_grad=True)
    (x * 2).backward(torch.ones(3, dtype=torch.float32))
    return (x.grad, x.grad.dtype)


E("x float64; (x*2).backward(torch.ones(3, dtype=torch.float32))", e13c)


def e14():
    x = torch.tensor([1.0, 2.0, 3.0], dtype=D, requires_grad=True)
    y = (x * x).sum()
    y.backward(retain_graph=True)
    a = x.grad.tolist()
    y.backward(retain_graph=True)
    b = x.grad.tolist()
    return (a, b)


E("x=[1,2,3] f64; y=(x*x).sum(); y.backward(retain_graph=True) twice: grads after each", e14)


def e15():
    x = torch.tensor([1.0, 2.0, 3.0], dtype=D, requires_grad=True)
    y = (x * x).sum()
    y.backward(retain_graph=True)
    y.backward()
    y.backward()


E("retain_graph=True then plain backward then another backward", e15)


def e16():
    x = torch.ones(3, requires_grad=True)
    x.grad = torch.ones(2)


E("x.grad = torch.ones(2)   # wrong shape", e16)


def e16b():
    x = torch.ones(3, requires_grad=True)
    x.grad = torch.ones(3, dtype=D)


E("x.grad = torch.ones(3, dtype=float64)   # x float32", e16b)


def e17():
    x = torch.ones(3, requires_grad=True)
    y = x * 2
    y.detach_()
    return (y.requires_grad, y.is_leaf, y.grad_fn)


E("y = x*2; y.detach_()", e17)


def e17b():
    x = torch.ones(3, requires_grad=True)
    x.view(3).detach_()


E("x.view(3).detach_()   # view", e17b)


def e18():
    x = torch.ones(3, requires_grad=True)
    return torch.autograd.grad((x * 2).sum(), x)


E("torch.autograd.grad((x*2).sum(), x)", e18)


def e19():
    x = torch.ones(3, requires_grad=True)
    w = torch.ones(3, requires_grad=True)
    (x * 2).sum().backward(inputs=[w])


E("(x*2).sum().backward(inputs=[w])   # w not in graph", e19)


def e20():
    x = torch.ones(3, requires_grad=True)
    return x.numpy()


E("x.numpy()   # requires grad", e20)


def e21():
    x = torch.ones(3, requires_grad=True)
    return x.sum().item(), x.tolist()


E("x.sum().item(); x.tolist()   # fine", e21)



def e7f():
    torch.ones(3, dtype=torch.int64).requires_grad_()


E("torch.ones(3, dtype=torch.int64).requires_grad_()   # method: a third wording", e7f)

# ---------------------------------------------------------------------------
h("d) Numeric ground truth (float64)")
print("Each case: the code, leaves (values, shape), forward value, `.grad` of each leaf "
      "after `backward` (value and shape; `None` if no grad reached it), and retained "
      "intermediates where interesting. Values are Python `repr` of float64 (full precision).")

NCASES = [0]


def T(vals, rg=True):
    return torch.tensor(vals, dtype=D, requires_grad=rg)


def case(title, body):
    """body() returns (leaves: dict name->tensor, out: tensor, extra lines list)."""
    NCASES[0] += 1
    print()
    print(f"### d.{NCASES[0]} {title}")
    print()
    lines = []
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            r = body(lines)
    except Exception as e:  # noqa
        lines.append(f"EXCEPTION {type(e).__name__}: {e}")
        code(lines)
        return
    code(lines)


def show_leaf(lines, name, t):
    lines.append(f"{name}.grad = {rep(t.grad)}  shape {list(t.grad.shape) if t.grad is not None else None}")


def run(lines, src, leaves, out, grad=None, inter=(), retain=False, bw=True):
    """Print inputs, forward value, backward and grads."""
    lines.append(src)
    for k, v in leaves.items():
        lines.append(f"{k} = {rep(v.detach())}  shape {list(v.shape)}  requires_grad {v.requires_grad}")
    lines.append(f"out = {rep(out.detach())}  shape {list(out.shape)}  grad_fn {tn(out.grad_fn)}")
    for nm, t in inter:
        t.retain_grad()
    if bw:
        if grad is None:
            out.backward(retain_graph=retain)
        else:
            lines.append(f"gradient = {rep(grad)}")
            out.backward(grad, retain_graph=retain)
    for k, v in leaves.items():
        if v.requires_grad:
            show_leaf(lines, k, v)
    for nm, t in inter:
        lines.append(f"{nm}.grad (retain_grad) = {rep(t.grad)}  shape {list(t.grad.shape) if t.grad is not None else None}")


def c_(title, src, make):
    def body(lines):
        ns = make()
        run(lines, src, **ns)
    case(title, body)


# --- elementwise, multi-path
def mk():
    x = T([1.0, 2.0, 3.0]); a = x * x; y = a + x; out = y.sum()
    return dict(leaves={"x": x}, out=out, inter=[("a", a), ("y", y)])
c_("multi-path: y = x*x + x, out = y.sum()", "x = [1,2,3]; a = x*x; y = a + x; out = y.sum()", mk)

def mk():
    x = T([1.5, -2.0, 3.0]); return dict(leaves={"x": x}, out=(x * x).sum())
c_("x*x", "out = (x*x).sum()", mk)

def mk():
    x = T([1.5, -2.0, 3.0]); return dict(leaves={"x": x}, out=(x - x).sum())
c_("x-x", "out = (x-x).sum()", mk)

def mk():
    x = T([1.5, -2.0, 3.0]); return dict(leaves={"x": x}, out=(x / x).sum())
c_("x/x", "out = (x/x).sum()", mk)

def mk():
    x = T([1.5, -2.0, 3.0]); return dict(leaves={"x": x}, out=(x + x + x).sum())
c_("x+x+x", "out = (x+x+x).sum()", mk)

def mk():
    x = T([1.0, 2.0]); w = T([3.0, 4.0]); return dict(leaves={"x": x, "w": w}, out=torch.add(x, w, alpha=2.5).sum())
c_("add with alpha", "out = torch.add(x, w, alpha=2.5).sum()", mk)

def mk():
    x = T([1.0, 2.0]); w = T([3.0, 4.0]); return dict(leaves={"x": x, "w": w}, out=torch.sub(x, w, alpha=2.5).sum())
c_("sub with alpha", "out = torch.sub(x, w, alpha=2.5).sum()", mk)

def mk():
    x = T([1.0, 2.0]); w = T([3.0, 4.0]); return dict(leaves={"x": x, "w": w}, out=torch.rsub(x, w, alpha=2.0).sum())
c_("rsub tensor with alpha: w - 2*x", "out = torch.rsub(x, w, alpha=2.0).sum()", mk)

def mk():
    x = T([1.0, 2.0]); return dict(leaves={"x": x}, out=(1 - x).sum())
c_("rsub scalar 1 - x", "out = (1 - x).sum()", mk)

def mk():
    x = T([1.0, 2.0]); return dict(leaves={"x": x}, out=torch.rsub(x, 3.0, alpha=2.0).sum())
c_("rsub scalar with alpha: 3 - 2*x", "out = torch.rsub(x, 3.0, alpha=2.0).sum()", mk)

def mk():
    x = T([1.0, 2.0]); return dict(leaves={"x": x}, out=(x * 3 + 2 - x / 4).sum())
c_("scalar ops", "out = (x*3 + 2 - x/4).sum()", mk)

def mk():
    x = T([1.0, 2.0]); return dict(leaves={"x": x}, out=(2 / x).sum())
c_("number / tensor (reciprocal)", "out = (2 / x).sum()", mk)

def mk():
    x = T([1.0, 2.0, 4.0]); w = T([3.0, -1.0, 0.5]); return dict(leaves={"x": x, "w": w}, out=(x * w).sum())
c_("mul", "out = (x*w).sum()", mk)

def mk():
    x = T([1.0, 2.0, 4.0]); w = T([3.0, -1.0, 0.5]); return dict(leaves={"x": x, "w": w}, out=(x / w).sum())
c_("div", "out = (x/w).sum()", mk)

def mk():
    x = T([1.0, 0.0, -1.0]); w = T([0.0, 0.0, 0.0]); return dict(leaves={"x": x, "w": w}, out=(x / w).sum())
c_("div by zero", "x=[1,0,-1], w=[0,0,0]; out = (x/w).sum()", mk)

def mk():
    x = T([0.0, 1.0, -2.0]); return dict(leaves={"x": x}, out=(1.0 / x).sum())
c_("1/x at 0", "out = (1.0/x).sum()", mk)

def mk():
    x = T([-1.5, 0.0, 2.0]); return dict(leaves={"x": x}, out=x.pow(2).sum())
c_("pow(x, 2)", "out = x.pow(2).sum()", mk)

def mk():
    x = T([-1.5, 0.0, 2.0]); return dict(leaves={"x": x}, out=x.pow(3).sum())
c_("pow(x, 3)", "out = x.pow(3).sum()", mk)

def mk():
    x = T([0.0, 0.5, 2.0]); return dict(leaves={"x": x}, out=x.pow(0.5).sum())
c_("pow(x, 0.5) at 0", "out = x.pow(0.5).sum()", mk)

def mk():
    x = T([0.0, 1.0, -2.0]); return dict(leaves={"x": x}, out=x.pow(0).sum())
c_("pow(x, 0) at x=0 (no NaN)", "out = x.pow(0).sum()", mk)

def mk():
    x = T([0.0, 1.0, -2.0]); return dict(leaves={"x": x}, out=x.pow(0.0).sum())
c_("pow(x, 0.0) float exponent", "out = x.pow(0.0).sum()", mk)

def mk():
    x = T([0.0, 2.0]); return dict(leaves={"x": x}, out=x.pow(-1).sum())
c_("pow(x, -1) at 0", "out = x.pow(-1).sum()", mk)

def mk():
    x = T([1.5, 2.0, 3.0]); y = T([2.0, 0.5, -1.0]); return dict(leaves={"x": x, "y": y}, out=x.pow(y).sum())
c_("pow(x, y) tensor exponent", "out = x.pow(y).sum()", mk)

def mk():
    x = T([0.0, 0.0, 0.0, 2.0]); y = T([0.0, 1.0, 2.0, 0.0]); return dict(leaves={"x": x, "y": y}, out=x.pow(y).sum())
c_("pow(x, y) at base 0: exponents 0,1,2 and 2^0", "x=[0,0,0,2], y=[0,1,2,0]; out = x.pow(y).sum()", mk)

def mk():
    x = T([-2.0]); y = T([2.0]); return dict(leaves={"x": x, "y": y}, out=x.pow(y).sum())
c_("pow(x, y) negative base, integral exponent", "x=[-2], y=[2]; out = x.pow(y).sum()", mk)

def mk():
    x = T([0.0, 1.0, 2.5]); return dict(leaves={"x": x}, out=(2 ** x).sum())
c_("pow(2, x) (2 ** x)", "out = (2 ** x).sum()", mk)

def mk():
    x = T([0.0, 1.0]); return dict(leaves={"x": x}, out=(0.0 ** x).sum())
c_("pow(0, x) (0.0 ** x)", "out = (0.0 ** x).sum()", mk)

def mk():
    x = T([1.0, -2.0]); return dict(leaves={"x": x}, out=(-x).sum())
c_("neg", "out = (-x).sum()", mk)

def mk():
    x = T([0.0, 1.0, -1.0]); return dict(leaves={"x": x}, out=x.exp().sum())
c_("exp", "out = x.exp().sum()", mk)

def mk():
    x = T([0.5, 1.0, 0.0, -1.0]); return dict(leaves={"x": x}, out=x.log().sum())
c_("log (incl. 0 and negative)", "out = x.log().sum()", mk)

def mk():
    x = T([0.0, 4.0, 2.0]); return dict(leaves={"x": x}, out=x.sqrt().sum())
c_("sqrt at 0", "out = x.sqrt().sum()", mk)

def mk():
    x = T([-2.0, 0.0, 3.0]); return dict(leaves={"x": x}, out=x.abs().sum())
c_("abs at 0", "out = x.abs().sum()", mk)

def mk():
    x = T([-2.0, 0.0, 3.0]); return dict(leaves={"x": x}, out=x.relu().sum())
c_("relu at 0", "out = x.relu().sum()", mk)

def mk():
    x = T([-2.0, 0.0, 3.0]); return dict(leaves={"x": x}, out=x.sigmoid().sum())
c_("sigmoid", "out = x.sigmoid().sum()", mk)

def mk():
    x = T([-2.0, 0.0, 0.5]); return dict(leaves={"x": x}, out=x.tanh().sum())
c_("tanh", "out = x.tanh().sum()", mk)

# reductions
def mk():
    x = T([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]); return dict(leaves={"x": x}, out=x.sum())
c_("sum() gradient is ones", "out = x.sum()", mk)

def mk():
    x = T([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]); s = x.sum(0); return dict(leaves={"x": x}, out=(s * T([1.0, 2.0, 3.0], False)).sum(), inter=[("s", s)])
c_("sum(0) weighted", "s = x.sum(0); out = (s * [1,2,3]).sum()", mk)

def mk():
    x = T([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]); s = x.sum(1, keepdim=True); return dict(leaves={"x": x}, out=(s * s).sum(), inter=[("s", s)])
c_("sum(1, keepdim=True) squared", "s = x.sum(1, keepdim=True); out = (s*s).sum()", mk)

def mk():
    x = T([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]); return dict(leaves={"x": x}, out=x.mean())
c_("mean()", "out = x.mean()", mk)

def mk():
    x = T([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]); m = x.mean(0); return dict(leaves={"x": x}, out=(m * m).sum(), inter=[("m", m)])
c_("mean(0)", "m = x.mean(0); out = (m*m).sum()", mk)

def mk():
    x = T([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]); m = x.mean(1, keepdim=True); return dict(leaves={"x": x}, out=(x - m).pow(2).sum(), inter=[("m", m)])
c_("mean(1, keepdim=True): centered squares", "m = x.mean(1, keepdim=True); out = (x - m).pow(2).sum()", mk)

def mk():
    x = T([[[1.0, 2.0], [3.0, 4.0]], [[5.0, 6.0], [7.0, 8.0]]]); m = x.mean((0, 2), keepdim=True); return dict(leaves={"x": x}, out=(m * T([[[1.0], [10.0]]], False)).sum(), inter=[("m", m)])
c_("mean over dims (0,2) keepdim", "x (2,2,2); m = x.mean((0,2), keepdim=True); out = (m*[[[1],[10]]]).sum()", mk)

def mk():
    x = T([1.0, 3.0, 3.0]); return dict(leaves={"x": x}, out=x.max())
c_("max() with a tie: gradient is split evenly", "x = [1,3,3]; out = x.max()", mk)

def mk():
    x = T([1.0, 3.0, 3.0]); r = x.max(0); return dict(leaves={"x": x}, out=r.values, inter=[])
def mk2():
    x = T([1.0, 3.0, 3.0]); r = x.max(0)
    return x, r
case("max(0) with a tie: values, indices, gradient goes to the index", lambda L: (
    lambda x_r: (L.append("x = [1,3,3]; v, i = x.max(0); v.backward()"),
                 L.append(f"values {rep(x_r[1].values.detach())}, indices {rep(x_r[1].indices)}"),
                 x_r[1].values.backward(), L.append(f"x.grad = {rep(x_r[0].grad)}")))(mk2()))

def mk():
    x = T([3.0, 1.0, 1.0]); return dict(leaves={"x": x}, out=x.min())
c_("min() with a tie", "x = [3,1,1]; out = x.min()", mk)

def mk():
    x = T([[1.0, 5.0, 5.0], [7.0, 2.0, 7.0]]); v = x.max(1).values; return dict(leaves={"x": x}, out=(v * T([1.0, 10.0], False)).sum())
def body_maxdim(L):
    x = T([[1.0, 5.0, 5.0], [7.0, 2.0, 7.0]]); r = x.max(1)
    L.append("x = [[1,5,5],[7,2,7]]; r = x.max(1); (r.values * [1,10]).sum().backward()")
    L.append(f"values {rep(r.values.detach())}, indices {rep(r.indices)}")
    (r.values * T([1.0, 10.0], False)).sum().backward()
    L.append(f"x.grad = {rep(x.grad)}")
    x.grad = None
    r = x.max(1, keepdim=True)
    L.append(f"keepdim: values {rep(r.values.detach())} shape {list(r.values.shape)}, indices {rep(r.indices)}")
    r.values.sum().backward()
    L.append(f"r.values.sum().backward(): x.grad = {rep(x.grad)}")
case("max(dim) with ties in rows", body_maxdim)

def body_mindim(L):
    x = T([[4.0, 1.0, 1.0], [0.0, 2.0, 0.0]]); r = x.min(1)
    L.append("x = [[4,1,1],[0,2,0]]; r = x.min(1); r.values.sum().backward()")
    L.append(f"values {rep(r.values.detach())}, indices {rep(r.indices)}")
    r.values.sum().backward()
    L.append(f"x.grad = {rep(x.grad)}")
    x2 = T([[4.0, 1.0, 1.0], [0.0, 2.0, 0.0]])
    x2.min().backward()
    L.append(f"x.min() over all (value {x2.min().item()!r}): x.grad = {rep(x2.grad)}")
    x3 = T([2.0, 2.0, 2.0, 2.0])
    x3.max().backward()
    L.append(f"[2,2,2,2].max(): grad = {rep(x3.grad)}")
case("min(dim) ties and min() over all", body_mindim)

# views
def mk():
    x = T([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]); return dict(leaves={"x": x}, out=(x[0] * 2).sum())
c_("select x[0]*2", "out = (x[0]*2).sum()", mk)

def mk():
    x = T([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]); return dict(leaves={"x": x}, out=x[:, 1:].sum())
c_("slice x[:, 1:].sum()", "out = x[:, 1:].sum()", mk)

def mk():
    x = T([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]); s = x[:, ::2]; return dict(leaves={"x": x}, out=(s * s).sum(), inter=[("s", s)])
c_("strided slice x[:, ::2]", "s = x[:, ::2]; out = (s*s).sum()", mk)

def mk():
    x = T([1.0, 2.0, 3.0, 4.0, 5.0]); return dict(leaves={"x": x}, out=(x[1:3] * T([10.0, 20.0], False)).sum())
c_("slice x[1:3]", "out = (x[1:3] * [10,20]).sum()", mk)

def mk():
    x = T([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]); w = T([[1.0, 0.5], [2.0, -1.0]]); return dict(leaves={"x": x, "w": w}, out=(x.t() @ w).sum())
c_("x.t() @ w", "x (2,3), w (2,2); out = (x.t() @ w).sum()", mk)

def mk():
    x = T([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]); return dict(leaves={"x": x}, out=(x.transpose(0, 1) * T([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], False)).sum())
c_("transpose weighted", "out = (x.transpose(0,1) * [[1,2],[3,4],[5,6]]).sum()", mk)

def mk():
    x = T([[[1.0, 2.0], [3.0, 4.0]], [[5.0, 6.0], [7.0, 8.0]]]); p = x.permute(2, 0, 1); return dict(leaves={"x": x}, out=(p * torch.arange(8.0, dtype=D).view(2, 2, 2)).sum())
c_("permute(2,0,1) weighted by arange", "x (2,2,2); out = (x.permute(2,0,1) * arange(8).view(2,2,2)).sum()", mk)

def mk():
    x = T([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]); v = x.view(3, 2); return dict(leaves={"x": x}, out=(v * T([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], False)).sum())
c_("view(3,2) weighted", "out = (x.view(3,2) * [[1,2],[3,4],[5,6]]).sum()", mk)

def mk():
    x = T([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]); r = x.t().reshape(6); return dict(leaves={"x": x}, out=(r * torch.arange(6.0, dtype=D)).sum(), inter=[("r", r)])
c_("non-viewable reshape x.t().reshape(6)", "out = (x.t().reshape(6) * arange(6)).sum()", mk)

def mk():
    x = T([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]); r = x.flatten(); return dict(leaves={"x": x}, out=(r * torch.arange(6.0, dtype=D)).sum())
c_("flatten weighted", "out = (x.flatten() * arange(6)).sum()", mk)

def mk():
    x = T([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]); return dict(leaves={"x": x}, out=(x.narrow(1, 1, 2) * T([[1.0, 2.0], [3.0, 4.0]], False)).sum())
c_("narrow(1,1,2)", "out = (x.narrow(1,1,2) * [[1,2],[3,4]]).sum()", mk)

def mk():
    x = T([1.0, 2.0, 3.0]); e = x.expand(4, 3); return dict(leaves={"x": x}, out=e.sum())
c_("expand then sum", "out = x.expand(4,3).sum()", mk)

def mk():
    x = T([[1.0], [2.0]]); e = x.expand(2, 3); return dict(leaves={"x": x}, out=(e * T([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], False)).sum())
c_("expand (2,1)->(2,3) weighted", "out = (x.expand(2,3) * [[1,2,3],[4,5,6]]).sum()", mk)

def mk():
    x = T([[[1.0, 2.0, 3.0]]]); s = x.squeeze(); return dict(leaves={"x": x}, out=(s * T([1.0, 2.0, 3.0], False)).sum())
c_("squeeze() of (1,1,3)", "out = (x.squeeze() * [1,2,3]).sum()", mk)

def mk():
    x = T([[1.0, 2.0]]); s = x.squeeze(0).unsqueeze(1); return dict(leaves={"x": x}, out=(s * T([[3.0], [4.0]], False)).sum(), inter=[("s", s)])
c_("squeeze(0) then unsqueeze(1)", "x (1,2); s = x.squeeze(0).unsqueeze(1); out = (s * [[3],[4]]).sum()", mk)

def mk():
    x = T([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]); return dict(leaves={"x": x}, out=(x.diagonal() * T([1.0, 2.0, 3.0], False)).sum())
c_("diagonal()", "x 3x3; out = (x.diagonal() * [1,2,3]).sum()", mk)

def mk():
    x = T([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]); d = x.diagonal(1); return dict(leaves={"x": x}, out=(d * T([1.0, 2.0], False)).sum(), inter=[("d", d)])
c_("diagonal(offset=1)", "out = (x.diagonal(1) * [1,2]).sum()", mk)

def mk():
    x = T([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]); d = x.diagonal(-1); return dict(leaves={"x": x}, out=(d * 5).sum(), inter=[("d", d)])
c_("diagonal(offset=-1) of 2x3", "out = (x.diagonal(-1) * 5).sum()", mk)

def mk():
    x = T([1.0, 2.0, 3.0, 4.0]); a = x.as_strided((3, 2), (1, 1)); return dict(leaves={"x": x}, out=a.sum(), inter=[("a", a)])
c_("as_strided with overlap: (3,2) strides (1,1) of 4 elements", "a = x.as_strided((3,2),(1,1)); out = a.sum()", mk)

def mk():
    x = T([1.0, 2.0, 3.0, 4.0]); a = x.as_strided((2, 2), (1, 2), 0); return dict(leaves={"x": x}, out=(a * T([[1.0, 2.0], [3.0, 4.0]], False)).sum())
c_("as_strided (2,2) strides (1,2), weighted", "out = (x.as_strided((2,2),(1,2)) * [[1,2],[3,4]]).sum()", mk)

def mk():
    x = T([1.0, 2.0, 3.0, 4.0, 5.0]); a = x.as_strided((2, 2), (2, 1), 1); return dict(leaves={"x": x}, out=(a * a).sum())
c_("as_strided with storage_offset 1", "a = x.as_strided((2,2),(2,1),1); out = (a*a).sum()", mk)

def mk():
    x = T([[1.0, 2.0], [3.0, 4.0]]); a, b = x.unbind(0); return dict(leaves={"x": x}, out=(a * b).sum(), inter=[("a", a)])
c_("unbind then combine a*b", "a, b = x.unbind(0); out = (a*b).sum()", mk)

def mk():
    x = T([[1.0, 2.0], [3.0, 4.0]]); a, b = x.unbind(1); return dict(leaves={"x": x}, out=(a * 3).sum())
c_("unbind(1), only one output used", "a, b = x.unbind(1); out = (a*3).sum()", mk)

def mk():
    x = T([[1.0, 2.0], [3.0, 4.0]]); c = x.clone(); return dict(leaves={"x": x}, out=(c * c).sum())
c_("clone", "c = x.clone(); out = (c*c).sum()", mk)

def mk():
    x = T([[1.0, 2.0], [3.0, 4.0]]); c = x.t().contiguous(); return dict(leaves={"x": x}, out=(c * T([[1.0, 2.0], [3.0, 4.0]], False)).sum())
c_("t().contiguous() weighted", "out = (x.t().contiguous() * [[1,2],[3,4]]).sum()", mk)

def mk():
    x = T([[[1.0, 2.0], [3.0, 4.0]], [[5.0, 6.0], [7.0, 8.0]]]); m = x.movedim(0, 2); return dict(leaves={"x": x}, out=(m * torch.arange(8.0, dtype=D).view(2, 2, 2)).sum())
c_("movedim(0,2) weighted", "out = (x.movedim(0,2) * arange(8).view(2,2,2)).sum()", mk)

# constants, broadcasting
def mk():
    x = T([1.0, 2.0]); c = torch.tensor([3.0, 4.0], dtype=D); return dict(leaves={"x": x, "c": c}, out=(x * c + c).sum())
c_("constant tensor without grad", "c = [3,4] (no grad); out = (x*c + c).sum()", mk)

def mk():
    a = T([[1.0], [2.0], [3.0]]); b = T([10.0, 20.0, 30.0, 40.0]); return dict(leaves={"a": a, "b": b}, out=(a + b).sum())
c_("broadcast add (3,1) + (4,)", "out = (a + b).sum()", mk)

def mk():
    a = T([[1.0], [2.0], [3.0]]); b = T([10.0, 20.0, 30.0, 40.0]); return dict(leaves={"a": a, "b": b}, out=(a * b).sum())
c_("broadcast mul (3,1) * (4,)", "out = (a * b).sum()", mk)

def mk():
    a = T([[1.0, 2.0], [3.0, 4.0]]); b = T([[2.0, 4.0]]); return dict(leaves={"a": a, "b": b}, out=(a / b).sum())
c_("broadcast div (2,2) / (1,2)", "out = (a / b).sum()", mk)

def mk():
    a = T([[1.0, 2.0], [3.0, 4.0]]); b = T(2.0); return dict(leaves={"a": a, "b": b}, out=(a.pow(b)).sum())
c_("broadcast pow (2,2) ** 0-d tensor", "b = tensor(2.); out = a.pow(b).sum()", mk)

def mk():
    a = T([[1.0, 2.0], [3.0, 4.0]]); b = T([5.0]); return dict(leaves={"a": a, "b": b}, out=(a - b).sum())
c_("broadcast sub (2,2) - (1,)", "out = (a - b).sum()", mk)

def mk():
    x = T([1.0, 2.0, 3.0]); y = x * x; return dict(leaves={"x": x}, out=y, grad=torch.tensor([1.0, 0.1, 0.01], dtype=D))
c_("non-scalar backward with gradient", "y = x*x; y.backward(gradient=[1, 0.1, 0.01])", mk)

def mk():
    x = T([[1.0, 2.0], [3.0, 4.0]]); y = x.exp(); return dict(leaves={"x": x}, out=y, grad=torch.tensor([[1.0, 2.0], [0.0, -1.0]], dtype=D))
c_("non-scalar 2x2 backward with gradient", "y = x.exp(); y.backward([[1,2],[0,-1]])", mk)

# matmul all ranks
def mmcase(title, sa, sb, wsh=None):
    def mk():
        na = 1
        for s in sa: na *= s
        nb = 1
        for s in sb: nb *= s
        a = (torch.arange(1.0, na + 1, dtype=D) / 4).view(*sa).requires_grad_()
        b = (torch.arange(1.0, nb + 1, dtype=D) / 8 - 1).view(*sb).requires_grad_()
        y = a @ b
        wt = torch.arange(1.0, y.numel() + 1, dtype=D).view(y.shape)
        return dict(leaves={"a": a, "b": b}, out=(y * wt).sum(), inter=[("y", y)])
    c_(f"matmul {title}", f"a = (arange(1, numel+1)/4).view{tuple(sa)}; b = (arange(1, numel+1)/8 - 1).view{tuple(sb)}; y = a@b; out = (y * arange(1, y.numel()+1).view(y.shape)).sum()", mk)

mmcase("1D@1D", [3], [3])
mmcase("2D@1D", [2, 3], [3])
mmcase("1D@2D", [3], [3, 2])
mmcase("2D@2D", [2, 3], [3, 2])
mmcase("3D@3D", [2, 2, 3], [2, 3, 2])
mmcase("3D@2D", [2, 2, 3], [3, 2])
mmcase("2D@3D", [2, 3], [2, 3, 2])
mmcase("4D@3D broadcast batch", [2, 1, 2, 3], [3, 3, 2])
mmcase("3D@1D", [2, 2, 3], [3])
mmcase("1D@3D", [3], [2, 3, 2])

def mk():
    S = torch.sparse_coo_tensor(torch.tensor([[0, 1, 1], [2, 0, 2]]), torch.tensor([3.0, 4.0, 5.0], dtype=D), (2, 3))
    Dd = torch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], dtype=D, requires_grad=True)
    y = torch.sparse.mm(S, Dd)
    return dict(leaves={"D": Dd}, out=(y * T([[1.0, 2.0], [3.0, 4.0]], False)).sum(), inter=[("y", y)])
c_("torch.sparse.mm(S, D) dense gradient", "S = sparse (2,3) indices [[0,1,1],[2,0,2]] values [3,4,5]; y = torch.sparse.mm(S, D); out = (y * [[1,2],[3,4]]).sum()", mk)

def mk():
    S = torch.sparse_coo_tensor(torch.tensor([[1, 0, 1], [0, 2, 0]]), torch.tensor([1.0, 2.0, 3.0], dtype=D), (2, 3))
    Dd = torch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], dtype=D, requires_grad=True)
    y = torch.sparse.mm(S, Dd)
    return dict(leaves={"D": Dd}, out=y.sum())
c_("sparse.mm with an uncoalesced S (duplicate (1,0))", "S indices [[1,0,1],[0,2,0]] values [1,2,3] (uncoalesced); out = torch.sparse.mm(S, D).sum()", mk)

# chain of 10 ops
def mk():
    x = T([0.5, -1.0, 2.0]); w = T([1.5, 0.25, -0.5])
    a = x * w          # 1
    b = a + 1          # 2
    c = b.exp()        # 3
    d = c / (w * w + 1)  # 4,5,6
    e = d.sqrt()       # 7
    f = e - x          # 8
    g = f.tanh()       # 9
    out = g.pow(2).sum()  # 10, 11
    return dict(leaves={"x": x, "w": w}, out=out, inter=[("b", b), ("f", f)])
c_("chain of 10 mixed ops", "a=x*w; b=a+1; c=b.exp(); d=c/(w*w+1); e=d.sqrt(); f=e-x; g=f.tanh(); out=g.pow(2).sum()", mk)

def mk():
    x = T([0.3, -0.7])
    y = x
    for i in range(10):
        y = (y * 1.5 + 0.1).sigmoid() if i % 2 == 0 else y.relu() - 0.2 * y
    return dict(leaves={"x": x}, out=y.sum())
c_("chain of 10 alternating sigmoid/relu blocks", "y = x; for i in range(10): y = (y*1.5 + 0.1).sigmoid() if i%2==0 else y.relu() - 0.2*y; out = y.sum()", mk)

# accumulation & sharing
def body(L):
    x = T([1.0, 2.0, 3.0])
    y1 = (x * x).sum(); y2 = (x * 3).sum()
    L.append("y1 = (x*x).sum(); y2 = (x*3).sum(); y1.backward(); y2.backward()")
    y1.backward(); L.append(f"after y1: x.grad = {rep(x.grad)}")
    y2.backward(); L.append(f"after y2: x.grad = {rep(x.grad)}")
case("two graphs sharing a leaf, grads accumulate", body)

def body(L):
    x = T([1.0, 2.0, 3.0])
    y = (x * x).sum()
    L.append("y = (x*x).sum(); y.backward(retain_graph=True) x2; x.grad.zero_(); y.backward()")
    y.backward(retain_graph=True); L.append(f"1st: x.grad = {rep(x.grad)}")
    g = x.grad
    y.backward(retain_graph=True); L.append(f"2nd: x.grad = {rep(x.grad)}  (same tensor object as after 1st: {x.grad is g})")
    x.grad.zero_(); L.append(f"x.grad.zero_(): x.grad = {rep(x.grad)}")
    y.backward(); L.append(f"3rd: x.grad = {rep(x.grad)}  (same object: {x.grad is g})")
    x.grad = None
    (x * 5).sum().backward(); L.append(f"x.grad = None; (x*5).sum().backward(): x.grad = {rep(x.grad)}")
case("accumulation over retain_graph backwards, zero_, third", body)

def body(L):
    x = T([1.0, 2.0]); w = T([3.0, 4.0])
    y = x * w
    z1 = y.sum(); z2 = (y * y).sum()
    L.append("y = x*w; z1 = y.sum(); z2 = (y*y).sum(); (z1 + z2).backward()")
    (z1 + z2).backward()
    L.append(f"x.grad = {rep(x.grad)}, w.grad = {rep(w.grad)}")
case("diamond: shared intermediate", body)

def body(L):
    x = T([2.0, 3.0])
    y = x.exp()
    y.retain_grad()
    z = y * y + y
    z.sum().backward()
    L.append("y = x.exp(); y.retain_grad(); z = y*y + y; z.sum().backward()")
    L.append(f"y.grad = {rep(y.grad)}, x.grad = {rep(x.grad)}, x.grad_shape {list(x.grad.shape)}")
case("retain_grad on an intermediate used twice", body)

def body(L):
    x = T([1.0, 2.0, 3.0])
    y = x * 2
    y.retain_grad()
    y.sum().backward(retain_graph=True)
    y.sum().backward()
    L.append("y = x*2; y.retain_grad(); y.sum().backward(retain_graph=True); y.sum().backward() (new SumBackward each time)")
    L.append(f"y.grad = {rep(y.grad)} (retained grads accumulate too), x.grad = {rep(x.grad)}")
case("retain_grad accumulates", body)

def body(L):
    x = T([1.0, -1.0])
    y = x * 2
    y.add_(1); y.mul_(3); y.neg_()
    y.sum().backward()
    L.append("y = x*2; y.add_(1); y.mul_(3); y.neg_(); y.sum().backward()")
    L.append(f"x.grad = {rep(x.grad)}")
    x2 = T([0.5, -1.0])
    y2 = x2 * 2
    y2.exp_()
    y2.relu_()
    try:
        y2.sum().backward()
        L.append(f"x=[0.5,-1]; y = x*2; y.exp_(); y.relu_(); y.sum().backward(): x.grad = {rep(x2.grad)}")
    except RuntimeError as e:
        L.append(f"x=[0.5,-1]; y = x*2; y.exp_(); y.relu_(); y.sum().backward() FAILS (exp_ saved its result, relu_ overwrote it):")
        L.append(f"  RuntimeError: {e}")
    x3 = T([0.5, -1.0])
    y3 = x3 * 1
    y3.relu_()
    y3.sum().backward()
    L.append(f"x=[0.5,-1]; y = x*1; y.relu_(); backward: x.grad = {rep(x3.grad)}")
case("in-place ops on non-leaves: grads", body)

def body(L):
    x = T([1.0, 2.0, 3.0])
    y = x * 2
    y[0:2].mul_(10)
    y.sum().backward()
    L.append("y = x*2; y[0:2].mul_(10); y.sum().backward()")
    L.append(f"y = {rep(y.detach())}, x.grad = {rep(x.grad)}")
case("in-place on a view of a non-leaf (CopySlices)", body)

def body(L):
    x = T([1.0, 2.0])
    d = x.detach()
    y = (x * d).sum()
    y.backward()
    L.append("d = x.detach(); y = (x*d).sum(); y.backward()")
    L.append(f"x.grad = {rep(x.grad)} (d is a constant)")
case("detach as constant", body)

def body(L):
    x = T([1.0, 2.0])
    with torch.no_grad():
        c = x * 3
    y = (x * c).sum()
    y.backward()
    L.append("with no_grad: c = x*3; y = (x*c).sum(); y.backward()")
    L.append(f"c.requires_grad {c.requires_grad}; x.grad = {rep(x.grad)}")
case("no_grad intermediate as constant", body)

def body(L):
    x = T([1.0, 2.0, 3.0])
    y = x[0] * x[1] * x[2]
    y.backward()
    L.append("y = x[0]*x[1]*x[2]; y.backward()")
    L.append(f"y = {rep(y.detach())}, x.grad = {rep(x.grad)}")
case("product of selects of one leaf", body)

def body(L):
    x = T([1.0, 2.0, 3.0])
    y = x.sum()
    y.backward()
    L.append(f"x.sum().backward(): x.grad = {rep(x.grad)} (ones), dtype {x.grad.dtype}, is_leaf {x.grad.is_leaf}, requires_grad {x.grad.requires_grad}, grad_fn {x.grad.grad_fn}")
    L.append(f"x.grad.stride() {x.grad.stride()}")
    xt = T([[1.0, 2.0], [3.0, 4.0]]).t().detach().requires_grad_()
    (xt * 2).sum().backward()
    L.append(f"leaf that is a transposed view (strides {xt.stride()}): grad strides {xt.grad.stride()}")
    xe = T([[1.0, 2.0, 3.0]])
    xe.expand(4, 3).sum().backward()
    L.append(f"xe (1,3): xe.expand(4,3).sum().backward(): grad {rep(xe.grad)} stride {xe.grad.stride()}")
case("the gradient of a sum, grad tensor properties", body)

print()
print(f"Total numeric cases: {NCASES[0]}")

# ---------------------------------------------------------------------------
h("e) Grad mode, .grad before backward, zero_grad defaults")
L = []
x = torch.ones(3, dtype=D, requires_grad=True)
L.append(f"x = ones(3, requires_grad=True): x.grad = {x.grad}, x.grad_fn = {x.grad_fn}, x.is_leaf = {x.is_leaf}")
L.append(f"torch.is_grad_enabled() = {torch.is_grad_enabled()}")
with torch.no_grad():
    y = x * 2
    L.append(f"with torch.no_grad(): y = x*2 -> requires_grad {y.requires_grad}, grad_fn {y.grad_fn}, is_leaf {y.is_leaf}; is_grad_enabled {torch.is_grad_enabled()}")
    v = x.view(3)
    L.append(f"  v = x.view(3) under no_grad: requires_grad {v.requires_grad}, grad_fn {v.grad_fn}, is_leaf {v.is_leaf}, _is_view {v._is_view()}")
    s = x[0]
    L.append(f"  x[0] under no_grad: requires_grad {s.requires_grad}, grad_fn {s.grad_fn}")
    with torch.enable_grad():
        y2 = x * 2
        L.append(f"  nested enable_grad: y2 = x*2 -> requires_grad {y2.requires_grad}, grad_fn {tn(y2.grad_fn)}")
    L.append(f"  back in no_grad: is_grad_enabled {torch.is_grad_enabled()}")
    with torch.set_grad_enabled(True):
        L.append(f"  set_grad_enabled(True) inside no_grad: is_grad_enabled {torch.is_grad_enabled()}, (x*2).grad_fn {tn((x * 2).grad_fn)}")
    L.append(f"  after it: is_grad_enabled {torch.is_grad_enabled()}")
L.append(f"after no_grad block: is_grad_enabled {torch.is_grad_enabled()}")
with torch.set_grad_enabled(False):
    L.append(f"set_grad_enabled(False): (x*2).requires_grad {(x * 2).requires_grad}")
    with torch.set_grad_enabled(False):
        L.append(f"  nested set_grad_enabled(False): {torch.is_grad_enabled()}")
    L.append(f"  after inner exit: {torch.is_grad_enabled()} (restores the previous state, not True)")
L.append(f"after: {torch.is_grad_enabled()}")
torch.set_grad_enabled(False)
L.append(f"torch.set_grad_enabled(False) as a plain call: is_grad_enabled {torch.is_grad_enabled()}")
torch.set_grad_enabled(True)
L.append(f"torch.set_grad_enabled(True): is_grad_enabled {torch.is_grad_enabled()}")
with torch.no_grad():
    z = torch.ones(2, requires_grad=True)
    L.append(f"factory with requires_grad=True inside no_grad: requires_grad {z.requires_grad}, is_leaf {z.is_leaf}")
    c = torch.ones(2)
    c.requires_grad_()
    L.append(f"requires_grad_() inside no_grad on a fresh leaf: {c.requires_grad}")
    w = x * 2
    try:
        w.sum().backward()
    except RuntimeError as e:
        L.append(f"backward inside no_grad of a no-grad result: RuntimeError: {e}")
yy = (x * x).sum()
with torch.no_grad():
    yy.backward()
L.append(f"graph built outside, backward() called inside no_grad: works, x.grad = {rep(x.grad)}")
x.grad = None
with torch.inference_mode():
    ii = x * 2
    L.append(f"inference_mode: (x*2).requires_grad {ii.requires_grad}, is_inference {ii.is_inference()}")
code(L)

print("zero_grad (read in the installed source):")
print()
import inspect  # noqa
src_o = inspect.getsource(torch.optim.Optimizer.zero_grad).splitlines()[0].strip()
src_m = inspect.getsource(torch.nn.Module.zero_grad).splitlines()[0].strip()
print(f"- `torch/optim/optimizer.py`: `{src_o}`")
print(f"- `torch/nn/modules/module.py`: `{src_m}`")
print("- So in 1.13 the default is `set_to_none=False`: grads are zeroed in place "
      "(after `detach_()` if grad has a grad_fn, else `requires_grad_(False)`), and grads "
      "that are None stay None. (It became True in 2.0.)")
p = torch.nn.Parameter(torch.ones(2, dtype=D))
opt = torch.optim.SGD([p], lr=0.1)
L = [f"p = Parameter(ones(2)); p.grad before backward: {p.grad}"]
opt.zero_grad()
L.append(f"opt.zero_grad() with p.grad None: p.grad {p.grad}")
(p * 3).sum().backward()
g = p.grad
opt.zero_grad()
L.append(f"after backward then opt.zero_grad(): p.grad {rep(p.grad)} (same tensor object: {p.grad is g})")
opt.zero_grad(set_to_none=True)
L.append(f"opt.zero_grad(set_to_none=True): p.grad {p.grad}")
L.append(f"repr(Parameter): {p!r}")
L.append(f"Parameter is_leaf {p.is_leaf}, requires_grad {p.requires_grad}")
code(L)
sys.stdout.flush()

# ---------------------------------------------------------------------------
h("f) Timing (informative only; not a test)")
import time  # noqa


def bench(N, grad):
    x = torch.ones(16, dtype=torch.float32, requires_grad=True)
    t0 = time.perf_counter()
    if grad:
        y = x
        for i in range(N):
            y = y * 1.0001 if i % 2 == 0 else y + 0.0001
        y.sum().backward()
    else:
        with torch.no_grad():
            y = x
            for i in range(N):
                y = y * 1.0001 if i % 2 == 0 else y + 0.0001
    return (time.perf_counter() - t0) / N * 1e9


def fwd_only(N):
    x = torch.ones(16, dtype=torch.float32, requires_grad=True)
    t0 = time.perf_counter()
    y = x
    for i in range(N):
        y = y * 1.0001 if i % 2 == 0 else y + 0.0001
    t1 = time.perf_counter()
    y.sum().backward()
    t2 = time.perf_counter()
    return (t1 - t0) / N * 1e9, (t2 - t1) / N * 1e9


N = 100000
ag = min(bench(N, True) for _ in range(3))
ng = min(bench(N, False) for _ in range(3))
fb = min((fwd_only(N) for _ in range(3)), key=lambda t: t[0] + t[1])
code([f"chain y = y*1.0001 / y + 0.0001 alternating, N={N}, 16-element float32, best of 3, "
      f"{torch.get_num_threads()} thread(s)",
      f"forward with grad + backward: {ag:.1f} ns per node",
      f"  of which forward {fb[0]:.1f} ns/node, backward {fb[1]:.1f} ns/node",
      f"forward under no_grad:        {ng:.1f} ns per node",
      f"ratio grad/no_grad: {ag / ng:.2f}"])
print("Machine-dependent; `facts/bench_torch_ch05.py` prints the same two figures for `make bench`.")

# ---------------------------------------------------------------------------
h("g) Traversing a grad_fn chain of powers (what_is_grad_and_gradfn.py style)")
x = torch.tensor([1.0, 2.0, 3.0], dtype=D, requires_grad=True)
y = x ** 2
z = y ** 3
out = z.sum()
L = ["x = tensor([1.,2.,3.], float64, requires_grad=True); y = x**2; z = y**3; out = z.sum()"]
fn = out.grad_fn
while fn is not None:
    L.append(f"{type(fn).__name__}  next_functions={nf(fn)}")
    attrs = sorted(a for a in dir(fn) if a.startswith("_saved_"))
    for a in attrs:
        try:
            v = getattr(fn, a)
            L.append(f"    {a} = {rep(v) if isinstance(v, torch.Tensor) else repr(v)}")
        except Exception as e:  # noqa
            L.append(f"    {a}: {type(e).__name__}")
    fn = fn.next_functions[0][0] if fn.next_functions else None
out.backward()
L.append(f"out = {rep(out.detach())}; x.grad = {rep(x.grad)}  (d/dx x^6 = 6x^5)")
try:
    z.grad_fn._saved_self
    L.append("after backward, z.grad_fn._saved_self still readable")
except RuntimeError as e:
    L.append(f"after backward, z.grad_fn._saved_self -> RuntimeError: {str(e)[:60]}... (the full 'backward through the graph a second time' text)")
m2 = (x.detach().requires_grad_() * 2).grad_fn
L.append(f"(x*2).grad_fn._saved_other = {m2._saved_other!r} (the Python number, wrapped as a 0-d tensor; "
         f"_saved_self = {m2._saved_self!r} since the other operand needs no grad)")
L.append(f"z.grad_fn._saved_exponent after backward (a number, not freed): {z.grad_fn._saved_exponent!r}")
code(L)
for expr, t in [("x ** 2", x ** 2), ("x.exp()", x.exp()), ("x * w(leaf)", x * torch.ones(3, dtype=D, requires_grad=True)),
                ("x * 2", x * 2), ("x + w", x + torch.ones(3, dtype=D, requires_grad=True)),
                ("x.sum()", x.sum()), ("x.mean()", x.mean()), ("x.sigmoid()", x.sigmoid()), ("x.relu()", x.relu()),
                ("x.tanh()", x.tanh()), ("x.sqrt()", x.sqrt()), ("x.log()", x.log()), ("x / w", x / torch.ones(3, dtype=D, requires_grad=True)),
                ("x.max()", x.max()), ("x.view(3,1)", x.view(3, 1)), ("x.expand(2,3)", x.expand(2, 3))]:
    print(f"- `{expr}`: `{type(t.grad_fn).__name__}` saved attributes: "
          f"{sorted(a for a in dir(t.grad_fn) if a.startswith('_saved_'))}")
