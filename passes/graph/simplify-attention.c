/* graph-simplify rules that bring attention's equivalent spellings to the one form
 * that attention's matcher takes (passes/chains/online.c: q.k^T as a batch_matmul of
 * q and k's transpose, a scale by a constant and an additive bias on the scores, the
 * softmax over the keys as graph-decompose writes it, a batch_matmul by v), so that each spelling becomes
 * one chain on the CPU and one flash kernel on CUDA:
 *
 *   scale-out-of-batch-matmul  batch_matmul(mul(q, c), k) -> mul(batch_matmul(q, k), c)
 *                              (div too, on either operand, under a transpose or a
 *                              reshape of it too): the scale on q or on k
 *                              moves to the scores, where the softmax's kernel (or the
 *                              flash kernel's exp) applies it for free;
 *   softmax-stabilize          div(exp(x), reduce_sum(exp(x))) -> the same of x minus
 *                              its row max: graph-decompose's softmax, which the
 *                              matcher reads (a softmax written out with the max is
 *                              that form already); exp(x) alone is a softmax only where
 *                              it does not overflow;
 *   mask-to-bias               select(m, s, c) -> add(s, select(m, 0, c)) for a mask m
 *                              computed at run time and c <= -1e4 (-inf, finfo.min),
 *                              when the select feeds a softmax over the keys: an
 *                              additive bias, which the flash kernel reads per tile
 *                              (a constant mask stays a select: the matcher takes it as
 *                              causal and the kernels skip its blocks);
 *   select-keep-first          select(M, c, x) -> select(not M, x, c) for a constant mask
 *                              M and a scalar c: the kept scores first (the causal
 *                              keep-mask the matcher reads), as masked_fill writes the
 *                              other polarity.
 *
 * Exactness: the scale moves across a sum of products (one rounding more or less per
 * product in bf16; exact for powers of two, as 1/sqrt(64)); s + c rounds to c where
 * |s| is below half of c's ulp, and either way exp(c - max) is 0 after the softmax, with
 * an all-masked row uniform in both forms (every score equal to c). */
#include <stdlib.h>

#include "dialects/graph/graph.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "passes/graph/simplify.h"
#include "support/context.h"

static MlirValue operand(MlirOperation op, intptr_t i) { return mlirOperationGetOperand(op, i); }
static MlirValue result(MlirOperation op) { return mlirOperationGetResult(op, 0); }

static bool apply(MlirOperation op, GraphBuilder *b, SimplifyRun *run, SimplifyRule rule, MlirValue v) {
  if (mlirValueIsNull(v) || !mlirTypeEqual(mlirValueGetType(v), mlirValueGetType(result(op))))
    return false;
  MlirLocation loc = mlirOperationGetLocation(op);
  braze_gb_replace(b, op, v);
  simplify_applied(run, loc, rule, NULL);
  return true;
}

/* The number of uses of `v`, counting up to `limit`. */
static int uses(MlirValue v, int limit) {
  int n = 0;
  for (MlirOpOperand u = mlirValueGetFirstUse(v); !mlirOpOperandIsNull(u) && n < limit; u = mlirOpOperandGetNextUse(u))
    ++n;
  return n;
}

static MlirOperation only_user(MlirValue v) {
  MlirOpOperand u = mlirValueGetFirstUse(v);
  if (mlirOpOperandIsNull(u) || !mlirOpOperandIsNull(mlirOpOperandGetNextUse(u)))
    return (MlirOperation){NULL};
  return mlirOpOperandGetOwner(u);
}

/* Whether `v` is a float constant with one value (a splat of any shape that
 * broadcasts to a scalar: every dim 1); *c gets it. */
