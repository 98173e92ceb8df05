/* cuda-codegen, the point evaluator: the value of a kernel-level tensor at one index,
 * computed where it is needed. Arguments are loaded (a `vec`-wide vector load when
 * the index walks the innermost dim in lanes), splats are constants, an all-parallel
 * generic is its body on its inputs' values at the mapped indices, a reduction is its
 * row value (row kernels) or a serial loop (element kernels). Everything computed is
 * memoized by (tensor, index values) within the enclosing scope, so a value read by
 * several consumers in one thread is loaded or computed once (softmax's x and exp).
 * f16/bf16 values are computed in f32: widened at the load, narrowed at the store. */
#include "targets/cuda/codegen/codegen.h"

#include <math.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "support/context.h"
#include "support/grow.h"
#include "support/valuemap.h"

/* ---- small builders ---- */

MlirValue cu_arith(CgBuilder *b, const char *name, MlirValue x, MlirValue y) {
  MlirValue ops[2] = {x, y};
  return cg_op(b, name, mlirValueGetType(x), 2, ops);
}

MlirValue cu_cmp_ult(CgBuilder *b, MlirValue x, MlirValue y) {
  MlirValue ops[2] = {x, y};
  MlirNamedAttribute pred = cg_named(b->ctx, "predicate", cg_parse_attr(b->ctx, "6 : i64")); /* ult */
  MlirType i1 = mlirIntegerTypeGet(b->ctx, 1);
  return mlirOperationGetResult(cg_create(b, "arith.cmpi", 2, ops, 1, &i1, 1, &pred), 0);
}

MlirValue cu_select(CgBuilder *b, MlirValue c, MlirValue x, MlirValue y) {
  MlirValue ops[3] = {c, x, y};
  return cg_op(b, "arith.select", mlirValueGetType(x), 3, ops);
}

void cu_delinearize(CgBuilder *b, MlirValue flat, int n, const int64_t *ext, MlirValue *out) {
  for (int d = n - 1; d >= 0; --d) {
    if (d == 0) {
      out[d] = flat;
    } else {
      MlirValue e = cg_index(b, ext[d]);
      out[d] = ext[d] == 1 ? cg_index(b, 0) : cu_arith(b, "arith.remui", flat, e);
      flat = ext[d] == 1 ? flat : cu_arith(b, "arith.divui", flat, e);
    }
  }
}

MlirValue cu_gpu_id(CgBuilder *b, const char *op) {
  MlirNamedAttribute dim = cg_named(b->ctx, "dimension", cg_parse_attr(b->ctx, "#gpu<dim x>"));
  MlirType index = cg_index_type(b->ctx);
  return mlirOperationGetResult(cg_create(b, op, 0, NULL, 1, &index, 1, &dim), 0);
}

void cu_barrier(CgBuilder *b) { cg_create(b, "gpu.barrier", 0, NULL, 0, NULL, 0, NULL); }

MlirValue cu_workgroup_buffer(CuKernel *K, MlirType elem, int64_t n) {
  MlirAttribute space = cg_parse_attr(K->ctx, "#gpu.address_space<workgroup>");
  MlirType type = mlirMemRefTypeGet(elem, 1, &n, mlirAttributeGetNull(), space);
  MlirValue buf = mlirBlockAddArgument(K->entry, type, mlirOperationGetLocation(K->old));
  ++K->n_workgroup;
  mlirOperationSetDiscardableAttributeByName(K->fn, braze_ref("workgroup_attributions"),
                                             mlirIntegerAttrGet(mlirIntegerTypeGet(K->ctx, 64), K->n_workgroup));
  return buf;
}

/* ---- memo ---- */

void cu_memo_put(CuKernel *K, CuMemoKind kind, int key, int n, const MlirValue *idx, MlirValue value) {
  K->memo = braze_grow(K->memo, (size_t)K->n_memo, &K->cap_memo, sizeof *K->memo, 64);
  CuMemo *m = &K->memo[K->n_memo++];
  m->kind = kind;
  m->key = key;
  m->n = n;
  for (int i = 0; i < n; ++i)
    m->idx[i] = idx[i];
  m->value = value;
}

