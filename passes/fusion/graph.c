/* Building the fusion graph from a loop-level function (see passes/fusion/graph.h).
 * The legality rules and the scheduler are in passes/fusion/rules.c. */
#include "passes/fusion/graph.h"

#include <stdlib.h>
#include <string.h>

#include "mlir-c/AffineExpr.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "support/context.h"
#include "support/ptrmap.h"
#include "support/strbuf.h"

/* Constants with at most this many elements (or splats) are cloned into kernels;
 * larger ones stay in the graph function and are passed in. */
enum { SMALL_CONSTANT_ELEMENTS = 64 };

typedef enum { TOP_NODE, TOP_SUPPORT, TOP_LEAF, TOP_RETURN } TopKind;

typedef struct {
  MlirOperation op;
  TopKind kind;
  int node; /* for TOP_NODE */
} TopOp;

typedef struct {
  MlirBlock body;
  TopOp *tops;
  size_t num_tops;
  BrazePtrMap top_index; /* op.ptr -> index in tops: reads and users look ops up by identity */
  MlirSymbolTable symbols; /* the enclosing module's, built once (null without a module) */
} Builder;

static int64_t type_bytes(MlirType t) {
  if (!mlirTypeIsAShaped(t) || !mlirShapedTypeHasRank(t) || !mlirShapedTypeHasStaticShape(t))
    return 0;
  MlirType elt = mlirShapedTypeGetElementType(t);
  int64_t bits = 64;
  if (mlirTypeIsAInteger(elt))
    bits = mlirIntegerTypeGetWidth(elt);
  else if (mlirTypeIsAFloat(elt))
    bits = mlirFloatTypeGetWidth(elt);
  int64_t n = 1;
  for (intptr_t i = 0, r = mlirShapedTypeGetRank(t); i < r; ++i)
    n *= mlirShapedTypeGetDimSize(t, i);
  return n * ((bits + 7) / 8);
}

static const TopOp *top_of(const Builder *b, MlirOperation op) {
  int i = braze_ptrmap_get(&b->top_index, braze_ptr_key(op.ptr), -1);
  return i < 0 ? NULL : &b->tops[i];
}

/* The top-level op (in the function body) that defines `v`, or a null op for
 * block arguments. */
static MlirOperation top_def(MlirValue v) {
  if (!mlirValueIsAOpResult(v))
    return (MlirOperation){NULL};
  return mlirOpResultGetOwner(v);
}

static bool value_is_support(const Builder *b, MlirValue v) {
  MlirOperation def = top_def(v);
  if (mlirOperationIsNull(def))
    return false;
  const TopOp *t = top_of(b, def);
  return t && t->kind == TOP_SUPPORT;
}

static bool is_small_constant(MlirOperation op) {
  MlirAttribute value = mlirOperationGetAttributeByName(op, braze_ref("value"));
  if (mlirAttributeIsNull(value) || !mlirAttributeIsAElements(value))
    return true; /* scalar */
  if (mlirAttributeIsADenseElements(value) && mlirDenseElementsAttrIsSplat(value))
    return true;
  return mlirElementsAttrGetNumElements(value) <= SMALL_CONSTANT_ELEMENTS;
}

/* Support ops are cloned into every kernel that uses them: tensor.empty, small
 * constants, and linalg.fill (a reduction init) of support values. */
bool fk_is_support_op(MlirOperation op) {
  if (braze_op_is(op, "tensor.empty"))
    return mlirOperationGetNumOperands(op) == 0;
  if (braze_op_is(op, "arith.constant"))
    return is_small_constant(op);
  if (!braze_op_is(op, "linalg.fill"))
    return false;
  for (intptr_t i = 0, n = mlirOperationGetNumOperands(op); i < n; ++i) {
    MlirOperation def = top_def(mlirOperationGetOperand(op, i));
    if (mlirOperationIsNull(def) || !mlirBlockEqual(mlirOperationGetBlock(def), mlirOperationGetBlock(op)) ||
        !fk_is_support_op(def))
      return false;
  }
  return true;
}

