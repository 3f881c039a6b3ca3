"""Dynamic-output-shape operators with capture_dynamic_output_shape_ops = True set here."""
import torch
import torch._dynamo

torch._dynamo.config.capture_dynamic_output_shape_ops = True


@torch.compile
def case_cap_nonzero(x):
    return x.nonzero().float().sum()


@torch.compile
def case_cap_bool_mask_index(x):
    return x[x > 0].sum()


@torch.compile
def case_cap_masked_select(x):
    return torch.masked_select(x, x > 0).sum()


@torch.compile
def case_cap_unique(x):
    return torch.unique(x.round()).sum()


@torch.compile
def case_cap_where_one_arg(x):
    return torch.where(x > 0)[0].float()
