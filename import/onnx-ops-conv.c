/* Conv, ConvTranspose and ConvInteger as graph.conv / graph.conv_transpose
 * (docs/onnx-import.md): every padding form (pads, auto_pad SAME_UPPER, SAME_LOWER,
 * VALID), strides, dilations, group, kernel_shape (checked against the weight), the
 * bias B as an add of B viewed as [OC, 1, ...]; ConvTranspose's output_padding and
 * output_shape (the pads it implies, per the operator's definition: a negative total
 * padding becomes output padding). ConvInteger subtracts the zero points in i32 and
 * convolves in f64, exact for the int8/uint8 products and their sums (below 2^53),
 * then casts to INT32. */
#include <stdlib.h>
#include <string.h>

#include "import/onnx-compose.h"

enum { MAX_SPATIAL = ONNX_MAX_RANK - 2 };

typedef struct {
  size_t n;
  int64_t s[MAX_SPATIAL], d[MAX_SPATIAL], pads[2 * MAX_SPATIAL], out_pad[MAX_SPATIAL], out[MAX_SPATIAL];
  int64_t groups;
} ConvAttrs;

typedef enum { PAD_EXPLICIT, PAD_SAME_UPPER, PAD_SAME_LOWER, PAD_VALID } AutoPad;

static bool read_auto_pad(OnnxImporter *im, AutoPad *out) {
  char buf[32];
  const char *s = onnx_attr_string(im->node, "auto_pad", "NOTSET", buf, sizeof buf);
  if (!strcmp(s, "SAME_UPPER"))
    *out = PAD_SAME_UPPER;
  else if (!strcmp(s, "SAME_LOWER"))
    *out = PAD_SAME_LOWER;
  else if (!strcmp(s, "VALID"))
    *out = PAD_VALID;
  else if (!strcmp(s, "NOTSET") || !s[0])
    *out = PAD_EXPLICIT;
  else
    return onnx_node_error(im, "auto_pad '%s' is not supported", s);
  return true;
}

/* Shapes and the attributes every form shares. */
static bool common_attrs(OnnxImporter *im, const OnnxType *x, const OnnxType *w, ConvAttrs *a, AutoPad *pad) {
  if (x->rank < 3 || w->rank != x->rank)
    return onnx_node_error(im, "X must be [N, C, D1, ...] (rank >= 3) and W of the same rank");
  a->n = x->rank - 2;
  int64_t kernel[MAX_SPATIAL];
  bool given = false;
  a->groups = onnx_attr_int(im->node, "group", 1);
  if (!onnx_attr_ints_exact(im, "kernel_shape", kernel, a->n, 0, &given) ||
      !onnx_attr_ints_exact(im, "strides", a->s, a->n, 1, NULL) ||
      !onnx_attr_ints_exact(im, "dilations", a->d, a->n, 1, NULL) ||
      !onnx_attr_ints_exact(im, "pads", a->pads, 2 * a->n, 0, NULL) || !read_auto_pad(im, pad))
    return false;
  for (size_t i = 0; given && i < a->n; ++i)
    if (kernel[i] != w->dims[2 + i])
      return onnx_node_error(im, "kernel_shape does not match the weight's spatial dims");
  if (a->groups < 1 || x->dims[1] % a->groups)
    return onnx_node_error(im, "group %lld does not divide the %lld input channels", (long long)a->groups,
                           (long long)x->dims[1]);
  const int64_t big = (int64_t)1 << 31; /* keeps the size arithmetic far from overflow */
  for (size_t i = 0; i < a->n; ++i)
    if (a->s[i] < 1 || a->d[i] < 1 || a->pads[i] < 0 || a->pads[a->n + i] < 0 || a->s[i] > big || a->d[i] > big ||
        a->pads[i] > big || a->pads[a->n + i] > big)
      return onnx_node_error(im, "strides and dilations must be in [1, 2^31], pads in [0, 2^31]");
  return true;
}

