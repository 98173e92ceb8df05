/* cuda-codegen, kernel functions: analysis. The body is read as values (arguments,
 * splats, empties, generic results) and generics in program order; then the kernel's
 * shape is chosen:
 *   matmul  one contraction generic (braze.ops matmul / batch_matmul) first, every
 *           other generic all-parallel over its output space (the epilogue);
 *   row     every reduction reduces exactly the dims after a common parallel prefix k
 *           (rows), every other generic has those k outer dims: one block per row;
 *   element everything else: one thread per output element, reductions as serial
 *           loops (outer-dim reductions, reductions to a scalar of a few elements). */
#include "targets/cuda/codegen/codegen.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "support/context.h"
#include "support/diag.h"
#include "support/grow.h"
#include "support/strbuf.h"
#include "targets/common/bound-constant.h"

bool cu_fail(CuKernel *K, MlirOperation op, const char *fmt, ...) {
  char what[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  MlirOperation at = mlirOperationIsNull(op) ? K->old : op;
  if (!K->failed)
    braze_emit_error(mlirOperationGetLocation(at), "cuda-codegen: kernel @%s: %s", K->name, what);
  K->failed = true;
  return false;
}

int64_t cu_elements(MlirValue tensor) { return cg_num_elements(mlirValueGetType(tensor)); }

static int find_val(CuKernel *K, MlirValue v) {
  return braze_ptrmap_get(&K->val_index, braze_ptr_key(v.ptr), -1);
}

static int add_val(CuKernel *K, MlirValue v, CuValKind kind) {
  K->vals = braze_grow(K->vals, (size_t)K->n_vals, &K->cap_vals, sizeof *K->vals, 16);
  K->vals[K->n_vals] = (CuVal){.tensor = v, .kind = kind, .arg = -1, .item = -1, .out_index = -1};
  braze_ptrmap_put(&K->val_index, braze_ptr_key(v.ptr), K->n_vals);
  return K->n_vals++;
}

static bool static_tensor(MlirType t) {
  return mlirTypeIsARankedTensor(t) && mlirShapedTypeHasStaticShape(t) && mlirShapedTypeGetRank(t) <= CU_MAX_DIMS;
}

/* The body op that yields the accumulator: its operand is the out block argument. */
static MlirOperation find_combiner(MlirOperation generic) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(generic, 0));
  MlirValue acc = mlirBlockGetArgument(body, mlirBlockGetNumArguments(body) - 1);
  MlirOperation yield = mlirBlockGetTerminator(body);
  MlirValue y = mlirOperationGetOperand(yield, 0);
  if (!mlirValueIsAOpResult(y))
    return (MlirOperation){NULL};
  MlirOperation op = mlirOpResultGetOwner(y);
  if (mlirOperationGetNumOperands(op) != 2)
    return (MlirOperation){NULL};
  for (int i = 0; i < 2; ++i)
    if (mlirValueEqual(mlirOperationGetOperand(op, i), acc))
      return op;
  return (MlirOperation){NULL};
}

static bool is_combiner_op(MlirOperation op) {
  static const char *const names[] = {"arith.addf",    "arith.mulf",  "arith.maximumf", "arith.minimumf",
                                      "arith.maxnumf", "arith.minnumf", "arith.addi",   "arith.muli",
                                      "arith.maxsi",   "arith.minsi", "arith.maxui",    "arith.minui",
                                      "arith.andi",    "arith.ori",   "arith.xori",     NULL};
  for (int i = 0; names[i]; ++i)
    if (braze_op_is(op, names[i]))
      return true;
  return false;
}

/* Extents of the generic's loops: each dim from an operand indexed by it directly. */
static bool loop_extents(CuKernel *K, CuItem *it) {
  int n_operands = it->n_in + 1;
  for (int d = 0; d < it->n_dims; ++d) {
    it->ext[d] = -1;
    for (int o = 0; o < n_operands && it->ext[d] < 0; ++o) {
      MlirValue operand = mlirOperationGetOperand(it->op, o);
      for (intptr_t r = 0; r < mlirAffineMapGetNumResults(it->maps[o]); ++r) {
        MlirAffineExpr e = mlirAffineMapGetResult(it->maps[o], r);
        if (mlirAffineExprIsADim(e) && mlirAffineDimExprGetPosition(e) == d) {
          it->ext[d] = mlirShapedTypeGetDimSize(mlirValueGetType(operand), r);
          break;
        }
      }
    }
    if (it->ext[d] < 0)
      return cu_fail(K, it->op, "loop dim %d is read by no operand directly", d);
  }
  return true;
}

