"""Each wrong argument raises braze.InputError naming the input and what was expected."""
import numpy as np
import torch

import braze
import models

m, (x,) = models.model("linear_gelu")
c = braze.compile(m, (x,))


def attempt(what, *args, **kw):
    try:
        c(*args, **kw)
        print("%s: accepted" % what)
    except braze.InputError as e:
        print("%s: InputError: %s" % (what, e))


attempt("dtype", x.double())
attempt("shape", torch.randn(3, 16))
attempt("strides", torch.randn(16, 4).t())
attempt("count", x, x)
attempt("type", [[0.0] * 16] * 4)
attempt("numpy dtype", x.numpy().astype(np.float64))
attempt("out", x, out=torch.empty(4, 31))
# convert=True: one copy, then the same result.
y = c(x)
print("convert dtype:", torch.equal(c(x.double(), convert=True), y))
print("convert strides:", torch.equal(c(x.t().contiguous().t(), convert=True), y))
attempt("convert shape", torch.randn(3, 16), convert=True)
# out=: written in place.
o = torch.empty(4, 32)
print("out:", c(x, out=o) is o and torch.equal(o, y))
# numpy in, numpy out.
print("numpy:", type(c(x.numpy())).__name__, np.array_equal(c(x.numpy()), y.numpy()))
