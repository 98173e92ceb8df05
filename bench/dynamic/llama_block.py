#!/usr/bin/env python3
"""Writes a Llama-style decoder block in the graph dialect with a dynamic sequence
length s (docs/decisions/0032-runtime-loops.md): RMSNorm, RoPE, grouped-query
attention with a causal mask, SwiGLU, both residuals.

    python3 bench/dynamic/llama_block.py --dim 64 --heads 4 --kv-heads 2 --ffn 128 -o block.mlir
    python3 bench/dynamic/llama_block.py ... --static 128 -o block128.mlir   # s fixed at 128

Inputs: x [s, D]; the RMSNorm weights; Wq [D, H*hd], Wk and Wv [D, KV*hd], Wo
[H*hd, D]; W1 and W3 [D, F], W2 [F, D]; cos and sin [s, hd] (the rotary tables at the
positions 0..s-1); mask [s, s], added to the scores (0 where key <= query, a large
negative value elsewhere: the causal mask as Hugging Face passes it). RoPE's
rotate_half(x) = cat(-x[hd/2:], x[:hd/2]) is x @ R for a constant signed permutation R.
GQA: the H query heads as [KV, H/KV] groups, each group's scores against its K head
by a broadcasting batch_matmul (K and V are not repeated)."""
import argparse
import sys


