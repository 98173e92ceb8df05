"""Expected output of @shuffle_modes (test/reference/user-kernel-gpu.mlir): row m,
thread t (lane l = t % 32 of warp w = t // 32 with n lanes): the source lane's value
(its linear id + 1000) when valid (0 <= src < width and the lane exists), else t."""
import sys

import numpy as np

r = np.load(sys.argv[1])
modes = [(lambda l: l + 3, 8), (lambda l: l - 2, 32), (lambda l: l ^ 1, 32), (lambda l: 5, 32)]
exp = np.zeros((4, 40), np.float32)
for m, (src, width) in enumerate(modes):
    for t in range(40):
        w, l = divmod(t, 32)
        n = min(32, 40 - 32 * w)
        s = src(l)
        exp[m, t] = 32 * w + s + 1000 if 0 <= s < width and s < n else t
assert r.shape == exp.shape and (r == exp).all(), (r, exp)
print("shuffles: ok")
