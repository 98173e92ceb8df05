/* Outlining fusion groups into kernel functions (see passes/fusion/outline.h). */
#include "passes/fusion/outline.h"

#include <stdlib.h>
#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "support/context.h"
#include "support/strbuf.h"
#include "support/valuemap.h"

/* ---- order and names ---- */

/* Kernel names are checked against the module's symbol table (one hash table per
 * planning: a name taken before the pass ran skips to the next index). */
static bool symbol_exists(MlirSymbolTable taken, const char *name) {
  return !mlirOperationIsNull(mlirSymbolTableLookup(taken, braze_ref(name)));
}

/* Kernel names list at most this many origins (Inductor caps its names likewise). */
enum { MAX_NAME_ORIGINS = 6 };

/* The group's origins (the ops the user wrote: a composite's name for the ops it
 * was decomposed into) in program order, duplicates dropped, at most
 * MAX_NAME_ORIGINS (Inductor style). kernel.ops keeps every primitive. */
static void append_unique_ops(const FkGraph *g, int group, BrazeStr *name) {
  const char **seen = calloc(1, sizeof *seen);
  size_t num_seen = 0;
  const FkGroup *gr = &g->groups[group];
  for (size_t m = 0; m < gr->num_members; ++m) { /* members ascend: program order */
    const FkNode *n = &g->nodes[gr->members[m]];
    for (size_t k = 0; k < n->num_ops && num_seen < MAX_NAME_ORIGINS; ++k) {
      bool dup = false;
      for (size_t s = 0; s < num_seen && !dup; ++s)
        dup = strcmp(seen[s], n->origins[k]) == 0;
      if (dup)
        continue;
      seen = realloc(seen, (num_seen + 1) * sizeof *seen);
      seen[num_seen++] = n->origins[k];
      braze_str_printf(name, "_%s", n->origins[k]);
    }
  }
  free(seen);
}

static char *kernel_name(const FkGraph *g, int group, const char *kind, const char *target, int *next_index,
                         MlirSymbolTable taken) {
  BrazeStr ops = {0};
  append_unique_ops(g, group, &ops);
  for (;;) {
    BrazeStr name = {0};
    braze_str_printf(&name, "%s_%s_fused%s_%d", target, kind, braze_str_cstr(&ops), (*next_index)++);
    if (!symbol_exists(taken, braze_str_cstr(&name))) {
      braze_str_free(&ops);
      return name.data;
    }
    braze_str_free(&name);
  }
}

/* A binary min-heap of group ids keyed by their first node (Kahn's ready set). */
typedef struct {
  int *items;
  size_t count;
} ReadyHeap;

static int first_node(const FkGraph *g, int group) { return g->groups[group].members[0]; }

static void heap_push(ReadyHeap *h, const FkGraph *g, int group) {
  size_t i = h->count++;
  h->items[i] = group;
  while (i > 0 && first_node(g, h->items[(i - 1) / 2]) > first_node(g, h->items[i])) {
    int t = h->items[i];
    h->items[i] = h->items[(i - 1) / 2];
    h->items[(i - 1) / 2] = t;
    i = (i - 1) / 2;
  }
}

static int heap_pop(ReadyHeap *h, const FkGraph *g) {
  int top = h->items[0];
  h->items[0] = h->items[--h->count];
  for (size_t i = 0;;) {
    size_t l = 2 * i + 1, r = l + 1, m = i;
    if (l < h->count && first_node(g, h->items[l]) < first_node(g, h->items[m]))
      m = l;
    if (r < h->count && first_node(g, h->items[r]) < first_node(g, h->items[m]))
      m = r;
    if (m == i)
      break;
    int t = h->items[i];
    h->items[i] = h->items[m];
    h->items[m] = t;
    i = m;
  }
  return top;
}

/* Edges between groups (producer group -> consumer group, one per read across
 * groups), as consumer lists per producer (CSR), and each group's count of them. */
typedef struct {
  size_t *start; /* per group: first edge in `to` */
  int *to;
  int *pending; /* per group: edges from groups not yet scheduled */
} GroupEdges;

static GroupEdges group_edges(const FkGraph *g) {
  size_t n = g->num_nodes, m = 0;
  GroupEdges e = {calloc(n + 2, sizeof(size_t)), NULL, calloc(n + 1, sizeof(int))};
  for (int pass = 0; pass < 2; ++pass) {
    for (size_t i = 0; i < n; ++i)
      for (size_t k = 0; k < g->nodes[i].num_reads; ++k) {
        int p = g->nodes[i].reads[k].producer;
        if (p < 0 || g->nodes[p].group == g->nodes[i].group)
          continue;
        int from = g->nodes[p].group, to = g->nodes[i].group;
        if (pass == 0) {
          e.start[from + 1]++;
          e.pending[to]++;
          ++m;
        } else {
          e.to[e.start[from]++] = to;
        }
      }
    if (pass == 0) {
      for (size_t gi = 0; gi < n; ++gi)
        e.start[gi + 1] += e.start[gi];
      e.to = calloc(m + 1, sizeof(int));
    }
  }
  for (size_t gi = n; gi > 0; --gi) /* the second pass advanced each start to the next's */
    e.start[gi] = e.start[gi - 1];
  e.start[0] = 0;
  return e;
}

