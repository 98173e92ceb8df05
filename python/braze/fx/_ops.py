"""ATen ops (make_fx's graphs on PyTorch 1.13 and 2.x) as graph dialect ops.

OPS maps an ATen overload to (emit, check): emit(em, node, args, kwargs, out) writes the
ops and returns a Val (or a tuple, None for results the graph dialect has no op for);
check(node) is None when the node is handled, else why not. `out` is the node's
(shape, dtype) from its tensor_meta (a list of them for tuple results)."""
import operator
import sys

from .._errors import BrazeError
from ._emit import Val, f32_attr, ints

OPS = {}


def _reg(names, check=None):
    def deco(fn):
        import torch
        aten = torch.ops.aten
        for name in names.split():
            packet, _, overload = name.partition(".")
            op = getattr(aten, packet, None)
            op = getattr(op, overload or "default", None) if op is not None else None
            if op is not None:           # an overload this torch lacks is not registered
                OPS[op] = (fn, check)
        return fn
    return deco


def _dim(d, rank):
    return d + rank if d < 0 else d


def _cast(em, v, dtype):
    return v if v.dtype == dtype else em.op("cast", [v], v.shape, dtype)


def _operand(em, x, dtype):
    """A tensor operand in dtype: a Val cast, a Python number as a rank-0 constant."""
    if isinstance(x, Val):
        return _cast(em, x, dtype)
    return em.full(x, (), dtype)


# ---- pointwise ----

_UNARY = {"relu": "relu", "relu_": "relu", "tanh": "tanh", "sigmoid": "sigmoid", "exp": "exp", "log": "log",
          "sqrt": "sqrt", "rsqrt": "rsqrt", "neg": "neg", "abs": "abs", "erf": "erf", "silu": "silu",
          "sin": "sin", "cos": "cos"}


def _unary(name):
    def emit(em, node, a, kw, out):
        return em.op(name, [_cast(em, a[0], out[1])], out[0], out[1])
    return emit


for _k, _v in _UNARY.items():
    _reg(_k, lambda n: None if not n.kwargs else "keyword arguments %s" % dict(n.kwargs))(_unary(_v))


@_reg("gelu gelu_")
def _gelu(em, node, a, kw, out):
    approx = kw.get("approximate", a[1] if len(a) > 1 else "none")
    return em.op("gelu", [a[0]], out[0], out[1], {"approximate": '"%s"' % approx})


def _binary(name, reverse=False):
    def emit(em, node, a, kw, out):
        x, y = _operand(em, a[0], out[1]), _operand(em, a[1], out[1])
        alpha = kw.get("alpha", 1)
        if alpha != 1:
            y = em.op("mul", [y, em.full(alpha, (), out[1])], y.shape, out[1])
        if reverse:
            x, y = y, x
        return em.op(name, [x, y], out[0], out[1])
    return emit


def _no_rounding(node):
    return "rounding_mode=%r" % node.kwargs["rounding_mode"] if node.kwargs.get("rounding_mode") else None


_reg("add.Tensor add.Scalar add_.Tensor")(_binary("add"))
_reg("sub.Tensor sub.Scalar sub_.Tensor")(_binary("sub"))
_reg("rsub.Scalar rsub.Tensor")(_binary("sub", reverse=True))
_reg("mul.Tensor mul.Scalar mul_.Tensor")(_binary("mul"))
_reg("div.Tensor div.Scalar div_.Tensor", _no_rounding)(_binary("div"))
_reg("pow.Tensor_Scalar pow.Tensor_Tensor")(_binary("pow"))
_reg("maximum")(_binary("max"))
_reg("minimum")(_binary("min"))


@_reg("where.self")
def _where(em, node, a, kw, out):
    return em.op("select", [_operand(em, a[0], a[0].dtype if isinstance(a[0], Val) else __import__("torch").bool),
                            _operand(em, a[1], out[1]), _operand(em, a[2], out[1])], out[0], out[1])


@_reg("_to_copy")
def _to_copy(em, node, a, kw, out):
    return _cast(em, a[0], out[1])


# ---- the same value: copies, aliases, views that keep the shape ----

@_reg("detach clone alias lift_fresh_copy lift_fresh contiguous")
def _same(em, node, a, kw, out):
    return a[0]


