/* Runtime loops, the target-level function (targets/common/dynamic-loops.h): the
 * loop-level function (linalg.generic / linalg.fill / tensor.empty on tensors, static
 * at one size) written once as scf loops over memrefs whose symbolic dims are `?`,
 * every extent computed from the size argument s.
 *
 * Buffers: an op's result reuses its init's buffer when the init has no other use;
 * tensor.empty is a memref.alloc (freed before the return) unless its chain ends in a
 * returned value, which is then computed in the output buffer itself.
 * Loops per generic: one scf.parallel over the parallel dims (OpenMP after lowering),
 * inside it the reduction dims as scf.for carrying the accumulators in iter_args
 * (fastmath reassoc, so LLVM vectorizes them: a vector body and a scalar remainder at
 * any trip count), or, without reductions, the innermost parallel dim as an scf.for.
 * An all-parallel generic whose one reader (not a contraction) reads each of its
 * elements once is computed inside that reader, with no buffer and no pass of its own
 * (BRAZE_DYNAMIC_FUSE=0: off).
 * f32 contractions call cblas_sgemm with run-time M, N, K (an operand read through a
 * view copied to a plain buffer first); other contractions (mulf + addf over one
 * reduction dim k) whose second operand is contiguous along n run k outside n:
 * out[.., n] += a * b[.., k, n], n innermost and vectorized. The matmul template is
 * not used: its tiles and packing are chosen for static sizes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/build.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Dialect/LLVM.h"
#include "support/context.h"
#include "support/diag.h"
#include "targets/common/dynamic-loops-internal.h"



void  dl_put(Em *e, MlirValue old, MlirValue v) {
  if (e->n_vals == e->cap_vals) {
    e->cap_vals = e->cap_vals ? 2 * e->cap_vals : 256;
    e->vals = realloc(e->vals, (size_t)e->cap_vals * sizeof *e->vals);
  }
  e->vals[e->n_vals] = v;
  braze_ptrmap_put(&e->map, braze_ptr_key(old.ptr), e->n_vals++);
}

MlirValue  dl_get(const Em *e, MlirValue old) {
  int i = braze_ptrmap_get(&e->map, braze_ptr_key(old.ptr), -1);
  return i < 0 ? (MlirValue){NULL} : e->vals[i];
}

static const char *name_of(MlirOperation op, char *buf, size_t cap) {
  MlirStringRef s = mlirIdentifierStr(mlirOperationGetName(op));
  snprintf(buf, cap, "%.*s", (int)s.length, s.data);
  return buf;
}

static bool refuse(const Em *e, MlirOperation op, const char *why) {
  char name[64];
  braze_emit_remark(mlirOperationGetLocation(op), "'%s' op over symbolic dim %s: %s", name_of(op, name, sizeof name),
                    e->sym, why);
  return false;
}

static MlirValue size_at(Em *e, CgBuilder *b, const BrazeDynDim *d, MlirValue s) {
  if (d->coef == 0)
    return cg_index(b, d->off);
  MlirValue v = s;
  if (d->coef != 1)
    v = cg_op(b, "arith.muli", cg_index_type(e->ctx), 2, (MlirValue[]){v, cg_index(b, d->coef)});
  if (d->off)
    v = cg_op(b, "arith.addi", cg_index_type(e->ctx), 2, (MlirValue[]){v, cg_index(b, d->off)});
  return v;
}

static MlirValue size_value(Em *e, CgBuilder *b, const BrazeDynDim *d) { return size_at(e, b, d, e->s); }

/* Dim `d` of old tensor value `v` at run time. */
MlirValue  dl_dim_value(Em *e, CgBuilder *b, MlirValue v, intptr_t d) {
  const BrazeDynShape *sh = braze_dyn_shape_of(e->f, v);
  if (sh && sh->dim[d].coef)
    return size_value(e, b, &sh->dim[d]);
  return cg_index(b, mlirShapedTypeGetDimSize(mlirValueGetType(v), d));
}

static bool is_symbolic_dim(const Em *e, MlirValue v, intptr_t d) {
  const BrazeDynShape *sh = braze_dyn_shape_of(e->f, v);
  return sh && sh->dim[d].coef != 0;
}

/* The memref type of old tensor value `v`: its symbolic dims `?`. */
static MlirType memref_of(const Em *e, MlirValue v) {
  MlirType t = mlirValueGetType(v);
  intptr_t rank = mlirShapedTypeGetRank(t);
  int64_t shape[MAX_LOOPS];
  for (intptr_t d = 0; d < rank; ++d)
    shape[d] = is_symbolic_dim(e, v, d) ? mlirShapedTypeGetDynamicSize() : mlirShapedTypeGetDimSize(t, d);
  return cg_memref_of(mlirShapedTypeGetElementType(t), rank, shape);
}

static MlirValue round64_bytes(Em *e, CgBuilder *b, MlirValue n, int64_t elem) {
  MlirType index = cg_index_type(e->ctx);
  MlirValue bytes = cg_op(b, "arith.muli", index, 2, (MlirValue[]){n, cg_index(b, elem)});
  MlirValue up = cg_op(b, "arith.addi", index, 2, (MlirValue[]){bytes, cg_index(b, 63)});
  MlirValue q = cg_op(b, "arith.divui", index, 2, (MlirValue[]){up, cg_index(b, 64)});
  return cg_op(b, "arith.muli", index, 2, (MlirValue[]){q, cg_index(b, 64)});
}

