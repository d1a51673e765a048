"""PyTorch reference of AbsMath (the same semantics as reference_np.py)."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        pass

    def forward(self, x0):
        return torch.abs(x0)
