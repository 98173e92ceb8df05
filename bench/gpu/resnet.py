#!/usr/bin/env python3
"""ResNet-18 for the GPU benchmark (workload R1: batch 32, 224x224, bf16), shared by
the generator (here, no GPU: writes R1.mlir for `braze compile --target=cuda`) and the
torch reference in bench/gpu/bench.py (there: no MLIR). Inference form, batch_norm
folded into each conv's bias: every conv takes its weight [OC, C, k, k] and bias [OC]
as function inputs (bench.py's random inputs, the weights scaled by 1/sqrt(fan-in)),
then the fc layer's [512, 1000] weight and [1000] bias. The max pool (3x3, stride 2,
pad 1) reads the stem's relu output, so padding it with zeros equals ONNX's -inf.

    python3 bench/gpu/resnet.py OUT.mlir [--batch 32]"""
import sys

STAGES = [(64, 1), (128, 2), (256, 2), (512, 2)]


def convs():
    """(name, C, OC, k, stride, pad) in input order, then the fc."""
    out = [("stem", 3, 64, 7, 2, 3)]
    c = 64
    for oc, s in STAGES:
        for b in range(2):
            stride = s if b == 0 else 1
            out.append((f"l{oc}b{b}c1", c, oc, 3, stride, 1))
            out.append((f"l{oc}b{b}c2", oc, oc, 3, 1, 1))
            if stride != 1 or c != oc:
                out.append((f"l{oc}b{b}ds", c, oc, 1, stride, 0))
            c = oc
    return out


def flops(batch):
    """2 x multiply-adds of the convs and the fc."""
    total, h = 0, 224
    for name, c, oc, k, s, pad in convs():
        hin = h if not name.endswith("ds") else block_in
        if name.endswith("c1"):
            block_in = h
        hout = (hin + 2 * pad - k) // s + 1
        total += 2 * batch * oc * c * k * k * hout * hout
        h = (hout + 2 - 3) // 2 + 1 if name == "stem" else hout if not name.endswith("ds") else h
    return total + 2 * batch * 512 * 1000


def input_specs(batch):
    specs = [(batch, 3, 224, 224)]
    for _, c, oc, k, _, _ in convs():
        specs += [(oc, c, k, k), (oc,)]
    return specs + [(512, 1000), (1000,)]


def torch_fn(x, *p):
    import torch.nn.functional as F
    params = {}
    i = 0
    for name, c, oc, k, s, pad in convs():
        params[name] = (p[i], p[i + 1], s, pad)
        i += 2
    fc_w, fc_b = p[i], p[i + 1]

    def conv(name, v):
        w, b, s, pad = params[name]
        return F.conv2d(v, w, b, stride=s, padding=pad)

    y = F.relu(conv("stem", x))
    y = F.max_pool2d(y, 3, 2, 1)
    c = 64
    for oc, s in STAGES:
        for blk in range(2):
            stride = s if blk == 0 else 1
            pre = f"l{oc}b{blk}"
            h = F.relu(conv(pre + "c1", y))
            h = conv(pre + "c2", h)
            res = conv(pre + "ds", y) if (stride != 1 or c != oc) else y
            y = F.relu(h + res)
            c = oc
    y = y.mean(dim=(2, 3))
    return y @ fc_w + fc_b


# ---- the graph-dialect module ----

def ty(shape, e="bf16"):
    return "tensor<" + "x".join(map(str, shape)) + "x" + e + ">"


class Gen:
    def __init__(self):
        self.lines, self.n = [], 0

    def op(self, text, result_type):
        v = f"%v{self.n}"
        self.n += 1
        self.lines.append(f"  {v} = {text} -> {result_type}")
        return v


