"""Registry slice 2, part 1: numpy, nonstrict_trace, contextlib, classes and logging graph breaks
(GB0250-GB0297) with near misses."""
import contextlib
import logging
import random
from typing import TypedDict

import numpy as np
import torch

logger = logging.getLogger(__name__)


class _Box:
    def __init__(self, v):
        self.v = v


@torch._dynamo.nonstrict_trace
def _ns_make_box(t):
    return _Box(t * 2)


@torch._dynamo.nonstrict_trace
def _ns_double(t):
    return t * 2


class _OptsPartial(TypedDict, total=False):
    scale: float


class _OptsTotal(TypedDict):
    scale: float


class _Resource:
    def close(self):
        pass


_RES = _Resource()


class _Cfg:
    def __init__(self):
        self.scale = 3


_CFG = _Cfg()


class _Base:
    def f(self, t):
        return t * 2


class _Child(_Base):
    def f(self, t):
        return super().f(t) + 1


_CHILD = _Child()


# GB0250: ndarray.astype(object)
@torch.compile
def case_gb0250(x):
    a = x.numpy()
    b = a.astype(object)
    return x + len(b)


@torch.compile
def case_gb0250_ok(x):
    a = x.numpy()
    b = a.astype(np.float32)
    return torch.from_numpy(b) + x


# GB0251: Unsupported output type for nonstrict_trace-ed function
@torch.compile
def case_gb0251(x):
    box = _ns_make_box(x)
    return box.v + 1


@torch.compile
def case_gb0251_ok(x):
    y = _ns_double(x)
    return y + 1


# GB0257: TypedDict with optional keys
@torch.compile
def case_gb0257(x):
    opts = _OptsPartial(scale=2.0)
    return x * opts["scale"]


@torch.compile
def case_gb0257_ok(x):
    opts = _OptsTotal(scale=2.0)
    return x * opts["scale"]


# GB0262: unsupported contextlib.* API
@torch.compile
def case_gb0262(x):
    with contextlib.closing(_RES):
        y = x + 1
    return y


@torch.compile
def case_gb0262_ok(x):
    with contextlib.nullcontext():
        y = x + 1
    return y


# GB0264: Attempted to use `torch.nn.Parameter()` constructor with Dynamo
@torch.compile
def case_gb0264(x):
    p = torch.nn.Parameter(torch.ones(4, 4))
    return x * p


@torch.compile
def case_gb0264_ok(x):
    p = torch.nn.Parameter(x)
    return p * 3


# GB0270: unimplemented builtin op vars() with no arguments
@torch.compile
def case_gb0270(x):
    n = len(vars())
    return x + n


@torch.compile
def case_gb0270_ok(x):
    return x * vars(_CFG)["scale"]


# GB0273: Keyword args passed to exception constructor
@torch.compile
def case_gb0273(x):
    try:
        raise ImportError("missing", name="somemod")
    except ImportError:
        return x + 1


@torch.compile
def case_gb0273_ok(x):
    try:
        raise ImportError("missing")
    except ImportError:
        return x + 1


# GB0280: 1-arg super not implemented
@torch.compile
def case_gb0280(x):
    s = super(_Child)
    if s.__thisclass__ is _Child:
        return x + 1
    return x - 1


@torch.compile
def case_gb0280_ok(x):
    return _CHILD.f(x)


# GB0288: Can't extract message from torch._check()
@torch.compile
def case_gb0288(x):
    torch._check(x.shape[0] == 4, lambda: f"bad shape {x.shape}")
    return x + 1


@torch.compile
def case_gb0288_ok(x):
    torch._check(x.shape[0] == 4, lambda: "bad shape")
    return x + 1


# GB0290: attempted to trace numpy.* function as a method
@torch.compile
def case_gb0290(x):
    a = x.numpy()
    s = np.add.reduce(a, axis=0)
    return torch.from_numpy(s) + x


@torch.compile
def case_gb0290_ok(x):
    a = x.numpy()
    s = np.sum(a, axis=0)
    return torch.from_numpy(s) + x


# GB0291: logging.Logger method not supported for non-export cases
@torch.compile
def case_gb0291(x):
    logger.info("scaling")
    return x * 2


@torch.compile
def case_gb0291_ok(x):
    if not torch.compiler.is_compiling():
        logger.info("scaling")
    return x * 2


# GB0294: attempted to trace numpy function unsupported by PyTorch
@torch.compile
def case_gb0294(x):
    a = x.numpy()
    b = np.polyval([2.0, 1.0], a)
    return torch.from_numpy(np.asarray(b, dtype=np.float32)) + x


@torch.compile
def case_gb0294_ok(x):
    a = x.numpy()
    b = a * 2.0 + 1.0
    return torch.from_numpy(b) + x


# GB0297: random.Random() with improper arguments
@torch.compile
def case_gb0297(x):
    r = random.Random(x=0)
    return x * r.random()


@torch.compile
def case_gb0297_ok(x):
    r = random.Random(0)
    return x * r.random()
