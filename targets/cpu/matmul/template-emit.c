/* cpu-codegen, the matmul template: emission (see matmul.h for the plan).
 *
 *   scf.parallel (batch..., mb, nt)              mb: M blocks of mc rows, nt: N panels of nr columns
 *     %panel = memref.alloca : memref<K x nr x f32>   B[:, nt*nr : +nr] packed, zero-padded, f32
 *     scf.for %t = tiles of mb with mr full rows:     micro-kernel (mr rows)
 *       %acc... = scf.for %k iter_args(mr * nv vectors)  nv = nr / vw
 *         b_v = vector.load %panel[%k, v*vw]; a_i = broadcast(A[m0+i, k]); acc = fma(a_i, b_v, acc)
 *       epilogue on each accumulator vector, then one (masked) store per kernel result
 *     scf.if last block: the same micro-kernel for the M % mr remaining rows
 *
 * Columns past N: the panel holds zeros there, loads/stores of the tile are masked
 * (vector.create_mask clamps) when N is not a multiple of nr. A is read in place:
 * one broadcast load per row and k. Blocks of M split the work only where the panels
 * alone give too few iterations (matmul.c): each block packs its panels again (with
 * mc = 252 instead of all 1024 rows, 1024^3 ran at 295 instead of 365 GFLOP/s).
 * Constant B (a kernel argument bound to a constant in every call, or a constant in
 * the kernel) is packed at compile time instead: a global [batch][NT][K][nr] read
 * directly by the micro-kernel (targets/cpu/matmul/pack.c). */
#include "targets/cpu/matmul/matmul.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "support/context.h"
#include "support/diag.h"
#include "targets/cpu/matmul/internal.h"

enum { TM_K_UNROLL = 1 }; /* k values per iteration of the micro-kernel's loop */

/* ---- small builders ---- */

MlirType tm_vec(TmEmit *E, MlirType elem) {
  int64_t shape[1] = {E->p->vw};
  return mlirVectorTypeGet(1, shape, elem);
}

MlirValue tm_splat(TmEmit *E, CgBuilder *b, MlirType elem, double value) {
  MlirType vt = tm_vec(E, elem);
  MlirAttribute s = mlirFloatAttrDoubleGet(E->p->ctx, elem, value);
  return cg_constant(b, mlirDenseElementsAttrSplatGet(vt, s));
}

/* A loop without results whose body is terminated; *body inserts before the yield. */
MlirValue tm_range(CgBuilder *b, MlirValue lb, MlirValue ub, CgBuilder *body) {
  MlirValue iv;
  cg_for(b, lb, ub, 0, NULL, body, &iv, NULL);
  body->before = cg_create(body, "scf.yield", 0, NULL, 0, NULL, 0, NULL);
  return iv;
}

MlirValue tm_index_op(CgBuilder *b, const char *name, MlirValue x, MlirValue y) {
  MlirValue ops[2] = {x, y};
  return cg_op(b, name, cg_index_type(b->ctx), 2, ops);
}

MlirValue tm_cmp(CgBuilder *b, int predicate, MlirValue x, MlirValue y) {
  MlirValue ops[2] = {x, y};
  MlirNamedAttribute pred = cg_named(b->ctx, "predicate", mlirIntegerAttrGet(mlirIntegerTypeGet(b->ctx, 64), predicate));
  MlirType i1 = mlirIntegerTypeGet(b->ctx, 1);
  return mlirOperationGetResult(cg_create(b, "arith.cmpi", 2, ops, 1, &i1, 1, &pred), 0);
}

/* Indices of a tensor's element under `map` at dims. */
int tm_indices(CgBuilder *b, MlirAffineMap map, const MlirValue *dims, MlirValue *idx) {
  intptr_t n = mlirAffineMapGetNumResults(map);
  for (intptr_t r = 0; r < n; ++r)
    idx[r] = cg_affine(b, mlirAffineMapGetResult(map, r), dims);
  return (int)n;
}

/* vector.create_mask(count): lanes [0, count) on, clamped to [0, vw]. */
MlirValue tm_mask(TmEmit *E, CgBuilder *b, MlirValue count) {
  int64_t shape[1] = {E->p->vw};
  MlirType mt = mlirVectorTypeGet(1, shape, mlirIntegerTypeGet(b->ctx, 1));
  return cg_op(b, "vector.create_mask", mt, 1, &count);
}

