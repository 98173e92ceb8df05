#!/usr/bin/python3
"""NCCL's all_reduce on ordinary buffers against the same all_reduce on symmetric windows
(ncclMemAlloc + ncclCommWindowRegister(NCCL_WIN_COLL_SYMMETRIC), NCCL 2.27+), alone and
beside a bf16 GEMM on another stream, on two GPUs of one process (ncclCommInitAll).

    python3 bench/sharded/gpu/symmetric_probe.py [--iters 50] [--out FILE.md]   # 2-GPU machine

A probe for issue 27, not a pipeline: W6's two-GPU program at the power limit loses
what its all_reduces cost (the last chunk's, exposed, and the GEMMs' slowdown beside the
first), and NCCL's symmetric kernels (loads and stores to the peer's window over
NVLink, no staging through NCCL's own buffers) are the NCCL-side way to make them
cheaper. The sizes are G6's: the chunks' all_reduces of 48 and 16 MiB and the whole 64
MiB (bf16); the GEMM is the first chunk's down projection on one rank (6144 x 5504 x
4096). Each figure is the mean over --iters calls after 5 warm-up calls, CUDA events on
each GPU (the slower GPU's time; the calls are queued behind a sleep kernel so that
Python's launch time is not in them), every variant in one process."""
import argparse
import ctypes
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from probe_mesh import CUDA, NCCL, NDEV, check, communicators, timed  # noqa: E402
from probe_mesh import all_reduce as nccl_all_reduce  # noqa: E402

P = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
P.add_argument("--iters", type=int, default=50)
P.add_argument("--out", default=None)
ARGS = P.parse_args()

SYMMETRIC = 0x01
NCCL.ncclMemAlloc.argtypes = [ctypes.POINTER(ctypes.c_void_p), ctypes.c_size_t]
NCCL.ncclCommWindowRegister.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t,
                                        ctypes.POINTER(ctypes.c_void_p), ctypes.c_int]
CUDA.cuMemsetD8_v2.argtypes = [ctypes.c_uint64, ctypes.c_ubyte, ctypes.c_size_t]

comms = communicators()
streams = [torch.cuda.Stream(device=d) for d in range(NDEV)]
side = [torch.cuda.Stream(device=d) for d in range(NDEV)]
MIB = 1 << 20
SIZES = [16 * MIB, 48 * MIB, 64 * MIB]


def ordinary(nbytes):
    """x and y per GPU from torch's allocator (what braze's entry passes today)."""
    out = []
    for d in range(NDEV):
        x = torch.randn(nbytes // 2, device=f"cuda:{d}").to(torch.bfloat16)
        out.append((x, torch.empty_like(x)))
    return [(x.data_ptr(), y.data_ptr()) for x, y in out], out


def symmetric(nbytes):
    """x and y in one symmetric window per GPU, at the same offsets on both."""
    ptrs, keep = [], []
    for d in range(NDEV):
        torch.cuda.set_device(d)
        p = ctypes.c_void_p()
        check(NCCL.ncclMemAlloc(ctypes.byref(p), 2 * nbytes), "ncclMemAlloc")
        CUDA.cuMemsetD8_v2(p.value, 0, 2 * nbytes)
        keep.append(p)
    wins = [ctypes.c_void_p() for _ in range(NDEV)]
    check(NCCL.ncclGroupStart(), "ncclGroupStart")
    for d in range(NDEV):
        torch.cuda.set_device(d)
        check(NCCL.ncclCommWindowRegister(comms[d], keep[d], 2 * nbytes, ctypes.byref(wins[d]), SYMMETRIC),
              "ncclCommWindowRegister")
    check(NCCL.ncclGroupEnd(), "ncclGroupEnd")
    torch.cuda.synchronize(0)
    torch.cuda.synchronize(1)
    return [(k.value, k.value + nbytes) for k in keep], (keep, wins)


def all_reduce(bufs, nbytes):
    nccl_all_reduce(comms, bufs, nbytes // 2, streams)


GEMM = [(torch.randn(6144, 5504, device=f"cuda:{d}", dtype=torch.bfloat16),
         torch.randn(5504, 4096, device=f"cuda:{d}", dtype=torch.bfloat16)) for d in range(NDEV)]


def gemm():
    for d in range(NDEV):
        with torch.cuda.stream(side[d]):
            torch.matmul(*GEMM[d])


rows = []
gemm_alone = timed(gemm, streams, ARGS.iters, [side])
for nbytes in SIZES:
    plain_bufs, keep_plain = ordinary(nbytes)
    sym_bufs, keep_sym = symmetric(nbytes)
    for name, bufs in (("ordinary", plain_bufs), ("symmetric", sym_bufs)):
        alone = timed(lambda: all_reduce(bufs, nbytes), streams, ARGS.iters)
        both = timed(lambda: (gemm(), all_reduce(bufs, nbytes)), streams, ARGS.iters, [side])
        busbw = nbytes / (alone * 1e-3) / 1e9  # 2 (n - 1) / n = 1 for n = 2
        rows.append((nbytes // MIB, name, alone, busbw, both))

lines = [f"GEMM 6144 x 5504 x 4096 bf16 alone: {gemm_alone:.3f} ms ({torch.cuda.get_device_name(0)} x {NDEV})", "",
         "| MiB | buffers | all_reduce alone ms | bus GB/s | GEMM + all_reduce on two streams ms |",
         "|---|---|---|---|---|"]
lines += [f"| {m} | {name} | {a:.3f} | {bw:.0f} | {b:.3f} |" for m, name, a, bw, b in rows]
text = "\n".join(lines)
print(text)
if ARGS.out:
    with open(ARGS.out, "w") as f:
        f.write(text + "\n")
