"""fullgraph=True: what raises, and what torch 2.11 captures instead of breaking."""
import time

import torch

INPUTS = {
    "case_fg_tolist_int": lambda: (torch.arange(6).reshape(2, 3),),
}


@torch.compile(fullgraph=True)
def case_fg_item(x):
    return x * x.sum().item()


@torch.compile(fullgraph=True)
def case_fg_tolist_int(x):
    rows = x.tolist()
    return x * rows[0][0]


@torch.compile(fullgraph=True)
def case_fg_tolist_float(x):
    return x + x.tolist()[0][0]


@torch.compile(fullgraph=True)
def case_fg_bool_mask(x):
    return x[x > 0].sum()


@torch.compile(fullgraph=True)
def case_fg_unique(x):
    return torch.unique(x.round()).sum()


@torch.compile(fullgraph=True)
def case_fg_print(x):
    print(x.shape)
    return x + 1


@torch.compile(fullgraph=True)
def case_fg_data_branch(x):
    if x.mean() > 0:
        return x
    return -x


@torch.compile(fullgraph=True)
def case_fg_time(x):
    t = time.time()
    return x * 2


@torch.compile(fullgraph=True)
def case_fg_branch_on_item(x):
    if x.sum().item() > 0:
        return x
    return -x


@torch.compile(fullgraph=True)
def case_fg_clean(x):
    return torch.softmax(x, dim=-1)
