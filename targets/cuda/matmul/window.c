/* cuda-codegen, the tensor-core template's window reads (decision 0021, option 2): a
 * conv's A is a window view of its channels-last (zero-padded) input, read through a
 * map whose floordiv/mod split m into output pixels and k into taps and channels. The
 * template then loads A's tile as one 4-D TMA box per (tap, 64 channels) from the input
 * itself, [1][bh][bw][64] over the input viewed as [n][hp][wp][c], with element strides
 * (1, sw, sh, 1) for a strided conv, instead of reading materialized im2col columns.
 *
 * The map is read exactly, not by its form: the input's spatial results are linearized
 * into one position p(m, k), the geometry (output columns, strides, taps, the input's
 * row length) is derived from a few points and then checked at every point of the
 * (m, k) domain against
 *   p(m, k) = (h0 + oh sh + kh dh) wp + w0 + ow sw + kw dw,  channel(m, k) = c
 * (m = oh ow_n + ow, k = (kh kw_n + kw) c_n + c, 0 <= w0 + ow sw + kw dw < wp), and the
 * batch result at every batch position; the batch dims may not meet m or k in one
 * result. Any row length wp that passes gives the same addresses, so the boxes read
 * exactly the elements the map names. Refusals (the remark's reason) keep the
 * materialized path. */
#include "targets/cuda/codegen/codegen.h"

#include <stdlib.h>

#include "mlir-c/BuiltinTypes.h"
#include "support/affine-eval.h"

enum { MAX_POINTS = 1 << 26, MAX_ROW_CANDIDATES = 4 };

typedef struct {
  BrazeAffineProgram pos, chan; /* the spatial position and the channel of A's element */
  int64_t dims[CU_MAX_DIMS];
  int dim_m, dim_k;
} Reader;

static int64_t pos_at(Reader *r, int64_t m, int64_t k) {
  r->dims[r->dim_m] = m;
  r->dims[r->dim_k] = k;
  return braze_affine_run(&r->pos, r->dims);
}

/* The results of A's map: 0 reads only batch dims, the others only m and k. */
static bool dims_apart(MlirAffineMap map, const CuWgmma *w) {
  uint64_t batch = (UINT64_C(1) << (w->n_par - 2)) - 1, mk = (UINT64_C(1) << w->dim_m) | (UINT64_C(1) << w->dim_k);
  for (intptr_t r = 0; r < mlirAffineMapGetNumResults(map); ++r) {
    uint64_t used = cg_affine_dims(mlirAffineMapGetResult(map, r));
    if (used & ~(r == 0 ? batch : mk))
      return false;
  }
  return true;
}

/* Result 0 of A's map is the batch position itself (the grid's y) at every one. */
static bool batch_is_image(MlirAffineMap map, const CuKernel *K, const CuWgmma *w, int64_t images) {
  BrazeAffineProgram p = {0};
  bool ok = w->batch <= images && braze_affine_compile(&p, mlirAffineMapGetResult(map, 0));
  const CuItem *c = &K->items[0];
  int64_t dims[CU_MAX_DIMS] = {0};
  for (int64_t b = 0; ok && b < w->batch; ++b) {
    for (int64_t rest = b, d = w->n_par - 3; d >= 0; --d) {
      dims[d] = rest % c->ext[d];
      rest /= c->ext[d];
    }
    ok = braze_affine_run(&p, dims) == b;
  }
  braze_affine_program_free(&p);
  return ok;
}

/* The spatial results (1 .. rank-2) linearized, and the channel result. */
static bool compile_reader(MlirAffineMap map, MlirType at, Reader *r, int64_t *positions) {
  intptr_t rank = mlirShapedTypeGetRank(at);
  MlirContext ctx = mlirAffineMapGetContext(map);
  MlirAffineExpr sum = mlirAffineConstantExprGet(ctx, 0);
  int64_t stride = 1;
  for (intptr_t d = rank - 2; d >= 1; --d) {
    MlirAffineExpr term = mlirAffineMulExprGet(mlirAffineMapGetResult(map, d), mlirAffineConstantExprGet(ctx, stride));
    sum = mlirAffineAddExprGet(sum, term);
    stride *= mlirShapedTypeGetDimSize(at, d);
  }
  *positions = stride;
  return braze_affine_compile(&r->pos, sum) && braze_affine_compile(&r->chan, mlirAffineMapGetResult(map, rank - 1));
}