/* A vector of `elem` from memref at idx (masked by `mask` unless null; zeros elsewhere). */
MlirValue tm_vload(TmEmit *E, CgBuilder *b, MlirValue mem, int n, const MlirValue *idx, MlirValue mask) {
  MlirType elem = mlirShapedTypeGetElementType(mlirValueGetType(mem));
  MlirType vt = tm_vec(E, elem);
  MlirValue ops[TM_MAX_DIMS + 3];
  ops[0] = mem;
  for (int i = 0; i < n; ++i)
    ops[1 + i] = idx[i];
  if (mlirValueIsNull(mask))
    return cg_op(b, "vector.load", vt, 1 + n, ops);
  ops[1 + n] = mask;
  ops[2 + n] = tm_splat(E, b, elem, 0.0);
  return cg_op(b, "vector.maskedload", vt, 3 + n, ops);
}

void tm_vstore(CgBuilder *b, MlirValue value, MlirValue mem, int n, const MlirValue *idx, MlirValue mask) {
  MlirValue ops[TM_MAX_DIMS + 3];
  if (mlirValueIsNull(mask)) {
    ops[0] = value;
    ops[1] = mem;
    for (int i = 0; i < n; ++i)
      ops[2 + i] = idx[i];
    cg_create(b, "vector.store", 2 + n, ops, 0, NULL, 0, NULL);
    return;
  }
  ops[0] = mem;
  for (int i = 0; i < n; ++i)
    ops[1 + i] = idx[i];
  ops[1 + n] = mask;
  ops[2 + n] = value;
  cg_create(b, "vector.maskedstore", 3 + n, ops, 0, NULL, 0, NULL);
}

/* f16/bf16 scalars and vectors to f32. */
MlirValue tm_to_f32(CgBuilder *b, MlirValue v) {
  MlirType t = mlirValueGetType(v);
  bool vec = mlirTypeIsAVector(t);
  if (mlirTypeIsAF32(vec ? mlirShapedTypeGetElementType(t) : t))
    return v;
  MlirType f32 = mlirF32TypeGet(b->ctx);
  MlirType rt = f32;
  if (vec) {
    int64_t shape[1] = {mlirShapedTypeGetDimSize(t, 0)};
    rt = mlirVectorTypeGet(1, shape, f32);
  }
  return cg_op(b, "arith.extf", rt, 1, &v);
}

/* ---- the kernel ---- */

bool tm_build_signature(TmEmit *E) {
  TmPlan *p = E->p;
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(p->old, 0));
  MlirOperation ret = mlirBlockGetTerminator(body);
  MlirType types[TM_MAX_VALS * 2];
  int n = p->n_in + p->n_out;
  if (n > (int)(sizeof types / sizeof *types))
    return false;
  for (int i = 0; i < n; ++i)
    types[i] = cg_memref_like(mlirValueGetType(i < p->n_in ? mlirBlockGetArgument(body, i)
                                                              : mlirOperationGetOperand(ret, i - p->n_in)));
  E->fn = cg_new_func(p->old, p->n_in, p->n_out, types, &E->entry);
  CgBuilder end = cg_builder_at_end(E->entry, mlirOperationGetLocation(p->old));
  MlirOperation r = cg_create(&end, "func.return", 0, NULL, 0, NULL, 0, NULL);
  E->pool.block = E->entry;
  E->fb = end;
  E->fb.before = r;
  E->fb.pool = &E->pool;
  return true;
}

/* Memrefs and scalars of the arguments and constants, at the function's entry. */
void tm_bind_values(TmEmit *E) {
  TmPlan *p = E->p;
  for (int v = 0; v < p->n_vals; ++v) {
    TmVal *val = &p->vals[v];
    if (val->kind == TV_ARG)
      E->mem[v] = mlirBlockGetArgument(E->entry, val->arg);
    else if (val->kind == TV_GLOBAL && !(p->b_prepacked && v == p->b_val))
      E->mem[v] = cg_global_constant(p->module, &E->fb, val->dense);
    else if (val->kind == TV_SPLAT)
      E->scalar[v] = cg_constant(&E->fb, mlirDenseElementsAttrGetSplatValue(val->dense));
  }
}

