/* graph-decompose: a 3x3 conv as Winograd F(m x m, 3x3), m = 2 or 4 (conv-winograd=N,
 * conv-winograd-tile=m; decision 0025).
 *
 * Each m x m block of the result (a "tile", T = N x ceil(OH/m) x ceil(OW/m) of them) is
 * computed from the a x a patch d of the input under it, a = m + 2 (Lavin and Gray, 2016):
 *   Y = A^T [ U (.) V ] A,   V = B^T d B (a x a per tile and channel),
 *                            U = G g G^T (a x a per filter and channel, at compile time)
 * and the sum over channels of U (.) V is, for each of the a^2 positions (xi, nu), one
 * matrix product [T, C] x [C, K]: a^2 multiply-adds per tile, channel and filter where
 * the direct conv needs 9 m^2 (F(2x2): 16 against 36; F(4x4): 36 against 144). As graph
 * ops:
 *   xl   = the zero-padded channels-last input [N, m TH + 2, m TW + 2, C] (zero-pad.c's
 *          gather-select copy; the padding past the conv's own pads fills whole tiles)
 *   d    = transpose(window(xl) {kernel a x a, strides m x m})  [a, a, N, TH, TW, C],
 *          a view laid out like V
 *   V    = B^T d B: the matrix applied along d's first dim, then its second
 *          (times_matrix: gathers at constant indices, adds, constants of the
 *          coefficients), reshaped [a^2, T, C]
 *   M    = batch_matmul(V, U)  with U [a^2, C, K] a constant (packed at compile time)
 *   Y    = A^T M A on M viewed [N, TH, a, TW, a, K], so that it is [N, TH, m, TW, m, K]:
 *          the tiles' blocks in place; both matrices at once (times_matrix_both: a
 *          term per pair of slots, no intermediate between the two); reshaped
 *          [N, m TH, m TW, K], cropped to [N, OH, OW, K] and transposed to [N, K, OH, OW]
 * The transforms are pointwise kernels beside the product (form-kernels fuses the
 * output transform with the conv's epilogue); V and M are a^2 / m^2 times the input's
 * and result's size and go through memory, which is why the rule asks for many
 * channels: the transforms cost per channel what the product saves per channel pair
 * (docs/performance-log.md, "Winograd F(2x2, 3x3)"). F(4x4) saves more multiply-adds and
 * moves less memory per result, for a larger rounding error (its coefficients reach 8
 * and 1/24). */
#include "passes/graph/decompose-conv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dialects/graph/conv-geometry.h"
#include "dialects/graph/graph.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "support/context.h"

/* F(m x m, 3x3): B^T [a][a], G [a][3], A^T [m][a] (Lavin and Gray's points 0, 1, -1
 * for m = 2; 0, 1, -1, 2, -2 for m = 4). */
typedef struct {
  int m, a;
  const double (*bt)[6], (*g)[3], (*at)[6];
} Winograd;

static const double BT2[4][6] = {{1, 0, -1, 0}, {0, 1, 1, 0}, {0, -1, 1, 0}, {0, 1, 0, -1}};
static const double G2[4][3] = {{1, 0, 0}, {.5, .5, .5}, {.5, -.5, .5}, {0, 0, 1}};
static const double AT2[2][6] = {{1, 1, 1, 0}, {0, 1, -1, -1}};
static const double BT4[6][6] = {{4, 0, -5, 0, 1, 0},  {0, -4, -4, 1, 1, 0}, {0, 4, -4, -1, 1, 0},
                                 {0, -2, -1, 2, 1, 0}, {0, 2, -1, -2, 1, 0}, {0, 4, 0, -5, 0, 1}};
static const double G4[6][3] = {{1. / 4, 0, 0},           {-1. / 6, -1. / 6, -1. / 6}, {-1. / 6, 1. / 6, -1. / 6},
                                {1. / 24, 1. / 12, 1. / 6}, {1. / 24, -1. / 12, 1. / 6}, {0, 0, 1}};
static const double AT4[4][6] = {{1, 1, 1, 1, 1, 0}, {0, 1, -1, 2, -2, 0}, {0, 1, 1, 4, 4, 0}, {0, 1, -1, 8, -8, 1}};

static Winograd winograd_of(int m) {
  return m == 4 ? (Winograd){4, 6, BT4, G4, AT4} : (Winograd){2, 4, BT2, G2, AT2};
}

static MlirType elem_of(MlirValue v) { return braze_element_type(mlirValueGetType(v)); }

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
  return braze_gb_make(b, "slice", &x, 1, shape, rank, elem_of(x), attrs, 3);
}

