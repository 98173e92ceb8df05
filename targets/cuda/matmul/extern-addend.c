/* cuda-codegen, the extern GEMM's addend: a matmul kernel whose epilogue is a linear
 * combination of its product and one more argument, D = alpha P + beta C (a residual
 * add; shard-fold-add's p + x / n on each rank of a split down projection), is one
 * cuBLASLt call with C as its C matrix, instead of the product written in f32 and an
 * element kernel over it (Inductor's addmm). C must be read at the product's point:
 * the same [M, N] row-major layout, its rows possibly offset (a chunk of a longer
 * argument: shard-chunk's rows). The body is read as a linear function of its two
 * inputs: extf/truncf pass the value through (the template computes the epilogue in
 * f32 too, rounding once at the store, as cuBLASLt does), mulf and divf by a constant
 * scale it, addf, subf and negf combine; anything else refuses. */
#include <stdint.h>
#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "support/context.h"
#include "targets/cuda/codegen/codegen.h"

enum { MAX_BODY = 32 };

/* A body value as a P + b C, or a constant (is_const, value k). */
typedef struct {
  MlirValue v;
  bool is_const;
  double a, b, k;
} Term;

static const Term *find(const Term *t, int n, MlirValue v) {
  for (int i = 0; i < n; ++i)
    if (mlirValueEqual(t[i].v, v))
      return &t[i];
  return NULL;
}

/* The term op computes from its operands' terms; false for what is not linear. */
static bool linear_op(MlirOperation op, const Term *x, const Term *y, Term *out) {
  if (braze_op_is(op, "arith.extf") || braze_op_is(op, "arith.truncf")) {
    *out = *x;
  } else if (braze_op_is(op, "arith.negf") && !x->is_const) {
    *out = (Term){.a = -x->a, .b = -x->b};
  } else if (braze_op_is(op, "arith.mulf") && y && x->is_const != y->is_const) {
    const Term *s = x->is_const ? x : y, *t = x->is_const ? y : x;
    *out = (Term){.a = t->a * s->k, .b = t->b * s->k};
  } else if (braze_op_is(op, "arith.divf") && y && !x->is_const && y->is_const && y->k != 0.0) {
    *out = (Term){.a = x->a / y->k, .b = x->b / y->k};
  } else if ((braze_op_is(op, "arith.addf") || braze_op_is(op, "arith.subf")) && y && !x->is_const && !y->is_const) {
    double sign = braze_op_is(op, "arith.subf") ? -1.0 : 1.0;
    *out = (Term){.a = x->a + sign * y->a, .b = x->b + sign * y->b};
  } else {
    return false;
  }
  return true;
}

/* The epilogue generic's body as alpha P + beta C (P its input p, C its input c). */
static bool linear_body(MlirOperation generic, int p, int c, double *alpha, double *beta) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(generic, 0));
  Term terms[MAX_BODY];
  int n = 0;
  terms[n++] = (Term){.v = mlirBlockGetArgument(body, p), .a = 1.0};
  terms[n++] = (Term){.v = mlirBlockGetArgument(body, c), .b = 1.0};
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    if (braze_op_is(op, "linalg.yield")) {
      const Term *r = mlirOperationGetNumOperands(op) == 1 ? find(terms, n, mlirOperationGetOperand(op, 0)) : NULL;
      if (!r || r->is_const)
        return false;
      *alpha = r->a;
      *beta = r->b;
      return *alpha != 0.0 && *beta != 0.0;
    }
    if (n == MAX_BODY || mlirOperationGetNumResults(op) != 1)
      return false;
    Term t = {.v = mlirOperationGetResult(op, 0)};
    if (braze_op_is(op, "arith.constant")) {
      MlirAttribute value = mlirOperationGetAttributeByName(op, braze_ref("value"));
      if (!mlirAttributeIsAFloat(value))
        return false;
      t.is_const = true;
      t.k = mlirFloatAttrGetValueDouble(value);
    } else {
      intptr_t k = mlirOperationGetNumOperands(op);
      const Term *x = k >= 1 ? find(terms, n, mlirOperationGetOperand(op, 0)) : NULL;
      const Term *y = k == 2 ? find(terms, n, mlirOperationGetOperand(op, 1)) : NULL;
      if (!x || k > 2 || (k == 2 && !y) || !linear_op(op, x, y, &t))
        return false;
      t.v = mlirOperationGetResult(op, 0);
    }
    terms[n++] = t;
  }
  return false;
}