static TopKind classify(MlirOperation op) {
  if (braze_op_is(op, "func.return"))
    return TOP_RETURN;
  if (fk_is_support_op(op))
    return TOP_SUPPORT;
  if (mlirOperationGetNumOperands(op) == 0 && mlirOperationGetNumRegions(op) == 0)
    return TOP_LEAF;
  return TOP_NODE;
}

/* ---- node analysis ---- */

/* Origins parallel to ops: braze.origins when it has one string per op, else the ops. */
static void set_origins(FkNode *n, MlirOperation op) {
  MlirAttribute attr = mlirOperationGetAttributeByName(op, braze_ref("braze.origins"));
  bool usable = !mlirAttributeIsNull(attr) && mlirAttributeIsAArray(attr) &&
                mlirArrayAttrGetNumElements(attr) == (intptr_t)n->num_ops;
  for (size_t i = 0; usable && i < n->num_ops; ++i)
    usable = mlirAttributeIsAString(mlirArrayAttrGetElement(attr, (intptr_t)i));
  n->origins = calloc(n->num_ops + 1, sizeof *n->origins);
  for (size_t i = 0; i < n->num_ops; ++i) {
    if (!usable) {
      n->origins[i] = strdup(n->ops[i]);
      continue;
    }
    MlirStringRef s = mlirStringAttrGetValue(mlirArrayAttrGetElement(attr, (intptr_t)i));
    n->origins[i] = strndup(s.data, s.length);
  }
}

static void set_ops_from_attr(FkNode *n, MlirOperation op, const char *fallback) {
  MlirAttribute attr = mlirOperationGetAttributeByName(op, braze_ref("braze.ops"));
  if (!mlirAttributeIsNull(attr) && mlirAttributeIsAArray(attr) && mlirArrayAttrGetNumElements(attr) > 0) {
    intptr_t k = mlirArrayAttrGetNumElements(attr);
    n->ops = calloc((size_t)k, sizeof *n->ops);
    for (intptr_t i = 0; i < k; ++i) {
      MlirAttribute e = mlirArrayAttrGetElement(attr, i);
      if (!mlirAttributeIsAString(e))
        continue;
      MlirStringRef s = mlirStringAttrGetValue(e);
      n->ops[n->num_ops++] = strndup(s.data, s.length);
    }
    if (n->num_ops) {
      set_origins(n, op);
      return;
    }
    free(n->ops);
  }
  n->ops = calloc(1, sizeof *n->ops);
  n->ops[0] = strdup(fallback);
  n->num_ops = 1;
  set_origins(n, op);
}

static bool has_op(const FkNode *n, const char *name) {
  for (size_t i = 0; i < n->num_ops; ++i)
    if (strcmp(n->ops[i], name) == 0)
      return true;
  return false;
}

static void add_read(const Builder *b, FkGraph *g, FkNode *n, MlirValue v, const MlirAffineMap *map) {
  n->reads = realloc(n->reads, (n->num_reads + 1) * sizeof *n->reads);
  FkRead *r = &n->reads[n->num_reads++];
  memset(r, 0, sizeof *r);
  r->value = v;
  r->producer = -1;
  r->bytes = type_bytes(mlirValueGetType(v));
  r->support = value_is_support(b, v);
  r->has_map = map != NULL;
  if (map)
    r->map = *map;
  MlirOperation def = top_def(v);
  const TopOp *t = mlirOperationIsNull(def) ? NULL : top_of(b, def);
  if (t && t->kind == TOP_NODE)
    r->producer = t->node;
  (void)g;
}

typedef struct {
  const Builder *b;
  FkGraph *g;
  FkNode *n;
  MlirOperation root;
} CaptureWalk;