/* Conv: pads from auto_pad, the output sizes. */
static bool conv_geometry(OnnxImporter *im, const OnnxType *x, const OnnxType *w, ConvAttrs *a) {
  AutoPad pad;
  if (!common_attrs(im, x, w, a, &pad))
    return false;
  if (w->dims[1] * a->groups != x->dims[1] || w->dims[0] % a->groups)
    return onnx_node_error(im, "W [%lld, %lld, ...] does not fit %lld input channels in %lld groups",
                           (long long)w->dims[0], (long long)w->dims[1], (long long)x->dims[1], (long long)a->groups);
  for (size_t i = 0; i < a->n; ++i) {
    int64_t in = x->dims[2 + i], span = (w->dims[2 + i] - 1) * a->d[i] + 1;
    if (pad == PAD_VALID)
      a->pads[i] = a->pads[a->n + i] = 0;
    if (pad == PAD_SAME_UPPER || pad == PAD_SAME_LOWER) {
      int64_t out = (in + a->s[i] - 1) / a->s[i], total = (out - 1) * a->s[i] + span - in;
      total = total > 0 ? total : 0;
      a->pads[i] = pad == PAD_SAME_UPPER ? total / 2 : total - total / 2;
      a->pads[a->n + i] = total - a->pads[i];
    }
    int64_t padded = in + a->pads[i] + a->pads[a->n + i];
    if (padded < span)
      return onnx_node_error(im, "the kernel (%lld with dilation) is larger than the padded input (%lld)",
                             (long long)span, (long long)padded);
    a->out[i] = (padded - span) / a->s[i] + 1;
    a->out_pad[i] = 0;
  }
  return true;
}

/* ConvTranspose: pads from output_shape or auto_pad (the operator's formulas). */
static bool conv_transpose_geometry(OnnxImporter *im, const OnnxType *x, const OnnxType *w, ConvAttrs *a) {
  AutoPad pad;
  if (!common_attrs(im, x, w, a, &pad))
    return false;
  if (w->dims[0] != x->dims[1])
    return onnx_node_error(im, "W dim 0 (%lld) must equal the input channels (%lld)", (long long)w->dims[0],
                           (long long)x->dims[1]);
  int64_t shape[MAX_SPATIAL];
  bool has_shape = false;
  if (!onnx_attr_ints_exact(im, "output_padding", a->out_pad, a->n, 0, NULL) ||
      !onnx_attr_ints_exact(im, "output_shape", shape, a->n, 0, &has_shape))
    return false;
  for (size_t i = 0; i < a->n; ++i) {
    int64_t in = x->dims[2 + i], span = (w->dims[2 + i] - 1) * a->d[i] + 1;
    if (a->out_pad[i] < 0 || a->out_pad[i] > ((int64_t)1 << 31) || shape[i] > ((int64_t)1 << 40))
      return onnx_node_error(im, "output_padding must be in [0, 2^31], output_shape at most 2^40");
    if (pad == PAD_VALID)
      a->pads[i] = a->pads[a->n + i] = 0;
    bool same = pad == PAD_SAME_UPPER || pad == PAD_SAME_LOWER;
    if (has_shape || same) {
      int64_t target = has_shape ? shape[i] : in * a->s[i];
      int64_t total = a->s[i] * (in - 1) + a->out_pad[i] + span - target;
      if (total < 0) { /* a larger output than the kernel reaches: zeros at the end */
        a->out_pad[i] -= total;
        total = 0;
      }
      bool upper = pad == PAD_SAME_UPPER;
      a->pads[i] = upper ? total / 2 : total - total / 2;
      a->pads[a->n + i] = total - a->pads[i];
    }
    a->out[i] = a->s[i] * (in - 1) + a->out_pad[i] + span - a->pads[i] - a->pads[a->n + i];
    if (a->out[i] < 1)
      return onnx_node_error(im, "the output would have size %lld along spatial dim %zu", (long long)a->out[i], i);
  }
  return true;
}

static OcVal build_conv(OnnxImporter *im, const char *op, OcVal x, OcVal w, const ConvAttrs *a, int64_t out_channels) {
  OnnxType t = x.t;
  t.dims[1] = out_channels;
  for (size_t i = 0; i < a->n; ++i)
    t.dims[2 + i] = a->out[i];
  if (!onnx_check_size(im, &t, "the output"))
    return (OcVal){{NULL}, t};
  OnnxNamedAttr attrs[5] = {{"strides", onnx_i64_array(im, a->s, a->n)},
                            {"pads", onnx_i64_array(im, a->pads, 2 * a->n)},
                            {"dilations", onnx_i64_array(im, a->d, a->n)},
                            {"groups", onnx_i64_attr(im, a->groups)},
                            {"output_padding", onnx_i64_array(im, a->out_pad, a->n)}};
  MlirValue ops[2] = {x.v, w.v};
  bool transpose = strcmp(op, "conv_transpose") == 0;
  return (OcVal){onnx_build(im, op, &t, ops, 2, attrs, transpose ? 5 : 4), t};
}