static bool scalar_constant(MlirValue v, double *c) {
  MlirType t = mlirValueGetType(v);
  int64_t shape[BRAZE_MAX_RANK];
  intptr_t rank = braze_shape(t, shape);
  if (rank > BRAZE_MAX_RANK || !mlirTypeIsAFloat(braze_element_type(t)))
    return false;
  for (intptr_t d = 0; d < rank; ++d)
    if (shape[d] != 1)
      return false;
  return braze_gb_splat_value(v, c);
}

/* ---- scale-out-of-batch-matmul ---- */

/* The scalar scale of `scaled`: a mul (c on either side) or div by a scalar float
 * constant used once; *x gets the unscaled operand, *c the constant, *is_div the op. */
static bool scalar_scale(MlirValue scaled, MlirValue *x, MlirValue *c, bool *is_div) {
  MlirOperation sc = braze_gb_defining(scaled, "mul");
  *is_div = false;
  if (mlirOperationIsNull(sc)) {
    sc = braze_gb_defining(scaled, "div");
    *is_div = true;
  }
  if (mlirOperationIsNull(sc) || uses(scaled, 2) != 1)
    return false;
  double v;
  intptr_t ci = scalar_constant(operand(sc, 1), &v) ? 1 : (!*is_div && scalar_constant(operand(sc, 0), &v)) ? 0 : -1;
  if (ci < 0 || !braze_gb_types_equal(operand(sc, 1 - ci), scaled) || (*is_div && v == 0))
    return false;
  *x = operand(sc, 1 - ci);
  *c = operand(sc, ci);
  return true;
}

/* batch_matmul(mul(x, c), y) -> mul(batch_matmul(x, y), c), and the same for div by c,
 * a scale on the right operand, c on the mul's left, and a scale under a transpose or
 * reshape of the operand (k * c, then transposed: the view is rebuilt on x); the scaled
 * operand (and the view) must have no other use (else both forms would be computed). */
static bool scale_out_of_batch_matmul(MlirOperation op, GraphBuilder *b, SimplifyRun *run) {
  for (intptr_t side = 0; side < 2; ++side) {
    MlirValue scaled = operand(op, side), x, c;
    MlirOperation view = braze_gb_defining(scaled, "transpose");
    if (mlirOperationIsNull(view))
      view = braze_gb_defining(scaled, "reshape");
    bool is_div;
    if (!mlirOperationIsNull(view) && uses(scaled, 2) == 1 && scalar_scale(operand(view, 0), &x, &c, &is_div)) {
      MlirOperation moved = mlirOperationClone(view); /* the view of the unscaled operand */
      mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(op), op, moved);
      mlirOperationSetOperand(moved, 0, x);
      x = result(moved);
    } else if (!scalar_scale(scaled, &x, &c, &is_div)) {
      continue;
    }
    MlirValue operands[2] = {operand(op, 0), operand(op, 1)};
    operands[side] = x;
    MlirValue product =
        mlirOperationGetResult(braze_gb_create(b, "batch_matmul", operands, 2, mlirValueGetType(result(op)), NULL, 0), 0);
    return apply(op, b, run, RULE_SCALE_OUT_OF_BATCH_MATMUL, braze_gb_binary(b, is_div ? "div" : "mul", product, c));
  }
  return false;
}

/* ---- softmax-stabilize ---- */

/* The single dim a keepdim reduction `op` reduces, or -1. */
static int64_t reduced_dim(MlirOperation op) {
  int64_t dims[BRAZE_MAX_RANK];
  MlirAttribute k = mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("keepdim"));
  bool keep = !mlirAttributeIsNull(k) && mlirAttributeIsABool(k) && mlirBoolAttrGetValue(k);
  if (!keep || braze_attr_i64_array(op, "dims", dims, BRAZE_MAX_RANK) != 1)
    return -1;
  return dims[0];
}

/* Whether `x` is sub(y, reduce_<kind>(y, [d], keepdim)): scores shifted by a row
 * statistic of theirs (kind "max": graph-decompose's softmax). */
