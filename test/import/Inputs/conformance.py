#!/usr/bin/python3
"""ONNX backend conformance node tests through braze.

usage: conformance.py generate DIR
           writes ONNX's backend node tests (DIR/node/test_*/model.onnx and
           test_data_set_*/{input,output}_*.pb) from the installed onnx package
       conformance.py run DATA OUT [--braze PATH] [--targets reference,cpu]
                      [--filter REGEX] [--list FILE] [--jobs N] [--table] [--verbose] [--bind]
           imports every DATA/node/test_*/model.onnx with `braze import`, evaluates
           it with `braze run` on each target (reference: the interpreter; cpu: the
           compiled code) on each test data set, compares with the expected outputs
           and prints one line per test plus a pass/refused/wrong/crash table.

Outcomes, per test:
  pass     imported, and every target matched every expected output
  refused  `braze import` (or `braze run` on a target) exited 1 with a message:
           an unsupported case (or data not matching the model's declared inputs)
           refused cleanly
  wrong    a target ran and gave a result of the wrong shape/type or values
  crash    a signal, an exit status other than 0/1, a sanitizer report, a timeout,
           or an exit status 1 without a message
  pass-bound  (--bind) refused at first for inputs braze needs as constants (the
           refusal names them), then passed with them bound to each data set's values
           (`braze import --bind NAME=FILE.npy`): the model specialized to those values
Expected outputs are the test's own, except for the tests in EXPECTED_FROM_HELPER,
whose generator disagrees with onnx's own conversion helper (Cast f32 -> bf16).
Tolerance: |got - want| <= atol + rtol |want| (1e-4, 1e-3 for float32/float16:
ONNX's own backend tests use rtol 1e-3, atol 1e-7 and 1e-3 for f16), NaNs must match,
integers and booleans exactly. Exit status 1 when any test is wrong or crashes, or
when --expect-pass FILE lists a test that did not pass.
"""
import argparse
import concurrent.futures
import os
import re
import subprocess
import sys

import numpy as np

# onnx 1.12's test generators use numpy aliases removed in numpy 1.24.
for _alias, _type in (("float", float), ("int", int), ("bool", bool), ("object", object)):
    if _alias not in np.__dict__:
        setattr(np, _alias, _type)

import onnx  # noqa: E402
from onnx import numpy_helper  # noqa: E402

RTOL = {np.float16: 4e-3, np.float32: 1e-3, np.float64: 1e-6}


def bf16_round_to_nearest_even(x):
    """onnx.helper's own f32 -> bf16 conversion (its default: round to nearest even),
    as raw bf16 bits like the test data."""
    bits = [onnx.helper.float32_to_bfloat16(float(v)) for v in np.asarray(x, np.float32).ravel()]
    return np.array(bits, np.uint16).reshape(np.shape(x))


# Tests whose expected outputs onnx 1.12's generator made differently from onnx's own
# conversion helper: braze is checked against the helper's result on the test's inputs
# instead (bit for bit). test_cast_FLOAT_to_BFLOAT16's generator truncates f32 to bf16
# (the high 16 bits); onnx.helper.float32_to_bfloat16, ONNX Runtime and PyTorch round to
# nearest even (onnx/onnx#3876, #5004).
EXPECTED_FROM_HELPER = {
    "test_cast_FLOAT_to_BFLOAT16": lambda inputs: bf16_round_to_nearest_even(inputs[0]),
}
ATOL = {np.float16: 4e-3, np.float32: 1e-4, np.float64: 1e-6}
TIMEOUT_S = 120


def generate(out):
    from onnx.backend.test.cmd_tools import main as onnx_cmd_tools
    saved = sys.argv
    sys.argv = ["onnx", "generate-data", "-o", out]
    try:
        onnx_cmd_tools()
    finally:
        sys.argv = saved


def load_pb(path):
    t = onnx.TensorProto()
    with open(path, "rb") as f:
        t.ParseFromString(f.read())
    return numpy_helper.to_array(t)


def data_sets(test_dir):
    sets = sorted(d for d in os.listdir(test_dir) if d.startswith("test_data_set_"))
    for s in sets:
        d = os.path.join(test_dir, s)
        ins = sorted((f for f in os.listdir(d) if f.startswith("input_")),
                     key=lambda f: int(f[6:-3]))
        outs = sorted((f for f in os.listdir(d) if f.startswith("output_")),
                      key=lambda f: int(f[7:-3]))
        yield s, [os.path.join(d, f) for f in ins], [os.path.join(d, f) for f in outs]


