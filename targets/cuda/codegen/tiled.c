/* cuda-codegen, tiled element kernels: an element kernel whose one result reads its
 * major input transposed. One thread per result element, consecutive threads along
 * the result's last dim, makes the stores coalesced but the loads not when the input
 * is far apart along that dim: R1's conv weights, [oc][c][kh][kw] read as the
 * template's B [(kh kw c)][oc], put consecutive oc 9 c elements apart, so every lane
 * of a warp loads its own 32-byte sector for 2 bytes (0.017 ms for a 4.7 MB weight on
 * an H100, 0.55 TB/s).
 *
 * The tiled form evaluates the result in CU_TILE x CU_TILE tiles of two of its dims:
 * the load dim, the one along which the input moves least (within a sector), and the
 * store dim, the last. A block of CU_TILE_ROWS x CU_TILE threads
 *   1. evaluates the tile with consecutive threads along the load dim (cu_eval: the
 *      input's loads, casts, any pointwise body) into shared memory [store][load + 1]
 *      (the padding column keeps a warp's column reads on distinct banks),
 *   2. waits at a barrier,
 *   3. stores the tile with consecutive threads along the store dim.
 * Each block owns one tile of the two dims at one index of the others; the M/N edges
 * are guarded. The choice reads the input's address steps at the origin
 * (cu_input_steps): a heuristic of where the input is near-contiguous; correctness does
 * not depend on it, since both passes evaluate exact points. */
#include "targets/cuda/codegen/codegen.h"

#include <stdlib.h>

#include "mlir-c/BuiltinTypes.h"

enum { SECTOR_BYTES = 32 };

/* The input of `it` read from a kernel argument with the most elements, or -1. */
static int major_input(const CuKernel *K, const CuItem *it) {
  int best = -1;
  int64_t most = 0;
  for (int in = 0; in < it->n_in; ++in) {
    const CuVal *v = &K->vals[it->in_val[in]];
    if (v->kind == CV_ARG && cu_elements(v->tensor) > most) {
      most = cu_elements(v->tensor);
      best = in;
    }
  }
  return best;
}

/* The dim (not `last`) along which the input moves least, within a sector, or -1. */
static int load_dim_of(const CuItem *it, const int64_t *steps, int64_t bytes, int last) {
  int best = -1;
  for (int d = 0; d < last; ++d) {
    int64_t step = llabs(steps[d]);
    if (it->ext[d] < CU_TILE / 2 || step == 0 || step * bytes >= SECTOR_BYTES)
      continue;
    if (best < 0 || step < llabs(steps[best]))
      best = d;
  }
  return best;
}

void cu_choose_tiled(CuKernel *K) {
  K->tiled.on = false;
  if (!K->opts->transpose_tiles || K->shape != CU_ELEMENT || K->n_out != 1)
    return;
  const CuVal *out = &K->vals[K->out_val[0]];
  if (out->kind != CV_ITEM)
    return;
  const CuItem *it = &K->items[out->item];
  int rank = it->n_dims, last = rank - 1;
  MlirType result = mlirValueGetType(out->tensor), elem = mlirShapedTypeGetElementType(result);
  if (rank < 2 || it->reduction || mlirShapedTypeGetRank(result) != rank ||
      (mlirTypeIsAInteger(elem) && mlirIntegerTypeGetWidth(elem) == 1) || /* i1: no shared-memory buffer of bits */
      !mlirAffineMapIsIdentity(it->maps[it->n_in]) || it->ext[last] < CU_TILE / 2)
    return;
  int major = major_input(K, it);
  int64_t steps[CU_MAX_DIMS];
  if (major < 0 || !cu_input_steps(K, it, major, steps))
    return;
  int64_t bytes = cg_elem_bytes(mlirShapedTypeGetElementType(mlirValueGetType(K->vals[it->in_val[major]].tensor)));
  if (llabs(steps[last]) * bytes < SECTOR_BYTES) /* the plain form's loads already share sectors */
    return;
  int load = load_dim_of(it, steps, bytes, last);
  if (load < 0)
    return;
  CuTiled t = {.on = true, .load_dim = load, .store_dim = last};
  int64_t blocks = 1;
  for (int d = 0; d < rank; ++d) {
    t.tiles[d] = d == load || d == last ? (it->ext[d] + CU_TILE - 1) / CU_TILE : it->ext[d];
    blocks *= t.tiles[d];
  }
  if (blocks > 0x7fffffff)
    return;
  K->tiled = t;
  K->vec = 1;
  K->block = CU_TILE * CU_TILE_ROWS;
  K->grid[0] = blocks;
  K->grid[1] = K->grid[2] = 1;
}

