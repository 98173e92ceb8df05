/* can_fuse, score and the greedy scheduler of form-kernels (see passes/fusion/graph.h).
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
#include "dialects/graph/graph.h"
#include "mlir-c/BuiltinTypes.h"
#include "passes/fusion/graph.h"
#include "support/ptrmap.h"

const char *fk_reason_name(FkReason r) {
  switch (r) {
  case FK_OK: return "none";
  case FK_DISABLED: return "disabled";
  case FK_NOT_FUSABLE: return "not-fusable";
  case FK_EXTERN: return "extern-kernel";
  case FK_TWO_CONTRACTIONS: return "two-contractions";
  case FK_CONTRACTION_CONCAT: return "contraction-concat";
  case FK_SEPARATE_COLLECTIVES: return "separate-collectives";
  case FK_MATMUL_EPILOGUE_DISABLED: return "matmul-epilogue-disabled";
  case FK_SPACE_MISMATCH: return "iteration-space-mismatch";
  case FK_HORIZONTAL_DISABLED: return "horizontal-disabled";
  case FK_EPILOGUE_DISABLED: return "epilogue-disabled";
  case FK_INDEXING_MISMATCH: return "indexing-mismatch";
  case FK_MAX_OPS: return "max-ops";
  case FK_CYCLE: return "cycle";
  case FK_NOT_ADJACENT: return "not-adjacent";
  case FK_NOT_IN_PLAN: return "not-in-plan";
  case FK_FORBIDDEN: return "forbidden";
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
  if (a->has_red && b->has_red) /* two contraction groups: kind_rules allowed them */
    return a->has_contraction == b->has_contraction && same_loops(a, b, true);
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
    /* A unit loop only takes index 0, on either side of an edge: a contraction's
     * [1, 1, M, N] batch loops are its own loops, its epilogue's are unit loops. */
    if (d < dims && n->space[d] == 1)
      loop = -1;
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

/* A new search: no group visited (the epoch moves on instead of clearing marks). */
static FkSearch *search_begin(const FkGraph *g) {
  FkSearch *s = g->search;
  if (++s->epoch == 0) {
    memset(s->mark, 0, (g->num_nodes + 1) * sizeof *s->mark);
    s->epoch = 1;
  }
  return s;
}

static bool visited(const FkSearch *s, int group) { return s->mark[group] == s->epoch; }

/* Is `target` reachable from group `from` (through any groups)? Groups visited by an
 * earlier call of the same search are not entered again. */
static bool reaches(const FkGraph *g, FkSearch *s, int from, int target) {
  int *stack = s->stack; /* a group is pushed once per search: num_nodes slots suffice */
  size_t top = 0;
  bool found = false;
  stack[top++] = from;
  s->mark[from] = s->epoch;
  while (top && !found) {
    const FkGroup *cur = &g->groups[stack[--top]];
    for (size_t m = 0; m < cur->num_members && !found; ++m) {
      const FkNode *n = &g->nodes[cur->members[m]];
      for (size_t k = 0; k < n->num_results && !found; ++k)
        for (size_t u = 0; u < n->results[k].num_users && !found; ++u) {
          int next = g->nodes[n->results[k].users[u]].group;
          found = next == target;
          if (!found && !visited(s, next)) {
            s->mark[next] = s->epoch;
            stack[top++] = next;
          }
        }
    }
  }
  return found;
}

/* Fusing a and b creates a cycle when a path leaves one of them through another
 * group and comes back to the other. */
static bool creates_cycle(const FkGraph *g, int ga, int gb) {
  bool cycle = false;
  for (int pass = 0; pass < 2 && !cycle; ++pass) {
    FkSearch *s = search_begin(g);
    int from = pass ? gb : ga, to = pass ? ga : gb;
    const FkGroup *gr = &g->groups[from];
    for (size_t m = 0; m < gr->num_members && !cycle; ++m) {
      const FkNode *n = &g->nodes[gr->members[m]];
      for (size_t k = 0; k < n->num_results && !cycle; ++k)
        for (size_t u = 0; u < n->results[k].num_users && !cycle; ++u) {
          int next = g->nodes[n->results[k].users[u]].group;
          if (next == to || next == from || visited(s, next))
            continue;
          cycle = reaches(g, s, next, to);
        }
    }
  }
  return cycle;
}

