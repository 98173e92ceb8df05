/* The targets' codegen IR builder over the MLIR C API (ops, constants, loops,
 * affine expressions expanded into arith on index values). */
#include "ir/build.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "support/affine-bounds.h"
#include "support/context.h"
#include "support/oplist.h"
#include "support/strbuf.h"

CgBuilder cg_builder_at_end(MlirBlock block, MlirLocation loc) {
  return (CgBuilder){mlirLocationGetContext(loc), loc, block, {NULL}, NULL};
}

MlirOperation cg_insert(CgBuilder *b, MlirOperation op) {
  if (mlirOperationIsNull(b->before))
    mlirBlockAppendOwnedOperation(b->block, op);
  else
    mlirBlockInsertOwnedOperationBefore(b->block, b->before, op);
  return op;
}

MlirOperation cg_create(CgBuilder *b, const char *name, intptr_t n_operands, const MlirValue *operands,
                        intptr_t n_results, const MlirType *results, intptr_t n_attrs,
                        const MlirNamedAttribute *attrs) {
  MlirOperationState st = mlirOperationStateGet(braze_ref(name), b->loc);
  if (n_operands)
    mlirOperationStateAddOperands(&st, n_operands, operands);
  if (n_results)
    mlirOperationStateAddResults(&st, n_results, results);
  if (n_attrs)
    mlirOperationStateAddAttributes(&st, n_attrs, attrs);
  return cg_insert(b, mlirOperationCreate(&st));
}

MlirValue cg_op(CgBuilder *b, const char *name, MlirType result, intptr_t n, const MlirValue *operands) {
  return mlirOperationGetResult(cg_create(b, name, n, operands, 1, &result, 0, NULL), 0);
}

MlirNamedAttribute cg_named(MlirContext ctx, const char *name, MlirAttribute attr) {
  return mlirNamedAttributeGet(mlirIdentifierGet(ctx, braze_ref(name)), attr);
}

MlirAttribute cg_parse_attr(MlirContext ctx, const char *text) { return mlirAttributeParseGet(ctx, braze_ref(text)); }

MlirType cg_index_type(MlirContext ctx) { return mlirIndexTypeGet(ctx); }

MlirValue cg_constant(CgBuilder *b, MlirAttribute typed_attr) {
  MlirNamedAttribute value = cg_named(b->ctx, "value", typed_attr);
  MlirType type = mlirAttributeGetType(typed_attr);
  return mlirOperationGetResult(cg_create(b, "arith.constant", 0, NULL, 1, &type, 1, &value), 0);
}

MlirValue cg_index(CgBuilder *b, int64_t value) {
  MlirAttribute attr = mlirIntegerAttrGet(cg_index_type(b->ctx), value);
  CgConstPool *pool = b->pool;
  if (!pool)
    return cg_constant(b, attr);
  for (int i = 0; i < pool->n; ++i)
    if (pool->value[i] == value)
      return pool->result[i];
  MlirOperation first = mlirBlockGetFirstOperation(pool->block);
  CgBuilder at_start = {b->ctx, b->loc, pool->block, first, NULL};
  MlirValue v = cg_constant(&at_start, attr);
  if (pool->n < 64) {
    pool->value[pool->n] = value;
    pool->result[pool->n++] = v;
  }
  return v;
}

MlirValue cg_load(CgBuilder *b, MlirValue memref, intptr_t n, const MlirValue *indices) {
  MlirValue ops[9];
  ops[0] = memref;
  for (intptr_t i = 0; i < n; ++i)
    ops[i + 1] = indices[i];
  MlirType elem = mlirShapedTypeGetElementType(mlirValueGetType(memref));
  return cg_op(b, "memref.load", elem, n + 1, ops);
}

void cg_store(CgBuilder *b, MlirValue value, MlirValue memref, intptr_t n, const MlirValue *indices) {
  MlirValue ops[10];
  ops[0] = value;
  ops[1] = memref;
  for (intptr_t i = 0; i < n; ++i)
    ops[i + 2] = indices[i];
  cg_create(b, "memref.store", n + 2, ops, 0, NULL, 0, NULL);
}

MlirType cg_memref_of(MlirType elem, intptr_t rank, const int64_t *shape) {
  return mlirMemRefTypeContiguousGet(elem, rank, shape, mlirAttributeGetNull());
}

