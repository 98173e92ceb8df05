/* Runtime loops (targets/common/dynamic-loops.h), contractions through cblas_sgemm:
 * f32 out[batch.., m, n] += a * b over one reduction dim k, one call per batch
 * position with run-time M, N, K (beta 1: the generic accumulates into its init); an
 * operand read through a view is first copied to a plain buffer in the workspace. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/build.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Dialect/LLVM.h"
#include "support/context.h"
#include "support/diag.h"
#include "targets/common/dynamic-loops-internal.h"

/* ---- contractions through cblas_sgemm (OpenBLAS; the library links it) ---- */

enum { CBLAS_ROW_MAJOR = 101, CBLAS_NO_TRANS = 111, CBLAS_TRANS = 112 };

static bool is_dim(MlirAffineExpr x, int d) {
  return mlirAffineExprIsADim(x) && (int)mlirAffineDimExprGetPosition(x) == d;
}

/* The map's last two results are (d0, d1) or (d1, d0) as plain dims; the others do
 * not read m, n or k. */
static bool blas_layout(MlirAffineMap map, int d0, int d1, uint64_t mnk, bool *trans) {
  intptr_t r = mlirAffineMapGetNumResults(map);
  if (r < 2)
    return false;
  for (intptr_t i = 0; i < r - 2; ++i)
    if (cg_affine_dims(mlirAffineMapGetResult(map, i)) & mnk)
      return false;
  MlirAffineExpr a = mlirAffineMapGetResult(map, r - 2), b = mlirAffineMapGetResult(map, r - 1);
  if (is_dim(a, d0) && is_dim(b, d1))
    *trans = false;
  else if (is_dim(a, d1) && is_dim(b, d0))
    *trans = true;
  else
    return false;
  return true;
}

/* f32 out[batch.., m, n] += a * b over k, the output's map plain dims. *pack_a /
 * *pack_b: that operand is read through a view (its last two indices are not plain
 * (m, k) / (k, n) dims or their transposes) and is copied to a plain one first. */
bool  dl_blas_fits(const Gen *g, int *dm, int *dn, int *dk, bool *ta, bool *tb, bool *pack_a, bool *pack_b) {
  if (dl_axpy_dim(g) < 0 && !dl_contraction_body(g))
    return false;
  for (int i = 0; i < 3; ++i)
    if (!mlirTypeIsAF32(mlirShapedTypeGetElementType(mlirValueGetType(g->opnd[i]))))
      return false;
  MlirAffineMap out = g->maps[2];
  intptr_t r = mlirAffineMapGetNumResults(out);
  if (r < 2 || r != g->n - 1)
    return false;
  for (intptr_t i = 0; i < r; ++i)
    if (!mlirAffineExprIsADim(mlirAffineMapGetResult(out, i)))
      return false;
  *dm = (int)mlirAffineDimExprGetPosition(mlirAffineMapGetResult(out, r - 2));
  *dn = (int)mlirAffineDimExprGetPosition(mlirAffineMapGetResult(out, r - 1));
  *dk = -1;
  for (int d = 0; d < g->n; ++d)
    if (g->red[d])
      *dk = d;
  uint64_t mnk = (1ull << *dm) | (1ull << *dn) | (1ull << *dk);
  *pack_a = !blas_layout(g->maps[0], *dm, *dk, mnk, ta);
  *pack_b = !blas_layout(g->maps[1], *dk, *dn, mnk, tb);
  if (*pack_a)
    *ta = false;
  if (*pack_b)
    *tb = false;
  return true;
}

/* Operand i copied into a plain buffer over loop dims `dims` (batch..., row, col),
 * every dim at run time; g's buffer, map and dims for i become the copy's. */
