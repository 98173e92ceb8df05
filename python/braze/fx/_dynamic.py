"""Symbolic dims for frontend="fx" (dynamic=, decision 0028 and 0029).

make_fx on PyTorch 1.13 traces at concrete sizes, so the graph is traced at the example
sizes and once more per symbol with only that symbol's dims changed (the ONNX
importer's `--dim` does the same with two imports, decision 0029). The traces must be
the same graph op for op: the same ops, attributes and constants, differing only in
tensor types. A dim that differs between the base trace and symbol s's trace is `?`;
the arguments bind theirs with {graph.dims = [...]} and the function declares
{graph.symbols = {s = array<i64: min, max, div>}}; the graph verifier infers every other
`?` from the arguments as a shape expression and checks it, and the target decides
whether it can run it (the CPU: one symbol that is a free row dim, decision 0029).

    dynamic={"x": {0: ("batch", 1, 64)}}            # input name (or index) -> dim -> symbol
    dynamic={"x": {0: ("batch", 8, 512, 8)}, "mask": {0: "batch"}}   # a divisor; reuse"""
import re

from .._errors import BrazeError

__all__ = ["parse", "resize", "symbolize"]

_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_TYPE = re.compile(r"tensor<((?:\d+x)*)([a-z]\w*)>")
_LOC = re.compile(r'loc\("((?:[^"\\]|\\.)*)":(\d+):0\)')
_OP = re.compile(r'"graph\.(\w+)"')


def parse(dynamic, names, xs):
    """(symbols {name: (min, max, div)}, dims {input index: {dim: name}}, sizes {name:
    the example's size}) of the dynamic= argument, checked against the input names and
    example shapes."""
    if not isinstance(dynamic, dict):
        raise BrazeError("dynamic= takes a dict {input name or index: {dim: (symbol, min, max[, div])}}, "
                         "not %s" % type(dynamic).__name__)
    symbols, dims, sizes = {}, {}, {}
    for key, spec in dynamic.items():
        if isinstance(key, int) and 0 <= key < len(xs):
            i = key
        elif key in names:
            i = names.index(key)
        else:
            raise BrazeError("dynamic=: no input %r (the inputs: %s)" % (key, ", ".join(names)))
        x = xs[i]
        if not isinstance(spec, dict):
            raise BrazeError("dynamic=[%r]: expected {dim: (symbol, min, max[, div])}, got %r" % (key, spec))
        for d, sym in spec.items():
            where = "input %d '%s' dim %r" % (i, names[i], d)
            what = "dynamic=: " + where
            if not isinstance(d, int) or not -x.dim() <= d < x.dim():
                raise BrazeError("%s: the input has %d dims" % (what, x.dim()))
            d = d + x.dim() if d < 0 else d
            if isinstance(sym, str):
                name, bounds = sym, None
            elif isinstance(sym, (tuple, list)) and len(sym) in (3, 4) and isinstance(sym[0], str) \
                    and all(isinstance(v, int) for v in sym[1:]):
                name, bounds = sym[0], (sym[1], sym[2], sym[3] if len(sym) == 4 else 1)
            else:
                raise BrazeError("%s: expected (symbol, min, max) or (symbol, min, max, div) or a symbol "
                                 "named elsewhere, got %r" % (what, sym))
            if not _IDENT.match(name):
                raise BrazeError("%s: the symbol %r is no identifier ([A-Za-z_][A-Za-z0-9_]*)" % (what, name))
            if bounds is not None:
                lo, hi, div = bounds
                if not (1 <= lo <= hi and div >= 1):
                    raise BrazeError("%s: bounds of %s must have 1 <= min <= max and div >= 1, got %r"
                                     % (what, name, bounds))
                if symbols.get(name, bounds) != bounds:
                    raise BrazeError("%s: %s is declared with bounds %r and %r" % (what, name, symbols[name], bounds))
                symbols[name] = bounds
            dims.setdefault(i, {})[d] = name
            n = int(x.shape[d])
            if sizes.setdefault(name, (n, where))[0] != n:
                raise BrazeError("%s: %s is %d here but %d at %s" % (what, name, n, sizes[name][0], sizes[name][1]))
    for name, (n, where) in sizes.items():
        what = "dynamic=: " + where
        if name not in symbols:
            raise BrazeError("%s: symbol %s has no bounds: give (\"%s\", min, max) once" % (what, name, name))
        lo, hi, div = symbols[name]
        if not (lo <= n <= hi and n % div == 0):
            raise BrazeError("%s: the example's size %d is outside %s in [%d, %d]%s" % (
                what, n, name, lo, hi, ", a multiple of %d" % div if div > 1 else ""))
    return symbols, dims, {name: n for name, (n, _) in sizes.items()}


def second_size(n, bounds):
    """Another size of a symbol within its bounds for the second trace, or None."""
    lo, hi, div = bounds
    for m in (n + div, n - div):
        if lo <= m <= hi and m != 1:
            return m
    return None


