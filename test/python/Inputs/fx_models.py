"""frontend="fx": make_fx's ATen graph as graph dialect text, compiled, vs eager; the
MLIR's locations point at the lines below that made each op."""
import os
import re
import sys

import torch
from torch import nn

import braze
import models


class LinearGelu(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(16, 32)

    def forward(self, x):
        y = self.fc(x)
        return torch.nn.functional.gelu(y, approximate="tanh")


for name, (m, xs) in [("linear_gelu", (LinearGelu(), (torch.randn(4, 16),))),
                      ("mlp_relu", (nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 8)), (torch.randn(4, 16),)))]:
    m.eval()
    c = braze.compile(m, xs, frontend="fx")
    x2 = tuple(torch.randn_like(x) for x in xs)
    with torch.no_grad():
        want = m(*x2)
    err = models.rel_err(c(*x2), want)
    print("%s: %s %s" % (name, [k["name"] for k in c.kernels], "ok" if err < 1e-4 else "FAIL %g" % err))
    with open(os.path.join(c._source, "graph.mlir")) as f:
        text = f.read()
    for line in text.splitlines():
        if '"graph.' in line and "graph.constant" not in line:
            op = re.search(r'"graph\.(\w+)"', line).group(1)
            loc = re.search(r'loc\("([^"]*)":(\d+):0\)', line)
            print("  %s at %s:%s" % (op, os.path.basename(loc.group(1)), loc.group(2)))
try:
    braze.compile(lambda x: torch.softmax(x, -1), (torch.randn(2, 3),), frontend="fx")
except braze.BrazeError as e:
    print("BrazeError:", re.sub(r"\(at .*/", "(at ", str(e)))