void fk_kernels_plan(const FkGraph *g, const char *target, int *next_index, FkKernelList *out) {
  out->items = calloc(g->num_nodes + 1, sizeof *out->items);
  out->count = 0;
  MlirSymbolTable taken = mlirSymbolTableCreate(mlirOperationGetParentOperation(g->func));
  GroupEdges e = group_edges(g);
  ReadyHeap ready = {calloc(g->num_nodes + 1, sizeof(int)), 0};
  /* Kahn's algorithm; among ready groups the one whose first node comes first. */
  for (size_t i = 0; i < g->num_nodes; ++i) {
    int group = g->nodes[i].group;
    if ((int)i == first_node(g, group) && e.pending[group] == 0)
      heap_push(&ready, g, group);
  }
  while (ready.count) {
    int group = heap_pop(&ready, g);
    FkKernel *k = &out->items[out->count++];
    k->group = group;
    k->kind = fk_group_kind(g, group);
    k->name = k->kind ? kernel_name(g, group, k->kind, target, next_index, taken) : NULL;
    for (size_t j = e.start[group]; j < e.start[group + 1]; ++j)
      if (--e.pending[e.to[j]] == 0)
        heap_push(&ready, g, e.to[j]);
  }
  free(ready.items);
  free(e.start);
  free(e.to);
  free(e.pending);
  mlirSymbolTableDestroy(taken);
}

void fk_kernels_free(FkKernelList *list) {
  for (size_t i = 0; i < list->count; ++i)
    free(list->items[i].name);
  free(list->items);
  list->items = NULL;
  list->count = 0;
}

const FkKernel *fk_kernel_of(const FkKernelList *list, const FkGraph *g, int node) {
  for (size_t i = 0; i < list->count; ++i)
    if (list->items[i].group == g->nodes[node].group)
      return &list->items[i];
  return NULL;
}

typedef struct {
  MlirBlock fn_body;   /* the graph function's body */
  MlirBlock kernel;    /* the kernel's entry block */
  MlirLocation loc;
  BrazeValueMap map;   /* graph-function value -> kernel value */
  MlirValue *inputs;   /* graph-function values passed to the kernel, in argument order */
  size_t num_inputs;
} Outliner;

static void materialize(Outliner *o, MlirValue v);

/* Clone `op` (from the graph function) at the end of the kernel, after making its
 * operands and captured values available there. */
static MlirWalkResult materialize_captures(MlirOperation op, void *user);

static void clone_into_kernel(Outliner *o, MlirOperation op) {
  for (intptr_t i = 0, n = mlirOperationGetNumOperands(op); i < n; ++i)
    materialize(o, mlirOperationGetOperand(op, i));
  if (mlirOperationGetNumRegions(op))
    mlirOperationWalk(op, materialize_captures, o, MlirWalkPreOrder);
  MlirOperation clone = mlirOperationClone(op);
  mlirBlockAppendOwnedOperation(o->kernel, clone);
  mlirOperationWalk(clone, braze_valuemap_remap_operands, &o->map, MlirWalkPreOrder);
  for (intptr_t i = 0, n = mlirOperationGetNumResults(op); i < n; ++i)
    braze_valuemap_put(&o->map, mlirOperationGetResult(op, i), mlirOperationGetResult(clone, i));
}

static bool in_fn_body(const Outliner *o, MlirValue v) {
  if (mlirValueIsABlockArgument(v))
    return mlirBlockEqual(mlirBlockArgumentGetOwner(v), o->fn_body);
  return mlirBlockEqual(mlirOperationGetBlock(mlirOpResultGetOwner(v)), o->fn_body);
}

static MlirWalkResult materialize_captures(MlirOperation op, void *user) {
  Outliner *o = user;
  for (intptr_t i = 0, n = mlirOperationGetNumOperands(op); i < n; ++i) {
    MlirValue v = mlirOperationGetOperand(op, i);
    if (in_fn_body(o, v))
      materialize(o, v);
  }
  return MlirWalkResultAdvance;
}

/* Make graph-function value `v` available in the kernel: a support op is cloned,
 * anything else becomes a kernel argument. Group results are mapped already. */
