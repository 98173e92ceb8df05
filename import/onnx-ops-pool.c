/* MaxPool and AveragePool as compositions: the input padded (with -inf for max, the
 * smallest value for MaxPool's INT8/UINT8, 0 for average) and, axis by axis, one
 * strided slice per kernel offset, combined by max or by add, then a division by the
 * per-position count of elements the window covers (a constant computed here: the
 * product over the spatial axes of each axis's count, with or without the explicit
 * padding per count_include_pad; positions past the input that ceil_mode adds are
 * never counted). Every ONNX padding form
 * (pads, auto_pad SAME_UPPER/SAME_LOWER/VALID), strides, dilations and ceil_mode. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "import/onnx-compose.h"

enum { MAX_SPATIAL = ONNX_MAX_RANK - 2 };

typedef struct {
  size_t n;                     /* spatial dims */
  int64_t in[MAX_SPATIAL], k[MAX_SPATIAL], s[MAX_SPATIAL], d[MAX_SPATIAL];
  int64_t pb[MAX_SPATIAL], pe[MAX_SPATIAL]; /* explicit padding */
  int64_t extra[MAX_SPATIAL];   /* padding past the end that ceil_mode needs */
  int64_t out[MAX_SPATIAL];
} PoolGeometry;

static bool pool_geometry(OnnxImporter *im, const OnnxType *t, PoolGeometry *g) {
  if (t->rank < 3)
    return onnx_node_error(im, "the input must have rank >= 3 (N, C, D1, ...)");
  g->n = t->rank - 2;
  int64_t pads[2 * MAX_SPATIAL];
  size_t nk = 0;
  bool given = false;
  if (!onnx_attr_ints(im, "kernel_shape", g->k, MAX_SPATIAL, &nk, &given))
    return false;
  if (!given || nk != g->n)
    return onnx_node_error(im, "kernel_shape must give %zu sizes", g->n);
  if (!onnx_attr_ints_exact(im, "strides", g->s, g->n, 1, NULL) ||
      !onnx_attr_ints_exact(im, "dilations", g->d, g->n, 1, NULL) ||
      !onnx_attr_ints_exact(im, "pads", pads, 2 * g->n, 0, NULL))
    return false;
  bool ceil_mode = onnx_attr_int(im->node, "ceil_mode", 0) != 0;
  char auto_pad_buf[32];
  const char *auto_pad = onnx_attr_string(im->node, "auto_pad", "NOTSET", auto_pad_buf, sizeof auto_pad_buf);
  bool same_upper = strcmp(auto_pad, "SAME_UPPER") == 0, same_lower = strcmp(auto_pad, "SAME_LOWER") == 0;
  bool valid = strcmp(auto_pad, "VALID") == 0;
  if (!same_upper && !same_lower && !valid && strcmp(auto_pad, "NOTSET") != 0 && auto_pad[0])
    return onnx_node_error(im, "auto_pad '%s' is not supported", auto_pad);
  for (size_t i = 0; i < g->n; ++i) {
    int64_t in = t->dims[2 + i], k = g->k[i], s = g->s[i], d = g->d[i];
    if (k <= 0 || s <= 0 || d <= 0 || pads[i] < 0 || pads[i + g->n] < 0)
      return onnx_node_error(im, "kernel sizes, strides and dilations must be positive, pads non-negative");
    int64_t span = (k - 1) * d + 1;
    g->in[i] = in;
    g->pb[i] = valid ? 0 : pads[i];
    g->pe[i] = valid ? 0 : pads[i + g->n];
    if (same_upper || same_lower) {
      int64_t out = (in + s - 1) / s;
      int64_t total = (out - 1) * s + span - in;
      total = total > 0 ? total : 0;
      g->pb[i] = same_upper ? total / 2 : total - total / 2;
      g->pe[i] = total - g->pb[i];
    }
    int64_t padded = in + g->pb[i] + g->pe[i];
    if (padded < span)
      return onnx_node_error(im, "the kernel (%lld with dilation) is larger than the padded input (%lld)",
                             (long long)span, (long long)padded);
    int64_t out = ceil_mode ? (padded - span + s - 1) / s + 1 : (padded - span) / s + 1;
    if (ceil_mode && (out - 1) * s >= in + g->pb[i]) /* a last window starting in the end padding */
      --out;
    g->out[i] = out;
    int64_t need = (out - 1) * s + span;
    g->extra[i] = need > padded ? need - padded : 0;
  }
  return true;
}