def crashed(proc):
    text = proc.stderr + proc.stdout
    return (proc.returncode not in (0, 1) or "Sanitizer" in text or "runtime error:" in text
            or (proc.returncode == 1 and not proc.stderr.strip()))


def first_line(text):
    for line in text.splitlines():
        if "error" in line:
            return line.strip()
    return text.strip().splitlines()[0] if text.strip() else ""


def close(got, want):
    """None when got matches want, else a short reason."""
    if got.shape != want.shape:
        return f"shape {got.shape}, expected {want.shape}"
    if want.dtype == np.bool_ or np.issubdtype(want.dtype, np.integer):
        if got.dtype != want.dtype and not (np.issubdtype(got.dtype, np.integer) or got.dtype == np.bool_):
            return f"type {got.dtype}, expected {want.dtype}"
        return None if np.array_equal(got.astype(want.dtype), want) else "values differ"
    if not np.issubdtype(want.dtype, np.floating) and want.dtype.name != "bfloat16":
        return f"expected type {want.dtype} is not compared"
    w = want.astype(np.float64)
    g = got.astype(np.float64)
    if not np.array_equal(np.isnan(g), np.isnan(w)):
        return "NaNs differ"
    mask = ~np.isnan(w)
    rtol = RTOL.get(want.dtype.type, 1e-3)
    atol = ATOL.get(want.dtype.type, 1e-4)
    with np.errstate(invalid="ignore"):
        same_inf = np.isinf(w) & (g == w)
        err = np.where(same_inf, 0.0, np.abs(g - w) - (atol + rtol * np.abs(w)))
    worst = float(np.max(err[mask], initial=-1.0))
    return None if worst <= 0 else f"max excess error {worst:.3g}"


def import_model(braze, model, mlir, bindings=()):
    """(outcome, detail) of `braze import`: None on success."""
    cmd = [braze, "import", model, "-o", mlir]
    for name, npy in bindings:
        cmd += ["--bind", f"{name}={npy}"]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, errors="replace", timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired:
        return "crash", "import timed out"
    if crashed(p):
        return "crash", f"import exit {p.returncode}: {first_line(p.stderr)}"
    if p.returncode:
        return "refused", first_line(p.stderr)
    return None


# braze needs some inputs as constants (shapes, axes, k, pads); the tests feed them as
# graph inputs. Their names, from braze's message: "... ('axes') must be a constant".
NEEDS_CONSTANT = re.compile(r"\('([^']+)'\) must be a constant")


def graph_input_names(model_path):
    m = onnx.load(model_path)
    inits = {t.name for t in m.graph.initializer}
    return [i.name for i in m.graph.input if i.name not in inits]


def run_set(braze, mlir, work, set_name, npys, targets, expected):
    """Run one data set on each target: None when every output matches."""
    for target in targets:
        save = os.path.join(work, f"{set_name}_{target}")
        os.makedirs(save, exist_ok=True)
        cmd = [braze, "run", mlir, "--quiet", "--save-outputs", save, "--target", target]
        if npys:
            cmd += ["--inputs", ",".join(npys)]
        try:
            p = subprocess.run(cmd, capture_output=True, text=True, errors="replace", timeout=TIMEOUT_S)
        except subprocess.TimeoutExpired:
            return "crash", f"run --target {target} timed out"
        if crashed(p):
            return "crash", f"run --target {target} exit {p.returncode}: {first_line(p.stderr)}"
        if p.returncode:
            return "refused", f"run --target {target}: {first_line(p.stderr)}"
        for i, want in enumerate(expected):
            got_path = os.path.join(save, f"out{i}.npy")
            if not os.path.exists(got_path):
                return "wrong", f"{target}: output {i} missing"
            why = close(np.load(got_path), want)
            if why:
                return "wrong", f"{target} {set_name} output {i}: {why}"
    return None