/* Output columns, rows and strides from p(m, 0); taps and dilations from p(0, k). */
static const char *derive(Reader *r, int64_t M, int64_t K, CuWindow *g, int64_t *row_step, int64_t *tap_row_step) {
  int64_t p0 = pos_at(r, 0, 0);
  g->sw = M > 1 ? pos_at(r, 1, 0) - p0 : 1;
  if (g->sw < 1 || g->sw > 8) /* TMA's element strides are 1..8 */
    return "window-stride-not-1-to-8";
  g->ow_n = M;
  for (int64_t m = 2; m < M && g->ow_n == M; ++m)
    if (pos_at(r, m, 0) - pos_at(r, m - 1, 0) != g->sw)
      g->ow_n = m;
  if (M % g->ow_n != 0)
    return "a-not-a-window";
  g->oh_n = M / g->ow_n;
  *row_step = g->oh_n > 1 ? pos_at(r, g->ow_n, 0) - p0 : 0;
  int64_t taps = K / g->c;
  g->dw = taps > 1 ? pos_at(r, 0, g->c) - p0 : 0;
  g->kw_n = taps;
  for (int64_t t = 2; t < taps && g->kw_n == taps; ++t)
    if (pos_at(r, 0, t * g->c) - p0 != t * g->dw)
      g->kw_n = t;
  if (taps % g->kw_n != 0 || g->dw < 0)
    return "a-not-a-window";
  g->kh_n = taps / g->kw_n;
  *tap_row_step = g->kh_n > 1 ? pos_at(r, 0, g->kw_n * g->c) - p0 : 0;
  return NULL;
}

/* Whether row length wp explains the steps and keeps every window inside a row. */
static bool fits_rows(CuWindow *g, int64_t wp, int64_t p0, int64_t row_step, int64_t tap_row_step) {
  if (row_step % wp != 0 || tap_row_step % wp != 0 || p0 < 0)
    return false;
  g->wp = wp;
  g->sh = g->oh_n > 1 ? row_step / wp : 1;
  g->dh = tap_row_step / wp;
  g->h0 = p0 / wp;
  g->w0 = p0 % wp;
  return g->sh >= 1 && g->sh <= 8 && g->dh >= 0 && g->w0 + (g->ow_n - 1) * g->sw + (g->kw_n - 1) * g->dw < wp;
}

/* Every point of the (m, k) domain reads what the window geometry says. */
static bool check_all(Reader *r, int64_t M, int64_t K, const CuWindow *g) {
  for (int64_t m = 0; m < M; ++m) {
    int64_t oh = m / g->ow_n, ow = m % g->ow_n;
    for (int64_t k = 0; k < K; ++k) {
      int64_t t = k / g->c, kh = t / g->kw_n, kw = t % g->kw_n;
      int64_t want = (g->h0 + oh * g->sh + kh * g->dh) * g->wp + g->w0 + ow * g->sw + kw * g->dw;
      if (pos_at(r, m, k) != want || braze_affine_run(&r->chan, r->dims) != k % g->c)
        return false;
    }
  }
  return true;
}

/* A tile's 128 rows as bn x bh x bw output pixels: bw the smallest power of two covering
 * a row of output pixels (at most 128), bh the rest, and when bh rows cover the image
 * with rows to spare, bn images of the smallest power of two of rows covering it
 * (ResNet's 7x7 images: 2 x 8 x 8, 98 of 128 rows real, not 49); the TMA box spans
 * bn images of bh sh x bw sw input elements. */
static const char *choose_tile(CuWindow *g) {
  g->bw = 1;
  while (g->bw < g->ow_n && g->bw < 128)
    g->bw *= 2;
  g->bh = 128 / g->bw;
  g->bn = 1;
  while (g->bh > 1 && g->bh / 2 >= g->oh_n) {
    g->bh /= 2;
    g->bn *= 2;
  }
  if (g->bw * g->sw > 256 || g->bh * g->sh > 256) /* TMA's box extents are at most 256 */
    return "window-box-too-large";
  g->tiles_w = (g->ow_n + g->bw - 1) / g->bw;
  g->tiles_h = (g->oh_n + g->bh - 1) / g->bh;
  return NULL;
}

