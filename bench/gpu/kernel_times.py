#!/usr/bin/env python3
"""Where a braze CUDA library's time goes, kernel by kernel, on the GPU machine.

    python3 bench/gpu/kernel_times.py LIBDIR --only G9,R1 [--calls 10] [--peer [--no-autotune]] [--list]

(Not named profile.py: bench/gpu is first on sys.path and would shadow the standard
library module that torch.compile imports.)

For each workload of bench/gpu/bench.py, the library LIBDIR/NAME.so is called on the same
inputs under torch.profiler (CUPTI sees the kernels braze launches through the driver
API like torch's own), and the CUDA time of each kernel is printed, summed over the
calls, largest first, with its share of the total (--list: every kernel, not only the
top 25). --peer profiles torch.compile of the same function the same way, for comparison,
on bench.py's peer inputs (channels-last for the CNNs), in its default mode and, unless
--no-autotune, with mode="max-autotune" (minutes of tuning per workload)."""
import argparse
import os
import sys

import torch
from torch.profiler import ProfilerActivity, profile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench  # noqa: E402


def kernel_table(run, calls, top):
    run()
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(calls):
            run()
        torch.cuda.synchronize()
    rows = [(e.key, e.device_time_total, e.count) for e in prof.key_averages() if e.device_time_total > 0]
    rows.sort(key=lambda r: -r[1])
    total = sum(r[1] for r in rows)
    lines = [f"  total {total / calls / 1e3:.3f} ms per call over {len(rows)} kernels"]
    for name, t, n in rows[:top]:
        lines.append(f"  {t / calls / 1e3:8.3f} ms {100 * t / total:5.1f}%  x{n // calls:<3d} {name[:100]}")
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("libdir")
    ap.add_argument("--only", required=True)
    ap.add_argument("--calls", type=int, default=10)
    ap.add_argument("--top", type=int, default=25)
    ap.add_argument("--peer", action="store_true")
    ap.add_argument("--no-autotune", action="store_true")
    ap.add_argument("--list", action="store_true")
    args = ap.parse_args()
    if args.list:
        args.top = 1 << 30
    for name in args.only.split(","):
        fn, specs, desc, memory_bound, _ = bench.WORKLOADS[name]
        ins = bench.inputs_for(specs, scale_weights=not memory_bound)
        out = torch.empty_like(fn(*ins))
        lib = bench.Lib(os.path.join(args.libdir, name + ".so"), name)
        lib.bind(ins + [out])
        print(f"{name} {desc}: braze")
        print(kernel_table(lib, args.calls, args.top))
        if args.peer:
            pins = bench.peer_inputs(name, ins)
            for mode in [None] + ([] if args.no_autotune else ["max-autotune"]):
                compiled = bench.compiled_peer(fn, mode)
                print(f"{name}: torch.compile" + (f" mode={mode}" if mode else ""))
                print(kernel_table(lambda: compiled(*pins), args.calls, args.top))


if __name__ == "__main__":
    main()
