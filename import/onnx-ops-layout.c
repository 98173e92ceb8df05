/* Compositions for layout and whole-axis ops: GlobalAveragePool/GlobalMaxPool
 * (reductions over the spatial dims), SpaceToDepth/DepthToSpace (reshape,
 * transpose, reshape), EyeLike (a constant: only the input's shape matters) and
 * ReduceProd (pairwise products of halves of each reduced axis: log2(n) graph
 * multiplications, exact for integers, the float rounding of a tree product). */
#include <stdlib.h>
#include <string.h>

#include "import/onnx-compose.h"

static bool convert_global_pool(OnnxImporter *im) {
  OcVal x = oc_input(im, 0);
  if (!oc_ok(x) || !onnx_require_float(im, &x.t, "the input"))
    return false;
  if (x.t.rank < 3)
    return onnx_node_error(im, "the input must have rank >= 3 (N, C, D1, ...)");
  int64_t axes[ONNX_MAX_RANK];
  size_t n = 0;
  for (size_t d = 2; d < x.t.rank; ++d)
    axes[n++] = (int64_t)d;
  const char *op = strcmp(im->node->op_type, "GlobalMaxPool") == 0 ? "reduce_max" : "reduce_mean";
  return oc_output(im, 0, oc_reduce(im, op, x, axes, n, true));
}

static OcVal transpose(OnnxImporter *im, OcVal x, const int64_t *perm) {
  if (!oc_ok(x))
    return x;
  OcVal r = x;
  r.v = onnx_build_transpose(im, x.v, &x.t, perm, &r.t);
  return r;
}

/* SpaceToDepth: [N, C, H, W] -> [N, C b b, H / b, W / b]. */
static bool convert_space_to_depth(OnnxImporter *im) {
  OcVal x = oc_input(im, 0);
  int64_t b = onnx_attr_int(im->node, "blocksize", 0);
  if (!oc_ok(x))
    return false;
  if (x.t.rank != 4 || b <= 0 || x.t.dims[2] % b || x.t.dims[3] % b)
    return onnx_node_error(im, "expects a rank-4 input whose H and W divide by blocksize (%lld)", (long long)b);
  int64_t n = x.t.dims[0], c = x.t.dims[1], h = x.t.dims[2], w = x.t.dims[3];
  int64_t split[6] = {n, c, h / b, b, w / b, b}, perm[6] = {0, 3, 5, 1, 2, 4}, out[4] = {n, c * b * b, h / b, w / b};
  return oc_output(im, 0, oc_reshape(im, transpose(im, oc_reshape(im, x, split, 6), perm), out, 4));
}

/* DepthToSpace: [N, C, H, W] -> [N, C / b^2, H b, W b]; DCR (default) or CRD order. */
static bool convert_depth_to_space(OnnxImporter *im) {
  OcVal x = oc_input(im, 0);
  int64_t b = onnx_attr_int(im->node, "blocksize", 0);
  if (!oc_ok(x))
    return false;
  if (x.t.rank != 4 || b <= 0 || x.t.dims[1] % (b * b))
    return onnx_node_error(im, "expects a rank-4 input whose C divides by blocksize^2 (%lld)", (long long)b);
  char mode_buf[32];
  const char *mode = onnx_attr_string(im->node, "mode", "DCR", mode_buf, sizeof mode_buf);
  bool crd = strcmp(mode, "CRD") == 0;
  if (!crd && strcmp(mode, "DCR") != 0)
    return onnx_node_error(im, "mode '%s' is not DCR or CRD", mode);
  int64_t n = x.t.dims[0], c = x.t.dims[1] / (b * b), h = x.t.dims[2], w = x.t.dims[3];
  int64_t dcr_split[6] = {n, b, b, c, h, w}, dcr_perm[6] = {0, 3, 4, 1, 5, 2};
  int64_t crd_split[6] = {n, c, b, b, h, w}, crd_perm[6] = {0, 1, 4, 2, 5, 3};
  int64_t out[4] = {n, c, h * b, w * b};
  OcVal y = oc_reshape(im, x, crd ? crd_split : dcr_split, 6);
  return oc_output(im, 0, oc_reshape(im, transpose(im, y, crd ? crd_perm : dcr_perm), out, 4));
}

/* EyeLike: ones where column - row == k, of the input's 2-D shape. */
static bool convert_eye_like(OnnxImporter *im) {
  OnnxValue *in = onnx_input(im, 0);
  if (!in)
    return false;
  if (in->type.rank != 2)
    return onnx_node_error(im, "the input must have rank 2");
  OnnxType t = in->type;
  t.dtype = (int32_t)onnx_attr_int(im->node, "dtype", in->type.dtype);
  if (mlirTypeIsNull(onnx_element_type(im->ctx, t.dtype)))
    return onnx_node_error(im, "dtype %s is not supported", onnx_dtype_name(t.dtype));
  int64_t k = onnx_attr_int(im->node, "k", 0), rows = t.dims[0], cols = t.dims[1];
  if (!oc_const_size_ok(im, rows * cols, "the identity"))
    return false;
  int64_t *values = malloc(((size_t)(rows * cols) + 1) * sizeof *values);
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j)
      values[i * cols + j] = j - i == k;
  OcVal eye;
  if (onnx_dtype_is_float(t.dtype) && t.dtype != ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT) {
    OnnxType as_f32 = t;
    as_f32.dtype = ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT;
    eye = oc_cast(im, oc_const_ints(im, &as_f32, values), t.dtype);
  } else {
    eye = oc_const_ints(im, &t, values);
  }
  free(values);
  return oc_output(im, 0, eye);
}

