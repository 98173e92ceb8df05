/* cuda-codegen, row and element kernels.
 *
 * Row kernels: block b computes outer index b (the rows of a softmax, a layer_norm);
 * its threads split every generic's inner space into `vec`-wide vectors, vector v of
 * chunk c going to thread v - c * block. A reduction accumulates its thread's share,
 * then the block combines: xor shuffles within each warp, one partial per warp through
 * shared memory, shuffles again over the whole warp; every thread ends with the row value. When a thread's
 * share is at most `max-regs` elements the chunks are unrolled and everything a thread
 * loads or computes stays in registers across the generics (x is read once: the
 * persistent reduction); otherwise each generic loops over its chunks and re-reads.
 *
 * Element kernels: thread t computes `vec` consecutive elements of the output space
 * (all results share it); reductions in them are serial loops per element. */
#include "targets/cuda/codegen/codegen.h"

#include <stdlib.h>
#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "support/context.h"

/* ---- block reduction ---- */

/* NVVM shuffles 32-bit values (64-bit ones are split by the lowering); a narrower
 * integer (i8) travels zero-extended to i32 and is truncated back: the bits survive. */
static MlirValue shuffle_xor(CgBuilder *b, MlirValue v, int offset, int width) {
  MlirType i32 = mlirIntegerTypeGet(b->ctx, 32), type = mlirValueGetType(v);
  bool narrow = mlirTypeIsAInteger(type) && mlirIntegerTypeGetWidth(type) < 32;
  MlirValue value = narrow ? cg_op(b, "arith.extui", i32, 1, &v) : v;
  MlirValue ops[3] = {value, cg_constant(b, mlirIntegerAttrGet(i32, offset)), cg_constant(b, mlirIntegerAttrGet(i32, width))};
  MlirType results[2] = {mlirValueGetType(value), mlirIntegerTypeGet(b->ctx, 1)};
  MlirNamedAttribute mode = cg_named(b->ctx, "mode", cg_parse_attr(b->ctx, "#gpu<shuffle_mode xor>"));
  MlirValue shuffled = mlirOperationGetResult(cg_create(b, "gpu.shuffle", 3, ops, 2, results, 1, &mode), 0);
  return narrow ? cg_op(b, "arith.trunci", type, 1, &shuffled) : shuffled;
}

static MlirValue warp_reduce(CuKernel *K, CgBuilder *b, const CuItem *it, MlirValue v, int lanes) {
  for (int offset = lanes / 2; offset >= 1; offset /= 2)
    v = cu_combine(K, b, it, v, shuffle_xor(b, v, offset, K->opts->warp));
  return v;
}

static MlirValue block_reduce(CuKernel *K, CgBuilder *b, const CuItem *it, MlirValue v) {
  int w = K->opts->warp;
  if (K->block <= w)
    return warp_reduce(K, b, it, v, K->block);
  v = warp_reduce(K, b, it, v, w);
  int warps = K->block / w;
  MlirValue partials = cu_workgroup_buffer(K, mlirValueGetType(v), warps);
  MlirValue cw = cg_index(b, w);
  MlirValue lane = cu_arith(b, "arith.remui", K->tid, cw), warp = cu_arith(b, "arith.divui", K->tid, cw);
  CgBuilder then_b, else_b;
  cg_if(b, cu_cmp_ult(b, lane, cg_index(b, 1)), &then_b, &else_b);
  cg_store(&then_b, v, partials, 1, &warp);
  cu_barrier(b);
  MlirValue slot = cu_arith(b, "arith.minui", lane, cg_index(b, warps - 1));
  MlirValue x = cg_load(b, partials, 1, &slot);
  x = cu_select(b, cu_cmp_ult(b, lane, cg_index(b, warps)), x, cu_identity(K, b, it));
  /* over all lanes (identities beyond `warps`), so that every thread gets the total */
  return warp_reduce(K, b, it, x, w);
}

/* The `vec` lanes of a run starting at p0->idx along the last index: p0 becomes lane
 * 0's point (idx0 = idx), points[l] lane l's (the last index plus l). */
