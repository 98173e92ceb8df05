/* cpu-codegen, kernel functions: analysis. The kernel body is read as a list of
 * items (generics, insert_slice copies, result copies); consecutive generics that
 * share leading parallel dims form a phase (one scf.parallel); every tensor gets a
 * storage: register (reduction values read only in their phase), row buffer
 * (per-iteration alloca), whole buffer (argument, out argument, global, alloc). */
#include "targets/cpu/codegen/kernel.h"
#include "targets/cpu/matmul/matmul.h"

#include <stdlib.h>
#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "support/context.h"
#include "support/diag.h"
#include "support/grow.h"
#include "support/strbuf.h"

MlirValue cg_kernel_map(CgKernel *K, MlirValue old) {
  for (int i = 0; i < K->n_map; ++i)
    if (mlirValueEqual(K->map_old[i], old))
      return K->map_new[i];
  return (MlirValue){NULL};
}

static void map_add(CgKernel *K, MlirValue old, MlirValue new_value) {
  K->map_old = realloc(K->map_old, (size_t)(K->n_map + 1) * sizeof *K->map_old);
  K->map_new = realloc(K->map_new, (size_t)(K->n_map + 1) * sizeof *K->map_new);
  K->map_old[K->n_map] = old;
  K->map_new[K->n_map++] = new_value;
}

static int find_val(CgKernel *K, MlirValue v) { return braze_ptrmap_get(&K->val_index, braze_ptr_key(v.ptr), -1); }

static int add_val(CgKernel *K, MlirValue v, CgStorage kind) {
  K->vals = braze_grow(K->vals, (size_t)K->n_vals, &K->cap_vals, sizeof *K->vals, 32);
  K->vals[K->n_vals] = (CgVal){.tensor = v, .kind = kind, .producer = -1, .alias_of = -1, .out_index = -1};
  braze_ptrmap_put(&K->val_index, braze_ptr_key(v.ptr), K->n_vals);
  return K->n_vals++;
}

static CgItem *add_item(CgKernel *K, CgItemKind kind, MlirOperation op) {
  K->items = realloc(K->items, (size_t)(K->n_items + 1) * sizeof *K->items);
  CgItem *it = &K->items[K->n_items++];
  memset(it, 0, sizeof *it);
  it->kind = kind;
  it->op = op;
  it->init_val = -1;
  it->dst_out = -1;
  return it;
}

static bool static_tensor(MlirType t) {
  return mlirTypeIsARankedTensor(t) && mlirShapedTypeHasStaticShape(t) && mlirShapedTypeGetRank(t) <= CG_MAX_DIMS;
}

static bool fail(MlirOperation op, CgKernel *K, const char *what) {
  braze_emit_error(mlirOperationGetLocation(op), "cpu-codegen: kernel @%s: %s", K->name, what);
  return false;
}

/* ---- generic facts ---- */

/* Body is `m = mulf(in0, in1); addf(acc, m)` (either operand order). */
static bool body_is_mul_add(MlirOperation generic) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(generic, 0));
  MlirOperation mul = mlirBlockGetFirstOperation(body);
  if (mlirBlockGetNumArguments(body) != 3 || mlirOperationIsNull(mul) || !braze_op_is(mul, "arith.mulf"))
    return false;
  MlirValue a = mlirOperationGetOperand(mul, 0), b = mlirOperationGetOperand(mul, 1);
  MlirValue in0 = mlirBlockGetArgument(body, 0), in1 = mlirBlockGetArgument(body, 1);
  if (!((mlirValueEqual(a, in0) && mlirValueEqual(b, in1)) || (mlirValueEqual(a, in1) && mlirValueEqual(b, in0))))
    return false;
  MlirOperation add = mlirOperationGetNextInBlock(mul);
  if (mlirOperationIsNull(add) || !braze_op_is(add, "arith.addf"))
    return false;
  MlirOperation yield = mlirOperationGetNextInBlock(add);
  return !mlirOperationIsNull(yield) && braze_op_is(yield, "linalg.yield") &&
         mlirOperationIsNull(mlirOperationGetNextInBlock(yield));
}

