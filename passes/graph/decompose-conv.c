/* graph-decompose: the convolutions (see passes/graph/decompose-conv.h).
 *
 * conv is an implicit GEMM: with G groups, Cg = C / G input and OCg = OC / G output
 * channels per group, KK kernel positions, L input and P result positions, its
 * product is
 *   y    = batch_matmul(cols, Wt [G, KK Cg, OCg])           [N, G, P, OCg]
 *   conv = reshape(transpose(y, [0, 1, 3, 2]), [N, OC, out...])
 * with the long dim (P) as the matmul template's M and the weight as its B (a constant
 * weight permuted here, then packed into panels at compile time). The columns
 * cols [N, G, P, KK Cg] are (decision 0019):
 *   window (default, up to 3 spatial dims): a view of the channels-last input,
 *          xl = transpose(x, [0, 2.., 1]) (a view), zero-padded by one gather-select
 *          copy when the conv pads, cols = reshape(window(xl), ...): the template
 *          reads its A rows straight from the activations through the composed map
 *          (no im2col buffer)
 *   gather (conv-im2col=gather, and more than 3 spatial dims): one gather of
 *          reshape(x, [N, G, Cg L]) at a constant [P, KK Cg] position table, -1 where
 *          a window reads the padding (select(idx >= 0, cols, 0) zeroes it)
 * A 1x1 kernel with unit strides and no padding reads x itself (a view) either way.
 * conv_transpose is the conv of the input stuffed with stride - 1 zeros between
 * elements, cropped or padded by dilation (k - 1) - pads (+ output_padding at the
 * end), with the weight's group dims swapped and its kernel flipped (gathers at
 * reversed positions). The fold of batch_norm into a conv with constant weights is in
 * passes/graph/fold-batch-norm.c. Decisions 0016 and 0019 weigh the forms. */
#include "passes/graph/decompose-conv.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dialects/graph/conv-geometry.h"
#include "dialects/graph/graph.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "passes/graph/zero-pad.h"
#include "support/context.h"

/* The largest im2col position table (elements) graph-decompose builds: 2^26 i32. */
enum { MAX_INDEX_TABLE = 1 << 26 };

bool braze_conv_refuse(char *why, size_t n, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(why, n, fmt, ap);
  va_end(ap);
  return false;
}

static MlirValue null_value(void) { return (MlirValue){NULL}; }

/* ---- small builders ---- */

static MlirType elem_of(MlirValue v) { return braze_element_type(mlirValueGetType(v)); }

static MlirValue zeros(GraphBuilder *b, const int64_t *shape, intptr_t rank, MlirType elem) {
  MlirType type = braze_gb_tensor_type(b->ctx, shape, rank, elem);
  return braze_gb_constant(b, mlirDenseElementsAttrSplatGet(type, mlirFloatAttrDoubleGet(b->ctx, elem, 0.0)));
}

static MlirValue concat(GraphBuilder *b, MlirValue lhs, MlirValue rhs, int64_t dim) {
  int64_t shape[BRAZE_MAX_RANK], other[BRAZE_MAX_RANK];
  intptr_t rank = braze_shape(mlirValueGetType(lhs), shape);
  braze_shape(mlirValueGetType(rhs), other);
  shape[dim] += other[dim];
  MlirValue ops[2] = {lhs, rhs};
  MlirNamedAttribute attr = mlirNamedAttributeGet(mlirIdentifierGet(b->ctx, braze_ref("dim")),
                                                  mlirIntegerAttrGet(mlirIntegerTypeGet(b->ctx, 64), dim));
  return braze_gb_make(b, "concat", ops, 2, shape, rank, elem_of(lhs), &attr, 1);
}

/* x[start:limit] along `axis` (unit stride). */
static MlirValue slice_axis(GraphBuilder *b, MlirValue x, intptr_t axis, int64_t start, int64_t limit) {
  int64_t shape[BRAZE_MAX_RANK], starts[BRAZE_MAX_RANK] = {0}, strides[BRAZE_MAX_RANK];
  intptr_t rank = braze_shape(mlirValueGetType(x), shape);
  for (intptr_t i = 0; i < rank; ++i)
    strides[i] = 1;
  starts[axis] = start;
  int64_t limits[BRAZE_MAX_RANK];
  memcpy(limits, shape, sizeof limits);
  limits[axis] = limit;
  MlirNamedAttribute attrs[3] = {braze_gb_attr_i64_array(b->ctx, "starts", starts, rank),
                                 braze_gb_attr_i64_array(b->ctx, "limits", limits, rank),
                                 braze_gb_attr_i64_array(b->ctx, "strides", strides, rank)};
  shape[axis] = limit - start;
  return braze_gb_make(b, "slice", &x, 1, shape, rank, elem_of(x), attrs, 3);
}

