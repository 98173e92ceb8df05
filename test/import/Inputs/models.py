"""Builds the ONNX models the import tests use, with Debian's python3-onnx.
usage: /usr/bin/python3 models.py CASE=OUT.onnx...  (CASE: one of the functions below)
       /usr/bin/python3 models.py --list
(several models per call: importing onnx takes seconds on a busy machine)
Models of opsets the installed onnx package does not know yet (18+) are built
without the checker. Numeric cases also write OUT.<input>.npy files and the
numpy-computed expectation OUT.expected.npy (see numeric.test)."""
import sys
import numpy as np
import onnx
from onnx import helper as h, TensorProto as TP, numpy_helper as nh

F, I64, I32, B = TP.FLOAT, TP.INT64, TP.INT32, TP.BOOL


def vi(name, shape, dtype=F):
    return h.make_tensor_value_info(name, dtype, shape)


def const(name, array):
    return nh.from_array(np.asarray(array), name)


def model(nodes, inputs, outputs, inits=(), opset=17, name="g", check=True):
    g = h.make_graph(nodes, name, inputs, outputs, initializer=list(inits))
    m = h.make_model(g, opset_imports=[h.make_opsetid("", opset)])
    m.ir_version = 8
    if opset <= 17 and check:
        onnx.checker.check_model(m)
    return m


def node(op, ins, outs, name=None, **attrs):
    return h.make_node(op, ins, outs, name=name or outs[0] + "_node", **attrs)


# ---- pointwise ----
def unary_chain():
    ops = ["Neg", "Abs", "Exp", "Log", "Sqrt", "Erf", "Tanh", "Sigmoid", "Relu", "Reciprocal"]
    nodes, prev = [], "x"
    for i, op in enumerate(ops):
        out = "y" if i == len(ops) - 1 else f"t{i}"
        nodes.append(node(op, [prev], [out], name=op.lower()))
        prev = out
    return model(nodes, [vi("x", [2, 3])], [vi("y", [2, 3])])


def binary_broadcast():
    nodes = [node("Add", ["x", "row"], ["a"], name="add"), node("Sub", ["a", "col"], ["s"], name="sub"),
             node("Mul", ["s", "two"], ["m"], name="mul"), node("Div", ["m", "x"], ["d"], name="div"),
             node("Pow", ["d", "e"], ["y"], name="pow")]
    inits = [const("row", np.ones(4, np.float32)), const("col", np.ones((3, 1), np.float32)),
             const("two", np.array(2.0, np.float32)), const("e", np.array(2, np.int64))]
    return model(nodes, [vi("x", [2, 3, 4])], [vi("y", [2, 3, 4])], inits)


def compare_where():
    nodes = [node("Equal", ["a", "b"], ["eq"], name="eq"), node("Less", ["a", "b"], ["lt"], name="lt"),
             node("Greater", ["a", "b"], ["gt"], name="gt"), node("LessOrEqual", ["a", "b"], ["le"], name="le"),
             node("GreaterOrEqual", ["a", "b"], ["ge"], name="ge"),
             node("Where", ["lt", "a", "b"], ["y"], name="where")]
    return model(nodes, [vi("a", [4, 5]), vi("b", [5])], [vi("y", [4, 5]), vi("eq", [4, 5], B)], opset=16)


def max_min():
    nodes = [node("Max", ["a", "b", "c"], ["mx"], name="max3"), node("Min", ["mx", "c"], ["mn"], name="min2"),
             node("Max", ["mn"], ["y"], name="max1")]
    return model(nodes, [vi("a", [3, 4]), vi("b", [4]), vi("c", [3, 1])], [vi("y", [3, 4])])


def cast_identity():
    nodes = [node("Cast", ["x"], ["i"], name="to_i32", to=I32), node("Cast", ["i"], ["j"], name="same", to=I32),
             node("Identity", ["j"], ["k"], name="ident"), node("Cast", ["k"], ["y"], name="to_f32", to=F)]
    return model(nodes, [vi("x", [6])], [vi("y", [6])], opset=19)


def gelu():
    nodes = [node("Gelu", ["x"], ["g"], name="gelu_exact"),
             node("Gelu", ["g"], ["y"], name="gelu_tanh", approximate="tanh")]
    return model(nodes, [vi("x", [2, 8])], [vi("y", [2, 8])], opset=20)