void cu_lane_points(CgBuilder *b, CuPoint *p0, CuPoint *points) {
  memcpy(p0->idx0, p0->idx, sizeof p0->idx);
  for (int l = 0; l < p0->vec; ++l) {
    points[l] = *p0;
    points[l].lane = l;
    if (l > 0)
      points[l].idx[p0->n - 1] = cu_arith(b, "arith.addi", p0->idx[p0->n - 1], cg_index(b, l));
  }
}

/* ---- chunks of a row generic's inner space ---- */

typedef struct {
  int k, n_inner;
  int64_t inner_ext[CU_MAX_DIMS];
  int64_t vectors; /* inner elements / vec */
  int chunks;
  bool guard; /* vectors is not a multiple of the block */
  MlirValue outer[CU_MAX_DIMS];
} RowSpace;

static RowSpace row_space(CuKernel *K, const CuItem *it, const MlirValue *outer) {
  RowSpace s = {.k = K->k, .n_inner = it->n_dims - K->k};
  int64_t inner = 1;
  for (int d = 0; d < s.n_inner; ++d) {
    s.inner_ext[d] = it->ext[K->k + d];
    inner *= s.inner_ext[d];
  }
  s.vectors = inner / K->vec;
  s.chunks = (int)((s.vectors + K->block - 1) / K->block);
  s.guard = s.vectors % K->block != 0;
  memcpy(s.outer, outer, sizeof s.outer);
  return s;
}

/* The lanes of chunk `c` (an index value): points[l] and whether the chunk is in range. */
static MlirValue chunk_points(CuKernel *K, CgBuilder *b, const RowSpace *s, MlirValue c, CuPoint *points) {
  MlirValue v = cu_arith(b, "arith.addi", cu_arith(b, "arith.muli", c, cg_index(b, K->block)), K->tid);
  MlirValue in_range = {NULL};
  if (s->guard) {
    in_range = cu_cmp_ult(b, v, cg_index(b, s->vectors));
    v = cu_arith(b, "arith.minui", v, cg_index(b, s->vectors - 1)); /* loads stay in bounds */
  }
  MlirValue j0 = K->vec > 1 ? cu_arith(b, "arith.muli", v, cg_index(b, K->vec)) : v;
  CuPoint p0 = {.n = s->k + s->n_inner, .vec = K->vec};
  memcpy(p0.idx, s->outer, (size_t)s->k * sizeof *p0.idx);
  cu_delinearize(b, j0, s->n_inner, s->inner_ext, p0.idx + s->k);
  cu_lane_points(b, &p0, points);
  return in_range;
}

/* Unrolled chunks share their points across generics of the same inner space, so the
 * memo finds what an earlier generic loaded (same index values). */
typedef struct {
  int64_t key[CU_MAX_DIMS + 2];
  int c;
  CuPoint points[16];
  MlirValue in_range;
} PointCache;

typedef struct {
  PointCache *items;
  int n;
} PointCaches;

static const PointCache *cached_points(CuKernel *K, CgBuilder *b, PointCaches *pc, const RowSpace *s, int c) {
  int64_t key[CU_MAX_DIMS + 2] = {s->n_inner, s->vectors};
  memcpy(key + 2, s->inner_ext, (size_t)s->n_inner * sizeof *key);
  for (int i = 0; i < pc->n; ++i)
    if (pc->items[i].c == c && memcmp(pc->items[i].key, key, sizeof key) == 0)
      return &pc->items[i];
  pc->items = realloc(pc->items, (size_t)(pc->n + 1) * sizeof *pc->items);
  PointCache *e = &pc->items[pc->n++];
  memcpy(e->key, key, sizeof key);
  e->c = c;
  e->in_range = chunk_points(K, b, s, cg_index(b, c), e->points);
  return e;
}

/* ---- one generic of a row kernel ---- */

typedef struct {
  CuItem *it;
  MlirValue acc; /* reductions */
} RowPass;

