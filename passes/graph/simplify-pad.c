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
#include <stdlib.h>

#include "dialects/graph/graph.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "passes/graph/simplify.h"
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

static bool single_use(MlirValue v) {
  MlirOpOperand use = mlirValueGetFirstUse(v);
  return !mlirOpOperandIsNull(use) && mlirOpOperandIsNull(mlirOpOperandGetNextUse(use));
}

/* Peel the chain of zero-padding concats off `v` (rank `rank`): spatial dims only. */
static bool peel_zero_pad(MlirValue v, intptr_t rank, ZeroPad *pad) {
  for (intptr_t d = 0; d < rank; ++d)
    pad->before[d] = pad->after[d] = 0;
  int peeled = 0;
  for (MlirOperation c = braze_gb_defining(v, "concat"); !mlirOperationIsNull(c);
       c = braze_gb_defining(v, "concat")) {
    int64_t dim;
    if (!braze_attr_i64(c, "dim", &dim) || dim < 1 || dim > rank - 2 || !single_use(v))
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

/* positions[q] = x's flattened spatial position that padded position q holds, or -1;
 * NULL when the table passes the limit. */
static int32_t *pad_positions(const int64_t *in, const ZeroPad *pad, intptr_t rank, int64_t *lp) {
  int64_t l = 1;
  *lp = 1;
  for (intptr_t d = 1; d < rank - 1; ++d) {
    l *= in[d];
    *lp *= in[d] + pad->before[d] + pad->after[d];
    if (*lp > MAX_PAD_TABLE || l >= INT32_MAX)
      return NULL;
  }
  int32_t *idx = malloc((size_t)*lp * sizeof *idx);
  for (int64_t q = 0; q < *lp; ++q) {
    int64_t rest = q, pos = 0, stride = 1;
    bool inside = true;
    for (intptr_t d = rank - 2; d >= 1; --d) {
      int64_t size = in[d] + pad->before[d] + pad->after[d], at = rest % size - pad->before[d];
      rest /= size;
      inside = inside && at >= 0 && at < in[d];
      pos += at * stride;
      stride *= in[d];
    }
    idx[q] = inside ? (int32_t)pos : -1;
  }
  return idx;
}

/* select(inside, gather(reshape(x, [B, L, C]), positions, 1), 0) viewed [B, Sp.., C]. */
static MlirValue gather_select_pad(GraphBuilder *b, const ZeroPad *pad, const int64_t *in, intptr_t rank,
                                   const int32_t *idx, int64_t lp) {
  MlirType elem = braze_element_type(mlirValueGetType(pad->x));
  int64_t flat[3] = {in[0], 1, in[rank - 1]}, table_shape[2] = {lp, 1}, padded[BRAZE_MAX_RANK];
  for (intptr_t d = 1; d < rank - 1; ++d)
    flat[1] *= in[d];
  MlirType it = braze_gb_tensor_type(b->ctx, table_shape, 1, mlirIntegerTypeGet(b->ctx, 32));
  MlirValue positions = braze_gb_constant(b, mlirDenseElementsAttrInt32Get(it, lp, idx));
  int *bits = malloc((size_t)lp * sizeof *bits);
  for (int64_t q = 0; q < lp; ++q)
    bits[q] = idx[q] >= 0;
  MlirType bt = braze_gb_tensor_type(b->ctx, table_shape, 2, mlirIntegerTypeGet(b->ctx, 1));
  MlirValue inside = braze_gb_constant(b, mlirDenseElementsAttrBoolGet(bt, lp, bits));
  free(bits);
  MlirValue gather_ops[2] = {braze_gb_reshape(b, pad->x, flat, 3), positions};
  MlirNamedAttribute axis = mlirNamedAttributeGet(mlirIdentifierGet(b->ctx, braze_ref("axis")),
                                                  mlirIntegerAttrGet(mlirIntegerTypeGet(b->ctx, 64), 1));
  int64_t gathered_shape[3] = {in[0], lp, in[rank - 1]};
  MlirType gt = braze_gb_tensor_type(b->ctx, gathered_shape, 3, elem);
  MlirValue gathered = mlirOperationGetResult(braze_gb_create(b, "gather", gather_ops, 2, gt, &axis, 1), 0);
  MlirValue sel[3] = {inside, gathered, braze_gb_scalar(b, elem, 0.0)};
  MlirValue v = mlirOperationGetResult(braze_gb_create(b, "select", sel, 3, gt, NULL, 0), 0);
  for (intptr_t d = 0; d < rank; ++d)
    padded[d] = in[d] + pad->before[d] + pad->after[d];
  return braze_gb_reshape(b, v, padded, rank);
}

static bool window_zero_pad(MlirOperation op, GraphBuilder *b, SimplifyRun *run) {
  MlirValue operand = mlirOperationGetOperand(op, 0);
  MlirType t = mlirValueGetType(operand);
  intptr_t rank = braze_is_ranked_tensor(t) ? braze_rank(t) : 0;
  ZeroPad pad;
  if (rank < 3 || rank > BRAZE_MAX_RANK || !peel_zero_pad(operand, rank, &pad))
    return false;
  int64_t in[BRAZE_MAX_RANK], lp;
  braze_shape(mlirValueGetType(pad.x), in);
  int32_t *idx = pad_positions(in, &pad, rank, &lp);
  if (!idx)
    return false;
  MlirValue padded = gather_select_pad(b, &pad, in, rank, idx, lp);
  free(idx);
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