# ---- reductions and normalizations ----
def reductions():
    nodes = [node("ReduceSum", ["x", "ax_sum"], ["s"], name="rsum"),                       # axes input, keepdims 1
             node("ReduceMean", ["x"], ["m"], name="rmean", axes=[0, -1], keepdims=0),    # attribute
             node("ReduceMax", ["x"], ["mx"], name="rmax", axes=[1]),
             node("ReduceMin", ["x"], ["mn"], name="rmin", keepdims=0),                   # all axes
             node("ReduceSum", ["x"], ["same"], name="rnoop", noop_with_empty_axes=1)]
    return model(nodes, [vi("x", [2, 3, 4])],
                 [vi("s", [2, 3, 1]), vi("m", [3]), vi("mx", [2, 1, 4]), vi("mn", []), vi("same", [2, 3, 4])],
                 [const("ax_sum", np.array([-1], np.int64))])


def reduce_opset18():
    nodes = [node("ReduceMean", ["x", "axes"], ["y"], name="rmean18", keepdims=0),
             node("ReduceMax", ["x", "axes"], ["z"], name="rmax18")]
    return model(nodes, [vi("x", [2, 3, 4])], [vi("y", [2, 4]), vi("z", [2, 1, 4])],
                 [const("axes", np.array([1], np.int64))], opset=18)


def softmaxes():
    nodes = [node("Softmax", ["x"], ["s"], name="sm"), node("LogSoftmax", ["s"], ["y"], name="lsm", axis=0)]
    return model(nodes, [vi("x", [3, 5])], [vi("y", [3, 5])])


def layer_norm():
    nodes = [node("LayerNormalization", ["x", "w", "b"], ["l"], name="ln", epsilon=1e-6),
             node("LayerNormalization", ["l", "w2"], ["y"], name="ln_nobias", axis=-2)]
    return model(nodes, [vi("x", [2, 3, 4]), vi("w", [4]), vi("b", [4])], [vi("y", [2, 3, 4])],
                 [const("w2", np.ones((3, 4), np.float32))])


def batch_norm():
    c = 3
    inits = [const(n, np.full(c, v, np.float32)) for n, v in
             [("scale", 2.0), ("bias", 0.5), ("mean", 0.1), ("var", 4.0)]]
    return model([node("BatchNormalization", ["x", "scale", "bias", "mean", "var"], ["y"], name="bn",
                       epsilon=1e-3)], [vi("x", [2, c, 4, 4])], [vi("y", [2, c, 4, 4])], inits, opset=15)


# ---- shape ops ----
def shapes():
    nodes = [node("Transpose", ["x"], ["t"], name="tr_default"),                          # [4,3,2]
             node("Transpose", ["t"], ["t2"], name="tr_perm", perm=[1, 0, 2]),            # [3,4,2]
             node("Reshape", ["t2", "shape"], ["r"], name="reshape"),                     # [3,0,-1] -> [3,4,2]? no: [3, 8]
             node("Unsqueeze", ["r", "uax"], ["u"], name="unsq"),                         # [1,3,8,1]
             node("Squeeze", ["u"], ["q"], name="sq_all"),                                # [3,8]
             node("Unsqueeze", ["q", "uax0"], ["u0"], name="unsq0"),                      # [1,3,8]
             node("Squeeze", ["u0", "uax0"], ["q0"], name="sq_axes"),                     # [3,8]
             node("Expand", ["col", "eshape"], ["e"], name="expand"),                     # [3,1] x [2,1,8] -> [2,3,8]
             node("Flatten", ["e"], ["f"], name="flat"),                                  # [2,24]
             node("Flatten", ["e"], ["f0"], name="flat0", axis=0),                        # [1,48]
             node("Flatten", ["e"], ["fm"], name="flatneg", axis=-1),                     # [6,8]
             node("Concat", ["q", "q"], ["y"], name="cat", axis=-2),                      # [6,8]
             node("Concat", ["q", "fm", "q0"], ["y3"], name="cat3", axis=0),              # [12,8]: a chain
             node("Concat", ["f"], ["y1"], name="cat1", axis=1)]                          # [2,24]: identity
    inits = [const("shape", np.array([3, -1], np.int64)), const("uax", np.array([0, -1], np.int64)),
             const("uax0", np.array([0], np.int64)), const("col", np.ones((3, 1), np.float32)),
             const("eshape", np.array([2, 1, 8], np.int64))]
    return model(nodes, [vi("x", [2, 3, 4])],
                 [vi("y", [6, 8]), vi("f", [2, 24]), vi("f0", [1, 48]), vi("fm", [6, 8]), vi("y3", [12, 8]),
                  vi("y1", [2, 24])], inits)


def reshape_zero():
    return model([node("Reshape", ["x", "shape"], ["y"], name="reshape0")], [vi("x", [2, 3, 4])],
                 [vi("y", [2, 12])], [const("shape", np.array([0, -1], np.int64))])


