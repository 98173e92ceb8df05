/* graph-simplify rules on single ops and short chains: arithmetic identities,
 * transpose/reshape/broadcast chains, select on a constant condition. Each function
 * is one pattern body (see passes/graph/simplify.h): it either rewrites and reports, or returns
 * false having changed nothing. */
#include <string.h>

#include "dialects/graph/graph.h"
#include "mlir-c/BuiltinTypes.h"
#include "passes/graph/simplify.h"

static MlirValue operand(MlirOperation op, intptr_t i) { return mlirOperationGetOperand(op, i); }
static MlirValue result(MlirOperation op) { return mlirOperationGetResult(op, 0); }

/* Replace `op` by `v` and report `rule` at op's location. */
static bool apply(MlirOperation op, GraphBuilder *b, SimplifyRun *run, SimplifyRule rule, MlirValue v) {
  MlirLocation loc = mlirOperationGetLocation(op);
  braze_gb_replace(b, op, v);
  simplify_applied(run, loc, rule, NULL);
  return true;
}

/* ---- arithmetic identities ----
 * x op c -> x when c is a splat constant equal to the identity and x already has the
 * result type (a constant that broadcasts x to a larger shape is no identity). For
 * floats, +0.0 and -0.0 both count as zero: x + 0 turns x = -0.0 into +0.0, a
 * difference only in the sign of a zero, accepted as every tensor compiler does. */
static bool fold_identity(MlirOperation op, GraphBuilder *b, SimplifyRun *run, SimplifyRule rule,
                          double identity, bool commutative) {
  if (mlirOperationGetNumOperands(op) != 2)
    return false;
  for (intptr_t c = 1; c >= (commutative ? 0 : 1); --c) {
    double value;
    MlirValue other = operand(op, 1 - c);
    if (braze_gb_splat_value(operand(op, c), &value) && value == identity && braze_gb_types_equal(other, result(op)))
      return apply(op, b, run, rule, other);
  }
  return false;
}

static bool add_zero(MlirOperation op, GraphBuilder *b, SimplifyRun *run) {
  return fold_identity(op, b, run, RULE_ADD_ZERO, 0.0, true);
}

static bool sub_zero(MlirOperation op, GraphBuilder *b, SimplifyRun *run) {
  return fold_identity(op, b, run, RULE_SUB_ZERO, 0.0, false);
}

static bool mul_one(MlirOperation op, GraphBuilder *b, SimplifyRun *run) {
  return fold_identity(op, b, run, RULE_MUL_ONE, 1.0, true);
}

static bool div_one(MlirOperation op, GraphBuilder *b, SimplifyRun *run) {
  return fold_identity(op, b, run, RULE_DIV_ONE, 1.0, false);
}

/* ---- views ---- */

/* The perm of a transpose whose perm matches its rank; -1 otherwise. */
static intptr_t read_perm(MlirOperation op, int64_t *perm) {
  intptr_t rank = braze_rank(mlirValueGetType(result(op)));
  if (rank > BRAZE_MAX_RANK || braze_attr_i64_array(op, "perm", perm, BRAZE_MAX_RANK) != rank)
    return -1;
  for (intptr_t i = 0; i < rank; ++i)
    if (perm[i] < 0 || perm[i] >= rank)
      return -1;
  return rank;
}

/* transpose(transpose(x, p1), p2) -> transpose(x, p1 o p2); identity perms vanish. */
static bool double_transpose(MlirOperation op, GraphBuilder *b, SimplifyRun *run) {
  int64_t outer[BRAZE_MAX_RANK], inner[BRAZE_MAX_RANK], composed[BRAZE_MAX_RANK];
  intptr_t rank = read_perm(op, outer);
  if (rank < 0)
    return false;
  if (braze_gb_is_identity_perm(outer, rank))
    return braze_gb_types_equal(operand(op, 0), result(op)) &&
           apply(op, b, run, RULE_DOUBLE_TRANSPOSE, operand(op, 0));
  MlirOperation producer = braze_gb_defining(operand(op, 0), "transpose");
  if (mlirOperationIsNull(producer) || read_perm(producer, inner) != rank)
    return false;
  /* result dim i = producer dim outer[i] = x dim inner[outer[i]] */
  for (intptr_t i = 0; i < rank; ++i)
    composed[i] = inner[outer[i]];
  MlirValue x = operand(producer, 0);
  if (braze_gb_is_identity_perm(composed, rank))
    return braze_gb_types_equal(x, result(op)) && apply(op, b, run, RULE_DOUBLE_TRANSPOSE, x);
  return apply(op, b, run, RULE_DOUBLE_TRANSPOSE, braze_gb_transpose(b, x, composed));
}

