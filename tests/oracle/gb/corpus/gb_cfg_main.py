"""A program that sets capture_scalar_outputs and compiles code from another module."""
import torch
import torch._dynamo

from gb_cfg_helpers import float_helper, item_helper

torch._dynamo.config.capture_scalar_outputs = True


@torch.compile
def case_cfg_item_in_imported_helper(x):
    return item_helper(x)


@torch.compile
def case_cfg_float_in_imported_helper(x):
    return float_helper(x) + 1


@torch.compile
def case_cfg_still_breaks_on_print(x):
    print("step")
    return x * 2

