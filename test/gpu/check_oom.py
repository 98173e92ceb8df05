#!/usr/bin/env python3
"""Recovery of a compiled CUDA library from failures on a real GPU (issue 21: "a
failed launch or an out-of-memory returns the error and the next call works"), on
the library test/gpu/prepare.sh builds from test/targets/cuda/Inputs/contract.mlir
(OUTDIR/smoke/contract.so: a constant, a 1024-byte workspace, three kernels):

    python3 test/gpu/check_oom.py OUTDIR/smoke/contract.so

Each scenario allocates the arguments, poisons the outputs with NaN, provokes the
failure, expects the call to return non-zero with a message, the context to stay
usable (cuCtxSynchronize succeeds) and the outputs to be untouched (still NaN); then
it removes the cause and expects the next call to return 0 with the right outputs:

  load       the device memory filled with cuMemAlloc (halving chunks down to one
             byte) before the library's first call: loading the kernels or uploading
             the constant fails (on an H100, driver 580: the constant's cuMemAlloc)
  workspace  the program loaded, the memory filled again, a call on a new stream:
             the entry's own workspace for that stream cannot be allocated
  launch     a stream of another context passed to f_stream: the first launch is
             refused (the device-to-device copy comes after the launches). Not for a
             library built with --cuda-graphs: the driver launches its graph on such
             a stream (seen on an H100), so nothing fails there

Prints one PASS/FAIL line per scenario and a summary; exits 1 on any failure,
including no driver or no GPU (the line says which). Uses the driver through ctypes
(libcuda.so.1) and check_contract.py's helpers; no numpy, no torch."""
import ctypes
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_contract import COLS, NAN_BITS, ROWS, Lib, close, expected, floats  # noqa: E402

CUDA_SUCCESS = 0
SIZES = [ROWS, 1, ROWS * COLS]  # the three outputs' element counts


class Driver:
    """The few driver calls the test makes itself (the library has its own handle)."""

    def __init__(self):
        self.cu = ctypes.CDLL("libcuda.so.1")
        for name in ["cuInit", "cuDeviceGet", "cuCtxGetCurrent", "cuCtxSetCurrent", "cuCtxCreate_v2",
                     "cuCtxDestroy_v2", "cuMemAlloc_v2", "cuMemFree_v2", "cuMemGetInfo_v2", "cuStreamCreate",
                     "cuStreamDestroy_v2", "cuGetErrorName"]:
            getattr(self.cu, name).restype = ctypes.c_int
        self.cu.cuMemAlloc_v2.argtypes = [ctypes.POINTER(ctypes.c_uint64), ctypes.c_size_t]
        self.cu.cuMemFree_v2.argtypes = [ctypes.c_uint64]
        self.cu.cuCtxSetCurrent.argtypes = [ctypes.c_void_p]
        self.cu.cuCtxDestroy_v2.argtypes = [ctypes.c_void_p]
        self.cu.cuStreamDestroy_v2.argtypes = [ctypes.c_void_p]
        self.cu.cuGetErrorName.argtypes = [ctypes.c_int, ctypes.POINTER(ctypes.c_char_p)]

    def check(self, r, what):
        if r != CUDA_SUCCESS:
            name = ctypes.c_char_p()
            self.cu.cuGetErrorName(r, ctypes.byref(name))
            raise RuntimeError("%s failed: %s" % (what, (name.value or b"error %d" % r).decode()))

    def current(self):
        ctx = ctypes.c_void_p()
        self.check(self.cu.cuCtxGetCurrent(ctypes.byref(ctx)), "cuCtxGetCurrent")
        return ctx

    def free_bytes(self):
        free, total = ctypes.c_size_t(), ctypes.c_size_t()
        self.check(self.cu.cuMemGetInfo_v2(ctypes.byref(free), ctypes.byref(total)), "cuMemGetInfo")
        return free.value

    def fill(self):
        """Allocates until even one byte is refused; returns the pointers."""
        hog, size = [], 1 << 30
        while size >= 1:
            p = ctypes.c_uint64()
            if self.cu.cuMemAlloc_v2(ctypes.byref(p), size) == CUDA_SUCCESS:
                hog.append(p.value)
            else:
                size //= 2
        return hog

    def release(self, hog):
        for p in hog:
            self.check(self.cu.cuMemFree_v2(p), "cuMemFree")
        del hog[:]

    def stream(self):
        s = ctypes.c_void_p()
        self.check(self.cu.cuStreamCreate(ctypes.byref(s), 0), "cuStreamCreate")
        return s

    def foreign_stream(self):
        """A stream of a second context on device 0; the caller's context stays current."""
        mine = self.current()
        dev, ctx = ctypes.c_int(), ctypes.c_void_p()
        self.check(self.cu.cuDeviceGet(ctypes.byref(dev), 0), "cuDeviceGet")
        self.check(self.cu.cuCtxCreate_v2(ctypes.byref(ctx), 0, dev), "cuCtxCreate")  # makes it current
        s = self.stream()
        self.check(self.cu.cuCtxSetCurrent(mine), "cuCtxSetCurrent")
        return ctx, s