static MlirValue add_index(CgBuilder *b, MlirValue x, int64_t c) { return cu_arith(b, "arith.addi", x, cg_index(b, c)); }

static MlirValue mul_add(CgBuilder *b, MlirValue x, int64_t c, MlirValue y) {
  return cu_arith(b, "arith.addi", cu_arith(b, "arith.muli", x, cg_index(b, c)), y);
}

/* One pass over the block's tile: CU_TILE / CU_TILE_ROWS rows of CU_TILE lanes. The
 * load pass runs its lanes along the load dim, evaluating the result into `buf`; the
 * store pass runs them along the store dim, storing from `buf`. buf[s][l] holds the
 * element at store-dim offset s and load-dim offset l of the tile. */
static void tile_pass(CuKernel *K, CgBuilder *b, const MlirValue *tile, MlirValue tx, MlirValue ty, MlirValue buf,
                      bool load) {
  const CuItem *it = &K->items[K->vals[K->out_val[0]].item];
  int ld = K->tiled.load_dim, sd = K->tiled.store_dim;
  int lane_dim = load ? ld : sd, row_dim = load ? sd : ld;
  bool edges = it->ext[ld] % CU_TILE || it->ext[sd] % CU_TILE;
  for (int i = 0; i < CU_TILE / CU_TILE_ROWS && !K->failed; ++i) {
    MlirValue row = add_index(b, ty, (int64_t)i * CU_TILE_ROWS);
    CuPoint p = {.n = it->n_dims, .vec = 1};
    for (int d = 0; d < it->n_dims; ++d)
      p.idx[d] = tile[d];
    p.idx[lane_dim] = mul_add(b, tile[lane_dim], CU_TILE, tx);
    p.idx[row_dim] = mul_add(b, tile[row_dim], CU_TILE, row);
    for (int d = 0; d < it->n_dims; ++d)
      p.idx0[d] = p.idx[d];
    MlirValue slot = load ? mul_add(b, row, CU_TILE + 1, tx) : mul_add(b, tx, CU_TILE + 1, row);
    CgBuilder body = *b, else_b;
    if (edges) {
      MlirValue in_lane = cu_cmp_ult(b, p.idx[lane_dim], cg_index(b, it->ext[lane_dim]));
      MlirValue in_row = cu_cmp_ult(b, p.idx[row_dim], cg_index(b, it->ext[row_dim]));
      cg_if(b, cu_arith(b, "arith.andi", in_lane, in_row), &body, &else_b);
    }
    int mark = cu_scope_open(K);
    if (load) {
      MlirValue v = cu_eval(K, &body, K->out_val[0], &p);
      if (!K->failed)
        cg_store(&body, v, buf, 1, &slot);
    } else {
      MlirValue v = cg_load(&body, buf, 1, &slot);
      cu_store_result(K, &body, 0, &p, &v);
    }
    cu_scope_close(K, mark);
  }
}

bool cu_emit_tiled(CuKernel *K) {
  CgBuilder *b = &K->fb;
  const CuVal *out = &K->vals[K->out_val[0]];
  const CuItem *it = &K->items[out->item];
  MlirValue tile[CU_MAX_DIMS];
  cu_delinearize(b, K->bid, it->n_dims, K->tiled.tiles, tile);
  MlirValue tx = cu_arith(b, "arith.remui", K->tid, cg_index(b, CU_TILE));
  MlirValue ty = cu_arith(b, "arith.divui", K->tid, cg_index(b, CU_TILE));
  MlirValue buf = cu_workgroup_buffer(K, cu_compute_type(mlirShapedTypeGetElementType(mlirValueGetType(out->tensor))),
                                      (int64_t)CU_TILE * (CU_TILE + 1));
  tile_pass(K, b, tile, tx, ty, buf, true);
  cu_barrier(b);
  tile_pass(K, b, tile, tx, ty, buf, false);
  return !K->failed;
}
