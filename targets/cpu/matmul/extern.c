/* cpu-codegen, the matmul extern kernel (matmul=extern, Inductor's aten-mm path): the
 * contraction of a `tem` kernel becomes one call of OpenBLAS's cblas_sgemm per batch
 * position, into an f32 buffer (a kernel result when one fits, else a kernel-local
 * alloc); the epilogue then runs as a separate pass over that buffer (scf.parallel over
 * rows and panels, the template's vector epilogue on one row at a time), in place.
 *
 *   func.func private @cblas_sgemm(i32, i32, i32, i32, i32, i32, f32, !llvm.ptr, i32,
 *                                  !llvm.ptr, i32, f32, !llvm.ptr, i32)
 *   scf.for batch...: func.call @cblas_sgemm(RowMajor, transA, transB, M, N, K, 1.0,
 *                                            A + offset, lda, B + offset, ldb, 0.0, C + offset, N)
 *   scf.parallel (batch..., m, panel): epilogue on C[batch, m, panel], stores
 *
 * The emitted library then links -lopenblas (emit.c). Refused (reason in the remark,
 * the kernel then takes the template or loops): f16/bf16 operands (`extern-dtype`), A
 * or B whose last two indices are not (m,k)/(k,m) and (k,n)/(n,k) as plain dims, or
 * whose other indices read m, n or k (`extern-layout`). */
#include <stdio.h>
#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Dialect/LLVM.h"
#include "support/context.h"
#include "support/diag.h"
#include "targets/cpu/matmul/internal.h"

enum { CBLAS_ROW_MAJOR = 101, CBLAS_NO_TRANS = 111, CBLAS_TRANS = 112 };

static bool is_dim(MlirAffineExpr e, int d) { return mlirAffineExprIsADim(e) && mlirAffineDimExprGetPosition(e) == d; }

/* The operand's last two indices are (d0, d1) (no transpose) or (d1, d0) (transposed),
 * its leading ones read only batch dims. *trans: transposed; *ld: its row length. */
static bool operand_layout(const TmPlan *p, MlirAffineMap map, MlirType t, int d0, int d1, bool *trans, int64_t *ld) {
  intptr_t n = mlirAffineMapGetNumResults(map);
  if (n < 2)
    return false;
  uint64_t inner = (1ull << p->nb) | (2ull << p->nb) | (4ull << p->nb);
  for (intptr_t r = 0; r < n - 2; ++r)
    if (cg_affine_dims(mlirAffineMapGetResult(map, r)) & inner)
      return false;
  MlirAffineExpr a = mlirAffineMapGetResult(map, n - 2), b = mlirAffineMapGetResult(map, n - 1);
  if (is_dim(a, d0) && is_dim(b, d1))
    *trans = false;
  else if (is_dim(a, d1) && is_dim(b, d0))
    *trans = true;
  else
    return false;
  *ld = mlirShapedTypeGetDimSize(t, n - 1);
  return true;
}

const char *tm_extern_refusal(const TmPlan *p) {
  if (p->n_products != 1)
    return "extern-two-products";
  if (p->has_pad)
    return "extern-zero-pad"; /* A is a pad of an argument, not memory */
  if (!mlirTypeIsAF32(p->a_elem) || !mlirTypeIsAF32(p->b_elem))
    return "extern-dtype";
  bool t;
  int64_t ld;
  int dm = p->nb, dn = p->nb + 1, dk = p->nb + 2;
  MlirType at = mlirValueGetType(p->vals[p->a_val].tensor), bt = mlirValueGetType(p->vals[p->b_val].tensor);
  if (!operand_layout(p, p->a_map, at, dm, dk, &t, &ld) || !operand_layout(p, p->b_map, bt, dk, dn, &t, &ld))
    return "extern-layout";
  return NULL;
}