def slices():
    big = np.iinfo(np.int64).max
    nodes = [node("Slice", ["x", "s1", "e1"], ["a"], name="neg_start"),                      # axis 0: [-2, big)
             node("Slice", ["x", "s2", "e2", "ax2", "st2"], ["b"], name="stepped"),            # axes 2,1 step 2,1
             node("Slice", ["x", "s3", "e3", "ax3"], ["c"], name="clamped"),                   # [-100, 100) on -1
             node("Slice", ["x", "s4", "e4", "ax4"], ["d"], name="negend")]                    # [0, -1) on 1
    inits = [const("s1", np.array([-2], np.int64)), const("e1", np.array([big], np.int64)),
             const("s2", np.array([1, 0], np.int64)), const("e2", np.array([5, 3], np.int64)),
             const("ax2", np.array([2, 1], np.int64)), const("st2", np.array([2, 1], np.int64)),
             const("s3", np.array([-100], np.int64)), const("e3", np.array([100], np.int64)),
             const("ax3", np.array([-1], np.int64)), const("s4", np.array([0], np.int64)),
             const("e4", np.array([-1], np.int64)), const("ax4", np.array([1], np.int64))]
    return model(nodes, [vi("x", [4, 3, 6])],
                 [vi("a", [2, 3, 6]), vi("b", [4, 3, 2]), vi("c", [4, 3, 6]), vi("d", [4, 2, 6])], inits)


def constants():
    nodes = [h.make_node("Constant", [], ["cf"], name="c_floats", value_floats=[1.0, 2.0, 3.0]),
             h.make_node("Constant", [], ["ci"], name="c_int", value_int=7),
             h.make_node("Constant", [], ["ct"], name="c_tensor", value=nh.from_array(np.arange(6, dtype=np.float32).reshape(2, 3))),
             h.make_node("Constant", [], ["shape"], name="c_shape", value_ints=[3, 2]),
             node("Add", ["x", "cf"], ["a"], name="add_cf"),
             node("Add", ["a", "ct"], ["b"], name="add_ct"),
             node("Reshape", ["b", "shape"], ["y"], name="reshape_c"),
             node("Cast", ["ci"], ["cif"], name="cast_ci", to=F)]
    return model(nodes, [vi("x", [2, 3])], [vi("y", [3, 2]), vi("cif", [])])


def large_initializer():
    w = np.arange(64 * 32, dtype=np.float32).reshape(64, 32) / 100.0
    z = np.zeros((64, 32), np.float32)
    nodes = [node("MatMul", ["x", "weights.0/w"], ["m"], name="mm"), node("Add", ["z", "m"], ["y"], name="addz")]
    return model(nodes, [vi("x", [2, 64])], [vi("y", [2, 32])], [const("weights.0/w", w), const("z", z[:2])])


def resource_collision():
    """Two large initializers whose names sanitize to the same resource key."""
    a = np.arange(40 * 32, dtype=np.float32).reshape(40, 32) / 1000.0
    # x is added first: an Add of the two constants would be folded into one constant
    nodes = [node("Add", ["x", "w.0"], ["s"], name="sum"), node("Add", ["s", "w_0"], ["y"], name="addw")]
    return model(nodes, [vi("x", [40, 32])], [vi("y", [40, 32])], [const("w.0", a), const("w_0", -2 * a + 1)])


# ---- contractions ----
def matmuls():
    nodes = [node("MatMul", ["a", "w"], ["m2"], name="mm2d"),            # [5,4]x[4,6]
             node("MatMul", ["b3", "w"], ["m3"], name="mm3d2d"),         # [2,5,4]x[4,6] -> batch
             node("MatMul", ["v", "w"], ["mv"], name="mm_vec_mat"),      # [4]x[4,6] -> [6]
             node("MatMul", ["a", "v"], ["mmv"], name="mm_mat_vec"),     # [5,4]x[4] -> [5]
             node("MatMul", ["v", "v"], ["dot"], name="mm_dot"),         # [4]x[4] -> []
             node("MatMul", ["b4", "c4"], ["m4"], name="mm_bcast")]      # [2,1,5,4]x[3,4,6] -> [2,3,5,6]
    ins = [vi("a", [5, 4]), vi("b3", [2, 5, 4]), vi("v", [4]), vi("b4", [2, 1, 5, 4]), vi("c4", [3, 4, 6])]
    outs = [vi("m2", [5, 6]), vi("m3", [2, 5, 6]), vi("mv", [6]), vi("mmv", [5]), vi("dot", []), vi("m4", [2, 3, 5, 6])]
    return model(nodes, ins, outs, [const("w", np.ones((4, 6), np.float32))], opset=13)