/* gather(data, indices, axis). */
static MlirValue gather_at(GraphBuilder *b, MlirValue data, MlirValue indices, int64_t axis) {
  MlirValue ops[2] = {data, indices};
  int64_t idx_shape[BRAZE_MAX_RANK];
  intptr_t idx_rank = braze_shape(mlirValueGetType(indices), idx_shape);
  int64_t shape[BRAZE_MAX_RANK], out[BRAZE_MAX_RANK];
  intptr_t rank = braze_shape(mlirValueGetType(data), shape), n = 0;
  for (intptr_t d = 0; d < rank; ++d) {
    if (d != axis) {
      out[n++] = shape[d];
      continue;
    }
    for (intptr_t j = 0; j < idx_rank; ++j)
      out[n++] = idx_shape[j];
  }
  MlirNamedAttribute attr = mlirNamedAttributeGet(mlirIdentifierGet(b->ctx, braze_ref("axis")),
                                                  mlirIntegerAttrGet(mlirIntegerTypeGet(b->ctx, 64), axis));
  return braze_gb_make(b, "gather", ops, 2, out, n, elem_of(data), &attr, 1);
}

/* gather(data, a constant of i32 positions of shape idx_shape, axis). */
static MlirValue gather_const(GraphBuilder *b, MlirValue data, const int32_t *idx, const int64_t *idx_shape,
                              intptr_t idx_rank, int64_t axis) {
  MlirType it = braze_gb_tensor_type(b->ctx, idx_shape, idx_rank, mlirIntegerTypeGet(b->ctx, 32));
  return gather_at(b, data, braze_gb_constant(b, mlirDenseElementsAttrInt32Get(it, braze_num_elements(it), idx)), axis);
}

static int64_t product(const int64_t *v, int n) {
  int64_t p = 1;
  for (int i = 0; i < n; ++i)
    p *= v[i];
  return p;
}

/* ---- conv ---- */

bool braze_conv_read_geometry(MlirOperation op, BrazeConvGeometry *g, char *why, size_t n) {
  MlirType xt = mlirValueGetType(mlirOperationGetOperand(op, 0)), wt = mlirValueGetType(mlirOperationGetOperand(op, 1));
  if (mlirOperationGetNumOperands(op) != 2 || !braze_is_ranked_tensor(xt) || !braze_is_ranked_tensor(wt) ||
      braze_rank(xt) > BRAZE_MAX_RANK || braze_rank(wt) > BRAZE_MAX_RANK)
    return braze_conv_refuse(why, n, "expects two ranked tensor operands (x, w)");
  MlirType e = braze_element_type(xt);
  if (!mlirTypeIsAF32(e) && !mlirTypeIsAF64(e) && !mlirTypeIsAF16(e) && !mlirTypeIsABF16(e))
    return braze_conv_refuse(why, n, "expects a float input");
  int64_t xs[BRAZE_MAX_RANK], ws[BRAZE_MAX_RANK], rs[BRAZE_MAX_RANK];
  intptr_t xr = braze_shape(xt, xs), wr = braze_shape(wt, ws);
  if (!braze_conv_geometry(op, xs, xr, ws, wr, g, why, n))
    return false;
  intptr_t rr = braze_conv_result_shape(g, rs);
  MlirType res = mlirValueGetType(mlirOperationGetResult(op, 0));
  for (intptr_t d = 0; d < rr; ++d)
    if (braze_rank(res) != rr || mlirShapedTypeGetDimSize(res, d) != rs[d])
      return braze_conv_refuse(why, n, "the result type does not match the attributes");
  return true;
}

/* The im2col positions: idx[p][kk Cg + c] = the position in x viewed [N, G, Cg L] that
 * window position kk of result position p reads in channel c of its group, or -1 where
 * it falls in the padding (*padded then). A row of the table is one result position's
 * window, channels innermost (what the channels-last product reads). NULL (with why)
 * when the table is too large. */
