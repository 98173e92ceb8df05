"""frontend="fx" with weights="input": parameters and buffers are arguments after the
inputs, passed by data_ptr on each call. Each model: compiled once, vs eager on fresh
random inputs; a second state_dict loaded into the module (load_state_dict copies into
the tensors the library reads: no set_weights needed), called again, vs eager; another
instance bound with set_weights; a new instance of the same architecture compiles to a
cache hit (the weights are not in the graph)."""
import os
import re
import sys

import torch
from torch import nn

import braze
import models

BOUND = 1e-4


class Tied(nn.Module):
    """One weight under two names (tied embeddings): one argument, both names bound."""

    def __init__(self):
        super().__init__()
        self.enc, self.dec = nn.Linear(16, 16), nn.Linear(16, 16, bias=False)
        self.dec.weight = self.enc.weight

    def forward(self, x):
        return self.dec(torch.tanh(self.enc(x)))


class ConvBn(nn.Module):
    """BatchNorm's buffers as arguments (running stats); num_batches_tracked, which eval
    never reads, is left out of the signature."""

    def __init__(self):
        super().__init__()
        self.conv, self.bn = nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8)
        with torch.no_grad():
            self.bn.running_mean.uniform_(-0.5, 0.5)
            self.bn.running_var.uniform_(0.5, 2.0)

    def forward(self, x):
        return torch.relu(self.bn(self.conv(x)))


def build(name):
    if name == "tied":
        return Tied(), (torch.randn(4, 16),)
    if name == "conv_bn":
        return ConvBn(), (torch.randn(1, 3, 8, 8),)
    if name == "resnet18":
        import torchvision
        m = torchvision.models.resnet18()
        with torch.no_grad():                 # running stats other than 0 and 1
            for mod in m.modules():
                if isinstance(mod, nn.BatchNorm2d):
                    mod.running_mean.uniform_(-0.2, 0.2)
                    mod.running_var.uniform_(0.5, 1.5)
        return m, (torch.randn(1, 3, 64, 64),)
    if name == "bert":
        import blocks
        m = blocks.BLOCKS["bert"](blocks.SIZES["small"])
        return m, blocks.example_inputs("bert", blocks.SIZES["small"], torch.Generator().manual_seed(1))
    return models.model(name)


def fresh(xs):
    res = []
    for x in xs:
        if x.dtype.is_floating_point and x.dim() == 2 and ((x == 0) | (x == 1)).all():
            m = (torch.rand(x.shape) > 0.3).float()      # a 0/1 mask stays one
            m[:, 0] = 1
            res.append(m)
        else:
            res.append(torch.randn_like(x))
    return tuple(res)


def ok(err):
    return "ok" if err < BOUND else "FAIL %g" % err


def run(c, m, xs):
    with torch.no_grad():
        want = m(*xs)
    return models.rel_err(c(*xs), want)


for name in sys.argv[1:]:
    m, xs = build(name)
    m.eval()
    c = braze.compile(m, xs, weights="input", frontend="fx", quiet=True)
    with open(os.path.join(c._source, "graph.mlir")) as f:
        text = f.read()
    sig = re.search(r"func\.func @\w+\((.*?)\) ->", text).group(1)
    print("%s: %d inputs + %d weights, %d args in the graph, %s" % (
        name, len(c.inputs), len(c.weight_args), sig.count("%arg"), ok(run(c, m, fresh(xs)))))
    print("  weights:", " ".join(a.name for a in c.weight_args[:3]), "...")
    other, _ = build(name)
    other.eval()
    m.load_state_dict(other.state_dict())
    x2 = fresh(xs)
    print("  second state_dict loaded: %s" % ok(run(c, m, x2)))
    third, _ = build(name)
    third.eval()
    c.set_weights(third)
    print("  set_weights(another instance): %s" % ok(run(c, third, x2)))
    again = braze.compile(third, xs, weights="input", frontend="fx", quiet=True)
    print("  the same architecture again: hit=%s, same library: %s" % (again.cache_hit, again.path == c.path))
    if name == "tied":
        print("  dec.weight is enc.weight's argument:", [a.name for a in c.weight_args] == ["enc.weight", "enc.bias"])
    if name == "conv_bn":
        print("  num_batches_tracked left out:", all("num_batches" not in a.name for a in c.weight_args))

# A weight of the wrong shape, a missing one.
m, xs = build("mlp")
c = braze.compile(m, xs, weights="input", frontend="fx", quiet=True)
sd = dict(m.state_dict())
sd["fc1.weight"] = torch.randn(3, 3)
for label, w in (("shape", sd), ("missing", {"fc1.weight": m.fc1.weight})):
    try:
        c.set_weights(w)
    except braze.InputError as e:
        print("%s: %s: %s" % (label, type(e).__name__, e))

# A function has no weights: weights="input" gives a library with its inputs only.
def scaled_tanh(x):
    return torch.tanh(x) * 2


c = braze.compile(scaled_tanh, (torch.randn(3, 4),), weights="input", frontend="fx", quiet=True)
x = torch.randn(3, 4)
print("function: %d weights, %s" % (len(c.weight_args), ok(models.rel_err(c(x), scaled_tanh(x)))))