def gemms():
    nodes = [node("Gemm", ["at", "b", "c"], ["g"], name="gemm_full", transA=1, alpha=0.5, beta=2.0),
             node("Gemm", ["x", "wl", "bl"], ["lin"], name="gemm_linear", transB=1),
             node("Gemm", ["x", "wt"], ["noc"], name="gemm_noc")]
    ins = [vi("at", [4, 3]), vi("b", [4, 5]), vi("c", [1, 5]), vi("x", [3, 4])]
    inits = [const("wl", np.ones((6, 4), np.float32)), const("bl", np.zeros(6, np.float32) + 1),
             const("wt", np.ones((4, 2), np.float32))]
    return model(nodes, ins, [vi("g", [3, 5]), vi("lin", [3, 6]), vi("noc", [3, 2])], inits)


# ---- whole models ----
def mlp():
    rng = np.random.default_rng(1)
    nodes = [node("Gemm", ["x", "w1", "b1"], ["h1"], name="fc1", transB=1), node("Relu", ["h1"], ["a1"], name="relu1"),
             node("MatMul", ["a1", "w2"], ["h2"], name="fc2"), node("Add", ["h2", "b2"], ["h2b"], name="fc2_bias"),
             node("Softmax", ["h2b"], ["y"], name="probs")]
    inits = [const("w1", rng.standard_normal((64, 32)).astype(np.float32) * 0.1),
             const("b1", rng.standard_normal(64).astype(np.float32) * 0.1),
             const("w2", rng.standard_normal((64, 10)).astype(np.float32) * 0.1),
             const("b2", rng.standard_normal(10).astype(np.float32) * 0.1)]
    return model(nodes, [vi("x", [8, 32])], [vi("y", [8, 10])], inits, name="mlp")


def transformer_block(S=8, D=16, H=2):
    """Pre-LN block: LN -> QKV -> split heads -> attention -> proj -> residual -> LN -> FFN(gelu) -> residual."""
    rng = np.random.default_rng(2)
    Dh = D // H
    w = lambda *s: const_arr(rng, s)
    nodes = [
        node("LayerNormalization", ["x", "ln1_w", "ln1_b"], ["ln1"], name="ln1"),
        node("MatMul", ["ln1", "wqkv"], ["qkv"], name="qkv_proj"),
        node("Slice", ["qkv", "q_s", "q_e", "ax_last"], ["q"], name="q_slice"),
        node("Slice", ["qkv", "k_s", "k_e", "ax_last"], ["k"], name="k_slice"),
        node("Slice", ["qkv", "v_s", "v_e", "ax_last"], ["v"], name="v_slice"),
        node("Reshape", ["q", "heads"], ["qh"], name="q_heads"), node("Transpose", ["qh"], ["qt"], name="q_t", perm=[1, 0, 2]),
        node("Reshape", ["k", "heads"], ["kh"], name="k_heads"), node("Transpose", ["kh"], ["kt"], name="k_t", perm=[1, 2, 0]),
        node("Reshape", ["v", "heads"], ["vh"], name="v_heads"), node("Transpose", ["vh"], ["vt"], name="v_t", perm=[1, 0, 2]),
        node("MatMul", ["qt", "kt"], ["scores"], name="scores"),
        node("Mul", ["scores", "scale"], ["scaled"], name="scale"),
        node("Add", ["scaled", "mask"], ["masked"], name="causal_mask"),
        node("Softmax", ["masked"], ["probs"], name="attn_softmax"),
        node("MatMul", ["probs", "vt"], ["ctx"], name="attn_ctx"),
        node("Transpose", ["ctx"], ["ctx_t"], name="ctx_t", perm=[1, 0, 2]),
        node("Reshape", ["ctx_t", "merged"], ["ctx_m"], name="merge_heads"),
        node("Gemm", ["ctx_m", "wo", "bo"], ["attn"], name="out_proj", transB=1),
        node("Add", ["x", "attn"], ["res1"], name="residual1"),
        node("LayerNormalization", ["res1", "ln2_w", "ln2_b"], ["ln2"], name="ln2"),
        node("MatMul", ["ln2", "w_up"], ["up"], name="ffn_up"),
        node("Gelu", ["up"], ["act"], name="ffn_gelu"),
        node("MatMul", ["act", "w_down"], ["down"], name="ffn_down"),
        node("Add", ["res1", "down"], ["y"], name="residual2")]
    mask = np.triu(np.full((S, S), -1e9, np.float32), 1)
    ints = lambda name, v: const(name, np.array(v, np.int64))
    inits = [w(D), w(D), w(D, 3 * D), w(D, D), w(D), w(D), w(D), w(D, 4 * D), w(4 * D, D)]
    names = ["ln1_w", "ln1_b", "wqkv", "wo", "bo", "ln2_w", "ln2_b", "w_up", "w_down"]
    inits = [const(n, a) for n, a in zip(names, inits)]
    inits += [ints("q_s", [0]), ints("q_e", [D]), ints("k_s", [D]), ints("k_e", [2 * D]), ints("v_s", [2 * D]),
              ints("v_e", [3 * D]), ints("ax_last", [-1]), ints("heads", [S, H, Dh]), ints("merged", [S, D]),
              const("scale", np.array(1 / np.sqrt(Dh), np.float32)), const("mask", mask)]
    return model(nodes, [vi("x", [S, D])], [vi("y", [S, D])], inits, opset=20, name="block")


