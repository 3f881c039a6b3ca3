"""Explicit graph breaks, the debugger, wall-clock time and stdlib calls Dynamo skips."""
import copy
import datetime
import json
import os
import random
import time

import torch
import torch._dynamo


@torch.compile
def case_explicit_graph_break(x):
    y = x * 2
    torch._dynamo.graph_break()
    return y + 1


@torch.compile(fullgraph=True)
def case_explicit_graph_break_fullgraph(x):
    torch._dynamo.graph_break()
    return x + 1


@torch.compile
def case_breakpoint(x):
    breakpoint()
    return x + 1


@torch.compile
def case_deepcopy_tensor(x):
    y = copy.deepcopy(x)
    return y * 2


@torch.compile
def case_deepcopy_dict(x):
    cfg = copy.deepcopy({"a": 1})
    return x * cfg["a"]


@torch.compile
def case_copy_copy_list(x):
    items = copy.copy([1, 2])
    return x * len(items)


@torch.compile
def case_time_time(x):
    t0 = time.time()
    y = x * 2
    return y


@torch.compile
def case_perf_counter(x):
    t0 = time.perf_counter()
    return x + 1


@torch.compile
def case_monotonic(x):
    t0 = time.monotonic()
    return x - 1


@torch.compile
def case_time_sleep(x):
    time.sleep(0)
    return x * 3


@torch.compile
def case_datetime_now(x):
    stamp = datetime.datetime.now()
    return x + 1


@torch.compile
def case_json_dumps(x):
    s = json.dumps({"n": 1})
    return x * len(s)


@torch.compile
def case_os_getpid(x):
    return x * (os.getpid() % 2 + 1)


@torch.compile
def case_random_random(x):
    return x * random.random()


def _timed_step(t):
    start = time.time()
    return t * 2


@torch.compile
def case_time_in_helper(x):
    return _timed_step(x)


# Negatives.

@torch.compile
def case_pure(x):
    return torch.sin(x) + torch.cos(x)


def timed_driver(x):
    t0 = time.time()
    y = case_pure(x)
    print(time.time() - t0)
    return copy.deepcopy(y)


@torch.compile
def case_time_guarded(x):
    if not torch.compiler.is_compiling():
        t0 = time.time()
    return x * 5


@torch.compile
def case_copy_method_of_tensor(x):
    y = x.clone()
    return y.copy_(x * 2)
