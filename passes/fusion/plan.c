/* Fusion plans (see passes/fusion/plan.h). The file:
 *
 *   {"version": 1,
 *    "functions": [
 *     {"name": "f",
 *      "kernels": [
 *       {"name": "cpu_poi_fused_exp_0", "kind": "poi", "ops": ["f/exp#0"]}],
 *      "refused": [{"a": "f/exp#0", "b": "f/matmul#1", "reason": "matmul-epilogue-disabled"}],
 *      "forbid": [["f/exp#0", "f/add#2"]]}],
 *    "forbid": [["a", "b"]]}
 *
 * A kernel's "name" and "kind" and the "refused" list are what the pass decided; on
 * reading they are informational (names are recomputed) and only their shape is
 * checked. Reading uses jansson; writing is by hand, one kernel per line. */
#include "passes/fusion/plan.h"

#include <jansson.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "support/context.h"
#include "support/diag.h"
#include "support/json.h"

/* ---- reading ---- */

typedef struct {
  const char *path;
  BrazeStr *error;
} Reader;

static bool bad(Reader *r, const char *where, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static bool bad(Reader *r, const char *where, const char *fmt, ...) {
  braze_str_printf(r->error, "%s: form-kernels plan: %s: ", r->path, where);
  va_list ap;
  va_start(ap, fmt);
  braze_str_vprintf(r->error, fmt, ap);
  va_end(ap);
  return false;
}

static char *where_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *where_printf(const char *fmt, ...) {
  BrazeStr s = {0};
  va_list ap;
  va_start(ap, fmt);
  braze_str_vprintf(&s, fmt, ap);
  va_end(ap);
  return s.data;
}

/* Every key of `obj` is one of `allowed` (NULL-terminated): a misspelt key would
 * otherwise be ignored silently. */
static bool keys_known(Reader *r, const char *where, json_t *obj, const char *const *allowed) {
  const char *key;
  json_t *value;
  json_object_foreach(obj, key, value) {
    bool known = false;
    for (size_t i = 0; allowed[i] && !known; ++i)
      known = strcmp(key, allowed[i]) == 0;
    if (!known)
      return bad(r, where, "unknown key '%s'", key);
  }
  return true;
}

static bool optional_string(Reader *r, const char *where, json_t *obj, const char *key, bool null_ok) {
  json_t *v = json_object_get(obj, key);
  if (!v || json_is_string(v) || (null_ok && json_is_null(v)))
    return true;
  return bad(r, where, "'%s' must be a string", key);
}

static bool read_pair(Reader *r, json_t *v, const char *where, FkPlanPair *out) {
  if (!json_is_array(v) || json_array_size(v) != 2 || !json_is_string(json_array_get(v, 0)) ||
      !json_is_string(json_array_get(v, 1)))
    return bad(r, where, "a forbid entry must be a pair of op names [\"a\", \"b\"]");
  out->a = strdup(json_string_value(json_array_get(v, 0)));
  out->b = strdup(json_string_value(json_array_get(v, 1)));
  out->where = strdup(where);
  return true;
}

static bool read_forbid(Reader *r, json_t *obj, const char *where, FkPlanPair **out, size_t *count) {
  json_t *list = json_object_get(obj, "forbid");
  if (!list)
    return true;
  if (!json_is_array(list))
    return bad(r, where, "'forbid' must be a list of op name pairs");
  *out = calloc(json_array_size(list) + 1, sizeof **out);
  for (size_t i = 0; i < json_array_size(list); ++i) {
    char *w = where_printf("%s%sforbid[%zu]", where, *where ? "." : "", i);
    bool ok = read_pair(r, json_array_get(list, i), w, &(*out)[i]);
    free(w);
    if (!ok)
      return false;
    ++*count;
  }
  return true;
}

static bool read_kernel(Reader *r, json_t *v, const char *where, FkPlanKernel *out) {
  static const char *const keys[] = {"name", "kind", "ops", NULL};
  out->where = strdup(where);
  if (!json_is_object(v))
    return bad(r, where, "a kernel must be an object {\"ops\": [...]}");
  if (!keys_known(r, where, v, keys) || !optional_string(r, where, v, "name", true) ||
      !optional_string(r, where, v, "kind", false))
    return false;
  json_t *ops = json_object_get(v, "ops");
  if (!json_is_array(ops) || json_array_size(ops) == 0)
    return bad(r, where, "'ops' must be a non-empty list of op names");
  out->ops = calloc(json_array_size(ops), sizeof *out->ops);
  for (size_t i = 0; i < json_array_size(ops); ++i) {
    json_t *op = json_array_get(ops, i);
    if (!json_is_string(op))
      return bad(r, where, "ops[%zu] must be a string", i);
    out->ops[out->num_ops++] = strdup(json_string_value(op));
  }
  return true;
}

static bool read_refused(Reader *r, json_t *v, const char *where) {
  json_t *list = json_object_get(v, "refused");
  if (!list)
    return true;
  if (!json_is_array(list))
    return bad(r, where, "'refused' must be a list");
  static const char *const keys[] = {"a", "b", "reason", NULL};
  for (size_t i = 0; i < json_array_size(list); ++i) {
    json_t *e = json_array_get(list, i);
    char *w = where_printf("%s.refused[%zu]", where, i);
    bool ok = json_is_object(e) ? keys_known(r, w, e, keys) : bad(r, w, "must be an object {\"a\", \"b\", \"reason\"}");
    free(w);
    if (!ok)
      return false;
  }
  return true;
}

static bool read_function(Reader *r, json_t *v, const char *where, FkPlanFunction *out) {
  static const char *const keys[] = {"name", "kernels", "refused", "forbid", NULL};
  if (!json_is_object(v))
    return bad(r, where, "a function must be an object {\"name\": ..., \"kernels\": [...]}");
  if (!keys_known(r, where, v, keys))
    return false;
  json_t *name = json_object_get(v, "name");
  if (!json_is_string(name))
    return bad(r, where, "'name' (the graph function's name) must be a string");
  out->name = strdup(json_string_value(name));
  json_t *kernels = json_object_get(v, "kernels");
  if (kernels) {
    if (!json_is_array(kernels))
      return bad(r, where, "'kernels' must be a list");
    out->has_kernels = true;
    out->kernels = calloc(json_array_size(kernels) + 1, sizeof *out->kernels);
    for (size_t i = 0; i < json_array_size(kernels); ++i) {
      char *w = where_printf("%s.kernels[%zu]", where, i);
      bool ok = read_kernel(r, json_array_get(kernels, i), w, &out->kernels[out->num_kernels++]);
      free(w);
      if (!ok)
        return false;
    }
  }
  return read_refused(r, v, where) && read_forbid(r, v, where, &out->forbid, &out->num_forbid);
}

static bool read_root(Reader *r, json_t *root, FkPlan *out) {
  static const char *const keys[] = {"version", "functions", "forbid", NULL};
  if (!json_is_object(root))
    return bad(r, "top level", "a plan is an object {\"version\": 1, \"functions\": [...]}");
  if (!keys_known(r, "top level", root, keys))
    return false;
  json_t *version = json_object_get(root, "version");
  if (version && (!json_is_integer(version) || json_integer_value(version) != 1))
    return bad(r, "version", "only version 1 is known");
  json_t *funcs = json_object_get(root, "functions");
  if (funcs && !json_is_array(funcs))
    return bad(r, "functions", "'functions' must be a list");
  size_t n = funcs ? json_array_size(funcs) : 0;
  out->funcs = calloc(n + 1, sizeof *out->funcs);
  for (size_t i = 0; i < n; ++i) {
    char *w = where_printf("functions[%zu]", i);
    bool ok = read_function(r, json_array_get(funcs, i), w, &out->funcs[out->num_funcs++]);
    free(w);
    if (!ok)
      return false;
  }
  return read_forbid(r, root, "", &out->forbid, &out->num_forbid);
}

bool fk_plan_read(const char *path, FkPlan *out, BrazeStr *error) {
  memset(out, 0, sizeof *out);
  out->path = strdup(path);
  json_error_t jerr;
  json_t *root = json_load_file(path, JSON_REJECT_DUPLICATES, &jerr);
  if (!root) {
    if (jerr.line > 0)
      braze_str_printf(error, "%s:%d:%d: form-kernels plan: %s", path, jerr.line, jerr.column, jerr.text);
    else
      braze_str_printf(error, "form-kernels: cannot read the plan '%s': %s", path, jerr.text);
    fk_plan_free(out);
    return false;
  }
  Reader r = {path, error};
  bool ok = read_root(&r, root, out);
  json_decref(root);
  if (!ok)
    fk_plan_free(out);
  return ok;
}

static void free_pairs(FkPlanPair *pairs, size_t count) {
  for (size_t i = 0; i < count; ++i) {
    free(pairs[i].a);
    free(pairs[i].b);
    free(pairs[i].where);
  }
  free(pairs);
}

void fk_plan_free(FkPlan *plan) {
  for (size_t f = 0; f < plan->num_funcs; ++f) {
    FkPlanFunction *fn = &plan->funcs[f];
    for (size_t k = 0; k < fn->num_kernels; ++k) {
      for (size_t i = 0; i < fn->kernels[k].num_ops; ++i)
        free(fn->kernels[k].ops[i]);
      free(fn->kernels[k].ops);
      free(fn->kernels[k].where);
    }
    free(fn->kernels);
    free_pairs(fn->forbid, fn->num_forbid);
    free(fn->name);
  }
  free(plan->funcs);
  free_pairs(plan->forbid, plan->num_forbid);
  free(plan->path);
  memset(plan, 0, sizeof *plan);
}

/* ---- stable op names ---- */

typedef struct {
  const char *name;
  int node;
} NamedNode;

static int compare_named(const void *x, const void *y) {
  const NamedNode *a = x, *b = y;
  int c = strcmp(a->name, b->name);
  return c ? c : a->node - b->node;
}

static char *func_name(const FkGraph *g) {
  MlirStringRef s = mlirStringAttrGetValue(mlirOperationGetAttributeByName(g->func, braze_ref("sym_name")));
  return strndup(s.data, s.length);
}

static char *location_name(const FkNode *n) {
  const char *name = NULL;
  size_t len = 0;
  if (!braze_location_name(mlirOperationGetLocation(n->op), &name, &len) || len == 0)
    return NULL;
  return strndup(name, len);
}

static char *fallback_name(const char *func, const FkNode *node, size_t index) {
  BrazeStr s = {0};
  braze_str_printf(&s, "%s/%s#%zu", func, node->num_ops ? node->ops[node->num_ops - 1] : "op", index);
  return s.data;
}

/* Drop the names of `names` (those in `from`, by node) that several nodes share:
 * ops of one composite, a reduce_mean's two generics, or (rarely) a location name
 * that equals another node's derived name. */
static void drop_shared(char **names, const bool *from, size_t n) {
  NamedNode *sorted = calloc(n + 1, sizeof *sorted);
  size_t num = 0;
  for (size_t i = 0; i < n; ++i)
    if (names[i])
      sorted[num++] = (NamedNode){names[i], (int)i};
  qsort(sorted, num, sizeof *sorted, compare_named);
  bool *drop = calloc(n + 1, sizeof *drop);
  for (size_t i = 0; i < num;) {
    size_t j = i + 1;
    while (j < num && strcmp(sorted[j].name, sorted[i].name) == 0)
      ++j;
    for (size_t k = i; j - i > 1 && k < j; ++k)
      drop[sorted[k].node] = from[sorted[k].node];
    i = j;
  }
  for (size_t i = 0; i < n; ++i)
    if (drop[i]) {
      free(names[i]);
      names[i] = NULL;
    }
  free(drop);
  free(sorted);
}

char **fk_node_names(const FkGraph *g) {
  size_t n = g->num_nodes;
  char **names = calloc(n + 1, sizeof *names);
  bool *located = calloc(n + 1, sizeof *located);
  for (size_t i = 0; i < n; ++i)
    located[i] = (names[i] = location_name(&g->nodes[i])) != NULL;
  drop_shared(names, located, n);
  char *func = func_name(g);
  for (size_t i = 0; i < n; ++i)
    if (!names[i])
      names[i] = fallback_name(func, &g->nodes[i], i);
  /* Derived names are unique among themselves (the node index); a location name
   * equal to one of them gives way. */
  drop_shared(names, located, n);
  for (size_t i = 0; i < n; ++i)
    if (!names[i])
      names[i] = fallback_name(func, &g->nodes[i], i);
  free(func);
  free(located);
  return names;
}

void fk_node_names_free(char **names, size_t count) {
  if (!names)
    return;
  for (size_t i = 0; i < count; ++i)
    free(names[i]);
  free(names);
}

/* ---- imposing a plan ---- */

typedef struct {
  NamedNode *sorted; /* every node by name */
  size_t count;
} NameIndex;

static NameIndex index_names(const FkGraph *g, char *const *names) {
  NameIndex ix = {calloc(g->num_nodes + 1, sizeof *ix.sorted), g->num_nodes};
  for (size_t i = 0; i < g->num_nodes; ++i)
    ix.sorted[i] = (NamedNode){names[i], (int)i};
  qsort(ix.sorted, ix.count, sizeof *ix.sorted, compare_named);
  return ix;
}

/* The node named `name`, or -1. */
static int lookup(const NameIndex *ix, const char *name) {
  size_t lo = 0, hi = ix->count;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    int c = strcmp(ix->sorted[mid].name, name);
    if (c == 0)
      return ix->sorted[mid].node;
    if (c < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  return -1;
}

static FkPlanFunction *plan_function(const FkPlan *plan, const char *name) {
  for (size_t i = 0; i < plan->num_funcs; ++i)
    if (strcmp(plan->funcs[i].name, name) == 0)
      return &plan->funcs[i];
  return NULL;
}

static void add_forbid(FkGraph *g, int a, int b) {
  g->plan.forbid = realloc(g->plan.forbid, (g->plan.num_forbid + 1) * sizeof *g->plan.forbid);
  g->plan.forbid[g->plan.num_forbid][0] = a;
  g->plan.forbid[g->plan.num_forbid][1] = b;
  g->plan.num_forbid++;
}

static bool unknown_name(const FkGraph *g, const FkPlan *plan, const char *where, const char *name) {
  char *func = func_name(g);
  braze_emit_error(mlirOperationGetLocation(g->func),
                   "form-kernels: plan '%s' %s: no op named '%s' in @%s (names: plan-out=FILE lists them)",
                   plan->path, where, name, func);
  free(func);
  return false;
}

/* Pairs of the function's own forbid list must name its ops; top-level pairs apply
 * where both names are ops of the function. */
static bool constrain_forbid(FkGraph *g, const FkPlan *plan, FkPlanFunction *fn, const NameIndex *ix) {
  bool ok = true;
  for (size_t i = 0; fn && i < fn->num_forbid; ++i) {
    FkPlanPair *p = &fn->forbid[i];
    int a = lookup(ix, p->a), b = lookup(ix, p->b);
    if (a < 0 || b < 0) {
      ok = unknown_name(g, plan, p->where, a < 0 ? p->a : p->b);
      continue;
    }
    add_forbid(g, a, b);
  }
  for (size_t i = 0; i < plan->num_forbid; ++i) {
    FkPlanPair *p = &plan->forbid[i];
    int a = lookup(ix, p->a), b = lookup(ix, p->b);
    if (a >= 0 && b >= 0) {
      p->matched = true;
      add_forbid(g, a, b);
    }
  }
  return ok;
}

/* A zero pad listed in the kernel of the contraction that reads it as A is what
 * pad-templates wrote (the pad moved after the schedule; the scheduler itself never
 * fuses across the pad's and the product's spaces): it gets a label of its own, so
 * it is scheduled alone, and fk_absorb_pads moves it after the schedule. */
static void mark_absorbed_pads(FkGraph *g, size_t num_kernels) {
  int *label = g->plan.label;
  for (size_t c = 0; c < g->num_nodes; ++c) {
    int p = fk_pad_read_as_a(g, (int)c);
    if (p < 0 || label[p] != label[c] || label[c] < 0 || (size_t)label[c] >= num_kernels)
      continue;
    if (!g->plan.absorb)
      g->plan.absorb = calloc(g->num_nodes + 1, sizeof *g->plan.absorb);
    g->plan.absorb[p] = true;
    label[p] = (int)num_kernels + p; /* unused: unlisted node i's is num_kernels + i */
  }
}

static bool constrain_kernels(FkGraph *g, const FkPlan *plan, const FkPlanFunction *fn, const NameIndex *ix,
                              bool complete) {
  int *label = malloc((g->num_nodes + 1) * sizeof *label);
  /* Unlisted ops: alone (a label of their own past the kernels'), or free. */
  for (size_t i = 0; i < g->num_nodes; ++i)
    label[i] = complete ? FK_PLAN_FREE : (int)(fn->num_kernels + i);
  bool *listed = calloc(g->num_nodes + 1, sizeof *listed);
  bool ok = true;
  for (size_t k = 0; k < fn->num_kernels; ++k) {
    const FkPlanKernel *kernel = &fn->kernels[k];
    for (size_t i = 0; i < kernel->num_ops; ++i) {
      int node = lookup(ix, kernel->ops[i]);
      if (node < 0) {
        ok = unknown_name(g, plan, kernel->where, kernel->ops[i]);
        continue;
      }
      if (listed[node]) {
        braze_emit_error(mlirOperationGetLocation(g->nodes[node].op),
                         "form-kernels: plan '%s' %s: op '%s' is listed twice", plan->path, kernel->where,
                         kernel->ops[i]);
        ok = false;
      }
      listed[node] = true;
      label[node] = (int)k;
    }
  }
  free(listed);
  g->plan.label = label;
  mark_absorbed_pads(g, fn->num_kernels);
  return ok;
}

bool fk_plan_constrain(FkGraph *g, FkPlan *plan, char *const *names, bool complete) {
  char *func = func_name(g);
  FkPlanFunction *fn = plan_function(plan, func);
  free(func);
  NameIndex ix = index_names(g, names);
  bool ok = true;
  if (fn) {
    fn->matched = true;
    if (fn->has_kernels)
      ok = constrain_kernels(g, plan, fn, &ix, complete);
  }
  ok = constrain_forbid(g, plan, fn, &ix) && ok;
  free(ix.sorted);
  return ok;
}

/* ---- checking the formed kernels ---- */

/* Why kernel k's ops did not end up in one group: the verdict on a candidate pair
 * of its ops that are in different groups, preferring one that names a rule over
 * not-adjacent; not-adjacent when no such pair is a candidate. */
static void refusal(const FkGraph *g, const int *in_kernel, int k, int *a, int *b, FkReason *reason) {
  *reason = FK_NOT_ADJACENT;
  for (size_t i = 0; i < g->num_cands; ++i) {
    const FkCandidate *c = &g->cands[i];
    if (in_kernel[c->a] != k || in_kernel[c->b] != k || g->nodes[c->a].group == g->nodes[c->b].group)
      continue;
    FkVerdict v = fk_can_fuse_nodes(g, c->a, c->b);
    if (v.reason != FK_NOT_ADJACENT) {
      *a = c->a, *b = c->b, *reason = v.reason;
      return;
    }
  }
}

/* What one pass over the nodes finds out about a listed kernel. */
typedef struct {
  int first;   /* its first op (node), -1 when none resolved */
  bool split;  /* its ops ended up in more than one group */
  int joined;  /* an op of another kernel in its first op's group, or -1 */
} KernelState;

static bool report_kernel(const FkGraph *g, const FkPlan *plan, const FkPlanKernel *kernel, const KernelState *st,
                          const int *in_kernel, int k, char *const *names) {
  MlirLocation loc = mlirOperationGetLocation(g->nodes[st->first].op);
  if (st->joined >= 0) {
    braze_emit_error(loc, "form-kernels: plan '%s' %s: '%s' and '%s' are one concat and cannot be split", plan->path,
                     kernel->where, names[st->first], names[st->joined]);
    return false;
  }
  int a = st->first, b = st->first;
  FkReason reason;
  refusal(g, in_kernel, k, &a, &b, &reason);
  if (reason == FK_NOT_ADJACENT)
    braze_emit_error(loc, "form-kernels: plan '%s' %s is illegal: not-adjacent (its ops share no edge or input)",
                     plan->path, kernel->where);
  else
    braze_emit_error(loc, "form-kernels: plan '%s' %s is illegal: '%s' and '%s' cannot fuse: %s", plan->path,
                     kernel->where, names[a], names[b], fk_reason_name(reason));
  return false;
}

/* One pass over the nodes: each listed kernel's first op, whether its ops are in
 * more than one group, and whether its first op's group holds ops of another kernel
 * (only the inserts of one concat chain, grouped before any plan applies). */
static void kernel_states(const FkGraph *g, const int *in_kernel, size_t num_kernels, KernelState *st) {
  int *group_kernel = malloc((g->num_nodes + 1) * sizeof *group_kernel); /* per group: the kernel of its first node */
  for (size_t k = 0; k < num_kernels; ++k)
    st[k] = (KernelState){-1, false, -1};
  for (size_t n = 0; n < g->num_nodes; ++n)
    group_kernel[n] = -2;
  for (size_t n = 0; n < g->num_nodes; ++n) {
    int k = in_kernel[n], gr = g->nodes[n].group;
    if (group_kernel[gr] == -2)
      group_kernel[gr] = k;
    else if (group_kernel[gr] != k && group_kernel[gr] >= 0 && st[group_kernel[gr]].joined < 0)
      st[group_kernel[gr]].joined = (int)n;
    else if (group_kernel[gr] != k && k >= 0 && st[k].joined < 0)
      st[k].joined = g->groups[gr].members[0];
    if (k < 0)
      continue;
    if (st[k].first < 0)
      st[k].first = (int)n;
    st[k].split |= gr != g->nodes[st[k].first].group;
  }
  free(group_kernel);
}

bool fk_plan_verify(const FkGraph *g, const FkPlan *plan, char *const *names) {
  char *func = func_name(g);
  const FkPlanFunction *fn = plan_function(plan, func);
  free(func);
  if (!fn || !fn->has_kernels)
    return true;
  int *in_kernel = malloc((g->num_nodes + 1) * sizeof *in_kernel);
  for (size_t n = 0; n < g->num_nodes; ++n)
    in_kernel[n] = g->plan.label[n] >= 0 && (size_t)g->plan.label[n] < fn->num_kernels ? g->plan.label[n] : -1;
  KernelState *st = malloc((fn->num_kernels + 1) * sizeof *st);
  kernel_states(g, in_kernel, fn->num_kernels, st);
  bool ok = true;
  for (size_t k = 0; k < fn->num_kernels; ++k)
    if (st[k].first >= 0 && (st[k].split || st[k].joined >= 0))
      ok = report_kernel(g, plan, &fn->kernels[k], &st[k], in_kernel, (int)k, names) && ok;
  free(st);
  free(in_kernel);
  return ok;
}

bool fk_plan_check_unmatched(const FkPlan *plan, MlirOperation module) {
  bool ok = true;
  MlirLocation loc = mlirOperationGetLocation(module);
  for (size_t i = 0; i < plan->num_funcs; ++i)
    if (!plan->funcs[i].matched) {
      braze_emit_error(loc, "form-kernels: plan '%s' functions[%zu]: no graph function named '%s'", plan->path, i,
                       plan->funcs[i].name);
      ok = false;
    }
  for (size_t i = 0; i < plan->num_forbid; ++i)
    if (!plan->forbid[i].matched) {
      braze_emit_error(loc, "form-kernels: plan '%s' %s: no function has ops named '%s' and '%s'", plan->path,
                       plan->forbid[i].where, plan->forbid[i].a, plan->forbid[i].b);
      ok = false;
    }
  return ok;
}

/* ---- writing ---- */

void fk_plan_write_begin(BrazeStr *out) { braze_str_puts(out, "{\"version\": 1,\n \"functions\": ["); }
void fk_plan_write_end(BrazeStr *out) { braze_str_puts(out, "]}\n"); }

static void write_kernels(BrazeStr *out, const FkGraph *g, const FkKernelList *kernels, char *const *names) {
  braze_str_puts(out, ",\n   \"kernels\": [");
  for (size_t i = 0; i < kernels->count; ++i) {
    const FkKernel *k = &kernels->items[i];
    braze_str_puts(out, i ? ",\n    {\"name\": " : "\n    {\"name\": ");
    if (k->name)
      braze_json_cstr(out, k->name);
    else
      braze_str_puts(out, "null");
    braze_str_printf(out, ", \"kind\": \"%s\", \"ops\": [", k->kind ? k->kind : "kept");
    const FkGroup *gr = &g->groups[k->group];
    for (size_t m = 0; m < gr->num_members; ++m) {
      braze_str_puts(out, m ? ", " : "");
      braze_json_cstr(out, names[gr->members[m]]);
    }
    braze_str_puts(out, "]}");
  }
  braze_str_puts(out, "]");
}

static void write_refused(BrazeStr *out, const FkGraph *g, char *const *names) {
  braze_str_puts(out, ",\n   \"refused\": [");
  bool first = true;
  for (size_t i = 0; i < g->num_cands; ++i) {
    const FkCandidate *c = &g->cands[i];
    /* a pair in one group was not refused after all: a pad that pad-templates moved */
    if (c->step || g->nodes[c->a].group == g->nodes[c->b].group)
      continue;
    braze_str_puts(out, first ? "\n    {\"a\": " : ",\n    {\"a\": ");
    braze_json_cstr(out, names[c->a]);
    braze_str_puts(out, ", \"b\": ");
    braze_json_cstr(out, names[c->b]);
    braze_str_printf(out, ", \"reason\": \"%s\"}", fk_reason_name(c->reason));
    first = false;
  }
  braze_str_puts(out, "]");
}

static void write_forbid(BrazeStr *out, const FkGraph *g, char *const *names) {
  if (!g->plan.num_forbid)
    return;
  braze_str_puts(out, ",\n   \"forbid\": [");
  for (size_t i = 0; i < g->plan.num_forbid; ++i) {
    braze_str_puts(out, i ? ", [" : "[");
    braze_json_cstr(out, names[g->plan.forbid[i][0]]);
    braze_str_puts(out, ", ");
    braze_json_cstr(out, names[g->plan.forbid[i][1]]);
    braze_str_puts(out, "]");
  }
  braze_str_puts(out, "]");
}

void fk_plan_write(BrazeStr *out, const FkGraph *g, const FkKernelList *kernels, char *const *names, bool first) {
  char *func = func_name(g);
  braze_str_puts(out, first ? "\n  {\"name\": " : ",\n  {\"name\": ");
  braze_json_cstr(out, func);
  free(func);
  write_kernels(out, g, kernels, names);
  write_refused(out, g, names);
  write_forbid(out, g, names);
  braze_str_puts(out, "}");
}