MlirValue cu_memo_get(CuKernel *K, CuMemoKind kind, int key, int n, const MlirValue *idx) {
  for (int e = K->n_memo - 1; e >= 0; --e) {
    const CuMemo *m = &K->memo[e];
    if (m->kind != kind || m->key != key || m->n != n)
      continue;
    int i = 0;
    while (i < n && mlirValueEqual(m->idx[i], idx[i]))
      ++i;
    if (i == n)
      return m->value;
  }
  return (MlirValue){NULL};
}

/* ---- types ---- */

static bool is_narrow_float(MlirType t) { return mlirTypeIsAF16(t) || mlirTypeIsABF16(t); }

MlirType cu_compute_type(MlirType type) { return is_narrow_float(type) ? mlirF32TypeGet(mlirTypeGetContext(type)) : type; }

static MlirValue widen(CgBuilder *b, MlirValue v) {
  MlirType t = mlirValueGetType(v);
  return is_narrow_float(t) ? cg_op(b, "arith.extf", cu_compute_type(t), 1, &v) : v;
}

static MlirValue narrow(CgBuilder *b, MlirValue v, MlirType storage) {
  return mlirTypeEqual(mlirValueGetType(v), storage) ? v : cg_op(b, "arith.truncf", storage, 1, &v);
}

/* ---- scalars from the kernel function (constants), cloned once at the entry ---- */

static CgBuilder at_entry_start(CuKernel *K) {
  CgBuilder s = cg_builder_at_end(K->entry, mlirOperationGetLocation(K->old));
  s.before = mlirBlockGetFirstOperation(K->entry);
  return s;
}

static MlirValue constant_widened(CgBuilder *b, MlirAttribute value) {
  MlirType t = mlirAttributeGetType(value);
  if (is_narrow_float(t))
    value = mlirFloatAttrDoubleGet(b->ctx, cu_compute_type(t), mlirFloatAttrGetValueDouble(value));
  return cg_constant(b, value);
}

/* The constant `value` (widened) at the kernel's entry, remembered as kernel-level `old`'s. */
static MlirValue remember_scalar(CuKernel *K, MlirValue old, MlirAttribute value) {
  CgBuilder at = at_entry_start(K);
  MlirValue v = constant_widened(&at, value);
  K->scalars = realloc(K->scalars, (size_t)(K->n_scalars + 1) * sizeof *K->scalars);
  K->scalars[K->n_scalars] = v;
  braze_ptrmap_put(&K->scalar_index, braze_ptr_key(old.ptr), K->n_scalars++);
  return v;
}

static MlirValue outside_scalar(CuKernel *K, MlirValue old) {
  int i = braze_ptrmap_get(&K->scalar_index, braze_ptr_key(old.ptr), -1);
  if (i >= 0)
    return K->scalars[i];
  MlirOperation def = mlirValueIsAOpResult(old) ? mlirOpResultGetOwner(old) : (MlirOperation){NULL};
  if (mlirOperationIsNull(def) || !braze_op_is(def, "arith.constant")) {
    cu_fail(K, def, "a generic body reads a scalar that is not a constant");
    return (MlirValue){NULL};
  }
  return remember_scalar(K, old, mlirOperationGetAttributeByName(def, braze_ref("value")));
}

static MlirValue splat_value(CuKernel *K, const CuVal *v) {
  MlirValue s = v->splat;
  if (!mlirTypeIsARankedTensor(mlirValueGetType(s)))
    return outside_scalar(K, s);
  int i = braze_ptrmap_get(&K->scalar_index, braze_ptr_key(s.ptr), -1);
  if (i >= 0)
    return K->scalars[i];
  MlirAttribute dense = mlirOperationGetAttributeByName(mlirOpResultGetOwner(s), braze_ref("value"));
  return remember_scalar(K, s, mlirDenseElementsAttrGetSplatValue(dense));
}

/* ---- bodies ---- */

/* A body value's clone; a value from outside the body is a kernel-level constant. */
static MlirValue vmap_get(CuKernel *K, const BrazeValueMap *m, MlirValue old) {
  MlirValue v;
  return braze_valuemap_find(m, old, &v) ? v : outside_scalar(K, old);
}

static MlirValue load_arg(CuKernel *K, CgBuilder *b, int arg, const CuPoint *p);

