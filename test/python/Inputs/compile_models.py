"""braze.compile on each model vs eager on fresh random inputs, constant and input weights.
argv: [--frontend=NAME] model names (default: the default front end, "auto")."""
import sys

import torch

import braze
import models

BOUND = 1e-4
args = sys.argv[1:]
kw = {}
if args and args[0].startswith("--frontend="):
    kw["frontend"] = args.pop(0).split("=", 1)[1]
for name in args:
    m, xs = models.model(name)
    m.eval()
    for weights in ["constant", "input"]:
        c = braze.compile(m, xs, weights=weights, **kw)
        x2 = tuple(torch.randn_like(x) for x in xs)
        with torch.no_grad():
            want = m(*x2)
        got = c(*x2)
        err = models.rel_err(got, want)
        for g, w in zip(got if isinstance(got, tuple) else (got,), want if isinstance(want, tuple) else (want,)):
            assert isinstance(g, torch.Tensor) and g.shape == w.shape, (g.shape, w.shape)
        print("%s weights=%s: %s, %d kernels, %s" % (name, weights, c.frontend, len(c.kernels),
                                                      "ok" if err < BOUND else "FAIL %g" % err))
    if name == "mlp":
        # weights="input": one library, another checkpoint.
        other, _ = models.model(name)
        other.eval()
        c.set_weights(other)
        with torch.no_grad():
            want = other(*x2)
        print("%s another checkpoint: %s" % (name, "ok" if models.rel_err(c(*x2), want) < BOUND else "FAIL"))