/* ---- a fusion plan's constraints ---- */

static bool plan_allows(const FkGraph *g, int ga, int gb) {
  const int *label = g->plan.label;
  return !label || label[g->groups[ga].members[0]] == label[g->groups[gb].members[0]];
}

static bool forbidden(const FkGraph *g, int ga, int gb) {
  for (size_t i = 0; i < g->plan.num_forbid; ++i) {
    int x = g->nodes[g->plan.forbid[i][0]].group, y = g->nodes[g->plan.forbid[i][1]].group;
    if ((x == ga && y == gb) || (x == gb && y == ga))
      return true;
  }
  return false;
}

/* ---- the verdict ---- */

/* The group's contraction node (the first). */
static const FkNode *contraction_of(const FkGraph *g, const FkGroup *gr) {
  for (size_t m = 0; m < gr->num_members; ++m)
    if (g->nodes[gr->members[m]].contraction)
      return &g->nodes[gr->members[m]];
  return NULL;
}

/* Whether a contraction of group `a` reads a result of group `b`. */
static bool contraction_reads(const FkGraph *g, const FkGroup *a, const FkGroup *b) {
  for (size_t m = 0; m < a->num_members; ++m) {
    const FkNode *n = &g->nodes[a->members[m]];
    for (size_t r = 0; n->contraction && r < n->num_reads; ++r)
      for (size_t k = 0; n->reads[r].producer >= 0 && k < b->num_members; ++k)
        if (n->reads[r].producer == b->members[k])
          return true;
  }
  return false;
}

/* horizontal-templates: two groups of one contraction each, whose products read the same
 * A (operand 0, at the same map) and neither reads the other's results (the gate and up
 * projections of one h; an epilogue may read both). One tem kernel then computes both
 * tiles from one pass over A. */
static bool horizontal_contractions(const FkGraph *g, const FkGroup *a, const FkGroup *b) {
  if (!g->rules.horizontal_templates || a->contractions != 1 || b->contractions != 1)
    return false;
  const FkNode *x = contraction_of(g, a), *y = contraction_of(g, b);
  if (!x || !y || x->num_reads < 2 || y->num_reads < 2 || !x->reads[0].has_map || !y->reads[0].has_map)
    return false;
  MlirType a_elem = mlirShapedTypeGetElementType(mlirValueGetType(x->reads[0].value));
  if (g->rules.horizontal_half_only && !mlirTypeIsAF16(a_elem) && !mlirTypeIsABF16(a_elem))
    return false;
  return mlirValueEqual(x->reads[0].value, y->reads[0].value) &&
         mlirAffineMapEqual(x->reads[0].map, y->reads[0].map) && !contraction_reads(g, a, b) &&
         !contraction_reads(g, b, a);
}

/* Whether a node of `grp` has a result that a collective reads. */
static bool feeds_collective(const FkGraph *g, const FkGroup *grp) {
  for (size_t m = 0; m < grp->num_members; ++m) {
    const FkNode *n = &g->nodes[grp->members[m]];
    for (size_t r = 0; r < n->num_results; ++r)
      for (size_t u = 0; u < n->results[r].num_users; ++u) {
        MlirOperation user = g->nodes[n->results[r].users[u]].op;
        if (braze_graph_op_mnemonic(user) && braze_graph_op_class(user) == GRAPH_COLLECTIVE)
          return true;
      }
  }
  return false;
}