/* linalg.index: the loop's index at the point being evaluated; tensor.extract (a
 * gather's indexed read at a computed position) of a kernel argument: a load there
 * (of a splat: its scalar). False after a diagnostic (a matmul epilogue has no point;
 * a tensor computed in the kernel has no memory to read at a data-dependent index). */
static bool indexed_op(CuKernel *K, CgBuilder *b, MlirOperation op, BrazeValueMap *m) {
  MlirValue result = mlirOperationGetResult(op, 0);
  if (braze_op_is(op, "linalg.index")) {
    int64_t d = mlirIntegerAttrGetValueInt(mlirOperationGetAttributeByName(op, braze_ref("dim")));
    if (!K->body_point || d < 0 || d >= K->body_point->n)
      return cu_fail(K, op, "linalg.index (a gather) outside an element or row kernel's generic is not supported");
    braze_valuemap_put(m, result, K->body_point->idx[d]);
    return true;
  }
  int v = braze_ptrmap_get(&K->val_index, braze_ptr_key(mlirOperationGetOperand(op, 0).ptr), -1);
  CuPoint at = {.n = (int)mlirOperationGetNumOperands(op) - 1, .vec = 1};
  if (v >= 0 && K->vals[v].kind == CV_SPLAT) {
    braze_valuemap_put(m, result, splat_value(K, &K->vals[v]));
    return !K->failed;
  }
  if (v < 0 || K->vals[v].kind != CV_ARG || at.n > CU_MAX_DIMS)
    return cu_fail(K, op, "tensor.extract (a gather's indexed read) of a tensor that is not a kernel argument");
  for (int i = 0; i < at.n; ++i)
    at.idx[i] = vmap_get(K, m, mlirOperationGetOperand(op, 1 + i));
  braze_valuemap_put(m, result, load_arg(K, b, K->vals[v].arg, &at));
  return !K->failed;
}

/* One body op at b in the compute type; false after a diagnostic. */
static bool clone_op(CuKernel *K, CgBuilder *b, MlirOperation op, BrazeValueMap *m) {
  if (braze_op_is(op, "linalg.index") || braze_op_is(op, "tensor.extract"))
    return indexed_op(K, b, op, m);
  if (braze_op_is(op, "arith.constant")) {
    braze_valuemap_put(m, mlirOperationGetResult(op, 0),
             constant_widened(b, mlirOperationGetAttributeByName(op, braze_ref("value"))));
    return true;
  }
  MlirValue first = mlirOperationGetNumOperands(op) ? vmap_get(K, m, mlirOperationGetOperand(op, 0)) : (MlirValue){NULL};
  if (K->failed)
    return false;
  MlirValue result = mlirOperationGetNumResults(op) == 1 ? mlirOperationGetResult(op, 0) : (MlirValue){NULL};
  if (braze_op_is(op, "arith.extf") &&
      mlirTypeEqual(mlirValueGetType(first), cu_compute_type(mlirValueGetType(result)))) {
    braze_valuemap_put(m, result, first); /* already widened */
    return true;
  }
  MlirOperation copy = mlirOperationClone(op);
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); ++i)
    mlirOperationSetOperand(copy, i, vmap_get(K, m, mlirOperationGetOperand(op, i)));
  cg_insert(b, copy);
  if (K->contract && (braze_op_is(op, "arith.mulf") || braze_op_is(op, "arith.addf") || braze_op_is(op, "arith.subf")))
    mlirOperationSetAttributeByName(copy, braze_ref("fastmath"), cg_parse_attr(K->ctx, "#arith.fastmath<contract>"));
  for (intptr_t r = 0; r < mlirOperationGetNumResults(op); ++r) {
    MlirValue res = mlirOperationGetResult(copy, r);
    MlirType t = mlirValueGetType(res);
    if (is_narrow_float(t) && braze_op_is(op, "arith.truncf"))
      braze_valuemap_put(m, mlirOperationGetResult(op, r), widen(b, res)); /* keep the rounding */
    else {
      mlirValueSetType(res, cu_compute_type(t));
      braze_valuemap_put(m, mlirOperationGetResult(op, r), res);
    }
  }
  return !K->failed;
}

