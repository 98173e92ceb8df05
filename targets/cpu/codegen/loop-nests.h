/* cpu-codegen, the emitter's shared state: one generic's loop-nest generation (Gen)
 * and the helpers that targets/cpu/codegen/loop-nests.c (loop nests, phases) and targets/cpu/codegen/row-jam.c (row
 * jamming) both use. Not an interface outside targets/cpu/codegen/. */
#ifndef BRAZE_TARGETS_CPU_CODEGEN_LOOP_NESTS_H
#define BRAZE_TARGETS_CPU_CODEGEN_LOOP_NESTS_H

#include "targets/cpu/codegen/kernel.h"

/* One generic being emitted: its dims' induction values so far, the loaded inputs. */
typedef struct {
  CgKernel *K;
  CgItem *it;
  int k;
  MlirValue ivs[CG_MAX_DIMS];
  uint64_t bound;
  MlirValue in[CG_MAX_INPUTS];
  bool loaded[CG_MAX_INPUTS];
  bool failed;
  /* window reductions (targets/cpu/codegen/window.c): dim vdim runs in vectors of the
   * target's lanes; ivs[vdim] is the vector's first index */
  bool vector;
  int vdim;
  bool vec_body;   /* at the window's innermost loop: inputs read along vdim are loaded */
  bool vec_failed; /* an op or a read the vector form does not take: emit scalars */
} Gen;

/* Report an error at the generic (once per Gen). */
void cg_gen_error(Gen *g, const char *what);
/* Load the inputs whose indices are all bound now. */
void cg_load_ready(Gen *g, CgBuilder *b);
/* Dim d takes the value iv (then loads what became ready). */
void cg_bind(Gen *g, CgBuilder *b, int d, MlirValue iv);
/* The outs operand's element at the output index; null for tensor.empty. */
MlirValue cg_init_value(Gen *g, CgBuilder *b);
void cg_store_output(Gen *g, CgBuilder *b, MlirValue value);
/* The generic's body at b on the loaded inputs and `acc`; its yielded value. */
MlirValue cg_clone_body(Gen *g, CgBuilder *b, MlirValue acc);
/* Elements of dim d before the anchor's 64-byte boundary, or null (no peeling). */
MlirValue cg_peel_count(Gen *g, CgBuilder *b, int d);
/* Inputs read along d are loaded again in the next loop over d. */
void cg_reload_along(Gen *g, int d);
MlirValue cg_index_add(CgBuilder *b, MlirValue x, int64_t c);
/* Open loops over `dims` in order (extent-1 dims bind 0); b ends innermost. */
void cg_open_loops(Gen *g, CgBuilder *b, const int *dims, int n);
int cg_value_indices(Gen *g, CgBuilder *b, const CgVal *v, MlirAffineMap map, MlirValue *idx);
uint64_t cg_map_dims(MlirAffineMap m);
/* fastmath flags for a reassociable op in a reduction body, or NULL. */
const char *cg_reassoc_flags(MlirOperation op);
/* targets/cpu/codegen/window.c: a window reduction (CgItem.window_mode); the body on
 * vectors along g->vdim; a vector load of `mem` (read through `map`, n indices). */
void cg_emit_window(Gen *g, CgBuilder *b);
MlirValue cg_clone_body_vector(Gen *g, CgBuilder *b, MlirValue acc);
MlirValue cg_window_vector_load(Gen *g, CgBuilder *b, MlirValue mem, MlirAffineMap map, int n, const MlirValue *idx);
bool cg_emit_generic(CgKernel *K, CgItem *it, CgBuilder *b, const MlirValue *outer, int k);
void cg_alloc_row_buffers(CgKernel *K, const CgPhase *ph, CgBuilder *b);
/* targets/cpu/codegen/row-jam.c: phase p with `jam` rows per parallel step; outer[0] holds the
 * parallel loop's ivs on entry. */
bool cg_emit_jammed_phase(CgKernel *K, int p, CgBuilder *b, MlirValue (*outer)[CG_MAX_DIMS], int jam);

#endif
