/* Evaluating affine expressions on integers, fast enough to run one over a whole
 * iteration domain (millions of points): the expression is flattened once into a node
 * array (children before parents) and evaluated with affine semantics (floordiv and
 * mod round toward -inf, the divisor a positive constant). The matmul templates use it
 * to read an operand's map exactly, point by point, instead of matching its form
 * (targets/cpu/matmul/a-runs.c, targets/cuda/matmul/window.c). */
#ifndef BRAZE_SUPPORT_AFFINE_EVAL_H
#define BRAZE_SUPPORT_AFFINE_EVAL_H

#include <stdbool.h>
#include <stdint.h>

#include "mlir-c/AffineExpr.h"

typedef struct {
  struct BrazeAffineNode *nodes;
  int count, cap;
  int64_t *scratch; /* one value per node, for braze_affine_run */
} BrazeAffineProgram;

/* Flatten `e` into `p` (empty, zero-initialized); false when out of memory. */
bool braze_affine_compile(BrazeAffineProgram *p, MlirAffineExpr e);

/* The value of the compiled expression with dim d = dims[d]. */
int64_t braze_affine_run(const BrazeAffineProgram *p, const int64_t *dims);

void braze_affine_program_free(BrazeAffineProgram *p);

#endif
