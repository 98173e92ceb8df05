/* cpu-codegen, window reductions (CgItem.window_mode: pooling, [n, oh, ow, kh, kw, c]
 * reduced over kh, kw). The parallel dims' loops run outside in order; the last one
 * (the contiguous channels) in vectors of the target's lanes, then the remaining
 * channels one at a time; inside, the window's loops carry the accumulator in
 * iter_args and the output element (vector) is stored once:
 *
 *   scf.for %c = 0 to C-(C%L) step L {            L lanes (16 f32 with AVX-512)
 *     %acc = scf.for %kh iter_args(%a = splat(init)) {
 *       scf.for %kw iter_args(%b = %a) { vector.load x[.., %c]; max(%b, ...) } }
 *     vector.store %acc, out[.., %c] }
 *   scf.for %c = C-(C%L) to C { the same on scalars }
 *
 * (Memory mode, before: initialize the output, then per window position load,
 * combine and store it back.) A pointwise producer computed inside the window
 * (ST_INLINE: max pool's padding gather-select) is cloned into the window loop on
 * the same vectors. The body goes on vectors op by op: values that do not depend on
 * the channel stay scalars (index arithmetic, the padding mask), the others become
 * vector<L x T> (scalars they meet are broadcast); reads along the channel must be
 * contiguous (the map's last result is the channel dim alone), and a gather's index
 * may use the channel only as its last index. Anything else (an op with regions,
 * f16 math, a strided read) emits the channels as scalars instead. */
#include <stdio.h>
#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "support/context.h"
#include "targets/cpu/codegen/loop-nests.h"

/* Body values per clone; channel vectors carried at once (4 x 16 f32: ResNet's 64). */
enum { WIN_MAX_VALUES = 256, WIN_MAX_VECS = 4 };

typedef struct {
  MlirValue old[WIN_MAX_VALUES], new_values[WIN_MAX_VALUES];
  int n;
  MlirValue lane_index; /* the body's linalg.index of the vector dim (old value) */
} VecMap;

static MlirValue vmap_get(Gen *g, const VecMap *m, MlirValue old) {
  for (int i = m->n - 1; i >= 0; --i)
    if (mlirValueEqual(m->old[i], old))
      return m->new_values[i];
  return cg_kernel_map(g->K, old);
}

static bool vmap_add(VecMap *m, MlirValue old, MlirValue new_value) {
  if (m->n == WIN_MAX_VALUES)
    return false;
  m->old[m->n] = old;
  m->new_values[m->n++] = new_value;
  return true;
}

static bool is_vector(MlirValue v) { return mlirTypeIsAVector(mlirValueGetType(v)); }

static MlirType vec_of(Gen *g, MlirType elem) {
  int64_t lanes = g->K->opts->vector_lanes;
  return mlirVectorTypeGet(1, &lanes, elem);
}

static MlirValue broadcast(Gen *g, CgBuilder *b, MlirValue s) {
  return cg_op(b, "vector.broadcast", vec_of(g, mlirValueGetType(s)), 1, &s);
}

/* The read is contiguous along the vector dim: the map's last result is that dim and
 * no other result uses it (buffers have identity layouts). */
static bool contiguous_along(MlirAffineMap map, int d) {
  intptr_t n = mlirAffineMapGetNumResults(map);
  if (n == 0)
    return false;
  MlirAffineExpr last = mlirAffineMapGetResult(map, n - 1);
  if (!mlirAffineExprIsADim(last) || mlirAffineDimExprGetPosition(last) != d)
    return false;
  for (intptr_t r = 0; r < n - 1; ++r)
    if (cg_affine_dims(mlirAffineMapGetResult(map, r)) & (1ull << d))
      return false;
  return true;
}

/* The target's lanes of `mem` from element idx on (its last index the vector dim's). */
static MlirValue vector_load(Gen *g, CgBuilder *b, MlirValue mem, int n, const MlirValue *idx) {
  MlirValue ops[1 + CG_MAX_DIMS];
  ops[0] = mem;
  memcpy(ops + 1, idx, (size_t)n * sizeof *idx);
  return cg_op(b, "vector.load", vec_of(g, mlirShapedTypeGetElementType(mlirValueGetType(mem))), 1 + n, ops);
}

MlirValue cg_window_vector_load(Gen *g, CgBuilder *b, MlirValue mem, MlirAffineMap map, int n, const MlirValue *idx) {
  if (!contiguous_along(map, g->vdim)) {
    g->vec_failed = true;
    return cg_load(b, mem, n, idx);
  }
  return vector_load(g, b, mem, n, idx);
}

/* tensor.extract of a kernel argument or constant (a gather): a vector load when its
 * last index is the vector dim's index, a scalar load when no index depends on it. */
