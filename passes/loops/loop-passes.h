/* The loop stage: graph ops become loops on tensors, and producers nobody needs to
 * realize are inlined into their consumers.
 *
 *   graph-to-loops     primitive graph ops -> linalg.generic on tensors, views as
 *                      indexing maps (graph-to-loops.c; what it refuses:
 *                      graph-to-loops-checks.c; views: view-maps.c; gathers:
 *                      indexed-read.c; unsigned types to signless ones: signless.c)
 *   inline-unrealized  unrealized producers cloned into their consumers, maps composed
 *                      (inline-unrealized.c)
 *
 * builder.h: building linalg generics, scalar bodies and affine maps.
 * zero-pad-read.h: recognising a zero pad generic (form-kernels' pad-templates and the
 * CPU matmul template read it; decision 0024).
 * In: primitive graph ops. Out: the loop level (docs/architecture.md, "2. loop level"). */
#ifndef BRAZE_PASSES_LOOPS_LOOP_PASSES_H
#define BRAZE_PASSES_LOOPS_LOOP_PASSES_H

#include "passes/passes.h"

extern const BrazePassInfo braze_pass_graph_to_loops;
extern const BrazePassInfo braze_pass_inline_unrealized;

#endif
