/* The online-softmax rewrite of an attention chain (see passes/chains/online.h).
 *
 * Matching reads the kernels' linalg bodies, not names: a contraction whose operands
 * are the kernel's arguments, a max reduction of a scaled score, exp of the scaled score
 * minus that max, a sum reduction of the exponentials and their division by the sum,
 * then a contraction of the quotients over the keys. Each refusal returns a named
 * reason that form-row-chains puts in its remark. */
#include "passes/chains/online.h"

#include <math.h>
#include <string.h>

#include "mlir-c/AffineMap.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "support/affine-bounds.h"
#include "support/context.h"

enum { SCORES, ROWMAX, PROBS, OUTPUT };

/* ---- reading kernel bodies ---- */

static MlirBlock body_of(MlirOperation op) { return mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0)); }

static MlirOperation terminator(MlirBlock b) {
  MlirOperation last = {NULL};
  for (MlirOperation op = mlirBlockGetFirstOperation(b); !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    last = op;
  return last;
}

/* The generic that defines `v`, or null. */
static MlirOperation generic_of(MlirValue v) {
  if (!mlirValueIsAOpResult(v))
    return (MlirOperation){NULL};
  MlirOperation op = mlirOpResultGetOwner(v);
  return braze_op_is(op, "linalg.generic") ? op : (MlirOperation){NULL};
}

/* The kernel's one returned value's generic. */
static MlirOperation returned_generic(MlirOperation kernel) {
  MlirOperation ret = terminator(body_of(kernel));
  if (mlirOperationIsNull(ret) || mlirOperationGetNumOperands(ret) != 1)
    return (MlirOperation){NULL};
  return generic_of(mlirOperationGetOperand(ret, 0));
}

/* Which kernel argument `v` is, or -1. */
static int kernel_arg(MlirOperation kernel, MlirValue v) {
  if (!mlirValueIsABlockArgument(v) || !mlirBlockEqual(mlirBlockArgumentGetOwner(v), body_of(kernel)))
    return -1;
  return (int)mlirBlockArgumentGetArgNumber(v);
}

static MlirAffineMap map_of(MlirOperation generic, int i) {
  MlirAttribute maps = mlirOperationGetAttributeByName(generic, braze_ref("indexing_maps"));
  return mlirAffineMapAttrGetValue(mlirArrayAttrGetElement(maps, i));
}

/* Whether map i reads exactly dims[0..n) (a dim < 0: the constant 0). */
static bool map_is(MlirOperation generic, int i, const int *dims, int n) {
  MlirAffineMap map = map_of(generic, i);
  if (mlirAffineMapGetNumResults(map) != n)
    return false;
  for (int r = 0; r < n; ++r) {
    MlirAffineExpr e = mlirAffineMapGetResult(map, r);
    if (dims[r] < 0 ? !(mlirAffineExprIsAConstant(e) && mlirAffineConstantExprGetValue(e) == 0)
                    : !(mlirAffineExprIsADim(e) && (int)mlirAffineDimExprGetPosition(e) == dims[r]))
      return false;
  }
  return true;
}

/* n loops, all parallel but the last when `reduces`. */
static bool iterators_are(MlirOperation generic, int n, bool reduces) {
  MlirAttribute it = mlirOperationGetAttributeByName(generic, braze_ref("iterator_types"));
  if (mlirArrayAttrGetNumElements(it) != n)
    return false;
  for (int i = 0; i < n; ++i) {
    BrazeStr s = {0};
    mlirAttributePrint(mlirArrayAttrGetElement(it, i), braze_str_callback, &s);
    bool red = strstr(braze_str_cstr(&s), "reduction") != NULL;
    braze_str_free(&s);
    if (red != (reduces && i == n - 1))
      return false;
  }
  return true;
}

static int num_inputs(MlirOperation generic) { return (int)mlirOperationGetNumOperands(generic) - 1; }

static MlirValue yielded(MlirOperation generic) {
  return mlirOperationGetOperand(terminator(body_of(generic)), 0);
}

static MlirValue body_arg(MlirOperation generic, int i) { return mlirBlockGetArgument(body_of(generic), i); }

static MlirOperation def_op(MlirValue v) {
  return mlirValueIsAOpResult(v) ? mlirOpResultGetOwner(v) : (MlirOperation){NULL};
}

static bool is_cast(MlirOperation op) {
  return braze_op_is(op, "arith.truncf") || braze_op_is(op, "arith.extf");
}

/* A float constant's value, when `v` is one. */
static bool constant_of(MlirValue v, double *x) {
  MlirOperation op = def_op(v);
  if (mlirOperationIsNull(op) || !braze_op_is(op, "arith.constant"))
    return false;
  MlirAttribute a = mlirOperationGetAttributeByName(op, braze_ref("value"));
  if (!mlirAttributeIsAFloat(a))
    return false;
  *x = mlirFloatAttrGetValueDouble(a);
  return true;
}

/* `v` as scale * `from` through casts, multiplications and divisions by constants. */
static bool scaled(MlirValue v, MlirValue from, double *scale) {
  *scale = 1.0;
  for (int depth = 0; depth < 16; ++depth) {
    if (mlirValueEqual(v, from))
      return true;
    MlirOperation op = def_op(v);
    double c;
    if (mlirOperationIsNull(op))
      return false;
    if (is_cast(op)) {
      v = mlirOperationGetOperand(op, 0);
    } else if (braze_op_is(op, "arith.mulf") && constant_of(mlirOperationGetOperand(op, 1), &c)) {
      *scale *= c;
      v = mlirOperationGetOperand(op, 0);
    } else if (braze_op_is(op, "arith.mulf") && constant_of(mlirOperationGetOperand(op, 0), &c)) {
      *scale *= c;
      v = mlirOperationGetOperand(op, 1);
    } else if (braze_op_is(op, "arith.divf") && constant_of(mlirOperationGetOperand(op, 1), &c) && c != 0) {
      *scale /= c;
      v = mlirOperationGetOperand(op, 0);
    } else {
      return false;
    }
  }
  return false;
}

static bool cast_of(MlirValue v, MlirValue from) {
  double one;
  return scaled(v, from, &one) && one == 1.0;
}

/* ---- the four kernels ---- */

/* A contraction generic of nb + 3 loops (batch..., m, n, k) with operands the kernel's
 * arguments, reading A by a_dims and B by b_dims; its body acc + a * b. */
/* Whether map i of g reads dims (batch..., x, y), each batch dim by its loop (group[r] =
 * 1), as 0 (an operand of extent 1 broadcast over that batch dim: group[r] = 0), or as
 * its loop floordiv a constant g > 1 (grouped-query heads: q head h reads k/v head h / g,
 * as repeat_kv's expand and reshape leave it: group[r] = g). */
static bool map_is_grouped(MlirOperation g, int i, const int *dims, int nb, int64_t *group) {
  int exact[ONLINE_MAX_BATCH + 2];
  MlirAffineMap map = map_of(g, i);
  if (mlirAffineMapGetNumResults(map) != nb + 2)
    return false;
  for (int r = 0; r < nb + 2; ++r) {
    exact[r] = dims[r];
    if (r >= nb)
      continue;
    group[r] = 1;
    MlirAffineExpr e = mlirAffineMapGetResult(map, r);
    if (mlirAffineExprIsAConstant(e) && mlirAffineConstantExprGetValue(e) == 0) {
      exact[r] = -1;
      group[r] = 0;
    } else if (mlirAffineExprIsAFloorDiv(e)) {
      MlirAffineExpr lhs = mlirAffineBinaryOpExprGetLHS(e), rhs = mlirAffineBinaryOpExprGetRHS(e);
      if (!mlirAffineExprIsADim(lhs) || (int)mlirAffineDimExprGetPosition(lhs) != dims[r] ||
          !mlirAffineExprIsAConstant(rhs) || mlirAffineConstantExprGetValue(rhs) < 2)
        return false;
      exact[r] = -2; /* checked here */
      group[r] = mlirAffineConstantExprGetValue(rhs);
    }
  }
  for (int r = 0; r < nb + 2; ++r) {
    MlirAffineExpr e = mlirAffineMapGetResult(map, r);
    if (exact[r] == -1 ? !(mlirAffineExprIsAConstant(e) && mlirAffineConstantExprGetValue(e) == 0)
                       : exact[r] >= 0 && !(mlirAffineExprIsADim(e) && (int)mlirAffineDimExprGetPosition(e) == exact[r]))
      return false;
  }
  return true;
}

static bool contraction(MlirOperation kernel, MlirOperation g, int nb, const int *a_dims, const int *b_dims,
                        int args[2], int64_t *b_group) {
  if (mlirOperationIsNull(g) || num_inputs(g) != 2 || !iterators_are(g, nb + 3, true))
    return false;
  int out_dims[ONLINE_MAX_BATCH + 2];
  for (int i = 0; i < nb; ++i)
    out_dims[i] = i;
  out_dims[nb] = nb;
  out_dims[nb + 1] = nb + 1;
  if (!map_is(g, 0, a_dims, nb + 2) || !map_is_grouped(g, 1, b_dims, nb, b_group) || !map_is(g, 2, out_dims, nb + 2))
    return false;
  for (int i = 0; i < 2; ++i)
    if ((args[i] = kernel_arg(kernel, mlirOperationGetOperand(g, i))) < 0)
      return false;
  MlirOperation add = def_op(yielded(g));
  if (mlirOperationIsNull(add) || !braze_op_is(add, "arith.addf"))
    return false;
  MlirValue acc = body_arg(g, 2), x = mlirOperationGetOperand(add, 0), y = mlirOperationGetOperand(add, 1);
  MlirOperation mul = def_op(mlirValueEqual(x, acc) ? y : x);
  if (!mlirValueEqual(x, acc) && !mlirValueEqual(y, acc))
    return false;
  if (mlirOperationIsNull(mul) || !braze_op_is(mul, "arith.mulf"))
    return false;
  return (cast_of(mlirOperationGetOperand(mul, 0), body_arg(g, 0)) && cast_of(mlirOperationGetOperand(mul, 1), body_arg(g, 1)));
}

static void batch_dims(int nb, int *dims) {
  for (int i = 0; i < nb; ++i)
    dims[i] = i;
}

/* Whether an input of generic g is read through a view: a map that is not plain (q's
 * heads sliced out of one in-projection). */
static bool reads_through_view(MlirOperation g) {
  for (int i = 0; !mlirOperationIsNull(g) && i < num_inputs(g); ++i)
    if (!braze_map_is_plain(map_of(g, i)))
      return true;
  return false;
}

/* scores: s[b, m, n] = sum_k q[b, m, k] k[b, n, k], returned as it is. */
static const char *match_scores(OnlineChain *oc, int nb) {
  MlirOperation g = returned_generic(oc->kernels[SCORES]);
  int a[ONLINE_MAX_BATCH + 2], b[ONLINE_MAX_BATCH + 2], args[2];
  batch_dims(nb, a);
  batch_dims(nb, b);
  a[nb] = nb, a[nb + 1] = nb + 2;
  b[nb] = nb + 1, b[nb + 1] = nb + 2;
  if (!contraction(oc->kernels[SCORES], g, nb, a, b, args, oc->kv_group)) {
    int kt[ONLINE_MAX_BATCH + 2];
    int64_t group[ONLINE_MAX_BATCH];
    batch_dims(nb, kt);
    kt[nb] = nb + 2, kt[nb + 1] = nb + 1;
    if (!mlirOperationIsNull(g) && num_inputs(g) == 2 && map_is_grouped(g, 1, kt, nb, group))
      return ONLINE_K_TRANSPOSED;
    return reads_through_view(g) ? ONLINE_QK_VIEW : "scores-not-a-plain-contraction-over-the-head-dim";
  }
  oc->q = mlirOperationGetOperand(oc->calls[SCORES], args[0]);
  oc->k = mlirOperationGetOperand(oc->calls[SCORES], args[1]);
  return NULL;
}

/* The input of generic g (in `kernel`) that `call` passes `value` in, or -1. */
static int input_passing(MlirOperation kernel, MlirOperation call, MlirOperation g, MlirValue value) {
  for (int i = 0; i < num_inputs(g); ++i) {
    int a = kernel_arg(kernel, mlirOperationGetOperand(g, i));
    if (a >= 0 && mlirValueEqual(mlirOperationGetOperand(call, a), value))
      return i;
  }
  return -1;
}

/* A reduction over the last of `rank` loops into (..., 0), reading input s_in whole and
 * any other input (a mask) by its last two loops. */
static bool row_reduction(MlirOperation g, int rank, int s_in) {
  int in[ONLINE_MAX_BATCH + 2], out[ONLINE_MAX_BATCH + 2];
  for (int i = 0; i < rank; ++i)
    in[i] = out[i] = i;
  out[rank - 1] = -1;
  return !mlirOperationIsNull(g) && s_in >= 0 && iterators_are(g, rank, true) && map_is(g, s_in, in, rank) &&
         map_is(g, num_inputs(g), out, rank);
}

/* Whether input i of g is read by the last two loops (m, n) of `rank`, as a mask is. */
static bool mask_map(MlirOperation g, int i, int rank) {
  MlirAffineMap map = map_of(g, i);
  intptr_t n = mlirAffineMapGetNumResults(map);
  if (n < 2)
    return false;
  int mn[2] = {rank - 2, rank - 1};
  for (int r = 0; r < 2; ++r) {
    MlirAffineExpr e = mlirAffineMapGetResult(map, n - 2 + r);
    if (!mlirAffineExprIsADim(e) || (int)mlirAffineDimExprGetPosition(e) != mn[r])
      return false;
  }
  return true;
}

/* `v` as f(s) in g's body: scale * s (input s_in) through casts, kept where an i1 input
 * (*mask_in, else -1) is true, -inf (or below -1e4) elsewhere. */
/* The body argument of g that `v` is, through casts, or -1. */
static int body_arg_of(MlirOperation g, MlirValue v) {
  while (!mlirOperationIsNull(def_op(v)) && is_cast(def_op(v)))
    v = mlirOperationGetOperand(def_op(v), 0);
  if (!mlirValueIsABlockArgument(v) || !mlirBlockEqual(mlirBlockArgumentGetOwner(v), body_of(g)))
    return -1;
  return (int)mlirBlockArgumentGetArgNumber(v);
}

static MlirValue strip_casts(MlirValue v) {
  while (!mlirOperationIsNull(def_op(v)) && is_cast(def_op(v)))
    v = mlirOperationGetOperand(def_op(v), 0);
  return v;
}

static bool masked_score(MlirOperation g, MlirValue v, int s_in, double *scale, int *mask_in, int *bias_in,
                         OnlineBiasSelect *bias_sel, OnlineBiasAffine *bias_aff) {
  *mask_in = *bias_in = -1;
  bias_sel->on = bias_aff->on = false;
  v = strip_casts(v);
  MlirOperation sel = def_op(v);
  if (!mlirOperationIsNull(sel) && braze_op_is(sel, "arith.select")) {
    MlirValue cond = mlirOperationGetOperand(sel, 0);
    double c;
    if (!mlirValueIsABlockArgument(cond) || !mlirBlockEqual(mlirBlockArgumentGetOwner(cond), body_of(g)) ||
        !constant_of(mlirOperationGetOperand(sel, 2), &c) || !(c < -1e4))
      return false;
    *mask_in = (int)mlirBlockArgumentGetArgNumber(cond);
    v = strip_casts(mlirOperationGetOperand(sel, 1));
  }
  MlirOperation add = def_op(v);
  if (!mlirOperationIsNull(add) && braze_op_is(add, "arith.addf")) { /* f(s) + bias */
    for (int side = 0; side < 2 && *bias_in < 0; ++side) {
      int b = online_bias_operand(g, mlirOperationGetOperand(add, side), s_in, bias_sel, bias_aff);
      if (b >= 0) {
        *bias_in = b;
        v = mlirOperationGetOperand(add, 1 - side);
      }
    }
    if (*bias_in < 0)
      return false;
  }
  return scaled(v, body_arg(g, s_in), scale);
}

/* The combiner `name`(f(in), out) of a row reduction; f's scale, mask and bias inputs. */
static bool combines(MlirOperation g, const char *name, const char *alt, int s_in, double *scale, int *mask_in,
                     int *bias_in, OnlineBiasSelect *sel, OnlineBiasAffine *aff) {
  MlirOperation comb = def_op(yielded(g));
  if (mlirOperationIsNull(comb) || !(braze_op_is(comb, name) || (alt && braze_op_is(comb, alt))))
    return false;
  MlirValue x = mlirOperationGetOperand(comb, 0), y = mlirOperationGetOperand(comb, 1), out = body_arg(g, num_inputs(g));
  if (mlirValueEqual(x, out))
    x = y;
  else if (!mlirValueEqual(y, out))
    return false;
  return masked_score(g, x, s_in, scale, mask_in, bias_in, sel, aff);
}

/* The constant a generic's input `in` carries as the chain's mask: an arith.constant in
 * the kernel or one the kernel's call passes; the same for every kernel of the chain. */
static const char *note_mask(OnlineChain *oc, int link, MlirOperation g, int in, int rank) {
  if (in < 0)
    return NULL;
  if (!mask_map(g, in, rank))
    return "mask-not-read-by-row-and-key";
  MlirValue v = mlirOperationGetOperand(g, in);
  int a = kernel_arg(oc->kernels[link], v);
  if (a >= 0)
    v = mlirOperationGetOperand(oc->calls[link], a);
  MlirOperation def = def_op(v);
  if (mlirOperationIsNull(def) || !braze_op_is(def, "arith.constant"))
    return "mask-not-a-constant (general masks are not taken yet)";
  MlirAttribute value = mlirOperationGetAttributeByName(def, braze_ref("value"));
  if (!mlirAttributeIsNull(oc->mask) && !mlirAttributeEqual(oc->mask, value))
    return "max-and-exp-mask-differently";
  oc->mask = value;
  return NULL;
}

/* The tensor a generic's input `in` adds to the scores: what the kernel's call passes
 * it as, read by the loops (batch..., m, n) or broadcast (0), n last (or a constant read
 * by a permutation of them: laid out in loop order when the chain is built); the same
 * tensor, read the same way, in every kernel of the chain. */
static const char *note_bias(OnlineChain *oc, int link, MlirOperation g, int in, int rank, const OnlineBiasSelect *sel,
                             const OnlineBiasAffine *aff) {
  if (in < 0)
    return NULL;
  if (!mlirValueIsNull(oc->bias) &&
      (oc->bias_select.on != sel->on ||
       (sel->on && (oc->bias_select.when_true != sel->when_true || oc->bias_select.when_false != sel->when_false)) ||
       oc->bias_affine.on != aff->on || (aff->on && (oc->bias_affine.shift != aff->shift || oc->bias_affine.mul != aff->mul))))
    return "max-and-exp-add-different-biases";
  oc->bias_select = *sel;
  oc->bias_affine = *aff;
  int a = kernel_arg(oc->kernels[link], mlirOperationGetOperand(g, in));
  bool in_kernel = a < 0; /* a constant form-kernels cloned into the kernel */
  if (in_kernel && !online_bias_is_constant(mlirOperationGetOperand(g, in)))
    return "bias-not-an-argument-of-the-kernel";
  MlirValue bias = in_kernel ? mlirOperationGetOperand(g, in) : mlirOperationGetOperand(oc->calls[link], a);
  MlirAffineMap map = map_of(g, in);
  int n = (int)mlirAffineMapGetNumResults(map);
  int8_t dims[ONLINE_MAX_BATCH + 2];
  if (n < 1 || n > rank)
    return "bias-not-read-by-batch-row-and-key";
  for (int r = 0; r < n; ++r) {
    MlirAffineExpr e = mlirAffineMapGetResult(map, r);
    if (mlirAffineExprIsADim(e))
      dims[r] = (int8_t)mlirAffineDimExprGetPosition(e);
    else if (mlirAffineExprIsAConstant(e) && mlirAffineConstantExprGetValue(e) == 0)
      dims[r] = -1;
    else
      return "bias-not-read-by-batch-row-and-key";
  }
  bool relayout = false;
  if (dims[n - 1] != rank - 1) {
    if (!online_bias_can_relayout(bias, dims, n, rank))
      return "bias-keys-not-innermost (and not a float constant read by a permutation of the loops)";
    relayout = true;
  }
  if (!mlirValueIsNull(oc->bias) &&
      (!online_bias_same(oc->bias, bias) || oc->bias_rank != n || memcmp(oc->bias_dims, dims, (size_t)n) != 0))
    return "max-and-exp-add-different-biases";
  oc->bias = bias;
  oc->bias_rank = n;
  oc->bias_relayout = relayout;
  oc->bias_in_kernel = in_kernel;
  memcpy(oc->bias_dims, dims, (size_t)n);
  return NULL;
}

/* The row max of the scores in generic g of link `link` (the scores passed as `scores`). */
static const char *match_max(OnlineChain *oc, int link, MlirOperation g, int rank, double *scale) {
  int s_in = mlirOperationIsNull(g) ? -1 : input_passing(oc->kernels[link], oc->calls[link], g, mlirOperationGetResult(oc->calls[SCORES], 0));
  if (!row_reduction(g, rank, s_in))
    return "no-row-max-of-the-scores";
  int mask_in, bias_in;
  OnlineBiasSelect sel;
  OnlineBiasAffine aff;
  if (!combines(g, "arith.maximumf", "arith.maxnumf", s_in, scale, &mask_in, &bias_in, &sel, &aff)) {
    MlirOperation comb = def_op(yielded(g));
    bool is_max = !mlirOperationIsNull(comb) && (braze_op_is(comb, "arith.maximumf") || braze_op_is(comb, "arith.maxnumf"));
    return is_max ? "scores-not-a-scale-a-bias-and-a-causal-mask"
                  : "row-reduction-not-a-max-of-scaled-scores";
  }
  const char *why = note_mask(oc, link, g, mask_in, rank);
  return why ? why : note_bias(oc, link, g, bias_in, rank, &sel, &aff);
}

/* rowmax: x[b, m] = max_n f(s[b, m, n]). */
static const char *match_rowmax(OnlineChain *oc, int rank) {
  if (mlirOperationIsNull(oc->calls[ROWMAX]))
    return NULL; /* inside the probabilities' kernel: match_probs */
  return match_max(oc, ROWMAX, returned_generic(oc->kernels[ROWMAX]), rank, &oc->scale);
}

/* The sum's generic and the exponentials' input of the quotient generic, or a reason. */
static const char *match_quotient(MlirOperation div_g, int rank, MlirOperation *exp_g) {
  if (mlirOperationIsNull(div_g) || num_inputs(div_g) != 2)
    return "probabilities-not-a-quotient";
  MlirOperation div = def_op(yielded(div_g));
  while (!mlirOperationIsNull(div) && is_cast(div))
    div = def_op(mlirOperationGetOperand(div, 0));
  if (mlirOperationIsNull(div) || !braze_op_is(div, "arith.divf"))
    return "probabilities-not-a-quotient";
  int e_in = cast_of(mlirOperationGetOperand(div, 0), body_arg(div_g, 0)) ? 0 : 1;
  if (!cast_of(mlirOperationGetOperand(div, 0), body_arg(div_g, e_in)) ||
      !cast_of(mlirOperationGetOperand(div, 1), body_arg(div_g, 1 - e_in)))
    return "probabilities-not-a-quotient";
  MlirOperation sum_g = generic_of(mlirOperationGetOperand(div_g, 1 - e_in));
  double one;
  int no_mask, no_bias;
  OnlineBiasSelect no_sel;
  OnlineBiasAffine no_aff;
  if (mlirOperationIsNull(sum_g) || num_inputs(sum_g) != 1 || !row_reduction(sum_g, rank, 0) ||
      !combines(sum_g, "arith.addf", NULL, 0, &one, &no_mask, &no_bias, &no_sel, &no_aff) || one != 1.0 || no_mask >= 0 || no_bias >= 0 ||
      !mlirValueEqual(mlirOperationGetOperand(sum_g, 0), mlirOperationGetOperand(div_g, e_in)))
    return "not-normalized-by-the-row-sum";
  *exp_g = generic_of(mlirOperationGetOperand(div_g, e_in));
  return NULL;
}

/* probs: e = exp(f(s) - x), y = e / sum_n e; s the scores, x the row max (passed in, or
 * a row max of the scores inside this kernel). */
static const char *match_probs(OnlineChain *oc, int rank) {
  MlirOperation kernel = oc->kernels[PROBS], exp_g = {NULL};
  const char *why = match_quotient(returned_generic(kernel), rank, &exp_g);
  if (why)
    return why;
  if (mlirOperationIsNull(exp_g))
    return "not-exp-of-the-shifted-scores";
  MlirValue e = yielded(exp_g);
  while (!mlirOperationIsNull(def_op(e)) && is_cast(def_op(e)))
    e = mlirOperationGetOperand(def_op(e), 0);
  MlirOperation exp = def_op(e), sub = {NULL};
  if (!mlirOperationIsNull(exp) && braze_op_is(exp, "math.exp"))
    sub = def_op(mlirOperationGetOperand(exp, 0));
  if (mlirOperationIsNull(sub) || !braze_op_is(sub, "arith.subf"))
    return "not-exp-of-the-shifted-scores";
  int s_in = input_passing(kernel, oc->calls[PROBS], exp_g, mlirOperationGetResult(oc->calls[SCORES], 0));
  MlirValue x = mlirOperationGetOperand(sub, 1);
  while (!mlirOperationIsNull(def_op(x)) && is_cast(def_op(x)))
    x = mlirOperationGetOperand(def_op(x), 0);
  if (s_in < 0 || !mlirValueIsABlockArgument(x) || !mlirBlockEqual(mlirBlockArgumentGetOwner(x), body_of(exp_g)))
    return "not-exp-of-the-shifted-scores";
  MlirValue x_val = mlirOperationGetOperand(exp_g, (intptr_t)mlirBlockArgumentGetArgNumber(x));
  if (mlirOperationIsNull(oc->calls[ROWMAX])) {
    double scale;
    if ((why = match_max(oc, PROBS, generic_of(x_val), rank, &scale)))
      return why;
    oc->scale = scale;
  } else {
    int x_arg = kernel_arg(kernel, x_val);
    if (x_arg < 0 || !mlirValueEqual(mlirOperationGetOperand(oc->calls[PROBS], x_arg), mlirOperationGetResult(oc->calls[ROWMAX], 0)))
      return "not-exp-of-the-shifted-scores";
  }
  double scale;
  int mask_in, bias_in;
  OnlineBiasSelect sel;
  OnlineBiasAffine aff;
  if (!masked_score(exp_g, mlirOperationGetOperand(sub, 0), s_in, &scale, &mask_in, &bias_in, &sel, &aff))
    return "not-exp-of-the-shifted-scores";
  if (fabs(scale - oc->scale) > 1e-6 * fabs(oc->scale))
    return "max-and-exp-scale-the-scores-differently";
  if ((why = note_mask(oc, PROBS, exp_g, mask_in, rank)))
    return why;
  return note_bias(oc, PROBS, exp_g, bias_in, rank, &sel, &aff);
}

/* A mask the online form takes: a constant keep-mask [.., M, N] whose row i keeps the
 * keys j <= i + offset (causal attention, offset N - M for queries at the end). */
static const char *match_causal(OnlineChain *oc) {
  if (mlirAttributeIsNull(oc->mask))
    return NULL;
  MlirAttribute value = oc->mask;
  MlirType t = mlirAttributeGetType(value);
  if (!mlirAttributeIsADenseElements(value) || !mlirTypeIsAInteger(mlirShapedTypeGetElementType(t)) ||
      mlirIntegerTypeGetWidth(mlirShapedTypeGetElementType(t)) != 1)
    return "mask-not-a-constant (general masks are not taken yet)";
  intptr_t r = mlirShapedTypeGetRank(t);
  int64_t m = mlirShapedTypeGetDimSize(t, r - 2), n = mlirShapedTypeGetDimSize(t, r - 1);
  int64_t count = 1;
  for (intptr_t d = 0; d < r; ++d)
    count *= mlirShapedTypeGetDimSize(t, d);
  if (count != m * n || m != oc->m || n != oc->n)
    return "mask-not-one-m-by-n-matrix";
  bool splat = mlirDenseElementsAttrIsSplat(value);
  int64_t keep0 = 0;
  while (keep0 < n && (splat ? mlirDenseElementsAttrGetBoolSplatValue(value) : mlirDenseElementsAttrGetBoolValue(value, keep0)))
    ++keep0;
  oc->causal_offset = keep0 - 1;
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      bool keep = splat ? mlirDenseElementsAttrGetBoolSplatValue(value) : mlirDenseElementsAttrGetBoolValue(value, i * n + j);
      if (keep != (j <= i + oc->causal_offset))
        return "mask-not-causal (general masks are not taken yet)";
    }
  oc->causal = true;
  return NULL;
}

