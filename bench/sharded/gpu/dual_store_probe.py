#!/usr/bin/python3
"""What a GEMM whose epilogue also stores each tile into the partner's memory would give
W6's down projection on two GPUs, against the GEMM followed by NCCL's all_reduce: a
probe for issue 27's fused GEMM + collective (decision 0020, option 1), no braze.

    python3 bench/sharded/gpu/dual_store_probe.py [--iters 30] [--out FILE.md]   # 2-GPU machine

One process, both GPUs, peer access on. The GEMM is one rank's unchunked down
projection (8192 x 5504 x 4096 bf16, f32 accumulation) in a Triton kernel (128 x 256
tiles, K steps of 64), once storing its tile locally only and once also into the
partner's inbox (a second store, over NVLink, from the same registers). With the
second store, the all_reduce is then only a local add (y = mine + inbox) once the
partner's GEMM has finished (a cross-GPU event wait); before its next GEMM writes the
partner's inbox again, each GPU waits for the partner's add. Against: the same Triton
GEMM and cuBLAS (torch.matmul), each followed by NCCL's all_reduce of the 64 MiB
result. Every figure is the mean ms per step over --iters steps after 3, both GPUs at
once (queued behind a sleep kernel), the slower GPU's; the fused result is checked
against NCCL's sum of the same Triton products, bit for bit, on both GPUs."""
import argparse
import ctypes
import os
import sys

import torch
import triton
import triton.language as tl

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from probe_mesh import CUDA, NDEV, all_reduce, communicators, timed  # noqa: E402

P = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
P.add_argument("--iters", type=int, default=30)
P.add_argument("--out", default=None)
ARGS = P.parse_args()

CUDA.cuCtxEnablePeerAccess.argtypes = [ctypes.c_void_p, ctypes.c_uint]
M, K, N = 8192, 5504, 4096
BM, BN, BK = 128, 256, 64