static bool defined_in_body(const Builder *b, MlirValue v) {
  if (mlirValueIsABlockArgument(v))
    return mlirBlockEqual(mlirBlockArgumentGetOwner(v), b->body);
  return mlirBlockEqual(mlirOperationGetBlock(mlirOpResultGetOwner(v)), b->body);
}

/* Values defined in the function body and used inside a node's regions. */
static MlirWalkResult capture_walk(MlirOperation op, void *user) {
  CaptureWalk *w = user;
  if (mlirOperationEqual(op, w->root))
    return MlirWalkResultAdvance;
  for (intptr_t i = 0, k = mlirOperationGetNumOperands(op); i < k; ++i) {
    MlirValue v = mlirOperationGetOperand(op, i);
    if (defined_in_body(w->b, v))
      add_read(w->b, w->g, w->n, v, NULL);
  }
  return MlirWalkResultAdvance;
}

static MlirAttribute attr(MlirOperation op, const char *name) {
  return mlirOperationGetAttributeByName(op, braze_ref(name));
}

static bool iterator_is_reduction(MlirAttribute it) {
  BrazeStr s = {0};
  mlirAttributePrint(it, braze_str_callback, &s);
  bool red = strstr(braze_str_cstr(&s), "reduction") != NULL;
  braze_str_free(&s);
  return red;
}

/* Loop ranges from the operand shapes through the indexing maps. */
static void generic_space(FkNode *n, MlirOperation op, MlirAttribute maps) {
  MlirAttribute its = attr(op, "iterator_types");
  MlirAffineMap m0 = mlirAffineMapAttrGetValue(mlirArrayAttrGetElement(maps, 0));
  n->rank = (int)mlirAffineMapGetNumDims(m0);
  n->space = calloc((size_t)n->rank + 1, sizeof *n->space);
  n->reduced = calloc((size_t)n->rank + 1, sizeof *n->reduced);
  for (int d = 0; d < n->rank; ++d)
    n->space[d] = -1;
  for (intptr_t k = 0, nm = mlirArrayAttrGetNumElements(maps); k < nm; ++k) {
    MlirAffineMap m = mlirAffineMapAttrGetValue(mlirArrayAttrGetElement(maps, k));
    MlirType t = mlirValueGetType(mlirOperationGetOperand(op, k));
    if (!mlirTypeIsAShaped(t) || !mlirShapedTypeHasRank(t))
      continue;
    for (intptr_t r = 0, nr = mlirAffineMapGetNumResults(m); r < nr; ++r) {
      MlirAffineExpr e = mlirAffineMapGetResult(m, r);
      if (!mlirAffineExprIsADim(e))
        continue;
      int64_t size = mlirShapedTypeGetDimSize(t, r);
      if (!mlirShapedTypeIsDynamicSize(size))
        n->space[mlirAffineDimExprGetPosition(e)] = size;
    }
  }
  for (int d = 0; d < n->rank; ++d) {
    if (!mlirAttributeIsNull(its) && d < mlirArrayAttrGetNumElements(its))
      n->reduced[d] = iterator_is_reduction(mlirArrayAttrGetElement(its, d));
    n->has_red |= n->reduced[d];
    if (n->space[d] < 0)
      n->rank = -1;
  }
  if (n->rank < 0)
    n->has_red = false;
}

