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

import torch

P = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
P.add_argument("lib")
P.add_argument("--iters", type=int, default=50)
P.add_argument("--out", default=None)
ARGS = P.parse_args()

NCCL = ctypes.CDLL("libnccl.so.2")
CUDA = ctypes.CDLL("libcuda.so.1")
LIB = ctypes.CDLL(ARGS.lib)
BF16, SUM = 9, 0
NDEV = 2
MIB = 1 << 20

NCCL.ncclAllReduce.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int,
                               ctypes.c_void_p, ctypes.c_void_p]
LIB.probe_one_shot.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t,
                               ctypes.c_void_p, ctypes.c_void_p, ctypes.c_uint, ctypes.c_int, ctypes.c_int,
                               ctypes.c_void_p]
CUDA.cuStreamWriteValue32_v2.argtypes = [ctypes.c_void_p, ctypes.c_uint64, ctypes.c_uint32, ctypes.c_uint]
CUDA.cuStreamWaitValue32_v2.argtypes = [ctypes.c_void_p, ctypes.c_uint64, ctypes.c_uint32, ctypes.c_uint]

comms = (ctypes.c_void_p * NDEV)()
assert NCCL.ncclCommInitAll(comms, NDEV, (ctypes.c_int * NDEV)(*range(NDEV))) == 0
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
    assert NCCL.ncclGroupStart() == 0
    for d in range(NDEV):
        torch.cuda.set_device(d)
        assert NCCL.ncclAllReduce(bufs[d][0].data_ptr(), bufs[d][1].data_ptr(), bufs[d][0].numel(), BF16, SUM,
                                  comms[d], streams[d].cuda_stream) == 0
    assert NCCL.ncclGroupEnd() == 0


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


def timed(step, on):
    for _ in range(5):
        step()
    for d in range(NDEV):
        torch.cuda.synchronize(d)
        with torch.cuda.stream(streams[d]):
            torch.cuda._sleep(200_000_000)
    begin = [torch.cuda.Event(enable_timing=True) for _ in range(NDEV)]
    end = [torch.cuda.Event(enable_timing=True) for _ in range(NDEV)]
    for d in range(NDEV):
        begin[d].record(streams[d])
        for s in on:
            s[d].wait_event(begin[d])
    for _ in range(ARGS.iters):
        step()
    for d in range(NDEV):
        for s in on:
            if s is not streams:
                streams[d].wait_stream(s[d])
        end[d].record(streams[d])
    for d in range(NDEV):
        torch.cuda.synchronize(d)
    return max(begin[d].elapsed_time(end[d]) for d in range(NDEV)) / ARGS.iters


def exact(bufs):
    want = (bufs[0][0] + bufs[1][0].to("cuda:0")).cpu()
    return all(torch.equal(bufs[d][1].cpu(), want) for d in range(NDEV))


rows = [("GEMM 6144x5504x4096 alone", timed(lambda: gemm(GEMM, side), [side]), ""),
        ("GEMM 2048x5504x4096 (last chunk's down projection) alone",
         timed(lambda: gemm(TAIL, streams), [streams]), "")]
for mib in (16, 48):
    bufs = buffers(mib * MIB)
    t = timed(lambda: nccl(bufs), [streams])
    rows.append((f"{mib} MiB NCCL alone", t, f"{mib * MIB / t / 1e6:.0f} GB/s"))
    rows.append((f"{mib} MiB NCCL beside the 6144-row GEMM", timed(lambda: (gemm(GEMM, side), nccl(bufs)),
                                                                    [streams, side]), ""))
    if mib == 16:
        rows.append(("16 MiB: the tail GEMM then NCCL", timed(lambda: (gemm(TAIL, streams), nccl(bufs)), [streams]), ""))
    for memop in (False, True):
        for blocks in ((132, 264, 528) if mib == 16 else (16, 32, 66, 132)):
            one = OneShot(bufs, blocks, memop)
            bufs[0][1].zero_(), bufs[1][1].zero_()
            t = timed(one, [streams])
            ok = exact(bufs)
            tag = f"{mib} MiB one-shot {blocks} blocks{' memop' if memop else ''}"
            rows.append((tag + " alone", t, f"{mib * MIB / t / 1e6:.0f} GB/s, exact: {ok}"))
            if mib == 48 or blocks == 264:
                rows.append((tag + " beside the 6144-row GEMM", timed(lambda: (gemm(GEMM, side), one()),
                                                                       [streams, side]), ""))
            if mib == 16:
                rows.append((tag + ": the tail GEMM then it", timed(lambda: (gemm(TAIL, streams), one()), [streams]), ""))

lines = [f"{torch.cuda.get_device_name(0)} x {NDEV}, mean of {ARGS.iters} calls, slower GPU", "",
         "| what | ms | note |", "|---|---|---|"] + [f"| {w} | {t:.4f} | {n} |" for w, t, n in rows]
text = "\n".join(lines)
print(text)
if ARGS.out:
    with open(ARGS.out, "w") as f:
        f.write(text + "\n")