@triton.jit
def gemm(a, b, c, peer, M, N, K, DUAL: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
         GROUP: tl.constexpr):
    pid = tl.program_id(0)
    num_m = tl.cdiv(M, BM)
    num_n = tl.cdiv(N, BN)
    per_group = GROUP * num_n
    first_m = (pid // per_group) * GROUP
    size = min(num_m - first_m, GROUP)
    pm = first_m + (pid % per_group) % size
    pn = (pid % per_group) // size
    rm = pm * BM + tl.arange(0, BM)
    rn = pn * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    pa = a + rm[:, None] * K + rk[None, :]
    pb = b + rk[:, None] * N + rn[None, :]
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for _ in range(0, K, BK):  # K, M and N are whole tiles here
        acc += tl.dot(tl.load(pa), tl.load(pb))
        pa += BK
        pb += BK * N
    tile = acc.to(tl.bfloat16)
    offs = rm[:, None] * N + rn[None, :]
    tl.store(c + offs, tile)
    if DUAL:
        tl.store(peer.to(tl.pointer_type(tl.bfloat16)) + offs, tile)


comms = communicators()
ctxs = []
for d in range(NDEV):
    torch.cuda.set_device(d)
    torch.zeros(1, device=f"cuda:{d}")
    ctx = ctypes.c_void_p()
    assert CUDA.cuCtxGetCurrent(ctypes.byref(ctx)) == 0
    ctxs.append(ctx)
for d in range(NDEV):
    torch.cuda.set_device(d)
    rc = CUDA.cuCtxEnablePeerAccess(ctxs[1 - d], 0)
    assert rc in (0, 704), rc  # 704: already enabled

streams = [torch.cuda.Stream(device=d) for d in range(NDEV)]
g = torch.Generator().manual_seed(0)
A = [(torch.randn(M, K, generator=g) / K ** 0.25).to(torch.bfloat16).to(f"cuda:{d}") for d in range(NDEV)]
B = [(torch.randn(K, N, generator=g) / K ** 0.25).to(torch.bfloat16).to(f"cuda:{d}") for d in range(NDEV)]
C = [torch.empty(M, N, dtype=torch.bfloat16, device=f"cuda:{d}") for d in range(NDEV)]
INBOX = [torch.empty(M, N, dtype=torch.bfloat16, device=f"cuda:{d}") for d in range(NDEV)]
Y = [torch.empty(M, N, dtype=torch.bfloat16, device=f"cuda:{d}") for d in range(NDEV)]
gemm_done = [torch.cuda.Event() for _ in range(NDEV)]
add_done = [torch.cuda.Event() for _ in range(NDEV)]
GRID = (M // BM * (N // BN),)


def launch(d, dual):
    gemm[GRID](A[d], B[d], C[d], INBOX[1 - d].data_ptr(), M, N, K, DUAL=dual, BM=BM, BN=BN, BK=BK, GROUP=8,
               num_warps=8, num_stages=3)


def on_both(body):
    for d in range(NDEV):
        torch.cuda.set_device(d)
        with torch.cuda.stream(streams[d]):
            body(d)


def nccl_all_reduce():
    all_reduce(comms, [(C[d].data_ptr(), Y[d].data_ptr()) for d in range(NDEV)], M * N, streams)


def fused_step():
    def gemm_part(d):
        streams[d].wait_event(add_done[1 - d])  # the partner has added my last tiles
        launch(d, True)
        gemm_done[d].record(streams[d])

    def add_part(d):
        streams[d].wait_event(gemm_done[1 - d])  # the partner's tiles are in my inbox
        torch.add(C[d], INBOX[d], out=Y[d])
        add_done[d].record(streams[d])
    on_both(gemm_part)
    on_both(add_part)


STEPS = {
    "Triton GEMM, local store only": lambda: on_both(lambda d: launch(d, False)),
    "Triton GEMM, also stored into the partner's inbox": lambda: on_both(lambda d: launch(d, True)),
    "cuBLAS GEMM (torch.matmul) alone": lambda: on_both(lambda d: torch.matmul(A[d], B[d], out=C[d])),
    "cuBLAS GEMM + NCCL all_reduce (64 MiB)": lambda: (on_both(lambda d: torch.matmul(A[d], B[d], out=C[d])),
                                                        nccl_all_reduce()),
    "Triton GEMM + NCCL all_reduce": lambda: (on_both(lambda d: launch(d, False)), nccl_all_reduce()),
    "Triton GEMM storing into the partner too + local add (the fused all_reduce)": fused_step,
}


rows = [(name, timed(step, streams, ARGS.iters, warmup=3)) for name, step in STEPS.items()]
# the check: the fused sum against NCCL's sum of the same Triton products
fused_step()
for d in range(NDEV):
    torch.cuda.synchronize(d)
fused = [y.cpu() for y in Y]
on_both(lambda d: launch(d, False))
nccl_all_reduce()
for d in range(NDEV):
    torch.cuda.synchronize(d)
ring = [y.cpu() for y in Y]
same = [torch.equal(fused[d], ring[d]) for d in range(NDEV)]
err = max(float((fused[d].float() - ring[d].float()).norm() / ring[d].float().norm()) for d in range(NDEV))
flops = 2 * M * N * K
lines = ["%s x %d; mean ms per step over %d steps, the slower GPU; GEMM %d x %d x %d bf16" % (
    torch.cuda.get_device_name(0), NDEV, ARGS.iters, M, K, N), "",
    "| step | ms | GEMM TFLOP/s per GPU |", "|---|---|---|"]
lines += ["| %s | %.3f | %.0f |" % (name, t, flops / t / 1e9) for name, t in rows]
lines += ["", "fused sum equal to NCCL's bit for bit on each GPU: %s; norm-wise difference %.2g" % (same, err)]
text = "\n".join(lines)
print(text)
if ARGS.out:
    with open(ARGS.out, "w") as f:
        f.write(text + "\n")
