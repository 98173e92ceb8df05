/* The graph function of every target's codegen (cpu-codegen, cuda-codegen): becomes the entry
 * `@NAME(inputs..., outputs..., workspace)` that calls the converted kernels with
 * memrefs. Graph results are produced in place in the out arguments; intermediates
 * live in buffers handed out by a best-fit free list in call order (a buffer returns
 * to the list after the last call reading its value), and the buffers are laid out
 * in one workspace (`memref<Nxi8>`, the last argument, only when N > 0; attribute
 * `braze.workspace_bytes = N`): each at the lowest 64-byte-aligned offset free
 * during its lifetime, each value a `memref.view` at its buffer's offset. The entry
 * allocates nothing, so a caller (the C ABI wrapper keeps one workspace across
 * calls) pays for the memory once, not a fresh mmap and its page faults per call.
 * A partitioned function's collectives (where the target takes them) are steps like
 * the calls: `kernel.collective` on the buffers (entry-collective.c), an all_reduce in
 * place over its operand's buffer when the operand dies there, staging space in the
 * workspace where one is needed. A concat of collectives' results (one the graph keeps:
 * braze_graph_concat_of_collectives) is no step: each collective writes its block of
 * the concat's memory (its buffer or out argument) directly. */
#include "targets/common/entry-graph.h"

#include "ir/build.h"
#include "targets/common/entry-collective.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dialects/graph/graph.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "support/context.h"
#include "support/diag.h"
#include "support/grow.h"
#include "support/ptrmap.h"

typedef struct {
  int64_t bytes;
  int first, last; /* calls that allocate it and use it last */
  bool is_free;
  int64_t offset; /* in the workspace */
} Buf;

typedef struct {
  MlirValue tensor; /* null for a collective's staging space */
  int64_t bytes;
  MlirValue mem;  /* argument, out argument, global, or a view of a buffer */
  int def;        /* defining call, -1 for arguments and constants */
  int last_use;   /* last call reading it, -1 when none */
  int first_use;  /* first call reading it, -1 when none */
  int hold;       /* kept until this call at least: an async collective uses it, -1 */
  int buf;        /* buffer index, -1 */
  int out_index;  /* graph result written in place, -1 */
  bool handed_over; /* its buffer went on to an in-place collective's result */
  int parent;       /* the concat it is a block of (its memory lies there), -1 */
  int64_t parent_offset; /* bytes into the parent */
} GVal;

typedef struct {
  MlirOperation old, module;
  const char *pass;
  MlirContext ctx;
  GVal *vals;
  int n_vals, cap_vals;
  BrazePtrMap index; /* value -> its index in vals */
  Buf *bufs;
  int n_bufs;
  MlirOperation *calls; /* kernel calls and collectives, in order */
  int *scratch;         /* per call: its staging GVal, -1 */
  int n_calls;
  bool collectives;     /* the target compiles collectives */
  MlirBlock entry;
  CgBuilder b;
  CgConstPool pool;
  int n_in;
  int64_t workspace_bytes;
  MlirValue workspace;
} Graph;

static int gval(Graph *G, MlirValue v) { return braze_ptrmap_get(&G->index, braze_ptr_key(v.ptr), -1); }

static int64_t value_bytes(MlirValue v) {
  MlirType t = mlirValueGetType(v);
  return cg_num_elements(t) * cg_elem_bytes(mlirShapedTypeGetElementType(t));
}

static int add_gval(Graph *G, MlirValue v, int def) {
  G->vals = braze_grow(G->vals, (size_t)G->n_vals, &G->cap_vals, sizeof *G->vals, 64);
  bool tensor = mlirTypeIsAShaped(mlirValueGetType(v));
  G->vals[G->n_vals] = (GVal){.tensor = v, .bytes = tensor ? value_bytes(v) : 0, .def = def, .last_use = -1,
                              .first_use = -1, .hold = -1, .buf = -1, .out_index = -1, .parent = -1};
  braze_ptrmap_put(&G->index, braze_ptr_key(v.ptr), G->n_vals);
  return G->n_vals++;
}

