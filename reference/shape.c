/* Shape ops (transpose, broadcast_to, reshape, slice, concat, window) and constant. */
#include <string.h>

#include "dialects/graph/graph.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "reference/internal.h"
#include "support/context.h"

static bool same_dtype(MlirOperation op, const BrazeHostTensor *x, const BrazeHostTensor *result) {
  return ref_require_dtype(op, result, x->dtype, "the result");
}

/* Copy x into result through per-result-dim source strides, starting at `base`. */
static void gather(const BrazeHostTensor *x, int64_t base, const int64_t *src_strides, BrazeHostTensor *result) {
  int64_t idx[BRAZE_TENSOR_MAX_RANK] = {0};
  int64_t n = braze_tensor_numel(result);
  for (int64_t i = 0; i < n; ++i, ref_index_next(idx, result->rank, result->shape))
    result->data[i] = x->data[base + ref_offset(idx, src_strides, result->rank)];
}

bool ref_transpose(MlirOperation op, const BrazeHostTensor *const *args, size_t n_args, BrazeHostTensor *result) {
  (void)n_args;
  const BrazeHostTensor *x = args[0];
  int64_t perm[BRAZE_TENSOR_MAX_RANK + 1];
  intptr_t n = braze_attr_i64_array(op, "perm", perm, BRAZE_TENSOR_MAX_RANK + 1);
  if (n != x->rank)
    return ref_fail(op, "expected attribute 'perm' = array<i64: ...> with %d entries (the operand is %s)", x->rank,
                    ref_type_str(x));
  bool seen[BRAZE_TENSOR_MAX_RANK] = {false};
  int64_t x_strides[BRAZE_TENSOR_MAX_RANK], src[BRAZE_TENSOR_MAX_RANK], shape[BRAZE_TENSOR_MAX_RANK];
  ref_strides(x->rank, x->shape, x_strides);
  for (int i = 0; i < x->rank; ++i) {
    if (perm[i] < 0 || perm[i] >= x->rank || seen[perm[i]])
      return ref_fail(op, "'perm' is not a permutation of 0..%d", x->rank - 1);
    seen[perm[i]] = true;
    shape[i] = x->shape[perm[i]];
    src[i] = x_strides[perm[i]];
  }
  if (!ref_require_shape(op, result, x->rank, shape, "the result") || !same_dtype(op, x, result))
    return false;
  gather(x, 0, src, result);
  return true;
}

bool ref_broadcast_to(MlirOperation op, const BrazeHostTensor *const *args, size_t n_args, BrazeHostTensor *result) {
  (void)n_args;
  const BrazeHostTensor *x = args[0];
  int64_t src[BRAZE_TENSOR_MAX_RANK];
  if (!ref_broadcast_strides(x, result->rank, result->shape, src))
    return ref_fail(op, "%s does not broadcast to %s", ref_type_str(x), ref_type_str(result));
  if (!same_dtype(op, x, result))
    return false;
  gather(x, 0, src, result);
  return true;
}

bool ref_reshape(MlirOperation op, const BrazeHostTensor *const *args, size_t n_args, BrazeHostTensor *result) {
  (void)n_args;
  const BrazeHostTensor *x = args[0];
  if (braze_tensor_numel(x) != braze_tensor_numel(result))
    return ref_fail(op, "cannot reshape %s into %s: element counts differ", ref_type_str(x), ref_type_str(result));
  if (!same_dtype(op, x, result))
    return false;
  memcpy(result->data, x->data, (size_t)braze_tensor_numel(x) * sizeof *x->data);
  return true;
}

