#!/usr/bin/env python3
"""W6 on two GPUs against one, for braze and for its peers, in the same interleaved
rounds: what the tensor-parallel FFN gives each system at the power limit.

    python3 bench/sharded/gpu/peer_tp.py LIBDIR [--rounds N] [--out FILE] [--variants A,B]
                                         [--sample-ms MS]
                                         (nvidia-h100-x2)

LIBDIR holds G6.tp1.so and G6.tp2.so as bench/sharded/gpu/prepare.sh builds them. The
peers run the same FFN (bench.py's ffn_partial: rms_norm in f32, silu(h Wg) * (h Wu),
the down projection, the residual) with Megatron's split on two GPUs, as a user of
torch.distributed writes it: each rank holds its columns of Wg and Wu and its rows of
Wd, computes its partial product and sums it with an all_reduce (torch.distributed's
functional all_reduce, which torch.compile traces into its graph and schedules), then
adds the residual. Three systems: braze (the libraries), torch eager, torch.compile
(default mode); --variants adds other braze builds of the same file, each a pair
LIBDIR/NAME.tp1.so and NAME.tp2.so (G6-tp.mlir compiled with another pipeline). One
process per GPU, NCCL underneath all of them.

Each round takes, for every system in turn, a one-GPU sample on rank 0 and then a
two-GPU sample on both ranks (the slower rank's), back to back, as bench.py's rounds
do (bench.py's time_ms: 100 ms of warm-up calls, then CUDA events around at least 20
calls and 50 ms; --sample-ms MS times MS of calls instead, after 300 ms of warm-up, so
that a card stays at its limit for seconds, as energy.py's samples do); the system
that starts a round rotates. The speedup of a system is the
ratio of its medians. Every two-GPU result is compared with the same system's
one-GPU result norm-wise (bf16 bound 2e-2) and both ranks' results must be equal."""
import argparse
import os
import sys

import torch
import torch.distributed as dist

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench  # noqa: E402  (bench.py's inputs, pieces, samples and braze calls)

RANKS = bench.RANKS


def ffn_tp(x, g, wg, wu, wd):
    import torch.distributed._functional_collectives as funcol
    return x + funcol.all_reduce(bench.ffn_partial(x, g, wg, wu, wd), "sum", dist.group.WORLD)


def ffn_one(x, g, wg, wu, wd):
    return x + bench.ffn_partial(x, g, wg, wu, wd)


def braze_fns(libdir, stem, rank, ids):
    """braze's one-GPU call (rank 0) and its two-GPU call, with their outputs (each
    call's last tensor), and the two-GPU library."""
    one = bench.one_gpu_call(bench.load(os.path.join(libdir, stem + ".tp1.so")), "G6") if rank == 0 else None
    lib2 = bench.load(os.path.join(libdir, stem + ".tp2.so"))
    two = bench.two_gpu_call(lib2, "G6", rank, ids)
    return (one, lambda: one.tensors[-1]), (two, lambda: two.tensors[-1]), lib2


def torch_fns(rank, compiled):
    """A torch system's one-GPU call (rank 0) and its two-GPU call; each call keeps its
    result for the check."""
    glob = bench.inputs_for("G6")
    mine = [bench.piece(t, d, rank, RANKS) for t, d in zip(glob, bench.SPECS["G6"][1])]
    f1, f2 = (torch.compile(ffn_one), torch.compile(ffn_tp)) if compiled else (ffn_one, ffn_tp)
    res = {}

    def run(key, f, ins):
        def call():
            res[key] = f(*ins)
        return call
    one = run(1, f1, glob) if rank == 0 else None
    return (one, lambda: res.get(1)), (run(2, f2, mine), lambda: res.get(2))


def sampler(sample_ms):
    """bench.py's time_ms, or with `sample_ms` that many ms of calls after 300 ms of warm-up."""
    if not sample_ms:
        return bench.time_ms
    return lambda fn, barrier=None: bench.events_ms(fn, bench.warmed_up(fn, barrier, 300.0, sample_ms, bench.CALLS))


