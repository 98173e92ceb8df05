/* Compositions of graph ops: variadic Sum/Mean, Clip, Dropout (inference),
 * CastLike, logical ops, integer Mod, BitShift, Split, Tile, Trilu, Pad, and the
 * normalizations InstanceNormalization, MeanVarianceNormalization and
 * LpNormalization (docs/onnx-import.md lists the formulas). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "import/onnx-compose.h"

enum { DT_BOOL = ONNX__TENSOR_PROTO__DATA_TYPE__BOOL, DT_INT64 = ONNX__TENSOR_PROTO__DATA_TYPE__INT64 };

/* Sum/Mean of N inputs: a left-to-right chain of adds (Mean: divided by N). */
static bool convert_sum_mean(OnnxImporter *im) {
  size_t n = onnx_num_inputs(im->node);
  if (n == 0)
    return onnx_node_error(im, "needs at least one input");
  OcVal acc = oc_input(im, 0);
  if (oc_ok(acc) && acc.t.dtype == DT_BOOL)
    return onnx_node_error(im, "boolean inputs are not supported");
  for (size_t i = 1; i < n && oc_ok(acc); ++i)
    acc = oc_binary(im, "add", acc, oc_input(im, i));
  if (strcmp(im->node->op_type, "Mean") == 0) {
    if (oc_ok(acc) && !onnx_require_float(im, &acc.t, "the inputs"))
      return false;
    if (n > 1)
      acc = oc_binary_s(im, "div", acc, (double)n);
  }
  if (n == 1 && oc_ok(acc)) {
    OnnxValue *only = onnx_input(im, 0);
    return only && onnx_alias_output(im, 0, only);
  }
  return oc_output(im, 0, acc);
}

/* Clip: min(max(x, lo), hi) (numpy's clip); lo/hi are attributes before opset
 * 11, optional scalar inputs from 11. */
static bool convert_clip(OnnxImporter *im) {
  OcVal x = oc_input(im, 0);
  if (!oc_ok(x))
    return false;
  if (x.t.dtype == DT_BOOL)
    return onnx_node_error(im, "boolean inputs are not supported");
  OcVal y = x;
  if (im->opset < 11) {
    const Onnx__AttributeProto *lo = onnx_attr(im->node, "min"), *hi = onnx_attr(im->node, "max");
    if (lo)
      y = oc_binary_s(im, "max", y, lo->f);
    if (hi)
      y = oc_binary_s(im, "min", y, hi->f);
  } else {
    for (size_t i = 1; i < 3; ++i) {
      if (!onnx_has_input(im->node, i))
        continue;
      OcVal bound = oc_input(im, i);
      if (oc_ok(bound) && onnx_num_elements(&bound.t) != 1)
        return onnx_node_error(im, "input #%zu (the %s) must be a scalar", i, i == 1 ? "minimum" : "maximum");
      if (oc_ok(bound) && bound.t.rank != 0)
        bound = oc_reshape(im, bound, bound.t.dims, 0);
      y = oc_binary(im, i == 1 ? "max" : "min", y, bound);
    }
  }
  if (y.v.ptr == x.v.ptr) {
    OnnxValue *only = onnx_input(im, 0);
    return only && onnx_alias_output(im, 0, only);
  }
  return oc_output(im, 0, y);
}

/* Dropout at inference: the identity; the mask output is all true. training_mode
 * (opset 12+) must be absent or a constant false. */
