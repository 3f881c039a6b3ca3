"""Registry slice 1, part 2: Tensor.numpy() with torch._dynamo.config.trace_numpy = False.

This module disables trace_numpy for its own cases (each corpus file runs in its own
interpreter), so the config is visible in the source that a static reader sees.
"""
import torch
import torch._dynamo

torch._dynamo.config.trace_numpy = False


# GB0105: Tensor.numpy() with trace_numpy=False
@torch.compile
def case_gb0105(x):
    a = x.numpy()
    return torch.from_numpy(a) + 1


@torch.compile
def case_gb0105_ok(x):
    a = x.detach().cpu()
    return a + 1
