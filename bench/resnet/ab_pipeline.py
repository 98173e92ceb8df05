#!/usr/bin/python3
"""A/B of one compiler change on ResNet-18: the model run.py imported (bench/out/resnet/
resnet18_bN.mlir, its input .x.npy) compiled twice by this build, with the default CPU
pipeline (B) and with one piece of its text replaced (A: by default `form-kernels`
without pad-templates, decision 0024), then both libraries called alternately in one process,
rounds x iterations each (bench/run's timed_calls: an idle gap and warm-up calls first).
Prints per batch: median and min ms of each, B / A, and the largest difference between
their outputs relative to the output's largest magnitude. Run run.py first.

    /usr/bin/python3 bench/resnet/ab_pipeline.py [--batch 1,8] [--threads 2] [--rounds 10]
                                        [--iters 5] [--out bench/out/resnet]
                                        [--old 'pad-templates}' --new 'pad-templates=false}']"""
import argparse
import importlib.machinery
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--batch", default="1,8")
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--rounds", type=int, default=10)
    p.add_argument("--iters", type=int, default=5)
    p.add_argument("--out", default=os.path.join(ROOT, "bench", "out", "resnet"))
    p.add_argument("--old", default="pad-templates}", help="text of pipelines/cpu-default.pipeline's passes "
                   "(its first occurrence outside comments)...")
    p.add_argument("--new", default="pad-templates=false}", help="...replaced by this for A")
    return p.parse_args()


ARGS = parse_args()
os.environ["OMP_NUM_THREADS"] = str(ARGS.threads)  # before libomp loads with a braze library
import numpy as np  # noqa: E402

bench = importlib.machinery.SourceFileLoader("bench_run", os.path.join(ROOT, "bench", "run")).load_module()


def compile_so(mlir, so, pipeline):
    cmd = [bench.BRAZE, "compile", mlir, "--target=cpu", "-o", so, "--no-header"]
    if pipeline:
        cmd.append("--pipeline=" + pipeline)
    res = subprocess.run(cmd, capture_output=True, text=True)
    if res.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed:\n{res.stderr[-3000:]}")


def main():
    old, new = ARGS.old, ARGS.new
    lines = open(os.path.join(ROOT, "pipelines", "cpu-default.pipeline")).read().split("\n")
    at = next((i for i, line in enumerate(lines) if not line.startswith("#") and old in line), None)
    if at is None:
        sys.exit(f"'{old}' is not in pipelines/cpu-default.pipeline's passes")
    lines[at] = lines[at].replace(old, new, 1)
    variant = os.path.join(ARGS.out, "ab-a.pipeline")
    with open(variant, "w") as f:
        f.write("\n".join(lines))
    for batch in [int(b) for b in ARGS.batch.split(",")]:
        stem = os.path.join(ARGS.out, f"resnet18_b{batch}")
        if not os.path.exists(stem + ".mlir"):
            sys.exit(f"{stem}.mlir is missing: run bench/resnet/run.py --batch {batch} first")
        compile_so(stem + ".mlir", stem + ".a.so", variant)
        compile_so(stem + ".mlir", stem + ".b.so", None)
        x = bench.aligned_copy(np.load(stem + ".x.npy"))
        fn_name = re.search(r"func\.func @(\w+)\(", open(stem + ".mlir").read()).group(1)
        shape = tuple(int(d) for d in re.search(r"-> tensor<([0-9x]+)xf32>", open(stem + ".mlir").read()).group(1).split("x"))
        systems = {k: bench.BrazeSystem(f"{stem}.{k}.so", fn_name, [x], shape) for k in ("a", "b")}
        for s in systems.values():
            s()
        diff = float(np.max(np.abs(systems["a"].output() - systems["b"].output())) / np.max(np.abs(systems["a"].output())))
        times = {k: [] for k in systems}
        for _ in range(ARGS.rounds):
            for k, s in systems.items():
                bench.timed_calls(s, times[k], ARGS.iters)
        med = {k: float(np.median(v)) for k, v in times.items()}
        low = {k: float(np.min(v)) for k, v in times.items()}
        print(f"batch {batch}: A ({old} -> {new}) median {med['a']:.2f} ms min {low['a']:.2f}; "
              f"B (default) median {med['b']:.2f} ms min {low['b']:.2f}; B / A median {med['b'] / med['a']:.3f} "
              f"min {low['b'] / low['a']:.3f}; outputs differ by {diff:.1e}")


if __name__ == "__main__":
    main()
