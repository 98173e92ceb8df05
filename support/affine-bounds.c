/* Ranges and bounded floordiv/mod simplification of affine expressions (see
 * support/affine-bounds.h). */
#include "support/affine-bounds.h"

#include <stdlib.h>

enum { MAX_TERMS = 16, MAX_RESULTS = 16 };

static int64_t floor_div(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

static int64_t ceil_div(int64_t a, int64_t b) { return -floor_div(-a, b); }

static bool const_rhs(MlirAffineExpr e, int64_t *k) {
  MlirAffineExpr rhs = mlirAffineBinaryOpExprGetRHS(e);
  if (!mlirAffineExprIsAConstant(rhs))
    return false;
  *k = mlirAffineConstantExprGetValue(rhs);
  return true;
}

bool braze_affine_range(MlirAffineExpr e, const int64_t *extents, intptr_t n_dims, int64_t *lo, int64_t *hi) {
  if (mlirAffineExprIsAConstant(e)) {
    *lo = *hi = mlirAffineConstantExprGetValue(e);
    return true;
  }
  if (mlirAffineExprIsADim(e)) {
    intptr_t d = mlirAffineDimExprGetPosition(e);
    if (d >= n_dims || extents[d] <= 0)
      return false;
    *lo = 0;
    *hi = extents[d] - 1;
    return true;
  }
  if (!mlirAffineExprIsABinary(e))
    return false;
  MlirAffineExpr lhs = mlirAffineBinaryOpExprGetLHS(e), rhs = mlirAffineBinaryOpExprGetRHS(e);
  int64_t l0, l1, r0, r1, k;
  if (mlirAffineExprIsAAdd(e)) {
    if (!braze_affine_range(lhs, extents, n_dims, &l0, &l1) || !braze_affine_range(rhs, extents, n_dims, &r0, &r1))
      return false;
    *lo = l0 + r0;
    *hi = l1 + r1;
    return true;
  }
  if (mlirAffineExprIsAMul(e)) {
    if (mlirAffineExprIsAConstant(lhs)) { /* canonical form has the constant on the right */
      MlirAffineExpr t = lhs;
      lhs = rhs;
      rhs = t;
    }
    if (!mlirAffineExprIsAConstant(rhs) || !braze_affine_range(lhs, extents, n_dims, &l0, &l1))
      return false;
    k = mlirAffineConstantExprGetValue(rhs);
    *lo = k >= 0 ? l0 * k : l1 * k;
    *hi = k >= 0 ? l1 * k : l0 * k;
    return true;
  }
  if (!const_rhs(e, &k) || k <= 0 || !braze_affine_range(lhs, extents, n_dims, &l0, &l1))
    return false;
  if (mlirAffineExprIsAFloorDiv(e)) {
    *lo = floor_div(l0, k);
    *hi = floor_div(l1, k);
  } else if (mlirAffineExprIsACeilDiv(e)) {
    *lo = ceil_div(l0, k);
    *hi = ceil_div(l1, k);
  } else { /* mod: the result of MLIR's mod is in [0, k) */
    bool within = l0 >= 0 && l1 < k;
    *lo = within ? l0 : 0;
    *hi = within ? l1 : k - 1;
  }
  return true;
}

/* ---- sums of terms ---- */

typedef struct {
  int n;
  int64_t coef[MAX_TERMS];
  MlirAffineExpr atom[MAX_TERMS];
  int64_t constant;
} Terms;

/* e * scale added to t: sums and constant multiples flattened, anything else an atom. */
static bool flatten(MlirAffineExpr e, int64_t scale, Terms *t) {
  if (mlirAffineExprIsAConstant(e)) {
    t->constant += scale * mlirAffineConstantExprGetValue(e);
    return true;
  }
  if (mlirAffineExprIsAAdd(e))
    return flatten(mlirAffineBinaryOpExprGetLHS(e), scale, t) && flatten(mlirAffineBinaryOpExprGetRHS(e), scale, t);
  if (mlirAffineExprIsAMul(e)) {
    MlirAffineExpr lhs = mlirAffineBinaryOpExprGetLHS(e), rhs = mlirAffineBinaryOpExprGetRHS(e);
    if (mlirAffineExprIsAConstant(rhs))
      return flatten(lhs, scale * mlirAffineConstantExprGetValue(rhs), t);
    if (mlirAffineExprIsAConstant(lhs))
      return flatten(rhs, scale * mlirAffineConstantExprGetValue(lhs), t);
  }
  for (int i = 0; i < t->n; ++i)
    if (mlirAffineExprEqual(t->atom[i], e)) {
      t->coef[i] += scale;
      return true;
    }
  if (t->n == MAX_TERMS)
    return false;
  t->coef[t->n] = scale;
  t->atom[t->n++] = e;
  return true;
}

/* a + b and a * k, folding zeros, ones and constants (the C API's constructors do not,
 * and mlirSimplifyAffineExpr would expand each mod into e - c * (e floordiv c)) */
static MlirAffineExpr add(MlirAffineExpr a, MlirAffineExpr b) {
  if (mlirAffineExprIsAConstant(a) && mlirAffineExprIsAConstant(b))
    return mlirAffineConstantExprGet(mlirAffineExprGetContext(a),
                                     mlirAffineConstantExprGetValue(a) + mlirAffineConstantExprGetValue(b));
  if (mlirAffineExprIsAConstant(a) && mlirAffineConstantExprGetValue(a) == 0)
    return b;
  if (mlirAffineExprIsAConstant(b) && mlirAffineConstantExprGetValue(b) == 0)
    return a;
  return mlirAffineAddExprGet(a, b);
}

static MlirAffineExpr scale(MlirAffineExpr a, int64_t k) {
  MlirContext ctx = mlirAffineExprGetContext(a);
  if (k == 0 || mlirAffineExprIsAConstant(a))
    return mlirAffineConstantExprGet(ctx, k * (k == 0 ? 0 : mlirAffineConstantExprGetValue(a)));
  return k == 1 ? a : mlirAffineMulExprGet(a, mlirAffineConstantExprGet(ctx, k));
}

/* The terms in order, then the constant. */
static MlirAffineExpr sum_of(MlirContext ctx, const Terms *t) {
  MlirAffineExpr e = mlirAffineConstantExprGet(ctx, 0);
  for (int i = 0; i < t->n; ++i)
    e = add(e, scale(t->atom[i], t->coef[i]));
  return add(e, mlirAffineConstantExprGet(ctx, t->constant));
}

static bool terms_range(const Terms *t, const int64_t *extents, intptr_t n_dims, int64_t *lo, int64_t *hi) {
  *lo = *hi = t->constant;
  for (int i = 0; i < t->n; ++i) {
    int64_t a, b;
    if (!braze_affine_range(t->atom[i], extents, n_dims, &a, &b))
      return false;
    *lo += t->coef[i] >= 0 ? a * t->coef[i] : b * t->coef[i];
    *hi += t->coef[i] >= 0 ? b * t->coef[i] : a * t->coef[i];
  }
  return true;
}

static int64_t gcd(int64_t a, int64_t b) {
  a = llabs(a);
  b = llabs(b);
  while (b) {
    int64_t r = a % b;
    a = b;
    b = r;
  }
  return a;
}

/* Split t = a * high + low with low in [0, a): false when low's range leaves it. */
static bool split_by(const Terms *t, int64_t a, const int64_t *extents, intptr_t n_dims, Terms *high, Terms *low) {
  *high = (Terms){0};
  *low = (Terms){0};
  for (int i = 0; i < t->n; ++i) {
    Terms *dst = t->coef[i] % a == 0 ? high : low;
    dst->coef[dst->n] = dst == high ? t->coef[i] / a : t->coef[i];
    dst->atom[dst->n++] = t->atom[i];
  }
  high->constant = floor_div(t->constant, a);
  low->constant = t->constant - a * high->constant;
  int64_t lo, hi;
  return terms_range(low, extents, n_dims, &lo, &hi) && lo >= 0 && hi < a;
}

static MlirAffineExpr simplify_div_mod(MlirAffineExpr e, MlirAffineExpr lhs, int64_t c, const int64_t *extents,
                                       intptr_t n_dims) {
  MlirContext ctx = mlirAffineExprGetContext(e);
  Terms t = {0};
  if (!flatten(lhs, 1, &t))
    return e;
  /* the largest a dividing c that splits off a low part in [0, a) */
  int64_t best = 0;
  Terms high = {0}, low = {0};
  for (int i = -1; i < t.n; ++i) {
    int64_t a = i < 0 ? c : gcd(t.coef[i], c);
    Terms h, l;
    if (a > best && a > 1 && split_by(&t, a, extents, n_dims, &h, &l)) {
      best = a;
      high = h;
      low = l;
    }
  }
  if (best == 0)
    return e;
  MlirAffineExpr quotient = sum_of(ctx, &high);
  MlirAffineExpr rest = mlirAffineConstantExprGet(ctx, c / best);
  if (mlirAffineExprIsAFloorDiv(e))
    return best == c ? quotient
                     : braze_affine_simplify_bounded(mlirAffineFloorDivExprGet(quotient, rest), extents, n_dims);
  MlirAffineExpr low_e = sum_of(ctx, &low);
  if (best == c)
    return low_e;
  MlirAffineExpr inner = braze_affine_simplify_bounded(mlirAffineModExprGet(quotient, rest), extents, n_dims);
  return add(scale(inner, best), low_e);
}

MlirAffineExpr braze_affine_simplify_bounded(MlirAffineExpr e, const int64_t *extents, intptr_t n_dims) {
  if (!mlirAffineExprIsABinary(e))
    return e;
  MlirAffineExpr lhs = braze_affine_simplify_bounded(mlirAffineBinaryOpExprGetLHS(e), extents, n_dims);
  MlirAffineExpr rhs = braze_affine_simplify_bounded(mlirAffineBinaryOpExprGetRHS(e), extents, n_dims);
  int64_t c;
  bool div_mod = mlirAffineExprIsAFloorDiv(e) || mlirAffineExprIsAMod(e);
  /* a bare `d mod E` stays: graph-to-loops writes it on purpose (fix_partial_dims) */
  if (div_mod && mlirAffineExprIsAConstant(rhs) && (c = mlirAffineConstantExprGetValue(rhs)) > 0 &&
      !mlirAffineExprIsADim(lhs)) {
    MlirAffineExpr rebuilt = mlirAffineExprIsAMod(e) ? mlirAffineModExprGet(lhs, rhs) : mlirAffineFloorDivExprGet(lhs, rhs);
    return simplify_div_mod(rebuilt, lhs, c, extents, n_dims);
  }
  if (mlirAffineExprIsAAdd(e))
    return mlirAffineAddExprGet(lhs, rhs);
  if (mlirAffineExprIsAMul(e))
    return mlirAffineMulExprGet(lhs, rhs);
  if (mlirAffineExprIsAMod(e))
    return mlirAffineModExprGet(lhs, rhs);
  if (mlirAffineExprIsAFloorDiv(e))
    return mlirAffineFloorDivExprGet(lhs, rhs);
  return mlirAffineCeilDivExprGet(lhs, rhs);
}

MlirAffineMap braze_map_simplify_bounded(MlirAffineMap map, const int64_t *extents) {
  intptr_t n = mlirAffineMapGetNumResults(map), dims = mlirAffineMapGetNumDims(map);
  if (n == 0 || n > MAX_RESULTS)
    return map;
  MlirAffineExpr exprs[MAX_RESULTS];
  for (intptr_t i = 0; i < n; ++i) {
    exprs[i] = braze_affine_simplify_bounded(mlirAffineMapGetResult(map, i), extents, dims);
  }
  return mlirAffineMapGet(mlirAffineMapGetContext(map), dims, mlirAffineMapGetNumSymbols(map), n, exprs);
}

MlirAffineExpr braze_affine_plus(MlirAffineExpr e, int64_t k) {
  return add(e, mlirAffineConstantExprGet(mlirAffineExprGetContext(e), k));
}

/* ---- splitting by dims ---- */

uint64_t braze_affine_dims(MlirAffineExpr e) {
  if (mlirAffineExprIsADim(e)) {
    intptr_t d = mlirAffineDimExprGetPosition(e);
    return d < 64 ? 1ull << d : 0;
  }
  if (!mlirAffineExprIsABinary(e))
    return 0;
  return braze_affine_dims(mlirAffineBinaryOpExprGetLHS(e)) | braze_affine_dims(mlirAffineBinaryOpExprGetRHS(e));
}

bool braze_map_reads_dim(MlirAffineMap map, intptr_t d) {
  for (intptr_t r = 0; r < mlirAffineMapGetNumResults(map); ++r)
    if (mlirAffineExprIsFunctionOfDim(mlirAffineMapGetResult(map, r), d))
      return true;
  return false;
}

bool braze_map_is_plain(MlirAffineMap map) {
  for (intptr_t r = 0; r < mlirAffineMapGetNumResults(map); ++r) {
    MlirAffineExpr e = mlirAffineMapGetResult(map, r);
    if (!mlirAffineExprIsADim(e) && !mlirAffineExprIsAConstant(e))
      return false;
  }
  return true;
}

bool braze_affine_split(MlirAffineExpr e, uint64_t mask, MlirAffineExpr *with, MlirAffineExpr *without) {
  MlirContext ctx = mlirAffineExprGetContext(e);
  Terms t = {0};
  if (!flatten(e, 1, &t))
    return false;
  Terms in = {0}, out = {.constant = t.constant};
  for (int i = 0; i < t.n; ++i) {
    uint64_t dims = braze_affine_dims(t.atom[i]);
    if ((dims & mask) && (dims & ~mask))
      return false;
    Terms *dst = (dims & mask) ? &in : &out;
    dst->coef[dst->n] = t.coef[i];
    dst->atom[dst->n++] = t.atom[i];
  }
  *with = sum_of(ctx, &in);
  *without = sum_of(ctx, &out);
  return true;
}