def resize(xs, dims, symbol, m):
    """The inputs with symbol's dims at size m, from the example's own values (rows
    repeated or cut), so index inputs stay in range."""
    res = []
    for i, x in enumerate(xs):
        for d, name in dims.get(i, {}).items():
            if name == symbol:
                n = x.shape[d]
                reps = [1] * x.dim()
                reps[d] = -(-m // n)
                x = x.repeat(*reps).narrow(d, 0, m).contiguous()
        res.append(x)
    return res


def _where(line):
    loc, op = _LOC.search(line), _OP.search(line)
    at = "%s:%s" % (loc.group(1), loc.group(2)) if loc else "an op without a line"
    return "%s at %s" % ("graph." + op.group(1) if op else "the signature", at)


_ATTR = re.compile(r"(\w+) = (array<[^>]*>|dense<[^>]*>|[^,{}]+)")


def _what_differs(a, b, at_a, at_b):
    """The first attribute (or constant) of line a whose value differs in line b."""
    va, vb = dict(_ATTR.findall(a.split(" : ")[0])), dict(_ATTR.findall(b.split(" : ")[0]))
    for k in va:
        if va[k] != vb.get(k):
            v = vb.get(k, "absent")
            return "%s = %s at %s, %s at %s" % (k, va[k][:48], at_a, v[:48], at_b)
    return "a different op" if _OP.search(a) and _OP.search(b) and _OP.search(a).group(1) != _OP.search(b).group(1) \
        else "its operands or types differ"


def _split(line):
    """(the line with its types blanked, [[dims], element] per type)."""
    types = [([int(d) for d in m.group(1).split("x")[:-1]], m.group(2)) for m in _TYPE.finditer(line)]
    return _TYPE.sub("T", line), types


def symbolize(base, traces, symbols, dims, sizes):
    """The base trace's text with `?` where a symbol's trace changes a dim, the arguments'
    graph.dims and the function's graph.symbols. traces: [(symbol, its size, text)]."""
    lines = base.split("\n")
    parsed = [_split(l) for l in lines]
    marks = {}                       # (line, type, dim) -> symbol
    for sym, m, text in traces:
        other = text.split("\n")
        why = "traced at %s=%d and at %s=%d" % (sym, sizes[sym], sym, m)
        for k, (a, b) in enumerate(zip(lines, other + [""] * max(0, len(lines) - len(other)))):
            (sa, ta), (sb, tb) = parsed[k], _split(b)
            if sa != sb or len(ta) != len(tb) or any(len(x[0]) != len(y[0]) or x[1] != y[1] for x, y in zip(ta, tb)):
                raise BrazeError("dynamic dim %s: the graph %s differs at %s: %s; frontend='fx' keeps a dim "
                                 "symbolic only where the ops carry it in their shapes alone%s"
                                 % (sym, why, _where(a), _what_differs(a, b, "%s=%d" % (sym, sizes[sym]), "%s=%d" % (sym, m)),
                                    " (a size of 1 can also specialize a graph: trace at another size)"
                                    if 1 in (sizes[sym], m) else ""))
            for j, (x, y) in enumerate(zip(ta, tb)):
                for d, (u, v) in enumerate(zip(x[0], y[0])):
                    if u != v:
                        if '"graph.constant"' in a:
                            raise BrazeError("dynamic dim %s: a constant's shape follows it at %s: "
                                             "constants are static" % (sym, _where(a)))
                        if marks.setdefault((k, j, d), sym) != sym:
                            raise BrazeError("dynamic dims %s and %s: one dim follows both at %s"
                                             % (marks[(k, j, d)], sym, _where(a)))
        if len(other) != len(lines):
            raise BrazeError("dynamic dim %s: the graph %s has %d ops more or fewer" % (sym, why, abs(len(other) - len(lines))))
    out = []
    for k, line in enumerate(lines):
        types = parsed[k][1]
        pieces, last = [], 0
        n_args = len(re.findall(r"%arg\d+: ", line)) if line.lstrip().startswith("func.func") else 0
        for j, m in enumerate(_TYPE.finditer(line)):
            shape = types[j][0]
            bound = [marks[(k, j, d)] for d in range(len(shape)) if (k, j, d) in marks]
            t = "tensor<%s%s>" % ("".join("?x" if (k, j, d) in marks else "%dx" % s for d, s in enumerate(shape)),
                                  types[j][1])
            if j < n_args and bound:
                t += " {graph.dims = [%s]}" % ", ".join('"%s"' % b for b in bound)
            pieces.append(line[last:m.start()] + t)
            last = m.end()
        line = "".join(pieces) + line[last:]
        if n_args or line.lstrip().startswith("func.func"):
            attr = ", ".join("%s = array<i64: %d, %d, %d>" % ((s,) + symbols[s]) for s in sorted(symbols))
            assert line.endswith(") {")
            line = line[:-2] + " attributes {graph.symbols = {%s}} {" % attr
        out.append(line)
    return "\n".join(out)