/* `func.func private @cblas_sgemm(...)` in the module, once. */
static void declare_sgemm(TmEmit *E) {
  MlirContext ctx = E->p->ctx;
  MlirSymbolTable table = mlirSymbolTableCreate(E->p->module);
  bool have = !mlirOperationIsNull(mlirSymbolTableLookup(table, braze_ref("cblas_sgemm")));
  mlirSymbolTableDestroy(table);
  if (have)
    return;
  MlirType i32 = mlirIntegerTypeGet(ctx, 32), f32 = mlirF32TypeGet(ctx), ptr = mlirLLVMPointerTypeGet(ctx, 0);
  MlirType args[14] = {i32, i32, i32, i32, i32, i32, f32, ptr, i32, ptr, i32, f32, ptr, i32};
  MlirType fty = mlirFunctionTypeGet(ctx, 14, args, 0, NULL);
  MlirNamedAttribute attrs[3] = {
      cg_named(ctx, "sym_name", mlirStringAttrGet(ctx, braze_ref("cblas_sgemm"))),
      cg_named(ctx, "function_type", mlirTypeAttrGet(fty)),
      cg_named(ctx, "sym_visibility", mlirStringAttrGet(ctx, braze_ref("private"))),
  };
  MlirOperationState st = mlirOperationStateGet(braze_ref("func.func"), mlirOperationGetLocation(E->p->old));
  mlirOperationStateAddAttributes(&st, 3, attrs);
  MlirRegion body = mlirRegionCreate();
  mlirOperationStateAddOwnedRegions(&st, 1, &body);
  MlirBlock mod = mlirRegionGetFirstBlock(mlirOperationGetRegion(E->p->module, 0));
  mlirBlockInsertOwnedOperation(mod, 0, mlirOperationCreate(&st));
}

static MlirValue i32_const(CgBuilder *b, int64_t v) {
  return cg_constant(b, mlirIntegerAttrGet(mlirIntegerTypeGet(b->ctx, 32), v));
}

/* An !llvm.ptr to the element of `mem` that `map` reaches at dims (m, n, k at 0). */
static MlirValue element_pointer(CgBuilder *b, MlirValue mem, MlirAffineMap map, const MlirValue *dims) {
  MlirType t = mlirValueGetType(mem);
  MlirType index = cg_index_type(b->ctx);
  MlirValue addr = cg_op(b, "memref.extract_aligned_pointer_as_index", index, 1, &mem);
  int64_t stride = cg_elem_bytes(mlirShapedTypeGetElementType(t));
  for (intptr_t r = mlirAffineMapGetNumResults(map) - 1; r >= 0; --r) {
    MlirValue i = cg_affine(b, mlirAffineMapGetResult(map, r), dims);
    addr = tm_index_op(b, "arith.addi", addr, tm_index_op(b, "arith.muli", i, cg_index(b, stride)));
    stride *= mlirShapedTypeGetDimSize(t, r);
  }
  MlirValue i64 = cg_op(b, "arith.index_cast", mlirIntegerTypeGet(b->ctx, 64), 1, &addr);
  return cg_op(b, "llvm.inttoptr", mlirLLVMPointerTypeGet(b->ctx, 0), 1, &i64);
}

/* The f32 buffer the product goes to: the out memref of a result of the output's
 * shape (the product's own first), or a kernel-local alloc (*local). */
static MlirValue product_buffer(TmEmit *E, bool *local) {
  TmPlan *p = E->p;
  int pick = p->vals[p->mm_val].out_index;
  for (int v = 0; pick < 0 && v < p->n_vals; ++v) {
    const TmVal *val = &p->vals[v];
    if (val->kind == TV_TILE && val->out_index >= 0 &&
        mlirTypeIsAF32(mlirShapedTypeGetElementType(mlirValueGetType(val->tensor))))
      pick = val->out_index;
  }
  *local = pick < 0;
  if (pick >= 0)
    return mlirBlockGetArgument(E->entry, p->n_in + pick);
  MlirNamedAttribute attrs[2] = {
      cg_named(p->ctx, "operandSegmentSizes", cg_parse_attr(p->ctx, "array<i32: 0, 0>")),
      cg_named(p->ctx, "alignment", mlirIntegerAttrGet(mlirIntegerTypeGet(p->ctx, 64), 64)),
  };
  MlirType mt = cg_memref_like(mlirValueGetType(p->vals[p->mm_val].tensor));
  return mlirOperationGetResult(cg_create(&E->fb, "memref.alloc", 0, NULL, 1, &mt, 2, attrs), 0);
}