/* vw x vw f32 vectors transposed in place by log2(vw) stages of two-source shuffles:
 * stage d (1, 2, 4, ...) swaps bit d of the row index with bit d of the lane index, so
 * row r0 (bit clear) takes lanes with the bit set from row r1 = r0 | d and gives its own
 * to r1. LLVM makes each a vpermt2ps (AVX-512) or vperm2f128/vshufps (AVX2). */
static void transpose_square(CgBuilder *b, int vw, MlirType vt, MlirValue *rows) {
  for (int d = 1; d < vw; d <<= 1)
    for (int r0 = 0; r0 < vw; ++r0) {
      if (r0 & d)
        continue;
      int r1 = r0 | d;
      int64_t m0[64], m1[64];
      for (int c = 0; c < vw; ++c) {
        m0[c] = (c & d) ? vw + (c & ~d) : c;
        m1[c] = (c & d) ? vw + c : (c | d);
      }
      MlirValue src[2] = {rows[r0], rows[r1]};
      MlirNamedAttribute a0 = cg_named(b->ctx, "mask", mlirDenseI64ArrayGet(b->ctx, vw, m0));
      MlirNamedAttribute a1 = cg_named(b->ctx, "mask", mlirDenseI64ArrayGet(b->ctx, vw, m1));
      rows[r0] = mlirOperationGetResult(cg_create(b, "vector.shuffle", 2, src, 1, &vt, 1, &a0), 0);
      rows[r1] = mlirOperationGetResult(cg_create(b, "vector.shuffle", 2, src, 1, &vt, 1, &a1), 0);
    }
}

/* Whether B, read along k (its last index is k alone) where n is not contiguous, packs
 * by squares of vw x vw: K and nr multiples of the vector. */
static bool packs_by_squares(const TmPlan *p, MlirAffineMap b_map) {
  return p->vw <= 64 && (p->vw & (p->vw - 1)) == 0 && p->K % p->vw == 0 && p->nr % p->vw == 0 &&
         tm_contiguous_in(b_map, p->nb + 2);
}

/* B[:, n0 : n0 + nr] into panel[K][nr] by squares: vw rows of B (one per n, vw values
 * along k each; rows past N are zero) loaded, transposed in registers, stored as vw rows
 * of the panel. The element-by-element packing this replaces vectorized into scatters,
 * which cost a fifth of an attention's q k^T kernel on AVX-512. */
static void pack_panel_squares(TmEmit *E, CgBuilder *b, MlirValue *dims, MlirValue n0, MlirValue panel, MlirValue B,
                               MlirAffineMap b_map) {
  TmPlan *p = E->p;
  int dn = p->nb + 1, dk = p->nb + 2, vw = p->vw;
  MlirType vt = tm_vec(E, mlirF32TypeGet(p->ctx));
  CgBuilder kb;
  MlirValue kblock = tm_range(b, cg_index(b, 0), cg_index(b, p->K / vw), &kb);
  MlirValue k0 = tm_index_op(&kb, "arith.muli", kblock, cg_index(&kb, vw));
  MlirValue last = cg_index(&kb, p->N - 1), zero = tm_splat(E, &kb, mlirF32TypeGet(p->ctx), 0.0);
  MlirValue idx[TM_MAX_DIMS], rows[64];
  for (int jb = 0; jb < p->nr / vw; ++jb) {
    for (int i = 0; i < vw; ++i) {
      MlirValue n = jb * vw + i ? cg_index_add(&kb, n0, (int64_t)jb * vw + i) : n0;
      dims[dn] = tm_index_op(&kb, "arith.minui", n, last);
      dims[dk] = k0;
      int nidx = tm_indices(&kb, b_map, dims, idx);
      rows[i] = tm_to_f32(&kb, tm_vload(E, &kb, B, nidx, idx, (MlirValue){NULL}));
      if (p->N % p->nr != 0) {
        MlirValue sel[3] = {tm_cmp(&kb, 7 /* ule */, n, last), rows[i], zero};
        rows[i] = cg_op(&kb, "arith.select", vt, 3, sel);
      }
    }
    transpose_square(&kb, vw, vt, rows);
    for (int i = 0; i < vw; ++i) {
      MlirValue pidx[2] = {i ? cg_index_add(&kb, k0, i) : k0, cg_index(&kb, (int64_t)jb * vw)};
      tm_vstore(&kb, rows[i], panel, 2, pidx, (MlirValue){NULL});
    }
  }
}

