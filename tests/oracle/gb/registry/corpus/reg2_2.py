"""Registry slice 2, part 2: numpy graph breaks that need torch._dynamo.config.trace_numpy = False,
which this module sets (GB0231, GB0293), with near misses."""
import math

import numpy as np
import torch
import torch._dynamo

torch._dynamo.config.trace_numpy = False

_ARR = np.ones((4, 4), dtype=np.float32)
_VALUES = [[1.0, 1.0, 1.0, 1.0]] * 4


# GB0231: call `torch.from_numpy` with `torch._dynamo.config.trace_numpy=False`
@torch.compile
def case_gb0231(x):
    return torch.from_numpy(_ARR) + x


@torch.compile
def case_gb0231_ok(x):
    return torch.as_tensor(_VALUES) + x


# GB0293: attempted to trace numpy function with config.trace_numpy=False
@torch.compile
def case_gb0293(x):
    return x * float(np.sqrt(4.0))


@torch.compile
def case_gb0293_ok(x):
    return x * math.sqrt(4.0)