/* The product along one axis, kept as a size-1 dim: halves multiplied pairwise
 * (an odd size first gets a 1 appended). */
static OcVal prod_axis(OnnxImporter *im, OcVal x, size_t axis) {
  while (oc_ok(x) && x.t.dims[axis] > 1) {
    if (x.t.dims[axis] % 2) {
      OnnxType one = x.t;
      one.dims[axis] = 1;
      OcVal ones = {onnx_build_splat(im, &one, 1.0), one};
      x = oc_concat(im, x, ones, axis);
    }
    int64_t half = x.t.dims[axis] / 2;
    x = oc_binary(im, "mul", oc_slice(im, x, axis, 0, half, 1), oc_slice(im, x, axis, half, 2 * half, 1));
  }
  return x;
}

static bool convert_reduce_prod(OnnxImporter *im) {
  OcVal x = oc_input(im, 0);
  if (!oc_ok(x))
    return false;
  if (x.t.dtype == ONNX__TENSOR_PROTO__DATA_TYPE__BOOL)
    return onnx_node_error(im, "boolean inputs are not supported");
  int64_t axes[ONNX_MAX_RANK];
  size_t n = 0;
  bool present = false;
  if (!onnx_attr_ints(im, "axes", axes, ONNX_MAX_RANK, &n, &present))
    return false;
  if (!present && onnx_has_input(im->node, 1) &&
      !onnx_const_input_ints(im, 1, "the axes input", axes, ONNX_MAX_RANK, &n))
    return false;
  if (!onnx_norm_axes(im, axes, n, x.t.rank, "axes"))
    return false;
  if (n == 0 && onnx_attr_int(im->node, "noop_with_empty_axes", 0)) {
    OnnxValue *in = onnx_input(im, 0);
    return in && onnx_alias_output(im, 0, in);
  }
  if (n == 0)
    for (; n < x.t.rank; ++n)
      axes[n] = (int64_t)n;
  OcVal y = x;
  for (size_t i = 0; i < n; ++i)
    y = prod_axis(im, y, (size_t)axes[i]);
  if (!oc_ok(y) || onnx_attr_int(im->node, "keepdims", 1))
    return oc_output(im, 0, y);
  int64_t dims[ONNX_MAX_RANK];
  size_t rank = 0;
  for (size_t d = 0, k = 0; d < y.t.rank; ++d) {
    bool reduced = k < n && axes[k] == (int64_t)d;
    k += reduced;
    if (!reduced)
      dims[rank++] = y.t.dims[d];
  }
  return oc_output(im, 0, oc_reshape(im, y, dims, rank));
}

/* LRN: x / (bias + alpha / size * S)^beta, S the sum of squares over the channels
 * [c - floor((size-1)/2), c + ceil((size-1)/2)] (zero-padded): size channel slices. */
static bool convert_lrn(OnnxImporter *im) {
  OcVal x = oc_input(im, 0);
  if (!oc_ok(x) || !onnx_require_float(im, &x.t, "the input"))
    return false;
  int64_t size = onnx_attr_int(im->node, "size", 0);
  if (x.t.rank < 3 || size <= 0 || size > 64)
    return onnx_node_error(im, "expects an input of rank >= 3 and a size in 1..64");
  double alpha = onnx_attr_float(im->node, "alpha", 1e-4f), beta = onnx_attr_float(im->node, "beta", 0.75f);
  double bias = onnx_attr_float(im->node, "bias", 1.0f);
  int64_t before = (size - 1) / 2, after = size - 1 - before, c = x.t.dims[1];
  OcVal sq = oc_binary(im, "mul", x, x);
  for (int side = 0; side < 2 && oc_ok(sq); ++side) {
    int64_t count = side == 0 ? before : after;
    if (!count)
      continue;
    OnnxType t = sq.t;
    t.dims[1] = count;
    OcVal zeros = {onnx_build_splat(im, &t, 0.0), t};
    sq = side == 0 ? oc_concat(im, zeros, sq, 1) : oc_concat(im, sq, zeros, 1);
  }
  OcVal sum = oc_slice(im, sq, 1, 0, c, 1);
  for (int64_t i = 1; i < size; ++i)
    sum = oc_binary(im, "add", sum, oc_slice(im, sq, 1, i, i + c, 1));
  OcVal denom = oc_binary_s(im, "pow", oc_binary_s(im, "add", oc_binary_s(im, "mul", sum, alpha / (double)size), bias), beta);
  return oc_output(im, 0, oc_binary(im, "div", x, denom));
}

const OnnxOpEntry onnx_layout_ops[] = {
    {"LRN", convert_lrn, 0},
    {"GlobalAveragePool", convert_global_pool, 0},
    {"GlobalMaxPool", convert_global_pool, 0},
    {"SpaceToDepth", convert_space_to_depth, 0},
    {"DepthToSpace", convert_depth_to_space, 0},
    {"EyeLike", convert_eye_like, 9},
    {"ReduceProd", convert_reduce_prod, 0},
    {NULL, NULL, 0},
};
