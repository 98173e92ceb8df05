/* Builders for compositions of graph ops (see import/onnx-compose.h). */
#include <stdlib.h>
#include <string.h>

#include "import/onnx-compose.h"

static const OcVal oc_null = {{NULL}, {0}};

OcVal oc_input(OnnxImporter *im, size_t i) {
  OcVal r;
  r.v = onnx_operand(im, i, &r.t);
  return r;
}

OcVal oc_scalar(OnnxImporter *im, int32_t dtype, double value) {
  OcVal r = {onnx_build_scalar(im, dtype, value), {.dtype = dtype, .rank = 0}};
  return r;
}

OcVal oc_unary(OnnxImporter *im, const char *op, OcVal x) {
  if (!oc_ok(x))
    return oc_null;
  OcVal r = {onnx_build_unary(im, op, x.v, &x.t), x.t};
  return r;
}

OcVal oc_binary(OnnxImporter *im, const char *op, OcVal a, OcVal b) {
  OcVal r = oc_null;
  if (!oc_ok(a) || !oc_ok(b))
    return oc_null;
  if (a.t.dtype != b.t.dtype) {
    onnx_node_error(im, "operands have different element types (%s and %s)", onnx_dtype_name(a.t.dtype),
                    onnx_dtype_name(b.t.dtype));
    return oc_null;
  }
  if (!onnx_broadcast(im, &a.t, &b.t, &r.t))
    return oc_null;
  r.v = onnx_build_binary(im, op, a.v, b.v, &r.t);
  return r;
}

OcVal oc_binary_s(OnnxImporter *im, const char *op, OcVal a, double b) {
  if (!oc_ok(a))
    return oc_null;
  return oc_binary(im, op, a, oc_scalar(im, a.t.dtype, b));
}

OcVal oc_cmp(OnnxImporter *im, const char *pred, OcVal a, OcVal b) {
  OcVal r = oc_null;
  if (!oc_ok(a) || !oc_ok(b))
    return oc_null;
  if (a.t.dtype != b.t.dtype) {
    onnx_node_error(im, "operands have different element types (%s and %s)", onnx_dtype_name(a.t.dtype),
                    onnx_dtype_name(b.t.dtype));
    return oc_null;
  }
  if (!onnx_broadcast(im, &a.t, &b.t, &r.t))
    return oc_null;
  r.t.dtype = ONNX__TENSOR_PROTO__DATA_TYPE__BOOL;
  MlirValue ab[2] = {a.v, b.v};
  OnnxNamedAttr attr = {"predicate", onnx_str_attr(im, pred)};
  r.v = onnx_build(im, "cmp", &r.t, ab, 2, &attr, 1);
  return r;
}

OcVal oc_cmp_s(OnnxImporter *im, const char *pred, OcVal a, double b) {
  if (!oc_ok(a))
    return oc_null;
  return oc_cmp(im, pred, a, oc_scalar(im, a.t.dtype, b));
}

OcVal oc_select(OnnxImporter *im, OcVal cond, OcVal a, OcVal b) {
  OcVal r = oc_null;
  OnnxType ab;
  if (!oc_ok(cond) || !oc_ok(a) || !oc_ok(b))
    return oc_null;
  if (a.t.dtype != b.t.dtype) {
    onnx_node_error(im, "the selected values have different element types (%s and %s)",
                    onnx_dtype_name(a.t.dtype), onnx_dtype_name(b.t.dtype));
    return oc_null;
  }
  if (!onnx_broadcast(im, &a.t, &b.t, &ab) || !onnx_broadcast(im, &ab, &cond.t, &r.t))
    return oc_null;
  r.t.dtype = a.t.dtype;
  MlirValue ops[3] = {cond.v, a.v, b.v};
  r.v = onnx_build(im, "select", &r.t, ops, 3, NULL, 0);
  return r;
}

