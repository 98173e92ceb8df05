/* cpu-codegen: the state of one kernel's conversion, shared by the analysis
 * (targets/cpu/codegen/kernel.c: items, phases, storage) and the emitter (targets/cpu/codegen/loop-nests.c). */
#ifndef BRAZE_TARGETS_CPU_CODEGEN_KERNEL_H
#define BRAZE_TARGETS_CPU_CODEGEN_KERNEL_H

#include "support/ptrmap.h"
#include "targets/cpu/codegen/codegen.h"

enum { CG_MAX_DIMS = 8, CG_MAX_INPUTS = 16, CG_MAX_JAM = 8 };
/* Window reductions: reductions of at most this many elements per output element. */
enum { CG_WINDOW_MAX = 64 };

/* Where a kernel-level tensor lives in the target-level function. */
typedef enum {
  ST_NONE,   /* tensor.empty: no data */
  ST_BUF,    /* a whole memref (argument, out argument, global, kernel-local alloc) */
  ST_ROW,    /* a per-outer-iteration buffer (alloca) indexed by map results [k:] */
  ST_SCALAR, /* a reduction value in a register, one per outer iteration */
  ST_SPLAT,  /* a splat constant or linalg.fill: one scalar */
  ST_INLINE, /* no storage: a pointwise result computed where its one reader (a window
              * reduction of the same phase) reads it */
} CgStorage;

typedef struct {
  MlirValue tensor;   /* the kernel-level value */
  CgStorage kind;
  MlirValue mem;      /* ST_BUF memref; ST_ROW: this iteration's buffer */
  MlirValue scalar;   /* ST_SCALAR / ST_SPLAT value (new function) */
  int producer;       /* item index, -1 for arguments and constants */
  int alias_of;       /* insert_slice chains: the chain's final value, -1 */
  bool cross_phase;   /* read by an item of another phase */
  bool used;          /* read by any item */
  bool local_alloc;   /* ST_BUF allocated inside the kernel */
  int out_index;      /* kernel result written in place, -1 */
  /* jammed phases (targets/cpu/codegen/loop-nests.c): ST_SCALAR / ST_ROW storage of each jammed row */
  MlirValue jam_scalar[CG_MAX_JAM], jam_mem[CG_MAX_JAM];
} CgVal;

typedef enum { IT_GENERIC, IT_INSERT, IT_COPY } CgItemKind;

typedef struct {
  CgItemKind kind;
  MlirOperation op;
  int phase;
  int n_in;
  int in_val[CG_MAX_INPUTS]; /* value indices of the inputs (insert/copy: in_val[0] = source) */
  int out_val;               /* value index of the result */
  int init_val;              /* value index of the outs operand (generic), -1 */
  int dst_out;               /* IT_COPY: the kernel result index written */
  /* generics */
  int n_dims;
  int64_t ext[CG_MAX_DIMS];
  bool par[CG_MAX_DIMS];
  MlirAffineMap maps[CG_MAX_INPUTS + 1]; /* inputs, then the output */
  int own;            /* outer dims this generic allows on its own */
  bool has_reduction;
  bool contraction;   /* mulf+addf: memory accumulation, reduction loops outside */
  bool scalar_mode;   /* reduction dims a suffix (and not contraction, or a dot layout): iter_args */
  bool window_mode;   /* a window reduction (pooling): reduction dims not a suffix, the innermost
                       * dim parallel, at most CG_WINDOW_MAX elements reduced per output element:
                       * the window's loops inside the parallel ones, the accumulator in iter_args */
} CgItem;

typedef struct {
  int first, last; /* items [first, last] */
  int k;           /* outer (scf.parallel) dims */
  int64_t ext[CG_MAX_DIMS];
} CgPhase;

typedef struct {
  MlirOperation old, module;
  const CgOptions *opts;
  MlirContext ctx;
  const char *name;
  CgVal *vals;
  int n_vals, cap_vals;
  BrazePtrMap val_index; /* kernel-level value -> its index in vals */
  CgItem *items;
  int n_items;
  CgPhase *phases;
  int n_phases;
  /* kernel-level scalars (constants) -> their clones at the new function's entry */
  MlirValue *map_old, *map_new;
  int n_map;
  MlirOperation fn;
  int n_in; /* kernel inputs; out arguments follow */
  MlirBlock entry;
  CgBuilder fb; /* the new function's body, before its return */
  CgConstPool pool;
  int n_scalar_regs, n_row_bufs, n_local_bufs, n_inlined;
  /* Alignment peeling (targets/cpu/codegen/loop-nests.c): the body is emitted twice under one scf.if on
   * the arguments' alignment, without peeling (aligned) and with it (`peel`). */
  bool versioned, peel;
} CgKernel;

/* Whether phase `ph` is one 1-D pointwise loop split into parallel chunks. */
bool cg_phase_chunkable(const CgKernel *K, const CgPhase *ph);
/* Whether emitting `it` with peeling would split a loop (see cg_peel_count). */
bool cg_item_may_peel(const CgKernel *K, const CgItem *it);
/* Rows per parallel step of phase `ph`: the row-jam option where the phase has a
 * register reduction and its last outer extent divides by it, else 1. */
int cg_phase_jam(const CgKernel *K, const CgPhase *ph);
/* Emit phase `p` at K->fb. */
bool cg_emit_phase(CgKernel *K, int p);
/* The new-function value of a kernel-level scalar (constants), or null. */
MlirValue cg_kernel_map(CgKernel *K, MlirValue old);

#endif
