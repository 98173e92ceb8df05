"""What the one-process two-GPU probes share (symmetric_probe.py, peer_probe.py,
dual_store_probe.py): NCCL and the driver through ctypes, one communicator per GPU
(ncclCommInitAll), a bf16 sum all_reduce over both, and the timing of a step queued
on both GPUs."""
import ctypes

import torch

NDEV = 2
BF16, SUM = 9, 0  # ncclBfloat16, ncclSum
NCCL = ctypes.CDLL("libnccl.so.2")
CUDA = ctypes.CDLL("libcuda.so.1")
NCCL.ncclGetErrorString.restype = ctypes.c_void_p
NCCL.ncclAllReduce.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int,
                               ctypes.c_void_p, ctypes.c_void_p]


def check(rc, what):
    """Exits with NCCL's message where an NCCL call failed."""
    if rc != 0:
        msg = NCCL.ncclGetErrorString(rc)
        raise SystemExit(f"{what} failed: {ctypes.cast(msg, ctypes.c_char_p).value.decode()}")


def communicators():
    comms = (ctypes.c_void_p * NDEV)()
    check(NCCL.ncclCommInitAll(comms, NDEV, (ctypes.c_int * NDEV)(*range(NDEV))), "ncclCommInitAll")
    return comms


def all_reduce(comms, pairs, count, streams):
    """y = the bf16 sum over both GPUs of x, pairs[d] = (x, y) device addresses on GPU d."""
    check(NCCL.ncclGroupStart(), "ncclGroupStart")
    for d in range(NDEV):
        torch.cuda.set_device(d)
        check(NCCL.ncclAllReduce(pairs[d][0], pairs[d][1], count, BF16, SUM, comms[d], streams[d].cuda_stream),
              "ncclAllReduce")
    check(NCCL.ncclGroupEnd(), "ncclGroupEnd")


def timed(step, streams, iters, on=None, warmup=5):
    """Mean ms per step over `iters` steps (after `warmup`), the slower GPU's. Each GPU's
    steps are queued behind a sleep kernel on streams[d], so that Python's launch time is
    not in them, between events on streams[d]; `on` lists the other per-GPU stream sets
    the steps use, which start after the first event and end before the last."""
    on = on or []
    for _ in range(warmup):
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
    for _ in range(iters):
        step()
    for d in range(NDEV):
        for s in on:
            streams[d].wait_stream(s[d])
        end[d].record(streams[d])
    for d in range(NDEV):
        torch.cuda.synchronize(d)
    return max(begin[d].elapsed_time(end[d]) for d in range(NDEV)) / iters