OcVal oc_cast(OnnxImporter *im, OcVal x, int32_t dtype) {
  if (!oc_ok(x))
    return oc_null;
  if (x.t.dtype == dtype)
    return x;
  OcVal r = {{NULL}, x.t};
  r.t.dtype = dtype;
  r.v = onnx_build_unary(im, "cast", x.v, &r.t);
  return r;
}

OcVal oc_reduce(OnnxImporter *im, const char *op, OcVal x, const int64_t *axes, size_t n, bool keepdim) {
  if (!oc_ok(x))
    return oc_null;
  OcVal r = {{NULL}, {.dtype = x.t.dtype}};
  for (size_t d = 0, k = 0; d < x.t.rank; ++d) {
    bool reduced = k < n && axes[k] == (int64_t)d;
    k += reduced;
    if (!reduced || keepdim)
      r.t.dims[r.t.rank++] = reduced ? 1 : x.t.dims[d];
  }
  OnnxNamedAttr attrs[2] = {{"dims", onnx_i64_array(im, axes, n)}, {"keepdim", onnx_bool_attr(im, keepdim)}};
  r.v = onnx_build(im, op, &r.t, &x.v, 1, attrs, 2);
  return r;
}

OcVal oc_reshape(OnnxImporter *im, OcVal x, const int64_t *dims, size_t rank) {
  if (!oc_ok(x))
    return oc_null;
  OcVal r = {{NULL}, {.dtype = x.t.dtype, .rank = rank}};
  if (rank) /* dims may be NULL for rank 0 */
    memcpy(r.t.dims, dims, rank * sizeof *dims);
  if (onnx_same_shape(&r.t, &x.t))
    return x;
  r.v = onnx_build_reshape(im, x.v, &r.t);
  return r;
}

OcVal oc_broadcast_to(OnnxImporter *im, OcVal x, const OnnxType *to) {
  if (!oc_ok(x))
    return oc_null;
  OcVal r = {{NULL}, *to};
  r.t.dtype = x.t.dtype;
  if (onnx_same_shape(&r.t, &x.t))
    return x;
  r.v = onnx_build_unary(im, "broadcast_to", x.v, &r.t);
  return r;
}

OcVal oc_slice(OnnxImporter *im, OcVal x, size_t axis, int64_t start, int64_t limit, int64_t step) {
  if (!oc_ok(x))
    return oc_null;
  int64_t lo[ONNX_MAX_RANK], hi[ONNX_MAX_RANK], st[ONNX_MAX_RANK];
  OcVal r = {{NULL}, x.t};
  for (size_t d = 0; d < x.t.rank; ++d)
    lo[d] = 0, hi[d] = x.t.dims[d], st[d] = 1;
  lo[axis] = start, hi[axis] = limit, st[axis] = step;
  r.t.dims[axis] = (limit - start + step - 1) / step;
  if (onnx_same_shape(&r.t, &x.t))
    return x;
  OnnxNamedAttr attrs[3] = {{"starts", onnx_i64_array(im, lo, x.t.rank)},
                            {"limits", onnx_i64_array(im, hi, x.t.rank)},
                            {"strides", onnx_i64_array(im, st, x.t.rank)}};
  r.v = onnx_build(im, "slice", &r.t, &x.v, 1, attrs, 3);
  return r;
}

OcVal oc_concat(OnnxImporter *im, OcVal a, OcVal b, size_t axis) {
  if (!oc_ok(a) || !oc_ok(b))
    return oc_null;
  OcVal r = {{NULL}, a.t};
  r.t.dims[axis] += b.t.dims[axis];
  MlirValue ab[2] = {a.v, b.v};
  OnnxNamedAttr attr = {"dim", onnx_i64_attr(im, (int64_t)axis)};
  r.v = onnx_build(im, "concat", &r.t, ab, 2, &attr, 1);
  return r;
}

bool oc_const_size_ok(OnnxImporter *im, int64_t count, const char *what) {
  if (count <= OC_CONST_LIMIT)
    return true;
  return onnx_node_error(im, "%s would be a constant of %lld elements (at most %d)", what, (long long)count,
                         OC_CONST_LIMIT);
}

