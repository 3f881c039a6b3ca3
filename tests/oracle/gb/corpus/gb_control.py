"""Branches and loops on tensor values (data-dependent control flow) and on static facts."""
import torch
import torch.nn as nn
import torch.nn.functional as F

INPUTS = {
    "case_annotated_compare": lambda: (torch.tensor(1.0), torch.tensor(2.0)),
    "case_unannotated_scalar_compare": lambda: (torch.tensor(0.5),),
    "case_if_none": lambda: (torch.randn(4, 4), None),
    "case_flag_param": lambda: (torch.randn(4, 4), True),
    "case_int_param": lambda: (torch.randn(4, 4), 3),
}


@torch.compile
def case_if_sum_positive(x):
    if x.sum() > 0:
        return x * 2
    return x - 1


@torch.compile(fullgraph=True)
def case_if_any_fullgraph(x):
    if (x > 10).any():
        return x.clamp(max=10)
    return x


@torch.compile
def case_while_norm(x):
    while x.norm() > 1:
        x = x / 2
    return x


@torch.compile
def case_ternary_tensor(x):
    return x * 2 if x.mean() > 0 else x


@torch.compile
def case_if_tensor_truthy(x):
    m = x.abs().max()
    if m:
        return x / m
    return x


@torch.compile
def case_bool_and(x):
    if x.shape[0] > 1 and x.min() < 0:
        return x.abs()
    return x


@torch.compile
def case_if_torch_isnan_any(x):
    if torch.isnan(x).any():
        return torch.zeros_like(x)
    return x


@torch.compile
def case_if_torch_equal(x):
    if torch.equal(x, x):
        return x + 1
    return x


@torch.compile
def case_assert_tensor(x):
    assert (x > -100).all(), "out of range"
    return x + 1


def _clip_if_big(t):
    if t.abs().max() > 5:
        return t.clamp(-5, 5)
    return t


@torch.compile
def case_branch_in_helper(x):
    return _clip_if_big(x)


@torch.compile
def case_annotated_compare(x: torch.Tensor, y: torch.Tensor):
    if x > y:
        return x
    return y


@torch.compile
def case_if_local_tensor(x):
    total = torch.sum(x * x)
    if total < 1000:
        return x
    return x / total


@torch.compile
def case_unannotated_scalar_compare(t):
    if t > 0:
        return t * 2
    return t


class Gated(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)

    def forward(self, x):
        h = self.fc(x)
        if h.mean() > 0:
            h = F.relu(h)
        return h


case_module_data_branch = torch.compile(Gated())


# Negatives.

@torch.compile
def case_if_shape(x):
    if x.shape[0] > 2:
        return x * 2
    return x


@torch.compile
def case_if_dim_size(x):
    if x.dim() == 2 and x.size(1) == 4:
        return x.t()
    return x


@torch.compile
def case_if_dtype(x):
    if x.dtype == torch.float32:
        return x.double()
    return x


@torch.compile
def case_if_none(x, y=None):
    if y is None:
        return x * 2
    return x + y


@torch.compile
def case_if_requires_grad(x):
    if x.requires_grad:
        return x.detach()
    return x + 1


@torch.compile
def case_if_numel(x):
    if x.numel() == 0:
        return x
    return x.sum(0)


@torch.compile
def case_loop_over_shape(x):
    out = x.clone()
    for i in range(x.shape[0]):
        out[i] = out[i] * i
    return out


@torch.compile
def case_torch_where(x):
    return torch.where(x > 0, x, -x)


@torch.compile
def case_torch_cond(x):
    return torch.cond(x.sum() > 0, lambda t: t * 2, lambda t: t - 1, (x,))


@torch.compile
def case_flag_param(x, scale: bool = True):
    if scale:
        return x * 2
    return x


@torch.compile
def case_int_param(x, n: int = 3):
    if n > 2:
        return x * n
    return x


@torch.compile
def case_assert_shape(x):
    assert x.shape[-1] == 4, "need 4 features"
    return x + 1


@torch.compile
def case_isinstance(x):
    if isinstance(x, torch.Tensor):
        return x * 2
    return x


@torch.compile
def case_len_list(x):
    xs = [x, x + 1]
    if len(xs) > 1:
        return xs[0] + xs[1]
    return x


class Drop(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)

    def forward(self, x):
        if self.training:
            x = F.dropout(x, 0.1)
        return self.fc(x)


case_module_training_flag = torch.compile(Drop())


@torch.compile
def case_clamp_not_branch(x):
    return x.clamp(min=0) + (x > 0).float()


@torch.compile
def case_if_allclose(x):
    if torch.allclose(x, x * 1.0):
        return x + 1
    return x


@torch.compile
def case_equal_method_no_branch(x):
    same = x.equal(x.clone())
    return x * 2 if same else x


@torch.compile
def case_bool_of_tensor(x):
    flag = bool(x.any())
    return x + 1 if flag else x


@torch.compile
def case_isfinite_raise(x):
    if not torch.isfinite(x).all():
        raise ValueError("non-finite input")
    return x * 2


@torch.compile
def case_mask_not_none_any(x, mask=None):
    mask = x > 0
    if mask is not None and mask.any():
        return x * mask
    return x


# More negatives.

@torch.compile
def case_if_device(x):
    if x.device.type == "cuda" or x.is_cuda:
        return x * 2
    return x + 1


@torch.compile
def case_dtype_ternary(x):
    x = x.float() if x.dtype == torch.half else x
    return x * 3


@torch.compile
def case_item_in_raise_message(x):
    if x.dim() != 2:
        raise ValueError(f"bad sum {x.sum().item()}")
    return x - 2


@torch.compile
def case_assert_message_item(x):
    assert x.shape[0] > 0, f"empty, sum={x.sum().item()}"
    return x + 2