static MlirValue extract(Gen *g, CgBuilder *b, MlirOperation op, VecMap *m) {
  int vi = braze_ptrmap_get(&g->K->val_index, braze_ptr_key(mlirOperationGetOperand(op, 0).ptr), -1);
  const CgVal *v = vi >= 0 ? &g->K->vals[vi] : NULL;
  intptr_t n = mlirOperationGetNumOperands(op) - 1;
  bool along = n > 0 && !mlirValueIsNull(m->lane_index) && mlirValueEqual(mlirOperationGetOperand(op, n), m->lane_index);
  if (v && v->kind == ST_SPLAT)
    return along ? broadcast(g, b, v->scalar) : v->scalar;
  if (!v || v->kind != ST_BUF || v->producer >= 0 || n > CG_MAX_DIMS)
    return (MlirValue){NULL}; /* the scalar path reports it */
  MlirValue idx[CG_MAX_DIMS];
  for (intptr_t i = 0; i < n; ++i) {
    idx[i] = along && i == n - 1 ? g->ivs[g->vdim] : vmap_get(g, m, mlirOperationGetOperand(op, 1 + i));
    if (mlirValueIsNull(idx[i]) || is_vector(idx[i]))
      return (MlirValue){NULL};
  }
  return along ? vector_load(g, b, v->mem, (int)n, idx) : cg_load(b, v->mem, (int)n, idx);
}

/* One elementwise op on vectors: its name and attributes, scalar operands broadcast
 * (a select's condition may stay a scalar i1), results vector<L x T>. */
static MlirValue vector_op(Gen *g, CgBuilder *b, MlirOperation op, MlirValue *operands, intptr_t n_ops) {
  MlirStringRef name = braze_op_name(op);
  bool elementwise = (name.length > 6 && !strncmp(name.data, "arith.", 6)) ||
                     (name.length > 5 && !strncmp(name.data, "math.", 5));
  if (!elementwise || mlirOperationGetNumResults(op) != 1 || mlirOperationGetNumAttributes(op) > 8)
    return (MlirValue){NULL};
  MlirType elem = mlirValueGetType(mlirOperationGetResult(op, 0));
  bool half = mlirTypeIsAF16(elem) || mlirTypeIsABF16(elem);
  if (!strncmp(name.data, "math.", 5) && half)
    return (MlirValue){NULL}; /* f16 math goes through f32 libm calls: the scalar path */
  bool select = braze_op_is(op, "arith.select");
  for (intptr_t i = 0; i < n_ops; ++i)
    if (!is_vector(operands[i]) && !(select && i == 0))
      operands[i] = broadcast(g, b, operands[i]);
  MlirNamedAttribute attrs[9];
  intptr_t n_attrs = 0;
  const char *flags = g->it->has_reduction && g->K->opts->reassoc ? cg_reassoc_flags(op) : NULL;
  for (intptr_t a = 0; a < mlirOperationGetNumAttributes(op); ++a) {
    MlirNamedAttribute attr = mlirOperationGetAttribute(op, a);
    if (!(flags && braze_ref_eq(mlirIdentifierStr(attr.name), "fastmath")))
      attrs[n_attrs++] = attr; /* the reduction's flags replace the op's own */
  }
  if (flags)
    attrs[n_attrs++] = mlirNamedAttributeGet(mlirIdentifierGet(g->K->ctx, braze_ref("fastmath")),
                                             cg_parse_attr(g->K->ctx, flags));
  char cname[64];
  snprintf(cname, sizeof cname, "%.*s", (int)name.length, name.data);
  MlirType rt = vec_of(g, elem);
  return mlirOperationGetResult(cg_create(b, cname, n_ops, operands, 1, &rt, n_attrs, attrs), 0);
}

/* An op none of whose operands depends on the vector dim: cloned as is. */
static MlirValue scalar_op(Gen *g, CgBuilder *b, MlirOperation op, const MlirValue *operands) {
  if (mlirOperationGetNumResults(op) != 1)
    return (MlirValue){NULL};
  MlirOperation c = mlirOperationClone(op);
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); ++i)
    mlirOperationSetOperand(c, i, operands[i]);
  const char *flags = g->it->has_reduction && g->K->opts->reassoc ? cg_reassoc_flags(op) : NULL;
  if (flags)
    mlirOperationSetAttributeByName(c, braze_ref("fastmath"), cg_parse_attr(g->K->ctx, flags));
  return mlirOperationGetResult(cg_insert(b, c), 0);
}

