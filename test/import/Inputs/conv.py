#!/usr/bin/python3
"""Conv, ConvTranspose and ConvInteger models in forms ONNX's conformance tests do not
reach, with numpy as the oracle (direct loops over kernel offsets in double precision,
written from the operator definitions here): a conv with bias + BatchNormalization +
Relu + residual Add (the batch_norm graph-decompose folds), SAME_LOWER padding with
strides, a dilated depthwise conv, a 1-D dilated strided conv, a grouped ConvTranspose
with output_shape and bias, a 3-D ConvTranspose with pads, dilations and
output_padding, and ConvInteger with per-channel weight zero points. Error models: a
kernel_shape that disagrees with W, a group that does not divide the channels, strides
with more entries than spatial dims (Conv and MaxPool: refused without writing past the
attribute buffers).

usage: conv.py CASE=DIR...   as compositions.py (model.onnx, in<i>.npy, inputs.txt,
                             expected<i>.npy)"""
import itertools
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper as nh

sys.path.append(os.path.dirname(os.path.abspath(__file__)))
from compositions import save_cases  # noqa: E402

RNG = np.random.default_rng(11)
FL = T.FLOAT


def rand(*shape, lo=-1.0, hi=1.0):
    return RNG.uniform(lo, hi, shape).astype(np.float32)


def init(name, array):
    return nh.from_array(np.asarray(array), name)


def model(nodes, inputs, outputs, inits=()):
    g = h.make_graph(nodes, "g", [h.make_tensor_value_info(n, t, s) for n, t, s in inputs],
                     [h.make_tensor_value_info(n, t, s) for n, t, s in outputs], list(inits))
    m = h.make_model(g, opset_imports=[h.make_opsetid("", 13)])
    m.ir_version = 7
    onnx.checker.check_model(m)
    return m


