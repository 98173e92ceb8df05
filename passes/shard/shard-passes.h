/* The shard stage: from annotated graphs to per-device (SPMD) programs, before
 * graph-decompose (decision 0015, docs/sharding.md).
 *
 *   shard-propagate  the analysis written back as op annotations (braze.sharding,
 *                    braze.partial_*), remarks and a report of the collectives a
 *                    partition inserts and their bytes (shard-propagate.c, report.c)
 *   shard-partition  the function rewritten on local shapes with collective graph ops
 *                    where a producer's sharding differs from its consumer's wish
 *                    (shard-partition.c)
 *   shard-fold-add   an add of a value alike on every rank of a group moved into
 *                    the partial sums of the all_reduce before it (shard-fold-add.c)
 *   shard-chunk      the rows of the computation feeding each all_reduce of a
 *                    partitioned function split into chunks, each with its own
 *                    all_reduce, so collectives overlap compute (shard-chunk.c)
 * The first two run the analysis of analysis.h (analysis.c, the per-op rules in rules.c).
 *
 * In: graph ops as written, a braze.mesh (or the mesh= option) and braze.sharding on
 * arguments/results. Out (partition): the same ops on local shapes plus collectives;
 * the function keeps braze.mesh and its annotations and gains braze.partitioned. */
#ifndef BRAZE_PASSES_SHARD_SHARD_PASSES_H
#define BRAZE_PASSES_SHARD_SHARD_PASSES_H

#include "passes/passes.h"

extern const BrazePassInfo braze_pass_shard_propagate;
extern const BrazePassInfo braze_pass_shard_partition;
extern const BrazePassInfo braze_pass_shard_fold_add;
extern const BrazePassInfo braze_pass_shard_chunk;

#endif
