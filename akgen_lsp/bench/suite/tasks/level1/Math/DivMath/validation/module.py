"""PyTorch reference of DivMath (the same semantics as reference_np.py)."""

import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        pass

    def forward(self, x0, x1):
        return x0 / x1