/* A step of the entry: a kernel call or a collective (its staging bytes, or 0). */
static void add_call(Graph *G, MlirOperation op, int64_t scratch_bytes) {
  G->calls = realloc(G->calls, (size_t)(G->n_calls + 1) * sizeof *G->calls);
  G->scratch = realloc(G->scratch, (size_t)(G->n_calls + 1) * sizeof *G->scratch);
  G->calls[G->n_calls] = op;
  G->scratch[G->n_calls] = -1;
  if (scratch_bytes > 0) {
    G->vals = braze_grow(G->vals, (size_t)G->n_vals, &G->cap_vals, sizeof *G->vals, 64);
    G->vals[G->n_vals] = (GVal){.bytes = scratch_bytes, .def = G->n_calls, .last_use = G->n_calls,
                                .first_use = G->n_calls, .hold = -1, .buf = -1, .out_index = -1, .parent = -1};
    G->scratch[G->n_calls] = G->n_vals++;
  }
  G->n_calls++;
}

/* An error at `op` prefixed with the pass name (fmt's first conversion is %s). */
static bool gfail(const Graph *G, MlirOperation op, const char *fmt, MlirStringRef name) {
  braze_emit_error(mlirOperationGetLocation(op), fmt, G->pass, (int)name.length, name.data);
  return false;
}

static MlirStringRef func_name(MlirOperation f) {
  return mlirStringAttrGetValue(mlirOperationGetAttributeByName(f, braze_ref("sym_name")));
}

static void note_use(GVal *v, int call) {
  v->last_use = call;
  if (v->first_use < 0)
    v->first_use = call;
}

static bool is_collective(MlirOperation op) { return braze_graph_op_class(op) == GRAPH_COLLECTIVE; }

/* A collective: a step reading its operand and defining its result. */
static bool read_collective(Graph *G, MlirOperation op) {
  int v = gval(G, mlirOperationGetOperand(op, 0));
  if (v < 0)
    return gfail(G, op, "%s: '%.*s' has an operand not produced in the graph function", braze_op_name(op));
  note_use(&G->vals[v], G->n_calls);
  add_gval(G, mlirOperationGetResult(op, 0), G->n_calls);
  add_call(G, op, cg_collective_scratch_bytes(op));
  return true;
}

/* A concat of collectives' results: a value whose memory its operands' results are
 * blocks of, defined with the first of them (the buffer must be there for it). */
static bool read_concat_of_collectives(Graph *G, MlirOperation op) {
  int64_t offset = 0;
  int first = G->n_calls;
  int parts[2]; /* graph.concat is binary (docs/dialect-graph.md) */
  for (int i = 0; i < 2; ++i) {
    parts[i] = gval(G, mlirOperationGetOperand(op, i));
    if (parts[i] < 0)
      return gfail(G, op, "%s: '%.*s' has an operand not produced in the graph function", braze_op_name(op));
    first = G->vals[parts[i]].def < first ? G->vals[parts[i]].def : first;
  }
  int v = add_gval(G, mlirOperationGetResult(op, 0), first);
  for (int i = 0; i < 2; ++i) {
    G->vals[parts[i]].parent = v;
    G->vals[parts[i]].parent_offset = offset;
    offset += G->vals[parts[i]].bytes;
  }
  return true;
}

/* The concat whose memory a block lies in, outermost; its offset there in *offset. */
static int root_of(const Graph *G, int v, int64_t *offset) {
  *offset = 0;
  while (G->vals[v].parent >= 0) {
    *offset += G->vals[v].parent_offset;
    v = G->vals[v].parent;
  }
  return v;
}

/* A block is read wherever its concat is read: it lives as long. */
static void blocks_live_with_their_concat(Graph *G) {
  for (int i = 0; i < G->n_vals; ++i) {
    int64_t offset;
    int root = root_of(G, i, &offset);
    if (root != i) {
      G->vals[i].first_use = G->vals[root].first_use;
      G->vals[i].last_use = G->vals[root].last_use;
    }
  }
}

