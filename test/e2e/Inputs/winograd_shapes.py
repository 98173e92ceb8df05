"""Random 3x3 stride-1 convs for test/e2e/conv-winograd-shapes.test: six functions per
seed, each x [N, C, H, W] -> conv with a constant random weight [K, C, 3, 3] and random
pads (0-2 on each side), N 1-2, C and K 1-12, H and W 1-9 (every result at least 1x1),
so that Winograd's tiles meet odd, tiny and one-wide results and every padding.

    python3 winograd_shapes.py SEED > FILE.mlir"""
import sys

import numpy as np


def ty(shape):
    return "tensor<" + "x".join(map(str, shape)) + "xf32>"


def literal(a):
    return f"{a:.4f}" if a.ndim == 0 else "[" + ", ".join(literal(x) for x in a) + "]"


def conv_function(rng, i):
    while True:
        n, c, k = int(rng.integers(1, 3)), int(rng.integers(1, 13)), int(rng.integers(1, 13))
        h, w = int(rng.integers(1, 10)), int(rng.integers(1, 10))
        p = [int(v) for v in rng.integers(0, 3, 4)]
        oh, ow = h + p[0] + p[2] - 2, w + p[1] + p[3] - 2
        if oh >= 1 and ow >= 1:
            break
    wt = np.round(rng.uniform(-0.5, 0.5, (k, c, 3, 3)), 4)
    x, y, wty = ty((n, c, h, w)), ty((n, k, oh, ow)), ty((k, c, 3, 3))
    return (f"func.func @f{i}(%x: {x}) -> {y} {{\n"
            f'  %w = "graph.constant"() {{value = dense<{literal(wt)}> : {wty}}} : () -> {wty}\n'
            f'  %y = "graph.conv"(%x, %w) {{strides = array<i64: 1, 1>, pads = array<i64: {p[0]}, {p[1]}, {p[2]}, {p[3]}>, '
            f"dilations = array<i64: 1, 1>, groups = 1 : i64}} : ({x}, {wty}) -> {y}\n"
            f"  return %y : {y}\n}}\n")


def main():
    rng = np.random.default_rng(int(sys.argv[1]))
    print("\n".join(conv_function(rng, i) for i in range(6)))


if __name__ == "__main__":
    main()
