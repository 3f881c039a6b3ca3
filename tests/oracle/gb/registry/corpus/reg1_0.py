"""Registry slice 1, part 0: Tensor-method graph breaks (GB0107-GB0130) and near misses.

Each case_gbNNNN should hit exactly that registry entry; each case_gbNNNN_ok is a look-alike
that Dynamo traces without a break.
"""
import torch

INPUTS = {
    "case_gb0108": lambda: (torch.randn(4, 4, requires_grad=True),),
    "case_gb0108_ok": lambda: (torch.randn(4, 4, requires_grad=True),),
    "case_gb0123": lambda: (torch.randn(4, 4, requires_grad=True),),
    "case_gb0123_ok": lambda: (torch.randn(4, 4, requires_grad=True),),
    "case_gb0129": lambda: (torch.eye(4).to_sparse(),),
    "case_gb0129_ok": lambda: (torch.eye(4).to_sparse(),),
    "case_gb0130": lambda: (torch.eye(4).to_sparse(),),
    "case_gb0130_ok": lambda: (torch.eye(4).to_sparse(),),
}


# GB0107: Tensor.random_ op
@torch.compile
def case_gb0107(x):
    y = x.clone()
    y.random_(0, 10)
    return y + x


@torch.compile
def case_gb0107_ok(x):
    y = torch.randint_like(x, 0, 10)
    return y + x


# GB0108: Tensor.retain_grad() with AOTDispatcher
@torch.compile
def case_gb0108(x):
    y = x * 2
    y.retain_grad()
    return y + 1


@torch.compile
def case_gb0108_ok(x):
    y = x * 2
    z = y.detach()
    return z + 1


# GB0109: Tensor.tolist() with non-integer tensor
@torch.compile
def case_gb0109(x):
    vals = x.tolist()
    return x * len(vals)


@torch.compile
def case_gb0109_ok(x):
    rows = x.unbind(0)
    return x * len(rows)


# GB0110: Tensor.uniform_ op called with `from` keyword
@torch.compile
def case_gb0110(x):
    y = x.clone()
    y.uniform_(**{"from": 0.0, "to": 1.0})
    return y + x


@torch.compile
def case_gb0110_ok(x):
    y = x.clone()
    y.uniform_(0.0, 1.0)
    return y + x


# GB0123: Unsupported Tensor.backward() call
@torch.compile
def case_gb0123(x):
    loss = (x * 2).sum()
    loss.backward()
    return x * 3


@torch.compile
def case_gb0123_ok(x):
    loss = (x * 2).sum()
    return x * 3 + loss.detach()


# GB0124: Unsupported Tensor.item() call with capture_scalar_outputs=False
@torch.compile
def case_gb0124(x):
    s = x.sum().item()
    return x * s


@torch.compile
def case_gb0124_ok(x):
    s = x.sum()
    return x * s


# GB0125: Unsupported Tensor.requires_grad_() call
@torch.compile
def case_gb0125(x):
    y = x.clone()
    y.requires_grad_()
    return y * 2


@torch.compile
def case_gb0125_ok(x):
    y = x.clone()
    y.requires_grad_(False)
    return y * 2


# GB0126: Unsupported Tensor.resize_() call
@torch.compile
def case_gb0126(x):
    y = x.clone()
    y.resize_(16)
    return y * 2


@torch.compile
def case_gb0126_ok(x):
    y = x.clone()
    y = y.reshape(16)
    return y * 2


# GB0127: Unsupported Tensor.resize_as_() call
@torch.compile
def case_gb0127(x):
    y = torch.zeros(2, 2)
    y.resize_as_(x)
    return y.zero_() + x


@torch.compile
def case_gb0127_ok(x):
    y = torch.zeros(4, 4)
    y = y.view_as(x)
    return y + x


# GB0128: Unsupported Tensor.set_() call
@torch.compile
def case_gb0128(x):
    y = torch.empty(0)
    y.set_(x.untyped_storage(), 0, (4, 4), (4, 1))
    return y + 1


@torch.compile
def case_gb0128_ok(x):
    y = torch.empty(0)
    y.set_(x)
    return y + 1


# GB0129: Unsupported Tensor.sparse_resize_() call
@torch.compile
def case_gb0129(x):
    x.sparse_resize_((4, 4), 2, 0)
    return x.to_dense() + 1


@torch.compile
def case_gb0129_ok(x):
    return x.to_dense() + 1


# GB0130: Unsupported Tensor.sparse_resize_and_clear_() call
@torch.compile
def case_gb0130(x):
    x.sparse_resize_and_clear_((4, 4), 2, 0)
    return x.to_dense() + 1


@torch.compile
def case_gb0130_ok(x):
    return x.to_dense() * 2