/* A buffer of `rank` dims (forms `dims`) in the workspace: a memref.view at the
 * running offset, which grows by its 64-byte-rounded size; NAME__braze_loops_bytes
 * adds the same size to its total. */
MlirValue  dl_ws_view(Em *e, CgBuilder *b, MlirType elem, int rank, const BrazeDynDim *dims) {
  MlirType index = cg_index_type(e->ctx);
  MlirValue dyn[MAX_LOOPS], n = cg_index(b, 1), nb = cg_index(&e->wb, 1);
  int64_t shape[MAX_LOOPS];
  int nd = 0;
  for (int d = 0; d < rank; ++d) {
    MlirValue v = size_at(e, b, &dims[d], e->s);
    if (dims[d].coef) {
      dyn[nd++] = v;
      shape[d] = mlirShapedTypeGetDynamicSize();
    } else {
      shape[d] = dims[d].off;
    }
    n = cg_op(b, "arith.muli", index, 2, (MlirValue[]){n, v});
    nb = cg_op(&e->wb, "arith.muli", index, 2, (MlirValue[]){nb, size_at(e, &e->wb, &dims[d], e->ws_s)});
  }
  int64_t eb = cg_elem_bytes(elem);
  MlirType mt = cg_memref_of(elem, rank, shape);
  MlirValue ops[2 + MAX_LOOPS] = {e->ws, e->off};
  for (int i = 0; i < nd; ++i)
    ops[2 + i] = dyn[i];
  MlirValue m = mlirOperationGetResult(cg_create(b, "memref.view", 2 + nd, ops, 1, &mt, 0, NULL), 0);
  e->off = cg_op(b, "arith.addi", index, 2, (MlirValue[]){e->off, round64_bytes(e, b, n, eb)});
  e->total = cg_op(&e->wb, "arith.addi", index, 2, (MlirValue[]){e->total, round64_bytes(e, &e->wb, nb, eb)});
  braze_ptrmap_put(&e->writable, braze_ptr_key(m.ptr), 1);
  return m;
}

static MlirValue alloc_like(Em *e, CgBuilder *b, MlirValue v) {
  MlirType t = mlirValueGetType(v);
  const BrazeDynShape *sh = braze_dyn_shape_of(e->f, v);
  BrazeDynDim dims[MAX_LOOPS];
  int rank = (int)mlirShapedTypeGetRank(t);
  for (int d = 0; d < rank; ++d)
    dims[d] = sh && sh->dim[d].coef ? sh->dim[d] : (BrazeDynDim){0, mlirShapedTypeGetDimSize(t, d)};
  return dl_ws_view(e, b, mlirShapedTypeGetElementType(t), rank, dims);
}

static int num_uses(MlirValue v) {
  int n = 0;
  for (MlirOpOperand u = mlirValueGetFirstUse(v); !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u))
    ++n;
  return n;
}

/* The buffer an op writes for its init `t`: t's own when nothing else reads t and it
 * is writable, else a copy. */
static MlirValue dest_for(Em *e, CgBuilder *b, MlirValue t) {
  MlirValue src = dl_get(e, t);
  if (num_uses(t) == 1 && braze_ptrmap_get(&e->writable, braze_ptr_key(src.ptr), 0))
    return src;
  MlirValue m = alloc_like(e, b, t);
  cg_create(b, "memref.copy", 2, (MlirValue[]){src, m}, 0, NULL, 0, NULL);
  return m;
}

/* scf.parallel over [0, ub[i]) with run-time bounds. */
MlirOperation  dl_par_loop(Em *e, CgBuilder *b, int n, const MlirValue *ub, CgBuilder *body, MlirValue *ivs) {
  MlirValue operands[3 * MAX_LOOPS];
  MlirType types[MAX_LOOPS];
  MlirLocation locs[MAX_LOOPS];
  for (int i = 0; i < n; ++i) {
    operands[i] = cg_index(b, 0);
    operands[n + i] = ub[i];
    operands[2 * n + i] = cg_index(b, 1);
    types[i] = cg_index_type(e->ctx);
    locs[i] = b->loc;
  }
  MlirBlock block = mlirBlockCreate(n, types, locs);
  MlirRegion region = mlirRegionCreate();
  mlirRegionAppendOwnedBlock(region, block);
  char seg[64];
  snprintf(seg, sizeof seg, "array<i32: %d, %d, %d, 0>", n, n, n);
  MlirNamedAttribute attr = cg_named(e->ctx, "operandSegmentSizes", cg_parse_attr(e->ctx, seg));
  MlirOperationState st = mlirOperationStateGet(braze_ref("scf.parallel"), b->loc);
  mlirOperationStateAddOperands(&st, 3 * n, operands);
  mlirOperationStateAddAttributes(&st, 1, &attr);
  mlirOperationStateAddOwnedRegions(&st, 1, &region);
  MlirOperation op = cg_insert(b, mlirOperationCreate(&st));
  CgBuilder end = cg_builder_at_end(block, b->loc);
  end.pool = NULL;
  body->before = cg_create(&end, "scf.reduce", 0, NULL, 0, NULL, 0, NULL);
  body->ctx = e->ctx;
  body->loc = b->loc;
  body->block = block;
  body->pool = NULL;
  for (int i = 0; i < n; ++i)
    ivs[i] = mlirBlockGetArgument(block, i);
  return op;
}

