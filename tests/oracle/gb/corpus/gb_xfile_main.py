"""Compiled code that calls into other modules of the analysed tree."""
import torch
import torch.nn as nn

import gb_xfile_helpers as H
from gb_xfile_helpers import Noisy, Quiet, clean_scale, scale_by_max
from gbpkg import normalize, normalize_clean
from gbpkg.layers import Gate, QuietGate


@torch.compile
def case_xfile_item(x):
    return scale_by_max(x)


@torch.compile
def case_xfile_module_alias(x):
    return H.log_shape(x)


class Wrapper(nn.Module):
    def __init__(self):
        super().__init__()
        self.inner = Noisy()

    def forward(self, x):
        return self.inner(x)


case_xfile_submodule = torch.compile(Wrapper())


@torch.compile
def case_pkg_reexport(x):
    return normalize(x)


case_pkg_relative_import = torch.compile(Gate())


# Negatives.

@torch.compile
def case_xfile_clean(x):
    return clean_scale(x)


class QuietWrapper(nn.Module):
    def __init__(self):
        super().__init__()
        self.inner = Quiet()

    def forward(self, x):
        return self.inner(x) * 2


case_xfile_submodule_clean = torch.compile(QuietWrapper())


@torch.compile
def case_pkg_clean(x):
    return normalize_clean(x)


case_pkg_relative_clean = torch.compile(QuietGate())
