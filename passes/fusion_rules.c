/* can_fuse, score and the greedy scheduler of form-kernels (see fusion_graph.h).
 *
 * A group has loops (its iteration space) and a mask of reduced loops. Nodes join a
 * group with an alignment (node loop -> group loop): the identity when their space is
 * the group's full space, the group's parallel loops when a pointwise node runs over
 * the outer space of a reduction (the mean's scale, rstd = rsqrt(var + eps)). A data
 * edge may cross into a fused group only when the consumer reads the value at the
 * indices the producer writes it, both expressed in group loops. */
#include <stdlib.h>
#include <string.h>

#include "mlir-c/AffineExpr.h"
#include "passes/fusion_graph.h"

const char *fk_reason_name(FkReason r) {
  switch (r) {
  case FK_OK: return "none";
  case FK_DISABLED: return "disabled";
  case FK_NOT_FUSABLE: return "not-fusable";
  case FK_EXTERN: return "extern-kernel";
  case FK_TWO_CONTRACTIONS: return "two-contractions";
  case FK_MATMUL_EPILOGUE_DISABLED: return "matmul-epilogue-disabled";
  case FK_SPACE_MISMATCH: return "iteration-space-mismatch";
  case FK_HORIZONTAL_DISABLED: return "horizontal-disabled";
  case FK_EPILOGUE_DISABLED: return "epilogue-disabled";
  case FK_INDEXING_MISMATCH: return "indexing-mismatch";
  case FK_MAX_OPS: return "max-ops";
  case FK_CYCLE: return "cycle";
  case FK_NOT_ADJACENT: return "not-adjacent";
  }
  return "unknown";
}

const char *fk_category_name(FkCategory c) {
  switch (c) {
  case FK_CAT_VERTICAL: return "vertical";
  case FK_CAT_EPILOGUE: return "reduction-epilogue";
  case FK_CAT_HORIZONTAL: return "horizontal";
  }
  return "unknown";
}

static bool in_pair(const FkGraph *g, int node, int ga, int gb) {
  int gr = g->nodes[node].group;
  return gr == ga || gr == gb;
}

/* ---- how the two groups are linked ---- */

typedef struct {
  bool edge;         /* a data edge between the groups */
  bool red_epilogue; /* an edge from a (non-contraction) reduction to a pointwise node */
  bool any_epilogue; /* an edge from any reduction (contractions too) to a pointwise node */
  bool shared;       /* both read a value produced by neither */
} Links;

static bool group_reads(const FkGraph *g, int group, MlirValue v) {
  const FkGroup *gr = &g->groups[group];
  for (size_t m = 0; m < gr->num_members; ++m) {
    const FkNode *n = &g->nodes[gr->members[m]];
    for (size_t k = 0; k < n->num_reads; ++k)
      if (!n->reads[k].support && mlirValueEqual(n->reads[k].value, v))
        return true;
  }
  return false;
}

static Links links(const FkGraph *g, int ga, int gb) {
  Links l = {0};
  for (int side = 0; side < 2; ++side) {
    const FkGroup *gr = &g->groups[side ? gb : ga];
    for (size_t m = 0; m < gr->num_members; ++m) {
    const FkNode *c = &g->nodes[gr->members[m]];
    int other = c->group == ga ? gb : ga;
    for (size_t k = 0; k < c->num_reads; ++k) {
      const FkRead *r = &c->reads[k];
      if (r->producer >= 0 && g->nodes[r->producer].group == other) {
        const FkNode *p = &g->nodes[r->producer];
        l.edge = true;
        if (p->has_red && !c->has_red) {
          l.any_epilogue = true;
          l.red_epilogue |= !p->contraction;
        }
      } else if (!r->support && c->group == ga && (r->producer < 0 || !in_pair(g, r->producer, ga, gb)) &&
                 group_reads(g, gb, r->value)) {
        l.shared = true;
      }
    }
    }
  }
  return l;
}

/* ---- iteration spaces ---- */

enum { MAX_RANK = 16 };

typedef struct {
  int base, other; /* the merged group keeps base's id and loops */
  bool outer;      /* other runs over base's outer space: its loops map through outer_map */
  int outer_map[MAX_RANK]; /* other's loop -> base's loop, -1 for a unit loop (index 0) */
} Plan;

