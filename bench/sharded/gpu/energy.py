#!/usr/bin/env python3
"""Energy per call of W6 (G6) on one GPU and on each rank of two, run on the 2-GPU
machine (PyTorch with NVML; no MLIR, no braze), one process per GPU as bench.py:

    python3 bench/sharded/gpu/energy.py LIBDIR [--rounds N] [--seconds S] [--out FILE]

LIBDIR is what bench/sharded/gpu/prepare.sh built. Under a power limit a card's time
per call is its energy per call over the power it may draw, so W6's two-GPU speedup at
the limit is the one-GPU energy per call over the two-GPU energy per call of the
slower rank; this script measures both. Each sample: S seconds of back-to-back calls
after 0.3 s of warm-up, the card's energy counter (nvmlDeviceGetTotalEnergyConsumption,
mJ) read after a synchronize before and after, with the calls' CUDA-event time; a
one-GPU sample on rank 0 and a two-GPU sample on both ranks alternate, --rounds times.
It prints per sample the ms per call, mJ per call and mean W, and the medians: the
ratio of energies is the speedup a card held at its limit for both would show.

The counter is coarse: its first readings of a run can be zero or belong partly to the
idle time before, and over short samples (0.5-1 s) the mean power came out above the
card's 700 W limit or far below it (one GPU 771 W against 614 W for a rank of two, a
ratio of 0.49 in one run). So round 0 is shown but left out of the medians, and a sample
is 3 s by default (then every sample of rounds 1-4 read 684-713 W on H100s)."""
import argparse
import os
import sys

import torch
import torch.distributed as dist

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench  # noqa: E402  (the libraries, inputs and calls of bench.py)


def energy_sample(fn, seconds, barrier=None):
    """(ms per call, mJ per call, mean W) over `seconds` of calls after 0.3 s of warm-up."""
    import pynvml
    handle = pynvml.nvmlDeviceGetHandleByIndex(torch.cuda.current_device())
    calls = bench.warmed_up(fn, barrier, 300.0, seconds * 1e3, 1)
    e0 = pynvml.nvmlDeviceGetTotalEnergyConsumption(handle)
    ms = bench.events_ms(fn, calls)  # synchronizes at its end
    e1 = pynvml.nvmlDeviceGetTotalEnergyConsumption(handle)
    mj = (e1 - e0) / calls
    return ms, mj, mj / ms


def worker(rank, libdir, rounds, seconds, ids, results):
    import pynvml
    pynvml.nvmlInit()
    torch.cuda.set_device(rank)
    os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT="29534")
    dist.init_process_group("nccl", rank=rank, world_size=bench.RANKS, device_id=torch.device("cuda", rank))
    one = None
    if rank == 0:
        one = bench.one_gpu_call(bench.load(os.path.join(libdir, "G6.tp1.so")), "G6")
    lib2 = bench.load(os.path.join(libdir, "G6.tp2.so"))
    two = bench.two_gpu_call(lib2, "G6", rank, ids)
    rows = []
    for i in range(rounds):
        dist.barrier()
        if one:
            rows.append(("1 GPU", i) + energy_sample(one, seconds))
        dist.barrier()
        rows.append(("2 GPUs rank %d" % rank, i) + energy_sample(two, seconds, dist.barrier))
    lib2.braze_cuda_mesh_finalize()
    # the communication alone: G6's 64 MiB all_reduce through braze's library (NCCL)
    lib = bench.load(os.path.join(libdir, "all-reduce.so"))
    bench.join_mesh(lib, rank, ids)
    x = torch.randn(8192, 4096, device="cuda").to(bench.BF16)
    ar = bench.braze_call(lib, bench.entry(lib, "ar64m"), [x, torch.empty_like(x)])
    for i in range(rounds):
        rows.append(("all_reduce 64 MiB alone, rank %d" % rank, i) + energy_sample(ar, seconds, dist.barrier))
    lib.braze_cuda_mesh_finalize()
    results.put({"rank": rank, "card": torch.cuda.get_device_name(rank), "rows": rows})
    dist.destroy_process_group()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("libdir")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--out")
    a = ap.parse_args()
    got = bench.run_ranks(worker, a.libdir, a.rounds, a.seconds)
    shown = [row for r in got for row in r["rows"]]
    rows = [r for r in shown if r[1] > 0] or shown  # the medians leave round 0 out (the counter's lag)
    lines = ["card: %s x %d; G6 (W6), %.1f s of calls per sample after 0.3 s of warm-up, %d rounds" % (
        got[0]["card"], bench.RANKS, a.seconds, a.rounds), "",
        "| sample | round | ms per call | mJ per call | mean W |", "|---|---|---|---|---|"]
    lines += ["| %s | %d | %.3f | %.0f | %.0f |" % r for r in sorted(shown, key=lambda r: (r[1], r[0]))]
    lines += ["", "| medians of rounds 1 on | ms per call | mJ per call | mean W |", "|---|---|---|---|"]
    kinds = sorted({r[0] for r in rows})
    for k in kinds:
        sel = [r for r in rows if r[0] == k]
        lines.append("| %s | %.3f | %.0f | %.0f |" % ((k,) + tuple(bench.median([r[c] for r in sel]) for c in (2, 3, 4))))
    one_mj = bench.median([r[3] for r in rows if r[0] == "1 GPU"])
    one_ms = bench.median([r[2] for r in rows if r[0] == "1 GPU"])
    twos = [k for k in kinds if k.startswith("2 GPUs")]
    two_mj = max(bench.median([r[3] for r in rows if r[0] == k]) for k in twos)
    two_ms = max(bench.median([r[2] for r in rows if r[0] == k]) for k in twos)
    lines += ["", "speedup by time (medians): %.2fx; by energy per call (one GPU over the hungrier rank): %.2fx; "
              "two-GPU energy per rank over one GPU's: %.3f (0.5 would be no overhead)" % (
                  one_ms / two_ms, one_mj / two_mj, two_mj / one_mj)]
    text = "\n".join(lines) + "\n"
    print(text)
    if a.out:
        open(a.out, "w").write(text)


if __name__ == "__main__":
    main()
