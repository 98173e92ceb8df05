/* Converters for reductions and normalizations: ReduceSum/Mean/Max/Min, Softmax,
 * LogSoftmax, LayerNormalization, BatchNormalization (inference). */
#include <math.h>
#include <string.h>

#include "import/onnx-compose.h"

/* The reduction axes: the `axes` attribute (ReduceMean/Max/Min before opset 18) or
 * the constant second input (ReduceSum from 13, the others from 18). */
static bool reduce_axes(OnnxImporter *im, int64_t *axes, size_t *n) {
  bool present = false;
  if (!onnx_attr_ints(im, "axes", axes, ONNX_MAX_RANK, n, &present))
    return false;
  if (present || !onnx_has_input(im->node, 1))
    return true;
  return onnx_const_input_ints(im, 1, "the axes input", axes, ONNX_MAX_RANK, n);
}

/* The reduce_* op a Reduce* node uses, and what it does before and after:
 * L1 = sum |x|, L2 = sqrt(sum x^2), LogSum = log(sum x), LogSumExp = m + log(sum
 * exp(x - m)) with m the (finite) max, SumSquare = sum x^2. */
typedef struct {
  const char *onnx, *graph;
  bool float_only;
} ReduceKind;

static const ReduceKind reduce_kinds[] = {
    {"ReduceSum", "reduce_sum", false},       {"ReduceMean", "reduce_mean", true},
    {"ReduceMax", "reduce_max", false},       {"ReduceMin", "reduce_min", false},
    {"ReduceL1", "reduce_sum", false},        {"ReduceL2", "reduce_sum", true},
    {"ReduceLogSum", "reduce_sum", true},     {"ReduceLogSumExp", "reduce_sum", true},
    {"ReduceSumSquare", "reduce_sum", false},
};

static OcVal reduce_log_sum_exp(OnnxImporter *im, OcVal x, const int64_t *axes, size_t n, bool keepdims) {
  OcVal m = oc_reduce(im, "reduce_max", x, axes, n, true);
  OcVal finite = oc_cmp_s(im, "lt", oc_unary(im, "abs", m), INFINITY);
  m = oc_select(im, finite, m, oc_scalar(im, x.t.dtype, 0.0));
  OcVal sum = oc_reduce(im, "reduce_sum", oc_unary(im, "exp", oc_binary(im, "sub", x, m)), axes, n, keepdims);
  OcVal shift = oc_ok(sum) ? oc_reshape(im, m, sum.t.dims, sum.t.rank) : sum;
  return oc_binary(im, "add", oc_unary(im, "log", sum), shift);
}

static bool convert_reduce(OnnxImporter *im) {
  const char *op_type = im->node->op_type;
  const ReduceKind *kind = &reduce_kinds[0];
  for (size_t i = 0; i < sizeof reduce_kinds / sizeof *reduce_kinds; ++i)
    if (strcmp(reduce_kinds[i].onnx, op_type) == 0)
      kind = &reduce_kinds[i];
  OnnxValue *in = onnx_input(im, 0);
  if (!in)
    return false;
  OnnxType t = in->type;
  if (kind->float_only && !onnx_require_float(im, &t, "the input"))
    return false;
  if (t.dtype == ONNX__TENSOR_PROTO__DATA_TYPE__BOOL)
    return onnx_node_error(im, "boolean inputs are not supported");
  int64_t axes[ONNX_MAX_RANK];
  size_t n = 0;
  if (!reduce_axes(im, axes, &n) || !onnx_norm_axes(im, axes, n, t.rank, "axes"))
    return false;
  bool keepdims = onnx_attr_int(im->node, "keepdims", 1) != 0;
  bool plain = kind == &reduce_kinds[0] || kind == &reduce_kinds[1] || kind == &reduce_kinds[2] ||
               kind == &reduce_kinds[3];
  if (n == 0) {
    /* No axes: reduce everything, unless noop_with_empty_axes makes it an identity
     * (of the input: ONNX applies no pre/post step then either). */
    if (onnx_attr_int(im->node, "noop_with_empty_axes", 0) || (t.rank == 0 && plain))
      return onnx_alias_output(im, 0, in);
    for (; n < t.rank; ++n)
      axes[n] = (int64_t)n;
  }
  OcVal x = {onnx_materialize(im, in), t};
  const char *name = kind->onnx + 6; /* after "Reduce" */
  if (strcmp(name, "LogSumExp") == 0)
    return oc_output(im, 0, reduce_log_sum_exp(im, x, axes, n, keepdims));
  if (strcmp(name, "L1") == 0)
    x = oc_unary(im, "abs", x);
  else if (strcmp(name, "L2") == 0 || strcmp(name, "SumSquare") == 0)
    x = oc_binary(im, "mul", x, x);
  OcVal r = oc_reduce(im, kind->graph, x, axes, n, keepdims);
  if (strcmp(name, "L2") == 0)
    r = oc_unary(im, "sqrt", r);
  else if (strcmp(name, "LogSum") == 0)
    r = oc_unary(im, "log", r);
  return oc_output(im, 0, r);
}

