/* Runtime loops (targets/common/dynamic-loops.h), elementwise producers computed
 * inside their one reader: an all-parallel generic whose result one generic (not a
 * contraction) reads, each element once, gets no buffer and no loop nest of its own;
 * its body is cloned at the reader's index (BRAZE_DYNAMIC_FUSE=0: off). */
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

/* ---- elementwise producers computed inside their reader (no buffer, no pass) ---- */

bool  dl_is_deferred(const Em *e, MlirValue v) {
  return mlirValueIsAOpResult(v) &&
         braze_ptrmap_get(&e->deferred, braze_ptr_key(mlirOpResultGetOwner(v).ptr), 0) != 0;
}

static bool all_parallel(MlirOperation op, int *n, int *nred) {
  MlirAttribute iters = mlirOperationGetAttributeByName(op, braze_ref("iterator_types"));
  *n = (int)mlirArrayAttrGetNumElements(iters);
  *nred = 0;
  for (int d = 0; d < *n; ++d)
    *nred += cg_attr_text_has(mlirArrayAttrGetElement(iters, d), "reduction");
  return *nred == 0;
}

/* A contraction body (out + a*b over one reduction dim): its operands stay buffers. */
static bool contraction_like(MlirOperation op) {
  int n, nred;
  all_parallel(op, &n, &nred);
  if (nred != 1 || mlirOperationGetNumOperands(op) != 3)
    return false;
  bool mul = false, add = false;
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0));
  for (MlirOperation o = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(o); o = mlirOperationGetNextInBlock(o)) {
    mul = mul || braze_op_is(o, "arith.mulf");
    add = add || braze_op_is(o, "arith.addf");
  }
  return mul && add;
}

/* `p` (all parallel, one result at the identity, its init unread) has one reader, a
 * generic that is not a contraction and reads it as an input through a bijection of
 * its loops (each element read once): p's body is then computed there. */
bool  dl_deferrable(MlirOperation p) {
  int n, nred;
  if (!braze_op_is(p, "linalg.generic") || mlirOperationGetNumResults(p) != 1 || !all_parallel(p, &n, &nred))
    return false;
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(p, 0));
  intptr_t nin = mlirOperationGetNumOperands(p) - 1;
  if (nin > 15 || !mlirOpOperandIsNull(mlirValueGetFirstUse(mlirBlockGetArgument(body, nin))))
    return false;
  MlirAttribute maps = mlirOperationGetAttributeByName(p, braze_ref("indexing_maps"));
  if (!mlirAffineMapIsIdentity(mlirAffineMapAttrGetValue(mlirArrayAttrGetElement(maps, nin))))
    return false;
  MlirValue r = mlirOperationGetResult(p, 0);
  MlirOpOperand use = mlirValueGetFirstUse(r);
  if (mlirOpOperandIsNull(use) || !mlirOpOperandIsNull(mlirOpOperandGetNextUse(use)))
    return false;
  MlirOperation user = mlirOpOperandGetOwner(use);
  unsigned k = (unsigned)mlirOpOperandGetOperandNumber(use);
  if (!braze_op_is(user, "linalg.generic") || contraction_like(user) ||
      k >= (unsigned)(mlirOperationGetNumOperands(user) - mlirOperationGetNumResults(user)))
    return false;
  int un, ured;
  all_parallel(user, &un, &ured);
  MlirAttribute umaps = mlirOperationGetAttributeByName(user, braze_ref("indexing_maps"));
  MlirAffineMap m = mlirAffineMapAttrGetValue(mlirArrayAttrGetElement(umaps, k));
  if (mlirAffineMapGetNumResults(m) != un || un > MAX_LOOPS)
    return false;
  uint64_t seen = 0;
  for (int i = 0; i < un; ++i) {
    MlirAffineExpr x = mlirAffineMapGetResult(m, i);
    if (!mlirAffineExprIsADim(x) || (seen >> mlirAffineDimExprGetPosition(x)) & 1)
      return false;
    seen |= 1ull << mlirAffineDimExprGetPosition(x);
  }
  return true;
}

/* The value of deferred generic `p`'s result at the index `map(ivs)` of its reader. */
MlirValue  dl_eval_deferred(Em *e, CgBuilder *b, MlirOperation p, MlirAffineMap map, const MlirValue *ivs) {
  MlirValue pv[MAX_LOOPS], args[16], yields[16];
  for (intptr_t d = 0; d < mlirAffineMapGetNumResults(map); ++d)
    pv[d] = cg_affine(b, mlirAffineMapGetResult(map, d), ivs);
  MlirAttribute maps = mlirOperationGetAttributeByName(p, braze_ref("indexing_maps"));
  intptr_t nin = mlirOperationGetNumOperands(p) - 1;
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(p, 0));
  for (intptr_t j = 0; j < nin; ++j) {
    MlirValue in = mlirOperationGetOperand(p, j);
    MlirAffineMap mj = mlirAffineMapAttrGetValue(mlirArrayAttrGetElement(maps, j));
    args[j] = dl_is_deferred(e, in) ? dl_eval_deferred(e, b, mlirOpResultGetOwner(in), mj, pv) : dl_load_at(e, b, dl_get(e, in), mj, pv);
    if (mlirValueIsNull(args[j]))
      return args[j];
  }
  args[nin] = mlirBlockGetArgument(body, nin); /* unread */
  intptr_t n_y = 0;
  if (!dl_clone_body(e, b, body, args, pv, false, yields, &n_y) || n_y != 1)
    return (MlirValue){NULL};
  return yields[0];
}

