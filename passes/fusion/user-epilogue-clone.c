/* User-kernel epilogue fusion, the code: the epilogue (a chain of all-parallel
 * linalg.generics, whatever their scalar bodies compute) is cloned at every store
 * site of the output inside the copy of the user kernel (see passes/fusion/user-epilogue.h). The
 * generics' other inputs are loaded from the copy's extra memref arguments at the
 * stored position through their indexing maps (a bias read at (i, j) -> (j), a
 * residual at (i, j)). A vector store gets the epilogue on the whole vector when every
 * other input is read either at one element per vector (no dependence on the last
 * index: a scalar load, broadcast) or contiguously along it (a vector load): the body's
 * ops are elementwise, so each becomes its vector form. Otherwise it is done lane by
 * lane (extract, epilogue at index + lane, insert). Both compute epilogue(v) per lane. */
#include <stdlib.h>
#include <string.h>

#include "ir/build.h"
#include "mlir-c/AffineMap.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "passes/fusion/user-epilogue.h"
#include "support/context.h"
#include "support/valuemap.h"

/* What the clone maps `v` to; values from outside the cloned body map to themselves. */
static MlirValue mapped(const BrazeValueMap *m, MlirValue v) {
  MlirValue to = v;
  braze_valuemap_find(m, v, &to);
  return to;
}

typedef struct {
  const MlirOperation *chain;
  size_t n_chain;
  MlirValue input; /* the output tensor the first generic reads */
  const MlirValue *extra;
  size_t n_extra;
  MlirBlock entry; /* the clone's entry block */
  int extra_arg0;
} Epilogue;

static MlirValue extra_arg(const Epilogue *e, MlirValue tensor) {
  for (size_t i = 0; i < e->n_extra; ++i)
    if (mlirValueEqual(e->extra[i], tensor))
      return mlirBlockGetArgument(e->entry, e->extra_arg0 + (intptr_t)i);
  return (MlirValue){NULL};
}

/* Operand k of generic g at the store's indices: the running value, or a load. */
static MlirValue operand_value(const Epilogue *e, CgBuilder *b, MlirOperation g, intptr_t k, MlirValue cur_tensor,
                               MlirValue cur, const MlirValue *idx) {
  MlirValue in = mlirOperationGetOperand(g, k);
  if (mlirValueEqual(in, cur_tensor))
    return cur;
  MlirAttribute maps = mlirOperationGetAttributeByName(g, braze_ref("indexing_maps"));
  MlirAffineMap m = mlirAffineMapAttrGetValue(mlirArrayAttrGetElement(maps, k));
  intptr_t nr = mlirAffineMapGetNumResults(m);
  MlirValue *at = calloc((size_t)nr + 1, sizeof *at);
  for (intptr_t r = 0; r < nr; ++r)
    at[r] = cg_affine(b, mlirAffineMapGetResult(m, r), idx);
  MlirValue v = cg_load(b, extra_arg(e, in), nr, at);
  free(at);
  return v;
}

static MlirType vector_of(MlirType elt, int64_t lanes) { return mlirVectorTypeGet(1, &lanes, elt); }

/* Clone a generic's body (block arguments mapped in m already) before b's point; with
 * lanes > 0 every result (and constant) becomes a vector of that many lanes. The
 * yielded value's clone. */
static MlirValue clone_body(CgBuilder *b, MlirBlock body, BrazeValueMap *m, int64_t lanes) {
  MlirOperation term = mlirBlockGetTerminator(body);
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationEqual(op, term);
       op = mlirOperationGetNextInBlock(op)) {
    MlirOperation copy = mlirOperationClone(op);
    for (intptr_t i = 0, n = mlirOperationGetNumOperands(copy); i < n; ++i)
      mlirOperationSetOperand(copy, i, mapped(m, mlirOperationGetOperand(op, i)));
    for (intptr_t r = 0, n = mlirOperationGetNumResults(copy); r < n && lanes > 0; ++r) {
      MlirValue res = mlirOperationGetResult(copy, r);
      MlirType vt = vector_of(mlirValueGetType(res), lanes);
      mlirValueSetType(res, vt);
      if (braze_op_is(copy, "arith.constant")) {
        MlirAttribute val = mlirOperationGetAttributeByName(op, braze_ref("value"));
        mlirOperationSetInherentAttributeByName(copy, braze_ref("value"), mlirDenseElementsAttrSplatGet(vt, val));
      }
    }
    cg_insert(b, copy);
    for (intptr_t r = 0, n = mlirOperationGetNumResults(op); r < n; ++r)
      braze_valuemap_put(m, mlirOperationGetResult(op, r), mlirOperationGetResult(copy, r));
  }
  return mapped(m, mlirOperationGetOperand(term, 0));
}