static bool static_tensor(MlirType t) { return mlirTypeIsARankedTensor(t) && mlirShapedTypeHasStaticShape(t); }

/* Read the body: calls of kernels, tensor constants, the return. */
static bool read_graph(Graph *G) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(G->old, 0));
  for (intptr_t a = 0; a < mlirBlockGetNumArguments(body); ++a) {
    int v = add_gval(G, mlirBlockGetArgument(body, a), -1);
    G->vals[v].mem = mlirBlockGetArgument(G->entry, a);
  }
  MlirSymbolTable table = mlirSymbolTableCreate(G->module);
  bool ok = true;
  for (MlirOperation op = mlirBlockGetFirstOperation(body); ok && !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    if (braze_op_is(op, "func.call")) {
      MlirAttribute callee = mlirOperationGetAttributeByName(op, braze_ref("callee"));
      MlirOperation k = mlirSymbolTableLookup(table, mlirFlatSymbolRefAttrGetValue(callee));
      if (mlirOperationIsNull(k) || !cg_attr_bool(k, "braze.num_inputs")) {
        ok = gfail(G, op, "%s: graph function calls @%.*s, which is not a kernel",
                   mlirFlatSymbolRefAttrGetValue(callee));
        break;
      }
      for (intptr_t i = 0; ok && i < mlirOperationGetNumOperands(op); ++i) {
        int v = gval(G, mlirOperationGetOperand(op, i));
        if (v < 0)
          ok = gfail(G, op, "%s: call of @%.*s has an operand not produced in the graph function",
                     mlirFlatSymbolRefAttrGetValue(callee));
        else
          note_use(&G->vals[v], G->n_calls);
      }
      for (intptr_t r = 0; ok && r < mlirOperationGetNumResults(op); ++r)
        add_gval(G, mlirOperationGetResult(op, r), G->n_calls);
      add_call(G, op, 0);
    } else if (braze_op_is(op, "arith.constant") && mlirTypeIsARankedTensor(mlirValueGetType(mlirOperationGetResult(op, 0)))) {
      int v = add_gval(G, mlirOperationGetResult(op, 0), -1);
      MlirAttribute value = mlirOperationGetAttributeByName(op, braze_ref("value"));
      if (!static_tensor(mlirAttributeGetType(value)) ||
          !(mlirAttributeIsADenseElements(value) || mlirAttributeIsADenseResourceElements(value)))
        ok = gfail(G, op, "%s: tensor constants must be static dense or dense_resource elements%.*s",
                   braze_ref(""));
      else
        G->vals[v].mem = cg_global_constant(G->module, &G->b, value);
    } else if (braze_op_is(op, "func.return")) {
      for (intptr_t r = 0; r < mlirOperationGetNumOperands(op); ++r) {
        GVal *v = &G->vals[gval(G, mlirOperationGetOperand(op, r))];
        if (v->def >= 0 && v->out_index < 0)
          v->out_index = (int)r;
      }
    } else if (is_collective(op) && G->collectives) { /* decisions 0015, 0018 */
      ok = read_collective(G, op);
    } else if (G->collectives && braze_graph_concat_of_collectives(op)) {
      ok = read_concat_of_collectives(G, op);
    } else if (is_collective(op)) {
      ok = gfail(G, op, "%s: '%.*s' is a collective: this target does not compile partitioned programs (the cuda "
                        "target does, over NCCL); simulate them with `braze run --mesh` / `braze check --mesh` "
                        "(docs/sharding.md)", braze_op_name(op));
    } else {
      ok = gfail(G, op, "%s: unsupported op '%.*s' in a graph function", braze_op_name(op));
    }
  }
  mlirSymbolTableDestroy(table);
  return ok;
}

/* Best fit among free buffers, else a new one. */
static int take_buffer(Graph *G, int64_t bytes, int call) {
  int best = -1;
  for (int i = 0; i < G->n_bufs; ++i)
    if (G->bufs[i].is_free && G->bufs[i].bytes >= bytes && (best < 0 || G->bufs[i].bytes < G->bufs[best].bytes))
      best = i;
  if (best < 0) {
    G->bufs = realloc(G->bufs, (size_t)(G->n_bufs + 1) * sizeof *G->bufs);
    G->bufs[G->n_bufs] = (Buf){.bytes = bytes, .first = call, .last = call};
    best = G->n_bufs++;
  }
  G->bufs[best].is_free = false;
  return best;
}

