/* cpu-codegen, kernel functions: emission. One phase = one scf.parallel over its
 * outer dims (or none); inside, each generic becomes loops over its remaining dims:
 *   - pointwise: loops in order, the innermost dim last (contiguous, vectorizable);
 *   - reduction dims a suffix: accumulate in scf.for iter_args (a register);
 *   - contraction (mulf+addf) and other reductions: zero/identity-initialize the
 *     output, then accumulate in memory with reduction loops outside the parallel
 *     ones (i-k-j for matmul: the innermost loop runs along the output row);
 *     a contraction whose inputs are contiguous along the reduction (matmul with
 *     a transposed B) runs as i-j-k dot products in iter_args instead.
 * Loads are emitted at the outermost loop where all their indices are known. */
#include "targets/cpu/codegen/loop-nests.h"

#include <stdlib.h>
#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "support/context.h"
#include "support/diag.h"

void cg_gen_error(Gen *g, const char *what) {
  if (!g->failed)
    braze_emit_error(mlirOperationGetLocation(g->it->op), "cpu-codegen: kernel @%s: %s", g->K->name, what);
  g->failed = true;
}

/* scf.for lb..ub without iter_args, terminated; *body inserts before the yield. */
static MlirValue open_range(CgBuilder *b, MlirValue lb, MlirValue ub, CgBuilder *body) {
  MlirValue iv, none;
  cg_for(b, lb, ub, 0, NULL, body, &iv, &none);
  body->before = cg_create(body, "scf.yield", 0, NULL, 0, NULL, 0, NULL);
  return iv;
}

static MlirValue open_loop(CgBuilder *b, int64_t ext, CgBuilder *body) {
  return open_range(b, cg_index(b, 0), cg_index(b, ext), body);
}

/* Indices of a value's element under `map` with g's dims; ST_ROW drops the outer results. */
int cg_value_indices(Gen *g, CgBuilder *b, const CgVal *v, MlirAffineMap map, MlirValue *idx) {
  int first = v->kind == ST_ROW ? g->k : 0, n = 0;
  for (intptr_t r = first; r < mlirAffineMapGetNumResults(map); ++r)
    idx[n++] = cg_affine(b, mlirAffineMapGetResult(map, r), g->ivs);
  return n;
}

uint64_t cg_map_dims(MlirAffineMap m) {
  uint64_t used = 0;
  for (intptr_t r = 0; r < mlirAffineMapGetNumResults(m); ++r)
    used |= cg_affine_dims(mlirAffineMapGetResult(m, r));
  return used;
}

/* An ST_INLINE input (kernel.c, inline_into_window): its producer's body at the
 * reader's indices (the reader reads it through the producer's output map). */
static MlirValue inline_value(Gen *g, CgBuilder *b, const CgVal *v) {
  Gen sub = {.K = g->K, .it = &g->K->items[v->producer], .k = g->k, .bound = g->bound,
             .vector = g->vector, .vdim = g->vdim, .vec_body = g->vec_body};
  memcpy(sub.ivs, g->ivs, sizeof sub.ivs);
  cg_load_ready(&sub, b);
  MlirValue value = sub.failed ? (MlirValue){NULL} : cg_clone_body(&sub, b, (MlirValue){NULL});
  g->failed = g->failed || sub.failed;
  g->vec_failed = g->vec_failed || sub.vec_failed;
  return value;
}

/* Load the inputs whose indices are all bound now. */
void cg_load_ready(Gen *g, CgBuilder *b) {
  for (int j = 0; j < g->it->n_in; ++j) {
    if (g->loaded[j])
      continue;
    const CgVal *v = &g->K->vals[g->it->in_val[j]];
    if (g->vector && !g->vec_body && (v->kind == ST_INLINE || (cg_map_dims(g->it->maps[j]) & (1ull << g->vdim))))
      continue; /* read per channel vector, in the window's innermost loop (window.c) */
    if (v->kind == ST_SPLAT || v->kind == ST_SCALAR) {
      g->in[j] = v->scalar;
      g->loaded[j] = true;
    } else if (v->kind == ST_NONE) {
      cg_gen_error(g, "linalg.generic reads an uninitialized tensor (tensor.empty)");
      g->loaded[j] = true;
    } else if (v->kind == ST_INLINE) {
      if ((cg_map_dims(g->it->maps[j]) & ~g->bound) == 0) {
        g->in[j] = inline_value(g, b, v);
        g->loaded[j] = true;
      }
    } else if ((cg_map_dims(g->it->maps[j]) & ~g->bound) == 0) {
      MlirValue idx[CG_MAX_DIMS];
      int n = cg_value_indices(g, b, v, g->it->maps[j], idx);
      bool along = g->vector && (cg_map_dims(g->it->maps[j]) & (1ull << g->vdim));
      g->in[j] = along ? cg_window_vector_load(g, b, v->mem, g->it->maps[j], n, idx) : cg_load(b, v->mem, n, idx);
      g->loaded[j] = true;
    }
  }
}

