/* Converters for shape ops (Transpose Reshape Unsqueeze Squeeze Expand Concat Slice
 * Flatten) and Constant. Shape-like inputs (shape, axes, starts, ...) must be
 * constants: initializers or Constant outputs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import/onnx-internal.h"
#include "mlir-c/BuiltinTypes.h"

/* Output 0 = reshape of input 0 to `to`, or input 0 itself when the shape is equal. */
static bool reshape_to(OnnxImporter *im, OnnxValue *in, const OnnxType *to) {
  if (onnx_same_shape(&in->type, to))
    return onnx_alias_output(im, 0, in);
  if (in->is_const) /* shape arithmetic: stays a constant */
    return onnx_define_const_output(im, 0, to, in, NULL);
  MlirValue x = onnx_materialize(im, in);
  return onnx_set_output(im, 0, onnx_build_reshape(im, x, to), to);
}

/* Transpose of a constant (shape arithmetic: exporters' pads reordering). */
static bool transpose_constant(OnnxImporter *im, OnnxValue *in, const int64_t *perm) {
  OnnxType r = in->type;
  int64_t in_strides[ONNX_MAX_RANK], total = onnx_num_elements(&in->type);
  for (size_t d = in->type.rank, stride = 1; d-- > 0; stride *= (size_t)in->type.dims[d])
    in_strides[d] = (int64_t)stride;
  for (size_t d = 0; d < r.rank; ++d)
    r.dims[d] = in->type.dims[perm[d]];
  int64_t *index = malloc(((size_t)total + 1) * sizeof *index);
  for (int64_t k = 0; k < total; ++k) {
    int64_t rem = k, at = 0;
    for (size_t d = r.rank; d-- > 0;) {
      at += (rem % r.dims[d]) * in_strides[perm[d]];
      rem /= r.dims[d];
    }
    index[k] = at;
  }
  bool ok = onnx_define_const_output(im, 0, &r, in, index);
  free(index);
  return ok;
}

static bool convert_transpose(OnnxImporter *im) {
  OnnxType t, r;
  MlirValue x = onnx_operand(im, 0, &t);
  if (mlirValueIsNull(x))
    return false;
  int64_t perm[ONNX_MAX_RANK];
  size_t n = 0;
  bool present = false;
  if (!onnx_attr_ints(im, "perm", perm, ONNX_MAX_RANK, &n, &present))
    return false;
  if (!present) /* default: reverse the dims */
    for (n = 0; n < t.rank; ++n)
      perm[n] = (int64_t)(t.rank - 1 - n);
  bool seen[ONNX_MAX_RANK] = {false};
  if (n != t.rank)
    return onnx_node_error(im, "perm has %zu entries for an input of rank %zu", n, t.rank);
  for (size_t i = 0; i < n; ++i) {
    if (!onnx_norm_axis(im, perm[i], t.rank, "perm entry", &perm[i]))
      return false;
    if (seen[perm[i]])
      return onnx_node_error(im, "perm is not a permutation (%lld repeats)", (long long)perm[i]);
    seen[perm[i]] = true;
  }
  OnnxValue *in = onnx_input(im, 0);
  if (in && in->is_const && onnx_fold_size_ok(t.dtype, onnx_num_elements(&t)))
    return transpose_constant(im, in, perm);
  return onnx_set_output(im, 0, onnx_build_transpose(im, x, &t, perm, &r), &r);
}

