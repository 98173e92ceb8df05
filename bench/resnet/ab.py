#!/usr/bin/python3
"""A/B timing of ResNet-18 libraries that braze compiled differently (another pipeline,
another cpu-codegen option, another braze build), interleaved in one run.

    /usr/bin/python3 bench/resnet/ab.py --batch 8 [--rounds 7] [--iters 5] [--threads 2]
                                        NAME=LIB.so NAME=LIB.so ...

Run bench/resnet/run.py first: it writes bench/out/resnet/resnet18_bN.{mlir,x.npy,ort.bin}
(the model, the input, ONNX Runtime's output). Compile each variant from that .mlir, e.g.
`build/braze compile bench/out/resnet/resnet18_b8.mlir --target=cpu --no-header -o A.so`
(and with `--pipeline=FILE` for a changed pipeline). Every library is checked against
ONNX Runtime's output (max |a - b| / max |b|), then each round times every library
`iters` times in turn (bench/run's timed_calls: an idle gap, 20 ms of warm-up calls),
so that drift in the machine's state affects all alike. Prints per library the median and
the minimum ms over all rounds, and each one's median ratio to the first library
(> 1: faster than the first)."""
import argparse
import importlib.machinery
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--batch", type=int, default=8)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--rounds", type=int, default=7)
    p.add_argument("--iters", type=int, default=5)
    p.add_argument("--dir", default=os.path.join(ROOT, "bench", "out", "resnet"))
    p.add_argument("libs", nargs="+", help="NAME=LIB.so")
    return p.parse_args()


ARGS = parse_args()
os.environ["OMP_NUM_THREADS"] = str(ARGS.threads)  # before libomp loads with a braze library
import numpy as np  # noqa: E402

bench = importlib.machinery.SourceFileLoader("bench_run", os.path.join(ROOT, "bench", "run")).load_module()


def main():
    stem = os.path.join(ARGS.dir, f"resnet18_b{ARGS.batch}")
    x = bench.aligned_copy(np.load(stem + ".x.npy"))
    want = np.fromfile(stem + ".ort.bin", np.float32).reshape(ARGS.batch, -1)
    fn_name = re.search(r"func\.func @(\w+)\(", open(stem + ".mlir").read(1 << 16)).group(1)
    systems = {}
    for spec in ARGS.libs:
        name, _, so = spec.partition("=")
        if not so:
            sys.exit(f"expected NAME=LIB.so, got '{spec}'")
        lib = bench.BrazeSystem(os.path.abspath(so), fn_name, [x], want.shape)
        lib()
        err = float(np.max(np.abs(lib.output() - want)) / np.max(np.abs(want)))
        print(f"{name}: {so}: vs onnxruntime {err:.2e}")
        if not err < 1e-4:
            sys.exit(f"{name}: output disagrees with onnxruntime ({err:.2e})")
        systems[name] = lib
    times = {k: [] for k in systems}
    for _ in range(ARGS.rounds):
        for key, fn in systems.items():
            bench.timed_calls(fn, times[key], ARGS.iters)
    first = float(np.median(times[next(iter(systems))]))
    print(f"batch {ARGS.batch}, {ARGS.threads} threads, {ARGS.rounds} rounds x {ARGS.iters} iterations")
    for key, t in times.items():
        med = float(np.median(t))
        print(f"  {key:<16} median {med:8.2f} ms  min {min(t):8.2f} ms  {first / med:5.3f}x of the first")


if __name__ == "__main__":
    main()
