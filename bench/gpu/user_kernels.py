#!/usr/bin/env python3
"""GPU-form user kernels with their graph epilogue fused, on the GPU machine (issue 46).

    python3 bench/gpu/user_kernels.py LIBDIR [--only U1,U3] [--no-compile] [--calls N] [--out FILE]
    python3 bench/gpu/user_kernels.py LIBDIR --check-ptx     (no GPU: the dumped PTX only)

LIBDIR holds what bench/gpu/prepare-user-kernels.sh built on the development machine from
bench/gpu/user_kernels_mlir.py's modules: NAME.so (cuda-default: the epilogue fused into
the user kernel's stores), NAME.unfused.so (cuda-no-user-epilogue: the user kernel, then
braze's own kernel of the epilogue) and NAME.kernels/, NAME.unfused.kernels/
(--dump-kernels: each kernel's MLIR and PTX).

  U1  softmax(x) * g[col], a warp-shuffle row softmax, 16384x8192 f32
  U2  gelu(3 tanh(x) + b[col]) + res, a vector<4xf32> elementwise kernel, 16384x8192 f32
  U2B U2 cast to bf16 in the graph (present only where prepare built it)
  U3  gelu(a @ w + b[col]), the programming guide's 16x16 shared-tile matmul, 4096x4096x1024 f32

For each: the same random-normal inputs (seed 0) go to the fused and the unfused braze
library (device pointers through NAME_packed), torch eager and torch.compile (default
mode) of the same function; each braze output, NaN-poisoned before the call, is compared
with torch eager's in float32 by ||out - ref|| / ||ref|| (bound 1e-4, bf16 1e-2; TF32
off). Times: CUDA-event median over N calls after 3 warm-up calls, L2 not flushed
(bench/gpu/bench.py's time_ms, imported; every buffer of U1/U2 is 512 MiB, far past the
L2). Kernels per call by torch.profiler. The table ends the output; exit status 1 when a check fails."""
import argparse
import glob
import math
import os
import re
import sys

try:  # the GPU machine has torch; the development machine needs none for --check-ptx
    import torch
except ImportError:
    torch = None

R, C = 16384, 8192
M, N, K = 4096, 4096, 1024
# name: (description, [(shape, dtype name)], output dtype name, calls timed)
WORKLOADS = {
    "U1": ("softmax(x)*g[col] shuffle 16384x8192 f32", [((R, C), "f32"), ((C,), "f32")], "f32", 50),
    "U2": ("gelu(3tanh(x)+b)+res vec4 16384x8192 f32", [((R, C), "f32"), ((C,), "f32"), ((R, C), "f32")],
           "f32", 50),
    "U2B": ("bf16(gelu(3tanh(x)+b)+res) vec4 16384x8192", [((R, C), "f32"), ((C,), "f32"), ((R, C), "f32")],
            "bf16", 50),
    "U3": ("gelu(a@w+b) tiled 4096x4096x1024 f32", [((M, K), "f32"), ((K, N), "f32"), ((N,), "f32")], "f32", 20),
}
# What the dumped PTX must show (--check-ptx): the fused library is one kernel that
# reads every epilogue input (one .u64 pointer parameter each) and keeps the user's
# shuffles / barriers; the unfused one is the user kernel and braze's epilogue kernel.
# The elementwise kernels' vector<4xf32> accesses are 128-bit (cuda-codegen proves them
# 16-byte aligned: targets/cuda/codegen/user-align.c); U2B converts two lanes a cvt and
# stores its four bf16 lanes as one 64-bit store.
PTX = {"U1": {"params": 3, "has": ["shfl.sync.bfly.b32", "ex2.approx"]},
       "U2": {"params": 4, "has": ["ld.global.v4.b32", "st.global.v4.b32"]},
       "U2B": {"params": 4, "has": ["ld.global.v4.b32", "cvt.rn.bf16x2.f32", "st.global.v2.b32"]},
       "U3": {"params": 4, "has": ["bar.sync", "ld.shared", "st.shared"]}}


def torch_fn(name):
    F = torch.nn.functional
    if name == "U1":
        return lambda x, g: torch.softmax(x, dim=-1) * g
    if name == "U2":
        return lambda x, b, res: F.gelu(3 * torch.tanh(x) + b) + res
    if name == "U2B":
        return lambda x, b, res: (F.gelu(3 * torch.tanh(x) + b) + res).to(torch.bfloat16)
    return lambda a, w, b: F.gelu(a @ w + b)


def ptx_kernels(kdir):
    return sorted(glob.glob(os.path.join(kdir, "*.ptx")))


def check_ptx(libdir, name):
    """Problems with NAME's dumped kernels (an empty list when they are as expected)."""
    want, bad = PTX[name], []
    fused = ptx_kernels(os.path.join(libdir, name + ".kernels"))
    unfused = ptx_kernels(os.path.join(libdir, name + ".unfused.kernels"))
    if len(fused) != 1:
        return ["%s: %d fused kernels (want 1): %s" % (name, len(fused), fused)]
    text = open(fused[0]).read()
    kernel = os.path.basename(fused[0])[:-4]
    if not kernel.startswith("cuda_ext_fused_"):
        bad.append("%s: the fused kernel %s is not the user kernel's" % (name, kernel))
    params = len(re.findall(r"\.param \.u64", text))
    if params != want["params"]:
        bad.append("%s: %s has %d pointer parameters (want %d)" % (name, kernel, params, want["params"]))
    for needle in want["has"]:
        if needle not in text:
            bad.append("%s: no %s in %s" % (name, needle, kernel))
    if len(unfused) != 2:
        bad.append("%s: %d unfused kernels (want 2: the user kernel, the epilogue)" % (name, len(unfused)))
    return bad


