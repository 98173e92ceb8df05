/* Constants bound to kernel arguments (see targets/common/bound-constant.h). */
#include "targets/common/bound-constant.h"

#include "mlir-c/BuiltinAttributes.h"
#include "support/context.h"

typedef struct {
  MlirOperation module, caller;
  MlirStringRef callee;
  intptr_t arg;
  int depth, calls;
  bool mismatch;
  MlirAttribute found;
} Binding;

static MlirAttribute bound_constant(MlirOperation module, MlirOperation kernel, intptr_t arg, int depth);

static MlirWalkResult note_binding(MlirOperation call, void *user) {
  Binding *b = user;
  if (!braze_op_is(call, "func.call") ||
      !mlirStringRefEqual(mlirFlatSymbolRefAttrGetValue(mlirOperationGetAttributeByName(call, braze_ref("callee"))),
                          b->callee))
    return MlirWalkResultAdvance;
  ++b->calls;
  MlirValue v = mlirOperationGetOperand(call, b->arg);
  MlirAttribute value = {NULL};
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(b->caller, 0));
  if (mlirValueIsAOpResult(v) && braze_op_is(mlirOpResultGetOwner(v), "arith.constant"))
    value = mlirOperationGetAttributeByName(mlirOpResultGetOwner(v), braze_ref("value"));
  else if (mlirValueIsABlockArgument(v) && mlirBlockEqual(mlirBlockArgumentGetOwner(v), entry) && b->depth < 2)
    value = bound_constant(b->module, b->caller, mlirBlockArgumentGetArgNumber(v), b->depth + 1);
  b->mismatch |= mlirAttributeIsNull(value) || (!mlirAttributeIsNull(b->found) && !mlirAttributeEqual(b->found, value));
  b->found = value;
  return b->mismatch ? MlirWalkResultInterrupt : MlirWalkResultAdvance;
}

static MlirAttribute bound_constant(MlirOperation module, MlirOperation kernel, intptr_t arg, int depth) {
  Binding b = {.module = module, .arg = arg, .depth = depth,
               .callee = mlirStringAttrGetValue(mlirOperationGetAttributeByName(kernel, braze_ref("sym_name")))};
  MlirBlock mod = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  for (MlirOperation f = mlirBlockGetFirstOperation(mod); !mlirOperationIsNull(f) && !b.mismatch;
       f = mlirOperationGetNextInBlock(f)) {
    if (!braze_op_is(f, "func.func") || mlirRegionIsNull(mlirOperationGetRegion(f, 0)) ||
        mlirBlockIsNull(mlirRegionGetFirstBlock(mlirOperationGetRegion(f, 0))))
      continue;
    b.caller = f;
    mlirOperationWalk(f, note_binding, &b, MlirWalkPreOrder);
  }
  return b.calls > 0 && !b.mismatch ? b.found : (MlirAttribute){NULL};
}

MlirAttribute braze_bound_constant(MlirOperation module, MlirOperation kernel, intptr_t arg) {
  return bound_constant(module, kernel, arg, 0);
}
