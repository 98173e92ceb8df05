/* cpu-codegen, the matmul template: compile-time packing of constant B. When B is a
 * constant (a non-splat constant in the kernel, or a kernel argument that every call of
 * the kernel binds to an `arith.constant`: ONNX initializers, graph.constant weights),
 * its panels are computed here, in the micro-kernel's layout, into a private constant
 * global memref<P x K x nr x f32> (P = batch positions x N panels, f32, zero past N), so
 * a call never packs B. Transposed or otherwise viewed B is read through its indexing
 * map here, so any view costs nothing at run time. */
#include <stdlib.h>
#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "support/context.h"
#include "targets/common/bound-constant.h"
#include "targets/cpu/matmul/internal.h"

/* Evaluate an affine expression on concrete dims (non-negative: floordiv/mod unsigned). */
static int64_t eval_expr(MlirAffineExpr e, const int64_t *dims) {
  if (mlirAffineExprIsADim(e))
    return dims[mlirAffineDimExprGetPosition(e)];
  if (mlirAffineExprIsAConstant(e))
    return mlirAffineConstantExprGetValue(e);
  int64_t l = eval_expr(mlirAffineBinaryOpExprGetLHS(e), dims), r = eval_expr(mlirAffineBinaryOpExprGetRHS(e), dims);
  if (mlirAffineExprIsAAdd(e))
    return l + r;
  if (mlirAffineExprIsAMul(e))
    return l * r;
  if (mlirAffineExprIsAFloorDiv(e))
    return l / r;
  if (mlirAffineExprIsAMod(e))
    return l % r;
  return (l + r - 1) / r; /* ceildiv */
}

static float half_to_f32(uint16_t h, bool bf16) {
  uint32_t bits;
  if (bf16) {
    bits = (uint32_t)h << 16;
  } else {
    uint32_t sign = (uint32_t)(h >> 15) << 31, exp = (h >> 10) & 0x1f, man = h & 0x3ff;
    if (exp == 0x1f) {
      bits = sign | 0x7f800000u | (man << 13);
    } else if (exp != 0) {
      bits = sign | ((exp + 112) << 23) | (man << 13);
    } else if (man == 0) {
      bits = sign;
    } else { /* subnormal half: normalize */
      int shift = 0;
      while (!(man & 0x400)) {
        man <<= 1;
        ++shift;
      }
      bits = sign | ((uint32_t)(113 - shift) << 23) | ((man & 0x3ff) << 13);
    }
  }
  float f;
  memcpy(&f, &bits, sizeof f);
  return f;
}

/* Element `pos` (row-major) of a dense or dense_resource constant, as f32. */
static float element(MlirAttribute a, MlirType elem, int64_t pos) {
  bool resource = mlirAttributeIsADenseResourceElements(a);
  if (mlirTypeIsAF32(elem))
    return resource ? mlirDenseFloatResourceElementsAttrGetValue(a, pos) : mlirDenseElementsAttrGetFloatValue(a, pos);
  uint16_t h = 0;
  if (resource)
    h = mlirDenseUInt16ResourceElementsAttrGetValue(a, pos);
  else
    memcpy(&h, (const char *)mlirDenseElementsAttrGetRawData(a) + pos * 2, 2);
  return half_to_f32(h, mlirTypeIsABF16(elem));
}

MlirAttribute tm_bound_constant(const TmPlan *p, intptr_t arg) { return braze_bound_constant(p->module, p->old, arg); }

bool tm_find_constant_b(TmPlan *p) {
  TmVal *b = &p->vals[p->b_val];
  MlirAttribute dense = b->kind == TV_GLOBAL ? b->dense : b->kind == TV_ARG ? tm_bound_constant(p, b->arg) : (MlirAttribute){NULL};
  if (mlirAttributeIsNull(dense))
    return false;
  bool resource = mlirAttributeIsADenseResourceElements(dense);
  if (!resource && (!mlirAttributeIsADenseElements(dense) || mlirDenseElementsAttrIsSplat(dense)))
    return false;
  p->b_dense = dense;
  return true;
}

