/* cpu-codegen, `ext` kernels (user kernels; docs/user-kernels.md). form-kernels packs
 * each user-kernel call into an ext kernel over tensors whose body is
 *   bufferization.to_buffer of each argument, memref.alloc of each output,
 *   [memref.copy into an output], func.call of the user kernel (or its epilogue
 *   copy), bufferization.to_tensor of each output, func.return
 * (passes/fusion/user-epilogue.c). The target form is destination-passing like every kernel:
 * the tensor arguments become memrefs, then one out memref per result, and the body
 * is the copies and the call with the buffers replaced by those arguments. The user
 * kernel itself is already loop level (scf/memref/arith/math/vector): it is left as
 * written and lowered with everything else, except a user kernel written as a GPU kernel
 * (braze.gpu_launch): the call then calls its CPU form @K_cpu (user-gpu.c). */
#include <stdlib.h>
#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "support/context.h"
#include "support/diag.h"
#include "targets/common/gpu-launch.h"
#include "targets/cpu/codegen/codegen.h"

static bool is_ext(MlirOperation func) {
  MlirAttribute kind = mlirOperationGetDiscardableAttributeByName(func, braze_ref("kernel.kind"));
  return !mlirAttributeIsNull(kind) && mlirAttributeIsAString(kind) &&
         braze_ref_eq(mlirStringAttrGetValue(kind), "ext");
}

static bool fail(MlirOperation op, const char *kernel, const char *what, MlirOperation named) {
  MlirStringRef n = braze_op_name(named);
  braze_emit_error(mlirOperationGetLocation(op), "cpu-codegen: ext kernel @%s: %s '%.*s'", kernel, what, (int)n.length,
                   n.data);
  return false;
}

/* The argument that stands for `v` (a to_buffer of an argument, or an output's
 * alloc) in the new function, or a null value. */
static MlirValue buffer_for(MlirValue v, MlirBlock old_entry, MlirBlock entry, MlirOperation ret) {
  if (!mlirValueIsAOpResult(v))
    return (MlirValue){NULL};
  MlirOperation def = mlirOpResultGetOwner(v);
  intptr_t n_in = mlirBlockGetNumArguments(old_entry);
  if (braze_op_is(def, "bufferization.to_buffer")) {
    MlirValue t = mlirOperationGetOperand(def, 0);
    if (mlirValueIsABlockArgument(t) && mlirBlockEqual(mlirBlockArgumentGetOwner(t), old_entry))
      return mlirBlockGetArgument(entry, mlirBlockArgumentGetArgNumber(t));
    return (MlirValue){NULL};
  }
  if (!braze_op_is(def, "memref.alloc"))
    return (MlirValue){NULL};
  for (intptr_t r = 0, n = mlirOperationGetNumOperands(ret); r < n; ++r) {
    MlirValue res = mlirOperationGetOperand(ret, r);
    if (mlirValueIsAOpResult(res) && braze_op_is(mlirOpResultGetOwner(res), "bufferization.to_tensor") &&
        mlirValueEqual(mlirOperationGetOperand(mlirOpResultGetOwner(res), 0), v))
      return mlirBlockGetArgument(entry, n_in + r);
  }
  return (MlirValue){NULL};
}

static bool callee_is_user_kernel(MlirOperation call, MlirOperation module) {
  MlirAttribute callee = mlirOperationGetAttributeByName(call, braze_ref("callee"));
  MlirOperation f = braze_module_symbol(module, mlirFlatSymbolRefAttrGetValue(callee));
  return !mlirOperationIsNull(f) && !mlirAttributeIsNull(mlirOperationGetAttributeByName(f, braze_ref("braze.user_kernel")));
}

