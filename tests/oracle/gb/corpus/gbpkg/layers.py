import torch.nn as nn

from . import ops
from .ops import normalize_clean


class Gate(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)

    def forward(self, x):
        return ops.gate_values(self.fc(x)).sum()


class QuietGate(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)

    def forward(self, x):
        return normalize_clean(self.fc(x))