/* Largest k such that dims [0,k) are parallel and the output map sends them to
 * result positions [0,k) while results [k:] read none of them. */
static int output_prefix(const CgItem *it) {
  MlirAffineMap out = it->maps[it->n_in];
  int k = 0;
  while (k < it->n_dims && k < mlirAffineMapGetNumResults(out) && it->par[k]) {
    MlirAffineExpr e = mlirAffineMapGetResult(out, k);
    if (!mlirAffineExprIsADim(e) || mlirAffineDimExprGetPosition(e) != k)
      break;
    ++k;
  }
  uint64_t low = 0;
  for (;;) {
    low = k ? ((1ull << k) - 1) : 0;
    bool clean = true;
    for (intptr_t r = k; r < mlirAffineMapGetNumResults(out); ++r)
      clean = clean && !(cg_affine_dims(mlirAffineMapGetResult(out, r)) & low);
    if (clean || k == 0)
      break;
    --k;
  }
  return k;
}

/* A contraction whose reduction dims are a suffix, where every input reading the
 * innermost reduction dim has it as its last (contiguous) index, and the input
 * reading the innermost parallel dim does not have that one last (matmul with a
 * transposed B: (m,n,k)->(n,k)): the i-k-j order would read B with stride K in
 * the inner loop, so the reduction runs innermost as a dot product (iter_args). */
static bool dot_layout(const CgItem *it, int last_par) {
  int inner = it->n_dims - 1;
  if (last_par < 0 || it->par[inner])
    return false;
  bool par_reader_ok = false;
  for (int j = 0; j < it->n_in; ++j) {
    MlirAffineMap m = it->maps[j];
    intptr_t n = mlirAffineMapGetNumResults(m);
    if (n == 0)
      return false;
    MlirAffineExpr last = mlirAffineMapGetResult(m, n - 1);
    bool last_is_inner = mlirAffineExprIsADim(last) && mlirAffineDimExprGetPosition(last) == inner;
    uint64_t used = 0;
    for (intptr_t r = 0; r < n; ++r)
      used |= cg_affine_dims(mlirAffineMapGetResult(m, r));
    if ((used & (1ull << inner)) && !last_is_inner)
      return false;
    if ((used & (1ull << last_par)) && last_is_inner)
      par_reader_ok = true;
  }
  return par_reader_ok;
}

static void classify_generic(CgItem *it) {
  int last_par = -1, first_red = it->n_dims;
  for (int d = 0; d < it->n_dims; ++d) {
    if (it->par[d])
      last_par = d;
    else if (first_red == it->n_dims)
      first_red = d;
  }
  it->has_reduction = first_red < it->n_dims;
  bool suffix = last_par < first_red;
  /* A contraction (matmul-like): a parallel dim that one of the two operands does
   * not read, so the i-k-j order reuses the other operand's element across a row. */
  bool outer_product = false;
  for (int d = 0; d < it->n_dims && it->n_in == 2; ++d) {
    uint64_t bit = 1ull << d, used0 = 0, used1 = 0;
    for (intptr_t r = 0; r < mlirAffineMapGetNumResults(it->maps[0]); ++r)
      used0 |= cg_affine_dims(mlirAffineMapGetResult(it->maps[0], r));
    for (intptr_t r = 0; r < mlirAffineMapGetNumResults(it->maps[1]); ++r)
      used1 |= cg_affine_dims(mlirAffineMapGetResult(it->maps[1], r));
    outer_product = outer_product || (it->par[d] && (!(used0 & bit) || !(used1 & bit)));
  }
  it->contraction = it->has_reduction && outer_product && body_is_mul_add(it->op);
  it->scalar_mode = it->has_reduction && suffix && (!it->contraction || dot_layout(it, last_par));
  int64_t window = 1;
  for (int d = 0; d < it->n_dims; ++d)
    window *= it->par[d] ? 1 : it->ext[d];
  it->window_mode = it->has_reduction && !it->scalar_mode && !it->contraction && it->par[it->n_dims - 1] &&
                    window <= CG_WINDOW_MAX;
  it->own = output_prefix(it);
  if (!it->has_reduction && it->own > it->n_dims - 1)
    it->own = it->n_dims - 1; /* keep the innermost dim as the contiguous inner loop */
  if (it->contraction && it->own > last_par)
    it->own = last_par; /* keep the innermost parallel dim inner (i-k-j order) */
  if (it->own < 0)
    it->own = 0;
}

