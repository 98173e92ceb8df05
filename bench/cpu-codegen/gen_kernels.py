#!/usr/bin/python3
"""Kernel-level IR (what form-kernels produces) for the cpu-codegen benchmarks and
tests: softmax, layer_norm, rms_norm, the W1 pointwise chain (x*s+b then exact gelu),
linear+gelu (W5), and a copy. usage: gen_kernels.py KIND ROWS COLS [K]"""
import sys

def T(shape):
    return "tensor<%sxf32>" % "x".join(str(s) for s in shape) if shape else "tensor<f32>"

ID2 = "affine_map<(d0, d1) -> (d0, d1)>"
ROW2 = "affine_map<(d0, d1) -> (d0, 0)>"
COL2 = "affine_map<(d0, d1) -> (d1)>"

class K:
    def __init__(self):
        self.lines = []
        self.n = 0
    def v(self):
        self.n += 1
        return "%%v%d" % self.n
    def emit(self, s):
        self.lines.append("  " + s)
    def empty(self, shape):
        r = self.v(); self.emit("%s = tensor.empty() : %s" % (r, T(shape))); return r
    def const(self, value):
        r = self.v(); self.emit("%s = arith.constant %s : f32" % (r, value)); return r
    def fill(self, value, shape):
        c = self.const(value); e = self.empty(shape)
        r = self.v(); self.emit("%s = linalg.fill ins(%s : f32) outs(%s : %s) -> %s" % (r, c, e, T(shape), T(shape))); return r
    def generic(self, ins, out, out_shape, out_map, iters, body):
        """ins: [(value, shape, map)]; body: lines using %a0.. for inputs, %acc for the output,
        last line's value '%r' is yielded."""
        r = self.v()
        maps = ", ".join([m for _, _, m in ins] + [out_map])
        it = ", ".join('"%s"' % i for i in iters)
        self.emit("%s = linalg.generic {indexing_maps = [%s], iterator_types = [%s]}" % (r, maps, it))
        self.emit("    ins(%s : %s) outs(%s : %s) {" % (", ".join(v for v, _, _ in ins), ", ".join(T(s) for _, s, _ in ins), out, T(out_shape)))
        args = ", ".join(["%%a%d: f32" % i for i in range(len(ins))] + ["%acc: f32"])
        self.emit("^bb0(%s):" % args)
        for l in body:
            self.emit("  " + l)
        self.emit("  linalg.yield %r : f32")
        self.emit("} -> %s" % T(out_shape))
        return r

def reduce_sum(k, x, R, C, square_of=None):
    init = k.fill("0.0", [R, 1])
    return k.generic([(x, [R, C], ID2)], init, [R, 1], ROW2, ["parallel", "reduction"],
                     ["%r = arith.addf %a0, %acc : f32"])

def softmax(k, x, R, C):
    mx = k.generic([(x, [R, C], ID2)], k.fill("0xFF800000", [R, 1]), [R, 1], ROW2, ["parallel", "reduction"],
                   ["%r = arith.maximumf %a0, %acc : f32"])
    e = k.empty([R, C])
    ex = k.generic([(x, [R, C], ID2), (mx, [R, 1], ROW2)], e, [R, C], ID2, ["parallel", "parallel"],
                   ["%s = arith.subf %a0, %a1 : f32", "%r = math.exp %s : f32"])
    sm = k.generic([(ex, [R, C], ID2)], k.fill("0.0", [R, 1]), [R, 1], ROW2, ["parallel", "reduction"],
                   ["%r = arith.addf %a0, %acc : f32"])
    return k.generic([(ex, [R, C], ID2), (sm, [R, 1], ROW2)], e, [R, C], ID2, ["parallel", "parallel"],
                     ["%r = arith.divf %a0, %a1 : f32"])

def layer_norm(k, x, w, b, R, C):
    s = reduce_sum(k, x, R, C)
    mean = k.generic([(s, [R, 1], ID2)], k.empty([R, 1]), [R, 1], ID2, ["parallel", "parallel"],
                     ["%n = arith.constant " + repr(1.0 / C) + " : f32", "%r = arith.mulf %a0, %n : f32"])
    var = k.generic([(x, [R, C], ID2), (mean, [R, 1], ROW2)], k.fill("0.0", [R, 1]), [R, 1], ROW2,
                    ["parallel", "reduction"],
                    ["%d = arith.subf %a0, %a1 : f32", "%q = arith.mulf %d, %d : f32", "%r = arith.addf %q, %acc : f32"])
    return k.generic([(x, [R, C], ID2), (mean, [R, 1], ROW2), (var, [R, 1], ROW2), (w, [C], COL2), (b, [C], COL2)],
                     k.empty([R, C]), [R, C], ID2, ["parallel", "parallel"],
                     ["%d = arith.subf %a0, %a1 : f32", "%n = arith.constant " + repr(1.0 / C) + " : f32",
                      "%v = arith.mulf %a2, %n : f32", "%eps = arith.constant 1.0e-05 : f32",
                      "%ve = arith.addf %v, %eps : f32", "%rs = math.rsqrt %ve : f32", "%y = arith.mulf %d, %rs : f32",
                      "%yw = arith.mulf %y, %a3 : f32", "%r = arith.addf %yw, %a4 : f32"])