@_reg("view _unsafe_view _reshape_alias reshape unsqueeze squeeze squeeze.dim flatten.using_ints view.dtype")
def _reshape(em, node, a, kw, out):
    if node.target.__name__.startswith("view.dtype"):
        raise BrazeError("a dtype view")
    return a[0] if tuple(a[0].shape) == tuple(out[0]) else em.op("reshape", [a[0]], out[0], out[1])


@_reg("permute")
def _permute(em, node, a, kw, out):
    perm = [_dim(d, a[0].rank) for d in a[1]]
    return a[0] if perm == sorted(perm) else em.op("transpose", [a[0]], out[0], out[1], {"perm": ints(perm)})


@_reg("transpose.int")
def _transpose(em, node, a, kw, out):
    perm = list(range(a[0].rank))
    d0, d1 = _dim(a[1], a[0].rank), _dim(a[2], a[0].rank)
    perm[d0], perm[d1] = perm[d1], perm[d0]
    return a[0] if d0 == d1 else em.op("transpose", [a[0]], out[0], out[1], {"perm": ints(perm)})


@_reg("t")
def _t(em, node, a, kw, out):
    return a[0] if a[0].rank < 2 else em.op("transpose", [a[0]], out[0], out[1], {"perm": ints([1, 0])})


@_reg("expand")
def _expand(em, node, a, kw, out):
    return a[0] if tuple(a[0].shape) == tuple(out[0]) else em.op("broadcast_to", [a[0]], out[0], out[1])


@_reg("slice.Tensor")
def _slice(em, node, a, kw, out):
    x = a[0]
    dim = _dim(a[1] if len(a) > 1 else 0, x.rank)
    start = a[2] if len(a) > 2 and a[2] is not None else 0
    end = a[3] if len(a) > 3 and a[3] is not None else sys.maxsize
    step = a[4] if len(a) > 4 else 1
    n = x.shape[dim]
    start = max(0, min(n, start + n if start < 0 else start))
    end = max(start, min(n, end + n if end < 0 else end))
    return _slice_dim(em, x, dim, start, end, step, out)


def _slice_dim(em, x, dim, start, end, step, out):
    if (start, end, step) == (0, x.shape[dim], 1):
        return x
    starts, limits, strides = [0] * x.rank, list(x.shape), [1] * x.rank
    starts[dim], limits[dim], strides[dim] = start, end, step
    return em.op("slice", [x], out[0], out[1],
                 {"starts": ints(starts), "limits": ints(limits), "strides": ints(strides)})


@_reg("split.Tensor split_with_sizes")
def _split(em, node, a, kw, out):
    x, sizes = a[0], a[1]
    dim = _dim(a[2] if len(a) > 2 else kw.get("dim", 0), x.rank)
    if isinstance(sizes, int):
        sizes = [min(sizes, x.shape[dim] - s) for s in range(0, x.shape[dim], sizes)]
    res, start = [], 0
    for s, o in zip(sizes, out):
        res.append(_slice_dim(em, x, dim, start, start + s, 1, o))
        start += s
    return tuple(res)


@_reg("cat")
def _cat(em, node, a, kw, out):
    xs = [_cast(em, x, out[1]) for x in a[0] if not (x.rank == 1 and x.shape[0] == 0)]
    dim = _dim(a[1] if len(a) > 1 else kw.get("dim", 0), xs[0].rank)
    acc = xs[0]
    for x in xs[1:]:
        shape = list(acc.shape)
        shape[dim] += x.shape[dim]
        acc = em.op("concat", [acc, x], shape, out[1], {"dim": "%d : i64" % dim})
    return acc


# ---- contractions ----

@_reg("mm")
def _mm(em, node, a, kw, out):
    return em.op("matmul", [a[0], a[1]], out[0], out[1])


@_reg("bmm")
def _bmm(em, node, a, kw, out):
    return em.op("batch_matmul", [a[0], a[1]], out[0], out[1])


def _default_scales(node):
    bad = {k: v for k, v in node.kwargs.items() if k in ("beta", "alpha") and v != 1}
    return "%s (only 1 is handled)" % bad if bad else None