static MlirValue clone_op(Gen *g, CgBuilder *b, MlirOperation op, VecMap *m) {
  if (braze_op_is(op, "tensor.extract"))
    return extract(g, b, op, m);
  intptr_t n_ops = mlirOperationGetNumOperands(op);
  if (mlirOperationGetNumRegions(op) != 0 || n_ops > 8)
    return (MlirValue){NULL};
  MlirValue operands[8];
  bool any_vector = false;
  for (intptr_t i = 0; i < n_ops; ++i) {
    MlirValue o = mlirOperationGetOperand(op, i);
    if (!mlirValueIsNull(m->lane_index) && mlirValueEqual(o, m->lane_index))
      return (MlirValue){NULL}; /* the channel index used as a value */
    operands[i] = vmap_get(g, m, o);
    if (mlirValueIsNull(operands[i]))
      return (MlirValue){NULL};
    any_vector = any_vector || is_vector(operands[i]);
  }
  return any_vector ? vector_op(g, b, op, operands, n_ops) : scalar_op(g, b, op, operands);
}

MlirValue cg_clone_body_vector(Gen *g, CgBuilder *b, MlirValue acc) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(g->it->op, 0));
  VecMap m = {.n = 0};
  for (int j = 0; j < g->it->n_in; ++j)
    vmap_add(&m, mlirBlockGetArgument(body, j), g->in[j]);
  if (!mlirValueIsNull(acc))
    vmap_add(&m, mlirBlockGetArgument(body, g->it->n_in), acc);
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op) && !g->vec_failed;
       op = mlirOperationGetNextInBlock(op)) {
    if (braze_op_is(op, "linalg.yield")) {
      MlirValue r = vmap_get(g, &m, mlirOperationGetOperand(op, 0));
      if (!mlirValueIsNull(r) && !is_vector(r))
        r = broadcast(g, b, r); /* a result that does not depend on the channel */
      if (!mlirValueIsNull(r))
        return r;
      break;
    }
    if (braze_op_is(op, "linalg.index")) {
      int64_t d = mlirIntegerAttrGetValueInt(mlirOperationGetAttributeByName(op, braze_ref("dim")));
      if (d == g->vdim)
        m.lane_index = mlirOperationGetResult(op, 0);
      else
        vmap_add(&m, mlirOperationGetResult(op, 0), g->ivs[d]);
      continue;
    }
    MlirValue r = clone_op(g, b, op, &m);
    if (mlirValueIsNull(r) || !vmap_add(&m, mlirOperationGetResult(op, 0), r))
      break;
  }
  g->vec_failed = true;
  return acc;
}

/* The window: reduction loops over dims[0..n) carrying `nv` accumulators, one per
 * vector of channels (vector v at ivs[vdim] = base + v lanes; in scalar mode nv = 1).
 * The body is cloned per vector; what does not depend on the channel (the gather's
 * index, the padding mask) is the same ops, which cse merges: one per window position
 * for all the vectors. acc[] becomes the final values. */
static void reduce_dims(Gen *g, CgBuilder *b, const int *dims, int n, MlirValue *acc, int nv, MlirValue base) {
  if (n == 0) {
    for (int v = 0; v < nv && !g->failed && !g->vec_failed; ++v) {
      if (g->vector) {
        g->ivs[g->vdim] = v ? cg_index_add(b, base, (int64_t)v * g->K->opts->vector_lanes) : base;
        for (int j = 0; j < g->it->n_in; ++j)
          if ((cg_map_dims(g->it->maps[j]) & (1ull << g->vdim)) || g->K->vals[g->it->in_val[j]].kind == ST_INLINE)
            g->loaded[j] = false;
      }
      g->vec_body = true;
      cg_load_ready(g, b);
      MlirValue r = cg_clone_body(g, b, acc[v]);
      g->vec_body = false;
      if (!mlirValueIsNull(r) && mlirTypeEqual(mlirValueGetType(r), mlirValueGetType(acc[v])))
        acc[v] = r;
      else
        g->vec_failed = g->vec_failed || g->vector; /* keep the IR well-formed; the scalar path reports errors */
    }
    return;
  }
  if (g->it->ext[dims[0]] == 1) {
    cg_bind(g, b, dims[0], cg_index(b, 0));
    reduce_dims(g, b, dims + 1, n - 1, acc, nv, base);
    return;
  }
  CgBuilder body;
  MlirValue iv, iter[WIN_MAX_VECS];
  MlirOperation f = cg_for(b, cg_index(b, 0), cg_index(b, g->it->ext[dims[0]]), nv, acc, &body, &iv, iter);
  cg_bind(g, &body, dims[0], iv);
  reduce_dims(g, &body, dims + 1, n - 1, iter, nv, base);
  cg_yield(&body, nv, iter);
  for (int v = 0; v < nv; ++v)
    acc[v] = mlirOperationGetResult(f, v);
}

/* The output element(s) at the bound dims: the initial value, the reduction over
 * `red`, one store each (nv vectors from ivs[vdim] in vector mode). */
