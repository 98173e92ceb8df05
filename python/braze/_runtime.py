"""The compiled library through ctypes: its tables (include/braze/runtime.h) and calls.

Needs only the standard library and numpy; torch is used when importable."""
import ctypes
import json
import os
import sys

import numpy as np

from ._errors import BrazeError, InputError

# BrazeRtDType codes (include/braze/runtime.h): name, numpy dtype, torch dtype name.
DTYPES = {
    0: ("f32", "float32", "float32"), 1: ("f16", "float16", "float16"), 2: ("bf16", "uint16", "bfloat16"),
    3: ("i32", "int32", "int32"), 4: ("i64", "int64", "int64"), 5: ("i1", "bool", "bool"),
    6: ("f64", "float64", "float64"), 7: ("i8", "int8", "int8"), 8: ("ui8", "uint8", "uint8"),
    9: ("i16", "int16", "int16"), 10: ("ui16", "uint16", None), 11: ("ui32", "uint32", None),
    12: ("ui64", "uint64", None),
}
MAX_RANK = 8


def _torch():
    """torch if it is importable (and not forbidden with sys.modules['torch'] = None)."""
    if "torch" in sys.modules:
        return sys.modules["torch"]
    try:
        import torch
        return torch
    except ImportError:
        return None


def _shape_str(shape):
    return "x".join(str(d) for d in shape) if shape else "scalar"


class Arg:
    """One argument of the entry. shape holds -1 for a symbolic dim (decision 0029);
    sym names that symbol (the manifest's), shown in its place."""

    def __init__(self, name, dtype, shape, role="input", sym=None):
        self.name, self.dtype, self.shape, self.role = name, dtype, tuple(shape), role
        self.np_dtype = np.dtype(DTYPES[dtype][1])
        self.torch_name = DTYPES[dtype][2]
        self.sym = sym
        self.symbolic = [d for d, n in enumerate(self.shape) if n < 0]

    def describe(self):
        return "%s[%s]" % (DTYPES[self.dtype][0], _shape_str([self.sym or "s" if n < 0 else n for n in self.shape]))

    def at(self, s):
        """The shape at symbol size s."""
        return tuple(s if n < 0 else n for n in self.shape) if self.symbolic else self.shape

    def to_json(self):
        return {"name": self.name, "dtype": DTYPES[self.dtype][0],
                "shape": [self.sym if n < 0 else n for n in self.shape], "role": self.role}


class Library:
    """A compiled library opened with ctypes: its first entry's tables and the entry."""

    def __init__(self, path):
        self.path = path
        try:
            self.lib = ctypes.CDLL(os.path.abspath(path))
        except OSError as e:
            raise BrazeError("cannot load %s: %s" % (path, e))
        names = ctypes.cast(ctypes.addressof(ctypes.c_char_p.in_dll(self.lib, "braze_entry_names")),
                            ctypes.POINTER(ctypes.c_char_p))
        self.entries = []
        i = 0
        while names[i] is not None:
            self.entries.append(names[i].decode())
            i += 1
        if not self.entries:
            raise BrazeError("%s exports no entry" % path)
        self.entry = self.entries[0]
        e = self.entry
        n_in = ctypes.c_int32.in_dll(self.lib, e + "_num_inputs").value
        n_out = ctypes.c_int32.in_dll(self.lib, e + "_num_outputs").value
        n = n_in + n_out
        dtypes = (ctypes.c_int32 * n).in_dll(self.lib, e + "_arg_dtypes")
        ranks = (ctypes.c_int32 * n).in_dll(self.lib, e + "_arg_ranks")
        dims = (ctypes.c_int64 * (n * MAX_RANK)).in_dll(self.lib, e + "_arg_dims")
        self.args = [(dtypes[i], tuple(dims[i * MAX_RANK + j] for j in range(ranks[i]))) for i in range(n)]
        self.num_inputs, self.num_outputs = n_in, n_out
        try:
            self.target = ctypes.string_at(ctypes.addressof(ctypes.c_char.in_dll(self.lib, "braze_target_name"))).decode()
        except ValueError:
            self.target = "cpu"
        # An entry with a symbolic dim (decision 0029): its size after the pointers.
        try:
            self.num_symbols = ctypes.c_int32.in_dll(self.lib, e + "_num_symbols").value
            b = (ctypes.c_int64 * 3).in_dll(self.lib, e + "_symbol_bounds")
            self.symbol_bounds = (b[0], b[1], b[2])
        except ValueError:
            self.num_symbols, self.symbol_bounds = 0, None
        self.fn = getattr(self.lib, e)
        self.fn.restype = ctypes.c_int
        self.fn.argtypes = [ctypes.c_void_p] * n + [ctypes.c_int64] * self.num_symbols

    def status_message(self, status):
        if self.target == "cuda":
            f = self.lib.braze_cuda_last_error
            f.restype = ctypes.c_char_p
            msg = f()
            return msg.decode() if msg else "status %d" % status
        if status == 1:
            return "out of memory (the entry's workspace could not be allocated)"
        if status == 2:
            return "the running CPU lacks features the library was compiled for (the library printed which on stderr)"
        if status == 3 and self.num_symbols:
            f = self.lib.braze_last_error
            f.restype = ctypes.c_char_p
            msg = f()
            return msg.decode() if msg else "a size out of bounds"
        return "status %d" % status


