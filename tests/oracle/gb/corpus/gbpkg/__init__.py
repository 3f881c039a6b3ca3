from .ops import normalize, normalize_clean

__all__ = ["normalize", "normalize_clean"]
