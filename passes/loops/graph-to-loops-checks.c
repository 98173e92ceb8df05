/* graph-to-loops' input checks (see passes/loops/graph-to-loops-checks.h). */
#include "passes/loops/graph-to-loops-checks.h"

#include <string.h>

#include "dialects/graph/graph.h"
#include "mlir-c/BuiltinTypes.h"
#include "support/context.h"
#include "support/diag.h"

static bool is_refused(MlirOperation op) {
  const char *m = braze_graph_op_mnemonic(op);
  return braze_graph_op_class(op) == GRAPH_COMPOSITE || (m && strcmp(m, "reduce_var") == 0);
}

/* ---- input checks ----
 * The graph verifier normally rejects all of this; these checks keep the pass from
 * indexing out of bounds when it runs on unverified IR (--no-verify-graph). */

static bool ranks_fit(MlirOperation op) {
  for (intptr_t i = 0, n = mlirOperationGetNumOperands(op); i <= n; ++i) {
    MlirValue v = i < n ? mlirOperationGetOperand(op, i) : mlirOperationGetResult(op, 0);
    MlirType t = mlirValueGetType(v);
    if (!mlirTypeIsARankedTensor(t) || !mlirShapedTypeHasStaticShape(t) || braze_rank(t) > BRAZE_MAX_RANK)
      return false;
  }
  return true;
}

/* An i64 array attribute of `rank` entries, each in [0, bound) when bound > 0. */
static bool array_fits(MlirOperation op, const char *name, intptr_t rank, int64_t bound) {
  int64_t values[BRAZE_MAX_RANK];
  intptr_t n = braze_attr_i64_array(op, name, values, BRAZE_MAX_RANK);
  if (n < 0 || n > BRAZE_MAX_RANK || (rank >= 0 && n != rank))
    return false;
  for (intptr_t i = 0; bound > 0 && i < n; ++i)
    if (values[i] < 0 || values[i] >= bound)
      return false;
  return true;
}

static intptr_t operand_rank(MlirOperation op, intptr_t i) {
  return braze_rank(mlirValueGetType(mlirOperationGetOperand(op, i)));
}

static bool attributes_fit(MlirOperation op) {
  const char *m = braze_graph_op_mnemonic(op);
  intptr_t rank = braze_rank(mlirValueGetType(mlirOperationGetResult(op, 0)));
  intptr_t n = mlirOperationGetNumOperands(op);
  switch (braze_graph_op_class(op)) {
  case GRAPH_REDUCE:
    return array_fits(op, "dims", -1, operand_rank(op, 0));
  case GRAPH_CONTRACTION:
    return n == 2 && rank >= 2 && operand_rank(op, 0) >= 2 && operand_rank(op, 1) >= 2 &&
           operand_rank(op, 0) <= rank && operand_rank(op, 1) <= rank;
  case GRAPH_SHAPE:
    if (strcmp(m, "transpose") == 0)
      return array_fits(op, "perm", rank, rank);
    if (strcmp(m, "slice") == 0)
      return array_fits(op, "starts", rank, 0) && array_fits(op, "strides", rank, 0);
    if (strcmp(m, "window") == 0) /* rank 2n + 2, n entries each */
      return rank % 2 == 0 && operand_rank(op, 0) == rank / 2 + 1 && array_fits(op, "kernel", rank / 2 - 1, 0) && array_fits(op, "strides", rank / 2 - 1, 0) &&
             array_fits(op, "dilations", rank / 2 - 1, 0);
    if (strcmp(m, "concat") == 0) {
      int64_t dim = -1;
      return braze_attr_i64(op, "dim", &dim) && dim >= 0 && dim < rank;
    }
    return strcmp(m, "broadcast_to") != 0 || operand_rank(op, 0) <= rank;
  case GRAPH_GATHER: {
    int64_t axis = -1;
    MlirType idx = braze_element_type(mlirValueGetType(mlirOperationGetOperand(op, 1)));
    return n == 2 && braze_attr_i64(op, "axis", &axis) && axis >= 0 && axis < operand_rank(op, 0) &&
           mlirTypeIsAInteger(idx) &&
           (strcmp(m, "gather") == 0 ? rank == operand_rank(op, 0) - 1 + operand_rank(op, 1)
                                     : rank == operand_rank(op, 0) && operand_rank(op, 1) == rank);
  }
  default:
    for (intptr_t i = 0; i < n; ++i) /* broadcasting aligns operands to the right */
      if (operand_rank(op, i) > rank)
        return false;
    return true;
  }
}

static bool check_op(MlirOperation op) {
  if (mlirOperationGetNumResults(op) == 1 && ranks_fit(op) && attributes_fit(op))
    return true;
  MlirStringRef name = braze_op_name(op);
  braze_emit_error(mlirOperationGetLocation(op),
                   "graph-to-loops: '%.*s' has operands, results or attributes it cannot lower (run graph-verify)",
                   (int)name.length, name.data);
  return false;
}

bool braze_graph_to_loops_check(const BrazeOpList *ops) {
  bool ok = true;
  for (size_t i = 0; i < ops->count; ++i) {
    if (!is_refused(ops->ops[i])) {
      ok = check_op(ops->ops[i]) && ok;
      continue;
    }
    MlirStringRef name = braze_op_name(ops->ops[i]);
    braze_emit_error(mlirOperationGetLocation(ops->ops[i]),
                     "'%.*s' is a composite op: run graph-decompose before graph-to-loops", (int)name.length,
                     name.data);
    ok = false;
  }
  return ok;
}