static bool convert_reshape(OnnxImporter *im) {
  OnnxValue *in = onnx_input(im, 0);
  int64_t shape[ONNX_MAX_RANK];
  size_t n = 0;
  if (!in || !onnx_const_input_ints(im, 1, "the shape input", shape, ONNX_MAX_RANK, &n))
    return false;
  bool allowzero = onnx_attr_int(im->node, "allowzero", 0) != 0;
  OnnxType r = {.dtype = in->type.dtype, .rank = n};
  int64_t known = 1, infer_at = -1;
  for (size_t i = 0; i < n; ++i) {
    int64_t d = shape[i];
    if (d == 0 && !allowzero) {
      if (i >= in->type.rank)
        return onnx_node_error(im, "shape entry %zu is 0 (copy) but the input has rank %zu", i, in->type.rank);
      d = in->type.dims[i];
    } else if (d == -1) {
      if (infer_at >= 0)
        return onnx_node_error(im, "the shape has more than one -1");
      infer_at = (int64_t)i;
      continue;
    } else if (d <= 0 || d > ONNX_MAX_ELEMENTS) {
      return onnx_node_error(im, "shape entry %zu is %lld (zero-size tensors are not supported)", i,
                             (long long)d);
    }
    if (known > ONNX_MAX_ELEMENTS / d) /* the element counts cannot match */
      return onnx_node_error(im, "the shape has more elements than the input");
    r.dims[i] = d;
    known *= d;
  }
  int64_t total = onnx_num_elements(&in->type);
  if (infer_at >= 0) {
    if (known == 0 || total % known)
      return onnx_node_error(im, "cannot infer the -1 entry: %lld elements do not divide by %lld",
                             (long long)total, (long long)known);
    r.dims[infer_at] = total / known;
    known = total;
  }
  if (known != total) {
    char s1[128], s2[128];
    return onnx_node_error(im, "cannot reshape %s to %s (element counts differ)",
                           onnx_type_str(&in->type, s1, sizeof s1), onnx_type_str(&r, s2, sizeof s2));
  }
  return reshape_to(im, in, &r);
}

/* Axes from the `axes` attribute (before opset 13) or the constant input 1. */
static bool axes_operand(OnnxImporter *im, int64_t *axes, size_t *n, bool *given) {
  if (!onnx_attr_ints(im, "axes", axes, ONNX_MAX_RANK, n, given))
    return false;
  if (*given || !onnx_has_input(im->node, 1))
    return true;
  *given = true;
  return onnx_const_input_ints(im, 1, "the axes input", axes, ONNX_MAX_RANK, n);
}

static bool convert_unsqueeze(OnnxImporter *im) {
  OnnxValue *in = onnx_input(im, 0);
  int64_t axes[ONNX_MAX_RANK];
  size_t n = 0;
  bool given = false;
  if (!in || !axes_operand(im, axes, &n, &given))
    return false;
  if (!given || n == 0)
    return onnx_node_error(im, "axes are required");
  size_t rank = in->type.rank + n;
  if (rank > ONNX_MAX_RANK)
    return onnx_node_error(im, "the result would have rank %zu (at most %d)", rank, ONNX_MAX_RANK);
  if (!onnx_norm_axes(im, axes, n, rank, "axes"))
    return false;
  OnnxType r = {.dtype = in->type.dtype, .rank = rank};
  for (size_t d = 0, k = 0, src = 0; d < rank; ++d) {
    bool inserted = k < n && axes[k] == (int64_t)d;
    k += inserted;
    r.dims[d] = inserted ? 1 : in->type.dims[src++];
  }
  return reshape_to(im, in, &r);
}

static bool convert_squeeze(OnnxImporter *im) {
  OnnxValue *in = onnx_input(im, 0);
  int64_t axes[ONNX_MAX_RANK];
  size_t n = 0;
  bool given = false;
  if (!in || !axes_operand(im, axes, &n, &given) || !onnx_norm_axes(im, axes, n, in->type.rank, "axes"))
    return false;
  OnnxType r = {.dtype = in->type.dtype};
  for (size_t d = 0, k = 0; d < in->type.rank; ++d) {
    bool listed = k < n && axes[k] == (int64_t)d;
    k += listed;
    if (listed && in->type.dims[d] != 1)
      return onnx_node_error(im, "cannot squeeze dim %zu of size %lld", d, (long long)in->type.dims[d]);
    if (!(listed || (!given && in->type.dims[d] == 1)))
      r.dims[r.rank++] = in->type.dims[d];
  }
  return reshape_to(im, in, &r);
}