static void analyse_generic(const Builder *b, FkGraph *g, FkNode *n, MlirOperation op) {
  MlirAttribute maps = attr(op, "indexing_maps");
  intptr_t nops = mlirOperationGetNumOperands(op), nres = mlirOperationGetNumResults(op);
  if (mlirAttributeIsNull(maps) || mlirArrayAttrGetNumElements(maps) != nops || nres > nops || nops == 0) {
    n->cls = FK_NODE_OPAQUE;
    return;
  }
  set_ops_from_attr(n, op, "generic");
  generic_space(n, op, maps);
  /* The product itself, not the all-parallel generic that scales and truncates an
   * f16/bf16 product (it carries the same braze.ops): that one is its epilogue. */
  n->contraction = (has_op(n, "matmul") || has_op(n, "batch_matmul")) && n->has_red;
  for (intptr_t k = 0; k < nops; ++k) {
    MlirAffineMap m = mlirAffineMapAttrGetValue(mlirArrayAttrGetElement(maps, k));
    add_read(b, g, n, mlirOperationGetOperand(op, k), &m);
  }
  n->num_results = (size_t)nres;
  n->results = calloc((size_t)nres + 1, sizeof *n->results);
  for (intptr_t k = 0; k < nres; ++k) {
    FkResult *r = &n->results[k];
    r->value = mlirOperationGetResult(op, k);
    r->has_map = true;
    r->map = mlirAffineMapAttrGetValue(mlirArrayAttrGetElement(maps, nops - nres + k));
    r->bytes = type_bytes(mlirValueGetType(r->value));
  }
}

static void analyse_insert(const Builder *b, FkGraph *g, FkNode *n, MlirOperation op) {
  MlirValue src = mlirOperationGetOperand(op, 0);
  MlirType t = mlirValueGetType(src);
  set_ops_from_attr(n, op, "concat");
  if (mlirTypeIsAShaped(t) && mlirShapedTypeHasRank(t) && mlirShapedTypeHasStaticShape(t)) {
    n->rank = (int)mlirShapedTypeGetRank(t);
    n->space = calloc((size_t)n->rank + 1, sizeof *n->space);
    n->reduced = calloc((size_t)n->rank + 1, sizeof *n->reduced);
    for (int d = 0; d < n->rank; ++d)
      n->space[d] = mlirShapedTypeGetDimSize(t, d);
    /* The source is read at the insert's own loop indices. */
    MlirAffineMap id = mlirAffineMapMultiDimIdentityGet(mlirOperationGetContext(op), n->rank);
    add_read(b, g, n, src, &id);
  } else {
    add_read(b, g, n, src, NULL);
  }
  for (intptr_t k = 1, nops = mlirOperationGetNumOperands(op); k < nops; ++k)
    add_read(b, g, n, mlirOperationGetOperand(op, k), NULL);
}

/* Reads and results without indexing maps (calls, opaque ops). */
static void analyse_plain(const Builder *b, FkGraph *g, FkNode *n, MlirOperation op) {
  for (intptr_t k = 0, nops = mlirOperationGetNumOperands(op); k < nops; ++k)
    add_read(b, g, n, mlirOperationGetOperand(op, k), NULL);
}

static void plain_results(FkNode *n, MlirOperation op) {
  if (n->results)
    return;
  intptr_t nres = mlirOperationGetNumResults(op);
  n->num_results = (size_t)nres;
  n->results = calloc((size_t)nres + 1, sizeof *n->results);
  for (intptr_t k = 0; k < nres; ++k) {
    n->results[k].value = mlirOperationGetResult(op, k);
    n->results[k].bytes = type_bytes(mlirValueGetType(n->results[k].value));
  }
}

/* A call of a kernel function (kernel.kind): looked up in the module's symbol table,
 * built once per graph (a scan of the module per call made 10000 calls quadratic). */
static bool is_kernel_call(const Builder *b, MlirOperation call) {
  MlirAttribute callee = attr(call, "callee");
  if (mlirAttributeIsNull(callee) || !mlirAttributeIsAFlatSymbolRef(callee) || mlirSymbolTableIsNull(b->symbols))
    return false;
  MlirOperation f = mlirSymbolTableLookup(b->symbols, mlirFlatSymbolRefAttrGetValue(callee));
  return !mlirOperationIsNull(f) && !mlirAttributeIsNull(attr(f, "kernel.kind"));
}