MlirValue cu_clone_body(CuKernel *K, CgBuilder *b, const CuItem *item, const MlirValue *args) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(item->op, 0));
  BrazeValueMap m = {0};
  for (intptr_t a = 0; a < mlirBlockGetNumArguments(body); ++a)
    braze_valuemap_put(&m, mlirBlockGetArgument(body, a), args[a]);
  MlirOperation yield = mlirBlockGetTerminator(body);
  MlirValue out = {NULL};
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationEqual(op, yield);
       op = mlirOperationGetNextInBlock(op))
    if (!clone_op(K, b, op, &m))
      goto done;
  out = vmap_get(K, &m, mlirOperationGetOperand(yield, 0));
done:
  braze_valuemap_free(&m);
  return out;
}

MlirValue cu_combine(CuKernel *K, CgBuilder *b, const CuItem *item, MlirValue x, MlirValue y) {
  (void)K;
  MlirOperation copy = mlirOperationClone(item->combiner);
  mlirOperationSetOperand(copy, 0, x);
  mlirOperationSetOperand(copy, 1, y);
  cg_insert(b, copy);
  MlirValue r = mlirOperationGetResult(copy, 0);
  mlirValueSetType(r, mlirValueGetType(x));
  return r;
}

MlirValue cu_identity(CuKernel *K, CgBuilder *b, const CuItem *item) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(item->op, 0));
  MlirType t = cu_compute_type(mlirValueGetType(mlirBlockGetArgument(body, mlirBlockGetNumArguments(body) - 1)));
  MlirOperation c = item->combiner;
  if (mlirTypeIsAFloat(t)) {
    double v = braze_op_is(c, "arith.mulf")                                          ? 1.0
               : braze_op_is(c, "arith.maximumf") || braze_op_is(c, "arith.maxnumf") ? -INFINITY
               : braze_op_is(c, "arith.minimumf") || braze_op_is(c, "arith.minnumf") ? INFINITY
                                                                                     : 0.0;
    return cg_constant(b, mlirFloatAttrDoubleGet(K->ctx, t, v));
  }
  unsigned w = mlirIntegerTypeGetWidth(t);
  int64_t smin = w >= 64 ? INT64_MIN : -(INT64_C(1) << (w - 1)), smax = w >= 64 ? INT64_MAX : (INT64_C(1) << (w - 1)) - 1;
  int64_t v = braze_op_is(c, "arith.muli")                                      ? 1
              : braze_op_is(c, "arith.maxsi")                                   ? smin
              : braze_op_is(c, "arith.minsi")                                   ? smax
              : braze_op_is(c, "arith.minui") || braze_op_is(c, "arith.andi") ? -1
                                                                                : 0;
  return cg_constant(b, mlirIntegerAttrGet(t, v));
}

/* A reduction's outs is a fill of its combiner's identity (0 for sums and matmuls,
 * -inf for max): the accumulated value needs no combine with it. */
static bool init_is_identity(CuKernel *K, const CuItem *item) {
  const CuVal *init = &K->vals[item->init_val];
  if (init->kind != CV_SPLAT || mlirTypeIsARankedTensor(mlirValueGetType(init->splat)) ||
      !mlirValueIsAOpResult(init->splat))
    return false;
  MlirOperation def = mlirOpResultGetOwner(init->splat);
  if (!braze_op_is(def, "arith.constant"))
    return false;
  MlirAttribute value = mlirOperationGetAttributeByName(def, braze_ref("value"));
  CgBuilder scratch = at_entry_start(K);
  MlirValue id = cu_identity(K, &scratch, item);
  MlirAttribute id_value = mlirOperationGetAttributeByName(mlirOpResultGetOwner(id), braze_ref("value"));
  bool same = mlirTypeEqual(mlirAttributeGetType(value), mlirAttributeGetType(id_value)) &&
              mlirAttributeEqual(value, id_value);
  mlirOperationDestroy(mlirOpResultGetOwner(id));
  return same;
}

MlirValue cu_finish_reduction(CuKernel *K, CgBuilder *b, const CuItem *item, const CuPoint *at, MlirValue total) {
  if (init_is_identity(K, item))
    return total;
  MlirValue init = cu_eval(K, b, item->init_val, at);
  return K->failed ? init : cu_combine(K, b, item, init, total);
}

/* ---- points ---- */