/* One term slot of a matrix R [rows, n] with entries 0, 1, -1 and others: for each row
 * r, the column of r's s-th nonzero (the 1s first) and its coefficient; a row with
 * fewer nonzeros reads column 0 times 0. False when no row has an s-th nonzero. */
typedef struct {
  int32_t idx[6];
  float coef[6];
} Slot;

static bool slot_of(const double (*rm)[6], int rows, int n, int s, Slot *out) {
  bool any = false;
  *out = (Slot){{0}, {0}};
  for (int r = 0; r < rows; ++r)
    for (int k = 0, seen = 0; k < 2 * n; ++k) {
      int i = k % n;
      if (rm[r][i] != 0 && (rm[r][i] == 1) == (k < n) && seen++ == s) {
        out->idx[r] = i;
        out->coef[r] = (float)rm[r][i];
        any = true;
      }
    }
  return any;
}

/* gather(x, idx[0..rows), axis): the slot's columns along `axis`, an indexed read. */
static MlirValue gather_rows(GraphBuilder *b, MlirValue x, intptr_t axis, const int32_t *idx, int rows) {
  int64_t shape[BRAZE_MAX_RANK], idx_shape = rows;
  intptr_t rank = braze_shape(mlirValueGetType(x), shape);
  MlirType it = braze_gb_tensor_type(b->ctx, &idx_shape, 1, mlirIntegerTypeGet(b->ctx, 32));
  MlirValue ops[2] = {x, braze_gb_constant(b, mlirDenseElementsAttrInt32Get(it, rows, idx))};
  shape[axis] = rows;
  MlirNamedAttribute attr = mlirNamedAttributeGet(mlirIdentifierGet(b->ctx, braze_ref("axis")),
                                                  mlirIntegerAttrGet(mlirIntegerTypeGet(b->ctx, 64), axis));
  return braze_gb_make(b, "gather", ops, 2, shape, rank, elem_of(x), &attr, 1);
}

/* acc + coef (.) term, coef [rows0 at axis0, rows1 at axis1, 1 elsewhere] (rows1 = 1:
 * one axis): an add or sub where the coefficients are all 1 or all -1, else a multiply
 * by the constant first. A null acc starts the sum with coef (.) term (term itself when
 * the coefficients are all 1, as slot 0's are). */
static MlirValue accumulate(GraphBuilder *b, MlirValue acc, MlirValue term, const intptr_t axis[2],
                            const int rows[2], const float *coef) {
  int n = rows[0] * rows[1];
  bool all_plus = true, all_minus = true;
  for (int i = 0; i < n; ++i) {
    all_plus &= coef[i] == 1;
    all_minus &= coef[i] == -1;
  }
  bool start = mlirValueIsNull(acc);
  if (start && all_plus)
    return term;
  if (!all_plus && (start || !all_minus)) {
    int64_t cshape[BRAZE_MAX_RANK];
    intptr_t rank = mlirShapedTypeGetRank(mlirValueGetType(term));
    for (intptr_t d = 0; d < rank; ++d)
      cshape[d] = d == axis[0] ? rows[0] : d == axis[1] ? rows[1] : 1;
    MlirType ct = braze_gb_tensor_type(b->ctx, cshape, rank, elem_of(term));
    term = braze_gb_binary(b, "mul", term, braze_gb_constant(b, mlirDenseElementsAttrFloatGet(ct, n, coef)));
  }
  return start ? term : braze_gb_binary(b, all_minus ? "sub" : "add", acc, term);
}

/* x [.., n at `axis`, ..] times a matrix R [rows, n] along `axis`:
 * out[.., r, ..] = sum_i R[r][i] x[.., i, ..], one term per slot (slot_of). Slot 0
 * takes each row's first 1 (every row of B^T and A^T has one), so it needs no multiply. */
static MlirValue times_matrix(GraphBuilder *b, MlirValue x, intptr_t axis, const double (*rm)[6], int rows, int n) {
  MlirValue acc = (MlirValue){NULL};
  Slot sl;
  for (int s = 0; slot_of(rm, rows, n, s, &sl); ++s)
    acc = accumulate(b, acc, gather_rows(b, x, axis, sl.idx, rows), (intptr_t[2]){axis, -1}, (int[2]){rows, 1},
                     sl.coef);
  return acc;
}

/* x times R along axis0 and along axis1 at once (R (x) R, in place of two
 * times_matrix): one term per pair of slots, a gather along each axis, so that no
 * intermediate is materialized between the two. */
