"""The older torch._dynamo.optimize entry point."""
import torch
import torch._dynamo


def _opt_item(x):
    return x * x.sum().item()


case_optimize_item = torch._dynamo.optimize("eager")(_opt_item)


def _opt_clean(x):
    return x + 1


case_optimize_clean = torch._dynamo.optimize("eager")(_opt_clean)


@torch._dynamo.optimize("eager", nopython=True)
def case_optimize_nopython_print(x):
    print("x")
    return x
