"""Print every outN.npy of a directory: name, dtype and the values as a list (exact
integers; floats in repr)."""
import os
import sys

import numpy as np

d = sys.argv[1]
names = sorted((f for f in os.listdir(d) if f.startswith("out") and f.endswith(".npy")), key=lambda f: int(f[3:-4]))
for f in names:
    a = np.load(os.path.join(d, f))
    print(f[:-4], a.dtype, a.ravel().tolist())