/* output: y[b, m, d] = sum_n p[b, m, n] v[b, n, d], then at most casts. */
static const char *match_output(OnlineChain *oc, int nb) {
  MlirOperation kernel = oc->kernels[OUTPUT], g = returned_generic(kernel);
  if (!mlirOperationIsNull(g) && num_inputs(g) == 1 && !iterators_are(g, nb + 3, true) &&
      cast_of(yielded(g), body_arg(g, 0)))
    g = generic_of(mlirOperationGetOperand(g, 0)); /* the epilogue: a cast to the result type */
  int a[ONLINE_MAX_BATCH + 2], b[ONLINE_MAX_BATCH + 2], args[2];
  batch_dims(nb, a);
  batch_dims(nb, b);
  a[nb] = nb, a[nb + 1] = nb + 2;
  b[nb] = nb + 2, b[nb + 1] = nb + 1;
  int64_t v_group[ONLINE_MAX_BATCH];
  if (!contraction(kernel, g, nb, a, b, args, v_group))
    return reads_through_view(g) ? ONLINE_V_VIEW : "second-product-not-over-the-keys";
  MlirType qt = mlirValueGetType(oc->q);
  for (int i = 0; i < nb; ++i) {
    if (mlirShapedTypeGetDimSize(qt, i) == 1) /* a batch of one: read as 0 or by its loop alike */
      v_group[i] = oc->kv_group[i] = 1;
    if (v_group[i] != oc->kv_group[i])
      return "k-and-v-shared-over-different-batch-dims";
  }
  if (!mlirValueEqual(mlirOperationGetOperand(oc->calls[OUTPUT], args[0]), mlirOperationGetResult(oc->calls[PROBS], 0)))
    return "second-product-not-of-the-probabilities";
  oc->v = mlirOperationGetOperand(oc->calls[OUTPUT], args[1]);
  return NULL;
}

