/* cuda-codegen, user kernels: the alignment of their vector loads and stores (part of
 * cuda-codegen; docs/user-kernels.md "GPU form on each target"). A user kernel's
 * `vector.load` / `vector.store` of a 1-D vector on a global memref carries no alignment,
 * so the NVVM lowering assumes one element's and a vector<4xf32> access becomes four
 * 32-bit ones. Every global buffer a kernel sees is 16-byte aligned (the ABI refuses
 * others, the workspace places buffers at 64-byte offsets: docs/targets-cuda.md), so an
 * access is aligned to the largest power of two that divides its byte offset, up to the
 * vector's size and 16 bytes. The offset is sum(index_d * stride_d) of the static
 * row-major shape; a power of two known to divide each index comes from a walk up its
 * definition: constants, muli (product), addi / subi / remui / remsi (minimum), shli by
 * a constant, andi (maximum), divui / divsi by a constant power of two, index casts,
 * gpu.block_dim / grid_dim (the launch's constants), an scf.for induction variable (its
 * lower bound's and step's minimum); anything else (a thread id) 1. The result is the
 * op's `alignment` attribute (an alignment the user wrote is kept), which the lowering
 * turns into ld/st.global.v4 (or .v2 for 8 bytes). */
#include "mlir-c/AffineMap.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "support/context.h"
#include "targets/cuda/codegen/codegen.h"

enum { UA_CAP = 1 << 20, UA_DEPTH = 24, UA_MAX_BYTES = 16 };

typedef struct {
  const int64_t *grid, *block;
} Launch;

static int64_t pow2_of(int64_t c) {
  if (c == 0)
    return UA_CAP;
  uint64_t u = c < 0 ? 0 - (uint64_t)c : (uint64_t)c;
  int64_t p = (int64_t)(u & (~u + 1));
  return p > UA_CAP ? UA_CAP : p;
}

static int64_t cap(int64_t v) { return v > UA_CAP ? UA_CAP : v; }
static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

static bool constant_of(MlirValue v, int64_t *out) {
  if (!mlirValueIsAOpResult(v))
    return false;
  MlirOperation d = mlirOpResultGetOwner(v);
  if (!braze_op_is(d, "arith.constant"))
    return false;
  MlirAttribute a = mlirOperationGetAttributeByName(d, braze_ref("value"));
  if (!mlirAttributeIsAInteger(a))
    return false;
  *out = mlirIntegerAttrGetValueInt(a);
  return true;
}

static int dim_of(MlirOperation op) {
  MlirAttribute d = mlirOperationGetAttributeByName(op, braze_ref("dimension"));
  if (mlirAttributeIsNull(d))
    return -1;
  return cg_attr_text_has(d, "x") ? 0 : cg_attr_text_has(d, "y") ? 1 : cg_attr_text_has(d, "z") ? 2 : -1;
}