/* Pack B[:, n0 : n0 + nr] (batch dims at dims[0..nb)) into panel[K][nr], f32, zero
 * past N: vector loads along n where B is contiguous in n; by squares transposed in
 * registers where it is contiguous in k; else element by element with the k loop inner. */
static void pack_panel(TmEmit *E, CgBuilder *b, MlirValue *dims, MlirValue n0, MlirValue panel, MlirValue B,
                       MlirAffineMap b_map, bool contiguous) {
  TmPlan *p = E->p;
  int dn = p->nb + 1, dk = p->nb + 2;
  MlirValue idx[TM_MAX_DIMS];
  bool masked = p->N % p->nr != 0;
  if (contiguous) {
    CgBuilder kb;
    dims[dk] = tm_range(b, cg_index(b, 0), cg_index(b, p->K), &kb);
    for (int v = 0; v < p->nv; ++v) {
      dims[dn] = cg_index_add(&kb, n0, (int64_t)v * p->vw);
      MlirValue mask = masked ? tm_mask(E, &kb, tm_index_op(&kb, "arith.subi", cg_index(&kb, p->N), dims[dn])) : (MlirValue){NULL};
      int n = tm_indices(&kb, b_map, dims, idx);
      MlirValue vec = tm_to_f32(&kb, tm_vload(E, &kb, B, n, idx, mask));
      MlirValue pidx[2] = {dims[dk], cg_index(&kb, (int64_t)v * p->vw)};
      tm_vstore(&kb, vec, panel, 2, pidx, (MlirValue){NULL});
    }
    return;
  }
  if (packs_by_squares(p, b_map)) {
    pack_panel_squares(E, b, dims, n0, panel, B, b_map);
    return;
  }
  CgBuilder jb, kb;
  MlirValue j = tm_range(b, cg_index(b, 0), cg_index(b, p->nr), &jb);
  MlirValue n = tm_index_op(&jb, "arith.addi", n0, j);
  MlirValue last = cg_index(&jb, p->N - 1);
  MlirValue inside = tm_cmp(&jb, 7 /* ule */, n, last);
  dims[dn] = tm_index_op(&jb, "arith.minui", n, last);
  dims[dk] = tm_range(&jb, cg_index(&jb, 0), cg_index(&jb, p->K), &kb);
  int nidx = tm_indices(&kb, b_map, dims, idx);
  MlirValue x = tm_to_f32(&kb, cg_load(&kb, B, nidx, idx));
  MlirType f32 = mlirF32TypeGet(p->ctx);
  MlirValue sel[3] = {inside, x, cg_constant(&kb, mlirFloatAttrDoubleGet(p->ctx, f32, 0.0))};
  MlirValue y = cg_op(&kb, "arith.select", f32, 3, sel);
  MlirValue pidx[2] = {dims[dk], j};
  cg_store(&kb, y, panel, 2, pidx);
}

/* One k step of the tile at kb: the panel's vectors at k, one broadcast of A per row,
 * the FMAs from acc_in to acc_out. With row_base (runs of A), row i's A is
 * a_flat[row_base[i] + j] instead of A through its map. */
static void k_step(TmEmit *E, CgBuilder *kb, MlirValue *dims, int rows, const MlirValue *rowm, MlirValue k,
                   MlirValue panel, MlirValue panel_base, const MlirValue *acc_in, MlirValue *acc_out,
                   const MlirValue *row_base, const MlirValue *row_mem, MlirValue j) {
  TmPlan *p = E->p;
  int nv = p->nv;
  MlirType vf32 = tm_vec(E, mlirF32TypeGet(p->ctx));
  MlirValue bv[TM_MAX_VECS];
  for (int v = 0; v < nv; ++v) {
    MlirValue pidx[3];
    int n = 0;
    if (!mlirValueIsNull(panel_base))
      pidx[n++] = panel_base;
    pidx[n++] = k;
    pidx[n++] = cg_index(kb, (int64_t)v * p->vw);
    bv[v] = tm_vload(E, kb, panel, n, pidx, (MlirValue){NULL});
  }
  MlirValue bv2[TM_MAX_VECS];
  for (int v = 0; v < nv && !mlirValueIsNull(E->panel2); ++v) {
    MlirValue pidx[2] = {k, cg_index(kb, (int64_t)v * p->vw)};
    bv2[v] = tm_vload(E, kb, E->panel2, 2, pidx, (MlirValue){NULL});
  }
  for (int i = 0; i < rows; ++i) {
    dims[p->nb] = rowm[i];
    dims[p->nb + 2] = k;
    MlirValue idx[TM_MAX_DIMS], a;
    if (row_base) {
      MlirValue at = tm_index_op(kb, "arith.addi", row_base[i], j);
      a = tm_to_f32(kb, cg_load(kb, row_mem ? row_mem[i] : E->a_flat, 1, &at));
    } else {
      int n = tm_indices(kb, p->a_map, dims, idx);
      a = tm_to_f32(kb, cg_load(kb, E->mem[p->a_val], n, idx));
    }
    MlirValue av = cg_op(kb, "vector.broadcast", vf32, 1, &a);
    for (int v = 0; v < nv; ++v) {
      MlirValue ops[3] = {av, bv[v], acc_in[i * nv + v]};
      acc_out[i * nv + v] = cg_op(kb, "vector.fma", vf32, 3, ops);
    }
    for (int v = 0; v < nv && !mlirValueIsNull(E->panel2); ++v) {
      MlirValue ops[3] = {av, bv2[v], acc_in[(rows + i) * nv + v]};
      acc_out[(rows + i) * nv + v] = cg_op(kb, "vector.fma", vf32, 3, ops);
    }
  }
}