/* y + B viewed as [OC, 1, ...] (input 2, when present). */
static OcVal add_bias(OnnxImporter *im, OcVal y) {
  if (!oc_ok(y) || !onnx_has_input(im->node, 2))
    return y;
  OcVal b = oc_input(im, 2);
  if (!oc_ok(b))
    return b;
  if (b.t.rank != 1 || b.t.dims[0] != y.t.dims[1] || b.t.dtype != y.t.dtype) {
    onnx_node_error(im, "B must be a 1-D tensor of the %lld output channels, of X's type", (long long)y.t.dims[1]);
    return (OcVal){{NULL}, y.t};
  }
  int64_t dims[ONNX_MAX_RANK] = {b.t.dims[0]};
  for (size_t i = 1; i + 1 < y.t.rank; ++i)
    dims[i] = 1;
  return oc_binary(im, "add", y, oc_reshape(im, b, dims, y.t.rank - 1));
}

static bool operands(OnnxImporter *im, OcVal *x, OcVal *w) {
  *x = oc_input(im, 0);
  *w = oc_input(im, 1);
  if (!oc_ok(*x) || !oc_ok(*w))
    return false;
  if (w->t.dtype != x->t.dtype)
    return onnx_node_error(im, "W must have X's element type");
  return true;
}

static bool convert_conv(OnnxImporter *im) {
  OcVal x, w;
  ConvAttrs a;
  if (!operands(im, &x, &w) || !onnx_require_float(im, &x.t, "X") || !conv_geometry(im, &x.t, &w.t, &a))
    return false;
  return oc_output(im, 0, add_bias(im, build_conv(im, "conv", x, w, &a, w.t.dims[0])));
}

static bool convert_conv_transpose(OnnxImporter *im) {
  OcVal x, w;
  ConvAttrs a;
  if (!operands(im, &x, &w) || !onnx_require_float(im, &x.t, "X") || !conv_transpose_geometry(im, &x.t, &w.t, &a))
    return false;
  return oc_output(im, 0, add_bias(im, build_conv(im, "conv_transpose", x, w, &a, w.t.dims[1] * a.groups)));
}

/* v - zero point (input `zp`, a scalar or per-channel along `axis` of v), as f64. */
static OcVal minus_zero_point(OnnxImporter *im, OcVal v, size_t zp, size_t axis) {
  OcVal wide = oc_cast(im, v, ONNX__TENSOR_PROTO__DATA_TYPE__INT32);
  if (oc_ok(wide) && onnx_has_input(im->node, zp)) {
    OcVal z = oc_input(im, zp);
    if (!oc_ok(z))
      return z;
    if (z.t.rank > 1 || (z.t.rank == 1 && z.t.dims[0] != 1 && z.t.dims[0] != v.t.dims[axis])) {
      onnx_node_error(im, "zero point %zu must be a scalar or one value per channel", zp);
      return (OcVal){{NULL}, v.t};
    }
    int64_t dims[ONNX_MAX_RANK];
    for (size_t i = 0; i < v.t.rank; ++i)
      dims[i] = i == axis && z.t.rank == 1 ? z.t.dims[0] : 1;
    wide = oc_binary(im, "sub", wide, oc_reshape(im, oc_cast(im, z, ONNX__TENSOR_PROTO__DATA_TYPE__INT32), dims, v.t.rank));
  }
  return oc_cast(im, wide, ONNX__TENSOR_PROTO__DATA_TYPE__DOUBLE);
}

static bool convert_conv_integer(OnnxImporter *im) {
  OcVal x = oc_input(im, 0), w = oc_input(im, 1);
  if (!oc_ok(x) || !oc_ok(w))
    return false;
  for (int i = 0; i < 2; ++i) {
    int32_t t = i ? w.t.dtype : x.t.dtype;
    if (t != ONNX__TENSOR_PROTO__DATA_TYPE__INT8 && t != ONNX__TENSOR_PROTO__DATA_TYPE__UINT8)
      return onnx_node_error(im, "%s must be INT8 or UINT8", i ? "w" : "x");
  }
  ConvAttrs a;
  if (!conv_geometry(im, &x.t, &w.t, &a))
    return false;
  OcVal xd = minus_zero_point(im, x, 2, 1), wd = minus_zero_point(im, w, 3, 0);
  if (!oc_ok(xd) || !oc_ok(wd))
    return false;
  OcVal y = build_conv(im, "conv", xd, wd, &a, w.t.dims[0]);
  return oc_ok(y) && oc_output(im, 0, oc_cast(im, y, ONNX__TENSOR_PROTO__DATA_TYPE__INT32));
}

const OnnxOpEntry onnx_conv_ops[] = {
    {"Conv", convert_conv, 0},
    {"ConvTranspose", convert_conv_transpose, 0},
    {"ConvInteger", convert_conv_integer, 10},
    {NULL, NULL, 0},
};
