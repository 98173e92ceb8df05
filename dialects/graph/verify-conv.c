/* Graph verifier rules for convolutions: conv and conv_transpose
 * (docs/dialect-graph.md "Convolutions"). Float operands of one element type, NCHW
 * input of rank 3 to 8, a weight of the same rank, attributes as
 * dialects/graph/conv-geometry.h reads them, and the result shape they give. */
#include "dialects/graph/conv-geometry.h"
#include "dialects/graph/verify-internal.h"

bool gv_verify_conv(const GvOp *v) {
  const GvTensor *x = &v->in[0], *w = &v->in[1];
  if (!gv_same_elt(v, x, "input", w, "weight") || !gv_same_elt(v, x, "input", &v->res, "result"))
    return false;
  BrazeConvGeometry g;
  char why[200];
  if (!braze_conv_geometry(v->op, x->dims, x->rank, w->dims, w->rank, &g, why, sizeof why))
    return gv_fail(v, "%s", why);
  int64_t expected[BRAZE_MAX_RANK];
  intptr_t rank = braze_conv_result_shape(&g, expected);
  return gv_result_shape_is(v, expected, rank,
                            g.transpose ? "[N, OC, (in - 1) * stride + dilation * (k - 1) + 1 - pads + output_padding...]"
                                        : "[N, OC, (in + pads - dilation * (k - 1) - 1) / stride + 1...]");
}
