"""Registry slice 0, part 0: builtins, skipped calls, tensor APIs and syntax whose graph break a
reader can see in the compiled function's source, each with a look-alike that compiles whole."""
import math
import time

import torch
import torch._dynamo
import torch.nn as nn

INPUTS = {
    "case_gb0038": lambda: (torch.randn(4, 4), torch.tensor(2)),
    "case_gb0104": lambda: (torch.randn(4, 4, requires_grad=True),),
    "case_gb0104_ok": lambda: (torch.randn(4, 4, requires_grad=True),),
}

_LSTM = nn.LSTM(4, 4)
_LIN = nn.Linear(4, 4)


def _gen_pair(t):
    yield t
    yield t + 1


@torch.compiler.disable
def _disabled_helper(t):
    return t + 1


def _plain_helper(t):
    return t + 1


@torch.compiler.disable(recursive=False)
def _disabled_shallow(t):
    return t * 4


def _plain_shallow(t):
    return t * 4


# GB0003: Attempt to trace generator
@torch.compile
def case_gb0003(x):
    yield x + 1


@torch.compile
def case_gb0003_ok(x):
    return torch.stack(list(_gen_pair(x)))


# GB0007: Attempted to call function marked as skipped
@torch.compile
def case_gb0007(x):
    start = time.time()
    return x + (1 if start > 0 else 2)


@torch.compile
def case_gb0007_ok(x):
    return x * math.sqrt(4.0)


# GB0014: Attempted to wrap RNN, GRU, or LSTM
@torch.compile
def case_gb0014(x):
    out, _ = _LSTM(x.unsqueeze(1))
    return out.squeeze(1)


@torch.compile
def case_gb0014_ok(x):
    return _LIN(x)


# GB0025: Call to `torch._dynamo.graph_break()`
@torch.compile
def case_gb0025(x):
    y = x * 2
    torch._dynamo.graph_break()
    return y + 1


@torch.compile
def case_gb0025_ok(x):
    y = x * 2
    if torch.compiler.is_compiling():
        y = y + 0
    return y + 1


# GB0033: Data dependent operator
@torch.compile
def case_gb0033(x):
    if torch.equal(x, x.clone()):
        return x * 2
    return x


@torch.compile
def case_gb0033_ok(x):
    return torch.where(torch.eq(x, x.clone()).all(), x * 2, x)


# GB0036: Dynamic shape operator
@torch.compile
def case_gb0036(x):
    return torch.nonzero(x > 0).float()


@torch.compile
def case_gb0036_ok(x):
    return torch.nonzero_static(x > 0, size=16).float()


# GB0038: Dynamic slicing with Tensor arguments
@torch.compile
def case_gb0038(x, n):
    return x[:n] * 2


@torch.compile
def case_gb0038_ok(x):
    return x[: x.shape[0] // 2] * 2


# GB0045: Encountered tensor.is_inference() during tracing
@torch.compile
def case_gb0045(x):
    if x.is_inference():
        return x
    return x + 1


@torch.compile
def case_gb0045_ok(x):
    if x.requires_grad:
        return x
    return x + 1


# GB0046: Encountered torch.is_inference_mode_enabled during tracing
@torch.compile
def case_gb0046(x):
    if torch.is_inference_mode_enabled():
        return x
    return x + 1


@torch.compile
def case_gb0046_ok(x):
    if torch.is_grad_enabled():
        return x + 1
    return x


# GB0056: Failed to mutate tensor data attribute
@torch.compile
def case_gb0056(x):
    y = x + 1
    y.data = torch.zeros(4, 4)
    return y * 2


@torch.compile
def case_gb0056_ok(x):
    y = x + 1
    z = y.data
    return z * 2


# GB0058: Failed to set tensor attribute
@torch.compile
def case_gb0058(x):
    y = x + 1
    y.real = x * 2
    return y


@torch.compile
def case_gb0058_ok(x):
    y = x + 1
    y.tag = 3
    return y * y.tag


# GB0059: Failed to trace builtin operator
@torch.compile
def case_gb0059(x):
    print("step")
    return x + 1


@torch.compile
def case_gb0059_ok(x):
    return x * len(x.shape)


# GB0072: Inplace op on input tensor
@torch.compile
def case_gb0072(x):
    torch.Tensor.t_(x)
    return x + 1


@torch.compile
def case_gb0072_ok(x):
    return torch.Tensor.t(x) + 1


# GB0098: Skip calling `torch.compiler.disable()`d function
@torch.compile
def case_gb0098(x):
    return _disabled_helper(x * 2)


@torch.compile
def case_gb0098_ok(x):
    return _plain_helper(x * 2)


# GB0099: Skip inlining `torch.compiler.disable()`d function
@torch.compile
def case_gb0099(x):
    return _disabled_shallow(x) + 1


@torch.compile
def case_gb0099_ok(x):
    return _plain_shallow(x) + 1


# GB0104: Tensor with grad_fn()
@torch.compile
def case_gb0104(x):
    y = x * 2
    fn = y.grad_fn
    return y + (0 if fn is None else 1)


@torch.compile
def case_gb0104_ok(x):
    y = x * 2
    return y + (1 if y.requires_grad else 0)
