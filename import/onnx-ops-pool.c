/* MaxPool and AveragePool as compositions. Float inputs with 1 to 3 spatial dims are
 * pooled channels-last through a `window` view (decision 0019): x transposed to
 * [N, S.., C] (a view), padded (with -inf for max, 0 for average) by one gather along
 * the flattened positions at a constant table and a select on a constant mask (a
 * copy only where there is padding; the producer, e.g. a conv template with its
 * epilogue, stays a kernel of its own since a gather reads it), window(.) [N, O.., K..,
 * C] reduced over K by reduce_max / reduce_sum (one reduction kernel), viewed back to
 * NCHW. Otherwise (MaxPool's INT8/UINT8, more spatial dims) the input is padded by
 * concats (-128 for INT8, 0 for UINT8) and, axis by axis, one strided slice per kernel
 * offset is combined by max or by add. Average then divides by the per-position count
 * of elements the window covers (a constant computed here: the product over the
 * spatial axes of each axis's count, with or without the explicit padding per
 * count_include_pad; positions past the input that ceil_mode adds are never counted).
 * Every ONNX padding form (pads, auto_pad SAME_UPPER/SAME_LOWER/VALID), strides,
 * dilations and ceil_mode. */
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

/* The largest spatial rank of the window form ([N, O.., K.., C] has rank 2n + 2). */
enum { MAX_WINDOW_SPATIAL = (ONNX_MAX_RANK - 2) / 2 };

/* x [N, C, S..] as channels-last [N, P1.., C] with Pi = (out_i - 1) s_i + span_i
 * positions per axis (the begin padding, the input, then end padding as far as a
 * window reaches), `fill` outside the input: a view when that is x itself, else one
 * gather of x viewed [N, L, C] at a constant [P] position table and a select on a
 * constant [P, 1] mask. */
static OcVal channels_last_padded(OnnxImporter *im, OcVal x, const PoolGeometry *g, double fill) {
  size_t n = g->n;
  int64_t perm[ONNX_MAX_RANK] = {0}, padded[MAX_SPATIAL], cl[ONNX_MAX_RANK] = {x.t.dims[0]};
  int64_t l = 1, lp = 1, c = x.t.dims[1];
  bool copy = false;
  for (size_t i = 0; i < n; ++i) {
    perm[1 + i] = (int64_t)(2 + i);
    padded[i] = (g->out[i] - 1) * g->s[i] + (g->k[i] - 1) * g->d[i] + 1;
    copy = copy || g->pb[i] > 0 || padded[i] != g->in[i];
    l *= g->in[i];
    lp *= padded[i];
    cl[1 + i] = g->in[i];
  }
  perm[n + 1] = 1;
  cl[n + 1] = c;
  OcVal r = {{NULL}, {.dtype = x.t.dtype, .rank = n + 2}};
  memcpy(r.t.dims, cl, sizeof cl);
  OnnxNamedAttr perm_attr = {"perm", onnx_i64_array(im, perm, n + 2)};
  r.v = onnx_build(im, "transpose", &r.t, &x.v, 1, &perm_attr, 1);
  if (!copy)
    return r;
  if (!oc_const_size_ok(im, lp, "the pool's padding table"))
    return (OcVal){{NULL}, x.t};
  int64_t flat[3] = {x.t.dims[0], l, c};
  OcVal xl = oc_reshape(im, r, flat, 3);
  int64_t *idx = malloc((size_t)lp * sizeof *idx), *inside = malloc((size_t)lp * sizeof *inside);
  for (int64_t q = 0; q < lp; ++q) {
    int64_t rest = q, pos = 0, stride = 1;
    bool in = true;
    for (size_t i = n; i-- > 0;) {
      int64_t at = rest % padded[i] - g->pb[i];
      rest /= padded[i];
      in = in && at >= 0 && at < g->in[i];
      pos += at * stride;
      stride *= g->in[i];
    }
    idx[q] = in ? pos : 0;
    inside[q] = in;
  }
  OnnxType it = {.dtype = ONNX__TENSOR_PROTO__DATA_TYPE__INT32, .rank = 1, .dims = {lp}};
  OnnxType mt = {.dtype = ONNX__TENSOR_PROTO__DATA_TYPE__BOOL, .rank = 2, .dims = {lp, 1}};
  OcVal positions = oc_const_ints(im, &it, idx), mask = oc_const_ints(im, &mt, inside);
  free(idx);
  free(inside);
  if (!oc_ok(xl) || !oc_ok(positions) || !oc_ok(mask))
    return (OcVal){{NULL}, x.t};
  OcVal gathered = {{NULL}, {.dtype = x.t.dtype, .rank = 3, .dims = {x.t.dims[0], lp, c}}};
  MlirValue ops[2] = {xl.v, positions.v};
  OnnxNamedAttr axis = {"axis", onnx_i64_attr(im, 1)};
  gathered.v = onnx_build(im, "gather", &gathered.t, ops, 2, &axis, 1);
  OcVal v = oc_select(im, mask, gathered, oc_scalar(im, x.t.dtype, fill));
  int64_t shape[ONNX_MAX_RANK] = {x.t.dims[0]};
  for (size_t i = 0; i < n; ++i)
    shape[1 + i] = padded[i];
  shape[n + 1] = c;
  return oc_reshape(im, v, shape, n + 2);
}