static MlirValue times_matrix_both(GraphBuilder *b, MlirValue x, const intptr_t axis[2], const double (*rm)[6],
                                   int rows, int n) {
  MlirValue acc = (MlirValue){NULL};
  Slot s0, s1;
  for (int i = 0; slot_of(rm, rows, n, i, &s0); ++i) {
    MlirValue rows0 = gather_rows(b, x, axis[0], s0.idx, rows);
    for (int j = 0; slot_of(rm, rows, n, j, &s1); ++j) {
      float coef[36];
      for (int r0 = 0; r0 < rows; ++r0)
        for (int r1 = 0; r1 < rows; ++r1)
          coef[r0 * rows + r1] = s0.coef[r0] * s1.coef[r1];
      acc = accumulate(b, acc, gather_rows(b, rows0, axis[1], s1.idx, rows), axis, (int[2]){rows, rows}, coef);
    }
  }
  return acc;
}

/* ---- when it applies ---- */

static int64_t tiles(int64_t out, int m) { return (out + m - 1) / m; }

/* g with its end padding raised so that the padded input covers whole tiles:
 * m ceil(O / m) + 2 positions along each dim. */
static BrazeConvGeometry tiled(const BrazeConvGeometry *g, int m) {
  BrazeConvGeometry t = *g;
  for (int i = 0; i < 2; ++i)
    t.pad_end[i] = m * tiles(g->out[i], m) + 2 - g->in[i] - g->pad_begin[i];
  return t;
}

bool braze_conv_winograd_applies(MlirOperation op, int64_t min_channels, int tile, char *why, size_t n) {
  BrazeConvGeometry g;
  if (!braze_conv_read_geometry(op, &g, why, n))
    return false;
  if (g.n != 2)
    return braze_conv_refuse(why, n, "%d spatial dims (Winograd F(%dx%d, 3x3) takes 2)", g.n, tile, tile);
  if (g.kernel[0] != 3 || g.kernel[1] != 3)
    return braze_conv_refuse(why, n, "a %lldx%lld kernel (takes 3x3)", (long long)g.kernel[0], (long long)g.kernel[1]);
  if (g.stride[0] != 1 || g.stride[1] != 1 || g.dilation[0] != 1 || g.dilation[1] != 1)
    return braze_conv_refuse(why, n, "strides or dilations other than 1");
  if (g.groups != 1)
    return braze_conv_refuse(why, n, "%lld groups (takes 1)", (long long)g.groups);
  if (!mlirTypeIsAF32(elem_of(mlirOperationGetOperand(op, 0))))
    return braze_conv_refuse(why, n, "not f32 (the transforms' rounding is for f32)");
  int64_t fewest = g.in_channels < g.out_channels ? g.in_channels : g.out_channels;
  if (fewest < min_channels)
    return braze_conv_refuse(why, n, "%lld channels in or out, fewer than conv-winograd=%lld", (long long)fewest,
                             (long long)min_channels);
  BrazeConvGeometry whole_tiles = tiled(&g, tile);
  if (!braze_conv_padding_fits(&whole_tiles, true, why, n))
    return false;
  if (mlirAttributeIsNull(braze_conv_constant_f32(mlirOperationGetOperand(op, 1))))
    return braze_conv_refuse(why, n, "the weight is not a constant (U = G g G^T is computed at compile time)");
  return true;
}

/* ---- the pieces ---- */

/* U [a^2, C, K]: U[xi a + nu][c][k] = sum_ij G[xi][i] w[k][c][i][j] G[nu][j], in double. */
static MlirValue transformed_weight(GraphBuilder *b, const Winograd *wg, MlirValue w, int64_t c, int64_t k) {
  int a = wg->a;
  float *wv = braze_conv_constant_weight(w, k * c * 9);
  float *u = malloc((size_t)(a * a * c * k) * sizeof *u);
  for (int64_t kc = 0; kc < k * c; ++kc) {
    const float *g = wv + kc * 9; /* w[k][c] */
    double gg[6][3];              /* G g */
    for (int xi = 0; xi < a; ++xi)
      for (int j = 0; j < 3; ++j)
        gg[xi][j] = wg->g[xi][0] * g[j] + wg->g[xi][1] * g[3 + j] + wg->g[xi][2] * g[6 + j];
    int64_t kk = kc / c, cc = kc % c;
    for (int xi = 0; xi < a; ++xi)
      for (int nu = 0; nu < a; ++nu)
        u[((xi * a + nu) * c + cc) * k + kk] =
            (float)(gg[xi][0] * wg->g[nu][0] + gg[xi][1] * wg->g[nu][1] + gg[xi][2] * wg->g[nu][2]);
  }
  int64_t shape[3] = {a * a, c, k};
  MlirType type = braze_gb_tensor_type(b->ctx, shape, 3, mlirF32TypeGet(b->ctx));
  MlirValue v = braze_gb_constant(b, mlirDenseElementsAttrFloatGet(type, a * a * c * k, u));
  free(wv);
  free(u);
  return v;
}