MlirValue  dl_load_at(Em *e, CgBuilder *b, MlirValue mem, MlirAffineMap map, const MlirValue *ivs) {
  intptr_t n = mlirAffineMapGetNumResults(map);
  MlirValue idx[MAX_LOOPS];
  for (intptr_t r = 0; r < n; ++r)
    idx[r] = cg_affine(b, mlirAffineMapGetResult(map, r), ivs);
  (void)e;
  return cg_load(b, mem, n, idx);
}

static void store_at(CgBuilder *b, MlirValue v, MlirValue mem, MlirAffineMap map, const MlirValue *ivs) {
  intptr_t n = mlirAffineMapGetNumResults(map);
  MlirValue idx[MAX_LOOPS];
  for (intptr_t r = 0; r < n; ++r)
    idx[r] = cg_affine(b, mlirAffineMapGetResult(map, r), ivs);
  cg_store(b, v, mem, n, idx);
}

static bool is_float_arith(MlirOperation op) {
  return braze_op_is(op, "arith.addf") || braze_op_is(op, "arith.mulf") || braze_op_is(op, "arith.subf") ||
         braze_op_is(op, "arith.maximumf") || braze_op_is(op, "arith.minimumf");
}

static bool emit_constant(Em *e, CgBuilder *b, MlirOperation op);

/* Clone the generic's body at b: block args bound to `args`; `ivs` serve
 * linalg.index; yields into `yields`. */
bool  dl_clone_body(Em *e, CgBuilder *b, MlirBlock body, const MlirValue *args, const MlirValue *ivs,
                       bool reassoc, MlirValue *yields, intptr_t *n_yields) {
  for (intptr_t i = 0; i < mlirBlockGetNumArguments(body); ++i)
    dl_put(e, mlirBlockGetArgument(body, i), args[i]);
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    if (braze_op_is(op, "linalg.yield")) {
      *n_yields = mlirOperationGetNumOperands(op);
      for (intptr_t i = 0; i < *n_yields; ++i)
        yields[i] = dl_get(e, mlirOperationGetOperand(op, i));
      return true;
    }
    if (braze_op_is(op, "linalg.index")) {
      int64_t d = mlirIntegerAttrGetValueInt(mlirOperationGetAttributeByName(op, braze_ref("dim")));
      dl_put(e, mlirOperationGetResult(op, 0), ivs[d]);
      continue;
    }
    if (braze_op_is(op, "tensor.extract")) {
      intptr_t n = mlirOperationGetNumOperands(op) - 1;
      MlirValue idx[MAX_LOOPS];
      for (intptr_t i = 0; i < n && i < MAX_LOOPS; ++i)
        idx[i] = dl_get(e, mlirOperationGetOperand(op, i + 1));
      MlirValue mem = dl_get(e, mlirOperationGetOperand(op, 0));
      if (mlirValueIsNull(mem) || n > MAX_LOOPS)
        return refuse(e, op, "reads a tensor runtime loops have no buffer for");
      dl_put(e, mlirOperationGetResult(op, 0), cg_load(b, mem, n, idx));
      continue;
    }
    if (braze_op_is(op, "arith.constant") && braze_dyn_const_of(e->f, op)) { /* k*s or k/s */
      if (!emit_constant(e, b, op))
        return false;
      continue;
    }
    if (mlirOperationGetNumRegions(op) > 0)
      return refuse(e, op, "has regions inside a linalg.generic body");
    MlirOperation c = mlirOperationClone(op);
    for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); ++i) {
      MlirValue v = dl_get(e, mlirOperationGetOperand(op, i));
      if (mlirValueIsNull(v)) {
        mlirOperationDestroy(c);
        return refuse(e, op, "uses a value defined outside the function body");
      }
      mlirOperationSetOperand(c, i, v);
    }
    if (is_float_arith(op))
      mlirOperationSetAttributeByName(
          c, braze_ref("fastmath"),
          cg_parse_attr(e->ctx, reassoc ? "#arith.fastmath<reassoc,contract>" : "#arith.fastmath<contract>"));
    cg_insert(b, c);
    for (intptr_t i = 0; i < mlirOperationGetNumResults(op); ++i)
      dl_put(e, mlirOperationGetResult(op, i), mlirOperationGetResult(c, i));
  }
  return refuse(e, mlirBlockGetParentOperation(body), "a linalg.generic body without linalg.yield");
}





/* The contraction's n dim when the generic is out[..] += a * b over one reduction dim
 * and an input is contiguous along n (its last index): else -1. */
