"""frontend="auto" (the default, decision 0028): make_fx's ATen graph where the fx
importer takes every op, else torch.onnx.export with a braze.FallbackWarning that says
why (each op fx lacks, with its line); quiet=True: no warning, the reason kept in
.frontend_reason. Results vs eager either way."""
import re
import warnings

import torch

import braze
import models


def cumsum_relu(x):
    return torch.relu(torch.cumsum(x, 0)) * 2


def eigh(x):
    return torch.linalg.eigh(x @ x.t())[0]


def report(label, f, x, **kw):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        c = braze.compile(f, (x,), **kw)
    fallback = [str(m.message) for m in w if issubclass(m.category, braze.FallbackWarning)]
    with torch.no_grad():
        want = f(x)
    err = models.rel_err(c(x), want)
    print("%s: frontend=%s entry=%s %s" % (label, c.frontend, c.manifest["entry"], "ok" if err < 1e-4 else "FAIL"))
    print("  warnings: %s" % [re.sub(r" at \S*/", " at ", m) for m in fallback])
    print("  reason: %s" % (c.frontend_reason and re.sub(r" at \S*/", " at ", c.frontend_reason)))
    if w:
        print("  warned at this file: %s" % all(m.filename == __file__ for m in w))


m, xs = models.model("mlp")
report("mlp", m.eval(), xs[0])
report("cumsum", cumsum_relu, torch.randn(5, 4))
report("cumsum quiet", cumsum_relu, torch.randn(5, 4), quiet=True)
try:
    braze.compile(eigh, (torch.randn(4, 4),), quiet=True)
except braze.BrazeError as e:
    print("eigh: %s" % re.sub(r" at \S*/", " at ", str(e)).split(" Please")[0])