/* ---- the calls ---- */

/* The users of `v`: exactly n of them, in `users`. */
static bool users_of(MlirValue v, MlirOperation *users, int n) {
  int count = 0;
  for (MlirOpOperand u = mlirValueGetFirstUse(v); !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u)) {
    MlirOperation owner = mlirOpOperandGetOwner(u);
    bool seen = false;
    for (int i = 0; i < count; ++i)
      seen |= mlirOperationEqual(users[i], owner);
    if (seen)
      continue;
    if (count == n)
      return false;
    users[count++] = owner;
  }
  return count == n;
}

static bool is_call(MlirOperation op) { return !mlirOperationIsNull(op) && braze_op_is(op, "func.call"); }

/* Whether the kernel returns a contraction's value, maybe through an epilogue (so that
 * its consumer is worth a remark). */
static bool ends_in_contraction(MlirOperation kernel) {
  if (mlirOperationIsNull(kernel) || mlirBlockIsNull(body_of(kernel)))
    return false;
  for (MlirOperation g = returned_generic(kernel); !mlirOperationIsNull(g);
       g = num_inputs(g) >= 1 ? generic_of(mlirOperationGetOperand(g, 0)) : (MlirOperation){NULL}) {
    MlirAttribute it = mlirOperationGetAttributeByName(g, braze_ref("iterator_types"));
    if (num_inputs(g) == 2 && iterators_are(g, (int)mlirArrayAttrGetNumElements(it), true))
      return true;
  }
  return false;
}

