#!/usr/bin/env python3
"""Writes a causal attention graph (softmax(mask ? q @ k^T * scale : -inf) @ v, the mask
a constant lower triangle, as ONNX's Trilu imports) to stdout:

    make_causal.py NAME BH S D [TYPE] [OFFSET]

Row i keeps keys j <= i + OFFSET (default 0). The mask is a dense i1 literal of S x S
elements, so the file is generated (bench/gpu/prepare.sh, test/gpu/prepare.sh), not
stored."""
import math
import sys


def main():
    name, bh, s, d = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    el = sys.argv[5] if len(sys.argv) > 5 else "bf16"
    off = int(sys.argv[6]) if len(sys.argv) > 6 else 0
    qt = "tensor<%dx%dx%dx%s>" % (bh, s, d, el)
    kt = "tensor<%dx%dx%dx%s>" % (bh, d, s, el)
    st = "tensor<%dx%dx%dx%s>" % (bh, s, s, el)
    rows = ",".join("[" + ",".join("true" if j <= i + off else "false" for j in range(s)) + "]" for i in range(s))
    out = sys.stdout
    out.write("// %s: causal attention, B*H = %d, S = %d, D = %d, %s (bench/gpu/make_causal.py)\n" % (name, bh, s, d, el))
    out.write("// gpu-metric: norm (test/gpu/run.py: scores in f32 in the flash kernel)\n")
    out.write("func.func @%s(%%q: %s, %%k: %s, %%v: %s) -> %s {\n" % (name, qt, qt, qt, qt))
    out.write('  %%kt = "graph.transpose"(%%k) {perm = array<i64: 0, 2, 1>} : (%s) -> %s\n' % (qt, kt))
    out.write('  %%s = "graph.batch_matmul"(%%q, %%kt) : (%s, %s) -> %s\n' % (qt, kt, st))
    out.write('  %%c = "graph.constant"() {value = dense<%.10g> : tensor<%s>} : () -> tensor<%s>\n' % (1 / math.sqrt(d), el, el))
    out.write('  %%ss = "graph.mul"(%%s, %%c) : (%s, tensor<%s>) -> %s\n' % (st, el, st))
    out.write('  %%m = "graph.constant"() {value = dense<[%s]> : tensor<%dx%dxi1>} : () -> tensor<%dx%dxi1>\n'
              % (rows, s, s, s, s))
    ninf = "0xFF80" if el == "bf16" else "0xFC00" if el == "f16" else "0xFF800000"
    out.write('  %%ninf = "graph.constant"() {value = dense<%s> : tensor<%s>} : () -> tensor<%s>\n' % (ninf, el, el))
    out.write('  %%sm = "graph.select"(%%m, %%ss, %%ninf) : (tensor<%dx%dxi1>, %s, tensor<%s>) -> %s\n' % (s, s, st, el, st))
    out.write('  %%p = "graph.softmax"(%%sm) {dim = 2 : i64} : (%s) -> %s\n' % (st, st))
    out.write('  %%y = "graph.batch_matmul"(%%p, %%v) : (%s, %s) -> %s\n' % (st, qt, qt))
    out.write("  return %%y : %s\n}\n" % qt)


if __name__ == "__main__":
    main()