static void pack_operand(Em *e, CgBuilder *b, Gen *g, int i, const int *dims, int nd) {
  MlirValue sizes[MAX_LOOPS];
  BrazeDynDim forms[MAX_LOOPS];
  for (int j = 0; j < nd; ++j) {
    sizes[j] = g->ub[dims[j]];
    forms[j] = g->ubf[dims[j]];
  }
  MlirValue m = dl_ws_view(e, b, mlirF32TypeGet(e->ctx), nd, forms);
  MlirValue ivs[MAX_LOOPS], pivs[MAX_LOOPS];
  for (int d = 0; d < g->n; ++d)
    ivs[d] = cg_index(b, 0);
  CgBuilder in, ib;
  dl_par_loop(e, b, nd - 1, sizes, &in, pivs);
  for (int j = 0; j < nd - 1; ++j)
    ivs[dims[j]] = pivs[j];
  MlirValue iv;
  cg_for(&in, cg_index(&in, 0), sizes[nd - 1], 0, NULL, &ib, &iv, NULL);
  ivs[dims[nd - 1]] = iv;
  MlirValue v = dl_load_at(e, &ib, g->mem[i], g->maps[i], ivs);
  MlirValue at[MAX_LOOPS];
  for (int j = 0; j < nd; ++j)
    at[j] = ivs[dims[j]];
  cg_store(&ib, v, m, nd, at);
  cg_yield(&ib, 0, NULL);
  MlirAffineExpr exprs[MAX_LOOPS];
  for (int j = 0; j < nd; ++j)
    exprs[j] = mlirAffineDimExprGet(e->ctx, dims[j]);
  g->mem[i] = m;
  g->maps[i] = mlirAffineMapGet(e->ctx, g->n, 0, nd, exprs);
  g->packed[i] = true;
  for (int j = 0; j < nd; ++j)
    g->pdims[i][j] = sizes[j];
}

static void declare_sgemm(Em *e) {
  MlirSymbolTable table = mlirSymbolTableCreate(e->module);
  bool have = !mlirOperationIsNull(mlirSymbolTableLookup(table, braze_ref("cblas_sgemm")));
  mlirSymbolTableDestroy(table);
  if (have)
    return;
  MlirContext ctx = e->ctx;
  MlirType i32 = mlirIntegerTypeGet(ctx, 32), f32 = mlirF32TypeGet(ctx), ptr = mlirLLVMPointerTypeGet(ctx, 0);
  MlirType args[14] = {i32, i32, i32, i32, i32, i32, f32, ptr, i32, ptr, i32, f32, ptr, i32};
  MlirType fty = mlirFunctionTypeGet(ctx, 14, args, 0, NULL);
  MlirNamedAttribute attrs[3] = {
      cg_named(ctx, "sym_name", mlirStringAttrGet(ctx, braze_ref("cblas_sgemm"))),
      cg_named(ctx, "function_type", mlirTypeAttrGet(fty)),
      cg_named(ctx, "sym_visibility", mlirStringAttrGet(ctx, braze_ref("private"))),
  };
  MlirOperationState st = mlirOperationStateGet(braze_ref("func.func"), mlirOperationGetLocation(e->module));
  mlirOperationStateAddAttributes(&st, 3, attrs);
  MlirRegion body = mlirRegionCreate();
  mlirOperationStateAddOwnedRegions(&st, 1, &body);
  mlirBlockInsertOwnedOperation(mlirRegionGetFirstBlock(mlirOperationGetRegion(e->module, 0)), 0,
                                mlirOperationCreate(&st));
}

static MlirValue as_i32(Em *e, CgBuilder *b, MlirValue index) {
  return cg_op(b, "arith.index_cast", mlirIntegerTypeGet(e->ctx, 32), 1, &index);
}

MlirValue  dl_operand_dim(Em *e, CgBuilder *b, const Gen *g, int i, intptr_t r) {
  return i < 3 && g->packed[i] ? g->pdims[i][r] : dl_dim_value(e, b, g->opnd[i], r);
}

/* An !llvm.ptr to the element of operand i that its map reaches at `ivs`, with the
 * row-major strides of its run-time dims. */
