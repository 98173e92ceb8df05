/* Graph verifier rules for contractions (linear, matmul, batch_matmul) and constant. */
#include <string.h>

#include "dialects/graph/verify-internal.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "support/context.h"

static bool same_elts(const GvOp *v) {
  for (intptr_t i = 1; i < v->num_inputs; ++i)
    if (!gv_same_elt(v, &v->in[0], "operand #0", &v->in[i], i == 1 ? "operand #1" : "operand #2"))
      return false;
  return gv_same_elt(v, &v->in[0], "operand", &v->res, "result");
}

bool gv_verify_linear(const GvOp *v) {
  const GvTensor *x = &v->in[0], *w = &v->in[1], *b = &v->in[2];
  if (!same_elts(v))
    return false;
  if (x->rank < 1)
    return gv_fail(v, "x must have rank >= 1 ([..., K]), got rank 0");
  int64_t k = x->dims[x->rank - 1];
  if (w->rank != 2)
    return gv_fail(v, "weight must be 2-D [N, K], got shape %s", gv_shape(w).s);
  if (w->dims[1] != k)
    return gv_fail(v, "weight shape %s must be [N, K] with K = %lld (x's last dim)", gv_shape(w).s,
                   (long long)k);
  int64_t n = w->dims[0];
  if (b->rank != 1 || b->dims[0] != n)
    return gv_fail(v, "bias shape %s must be [N] = [%lld]", gv_shape(b).s, (long long)n);
  int64_t expected[BRAZE_MAX_RANK];
  memcpy(expected, x->dims, sizeof expected);
  expected[x->rank - 1] = n;
  return gv_result_shape_is(v, expected, x->rank, "x's shape with the last dim K replaced by N");
}

/* lhs [..., M, K] and rhs [..., K, N] agree on K. */
static bool inner_dims_match(const GvOp *v, const GvTensor *a, const GvTensor *b) {
  int64_t ka = a->dims[a->rank - 1], kb = b->dims[b->rank - 2];
  if (ka == kb)
    return true;
  return gv_fail(v, "inner dims differ: lhs %s has K = %lld, rhs %s has K = %lld", gv_shape(a).s,
                 (long long)ka, gv_shape(b).s, (long long)kb);
}

bool gv_verify_matmul(const GvOp *v) {
  const GvTensor *a = &v->in[0], *b = &v->in[1];
  if (!same_elts(v))
    return false;
  if (a->rank != 2 || b->rank != 2)
    return gv_fail(v, "operands must be 2-D ([M, K] and [K, N]), got shapes %s and %s", gv_shape(a).s,
                   gv_shape(b).s);
  if (!inner_dims_match(v, a, b))
    return false;
  int64_t expected[2] = {a->dims[0], b->dims[1]};
  return gv_result_shape_is(v, expected, 2, "[M, N]");
}

bool gv_verify_batch_matmul(const GvOp *v) {
  const GvTensor *a = &v->in[0], *b = &v->in[1];
  if (!same_elts(v))
    return false;
  if (a->rank < 2 || b->rank < 2 || (a->rank < 3 && b->rank < 3))
    return gv_fail(v, "operands must have rank >= 2 and at least one rank >= 3, got shapes %s and %s",
                   gv_shape(a).s, gv_shape(b).s);
  int64_t batch[BRAZE_MAX_RANK];
  intptr_t batch_rank;
  if (!braze_broadcast_shapes(a->dims, a->rank - 2, b->dims, b->rank - 2, batch, &batch_rank))
    return gv_fail(v, "batch dims %s and %s are not broadcast-compatible", gv_dims(a->dims, a->rank - 2).s,
                   gv_dims(b->dims, b->rank - 2).s);
  if (!inner_dims_match(v, a, b))
    return false;
  batch[batch_rank] = a->dims[a->rank - 2];
  batch[batch_rank + 1] = b->dims[b->rank - 1];
  return gv_result_shape_is(v, batch, batch_rank + 2, "[broadcast batch dims..., M, N]");
}

bool gv_verify_constant(const GvOp *v) {
  MlirAttribute value = mlirOperationGetAttributeByName(v->op, mlirStringRefCreateFromCString("value"));
  if (mlirAttributeIsNull(value) ||
      !(mlirAttributeIsADenseElements(value) || mlirAttributeIsADenseResourceElements(value)))
    return gv_fail(v, "value must be a dense elements attribute (dense<...> : tensor<...>)");
  MlirType type = mlirAttributeGetType(value);
  if (mlirTypeEqual(type, v->res.type))
    return true;
  return gv_fail(v, "value type %s must equal the result type %s", gv_type(type).s, gv_type(v->res.type).s);
}
