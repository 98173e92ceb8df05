/* The CPU target: OpenMP-parallel loops lowered through the LLVM dialect, compiled
 * by LLVM for the host CPU, linked into a shared library against libomp. */
#include <string.h>
#include <unistd.h>

#include "llvm-c/TargetMachine.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/Pass.h"
#include "passes/passes.h"
#include "support/context.h"
#include "targets/cpu/cpu-model.h"
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

/* bf16 on a CPU without AVX512-BF16 (decision 0026): math and arithmetic on bf16
 * become f32 ones between extf and truncf, as LLVM would promote them, so that the
 * only bf16 operations left are the conversions; emit.c then expands each f32 -> bf16
 * rounding in integer arithmetic (half-floats.c), since LLVM would call compiler-rt's
 * __truncsfbf2, which libgcc (gcc 12) lacks. With the instruction, LLVM uses it. */
#define EMULATE_BF16                                                                                    \
  "math-extend-to-supported-types{target-type=f32},arith-emulate-unsupported-floats{source-types=bf16 target-type=f32}"

static bool cpu_lower_to_llvm(MlirOperation module, BrazeStr *error) {
  mark_kernels_noinline(module);
  bool native_bf16 = braze_cpu_selected()->mask & BRAZE_CPU_F(AVX512BF16);
  return run_pipeline(module, LOWER_TO_OPENMP, error) && braze_cpu_apply_schedules(module) &&
         (native_bf16 || run_pipeline(module, EMULATE_BF16, error)) && run_pipeline(module, LOWER_THE_REST, error);
}

/* The facts of the CPU compiled for (--cpu, cpu-model.c); the cores are the host's. */
static void cpu_query_costs(BrazeTargetCosts *costs) {
  const BrazeCpuModel *cpu = braze_cpu_selected();
  costs->vector_width_bits = cpu->vector_width_bits;
  costs->vector_registers = cpu->vector_registers;
  costs->vector_ldexp = (cpu->mask & BRAZE_CPU_F(AVX512F)) != 0; /* vscalefps; AVX2 calls ldexpf per lane */
  costs->cache_line_bytes = 64;
  costs->l2_cache_bytes = cpu->l2_bytes > 0 ? cpu->l2_bytes : 1 << 20; /* a common size where not known */
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  costs->num_cores = cores > 0 ? (int)cores : 0;
}

/* libomp serves the __kmpc_* calls of the OpenMP lowering; libm the math-to-libm calls. */
static const char *const cpu_runtime[] = {"-L" BRAZE_LLVM_LIBDIR, "-Wl,-rpath," BRAZE_LLVM_LIBDIR, "-lomp", "-lm",
                                          NULL};

const BrazeTarget braze_target_cpu = {
    .name = "cpu",
    .description = "x86-64 CPU (--cpu, the host by default): scf.parallel -> OpenMP, LLVM -O3, shared library + C header",
    .default_pipeline = "cpu-default",
    .codegen_pipeline = "cpu-codegen,math-approx",
    .lower_to_llvm = cpu_lower_to_llvm,
    .emit = braze_cpu_emit,
    .query_costs = cpu_query_costs,
    .runtime_link_args = cpu_runtime,
};
