"""braze.compile on each model vs eager on fresh random inputs, constant and input weights."""
import sys

import torch

import braze
import models

BOUND = 1e-4
for name in sys.argv[1:]:
    m, xs = models.model(name)
    m.eval()
    for weights in ["constant", "input"]:
        c = braze.compile(m, xs, weights=weights)
        x2 = tuple(torch.randn_like(x) for x in xs)
        with torch.no_grad():
            want = m(*x2)
        got = c(*x2)
        err = models.rel_err(got, want)
        for g, w in zip(got if isinstance(got, tuple) else (got,), want if isinstance(want, tuple) else (want,)):
            assert isinstance(g, torch.Tensor) and g.shape == w.shape, (g.shape, w.shape)
        print("%s weights=%s: %d kernels, %s" % (name, weights, len(c.kernels), "ok" if err < BOUND else "FAIL %g" % err))
    if name == "mlp":
        # weights="input": one library, another checkpoint.
        other, _ = models.model(name)
        other.eval()
        c.set_weights(other)
        with torch.no_grad():
            want = other(*x2)
        print("%s another checkpoint: %s" % (name, "ok" if models.rel_err(c(*x2), want) < BOUND else "FAIL"))