OcVal oc_const_ints(OnnxImporter *im, const OnnxType *type, const int64_t *values) {
  int64_t n = onnx_num_elements(type);
  if (!oc_const_size_ok(im, n, "the composition"))
    return (OcVal){{NULL}, *type};
  size_t size = onnx_dtype_size(type->dtype);
  unsigned char *bytes = malloc((size_t)n * size + 1);
  for (int64_t i = 0; i < n; ++i) {
    int64_t v = values[i];
    switch (type->dtype) {
    case ONNX__TENSOR_PROTO__DATA_TYPE__INT64: memcpy(bytes + 8 * i, &v, 8); break;
    case ONNX__TENSOR_PROTO__DATA_TYPE__INT32: { int32_t x = (int32_t)v; memcpy(bytes + 4 * i, &x, 4); break; }
    case ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT: { float x = (float)v; memcpy(bytes + 4 * i, &x, 4); break; }
    case ONNX__TENSOR_PROTO__DATA_TYPE__DOUBLE: { double x = (double)v; memcpy(bytes + 8 * i, &x, 8); break; }
    case ONNX__TENSOR_PROTO__DATA_TYPE__INT8: { int8_t x = (int8_t)v; memcpy(bytes + i, &x, 1); break; }
    case ONNX__TENSOR_PROTO__DATA_TYPE__BOOL: bytes[i] = v != 0; break;
    default: memcpy(bytes + size * i, &v, size); break; /* i16, ui8..ui64: the low bytes (little-endian) */
    }
  }
  OnnxData data = {.data = bytes, .nbytes = (size_t)n * size};
  OnnxNamedAttr attr = {"value", onnx_constant_attr(im, type, &data, "composition_constant")};
  OcVal r = {onnx_build(im, "constant", type, NULL, 0, &attr, 1), *type};
  free(bytes);
  return r;
}

OcVal oc_iota(OnnxImporter *im, int32_t dtype, const int64_t *dims, size_t rank, size_t axis) {
  OnnxType t = {.dtype = dtype, .rank = rank};
  for (size_t d = 0; d < rank; ++d)
    t.dims[d] = d == axis ? dims[d] : 1;
  if (!oc_const_size_ok(im, dims[axis], "an index range"))
    return (OcVal){{NULL}, t};
  int64_t *values = malloc(((size_t)dims[axis] + 1) * sizeof *values);
  for (int64_t i = 0; i < dims[axis]; ++i)
    values[i] = i;
  OcVal r = oc_const_ints(im, &t, values);
  free(values);
  return r;
}

OcVal oc_floor(OnnxImporter *im, OcVal x) {
  if (!oc_ok(x))
    return oc_null;
  /* Below 2^23 in magnitude (f64: 2^52, through i64) the value fits the integer
   * type and truncation is exact; at or above it (and for inf, NaN) every float is
   * its own floor. */
  bool wide = x.t.dtype == ONNX__TENSOR_PROTO__DATA_TYPE__DOUBLE;
  OcVal small = oc_cmp_s(im, "lt", oc_unary(im, "abs", x), wide ? 4503599627370496.0 : 8388608.0);
  OcVal safe = oc_select(im, small, x, oc_scalar(im, x.t.dtype, 0.0));
  int32_t via = wide ? ONNX__TENSOR_PROTO__DATA_TYPE__INT64 : ONNX__TENSOR_PROTO__DATA_TYPE__INT32;
  OcVal trunc = oc_cast(im, oc_cast(im, safe, via), x.t.dtype);
  OcVal above = oc_cast(im, oc_cmp(im, "gt", trunc, safe), x.t.dtype);
  return oc_select(im, small, oc_binary(im, "sub", trunc, above), x);
}

bool oc_output(OnnxImporter *im, size_t i, OcVal x) {
  if (!oc_ok(x))
    return false;
  return onnx_set_output(im, i, x.v, &x.t);
}