/* A as a zero pad of x (K->pad: x [n, H W, c] padded to the window's [n, hp wp, c]):
 * the boxes read x itself, TMA filling the border with zeros, when the pad is a
 * rectangle: x's H x W image at rows [pt, pt + H) and columns [pl, pl + W) of the
 * padded hp x wp one, every other position padding. Then the tensor map is x's
 * [n][H][W][c] and the window's origin moves up and left by (pt, pl): a box reaching
 * into the padding starts at negative coordinates or ends past x, both zero-filled. */
static const char *pad_origin(const CuKernel *K, CuWindow *g) {
  const BrazeZeroPad *z = &K->pad;
  if (z->batch != g->n || z->channels != g->c || z->padded != g->hp * g->wp)
    return "pad-not-the-window-input";
  int64_t first = 0;
  while (first < z->padded && z->table[first] < 0)
    ++first;
  if (first == z->padded || z->table[first] != 0)
    return "pad-not-a-rectangle";
  int64_t pt = first / g->wp, pl = first % g->wp, width = 0;
  while (pl + width < g->wp && z->table[first + width] == width)
    ++width;
  if (z->inner % width != 0)
    return "pad-not-a-rectangle";
  int64_t height = z->inner / width;
  for (int64_t q = 0; q < z->padded; ++q) {
    int64_t h = q / g->wp - pt, x = q % g->wp - pl;
    bool inside = h >= 0 && h < height && x >= 0 && x < width;
    if (z->table[q] != (inside ? h * width + x : -1))
      return "pad-not-a-rectangle";
  }
  g->hp = height;
  g->wp = width;
  g->h0 -= pt;
  g->w0 -= pl;
  return NULL;
}

static const char *plan(const CuKernel *K, CuWgmma *w, Reader *r, CuWindow *g) {
  const CuItem *c = &K->items[0];
  MlirAffineMap map = c->maps[0];
  MlirType at = mlirValueGetType(K->vals[c->in_val[0]].tensor);
  intptr_t rank = mlirShapedTypeGetRank(at);
  if (rank < 3 || mlirAffineMapGetNumResults(map) != rank || !dims_apart(map, w))
    return "a-not-m-by-k-row-major"; /* transposed, broadcast, or not a window */
  g->n = mlirShapedTypeGetDimSize(at, 0);
  g->c = mlirShapedTypeGetDimSize(at, rank - 1);
  if (g->c % 64 != 0 || w->k % g->c != 0) /* a k step of 64 stays in one tap */
    return "window-channels-not-a-multiple-of-64";
  if (w->m * w->k > MAX_POINTS)
    return "window-too-large-to-check";
  if (!batch_is_image(map, K, w, g->n))
    return "window-batch-not-the-image";
  int64_t positions, row_step, tap_row_step;
  if (!compile_reader(map, at, r, &positions))
    return "out-of-memory";
  const char *why = derive(r, w->m, w->k, g, &row_step, &tap_row_step);
  if (why)
    return why;
  int64_t p0 = pos_at(r, 0, 0);
  int tried = 0;
  for (int64_t wp = 1; wp <= positions && tried < MAX_ROW_CANDIDATES; ++wp) {
    if (positions % wp != 0 || !fits_rows(g, wp, p0, row_step, tap_row_step))
      continue;
    ++tried;
    g->hp = positions / wp;
    if (!check_all(r, w->m, w->k, g))
      continue;
    const char *why = cu_a_is_pad(K) ? pad_origin(K, g) : NULL;
    return why ? why : choose_tile(g);
  }
  return "a-not-a-window";
}

bool cu_window_plan(const CuKernel *K, CuWgmma *w, const char **reason) {
  Reader r = {.dim_m = w->dim_m, .dim_k = w->dim_k};
  CuWindow g = {0};
  const char *why = plan(K, w, &r, &g);
  braze_affine_program_free(&r.pos);
  braze_affine_program_free(&r.chan);
  if (why) {
    *reason = why;
    return false;
  }
  g.on = true;
  w->window = g;
  return true;
}