static bool convert_dropout(OnnxImporter *im) {
  if (im->opset >= 12 && onnx_has_input(im->node, 2)) {
    OnnxValue *mode = onnx_input(im, 2);
    if (!mode)
      return false;
    bool off = mode->is_const && mode->type.dtype == DT_BOOL && onnx_num_elements(&mode->type) == 1 &&
               ((const unsigned char *)mode->data.data)[0] == 0;
    if (!off)
      return onnx_node_error(im, "training_mode must be a constant false (inference only)");
  }
  if (im->opset < 7 && onnx_attr_int(im->node, "is_test", 0) == 0)
    return onnx_node_error(im, "is_test = 0 is not supported (inference only)");
  OnnxValue *in = onnx_input(im, 0);
  if (!in || !onnx_alias_output(im, 0, in))
    return false;
  if (im->node->n_output < 2 || !im->node->output[1][0])
    return true;
  OnnxType mask = in->type;
  mask.dtype = DT_BOOL;
  return onnx_set_output(im, 1, onnx_build_splat(im, &mask, 1.0), &mask);
}

static bool convert_cast_like(OnnxImporter *im) {
  OnnxValue *in = onnx_input(im, 0), *like = onnx_input(im, 1);
  if (!in || !like)
    return false;
  if (like->type.dtype == in->type.dtype)
    return onnx_alias_output(im, 0, in);
  if (mlirTypeIsNull(onnx_element_type(im->ctx, like->type.dtype)))
    return onnx_node_error(im, "cast to %s is not supported", onnx_dtype_name(like->type.dtype));
  OcVal x = {onnx_materialize(im, in), in->type};
  return oc_output(im, 0, oc_cast(im, x, like->type.dtype));
}

/* ---- logical ops on booleans ---- */

static OcVal bool_input(OnnxImporter *im, size_t i) {
  OcVal x = oc_input(im, i);
  if (oc_ok(x) && x.t.dtype != DT_BOOL) {
    onnx_node_error(im, "input #%zu must be a boolean tensor, not %s", i, onnx_dtype_name(x.t.dtype));
    x.v = (MlirValue){NULL};
  }
  return x;
}

static bool convert_not(OnnxImporter *im) { return oc_output(im, 0, oc_cmp_s(im, "eq", bool_input(im, 0), 0)); }

/* And = a ? b : false, Or = a ? true : b, Xor = a != b. */
static bool convert_logic(OnnxImporter *im) {
  const char *op = im->node->op_type;
  OcVal a = bool_input(im, 0), b = bool_input(im, 1);
  if (!oc_ok(a) || !oc_ok(b))
    return false;
  if (op[0] == 'X')
    return oc_output(im, 0, oc_cmp(im, "ne", a, b));
  if (op[0] == 'A')
    return oc_output(im, 0, oc_select(im, a, b, oc_scalar(im, DT_BOOL, 0)));
  return oc_output(im, 0, oc_select(im, a, oc_scalar(im, DT_BOOL, 1), b));
}

/* Mod on integers. fmod=0: the sign of the divisor (r = a - b trunc(a/b), plus b
 * when r and b have opposite signs); fmod=1 and unsigned types: r itself. Float Mod is
 * refused: a - b trunc(a/b) in float is not exact. */
static bool convert_mod(OnnxImporter *im) {
  OcVal a = oc_input(im, 0), b = oc_input(im, 1);
  if (!oc_ok(a) || !oc_ok(b))
    return false;
  if (a.t.dtype == DT_BOOL)
    return onnx_node_error(im, "Mod of BOOL is not supported");
  if (onnx_dtype_is_float(a.t.dtype)) { /* ONNX: floats need fmod=1 (C's fmod, the dividend's sign) */
    if (!onnx_attr_int(im->node, "fmod", 0))
      return onnx_node_error(im, "Mod of %s needs fmod=1 (ONNX defines float Mod only as fmod)",
                             onnx_dtype_name(a.t.dtype));
    return oc_output(im, 0, oc_binary(im, "rem", a, b));
  }
  OcVal r = oc_binary(im, "sub", a, oc_binary(im, "mul", oc_binary(im, "div", a, b), b));
  if (onnx_attr_int(im->node, "fmod", 0) || onnx_dtype_is_unsigned(a.t.dtype)) /* no signs to fix */
    return oc_output(im, 0, r);
  OcVal opposite = oc_cmp(im, "ne", oc_cmp_s(im, "lt", r, 0), oc_cmp_s(im, "lt", b, 0));
  OcVal fix = oc_select(im, oc_cmp_s(im, "ne", r, 0), opposite, oc_scalar(im, DT_BOOL, 0));
  return oc_output(im, 0, oc_select(im, fix, oc_binary(im, "add", r, b), r));
}

