"""The golden of twice: y = x + x (x a numpy array)."""

__golden__ = {"kernel": {"twice": "twice_golden"}}


def twice_golden(x, **kwargs):
    return x + x