MlirType cg_memref_like(MlirType shaped) {
  int64_t shape[8];
  intptr_t rank = mlirShapedTypeGetRank(shaped);
  for (intptr_t i = 0; i < rank && i < 8; ++i)
    shape[i] = mlirShapedTypeGetDimSize(shaped, i);
  return cg_memref_of(mlirShapedTypeGetElementType(shaped), rank, shape);
}

int64_t cg_num_elements(MlirType shaped) {
  int64_t n = 1;
  for (intptr_t i = 0; i < mlirShapedTypeGetRank(shaped); ++i)
    n *= mlirShapedTypeGetDimSize(shaped, i);
  return n;
}

int64_t cg_elem_bytes(MlirType elem) {
  if (mlirTypeIsAIndex(elem))
    return 8;
  if (mlirTypeIsAInteger(elem)) {
    unsigned w = mlirIntegerTypeGetWidth(elem);
    return w <= 8 ? 1 : (w + 7) / 8;
  }
  if (mlirTypeIsAFloat(elem))
    return (mlirFloatTypeGetWidth(elem) + 7) / 8;
  return 8;
}

/* A block with `n` arguments of the given types, located at b->loc. */
static MlirBlock new_block(CgBuilder *b, intptr_t n, const MlirType *types) {
  MlirLocation locs[40] = {{NULL}};
  for (intptr_t i = 0; i < n && i < 40; ++i)
    locs[i] = b->loc;
  return mlirBlockCreate(n, types, locs);
}

/* scf.for lb..ub by step with iter_args; the caller terminates the body. */
static MlirOperation for_op(CgBuilder *b, MlirValue lb, MlirValue ub, MlirValue step, intptr_t n_iter,
                            const MlirValue *inits, CgBuilder *body, MlirValue *iv, MlirValue *iter) {
  MlirValue operands[3 + CG_MAX_ITER] = {lb, ub, step};
  MlirType types[1 + CG_MAX_ITER] = {cg_index_type(b->ctx)};
  for (intptr_t i = 0; i < n_iter; ++i) {
    operands[3 + i] = inits[i];
    types[1 + i] = mlirValueGetType(inits[i]);
  }
  MlirBlock block = new_block(b, 1 + n_iter, types);
  MlirRegion region = mlirRegionCreate();
  mlirRegionAppendOwnedBlock(region, block);
  MlirOperationState st = mlirOperationStateGet(braze_ref("scf.for"), b->loc);
  mlirOperationStateAddOperands(&st, 3 + n_iter, operands);
  if (n_iter)
    mlirOperationStateAddResults(&st, n_iter, types + 1);
  mlirOperationStateAddOwnedRegions(&st, 1, &region);
  MlirOperation op = cg_insert(b, mlirOperationCreate(&st));
  *body = cg_builder_at_end(block, b->loc);
  body->pool = b->pool;
  *iv = mlirBlockGetArgument(block, 0);
  for (intptr_t i = 0; i < n_iter; ++i)
    iter[i] = mlirBlockGetArgument(block, 1 + i);
  return op;
}

MlirOperation cg_for(CgBuilder *b, MlirValue lb, MlirValue ub, intptr_t n_iter, const MlirValue *inits,
                     CgBuilder *body, MlirValue *iv, MlirValue *iter) {
  return for_op(b, lb, ub, cg_index(b, 1), n_iter, inits, body, iv, iter);
}

MlirOperation cg_for_step(CgBuilder *b, MlirValue lb, MlirValue ub, MlirValue step, intptr_t n_iter,
                          const MlirValue *inits, CgBuilder *body, MlirValue *iv, MlirValue *iter) {
  return for_op(b, lb, ub, step, n_iter, inits, body, iv, iter);
}

MlirOperation cg_if(CgBuilder *b, MlirValue cond, CgBuilder *then_b, CgBuilder *else_b) {
  MlirRegion regions[2];
  CgBuilder *builders[2] = {then_b, else_b};
  MlirBlock blocks[2];
  for (int i = 0; i < 2; ++i) {
    blocks[i] = new_block(b, 0, NULL);
    regions[i] = mlirRegionCreate();
    mlirRegionAppendOwnedBlock(regions[i], blocks[i]);
  }
  MlirOperationState st = mlirOperationStateGet(braze_ref("scf.if"), b->loc);
  mlirOperationStateAddOperands(&st, 1, &cond);
  mlirOperationStateAddOwnedRegions(&st, 2, regions);
  MlirOperation op = cg_insert(b, mlirOperationCreate(&st));
  for (int i = 0; i < 2; ++i) {
    *builders[i] = cg_builder_at_end(blocks[i], b->loc);
    builders[i]->pool = b->pool;
    builders[i]->before = cg_create(builders[i], "scf.yield", 0, NULL, 0, NULL, 0, NULL);
  }
  return op;
}

