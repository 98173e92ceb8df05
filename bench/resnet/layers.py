#!/usr/bin/python3
"""Where a braze conv's time goes, on ResNet-18's conv shapes (batch 1, f32, constant
weights): per shape, the whole conv (graph.conv + relu through the default pipeline:
the implicit GEMM, its columns a window view of the padded channels-last input), the
same conv with graph-decompose{conv-im2col=gather} (decision 0016's materialized im2col
gather) and the GEMM alone (graph.matmul of a [P, C k k] input and the constant
[C k k, OC] weight, the conv's product), each compiled by braze and timed interleaved
(median ms), with the GFLOP/s of the window conv and of the GEMM.

    /usr/bin/python3 bench/resnet/layers.py [--threads 2] [--rounds 3] [--iters 5]
                                            [--out bench/out/resnet-layers]"""
import argparse
import ctypes
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
p = argparse.ArgumentParser()
p.add_argument("--threads", type=int, default=2)
p.add_argument("--rounds", type=int, default=3)
p.add_argument("--iters", type=int, default=5)
p.add_argument("--out", default=os.path.join(ROOT, "bench", "out", "resnet-layers"))
ARGS = p.parse_args()
os.environ["OMP_NUM_THREADS"] = str(ARGS.threads)
import numpy as np  # noqa: E402

BUILD = os.environ.get("BRAZE_BUILD", os.path.join(ROOT, "build"))
# (C, H, OC, k, stride): the stem, then each stage's 3x3 conv.
SHAPES = [(3, 224, 64, 7, 2), (64, 56, 64, 3, 1), (128, 28, 128, 3, 1), (256, 14, 256, 3, 1), (512, 7, 512, 3, 1)]


def ty(shape):
    return "tensor<" + "x".join(map(str, shape)) + "xf32>"


def const(name, a):
    body = ", ".join("%.5f" % v for v in a.ravel())
    return f'  %{name} = "graph.constant"() {{value = dense<[{body}]> : {ty((a.size,))}}} : () -> {ty((a.size,))}\n'


def graphs(c, h, oc, k, s):
    pad, o = k // 2, (h + 2 * (k // 2) - k) // s + 1
    w = np.random.default_rng(0).uniform(-0.1, 0.1, (oc, c, k, k)).astype(np.float32)
    xs, ys = ty((1, c, h, h)), ty((1, oc, o, o))
    conv = (f"func.func @f(%x: {xs}) -> {ys} {{\n" + const("w1", w) +
            f'  %w = "graph.reshape"(%w1) : ({ty((w.size,))}) -> {ty(w.shape)}\n'
            f'  %y = "graph.conv"(%x, %w) {{strides = array<i64: {s}, {s}>, pads = array<i64: {pad}, {pad}, {pad}, {pad}>, '
            f'dilations = array<i64: 1, 1>, groups = 1 : i64}} : ({xs}, {ty(w.shape)}) -> {ys}\n'
            f'  %r = "graph.relu"(%y) : ({ys}) -> {ys}\n  return %r : {ys}\n}}\n')
    kk, pp = c * k * k, o * o
    gemm = (f"func.func @f(%x: {ty((pp, kk))}) -> {ty((pp, oc))} {{\n" + const("w1", w) +
            f'  %w = "graph.reshape"(%w1) : ({ty((w.size,))}) -> {ty((kk, oc))}\n'
            f'  %y = "graph.matmul"(%x, %w) : ({ty((pp, kk))}, {ty((kk, oc))}) -> {ty((pp, oc))}\n'
            f"  return %y : {ty((pp, oc))}\n}}\n")
    return conv, gemm, (1, c, h, h), (1, oc, o, o), (pp, kk), (pp, oc), 2.0 * oc * kk * pp


def gather_pipeline(out_dir):
    """The default CPU pipeline with graph-decompose{conv-im2col=gather}."""
    with open(os.path.join(ROOT, "pipelines", "cpu-default.pipeline")) as f:
        text = f.read().replace("graph-decompose,", "graph-decompose{conv-im2col=gather},")
    path = os.path.join(out_dir, "gather.pipeline")
    with open(path, "w") as f:
        f.write(text)
    return path


def compile_fn(text, path, in_shape, out_shape, pipeline=None):
    with open(path, "w") as f:
        f.write(text)
    so = path.replace(".mlir", ".so")
    extra = ["--pipeline=" + pipeline] if pipeline else []
    subprocess.run([os.path.join(BUILD, "braze"), "compile", path, "-o", so, "--no-header"] + extra, check=True)
    lib = ctypes.CDLL(os.path.abspath(so))
    x = np.random.default_rng(1).standard_normal(in_shape, dtype=np.float32)
    y = np.empty(out_shape, np.float32)
    args = [x.ctypes.data_as(ctypes.c_void_p), y.ctypes.data_as(ctypes.c_void_p)]
    return lambda: lib.f(*args)


def main():
    os.makedirs(ARGS.out, exist_ok=True)
    print(f"{ARGS.threads} threads; median ms over {ARGS.rounds} rounds x {ARGS.iters} iterations")
    gather = gather_pipeline(ARGS.out)
    print("| shape (C, H, OC, k, stride) | conv + relu | GFLOP/s | conv + relu, im2col gather | GEMM | GEMM GFLOP/s | conv / GEMM |")
    print("|---|---|---|---|---|---|---|")
    for shape in SHAPES:
        conv, gemm, xin, yout, gin, gout, flops = graphs(*shape)
        base = os.path.join(ARGS.out, "c%d_h%d_oc%d_k%d_s%d" % shape)
        with open(base + ".conv.mlir", "w") as f:
            f.write(conv)
        fns = {"conv": compile_fn(conv, base + ".conv.mlir", xin, yout),
               "gather": compile_fn(conv, base + ".gather.mlir", xin, yout, gather),
               "gemm": compile_fn(gemm, base + ".gemm.mlir", gin, gout)}
        times = {k: [] for k in fns}
        for _ in range(ARGS.rounds):
            for key, fn in fns.items():
                time.sleep(0.3)
                for _ in range(2):
                    fn()
                for _ in range(ARGS.iters):
                    t0 = time.perf_counter()
                    fn()
                    times[key].append((time.perf_counter() - t0) * 1e3)
        med = {k: float(np.median(v)) for k, v in times.items()}
        print(f"| {shape} | {med['conv']:.2f} | {flops / med['conv'] / 1e6:.0f} | {med['gather']:.2f} | {med['gemm']:.2f} | "
              f"{flops / med['gemm'] / 1e6:.0f} | {med['conv'] / med['gemm']:.2f} |")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