/* scf.for over k in [lo, hi) steps of `unroll` k values each, carrying the accumulators. */
static void k_loop(TmEmit *E, CgBuilder *b, MlirValue *dims, int rows, const MlirValue *rowm, int64_t lo, int64_t hi,
                   int unroll, MlirValue panel, MlirValue panel_base, MlirValue *acc) {
  int n_acc = E->p->n_products * rows * E->p->nv;
  if (hi <= lo)
    return;
  CgBuilder kb;
  MlirValue kk, iter[TM_MAX_ROWS * TM_MAX_VECS], cur[TM_MAX_ROWS * TM_MAX_VECS];
  bool plain = unroll == 1; /* k itself is the induction variable */
  MlirOperation loop = cg_for(b, cg_index(b, plain ? lo : 0), cg_index(b, plain ? hi : (hi - lo) / unroll), n_acc,
                              acc, &kb, &kk, iter);
  memcpy(cur, iter, (size_t)n_acc * sizeof *cur);
  MlirValue base = plain ? kk
                         : tm_index_op(&kb, "arith.addi", tm_index_op(&kb, "arith.muli", kk, cg_index(&kb, unroll)),
                                       cg_index(&kb, lo));
  for (int u = 0; u < unroll; ++u)
    k_step(E, &kb, dims, rows, rowm, u ? cg_index_add(&kb, base, u) : base, panel, panel_base, cur, cur, NULL, NULL,
           (MlirValue){NULL});
  cg_yield(&kb, n_acc, cur);
  for (int i = 0; i < n_acc; ++i)
    acc[i] = mlirOperationGetResult(loop, i);
}

/* Row i's address in a_flat at k0: A's indices under its map, linearized row-major. */
static MlirValue row_address(TmEmit *E, CgBuilder *b, MlirValue *dims) {
  TmPlan *p = E->p;
  MlirValue idx[TM_MAX_DIMS];
  int n = tm_indices(b, p->a_map, dims, idx);
  MlirType at = mlirValueGetType(p->vals[p->a_val].tensor);
  MlirValue addr = idx[0];
  for (int r = 1; r < n; ++r)
    addr = tm_index_op(b, "arith.addi", tm_index_op(b, "arith.muli", addr, cg_index(b, mlirShapedTypeGetDimSize(at, r))),
                       idx[r]);
  return addr;
}

/* The runs of this k step that straddle the pad's border (unless every row's is
 * `settled`), copied into their scratch rows by one loop over the tile's rows
 * (a-pad.c): the copy code once per run loop instead of once per row keeps LLVM's
 * work (compile time) down; it runs only for border tiles. */
static void border_copies(TmEmit *E, CgBuilder *b, MlirValue *dims, int rows, MlirValue m0, MlirValue settled) {
  TmPlan *p = E->p;
  CgBuilder then_b, else_b, lb;
  cg_if(b, settled, &then_b, &else_b);
  MlirValue i = tm_range(&else_b, cg_index(&else_b, 0), cg_index(&else_b, rows), &lb);
  MlirValue saved = dims[p->nb];
  dims[p->nb] = tm_index_op(&lb, "arith.addi", m0, i);
  tm_pad_copy_row(E, &lb, i, row_address(E, &lb, dims));
  dims[p->nb] = saved;
}

