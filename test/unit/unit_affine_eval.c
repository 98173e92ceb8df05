/* Unit tests for support/affine-eval.c: affine semantics on integers (floordiv and mod
 * round toward -inf, ceildiv up), and a conv window's position map evaluated point by
 * point as the CUDA template's window plan does (targets/cuda/matmul/window.c). */
#include "mlir-c/AffineExpr.h"
#include "mlir-c/IR.h"
#include "support/affine-eval.h"
#include "support/context.h"
#include "test/unit/check.h"

static MlirContext ctx;

static MlirAffineExpr dim(intptr_t d) { return mlirAffineDimExprGet(ctx, d); }
static MlirAffineExpr cst(int64_t v) { return mlirAffineConstantExprGet(ctx, v); }
static MlirAffineExpr add(MlirAffineExpr a, MlirAffineExpr b) { return mlirAffineAddExprGet(a, b); }
static MlirAffineExpr mul(MlirAffineExpr a, int64_t k) { return mlirAffineMulExprGet(a, cst(k)); }

/* The value of `e` at dims (d0, d1). */
static int64_t at(MlirAffineExpr e, int64_t d0, int64_t d1) {
  BrazeAffineProgram p = {0};
  int64_t dims[2] = {d0, d1}, v = braze_affine_compile(&p, e) ? braze_affine_run(&p, dims) : -999;
  braze_affine_program_free(&p);
  return v;
}

static void semantics(void) {
  MlirAffineExpr shifted = add(dim(0), cst(-7)); /* d0 - 7 */
  CHECK(at(mlirAffineFloorDivExprGet(shifted, cst(4)), 0, 0) == -2);
  CHECK(at(mlirAffineModExprGet(shifted, cst(4)), 0, 0) == 1);
  CHECK(at(mlirAffineCeilDivExprGet(shifted, cst(4)), 0, 0) == -1);
  CHECK(at(mlirAffineFloorDivExprGet(shifted, cst(4)), 9, 0) == 0);
  CHECK(at(add(mul(dim(0), 3), mul(dim(1), -2)), 5, 4) == 7);
  CHECK(at(cst(42), 1, 2) == 42);
}

/* A 3x3 window over a padded 10x10 input of 32 channels (8x8 outputs), as graph-to-loops
 * composes it: p(m, k) = m + (m floordiv 8) 2 + (k floordiv 96) 10 + (k floordiv 32) mod 3. */
static void window(void) {
  MlirAffineExpr m = dim(0), k = dim(1);
  MlirAffineExpr row = mul(mlirAffineFloorDivExprGet(m, cst(8)), 2);
  MlirAffineExpr tap_row = mul(mlirAffineFloorDivExprGet(k, cst(96)), 10);
  MlirAffineExpr tap_col = mlirAffineModExprGet(mlirAffineFloorDivExprGet(k, cst(32)), cst(3));
  MlirAffineExpr pos = add(add(add(m, row), tap_row), tap_col);
  BrazeAffineProgram p = {0};
  CHECK(braze_affine_compile(&p, pos));
  int bad = 0;
  for (int64_t mm = 0; mm < 64; ++mm)
    for (int64_t kk = 0; kk < 288; ++kk) {
      int64_t dims[2] = {mm, kk}, t = kk / 32;
      int64_t want = (mm / 8 + t / 3) * 10 + mm % 8 + t % 3;
      bad += braze_affine_run(&p, dims) != want;
    }
  CHECK(bad == 0);
  braze_affine_program_free(&p);
}

int main(void) {
  ctx = braze_context_create();
  if (mlirContextIsNull(ctx))
    return 1;
  RUN_CASE(semantics);
  RUN_CASE(window);
  braze_context_destroy(ctx);
  return check_finish();
}