/* The softmax as two kernels (the row max, then exp, sum and quotient: what form-kernels
 * makes of narrow types) from the scores' two users: the row max is the one whose
 * result the other takes. */
static const char *two_kernel_softmax(OnlineChain *oc, MlirOperation users[2]) {
  MlirOperation max_user;
  for (int u = 0; u < 2; ++u) {
    if (mlirOperationGetNumResults(users[u]) != 1)
      continue;
    if (users_of(mlirOperationGetResult(users[u], 0), &max_user, 1) && mlirOperationEqual(max_user, users[1 - u])) {
      oc->calls[ROWMAX] = users[u];
      oc->calls[PROBS] = users[1 - u];
      return NULL;
    }
  }
  oc->calls[PROBS] = users[0]; /* for the remark */
  return "scores-not-used-by-a-max-and-an-exp";
}

static const char *find_calls(OnlineChain *oc, OnlineCallee callee, void *user) {
  MlirOperation users[2];
  MlirValue scores = mlirOperationGetResult(oc->calls[SCORES], 0);
  const char *why = NULL;
  if (users_of(scores, users, 1) && is_call(users[0]) && ends_in_contraction(callee(user, oc->calls[SCORES])))
    oc->calls[PROBS] = users[0]; /* the whole softmax in one kernel, its row max inside */
  else if (users_of(scores, users, 2) && is_call(users[0]) && is_call(users[1]))
    why = two_kernel_softmax(oc, users);
  else
    why = "scores-not-used-by-a-max-and-an-exp";
  if (why)
    return why;
  if (mlirOperationGetNumResults(oc->calls[PROBS]) != 1)
    return "scores-not-used-by-a-max-and-an-exp";
  MlirOperation p_user;
  if (!users_of(mlirOperationGetResult(oc->calls[PROBS], 0), &p_user, 1))
    return "probabilities-used-elsewhere";
  if (!is_call(p_user) || mlirOperationGetNumResults(p_user) != 1)
    return "probabilities-not-multiplied-by-values";
  oc->calls[OUTPUT] = p_user;
  for (int i = 0; i < 4; ++i) {
    if (mlirOperationIsNull(oc->calls[i]))
      continue;
    oc->kernels[i] = callee(user, oc->calls[i]);
    if (mlirOperationIsNull(oc->kernels[i]) || mlirBlockIsNull(body_of(oc->kernels[i])))
      return "a-link-is-not-a-kernel";
    if (!mlirBlockEqual(mlirOperationGetBlock(oc->calls[i]), mlirOperationGetBlock(oc->calls[SCORES])))
      return "links-in-different-blocks";
  }
  return NULL;
}

