/* The bias of an attention chain in the online form: what the scores' addend is and how
 * the chain reads it (part of form-row-chains; see passes/chains/online.h).
 *
 * The addend of f(s) + bias in the softmax's kernels is one of
 *   - a tensor's element (an additive mask, a position bias), read by (batch..., m, n)
 *     with any of them broadcast, n innermost;
 *   - select(m, t, f) of an i1 mask and two constants (mask-to-bias's where);
 *   - (x + shift) * mul of one float tensor's element x: a bias the graph computes from a
 *     small input, as BERT does from its [batch, keys] 0/1 mask ((1 - mask) * finfo.min,
 *     (mask - 1) * 10000, mask * c). The chain takes x as its fourth argument and
 *     evaluates the function per score (kernel.online's bias_shift and bias_mul), so the
 *     [batch, 1, 1, keys] (or [batch, 1, queries, keys]) bias is never written: on CUDA
 *     the flash kernels read the mask itself. Where x is an i1 mask converted to float
 *     (uitofp, sitofp), the function has two values: the select form, with them
 *     computed here in f32.
 * The spellings reduce to that form exactly: c - x is -(x - c) and (c - x) * c' is
 * (x - c) * -c' in IEEE arithmetic, so the chain's bias is bit for bit the graph's f32
 * bias (a bf16/f16 graph rounds after each op; the chain computes the function in f32,
 * as it keeps the scores in f32).
 *
 * A constant bias read by a permutation of the loops (T5's relative position bias,
 * folded to [queries, keys, heads] and read as [1, heads, queries, keys]) is laid out at
 * compile time in loop order (online_bias_relayout): the chain reads a plain [heads,
 * queries, keys] constant and no kernel transposes it per call. */
#include <stdlib.h>
#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "passes/chains/online.h"
#include "support/context.h"

static MlirBlock body_of(MlirOperation op) { return mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0)); }

static int num_inputs(MlirOperation generic) { return (int)mlirOperationGetNumOperands(generic) - 1; }

/* Operand i of op as a float constant. */
static bool const_operand(MlirOperation op, int i, double *c) {
  return online_constant_of(online_strip_casts(mlirOperationGetOperand(op, i)), c);
}

/* Whether `v` is x + shift (x a float body argument of g through casts: *arg) spelled
 * x, x + c, c + x, x - c, c - x (sign -1: the value is -(x - c)) or -x. x may also be an
 * i1 argument converted to float (*one: what true converts to, 1 by uitofp, -1 by
 * sitofp; 0 for a float argument). */
static bool shifted_arg(MlirOperation g, MlirValue v, int *arg, double *shift, double *sign, double *one) {
  *shift = 0.0;
  *sign = 1.0;
  *one = 0.0;
  v = online_strip_casts(v);
  MlirOperation op = online_def_op(v);
  double c;
  MlirValue x = v;
  if (!mlirOperationIsNull(op) && braze_op_is(op, "arith.addf") && const_operand(op, 1, &c)) {
    *shift = c, x = mlirOperationGetOperand(op, 0);
  } else if (!mlirOperationIsNull(op) && braze_op_is(op, "arith.addf") && const_operand(op, 0, &c)) {
    *shift = c, x = mlirOperationGetOperand(op, 1);
  } else if (!mlirOperationIsNull(op) && braze_op_is(op, "arith.subf") && const_operand(op, 1, &c)) {
    *shift = -c, x = mlirOperationGetOperand(op, 0);
  } else if (!mlirOperationIsNull(op) && braze_op_is(op, "arith.subf") && const_operand(op, 0, &c)) {
    *shift = -c, *sign = -1.0, x = mlirOperationGetOperand(op, 1);
  } else if (!mlirOperationIsNull(op) && braze_op_is(op, "arith.negf")) {
    *sign = -1.0, x = mlirOperationGetOperand(op, 0);
  }
  MlirOperation conv = online_def_op(online_strip_casts(x));
  if (!mlirOperationIsNull(conv) && (braze_op_is(conv, "arith.uitofp") || braze_op_is(conv, "arith.sitofp"))) {
    *arg = online_body_arg_of(g, mlirOperationGetOperand(conv, 0));
    if (*arg < 0)
      return false;
    MlirType t = mlirValueGetType(mlirBlockGetArgument(body_of(g), *arg));
    *one = braze_op_is(conv, "arith.uitofp") ? 1.0 : -1.0;
    return mlirTypeIsAInteger(t) && mlirIntegerTypeGetWidth(t) == 1;
  }
  *arg = online_body_arg_of(g, x);
  return *arg >= 0 && mlirTypeIsAFloat(mlirValueGetType(mlirBlockGetArgument(body_of(g), *arg)));
}