void cg_bind(Gen *g, CgBuilder *b, int d, MlirValue iv) {
  g->ivs[d] = iv;
  g->bound |= 1ull << d;
  cg_load_ready(g, b);
}

static const CgVal *out_val(Gen *g) { return &g->K->vals[g->it->out_val]; }

static MlirValue load_output(Gen *g, CgBuilder *b) {
  MlirValue idx[CG_MAX_DIMS];
  int n = cg_value_indices(g, b, out_val(g), g->it->maps[g->it->n_in], idx);
  return cg_load(b, out_val(g)->mem, n, idx);
}

void cg_store_output(Gen *g, CgBuilder *b, MlirValue value) {
  CgVal *v = &g->K->vals[g->it->out_val];
  if (v->kind == ST_SCALAR) {
    v->scalar = value;
    return;
  }
  MlirValue idx[CG_MAX_DIMS];
  int n = cg_value_indices(g, b, v, g->it->maps[g->it->n_in], idx);
  cg_store(b, value, v->mem, n, idx);
}

/* The outs operand's element at the output index: a fill or splat scalar, a
 * register, or a load from its buffer; null for tensor.empty (undefined). */
MlirValue cg_init_value(Gen *g, CgBuilder *b) {
  const CgVal *init = &g->K->vals[g->it->init_val];
  if (init->kind == ST_SPLAT || init->kind == ST_SCALAR)
    return init->scalar;
  if (init->kind == ST_NONE)
    return (MlirValue){NULL};
  MlirValue idx[CG_MAX_DIMS];
  int n = cg_value_indices(g, b, init, g->it->maps[g->it->n_in], idx);
  return cg_load(b, init->mem, n, idx);
}

/* ---- body cloning ---- */

typedef struct {
  MlirValue *old, *new_values;
  int n, cap;
} LocalMap;

static void local_add(LocalMap *m, MlirValue o, MlirValue n) {
  if (m->n == m->cap) {
    m->cap = m->cap ? 2 * m->cap : 16;
    m->old = realloc(m->old, (size_t)m->cap * sizeof *m->old);
    m->new_values = realloc(m->new_values, (size_t)m->cap * sizeof *m->new_values);
  }
  m->old[m->n] = o;
  m->new_values[m->n++] = n;
}

static MlirValue local_get(Gen *g, const LocalMap *m, MlirValue v) {
  for (int i = m->n - 1; i >= 0; --i)
    if (mlirValueEqual(m->old[i], v))
      return m->new_values[i];
  return cg_kernel_map(g->K, v);
}

static bool reassociable(MlirOperation op) {
  static const char *const names[] = {"arith.addf",    "arith.mulf",   "arith.subf",   "arith.maximumf",
                                      "arith.minimumf", "arith.maxnumf", "arith.minnumf", NULL};
  for (const char *const *n = names; *n; ++n)
    if (braze_op_is(op, *n))
      return true;
  return false;
}

/* maximumf/minimumf also get nsz: max(-0, +0) may then be either zero, and LLVM
 * drops the sign-ordering blends from x86's NaN-propagating max (6 dependent
 * instructions per step of the reduction chain become 3). */
const char *cg_reassoc_flags(MlirOperation op) {
  if (!reassociable(op))
    return NULL;
  if (braze_op_is(op, "arith.maximumf") || braze_op_is(op, "arith.minimumf"))
    return "#arith.fastmath<reassoc,nsz,contract>";
  return "#arith.fastmath<reassoc,contract>";
}

static MlirOperation clone_op(Gen *g, CgBuilder *b, MlirOperation op, LocalMap *m) {
  if (mlirOperationGetNumRegions(op) != 0) {
    cg_gen_error(g, "ops with regions inside linalg.generic bodies are not supported");
    return (MlirOperation){NULL};
  }
  MlirOperation c = mlirOperationClone(op);
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); ++i) {
    MlirValue nv = local_get(g, m, mlirOperationGetOperand(op, i));
    if (mlirValueIsNull(nv)) {
      mlirOperationDestroy(c);
      cg_gen_error(g, "linalg.generic body reads its output, which is uninitialized, or a value from outside "
                   "that is not a constant");
      return (MlirOperation){NULL};
    }
    mlirOperationSetOperand(c, i, nv);
  }
  if (g->it->has_reduction && g->K->opts->reassoc && reassociable(op))
    mlirOperationSetAttributeByName(c, braze_ref("fastmath"), cg_parse_attr(g->K->ctx, cg_reassoc_flags(op)));
  return cg_insert(b, c);
}