static bool read_generic(CgKernel *K, MlirOperation op) {
  intptr_t n_ops = mlirOperationGetNumOperands(op);
  if (mlirOperationGetNumResults(op) != 1)
    return fail(op, K, "linalg.generic with several results is not supported");
  if (n_ops - 1 > CG_MAX_INPUTS)
    return fail(op, K, "linalg.generic has too many inputs");
  CgItem *it = add_item(K, IT_GENERIC, op);
  it->n_in = (int)(n_ops - 1);
  MlirAttribute maps = mlirOperationGetAttributeByName(op, braze_ref("indexing_maps"));
  MlirAttribute iters = mlirOperationGetAttributeByName(op, braze_ref("iterator_types"));
  if (mlirAttributeIsNull(maps) || mlirAttributeIsNull(iters) || mlirArrayAttrGetNumElements(maps) != n_ops)
    return fail(op, K, "linalg.generic without indexing maps or iterator types");
  it->n_dims = (int)mlirArrayAttrGetNumElements(iters);
  if (it->n_dims > CG_MAX_DIMS)
    return fail(op, K, "linalg.generic with more than 8 loops is not supported");
  for (int d = 0; d < it->n_dims; ++d) {
    it->par[d] = !cg_attr_text_has(mlirArrayAttrGetElement(iters, d), "reduction");
    it->ext[d] = -1;
  }
  for (intptr_t j = 0; j < n_ops; ++j) {
    MlirValue v = mlirOperationGetOperand(op, j);
    MlirType t = mlirValueGetType(v);
    if (!static_tensor(t))
      return fail(op, K, "linalg.generic operands must be static tensors of rank <= 8");
    it->maps[j] = mlirAffineMapAttrGetValue(mlirArrayAttrGetElement(maps, j));
    if (mlirAffineMapGetNumSymbols(it->maps[j]) != 0)
      return fail(op, K, "indexing maps with symbols are not supported");
    for (intptr_t r = 0; r < mlirAffineMapGetNumResults(it->maps[j]); ++r) {
      MlirAffineExpr e = mlirAffineMapGetResult(it->maps[j], r);
      if (mlirAffineExprIsADim(e))
        it->ext[mlirAffineDimExprGetPosition(e)] = mlirShapedTypeGetDimSize(t, r);
    }
    int vi = find_val(K, v);
    if (vi < 0)
      return fail(op, K, "linalg.generic operand is not produced in the kernel");
    if (j < it->n_in)
      it->in_val[j] = vi;
    else
      it->init_val = vi;
  }
  for (int d = 0; d < it->n_dims; ++d)
    if (it->ext[d] < 0)
      return fail(op, K, "a loop's extent is not given by any operand dimension");
  /* the output is written once per parallel point: indexed by a reduction loop it would
   * have no index while initialized (found by fuzz-mlir-pipeline) */
  for (intptr_t r = 0; r < mlirAffineMapGetNumResults(it->maps[it->n_in]); ++r)
    for (int d = 0; d < it->n_dims; ++d)
      if (!it->par[d] && mlirAffineExprIsFunctionOfDim(mlirAffineMapGetResult(it->maps[it->n_in], r), d))
        return fail(op, K, "linalg.generic's output is indexed by a reduction loop");
  classify_generic(it);
  it->out_val = add_val(K, mlirOperationGetResult(op, 0), ST_NONE);
  K->vals[it->out_val].producer = K->n_items - 1;
  return true;
}

