#!/usr/bin/env python3
"""Times one dynamic library against a static build at each length (decision 0032).

    python3 bench/dynamic/bench.py                       # the Llama block, lengths 1 7 128 1000 2048
    python3 bench/dynamic/bench.py --cpu=x86-64-v3       # the AVX2 build
    python3 bench/dynamic/bench.py --workload FILE.mlir --dims s0=1,64,1000
        # any function with one symbol: its static builds are FILE specialized per size
    BRAZE=build/braze python3 bench/dynamic/bench.py --lengths 1,7,128

The Llama block (bench/dynamic/llama_block.py, --dim/--heads/--kv-heads/--ffn) gets
realistic inputs: weights scaled by 1/sqrt(fan-in), the rotary tables of positions
0..s-1, the causal mask (0 on and below the diagonal, -1e9 above); other workloads
standard normals. Each build's output is compared with the other's (max relative
error). Prints one table row per length: the best call of --rounds interleaved rounds
of --reps calls each, in milliseconds, for both, their
ratio (dynamic / static) and the compile times; the dynamic library is compiled once."""
import argparse
import ctypes
import os
import re
import subprocess
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
BRAZE = os.environ.get("BRAZE", os.path.join(ROOT, "build", "braze"))
sys.path.insert(0, HERE)
import llama_block  # noqa: E402


def compile_lib(src, out, cpu, env=None):
    t0 = time.perf_counter()
    subprocess.run([BRAZE, "compile", src, "-o", out, "--cpu=" + cpu], check=True, env=env)
    return time.perf_counter() - t0


def specialize(text, sym, n):
    """The symbolic function at size n: every ? is n, the symbol tables dropped."""
    text = re.sub(r'\s*\{graph\.dims = \[[^\]]*\]\}', "", text)
    text = re.sub(r'\s*attributes \{graph\.symbols = \{[^}]*\}\}', "", text)
    return re.sub(r"(?<=[<x])\?(?=x)", str(n), text)


def arg_shapes(text, n):
    head = text[text.index("func.func"):text.index(") ->")]
    shapes = []
    for m in re.finditer(r"tensor<([^>]*)>", head):
        dims = m.group(1).split("x")[:-1]
        shapes.append(tuple(n if d == "?" else int(d) for d in dims))
    return shapes


def result_shape(text, n):
    m = re.search(r"\) -> \(?tensor<([^>]*)>", text)
    return tuple(n if d == "?" else int(d) for d in m.group(1).split("x")[:-1])


def llama_inputs(shapes, n, hd, rng):
    names = ["x", "g1", "wq", "wk", "wv", "wo", "g2", "w1", "w3", "w2", "cos", "sin", "mask"]
    out = []
    for name, shape in zip(names, shapes):
        if name in ("g1", "g2"):
            a = 1.0 + 0.1 * rng.standard_normal(shape)
        elif name.startswith("w"):
            a = rng.standard_normal(shape) / np.sqrt(shape[0])
        elif name in ("cos", "sin"):
            inv = 1.0 / (10000.0 ** (np.arange(0, hd, 2) / hd))
            ang = np.outer(np.arange(n), inv)
            ang = np.concatenate([ang, ang], axis=1)
            a = np.cos(ang) if name == "cos" else np.sin(ang)
        elif name == "mask":
            a = np.triu(np.full((n, n), -1e9), 1)
        else:
            a = rng.standard_normal(shape)
        out.append(np.ascontiguousarray(a, dtype=np.float32))
    return out


