class BrazeError(RuntimeError):
    """The compiler failed, or a compiled library returned a non-zero status."""


class InputError(ValueError):
    """An argument of a compiled call is not what the library was compiled for."""


class FallbackWarning(UserWarning):
    """frontend='auto' compiled through ONNX: the message says why FX did not take it."""