static int32_t *im2col_positions(const BrazeConvGeometry *g, int64_t cg, bool *padded, char *why, size_t n) {
  int64_t kk_count = product(g->kernel, g->n), p_count = product(g->out, g->n), l = product(g->in, g->n);
  int64_t entries = 0, span = 0;
  if (__builtin_mul_overflow(cg, kk_count, &entries) || __builtin_mul_overflow(entries, p_count, &entries) ||
      __builtin_mul_overflow(cg, l, &span) || entries > MAX_INDEX_TABLE || span >= INT32_MAX) {
    braze_conv_refuse(why, n, "the im2col position table (%lld x %lld) is above the limit of %d entries",
                      (long long)p_count, (long long)(cg * kk_count), MAX_INDEX_TABLE);
    return NULL;
  }
  int32_t *idx = malloc((size_t)(cg * kk_count * p_count) * sizeof *idx);
  *padded = false;
  for (int64_t p = 0; p < p_count; ++p)
    for (int64_t kk = 0; kk < kk_count; ++kk) {
      int64_t krest = kk, prest = p, pos = 0, stride = 1;
      bool inside = true;
      for (int i = g->n; i-- > 0;) {
        int64_t k = krest % g->kernel[i], o = prest % g->out[i];
        krest /= g->kernel[i];
        prest /= g->out[i];
        int64_t at = o * g->stride[i] + k * g->dilation[i] - g->pad_begin[i];
        inside = inside && at >= 0 && at < g->in[i];
        pos += at * stride;
        stride *= g->in[i];
      }
      *padded |= !inside;
      for (int64_t c = 0; c < cg; ++c)
        idx[(p * kk_count + kk) * cg + c] = inside ? (int32_t)(c * l + pos) : -1;
    }
  return idx;
}

static bool is_pointwise(const BrazeConvGeometry *g) {
  for (int i = 0; i < g->n; ++i)
    if (g->kernel[i] != 1 || g->stride[i] != 1 || g->pad_begin[i] || g->pad_end[i])
      return false;
  return true;
}

/* cols [N, G, P, KK Cg] = x viewed [N, G, Cg L] gathered at the position table along
 * dim 2, zero where the table says -1 (select on idx >= 0: the gather reads some
 * element there, as it clamps, and the select drops it). One pointwise kernel. */
static MlirValue im2col(GraphBuilder *b, MlirValue x, const BrazeConvGeometry *g, const int32_t *idx, int64_t k_cols,
                        bool padded) {
  int64_t groups = g->groups, cg = g->in_channels / groups;
  int64_t p = product(g->out, g->n), l = product(g->in, g->n);
  int64_t data_shape[3] = {g->batch, groups, cg * l}, idx_shape[2] = {p, k_cols};
  MlirType i32 = mlirIntegerTypeGet(b->ctx, 32);
  MlirType it = braze_gb_tensor_type(b->ctx, idx_shape, 2, i32);
  MlirValue positions = braze_gb_constant(b, mlirDenseElementsAttrInt32Get(it, k_cols * p, idx));
  MlirValue cols = gather_at(b, braze_gb_reshape(b, x, data_shape, 3), positions, 2);
  if (!padded)
    return cols;
  MlirNamedAttribute pred = mlirNamedAttributeGet(mlirIdentifierGet(b->ctx, braze_ref("predicate")),
                                                  mlirStringAttrGet(b->ctx, braze_ref("ge")));
  MlirValue cmp_ops[2] = {positions, braze_gb_scalar(b, i32, 0.0)};
  MlirValue inside = braze_gb_make(b, "cmp", cmp_ops, 2, idx_shape, 2, mlirIntegerTypeGet(b->ctx, 1), &pred, 1);
  MlirValue sel[3] = {inside, cols, braze_gb_scalar(b, elem_of(x), 0.0)};
  int64_t shape[4] = {g->batch, groups, p, k_cols};
  return braze_gb_make(b, "select", sel, 3, shape, 4, elem_of(x), NULL, 0);
}

/* The largest spatial rank of the window form: its view [N, O.., K.., C] has rank 2n + 2. */
enum { MAX_WINDOW_SPATIAL = (BRAZE_MAX_RANK - 2) / 2 };

static bool has_padding(const BrazeConvGeometry *g) {
  for (int i = 0; i < g->n; ++i)
    if (g->pad_begin[i] || g->pad_end[i])
      return true;
  return false;
}

/* The zero-padded channels-last input [N, S1 + pads.., C] from x [N, C, S1..]: one
 * gather of x viewed [N, L, C] along its positions at a constant table of the padded
 * positions (-1 in the padding, zeroed by a select on a constant mask), so it is one pointwise
 * kernel that reads the producer's result as it was written (decision 0012's indexed
 * read; the producer stays a kernel of its own, a template's epilogue for a conv). */
MlirValue braze_conv_padded_channels_last(GraphBuilder *b, MlirValue x, const BrazeConvGeometry *g) {
  int64_t perm[BRAZE_MAX_RANK] = {0}, before[BRAZE_MAX_RANK] = {0}, after[BRAZE_MAX_RANK] = {0};
  for (int i = 0; i < g->n; ++i) {
    perm[1 + i] = 2 + i;
    before[1 + i] = g->pad_begin[i];
    after[1 + i] = g->pad_end[i];
  }
  perm[g->n + 1] = 1;
  return braze_gb_zero_pad(b, braze_gb_transpose(b, x, perm), before, after, MAX_INDEX_TABLE);
}

