"""braze.compile(..., dynamic={input: {dim: (symbol, min, max[, div])}}): one library
with a symbolic dim (decision 0029), called at several sizes vs eager; its calls out of
bounds, its manifest; and every refusal, each naming the dim (argv[1]: the directory
to export into)."""
import re
import sys

import torch
from torch import nn

import braze
import models

BOUND = 1e-4


def ok(err):
    return "ok" if err < BOUND else "FAIL %g" % err


def short(e):
    """The message with directories cut (paths differ between machines)."""
    return re.sub(r'(?<![\w.])/\S*/([\w.-]+\.(?:py|mlir))', r"\1", str(e))


def attempt(label, f):
    try:
        f()
        print("%s: compiled" % label)
    except (braze.BrazeError, braze.InputError) as e:
        print("%s: %s: %s" % (label, type(e).__name__, short(e)))


class Head(nn.Module):
    """A classifier head over rows: Linear, GELU, LayerNorm, Linear, log_softmax."""

    def __init__(self):
        super().__init__()
        self.fc1, self.ln, self.fc2 = nn.Linear(24, 48), nn.LayerNorm(48), nn.Linear(48, 10)

    def forward(self, x, scale):
        h = self.ln(torch.nn.functional.gelu(self.fc1(x)))
        return torch.log_softmax(self.fc2(h) * scale, dim=-1)


torch.manual_seed(0)
for weights in ("constant", "input"):
    m = Head().eval()
    c = braze.compile(m, (torch.randn(8, 24), torch.randn(8, 1)), weights=weights, quiet=True,
                      dynamic={"x": {0: ("batch", 1, 256)}, "scale": {0: "batch"}})
    print("weights=%s: %s" % (weights, c))
    res = []
    for b in (1, 7, 8, 64, 65, 200, 256):
        x, s = torch.randn(b, 24), torch.rand(b, 1) + 0.5
        with torch.no_grad():
            want = m(x, s)
        got = c(x, s)
        res.append("%d %s %s" % (b, tuple(got.shape) == (b, 10), ok(models.rel_err(got, want))))
    print("  " + ", ".join(res))
    print("  one library:", c.symbolic, c.manifest["symbols"], c.manifest["inputs"][0]["shape"],
          c.manifest["outputs"][0]["shape"])
    xn = torch.randn(5, 24).numpy()
    print("  numpy:", c(xn, torch.ones(5, 1).numpy()).shape)
    y = torch.empty(9, 10)
    c(torch.randn(9, 24), torch.ones(9, 1), out=y)
    print("  out= at 9 rows: ok")
for label, args in (("too many rows", (torch.randn(257, 24), torch.ones(257, 1))),
                    ("no rows", (torch.randn(0, 24), torch.ones(0, 1))),
                    ("rows disagree", (torch.randn(6, 24), torch.ones(5, 1))),
                    ("static dim", (torch.randn(6, 23), torch.ones(6, 1)))):
    try:
        c(*args)
    except braze.InputError as e:
        print("%s: InputError: %s" % (label, e))
try:
    c(torch.randn(4, 24), torch.ones(4, 1), out=torch.empty(5, 10))
except braze.InputError as e:
    print("out: InputError: %s" % e)

# Exported, loaded where torch is not imported: numpy at two sizes.
braze.export(Head().eval(), (torch.randn(8, 24), torch.randn(8, 1)), sys.argv[1] + "/libhead.so", quiet=True,
             dynamic={"x": {0: ("batch", 1, 256)}, "scale": {0: "batch"}})



def at_sizes(label, fn, make, dynamic, sizes):
    """One library from the example make(sizes[0]), called at every size vs eager."""
    try:
        c = braze.compile(fn, make(sizes[0]), quiet=True, dynamic=dynamic)
    except (braze.BrazeError, braze.InputError) as e:
        print("%s: %s: %s" % (label, type(e).__name__, short(e)))
        return
    worst = 0.0
    for n in sizes:
        xs = make(n)
        with torch.no_grad():
            worst = max(worst, models.rel_err(c(*xs), fn(*xs)))
    print("%s: one library at %s: %s" % (label, ", ".join(map(str, sizes)), ok(worst)))


# Where the CPU's row blocks cannot take the dim, runtime loops do (decision 0032): the
# batch inside make_fx's [batch * 5, 16] view of a 3-d linear, a softmax over the dim.
lin = nn.Sequential(nn.Linear(16, 8), nn.ReLU()).eval()
at_sizes("batch of a 3-d linear", lin, lambda n: (torch.randn(n, 5, 16),),
         {"input": {0: ("batch", 1, 64)}}, [2, 1, 7, 64])


def colsoftmax(x):
    return torch.softmax(x, 0) * 2


at_sizes("softmax over the dim", colsoftmax, lambda n: (torch.randn(n, 8),), {0: {0: ("rows", 1, 64)}}, [4, 1, 9, 64])
attempt("two symbols in one dim", lambda: braze.compile(lin, (torch.randn(2, 5, 16),), quiet=True,
                                                        dynamic={"input": {0: ("batch", 1, 64), 1: ("seq", 1, 32)}}))
attempt("a contracted dim", lambda: braze.compile(lin, (torch.randn(4, 16),), quiet=True,
                                                  dynamic={"input": {1: ("k", 8, 32)}}))
import blocks                                          # test/models/blocks.py
gpt = blocks.Gpt2Block(blocks.SIZES["small"]).eval()
attempt("an attribute made from the dim", lambda: braze.compile(gpt, (torch.randn(2, 16, 32),), quiet=True,
                                                                dynamic={"x": {0: ("batch", 1, 8)}}))
# Specs it refuses before tracing.
h = Head().eval()
xs = (torch.randn(8, 24), torch.randn(8, 1))
for label, dyn in (("no such input", {"y": {0: ("b", 1, 8)}}),
                   ("no such dim", {"x": {2: ("b", 1, 8)}}),
                   ("outside the bounds", {"x": {0: ("b", 16, 64)}}),
                   ("not a multiple", {"x": {0: ("b", 4, 64, 3)}}),
                   ("no bounds", {"x": {0: "b"}}),
                   ("bad symbol", {"x": {0: ("2b", 1, 8)}}),
                   ("sizes disagree", {"x": {0: ("b", 1, 8)}, "scale": {1: "b"}}),
                   ("one size", {"x": {0: ("b", 8, 8)}})):
    attempt(label, lambda: braze.compile(h, xs, quiet=True, dynamic=dyn))
attempt("onnx", lambda: braze.compile(h, xs, quiet=True, frontend="onnx", dynamic={"x": {0: ("b", 1, 8)}}))
