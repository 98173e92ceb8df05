/* braze.gpu_launch of GPU-form user kernels (targets/common/gpu-launch.h). */
#include "targets/common/gpu-launch.h"

#include "ir/build.h"
#include "mlir-c/BuiltinAttributes.h"
#include "support/context.h"
#include "support/diag.h"

bool braze_is_gpu_form(MlirOperation func) {
  return !mlirAttributeIsNull(mlirOperationGetDiscardableAttributeByName(func, braze_ref("braze.gpu_launch")));
}

static bool read_dims(MlirAttribute dict, const char *key, int64_t out[3]) {
  out[0] = out[1] = out[2] = 1;
  MlirAttribute a = mlirDictionaryAttrGetElementByName(dict, braze_ref(key));
  if (mlirAttributeIsNull(a))
    return false;
  if (!mlirAttributeIsADenseI64Array(a))
    return false;
  intptr_t n = mlirDenseArrayGetNumElements(a);
  if (n < 1 || n > 3)
    return false;
  for (intptr_t i = 0; i < n; ++i)
    if ((out[i] = mlirDenseI64ArrayGetElement(a, i)) <= 0)
      return false;
  return true;
}

bool braze_gpu_launch_read(MlirOperation func, const char *pass, int64_t grid[3], int64_t block[3]) {
  MlirAttribute l = mlirOperationGetDiscardableAttributeByName(func, braze_ref("braze.gpu_launch"));
  MlirStringRef name = mlirStringAttrGetValue(mlirOperationGetAttributeByName(func, braze_ref("sym_name")));
  if (mlirAttributeIsNull(l) || !mlirAttributeIsADictionary(l) || !read_dims(l, "grid", grid) ||
      !read_dims(l, "block", block)) {
    braze_emit_error(mlirOperationGetLocation(func),
                     "%s: user kernel @%.*s: braze.gpu_launch must be {grid = array<i64: ...>, block = array<i64: "
                     "...>}, 1 to 3 positive entries each",
                     pass, (int)name.length, name.data);
    return false;
  }
  if (block[0] * block[1] * block[2] > BRAZE_GPU_MAX_BLOCK) {
    braze_emit_error(mlirOperationGetLocation(func),
                     "%s: user kernel @%.*s: braze.gpu_launch's block has %lld threads, expected at most %d", pass,
                     (int)name.length, name.data, (long long)(block[0] * block[1] * block[2]), BRAZE_GPU_MAX_BLOCK);
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