static bool read_generic(CuKernel *K, MlirOperation op) {
  K->items = braze_grow(K->items, (size_t)K->n_items, &K->cap_items, sizeof *K->items, 8);
  CuItem *it = &K->items[K->n_items];
  memset(it, 0, sizeof *it);
  it->op = op;
  intptr_t n_operands = mlirOperationGetNumOperands(op);
  if (n_operands - 1 > CU_MAX_INPUTS || mlirOperationGetNumResults(op) != 1)
    return cu_fail(K, op, "generics need one result and at most %d inputs", CU_MAX_INPUTS);
  it->n_in = (int)n_operands - 1;
  MlirAttribute maps = mlirOperationGetAttributeByName(op, braze_ref("indexing_maps"));
  MlirAttribute iters = mlirOperationGetAttributeByName(op, braze_ref("iterator_types"));
  for (int o = 0; o < n_operands; ++o) {
    int v = find_val(K, mlirOperationGetOperand(op, o));
    if (v < 0)
      return cu_fail(K, op, "operand %d is not a tensor of this kernel", o);
    if (o < it->n_in)
      it->in_val[o] = v;
    else
      it->init_val = v;
    it->maps[o] = mlirAffineMapAttrGetValue(mlirArrayAttrGetElement(maps, o));
  }
  it->n_dims = (int)mlirArrayAttrGetNumElements(iters);
  if (it->n_dims > CU_MAX_DIMS)
    return cu_fail(K, op, "generics of more than %d dims are not supported", CU_MAX_DIMS);
  it->par_prefix = -1;
  for (int d = 0; d < it->n_dims; ++d) {
    it->par[d] = cg_attr_text_has(mlirArrayAttrGetElement(iters, d), "parallel");
    it->reduction |= !it->par[d];
    if (!it->par[d] && it->par_prefix < 0)
      it->par_prefix = d;
  }
  if (it->par_prefix < 0)
    it->par_prefix = it->n_dims;
  for (intptr_t r = 0; r < mlirAffineMapGetNumResults(it->maps[it->n_in]); ++r)
    for (int d = 0; d < it->n_dims; ++d) /* written once per parallel point (found by fuzzing) */
      if (!it->par[d] && mlirAffineExprIsFunctionOfDim(mlirAffineMapGetResult(it->maps[it->n_in], r), d))
        return cu_fail(K, op, "the generic's output is indexed by a reduction loop");
  if (!loop_extents(K, it))
    return false;
  if (it->reduction) {
    it->combiner = find_combiner(op);
    if (mlirOperationIsNull(it->combiner) || !is_combiner_op(it->combiner))
      return cu_fail(K, op, "reduction body does not end in an associative combine of the accumulator");
    MlirAttribute ops = mlirOperationGetDiscardableAttributeByName(op, braze_ref("braze.ops"));
    it->contraction = !mlirAttributeIsNull(ops) && it->n_in == 2 &&
                      (cg_attr_text_has(ops, "\"matmul\"") || cg_attr_text_has(ops, "\"batch_matmul\""));
  } else if (!mlirAffineMapIsIdentity(it->maps[it->n_in])) {
    return cu_fail(K, op, "all-parallel generics must write through the identity map");
  }
  it->out_val = add_val(K, mlirOperationGetResult(op, 0), CV_ITEM);
  K->vals[it->out_val].item = K->n_items++;
  return true;
}

/* A concat piece: static offsets, unit strides, source and destination of this kernel. */
static bool read_insert(CuKernel *K, MlirOperation op) {
  int src = find_val(K, mlirOperationGetOperand(op, 0)), dest = find_val(K, mlirOperationGetOperand(op, 1));
  MlirAttribute offsets = mlirOperationGetAttributeByName(op, braze_ref("static_offsets"));
  MlirAttribute strides = mlirOperationGetAttributeByName(op, braze_ref("static_strides"));
  if (src < 0 || dest < 0 || mlirOperationGetNumOperands(op) != 2 || mlirAttributeIsNull(offsets))
    return cu_fail(K, op, "insert_slice needs static offsets and operands of this kernel");
  int v = add_val(K, mlirOperationGetResult(op, 0), CV_INSERT);
  K->vals[v].src = src;
  K->vals[v].dest = dest;
  for (intptr_t d = 0; d < mlirDenseArrayGetNumElements(offsets) && d < CU_MAX_DIMS; ++d) {
    K->vals[v].offset[d] = mlirDenseI64ArrayGetElement(offsets, d);
    if (mlirDenseI64ArrayGetElement(strides, d) != 1)
      return cu_fail(K, op, "insert_slice with non-unit strides");
  }
  return true;
}