/* transpose(broadcast_to(x)) -> broadcast_to(transpose(x)): legal when the perm keeps
 * the dims broadcast_to prepends in front (numpy aligns x at the right) and permutes
 * x's own dims among themselves. The transpose then moves the smaller tensor. */
static bool transpose_of_broadcast(MlirOperation op, GraphBuilder *b, SimplifyRun *run) {
  int64_t perm[BRAZE_MAX_RANK], x_perm[BRAZE_MAX_RANK];
  intptr_t rank = read_perm(op, perm);
  MlirOperation broadcast = braze_gb_defining(operand(op, 0), "broadcast_to");
  if (rank < 0 || mlirOperationIsNull(broadcast))
    return false;
  MlirValue x = operand(broadcast, 0);
  intptr_t x_rank = braze_rank(mlirValueGetType(x)), lead = rank - x_rank;
  if (lead < 0)
    return false;
  for (intptr_t i = 0; i < rank; ++i)
    if ((i < lead) != (perm[i] < lead))
      return false;
  for (intptr_t j = 0; j < x_rank; ++j)
    x_perm[j] = perm[lead + j] - lead;
  if (!braze_gb_is_identity_perm(x_perm, x_rank))
    x = braze_gb_transpose(b, x, x_perm);
  MlirValue moved = braze_gb_broadcast_to(b, x, mlirValueGetType(result(op)));
  return apply(op, b, run, RULE_TRANSPOSE_OF_BROADCAST, moved);
}

/* reshape(reshape(x)) -> reshape(x); a reshape to its input's type vanishes. */
static bool reshape_chain(MlirOperation op, GraphBuilder *b, SimplifyRun *run) {
  MlirValue x = operand(op, 0);
  if (braze_gb_types_equal(x, result(op)))
    return apply(op, b, run, RULE_RESHAPE_CHAIN, x);
  MlirOperation producer = braze_gb_defining(x, "reshape");
  if (mlirOperationIsNull(producer))
    return false;
  MlirValue source = operand(producer, 0);
  MlirType type = mlirValueGetType(result(op));
  if (braze_gb_types_equal(source, result(op)))
    return apply(op, b, run, RULE_RESHAPE_CHAIN, source);
  int64_t shape[BRAZE_MAX_RANK];
  intptr_t rank = braze_shape(type, shape);
  MlirValue direct = rank <= BRAZE_MAX_RANK ? braze_gb_reshape(b, source, shape, rank) : (MlirValue){NULL};
  return !mlirValueIsNull(direct) && apply(op, b, run, RULE_RESHAPE_CHAIN, direct);
}

static bool broadcast_noop(MlirOperation op, GraphBuilder *b, SimplifyRun *run) {
  return braze_gb_types_equal(operand(op, 0), result(op)) && apply(op, b, run, RULE_BROADCAST_NOOP, operand(op, 0));
}

/* select(splat c, t, f) -> t or f, broadcast to the result shape if smaller. */
static bool select_const(MlirOperation op, GraphBuilder *b, SimplifyRun *run) {
  double cond;
  if (mlirOperationGetNumOperands(op) != 3 || !braze_gb_splat_value(operand(op, 0), &cond))
    return false;
  MlirValue chosen = operand(op, cond != 0 ? 1 : 2);
  MlirType type = mlirValueGetType(result(op));
  if (!braze_gb_types_equal(chosen, result(op))) {
    if (!mlirTypeEqual(braze_element_type(mlirValueGetType(chosen)), braze_element_type(type)))
      return false;
    chosen = braze_gb_broadcast_to(b, chosen, type);
  }
  return apply(op, b, run, RULE_SELECT_CONST, chosen);
}

/* ---- contractions ---- */

/* batch_matmul(a[..., M, K], w[K, N]) -> reshape(matmul(reshape(a, [P * M, K]), w))
 * when M < SHARED_WEIGHT_MAX_ROWS and P >= SHARED_WEIGHT_MIN_PRODUCTS: a weight shared
 * by many batches of few rows is one matmul of P * M rows. Exporters write a linear layer on [S, B, E] activations so (PyTorch's
 * attention in-projection with its sequence-first layout), and as a batch_matmul the
 * template would run P products of M = B rows each (B = 2: most of every register tile
 * idle, the weight streamed P times). The reshapes are views. With M at least a
 * register tile's rows the batch_matmul stays: its epilogues (bias, activation) read
 * it directly, where through the reshape they would not fuse. */
