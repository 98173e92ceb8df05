/* Indexed reads: Gather and GatherElements (folded when data and indices are
 * constants; otherwise the graph dialect's gather / gather_elements, an indexed
 * read), ReverseSequence (a gather_elements along time), ArgMax/ArgMin (the first
 * or last position equal to the max/min), Hardmax, and the losses
 * NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss (one-hot masks of the
 * targets against an iota, summed over the class axis). */
#include <stdlib.h>
#include <string.h>

#include "import/onnx-compose.h"

enum {
  DT_BOOL = ONNX__TENSOR_PROTO__DATA_TYPE__BOOL,
  DT_INT32 = ONNX__TENSOR_PROTO__DATA_TYPE__INT32,
  DT_INT64 = ONNX__TENSOR_PROTO__DATA_TYPE__INT64,
};

static bool is_index_type(int32_t dtype) { return dtype == DT_INT32 || dtype == DT_INT64; }

/* graph.gather / graph.gather_elements of x at idx along `axis`, result type `out`
 * (indices below 0 count from the end of the axis: the op wraps them). */
static OcVal gather_op(OnnxImporter *im, const char *op, OcVal x, OcVal idx, int64_t axis, const OnnxType *out) {
  if (!oc_ok(x) || !oc_ok(idx))
    return (OcVal){{NULL}, {0}};
  OnnxNamedAttr attr = {"axis", onnx_i64_attr(im, axis)};
  MlirValue operands[2] = {x.v, idx.v};
  return (OcVal){onnx_build(im, op, out, operands, 2, &attr, 1), *out};
}

/* Gather of constants: a constant (shape arithmetic: Shape -> Gather). */
static bool fold_gather(OnnxImporter *im, OnnxValue *data, OnnxValue *indices, int64_t axis,
                        const OnnxType *out) {
  int64_t n_idx = onnx_num_elements(&indices->type), k = data->type.dims[axis];
  int64_t *idx = malloc(((size_t)n_idx + 1) * sizeof *idx);
  size_t count = 0;
  bool ok = true;
  if (indices->type.rank > 1) { /* onnx_const_ints reads 1-D; the data is row-major either way */
    OnnxValue flat = *indices;
    flat.type.rank = 1;
    flat.type.dims[0] = n_idx;
    ok = onnx_const_ints(im, &flat, "the indices", idx, (size_t)n_idx, &count);
  } else {
    ok = onnx_const_ints(im, indices, "the indices", idx, (size_t)n_idx + 1, &count);
  }
  for (int64_t i = 0; ok && i < n_idx; ++i) {
    if (idx[i] < -k || idx[i] >= k)
      ok = onnx_node_error(im, "index %lld is out of range for an axis of size %lld", (long long)idx[i],
                           (long long)k);
    idx[i] += idx[i] < 0 ? k : 0;
  }
  int64_t outer = 1, inner = 1, total = onnx_num_elements(out);
  for (int64_t d = 0; d < axis; ++d)
    outer *= data->type.dims[d];
  for (size_t d = (size_t)axis + 1; d < data->type.rank; ++d)
    inner *= data->type.dims[d];
  int64_t *index = malloc(((size_t)total + 1) * sizeof *index);
  for (int64_t o = 0, at = 0; ok && o < outer; ++o)
    for (int64_t i = 0; i < n_idx; ++i)
      for (int64_t j = 0; j < inner; ++j)
        index[at++] = (o * k + idx[i]) * inner + j;
  ok = ok && onnx_define_const_output(im, 0, out, data, index);
  free(idx);
  free(index);
  return ok;
}

