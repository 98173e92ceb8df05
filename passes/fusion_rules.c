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
  for (size_t i = 0; i < g->num_nodes; ++i) {
    const FkNode *n = &g->nodes[i];
    if (n->group != group)
      continue;
    for (size_t k = 0; k < n->num_reads; ++k)
      if (!n->reads[k].support && mlirValueEqual(n->reads[k].value, v))
        return true;
  }
  return false;
}

static Links links(const FkGraph *g, int ga, int gb) {
  Links l = {0};
  for (size_t i = 0; i < g->num_nodes; ++i) {
    const FkNode *c = &g->nodes[i];
    if (c->group != ga && c->group != gb)
      continue;
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
  for (size_t i = 0; i < g->num_nodes; ++i) {
    const FkNode *c = &g->nodes[i];
    if (!in_pair(g, (int)i, plan->base, plan->other))
      continue;
    for (size_t k = 0; k < c->num_reads; ++k) {
      const FkRead *r = &c->reads[k];
      if (r->producer < 0 || g->nodes[r->producer].group == c->group ||
          !in_pair(g, r->producer, plan->base, plan->other))
        continue;
      if (!edge_aligned(g, plan, (int)i, r))
        return false;
    }
  }
  return true;
}

/* ---- score ---- */

/* Bytes saved: results of one group read by the other and by nobody else (the
 * intermediate never goes to memory), plus inputs both groups read (read once). */
static int64_t score(const FkGraph *g, int ga, int gb) {
  int64_t s = 0;
  MlirValue *counted = calloc(1, sizeof *counted);
  size_t num_counted = 0;
  for (size_t i = 0; i < g->num_nodes; ++i) {
    const FkNode *n = &g->nodes[i];
    if (n->group != ga && n->group != gb)
      continue;
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
    if (n->group != ga)
      continue;
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
    int cur = stack[--top];
    for (size_t i = 0; i < g->num_nodes && !found; ++i) {
      const FkNode *n = &g->nodes[i];
      if (n->group != cur)
        continue;
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
    for (size_t i = 0; i < g->num_nodes && !cycle; ++i) {
      const FkNode *n = &g->nodes[i];
      if (n->group != from)
        continue;
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
  if (a->opaque || b->opaque)
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

static void merge(FkGraph *g, const Plan *plan, int64_t saved) {
  FkGroup *base = &g->groups[plan->base], *other = &g->groups[plan->other];
  for (size_t i = 0; i < g->num_nodes; ++i) {
    FkNode *n = &g->nodes[i];
    if (n->group != plan->other)
      continue;
    for (int d = 0; d < n->rank; ++d)
      n->align[d] = merged_loop(g, plan, (int)i, d);
    n->group = plan->base;
  }
  base->has_red |= other->has_red;
  base->has_contraction |= other->has_contraction;
  base->num_ops += other->num_ops;
  base->score += other->score + saved;
  other->alive = false;
}

typedef struct {
  int ga, gb;   /* ga < gb */
  int distance; /* smallest distance in program order of a candidate pair between them */
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

static int group_min(const FkGraph *g, int group) {
  for (size_t i = 0; i < g->num_nodes; ++i)
    if (g->nodes[i].group == group)
      return (int)i;
  return -1;
}

/* The distinct group pairs of the candidates, each evaluated (without the cycle
 * check, which runs lazily in priority order); only legal ones are kept. */
static size_t legal_options(const FkGraph *g, Option **out) {
  Option *opts = calloc(g->num_cands + 1, sizeof *opts);
  size_t n = 0;
  for (size_t i = 0; i < g->num_cands; ++i) {
    int ga = g->nodes[g->cands[i].a].group, gb = g->nodes[g->cands[i].b].group;
    if (ga == gb)
      continue;
    opts[n++] = (Option){ga < gb ? ga : gb, ga < gb ? gb : ga, g->cands[i].b - g->cands[i].a, 0, 0, {0}};
  }
  qsort(opts, n, sizeof *opts, compare_pairs);
  size_t kept = 0;
  for (size_t i = 0; i < n; ++i) {
    if (kept && opts[kept - 1].ga == opts[i].ga && opts[kept - 1].gb == opts[i].gb)
      continue; /* sorted by distance within a pair: the first is the closest */
    Option o = opts[i];
    o.v = verdict(g, o.ga, o.gb, false, NULL);
    if (o.v.reason != FK_OK)
      continue;
    o.min_a = group_min(g, o.ga);
    o.min_b = group_min(g, o.gb);
    if (o.min_a > o.min_b) {
      int t = o.min_a;
      o.min_a = o.min_b;
      o.min_b = t;
    }
    opts[kept++] = o;
  }
  qsort(opts, kept, sizeof *opts, compare_priority);
  *out = opts;
  return kept;
}

static bool fuse_best(FkGraph *g) {
  Option *opts = NULL;
  size_t n = legal_options(g, &opts);
  bool fused = false;
  for (size_t i = 0; i < n && !fused; ++i) {
    Plan plan;
    FkVerdict v = verdict(g, opts[i].ga, opts[i].gb, true, &plan);
    if (v.reason != FK_OK)
      continue;
    g->steps = realloc(g->steps, (g->num_steps + 1) * sizeof *g->steps);
    g->steps[g->num_steps++] = (FkStep){opts[i].min_a, opts[i].min_b, v.category, v.score};
    merge(g, &plan, v.score);
    fused = true;
  }
  free(opts);
  return fused;
}

void fk_schedule(FkGraph *g) {
  for (size_t i = 0; i < g->num_cands; ++i) {
    FkCandidate *c = &g->cands[i];
    FkVerdict v = verdict(g, g->nodes[c->a].group, g->nodes[c->b].group, false, NULL);
    c->category = v.category;
    c->score = v.score;
  }
  while (fuse_best(g))
    for (size_t i = 0; i < g->num_cands; ++i) {
      FkCandidate *c = &g->cands[i];
      if (!c->step && g->nodes[c->a].group == g->nodes[c->b].group)
        c->step = (int)g->num_steps;
    }
  for (size_t i = 0; i < g->num_cands; ++i) {
    FkCandidate *c = &g->cands[i];
    if (!c->step)
      c->reason = verdict(g, g->nodes[c->a].group, g->nodes[c->b].group, true, NULL).reason;
  }
}