def run_test(test_dir, out_dir, braze, targets, bind=False):
    """(outcome, detail) for one test directory. With `bind`, a test whose import is
    refused for an input braze needs as a constant is imported again per data set with
    those inputs bound to the set's values (`braze import --bind`): "pass-bound"."""
    name = os.path.basename(test_dir)
    work = os.path.join(out_dir, name)
    os.makedirs(work, exist_ok=True)
    model = os.path.join(test_dir, "model.onnx")
    mlir = os.path.join(work, "model.mlir")
    refusal = import_model(braze, model, mlir)
    bound = []
    if refusal and refusal[0] == "refused" and bind and NEEDS_CONSTANT.search(refusal[1]):
        bound = NEEDS_CONSTANT.findall(refusal[1])
    elif refusal:
        return refusal
    input_names = graph_input_names(model) if bound else []
    for set_name, ins, outs in data_sets(test_dir):
        npys, inputs = [], []
        for i, path in enumerate(ins):
            npy = os.path.join(work, f"{set_name}_in{i}.npy")
            inputs.append(load_pb(path))
            np.save(npy, inputs[-1])
            npys.append(npy)
        set_mlir = mlir
        for _ in range(8):  # bind until the import succeeds (each refusal names one input)
            if not bound:
                break
            if any(n not in input_names for n in bound):
                return refusal
            bindings = [(n, npys[input_names.index(n)]) for n in bound]
            set_mlir = os.path.join(work, f"{set_name}_bound.mlir")
            again = import_model(braze, model, set_mlir, bindings)
            if not again:
                break
            more = NEEDS_CONSTANT.findall(again[1]) if again[0] == "refused" else []
            if not more or set(more) <= set(bound):
                return again
            bound += [n for n in more if n not in bound]
        free = [npy for n, npy in zip(input_names, npys) if n not in bound] if bound else npys
        expected = [EXPECTED_FROM_HELPER[name](inputs) if name in EXPECTED_FROM_HELPER else load_pb(path)
                    for path in outs]
        failure = run_set(braze, set_mlir, work, set_name, free, targets, expected)
        if failure:
            return failure
    return ("pass-bound", "bound: " + ", ".join(bound)) if bound else ("pass", "")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    g = sub.add_parser("generate")
    g.add_argument("out")
    r = sub.add_parser("run")
    r.add_argument("data")
    r.add_argument("out")
    r.add_argument("--braze", default="braze")
    r.add_argument("--targets", default="reference,cpu")
    r.add_argument("--filter", default="")
    r.add_argument("--list", help="a file of test names (one a line, # comments) to run")
    r.add_argument("--expect-pass", help="a file of test names that must pass")
    r.add_argument("--jobs", type=int, default=2)
    r.add_argument("--table", action="store_true", help="print only the summary table")
    r.add_argument("--verbose", action="store_true", help="print the reason for every test")
    r.add_argument("--bind", action="store_true",
                   help="retry tests refused for an input braze needs as a constant with it bound to "
                        "the data set's values (braze import --bind): outcome pass-bound")
    args = ap.parse_args()
    if args.cmd == "generate":
        generate(args.out)
        return 0
    root = os.path.join(args.data, "node")
    names = sorted(os.listdir(root))
    if args.list:
        with open(args.list) as f:
            wanted = [l.split("#")[0].strip() for l in f]
        names = [n for n in names if n in set(w for w in wanted if w)]
    if args.filter:
        names = [n for n in names if re.search(args.filter, n)]
    targets = [t for t in args.targets.split(",") if t]
    os.makedirs(args.out, exist_ok=True)
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        results = list(pool.map(lambda n: run_test(os.path.join(root, n), args.out, args.braze, targets,
                                                   args.bind), names))
    counts = {"pass": 0, "pass-bound": 0, "refused": 0, "wrong": 0, "crash": 0}
    for name, (outcome, detail) in zip(names, results):
        counts[outcome] += 1
        if args.table or (outcome == "pass" and not args.verbose):
            continue
        print(f"{outcome:8} {name}: {detail}" if detail else f"{outcome:8} {name}")
    columns = ["pass"] + (["pass-bound"] if args.bind else []) + ["refused", "wrong", "crash"]
    heads = [("pass (inputs bound)" if c == "pass-bound" else c) for c in columns]
    print("| targets | tests | " + " | ".join(heads) + " |")
    print("|---|---|" + "---|" * len(columns))
    print(f"| {'+'.join(targets)} | {len(names)} | " + " | ".join(str(counts[c]) for c in columns) + " |")
    failed = counts["wrong"] + counts["crash"] > 0
    if args.expect_pass:
        with open(args.expect_pass) as f:
            must = [l.split("#")[0].strip() for l in f]
        got = dict(zip(names, results))
        for n in (m for m in must if m):
            if got.get(n, ("missing",))[0] != "pass":
                print(f"expected to pass: {n}: {got.get(n, ('not run', ''))}")
                failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
