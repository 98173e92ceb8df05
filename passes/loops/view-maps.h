/* The indexing maps of graph view ops (transpose, broadcast_to, slice, reshape, window):
 * view index -> input index. graph-to-loops composes consumers' maps through them, so
 * views never compute anything at loop level (docs/architecture.md, "loop level"). */
#ifndef BRAZE_PASSES_LOOPS_VIEW_MAPS_H
#define BRAZE_PASSES_LOOPS_VIEW_MAPS_H

#include "mlir-c/AffineMap.h"
#include "mlir-c/IR.h"

/* The map of a verified view op; reshape of row-major data uses floordiv/mod. */
MlirAffineMap braze_view_map(MlirOperation op);

#endif