static bool read_insert_slice(CgKernel *K, MlirOperation op) {
  CgItem *it = add_item(K, IT_INSERT, op);
  int src = find_val(K, mlirOperationGetOperand(op, 0));
  int dst = find_val(K, mlirOperationGetOperand(op, 1));
  if (src < 0 || dst < 0 || mlirOperationGetNumOperands(op) != 2)
    return fail(op, K, "tensor.insert_slice needs static offsets and a source from the kernel");
  if (!static_tensor(mlirValueGetType(mlirOperationGetOperand(op, 0))))
    return fail(op, K, "tensor.insert_slice source must be a static tensor");
  it->n_in = 1;
  it->in_val[0] = src;
  it->init_val = dst;
  it->out_val = add_val(K, mlirOperationGetResult(op, 0), ST_NONE);
  K->vals[it->out_val].producer = K->n_items - 1;
  CgVal *d = &K->vals[dst];
  if (d->producer >= 0 && K->items[d->producer].kind == IT_INSERT) {
    /* Readers of the partial result see the later slices too: those elements are
     * undefined in the partial result, so any value is correct. */
    d->alias_of = it->out_val;
  } else if (d->kind != ST_NONE) {
    return fail(op, K, "tensor.insert_slice destination must be tensor.empty or another insert_slice");
  }
  d->used = true;
  return true;
}

static bool read_constant(CgKernel *K, MlirOperation op) {
  MlirAttribute value = mlirOperationGetAttributeByName(op, braze_ref("value"));
  MlirValue res = mlirOperationGetResult(op, 0);
  if (!mlirTypeIsARankedTensor(mlirValueGetType(res))) {
    MlirOperation clone = mlirOperationClone(op);
    cg_insert(&K->fb, clone);
    map_add(K, res, mlirOperationGetResult(clone, 0));
    return true;
  }
  /* dense_resource blobs (large ONNX initializers) become globals with the
   * resource as initial value; the LLVM lowering reads the blob. */
  bool resource = mlirAttributeIsADenseResourceElements(value);
  if (!static_tensor(mlirValueGetType(res)) || !(mlirAttributeIsADenseElements(value) || resource))
    return fail(op, K, "tensor constants must be static dense or dense_resource elements");
  if (!resource && mlirDenseElementsAttrIsSplat(value)) {
    int v = add_val(K, res, ST_SPLAT);
    K->vals[v].scalar = cg_constant(&K->fb, mlirDenseElementsAttrGetSplatValue(value));
    return true;
  }
  int v = add_val(K, res, ST_BUF);
  K->vals[v].mem = cg_global_constant(K->module, &K->fb, value);
  return true;
}

static bool read_fill(CgKernel *K, MlirOperation op) {
  MlirValue scalar = cg_kernel_map(K, mlirOperationGetOperand(op, 0));
  if (mlirValueIsNull(scalar) || mlirOperationGetNumResults(op) != 1)
    return fail(op, K, "linalg.fill value must be a constant defined in the kernel");
  int v = add_val(K, mlirOperationGetResult(op, 0), ST_SPLAT);
  K->vals[v].scalar = scalar;
  return true;
}

static bool read_return(CgKernel *K, MlirOperation op) {
  for (intptr_t r = 0; r < mlirOperationGetNumOperands(op); ++r) {
    int v = find_val(K, mlirOperationGetOperand(op, r));
    if (v < 0)
      return fail(op, K, "returned value is not produced in the kernel");
    CgVal *val = &K->vals[v];
    bool in_place = val->producer >= 0 && val->out_index < 0 && val->alias_of < 0;
    if (in_place) {
      val->out_index = (int)r;
      continue;
    }
    CgItem *it = add_item(K, IT_COPY, op);
    it->n_in = 1;
    it->in_val[0] = v;
    it->dst_out = (int)r;
    it->out_val = -1;
    val->used = true;
  }
  return true;
}