/* Whether `map` reads [M + offset, N] at (m + offset, n) for the item's (m, n) loops,
 * m in [0, rows): the identity but for a constant added to the row (and a `mod K` that
 * never wraps, as a slice's map composes: d0 mod 6144 over 6144 rows); *offset gets it. */
static bool rows_offset_map(MlirAffineMap map, int64_t rows, int64_t *offset) {
  if (mlirAffineMapGetNumResults(map) != 2 || mlirAffineMapGetNumDims(map) != 2)
    return false;
  MlirAffineExpr row = mlirAffineMapGetResult(map, 0), col = mlirAffineMapGetResult(map, 1);
  if (!mlirAffineExprIsADim(col) || mlirAffineDimExprGetPosition(col) != 1)
    return false;
  int64_t wrap = INT64_MAX;
  if (mlirAffineExprIsAMod(row) && mlirAffineExprIsAConstant(mlirAffineBinaryOpExprGetRHS(row))) {
    wrap = mlirAffineConstantExprGetValue(mlirAffineBinaryOpExprGetRHS(row));
    row = mlirAffineBinaryOpExprGetLHS(row);
  }
  *offset = 0;
  if (mlirAffineExprIsAAdd(row)) {
    MlirAffineExpr l = mlirAffineBinaryOpExprGetLHS(row), r = mlirAffineBinaryOpExprGetRHS(row);
    if (!mlirAffineExprIsAConstant(r))
      return false;
    *offset = mlirAffineConstantExprGetValue(r);
    row = l;
  }
  return mlirAffineExprIsADim(row) && mlirAffineDimExprGetPosition(row) == 0 && *offset >= 0 &&
         *offset + rows <= wrap;
}

bool cu_extern_addend(const CuKernel *K, CuExtern *e) {
  const CuItem *c = &K->items[0], *it = &K->items[1];
  if (K->n_out != 1 || K->n_items != 2 || K->out_val[0] != it->out_val || it->reduction || it->n_in != 2 ||
      it->n_dims != 2)
    return false;
  int p = it->in_val[0] == c->out_val ? 0 : it->in_val[1] == c->out_val ? 1 : -1, x = 1 - p;
  if (p < 0 || !mlirAffineMapIsIdentity(it->maps[p]) || !mlirAffineMapIsIdentity(it->maps[2]))
    return false;
  const CuVal *cv = &K->vals[it->in_val[x]];
  MlirType ct = mlirValueGetType(cv->tensor), out = mlirValueGetType(K->vals[K->out_val[0]].tensor);
  int64_t offset = 0;
  if (cv->kind != CV_ARG || mlirShapedTypeGetRank(ct) != 2 ||
      !mlirTypeEqual(mlirShapedTypeGetElementType(ct), mlirShapedTypeGetElementType(out)) ||
      mlirShapedTypeGetDimSize(ct, 1) != e->n || !rows_offset_map(it->maps[x], e->m, &offset) ||
      offset + e->m > mlirShapedTypeGetDimSize(ct, 0))
    return false;
  double alpha = 0.0, beta = 0.0;
  if (!linear_body(it->op, p, x, &alpha, &beta))
    return false;
  e->addend_arg = cv->arg;
  e->alpha = alpha;
  e->beta = beta;
  e->c_offset = offset * e->n;
  return true;
}