static bool shifted_by(MlirValue x, int64_t d, const char *kind) {
  MlirOperation shift = braze_gb_defining(x, "sub");
  MlirOperation stat = mlirOperationIsNull(shift) ? shift : braze_gb_defining(operand(shift, 1), kind);
  return !mlirOperationIsNull(stat) && mlirValueEqual(operand(stat, 0), operand(shift, 0)) && reduced_dim(stat) == d;
}

static bool shifted_by_max(MlirValue x, int64_t d) { return shifted_by(x, d, "reduce_max"); }

/* div(exp(x), reduce_sum(exp(x), [d], keepdim)) -> div(exp(x - m), reduce_sum(exp(x - m)))
 * with m = reduce_max(x, [d], keepdim): graph-decompose's softmax, which the row
 * reductions' fusion and attention's matcher take; exp(x) alone is a softmax only where
 * it does not overflow. exp(x) must have no other use than the sum and the quotient. */
static bool softmax_stabilize(MlirOperation op, GraphBuilder *b, SimplifyRun *run) {
  MlirValue e = operand(op, 0);
  MlirOperation sum = braze_gb_defining(operand(op, 1), "reduce_sum"), exp = braze_gb_defining(e, "exp");
  if (mlirOperationIsNull(sum) || mlirOperationIsNull(exp) || !mlirValueEqual(operand(sum, 0), e) || uses(e, 3) != 2 ||
      !braze_gb_types_equal(e, result(op)) || !mlirTypeIsAFloat(braze_element_type(mlirValueGetType(e))))
    return false;
  int64_t d = reduced_dim(sum);
  MlirValue x = operand(exp, 0);
  if (d < 0 || shifted_by_max(x, d) || shifted_by(x, d, "reduce_min") || shifted_by(x, d, "reduce_mean"))
    return false; /* shifted already: the author chose the statistic */
  MlirValue max = braze_gb_reduce(b, "reduce_max", x, &d, 1, true);
  MlirValue shifted = braze_gb_unary(b, "exp", braze_gb_binary(b, "sub", x, max));
  MlirValue total = braze_gb_reduce(b, "reduce_sum", shifted, &d, 1, true);
  return apply(op, b, run, RULE_SOFTMAX_STABILIZE, braze_gb_binary(b, "div", shifted, total));
}

/* ---- mask-to-bias ---- */

/* Whether `v` is read only by a softmax over its last dim: graph.softmax, or
 * graph-decompose's form of it (its row max, and the shift by that max). */
static bool feeds_key_softmax(MlirValue v) {
  int64_t last = braze_rank(mlirValueGetType(v)) - 1, dim;
  MlirOperation user = only_user(v);
  if (!mlirOperationIsNull(user))
    return braze_op_is(user, "graph.softmax") && braze_attr_i64(user, "dim", &dim) && dim == last;
  if (uses(v, 3) != 2)
    return false;
  for (MlirOpOperand u = mlirValueGetFirstUse(v); !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u)) {
    MlirOperation op = mlirOpOperandGetOwner(u);
    if (braze_op_is(op, "graph.reduce_max") ? reduced_dim(op) != last
                                             : !(braze_op_is(op, "graph.sub") && mlirOpOperandGetOperandNumber(u) == 0 &&
                                                 shifted_by_max(result(op), last)))
      return false;
  }
  return true;
}

/* select(m, s, c) -> add(s, select(m, 0, c)) and select(m, c, s) -> add(s, select(m, c, 0)),
 * m not a constant, c a scalar constant <= -1e4, the select read by a softmax over the
 * keys. */
