#!/usr/bin/python3
"""User-kernel epilogue fusion, fused vs unfused (docs/user-kernels.md).

    bench/user-kernels/run.py [--rows 4096] [--cols 1024] [--iters 50] [--rounds 3]
                              [--calls 10,100,1000] [--lanes 8] [--out DIR]

Workloads: a user-written kernel (loop-level func.func on memrefs) followed by a
pointwise epilogue chain in graph ops:
  U1  row softmax written by hand (scf.parallel over rows, three scf.for passes over
      vector<{LANES}xf32>: max, sum of exp, exp * (1/sum) stored), then
      gelu(tanh)(out + bias[cols]) * residual
  U2  a vectorized square (vector<{LANES}xf32> loads/stores), then tanh(out + bias[cols])
Each is compiled with `braze compile --pipeline=cpu-default` (the epilogue fused into a
copy of the kernel at its store sites) and `--pipeline=cpu-no-user-epilogue` (the
kernel writes its output, a second kernel reads it back). Printed per variant: kernels,
bytes moved (every kernel's inputs + outputs, read from the kernel-level IR) and the
median ms per call over rounds x iters calls (each round after 20 ms of warm-up
calls), outputs checked against each other (the same random-normal inputs, in fresh 64-byte-
aligned arrays per variant). Then compile time of graphs with N calls of one user
kernel, each with an epilogue (`braze-opt --pipeline=cpu-default`, wall seconds):
the read/write analysis walks the kernel once (cached), each call's epilogue copy is
one clone. Threads: OMP_NUM_THREADS (default 2).

To time on another machine (no braze there): --compile-only --out DIR here, copy DIR
(and libomp), then --time-only --out DIR there."""
import argparse
import ctypes
import json
import os
import re
import subprocess
import sys
import tempfile
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = os.environ.get("BRAZE_BUILD", os.path.join(ROOT, "build"))
BRAZE = os.path.join(BUILD, "braze")
BRAZE_OPT = os.path.join(BUILD, "braze-opt")
VARIANTS = ["cpu-default", "cpu-no-user-epilogue"]
LANES = 8  # --lanes


def softmax_kernel(R, C):
    """A row softmax as a user would write it for the CPU: LANES-wide vectors, three passes."""
    t, v = f"memref<{R}x{C}xf32>", f"vector<{LANES}xf32>"
    return f"""func.func private @row_softmax(%x: {t}, %out: {t}) attributes {{braze.user_kernel}} {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cL = arith.constant {LANES} : index
  %cR = arith.constant {R} : index
  %cC = arith.constant {C} : index
  %ninf = arith.constant dense<0xFF800000> : {v}
  %zero = arith.constant dense<0.0> : {v}
  scf.parallel (%i) = (%c0) to (%cR) step (%c1) {{
    %mv = scf.for %j = %c0 to %cC step %cL iter_args(%acc = %ninf) -> ({v}) {{
      %x16 = vector.load %x[%i, %j] : {t}, {v}
      %a = arith.maximumf %acc, %x16 : {v}
      scf.yield %a : {v}
    }}
    %m = vector.reduction <maximumf>, %mv : {v} into f32
    %mb = vector.broadcast %m : f32 to {v}
    %sv = scf.for %j = %c0 to %cC step %cL iter_args(%acc = %zero) -> ({v}) {{
      %x16 = vector.load %x[%i, %j] : {t}, {v}
      %d = arith.subf %x16, %mb : {v}
      %e = math.exp %d : {v}
      %a = arith.addf %acc, %e : {v}
      scf.yield %a : {v}
    }}
    %s = vector.reduction <add>, %sv : {v} into f32
    %one = arith.constant 1.0 : f32
    %r = arith.divf %one, %s : f32
    %rb = vector.broadcast %r : f32 to {v}
    scf.for %j = %c0 to %cC step %cL {{
      %x16 = vector.load %x[%i, %j] : {t}, {v}
      %d = arith.subf %x16, %mb : {v}
      %e = math.exp %d : {v}
      %q = arith.mulf %e, %rb : {v}
      vector.store %q, %out[%i, %j] : {t}, {v}
    }}
    scf.reduce
  }}
  return
}}
"""


