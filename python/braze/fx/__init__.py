"""frontend="fx": make_fx's ATen graphs -> graph dialect MLIR text (docs/python.md).

trace() records an ATen graph with stack traces; convert() writes the graph dialect
module of a GraphModule of ATen ops, every op at loc("file":line:0) of the user's line
that made it. Every op it cannot take is listed in one BrazeError, with its line."""
import torch

from .._errors import BrazeError
from ._emit import Emitter, Val, element, mlir_loc, where
from ._ops import OPS, VIEWS

__all__ = ["trace", "convert", "to_mlir", "lower", "Lowered", "unsupported", "is_supported", "UnsupportedOps"]


class UnsupportedOps(BrazeError):
    """The ops of a graph frontend='fx' cannot take: .ops is [(op name, 'file:line', why)]."""

    def __init__(self, ops):
        self.ops = ops
        lines = ["  %s at %s%s" % (op, at, " (%s)" % why if why else "") for op, at, why in ops]
        names = sorted({op for op, _, _ in ops})
        super().__init__("frontend='fx' does not handle %d op%s (%s); frontend='onnx' may:\n%s"
                         % (len(names), "" if len(names) == 1 else "s", ", ".join(names), "\n".join(lines)))


def op_name(node):
    t = node.target
    return getattr(t, "__name__", None) and "aten." + t.__name__ if isinstance(t, torch._ops.OpOverload) \
        else getattr(t, "__name__", str(t))


def trace(fn, example_inputs, n_inputs=None, aliases=None):
    """make_fx of fn on the inputs with stack traces. A GraphModule is traced through
    torch.fx.Interpreter with its nodes' stack traces carried over (fx.traceback), so a
    graph captured elsewhere (dynamo, symbolic_trace) keeps the user's lines. Traced
    with autograd on: in eval under no_grad, nn.TransformerEncoderLayer and
    nn.MultiheadAttention take fused fast paths (one opaque ATen op each).
    With aliases (weights="input", _weights.module_weights), example_inputs are the
    n_inputs inputs then one tensor per weight, and the module runs on those."""
    from torch.fx.experimental import proxy_tensor
    import torch.fx.traceback as fx_traceback
    target = fn
    override = None
    if isinstance(fn, torch.fx.GraphModule):
        def target(*args):
            return torch.fx.Interpreter(fn).run(*args)
        override = fx_traceback.override_stack_trace()
    if aliases is not None:
        from ._weights import functional
        target = functional(fn, n_inputs, aliases)
    old = proxy_tensor.PythonKeyTracer.record_stack_traces
    proxy_tensor.PythonKeyTracer.record_stack_traces = True
    try:
        if override is not None:
            with override:
                return proxy_tensor.make_fx(target)(*example_inputs)
        return proxy_tensor.make_fx(target)(*example_inputs)
    finally:
        proxy_tensor.PythonKeyTracer.record_stack_traces = old


def _live(gm):
    """The nodes the outputs depend on (dead ones, e.g. batch norm's unused
    empty.memory_format under make_fx, are never looked at)."""
    out = [n for n in gm.graph.nodes if n.op == "output"]
    live, stack = set(out), list(out)
    while stack:
        for d in stack.pop().all_input_nodes:
            if d not in live:
                live.add(d)
                stack.append(d)
    return live


def _meta(node):
    m = node.meta.get("tensor_meta")
    if m is None:
        v = node.meta.get("val")
        if isinstance(v, torch.Tensor):
            return (tuple(v.shape), v.dtype)
        if isinstance(v, (tuple, list)):
            return [(tuple(e.shape), e.dtype) if isinstance(e, torch.Tensor) else None for e in v]
        return None
    if hasattr(m, "shape"):            # TensorMetadata (a NamedTuple)
        return (tuple(m.shape), m.dtype)
    return [(tuple(e.shape), e.dtype) if hasattr(e, "shape") else None for e in m]