int  dl_axpy_dim(const Gen *g) {
  if (!dl_contraction_body(g))
    return -1;
  MlirAffineMap out = g->maps[2];
  intptr_t r = mlirAffineMapGetNumResults(out);
  if (r == 0 || !mlirAffineExprIsADim(mlirAffineMapGetResult(out, r - 1)))
    return -1;
  int n = (int)mlirAffineDimExprGetPosition(mlirAffineMapGetResult(out, r - 1));
  for (int i = 0; i < 2; ++i) {
    intptr_t ri = mlirAffineMapGetNumResults(g->maps[i]);
    MlirAffineExpr last = ri ? mlirAffineMapGetResult(g->maps[i], ri - 1) : (MlirAffineExpr){NULL};
    if (ri && mlirAffineExprIsADim(last) && (int)mlirAffineDimExprGetPosition(last) == n)
      return n;
  }
  return -1;
}

/* The body is out + a * b (f32, or f16/bf16 extended): a contraction over one
 * reduction dim. */
bool  dl_contraction_body(const Gen *g) {
  int nred = 0;
  for (int d = 0; d < g->n; ++d)
    nred += g->red[d];
  if (nred != 1 || g->nin != 2 || g->nout != 1)
    return false;
  bool mul = false, add = false;
  for (MlirOperation op = mlirBlockGetFirstOperation(g->body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    if (braze_op_is(op, "arith.mulf"))
      mul = true;
    else if (braze_op_is(op, "arith.addf"))
      add = true;
    else if (!braze_op_is(op, "arith.extf") && !braze_op_is(op, "linalg.yield"))
      return false;
  }
  return mul && add;
}

static bool out_arg_used(const Gen *g, int j) {
  return !mlirOpOperandIsNull(mlirValueGetFirstUse(mlirBlockGetArgument(g->body, g->nin + j)));
}

/* Innermost: load inputs (and outputs whose arg is used, unless `accs`), clone, and
 * either store (accs NULL) or return the yields in `accs`. */
static bool point(Em *e, CgBuilder *b, const Gen *g, const MlirValue *ivs, bool reassoc, MlirValue *accs) {
  MlirValue args[16], yields[16];
  intptr_t n_y = 0;
  for (int i = 0; i < g->nin; ++i) {
    args[i] = dl_is_deferred(e, g->opnd[i]) ? dl_eval_deferred(e, b, mlirOpResultGetOwner(g->opnd[i]), g->maps[i], ivs)
                                         : dl_load_at(e, b, g->mem[i], g->maps[i], ivs);
    if (mlirValueIsNull(args[i]))
      return false;
  }
  for (int j = 0; j < g->nout; ++j) {
    int k = g->nin + j;
    if (accs)
      args[k] = accs[j];
    else
      args[k] = out_arg_used(g, j) ? dl_load_at(e, b, g->mem[k], g->maps[k], ivs)
                                   : mlirBlockGetArgument(g->body, k); /* unused */
  }
  if (!dl_clone_body(e, b, g->body, args, ivs, reassoc, yields, &n_y) || n_y != g->nout)
    return false;
  for (int j = 0; j < g->nout; ++j) {
    if (accs)
      accs[j] = yields[j];
    else
      store_at(b, yields[j], g->mem[g->nin + j], g->maps[g->nin + j], ivs);
  }
  return true;
}

/* Reduction dims red[0..nr) as nested scf.for with the accumulators in iter_args. */
static bool reduce_nest(Em *e, CgBuilder *b, const Gen *g, const int *red, int nr, MlirValue *ivs, MlirValue *accs) {
  if (nr == 0)
    return point(e, b, g, ivs, true, accs);
  CgBuilder body;
  MlirValue iv, iter[16];
  MlirOperation loop = cg_for(b, cg_index(b, 0), g->ub[red[0]], g->nout, accs, &body, &iv, iter);
  ivs[red[0]] = iv;
  MlirValue inner[16];
  memcpy(inner, iter, sizeof(MlirValue) * (size_t)g->nout);
  if (!reduce_nest(e, &body, g, red + 1, nr - 1, ivs, inner))
    return false;
  cg_yield(&body, g->nout, inner);
  for (int j = 0; j < g->nout; ++j)
    accs[j] = mlirOperationGetResult(loop, j);
  return true;
}

static bool emit_generic(Em *e, CgBuilder *b, MlirOperation op) {
  Gen g = {0};
  MlirAttribute iters = mlirOperationGetAttributeByName(op, braze_ref("iterator_types"));
  MlirAttribute maps = mlirOperationGetAttributeByName(op, braze_ref("indexing_maps"));
  g.n = (int)mlirArrayAttrGetNumElements(iters);
  g.nout = (int)mlirOperationGetNumResults(op);
  g.nin = (int)mlirOperationGetNumOperands(op) - g.nout;
  if (g.n > MAX_LOOPS || g.nin + g.nout > 16 || g.nin < 0)
    return refuse(e, op, "has more loops or operands than runtime loops take (8 loops, 16 operands)");
  g.body = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0));
  for (int d = 0; d < g.n; ++d)
    g.red[d] = cg_attr_text_has(mlirArrayAttrGetElement(iters, d), "reduction");
  for (int i = 0; i < g.nin + g.nout; ++i) {
    g.maps[i] = mlirAffineMapAttrGetValue(mlirArrayAttrGetElement(maps, i));
    g.opnd[i] = mlirOperationGetOperand(op, i);
    g.mem[i] = i < g.nin ? dl_get(e, g.opnd[i]) : dest_for(e, b, g.opnd[i]);
    if (mlirValueIsNull(g.mem[i]) && !(i < g.nin && dl_is_deferred(e, g.opnd[i])))
      return refuse(e, op, "reads a value runtime loops have no buffer for");
  }
  /* each loop's extent: a dim of an operand indexed by it alone (a static one first) */
  for (int d = 0; d < g.n; ++d) {
    int found = -1, fr = -1;
    for (int i = 0; i < g.nin + g.nout; ++i)
      for (intptr_t r = 0; r < mlirAffineMapGetNumResults(g.maps[i]); ++r) {
        MlirAffineExpr x = mlirAffineMapGetResult(g.maps[i], r);
        if (mlirAffineExprIsADim(x) && mlirAffineDimExprGetPosition(x) == d &&
            (found < 0 || (is_symbolic_dim(e, g.opnd[found], fr) && !is_symbolic_dim(e, g.opnd[i], r)))) {
          found = i;
          fr = (int)r;
        }
      }
    if (found < 0)
      return refuse(e, op, "has a loop that no operand dim bounds");
    g.ub[d] = dl_dim_value(e, b, g.opnd[found], fr);
    const BrazeDynShape *sh = braze_dyn_shape_of(e->f, g.opnd[found]);
    g.ubf[d] = sh && sh->dim[fr].coef ? sh->dim[fr]
                                       : (BrazeDynDim){0, mlirShapedTypeGetDimSize(mlirValueGetType(g.opnd[found]), fr)};
  }
  int par[MAX_LOOPS], red[MAX_LOOPS], np = 0, nr = 0;
  for (int d = 0; d < g.n; ++d) {
    if (g.red[d])
      red[nr++] = d;
    else
      par[np++] = d;
  }
  MlirValue ivs[MAX_LOOPS], ubs[MAX_LOOPS];
  CgBuilder in = *b;
  int nd = dl_axpy_dim(&g), bm, bn, bk;
  bool ta, tb, pa, pb;
  if (dl_blas_fits(&g, &bm, &bn, &bk, &ta, &tb, &pa, &pb)) {
    if (e->remarks)
      braze_emit_remark(mlirOperationGetLocation(op),
                        "runtime loops: a matmul over %s as cblas_sgemm with run-time sizes (the matmul template "
                        "was not used: its tiles and packing are chosen for static sizes)",
                        e->sym);
    dl_emit_blas(e, b, &g, bm, bn, bk, ta, tb, pa, pb);
  } else if (nd >= 0) {
    if (e->remarks)
      braze_emit_remark(mlirOperationGetLocation(op),
                        "runtime loops: a contraction over %s as loops, k outside n (the matmul template was not "
                        "used; cblas_sgemm takes f32 operands with plain (m, k) and (k, n) layouts)",
                        e->sym); /* parallel over all but n; k; n innermost */
    int k = red[0], outer[MAX_LOOPS], no = 0;
    for (int i = 0; i < np; ++i)
      if (par[i] != nd)
        outer[no++] = par[i];
    MlirValue oivs[MAX_LOOPS];
    for (int i = 0; i < no; ++i)
      ubs[i] = g.ub[outer[i]];
    if (no)
      dl_par_loop(e, b, no, ubs, &in, oivs);
    for (int i = 0; i < no; ++i)
      ivs[outer[i]] = oivs[i];
    CgBuilder kb, nb;
    MlirValue kiv, niv;
    cg_for(&in, cg_index(&in, 0), g.ub[k], 0, NULL, &kb, &kiv, NULL);
    ivs[k] = kiv;
    cg_for(&kb, cg_index(&kb, 0), g.ub[nd], 0, NULL, &nb, &niv, NULL);
    ivs[nd] = niv;
    if (!point(e, &nb, &g, ivs, false, NULL))
      return false;
    cg_yield(&nb, 0, NULL);
    cg_yield(&kb, 0, NULL);
  } else if (nr > 0) { /* parallel over all parallel dims; reductions inside */
    for (int i = 0; i < np; ++i)
      ubs[i] = g.ub[par[i]];
    MlirValue pivs[MAX_LOOPS];
    if (np)
      dl_par_loop(e, b, np, ubs, &in, pivs);
    for (int i = 0; i < np; ++i)
      ivs[par[i]] = pivs[i];
    for (int i = 0; i < nr; ++i)
      ivs[red[i]] = cg_index(&in, 0); /* outputs do not read them */
    MlirValue accs[16];
    for (int j = 0; j < g.nout; ++j)
      accs[j] = dl_load_at(e, &in, g.mem[g.nin + j], g.maps[g.nin + j], ivs);
    if (!reduce_nest(e, &in, &g, red, nr, ivs, accs))
      return false;
    for (int i = 0; i < nr; ++i)
      ivs[red[i]] = cg_index(&in, 0);
    for (int j = 0; j < g.nout; ++j)
      store_at(&in, accs[j], g.mem[g.nin + j], g.maps[g.nin + j], ivs);
  } else if (np > 0) { /* parallel over all but the innermost, which vectorizes */
    int outer = np > 1 ? np - 1 : 1;
    for (int i = 0; i < outer; ++i)
      ubs[i] = g.ub[par[i]];
    MlirValue pivs[MAX_LOOPS];
    dl_par_loop(e, b, outer, ubs, &in, pivs);
    for (int i = 0; i < outer; ++i)
      ivs[par[i]] = pivs[i];
    if (np > 1) {
      CgBuilder ib;
      MlirValue iv;
      cg_for(&in, cg_index(&in, 0), g.ub[par[np - 1]], 0, NULL, &ib, &iv, NULL);
      ivs[par[np - 1]] = iv;
      if (!point(e, &ib, &g, ivs, false, NULL))
        return false;
      cg_yield(&ib, 0, NULL);
    } else if (!point(e, &in, &g, ivs, false, NULL)) {
      return false;
    }
  } else if (!point(e, b, &g, ivs, false, NULL)) { /* rank 0 */
    return false;
  }
  for (int j = 0; j < g.nout; ++j)
    dl_put(e, mlirOperationGetResult(op, j), g.mem[g.nin + j]);
  return true;
}

