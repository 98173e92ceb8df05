/* The CUDA target: gpu.func kernels lowered through NVVM to a cubin for sm_90a (and
 * PTX for other GPUs), host entries turned into C that calls the CUDA driver API
 * through a small runtime compiled into each library (docs/targets-cuda.md,
 * docs/decisions/0005-cuda-host-side.md). */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Dialect/GPU.h"
#include "mlir-c/Dialect/LLVM.h"
#include "mlir-c/Pass.h"
#include "passes/passes.h"
#include "support/context.h"
#include "targets/cuda/cuda-target.h"

const char *braze_cuda_toolkit(void) {
  const char *env = getenv("BRAZE_CUDA_PATH");
  return env && *env ? env : BRAZE_CUDA_PATH;
}

/* Only the gpu.module is lowered: the host entries stay at memref level for the emit.
 * Kernels take bare pointers (static identity-layout memrefs, one pointer parameter
 * each), so the host side passes plain device pointers. +ptx80: sm_90a needs PTX 8.0
 * (TOOLCHAIN.md). convert-gpu-to-nvvm also lowers arith, math (libdevice), vector,
 * memref and cf inside the module. */
static const char kernel_lowering[] =
    "nvvm-attach-target{chip=sm_90a features=+ptx80 O=3},"
    "gpu.module(convert-nvgpu-to-nvvm,lower-affine,expand-strided-metadata,convert-scf-to-cf,"
    "convert-gpu-to-nvvm{use-bare-ptr-memref-call-conv=true},convert-nvvm-to-llvm,canonicalize,cse,"
    "reconcile-unrealized-casts)";

static bool run_passes(MlirOperation op, const char *pipeline, BrazeStr *error) {
  MlirContext ctx = mlirOperationGetContext(op);
  MlirPassManager pm = mlirPassManagerCreateOnOperation(ctx, braze_ref("builtin.module"));
  bool ok = braze_pipeline_build(pm, pipeline, NULL, error);
  if (ok && !(ok = mlirLogicalResultIsSuccess(mlirPassManagerRunOnOp(pm, op))) && !error->len)
    braze_str_puts(error, "lowering the gpu.module to NVVM failed (see the diagnostics above)");
  mlirPassManagerDestroy(pm);
  return ok;
}

/* The tensor-core template passes its TMA descriptors by value: each argument listed in
 * a kernel's braze.grid_constants becomes a 128-byte, 64-aligned byval parameter marked
 * nvvm.grid_constant, whose address the TMA instructions use directly (CUDA's
 * __grid_constant__). Set here, on the lowered llvm.func, since NVVM accepts the
 * attribute only on kernel arguments of an llvm.func and convert-gpu-to-nvvm drops
 * byval from gpu.func arguments. */
static MlirWalkResult set_grid_constants(MlirOperation op, void *user_data) {
  (void)user_data;
  MlirAttribute which = mlirOperationGetDiscardableAttributeByName(op, braze_ref("braze.grid_constants"));
  if (!braze_op_is(op, "llvm.func") || mlirAttributeIsNull(which))
    return MlirWalkResultAdvance;
  MlirContext ctx = mlirOperationGetContext(op);
  MlirAttribute old = mlirOperationGetAttributeByName(op, braze_ref("arg_attrs"));
  MlirType fty = mlirTypeAttrGetValue(mlirOperationGetAttributeByName(op, braze_ref("function_type")));
  intptr_t n = mlirLLVMFunctionTypeGetNumInputs(fty);
  MlirAttribute *dicts = malloc((size_t)(n ? n : 1) * sizeof *dicts);
  for (intptr_t i = 0; i < n; ++i)
    dicts[i] = mlirAttributeIsNull(old) ? mlirDictionaryAttrGet(ctx, 0, NULL) : mlirArrayAttrGetElement(old, i);
  for (intptr_t w = 0; w < mlirDenseArrayGetNumElements(which); ++w) {
    int64_t i = mlirDenseI64ArrayGetElement(which, w);
    if (i < 0 || i >= n)
      continue;
    MlirNamedAttribute attrs[3] = {
        mlirNamedAttributeGet(mlirIdentifierGet(ctx, braze_ref("llvm.align")),
                              mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 64), 64)),
        mlirNamedAttributeGet(mlirIdentifierGet(ctx, braze_ref("llvm.byval")),
                              mlirTypeAttrGet(mlirTypeParseGet(ctx, braze_ref("!llvm.array<16 x i64>")))),
        mlirNamedAttributeGet(mlirIdentifierGet(ctx, braze_ref("nvvm.grid_constant")), mlirUnitAttrGet(ctx)),
    };
    dicts[i] = mlirDictionaryAttrGet(ctx, 3, attrs);
  }
  if (n)
    mlirOperationSetAttributeByName(op, braze_ref("arg_attrs"), mlirArrayAttrGet(ctx, n, dicts));
  free(dicts);
  mlirOperationRemoveDiscardableAttributeByName(op, braze_ref("braze.grid_constants"));
  return MlirWalkResultAdvance;
}