static void emit_calls(TmEmit *E, MlirValue C) {
  TmPlan *p = E->p;
  int dm = p->nb, dn = p->nb + 1, dk = p->nb + 2;
  bool ta, tb;
  int64_t lda, ldb;
  MlirType at = mlirValueGetType(p->vals[p->a_val].tensor), bt = mlirValueGetType(p->vals[p->b_val].tensor);
  operand_layout(p, p->a_map, at, dm, dk, &ta, &lda);
  operand_layout(p, p->b_map, bt, dk, dn, &tb, &ldb);
  CgBuilder b = E->fb;
  MlirValue dims[TM_MAX_DIMS];
  for (int d = 0; d < p->nb; ++d) {
    CgBuilder inner;
    dims[d] = tm_range(&b, cg_index(&b, 0), cg_index(&b, p->batch[d]), &inner);
    b = inner;
  }
  dims[dm] = dims[dn] = dims[dk] = cg_index(&b, 0);
  MlirContext ctx = p->ctx;
  int nc = p->nb + 2;
  MlirAffineMap c_map = mlirAffineMapMultiDimIdentityGet(ctx, nc);
  MlirValue args[14] = {
      i32_const(&b, CBLAS_ROW_MAJOR),
      i32_const(&b, ta ? CBLAS_TRANS : CBLAS_NO_TRANS),
      i32_const(&b, tb ? CBLAS_TRANS : CBLAS_NO_TRANS),
      i32_const(&b, p->M),
      i32_const(&b, p->N),
      i32_const(&b, p->K),
      cg_constant(&b, mlirFloatAttrDoubleGet(ctx, mlirF32TypeGet(ctx), 1.0)),
      element_pointer(&b, E->mem[p->a_val], p->a_map, dims),
      i32_const(&b, lda),
      element_pointer(&b, E->mem[p->b_val], p->b_map, dims),
      i32_const(&b, ldb),
      cg_constant(&b, mlirFloatAttrDoubleGet(ctx, mlirF32TypeGet(ctx), 0.0)),
      element_pointer(&b, C, c_map, dims),
      i32_const(&b, p->N),
  };
  MlirNamedAttribute callee = cg_named(ctx, "callee", mlirFlatSymbolRefAttrGet(ctx, braze_ref("cblas_sgemm")));
  cg_create(&b, "func.call", 14, args, 0, NULL, 1, &callee);
}

/* The epilogue (and the stores of results other than C) over C, one row per step. */
static bool emit_epilogue_pass(TmEmit *E, MlirValue C) {
  TmPlan *p = E->p;
  int64_t ub[TM_MAX_BATCH + 2];
  for (int d = 0; d < p->nb; ++d)
    ub[d] = p->batch[d];
  ub[p->nb] = p->M;
  ub[p->nb + 1] = (p->N + p->nr - 1) / p->nr;
  CgBuilder pb;
  MlirValue ivs[TM_MAX_BATCH + 2], dims[TM_MAX_DIMS];
  cg_parallel(&E->fb, p->nb + 2, ub, &pb, ivs);
  for (int d = 0; d < p->nb + 1; ++d)
    dims[d] = ivs[d];
  MlirValue n0 = tm_index_op(&pb, "arith.muli", ivs[p->nb + 1], cg_index(&pb, p->nr));
  MlirValue acc[TM_MAX_VECS];
  for (int v = 0; v < p->nv; ++v) {
    dims[p->nb + 1] = cg_index_add(&pb, n0, (int64_t)v * p->vw);
    MlirValue mask = {NULL};
    if (p->N % p->nr != 0)
      mask = tm_mask(E, &pb, tm_index_op(&pb, "arith.subi", cg_index(&pb, p->N), dims[p->nb + 1]));
    acc[v] = tm_vload(E, &pb, C, p->nb + 2, dims, mask);
  }
  return tm_epilogue(E, &pb, dims, 1, &ivs[p->nb], n0, acc);
}

bool tm_emit_extern(TmPlan *p) {
  TmEmit E = {.p = p};
  if (!tm_build_signature(&E)) {
    braze_emit_error(mlirOperationGetLocation(p->old), "cpu-codegen: kernel @%s: too many arguments", p->name);
    return false;
  }
  tm_bind_values(&E);
  declare_sgemm(&E);
  bool local;
  MlirValue C = product_buffer(&E, &local);
  emit_calls(&E, C);
  /* Nothing more to do when the product is the only value and is already in place. */
  bool only_product = p->n_epi == 0 && p->vals[p->mm_val].out_index2 < 0 && !local;
  if (!only_product && !emit_epilogue_pass(&E, C)) {
    mlirOperationDestroy(E.fn);
    return false;
  }
  if (local)
    cg_create(&E.fb, "memref.dealloc", 1, &C, 0, NULL, 0, NULL);
  int64_t calls = 1;
  for (int d = 0; d < p->nb; ++d)
    calls *= p->batch[d];
  char text[96];
  snprintf(text, sizeof text, "extern cblas_sgemm x %lld, epilogue vw=%d nr=%d", (long long)calls, p->vw, p->nr);
  mlirOperationSetDiscardableAttributeByName(E.fn, braze_ref("braze.template"), mlirStringAttrGet(p->ctx, braze_ref(text)));
  tm_note_autotune(p, E.fn);
  if (p->opts->remarks)
    braze_emit_remark(mlirOperationGetLocation(p->old), "cpu-codegen: kernel @%s: matmul %s, %lldx%lldx%lld", p->name,
                      text, (long long)p->M, (long long)p->N, (long long)p->K);
  mlirOperationDestroy(p->old);
  return true;
}
