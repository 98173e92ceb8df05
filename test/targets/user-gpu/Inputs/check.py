"""Run one GPU-form user-kernel example (Inputs/NAME.mlir) with `braze run --target=cpu`
on inputs made here, and compare its output with numpy's. Prints PASS NAME max-err."""
import os
import subprocess
import sys

import numpy as np

braze, src, name, work = sys.argv[1:5]
target = sys.argv[5] if len(sys.argv) > 5 else "cpu"
pipeline = ["--pipeline", sys.argv[6]] if len(sys.argv) > 6 else []
rng = np.random.default_rng(46)
f32 = np.float32

if name == "matmul":
    a, b, bias = rng.standard_normal((64, 64), f32), rng.standard_normal((64, 64), f32), rng.standard_normal(64, f32)
    inputs, func = [a, b, bias], "matmul_bias_relu"
    expect = np.maximum(a.astype(np.float64) @ b + bias, 0)
elif name == "softmax":
    x, g = rng.standard_normal((16, 64), f32) * 3, rng.standard_normal((16, 64), f32)
    inputs, func = [x, g], "softmax_scale"
    e = np.exp(x.astype(np.float64) - x.max(axis=1, keepdims=True))
    expect = e / e.sum(axis=1, keepdims=True) * g
elif name == "histogram":
    x, s = rng.random(1024, f32), rng.random(16, f32)
    inputs, func = [x, s], "histogram_norm"
    bins = np.minimum((x * f32(16)).astype(np.int32), 15)
    expect = np.bincount(bins, minlength=16) * s.astype(np.float64)
elif name == "vec4":
    x, bias = rng.standard_normal(1030, f32), rng.standard_normal(1030, f32)
    inputs, func = [x, bias], "vec4_bias_relu"
    expect = np.maximum(x.astype(np.float64) ** 2 + bias, 0)
else:
    sys.exit("unknown example " + name)

os.makedirs(work, exist_ok=True)
paths = []
for i, a in enumerate(inputs):
    paths.append(os.path.join(work, "in%d.npy" % i))
    np.save(paths[-1], a)
out = os.path.join(work, "out")
subprocess.run([braze, "run", src, "--func", func, "--target", target, "--inputs", ",".join(paths),
                "--save-outputs", out, "--quiet"] + pipeline, check=True)
got = np.load(os.path.join(out, "out0.npy")).astype(np.float64)
err = float(np.max(np.abs(got - expect) / (1 + np.abs(expect))))
print("%s %s %s max-err %.1e" % ("PASS" if got.shape == expect.shape and err < 1e-5 else "FAIL", name, target, err))