/* The k loop as runs of A (a-runs.c): scf.for over K / R runs, each computing the
 * rows' addresses at its first k, then scf.for over the run's R values reading A at
 * address + j; both carry the accumulators. */
static void run_loops(TmEmit *E, CgBuilder *b, MlirValue *dims, int rows, const MlirValue *rowm, MlirValue panel,
                      MlirValue panel_base, MlirValue *acc) {
  TmPlan *p = E->p;
  int n_acc = p->n_products * rows * p->nv;
  int64_t R = p->a_run;
  CgBuilder rb, jb;
  MlirValue r, j, iter[TM_MAX_ROWS * TM_MAX_VECS * 2], cur[TM_MAX_ROWS * TM_MAX_VECS * 2], base[TM_MAX_ROWS];
  MlirValue mem[TM_MAX_ROWS];
  MlirOperation outer = cg_for(b, cg_index(b, 0), cg_index(b, p->K / R), n_acc, acc, &rb, &r, iter);
  MlirValue k0 = tm_index_op(&rb, "arith.muli", r, cg_index(&rb, R));
  dims[p->nb + 2] = k0;
  MlirValue settled = {NULL};
  for (int i = 0; i < rows; ++i) {
    dims[p->nb] = rowm[i];
    base[i] = row_address(E, &rb, dims);
    /* An implicit zero pad (a-pad.c): the row reads its run from the pad's input or
     * from its scratch row; base[i] becomes the offset there. */
    if (p->pad_implicit) {
      MlirValue no_copy;
      tm_pad_row(E, &rb, i, base[i], &mem[i], &base[i], &no_copy);
      settled = i ? cg_op(&rb, "arith.andi", mlirValueGetType(no_copy), 2, (MlirValue[2]){settled, no_copy}) : no_copy;
    }
  }
  if (p->pad_implicit)
    border_copies(E, &rb, dims, rows, rowm[0], settled);
  MlirOperation inner = cg_for(&rb, cg_index(&rb, 0), cg_index(&rb, R), n_acc, iter, &jb, &j, cur);
  k_step(E, &jb, dims, rows, rowm, tm_index_op(&jb, "arith.addi", k0, j), panel, panel_base, cur, cur, base,
         p->pad_implicit ? mem : NULL, j);
  cg_yield(&jb, n_acc, cur);
  MlirValue res[TM_MAX_ROWS * TM_MAX_VECS * 2];
  for (int i = 0; i < n_acc; ++i)
    res[i] = mlirOperationGetResult(inner, i);
  cg_yield(&rb, n_acc, res);
  for (int i = 0; i < n_acc; ++i)
    acc[i] = mlirOperationGetResult(outer, i);
}

/* The micro-kernel for `rows` rows from m0 and the epilogue on its tile. The k loop
 * takes TM_K_UNROLL k values per iteration (the rest in a second loop). */
static bool emit_tile(TmEmit *E, CgBuilder *b, MlirValue *dims, int rows, MlirValue m0, MlirValue n0,
                      MlirValue panel, MlirValue panel_base) {
  TmPlan *p = E->p;
  int n_acc = p->n_products * rows * p->nv;
  MlirValue zero = tm_splat(E, b, mlirF32TypeGet(p->ctx), 0.0), acc[TM_MAX_ROWS * TM_MAX_VECS];
  for (int i = 0; i < n_acc; ++i)
    acc[i] = zero;
  MlirValue rowm[TM_MAX_ROWS];
  for (int i = 0; i < rows; ++i)
    rowm[i] = cg_index_add(b, m0, i);
  dims[p->nb + 1] = cg_index(b, 0); /* A does not read n */
  int64_t main_k = p->K / TM_K_UNROLL * TM_K_UNROLL;
  if (p->a_run > 1) {
    run_loops(E, b, dims, rows, rowm, panel, panel_base, acc);
  } else {
    k_loop(E, b, dims, rows, rowm, 0, main_k, TM_K_UNROLL, panel, panel_base, acc);
    k_loop(E, b, dims, rows, rowm, main_k, p->K, 1, panel, panel_base, acc);
  }
  return tm_epilogue(E, b, dims, rows, rowm, n0, acc);
}