static void reduce_and_store(Gen *g, CgBuilder *b, const int *red, int nr, int nv) {
  const CgVal *init_val = &g->K->vals[g->it->init_val], *out = &g->K->vals[g->it->out_val];
  MlirAffineMap out_map = g->it->maps[g->it->n_in];
  MlirValue base = g->vector ? g->ivs[g->vdim] : (MlirValue){NULL}, acc[WIN_MAX_VECS];
  int64_t lanes = g->K->opts->vector_lanes;
  for (int v = 0; v < nv; ++v) {
    if (g->vector)
      g->ivs[g->vdim] = v ? cg_index_add(b, base, v * lanes) : base;
    if (g->vector && (init_val->kind == ST_BUF || init_val->kind == ST_ROW)) {
      MlirValue idx[CG_MAX_DIMS];
      int n = cg_value_indices(g, b, init_val, out_map, idx);
      acc[v] = cg_window_vector_load(g, b, init_val->mem, out_map, n, idx);
    } else {
      acc[v] = cg_init_value(g, b);
      if (g->vector && !mlirValueIsNull(acc[v]))
        acc[v] = broadcast(g, b, acc[v]);
    }
    if (mlirValueIsNull(acc[v])) {
      cg_gen_error(g, "a reduction's initial value is uninitialized (tensor.empty)");
      return;
    }
  }
  reduce_dims(g, b, red, nr, acc, nv, base);
  if (g->failed || g->vec_failed)
    return;
  if (!g->vector) {
    cg_store_output(g, b, acc[0]);
    return;
  }
  if (out->kind == ST_SCALAR || !contiguous_along(out_map, g->vdim)) {
    g->vec_failed = true;
    return;
  }
  for (int v = 0; v < nv; ++v) {
    g->ivs[g->vdim] = v ? cg_index_add(b, base, v * lanes) : base;
    MlirValue ops[2 + CG_MAX_DIMS];
    int n = cg_value_indices(g, b, out, out_map, ops + 2);
    ops[0] = acc[v];
    ops[1] = out->mem;
    cg_create(b, "vector.store", 2 + n, ops, 0, NULL, 0, NULL);
  }
}

/* The last dim over [lb, ub) in steps of nv vectors (g->vector) or of 1, the window
 * inside. */
static MlirOperation channel_loop(Gen *g, CgBuilder *b, int64_t lb, int64_t ub, int64_t step, const int *red, int nr,
                                  int nv) {
  int c = g->it->n_dims - 1;
  CgBuilder body;
  MlirValue iv, none;
  MlirOperation f = cg_for_step(b, cg_index(b, lb), cg_index(b, ub), cg_index(b, step), 0, NULL, &body, &iv, &none);
  body.before = cg_create(&body, "scf.yield", 0, NULL, 0, NULL, 0, NULL);
  cg_bind(g, &body, c, iv);
  reduce_and_store(g, &body, red, nr, nv);
  return f;
}

/* Vectors of channels per step: up to WIN_MAX_VECS, a divisor of the full vectors. */
static int vectors_per_step(int64_t vectors) {
  int nv = WIN_MAX_VECS;
  while (nv > 1 && vectors % nv != 0)
    --nv;
  return nv;
}

void cg_emit_window(Gen *g, CgBuilder *phase_b) {
  /* The loops open on a copy: the phase's next generic starts after this nest, not in
   * its innermost body (which re-ran every later generic of a log_softmax over a middle
   * dim once per element: a power of the extents). */
  CgBuilder nest = *phase_b, *b = &nest;
  int par[CG_MAX_DIMS], red[CG_MAX_DIMS], np = 0, nr = 0, c = g->it->n_dims - 1;
  for (int d = g->k; d < c; ++d) {
    if (g->it->par[d])
      par[np++] = d;
    else
      red[nr++] = d;
  }
  cg_open_loops(g, b, par, np);
  if (c < g->k) { /* the channels are outer (parallel) dims already: no loop of its own */
    reduce_and_store(g, b, red, nr, 1);
    return;
  }
  int64_t ext = g->it->ext[c], lanes = g->K->opts->vector_lanes, full = ext / lanes * lanes;
  if (full > 0) {
    Gen saved = *g;
    g->vector = true;
    g->vdim = c;
    int nv = vectors_per_step(full / lanes);
    MlirOperation f = channel_loop(g, b, 0, full, nv * lanes, red, nr, nv);
    bool vectorized = !g->vec_failed, failed = g->failed;
    *g = saved;
    g->failed = failed;
    if (!vectorized) {
      mlirOperationDestroy(f); /* not on vectors: every channel as a scalar below */
      full = 0;
    }
  }
  if (full < ext && !g->failed)
    channel_loop(g, b, full, ext, 1, red, nr, 1);
}
