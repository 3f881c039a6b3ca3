"""Calls into the project's own C++ extension: plain pybind11 functions versus registered ops."""
import torch
from torch.utils.cpp_extension import load_inline

_SRC = """
#include <torch/extension.h>
torch::Tensor scale(torch::Tensor x, double s) { return x * s; }
"""

_ext = load_inline(name="gb_oracle_ext", cpp_sources=_SRC, functions=["scale"], verbose=False)


@torch.compile
def case_ext_call(x):
    return _ext.scale(x, 2.0) + 1


@torch.compile(fullgraph=True)
def case_ext_call_fullgraph(x):
    return _ext.scale(x, 2.0)


def _ext_helper(t):
    return _ext.scale(t, 3.0)


@torch.compile
def case_ext_via_helper(x):
    return _ext_helper(x) - 1


# Negatives: the same kernel registered as a custom op with a fake (meta) implementation.

@torch.library.custom_op("gboracle::scale", mutates_args=())
def scale_op(x: torch.Tensor, s: float) -> torch.Tensor:
    return _ext.scale(x, s)


@scale_op.register_fake
def _scale_fake(x, s):
    return torch.empty_like(x)


@torch.compile
def case_custom_op(x):
    return scale_op(x, 2.0) + 1


@torch.compile
def case_torch_ops_call(x):
    return torch.ops.gboracle.scale(x, 2.0)


@torch.compile
def case_aten_op(x):
    return torch.ops.aten.relu(x)
