"""braze as a torch.compile backend (docs/python.md "torch.compile").

    torch.compile(model, backend="braze")            # PyTorch >= 2.0 (the entry point)
    braze.dynamo.braze_backend(gm, example_inputs)   # any FX GraphModule, also on 1.13

The backend traces the GraphModule to ATen ops (make_fx through torch.fx.Interpreter,
keeping the nodes' stack traces), partitions it with CapabilityBasedPartitioner into
the subgraphs frontend="fx" takes (each compiled by braze.compile, one library per
partition) and eager partitions for the rest, and prints its coverage once per compile
on stderr: `braze: 40/43 ATen ops in 2 braze partitions (93%); eager: aten.cumsum.default at model.py:12`.

Capture: with BRAZE_CAPTURE_DIR=DIR (or backend(capture=DIR)) the backend records each
graph (its ATen GraphModule, stack traces, example inputs and eager outputs) under DIR
and runs it eagerly; `python3 -m braze.dynamo DIR` compiles the captures later (on a
machine with the compiler) and checks them against the recorded outputs.

Inference only: braze's outputs carry no autograd history."""
import functools
import json
import os
import sys

from ._errors import BrazeError

__all__ = ["braze_backend", "backend", "compile_captured", "version_has_dynamo"]


def version_has_dynamo():
    """torch.compile (and so the torch_dynamo_backends entry point) is PyTorch >= 2.0."""
    import torch
    return int(torch.__version__.split(".")[0]) >= 2


def _support():
    from torch.fx.passes.operator_support import OperatorSupportBase
    from . import fx

    class BrazeSupport(OperatorSupportBase):
        def is_node_supported(self, submodules, node):
            return fx.is_supported(node)
    return BrazeSupport()


def _count(nodes):
    """The ATen ops among nodes (getitem, which only picks a result, is not one)."""
    import operator
    return [n for n in nodes if n.op == "call_function" and n.target is not operator.getitem]