/* The call after which a value's buffer may be reused: its last use, or a later one an
 * async collective needs it until; a value nothing reads dies at its definition. */
static int release_call(const GVal *v) {
  int end = v->last_use > v->hold ? v->last_use : v->hold;
  return end >= 0 ? end : v->def;
}

/* A collective may run on a second stream until the first step reading its result (the
 * CUDA host code waits for it there: host-collective.c), so its operand's and staging
 * space's buffers are kept that long (the result's are anyway). */
static void hold_for_collectives(Graph *G) {
  for (int c = 0; c < G->n_calls; ++c) {
    if (!is_collective(G->calls[c]))
      continue;
    const GVal *y = &G->vals[gval(G, mlirOperationGetResult(G->calls[c], 0))];
    int join = y->first_use >= 0 ? y->first_use : G->n_calls; /* none: the entry's end */
    GVal *x = &G->vals[gval(G, mlirOperationGetOperand(G->calls[c], 0))];
    x->hold = x->hold > join ? x->hold : join;
    if (G->scratch[c] >= 0)
      G->vals[G->scratch[c]].hold = join;
  }
}

/* An all_reduce whose operand's buffer dies at it reduces in place: its result takes
 * the buffer over. */
static void hand_over_in_place(Graph *G, int c) {
  MlirOperation op = G->calls[c];
  if (!is_collective(op) || !cg_collective_in_place(op))
    return;
  GVal *x = &G->vals[gval(G, mlirOperationGetOperand(op, 0))];
  GVal *y = &G->vals[gval(G, mlirOperationGetResult(op, 0))];
  if (x->buf < 0 || x->last_use != c || y->out_index >= 0 || y->parent >= 0 || x->bytes != y->bytes)
    return;
  y->buf = x->buf;
  x->handed_over = true;
  Buf *b = &G->bufs[y->buf];
  b->last = b->last > release_call(y) ? b->last : release_call(y);
}

/* Assign out arguments and buffers in call order (the free-list simulation). */
static void plan_buffers(Graph *G) {
  for (int c = 0; c < G->n_calls; ++c) {
    hand_over_in_place(G, c);
    for (int i = 0; i < G->n_vals; ++i) {
      GVal *v = &G->vals[i];
      if (v->def != c || v->out_index >= 0 || v->buf >= 0 || v->parent >= 0)
        continue;
      v->buf = take_buffer(G, v->bytes, c);
      Buf *b = &G->bufs[v->buf];
      int end = release_call(v) > c ? release_call(v) : c;
      b->last = b->last > end ? b->last : end;
    }
    /* Release after the call's outputs are placed: a call never writes a buffer it reads. */
    for (int i = 0; i < G->n_vals; ++i) {
      GVal *v = &G->vals[i];
      if (v->buf >= 0 && !v->handed_over && release_call(v) == c)
        G->bufs[v->buf].is_free = true;
    }
  }
}

enum { WS_ALIGN = 64 };

static bool lifetimes_overlap(const Buf *a, const Buf *b) { return a->first <= b->last && b->first <= a->last; }

/* Offsets in the workspace: buffers in creation order, each at the lowest aligned
 * offset that no earlier buffer alive at the same time occupies. */
static void layout_workspace(Graph *G) {
  G->workspace_bytes = 0;
  for (int i = 0; i < G->n_bufs; ++i) {
    Buf *b = &G->bufs[i];
    int64_t offset = 0;
    for (bool moved = true; moved;) {
      moved = false;
      for (int j = 0; j < i; ++j) {
        const Buf *o = &G->bufs[j];
        if (lifetimes_overlap(b, o) && offset < o->offset + o->bytes && o->offset < offset + b->bytes) {
          offset = (o->offset + o->bytes + WS_ALIGN - 1) / WS_ALIGN * WS_ALIGN;
          moved = true;
        }
      }
    }
    b->offset = offset;
    G->workspace_bytes = offset + b->bytes > G->workspace_bytes ? offset + b->bytes : G->workspace_bytes;
  }
}

