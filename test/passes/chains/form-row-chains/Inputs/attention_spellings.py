"""Attention in equivalent spellings, as graph-dialect functions, for spellings.test
and test/e2e/attention-spellings.test: the scale by mul or div on the scores, on q
or on k; neutral steps (-(-s), s * -1 * -1); the softmax written out with or without
its row max; a run-time boolean mask selecting -inf or finfo.min; an additive bias;
k stored transposed; grouped-query heads (k and v shared by two q heads through
reshape + broadcast_to + reshape, as repeat_kv writes them).

    attention_spellings.py DTYPE [--split] [B S D]   (DTYPE bf16 or f32)"""
import sys

args = [a for a in sys.argv[1:] if not a.startswith("--")]
T = args[0]
B, S, D = (int(x) for x in args[1:4]) if len(args) >= 4 else (4, 256, 64)
NEG_INF = {"bf16": "0xFF80", "f32": "0xFF800000"}[T]
FINFO_MIN = {"bf16": "-3.38953139E+38", "f32": "-3.40282347E+38"}[T]


def t(*shape, e=T):
    return "tensor<" + "".join(f"{d}x" for d in shape) + e + ">"


SS, QT, KT = t(B, S, S), t(B, S, D), t(B, D, S)


def op(name, out, operands, types, rt, attrs=""):
    return f'  {out} = "graph.{name}"({", ".join(operands)}){attrs} : ({", ".join(types)}) -> {rt}\n'


def const(name, value, e=T):
    return f'  {name} = "graph.constant"() {{value = dense<{value}> : {t(e=e)}}} : () -> {t(e=e)}\n'


def transpose_k(src="%k", ty=QT):
    return op("transpose", "%kt", [src], [ty], KT, " {perm = array<i64: 0, 2, 1>}")


def bmm(out, a, b, at, bt, rt):
    return op("batch_matmul", out, [a, b], [at, bt], rt)


def scores():
    return transpose_k() + bmm("%s", "%q", "%kt", QT, KT, SS)


def scaled(src="%s"):
    return const("%c", "0.125") + op("mul", "%ss", [src, "%c"], [SS, t()], SS)


def softmax(x):
    return op("softmax", "%p", [x], [SS], SS, " {dim = 2 : i64}")


def reduce(name, out, x):
    return op(name, out, [x], [SS], t(B, S, 1), " {dims = array<i64: 2>, keepdim = true}")


def select_mask(fill):
    m = t(S, S, e="i1")
    return const("%fill", fill) + op("select", "%sm", ["%m", "%ss", "%fill"], [m, SS, t()], SS)


QKV = f"%q: {QT}, %k: {QT}, %v: {QT}"
SPELLINGS = {
    "mul_scores": (QKV, scores() + scaled() + softmax("%ss")),
    "div_scores": (QKV, scores() + const("%c", "8.0") + op("div", "%ss", ["%s", "%c"], [SS, t()], SS) + softmax("%ss")),
    "scale_on_q": (QKV, const("%c", "0.125") + op("mul", "%qs", ["%q", "%c"], [QT, t()], QT) + transpose_k() +
                   bmm("%s", "%qs", "%kt", QT, KT, SS) + softmax("%s")),
    "scale_on_k": (QKV, const("%c", "8.0") + transpose_k() + op("div", "%kts", ["%kt", "%c"], [KT, t()], KT) +
                   bmm("%s", "%q", "%kts", QT, KT, SS) + softmax("%s")),
    "neg_neg": (QKV, scores() + scaled() + op("neg", "%n1", ["%ss"], [SS], SS) + op("neg", "%n2", ["%n1"], [SS], SS) +
                softmax("%n2")),
    "mul_minus_one_twice": (QKV, scores() + scaled() + const("%m1", "-1.0") +
                            op("mul", "%n1", ["%ss", "%m1"], [SS, t()], SS) + op("mul", "%n2", ["%n1", "%m1"], [SS, t()], SS) +
                            softmax("%n2")),
    "softmax_written_out": (QKV, scores() + scaled() + reduce("reduce_max", "%mx", "%ss") +
                            op("sub", "%sh", ["%ss", "%mx"], [SS, t(B, S, 1)], SS) + op("exp", "%e", ["%sh"], [SS], SS) +
                            reduce("reduce_sum", "%sm", "%e") + op("div", "%p", ["%e", "%sm"], [SS, t(B, S, 1)], SS)),
    "softmax_without_max": (QKV, scores() + scaled() + op("exp", "%e", ["%ss"], [SS], SS) + reduce("reduce_sum", "%sm", "%e") +
                            op("div", "%p", ["%e", "%sm"], [SS, t(B, S, 1)], SS)),
    "mask_select_neg_inf": (QKV + f", %m: {t(S, S, e='i1')}", scores() + scaled() + select_mask(NEG_INF) + softmax("%sm")),
    "mask_select_finfo_min": (QKV + f", %m: {t(S, S, e='i1')}", scores() + scaled() + select_mask(FINFO_MIN) + softmax("%sm")),
    "bias_add": (QKV + f", %bias: {t(S, S)}", scores() + scaled() + op("add", "%sb", ["%ss", "%bias"], [SS, t(S, S)], SS) +
                 softmax("%sb")),
    "k_stored_transposed": (f"%q: {QT}, %kt: {KT}, %v: {QT}", bmm("%s", "%q", "%kt", QT, KT, SS) + scaled() + softmax("%ss")),
}
HKV = B // 2
GQA = ""
for n in ("k", "v"):
    GQA += op("reshape", f"%{n}r", [f"%{n}"], [t(HKV, S, D)], t(HKV, 1, S, D))
    GQA += op("broadcast_to", f"%{n}b", [f"%{n}r"], [t(HKV, 1, S, D)], t(HKV, 2, S, D))
    GQA += op("reshape", f"%{n}x", [f"%{n}b"], [t(HKV, 2, S, D)], QT)
SPELLINGS["grouped_query_heads"] = (f"%q: {QT}, %k: {t(HKV, S, D)}, %v: {t(HKV, S, D)}",
                                    GQA + transpose_k("%kx") + bmm("%s", "%q", "%kt", QT, KT, SS) + scaled() + softmax("%ss"),
                                    "%vx")

funcs = []
for name, spec in SPELLINGS.items():
    args_text, body = spec[0], spec[1]
    v = spec[2] if len(spec) > 2 else "%v"
    funcs.append(f"func.func @{name}({args_text}) -> {QT} {{\n{body}" + bmm("%y", "%p", v, SS, QT, QT) +
                 f"  return %y : {QT}\n}}\n")
print(("\n// -----\n\n" if "--split" in sys.argv else "\n").join(funcs))