bool braze_conv_padding_fits(const BrazeConvGeometry *g, bool always_copied, char *why, size_t n) {
  int64_t l = product(g->in, g->n), lp = 1;
  for (int i = 0; i < g->n && (always_copied || has_padding(g)); ++i)
    if (__builtin_mul_overflow(lp, g->in[i] + g->pad_begin[i] + g->pad_end[i], &lp) || lp > MAX_INDEX_TABLE)
      return braze_conv_refuse(why, n, "the padding position table (more than %d entries) is above the limit",
                               MAX_INDEX_TABLE);
  if (l >= INT32_MAX)
    return braze_conv_refuse(why, n, "the input has %lld positions, above the i32 position table's range",
                             (long long)l);
  return true;
}

/* cols with the columns of the widened taps (last kernel index >= real_last, of a
 * window widened by widened_taps) zeroed: select on a constant [KK Cg] mask. The
 * extra taps read real activations, and a zero weight times an inf or NaN there would
 * not be the conv's zero; the select makes the column itself zero. */
static MlirValue zero_widened_taps(GraphBuilder *b, MlirValue cols, const BrazeConvGeometry *g, int64_t real_last) {
  int64_t cg = g->in_channels / g->groups, last = g->kernel[g->n - 1], k = product(g->kernel, g->n) * cg;
  int *keep = malloc((size_t)k * sizeof *keep); /* column j is tap (j / cg) of the window, channels innermost */
  for (int64_t j = 0; j < k; ++j)
    keep[j] = (j / cg) % last < real_last;
  MlirType mt = braze_gb_tensor_type(b->ctx, &k, 1, mlirIntegerTypeGet(b->ctx, 1));
  MlirValue mask = braze_gb_constant(b, mlirDenseElementsAttrBoolGet(mt, k, keep));
  free(keep);
  int64_t shape[4];
  braze_shape(mlirValueGetType(cols), shape);
  MlirValue sel[3] = {mask, cols, braze_gb_scalar(b, elem_of(cols), 0.0)};
  return braze_gb_make(b, "select", sel, 3, shape, 4, elem_of(cols), NULL, 0);
}

/* cols [N, G, P, KK Cg] as a view of the zero-padded channels-last input: window(xl)
 * [N, O.., K.., C] read as [N, P, KK, G, Cg], groups moved before P. The only copy is
 * the padding's (none without padding). */
static MlirValue window_cols(GraphBuilder *b, MlirValue x, const BrazeConvGeometry *g) {
  int64_t groups = g->groups, cg = g->in_channels / groups;
  int64_t kk = product(g->kernel, g->n), p = product(g->out, g->n);
  int64_t perm[BRAZE_MAX_RANK] = {0};
  for (int i = 0; i < g->n; ++i)
    perm[1 + i] = 2 + i;
  perm[g->n + 1] = 1;
  MlirValue xl = has_padding(g) ? braze_conv_padded_channels_last(b, x, g) : braze_gb_transpose(b, x, perm);
  int64_t shape[BRAZE_MAX_RANK];
  intptr_t rank = braze_shape(mlirValueGetType(xl), shape);
  int64_t wshape[BRAZE_MAX_RANK];
  wshape[0] = shape[0];
  wshape[2 * g->n + 1] = shape[rank - 1];
  for (int i = 0; i < g->n; ++i) {
    wshape[1 + i] = g->out[i];
    wshape[1 + g->n + i] = g->kernel[i];
  }
  MlirNamedAttribute attrs[3] = {braze_gb_attr_i64_array(b->ctx, "kernel", g->kernel, g->n),
                                 braze_gb_attr_i64_array(b->ctx, "strides", g->stride, g->n),
                                 braze_gb_attr_i64_array(b->ctx, "dilations", g->dilation, g->n)};
  MlirValue win = braze_gb_make(b, "window", &xl, 1, wshape, 2 * g->n + 2, elem_of(x), attrs, 3);
  int64_t cols_shape[4] = {g->batch, groups, p, kk * cg};
  if (groups == 1)
    return braze_gb_reshape(b, win, cols_shape, 4);
  int64_t split[5] = {g->batch, p, kk, groups, cg}, to_groups[5] = {0, 3, 1, 2, 4};
  MlirValue v = braze_gb_transpose(b, braze_gb_reshape(b, win, split, 5), to_groups);
  return braze_gb_reshape(b, v, cols_shape, 4);
}

float *braze_conv_constant_weight(MlirValue w, int64_t count) {
  MlirAttribute a = braze_conv_constant_f32(w);
  if (mlirAttributeIsNull(a))
    return NULL;
  float *v = malloc((size_t)count * sizeof *v);
  for (int64_t i = 0; i < count; ++i)
    v[i] = (float)braze_conv_constant_element(a, i);
  return v;
}