class Case:
    """The library with its arguments allocated and the input uploaded."""

    def __init__(self, lib):
        self.lib = lib
        x_host = floats(ROWS * COLS, [math.sin(i) * 3.0 for i in range(ROWS * COLS)])
        self.want = expected(list(x_host))
        self.x = lib.alloc(4 * ROWS * COLS)
        self.outs = [lib.alloc(4 * n) for n in SIZES]
        lib.put(self.x, x_host)

    def poison(self):
        for dev, n in zip(self.outs, SIZES):
            self.lib.put(dev, (ctypes.c_uint32 * n)(*([NAN_BITS] * n)))

    def outputs(self):
        self.lib.check(self.lib.lib.braze_cuda_synchronize(), "synchronize")
        return [self.lib.get(dev, n) for dev, n in zip(self.outs, SIZES)]

    def untouched(self):
        return all(math.isnan(v) for out in self.outputs() for v in out)

    def right(self):
        return all(close(g, w) for g, w in zip(self.outputs(), self.want))


def scenario(case, name, fail, failing_call, undo, good_call):
    """fail() sets up the failure, undo() removes it; returns 0 or 1 (failed)."""
    lib = case.lib
    problems = []
    case.poison()
    fail()
    rc = failing_call()
    message = lib.lib.braze_cuda_last_error().decode()
    undo()
    if rc == 0:
        problems.append("the call under the failure returned 0")
    elif not message:
        problems.append("rc %d without a message" % rc)
    try:
        if not case.untouched():
            problems.append("outputs written by the failed call")
    except RuntimeError as e:  # a sticky error: the context is unusable
        problems.append("after the failure: %s" % e)
    if not problems:
        case.poison()
        rc2 = good_call()
        if rc2 != 0:
            problems.append("the next call returned %d: %s" % (rc2, lib.lib.braze_cuda_last_error().decode()))
        else:
            try:
                if not case.right():
                    problems.append("the next call's outputs are wrong")
            except RuntimeError as e:
                problems.append("after the next call: %s" % e)
    print("%-4s oom-recovery %s: failed call rc=%d (%s)%s" % ("FAIL" if problems else "PASS", name, rc, message,
                                                             "; " + "; ".join(problems) if problems else ""))
    return 1 if problems else 0


def run(path):
    try:
        drv = Driver()
    except OSError as e:
        print("FAIL oom-recovery: no CUDA driver (%s)" % e)
        return 1
    lib = Lib(path)
    if lib.lib.braze_cuda_available() != 0:  # also makes device 0's primary context current
        print("FAIL oom-recovery: no usable GPU: %s" % lib.lib.braze_cuda_last_error().decode())
        return 1
    lib.lib.f_stream.argtypes = [ctypes.c_void_p] * 5
    case = Case(lib)
    f = lambda: lib.lib.f(case.x, *case.outs)  # noqa: E731
    hog = []
    stream = drv.stream()
    other_ctx, other_stream = drv.foreign_stream()
    before = drv.free_bytes()

    def fill():
        hog.extend(drv.fill())

    failures = scenario(case, "load (first call, device memory full)", fill, f, lambda: drv.release(hog), f)
    failures += scenario(case, "workspace (new stream, device memory full)", fill,
                         lambda: lib.lib.f_stream(case.x, *case.outs, stream), lambda: drv.release(hog),
                         lambda: lib.lib.f_stream(case.x, *case.outs, stream))
    failures += scenario(case, "launch (a stream of another context)", lambda: None,
                         lambda: lib.lib.f_stream(case.x, *case.outs, other_stream), lambda: None, f)
    drv.check(drv.cu.cuStreamDestroy_v2(stream), "cuStreamDestroy")
    drv.check(drv.cu.cuCtxDestroy_v2(other_ctx), "cuCtxDestroy")
    print("oom-recovery %s: %d failed (%.1f GiB free before filling)" % (path, failures, before / 2.0**30))
    return failures


def main():
    if len(sys.argv) != 2:
        print("usage: check_oom.py OUTDIR/smoke/contract.so", file=sys.stderr)
        return 2
    try:
        return 1 if run(sys.argv[1]) else 0
    except (OSError, RuntimeError) as e:
        print("FAIL oom-recovery: %s" % e)
        return 1


if __name__ == "__main__":
    sys.exit(main())
