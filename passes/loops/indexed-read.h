/* Indexed reads at the loop level (graph.gather / graph.gather_elements).
 *
 * A gather is an all-parallel linalg.generic over its result whose body reads the
 * index (an input like any other), wraps and clamps it, and reads the data tensor
 * with `tensor.extract %data[...]` (the data is a value captured from outside the
 * body; its other coordinates are `linalg.index` of the generic's loops).
 *
 * Used by graph-to-loops (building that body) and inline-unrealized (cloning bodies
 * that hold `linalg.index`, and inlining a pointwise producer of the data at the
 * extracted position). Nothing here knows about the graph dialect. */
#ifndef BRAZE_PASSES_LOOPS_INDEXED_READ_H
#define BRAZE_PASSES_LOOPS_INDEXED_READ_H

#include "passes/loops/builder.h"

typedef struct {
  MlirValue data;          /* the tensor read (captured by the body) */
  int64_t axis;            /* the data dim the index selects */
  intptr_t num_index_dims; /* gather: the indices' rank (loops axis..axis+q-1 index them) */
  bool elements;           /* gather_elements: loop d is data dim d, the axis excepted */
} BrazeIndexedRead;

/* In a generic body at b: the data element selected by the integer scalar `index`
 * (i32/i64): index + K when negative (K the axis size), clamped to [0, K - 1]. */
MlirValue braze_indexed_read(BrazeBuilder *b, const BrazeIndexedRead *r, MlirValue index);

/* `linalg.index` of loop d (an index value). */
MlirValue braze_build_loop_index(BrazeBuilder *b, intptr_t d);
/* The value of affine expression `e` on index values `dims` (arith on index:
 * addi, muli, divui, remui, ceildivui: the values are non-negative indices). */
MlirValue braze_affine_eval(BrazeBuilder *b, MlirAffineExpr e, const MlirValue *dims);

/* Whether a generic's body holds linalg.index. */
bool braze_body_has_loop_index(MlirBlock body);

#endif
