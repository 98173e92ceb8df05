"""The graph dialect text of one function: typed values, constants, ops with locations."""
import os
import re
import struct

from .._errors import BrazeError

_HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep
_FRAME = re.compile(r'File "([^"]+)", line (\d+), in')

# torch dtype name -> MLIR element type (the ones the C ABI has: _runtime.DTYPES).
ELEMENT = {"float32": "f32", "float16": "f16", "bfloat16": "bf16", "float64": "f64", "int64": "i64",
           "int32": "i32", "int16": "i16", "int8": "i8", "uint8": "ui8", "bool": "i1"}


def element(dtype):
    name = str(dtype).replace("torch.", "")
    if name not in ELEMENT:
        raise BrazeError("frontend='fx' has no element type for %s (known: %s)" % (dtype, ", ".join(sorted(ELEMENT))))
    return ELEMENT[name]


def tensor_type(shape, elt):
    return "tensor<%s>" % "x".join([str(int(d)) for d in shape] + [elt]) if len(shape) else "tensor<%s>" % elt


class Val:
    """An SSA value of the function: its name, shape and torch dtype."""
    __slots__ = ("name", "shape", "dtype")

    def __init__(self, name, shape, dtype):
        self.name, self.shape, self.dtype = name, tuple(int(d) for d in shape), dtype

    @property
    def rank(self):
        return len(self.shape)

    @property
    def type(self):
        return tensor_type(self.shape, element(self.dtype))


def _torch_dir():
    import torch
    return os.path.dirname(os.path.abspath(torch.__file__)) + os.sep


def source_line(node):
    """(file, line) of the innermost frame of node's stack trace outside torch and braze:
    the user's line that made the op (make_fx records innermost first; a trace through
    torch.fx.Interpreter keeps the original node's trace). When every frame is torch's,
    the innermost torch.nn frame; None without a stack trace. No columns: stack traces
    carry none."""
    frames = _FRAME.findall(node.stack_trace or "")
    tdir = _torch_dir()
    pick = next(((f, l) for f, l in frames if not f.startswith(("<", tdir, _HERE))), None)
    if pick is None:
        nn_dir = tdir + "nn" + os.sep
        pick = next(((f, l) for f, l in frames if f.startswith(nn_dir) and not f.endswith("module.py")), None)
    return pick


def where(node):
    """'file:line' of node for messages, else its FX name."""
    at = source_line(node)
    return "%s:%s" % at if at else "node %s" % node.name


def mlir_loc(node):
    at = source_line(node)
    if at is None:
        return 'loc("%s")' % node.name
    return 'loc("%s":%s:0)' % (at[0].replace("\\", "\\\\").replace('"', '\\"'), at[1])


def dense(t):
    """A dense elements literal of tensor t: hex bytes (little endian), i1 as a list."""
    import numpy as np
    t = t.detach().cpu().contiguous()
    if str(t.dtype) == "torch.bool":
        a = t.numpy()
        if a.size and (a.all() or not a.any()):
            return "dense<%s>" % ("true" if a.flat[0] else "false")
        return "dense<%s>" % _nested(a.tolist())
    if str(t.dtype) == "torch.bfloat16":
        import torch
        raw = t.view(torch.int16).numpy().astype("<i2").tobytes()
    else:
        a = t.numpy()
        if a.size > 1 and (a == a.flat[0]).all():
            a = a.reshape(-1)[:1]          # a splat: one element's bytes
        raw = np.ascontiguousarray(a.astype(a.dtype.newbyteorder("<"))).tobytes()
    return 'dense<"0x%s">' % raw.hex().upper()


def _nested(x):
    if isinstance(x, list):
        return "[" + ", ".join(_nested(e) for e in x) + "]"
    return "true" if x else "false"


def f32_attr(v):
    return "0x%08X : f32" % struct.unpack("<I", struct.pack("<f", float(v)))[0]


def ints(xs):
    xs = [int(x) for x in xs]
    return "array<i64%s>" % (": " + ", ".join(map(str, xs)) if xs else "")


class Emitter:
    """Lines of one func.func body; every op carries the location of the node being emitted."""

    def __init__(self):
        self.lines, self.count, self.loc = [], 0, 'loc(unknown)'

    def _fresh(self):
        self.count += 1
        return "%%%d" % (self.count - 1)

    def op(self, name, operands, shape, dtype, attrs=None):
        """One graph.NAME op of operands (Vals) with a result of shape and dtype."""
        res = Val(self._fresh(), shape, dtype)
        attr = " {%s}" % ", ".join("%s = %s" % kv for kv in attrs.items()) if attrs else ""
        self.lines.append('%s = "graph.%s"(%s)%s : (%s) -> %s %s'
                          % (res.name, name, ", ".join(o.name for o in operands), attr,
                             ", ".join(o.type for o in operands), res.type, self.loc))
        return res

    def constant(self, t, loc=None):
        """A graph.constant of tensor t."""
        res = Val(self._fresh(), t.shape, t.dtype)
        self.lines.append('%s = "graph.constant"() {value = %s : %s} : () -> %s %s'
                          % (res.name, dense(t), res.type, res.type, loc or self.loc))
        return res

    def full(self, value, shape, dtype):
        """A splat constant of value in dtype."""
        import torch
        return self.constant(torch.full(tuple(shape) or (), value, dtype=dtype) if shape else torch.tensor(value, dtype=dtype))