enum { SHARED_WEIGHT_MAX_ROWS = 16, SHARED_WEIGHT_MIN_PRODUCTS = 16 };

static bool shared_weight_matmul(MlirOperation op, GraphBuilder *b, SimplifyRun *run) {
  MlirType at = mlirValueGetType(operand(op, 0)), wt = mlirValueGetType(operand(op, 1));
  MlirType rt = mlirValueGetType(result(op));
  intptr_t rank = braze_rank(at);
  if (braze_rank(wt) != 2 || rank < 3 || rank > BRAZE_MAX_RANK || braze_rank(rt) != rank ||
      !mlirTypeEqual(braze_element_type(at), braze_element_type(rt)) || !mlirShapedTypeHasStaticShape(at))
    return false;
  int64_t shape[BRAZE_MAX_RANK], rows[2];
  braze_shape(at, shape);
  rows[0] = 1;
  for (intptr_t d = 0; d + 1 < rank; ++d)
    rows[0] *= shape[d];
  if (shape[rank - 2] >= SHARED_WEIGHT_MAX_ROWS || rows[0] / shape[rank - 2] < SHARED_WEIGHT_MIN_PRODUCTS)
    return false;
  rows[1] = shape[rank - 1];
  MlirValue flat = braze_gb_reshape(b, operand(op, 0), rows, 2);
  MlirValue product = mlirValueIsNull(flat) ? flat : braze_gb_matmul(b, flat, operand(op, 1));
  if (mlirValueIsNull(product))
    return false;
  braze_shape(rt, shape);
  return apply(op, b, run, RULE_SHARED_WEIGHT_MATMUL, braze_gb_reshape(b, product, shape, rank));
}

/* batch_matmul(transpose(x, perm), w[K, N]) -> transpose(batch_matmul(x, w), perm) when
 * perm keeps K last: a shared weight commutes with any order of the rows. PyTorch's
 * batch_first encoder layer transposes its [B, S, E] input to [S, B, E] before the
 * in-projection; the product then reads x as it is stored (a template's A plainly, where
 * through the transpose the tensor-core template does not take it) and the transpose moves
 * to the result, a view its consumers (q, k and v's slices) compose with. */
static bool matmul_of_transposed_rows(MlirOperation op, GraphBuilder *b, SimplifyRun *run) {
  MlirOperation tr = braze_gb_defining(operand(op, 0), "transpose");
  int64_t perm[BRAZE_MAX_RANK];
  intptr_t rank = mlirOperationIsNull(tr) ? 0 : read_perm(tr, perm);
  MlirType wt = mlirValueGetType(operand(op, 1)), rt = mlirValueGetType(result(op));
  if (rank < 3 || perm[rank - 1] != rank - 1 || braze_rank(wt) != 2 || braze_rank(rt) != rank)
    return false;
  MlirValue x = operand(tr, 0);
  int64_t shape[BRAZE_MAX_RANK];
  braze_shape(mlirValueGetType(x), shape);
  shape[rank - 1] = mlirShapedTypeGetDimSize(wt, 1);
  MlirValue operands[2] = {x, operand(op, 1)};
  MlirType product_type = braze_gb_tensor_type(b->ctx, shape, rank, braze_element_type(rt));
  MlirOperation product = braze_gb_create(b, "batch_matmul", operands, 2, product_type, NULL, 0);
  return apply(op, b, run, RULE_MATMUL_OF_TRANSPOSED_ROWS, braze_gb_transpose(b, mlirOperationGetResult(product, 0), perm));
}

const SimplifyPattern simplify_rule_patterns[] = {
    {RULE_ADD_ZERO, "add", add_zero},
    {RULE_SUB_ZERO, "sub", sub_zero},
    {RULE_MUL_ONE, "mul", mul_one},
    {RULE_DIV_ONE, "div", div_one},
    {RULE_DOUBLE_TRANSPOSE, "transpose", double_transpose},
    {RULE_TRANSPOSE_OF_BROADCAST, "transpose", transpose_of_broadcast},
    {RULE_RESHAPE_CHAIN, "reshape", reshape_chain},
    {RULE_BROADCAST_NOOP, "broadcast_to", broadcast_noop},
    {RULE_SELECT_CONST, "select", select_const},
    {RULE_MATMUL_OF_TRANSPOSED_ROWS, "batch_matmul", matmul_of_transposed_rows},
    {RULE_SHARED_WEIGHT_MATMUL, "batch_matmul", shared_weight_matmul},
};
const size_t simplify_num_rule_patterns = sizeof simplify_rule_patterns / sizeof *simplify_rule_patterns;