@_reg("addmm", _default_scales)
def _addmm(em, node, a, kw, out):
    bias, x, w = a[0], a[1], a[2]
    if node.args[2] in em.folded:
        # x @ t(W) + b with W [N, K]: graph.linear (the converter folded the transpose).
        return em.op("linear", [x, em.values[node.args[2].args[0]], bias], out[0], out[1])
    return em.op("add", [em.op("matmul", [x, w], out[0], out[1]), bias], out[0], out[1])


# ---- reductions and normalizations ----

def _reduce(name):
    def emit(em, node, a, kw, out):
        x = a[0]
        dims = a[1] if len(a) > 1 and a[1] is not None else kw.get("dim", list(range(x.rank)))
        dims = [dims] if isinstance(dims, int) else dims
        dims = sorted(_dim(d, x.rank) for d in (dims or range(x.rank)))
        keep = a[2] if len(a) > 2 else kw.get("keepdim", False)
        r = em.op(name, [_cast(em, x, out[1])], out[0], out[1],
                  {"dims": ints(dims), "keepdim": "true" if keep else "false"})
        return r
    return emit


def _no_dtype(node):
    return "dtype=%s" % node.kwargs["dtype"] if node.kwargs.get("dtype") is not None else None


_reg("mean.dim mean", _no_dtype)(_reduce("reduce_mean"))
_reg("sum.dim_IntList sum", _no_dtype)(_reduce("reduce_sum"))
_reg("amax")(_reduce("reduce_max"))
_reg("amin")(_reduce("reduce_min"))


@_reg("_softmax _log_softmax")
def _softmax(em, node, a, kw, out):
    name = "log_softmax" if "log" in str(node.target) else "softmax"
    return em.op(name, [_cast(em, a[0], out[1])], out[0], out[1], {"dim": "%d : i64" % _dim(a[1], a[0].rank)})


def _ones(em, v, n, dtype, value=1.0):
    return v if v is not None else em.full(value, (n,), dtype)


@_reg("native_layer_norm")
def _layer_norm(em, node, a, kw, out):
    x, shape, w, b, eps = a[0], a[1], a[2], a[3], a[4]
    axis = x.rank - len(shape)
    n = 1
    for d in shape:
        n *= d
    if len(shape) != 1:
        w = w if w is None else em.op("reshape", [w], (n,), w.dtype)
        b = b if b is None else em.op("reshape", [b], (n,), b.dtype)
    w, b = _ones(em, w, n, x.dtype), _ones(em, b, n, x.dtype, 0.0)
    y = em.op("layer_norm", [x, w, b], out[0][0], out[0][1], {"axis": "%d : i64" % axis, "eps": f32_attr(eps)})
    return (y, None, None)


def _eval_batch_norm(node):
    return "training=True (batch statistics): put the module in eval mode" if node.args[5] else None


@_reg("native_batch_norm", _eval_batch_norm)
def _batch_norm(em, node, a, kw, out):
    return _bn(em, a[0], a[1], a[2], a[3], a[4], a[7], out)


@_reg("_native_batch_norm_legit_no_training")
def _batch_norm_no_training(em, node, a, kw, out):
    return _bn(em, a[0], a[1], a[2], a[3], a[4], a[6], out)


def _bn(em, x, w, b, mean, var, eps, out):
    c = x.shape[1]
    w, b = _ones(em, w, c, x.dtype), _ones(em, b, c, x.dtype, 0.0)
    y = em.op("batch_norm", [x, w, b, mean, var], out[0][0], out[0][1], {"eps": f32_attr(eps)})
    return (y, None, None)


# ---- convolution and pooling ----

def _conv_check(node):
    a = node.args
    if len(a) > 7 and a[6] and any(a[7]):
        return "transposed with output_padding %s" % list(a[7])
    return None


@_reg("convolution", _conv_check)
def _convolution(em, node, a, kw, out):
    x, w, b, stride, pad, dil, transposed, _, groups = a[:9]
    n = x.rank - 2
    pad = list(pad) * (n if len(pad) == 1 else 1)
    attrs = {"strides": ints(list(stride) * (n if len(stride) == 1 else 1)), "pads": ints(pad + pad),
             "dilations": ints(list(dil) * (n if len(dil) == 1 else 1)), "groups": "%d : i64" % groups}
    if transposed:
        attrs["output_padding"] = ints([0] * n)
    y = em.op("conv_transpose" if transposed else "conv", [x, w], out[0], out[1], attrs)
    if b is not None:
        y = em.op("add", [y, em.op("reshape", [b], (b.shape[0],) + (1,) * n, b.dtype)], out[0], out[1])
    return y