/* The raw 2-byte elements of a bf16 or f16 dense graph.constant weight of `count`
 * elements (seen through reshapes; a splat expanded), widened by `extra` zero taps along
 * its last dim of `last` (widen_weight's zeros: +0.0 is all zero bits in both), or NULL
 * (not such a constant; dense_resource values stay a view). malloc'd. */
static uint16_t *half_constant_weight(MlirValue w, int64_t count, int64_t last, int64_t extra) {
  for (MlirOperation r; !mlirOperationIsNull(r = braze_gb_defining(w, "reshape"));)
    w = mlirOperationGetOperand(r, 0);
  MlirOperation def = braze_gb_defining(w, "constant");
  MlirType e = elem_of(w);
  if (mlirOperationIsNull(def) || !(mlirTypeIsABF16(e) || mlirTypeIsAF16(e)) || last < 1)
    return NULL;
  MlirAttribute a = mlirOperationGetAttributeByName(def, braze_ref("value"));
  if (mlirAttributeIsNull(a) || !mlirAttributeIsADenseElements(a))
    return NULL;
  const uint16_t *raw = mlirDenseElementsAttrGetRawData(a);
  bool splat = mlirDenseElementsAttrIsSplat(a);
  int64_t wide = last + extra, rows = count / wide;
  if (rows * wide != count || (!splat && braze_num_elements(mlirValueGetType(w)) != rows * last))
    return NULL;
  uint16_t *v = calloc((size_t)count, sizeof *v);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t j = 0; j < last; ++j)
      v[r * wide + j] = raw[splat ? 0 : r * last + j];
  return v;
}

/* The weight as the product's B, [G, KK Cg, OCg]: Wt[g][kk Cg + c][oc] = w[g OCg + oc][c][kk].
 * A constant is permuted here, at compile time (then packed into the template's panels
 * at compile time too): f32 by value, bf16/f16 bit for bit (w_orig, widened by `extra`
 * zero taps); anything else is a reshape, transpose, reshape. */
static MlirValue weight_matrix(GraphBuilder *b, MlirValue w, MlirValue w_orig, int64_t extra, int64_t groups,
                               int64_t ocg, int64_t cg, int64_t kk, int64_t k_rows) {
  int64_t shape[3] = {groups, k_rows, ocg}, count = groups * ocg * cg * kk;
  int64_t orig_shape[BRAZE_MAX_RANK];
  intptr_t orig_rank = braze_shape(mlirValueGetType(w_orig), orig_shape);
  uint16_t *h = half_constant_weight(w_orig, count, orig_rank > 0 ? orig_shape[orig_rank - 1] : 0, extra);
  if (h) {
    uint16_t *t = calloc((size_t)(groups * k_rows * ocg), sizeof *t); /* rows past KK Cg: zeros */
    for (int64_t g = 0; g < groups; ++g)
      for (int64_t oc = 0; oc < ocg; ++oc)
        for (int64_t c = 0; c < cg; ++c)
          for (int64_t k = 0; k < kk; ++k)
            t[(g * k_rows + k * cg + c) * ocg + oc] = h[((g * ocg + oc) * cg + c) * kk + k];
    MlirType type = braze_gb_tensor_type(b->ctx, shape, 3, elem_of(w));
    intptr_t n = (intptr_t)(groups * k_rows * ocg);
    MlirValue c = braze_gb_constant(b, mlirTypeIsABF16(elem_of(w)) ? mlirDenseElementsAttrBFloat16Get(type, n, t)
                                                                   : mlirDenseElementsAttrFloat16Get(type, n, t));
    free(h);
    free(t);
    return c;
  }
  float *v = braze_conv_constant_weight(w, count);
  if (v) {
    float *t = calloc((size_t)(groups * k_rows * ocg), sizeof *t); /* rows past KK Cg: zeros */
    for (int64_t g = 0; g < groups; ++g)
      for (int64_t oc = 0; oc < ocg; ++oc)
        for (int64_t c = 0; c < cg; ++c)
          for (int64_t k = 0; k < kk; ++k)
            t[(g * k_rows + k * cg + c) * ocg + oc] = v[((g * ocg + oc) * cg + c) * kk + k];
    MlirType type = braze_gb_tensor_type(b->ctx, shape, 3, elem_of(w));
    MlirValue c = braze_gb_constant(b, mlirDenseElementsAttrFloatGet(type, groups * k_rows * ocg, t));
    free(v);
    free(t);
    return c;
  }
  int64_t split[4] = {groups, ocg, cg, kk}, perm[4] = {0, 3, 2, 1}, rows[3] = {groups, kk * cg, ocg};
  MlirValue m = braze_gb_reshape(b, braze_gb_transpose(b, braze_gb_reshape(b, w, split, 4), perm), rows, 3);
  if (k_rows == kk * cg)
    return m;
  /* one group: padded as [K, OCg] and viewed [1, K, OCg], so that the product's B is
   * a plain matrix (the template takes no batched B) */
  int64_t zero_rows[3] = {groups, k_rows - kk * cg, ocg};
  if (groups > 1)
    return concat(b, m, zeros(b, zero_rows, 3, elem_of(w)), 1);
  MlirValue m2 = braze_gb_reshape(b, m, rows + 1, 2);
  return braze_gb_reshape(b, concat(b, m2, zeros(b, zero_rows + 1, 2, elem_of(w)), 0), shape, 3);
}

