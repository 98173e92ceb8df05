/* Row-locality of kernels and their block form (see passes/chains/row-local.h). */
#include "passes/chains/row-local.h"

#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "passes/loops/builder.h"
#include "support/affine-bounds.h"
#include "support/context.h"

static bool is_row_shaped(MlirType type, const RcRows *rows) {
  if (!mlirTypeIsARankedTensor(type) || mlirShapedTypeGetRank(type) < rows->nr)
    return false;
  for (int i = 0; i < rows->nr; ++i)
    if (mlirShapedTypeGetDimSize(type, i) != rows->dims[i])
      return false;
  return true;
}

const char *rc_kernel_rows(MlirOperation kernel, RcRows *rows) {
  MlirType fn = mlirTypeAttrGetValue(mlirOperationGetAttributeByName(kernel, braze_ref("function_type")));
  if (mlirFunctionTypeGetNumResults(fn) != 1)
    return "several-results";
  MlirType result = mlirFunctionTypeGetResult(fn, 0);
  if (!mlirTypeIsARankedTensor(result) || !mlirShapedTypeHasStaticShape(result))
    return "not-a-static-tensor";
  intptr_t rank = mlirShapedTypeGetRank(result);
  if (rank < 2 || rank > RC_MAX_RANK)
    return "rank";
  rows->nr = (int)rank - 1;
  for (int i = 0; i < rows->nr; ++i)
    rows->dims[i] = mlirShapedTypeGetDimSize(result, i);
  return NULL;
}

/* ---- classification ---- */

static int dim_of(MlirAffineExpr e) { return mlirAffineExprIsADim(e) ? (int)mlirAffineDimExprGetPosition(e) : -1; }

RcSlice rc_row_slice(const RcRows *rows, int rank) {
  RcSlice s = {.used = true, .rank = rank};
  for (int d = 0; d < rank && d < RC_MAX_RANK; ++d)
    s.row_of[d] = (int8_t)(d < rows->nr ? d : -1);
  return s;
}

bool rc_slice_equal(const RcSlice *a, const RcSlice *b) {
  if (a->rank != b->rank || memcmp(a->row_of, b->row_of, (size_t)a->rank) != 0)
    return false;
  for (int d = 0; d < a->rank; ++d)
    if (a->row_of[d] == RC_AFFINE &&
        (!mlirAffineExprEqual(a->window[d].offset, b->window[d].offset) || a->window[d].size != b->window[d].size ||
         a->window[d].stride != b->window[d].stride || a->window[d].by_m != b->window[d].by_m))
      return false;
  return true;
}

bool rc_slice_is_rows(const RcSlice *s, const RcRows *rows) {
  RcSlice r = rc_row_slice(rows, s->rank);
  return s->rank >= rows->nr && rc_slice_equal(s, &r);
}

bool rc_slice_is_whole(const RcSlice *s) {
  for (int d = 0; d < s->rank; ++d)
    if (s->row_of[d] != -1)
      return false;
  return true;
}

/* `e` with each row loop rowdims[i] renamed to d_i (and any other loop to 0). */
static MlirAffineExpr in_row_dims(MlirAffineExpr e, const int *rowdims, int nr, intptr_t n_loops) {
  MlirContext ctx = mlirAffineExprGetContext(e);
  MlirAffineExpr subst[RC_MAX_LOOPS];
  for (intptr_t d = 0; d < n_loops; ++d)
    subst[d] = mlirAffineConstantExprGet(ctx, 0);
  for (int i = 0; i < nr; ++i)
    subst[rowdims[i]] = mlirAffineDimExprGet(ctx, i);
  return mlirAffineExprCompose(e, mlirAffineMapGet(ctx, nr, 0, n_loops, subst));
}

/* A result of a map read through row and other loops (RC_AFFINE, see row-local.h): its
 * window (offset over the row dims; size and stride, or m's stride), and the block's own
 * index expression (*local, over the generic's loops). False when it does not split so. */