static bool convert_gather(OnnxImporter *im) {
  OnnxValue *data = onnx_input(im, 0), *indices = onnx_input(im, 1);
  if (!data || !indices)
    return false;
  if (!is_index_type(indices->type.dtype))
    return onnx_node_error(im, "the indices must be int32 or int64, not %s", onnx_dtype_name(indices->type.dtype));
  int64_t axis;
  if (!onnx_norm_axis(im, onnx_attr_int(im->node, "axis", 0), data->type.rank, "axis", &axis))
    return false;
  size_t r = data->type.rank, q = indices->type.rank;
  OnnxType out = {.dtype = data->type.dtype, .rank = r - 1 + q};
  if (out.rank > ONNX_MAX_RANK)
    return onnx_node_error(im, "the result would have rank %zu (at most %d)", out.rank, ONNX_MAX_RANK);
  for (size_t d = 0, o = 0; d < r; ++d) {
    if ((int64_t)d != axis) {
      out.dims[o++] = data->type.dims[d];
      continue;
    }
    for (size_t j = 0; j < q; ++j)
      out.dims[o++] = indices->type.dims[j];
  }
  if (data->is_const && indices->is_const && onnx_num_elements(&out) <= ONNX_FOLD_LIMIT)
    return fold_gather(im, data, indices, axis, &out);
  OcVal x = {onnx_materialize(im, data), data->type}, idx = {onnx_materialize(im, indices), indices->type};
  return oc_output(im, 0, gather_op(im, "gather", x, idx, axis, &out));
}

static bool convert_gather_elements(OnnxImporter *im) {
  OcVal x = oc_input(im, 0), idx = oc_input(im, 1);
  if (!oc_ok(x) || !oc_ok(idx))
    return false;
  if (!is_index_type(idx.t.dtype))
    return onnx_node_error(im, "the indices must be int32 or int64, not %s", onnx_dtype_name(idx.t.dtype));
  size_t r = x.t.rank;
  int64_t axis;
  if (!onnx_norm_axis(im, onnx_attr_int(im->node, "axis", 0), r, "axis", &axis))
    return false;
  if (idx.t.rank != r)
    return onnx_node_error(im, "indices must have the data's rank (%zu)", r);
  for (size_t d = 0; d < r; ++d)
    if ((int64_t)d != axis && idx.t.dims[d] > x.t.dims[d])
      return onnx_node_error(im, "indices dim %zu (%lld) exceeds the data's (%lld)", d, (long long)idx.t.dims[d],
                             (long long)x.t.dims[d]);
  OnnxType out = {.dtype = x.t.dtype, .rank = r};
  memcpy(out.dims, idx.t.dims, r * sizeof *out.dims);
  return oc_output(im, 0, gather_op(im, "gather_elements", x, idx, axis, &out));
}

/* ReverseSequence: along time_axis, the first sequence_lens[b] elements of batch b
 * reversed: a GatherElements with index t < len ? len - 1 - t : t. */
static bool convert_reverse_sequence(OnnxImporter *im) {
  OcVal x = oc_input(im, 0), lens = oc_input(im, 1);
  if (!oc_ok(x) || !oc_ok(lens))
    return false;
  int64_t time_axis = onnx_attr_int(im->node, "time_axis", 0), batch_axis = onnx_attr_int(im->node, "batch_axis", 1);
  if (x.t.rank < 2 ||
      !((time_axis == 0 && batch_axis == 1) || (time_axis == 1 && batch_axis == 0)))
    return onnx_node_error(im, "expects data of rank >= 2 with time/batch axes 0 and 1");
  if (lens.t.dtype != DT_INT64 || lens.t.rank != 1 || lens.t.dims[0] != x.t.dims[batch_axis])
    return onnx_node_error(im, "sequence_lens must be int64 of shape [%lld]", (long long)x.t.dims[batch_axis]);
  int64_t len_shape[ONNX_MAX_RANK];
  for (size_t d = 0; d < x.t.rank; ++d)
    len_shape[d] = (int64_t)d == batch_axis ? x.t.dims[d] : 1;
  OcVal len = oc_reshape(im, lens, len_shape, x.t.rank);
  OcVal t = oc_iota(im, DT_INT64, x.t.dims, x.t.rank, (size_t)time_axis);
  OcVal rev = oc_binary(im, "sub", oc_binary_s(im, "sub", len, 1.0), t);
  OcVal idx = oc_broadcast_to(im, oc_select(im, oc_cmp(im, "lt", t, len), rev, t), &x.t);
  return oc_output(im, 0, gather_op(im, "gather_elements", x, idx, time_axis, &x.t));
}

/* The position along `axis` of the max (ArgMax) or min: the first one, or the
 * last with select_last_index; NaN counts as the extreme (numpy's argmax). i64. */
