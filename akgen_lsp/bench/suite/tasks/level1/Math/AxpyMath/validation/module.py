"""PyTorch reference of AxpyMath (the same semantics as reference_np.py)."""

import torch.nn as nn


class Model(nn.Module):
    def __init__(self, alpha=0.5):
        super().__init__()
        self.alpha = alpha

    def forward(self, x0, x1):
        alpha = self.alpha
        return alpha * x0 + x1
