/* cpu-codegen, the matmul template: a `tem` kernel (one contraction generic and the
 * pointwise generics reading its result, docs/architecture.md "3. kernel level") becomes
 * a register-blocked GEMM: per (batch, M block, N panel) one scf.parallel iteration packs
 * the panel of B into the micro-kernel's layout [K][NR] (on the stack; constant weights
 * are packed once at compile time instead), then runs an MR x NR tile of vector FMAs per
 * MR rows of A with the accumulators in scf.for iter_args, and applies the epilogue to
 * the accumulators in registers before the one store.
 * targets/cpu/matmul/match.c reads the kernel (or names why it cannot); targets/cpu/matmul/template-emit.c writes it;
 * targets/cpu/matmul/internal.h holds the helpers the packing, the emission and the epilogue share;
 * targets/cpu/matmul/a-pad.c reads A as a zero pad of a kernel argument (decision 0024). */
#ifndef BRAZE_TARGETS_CPU_MATMUL_MATMUL_H
#define BRAZE_TARGETS_CPU_MATMUL_MATMUL_H

#include "passes/loops/zero-pad-read.h"
#include "targets/cpu/codegen/codegen.h"

/* Largest per-iteration panel (K x nr x 4 bytes) on the stack; larger ones are heap
 * buffers (libomp's worker stacks are 4 MiB, the caller's typically 8 MiB). */
enum { TM_MAX_PANEL_BYTES = 1 << 20 };

enum { TM_MAX_BODY_OPS = 120, TM_MAX_DIMS = 8, TM_MAX_VALS = 64, TM_MAX_EPI = 16, TM_MAX_IN = 16, TM_MAX_ROWS = 8, TM_MAX_VECS = 4, TM_MAX_BATCH = 5 };

/* Where a kernel-level tensor comes from. */
typedef enum {
  TV_ARG,      /* kernel argument: a memref */
  TV_GLOBAL,   /* non-splat constant: memref.get_global */
  TV_SPLAT,    /* splat constant: one scalar */
  TV_TILE,     /* the contraction or an epilogue result: vectors of the tile */
  TV_EMPTY,    /* tensor.empty / zero fill: no data */
  TV_PAD,      /* a zero pad generic before the contraction (pad-templates): A only */
} TmValKind;

typedef struct {
  MlirValue tensor;
  TmValKind kind;
  int arg;           /* TV_ARG: argument index */
  MlirAttribute dense; /* TV_GLOBAL / TV_SPLAT: the constant */
  int out_index;     /* TV_TILE: kernel result index written from it, -1 */
  int out_index2;    /* a second result index (a value returned twice), -1 */
} TmVal;

typedef struct {
  MlirOperation op;
  int n_in;
  int in_val[TM_MAX_IN];
  MlirAffineMap maps[TM_MAX_IN];
  int out_val;
} TmEpi;

typedef struct {
  MlirOperation old, module;
  const CgOptions *opts;
  MlirContext ctx;
  const char *name;
  /* values */
  TmVal vals[TM_MAX_VALS];
  int n_vals;
  /* the contraction: dims (batch..., m, n, k) */
  MlirOperation mm;
  int nb;                    /* batch dims */
  int64_t batch[TM_MAX_BATCH];
  int64_t M, N, K;
  int a_val, b_val;          /* value indices of A and B */
  MlirAffineMap a_map, b_map;
  MlirType a_elem, b_elem;   /* f32, f16 or bf16 (extended to f32 in the body) */
  bool b_contiguous;         /* B's last index is n alone: packed with vector loads */
  int64_t a_run;             /* k values per contiguous run of A's rows (a-runs.c), 1: none */
  int mm_val;                /* the contraction's result */
  /* a second contraction of the same A and loops (form-kernels horizontal-templates:
   * W6's gate and up projections), its own B; n_products = 2 */
  int n_products;
  MlirOperation mm2;
  int mm2_val, b2_val;
  MlirAffineMap b2_map;
  bool b2_contiguous;
  TmEpi epi[TM_MAX_EPI];
  int n_epi;
  int n_in, n_out;           /* kernel arguments and results */
  /* tiling */
  int vw;                    /* f32 lanes per vector */
  int mr, nr, nv;            /* tile rows, columns, vectors per row (nr / vw) */
  int64_t mc;                /* rows per parallel M block (a multiple of mr) */
  bool b_prepacked;          /* B is a constant packed at compile time */
  MlirAttribute b_dense;     /* that constant */
  /* a zero pad before the contraction (form-kernels pad-templates, decision 0024): A is
   * the pad of a kernel argument; pad_implicit: read in runs from that argument with the
   * padding implicit (a-pad.c), else written into a kernel-local buffer first */
  bool has_pad, pad_implicit;
  BrazeZeroPad pad;
  int pad_data_val;
  const char *pad_copy_reason; /* why the pad is written (remark), when it is */
  int32_t *pad_runs;           /* [Lp][3]: per padded position starting a run: lo, count, x0 */
  char *autotune_note;       /* matmul=auto: the choice and the times (braze.autotune), or NULL */
} TmPlan;

/* targets/cpu/matmul/match.c: fill `p` from kernel `func`. False when the kernel does not fit
 * the template; `*reason` then names why (a static string). */
bool tm_match(MlirOperation func, TmPlan *p, const char **reason);
/* targets/cpu/matmul/pack.c: the constant every call of the kernel passes as argument
 * `arg`, or a null attribute. */
MlirAttribute tm_bound_constant(const TmPlan *p, intptr_t arg);
/* Whether `m`'s last result is dim d alone and no other result reads d. */
bool tm_contiguous_in(MlirAffineMap m, int d);

/* targets/cpu/matmul/template-emit.c: replace the kernel with the template. False after a diagnostic. */
bool tm_emit(TmPlan *p);

/* The entry point cg_convert_kernel uses for `tem` kernels: 1 converted, 0 not a
 * template kernel (convert with the loop nests; a remark names why when remarks are
 * on), -1 error (diagnosed). */
int cg_matmul_template(MlirOperation func, MlirOperation module, const CgOptions *opts);
/* f32 lanes of the target's widest vectors (16 with AVX-512), its vector registers
 * (the fact, else 32 with 16 lanes and 16 below), and its cores. */
int cg_default_vector_lanes(void);
int cg_default_vector_registers(int lanes);
int cg_default_cores(void);

#endif