/* Softmax/LogSoftmax: opset 13+ semantics (one axis, default -1); older opsets'
 * flatten-to-2D semantics never reach here (opsets below 13 are refused). */
static bool convert_softmax(OnnxImporter *im) {
  const char *op = strcmp(im->node->op_type, "Softmax") == 0 ? "softmax" : "log_softmax";
  OnnxType t;
  MlirValue x = onnx_operand(im, 0, &t);
  if (mlirValueIsNull(x) || !onnx_require_float(im, &t, "the input"))
    return false;
  if (t.rank == 0)
    return onnx_node_error(im, "the input must have rank >= 1");
  int64_t axis;
  bool coerce = im->opset < 13; /* before 13: over the dims from axis on, as one row */
  if (!onnx_norm_axis(im, onnx_attr_int(im->node, "axis", coerce ? 1 : -1), t.rank, "axis", &axis))
    return false;
  if (coerce && axis + 1 < (int64_t)t.rank) {
    int64_t rows = 1, cols = 1;
    for (size_t d = 0; d < t.rank; ++d)
      *(d < (size_t)axis ? &rows : &cols) *= t.dims[d];
    OcVal flat = oc_reshape(im, (OcVal){x, t}, (int64_t[]){rows, cols}, 2);
    OnnxNamedAttr attr = {"dim", onnx_i64_attr(im, 1)};
    OcVal y = {onnx_build(im, op, &flat.t, &flat.v, 1, &attr, 1), flat.t};
    return oc_output(im, 0, oc_reshape(im, y, t.dims, t.rank));
  }
  OnnxNamedAttr attr = {"dim", onnx_i64_attr(im, axis)};
  return onnx_set_output(im, 0, onnx_build(im, op, &t, &x, 1, &attr, 1), &t);
}

/* A per-feature operand (LayerNormalization's Scale/B) brought to exactly `want`
 * (ONNX allows any shape that broadcasts to it; the graph op wants the shape). */
static MlirValue exact_operand(OnnxImporter *im, size_t i, const OnnxType *want, const char *what) {
  OnnxType t;
  MlirValue v = onnx_operand(im, i, &t);
  if (mlirValueIsNull(v))
    return v;
  OnnxType b;
  if (t.dtype != want->dtype) {
    onnx_node_error(im, "%s has element type %s, the input %s", what, onnx_dtype_name(t.dtype),
                    onnx_dtype_name(want->dtype));
    return (MlirValue){NULL};
  }
  if (onnx_same_shape(&t, want))
    return v;
  if (!onnx_broadcast(im, &t, want, &b))
    return (MlirValue){NULL};
  if (!onnx_same_shape(&b, want)) {
    char s1[128], s2[128];
    onnx_node_error(im, "%s of shape %s does not broadcast to %s", what, onnx_type_str(&t, s1, sizeof s1),
                    onnx_type_str(want, s2, sizeof s2));
    return (MlirValue){NULL};
  }
  return onnx_build_unary(im, "broadcast_to", v, want);
}

