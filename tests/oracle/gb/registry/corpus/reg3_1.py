"""Registry slice 3 with torch._dynamo.config.trace_autograd_ops = True: Tensor.backward()
and torch.autograd.grad() traced in-graph, and the patterns Dynamo still refuses there."""
import torch

# Opt in to tracing autograd ops (off by default in torch 2.11); this file only.
torch._dynamo.config.trace_autograd_ops = True

INPUTS = {
    "case_gb7054": lambda: (torch.randn(4, 4, requires_grad=True),),
    "case_gb7054_ok": lambda: (torch.randn(4, 4, requires_grad=True),),
    "case_gb1042_ok": lambda: (torch.randn(4, 4, requires_grad=True),),
    "case_gb4927": lambda: (torch.randn(4, 4, requires_grad=True),),
    "case_gb4927_ok": lambda: (torch.randn(4, 4, requires_grad=True),),
}

torch.manual_seed(0)
_LIN = torch.nn.Linear(4, 4)


# GB7054: backward() with non-leaf tensor
@torch.compile
def case_gb7054(x):
    y = x * 2
    loss = (y * y).sum()
    loss.backward(inputs=[y])
    return y.detach() + 1


@torch.compile
def case_gb7054_ok(x):
    y = x * 2
    loss = (y * y).sum()
    loss.backward(inputs=[x])
    return y.detach() + 1


# GB1042: backward() with in-graph created tensor
@torch.compile
def case_gb1042(x):
    w = torch.ones(4, 4).requires_grad_()
    loss = (x * w).sum()
    loss.backward(inputs=[w])
    return x + 1


@torch.compile
def case_gb1042_ok(x):
    w = torch.ones(4, 4)
    loss = (x * w).sum()
    loss.backward(inputs=[x])
    return x.detach() + 1


# GB4927: autograd.grad consumed returned tensor's grad_fn
@torch.compile
def case_gb4927(x):
    y = x * 2
    (g,) = torch.autograd.grad(y.sum(), x)
    return y + g


@torch.compile
def case_gb4927_ok(x):
    y = x * 2
    (g,) = torch.autograd.grad(y.sum(), x, retain_graph=True)
    return y + g


# GB0371: autograd.grad with output that requires grad
@torch.compile
def case_gb0371(x):
    loss = _LIN(x).sum()
    torch.autograd.grad(loss, (_LIN.weight, _LIN.bias))
    return loss


@torch.compile
def case_gb0371_ok(x):
    loss = _LIN(x).sum()
    torch.autograd.grad(loss, (_LIN.weight, _LIN.bias))
    return loss.detach()