/* tensor.extract of a kernel argument or constant in a body (a gather's data at a
 * run-time index): a load from its buffer, or the splat's scalar. A tensor computed
 * in the same kernel is refused (form-kernels does not fuse a captured read). */
static MlirValue extract_element(Gen *g, CgBuilder *b, MlirOperation op, LocalMap *m) {
  int vi = braze_ptrmap_get(&g->K->val_index, braze_ptr_key(mlirOperationGetOperand(op, 0).ptr), -1);
  const CgVal *v = vi >= 0 ? &g->K->vals[vi] : NULL;
  if (v && v->kind == ST_SPLAT)
    return v->scalar;
  intptr_t n = mlirOperationGetNumOperands(op) - 1;
  if (!v || v->kind != ST_BUF || v->producer >= 0 || n > CG_MAX_DIMS) {
    cg_gen_error(g, "tensor.extract (an indexed read) of a tensor that is not a kernel argument or constant");
    return (MlirValue){NULL};
  }
  MlirValue idx[CG_MAX_DIMS];
  for (intptr_t i = 0; i < n; ++i)
    idx[i] = local_get(g, m, mlirOperationGetOperand(op, 1 + i));
  return cg_load(b, v->mem, (int)n, idx);
}

/* Clone the generic's body at b with block arguments = loaded inputs and `acc`
 * (the output element; null when the body must not read it). Returns the yielded value. */
MlirValue cg_clone_body(Gen *g, CgBuilder *b, MlirValue acc) {
  if (g->vector)
    return cg_clone_body_vector(g, b, acc);
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(g->it->op, 0));
  LocalMap m = {0};
  for (int j = 0; j < g->it->n_in; ++j)
    local_add(&m, mlirBlockGetArgument(body, j), g->in[j]);
  if (!mlirValueIsNull(acc))
    local_add(&m, mlirBlockGetArgument(body, g->it->n_in), acc);
  MlirValue result = {NULL};
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op) && !g->failed;
       op = mlirOperationGetNextInBlock(op)) {
    if (braze_op_is(op, "linalg.yield")) {
      result = local_get(g, &m, mlirOperationGetOperand(op, 0));
      break;
    }
    if (braze_op_is(op, "linalg.index")) {
      int64_t d = mlirIntegerAttrGetValueInt(mlirOperationGetAttributeByName(op, braze_ref("dim")));
      local_add(&m, mlirOperationGetResult(op, 0), g->ivs[d]);
      continue;
    }
    if (braze_op_is(op, "tensor.extract")) {
      MlirValue e = extract_element(g, b, op, &m);
      if (!mlirValueIsNull(e))
        local_add(&m, mlirOperationGetResult(op, 0), e);
      continue;
    }
    MlirOperation c = clone_op(g, b, op, &m);
    for (intptr_t r = 0; !mlirOperationIsNull(c) && r < mlirOperationGetNumResults(op); ++r)
      local_add(&m, mlirOperationGetResult(op, r), mlirOperationGetResult(c, r));
  }
  free(m.old);
  free(m.new_values);
  if (mlirValueIsNull(result))
    cg_gen_error(g, "linalg.generic body does not yield a value");
  return g->failed ? (MlirValue){NULL} : result;
}

/* ---- alignment peeling ----
 * Callers' buffers are not always 64-byte aligned (numpy's are 16), and AVX-512 loads
 * and stores that straddle cache lines cost up to 2x in these L1-bound row loops. So
 * the innermost loop of a generic runs in two parts when it is long enough: [0, p) up
 * to the anchor's first 64-byte boundary, then [p, n), aligned. p is computed at run
 * time from the anchor's address (0 when it is aligned already). The anchor is the
 * output for pointwise loops, the first input read contiguously for reductions. */

enum { CG_VEC_BYTES = 64, CG_PEEL_MIN = 256 }; /* shorter rows: not worth a second copy of the kernel */

