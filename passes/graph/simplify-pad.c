/* graph-simplify rule window-zero-pad: a window read of an input zero-padded by
 * concats reads the gather-select padding form instead.
 *
 * A hand-written (or imported) pool or conv often pads its channels-last input x
 * [B, S1..Sn, C] with zeros as a chain of concats with zero splat constants around x,
 * one or two per padded spatial dim, then takes window(.) of the result. At loop level
 * each concat is a kernel of its own (a tensor.empty and insert_slices), and every
 * kernel copies the whole tensor: two or more passes over the activations before the
 * window's consumer runs. This rule rewrites
 *   window(concat(zeros, ... x ..., zeros))
 *   -> window(reshape(select(inside, gather(reshape(x, [B, L, C]), positions, 1), 0)))
 * with positions a constant [Lp] table of the padded positions' places in x (-1 in the
 * padding) and inside its [Lp, 1] mask: the form graph-decompose gives a padded conv
 * and the ONNX importer a padded pool (decision 0019). It is one pointwise kernel
 * that fusion places in the window's consumer (a pool's reduction reads x directly).
 *
 * Applied when each concat of the chain (all single-use) has one operand a zero splat
 * graph.constant and pads a spatial dim (1..n) of a window operand of rank n + 2, and
 * the table has at most 2^26 entries and x fewer than 2^31 positions; other chains are
 * left alone (a concat along the batch or channel dim, a non-zero constant). */
#include "dialects/graph/graph.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "passes/graph/simplify.h"
#include "passes/graph/zero-pad.h"
#include "support/context.h"

/* The largest position table this rule builds (entries), as graph-decompose's. */
enum { MAX_PAD_TABLE = 1 << 26 };

/* x padded: the concat chain's inner operand and the zeros before and after it per dim. */
typedef struct {
  MlirValue x;
  int64_t before[BRAZE_MAX_RANK], after[BRAZE_MAX_RANK];
} ZeroPad;

static bool is_zero_constant(MlirValue v) {
  double value;
  return !mlirOperationIsNull(braze_gb_defining(v, "constant")) && braze_gb_splat_value(v, &value) && value == 0.0;
}

/* Peel the chain of zero-padding concats off `v` (rank `rank`): spatial dims only. */
static bool peel_zero_pad(MlirValue v, intptr_t rank, ZeroPad *pad) {
  for (intptr_t d = 0; d < rank; ++d)
    pad->before[d] = pad->after[d] = 0;
  int peeled = 0;
  for (MlirOperation c = braze_gb_defining(v, "concat"); !mlirOperationIsNull(c);
       c = braze_gb_defining(v, "concat")) {
    int64_t dim;
    if (!braze_attr_i64(c, "dim", &dim) || dim < 1 || dim > rank - 2 || !braze_single_use(v))
      break;
    MlirValue lhs = mlirOperationGetOperand(c, 0), rhs = mlirOperationGetOperand(c, 1);
    bool zero_before = is_zero_constant(lhs), zero_after = !zero_before && is_zero_constant(rhs);
    if (!zero_before && !zero_after)
      break;
    MlirValue zeros = zero_before ? lhs : rhs;
    int64_t width = mlirShapedTypeGetDimSize(mlirValueGetType(zeros), dim);
    if (zero_before)
      pad->before[dim] += width;
    else
      pad->after[dim] += width;
    v = zero_before ? rhs : lhs;
    ++peeled;
  }
  pad->x = v;
  return peeled > 0;
}

static bool window_zero_pad(MlirOperation op, GraphBuilder *b, SimplifyRun *run) {
  MlirValue operand = mlirOperationGetOperand(op, 0);
  MlirType t = mlirValueGetType(operand);
  intptr_t rank = braze_is_ranked_tensor(t) ? braze_rank(t) : 0;
  ZeroPad pad;
  if (rank < 3 || rank > BRAZE_MAX_RANK || !peel_zero_pad(operand, rank, &pad))
    return false;
  MlirValue padded = braze_gb_zero_pad(b, pad.x, pad.before, pad.after, MAX_PAD_TABLE);
  if (mlirValueIsNull(padded))
    return false;
  intptr_t num_attrs = mlirOperationGetNumAttributes(op);
  MlirNamedAttribute attrs[8];
  for (intptr_t i = 0; i < num_attrs && i < 8; ++i)
    attrs[i] = mlirOperationGetAttribute(op, i);
  MlirValue w = mlirOperationGetResult(braze_gb_create(b, "window", &padded, 1, mlirValueGetType(mlirOperationGetResult(op, 0)),
                                                       attrs, num_attrs < 8 ? num_attrs : 8),
                                       0);
  MlirLocation loc = mlirOperationGetLocation(op);
  braze_gb_replace(b, op, w);
  simplify_applied(run, loc, RULE_WINDOW_ZERO_PAD, NULL);
  return true;
}

const SimplifyPattern simplify_pad_patterns[] = {{RULE_WINDOW_ZERO_PAD, "window", window_zero_pad}};
const size_t simplify_num_pad_patterns = sizeof simplify_pad_patterns / sizeof *simplify_pad_patterns;