/* Expand broadcasts both ways: the result is broadcast(input shape, shape). */
static bool convert_expand(OnnxImporter *im) {
  OnnxValue *in = onnx_input(im, 0);
  OnnxType want = {0}, r;
  size_t n = 0;
  if (!in || !onnx_const_input_ints(im, 1, "the shape input", want.dims, ONNX_MAX_RANK, &n))
    return false;
  want.rank = n;
  want.dtype = in->type.dtype;
  for (size_t i = 0; i < n; ++i)
    if (want.dims[i] <= 0 || want.dims[i] > ONNX_MAX_ELEMENTS)
      return onnx_node_error(im, "shape entry %zu is %lld", i, (long long)want.dims[i]);
  if (!onnx_broadcast(im, &in->type, &want, &r))
    return false;
  if (onnx_same_shape(&r, &in->type))
    return onnx_alias_output(im, 0, in);
  if (in->is_const && onnx_fold_size_ok(r.dtype, onnx_num_elements(&r))) {
    int64_t *index = onnx_broadcast_index(&in->type, &r);
    bool ok = onnx_define_const_output(im, 0, &r, in, index);
    free(index);
    return ok;
  }
  MlirValue x = onnx_materialize(im, in);
  return onnx_set_output(im, 0, onnx_build_unary(im, "broadcast_to", x, &r), &r);
}

/* Concat of constants (shape vectors): a constant. */
static bool concat_constants(OnnxImporter *im, size_t n, int64_t axis_attr) {
  OnnxValue *first = onnx_input(im, 0);
  int64_t axis;
  if (!first || !onnx_norm_axis(im, axis_attr, first->type.rank, "axis", &axis))
    return false;
  OnnxType r = first->type;
  r.dims[axis] = 0;
  for (size_t i = 0; i < n; ++i) {
    OnnxValue *v = onnx_input(im, i);
    if (!v)
      return false;
    bool compatible = v->type.dtype == r.dtype && v->type.rank == r.rank;
    for (size_t d = 0; compatible && d < r.rank; ++d)
      compatible = (int64_t)d == axis || v->type.dims[d] == r.dims[d];
    if (!compatible)
      return onnx_node_error(im, "input #%zu does not match input #0 outside axis %lld", i, (long long)axis);
    r.dims[axis] += v->type.dims[axis];
  }
  size_t size = onnx_dtype_size(r.dtype);
  int64_t total = onnx_num_elements(&r), outer = 1, inner = 1;
  for (int64_t d = 0; d < axis; ++d)
    outer *= r.dims[d];
  for (size_t d = (size_t)axis + 1; d < r.rank; ++d)
    inner *= r.dims[d];
  unsigned char *out = malloc((size_t)total * size + 1), *at = out;
  for (int64_t o = 0; o < outer; ++o)
    for (size_t i = 0; i < n; ++i) {
      OnnxValue *v = onnx_input(im, i);
      size_t chunk = (size_t)(v->type.dims[axis] * inner) * size;
      memcpy(at, (const unsigned char *)v->data.data + (size_t)o * chunk, chunk);
      at += chunk;
    }
  OnnxData data = {.data = out, .nbytes = (size_t)total * size, .owned = out};
  if (im->node->n_output < 1 || !im->node->output[0][0]) {
    onnx_data_free(&data);
    return true;
  }
  return onnx_define_constant(im, im->node->output[0], &r, &data);
}