/* A power of two that divides the integer / index value v (1 when nothing is known). */
static int64_t factor(const Launch *l, MlirValue v, int depth) {
  if (depth > UA_DEPTH)
    return 1;
  if (mlirValueIsABlockArgument(v)) {
    MlirOperation owner = mlirBlockGetParentOperation(mlirBlockArgumentGetOwner(v));
    if (braze_op_is(owner, "scf.for") && mlirBlockArgumentGetArgNumber(v) == 0)
      return min64(factor(l, mlirOperationGetOperand(owner, 0), depth + 1),
                   factor(l, mlirOperationGetOperand(owner, 2), depth + 1));
    return 1;
  }
  MlirOperation d = mlirOpResultGetOwner(v);
  int64_t c;
  if (braze_op_is(d, "arith.constant"))
    return constant_of(v, &c) ? pow2_of(c) : 1;
  if (braze_op_is(d, "gpu.block_dim") || braze_op_is(d, "gpu.grid_dim")) {
    int k = dim_of(d);
    return k < 0 ? 1 : pow2_of(braze_op_is(d, "gpu.block_dim") ? l->block[k] : l->grid[k]);
  }
  if (braze_op_is(d, "arith.index_cast") || braze_op_is(d, "arith.index_castui") || braze_op_is(d, "arith.extsi") ||
      braze_op_is(d, "arith.extui"))
    return factor(l, mlirOperationGetOperand(d, 0), depth + 1);
  if (mlirOperationGetNumOperands(d) != 2)
    return 1;
  MlirValue a = mlirOperationGetOperand(d, 0), b = mlirOperationGetOperand(d, 1);
  if (braze_op_is(d, "arith.muli"))
    return cap(factor(l, a, depth + 1) * factor(l, b, depth + 1));
  if (braze_op_is(d, "arith.addi") || braze_op_is(d, "arith.subi") || braze_op_is(d, "arith.remui") ||
      braze_op_is(d, "arith.remsi"))
    return min64(factor(l, a, depth + 1), factor(l, b, depth + 1));
  if (braze_op_is(d, "arith.andi")) {
    int64_t fa = factor(l, a, depth + 1), fb = factor(l, b, depth + 1);
    return fa > fb ? fa : fb;
  }
  if (braze_op_is(d, "arith.shli") && constant_of(b, &c) && c >= 0 && c < 20)
    return cap(factor(l, a, depth + 1) << c);
  if ((braze_op_is(d, "arith.divui") || braze_op_is(d, "arith.divsi")) && constant_of(b, &c) && c > 0 &&
      pow2_of(c) == c) {
    int64_t fa = factor(l, a, depth + 1);
    return fa > c ? fa / c : 1;
  }
  return 1;
}

typedef struct {
  Launch l;
  int marked;
} Walk;

static MlirWalkResult align_op(MlirOperation op, void *user) {
  Walk *w = user;
  bool load = braze_op_is(op, "vector.load");
  if (!load && !braze_op_is(op, "vector.store"))
    return MlirWalkResultAdvance;
  if (!mlirAttributeIsNull(mlirOperationGetAttributeByName(op, braze_ref("alignment"))))
    return MlirWalkResultAdvance; /* the user's */
  intptr_t base = load ? 0 : 1;
  MlirValue mem = mlirOperationGetOperand(op, base);
  MlirType mt = mlirValueGetType(mem);
  MlirType vt = load ? mlirValueGetType(mlirOperationGetResult(op, 0)) : mlirValueGetType(mlirOperationGetOperand(op, 0));
  if (!mlirTypeIsAMemRef(mt) || !mlirShapedTypeHasStaticShape(mt) || !mlirAttributeIsNull(mlirMemRefTypeGetMemorySpace(mt)) ||
      !mlirAffineMapIsIdentity(mlirMemRefTypeGetAffineMap(mt)) || mlirShapedTypeGetRank(vt) != 1)
    return MlirWalkResultAdvance;
  int64_t elem = cg_elem_bytes(mlirShapedTypeGetElementType(mt));
  int64_t bytes = elem * mlirShapedTypeGetDimSize(vt, 0);
  intptr_t rank = mlirShapedTypeGetRank(mt);
  if (elem <= 0 || mlirOperationGetNumOperands(op) != base + 1 + rank)
    return MlirWalkResultAdvance;
  int64_t f = UA_CAP, stride = 1;
  for (intptr_t d = rank - 1; d >= 0; --d) {
    f = min64(f, cap(factor(&w->l, mlirOperationGetOperand(op, base + 1 + d), 0) * pow2_of(stride)));
    stride *= mlirShapedTypeGetDimSize(mt, d);
  }
  int64_t align = cap(f * elem);
  while (align > UA_MAX_BYTES || align > bytes || (bytes % align) != 0)
    align /= 2;
  if (align <= elem)
    return MlirWalkResultAdvance;
  MlirContext ctx = mlirOperationGetContext(op);
  mlirOperationSetInherentAttributeByName(op, braze_ref("alignment"),
                                          mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 64), align));
  ++w->marked;
  return MlirWalkResultAdvance;
}

int cu_user_align_vectors(MlirOperation func, const int64_t grid[3], const int64_t block[3]) {
  Walk w = {.l = {grid, block}};
  mlirOperationWalk(func, align_op, &w, MlirWalkPreOrder);
  return w.marked;
}
