"""torchvision's ResNet-18 (random weights, eval, 1x3x64x64) through braze.compile vs eager."""
import torch
import torchvision

import braze
import models

m = torchvision.models.resnet18().eval()
x = torch.randn(1, 3, 64, 64)
c = braze.compile(m, (x,))
with torch.no_grad():
    want = m(x)
err = models.rel_err(c(x), want)
print("resnet18: %d kernels, %s" % (len(c.kernels), "ok" if err < 1e-3 else "FAIL %g" % err))
