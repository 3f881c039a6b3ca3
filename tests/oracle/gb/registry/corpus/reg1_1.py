"""Registry slice 1, part 1: itertools, exceptions, builtins, autograd.Function, modules.

Each case_gbNNNN should hit exactly that registry entry; each case_gbNNNN_ok is a look-alike
that Dynamo traces without a break.
"""
import copy
import functools
import itertools
import threading

import torch

# GB0115: Unexpected failure during itertools.groupby() iteration
@torch.compile
def case_gb0115(x):
    groups = itertools.groupby(x.unbind(0), key=lambda r: r.sum())
    n = sum(1 for _ in groups)
    return x * n


@torch.compile
def case_gb0115_ok(x):
    groups = itertools.groupby([1, 1, 2, 3, 3], key=lambda v: v % 2)
    n = sum(1 for _ in groups)
    return x * n


# GB0134: Unsupported arguments for itertools.groupby
@torch.compile
def case_gb0134(x):
    groups = itertools.groupby([1, 1, 2, 3, 3], lambda v: v % 2)
    n = sum(1 for _ in groups)
    return x * n


@torch.compile
def case_gb0134_ok(x):
    groups = itertools.groupby([1, 1, 2, 3, 3], key=lambda v: v % 2)
    n = sum(1 for _ in groups)
    return x * n


# GB0155: Unsupported kwargs for itertools.groupby
@torch.compile
def case_gb0155(x):
    groups = itertools.groupby(iterable=[1, 1, 2, 3])
    n = sum(1 for _ in groups)
    return x * n


@torch.compile
def case_gb0155_ok(x):
    groups = itertools.groupby([1, 1, 2, 3])
    n = sum(1 for _ in groups)
    return x * n


# GB0135: Unsupported attribute assignment on Exception object
@torch.compile
def case_gb0135(x):
    try:
        raise ValueError("bad")
    except ValueError as e:
        e.note = "tagged"
        y = x + 1
    return y


@torch.compile
def case_gb0135_ok(x):
    try:
        raise ValueError("bad")
    except ValueError as e:
        e.__cause__ = None
        y = x + 1
    return y


# GB0136: Unsupported attribute for range() object
@torch.compile
def case_gb0136(x):
    r = range(0, 8, 2)
    return x * r.index(4)


@torch.compile
def case_gb0136_ok(x):
    r = range(0, 8, 2)
    return x * r.step


# GB0137: Unsupported attribute for slice() object
@torch.compile
def case_gb0137(x):
    s = slice(1, 3)
    start, stop, step = s.indices(4)
    return x[start:stop] * step


@torch.compile
def case_gb0137_ok(x):
    s = slice(1, 3)
    return x[s.start:s.stop] * 2


# GB0141: Unsupported call_id() without source
@torch.compile
def case_gb0141(x):
    y = x + 1
    return y * (id(y) % 2 + 1)


@torch.compile
def case_gb0141_ok(x):
    return x * (id(x) % 2 + 1)


# GB0142: Unsupported context manager
_LOCK = threading.Lock()


@torch.compile
def case_gb0142(x):
    with _LOCK:
        y = x * 2
    return y


@torch.compile
def case_gb0142_ok(x):
    with torch.no_grad():
        y = x * 2
    return y


# GB0144: Unsupported custom jvp
class _WithJvp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, t):
        return t * 2

    @staticmethod
    def backward(ctx, g):
        return g * 2

    @staticmethod
    def jvp(ctx, t_dot):
        return t_dot * 2


class _PlainFn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, t):
        return t * 2

    @staticmethod
    def backward(ctx, g):
        return g * 2


@torch.compile
def case_gb0144(x):
    return _WithJvp.apply(x) + 1


@torch.compile
def case_gb0144_ok(x):
    return _PlainFn.apply(x) + 1


# GB0145: Unsupported custom vjp
class _WithVjp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, t):
        return t * 3

    @staticmethod
    def vjp(ctx, g):
        return g * 3


@torch.compile
def case_gb0145(x):
    return _WithVjp.apply(x) + 1


@torch.compile
def case_gb0145_ok(x):
    return _PlainFn.apply(x) + 1


# GB0148: Unsupported function call (delayed)
@torch.compile
def case_gb0148(x):
    x.unsqueeze_(0)
    return x + 1


