/* form-kernels{pad-templates}: a zero pad joins the template kernel that reads it
 * (decision 0024). After the greedy scheduler, a node that is a zero pad of
 * channels-last data (passes/loops/zero-pad-read.h: graph-decompose's gather-select
 * copy of a padded conv's input), alone in its group and read only by a contraction as
 * that contraction's A (operand 0), moves into the contraction's group: the `tem`
 * kernel then holds the pad generic before its contraction (docs/architecture.md,
 * "A tem kernel"), and a target whose template reads A with the padding implicit
 * (the CPU's: targets/cpu/matmul/a-pad.c) writes no padded copy. A target that asks
 * for no pad-templates (CUDA's pipeline) keeps the pad as its own kernel. The scheduler
 * never fuses across the two spaces (the pad's [B, Lp, C] is not the product's), so
 * this is a step of its own rather than a rule of can_fuse. pad-templates=P takes only
 * pads whose padding is at most P% of their padded positions (the CPU's: its template
 * copies each run across the border once per N panel, which costs more than the pad
 * kernel once the border is a large share: 7x7 and 14x14 images). Remarks (form-kernels'
 * `remarks`) name each gather read as a contraction's A that stays its own kernel and
 * why. */
#include <stdlib.h>
#include <string.h>

#include "mlir-c/AffineExpr.h"
#include "mlir-c/AffineMap.h"
#include "passes/fusion/graph.h"
#include "passes/loops/zero-pad-read.h"
#include "support/diag.h"

static bool node_computes(const FkNode *n, const char *op) {
  for (size_t i = 0; i < n->num_ops; ++i)
    if (strcmp(n->ops[i], op) == 0)
      return true;
  return false;
}

int fk_pad_read_as_a(const FkGraph *g, int c) {
  const FkNode *cn = &g->nodes[c];
  int p = cn->contraction && cn->num_reads > 0 ? cn->reads[0].producer : -1;
  return p >= 0 && g->nodes[p].cls == FK_NODE_GENERIC && node_computes(&g->nodes[p], "gather") ? p : -1;
}

/* Why the pad node p (read by contraction node c as A) stays its own kernel, or NULL.
 * check_share: refuse pads whose padding is over pad-templates' share (the rule; a
 * plan's listed pad moves whatever its share). */
static const char *pad_refusal(const FkGraph *g, int p, int c, bool check_share) {
  const FkNode *pn = &g->nodes[p];
  const FkGroup *pg = &g->groups[pn->group], *cg = &g->groups[g->nodes[c].group];
  if (pg->num_members != 1)
    return "it is fused with other ops";
  if (pn->num_results != 1 || pn->results[0].num_users != 1 || pn->results[0].escapes)
    return "it is read by more than the contraction";
  if (cg->contractions != 1)
    return "the template computes two products";
  /* A grouped conv reads each group's channels of the pad (the channel index reads the
   * group loop): its runs are shorter than a position's C channels, which the CPU
   * template's implicit form needs; it would write the pad inside the kernel instead. */
  const FkRead *a = &g->nodes[c].reads[0];
  intptr_t n = a->has_map ? mlirAffineMapGetNumResults(a->map) : 0;
  int dk = g->nodes[c].rank - 1;
  if (n == 0 || !mlirAffineExprIsFunctionOfDim(mlirAffineMapGetResult(a->map, n - 1), dk))
    return "A's channels are not read along k alone";
  for (int d = 0; d < dk; ++d)
    if (mlirAffineExprIsFunctionOfDim(mlirAffineMapGetResult(a->map, n - 1), d))
      return "A's channels are not read along k alone (a grouped conv)";
  BrazeZeroPad pad;
  const char *why = braze_zero_pad_read(pn->op, NULL, NULL, &pad);
  int64_t padding = 0;
  for (int64_t q = 0; !why && q < pad.padded; ++q)
    padding += pad.table[q] < 0;
  if (!why && check_share && padding * 100 > g->rules.pad_max_percent * pad.padded)
    why = "its padding is more than pad-templates' share of its positions";
  if (!why && pad.channels % g->rules.pad_channels != 0)
    why = "its channels are not a multiple of pad-channels";
  braze_zero_pad_free(&pad);
  return why;
}

static void move_into(FkGraph *g, int node, int group) {
  FkGroup *to = &g->groups[group], *from = &g->groups[g->nodes[node].group];
  fk_merge_members(g, to, from);
  to->num_ops += from->num_ops;
  to->version++;
  from->alive = false;
}

/* Pad p, read as A by contraction c, as the rule has it: moved or a remark why not. */
static void absorb_by_rule(FkGraph *g, int p, int c, bool remarks) {
  MlirLocation loc = mlirOperationGetLocation(g->nodes[p].op);
  const char *why = pad_refusal(g, p, c, true);
  if (!why)
    move_into(g, p, g->nodes[c].group);
  if (!remarks)
    return;
  if (why)
    braze_emit_remark(loc, "form-kernels: pad-templates: the gather read as a contraction's A stays its own kernel: %s",
                      why);
  else
    braze_emit_remark(loc, "form-kernels: pad-templates: zero pad joins the template kernel of its contraction (read "
                           "as A, the padding implicit)");
}

/* Pad p, listed by the plan in the kernel of contraction c: moved, or an error. */
static bool absorb_planned(FkGraph *g, int p, int c, bool by_rule, const char *plan_path) {
  MlirLocation loc = mlirOperationGetLocation(g->nodes[p].op);
  const char *why = by_rule ? pad_refusal(g, p, c, false)
                            : "the pipeline's form-kernels has no pad-templates (its target reads no implicit padding)";
  if (why) {
    braze_emit_error(loc, "form-kernels: plan '%s' lists a zero pad in the kernel of the contraction that reads it, "
                          "but it cannot join it: %s", plan_path, why);
    return false;
  }
  move_into(g, p, g->nodes[c].group);
  return true;
}

bool fk_absorb_pads(FkGraph *g, bool by_rule, const char *plan_path, bool remarks) {
  bool ok = true;
  for (size_t c = 0; c < g->num_nodes; ++c) {
    int p = fk_pad_read_as_a(g, (int)c);
    if (p < 0)
      continue;
    if (g->plan.absorb && g->plan.absorb[p])
      ok = absorb_planned(g, p, (int)c, by_rule, plan_path) && ok;
    else if (by_rule && (!g->plan.label || g->plan.label[p] == FK_PLAN_FREE))
      absorb_by_rule(g, p, (int)c, remarks);
  }
  return ok;
}