static bool emit_fill(Em *e, CgBuilder *b, MlirOperation op) {
  MlirValue value = dl_get(e, mlirOperationGetOperand(op, 0)), t = mlirOperationGetOperand(op, 1);
  MlirValue dst = dest_for(e, b, t);
  intptr_t rank = mlirShapedTypeGetRank(mlirValueGetType(t));
  if (mlirValueIsNull(value) || mlirValueIsNull(dst))
    return refuse(e, op, "fills from a value runtime loops do not have");
  MlirValue ubs[MAX_LOOPS], ivs[MAX_LOOPS];
  for (intptr_t d = 0; d < rank; ++d)
    ubs[d] = dl_dim_value(e, b, t, d);
  CgBuilder in = *b;
  if (rank > 0)
    dl_par_loop(e, b, (int)rank, ubs, &in, ivs);
  cg_store(&in, value, dst, rank, ivs);
  dl_put(e, mlirOperationGetResult(op, 0), dst);
  return true;
}

static bool emit_constant(Em *e, CgBuilder *b, MlirOperation op) {
  MlirValue r = mlirOperationGetResult(op, 0);
  MlirType t = mlirValueGetType(r);
  MlirAttribute value = mlirOperationGetAttributeByName(op, braze_ref("value"));
  if (mlirTypeIsARankedTensor(t)) { /* a memref.global of its own, named after the function */
    char name[256];
    snprintf(name, sizeof name, "%s_const%d", e->fname, e->n_globals++);
    MlirType mt = memref_of(e, r);
    MlirNamedAttribute attrs[7] = {
        cg_named(e->ctx, "sym_name", mlirStringAttrGet(e->ctx, braze_ref(name))),
        cg_named(e->ctx, "sym_visibility", mlirStringAttrGet(e->ctx, braze_ref("private"))),
        cg_named(e->ctx, "type", mlirTypeAttrGet(mt)),
        cg_named(e->ctx, "initial_value", value),
        cg_named(e->ctx, "constant", mlirUnitAttrGet(e->ctx)),
        cg_named(e->ctx, "alignment", mlirIntegerAttrGet(mlirIntegerTypeGet(e->ctx, 64), 64)),
        cg_named(e->ctx, "braze.runtime_loops", mlirStringAttrGet(e->ctx, braze_ref(e->sym))),
    };
    MlirOperationState st = mlirOperationStateGet(braze_ref("memref.global"), b->loc);
    mlirOperationStateAddAttributes(&st, 7, attrs);
    mlirBlockInsertOwnedOperation(mlirRegionGetFirstBlock(mlirOperationGetRegion(e->module, 0)), 0,
                                  mlirOperationCreate(&st));
    MlirNamedAttribute ref = cg_named(e->ctx, "name", mlirFlatSymbolRefAttrGet(e->ctx, braze_ref(name)));
    dl_put(e, r, mlirOperationGetResult(cg_create(b, "memref.get_global", 0, NULL, 1, &mt, 1, &ref), 0));
    return true;
  }
  const BrazeDynConst *c = braze_dyn_const_of(e->f, op);
  if (!c) {
    MlirOperation copy = mlirOperationClone(op);
    cg_insert(b, copy);
    dl_put(e, r, mlirOperationGetResult(copy, 0));
    return true;
  }
  bool is_float = mlirTypeIsAFloat(t);
  MlirValue s = e->s;
  if (is_float) {
    MlirValue si = cg_op(b, "arith.index_cast", mlirIntegerTypeGet(e->ctx, 64), 1, &s);
    MlirValue sf = cg_op(b, "arith.sitofp", t, 1, &si);
    MlirValue k = cg_constant(b, mlirFloatAttrDoubleGet(e->ctx, t, c->k));
    MlirValue ops[2] = {k, sf};
    dl_put(e, r, cg_op(b, c->kind == BRAZE_DYN_CONST_MUL ? "arith.mulf" : "arith.divf", t, 2, ops));
  } else {
    MlirValue v = cg_op(b, "arith.muli", cg_index_type(e->ctx), 2, (MlirValue[]){s, cg_index(b, (int64_t)c->k)});
    dl_put(e, r, mlirTypeIsAIndex(t) ? v : cg_op(b, "arith.index_cast", t, 1, &v));
  }
  return true;
}

