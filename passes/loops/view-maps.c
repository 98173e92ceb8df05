/* View maps of graph view ops (see passes/loops/view-maps.h). */
#include "passes/loops/view-maps.h"

#include <string.h>

#include "dialects/graph/graph.h"
#include "mlir-c/AffineExpr.h"
#include "mlir-c/BuiltinTypes.h"
#include "passes/loops/builder.h"


static MlirAffineMap transpose_map(MlirContext ctx, MlirOperation op) {
  int64_t perm[BRAZE_MAX_RANK];
  intptr_t rank = braze_attr_i64_array(op, "perm", perm, BRAZE_MAX_RANK);
  MlirAffineExpr exprs[BRAZE_MAX_RANK];
  for (intptr_t i = 0; i < rank; ++i) /* result dim i is input dim perm[i] */
    exprs[perm[i]] = mlirAffineDimExprGet(ctx, i);
  return rank ? mlirAffineMapGet(ctx, rank, 0, rank, exprs) : mlirAffineMapZeroResultGet(ctx, 0, 0);
}

static MlirAffineMap broadcast_map(MlirContext ctx, MlirOperation op) {
  int64_t shape[BRAZE_MAX_RANK], xshape[BRAZE_MAX_RANK];
  intptr_t rank = braze_shape(mlirValueGetType(mlirOperationGetResult(op, 0)), shape);
  intptr_t xrank = braze_shape(mlirValueGetType(mlirOperationGetOperand(op, 0)), xshape);
  return braze_map_broadcast(ctx, rank, shape, rank, xshape, xrank);
}

static MlirAffineMap slice_map(MlirContext ctx, MlirOperation op) {
  int64_t starts[BRAZE_MAX_RANK], strides[BRAZE_MAX_RANK];
  intptr_t rank = braze_attr_i64_array(op, "starts", starts, BRAZE_MAX_RANK);
  braze_attr_i64_array(op, "strides", strides, BRAZE_MAX_RANK);
  MlirAffineExpr exprs[BRAZE_MAX_RANK];
  for (intptr_t i = 0; i < rank; ++i) {
    MlirAffineExpr d = mlirAffineDimExprGet(ctx, i);
    MlirAffineExpr scaled = mlirAffineMulExprGet(d, mlirAffineConstantExprGet(ctx, strides[i]));
    exprs[i] = mlirSimplifyAffineExpr(mlirAffineAddExprGet(scaled, mlirAffineConstantExprGet(ctx, starts[i])),
                                      (uint32_t)rank, 0);
  }
  return rank ? mlirAffineMapGet(ctx, rank, 0, rank, exprs) : mlirAffineMapZeroResultGet(ctx, 0, 0);
}

/* window: (b, o1..on, k1..kn, c) -> (b, o_i s_i + k_i d_i, c). */
static MlirAffineMap window_map(MlirContext ctx, MlirOperation op) {
  int64_t kernel[BRAZE_MAX_RANK], strides[BRAZE_MAX_RANK], dilations[BRAZE_MAX_RANK];
  intptr_t n = braze_attr_i64_array(op, "kernel", kernel, BRAZE_MAX_RANK);
  braze_attr_i64_array(op, "strides", strides, BRAZE_MAX_RANK);
  braze_attr_i64_array(op, "dilations", dilations, BRAZE_MAX_RANK);
  intptr_t rank = 2 * n + 2;
  MlirAffineExpr exprs[BRAZE_MAX_RANK];
  exprs[0] = mlirAffineDimExprGet(ctx, 0);
  exprs[n + 1] = mlirAffineDimExprGet(ctx, (intptr_t)(2 * n + 1));
  for (intptr_t i = 0; i < n; ++i) {
    MlirAffineExpr o = mlirAffineMulExprGet(mlirAffineDimExprGet(ctx, 1 + i), mlirAffineConstantExprGet(ctx, strides[i]));
    MlirAffineExpr k =
        mlirAffineMulExprGet(mlirAffineDimExprGet(ctx, 1 + n + i), mlirAffineConstantExprGet(ctx, dilations[i]));
    exprs[1 + i] = mlirSimplifyAffineExpr(mlirAffineAddExprGet(o, k), (uint32_t)rank, 0);
  }
  return mlirAffineMapGet(ctx, rank, 0, n + 2, exprs);
}

/* reshape of row-major data. Dims are matched in groups of equal element count
 * (size-1 dims aside: an input size-1 dim is read at 0, a result size-1 dim is
 * always 0); within a group the result index is linearized and split into the input
 * dims with floordiv/mod, so 1:1 groups stay plain dims. */
static MlirAffineMap reshape_map(MlirContext ctx, MlirOperation op) {
  int64_t out[BRAZE_MAX_RANK], in[BRAZE_MAX_RANK];
  intptr_t out_rank = braze_shape(mlirValueGetType(mlirOperationGetResult(op, 0)), out);
  intptr_t in_rank = braze_shape(mlirValueGetType(mlirOperationGetOperand(op, 0)), in);
  MlirAffineExpr exprs[BRAZE_MAX_RANK];
  MlirAffineExpr zero = mlirAffineConstantExprGet(ctx, 0);
  intptr_t i = 0, j = 0; /* next result dim, next input dim */
  while (j < in_rank) {
    while (i < out_rank && out[i] == 1)
      ++i;
    if (in[j] == 1 || i == out_rank) {
      exprs[j++] = zero;
      continue;
    }
    intptr_t i2 = i + 1, j2 = j + 1;
    int64_t size_out = out[i], size_in = in[j];
    while (size_out != size_in) {
      if (size_out < size_in && i2 < out_rank)
        size_out *= out[i2++];
      else if (size_in < size_out && j2 < in_rank)
        size_in *= in[j2++];
      else
        break; /* element counts differ: the verifier rejects this */
    }
    MlirAffineExpr linear = zero;
    for (intptr_t d = i; d < i2; ++d) {
      if (out[d] == 1)
        continue;
      MlirAffineExpr scaled = mlirAffineMulExprGet(linear, mlirAffineConstantExprGet(ctx, out[d]));
      linear = mlirAffineAddExprGet(scaled, mlirAffineDimExprGet(ctx, d));
    }
    int64_t stride = size_in;
    for (intptr_t d = j; d < j2; ++d) {
      if (in[d] == 1) {
        exprs[d] = zero;
        continue;
      }
      stride /= in[d];
      MlirAffineExpr e = mlirAffineFloorDivExprGet(linear, mlirAffineConstantExprGet(ctx, stride));
      if (d > j) /* the group's first dim needs no mod: its index is < in[d] */
        e = mlirAffineModExprGet(e, mlirAffineConstantExprGet(ctx, in[d]));
      exprs[d] = mlirSimplifyAffineExpr(e, (uint32_t)out_rank, 0);
    }
    i = i2;
    j = j2;
  }
  return in_rank ? mlirAffineMapGet(ctx, out_rank, 0, in_rank, exprs)
                 : mlirAffineMapZeroResultGet(ctx, out_rank, 0);
}

MlirAffineMap braze_view_map(MlirOperation op) {
  MlirContext ctx = mlirOperationGetContext(op);
  const char *m = braze_graph_op_mnemonic(op);
  if (strcmp(m, "transpose") == 0)
    return transpose_map(ctx, op);
  if (strcmp(m, "broadcast_to") == 0)
    return broadcast_map(ctx, op);
  if (strcmp(m, "slice") == 0)
    return slice_map(ctx, op);
  if (strcmp(m, "window") == 0)
    return window_map(ctx, op);
  return reshape_map(ctx, op);
}

