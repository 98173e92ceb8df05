#!/usr/bin/python3
"""ResNet-18 (random weights, eval mode) end to end: exported to ONNX by PyTorch at each
batch size, imported and compiled by braze for the CPU (default pipeline), checked
against PyTorch (eager, the same weights) and ONNX Runtime on one random input, and
timed against ONNX Runtime (CPU, all graph optimizations) in one run, interleaved.

    /usr/bin/python3 bench/resnet/run.py [--batch 1,8] [--threads 2] [--rounds 3]
                                         [--iters 5] [--out bench/out/resnet]

The model is torchvision's resnet18 when torchvision is installed, else the same
architecture written here with torch.nn (BasicBlock x [2, 2, 2, 2], 7x7 stem, max pool,
global average pool, fc 1000); weights are torch's default initialization under seed 0
with BatchNorm statistics randomized (running mean/var, affine), so the folded
batch_norms are not identities. braze's threads: OMP_NUM_THREADS (set here to
--threads before the libraries load); ONNX Runtime: intraOpNumThreads = --threads.
Prints per batch: agreement (max |a - b| / max |b|), median ms per system over all
rounds' iterations, the ratio ONNX Runtime / braze (> 1: braze faster), braze's
kernels per call and the names of its conv kernels (what fused with each conv)."""
import argparse
import importlib.machinery
import os
import re
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--batch", default="1,8")
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--iters", type=int, default=5)
    p.add_argument("--out", default=os.path.join(ROOT, "bench", "out", "resnet"))
    return p.parse_args()


ARGS = parse_args()
os.environ["OMP_NUM_THREADS"] = str(ARGS.threads)  # before libomp loads with a braze library
import numpy as np  # noqa: E402
import torch  # noqa: E402
from torch import nn  # noqa: E402

bench = importlib.machinery.SourceFileLoader("bench_run", os.path.join(ROOT, "bench", "run")).load_module()