/* Returned values computed in the output buffers: follow each result through the
 * inits of its producers to a tensor.empty that nothing else reads. */
static void claim_outputs(Em *e, MlirOperation ret) {
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(ret); ++i) {
    MlirValue v = mlirOperationGetOperand(ret, i);
    if (num_uses(v) != 1)
      continue;
    for (;;) {
      if (!mlirValueIsAOpResult(v))
        break;
      MlirOperation owner = mlirOpResultGetOwner(v);
      if (braze_op_is(owner, "tensor.empty")) {
        if (num_uses(v) == 1 && !braze_ptrmap_get(&e->out_of, braze_ptr_key(owner.ptr), 0))
          braze_ptrmap_put(&e->out_of, braze_ptr_key(owner.ptr), (int)i + 1);
        break;
      }
      intptr_t nres = mlirOperationGetNumResults(owner);
      bool dps = braze_op_is(owner, "linalg.generic") || braze_op_is(owner, "linalg.fill");
      if (!dps)
        break;
      intptr_t k = mlirOpResultGetResultNumber(v);
      MlirValue init = mlirOperationGetOperand(owner, mlirOperationGetNumOperands(owner) - nres + k);
      if (num_uses(init) != 1)
        break;
      v = init;
    }
  }
}

static bool emit_op(Em *e, CgBuilder *b, MlirOperation op) {
  if (braze_op_is(op, "arith.constant"))
    return emit_constant(e, b, op);
  if (braze_op_is(op, "linalg.generic") && braze_ptrmap_get(&e->deferred, braze_ptr_key(op.ptr), 0))
    return true; /* computed inside its reader */
  if (braze_op_is(op, "tensor.empty")) {
    MlirValue r = mlirOperationGetResult(op, 0);
    MlirOpOperand use = mlirValueGetFirstUse(r);
    if (!mlirOpOperandIsNull(use) && mlirOpOperandIsNull(mlirOpOperandGetNextUse(use)) &&
        braze_ptrmap_get(&e->deferred, braze_ptr_key(mlirOpOperandGetOwner(use).ptr), 0))
      return true; /* the init of a deferred generic: never written */
    int out = braze_ptrmap_get(&e->out_of, braze_ptr_key(op.ptr), 0);
    dl_put(e, r, out ? e->outs[out - 1] : alloc_like(e, b, r));
    return true;
  }
  if (braze_op_is(op, "linalg.fill"))
    return emit_fill(e, b, op);
  if (braze_op_is(op, "linalg.generic"))
    return emit_generic(e, b, op);
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); ++i)
    if (mlirTypeIsAShaped(mlirValueGetType(mlirOperationGetOperand(op, i))))
      return refuse(e, op, "is not taken by runtime loops (linalg.generic, linalg.fill, tensor.empty and scalars)");
  for (intptr_t i = 0; i < mlirOperationGetNumResults(op); ++i)
    if (mlirTypeIsAShaped(mlirValueGetType(mlirOperationGetResult(op, i))))
      return refuse(e, op, "is not taken by runtime loops (linalg.generic, linalg.fill, tensor.empty and scalars)");
  if (mlirOperationGetNumRegions(op) > 0)
    return refuse(e, op, "has regions at the function level");
  MlirOperation c = mlirOperationClone(op);
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); ++i)
    mlirOperationSetOperand(c, i, dl_get(e, mlirOperationGetOperand(op, i)));
  cg_insert(b, c);
  for (intptr_t i = 0; i < mlirOperationGetNumResults(op); ++i)
    dl_put(e, mlirOperationGetResult(op, i), mlirOperationGetResult(c, i));
  return true;
}

