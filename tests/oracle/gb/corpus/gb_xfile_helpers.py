"""Helpers called from compiled code in gb_xfile_main.py (no cases of its own)."""
import torch


def scale_by_max(t):
    return t * t.max().item()


def clean_scale(t):
    return t * 2


def log_shape(t):
    print(t.shape)
    return t


class Noisy(torch.nn.Module):
    def forward(self, x):
        print("noisy")
        return x + 1


class Quiet(torch.nn.Module):
    def forward(self, x):
        return x + 1
