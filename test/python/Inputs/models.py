"""The models test/python compiles, small and seeded; run() compares braze with eager."""
import os
import sys

import torch
from torch import nn

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "models"))
torch.manual_seed(0)


class Mlp(nn.Module):
    def __init__(self, d=32, h=64):
        super().__init__()
        self.fc1, self.fc2, self.ln = nn.Linear(d, h), nn.Linear(h, d), nn.LayerNorm(d)

    def forward(self, x):
        return self.ln(x + self.fc2(torch.relu(self.fc1(x))))


class Mha(nn.Module):
    def __init__(self, d=32, h=4):
        super().__init__()
        self.attn = nn.MultiheadAttention(d, h, batch_first=True)

    def forward(self, x):
        return self.attn(x, x, x, need_weights=False)[0]


class TwoOutputs(nn.Module):
    def forward(self, a, b):
        return torch.tanh(a) * b, a + b


def model(name):
    """(module, example inputs) for name."""
    if name == "linear_gelu":
        return nn.Sequential(nn.Linear(16, 32), nn.GELU()), (torch.randn(4, 16),)
    if name == "mlp":
        return Mlp(), (torch.randn(8, 32),)
    if name == "encoder_layer":
        return nn.TransformerEncoderLayer(32, 4, dim_feedforward=64, batch_first=True, dropout=0.0), \
            (torch.randn(2, 16, 32),)
    if name == "mha":
        return Mha(), (torch.randn(2, 16, 32),)
    if name == "gpt2_block":
        import blocks
        return blocks.Gpt2Block(blocks.SIZES["small"]), (torch.randn(2, 16, 32),)
    if name == "two_outputs":
        return TwoOutputs(), (torch.randn(3, 5), torch.randn(3, 5))
    raise KeyError(name)


def rel_err(got, want):
    if isinstance(want, (tuple, list)):
        assert len(got) == len(want)
        return max(rel_err(g, w) for g, w in zip(got, want))
    return float((got - want).abs().max() / want.abs().max().clamp_min(1e-30))