static bool affine_read(MlirAffineExpr e, const int *rowdims, int nr, const int64_t *extents, intptr_t n_loops,
                        RcWindow *w, MlirAffineExpr *local) {
  MlirContext ctx = mlirAffineExprGetContext(e);
  uint64_t rows = 0, m = 1ull << rowdims[nr - 1];
  for (int i = 0; i < nr; ++i)
    rows |= 1ull << rowdims[i];
  MlirAffineExpr with, without, by_m, by_batch;
  if (!braze_affine_split(e, rows, &with, &without) || !braze_affine_split(with, m, &by_m, &by_batch))
    return false;
  int64_t lo, hi;
  if (!braze_affine_range(without, extents, n_loops, &lo, &hi))
    return false;
  MlirAffineExpr m_dim = mlirAffineDimExprGet(ctx, rowdims[nr - 1]);
  MlirAffineExpr rest = braze_affine_plus(without, -lo);
  *w = (RcWindow){.size = hi - lo + 1, .stride = 1};
  if (!(mlirAffineExprIsAConstant(by_m) && mlirAffineConstantExprGetValue(by_m) == 0)) {
    /* m, times a stride, with no other loop: the block's mc rows that far apart */
    w->by_m = true;
    w->stride = 0;
    if (mlirAffineExprEqual(by_m, m_dim))
      w->stride = 1;
    else if (mlirAffineExprIsAMul(by_m) && mlirAffineExprEqual(mlirAffineBinaryOpExprGetLHS(by_m), m_dim) &&
             mlirAffineExprIsAConstant(mlirAffineBinaryOpExprGetRHS(by_m)))
      w->stride = mlirAffineConstantExprGetValue(mlirAffineBinaryOpExprGetRHS(by_m));
    if (w->stride <= 0 || lo != hi)
      return false;
    *local = m_dim;
  } else {
    /* the other loops' part, divided by its stride (keys at rows n * B + b: every B-th) */
    int64_t stride = mlirAffineExprGetLargestKnownDivisor(rest);
    if (stride > 1 && (hi - lo) % stride == 0) {
      w->stride = stride;
      w->size = (hi - lo) / stride + 1;
      rest = mlirSimplifyAffineExpr(mlirAffineFloorDivExprGet(rest, mlirAffineConstantExprGet(ctx, stride)),
                                    (uint32_t)n_loops, 0);
    }
    *local = rest;
  }
  w->offset = in_row_dims(braze_affine_plus(with, lo), rowdims, nr, n_loops);
  return true;
}

/* The slice `map` reads an operand with, the generic's row loops being rowdims: each
 * result is one row loop alone (each row loop read at most once so), reads none of
 * them, or is an RC_AFFINE read. */
static bool slice_of_map(MlirAffineMap map, const int *rowdims, int nr, const int64_t *extents, intptr_t n_loops,
                         RcSlice *out) {
  intptr_t n = mlirAffineMapGetNumResults(map);
  if (n > RC_MAX_RANK)
    return false;
  *out = (RcSlice){.used = true, .rank = (int)n};
  int seen = 0;
  for (intptr_t r = 0; r < n; ++r) {
    MlirAffineExpr e = mlirAffineMapGetResult(map, r), local;
    out->row_of[r] = -1;
    int bare = -1;
    bool reads_rows = false;
    for (int i = 0; i < nr; ++i) {
      reads_rows |= mlirAffineExprIsFunctionOfDim(e, rowdims[i]);
      bare = dim_of(e) == rowdims[i] && !(seen & (1 << i)) ? i : bare;
    }
    if (bare >= 0) {
      seen |= 1 << bare;
      out->row_of[r] = (int8_t)bare;
    } else if (reads_rows) {
      if (!affine_read(e, rowdims, nr, extents, n_loops, &out->window[r], &local))
        return false;
      out->row_of[r] = RC_AFFINE;
    }
  }
  return true;
}

