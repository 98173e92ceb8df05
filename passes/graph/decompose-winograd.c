/* graph-decompose: a 3x3 conv as Winograd F(2x2, 3x3) (conv-winograd=N; decision 0025).
 *
 * Each 2x2 block of the result (a "tile", T = N x ceil(OH/2) x ceil(OW/2) of them) is
 * computed from the 4x4 patch d of the input under it (Lavin and Gray, 2016):
 *   Y = A^T [ U (.) V ] A,   V = B^T d B (4x4 per tile and channel),
 *                            U = G g G^T (4x4 per filter and channel, at compile time)
 * and the sum over channels of U (.) V is, for each of the 16 positions (xi, nu) of the
 * 4x4, one matrix product [T, C] x [C, K]: 16 products of 16 multiply-adds per tile,
 * channel and filter where the direct conv needs 36 (2.25x fewer). As graph ops:
 *   xl   = the zero-padded channels-last input [N, 2 TH + 2, 2 TW + 2, C] (zero-pad.c's
 *          gather-select copy; the padding past the conv's own pads fills whole tiles)
 *   win  = window(xl) {kernel 4x4, strides 2x2}          [N, TH, TW, 4, 4, C] (a view)
 *   d_ij = reshape(slice(win at i, j))                    [1, T, C]
 *   V    = the 16 sums B^T d B (adds and subs of the d_ij) concatenated  [16, T, C]
 *   M    = batch_matmul(V, U)  with U [16, C, K] a constant (packed at compile time)
 *   Y    = the 4 sums A^T M A (adds and subs of M's 16 slices), interleaved into
 *          [N, 2 TH, 2 TW, K] by reshapes and concats, cropped to [N, OH, OW, K] and
 *          transposed to [N, K, OH, OW]
 * The transforms are pointwise kernels beside the product (form-kernels fuses the
 * output transform with the conv's epilogue); V and M are 4x the input's and result's
 * size and go through memory, which is why the rule asks for many channels: the
 * transforms cost per channel what the product saves per channel pair
 * (docs/performance.md, "Winograd F(2x2, 3x3)"). */
#include "passes/graph/decompose-conv.h"

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

/* The transforms' rows (F(2x2, 3x3)). */
static const int BT[4][4] = {{1, 0, -1, 0}, {0, 1, 1, 0}, {0, -1, 1, 0}, {0, 1, 0, -1}};
static const double GM[4][3] = {{1, 0, 0}, {.5, .5, .5}, {.5, -.5, .5}, {0, 0, 1}};
static const int AT[2][4] = {{1, 1, 1, 0}, {0, 1, -1, -1}};

/* The largest padded image (positions) whose padding table the rewrite builds. */
enum { MAX_PADDED_POSITIONS = 1 << 26 };

