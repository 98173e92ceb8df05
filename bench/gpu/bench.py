#!/usr/bin/env python3
"""braze's GPU benchmark, run on the GPU machine (PyTorch, no MLIR, no braze).

    python3 bench/gpu/bench.py LIBDIR [--only G1,G2] [--no-compile] [--autotune cnn|R1,..] [--out FILE]

LIBDIR holds what bench/gpu/prepare.sh built on the development machine: one CUDA
library per workload (G1..G7: the anchor workloads at GPU sizes, bench/gpu/workloads)
and a 24-op pointwise chain (C1) fused, one kernel per op, and one kernel per op with
CUDA-graph replay, ResNet-18 (R1 batch 32, R1b1 batch 1) and ResNet-50 (R50, R50b1:
bench/gpu/resnet.py) and MobileNetV2's inverted residual (D1, bench/gpu/mobilenet.py);
a workload whose library LIBDIR lacks is skipped (a failed row when --only names it).
For each workload the same random-normal inputs (seed 0, never zeros) go to braze
(device pointers through the library's NAME_packed), torch eager and torch.compile
(default mode; the CNNs' 4-D inputs in channels-last memory format for the peers, and
also torch.compile(mode="max-autotune") when --only names a CNN or --autotune asks);
braze's output, NaN-poisoned before the call, is compared with torch eager's
in float32 by ||out - ref|| / ||ref||. Times are CUDA-event medians over repeated
calls after warm-up. The table ends the output; --out also writes it as markdown."""
import argparse
import ctypes
import math
import os
import statistics
import sys

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mobilenet  # noqa: E402  (bench/gpu/mobilenet.py: D1's block and torch reference)
import resnet  # noqa: E402  (bench/gpu/resnet.py: R1's and R50's architecture and torch reference)


def chain(x):
    y = x
    for _ in range(8):
        y = torch.tanh(y * y + x)
    return y


def gelu_chain(x, s, b):
    return F.gelu(x * s + b)


def softmax(x):
    return torch.softmax(x, dim=-1)


def layer_norm(x, w, b):
    return F.layer_norm(x, (x.shape[-1],), w, b, eps=1e-5)


def rms_norm(x, w):
    xf = x.float()
    return (xf * torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + 1e-6) * w.float()).to(x.dtype)


def linear_gelu(x, w, b):
    return F.gelu(x @ w + b)


def ffn(x, g, wg, wu, wd):
    h = rms_norm(x, g)
    return x + (F.silu(h @ wg) * (h @ wu)) @ wd


def matmul(x, w):
    return x @ w


def attention(q, k, v):
    s = (q @ k.transpose(1, 2)) * (1.0 / math.sqrt(q.shape[-1]))
    return torch.softmax(s.float(), dim=-1).to(q.dtype) @ v


def attention_causal(q, k, v):
    s = (q @ k.transpose(1, 2)) * (1.0 / math.sqrt(q.shape[-1]))
    keep = torch.ones(s.shape[-2:], dtype=torch.bool, device=s.device).tril()
    s = s.masked_fill(~keep, float("-inf"))
    return torch.softmax(s.float(), dim=-1).to(q.dtype) @ v


def encoder_attention(x, w_in, w_out):
    """Attention as nn.TransformerEncoderLayer's ONNX export computes it (G9.mlir): one
    in-projection of the sequence-first activations, heads of 64 by reshape/transpose,
    q scaled, the heads back through a transpose and reshape, the residual."""
    b, s, e = x.shape
    h = e // 64
    q, k, v = (x.transpose(0, 1) @ w_in).split(e, dim=-1)

    def heads(t):
        return t.reshape(s, b * h, 64).transpose(0, 1)

    p = torch.softmax(((heads(q) / 8.0) @ heads(k).transpose(1, 2)).float(), dim=-1).to(x.dtype)
    o = (p @ heads(v)).transpose(0, 1).reshape(s * b, e) @ w_out
    return x + o.reshape(s, b, e).transpose(0, 1)


def sdpa(q, k, v, causal=False):
    """PyTorch's fused attention (the flash kernel on sm_90 for bf16): the moonshot peer."""
    f = torch.nn.functional.scaled_dot_product_attention
    return f(q.unsqueeze(0), k.unsqueeze(0), v.unsqueeze(0), is_causal=causal).squeeze(0)


