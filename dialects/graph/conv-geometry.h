/* The geometry of graph.conv and graph.conv_transpose: their attributes read and
 * checked against the operand shapes, and the result's spatial sizes
 * (docs/dialect-graph.md "Convolutions"). Shared by the verifier and the passes that
 * rewrite convolutions; the reference interpreter computes its own. */
#ifndef BRAZE_DIALECTS_GRAPH_CONV_GEOMETRY_H
#define BRAZE_DIALECTS_GRAPH_CONV_GEOMETRY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dialects/graph/graph.h"
#include "mlir-c/IR.h"

enum { BRAZE_CONV_MAX_SPATIAL = BRAZE_MAX_RANK - 2 };

typedef struct {
  bool transpose;   /* conv_transpose */
  int n;            /* spatial dims: rank - 2 */
  int64_t batch, in_channels, out_channels, groups;
  int64_t in[BRAZE_CONV_MAX_SPATIAL];     /* input spatial sizes */
  int64_t kernel[BRAZE_CONV_MAX_SPATIAL]; /* weight spatial sizes */
  int64_t stride[BRAZE_CONV_MAX_SPATIAL], dilation[BRAZE_CONV_MAX_SPATIAL];
  int64_t pad_begin[BRAZE_CONV_MAX_SPATIAL], pad_end[BRAZE_CONV_MAX_SPATIAL];
  int64_t output_padding[BRAZE_CONV_MAX_SPATIAL]; /* conv_transpose only; 0 for conv */
  int64_t out[BRAZE_CONV_MAX_SPATIAL];            /* result spatial sizes */
} BrazeConvGeometry;

/* Read `op`'s attributes (graph.conv or graph.conv_transpose) for operands of shapes
 * x and w; false with a message in why[0..n) (no location) when an attribute is
 * missing or malformed or the shapes do not fit. */
bool braze_conv_geometry(MlirOperation op, const int64_t *x, intptr_t x_rank, const int64_t *w,
                         intptr_t w_rank, BrazeConvGeometry *g, char *why, size_t why_size);

/* The result shape [N, OC, out...] into dims; returns its rank. */
intptr_t braze_conv_result_shape(const BrazeConvGeometry *g, int64_t *dims);

#endif
