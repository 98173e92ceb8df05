"""frontend="fx": make_fx's ATen graphs as graph dialect text, compiled, vs eager on fresh
random inputs; the MLIR's locations point at the user's lines that made each op; ops
it cannot take are listed in one error, each with its line."""
import inspect
import os
import re
import sys

import torch
from torch import nn

import braze
import models

BOUND = 1e-4


class LinearGelu(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(16, 32)

    def forward(self, x):
        y = self.fc(x)
        return torch.nn.functional.gelu(y, approximate="tanh")


def ops_at(c):
    """[(graph op, file basename, line)] of the compiled graph's text."""
    with open(os.path.join(c._source, "graph.mlir")) as f:
        text = f.read()
    res = []
    for line in text.splitlines():
        if '"graph.' in line and "graph.constant" not in line:
            op = re.search(r'"graph\.(\w+)"', line).group(1)
            loc = re.search(r'loc\("([^"]*)":(\d+):0\)', line)
            res.append((op, os.path.basename(loc.group(1)) if loc else None, int(loc.group(2)) if loc else None))
    return res


def line_of(fn_or_file, text):
    src = open(fn_or_file).read().splitlines() if isinstance(fn_or_file, str) else None
    return next(i + 1 for i, l in enumerate(src) if text in l)


def attention_mask(shape, gen):
    """A [batch, seq] 0/1 mask with random zeros (padding), the first token kept."""
    mask = (torch.rand(shape, generator=gen) > 0.35).float()
    mask[:, 0] = 1.0
    return mask


def check(name, m, xs):
    m.eval()
    c = braze.compile(m, xs, frontend="fx")
    x2 = tuple(torch.randn_like(x) for x in xs)
    if name == "bert":
        # A real attention mask: 0/1 with random zeros, not random normals; several draws.
        gen = torch.Generator().manual_seed(3)
        err, zeros = 0.0, []
        for _ in range(3):
            x2 = (torch.randn_like(xs[0]), attention_mask(xs[1].shape, gen))
            with torch.no_grad():
                err = max(err, models.rel_err(c(*x2), m(*x2)))
            zeros.append(int((x2[1] == 0).sum()))
        print("%s: %d kernels, %s" % (name, len(c.kernels), "ok" if err < BOUND else "FAIL %g" % err))
        with torch.no_grad():
            unmasked = c(x2[0], torch.ones_like(x2[1]))
        print("  masks with zeros: %s; the mask changes the output: %s"
              % (all(z > 0 for z in zeros), models.rel_err(unmasked, c(*x2)) > 1e-3))
        return c
    with torch.no_grad():
        want = m(*x2)
    err = models.rel_err(c(*x2), want)
    print("%s: %d kernels, %s" % (name, len(c.kernels), "ok" if err < BOUND else "FAIL %g" % err))
    return c


here = os.path.abspath(__file__)
c = check("linear_gelu", LinearGelu(), (torch.randn(4, 16),))
print("  kernels", [k["name"] for k in c.kernels])
for op, f, line in ops_at(c):
    print("  %s at %s:%s" % (op, f, line))
call = line_of(here, 'c = braze.compile(m, xs, frontend="fx")')
c = check("mlp_relu", nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 8)), (torch.randn(4, 16),))
print("  every op at the line that called braze.compile:", all(f == "fx_models.py" and l == call for _, f, l in ops_at(c)))
for name in sys.argv[1:]:
    if name == "resnet18":
        import torchvision
        m, xs = torchvision.models.resnet18(), (torch.randn(1, 3, 64, 64),)
    elif name in ("bert", "llama", "vit", "t5", "convnext"):
        import blocks                      # test/models/blocks.py, small sizes
        m = blocks.BLOCKS[name](blocks.SIZES["small"])
        xs = blocks.example_inputs(name, blocks.SIZES["small"], torch.Generator().manual_seed(1))
    else:
        m, xs = models.model(name)
    c = check(name, m, xs)
    at = ops_at(c)
    print("  ops without a file:line:", sum(1 for _, f, _ in at if f is None))
    if name == "gpt2_block":
        import blocks
        bfile = blocks.__file__
        sm = [(f, l) for op, f, l in at if op == "softmax"]
        print("  softmax at blocks.py's softmax line:", sm == [("blocks.py", line_of(bfile, "w.softmax(dim=-1)"))])
        ln = sorted({l for op, f, l in at if op == "layer_norm"})
        print("  layer norms at their lines:", ln == [line_of(bfile, "self.ln_1(x)"), line_of(bfile, "self.ln_2(x)")])


def unsupported(x):
    y = torch.cumsum(x, 0)
    z = torch.flip(y, [1]) + torch.cumsum(y, 1)
    return torch.relu(z)


try:
    braze.compile(unsupported, (torch.randn(3, 4),), frontend="fx")
except braze.BrazeError as e:
    text = str(e)
    print("%s: %s" % (type(e).__name__, re.sub(r" at /\S*/", " at ", text)))
    print("no traceback:", "Traceback" not in text and 'File "' not in text)
    y, z = line_of(here, "y = torch.cumsum"), line_of(here, "z = torch.flip")
    print("lines:", [int(l) for l in re.findall(r"at \S+:(\d+)", text)] == [y, z, z])