static bool read_body(CgKernel *K) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(K->old, 0));
  for (intptr_t a = 0; a < mlirBlockGetNumArguments(body); ++a) {
    MlirValue arg = mlirBlockGetArgument(body, a);
    if (mlirTypeIsAIndex(mlirValueGetType(arg))) { /* a loop index of the chain calling it */
      map_add(K, arg, mlirBlockGetArgument(K->entry, a));
      continue;
    }
    int v = add_val(K, arg, ST_BUF);
    K->vals[v].mem = mlirBlockGetArgument(K->entry, a);
  }
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    bool ok = true;
    if (braze_op_is(op, "linalg.generic")) {
      ok = read_generic(K, op);
      for (int j = 0; ok && j < K->items[K->n_items - 1].n_in; ++j)
        K->vals[K->items[K->n_items - 1].in_val[j]].used = true;
    } else if (braze_op_is(op, "tensor.empty")) {
      add_val(K, mlirOperationGetResult(op, 0), ST_NONE);
    } else if (braze_op_is(op, "linalg.fill")) {
      ok = read_fill(K, op);
    } else if (braze_op_is(op, "arith.constant")) {
      ok = read_constant(K, op);
    } else if (braze_op_is(op, "tensor.insert_slice")) {
      ok = read_insert_slice(K, op);
      if (ok)
        K->vals[K->items[K->n_items - 1].in_val[0]].used = true;
    } else if (braze_op_is(op, "func.return")) {
      ok = read_return(K, op);
    } else {
      MlirStringRef n = braze_op_name(op);
      braze_emit_error(mlirOperationGetLocation(op), "cpu-codegen: kernel @%s: unsupported op '%.*s'", K->name,
                       (int)n.length, n.data);
      ok = false;
    }
    if (!ok)
      return false;
  }
  return true;
}

/* ---- phases ---- */

static bool map_prefix_ok(MlirAffineMap m, int k) {
  if (mlirAffineMapGetNumResults(m) < k)
    return false;
  uint64_t low = k ? ((1ull << k) - 1) : 0;
  for (intptr_t r = 0; r < mlirAffineMapGetNumResults(m); ++r) {
    MlirAffineExpr e = mlirAffineMapGetResult(m, r);
    if (r < k && !(mlirAffineExprIsADim(e) && mlirAffineDimExprGetPosition(e) == r))
      return false;
    if (r >= k && (cg_affine_dims(e) & low))
      return false;
  }
  return true;
}

/* The outer dims phase `p` keeps if generic `it` joins it (0: it cannot share). */
static int joined_k(const CgKernel *K, const CgPhase *p, const CgItem *it) {
  int k = p->k < it->own ? p->k : it->own;
  for (; k > 0; --k) {
    bool ok = true;
    for (int d = 0; d < k && ok; ++d)
      ok = p->ext[d] == it->ext[d];
    for (int j = 0; j < it->n_in && ok; ++j) {
      int prod = K->vals[it->in_val[j]].producer;
      if (prod >= p->first && K->items[prod].kind == IT_GENERIC)
        ok = map_prefix_ok(it->maps[j], k);
    }
    if (ok)
      return k;
  }
  return 0;
}

static void new_phase(CgKernel *K, int item, int k, const int64_t *ext) {
  K->phases = realloc(K->phases, (size_t)(K->n_phases + 1) * sizeof *K->phases);
  CgPhase *p = &K->phases[K->n_phases++];
  p->first = p->last = item;
  p->k = k;
  for (int d = 0; d < k; ++d)
    p->ext[d] = ext[d];
  K->items[item].phase = K->n_phases - 1;
}

static void form_phases(CgKernel *K) {
  for (int i = 0; i < K->n_items; ++i) {
    CgItem *it = &K->items[i];
    CgPhase *cur = K->n_phases ? &K->phases[K->n_phases - 1] : NULL;
    bool cur_generic = cur && K->items[cur->first].kind == IT_GENERIC;
    if (it->kind == IT_GENERIC && cur_generic) {
      int k = joined_k(K, cur, it);
      if (k > 0 || (cur->k == 0 && it->own == 0)) {
        cur->k = k;
        cur->last = i;
        it->phase = K->n_phases - 1;
        continue;
      }
    }
    new_phase(K, i, it->kind == IT_GENERIC ? it->own : 0, it->ext);
  }
}

/* ---- storage ---- */

static int resolve_alias(const CgKernel *K, int v) {
  while (K->vals[v].alias_of >= 0)
    v = K->vals[v].alias_of;
  return v;
}

