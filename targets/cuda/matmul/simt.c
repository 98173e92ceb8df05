/* cuda-codegen, matmul kernels: a contraction (batch..., m, n, k) and its pointwise
 * epilogue as a shared-memory tiled SIMT matmul. Block (x, y, z) computes the 64x64
 * output tile (n, m) of batch z; its 256 threads each hold a 4x4 accumulator tile.
 * Per 16-wide step of k the block stages a 64x16 tile of A and a 16x64 tile of B in
 * shared memory (each read along its contiguous dim, out-of-range elements as 0),
 * then every thread runs the contraction's body on its 4x4 tile. The epilogue
 * evaluates the kernel's results at each output element with the accumulator as the
 * contraction's value, and stores once. The tensor-core template replaces this. */
#include "targets/cuda/codegen/codegen.h"

#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "support/context.h"

enum { TILE = 64, STEP = 16, THREADS = 256, PER = 4 };

typedef struct {
  CuItem *c;
  int n_par, dim_m, dim_n, dim_k;
  int64_t m, n, k;
  int role_a; /* the input reading m (the other reads n) */
  MlirValue batch[CU_MAX_DIMS];
  MlirValue m0, n0, tx, ty;
  MlirValue smem[2]; /* A tile [STEP][TILE], B tile [STEP][TILE] */
} Mm;

/* Whether input `in`'s innermost index walks k (then threads walk k when staging). */
static bool k_contiguous(const Mm *mm, int in) {
  MlirAffineMap map = mm->c->maps[in];
  intptr_t n = mlirAffineMapGetNumResults(map);
  return n > 0 && cg_affine_dims(mlirAffineMapGetResult(map, n - 1)) == (1ull << mm->dim_k);
}

static MlirType input_compute_type(CuKernel *K, const Mm *mm, int in) {
  return cu_compute_type(mlirShapedTypeGetElementType(mlirValueGetType(K->vals[mm->c->in_val[in]].tensor)));
}

static MlirValue zero_of(CgBuilder *b, MlirType t) {
  return cg_constant(b, mlirTypeIsAFloat(t) ? mlirFloatAttrDoubleGet(b->ctx, t, 0.0) : mlirIntegerAttrGet(t, 0));
}

/* Stage input `in` (role 0: A over m, role 1: B over n) for the step starting at k0. */
static void stage(CuKernel *K, CgBuilder *b, Mm *mm, int in, int role, MlirValue k0) {
  bool along_k = k_contiguous(mm, in);
  int64_t extent = role == 0 ? mm->m : mm->n;
  MlirValue base = role == 0 ? mm->m0 : mm->n0;
  MlirType t = input_compute_type(K, mm, in);
  for (int q = 0; q < TILE * STEP / THREADS; ++q) {
    MlirValue l = cu_arith(b, "arith.addi", K->tid, cg_index(b, q * THREADS));
    MlirValue kk = along_k ? cu_arith(b, "arith.remui", l, cg_index(b, STEP)) : cu_arith(b, "arith.divui", l, cg_index(b, TILE));
    MlirValue rr = along_k ? cu_arith(b, "arith.divui", l, cg_index(b, STEP)) : cu_arith(b, "arith.remui", l, cg_index(b, TILE));
    MlirValue row = cu_arith(b, "arith.addi", base, rr), kidx = cu_arith(b, "arith.addi", k0, kk);
    MlirValue valid = {NULL};
    if (extent % TILE != 0) {
      valid = cu_cmp_ult(b, row, cg_index(b, extent));
      row = cu_arith(b, "arith.minui", row, cg_index(b, extent - 1));
    }
    if (mm->k % STEP != 0) {
      MlirValue kv = cu_cmp_ult(b, kidx, cg_index(b, mm->k));
      valid = mlirValueIsNull(valid) ? kv : cu_arith(b, "arith.andi", valid, kv);
      kidx = cu_arith(b, "arith.minui", kidx, cg_index(b, mm->k - 1));
    }
    CuPoint dims = {.n = mm->c->n_dims, .vec = 1};
    for (int d = 0; d < mm->n_par - 2; ++d)
      dims.idx[d] = mm->batch[d];
    dims.idx[mm->dim_m] = role == 0 ? row : cg_index(b, 0);
    dims.idx[mm->dim_n] = role == 1 ? row : cg_index(b, 0);
    dims.idx[mm->dim_k] = kidx;
    CuPoint at = cu_input_point(b, mm->c, in, &dims);
    MlirValue v = cu_eval(K, b, mm->c->in_val[in], &at);
    if (K->failed)
      return;
    if (!mlirValueIsNull(valid))
      v = cu_select(b, valid, v, zero_of(b, t));
    MlirValue slot = cu_arith(b, "arith.addi", cu_arith(b, "arith.muli", kk, cg_index(b, TILE)), rr);
    cg_store(b, v, mm->smem[role], 1, &slot);
  }
}

