"""Registry slice 2, part 0: tensor-API and builtin graph breaks (GB0212-GB0247) with near misses."""
import collections
import contextlib
import operator

import torch

_PROF_HOLD = []
_TENSOR_SET = {torch.ones(4, 4)}
_TENSOR_LIST = [torch.ones(4, 4)]


def _scale_helper(t):
    return t * 3


@contextlib.contextmanager
def _yield_cm():
    yield None


@contextlib.contextmanager
def _no_yield_cm():
    # Not a generator: contextmanager only needs an iterator that stops after one item.
    return iter([None])


class _Box:
    def __init__(self, v):
        self.v = v


_BOX = _Box(2.0)


@torch._dynamo.nonstrict_trace
def _ns_scale_by_box(t, box):
    return t * box.v


@torch._dynamo.nonstrict_trace
def _ns_add(t, u):
    return t + u


# GB0212: torch.profiler object escaped from compiled region
@torch.compile
def case_gb0212(x):
    _PROF_HOLD.append(torch.profiler.record_function("blk"))
    return x + 1


@torch.compile
def case_gb0212_ok(x):
    with torch.profiler.record_function("blk"):
        y = x + 1
    return y


# GB0217: unsupported hasattr operation
@torch.compile
def case_gb0217(x):
    d = collections.OrderedDict(a=1)
    if hasattr(d, "foo"):
        return x + 1
    return x - 1


@torch.compile
def case_gb0217_ok(x):
    d = collections.OrderedDict(a=1)
    if hasattr(d, "keys"):
        return x + 1
    return x - 1


# GB0218: unsupported index(Tensor)
@torch.compile
def case_gb0218(x):
    t = torch.tensor(2)
    return x * operator.index(t)


@torch.compile
def case_gb0218_ok(x):
    return x * operator.index(x.shape[0])


# GB0220: Failed to mutate tensor data attribute to different dtype
@torch.compile
def case_gb0220(x):
    x.data = torch.zeros(4, 4, dtype=torch.float64)
    return x + 1


@torch.compile
def case_gb0220_ok(x):
    x.data = torch.zeros(4, 4)
    return x + 1


# GB0221: non-generator contextlib.contextmanager
@torch.compile
def case_gb0221(x):
    with _no_yield_cm():
        y = x * 2
    return y


@torch.compile
def case_gb0221_ok(x):
    with _yield_cm():
        y = x * 2
    return y


# GB0222: Attempted to wrap a set with tensors
@torch.compile
def case_gb0222(x):
    for t in _TENSOR_SET:
        x = x + t
    return x


@torch.compile
def case_gb0222_ok(x):
    for t in _TENSOR_LIST:
        x = x + t
    return x


# GB0223: torch.compile call with > 1 args
@torch.compile
def case_gb0223(x):
    deco = torch.compile(backend="eager")
    return deco(_scale_helper)(x)


@torch.compile
def case_gb0223_ok(x):
    return torch.compile(_scale_helper, backend="eager")(x)


# GB0225: Attempted to use tensor creation function with requires_grad=True
@torch.compile
def case_gb0225(x):
    w = torch.ones(4, 4, requires_grad=True)
    return x + w


@torch.compile
def case_gb0225_ok(x):
    w = torch.ones(4, 4, requires_grad=False)
    return x + w


# GB0226: `torch.nn.Parameter()` with unsupported data type
@torch.compile
def case_gb0226(x):
    p = torch.nn.Parameter()
    return x + p.sum()


@torch.compile
def case_gb0226_ok(x):
    p = torch.nn.Parameter(x)
    return p * 2


# GB0230: Attempted to use torch.use_deterministic_algorithms(warn_only=True)
@torch.compile
def case_gb0230(x):
    torch.use_deterministic_algorithms(False, warn_only=True)
    return x + 1


@torch.compile
def case_gb0230_ok(x):
    torch.use_deterministic_algorithms(False)
    return x + 1


# GB0233: Attempted to use strided NestedTensor
@torch.compile
def case_gb0233(x):
    nt = torch.nested.nested_tensor([x, x * 2], layout=torch.strided)
    return nt.to_padded_tensor(0.0).sum(0)


@torch.compile
def case_gb0233_ok(x):
    nt = torch.nested.nested_tensor([x, x * 2], layout=torch.jagged)
    return nt.values()[:4] + x


# GB0236: Invalid input type for nonstrict_trace-ed function
@torch.compile
def case_gb0236(x):
    return _ns_scale_by_box(x, _BOX)


@torch.compile
def case_gb0236_ok(x):
    return _ns_add(x, x)


# GB0240: Shape mismatch with out= list of tensor variants
@torch.compile
def case_gb0240(x):
    vals = torch.empty(0)
    idx = torch.empty(0, dtype=torch.long)
    torch.sort(x, out=(vals, idx))
    return vals + 1


@torch.compile
def case_gb0240_ok(x):
    vals = torch.empty(4, 4)
    idx = torch.empty(4, 4, dtype=torch.long)
    torch.sort(x, out=(vals, idx))
    return vals + 1


# GB0241: Attempted to call op with non-contiguous `out=` list of tensors
@torch.compile
def case_gb0241(x):
    vals = torch.empty(4, 4).t()
    idx = torch.empty(4, 4, dtype=torch.long).t()
    torch.sort(x, out=(vals, idx))
    return vals + 1


@torch.compile
def case_gb0241_ok(x):
    vals = torch.empty(4, 4)
    idx = torch.empty(4, 4, dtype=torch.long)
    torch.sort(x, out=(vals, idx))
    return vals * 2


# GB0242: Attempted to call op with non-contiguous `out=` tensor
@torch.compile
def case_gb0242(x):
    buf = torch.empty(4, 4).t()
    torch.add(x, 1, out=buf)
    return buf * 2


@torch.compile
def case_gb0242_ok(x):
    buf = torch.empty(4, 4)
    torch.add(x, 1, out=buf)
    return buf * 2


# GB0246: Attempted to use `torch.nn.functional.one_hot` with data-dependent output shape
@torch.compile
def case_gb0246(x):
    idx = (x > 0).long().flatten()
    return torch.nn.functional.one_hot(idx).float().sum() + x


@torch.compile
def case_gb0246_ok(x):
    idx = (x > 0).long().flatten()
    return torch.nn.functional.one_hot(idx, num_classes=2).float().sum() + x


# GB0247: Shape mismatch with out= tensor variant
@torch.compile
def case_gb0247(x):
    buf = torch.empty(0)
    torch.add(x, 1, out=buf)
    return buf * 2


@torch.compile
def case_gb0247_ok(x):
    buf = torch.empty(4, 4)
    torch.add(x, 1, out=buf)
    return buf - 1