static FkReason kind_rules(const FkGraph *g, const FkGroup *a, const FkGroup *b) {
  if (g->rules.disable)
    return FK_DISABLED;
  if (a->opaque || b->opaque || a->sealed || b->sealed)
    return FK_NOT_FUSABLE;
  if (a->has_ext || b->has_ext)
    return FK_EXTERN;
  if (a->has_contraction && b->has_contraction && !horizontal_contractions(g, a, b))
    return FK_TWO_CONTRACTIONS;
  if ((a->has_contraction || b->has_contraction) && !g->rules.epilogue_templates)
    return FK_MATMUL_EPILOGUE_DISABLED;
  /* The matmul templates (CPU and CUDA) compute tiles of the product's space and store
   * each result there; a concat writes its pieces into another, larger tensor, which
   * only the element kernel does: such a group would lose the template (the last chunk
   * of a token-chunked FFN: 47 ms instead of 3 on one H100). */
  if ((a->has_contraction && b->has_insert) || (b->has_contraction && a->has_insert))
    return FK_CONTRACTION_CONCAT;
  return FK_OK;
}

static FkVerdict verdict(const FkGraph *g, int ga, int gb, bool check_cycle, Plan *plan_out) {
  const FkGroup *a = &g->groups[ga], *b = &g->groups[gb];
  Links l = links(g, ga, gb);
  FkVerdict v = {FK_OK, l.edge ? (l.any_epilogue ? FK_CAT_EPILOGUE : FK_CAT_VERTICAL) : FK_CAT_HORIZONTAL, 0};
  v.score = score(g, ga, gb);
  Plan plan;
  v.reason = kind_rules(g, a, b);
  /* Two pieces of work that each end in a collective (shard-chunk's chunks): in one
   * kernel, the first collective would wait for both, and nothing would overlap it. */
  if (v.reason == FK_OK && !l.edge && feeds_collective(g, a) && feeds_collective(g, b))
    v.reason = FK_SEPARATE_COLLECTIVES;
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
  /* After the rules: a plan's refusals name the rule where one applies. */
  if (v.reason == FK_OK && !plan_allows(g, ga, gb))
    v.reason = FK_NOT_IN_PLAN;
  if (v.reason == FK_OK && forbidden(g, ga, gb))
    v.reason = FK_FORBIDDEN;
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

void fk_merge_members(FkGraph *g, FkGroup *base, FkGroup *other) {
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
  fk_merge_members(g, base, other);
  base->has_red |= other->has_red;
  base->has_contraction |= other->has_contraction;
  base->has_insert |= other->has_insert;
  base->contractions += other->contractions;
  base->num_ops += other->num_ops;
  base->score += other->score + saved;
  base->version++;
  other->alive = false;
}

/* A legal fusion of two groups, as the greedy loop ranks it. */
typedef struct {
  int ga, gb;         /* ga < gb */
  unsigned va, vb;    /* the groups' versions when v was computed */
  int distance;       /* smallest distance in program order of a candidate pair between them */
  int min_a, min_b;
  FkVerdict v;
} Option;

/* Higher score first; then vertical > reduction-epilogue > horizontal; then the
 * closer pair; then program order. A total order: (min_a, min_b) names the pair. */
static int compare_priority(const Option *a, const Option *b) {
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

/* ---- the option heap ----
 * Rounds used to re-evaluate and re-sort every pair; instead, the legal options wait in
 * a binary heap (first in priority order on top). A merge only changes the verdicts of
 * pairs that touch the merged group: their old entries go stale (a group died or its
 * version moved) and are dropped when they reach the top, and the merged group's pairs
 * are pushed anew. Pairs of untouched groups keep their verdict, distance and rank. */
typedef struct {
  Option *items;
  size_t count, cap;
} Heap;

static void heap_swap(Heap *h, size_t i, size_t j) {
  Option t = h->items[i];
  h->items[i] = h->items[j];
  h->items[j] = t;
}

static void heap_push(Heap *h, const Option *o) {
  if (h->count == h->cap) {
    h->cap = h->cap ? 2 * h->cap : 64;
    h->items = realloc(h->items, h->cap * sizeof *h->items);
  }
  size_t i = h->count++;
  h->items[i] = *o;
  while (i > 0 && compare_priority(&h->items[i], &h->items[(i - 1) / 2]) < 0) {
    heap_swap(h, i, (i - 1) / 2);
    i = (i - 1) / 2;
  }
}

static Option heap_pop(Heap *h) {
  Option top = h->items[0];
  h->items[0] = h->items[--h->count];
  for (size_t i = 0;;) {
    size_t best = i, l = 2 * i + 1, r = l + 1;
    if (l < h->count && compare_priority(&h->items[l], &h->items[best]) < 0)
      best = l;
    if (r < h->count && compare_priority(&h->items[r], &h->items[best]) < 0)
      best = r;
    if (best == i)
      break;
    heap_swap(h, i, best);
    i = best;
  }
  return top;
}

/* ---- neighbours of a group ---- */

/* Scratch for listing the groups linked to one group by candidate pairs. */
typedef struct {
  int *dist;   /* per group: smallest pair distance to it, -1 when not linked */
  int *list;   /* the linked groups, in discovery order */
  size_t count;
} Neighbours;

/* Lists the groups linked to `group` by a candidate pair, with the smallest distance
 * in program order of such a pair (through the candidates of its members only). */
static void neighbours(const FkGraph *g, int group, Neighbours *nb) {
  for (size_t i = 0; i < nb->count; ++i)
    nb->dist[nb->list[i]] = -1;
  nb->count = 0;
  const FkGroup *gr = &g->groups[group];
  for (size_t m = 0; m < gr->num_members; ++m) {
    int node = gr->members[m];
    for (size_t k = g->node_cand_start[node]; k < g->node_cand_start[node + 1]; ++k) {
      const FkCandidate *c = &g->cands[g->node_cands[k]];
      int other = g->nodes[c->a == node ? c->b : c->a].group, d = c->b - c->a;
      if (other == group)
        continue;
      if (nb->dist[other] < 0)
        nb->list[nb->count++] = other;
      if (nb->dist[other] < 0 || d < nb->dist[other])
        nb->dist[other] = d;
    }
  }
}

/* Pushes the pair of groups x and y when it is legal now (the cycle check runs
 * lazily, when the option reaches the top). */
static void offer(const FkGraph *g, Heap *h, int x, int y, int distance) {
  Option o = {.ga = x < y ? x : y, .gb = x < y ? y : x, .distance = distance};
  o.v = verdict(g, o.ga, o.gb, false, NULL);
  if (o.v.reason != FK_OK)
    return;
  o.va = g->groups[o.ga].version;
  o.vb = g->groups[o.gb].version;
  int ma = group_min(g, o.ga), mb = group_min(g, o.gb);
  o.min_a = ma < mb ? ma : mb;
  o.min_b = ma < mb ? mb : ma;
  heap_push(h, &o);
}

/* Pushes the pairs of `group` with every linked group (with a higher id only when
 * `higher_only`: the initial pass offers each pair once). */
static void offer_group(const FkGraph *g, Heap *h, Neighbours *nb, int group, bool higher_only) {
  neighbours(g, group, nb);
  for (size_t i = 0; i < nb->count; ++i)
    if (!higher_only || nb->list[i] > group)
      offer(g, h, group, nb->list[i], nb->dist[nb->list[i]]);
}

static bool is_stale(const FkGraph *g, const Option *o) {
  const FkGroup *a = &g->groups[o->ga], *b = &g->groups[o->gb];
  return !a->alive || !b->alive || a->version != o->va || b->version != o->vb;
}

/* Candidates of group's members that the last step put in one group get its number. */
static void mark_fused(FkGraph *g, int group) {
  const FkGroup *gr = &g->groups[group];
  for (size_t m = 0; m < gr->num_members; ++m) {
    int node = gr->members[m];
    for (size_t k = g->node_cand_start[node]; k < g->node_cand_start[node + 1]; ++k) {
      FkCandidate *c = &g->cands[g->node_cands[k]];
      if (!c->step && g->nodes[c->a].group == g->nodes[c->b].group)
        c->step = (int)g->num_steps;
    }
  }
}

static void add_step(FkGraph *g, FkStep step) {
  g->steps = realloc(g->steps, (g->num_steps + 1) * sizeof *g->steps);
  g->steps[g->num_steps++] = step;
}

/* The greedy loop: the first option in priority order whose groups are unchanged and
 * that creates no cycle is applied. An option refused for a cycle is dropped: a path
 * between two groups through others survives every merge that leaves both groups as
 * they are (merging groups on a path keeps a path), and a merge that changes one of
 * them offers the pair anew. */
static void fuse_greedily(FkGraph *g) {
  Heap h = {0};
  Neighbours nb = {calloc(g->num_nodes + 1, sizeof *nb.dist), calloc(g->num_nodes + 1, sizeof *nb.list), 0};
  for (size_t i = 0; i < g->num_nodes; ++i)
    nb.dist[i] = -1;
  for (size_t i = 0; i < g->num_nodes; ++i)
    if (g->groups[i].alive)
      offer_group(g, &h, &nb, (int)i, true);
  while (h.count) {
    Option o = heap_pop(&h);
    if (is_stale(g, &o))
      continue;
    Plan plan;
    FkVerdict v = verdict(g, o.ga, o.gb, true, &plan);
    if (v.reason != FK_OK)
      continue;
    add_step(g, (FkStep){o.min_a, o.min_b, v.category, v.score});
    merge(g, &plan, v.score);
    mark_fused(g, plan.base);
    offer_group(g, &h, &nb, plan.base, false);
  }
  free(h.items);
  free(nb.dist);
  free(nb.list);
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
    fk_merge_members(g, base, other);
    base->has_red |= other->has_red;
    base->has_contraction |= other->has_contraction;
    base->has_insert |= other->has_insert;
    base->contractions += other->contractions;
    base->num_ops += other->num_ops;
    base->score += other->score;
    base->sealed = sealed;
    base->version++;
    other->alive = false;
    add_step(g, (FkStep){min_a < min_b ? min_a : min_b, min_a < min_b ? min_b : min_a, FK_CAT_VERTICAL, 0});
    mark_fused(g, g->nodes[p].group);
  }
}

/* The final refusal reason of a candidate pair depends only on its two (final)
 * groups: pairs between the same groups share one verdict. */
static FkReason final_reason(const FkGraph *g, BrazePtrMap *reasons, int ga, int gb) {
  uint64_t key = ((uint64_t)(uint32_t)(ga + 1) << 32) | (uint32_t)gb;
  int r = braze_ptrmap_get(reasons, key, -1);
  if (r < 0) {
    r = (int)verdict(g, ga, gb, true, NULL).reason;
    braze_ptrmap_put(reasons, key, r);
  }
  return (FkReason)r;
}

void fk_schedule(FkGraph *g) {
  group_insert_chains(g);
  for (size_t i = 0; i < g->num_cands; ++i) {
    FkCandidate *c = &g->cands[i];
    FkVerdict v = verdict(g, g->nodes[c->a].group, g->nodes[c->b].group, false, NULL);
    c->category = v.category;
    c->score = v.score;
  }
  fuse_greedily(g);
  BrazePtrMap reasons = {0};
  for (size_t i = 0; i < g->num_cands; ++i) {
    FkCandidate *c = &g->cands[i];
    if (!c->step)
      c->reason = final_reason(g, &reasons, g->nodes[c->a].group, g->nodes[c->b].group);
  }
  braze_ptrmap_free(&reasons);
}