def _check(node):
    """None when node is handled, else why not ('' when the op has no emitter)."""
    if node.target not in OPS:
        return ""
    emit, check = OPS[node.target]
    why = check(node) if check else None
    if why:
        return why
    meta = _meta(node)
    for m in (meta if isinstance(meta, list) else [meta]):
        if m is not None:
            try:
                element(m[1])
            except BrazeError:
                return "dtype %s" % m[1]
    if node.target.__class__.__name__ == "OpOverload" and getattr(node.target, "__name__", "").split(".")[0].endswith("_") \
            and node.args and hasattr(node.args[0], "users"):
        later = [u for u in node.args[0].users if u is not node and _after(u, node)]
        if later:
            return "in place on %s, which %s reads afterwards" % (node.args[0].name, later[0].name)
    return None


def _after(a, b):
    n = b.next
    while n.op != "root":
        if n is a:
            return True
        n = n.next
    return False


def is_supported(node):
    """Whether convert() takes this call_function node (the partitioner's question)."""
    return node.op == "call_function" and _check(node) is None


def is_view(node):
    name = op_name(node)
    return name.split(".")[-2 if name.count(".") >= 2 else -1] in VIEWS or name == "getitem"


def unsupported(gm):
    """[(op name, 'file:line', why)] of the live call_function nodes convert() refuses."""
    live = _live(gm)
    seen, res = set(), []
    for n in gm.graph.nodes:
        if n in live and n.op == "call_function":
            why = _check(n)
            if why is not None:
                key = (op_name(n), where(n), why)
                if key not in seen:
                    seen.add(key)
                    res.append(key)
    return res


def _has_meta(gm, live):
    return all(_meta(n) is not None for n in gm.graph.nodes if n in live and n.op in ("call_function", "placeholder"))


def convert(gm, example_inputs, func_name="forward", optional_from=None, kept=None):
    """(module text, number of outputs) of GraphModule gm of ATen ops on example_inputs.
    get_attr tensors become constants; placeholders take the example inputs' types.
    Placeholders from index optional_from on (the weights) that no output depends on
    are left out of the signature; kept (a list) receives the indices of those in it."""
    bad = unsupported(gm)
    if bad:
        raise UnsupportedOps(bad)
    live = _live(gm)
    if not _has_meta(gm, live):
        from torch.fx.passes.shape_prop import ShapeProp
        ShapeProp(gm).propagate(*[x.clone() for x in example_inputs])
    em = Emitter()
    em.values, em.folded = {}, set()
    aten = torch.ops.aten
    for n in gm.graph.nodes:
        # t(W) read only as addmm's matrix with a 1-D bias: graph.linear(x, W, b).
        if n in live and n.target == aten.t.default and n.users and all(
                u.target == aten.addmm.default and u.args[2] is n and u.args[1] is not n and not u.kwargs
                and _rank(gm, u.args[0]) == 1 for u in n.users):
            em.folded.add(n)
    args, outs, i = [], [], 0
    for n in gm.graph.nodes:
        if n.op == "placeholder":
            x = example_inputs[i]
            i += 1
            if optional_from is not None and i > optional_from and n not in live:
                continue
            v = Val("%%arg%d" % len(args), x.shape, x.dtype)
            args.append("%s: %s %s" % (v.name, v.type, mlir_loc(n)))
            em.values[n] = v
            if kept is not None:
                kept.append(i - 1)
        elif n not in live:
            continue
        elif n.op == "get_attr":
            t = getattr(gm, n.target)
            em.values[n] = em.constant(t, 'loc("%s")' % n.target) if isinstance(t, torch.Tensor) else t
        elif n.op == "call_function":
            em.loc = mlir_loc(n)
            if n in em.folded:
                em.values[n] = None         # read by addmm as graph.linear's weight
                continue
            a = torch.fx.node.map_arg(n.args, lambda d: em.values[d])
            kw = torch.fx.node.map_arg(n.kwargs, lambda d: em.values[d])
            try:
                em.values[n] = OPS[n.target][0](em, n, a, kw, _meta(n))
            except (BrazeError, TypeError, IndexError, KeyError, ValueError, AttributeError) as e:
                raise BrazeError("frontend='fx': %s at %s: %s" % (op_name(n), where(n), e)) from None
        elif n.op == "output":
            res = n.args[0]
            outs = list(res) if isinstance(res, (tuple, list)) else [res]
        else:
            raise BrazeError("frontend='fx': unexpected node %s (%s) at %s" % (n.name, n.op, where(n)))
    for o in outs:
        if not isinstance(em.values.get(o), Val):
            raise BrazeError("frontend='fx': output %s is no tensor" % o)
    res = [em.values[o] for o in outs]
    rtypes = ", ".join(r.type for r in res)
    text = ["module {", "  func.func @%s(%s) -> (%s) {" % (func_name, ", ".join(args), rtypes)]
    text += ["    " + l for l in em.lines]
    text += ["    return %s : %s" % (", ".join(r.name for r in res), rtypes), "  }", "}", ""]
    return "\n".join(text), len(res)