def const_arr(rng, shape):
    return (rng.standard_normal(shape) * 0.2).astype(np.float32)


# ---- error cases ----
def unsupported_op():
    return model([node("Relu", ["x"], ["r"], name="ok"), node("RoiAlign", ["r", "rois", "idx"], ["y"], name="roi1")],
                 [vi("x", [1, 1, 4, 4])], [vi("y", [1, 1, 2, 2])],
                 [const("rois", np.ones((1, 4), np.float32)), const("idx", np.zeros((1,), np.int64))])


def unnamed_unsupported():
    return model([h.make_node("Relu", ["x"], ["r"]), h.make_node("Det", ["r"], ["y"])],
                 [vi("x", [4, 4])], [vi("y", [])])


def opset12():
    return model([node("Relu", ["x"], ["y"], name="r")], [vi("x", [4])], [vi("y", [4])], opset=12)


def opset6():
    return model([node("Relu", ["x"], ["y"], name="r")], [vi("x", [4])], [vi("y", [4])], opset=6)


def old_op_version():
    """LayerNormalization exists from opset 17: a model of opset 16 using it is refused by version."""
    return model([node("LayerNormalization", ["x", "w"], ["y"], name="ln16")], [vi("x", [2, 4]), vi("w", [4])],
                 [vi("y", [2, 4])], opset=16, check=False)


def add_opset6():
    """Add-6 broadcasts by its legacy broadcast/axis attributes: refused by version."""
    return model([node("Add", ["a", "b"], ["y"], name="legacy_add", broadcast=1)],
                 [vi("a", [2, 3]), vi("b", [3])], [vi("y", [2, 3])], opset=6, check=False)


def huge_trilu():
    """A Trilu whose mask constant would be too large: refused, nothing allocated."""
    return model([node("Trilu", ["x"], ["y"], name="big_tril", upper=0)], [vi("x", [2, 8192, 8192])],
                 [vi("y", [2, 8192, 8192])], opset=14)


def sin_input():
    """Sin of an int32 graph input: graph.sin is float only."""
    return model([node("Sin", ["x"], ["y"], name="sin_x")], [vi("x", [4], TP.INT32)],
                 [vi("y", [4], TP.INT32)])


def opset22():
    return model([node("Relu", ["x"], ["y"], name="r")], [vi("x", [4])], [vi("y", [4])], opset=22)


def dynamic_dim():
    return model([node("Relu", ["x"], ["y"], name="r")], [vi("x", ["batch", 128])], [vi("y", ["batch", 128])])


def dynamic_shape_input():
    return model([node("Reshape", ["x", "s"], ["y"], name="reshape_dyn")], [vi("x", [2, 6]), vi("s", [2], I64)],
                 [vi("y", [3, 4])])


def negative_step():
    return model([node("Slice", ["x", "s", "e", "a", "st"], ["y"], name="rev")], [vi("x", [4])], [vi("y", [4])],
                 [const("s", np.array([-1], np.int64)), const("e", np.array([-5], np.int64)),
                  const("a", np.array([0], np.int64)), const("st", np.array([-1], np.int64))])


def custom_domain():
    g = h.make_graph([h.make_node("Foo", ["x"], ["y"], name="foo", domain="com.example")], "g",
                     [vi("x", [4])], [vi("y", [4])])
    m = h.make_model(g, opset_imports=[h.make_opsetid("", 17), h.make_opsetid("com.example", 1)])
    return m


def ln_extra_output():
    """BatchNormalization's running mean (a training output) used by a later node."""
    return model([node("BatchNormalization", ["x", "s", "b", "m", "v"], ["y", "mean"], name="bn_stats"),
                  node("Add", ["y", "mean"], ["z"], name="use_mean")],
                 [vi("x", [2, 4]), vi("s", [4]), vi("b", [4]), vi("m", [4]), vi("v", [4])], [vi("z", [2, 4])],
                 opset=13, check=False)