/* The M loop of one parallel iteration: full tiles of block mb, then the remainder. */
static bool emit_m_block(TmEmit *E, CgBuilder *b, MlirValue *dims, MlirValue mb, MlirValue n0, MlirValue panel,
                         MlirValue panel_base) {
  TmPlan *p = E->p;
  int64_t tiles_per_block = p->mc / p->mr, full = p->M / p->mr, rem = p->M % p->mr;
  int64_t blocks = ((p->M + p->mr - 1) / p->mr + tiles_per_block - 1) / tiles_per_block;
  bool ok = true;
  if (full > 0) {
    MlirValue lo = tm_index_op(b, "arith.muli", mb, cg_index(b, tiles_per_block));
    MlirValue hi = tm_index_op(b, "arith.minui", cg_index_add(b, lo, tiles_per_block), cg_index(b, full));
    CgBuilder tb;
    MlirValue t = tm_range(b, lo, hi, &tb);
    MlirValue m0 = tm_index_op(&tb, "arith.muli", t, cg_index(&tb, p->mr));
    ok = emit_tile(E, &tb, dims, p->mr, m0, n0, panel, panel_base);
  }
  if (rem > 0 && ok) {
    CgBuilder then_b, else_b;
    cg_if(b, tm_cmp(b, 0 /* eq */, mb, cg_index(b, blocks - 1)), &then_b, &else_b);
    ok = emit_tile(E, &then_b, dims, (int)rem, cg_index(&then_b, full * p->mr), n0, panel, panel_base);
  }
  return ok;
}

/* A runtime panel too large for the stack: malloc'ed per iteration (K > 8192 at nr = 32;
 * its allocation is small against the iteration's M x nr x K FMAs). */
static bool tm_heap_panel(const TmPlan *p) { return (int64_t)p->K * p->nr * 4 > TM_MAX_PANEL_BYTES; }

static bool emit_body(TmEmit *E) {
  TmPlan *p = E->p;
  int64_t nt = (p->N + p->nr - 1) / p->nr;
  int64_t blocks = ((p->M + p->mr - 1) / p->mr + p->mc / p->mr - 1) / (p->mc / p->mr);
  int64_t ub[TM_MAX_BATCH + 2];
  for (int d = 0; d < p->nb; ++d)
    ub[d] = p->batch[d];
  ub[p->nb] = blocks;
  ub[p->nb + 1] = nt;
  CgBuilder pb;
  MlirValue ivs[TM_MAX_BATCH + 2], dims[TM_MAX_DIMS];
  cg_parallel(&E->fb, p->nb + 2, ub, &pb, ivs);
  for (int d = 0; d < p->nb; ++d)
    dims[d] = ivs[d];
  MlirValue n0 = tm_index_op(&pb, "arith.muli", ivs[p->nb + 1], cg_index(&pb, p->nr));
  MlirValue panel, panel_base = {NULL};
  if (p->b_prepacked) {
    panel = E->packed;
    panel_base = tm_packed_panel_index(E, &pb, ivs);
  } else {
    int64_t shape[2] = {p->K, p->nr};
    MlirType pt = cg_memref_of(mlirF32TypeGet(p->ctx), 2, shape);
    MlirNamedAttribute attrs[2] = {
        cg_named(p->ctx, "operandSegmentSizes", cg_parse_attr(p->ctx, "array<i32: 0, 0>")),
        cg_named(p->ctx, "alignment", mlirIntegerAttrGet(mlirIntegerTypeGet(p->ctx, 64), 64)),
    };
    const char *alloc = tm_heap_panel(p) ? "memref.alloc" : "memref.alloca";
    panel = mlirOperationGetResult(cg_create(&pb, alloc, 0, NULL, 1, &pt, 2, attrs), 0);
    pack_panel(E, &pb, dims, n0, panel, E->mem[p->b_val], p->b_map, p->b_contiguous);
    if (p->n_products == 2) {
      E->panel2 = mlirOperationGetResult(cg_create(&pb, alloc, 0, NULL, 1, &pt, 2, attrs), 0);
      pack_panel(E, &pb, dims, n0, E->panel2, E->mem[p->b2_val], p->b2_map, p->b2_contiguous);
    }
  }
  if (p->pad_implicit)
    E->pad_scratch = tm_pad_scratch(E, &pb);
  bool ok = emit_m_block(E, &pb, dims, ivs[p->nb], n0, panel, panel_base);
  if (!p->b_prepacked && tm_heap_panel(p)) {
    cg_create(&pb, "memref.dealloc", 1, &panel, 0, NULL, 0, NULL);
    if (p->n_products == 2)
      cg_create(&pb, "memref.dealloc", 1, &E->panel2, 0, NULL, 0, NULL);
  }
  return ok;
}