static bool mask_to_bias(MlirOperation op, GraphBuilder *b, SimplifyRun *run) {
  MlirValue m = operand(op, 0);
  if (!mlirAttributeIsNull(braze_gb_constant_value(m)) || !mlirOperationIsNull(braze_gb_defining(m, "constant")) ||
      !feeds_key_softmax(result(op)))
    return false;
  for (intptr_t side = 2; side >= 1; --side) { /* side: the operand that is c */
    double c;
    MlirValue s = operand(op, 3 - side);
    if (!scalar_constant(operand(op, side), &c) || !(c <= -1e4) || !braze_gb_types_equal(s, result(op)))
      continue;
    MlirType elem = braze_element_type(mlirValueGetType(s));
    MlirValue zero = braze_gb_scalar(b, elem, 0.0), fill = operand(op, side);
    if (!mlirTypeEqual(braze_element_type(mlirValueGetType(fill)), elem))
      return false;
    int64_t ms[BRAZE_MAX_RANK], fs[BRAZE_MAX_RANK], shape[BRAZE_MAX_RANK];
    intptr_t mr = braze_shape(mlirValueGetType(m), ms), fr = braze_shape(mlirValueGetType(fill), fs), rank = 0;
    if (mr > BRAZE_MAX_RANK || fr > BRAZE_MAX_RANK || !braze_broadcast_shapes(ms, mr, fs, fr, shape, &rank))
      return false;
    MlirValue sel[3] = {m, side == 2 ? zero : fill, side == 2 ? fill : zero};
    MlirValue bias = braze_gb_make(b, "select", sel, 3, shape, rank, elem, NULL, 0);
    return apply(op, b, run, RULE_MASK_TO_BIAS, braze_gb_binary(b, "add", s, bias));
  }
  return false;
}

/* ---- select-keep-first ---- */

/* select(M, c, x) -> select(not M, x, c) for a constant boolean mask M (not a splat:
 * select-const takes those) and a scalar constant c where x is not one: the kept values
 * first, the fill last, as attention's matcher reads a causal keep-mask
 * (masked_fill(tril(ones) == 0, -inf) exports the fill-mask's polarity). */
static bool select_keep_first(MlirOperation op, GraphBuilder *b, SimplifyRun *run) {
  MlirAttribute mask = braze_gb_constant_value(operand(op, 0));
  double c, x;
  if (mlirAttributeIsNull(mask) || !mlirAttributeIsADenseElements(mask) || mlirDenseElementsAttrIsSplat(mask) ||
      !scalar_constant(operand(op, 1), &c) || scalar_constant(operand(op, 2), &x))
    return false;
  MlirType mt = mlirAttributeGetType(mask), me = mlirShapedTypeGetElementType(mt);
  if (!mlirTypeIsAInteger(me) || mlirIntegerTypeGetWidth(me) != 1)
    return false;
  intptr_t n = mlirElementsAttrGetNumElements(mask);
  if (n > (intptr_t)1 << 24)
    return false;
  int *keep = malloc((size_t)n * sizeof *keep);
  if (!keep)
    return false;
  for (intptr_t i = 0; i < n; ++i)
    keep[i] = !mlirDenseElementsAttrGetBoolValue(mask, i);
  MlirValue flipped = braze_gb_constant(b, mlirDenseElementsAttrBoolGet(mt, n, keep));
  free(keep);
  MlirValue sel[3] = {flipped, operand(op, 2), operand(op, 1)};
  MlirValue r = mlirOperationGetResult(braze_gb_create(b, "select", sel, 3, mlirValueGetType(result(op)), NULL, 0), 0);
  return apply(op, b, run, RULE_SELECT_KEEP_FIRST, r);
}

const SimplifyPattern simplify_attention_patterns[] = {
    {RULE_SELECT_KEEP_FIRST, "select", select_keep_first},
    {RULE_SCALE_OUT_OF_BATCH_MATMUL, "batch_matmul", scale_out_of_batch_matmul},
    {RULE_SOFTMAX_STABILIZE, "div", softmax_stabilize},
    {RULE_MASK_TO_BIAS, "select", mask_to_bias},
};
const size_t simplify_num_attention_patterns = sizeof simplify_attention_patterns / sizeof *simplify_attention_patterns;