def square_kernel(R, C):
    t = f"memref<{R}x{C}xf32>"
    return f"""func.func private @square(%x: {t}, %out: {t}) attributes {{braze.user_kernel}} {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cL = arith.constant {LANES} : index
  %cR = arith.constant {R} : index
  %cC = arith.constant {C} : index
  scf.parallel (%i) = (%c0) to (%cR) step (%c1) {{
    scf.for %j = %c0 to %cC step %cL {{
      %v = vector.load %x[%i, %j] : {t}, vector<{LANES}xf32>
      %s = arith.mulf %v, %v : vector<{LANES}xf32>
      vector.store %s, %out[%i, %j] : {t}, vector<{LANES}xf32>
    }}
    scf.reduce
  }}
  return
}}
"""


def call(kernel, R, C, x="%x"):
    t, m = f"tensor<{R}x{C}xf32>", f"memref<{R}x{C}xf32>"
    return (f"  %xb = bufferization.to_buffer {x} : {t} to {m}\n  %o = memref.alloc() : {m}\n"
            f"  func.call @{kernel}(%xb, %o) : ({m}, {m}) -> ()\n"
            f"  %r = bufferization.to_tensor %o : {m} to {t}\n")


def workload(name, R, C):
    t, b = f"tensor<{R}x{C}xf32>", f"tensor<{C}xf32>"
    if name == "U1":
        body = call("row_softmax", R, C) + (
            f'  %a = "graph.add"(%r, %b) : ({t}, {b}) -> {t}\n'
            f'  %g = "graph.gelu"(%a) {{approximate = "tanh"}} : ({t}) -> {t}\n'
            f'  %y = "graph.mul"(%g, %res) : ({t}, {t}) -> {t}\n')
        return (softmax_kernel(R, C) + f"\nfunc.func @u1(%x: {t}, %b: {b}, %res: {t}) -> {t} {{\n" + body +
                f"  return %y : {t}\n}}\n"), "u1", [(R, C), (C,), (R, C)]
    body = call("square", R, C) + (f'  %a = "graph.add"(%r, %b) : ({t}, {b}) -> {t}\n'
                                     f'  %y = "graph.tanh"(%a) : ({t}) -> {t}\n')
    return (square_kernel(R, C) + f"\nfunc.func @u2(%x: {t}, %b: {b}) -> {t} {{\n" + body +
            f"  return %y : {t}\n}}\n"), "u2", [(R, C), (C,)]


def kernel_stats(path, pipeline):
    """Kernels and bytes at kernel boundaries, from the kernel-level IR (before cpu-codegen)."""
    elems = []
    for line in open(os.path.join(ROOT, "pipelines", pipeline + ".pipeline")):
        e = line.split("#", 1)[0].strip().rstrip(",")
        if e.startswith("cpu-codegen"):
            break
        if e:
            elems.append(e)
    res = subprocess.run([BRAZE_OPT, path, "--pass-pipeline=builtin.module(%s)" % ",".join(elems)],
                         capture_output=True, text=True, check=True)
    kernels = re.findall(r"func\.func private @(\w+)\(([^)]*)\)(?: -> \(?([^{]*?)\)?)? attributes \{kernel", res.stdout)
    moved = 0
    for _, args, results in kernels:
        for dims in re.findall(r"tensor<([0-9x]+)xf32>", args + (results or "")):
            moved += 4 * int(np.prod([int(d) for d in dims.split("x")]))
    return len(kernels), moved


def aligned(shape, rng):
    n = int(np.prod(shape))
    buf = np.empty(n + 16, np.float32)
    off = (-buf.ctypes.data % 64) // 4
    a = buf[off:off + n].reshape(shape)
    a[...] = rng.standard_normal(shape, dtype=np.float32)
    return a


def time_so(so, name, inputs, out_shape, iters, rounds):
    lib = ctypes.CDLL(so)
    fn = getattr(lib, name)
    out = aligned(out_shape, np.random.default_rng(1))
    args = [a.ctypes.data_as(ctypes.c_void_p) for a in inputs] + [out.ctypes.data_as(ctypes.c_void_p)]
    times = []
    for _ in range(rounds):
        t_end = time.perf_counter() + 0.02
        while time.perf_counter() < t_end:
            fn(*args)
        for _ in range(iters):
            t0 = time.perf_counter()
            if fn(*args) != 0:
                raise RuntimeError("kernel returned an error")
            times.append(time.perf_counter() - t0)
    return float(np.median(times)) * 1e3, out.copy()


