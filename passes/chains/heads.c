/* form-row-chains: copies of q, k and v read through views, for the online form (see
 * passes/chains/heads.h). */
#include "passes/chains/heads.h"

#include <stdio.h>
#include <stdlib.h>

#include "dialects/graph/graph.h"
#include "ir/build.h"
#include "mlir-c/AffineMap.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "passes/loops/builder.h"
#include "support/affine-bounds.h"
#include "support/context.h"
#include "support/strbuf.h"

enum { HEADS_MAX_LOOPS = 16 };

/* An input of a kernel's generic read through a view: which, and the copy's loops. */
typedef struct {
  MlirOperation generic;
  int input;           /* the generic's operand */
  int arg;             /* the kernel's argument */
  int n_dims;          /* the copy's dims: loops[0..n_dims) of the generic, batch loops first */
  int loops[HEADS_MAX_LOOPS];
  int64_t group[HEADS_MAX_LOOPS]; /* > 1: the view reads loops[i] only as loops[i] floordiv group (heads
                                   * shared by that many others: the copy keeps one, shape / group) */
  int64_t shape[HEADS_MAX_LOOPS];
} ViewRead;

static MlirBlock body_of(MlirOperation op) { return mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0)); }

/* A template's operand layout: the batch loops, then for A (it reads m) m and the
 * reduction loops, for B the reduction loops and n: (m, k) and (k, n) row-major. */
static void template_order(MlirAffineMap out, MlirAffineMap view, bool *used, ViewRead *v) {
  intptr_t n_out = mlirAffineMapGetNumResults(out), n_loops = mlirAffineMapGetNumDims(view);
  int m = (int)mlirAffineDimExprGetPosition(mlirAffineMapGetResult(out, n_out - 2));
  bool a = braze_map_reads_dim(view, m);
  for (int pass = 0; pass < 2; ++pass)
    for (int d = 0; d < n_loops; ++d) {
      bool reduction = !braze_map_reads_dim(out, d);
      if (!used[d] && braze_map_reads_dim(view, d) && (a ? (pass == 0) != reduction : (pass == 0) == reduction))
        used[d] = true, v->loops[v->n_dims++] = d;
    }
}

/* Whether every occurrence of dim d in e is `d floordiv c` for one constant c > 1 (*c, 0
 * while none is seen); false where d appears otherwise. */
static bool only_grouped(MlirAffineExpr e, intptr_t d, int64_t *c) {
  if (mlirAffineExprIsADim(e))
    return (intptr_t)mlirAffineDimExprGetPosition(e) != d;
  if (!mlirAffineExprIsABinary(e))
    return true;
  MlirAffineExpr lhs = mlirAffineBinaryOpExprGetLHS(e), rhs = mlirAffineBinaryOpExprGetRHS(e);
  if (mlirAffineExprIsAFloorDiv(e) && mlirAffineExprIsADim(lhs) && (intptr_t)mlirAffineDimExprGetPosition(lhs) == d &&
      mlirAffineExprIsAConstant(rhs)) {
    int64_t k = mlirAffineConstantExprGetValue(rhs);
    if (k < 2 || (*c && *c != k))
      return false;
    *c = k;
    return true;
  }
  return only_grouped(lhs, d, c) && only_grouped(rhs, d, c);
}

/* The group of the view's loop d: c when the view reads d only as d floordiv c (and c
 * divides its extent), else 1. */
static int64_t loop_group(MlirAffineMap view, intptr_t d, int64_t extent) {
  int64_t c = 0;
  for (intptr_t r = 0; r < mlirAffineMapGetNumResults(view); ++r)
    if (!only_grouped(mlirAffineMapGetResult(view, r), d, &c))
      return 1;
  return c > 1 && extent % c == 0 ? c : 1;
}

/* The copy's dims: the loops the view reads, the batch loops (those the output's leading
 * dims read, before m) first, then the others in the order the view first reads them
 * (the online form's [batch..., rows, head dim]), or in a template's operand layout. */
