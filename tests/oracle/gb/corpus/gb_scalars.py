"""Scalars out of tensors: Tensor.item(), tolist(), numpy(), int()/float() of a tensor."""
import torch

INPUTS = {
    "case_tolist_int": lambda: (torch.arange(6).reshape(2, 3),),
    "case_int_of_tensor": lambda: (torch.tensor([3]),),
    "case_item_in_comprehension": lambda: (torch.randn(3),),
}


@torch.compile
def case_item_scale(x):
    s = x.sum().item()
    return x * s


@torch.compile(fullgraph=True)
def case_item_fullgraph(x):
    return x + x.max().item()


@torch.compile
def case_tolist_float(x):
    vals = x.tolist()
    return x + len(vals)


@torch.compile
def case_tolist_int(x):
    rows = x.tolist()
    return x * rows[0][0]


@torch.compile
def case_numpy_roundtrip(x):
    a = x.numpy()
    return torch.from_numpy(a * 2)


@torch.compile
def case_numpy_detach_cpu(x):
    a = x.detach().cpu().numpy()
    return torch.as_tensor(a.sum())


@torch.compile
def case_int_of_tensor(x):
    n = int(x[0])
    return torch.ones(n)


@torch.compile
def case_float_of_tensor(x):
    f = float(x.mean())
    return x * f


def _scale_by_first(t):
    return t * t[0, 0].item()


@torch.compile
def case_item_in_helper(x):
    return _scale_by_first(x)


@torch.compile
def case_item_in_comprehension(x):
    vals = [v.item() for v in x]
    return x * len(vals)


# Negatives.

@torch.compile
def case_shape_scalar(x):
    n = x.shape[0]
    return x * n


@torch.compile
def case_size_numel(x):
    return x / x.numel() + x.size(1)


@torch.compile
def case_dict_items(x):
    d = {"a": 1.0, "b": 2.0}
    total = 0.0
    for _, v in d.items():
        total += v
    return x * total


class Box:
    def __init__(self, v):
        self.v = v

    def item(self):
        return self.v


@torch.compile
def case_user_item_method(x):
    b = Box(3.0)
    return x * b.item()


def not_compiled_item(x):
    return x.sum().item()


@torch.compile
def case_item_outside(x):
    return x * 3


def driver(x):
    y = case_item_outside(x)
    return not_compiled_item(y)