static void mark_cross_phase(CgKernel *K) {
  for (int i = 0; i < K->n_items; ++i) {
    const CgItem *it = &K->items[i];
    for (int j = 0; j <= it->n_in; ++j) {
      /* inputs, then a generic's outs operand (its body may read it) */
      int vi = j < it->n_in ? it->in_val[j] : it->kind == IT_GENERIC ? it->init_val : -1;
      if (vi < 0)
        continue;
      CgVal *v = &K->vals[resolve_alias(K, vi)];
      if (v->producer >= 0 && K->items[v->producer].phase != it->phase)
        v->cross_phase = true;
    }
  }
}

static bool phase_has_scalar_mode(const CgKernel *K, int phase) {
  for (int i = K->phases[phase].first; i <= K->phases[phase].last; ++i)
    if (K->items[i].kind == IT_GENERIC && K->items[i].scalar_mode)
      return true;
  return false;
}

/* A pointwise generic's result read by nothing but one window reduction of its phase,
 * at the very element the generic computes (the reader's map is the generic's output
 * map, over as many dims): computed in the reduction's innermost loop instead of
 * written to a row buffer and loaded back (max pool: the padding's gather-select).
 * Not in phases with register reductions (row jamming keeps per-row storage). */
static bool inline_into_window(const CgKernel *K, const CgVal *v) {
  const CgItem *p = &K->items[v->producer];
  if (p->kind != IT_GENERIC || p->has_reduction || v->out_index >= 0 || v->cross_phase ||
      !mlirAffineMapIsPermutation(p->maps[p->n_in]))
    return false;
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(p->op, 0));
  if (!mlirOpOperandIsNull(mlirValueGetFirstUse(mlirBlockGetArgument(body, p->n_in))))
    return false; /* the body reads its output */
  int vi = (int)(v - K->vals), readers = 0;
  const CgItem *reader = NULL;
  int slot = -1;
  for (int i = 0; i < K->n_items; ++i) {
    const CgItem *it = &K->items[i];
    if (it->init_val == vi)
      return false;
    for (int j = 0; j < it->n_in; ++j)
      if (it->in_val[j] == vi) {
        ++readers;
        reader = it;
        slot = j;
      }
  }
  return readers == 1 && reader->kind == IT_GENERIC && reader->window_mode && reader->phase == p->phase &&
         reader->n_dims == p->n_dims && mlirAffineMapEqual(reader->maps[slot], p->maps[p->n_in]) &&
         !phase_has_scalar_mode(K, p->phase);
}

static void choose_storage(CgKernel *K, CgVal *v) {
  const CgItem *it = &K->items[v->producer];
  const CgPhase *p = &K->phases[it->phase];
  MlirType t = mlirValueGetType(v->tensor);
  if (v->out_index >= 0) {
    v->kind = ST_BUF;
    v->mem = mlirBlockGetArgument(K->entry, K->n_in + v->out_index);
    return;
  }
  if (inline_into_window(K, v)) {
    v->kind = ST_INLINE;
    K->n_inlined++;
    return;
  }
  if (it->kind == IT_GENERIC && !v->cross_phase && p->k > 0) {
    /* One element per outer iteration (reduction value, or a pointwise op on
     * such values): computed at the parallel body's level, kept in a register. */
    bool one_element = it->scalar_mode || !it->has_reduction;
    for (int d = p->k; d < it->n_dims; ++d)
      one_element = one_element && (!it->par[d] || it->ext[d] == 1);
    if (one_element) {
      v->kind = ST_SCALAR;
      K->n_scalar_regs++;
      return;
    }
    int64_t bytes = cg_elem_bytes(mlirShapedTypeGetElementType(t));
    for (intptr_t d = p->k; d < mlirShapedTypeGetRank(t); ++d)
      bytes *= mlirShapedTypeGetDimSize(t, d);
    if (bytes <= K->opts->row_buffer_bytes) {
      v->kind = ST_ROW;
      K->n_row_bufs++;
      return;
    }
  }
  v->kind = ST_BUF;
  v->local_alloc = true;
  K->n_local_bufs++;
  MlirNamedAttribute attrs[2] = {
      cg_named(K->ctx, "operandSegmentSizes", cg_parse_attr(K->ctx, "array<i32: 0, 0>")),
      cg_named(K->ctx, "alignment", mlirIntegerAttrGet(mlirIntegerTypeGet(K->ctx, 64), 64)),
  };
  MlirType mt = cg_memref_like(t);
  v->mem = mlirOperationGetResult(cg_create(&K->fb, "memref.alloc", 0, NULL, 1, &mt, 2, attrs), 0);
}