def present(libdir, only):
    names = [n for n in WORKLOADS if os.path.exists(os.path.join(libdir, n + ".so"))]
    return [n for n in names if not only or n in only]


def inputs_for(name):
    g = torch.Generator(device="cuda").manual_seed(0)
    out = []
    for shape, _ in WORKLOADS[name][1]:
        t = torch.randn(shape, generator=g, device="cuda", dtype=torch.float32)
        if name == "U3" and shape == (K, N):
            t = t / math.sqrt(K)  # keep a @ w O(1)
        out.append(t.contiguous())
    return out


def peers():
    """bench/gpu/bench.py (imported only where torch is: --check-ptx needs none): its
    library wrapper (NAME_packed on device pointers), CUDA-event timing loop and error."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import bench  # noqa: E402
    return bench


def run_one(libdir, name, compile_peer, calls):
    b = peers()
    from profiling import kernels_per_call  # bench/gpu/profiling.py (torch.profiler)
    desc, _, out_dtype, default_calls = WORKLOADS[name]
    calls = calls or default_calls
    fn = torch_fn(name)
    ins = inputs_for(name)
    ref = fn(*ins)
    bound = 1e-2 if out_dtype == "bf16" else 1e-4
    row = {"name": name, "desc": desc, "bound": bound}
    for side, suffix in (("fused", ".so"), ("unfused", ".unfused.so")):
        out = torch.full_like(ref, float("nan"))
        lib = b.Lib(os.path.join(libdir, name + suffix), name.lower())
        lib.bind(ins + [out])
        lib()
        torch.cuda.synchronize()
        row[side + "_err"] = b.rel_err(out, ref)
        row[side] = b.time_ms(lib, calls)
        row[side + "_kernels"] = kernels_per_call(lib)
        del lib, out
    row["eager"] = b.time_ms(lambda: fn(*ins), calls)
    if compile_peer:
        compiled = torch.compile(fn)
        compiled(*ins)
        row["compile"] = b.time_ms(lambda: compiled(*ins), calls)
    return row


def table(rows):
    lines = ["| workload | fused ms | unfused ms | torch eager ms | torch.compile ms | unfused / fused | "
             "torch.compile / fused | kernels fused, unfused | rel. error fused, unfused |",
             "|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        if "failed" in r:
            lines.append("| %s %s | failed: %s | | | | | | | |" % (r["name"], r["desc"], r["failed"][:100]))
            continue
        comp = r.get("compile")
        lines.append("| %s %s | %.3f | %.3f | %.3f | %s | %.2fx | %s | %g, %g | %.1e, %.1e |" % (
            r["name"], r["desc"], r["fused"], r["unfused"], r["eager"], "%.3f" % comp if comp else "-",
            r["unfused"] / r["fused"], "%.2fx" % (comp / r["fused"]) if comp else "-",
            r["fused_kernels"], r["unfused_kernels"], r["fused_err"], r["unfused_err"]))
    return "\n".join(lines)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("libdir")
    ap.add_argument("--only", default="")
    ap.add_argument("--no-compile", action="store_true", help="no torch.compile peer")
    ap.add_argument("--calls", type=int, default=0, help="calls timed (default: per workload)")
    ap.add_argument("--out", default="", help="also write the table (markdown) here")
    ap.add_argument("--check-ptx", action="store_true", help="check the dumped PTX only (no GPU)")
    a = ap.parse_args(argv)
    only = set(a.only.split(",")) if a.only else None
    names = present(a.libdir, only)
    if not names:
        print("no NAME.so of %s in %s (bench/gpu/prepare-user-kernels.sh builds them)" % (
            ",".join(WORKLOADS), a.libdir), file=sys.stderr)
        return 1
    per_name = {n: check_ptx(a.libdir, n) for n in names}
    problems = [p for n in names for p in per_name[n]]
    for p in problems:
        print("PTX: " + p, file=sys.stderr)
    if a.check_ptx:
        failed = [n for n in names if per_name[n]]
        if failed:  # only the workloads whose PTX is not as expected
            print("PTX FAILED: %s (ok: %s)" % (" ".join(failed), " ".join(n for n in names if n not in failed) or "none"))
        else:
            print("PTX ok: %s" % " ".join(names))
        return 1 if problems else 0
    if torch is None or not torch.cuda.is_available():
        print("no CUDA device through torch here: only --check-ptx runs without one", file=sys.stderr)
        return 1
    torch.backends.cuda.matmul.allow_tf32 = False
    print("device:", torch.cuda.get_device_name(), "torch", torch.__version__, flush=True)
    rows = []
    for name in names:
        try:
            rows.append(run_one(a.libdir, name, not a.no_compile, a.calls))
        except Exception as e:  # one failing workload must not hide the others
            rows.append({"name": name, "desc": WORKLOADS[name][0], "failed": str(e)})
        print(name, {k: v for k, v in rows[-1].items() if k != "desc"}, flush=True)
        torch.cuda.empty_cache()
    text = table(rows)
    print("\n" + text)
    if a.out:
        with open(a.out, "w") as f:
            f.write(text + "\n")
    bad = [r for r in rows if "failed" in r or not (r["fused_err"] < r["bound"] and r["unfused_err"] < r["bound"])]
    return 1 if bad or problems else 0


if __name__ == "__main__":
    sys.exit(main())