/* The chain applied to scalar `v` stored at `idx`; new ops go before b's point. */
static MlirValue apply_chain(const Epilogue *e, CgBuilder *b, MlirValue v, const MlirValue *idx) {
  MlirValue cur_tensor = e->input;
  for (size_t c = 0; c < e->n_chain; ++c) {
    MlirOperation g = e->chain[c];
    intptr_t nins = mlirOperationGetNumOperands(g) - 1;
    MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(g, 0));
    BrazeValueMap m = {0};
    for (intptr_t k = 0; k < nins; ++k)
      braze_valuemap_put(&m, mlirBlockGetArgument(body, k), operand_value(e, b, g, k, cur_tensor, v, idx));
    v = clone_body(b, body, &m, 0);
    cur_tensor = mlirOperationGetResult(g, 0);
    braze_valuemap_free(&m);
  }
  return v;
}

/* ---- whole-vector epilogues ---- */

/* How input k of g is read along the store's last index: 0 not at all, 1 as the last
 * result exactly (contiguous), -1 otherwise (lane by lane). */
static int last_index_use(MlirOperation g, intptr_t k, intptr_t rank) {
  MlirAttribute maps = mlirOperationGetAttributeByName(g, braze_ref("indexing_maps"));
  MlirAffineMap m = mlirAffineMapAttrGetValue(mlirArrayAttrGetElement(maps, k));
  intptr_t nr = mlirAffineMapGetNumResults(m);
  uint64_t last = 1ull << (rank - 1);
  for (intptr_t r = 0; r + 1 < nr; ++r)
    if (cg_affine_dims(mlirAffineMapGetResult(m, r)) & last)
      return -1;
  if (nr == 0 || !(cg_affine_dims(mlirAffineMapGetResult(m, nr - 1)) & last))
    return 0;
  MlirAffineExpr e = mlirAffineMapGetResult(m, nr - 1);
  return mlirAffineExprIsADim(e) && mlirAffineDimExprGetPosition(e) == rank - 1 ? 1 : -1;
}

static bool chain_vectorizable(const Epilogue *e, intptr_t rank) {
  MlirValue cur = e->input;
  for (size_t c = 0; c < e->n_chain; ++c) {
    MlirOperation g = e->chain[c];
    for (intptr_t k = 0, n = mlirOperationGetNumOperands(g) - 1; k < n; ++k)
      if (!mlirValueEqual(mlirOperationGetOperand(g, k), cur) && (rank == 0 || last_index_use(g, k, rank) < 0))
        return false;
    cur = mlirOperationGetResult(g, 0);
  }
  return true;
}


/* The chain on vector `v` stored at idx (the last index the first lane's). */
static MlirValue apply_chain_vector(const Epilogue *e, CgBuilder *b, MlirValue v, const MlirValue *idx,
                                    intptr_t rank, int64_t lanes) {
  MlirValue cur_tensor = e->input;
  for (size_t c = 0; c < e->n_chain; ++c) {
    MlirOperation g = e->chain[c];
    intptr_t nins = mlirOperationGetNumOperands(g) - 1;
    MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(g, 0));
    BrazeValueMap m = {0};
    for (intptr_t k = 0; k < nins; ++k) {
      MlirValue in = mlirOperationGetOperand(g, k), x;
      if (mlirValueEqual(in, cur_tensor)) {
        x = v;
      } else {
        MlirAttribute maps = mlirOperationGetAttributeByName(g, braze_ref("indexing_maps"));
        MlirAffineMap am = mlirAffineMapAttrGetValue(mlirArrayAttrGetElement(maps, k));
        intptr_t nr = mlirAffineMapGetNumResults(am);
        MlirValue *at = calloc((size_t)nr + 2, sizeof *at);
        at[0] = extra_arg(e, in);
        for (intptr_t r = 0; r < nr; ++r)
          at[1 + r] = cg_affine(b, mlirAffineMapGetResult(am, r), idx);
        MlirType elt = mlirShapedTypeGetElementType(mlirValueGetType(in));
        if (last_index_use(g, k, rank) == 1) {
          MlirType vt = vector_of(elt, lanes);
          x = mlirOperationGetResult(cg_create(b, "vector.load", nr + 1, at, 1, &vt, 0, NULL), 0);
        } else {
          MlirValue s = cg_load(b, at[0], nr, at + 1);
          x = cg_op(b, "vector.broadcast", vector_of(elt, lanes), 1, &s);
        }
        free(at);
      }
      braze_valuemap_put(&m, mlirBlockGetArgument(body, k), x);
    }
    v = clone_body(b, body, &m, lanes);
    cur_tensor = mlirOperationGetResult(g, 0);
    braze_valuemap_free(&m);
  }
  return v;
}

