/* graph-simplify rule conv-epilogue: a pointwise op reading a conv's result moves into
 * the product's space, so that the matmul template applies it as its epilogue.
 *
 * graph-decompose writes a conv as reshape(y) with y = batch_matmul(...) of shape
 * [N, G, OCg, P] and the reshape to [N, G OCg, S1..Sn] (P = S1...Sn): the ops after the
 * conv (the bias add, a folded batch_norm's add, relu, a residual add) would run in the
 * [N, OC, S...] space, which the template's epilogue (over its own output space) cannot
 * take. This rule rewrites
 *   op(reshape(y), other...) -> reshape(op(y, other'...))
 * for a pointwise unary or binary op, where `reshape` splits the last dim of a rank-4
 * [N, G, OCg, P] value and merges dims 1 and 2 (the conv pattern; other reshapes are left
 * alone), and each other operand is brought into y's space: the reshape of a value of
 * y's type is read through (a residual of the same form), a rank-0 or per-channel
 * operand (1 everywhere but the channel dim) is viewed [G, OCg, 1], an operand of the
 * result's shape is viewed as y's shape. Repeated, a chain add, relu, add moves whole;
 * the reshapes are views, so nothing is copied. */
#include <string.h>

#include "dialects/graph/graph.h"
#include "passes/graph/simplify.h"

/* The conv-result reshape: [N, G, OCg, P] -> [N, G OCg, S...], prod(S) = P. */
static bool is_conv_reshape(MlirOperation r) {
  if (mlirOperationIsNull(r))
    return false;
  int64_t in[BRAZE_MAX_RANK], out[BRAZE_MAX_RANK];
  intptr_t in_rank = braze_shape(mlirValueGetType(mlirOperationGetOperand(r, 0)), in);
  intptr_t out_rank = braze_shape(mlirValueGetType(mlirOperationGetResult(r, 0)), out);
  if (in_rank != 4 || out_rank < 3 || out_rank > BRAZE_MAX_RANK || in[0] != out[0] || in[1] * in[2] != out[1])
    return false;
  int64_t p = 1;
  for (intptr_t d = 2; d < out_rank; ++d)
    p *= out[d];
  return p == in[3];
}

/* `other` (an operand of an op over [N, OC, S...]) in the space of y [N, G, OCg, P],
 * or a null value when it has no view there. */
static MlirValue into_product_space(GraphBuilder *b, MlirValue other, MlirValue y, MlirType result) {
  MlirOperation r = braze_gb_defining(other, "reshape");
  if (is_conv_reshape(r) && braze_gb_types_equal(mlirOperationGetOperand(r, 0), y))
    return mlirOperationGetOperand(r, 0);
  int64_t ys[BRAZE_MAX_RANK], os[BRAZE_MAX_RANK], rs[BRAZE_MAX_RANK];
  braze_shape(mlirValueGetType(y), ys);
  intptr_t orank = braze_shape(mlirValueGetType(other), os), rrank = braze_shape(result, rs);
  if (orank == 0)
    return other;
  if (orank == rrank && braze_num_elements(mlirValueGetType(other)) == braze_num_elements(result) &&
      mlirTypeEqual(mlirValueGetType(other), result))
    return braze_gb_reshape(b, other, ys, 4);
  /* Per channel: every dim 1 but the channel dim (dim 1 of the result, aligned right). */
  if (orank > rrank)
    return (MlirValue){NULL};
  for (intptr_t d = 0; d < orank; ++d)
    if (os[d] != 1 && !(d + rrank - orank == 1 && os[d] == rs[1]))
      return (MlirValue){NULL};
  int64_t count = braze_num_elements(mlirValueGetType(other));
  if (count == 1)
    return braze_gb_reshape(b, other, NULL, 0);
  int64_t view[3] = {ys[1], ys[2], 1};
  return count == rs[1] ? braze_gb_reshape(b, other, view, 3) : (MlirValue){NULL};
}

static bool sink(MlirOperation op, GraphBuilder *b, SimplifyRun *run) {
  intptr_t n = mlirOperationGetNumOperands(op);
  MlirType result = mlirValueGetType(mlirOperationGetResult(op, 0));
  if (n < 1 || n > 2 || braze_rank(result) > BRAZE_MAX_RANK)
    return false;
  for (intptr_t side = 0; side < n; ++side) {
    MlirOperation r = braze_gb_defining(mlirOperationGetOperand(op, side), "reshape");
    if (!is_conv_reshape(r) || !mlirTypeEqual(mlirValueGetType(mlirOperationGetResult(r, 0)), result))
      continue;
    MlirValue y = mlirOperationGetOperand(r, 0), ops[2] = {y, y};
    if (n == 2) {
      MlirValue other = into_product_space(b, mlirOperationGetOperand(op, 1 - side), y, result);
      if (mlirValueIsNull(other))
        continue;
      ops[1 - side] = other;
    }
    intptr_t num_attrs = mlirOperationGetNumAttributes(op);
    MlirNamedAttribute attrs[4];
    for (intptr_t i = 0; i < num_attrs && i < 4; ++i)
      attrs[i] = mlirOperationGetAttribute(op, i);
    MlirType yt = mlirValueGetType(y);
    int64_t shape[4];
    braze_shape(yt, shape);
    MlirType inner_type = braze_gb_tensor_type(b->ctx, shape, 4, braze_element_type(result));
    MlirValue inner = mlirOperationGetResult(
        braze_gb_create(b, braze_graph_op_mnemonic(op), ops, n, inner_type, attrs, num_attrs < 4 ? num_attrs : 4), 0);
    int64_t out[BRAZE_MAX_RANK];
    intptr_t rank = braze_shape(result, out);
    MlirLocation loc = mlirOperationGetLocation(op);
    braze_gb_replace(b, op, braze_gb_reshape(b, inner, out, rank));
    simplify_applied(run, loc, RULE_CONV_EPILOGUE, NULL);
    return true;
  }
  return false;
}

const SimplifyPattern simplify_conv_patterns[] = {
    {RULE_CONV_EPILOGUE, "add", sink},     {RULE_CONV_EPILOGUE, "sub", sink},
    {RULE_CONV_EPILOGUE, "mul", sink},     {RULE_CONV_EPILOGUE, "div", sink},
    {RULE_CONV_EPILOGUE, "max", sink},     {RULE_CONV_EPILOGUE, "min", sink},
    {RULE_CONV_EPILOGUE, "relu", sink},    {RULE_CONV_EPILOGUE, "sigmoid", sink},
    {RULE_CONV_EPILOGUE, "tanh", sink},    {RULE_CONV_EPILOGUE, "neg", sink},
    {RULE_CONV_EPILOGUE, "exp", sink},     {RULE_CONV_EPILOGUE, "erf", sink},
};
const size_t simplify_num_conv_patterns = sizeof simplify_conv_patterns / sizeof *simplify_conv_patterns;
