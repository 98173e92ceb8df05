/* cpu-codegen, the matmul template: the epilogue. Each accumulator vector (one row,
 * vw columns of the tile) goes through every epilogue generic in order, on vectors:
 * the generic's scalar body cloned with vector<vw x T> types (constants splatted),
 * tile values (the contraction's result, earlier epilogue results) taken from
 * registers, other tensors loaded at the element's position (a vector where their
 * map is contiguous in n, one scalar broadcast where it does not read n, else one
 * load per lane; loads that do not depend on the row are made once per tile). Then each kernel result is stored once, masked past N. */
#include <stdio.h>
#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "support/context.h"
#include "support/diag.h"
#include "targets/cpu/matmul/internal.h"

static uint64_t map_dims(MlirAffineMap m) {
  uint64_t used = 0;
  for (intptr_t r = 0; r < mlirAffineMapGetNumResults(m); ++r)
    used |= cg_affine_dims(mlirAffineMapGetResult(m, r));
  return used;
}

/* Body values and their vectors (block arguments + TM_MAX_BODY_OPS results). */
typedef struct {
  MlirValue old[TM_MAX_IN + TM_MAX_BODY_OPS + 8], new_values[TM_MAX_IN + TM_MAX_BODY_OPS + 8];
  int n;
} VecMap;

static MlirValue vmap_get(const VecMap *m, MlirValue old) {
  for (int i = m->n - 1; i >= 0; --i)
    if (mlirValueEqual(m->old[i], old))
      return m->new_values[i];
  return (MlirValue){NULL};
}

static bool vmap_add(VecMap *m, MlirValue old, MlirValue new_value) {
  if (m->n == (int)(sizeof m->old / sizeof *m->old))
    return false;
  m->old[m->n] = old;
  m->new_values[m->n++] = new_value;
  return true;
}

/* One body op on vectors: same name and attributes, operands mapped, results vector<vw x T>. */
static MlirOperation clone_vector_op(TmEmit *E, CgBuilder *b, MlirOperation op, VecMap *m) {
  if (braze_op_is(op, "arith.constant")) {
    MlirAttribute value = mlirOperationGetAttributeByName(op, braze_ref("value"));
    MlirType vt = tm_vec(E, mlirAttributeGetType(value));
    MlirValue c = cg_constant(b, mlirDenseElementsAttrSplatGet(vt, value));
    return mlirOpResultGetOwner(c);
  }
  MlirValue operands[16];
  intptr_t n_ops = mlirOperationGetNumOperands(op);
  if (n_ops > 16)
    return (MlirOperation){NULL};
  for (intptr_t i = 0; i < n_ops; ++i) {
    operands[i] = vmap_get(m, mlirOperationGetOperand(op, i));
    if (mlirValueIsNull(operands[i]))
      return (MlirOperation){NULL};
  }
  MlirType results[4];
  intptr_t n_res = mlirOperationGetNumResults(op);
  for (intptr_t r = 0; r < n_res && r < 4; ++r)
    results[r] = tm_vec(E, mlirValueGetType(mlirOperationGetResult(op, r)));
  MlirNamedAttribute attrs[16];
  intptr_t n_attrs = mlirOperationGetNumAttributes(op);
  if (n_attrs > 16 || n_res > 4)
    return (MlirOperation){NULL};
  for (intptr_t a = 0; a < n_attrs; ++a)
    attrs[a] = mlirOperationGetAttribute(op, a);
  MlirStringRef name = braze_op_name(op);
  char cname[64];
  snprintf(cname, sizeof cname, "%.*s", (int)name.length, name.data);
  MlirType elem = mlirShapedTypeGetElementType(results[0]);
  bool half_math = !strncmp(cname, "math.", 5) && n_res == 1 && (mlirTypeIsAF16(elem) || mlirTypeIsABF16(elem));
  if (!half_math)
    return cg_create(b, cname, n_ops, operands, n_res, results, n_attrs, attrs);
  /* f16/bf16 math on vectors: in f32 (what the scalar path's libm calls do), so that
   * math-approx expands it; libm cannot take vectors after the vector lowering. */
  MlirType vf32 = tm_vec(E, mlirF32TypeGet(b->ctx));
  for (intptr_t i = 0; i < n_ops; ++i)
    operands[i] = tm_to_f32(b, operands[i]);
  MlirValue r = mlirOperationGetResult(cg_create(b, cname, n_ops, operands, 1, &vf32, n_attrs, attrs), 0);
  return cg_create(b, "arith.truncf", 1, &r, 1, results, 0, NULL);
}

/* The generic's body on vector operands `in`; its yielded vector, or null. */
static MlirValue clone_body(TmEmit *E, CgBuilder *b, MlirOperation generic, const MlirValue *in, int n_in) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(generic, 0));
  VecMap m;
  m.n = 0;
  for (int j = 0; j < n_in; ++j)
    vmap_add(&m, mlirBlockGetArgument(body, j), in[j]);
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    if (braze_op_is(op, "linalg.yield"))
      return vmap_get(&m, mlirOperationGetOperand(op, 0));
    MlirOperation c = clone_vector_op(E, b, op, &m);
    if (mlirOperationIsNull(c))
      return (MlirValue){NULL};
    for (intptr_t r = 0; r < mlirOperationGetNumResults(op); ++r)
      if (!vmap_add(&m, mlirOperationGetResult(op, r), mlirOperationGetResult(c, r)))
        return (MlirValue){NULL};
  }
  return (MlirValue){NULL};
}

