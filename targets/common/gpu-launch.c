/* braze.gpu_launch of GPU-form user kernels (targets/common/gpu-launch.h). */
#include "targets/common/gpu-launch.h"

#include "ir/build.h"
#include <stdio.h>

#include "mlir-c/BuiltinAttributes.h"
#include "passes/fusion/user-kernel-effects.h"
#include "support/context.h"
#include "support/diag.h"

bool braze_is_gpu_form(MlirOperation func) {
  return !mlirAttributeIsNull(mlirOperationGetDiscardableAttributeByName(func, braze_ref("braze.gpu_launch")));
}

bool braze_gpu_launch_read(MlirOperation func, const char *pass, int64_t grid[3], int64_t block[3]) {
  char why[192] = "";
  MlirStringRef name = mlirStringAttrGetValue(mlirOperationGetAttributeByName(func, braze_ref("sym_name")));
  if (!uk_gpu_launch(func, grid, block, why, sizeof why))
    snprintf(why, sizeof why, "no braze.gpu_launch");
  if (why[0]) {
    braze_emit_error(mlirOperationGetLocation(func), "%s: user kernel @%.*s: %s", pass, (int)name.length, name.data, why);
    return false;
  }
  return true;
}

int braze_gpu_dimension(MlirOperation id_op) {
  MlirAttribute d = mlirOperationGetAttributeByName(id_op, braze_ref("dimension"));
  if (mlirAttributeIsNull(d))
    return 0;
  /* #gpu<dim x>, printed */
  return cg_attr_text_has(d, "dim y") ? 1 : cg_attr_text_has(d, "dim z") ? 2 : 0;
}
