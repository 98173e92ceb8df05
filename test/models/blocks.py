#!/usr/bin/python3
"""Real model blocks as their authors write them, for test/models/blocks.test: a GPT-2
block, a BERT layer, a Llama block, a ViT block, a T5 block and a ConvNeXt block, each
written here in PyTorch (random weights, torch.manual_seed(0); nothing is downloaded)
after the published architectures, and exported with torch.onnx.export at opsets 13
and 17.

usage: blocks.py OUTDIR [--size small|real] [--only NAME,...]
  writes OUTDIR/NAME_opsetN/model.onnx, in<i>.npy (seeded random inputs) and
  expected<i>.npy (PyTorch's own outputs, float32).

`small` (the default) is what make check runs on the CPU; the files under
test/models/Inputs/ were made by this script with Debian's python3-torch (1.13):
  /usr/bin/python3 test/models/blocks.py test/models/Inputs
`real` gives the blocks at their models' widths (GPT-2 small, BERT base, a Llama-style
block of 8 q heads and 2 kv heads, ViT-B/16, T5 base, ConvNeXt-T's first stage) and a
sequence of 128, for the GPU machine (test/gpu, bench/models)."""
import math
import os
import sys
import warnings

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

warnings.filterwarnings("ignore")

SIZES = {
    #        batch, seq, width, heads, kv heads, ffn, image, patch, channels
    "small": dict(b=2, s=16, d=32, h=4, kvh=2, ffn=64, img=32, patch=8, ch=16),
    "real": dict(b=1, s=128, d=768, h=12, kvh=2, ffn=3072, img=224, patch=16, ch=96),
}


class Gpt2Block(nn.Module):
    """GPT-2: pre-LN, one fused qkv projection (Conv1D: x @ W + b) split three ways, a
    causal mask kept by torch.where with finfo.min from a registered tril buffer,
    scores divided by sqrt(head dim), tanh-GELU (gelu_new) written out."""

    def __init__(self, c):
        super().__init__()
        d, self.h = c["d"], c["h"]
        self.ln_1, self.ln_2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.c_attn, self.c_proj = nn.Linear(d, 3 * d), nn.Linear(d, d)
        self.c_fc, self.mlp_proj = nn.Linear(d, 4 * d), nn.Linear(4 * d, d)
        n = c["s"]
        self.register_buffer("bias", torch.tril(torch.ones(n, n, dtype=torch.bool)).view(1, 1, n, n))

    def heads(self, x):
        b, s, d = x.shape
        return x.view(b, s, self.h, d // self.h).permute(0, 2, 1, 3)

    def forward(self, x):
        b, s, d = x.shape
        q, k, v = self.c_attn(self.ln_1(x)).split(d, dim=2)
        q, k, v = self.heads(q), self.heads(k), self.heads(v)
        w = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(d // self.h)
        w = torch.where(self.bias[:, :, :s, :s], w, torch.tensor(torch.finfo(w.dtype).min))
        a = torch.matmul(w.softmax(dim=-1), v).permute(0, 2, 1, 3).reshape(b, s, d)
        x = x + self.c_proj(a)
        hdn = self.c_fc(self.ln_2(x))
        hdn = 0.5 * hdn * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (hdn + 0.044715 * torch.pow(hdn, 3.0))))
        return x + self.mlp_proj(hdn)


