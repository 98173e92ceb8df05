"""Robustness: import randomly corrupted copies of a model (1 to 4 bytes changed
each). Every run must end with status 0 or 1, print a diagnostic when it fails,
never trip a sanitizer, and leave no output file behind on failure; a module it
does write must re-parse with braze-opt.
usage: corrupt.py MODEL.onnx WORKDIR COUNT SEED   (braze and braze-opt from PATH)"""
import os
import random
import subprocess
import sys

model, work, count, seed = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
os.makedirs(work, exist_ok=True)
src = open(model, "rb").read()
rng = random.Random(seed)
failures = []


def run(*cmd):
    return subprocess.run(cmd, capture_output=True, text=True, errors="replace")


for i in range(count):
    data = bytearray(src)
    for _ in range(rng.randint(1, 4)):
        data[rng.randrange(len(data))] = rng.randrange(256)
    path, out = os.path.join(work, f"c{i}.onnx"), os.path.join(work, f"c{i}.mlir")
    open(path, "wb").write(data)
    if os.path.exists(out):
        os.remove(out)
    p = run("braze", "import", path, "-o", out)
    sanitizer = "Sanitizer" in p.stderr or "runtime error:" in p.stderr
    if p.returncode not in (0, 1) or sanitizer or (p.returncode == 1 and "error:" not in p.stderr):
        failures.append(f"c{i}: status {p.returncode}: {p.stderr[-400:]}")
    elif p.returncode == 1 and os.path.exists(out):
        failures.append(f"c{i}: failed but wrote {out}")
    elif p.returncode == 0 and run("braze-opt", out).returncode != 0:
        failures.append(f"c{i}: the imported module does not re-parse")
print("\n".join(failures))
print(f"{count} corrupted models, {len(failures)} failures")