static void materialize(Outliner *o, MlirValue v) {
  MlirValue to;
  if (braze_valuemap_find(&o->map, v, &to))
    return;
  if (mlirValueIsAOpResult(v) && fk_is_support_op(mlirOpResultGetOwner(v))) {
    clone_into_kernel(o, mlirOpResultGetOwner(v));
    return;
  }
  MlirValue arg = mlirBlockAddArgument(o->kernel, mlirValueGetType(v), o->loc);
  braze_valuemap_put(&o->map, v, arg);
  o->inputs = realloc(o->inputs, (o->num_inputs + 1) * sizeof *o->inputs);
  o->inputs[o->num_inputs++] = v;
}

/* ---- one kernel ---- */

/* Through the node index (a scan of all nodes per use was quadratic); the op check
 * rejects outlined nodes, whose ops are gone and whose addresses may be reused. */
static bool is_group_op(const FkGraph *g, int group, MlirOperation op) {
  int i = braze_ptrmap_get(&g->node_index, braze_ptr_key(op.ptr), -1);
  return i >= 0 && g->nodes[i].group == group && mlirOperationEqual(g->nodes[i].op, op);
}

static MlirOperation body_ancestor(MlirBlock body, MlirOperation op) {
  while (!mlirOperationIsNull(op) && !mlirBlockEqual(mlirOperationGetBlock(op), body))
    op = mlirOperationGetParentOperation(op);
  return op;
}

static bool used_outside(const FkGraph *g, int group, MlirBlock body, MlirValue v) {
  for (MlirOpOperand u = mlirValueGetFirstUse(v); !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u))
    if (!is_group_op(g, group, body_ancestor(body, mlirOpOperandGetOwner(u))))
      return true;
  return false;
}

static MlirAttribute ops_attr(MlirContext ctx, const FkGraph *g, int group) {
  const FkGroup *gr = &g->groups[group];
  size_t count = 0;
  for (size_t m = 0; m < gr->num_members; ++m)
    count += g->nodes[gr->members[m]].num_ops;
  MlirAttribute *items = calloc(count + 1, sizeof *items);
  size_t k = 0;
  for (size_t m = 0; m < gr->num_members; ++m) {
    const FkNode *n = &g->nodes[gr->members[m]];
    for (size_t j = 0; j < n->num_ops; ++j)
      items[k++] = mlirStringAttrGet(ctx, braze_ref(n->ops[j]));
  }
  MlirAttribute a = mlirArrayAttrGet(ctx, (intptr_t)k, items);
  free(items);
  return a;
}

static MlirNamedAttribute named(MlirContext ctx, const char *name, MlirAttribute a) {
  return mlirNamedAttributeGet(mlirIdentifierGet(ctx, braze_ref(name)), a);
}

static MlirOperation create_kernel_func(const FkGraph *g, const FkKernel *k, MlirBlock block, MlirType fn_type,
                                        MlirLocation loc) {
  MlirContext ctx = mlirLocationGetContext(loc);
  MlirNamedAttribute attrs[] = {
      named(ctx, "sym_name", mlirStringAttrGet(ctx, braze_ref(k->name))),
      named(ctx, "function_type", mlirTypeAttrGet(fn_type)),
      named(ctx, "sym_visibility", mlirStringAttrGet(ctx, braze_ref("private"))),
      named(ctx, "kernel.kind", mlirStringAttrGet(ctx, braze_ref(k->kind))),
      named(ctx, "kernel.ops", ops_attr(ctx, g, k->group)),
      named(ctx, "kernel.score", mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 64), g->groups[k->group].score)),
  };
  MlirRegion region = mlirRegionCreate();
  mlirRegionAppendOwnedBlock(region, block);
  MlirOperationState st = mlirOperationStateGet(braze_ref("func.func"), loc);
  mlirOperationStateAddAttributes(&st, sizeof attrs / sizeof *attrs, attrs);
  mlirOperationStateAddOwnedRegions(&st, 1, &region);
  return mlirOperationCreate(&st);
}

static MlirOperation create_op(const char *name, MlirLocation loc, size_t num_operands, const MlirValue *operands,
                               size_t num_results, const MlirType *results, MlirNamedAttribute *attr) {
  MlirOperationState st = mlirOperationStateGet(braze_ref(name), loc);
  mlirOperationStateAddOperands(&st, (intptr_t)num_operands, operands);
  mlirOperationStateAddResults(&st, (intptr_t)num_results, results);
  if (attr)
    mlirOperationStateAddAttributes(&st, 1, attr);
  return mlirOperationCreate(&st);
}