static void analyse_node(const Builder *b, FkGraph *g, FkNode *n, MlirOperation op) {
  n->op = op;
  n->rank = -1;
  n->cls = FK_NODE_OPAQUE;
  if (braze_op_is(op, "linalg.generic")) {
    n->cls = FK_NODE_GENERIC;
    analyse_generic(b, g, n, op);
  } else if (braze_op_is(op, "tensor.insert_slice")) {
    n->cls = FK_NODE_INSERT;
    analyse_insert(b, g, n, op);
  } else if (braze_op_is(op, "func.call") && !is_kernel_call(b, op)) {
    n->cls = FK_NODE_CALL;
    MlirStringRef callee = mlirFlatSymbolRefAttrGetValue(attr(op, "callee"));
    char *name = strndup(callee.data, callee.length);
    set_ops_from_attr(n, op, name);
    free(name);
    analyse_plain(b, g, n, op);
  }
  if (n->cls == FK_NODE_OPAQUE) {
    if (!n->ops) {
      MlirStringRef name = braze_op_name(op);
      char *s = strndup(name.data, name.length);
      set_ops_from_attr(n, op, s);
      free(s);
    }
    if (!n->reads)
      analyse_plain(b, g, n, op);
  }
  if (n->cls != FK_NODE_INSERT && n->cls != FK_NODE_GENERIC) {
    n->rank = -1;
  }
  if (n->cls == FK_NODE_GENERIC || n->cls == FK_NODE_OPAQUE) {
    CaptureWalk w = {b, g, n, op};
    mlirOperationWalk(op, capture_walk, &w, MlirWalkPreOrder);
  }
  plain_results(n, op);
  n->align = calloc((size_t)(n->rank > 0 ? n->rank : 1), sizeof *n->align);
  for (int d = 0; d < n->rank; ++d)
    n->align[d] = d;
}

/* ---- users of results ---- */

/* The op in the function body that contains `op` (op itself when top level). */
static MlirOperation body_ancestor(const Builder *b, MlirOperation op) {
  while (!mlirOperationIsNull(op) && !mlirBlockEqual(mlirOperationGetBlock(op), b->body))
    op = mlirOperationGetParentOperation(op);
  return op;
}

static void add_user(FkResult *r, int node) {
  for (size_t i = 0; i < r->num_users; ++i)
    if (r->users[i] == node)
      return;
  r->users = realloc(r->users, (r->num_users + 1) * sizeof *r->users);
  r->users[r->num_users++] = node;
}

static void collect_users(const Builder *b, FkNode *n, int self) {
  for (size_t k = 0; k < n->num_results; ++k) {
    FkResult *r = &n->results[k];
    for (MlirOpOperand u = mlirValueGetFirstUse(r->value); !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u)) {
      MlirOperation top = body_ancestor(b, mlirOpOperandGetOwner(u));
      const TopOp *t = mlirOperationIsNull(top) ? NULL : top_of(b, top);
      if (t && t->kind == TOP_NODE && t->node != self)
        add_user(r, t->node);
      else
        r->escapes = true;
    }
  }
}

/* ---- candidates ---- */

static bool reads_value(const FkNode *n, MlirValue v) {
  for (size_t i = 0; i < n->num_reads; ++i)
    if (mlirValueEqual(n->reads[i].value, v))
      return true;
  return false;
}

/* Like Inductor (max_fusion_buffer_group_pairwise_attempts), siblings that only
 * share an input are paired within a window of program order: far-apart readers of
 * a weight would otherwise make the candidate list quadratic. */
enum { SHARED_INPUT_WINDOW = 64 };

static bool shares_input(const FkGraph *g, int a, int b) {
  const FkNode *nb = &g->nodes[b];
  for (size_t i = 0; i < nb->num_reads; ++i) {
    const FkRead *r = &nb->reads[i];
    if (!r->support && r->producer != a && reads_value(&g->nodes[a], r->value))
      return true;
  }
  return false;
}