/* The workspace argument, appended to the entry block and its function type. */
static void add_workspace_argument(Graph *G) {
  if (G->workspace_bytes == 0)
    return;
  MlirType ws = cg_memref_of(mlirIntegerTypeGet(G->ctx, 8), 1, &G->workspace_bytes);
  G->workspace = mlirBlockAddArgument(G->entry, ws, mlirOperationGetLocation(G->old));
  MlirOperation fn = mlirBlockGetParentOperation(G->entry);
  intptr_t n = mlirBlockGetNumArguments(G->entry);
  MlirType *types = malloc((size_t)n * sizeof *types);
  for (intptr_t i = 0; i < n; ++i)
    types[i] = mlirValueGetType(mlirBlockGetArgument(G->entry, i));
  mlirOperationSetAttributeByName(fn, braze_ref("function_type"),
                                  mlirTypeAttrGet(mlirFunctionTypeGet(G->ctx, n, types, 0, NULL)));
  mlirOperationSetDiscardableAttributeByName(fn, braze_ref("braze.workspace_bytes"),
                                             mlirIntegerAttrGet(mlirIntegerTypeGet(G->ctx, 64), G->workspace_bytes));
  free(types);
}

static int64_t peak_bytes(const Graph *G) {
  int64_t peak = 0;
  for (int c = 0; c < G->n_calls; ++c) {
    int64_t live = 0;
    for (int i = 0; i < G->n_bufs; ++i)
      if (G->bufs[i].first <= c && c <= G->bufs[i].last)
        live += G->bufs[i].bytes;
    peak = live > peak ? live : peak;
  }
  return peak;
}

/* A block of a concat whose memory is an out argument: the rows it covers, as a
 * memref.subview (contiguous: the dims before the concat's are 1). */
static MlirValue subview_of_output(Graph *G, MlirValue out, MlirType block, int64_t offset_bytes) {
  MlirType whole = mlirValueGetType(out);
  intptr_t rank = mlirShapedTypeGetRank(whole);
  int64_t elem = cg_elem_bytes(mlirShapedTypeGetElementType(whole)), offsets[BRAZE_MAX_RANK] = {0},
          strides[BRAZE_MAX_RANK], unit[BRAZE_MAX_RANK], shape[BRAZE_MAX_RANK];
  int64_t offset = offset_bytes / elem, stride = 1, rest = offset;
  for (intptr_t d = rank; d-- > 0;) {
    strides[d] = stride;
    unit[d] = 1;
    stride *= mlirShapedTypeGetDimSize(whole, d);
  }
  for (intptr_t d = 0; d < rank; ++d) { /* the block's first element as indices */
    offsets[d] = rest / strides[d];
    rest %= strides[d];
  }
  MlirAttribute layout = mlirStridedLayoutAttrGet(G->ctx, offset, rank, strides);
  for (intptr_t d = 0; d < rank; ++d)
    shape[d] = mlirShapedTypeGetDimSize(block, d);
  MlirType type = mlirMemRefTypeGet(mlirShapedTypeGetElementType(whole), rank, shape, layout, mlirAttributeGetNull());
  MlirNamedAttribute attrs[4] = {
      cg_named(G->ctx, "operandSegmentSizes", cg_parse_attr(G->ctx, "array<i32: 1, 0, 0, 0>")),
      cg_named(G->ctx, "static_offsets", mlirDenseI64ArrayGet(G->ctx, rank, offsets)),
      cg_named(G->ctx, "static_sizes", mlirDenseI64ArrayGet(G->ctx, rank, shape)),
      cg_named(G->ctx, "static_strides", mlirDenseI64ArrayGet(G->ctx, rank, unit)),
  };
  return mlirOperationGetResult(cg_create(&G->b, "memref.subview", 1, &out, 1, &type, 4, attrs), 0);
}

