/* graph-decompose's expansions of the convolutions (passes/graph/decompose-conv.c),
 * and the fold of a batch_norm into the constant weights of the conv it reads.
 * Each function checks everything before it builds anything: on a refusal it returns
 * a null value with the reason in why[] and leaves the IR untouched. */
#ifndef BRAZE_PASSES_GRAPH_DECOMPOSE_CONV_H
#define BRAZE_PASSES_GRAPH_DECOMPOSE_CONV_H

#include <stdbool.h>
#include <stddef.h>

#include "dialects/graph/conv-geometry.h"
#include "passes/graph/builder.h"

/* How a conv's im2col columns are made: a view of x (1x1, unit strides, no padding),
 * a window view of the zero-padded channels-last x (the implicit GEMM, decision 0019),
 * or a gather at a constant position table (decision 0016). */
typedef enum { BRAZE_CONV_IM2COL_VIEW, BRAZE_CONV_IM2COL_WINDOW, BRAZE_CONV_IM2COL_GATHER } BrazeConvIm2col;

/* The form braze_decompose_conv uses for `op` when `asked` is WINDOW or GATHER: VIEW
 * for a pointwise conv, GATHER where the window's rank would pass the limit (more than
 * 3 spatial dims), where K is padded (below) and the window cannot be widened for it,
 * or GATHER was asked for. */
BrazeConvIm2col braze_conv_im2col_form(MlirOperation op, BrazeConvIm2col asked, int64_t k_align);
/* With k_align > 1, a bf16/f16 conv (not pointwise) whose K = C/groups * kernel size
 * is not a multiple of k_align gets a K that is: the window form widens the kernel's
 * last spatial dim by zero-weight taps (ResNet's stem: 7 x 7 x 3 = 147 -> 7 x 8 x 3 =
 * 168) where that grows K by at most a quarter; otherwise the gather form pads K with
 * zero columns (and zero weight rows) to the next multiple. The K the product then
 * has, or 0 when none applies (or the gather table would pass its limit). */
int64_t braze_conv_padded_k(MlirOperation op, BrazeConvIm2col asked, int64_t k_align);
/* conv -> im2col columns (the form above), then batch_matmul with the weight viewed as
 * [groups, C/groups * K (padded), OC/groups]. */
MlirValue braze_decompose_conv(MlirOperation op, GraphBuilder *b, BrazeConvIm2col form, int64_t k_align, char *why,
                               size_t why_size);
/* conv_transpose -> conv of the zero-stuffed, cropped input with the weight's groups
 * transposed and its kernel flipped. */
MlirValue braze_decompose_conv_transpose(MlirOperation op, GraphBuilder *b, char *why, size_t why_size);

/* Format why[0..why_size) and return false (the refusals of the functions here). */
bool braze_conv_refuse(char *why, size_t why_size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* `op`'s conv geometry for its operands' shapes (dialects/graph/conv-geometry.h). */
bool braze_conv_read_geometry(MlirOperation op, BrazeConvGeometry *g, char *why, size_t why_size);

/* The f32 values of a constant weight of `count` elements (dense, splat or
 * dense_resource, seen through reshapes; malloc'd, the caller frees), or NULL. */
float *braze_conv_constant_weight(MlirValue w, int64_t count);
/* The dense or dense_resource f32 value of a graph.constant, seen through reshapes (the
 * same data order), or a null attribute; its element i (a splat's one value) as a
 * double (passes/graph/fold-batch-norm.c). */
MlirAttribute braze_conv_constant_f32(MlirValue v);
double braze_conv_constant_element(MlirAttribute a, int64_t i);
/* The zero-padded channels-last input [N, S1 + pads.., C] from x [N, C, S1..] by g's
 * pads (zero-pad.c's gather-select copy, made even when g pads nothing), and whether
 * its position table fits the limit (false with the reason in why[]): checked where g
 * pads, or always with always_copied (the caller makes the copy anyway). Call the
 * first only where the second holds. */
MlirValue braze_conv_padded_channels_last(GraphBuilder *b, MlirValue x, const BrazeConvGeometry *g);
bool braze_conv_padding_fits(const BrazeConvGeometry *g, bool always_copied, char *why, size_t why_size);

/* Whether graph-decompose's conv-depthwise=window takes `op` (passes/graph/
 * decompose-depthwise.c): groups = C = OC, at most 3 spatial dims, a padding table within
 * the limit; false with the reason in why[] otherwise. */
bool braze_conv_depthwise_applies(MlirOperation op, char *why, size_t why_size);
/* The depthwise conv as a window reduction over the channels-last input (the sum over
 * taps of window(xl) x the weight [KK, C]), transposed back to [N, C, O..]. Call only
 * where it applies. */
MlirValue braze_decompose_conv_depthwise(MlirOperation op, GraphBuilder *b);

/* Whether graph-decompose's conv-winograd=min_channels takes `op` (passes/graph/
 * decompose-winograd.c) with tiles of tile x tile results (2 or 4): a 2-D f32 conv, 3x3
 * kernel, unit strides and dilations, one group, a constant weight, at least
 * min_channels channels in and out; false with the reason in why[] otherwise. */
bool braze_conv_winograd_applies(MlirOperation op, int64_t min_channels, int tile, char *why, size_t why_size);
/* conv -> Winograd F(tile x tile, 3x3): input transform, (tile + 2)^2 products with the
 * weight transformed at compile time, output transform. Call only where it applies. */
MlirValue braze_decompose_conv_winograd(MlirOperation op, GraphBuilder *b, int tile);

/* Whether `bn` (a graph.batch_norm) folds into the conv it reads: x is a single-use
 * conv (optionally plus a constant per-channel bias, also single-use) of f32 with a
 * constant weight, and scale/bias/mean/var are f32 constants. */
bool braze_batch_norm_folds(MlirOperation bn);
/* The folded form: conv(x, w * k) + ((bias - mean) * k + beta), k = scale / sqrt(var + eps),
 * with the weight and the bias computed here. Null when braze_batch_norm_folds is false.
 * dead[0..2) get the ops the replacement of `bn` leaves unused (the old bias add, or
 * null, and the old conv), for the caller to erase after it. */
MlirValue braze_fold_batch_norm(MlirOperation bn, GraphBuilder *b, MlirOperation dead[2]);
/* Whether `conv` waits for its batch_norm user to fold it (graph-decompose expands it then). */
bool braze_conv_awaits_fold(MlirOperation conv);

#endif
