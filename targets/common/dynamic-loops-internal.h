/* Internals of runtime loops' emitter, shared by dynamic-loops-emit.c (the loops),
 * dynamic-loops-blas.c (contractions) and dynamic-loops-fuse.c (elementwise producers
 * inside their reader). Not an interface: see dynamic-loops.h. */
#ifndef BRAZE_TARGETS_COMMON_DYNAMIC_LOOPS_INTERNAL_H
#define BRAZE_TARGETS_COMMON_DYNAMIC_LOOPS_INTERNAL_H

#include "ir/build.h"
#include "targets/common/dynamic-loops.h"

enum { MAX_LOOPS = 8 };

typedef struct {
  MlirContext ctx;
  const BrazeDynForms *f;
  const char *sym;
  MlirOperation module;
  BrazePtrMap map; /* old value -> index in vals */
  MlirValue *vals;
  int n_vals, cap_vals;
  BrazePtrMap writable; /* new memref values the function may write */
  BrazePtrMap out_of;   /* tensor.empty op -> 1 + output index */
  BrazePtrMap deferred; /* elementwise generics computed inside their one reader */
  MlirValue s;
  MlirValue *outs;
  /* the workspace: the function's memref<?xi8> argument and the running offset in
   * it; the bytes function's builder, its s and its running total */
  MlirValue ws, off;
  CgBuilder wb;
  MlirValue ws_s, total;
  bool remarks; /* BRAZE_DYNAMIC_REMARKS=1: a remark per contraction */
  const char *fname;
  int n_globals;
} Em;

/* One linalg.generic being emitted. */
typedef struct {
  int n, nin, nout;
  bool red[MAX_LOOPS];
  MlirAffineMap maps[16];
  MlirValue opnd[16]; /* old values */
  MlirValue mem[16];  /* new memrefs (outputs: the destinations) */
  MlirValue ub[MAX_LOOPS];
  BrazeDynDim ubf[MAX_LOOPS]; /* the loops' extents as forms */
  MlirBlock body;
  bool packed[3];                 /* operand copied to a plain buffer (contractions) */
  MlirValue pdims[3][MAX_LOOPS]; /* the copy's dims */
} Gen;

/* dynamic-loops-emit.c */
void dl_put(Em *e, MlirValue old, MlirValue v);
MlirValue dl_get(const Em *e, MlirValue old);
MlirValue dl_dim_value(Em *e, CgBuilder *b, MlirValue v, intptr_t d);
MlirValue dl_ws_view(Em *e, CgBuilder *b, MlirType elem, int rank, const BrazeDynDim *dims);
MlirOperation dl_par_loop(Em *e, CgBuilder *b, int n, const MlirValue *ub, CgBuilder *body, MlirValue *ivs);
MlirValue dl_load_at(Em *e, CgBuilder *b, MlirValue mem, MlirAffineMap map, const MlirValue *ivs);
bool dl_clone_body(Em *e, CgBuilder *b, MlirBlock body, const MlirValue *args, const MlirValue *ivs, bool reassoc,
                   MlirValue *yields, intptr_t *n_yields);
int dl_axpy_dim(const Gen *g);
bool dl_contraction_body(const Gen *g);

/* dynamic-loops-blas.c */
MlirValue dl_operand_dim(Em *e, CgBuilder *b, const Gen *g, int i, intptr_t r);
bool dl_blas_fits(const Gen *g, int *dm, int *dn, int *dk, bool *ta, bool *tb, bool *pack_a, bool *pack_b);
void dl_emit_blas(Em *e, CgBuilder *b, Gen *g, int dm, int dn, int dk, bool ta, bool tb, bool pack_a, bool pack_b);

/* dynamic-loops-fuse.c */
bool dl_is_deferred(const Em *e, MlirValue v);
bool dl_deferrable(MlirOperation p);
MlirValue dl_eval_deferred(Em *e, CgBuilder *b, MlirOperation p, MlirAffineMap map, const MlirValue *ivs);

#endif
