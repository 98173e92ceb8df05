/* Target-independent passes on target-level IR, after a target's codegen.
 *
 *   math-approx  vector-friendly polynomial approximations of math.exp/tanh/erf/log/...
 *                (math-approx.c)
 *
 * In and out: the target level (scf/vector/arith/math over memrefs). */
#ifndef BRAZE_PASSES_LOWERING_LOWERING_PASSES_H
#define BRAZE_PASSES_LOWERING_LOWERING_PASSES_H

#include "passes/passes.h"

extern const BrazePassInfo braze_pass_math_approx;

#endif
