"""Registry slice 3, default Dynamo config: object hashing, reconstruction of escaping
objects, profiler regions, sparse creation, tensor IPC, user-inserted frame skips, loops,
torch.Size indexing, traceback attributes, type descriptors, autograd.Function ctx, checkpoint bodies."""
import contextlib
import dataclasses

import torch

# Objects appended here escape the compiled frame, so Dynamo must rebuild them in Python.
_SINK = []

INPUTS = {
    "case_gb9186": lambda: (torch.randn(4, 4, requires_grad=True),),
    "case_gb0347": lambda: (torch.randn(4, 4, requires_grad=True),),
    "case_gb0347_ok": lambda: (torch.randn(4, 4, requires_grad=True),),
    "case_gb1177": lambda: (torch.randn(4, 4, requires_grad=True),),
    "case_gb1177_ok": lambda: (torch.randn(4, 4, requires_grad=True),),
}


class _HashKey:
    def __init__(self, k):
        self.k = k

    def __hash__(self):
        return hash(self.k)

    def __eq__(self, other):
        return isinstance(other, _HashKey) and other.k == self.k


class _PlainKey:
    def __init__(self, k):
        self.k = k


_HKEY = _HashKey(2)
_PKEY = _PlainKey(2)


# GB0364: User-defined object with overridden __hash__
@torch.compile
def case_gb0364(x):
    d = {_HKEY: 3}
    return x * d[_HKEY]


@torch.compile
def case_gb0364_ok(x):
    d = {_PKEY: 3}
    return x * d[_PKEY]


@dataclasses.dataclass(frozen=True)
class _FrozenPost:
    scale: int

    def __post_init__(self):
        if self.scale < 0:
            raise ValueError("negative scale")


@dataclasses.dataclass(frozen=True)
class _FrozenPlain:
    scale: int


# GB0368: Frozen dataclass with __post_init__
@torch.compile
def case_gb0368(x):
    cfg = _FrozenPost(2)
    _SINK.append(cfg)
    return x * cfg.scale


@torch.compile
def case_gb0368_ok(x):
    cfg = _FrozenPlain(2)
    _SINK.append(cfg)
    return x * cfg.scale


# GB0370: record_function escaped from compiled region
@torch.compile
def case_gb0370(x):
    with torch.profiler.record_function("reg3_region"):
        y = x + 1
        torch._dynamo.graph_break()
        y = y * 2
    return y


@torch.compile
def case_gb0370_ok(x):
    with torch.profiler.record_function("reg3_region"):
        y = x + 1
        y = y * 2
    return y


# GB0374: Sparse tensor creation not supported
@torch.compile
def case_gb0374(x):
    idx = torch.tensor([[0, 1], [1, 2]])
    s = torch.sparse_coo_tensor(idx, x[0, :2], (4, 4))
    return s.to_dense() + x


@torch.compile
def case_gb0374_ok(x):
    idx = torch.tensor([[0, 1], [1, 2]])
    dense = torch.zeros(4, 4).index_put((idx[0], idx[1]), x[0, :2])
    return dense + x


# GB1297: Reconstruction failure (self-referential)
@torch.compile
def case_gb1297(x):
    items = [x]
    items.append(items)
    _SINK.append(items)
    return x + 1


@torch.compile
def case_gb1297_ok(x):
    items = [x]
    items.append([x])
    _SINK.append(items)
    return x + 1


@contextlib.contextmanager
def _noop_ctx():
    yield


# GB2533: reconstructing @contextmanager object
@torch.compile
def case_gb2533(x):
    cm = _noop_ctx()
    _SINK.append(cm)
    return x + 1


@torch.compile
def case_gb2533_ok(x):
    with _noop_ctx():
        y = x + 1
    return y


# GB4197: Unsupported Tensor.share_memory_() call
@torch.compile
def case_gb4197(x):
    y = x * 2
    y.share_memory_()
    return y + 1


@torch.compile
def case_gb4197_ok(x):
    y = x * 2
    y = y.contiguous()
    return y + 1


class _ClsA:
    def val(self):
        return 2


class _ClsB:
    def val(self):
        return 3


