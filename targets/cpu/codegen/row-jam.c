/* cpu-codegen, row jamming: phases whose rows reduce into registers take several rows
 * per parallel step (the cpu-codegen option row-jam; see the comment below). */
#include <string.h>

#include "targets/cpu/codegen/loop-nests.h"

/* ---- jammed phases ----
 * One row's register reduction is a dependency chain: the vectorizer keeps a few
 * vector accumulators, so a 1024-wide f32 sum is ~16 dependent adds per accumulator,
 * and the next phase of the row waits for it. A phase whose rows reduce into
 * registers therefore takes J rows per parallel step (rows i*J+u, u < J) and emits
 * each such reduction nest once, carrying J accumulators with the body cloned per
 * row: J independent chains in one loop, which the CPU overlaps. Other items of the
 * phase run once per row, one after another. The per-row storage of the phase's
 * values (registers, row buffers) lives in CgVal.jam_scalar / jam_mem; jam_select
 * swaps row u's in before its code is emitted, jam_save keeps what that produced. */

static bool in_phase(const CgKernel *K, const CgVal *v, int p) {
  return v->producer >= 0 && K->items[v->producer].phase == p;
}

static void jam_select(CgKernel *K, int p, int u) {
  for (int i = 0; i < K->n_vals; ++i) {
    CgVal *v = &K->vals[i];
    if (in_phase(K, v, p) && v->kind == ST_SCALAR)
      v->scalar = v->jam_scalar[u];
    else if (in_phase(K, v, p) && v->kind == ST_ROW)
      v->mem = v->jam_mem[u];
  }
}

static void jam_save(CgKernel *K, int p, int u) {
  for (int i = 0; i < K->n_vals; ++i) {
    CgVal *v = &K->vals[i];
    if (in_phase(K, v, p)) {
      v->jam_scalar[u] = v->scalar;
      v->jam_mem[u] = v->mem;
    }
  }
}

/* A reduction into a register with no loop of its own besides the reduction dims. */
static bool jammable(const CgKernel *K, const CgItem *it) {
  return it->kind == IT_GENERIC && it->scalar_mode && K->vals[it->out_val].kind == ST_SCALAR;
}

int cg_phase_jam(const CgKernel *K, const CgPhase *ph) {
  int jam = (int)K->opts->row_jam;
  if (ph->k == 0 || jam <= 1 || ph->ext[ph->k - 1] % jam != 0 || cg_phase_chunkable(K, ph))
    return 1;
  for (int i = ph->first; i <= ph->last; ++i)
    if (jammable(K, &K->items[i]))
      return jam;
  return 1;
}

static bool any_failed(const Gen *g, int jam) {
  for (int u = 0; u < jam; ++u)
    if (g[u].failed)
      return true;
  return false;
}

static void jam_reduce_loops(int p, Gen *g, int jam, CgBuilder *b, int d, const MlirValue *acc, MlirValue *res);

/* One loop over [lb, ub) of dim d carrying every row's accumulator. */
static void jam_reduce_range(int p, Gen *g, int jam, CgBuilder *b, int d, MlirValue lb, MlirValue ub,
                             const MlirValue *acc, MlirValue *res) {
  CgBuilder body;
  MlirValue iv, iter[CG_MAX_JAM], inner[CG_MAX_JAM] = {{NULL}};
  MlirOperation f = cg_for(b, lb, ub, jam, acc, &body, &iv, iter);
  for (int u = 0; u < jam; ++u) {
    jam_select(g[0].K, p, u);
    cg_bind(&g[u], &body, d, iv);
  }
  jam_reduce_loops(p, g, jam, &body, d + 1, iter, inner);
  for (int u = 0; u < jam; ++u) {
    if (mlirValueIsNull(inner[u]))
      inner[u] = iter[u]; /* keep the IR well-formed; the error is already reported */
    res[u] = mlirOperationGetResult(f, u);
  }
  cg_yield(&body, jam, inner);
}