static bool contiguous_in(MlirAffineMap map, int d) {
  intptr_t n = mlirAffineMapGetNumResults(map);
  if (n == 0)
    return false;
  MlirAffineExpr last = mlirAffineMapGetResult(map, n - 1);
  return mlirAffineExprIsADim(last) && mlirAffineDimExprGetPosition(last) == d;
}

/* Anchor for dim d: the output (pointwise) or the first input (reductions) that is a
 * whole buffer read along d contiguously; -1 when none. */
static int anchor_of(const CgKernel *K, const CgItem *it, int d) {
  if (it->kind != IT_GENERIC || d < 0 || d != it->n_dims - 1 || it->ext[d] < CG_PEEL_MIN)
    return -1;
  if (!it->has_reduction)
    return K->vals[it->out_val].kind == ST_BUF && contiguous_in(it->maps[it->n_in], d) ? it->n_in : -1;
  for (int j = 0; j < it->n_in; ++j)
    if (K->vals[it->in_val[j]].kind == ST_BUF && contiguous_in(it->maps[j], d))
      return j;
  return -1;
}

bool cg_item_may_peel(const CgKernel *K, const CgItem *it) {
  return K->opts->align_peel && (!it->has_reduction || it->scalar_mode) && anchor_of(K, it, it->n_dims - 1) >= 0;
}

static int peel_anchor(const Gen *g, int d) { return g->K->peel ? anchor_of(g->K, g->it, d) : -1; }

/* Elements before the anchor's first 64-byte boundary along d (at most its extent),
 * or null when peeling does not apply. The other dims must be bound. */
MlirValue cg_peel_count(Gen *g, CgBuilder *b, int d) {
  int a = peel_anchor(g, d);
  if (a < 0)
    return (MlirValue){NULL};
  const CgVal *v = &g->K->vals[a == g->it->n_in ? g->it->out_val : g->it->in_val[a]];
  MlirType t = mlirValueGetType(v->mem);
  int64_t eb = cg_elem_bytes(mlirShapedTypeGetElementType(t));
  if (eb <= 0 || CG_VEC_BYTES % eb != 0)
    return (MlirValue){NULL};
  MlirValue saved = g->ivs[d], idx[CG_MAX_DIMS];
  g->ivs[d] = cg_index(b, 0);
  int n = cg_value_indices(g, b, v, g->it->maps[a], idx);
  g->ivs[d] = saved;
  MlirType index = cg_index_type(g->K->ctx);
  MlirValue elem = cg_element_address(b, v->mem);
  MlirValue div[2] = {elem, cg_index(b, eb)};
  elem = cg_op(b, "arith.divui", index, 2, div); /* the buffer's start, in elements */
  int64_t stride = 1;
  for (int r = n - 1; r >= 0; --r) { /* + the row's linear index (identity layout) */
    MlirValue mul[2] = {idx[r], cg_index(b, stride)};
    MlirValue add[2] = {elem, stride == 1 ? idx[r] : cg_op(b, "arith.muli", index, 2, mul)};
    elem = cg_op(b, "arith.addi", index, 2, add);
    stride *= mlirShapedTypeGetDimSize(t, r);
  }
  int64_t lanes = CG_VEC_BYTES / eb;
  MlirValue rem[2] = {elem, cg_index(b, lanes)};
  MlirValue sub[2] = {cg_index(b, lanes), cg_op(b, "arith.remui", index, 2, rem)};
  MlirValue wrap[2] = {cg_op(b, "arith.subi", index, 2, sub), cg_index(b, lanes)};
  MlirValue min[2] = {cg_op(b, "arith.remui", index, 2, wrap), cg_index(b, g->it->ext[d])};
  return cg_op(b, "arith.minui", index, 2, min);
}

/* Before a second loop over dim d: inputs read along d are loaded again in it. */
void cg_reload_along(Gen *g, int d) {
  for (int j = 0; j < g->it->n_in; ++j)
    if (cg_map_dims(g->it->maps[j]) & (1ull << d))
      g->loaded[j] = false;
}

/* ---- loop nests ---- */

static MlirValue reduce_loops(Gen *g, CgBuilder *b, int d, MlirValue acc);

/* One loop over [lb, ub) of dim d carrying the accumulator, the dims after it inside. */
static MlirValue reduce_range(Gen *g, CgBuilder *b, int d, MlirValue lb, MlirValue ub, MlirValue acc) {
  CgBuilder body;
  MlirValue iv, iter;
  MlirOperation f = cg_for(b, lb, ub, 1, &acc, &body, &iv, &iter);
  cg_bind(g, &body, d, iv);
  MlirValue inner = reduce_loops(g, &body, d + 1, iter);
  if (mlirValueIsNull(inner))
    inner = iter; /* keep the IR well-formed; the error is already reported */
  cg_yield(&body, 1, &inner);
  return mlirOperationGetResult(f, 0);
}