bool cu_input_walks_last(const CuItem *item, int in) {
  MlirAffineMap map = item->maps[in];
  intptr_t n = mlirAffineMapGetNumResults(map);
  uint64_t inner = 1ull << (item->n_dims - 1);
  bool last_only = n > 0 && cg_affine_dims(mlirAffineMapGetResult(map, n - 1)) == inner &&
                   mlirAffineExprIsADim(mlirAffineMapGetResult(map, n - 1));
  for (intptr_t r = 0; r + 1 < n && last_only; ++r)
    last_only = !(cg_affine_dims(mlirAffineMapGetResult(map, r)) & inner);
  return last_only;
}

CuPoint cu_input_point(CgBuilder *b, const CuItem *item, int in, const CuPoint *dims) {
  MlirAffineMap map = item->maps[in];
  CuPoint q = {.n = (int)mlirAffineMapGetNumResults(map), .vec = 1};
  for (int r = 0; r < q.n; ++r)
    q.idx[r] = cg_affine(b, mlirAffineMapGetResult(map, r), dims->idx);
  if (dims->vec > 1 && q.n > 0) {
    if (cu_input_walks_last(item, in)) {
      q.vec = dims->vec;
      q.lane = dims->lane;
      for (int r = 0; r < q.n; ++r)
        q.idx0[r] = cg_affine(b, mlirAffineMapGetResult(map, r), dims->idx0);
    }
  }
  return q;
}

/* i1 memrefs are accessed one element at a time: LLVM lays a vector<N x i1> out in
 * memory as N bits, not the N bytes of the memref (a 4-lane store of a comparison
 * wrote one byte for four results). */
static bool is_i1(MlirType elem) { return mlirTypeIsAInteger(elem) && mlirIntegerTypeGetWidth(elem) == 1; }

/* Argument `arg` viewed as one flat memref (made once, at the kernel's entry). */
static MlirValue flat_view(CuKernel *K, int arg) {
  MlirValue view = cu_memo_get(K, MEMO_FLAT_VIEW, arg, 0, NULL);
  if (!mlirValueIsNull(view))
    return view;
  MlirValue mem = mlirBlockGetArgument(K->entry, arg);
  MlirType t = mlirValueGetType(mem);
  intptr_t rank = mlirShapedTypeGetRank(t);
  int64_t count = 1;
  char dims[8 * CU_MAX_DIMS + 16] = "[[";
  for (intptr_t d = 0; d < rank; ++d) {
    count *= mlirShapedTypeGetDimSize(t, d);
    snprintf(dims + strlen(dims), sizeof dims - strlen(dims), "%s%d", d ? ", " : "", (int)d);
  }
  strcat(dims, "]]");
  MlirType flat = mlirMemRefTypeContiguousGet(mlirShapedTypeGetElementType(t), 1, &count, mlirAttributeGetNull());
  MlirNamedAttribute reassoc = cg_named(K->ctx, "reassociation", cg_parse_attr(K->ctx, dims));
  CgBuilder at = at_entry_start(K);
  view = mlirOperationGetResult(cg_create(&at, "memref.collapse_shape", 1, &mem, 1, &flat, 1, &reassoc), 0);
  cu_memo_put(K, MEMO_FLAT_VIEW, arg, 0, NULL, view);
  return view;
}

static MlirValue extract_lane(CuKernel *K, CgBuilder *b, MlirValue vec, int lane, MlirType elem) {
  char pos[48];
  snprintf(pos, sizeof pos, "array<i64: %d>", lane);
  MlirNamedAttribute at = cg_named(K->ctx, "static_position", cg_parse_attr(K->ctx, pos));
  return widen(b, mlirOperationGetResult(cg_create(b, "vector.extract", 1, &vec, 1, &elem, 1, &at), 0));
}

/* A flat point's lane: one vector load per group from the flat view, aligned to a
 * vector where every group starts at a multiple of its width, else to an element. */