# GB4271: __class__ assignment on user-defined object
@torch.compile
def case_gb4271(x):
    o = _ClsA()
    o.__class__ = _ClsB
    return x * o.val()


@torch.compile
def case_gb4271_ok(x):
    o = _ClsA()
    o.tag = 3
    return x * o.val() * o.tag


# GB4297: Call to `torch._dynamo.skip_frame()`
@torch.compile
def case_gb4297(x):
    y = x + 1
    torch._dynamo.skip_frame()
    return y * 2


@torch.compile
def case_gb4297_ok(x):
    y = x + 1
    if torch.compiler.is_compiling():
        y = y + 0
    return y * 2


# GB4636: Call to `torch._dynamo.step_unsupported()`
@torch.compile
def case_gb4636(x):
    y = x + 1
    torch._dynamo.step_unsupported()
    return y * 2


@torch.compile
def case_gb4636_ok(x):
    y = x + 1
    if torch._dynamo.is_compiling():
        y = y + 0
    return y * 2


# GB7000: graph break in loop
@torch.compile
def case_gb7000(x):
    for i in range(2):
        x = x + i
        torch._dynamo.graph_break()
    return x


@torch.compile
def case_gb7000_ok(x):
    for i in range(2):
        x = x + i
    return x


# GB7596: Indexing torch.Size with non-scalar tensor
@torch.compile
def case_gb7596(x):
    i = torch.argmax(x[0, :2])
    n = x.shape[i]
    return x * n


@torch.compile
def case_gb7596_ok(x):
    n = x.shape[1]
    return x * n


# GB9186: using `torch.autograd.grad` with `torch._dynamo.config.trace_autograd_ops=False`
@torch.compile
def case_gb9186(x):
    loss = (x * x).sum()
    (g,) = torch.autograd.grad(loss, x)
    return g


@torch.compile
def case_gb9186_ok(x):
    loss = (x * x).sum()
    g = 2 * x.detach()
    return g + loss.detach() * 0


# GB9625: traceback.tb_lasti not supported
@torch.compile
def case_gb9625(x):
    try:
        raise ValueError("reg3")
    except ValueError as e:
        k = e.__traceback__.tb_lasti
    return x + 1 if k >= 0 else x


@torch.compile
def case_gb9625_ok(x):
    try:
        raise ValueError("reg3")
    except ValueError as e:
        k = e.__traceback__.tb_lineno
    return x + 1 if k >= 0 else x


# GB9672: unsupported type.__dict__['{attr_name}'].__get__ call
@torch.compile
def case_gb9672(x):
    mro = type.__dict__["__mro__"].__get__(int, type)
    return x * len(mro)


@torch.compile
def case_gb9672_ok(x):
    mro = type.__dict__["__mro__"].__get__(int)
    return x * len(mro)


class _MaterializeOff(torch.autograd.Function):
    @staticmethod
    def forward(ctx, t):
        ctx._materialize_non_diff_grads = False
        return t * 2

    @staticmethod
    def backward(ctx, g):
        return g * 2


class _SaveInput(torch.autograd.Function):
    @staticmethod
    def forward(ctx, t):
        ctx.save_for_backward(t)
        return t * 2

    @staticmethod
    def backward(ctx, g):
        (t,) = ctx.saved_tensors
        return g * 2 + t * 0


# GB0347: autograd.Function.apply: _materialize_non_diff_grads mutation
@torch.compile
def case_gb0347(x):
    return _MaterializeOff.apply(x) + 1


@torch.compile
def case_gb0347_ok(x):
    return _SaveInput.apply(x) + 1


class _Counter(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("count", torch.zeros(4))

    def forward(self, t):
        return t + self.count


_COUNTER = _Counter()


def _bump_and_scale(t):
    _COUNTER.count.add_(1)
    return t.sin() * 2


def _scale(t):
    return t.sin() * 2 + _COUNTER.count


# GB1177: nn.Module mutation in HigherOrderOp
@torch.compile
def case_gb1177(x):
    return torch.utils.checkpoint.checkpoint(_bump_and_scale, x, use_reentrant=False)


@torch.compile
def case_gb1177_ok(x):
    return torch.utils.checkpoint.checkpoint(_scale, x, use_reentrant=False)
