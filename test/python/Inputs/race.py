"""Compile one module in this process; cache.test runs two at once on an empty cache."""
import numpy as np
import torch

import braze
import models

m, xs = models.model("mlp")
m.eval()
c = braze.compile(m, xs)
with torch.no_grad():
    print("ok" if models.rel_err(c(*xs), m(*xs)) < 1e-4 else "FAIL")