/* Copy the body's copies and call into `entry`, buffers replaced by arguments. */
static bool convert_body(MlirOperation func, MlirOperation module, const char *name, MlirBlock entry) {
  MlirBlock old_entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  MlirOperation ret = mlirBlockGetTerminator(old_entry);
  MlirLocation loc = mlirOperationGetLocation(func);
  for (MlirOperation op = mlirBlockGetFirstOperation(old_entry); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    if (braze_op_is(op, "bufferization.to_buffer") || braze_op_is(op, "memref.alloc") ||
        braze_op_is(op, "bufferization.to_tensor") || braze_op_is(op, "func.return"))
      continue;
    if (!braze_op_is(op, "func.call") && !braze_op_is(op, "memref.copy"))
      return fail(op, name, "unsupported op", op);
    if (braze_op_is(op, "func.call") && !callee_is_user_kernel(op, module))
      return fail(op, name,
                  "the callee is not a user kernel on memrefs (a func.func marked braze.user_kernel, "
                  "docs/user-kernels.md):",
                  op);
    MlirOperation copy = mlirOperationClone(op);
    MlirOperation callee = braze_op_is(op, "func.call") ? braze_module_symbol(module, mlirFlatSymbolRefAttrGetValue(
                                                              mlirOperationGetAttributeByName(op, braze_ref("callee"))))
                                                        : (MlirOperation){NULL};
    if (!mlirOperationIsNull(callee) && braze_is_gpu_form(callee)) { /* written as a GPU kernel: user-gpu.c */
      MlirAttribute cpu = cg_user_gpu_kernel(callee, module);
      if (mlirAttributeIsNull(cpu)) {
        mlirOperationDestroy(copy);
        return false;
      }
      mlirOperationSetAttributeByName(copy, braze_ref("callee"), cpu);
    }
    for (intptr_t i = 0, n = mlirOperationGetNumOperands(op); i < n; ++i) {
      MlirValue arg = buffer_for(mlirOperationGetOperand(op, i), old_entry, entry, ret);
      if (mlirValueIsNull(arg)) {
        mlirOperationDestroy(copy);
        return fail(op, name, "an operand is neither an argument's buffer nor an output buffer of", op);
      }
      mlirOperationSetOperand(copy, i, arg);
    }
    mlirBlockAppendOwnedOperation(entry, copy);
  }
  MlirOperationState st = mlirOperationStateGet(braze_ref("func.return"), loc);
  mlirBlockAppendOwnedOperation(entry, mlirOperationCreate(&st));
  return true;
}

int cg_user_kernel(MlirOperation func, MlirOperation module) {
  if (!is_ext(func))
    return 0;
  MlirStringRef nref = mlirStringAttrGetValue(mlirOperationGetAttributeByName(func, braze_ref("sym_name")));
  char *name = strndup(nref.data, nref.length);
  MlirBlock old_entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  MlirOperation ret = mlirBlockGetTerminator(old_entry);
  intptr_t n_in = mlirBlockGetNumArguments(old_entry), n_out = mlirOperationGetNumOperands(ret);
  MlirType *types = calloc((size_t)(n_in + n_out) + 1, sizeof *types);
  bool ok = true;
  for (intptr_t i = 0; i < n_in + n_out && ok; ++i) {
    MlirType t = mlirValueGetType(i < n_in ? mlirBlockGetArgument(old_entry, i) : mlirOperationGetOperand(ret, i - n_in));
    ok = mlirTypeIsARankedTensor(t) && mlirShapedTypeHasStaticShape(t);
    types[i] = ok ? cg_memref_like(t) : t;
  }
  if (!ok) {
    braze_emit_error(mlirOperationGetLocation(func), "cpu-codegen: ext kernel @%s: arguments and results must be static "
                     "tensors", name);
    free(types);
    free(name);
    return -1;
  }
  MlirBlock entry;
  MlirOperation fn = cg_new_func(func, n_in, n_out, types, &entry);
  free(types);
  ok = convert_body(func, module, name, entry);
  mlirOperationDestroy(ok ? func : fn);
  free(name);
  return ok ? 1 : -1;
}