/* gpu-module-to-binary in `format` (isa: PTX text, bin: a cubin through ptxas). */
static bool to_binary(MlirOperation op, const char *format, BrazeStr *error) {
  BrazeStr pipeline = {0};
  braze_str_printf(&pipeline, "gpu-module-to-binary{format=%s toolkit=%s}", format, braze_cuda_toolkit());
  bool ok = run_passes(op, pipeline.data, error);
  braze_str_free(&pipeline);
  return ok;
}

static MlirBlock module_body(MlirOperation module) {
  return mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
}

static MlirStringRef symbol_of(MlirOperation op) {
  MlirAttribute sym = mlirOperationGetAttributeByName(op, braze_ref("sym_name"));
  return mlirAttributeIsNull(sym) ? braze_ref("") : mlirStringAttrGetValue(sym);
}

static MlirOperation find_binary(MlirOperation module, MlirStringRef name) {
  for (MlirOperation op = mlirBlockGetFirstOperation(module_body(module)); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    if (braze_op_is(op, "gpu.binary") && mlirStringRefEqual(symbol_of(op), name))
      return op;
  return (MlirOperation){NULL};
}

/* The first object of `format` in a gpu.binary, or a null attribute. */
static MlirAttribute object_of_format(MlirOperation binary, uint32_t format) {
  MlirAttribute objects = mlirOperationGetAttributeByName(binary, braze_ref("objects"));
  for (intptr_t i = 0; !mlirAttributeIsNull(objects) && i < mlirArrayAttrGetNumElements(objects); ++i) {
    MlirAttribute obj = mlirArrayAttrGetElement(objects, i);
    if (mlirAttributeIsAGPUObjectAttr(obj) && mlirGPUObjectAttrGetFormat(obj) == format)
      return obj;
  }
  return (MlirAttribute){NULL};
}

/* Each gpu.binary of `module` (cubins) gets the PTX object of its twin in `ptx_module`. */
static void merge_ptx(MlirOperation module, MlirOperation ptx_module) {
  MlirContext ctx = mlirOperationGetContext(module);
  for (MlirOperation op = mlirBlockGetFirstOperation(module_body(module)); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    if (!braze_op_is(op, "gpu.binary"))
      continue;
    MlirOperation twin = find_binary(ptx_module, symbol_of(op));
    MlirAttribute cubin = object_of_format(op, BRAZE_GPU_OBJECT_CUBIN);
    MlirAttribute ptx = mlirOperationIsNull(twin) ? (MlirAttribute){NULL} : object_of_format(twin, BRAZE_GPU_OBJECT_PTX);
    if (mlirAttributeIsNull(cubin) || mlirAttributeIsNull(ptx))
      continue; /* braze_cuda_images reports it */
    MlirAttribute both[2] = {cubin, ptx};
    mlirOperationSetAttributeByName(op, braze_ref("objects"), mlirArrayAttrGet(ctx, 2, both));
  }
}

/* Attach the NVVM target and lower the kernels to the LLVM dialect, then serialize
 * twice: the PTX on a clone (the serializer replaces the gpu.module), the cubin on
 * the module itself; the PTX object then joins the cubin in each gpu.binary. */
static bool cuda_lower_to_llvm(MlirOperation module, BrazeStr *error) {
  BrazeStr ptxas = {0};
  braze_str_printf(&ptxas, "%s/bin/ptxas", braze_cuda_toolkit());
  bool found = access(ptxas.data, X_OK) == 0;
  if (!found)
    braze_str_printf(error, "the cuda target needs the CUDA toolkit: no ptxas at '%s' (set BRAZE_CUDA_PATH)",
                     ptxas.data);
  braze_str_free(&ptxas);
  if (!found || !run_passes(module, kernel_lowering, error))
    return false;
  mlirOperationWalk(module, set_grid_constants, NULL, MlirWalkPreOrder);
  MlirOperation ptx_module = mlirOperationClone(module);
  bool ok = to_binary(ptx_module, "isa", error) && to_binary(module, "bin", error);
  if (ok)
    merge_ptx(module, ptx_module);
  mlirOperationDestroy(ptx_module);
  return ok;
}

bool braze_cuda_images(MlirOperation module, BrazeCudaImages *out, BrazeStr *error) {
  out->items = NULL;
  out->count = 0;
  size_t cap = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(module_body(module)); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    if (!braze_op_is(op, "gpu.binary"))
      continue;
    MlirAttribute cubin = object_of_format(op, BRAZE_GPU_OBJECT_CUBIN);
    MlirAttribute ptx = object_of_format(op, BRAZE_GPU_OBJECT_PTX);
    MlirStringRef name = symbol_of(op);
    if (mlirAttributeIsNull(cubin) || mlirAttributeIsNull(ptx)) {
      braze_str_printf(error, "internal error: gpu.binary @%.*s lacks its %s", (int)name.length, name.data,
                       mlirAttributeIsNull(cubin) ? "cubin" : "PTX");
      free(out->items);
      out->items = NULL;
      out->count = 0;
      return false;
    }
    if (out->count == cap) {
      cap = cap ? 2 * cap : 4;
      out->items = realloc(out->items, cap * sizeof *out->items);
    }
    out->items[out->count++] =
        (BrazeCudaImage){name, mlirGPUObjectAttrGetObject(cubin), mlirGPUObjectAttrGetObject(ptx)};
  }
  return true;
}

