#!/usr/bin/env python3
"""The PyTorch 1.13 values of tests/check_ch06_softmax.h that FACTS.md
(tests/pytorch/ch06_facts.py) does not record: run it with
/usr/bin/python3 and compare with the constants in the header."""
import math
import torch

def r(t):
    return [repr(v) for v in t.flatten().tolist()]

def show(label, t):
    print(label, t.dtype, list(t.shape), list(t.stride()), r(t))

torch.set_printoptions(precision=17)
A = torch.tensor([[1.0, 2.0, 3.0], [-1.0, 0.5, 4.0]], dtype=torch.float64)
W = torch.tensor([[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]], dtype=torch.float64)

# 1. the backward kernels on a transposed gradient and output, along dim 0.
#    PyTorch 1.13's _softmax_backward_data reads a non-contiguous output as
#    if it were contiguous (sbd_t_bug differs from sbd_t); the tests expect
#    what it gives for the same output made contiguous.
y = torch.softmax(A.t(), 0)
show('sbd_t', torch._softmax_backward_data(W.t(), y.contiguous(), 0, torch.float64))
show('sbd_t_bug', torch._softmax_backward_data(W.t(), y.t().contiguous().t(), 0, torch.float64))
z = torch.log_softmax(A.t(), 0)
show('lsbd_t', torch._log_softmax_backward_data(W.t(), z.t().contiguous().t(), 0, torch.float64))
# 0-D
show('sbd_0d', torch._softmax_backward_data(torch.tensor(2.0), torch.tensor(1.0), 0, torch.float32))
show('lsbd_0d', torch._log_softmax_backward_data(torch.tensor(2.0), torch.tensor(0.0), -1, torch.float32))
# empty
show('sbd_empty', torch._softmax_backward_data(torch.ones(0, 2), torch.ones(0, 2), 1, torch.float32))
show('sbd_empty_long', torch._softmax_backward_data(torch.ones(0, dtype=torch.long), torch.ones(0, dtype=torch.long), 0, torch.long))
for name, f in [('sbd', torch._softmax_backward_data), ('lsbd', torch._log_softmax_backward_data)]:
    for d in [0, 1]:
        try:
            f(torch.ones(3, 2, dtype=torch.long), torch.ones(3, 2, dtype=torch.long), d, torch.long)
        except RuntimeError as e:
            print(name, 'long dim', d, str(e))
    try:
        f(torch.ones(3, 2), torch.ones(3, 2, dtype=torch.float64), 0, torch.float32)
    except RuntimeError as e:
        print(name, 'mixed', str(e))
    try:
        f(torch.ones(3, 2), torch.ones(3, 2), 2, torch.float32)
    except IndexError as e:
        print(name, 'dim', str(e))
try:
    torch._softmax_backward_data(torch.ones(3, 2), torch.ones(2, 3), 0, torch.float32)
except RuntimeError as e:
    print('sbd size', str(e))

# 2. float32 rows summed in eight lanes along the last dimension, in order
#    along another: g = [1e8, 1 x 7, -1e8, 1 x 7]; in lanes the ones survive
#    (sum 14), in order the first seven vanish into 1e8 (sum 7).
g = torch.ones(16)
g[0], g[8] = 1e8, -1e8
show('lanes_log', torch._log_softmax_backward_data(g, torch.zeros(16), 0, torch.float32))
show('order_log', torch._log_softmax_backward_data(g.view(16, 1), torch.zeros(16, 1), 0, torch.float32))
show('lanes_sm', torch._softmax_backward_data(g, torch.ones(16), 0, torch.float32))
show('order_sm', torch._softmax_backward_data(g.view(16, 1), torch.ones(16, 1), 0, torch.float32))

# 3. a long float32 row: x_k = (float)(10 sin k), k < 10000
x = torch.tensor([10 * math.sin(k) for k in range(10000)], dtype=torch.float64).float()
s = torch.softmax(x, 0)
ls = torch.log_softmax(x, 0)
k = int(x.argmax())
print('long argmax', k)
print('long softmax', r(s[[0, 1234, k]]))
print('long log_softmax', r(ls[[0, 1234, k]]))
print('long logsumexp', repr(torch.logsumexp(x, 0).item()))

# infinities along dim 0 of a transpose (the non-last-dim kernel)
nan, inf = float('nan'), float('inf')
show('inf_t', torch.softmax(torch.tensor([[-inf, 1.0, nan], [-inf, 2.0, 0.0]], dtype=torch.float64).t(), 0))

# 4. the overflow row of the chapter
z = torch.tensor([1., 2., 88., 89.])
show('over_softmax', torch.softmax(z, 0))
show('over_log_softmax', torch.log_softmax(z, 0))
show('over_naive', z.exp() / z.exp().sum())
show('three88', torch.softmax(torch.tensor([88., 88., 88.]), 0))
show('ls0_200', torch.log_softmax(torch.tensor([0., 200.]), 0))
show('order', torch.log_softmax(torch.tensor([10000., 10000.5]), 0))

# 5. autograd: a saved result modified in place, and a second backward
x = A.clone().requires_grad_()
y = torch.softmax(x, 1)
y.mul_(2)
try:
    y.sum().backward()
except RuntimeError as e:
    print('modified', str(e))
x = A.clone().requires_grad_()
y = torch.logsumexp(x, (1,))
y.sum().backward(retain_graph=False)
try:
    y.sum().backward()
except RuntimeError as e:
    print('twice', str(e))
# gradients of logsumexp over (0, 2) without keepdim, and of a 0-D input
B = (torch.arange(24, dtype=torch.float64) * 0.25 - 2.0).view(2, 3, 4)
B[1, 2, 3] = 5.0
x = B.clone().requires_grad_()
y = torch.logsumexp(x, (0, 2))
y.backward(torch.tensor([1.0, -2.0, 0.5], dtype=torch.float64))
show('lse02 grad', x.grad)
x = torch.tensor(3.5, dtype=torch.float64, requires_grad=True)
y = torch.logsumexp(x, (0,))
y.backward()
show('lse0d grad', x.grad)
x = torch.tensor(3.5, dtype=torch.float64, requires_grad=True)
y = torch.softmax(x, 0)
y.backward(torch.tensor(2.0, dtype=torch.float64))
show('sm0d grad', x.grad)
# float32 gradient through a transposed input
x = A.float().t().contiguous().t().requires_grad_()
y = torch.log_softmax(x, 0)
y.backward(W.float())
show('lsm_t32 grad', x.grad)