static bool same_loops(const FkGroup *a, const FkGroup *b, bool masks) {
  if (a->rank != b->rank)
    return false;
  for (int d = 0; d < a->rank; ++d)
    if (a->space[d] != b->space[d] || (masks && a->reduced[d] != b->reduced[d]))
      return false;
  return true;
}

/* The parallel loops of a reduction group that are not unit loops. */
static int outer_loops(const FkGroup *gr, int *par) {
  int n = 0;
  for (int d = 0; d < gr->rank; ++d)
    if (!gr->reduced[d] && gr->space[d] != 1)
      par[n++] = d;
  return n;
}

/* Does pointwise group p run over the outer space of reduction group r? Unit loops
 * do not count, so the keepdim form ([rows, 1], what the mean's scale and
 * rsqrt(var + eps) run over) matches as well as [rows]. Fills plan->outer_map. */
static bool is_outer_space(const FkGroup *r, const FkGroup *p, Plan *plan) {
  int par[r->rank + 1];
  int n = outer_loops(r, par), k = 0;
  if (p->rank > MAX_RANK)
    return false;
  for (int d = 0; d < p->rank; ++d) {
    if (p->space[d] == 1) {
      plan->outer_map[d] = -1;
      continue;
    }
    if (k == n || r->space[par[k]] != p->space[d])
      return false;
    plan->outer_map[d] = par[k++];
  }
  return k == n;
}

static bool space_plan(const FkGraph *g, int ga, int gb, Plan *plan) {
  const FkGroup *a = &g->groups[ga], *b = &g->groups[gb];
  *plan = (Plan){.base = ga, .other = gb};
  if (a->rank < 0 || b->rank < 0)
    return false;
  if (a->has_red && b->has_red)
    return !a->has_contraction && !b->has_contraction && same_loops(a, b, true);
  if (!a->has_red && !b->has_red)
    return same_loops(a, b, false);
  if (b->has_red)
    *plan = (Plan){.base = gb, .other = ga};
  const FkGroup *r = &g->groups[plan->base], *p = &g->groups[plan->other];
  if (!r->has_contraction && same_loops(r, p, false))
    return true;
  plan->outer = is_outer_space(r, p, plan);
  return plan->outer;
}

/* ---- indexing ---- */

/* Node loop d -> loop of the merged group, or -1 for a unit loop. */
static int merged_loop(const FkGraph *g, const Plan *plan, int node, int d) {
  const FkNode *n = &g->nodes[node];
  int loop = n->align[d];
  if (loop >= 0 && plan->outer && n->group == plan->other)
    loop = plan->outer_map[loop];
  return loop;
}

/* `map` (node loops -> tensor indices) with node loops renamed to group loops. */
static bool map_in_group(const FkGraph *g, const Plan *plan, int node, MlirAffineMap map, MlirAffineExpr *out,
                         intptr_t max_out) {
  const FkNode *n = &g->nodes[node];
  int grank = g->groups[plan->base].rank;
  intptr_t dims = mlirAffineMapGetNumDims(map);
  if (dims != n->rank || mlirAffineMapGetNumResults(map) > max_out)
    return false;
  MlirContext ctx = mlirAffineMapGetContext(map);
  intptr_t total = dims > grank ? dims : grank;
  MlirAffineExpr rename[total + 1];
  for (intptr_t d = 0; d < total; ++d) {
    int loop = d < dims ? merged_loop(g, plan, node, (int)d) : (int)d;
    rename[d] = loop < 0 ? mlirAffineConstantExprGet(ctx, 0) : mlirAffineDimExprGet(ctx, loop);
  }
  MlirAffineMap sub = mlirAffineMapGet(ctx, total, 0, total, rename);
  for (intptr_t r = 0, nr = mlirAffineMapGetNumResults(map); r < nr; ++r)
    out[r] = mlirAffineExprCompose(mlirAffineMapGetResult(map, r), sub);
  return true;
}

static const FkResult *result_for(const FkNode *p, MlirValue v) {
  for (size_t k = 0; k < p->num_results; ++k)
    if (mlirValueEqual(p->results[k].value, v))
      return &p->results[k];
  return NULL;
}

