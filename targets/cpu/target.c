/* The CPU target: OpenMP-parallel loops lowered through the LLVM dialect, compiled
 * by LLVM for the host CPU, linked into a shared library against libomp. */
#include <string.h>
#include <unistd.h>

#include "llvm-c/TargetMachine.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/Pass.h"
#include "passes/passes.h"
#include "support/context.h"
#include "targets/cpu/cpu-target.h"
#include "targets/target.h"

/* Target-level IR (scf.parallel/scf.for over memrefs, arith/math/vector) to the LLVM
 * dialect. Order matters: scf-to-openmp wraps bodies in memref.alloca_scope, which
 * must be lowered (finalize-memref-to-llvm) before scf-to-cf (TOOLCHAIN.md).
 * expand-strided-metadata writes subview offsets as affine.apply: lower-affine again.
 * math-to-llvm takes what has an LLVM intrinsic; math-to-libm the rest (erf, ...), before
 * vector-to-llvm: on vectors it calls libm per lane through vector.extract/insert.
 * The pipeline runs in two parts: between them, kernels that cpu-codegen marked
 * (schedule=...) get their OpenMP schedule on their omp.wsloop ops (omp-schedule.c). */
#define LOWER_TO_OPENMP "convert-vector-to-scf,lower-affine,convert-scf-to-openmp"
#define LOWER_THE_REST                                                                                  \
  "expand-strided-metadata,lower-affine,"                                                               \
  "finalize-memref-to-llvm,convert-scf-to-cf,convert-openmp-to-llvm,convert-math-to-llvm,"              \
  "convert-math-to-libm,convert-vector-to-llvm,convert-arith-to-llvm,convert-index-to-llvm,"            \
  "convert-cf-to-llvm,convert-func-to-llvm,convert-ub-to-llvm,reconcile-unrealized-casts"
static const char lowering_pipeline[] = LOWER_TO_OPENMP "," LOWER_THE_REST;

const char *braze_cpu_lowering_pipeline(void) { return lowering_pipeline; }

/* Kernels stay separate functions in the object (like Inductor's kernels): they show
 * up by name in profiles and --dump-kernels; one call per kernel costs nothing. */
static void mark_kernels_noinline(MlirOperation module) {
  MlirContext ctx = mlirOperationGetContext(module);
  MlirAttribute noinline = mlirStringAttrGet(ctx, braze_ref("noinline"));
  MlirAttribute passthrough = mlirArrayAttrGet(ctx, 1, &noinline);
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    bool kernel = braze_op_is(op, "func.func") &&
                  !mlirAttributeIsNull(mlirOperationGetAttributeByName(op, braze_ref("kernel.kind")));
    if (kernel && mlirAttributeIsNull(mlirOperationGetAttributeByName(op, braze_ref("passthrough"))))
      mlirOperationSetAttributeByName(op, braze_ref("passthrough"), passthrough);
  }
}

static bool run_pipeline(MlirOperation module, const char *pipeline, BrazeStr *error) {
  MlirPassManager pm = mlirPassManagerCreateOnOperation(mlirOperationGetContext(module), braze_ref("builtin.module"));
  bool ok = braze_pipeline_build(pm, pipeline, NULL, error);
  if (ok)
    ok = mlirLogicalResultIsSuccess(mlirPassManagerRunOnOp(pm, module));
  mlirPassManagerDestroy(pm);
  return ok;
}

static bool cpu_lower_to_llvm(MlirOperation module, BrazeStr *error) {
  mark_kernels_noinline(module);
  return run_pipeline(module, LOWER_TO_OPENMP, error) && braze_cpu_apply_schedules(module) &&
         run_pipeline(module, LOWER_THE_REST, error);
}

static void cpu_query_costs(BrazeTargetCosts *costs) {
  char *features = LLVMGetHostCPUFeatures();
  costs->vector_width_bits = strstr(features, "+avx512f") ? 512 : strstr(features, "+avx") ? 256 : 128;
  LLVMDisposeMessage(features);
  costs->cache_line_bytes = 64;
  costs->l2_cache_bytes = 1 << 20; /* a common size; sysconf's cache sizes are a glibc extension */
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  costs->num_cores = cores > 0 ? (int)cores : 0;
}

/* libomp serves the __kmpc_* calls of the OpenMP lowering; libm the math-to-libm calls. */
static const char *const cpu_runtime[] = {"-L" BRAZE_LLVM_LIBDIR, "-Wl,-rpath," BRAZE_LLVM_LIBDIR, "-lomp", "-lm",
                                          NULL};

const BrazeTarget braze_target_cpu = {
    .name = "cpu",
    .description = "host CPU: scf.parallel -> OpenMP, LLVM -O3 for the host, shared library + C header",
    .default_pipeline = "cpu-default",
    .codegen_pipeline = "cpu-codegen,math-approx",
    .lower_to_llvm = cpu_lower_to_llvm,
    .emit = braze_cpu_emit,
    .query_costs = cpu_query_costs,
    .runtime_link_args = cpu_runtime,
};
