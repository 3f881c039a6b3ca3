"""How regions start and end: torch.compile(fn), decorator arguments, disable, is_compiling."""
import logging

import torch
import torch._dynamo
import torch.nn as nn

log = logging.getLogger("gb.regions")


def _impl_print(x):
    print("tracing")
    return x + 1


case_compile_call = torch.compile(_impl_print)


def _impl_clean(x):
    return x * 2


case_compile_call_clean = torch.compile(_impl_clean)


def _impl_item_fullgraph(x):
    return x * x.mean().item()


case_compile_call_fullgraph = torch.compile(_impl_item_fullgraph, fullgraph=True, dynamic=False)


@torch.compile(dynamic=True, backend="inductor")
def case_decorator_args(x):
    log.info("step")
    return x - 1


@torch.compiler.disable
def _eager_only(x):
    print("eager")
    return x + 1


@torch.compile
def case_calls_disabled(x):
    y = x * 2
    return _eager_only(y)


@torch._dynamo.disable
def _eager_only_dynamo(x):
    return x.sum().item()


@torch.compile
def case_calls_dynamo_disabled(x):
    return x * _eager_only_dynamo(x)


def _plain_helper(x):
    return x + 3


_wrapped_disabled = torch.compiler.disable(_plain_helper)


@torch.compile
def case_calls_disable_wrapped(x):
    return _wrapped_disabled(x) * 2


@torch.compiler.disable(recursive=False)
def _not_recursive(x):
    return x * 4


@torch.compile
def case_calls_disabled_nonrecursive(x):
    return _not_recursive(x) + 1


# Negatives.

@torch.compile
def case_disabled_defined_not_called(x):
    return x + 1


class WithDebug(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)

    def debug_dump(self):
        print(self.fc.weight)

    def forward(self, x):
        return self.fc(x)


case_module_uncalled_method = torch.compile(WithDebug())


@torch.compile
def case_is_compiling_else_item(x):
    if torch.compiler.is_compiling():
        s = 1.0
    else:
        s = x.sum().item()
    return x * s


@torch.compile
def case_jit_is_scripting_guard(x):
    if torch.jit.is_scripting():
        print("scripting")
    return x * 2


def _uncompiled_helper(x):
    print("only called from eager code")
    return x


def eager_main(x):
    return case_compile_call_clean(_uncompiled_helper(x))


@torch.compile
def case_allow_in_graph_call(x):
    return _in_graph(x) + 1


@torch._dynamo.allow_in_graph
def _in_graph(x):
    return x * 2