static bool copy_dims(MlirOperation g, MlirAffineMap view, bool for_template, bool reduction_last, ViewRead *v) {
  intptr_t n_loops = mlirAffineMapGetNumDims(view);
  MlirAffineMap out = braze_generic_map(g, mlirOperationGetNumOperands(g) - 1);
  int64_t extents[HEADS_MAX_LOOPS];
  if (braze_generic_loop_extents(g, extents, HEADS_MAX_LOOPS) > HEADS_MAX_LOOPS)
    return false;
  bool used[HEADS_MAX_LOOPS] = {false};
  v->n_dims = 0;
  intptr_t n_batch = mlirAffineMapGetNumResults(out) - 2;
  bool a_side = for_template && n_batch >= 0 && mlirAffineExprIsADim(mlirAffineMapGetResult(out, n_batch)) &&
                braze_map_reads_dim(view, mlirAffineDimExprGetPosition(mlirAffineMapGetResult(out, n_batch)));
  for (intptr_t r = 0; r < n_batch; ++r) {
    MlirAffineExpr e = mlirAffineMapGetResult(out, r);
    if (!mlirAffineExprIsADim(e))
      return false;
    int d = (int)mlirAffineDimExprGetPosition(e);
    /* a template's A and the online form's operands have every batch dim: a unit one the
     * view does not read (a conv's single group, a batch of 1) is a dim of 1 in the copy */
    if (!used[d] && (braze_map_reads_dim(view, d) || ((a_side || !for_template) && extents[d] == 1)))
      used[d] = true, v->loops[v->n_dims++] = d;
  }
  int n_batch_read = v->n_dims; /* the copy's batch dims come first */
  if (for_template && mlirAffineMapGetNumResults(out) >= 2 && mlirAffineExprIsADim(mlirAffineMapGetResult(out, n_batch)))
    template_order(out, view, used, v);
  for (int pass = reduction_last ? 0 : 1; pass < 2; ++pass) /* with reduction_last: the output's loops first */
    for (intptr_t k = 0; k < mlirAffineMapGetNumResults(view); ++k)
      for (int d = 0; d < n_loops; ++d)
        if (!used[d] && mlirAffineExprIsFunctionOfDim(mlirAffineMapGetResult(view, k), d) &&
            (pass == 1 || braze_map_reads_dim(out, d)))
          used[d] = true, v->loops[v->n_dims++] = d;
  for (int i = 0; i < v->n_dims; ++i) {
    /* grouped batch loops (grouped-query heads) keep their groups' one copy, for the
     * online form; a template's operand is copied whole */
    v->group[i] = !for_template && i < n_batch_read ? loop_group(view, v->loops[i], extents[v->loops[i]]) : 1;
    if ((v->shape[i] = extents[v->loops[i]] / v->group[i]) < 1)
      return false;
  }
  return v->n_dims > 0;
}

static MlirAffineMap copy_read_map(const ViewRead *v, MlirAffineMap view);

/* A contraction's input read by a plain map (dims and constants) that a template's
 * operand layout would still reorder or reshape: a 1x1 conv's weight [OC, C, 1, 1]
 * read as (n, k, 0, 0), B in the (k, n) layout only after a copy. Its copy must be that
 * layout: A [batch..., m, k], B [k, n] (two dims). */
static bool plain_but_not_template_layout(MlirOperation g, int input, MlirValue arg) {
  ViewRead v = {.generic = g, .input = input};
  MlirAffineMap map = braze_generic_map(g, input);
  if (!copy_dims(g, map, true, false, &v))
    return false;
  MlirAffineMap out = braze_generic_map(g, mlirOperationGetNumOperands(g) - 1);
  intptr_t n_out = mlirAffineMapGetNumResults(out);
  if (n_out < 2 || !mlirAffineExprIsADim(mlirAffineMapGetResult(out, n_out - 2)))
    return false;
  int m = (int)mlirAffineDimExprGetPosition(mlirAffineMapGetResult(out, n_out - 2));
  bool a = braze_map_reads_dim(map, m);
  if (a ? v.n_dims != n_out : v.n_dims != 2)
    return false;
  /* already that layout: the copy would be the argument itself */
  MlirType t = mlirValueGetType(arg);
  bool same = mlirShapedTypeGetRank(t) == v.n_dims && mlirAffineMapIsIdentity(copy_read_map(&v, map));
  for (int d = 0; same && d < v.n_dims; ++d)
    same = mlirShapedTypeGetDimSize(t, d) == v.shape[d];
  return !same;
}