/* The generic's work on the lanes of one chunk at b. */
static void chunk_work(CuKernel *K, CgBuilder *b, RowPass *rp, const CuPoint *points, MlirValue in_range) {
  CuItem *it = rp->it;
  if (it->reduction) {
    for (int l = 0; l < K->vec && !K->failed; ++l) {
      MlirValue next = cu_eval_generic(K, b, it, &points[l], rp->acc);
      rp->acc = mlirValueIsNull(in_range) || K->failed ? next : cu_select(b, in_range, next, rp->acc);
    }
    return;
  }
  MlirValue lanes[16];
  for (int l = 0; l < K->vec && !K->failed; ++l)
    lanes[l] = cu_eval(K, b, it->out_val, &points[l]);
  if (K->failed)
    return;
  if (mlirValueIsNull(in_range)) {
    cu_store(K, b, it->out_val, &points[0], lanes);
  } else {
    CgBuilder then_b, else_b;
    cg_if(b, in_range, &then_b, &else_b);
    cu_store(K, &then_b, it->out_val, &points[0], lanes);
  }
}

static void row_pass(CuKernel *K, CgBuilder *b, RowPass *rp, const RowSpace *s, PointCaches *pc) {
  if (K->unrolled) {
    for (int c = 0; c < s->chunks && !K->failed; ++c) {
      const PointCache *e = cached_points(K, b, pc, s, c);
      chunk_work(K, b, rp, e->points, e->in_range);
    }
    return;
  }
  bool carry = rp->it->reduction;
  CgBuilder body;
  MlirValue c, iter;
  MlirOperation loop = cg_for(b, cg_index(b, 0), cg_index(b, s->chunks), carry ? 1 : 0, &rp->acc, &body, &c, &iter);
  if (carry)
    rp->acc = iter;
  int mark = cu_scope_open(K);
  CuPoint points[16];
  MlirValue in_range = chunk_points(K, &body, s, c, points);
  chunk_work(K, &body, rp, points, in_range);
  cu_scope_close(K, mark);
  cg_yield(&body, carry ? 1 : 0, &rp->acc);
  if (carry)
    rp->acc = mlirOperationGetResult(loop, 0);
}

static void row_reduction(CuKernel *K, CgBuilder *b, CuItem *it, const MlirValue *outer, PointCaches *pc) {
  RowSpace s = row_space(K, it, outer);
  RowPass rp = {.it = it, .acc = cu_identity(K, b, it)};
  row_pass(K, b, &rp, &s, pc);
  if (K->failed)
    return;
  MlirValue total = block_reduce(K, b, it, rp.acc);
  /* the output point: the outer dims, reduced dims at 0 */
  CuPoint dims = {.n = it->n_dims, .vec = 1};
  for (int d = 0; d < it->n_dims; ++d)
    dims.idx[d] = d < K->k ? outer[d] : cg_index(b, 0);
  CuPoint at = cu_input_point(b, it, it->n_in, &dims);
  it->row_value = cu_finish_reduction(K, b, it, &at, total);
  if (K->failed)
    return;
  if (K->vals[it->out_val].out_index >= 0) {
    CgBuilder then_b, else_b;
    cg_if(b, cu_cmp_ult(b, K->tid, cg_index(b, 1)), &then_b, &else_b);
    cu_store(K, &then_b, it->out_val, &at, &it->row_value);
  }
}

bool cu_emit_row(CuKernel *K) {
  CgBuilder *b = &K->fb;
  MlirValue outer[CU_MAX_DIMS];
  cu_delinearize(b, K->bid, K->k, K->items[0].ext, outer);
  PointCaches pc = {0};
  for (int i = 0; i < K->n_items && !K->failed; ++i) {
    CuItem *it = &K->items[i];
    if (it->reduction) {
      row_reduction(K, b, it, outer, &pc);
    } else if (K->vals[it->out_val].out_index >= 0) {
      RowSpace s = row_space(K, it, outer);
      RowPass rp = {.it = it};
      row_pass(K, b, &rp, &s, &pc);
    }
  }
  free(pc.items);
  return !K->failed;
}

