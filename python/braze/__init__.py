"""braze from Python: PyTorch in, PyTorch out (docs/python.md).

    c = braze.compile(module, (x,))      # make_fx (else torch.onnx.export) -> braze compile -> ctypes
    y = c(x)                             # torch in, torch out (numpy in, numpy out)
    braze.export(module, (x,), "libm.so"); braze.load("libm.so")   # no torch needed to load
"""
from ._errors import BrazeError, InputError, FallbackWarning
from ._runtime import Compiled, load
from . import cache

__all__ = ["compile", "export", "load", "Compiled", "BrazeError", "InputError", "FallbackWarning", "cache",
           "__version__"]
__version__ = "0.1.0"


def compile(fn_or_module, example_inputs, target="cpu", pipeline=None, fusion_plan=None, cpu=None,
            weights="constant", frontend="auto", quiet=None, dynamic=None):
    """Compile a torch module or function for the shapes of example_inputs.
    frontend="auto": make_fx's ATen graph ("fx"), else torch.onnx.export ("onnx") with a
    FallbackWarning saying why (decision 0028). weights="input": parameters and buffers
    are arguments after the inputs (set_weights() rebinds them). dynamic={input: {dim:
    (symbol, min, max[, div])}}: symbolic dims, one library for every size in the bounds
    (fx only; the CPU runs one symbol that is a free row dim, decision 0029). quiet=None:
    a compile over a second shows its stages on one stderr line; True: nothing (no
    warning either); False: that and the tool's own output."""
    from . import _compiler
    return _compiler.compile(fn_or_module, example_inputs, target=target, pipeline=pipeline,
                             fusion_plan=fusion_plan, cpu=cpu, weights=weights, frontend=frontend, quiet=quiet,
                             dynamic=dynamic)


def export(module, example_inputs, path, **options):
    """Write PATH (the library), its C header (.h) and a JSON manifest (.json)."""
    from . import _compiler
    return _compiler.export(module, example_inputs, path, **options)