/* BitShift on unsigned integers: x << y = x * 2^y (wrapping), x >> y = x / 2^y
 * (unsigned division); 2^y is the product of 2^(2^k) over the set bits k of y
 * (log2 N selects for N-bit types); a shift by N bits or more gives 0. */
static bool convert_bitshift(OnnxImporter *im) {
  OcVal x = oc_input(im, 0), y = oc_input(im, 1);
  if (!oc_ok(x) || !oc_ok(y))
    return false;
  if (!onnx_dtype_is_unsigned(x.t.dtype) || y.t.dtype != x.t.dtype)
    return onnx_node_error(im, "BitShift needs two tensors of one unsigned type, not %s and %s",
                           onnx_dtype_name(x.t.dtype), onnx_dtype_name(y.t.dtype));
  char buf[16];
  const char *direction = onnx_attr_string(im->node, "direction", "", buf, sizeof buf);
  bool left = strcmp(direction, "LEFT") == 0;
  if (!left && strcmp(direction, "RIGHT") != 0)
    return onnx_node_error(im, "direction must be \"LEFT\" or \"RIGHT\", not \"%s\"", direction);
  int bits = (int)onnx_dtype_size(x.t.dtype) * 8;
  OcVal power = oc_scalar(im, x.t.dtype, 1.0);
  for (int k = 0; (1 << k) < bits && oc_ok(power); ++k) {
    OcVal q = oc_binary_s(im, "div", y, ldexp(1.0, k));
    OcVal odd = oc_cmp(im, "ne", q, oc_binary_s(im, "mul", oc_binary_s(im, "div", q, 2.0), 2.0));
    power = oc_select(im, odd, oc_binary_s(im, "mul", power, ldexp(1.0, 1 << k)), power);
  }
  OcVal shifted = oc_binary(im, left ? "mul" : "div", x, power);
  return oc_output(im, 0, oc_select(im, oc_cmp_s(im, "lt", y, bits), shifted, oc_scalar(im, x.t.dtype, 0.0)));
}

/* ---- Split, Tile, Trilu, Pad ---- */

/* Split: consecutive slices along axis; sizes from the `split` attribute (before
 * 13), the constant input 1 (13+), num_outputs (18+) or equal parts. */
static bool convert_split(OnnxImporter *im) {
  OcVal x = oc_input(im, 0);
  if (!oc_ok(x))
    return false;
  int64_t axis;
  if (!onnx_norm_axis(im, onnx_attr_int(im->node, "axis", 0), x.t.rank, "axis", &axis))
    return false;
  size_t outs = im->node->n_output, n = 0;
  int64_t *sizes = calloc(outs + 1, sizeof *sizes);
  bool given = false, ok = true;
  if (im->opset < 13)
    ok = onnx_attr_ints(im, "split", sizes, outs, &n, &given);
  else if (onnx_has_input(im->node, 1))
    ok = (given = true) && onnx_const_input_ints(im, 1, "the split input", sizes, outs, &n);
  int64_t dim = x.t.dims[axis];
  if (ok && !given) {
    int64_t parts = im->opset >= 18 ? onnx_attr_int(im->node, "num_outputs", (int64_t)outs) : (int64_t)outs;
    if (parts != (int64_t)outs || parts <= 0)
      ok = onnx_node_error(im, "num_outputs (%lld) differs from the node's %zu outputs", (long long)parts, outs);
    int64_t each = ok ? (dim + parts - 1) / parts : 0; /* the last part may be smaller */
    for (n = 0; ok && n < outs; ++n)
      sizes[n] = n + 1 < outs ? each : dim - each * (int64_t)(outs - 1);
  }
  int64_t total = 0;
  for (size_t i = 0; ok && i < n; ++i) {
    if (sizes[i] <= 0)
      ok = onnx_node_error(im, "split size %zu is %lld (zero-size tensors are not supported)", i,
                           (long long)sizes[i]);
    total += sizes[i];
  }
  if (ok && (n != outs || total != dim))
    ok = onnx_node_error(im, "the split sizes (%zu of them, total %lld) do not cover %zu outputs of axis size %lld",
                         n, (long long)total, outs, (long long)dim);
  for (size_t i = 0, start = 0; ok && i < outs; start += (size_t)sizes[i], ++i)
    ok = oc_output(im, i, oc_slice(im, x, (size_t)axis, (int64_t)start, (int64_t)start + sizes[i], 1));
  free(sizes);
  return ok;
}