@torch.compile
def case_gb0148_ok(x):
    y = x.clone()
    y.unsqueeze_(0)
    return y + 1


# GB0157: Unsupported ndarray attribute access
@torch.compile
def case_gb0157(x):
    a = x.numpy()
    f = a.flags
    return x + (1 if f is not None else 0)


@torch.compile
def case_gb0157_ok(x):
    a = x.numpy()
    s = a.shape
    return x + s[0]


# GB0158: Unsupported ndarray method call
@torch.compile
def case_gb0158(x):
    a = x.numpy()
    b = a.tobytes()
    return x + len(b)


@torch.compile
def case_gb0158_ok(x):
    a = x.numpy()
    b = a * 2
    return torch.from_numpy(b) + x


# GB0165: Unsupported torch._C._ImperativeEngine method
@torch.compile
def case_gb0165(x):
    ok = torch.autograd.Variable._execution_engine.is_checkpoint_valid()
    return x + (1 if ok else 2)


@torch.compile
def case_gb0165_ok(x):
    ok = torch.is_grad_enabled()
    return x + (1 if ok else 2)


# GB0170: Data-dependent branching
@torch.compile
def case_gb0170(x):
    if x.sum() > 0:
        return x + 1
    return x - 1


@torch.compile
def case_gb0170_ok(x):
    if x.shape[0] > 2:
        return x + 1
    return x - 1


# GB0171: assert with non-string message
@torch.compile
def case_gb0171(x):
    try:
        assert x.dim() == 3, x.shape
        y = x * 2
    except AssertionError:
        y = x + 1
    return y


@torch.compile
def case_gb0171_ok(x):
    assert x.dim() == 2, "expected a matrix"
    return x + 1


# GB0177: can't handle functions not implemented in python
class _Platform:
    @classmethod
    @functools.lru_cache(maxsize=None)
    def factor(cls):
        return 2

    @classmethod
    def plain_factor(cls):
        return 2


@torch.compile
def case_gb0177(x):
    return x * _Platform.factor()


@torch.compile
def case_gb0177_ok(x):
    return x * _Platform.plain_factor()


# GB0179: copy.deepcopy()
@torch.compile
def case_gb0179(x):
    y = copy.deepcopy(x)
    return y + 1


@torch.compile
def case_gb0179_ok(x):
    y = x.clone()
    return y + 1


# GB0187: functools.wraps
def _outer_helper(t):
    return t + 1


def _other_helper(t):
    return t * 2


@torch.compile
def case_gb0187(x):
    g = functools.wraps(_outer_helper)(_other_helper)
    return g(x)


@torch.compile
def case_gb0187_ok(x):
    def inner(t):
        return t * 2

    g = functools.wraps(_outer_helper)(inner)
    return g(x)


# GB0189: getattr() on nn.Module with pending mutation
class _BufHolder(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("buf", torch.zeros(4))


_HOLDER = _BufHolder()
_HOLDER_OK = _BufHolder()


@torch.compile
def case_gb0189(x):
    _HOLDER.buf = x[0] * 0
    n = len(list(_HOLDER.buffers()))
    return x * n


@torch.compile
def case_gb0189_ok(x):
    n = len(list(_HOLDER_OK.buffers()))
    return x * n


# GB0206: setattr() on Tensor.requires_grad
@torch.compile
def case_gb0206(x):
    y = torch.ones(4, 4)
    y.requires_grad = True
    return (y * x).detach()


@torch.compile
def case_gb0206_ok(x):
    y = torch.ones(4, 4)
    flag = y.requires_grad
    return y * x + (1 if flag else 0)


# GB0207: sort with non-constant keys
@torch.compile
def case_gb0207(x):
    vals = sorted([x.sum(), x.mean(), x.max()])
    return x + vals[0]


@torch.compile
def case_gb0207_ok(x):
    vals = sorted([3, 1, 2])
    return x + vals[0]


# GB0119: Uninitialized nn.Module
class _NoSuperInit(torch.nn.Module):
    scale = 3

    def __init__(self):
        pass


class _WithSuperInit(torch.nn.Module):
    scale = 3

    def __init__(self):
        super().__init__()


_UNINIT = _NoSuperInit()
_INIT = _WithSuperInit()


@torch.compile
def case_gb0119(x):
    return x * _UNINIT.scale


@torch.compile
def case_gb0119_ok(x):
    return x * _INIT.scale