static bool edge_aligned(const FkGraph *g, const Plan *plan, int consumer, const FkRead *r) {
  const FkResult *w = result_for(&g->nodes[r->producer], r->value);
  if (!w || !w->has_map || !r->has_map)
    return false;
  intptr_t nr = mlirAffineMapGetNumResults(r->map);
  if (nr != mlirAffineMapGetNumResults(w->map))
    return false;
  MlirAffineExpr re[nr + 1], we[nr + 1];
  if (!map_in_group(g, plan, consumer, r->map, re, nr) || !map_in_group(g, plan, r->producer, w->map, we, nr))
    return false;
  for (intptr_t i = 0; i < nr; ++i)
    if (!mlirAffineExprEqual(re[i], we[i]))
      return false;
  return true;
}

static bool indexing_ok(const FkGraph *g, const Plan *plan) {
  for (int side = 0; side < 2; ++side) {
    const FkGroup *gr = &g->groups[side ? plan->other : plan->base];
    for (size_t m = 0; m < gr->num_members; ++m) {
      const FkNode *c = &g->nodes[gr->members[m]];
      for (size_t k = 0; k < c->num_reads; ++k) {
        const FkRead *r = &c->reads[k];
        if (r->producer < 0 || g->nodes[r->producer].group == c->group ||
            !in_pair(g, r->producer, plan->base, plan->other))
          continue;
        if (!edge_aligned(g, plan, gr->members[m], r))
          return false;
      }
    }
  }
  return true;
}

/* ---- score ---- */

/* Bytes of n's results that the other group of the pair reads and nobody else. */
static int64_t internalized_bytes(const FkGraph *g, const FkNode *n, int ga, int gb) {
  int64_t s = 0;
  for (size_t k = 0; k < n->num_results; ++k) {
    const FkResult *r = &n->results[k];
    bool crosses = false, internal = !r->escapes;
    for (size_t u = 0; u < r->num_users; ++u) {
      int gu = g->nodes[r->users[u]].group;
      internal &= gu == ga || gu == gb;
      crosses |= gu != n->group && (gu == ga || gu == gb);
    }
    if (crosses && internal)
      s += r->bytes;
  }
  return s;
}

/* Bytes saved: results of one group read by the other and by nobody else (the
 * intermediate never goes to memory), plus inputs both groups read (read once). */
static int64_t score(const FkGraph *g, int ga, int gb) {
  int64_t s = 0;
  const FkGroup *b = &g->groups[gb];
  for (size_t m = 0; m < b->num_members; ++m)
    s += internalized_bytes(g, &g->nodes[b->members[m]], ga, gb);
  MlirValue *counted = calloc(1, sizeof *counted);
  size_t num_counted = 0;
  const FkGroup *a = &g->groups[ga];
  for (size_t m = 0; m < a->num_members; ++m) {
    const FkNode *n = &g->nodes[a->members[m]];
    s += internalized_bytes(g, n, ga, gb);
    for (size_t k = 0; k < n->num_reads; ++k) {
      const FkRead *r = &n->reads[k];
      if (r->support || (r->producer >= 0 && in_pair(g, r->producer, ga, gb)) || !group_reads(g, gb, r->value))
        continue;
      bool seen = false;
      for (size_t c = 0; c < num_counted && !seen; ++c)
        seen = mlirValueEqual(counted[c], r->value);
      if (seen)
        continue;
      counted = realloc(counted, (num_counted + 1) * sizeof *counted);
      counted[num_counted++] = r->value;
      s += r->bytes;
    }
  }
  free(counted);
  return s;
}

/* ---- cycles ---- */

/* Is `target` reachable from group `from` (through any groups)? */
static bool reaches(const FkGraph *g, int from, int target, bool *visited) {
  int *stack = malloc((g->num_nodes + 1) * sizeof *stack);
  size_t top = 0;
  bool found = false;
  stack[top++] = from;
  visited[from] = true;
  while (top && !found) {
    const FkGroup *cur = &g->groups[stack[--top]];
    for (size_t m = 0; m < cur->num_members && !found; ++m) {
      const FkNode *n = &g->nodes[cur->members[m]];
      for (size_t k = 0; k < n->num_results && !found; ++k)
        for (size_t u = 0; u < n->results[k].num_users && !found; ++u) {
          int next = g->nodes[n->results[k].users[u]].group;
          found = next == target;
          if (!found && !visited[next]) {
            visited[next] = true;
            stack[top++] = next;
          }
        }
    }
  }
  free(stack);
  return found;
}

/* Fusing a and b creates a cycle when a path leaves one of them through another
 * group and comes back to the other. */
