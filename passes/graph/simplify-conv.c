/* graph-simplify rule conv-epilogue: a pointwise op reading a conv's result moves into
 * the product's space, so that the matmul template applies it as its epilogue.
 *
 * graph-decompose writes a conv as V(y) = reshape(transpose(y, [0, 1, 3, 2])) with
 * y = batch_matmul(...) of shape [N, G, P, OCg] and the reshape to [N, G OCg, S1..Sn]
 * (P = S1...Sn): the ops after the conv (the bias add, a folded batch_norm's add, relu,
 * a residual add) would run in the [N, OC, S...] space, which the template's epilogue
 * (over its own output space) cannot take. This rule rewrites
 *   op(V(y), other...) -> V(op(y, other'...))
 * for a pointwise unary or binary op and exactly that view (other views are left
 * alone); each other operand is brought into y's space: V(z) with z of y's type is read
 * as z (a residual of the same form), a rank-0 or per-channel operand (1 everywhere but
 * the channel dim) is viewed [G, 1, OCg], an operand of the result's type is viewed
 * through the inverse view. Repeated, a chain add, relu, add moves whole; the views
 * are free, so nothing is copied. */
#include <string.h>

#include "dialects/graph/graph.h"
#include "passes/graph/simplify.h"

/* The conv-result view r = reshape(transpose(y, [0, 1, 3, 2])): y [N, G, P, OCg] ->
 * [N, G OCg, S...] with prod(S) = P. Returns y, or a null value. */
static MlirValue conv_product(MlirValue r_value) {
  MlirOperation r = braze_gb_defining(r_value, "reshape");
  if (mlirOperationIsNull(r))
    return (MlirValue){NULL};
  MlirOperation t = braze_gb_defining(mlirOperationGetOperand(r, 0), "transpose");
  int64_t perm[4];
  if (mlirOperationIsNull(t) || braze_attr_i64_array(t, "perm", perm, 4) != 4 || perm[0] != 0 || perm[1] != 1 ||
      perm[2] != 3 || perm[3] != 2)
    return (MlirValue){NULL};
  MlirValue y = mlirOperationGetOperand(t, 0);
  int64_t in[BRAZE_MAX_RANK], out[BRAZE_MAX_RANK];
  intptr_t in_rank = braze_shape(mlirValueGetType(y), in);
  intptr_t out_rank = braze_shape(mlirValueGetType(r_value), out);
  if (in_rank != 4 || out_rank < 3 || out_rank > BRAZE_MAX_RANK || in[0] != out[0] || in[1] * in[3] != out[1])
    return (MlirValue){NULL};
  int64_t p = 1;
  for (intptr_t d = 2; d < out_rank; ++d)
    p *= out[d];
  return p == in[2] ? y : (MlirValue){NULL};
}

static const int64_t SWAP[4] = {0, 1, 3, 2};

/* `other` (an operand of an op over [N, OC, S...]) in the space of y [N, G, P, OCg],
 * or a null value when it has no view there. */
static MlirValue into_product_space(GraphBuilder *b, MlirValue other, MlirValue y, MlirType result) {
  MlirValue z = conv_product(other);
  if (!mlirValueIsNull(z) && braze_gb_types_equal(z, y))
    return z;
  int64_t ys[BRAZE_MAX_RANK], os[BRAZE_MAX_RANK], rs[BRAZE_MAX_RANK];
  braze_shape(mlirValueGetType(y), ys);
  intptr_t orank = braze_shape(mlirValueGetType(other), os), rrank = braze_shape(result, rs);
  if (orank == 0)
    return other;
  if (mlirTypeEqual(mlirValueGetType(other), result)) {
    int64_t channels_first[4] = {ys[0], ys[1], ys[3], ys[2]};
    return braze_gb_transpose(b, braze_gb_reshape(b, other, channels_first, 4), SWAP);
  }
  /* Per channel: every dim 1 but the channel dim (dim 1 of the result, aligned right). */
  if (orank > rrank)
    return (MlirValue){NULL};
  for (intptr_t d = 0; d < orank; ++d)
    if (os[d] != 1 && !(d + rrank - orank == 1 && os[d] == rs[1]))
      return (MlirValue){NULL};
  int64_t count = braze_num_elements(mlirValueGetType(other));
  if (count == 1)
    return braze_gb_reshape(b, other, NULL, 0);
  int64_t view[3] = {ys[1], 1, ys[3]};
  return count == rs[1] ? braze_gb_reshape(b, other, view, 3) : (MlirValue){NULL};
}

static bool sink(MlirOperation op, GraphBuilder *b, SimplifyRun *run) {
  intptr_t n = mlirOperationGetNumOperands(op);
  MlirType result = mlirValueGetType(mlirOperationGetResult(op, 0));
  if (n < 1 || n > 2 || braze_rank(result) > BRAZE_MAX_RANK)
    return false;
  for (intptr_t side = 0; side < n; ++side) {
    MlirValue viewed = mlirOperationGetOperand(op, side), y = conv_product(viewed);
    if (mlirValueIsNull(y) || !mlirTypeEqual(mlirValueGetType(viewed), result))
      continue;
    MlirValue ops[2] = {y, y};
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
    int64_t shape[4];
    braze_shape(mlirValueGetType(y), shape);
    MlirType inner_type = braze_gb_tensor_type(b->ctx, shape, 4, braze_element_type(result));
    MlirValue inner = mlirOperationGetResult(
        braze_gb_create(b, braze_graph_op_mnemonic(op), ops, n, inner_type, attrs, num_attrs < 4 ? num_attrs : 4), 0);
    int64_t out[BRAZE_MAX_RANK];
    intptr_t rank = braze_shape(result, out);
    MlirLocation loc = mlirOperationGetLocation(op);
    braze_gb_replace(b, op, braze_gb_reshape(b, braze_gb_transpose(b, inner, SWAP), out, rank));
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