static bool read_body(CuKernel *K) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(K->old, 0));
  K->n_in = (int)mlirBlockGetNumArguments(body);
  if (K->n_in > CU_MAX_INPUTS)
    return cu_fail(K, K->old, "more than %d inputs", CU_MAX_INPUTS);
  for (int a = 0; a < K->n_in; ++a) {
    MlirValue arg = mlirBlockGetArgument(body, a);
    if (!static_tensor(mlirValueGetType(arg)))
      return cu_fail(K, K->old, "argument %d is not a static tensor", a);
    int v = add_val(K, arg, CV_ARG);
    K->vals[v].arg = a;
  }
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    if (braze_op_is(op, "linalg.generic")) {
      if (!read_generic(K, op))
        return false;
    } else if (braze_op_is(op, "tensor.empty")) {
      add_val(K, mlirOperationGetResult(op, 0), CV_EMPTY);
    } else if (braze_op_is(op, "tensor.insert_slice")) {
      if (!read_insert(K, op))
        return false;
    } else if (braze_op_is(op, "linalg.fill")) {
      int v = add_val(K, mlirOperationGetResult(op, 0), CV_SPLAT);
      K->vals[v].splat = mlirOperationGetOperand(op, 0);
    } else if (braze_op_is(op, "arith.constant")) {
      MlirValue r = mlirOperationGetResult(op, 0);
      if (!mlirTypeIsARankedTensor(mlirValueGetType(r)))
        continue; /* scalars: cloned where a body uses them */
      MlirAttribute value = mlirOperationGetAttributeByName(op, braze_ref("value"));
      if (!mlirAttributeIsADenseElements(value) || !mlirDenseElementsAttrIsSplat(value))
        return cu_fail(K, op, "non-splat tensor constants inside a kernel are not supported (pass them "
                              "as arguments)");
      int v = add_val(K, r, CV_SPLAT);
      K->vals[v].splat = r; /* resolved by the evaluator from the splat attribute */
    } else if (braze_op_is(op, "func.return")) {
      K->n_out = (int)mlirOperationGetNumOperands(op);
      if (K->n_out > CU_MAX_INPUTS)
        return cu_fail(K, op, "more than %d results", CU_MAX_INPUTS);
      for (int r = 0; r < K->n_out; ++r) {
        int v = find_val(K, mlirOperationGetOperand(op, r));
        if (v < 0 || (K->vals[v].kind != CV_ITEM && K->vals[v].kind != CV_INSERT) || K->vals[v].out_index >= 0)
          return cu_fail(K, op, "result %d is not computed by a generic of the kernel (or returned twice)", r);
        K->vals[v].out_index = r;
        K->out_val[r] = v;
      }
    } else {
      return cu_fail(K, op, "unsupported op '%.*s' in a kernel", (int)braze_op_name(op).length,
                     braze_op_name(op).data);
    }
  }
  for (int a = 0; a < K->n_in; ++a)
    K->arg_types[a] = cg_memref_like(mlirValueGetType(mlirBlockGetArgument(body, a)));
  for (int r = 0; r < K->n_out; ++r)
    K->arg_types[K->n_in + r] = cg_memref_like(mlirValueGetType(K->vals[K->out_val[r]].tensor));
  return true;
}

/* ---- the shape ---- */

static int64_t prod(const int64_t *ext, int from, int to) {
  int64_t p = 1;
  for (int i = from; i < to; ++i)
    p *= ext[i];
  return p;
}

/* The smallest power of 2 >= n, between the warp size and the most threads per block. */
static int threads_for(const CuKernel *K, int64_t n) {
  int p = K->opts->warp;
  while (p < n && p < K->opts->max_block)
    p *= 2;
  return p;
}

/* A row-reduction's output map keeps the outer dims in place and sends the reduced
 * ones to constants (keepdim) or drops them. */