static bool creates_cycle(const FkGraph *g, int ga, int gb) {
  bool *visited = calloc(g->num_nodes + 1, sizeof *visited);
  bool cycle = false;
  for (int pass = 0; pass < 2 && !cycle; ++pass) {
    int from = pass ? gb : ga, to = pass ? ga : gb;
    const FkGroup *gr = &g->groups[from];
    for (size_t m = 0; m < gr->num_members && !cycle; ++m) {
      const FkNode *n = &g->nodes[gr->members[m]];
      for (size_t k = 0; k < n->num_results && !cycle; ++k)
        for (size_t u = 0; u < n->results[k].num_users && !cycle; ++u) {
          int next = g->nodes[n->results[k].users[u]].group;
          if (next == to || next == from || visited[next])
            continue;
          visited[next] = true;
          cycle = reaches(g, next, to, visited);
        }
    }
    memset(visited, 0, (g->num_nodes + 1) * sizeof *visited);
  }
  free(visited);
  return cycle;
}

/* ---- the verdict ---- */

static FkReason kind_rules(const FkGraph *g, const FkGroup *a, const FkGroup *b) {
  if (g->rules.disable)
    return FK_DISABLED;
  if (a->opaque || b->opaque || a->sealed || b->sealed)
    return FK_NOT_FUSABLE;
  if (a->has_ext || b->has_ext)
    return FK_EXTERN;
  if (a->has_contraction && b->has_contraction)
    return FK_TWO_CONTRACTIONS;
  if ((a->has_contraction || b->has_contraction) && !g->rules.epilogue_templates)
    return FK_MATMUL_EPILOGUE_DISABLED;
  return FK_OK;
}

static FkVerdict verdict(const FkGraph *g, int ga, int gb, bool check_cycle, Plan *plan_out) {
  const FkGroup *a = &g->groups[ga], *b = &g->groups[gb];
  Links l = links(g, ga, gb);
  FkVerdict v = {FK_OK, l.edge ? (l.any_epilogue ? FK_CAT_EPILOGUE : FK_CAT_VERTICAL) : FK_CAT_HORIZONTAL, 0};
  v.score = score(g, ga, gb);
  Plan plan;
  v.reason = kind_rules(g, a, b);
  if (v.reason == FK_OK && !l.edge && !l.shared)
    v.reason = FK_NOT_ADJACENT;
  if (v.reason == FK_OK && !space_plan(g, ga, gb, &plan))
    v.reason = FK_SPACE_MISMATCH;
  if (v.reason == FK_OK && !l.edge && g->rules.no_horizontal)
    v.reason = FK_HORIZONTAL_DISABLED;
  if (v.reason == FK_OK && l.red_epilogue && g->rules.no_epilogue)
    v.reason = FK_EPILOGUE_DISABLED;
  if (v.reason == FK_OK && !indexing_ok(g, &plan))
    v.reason = FK_INDEXING_MISMATCH;
  if (v.reason == FK_OK && (long long)(a->num_ops + b->num_ops) > g->rules.max_ops)
    v.reason = FK_MAX_OPS;
  if (v.reason == FK_OK && check_cycle && creates_cycle(g, ga, gb))
    v.reason = FK_CYCLE;
  if (plan_out && v.reason == FK_OK)
    *plan_out = plan;
  return v;
}

FkVerdict fk_can_fuse_nodes(const FkGraph *g, int a, int b) {
  int ga = g->nodes[a].group, gb = g->nodes[b].group;
  if (ga == gb) {
    FkVerdict v = {FK_OK, FK_CAT_VERTICAL, g->groups[ga].score};
    for (size_t i = 0; i < g->num_cands; ++i)
      if ((g->cands[i].a == a && g->cands[i].b == b) || (g->cands[i].a == b && g->cands[i].b == a))
        v.category = g->cands[i].category;
    return v;
  }
  return verdict(g, ga, gb, true, NULL);
}

/* ---- merging and the greedy loop ---- */

/* base's members become the sorted union; other's nodes move to base's group. */
static void merge_members(FkGraph *g, FkGroup *base, FkGroup *other) {
  int *all = malloc((base->num_members + other->num_members) * sizeof *all);
  size_t i = 0, j = 0, n = 0;
  int id = g->nodes[base->members[0]].group;
  while (i < base->num_members || j < other->num_members) {
    if (j == other->num_members || (i < base->num_members && base->members[i] < other->members[j]))
      all[n++] = base->members[i++];
    else
      all[n++] = other->members[j++];
  }
  for (size_t m = 0; m < other->num_members; ++m)
    g->nodes[other->members[m]].group = id;
  free(base->members);
  base->members = all;
  base->num_members = n;
  free(other->members);
  other->members = NULL;
  other->num_members = 0;
}

