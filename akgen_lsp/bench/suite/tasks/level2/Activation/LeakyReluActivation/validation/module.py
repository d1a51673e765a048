"""PyTorch reference of LeakyReluActivation (the same semantics as reference_np.py)."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, negative_slope=0.01):
        super().__init__()
        self.negative_slope = negative_slope

    def forward(self, x0):
        negative_slope = self.negative_slope
        return torch.nn.functional.leaky_relu(x0, negative_slope)