F32, BF16 = torch.float32, torch.bfloat16
RESNET50 = resnet.torch_fn_for(50)
R, C = 16384, 8192
WORKLOADS = {
    # name: (torch fn, [(shape, dtype)], description, memory-bound, calls timed)
    "G1": (gelu_chain, [((R, C), F32), ((C,), F32), ((C,), F32)], "gelu(x*s+b) 16384x8192 f32", True, 30),
    "G2": (softmax, [((R, C), F32)], "softmax 16384x8192 f32", True, 30),
    "G3": (layer_norm, [((R, C), F32), ((C,), F32), ((C,), F32)], "layer_norm 16384x8192 f32", True, 30),
    "G4": (rms_norm, [((R, C), F32), ((C,), F32)], "rms_norm 16384x8192 f32", True, 30),
    "G5": (linear_gelu, [((8192, 4096), BF16), ((4096, 4096), BF16), ((4096,), BF16)],
           "gelu(x@W+b) 8192x4096x4096 bf16", False, 20),
    "G6": (ffn, [((4096, 4096), BF16), ((4096,), BF16), ((4096, 11008), BF16), ((4096, 11008), BF16),
                 ((11008, 4096), BF16)], "llama FFN 4096x4096, d_ff 11008 bf16", False, 20),
    "G7": (attention, [((64, 2048, 128), BF16)] * 3, "attention BH=64 S=2048 D=128 bf16", False, 10),
    "G8": (attention, [((16, 8192, 128), BF16)] * 3, "attention BH=16 S=8192 D=128 bf16", False, 10),
    "G7C": (attention_causal, [((64, 2048, 128), BF16)] * 3, "causal attention BH=64 S=2048 D=128 bf16", False, 10),
    "G9": (encoder_attention, [((8, 1024, 1024), BF16), ((1024, 3072), BF16), ((1024, 1024), BF16)],
           "encoder attention (exported views) B=8 S=1024 E=1024 H=16 bf16", False, 10),
    # the tensor-core template alone against cuBLAS (torch.matmul is cuBLAS here)
    "M1": (matmul, [((8192, 8192), BF16), ((8192, 8192), BF16)], "x@W 8192x8192x8192 bf16", False, 20),
    "M2": (matmul, [((8192, 4096), BF16), ((4096, 4096), BF16)], "x@W 8192x4096x4096 bf16 (G5's GEMM)", False, 20),
    # ResNet-18 and -50 (batch_norm folded), bf16, the weights as inputs (bench/gpu/resnet.py)
    "R1": (resnet.torch_fn, [(s, BF16) for s in resnet.input_specs(32)], "ResNet-18 batch 32 224x224 bf16", False, 10),
    "R1b1": (resnet.torch_fn, [(s, BF16) for s in resnet.input_specs(1)], "ResNet-18 batch 1 224x224 bf16", False, 20),
    "R50": (RESNET50, [(s, BF16) for s in resnet.input_specs(32, 50)], "ResNet-50 batch 32 224x224 bf16", False, 10),
    "R50b1": (RESNET50, [(s, BF16) for s in resnet.input_specs(1, 50)], "ResNet-50 batch 1 224x224 bf16", False, 20),
    # MobileNetV2's inverted residual (3x3 depthwise), batch 32, bf16 (bench/gpu/mobilenet.py)
    "D1": (mobilenet.torch_fn, [(s, BF16) for s in mobilenet.input_specs(32)],
           "MobileNetV2 inverted residual 24-144-24 56x56 batch 32 bf16", False, 20),
}
# The CNNs' peers (torch eager, torch.compile) get their 4-D inputs in channels-last
# memory format (the same values; cuDNN's and Inductor's preferred layout); braze reads
# the dense NCHW buffers its C ABI defines.
CHANNELS_LAST = {"R1", "R1b1", "R50", "R50b1", "D1"}
# Multiply-adds x 2 of the contraction workloads, for TFLOP/s.
FLOPS = {"G5": 2 * 8192 * 4096 * 4096, "G6": 2 * 4096 * 4096 * 11008 * 3, "G7": 2 * 2 * 64 * 2048 * 2048 * 128,
         "G8": 2 * 2 * 16 * 8192 * 8192 * 128, "G7C": 2 * 64 * 2048 * 2048 * 128,
         "G9": 2 * 8192 * 1024 * 4096 + 2 * 2 * 128 * 1024 * 1024 * 64,
         "M1": 2 * 8192 ** 3, "M2": 2 * 8192 * 4096 * 4096, "R1": resnet.flops(32), "R1b1": resnet.flops(1),
         "R50": resnet.flops(32, 50), "R50b1": resnet.flops(1, 50), "D1": mobilenet.flops(32)}
# The many-kernel graph for CUDA graphs: C1 (24 pointwise ops) fused, one kernel per
# op, and one kernel per op replayed as a CUDA graph.
CHAIN = (chain, [((512, 1024), F32)])
GRAPHS = [("C1 fused", "C1.so", "1 launch per call"),
          ("C1 unfused", "C1_unfused.so", "24 launches per call"),
          ("C1 unfused + --cuda-graphs", "C1_unfused_graphs.so", "24 launches replayed as one CUDA graph")]


