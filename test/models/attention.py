#!/usr/bin/python3
"""Attention as PyTorch users write it, exported to ONNX, for test/models/attention.test:
the spellings that reach braze through an exporter rather than written in the graph
dialect (test/passes/chains/form-row-chains/Inputs/attention_spellings.py has those).
Each is q, k, v of [batch, heads, seq, head dim] in, the attention out:

  einsum          torch.einsum("bhqd,bhkd->bhqk") and "bhqk,bhkd->bhqd" (ONNX Einsum)
  tril_mask       causal by masked_fill(tril(ones) == 0, -inf), the mask made in forward
                  (Trilu at opset 14 and later)
  arange_mask     causal by comparing two aranges (Range, Unsqueeze, LessOrEqual)
  scale_both      q and k each scaled by head_dim ** -0.25 (as some implementations
                  split the scale)
  softmax_f32     softmax(x, dim=-1, dtype=torch.float32) then .type_as(q) (Llama's
                  spelling: a cast pair)
  baddbmm_scale   torch.baddbmm(zeros, q, kᵀ, beta=0, alpha=scale) on [b h, s, d] (GPT-2's
                  reorder-and-upcast path)

usage: attention.py OUTDIR   (writes OUTDIR/NAME_opset17/model.onnx, in*.npy, expected0.npy)
The files under test/models/Inputs/attention/ were made with Debian's python3-torch
(1.13): /usr/bin/python3 test/models/attention.py test/models/Inputs/attention"""
import math
import os
import sys
import warnings

import numpy as np
import torch
from torch import nn

warnings.filterwarnings("ignore")
B, H, S, D = 2, 2, 32, 16


class Einsum(nn.Module):
    def forward(self, q, k, v):
        s = torch.einsum("bhqd,bhkd->bhqk", q, k) / math.sqrt(D)
        return torch.einsum("bhqk,bhkd->bhqd", s.softmax(-1), v)


class TrilMask(nn.Module):
    def forward(self, q, k, v):
        s = q @ k.transpose(-2, -1) * (D ** -0.5)
        keep = torch.tril(torch.ones(S, S))
        s = s.masked_fill(keep == 0, float("-inf"))
        return s.softmax(-1) @ v


class ArangeMask(nn.Module):
    def forward(self, q, k, v):
        s = q @ k.transpose(-2, -1) / math.sqrt(D)
        i = torch.arange(S)
        s = torch.where(i[None, :] <= i[:, None], s, torch.tensor(float("-inf")))
        return torch.softmax(s, dim=-1) @ v


class ScaleBoth(nn.Module):
    def forward(self, q, k, v):
        c = D ** -0.25
        return ((q * c) @ (k * c).transpose(-2, -1)).softmax(-1) @ v


class SoftmaxF32(nn.Module):
    def forward(self, q, k, v):
        s = q @ k.transpose(2, 3) / math.sqrt(D)
        return nn.functional.softmax(s, dim=-1, dtype=torch.float32).type_as(q) @ v


class BaddbmmScale(nn.Module):
    def forward(self, q, k, v):
        qf, kf = q.reshape(B * H, S, D), k.reshape(B * H, S, D)
        w = torch.empty(B * H, S, S).zero_()
        w = torch.baddbmm(w, qf, kf.transpose(-1, -2), beta=0, alpha=1.0 / math.sqrt(D))
        return torch.matmul(w.softmax(-1).reshape(B, H, S, S), v)


SPELLINGS = {"einsum": Einsum, "tril_mask": TrilMask, "arange_mask": ArangeMask, "scale_both": ScaleBoth,
             "softmax_f32": SoftmaxF32, "baddbmm_scale": BaddbmmScale}


def main(argv):
    out = argv[0]
    for name, cls in SPELLINGS.items():
        g = torch.Generator().manual_seed(1)
        inputs = tuple(torch.randn(B, H, S, D, generator=g) for _ in range(3))
        d = os.path.join(out, f"{name}_opset17")
        os.makedirs(d, exist_ok=True)
        model = cls().eval()
        with torch.no_grad():
            expected = model(*inputs)
            torch.onnx.export(model, inputs, os.path.join(d, "model.onnx"), opset_version=17, do_constant_folding=True)
        for i, x in enumerate(inputs):
            np.save(os.path.join(d, f"in{i}.npy"), x.numpy())
        np.save(os.path.join(d, "expected0.npy"), expected.numpy().astype(np.float32))
        print(d)


if __name__ == "__main__":
    main(sys.argv[1:])
