#!/usr/bin/env python3
"""ResNet-18 and ResNet-50 for the GPU benchmark (workloads R1: ResNet-18 batch 32,
R1b1: batch 1, R50: ResNet-50 batch 32, R50b1: batch 1; 224x224, bf16), shared by the
generator (here, no GPU: writes NAME.mlir for `braze compile --target=cuda`) and the
torch reference in bench/gpu/bench.py (there: no MLIR). Inference form, batch_norm
folded into each conv's bias: every conv takes its weight [OC, C, k, k] and bias [OC]
as function inputs (bench.py's random inputs, the weights scaled by 1/sqrt(fan-in)),
then the fc layer's [F, 1000] weight and [1000] bias (F = 512 or 2048). The max pool
(3x3, stride 2, pad 1) reads the stem's relu output, so padding it with zeros equals
ONNX's -inf. ResNet-50 is torchvision's resnet50 (v1.5: the stride on the bottleneck's
3x3 conv; test/python/bench-resnet.test checks both against torchvision's modules).

One description of the network (`network`) drives three backends: the graph-dialect
generator, the torch function and the FLOP count, so they cannot drift apart.

    python3 bench/gpu/resnet.py OUT.mlir [--batch 32] [--depth 18|50] [--name R1] [--size 224] [--dtype bf16]"""
import sys

WIDTHS = [64, 128, 256, 512]
ARCH = {18: ("basic", [2, 2, 2, 2]), 50: ("bottleneck", [3, 4, 6, 3])}


def convs(depth=18):
    """(name, C, OC, k, stride, pad) in input order (the order `network` reads them)."""
    kind, blocks = ARCH[depth]
    out = [("stem", 3, 64, 7, 2, 3)]
    c = 64
    for i, (w, nb) in enumerate(zip(WIDTHS, blocks)):
        for b in range(nb):
            s = (1 if i == 0 else 2) if b == 0 else 1
            pre = f"l{w}b{b}"
            if kind == "basic":
                oc = w
                out += [(pre + "c1", c, w, 3, s, 1), (pre + "c2", w, w, 3, 1, 1)]
            else:
                oc = 4 * w
                out += [(pre + "c1", c, w, 1, 1, 0), (pre + "c2", w, w, 3, s, 1), (pre + "c3", w, oc, 1, 1, 0)]
            if s != 1 or c != oc:
                out.append((pre + "ds", c, oc, 1, s, 0))
            c = oc
    return out


def fc_in(depth=18):
    return 512 if ARCH[depth][0] == "basic" else 2048


def network(be, x, depth):
    """The forward pass on a backend: be.conv(name, v), relu, add, maxpool, mean, fc."""
    kind, blocks = ARCH[depth]
    y = be.maxpool(be.relu(be.conv("stem", x)))
    c = 64
    for i, (w, nb) in enumerate(zip(WIDTHS, blocks)):
        for b in range(nb):
            s = (1 if i == 0 else 2) if b == 0 else 1
            pre = f"l{w}b{b}"
            h = be.relu(be.conv(pre + "c1", y))
            if kind == "basic":
                h, oc = be.conv(pre + "c2", h), w
            else:
                h, oc = be.conv(pre + "c3", be.relu(be.conv(pre + "c2", h))), 4 * w
            res = be.conv(pre + "ds", y) if (s != 1 or c != oc) else y
            y = be.relu(be.add(h, res))
            c = oc
    return be.fc(be.mean(y))


def input_specs(batch, depth=18):
    specs = [(batch, 3, 224, 224)]
    for _, c, oc, k, _, _ in convs(depth):
        specs += [(oc, c, k, k), (oc,)]
    return specs + [(fc_in(depth), 1000), (1000,)]