static OcVal arg_extreme(OnnxImporter *im, OcVal x, int64_t axis, bool is_max, bool last, bool keepdims) {
  OcVal m = oc_reduce(im, is_max ? "reduce_max" : "reduce_min", x, &axis, 1, true);
  OcVal hit = oc_cmp(im, "eq", x, m);
  if (oc_ok(x) && onnx_dtype_is_float(x.t.dtype))
    hit = oc_select(im, oc_cmp(im, "ne", x, x), oc_scalar(im, DT_BOOL, 1), hit);
  OcVal iota = oc_iota(im, DT_INT64, x.t.dims, x.t.rank, (size_t)axis);
  double none = last ? -1.0 : (double)x.t.dims[axis];
  OcVal pos = oc_select(im, hit, iota, oc_scalar(im, DT_INT64, none));
  return oc_reduce(im, last ? "reduce_max" : "reduce_min", pos, &axis, 1, keepdims);
}

static bool convert_arg(OnnxImporter *im) {
  OcVal x = oc_input(im, 0);
  if (!oc_ok(x))
    return false;
  if (x.t.dtype == DT_BOOL || x.t.rank == 0)
    return onnx_node_error(im, "the input must be a numeric tensor of rank >= 1");
  int64_t axis;
  if (!onnx_norm_axis(im, onnx_attr_int(im->node, "axis", 0), x.t.rank, "axis", &axis))
    return false;
  bool is_max = strcmp(im->node->op_type, "ArgMax") == 0;
  bool last = onnx_attr_int(im->node, "select_last_index", 0) != 0;
  bool keepdims = onnx_attr_int(im->node, "keepdims", 1) != 0;
  return oc_output(im, 0, arg_extreme(im, x, axis, is_max, last, keepdims));
}

/* Hardmax: 1 at the first max along axis, else 0 (before opset 13: over the
 * dims from axis on, flattened into one row). */
static bool convert_hardmax(OnnxImporter *im) {
  OcVal x = oc_input(im, 0);
  if (!oc_ok(x) || !onnx_require_float(im, &x.t, "the input"))
    return false;
  bool coerce = im->opset < 13;
  int64_t axis;
  if (x.t.rank == 0 || !onnx_norm_axis(im, onnx_attr_int(im->node, "axis", coerce ? 1 : -1), x.t.rank, "axis", &axis))
    return x.t.rank ? false : onnx_node_error(im, "the input must have rank >= 1");
  OcVal flat = x;
  if (coerce) {
    int64_t rows = 1, cols = 1;
    for (size_t d = 0; d < x.t.rank; ++d)
      *(d < (size_t)axis ? &rows : &cols) *= x.t.dims[d];
    flat = oc_reshape(im, x, (int64_t[]){rows, cols}, 2);
    axis = 1;
  }
  OcVal at = arg_extreme(im, flat, axis, true, false, true);
  OcVal iota = oc_iota(im, DT_INT64, flat.t.dims, flat.t.rank, (size_t)axis);
  OcVal y = oc_cast(im, oc_cmp(im, "eq", iota, at), x.t.dtype);
  return oc_output(im, 0, oc_reshape(im, y, x.t.dims, x.t.rank));
}

/* ---- losses ---- */

/* reduce_sum over every dim. */
static OcVal sum_all(OnnxImporter *im, OcVal x) {
  int64_t axes[ONNX_MAX_RANK];
  for (size_t d = 0; d < x.t.rank; ++d)
    axes[d] = (int64_t)d;
  return x.t.rank ? oc_reduce(im, "reduce_sum", x, axes, x.t.rank, false) : x;
}

/* NLL of log-probabilities x [N, C, d...] at targets t [N, d...] with optional
 * class weights w [C]: loss = -x[n, t, d] w[t], 0 where t == ignore_index;
 * reduction none, sum, or mean (sum of losses / sum of the weights used). */