/* A contraction's input read by a plain map whose last result is not a reduction loop while
 * it reads one (k stored as [batch, head dim, keys] in q . k^T): HEADS_ONLINE_REDUCTION_LAST
 * copies it with the reduction last. */
static bool plain_but_reduction_not_last(MlirOperation g, int input) {
  MlirAffineMap map = braze_generic_map(g, input), out = braze_generic_map(g, mlirOperationGetNumOperands(g) - 1);
  intptr_t n = mlirAffineMapGetNumResults(map);
  if (n < 2 || !mlirAffineExprIsADim(mlirAffineMapGetResult(map, n - 1)))
    return false;
  if (!braze_map_reads_dim(out, mlirAffineDimExprGetPosition(mlirAffineMapGetResult(map, n - 1))))
    return false; /* the last dim is a reduction already */
  for (intptr_t d = 0; d < mlirAffineMapGetNumDims(map); ++d)
    if (braze_map_reads_dim(map, d) && !braze_map_reads_dim(out, d))
      return true;
  return false;
}

/* Whether a template reads `src` through a view that repeats its elements in place:
 * its rows are a multiple of window_channels elements (heads_materialize). */
static bool window_in_place(MlirValue src, long long window_channels) {
  MlirType t = mlirValueGetType(src);
  intptr_t rank = mlirShapedTypeGetRank(t);
  return window_channels > 0 && rank >= 3 && mlirShapedTypeGetDimSize(t, rank - 1) % window_channels == 0;
}

/* Whether the contraction g reads its input `input` (map `view`) as a strided 1x1 conv's A
 * (a downsampling conv's input in ResNet): the view reads the output rows m, its last
 * result is a bare reduction loop (the channel, read in place) and no other result reads a
 * reduction loop (no filter taps). The template reads that as a window of one tap with a
 * stride (targets/cuda/matmul/window.c), so with window_in_place rows it needs no copy. */
static bool strided_channels_in_place(MlirOperation g, MlirAffineMap view) {
  MlirAffineMap out = braze_generic_map(g, mlirOperationGetNumOperands(g) - 1);
  intptr_t n_out = mlirAffineMapGetNumResults(out), n = mlirAffineMapGetNumResults(view);
  if (n_out < 2 || n < 2 || !mlirAffineExprIsADim(mlirAffineMapGetResult(out, n_out - 2)))
    return false;
  if (!braze_map_reads_dim(view, mlirAffineDimExprGetPosition(mlirAffineMapGetResult(out, n_out - 2))))
    return false; /* B, not A */
  MlirAffineExpr last = mlirAffineMapGetResult(view, n - 1);
  if (!mlirAffineExprIsADim(last) || braze_map_reads_dim(out, mlirAffineDimExprGetPosition(last)))
    return false;
  for (intptr_t d = 0; d < mlirAffineMapGetNumDims(view); ++d)
    if (!braze_map_reads_dim(out, d) && d != (intptr_t)mlirAffineDimExprGetPosition(last))
      for (intptr_t r = 0; r + 1 < n; ++r)
        if (mlirAffineExprIsFunctionOfDim(mlirAffineMapGetResult(view, r), d))
          return false;
  return true;
}

/* The kernel's generic inputs read through a view, each a kernel argument used there
 * alone; for a template only the contraction's (its epilogue reads any map): a view that
 * repeats elements (a convolution's windows) unless the template reads it in place
 * (window_in_place), a strided 1x1 conv's input likewise (strided_channels_in_place), and
 * the contraction's inputs read by a plain map in another layout. */