static void merge(FkGraph *g, const Plan *plan, int64_t saved) {
  FkGroup *base = &g->groups[plan->base], *other = &g->groups[plan->other];
  for (size_t m = 0; m < other->num_members; ++m) {
    FkNode *n = &g->nodes[other->members[m]];
    for (int d = 0; d < n->rank; ++d)
      n->align[d] = merged_loop(g, plan, other->members[m], d);
  }
  merge_members(g, base, other);
  base->has_red |= other->has_red;
  base->has_contraction |= other->has_contraction;
  base->num_ops += other->num_ops;
  base->score += other->score + saved;
  base->version++;
  other->alive = false;
}

typedef struct {
  int ga, gb;         /* ga < gb */
  unsigned va, vb;    /* the groups' versions when v was computed */
  int distance;       /* smallest distance in program order of a candidate pair between them */
  int min_a, min_b;
  FkVerdict v;
} Option;

static int compare_pairs(const void *x, const void *y) {
  const Option *a = x, *b = y;
  if (a->ga != b->ga)
    return a->ga < b->ga ? -1 : 1;
  if (a->gb != b->gb)
    return a->gb < b->gb ? -1 : 1;
  return a->distance - b->distance;
}

/* Higher score first; then vertical > reduction-epilogue > horizontal; then the
 * closer pair; then program order. */
static int compare_priority(const void *x, const void *y) {
  const Option *a = x, *b = y;
  if (a->v.score != b->v.score)
    return a->v.score > b->v.score ? -1 : 1;
  if (a->v.category != b->v.category)
    return (int)a->v.category - (int)b->v.category;
  if (a->distance != b->distance)
    return a->distance - b->distance;
  if (a->min_a != b->min_a)
    return a->min_a - b->min_a;
  return a->min_b - b->min_b;
}

static int group_min(const FkGraph *g, int group) { return g->groups[group].members[0]; }

/* The verdicts of the previous round: a pair's verdict (without the cycle check)
 * depends only on its two groups, so it is reused until one of them changes. */
typedef struct {
  Option *items;
  size_t count;
} OptionCache;

static const Option *cached(const OptionCache *cache, int ga, int gb) {
  size_t lo = 0, hi = cache->count;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    const Option *o = &cache->items[mid];
    if (o->ga == ga && o->gb == gb)
      return o;
    if (o->ga < ga || (o->ga == ga && o->gb < gb))
      lo = mid + 1;
    else
      hi = mid;
  }
  return NULL;
}

/* The distinct group pairs of the candidates, sorted by (ga, gb), each with its
 * verdict (the cycle check runs later, lazily, in priority order). */
static size_t evaluate_pairs(const FkGraph *g, const OptionCache *cache, Option **out) {
  Option *opts = calloc(g->num_cands + 1, sizeof *opts);
  size_t n = 0;
  for (size_t i = 0; i < g->num_cands; ++i) {
    int ga = g->nodes[g->cands[i].a].group, gb = g->nodes[g->cands[i].b].group;
    if (ga == gb)
      continue;
    Option o = {.ga = ga < gb ? ga : gb, .gb = ga < gb ? gb : ga, .distance = g->cands[i].b - g->cands[i].a};
    opts[n++] = o;
  }
  qsort(opts, n, sizeof *opts, compare_pairs);
  size_t kept = 0;
  for (size_t i = 0; i < n; ++i) {
    if (kept && opts[kept - 1].ga == opts[i].ga && opts[kept - 1].gb == opts[i].gb)
      continue; /* sorted by distance within a pair: the first is the closest */
    Option o = opts[i];
    o.va = g->groups[o.ga].version;
    o.vb = g->groups[o.gb].version;
    const Option *old = cached(cache, o.ga, o.gb);
    if (old && old->va == o.va && old->vb == o.vb)
      o.v = old->v;
    else
      o.v = verdict(g, o.ga, o.gb, false, NULL);
    o.min_a = group_min(g, o.ga);
    o.min_b = group_min(g, o.gb);
    if (o.min_a > o.min_b) {
      int t = o.min_a;
      o.min_a = o.min_b;
      o.min_b = t;
    }
    opts[kept++] = o;
  }
  *out = opts;
  return kept;
}