static MlirValue place_value(Graph *G, GVal *v);

/* A block's memory: a view of its concat's memory at its offset. */
static MlirValue place_block(Graph *G, GVal *v) {
  int64_t offset;
  GVal *root = &G->vals[root_of(G, (int)(v - G->vals), &offset)];
  if (mlirValueIsNull(root->mem))
    place_value(G, root);
  if (root->out_index >= 0)
    return v->mem = subview_of_output(G, root->mem, cg_memref_like(mlirValueGetType(v->tensor)), offset);
  MlirValue shift = cg_index(&G->b, G->bufs[root->buf].offset + offset);
  MlirValue view_ops[2] = {G->workspace, shift};
  return v->mem = cg_op(&G->b, "memref.view", cg_memref_like(mlirValueGetType(v->tensor)), 2, view_ops);
}

/* The memref a value defined by a step lives in: its out argument or a view of its
 * buffer (staging space: i8), or of its concat's memory. */
static MlirValue place_value(Graph *G, GVal *v) {
  if (v->parent >= 0) {
    place_block(G, v);
  } else if (v->out_index >= 0) {
    v->mem = mlirBlockGetArgument(G->entry, G->n_in + v->out_index);
  } else {
    MlirValue shift = cg_index(&G->b, G->bufs[v->buf].offset);
    MlirValue view_ops[2] = {G->workspace, shift};
    MlirType type = mlirValueIsNull(v->tensor) ? cg_memref_of(mlirIntegerTypeGet(G->ctx, 8), 1, &v->bytes)
                                               : cg_memref_like(mlirValueGetType(v->tensor));
    v->mem = cg_op(&G->b, "memref.view", type, 2, view_ops);
  }
  return v->mem;
}

static bool emit_collective(Graph *G, int c) {
  MlirOperation op = G->calls[c];
  MlirValue x = G->vals[gval(G, mlirOperationGetOperand(op, 0))].mem;
  MlirValue y = place_value(G, &G->vals[gval(G, mlirOperationGetResult(op, 0))]);
  MlirValue scratch = G->scratch[c] >= 0 ? place_value(G, &G->vals[G->scratch[c]]) : (MlirValue){NULL};
  return cg_emit_collective(&G->b, op, G->old, x, y, scratch);
}

static bool emit_call(Graph *G, int c) {
  MlirContext ctx = G->ctx;
  MlirOperation call = G->calls[c];
  if (is_collective(call))
    return emit_collective(G, c);
  intptr_t n_in = mlirOperationGetNumOperands(call), n_out = mlirOperationGetNumResults(call);
  MlirValue *operands = malloc((size_t)(n_in + n_out + 1) * sizeof *operands);
  for (intptr_t i = 0; i < n_in; ++i)
    operands[i] = G->vals[gval(G, mlirOperationGetOperand(call, i))].mem;
  for (intptr_t r = 0; r < n_out; ++r)
    operands[n_in + r] = place_value(G, &G->vals[gval(G, mlirOperationGetResult(call, r))]);
  MlirNamedAttribute callee = cg_named(ctx, "callee", mlirOperationGetAttributeByName(call, braze_ref("callee")));
  G->b.loc = mlirOperationGetLocation(call);
  MlirOperation converted = cg_create(&G->b, "func.call", n_in + n_out, operands, 0, NULL, 1, &callee);
  /* the CUDA target's matmul=auto tags its alternatives' calls (cuda-codegen.c) */
  MlirAttribute alt = mlirOperationGetDiscardableAttributeByName(call, braze_ref("braze.alternative"));
  if (!mlirAttributeIsNull(alt))
    mlirOperationSetDiscardableAttributeByName(converted, braze_ref("braze.alternative"), alt);
  free(operands);
  return true;
}

/* Graph results not written in place (inputs, constants, a value returned twice). */
static void emit_result_copies(Graph *G, MlirOperation ret) {
  for (intptr_t r = 0; r < mlirOperationGetNumOperands(ret); ++r) {
    GVal *v = &G->vals[gval(G, mlirOperationGetOperand(ret, r))];
    if (v->out_index == r)
      continue;
    MlirValue ops[2] = {v->mem, mlirBlockGetArgument(G->entry, G->n_in + r)};
    cg_create(&G->b, "memref.copy", 2, ops, 0, NULL, 0, NULL);
  }
}

