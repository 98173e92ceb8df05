#!/usr/bin/env python3
"""torch.compile(backend="braze") on a PyTorch 2.x machine without the braze tools: each
model of test/python/Inputs/models.py (and backend.py's Net, which has an op braze does
not take) is compiled through Dynamo with the backend in capture mode, run, and
compared with eager; the backend's partition of each graph is printed (its coverage
line), and every graph Dynamo hands over is recorded under OUTDIR/NAME/graph_N for
`python3 -m braze.dynamo OUTDIR/NAME` where the compiler is (docs/python.md, "Capture").

    PYTHONPATH=python python3 bench/gpu/dynamo_capture.py OUTDIR [--only NAME,...]

Prints one line per model: graphs captured, Dynamo's graph breaks, max relative error of
the compiled module's outputs against eager (the captured graphs run eagerly here)."""
import argparse
import os
import sys

import torch

root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
sys.path.insert(0, os.path.join(root, "test", "python", "Inputs"))
sys.path.insert(0, os.path.join(root, "python"))
import braze.dynamo  # noqa: E402
import braze.fx  # noqa: E402
import models  # noqa: E402

NAMES = ["linear_gelu", "mlp", "encoder_layer", "mha", "gpt2_block", "two_outputs", "cumsum_net"]


def model(name):
    if name == "cumsum_net":
        sys.argv = sys.argv[:1]
        import backend  # noqa: F401  (its module body runs its own checks only with arguments)
        return backend.Net().eval(), (torch.randn(4, 16),)
    m, xs = models.model(name)
    return m.eval(), xs


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("outdir")
    ap.add_argument("--only", default="")
    a = ap.parse_args()
    names = a.only.split(",") if a.only else NAMES
    print("torch", torch.__version__)
    failed = 0
    for name in names:
        d = os.path.join(a.outdir, name)
        graphs = []

        def be(gm, xs):
            aten = braze.fx.trace(gm, tuple(xs))
            _, _, report = braze.dynamo.partition(aten)
            graphs.append(braze.dynamo.report_line(report))
            return braze.dynamo.braze_backend(gm, xs, quiet=True, capture=d)
        try:
            m, xs = model(name)
            with torch.no_grad():
                want = m(*xs)
                torch._dynamo.reset()
                got = torch.compile(m, backend=be)(*xs)
            err = models.rel_err(got, want)
            print("%s: %d graph(s), rel err %.1e" % (name, len(graphs), err))
            for g in graphs:
                print("    " + g)
            failed += err > 1e-5
        except Exception as e:  # one model's failure is reported, the rest still run
            print("%s: FAILED %s: %s" % (name, type(e).__name__, str(e).splitlines()[0] if str(e) else ""))
            failed += 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
