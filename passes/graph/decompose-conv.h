/* graph-decompose's expansions of the convolutions (passes/graph/decompose-conv.c),
 * and the fold of a batch_norm into the constant weights of the conv it reads.
 * Each function checks everything before it builds anything: on a refusal it returns
 * a null value with the reason in why[] and leaves the IR untouched. */
#ifndef BRAZE_PASSES_GRAPH_DECOMPOSE_CONV_H
#define BRAZE_PASSES_GRAPH_DECOMPOSE_CONV_H

#include <stdbool.h>
#include <stddef.h>

#include "passes/graph/builder.h"

/* conv -> im2col as one gather of the (zero-extended) input at constant positions,
 * then batch_matmul with the weight viewed as [groups, OC/groups, C/groups * K]. */
MlirValue braze_decompose_conv(MlirOperation op, GraphBuilder *b, char *why, size_t why_size);
/* conv_transpose -> conv of the zero-stuffed, cropped input with the weight's groups
 * transposed and its kernel flipped. */
MlirValue braze_decompose_conv_transpose(MlirOperation op, GraphBuilder *b, char *why, size_t why_size);

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