/* max/sum over the windows of the padded channels-last input, as [N, C, out..]. */
static OcVal pool_window(OnnxImporter *im, OcVal x, const PoolGeometry *g, bool is_max) {
  size_t n = g->n;
  OcVal xl = channels_last_padded(im, x, g, is_max ? -INFINITY : 0.0);
  if (!oc_ok(xl))
    return (OcVal){{NULL}, x.t};
  OcVal win = {{NULL}, {.dtype = x.t.dtype, .rank = 2 * n + 2}};
  win.t.dims[0] = x.t.dims[0];
  win.t.dims[2 * n + 1] = x.t.dims[1];
  int64_t axes[MAX_SPATIAL], perm[ONNX_MAX_RANK] = {0};
  for (size_t i = 0; i < n; ++i) {
    win.t.dims[1 + i] = g->out[i];
    win.t.dims[1 + n + i] = g->k[i];
    axes[i] = (int64_t)(1 + n + i);
    perm[2 + i] = (int64_t)(1 + i);
  }
  perm[1] = (int64_t)(n + 1);
  OnnxNamedAttr attrs[3] = {{"kernel", onnx_i64_array(im, g->k, n)},
                            {"strides", onnx_i64_array(im, g->s, n)},
                            {"dilations", onnx_i64_array(im, g->d, n)}};
  win.v = onnx_build(im, "window", &win.t, &xl.v, 1, attrs, 3);
  OcVal pooled = oc_reduce(im, is_max ? "reduce_max" : "reduce_sum", win, axes, n, false);
  if (!oc_ok(pooled))
    return (OcVal){{NULL}, x.t};
  OcVal r = {{NULL}, {.dtype = x.t.dtype, .rank = n + 2}};
  r.t.dims[0] = x.t.dims[0];
  r.t.dims[1] = x.t.dims[1];
  for (size_t i = 0; i < n; ++i)
    r.t.dims[2 + i] = g->out[i];
  OnnxNamedAttr perm_attr = {"perm", onnx_i64_array(im, perm, n + 2)};
  r.v = onnx_build(im, "transpose", &r.t, &pooled.v, 1, &perm_attr, 1);
  return r;
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
  OcVal acc;
  if (!int8 && !uint8 && g.n <= MAX_WINDOW_SPATIAL) {
    acc = pool_window(im, x, &g, is_max);
  } else {
    acc = pad_spatial(im, x, &g, !is_max ? 0.0 : int8 ? -128.0 : uint8 ? 0.0 : -INFINITY);
    for (size_t i = 0; i < g.n && oc_ok(acc); ++i)
      acc = pool_axis(im, acc, &g, i, is_max);
  }
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
