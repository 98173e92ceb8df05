#!/usr/bin/env python3
"""Which algorithm and protocol NCCL chooses for G6's all_reduce sizes on this pair, and
their times: run with NCCL's tuning log on (nvidia-h100-x2 or nvidia-h200-x2):

    NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=TUNING python3 bench/sharded/gpu/nccl_choice.py 2>&1 \\
        | grep -E "Bytes -> Algo|MiB|version" | sort | uniq -c

NCCL prints "AllReduce: N Bytes -> Algo A proto P channel{Lo..Hi}" for each call (NCCL
2.20 and later); the profiler's kernel names (ncclDevKernel_..._RING_LL) name the
entry NCCL compiled, not the protocol it runs. torch.distributed's all_reduce of bf16:
G6's 16 and 48 MiB chunks, its 64 MiB whole, and the 1 GiB of bench.py's bus bandwidth."""
import os

import torch
import torch.distributed as dist
import torch.multiprocessing as mp

SIZES_MIB = (16, 48, 64, 1024)


def worker(rank):
    os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT="29555")
    torch.cuda.set_device(rank)
    dist.init_process_group("nccl", rank=rank, world_size=2, device_id=torch.device("cuda", rank))
    for mib in SIZES_MIB:
        x = torch.ones(mib << 19, dtype=torch.bfloat16, device="cuda")  # mib MiB of bf16
        for _ in range(3):
            dist.all_reduce(x)
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        for _ in range(20):
            dist.all_reduce(x)
        end.record()
        torch.cuda.synchronize()
        if rank == 0:
            print("MiB %d: %.3f ms" % (mib, start.elapsed_time(end) / 20), flush=True)
    if rank == 0:
        print("torch's NCCL version", torch.cuda.nccl.version(), flush=True)
    dist.destroy_process_group()


if __name__ == "__main__":
    mp.spawn(worker, nprocs=2)