/* Tile: x reshaped to [1, d0, 1, d1, ...], broadcast to [r0, d0, r1, d1, ...] and
 * reshaped to [r0 d0, r1 d1, ...]. */
static bool convert_tile(OnnxImporter *im) {
  OcVal x = oc_input(im, 0);
  int64_t reps[ONNX_MAX_RANK];
  size_t n = 0;
  if (!oc_ok(x) || !onnx_const_input_ints(im, 1, "the repeats input", reps, ONNX_MAX_RANK, &n))
    return false;
  if (n != x.t.rank)
    return onnx_node_error(im, "repeats has %zu entries for an input of rank %zu", n, x.t.rank);
  if (2 * n > ONNX_MAX_RANK)
    return onnx_node_error(im, "inputs of rank above %d are not supported", ONNX_MAX_RANK / 2);
  int64_t split[ONNX_MAX_RANK], out[ONNX_MAX_RANK];
  OnnxType wide = {.dtype = x.t.dtype, .rank = 2 * n};
  for (size_t d = 0; d < n; ++d) {
    if (reps[d] <= 0)
      return onnx_node_error(im, "repeat %zu is %lld (zero-size tensors are not supported)", d, (long long)reps[d]);
    split[2 * d] = 1, split[2 * d + 1] = x.t.dims[d];
    wide.dims[2 * d] = reps[d], wide.dims[2 * d + 1] = x.t.dims[d];
    out[d] = reps[d] * x.t.dims[d];
  }
  if (!onnx_check_size(im, &wide, "the result"))
    return false;
  OcVal y = oc_broadcast_to(im, oc_reshape(im, x, split, 2 * n), &wide);
  return oc_output(im, 0, oc_reshape(im, y, out, n));
}

/* Trilu: select(mask, x, 0) with the mask a constant over the last two dims. */
static bool convert_trilu(OnnxImporter *im) {
  OcVal x = oc_input(im, 0);
  int64_t k = 0;
  size_t nk = 0;
  if (!oc_ok(x))
    return false;
  if (onnx_has_input(im->node, 1) && !onnx_const_input_ints(im, 1, "k", &k, 1, &nk))
    return false;
  if (x.t.rank < 2)
    return onnx_node_error(im, "the input must have rank >= 2");
  bool upper = onnx_attr_int(im->node, "upper", 1) != 0;
  int64_t rows = x.t.dims[x.t.rank - 2], cols = x.t.dims[x.t.rank - 1];
  OnnxType mt = {.dtype = DT_BOOL, .rank = 2, .dims = {rows, cols}};
  if (!oc_const_size_ok(im, rows * cols, "the mask"))
    return false;
  int64_t *mask = malloc(((size_t)(rows * cols) + 1) * sizeof *mask);
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j)
      mask[i * cols + j] = upper ? j - i >= k : j - i <= k;
  OcVal m = oc_const_ints(im, &mt, mask);
  free(mask);
  OcVal zero = x.t.dtype == DT_BOOL ? oc_scalar(im, DT_BOOL, 0) : oc_scalar(im, x.t.dtype, 0);
  return oc_output(im, 0, oc_select(im, m, x, zero));
}

