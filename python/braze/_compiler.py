"""torch -> ONNX (torch.onnx.export, opset 17) -> braze compile -> cached library."""
import hashlib
import io
import json
import os
import re
import shutil
import tempfile

from . import _tool
from ._errors import BrazeError, FallbackWarning
from ._runtime import Compiled, DTYPES
from . import cache as _cache

OPSET = 17
LIB, HEADER, MANIFEST = "libmodel.so", "model.h", "manifest.json"


def _as_tuple(example_inputs):
    return tuple(example_inputs) if isinstance(example_inputs, (tuple, list)) else (example_inputs,)


def _export_onnx(fn, example_inputs, weights):
    """The ONNX bytes, the input names (with their roles) and the output names."""
    import torch
    if not isinstance(fn, torch.nn.Module):
        f = fn

        class _Fn(torch.nn.Module):
            def forward(self, *a):
                return f(*a)
        module = _Fn()
    else:
        module = fn
    xs = tuple(torch.as_tensor(x) if not isinstance(x, torch.Tensor) else x for x in example_inputs)
    in_names = _input_names(fn, len(xs))
    roles = ["input"] * len(xs)
    args = xs
    if weights not in ("constant", "input"):
        raise ValueError("weights must be 'constant' or 'input', not %r" % (weights,))
    was_training = getattr(fn, "training", False)
    if isinstance(fn, torch.nn.Module):
        fn.eval()
    buf = io.BytesIO()
    try:
        import warnings
        # Exported with grad enabled: in eval under no_grad, nn.TransformerEncoderLayer and
        # nn.MultiheadAttention take their fused fast path, which ONNX cannot export.
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with torch.no_grad():
                eager = module(*args)
            n_out = len(eager) if isinstance(eager, (tuple, list)) else 1
            out_names = ["out%d" % i for i in range(n_out)]
            # weights="input": export_params=False makes every parameter and buffer a
            # graph input (named as in the state dict) after the example inputs; constant
            # folding would replace some by folded copies (onnx::MatMul_N), so it is off.
            torch.onnx.export(module, args, buf, opset_version=OPSET, input_names=in_names,
                              output_names=out_names, do_constant_folding=weights != "input",
                              export_params=weights != "input")
    finally:
        if isinstance(fn, torch.nn.Module) and was_training:
            fn.train()
    data = buf.getvalue()
    if weights == "input":
        graph_inputs = _onnx_input_names(data)
        if graph_inputs[:len(xs)] != in_names:
            raise BrazeError("the ONNX export's inputs %s do not start with the example inputs" % graph_inputs)
        state = dict(module.named_parameters())
        state.update(dict(module.named_buffers()))
        wnames = graph_inputs[len(xs):]
        missing = [n for n in wnames if n not in state]
        if missing:
            raise BrazeError("the ONNX export has inputs that are no parameter or buffer: %s" % missing)
        args = xs + tuple(state[n].detach() for n in wnames)
        in_names += wnames
        roles += ["weight"] * len(wnames)
    return data, list(zip(in_names, roles)), out_names, args


def _varint(b, i):
    v = shift = 0
    while True:
        c = b[i]
        i += 1
        v |= (c & 0x7F) << shift
        shift += 7
        if c < 0x80:
            return v, i


def _fields(b):
    """(field number, wire type, value) of one protobuf message (bytes for type 2)."""
    i = 0
    while i < len(b):
        tag, i = _varint(b, i)
        f, w = tag >> 3, tag & 7
        if w == 0:
            v, i = _varint(b, i)
        elif w == 1:
            v, i = b[i:i + 8], i + 8
        elif w == 5:
            v, i = b[i:i + 4], i + 4
        elif w == 2:
            n, i = _varint(b, i)
            v, i = b[i:i + n], i + n
        else:
            raise BrazeError("malformed ONNX bytes (wire type %d)" % w)
        yield f, w, v


def _onnx_input_names(data):
    """ModelProto.graph (7) -> GraphProto.input (11) -> ValueInfoProto.name (1), without onnx."""
    names = []
    for f, w, g in _fields(data):
        if f == 7 and w == 2:
            for f2, w2, vi in _fields(g):
                if f2 == 11 and w2 == 2:
                    names += [v.decode() for f3, w3, v in _fields(vi) if f3 == 1 and w3 == 2]
    return names


