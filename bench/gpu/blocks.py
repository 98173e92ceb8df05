#!/usr/bin/env python3
"""The model blocks of test/models/blocks.py (GPT-2, BERT, Llama, ViT, T5, ConvNeXt) at
their models' widths on the GPU machine: PyTorch eager and torch.compile (default mode),
kernels launched per call (torch.profiler) and median ms per call, for the kernel
counts beside braze's in docs/performance.md.

    python3 bench/gpu/blocks.py [--blocks test/models/blocks.py] [--size real]
        [--dtype f32|bf16] [--iters 20]"""
import argparse
import importlib.util
import os
import statistics
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from profiling import kernels_per_call  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))




def median_ms(run, iters):
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    samples = []
    for _ in range(5):
        start.record()
        for _ in range(iters):
            run()
        end.record()
        end.synchronize()
        samples.append(start.elapsed_time(end) / iters)
    return statistics.median(samples)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--blocks", default=os.path.join(ROOT, "test", "models", "blocks.py"))
    ap.add_argument("--size", default="real")
    ap.add_argument("--dtype", default="f32")
    ap.add_argument("--iters", type=int, default=20)
    a = ap.parse_args()
    spec = importlib.util.spec_from_file_location("blocks", a.blocks)
    blocks = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(blocks)
    c = blocks.SIZES[a.size]
    dtype = torch.float32 if a.dtype == "f32" else torch.bfloat16
    print(f"device: {torch.cuda.get_device_name()}; torch {torch.__version__}; size {a.size}, {a.dtype}")
    print("| block | eager kernels | eager ms | torch.compile kernels | torch.compile ms |")
    print("|---|---|---|---|---|")
    for name, cls in blocks.BLOCKS.items():
        torch.manual_seed(0)
        model = cls(c).eval().cuda().to(dtype)
        g = torch.Generator().manual_seed(1)
        ins = [x.cuda().to(dtype) for x in blocks.example_inputs(name, c, g)]
        compiled = torch.compile(model)
        with torch.no_grad():
            eager = lambda: model(*ins)  # noqa: E731
            comp = lambda: compiled(*ins)  # noqa: E731
            comp()
            row = (kernels_per_call(eager), median_ms(eager, a.iters), kernels_per_call(comp), median_ms(comp, a.iters))
        print(f"| {name} | {row[0]:g} | {row[1]:.3f} | {row[2]:g} | {row[3]:.3f} |", flush=True)


if __name__ == "__main__":
    main()