static void emit_return(Em *e, CgBuilder *b, MlirOperation ret) {
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(ret); ++i) {
    MlirValue v = dl_get(e, mlirOperationGetOperand(ret, i));
    if (v.ptr != e->outs[i].ptr)
      cg_create(b, "memref.copy", 2, (MlirValue[]){v, e->outs[i]}, 0, NULL, 0, NULL);
  }
  cg_create(b, "func.return", 0, NULL, 0, NULL, 0, NULL);
}

static MlirOperation new_private_func(MlirContext ctx, MlirLocation loc, const char *name, intptr_t n,
                                      const MlirType *types, intptr_t n_res, const MlirType *results,
                                      const char *symbol, int64_t num_inputs, MlirBlock *entry) {
  MlirLocation locs[72];
  for (intptr_t i = 0; i < n; ++i)
    locs[i] = loc;
  *entry = mlirBlockCreate(n, types, locs);
  MlirRegion region = mlirRegionCreate();
  mlirRegionAppendOwnedBlock(region, *entry);
  MlirType fty = mlirFunctionTypeGet(ctx, n, types, n_res, results);
  MlirNamedAttribute attrs[5] = {
      cg_named(ctx, "sym_name", mlirStringAttrGet(ctx, braze_ref(name))),
      cg_named(ctx, "function_type", mlirTypeAttrGet(fty)),
      cg_named(ctx, "sym_visibility", mlirStringAttrGet(ctx, braze_ref("private"))),
      cg_named(ctx, "braze.runtime_loops", mlirStringAttrGet(ctx, braze_ref(symbol))),
      cg_named(ctx, "braze.num_inputs", mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 64), num_inputs)),
  };
  MlirOperationState st = mlirOperationStateGet(braze_ref("func.func"), loc);
  mlirOperationStateAddAttributes(&st, num_inputs >= 0 ? 5 : 4, attrs);
  mlirOperationStateAddOwnedRegions(&st, 1, &region);
  return mlirOperationCreate(&st);
}

