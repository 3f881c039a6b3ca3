"""Collectives in compiled code: asynchronous ones (async_op=True, work.wait()) against the
synchronous and functional forms Dynamo traces. One-process gloo group, CPU tensors."""
import os
import tempfile

import torch
import torch.distributed as dist
import torch.distributed._functional_collectives as funcol

if not dist.is_initialized():
    _store = os.path.join(tempfile.mkdtemp(), "store")
    dist.init_process_group("gloo", init_method=f"file://{_store}", rank=0, world_size=1)


@torch.compile
def case_all_reduce_async_wait(x):
    y = x * 2
    work = dist.all_reduce(y, async_op=True)
    work.wait()
    return y + 1


@torch.compile
def case_all_to_all_single_async(x):
    out = torch.empty_like(x)
    work = dist.all_to_all_single(out, x, async_op=True)
    work.wait()
    return out * 2


@torch.compile
def case_broadcast_async_no_wait(x):
    y = x.clone()
    dist.broadcast(y, src=0, async_op=True)
    return y * 2


@torch.compile
def case_all_reduce_sync(x):
    y = x * 2
    dist.all_reduce(y)
    return y + 1


@torch.compile
def case_all_reduce_async_false(x):
    y = x * 2
    dist.all_reduce(y, async_op=False)
    return y + 1


@torch.compile
def case_functional_all_reduce(x):
    y = funcol.all_reduce(x * 2, "sum", dist.group.WORLD)
    return y + 1