/* Pad one axis: constant mode concatenates splats; edge repeats the border
 * element (a size-1 slice broadcast); reflect mirrors without the border (one
 * size-1 slice per padded element). */
static OcVal pad_axis(OnnxImporter *im, OcVal x, size_t axis, int64_t before, int64_t after, const char *mode,
                      double value) {
  int64_t dim = x.t.dims[axis];
  /* The after side reads x once the before side is on: the data starts at `before`. */
  for (int side = 0; side < 2 && oc_ok(x); ++side) {
    int64_t count = side == 0 ? before : after;
    if (count == 0)
      continue;
    OcVal piece = {{NULL}, x.t};
    piece.t.dims[axis] = count;
    if (strcmp(mode, "constant") == 0) {
      piece.v = onnx_build_splat(im, &piece.t, value);
    } else if (strcmp(mode, "edge") == 0) {
      int64_t at = side == 0 ? 0 : before + dim - 1;
      piece = oc_broadcast_to(im, oc_slice(im, x, axis, at, at + 1, 1), &piece.t);
    } else { /* reflect: element i of the pad mirrors around the border */
      OcVal acc = {{NULL}, x.t};
      for (int64_t i = 0; i < count; ++i) {
        int64_t src = side == 0 ? count - i : before + dim - 2 - i;
        OcVal one = oc_slice(im, x, axis, src, src + 1, 1);
        acc = i == 0 ? one : oc_concat(im, acc, one, axis);
      }
      piece = acc;
    }
    x = side == 0 ? oc_concat(im, piece, x, axis) : oc_concat(im, x, piece, axis);
  }
  return x;
}

static bool convert_pad(OnnxImporter *im) {
  OcVal x = oc_input(im, 0);
  if (!oc_ok(x))
    return false;
  char mode_buf[32];
  const char *mode = onnx_attr_string(im->node, "mode", "constant", mode_buf, sizeof mode_buf);
  if (strcmp(mode, "constant") != 0 && strcmp(mode, "edge") != 0 && strcmp(mode, "reflect") != 0)
    return onnx_node_error(im, "mode '%s' is not supported (constant, edge, reflect)", mode);
  int64_t pads[2 * ONNX_MAX_RANK], axes[ONNX_MAX_RANK];
  size_t np = 0, na = 0;
  bool given = false;
  double value = 0;
  if (im->opset < 11) {
    if (!onnx_attr_ints(im, "pads", pads, 2 * ONNX_MAX_RANK, &np, &given))
      return false;
    value = onnx_attr_float(im->node, "value", 0.0f);
  } else {
    if (!onnx_const_input_ints(im, 1, "the pads input", pads, 2 * ONNX_MAX_RANK, &np))
      return false;
    if (onnx_has_input(im->node, 2)) {
      OnnxValue *v = onnx_input(im, 2);
      if (!v)
        return false;
      if (!v->is_const || onnx_num_elements(&v->type) != 1)
        return onnx_node_error(im, "the constant_value input ('%s') must be a constant scalar", v->name);
      const unsigned char *p = v->data.data;
      if (v->type.dtype == ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT) {
        float f;
        memcpy(&f, p, 4);
        value = f;
      } else if (v->type.dtype == ONNX__TENSOR_PROTO__DATA_TYPE__DOUBLE) {
        memcpy(&value, p, 8);
      } else if (v->type.dtype == DT_INT64) {
        int64_t i;
        memcpy(&i, p, 8);
        value = (double)i;
      } else if (v->type.dtype == ONNX__TENSOR_PROTO__DATA_TYPE__INT32) {
        int32_t i;
        memcpy(&i, p, 4);
        value = i;
      } else {
        return onnx_node_error(im, "a constant_value of type %s is not supported", onnx_dtype_name(v->type.dtype));
      }
    }
  }
  if (im->opset >= 18 && onnx_has_input(im->node, 3)) {
    if (!onnx_const_input_ints(im, 3, "the axes input", axes, ONNX_MAX_RANK, &na))
      return false;
    for (size_t i = 0; i < na; ++i)
      if (!onnx_norm_axis(im, axes[i], x.t.rank, "axis", &axes[i]))
        return false;
  } else {
    for (na = 0; na < x.t.rank; ++na)
      axes[na] = (int64_t)na;
  }
  if (np != 2 * na)
    return onnx_node_error(im, "pads has %zu entries for %zu axes", np, na);
  OcVal y = x;
  for (size_t i = 0; i < na && oc_ok(y); ++i) {
    int64_t before = pads[i], after = pads[i + na], dim = y.t.dims[axes[i]];
    if (before < 0 || after < 0)
      return onnx_node_error(im, "negative pads are not supported");
    if (strcmp(mode, "reflect") == 0 && (before >= dim || after >= dim))
      return onnx_node_error(im, "reflect pads must be smaller than the axis (%lld)", (long long)dim);
    y = pad_axis(im, y, (size_t)axes[i], before, after, mode, value);
  }
  if (y.v.ptr == x.v.ptr) {
    OnnxValue *only = onnx_input(im, 0);
    return only && onnx_alias_output(im, 0, only);
  }
  return oc_output(im, 0, y);
}