void cg_yield(CgBuilder *b, intptr_t n, const MlirValue *values) {
  cg_create(b, "scf.yield", n, values, 0, NULL, 0, NULL);
}

MlirOperation cg_parallel(CgBuilder *b, intptr_t n, const int64_t *ub, CgBuilder *body, MlirValue *ivs) {
  MlirValue operands[3 * 8];
  MlirType types[8];
  MlirValue zero = cg_index(b, 0), one = cg_index(b, 1);
  for (intptr_t i = 0; i < n; ++i) {
    operands[i] = zero;
    operands[n + i] = cg_index(b, ub[i]);
    operands[2 * n + i] = one;
    types[i] = cg_index_type(b->ctx);
  }
  MlirBlock block = new_block(b, n, types);
  MlirRegion region = mlirRegionCreate();
  mlirRegionAppendOwnedBlock(region, block);
  char seg[64];
  snprintf(seg, sizeof seg, "array<i32: %d, %d, %d, 0>", (int)n, (int)n, (int)n);
  MlirNamedAttribute attr = cg_named(b->ctx, "operandSegmentSizes", cg_parse_attr(b->ctx, seg));
  MlirOperationState st = mlirOperationStateGet(braze_ref("scf.parallel"), b->loc);
  mlirOperationStateAddOperands(&st, 3 * n, operands);
  mlirOperationStateAddAttributes(&st, 1, &attr);
  mlirOperationStateAddOwnedRegions(&st, 1, &region);
  MlirOperation op = cg_insert(b, mlirOperationCreate(&st));
  CgBuilder end = cg_builder_at_end(block, b->loc);
  end.pool = b->pool;
  MlirOperation reduce = cg_create(&end, "scf.reduce", 0, NULL, 0, NULL, 0, NULL);
  *body = end;
  body->before = reduce;
  for (intptr_t i = 0; i < n; ++i)
    ivs[i] = mlirBlockGetArgument(block, i);
  return op;
}

/* Affine expressions on non-negative index values (loop indices of views):
 * floordiv and mod become unsigned division and remainder. */
MlirValue cg_affine(CgBuilder *b, MlirAffineExpr expr, const MlirValue *dims) {
  if (mlirAffineExprIsADim(expr))
    return dims[mlirAffineDimExprGetPosition(expr)];
  if (mlirAffineExprIsAConstant(expr))
    return cg_index(b, mlirAffineConstantExprGetValue(expr));
  MlirValue ops[2] = {cg_affine(b, mlirAffineBinaryOpExprGetLHS(expr), dims),
                      cg_affine(b, mlirAffineBinaryOpExprGetRHS(expr), dims)};
  const char *name = mlirAffineExprIsAAdd(expr)        ? "arith.addi"
                     : mlirAffineExprIsAMul(expr)      ? "arith.muli"
                     : mlirAffineExprIsAFloorDiv(expr) ? "arith.divui"
                     : mlirAffineExprIsAMod(expr)      ? "arith.remui"
                                                       : "arith.ceildivui";
  return cg_op(b, name, cg_index_type(b->ctx), 2, ops);
}

uint64_t cg_affine_dims(MlirAffineExpr expr) { return braze_affine_dims(expr); }

bool cg_attr_bool(MlirOperation op, const char *name) {
  return !mlirAttributeIsNull(mlirOperationGetDiscardableAttributeByName(op, braze_ref(name)));
}

