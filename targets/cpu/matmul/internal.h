/* cpu-codegen, the matmul template: the emitter's state and helpers shared by
 * targets/cpu/matmul/template-emit.c (packing, micro-kernel), targets/cpu/matmul/epilogue.c (the epilogue on the tile)
 * and targets/cpu/matmul/pack.c (compile-time packing of constant B). Not an interface outside
 * targets/cpu/matmul/. */
#ifndef BRAZE_TARGETS_CPU_MATMUL_INTERNAL_H
#define BRAZE_TARGETS_CPU_MATMUL_INTERNAL_H

#include "support/affine-eval.h"
#include "targets/cpu/matmul/matmul.h"

typedef struct {
  TmPlan *p;
  MlirOperation fn;
  MlirBlock entry;
  CgBuilder fb; /* the new function's body, before its return */
  CgConstPool pool;
  MlirValue mem[TM_MAX_VALS];    /* TV_ARG / TV_GLOBAL memrefs */
  MlirValue scalar[TM_MAX_VALS]; /* TV_SPLAT scalars */
  MlirValue packed;              /* prepacked B: memref<panels x K x nr x f32> */
  MlirValue panel2;              /* the second product's panel of this iteration, or null */
  MlirValue a_flat;              /* A collapsed to one dim (runs of A), or null */
  MlirValue pad_x;               /* implicit pad: its input as memref<?xf32> */
  MlirValue pad_table;           /* implicit pad: the run table, memref<Lp x 3 x i32> */
  MlirValue pad_scratch;         /* this iteration's straddling rows, memref<?xf32> */
  MlirValue pad_zero;            /* implicit pad: R zeros, memref<?xf32> */
  MlirValue pad_buffer;          /* copied pad: the padded buffer (deallocated at the end) */
} TmEmit;

/* targets/cpu/matmul/template-emit.c: the destination-passing function replacing the kernel (E->fn, E->fb
 * before its return), and the memrefs/scalars of arguments and constants. */
bool tm_build_signature(TmEmit *E);
void tm_bind_values(TmEmit *E);
MlirType tm_vec(TmEmit *E, MlirType elem);
MlirValue tm_splat(TmEmit *E, CgBuilder *b, MlirType elem, double value);
MlirValue tm_range(CgBuilder *b, MlirValue lb, MlirValue ub, CgBuilder *body);
MlirValue tm_index_op(CgBuilder *b, const char *name, MlirValue x, MlirValue y);
/* arith.cmpi with the integer predicate (0 eq, 6 ult, 7 ule, ...). */
MlirValue tm_cmp(CgBuilder *b, int predicate, MlirValue x, MlirValue y);
int tm_indices(CgBuilder *b, MlirAffineMap map, const MlirValue *dims, MlirValue *idx);
MlirValue tm_mask(TmEmit *E, CgBuilder *b, MlirValue count);
MlirValue tm_vload(TmEmit *E, CgBuilder *b, MlirValue mem, int n, const MlirValue *idx, MlirValue mask);
void tm_vstore(CgBuilder *b, MlirValue value, MlirValue mem, int n, const MlirValue *idx, MlirValue mask);
MlirValue tm_to_f32(CgBuilder *b, MlirValue v);
MlirValue cg_index_add(CgBuilder *b, MlirValue x, int64_t c);

/* targets/cpu/matmul/a-runs.c: the longest run of k values (a divisor of K, at least 4)
 * along which A's rows are contiguous in memory for every row, or 1. */
int64_t tm_a_run(const TmPlan *p);
/* A's linearized (row-major) address as one compiled expression of the loops; whether
 * a result of A's map reads a batch dim together with m or k. */
bool tm_a_address(const TmPlan *p, BrazeAffineProgram *e);
bool tm_a_batch_mixes(const TmPlan *p);

/* targets/cpu/matmul/a-pad.c: a zero pad before the contraction (decision 0024).
 * tm_pad_plan decides whether A's runs read the pad's input directly (p->pad_implicit,
 * the run table p->pad_runs) or the pad is written first (p->pad_copy_reason).
 * tm_pad_bind, at the function's entry: the run table and the input as a flat
 * memref<?xf32> (implicit), or the padded buffer written into E->mem[a_val] (copy).
 * tm_pad_scratch: the per-iteration rows buffer of straddling runs. tm_pad_row:
 * the memref and offset row i reads its run from, given its padded address, and
 * whether the run needs no copy (*no_copy, i1: wholly inside or in the padding).
 * tm_pad_copy_row: copy row `row`'s run (a dynamic row) into its scratch row when it
 * straddles the border; the template calls it in one loop over the tile's rows unless
 * every row's run needs no copy, so the copy code is emitted once per run loop, not
 * once per row. */
void tm_pad_plan(TmPlan *p);
void tm_pad_bind(TmEmit *E);
void tm_pad_release(TmEmit *E);
MlirValue tm_pad_scratch(TmEmit *E, CgBuilder *b);
void tm_pad_row(TmEmit *E, CgBuilder *b, int row, MlirValue padded_address, MlirValue *mem, MlirValue *offset,
                MlirValue *no_copy);
void tm_pad_copy_row(TmEmit *E, CgBuilder *b, MlirValue row, MlirValue padded_address);

/* targets/cpu/matmul/extern.c: why the extern kernel cannot take this kernel (NULL: it can), and
 * the kernel as cblas_sgemm calls plus an epilogue pass. */
const char *tm_extern_refusal(const TmPlan *p);
bool tm_emit_extern(TmPlan *p);

/* targets/cpu/matmul/autotune.c: time the template and the extern on this kernel (or read the
 * decision from the cache); *use_extern: the extern was faster. Sets p->autotune_note. */
bool tm_autotune(TmPlan *p, const CgOptions *o, bool *use_extern);
/* The autotune note as the new function's braze.autotune attribute (when set). */
void tm_note_autotune(const TmPlan *p, MlirOperation fn);

/* targets/cpu/matmul/epilogue.c: apply the epilogue generics to the accumulators acc[i * nv + v]
 * (rows from rowm[], columns n0 + v * vw; a second product's follow at rows * nv) and
 * store the kernel results. */
bool tm_epilogue(TmEmit *E, CgBuilder *b, MlirValue *dims, int rows, const MlirValue *rowm, MlirValue n0,
                 const MlirValue *acc);

/* targets/cpu/matmul/pack.c: the prepacked B global at the function's entry (E->packed), and the
 * first index of the panel for parallel ivs (batch..., mb, nt). */
/* Whether B is a constant (sets p->b_dense). */
bool tm_find_constant_b(TmPlan *p);
void tm_bind_packed(TmEmit *E);
MlirValue tm_packed_panel_index(TmEmit *E, CgBuilder *b, const MlirValue *ivs);

#endif