/* One k step: stage both tiles, then the 4x4 tile's bodies over the step's k. */
static void k_step(CuKernel *K, CgBuilder *b, Mm *mm, MlirValue kt, MlirValue *acc) {
  MlirValue k0 = cu_arith(b, "arith.muli", kt, cg_index(b, STEP));
  int mark = cu_scope_open(K);
  stage(K, b, mm, mm->role_a, 0, k0);
  stage(K, b, mm, 1 - mm->role_a, 1, k0);
  cu_scope_close(K, mark);
  if (K->failed)
    return;
  cu_barrier(b);
  CgBuilder body;
  MlirValue kk, iter[PER * PER];
  MlirOperation loop = cg_for(b, cg_index(b, 0), cg_index(b, STEP), PER * PER, acc, &body, &kk, iter);
  MlirValue row = cu_arith(&body, "arith.muli", kk, cg_index(&body, TILE));
  MlirValue a[PER], bv[PER];
  for (int i = 0; i < PER; ++i) {
    MlirValue sa = cu_arith(&body, "arith.addi", row, cu_arith(&body, "arith.addi", mm->ty, cg_index(&body, i)));
    MlirValue sb = cu_arith(&body, "arith.addi", row, cu_arith(&body, "arith.addi", mm->tx, cg_index(&body, i)));
    a[i] = cg_load(&body, mm->smem[0], 1, &sa);
    bv[i] = cg_load(&body, mm->smem[1], 1, &sb);
  }
  MlirValue next[PER * PER];
  K->contract = true; /* a*b+acc as one FMA, as cuBLAS's SIMT kernels compute it */
  for (int i = 0; i < PER && !K->failed; ++i)
    for (int j = 0; j < PER && !K->failed; ++j) {
      MlirValue args[3];
      args[mm->role_a] = a[i];
      args[1 - mm->role_a] = bv[j];
      args[2] = iter[i * PER + j];
      next[i * PER + j] = cu_clone_body(K, &body, mm->c, args);
    }
  K->contract = false;
  if (K->failed)
    return;
  cg_yield(&body, PER * PER, next);
  for (int i = 0; i < PER * PER; ++i)
    acc[i] = mlirOperationGetResult(loop, i);
  cu_barrier(b);
}

/* The epilogue at output element (i, j) of the thread's tile. */
static void epilogue(CuKernel *K, CgBuilder *b, Mm *mm, int i, int j, MlirValue acc) {
  MlirValue m = cu_arith(b, "arith.addi", mm->m0, cu_arith(b, "arith.addi", mm->ty, cg_index(b, i)));
  MlirValue n = cu_arith(b, "arith.addi", mm->n0, cu_arith(b, "arith.addi", mm->tx, cg_index(b, j)));
  CgBuilder at = *b, else_b;
  MlirValue valid = {NULL};
  if (mm->m % TILE != 0)
    valid = cu_cmp_ult(b, m, cg_index(b, mm->m));
  if (mm->n % TILE != 0) {
    MlirValue nv = cu_cmp_ult(b, n, cg_index(b, mm->n));
    valid = mlirValueIsNull(valid) ? nv : cu_arith(b, "arith.andi", valid, nv);
  }
  if (!mlirValueIsNull(valid))
    cg_if(b, valid, &at, &else_b);
  CuPoint p = {.n = mm->n_par, .vec = 1};
  for (int d = 0; d < mm->n_par - 2; ++d)
    p.idx[d] = mm->batch[d];
  p.idx[mm->n_par - 2] = m;
  p.idx[mm->n_par - 1] = n;
  int mark = cu_scope_open(K);
  MlirValue value = cu_finish_reduction(K, &at, mm->c, &p, acc);
  if (!K->failed)
    cu_memo_put(K, MEMO_VALUE, mm->c->out_val, p.n, p.idx, value);
  for (int r = 0; r < K->n_out && !K->failed; ++r) {
    MlirValue v = cu_eval(K, &at, K->out_val[r], &p);
    if (!K->failed)
      cu_store(K, &at, K->out_val[r], &p, &v);
  }
  cu_scope_close(K, mark);
}

