"""PyTorch reference of ForeachMulScalar (the same semantics as reference_np.py)."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, scalar=1.5):
        super().__init__()
        self.scalar = scalar

    def forward(self, x0, x1, x2):
        products = torch._foreach_mul([x0.float(), x1.float(), x2.float()], self.scalar)
        return tuple(p.to(x0.dtype) for p in products)
