/* cuda-codegen, before the kernels are converted: a non-splat tensor constant inside a
 * kernel function becomes an argument of the kernel, and every call passes the same
 * constant from the graph function. The graph conversion then turns it into a host
 * memref.global that the runtime uploads to the device once (a gpu.func cannot read
 * host globals). Splat constants stay: they are scalars in the kernel body. */
#include "targets/cuda/codegen/codegen.h"

#include <stdlib.h>
#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "support/context.h"

static bool is_hoisted_constant(MlirOperation op) {
  if (!braze_op_is(op, "arith.constant") || !mlirTypeIsARankedTensor(mlirValueGetType(mlirOperationGetResult(op, 0))))
    return false;
  MlirAttribute value = mlirOperationGetAttributeByName(op, braze_ref("value"));
  return !(mlirAttributeIsADenseElements(value) && mlirDenseElementsAttrIsSplat(value));
}

/* Append the constants' types to the kernel's inputs. */
static void extend_signature(MlirOperation kernel, MlirBlock body, int n_new, MlirOperation *consts) {
  MlirType fty = mlirTypeAttrGetValue(mlirOperationGetAttributeByName(kernel, braze_ref("function_type")));
  intptr_t n_in = mlirFunctionTypeGetNumInputs(fty), n_res = mlirFunctionTypeGetNumResults(fty);
  MlirType *ins = malloc((size_t)(n_in + n_new) * sizeof *ins), *res = malloc((size_t)(n_res + 1) * sizeof *res);
  for (intptr_t i = 0; i < n_in; ++i)
    ins[i] = mlirFunctionTypeGetInput(fty, i);
  for (intptr_t r = 0; r < n_res; ++r)
    res[r] = mlirFunctionTypeGetResult(fty, r);
  for (int c = 0; c < n_new; ++c) {
    MlirValue old = mlirOperationGetResult(consts[c], 0);
    ins[n_in + c] = mlirValueGetType(old);
    MlirValue arg = mlirBlockAddArgument(body, ins[n_in + c], mlirOperationGetLocation(consts[c]));
    mlirValueReplaceAllUsesOfWith(old, arg);
  }
  MlirType nty = mlirFunctionTypeGet(mlirOperationGetContext(kernel), n_in + n_new, ins, n_res, res);
  mlirOperationSetAttributeByName(kernel, braze_ref("function_type"), mlirTypeAttrGet(nty));
  free(ins);
  free(res);
}

/* Every func.call of `name` in the module's functions passes copies of the constants. */
static void extend_calls(MlirOperation module, MlirStringRef name, int n_new, MlirOperation *consts) {
  MlirBlock mod = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  for (MlirOperation f = mlirBlockGetFirstOperation(mod); !mlirOperationIsNull(f); f = mlirOperationGetNextInBlock(f)) {
    if (!braze_op_is(f, "func.func"))
      continue;
    MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(f, 0));
    if (mlirBlockIsNull(body))
      continue;
    for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
         op = mlirOperationGetNextInBlock(op)) {
      if (!braze_op_is(op, "func.call"))
        continue;
      MlirStringRef callee = mlirFlatSymbolRefAttrGetValue(mlirOperationGetAttributeByName(op, braze_ref("callee")));
      if (callee.length != name.length || memcmp(callee.data, name.data, name.length) != 0)
        continue;
      intptr_t n = mlirOperationGetNumOperands(op);
      MlirValue *ops = malloc((size_t)(n + n_new) * sizeof *ops);
      for (intptr_t i = 0; i < n; ++i)
        ops[i] = mlirOperationGetOperand(op, i);
      for (int c = 0; c < n_new; ++c) {
        MlirOperation copy = mlirOperationClone(consts[c]);
        mlirBlockInsertOwnedOperationBefore(body, op, copy);
        ops[n + c] = mlirOperationGetResult(copy, 0);
      }
      mlirOperationSetOperands(op, n + n_new, ops);
      free(ops);
    }
  }
}

void cu_hoist_constants(MlirOperation module, MlirOperation kernel) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(kernel, 0));
  int n = 0, cap = 0;
  MlirOperation *consts = NULL;
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    if (is_hoisted_constant(op)) {
      if (n == cap)
        consts = realloc(consts, (size_t)(cap = cap ? 2 * cap : 4) * sizeof *consts);
      consts[n++] = op;
    }
  if (n) {
    extend_signature(kernel, body, n, consts);
    extend_calls(module, mlirStringAttrGetValue(mlirOperationGetAttributeByName(kernel, braze_ref("sym_name"))), n,
                 consts);
    for (int c = 0; c < n; ++c)
      mlirOperationDestroy(consts[c]);
  }
  free(consts);
}