/* V [a^2, T, C]: the input's a x a patches under each tile, transformed. */
static MlirValue transformed_input(GraphBuilder *b, const Winograd *wg, MlirValue x, const BrazeConvGeometry *g) {
  int m = wg->m, a = wg->a;
  int64_t th = tiles(g->out[0], m), tw = tiles(g->out[1], m), c = g->in_channels, t = g->batch * th * tw;
  BrazeConvGeometry whole_tiles = tiled(g, m);
  MlirValue xl = braze_conv_padded_channels_last(b, x, &whole_tiles);
  int64_t patch[2] = {a, a}, step[2] = {m, m}, one[2] = {1, 1};
  MlirNamedAttribute attrs[3] = {braze_gb_attr_i64_array(b->ctx, "kernel", patch, 2),
                                 braze_gb_attr_i64_array(b->ctx, "strides", step, 2),
                                 braze_gb_attr_i64_array(b->ctx, "dilations", one, 2)};
  int64_t wshape[6] = {g->batch, th, tw, a, a, c};
  MlirValue win = braze_gb_make(b, "window", &xl, 1, wshape, 6, elem_of(x), attrs, 3);
  int64_t patch_first[6] = {3, 4, 0, 1, 2, 5}, flat[3] = {a * a, t, c};
  MlirValue d = braze_gb_transpose(b, win, patch_first); /* [a (i), a (j), N, TH, TW, C], a view */
  MlirValue e = times_matrix(b, d, 0, wg->bt, a, a);      /* B^T d */
  return braze_gb_reshape(b, times_matrix(b, e, 1, wg->bt, a, a), flat, 3); /* (B^T d) B */
}

/* The result [N, K, OH, OW] from the products M [a^2, T, K]. */
static MlirValue transformed_output(GraphBuilder *b, const Winograd *wg, MlirValue mm, const BrazeConvGeometry *g) {
  int m = wg->m, a = wg->a;
  int64_t th = tiles(g->out[0], m), tw = tiles(g->out[1], m), k = g->out_channels;
  int64_t split[6] = {a, a, g->batch, th, tw, k}, interleave[6] = {2, 3, 0, 4, 1, 5};
  /* M as [N, TH, a (xi), TW, a (nu), K] (a view), so that A^T M A is [N, TH, m, TW, m, K]:
   * the tiles' blocks in place, [N, m TH, m TW, K] by a reshape */
  MlirValue mv = braze_gb_transpose(b, braze_gb_reshape(b, mm, split, 6), interleave);
  MlirValue y = times_matrix_both(b, mv, (intptr_t[2]){2, 4}, wg->at, m, a);
  int64_t whole[4] = {g->batch, m * th, m * tw, k};
  y = braze_gb_reshape(b, y, whole, 4);
  if (m * th != g->out[0] || m * tw != g->out[1]) {
    int64_t lo[4] = {0, 0, 0, 0}, hi[4] = {g->batch, g->out[0], g->out[1], k};
    y = slice(b, y, lo, hi);
  }
  int64_t to_nchw[4] = {0, 3, 1, 2};
  return braze_gb_transpose(b, y, to_nchw);
}

MlirValue braze_decompose_conv_winograd(MlirOperation op, GraphBuilder *b, int tile) {
  BrazeConvGeometry g;
  char why[256];
  if (!braze_conv_read_geometry(op, &g, why, sizeof why))
    return (MlirValue){NULL};
  Winograd wg = winograd_of(tile);
  MlirValue v = transformed_input(b, &wg, mlirOperationGetOperand(op, 0), &g);
  MlirValue ops[2] = {v, transformed_weight(b, &wg, mlirOperationGetOperand(op, 1), g.in_channels, g.out_channels)};
  int64_t t = g.batch * tiles(g.out[0], wg.m) * tiles(g.out[1], wg.m), shape[3] = {wg.a * wg.a, t, g.out_channels};
  MlirValue mm = braze_gb_make(b, "batch_matmul", ops, 2, shape, 3, elem_of(v), NULL, 0);
  return transformed_output(b, &wg, mm, &g);
}
