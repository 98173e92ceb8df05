/* cuda-codegen, the extern GEMM (cuda-codegen{matmul=extern}): a matmul kernel's
 * contraction handed to cuBLASLt (runtime/cuda/cublaslt-gemm.c), Inductor's extern
 * kernels. It takes what the tensor-core template refuses: A or B transposed (the maps
 * the graph gives), a B per batch, f32 inputs (computed in full f32), K rows that are
 * not 16-byte multiples.
 *
 * A kernel that is the contraction alone (its one result is the product, or the product
 * cast to the result's type) becomes `kernel.gemm` in the entry writing the result. Any
 * other epilogue runs as a kernel of its own: the graph first calls @NAME_gemm, a
 * declaration marked braze.gemm that writes the f32 product to an intermediate, then
 * @NAME, now an element kernel over the product (its contraction replaced by a read of
 * that intermediate, an extra input), so the epilogue costs one pass over the output. */
#include "targets/cuda/codegen/codegen.h"

#include <stdio.h>
#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "support/context.h"
#include "support/oplist.h"

/* The batch part of a map: all the batch dims in order (1), none (0), else -1. */
static int batch_part(MlirAffineMap map, int n_batch) {
  intptr_t n = mlirAffineMapGetNumResults(map);
  if (n == 2)
    return 0;
  if (n != 2 + n_batch)
    return -1;
  for (int d = 0; d < n_batch; ++d) {
    MlirAffineExpr e = mlirAffineMapGetResult(map, d);
    if (!mlirAffineExprIsADim(e) || mlirAffineDimExprGetPosition(e) != d)
      return -1;
  }
  return 1;
}

/* The last two results of `map` are (first, second) dims exactly. */
static bool ends_with(MlirAffineMap map, int first, int second) {
  intptr_t n = mlirAffineMapGetNumResults(map);
  MlirAffineExpr a = mlirAffineMapGetResult(map, n - 2), b = mlirAffineMapGetResult(map, n - 1);
  return mlirAffineExprIsADim(a) && mlirAffineExprIsADim(b) && mlirAffineDimExprGetPosition(a) == first &&
         mlirAffineDimExprGetPosition(b) == second;
}

static MlirType elem_of(const CuKernel *K, int val) {
  return mlirShapedTypeGetElementType(mlirValueGetType(K->vals[val].tensor));
}

/* Whether result 0 is the product or its cast (one generic: a truncf/extf of it). */
static bool product_only(const CuKernel *K) {
  const CuItem *c = &K->items[0];
  if (K->n_out != 1 || K->n_items > 2)
    return false;
  if (K->n_items == 1)
    return K->out_val[0] == c->out_val;
  const CuItem *it = &K->items[1];
  if (K->out_val[0] != it->out_val || it->n_in != 1 || it->in_val[0] != c->out_val ||
      !mlirAffineMapIsIdentity(it->maps[0]))
    return false;
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(it->op, 0));
  MlirOperation first = mlirBlockGetFirstOperation(body);
  return (braze_op_is(first, "arith.truncf") || braze_op_is(first, "arith.extf")) &&
         braze_op_is(mlirOperationGetNextInBlock(first), "linalg.yield");
}