static MlirValue load_flat(CuKernel *K, CgBuilder *b, int arg, const CuPoint *p, MlirType elem) {
  MlirValue vec = cu_memo_get(K, MEMO_FLAT_LOAD, arg, 1, p->idx0);
  if (mlirValueIsNull(vec)) {
    MlirValue ops[2] = {flat_view(K, arg), p->idx0[0]};
    int64_t lanes = p->vec;
    MlirType vt = mlirVectorTypeGet(1, &lanes, elem);
    MlirNamedAttribute align =
        cg_named(K->ctx, "alignment", mlirIntegerAttrGet(mlirIntegerTypeGet(K->ctx, 64),
                                                         (p->flat == 2 ? lanes : 1) * cg_elem_bytes(elem)));
    vec = mlirOperationGetResult(cg_create(b, "vector.load", 2, ops, 1, &vt, 1, &align), 0);
    cu_memo_put(K, MEMO_FLAT_LOAD, arg, 1, p->idx0, vec);
  }
  return extract_lane(K, b, vec, p->lane, elem);
}

static MlirValue load_arg(CuKernel *K, CgBuilder *b, int arg, const CuPoint *p) {
  MlirValue mem = mlirBlockGetArgument(K->entry, arg);
  MlirType elem = mlirShapedTypeGetElementType(mlirValueGetType(mem));
  if (p->flat)
    return load_flat(K, b, arg, p, elem);
  if (p->vec > 1 && !is_i1(elem)) {
    MlirValue vec = cu_memo_get(K, MEMO_VLOAD, arg, p->n, p->idx0);
    if (mlirValueIsNull(vec)) {
      MlirValue ops[1 + CU_MAX_DIMS] = {mem};
      for (int i = 0; i < p->n; ++i)
        ops[1 + i] = p->idx0[i];
      int64_t lanes = p->vec;
      MlirType vt = mlirVectorTypeGet(1, &lanes, elem);
      MlirNamedAttribute align =
          cg_named(K->ctx, "alignment", mlirIntegerAttrGet(mlirIntegerTypeGet(K->ctx, 64), lanes * cg_elem_bytes(elem)));
      vec = mlirOperationGetResult(cg_create(b, "vector.load", 1 + p->n, ops, 1, &vt, 1, &align), 0);
      cu_memo_put(K, MEMO_VLOAD, arg, p->n, p->idx0, vec);
    }
    return extract_lane(K, b, vec, p->lane, elem);
  }
  MlirValue v = cu_memo_get(K, MEMO_LOAD, arg, p->n, p->idx);
  if (mlirValueIsNull(v)) {
    v = widen(b, cg_load(b, mem, p->n, p->idx));
    cu_memo_put(K, MEMO_LOAD, arg, p->n, p->idx, v);
  }
  return v;
}

MlirValue cu_eval_generic(CuKernel *K, CgBuilder *b, const CuItem *it, const CuPoint *dims, MlirValue acc) {
  MlirValue args[CU_MAX_INPUTS + 1];
  for (int i = 0; i < it->n_in; ++i) {
    CuPoint q;
    if (!cu_flat_point(K, b, it, i, dims, &q))
      q = cu_input_point(b, it, i, dims);
    args[i] = cu_eval(K, b, it->in_val[i], &q);
    if (K->failed)
      return (MlirValue){NULL};
  }
  args[it->n_in] = acc;
  const CuPoint *saved = K->body_point;
  K->body_point = dims;
  MlirValue r = cu_clone_body(K, b, it, args);
  K->body_point = saved;
  return r;
}

/* A reduction at output point p as serial loops over its reduction dims. */
static MlirValue serial_loops(CuKernel *K, CgBuilder *b, const CuItem *it, CuPoint *dims, int d, MlirValue acc) {
  while (d < it->n_dims && it->par[d])
    ++d;
  if (d == it->n_dims)
    return cu_eval_generic(K, b, it, dims, acc);
  CgBuilder body;
  MlirValue iv, iter;
  MlirOperation loop = cg_for(b, cg_index(b, 0), cg_index(b, it->ext[d]), 1, &acc, &body, &iv, &iter);
  dims->idx[d] = iv;
  int mark = cu_scope_open(K);
  MlirValue next = serial_loops(K, &body, it, dims, d + 1, iter);
  cu_scope_close(K, mark);
  if (K->failed)
    return (MlirValue){NULL};
  cg_yield(&body, 1, &next);
  return mlirOperationGetResult(loop, 0);
}