/* Reduction loops d..n-1 carrying the accumulator; returns the final value. */
static MlirValue reduce_loops(Gen *g, CgBuilder *b, int d, MlirValue acc) {
  if (d == g->it->n_dims) {
    cg_load_ready(g, b);
    return cg_clone_body(g, b, acc);
  }
  if (g->it->ext[d] == 1) {
    cg_bind(g, b, d, cg_index(b, 0));
    return reduce_loops(g, b, d + 1, acc);
  }
  MlirValue peel = cg_peel_count(g, b, d);
  if (mlirValueIsNull(peel))
    return reduce_range(g, b, d, cg_index(b, 0), cg_index(b, g->it->ext[d]), acc);
  MlirValue head = reduce_range(g, b, d, cg_index(b, 0), peel, acc);
  cg_reload_along(g, d);
  return reduce_range(g, b, d, peel, cg_index(b, g->it->ext[d]), head);
}

/* Open loops over `dims` in order (extent-1 dims bind 0); b ends innermost. */
void cg_open_loops(Gen *g, CgBuilder *b, const int *dims, int n) {
  for (int i = 0; i < n; ++i) {
    int d = dims[i];
    if (g->it->ext[d] == 1) {
      cg_bind(g, b, d, cg_index(b, 0));
      continue;
    }
    CgBuilder body;
    MlirValue iv = open_loop(b, g->it->ext[d], &body);
    *b = body;
    cg_bind(g, b, d, iv);
  }
}

/* Dot-layout contractions (matmul with a transposed B) block the innermost
 * parallel dim: CG_DOT_BLOCK columns at a time, each with its own accumulator in
 * the one reduction loop, so each A element loaded feeds several dot products. */
enum { CG_DOT_BLOCK = 4 };

MlirValue cg_index_add(CgBuilder *b, MlirValue x, int64_t c) {
  MlirValue ops[2] = {x, cg_index(b, c)};
  return cg_op(b, "arith.addi", mlirValueGetType(x), 2, ops);
}

/* Columns [0, blocks*CG_DOT_BLOCK) of dim jd, reduction dim r (the last one). */
static void emit_dot_blocks(Gen *g, CgBuilder *b, int jd, int r, int64_t blocks) {
  CgBuilder jb_body;
  MlirValue jb = open_loop(b, blocks, &jb_body);
  MlirValue mul[2] = {jb, cg_index(&jb_body, CG_DOT_BLOCK)};
  MlirValue j0 = cg_op(&jb_body, "arith.muli", cg_index_type(g->K->ctx), 2, mul);
  MlirValue j[CG_DOT_BLOCK], acc[CG_DOT_BLOCK], next[CG_DOT_BLOCK];
  bool reads_j[CG_MAX_INPUTS];
  for (int i = 0; i < g->it->n_in; ++i)
    reads_j[i] = (cg_map_dims(g->it->maps[i]) & (1ull << jd)) != 0;
  for (int u = 0; u < CG_DOT_BLOCK; ++u) {
    j[u] = u ? cg_index_add(&jb_body, j0, u) : j0;
    g->ivs[jd] = j[u];
    acc[u] = cg_init_value(g, &jb_body);
    if (mlirValueIsNull(acc[u])) {
      cg_gen_error(g, "a reduction's initial value is uninitialized (tensor.empty)");
      return;
    }
  }
  CgBuilder kb;
  MlirValue k, iter[CG_DOT_BLOCK];
  MlirOperation f = cg_for(&jb_body, cg_index(&jb_body, 0), cg_index(&jb_body, g->it->ext[r]), CG_DOT_BLOCK, acc,
                           &kb, &k, iter);
  cg_bind(g, &kb, r, k); /* inputs not reading jd: loaded once per k */
  for (int u = 0; u < CG_DOT_BLOCK && !g->failed; ++u) {
    g->ivs[jd] = j[u];
    g->bound |= 1ull << jd;
    for (int i = 0; i < g->it->n_in; ++i)
      if (reads_j[i])
        g->loaded[i] = false;
    cg_load_ready(g, &kb);
    next[u] = cg_clone_body(g, &kb, iter[u]);
    g->bound &= ~(1ull << jd);
  }
  if (g->failed) {
    cg_yield(&kb, CG_DOT_BLOCK, iter); /* keep the IR well-formed; the error is reported */
    return;
  }
  cg_yield(&kb, CG_DOT_BLOCK, next);
  g->bound |= 1ull << jd;
  for (int u = 0; u < CG_DOT_BLOCK; ++u) {
    g->ivs[jd] = j[u];
    cg_store_output(g, &jb_body, mlirOperationGetResult(f, u));
  }
}

