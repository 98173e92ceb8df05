#!/usr/bin/python3
"""Time one workload compiled with several pipelines, interleaved in one process: each
round calls every variant once, so load on the machine shifts all of them alike (the
ratios hold under load where back-to-back timing does not).

    /usr/bin/python3 bench/variants/ab.py FILE.mlir NAME=PIPELINE-ELEMENT ... [--rounds 15]

Each NAME=ELEMENT replaces cpu-default's form-row-chains element with ELEMENT (e.g.
whole='form-row-chains{no-online}' online='form-row-chains{online-min-keys=1}'); the
first variant is the baseline of the printed ratios. Inputs are standard normal f32 of
the function's argument shapes; one result. Prints median and best ms per variant."""
import argparse
import ctypes
import os
import re
import subprocess
import sys
import tempfile
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = os.environ.get("BRAZE_BUILD", os.path.join(ROOT, "build"))


def signature(path):
    text = open(path).read()
    m = re.search(r"func\.func @([\w.]+)\((.*?)\)\s*->\s*(tensor<[^>]*>)", text, re.S)
    if not m:
        sys.exit(f"{path}: no public func.func with one tensor result")
    shape = lambda t: tuple(int(d) for d in re.match(r"tensor<([0-9x]*)x?f32>", t).group(1).split("x") if d)
    args = re.findall(r"tensor<[0-9x]*xf32>", m.group(2))
    return m.group(1), [shape(a) for a in args], shape(m.group(3))


def compile_variant(path, element, out_dir, name):
    default = open(os.path.join(ROOT, "pipelines", "cpu-default.pipeline")).read()
    pipeline = re.sub(r"^form-row-chains[^,\n]*,", element + ",", default, flags=re.M)
    pfile = os.path.join(out_dir, name + ".pipeline")
    open(pfile, "w").write(pipeline)
    so = os.path.join(out_dir, f"lib{name}.so")
    subprocess.run([os.path.join(BUILD, "braze"), "compile", path, "--target=cpu", f"--pipeline={pfile}", "-o", so,
                    "--no-header"], check=True)
    return so


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("file")
    ap.add_argument("variants", nargs="+", help="NAME=PIPELINE-ELEMENT")
    ap.add_argument("--rounds", type=int, default=15)
    args = ap.parse_args()
    func, in_shapes, out_shape = signature(args.file)
    rng = np.random.default_rng(0)
    ins = [rng.standard_normal(s, dtype=np.float32) for s in in_shapes]
    out = np.empty(out_shape, np.float32)
    ptrs = [a.ctypes.data_as(ctypes.c_void_p) for a in ins] + [out.ctypes.data_as(ctypes.c_void_p)]
    fns = {}
    with tempfile.TemporaryDirectory() as tmp:
        for v in args.variants:
            name, element = v.split("=", 1)
            fns[name] = getattr(ctypes.CDLL(compile_variant(args.file, element, tmp, name)), func)
        times = {n: [] for n in fns}
        for f in fns.values():
            f(*ptrs)
        for _ in range(args.rounds):
            for n, f in fns.items():
                t0 = time.perf_counter()
                if f(*ptrs) != 0:
                    sys.exit(f"{n}: the entry returned an error")
                times[n].append((time.perf_counter() - t0) * 1e3)
    base = float(np.median(times[next(iter(fns))]))
    for n, t in times.items():
        print(f"{n:16s} median {np.median(t):9.3f} ms  best {min(t):9.3f} ms  median / first {np.median(t) / base:.3f}")


if __name__ == "__main__":
    main()