static bool half_or_single(MlirType t) { return mlirTypeIsABF16(t) || mlirTypeIsAF16(t) || mlirTypeIsAF32(t); }

static const char *check_shapes(OnlineChain *oc) {
  MlirType tq = mlirValueGetType(oc->q), tk = mlirValueGetType(oc->k), tv = mlirValueGetType(oc->v);
  oc->result = mlirValueGetType(mlirOperationGetResult(oc->calls[OUTPUT], 0));
  if (!mlirShapedTypeHasStaticShape(tq) || !mlirShapedTypeHasStaticShape(tk) || !mlirShapedTypeHasStaticShape(tv))
    return "dynamic-shapes";
  oc->elem = mlirShapedTypeGetElementType(tq);
  if (!half_or_single(oc->elem) || !mlirTypeEqual(oc->elem, mlirShapedTypeGetElementType(tk)) ||
      !mlirTypeEqual(oc->elem, mlirShapedTypeGetElementType(tv)))
    return "q-k-v-not-of-one-float-type";
  for (int i = 0; i < oc->nb; ++i) { /* k and v: q's batch dims, 1 where broadcast, 1/g where grouped */
    oc->batch[i] = mlirShapedTypeGetDimSize(tq, i);
    int64_t g = oc->kv_group[i], kv = g == 0 ? 1 : oc->batch[i] / g;
    if (g > 1 && oc->batch[i] % g != 0)
      return "grouped-heads-not-dividing-q-s";
    if (mlirShapedTypeGetDimSize(tk, i) != kv || mlirShapedTypeGetDimSize(tv, i) != kv)
      return "k-or-v-batch-dims-not-q-s";
  }
  oc->m = mlirShapedTypeGetDimSize(tq, oc->nb);
  oc->d = mlirShapedTypeGetDimSize(tq, oc->nb + 1);
  oc->n = mlirShapedTypeGetDimSize(tk, oc->nb);
  oc->dv = mlirShapedTypeGetDimSize(tv, oc->nb + 1);
  return NULL;
}