/* ---- element kernels ---- */

/* One store of an element kernel: value `val` over its own shape, written to result
 * `out` at `offset` (a concat piece; zeros otherwise). */
typedef struct {
  int val, out;
  const int64_t *offset;
} ElementStore;

static int element_stores(const CuKernel *K, ElementStore *stores) {
  static const int64_t zeros[CU_MAX_DIMS] = {0};
  int n = 0;
  for (int r = 0; r < K->n_out; ++r) {
    int v = K->out_val[r];
    if (K->vals[v].kind != CV_INSERT)
      stores[n++] = (ElementStore){v, r, zeros};
    for (; K->vals[v].kind == CV_INSERT; v = K->vals[v].dest)
      stores[n++] = (ElementStore){K->vals[v].src, r, K->vals[v].offset};
  }
  return n;
}

static bool same_shape(MlirType a, MlirType b) {
  if (mlirShapedTypeGetRank(a) != mlirShapedTypeGetRank(b))
    return false;
  for (intptr_t d = 0; d < mlirShapedTypeGetRank(a); ++d)
    if (mlirShapedTypeGetDimSize(a, d) != mlirShapedTypeGetDimSize(b, d))
      return false;
  return true;
}

/* The stores whose values share stores[first]'s shape, at flat index flat0 (guarded
 * when the grid covers more than the shape). */
static void element_group(CuKernel *K, CgBuilder *b, const ElementStore *stores, int n, int first, bool *done,
                          MlirValue flat0) {
  MlirType shape = mlirValueGetType(K->vals[stores[first].val].tensor);
  int rank = (int)mlirShapedTypeGetRank(shape);
  int64_t ext[CU_MAX_DIMS], total = cg_num_elements(shape);
  for (int d = 0; d < rank; ++d)
    ext[d] = mlirShapedTypeGetDimSize(shape, d);
  CgBuilder body = *b, else_b;
  if (total != K->grid[0] * K->block * K->vec)
    cg_if(b, cu_cmp_ult(b, flat0, cg_index(b, total)), &body, &else_b);
  CuPoint points[16], p0 = {.n = rank, .vec = K->vec};
  cu_delinearize(&body, flat0, rank, ext, p0.idx);
  cu_lane_points(&body, &p0, points);
  int mark = cu_scope_open(K);
  for (int s = first; s < n && !K->failed; ++s) {
    if (done[s] || !same_shape(shape, mlirValueGetType(K->vals[stores[s].val].tensor)))
      continue;
    done[s] = true;
    MlirValue lanes[16];
    for (int l = 0; l < K->vec && !K->failed; ++l)
      lanes[l] = cu_eval(K, &body, stores[s].val, &points[l]);
    if (K->failed)
      break;
    CuPoint at = p0; /* the result's index: the piece's plus its offset */
    for (int d = 0; d < rank; ++d)
      if (stores[s].offset[d]) {
        at.idx[d] = cu_arith(&body, "arith.addi", at.idx[d], cg_index(&body, stores[s].offset[d]));
        at.idx0[d] = at.idx[d];
      }
    cu_store_result(K, &body, stores[s].out, &at, lanes);
  }
  cu_scope_close(K, mark);
}

bool cu_emit_element(CuKernel *K) {
  CgBuilder *b = &K->fb;
  ElementStore stores[CU_MAX_INPUTS * 8];
  int n = element_stores(K, stores);
  bool done[CU_MAX_INPUTS * 8] = {false};
  MlirValue thread = cu_arith(b, "arith.addi", cu_arith(b, "arith.muli", K->bid, cg_index(b, K->block)), K->tid);
  MlirValue flat0 = K->vec > 1 ? cu_arith(b, "arith.muli", thread, cg_index(b, K->vec)) : thread;
  for (int s = 0; s < n && !K->failed; ++s)
    if (!done[s])
      element_group(K, b, stores, n, s, done, flat0);
  return !K->failed;
}
