#!/usr/bin/env python3
"""braze on two GPUs driven by ONE process (braze_cuda_mesh_init_all, decision 0022)
against braze on one GPU, run on the 2-GPU machine (PyTorch for buffers and events; no
torch.distributed):

    python3 bench/sharded/gpu/one_process.py LIBDIR [--out FILE]

LIBDIR holds what bench/sharded/gpu/prepare.sh built (NAME.tp1.so, NAME.tp2.so for G6
and G7, the same libraries bench.py times one process per GPU). For each workload: the
one-GPU library on GPU 0 gives the reference result and the one-GPU time; then the
two-GPU library's mesh is made over both GPUs in this process
(braze_cuda_mesh_init_all(NULL, 2): rank r on GPU r), the global inputs (seed 0 as in
bench.py) are split and copied to each GPU, and each rank's entry is called from a
thread of its own with its GPU current (torch.cuda.set_device and
braze_cuda_set_device), both threads at once (ctypes releases the GIL during the call).
Times are CUDA events on each GPU around CALLS back-to-back calls after warm-up and a
barrier of the two threads (each rank's mean per call; the table shows the slower
rank). The assembled two-GPU result is compared with the one-GPU result as bench.py
does (G6's replicated result also bit-identical on both GPUs). Exits non-zero when a
check fails."""
import argparse
import ctypes
import math
import os
import sys
import threading

import torch

RANKS = 2
CALLS = 20
BF16 = torch.bfloat16
# library stem: (global input shapes, split dim per input over tp (-1 replicated), result split dim), entry
SPECS = {
    "G6": ([(8192, 4096), (4096,), (4096, 11008), (4096, 11008), (11008, 4096)], [-1, -1, 1, 1, 0], -1, "G6"),
    "G7": ([(64, 2048, 128)] * 3, [0, 0, 0], 0, "G7"),
}


def inputs_for(name):
    g = torch.Generator(device="cuda").manual_seed(0)
    out = []
    for i, shape in enumerate(SPECS[name][0]):
        t = torch.randn(shape, generator=g, device="cuda", dtype=torch.float32)
        if name == "G6" and i >= 2:
            t = t / math.sqrt(shape[0])
        out.append(t.to(BF16).contiguous())
    return out


def load(path):
    lib = ctypes.CDLL(path)
    lib.braze_cuda_last_error.restype = ctypes.c_char_p
    return lib


def caller(lib, name, tensors):
    fn = getattr(lib, SPECS[name][3])
    fn.restype = ctypes.c_int
    args = [ctypes.c_void_p(t.data_ptr()) for t in tensors]

    def call():
        if fn(*args) != 0:
            raise RuntimeError(lib.braze_cuda_last_error().decode())
    return call


def time_ms(call, device, barrier=None):
    for _ in range(3):
        call()
    torch.cuda.synchronize(device)
    if barrier:
        barrier.wait()
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(CALLS):
        call()
    end.record()
    torch.cuda.synchronize(device)
    return start.elapsed_time(end) / CALLS


def one_gpu(libdir, name):
    torch.cuda.set_device(0)
    lib = load(os.path.join(libdir, name + ".tp1.so"))
    ins = inputs_for(name)
    shape = SPECS[name][0][0]
    out = torch.full(shape, float("nan"), dtype=BF16, device="cuda:0")
    call = caller(lib, name, ins + [out])
    ms = time_ms(call, 0)
    out.fill_(float("nan"))
    call()
    torch.cuda.synchronize(0)
    return ms, out, ins


def rank_thread(lib, name, rank, ins, out, barrier, results):
    try:
        torch.cuda.set_device(rank)
        if lib.braze_cuda_set_device(rank) != 0:
            raise RuntimeError(lib.braze_cuda_last_error().decode())
        got_rank = lib.braze_cuda_mesh_rank()
        if got_rank != rank:
            raise RuntimeError("braze_cuda_mesh_rank() is %d on GPU %d" % (got_rank, rank))
        call = caller(lib, name, ins + [out])
        results[rank] = time_ms(call, rank, barrier)
        out.fill_(float("nan"))
        call()
        torch.cuda.synchronize(rank)
    except Exception as e:  # reported by the main thread
        results[rank] = e
        barrier.abort()


def two_gpus(libdir, name, glob):
    lib = load(os.path.join(libdir, name + ".tp2.so"))
    if lib.braze_cuda_mesh_init_all(None, RANKS) != 0:
        raise RuntimeError(lib.braze_cuda_last_error().decode())
    shapes, splits, out_dim, _ = SPECS[name]
    ins, outs = [], []
    for r in range(RANKS):
        dev = torch.device("cuda", r)
        ins.append([(t if d < 0 else t.chunk(RANKS, d)[r]).to(dev).contiguous() for t, d in zip(glob, splits)])
        shape = list(shapes[0])
        if out_dim >= 0:
            shape[out_dim] //= RANKS
        outs.append(torch.full(shape, float("nan"), dtype=BF16, device=dev))
    barrier, results = threading.Barrier(RANKS), [None] * RANKS
    threads = [threading.Thread(target=rank_thread, args=(lib, name, r, ins[r], outs[r], barrier, results))
               for r in range(RANKS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    lib.braze_cuda_mesh_finalize()
    for r in results:
        if isinstance(r, Exception):
            raise r
    return results, [o.to("cuda:0") for o in outs]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("libdir")
    ap.add_argument("--out")
    a = ap.parse_args()
    card = torch.cuda.get_device_name(0)
    lines = ["card: %s x %d; one process, a thread per GPU (braze_cuda_mesh_init_all); times in ms (CUDA events, "
             "mean of %d calls, slower rank)" % (card, RANKS, CALLS), "",
             "| workload | 1 GPU braze | 2 GPUs braze, one process | speedup | per rank | max rel err vs 1 GPU | "
             "norm err | replicas bit-identical |", "|---|---|---|---|---|---|---|---|"]
    ok = True
    for name in SPECS:
        t1, want, glob = one_gpu(a.libdir, name)
        ranks_ms, outs = two_gpus(a.libdir, name, glob)
        out_dim = SPECS[name][2]
        full = torch.cat(outs, out_dim) if out_dim >= 0 else outs[0]
        same = "" if out_dim >= 0 else str(bool(torch.equal(outs[0].view(torch.int16), outs[1].view(torch.int16))))
        w, g = want.float(), full.float()
        denom = torch.maximum(w.abs(), 1e-2 * w.abs().max())
        rel = float(((g - w).abs() / denom).max())
        norm = float((g - w).norm() / w.norm())
        nan = bool(torch.isnan(g).any())
        t2 = max(ranks_ms)
        lines.append("| %s | %.3f | %.3f | %.2fx | %s | %.3g | %.3g | %s |" % (
            name, t1, t2, t1 / t2, " / ".join("%.3f" % t for t in ranks_ms), rel, norm, same))
        # the bounds bench.py applies: G7 elementwise, G6 norm-wise (its K split rounds each partial)
        ok = ok and not nan and norm <= 2e-2 and (name != "G7" or rel <= 5e-2) and same != "False"
        del want, glob, outs, full
        torch.cuda.empty_cache()
    text = "\n".join(lines) + "\n\nchecks %s\n" % ("passed" if ok else "FAILED")
    print(text)
    if a.out:
        open(a.out, "w").write(text)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