typedef struct {
  const RcRows *rows;
  MlirBlock entry;
  RcSlice *slices;
  const char *reason;
  BrazeStr *detail;
} Classifier;

static void refuse(Classifier *c, const char *reason) {
  if (!c->reason)
    c->reason = reason;
}

/* A value read (or written) through `slice`: arguments remember it (one slice each),
 * values made inside must be row-shaped results read as rows, or constants read whole. */
static void note_use(Classifier *c, MlirValue v, const RcSlice *slice) {
  if (!slice)
    return refuse(c, "not-row-local");
  if (mlirValueIsABlockArgument(v) && mlirBlockEqual(mlirBlockArgumentGetOwner(v), c->entry)) {
    RcSlice *slot = &c->slices[mlirBlockArgumentGetArgNumber(v)];
    if (slot->used && !rc_slice_equal(slot, slice))
      return refuse(c, "argument-read-two-ways");
    *slot = *slice;
    if (rc_slice_is_rows(slice, c->rows) && !is_row_shaped(mlirValueGetType(v), c->rows))
      refuse(c, "not-row-shaped");
    return;
  }
  if (!mlirValueIsAOpResult(v))
    return refuse(c, "not-row-local");
  MlirOperation def = mlirOpResultGetOwner(v);
  if (braze_op_is(def, "arith.constant"))
    return rc_slice_is_whole(slice) ? (void)0 : refuse(c, "row-indexed-constant");
  if (!rc_slice_is_rows(slice, c->rows) || !is_row_shaped(mlirValueGetType(v), c->rows))
    refuse(c, "not-row-local");
}

/* linalg.index in a body: its loop indices would be the block's, not the kernel's. */
static MlirWalkResult find_index(MlirOperation op, void *found) {
  if (braze_op_is(op, "linalg.index")) {
    *(bool *)found = true;
    return MlirWalkResultInterrupt;
  }
  return MlirWalkResultAdvance;
}

static void classify_generic(Classifier *c, MlirOperation op) {
  bool uses_index = false;
  mlirOperationWalk(op, find_index, &uses_index, MlirWalkPreOrder);
  if (uses_index) /* a gather computes the positions it reads from its loop indices */
    return refuse(c, "loop-index");
  MlirAttribute maps = mlirOperationGetAttributeByName(op, braze_ref("indexing_maps"));
  intptr_t n = mlirOperationGetNumOperands(op), nr = c->rows->nr;
  if (mlirArrayAttrGetNumElements(maps) != n || mlirOperationGetNumResults(op) < 1)
    return refuse(c, "unsupported-op");
  MlirAffineMap out_map = mlirAffineMapAttrGetValue(mlirArrayAttrGetElement(maps, n - 1));
  int64_t extents[RC_MAX_LOOPS];
  intptr_t n_loops = braze_generic_loop_extents(op, extents, RC_MAX_LOOPS);
  if (n_loops > RC_MAX_LOOPS)
    return refuse(c, "too-many-loops");
  int rowdims[RC_MAX_RANK];
  for (intptr_t i = 0; i < nr; ++i)
    if (mlirAffineMapGetNumResults(out_map) < nr ||
        (rowdims[i] = dim_of(mlirAffineMapGetResult(out_map, i))) < 0 || rowdims[i] >= 64)
      return refuse(c, "not-row-local");
  for (intptr_t j = 0; j < n; ++j) {
    MlirAffineMap map = mlirAffineMapAttrGetValue(mlirArrayAttrGetElement(maps, j));
    RcSlice slice;
    MlirValue v = mlirOperationGetOperand(op, j);
    bool sliced = slice_of_map(map, rowdims, (int)nr, extents, n_loops, &slice);
    if (!sliced && !c->reason && c->detail && mlirValueIsABlockArgument(v)) {
      braze_str_printf(c->detail, "argument #%d through ", (int)mlirBlockArgumentGetArgNumber(v));
      mlirAffineMapPrint(map, braze_str_callback, c->detail);
    }
    note_use(c, v, sliced ? &slice : NULL);
  }
  for (intptr_t r = 0; r < mlirOperationGetNumResults(op); ++r)
    if (!is_row_shaped(mlirValueGetType(mlirOperationGetResult(op, r)), c->rows))
      refuse(c, "not-row-shaped");
}