def rms_norm(k, x, w, R, C):
    init = k.fill("0.0", [R, 1])
    ss = k.generic([(x, [R, C], ID2)], init, [R, 1], ROW2, ["parallel", "reduction"],
                   ["%q = arith.mulf %a0, %a0 : f32", "%r = arith.addf %q, %acc : f32"])
    return k.generic([(x, [R, C], ID2), (ss, [R, 1], ROW2), (w, [C], COL2)], k.empty([R, C]), [R, C], ID2,
                     ["parallel", "parallel"],
                     ["%n = arith.constant " + repr(1.0 / C) + " : f32", "%m = arith.mulf %a1, %n : f32",
                      "%eps = arith.constant 1.0e-06 : f32", "%me = arith.addf %m, %eps : f32",
                      "%rs = math.rsqrt %me : f32", "%y = arith.mulf %a0, %rs : f32", "%r = arith.mulf %y, %a2 : f32"])

GELU = ["%h = arith.constant 0.5 : f32", "%is2 = arith.constant 0.707106769 : f32", "%one = arith.constant 1.0 : f32",
        "%u = arith.mulf %t, %is2 : f32", "%e = math.erf %u : f32", "%e1 = arith.addf %e, %one : f32",
        "%th = arith.mulf %t, %h : f32", "%r = arith.mulf %th, %e1 : f32"]

def gelu_chain(k, x, s, b, R, C):
    return k.generic([(x, [R, C], ID2), (s, [C], COL2), (b, [C], COL2)], k.empty([R, C]), [R, C], ID2,
                     ["parallel", "parallel"],
                     ["%m = arith.mulf %a0, %a1 : f32", "%t = arith.addf %m, %a2 : f32"] + GELU)

def linear_gelu(k, x, w, b, R, C, KD):
    mm = k.generic([(x, [R, KD], "affine_map<(d0, d1, d2) -> (d0, d2)>"), (w, [KD, C], "affine_map<(d0, d1, d2) -> (d2, d1)>")],
                   k.fill("0.0", [R, C]), [R, C], "affine_map<(d0, d1, d2) -> (d0, d1)>", ["parallel", "parallel", "reduction"],
                   ["%p = arith.mulf %a0, %a1 : f32", "%r = arith.addf %acc, %p : f32"])
    return k.generic([(mm, [R, C], ID2), (b, [C], COL2)], k.empty([R, C]), [R, C], ID2, ["parallel", "parallel"],
                     ["%t = arith.addf %a0, %a1 : f32"] + GELU)

def copy(k, x, R, C):
    return k.generic([(x, [R, C], ID2)], k.empty([R, C]), [R, C], ID2, ["parallel", "parallel"], ["%r = arith.addf %a0, %a0 : f32"])

def main():
    kind = sys.argv[1]; R = int(sys.argv[2]); C = int(sys.argv[3]); KD = int(sys.argv[4]) if len(sys.argv) > 4 else C
    k = K()
    args = {"softmax": [("x", [R, C])], "layer_norm": [("x", [R, C]), ("w", [C]), ("b", [C])],
            "rms_norm": [("x", [R, C]), ("w", [C])], "gelu_chain": [("x", [R, C]), ("s", [C]), ("b", [C])],
            "linear_gelu": [("x", [R, KD]), ("w", [KD, C]), ("b", [C])], "copy": [("x", [R, C])]}[kind]
    names = ["%" + a for a, _ in args]
    fn = {"softmax": softmax, "layer_norm": layer_norm, "rms_norm": rms_norm, "gelu_chain": gelu_chain,
          "linear_gelu": linear_gelu, "copy": copy}[kind]
    r = fn(k, *names, R, C, *([KD] if kind == "linear_gelu" else []))
    sig = ", ".join("%s: %s" % (n, T(s)) for n, (_, s) in zip(names, args))
    kname = "cpu_%s_fused_%s_0" % ("tem" if kind == "linear_gelu" else "poi" if kind in ("gelu_chain", "copy") else "red", kind)
    print("// %s %dx%d: kernel-level IR as form-kernels outlines it (bench/cpu-codegen/gen_kernels.py)" % (kind, R, C))
    print('func.func private @%s(%s) -> %s attributes {kernel.kind = "%s", kernel.ops = ["%s"]} {' % (kname, sig, T([R, C]), kname.split("_")[1], kind))
    print("\n".join(k.lines))
    print("  return %s : %s" % (r, T([R, C])))
    print("}")
    print("func.func @%s(%s) -> %s {" % (kind, sig, T([R, C])))
    print("  %%0 = call @%s(%s) : (%s) -> %s" % (kname, ", ".join(names), ", ".join(T(s) for _, s in args), T([R, C])))
    print("  return %%0 : %s" % T([R, C]))
    print("}")

main()
