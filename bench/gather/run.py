#!/usr/bin/python3
"""Embedding lookups (ONNX Gather on run-time data) compiled by one or more braze builds.

    bench/gather/run.py [--vocab 32000] [--dim 512] [--tokens 256] [--iters 20]
                        [--braze NAME=PATH ...]

Workloads, as ONNX models (the table is a graph input, so nothing is folded):
  E1  Gather(table[vocab, dim], ids[tokens]) -> [tokens, dim]
  E2  Gather, then * scale[dim] + pos[tokens, dim] (an embedding with its scale and
      position added: one fused kernel when the gather is an indexed read)
For each braze (default: this tree's build/braze as `after`; give an older build as
`--braze before=OLD/build/braze` to compare with the one-hot composition that Gather
was imported as before graph.gather), the model is imported (`braze import`), compiled
(`braze compile --pipeline=cpu-default`) and called through ctypes on random inputs
(ids in [-vocab, vocab): negative ones count from the end); printed: the median ms per
call over `iters` calls after 3 warm-up calls, and the largest difference from numpy's
np.take. numpy's own time for the same lookup is printed for scale.
Threads: OMP_NUM_THREADS (default 2)."""
import argparse
import ctypes
import os
import subprocess
import sys
import tempfile
import time

import numpy as np
import onnx
from onnx import TensorProto as T
from onnx import helper as h

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def model(kind, V, D, N):
    nodes = [h.make_node("Gather", ["table", "ids"], ["e" if kind == "E2" else "y"], name="embed")]
    inputs = [h.make_tensor_value_info("table", T.FLOAT, [V, D]), h.make_tensor_value_info("ids", T.INT64, [N])]
    if kind == "E2":
        nodes += [h.make_node("Mul", ["e", "scale"], ["s"], name="scale"),
                  h.make_node("Add", ["s", "pos"], ["y"], name="pos")]
        inputs += [h.make_tensor_value_info("scale", T.FLOAT, [D]), h.make_tensor_value_info("pos", T.FLOAT, [N, D])]
    g = h.make_graph(nodes, kind, inputs, [h.make_tensor_value_info("y", T.FLOAT, [N, D])])
    m = h.make_model(g, opset_imports=[h.make_opsetid("", 13)])
    m.ir_version = 7
    return m


def aligned(a):
    """A 64-byte-aligned copy of `a`."""
    buf = np.empty(a.nbytes + 64, np.uint8)
    off = -buf.ctypes.data % 64
    out = buf[off:off + a.nbytes].view(a.dtype).reshape(a.shape)
    out[...] = a
    return out


def timed(fn, iters):
    for _ in range(3):
        fn()
    times = []
    for _ in range(iters):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return float(np.median(times)) * 1e3


def run_braze(braze, onnx_path, kind, inputs, out_shape, iters, tmp, tag):
    mlir, so = os.path.join(tmp, f"{tag}.mlir"), os.path.join(tmp, f"{tag}.so")
    subprocess.run([braze, "import", onnx_path, "-o", mlir], check=True)
    t0 = time.perf_counter()
    subprocess.run([braze, "compile", mlir, "--pipeline=cpu-default", "-o", so], check=True)
    compile_s = time.perf_counter() - t0
    fn = getattr(ctypes.CDLL(so), kind)
    out = aligned(np.zeros(out_shape, np.float32))
    args = [a.ctypes.data_as(ctypes.c_void_p) for a in inputs] + [out.ctypes.data_as(ctypes.c_void_p)]

    def call():
        if fn(*args) != 0:
            raise RuntimeError("the compiled function returned an error")
    return timed(call, iters), compile_s, out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--vocab", type=int, default=32000)
    ap.add_argument("--dim", type=int, default=512)
    ap.add_argument("--tokens", type=int, default=256)
    ap.add_argument("--iters", type=int, default=20)
    ap.add_argument("--braze", action="append", default=[], help="NAME=PATH of a braze executable (repeatable)")
    args = ap.parse_args()
    os.environ.setdefault("OMP_NUM_THREADS", "2")
    brazes = [b.split("=", 1) for b in args.braze] or [["after", os.path.join(ROOT, "build", "braze")]]
    V, D, N = args.vocab, args.dim, args.tokens
    rng = np.random.default_rng(3)
    table = aligned(rng.standard_normal((V, D)).astype(np.float32))
    ids = aligned(rng.integers(-V, V, size=N).astype(np.int64))
    scale = aligned(rng.standard_normal(D).astype(np.float32))
    pos = aligned(rng.standard_normal((N, D)).astype(np.float32))
    print(f"vocab {V} x dim {D}, {N} tokens, OMP_NUM_THREADS={os.environ['OMP_NUM_THREADS']}")
    print(f"numpy np.take: {timed(lambda: np.take(table, ids, axis=0), args.iters):.4f} ms")
    with tempfile.TemporaryDirectory() as tmp:
        for kind in ["E1", "E2"]:
            path = os.path.join(tmp, f"{kind}.onnx")
            onnx.save(model(kind, V, D, N), path)
            inputs = [table, ids] + ([scale, pos] if kind == "E2" else [])
            want = np.take(table, ids, axis=0)
            if kind == "E2":
                want = want * scale + pos
            for name, braze in brazes:
                ms, cs, got = run_braze(braze, path, kind, inputs, (N, D), args.iters, tmp, f"{kind}_{name}")
                err = float(np.max(np.abs(got - want)))
                print(f"{kind} {name:8s} {ms:10.4f} ms/call  (compile {cs:.2f} s, max |diff| vs numpy {err:.3g})")
                sys.stdout.flush()


if __name__ == "__main__":
    main()