bool cu_emit_matmul(CuKernel *K) {
  CgBuilder *b = &K->fb;
  Mm mm = {.c = &K->items[0]};
  CuItem *c = mm.c;
  mm.n_par = c->n_dims - 1;
  mm.dim_m = mm.n_par - 2;
  mm.dim_n = mm.n_par - 1;
  mm.dim_k = c->n_dims - 1;
  mm.m = c->ext[mm.dim_m];
  mm.n = c->ext[mm.dim_n];
  mm.k = c->ext[mm.dim_k];
  if (!cu_matmul_roles(c, mm.dim_m, mm.dim_n, &mm.role_a)) /* choose_matmul checked it */
    return cu_fail(K, c->op, "contraction inputs must read (m, k) and (k, n)");
  MlirValue bx = K->bid, by = cu_gpu_id(b, "gpu.block_id"), bz = cu_gpu_id(b, "gpu.block_id");
  /* cu_gpu_id gives dim x: rewrite the two others' dimension attribute */
  mlirOperationSetAttributeByName(mlirOpResultGetOwner(by), braze_ref("dimension"), cg_parse_attr(K->ctx, "#gpu<dim y>"));
  mlirOperationSetAttributeByName(mlirOpResultGetOwner(bz), braze_ref("dimension"), cg_parse_attr(K->ctx, "#gpu<dim z>"));
  cu_delinearize(b, bz, mm.n_par - 2, c->ext, mm.batch);
  mm.m0 = cu_arith(b, "arith.muli", by, cg_index(b, TILE));
  mm.n0 = cu_arith(b, "arith.muli", bx, cg_index(b, TILE));
  MlirValue c16 = cg_index(b, TILE / PER);
  mm.tx = cu_arith(b, "arith.muli", cu_arith(b, "arith.remui", K->tid, c16), cg_index(b, PER));
  mm.ty = cu_arith(b, "arith.muli", cu_arith(b, "arith.divui", K->tid, c16), cg_index(b, PER));
  mm.smem[0] = cu_workgroup_buffer(K, input_compute_type(K, &mm, mm.role_a), TILE * STEP);
  mm.smem[1] = cu_workgroup_buffer(K, input_compute_type(K, &mm, 1 - mm.role_a), TILE * STEP);

  MlirValue acc[PER * PER];
  MlirValue zero = cu_identity(K, b, c);
  for (int i = 0; i < PER * PER; ++i)
    acc[i] = zero;
  CgBuilder body;
  MlirValue kt, iter[PER * PER];
  MlirOperation loop = cg_for(b, cg_index(b, 0), cg_index(b, (mm.k + STEP - 1) / STEP), PER * PER, acc, &body, &kt, iter);
  k_step(K, &body, &mm, kt, iter);
  if (K->failed)
    return false;
  cg_yield(&body, PER * PER, iter);
  for (int i = 0; i < PER * PER; ++i)
    acc[i] = mlirOperationGetResult(loop, i);
  for (int i = 0; i < PER && !K->failed; ++i)
    for (int j = 0; j < PER && !K->failed; ++j)
      epilogue(K, b, &mm, i, j, acc[i * PER + j]);
  return !K->failed;
}