class BertLayer(nn.Module):
    """BERT: post-LN, three projections, an additive attention-mask bias made from the
    [batch, seq] mask as (1 - mask) * finfo.min, erf-GELU."""

    def __init__(self, c):
        super().__init__()
        d, self.h = c["d"], c["h"]
        self.q, self.k, self.v, self.o = (nn.Linear(d, d) for _ in range(4))
        self.ln1, self.ln2 = nn.LayerNorm(d, eps=1e-12), nn.LayerNorm(d, eps=1e-12)
        self.fc1, self.fc2 = nn.Linear(d, c["ffn"]), nn.Linear(c["ffn"], d)

    def heads(self, x):
        b, s, d = x.shape
        return x.view(b, s, self.h, d // self.h).permute(0, 2, 1, 3)

    def forward(self, x, mask):
        b, s, d = x.shape
        bias = (1.0 - mask[:, None, None, :]) * torch.finfo(torch.float32).min
        scores = torch.matmul(self.heads(self.q(x)), self.heads(self.k(x)).transpose(-1, -2))
        p = F.softmax(scores / math.sqrt(d // self.h) + bias, dim=-1)
        a = torch.matmul(p, self.heads(self.v(x))).permute(0, 2, 1, 3).reshape(b, s, d)
        x = self.ln1(x + self.o(a))
        return self.ln2(x + self.fc2(F.gelu(self.fc1(x))))


class RmsNorm(nn.Module):
    def __init__(self, d, eps=1e-6):
        super().__init__()
        self.weight, self.eps = nn.Parameter(torch.ones(d) + 0.1 * torch.randn(d)), eps

    def forward(self, x):
        return self.weight * (x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps))


class LlamaBlock(nn.Module):
    """Llama: RMSNorm, RoPE from sin/cos tables with rotate_half by slice + concat,
    grouped-query attention (kv heads repeated by expand + reshape), a causal mask as an
    additive bias buffer, SwiGLU."""

    def __init__(self, c):
        super().__init__()
        d, self.h, self.kvh = c["d"], c["h"], c["kvh"]
        self.hd = d // self.h
        self.norm1, self.norm2 = RmsNorm(d), RmsNorm(d)
        self.q = nn.Linear(d, d, bias=False)
        self.k = nn.Linear(d, self.kvh * self.hd, bias=False)
        self.v = nn.Linear(d, self.kvh * self.hd, bias=False)
        self.o = nn.Linear(d, d, bias=False)
        self.gate, self.up = nn.Linear(d, c["ffn"], bias=False), nn.Linear(d, c["ffn"], bias=False)
        self.down = nn.Linear(c["ffn"], d, bias=False)
        s = c["s"]
        inv = 1.0 / (10000 ** (torch.arange(0, self.hd, 2).float() / self.hd))
        ang = torch.outer(torch.arange(s).float(), inv)
        emb = torch.cat([ang, ang], dim=-1)
        self.register_buffer("cos", emb.cos()[None, None])
        self.register_buffer("sin", emb.sin()[None, None])
        self.register_buffer("causal", torch.full((s, s), float("-inf")).triu(1)[None, None])

    @staticmethod
    def rotate_half(x):
        half = x.shape[-1] // 2
        return torch.cat((-x[..., half:], x[..., :half]), dim=-1)

    def repeat_kv(self, x):
        b, kvh, s, hd = x.shape
        g = self.h // kvh
        return x[:, :, None, :, :].expand(b, kvh, g, s, hd).reshape(b, kvh * g, s, hd)

    def forward(self, x):
        b, s, d = x.shape
        h = self.norm1(x)
        q = self.q(h).view(b, s, self.h, self.hd).transpose(1, 2)
        k = self.k(h).view(b, s, self.kvh, self.hd).transpose(1, 2)
        v = self.v(h).view(b, s, self.kvh, self.hd).transpose(1, 2)
        q = q * self.cos + self.rotate_half(q) * self.sin
        k = k * self.cos + self.rotate_half(k) * self.sin
        k, v = self.repeat_kv(k), self.repeat_kv(v)
        w = torch.matmul(q, k.transpose(2, 3)) / math.sqrt(self.hd) + self.causal
        a = torch.matmul(F.softmax(w, dim=-1), v).transpose(1, 2).reshape(b, s, d)
        x = x + self.o(a)
        h = self.norm2(x)
        return x + self.down(F.silu(self.gate(h)) * self.up(h))


class VitBlock(nn.Module):
    """ViT: the patch embedding (a conv with stride = kernel = patch), flatten and
    transpose to tokens, a class token concatenated, position embeddings, one pre-LN
    encoder block (fused qkv, erf-GELU)."""

    def __init__(self, c):
        super().__init__()
        d, self.h = c["d"], c["h"]
        self.patch = nn.Conv2d(3, d, c["patch"], stride=c["patch"])
        n = (c["img"] // c["patch"]) ** 2
        self.cls = nn.Parameter(0.02 * torch.randn(1, 1, d))
        self.pos = nn.Parameter(0.02 * torch.randn(1, n + 1, d))
        self.ln1, self.ln2 = nn.LayerNorm(d, eps=1e-6), nn.LayerNorm(d, eps=1e-6)
        self.qkv, self.proj = nn.Linear(d, 3 * d), nn.Linear(d, d)
        self.fc1, self.fc2 = nn.Linear(d, c["ffn"]), nn.Linear(c["ffn"], d)

    def forward(self, img):
        x = self.patch(img).flatten(2).transpose(1, 2)
        b, n, d = x.shape
        x = torch.cat([self.cls.expand(b, -1, -1), x], dim=1) + self.pos
        qkv = self.qkv(self.ln1(x)).reshape(b, n + 1, 3, self.h, d // self.h).permute(2, 0, 3, 1, 4)
        q, k, v = qkv[0], qkv[1], qkv[2]
        a = (q @ k.transpose(-2, -1)) * (d // self.h) ** -0.5
        a = (a.softmax(dim=-1) @ v).transpose(1, 2).reshape(b, n + 1, d)
        x = x + self.proj(a)
        return x + self.fc2(F.gelu(self.fc1(self.ln2(x))))


class T5Block(nn.Module):
    """T5: the RMS-style norm (no mean, no bias), no score scaling, a relative position
    bias gathered from a learned [buckets, heads] table by constant bucket indices, ReLU
    FFN."""

    def __init__(self, c):
        super().__init__()
        d, self.h, s = c["d"], c["h"], c["s"]
        self.norm1, self.norm2 = RmsNorm(d), RmsNorm(d)
        self.q, self.k, self.v, self.o = (nn.Linear(d, d, bias=False) for _ in range(4))
        self.wi, self.wo = nn.Linear(d, c["ffn"], bias=False), nn.Linear(c["ffn"], d, bias=False)
        buckets = 32
        self.rel = nn.Embedding(buckets, self.h)
        rel = torch.arange(s)[None, :] - torch.arange(s)[:, None]
        # T5's bidirectional bucketing, exact for |rel| < 8, logarithmic beyond
        n = buckets // 2
        sign = (rel > 0).long() * n
        a = rel.abs()
        large = 8 + (torch.log(a.float().clamp(min=1) / 8) / math.log(128 / 8) * (n - 8)).long()
        self.register_buffer("bucket", sign + torch.where(a < 8, a, large.clamp(max=n - 1)))

    def heads(self, x):
        b, s, d = x.shape
        return x.view(b, s, self.h, d // self.h).transpose(1, 2)

    def forward(self, x):
        b, s, d = x.shape
        h = self.norm1(x)
        bias = self.rel(self.bucket).permute(2, 0, 1)[None]
        w = torch.matmul(self.heads(self.q(h)), self.heads(self.k(h)).transpose(3, 2)) + bias
        a = torch.matmul(F.softmax(w.float(), dim=-1), self.heads(self.v(h))).transpose(1, 2).reshape(b, s, d)
        x = x + self.o(a)
        return x + self.wo(F.relu(self.wi(self.norm2(x))))


class ConvNextBlock(nn.Module):
    """ConvNeXt: a 7x7 depthwise conv, channels last by permute, LayerNorm over the
    channels, Linear 4C, GELU, Linear C, a layer scale, permute back, the residual."""

    def __init__(self, c):
        super().__init__()
        ch = c["ch"]
        self.dw = nn.Conv2d(ch, ch, 7, padding=3, groups=ch)
        self.norm = nn.LayerNorm(ch, eps=1e-6)
        self.pw1, self.pw2 = nn.Linear(ch, 4 * ch), nn.Linear(4 * ch, ch)
        self.gamma = nn.Parameter(0.1 * torch.randn(ch))

    def forward(self, x):
        y = self.dw(x).permute(0, 2, 3, 1)
        y = self.gamma * self.pw2(F.gelu(self.pw1(self.norm(y))))
        return x + y.permute(0, 3, 1, 2)


def example_inputs(name, c, g):
    b, s, d = c["b"], c["s"], c["d"]
    if name == "bert":
        mask = torch.ones(b, s)
        mask[0, s - s // 4:] = 0.0  # the first sequence padded
        return (torch.randn(b, s, d, generator=g), mask)
    if name == "vit":
        return (torch.randn(b, 3, c["img"], c["img"], generator=g),)
    if name == "convnext":
        side = 14 if c is SIZES["small"] else 56
        return (torch.randn(b, c["ch"], side, side, generator=g),)
    return (torch.randn(b, s, d, generator=g),)


BLOCKS = {"gpt2": Gpt2Block, "bert": BertLayer, "llama": LlamaBlock, "vit": VitBlock, "t5": T5Block,
          "convnext": ConvNextBlock}


def main(argv):
    out = argv[0]
    size = argv[argv.index("--size") + 1] if "--size" in argv else "small"
    only = argv[argv.index("--only") + 1].split(",") if "--only" in argv else list(BLOCKS)
    c = SIZES[size]
    for name in only:
        for opset in (13, 17):
            torch.manual_seed(0)
            model = BLOCKS[name](c).eval()
            g = torch.Generator().manual_seed(1)
            inputs = example_inputs(name, c, g)
            d = os.path.join(out, f"{name}_opset{opset}")
            os.makedirs(d, exist_ok=True)
            with torch.no_grad():
                expected = model(*inputs)
                torch.onnx.export(model, inputs, os.path.join(d, "model.onnx"), opset_version=opset,
                                  do_constant_folding=True)
            for i, x in enumerate(inputs):
                np.save(os.path.join(d, f"in{i}.npy"), x.numpy())
            np.save(os.path.join(d, "expected0.npy"), expected.numpy().astype(np.float32))
            print(d)


if __name__ == "__main__":
    main(sys.argv[1:])