/* Whether kernel.ops of `kernel` names `op`. */
static bool kernel_has_op(MlirOperation kernel, const char *op) {
  MlirAttribute ops = mlirOperationGetAttributeByName(kernel, braze_ref("kernel.ops"));
  for (intptr_t i = 0; !mlirAttributeIsNull(ops) && i < mlirArrayAttrGetNumElements(ops); ++i)
    if (braze_ref_eq(mlirStringAttrGetValue(mlirArrayAttrGetElement(ops, i)), op))
      return true;
  return false;
}

const char *online_match(MlirOperation scores, OnlineCallee callee, void *user, OnlineChain *oc) {
  memset(oc, 0, sizeof *oc);
  oc->calls[SCORES] = scores;
  if (!is_call(scores) || mlirOperationGetNumResults(scores) != 1)
    return "not-a-call";
  MlirType st = mlirValueGetType(mlirOperationGetResult(scores, 0));
  if (!mlirTypeIsARankedTensor(st) || mlirShapedTypeGetRank(st) < 2 || mlirShapedTypeGetRank(st) > ONLINE_MAX_BATCH + 2)
    return "scores-rank";
  int rank = (int)mlirShapedTypeGetRank(st);
  oc->nb = rank - 2;
  const char *why = find_calls(oc, callee, user);
  if (!mlirOperationIsNull(oc->calls[PROBS])) {
    MlirOperation probs = callee(user, oc->calls[PROBS]);
    oc->plausible = !mlirOperationIsNull(probs) && kernel_has_op(probs, "exp");
  }
  if (!why)
    why = match_scores(oc, oc->nb);
  if (!why)
    why = match_rowmax(oc, rank);
  if (!why)
    why = match_probs(oc, rank);
  if (!why)
    why = match_output(oc, oc->nb);
  if (!why)
    why = check_shapes(oc);
  if (!why)
    why = match_causal(oc);
  return why;
}

int64_t online_saved_bytes(const OnlineChain *oc) {
  int64_t bytes = 0;
  for (int i = SCORES; i <= PROBS; ++i) {
    if (mlirOperationIsNull(oc->calls[i]))
      continue;
    MlirType t = mlirValueGetType(mlirOperationGetResult(oc->calls[i], 0));
    int64_t n = 1;
    for (intptr_t d = 0; d < mlirShapedTypeGetRank(t); ++d)
      n *= mlirShapedTypeGetDimSize(t, d);
    bytes += n * ((mlirTypeIsABF16(mlirShapedTypeGetElementType(t)) || mlirTypeIsAF16(mlirShapedTypeGetElementType(t))) ? 2 : 4);
  }
  return 2 * bytes;
}

/* ---- shared with online-bias.c ---- */

MlirOperation online_def_op(MlirValue v) { return def_op(v); }
MlirValue online_strip_casts(MlirValue v) { return strip_casts(v); }
bool online_constant_of(MlirValue v, double *x) { return constant_of(v, x); }
int online_body_arg_of(MlirOperation g, MlirValue v) { return body_arg_of(g, v); }
