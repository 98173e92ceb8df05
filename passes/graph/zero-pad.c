/* The zero-padding form of a channels-last tensor: see passes/graph/zero-pad.h. */
#include "passes/graph/zero-pad.h"

#include <stdint.h>
#include <stdlib.h>

#include "dialects/graph/graph.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "support/context.h"

/* positions[q] = the flattened spatial position of x that padded position q holds, or
 * -1; NULL when the table passes max_table entries or x's positions do not fit i32. */
static int32_t *pad_positions(const int64_t *in, const int64_t *before, const int64_t *after, intptr_t rank,
                              int64_t max_table, int64_t *lp) {
  int64_t l = 1;
  *lp = 1;
  for (intptr_t d = 1; d < rank - 1; ++d) {
    l *= in[d];
    *lp *= in[d] + before[d] + after[d];
    if (*lp > max_table || l >= INT32_MAX)
      return NULL;
  }
  int32_t *idx = malloc((size_t)*lp * sizeof *idx);
  for (int64_t q = 0; idx && q < *lp; ++q) {
    int64_t rest = q, pos = 0, stride = 1;
    bool inside = true;
    for (intptr_t d = rank - 2; d >= 1; --d) {
      int64_t size = in[d] + before[d] + after[d], at = rest % size - before[d];
      rest /= size;
      inside = inside && at >= 0 && at < in[d];
      pos += at * stride;
      stride *= in[d];
    }
    idx[q] = inside ? (int32_t)pos : -1;
  }
  return idx;
}

MlirValue braze_gb_zero_pad(GraphBuilder *b, MlirValue x, const int64_t *before, const int64_t *after,
                            int64_t max_table) {
  int64_t in[BRAZE_MAX_RANK], lp;
  intptr_t rank = braze_shape(mlirValueGetType(x), in);
  int32_t *idx = rank >= 3 ? pad_positions(in, before, after, rank, max_table, &lp) : NULL;
  if (!idx)
    return (MlirValue){NULL};
  MlirType elem = braze_element_type(mlirValueGetType(x));
  int64_t flat[3] = {in[0], 1, in[rank - 1]}, table_shape[2] = {lp, 1}, padded[BRAZE_MAX_RANK];
  for (intptr_t d = 1; d < rank - 1; ++d)
    flat[1] *= in[d];
  MlirValue xl = braze_gb_reshape(b, x, flat, 3);
  MlirType it = braze_gb_tensor_type(b->ctx, table_shape, 1, mlirIntegerTypeGet(b->ctx, 32));
  MlirValue positions = braze_gb_constant(b, mlirDenseElementsAttrInt32Get(it, lp, idx));
  int *bits = malloc((size_t)lp * sizeof *bits);
  for (int64_t q = 0; bits && q < lp; ++q)
    bits[q] = idx[q] >= 0;
  free(idx);
  if (!bits)
    return (MlirValue){NULL};
  MlirType bt = braze_gb_tensor_type(b->ctx, table_shape, 2, mlirIntegerTypeGet(b->ctx, 1));
  MlirValue inside = braze_gb_constant(b, mlirDenseElementsAttrBoolGet(bt, lp, bits));
  free(bits);
  MlirValue gather_ops[2] = {xl, positions};
  MlirNamedAttribute axis = mlirNamedAttributeGet(mlirIdentifierGet(b->ctx, braze_ref("axis")),
                                                  mlirIntegerAttrGet(mlirIntegerTypeGet(b->ctx, 64), 1));
  int64_t gathered_shape[3] = {in[0], lp, in[rank - 1]};
  MlirType gt = braze_gb_tensor_type(b->ctx, gathered_shape, 3, elem);
  MlirValue gathered = mlirOperationGetResult(braze_gb_create(b, "gather", gather_ops, 2, gt, &axis, 1), 0);
  MlirValue sel[3] = {inside, gathered, braze_gb_scalar(b, elem, 0.0)};
  MlirValue v = mlirOperationGetResult(braze_gb_create(b, "select", sel, 3, gt, NULL, 0), 0);
  for (intptr_t d = 0; d < rank; ++d)
    padded[d] = in[d] + before[d] + after[d];
  return braze_gb_reshape(b, v, padded, rank);
}
