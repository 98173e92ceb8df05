/* Collectives in the entry of a partitioned graph function (targets/common/entry-collective.c,
 * decision 0018), for targets/common/entry-graph.c. */
#ifndef BRAZE_TARGETS_COMMON_ENTRY_COLLECTIVE_H
#define BRAZE_TARGETS_COMMON_ENTRY_COLLECTIVE_H

#include <stdbool.h>
#include <stdint.h>

#include "ir/build.h"
#include "mlir-c/IR.h"

/* Whether the collective `op` may write its result over its operand's buffer when the
 * operand dies there (all_reduce: NCCL reduces in place). */
bool cg_collective_in_place(MlirOperation op);
/* Workspace bytes the collective `op` needs for staging (0: none). */
int64_t cg_collective_scratch_bytes(MlirOperation op);
/* Append `kernel.collective`(x, y[, scratch]) for the graph collective `op` of the graph
 * function `func` (whose braze.mesh gives the axes); `scratch` may be null. False after
 * a diagnostic at the op. */
bool cg_emit_collective(CgBuilder *b, MlirOperation op, MlirOperation func, MlirValue x, MlirValue y,
                        MlirValue scratch);

#endif
