"""nn.Module forwards: RNN/LSTM/GRU submodules, TorchScript submodules, containers, inheritance."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch import nn as tnn

SEQ = lambda: (torch.randn(2, 3, 4),)  # noqa: E731

INPUTS = {
    "case_lstm": SEQ,
    "case_gru_fullgraph": SEQ,
    "case_rnn_local_var": SEQ,
    "case_lstm_unused": SEQ,
    "case_lstm_alias_import": SEQ,
}


class LSTMNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(4, 8, batch_first=True)
        self.head = nn.Linear(8, 2)

    def forward(self, x):
        out, _ = self.lstm(x)
        return self.head(out[:, -1])


case_lstm = torch.compile(LSTMNet())


class GRUNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.gru = nn.GRU(4, 4, batch_first=True)

    def forward(self, x):
        return self.gru(x)[0]


case_gru_fullgraph = torch.compile(GRUNet(), fullgraph=True)


class RNNLocal(nn.Module):
    def __init__(self):
        super().__init__()
        self.rnn = nn.RNN(4, 4, batch_first=True)

    def forward(self, x):
        layer = self.rnn
        y, _ = layer(x)
        return y


case_rnn_local_var = torch.compile(RNNLocal())


class LSTMAliasImport(tnn.Module):
    def __init__(self):
        super().__init__()
        self.enc = tnn.LSTM(4, 4, batch_first=True)

    def forward(self, x):
        return self.enc(x)[0] * 2


case_lstm_alias_import = torch.compile(LSTMAliasImport())


class Inner(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)

    def forward(self, x):
        return self.fc(x)


class ScriptedSub(nn.Module):
    def __init__(self):
        super().__init__()
        self.inner = torch.jit.script(Inner())

    def forward(self, x):
        return self.inner(x) + 1


case_scripted_submodule = torch.compile(ScriptedSub())


@torch.jit.script
def scripted_double(x):
    return x * 2


@torch.compile
def case_call_scripted_fn(x):
    return scripted_double(x) + 1


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)

    def forward(self, x):
        h = self.fc(x)
        if h.mean() > 0:
            h = h * 2
        return h


class Stack(nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = nn.ModuleList([Block() for _ in range(2)])

    def forward(self, x):
        for b in self.blocks:
            x = b(x)
        return x


case_modulelist_break = torch.compile(Stack())


class PrintingLayer(nn.Module):
    def forward(self, x):
        print("layer", x.shape)
        return x


class SeqNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(4, 4), PrintingLayer())

    def forward(self, x):
        return self.body(x)


case_sequential_break = torch.compile(SeqNet())


class DictNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.parts = nn.ModuleDict({"a": nn.Linear(4, 4), "b": Block()})

    def forward(self, x):
        return self.parts["b"](self.parts["a"](x))


case_moduledict_break = torch.compile(DictNet())


class Parent(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)

    def helper(self, x):
        return x * x.max().item()

    def forward(self, x):
        return self.helper(self.fc(x))


class Child(Parent):
    def forward(self, x):
        return super().forward(x) * 2


case_inherited_method = torch.compile(Child())


class AttrChain(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.ModuleDict(dict(h=nn.ModuleList([PrintingLayer()]), out=nn.Linear(4, 4)))

    def forward(self, x):
        for layer in self.enc.h:
            x = layer(x)
        return self.enc.out(x)


case_attr_chain_modulelist = torch.compile(AttrChain())


# Negatives.

class LSTMUnused(nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(4, 4, batch_first=True)
        self.fc = nn.Linear(4, 4)

    def forward(self, x):
        return self.fc(x)


case_lstm_unused = torch.compile(LSTMUnused())


class CleanStack(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([Inner() for _ in range(3)])
        self.norm = nn.LayerNorm(4)

    def forward(self, x):
        for layer in self.layers:
            x = F.gelu(layer(x))
        return self.norm(x)


case_modulelist_clean = torch.compile(CleanStack())


class CleanChild(Inner):
    def forward(self, x):
        return super().forward(x) + 1


case_inherited_clean = torch.compile(CleanChild())


class ConvNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(4, 4, 1)
        self.bn = nn.BatchNorm1d(4)

    def forward(self, x):
        return F.relu(self.bn(self.conv(x.unsqueeze(-1)))).squeeze(-1)


case_conv_clean = torch.compile(ConvNet())


class InPlaceCompiled(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)

    def forward(self, x):
        print("in-place compiled forward")
        return self.fc(x)


case_inplace_compiled = InPlaceCompiled()
case_inplace_compiled.compile()


class BoundForward(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)

    def forward(self, x):
        return self.fc(x).sum(-1)


_bf = BoundForward()
case_bound_forward_clean = torch.compile(_bf.forward)


class DecoratedForward(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)

    @torch.compile
    def forward(self, x):
        y = self.fc(x)
        return y * y.abs().max().item()


case_decorated_forward = DecoratedForward()


class DecoratedForwardClean(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)

    @torch.compile(fullgraph=True)
    def forward(self, x):
        return torch.tanh(self.fc(x))


case_decorated_forward_clean = DecoratedForwardClean()