/* `v` as (x + shift) * mul: a product of a shifted argument and a constant, or a shifted
 * argument alone (mul 1, -1 for c - x and -x). An i1 argument's two values are then
 * constants: *sel on, computed in f32 as the graph computes them. */
static int affine_arg(MlirOperation g, MlirValue v, OnlineBiasAffine *aff, OnlineBiasSelect *sel) {
  MlirValue u = online_strip_casts(v);
  MlirOperation op = online_def_op(u);
  double c = 1.0, sign, one;
  int arg = -1;
  if (!mlirOperationIsNull(op) && braze_op_is(op, "arith.mulf")) {
    for (int side = 0; side < 2 && arg < 0; ++side)
      if (!const_operand(op, side, &c) ||
          !shifted_arg(g, mlirOperationGetOperand(op, 1 - side), &arg, &aff->shift, &sign, &one))
        arg = -1;
  } else if (!shifted_arg(g, u, &arg, &aff->shift, &sign, &one)) {
    arg = -1;
  }
  if (arg < 0)
    return -1;
  aff->mul = sign * c;
  if (one != 0.0) { /* x is 0 or `one`: (x + shift) * mul rounded as f32 arithmetic rounds it */
    float shift = (float)aff->shift, mul = (float)aff->mul, t1 = (float)one + shift, t0 = 0.0f + shift;
    sel->on = true;
    sel->when_true = (double)(t1 * mul);
    sel->when_false = (double)(t0 * mul);
    aff->on = false;
    return arg;
  }
  aff->on = !(aff->shift == 0.0 && aff->mul == 1.0); /* a plain element */
  return arg;
}

int online_bias_operand(MlirOperation g, MlirValue v, int s_in, OnlineBiasSelect *sel, OnlineBiasAffine *aff) {
  sel->on = aff->on = false;
  MlirOperation op = online_def_op(online_strip_casts(v));
  if (!mlirOperationIsNull(op) && braze_op_is(op, "arith.select")) {
    int m = online_body_arg_of(g, mlirOperationGetOperand(op, 0));
    if (m < 0 || m == s_in || m >= num_inputs(g) ||
        !mlirTypeIsAInteger(mlirValueGetType(mlirBlockGetArgument(body_of(g), m))) || !const_operand(op, 1, &sel->when_true) ||
        !const_operand(op, 2, &sel->when_false))
      return -1;
    sel->on = true;
    return m;
  }
  int b = affine_arg(g, v, aff, sel);
  if (b < 0 || b == s_in || b >= num_inputs(g)) {
    aff->on = sel->on = false;
    return -1;
  }
  return b;
}

/* ---- constant biases in loop order ---- */

static MlirAttribute constant_value(MlirValue v) {
  MlirOperation op = online_def_op(v);
  if (mlirOperationIsNull(op) || !braze_op_is(op, "arith.constant"))
    return (MlirAttribute){NULL};
  MlirAttribute a = mlirOperationGetAttributeByName(op, braze_ref("value"));
  if (mlirAttributeIsADenseResourceElements(a)) /* the importer's large constants: f32 ones read */
    return mlirTypeIsAF32(mlirShapedTypeGetElementType(mlirAttributeGetType(a))) ? a : (MlirAttribute){NULL};
  return mlirAttributeIsADenseElements(a) ? a : (MlirAttribute){NULL};
}

bool online_bias_is_constant(MlirValue v) { return !mlirAttributeIsNull(constant_value(v)); }

bool online_bias_same(MlirValue a, MlirValue b) {
  if (mlirValueEqual(a, b))
    return true;
  MlirAttribute x = constant_value(a), y = constant_value(b);
  return !mlirAttributeIsNull(x) && !mlirAttributeIsNull(y) && mlirAttributeEqual(x, y);
}

static int elem_bytes(MlirType e) {
  return mlirTypeIsAF32(e) ? 4 : mlirTypeIsABF16(e) || mlirTypeIsAF16(e) ? 2 : 0;
}

bool online_bias_can_relayout(MlirValue bias, const int8_t *dims, int rank, int loops) {
  MlirAttribute value = constant_value(bias);
  if (mlirAttributeIsNull(value) || elem_bytes(mlirShapedTypeGetElementType(mlirValueGetType(bias))) == 0)
    return false;
  bool seen[ONLINE_MAX_BATCH + 2] = {false}, keys = false;
  for (int r = 0; r < rank; ++r) {
    if (dims[r] < 0)
      continue;
    if (dims[r] >= loops || seen[dims[r]])
      return false;
    seen[dims[r]] = true;
    keys |= dims[r] == loops - 1;
  }
  return keys;
}