static void assign_storage(CgKernel *K) {
  for (int i = 0; i < K->n_vals; ++i) {
    CgVal *v = &K->vals[i];
    if (v->producer >= 0 && v->alias_of < 0)
      choose_storage(K, v);
  }
  for (int i = 0; i < K->n_vals; ++i) {
    CgVal *v = &K->vals[i];
    if (v->alias_of >= 0) {
      const CgVal *root = &K->vals[resolve_alias(K, i)];
      v->kind = root->kind;
      v->mem = root->mem;
    }
  }
}

/* ---- driver ---- */

static void remark_phases(const CgKernel *K) {
  BrazeStr s = {0};
  braze_str_printf(&s, "cpu-codegen: kernel @%s: %d phase(s)", K->name, K->n_phases);
  for (int p = 0; p < K->n_phases; ++p) {
    const CgPhase *ph = &K->phases[p];
    braze_str_printf(&s, "; [%d] ", p);
    if (cg_phase_chunkable(K, ph))
      braze_str_printf(&s, "parallel chunks of %lld", (long long)K->items[ph->first].ext[0]);
    else if (ph->k == 0)
      braze_str_puts(&s, "sequential");
    else {
      braze_str_puts(&s, "parallel ");
      for (int d = 0; d < ph->k; ++d)
        braze_str_printf(&s, "%s%lld", d ? "x" : "", (long long)ph->ext[d]);
      if (cg_phase_jam(K, ph) > 1)
        braze_str_printf(&s, " (%d rows per step)", cg_phase_jam(K, ph));
    }
    braze_str_printf(&s, ", %d item(s)", ph->last - ph->first + 1);
  }
  braze_str_printf(&s, "; %d register reduction(s), %d row buffer(s), %d kernel buffer(s)", K->n_scalar_regs,
                   K->n_row_bufs, K->n_local_bufs);
  if (K->n_inlined)
    braze_str_printf(&s, "; %d value(s) computed inside a window reduction", K->n_inlined);
  if (K->versioned)
    braze_str_puts(&s, "; aligned and peeled versions");
  braze_emit_remark(mlirOperationGetLocation(K->old), "%s", braze_str_cstr(&s));
  braze_str_free(&s);
}

static bool build_signature(CgKernel *K) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(K->old, 0));
  MlirOperation ret = mlirBlockGetTerminator(body);
  intptr_t n_in = mlirBlockGetNumArguments(body), n_out = mlirOperationGetNumOperands(ret);
  MlirType *types = malloc((size_t)(n_in + n_out + 1) * sizeof *types);
  bool ok = true;
  for (intptr_t i = 0; i < n_in + n_out; ++i) {
    MlirType t = mlirValueGetType(i < n_in ? mlirBlockGetArgument(body, i) : mlirOperationGetOperand(ret, i - n_in));
    bool index = i < n_in && mlirTypeIsAIndex(t); /* a chain's block kernel reads its loop indices */
    ok = ok && (index || static_tensor(t));
    types[i] = ok && !index ? cg_memref_like(t) : t;
  }
  if (!ok) {
    free(types);
    return fail(K->old, K, "kernel arguments and results must be static tensors of rank <= 8 (or index scalars)");
  }
  K->fn = cg_new_func(K->old, n_in, n_out, types, &K->entry);
  K->n_in = (int)n_in;
  free(types);
  CgBuilder end = cg_builder_at_end(K->entry, mlirOperationGetLocation(K->old));
  MlirOperation r = cg_create(&end, "func.return", 0, NULL, 0, NULL, 0, NULL);
  K->fb = end;
  K->fb.before = r;
  K->pool.block = K->entry;
  K->fb.pool = &K->pool;
  return true;
}