/* Reduction loops d..n-1 for all rows at once; res[u] = row u's final value. */
static void jam_reduce_loops(int p, Gen *g, int jam, CgBuilder *b, int d, const MlirValue *acc, MlirValue *res) {
  const CgItem *it = g[0].it;
  CgKernel *K = g[0].K;
  if (d == it->n_dims) {
    for (int u = 0; u < jam && !any_failed(g, jam); ++u) {
      jam_select(K, p, u);
      cg_load_ready(&g[u], b);
      res[u] = cg_clone_body(&g[u], b, acc[u]);
    }
    return;
  }
  if (it->ext[d] == 1) {
    for (int u = 0; u < jam; ++u) {
      jam_select(K, p, u);
      cg_bind(&g[u], b, d, cg_index(b, 0));
    }
    jam_reduce_loops(p, g, jam, b, d + 1, acc, res);
    return;
  }
  /* Row 0's peel serves all rows: any split point is correct, and rows whose byte
   * stride is a multiple of 64 (1024 f32) share their alignment. */
  MlirValue peel = cg_peel_count(&g[0], b, d), head[CG_MAX_JAM] = {{NULL}};
  if (mlirValueIsNull(peel)) {
    jam_reduce_range(p, g, jam, b, d, cg_index(b, 0), cg_index(b, it->ext[d]), acc, res);
    return;
  }
  jam_reduce_range(p, g, jam, b, d, cg_index(b, 0), peel, acc, head);
  for (int u = 0; u < jam; ++u)
    cg_reload_along(&g[u], d);
  jam_reduce_range(p, g, jam, b, d, peel, cg_index(b, it->ext[d]), head, res);
}

static bool emit_jammed_reduction(CgKernel *K, int p, CgItem *it, CgBuilder *b, MlirValue (*outer)[CG_MAX_DIMS],
                                  int jam) {
  int k = K->phases[p].k;
  Gen g[CG_MAX_JAM];
  MlirValue init[CG_MAX_JAM] = {{NULL}}, res[CG_MAX_JAM] = {{NULL}};
  for (int u = 0; u < jam; ++u) {
    g[u] = (Gen){.K = K, .it = it, .k = k, .bound = (1ull << k) - 1};
    memcpy(g[u].ivs, outer[u], (size_t)k * sizeof *g[u].ivs);
    jam_select(K, p, u);
    cg_load_ready(&g[u], b);
    init[u] = cg_init_value(&g[u], b);
    if (mlirValueIsNull(init[u])) {
      cg_gen_error(&g[0], "a reduction's initial value is uninitialized (tensor.empty)");
      return false;
    }
  }
  jam_reduce_loops(p, g, jam, b, k, init, res);
  if (any_failed(g, jam))
    return false;
  for (int u = 0; u < jam; ++u) {
    jam_select(K, p, u);
    cg_store_output(&g[u], b, res[u]);
    jam_save(K, p, u);
  }
  return true;
}

/* Row u of each parallel step: outer[u] = outer[0] with its last dim i*jam+u. */
static void jam_rows(CgBuilder *b, int k, int jam, MlirValue (*outer)[CG_MAX_DIMS]) {
  MlirValue mul[2] = {outer[0][k - 1], cg_index(b, jam)};
  MlirValue base = cg_op(b, "arith.muli", mlirValueGetType(mul[0]), 2, mul);
  for (int u = 0; u < jam; ++u) {
    memcpy(outer[u], outer[0], (size_t)k * sizeof outer[0][0]);
    outer[u][k - 1] = u ? cg_index_add(b, base, u) : base;
  }
}

bool cg_emit_jammed_phase(CgKernel *K, int p, CgBuilder *b, MlirValue (*outer)[CG_MAX_DIMS], int jam) {
  const CgPhase *ph = &K->phases[p];
  jam_rows(b, ph->k, jam, outer);
  for (int u = 0; u < jam; ++u) {
    cg_alloc_row_buffers(K, ph, b);
    jam_save(K, p, u);
  }
  for (int i = ph->first; i <= ph->last; ++i) {
    CgItem *it = &K->items[i];
    if (jammable(K, it)) {
      if (!emit_jammed_reduction(K, p, it, b, outer, jam))
        return false;
      continue;
    }
    for (int u = 0; u < jam; ++u) {
      jam_select(K, p, u);
      if (!cg_emit_generic(K, it, b, outer[u], ph->k))
        return false;
      jam_save(K, p, u);
    }
  }
  return true;
}
