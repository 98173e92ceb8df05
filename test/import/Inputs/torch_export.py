#!/usr/bin/python3
"""PyTorch exports for the ONNX importer's tests (torch.test).

usage: torch_export.py OUTDIR
  writes OUTDIR/NAME/model.onnx, in<i>.npy (seeded random inputs) and
  expected<i>.npy (PyTorch's own outputs, float32) for each model below, with
  random weights (torch.manual_seed(0)); nothing is downloaded.

The files under Inputs/torch/ were made by this script with Debian's python3-torch
(1.13) and are checked in, so the test runs where torch is not installed:
  /usr/bin/python3 test/import/Inputs/torch_export.py test/import/Inputs/torch
"""
import os
import sys
import warnings

import numpy as np
import torch

warnings.filterwarnings("ignore")


class Mlp(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = torch.nn.Linear(16, 32)
        self.fc2 = torch.nn.Linear(32, 8)

    def forward(self, x):
        return self.fc2(torch.nn.functional.gelu(self.fc1(x)))


class Attention(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.mha = torch.nn.MultiheadAttention(32, 4, batch_first=True)

    def forward(self, x):
        return self.mha(x, x, x, need_weights=False)[0]


class EmbeddingClassifier(torch.nn.Module):
    """Embedding (Gather on a weight) -> mean over the sequence -> Linear -> log_softmax."""

    def __init__(self):
        super().__init__()
        self.emb = torch.nn.Embedding(50, 16)
        self.fc = torch.nn.Linear(16, 5)

    def forward(self, ids):
        return torch.log_softmax(self.fc(self.emb(ids).mean(dim=1)), dim=-1)


class PadCumsum(torch.nn.Module):
    """F.pad (reflect): torch 1.13 computes the pads with a reversing Slice and a
    Transpose of constants (folded at import), then cumsum and one_hot (constant depth)."""

    def forward(self, x, ids):
        padded = torch.nn.functional.pad(x, (1, 2), mode="reflect").cumsum(-1)
        return padded[..., :5] + torch.nn.functional.one_hot(ids, 5).float()


def encoder_layer(norm_first):
    return torch.nn.TransformerEncoderLayer(d_model=32, nhead=4, dim_feedforward=64, dropout=0.0,
                                            batch_first=True, norm_first=norm_first)


# name, module factory, example inputs, opset[, dynamic axes of in0/out0]
MODELS = [
    ("mlp", Mlp, lambda: (torch.randn(4, 16),), 13),
    ("attention", Attention, lambda: (torch.randn(2, 5, 32),), 14),
    ("embedding_classifier", EmbeddingClassifier, lambda: (torch.randint(0, 50, (3, 7)),), 13),
    ("pad_cumsum_onehot", PadCumsum, lambda: (torch.randn(2, 3, 8), torch.randint(0, 5, (2, 3))), 13),
    ("encoder_layer_opset13", lambda: encoder_layer(False), lambda: (torch.randn(2, 5, 32),), 13),
    ("encoder_layer_opset17", lambda: encoder_layer(True), lambda: (torch.randn(2, 5, 32),), 17),
    # batch and sequence exported as symbolic dims: imported with --shape in0=3x7x32
    ("encoder_layer_dynamic", lambda: encoder_layer(False), lambda: (torch.randn(3, 7, 32),), 17,
     {0: "batch", 1: "seq"}),
]


def export(out):
    for name, make, make_inputs, opset, *dynamic in MODELS:
        torch.manual_seed(0)
        module = make().eval()
        inputs = make_inputs()
        d = os.path.join(out, name)
        os.makedirs(d, exist_ok=True)
        # Exported with autograd on: in no_grad eval mode attention takes a fused fast
        # path (aten::_native_multi_head_attention) that torch 1.13 cannot export.
        axes = {"in0": dynamic[0], "out0": dynamic[0]} if dynamic else None
        torch.onnx.export(module, inputs, os.path.join(d, "model.onnx"), opset_version=opset,
                          input_names=[f"in{i}" for i in range(len(inputs))], output_names=["out0"],
                          dynamic_axes=axes)
        with torch.no_grad():
            outputs = module(*inputs)
        for i, x in enumerate(inputs):
            np.save(os.path.join(d, f"in{i}.npy"), x.numpy())
        np.save(os.path.join(d, "expected0.npy"), outputs.numpy().astype(np.float32))


if __name__ == "__main__":
    export(sys.argv[1])