static void dealloc_local_buffers(CgKernel *K) {
  for (int i = 0; i < K->n_vals; ++i)
    if (K->vals[i].local_alloc)
      cg_create(&K->fb, "memref.dealloc", 1, &K->vals[i].mem, 0, NULL, 0, NULL);
}

static bool emit_phases(CgKernel *K) {
  for (int p = 0; p < K->n_phases; ++p)
    if (!cg_emit_phase(K, p))
      return false;
  return true;
}

static bool may_peel(const CgKernel *K) {
  for (int i = 0; i < K->n_items; ++i)
    if (cg_item_may_peel(K, &K->items[i]))
      return true;
  return false;
}

/* Peeling costs the aligned case its static trip counts (LLVM then neither fully
 * unrolls nor drops the remainder loops: 10-15% on layer_norm), so the body is
 * emitted twice: as is when every argument is 64-byte aligned, peeled otherwise. */
static bool emit_versioned(CgKernel *K) {
  MlirType index = cg_index_type(K->ctx);
  MlirValue bits = {NULL}; /* the arguments' addresses or-ed: aligned iff its low bits are 0 */
  for (intptr_t a = 0; a < mlirBlockGetNumArguments(K->entry); ++a) {
    MlirValue arg = mlirBlockGetArgument(K->entry, a);
    if (!mlirTypeIsAMemRef(mlirValueGetType(arg)))
      continue;
    MlirValue ops[2] = {bits, cg_element_address(&K->fb, arg)};
    bits = mlirValueIsNull(bits) ? ops[1] : cg_op(&K->fb, "arith.ori", index, 2, ops);
  }
  MlirValue rem[2] = {bits, cg_index(&K->fb, 64)};
  MlirValue cmp[2] = {cg_op(&K->fb, "arith.remui", index, 2, rem), cg_index(&K->fb, 0)};
  MlirNamedAttribute eq = cg_named(K->ctx, "predicate", mlirIntegerAttrGet(mlirIntegerTypeGet(K->ctx, 64), 0));
  MlirValue aligned = mlirOperationGetResult(
      cg_create(&K->fb, "arith.cmpi", 2, cmp, 1, (MlirType[]){mlirIntegerTypeGet(K->ctx, 1)}, 1, &eq), 0);
  CgBuilder saved = K->fb, then_b, else_b;
  cg_if(&K->fb, aligned, &then_b, &else_b);
  K->versioned = true;
  K->fb = then_b;
  K->peel = false;
  bool ok = emit_phases(K);
  K->fb = else_b;
  K->peel = true;
  ok = ok && emit_phases(K);
  K->fb = saved;
  return ok;
}

bool cg_convert_kernel(MlirOperation func, MlirOperation module, const CgOptions *opts) {
  int ext = cg_user_kernel(func, module);
  if (ext != 0)
    return ext > 0;
  int chain = cg_chain_kernel(func, module);
  if (chain != 0)
    return chain > 0;
  int tem = cg_matmul_template(func, module, opts);
  if (tem != 0)
    return tem > 0;
  MlirAttribute name = mlirOperationGetAttributeByName(func, braze_ref("sym_name"));
  MlirStringRef nref = mlirStringAttrGetValue(name);
  char *cname = strndup(nref.data, nref.length);
  CgKernel K = {.old = func, .module = module, .opts = opts, .ctx = mlirOperationGetContext(func), .name = cname};
  bool ok = build_signature(&K) && read_body(&K);
  if (ok) {
    form_phases(&K);
    mark_cross_phase(&K);
    assign_storage(&K);
    ok = may_peel(&K) ? emit_versioned(&K) : emit_phases(&K);
  }
  if (ok) {
    dealloc_local_buffers(&K);
    if (opts->remarks)
      remark_phases(&K);
    mlirOperationDestroy(func);
  } else if (!mlirOperationIsNull(K.fn)) {
    mlirOperationDestroy(K.fn);
  }
  free(K.vals);
  braze_ptrmap_free(&K.val_index);
  free(K.items);
  free(K.phases);
  free(K.map_old);
  free(K.map_new);
  free(cname);
  return ok;
}
