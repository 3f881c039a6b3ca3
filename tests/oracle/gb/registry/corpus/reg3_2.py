"""Registry slice 3 with torch._dynamo.config.inline_inbuilt_nn_modules = False:
torch.func.functional_call is not captured when built-in nn.Modules are not inlined."""
import torch

# Legacy nn.Module handling (the default is True); this file only.
if hasattr(torch._dynamo.config, "inline_inbuilt_nn_modules"):
    torch._dynamo.config.inline_inbuilt_nn_modules = False

torch.manual_seed(0)
_LIN2 = torch.nn.Linear(4, 4)
_PARAMS = {k: v.detach().clone() for k, v in _LIN2.named_parameters()}


# GB0328: torch.func.functional_call capture is disabled
@torch.compile
def case_gb0328(x):
    return torch.func.functional_call(_LIN2, _PARAMS, (x,)) + 1


@torch.compile
def case_gb0328_ok(x):
    return _LIN2(x) + 1
