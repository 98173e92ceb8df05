"""braze.load in a process where torch cannot be imported: numpy in, numpy out."""
import sys

sys.modules["torch"] = None  # any `import torch` now fails
import numpy as np

import braze

out = sys.argv[1]
c = braze.load(out + "/libmodel.so")
if c.weight_args:
    c.set_weights(dict(np.load(out + "/weights.npz")))
y = c(np.load(out + "/x.npy"))
print(type(y).__name__, y.dtype, y.shape, "equal:", np.array_equal(y, np.load(out + "/want.npy")))
try:
    import torch  # noqa: F401
    print("torch imported")
except ImportError:
    print("no torch")
try:
    c.fusion_report()
except braze.BrazeError as e:
    print("BrazeError:", e)