/* CumSum along a constant axis: log2(n) steps of y += y shifted by 1, 2, 4, ...
 * (zeros shifted in; toward the end, or toward the start with reverse); exclusive
 * shifts the result by one more. Exact for integers; floats are summed as a tree. */
static OcVal shifted(OnnxImporter *im, OcVal y, size_t axis, int64_t by, bool reverse) {
  int64_t n = y.t.dims[axis];
  OnnxType zt = y.t;
  zt.dims[axis] = by;
  OcVal zeros = {onnx_build_splat(im, &zt, 0.0), zt};
  return reverse ? oc_concat(im, oc_slice(im, y, axis, by, n, 1), zeros, axis)
                 : oc_concat(im, zeros, oc_slice(im, y, axis, 0, n - by, 1), axis);
}

static bool convert_cumsum(OnnxImporter *im) {
  OcVal x = oc_input(im, 0);
  int64_t axis;
  size_t na = 0;
  if (!oc_ok(x) || !onnx_const_input_ints(im, 1, "the axis input", &axis, 1, &na))
    return false;
  if (x.t.dtype == DT_BOOL || x.t.rank == 0)
    return onnx_node_error(im, "expects a numeric tensor of rank >= 1");
  if (na != 1 || !onnx_norm_axis(im, axis, x.t.rank, "axis", &axis))
    return na == 1 ? false : onnx_node_error(im, "the axis input must hold one value");
  bool exclusive = onnx_attr_int(im->node, "exclusive", 0) != 0, reverse = onnx_attr_int(im->node, "reverse", 0) != 0;
  int64_t n = x.t.dims[axis];
  OcVal y = x;
  for (int64_t by = 1; by < n && oc_ok(y); by *= 2)
    y = oc_binary(im, "add", y, shifted(im, y, (size_t)axis, by, reverse));
  if (exclusive && oc_ok(y))
    y = n > 1 ? shifted(im, y, (size_t)axis, 1, reverse) : (OcVal){onnx_build_splat(im, &y.t, 0.0), y.t};
  return oc_output(im, 0, y);
}

/* OneHot with a constant depth: values[1] where index (negative: + depth) equals
 * the position along the new axis, values[0] elsewhere. */
