/* Graph verifier rules for the indexed reads: gather and gather_elements
 * (docs/dialect-graph.md "Indexed reads"). */
#include <string.h>

#include "dialects/graph/verify-internal.h"
#include "mlir-c/BuiltinTypes.h"

/* indices: i32 or i64; result element type = data's; axis in [0, data rank). */
static bool common(const GvOp *v, int64_t *axis) {
  const GvTensor *data = &v->in[0], *idx = &v->in[1];
  if (data->rank == 0)
    return gv_fail(v, "data must have rank >= 1 (the axis indexes one of its dims)");
  if (!gv_dim_attr(v, "axis", data->rank, axis))
    return false;
  bool index_type = mlirTypeIsAInteger(idx->elt) && (mlirIntegerTypeGetWidth(idx->elt) == 32 ||
                                                     mlirIntegerTypeGetWidth(idx->elt) == 64);
  if (!index_type)
    return gv_fail(v, "indices have element type %s; expected i32 or i64", gv_type(idx->elt).s);
  return gv_same_elt(v, data, "data", &v->res, "result");
}

bool gv_verify_gather(const GvOp *v) {
  int64_t axis;
  if (!common(v, &axis))
    return false;
  const GvTensor *data = &v->in[0], *idx = &v->in[1];
  intptr_t rank = data->rank - 1 + idx->rank;
  if (rank > BRAZE_MAX_RANK)
    return gv_fail(v, "the result would have rank %lld; braze supports rank <= %d", (long long)rank,
                   BRAZE_MAX_RANK);
  int64_t expected[BRAZE_MAX_RANK];
  intptr_t n = 0;
  for (intptr_t d = 0; d < data->rank; ++d) {
    if (d != axis) {
      expected[n++] = data->dims[d];
      continue;
    }
    for (intptr_t j = 0; j < idx->rank; ++j)
      expected[n++] = idx->dims[j];
  }
  return gv_result_shape_is(v, expected, rank, "data.shape[:axis] + indices.shape + data.shape[axis+1:]");
}

bool gv_verify_gather_elements(const GvOp *v) {
  int64_t axis;
  if (!common(v, &axis))
    return false;
  const GvTensor *data = &v->in[0], *idx = &v->in[1];
  if (idx->rank != data->rank)
    return gv_fail(v, "indices have rank %lld; expected the data's rank %lld", (long long)idx->rank,
                   (long long)data->rank);
  for (intptr_t d = 0; d < data->rank; ++d)
    if (d != axis && idx->dims[d] > data->dims[d])
      return gv_fail(v, "indices shape %s exceeds the data shape %s in dim %lld (only the axis may be larger)",
                     gv_shape(idx).s, gv_shape(data).s, (long long)d);
  return gv_result_shape_is(v, idx->dims, idx->rank, "the indices shape");
}
