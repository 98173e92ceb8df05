"""Kernels launched per call of a function on the GPU, by torch.profiler (CUPTI sees
braze's driver-API launches like torch's own): shared by bench/gpu/spellings.py and
bench/gpu/blocks.py."""
import torch
from torch.profiler import ProfilerActivity, profile


def kernels_per_call(run, calls=3):
    run()
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(calls):
            run()
        torch.cuda.synchronize()
    return sum(e.count for e in prof.key_averages() if e.device_time_total > 0) / calls