static MlirType *value_types(const MlirValue *values, size_t n) {
  MlirType *types = calloc(n + 1, sizeof *types);
  for (size_t i = 0; i < n; ++i)
    types[i] = mlirValueGetType(values[i]);
  return types;
}

static void outline_group(FkGraph *g, const FkKernel *k, MlirBlock body) {
  int *nodes = NULL;
  size_t num_nodes = fk_group_nodes(g, k->group, &nodes);
  MlirLocation loc = mlirOperationGetLocation(g->nodes[nodes[0]].op);
  MlirContext ctx = mlirLocationGetContext(loc);
  Outliner o = {.fn_body = body, .kernel = mlirBlockCreate(0, NULL, NULL), .loc = loc};
  MlirValue *outs = calloc(1, sizeof *outs);
  size_t num_outs = 0;
  for (size_t i = 0; i < num_nodes; ++i) {
    MlirOperation op = g->nodes[nodes[i]].op;
    clone_into_kernel(&o, op);
    for (intptr_t r = 0, n = mlirOperationGetNumResults(op); r < n; ++r) {
      MlirValue v = mlirOperationGetResult(op, r);
      if (!used_outside(g, k->group, body, v))
        continue;
      outs = realloc(outs, (num_outs + 1) * sizeof *outs);
      outs[num_outs++] = v;
    }
  }
  MlirValue *kernel_outs = calloc(num_outs + 1, sizeof *kernel_outs);
  for (size_t i = 0; i < num_outs; ++i)
    braze_valuemap_find(&o.map, outs[i], &kernel_outs[i]);
  mlirBlockAppendOwnedOperation(o.kernel, create_op("func.return", loc, num_outs, kernel_outs, 0, NULL, NULL));

  MlirType *in_types = value_types(o.inputs, o.num_inputs), *out_types = value_types(outs, num_outs);
  MlirType fn_type = mlirFunctionTypeGet(ctx, (intptr_t)o.num_inputs, in_types, (intptr_t)num_outs, out_types);
  MlirOperation kernel = create_kernel_func(g, k, o.kernel, fn_type, loc);
  mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(g->func), g->func, kernel);

  MlirNamedAttribute callee = named(ctx, "callee", mlirFlatSymbolRefAttrGet(ctx, braze_ref(k->name)));
  MlirOperation call = create_op("func.call", loc, o.num_inputs, o.inputs, num_outs, out_types, &callee);
  mlirBlockInsertOwnedOperationBefore(body, mlirBlockGetTerminator(body), call);
  for (size_t i = 0; i < num_outs; ++i)
    mlirValueReplaceAllUsesOfWith(outs[i], mlirOperationGetResult(call, (intptr_t)i));
  for (size_t i = num_nodes; i-- > 0;) {
    mlirOperationRemoveFromParent(g->nodes[nodes[i]].op);
    mlirOperationDestroy(g->nodes[nodes[i]].op);
    g->nodes[nodes[i]].op = (MlirOperation){NULL};
  }
  free(in_types);
  free(out_types);
  free(kernel_outs);
  free(outs);
  free(o.inputs);
  braze_valuemap_free(&o.map);
  free(nodes);
}

static bool has_uses(MlirOperation op) {
  for (intptr_t i = 0, n = mlirOperationGetNumResults(op); i < n; ++i)
    if (!mlirOpOperandIsNull(mlirValueGetFirstUse(mlirOperationGetResult(op, i))))
      return true;
  return false;
}

/* Support ops that only fed now-outlined nodes are dead in the graph function. */
static void erase_dead_support(MlirBlock body) {
  MlirOperation *ops = calloc(1, sizeof *ops);
  size_t n = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    ops = realloc(ops, (n + 1) * sizeof *ops);
    ops[n++] = op;
  }
  /* Backwards, so that a fill goes before the empty it fills. */
  for (size_t i = n; i-- > 0;)
    if (fk_is_support_op(ops[i]) && !has_uses(ops[i])) {
      mlirOperationRemoveFromParent(ops[i]);
      mlirOperationDestroy(ops[i]);
    }
  free(ops);
}

void fk_outline(FkGraph *g, const FkKernelList *kernels) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(g->func, 0));
  for (size_t i = 0; i < kernels->count; ++i) {
    const FkKernel *k = &kernels->items[i];
    if (k->name) {
      outline_group(g, k, body);
      continue;
    }
    /* An opaque op stays, moved to its place in the new order. */
    int *nodes = NULL;
    size_t n = fk_group_nodes(g, k->group, &nodes);
    for (size_t j = 0; j < n; ++j)
      mlirOperationMoveBefore(g->nodes[nodes[j]].op, mlirBlockGetTerminator(body));
    free(nodes);
  }
  erase_dead_support(body);
}