static void emit_scalar_mode(Gen *g, CgBuilder *b) {
  int dims[CG_MAX_DIMS], n = 0, r = g->k;
  while (r < g->it->n_dims && g->it->par[r])
    dims[n++] = r++;
  int jd = n ? dims[n - 1] : -1;
  if (g->it->contraction && jd >= 0 && r == g->it->n_dims - 1 && g->it->ext[jd] >= CG_DOT_BLOCK &&
      out_val(g)->kind != ST_SCALAR) {
    cg_open_loops(g, b, dims, n - 1);
    int64_t blocks = g->it->ext[jd] / CG_DOT_BLOCK;
    Gen saved = *g;
    emit_dot_blocks(g, b, jd, r, blocks);
    if (g->failed || blocks * CG_DOT_BLOCK == g->it->ext[jd])
      return;
    *g = saved; /* the remaining columns: one dot product each */
    CgBuilder body;
    MlirValue iv = open_range(b, cg_index(b, blocks * CG_DOT_BLOCK), cg_index(b, g->it->ext[jd]), &body);
    *b = body;
    cg_bind(g, b, jd, iv);
  } else {
    cg_open_loops(g, b, dims, n);
  }
  MlirValue init = cg_init_value(g, b);
  if (mlirValueIsNull(init)) {
    cg_gen_error(g, "a reduction's initial value is uninitialized (tensor.empty)");
    return;
  }
  MlirValue result = reduce_loops(g, b, r, init);
  if (!g->failed)
    cg_store_output(g, b, result);
}

static void emit_memory_mode(Gen *g, CgBuilder *b) {
  if (g->K->vals[g->it->init_val].kind == ST_NONE) {
    cg_gen_error(g, "a reduction's initial value is uninitialized (tensor.empty)");
    return;
  }
  int par[CG_MAX_DIMS], red[CG_MAX_DIMS], order[CG_MAX_DIMS], np = 0, nr = 0, n = 0;
  for (int d = g->k; d < g->it->n_dims; ++d) {
    if (g->it->par[d])
      par[np++] = d;
    else
      red[nr++] = d;
  }
  /* Initialize the output over its parallel dims. */
  Gen init_gen = *g;
  for (int j = 0; j < g->it->n_in; ++j)
    init_gen.loaded[j] = true; /* the init loops read no input */
  CgBuilder ib = *b;
  cg_open_loops(&init_gen, &ib, par, np);
  cg_store_output(&init_gen, &ib, cg_init_value(&init_gen, &ib));
  /* Accumulate: contractions put reduction loops outside the parallel ones. */
  if (g->it->contraction) {
    memcpy(order, red, (size_t)nr * sizeof *red);
    memcpy(order + nr, par, (size_t)np * sizeof *par);
    n = nr + np;
  } else {
    for (int d = g->k; d < g->it->n_dims; ++d)
      order[n++] = d;
  }
  CgBuilder lb = *b;
  cg_open_loops(g, &lb, order, n);
  cg_load_ready(g, &lb);
  MlirValue acc = load_output(g, &lb);
  MlirValue result = cg_clone_body(g, &lb, acc);
  if (!g->failed)
    cg_store_output(g, &lb, result);
}

static void pointwise_body(Gen *g, CgBuilder *b) {
  cg_load_ready(g, b);
  MlirValue result = cg_clone_body(g, b, cg_init_value(g, b));
  if (!g->failed)
    cg_store_output(g, b, result);
}

/* The innermost dim d over [lb, ub), the body inside. */
static void pointwise_range(Gen *g, CgBuilder *b, int d, MlirValue lb, MlirValue ub) {
  CgBuilder body;
  MlirValue iv = open_range(b, lb, ub, &body);
  cg_bind(g, &body, d, iv);
  pointwise_body(g, &body);
}