class Compiled:
    """A compiled graph: call it with torch tensors (torch out) or numpy arrays (numpy out).

    Inputs must be contiguous, of the compiled dtype and shape, on the compiled device;
    they are passed by pointer (no copy). `convert=True` makes one copy of any input that
    is not (dtype, contiguity, device; never a shape). `out=` takes the output buffers."""

    def __init__(self, lib_path, manifest, source=None, options=None):
        self._lib = Library(lib_path)
        self.path = lib_path
        self.manifest = manifest
        self.target = manifest.get("target", "cpu")
        self._source = source          # the cache directory (model.onnx, reports) or None
        self._options = options or {}
        ins, outs = manifest["inputs"], manifest["outputs"]
        if len(ins) != self._lib.num_inputs or len(outs) != self._lib.num_outputs:
            raise BrazeError("%s: the manifest lists %d inputs and %d outputs, the library %d and %d"
                             % (lib_path, len(ins), len(outs), self._lib.num_inputs, self._lib.num_outputs))
        self.args = []
        syms = sorted(manifest.get("symbols", {}))
        self.symbols = {k: tuple(v) for k, v in manifest.get("symbols", {}).items()}
        if self._lib.num_symbols and not syms:
            syms = ["s"]
            self.symbols = {"s": self._lib.symbol_bounds}
        self.symbolic = bool(self._lib.num_symbols)
        self._bounds = self.symbols[syms[0]] if syms else None
        for i, (m, (dt, shape)) in enumerate(zip(ins + outs, self._lib.args)):
            self.args.append(Arg(m["name"], dt, shape, m.get("role", "input" if i < len(ins) else "output"),
                                 syms[0] if syms else None))
        self.inputs = [a for a in self.args[:len(ins)] if a.role == "input"]
        self.weight_args = [a for a in self.args[:len(ins)] if a.role == "weight"]
        self.outputs = self.args[len(ins):]
        self._weights = None
        self.frontend = manifest.get("frontend")   # compile(): "fx" or "onnx"
        self.frontend_reason = None                # why frontend="auto" took ONNX
        self.cache_hit = None
        self._tdt = self._odt = None    # torch dtypes of inputs and outputs, once torch is there
        self._device = "cuda" if self.target == "cuda" else "cpu"

    # ---- the call ----
    def _check(self, i, a, x, convert, what="input", shape=None, note=""):
        """(x or its one copy, whether it is a torch tensor); shape: the expected shape
        at this call's symbol size (default a.shape), note: where that size came from."""
        shape = a.shape if shape is None else shape
        torch = sys.modules.get("torch")
        if torch is not None and isinstance(x, torch.Tensor):
            want = getattr(torch, a.torch_name) if a.torch_name else None
            problems = []
            if tuple(x.shape) != shape:
                problems.append("shape [%s]%s" % (_shape_str(tuple(x.shape)), note))
            if x.dtype != want:
                problems.append("dtype %s" % str(x.dtype).replace("torch.", ""))
            if x.device.type != self._device:
                problems.append("device %s" % x.device)
            if not x.is_contiguous():
                problems.append("not contiguous (strides %s)" % (tuple(x.stride()),))
            if problems:
                if convert and tuple(x.shape) == shape and what in ("input", "weight"):
                    return x.to(device=self._device, dtype=want).contiguous(), True
                raise InputError(self._message(i, a, what, problems, convert))
            return x, True
        if isinstance(x, np.ndarray):
            problems = []
            if tuple(x.shape) != shape:
                problems.append("shape [%s]%s" % (_shape_str(x.shape), note))
            if x.dtype != a.np_dtype:
                problems.append("dtype %s" % x.dtype)
            if not x.flags.c_contiguous:
                problems.append("not contiguous (strides %s)" % (x.strides,))
            if self._device != "cpu":
                problems.append("a numpy array (host memory)")
            if problems:
                if convert and tuple(x.shape) == shape and self._device == "cpu" and what in ("input", "weight"):
                    return np.ascontiguousarray(x, dtype=a.np_dtype), False
                raise InputError(self._message(i, a, what, problems, convert))
            return x, False
        raise InputError(self._message(i, a, what, ["a %s" % type(x).__name__], convert))

    def _message(self, i, a, what, problems, convert):
        return "%s %d '%s': expected %s, contiguous, on %s; got %s%s" % (
            what, i, a.name, a.describe(), self._device, ", ".join(problems),
            "" if convert or what != "input" or any(p.startswith("shape") for p in problems)
            else " (convert=True copies it)")

    @staticmethod
    def _ptr(x, is_torch):
        return x.data_ptr() if is_torch else x.ctypes.data

    def _fast(self, inputs):
        """(the pointers, the symbol's size or None) when every input is a torch tensor
        that needs no check's message (the common case, kept short: this is the per-call
        overhead), else None. A symbolic entry: the size from the first input that has
        it, within the bounds, the same in every input."""
        torch = sys.modules.get("torch")
        if torch is None or self._tdt is None:
            return None
        Tensor, want_cuda, ptrs, size = torch.Tensor, self._device == "cuda", [], None
        for a, t, x in zip(self.inputs, self._tdt, inputs):
            if not (type(x) is Tensor and x.dtype is t and x.is_cuda == want_cuda and x.is_contiguous()):
                return None
            if a.symbolic:
                if size is None:
                    if len(x.shape) != len(a.shape):
                        return None
                    size = x.shape[a.symbolic[0]]
                    lo, hi, div = self._bounds
                    if not (lo <= size <= hi and size % div == 0):
                        return None
                if x.shape != a.at(size):
                    return None
            elif x.shape != a.shape:
                return None
            ptrs.append(x.data_ptr())
        return ptrs, size

    def __call__(self, *inputs, out=None, convert=False):
        if self._tdt is None and "torch" in sys.modules and sys.modules["torch"] is not None:
            torch = sys.modules["torch"]
            self._tdt = [getattr(torch, a.torch_name) if a.torch_name else None for a in self.inputs]
            self._odt = [getattr(torch, a.torch_name) if a.torch_name else None for a in self.outputs]
        if out is None and len(inputs) == len(self.inputs) and not (self.weight_args and self._weights is None):
            fast = self._fast(inputs)
            if fast is not None:
                ptrs, size = fast
                empty = sys.modules["torch"].empty
                outs = [empty(a.at(size), dtype=t, device=self._device) for a, t in zip(self.outputs, self._odt)]
                ptrs += self._weights[1] if self.weight_args else ()
                ptrs += [y.data_ptr() for y in outs]
                if size is not None:
                    ptrs.append(size)
                status = self._lib.fn(*ptrs)
                if status != 0:
                    raise BrazeError("%s returned %d: %s" % (self._lib.entry, status, self._lib.status_message(status)))
                return outs[0] if len(outs) == 1 else tuple(outs)
        if len(inputs) != len(self.inputs):
            raise InputError("expected %d inputs (%s), got %d" % (
                len(self.inputs), ", ".join("%s %s" % (a.name, a.describe()) for a in self.inputs), len(inputs)))
        if self.weight_args and self._weights is None:
            raise BrazeError("this library takes its weights as inputs: call set_weights() first")
        ptrs, keep = [], []
        any_torch = False
        size, note = (self._size(inputs) if self.symbolic else (None, ""))
        for i, (a, x) in enumerate(zip(self.inputs, inputs)):
            x, t = self._check(i, a, x, convert, shape=a.at(size), note=note if a.symbolic else "")
            any_torch |= t
            keep.append(x)
            ptrs.append(self._ptr(x, t))
        if self.weight_args:
            ptrs.extend(self._weights[1])
        if out is not None:
            outs = list(out) if isinstance(out, (tuple, list)) else [out]
            if len(outs) != len(self.outputs):
                raise InputError("out= expected %d outputs, got %d" % (len(self.outputs), len(outs)))
            for i, (a, y) in enumerate(zip(self.outputs, outs)):
                y, t = self._check(i, a, y, False, what="output", shape=a.at(size), note=note if a.symbolic else "")
                ptrs.append(self._ptr(y, t))
        else:
            torch = sys.modules.get("torch") if any_torch else None
            if torch is not None:
                outs = [torch.empty(a.at(size), dtype=getattr(torch, a.torch_name), device=self._device)
                        for a in self.outputs]
                ptrs.extend(y.data_ptr() for y in outs)
            else:
                outs = [np.empty(a.at(size), a.np_dtype) for a in self.outputs]
                ptrs.extend(y.ctypes.data for y in outs)
        if self.symbolic:
            ptrs.append(size)
        status = self._lib.fn(*ptrs)
        if status != 0:
            raise BrazeError("%s returned %d: %s" % (self._lib.entry, status, self._lib.status_message(status)))
        return outs[0] if len(outs) == 1 else tuple(outs)

    def _size(self, inputs):
        """(the symbol's size at this call, a note for shape errors): read from the first
        input that has the symbolic dim, checked against the bounds (decision 0029)."""
        name = self.inputs[0].sym if self.inputs else "s"
        lo, hi, div = self.symbols.get(name, self._lib.symbol_bounds)
        for i, (a, x) in enumerate(zip(self.inputs, inputs)):
            shape = getattr(x, "shape", None)
            if a.symbolic and shape is not None and len(shape) == len(a.shape):
                n = int(shape[a.symbolic[0]])
                if not (lo <= n <= hi and n % div == 0):
                    raise InputError("input %d '%s': dim %d (%s) is %d; expected %s in [%d, %d]%s" % (
                        i, a.name, a.symbolic[0], name, n, name, lo, hi,
                        ", a multiple of %d" % div if div > 1 else ""))
                return n, " (%s = %d from input %d '%s')" % (name, n, i, a.name)
        return lo, ""

    def output_shapes(self, size):
        """The outputs' shapes at symbol size `size` (a static library: its own)."""
        return [a.at(size) for a in self.outputs]

    def set_weights(self, weights):
        """The parameters and buffers of a library compiled with weights="input": a
        module, a state dict, or a dict of numpy arrays (names as in the manifest)."""
        if hasattr(weights, "state_dict") and hasattr(weights, "named_parameters"):
            sd = dict(weights.named_parameters())
            sd.update(dict(weights.named_buffers()))
        else:
            sd = dict(weights)
        held, ptrs = [], []
        for i, a in enumerate(self.weight_args):
            if a.name not in sd:
                raise InputError("weight %d '%s' (%s) is missing" % (i, a.name, a.describe()))
            x = sd[a.name]
            if hasattr(x, "detach"):
                x = x.detach()
            x, t = self._check(i, a, x, True, what="weight")
            held.append(x)
            ptrs.append(self._ptr(x, t))
        self._weights = (held, ptrs)
        return self

    # ---- what the compiler said ----
    def _need_source(self, what):
        if not self._source:
            raise BrazeError("%s needs the compiler's outputs: this library was loaded without them" % what)
        return self._source

    def fusion_report(self):
        """form-kernels' text report (braze compile --fusion-report): nodes, candidate
        pairs with their decisions, steps, kernels."""
        with open(os.path.join(self._need_source("fusion_report()"), "fusion-report.txt")) as f:
            return f.read()

    @property
    def plan(self):
        """The fusion plan form-kernels wrote (braze compile --fusion-plan-out; JSON text,
        docs/fusion-plans.md): edit it and pass it back as compile(..., fusion_plan=TEXT)."""
        p = os.path.join(self._need_source("plan"), "plan.json")
        if not os.path.exists(p):
            return None
        with open(p) as f:
            return f.read()

    @property
    def kernels(self):
        """The library's kernels as the target-level MLIR names them: a list of dicts
        {name, kind, ops} (func.func attributes kernel.kind and kernel.ops)."""
        from . import _compiler
        return _compiler.kernels(self._need_source("kernels"), self._options)

    def dump(self, directory):
        """Write the target-level MLIR (model.mlir) and the optimized LLVM IR with the ABI
        wrappers (model.ll) into directory (braze compile --emit=mlir / --emit=llvm)."""
        from . import _compiler
        return _compiler.dump(self._need_source("dump()"), self._options, directory)

    def ablate(self, stage):
        """Recompile with one stage switched off: the driver's TARGET-no-STAGE pipeline
        (fusion, epilogue, inline, decompose, user-epilogue on the CPU). A new Compiled."""
        from . import _compiler
        return _compiler.ablate(self, stage)

    def __repr__(self):
        return "<braze.Compiled %s: %s -> %s on %s>" % (
            self._lib.entry, ", ".join(a.describe() for a in self.inputs),
            ", ".join(a.describe() for a in self.outputs), self.target)


def load(path):
    """Open a library braze.export wrote (its manifest beside it: libX.so -> libX.json).
    Needs numpy only; gives torch tensors for torch inputs when torch is importable."""
    mpath = os.path.splitext(path)[0] + ".json"
    try:
        with open(mpath) as f:
            manifest = json.load(f)
    except OSError as e:
        raise BrazeError("no manifest for %s: %s" % (path, e))
    return Compiled(path, manifest)