/* LayerNormalization's optional outputs, when named: Mean = E[x] and InvStdDev =
 * 1 / sqrt(E[(x - Mean)^2] + eps) over the dims from axis on, kept as 1s. */
static bool layer_norm_stats(OnnxImporter *im, OcVal x, int64_t axis, double eps) {
  bool want_mean = im->node->n_output > 1 && im->node->output[1][0];
  bool want_inv = im->node->n_output > 2 && im->node->output[2][0];
  if (!want_mean && !want_inv)
    return true;
  int64_t axes[ONNX_MAX_RANK];
  size_t n = 0;
  for (size_t d = (size_t)axis; d < x.t.rank; ++d)
    axes[n++] = (int64_t)d;
  OcVal mean = oc_reduce(im, "reduce_mean", x, axes, n, true);
  if (want_mean && !oc_output(im, 1, mean))
    return false;
  if (!want_inv)
    return true;
  OcVal centered = oc_binary(im, "sub", x, mean);
  OcVal var = oc_reduce(im, "reduce_mean", oc_binary(im, "mul", centered, centered), axes, n, true);
  OcVal inv = oc_binary(im, "div", oc_scalar(im, x.t.dtype, 1.0), oc_unary(im, "sqrt", oc_binary_s(im, "add", var, eps)));
  return oc_output(im, 2, inv);
}

static bool convert_layer_norm(OnnxImporter *im) {
  OnnxType t;
  MlirValue ops[3];
  ops[0] = onnx_operand(im, 0, &t);
  if (mlirValueIsNull(ops[0]) || !onnx_require_float(im, &t, "the input"))
    return false;
  if (t.rank == 0)
    return onnx_node_error(im, "the input must have rank >= 1");
  int64_t axis;
  if (!onnx_norm_axis(im, onnx_attr_int(im->node, "axis", -1), t.rank, "axis", &axis))
    return false;
  OnnxType feat = {.dtype = t.dtype};
  for (size_t d = (size_t)axis; d < t.rank; ++d)
    feat.dims[feat.rank++] = t.dims[d];
  ops[1] = exact_operand(im, 1, &feat, "Scale");
  if (mlirValueIsNull(ops[1]))
    return false;
  ops[2] = onnx_has_input(im->node, 2) ? exact_operand(im, 2, &feat, "B") : onnx_build_splat(im, &feat, 0.0);
  if (mlirValueIsNull(ops[2]))
    return false;
  OnnxNamedAttr attrs[2] = {{"axis", onnx_i64_attr(im, axis)},
                            {"eps", onnx_f32_attr(im, onnx_attr_float(im->node, "epsilon", 1e-5f))}};
  if (!onnx_set_output(im, 0, onnx_build(im, "layer_norm", &t, ops, 3, attrs, 2), &t))
    return false;
  return layer_norm_stats(im, (OcVal){ops[0], t}, axis, onnx_attr_float(im->node, "epsilon", 1e-5f));
}

/* BatchNormalization with training_mode = 1 (opset 14+): normalized by the batch's
 * mean and (population) variance over every dim but the channel; the optional
 * outputs are the running statistics, input * momentum + batch * (1 - momentum). */
