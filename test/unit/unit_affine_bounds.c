/* Unit tests for support/affine-bounds.c: value ranges over loops of known extents, the
 * floordiv/mod splits they allow (and the ones they must not make), and the additive
 * split by dims that form-row-chains slices views with. */
#include <stdlib.h>

#include "mlir-c/AffineExpr.h"
#include "mlir-c/AffineMap.h"
#include "mlir-c/IR.h"
#include "support/affine-bounds.h"
#include "support/context.h"
#include "support/strbuf.h"
#include "test/unit/check.h"

static MlirContext ctx;

static MlirAffineExpr dim(intptr_t d) { return mlirAffineDimExprGet(ctx, d); }
static MlirAffineExpr cst(int64_t v) { return mlirAffineConstantExprGet(ctx, v); }
static MlirAffineExpr add(MlirAffineExpr a, MlirAffineExpr b) { return mlirAffineAddExprGet(a, b); }
static MlirAffineExpr mul(MlirAffineExpr a, int64_t k) { return mlirAffineMulExprGet(a, cst(k)); }
static MlirAffineExpr fdiv(MlirAffineExpr a, int64_t k) { return mlirAffineFloorDivExprGet(a, cst(k)); }
static MlirAffineExpr mod(MlirAffineExpr a, int64_t k) { return mlirAffineModExprGet(a, cst(k)); }

/* The printed form of e (malloc'ed). */
static char *text(MlirAffineExpr e) {
  BrazeStr s = {0};
  mlirAffineExprPrint(e, braze_str_callback, &s);
  return s.data;
}

#define CHECK_EXPR(e, want)          \
  do {                               \
    char *got_ = text(e);            \
    CHECK_STR(got_, want);           \
    free(got_);                      \
  } while (0)

static void ranges(void) {
  int64_t ext[3] = {8, 5, 8}, lo, hi;
  CHECK(braze_affine_range(add(mul(dim(0), 8), dim(2)), ext, 3, &lo, &hi) && lo == 0 && hi == 63);
  CHECK(braze_affine_range(mod(dim(0), 4), ext, 3, &lo, &hi) && lo == 0 && hi == 3);
  CHECK(braze_affine_range(mod(dim(1), 8), ext, 3, &lo, &hi) && lo == 0 && hi == 4); /* d1 < 5 < 8 */
  CHECK(braze_affine_range(fdiv(add(dim(1), cst(-3)), 2), ext, 3, &lo, &hi) && lo == -2 && hi == 0);
  CHECK(braze_affine_range(mul(dim(2), -2), ext, 3, &lo, &hi) && lo == -14 && hi == 0);
  CHECK(!braze_affine_range(dim(3), ext, 3, &lo, &hi)); /* no extent */
  CHECK(!braze_affine_range(mlirAffineSymbolExprGet(ctx, 0), ext, 3, &lo, &hi));
}

/* q's heads out of a [S, B, 3E] projection: loops (b*h < 8, s < 5, d < 8), E = 32. */
static void heads(void) {
  int64_t ext[3] = {8, 5, 8};
  MlirAffineExpr linear = add(mul(dim(0), 8), dim(2));
  CHECK_EXPR(braze_affine_simplify_bounded(fdiv(linear, 32), ext, 3), "d0 floordiv 4");
  CHECK_EXPR(braze_affine_simplify_bounded(mod(linear, 32), ext, 3), "(d0 mod 4) * 8 + d2");
  CHECK_EXPR(braze_affine_simplify_bounded(add(mod(linear, 32), cst(32)), ext, 3), "(d0 mod 4) * 8 + d2 + 32");
  /* the out-projection's read of the heads back: rows s * 2 + b < 10, columns < 32 */
  int64_t ext2[3] = {10, 32, 32};
  MlirAffineExpr row = add(mul(dim(0), 4), fdiv(dim(2), 8));
  CHECK_EXPR(braze_affine_simplify_bounded(mod(row, 8), ext2, 3), "(d0 mod 2) * 4 + d2 floordiv 8");
  CHECK_EXPR(braze_affine_simplify_bounded(fdiv(add(mul(dim(0), 32), dim(2)), 64), ext2, 3), "d0 floordiv 2");
}

/* Splits the ranges do not allow stay as they are. */
static void refusals(void) {
  int64_t ext[3] = {8, 5, 16};
  /* d2 < 16 does not stay below 8: (d0 * 8 + d2) floordiv 32 mixes them */
  MlirAffineExpr e = fdiv(add(mul(dim(0), 8), dim(2)), 32);
  CHECK(mlirAffineExprEqual(braze_affine_simplify_bounded(e, ext, 3), e));
  /* a bare `d mod E` is graph-to-loops' partial-dim read: kept */
  CHECK(mlirAffineExprEqual(braze_affine_simplify_bounded(mod(dim(1), 8), ext, 3), mod(dim(1), 8)));
  /* no extent for d3: nothing is known */
  MlirAffineExpr f = mod(add(mul(dim(0), 8), dim(3)), 32);
  CHECK(mlirAffineExprEqual(braze_affine_simplify_bounded(f, ext, 3), f));
  /* whole range inside [0, c): the floordiv is 0 and the mod the sum */
  CHECK_EXPR(braze_affine_simplify_bounded(fdiv(add(dim(1), dim(0)), 16), ext, 3), "0");
}

static void splits(void) {
  MlirAffineExpr with, without;
  /* (d0 mod 4) * 8 + d2 + 32 by the row dim d0 */
  MlirAffineExpr e = add(add(mul(mod(dim(0), 4), 8), dim(2)), cst(32));
  CHECK(braze_affine_split(e, 1u << 0, &with, &without));
  CHECK_EXPR(with, "(d0 mod 4) * 8");
  CHECK_EXPR(without, "d2 + 32");
  /* a term reading d0 and d2 together does not split */
  CHECK(!braze_affine_split(fdiv(add(dim(0), dim(2)), 3), 1u << 0, &with, &without));
  CHECK(braze_affine_dims(e) == ((1u << 0) | (1u << 2)));
}

int main(void) {
  ctx = braze_context_create();
  if (mlirContextIsNull(ctx))
    return 1;
  RUN_CASE(ranges);
  RUN_CASE(heads);
  RUN_CASE(refusals);
  RUN_CASE(splits);
  braze_context_destroy(ctx);
  return check_finish();
}
