"""Operators whose output shape depends on tensor data (capture_dynamic_output_shape_ops off)."""
import torch

INPUTS = {
    "case_bincount": lambda: (torch.tensor([0, 1, 1, 3]),),
    "case_repeat_interleave_tensor": lambda: (torch.randn(4, 2),),
}


@torch.compile
def case_nonzero_method(x):
    idx = x.nonzero()
    return idx.float().sum()


@torch.compile
def case_torch_nonzero(x):
    idx = torch.nonzero(x > 0)
    return idx.sum()


@torch.compile
def case_unique(x):
    return torch.unique(x.round()).sum()


@torch.compile
def case_masked_select(x):
    return torch.masked_select(x, x > 0).sum()


@torch.compile
def case_bool_mask_index(x):
    return x[x > 0].sum()


@torch.compile
def case_bool_mask_var(x):
    mask = x > 0
    y = x[mask]
    return y * 2


@torch.compile
def case_where_one_arg(x):
    idx = torch.where(x > 0)
    return idx[0].float()


@torch.compile(fullgraph=True)
def case_nonzero_fullgraph(x):
    return x.nonzero()


@torch.compile
def case_argwhere(x):
    return torch.argwhere(x > 0).sum()


@torch.compile
def case_bincount(x):
    return torch.bincount(x).float()


@torch.compile
def case_repeat_interleave_tensor(x):
    reps = torch.tensor([1, 2, 3, 4])
    return x.repeat_interleave(reps, dim=0)


@torch.compile
def case_unique_consecutive(x):
    return torch.unique_consecutive(x.round()).sum()


# Negatives.

@torch.compile
def case_mask_store(x):
    y = x.clone()
    y[y < 0] = 0
    return y


@torch.compile
def case_masked_fill(x):
    return x.masked_fill(x < 0, 0.0)


@torch.compile
def case_where_three_args(x):
    return torch.where(x > 0, x, torch.zeros_like(x))


@torch.compile
def case_nonzero_static(x):
    return torch.nonzero_static(x > 0, size=16)


@torch.compile
def case_int_index(x):
    idx = torch.tensor([0, 2])
    return x[idx]


@torch.compile
def case_topk(x):
    return torch.topk(x, 2).values


@torch.compile
def case_mask_multiply(x):
    return x * (x > 0)


@torch.compile
def case_slice_index(x):
    return x[:, 1:3].sum() + x[0].sum()
