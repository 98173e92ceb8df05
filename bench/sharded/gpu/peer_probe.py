#!/usr/bin/python3
"""A two-GPU sum all_reduce by loads from the peer's buffer over NVLink (peer_probe.cu's
one-shot kernel, its cross-GPU barrier in the kernel) against NCCL's ring all_reduce, at
W6's sizes, alone and beside a GEMM, on two GPUs of one process with peer access on.

    nvcc -O3 -arch=sm_90 -shared -Xcompiler -fPIC bench/sharded/gpu/peer_probe.cu -o P.so   # here
    python3 bench/sharded/gpu/peer_probe.py P.so [--iters 50] [--out FILE.md]               # 2-GPU machine

A probe for issue 27, not a pipeline: the last chunk's all_reduce (16 MiB) is exposed at
the end of W6's two-GPU program, and the first (48 MiB) runs beside the second chunk's
GEMMs. Each figure is the mean over --iters calls after 5 warm-up calls, CUDA events on
each GPU, the slower GPU's; every one-shot result is checked bit for bit against torch's
sum of the two buffers. `memop` variants signal with cuStreamWriteValue32 to the peer's
flag and wait with cuStreamWaitValue32 (no multiprocessor waits) instead of in the kernel."""
import argparse
import ctypes
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from probe_mesh import CUDA, NDEV, all_reduce, communicators, timed  # noqa: E402

P = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
P.add_argument("lib")
P.add_argument("--iters", type=int, default=50)
P.add_argument("--out", default=None)
ARGS = P.parse_args()

LIB = ctypes.CDLL(ARGS.lib)
MIB = 1 << 20

LIB.probe_one_shot.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t,
                               ctypes.c_void_p, ctypes.c_void_p, ctypes.c_uint, ctypes.c_int, ctypes.c_int,
                               ctypes.c_void_p]
CUDA.cuStreamWriteValue32_v2.argtypes = [ctypes.c_void_p, ctypes.c_uint64, ctypes.c_uint32, ctypes.c_uint]
CUDA.cuStreamWaitValue32_v2.argtypes = [ctypes.c_void_p, ctypes.c_uint64, ctypes.c_uint32, ctypes.c_uint]

comms = communicators()
for d in range(NDEV):
    assert LIB.probe_enable_peer(d, 1 - d) == 0, "peer access"
streams = [torch.cuda.Stream(device=d) for d in range(NDEV)]
side = [torch.cuda.Stream(device=d) for d in range(NDEV)]
GEMM = [(torch.randn(6144, 5504, device=f"cuda:{d}", dtype=torch.bfloat16),
         torch.randn(5504, 4096, device=f"cuda:{d}", dtype=torch.bfloat16)) for d in range(NDEV)]
TAIL = [(torch.randn(2048, 5504, device=f"cuda:{d}", dtype=torch.bfloat16),
         torch.randn(5504, 4096, device=f"cuda:{d}", dtype=torch.bfloat16)) for d in range(NDEV)]


def gemm(operands, on):
    for d in range(NDEV):
        with torch.cuda.stream(on[d]):
            torch.matmul(*operands[d])


def buffers(nbytes):
    return [(torch.randn(nbytes // 2, device=f"cuda:{d}").to(torch.bfloat16),
             torch.empty(nbytes // 2, device=f"cuda:{d}", dtype=torch.bfloat16)) for d in range(NDEV)]


def nccl(bufs):
    all_reduce(comms, [(x.data_ptr(), y.data_ptr()) for x, y in bufs], bufs[0][0].numel(), streams)


class OneShot:
    def __init__(self, bufs, blocks, memop):
        self.bufs, self.blocks, self.memop, self.epoch = bufs, blocks, memop, 0
        self.flags = [torch.zeros(4, device=f"cuda:{d}", dtype=torch.int32) for d in range(NDEV)]

    def __call__(self):
        self.epoch += 1
        for d in range(NDEV):
            mine, out = self.bufs[d]
            s = streams[d].cuda_stream
            if self.memop:
                torch.cuda.set_device(d)
                assert CUDA.cuStreamWriteValue32_v2(s, self.flags[1 - d].data_ptr(), self.epoch, 0) == 0
                assert CUDA.cuStreamWaitValue32_v2(s, self.flags[d].data_ptr(), self.epoch, 0) == 0
            rc = LIB.probe_one_shot(d, mine.data_ptr(), self.bufs[1 - d][0].data_ptr(), out.data_ptr(),
                                    mine.numel() * 2, self.flags[d].data_ptr(), self.flags[1 - d].data_ptr(),
                                    self.epoch, self.blocks, 0 if self.memop else 1, s)
            assert rc == 0, rc


def exact(bufs):
    want = (bufs[0][0] + bufs[1][0].to("cuda:0")).cpu()
    return all(torch.equal(bufs[d][1].cpu(), want) for d in range(NDEV))


rows = [("GEMM 6144x5504x4096 alone", timed(lambda: gemm(GEMM, side), streams, ARGS.iters, [side]), ""),
        ("GEMM 2048x5504x4096 (last chunk's down projection) alone",
         timed(lambda: gemm(TAIL, streams), streams, ARGS.iters), "")]
for mib in (16, 48):
    bufs = buffers(mib * MIB)
    t = timed(lambda: nccl(bufs), streams, ARGS.iters)
    rows.append((f"{mib} MiB NCCL alone", t, f"{mib * MIB / t / 1e6:.0f} GB/s"))
    rows.append((f"{mib} MiB NCCL beside the 6144-row GEMM", timed(lambda: (gemm(GEMM, side), nccl(bufs)),
                                                                 streams, ARGS.iters, [side]), ""))
    if mib == 16:
        rows.append(("16 MiB: the tail GEMM then NCCL", timed(lambda: (gemm(TAIL, streams), nccl(bufs)), streams, ARGS.iters), ""))
    for memop in (False, True):
        for blocks in ((132, 264, 528) if mib == 16 else (16, 32, 66, 132)):
            one = OneShot(bufs, blocks, memop)
            bufs[0][1].zero_(), bufs[1][1].zero_()
            t = timed(one, streams, ARGS.iters)
            ok = exact(bufs)
            tag = f"{mib} MiB one-shot {blocks} blocks{' memop' if memop else ''}"
            rows.append((tag + " alone", t, f"{mib * MIB / t / 1e6:.0f} GB/s, exact: {ok}"))
            if mib == 48 or blocks == 264:
                rows.append((tag + " beside the 6144-row GEMM", timed(lambda: (gemm(GEMM, side), one()),
                                                                    streams, ARGS.iters, [side]), ""))
            if mib == 16:
                rows.append((tag + ": the tail GEMM then it", timed(lambda: (gemm(TAIL, streams), one()), streams, ARGS.iters), ""))

lines = [f"{torch.cuda.get_device_name(0)} x {NDEV}, mean of {ARGS.iters} calls, slower GPU", "",
         "| what | ms | note |", "|---|---|---|"] + [f"| {w} | {t:.4f} | {n} |" for w, t, n in rows]
text = "\n".join(lines)
print(text)
if ARGS.out:
    with open(ARGS.out, "w") as f:
        f.write(text + "\n")