static OcVal nll(OnnxImporter *im, OcVal x, OcVal target, size_t weight_input) {
  if (!oc_ok(x) || !oc_ok(target))
    return (OcVal){{NULL}, {0}};
  char reduction_buf[32];
  const char *reduction = onnx_attr_string(im->node, "reduction", "mean", reduction_buf, sizeof reduction_buf);
  bool is_none = strcmp(reduction, "none") == 0, is_sum = strcmp(reduction, "sum") == 0;
  if (!is_none && !is_sum && strcmp(reduction, "mean") != 0) {
    onnx_node_error(im, "reduction '%s' is not none, sum or mean", reduction);
    return (OcVal){{NULL}, {0}};
  }
  bool shapes_ok = x.t.rank >= 2 && target.t.rank == x.t.rank - 1 && target.t.dims[0] == x.t.dims[0] &&
                   is_index_type(target.t.dtype) && onnx_dtype_is_float(x.t.dtype);
  for (size_t d = 2; shapes_ok && d < x.t.rank; ++d)
    shapes_ok = target.t.dims[d - 1] == x.t.dims[d];
  if (!shapes_ok) {
    onnx_node_error(im, "expects float scores [N, C, d...] and integer targets [N, d...]");
    return (OcVal){{NULL}, {0}};
  }
  int64_t c = x.t.dims[1], class_axis = 1, t_shape[ONNX_MAX_RANK], w_shape[ONNX_MAX_RANK];
  for (size_t d = 0; d < x.t.rank; ++d) {
    t_shape[d] = d == 0 ? target.t.dims[0] : d == 1 ? 1 : target.t.dims[d - 1];
    w_shape[d] = d == 1 ? c : 1;
  }
  OcVal t = oc_reshape(im, target, t_shape, x.t.rank);
  OcVal mask = oc_cmp(im, "eq", t, oc_iota(im, target.t.dtype, x.t.dims, x.t.rank, 1));
  OcVal zero = oc_scalar(im, x.t.dtype, 0);
  OcVal picked = oc_reduce(im, "reduce_sum", oc_select(im, mask, x, zero), &class_axis, 1, false);
  OcVal w;
  if (onnx_has_input(im->node, weight_input)) {
    OcVal weights = oc_input(im, weight_input);
    if (oc_ok(weights) && (weights.t.rank != 1 || weights.t.dims[0] != c)) {
      onnx_node_error(im, "the weights must have shape [%lld]", (long long)c);
      return (OcVal){{NULL}, {0}};
    }
    OcVal wb = oc_reshape(im, weights, w_shape, x.t.rank);
    w = oc_reduce(im, "reduce_sum", oc_select(im, mask, wb, zero), &class_axis, 1, false);
  } else {
    w = oc_broadcast_to(im, oc_scalar(im, x.t.dtype, 1.0), &picked.t);
  }
  const Onnx__AttributeProto *ignore = onnx_attr(im->node, "ignore_index");
  if (ignore && ignore->has_i)
    w = oc_select(im, oc_cmp_s(im, "ne", target, (double)ignore->i), w, zero);
  OcVal loss = oc_unary(im, "neg", oc_binary(im, "mul", picked, w));
  if (is_none)
    return loss;
  OcVal total = sum_all(im, loss);
  return is_sum ? total : oc_binary(im, "div", total, sum_all(im, w));
}

static bool convert_nll(OnnxImporter *im) {
  return oc_output(im, 0, nll(im, oc_input(im, 0), oc_input(im, 1), 2));
}

/* SoftmaxCrossEntropyLoss: NLL of log_softmax(scores) over the class axis; output
 * 1 (optional) is the log-probabilities. */
static bool convert_softmax_cross_entropy(OnnxImporter *im) {
  OcVal scores = oc_input(im, 0);
  if (!oc_ok(scores) || !onnx_require_float(im, &scores.t, "the scores"))
    return false;
  if (scores.t.rank < 2)
    return onnx_node_error(im, "the scores must have rank >= 2 (N, C, ...)");
  OnnxNamedAttr attr = {"dim", onnx_i64_attr(im, 1)};
  OcVal logp = {onnx_build(im, "log_softmax", &scores.t, &scores.v, 1, &attr, 1), scores.t};
  return oc_output(im, 0, nll(im, logp, oc_input(im, 1), 2)) &&
         (im->node->n_output < 2 || oc_output(im, 1, logp));
}

const OnnxOpEntry onnx_index_ops[] = {
    {"Gather", convert_gather, 0},
    {"GatherElements", convert_gather_elements, 11},
    {"ArgMax", convert_arg, 0},
    {"ArgMin", convert_arg, 0},
    {"Hardmax", convert_hardmax, 0},
    {"ReverseSequence", convert_reverse_sequence, 10},
    {"NegativeLogLikelihoodLoss", convert_nll, 12},
    {"SoftmaxCrossEntropyLoss", convert_softmax_cross_entropy, 12},
    {NULL, NULL, 0},
};
