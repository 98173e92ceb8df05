"""braze.export: libmodel.so, model.h, model.json; the compiled call's outputs to .npy."""
import json
import sys

import numpy as np
import torch

import braze
import models

out = sys.argv[1]
weights = sys.argv[2] if len(sys.argv) > 2 else "constant"
m, xs = models.model("mlp")
m.eval()
c = braze.export(m, xs, out + "/libmodel.so", weights=weights)
x = torch.randn_like(xs[0])
np.save(out + "/x.npy", x.numpy())
np.save(out + "/want.npy", c(x).numpy())
if weights == "input":
    np.savez(out + "/weights.npz", **{k: v.detach().numpy() for k, v in m.named_parameters()})
man = json.load(open(out + "/libmodel.json"))
print(json.dumps({k: man[k] for k in ["entry", "inputs", "outputs", "target", "weights"]}, sort_keys=True))
print("cpu:", man["cpu"], "features:", len(man["cpu_features"]) > 0, "version:", man["braze_version"])