/* Operand j read along n but not contiguously (a transposed tensor): one load per lane,
 * columns past N clamped to N - 1 (their lanes are never stored). */
static MlirValue gather(TmEmit *E, CgBuilder *b, const TmEpi *e, int j, MlirValue *dims) {
  TmPlan *p = E->p;
  int dn = p->nb + 1;
  MlirValue n0 = dims[dn], lanes[16], idx[TM_MAX_DIMS];
  MlirValue last = cg_index(b, p->N - 1);
  for (int l = 0; l < p->vw; ++l) {
    dims[dn] = tm_index_op(b, "arith.minui", cg_index_add(b, n0, l), last);
    int n = tm_indices(b, e->maps[j], dims, idx);
    lanes[l] = cg_load(b, E->mem[e->in_val[j]], n, idx);
  }
  dims[dn] = n0;
  return cg_op(b, "vector.from_elements", tm_vec(E, mlirValueGetType(lanes[0])), p->vw, lanes);
}

/* Operand j of epilogue e at the element (dims) as a vector. */
static MlirValue epilogue_operand(TmEmit *E, CgBuilder *b, const TmEpi *e, int j, MlirValue *dims,
                                  MlirValue mask, const MlirValue *tile) {
  TmPlan *p = E->p;
  int v = e->in_val[j];
  const TmVal *val = &p->vals[v];
  if (val->kind == TV_TILE)
    return tile[v];
  if (val->kind == TV_SPLAT) {
    MlirValue s = E->scalar[v];
    return cg_op(b, "vector.broadcast", tm_vec(E, mlirValueGetType(s)), 1, &s);
  }
  MlirValue idx[TM_MAX_DIMS];
  int dn = p->nb + 1;
  if (map_dims(e->maps[j]) & (1ull << dn) && !tm_contiguous_in(e->maps[j], dn))
    return gather(E, b, e, j, dims);
  int n = tm_indices(b, e->maps[j], dims, idx);
  if (map_dims(e->maps[j]) & (1ull << dn))
    return tm_vload(E, b, E->mem[v], n, idx, mask);
  MlirValue s = cg_load(b, E->mem[v], n, idx);
  return cg_op(b, "vector.broadcast", tm_vec(E, mlirValueGetType(s)), 1, &s);
}

static void store_results(TmEmit *E, CgBuilder *b, const MlirValue *dims, MlirValue mask, const MlirValue *tile) {
  TmPlan *p = E->p;
  for (int v = 0; v < p->n_vals; ++v) {
    const TmVal *val = &p->vals[v];
    int outs[2] = {val->out_index, val->out_index2};
    for (int o = 0; o < 2; ++o)
      if (val->kind == TV_TILE && outs[o] >= 0)
        tm_vstore(b, tile[v], mlirBlockGetArgument(E->entry, p->n_in + outs[o]), p->nb + 2, dims, mask);
  }
}

bool tm_epilogue(TmEmit *E, CgBuilder *b, MlirValue *dims, int rows, const MlirValue *rowm, MlirValue n0,
                 const MlirValue *acc) {
  TmPlan *p = E->p;
  int dm = p->nb, dn = p->nb + 1;
  MlirValue cols[TM_MAX_VECS], masks[TM_MAX_VECS];
  for (int v = 0; v < p->nv; ++v) {
    cols[v] = cg_index_add(b, n0, (int64_t)v * p->vw);
    masks[v] = (MlirValue){NULL};
    if (p->N % p->nr != 0)
      masks[v] = tm_mask(E, b, tm_index_op(b, "arith.subi", cg_index(b, p->N), cols[v]));
  }
  /* loads that do not depend on the row: made for row 0, reused */
  MlirValue cache[TM_MAX_EPI][TM_MAX_IN][TM_MAX_VECS];
  memset(cache, 0, sizeof cache);
  for (int i = 0; i < rows; ++i) {
    for (int v = 0; v < p->nv; ++v) {
      MlirValue tile[TM_MAX_VALS];
      tile[p->mm_val] = acc[i * p->nv + v];
      if (p->n_products == 2)
        tile[p->mm2_val] = acc[(rows + i) * p->nv + v];
      dims[dm] = rowm[i];
      dims[dn] = cols[v];
      for (int k = 0; k < p->n_epi; ++k) {
        const TmEpi *e = &p->epi[k];
        MlirValue in[TM_MAX_IN];
        for (int j = 0; j < e->n_in; ++j) {
          bool row_free = p->vals[e->in_val[j]].kind != TV_TILE && !(map_dims(e->maps[j]) & (1ull << dm));
          if (row_free && !mlirValueIsNull(cache[k][j][v])) {
            in[j] = cache[k][j][v];
            continue;
          }
          in[j] = epilogue_operand(E, b, e, j, dims, masks[v], tile);
          if (row_free)
            cache[k][j][v] = in[j];
        }
        tile[e->out_val] = clone_body(E, b, e->op, in, e->n_in);
        if (mlirValueIsNull(tile[e->out_val])) {
          braze_emit_error(mlirOperationGetLocation(e->op),
                           "cpu-codegen: kernel @%s: cannot apply this epilogue on vectors", p->name);
          return false;
        }
      }
      store_results(E, b, dims, masks[v], tile);
    }
  }
  return true;
}