static bool convert_one_hot(OnnxImporter *im) {
  OcVal idx = oc_input(im, 0), values = oc_input(im, 2);
  OnnxValue *depth_v = onnx_input(im, 1);
  if (!oc_ok(idx) || !oc_ok(values) || !depth_v)
    return false;
  OnnxValue flat = *depth_v; /* a scalar or [1]: read as [n] */
  flat.type.dims[0] = onnx_num_elements(&depth_v->type);
  flat.type.rank = 1;
  if (!depth_v->is_const || onnx_num_elements(&depth_v->type) != 1 ||
      (depth_v->type.dtype != DT_INT64 && depth_v->type.dtype != ONNX__TENSOR_PROTO__DATA_TYPE__INT32))
    return onnx_node_error(im, "depth ('%s') must be a constant integer scalar (the result's size depends on it)",
                           depth_v->name);
  int64_t depth;
  size_t n = 0;
  if (!onnx_const_ints(im, &flat, "depth", &depth, 1, &n))
    return false;
  if (depth <= 0 || idx.t.rank + 1 > ONNX_MAX_RANK || onnx_num_elements(&values.t) != 2 ||
      (idx.t.dtype != DT_INT64 && idx.t.dtype != ONNX__TENSOR_PROTO__DATA_TYPE__INT32))
    return onnx_node_error(im, "expects integer indices, a positive depth and two values");
  int64_t axis;
  if (!onnx_norm_axis(im, onnx_attr_int(im->node, "axis", -1), idx.t.rank + 1, "axis", &axis))
    return false;
  int64_t shape[ONNX_MAX_RANK], full[ONNX_MAX_RANK];
  for (size_t d = 0, s = 0; d <= idx.t.rank; ++d) {
    shape[d] = (int64_t)d == axis ? 1 : idx.t.dims[s];
    full[d] = (int64_t)d == axis ? depth : idx.t.dims[s++];
  }
  OcVal wrapped = oc_select(im, oc_cmp_s(im, "lt", idx, 0), oc_binary_s(im, "add", idx, (double)depth), idx);
  OcVal hit = oc_cmp(im, "eq", oc_reshape(im, wrapped, shape, idx.t.rank + 1),
                     oc_iota(im, idx.t.dtype, full, idx.t.rank + 1, (size_t)axis));
  OcVal pair = oc_reshape(im, values, (int64_t[]){2}, 1);
  OcVal off = oc_reshape(im, oc_slice(im, pair, 0, 0, 1, 1), NULL, 0);
  OcVal on = oc_reshape(im, oc_slice(im, pair, 0, 1, 2, 1), NULL, 0);
  return oc_output(im, 0, oc_select(im, hit, on, off));
}

/* ---- normalizations ---- */

/* (x - mean) / sqrt(var + eps) over `axes` (var: the mean square deviation). */
static OcVal normalize(OnnxImporter *im, OcVal x, const int64_t *axes, size_t n, double eps) {
  OcVal centered = oc_binary(im, "sub", x, oc_reduce(im, "reduce_mean", x, axes, n, true));
  OcVal var = oc_reduce(im, "reduce_mean", oc_binary(im, "mul", centered, centered), axes, n, true);
  return oc_binary(im, "div", centered, oc_unary(im, "sqrt", oc_binary_s(im, "add", var, eps)));
}

/* InstanceNormalization: per (n, c) over the spatial dims, then scale[c] y + B[c]. */
static bool convert_instance_norm(OnnxImporter *im) {
  OcVal x = oc_input(im, 0), scale = oc_input(im, 1), bias = oc_input(im, 2);
  if (!oc_ok(x) || !oc_ok(scale) || !oc_ok(bias) || !onnx_require_float(im, &x.t, "the input"))
    return false;
  if (x.t.rank < 3)
    return onnx_node_error(im, "the input must have rank >= 3 (N, C, D1, ...)");
  int64_t axes[ONNX_MAX_RANK], per_channel[ONNX_MAX_RANK];
  size_t n = 0;
  for (size_t d = 2; d < x.t.rank; ++d)
    axes[n++] = (int64_t)d;
  for (size_t d = 0; d + 1 < x.t.rank; ++d)
    per_channel[d] = d == 0 ? x.t.dims[1] : 1;
  if (scale.t.rank != 1 || scale.t.dims[0] != x.t.dims[1] || bias.t.rank != 1 || bias.t.dims[0] != x.t.dims[1])
    return onnx_node_error(im, "scale and B must have shape [%lld]", (long long)x.t.dims[1]);
  OcVal y = normalize(im, x, axes, n, onnx_attr_float(im->node, "epsilon", 1e-5f));
  y = oc_binary(im, "mul", y, oc_reshape(im, scale, per_channel, x.t.rank - 1));
  return oc_output(im, 0, oc_binary(im, "add", y, oc_reshape(im, bias, per_channel, x.t.rank - 1)));
}