/* A as memref<numel x elem> (memref.collapse_shape of the whole shape) for run_loops. */
static MlirValue collapse_a(TmEmit *E) {
  TmPlan *p = E->p;
  MlirValue a = E->mem[p->a_val];
  MlirType at = mlirValueGetType(a);
  intptr_t rank = mlirShapedTypeGetRank(at);
  int64_t numel = 1;
  char text[256];
  int len = snprintf(text, sizeof text, "[[");
  for (intptr_t r = 0; r < rank; ++r) {
    numel *= mlirShapedTypeGetDimSize(at, r);
    len += snprintf(text + len, sizeof text - (size_t)len, "%s%ld", r ? ", " : "", (long)r);
  }
  snprintf(text + len, sizeof text - (size_t)len, "]]");
  MlirType flat = cg_memref_of(mlirShapedTypeGetElementType(at), 1, &numel);
  MlirNamedAttribute attr = cg_named(p->ctx, "reassociation", cg_parse_attr(p->ctx, text));
  return mlirOperationGetResult(cg_create(&E->fb, "memref.collapse_shape", 1, &a, 1, &flat, 1, &attr), 0);
}

static void describe(TmEmit *E) {
  TmPlan *p = E->p;
  char text[200];
  char run[64] = "";
  if (p->a_run > 1 && p->a_run < p->K)
    snprintf(run, sizeof run, " a-run=%lld", (long long)p->a_run);
  if (p->has_pad)
    snprintf(run + strlen(run), sizeof run - strlen(run), " a-pad=%s", p->pad_implicit ? "implicit" : "copy");
  snprintf(text, sizeof text, "gemm mr=%d nr=%d mc=%lld vw=%d%s b=%s%s%s", p->mr, p->nr, (long long)p->mc, p->vw, run,
           p->b_prepacked     ? "prepacked"
           : p->b_contiguous  ? "packed-per-panel"
           : packs_by_squares(p, p->b_map) ? "packed-per-panel-transposed-by-squares"
                                           : "packed-per-panel-transposed",
           !p->b_prepacked && tm_heap_panel(p) ? "-heap" : "", p->n_products == 2 ? " products=2" : "");
  mlirOperationSetDiscardableAttributeByName(E->fn, braze_ref("braze.template"),
                                             mlirStringAttrGet(p->ctx, braze_ref(text)));
  if (p->opts->remarks) {
    int64_t nt = (p->N + p->nr - 1) / p->nr;
    /* A neither contiguous along k nor in runs (a-runs.c): the tile reads it through its
     * map per k, a div/mod chain per row where the map has one. */
    bool per_k = p->a_run <= 1 && !tm_contiguous_in(p->a_map, p->nb + 2);
    braze_emit_remark(mlirOperationGetLocation(p->old),
                      "cpu-codegen: kernel @%s: matmul template %s, %lldx%lldx%lld, %lld panel(s), epilogue of %d generic(s)%s",
                      p->name, text, (long long)p->M, (long long)p->N, (long long)p->K, (long long)nt, p->n_epi,
                      per_k ? ", A read per k through its map (no run of 4 or more k values contiguous in memory)" : "");
  }
}

bool tm_emit(TmPlan *p) {
  TmEmit E = {.p = p};
  if (!tm_build_signature(&E)) {
    braze_emit_error(mlirOperationGetLocation(p->old), "cpu-codegen: kernel @%s: too many arguments", p->name);
    return false;
  }
  tm_bind_values(&E);
  if (p->b_prepacked)
    tm_bind_packed(&E);
  if (p->has_pad)
    tm_pad_bind(&E);
  if (p->a_run > 1 && !p->pad_implicit)
    E.a_flat = collapse_a(&E);
  bool ok = emit_body(&E);
  if (ok)
    tm_pad_release(&E);
  if (!ok) {
    mlirOperationDestroy(E.fn);
    return false;
  }
  cg_mark_schedule(E.fn, p->opts->schedule);
  describe(&E);
  tm_note_autotune(p, E.fn);
  mlirOperationDestroy(p->old);
  return true;
}