def bad_broadcast():
    return model([node("Add", ["a", "b"], ["y"], name="add_bad")], [vi("a", [2, 3]), vi("b", [4])], [vi("y", [2, 3])])


def bitshift_signed():
    return model([node("BitShift", ["x", "x"], ["y"], name="shl_i32", direction="LEFT")],
                 [vi("x", [4], TP.INT32)], [vi("y", [4], TP.INT32)], check=False)


def complex_input():
    return model([node("Relu", ["x"], ["y"], name="r")], [vi("x", [4], TP.COMPLEX64)], [vi("y", [4], TP.COMPLEX64)],
                 check=False)


def unsigned_model():
    """UINT8/UINT16/UINT64/INT16 end to end: unsigned inputs and initializers (raw_data,
    typed int32_data for UINT16, typed uint64_data for UINT64 above 2^63), wrapping
    Add/Sub, unsigned Div and Mod, Max/Less against 2^63 + 2^11, Cast UINT8 -> FLOAT,
    FLOAT -> UINT8 (fptoui), INT16 -> UINT16 (wraps) and UINT64 -> DOUBLE."""
    U8, U16, U64, I16 = TP.UINT8, TP.UINT16, TP.UINT64, TP.INT16
    k16 = h.make_tensor("k16", U16, [4], [65535, 0, 1000, 1], raw=False)
    big = h.make_tensor("big", U64, [4], [2**63 + 2048, 1, 2**64 - 2048, 3], raw=False)
    nodes = [node("Add", ["x", "k"], ["a"], name="add_wrap"),
             node("Div", ["a", "y"], ["d"], name="div_u8"),
             node("Mod", ["a", "y"], ["m"], name="mod_u8"),
             node("Sub", ["w", "k16"], ["ws"], name="sub_u16"),
             node("Max", ["u", "big"], ["um"], name="max_u64"),
             node("Less", ["u", "big"], ["lt"], name="less_u64"),
             node("Cast", ["a"], ["af"], name="u8_to_float", to=F),
             node("Abs", ["f"], ["fa"], name="abs"),
             node("Mul", ["fa", "ten"], ["f10"], name="scale"),
             node("Cast", ["f10"], ["fu"], name="float_to_u8", to=U8),
             node("Sub", ["s", "s8"], ["sn"], name="sub_i16"),
             node("Cast", ["sn"], ["su"], name="i16_to_u16", to=U16),
             node("Cast", ["um"], ["ud"], name="u64_to_double", to=TP.DOUBLE)]
    inits = [const("k", np.array([200, 100, 7, 1], np.uint8)), k16, big, const("ten", np.array(10.0, np.float32)),
             const("s8", np.array(8, np.int16))]
    return model(nodes, [vi("x", [3, 4], U8), vi("y", [4], U8), vi("w", [3, 4], U16), vi("u", [3, 4], U64),
                         vi("f", [3, 4]), vi("s", [3, 4], I16)],
                 [vi("d", [3, 4], U8), vi("m", [3, 4], U8), vi("ws", [3, 4], U16), vi("um", [3, 4], U64),
                  vi("lt", [3, 4], TP.BOOL), vi("af", [3, 4]), vi("fu", [3, 4], U8), vi("su", [3, 4], U16),
                  vi("ud", [3, 4], TP.DOUBLE)], inits)


def int8_model():
    """INT8 end to end: an INT8 input, INT8 initializers (raw_data and typed int32_data),
    wrapping Mul/Add, Max, Cast INT8 <-> FLOAT."""
    I8 = TP.INT8
    typed = h.make_tensor("bias", I8, [4], [100, -100, 127, -128], raw=False)
    nodes = [node("Mul", ["x", "k"], ["m"], name="mul"),
             node("Add", ["m", "bias"], ["s"], name="add"),
             node("Max", ["s", "x"], ["y"], name="max"),
             node("Cast", ["y"], ["yf"], name="to_float", to=F),
             node("Cast", ["f"], ["fi"], name="from_float", to=I8)]
    inits = [const("k", np.array([60, -60, 3, 1], np.int8)), typed]
    return model(nodes, [vi("x", [3, 4], I8), vi("f", [3, 4])],
                 [vi("y", [3, 4], I8), vi("yf", [3, 4]), vi("fi", [3, 4], I8)], inits)


