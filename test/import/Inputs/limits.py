#!/usr/bin/python3
"""Models past braze's import limits (../limits.test), written as raw protobuf bytes
(a few lines each, and no onnx checker to refuse them first).

usage: limits.py DIR   writes DIR/cycle.onnx, DIR/unsorted.onnx, DIR/deep-N.onnx
                       (N = 20: 61 levels; 21: 65; 10000), DIR/nodes-N.onnx
                       (N = 1000000, 1000001 empty nodes)"""
import os
import sys


def varint(n):
    out = bytearray()
    while True:
        b, n = n & 0x7F, n >> 7
        out.append(b | 0x80 if n else b)
        if not n:
            return bytes(out)


def field(num, payload):  # a length-delimited field
    return varint(num << 3 | 2) + varint(len(payload)) + payload


def string(num, s):
    return field(num, s.encode())


def model(graph):  # ModelProto{ir_version 8, opset_import {version 17}, graph}
    return varint(1 << 3) + varint(8) + field(8, varint(2 << 3) + varint(17)) + field(7, graph)


def value_info(name):  # ValueInfoProto{name, type {tensor_type {elem_type FLOAT, shape [4]}}}
    dim = field(1, varint(1 << 3) + varint(4))
    tensor = varint(1 << 3) + varint(1) + field(2, dim)
    return string(1, name) + field(2, field(1, tensor))


def node(op, inputs, outputs, name):
    return b"".join(string(1, i) for i in inputs) + b"".join(string(2, o) for o in outputs) + \
        string(3, name) + string(4, op)


def graph(nodes):  # GraphProto{node..., name, input x, output y}
    return b"".join(field(1, n) for n in nodes) + string(2, "g") + field(11, value_info("x")) + \
        field(12, value_info("y"))


def deep(levels):  # graphs in If attributes, nested `levels` times
    g = b""
    for _ in range(levels):
        g = field(1, string(4, "If") + field(5, string(1, "then_branch") + field(6, g)))
    return model(g)


out = sys.argv[1]
os.makedirs(out, exist_ok=True)
files = {
    "cycle.onnx": model(graph([node("Add", ["x", "b"], ["a"], "first"), node("Relu", ["a"], ["b"], "second"),
                               node("Relu", ["b"], ["y"], "third")])),
    "unsorted.onnx": model(graph([node("Relu", ["a"], ["y"], "late"), node("Relu", ["x"], ["a"], "early")])),
    "deep-20.onnx": deep(20),
    "deep-21.onnx": deep(21),
    "deep-10000.onnx": deep(10000),
    "nodes-1000000.onnx": model(b"\x0a\x00" * 1000000),
    "nodes-1000001.onnx": model(b"\x0a\x00" * 1000001),
}
for name, data in files.items():
    with open(os.path.join(out, name), "wb") as f:
        f.write(data)