def block(D, H, KV, F, s, smin, smax, div):
    hd = D // H
    G = H // KV
    S = s if s else "?"
    sym = "" if s else ' {graph.dims = ["s"]}'

    def t(*dims):
        return "tensor<" + "x".join(str(d) for d in dims) + "xf32>"

    half = hd // 2
    rows = []
    for i in range(hd):  # (x @ R)[j] = -x[j+half] for j < half, x[j-half] otherwise
        r = [0.0] * hd
        if i >= half:
            r[i - half] = -1.0
        else:
            r[i + half] = 1.0
        rows.append("[" + ", ".join("%.1f" % v for v in r) + "]")
    R = "[" + ", ".join(rows) + "]"
    out = []
    w = out.append
    args = [("x", t(S, D), sym), ("g1", t(D), ""), ("wq", t(D, H * hd), ""), ("wk", t(D, KV * hd), ""),
            ("wv", t(D, KV * hd), ""), ("wo", t(H * hd, D), ""), ("g2", t(D), ""), ("w1", t(D, F), ""),
            ("w3", t(D, F), ""), ("w2", t(F, D), ""), ("cos", t(S, hd), sym), ("sin", t(S, hd), sym),
            ("mask", t(S, S), ' {graph.dims = ["s", "s"]}' if not s else "")]
    attrs = "" if s else " attributes {graph.symbols = {s = array<i64: %d, %d, %d>}}" % (smin, smax, div)
    w("// Llama-style decoder block: D=%d, %d query heads, %d KV heads, head dim %d, FFN %d, s %s."
      % (D, H, KV, hd, F, s if s else "in [%d, %d]" % (smin, smax)))
    w("func.func @block(" + ",\n    ".join("%%%s: %s%s" % a for a in args) + ") -> " + t(S, D) + attrs + " {")
    w('  %h = "graph.rms_norm"(%x, %g1) {axis = 1 : i64, eps = 1.0e-06 : f32} : (' + t(S, D) + ", " + t(D) + ") -> " + t(S, D))
    w('  %q0 = "graph.matmul"(%h, %wq) : (' + t(S, D) + ", " + t(D, H * hd) + ") -> " + t(S, H * hd))
    w('  %k0 = "graph.matmul"(%h, %wk) : (' + t(S, D) + ", " + t(D, KV * hd) + ") -> " + t(S, KV * hd))
    w('  %v0 = "graph.matmul"(%h, %wv) : (' + t(S, D) + ", " + t(D, KV * hd) + ") -> " + t(S, KV * hd))
    w('  %q1 = "graph.reshape"(%q0) : (' + t(S, H * hd) + ") -> " + t(S, KV, G, hd))
    w('  %q = "graph.transpose"(%q1) {perm = array<i64: 1, 2, 0, 3>} : (' + t(S, KV, G, hd) + ") -> " + t(KV, G, S, hd))
    w('  %k1 = "graph.reshape"(%k0) : (' + t(S, KV * hd) + ") -> " + t(S, KV, 1, hd))
    w('  %k = "graph.transpose"(%k1) {perm = array<i64: 1, 2, 0, 3>} : (' + t(S, KV, 1, hd) + ") -> " + t(KV, 1, S, hd))
    w('  %v1 = "graph.reshape"(%v0) : (' + t(S, KV * hd) + ") -> " + t(S, KV, 1, hd))
    w('  %v = "graph.transpose"(%v1) {perm = array<i64: 1, 2, 0, 3>} : (' + t(S, KV, 1, hd) + ") -> " + t(KV, 1, S, hd))
    w('  %rot = "graph.constant"() {value = dense<' + R + "> : " + t(hd, hd) + "} : () -> " + t(hd, hd))
    for name, shape in (("q", (KV, G, S, hd)), ("k", (KV, 1, S, hd))):
        w('  %%%sc = "graph.mul"(%%%s, %%cos) : (%s, %s) -> %s' % (name, name, t(*shape), t(S, hd), t(*shape)))
        w('  %%%sr = "graph.batch_matmul"(%%%s, %%rot) : (%s, %s) -> %s' % (name, name, t(*shape), t(hd, hd), t(*shape)))
        w('  %%%ss = "graph.mul"(%%%sr, %%sin) : (%s, %s) -> %s' % (name, name, t(*shape), t(S, hd), t(*shape)))
        w('  %%%sp = "graph.add"(%%%sc, %%%ss) : (%s, %s) -> %s' % (name, name, name, t(*shape), t(*shape), t(*shape)))
    w('  %kt = "graph.transpose"(%kp) {perm = array<i64: 0, 1, 3, 2>} : (' + t(KV, 1, S, hd) + ") -> " + t(KV, 1, hd, S))
    w('  %sc = "graph.batch_matmul"(%qp, %kt) : (' + t(KV, G, S, hd) + ", " + t(KV, 1, hd, S) + ") -> " + t(KV, G, S, S))
    w('  %%scale = "graph.constant"() {value = dense<%.9e> : tensor<f32>} : () -> tensor<f32>' % (hd ** -0.5))
    w('  %ss = "graph.mul"(%sc, %scale) : (' + t(KV, G, S, S) + ", tensor<f32>) -> " + t(KV, G, S, S))
    w('  %sm = "graph.add"(%ss, %mask) : (' + t(KV, G, S, S) + ", " + t(S, S) + ") -> " + t(KV, G, S, S))
    w('  %p = "graph.softmax"(%sm) {dim = 3 : i64} : (' + t(KV, G, S, S) + ") -> " + t(KV, G, S, S))
    w('  %o = "graph.batch_matmul"(%p, %v) : (' + t(KV, G, S, S) + ", " + t(KV, 1, S, hd) + ") -> " + t(KV, G, S, hd))
    w('  %o1 = "graph.transpose"(%o) {perm = array<i64: 2, 0, 1, 3>} : (' + t(KV, G, S, hd) + ") -> " + t(S, KV, G, hd))
    w('  %o2 = "graph.reshape"(%o1) : (' + t(S, KV, G, hd) + ") -> " + t(S, H * hd))
    w('  %a = "graph.matmul"(%o2, %wo) : (' + t(S, H * hd) + ", " + t(H * hd, D) + ") -> " + t(S, D))
    w('  %x2 = "graph.add"(%x, %a) : (' + t(S, D) + ", " + t(S, D) + ") -> " + t(S, D))
    w('  %h2 = "graph.rms_norm"(%x2, %g2) {axis = 1 : i64, eps = 1.0e-06 : f32} : (' + t(S, D) + ", " + t(D) + ") -> " + t(S, D))
    w('  %f1 = "graph.matmul"(%h2, %w1) : (' + t(S, D) + ", " + t(D, F) + ") -> " + t(S, F))
    w('  %f3 = "graph.matmul"(%h2, %w3) : (' + t(S, D) + ", " + t(D, F) + ") -> " + t(S, F))
    w('  %sg = "graph.silu"(%f1) : (' + t(S, F) + ") -> " + t(S, F))
    w('  %gu = "graph.mul"(%sg, %f3) : (' + t(S, F) + ", " + t(S, F) + ") -> " + t(S, F))
    w('  %f = "graph.matmul"(%gu, %w2) : (' + t(S, F) + ", " + t(F, D) + ") -> " + t(S, D))
    w('  %y = "graph.add"(%x2, %f) : (' + t(S, D) + ", " + t(S, D) + ") -> " + t(S, D))
    w("  return %y : " + t(S, D))
    w("}")
    return "\n".join(out) + "\n"


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--dim", type=int, default=256)
    p.add_argument("--heads", type=int, default=8)
    p.add_argument("--kv-heads", type=int, default=2)
    p.add_argument("--ffn", type=int, default=512)
    p.add_argument("--min", type=int, default=1)
    p.add_argument("--max", type=int, default=2048)
    p.add_argument("--div", type=int, default=1)
    p.add_argument("--static", type=int, default=0, help="a static build at this sequence length")
    p.add_argument("-o", "--output", default="-")
    a = p.parse_args()
    if a.dim % a.heads or a.heads % a.kv_heads or (a.dim // a.heads) % 2:
        sys.exit("llama_block.py: --dim must split into --heads heads of an even size, --heads into --kv-heads groups")
    text = block(a.dim, a.heads, a.kv_heads, a.ffn, a.static, a.min, a.max, a.div)
    if a.output == "-":
        sys.stdout.write(text)
    else:
        with open(a.output, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
