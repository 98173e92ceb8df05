#!/usr/bin/env python3
"""Attention's spellings on the GPU machine: each function of a library compiled from
test/passes/chains/form-row-chains/Inputs/attention_spellings.py (bf16; issue 41's size:
64 heads, 2048 keys, head dim 128) timed in one run, interleaved, with its kernels per
call (torch.profiler), against the plain spelling (`mul_scores`); with --peers, the plain
spelling in PyTorch too in the same rounds: eager (matmul, softmax, matmul), SDPA
(F.scaled_dot_product_attention; also with the mask and the bias spellings' run-time
boolean mask and additive bias) and torch.compile of the eager function (default mode).

    python3 bench/gpu/spellings.py LIB.so SPELLINGS.py [--b 64 --s 2048 --d 128]
        [--dtype bf16|f32] [--peers] [--rounds 5 --iters 20]

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


DTYPES = {"bf16": torch.bfloat16, "f32": torch.float32}


def load_spellings(path, dtype, b, s, d):
    sys.argv = [path, dtype, str(b), str(s), str(d)]
    spec = importlib.util.spec_from_file_location("spellings", path)
    mod = importlib.util.module_from_spec(spec)
    stdout = sys.stdout
    try:
        sys.stdout = open("/dev/null", "w")  # the generator prints the module
        spec.loader.exec_module(mod)
    finally:
        sys.stdout = stdout
    return mod.SPELLINGS


def tensor_for(name, shape, elem, gen, dtype):
    if elem == "i1":
        return torch.rand(shape, device="cuda", generator=gen) < 0.9
    x = torch.randn(shape, device="cuda", generator=gen, dtype=torch.float32)
    if name == "bias":
        x = torch.where(x > -1.3, 0.0, -1e4)
    if name == "q":
        x = x / 4
    return x.to(dtype)


def inputs_for(args_text, gen, dtype):
    ins = []
    for name, dims, elem in re.findall(r"%(\w+): tensor<((?:\d+x)+)(\w+)>", args_text):
        ins.append(tensor_for(name, [int(x) for x in dims.rstrip("x").split("x")], elem, gen, dtype))
    return ins


def eager_attention(q, k, v):
    return torch.softmax(torch.matmul(q, k.transpose(1, 2)) * 0.125, dim=-1) @ v


def peer_runs(a, gen, dtype):
    """The plain spelling in PyTorch: eager, SDPA, torch.compile (same inputs)."""
    q, k, v = (tensor_for(n, [a.b, a.s, a.d], dtype, gen, dtype) for n in ("q", "k", "v"))
    compiled = torch.compile(eager_attention)
    sdpa = torch.nn.functional.scaled_dot_product_attention
    mask = tensor_for("m", [a.s, a.s], "i1", gen, dtype)  # True: the key is kept
    bias = tensor_for("bias", [a.s, a.s], dtype, gen, dtype)
    runs = {"torch eager": lambda: eager_attention(q, k, v),
            "torch sdpa": lambda: sdpa(q[None], k[None], v[None], scale=0.125),
            "torch sdpa, bool mask": lambda: sdpa(q[None], k[None], v[None], attn_mask=mask, scale=0.125),
            "torch sdpa, bias": lambda: sdpa(q[None], k[None], v[None], attn_mask=bias, scale=0.125),
            "torch.compile": lambda: compiled(q, k, v)}
    for run in runs.values():
        for _ in range(3):
            run()
    return runs




def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("lib")
    ap.add_argument("spellings")
    ap.add_argument("--b", type=int, default=64)
    ap.add_argument("--s", type=int, default=2048)
    ap.add_argument("--d", type=int, default=128)
    ap.add_argument("--dtype", choices=sorted(DTYPES), default="bf16")
    ap.add_argument("--peers", action="store_true")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--iters", type=int, default=20)
    a = ap.parse_args()
    spellings = load_spellings(a.spellings, a.dtype, a.b, a.s, a.d)
    dtype = DTYPES[a.dtype]
    lib = ctypes.CDLL(a.lib)
    gen = torch.Generator(device="cuda").manual_seed(0)
    runs = {}
    for name, spec in spellings.items():
        fn = getattr(lib, name)
        fn.restype = ctypes.c_int
        ins = inputs_for(spec[0], gen, dtype)
        out = torch.empty(a.b, a.s, a.d, dtype=dtype, device="cuda")
        ptrs = [ctypes.c_void_p(t.data_ptr()) for t in ins + [out]]

        def run(fn=fn, ptrs=ptrs, keep=(ins, out)):
            if fn(*ptrs) != 0:
                raise SystemExit(f"{name}: returned an error: {lib.braze_cuda_last_error().decode()}")
        run()
        runs[name] = run
    if a.peers:
        runs.update(peer_runs(a, gen, dtype))
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
    print(f"device: {torch.cuda.get_device_name()}; b={a.b} s={a.s} d={a.d} {a.dtype}; median of {a.rounds} rounds x {a.iters} calls")
    print("| spelling | kernels per call | ms | / mul_scores |")
    print("|---|---|---|---|")
    for name, run in runs.items():
        ms = statistics.median(times[name])
        print(f"| {name} | {kernels_per_call(run, calls=5):g} | {ms:.3f} | {ms / base:.2f} |")


if __name__ == "__main__":
    main()