def _input_names(fn, n):
    """The forward's (or function's) positional parameter names, else in0, in1, ..."""
    import inspect
    try:
        f = fn.forward if hasattr(fn, "forward") else fn
        params = [p for p in inspect.signature(f).parameters.values()
                  if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        names = [p.name for p in params[:n]]
        if len(names) == n and len(set(names)) == n:
            return names
    except (TypeError, ValueError):
        pass
    return ["in%d" % i for i in range(n)]


def _key(onnx_bytes, options):
    h = hashlib.sha256()
    h.update(onnx_bytes)
    h.update(_tool.version().encode())
    h.update(json.dumps(options, sort_keys=True).encode())
    return h.hexdigest()[:32]


def _compile_flags(options, d):
    flags = ["--target=" + options["target"]]
    if options.get("cpu"):
        flags.append("--cpu=" + options["cpu"])
    if options.get("pipeline"):
        flags.append("--pipeline=" + options["pipeline"])
    if options.get("fusion_plan"):
        flags.append("--fusion-plan=" + os.path.join(d, "plan-in.json"))
    return flags


def _header_cpu(header_text):
    """The LLVM CPU and the checked features, as the generated header names them."""
    m = re.search(r'_CPU "([^"]*)"', header_text)
    f = re.search(r"features the code uses \(([^)]*)\)", header_text)
    return (m.group(1) if m else None), (f.group(1).split() if f else [])


def _source(d):
    """The graph braze compiles in a cache entry: model.onnx (onnx) or graph.mlir (fx)."""
    p = os.path.join(d, "graph.mlir")
    return p if os.path.exists(p) else os.path.join(d, "model.onnx")


_LOC = re.compile(rb'loc\((?:[^()"]|"(?:[^"\\]|\\.)*")*\)')


def _build(onnx_bytes, in_names, out_names, options, quiet, progress=None, symbols=None):
    """Compile into a fresh directory of the cache and move it into place atomically.
    The key of an fx graph is its text without locations: the same graph traced from
    another line (or file) is a hit; a hit compiles nothing, so its locations are moot."""
    root = _cache.cache_dir()
    key = _key(_LOC.sub(b"", onnx_bytes) if options.get("frontend") == "fx" else onnx_bytes, options)
    final = os.path.join(root, key)
    if os.path.exists(os.path.join(final, MANIFEST)):
        return final, True
    os.makedirs(root, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix=".tmp-" + key + "-", dir=root)
    try:
        src = os.path.join(tmp, "graph.mlir" if options.get("frontend") == "fx" else "model.onnx")
        with open(src, "wb") as f:
            f.write(onnx_bytes)
        if options.get("fusion_plan"):
            with open(os.path.join(tmp, "plan-in.json"), "w") as f:
                f.write(options["fusion_plan"])
        args = ["compile", src, "-o", os.path.join(tmp, LIB),
                "--header=" + os.path.join(tmp, HEADER)] + _compile_flags(options, tmp)
        # Not every pipeline has form-kernels (none, cpu-lower): then no report or plan.
        try:
            _tool.run(args + ["--fusion-report=" + os.path.join(tmp, "fusion-report.txt"),
                              "--fusion-plan-out=" + os.path.join(tmp, "plan.json")], quiet, progress)
        except BrazeError as e:
            if "form-kernels" not in str(e):
                raise
            _tool.run(args, quiet, progress)
        with open(os.path.join(tmp, HEADER)) as f:
            llvm_cpu, features = _header_cpu(f.read())
        from ._runtime import Library
        lib = Library(os.path.join(tmp, LIB))
        if lib.num_inputs != len(in_names) or lib.num_outputs != len(out_names):
            raise BrazeError("the compiled entry takes %d inputs and %d outputs; the export had %d and %d "
                             "(an input the graph does not use was dropped?)"
                             % (lib.num_inputs, lib.num_outputs, len(in_names), len(out_names)))
        # A symbolic dim (-1 in the tables) is its symbol's name in the manifest; the
        # CPU takes one symbol per entry (decision 0029).
        sym = sorted(symbols)[0] if symbols else "s"

        def shape(s):
            return [sym if n < 0 else n for n in s]
        manifest = {
            "entry": lib.entry,
            "inputs": [dict(name=n, role=r, dtype=DTYPES[dt][0], shape=shape(s))
                       for (n, r), (dt, s) in zip(in_names, lib.args)],
            "outputs": [dict(name=n, role="output", dtype=DTYPES[dt][0], shape=shape(s))
                        for n, (dt, s) in zip(out_names, lib.args[len(in_names):])],
            "target": options["target"], "cpu": options.get("cpu") or os.environ.get("BRAZE_CPU") or "native",
            "llvm_cpu": llvm_cpu, "cpu_features": features,
            "pipeline": options.get("pipeline"), "weights": options["weights"],
            "braze_version": _tool.version().splitlines()[0].split()[-1], "braze_version_full": _tool.version(),
            "opset": OPSET, "key": key, "frontend": options.get("frontend", "onnx"),
        }
        if symbols:
            manifest["symbols"] = {k: list(v) for k, v in symbols.items()}
        with open(os.path.join(tmp, MANIFEST), "w") as f:
            json.dump(manifest, f, indent=1)
        try:
            os.replace(tmp, final)          # atomic: readers see the whole directory or none
        except OSError:
            if not os.path.exists(os.path.join(final, MANIFEST)):
                raise
            shutil.rmtree(tmp, ignore_errors=True)   # another process finished first
        return final, False
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


def _open(d, options, weights_from=None):
    with open(os.path.join(d, MANIFEST)) as f:
        manifest = json.load(f)
    c = Compiled(os.path.join(d, LIB), manifest, source=d, options=options)
    if weights_from is not None and c.weight_args:
        c.set_weights(dict(zip([a.name for a in c.weight_args], weights_from)))
    return c


def _label(fn):
    name = type(fn).__name__ if hasattr(fn, "forward") else getattr(fn, "__name__", "function")
    return name if name != "<lambda>" else "a lambda"


def compile(fn_or_module, example_inputs, target="cpu", pipeline=None, fusion_plan=None, cpu=None,
            weights="constant", frontend="auto", quiet=None, dynamic=None):
    from ._progress import Progress, Silent
    progress = Silent() if quiet is True else Progress(_label(fn_or_module))
    ok = False
    try:
        c = _compile(fn_or_module, example_inputs, target, pipeline, fusion_plan, cpu, weights, frontend,
                     quiet, progress, dynamic)
        ok = True
        return c
    finally:
        progress.finish(ok)


FRONTENDS = ("auto", "fx", "onnx")


def _first_line(e):
    text = str(e).strip().splitlines()
    return (text[0] if text else type(e).__name__).rstrip(":")


def _lower_fx(fn, xs, weights, dynamic, names):
    """The fx route: (graph text, in_names with roles, out_names, call args)."""
    from . import fx as _fx
    if hasattr(fn, "eval"):
        fn.eval()
    g = _fx.lower(fn, xs, weights=weights, dynamic=dynamic, names=names)
    in_names = list(zip(names, ["input"] * len(xs))) + [(n, "weight") for n in g.weight_names]
    return g.text.encode(), in_names, ["out%d" % i for i in range(g.n_out)], tuple(xs) + tuple(g.weights), g


def _compile(fn_or_module, example_inputs, target, pipeline, fusion_plan, cpu, weights, frontend, quiet, progress,
             dynamic=None):
    if frontend not in FRONTENDS:
        raise BrazeError("frontend=%r is not built: 'auto' (fx, else onnx), 'fx' (make_fx: docs/python.md) or "
                         "'onnx' (torch.onnx.export at opset %d)" % (frontend, OPSET))
    if weights not in ("constant", "input"):
        raise ValueError("weights must be 'constant' or 'input', not %r" % (weights,))
    if dynamic and frontend == "onnx":
        raise BrazeError("dynamic= is built for frontend='fx' (or 'auto') only")
    if fusion_plan is not None and os.path.exists(str(fusion_plan)) and not str(fusion_plan).lstrip().startswith("{"):
        with open(fusion_plan) as f:
            fusion_plan = f.read()
    xs = _as_tuple(example_inputs)
    names = _input_names(fn_or_module, len(xs))
    reason, symbols = None, {}
    if frontend in ("auto", "fx"):
        progress.stage("trace")
        try:
            onnx_bytes, in_names, out_names, args, g = _lower_fx(fn_or_module, xs, weights, dynamic, names)
            symbols = g.symbols
            used = "fx"
        except Exception as e:          # auto: whatever fx cannot take goes to ONNX, with the reason
            if frontend == "fx" or dynamic:
                raise
            reason, fx_error = _fx_reason(e), e
    if frontend == "onnx" or reason:
        progress.stage("export")
        try:
            onnx_bytes, in_names, out_names, args = _export_onnx(fn_or_module, xs, weights)
        except Exception as e:
            if not reason:
                raise
            raise BrazeError("neither front end takes %s: %s; frontend='onnx': %s: %s"
                             % (_label(fn_or_module), reason, type(e).__name__, _first_line(e))) from fx_error
        used = "onnx"
    if reason and quiet is not True:
        import warnings
        warnings.warn("braze.compile(%s): frontend='onnx' because %s" % (_label(fn_or_module), reason),
                      FallbackWarning, stacklevel=4)
    options = dict(target=target, pipeline=pipeline, fusion_plan=fusion_plan, cpu=cpu, weights=weights,
                   frontend=used, opset=OPSET)
    try:
        d, hit = _build(onnx_bytes, in_names, out_names, options, quiet, progress, symbols)
    except BrazeError as e:
        if symbols and "symbolic dim" in str(e):
            raise BrazeError("dynamic dim %s (%s): the %s target cannot run it; braze compile's remark names the "
                             "op and the dim (decision 0029: the CPU takes one symbol that is a free row dim):\n%s"
                             % (" and ".join(sorted(symbols)), _dims_text(g.dims, names), target, _remarks(e))) from None
        raise
    c = _open(d, options, weights_from=args[len(xs):] if weights == "input" else None)
    c.cache_hit = hit
    c.frontend, c.frontend_reason = used, reason
    return c


def _fx_reason(e):
    """Why frontend='fx' did not take a module, in one line."""
    ops = getattr(e, "ops", None)
    if ops:                              # fx.UnsupportedOps: each op with its line
        shown = ["%s at %s%s" % (op, at, " (%s)" % why if why else "") for op, at, why in ops[:3]]
        return "frontend='fx' does not handle %s%s" % (", ".join(shown), ", ..." if len(ops) > 3 else "")
    text = _first_line(e)
    if text.startswith("frontend='fx'"):
        return text
    return "frontend='fx' could not trace it: %s: %s" % (type(e).__name__, text)


def _dims_text(dims, names):
    return ", ".join("input %d '%s' dim %d" % (i, names[i], d) for i in sorted(dims) for d, s in sorted(dims[i].items()))


def _remarks(e):
    """The tool's diagnostics (error/remark lines) of a failed compile."""
    lines = [l for l in str(e).splitlines()[1:] if ": remark: " in l]
    return "\n".join(lines) or str(e)


def kernels(d, options):
    path = os.path.join(d, "model.mlir")
    if not os.path.exists(path):
        _emit(d, options, "mlir", path)
    with open(path) as f:
        text = f.read()
    out = []
    for m in re.finditer(r"func\.func (?:private )?@([\w$.]+)\(.*?attributes \{(.*?)\} \{", text):
        attrs = m.group(2)
        kind = re.search(r'kernel\.kind = "([^"]*)"', attrs)
        if not kind:
            continue
        ops = re.search(r"kernel\.ops = \[([^\]]*)\]", attrs)
        out.append({"name": m.group(1), "kind": kind.group(1),
                    "ops": re.findall(r'"([^"]*)"', ops.group(1)) if ops else []})
    return out


def _emit(d, options, kind, path):
    tmp = path + ".tmp%d" % os.getpid()
    _tool.run(["compile", _source(d), "--emit=" + kind, "-o", tmp] + _compile_flags(options, d))
    os.replace(tmp, path)


def dump(d, options, directory):
    os.makedirs(directory, exist_ok=True)
    written = []
    for kind, name in (("mlir", "model.mlir"), ("llvm", "model.ll")):
        p = os.path.join(directory, name)
        _emit(d, options, kind, p)
        written.append(p)
    return written


def ablate(compiled, stage):
    options = dict(compiled._options)
    name = "%s-no-%s" % (options["target"], stage)
    known = _tool.pipelines()
    if name not in known:
        stages = sorted(p.split("-no-", 1)[1] for p in known if p.startswith(options["target"] + "-no-"))
        raise BrazeError("no pipeline %s: the driver's stages for %s are %s" % (name, options["target"], ", ".join(stages)))
    options["pipeline"] = name
    options["fusion_plan"] = None
    with open(_source(compiled._source), "rb") as f:
        onnx_bytes = f.read()
    m = compiled.manifest
    in_names = [(a["name"], a.get("role", "input")) for a in m["inputs"]]
    d, hit = _build(onnx_bytes, in_names, [a["name"] for a in m["outputs"]], options, True, None,
                    {k: tuple(v) for k, v in m.get("symbols", {}).items()})
    c = _open(d, options)
    c.frontend, c.frontend_reason = compiled.frontend, compiled.frontend_reason
    if compiled._weights is not None:
        c._weights = compiled._weights
    c.cache_hit = hit
    return c


def export(module, example_inputs, path, **kw):
    """Compile and write PATH (the .so), its header and manifest (PATH with .h, .json)."""
    c = compile(module, example_inputs, **kw)
    stem = os.path.splitext(path)[0]
    d = os.path.dirname(os.path.abspath(path))
    os.makedirs(d, exist_ok=True)
    for src, dst in ((c.path, path), (os.path.join(c._source, HEADER), stem + ".h"),
                     (os.path.join(c._source, MANIFEST), stem + ".json")):
        tmp = dst + ".tmp%d" % os.getpid()
        shutil.copyfile(src, tmp)
        os.replace(tmp, dst)
    return c
