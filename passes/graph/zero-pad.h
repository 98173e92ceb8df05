/* The zero-padding form of a channels-last tensor (decision 0019), shared by
 * graph-decompose (a padded conv's input) and graph-simplify's window-zero-pad (a
 * hand-written padding read by a window): passes/graph/zero-pad.c. */
#ifndef BRAZE_PASSES_GRAPH_ZERO_PAD_H
#define BRAZE_PASSES_GRAPH_ZERO_PAD_H

#include "passes/graph/builder.h"

/* x [B, S1..Sn, C] padded by before[d] / after[d] zeros along its spatial dims
 * d = 1..n (the arrays are indexed by x's dims; rank n + 2) as
 *   reshape(select(inside, gather(reshape(x, [B, L, C]), positions, 1), 0), [B, S + pads.., C])
 * with positions the constant [Lp, 1] table of each padded position's place among x's
 * L positions (-1 in the padding) and inside its mask: one pointwise kernel that reads
 * x as it was written. Null (nothing built) when the table would pass max_table entries
 * or x has 2^31 positions or more. */
MlirValue braze_gb_zero_pad(GraphBuilder *b, MlirValue x, const int64_t *before, const int64_t *after,
                            int64_t max_table);

#endif