static bool fuse_best(FkGraph *g, OptionCache *cache) {
  Option *all = NULL;
  size_t n = evaluate_pairs(g, cache, &all);
  Option *legal = calloc(n + 1, sizeof *legal);
  size_t num_legal = 0;
  for (size_t i = 0; i < n; ++i)
    if (all[i].v.reason == FK_OK)
      legal[num_legal++] = all[i];
  qsort(legal, num_legal, sizeof *legal, compare_priority);
  bool fused = false;
  for (size_t i = 0; i < num_legal && !fused; ++i) {
    Plan plan;
    FkVerdict v = verdict(g, legal[i].ga, legal[i].gb, true, &plan);
    if (v.reason != FK_OK)
      continue;
    g->steps = realloc(g->steps, (g->num_steps + 1) * sizeof *g->steps);
    g->steps[g->num_steps++] = (FkStep){legal[i].min_a, legal[i].min_b, v.category, v.score};
    merge(g, &plan, v.score);
    fused = true;
  }
  free(legal);
  free(cache->items);
  cache->items = all;
  cache->count = n;
  return fused;
}

static bool same_space(const FkNode *n, const FkGroup *gr) {
  if (n->rank != gr->rank)
    return false;
  for (int d = 0; d < n->rank; ++d)
    if (n->space[d] != gr->space[d])
      return false;
  return true;
}

/* The tensor.insert_slice chain of one concat (each insert's destination is the
 * previous insert) is one kernel: codegen writes every slice into one buffer. Its
 * inserts have the sources' spaces, which differ when the inputs' sizes do, so the
 * chain is put into one group before the greedy loop; such a group (sealed) fuses
 * with nothing else. */
static void group_insert_chains(FkGraph *g) {
  for (size_t i = 0; i < g->num_nodes; ++i) {
    FkNode *n = &g->nodes[i];
    if (n->cls != FK_NODE_INSERT)
      continue;
    MlirValue dest = mlirOperationGetOperand(n->op, 1);
    int p = -1;
    for (size_t r = 0; r < n->num_reads; ++r)
      if (mlirValueEqual(n->reads[r].value, dest))
        p = n->reads[r].producer;
    if (p < 0 || g->nodes[p].cls != FK_NODE_INSERT || g->nodes[p].group == n->group)
      continue;
    FkGroup *base = &g->groups[g->nodes[p].group], *other = &g->groups[n->group];
    bool sealed = base->sealed || other->sealed || !same_space(n, base);
    int min_a = base->members[0], min_b = other->members[0];
    merge_members(g, base, other);
    base->has_red |= other->has_red;
    base->has_contraction |= other->has_contraction;
    base->num_ops += other->num_ops;
    base->score += other->score;
    base->sealed = sealed;
    base->version++;
    other->alive = false;
    g->steps = realloc(g->steps, (g->num_steps + 1) * sizeof *g->steps);
    g->steps[g->num_steps++] = (FkStep){min_a < min_b ? min_a : min_b, min_a < min_b ? min_b : min_a,
                                        FK_CAT_VERTICAL, 0};
    for (size_t c = 0; c < g->num_cands; ++c)
      if (!g->cands[c].step && g->nodes[g->cands[c].a].group == g->nodes[g->cands[c].b].group)
        g->cands[c].step = (int)g->num_steps;
  }
}

void fk_schedule(FkGraph *g) {
  group_insert_chains(g);
  for (size_t i = 0; i < g->num_cands; ++i) {
    FkCandidate *c = &g->cands[i];
    FkVerdict v = verdict(g, g->nodes[c->a].group, g->nodes[c->b].group, false, NULL);
    c->category = v.category;
    c->score = v.score;
  }
  OptionCache cache = {0};
  while (fuse_best(g, &cache))
    for (size_t i = 0; i < g->num_cands; ++i) {
      FkCandidate *c = &g->cands[i];
      if (!c->step && g->nodes[c->a].group == g->nodes[c->b].group)
        c->step = (int)g->num_steps;
    }
  free(cache.items);
  for (size_t i = 0; i < g->num_cands; ++i) {
    FkCandidate *c = &g->cands[i];
    if (!c->step)
      c->reason = verdict(g, g->nodes[c->a].group, g->nodes[c->b].group, true, NULL).reason;
  }
}