bool braze_dynamic_loops_emit(MlirOperation func, const BrazeDynForms *forms, const char *name, MlirBlock body,
                              MlirOperation before, const char *symbol) {
  MlirContext ctx = mlirOperationGetContext(func);
  MlirLocation loc = mlirOperationGetLocation(before);
  MlirBlock fentry = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  MlirOperation ret = mlirBlockGetTerminator(fentry);
  intptr_t n_in = mlirBlockGetNumArguments(fentry), n_out = mlirOperationGetNumOperands(ret);
  Em e = {.ctx = ctx, .f = forms, .sym = symbol, .module = mlirBlockGetParentOperation(body)};
  const char *remarks = getenv("BRAZE_DYNAMIC_REMARKS");
  e.remarks = remarks && *remarks && strcmp(remarks, "0") != 0;
  e.fname = name;
  /* (inputs..., outputs..., workspace memref<?xi8>, s) */
  MlirType types[66];
  for (intptr_t i = 0; i < n_in + n_out; ++i)
    types[i] = memref_of(&e, i < n_in ? mlirBlockGetArgument(fentry, i) : mlirOperationGetOperand(ret, i - n_in));
  int64_t dyn = mlirShapedTypeGetDynamicSize();
  types[n_in + n_out] = cg_memref_of(mlirIntegerTypeGet(ctx, 8), 1, &dyn);
  types[n_in + n_out + 1] = mlirIndexTypeGet(ctx);
  MlirBlock entry, bentry;
  MlirOperation fn = new_private_func(ctx, loc, name, n_in + n_out + 2, types, 0, NULL, symbol, n_in, &entry);
  mlirBlockInsertOwnedOperationBefore(body, before, fn);
  /* index NAME_bytes(index s): the workspace the function needs at size s */
  char bname[256];
  snprintf(bname, sizeof bname, "%s_bytes", name);
  MlirType index = mlirIndexTypeGet(ctx);
  MlirOperation bfn = new_private_func(ctx, loc, bname, 1, &index, 1, &index, symbol, -1, &bentry);
  mlirBlockInsertOwnedOperationBefore(body, before, bfn);
  e.wb = cg_builder_at_end(bentry, loc);
  e.ws_s = mlirBlockGetArgument(bentry, 0);
  e.total = cg_index(&e.wb, 0);
  MlirValue outs[64];
  for (intptr_t i = 0; i < n_in; ++i)
    dl_put(&e, mlirBlockGetArgument(fentry, i), mlirBlockGetArgument(entry, i));
  for (intptr_t i = 0; i < n_out; ++i) {
    outs[i] = mlirBlockGetArgument(entry, n_in + i);
    braze_ptrmap_put(&e.writable, braze_ptr_key(outs[i].ptr), 1);
  }
  e.outs = outs;
  e.ws = mlirBlockGetArgument(entry, n_in + n_out);
  e.s = mlirBlockGetArgument(entry, n_in + n_out + 1);
  CgBuilder b = cg_builder_at_end(entry, mlirOperationGetLocation(func));
  e.off = cg_index(&b, 0);
  claim_outputs(&e, ret);
  const char *fuse = getenv("BRAZE_DYNAMIC_FUSE");
  for (MlirOperation op = mlirBlockGetFirstOperation(fentry); !(fuse && !strcmp(fuse, "0")) && !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    if (dl_deferrable(op))
      braze_ptrmap_put(&e.deferred, braze_ptr_key(op.ptr), 1);
  bool ok = true;
  for (MlirOperation op = mlirBlockGetFirstOperation(fentry); ok && !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    if (braze_op_is(op, "func.return"))
      emit_return(&e, &b, op);
    else {
      b.loc = mlirOperationGetLocation(op);
      ok = emit_op(&e, &b, op);
    }
  }
  cg_create(&e.wb, "func.return", 1, &e.total, 0, NULL, 0, NULL);
  if (!ok) {
    mlirOperationDestroy(fn);
    mlirOperationDestroy(bfn);
  }
  braze_ptrmap_free(&e.map);
  braze_ptrmap_free(&e.writable);
  braze_ptrmap_free(&e.out_of);
  braze_ptrmap_free(&e.deferred);
  free(e.vals);
  return ok;
}
