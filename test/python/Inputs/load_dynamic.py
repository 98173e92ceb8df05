"""braze.load of a library with a symbolic dim where torch cannot be imported: numpy at
several sizes, the manifest's symbol, a size out of bounds."""
import sys

sys.modules["torch"] = None  # any `import torch` now fails
import numpy as np

import braze

c = braze.load(sys.argv[1] + "/libhead.so")
print(c, c.symbols)
rng = np.random.default_rng(0)
for b in (3, 100):
    y = c(rng.standard_normal((b, 24), dtype=np.float32), np.ones((b, 1), np.float32))
    # log_softmax rows: exp sums to 1
    print(b, type(y).__name__, y.shape, "rows sum to 1:", bool(np.allclose(np.exp(y).sum(1), 1, atol=1e-5)))
try:
    c(np.zeros((300, 24), np.float32), np.ones((300, 1), np.float32))
except braze.InputError as e:
    print("InputError:", e)
