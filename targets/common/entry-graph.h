/* The graph-function conversion every target uses for its entry
 * (targets/common/entry-graph.c). */
#ifndef BRAZE_TARGETS_COMMON_ENTRY_GRAPH_H
#define BRAZE_TARGETS_COMMON_ENTRY_GRAPH_H

#include <stdbool.h>

#include "mlir-c/IR.h"

/* Rewrite the graph function (calls of kernels already converted to destination-passing
 * memref functions) into the entry: `@NAME(inputs..., outputs..., workspace)` calling the
 * kernels with memrefs, intermediates planned by liveness into one workspace.
 * `pass` names the calling pass in diagnostics and remarks; with `remarks`, a remark gives
 * the peak intermediate bytes. With `collectives`, the collective ops of a partitioned
 * function become `kernel.collective` steps (decision 0018); without, they are refused
 * at the op. False after a diagnostic. */
bool cg_convert_graph(MlirOperation func, MlirOperation module, const char *pass, bool remarks, bool collectives);

#endif