static bool row_output_map(const CuItem *it, int k) {
  MlirAffineMap out = it->maps[it->n_in];
  intptr_t n = mlirAffineMapGetNumResults(out);
  for (intptr_t r = 0; r < n; ++r) {
    MlirAffineExpr e = mlirAffineMapGetResult(out, r);
    if (r < k ? !(mlirAffineExprIsADim(e) && mlirAffineDimExprGetPosition(e) == r) : !mlirAffineExprIsAConstant(e))
      return false;
  }
  return n >= k;
}

static bool choose_row(CuKernel *K) {
  int k = -1;
  int64_t outer[CU_MAX_DIMS];
  for (int i = 0; i < K->n_items; ++i) {
    const CuItem *it = &K->items[i];
    if (!it->reduction)
      continue;
    for (int d = it->par_prefix; d < it->n_dims; ++d)
      if (it->par[d])
        return false; /* reductions must be a suffix */
    if (k >= 0 && it->par_prefix != k)
      return false;
    k = it->par_prefix;
    memcpy(outer, it->ext, sizeof outer);
    if (!row_output_map(it, k))
      return false;
  }
  if (k < 0)
    return false;
  int64_t inner_max = 1;
  for (int i = 0; i < K->n_items; ++i) {
    const CuItem *it = &K->items[i];
    if (it->n_dims < k || memcmp(it->ext, outer, (size_t)k * sizeof *outer) != 0)
      return false;
    int64_t inner = prod(it->ext, k, it->n_dims);
    inner_max = inner > inner_max ? inner : inner_max;
  }
  int64_t rows = prod(outer, 0, k);
  if (rows > 0x7fffffff)
    return false;
  K->shape = CU_ROW;
  K->k = k;
  K->grid[0] = rows;
  K->grid[1] = K->grid[2] = 1;
  /* vec lanes when every generic's innermost inner extent allows it */
  K->vec = (int)K->opts->vec;
  for (int i = 0; i < K->n_items; ++i) {
    const CuItem *it = &K->items[i];
    if (it->n_dims == k || it->ext[it->n_dims - 1] % K->vec != 0)
      K->vec = 1;
  }
  /* threads: enough that each keeps at most max_regs elements, at least 4 warps when
   * the row has that much work, at most the target's most per block */
  int64_t vectors = (inner_max + K->vec - 1) / K->vec;
  int64_t per_thread = K->opts->max_regs / K->vec > 0 ? K->opts->max_regs / K->vec : 1;
  int64_t want = (vectors + per_thread - 1) / per_thread;
  K->block = threads_for(K, want < 128 ? (vectors < 128 ? vectors : 128) : want);
  K->chunks = (int)((vectors + K->block - 1) / K->block);
  K->unrolled = K->chunks <= per_thread;
  return true;
}

bool cu_twin_contraction(const CuKernel *K) {
  if (K->n_items < 2 || !K->items[0].contraction || !K->items[1].contraction)
    return false;
  const CuItem *c = &K->items[0], *d = &K->items[1];
  if (c->n_dims != d->n_dims || memcmp(c->ext, d->ext, (size_t)c->n_dims * sizeof *c->ext) != 0 ||
      c->in_val[0] != d->in_val[0])
    return false;
  for (int i = 0; i <= c->n_in; ++i)
    if (!mlirAffineMapEqual(c->maps[i], d->maps[i]))
      return false;
  return true;
}

static bool map_reads_dim(MlirAffineMap map, int d) {
  for (intptr_t r = 0; r < mlirAffineMapGetNumResults(map); ++r)
    if (cg_affine_dims(mlirAffineMapGetResult(map, r)) & (1ull << d))
      return true;
  return false;
}

bool cu_matmul_roles(const CuItem *c, int dim_m, int dim_n, int *role_a) {
  *role_a = map_reads_dim(c->maps[0], dim_m) ? 0 : 1;
  return c->n_in == 2 && !map_reads_dim(c->maps[*role_a], dim_n) && map_reads_dim(c->maps[1 - *role_a], dim_n);
}

