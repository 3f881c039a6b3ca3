"""Registry slice 3: a TorchScript module called from compiled code (kept apart so a
scripting failure at import loses only these cases)."""
import torch


class _Lin(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(4, 4)

    def forward(self, t):
        return self.lin(t)


torch.manual_seed(0)
_SCRIPTED = torch.jit.script(_Lin())
_PLAIN = _Lin()


# GB0357: UnspecializedNNModuleVariable wrapped around ScriptModules unsupported
@torch.compile
def case_gb0357(x):
    return _SCRIPTED(x) + 1


@torch.compile
def case_gb0357_ok(x):
    return _PLAIN(x) + 1