static void emit_pointwise(Gen *g, CgBuilder *b) {
  int dims[CG_MAX_DIMS], n = 0;
  for (int d = g->k; d < g->it->n_dims; ++d)
    dims[n++] = d;
  CgBuilder lb = *b;
  int last = g->it->n_dims - 1;
  if (n > 0 && g->it->ext[last] >= CG_PEEL_MIN) {
    cg_open_loops(g, &lb, dims, n - 1);
    MlirValue peel = cg_peel_count(g, &lb, last);
    if (!mlirValueIsNull(peel)) {
      pointwise_range(g, &lb, last, cg_index(&lb, 0), peel);
      cg_reload_along(g, last);
      pointwise_range(g, &lb, last, peel, cg_index(&lb, g->it->ext[last]));
      return;
    }
    cg_open_loops(g, &lb, dims + n - 1, 1);
  } else {
    cg_open_loops(g, &lb, dims, n);
  }
  pointwise_body(g, &lb);
}

bool cg_emit_generic(CgKernel *K, CgItem *it, CgBuilder *b, const MlirValue *outer, int k) {
  Gen g = {.K = K, .it = it, .k = k};
  for (int d = 0; d < k; ++d)
    g.ivs[d] = outer[d];
  g.bound = k ? (1ull << k) - 1 : 0;
  cg_load_ready(&g, b);
  if (it->scalar_mode)
    emit_scalar_mode(&g, b);
  else if (it->window_mode)
    cg_emit_window(&g, b);
  else if (it->has_reduction)
    emit_memory_mode(&g, b);
  else
    emit_pointwise(&g, b);
  return !g.failed;
}

/* ---- copies (concat slices, results that are not computed in place) ---- */

static bool emit_copy(CgKernel *K, const CgItem *it, int src_index, MlirValue dst, const int64_t *off,
                      const int64_t *stride) {
  const CgVal *src = &K->vals[src_index];
  if (src->kind != ST_BUF && src->kind != ST_SPLAT) {
    braze_emit_error(mlirOperationGetLocation(it->op), "cpu-codegen: kernel @%s: cannot copy an uninitialized tensor",
                     K->name);
    return false;
  }
  MlirType t = mlirValueGetType(src->tensor);
  int rank = (int)mlirShapedTypeGetRank(t);
  CgBuilder b = K->fb;
  MlirValue ivs[CG_MAX_DIMS];
  for (int d = 0; d < rank; ++d) {
    int64_t ext = mlirShapedTypeGetDimSize(t, d);
    CgBuilder body;
    if (d == 0 && ext > 1) {
      cg_parallel(&b, 1, &ext, &body, &ivs[0]);
    } else {
      ivs[d] = open_loop(&b, ext, &body);
    }
    b = body;
  }
  MlirValue value = src->kind == ST_SPLAT ? src->scalar : cg_load(&b, src->mem, rank, ivs);
  MlirValue idx[CG_MAX_DIMS];
  for (int d = 0; d < rank; ++d) {
    MlirValue mul[2] = {ivs[d], cg_index(&b, stride[d])};
    MlirValue add[2] = {cg_index(&b, off[d]), stride[d] == 1 ? ivs[d] : cg_op(&b, "arith.muli", cg_index_type(K->ctx), 2, mul)};
    idx[d] = off[d] == 0 ? add[1] : cg_op(&b, "arith.addi", cg_index_type(K->ctx), 2, add);
  }
  cg_store(&b, value, dst, rank, idx);
  return true;
}

static bool emit_insert(CgKernel *K, const CgItem *it) {
  MlirAttribute offs = mlirOperationGetAttributeByName(it->op, braze_ref("static_offsets"));
  MlirAttribute strides = mlirOperationGetAttributeByName(it->op, braze_ref("static_strides"));
  int64_t off[CG_MAX_DIMS], st[CG_MAX_DIMS];
  intptr_t rank = mlirDenseArrayGetNumElements(offs);
  MlirType src = mlirValueGetType(K->vals[it->in_val[0]].tensor);
  if (rank != mlirShapedTypeGetRank(src) || rank > CG_MAX_DIMS) {
    braze_emit_error(mlirOperationGetLocation(it->op),
                     "cpu-codegen: kernel @%s: tensor.insert_slice must keep the source's rank", K->name);
    return false;
  }
  for (intptr_t d = 0; d < rank; ++d) {
    off[d] = mlirDenseI64ArrayGetElement(offs, d);
    st[d] = mlirDenseI64ArrayGetElement(strides, d);
  }
  return emit_copy(K, it, it->in_val[0], K->vals[it->out_val].mem, off, st);
}