static bool batch_norm_training(OnnxImporter *im) {
  OcVal x = oc_input(im, 0), in[5];
  if (!oc_ok(x) || !onnx_require_float(im, &x.t, "the input"))
    return false;
  if (x.t.rank < 2)
    return onnx_node_error(im, "the input must have rank >= 2 (N, C, ...)");
  int64_t axes[ONNX_MAX_RANK], per_channel[ONNX_MAX_RANK];
  size_t n = 0;
  for (size_t d = 0; d < x.t.rank; ++d) {
    if (d != 1)
      axes[n++] = (int64_t)d;
    per_channel[d] = d == 1 ? x.t.dims[1] : 1;
  }
  for (size_t i = 1; i < 5; ++i) {
    in[i] = oc_input(im, i);
    if (!oc_ok(in[i]))
      return false;
    if (in[i].t.rank != 1 || in[i].t.dims[0] != x.t.dims[1] || in[i].t.dtype != x.t.dtype)
      return onnx_node_error(im, "input #%zu must have shape [%lld] and the input's type", i, (long long)x.t.dims[1]);
    in[i] = oc_reshape(im, in[i], per_channel, x.t.rank);
  }
  double eps = onnx_attr_float(im->node, "epsilon", 1e-5f), momentum = onnx_attr_float(im->node, "momentum", 0.9f);
  OcVal mean = oc_reduce(im, "reduce_mean", x, axes, n, true);
  OcVal centered = oc_binary(im, "sub", x, mean);
  OcVal var = oc_reduce(im, "reduce_mean", oc_binary(im, "mul", centered, centered), axes, n, true);
  OcVal y = oc_binary(im, "div", centered, oc_unary(im, "sqrt", oc_binary_s(im, "add", var, eps)));
  y = oc_binary(im, "add", oc_binary(im, "mul", y, in[1]), in[2]);
  if (!oc_output(im, 0, y))
    return false;
  OcVal stats[2] = {mean, var};
  for (size_t i = 0; i < 2; ++i) {
    if (im->node->n_output <= i + 1 || !im->node->output[i + 1][0])
      continue;
    OcVal running = oc_binary(im, "add", oc_binary_s(im, "mul", in[3 + i], momentum),
                              oc_binary_s(im, "mul", stats[i], 1.0 - momentum));
    if (!oc_output(im, i + 1, oc_reshape(im, running, &x.t.dims[1], 1)))
      return false;
  }
  return true;
}

static bool convert_batch_norm(OnnxImporter *im) {
  if (onnx_attr_int(im->node, "training_mode", 0))
    return batch_norm_training(im);
  OnnxType t;
  MlirValue ops[5];
  ops[0] = onnx_operand(im, 0, &t);
  if (mlirValueIsNull(ops[0]) || !onnx_require_float(im, &t, "the input"))
    return false;
  if (t.rank < 2)
    return onnx_node_error(im, "the input must have rank >= 2 (N, C, ...)");
  static const char *const names[] = {"X", "scale", "B", "input_mean", "input_var"};
  OnnxType channel = {.dtype = t.dtype, .rank = 1, .dims = {t.dims[1]}};
  for (size_t i = 1; i < 5; ++i) {
    OnnxType ti;
    ops[i] = onnx_operand(im, i, &ti);
    if (mlirValueIsNull(ops[i]))
      return false;
    if (ti.dtype != t.dtype || !onnx_same_shape(&ti, &channel)) {
      char s1[128], s2[128];
      return onnx_node_error(im, "%s must be %s, not %s", names[i], onnx_type_str(&channel, s1, sizeof s1),
                             onnx_type_str(&ti, s2, sizeof s2));
    }
  }
  OnnxNamedAttr attr = {"eps", onnx_f32_attr(im, onnx_attr_float(im->node, "epsilon", 1e-5f))};
  return onnx_set_output(im, 0, onnx_build(im, "batch_norm", &t, ops, 5, &attr, 1), &t);
}

const OnnxOpEntry onnx_reduce_ops[] = {
    {"ReduceSum", convert_reduce, 0},
    {"ReduceMean", convert_reduce, 0},
    {"ReduceMax", convert_reduce, 0},
    {"ReduceMin", convert_reduce, 0},
    {"ReduceL1", convert_reduce, 0},
    {"ReduceL2", convert_reduce, 0},
    {"ReduceLogSum", convert_reduce, 0},
    {"ReduceLogSumExp", convert_reduce, 0},
    {"ReduceSumSquare", convert_reduce, 0},
    {"Softmax", convert_softmax, 0},
    {"LogSoftmax", convert_softmax, 0},
    {"LayerNormalization", convert_layer_norm, 17},
    {"BatchNormalization", convert_batch_norm, 9},
    {NULL, NULL, 0},
};
