"""braze.dynamo.braze_backend called directly (torch.compile's backend protocol, no
dynamo: PyTorch 1.13 here) on a symbolic_trace'd and a make_fx'd GraphModule with an op
braze does not take (cumsum): braze partitions plus an eager one, results vs eager."""
import io
import os
import re
import sys
from contextlib import redirect_stderr

import torch
from torch import nn

import braze.dynamo
import braze.fx
import models


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1, self.fc2, self.ln = nn.Linear(16, 32), nn.Linear(32, 16), nn.LayerNorm(16)

    def forward(self, x):
        h = torch.relu(self.fc1(x))
        h = torch.cumsum(h, dim=1)          # no graph dialect op: an eager partition
        return self.ln(self.fc2(h).softmax(-1) + x)


def traced(mod):
    """symbolic_trace with stack traces, as dynamo's graphs have them."""
    tracer = torch.fx.Tracer()
    tracer.record_stack_traces = True
    return torch.fx.GraphModule(mod, tracer.trace(mod))


m = Net().eval()
x = torch.randn(4, 16)
with torch.no_grad():
    want = m(x)
for how in sys.argv[1:]:
    if how == "symbolic_trace":
        gm = traced(m)
    else:
        gm = braze.fx.trace(m, (x,))           # make_fx with stack traces
    err = io.StringIO()
    with redirect_stderr(err):
        f = braze.dynamo.braze_backend(gm, [x])
    print("%s: %s" % (how, re.sub(r" at /\S*/", " at ", err.getvalue().strip())))
    kinds = [type(mod).__name__ for name, mod in f.named_children() if name.startswith("fused_")]
    print("  partitions:", kinds)
    locs = []
    for name, mod in f.named_children():
        if name.startswith("fused_"):
            with open(os.path.join(mod.compiled._source, "graph.mlir")) as g:
                locs += re.findall(r'"graph\.(?!constant)\w+".* loc\((.*)\)$', g.read(), re.M)
    print("  braze ops: %d, all at a line of backend.py: %s" % (len(locs), all(re.match(r'".*/backend.py":\d+:0', l) for l in locs)))
    x2 = torch.randn(4, 16)
    with torch.no_grad():
        got, want2 = f(x2), m(x2)
    got = got[0] if isinstance(got, (tuple, list)) else got
    print("  vs eager:", "ok" if models.rel_err(got, want2) < 1e-4 else "FAIL %g" % models.rel_err(got, want2))
err = io.StringIO()
with redirect_stderr(err):
    braze.dynamo.braze_backend(torch.fx.symbolic_trace(m), [x], quiet=True)
print("quiet: %r" % err.getvalue())
print("torch.compile available:", braze.dynamo.version_has_dynamo())

# Capture: the graphs and example inputs recorded (BRAZE_CAPTURE_DIR or capture=),
# the program run eagerly; `python3 -m braze.dynamo DIR` compiles them later.
if os.environ.get("CAPTURE_TO"):
    for i, mod in enumerate([m, models.model("gpt2_block")[0].eval()]):
        xi = x if i == 0 else torch.randn(2, 16, 32)
        f = braze.dynamo.braze_backend(traced(mod) if i == 0 else braze.fx.trace(mod, (xi,)), [xi],
                                       capture=os.environ["CAPTURE_TO"])
        with torch.no_grad():
            print("captured %d, runs eagerly: %s" % (i, torch.equal(f(xi), mod(xi))))