class Flops:
    """Shapes only: 2 x multiply-adds of the convs and the fc."""

    def __init__(self, depth):
        self.geo = {n: (c, oc, k, s, p) for n, c, oc, k, s, p in convs(depth)}
        self.total = 0

    def conv(self, name, v):
        c, oc, k, s, pad = self.geo[name]
        n, _, h = v
        o = (h + 2 * pad - k) // s + 1
        self.total += 2 * n * oc * c * k * k * o * o
        return (n, oc, o)

    def relu(self, v):
        return v

    def add(self, a, b):
        return a

    def maxpool(self, v):
        return (v[0], v[1], (v[2] + 2 - 3) // 2 + 1)

    def mean(self, v):
        return v

    def fc(self, v):
        self.total += 2 * v[0] * v[1] * 1000
        return v


def flops(batch, depth=18):
    f = Flops(depth)
    network(f, (batch, 3, 224), depth)
    return f.total


class Torch:
    def __init__(self, depth, p):
        import torch.nn.functional as F
        self.F = F
        self.params = {}
        i = 0
        for name, c, oc, k, s, pad in convs(depth):
            self.params[name] = (p[i], p[i + 1], s, pad)
            i += 2
        self.fc_w, self.fc_b = p[i], p[i + 1]

    def conv(self, name, v):
        w, b, s, pad = self.params[name]
        return self.F.conv2d(v, w, b, stride=s, padding=pad)

    def relu(self, v):
        return self.F.relu(v)

    def add(self, a, b):
        return a + b

    def maxpool(self, v):
        return self.F.max_pool2d(v, 3, 2, 1)

    def mean(self, v):
        return v.mean(dim=(2, 3))

    def fc(self, v):
        return v @ self.fc_w + self.fc_b


def torch_fn_for(depth):
    def fn(x, *p):
        return network(Torch(depth, p), x, depth)
    fn.__name__ = f"resnet{depth}"
    return fn


torch_fn = torch_fn_for(18)


# ---- the graph-dialect module ----

ELEM = "bf16"  # the element type of the generated module (--dtype f32 for the tests)


def ty(shape, e=None):
    return "tensor<" + "x".join(map(str, shape)) + "x" + (e or ELEM) + ">"


class Gen:
    """Values are (SSA name, shape); each op appends one line."""

    def __init__(self, depth):
        self.lines, self.n = [], 0
        self.geo = {n: (c, oc, k, s, p) for n, c, oc, k, s, p in convs(depth)}

    def op(self, text, result_type):
        v = f"%v{self.n}"
        self.n += 1
        self.lines.append(f"  {v} = {text} -> {result_type}")
        return v

    def conv(self, name, v):
        (x, shape) = v
        c, oc, k, s, pad = self.geo[name]
        h = (shape[2] + 2 * pad - k) // s + 1
        out = (shape[0], oc, h, h)
        y = self.op(f'"graph.conv"({x}, %{name}_w) {{strides = array<i64: {s}, {s}>, pads = array<i64: {pad}, {pad}, {pad}, {pad}>, '
                    f'dilations = array<i64: 1, 1>, groups = 1 : i64}} : ({ty(shape)}, {ty((oc, c, k, k))})', ty(out))
        b = self.op(f'"graph.reshape"(%{name}_b) : ({ty((oc,))})', ty((oc, 1, 1)))
        return self.op(f'"graph.add"({y}, {b}) : ({ty(out)}, {ty((oc, 1, 1))})', ty(out)), out

    def relu(self, v):
        return self.op(f'"graph.relu"({v[0]}) : ({ty(v[1])})', ty(v[1])), v[1]

    def add(self, a, b):
        return self.op(f'"graph.add"({a[0]}, {b[0]}) : ({ty(a[1])}, {ty(b[1])})', ty(a[1])), a[1]

    def maxpool(self, v):
        # 3x3 / 2, pad 1: channels-last, zero-padded (relu >= 0), window, reduce_max
        (y, shape) = v
        n, c, h, _ = shape
        op = self.op
        t = op(f'"graph.transpose"({y}) {{perm = array<i64: 0, 2, 3, 1>}} : ({ty(shape)})', ty((n, h, h, c)))
        z1 = op(f'"graph.constant"() {{value = dense<0.0> : {ty((n, 1, h, c))}}} : ()', ty((n, 1, h, c)))
        t = op(f'"graph.concat"({z1}, {t}) {{dim = 1 : i64}} : ({ty((n, 1, h, c))}, {ty((n, h, h, c))})', ty((n, h + 1, h, c)))
        t = op(f'"graph.concat"({t}, {z1}) {{dim = 1 : i64}} : ({ty((n, h + 1, h, c))}, {ty((n, 1, h, c))})', ty((n, h + 2, h, c)))
        z2 = op(f'"graph.constant"() {{value = dense<0.0> : {ty((n, h + 2, 1, c))}}} : ()', ty((n, h + 2, 1, c)))
        t = op(f'"graph.concat"({z2}, {t}) {{dim = 2 : i64}} : ({ty((n, h + 2, 1, c))}, {ty((n, h + 2, h, c))})', ty((n, h + 2, h + 1, c)))
        t = op(f'"graph.concat"({t}, {z2}) {{dim = 2 : i64}} : ({ty((n, h + 2, h + 1, c))}, {ty((n, h + 2, 1, c))})', ty((n, h + 2, h + 2, c)))
        o = (h + 2 - 3) // 2 + 1
        w = op(f'"graph.window"({t}) {{kernel = array<i64: 3, 3>, strides = array<i64: 2, 2>, dilations = array<i64: 1, 1>}} : '
               f'({ty((n, h + 2, h + 2, c))})', ty((n, o, o, 3, 3, c)))
        m = op(f'"graph.reduce_max"({w}) {{dims = array<i64: 3, 4>, keepdim = false}} : ({ty((n, o, o, 3, 3, c))})', ty((n, o, o, c)))
        shape = (n, c, o, o)
        return op(f'"graph.transpose"({m}) {{perm = array<i64: 0, 3, 1, 2>}} : ({ty((n, o, o, c))})', ty(shape)), shape

    def mean(self, v):
        shape = (v[1][0], v[1][1])
        return self.op(f'"graph.reduce_mean"({v[0]}) {{dims = array<i64: 2, 3>, keepdim = false}} : ({ty(v[1])})', ty(shape)), shape

    def fc(self, v):
        n, f = v[1]
        y = self.op(f'"graph.matmul"({v[0]}, %fc_w) : ({ty((n, f))}, {ty((f, 1000))})', ty((n, 1000)))
        return self.op(f'"graph.add"({y}, %fc_b) : ({ty((n, 1000))}, {ty((1000,))})', ty((n, 1000))), (n, 1000)


def generate(batch, depth=18, name="R1", size=224):
    g = Gen(depth)
    x = (batch, 3, size, size)
    args = [f"%x: {ty(x)}"]
    for cname, c, oc, k, s, pad in convs(depth):
        args += [f"%{cname}_w: {ty((oc, c, k, k))}", f"%{cname}_b: {ty((oc,))}"]
    args += [f"%fc_w: {ty((fc_in(depth), 1000))}", f"%fc_b: {ty((1000,))}"]
    f, _ = network(g, ("%x", x), depth)
    head = (f"// {name}: ResNet-{depth} inference (batch_norm folded into the conv biases), batch {batch}, {ELEM}, generated by\n"
            f"// bench/gpu/resnet.py; weights are inputs.\n"
            f"func.func @{name}({', '.join(args)}) -> {ty((batch, 1000))} {{\n")
    return head + "\n".join(g.lines) + f"\n  return {f} : {ty((batch, 1000))}\n}}\n"


def flag(name, default):
    return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else default


if __name__ == "__main__":
    ELEM = flag("--dtype", "bf16")
    with open(sys.argv[1], "w") as out:
        out.write(generate(int(flag("--batch", 32)), int(flag("--depth", 18)), flag("--name", "R1"), int(flag("--size", 224))))