def many_calls(n, R=64, C=64):
    t, b = f"tensor<{R}x{C}xf32>", f"tensor<{C}xf32>"
    lines = [softmax_kernel(R, C), f"func.func @many(%x: {t}, %b: {b}) -> {t} {{"]
    cur = "%x"
    for k in range(n):
        m = f"memref<{R}x{C}xf32>"
        lines += [f"  %xb{k} = bufferization.to_buffer {cur} : {t} to {m}", f"  %o{k} = memref.alloc() : {m}",
                  f"  func.call @row_softmax(%xb{k}, %o{k}) : ({m}, {m}) -> ()",
                  f"  %r{k} = bufferization.to_tensor %o{k} : {m} to {t}",
                  f'  %y{k} = "graph.add"(%r{k}, %b) : ({t}, {b}) -> {t}']
        cur = f"%y{k}"
    lines.append(f"  return {cur} : {t}\n}}")
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rows", type=int, default=4096)
    ap.add_argument("--cols", type=int, default=1024)
    ap.add_argument("--iters", type=int, default=50)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--calls", default="10,100,1000")
    ap.add_argument("--lanes", type=int, default=8, help="vector width of the user kernels (f32 lanes)")
    ap.add_argument("--out", default=None)
    ap.add_argument("--compile-only", action="store_true",
                    help="compile the libraries and record kernels/bytes in OUT/stats.json, time nothing")
    ap.add_argument("--time-only", action="store_true",
                    help="time the libraries an earlier --compile-only left in OUT (no braze needed: another machine)")
    args = ap.parse_args()
    global LANES
    LANES = args.lanes
    os.environ.setdefault("OMP_NUM_THREADS", "2")
    out = args.out or tempfile.mkdtemp(prefix="braze-uk-")
    os.makedirs(out, exist_ok=True)
    R, C = args.rows, args.cols
    print(f"threads {os.environ['OMP_NUM_THREADS']}, {R}x{C} f32, user kernels on vector<{LANES}xf32>, "
          f"median of {args.rounds}x{args.iters} calls")
    print("| workload | pipeline | kernels | MB moved | ms/call |")
    print("|---|---|---|---|---|")
    stats_path = os.path.join(out, "stats.json")
    stats = {} if not args.time_only else json.load(open(stats_path))
    for w in ["U1", "U2"]:
        text, name, shapes = workload(w, R, C)
        path = os.path.join(out, w + ".mlir")
        results = {}
        for v in VARIANTS:
            so = os.path.join(out, f"lib{w}-{v}.so")
            if not args.time_only:
                with open(path, "w") as f:
                    f.write(text)
                subprocess.run([BRAZE, "compile", path, "--target=cpu", f"--pipeline={v}", "-o", so, "--no-header"],
                               check=True)
                stats[f"{w} {v}"] = kernel_stats(path, v)
            kernels, moved = stats[f"{w} {v}"]
            if args.compile_only:
                continue
            inputs = [aligned(s, np.random.default_rng(k)) for k, s in enumerate(shapes)]
            ms, res = time_so(so, name, inputs, (R, C), args.iters, args.rounds)
            results[v] = res
            print(f"| {w} | {v} | {kernels} | {moved / 1e6:.1f} | {ms:.3f} |", flush=True)
        if args.compile_only:
            continue
        a, b = results[VARIANTS[0]], results[VARIANTS[1]]
        err = float(np.max(np.abs(a - b) / (np.abs(b) + 1e-6)))
        if err > 1e-4:
            sys.exit(f"{w}: fused and unfused outputs differ (max rel err {err:.2e})")
    if args.compile_only:
        with open(stats_path, "w") as f:
            json.dump(stats, f)
    if args.time_only:
        return
    print()
    print("| user-kernel calls | cpu-default s | cpu-no-user-epilogue s |")
    print("|---|---|---|")
    for n in [int(c) for c in args.calls.split(",") if c]:
        path = os.path.join(out, f"many{n}.mlir")
        with open(path, "w") as f:
            f.write(many_calls(n))
        row = []
        for v in VARIANTS:
            t0 = time.perf_counter()
            subprocess.run([BRAZE_OPT, path, f"--pipeline={v}", "-o", os.devnull], check=True)
            row.append(time.perf_counter() - t0)
        print(f"| {n} | {row[0]:.3f} | {row[1]:.3f} |", flush=True)


if __name__ == "__main__":
    main()
