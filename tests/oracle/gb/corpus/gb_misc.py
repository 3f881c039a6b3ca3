"""Builtins and tensor APIs Dynamo cannot put in a graph, and look-alikes it can."""
import functools
import math
import os

import numpy as np
import torch

INPUTS = {
    "case_backward": lambda: (torch.randn(4, 4, requires_grad=True),),
    "case_grad_fn": lambda: (torch.randn(4, 4, requires_grad=True),),
}


@torch.compile
def case_open_file(x):
    with open(os.devnull, "w") as f:
        f.write("x")
    return x + 1


@torch.compile
def case_eval(x):
    k = eval("2")
    return x * k


@torch.compile
def case_exec(x):
    exec("pass")
    return x * 2


@torch.compile
def case_globals(x):
    g = globals()
    return x + len(g)


@torch.compile
def case_id_of_tensor(x):
    return x * (id(x) % 2 + 1)


@torch.compile
def case_backward(x):
    y = (x * 2).sum()
    y.backward()
    return x.grad


@torch.compile
def case_class_def(x):
    class Tmp:
        scale = 2

    return x * Tmp.scale


@torch.compile
def case_grad_fn(x):
    y = x * 2
    fn = y.grad_fn
    return y + (0 if fn is None else 1)


@torch.compile
def case_is_inference(x):
    if x.is_inference():
        return x
    return x + 1


@torch.compile
def case_random_inplace(x):
    y = torch.empty(4, 4)
    y.random_()
    return y + x


@torch.compile
def case_generator_seed(x):
    g = torch.Generator()
    g.manual_seed(0)
    return x + torch.rand(4, 4, generator=g)


@torch.compile
def case_data_ptr(x):
    return x * (x.data_ptr() % 2 + 1)


@torch.compile
def case_str_of_tensor(x):
    s = str(x)
    return x * len(s)


@torch.compile
def case_fstring_of_tensor(x):
    s = f"{x}"
    return x + len(s)


@torch.compile
def case_manual_seed(x):
    torch.manual_seed(0)
    return x + torch.rand(4, 4)


@torch.compile
def case_share_memory(x):
    y = x.clone()
    y.share_memory_()
    return y


# Negatives.

@torch.compile
def case_getattr_ok(x):
    return getattr(x, "shape")[0] * x


@torch.compile
def case_sorted_ok(x):
    vals = sorted([3, 1, 2])
    return x * vals[0]


@torch.compile
def case_fstring_shape_ok(x):
    s = f"{x.shape}"
    return x + len(s)


@torch.compile
def case_len_ok(x):
    return x * len(x)


@torch.compile
def case_isinstance_ok(x):
    return x * 2 if isinstance(x, torch.Tensor) else x


@torch.compile
def case_rand_ok(x):
    return x + torch.rand_like(x)


@torch.compile
def case_dict_ok(x):
    d = dict(a=x, b=x * 2)
    return d["a"] + d["b"]


@torch.compile
def case_set_tensor_attr(x):
    y = x * 2
    y.tag = "scaled"
    return y


@torch.compile
def case_random_randint(x):
    import random
    return x * random.randint(1, 3)


@functools.lru_cache(maxsize=None)
def _cached_factor(n):
    return n * 2


@torch.compile
def case_lru_cache_helper(x):
    return x * _cached_factor(3)


# More negatives.

@torch.compile
def case_environ_get_ok(x):
    if os.environ.get("GB_ORACLE_FLAG") == "1":
        return x * 2
    return x + 1


@torch.compile
def case_math_sqrt_ok(x):
    return x / math.sqrt(x.shape[-1])


@torch.compile
def case_numpy_const_ok(x):
    return x * float(np.sqrt(4.0))


@torch.no_grad()
def _no_grad_scale(t):
    return t * 2


@torch.compile
def case_no_grad_helper_ok(x):
    return _no_grad_scale(x) + 1


@torch.compile
def case_autocast_ok(x):
    with torch.autocast("cpu", dtype=torch.bfloat16):
        y = x @ x
    return y.float()
