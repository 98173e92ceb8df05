/* The graph stage: passes on graph-dialect ops, before any loop exists.
 *
 *   graph-verify     the C verifier of the graph dialect as a pass (graph-verify.c)
 *   graph-decompose  composite ops -> primitive ops, table-driven (graph-decompose.c),
 *                    built with builder.h; each new op's location names its composite
 *                    (ir/origins.h); the convolutions in decompose-conv.c, the fold of
 *                    batch_norm into a constant-weight conv in fold-batch-norm.c, the
 *                    zero-padding form of a conv's input in zero-pad.c
 *   graph-simplify   rewrites and folds on graph ops (graph-simplify.c: the driver and
 *                    options; simplify-rules.c, simplify-fold.c, simplify-conv.c,
 *                    simplify-pad.c (a window over concats of zeros: zero-pad.c's form):
 *                    the pattern tables;
 *                    simplify-cse.c: CSE and DCE of graph ops; simplify.h between them)
 *
 * In: graph ops as written or imported. Out: primitive graph ops (docs/dialect-graph.md). */
#ifndef BRAZE_PASSES_GRAPH_GRAPH_PASSES_H
#define BRAZE_PASSES_GRAPH_GRAPH_PASSES_H

#include "passes/passes.h"

extern const BrazePassInfo braze_pass_graph_verify;
extern const BrazePassInfo braze_pass_graph_decompose;
extern const BrazePassInfo braze_pass_graph_simplify;

#endif
