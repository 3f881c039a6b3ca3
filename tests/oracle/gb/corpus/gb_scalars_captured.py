"""The same scalar extractions with capture_scalar_outputs = True set by this module."""
import torch
import torch._dynamo

torch._dynamo.config.capture_scalar_outputs = True

INPUTS = {
    "case_cap_tolist_int": lambda: (torch.arange(6).reshape(2, 3),),
}


@torch.compile
def case_cap_item_scale(x):
    return x * x.sum().item()


@torch.compile(fullgraph=True)
def case_cap_item_fullgraph(x):
    return x + x.max().item()


@torch.compile
def case_cap_tolist_int(x):
    rows = x.tolist()
    return x * rows[0][0]


@torch.compile
def case_cap_float_of_tensor(x):
    return x * float(x.mean())


@torch.compile
def case_cap_branch_on_item(x):
    if x.sum().item() > 0:
        return x * 2
    return x - 1


@torch.compile
def case_cap_tolist_float(x):
    vals = x.tolist()
    return x + vals[0][0]


@torch.compile
def case_cap_item_arith(x):
    m = x.abs().max().item()
    return x / (m + 1.0)