/* Whether B's map reads batch dim d: a weight shared by the batches (a [K, N] B of a
 * batch_matmul) is packed once, not once per batch position. */
static bool b_reads_batch(const TmPlan *p, int d) {
  for (intptr_t r = 0; r < mlirAffineMapGetNumResults(p->b_map); ++r)
    if (mlirAffineExprIsFunctionOfDim(mlirAffineMapGetResult(p->b_map, r), d))
      return true;
  return false;
}

/* The batch positions B's packed panels are kept for: the batch dims B reads. */
static int64_t batch_positions(const TmPlan *p) {
  int64_t n = 1;
  for (int d = 0; d < p->nb; ++d)
    n *= b_reads_batch(p, d) ? p->batch[d] : 1;
  return n;
}

/* The packed values: [batch position][panel][k][j]. */
static float *pack_values(const TmPlan *p, int64_t *count) {
  int64_t nt = (p->N + p->nr - 1) / p->nr, bp = batch_positions(p);
  MlirType bt = mlirAttributeGetType(p->b_dense);
  int rank = (int)mlirShapedTypeGetRank(bt);
  int64_t strides[TM_MAX_DIMS];
  for (int r = rank - 1, s = 1; r >= 0; --r) {
    strides[r] = s;
    s *= (int)mlirShapedTypeGetDimSize(bt, r);
  }
  *count = bp * nt * p->K * p->nr;
  float *out = calloc((size_t)*count, sizeof *out);
  int64_t dims[TM_MAX_DIMS] = {0};
  for (int64_t b = 0; b < bp; ++b) {
    for (int64_t rest = b, d = p->nb - 1; d >= 0; --d) {
      int64_t extent = b_reads_batch(p, (int)d) ? p->batch[d] : 1;
      dims[d] = rest % extent;
      rest /= extent;
    }
    for (int64_t n = 0; n < p->N; ++n) {
      dims[p->nb + 1] = n;
      for (int64_t k = 0; k < p->K; ++k) {
        dims[p->nb + 2] = k;
        int64_t pos = 0;
        for (int r = 0; r < rank; ++r)
          pos += eval_expr(mlirAffineMapGetResult(p->b_map, r), dims) * strides[r];
        out[((b * nt + n / p->nr) * p->K + k) * p->nr + n % p->nr] = element(p->b_dense, p->b_elem, pos);
      }
    }
  }
  return out;
}

void tm_bind_packed(TmEmit *E) {
  TmPlan *p = E->p;
  int64_t count, nt = (p->N + p->nr - 1) / p->nr;
  float *values = pack_values(p, &count);
  int64_t shape[3] = {batch_positions(p) * nt, p->K, p->nr};
  MlirType f32 = mlirF32TypeGet(p->ctx);
  MlirType tt = mlirRankedTensorTypeGet(3, shape, f32, mlirAttributeGetNull());
  MlirAttribute dense = mlirDenseElementsAttrFloatGet(tt, (intptr_t)count, values);
  free(values);
  E->packed = cg_global_constant(p->module, &E->fb, dense);
}

MlirValue tm_packed_panel_index(TmEmit *E, CgBuilder *b, const MlirValue *ivs) {
  TmPlan *p = E->p;
  int64_t nt = (p->N + p->nr - 1) / p->nr;
  MlirValue lin = cg_index(b, 0);
  for (int d = 0; d < p->nb; ++d)
    if (b_reads_batch(p, d))
      lin = tm_index_op(b, "arith.addi", tm_index_op(b, "arith.muli", lin, cg_index(b, p->batch[d])), ivs[d]);
  return tm_index_op(b, "arith.addi", tm_index_op(b, "arith.muli", lin, cg_index(b, nt)), ivs[p->nb + 1]);
}