bool ref_slice(MlirOperation op, const BrazeHostTensor *const *args, size_t n_args, BrazeHostTensor *result) {
  (void)n_args;
  const BrazeHostTensor *x = args[0];
  int64_t starts[BRAZE_TENSOR_MAX_RANK + 1], limits[BRAZE_TENSOR_MAX_RANK + 1], steps[BRAZE_TENSOR_MAX_RANK + 1];
  if (braze_attr_i64_array(op, "starts", starts, BRAZE_TENSOR_MAX_RANK + 1) != x->rank ||
      braze_attr_i64_array(op, "limits", limits, BRAZE_TENSOR_MAX_RANK + 1) != x->rank ||
      braze_attr_i64_array(op, "strides", steps, BRAZE_TENSOR_MAX_RANK + 1) != x->rank)
    return ref_fail(op, "expected 'starts', 'limits', 'strides' = array<i64: ...> with %d entries each", x->rank);
  int64_t x_strides[BRAZE_TENSOR_MAX_RANK], src[BRAZE_TENSOR_MAX_RANK], shape[BRAZE_TENSOR_MAX_RANK];
  ref_strides(x->rank, x->shape, x_strides);
  int64_t base = 0;
  for (int i = 0; i < x->rank; ++i) {
    if (starts[i] < 0 || starts[i] > limits[i] || limits[i] > x->shape[i] || steps[i] < 1)
      return ref_fail(op, "dim %d: need 0 <= start (%lld) <= limit (%lld) <= size (%lld) and stride (%lld) >= 1", i,
                      (long long)starts[i], (long long)limits[i], (long long)x->shape[i], (long long)steps[i]);
    shape[i] = (limits[i] - starts[i] + steps[i] - 1) / steps[i];
    src[i] = x_strides[i] * steps[i];
    base += starts[i] * x_strides[i];
  }
  if (!ref_require_shape(op, result, x->rank, shape, "the result") || !same_dtype(op, x, result))
    return false;
  gather(x, base, src, result);
  return true;
}

/* window: result[b, o.., k.., c] = x[b, o_i s_i + k_i d_i, c] (x [B, S1..Sn, C]). */
bool ref_window(MlirOperation op, const BrazeHostTensor *const *args, size_t n_args, BrazeHostTensor *result) {
  (void)n_args;
  const BrazeHostTensor *x = args[0];
  int n = x->rank - 2;
  if (n < 1 || 2 * n + 2 > BRAZE_TENSOR_MAX_RANK)
    return ref_fail(op, "expected an operand [B, S1..Sn, C] with 1 <= n <= %d, got %s", (BRAZE_TENSOR_MAX_RANK - 2) / 2,
                    ref_type_str(x));
  int64_t kernel[BRAZE_TENSOR_MAX_RANK + 1], steps[BRAZE_TENSOR_MAX_RANK + 1], dil[BRAZE_TENSOR_MAX_RANK + 1];
  if (braze_attr_i64_array(op, "kernel", kernel, BRAZE_TENSOR_MAX_RANK + 1) != n ||
      braze_attr_i64_array(op, "strides", steps, BRAZE_TENSOR_MAX_RANK + 1) != n ||
      braze_attr_i64_array(op, "dilations", dil, BRAZE_TENSOR_MAX_RANK + 1) != n)
    return ref_fail(op, "expected 'kernel', 'strides', 'dilations' = array<i64: ...> with %d entries each", n);
  int64_t x_strides[BRAZE_TENSOR_MAX_RANK], src[BRAZE_TENSOR_MAX_RANK], shape[BRAZE_TENSOR_MAX_RANK];
  ref_strides(x->rank, x->shape, x_strides);
  shape[0] = x->shape[0];
  src[0] = x_strides[0];
  shape[2 * n + 1] = x->shape[n + 1];
  src[2 * n + 1] = x_strides[n + 1];
  for (int i = 0; i < n; ++i) {
    int64_t reach = dil[i] * (kernel[i] - 1) + 1;
    if (kernel[i] < 1 || steps[i] < 1 || dil[i] < 1 || reach > x->shape[1 + i])
      return ref_fail(op, "spatial dim %d: need kernel, stride, dilation >= 1 and a window within the operand", i);
    shape[1 + i] = (x->shape[1 + i] - reach) / steps[i] + 1;
    src[1 + i] = x_strides[1 + i] * steps[i];
    shape[1 + n + i] = kernel[i];
    src[1 + n + i] = x_strides[1 + i] * dil[i];
  }
  if (!ref_require_shape(op, result, 2 * n + 2, shape, "the result") || !same_dtype(op, x, result))
    return false;
  gather(x, 0, src, result);
  return true;
}

static bool check_concat(MlirOperation op, const BrazeHostTensor *const *args, size_t n_args, int dim,
                         const BrazeHostTensor *result) {
  int64_t shape[BRAZE_TENSOR_MAX_RANK];
  memcpy(shape, args[0]->shape, sizeof shape);
  shape[dim] = 0;
  for (size_t i = 0; i < n_args; ++i) {
    const BrazeHostTensor *t = args[i];
    bool ok = t->rank == args[0]->rank && t->dtype == args[0]->dtype;
    for (int d = 0; ok && d < t->rank; ++d)
      ok = d == dim || t->shape[d] == args[0]->shape[d];
    if (!ok)
      return ref_fail(op, "input %zu (%s) must match input 0 (%s) in element type and in every dim but %d", i,
                      ref_type_str(t), ref_type_str(args[0]), dim);
    shape[dim] += t->shape[dim];
  }
  return ref_require_shape(op, result, args[0]->rank, shape, "the result") && same_dtype(op, args[0], result);
}