def inputs_for(specs, scale_weights):
    g = torch.Generator(device="cuda").manual_seed(0)
    out = []
    for i, (shape, dtype) in enumerate(specs):
        t = torch.randn(shape, generator=g, device="cuda", dtype=torch.float32)
        if scale_weights and len(shape) == 2 and i > 0:
            t = t / math.sqrt(shape[0])  # keep matmul outputs O(1)
        if scale_weights and len(shape) == 4 and i > 0:
            t = t / math.sqrt(shape[1] * shape[2] * shape[3])  # a conv weight [OC, C, k, k]: by its fan-in
        out.append(t.to(dtype).contiguous())
    return out


def peer_inputs(name, ins):
    """The inputs torch eager and torch.compile get: channels-last copies of the 4-D
    tensors for the CNNs (CHANNELS_LAST), else the same tensors."""
    if name not in CHANNELS_LAST:
        return ins
    return [t.contiguous(memory_format=torch.channels_last) if t.dim() == 4 else t for t in ins]


def compiled_peer(fn, mode):
    """torch.compile of fn in mode None (default) or "max-autotune" (Triton/cuBLAS/cuDNN
    choices timed per op, CUDA graphs), after resetting Dynamo so that a second mode of
    one function does not reuse the first one's frames."""
    torch._dynamo.reset()
    return torch.compile(fn) if mode is None else torch.compile(fn, mode=mode)


class Lib:
    def __init__(self, path, entry):
        self.lib = ctypes.CDLL(path)
        self.fn = getattr(self.lib, entry + "_packed")
        self.fn.argtypes = [ctypes.POINTER(ctypes.c_void_p)]
        self.fn.restype = ctypes.c_int
        err = self.lib.braze_cuda_last_error
        err.restype = ctypes.c_char_p
        self.err = err

    def bind(self, tensors):
        self.keep = tensors
        self.args = (ctypes.c_void_p * len(tensors))(*[t.data_ptr() for t in tensors])

    def __call__(self):
        rc = self.fn(self.args)
        if rc != 0:
            raise RuntimeError("braze call failed: %s" % self.err().decode())


def time_ms(fn, calls):
    for _ in range(3):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(calls):
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record()
        fn()
        b.record()
        b.synchronize()
        times.append(a.elapsed_time(b))
    return statistics.median(times)


def rel_err(out, ref):
    o, r = out.float(), ref.float()
    if not torch.isfinite(o).all():
        return float("nan")
    return (torch.linalg.vector_norm(o - r) / torch.linalg.vector_norm(r)).item()


def run_one(name, libdir, libfile, compile_peer, label=None, autotune=False):
    fn, specs, desc, memory_bound, calls = WORKLOADS[name]
    ins = inputs_for(specs, scale_weights=not memory_bound)
    ref = fn(*ins)
    pins = peer_inputs(name, ins)
    out = torch.full_like(ref, float("nan"))
    lib = Lib(os.path.join(libdir, libfile), name)
    lib.bind(ins + [out])
    lib()
    torch.cuda.synchronize()
    err = rel_err(out, ref)
    floor = sum(t.numel() * t.element_size() for t in ins) + out.numel() * out.element_size()
    row = {"name": label or name, "desc": desc, "err": err, "floor_bytes": floor, "flops": FLOPS.get(name)}
    row["braze"] = time_ms(lib, calls)
    row["eager"] = time_ms(lambda: fn(*pins), calls)
    if compile_peer and fn in (attention, attention_causal):
        causal = fn is attention_causal
        row["sdpa"] = time_ms(lambda: sdpa(*ins, causal=causal), calls)
    if compile_peer:
        compiled = compiled_peer(fn, None)
        compiled(*pins)
        row["compile"] = time_ms(lambda: compiled(*pins), calls)
    if compile_peer and autotune:
        tuned = compiled_peer(fn, "max-autotune")
        row["autotune_err"] = rel_err(tuned(*pins), ref)
        row["autotune"] = time_ms(lambda: tuned(*pins), calls)
    del lib
    return row