static bool build_entry(Graph *G) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(G->old, 0));
  MlirOperation ret = mlirBlockGetTerminator(body);
  intptr_t n_in = mlirBlockGetNumArguments(body), n_out = mlirOperationGetNumOperands(ret);
  MlirType *types = malloc((size_t)(n_in + n_out + 1) * sizeof *types);
  bool ok = true;
  for (intptr_t i = 0; i < n_in + n_out; ++i) {
    MlirType t = mlirValueGetType(i < n_in ? mlirBlockGetArgument(body, i) : mlirOperationGetOperand(ret, i - n_in));
    ok = ok && static_tensor(t);
    types[i] = ok ? cg_memref_like(t) : t;
  }
  if (ok) {
    MlirOperation fn = cg_new_func(G->old, n_in, n_out, types, &G->entry);
    mlirOperationSetDiscardableAttributeByName(fn, braze_ref("braze.entry"), mlirUnitAttrGet(G->ctx));
    /* a partitioned program keeps its mesh: the target's runtime needs it (decision 0018) */
    static const char *const kept[] = {"braze.mesh", "braze.partitioned"};
    for (int i = 0; i < 2; ++i) {
      MlirAttribute a = mlirOperationGetAttributeByName(G->old, braze_ref(kept[i]));
      if (!mlirAttributeIsNull(a))
        mlirOperationSetDiscardableAttributeByName(fn, braze_ref(kept[i]), a);
    }
    G->b = cg_builder_at_end(G->entry, mlirOperationGetLocation(G->old));
    G->pool.block = G->entry;
    G->b.pool = &G->pool;
    G->n_in = (int)n_in;
  } else {
    gfail(G, G->old, "%s: graph function @%.*s: arguments and results must be static tensors",
          func_name(G->old));
  }
  free(types);
  return ok;
}

bool cg_convert_graph(MlirOperation func, MlirOperation module, const char *pass, bool remarks, bool collectives) {
  Graph G = {.old = func, .module = module, .pass = pass, .ctx = mlirOperationGetContext(func),
             .collectives = collectives};
  if (!build_entry(&G))
    return false;
  MlirOperation fn = mlirBlockGetParentOperation(G.entry);
  bool ok = read_graph(&G);
  if (ok) {
    blocks_live_with_their_concat(&G);
    hold_for_collectives(&G);
    plan_buffers(&G);
    layout_workspace(&G);
    add_workspace_argument(&G);
    for (int c = 0; ok && c < G.n_calls; ++c)
      ok = emit_call(&G, c);
  }
  if (ok) {
    G.b.loc = mlirOperationGetLocation(func);
    emit_result_copies(&G, mlirBlockGetTerminator(mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0))));
    cg_create(&G.b, "func.return", 0, NULL, 0, NULL, 0, NULL);
    if (remarks) {
      MlirStringRef name = func_name(func);
      int n_collectives = 0;
      for (int c = 0; c < G.n_calls; ++c)
        n_collectives += is_collective(G.calls[c]);
      char extra[48] = "";
      if (n_collectives)
        snprintf(extra, sizeof extra, ", %d collective(s)", n_collectives);
      braze_emit_remark(mlirOperationGetLocation(func),
                        "%s: entry @%.*s: peak intermediate bytes %lld in %d buffer(s), workspace %lld "
                        "bytes, %d kernel call(s)%s",
                        pass, (int)name.length, name.data, (long long)peak_bytes(&G), G.n_bufs,
                        (long long)G.workspace_bytes, G.n_calls - n_collectives, extra);
    }
    mlirOperationDestroy(func);
  } else {
    mlirOperationDestroy(fn);
  }
  free(G.vals);
  braze_ptrmap_free(&G.index);
  free(G.bufs);
  free(G.calls);
  free(G.scratch);
  return ok;
}