/* An H100 SXM (the machine the issue measures on). Kernels compiled for sm_90a run on
 * Hopper only; the embedded PTX lets the driver JIT them for other GPUs, where these
 * numbers are only approximate. */
static void cuda_query_costs(BrazeTargetCosts *costs) {
  costs->vector_width_bits = 128; /* ld.global.v4.b32 */
  costs->cache_line_bytes = 128;
  costs->l2_cache_bytes = 50ll << 20;
  costs->num_cores = 132; /* streaming multiprocessors */
  costs->num_sms = 132;
  costs->warp_size = 32;
  costs->max_threads_per_block = 1024;
  costs->shared_mem_per_sm_bytes = 228 << 10;
  costs->shared_mem_per_block_bytes = 227 << 10; /* the opt-in maximum; 48 KiB without it */
}

/* The library's own runtime opens libcuda.so.1 with dlopen: nothing CUDA is linked. */
static const char *const cuda_runtime[] = {"-ldl", "-lpthread", NULL};

const BrazeTarget braze_target_cuda = {
    .name = "cuda",
    .description = "NVIDIA GPU (sm_90a cubin + PTX): gpu.func kernels via NVVM, host entries as C on the CUDA "
                   "driver API (dlopen), shared library + C header",
    .default_pipeline = "cuda-default",
    .codegen_pipeline = "cuda-codegen",
    .lower_to_llvm = cuda_lower_to_llvm,
    .emit = braze_cuda_emit,
    .query_costs = cuda_query_costs,
    .runtime_link_args = cuda_runtime,
};