static bool convert_concat(OnnxImporter *im) {
  size_t n = onnx_num_inputs(im->node);
  if (n == 0)
    return onnx_node_error(im, "needs at least one input");
  if (n == 1) {
    OnnxValue *only = onnx_input(im, 0);
    return only && onnx_alias_output(im, 0, only);
  }
  const Onnx__AttributeProto *axis_attr = onnx_attr(im->node, "axis");
  if (!axis_attr || !axis_attr->has_i)
    return onnx_node_error(im, "attribute 'axis' is missing");
  if (onnx_all_inputs_const(im))
    return concat_constants(im, n, axis_attr->i);
  MlirValue *xs = calloc(n, sizeof *xs);
  OnnxType r, t;
  int64_t axis = 0;
  bool ok = true;
  for (size_t i = 0; i < n && ok; ++i) {
    xs[i] = onnx_operand(im, i, &t);
    ok = !mlirValueIsNull(xs[i]);
    if (!ok)
      break;
    if (i == 0) {
      r = t;
      ok = onnx_norm_axis(im, axis_attr->i, t.rank, "axis", &axis);
      continue;
    }
    bool compatible = t.dtype == r.dtype && t.rank == r.rank;
    for (size_t d = 0; compatible && d < t.rank; ++d)
      compatible = (int64_t)d == axis || t.dims[d] == r.dims[d];
    if (!compatible) {
      char s1[128], s2[128];
      ok = onnx_node_error(im, "input #%zu (%s) does not match input #0 (%s) outside axis %lld", i,
                           onnx_type_str(&t, s1, sizeof s1), onnx_type_str(&r, s2, sizeof s2),
                           (long long)axis);
    } else {
      r.dims[axis] += t.dims[axis];
    }
  }
  /* graph.concat is binary: N inputs become a left-nested chain, each link typed
   * with the sizes along axis added up so far. */
  OnnxNamedAttr attr = {"dim", onnx_i64_attr(im, axis)};
  if (ok) {
    OnnxType partial = r;
    partial.dims[axis] = 0;
    MlirValue acc = xs[0];
    for (size_t i = 0; i < n && ok; ++i) {
      MlirType ti = mlirValueGetType(xs[i]);
      partial.dims[axis] += mlirShapedTypeGetDimSize(ti, (intptr_t)axis);
      if (i == 0)
        continue;
      MlirValue pair[2] = {acc, xs[i]};
      acc = onnx_build(im, "concat", i + 1 == n ? &r : &partial, pair, 2, &attr, 1);
      ok = !mlirValueIsNull(acc);
    }
    if (ok)
      ok = onnx_set_output(im, 0, acc, &r);
  }
  free(xs);
  return ok;
}

/* ONNX Slice bounds for one axis of size `dim`, positive step: negative indices count
 * from the end, then both are clamped into [0, dim]; an empty range gives limit = start. */
static void clamp_bounds(int64_t dim, int64_t start, int64_t end, int64_t *lo, int64_t *hi) {
  start = start < 0 ? (start < -dim ? 0 : start + dim) : (start > dim ? dim : start);
  end = end < 0 ? (end < -dim ? 0 : end + dim) : (end > dim ? dim : end);
  *lo = start;
  *hi = end < start ? start : end;
}

/* The same for a negative step (constants only): start clamps into [0, dim - 1],
 * end into [-1, dim - 1]; the elements are start, start + step, ... above end. */
static void clamp_bounds_reversed(int64_t dim, int64_t start, int64_t end, int64_t *first, int64_t *stop) {
  start = start < 0 ? (start < -dim ? 0 : start + dim) : (start > dim - 1 ? dim - 1 : start);
  end = end < 0 ? (end < -dim ? -1 : end + dim) : (end > dim - 1 ? dim - 1 : end);
  *first = start;
  *stop = end > start ? start : end;
}

