#!/usr/bin/python3
"""PyTorch's nn.TransformerEncoderLayer as exporters write it: exported to ONNX (opset 17,
batch_first, post-LN by default as PyTorch constructs it), imported and compiled by braze
for the CPU, checked against PyTorch and ONNX Runtime on one random input, and timed
against ONNX Runtime (CPU, all graph optimizations) and PyTorch eager in one run,
interleaved.

    /usr/bin/python3 bench/encoder/run.py [--shape 2x512] [--d-model 512] [--heads 8]
        [--ffn 2048] [--norm-first] [--threads 2] [--rounds 3] [--iters 5]
        [--out bench/out/encoder]

The layer's q, k and v are views of one in-projection (sliced, reshaped and transposed
to heads), q is scaled by a Div, and the out-projection reads the heads back through a
transpose and a reshape: what form-row-chains must see through (issue 24). Prints the
agreement (max |a - b| / max |b|), the median ms per system, the ratio ONNX Runtime /
braze (> 1: braze faster), braze's kernels per call with their names, and the same for
braze without row chains (`form-row-chains{disable}`)."""
import argparse
import importlib.machinery
import os
import re
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--shape", default="2x512", help="batch x sequence")
    p.add_argument("--d-model", type=int, default=512)
    p.add_argument("--heads", type=int, default=8)
    p.add_argument("--ffn", type=int, default=2048)
    p.add_argument("--norm-first", action="store_true", help="pre-LN instead of PyTorch's default post-LN")
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--iters", type=int, default=5)
    p.add_argument("--out", default=os.path.join(ROOT, "bench", "out", "encoder"))
    return p.parse_args()


ARGS = parse_args()
os.environ["OMP_NUM_THREADS"] = str(ARGS.threads)  # before libomp loads with a braze library
import numpy as np  # noqa: E402
import torch  # noqa: E402

bench = importlib.machinery.SourceFileLoader("bench_run", os.path.join(ROOT, "bench", "run")).load_module()
VARIANTS = {"braze": [], "braze:no-row-chains": [("form-row-chains", "form-row-chains{disable}")]}


def compile_variant(stem, mlir, name, changes):
    """Compile `mlir` with the default pipeline changed by `changes`; its kernel names."""
    elems = bench.variant_pipeline(bench.pipeline_elements(open(os.path.join(ROOT, "pipelines", "cpu-default.pipeline")).read()),
                                   changes)
    tag = name.replace(":", "-")
    pfile, so, kdir = f"{stem}.{tag}.pipeline", f"{stem}.{tag}.so", f"{stem}.{tag}.kernels"
    with open(pfile, "w") as f:
        f.write(",\n".join(elems) + "\n")
    subprocess.run(["rm", "-rf", kdir], check=True)
    t0 = time.perf_counter()
    res = subprocess.run([bench.BRAZE, "compile", mlir, "--target=cpu", f"--pipeline={pfile}", "-o", so, "--no-header",
                          "--dump-kernels=" + kdir], capture_output=True, text=True)
    if res.returncode != 0:
        sys.exit(f"braze compile ({name}) failed:\n{res.stderr[-3000:]}")
    secs = time.perf_counter() - t0
    kernels = sorted(f[:-5] for f in os.listdir(kdir) if f.endswith(".mlir") and not f[:-5].endswith("_rows"))
    return so, kernels, secs


def agreement(a, b):
    return float(np.max(np.abs(a - b)) / np.max(np.abs(b)))


def main():
    os.makedirs(ARGS.out, exist_ok=True)
    batch, seq = (int(v) for v in ARGS.shape.split("x"))
    torch.manual_seed(0)
    torch.set_num_threads(ARGS.threads)
    layer = torch.nn.TransformerEncoderLayer(ARGS.d_model, ARGS.heads, ARGS.ffn, dropout=0.0, batch_first=True,
                                             norm_first=ARGS.norm_first).eval()
    x = bench.aligned_copy(np.random.default_rng(0).standard_normal((batch, seq, ARGS.d_model), dtype=np.float32))
    stem = os.path.join(ARGS.out, f"encoder_{batch}x{seq}x{ARGS.d_model}{'_pre' if ARGS.norm_first else ''}")
    np.save(stem + ".x.npy", x)
    # Exported with autograd on: in no_grad eval mode the layer takes a fused fast path
    # (aten::_native_multi_head_attention) that the exporter does not take.
    torch.onnx.export(layer, torch.from_numpy(x), stem + ".onnx", opset_version=17, input_names=["x"],
                      output_names=["y"])
    with torch.no_grad():
        want = layer(torch.from_numpy(x)).numpy()
    res = subprocess.run([bench.BRAZE, "import", stem + ".onnx", "-o", stem + ".mlir"], capture_output=True, text=True)
    if res.returncode != 0:
        sys.exit(f"braze import failed:\n{res.stderr[-3000:]}")
    fn_name = re.search(r"func\.func @(\w+)\(", open(stem + ".mlir").read()).group(1)
    systems, kernels, compile_s = {}, {}, {}
    for name, changes in VARIANTS.items():
        so, kernels[name], compile_s[name] = compile_variant(stem, stem + ".mlir", name, changes)
        systems[name] = bench.BrazeSystem(so, fn_name, [x], want.shape)
        systems[name]()
    with torch.no_grad():
        systems["torch"] = lambda: layer(torch.from_numpy(x))
    node = bench.ensure_ort(os.path.join(ROOT, "bench", "out"))
    ort = bench.OrtServer(node) if node else None
    print(f"TransformerEncoderLayer {batch}x{seq}, d_model {ARGS.d_model}, {ARGS.heads} heads, ffn {ARGS.ffn}, "
          f"{'pre' if ARGS.norm_first else 'post'}-LN; {ARGS.threads} threads, {ARGS.rounds} rounds x {ARGS.iters} iterations")
    for name in VARIANTS:
        line = f"{name} vs torch {agreement(systems[name].output(), want):.2e}"
        if ort:
            line += f"; {len(kernels[name])} kernels, compile {compile_s[name]:.1f} s"
        print(line)
    if ort:
        ort.call(f"load enc {stem}.onnx {ARGS.threads} {stem}.x.npy")
        ort.call(f"save enc {stem}.ort.bin")
        ort_out = np.fromfile(stem + ".ort.bin", np.float32).reshape(want.shape)
        print(f"onnxruntime vs torch {agreement(ort_out, want):.2e}, braze vs onnxruntime "
              f"{agreement(systems['braze'].output(), ort_out):.2e}")
        systems["onnxruntime"] = None
    times = {k: [] for k in systems}
    with torch.no_grad():
        for _ in range(ARGS.rounds):
            for key, fn in systems.items():
                if fn is None:
                    time.sleep(bench.GAP_S)
                    ort.call(f"time enc {max(1, ARGS.iters // 2)}")
                    times[key] += ort.call(f"time enc {ARGS.iters}")["ms"]
                else:
                    bench.timed_calls(fn, times[key], ARGS.iters)
    med = {k: float(np.median(v)) for k, v in times.items()}
    print(", ".join(f"{k} {v:.2f} ms" for k, v in med.items()))
    if ort:
        print("onnxruntime / braze = " + ", ".join(f"{med['onnxruntime'] / med[k]:.2f} ({k})" for k in VARIANTS))
    print(f"torch / braze = {med['torch'] / med['braze']:.2f}")
    for name in VARIANTS:
        print(f"{name}: {len(kernels[name])} kernels: {', '.join(kernels[name])}")
    if ort:
        ort.close()


if __name__ == "__main__":
    main()
