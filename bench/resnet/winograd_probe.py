#!/usr/bin/python3
"""Winograd F(2x2, 3x3) written as graph ops, against the direct conv, on the CPU.

    env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE /usr/bin/python3 bench/resnet/winograd_probe.py \\
        [--shape N,C,K,H] [--rounds 7] [--out bench/out/winograd]

A probe, not a pipeline: it writes one module with two functions of x [N, C, H, H] ->
relu(conv3x3(x, w, pad 1)) [N, K, H, H] (w constant): @direct (graph.conv, what
graph-decompose lowers today) and @wino (the input transform B^T d B as slices of a 4x4
stride-2 window of the padded channels-last input, subtractions and additions, and a
concat of the 16 pieces [16, T, C]; one batch_matmul with U = G g G^T [16, C, K]
computed here; the output transform A^T m A as additions of slices and concats back to
[N, H, W, K]). It checks that the two agree (braze run, the reference interpreter,
max |a - b| / max |a|), compiles each with build/braze for the CPU and times them
interleaved (bench/run's timed_calls). docs/performance-log.md, "Padding inside the
template in cpu-default" and "Winograd F(2x2, 3x3)", has the results. The compiler's own
form is graph-decompose{conv-winograd=N} (decision 0025): the same algorithm with the
transforms as matrices applied along the patch dims instead of these slices and concats."""
import argparse
import importlib.machinery
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
G = [[1, 0, 0], [.5, .5, .5], [.5, -.5, .5], [0, 0, 1]]


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--shape", default="8,64,64,56", help="N,C,K,H (ResNet's stage 1 at batch 8)")
    p.add_argument("--rounds", type=int, default=7)
    p.add_argument("--out", default=os.path.join(ROOT, "bench", "out", "winograd"))
    return p.parse_args()


ARGS = parse_args()
os.environ["OMP_NUM_THREADS"] = "2"
import numpy as np  # noqa: E402


def ty(shape):
    return "tensor<" + "x".join(map(str, shape)) + "xf32>"


def dense(a):
    return 'dense<"0x' + a.astype(np.float32).tobytes().hex().upper() + '">'


class Fn:
    """One function body: named SSA values, each op one line."""

    def __init__(self):
        self.lines, self.n = [], 0

    def op(self, text, shape):
        self.n += 1
        self.lines.append(f"  %v{self.n} = {text} -> {ty(shape)}")
        return f"%v{self.n}"

    def binary(self, kind, a, b, shape):
        return self.op(f'"graph.{kind}"({a}, {b}) : ({ty(shape)}, {ty(shape)})', shape)

    def concat(self, a, sa, b, sb, dim):
        s = list(sa)
        s[dim] += sb[dim]
        return self.op(f'"graph.concat"({a}, {b}) {{dim = {dim} : i64}} : ({ty(sa)}, {ty(sb)})', s), s

    def zeros(self, shape):
        return self.op(f'"graph.constant"() {{value = dense<0.0> : {ty(shape)}}} : ()', shape)

    def slice(self, x, shape, starts, limits):
        out = [hi - lo for lo, hi in zip(starts, limits)]
        arr = lambda v: "array<i64: " + ", ".join(map(str, v)) + ">"  # noqa: E731
        return self.op(f'"graph.slice"({x}) {{starts = {arr(starts)}, limits = {arr(limits)}, '
                       f'strides = {arr([1] * len(shape))}}} : ({ty(shape)})', out)


def direct(n, c, k, h, w):
    return (f"func.func @direct(%x: {ty([n, c, h, h])}) -> {ty([n, k, h, h])} {{\n"
            f'  %w = "graph.constant"() {{value = {dense(w)} : {ty(w.shape)}}} : () -> {ty(w.shape)}\n'
            f'  %y = "graph.conv"(%x, %w) {{strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, '
            f'dilations = array<i64: 1, 1>, groups = 1 : i64}} : ({ty([n, c, h, h])}, {ty(w.shape)}) -> {ty([n, k, h, h])}\n'
            f'  %r = "graph.relu"(%y) : ({ty([n, k, h, h])}) -> {ty([n, k, h, h])}\n'
            f"  return %r : {ty([n, k, h, h])}\n}}\n")


def padded_input(f, n, c, h, hp):
    xl = f.op(f'"graph.transpose"(%x) {{perm = array<i64: 0, 2, 3, 1>}} : ({ty([n, c, h, h])})', [n, h, h, c])
    p, s = f.concat(f.zeros([n, 1, h, c]), [n, 1, h, c], xl, [n, h, h, c], 1)
    p, s = f.concat(p, s, f.zeros([n, hp - 1 - h, h, c]), [n, hp - 1 - h, h, c], 1)
    p, s = f.concat(f.zeros([n, hp, 1, c]), [n, hp, 1, c], p, s, 2)
    return f.concat(p, s, f.zeros([n, hp, hp - 1 - h, c]), [n, hp, hp - 1 - h, c], 2)


def transform(f, v, shape, rows):
    """Rows of a 0/+1/-1 matrix applied to the 4 values v(0..3) (slices of one shape)."""
    out = []
    for row in rows:
        terms = sorted(((s, v(i)) for i, s in enumerate(row) if s), key=lambda st: -st[0])  # a + first
        acc = terms[0][1]
        for s, t in terms[1:]:
            acc = f.binary("add" if s > 0 else "sub", acc, t, shape)
        out.append(acc)
    return out


BT = [[1, 0, -1, 0], [0, 1, 1, 0], [0, -1, 1, 0], [0, 1, 0, -1]]
AT = [[1, 1, 1, 0], [0, 1, -1, -1]]


def wino(n, c, k, h, u):
    f = Fn()
    th = (h + 1) // 2
    t, hp = n * th * th, 2 * th + 2
    p, s = padded_input(f, n, c, h, hp)
    win = f.op(f'"graph.window"({p}) {{kernel = array<i64: 4, 4>, strides = array<i64: 2, 2>, '
               f'dilations = array<i64: 1, 1>}} : ({ty(s)})', [n, th, th, 4, 4, c])
    d = {(i, j): f.op(f'"graph.reshape"({f.slice(win, [n, th, th, 4, 4, c], [0, 0, 0, i, j, 0], [n, th, th, i + 1, j + 1, c])}) '
                      f': ({ty([n, th, th, 1, 1, c])})', [1, t, c]) for i in range(4) for j in range(4)}
    sc, sk = [1, t, c], [1, t, k]
    e = {}
    for j in range(4):
        for xi, val in enumerate(transform(f, lambda i: d[i, j], sc, BT)):
            e[xi, j] = val
    vs = [val for xi in range(4) for val in transform(f, lambda j: e[xi, j], sc, BT)]
    acc, sa = vs[0], sc
    for val in vs[1:]:
        acc, sa = f.concat(acc, sa, val, sc, 0)
    uu = f.op(f'"graph.constant"() {{value = {dense(u)} : {ty([16, c, k])}}} : ()', [16, c, k])
    mm = f.op(f'"graph.batch_matmul"({acc}, {uu}) : ({ty([16, t, c])}, {ty([16, c, k])})', [16, t, k])
    m = {(q // 4, q % 4): f.slice(mm, [16, t, k], [q, 0, 0], [q + 1, t, k]) for q in range(16)}
    fo = {}
    for nu in range(4):
        for a, val in enumerate(transform(f, lambda xi: m[xi, nu], sk, AT)):
            fo[a, nu] = val
    rows = []
    for a in range(2):
        y = transform(f, lambda nu: fo[a, nu], sk, AT)
        parts = [f.op(f'"graph.reshape"({v}) : ({ty(sk)})', [n, th, 1, th, 1, k]) for v in y]
        rows.append(f.concat(parts[0], [n, th, 1, th, 1, k], parts[1], [n, th, 1, th, 1, k], 4))
    yy, ys = f.concat(rows[0][0], rows[0][1], rows[1][0], rows[1][1], 2)
    yr = f.op(f'"graph.reshape"({yy}) : ({ty(ys)})', [n, 2 * th, 2 * th, k])
    if 2 * th != h:
        yr = f.slice(yr, [n, 2 * th, 2 * th, k], [0, 0, 0, 0], [n, h, h, k])
    yt = f.op(f'"graph.transpose"({yr}) {{perm = array<i64: 0, 3, 1, 2>}} : ({ty([n, h, h, k])})', [n, k, h, h])
    r = f.op(f'"graph.relu"({yt}) : ({ty([n, k, h, h])})', [n, k, h, h])
    return (f"func.func @wino(%x: {ty([n, c, h, h])}) -> {ty([n, k, h, h])} {{\n" + "\n".join(f.lines) +
            f"\n  return {r} : {ty([n, k, h, h])}\n}}\n")


def run(*cmd):
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)


def main():
    n, c, k, h = (int(v) for v in ARGS.shape.split(","))
    os.makedirs(ARGS.out, exist_ok=True)
    w = (np.random.default_rng(0).standard_normal((k, c, 3, 3)) * 0.1).astype(np.float32)
    u = np.einsum("ai,kcij,bj->abck", np.array(G), w.astype(np.float64), np.array(G)).reshape(16, c, k)
    braze = os.path.join(ROOT, "build", "braze")
    small = os.path.join(ARGS.out, "agree.mlir")  # the agreement check on a small shape
    ws = (np.random.default_rng(1).standard_normal((8, 8, 3, 3)) * 0.1).astype(np.float32)
    us = np.einsum("ai,kcij,bj->abck", np.array(G), ws.astype(np.float64), np.array(G)).reshape(16, 8, 8)
    for hh in (6, 7):
        with open(small, "w") as fh:
            fh.write(direct(1, 8, 8, hh, ws) + wino(1, 8, 8, hh, us))
        outs = {}
        for fn in ("direct", "wino"):
            d = os.path.join(ARGS.out, f"agree_{fn}")
            extra = ["--seed", "2", "--save-inputs", d] if fn == "direct" else \
                ["--inputs", os.path.join(ARGS.out, "agree_direct", "in0.npy")]
            run(braze, "run", small, "--func", fn, "--quiet", "--save-outputs", d, *extra)
            outs[fn] = np.load(os.path.join(d, "out0.npy"))
        err = float(np.abs(outs["direct"] - outs["wino"]).max() / np.abs(outs["direct"]).max())
        print(f"agreement on 1x8x{hh}x{hh}: {err:.2e}")
    bench = importlib.machinery.SourceFileLoader("bench_run", os.path.join(ROOT, "bench", "run")).load_module()
    x = bench.aligned_copy(np.random.default_rng(0).standard_normal((n, c, h, h)).astype(np.float32))
    libs = {}
    for fn, text in (("direct", direct(n, c, k, h, w)), ("wino", wino(n, c, k, h, u))):
        src, so = os.path.join(ARGS.out, f"{fn}.mlir"), os.path.join(ARGS.out, f"{fn}.so")
        with open(src, "w") as fh:
            fh.write(text)
        run(braze, "compile", src, "--target=cpu", "--no-header", "-o", so)
        libs[fn] = bench.BrazeSystem(so, fn, [x], (n, k, h, h))
        libs[fn]()
    ref = libs["direct"].output().copy()
    err = float(np.abs(libs["wino"].output() - ref).max() / np.abs(ref).max())
    times = {key: [] for key in libs}
    for _ in range(ARGS.rounds):
        for key, fn in libs.items():
            bench.timed_calls(fn, times[key], 5)
    print(f"shape N,C,K,H = {ARGS.shape}, 2 threads, {ARGS.rounds} rounds; wino vs direct {err:.2e}")
    base = float(np.median(times["direct"]))
    for key, t in times.items():
        print(f"  {key:7} median {np.median(t):8.3f} ms  {base / np.median(t):.3f}x of direct")


if __name__ == "__main__":
    sys.exit(main())