static MlirValue vector_lane(CgBuilder *b, const char *name, MlirValue *operands, intptr_t n, MlirType result,
                             int64_t lane) {
  MlirNamedAttribute pos = cg_named(b->ctx, "static_position", mlirDenseI64ArrayGet(b->ctx, 1, &lane));
  return mlirOperationGetResult(cg_create(b, name, n, operands, 1, &result, 1, &pos), 0);
}

/* arith.constant dense<0> of vector type vt (a float or an integer element type). */
static MlirValue zero_vector(CgBuilder *b, MlirType vt) {
  MlirType elt = mlirShapedTypeGetElementType(vt);
  MlirAttribute zero = mlirTypeIsAFloat(elt) ? mlirFloatAttrDoubleGet(b->ctx, elt, 0.0) : mlirIntegerAttrGet(elt, 0);
  MlirNamedAttribute value = cg_named(b->ctx, "value", mlirDenseElementsAttrSplatGet(vt, zero));
  return mlirOperationGetResult(cg_create(b, "arith.constant", 0, NULL, 1, &vt, 1, &value), 0);
}

static void rewrite_store(const Epilogue *e, const UkStore *s) {
  MlirOperation st = s->op;
  CgBuilder b = {.ctx = mlirOperationGetContext(st), .loc = mlirOperationGetLocation(st),
                 .block = mlirOperationGetBlock(st), .before = st};
  intptr_t rank = mlirOperationGetNumOperands(st) - 2;
  MlirValue *idx = calloc((size_t)rank + 1, sizeof *idx);
  for (intptr_t i = 0; i < rank; ++i)
    idx[i] = mlirOperationGetOperand(st, 2 + i);
  MlirValue v = mlirOperationGetOperand(st, 0);
  if (s->kind == UK_STORE_SCALAR) {
    mlirOperationSetOperand(st, 0, apply_chain(e, &b, v, idx));
    free(idx);
    return;
  }
  /* vector.store of a 1-D vector: lane l is stored at the last index + l. */
  MlirType vt = mlirValueGetType(v), elt = mlirShapedTypeGetElementType(vt);
  int64_t lanes = mlirShapedTypeGetDimSize(vt, 0);
  if (chain_vectorizable(e, rank)) {
    mlirOperationSetOperand(st, 0, apply_chain_vector(e, &b, v, idx, rank, lanes));
    free(idx);
    return;
  }
  MlirValue last = rank ? idx[rank - 1] : (MlirValue){NULL}, acc = v;
  for (int64_t l = 0; l < lanes; ++l) {
    MlirValue x = vector_lane(&b, "vector.extract", &v, 1, elt, l);
    if (rank) {
      MlirValue add[2] = {last, cg_index(&b, l)};
      idx[rank - 1] = l ? cg_op(&b, "arith.addi", cg_index_type(b.ctx), 2, add) : last;
    }
    MlirValue y = apply_chain(e, &b, x, idx);
    MlirType yt = mlirValueGetType(y);
    if (l == 0 && !mlirTypeEqual(yt, elt)) /* the chain casts: the stored vector is of its type */
      acc = zero_vector(&b, vector_of(yt, lanes));
    MlirValue ins[2] = {y, acc};
    acc = vector_lane(&b, "vector.insert", ins, 2, mlirValueGetType(acc), l);
  }
  mlirOperationSetOperand(st, 0, acc);
  free(idx);
}

void fu_apply_epilogue(MlirOperation clone, int out, const MlirOperation *chain, size_t n_chain, MlirValue input,
                       const MlirValue *extra, size_t n_extra, int extra_arg0) {
  Epilogue e = {chain, n_chain, input, extra, n_extra, mlirRegionGetFirstBlock(mlirOperationGetRegion(clone, 0)),
                extra_arg0};
  UkStore *stores = NULL;
  size_t n = uk_store_sites(clone, out, &stores);
  for (size_t i = 0; i < n; ++i)
    rewrite_store(&e, &stores[i]);
  free(stores);
}