def worker(rank, libdir, rounds, variants, sample_ms, ids, results):
    torch.cuda.set_device(rank)
    os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT="29534")
    dist.init_process_group("nccl", rank=rank, world_size=RANKS, device_id=torch.device("cuda", rank))
    fns, libs = {}, []
    for stem in ("G6",) + variants:
        b1, b2, lib2 = braze_fns(libdir, stem, rank, ids)
        fns["braze" if stem == "G6" else "braze " + stem] = (b1, b2)
        libs.append(lib2)
    fns["torch eager"], fns["torch.compile"] = torch_fns(rank, False), torch_fns(rank, True)
    systems = tuple(fns)
    time_ms = sampler(sample_ms)
    rep = {"rank": rank, "card": torch.cuda.get_device_name(rank), "systems": systems, "sample_ms": sample_ms}
    for s, ((one, _), (two, _)) in fns.items():  # compile and warm each system once, both sides
        if one:
            one()
        dist.barrier()
        two()
        torch.cuda.synchronize()
        dist.barrier()
    t1 = {s: [] for s in systems}
    t2 = {s: [] for s in systems}
    for i in range(rounds):
        for k in range(len(systems)):
            s = systems[(i + k) % len(systems)]
            (one, _), (two, _) = fns[s]
            dist.barrier()
            if one:
                t1[s].append(time_ms(one))
            dist.barrier()
            t2[s].append(time_ms(two, dist.barrier))
            print("round %d %s rank %d: %s / %.3f ms, card: %s" % (
                i, s, rank, "%.3f" % t1[s][-1] if one else "-", t2[s][-1], bench.card_state()), flush=True)
    rep["t1"], rep["t2"] = t1, t2
    for s, ((one, got1), (two, got2)) in fns.items():  # the checks: each system against itself on one GPU
        if one:
            one()
        two()
        torch.cuda.synchronize()
        y2 = got2().clone()
        other = y2.clone()
        dist.broadcast(other, 1)
        rep[s + " replicas equal"] = bool(torch.equal(other.view(torch.int16), y2.view(torch.int16)))
        if rank == 0:
            want = got1().float()
            rep[s + " norm err"] = float((y2.float() - want).norm() / want.norm())
            rep[s + " nan"] = bool(torch.isnan(y2).any())
    for lib2 in libs:
        lib2.braze_cuda_mesh_finalize()
    results.put(rep)
    dist.destroy_process_group()


def table(reps):
    r0 = reps[0]
    n = len(r0["t1"]["braze"])
    samples = ("%.0f ms of calls after 300 ms of warm-up" % r0["sample_ms"] if r0["sample_ms"]
               else "bench.py's samples")
    lines = ["card: %s x %d; W6 (8192 tokens, d 4096, d_ff 11008, bf16), %d interleaved rounds back to back; "
             "times in ms (%s: CUDA events, slower rank)" % (r0["card"], RANKS, n, samples), "",
             "| system | 1 GPU median (min-max) | 2 GPUs median (min-max) | speedup (of medians) | "
             "per round min-max | norm err vs its 1 GPU | replicas equal |", "|---|---|---|---|---|---|---|"]
    for s in r0["systems"]:
        one = r0["t1"][s]
        two = [max(r["t2"][s][i] for r in reps) for i in range(n)]
        per = [a / b for a, b in zip(one, two)]
        m1, m2 = bench.median(one), bench.median(two)
        lines.append("| %s | %.3f (%.3f-%.3f) | %.3f (%.3f-%.3f) | **%.2fx** | %.2fx-%.2fx | %.2g | %s |" % (
            s, m1, min(one), max(one), m2, min(two), max(two), m1 / m2, min(per), max(per), r0[s + " norm err"],
            all(r[s + " replicas equal"] for r in reps)))
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("libdir")
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--out")
    ap.add_argument("--variants", default="",
                    help="other braze builds in LIBDIR (NAME.tp1.so, NAME.tp2.so), comma-separated")
    ap.add_argument("--sample-ms", type=float, default=0.0,
                    help="ms of calls per sample after 300 ms of warm-up (default: bench.py's samples)")
    a = ap.parse_args()
    reps = bench.run_ranks(worker, a.libdir, a.rounds, tuple(v for v in a.variants.split(",") if v), a.sample_ms)
    text = table(reps)
    print(text)
    if a.out:
        open(a.out, "w").write(text)
    r0 = reps[0]
    ok = all(r0[s + " norm err"] <= 2e-2 and not r0[s + " nan"] and all(r[s + " replicas equal"] for r in reps)
             for s in r0["systems"])
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