def best_ms(fn, reps, budget=2.0):
    fn()
    times = []
    t_end = time.perf_counter() + budget
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
        if time.perf_counter() > t_end and len(times) >= 3:
            break
    return 1e3 * min(times)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--workload", help="a .mlir with one symbolic dim (default: the Llama block)")
    p.add_argument("--dims", help="SYM=N1,N2,... (default s=1,7,128,1000,2048)")
    p.add_argument("--lengths", help="N1,N2,... for the default symbol")
    p.add_argument("--cpu", default="native")
    p.add_argument("--reps", type=int, default=20, help="calls per round (each side)")
    p.add_argument("--rounds", type=int, default=3, help="interleaved rounds; the best call of all counts")
    p.add_argument("--dim", type=int, default=256)
    p.add_argument("--heads", type=int, default=8)
    p.add_argument("--kv-heads", type=int, default=2)
    p.add_argument("--ffn", type=int, default=768)
    p.add_argument("--mode", default="auto", help="BRAZE_DYNAMIC for the dynamic build: auto, loops or rows")
    a = p.parse_args()
    tmp = tempfile.mkdtemp(prefix="braze-dyn-")
    if a.workload:
        text = open(a.workload).read()
        name = re.search(r"func\.func @(\w+)", text).group(1)
    else:
        text = llama_block.block(a.dim, a.heads, a.kv_heads, a.ffn, 0, 1, 4096, 1)
        name = "block"
    sym_m = re.search(r"graph\.symbols = \{(\w+) = array<i64: ([^>]*)>", text)
    sym = sym_m.group(1)
    dims = a.dims or "%s=%s" % (sym, a.lengths or "1,7,128,1000,2048")
    sizes = [int(v) for v in dims.split("=", 1)[1].split(",")]
    src = os.path.join(tmp, "dyn.mlir")
    open(src, "w").write(text)
    env = dict(os.environ, BRAZE_DYNAMIC=a.mode)
    dyn_so = os.path.join(tmp, "libdyn.so")
    t_dyn = compile_lib(src, dyn_so, a.cpu, env)
    dyn = ctypes.CDLL(dyn_so)
    rng = np.random.default_rng(0)
    print("# %s, --cpu=%s, dynamic compile %.2f s (BRAZE_DYNAMIC=%s)" % (name, a.cpu, t_dyn, a.mode))
    print("%-8s %12s %12s %8s %10s %10s" % (sym, "dynamic ms", "static ms", "dyn/st", "compile s", "max rel"))
    hd = a.dim // a.heads
    for n in sizes:
        shapes = arg_shapes(text, n)
        ins = llama_inputs(shapes, n, hd, rng) if not a.workload else [
            np.ascontiguousarray(rng.standard_normal(s), dtype=np.float32) for s in shapes]
        out_d = np.zeros(result_shape(text, n), np.float32)
        out_s = np.zeros_like(out_d)
        st_src = os.path.join(tmp, "st%d.mlir" % n)
        open(st_src, "w").write(specialize(text, sym, n))
        st_so = os.path.join(tmp, "libst%d.so" % n)
        t_st = compile_lib(st_src, st_so, a.cpu)
        st = ctypes.CDLL(st_so)
        ptrs = [x.ctypes.data_as(ctypes.c_void_p) for x in ins]
        fd = getattr(dyn, name)
        fs = getattr(st, name)
        args_d = ptrs + [out_d.ctypes.data_as(ctypes.c_void_p), ctypes.c_int64(n)]
        args_s = ptrs + [out_s.ctypes.data_as(ctypes.c_void_p)]
        rc = fd(*args_d), fs(*args_s)
        if rc != (0, 0):
            sys.exit("bench.py: status %s at %s = %d" % (rc, sym, n))
        err = float(np.max(np.abs(out_d - out_s)) / max(1e-30, float(np.max(np.abs(out_s)))))
        md = ms = float("inf")
        for _ in range(a.rounds):  # interleaved, so both see the same load
            md = min(md, best_ms(lambda: fd(*args_d), a.reps, 1.0))
            ms = min(ms, best_ms(lambda: fs(*args_s), a.reps, 1.0))
        print("%-8d %12.3f %12.3f %8.2f %10.2f %10.2e" % (n, md, ms, md / ms, t_st, err))
        sys.stdout.flush()


if __name__ == "__main__":
    main()