bool cu_extern_plan(CuKernel *K, CuExtern *e, const char **reason) {
  const CuItem *c = &K->items[0];
  memset(e, 0, sizeof *e);
  int n_par = c->n_dims - 1, dm = n_par - 2, dn = n_par - 1, dk = c->n_dims - 1, n_batch = n_par - 2;
  e->m = c->ext[dm];
  e->n = c->ext[dn];
  e->k = c->ext[dk];
  e->batch = 1;
  for (int d = 0; d < n_batch; ++d)
    e->batch *= c->ext[d];
  if (cu_twin_contraction(K)) {
    *reason = "two-products-of-one-a"; /* the template computes both in one kernel */
    return false;
  }
  if (c->n_in != 2 || K->vals[c->in_val[0]].kind != CV_ARG || K->vals[c->in_val[1]].kind != CV_ARG) {
    *reason = "inputs-not-arguments";
    return false;
  }
  MlirType t = elem_of(K, c->in_val[0]);
  if (!mlirTypeEqual(t, elem_of(K, c->in_val[1])) || !(mlirTypeIsABF16(t) || mlirTypeIsAF16(t) || mlirTypeIsAF32(t))) {
    *reason = "inputs-not-one-of-bf16-f16-f32";
    return false;
  }
  e->dtype_in = mlirTypeIsABF16(t) ? CU_DT_BF16 : mlirTypeIsAF16(t) ? CU_DT_F16 : CU_DT_F32;
  e->tf32 = e->dtype_in == CU_DT_F32 && K->opts->allow_tf32;
  int role_a = -1;
  for (int i = 0; i < 2 && role_a < 0; ++i)
    if (ends_with(c->maps[i], dm, dk) || ends_with(c->maps[i], dk, dm))
      role_a = i;
  if (role_a < 0) {
    *reason = "a-not-m-and-k";
    return false;
  }
  MlirAffineMap ma = c->maps[role_a], mb = c->maps[1 - role_a];
  e->swap = role_a == 1;
  e->trans_a = ends_with(ma, dk, dm);
  if (!ends_with(mb, dk, dn) && !ends_with(mb, dn, dk)) {
    *reason = "b-not-k-and-n";
    return false;
  }
  e->trans_b = ends_with(mb, dn, dk);
  int ba = batch_part(ma, n_batch), bb = batch_part(mb, n_batch);
  if (ba < 0 || bb < 0 || (n_batch && ba == 0)) {
    *reason = "batch-dims-partly-broadcast"; /* A must carry every batch dim; B all or none */
    return false;
  }
  e->stride_a = ba ? e->m * e->k : 0;
  e->stride_b = bb ? e->k * e->n : 0;
  e->product_only = product_only(K);
  e->addend = !e->product_only && e->batch == 1 && cu_extern_addend(K, e);
  MlirType out = e->product_only || e->addend ? elem_of(K, K->out_val[0]) : mlirF32TypeGet(K->ctx);
  if (!(mlirTypeIsABF16(out) || mlirTypeIsAF16(out) || mlirTypeIsAF32(out))) {
    *reason = "result-not-one-of-bf16-f16-f32";
    return false;
  }
  e->dtype_out = mlirTypeIsABF16(out) ? CU_DT_BF16 : mlirTypeIsAF16(out) ? CU_DT_F16 : CU_DT_F32;
  return true;
}

void cu_copy_alternative(MlirOperation from, MlirOperation to, int outputs) {
  MlirAttribute alt = mlirOperationGetDiscardableAttributeByName(from, braze_ref("braze.alternative"));
  if (mlirAttributeIsNull(alt))
    return;
  char text[96];
  snprintf(text, sizeof text, "array<i64: %lld, %lld, %d>", (long long)mlirDenseI64ArrayGetElement(alt, 0),
           (long long)mlirDenseI64ArrayGetElement(alt, 1), outputs);
  mlirOperationSetDiscardableAttributeByName(to, braze_ref("braze.alternative"),
                                             cg_parse_attr(mlirOperationGetContext(to), text));
}

/* The braze.gemm attribute: the GEMM's shape for kernel.gemm. */
void cu_mark_gemm(MlirOperation op, const CuExtern *e) {
  char text[448], addend[160] = "";
  if (e->addend) /* D = alpha A B + beta C: C is call operand addend_arg, from element c_offset */
    snprintf(addend, sizeof addend, ", addend = %d : i64, alpha = %.17e : f64, beta = %.17e : f64, c_offset = %lld : i64",
             e->addend_arg, e->alpha, e->beta, (long long)e->c_offset);
  snprintf(text, sizeof text,
           "{m = %lld : i64, n = %lld : i64, k = %lld : i64, batch = %lld : i64, stride_a = %lld : i64, "
           "stride_b = %lld : i64, trans_a = %s, trans_b = %s, swap = %s%s%s}",
           (long long)e->m, (long long)e->n, (long long)e->k, (long long)e->batch, (long long)e->stride_a,
           (long long)e->stride_b, e->trans_a ? "true" : "false", e->trans_b ? "true" : "false",
           e->swap ? "true" : "false", e->tf32 ? ", tf32" : "", addend);
  mlirOperationSetDiscardableAttributeByName(op, braze_ref("braze.gemm"),
                                             cg_parse_attr(mlirOperationGetContext(op), text));
}

/* Every call of @callee in the module's graph functions gets the product first:
 * %p = call @gemm(a, b); call @callee(args..., %p). */