/* MeanVarianceNormalization: (x - E[x]) / (sqrt(E[x^2] - E[x]^2) + 1e-9) over axes
 * (default [0, 2, 3]), as the operator's function body computes it. */
static bool convert_mvn(OnnxImporter *im) {
  OcVal x = oc_input(im, 0);
  if (!oc_ok(x) || !onnx_require_float(im, &x.t, "the input"))
    return false;
  int64_t axes[ONNX_MAX_RANK] = {0, 2, 3};
  size_t n = 3;
  bool given = false;
  if (!onnx_attr_ints(im, "axes", axes, ONNX_MAX_RANK, &n, &given))
    return false;
  if (!given)
    n = 3;
  if (!onnx_norm_axes(im, axes, n, x.t.rank, "axes"))
    return false;
  OcVal mean = oc_reduce(im, "reduce_mean", x, axes, n, true);
  OcVal mean_sq = oc_reduce(im, "reduce_mean", oc_binary(im, "mul", x, x), axes, n, true);
  OcVal var = oc_binary(im, "sub", mean_sq, oc_binary(im, "mul", mean, mean));
  OcVal denom = oc_binary_s(im, "add", oc_unary(im, "sqrt", var), 1e-9);
  return oc_output(im, 0, oc_binary(im, "div", oc_binary(im, "sub", x, mean), denom));
}

/* LpNormalization: x / ||x||_p along axis (p = 1 or 2). */
static bool convert_lp_norm(OnnxImporter *im) {
  OcVal x = oc_input(im, 0);
  if (!oc_ok(x) || !onnx_require_float(im, &x.t, "the input"))
    return false;
  int64_t axis, p = onnx_attr_int(im->node, "p", 2);
  if (!onnx_norm_axis(im, onnx_attr_int(im->node, "axis", -1), x.t.rank, "axis", &axis))
    return false;
  if (p != 1 && p != 2)
    return onnx_node_error(im, "p = %lld is not supported (1 or 2)", (long long)p);
  OcVal norm = p == 1 ? oc_reduce(im, "reduce_sum", oc_unary(im, "abs", x), &axis, 1, true)
                      : oc_unary(im, "sqrt", oc_reduce(im, "reduce_sum", oc_binary(im, "mul", x, x), &axis, 1, true));
  return oc_output(im, 0, oc_binary(im, "div", x, norm));
}

const OnnxOpEntry onnx_misc_ops[] = {
    {"Sum", convert_sum_mean, 0},
    {"Mean", convert_sum_mean, 0},
    {"Clip", convert_clip, 0},
    {"Dropout", convert_dropout, 0},
    {"CastLike", convert_cast_like, 15},
    {"Not", convert_not, 0},
    {"And", convert_logic, 7},
    {"Or", convert_logic, 7},
    {"Xor", convert_logic, 7},
    {"Mod", convert_mod, 10},
    {"BitShift", convert_bitshift, 11},
    {"Split", convert_split, 2},
    {"Tile", convert_tile, 6},
    {"Trilu", convert_trilu, 14},
    {"Pad", convert_pad, 2},
    {"InstanceNormalization", convert_instance_norm, 0},
    {"MeanVarianceNormalization", convert_mvn, 9},
    {"LpNormalization", convert_lp_norm, 0},
    {"CumSum", convert_cumsum, 11},
    {"OneHot", convert_one_hot, 9},
    {NULL, NULL, 0},
};