def variants(libdir, name):
    """NAME.VARIANT.so beside NAME.so: the same workload compiled another way (prepare.sh:
    simt = cuda-codegen{matmul=simt})."""
    found = []
    for f in sorted(os.listdir(libdir)):
        if f.startswith(name + ".") and f.endswith(".so") and f.count(".") == 2:
            found.append((f.split(".")[1], f))
    return found


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("libdir")
    ap.add_argument("--only", default="")
    ap.add_argument("--no-compile", action="store_true")
    ap.add_argument("--autotune", default="", help="workloads also timed against torch.compile(mode='max-autotune') "
                    "(comma-separated, 'cnn' for the CNNs; default: the CNNs asked for by --only)")
    ap.add_argument("--out", default="")
    a = ap.parse_args()
    only = set(a.only.split(",")) if a.only else None
    print("device:", torch.cuda.get_device_name(), "torch", torch.__version__, flush=True)
    tune = set(a.autotune.split(",")) if a.autotune else ({"cnn"} if only and only & CHANNELS_LAST else set())
    if "cnn" in tune:
        tune |= CHANNELS_LAST
    rows = []
    for name in WORKLOADS:
        if only and name not in only:
            continue
        if not os.path.exists(os.path.join(a.libdir, name + ".so")):
            if only:
                rows.append({"name": name, "desc": WORKLOADS[name][2], "failed": "no %s.so in %s" % (name, a.libdir)})
            continue
        runs = [(name, name + ".so", not a.no_compile)]
        runs += [("%s %s" % (name, v), f, False) for v, f in variants(a.libdir, name)]
        for label, libfile, peer in runs:
            try:
                rows.append(run_one(name, a.libdir, libfile, peer, label, autotune=name in tune))
            except Exception as e:  # one failing workload must not hide the others
                rows.append({"name": label, "desc": WORKLOADS[name][2], "failed": str(e)})
            r = rows[-1]
            print(label, {k: v for k, v in r.items() if k != "desc"}, flush=True)
    graph_rows = []
    for label, libfile, desc in GRAPHS:
        if (only and "C1" not in only) or not os.path.exists(os.path.join(a.libdir, libfile)):
            continue
        fn, specs = CHAIN
        ins = inputs_for(specs, False)
        out = torch.full_like(fn(*ins), float("nan"))
        lib = Lib(os.path.join(a.libdir, libfile), "C1")
        lib.bind(ins + [out])
        lib()
        torch.cuda.synchronize()
        graph_rows.append((label, desc, time_ms(lib, 200), rel_err(out, fn(*ins))))

    lines = ["| workload | braze ms | torch eager ms | torch.compile ms | braze / compile throughput | "
             "braze / eager throughput | braze GB/s (floor bytes) | braze TFLOP/s | rel. error vs eager |",
             "|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        if "failed" in r:
            lines.append("| %s %s | failed: %s | | | | | | | |" % (r["name"], r["desc"], r["failed"][:80]))
            continue
        comp = r.get("compile")
        ratio = "%.2fx" % (comp / r["braze"]) if comp else "-"
        gbs = r["floor_bytes"] / r["braze"] / 1e6
        tflops = "%.0f" % (r["flops"] / r["braze"] / 1e9) if r.get("flops") else "-"
        lines.append("| %s %s | %.3f | %.3f | %s | %s | %.2fx | %.0f | %s | %.1e |" % (
            r["name"], r["desc"], r["braze"], r["eager"], "%.3f" % comp if comp else "-", ratio,
            r["eager"] / r["braze"], gbs, tflops, r["err"]))
    tuned_rows = [r for r in rows if "autotune" in r]
    if tuned_rows:
        lines += ["", "| workload | braze ms | torch.compile ms | max-autotune ms | braze / compile | braze / max-autotune | "
                  "max-autotune rel. error vs eager |", "|---|---|---|---|---|---|---|"]
        for r in tuned_rows:
            lines.append("| %s %s | %.3f | %.3f | %.3f | %.2fx | %.2fx | %.1e |" % (
                r["name"], r["desc"], r["braze"], r["compile"], r["autotune"], r["compile"] / r["braze"],
                r["autotune"] / r["braze"], r["autotune_err"]))
    sdpa_rows = [r for r in rows if "sdpa" in r]
    if sdpa_rows:
        lines += ["", "| attention | braze ms | SDPA (flash) ms | braze / SDPA throughput |", "|---|---|---|---|"]
        for r in sdpa_rows:
            lines.append("| %s %s | %.3f | %.3f | %.2fx |" % (r["name"], r["desc"], r["braze"], r["sdpa"],
                                                           r["sdpa"] / r["braze"]))
    if graph_rows:
        lines += ["", "| many-kernel graph | what | braze ms | rel. error |", "|---|---|---|---|"]
        for label, desc, ms, err in graph_rows:
            lines.append("| %s | %s | %.3f | %.1e |" % (label, desc, ms, err))
    table = "\n".join(lines)
    print("\n" + table)
    if a.out:
        with open(a.out, "w") as f:
            f.write(table + "\n")
    bad = [r for r in rows if "failed" in r or not (r["err"] < (2e-2 if r["name"][:2] not in ("G1", "G2", "G3", "G4")
                                                              else 1e-4))]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
