"""The GPU benchmark's CNNs (bench/gpu/resnet.py: ResNet-18, ResNet-50; bench/gpu/mobilenet.py:
MobileNetV2's inverted residual) checked on the CPU in float32, two ways:

1. their torch functions against torchvision's modules (random weights, batch_norm with
   random statistics folded into the convs' weights and biases, as the benchmark's
   inference form assumes): the architecture the benchmark times is torchvision's;
2. their generated graph-dialect modules (--dtype f32, small images) through the reference
   interpreter (`braze run --inputs`) against the same torch functions on the same inputs:
   the module braze compiles computes what the peers compute.

    python3 bench_nets.py SRC_ROOT WORKDIR     (BRAZE_BIN: the braze tool)"""
import os
import subprocess
import sys

import numpy as np
import torch
import torchvision

ROOT, WORK = sys.argv[1], sys.argv[2]
sys.path.insert(0, os.path.join(ROOT, "bench", "gpu"))
import mobilenet  # noqa: E402
import resnet  # noqa: E402

torch.manual_seed(0)


def rel_err(a, b):
    return (torch.linalg.vector_norm(a - b) / torch.linalg.vector_norm(b)).item()


def randomize_bn(m):
    for mod in m.modules():
        if isinstance(mod, torch.nn.BatchNorm2d):
            mod.running_mean.uniform_(-0.5, 0.5)
            mod.running_var.uniform_(0.5, 2.0)
            mod.weight.data.uniform_(0.5, 1.5)
            mod.bias.data.uniform_(-0.5, 0.5)


def fold(conv, bn):
    """The conv's weight and bias with the inference batch_norm after it folded in."""
    s = bn.weight / torch.sqrt(bn.running_var + bn.eps)
    b = conv.bias if conv.bias is not None else torch.zeros_like(bn.running_mean)
    return [conv.weight * s.reshape(-1, 1, 1, 1), (b - bn.running_mean) * s + bn.bias]


def resnet_params(m, depth):
    """torchvision's modules in resnet.convs(depth)'s order, folded, then the fc."""
    kind, _ = resnet.ARCH[depth]
    p = []
    for name, *_ in resnet.convs(depth):
        if name == "stem":
            p += fold(m.conv1, m.bn1)
            continue
        w, b, part = int(name[1:name.index("b")]), int(name[name.index("b") + 1:-2]), name[-2:]
        blk = getattr(m, "layer%d" % (resnet.WIDTHS.index(w) + 1))[b]
        if part == "ds":
            p += fold(blk.downsample[0], blk.downsample[1])
        else:
            i = part[1]
            p += fold(getattr(blk, "conv" + i), getattr(blk, "bn" + i))
    return p + [m.fc.weight.t(), m.fc.bias]


def against_torchvision():
    with torch.no_grad():
        for depth, ctor in ((18, torchvision.models.resnet18), (50, torchvision.models.resnet50)):
            m = ctor().eval()
            randomize_bn(m)
            x = torch.randn(2, 3, 64, 64)
            err = rel_err(resnet.torch_fn_for(depth)(x, *resnet_params(m, depth)), m(x))
            n = len(resnet.convs(depth))
            print("resnet%d vs torchvision: %d convs, %s" % (depth, n, "ok" if err < 1e-4 else "FAIL %g" % err))
        blk = torchvision.models.mobilenet_v2().features[3].eval()
        randomize_bn(blk)
        seq = blk.conv  # [conv-bn-relu6 (expand), conv-bn-relu6 (depthwise), conv (project), bn]
        assert blk.use_res_connect and seq[1][0].groups == mobilenet.HIDDEN
        p = fold(seq[0][0], seq[0][1]) + fold(seq[1][0], seq[1][1]) + fold(seq[2], seq[3])
        x = torch.randn(2, mobilenet.C, 20, 20)
        err = rel_err(mobilenet.torch_fn(x, *p), blk(x))
        print("mobilenet_v2 block vs torchvision: %s" % ("ok" if err < 1e-4 else "FAIL %g" % err))


def inputs(specs, seed):
    g = np.random.default_rng(seed)
    out = []
    for i, shape in enumerate(specs):
        t = g.standard_normal(shape).astype(np.float32)
        if i > 0 and len(shape) == 4:
            t /= np.sqrt(shape[1] * shape[2] * shape[3])  # bench.py's fan-in scaling
        if i > 0 and len(shape) == 2:
            t /= np.sqrt(shape[0])
        out.append(t)
    return out


def through_reference(label, text, specs, fn):
    d = os.path.join(WORK, label)
    os.makedirs(d, exist_ok=True)
    src = os.path.join(d, label + ".mlir")
    with open(src, "w") as f:
        f.write(text)
    ins = inputs(specs, 1)
    paths = []
    for i, t in enumerate(ins):
        paths.append(os.path.join(d, "in%d.npy" % i))
        np.save(paths[-1], t)
    subprocess.run([os.environ["BRAZE_BIN"], "run", src, "--inputs", ",".join(paths), "--save-outputs", d],
                   check=True, stdout=subprocess.DEVNULL)
    got = torch.from_numpy(np.load(os.path.join(d, "out0.npy")).astype(np.float32))
    with torch.no_grad():
        want = fn(*[torch.from_numpy(t) for t in ins])
    err = rel_err(got, want)
    print("%s module vs torch: %s" % (label, "ok" if err < 1e-4 else "FAIL %g" % err))


def modules_against_torch():
    resnet.ELEM = mobilenet.ELEM = "f32"
    for depth in (18, 50):
        through_reference("resnet%d" % depth, resnet.generate(2, depth, "r%d" % depth, size=32),
                          [(2, 3, 32, 32)] + resnet.input_specs(2, depth)[1:],
                          resnet.torch_fn_for(depth))
    through_reference("mobilenet", mobilenet.generate(1, "d1"), mobilenet.input_specs(1), mobilenet.torch_fn)


against_torchvision()
modules_against_torch()