/* The columns' K padded with zero columns to a multiple of k_align for a bf16/f16
 * conv whose K = KK Cg is not one (the tensor-core template's TMA rows are 16 bytes:
 * the stem's 3 x 7 x 7 = 147); 0 when no padding applies or the padded position table
 * would pass the limit. */
static int64_t padded_k(const BrazeConvGeometry *g, MlirType elem, int64_t k_align) {
  int64_t kc = g->in_channels / g->groups * product(g->kernel, g->n), p = product(g->out, g->n);
  if (k_align <= 1 || kc % k_align == 0 || is_pointwise(g) || !(mlirTypeIsABF16(elem) || mlirTypeIsAF16(elem)))
    return 0;
  int64_t kp = (kc + k_align - 1) / k_align * k_align, entries;
  if (__builtin_mul_overflow(kp, p, &entries) || entries > MAX_INDEX_TABLE)
    return 0;
  return kp;
}

/* A window form for a K that needs padding: the kernel's last spatial dim widened by
 * the fewest extra taps that make K = KK' Cg a multiple of k_align, reading one more
 * input position per tap from the padded input (its end padding raised where the
 * widened window would pass it); their columns are zeroed by a select and their
 * weights are zero (decision 0021). For ResNet's stem (7 x 7 x 3 = 147) one tap: 7 x 8
 * x 3 = 168. The columns are then copied by an affine read of the padded input instead
 * of a gather at a [P, K] position table. Returns the extra taps (wide: the widened
 * geometry), or 0 where they would grow K by more than a quarter (the gather's zero
 * columns are then cheaper). */
static int64_t widened_taps(const BrazeConvGeometry *g, int64_t k_align, BrazeConvGeometry *wide) {
  int last = g->n - 1;
  int64_t cg = g->in_channels / g->groups, kk = product(g->kernel, g->n), outer = kk / g->kernel[last];
  for (int64_t extra = 1; extra < k_align; ++extra) {
    int64_t k = outer * (g->kernel[last] + extra) * cg;
    if (k % k_align)
      continue;
    if (4 * (k - kk * cg) > kk * cg)
      return 0;
    *wide = *g;
    wide->kernel[last] += extra;
    int64_t reach = (g->out[last] - 1) * g->stride[last] + g->dilation[last] * (wide->kernel[last] - 1) + 1;
    int64_t have = g->in[last] + g->pad_begin[last] + g->pad_end[last];
    if (reach > have)
      wide->pad_end[last] += reach - have;
    return extra;
  }
  return 0;
}

/* w [OC, Cg, k..] with `extra` zero taps after its last kernel dim's. */
static MlirValue widen_weight(GraphBuilder *b, MlirValue w, int64_t extra) {
  if (!extra)
    return w;
  int64_t shape[BRAZE_MAX_RANK];
  intptr_t rank = braze_shape(mlirValueGetType(w), shape);
  shape[rank - 1] = extra;
  return concat(b, w, zeros(b, shape, rank, elem_of(w)), rank - 1);
}

/* The gather form's table with K padded to kp: -1 (read as zero) past KK Cg. */
static int32_t *pad_table_k(int32_t *idx, const BrazeConvGeometry *g, int64_t kp) {
  int64_t kc = g->in_channels / g->groups * product(g->kernel, g->n), p = product(g->out, g->n);
  int32_t *out = malloc((size_t)(kp * p) * sizeof *out);
  for (int64_t r = 0; r < p; ++r)
    for (int64_t j = 0; j < kp; ++j)
      out[r * kp + j] = j < kc ? idx[r * kc + j] : -1;
  free(idx);
  return out;
}

int64_t braze_conv_padded_k(MlirOperation op, BrazeConvIm2col asked, int64_t k_align) {
  BrazeConvGeometry g, wide;
  char why[256];
  if (!braze_conv_read_geometry(op, &g, why, sizeof why))
    return 0;
  int64_t kp = padded_k(&g, elem_of(mlirOperationGetOperand(op, 0)), k_align);
  if (!kp || braze_conv_im2col_form(op, asked, k_align) != BRAZE_CONV_IM2COL_WINDOW)
    return kp;
  widened_taps(&g, k_align, &wide);
  return g.in_channels / g.groups * product(wide.kernel, wide.n);
}

