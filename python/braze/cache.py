"""The on-disk cache of compiled libraries: $BRAZE_CACHE_DIR, default ~/.cache/braze.

One directory per key (a hash of the ONNX bytes, braze's version, the target, CPU,
pipeline, fusion plan and options) holding model.onnx, libmodel.so, model.h,
manifest.json and the fusion report and plan. A compile writes into a temporary
directory beside it and renames it into place (os.replace), so another process sees
the whole entry or none."""
import os
import shutil


def cache_dir():
    return os.environ.get("BRAZE_CACHE_DIR") or os.path.join(os.path.expanduser("~"), ".cache", "braze")


def clear():
    """Remove every cached library (libraries already loaded stay usable)."""
    d = cache_dir()
    if not os.path.isdir(d):
        return 0
    n = 0
    for name in os.listdir(d):
        p = os.path.join(d, name)
        if os.path.isdir(p):
            shutil.rmtree(p, ignore_errors=True)
            n += 1
    return n