static void add_candidate(FkGraph *g, int a, int b) {
  g->cands = realloc(g->cands, (g->num_cands + 1) * sizeof *g->cands);
  FkCandidate *c = &g->cands[g->num_cands++];
  memset(c, 0, sizeof *c);
  c->a = a;
  c->b = b;
}

/* Candidates in report order: by the later node, then the earlier one. */
static int compare_cands(const void *x, const void *y) {
  const FkCandidate *a = x, *b = y;
  if (a->b != b->b)
    return a->b - b->b;
  return a->a - b->a;
}

/* Each node's candidates (both ends), in candidate order: a CSR index. */
static void index_candidates(FkGraph *g) {
  size_t *start = calloc(g->num_nodes + 2, sizeof *start);
  int *ids = calloc(2 * g->num_cands + 1, sizeof *ids);
  for (size_t i = 0; i < g->num_cands; ++i) {
    start[g->cands[i].a + 2]++;
    start[g->cands[i].b + 2]++;
  }
  for (size_t n = 2; n < g->num_nodes + 2; ++n)
    start[n] += start[n - 1];
  /* start[n + 1] is now where node n's entries begin: fill it up to its end. */
  for (size_t i = 0; i < g->num_cands; ++i) {
    ids[start[g->cands[i].a + 1]++] = (int)i;
    ids[start[g->cands[i].b + 1]++] = (int)i;
  }
  g->node_cand_start = start;
  g->node_cands = ids;
}

/* Nodes a < b are a candidate pair when b reads a result of a, or both read one
 * non-support value (within the window). */
static void build_candidates(FkGraph *g) {
  bool *paired = calloc(g->num_nodes + 1, sizeof *paired);
  for (size_t b = 0; b < g->num_nodes; ++b) {
    memset(paired, 0, (g->num_nodes + 1) * sizeof *paired);
    const FkNode *nb = &g->nodes[b];
    for (size_t i = 0; i < nb->num_reads; ++i) {
      int p = nb->reads[i].producer;
      if (p >= 0 && p != (int)b && !paired[p]) {
        paired[p] = true;
        add_candidate(g, p, (int)b);
      }
    }
    size_t first = b > SHARED_INPUT_WINDOW ? b - SHARED_INPUT_WINDOW : 0;
    for (size_t a = first; a < b; ++a)
      if (!paired[a] && shares_input(g, (int)a, (int)b)) {
        paired[a] = true;
        add_candidate(g, (int)a, (int)b);
      }
  }
  free(paired);
  if (g->num_cands)
    qsort(g->cands, g->num_cands, sizeof *g->cands, compare_cands);
  index_candidates(g);
}

/* ---- build / free ---- */

static void init_groups(FkGraph *g) {
  g->search = calloc(1, sizeof *g->search);
  g->search->mark = calloc(g->num_nodes + 1, sizeof *g->search->mark);
  g->search->stack = calloc(g->num_nodes + 1, sizeof *g->search->stack);
  g->groups = calloc(g->num_nodes + 1, sizeof *g->groups);
  for (size_t i = 0; i < g->num_nodes; ++i) {
    FkNode *n = &g->nodes[i];
    FkGroup *gr = &g->groups[i];
    n->group = (int)i;
    gr->alive = true;
    gr->members = malloc(sizeof *gr->members);
    gr->members[0] = (int)i;
    gr->num_members = 1;
    gr->rank = n->rank;
    gr->space = calloc((size_t)(n->rank > 0 ? n->rank : 1), sizeof *gr->space);
    gr->reduced = calloc((size_t)(n->rank > 0 ? n->rank : 1), sizeof *gr->reduced);
    for (int d = 0; d < n->rank; ++d) {
      gr->space[d] = n->space[d];
      gr->reduced[d] = n->reduced[d];
    }
    gr->has_red = n->has_red;
    gr->has_contraction = n->contraction;
    gr->contractions = n->contraction ? 1 : 0;
    gr->has_ext = n->cls == FK_NODE_CALL;
    gr->has_insert = n->cls == FK_NODE_INSERT;
    gr->opaque = n->cls == FK_NODE_OPAQUE;
    gr->num_ops = n->num_ops ? n->num_ops : 1;
  }
}

