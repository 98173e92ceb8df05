/* IR building over the MLIR C API, below both passes/ and targets/: a builder with an
 * insertion point and a pool of index constants, helpers for scf loops, memrefs and
 * affine index arithmetic (ir/build.c). The targets' codegen passes (cpu-codegen,
 * cuda-codegen) build with it, and so does form-kernels' user-kernel epilogue. */
#ifndef BRAZE_IR_BUILD_H
#define BRAZE_IR_BUILD_H

#include <stdbool.h>
#include <stdint.h>

#include "mlir-c/AffineExpr.h"
#include "mlir-c/AffineMap.h"
#include "mlir-c/IR.h"

/* ---- builder (ir/build.c) ---- */

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

enum { CG_MAX_ITER = 32 }; /* iter_args of one cg_for */
/* scf.for lb..ub step 1 with at most CG_MAX_ITER iter_args; *body is a builder at the end of the body,
 * *iv the induction variable, iter[i] the block arguments for the iter_args. The
 * caller terminates the body with cg_yield. */
MlirOperation cg_for(CgBuilder *b, MlirValue lb, MlirValue ub, intptr_t n_iter, const MlirValue *inits,
                     CgBuilder *body, MlirValue *iv, MlirValue *iter);
/* The same loop from lb to ub by `step`. */
MlirOperation cg_for_step(CgBuilder *b, MlirValue lb, MlirValue ub, MlirValue step, intptr_t n_iter,
                          const MlirValue *inits, CgBuilder *body, MlirValue *iv, MlirValue *iter);
void cg_yield(CgBuilder *b, intptr_t n, const MlirValue *values);
/* scf.if `cond` without results; *then_b / *else_b insert before each block's yield. */
MlirOperation cg_if(CgBuilder *b, MlirValue cond, CgBuilder *then_b, CgBuilder *else_b);
/* scf.parallel over [0, ub[i]) step 1, terminated (empty scf.reduce) already; *body
 * inserts before the terminator. */
MlirOperation cg_parallel(CgBuilder *b, intptr_t n, const int64_t *ub, CgBuilder *body, MlirValue *ivs);
/* Every scf.parallel under `func` as nested scf.for (bodies in memref.alloca_scope):
 * kernels called from inside another kernel's parallel loop (form-row-chains' block
 * kernels) must not open a parallel region of their own. */
void cg_serialize_parallel_loops(MlirOperation func);
/* The byte address of `mem`'s first element (its aligned pointer plus its offset,
 * which subviews of strided layouts carry). */
MlirValue cg_element_address(CgBuilder *b, MlirValue mem);
/* An index value computing `expr` from dim values. */
MlirValue cg_affine(CgBuilder *b, MlirAffineExpr expr, const MlirValue *dims);
/* Bit mask of the dims `expr` reads. */
uint64_t cg_affine_dims(MlirAffineExpr expr);

/* A func.func replacing `old` (same name, visibility and discardable attributes) with
 * argument types `args` (n_in inputs, then n_out output buffers: braze.num_inputs /
 * braze.num_outputs) and no results, inserted before it; *entry is its body. */
MlirOperation cg_new_func(MlirOperation old, intptr_t n_in, intptr_t n_out, const MlirType *args, MlirBlock *entry);
/* "stem_N" with the first N that names no symbol of `table` (malloc'ed). */
char *cg_unique_symbol(MlirSymbolTable table, const char *stem);
/* A private constant memref.global holding `dense`, and its memref.get_global at b. */
MlirValue cg_global_constant(MlirOperation module, CgBuilder *b, MlirAttribute dense);
bool cg_attr_bool(MlirOperation op, const char *name);
/* Whether the printed form of `a` contains `needle` (iterator types, braze.ops). */
bool cg_attr_text_has(MlirAttribute a, const char *needle);

/* ---- the module's functions, for the codegen passes ---- */

bool cg_is_declaration(MlirOperation func);
/* Kernel functions (func.func with kernel.kind and a body) when `kernels`, else graph
 * functions (public, with a body, not kernels), in module order: fills out[0, cap)
 * and returns how many there are. Other private functions are left out. */
size_t cg_collect_functions(MlirOperation module, bool kernels, MlirOperation *out, size_t cap);

#endif