static bool choose_matmul(CuKernel *K) {
  if (K->n_items < 1 || !K->items[0].contraction)
    return false;
  const CuItem *c = &K->items[0];
  int n_par = 0;
  for (int d = 0; d < c->n_dims; ++d)
    n_par += c->par[d];
  if (n_par < 2 || n_par != c->n_dims - 1 || c->par[c->n_dims - 1] ||
      mlirAffineMapGetNumResults(c->maps[c->n_in]) != n_par)
    return false;
  for (int r = 0; r < n_par; ++r) {
    MlirAffineExpr e = mlirAffineMapGetResult(c->maps[c->n_in], r);
    if (!mlirAffineExprIsADim(e) || mlirAffineDimExprGetPosition(e) != r)
      return false;
  }
  /* one input reads m and not n, the other n (the tiles' roles); any other contraction
   * (a convolution's grouped or windowed views) runs as an element kernel */
  int role_a;
  if (!cu_matmul_roles(c, n_par - 2, n_par - 1, &role_a))
    return false;
  for (int i = 1; i < K->n_items; ++i) {
    const CuItem *it = &K->items[i];
    if (K->has_pad && i == K->pad_item) /* the pad prologue: read as A, over its own space */
      continue;
    if (i == 1 && cu_twin_contraction(K)) /* horizontal-templates' pair sharing A: SIMT evaluates it per element */
      continue;
    if (it->reduction || it->n_dims != n_par || memcmp(it->ext, c->ext, (size_t)n_par * sizeof *c->ext) != 0)
      return false;
  }
  int64_t m = c->ext[n_par - 2], n = c->ext[n_par - 1], batch = prod(c->ext, 0, n_par - 2);
  K->shape = CU_MATMUL;
  K->grid[0] = (n + 63) / 64;
  K->grid[1] = (m + 63) / 64;
  K->grid[2] = batch;
  K->block = 256;
  K->vec = 1;
  return batch <= 65535 && K->grid[1] <= 65535;
}

/* Whether a concat piece keeps `vec` lanes: its last extent and its offset there are
 * multiples of them (a concat along dim 0, the token chunks of shard-chunk, always). */
static bool piece_vectorizes(const CuKernel *K, int v, int vec) {
  MlirType t = mlirValueGetType(K->vals[K->vals[v].src].tensor);
  intptr_t rank = mlirShapedTypeGetRank(t);
  return rank > 0 && mlirShapedTypeGetDimSize(t, rank - 1) % vec == 0 && K->vals[v].offset[rank - 1] % vec == 0;
}

/* Whether every stored shape's last extent (and every concat piece's offset there)
 * allows `vec` lanes. */
static bool lanes_fit(const CuKernel *K, int vec) {
  for (int r = 0; r < K->n_out; ++r) {
    int v = K->out_val[r];
    for (; K->vals[v].kind == CV_INSERT; v = K->vals[v].dest)
      if (!piece_vectorizes(K, v, vec))
        return false;
    MlirType t = mlirValueGetType(K->vals[v].tensor);
    intptr_t rank = mlirShapedTypeGetRank(t);
    if (rank == 0 || mlirShapedTypeGetDimSize(t, rank - 1) % vec != 0)
      return false;
  }
  return true;
}

/* `vec` counts 4-byte lanes; a kernel that reduces nothing and stores only 2-byte
 * elements (bf16/f16 copies and pointwise chains: ResNet's stem columns) takes twice as
 * many, so that its accesses stay vec x 4 bytes wide. */
static int wide_lanes(const CuKernel *K) {
  for (int i = 0; i < K->n_items; ++i)
    if (K->items[i].reduction)
      return 0;
  for (int r = 0; r < K->n_out; ++r)
    if (cg_elem_bytes(mlirShapedTypeGetElementType(mlirValueGetType(K->vals[K->out_val[r]].tensor))) != 2)
      return 0;
  return 2 * (int)K->opts->vec;
}

/* Element kernels: the grid covers the largest result (a concat's: its largest
 * piece); `vec` lanes (wide_lanes' for 2-byte copies) when every stored shape allows
 * them, else 1. */