static int find_view_reads(MlirOperation kernel, ViewRead *reads, HeadsLayout layout, long long window_channels) {
  int n = 0;
  bool for_template = layout == HEADS_TEMPLATE, reduction_last = layout == HEADS_ONLINE_REDUCTION_LAST;
  MlirBlock body = body_of(kernel);
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    if (!braze_op_is(op, "linalg.generic"))
      continue;
    intptr_t n_in = mlirOperationGetNumOperands(op) - mlirOperationGetNumResults(op);
    bool contraction = (for_template || reduction_last) && !braze_generic_all_parallel(op);
    if (for_template && !contraction)
      continue; /* the template's epilogue reads its operands through any map */
    for (intptr_t i = 0; i < n_in; ++i) {
      MlirValue a = mlirOperationGetOperand(op, i);
      MlirAffineMap map = braze_generic_map(op, i);
      bool relayout = contraction && mlirValueIsABlockArgument(a) &&
                      (for_template ? plain_but_not_template_layout(op, (int)i, a) : plain_but_reduction_not_last(op, (int)i));
      if (braze_map_is_plain(map) && !relayout)
        continue;
      MlirOpOperand use = mlirValueGetFirstUse(a);
      if (!mlirValueIsABlockArgument(a) || !mlirBlockEqual(mlirBlockArgumentGetOwner(a), body) ||
          !mlirOpOperandIsNull(mlirOpOperandGetNextUse(use)) || n == HEADS_MAX_COPIES)
        return -1;
      reads[n] = (ViewRead){.generic = op, .input = (int)i, .arg = (int)mlirBlockArgumentGetArgNumber(a)};
      if (!copy_dims(op, map, for_template, reduction_last, &reads[n]))
        return -1;
      int64_t copy = 1;
      for (int d = 0; d < reads[n].n_dims; ++d)
        copy *= reads[n].shape[d];
      if (for_template && window_in_place(a, window_channels) &&
          (copy > braze_num_elements(mlirValueGetType(a)) || strided_channels_in_place(op, map)))
        continue;
      ++n;
    }
  }
  return n;
}

static MlirType copy_type(const ViewRead *v, MlirType elem) {
  return mlirRankedTensorTypeGet(v->n_dims, v->shape, elem, mlirAttributeGetNull());
}

/* The view's map over the copy's dims: loop loops[i] is the copy's dim i. */
static MlirAffineMap copy_read_map(const ViewRead *v, MlirAffineMap view) {
  MlirContext ctx = mlirAffineMapGetContext(view);
  intptr_t n_loops = mlirAffineMapGetNumDims(view);
  MlirAffineExpr subst[HEADS_MAX_LOOPS], exprs[HEADS_MAX_LOOPS];
  for (intptr_t d = 0; d < n_loops; ++d)
    subst[d] = mlirAffineConstantExprGet(ctx, 0);
  for (int i = 0; i < v->n_dims; ++i) /* a grouped loop is group times the copy's dim */
    subst[v->loops[i]] = v->group[i] > 1 ? mlirAffineMulExprGet(mlirAffineDimExprGet(ctx, i),
                                                                 mlirAffineConstantExprGet(ctx, v->group[i]))
                                         : mlirAffineDimExprGet(ctx, i);
  MlirAffineMap rename = mlirAffineMapGet(ctx, v->n_dims, 0, n_loops, subst);
  intptr_t n = mlirAffineMapGetNumResults(view);
  for (intptr_t r = 0; r < n && r < HEADS_MAX_LOOPS; ++r)
    exprs[r] = mlirAffineExprCompose(mlirAffineMapGetResult(view, r), rename);
  return mlirAffineMapGet(ctx, v->n_dims, 0, n, exprs);
}

