import torch


def normalize(t):
    n = t.norm()
    if n > 1:
        return t / n
    return t


def normalize_clean(t):
    return t / (t.norm() + 1e-6)


def gate_values(t):
    return t[t > 0]