static MlirValue eval_reduction(CuKernel *K, CgBuilder *b, const CuItem *it, const CuPoint *p) {
  if (!mlirValueIsNull(it->row_value))
    return it->row_value;
  CuPoint dims = {.n = it->n_dims, .vec = 1};
  MlirAffineMap out = it->maps[it->n_in];
  for (int r = 0; r < p->n; ++r) {
    MlirAffineExpr e = mlirAffineMapGetResult(out, r);
    if (mlirAffineExprIsADim(e))
      dims.idx[mlirAffineDimExprGetPosition(e)] = p->idx[r];
  }
  CuPoint init_at = *p;
  init_at.vec = 1;
  MlirValue acc = cu_eval(K, b, it->init_val, &init_at);
  if (K->failed)
    return acc;
  return serial_loops(K, b, it, &dims, 0, acc);
}

MlirValue cu_eval(CuKernel *K, CgBuilder *b, int val, const CuPoint *p) {
  const CuVal *v = &K->vals[val];
  switch (v->kind) {
  case CV_ARG:
    return load_arg(K, b, v->arg, p);
  case CV_SPLAT:
    return splat_value(K, v);
  case CV_EMPTY:
    cu_fail(K, mlirOpResultGetOwner(v->tensor), "reads an uninitialized tensor");
    return (MlirValue){NULL};
  case CV_INSERT:
    cu_fail(K, mlirOpResultGetOwner(v->tensor), "a concatenation read inside its kernel is not supported");
    return (MlirValue){NULL};
  case CV_ITEM:
    break;
  }
  MlirValue memo = cu_memo_get(K, MEMO_VALUE, val, p->n, p->idx);
  if (!mlirValueIsNull(memo))
    return memo;
  const CuItem *it = &K->items[v->item];
  MlirValue r;
  if (it->reduction) {
    r = eval_reduction(K, b, it, p);
  } else {
    MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(it->op, 0));
    MlirValue out_arg = mlirBlockGetArgument(body, it->n_in);
    MlirValue init = {NULL};
    if (!mlirOpOperandIsNull(mlirValueGetFirstUse(out_arg))) {
      CuPoint at = *p;
      init = cu_eval(K, b, it->init_val, &at);
    }
    r = K->failed ? init : cu_eval_generic(K, b, it, p, init);
  }
  if (!K->failed)
    cu_memo_put(K, MEMO_VALUE, val, p->n, p->idx, r);
  return r;
}

void cu_store(CuKernel *K, CgBuilder *b, int val, const CuPoint *p, const MlirValue *lanes) {
  cu_store_result(K, b, K->vals[val].out_index, p, lanes);
}

void cu_store_result(CuKernel *K, CgBuilder *b, int out, const CuPoint *p, const MlirValue *lanes) {
  MlirValue mem = mlirBlockGetArgument(K->entry, K->n_in + out);
  MlirType elem = mlirShapedTypeGetElementType(mlirValueGetType(mem));
  if (p->vec == 1) {
    cg_store(b, narrow(b, lanes[0], elem), mem, p->n, p->idx);
    return;
  }
  if (is_i1(elem)) { /* lane by lane along the last index */
    MlirValue idx[CU_MAX_DIMS];
    for (int l = 0; l < p->vec; ++l) {
      for (int i = 0; i < p->n; ++i)
        idx[i] = p->idx0[i];
      MlirValue add[2] = {p->idx0[p->n - 1], cg_index(b, l)};
      idx[p->n - 1] = l ? cg_op(b, "arith.addi", cg_index_type(K->ctx), 2, add) : p->idx0[p->n - 1];
      cg_store(b, narrow(b, lanes[l], elem), mem, p->n, idx);
    }
    return;
  }
  MlirValue parts[16];
  for (int l = 0; l < p->vec; ++l)
    parts[l] = narrow(b, lanes[l], elem);
  int64_t n = p->vec;
  MlirType vt = mlirVectorTypeGet(1, &n, elem);
  MlirValue vec = cg_op(b, "vector.from_elements", vt, p->vec, parts);
  MlirValue ops[2 + CU_MAX_DIMS] = {vec, mem};
  for (int i = 0; i < p->n; ++i)
    ops[2 + i] = p->idx0[i];
  MlirNamedAttribute align =
      cg_named(K->ctx, "alignment", mlirIntegerAttrGet(mlirIntegerTypeGet(K->ctx, 64), n * cg_elem_bytes(elem)));
  cg_create(b, "vector.store", 2 + p->n, ops, 0, NULL, 1, &align);
}
