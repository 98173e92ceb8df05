"""Robustness: import randomly corrupted copies of a model (1 to 4 bytes changed
each). Every run must end with status 0 or 1, print a diagnostic when it fails,
never trip a sanitizer, and leave no output file behind on failure; a module it
does write must re-parse with braze-opt.
usage: corrupt.py MODEL.onnx WORKDIR COUNT SEED   (braze and braze-opt from PATH)"""
import concurrent.futures
import os
import random
import subprocess
import sys

model, work, count, seed = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
os.makedirs(work, exist_ok=True)
src = open(model, "rb").read()
rng = random.Random(seed)


def run(*cmd):
    return subprocess.run(cmd, capture_output=True, text=True, errors="replace")


def check(i, data):
    path, out = os.path.join(work, f"c{i}.onnx"), os.path.join(work, f"c{i}.mlir")
    open(path, "wb").write(data)
    if os.path.exists(out):
        os.remove(out)
    p = run("braze", "import", path, "-o", out)
    sanitizer = "Sanitizer" in p.stderr or "runtime error:" in p.stderr
    if p.returncode not in (0, 1) or sanitizer or (p.returncode == 1 and "error:" not in p.stderr):
        return f"c{i}: status {p.returncode}: {p.stderr[-400:]}"
    if p.returncode == 1 and os.path.exists(out):
        return f"c{i}: failed but wrote {out}"
    if p.returncode == 0 and run("braze-opt", out).returncode != 0:
        return f"c{i}: the imported module does not re-parse"
    return None


# The corruptions are drawn in order (the same models for a seed), then checked
# concurrently: the braze processes are independent.
models = []
for i in range(count):
    data = bytearray(src)
    for _ in range(rng.randint(1, 4)):
        data[rng.randrange(len(data))] = rng.randrange(256)
    models.append(bytes(data))
with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
    failures = [f for f in pool.map(check, range(count), models) if f]
print("\n".join(failures))
print(f"{count} corrupted models, {len(failures)} failures")