BrazeConvIm2col braze_conv_im2col_form(MlirOperation op, BrazeConvIm2col asked, int64_t k_align) {
  BrazeConvGeometry g;
  char why[256];
  if (!braze_conv_read_geometry(op, &g, why, sizeof why) || is_pointwise(&g))
    return BRAZE_CONV_IM2COL_VIEW;
  BrazeConvGeometry wide;
  if (padded_k(&g, elem_of(mlirOperationGetOperand(op, 0)), k_align) &&
      !(asked == BRAZE_CONV_IM2COL_WINDOW && g.n <= MAX_WINDOW_SPATIAL && widened_taps(&g, k_align, &wide)))
    return BRAZE_CONV_IM2COL_GATHER; /* the padding columns are table entries */
  return asked == BRAZE_CONV_IM2COL_WINDOW && g.n <= MAX_WINDOW_SPATIAL ? BRAZE_CONV_IM2COL_WINDOW
                                                                         : BRAZE_CONV_IM2COL_GATHER;
}

MlirValue braze_decompose_conv(MlirOperation op, GraphBuilder *b, BrazeConvIm2col form, int64_t k_align, char *why,
                               size_t why_size) {
  BrazeConvGeometry g;
  if (!braze_conv_read_geometry(op, &g, why, why_size))
    return null_value();
  MlirValue x = mlirOperationGetOperand(op, 0), w = mlirOperationGetOperand(op, 1);
  MlirType e = elem_of(x);
  int64_t groups = g.groups, cg = g.in_channels / groups, ocg = g.out_channels / groups;
  int64_t kk = product(g.kernel, g.n), p = product(g.out, g.n);
  form = braze_conv_im2col_form(op, form, k_align);
  int64_t kp = padded_k(&g, e, k_align), extra = 0;
  BrazeConvGeometry wide = g; /* the window form's geometry, its kernel widened for K */
  if (kp && form == BRAZE_CONV_IM2COL_WINDOW) {
    extra = widened_taps(&g, k_align, &wide);
    kk = product(wide.kernel, wide.n);
    kp = 0;
  }
  if (form == BRAZE_CONV_IM2COL_WINDOW && !braze_conv_padding_fits(&wide, false, why, why_size))
    return null_value();
  int64_t k_cols = kp ? kp : kk * cg;
  bool padded = false;
  int32_t *idx = form == BRAZE_CONV_IM2COL_GATHER ? im2col_positions(&g, cg, &padded, why, why_size) : NULL;
  if (form == BRAZE_CONV_IM2COL_GATHER && !idx)
    return null_value();
  if (kp) {
    idx = pad_table_k(idx, &g, kp);
    padded = true;
  }
  int64_t swap[4] = {0, 1, 3, 2}, channels_first[4] = {g.batch, groups, cg, p};
  MlirValue cols = form == BRAZE_CONV_IM2COL_VIEW   ? braze_gb_transpose(b, braze_gb_reshape(b, x, channels_first, 4), swap)
                   : form == BRAZE_CONV_IM2COL_WINDOW && extra
                       ? zero_widened_taps(b, window_cols(b, x, &wide), &wide, g.kernel[g.n - 1])
                   : form == BRAZE_CONV_IM2COL_WINDOW ? window_cols(b, x, &wide)
                                                      : im2col(b, x, &g, idx, k_cols, padded);
  free(idx);
  MlirValue ops[2] = {cols, weight_matrix(b, widen_weight(b, w, extra), w, extra, groups, ocg, cg, kk, k_cols)};
  int64_t y_shape[4] = {g.batch, groups, p, ocg};
  MlirValue y = braze_gb_make(b, "batch_matmul", ops, 2, y_shape, 4, e, NULL, 0);
  int64_t out[BRAZE_MAX_RANK];
  intptr_t rank = braze_conv_result_shape(&g, out);
  return braze_gb_reshape(b, braze_gb_transpose(b, y, swap), out, rank);
}

/* ---- conv_transpose ---- */

/* x with stride - 1 zeros after each element along `axis` but the last. */
static MlirValue stuff_zeros(GraphBuilder *b, MlirValue x, intptr_t axis, int64_t stride) {
  int64_t shape[BRAZE_MAX_RANK + 1], up[BRAZE_MAX_RANK + 1];
  intptr_t rank = braze_shape(mlirValueGetType(x), shape);
  int64_t size = shape[axis];
  for (intptr_t d = 0, j = 0; d < rank; ++d) {
    up[j++] = shape[d];
    if (d == axis)
      up[j++] = 1;
  }
  MlirValue v = braze_gb_reshape(b, x, up, rank + 1);
  up[axis + 1] = stride - 1;
  v = concat(b, v, zeros(b, up, rank + 1, elem_of(x)), axis + 1);
  shape[axis] = size * stride;
  v = braze_gb_reshape(b, v, shape, rank);
  return slice_axis(b, v, axis, 0, (size - 1) * stride + 1);
}