def bitshift_model():
    """BitShift LEFT on UINT8 (wrapping; shifts of 8 or more give 0) and RIGHT on
    UINT64 of values above 2^63 and on UINT16."""
    U8, U16, U64 = TP.UINT8, TP.UINT16, TP.UINT64
    big = h.make_tensor("big", U64, [4], [2**64 - 2048, 2**63 + 2048, 3, 2**63], raw=False)
    nodes = [node("BitShift", ["x", "y"], ["l"], name="shl_u8", direction="LEFT"),
             node("BitShift", ["big", "s"], ["r"], name="shr_u64", direction="RIGHT"),
             node("BitShift", ["w", "v"], ["r16"], name="shr_u16", direction="RIGHT")]
    return model(nodes, [vi("x", [3, 4], U8), vi("y", [4], U8), vi("s", [3, 4], U64), vi("w", [3, 4], U16),
                         vi("v", [3, 4], U16)],
                 [vi("l", [3, 4], U8), vi("r", [3, 4], U64), vi("r16", [3, 4], U16)], [big])


def bitwise_model():
    """BitwiseAnd/Or/Xor/Not (opset 18): UINT8 against constant bit patterns, INT32
    broadcast against wide values, INT64 negative constants, NOT of INT16 and UINT8."""
    U8, I16, I32, I64 = TP.UINT8, TP.INT16, TP.INT32, TP.INT64
    pat = const("pat", np.array([0xF0, 0x0F, 0xAA, 0x55], np.uint8))
    wide = const("wide", np.array([0x7FFF0000, -0x10000, 0x00FF00FF, -1], np.int32))
    neg = const("neg", np.array([-(2**40), -3, 2**40 + 5, 0], np.int64))
    nodes = [node("BitwiseAnd", ["x", "pat"], ["a"], name="and_u8"),
             node("BitwiseOr", ["i", "wide"], ["o"], name="or_i32"),
             node("BitwiseXor", ["l", "neg"], ["xo"], name="xor_i64"),
             node("BitwiseNot", ["s"], ["ns"], name="not_i16"),
             node("BitwiseNot", ["a"], ["na"], name="not_u8")]
    return model(nodes, [vi("x", [3, 4], U8), vi("i", [3, 4], I32), vi("l", [3, 4], I64), vi("s", [3, 4], I16)],
                 [vi("a", [3, 4], U8), vi("o", [3, 4], I32), vi("xo", [3, 4], I64), vi("ns", [3, 4], I16),
                  vi("na", [3, 4], U8)], [pat, wide, neg], opset=18)


def axes_input():
    """Unsqueeze with its axes as a graph input (ONNX's tests do this): braze needs the
    axes as a constant, so import refuses it unless --bind gives the values."""
    return model([node("Unsqueeze", ["x", "axes"], ["y"], name="unsq"), node("Relu", ["y"], ["z"], name="relu")],
                 [vi("x", [3, 4]), vi("axes", [2], TP.INT64)], [vi("z", [1, 3, 1, 4])], opset=13)


def mod_float_fmod0():
    """Mod of floats without fmod=1: ONNX defines float Mod only as fmod."""
    return model([node("Mod", ["x", "y"], ["z"], name="mod_f32")], [vi("x", [4]), vi("y", [4])],
                 [vi("z", [4])], check=False)


def bitwise_float():
    """BitwiseAnd of float tensors: refused (integers only)."""
    return model([node("BitwiseAnd", ["x", "y"], ["z"], name="and_f32")], [vi("x", [4]), vi("y", [4])],
                 [vi("z", [4])], opset=18, check=False)