def conv_np(x, w, b=None, strides=None, pads=None, dilations=None, groups=1):
    """y[n, oc, o] = sum_{c, k} xpad[n, g*Cg + c, o*s + k*d] w[oc, c, k], in float64."""
    x, w = x.astype(np.float64), w.astype(np.float64)
    n = x.ndim - 2
    s, d = strides or [1] * n, dilations or [1] * n
    p = pads or [0] * (2 * n)
    xp = np.pad(x, [(0, 0), (0, 0)] + [(p[i], p[n + i]) for i in range(n)])
    out = [(xp.shape[2 + i] - d[i] * (w.shape[2 + i] - 1) - 1) // s[i] + 1 for i in range(n)]
    cg, ocg = x.shape[1] // groups, w.shape[0] // groups
    y = np.zeros((x.shape[0], w.shape[0], *out))
    for g in range(groups):
        xs = xp[:, g * cg:(g + 1) * cg]
        for k in itertools.product(*[range(w.shape[2 + i]) for i in range(n)]):
            win = xs[(slice(None), slice(None)) + tuple(
                slice(k[i] * d[i], k[i] * d[i] + (out[i] - 1) * s[i] + 1, s[i]) for i in range(n))]
            wk = w[(slice(g * ocg, (g + 1) * ocg), slice(None)) + k]
            y[:, g * ocg:(g + 1) * ocg] += np.einsum("nc...,oc->no...", win, wk)
    if b is not None:
        y += b.astype(np.float64).reshape((1, -1) + (1,) * n)
    return y


def conv_transpose_np(x, w, strides, dilations, groups, full_out):
    """The full (uncropped) result: y[n, g*OCg + oc, i*s + k*d] += x[n, g*Cg + c, i] w[g*Cg + c, oc, k]."""
    x, w = x.astype(np.float64), w.astype(np.float64)
    n = x.ndim - 2
    cg, ocg = x.shape[1] // groups, w.shape[1]
    y = np.zeros((x.shape[0], ocg * groups, *full_out))
    for g in range(groups):
        for k in itertools.product(*[range(w.shape[2 + i]) for i in range(n)]):
            wk = w[(slice(g * cg, (g + 1) * cg), slice(None)) + k]
            contrib = np.einsum("nc...,co->no...", x[:, g * cg:(g + 1) * cg], wk)
            at = tuple(slice(k[i] * dilations[i], k[i] * dilations[i] + (x.shape[2 + i] - 1) * strides[i] + 1,
                             strides[i]) for i in range(n))
            y[(slice(None), slice(g * ocg, (g + 1) * ocg)) + at] += contrib
    return y


def conv_node(ins, out, **attrs):
    return h.make_node("Conv", ins, [out], name=out + "_conv", **attrs)


def case(name):
    if name == "conv_bn_relu_add":
        x, w, b = rand(2, 8, 10, 10), rand(8, 8, 3, 3, lo=-0.3, hi=0.3), rand(8)
        s, beta, mean, var = rand(8, lo=0.5, hi=1.5), rand(8), rand(8), rand(8, lo=0.2, hi=2.0)
        nodes = [conv_node(["x", "w", "b"], "c", pads=[1, 1, 1, 1]),
                 h.make_node("BatchNormalization", ["c", "s", "beta", "mean", "var"], ["n"], name="bn", epsilon=1e-5),
                 h.make_node("Relu", ["n"], ["r"], name="relu"),
                 h.make_node("Add", ["r", "x"], ["y"], name="residual")]
        m = model(nodes, [("x", FL, [2, 8, 10, 10])], [("y", FL, [2, 8, 10, 10])], [init("w", w), init("b", b), init("s", s), init("beta", beta), init("mean", mean),
                           init("var", var)])
        c = conv_np(x, w, b, pads=[1, 1, 1, 1])
        k = (s / np.sqrt(var.astype(np.float64) + 1e-5)).reshape(1, 8, 1, 1)
        nrm = (c - mean.reshape(1, 8, 1, 1)) * k + beta.reshape(1, 8, 1, 1)
        return m, [x], [(np.maximum(nrm, 0) + x).astype(np.float32)]
    if name == "same_lower_strided":
        x, w = rand(1, 3, 9, 8), rand(4, 3, 3, 2)
        m = model([conv_node(["x", "w"], "y", auto_pad="SAME_LOWER", strides=[2, 3])],
                  [("x", FL, [1, 3, 9, 8]), ("w", FL, [4, 3, 3, 2])], [("y", FL, [1, 4, 5, 3])])
        # out = ceil(in / s): H 5 (total pad 2: 1 + 1), W 3 (total pad 0)
        return m, [x, w], [conv_np(x, w, strides=[2, 3], pads=[1, 0, 1, 0]).astype(np.float32)]
    if name == "depthwise":
        x, w = rand(2, 6, 7, 7), rand(6, 1, 3, 3)
        m = model([conv_node(["x", "w"], "y", group=6, pads=[2, 2, 2, 2], dilations=[2, 2])],
                  [("x", FL, [2, 6, 7, 7])], [("y", FL, [2, 6, 7, 7])], [init("w", w)])
        return m, [x], [conv_np(x, w, pads=[2] * 4, dilations=[2, 2], groups=6).astype(np.float32)]
    if name == "conv1d_dilated":
        x, w, b = rand(3, 4, 20), rand(5, 4, 4), rand(5)
        m = model([conv_node(["x", "w", "b"], "y", dilations=[3], pads=[0, 2], strides=[2])],
                  [("x", FL, [3, 4, 20])], [("y", FL, [3, 5, 7])], [init("w", w), init("b", b)])
        return m, [x], [conv_np(x, w, b, strides=[2], pads=[0, 2], dilations=[3]).astype(np.float32)]
    if name == "convtranspose_grouped":
        x, w, b = rand(2, 4, 5, 6), rand(4, 3, 3, 3), rand(6)
        node = h.make_node("ConvTranspose", ["x", "w", "b"], ["y"], name="up", group=2, strides=[2, 2],
                           output_shape=[11, 12])
        m = model([node], [("x", FL, [2, 4, 5, 6])], [("y", FL, [2, 6, 11, 12])], [init("w", w), init("b", b)])
        # total padding: H 2*4 + 3 - 11 = 0; W 2*5 + 3 - 12 = 1 (begin 1, end 0: not SAME_UPPER)
        y = conv_transpose_np(x, w, [2, 2], [1, 1], 2, [11, 13])[:, :, :, 1:] + b.reshape(1, 6, 1, 1)
        return m, [x], [y.astype(np.float32)]
    if name == "convtranspose_3d":
        x, w = rand(1, 2, 3, 4, 3), rand(2, 3, 2, 3, 2)
        node = h.make_node("ConvTranspose", ["x", "w"], ["y"], name="up3", strides=[2, 1, 3],
                           output_padding=[1, 0, 2], pads=[0, 1, 1, 1, 0, 0], dilations=[1, 2, 1])
        m = model([node], [("x", FL, [1, 2, 3, 4, 3]), ("w", FL, [2, 3, 2, 3, 2])], [("y", FL, [1, 3, 6, 7, 9])])
        # full: (in - 1) s + d (k - 1) + 1 + output_padding = 7, 8, 10; pads (begin 0 1 1,
        # end 1 0 0) crop it
        y = conv_transpose_np(x, w, [2, 1, 3], [1, 2, 1], 1, [7, 8, 10])[:, :, 0:6, 1:, 1:]
        return m, [x, w], [y.astype(np.float32)]
    if name == "conv_integer":
        x = RNG.integers(0, 256, (1, 3, 6, 6)).astype(np.uint8)
        w = RNG.integers(-128, 128, (4, 3, 3, 3)).astype(np.int8)
        xz, wz = np.uint8(100), RNG.integers(-5, 5, (4,)).astype(np.int8)
        node = h.make_node("ConvInteger", ["x", "w", "xz", "wz"], ["y"], name="ci", pads=[1, 1, 1, 1])
        m = model([node], [("x", T.UINT8, [1, 3, 6, 6])], [("y", T.INT32, [1, 4, 6, 6])], [init("w", w), init("xz", xz), init("wz", wz)])
        xs = x.astype(np.int64) - int(xz)
        ws = w.astype(np.int64) - wz.astype(np.int64)[:, None, None, None]
        return m, [x], [conv_np(xs, ws, pads=[1] * 4).round().astype(np.int32)]
    if name == "bad_kernel_shape":
        m = model([conv_node(["x", "w"], "y", kernel_shape=[2, 2])], [("x", FL, [1, 3, 5, 5])], [("y", FL, [1, 4, 3, 3])], [init("w", rand(4, 3, 3, 3))])
        return m, [], []
    if name == "bad_group":
        m = model([conv_node(["x", "w"], "y", group=2)], [("x", FL, [1, 3, 5, 5])], [("y", FL, [1, 4, 3, 3])], [init("w", rand(4, 3, 3, 3))])
        return m, [], []
    if name == "long_strides":  # more entries than spatial dims (up to twice the most): an error, no overrun
        m = model([conv_node(["x", "w"], "y", strides=[1] * 10)], [("x", FL, [1, 3, 5, 5])], [("y", FL, [1, 4, 3, 3])],
                  [init("w", rand(4, 3, 3, 3))])
        return m, [], []
    if name == "stem_pool":  # ResNet's stem: conv 7x7/2 + bias, relu, max pool 3x3/2 pad 1; then an average pool
        x, w, b = rand(2, 3, 20, 20), rand(8, 3, 7, 7, lo=-0.2, hi=0.2), rand(8)
        nodes = [conv_node(["x", "w", "b"], "c", strides=[2, 2], pads=[3, 3, 3, 3]), h.make_node("Relu", ["c"], ["r"]),
                 h.make_node("MaxPool", ["r"], ["p"], kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1]),
                 h.make_node("AveragePool", ["p"], ["y"], kernel_shape=[2, 2], pads=[0, 0, 1, 1])]
        m = model(nodes, [("x", FL, [2, 3, 20, 20])], [("y", FL, [2, 8, 5, 5])], [init("w", w), init("b", b)])
        r = np.maximum(conv_np(x, w, b, strides=[2, 2], pads=[3] * 4), 0)
        rp = np.pad(r, ((0, 0), (0, 0), (1, 1), (1, 1)), constant_values=-np.inf)
        p = np.stack([np.stack([rp[:, :, 2 * i:2 * i + 3, 2 * j:2 * j + 3].max(axis=(2, 3)) for j in range(5)], -1)
                      for i in range(5)], -2)
        pp = np.pad(p, ((0, 0), (0, 0), (0, 1), (0, 1)))
        cnt = np.pad(np.ones((5, 5)), ((0, 1), (0, 1)))
        y = np.stack([np.stack([pp[:, :, i:i + 2, j:j + 2].sum(axis=(2, 3)) / cnt[i:i + 2, j:j + 2].sum()
                                for j in range(5)], -1) for i in range(5)], -2)
        return m, [x], [y.astype(np.float32)]
    if name == "pool_long_strides":
        node = h.make_node("MaxPool", ["x"], ["y"], name="pool", kernel_shape=[2, 2], strides=[1] * 10)
        return model([node], [("x", FL, [1, 3, 5, 5])], [("y", FL, [1, 3, 4, 4])]), [], []
    raise SystemExit(f"unknown case {name}")


if __name__ == "__main__":
    save_cases(case, sys.argv[1:])
