#!/usr/bin/env python3
"""braze on two GPUs against braze on one, run on the 2-GPU machine (PyTorch; no MLIR,
no braze): one process per GPU, as torchrun runs a program.

    python3 bench/sharded/gpu/bench.py LIBDIR [--out FILE] [--kernels FILE] [--rounds N]
                                       [--cooldown S] [--few]

LIBDIR holds what bench/sharded/gpu/prepare.sh built: G6 and G7 compiled from one graph
file each for one device (NAME.tp1.so) and for one rank of two (NAME.tp2.so), and
all-reduce.so (G6's all_reduce alone, and one of 1 GiB). Rank 0 first times the
one-GPU libraries (and torch eager, for scale) while rank 1 waits; then both ranks join
each two-GPU library's mesh (braze_cuda_mesh_init_rank, rank 0's ncclUniqueId) and time
it on their pieces of the same global inputs (seed 0, random normal, weights scaled by
1/sqrt(fan-in)). A time is a sample: CUDA events around back-to-back calls (at least
CALLS and SAMPLE_MS of them) after WARM_MS of warm-up calls (each rank's mean per call;
the table shows the slower rank), after a barrier; on a mesh every rank makes the same
number of calls. The
two-GPU result, assembled, is compared with the one-GPU result (bf16: max elementwise
relative error as `braze check` computes it, bound 5e-2, and the norm-wise error).
Communication: G6's all_reduce alone (64 MiB) in braze's library; compute is G6's
two-GPU time minus it (nothing overlaps it: the residual add needs the sum). Bus
bandwidth of an all_reduce over n ranks: bytes / time * 2 (n - 1) / n; NCCL's own
figure is torch.distributed's all_reduce of the same 1 GiB.

G6 on two GPUs is compiled with the default pipeline, whose shard-fold-add moves the
residual add into the partial sums (each rank adds x / 2 in the down projection's
epilogue) and whose shard-chunk splits its
tokens into two chunks, 6144 and 2048 rows (the first all_reduce overlapping the
second chunk's compute); the
variants (two GPUs only, VARIANTS) are the same file with shard-chunk's options
changed: G6k1 has no chunks (the program before shard-chunk), G6k2/G6k4 two and four
even chunks, G6t* other last-share=, G6s* explicit sizes, G6nf and G6k1nf the default
and G6k1 without shard-fold-add. Each chunked library is also timed with
BRAZE_CUDA_OVERLAP=0 (every all_reduce on the entry's stream: compute plus the
all_reduces in series). --kernels FILE writes each rank's per-kernel GPU times
(torch.profiler, NCCL's kernels included) of the libraries in PROFILE.

The acceptance figures (W6 = G6, W7 = G7) come from --rounds N (default 11) interleaved
rounds at the end: a one-GPU sample on rank 0, then a two-GPU sample on both ranks,
alternating, so that a drift of the cards' clocks during the run moves both sides; the
speedup is the ratio of the medians, shown with the range of the rounds' own ratios (a
single sample of each side, as the first table has, moved by 3-6% between runs on one
machine; the first table's two-GPU samples also run in a fixed order, the first of them
right after the one-GPU samples, so compare variants in the rounds). The rounds of G6
also time PAIRED_ALSO's variants against the same one-GPU samples, each round starting
with the next library so that none is always the first after the one-GPU sample.
--few times only FEW of the variants outside the rounds. The rounds run in two regimes.
Back to back: one sample right after the other; on H100s rank 0 then runs at its 700 W
power limit (SM clock 1.3-1.5 GHz) through both of its samples while rank 1 comes to each two-GPU sample from idle (1.6-1.8 GHz),
so the two-GPU time is rank 0's power-limited one. From idle (--cooldown S, default
1.5): both cards idle S seconds before every sample, so that each sample starts from
the same state. The log gives each sample's SM clock, power and temperature."""
import argparse
import ctypes
import math
import os
import sys
import time

import torch
import torch.distributed as dist