def generate(batch):
    g = Gen()
    args = [f"%x: {ty((batch, 3, 224, 224))}"]
    names = {}
    for name, c, oc, k, s, pad in convs():
        args += [f"%{name}_w: {ty((oc, c, k, k))}", f"%{name}_b: {ty((oc,))}"]
    args += [f"%fc_w: {ty((512, 1000))}", f"%fc_b: {ty((1000,))}"]
    geo = {name: (c, oc, k, s, pad) for name, c, oc, k, s, pad in convs()}

    def conv(name, v, shape, relu):
        c, oc, k, s, pad = geo[name]
        h = (shape[2] + 2 * pad - k) // s + 1
        out = (shape[0], oc, h, h)
        y = g.op(f'"graph.conv"({v}, %{name}_w) {{strides = array<i64: {s}, {s}>, pads = array<i64: {pad}, {pad}, {pad}, {pad}>, '
                 f'dilations = array<i64: 1, 1>, groups = 1 : i64}} : ({ty(shape)}, {ty((oc, c, k, k))})', ty(out))
        b = g.op(f'"graph.reshape"(%{name}_b) : ({ty((oc,))})', ty((oc, 1, 1)))
        y = g.op(f'"graph.add"({y}, {b}) : ({ty(out)}, {ty((oc, 1, 1))})', ty(out))
        if relu:
            y = g.op(f'"graph.relu"({y}) : ({ty(out)})', ty(out))
        return y, out

    y, shape = conv("stem", "%x", (batch, 3, 224, 224), True)
    # max pool 3x3 / 2, pad 1: channels-last, zero-padded (relu >= 0), window, reduce_max
    n, c, h, _ = shape
    t = g.op(f'"graph.transpose"({y}) {{perm = array<i64: 0, 2, 3, 1>}} : ({ty(shape)})', ty((n, h, h, c)))
    z1 = g.op(f'"graph.constant"() {{value = dense<0.0> : {ty((n, 1, h, c))}}} : ()', ty((n, 1, h, c)))
    t = g.op(f'"graph.concat"({z1}, {t}) {{dim = 1 : i64}} : ({ty((n, 1, h, c))}, {ty((n, h, h, c))})', ty((n, h + 1, h, c)))
    t = g.op(f'"graph.concat"({t}, {z1}) {{dim = 1 : i64}} : ({ty((n, h + 1, h, c))}, {ty((n, 1, h, c))})', ty((n, h + 2, h, c)))
    z2 = g.op(f'"graph.constant"() {{value = dense<0.0> : {ty((n, h + 2, 1, c))}}} : ()', ty((n, h + 2, 1, c)))
    t = g.op(f'"graph.concat"({z2}, {t}) {{dim = 2 : i64}} : ({ty((n, h + 2, 1, c))}, {ty((n, h + 2, h, c))})', ty((n, h + 2, h + 1, c)))
    t = g.op(f'"graph.concat"({t}, {z2}) {{dim = 2 : i64}} : ({ty((n, h + 2, h + 1, c))}, {ty((n, h + 2, 1, c))})', ty((n, h + 2, h + 2, c)))
    o = (h + 2 - 3) // 2 + 1
    w = g.op(f'"graph.window"({t}) {{kernel = array<i64: 3, 3>, strides = array<i64: 2, 2>, dilations = array<i64: 1, 1>}} : '
             f'({ty((n, h + 2, h + 2, c))})', ty((n, o, o, 3, 3, c)))
    m = g.op(f'"graph.reduce_max"({w}) {{dims = array<i64: 3, 4>, keepdim = false}} : ({ty((n, o, o, 3, 3, c))})', ty((n, o, o, c)))
    y = g.op(f'"graph.transpose"({m}) {{perm = array<i64: 0, 3, 1, 2>}} : ({ty((n, o, o, c))})', ty((n, c, o, o)))
    shape = (n, c, o, o)
    cin = 64
    for oc, s in STAGES:
        for blk in range(2):
            stride = s if blk == 0 else 1
            pre = f"l{oc}b{blk}"
            hh, hs = conv(pre + "c1", y, shape, True)
            hh, hs = conv(pre + "c2", hh, hs, False)
            res = conv(pre + "ds", y, shape, False)[0] if (stride != 1 or cin != oc) else y
            r = g.op(f'"graph.add"({hh}, {res}) : ({ty(hs)}, {ty(hs)})', ty(hs))
            y = g.op(f'"graph.relu"({r}) : ({ty(hs)})', ty(hs))
            shape, cin = hs, oc
    p = g.op(f'"graph.reduce_mean"({y}) {{dims = array<i64: 2, 3>, keepdim = false}} : ({ty(shape)})', ty((batch, 512)))
    f = g.op(f'"graph.matmul"({p}, %fc_w) : ({ty((batch, 512))}, {ty((512, 1000))})', ty((batch, 1000)))
    f = g.op(f'"graph.add"({f}, %fc_b) : ({ty((batch, 1000))}, {ty((1000,))})', ty((batch, 1000)))
    head = (f"// R1: ResNet-18 inference (batch_norm folded into the conv biases), batch {batch}, bf16, generated by\n"
            f"// bench/gpu/resnet.py; weights are inputs.\n"
            f"func.func @R1({', '.join(args)}) -> {ty((batch, 1000))} {{\n")
    return head + "\n".join(g.lines) + f"\n  return {f} : {ty((batch, 1000))}\n}}\n"


if __name__ == "__main__":
    batch = int(sys.argv[sys.argv.index("--batch") + 1]) if "--batch" in sys.argv else 32
    with open(sys.argv[1], "w") as out:
        out.write(generate(batch))