static MlirValue element_ptr(Em *e, CgBuilder *b, const Gen *g, int i, const MlirValue *ivs) {
  MlirType index = cg_index_type(e->ctx);
  MlirValue mem = g->mem[i];
  MlirValue addr = cg_op(b, "memref.extract_aligned_pointer_as_index", index, 1, &mem);
  MlirValue stride = cg_index(b, cg_elem_bytes(mlirShapedTypeGetElementType(mlirValueGetType(mem))));
  for (intptr_t r = mlirAffineMapGetNumResults(g->maps[i]) - 1; r >= 0; --r) {
    MlirValue at = cg_affine(b, mlirAffineMapGetResult(g->maps[i], r), ivs);
    MlirValue off = cg_op(b, "arith.muli", index, 2, (MlirValue[]){at, stride});
    addr = cg_op(b, "arith.addi", index, 2, (MlirValue[]){addr, off});
    stride = cg_op(b, "arith.muli", index, 2, (MlirValue[]){stride, dl_operand_dim(e, b, g, i, r)});
  }
  MlirValue i64 = cg_op(b, "arith.index_cast", mlirIntegerTypeGet(e->ctx, 64), 1, &addr);
  return cg_op(b, "llvm.inttoptr", mlirLLVMPointerTypeGet(e->ctx, 0), 1, &i64);
}

/* One cblas_sgemm per batch position (beta 1: the generic accumulates into its init). */
void  dl_emit_blas(Em *e, CgBuilder *b, Gen *g, int dm, int dn, int dk, bool ta, bool tb, bool pack_a,
                      bool pack_b) {
  declare_sgemm(e);
  int dims[MAX_LOOPS], nb = 0;
  MlirAffineMap out = g->maps[2];
  for (intptr_t r = 0; r + 2 < mlirAffineMapGetNumResults(out); ++r)
    dims[nb++] = (int)mlirAffineDimExprGetPosition(mlirAffineMapGetResult(out, r));
  if (pack_a) {
    dims[nb] = dm;
    dims[nb + 1] = dk;
    pack_operand(e, b, g, 0, dims, nb + 2);
  }
  if (pack_b) {
    dims[nb] = dk;
    dims[nb + 1] = dn;
    pack_operand(e, b, g, 1, dims, nb + 2);
  }
  MlirValue ivs[MAX_LOOPS];
  CgBuilder in = *b;
  for (int d = 0; d < g->n; ++d) {
    if (d == dm || d == dn || d == dk) {
      ivs[d] = cg_index(&in, 0);
      continue;
    }
    CgBuilder body;
    MlirValue iv;
    cg_for(&in, cg_index(&in, 0), g->ub[d], 0, NULL, &body, &iv, NULL);
    cg_yield(&body, 0, NULL);
    body.before = mlirBlockGetTerminator(body.block);
    ivs[d] = iv;
    in = body;
  }
  MlirContext ctx = e->ctx;
  MlirType i32 = mlirIntegerTypeGet(ctx, 32), f32 = mlirF32TypeGet(ctx);
  intptr_t ra = mlirAffineMapGetNumResults(g->maps[0]), rb = mlirAffineMapGetNumResults(g->maps[1]);
  MlirValue args[14] = {
      cg_constant(&in, mlirIntegerAttrGet(i32, CBLAS_ROW_MAJOR)),
      cg_constant(&in, mlirIntegerAttrGet(i32, ta ? CBLAS_TRANS : CBLAS_NO_TRANS)),
      cg_constant(&in, mlirIntegerAttrGet(i32, tb ? CBLAS_TRANS : CBLAS_NO_TRANS)),
      as_i32(e, &in, g->ub[dm]),
      as_i32(e, &in, g->ub[dn]),
      as_i32(e, &in, g->ub[dk]),
      cg_constant(&in, mlirFloatAttrDoubleGet(ctx, f32, 1.0)),
      element_ptr(e, &in, g, 0, ivs),
      as_i32(e, &in, dl_operand_dim(e, &in, g, 0, ra - 1)),
      element_ptr(e, &in, g, 1, ivs),
      as_i32(e, &in, dl_operand_dim(e, &in, g, 1, rb - 1)),
      cg_constant(&in, mlirFloatAttrDoubleGet(ctx, f32, 1.0)),
      element_ptr(e, &in, g, 2, ivs),
      as_i32(e, &in, g->ub[dn]),
  };
  MlirNamedAttribute callee = cg_named(ctx, "callee", mlirFlatSymbolRefAttrGet(ctx, braze_ref("cblas_sgemm")));
  cg_create(&in, "func.call", 14, args, 0, NULL, 1, &callee);
}

