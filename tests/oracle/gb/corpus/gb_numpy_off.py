"""Tensor.numpy() with torch._dynamo.config.trace_numpy = False set by this module."""
import torch
import torch._dynamo

torch._dynamo.config.trace_numpy = False


@torch.compile
def case_numpy_untraced(x):
    a = x.numpy()
    return torch.from_numpy(a) + 1


@torch.compile
def case_no_numpy_call(x):
    return x + 1
