"""RNN modules with torch._dynamo.config.allow_rnn = True set by this module."""
import torch
import torch._dynamo
import torch.nn as nn

torch._dynamo.config.allow_rnn = True

INPUTS = {
    "case_allowed_lstm": lambda: (torch.randn(2, 3, 4),),
    "case_allowed_gru": lambda: (torch.randn(2, 3, 4),),
}


class AllowedLSTM(nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(4, 4, batch_first=True)

    def forward(self, x):
        return self.lstm(x)[0]


case_allowed_lstm = torch.compile(AllowedLSTM())


class AllowedGRU(nn.Module):
    def __init__(self):
        super().__init__()
        self.gru = nn.GRU(4, 4, batch_first=True)

    def forward(self, x):
        return self.gru(x)[0]


case_allowed_gru = torch.compile(AllowedGRU())