def _pool_check(node):
    a = node.args
    return "ceil_mode=True" if len(a) > 5 and a[5] else None


@_reg("max_pool2d_with_indices", _pool_check)
def _max_pool2d(em, node, a, kw, out):
    """Channels-last through a window view (as the ONNX importer pools, decision 0019):
    x [N, C, H, W] -> [N, H, W, C], padded with -inf by concats, window [N, OH, OW, KH,
    KW, C], reduce_max over the window dims, back to [N, C, OH, OW]."""
    import torch
    x, k = a[0], list(a[1])
    stride = list(a[2]) if len(a) > 2 and a[2] else k
    pad = list(a[3]) if len(a) > 3 else [0]
    dil = list(a[4]) if len(a) > 4 else [1]
    k, stride, pad, dil = [v * 2 if len(v) == 1 else v for v in (k, stride, pad, dil)]
    n, c, h, w = x.shape
    y = em.op("transpose", [x], (n, h, w, c), x.dtype, {"perm": ints([0, 2, 3, 1])})
    lowest = float("-inf") if x.dtype.is_floating_point else torch.iinfo(x.dtype).min
    for axis, p in ((1, pad[0]), (2, pad[1])):
        if p:
            side = list(y.shape)
            side[axis] = p
            fill = em.full(lowest, side, x.dtype)
            grown = list(y.shape)
            grown[axis] += p
            y = em.op("concat", [fill, y], grown, x.dtype, {"dim": "%d : i64" % axis})
            grown2 = list(grown)
            grown2[axis] += p
            y = em.op("concat", [y, fill], grown2, x.dtype, {"dim": "%d : i64" % axis})
    oh, ow = out[0][0][2], out[0][0][3]
    win = em.op("window", [y], (n, oh, ow, k[0], k[1], c), x.dtype,
                {"kernel": ints(k), "strides": ints(stride), "dilations": ints(dil)})
    r = em.op("reduce_max", [win], (n, oh, ow, c), x.dtype, {"dims": ints([3, 4]), "keepdim": "false"})
    return (em.op("transpose", [r], out[0][0], out[0][1], {"perm": ints([0, 3, 1, 2])}), None)


def _getitem(em, node, a, kw, out):
    src, i = a
    if not isinstance(src, (tuple, list)):
        raise BrazeError("getitem of a value that is no tuple")
    if src[i] is None:
        raise BrazeError("result %d of %s is used (only result 0 is handled)" % (i, node.args[0].target))
    return src[i]


OPS[operator.getitem] = (_getitem, None)

# Ops that move or relabel data but compute nothing: a partition made only of them
# stays eager (braze_backend).
VIEWS = {"detach", "clone", "alias", "lift_fresh_copy", "lift_fresh", "contiguous", "view", "_unsafe_view",
         "_reshape_alias", "reshape", "unsqueeze", "squeeze", "flatten", "permute", "transpose", "t",
         "expand", "slice", "select", "split", "split_with_sizes", "cat", "getitem", "_to_copy"}


@_reg("embedding")
def _embedding(em, node, a, kw, out):
    """Rows of the table at the indices: graph.gather on axis 0 (padding_idx only
    matters to the gradient)."""
    return em.op("gather", [a[0], a[1]], out[0], out[1], {"axis": "0 : i64"})


@_reg("select.int")
def _select(em, node, a, kw, out):
    """x[..., i, ...]: a slice of one along dim, then the dim dropped (a reshape)."""
    x, dim, i = a[0], _dim(a[1], a[0].rank), a[2]
    i = i + x.shape[dim] if i < 0 else i
    shape = list(x.shape)
    shape[dim] = 1
    one = _slice_dim(em, x, dim, i, i + 1, 1, (shape, x.dtype))
    return em.op("reshape", [one], out[0], out[1])