static bool convert_slice(OnnxImporter *im) {
  OnnxValue *in = onnx_input(im, 0);
  int64_t starts[ONNX_MAX_RANK], ends[ONNX_MAX_RANK], axes[ONNX_MAX_RANK], steps[ONNX_MAX_RANK];
  size_t ns = 0, ne = 0, na = 0, nst = 0;
  bool has_axes = onnx_has_input(im->node, 3), has_steps = onnx_has_input(im->node, 4);
  if (!in)
    return false;
  if (im->opset < 10) { /* Slice-1: starts/ends/axes attributes, no steps */
    bool given = false;
    if (!onnx_attr_ints(im, "starts", starts, ONNX_MAX_RANK, &ns, &given) ||
        !onnx_attr_ints(im, "ends", ends, ONNX_MAX_RANK, &ne, &given) ||
        !onnx_attr_ints(im, "axes", axes, ONNX_MAX_RANK, &na, &has_axes))
      return false;
    has_steps = false;
  } else if (!onnx_const_input_ints(im, 1, "the starts input", starts, ONNX_MAX_RANK, &ns) ||
             !onnx_const_input_ints(im, 2, "the ends input", ends, ONNX_MAX_RANK, &ne)) {
    return false;
  }
  if (im->opset >= 10 && has_axes &&
      !onnx_const_input_ints(im, 3, "the axes input", axes, ONNX_MAX_RANK, &na))
    return false;
  if (has_steps && !onnx_const_input_ints(im, 4, "the steps input", steps, ONNX_MAX_RANK, &nst))
    return false;
  if (!has_axes)
    for (na = 0; na < ns; ++na)
      axes[na] = (int64_t)na;
  if (!has_steps)
    for (nst = 0; nst < ns; ++nst)
      steps[nst] = 1;
  if (ne != ns || na != ns || nst != ns)
    return onnx_node_error(im, "starts, ends, axes and steps have different lengths (%zu, %zu, %zu, %zu)", ns,
                           ne, na, nst);
  const OnnxType *t = &in->type;
  int64_t lo[ONNX_MAX_RANK], hi[ONNX_MAX_RANK], st[ONNX_MAX_RANK];
  bool sliced[ONNX_MAX_RANK] = {false};
  for (size_t d = 0; d < t->rank; ++d)
    lo[d] = 0, hi[d] = t->dims[d], st[d] = 1;
  for (size_t i = 0; i < ns; ++i) {
    int64_t a;
    if (!onnx_norm_axis(im, axes[i], t->rank, "axis", &a))
      return false;
    if (sliced[a])
      return onnx_node_error(im, "axis %lld is sliced twice", (long long)a);
    sliced[a] = true;
    if (steps[i] == 0 || steps[i] == INT64_MIN || (steps[i] < 0 && !in->is_const))
      return onnx_node_error(im, "step %lld on axis %lld is not supported (steps must be positive; "
                             "negative steps only on constants)", (long long)steps[i], (long long)a);
    if (steps[i] > 0)
      clamp_bounds(t->dims[a], starts[i], ends[i], &lo[a], &hi[a]);
    else
      clamp_bounds_reversed(t->dims[a], starts[i], ends[i], &lo[a], &hi[a]);
    st[a] = steps[i];
  }
  OnnxType r = *t;
  for (size_t d = 0; d < t->rank; ++d)
    r.dims[d] = st[d] > 0 ? (hi[d] <= lo[d] ? 0 : 1 + (hi[d] - lo[d] - 1) / st[d])
                          : (lo[d] <= hi[d] ? 0 : 1 + (lo[d] - hi[d] - 1) / -st[d]);
  bool reversed = false;
  for (size_t d = 0; d < t->rank; ++d)
    reversed |= st[d] < 0;
  if (onnx_same_shape(&r, t) && !reversed) /* positive steps keeping every element: no op */
    return onnx_alias_output(im, 0, in);
  /* Empty slices exist only as constants (an empty piece of a shape vector). */
  for (size_t d = 0; d < r.rank && !in->is_const; ++d)
    if (r.dims[d] == 0)
      return onnx_node_error(im, "the slice of axis %zu is empty (zero-size tensors are not supported)", d);
  if (in->is_const) { /* shape arithmetic: the sliced elements */
    int64_t total = onnx_num_elements(&r);
    int64_t *index = malloc(((size_t)total + 1) * sizeof *index);
    for (int64_t k = 0; k < total; ++k) {
      int64_t rem = k, at = 0, stride = 1;
      for (size_t d = r.rank; d-- > 0;) {
        at += (lo[d] + (rem % r.dims[d]) * st[d]) * stride;
        rem /= r.dims[d];
        stride *= t->dims[d];
      }
      index[k] = at;
    }
    bool ok = onnx_define_const_output(im, 0, &r, in, index);
    free(index);
    return ok;
  }
  MlirValue x = onnx_materialize(im, in);
  OnnxNamedAttr attrs[3] = {{"starts", onnx_i64_array(im, lo, t->rank)},
                            {"limits", onnx_i64_array(im, hi, t->rank)},
                            {"strides", onnx_i64_array(im, st, t->rank)}};
  return onnx_set_output(im, 0, onnx_build(im, "slice", &r, &x, 1, attrs, 3), &r);
}

