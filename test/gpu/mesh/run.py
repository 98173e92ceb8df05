#!/usr/bin/env python3
"""The 2-GPU mesh cases, run on the 2-GPU machine (PyTorch, numpy; no MLIR, no braze):
every case test/gpu/mesh/prepare.sh built is run as one process per GPU (the way
torchrun runs a program), each loading the case's library (one rank's program) and
joining the mesh with braze_cuda_mesh_init_rank (rank 0 makes the ncclUniqueId with
braze_cuda_mesh_unique_id and shares it). Each rank gets its piece of the global inputs
(split.txt: the dim each argument is split along, -1 replicated), its outputs are
poisoned (0xFF) before the call, and the results are assembled (a split result
concatenated in rank order; a replicated one must be the same bits on both ranks) and
compared with the reference interpreter's outputs of the unpartitioned function with
test/gpu/run.py's metric and bounds (f32 1e-4, bf16 5e-2; norm-wise where
metric.txt says so). Also checked: an entry called before the init returns 1.

    python3 test/gpu/mesh/run.py CASEDIR

Prints a table and `N passed, N failed`; exits 1 when anything failed."""
import ctypes
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from run import BOUNDS, NORM_BOUNDS, kind_of, load_npys, norm_error, rel_error  # noqa: E402

RANKS = 2


def read_split(d):
    args, results = open(os.path.join(d, "split.txt")).read().split(";")
    return [int(s) for s in args.split()], [int(s) for s in results.split()]


def piece(arr, dim, rank):
    return arr if dim < 0 else np.split(arr, RANKS, axis=dim)[rank]


def worker(rank, casedir, ids, results):
    import torch

    torch.cuda.set_device(rank)
    torch.zeros(1, device="cuda")  # the primary context, current on this thread
    for stem in sorted(os.listdir(casedir)):
        case = os.path.join(casedir, stem)
        so = os.path.join(case, "lib.so")
        if not os.path.isdir(case) or not os.path.exists(so):
            continue
        lib = ctypes.CDLL(so)
        lib.braze_cuda_last_error.restype = ctypes.c_char_p
        entries = sorted(e for e in os.listdir(case) if os.path.isdir(os.path.join(case, e)))
        report = {"stem": stem, "rank": rank, "entries": {}, "errors": []}

        def call(name, d, before_init=False):
            ins, wants = load_npys(d, "in"), load_npys(d, "out")
            splits_in, splits_out = read_split(d)
            dev_in = [torch.from_numpy(np.ascontiguousarray(piece(a, s, rank)).view(np.uint8).reshape(-1).copy()).cuda()
                      for a, s in zip(ins, splits_in)]
            shapes = [piece(w, s, rank).shape for w, s in zip(wants, splits_out)]
            dev_out = [torch.full((int(np.prod(sh)) * w.itemsize,), 0xFF, dtype=torch.uint8, device="cuda")
                       for sh, w in zip(shapes, wants)]
            fn = getattr(lib, name)
            rc = fn(*[ctypes.c_void_p(t.data_ptr()) for t in dev_in + dev_out])
            torch.cuda.synchronize()
            if rc != 0:
                return "returned %d: %s" % (rc, lib.braze_cuda_last_error().decode())
            return [t.cpu().numpy().view(w.dtype).reshape(sh) for t, w, sh in zip(dev_out, wants, shapes)]

        first = entries[0]
        early = call(first, os.path.join(case, first))
        report["before_init"] = early if isinstance(early, str) else "returned 0"
        uid = ctypes.create_string_buffer(128)
        if rank == 0:
            if lib.braze_cuda_mesh_unique_id(uid) != 0:
                report["errors"].append("unique_id: " + lib.braze_cuda_last_error().decode())
            for _ in range(RANKS - 1):
                ids.put(uid.raw)
        else:
            uid = ctypes.create_string_buffer(ids.get(), 128)
        if lib.braze_cuda_mesh_init_rank(uid, rank) != 0:
            report["errors"].append("init_rank: " + lib.braze_cuda_last_error().decode())
        else:
            for name in entries:
                report["entries"][name] = call(name, os.path.join(case, name))
            lib.braze_cuda_mesh_finalize()
        results.put(report)


def assemble(pieces, dim):
    """The global result from the ranks' pieces; None when replicas disagree."""
    if dim >= 0:
        return np.concatenate(pieces, axis=dim)
    return pieces[0] if all(np.array_equal(p.view(np.uint8), pieces[0].view(np.uint8)) for p in pieces) else None


def main():
    import multiprocessing as mp

    casedir = sys.argv[1]
    ctx = mp.get_context("spawn")
    ids, results = ctx.Queue(), ctx.Queue()
    procs = [ctx.Process(target=worker, args=(r, casedir, ids, results)) for r in range(RANKS)]
    for p in procs:
        p.start()
    stems = sorted(s for s in os.listdir(casedir) if os.path.exists(os.path.join(casedir, s, "lib.so")))
    reports = {}
    for _ in range(len(stems) * RANKS):
        rep = results.get(timeout=600)
        reports.setdefault(rep["stem"], {})[rep["rank"]] = rep
    for p in procs:
        p.join()
    passed = failed = 0
    print("%-12s %-10s %-5s %-5s %-10s %-10s %s" % ("case", "entry", "out", "dtype", "shape", "rel err", "result"))
    for stem in stems:
        ranks = reports[stem]
        norm = os.path.exists(os.path.join(casedir, stem, "metric.txt"))
        for r in range(RANKS):
            ok = ranks[r]["before_init"].startswith("returned 1") and "braze_cuda_mesh_init" in ranks[r]["before_init"]
            passed += ok
            failed += not ok
            print("%-12s rank %d: an entry before the init: %s%s" % (stem, r, ranks[r]["before_init"][:110],
                                                                    "" if ok else "  FAIL"))
            for e in ranks[r]["errors"]:
                failed += 1
                print("%-12s rank %d: FAIL: %s" % (stem, r, e))
        for name in sorted(ranks[0]["entries"]):
            d = os.path.join(casedir, stem, name)
            got = [ranks[r]["entries"].get(name) for r in range(RANKS)]
            bad = [g for g in got if isinstance(g, str) or g is None]
            if bad:
                failed += 1
                print("%-12s %-10s FAIL: %s" % (stem, name, bad[0]))
                continue
            wants = load_npys(d, "out")
            _, splits_out = read_split(d)
            for o, (w, dim) in enumerate(zip(wants, splits_out)):
                full = assemble([g[o] for g in got], dim)
                kind = kind_of(w, "bf16" if stem.endswith("bf16") else None)
                err = float("inf") if full is None else (norm_error if norm else rel_error)(full, w, kind)
                bound = (NORM_BOUNDS if norm else BOUNDS).get(kind, 0.0)
                ok = err <= bound
                passed += ok
                failed += not ok
                print("%-12s %-10s out%-2d %-5s %-10s %-10.3g %s" % (
                    stem, name, o, kind, "x".join(map(str, w.shape)), err,
                    ("PASS" if ok else "FAIL (bound %g)" % bound) + ("" if full is not None else ": replicas differ")))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