class BasicBlock(nn.Module):
    def __init__(self, cin, cout, stride):
        super().__init__()
        self.conv1 = nn.Conv2d(cin, cout, 3, stride, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(cout)
        self.conv2 = nn.Conv2d(cout, cout, 3, 1, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(cout)
        self.relu = nn.ReLU(inplace=True)
        self.downsample = None
        if stride != 1 or cin != cout:
            self.downsample = nn.Sequential(nn.Conv2d(cin, cout, 1, stride, bias=False), nn.BatchNorm2d(cout))

    def forward(self, x):
        y = self.relu(self.bn1(self.conv1(x)))
        y = self.bn2(self.conv2(y))
        return self.relu(y + (x if self.downsample is None else self.downsample(x)))


class ResNet18(nn.Module):
    """torchvision.models.resnet18's architecture."""

    def __init__(self, classes=1000):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 64, 7, 2, 3, bias=False)
        self.bn1 = nn.BatchNorm2d(64)
        self.relu = nn.ReLU(inplace=True)
        self.maxpool = nn.MaxPool2d(3, 2, 1)
        layers, cin = [], 64
        for cout, stride in ((64, 1), (128, 2), (256, 2), (512, 2)):
            layers.append(nn.Sequential(BasicBlock(cin, cout, stride), BasicBlock(cout, cout, 1)))
            cin = cout
        self.layer1, self.layer2, self.layer3, self.layer4 = layers
        self.avgpool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(512, classes)

    def forward(self, x):
        x = self.maxpool(self.relu(self.bn1(self.conv1(x))))
        x = self.layer4(self.layer3(self.layer2(self.layer1(x))))
        return self.fc(torch.flatten(self.avgpool(x), 1))


def make_model():
    torch.manual_seed(0)
    try:
        import torchvision
        m, source = torchvision.models.resnet18(), "torchvision"
    except ImportError:
        m, source = ResNet18(), "bench/resnet/run.py (torch.nn)"
    for mod in m.modules():
        if isinstance(mod, nn.BatchNorm2d):
            with torch.no_grad():
                mod.running_mean.uniform_(-0.1, 0.1)
                mod.running_var.uniform_(0.5, 1.5)
                mod.weight.uniform_(0.5, 1.5)
                mod.bias.uniform_(-0.1, 0.1)
    return m.eval(), source


def run(cmd):
    res = subprocess.run(cmd, capture_output=True, text=True)
    if res.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed:\n{res.stderr[-3000:]}")
    return res


def agreement(a, b):
    return float(np.max(np.abs(a - b)) / np.max(np.abs(b)))


def main():
    os.makedirs(ARGS.out, exist_ok=True)
    model, source = make_model()
    torch.set_num_threads(ARGS.threads)
    node = bench.ensure_ort(os.path.join(ROOT, "bench", "out"))
    ort = bench.OrtServer(node) if node else None
    print(f"ResNet-18 from {source}, {ARGS.threads} threads, {ARGS.rounds} rounds x {ARGS.iters} iterations")
    for batch in [int(b) for b in ARGS.batch.split(",")]:
        stem = os.path.join(ARGS.out, f"resnet18_b{batch}")
        x = bench.aligned_copy(np.random.default_rng(0).standard_normal((batch, 3, 224, 224), dtype=np.float32))
        np.save(stem + ".x.npy", x)
        with torch.no_grad():
            torch.onnx.export(model, torch.from_numpy(x), stem + ".onnx", opset_version=13, input_names=["x"],
                              output_names=["y"])
            want = model(torch.from_numpy(x)).numpy()
        run([bench.BRAZE, "import", stem + ".onnx", "-o", stem + ".mlir"])
        shutil.rmtree(stem + ".kernels", ignore_errors=True)
        t0 = time.perf_counter()
        run([bench.BRAZE, "compile", stem + ".mlir", "--target=cpu", "-o", stem + ".so", "--no-header",
             "--dump-kernels=" + stem + ".kernels"])
        compile_s = time.perf_counter() - t0
        fn_name = re.search(r"func\.func @(\w+)\(", open(stem + ".mlir").read()).group(1)
        braze = bench.BrazeSystem(stem + ".so", fn_name, [x], want.shape)
        braze()
        systems = {"braze": braze, "torch": lambda: model(torch.from_numpy(x))}
        line = f"batch {batch}: braze vs torch {agreement(braze.output(), want):.2e}"
        if ort:
            ort.call(f"load r{batch} {stem}.onnx {ARGS.threads} {stem}.x.npy")
            ort.call(f"save r{batch} {stem}.ort.bin")
            ort_out = np.fromfile(stem + ".ort.bin", np.float32).reshape(want.shape)
            line += f", braze vs onnxruntime {agreement(braze.output(), ort_out):.2e}"
            line += f", onnxruntime vs torch {agreement(ort_out, want):.2e}"
            systems["onnxruntime"] = None
        print(line)
        times = {k: [] for k in systems}
        with torch.no_grad():
            for _ in range(ARGS.rounds):
                for key, fn in systems.items():
                    if key == "onnxruntime":
                        time.sleep(bench.GAP_S)
                        times[key] += ort.call(f"time r{batch} {ARGS.iters}")["ms"]
                    else:
                        bench.timed_calls(fn, times[key], ARGS.iters)
        med = {k: float(np.median(v)) for k, v in times.items()}
        row = ", ".join(f"{k} {v:.2f} ms" for k, v in med.items())
        ratio = f"; onnxruntime / braze = {med['onnxruntime'] / med['braze']:.2f}" if ort else ""
        kernels = sorted(f[:-5] for f in os.listdir(stem + ".kernels") if f.endswith(".mlir"))
        convs = [k for k in kernels if "conv" in k]
        print(f"batch {batch}: {row}{ratio}; torch / braze = {med['torch'] / med['braze']:.2f}")
        print(f"batch {batch}: {len(kernels)} kernels, compile {compile_s:.1f} s; conv kernels: {', '.join(convs)}")
    if ort:
        ort.close()


if __name__ == "__main__":
    main()
