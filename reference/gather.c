/* Indexed reads: gather and gather_elements (docs/dialect-graph.md "Indexed reads").
 * An index i along an axis of size K reads position i + K when i < 0, then clamped
 * to [0, K - 1]: the same total function the compiled code computes. */
#include "dialects/graph/graph.h"
#include "reference/internal.h"

static int64_t wrap_clamp(double value, int64_t k) {
  double i = value < 0 ? value + (double)k : value; /* integral doubles: exact below 2^53 */
  return i < 0 ? 0 : i >= (double)k ? k - 1 : (int64_t)i;
}

static bool check(MlirOperation op, const BrazeHostTensor *data, const BrazeHostTensor *idx,
                  const BrazeHostTensor *result, int *axis) {
  if (idx->dtype != BRAZE_DTYPE_I32 && idx->dtype != BRAZE_DTYPE_I64)
    return ref_fail(op, "indices must be i32 or i64, not %s", ref_type_str(idx));
  return ref_dim_attr(op, "axis", data->rank, axis) && ref_require_dtype(op, result, data->dtype, "the result");
}

bool ref_gather(MlirOperation op, const BrazeHostTensor *const *args, size_t n_args, BrazeHostTensor *result) {
  (void)n_args;
  const BrazeHostTensor *data = args[0], *idx = args[1];
  int axis;
  if (!check(op, data, idx, result, &axis))
    return false;
  int q = idx->rank, rank = data->rank - 1 + q;
  if (rank > BRAZE_TENSOR_MAX_RANK)
    return ref_fail(op, "the result would have rank %d", rank);
  int64_t shape[BRAZE_TENSOR_MAX_RANK];
  for (int d = 0, o = 0; d < data->rank; ++d) {
    if (d != axis)
      shape[o++] = data->shape[d];
    for (int j = 0; d == axis && j < q; ++j)
      shape[o++] = idx->shape[j];
  }
  if (!ref_require_shape(op, result, rank, shape, "the result"))
    return false;
  int64_t ds[BRAZE_TENSOR_MAX_RANK], is[BRAZE_TENSOR_MAX_RANK], at[BRAZE_TENSOR_MAX_RANK] = {0};
  ref_strides(data->rank, data->shape, ds);
  ref_strides(q, idx->shape, is);
  int64_t n = braze_tensor_numel(result), k = data->shape[axis];
  for (int64_t e = 0; e < n; ++e, ref_index_next(at, rank, result->shape)) {
    int64_t pos = 0, ipos = 0;
    for (int j = 0; j < q; ++j)
      ipos += at[axis + j] * is[j];
    for (int d = 0; d < data->rank; ++d) {
      int64_t c = d < axis ? at[d] : d > axis ? at[d - 1 + q] : wrap_clamp(idx->data[ipos], k);
      pos += c * ds[d];
    }
    result->data[e] = data->data[pos];
  }
  return true;
}

bool ref_gather_elements(MlirOperation op, const BrazeHostTensor *const *args, size_t n_args,
                         BrazeHostTensor *result) {
  (void)n_args;
  const BrazeHostTensor *data = args[0], *idx = args[1];
  int axis;
  if (!check(op, data, idx, result, &axis))
    return false;
  if (idx->rank != data->rank)
    return ref_fail(op, "indices (%s) must have the data's rank (%s)", ref_type_str(idx), ref_type_str(data));
  for (int d = 0; d < data->rank; ++d)
    if (d != axis && idx->shape[d] > data->shape[d])
      return ref_fail(op, "indices (%s) exceed the data (%s) in dim %d", ref_type_str(idx), ref_type_str(data), d);
  if (!ref_require_shape(op, result, idx->rank, idx->shape, "the result"))
    return false;
  int64_t ds[BRAZE_TENSOR_MAX_RANK], at[BRAZE_TENSOR_MAX_RANK] = {0};
  ref_strides(data->rank, data->shape, ds);
  int64_t n = braze_tensor_numel(result), k = data->shape[axis];
  for (int64_t e = 0; e < n; ++e, ref_index_next(at, idx->rank, idx->shape)) {
    int64_t pos = 0;
    for (int d = 0; d < data->rank; ++d)
      pos += (d == axis ? wrap_clamp(idx->data[e], k) : at[d]) * ds[d];
    result->data[e] = data->data[pos];
  }
  return true;
}