bool ref_concat(MlirOperation op, const BrazeHostTensor *const *args, size_t n_args, BrazeHostTensor *result) {
  if (n_args == 0)
    return ref_fail(op, "expected at least one input");
  int dim;
  if (!ref_dim_attr(op, "dim", args[0]->rank, &dim) || !check_concat(op, args, n_args, dim, result))
    return false;
  int64_t out_strides[BRAZE_TENSOR_MAX_RANK];
  ref_strides(result->rank, result->shape, out_strides);
  int64_t offset = 0; /* where this input starts along `dim` */
  for (size_t i = 0; i < n_args; ++i) {
    const BrazeHostTensor *t = args[i];
    int64_t idx[BRAZE_TENSOR_MAX_RANK] = {0};
    int64_t n = braze_tensor_numel(t);
    for (int64_t e = 0; e < n; ++e, ref_index_next(idx, t->rank, t->shape))
      result->data[ref_offset(idx, out_strides, t->rank) + offset * out_strides[dim]] = t->data[e];
    offset += t->shape[dim];
  }
  return true;
}

/* Element `i` of a dense elements attribute (splats repeat element 0). */
static double dense_element(MlirAttribute value, BrazeDType dtype, intptr_t i) {
  if (mlirDenseElementsAttrIsSplat(value))
    i = 0;
  switch (dtype) {
  case BRAZE_DTYPE_F32: return mlirDenseElementsAttrGetFloatValue(value, i);
  case BRAZE_DTYPE_F64: return mlirDenseElementsAttrGetDoubleValue(value, i);
  case BRAZE_DTYPE_I32: return mlirDenseElementsAttrGetInt32Value(value, i);
  case BRAZE_DTYPE_I8: return mlirDenseElementsAttrGetInt8Value(value, i);
  case BRAZE_DTYPE_I16: return mlirDenseElementsAttrGetInt16Value(value, i);
  case BRAZE_DTYPE_U8: return mlirDenseElementsAttrGetUInt8Value(value, i);
  case BRAZE_DTYPE_U16: return mlirDenseElementsAttrGetUInt16Value(value, i);
  case BRAZE_DTYPE_U32: return mlirDenseElementsAttrGetUInt32Value(value, i);
  case BRAZE_DTYPE_U64: return (double)mlirDenseElementsAttrGetUInt64Value(value, i);
  case BRAZE_DTYPE_I64: return (double)mlirDenseElementsAttrGetInt64Value(value, i);
  case BRAZE_DTYPE_I1: return mlirDenseElementsAttrGetBoolValue(value, i);
  case BRAZE_DTYPE_F16:
  case BRAZE_DTYPE_BF16: {
    /* No typed getter for 16-bit floats: read the raw little-endian bits. */
    const unsigned char *raw = mlirDenseElementsAttrGetRawData(value);
    uint16_t bits = (uint16_t)(raw[2 * i] | raw[2 * i + 1] << 8);
    return dtype == BRAZE_DTYPE_F16 ? braze_f16_value(bits) : braze_bf16_value(bits);
  }
  }
  return 0.0;
}

bool ref_constant(MlirOperation op, const BrazeHostTensor *const *args, size_t n_args, BrazeHostTensor *result) {
  (void)args;
  (void)n_args;
  MlirAttribute value = mlirOperationGetAttributeByName(op, braze_ref("value"));
  if (mlirAttributeIsNull(value))
    return ref_fail(op, "expected attribute 'value'");
  if (!mlirAttributeIsADenseElements(value) && !mlirAttributeIsADenseResourceElements(value))
    return ref_fail(op, "attribute 'value' must be a dense elements or dense_resource attribute");
  BrazeHostTensor of_value;
  if (!braze_tensor_init_from_type(&of_value, mlirAttributeGetType(value)))
    return ref_fail(op, "attribute 'value' has an unsupported type");
  bool matches = ref_same_shape(&of_value, result) && of_value.dtype == result->dtype;
  braze_tensor_free(&of_value);
  if (!matches)
    return ref_fail(op, "attribute 'value' must have exactly the result type %s", ref_type_str(result));
  if (mlirAttributeIsADenseResourceElements(value))
    return ref_resource_fill(op, value, result);
  int64_t n = braze_tensor_numel(result);
  for (int64_t i = 0; i < n; ++i)
    result->data[i] = dense_element(value, result->dtype, (intptr_t)i);
  return true;
}
