"""Cases a static analysis can get wrong, kept to measure it honestly."""
import torch

INPUTS = {
    "case_scalar_param_compare": lambda: (torch.tensor(0.5),),
    "case_helper_returns_tensor_bool": lambda: (torch.randn(4, 4),),
}


@torch.compile
def case_scalar_param_compare(t):
    # A tensor parameter with no annotation and no tensor-only use: its type is unknown.
    if t > 0:
        return t * 2
    return t - 1


def _is_positive(t):
    return t.sum() > 0


@torch.compile
def case_helper_returns_tensor_bool(x):
    # The condition is a tensor returned by a helper.
    if _is_positive(x):
        return x
    return -x


@torch.compile
def case_print_not_reached(x):
    # Dynamo only traces the path taken; this input never takes the branch.
    if x.shape[0] > 100:
        print("large batch")
    return x * 2


@torch.compile
def case_shadowed_print(x):
    print = lambda *args: None  # noqa: E731
    print("quiet")
    return x + 1


@torch.compile
def case_lambda_item(x):
    key = lambda t: t.sum().item()  # noqa: E731
    return x * key(x)


@torch.compile
def case_getattr_item(x):
    get = getattr(x.sum(), "item")
    return x * get()


@torch.compile
def case_sum_of_generator(x):
    return sum(r.max() for r in x) * x


@torch.compile
def case_mask_from_helper(x):
    m = _mask(x)
    return x[m].sum()


def _mask(t):
    return t > 0
