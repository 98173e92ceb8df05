/* The CUDA host code's extern GEMM sites (kernel.gemm, docs/targets-cuda.md "The extern
 * GEMM"): a BrazeLtGemm descriptor per site and its call on the entry's stream
 * (runtime/cuda/cublaslt-gemm.c), for host.c, which resolves the operands. */
#include <inttypes.h>
#include <stdio.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Diagnostics.h"
#include "support/context.h"
#include "targets/cuda/cuda-target.h"

static const char *cuda_data_type(MlirType t) {
  return mlirTypeIsABF16(t) ? "CUDA_R_16BF" : mlirTypeIsAF16(t) ? "CUDA_R_16F" : mlirTypeIsAF32(t) ? "CUDA_R_32F" : NULL;
}

static int64_t int_attr(MlirOperation op, const char *name) {
  MlirAttribute a = mlirOperationGetAttributeByName(op, braze_ref(name));
  return mlirAttributeIsNull(a) || !mlirAttributeIsAInteger(a) ? -1 : mlirIntegerAttrGetValueInt(a);
}

static double float_attr(MlirOperation op, const char *name, double otherwise) {
  MlirAttribute a = mlirOperationGetAttributeByName(op, braze_ref(name));
  return !mlirAttributeIsNull(a) && mlirAttributeIsAFloat(a) ? mlirFloatAttrGetValueDouble(a) : otherwise;
}

static MlirType elem_of_operand(MlirOperation op, intptr_t i) {
  return mlirShapedTypeGetElementType(mlirValueGetType(mlirOperationGetOperand(op, i)));
}

bool braze_cuda_gemm_site(MlirOperation op, size_t index, const char *a, const char *b, const char *x, const char *c,
                            BrazeStr *decls, BrazeStr *body) {
  intptr_t out = mlirOperationGetNumOperands(op) - 1;
  MlirType tc = elem_of_operand(op, out);
  const char *din = cuda_data_type(elem_of_operand(op, 0)), *dout = cuda_data_type(tc);
  int64_t v[8];
  static const char *const keys[] = {"m", "n", "k", "batch", "stride_a", "stride_b", "trans_a", "trans_b"};
  for (int i = 0; i < 8; ++i)
    v[i] = int_attr(op, keys[i]);
  if (!din || !dout || v[0] < 1 || v[1] < 1 || v[2] < 1 || v[3] < 1 || v[4] < 0 || v[5] < 0)
    return braze_cuda_fail_at(op, "kernel.gemm takes bf16, f16 or f32 memrefs and positive m, n, k, batch");
  bool tf32 = !mlirAttributeIsNull(mlirOperationGetAttributeByName(op, braze_ref("tf32")));
  double alpha = float_attr(op, "alpha", 1.0), beta = x ? float_attr(op, "beta", 1.0) : 0.0;
  int64_t x_offset = x ? int_attr(op, "c_offset") : 0;
  if (x && (x_offset < 0 || !mlirTypeEqual(elem_of_operand(op, 2), tc)))
    return braze_cuda_fail_at(op, "kernel.gemm's addend must have the result's element type and a c_offset >= 0");
  braze_str_printf(decls,
                   "static BrazeLtGemm braze_gemm_%zu = {%s, %s, %d, %d, %d, %" PRId64 ", %" PRId64 ", %" PRId64 ", %" PRId64
                   ", %" PRId64 ", %" PRId64 ", (float)%.17g, (float)%.17g};\n",
                   index, din, dout, v[6] != 0, v[7] != 0, tf32, v[0], v[1], v[2], v[3], v[4], v[5], alpha, beta);
  char addend[160] = "0";
  if (x) /* the addend's first element read, in bytes */
    snprintf(addend, sizeof addend, "%s + %" PRId64, x, x_offset * (int64_t)(mlirFloatTypeGetWidth(tc) / 8));
  braze_str_printf(body, "  if (braze_cu_gemm(&braze_gemm_%zu, %s, %s, %s, %s, stream))\n    return 1;\n", index, a, b,
                   addend, c);
  return true;
}