def _rank(gm, n):
    if n.op == "get_attr":
        return getattr(gm, n.target).dim()
    m = _meta(n)
    return len(m[0]) if isinstance(m, tuple) else None


def to_mlir(fn, example_inputs, func_name="forward"):
    """The graph dialect text and output count of fn traced on the inputs."""
    g = lower(fn, example_inputs, func_name=func_name)
    return g.text, g.n_out


class Lowered:
    """What lower() made: .text (the graph dialect module), .n_out, .weight_names and
    .weights (weights="input": the arguments after the inputs, in order; unused ones
    are left out), .symbols ({name: (min, max, div)}) and .dims ({input: {dim: name}})."""

    def __init__(self, text, n_out, weight_names=(), weights=(), symbols=None, dims=None):
        self.text, self.n_out = text, n_out
        self.weight_names, self.weights = list(weight_names), list(weights)
        self.symbols, self.dims = symbols or {}, dims or {}


def lower(fn, example_inputs, func_name="forward", weights="constant", dynamic=None, names=None):
    """fn traced and converted. weights="input": fn's parameters and buffers become
    arguments after the inputs (fx/_weights.py). dynamic: symbolic dims, the inputs
    named as in names (fx/_dynamic.py); traced once more per symbol."""
    xs = tuple(example_inputs)
    n = len(xs)
    wnames, wts, aliases = [], [], None
    if weights == "input" and isinstance(fn, torch.nn.Module):    # a function has no weights
        from ._weights import module_weights
        wnames, wts, aliases = module_weights(fn)
        # requires_grad as in the module: in eval with no grad needed, the transformer
        # layers would take their fused fast paths (one opaque ATen op each).
        wts = [w.detach().requires_grad_(w.requires_grad) for w in wts]

    def one(inputs):
        args = tuple(inputs) + tuple(wts)
        gm = trace(fn, args, n, aliases) if aliases is not None else trace(fn, args)
        kept = []
        text, n_out = convert(gm, args, func_name, optional_from=n if aliases is not None else None, kept=kept)
        return text, n_out, kept

    text, n_out, kept = one(xs)
    symbols, dims = {}, {}
    if dynamic:
        from . import _dynamic
        symbols, dims, sizes = _dynamic.parse(dynamic, list(names or ["in%d" % i for i in range(n)]), xs)
        traces = []
        for sym in sorted(symbols):
            m = _dynamic.second_size(sizes[sym], symbols[sym])
            if m is None:
                raise BrazeError("dynamic dim %s: its bounds %r leave no second size to trace at" % (sym, symbols[sym]))
            try:
                t2, _, k2 = one(_dynamic.resize(xs, dims, sym, m))
            except BrazeError:
                raise
            except Exception as e:
                raise BrazeError("dynamic dim %s: traced again at %s=%d (the example: %d), the module failed: "
                                 "%s: %s" % (sym, sym, m, sizes[sym], type(e).__name__,
                                             (str(e).strip().splitlines() or [""])[0])) from None
            if k2 != kept:
                raise BrazeError("dynamic dim %s: the weights the graph reads change with its size" % sym)
            traces.append((sym, m, t2))
        text = _dynamic.symbolize(text, traces, symbols, dims, sizes)
    kw = [k - n for k in kept if k >= n]
    return Lowered(text, n_out, [wnames[k] for k in kw], [wts[k].detach() for k in kw], symbols, dims)