RANKS = 2
CALLS = 20  # at least this many timed calls per sample, and at least SAMPLE_MS of them
WARM_MS = 100.0  # warm-up calls before each sample, by time
SAMPLE_MS = 50.0
COOLDOWN_S = 1.5  # --cooldown: the from-idle rounds' idle time before each sample
ROUNDS = 11  # --rounds: interleaved one-GPU / two-GPU samples of the acceptance workloads
PAIRED = ("G6", "G7")  # the W6 and W7: their speedup from the interleaved rounds
BF16 = torch.bfloat16
G6_INPUTS = ([(8192, 4096), (4096,), (4096, 11008), (4096, 11008), (11008, 4096)], [-1, -1, 1, 1, 0], -1)
SPECS = {
    # library stem: (global input shapes, split dim per input over tp (-1 replicated), result split dim)
    "G6": G6_INPUTS,
    "G6c": G6_INPUTS,  # G6-tp-chunk4.mlir: G6 in four token chunks, entry @G6
    "G7": ([(64, 2048, 128)] * 3, [0, 0, 0], 0),
}
# two-GPU-only builds of G6-tp.mlir with shard-chunk's options changed (prepare.sh)
VARIANTS = {"G6k1": "chunks=1: no chunks", "G6k2": "chunks=2 last-share=0: even",
            "G6k4": "chunks=4 last-share=0: even",
            "G6t19": "chunks=2 last-share=19: 6656+1536 rows, 16 pieces",
            "G6t19w": "chunks=2 last-share=19 pieces=1: the concat a copy",
            "G6t12": "chunks=2 last-share=12: 7168+1024 rows, 8 pieces",
            "G6s5888": "sizes=5888,2304: the concat a copy", "G6s3": "sizes=6656,1024,512: 16 pieces",
            "G6nf": "no shard-fold-add: the residual add after the all_reduces",
            "G6k1nf": "chunks=1, no shard-fold-add",
            "G6s3b": "sizes=6144,1536,512"}
# other two-GPU libraries in the interleaved rounds of a paired workload (against the
# same one-GPU samples; each round starts with the next of them)
PAIRED_ALSO = {"G6": ("G6t12", "G6s3b")}
for v in VARIANTS:
    SPECS[v] = G6_INPUTS
ONE_GPU = ("G6", "G6c", "G7")  # those with a NAME.tp1.so
ENTRY = {k: "G7" if k == "G7" else "G6" for k in SPECS}
FLOPS = {k: 2 * 2 * 64 * 2048 * 2048 * 128 if k == "G7" else 2 * 8192 * 4096 * 11008 * 3 for k in SPECS}
# the one-GPU result each two-GPU result is compared with (G6c, variants: the unchunked G6's)
REFERENCE = {k: "G7" if k == "G7" else "G6" for k in SPECS}
FEW = ("G6k1", "G6t12", "G6s3b")  # --few: the variants kept (G6k1 for the communication table)
CHUNKED = [k for k in SPECS if k.startswith("G6") and not k.startswith("G6k1")]  # also timed with BRAZE_CUDA_OVERLAP=0
PROFILE = ("G6k1", "G6", "G6nf")


def inputs_for(name):
    g = torch.Generator(device="cuda").manual_seed(0)
    out = []
    for i, shape in enumerate(SPECS[name][0]):
        t = torch.randn(shape, generator=g, device="cuda", dtype=torch.float32)
        if name.startswith("G6") and i >= 2:
            t = t / math.sqrt(shape[0])
        out.append(t.to(BF16).contiguous())
    return out


def piece(t, dim, rank, ranks):
    return t if dim < 0 or ranks == 1 else t.chunk(ranks, dim)[rank].contiguous()


def ffn_partial(x, g, wg, wu, wd):
    """W6 before its residual: rms_norm in f32, silu(h Wg) * (h Wu), the down projection;
    on a rank of two, that rank's share of the sum (its columns of Wg and Wu, its rows
    of Wd)."""
    xf = x.float()
    h = (xf * torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + 1e-6) * g.float()).to(BF16)
    return (torch.nn.functional.silu(h @ wg) * (h @ wu)) @ wd


def torch_ref(name, ins):
    if name.startswith("G6"):
        return ins[0] + ffn_partial(*ins)
    q, k, v = ins
    s = (q @ k.transpose(1, 2)) * (1.0 / math.sqrt(q.shape[-1]))
    return torch.softmax(s.float(), dim=-1).to(BF16) @ v