static void classify_op(Classifier *c, MlirOperation op) {
  if (braze_op_is(op, "arith.constant"))
    return is_row_shaped(mlirValueGetType(mlirOperationGetResult(op, 0)), c->rows)
               ? refuse(c, "row-indexed-constant")
               : (void)0;
  if (braze_op_is(op, "tensor.empty"))
    return is_row_shaped(mlirValueGetType(mlirOperationGetResult(op, 0)), c->rows) ? (void)0
                                                                                   : refuse(c, "not-row-shaped");
  if (braze_op_is(op, "linalg.fill") || braze_op_is(op, "func.return")) {
    MlirValue v = mlirOperationGetOperand(op, braze_op_is(op, "linalg.fill") ? 1 : 0);
    RcSlice rows = rc_row_slice(c->rows, (int)mlirShapedTypeGetRank(mlirValueGetType(v)));
    return note_use(c, v, &rows);
  }
  if (braze_op_is(op, "linalg.generic"))
    return classify_generic(c, op);
  refuse(c, "unsupported-op");
}

const char *rc_classify(MlirOperation kernel, const RcRows *rows, RcSlice *slices, BrazeStr *detail) {
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(kernel, 0));
  intptr_t n_args = mlirBlockGetNumArguments(entry);
  if (n_args > RC_MAX_ARGS)
    return "too-many-arguments";
  for (intptr_t i = 0; i < n_args; ++i)
    slices[i] = (RcSlice){.used = false};
  Classifier c = {rows, entry, slices, NULL, detail};
  for (MlirOperation op = mlirBlockGetFirstOperation(entry); !mlirOperationIsNull(op) && !c.reason;
       op = mlirOperationGetNextInBlock(op))
    classify_op(&c, op);
  return c.reason;
}

/* ---- block form ---- */

MlirType rc_block_type(MlirType type, const RcSlice *slice, int64_t mc, const RcRows *rows) {
  intptr_t rank = mlirShapedTypeGetRank(type);
  int64_t shape[RC_MAX_RANK];
  for (intptr_t d = 0; d < rank && d < RC_MAX_RANK; ++d) {
    int r = slice->used && d < slice->rank ? slice->row_of[d] : -1;
    if (r == RC_AFFINE)
      shape[d] = slice->window[d].by_m ? mc : slice->window[d].size;
    else
      shape[d] = r < 0 ? mlirShapedTypeGetDimSize(type, d) : r == rows->nr - 1 ? mc : 1;
  }
  return mlirRankedTensorTypeGet(rank, shape, mlirShapedTypeGetElementType(type), mlirAttributeGetNull());
}

/* The generic's reads of arguments with RC_AFFINE dims by the block's own indices (the
 * slice holds the window at the block's offset). Before retyping: the extents are the
 * kernel's. */