MlirOperation cg_new_func(MlirOperation old, intptr_t n_in, intptr_t n_out, const MlirType *args, MlirBlock *entry) {
  intptr_t n_args = n_in + n_out;
  MlirContext ctx = mlirOperationGetContext(old);
  MlirLocation loc = mlirOperationGetLocation(old);
  MlirType fty = mlirFunctionTypeGet(ctx, n_args, args, 0, NULL);
  MlirNamedAttribute attrs[2] = {
      cg_named(ctx, "sym_name", mlirOperationGetAttributeByName(old, braze_ref("sym_name"))),
      cg_named(ctx, "function_type", mlirTypeAttrGet(fty)),
  };
  MlirLocation locs[64];
  for (intptr_t i = 0; i < n_args && i < 64; ++i)
    locs[i] = loc;
  *entry = mlirBlockCreate(n_args, args, locs);
  MlirRegion body = mlirRegionCreate();
  mlirRegionAppendOwnedBlock(body, *entry);
  MlirOperationState st = mlirOperationStateGet(braze_ref("func.func"), loc);
  mlirOperationStateAddAttributes(&st, 2, attrs);
  mlirOperationStateAddOwnedRegions(&st, 1, &body);
  MlirOperation fn = mlirOperationCreate(&st);
  MlirAttribute vis = mlirOperationGetAttributeByName(old, braze_ref("sym_visibility"));
  if (!mlirAttributeIsNull(vis))
    mlirOperationSetAttributeByName(fn, braze_ref("sym_visibility"), vis);
  for (intptr_t i = 0; i < mlirOperationGetNumDiscardableAttributes(old); ++i) {
    MlirNamedAttribute a = mlirOperationGetDiscardableAttribute(old, i);
    mlirOperationSetDiscardableAttributeByName(fn, mlirIdentifierStr(a.name), a.attribute);
  }
  MlirType i64 = mlirIntegerTypeGet(ctx, 64);
  mlirOperationSetDiscardableAttributeByName(fn, braze_ref("braze.num_inputs"), mlirIntegerAttrGet(i64, n_in));
  mlirOperationSetDiscardableAttributeByName(fn, braze_ref("braze.num_outputs"), mlirIntegerAttrGet(i64, n_out));
  mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(old), old, fn);
  return fn;
}

/* A private constant memref.global holding `dense` (named __braze_const_N, first
 * free N), and its memref.get_global at b. */
char *cg_unique_symbol(MlirSymbolTable table, const char *stem) {
  for (int n = 0;; ++n) {
    BrazeStr name = {0};
    braze_str_printf(&name, "%s_%d", stem, n);
    if (mlirOperationIsNull(mlirSymbolTableLookup(table, braze_ref(braze_str_cstr(&name)))))
      return name.data;
    braze_str_free(&name);
  }
}

MlirValue cg_global_constant(MlirOperation module, CgBuilder *b, MlirAttribute dense) {
  MlirContext ctx = b->ctx;
  MlirSymbolTable table = mlirSymbolTableCreate(module);
  char *name = cg_unique_symbol(table, "__braze_const");
  mlirSymbolTableDestroy(table);
  MlirType type = cg_memref_like(mlirAttributeGetType(dense));
  MlirNamedAttribute attrs[6] = {
      cg_named(ctx, "sym_name", mlirStringAttrGet(ctx, braze_ref(name))),
      cg_named(ctx, "sym_visibility", mlirStringAttrGet(ctx, braze_ref("private"))),
      cg_named(ctx, "type", mlirTypeAttrGet(type)),
      cg_named(ctx, "initial_value", dense),
      cg_named(ctx, "constant", mlirUnitAttrGet(ctx)),
      cg_named(ctx, "alignment", mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 64), 64)),
  };
  MlirOperationState st = mlirOperationStateGet(braze_ref("memref.global"), b->loc);
  mlirOperationStateAddAttributes(&st, 6, attrs);
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  mlirBlockInsertOwnedOperation(body, 0, mlirOperationCreate(&st));
  MlirNamedAttribute ref = cg_named(ctx, "name", mlirFlatSymbolRefAttrGet(ctx, braze_ref(name)));
  free(name);
  return mlirOperationGetResult(cg_create(b, "memref.get_global", 0, NULL, 1, &type, 1, &ref), 0);
}

bool cg_attr_text_has(MlirAttribute a, const char *needle) {
  BrazeStr s = {0};
  mlirAttributePrint(a, braze_str_callback, &s);
  bool has = strstr(braze_str_cstr(&s), needle) != NULL;
  braze_str_free(&s);
  return has;
}

bool cg_is_declaration(MlirOperation func) {
  return mlirBlockIsNull(mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0)));
}

static bool is_public(MlirOperation op) {
  MlirAttribute vis = mlirOperationGetAttributeByName(op, braze_ref("sym_visibility"));
  return mlirAttributeIsNull(vis) || braze_ref_eq(mlirStringAttrGetValue(vis), "public");
}

size_t cg_collect_functions(MlirOperation module, bool kernels, MlirOperation *out, size_t cap) {
  size_t n = 0;
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    if (!braze_op_is(op, "func.func") || cg_is_declaration(op))
      continue;
    bool kernel = cg_attr_bool(op, "kernel.kind");
    if (kernel != kernels || (!kernels && !is_public(op)))
      continue;
    if (n < cap)
      out[n] = op;
    ++n;
  }
  return n;
}

/* ---- serial loops ---- */

