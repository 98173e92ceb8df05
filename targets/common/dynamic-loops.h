/* Entries with a symbolic dim compiled as loops with run-time trip counts
 * (docs/decisions/0032-runtime-loops.md). For a function whose symbol is reduced or
 * contracted (softmax over a key length, attention over a sequence length, a matmul's
 * K, a norm over a feature dim), where row blocks (dynamic-rows.h) do not apply.
 *
 * The function is taken to the loop level (graph-decompose, graph-simplify,
 * graph-to-loops) twice, at two sizes of its symbol; the two loop-level functions must
 * agree op for op (dynamic-loops.c). Every dim that differs between them is a multiple
 * of the symbol plus a constant (c*s + k), every scalar constant that differs is k*s or
 * k/s (a mean's 1/N); anything else that depends on the size is refused with a remark
 * at the op naming the op and the dim. The first of the two is then written once as
 * target-level loops over memrefs with `?` dims (dynamic-loops-emit.c): every loop
 * bound over the symbol is computed from the size argument, reductions carry their
 * accumulators in scf.for iter_args, contractions put the contiguous dim innermost; the
 * CPU lowering vectorizes those innermost loops (vector body + scalar remainder). The
 * result is one private function NAME__braze_loops(memref..., index s) beside the
 * static kernels, called by the ABI (targets/cpu/abi-dynamic.c). */
#ifndef BRAZE_TARGETS_COMMON_DYNAMIC_LOOPS_H
#define BRAZE_TARGETS_COMMON_DYNAMIC_LOOPS_H

#include <stdbool.h>
#include <stdint.h>

#include "dialects/graph/symbols.h"
#include "mlir-c/IR.h"
#include "support/ptrmap.h"
#include "support/strbuf.h"

#define BRAZE_LOOPS_SUFFIX "__braze_loops"

/* A dim (or a scalar constant's kind) as a function of the symbol s. */
typedef struct {
  int64_t coef, off; /* size = coef*s + off; coef 0: static */
} BrazeDynDim;

typedef struct {
  int rank;
  BrazeDynDim dim[8];
} BrazeDynShape;

typedef enum { BRAZE_DYN_CONST_MUL = 1, BRAZE_DYN_CONST_INV = 2 } BrazeDynConstKind;

typedef struct {
  BrazeDynConstKind kind; /* k*s or k/s */
  double k;
} BrazeDynConst;

/* What the comparison of the two loop-level functions found, keyed by the first's
 * values (shapes) and ops (constants). */
typedef struct {
  BrazePtrMap shape_of; /* value ptr -> index in shapes */
  BrazeDynShape *shapes;
  int n_shapes, cap_shapes;
  BrazePtrMap const_of; /* arith.constant op ptr -> index in consts */
  BrazeDynConst *consts;
  int n_consts, cap_consts;
} BrazeDynForms;

/* The form of `v`'s shape, or NULL when v has no symbolic dim. */
const BrazeDynShape *braze_dyn_shape_of(const BrazeDynForms *f, MlirValue v);
const BrazeDynConst *braze_dyn_const_of(const BrazeDynForms *f, MlirOperation constant);
void braze_dyn_forms_free(BrazeDynForms *f);

/* Build NAME__braze_loops for the public function `func` (one symbol, index 0 of
 * `table`) and insert it (private) before `func` in `body`. On success fills
 * *record with the ABI's description (braze.dynamic_entries, kind "loops"). False
 * after a remark naming the op and the dim. */
bool braze_dynamic_loops_build(MlirOperation func, MlirBlock body, const BrazeSymTable *table, MlirAttribute *record);

/* The target's pipeline must not see these functions (they are target-level already):
 * detach them (and their cblas_sgemm declaration) before it into a module of their
 * own (null when there are none), and attach them after it, running math-approx, LICM,
 * canonicalize and cse on them first. */
MlirModule braze_dynamic_loops_detach(MlirOperation module);
bool braze_dynamic_loops_attach(MlirOperation module, MlirModule side, BrazeStr *error);

/* dynamic-loops-emit.c: the target-level function from the loop-level `func` (static
 * at the first size) and its forms; inserted before `before` in `body`. */
bool braze_dynamic_loops_emit(MlirOperation func, const BrazeDynForms *forms, const char *name, MlirBlock body,
                              MlirOperation before, const char *symbol);

#endif