def median(v):
    """The middle of `v` (the upper one of an even count), as the rounds' figures take it."""
    return sorted(v)[len(v) // 2]


def events_ms(fn, calls):
    """Mean ms per call of `calls` back-to-back calls, by CUDA events."""
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(calls):
        fn()
    end.record()
    torch.cuda.synchronize()
    return start.elapsed_time(end) / calls


def calls_to_fill(ms_per_call, ms, on_all_ranks):
    """Calls that take `ms` at `ms_per_call`; with a mesh, the most any rank needs (its
    collectives need every rank to make the same number of calls)."""
    n = max(1, math.ceil(ms / max(ms_per_call, 1e-3)))
    if on_all_ranks:
        t = torch.tensor([n], device="cuda")
        dist.all_reduce(t, op=dist.ReduceOp.MAX)
        n = int(t.item())
    return n


def time_ms(fn, barrier=None):
    """A sample: a pilot of 3 calls, WARM_MS of warm-up calls (as triton's do_bench
    warms up by time: a card that sat idle, as rank 1 does during a one-GPU sample,
    runs at lower clocks until it has been busy a while), then CUDA events around at
    least CALLS calls and SAMPLE_MS of them; with `barrier` (a mesh) every rank makes
    the same number of calls and starts the timed ones together."""
    return events_ms(fn, warmed_up(fn, barrier, WARM_MS, SAMPLE_MS, CALLS))


def warmed_up(fn, barrier, warm_ms, sample_ms, least):
    """A sample's start: a pilot of 3 calls, warm_ms of calls, the GPU idle and (with
    `barrier`) every rank met; returns how many calls to time: at least `least` and
    sample_ms of them, the same on every rank of a mesh."""
    pilot = events_ms(fn, 3)
    warm = calls_to_fill(pilot, warm_ms, barrier is not None)
    timed = max(least, calls_to_fill(pilot, sample_ms, barrier is not None))
    for _ in range(warm):
        fn()
    torch.cuda.synchronize()
    if barrier:
        barrier()
    return timed


def entry(lib, name):
    fn = getattr(lib, name)
    fn.restype = ctypes.c_int
    return fn


def braze_call(lib, fn, tensors):
    """The entry `fn` called on `tensors`' device pointers. The call holds the tensors: a
    caller that keeps only the call (an output made in the argument list, two_gpu_call's
    pieces) must not leave the library writing into memory the caching allocator has
    handed to other tensors."""
    args = [ctypes.c_void_p(t.data_ptr()) for t in tensors]

    def call():
        if fn(*args) != 0:
            raise RuntimeError(lib.braze_cuda_last_error().decode())
    call.tensors = tensors
    return call


def load(path):
    lib = ctypes.CDLL(path)
    lib.braze_cuda_last_error.restype = ctypes.c_char_p
    return lib


def join_mesh(lib, rank, ids):
    uid = ctypes.create_string_buffer(128)
    if rank == 0:
        if lib.braze_cuda_mesh_unique_id(uid) != 0:
            raise RuntimeError(lib.braze_cuda_last_error().decode())
        for _ in range(RANKS - 1):
            ids.put(uid.raw)
    else:
        uid = ctypes.create_string_buffer(ids.get(), 128)
    if lib.braze_cuda_mesh_init_rank(uid, rank) != 0:
        raise RuntimeError(lib.braze_cuda_last_error().decode())


def kernel_table(run, barrier, calls=10):
    """Each kernel's GPU time per call under torch.profiler (CUPTI), largest first."""
    from torch.profiler import ProfilerActivity, profile
    run()
    torch.cuda.synchronize()
    barrier()
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(calls):
            run()
        torch.cuda.synchronize()
    rows = sorted(((e.key, e.device_time_total, e.count) for e in prof.key_averages() if e.device_time_total > 0),
                  key=lambda r: -r[1])
    total = sum(r[1] for r in rows)
    lines = ["  sum of kernel times %.3f ms per call (overlapping kernels both count)" % (total / calls / 1e3)]
    lines += ["  %8.3f ms  x%-3d %s" % (t / calls / 1e3, n // calls, k[:90]) for k, t, n in rows]
    return "\n".join(lines)


def one_gpu_call(lib, name):
    """The tp1 library's entry on the global inputs (its result, of the first input's
    shape for G6 and G7, is the call's last tensor)."""
    ins = inputs_for(name)
    return braze_call(lib, entry(lib, ENTRY[name]), ins + [torch.empty_like(ins[0])])


def two_gpu_call(lib, name, rank, ids):
    """The tp2 library's entry on this rank's pieces of the global inputs (the mesh
    joined; its result is the call's last tensor)."""
    join_mesh(lib, rank, ids)
    glob = inputs_for(name)
    ins = [piece(t, d, rank, RANKS) for t, d in zip(glob, SPECS[name][1])]
    shape = list(SPECS[name][0][0])
    if SPECS[name][2] >= 0:
        shape[SPECS[name][2]] //= RANKS
    out = torch.full(shape, float("nan"), dtype=BF16, device="cuda")
    return braze_call(lib, entry(lib, ENTRY[name]), ins + [out])


def card_state():
    """The card's SM clock, power draw and temperature now (NVML through torch), to see
    what a slow round ran at; read only, the settings stay as they are."""
    try:
        return "%d MHz, %.0f W, %d C" % (torch.cuda.clock_rate(), torch.cuda.power_draw() / 1e3,
                                          torch.cuda.temperature())
    except Exception as e:  # no NVML bindings: the times stand alone
        return "unknown (%s)" % type(e).__name__


def idle(seconds):
    """Both ranks wait, their cards idle, for `seconds`, then meet."""
    torch.cuda.synchronize()
    dist.barrier()
    time.sleep(seconds)
    dist.barrier()


def paired_rounds(rank, libdir, ids, name, rounds, cooldown):
    """One-GPU and two-GPU samples of `name` alternating, `rounds` of each: a clock or
    power state that drifts during the run moves both sides alike, and the medians
    leave out a round that caught a hiccup. Each sample is a time_ms sample. With
    `cooldown` > 0 both cards sit idle that many seconds before every sample, so that
    each starts from the same state: without it, rank 0 carries the power limit its
    one-GPU sample reached (700 W on an H100, the SM clock down to 1.3-1.5 GHz) into
    the two-GPU sample, while rank 1 comes to it from idle."""
    one = None
    if rank == 0:
        one = one_gpu_call(load(os.path.join(libdir, name + ".tp1.so")), name)
    names = (name,) + PAIRED_ALSO.get(name, ())
    libs = [load(os.path.join(libdir, n + ".tp2.so")) for n in names]
    twos = [two_gpu_call(lib, n, rank, ids) for lib, n in zip(libs, names)]
    t1, t2 = [], {n: [] for n in names}
    for i in range(rounds):
        idle(cooldown)
        if one:
            t1.append(time_ms(one))
            print("%s round %d rank 0: 1 GPU %.3f ms, card after it: %s" % (name, i, t1[-1], card_state()), flush=True)
        for k in range(len(names)):  # each round starts with the next library: none always comes first
            n, two = names[(i + k) % len(names)], twos[(i + k) % len(names)]
            idle(cooldown)
            t2[n].append(time_ms(two, dist.barrier))
            print("%s round %d rank %d: 2 GPUs %.3f ms, card after it: %s" % (n, i, rank, t2[n][-1], card_state()),
                  flush=True)
    for lib in libs:
        lib.braze_cuda_mesh_finalize()
    torch.cuda.empty_cache()
    return t1, t2


def regimes(cooldown_s):
    """The rounds' regimes: back to back, and (--cooldown > 0) each sample from idle."""
    return [("back to back", 0.0)] + ([("from idle", cooldown_s)] if cooldown_s > 0 else [])


def worker(rank, libdir, profile_kernels, rounds, cooldown_s, few, ids, results):
    torch.cuda.set_device(rank)
    os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT="29533")
    dist.init_process_group("nccl", rank=rank, world_size=RANKS, device_id=torch.device("cuda", rank))
    rep = {"rank": rank, "card": torch.cuda.get_device_name(rank)}
    kernels = [] if profile_kernels else None
    one = {}
    if rank == 0:  # one GPU: the tp1 libraries, torch eager for scale
        for name in ONE_GPU:
            lib = load(os.path.join(libdir, name + ".tp1.so"))
            ins = inputs_for(name)
            out = torch.full_like(torch_ref(name, ins), float("nan"))
            call = braze_call(lib, entry(lib, ENTRY[name]), ins + [out])
            rep[name + " 1gpu"] = time_ms(call)
            rep[name + " torch 1gpu"] = time_ms(lambda: torch_ref(name, ins)) if name == REFERENCE[name] else float("nan")
            one[name] = out.clone()
            del ins, out, call  # the call holds its tensors
            torch.cuda.empty_cache()
    dist.barrier()
    for name in [n for n in SPECS if not (few and n in VARIANTS and n not in FEW)]:  # two GPUs: the tp2 libraries
        lib = load(os.path.join(libdir, name + ".tp2.so"))
        join_mesh(lib, rank, ids)
        glob = inputs_for(name)
        splits, out_dim = SPECS[name][1], SPECS[name][2]
        ins = [piece(t, d, rank, RANKS) for t, d in zip(glob, splits)]
        del glob
        shape = list(SPECS[name][0][0])
        if out_dim >= 0:
            shape[out_dim] //= RANKS
        out = torch.full(shape, float("nan"), dtype=BF16, device="cuda")
        call = braze_call(lib, entry(lib, ENTRY[name]), ins + [out])
        rep[name + " 2gpu"] = time_ms(call, dist.barrier)
        if name in CHUNKED:  # the same without the overlap: every all_reduce on the entry's stream
            os.environ["BRAZE_CUDA_OVERLAP"] = "0"
            rep[name + " serial 2gpu"] = time_ms(call, dist.barrier)
            del os.environ["BRAZE_CUDA_OVERLAP"]
        if kernels is not None and name in PROFILE:
            kernels.append("rank %d, %s (%s):\n%s" % (rank, name, VARIANTS.get(name, "default pipeline"),
                                                     kernel_table(call, dist.barrier)))
        out.fill_(float("nan"))
        call()
        torch.cuda.synchronize()
        if out_dim >= 0:
            parts = [torch.empty_like(out) for _ in range(RANKS)]
            dist.all_gather(parts, out)
            full = torch.cat(parts, out_dim)
        else:
            other = out.clone()
            dist.broadcast(other, 1)
            rep[name + " replicas equal"] = bool(torch.equal(other.view(torch.int16), out.view(torch.int16)))
            full = out
        if rank == 0:
            want, got = one[REFERENCE[name]].float(), full.float()
            scale = want.abs().max()
            denom = torch.maximum(want.abs(), 1e-2 * scale)
            rep[name + " max rel err"] = float(((got - want).abs() / denom).max())
            rep[name + " norm err"] = float((got - want).norm() / want.norm())
            rep[name + " nan"] = bool(torch.isnan(got).any())
        lib.braze_cuda_mesh_finalize()
        del ins, out, full, call
        torch.cuda.empty_cache()
    rep["cooldown"] = cooldown_s
    for regime, cooldown in regimes(cooldown_s):
        for name in PAIRED:
            key = "%s rounds %s " % (name, regime)
            rep[key + "1gpu"], twos = paired_rounds(rank, libdir, ids, name, rounds, cooldown)
            for n, t in twos.items():
                rep["%s rounds %s 2gpu" % (n, regime)] = t
    # communication: braze's all_reduce alone (G6's 64 MiB, and 1 GiB) and torch.distributed's
    lib = load(os.path.join(libdir, "all-reduce.so"))
    join_mesh(lib, rank, ids)
    for name, shape in (("ar64m", (8192, 4096)), ("ar1g", (32768, 16384))):
        x = torch.randn(shape, device="cuda").to(BF16)
        y = torch.empty_like(x)
        rep[name] = time_ms(braze_call(lib, entry(lib, name), [x, y]), dist.barrier)
        if name == "ar1g":
            rep["ar1g torch"] = time_ms(lambda: dist.all_reduce(x), dist.barrier)
        else:  # the sum itself: rank r contributes r + 1 everywhere
            x.fill_(rank + 1)
            braze_call(lib, entry(lib, name), [x, y])()
            torch.cuda.synchronize()
            rep["ar64m sum right"] = bool((y == sum(range(1, RANKS + 1))).all())
        del x, y
        torch.cuda.empty_cache()
    lib.braze_cuda_mesh_finalize()
    if kernels is not None:
        rep["kernels"] = "\n".join(kernels)
    results.put(rep)
    dist.destroy_process_group()


def table(reps):
    r0 = reps[0]
    slow = {k: max(r[k] for r in reps) for k in r0 if isinstance(r0[k], float) and (" 2gpu" in k or k.startswith("ar"))}
    lines = ["card: %s x %d; times in ms (CUDA events, the mean of at least %d calls and %.0f ms after %.0f ms of "
             "warm-up, slower rank)" % (r0["card"], RANKS, CALLS, SAMPLE_MS, WARM_MS), "",
             "| workload | 1 GPU braze | 2 GPUs braze | speedup | vs the best 1-GPU braze | torch eager 1 GPU | "
             "TFLOP/s 2 GPUs | max rel err vs 1 GPU | norm err |",
             "|---|---|---|---|---|---|---|---|---|"]
    for name in [n for n in SPECS if n + " 2gpu" in slow]:  # --few leaves variants out
        t1, t2 = r0.get(name + " 1gpu"), slow[name + " 2gpu"]
        best = min(r0[k + " 1gpu"] for k in ONE_GPU if REFERENCE[k] == REFERENCE[name])
        label = name + (" (%s)" % VARIANTS[name] if name in VARIANTS else "")
        lines.append("| %s | %s | %.3f | %s | %.2fx | %s | %.0f | %.3g | %.3g |" % (
            label, "%.3f" % t1 if t1 else "", t2, "%.2fx" % (t1 / t2) if t1 else "", best / t2,
            "%.3f" % r0[name + " torch 1gpu"] if name in ONE_GPU else "", FLOPS[name] / t2 / 1e9,
            r0[name + " max rel err"], r0[name + " norm err"]))
    best6 = min(r0["G6 1gpu"], r0["G6c 1gpu"])
    lines += ["", "| chunked G6 with BRAZE_CUDA_OVERLAP=0 (all_reduces on the entry's stream) | 2 GPUs ms | "
              "vs the best 1-GPU braze | overlap gain ms |", "|---|---|---|---|"]
    for name in [n for n in CHUNKED if n + " serial 2gpu" in slow]:
        ser = slow[name + " serial 2gpu"]
        lines.append("| %s | %.3f | %.2fx | %.3f |" % (name, ser, best6 / ser, ser - slow[name + " 2gpu"]))
    ar, g6 = slow["ar64m"], slow["G6k1 2gpu"]
    bus = lambda nbytes, ms: nbytes / (ms * 1e-3) * 2 * (RANKS - 1) / RANKS / 1e9
    lines += ["", "| G6 unchunked (G6k1) on 2 GPUs | ms | |", "|---|---|---|",
              "| total | %.3f | |" % g6,
              "| communication: its all_reduce alone (64 MiB bf16) | %.3f | bus bandwidth %.0f GB/s |" % (ar, bus(64 << 20, ar)),
              "| compute (total - communication) | %.3f | |" % (g6 - ar),
              "| all_reduce 1 GiB bf16, braze (NCCL through the library) | %.3f | bus bandwidth %.0f GB/s |" % (
                  slow["ar1g"], bus(1 << 30, slow["ar1g"])),
              "| all_reduce 1 GiB bf16, torch.distributed (NCCL's own) | %.3f | bus bandwidth %.0f GB/s |" % (
                  slow["ar1g torch"], bus(1 << 30, slow["ar1g torch"]))]
    lines += ["", "Interleaved rounds (%d): a one-GPU sample (rank 0 alone) then a two-GPU sample (both ranks, the "
              "slower), each a sample (%.0f ms of warm-up calls, then the mean of at least %d calls and %.0f ms); the "
              "speedup is the ratio of the medians, with the range of the rounds' own ratios. Back to back: rank 0 "
              "carries the power limit its one-GPU sample reached into the two-GPU sample (the log has each "
              "sample's clock and power). From idle: both cards idle %.1f s before every sample" % (
                  len(r0["G6 rounds back to back 2gpu"]), WARM_MS, CALLS, SAMPLE_MS, r0["cooldown"]), "",
              "| workload | rounds | 1 GPU median ms (min-max) | 2 GPUs median ms (min-max) | speedup (of medians) | "
              "speedup per round, min-max |", "|---|---|---|---|---|---|"]
    for regime, _ in regimes(r0["cooldown"]):
        for paired in PAIRED:
            one = r0["%s rounds %s 1gpu" % (paired, regime)]
            for name in (paired,) + PAIRED_ALSO.get(paired, ()):
                key = "%s rounds %s " % (name, regime)
                two = [max(r[key + "2gpu"][i] for r in reps) for i in range(len(one))]
                per = [a / b for a, b in zip(one, two)]
                lines.append("| %s | %s | %.3f (%.3f-%.3f) | %.3f (%.3f-%.3f) | **%.2fx** | %.2fx-%.2fx |" % (
                    name, regime, median(one), min(one), max(one), median(two), min(two), max(two),
                    median(one) / median(two), min(per), max(per)))
    checks = ["replicated results bit-identical on both ranks: %s; NaN in a result: %s; braze's all_reduce sums "
              "right: %s" % ({k: r0.get(k + " replicas equal") for k in SPECS if SPECS[k][2] < 0},
                             {k: r0.get(k + " nan") for k in SPECS}, all(r.get("ar64m sum right") for r in reps))]
    return "\n".join(lines + [""] + checks) + "\n"


def run_ranks(worker, *args):
    """Runs worker(rank, *args, ids, results) in one spawned process per rank (as torchrun
    would: `ids` carries rank 0's ncclUniqueId to the others) and returns the dicts the
    ranks put in `results`, by their "rank"."""
    import multiprocessing as mp

    ctx = mp.get_context("spawn")
    ids, results = ctx.Queue(), ctx.Queue()
    procs = [ctx.Process(target=worker, args=(r,) + args + (ids, results)) for r in range(RANKS)]
    for p in procs:
        p.start()
    got = [results.get(timeout=580) for _ in range(RANKS)]
    for p in procs:
        p.join()
    return sorted(got, key=lambda r: r["rank"])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("libdir")
    ap.add_argument("--out")
    ap.add_argument("--kernels", help="write per-kernel GPU times of the libraries in PROFILE here")
    ap.add_argument("--rounds", type=int, default=ROUNDS, help="interleaved rounds of G6 and G7 (default %d)" % ROUNDS)
    ap.add_argument("--cooldown", type=float, default=COOLDOWN_S,
                    help="seconds both cards idle before each sample of the from-idle rounds (0: none; default %.1f)"
                    % COOLDOWN_S)
    ap.add_argument("--few", action="store_true", help="of the variants only %s" % ", ".join(FEW))
    a = ap.parse_args()
    reps = run_ranks(worker, a.libdir, bool(a.kernels), a.rounds, a.cooldown, a.few)
    text = table(reps)
    print(text)
    if a.out:
        open(a.out, "w").write(text)
    if a.kernels:
        open(a.kernels, "w").write("\n\n".join(r.get("kernels", "") for r in reps) + "\n")
    # G7 splits no contraction: the two-GPU result must match elementwise; G6 splits the
    # down projection's K, each rank's partial rounded to bf16 before the sum
    # (docs/sharding.md "Precision"): norm-wise, test/gpu/run.py's bf16 bound
    r0 = reps[0]
    timed = [k for k in SPECS if k + " norm err" in r0]  # --few leaves variants out
    ok = r0["G7 max rel err"] <= 5e-2 and all(r0[k + " norm err"] <= 2e-2 and not r0[k + " nan"] for k in timed)
    replicas = all(r0[k + " replicas equal"] for k in timed if SPECS[k][2] < 0)
    return 0 if ok and replicas and all(r.get("ar64m sum right") for r in reps) else 1


if __name__ == "__main__":
    sys.exit(main())