static void localize_affine_reads(MlirOperation generic, MlirBlock entry, const RcRows *rows, const RcSlice *slices) {
  MlirAttribute maps = mlirOperationGetAttributeByName(generic, braze_ref("indexing_maps"));
  intptr_t n = mlirArrayAttrGetNumElements(maps), nr = rows->nr;
  int64_t extents[RC_MAX_LOOPS];
  intptr_t n_loops = braze_generic_loop_extents(generic, extents, RC_MAX_LOOPS);
  MlirAffineMap out_map = mlirAffineMapAttrGetValue(mlirArrayAttrGetElement(maps, n - 1));
  int rowdims[RC_MAX_RANK];
  for (intptr_t i = 0; i < nr; ++i)
    rowdims[i] = dim_of(mlirAffineMapGetResult(out_map, i));
  MlirAttribute new_maps[RC_MAX_ARGS + 1];
  bool changed = false;
  for (intptr_t j = 0; j < n && j <= RC_MAX_ARGS; ++j) {
    MlirValue v = mlirOperationGetOperand(generic, j);
    new_maps[j] = mlirArrayAttrGetElement(maps, j);
    if (!mlirValueIsABlockArgument(v) || !mlirBlockEqual(mlirBlockArgumentGetOwner(v), entry))
      continue;
    const RcSlice *slice = &slices[mlirBlockArgumentGetArgNumber(v)];
    MlirAffineMap map = mlirAffineMapAttrGetValue(new_maps[j]);
    MlirAffineExpr exprs[RC_MAX_RANK];
    bool affine = false;
    for (intptr_t r = 0; r < mlirAffineMapGetNumResults(map) && r < RC_MAX_RANK; ++r) {
      exprs[r] = mlirAffineMapGetResult(map, r);
      RcWindow window;
      if (r < slice->rank && slice->row_of[r] == RC_AFFINE &&
          affine_read(exprs[r], rowdims, (int)nr, extents, n_loops, &window, &exprs[r]))
        affine = true;
    }
    if (affine) {
      new_maps[j] = mlirAffineMapAttrGet(mlirAffineMapGet(mlirAttributeGetContext(maps), mlirAffineMapGetNumDims(map), 0,
                                                          mlirAffineMapGetNumResults(map), exprs));
      changed = true;
    }
  }
  if (changed)
    mlirOperationSetAttributeByName(generic, braze_ref("indexing_maps"),
                                    mlirArrayAttrGet(mlirAttributeGetContext(maps), n, new_maps));
}

void rc_make_block(MlirOperation clone, const RcRows *rows, const RcSlice *slices, int64_t mc) {
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(clone, 0));
  intptr_t n_args = mlirBlockGetNumArguments(entry);
  for (MlirOperation op = mlirBlockGetFirstOperation(entry); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    if (braze_op_is(op, "linalg.generic"))
      localize_affine_reads(op, entry, rows, slices);
  MlirType arg_types[RC_MAX_ARGS], result_type = {NULL};
  for (intptr_t i = 0; i < n_args; ++i) {
    MlirValue a = mlirBlockGetArgument(entry, i);
    arg_types[i] = rc_block_type(mlirValueGetType(a), &slices[i], mc, rows);
    mlirBlockArgumentSetType(a, arg_types[i]);
  }
  for (MlirOperation op = mlirBlockGetFirstOperation(entry); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    if (braze_op_is(op, "func.return")) {
      result_type = mlirValueGetType(mlirOperationGetOperand(op, 0));
      continue;
    }
    for (intptr_t r = 0; r < mlirOperationGetNumResults(op); ++r) {
      MlirValue v = mlirOperationGetResult(op, r);
      if (!braze_op_is(op, "arith.constant") && is_row_shaped(mlirValueGetType(v), rows)) {
        RcSlice as_rows = rc_row_slice(rows, (int)mlirShapedTypeGetRank(mlirValueGetType(v)));
        mlirValueSetType(v, rc_block_type(mlirValueGetType(v), &as_rows, mc, rows));
      }
    }
  }
  MlirContext ctx = mlirOperationGetContext(clone);
  MlirType fn = mlirFunctionTypeGet(ctx, n_args, arg_types, 1, &result_type);
  mlirOperationSetAttributeByName(clone, braze_ref("function_type"), mlirTypeAttrGet(fn));
}

int64_t rc_row_bytes(MlirType type, const RcRows *rows) {
  int64_t n = 1;
  for (intptr_t i = rows->nr; i < mlirShapedTypeGetRank(type); ++i)
    n *= mlirShapedTypeGetDimSize(type, i);
  MlirType e = mlirShapedTypeGetElementType(type);
  int64_t bits = mlirTypeIsAInteger(e) ? (int64_t)mlirIntegerTypeGetWidth(e) : (int64_t)mlirFloatTypeGetWidth(e);
  return n * ((bits + 7) / 8);
}