bool cu_choose_element(CuKernel *K) {
  int64_t most = 1;
  int wide = wide_lanes(K);
  K->vec = wide > 1 && lanes_fit(K, wide) ? wide : lanes_fit(K, (int)K->opts->vec) ? (int)K->opts->vec : 1;
  for (int r = 0; r < K->n_out; ++r) {
    int v = K->out_val[r];
    bool concat = K->vals[v].kind == CV_INSERT;
    for (; K->vals[v].kind == CV_INSERT; v = K->vals[v].dest) {
      int64_t n = cg_num_elements(mlirValueGetType(K->vals[K->vals[v].src].tensor));
      most = n > most ? n : most;
    }
    MlirType t = mlirValueGetType(K->vals[v].tensor);
    if (!concat)
      most = cg_num_elements(t) > most ? cg_num_elements(t) : most;
  }
  K->shape = CU_ELEMENT;
  K->block = (int)K->opts->block;
  int64_t threads = (most + K->vec - 1) / K->vec;
  if (threads < K->block)
    K->block = threads_for(K, threads);
  K->grid[0] = (threads + K->block - 1) / K->block;
  K->grid[1] = K->grid[2] = 1;
  if (K->grid[0] > 0x7fffffff)
    return cu_fail(K, K->old, "%lld elements are more than one grid covers", (long long)most);
  return true;
}

static bool has_concat_result(const CuKernel *K) {
  for (int r = 0; r < K->n_out; ++r)
    if (K->vals[K->out_val[r]].kind == CV_INSERT)
      return true;
  return false;
}

/* A kernel argument bound to one constant in every call (the pad's table and mask). */
static MlirAttribute argument_constant(MlirValue v, void *user) {
  CuKernel *K = user;
  int i = find_val(K, v);
  return i >= 0 && K->vals[i].kind == CV_ARG ? braze_bound_constant(K->module, K->old, K->vals[i].arg)
                                             : (MlirAttribute){NULL};
}

/* Whether value v is read by any item but `reader`, as its input `slot`, or returned. */
static bool read_elsewhere(const CuKernel *K, int v, int reader, int slot) {
  if (K->vals[v].out_index >= 0)
    return true;
  for (int i = 0; i < K->n_items; ++i)
    for (int j = 0; j <= K->items[i].n_in; ++j) {
      int in = j < K->items[i].n_in ? K->items[i].in_val[j] : K->items[i].init_val;
      if (in == v && !(i == reader && j == slot))
        return true;
    }
  return false;
}

/* The pad prologue of a tem kernel (form-kernels pad-templates): items[0] a zero pad of
 * an argument (passes/loops/zero-pad-read.h) that only the contraction items[1] reads,
 * as A. It moves to the end of items, so that items[0] is the contraction as every
 * matmul path expects; the values keep pointing at their items. */
static void find_pad_prologue(CuKernel *K) {
  if (K->n_items < 2 || K->items[0].reduction || !K->items[1].contraction ||
      K->items[1].in_val[0] != K->items[0].out_val || read_elsewhere(K, K->items[0].out_val, 1, 0))
    return;
  BrazeZeroPad pad;
  if (braze_zero_pad_read(K->items[0].op, argument_constant, K, &pad))
    return;
  int data = find_val(K, pad.data);
  if (data < 0 || K->vals[data].kind != CV_ARG) {
    braze_zero_pad_free(&pad);
    return;
  }
  CuItem first = K->items[0];
  memmove(K->items, K->items + 1, (size_t)(K->n_items - 1) * sizeof *K->items);
  K->items[K->n_items - 1] = first;
  for (int i = 0; i < K->n_vals; ++i)
    if (K->vals[i].kind == CV_ITEM)
      K->vals[i].item = K->vals[i].item == 0 ? K->n_items - 1 : K->vals[i].item - 1;
  K->has_pad = true;
  K->pad_item = K->n_items - 1;
  K->pad_arg = K->vals[data].arg;
  K->pad = pad;
}

bool cu_a_is_pad(const CuKernel *K) {
  const CuVal *a = &K->vals[K->items[0].in_val[0]];
  return K->has_pad && a->kind == CV_ITEM && a->item == K->pad_item;
}

bool cu_analyze(CuKernel *K) {
  if (!read_body(K))
    return false;
  find_pad_prologue(K);
  if (K->n_out == 0)
    return cu_fail(K, K->old, "a kernel without results");
  if (!has_concat_result(K) && (choose_matmul(K) || choose_row(K)))
    return true;
  if (!cu_choose_element(K))
    return false;
  cu_choose_tiled(K);
  return true;
}

void cu_kernel_free(CuKernel *K) {
  if (K->has_pad)
    braze_zero_pad_free(&K->pad);
  free(K->vals);
  free(K->items);
  free(K->memo);
  free(K->scalars);
  braze_ptrmap_free(&K->val_index);
  braze_ptrmap_free(&K->scalar_index);
}
