/* cpu-codegen internals: an IR builder over the MLIR C API and the two converters
 * (kernel functions, graph functions). The pass itself is targets/cpu/codegen/cpu-codegen.c;
 * the produced IR is specified in docs/architecture.md, "4. target level". */
#ifndef BRAZE_TARGETS_CPU_CODEGEN_CODEGEN_H
#define BRAZE_TARGETS_CPU_CODEGEN_CODEGEN_H

#include <stdbool.h>
#include <stdint.h>

#include "ir/build.h"
#include "mlir-c/AffineExpr.h"
#include "mlir-c/AffineMap.h"
#include "mlir-c/IR.h"
#include "passes/passes.h"

/* How cpu-codegen emits tem kernels (matmul=...). */
typedef enum { CG_MATMUL_TEMPLATE, CG_MATMUL_LOOPS, CG_MATMUL_EXTERN, CG_MATMUL_AUTO } CgMatmulMode;

/* The OpenMP schedule of the template's parallel loop (schedule=...): the CPU target's
 * lowering gives each omp.wsloop of a kernel marked with BRAZE_CPU_SCHEDULE_ATTR
 * (targets/cpu/cpu-target.h) that schedule. */
typedef enum { CG_SCHEDULE_STATIC, CG_SCHEDULE_DYNAMIC, CG_SCHEDULE_GUIDED } CgSchedule;

typedef struct {
  bool reassoc;               /* fastmath<reassoc,contract> on reduction accumulations */
  bool remarks;               /* report phases and peak intermediate bytes */
  long long row_buffer_bytes; /* per-iteration row buffers up to this size (alloca) */
  long long row_jam;          /* outer iterations per parallel step in row-reduction phases */
  bool align_peel;            /* innermost loops start at the anchor's 64-byte boundary */
  /* the matmul template (targets/cpu/matmul*.c) */
  CgMatmulMode matmul_mode;   /* template (packed register-blocked GEMM), loops, extern (BLAS), auto */
  char *autotune_cache;       /* matmul=auto: the decisions file, or NULL for the default */
  bool prepack;               /* pack constant B at compile time */
  long long mr, nr, mc;       /* tile rows, tile columns (0: two vectors), rows per parallel block */
  int vector_lanes;           /* f32 lanes of the target's vectors */
  int vector_registers;       /* the target's vector registers: the template's register budget */
  int cores;                  /* the target's cores (the template's parallel granularity) */
  long long iters_per_core;   /* mc=0: parallel iterations per core the template aims for */
  CgSchedule schedule;        /* the template's OpenMP schedule */
} CgOptions;

/* ---- converters ---- */

/* Rewrite one kernel function (tensors, linalg) into its memref form in place
 * (a new function replaces it). False after a diagnostic. */
bool cg_convert_kernel(MlirOperation func, MlirOperation module, const CgOptions *opts);
/* An `ext` kernel (a packed user-kernel call, targets/cpu/codegen/user.c) rewritten
 * in place: 0 when `func` is not one, 1 when converted, -1 after a diagnostic. */
int cg_user_kernel(MlirOperation func, MlirOperation module);
/* targets/cpu/codegen/user-gpu.c: the GPU-form user kernel `callee` (braze.gpu_launch)
 * as an ordinary user kernel @NAME_cpu (blocks in parallel, threads as loops split at
 * barriers and shuffles), made once; its symbol, or null after a diagnostic. */
MlirAttribute cg_user_gpu_kernel(MlirOperation callee, MlirOperation module);
/* Erase the GPU-form user kernels (every call now calls its _cpu clone); false after a
 * diagnostic at a call left. */
bool cg_erase_gpu_form(MlirOperation module);
/* A `chain` kernel (passes/chains/form-row-chains.c, targets/cpu/codegen/chain.c): its block
 * kernels must be converted already. 0 when `func` is not one, 1 converted, -1 after
 * a diagnostic. */
int cg_chain_kernel(MlirOperation func, MlirOperation module);
/* Whether `func` is a chain kernel (kernel.kind = "chain"). */
bool cg_is_chain_kernel(MlirOperation func);
/* Whether `func` is a chain's block kernel (kernel.serial): it runs inside the
 * chain's parallel loop, so its own loops are serial. */
bool cg_is_serial_kernel(MlirOperation func);


/* Mark kernel function `func` for `schedule` (nothing for static, the lowering's default). */
void cg_mark_schedule(MlirOperation func, CgSchedule schedule);

/* The pass (targets/cpu/codegen/cpu-codegen.c). */
extern const BrazePassInfo braze_pass_cpu_codegen;

#endif