static bool refuse(char *why, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static bool refuse(char *why, size_t n, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(why, n, fmt, ap);
  va_end(ap);
  return false;
}

static MlirType elem_of(MlirValue v) { return braze_element_type(mlirValueGetType(v)); }

static MlirValue make(GraphBuilder *b, const char *mnemonic, const MlirValue *operands, intptr_t n,
                      const int64_t *shape, intptr_t rank, MlirType elem, const MlirNamedAttribute *attrs,
                      intptr_t num_attrs) {
  MlirType type = braze_gb_tensor_type(b->ctx, shape, rank, elem);
  return mlirOperationGetResult(braze_gb_create(b, mnemonic, operands, n, type, attrs, num_attrs), 0);
}

/* x[starts:limits] (unit strides). */
static MlirValue slice(GraphBuilder *b, MlirValue x, const int64_t *starts, const int64_t *limits) {
  int64_t shape[BRAZE_MAX_RANK], strides[BRAZE_MAX_RANK];
  intptr_t rank = braze_shape(mlirValueGetType(x), shape);
  for (intptr_t i = 0; i < rank; ++i) {
    strides[i] = 1;
    shape[i] = limits[i] - starts[i];
  }
  MlirNamedAttribute attrs[3] = {braze_gb_attr_i64_array(b->ctx, "starts", starts, rank),
                                 braze_gb_attr_i64_array(b->ctx, "limits", limits, rank),
                                 braze_gb_attr_i64_array(b->ctx, "strides", strides, rank)};
  return make(b, "slice", &x, 1, shape, rank, elem_of(x), attrs, 3);
}

/* x [.., 4 at `axis`, ..] times a 0/+1/-1 matrix R [rows, 4] along `axis`:
 * out[.., r, ..] = sum_i R[r][i] x[.., i, ..] as term slots: slot s gathers, for each
 * row r, the column of r's s-th nonzero (a constant index: an indexed read of x, no
 * copy) and adds or subtracts it, or multiplies it by a constant [.., rows, ..] of the
 * signs where the rows' signs differ. Slot 0 takes each row's first +1 (every row
 * here has one), so it needs no sign. */
static MlirValue times_matrix(GraphBuilder *b, MlirValue x, intptr_t axis, const int (*rm)[4], int rows) {
  int64_t shape[BRAZE_MAX_RANK], idx_shape = rows;
  intptr_t rank = braze_shape(mlirValueGetType(x), shape);
  MlirValue acc = (MlirValue){NULL};
  for (int slot = 0;; ++slot) {
    int32_t idx[4] = {0, 0, 0, 0};
    float sign[4] = {0, 0, 0, 0};
    bool any = false, all_plus = true, all_minus = true;
    for (int r = 0; r < rows; ++r) /* r's nonzeros in order, the +1s first */
      for (int k = 0, seen = 0; k < 8; ++k) {
        int i = k % 4, want = k < 4 ? 1 : -1;
        if (rm[r][i] == want && seen++ == slot) {
          idx[r] = i;
          sign[r] = (float)want;
          any = true;
        }
      }
    if (!any)
      return acc;
    for (int r = 0; r < rows; ++r) {
      all_plus &= sign[r] == 1;
      all_minus &= sign[r] == -1;
    }
    MlirType it = braze_gb_tensor_type(b->ctx, &idx_shape, 1, mlirIntegerTypeGet(b->ctx, 32));
    MlirValue ops[2] = {x, braze_gb_constant(b, mlirDenseElementsAttrInt32Get(it, rows, idx))};
    int64_t out[BRAZE_MAX_RANK];
    memcpy(out, shape, sizeof out);
    out[axis] = rows;
    MlirNamedAttribute attr = mlirNamedAttributeGet(mlirIdentifierGet(b->ctx, braze_ref("axis")),
                                                    mlirIntegerAttrGet(mlirIntegerTypeGet(b->ctx, 64), axis));
    MlirValue term = make(b, "gather", ops, 2, out, rank, elem_of(x), &attr, 1);
    if (mlirValueIsNull(acc)) { /* slot 0: every row's first nonzero, +1 */
      acc = term;
      continue;
    }
    if (!all_plus && !all_minus) {
      int64_t sshape[BRAZE_MAX_RANK];
      for (intptr_t d = 0; d < rank; ++d)
        sshape[d] = d == axis ? rows : 1;
      MlirType st = braze_gb_tensor_type(b->ctx, sshape, rank, elem_of(x));
      term = braze_gb_binary(b, "mul", term, braze_gb_constant(b, mlirDenseElementsAttrFloatGet(st, rows, sign)));
    }
    acc = braze_gb_binary(b, all_minus ? "sub" : "add", acc, term);
  }
}

/* ---- when it applies ---- */

static bool read_geometry(MlirOperation op, BrazeConvGeometry *g, char *why, size_t n) {
  MlirType xt = mlirValueGetType(mlirOperationGetOperand(op, 0)), wt = mlirValueGetType(mlirOperationGetOperand(op, 1));
  int64_t xs[BRAZE_MAX_RANK], ws[BRAZE_MAX_RANK];
  intptr_t xr = braze_shape(xt, xs), wr = braze_shape(wt, ws);
  return braze_conv_geometry(op, xs, xr, ws, wr, g, why, n);
}

static int64_t tiles(int64_t out) { return (out + 1) / 2; }

bool braze_conv_winograd_applies(MlirOperation op, int64_t min_channels, char *why, size_t n) {
  BrazeConvGeometry g;
  if (!read_geometry(op, &g, why, n))
    return false;
  if (g.n != 2)
    return refuse(why, n, "%d spatial dims (Winograd F(2x2, 3x3) takes 2)", g.n);
  if (g.kernel[0] != 3 || g.kernel[1] != 3)
    return refuse(why, n, "a %lldx%lld kernel (takes 3x3)", (long long)g.kernel[0], (long long)g.kernel[1]);
  if (g.stride[0] != 1 || g.stride[1] != 1 || g.dilation[0] != 1 || g.dilation[1] != 1)
    return refuse(why, n, "strides or dilations other than 1");
  if (g.groups != 1)
    return refuse(why, n, "%lld groups (takes 1)", (long long)g.groups);
  if (!mlirTypeIsAF32(elem_of(mlirOperationGetOperand(op, 0))))
    return refuse(why, n, "not f32 (the transforms' rounding is for f32)");
  int64_t fewest = g.in_channels < g.out_channels ? g.in_channels : g.out_channels;
  if (fewest < min_channels)
    return refuse(why, n, "%lld channels in or out, fewer than conv-winograd=%lld", (long long)fewest,
                  (long long)min_channels);
  if ((2 * tiles(g.out[0]) + 2) * (2 * tiles(g.out[1]) + 2) > MAX_PADDED_POSITIONS)
    return refuse(why, n, "the padded image is above the padding table's limit");
  float *w = braze_conv_constant_weight(mlirOperationGetOperand(op, 1), g.out_channels * g.in_channels * 9);
  if (!w)
    return refuse(why, n, "the weight is not a constant (U = G g G^T is computed at compile time)");
  free(w);
  return true;
}

/* ---- the pieces ---- */

/* U [16, C, K]: U[xi 4 + nu][c][k] = sum_ab G[xi][a] w[k][c][a][b] G[nu][b], in double. */
static MlirValue transformed_weight(GraphBuilder *b, MlirValue w, int64_t c, int64_t k) {
  float *wv = braze_conv_constant_weight(w, k * c * 9);
  float *u = malloc((size_t)(16 * c * k) * sizeof *u);
  for (int64_t kc = 0; kc < k * c; ++kc) {
    const float *g = wv + kc * 9; /* w[k][c] */
    double gg[4][3];              /* G g */
    for (int xi = 0; xi < 4; ++xi)
      for (int j = 0; j < 3; ++j)
        gg[xi][j] = GM[xi][0] * g[j] + GM[xi][1] * g[3 + j] + GM[xi][2] * g[6 + j];
    int64_t kk = kc / c, cc = kc % c;
    for (int xi = 0; xi < 4; ++xi)
      for (int nu = 0; nu < 4; ++nu)
        u[((xi * 4 + nu) * c + cc) * k + kk] =
            (float)(gg[xi][0] * GM[nu][0] + gg[xi][1] * GM[nu][1] + gg[xi][2] * GM[nu][2]);
  }
  int64_t shape[3] = {16, c, k};
  MlirType type = braze_gb_tensor_type(b->ctx, shape, 3, mlirF32TypeGet(b->ctx));
  MlirValue v = braze_gb_constant(b, mlirDenseElementsAttrFloatGet(type, 16 * c * k, u));
  free(wv);
  free(u);
  return v;
}

/* V [16, T, C]: the input's 4x4 patches under each tile, transformed. */
static MlirValue transformed_input(GraphBuilder *b, MlirValue x, const BrazeConvGeometry *g) {
  int64_t th = tiles(g->out[0]), tw = tiles(g->out[1]), c = g->in_channels, t = g->batch * th * tw;
  int64_t perm[4] = {0, 2, 3, 1};
  int64_t before[4] = {0, g->pad_begin[0], g->pad_begin[1], 0};
  int64_t after[4] = {0, 2 * th + 2 - g->in[0] - g->pad_begin[0], 2 * tw + 2 - g->in[1] - g->pad_begin[1], 0};
  MlirValue xl = braze_gb_zero_pad(b, braze_gb_transpose(b, x, perm), before, after, MAX_PADDED_POSITIONS);
  int64_t four[2] = {4, 4}, two[2] = {2, 2}, one[2] = {1, 1};
  MlirNamedAttribute attrs[3] = {braze_gb_attr_i64_array(b->ctx, "kernel", four, 2),
                                 braze_gb_attr_i64_array(b->ctx, "strides", two, 2),
                                 braze_gb_attr_i64_array(b->ctx, "dilations", one, 2)};
  int64_t wshape[6] = {g->batch, th, tw, 4, 4, c};
  MlirValue win = make(b, "window", &xl, 1, wshape, 6, elem_of(x), attrs, 3);
  int64_t patch_first[6] = {3, 4, 0, 1, 2, 5}, flat[3] = {16, t, c};
  MlirValue d = braze_gb_transpose(b, win, patch_first); /* [4 (i), 4 (j), N, TH, TW, C], a view */
  MlirValue e = times_matrix(b, d, 0, BT, 4);             /* B^T d */
  return braze_gb_reshape(b, times_matrix(b, e, 1, BT, 4), flat, 3); /* (B^T d) B */
}

/* The result [N, K, OH, OW] from the products M [16, T, K]. */
static MlirValue transformed_output(GraphBuilder *b, MlirValue mm, const BrazeConvGeometry *g) {
  int64_t th = tiles(g->out[0]), tw = tiles(g->out[1]), k = g->out_channels;
  int64_t split[6] = {4, 4, g->batch, th, tw, k}, interleave[6] = {2, 3, 0, 4, 1, 5};
  /* M as [N, TH, 4 (xi), TW, 4 (nu), K] (a view), so that A^T M A is [N, TH, 2, TW, 2, K]:
   * the tiles' 2x2 blocks in place, [N, 2 TH, 2 TW, K] by a reshape */
  MlirValue m = braze_gb_transpose(b, braze_gb_reshape(b, mm, split, 6), interleave);
  MlirValue y = times_matrix(b, times_matrix(b, m, 2, AT, 2), 4, AT, 2);
  int64_t whole[4] = {g->batch, 2 * th, 2 * tw, k};
  y = braze_gb_reshape(b, y, whole, 4);
  if (2 * th != g->out[0] || 2 * tw != g->out[1]) {
    int64_t lo[4] = {0, 0, 0, 0}, hi[4] = {g->batch, g->out[0], g->out[1], k};
    y = slice(b, y, lo, hi);
  }
  int64_t to_nchw[4] = {0, 3, 1, 2};
  return braze_gb_transpose(b, y, to_nchw);
}

MlirValue braze_decompose_conv_winograd(MlirOperation op, GraphBuilder *b) {
  BrazeConvGeometry g;
  char why[256];
  if (!read_geometry(op, &g, why, sizeof why))
    return (MlirValue){NULL};
  MlirValue v = transformed_input(b, mlirOperationGetOperand(op, 0), &g);
  MlirValue ops[2] = {v, transformed_weight(b, mlirOperationGetOperand(op, 1), g.in_channels, g.out_channels)};
  int64_t t = g.batch * tiles(g.out[0]) * tiles(g.out[1]), shape[3] = {16, t, g.out_channels};
  MlirValue mm = make(b, "batch_matmul", ops, 2, shape, 3, elem_of(v), NULL, 0);
  return transformed_output(b, mm, &g);
}