def unsigned_ops_model():
    """Ops that take integers, on unsigned/INT16 tensors: Clip (UINT8 bounds above 127),
    Equal/Greater, Where, Reshape/Transpose/Concat/Slice/Expand, ReduceMax/ReduceMin/
    ReduceSum (UINT32 sums wrap), Neg and Abs of INT16, CastLike to UINT16."""
    U8, U16, U32, I16 = TP.UINT8, TP.UINT16, TP.UINT32, TP.INT16
    nodes = [node("Clip", ["x", "lo", "hi"], ["c"], name="clip_u8"),
             node("Greater", ["x", "lo"], ["gt"], name="greater_u8"),
             node("Equal", ["w", "w2"], ["eq"], name="equal_u16"),
             node("Where", ["eq", "w", "w2"], ["wh"], name="where_u16"),
             node("Reshape", ["u", "shape"], ["ur"], name="reshape_u32"),
             node("Transpose", ["ur"], ["ut"], name="transpose_u32", perm=[1, 0]),
             node("Concat", ["ut", "ut"], ["uc"], name="concat_u32", axis=0),
             node("Slice", ["uc", "starts", "ends"], ["us"], name="slice_u32"),
             node("ReduceMax", ["us"], ["rmax"], name="rmax_u32", axes=[1], keepdims=0),
             node("ReduceMin", ["us"], ["rmin"], name="rmin_u32", axes=[1], keepdims=0),
             node("ReduceSum", ["us", "axes"], ["rsum"], name="rsum_u32", keepdims=0),
             node("Neg", ["s"], ["sn"], name="neg_i16"),
             node("Abs", ["sn"], ["sa"], name="abs_i16"),
             node("CastLike", ["sa", "w"], ["sw"], name="castlike_u16")]
    inits = [const("lo", np.array(3, np.uint8)), const("hi", np.array(200, np.uint8)),
             const("shape", np.array([4, 3], np.int64)), const("starts", np.array([1], np.int64)),
             const("ends", np.array([5], np.int64)), const("axes", np.array([1], np.int64))]
    return model(nodes, [vi("x", [3, 4], U8), vi("w", [3, 4], U16), vi("w2", [3, 4], U16), vi("u", [3, 4], U32),
                         vi("s", [3, 4], I16)],
                 [vi("c", [3, 4], U8), vi("gt", [3, 4], TP.BOOL), vi("wh", [3, 4], U16), vi("rmax", [4], U32),
                  vi("rmin", [4], U32), vi("rsum", [4], U32), vi("sw", [3, 4], U16)], inits)


def double_model():
    """f64 end to end: a DOUBLE input, DOUBLE initializers (raw_data and typed
    double_data), Cast between FLOAT and DOUBLE, f64 arithmetic, Softmax, MatMul,
    Round and Pad with a DOUBLE constant_value."""
    D = TP.DOUBLE
    w = np.linspace(-1.0, 1.0, 12).reshape(3, 4) + 1e-12  # not representable in f32
    typed = h.make_tensor("scale", D, [4], [0.5, 0.25, 1.0 / 3.0, 2.0], raw=False)
    nodes = [node("Cast", ["f"], ["fd"], name="widen", to=D),
             node("Add", ["x", "fd"], ["s"], name="add"),
             node("Mul", ["s", "scale"], ["m"], name="mul"),
             node("Exp", ["m"], ["e"], name="exp"),
             node("Softmax", ["e"], ["sm"], name="softmax", axis=-1),
             node("MatMul", ["w", "sm"], ["p"], name="matmul"),
             node("Pad", ["p", "pads", "pv"], ["y"], name="pad"),
             node("Mul", ["p", "seven"], ["p7"], name="mul7"),
             node("Round", ["p7"], ["r"], name="round"),
             node("Cast", ["p"], ["yf"], name="narrow", to=F)]
    inits = [const("w", w), typed, const("pads", np.array([0, 1, 0, 0], np.int64)),
             const("pv", np.array(-1.5, np.float64)), const("seven", np.array(7.0, np.float64))]
    return model(nodes, [vi("x", [4, 4], D), vi("f", [4, 4])],
                 [vi("y", [3, 5], D), vi("r", [3, 4], D), vi("yf", [3, 4])], inits)


def wrong_output_shape():
    return model([node("Relu", ["x"], ["y"], name="r")], [vi("x", [4])], [vi("y", [5])])


def huge_input():
    return model([node("Relu", ["x"], ["y"], name="r")], [vi("x", [2**31, 2**31])], [vi("y", [2**31, 2**31])])


def huge_expand():
    return model([node("Expand", ["x", "shape"], ["y"], name="expand_huge")], [vi("x", [4])],
                 [vi("y", [2**30, 2**30, 4])], [const("shape", np.array([2**30, 2**30, 4], np.int64))])


def huge_reshape():
    return model([node("Reshape", ["x", "shape"], ["y"], name="reshape_huge")], [vi("x", [4])],
                 [vi("y", [2**40, 2**40])], [const("shape", np.array([2**40, 2**40], np.int64))])


def undefined_input():
    g = h.make_graph([node("Relu", ["nowhere"], ["y"], name="r")], "g", [vi("x", [4])], [vi("y", [4])])
    return h.make_model(g, opset_imports=[h.make_opsetid("", 17)])


def main():
    cases = {k: v for k, v in globals().items() if callable(v) and v.__module__ == "__main__"
             and k not in ("main", "vi", "const", "model", "node", "const_arr")}
    if sys.argv[1] == "--list":
        print("\n".join(sorted(cases)))
        return
    for arg in sys.argv[1:]:
        case, out = arg.split("=", 1)
        onnx.save(cases[case](), out)


if __name__ == "__main__":
    main()
