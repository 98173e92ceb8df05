#!/usr/bin/env python3
"""Attention's spellings on the GPU machine: each function of a library compiled from
test/passes/chains/form-row-chains/Inputs/attention_spellings.py (bf16; issue 41's size:
64 heads, 2048 keys, head dim 128) timed in one run, interleaved, with its kernels per
call (torch.profiler), against the plain spelling (`mul_scores`).

    python3 bench/gpu/spellings.py LIB.so SPELLINGS.py [--b 64 --s 2048 --d 128]
        [--rounds 5 --iters 20]

The functions' argument shapes come from the generator's own SPELLINGS table. Inputs are
random normals (q scaled by 1/4 so that the scores stay O(1)); a boolean mask keeps a
random 90% of the keys, a bias is 0 or -1e4. Prints a table: spelling, kernels per
call, median ms, ratio to mul_scores (> 1: slower)."""
import argparse
import ctypes
import importlib.util
import os
import re
import statistics
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from profiling import kernels_per_call  # noqa: E402


def load_spellings(path, b, s, d):
    sys.argv = [path, "bf16", str(b), str(s), str(d)]
    spec = importlib.util.spec_from_file_location("spellings", path)
    mod = importlib.util.module_from_spec(spec)
    stdout = sys.stdout
    try:
        sys.stdout = open("/dev/null", "w")  # the generator prints the module
        spec.loader.exec_module(mod)
    finally:
        sys.stdout = stdout
    return mod.SPELLINGS


def tensor_for(name, shape, elem, gen):
    if elem == "i1":
        return torch.rand(shape, device="cuda", generator=gen) < 0.9
    x = torch.randn(shape, device="cuda", generator=gen, dtype=torch.float32)
    if name == "bias":
        x = torch.where(x > -1.3, 0.0, -1e4)
    if name == "q":
        x = x / 4
    return x.to(torch.bfloat16)


def inputs_for(args_text, gen):
    ins = []
    for name, dims, elem in re.findall(r"%(\w+): tensor<((?:\d+x)+)(\w+)>", args_text):
        ins.append(tensor_for(name, [int(x) for x in dims.rstrip("x").split("x")], elem, gen))
    return ins




def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("lib")
    ap.add_argument("spellings")
    ap.add_argument("--b", type=int, default=64)
    ap.add_argument("--s", type=int, default=2048)
    ap.add_argument("--d", type=int, default=128)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--iters", type=int, default=20)
    a = ap.parse_args()
    spellings = load_spellings(a.spellings, a.b, a.s, a.d)
    lib = ctypes.CDLL(a.lib)
    gen = torch.Generator(device="cuda").manual_seed(0)
    runs = {}
    for name, spec in spellings.items():
        fn = getattr(lib, name)
        fn.restype = ctypes.c_int
        ins = inputs_for(spec[0], gen)
        out = torch.empty(a.b, a.s, a.d, dtype=torch.bfloat16, device="cuda")
        ptrs = [ctypes.c_void_p(t.data_ptr()) for t in ins + [out]]

        def run(fn=fn, ptrs=ptrs, keep=(ins, out)):
            if fn(*ptrs) != 0:
                raise SystemExit(f"{name}: returned an error: {lib.braze_cuda_last_error().decode()}")
        run()
        runs[name] = run
    torch.cuda.synchronize()
    times = {n: [] for n in runs}
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    for _ in range(a.rounds):  # interleaved: every spelling once per round
        for name, run in runs.items():
            start.record()
            for _ in range(a.iters):
                run()
            end.record()
            end.synchronize()
            times[name].append(start.elapsed_time(end) / a.iters)
    base = statistics.median(times["mul_scores"])
    print(f"device: {torch.cuda.get_device_name()}; b={a.b} s={a.s} d={a.d} bf16; median of {a.rounds} rounds x {a.iters} calls")
    print("| spelling | kernels per call | ms | / mul_scores |")
    print("|---|---|---|---|")
    for name, run in runs.items():
        ms = statistics.median(times[name])
        print(f"| {name} | {kernels_per_call(run, calls=5):g} | {ms:.3f} | {ms / base:.2f} |")


if __name__ == "__main__":
    main()