/* The copy kernel: `<target>_poi_fused_heads_N(%src) -> the view's values in the copy's layout`. */
static MlirOperation make_copy_kernel(MlirOperation func, Symbols *sym, const ViewRead *v, MlirValue src,
                                      const char *target) {
  MlirType st = mlirValueGetType(src), elem = mlirShapedTypeGetElementType(st), ct = copy_type(v, elem);
  BrazeStr stem = {0}, text = {0};
  braze_str_printf(&stem, "%s_poi_fused_heads", target);
  char *name = cg_unique_symbol(sym->table, braze_str_cstr(&stem));
  braze_str_printf(&text, "func.func private @%s(%%src: ", name);
  mlirTypePrint(st, braze_str_callback, &text);
  braze_str_puts(&text, ") -> ");
  mlirTypePrint(ct, braze_str_callback, &text);
  braze_str_puts(&text, " attributes {kernel.kind = \"poi\", kernel.ops = [\"copy\"], kernel.score = 0 : i64} {\n"
                        "  %e = tensor.empty() : ");
  mlirTypePrint(ct, braze_str_callback, &text);
  braze_str_puts(&text, "\n  %c = linalg.generic {indexing_maps = [affine_map<");
  mlirAffineMapPrint(copy_read_map(v, braze_generic_map(v->generic, v->input)), braze_str_callback, &text);
  braze_str_puts(&text, ">, affine_map<");
  mlirAffineMapPrint(mlirAffineMapMultiDimIdentityGet(mlirOperationGetContext(func), v->n_dims), braze_str_callback,
                     &text);
  braze_str_puts(&text, ">], iterator_types = [");
  for (int i = 0; i < v->n_dims; ++i)
    braze_str_puts(&text, i ? ", \"parallel\"" : "\"parallel\"");
  braze_str_puts(&text, "]} ins(%src : ");
  mlirTypePrint(st, braze_str_callback, &text);
  braze_str_puts(&text, ") outs(%e : ");
  mlirTypePrint(ct, braze_str_callback, &text);
  braze_str_puts(&text, ") attrs = {braze.ops = [\"copy\"]} {\n  ^bb0(%in: ");
  mlirTypePrint(elem, braze_str_callback, &text);
  braze_str_puts(&text, ", %out: ");
  mlirTypePrint(elem, braze_str_callback, &text);
  braze_str_puts(&text, "):\n    linalg.yield %in : ");
  mlirTypePrint(elem, braze_str_callback, &text);
  braze_str_puts(&text, "\n  } -> ");
  mlirTypePrint(ct, braze_str_callback, &text);
  braze_str_puts(&text, "\n  return %c : ");
  mlirTypePrint(ct, braze_str_callback, &text);
  braze_str_puts(&text, "\n}\n");
  MlirOperation fn = mlirOperationCreateParse(mlirOperationGetContext(func), braze_ref(braze_str_cstr(&text)),
                                              braze_ref("form-row-chains"));
  if (!mlirOperationIsNull(fn)) {
    mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(func), func, fn);
    mlirSymbolTableInsert(sym->table, fn);
  }
  free(name);
  braze_str_free(&stem);
  braze_str_free(&text);
  return fn;
}

/* A call of `callee` with `operands`, right after `at`, at its location. */
static MlirOperation call_after(MlirOperation at, MlirOperation callee, intptr_t n, const MlirValue *operands,
                                MlirType result) {
  MlirOperation op = chain_call(callee, mlirOperationGetLocation(at), n, operands, result);
  mlirBlockInsertOwnedOperationAfter(mlirOperationGetBlock(at), at, op);
  return op;
}

