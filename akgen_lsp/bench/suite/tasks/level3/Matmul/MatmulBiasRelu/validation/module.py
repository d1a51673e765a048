"""PyTorch reference of MatmulBiasRelu (the same semantics as reference_np.py)."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, a, b, bias):
        return torch.relu(a.float() @ b.float() + bias.float()).to(a.dtype)