static void feed_product(MlirOperation module, MlirStringRef callee, const char *gemm, int a, int b, MlirType product) {
  MlirContext ctx = mlirOperationGetContext(module);
  BrazeOpList calls = {0};
  cu_calls_of(module, callee, &calls);
  for (size_t c = 0; c < calls.count; ++c) {
    MlirOperation op = calls.ops[c];
    MlirAttribute sym = mlirOperationGetAttributeByName(op, braze_ref("callee"));
    CgBuilder cb = cg_builder_at_end(mlirOperationGetBlock(op), mlirOperationGetLocation(op));
    cb.before = op;
    MlirValue ab[2] = {mlirOperationGetOperand(op, a), mlirOperationGetOperand(op, b)};
    MlirNamedAttribute to_gemm = cg_named(ctx, "callee", mlirFlatSymbolRefAttrGet(ctx, braze_ref(gemm)));
    MlirOperation gemm_call = cg_create(&cb, "func.call", 2, ab, 1, &product, 1, &to_gemm);
    cu_copy_alternative(op, gemm_call, 0); /* under matmul=auto, part of the extern alternative */
    MlirValue p = mlirOperationGetResult(gemm_call, 0);
    intptr_t n = mlirOperationGetNumOperands(op), nr = mlirOperationGetNumResults(op);
    MlirValue ops[CU_MAX_INPUTS * 3];
    MlirType results[CU_MAX_INPUTS * 2];
    for (intptr_t i = 0; i < n; ++i)
      ops[i] = mlirOperationGetOperand(op, i);
    ops[n] = p;
    for (intptr_t i = 0; i < nr; ++i)
      results[i] = mlirValueGetType(mlirOperationGetResult(op, i));
    MlirNamedAttribute keep = cg_named(ctx, "callee", sym);
    MlirOperation call = cg_create(&cb, "func.call", n + 1, ops, nr, results, 1, &keep);
    cu_copy_alternative(op, call, (int)nr);
    for (intptr_t i = 0; i < nr; ++i)
      mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(op, i), mlirOperationGetResult(call, i));
    mlirOperationDestroy(op);
  }
  braze_op_list_free(&calls);
}

bool cu_emit_extern(CuKernel *K, const CuExtern *e) {
  if (e->product_only || e->addend) /* the entry calls cuBLASLt for this kernel: no gpu.func (cuda-codegen.c) */
    return true;
  /* the product as an f32 intermediate from @NAME_gemm, read by the epilogue kernel */
  CuItem *c = &K->items[0];
  if (K->n_in + 1 + K->n_out > CU_MAX_INPUTS * 3 || K->n_in + 1 > CU_MAX_INPUTS * 2)
    return cu_fail(K, K->old, "too many arguments for the extern GEMM's epilogue kernel");
  char gemm[256];
  snprintf(gemm, sizeof gemm, "%s_gemm", K->name);
  int a = K->vals[c->in_val[e->swap ? 1 : 0]].arg, b = K->vals[c->in_val[e->swap ? 0 : 1]].arg;
  MlirType product = mlirValueGetType(K->vals[c->out_val].tensor);
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(K->old, 0));
  /* @NAME_gemm(A, B, P) over memrefs: two inputs, the product written to P */
  MlirType args[3] = {cg_memref_like(mlirValueGetType(mlirBlockGetArgument(body, a))),
                      cg_memref_like(mlirValueGetType(mlirBlockGetArgument(body, b))), cg_memref_like(product)};
  MlirOperation decl = cu_declare_kernel(K->old, mlirStringAttrGet(K->ctx, braze_ref(gemm)), 3, args, 2);
  cu_mark_gemm(decl, e);
  MlirAttribute sym = mlirOperationGetAttributeByName(K->old, braze_ref("sym_name"));
  feed_product(K->module, mlirStringAttrGetValue(sym), gemm, a, b, product);
  /* the kernel: the product is now input n_in, the contraction gone */
  memmove(K->arg_types + K->n_in + 1, K->arg_types + K->n_in, (size_t)K->n_out * sizeof *K->arg_types);
  K->arg_types[K->n_in] = cg_memref_like(product);
  K->vals[c->out_val].kind = CV_ARG;
  K->vals[c->out_val].arg = K->n_in++;
  memmove(K->items, K->items + 1, (size_t)(K->n_items - 1) * sizeof *K->items);
  K->n_items--;
  for (int i = 0; i < K->n_vals; ++i)
    if (K->vals[i].kind == CV_ITEM)
      K->vals[i].item--;
  return cu_choose_element(K);
}
