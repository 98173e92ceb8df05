/* cpu-codegen internals: an IR builder over the MLIR C API and the two converters
 * (kernel functions, graph functions). The pass itself is targets/cpu/codegen.c;
 * the produced IR is specified in docs/architecture.md, "4. target level". */
#ifndef BRAZE_TARGETS_CPU_CODEGEN_H
#define BRAZE_TARGETS_CPU_CODEGEN_H

#include <stdbool.h>
#include <stdint.h>

#include "mlir-c/AffineExpr.h"
#include "mlir-c/AffineMap.h"
#include "mlir-c/IR.h"

typedef struct {
  bool reassoc;               /* fastmath<reassoc,contract> on reduction accumulations */
  bool remarks;               /* report phases and peak intermediate bytes */
  long long row_buffer_bytes; /* per-iteration row buffers up to this size (alloca) */
  long long row_jam;          /* outer iterations per parallel step in row-reduction phases */
  bool align_peel;            /* innermost loops start at the anchor's 64-byte boundary */
} CgOptions;

/* ---- builder (codegen_build.c) ---- */

/* Index constants of one function, created once at the start of its entry block. */
typedef struct {
  MlirBlock block;
  int n;
  int64_t value[64];
  MlirValue result[64];
} CgConstPool;

/* Inserts new ops into `block` before `before` (or at the end when null). */
typedef struct {
  MlirContext ctx;
  MlirLocation loc;
  MlirBlock block;
  MlirOperation before;
  CgConstPool *pool; /* may be NULL: constants then go at the insertion point */
} CgBuilder;

CgBuilder cg_builder_at_end(MlirBlock block, MlirLocation loc);
MlirOperation cg_insert(CgBuilder *b, MlirOperation op);
/* Create and insert `name` with operands, result types and named attributes. */
MlirOperation cg_create(CgBuilder *b, const char *name, intptr_t n_operands, const MlirValue *operands,
                        intptr_t n_results, const MlirType *results, intptr_t n_attrs,
                        const MlirNamedAttribute *attrs);
MlirValue cg_op(CgBuilder *b, const char *name, MlirType result, intptr_t n, const MlirValue *operands);
MlirNamedAttribute cg_named(MlirContext ctx, const char *name, MlirAttribute attr);
MlirAttribute cg_parse_attr(MlirContext ctx, const char *text);
MlirType cg_index_type(MlirContext ctx);
MlirValue cg_index(CgBuilder *b, int64_t value);
MlirValue cg_constant(CgBuilder *b, MlirAttribute typed_attr);
MlirValue cg_load(CgBuilder *b, MlirValue memref, intptr_t n, const MlirValue *indices);
void cg_store(CgBuilder *b, MlirValue value, MlirValue memref, intptr_t n, const MlirValue *indices);
/* Identity-layout memref with the tensor's shape and element type. */
MlirType cg_memref_like(MlirType shaped);
MlirType cg_memref_of(MlirType elem, intptr_t rank, const int64_t *shape);
int64_t cg_num_elements(MlirType shaped);
int64_t cg_elem_bytes(MlirType elem);

/* scf.for lb..ub step 1 with iter_args; *body is a builder at the end of the body,
 * *iv the induction variable, iter[i] the block arguments for the iter_args. The
 * caller terminates the body with cg_yield. */
MlirOperation cg_for(CgBuilder *b, MlirValue lb, MlirValue ub, intptr_t n_iter, const MlirValue *inits,
                     CgBuilder *body, MlirValue *iv, MlirValue *iter);
void cg_yield(CgBuilder *b, intptr_t n, const MlirValue *values);
/* scf.if `cond` without results; *then_b / *else_b insert before each block's yield. */
MlirOperation cg_if(CgBuilder *b, MlirValue cond, CgBuilder *then_b, CgBuilder *else_b);
/* scf.parallel over [0, ub[i]) step 1, terminated (empty scf.reduce) already; *body
 * inserts before the terminator. */
MlirOperation cg_parallel(CgBuilder *b, intptr_t n, const int64_t *ub, CgBuilder *body, MlirValue *ivs);
/* An index value computing `expr` from dim values. */
MlirValue cg_affine(CgBuilder *b, MlirAffineExpr expr, const MlirValue *dims);
/* Bit mask of the dims `expr` reads. */
uint64_t cg_affine_dims(MlirAffineExpr expr);

/* ---- converters ---- */

/* Rewrite one kernel function (tensors, linalg) into its memref form in place
 * (a new function replaces it). False after a diagnostic. */
bool cg_convert_kernel(MlirOperation func, MlirOperation module, const CgOptions *opts);
/* Rewrite the graph function (calls of converted kernels) into the entry function. */
bool cg_convert_graph(MlirOperation func, MlirOperation module, const CgOptions *opts);

/* Shared helpers (codegen.c). */
MlirOperation cg_new_func(MlirOperation old, intptr_t n_args, const MlirType *args, MlirBlock *entry);
MlirValue cg_global_constant(MlirOperation module, CgBuilder *b, MlirAttribute dense);
bool cg_attr_bool(MlirOperation op, const char *name);

#endif
