"""print, logging and warnings in compiled code, and where they are not compiled."""
import logging
import sys
import warnings

import torch

logger = logging.getLogger(__name__)


@torch.compile
def case_print(x):
    print("x", x.shape)
    return x + 1


@torch.compile(fullgraph=True)
def case_print_fullgraph(x):
    y = x * 2
    print(y.shape)
    return y


@torch.compile
def case_logger_info(x):
    logger.info("forward %s", x.shape)
    return x * 2


@torch.compile
def case_logger_debug(x):
    logger.debug("value")
    return x - 1


@torch.compile
def case_logging_module(x):
    logging.warning("careful")
    return x + 2


@torch.compile
def case_warnings_warn(x):
    warnings.warn("deprecated path")
    return x * 2


@torch.compile
def case_stdout_write(x):
    sys.stdout.write("")
    return x + 3


def _log_and_double(t):
    print("doubling")
    return t * 2


@torch.compile
def case_print_in_helper(x):
    return _log_and_double(x)


@torch.compile
def case_logger_is_enabled(x):
    if logger.isEnabledFor(logging.DEBUG):
        x = x + 0
    return x * 4


# Negatives.

@torch.compile
def case_print_guarded(x):
    if not torch.compiler.is_compiling():
        print("eager only")
    return x + 1


@torch.compile
def case_print_else_branch(x):
    if torch.compiler.is_compiling():
        y = x * 2
    else:
        print("eager")
        y = x * 2
    return y


@torch.compile
def case_early_return_compiling(x):
    if torch._dynamo.is_compiling():
        return x + 1
    logger.info("eager path")
    return x + 1


@torch.compile
def case_print_in_except(x):
    try:
        y = x + 1
    except RuntimeError:
        print("failed")
        raise
    return y


@torch.compile
def case_print_in_raise_branch(x):
    if x.dim() != 2:
        print("bad input")
        raise ValueError("need 2-D")
    return x * 2


@torch.compile
def case_no_logging(x):
    return torch.relu(x) + 1


def plain_driver(x):
    print("calling")
    logger.info("calling")
    return case_no_logging(x)


class Printer(torch.nn.Module):
    def __init__(self):
        super().__init__()
        print("building Printer")
        self.lin = torch.nn.Linear(4, 4)

    def forward(self, x):
        return self.lin(x)


case_module_print_init = torch.compile(Printer())


@torch.compile
def case_nested_def_unused(x):
    def report():
        print("never called")

    return x * 2


@torch.compile
def case_print_in_loop(x):
    for i in range(2):
        print("step", i)
        x = x + i
    return x


@torch.compile(fullgraph=True)
def case_logger_fullgraph(x):
    logger.warning("compiled step")
    return x * 3