/* The constant `value` of type t in loop order: *nt, *nv; oc's bias rank and dims
 * switched to it. */
static bool laid_out(OnlineChain *oc, MlirAttribute value, MlirType t, MlirType el, int eb, int n, MlirType *nt_out,
                     MlirAttribute *nv_out) {
  /* the new dims: the source dims read by loops, in ascending loop order */
  int src[ONLINE_MAX_BATCH + 2], m = 0;
  int8_t dims[ONLINE_MAX_BATCH + 2];
  int64_t shape[ONLINE_MAX_BATCH + 2];
  for (int loop = 0; loop < oc->nb + 2; ++loop)
    for (int r = 0; r < n; ++r)
      if (oc->bias_dims[r] == loop) {
        src[m] = r;
        dims[m] = (int8_t)loop;
        shape[m++] = mlirShapedTypeGetDimSize(t, r);
      }
  MlirType nt = mlirRankedTensorTypeGet(m, shape, el, mlirAttributeGetNull());
  MlirAttribute nv;
  bool resource = mlirAttributeIsADenseResourceElements(value);
  if (!resource && mlirDenseElementsAttrIsSplat(value)) {
    nv = mlirDenseElementsAttrSplatGet(nt, mlirDenseElementsAttrGetSplatValue(value));
  } else {
    int64_t count = 1, stride[ONLINE_MAX_BATCH + 2];
    int64_t inner = 1;
    for (int r = n - 1; r >= 0; --r) { /* the source's row-major strides */
      stride[r] = inner;
      inner *= mlirShapedTypeGetDimSize(t, r);
    }
    for (int j = 0; j < m; ++j) /* broadcast dims (read at 0) drop out */
      count *= shape[j];
    const char *from = resource ? NULL : mlirDenseElementsAttrGetRawData(value);
    char *to = malloc((size_t)(count * eb));
    if (!to)
      return false;
    int64_t idx[ONLINE_MAX_BATCH + 2] = {0};
    for (int64_t i = 0; i < count; ++i) { /* idx: the new tensor's index of element i */
      int64_t at = 0;
      for (int j = 0; j < m; ++j)
        at += idx[j] * stride[src[j]];
      if (resource) {
        float x = mlirDenseFloatResourceElementsAttrGetValue(value, (intptr_t)at);
        memcpy(to + i * eb, &x, sizeof x);
      } else {
        memcpy(to + i * eb, from + at * eb, (size_t)eb);
      }
      for (int j = m - 1; j >= 0 && ++idx[j] == shape[j]; --j)
        idx[j] = 0;
    }
    nv = mlirDenseElementsAttrRawBufferGet(nt, (size_t)(count * eb), to);
    free(to);
  }
  *nt_out = nt;
  *nv_out = nv;
  oc->bias_rank = m;
  memcpy(oc->bias_dims, dims, (size_t)m);
  return true;
}

bool online_bias_relayout(OnlineChain *oc) {
  if ((!oc->bias_relayout && !oc->bias_in_kernel) || oc->bias_relaid)
    return true;
  MlirAttribute value = constant_value(oc->bias);
  MlirType t = mlirValueGetType(oc->bias), el = mlirShapedTypeGetElementType(t);
  int eb = elem_bytes(el), n = oc->bias_rank;
  if (mlirAttributeIsNull(value))
    return false;
  MlirAttribute nv = value;
  MlirType nt = t;
  if (oc->bias_relayout && eb == 0)
    return false;
  if (oc->bias_relayout && !laid_out(oc, value, t, el, eb, n, &nt, &nv))
    return false;
  MlirOperation scores = oc->calls[0];
  MlirOperationState st = mlirOperationStateGet(braze_ref("arith.constant"), mlirOperationGetLocation(scores));
  MlirNamedAttribute attr = mlirNamedAttributeGet(mlirIdentifierGet(mlirTypeGetContext(nt), braze_ref("value")), nv);
  mlirOperationStateAddAttributes(&st, 1, &attr);
  mlirOperationStateAddResults(&st, 1, &nt);
  MlirOperation c = mlirOperationCreate(&st);
  mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(scores), scores, c);
  oc->bias = mlirOperationGetResult(c, 0);
  oc->bias_relaid = true;
  return true;
}