/* One scf.parallel without reductions as nested scf.for, its body in a
 * memref.alloca_scope (stack buffers it allocates are freed per iteration, as the
 * OpenMP lowering's outlined bodies free them). Static stack buffers (a row kernel's
 * row buffers, rewritten by every iteration) are hoisted before the loops instead:
 * scf.for is an automatic allocation scope, so canonicalize inlines the alloca_scope,
 * but the lowering frees nothing per iteration, and a chain's 512-row block kernel
 * grew its stack by 32 KiB per row until it overflowed. */
static void serialize(MlirOperation par) {
  intptr_t n = mlirOperationGetNumOperands(par) / 3;
  MlirBlock old = mlirRegionGetFirstBlock(mlirOperationGetRegion(par, 0));
  CgBuilder b = cg_builder_at_end(mlirOperationGetBlock(par), mlirOperationGetLocation(par));
  b.ctx = mlirOperationGetContext(par);
  b.before = par;
  MlirOperation outer = {NULL};
  for (intptr_t d = 0; d < n; ++d) {
    MlirValue iv;
    CgBuilder body;
    MlirOperation loop = for_op(&b, mlirOperationGetOperand(par, d), mlirOperationGetOperand(par, n + d),
                                mlirOperationGetOperand(par, 2 * n + d), 0, NULL, &body, &iv, NULL);
    if (d == 0)
      outer = loop;
    body.before = cg_create(&body, "scf.yield", 0, NULL, 0, NULL, 0, NULL);
    mlirValueReplaceAllUsesOfWith(mlirBlockGetArgument(old, d), iv);
    b = body;
  }
  MlirBlock scope_block = new_block(&b, 0, NULL);
  MlirRegion region = mlirRegionCreate();
  mlirRegionAppendOwnedBlock(region, scope_block);
  MlirOperationState st = mlirOperationStateGet(braze_ref("memref.alloca_scope"), b.loc);
  mlirOperationStateAddOwnedRegions(&st, 1, &region);
  cg_insert(&b, mlirOperationCreate(&st));
  CgBuilder inner = cg_builder_at_end(scope_block, b.loc);
  MlirOperation ret = cg_create(&inner, "memref.alloca_scope.return", 0, NULL, 0, NULL, 0, NULL);
  MlirOperation term = mlirBlockGetTerminator(old);
  for (MlirOperation op = mlirBlockGetFirstOperation(old); !mlirOperationEqual(op, term);) {
    MlirOperation next = mlirOperationGetNextInBlock(op);
    bool hoist = braze_op_is(op, "memref.alloca") && mlirOperationGetNumOperands(op) == 0 && !mlirOperationIsNull(outer);
    mlirOperationMoveBefore(op, hoist ? outer : ret);
    op = next;
  }
  mlirOperationDestroy(par);
}

static bool is_parallel(MlirOperation op) { return braze_op_is(op, "scf.parallel"); }

void cg_serialize_parallel_loops(MlirOperation func) {
  BrazeOpList loops = {0};
  braze_op_list_collect(func, is_parallel, &loops);
  for (size_t i = 0; i < loops.count; ++i)
    serialize(loops.ops[i]);
  braze_op_list_free(&loops);
}

MlirValue cg_element_address(CgBuilder *b, MlirValue mem) {
  MlirType index = cg_index_type(b->ctx), t = mlirValueGetType(mem);
  MlirValue base = cg_op(b, "memref.extract_aligned_pointer_as_index", index, 1, &mem);
  MlirAttribute layout = mlirMemRefTypeGetLayout(t);
  if (mlirAttributeIsAAffineMap(layout))
    return base; /* identity layout: offset 0 */
  intptr_t rank = mlirShapedTypeGetRank(t);
  MlirType types[2 + 2 * 8];
  types[0] = mlirMemRefTypeGet(mlirShapedTypeGetElementType(t), 0, NULL, mlirAttributeGetNull(),
                               mlirAttributeGetNull());
  for (intptr_t i = 1; i < 2 + 2 * rank; ++i)
    types[i] = index;
  MlirOperation meta = cg_create(b, "memref.extract_strided_metadata", 1, &mem, 2 + 2 * rank, types, 0, NULL);
  MlirValue bytes[2] = {mlirOperationGetResult(meta, 1), cg_index(b, cg_elem_bytes(mlirShapedTypeGetElementType(t)))};
  MlirValue sum[2] = {base, cg_op(b, "arith.muli", index, 2, bytes)};
  return cg_op(b, "arith.addi", index, 2, sum);
}