/* w [C, OCg, K...] -> [OC, Cg, K...] with each kernel dim reversed. */
static MlirValue transposed_weight(GraphBuilder *b, MlirValue w, const BrazeConvGeometry *g) {
  int64_t groups = g->groups, cg = g->in_channels / groups, ocg = g->out_channels / groups;
  int64_t split[BRAZE_MAX_RANK + 1] = {groups, cg, ocg}, perm[BRAZE_MAX_RANK + 1] = {0, 2, 1};
  for (int i = 0; i < g->n; ++i) {
    split[3 + i] = g->kernel[i];
    perm[3 + i] = 3 + i;
  }
  MlirValue v = braze_gb_transpose(b, braze_gb_reshape(b, w, split, g->n + 3), perm);
  int64_t shape[BRAZE_MAX_RANK] = {g->out_channels, cg};
  for (int i = 0; i < g->n; ++i)
    shape[2 + i] = g->kernel[i];
  v = braze_gb_reshape(b, v, shape, g->n + 2);
  for (int i = 0; i < g->n; ++i) {
    if (g->kernel[i] == 1)
      continue;
    int32_t rev[4096];
    for (int64_t k = 0; k < g->kernel[i]; ++k)
      rev[k] = (int32_t)(g->kernel[i] - 1 - k);
    v = gather_const(b, v, rev, &g->kernel[i], 1, 2 + i);
  }
  return v;
}

MlirValue braze_decompose_conv_transpose(MlirOperation op, GraphBuilder *b, char *why, size_t why_size) {
  BrazeConvGeometry g;
  if (!braze_conv_read_geometry(op, &g, why, why_size))
    return null_value();
  int64_t lo[BRAZE_CONV_MAX_SPATIAL], hi[BRAZE_CONV_MAX_SPATIAL];
  for (int i = 0; i < g.n; ++i) {
    if (g.kernel[i] > 4096)
      return braze_conv_refuse(why, why_size, "kernel sizes above 4096 are not supported"), null_value();
    if (g.stride[i] > 1 && g.n + 2 == BRAZE_MAX_RANK)
      return braze_conv_refuse(why, why_size, "strides above 1 need rank <= %d", BRAZE_MAX_RANK - 1), null_value();
    int64_t reach = g.dilation[i] * (g.kernel[i] - 1), stuffed = (g.in[i] - 1) * g.stride[i] + 1;
    lo[i] = reach - g.pad_begin[i];
    hi[i] = reach - g.pad_end[i] + g.output_padding[i];
    int64_t kept = stuffed + (lo[i] < 0 ? lo[i] : 0) + (hi[i] < 0 ? hi[i] : 0);
    if (kept < 1)
      return braze_conv_refuse(why, why_size, "spatial dim %d: the pads crop the whole input", i), null_value();
  }
  MlirValue x = mlirOperationGetOperand(op, 0);
  for (int i = 0; i < g.n; ++i) {
    intptr_t axis = 2 + i;
    if (g.stride[i] > 1)
      x = stuff_zeros(b, x, axis, g.stride[i]);
    int64_t size = mlirShapedTypeGetDimSize(mlirValueGetType(x), axis);
    int64_t start = lo[i] < 0 ? -lo[i] : 0, limit = size + (hi[i] < 0 ? hi[i] : 0);
    if (start > 0 || limit < size)
      x = slice_axis(b, x, axis, start, limit);
  }
  MlirValue ops[2] = {x, transposed_weight(b, mlirOperationGetOperand(op, 1), &g)};
  int64_t ones[BRAZE_CONV_MAX_SPATIAL], pads[2 * BRAZE_CONV_MAX_SPATIAL];
  for (int i = 0; i < g.n; ++i) {
    ones[i] = 1;
    pads[i] = lo[i] > 0 ? lo[i] : 0;
    pads[g.n + i] = hi[i] > 0 ? hi[i] : 0;
  }
  MlirNamedAttribute attrs[4] = {
      braze_gb_attr_i64_array(b->ctx, "strides", ones, g.n),
      braze_gb_attr_i64_array(b->ctx, "pads", pads, 2 * g.n),
      braze_gb_attr_i64_array(b->ctx, "dilations", g.dilation, g.n),
      mlirNamedAttributeGet(mlirIdentifierGet(b->ctx, braze_ref("groups")),
                            mlirIntegerAttrGet(mlirIntegerTypeGet(b->ctx, 64), g.groups)),
  };
  MlirType res = mlirValueGetType(mlirOperationGetResult(op, 0));
  return mlirOperationGetResult(braze_gb_create(b, "conv", ops, 2, res, attrs, 4), 0);
}
