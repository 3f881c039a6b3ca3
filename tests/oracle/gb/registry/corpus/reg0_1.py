"""Registry slice 0, part 1: hooks, side effects, higher-order ops, comptime and nonstrict_trace
uses whose graph break a reader can see in the source, each with a look-alike that compiles whole."""
import collections
import functools

import torch
import torch._dynamo
import torch.nn as nn
import torch.utils.checkpoint
from torch._dynamo.comptime import comptime


def _grad_input():
    return (torch.randn(4, 4, requires_grad=True),)


INPUTS = {
    "case_gb0029": _grad_input,
    "case_gb0029_ok": _grad_input,
    "case_gb0100": _grad_input,
    "case_gb0100_ok": _grad_input,
    "case_gb0101": _grad_input,
    "case_gb0101_ok": _grad_input,
}


def _grad_hook(g):
    return g * 1


class _PlainCtx:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


@torch.compiler.nested_compile_region
def _region_identity(t):
    return t


@torch.compiler.nested_compile_region
def _region_double(t):
    return t * 2


try:
    _region_builtin_sin = torch.compiler.nested_compile_region(torch.sin)
except (AttributeError, TypeError):  # a builtin may refuse the region marker attribute
    _region_builtin_sin = torch.compiler.nested_compile_region(functools.partial(torch.sin))


@torch.compiler.nested_compile_region
def _region_user_sin(t):
    return torch.sin(t)


_SEEN = []


def _ckpt_with_side_effect(t):
    _SEEN.append(1)
    return t.sin()


def _ckpt_pure(t):
    return t.sin()


@torch._dynamo.nonstrict_trace
def _nonstrict_outside(t):
    return t + 1


def _bw_hook(module, grad_input, grad_output):
    return None


_BW_LIN = nn.Linear(4, 4)
_BW_LIN.register_full_backward_hook(_bw_hook)

_FW_LIN = nn.Linear(4, 4)
_FW_LIN.register_forward_hook(lambda module, inp, out: out * 2)

_BOUNDED = collections.deque(maxlen=3)
_UNBOUNDED = collections.deque()

_HANDLE = None
_HANDLE_INLINE = None


def _store_handle_globally(t):
    global _HANDLE_INLINE
    _HANDLE_INLINE = t.register_hook(_grad_hook)


def _make_handle(t):
    return t.register_hook(_grad_hook)


# GB0015: Attempted to wrap sparse Tensor
@torch.compile
def case_gb0015(x):
    s = x.to_sparse()
    return s.to_dense() + 1


@torch.compile
def case_gb0015_ok(x):
    return x.to_dense() + 1


# GB0029: Compilation of intermediate hooks requires compiled autograd
@torch.compile
def case_gb0029(x):
    y = x * 2
    y.register_hook(_grad_hook)
    return y + 1


@torch.compile
def case_gb0029_ok(x):
    x.register_hook(_grad_hook)
    return x * 2 + 1


# GB0030: ComptimeContext graph break
@torch.compile
def case_gb0030(x):
    y = x * 2
    comptime(lambda ctx: ctx.graph_break())
    return y + 1


@torch.compile
def case_gb0030_ok(x):
    y = x * 2
    comptime(lambda ctx: None)
    return y + 1


# GB0040: Encountered aliasing during higher order op tracing
@torch.compile
def case_gb0040(x):
    return _region_identity(x) + 1


@torch.compile
def case_gb0040_ok(x):
    return _region_double(x) + 1


# GB0042: Encountered non user function variable during invoke_subgraph HOP tracing
@torch.compile
def case_gb0042(x):
    return _region_builtin_sin(x) + 1


@torch.compile
def case_gb0042_ok(x):
    return _region_user_sin(x) + 1


# GB0066: Graph break under GenericContextWrappingVariable
@torch.compile
def case_gb0066(x):
    with _PlainCtx():
        y = x * 2
        torch._dynamo.graph_break()
    return y + 1


@torch.compile
def case_gb0066_ok(x):
    with _PlainCtx():
        y = x * 2
    return y + 1


# GB0067: HOP: Unsafe side effect
@torch.compile
def case_gb0067(x):
    return torch.utils.checkpoint.checkpoint(_ckpt_with_side_effect, x, use_reentrant=False) + 1


@torch.compile
def case_gb0067_ok(x):
    return torch.utils.checkpoint.checkpoint(_ckpt_pure, x, use_reentrant=False) + 1


# GB0078: Limitation of `nonstrict_trace
@torch.compile
def case_gb0078(x):
    @torch._dynamo.nonstrict_trace
    def inner(t):
        return t + 1

    return inner(x) * 2


@torch.compile
def case_gb0078_ok(x):
    return _nonstrict_outside(x) * 2


# GB0083: Module-level backwards hooks require compiled autograd.
@torch.compile
def case_gb0083(x):
    return _BW_LIN(x) + 1


@torch.compile
def case_gb0083_ok(x):
    return _FW_LIN(x) + 1


# GB0097: Side effect on existing deque with limited maxlen
@torch.compile
def case_gb0097(x):
    _BOUNDED.append(1)
    return x + len(_BOUNDED)


@torch.compile
def case_gb0097_ok(x):
    _UNBOUNDED.append(1)
    _UNBOUNDED.popleft()
    return x + 1


# GB0100: Storing Tensor hook handle in globals
@torch.compile
def case_gb0100(x):
    global _HANDLE
    _HANDLE = x.register_hook(_grad_hook)
    return x * 2


@torch.compile
def case_gb0100_ok(x):
    handle = x.register_hook(_grad_hook)  # noqa: F841 - kept local, not stored globally
    return x * 2


# GB0101: Storing Tensor hook handle in globals (inline call)
@torch.compile
def case_gb0101(x):
    _store_handle_globally(x)
    return x * 2


@torch.compile
def case_gb0101_ok(x):
    handle = _make_handle(x)  # noqa: F841 - kept local, not stored globally
    return x * 2