def _partition_module(compiled, tuple_out):
    """A compiled partition in place of its eager submodule: the same inputs and outputs
    (an nn.Module: the fused GraphModule calls it as self.fused_N)."""
    import torch

    class BrazePartition(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.compiled = compiled

        def forward(self, *args):
            out = self.compiled(*args, convert=True)
            return (out,) if tuple_out and not isinstance(out, tuple) else out
    return BrazePartition()


def partition(aten_gm):
    """(fused GraphModule, names of the braze partitions, report dict): the partitioner's
    result where partitions made only of views and copies (nothing to compute) stay eager."""
    from torch.fx.passes.infra.partitioner import CapabilityBasedPartitioner
    from . import fx
    aten_gm.graph.eliminate_dead_code()
    aten_gm.recompile()
    all_ops = _count(aten_gm.graph.nodes)
    p = CapabilityBasedPartitioner(aten_gm, _support(), allows_single_node_partition=True)
    parts = [q for q in p.propose_partitions() if not all(fx.is_view(n) for n in _count(q.nodes))]
    in_braze = set()
    for q in parts:
        in_braze.update(_count(q.nodes))
    eager = {}
    for n in all_ops:
        if n not in in_braze:
            eager.setdefault(fx.op_name(n), []).append(fx.where(n))
    report = {"ops": len(all_ops), "braze_ops": len(in_braze), "partitions": len(parts), "eager": eager}
    fused = p.fuse_partitions(parts) if parts else aten_gm
    names = [n.target for n in fused.graph.nodes if n.op == "call_module" and n.target.startswith("fused_")]
    return fused, names, report


def report_line(r):
    pct = 100.0 * r["braze_ops"] / r["ops"] if r["ops"] else 100.0
    eager = ", ".join("%s at %s" % (k, " ".join(sorted(set(v), key=v.index))) for k, v in sorted(r["eager"].items()))
    return "braze: %d/%d ATen ops in %d braze partition%s (%.0f%%)%s" % (
        r["braze_ops"], r["ops"], r["partitions"], "" if r["partitions"] == 1 else "s", pct,
        "; eager: " + eager if eager else "")


def braze_backend(gm, example_inputs, quiet=None, capture=None, **compile_options):
    """A torch.compile backend: gm's braze-supported subgraphs compiled, the rest eager.
    Returns a callable of the example inputs' arity. quiet (default $BRAZE_QUIET) silences
    the coverage line and the progress line; compile_options go to braze.compile
    (target, cpu, pipeline)."""
    import torch
    from . import fx
    from ._compiler import compile as _compile
    if quiet is None:
        quiet = os.environ.get("BRAZE_QUIET", "") not in ("", "0")
    capture = capture or os.environ.get("BRAZE_CAPTURE_DIR")
    xs = tuple(example_inputs)
    aten_gm = fx.trace(gm, xs)
    if capture:
        path = _capture(capture, aten_gm, xs)
        if not quiet:
            print("braze: captured %s" % path, file=sys.stderr)
        return aten_gm
    fused, names, report = partition(aten_gm)
    if names:
        # Each braze partition is compiled on the inputs it sees when the fused graph
        # runs the example inputs once (torch.fx.Interpreter).
        class Compiler(torch.fx.Interpreter):
            def call_module(self, target, args, kwargs):
                sub = self.fetch_attr(target)
                if target in names:
                    with torch.no_grad():
                        c = _compile(sub, args, frontend="fx", quiet=True if quiet else None, **compile_options)
                    out = [n for n in sub.graph.nodes if n.op == "output"][0].args[0]
                    setattr(fused, target, _partition_module(c, isinstance(out, (tuple, list))))
                return sub(*args, **kwargs)
        Compiler(fused).run(*[x.detach() for x in xs])
        fused.recompile()
    if not quiet:
        print(report_line(report), file=sys.stderr)
    fused.braze_report = report
    return fused


def backend(**options):
    """braze_backend with options bound: torch.compile(m, backend=braze.dynamo.backend(quiet=True))."""
    return functools.partial(braze_backend, **options)


# ---- capture: graphs recorded here, compiled elsewhere or later ----

class _Ref:
    """A node argument in a saved graph: the name of the node it reads."""

    def __init__(self, name):
        self.name = name


class _TorchAttr:
    """A torch.memory_format or torch.layout argument in a saved graph, by name."""

    def __init__(self, name):
        self.name = name


def _op_path(target):
    import operator
    if target is operator.getitem:
        return "operator.getitem"
    return "aten." + target.__name__         # an OpOverload: packet.overload


def _op_from_path(path):
    import operator
    import torch
    if path == "operator.getitem":
        return operator.getitem
    _, packet, overload = path.split(".")
    op = getattr(getattr(torch.ops.aten, packet, None), overload, None)
    if op is None:
        raise BrazeError("the captured graph has %s, which this torch (%s) lacks" % (path, torch.__version__))
    return op


def save_graph(aten_gm, path):
    """aten_gm as plain data (torch.save): every node with its op, target, arguments
    (node references by name) and stack trace; the get_attr tensors (the shapes come
    back when braze_backend traces the loaded graph again). Not
    pickling the GraphModule itself: that re-traces its code on load, renaming nodes."""
    import torch

    def plain(a):       # fx's immutable_list/dict do not survive torch.save's pickler
        if isinstance(a, torch.fx.Node):
            return _Ref(a.name)
        if isinstance(a, (list, tuple)):
            return type(a)(plain(e) for e in a) if type(a) in (list, tuple) else list(plain(e) for e in a)
        if isinstance(a, dict):
            return {k: plain(v) for k, v in a.items()}
        if isinstance(a, (torch.memory_format, torch.layout)):
            return _TorchAttr(str(a).replace("torch.", ""))     # these do not pickle
        return a
    nodes = []
    for n in aten_gm.graph.nodes:
        target = n.target if n.op in ("placeholder", "get_attr", "output") else _op_path(n.target)
        nodes.append(dict(op=n.op, name=n.name, target=target, args=plain(n.args), kwargs=plain(dict(n.kwargs)),
                          stack_trace=n.stack_trace))
    consts = {n.target: getattr(aten_gm, n.target).detach() for n in aten_gm.graph.nodes if n.op == "get_attr"}
    torch.save({"nodes": nodes, "constants": consts}, path)


def load_graph(path):
    import torch
    from torch.fx.node import map_aggregate
    saved = torch.load(path)
    g, env = torch.fx.Graph(), {}
    root = torch.nn.Module()
    for name, t in saved["constants"].items():
        mod, _, leaf = name.rpartition(".")
        owner = root
        for part in filter(None, mod.split(".")):
            if not hasattr(owner, part):
                owner.add_module(part, torch.nn.Module())
            owner = getattr(owner, part)
        owner.register_buffer(leaf, t)
    resolve = (lambda a: map_aggregate(a, lambda x: env[x.name] if isinstance(x, _Ref)
                                       else getattr(torch, x.name) if isinstance(x, _TorchAttr) else x))
    for d in saved["nodes"]:
        target = d["target"] if d["op"] in ("placeholder", "get_attr", "output") else _op_from_path(d["target"])
        n = g.create_node(d["op"], target, resolve(d["args"]), resolve(d["kwargs"]), name=d["name"])
        if d["stack_trace"]:
            n.stack_trace = d["stack_trace"]
        env[d["name"]] = n
    return torch.fx.GraphModule(root, g)


def _capture(directory, aten_gm, xs):
    import torch
    os.makedirs(directory, exist_ok=True)
    i = len([d for d in os.listdir(directory) if d.startswith("graph_")])
    while True:
        path = os.path.join(directory, "graph_%d" % i)
        try:
            os.mkdir(path)
            break
        except FileExistsError:
            i += 1
    with torch.no_grad():
        outs = aten_gm(*xs)
    try:
        save_graph(aten_gm, os.path.join(path, "graph.pt"))
    except Exception:
        import shutil
        shutil.rmtree(path, ignore_errors=True)
        raise
    torch.save({"inputs": [x.detach().cpu() for x in xs],
                "outputs": [o.detach().cpu() for o in (outs if isinstance(outs, (tuple, list)) else (outs,))]},
               os.path.join(path, "tensors.pt"))
    with open(os.path.join(path, "meta.json"), "w") as f:
        json.dump({"torch": torch.__version__, "devices": sorted({str(x.device) for x in xs})}, f, indent=1)
    with open(os.path.join(path, "code.py"), "w") as f:
        f.write(aten_gm.code)                 # to read; load_graph reads graph.pt
    return path


def load_captured(path):
    """(ATen GraphModule with its stack traces, example inputs, eager outputs)."""
    import torch
    t = torch.load(os.path.join(path, "tensors.pt"))
    return load_graph(os.path.join(path, "graph.pt")), t["inputs"], t["outputs"]


def compile_captured(directory, quiet=False, bound=1e-4, **compile_options):
    """Compile every DIR/graph_N with braze_backend (the inputs on the CPU unless
    target='cuda') and compare with the recorded eager outputs: [(path, report, error)]."""
    import torch
    results = []
    dirs = sorted((d for d in os.listdir(directory) if d.startswith("graph_")), key=lambda d: int(d[6:]))
    if not dirs:
        raise BrazeError("%s has no captured graphs (graph_N directories): run with BRAZE_CAPTURE_DIR=%s"
                         % (directory, directory))
    for d in dirs:
        path = os.path.join(directory, d)
        gm, xs, want = load_captured(path)
        if compile_options.get("target") == "cuda":
            xs = [x.cuda() for x in xs]
        f = braze_backend(gm, xs, quiet=True, capture=False, **compile_options)
        with torch.no_grad():
            got = f(*xs)
        got = got if isinstance(got, (tuple, list)) else (got,)
        err = max(float((g.cpu() - w).abs().max() / w.abs().max().clamp_min(1e-30))
                  if w.is_floating_point() else float((g.cpu() != w).any()) for g, w in zip(got, want))
        results.append((path, f.braze_report, err))
        if not quiet:
            print("%s: %s, relative error %.3g%s" % (d, report_line(f.braze_report), err,
                                                     "" if err < bound else " (FAIL)"), file=sys.stderr)
    return results


def main(argv=None):
    import argparse
    ap = argparse.ArgumentParser(prog="python3 -m braze.dynamo",
                                 description="compile the graphs BRAZE_CAPTURE_DIR recorded, vs their eager outputs")
    ap.add_argument("directory")
    ap.add_argument("--target", default="cpu")
    ap.add_argument("--quiet", action="store_true")
    a = ap.parse_args(argv)
    try:
        res = compile_captured(a.directory, quiet=a.quiet, target=a.target)
    except BrazeError as e:
        print("BrazeError: %s" % e, file=sys.stderr)
        return 1
    bad = [p for p, _, e in res if not e < 1e-4]
    print("%d graphs compiled, %d within 1e-4 of eager" % (len(res), len(res) - len(bad)))
    return 1 if bad else 0


if __name__ == "__main__":
    from braze import dynamo as _self        # one _Ref class: the one graph.pt pickled
    sys.exit(_self.main())