/* x padded on every spatial axis with `fill`. */
static OcVal pad_spatial(OnnxImporter *im, OcVal x, const PoolGeometry *g, double fill) {
  for (size_t i = 0; i < g->n && oc_ok(x); ++i) {
    size_t axis = 2 + i;
    int64_t sides[2] = {g->pb[i], g->pe[i] + g->extra[i]};
    for (int side = 0; side < 2 && oc_ok(x); ++side) {
      if (!sides[side])
        continue;
      OnnxType t = x.t;
      t.dims[axis] = sides[side];
      OcVal piece = {onnx_build_splat(im, &t, fill), t};
      x = side == 0 ? oc_concat(im, piece, x, axis) : oc_concat(im, x, piece, axis);
    }
  }
  return x;
}

/* Pooling along one spatial axis: the combination of the k strided slices of x
 * along it. Max and sum are separable, so the window is pooled axis by axis: sum
 * of k_1 + k_2 + ... slices instead of k_1 k_2 ... (and fewer inputs per fused
 * kernel). */
static OcVal pool_axis(OnnxImporter *im, OcVal x, const PoolGeometry *g, size_t i, bool is_max) {
  OcVal acc = {{NULL}, {0}};
  for (int64_t j = 0; j < g->k[i] && oc_ok(x); ++j) {
    int64_t start = j * g->d[i];
    OcVal piece = oc_slice(im, x, 2 + i, start, start + (g->out[i] - 1) * g->s[i] + 1, g->s[i]);
    acc = j == 0 ? piece : oc_binary(im, is_max ? "max" : "add", acc, piece);
  }
  return acc;
}

/* How many window elements of each output position fall inside the input (or
 * inside the input and its explicit padding): [1, 1, out...] as the input's type. */
static OcVal window_counts(OnnxImporter *im, const PoolGeometry *g, int32_t dtype, bool include_pad) {
  OnnxType t = {.dtype = ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT, .rank = 2 + g->n, .dims = {1, 1}};
  int64_t total = 1;
  for (size_t i = 0; i < g->n; ++i)
    total *= t.dims[2 + i] = g->out[i];
  if (!oc_const_size_ok(im, total, "the window counts"))
    return (OcVal){{NULL}, t};
  int64_t *counts = malloc(((size_t)total + 1) * sizeof *counts);
  for (int64_t p = 0; p < total; ++p) {
    int64_t rem = p, count = 1;
    for (size_t i = g->n; i-- > 0;) {
      int64_t o = rem % g->out[i], c = 0;
      rem /= g->out[i];
      int64_t lo = include_pad ? 0 : g->pb[i], hi = include_pad ? g->pb[i] + g->in[i] + g->pe[i] : g->pb[i] + g->in[i];
      for (int64_t j = 0; j < g->k[i]; ++j) {
        int64_t at = o * g->s[i] + j * g->d[i];
        c += at >= lo && at < hi;
      }
      count *= c;
    }
    counts[p] = count;
  }
  OcVal r = oc_cast(im, oc_const_ints(im, &t, counts), dtype);
  free(counts);
  return r;
}

static bool convert_pool(OnnxImporter *im) {
  bool is_max = strcmp(im->node->op_type, "MaxPool") == 0;
  OcVal x = oc_input(im, 0);
  if (!oc_ok(x))
    return false;
  /* MaxPool also takes INT8 and UINT8 (opset 12): padding with the smallest value. */
  bool int8 = x.t.dtype == ONNX__TENSOR_PROTO__DATA_TYPE__INT8;
  bool uint8 = x.t.dtype == ONNX__TENSOR_PROTO__DATA_TYPE__UINT8;
  if (!(is_max && (int8 || uint8)) && !onnx_require_float(im, &x.t, "the input"))
    return false;
  if (is_max && im->node->n_output > 1 && im->node->output[1][0])
    return onnx_node_error(im, "the Indices output is not supported");
  PoolGeometry g;
  if (!pool_geometry(im, &x.t, &g))
    return false;
  for (size_t i = 0; i < g.n; ++i)
    if (g.k[i] > 64)
      return onnx_node_error(im, "kernel sizes above 64 are not supported (%lld)", (long long)g.k[i]);
  OcVal acc = pad_spatial(im, x, &g, !is_max ? 0.0 : int8 ? -128.0 : uint8 ? 0.0 : -INFINITY);
  for (size_t i = 0; i < g.n && oc_ok(acc); ++i)
    acc = pool_axis(im, acc, &g, i, is_max);
  if (!oc_ok(acc))
    return false;
  if (is_max)
    return oc_output(im, 0, acc);
  bool include_pad = onnx_attr_int(im->node, "count_include_pad", 0) != 0;
  return oc_output(im, 0, oc_binary(im, "div", acc, window_counts(im, &g, x.t.dtype, include_pad)));
}

const OnnxOpEntry onnx_pool_ops[] = {
    {"MaxPool", convert_pool, 0},
    {"AveragePool", convert_pool, 0},
    {NULL, NULL, 0},
};