static bool emit_result_copy(CgKernel *K, const CgItem *it) {
  static const int64_t zeros[CG_MAX_DIMS] = {0}, ones[CG_MAX_DIMS] = {1, 1, 1, 1, 1, 1, 1, 1};
  int src = it->in_val[0];
  while (K->vals[src].alias_of >= 0)
    src = K->vals[src].alias_of;
  MlirValue dst = mlirBlockGetArgument(K->entry, K->n_in + it->dst_out);
  return emit_copy(K, it, src, dst, zeros, ones);
}

void cg_alloc_row_buffers(CgKernel *K, const CgPhase *ph, CgBuilder *b) {
  for (int i = ph->first; i <= ph->last; ++i) {
    CgVal *v = &K->vals[K->items[i].out_val];
    if (v->kind != ST_ROW)
      continue;
    MlirType t = mlirValueGetType(v->tensor);
    int64_t shape[CG_MAX_DIMS];
    intptr_t rank = mlirShapedTypeGetRank(t) - ph->k;
    for (intptr_t d = 0; d < rank; ++d)
      shape[d] = mlirShapedTypeGetDimSize(t, ph->k + d);
    MlirType mt = cg_memref_of(mlirShapedTypeGetElementType(t), rank, shape);
    MlirNamedAttribute attrs[2] = {
        cg_named(K->ctx, "operandSegmentSizes", cg_parse_attr(K->ctx, "array<i32: 0, 0>")),
        cg_named(K->ctx, "alignment", mlirIntegerAttrGet(mlirIntegerTypeGet(K->ctx, 64), 64)),
    };
    v->mem = mlirOperationGetResult(cg_create(b, "memref.alloca", 0, NULL, 1, &mt, 2, attrs), 0);
  }
}

/* A lone 1-D pointwise generic writing out[d0] has no outer dim to share: split
 * its loop into chunks of CG_CHUNK elements, parallel over chunks. */
enum { CG_CHUNK = 4096 };

bool cg_phase_chunkable(const CgKernel *K, const CgPhase *ph) {
  const CgItem *it = &K->items[ph->first];
  if (ph->k != 0 || ph->first != ph->last || it->kind != IT_GENERIC || it->has_reduction || it->n_dims != 1 ||
      it->ext[0] < 2 * CG_CHUNK)
    return false;
  MlirAffineMap out = it->maps[it->n_in];
  return mlirAffineMapGetNumResults(out) == 1 && mlirAffineExprIsADim(mlirAffineMapGetResult(out, 0));
}

static bool emit_chunked(CgKernel *K, CgItem *it) {
  int64_t n = it->ext[0], chunks = (n + CG_CHUNK - 1) / CG_CHUNK;
  CgBuilder b;
  MlirValue c;
  cg_parallel(&K->fb, 1, &chunks, &b, &c);
  MlirType index = cg_index_type(K->ctx);
  MlirValue mul[2] = {c, cg_index(&b, CG_CHUNK)};
  MlirValue lb = cg_op(&b, "arith.muli", index, 2, mul);
  MlirValue add[2] = {lb, cg_index(&b, CG_CHUNK)};
  MlirValue min[2] = {cg_op(&b, "arith.addi", index, 2, add), cg_index(&b, n)};
  Gen g = {.K = K, .it = it, .k = 0};
  pointwise_range(&g, &b, 0, lb, cg_op(&b, "arith.minui", index, 2, min));
  return !g.failed;
}

bool cg_emit_phase(CgKernel *K, int p) {
  const CgPhase *ph = &K->phases[p];
  const CgItem *first = &K->items[ph->first];
  if (first->kind == IT_INSERT)
    return emit_insert(K, first);
  if (first->kind == IT_COPY)
    return emit_result_copy(K, first);
  if (cg_phase_chunkable(K, ph))
    return emit_chunked(K, &K->items[ph->first]);
  int jam = cg_phase_jam(K, ph);
  CgBuilder b = K->fb;
  MlirValue outer[CG_MAX_JAM][CG_MAX_DIMS];
  if (ph->k > 0) {
    int64_t steps[CG_MAX_DIMS];
    memcpy(steps, ph->ext, sizeof steps);
    steps[ph->k - 1] /= jam;
    cg_parallel(&K->fb, ph->k, steps, &b, outer[0]);
  }
  if (jam > 1)
    return cg_emit_jammed_phase(K, p, &b, outer, jam);
  cg_alloc_row_buffers(K, ph, &b);
  for (int i = ph->first; i <= ph->last; ++i)
    if (K->vals[K->items[i].out_val].kind != ST_INLINE && !cg_emit_generic(K, &K->items[i], &b, outer[0], ph->k))
      return false;
  return true;
}