static bool convert_flatten(OnnxImporter *im) {
  OnnxValue *in = onnx_input(im, 0);
  if (!in)
    return false;
  int64_t axis = onnx_attr_int(im->node, "axis", 1), rank = (int64_t)in->type.rank;
  if (axis < -rank || axis > rank)
    return onnx_node_error(im, "axis %lld is out of range for rank %lld", (long long)axis, (long long)rank);
  if (axis < 0)
    axis += rank;
  OnnxType r = {.dtype = in->type.dtype, .rank = 2, .dims = {1, 1}};
  for (int64_t d = 0; d < rank; ++d)
    r.dims[d < axis ? 0 : 1] *= in->type.dims[d];
  return reshape_to(im, in, &r);
}

/* Constant: `value` (a tensor) or value_float(s) / value_int(s). */
static bool constant_data(OnnxImporter *im, OnnxType *type, OnnxData *data) {
  const Onnx__NodeProto *node = im->node;
  const Onnx__AttributeProto *a;
  *data = (OnnxData){0};
  if ((a = onnx_attr(node, "value")) && a->t)
    return onnx_decode_tensor(im, a->t, "the value", type, data);
  bool is_list = false;
  size_t count = 1;
  if ((a = onnx_attr(node, "value_float")) || (a = onnx_attr(node, "value_floats"))) {
    is_list = a->n_floats > 0 || !a->has_f;
    count = is_list ? a->n_floats : 1;
    *type = (OnnxType){.dtype = ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT, .rank = is_list, .dims = {(int64_t)count}};
    data->owned = malloc(count * 4 + 1);
    memcpy(data->owned, is_list ? a->floats : &a->f, count * 4);
  } else if ((a = onnx_attr(node, "value_int")) || (a = onnx_attr(node, "value_ints"))) {
    is_list = a->n_ints > 0 || !a->has_i;
    count = is_list ? a->n_ints : 1;
    *type = (OnnxType){.dtype = ONNX__TENSOR_PROTO__DATA_TYPE__INT64, .rank = is_list, .dims = {(int64_t)count}};
    data->owned = malloc(count * 8 + 1);
    memcpy(data->owned, is_list ? (void *)a->ints : (void *)&a->i, count * 8);
  } else {
    return onnx_node_error(im, "only value, value_float(s) and value_int(s) are supported");
  }
  data->data = data->owned;
  data->nbytes = count * onnx_dtype_size(type->dtype);
  return true;
}

static bool convert_constant(OnnxImporter *im) {
  OnnxType type;
  OnnxData data;
  if (!constant_data(im, &type, &data))
    return false;
  if (im->node->n_output < 1 || !im->node->output[0][0]) {
    onnx_data_free(&data);
    return true;
  }
  return onnx_define_constant(im, im->node->output[0], &type, &data);
}

const OnnxOpEntry onnx_shape_ops[] = {
    {"Transpose", convert_transpose, 0}, {"Reshape", convert_reshape, 5}, {"Unsqueeze", convert_unsqueeze, 0},
    {"Squeeze", convert_squeeze, 0},     {"Expand", convert_expand, 8},   {"Concat", convert_concat, 4},
    {"Slice", convert_slice, 0},         {"Flatten", convert_flatten, 0}, {"Constant", convert_constant, 0},
    {NULL, NULL, 0},
};
