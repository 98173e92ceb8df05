"""braze from Python: PyTorch in, PyTorch out (docs/python.md).

    c = braze.compile(module, (x,))      # torch.onnx.export -> braze compile -> ctypes
    y = c(x)                             # torch in, torch out (numpy in, numpy out)
    braze.export(module, (x,), "libm.so"); braze.load("libm.so")   # no torch needed to load
"""
from ._errors import BrazeError, InputError
from ._runtime import Compiled, load
from . import cache

__all__ = ["compile", "export", "load", "Compiled", "BrazeError", "InputError", "cache", "__version__"]
__version__ = "0.1.0"


def compile(fn_or_module, example_inputs, target="cpu", pipeline=None, fusion_plan=None, cpu=None,
            weights="constant", frontend="onnx", quiet=None):
    """Compile a torch module or function for static shapes of example_inputs. quiet=None:
    a compile over a second shows its stages on one stderr line; True: nothing;
    False: that and the tool's own output."""
    from . import _compiler
    return _compiler.compile(fn_or_module, example_inputs, target=target, pipeline=pipeline,
                             fusion_plan=fusion_plan, cpu=cpu, weights=weights, frontend=frontend, quiet=quiet)


def export(module, example_inputs, path, **options):
    """Write PATH (the library), its C header (.h) and a JSON manifest (.json)."""
    from . import _compiler
    return _compiler.export(module, example_inputs, path, **options)