void fk_graph_build(FkGraph *g, MlirOperation func, const FkRules *rules) {
  memset(g, 0, sizeof *g);
  g->func = func;
  g->rules = *rules;
  MlirOperation module = mlirOperationGetParentOperation(func);
  Builder b = {mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0)), NULL, 0, {0},
               braze_op_is(module, "builtin.module") ? mlirSymbolTableCreate(module) : (MlirSymbolTable){NULL}};
  for (MlirOperation op = mlirBlockGetFirstOperation(b.body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    b.tops = realloc(b.tops, (b.num_tops + 1) * sizeof *b.tops);
    TopOp *t = &b.tops[b.num_tops++];
    t->op = op;
    t->node = -1;
    t->kind = classify(op);
    braze_ptrmap_put(&b.top_index, braze_ptr_key(op.ptr), (int)(b.num_tops - 1));
    if (t->kind == TOP_NODE)
      t->node = (int)g->num_nodes++;
  }
  g->nodes = calloc(g->num_nodes + 1, sizeof *g->nodes);
  for (size_t i = 0; i < b.num_tops; ++i)
    if (b.tops[i].kind == TOP_NODE) {
      analyse_node(&b, g, &g->nodes[b.tops[i].node], b.tops[i].op);
      braze_ptrmap_put(&g->node_index, braze_ptr_key(b.tops[i].op.ptr), b.tops[i].node);
    }
  for (size_t i = 0; i < g->num_nodes; ++i)
    collect_users(&b, &g->nodes[i], (int)i);
  free(b.tops);
  braze_ptrmap_free(&b.top_index);
  if (!mlirSymbolTableIsNull(b.symbols))
    mlirSymbolTableDestroy(b.symbols);
  init_groups(g);
  build_candidates(g);
}

void fk_graph_free(FkGraph *g) {
  for (size_t i = 0; i < g->num_nodes; ++i) {
    FkNode *n = &g->nodes[i];
    for (size_t k = 0; k < n->num_ops; ++k) {
      free(n->ops[k]);
      free(n->origins[k]);
    }
    free(n->ops);
    free(n->origins);
    free(n->space);
    free(n->reduced);
    free(n->reads);
    for (size_t k = 0; k < n->num_results; ++k)
      free(n->results[k].users);
    free(n->results);
    free(n->align);
    free(g->groups[i].members);
    free(g->groups[i].space);
    free(g->groups[i].reduced);
  }
  free(g->nodes);
  free(g->groups);
  free(g->cands);
  free(g->node_cand_start);
  free(g->node_cands);
  braze_ptrmap_free(&g->node_index);
  free(g->steps);
  free(g->plan.label);
  free(g->plan.absorb);
  free(g->plan.forbid);
  if (g->search) {
    free(g->search->mark);
    free(g->search->stack);
    free(g->search);
  }
  memset(g, 0, sizeof *g);
}

size_t fk_group_nodes(const FkGraph *g, int group, int **out) {
  const FkGroup *gr = &g->groups[group];
  *out = calloc(gr->num_members + 1, sizeof **out);
  memcpy(*out, gr->members, gr->num_members * sizeof **out);
  return gr->num_members;
}

const char *fk_group_kind(const FkGraph *g, int group) {
  const FkGroup *gr = &g->groups[group];
  if (gr->opaque)
    return NULL;
  if (gr->has_ext)
    return "ext";
  if (gr->has_contraction)
    return "tem";
  if (!gr->has_red)
    return "poi";
  long long extent = 1;
  for (int d = 0; d < gr->rank; ++d)
    if (gr->reduced[d])
      extent *= gr->space[d];
  return gr->rank >= 0 && extent <= g->rules.persistent_max ? "per" : "red";
}
