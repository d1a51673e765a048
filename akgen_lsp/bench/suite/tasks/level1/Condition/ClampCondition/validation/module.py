"""PyTorch reference of ClampCondition (the same semantics as reference_np.py)."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, min_val=-0.5, max_val=0.75):
        super().__init__()
        self.min_val = min_val
        self.max_val = max_val

    def forward(self, x0):
        min_val = self.min_val
        max_val = self.max_val
        return torch.clamp(x0, min_val, max_val)