/* The kernel's clone reading the copies: the arguments retyped, the views' maps plain. */
static MlirOperation make_plain_kernel(MlirOperation func, Symbols *sym, MlirOperation kernel,
                                       const ViewRead *reads, int n) {
  MlirOperation clone = mlirOperationClone(kernel);
  MlirContext ctx = mlirOperationGetContext(clone);
  MlirBlock body = body_of(clone);
  /* named like the kernel with another index: its name's origins stay what they were */
  MlirStringRef old_name = mlirStringAttrGetValue(mlirOperationGetAttributeByName(kernel, braze_ref("sym_name")));
  size_t stem_len = old_name.length;
  while (stem_len > 0 && old_name.data[stem_len - 1] >= '0' && old_name.data[stem_len - 1] <= '9')
    --stem_len;
  BrazeStr stem = {0};
  braze_str_append(&stem, old_name.data, stem_len > 0 && old_name.data[stem_len - 1] == '_' ? stem_len - 1 : stem_len);
  char *name = cg_unique_symbol(sym->table, braze_str_cstr(&stem));
  mlirOperationSetAttributeByName(clone, braze_ref("sym_name"), mlirStringAttrGet(ctx, braze_ref(name)));
  /* the clone's generics are where the kernel's are, in order */
  MlirOperation og = mlirBlockGetFirstOperation(body_of(kernel)), cg = mlirBlockGetFirstOperation(body);
  for (; !mlirOperationIsNull(og); og = mlirOperationGetNextInBlock(og), cg = mlirOperationGetNextInBlock(cg))
    for (int i = 0; i < n; ++i) {
      if (!mlirOperationEqual(og, reads[i].generic))
        continue;
      MlirAttribute maps = mlirOperationGetAttributeByName(cg, braze_ref("indexing_maps"));
      intptr_t n_maps = mlirArrayAttrGetNumElements(maps);
      MlirAttribute new_maps[HEADS_MAX_LOOPS];
      for (intptr_t j = 0; j < n_maps && j < HEADS_MAX_LOOPS; ++j)
        new_maps[j] = mlirArrayAttrGetElement(maps, j);
      MlirAffineExpr dims[HEADS_MAX_LOOPS];
      for (int d = 0; d < reads[i].n_dims; ++d) {
        dims[d] = mlirAffineDimExprGet(ctx, reads[i].loops[d]);
        if (reads[i].group[d] > 1)
          dims[d] = mlirAffineFloorDivExprGet(dims[d], mlirAffineConstantExprGet(ctx, reads[i].group[d]));
      }
      intptr_t n_loops = mlirAffineMapGetNumDims(braze_generic_map(cg, reads[i].input));
      new_maps[reads[i].input] = mlirAffineMapAttrGet(mlirAffineMapGet(ctx, n_loops, 0, reads[i].n_dims, dims));
      mlirOperationSetAttributeByName(cg, braze_ref("indexing_maps"), mlirArrayAttrGet(ctx, n_maps, new_maps));
      MlirValue arg = mlirBlockGetArgument(body, reads[i].arg);
      mlirValueSetType(arg, copy_type(&reads[i], mlirShapedTypeGetElementType(mlirValueGetType(arg))));
    }
  intptr_t n_args = mlirBlockGetNumArguments(body);
  MlirType types[32];
  for (intptr_t a = 0; a < n_args && a < 32; ++a)
    types[a] = mlirValueGetType(mlirBlockGetArgument(body, a));
  MlirType fn = mlirTypeAttrGetValue(mlirOperationGetAttributeByName(kernel, braze_ref("function_type")));
  MlirType result = mlirFunctionTypeGetResult(fn, 0);
  mlirOperationSetAttributeByName(clone, braze_ref("function_type"),
                                  mlirTypeAttrGet(mlirFunctionTypeGet(ctx, n_args, types, 1, &result)));
  mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(func), func, clone);
  mlirSymbolTableInsert(sym->table, clone);
  free(name);
  braze_str_free(&stem);
  return clone;
}

