/* graph-decompose conv-depthwise=window: a depthwise conv (groups = C = OC, one output
 * channel per input channel) as a window reduction over the channels-last input rather
 * than a batched product of one column per group:
 *
 *   xl = the zero-padded channels-last input [N, S1p.., C] (the gather-select copy of
 *        braze_conv_padded_channels_last; a transpose when the conv pads nothing)
 *   v  = reshape(window(xl) {kernel, strides, dilations}) [N, O1.., KK, C]   (a view)
 *   y  = reduce_sum(v * wt, over KK) [N, O1.., C],  wt = transpose(w [C, KK]) [KK, C]
 *   out = transpose(y) [N, C, O1..]
 *
 * The product form (decompose-conv.c) makes each of the C groups a [P, KK] x [KK, 1]
 * product: a batched B the tensor-core template refuses, so on CUDA the SIMT kernel runs
 * one 64x64 tile per group and image for a single column, in [N, C, P] order with
 * transposes around it. Here the channels stay innermost (the consumer reads the
 * transpose's view, so the next conv's A is channels-last), each output element sums
 * its KK taps in one element kernel with the bias and activation fused, and the
 * weight is read in place. Off by default (the CPU keeps the product form, whose
 * speed its tests pin); cuda-default asks for it. */
#include <stdlib.h>

#include "dialects/graph/conv-geometry.h"
#include "dialects/graph/graph.h"
#include "passes/graph/decompose-conv.h"

static int64_t product_of(const int64_t *v, int n) {
  int64_t p = 1;
  for (int i = 0; i < n; ++i)
    p *= v[i];
  return p;
}

bool braze_conv_depthwise_applies(MlirOperation op, char *why, size_t why_size) {
  BrazeConvGeometry g;
  if (!braze_conv_read_geometry(op, &g, why, why_size))
    return false;
  if (g.groups < 2 || g.groups != g.in_channels || g.out_channels != g.in_channels)
    return braze_conv_refuse(why, why_size, "not depthwise with one output channel per group (groups %lld, "
                             "%lld channels in, %lld out)", (long long)g.groups, (long long)g.in_channels,
                             (long long)g.out_channels);
  if (g.n > 3)
    return braze_conv_refuse(why, why_size, "%d spatial dims (a window view has at most 3)", g.n);
  return braze_conv_padding_fits(&g, false, why, why_size);
}

MlirValue braze_decompose_conv_depthwise(MlirOperation op, GraphBuilder *b) {
  BrazeConvGeometry g;
  char why[256];
  if (!braze_conv_read_geometry(op, &g, why, sizeof why))
    return (MlirValue){NULL};
  MlirValue x = mlirOperationGetOperand(op, 0), w = mlirOperationGetOperand(op, 1);
  MlirType e = braze_element_type(mlirValueGetType(x));
  int n = g.n;
  int64_t c = g.in_channels, kk = product_of(g.kernel, n);
  bool pads = false;
  for (int i = 0; i < n; ++i)
    pads = pads || g.pad_begin[i] || g.pad_end[i];
  int64_t perm[BRAZE_MAX_RANK] = {0};
  for (int i = 0; i < n; ++i)
    perm[1 + i] = 2 + i;
  perm[n + 1] = 1;
  MlirValue xl = pads ? braze_conv_padded_channels_last(b, x, &g) : braze_gb_transpose(b, x, perm);
  int64_t wshape[2 * BRAZE_MAX_RANK + 2];
  wshape[0] = g.batch;
  wshape[2 * n + 1] = c;
  for (int i = 0; i < n; ++i) {
    wshape[1 + i] = g.out[i];
    wshape[1 + n + i] = g.kernel[i];
  }
  MlirNamedAttribute attrs[3] = {braze_gb_attr_i64_array(b->ctx, "kernel", g.kernel, n),
                                 braze_gb_attr_i64_array(b->ctx, "strides", g.stride, n),
                                 braze_gb_attr_i64_array(b->ctx, "dilations", g.dilation, n)};
  MlirValue win = braze_gb_make(b, "window", &xl, 1, wshape, 2 * n + 2, e, attrs, 3);
  int64_t vshape[BRAZE_MAX_RANK + 2];
  vshape[0] = g.batch;
  for (int i = 0; i < n; ++i)
    vshape[1 + i] = g.out[i];
  vshape[1 + n] = kk;
  vshape[2 + n] = c;
  MlirValue v = braze_gb_reshape(b, win, vshape, n + 3);
  int64_t w2[2] = {c, kk}, swap[2] = {1, 0};
  MlirValue wt = braze_gb_transpose(b, braze_gb_reshape(b, w, w2, 2), swap);
  MlirValue ops[2] = {v, wt};
  MlirValue m = braze_gb_make(b, "mul", ops, 2, vshape, n + 3, e, NULL, 0);
  int64_t taps = 1 + n;
  MlirValue y = braze_gb_reduce(b, "reduce_sum", m, &taps, 1, false);
  int64_t back[BRAZE_MAX_RANK] = {0};
  back[1] = n + 1;
  for (int i = 0; i < n; ++i)
    back[2 + i] = 1 + i;
  return braze_gb_transpose(b, y, back);
}
