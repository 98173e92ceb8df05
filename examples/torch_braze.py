"""PyTorch in, PyTorch out with braze (docs/python.md):

    PYTHONPATH=python python3 examples/torch_braze.py

1. braze.compile(frontend="fx"): make_fx's ATen graph straight into the graph dialect,
   every op at the line below that made it; compared with eager.
2. braze.dynamo.braze_backend, the torch.compile backend, on a model with an op braze
   does not take (cumsum): braze partitions around an eager one, the coverage on stderr.
   On PyTorch >= 2.0 the same is torch.compile(model, backend="braze")."""
import torch
from torch import nn

import braze
import braze.dynamo


class Block(nn.Module):
    def __init__(self, d=64):
        super().__init__()
        self.ln, self.fc1, self.fc2 = nn.LayerNorm(d), nn.Linear(d, 4 * d), nn.Linear(4 * d, d)

    def forward(self, x):
        h = torch.nn.functional.gelu(self.fc1(self.ln(x)))
        return x + self.fc2(h).softmax(-1)


class WithCumsum(Block):
    def forward(self, x):
        return super().forward(torch.cumsum(x, dim=-1))


torch.manual_seed(0)
m, x = Block().eval(), torch.randn(8, 64)
c = braze.compile(m, (x,), frontend="fx")
with torch.no_grad():
    print("fx:", c, "max error vs eager %.2g" % (c(x) - m(x)).abs().max())
print("kernels:", [k["name"] for k in c.kernels])

m2 = WithCumsum().eval()
if braze.dynamo.version_has_dynamo():
    f = torch.compile(m2, backend="braze")
else:                                   # PyTorch 1.13: the backend on an FX graph, no dynamo
    f = braze.dynamo.braze_backend(torch.fx.symbolic_trace(m2), [x])
with torch.no_grad():
    print("backend: max error vs eager %.2g" % (f(x) - m2(x)).abs().max())
