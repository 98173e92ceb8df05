"""frontend="fx": make_fx's ATen graph -> graph dialect MLIR text, a first subset.

Handles what Linear, GELU, ReLU and MLPs of them trace to (aten.t + aten.addmm as
graph.linear, aten.mm/add/sub/mul/gelu/relu/tanh, detach), f32 only, weights as
constants. Each op carries loc("file":line:0) from its node's stack trace (_loc).
Any other op is a BrazeError naming it and that location."""
import os
import re

from ._errors import BrazeError

_HERE = os.path.dirname(os.path.abspath(__file__)) + os.sep
_FRAME = re.compile(r'File "([^"]+)", line (\d+), in')


def _torch_dir():
    import torch
    return os.path.dirname(os.path.abspath(torch.__file__)) + os.sep


def _loc(node):
    """loc("file":line:0) of the innermost frame of node's stack trace (make_fx records
    it innermost first) outside torch and braze: the user's line that made the op. When
    every frame is torch's, the innermost torch.nn
    frame (never reached in practice: the line that called braze.compile is outside torch,
so the ops of an nn.Sequential of torch modules point there). No columns: stack
traces carry none."""
    frames = _FRAME.findall(node.stack_trace or "")
    tdir = _torch_dir()
    pick = next(((f, l) for f, l in frames if not f.startswith(("<", tdir, _HERE))), None)
    if pick is None:
        nn_dir = tdir + "nn" + os.sep
        pick = next(((f, l) for f, l in frames if f.startswith(nn_dir) and not f.endswith("module.py")), None)
    if pick is None:
        return 'loc("%s")' % node.name
    return 'loc("%s":%s:0)' % (pick[0].replace("\\", "\\\\").replace('"', '\\"'), pick[1])


def _ttype(t):
    import torch
    if t.dtype != torch.float32:
        raise BrazeError("frontend='fx' handles f32 only, not %s" % t.dtype)
    return "tensor<%sxf32>" % "x".join(str(d) for d in t.shape) if t.dim() else "tensor<f32>"


def _dense(t):
    import numpy as np
    a = np.ascontiguousarray(t.detach().cpu().numpy().astype("<f4"))
    return 'dense<"0x%s">' % a.tobytes().hex().upper()


def to_mlir(fn, example_inputs, func_name="forward"):
    """The graph dialect module text, input names and output names of fn traced on the inputs."""
    import torch
    from torch.fx.experimental import proxy_tensor
    aten = torch.ops.aten
    old = proxy_tensor.PythonKeyTracer.record_stack_traces
    proxy_tensor.PythonKeyTracer.record_stack_traces = True
    try:
        with torch.no_grad():
            gm = proxy_tensor.make_fx(fn)(*example_inputs)
    finally:
        proxy_tensor.PythonKeyTracer.record_stack_traces = old
    val, ty, lines, args, outs = {}, {}, [], [], []
    transposed = {}
    uses = {n: list(n.users) for n in gm.graph.nodes}
    counter = [0]

    def fresh():
        counter[0] += 1
        return "%%%d" % (counter[0] - 1)

    def meta(n):
        return n.meta["tensor_meta"] if "tensor_meta" in n.meta else None

    def tt(n):
        if n in ty:
            return ty[n]
        m = meta(n)
        import torch as _t
        return _ttype(_t.empty(m.shape, dtype=m.dtype))

    binary = {aten.add.Tensor: "add", aten.sub.Tensor: "sub", aten.mul.Tensor: "mul"}
    unary = {aten.relu.default: "relu", aten.tanh.default: "tanh"}
    for n in gm.graph.nodes:
        if n.op == "placeholder":
            i = len(args)
            args.append("%%arg%d: %s" % (i, _ttype(example_inputs[i])))
            val[n] = "%%arg%d" % i
        elif n.op == "get_attr":
            t = getattr(gm, n.target)
            v = fresh()
            lines.append('%s = "graph.constant"() {value = %s : %s} : () -> %s %s'
                         % (v, _dense(t), _ttype(t), _ttype(t), 'loc("%s")' % n.target))
            val[n], ty[n] = v, _ttype(t)
        elif n.op == "call_function":
            f, a = n.target, n.args
            where = _loc(n)
            if f == aten.detach.default:
                val[n] = val[a[0]]
            elif f == aten.t.default and all(u.target == aten.addmm.default and u.args[2] is n for u in uses[n]):
                transposed[n] = a[0]       # folded into graph.linear below
            elif f == aten.addmm.default and a[2] in transposed and not n.kwargs:
                v = fresh()
                w = transposed[a[2]]
                lines.append('%s = "graph.linear"(%s, %s, %s) : (%s, %s, %s) -> %s %s'
                             % (v, val[a[1]], val[w], val[a[0]], tt(a[1]), tt(w), tt(a[0]), tt(n), where))
                val[n] = v
            elif f == aten.mm.default:
                v = fresh()
                lines.append('%s = "graph.matmul"(%s, %s) : (%s, %s) -> %s %s'
                             % (v, val[a[0]], val[a[1]], tt(a[0]), tt(a[1]), tt(n), where))
                val[n] = v
            elif f in binary and len(a) == 2 and all(hasattr(x, "op") for x in a) and not n.kwargs:
                v = fresh()
                lines.append('%s = "graph.%s"(%s, %s) : (%s, %s) -> %s %s'
                             % (v, binary[f], val[a[0]], val[a[1]], tt(a[0]), tt(a[1]), tt(n), where))
                val[n] = v
            elif f in unary:
                v = fresh()
                lines.append('%s = "graph.%s"(%s) : (%s) -> %s %s' % (v, unary[f], val[a[0]], tt(a[0]), tt(n), where))
                val[n] = v
            elif f == aten.gelu.default:
                v = fresh()
                approx = n.kwargs.get("approximate", a[1] if len(a) > 1 else "none")
                lines.append('%s = "graph.gelu"(%s) {approximate = "%s"} : (%s) -> %s %s'
                             % (v, val[a[0]], approx, tt(a[0]), tt(n), where))
                val[n] = v
            else:
                at = re.match(r'loc\("(.*)":(\d+):0\)$', where)
                raise BrazeError("frontend='fx' does not handle %s yet (at %s); frontend='onnx' may"
                                 % (f, "%s:%s" % at.groups() if at else n.name))
        elif n.op == "output":
            res = n.args[0]
            outs = list(res) if isinstance(res, (tuple, list)) else [res]
        else:
            raise BrazeError("frontend='fx': unexpected node %s (%s)" % (n.name, n.op))
    rtypes = [tt(o) for o in outs]
    text = ["module {",
            "  func.func @%s(%s) -> (%s) {" % (func_name, ", ".join(args), ", ".join(rtypes))]
    text += ["    " + l for l in lines]
    text.append("    return %s : %s" % (", ".join(val[o] for o in outs), ", ".join(rtypes)))
    text += ["  }", "}", ""]
    return "\n".join(text), len(args), len(outs)