bool heads_materialize(MlirOperation func, Symbols *sym, MlirOperation call, MlirOperation kernel,
                       const char *target, HeadsLayout layout, long long window_channels, HeadsEdit *e) {
  ViewRead reads[HEADS_MAX_COPIES];
  int n = find_view_reads(kernel, reads, layout, window_channels);
  intptr_t n_ops = mlirOperationGetNumOperands(call);
  if (n <= 0 || n_ops > HEADS_MAX_OPERANDS || mlirOperationGetNumResults(call) != 1)
    return false;
  *e = (HeadsEdit){.old_call = call};
  MlirValue operands[HEADS_MAX_OPERANDS];
  for (intptr_t j = 0; j < n_ops; ++j)
    operands[j] = e->old_operands[j] = mlirOperationGetOperand(call, j);
  MlirOperation before = call;
  for (int i = 0; i < n; ++i) {
    MlirOperation copy = make_copy_kernel(func, sym, &reads[i], operands[reads[i].arg], target);
    if (mlirOperationIsNull(copy)) {
      heads_undo(e, sym);
      return false;
    }
    e->copy_kernels[e->n_copies] = copy;
    MlirType ct = copy_type(&reads[i], mlirShapedTypeGetElementType(mlirValueGetType(operands[reads[i].arg])));
    /* the copy goes right before the call: placed after `before`, then the call moves after it */
    MlirOperation copy_call = call_after(before, copy, 1, &operands[reads[i].arg], ct);
    e->copy_calls[e->n_copies++] = copy_call;
    before = copy_call;
    operands[reads[i].arg] = mlirOperationGetResult(copy_call, 0);
  }
  e->new_kernel = make_plain_kernel(func, sym, kernel, reads, n);
  e->new_call = call_after(before, e->new_kernel, n_ops, operands, mlirValueGetType(mlirOperationGetResult(call, 0)));
  mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(call, 0), mlirOperationGetResult(e->new_call, 0));
  /* the old call uses nothing until commit or undo: its own result stands in */
  for (intptr_t j = 0; j < n_ops; ++j)
    mlirOperationSetOperand(call, j, mlirOperationGetResult(call, 0));
  return true;
}

void heads_commit(HeadsEdit *e, Symbols *sym, MlirOperation old_kernel) {
  MlirAttribute old_name = mlirOperationGetAttributeByName(old_kernel, braze_ref("sym_name"));
  BrazeStr keep = {0};
  braze_str_append(&keep, mlirStringAttrGetValue(old_name).data, mlirStringAttrGetValue(old_name).length);
  if (chain_drop_call(sym, e->old_call, old_kernel)) {
    /* the new kernel takes the old one's name (reports and remarks keep naming it), in
     * the symbol table too */
    MlirContext ctx = mlirOperationGetContext(e->new_kernel);
    MlirAttribute kept = mlirStringAttrGet(ctx, braze_ref(braze_str_cstr(&keep)));
    mlirOperationSetAttributeByName(e->new_kernel, braze_ref("sym_name"), kept);
    mlirSymbolTableInsert(sym->table, e->new_kernel);
    mlirOperationSetAttributeByName(e->new_call, braze_ref("callee"),
                                    mlirFlatSymbolRefAttrGet(ctx, mlirStringAttrGetValue(kept)));
  }
  braze_str_free(&keep);
  chain_count_call(sym, e->new_kernel, 1);
  for (int i = 0; i < e->n_copies; ++i)
    chain_count_call(sym, e->copy_kernels[i], 1);
}

void heads_undo(HeadsEdit *e, Symbols *sym) {
  for (intptr_t j = 0; !mlirOperationIsNull(e->new_call) && j < mlirOperationGetNumOperands(e->old_call); ++j)
    mlirOperationSetOperand(e->old_call, j, e->old_operands[j]);
  if (!mlirOperationIsNull(e->new_call)) {
    mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(e->new_call, 0), mlirOperationGetResult(e->old_call, 0));
    mlirOperationDestroy(e->new_call);
  }
  if (!mlirOperationIsNull(e->new_kernel))
    mlirSymbolTableErase(sym->table, e->new_kernel);
  for (int i = e->n_copies - 1; i >= 0; --i) {
    mlirOperationDestroy(e->copy_calls[i]);
    mlirSymbolTableErase(sym->table, e->copy_kernels[i]);
  }
  *e = (HeadsEdit){0};
}
