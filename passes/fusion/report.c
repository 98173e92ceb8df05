/* The fusion report, remarks and explain (see passes/fusion/report.h). Everything is
 * printed in program order of nodes and candidates so that tests can check it. */
#include "passes/fusion/report.h"

#include <stdlib.h>
#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "support/context.h"
#include "support/diag.h"
#include "support/json.h"

static void node_ops(BrazeStr *out, const FkNode *n, const char *sep) {
  for (size_t k = 0; k < n->num_ops; ++k)
    braze_str_printf(out, "%s%s", k ? sep : "", n->ops[k]);
}

const char *fk_node_kind(const FkNode *n) {
  switch (n->cls) {
  case FK_NODE_CALL: return "ext";
  case FK_NODE_OPAQUE: return "opaque";
  default: break;
  }
  if (n->contraction)
    return "tem";
  return n->has_red ? "red" : "poi";
}

void fk_node_space(BrazeStr *out, const FkNode *n) {
  for (int d = 0; d < n->rank; ++d)
    braze_str_printf(out, "%s%lld", d ? "x" : "", (long long)n->space[d]);
  if (n->rank == 0)
    braze_str_puts(out, "scalar");
}

bool fk_has_edge(const FkGraph *g, int a, int b) {
  const FkNode *nb = &g->nodes[b];
  for (size_t k = 0; k < nb->num_reads; ++k)
    if (nb->reads[k].producer == a)
      return true;
  return false;
}

static const char *func_name(const FkGraph *g, BrazeStr *tmp) {
  MlirAttribute sym = mlirOperationGetAttributeByName(g->func, braze_ref("sym_name"));
  MlirStringRef s = mlirStringAttrGetValue(sym);
  braze_str_append(tmp, s.data, s.length);
  return braze_str_cstr(tmp);
}

/* ---- text ---- */

static void text_nodes(BrazeStr *out, const FkGraph *g) {
  braze_str_puts(out, "nodes:\n");
  for (size_t i = 0; i < g->num_nodes; ++i) {
    const FkNode *n = &g->nodes[i];
    braze_str_printf(out, "  #%zu ", i);
    node_ops(out, n, ",");
    braze_str_printf(out, " %s", fk_node_kind(n));
    if (n->rank >= 0) {
      braze_str_puts(out, " ");
      fk_node_space(out, n);
    }
    for (int d = 0, first = 1; d < n->rank; ++d)
      if (n->reduced[d]) {
        braze_str_printf(out, "%s%d", first ? " reduce=" : ",", d);
        first = 0;
      }
    braze_str_puts(out, "\n");
  }
}

static void text_candidates(BrazeStr *out, const FkGraph *g) {
  braze_str_puts(out, "candidates:\n");
  for (size_t i = 0; i < g->num_cands; ++i) {
    const FkCandidate *c = &g->cands[i];
    braze_str_printf(out, "  #%d %s #%d (", c->a, fk_has_edge(g, c->a, c->b) ? "->" : "~", c->b);
    node_ops(out, &g->nodes[c->a], ",");
    braze_str_puts(out, fk_has_edge(g, c->a, c->b) ? " -> " : " ~ ");
    node_ops(out, &g->nodes[c->b], ",");
    braze_str_printf(out, ") %s score=%lld ", fk_category_name(c->category), (long long)c->score);
    if (c->step)
      braze_str_printf(out, "fused step=%d\n", c->step);
    else
      braze_str_printf(out, "refused reason=%s\n", fk_reason_name(c->reason));
  }
}

static void text_kernels(BrazeStr *out, const FkGraph *g, const FkKernelList *kernels) {
  braze_str_puts(out, "kernels:\n");
  for (size_t i = 0; i < kernels->count; ++i) {
    const FkKernel *k = &kernels->items[i];
    braze_str_printf(out, "  %s %s nodes=", k->name ? k->name : "(kept)", k->kind ? k->kind : "opaque");
    bool first = true;
    for (size_t n = 0; n < g->num_nodes; ++n)
      if (g->nodes[n].group == k->group) {
        braze_str_printf(out, "%s#%zu", first ? "" : ",", n);
        first = false;
      }
    braze_str_puts(out, " ops=");
    first = true;
    for (size_t n = 0; n < g->num_nodes; ++n)
      if (g->nodes[n].group == k->group) {
        if (!first)
          braze_str_puts(out, ",");
        node_ops(out, &g->nodes[n], ",");
        first = false;
      }
    braze_str_printf(out, " score=%lld\n", (long long)g->groups[k->group].score);
  }
}

void fk_report_text(BrazeStr *out, const FkGraph *g, const FkKernelList *kernels) {
  BrazeStr name = {0};
  braze_str_printf(out, "form-kernels report @%s\n", func_name(g, &name));
  braze_str_free(&name);
  text_nodes(out, g);
  text_candidates(out, g);
  braze_str_puts(out, "steps:\n");
  for (size_t i = 0; i < g->num_steps; ++i) {
    const FkStep *s = &g->steps[i];
    braze_str_printf(out, "  %zu: #%d + #%d %s score=%lld\n", i + 1, s->a, s->b, fk_category_name(s->category),
                     (long long)s->score);
  }
  text_kernels(out, g, kernels);
}

/* ---- JSON ---- */

static void json_ops(BrazeStr *out, const FkNode *n, bool *first) {
  for (size_t k = 0; k < n->num_ops; ++k) {
    braze_str_puts(out, *first ? "" : ", ");
    braze_json_cstr(out, n->ops[k]);
    *first = false;
  }
}

static void json_loc(BrazeStr *out, MlirOperation op) {
  const char *file = NULL;
  size_t len = 0;
  unsigned line = 0, col = 0;
  BrazeStr text = {0};
  if (braze_location_file_line_col(mlirOperationGetLocation(op), &file, &len, &line, &col))
    braze_str_printf(&text, "%.*s:%u:%u", (int)len, file, line, col);
  braze_json_string(out, braze_str_cstr(&text), text.len);
  braze_str_free(&text);
}

static void json_nodes(BrazeStr *out, const FkGraph *g) {
  braze_str_puts(out, "\"nodes\": [");
  for (size_t i = 0; i < g->num_nodes; ++i) {
    const FkNode *n = &g->nodes[i];
    braze_str_printf(out, "%s{\"id\": %zu, \"ops\": [", i ? ", " : "", i);
    bool first = true;
    json_ops(out, n, &first);
    braze_str_printf(out, "], \"kind\": \"%s\", \"space\": [", fk_node_kind(n));
    for (int d = 0; d < n->rank; ++d)
      braze_str_printf(out, "%s%lld", d ? ", " : "", (long long)n->space[d]);
    braze_str_puts(out, "], \"reduced\": [");
    for (int d = 0, f = 1; d < n->rank; ++d)
      if (n->reduced[d]) {
        braze_str_printf(out, "%s%d", f ? "" : ", ", d);
        f = 0;
      }
    braze_str_puts(out, "], \"loc\": ");
    json_loc(out, n->op);
    braze_str_puts(out, "}");
  }
  braze_str_puts(out, "]");
}

static void json_candidates(BrazeStr *out, const FkGraph *g) {
  braze_str_puts(out, ", \"candidates\": [");
  for (size_t i = 0; i < g->num_cands; ++i) {
    const FkCandidate *c = &g->cands[i];
    braze_str_printf(out, "%s{\"a\": %d, \"b\": %d, \"edge\": %s, \"category\": \"%s\", \"score\": %lld, ",
                     i ? ", " : "", c->a, c->b, fk_has_edge(g, c->a, c->b) ? "true" : "false",
                     fk_category_name(c->category), (long long)c->score);
    if (c->step)
      braze_str_printf(out, "\"decision\": \"fused\", \"step\": %d}", c->step);
    else
      braze_str_printf(out, "\"decision\": \"refused\", \"reason\": \"%s\"}", fk_reason_name(c->reason));
  }
  braze_str_puts(out, "], \"steps\": [");
  for (size_t i = 0; i < g->num_steps; ++i) {
    const FkStep *s = &g->steps[i];
    braze_str_printf(out, "%s{\"step\": %zu, \"a\": %d, \"b\": %d, \"category\": \"%s\", \"score\": %lld}",
                     i ? ", " : "", i + 1, s->a, s->b, fk_category_name(s->category), (long long)s->score);
  }
  braze_str_puts(out, "]");
}

static void json_kernels(BrazeStr *out, const FkGraph *g, const FkKernelList *kernels) {
  braze_str_puts(out, ", \"kernels\": [");
  for (size_t i = 0; i < kernels->count; ++i) {
    const FkKernel *k = &kernels->items[i];
    braze_str_puts(out, i ? ", {\"name\": " : "{\"name\": ");
    if (k->name)
      braze_json_cstr(out, k->name);
    else
      braze_str_puts(out, "null");
    braze_str_printf(out, ", \"kind\": \"%s\", \"nodes\": [", k->kind ? k->kind : "opaque");
    bool first = true;
    for (size_t n = 0; n < g->num_nodes; ++n)
      if (g->nodes[n].group == k->group) {
        braze_str_printf(out, "%s%zu", first ? "" : ", ", n);
        first = false;
      }
    braze_str_puts(out, "], \"ops\": [");
    first = true;
    for (size_t n = 0; n < g->num_nodes; ++n)
      if (g->nodes[n].group == k->group)
        json_ops(out, &g->nodes[n], &first);
    braze_str_printf(out, "], \"score\": %lld}", (long long)g->groups[k->group].score);
  }
  braze_str_puts(out, "]");
}

void fk_report_json_begin(BrazeStr *out) { braze_str_puts(out, "{\"functions\": ["); }
void fk_report_json_end(BrazeStr *out) { braze_str_puts(out, "]}\n"); }

void fk_report_json(BrazeStr *out, const FkGraph *g, const FkKernelList *kernels, bool first) {
  BrazeStr name = {0};
  braze_str_puts(out, first ? "{\"name\": " : ", {\"name\": ");
  braze_json_cstr(out, func_name(g, &name));
  braze_str_free(&name);
  braze_str_puts(out, ", ");
  json_nodes(out, g);
  json_candidates(out, g);
  json_kernels(out, g, kernels);
  braze_str_puts(out, "}");
}

/* ---- remarks and explain ---- */

static void pair_text(BrazeStr *out, const FkGraph *g, int a, int b) {
  braze_str_printf(out, "#%d '", a);
  node_ops(out, &g->nodes[a], ",");
  braze_str_printf(out, "' and #%d '", b);
  node_ops(out, &g->nodes[b], ",");
  braze_str_puts(out, "'");
}

void fk_emit_remarks(const FkGraph *g, const FkKernelList *kernels) {
  for (size_t i = 0; i < g->num_cands; ++i) {
    const FkCandidate *c = &g->cands[i];
    BrazeStr text = {0};
    pair_text(&text, g, c->a, c->b);
    if (c->step)
      braze_emit_remark(mlirOperationGetLocation(g->nodes[c->b].op), "form-kernels: %s fused (%s, score %lld, step %d)",
                        braze_str_cstr(&text), fk_category_name(c->category), (long long)c->score, c->step);
    else
      braze_emit_remark(mlirOperationGetLocation(g->nodes[c->b].op), "form-kernels: %s not fused: %s",
                        braze_str_cstr(&text), fk_reason_name(c->reason));
    braze_str_free(&text);
  }
  for (size_t i = 0; i < kernels->count; ++i) {
    const FkKernel *k = &kernels->items[i];
    if (!k->name)
      continue;
    int *nodes = NULL;
    fk_group_nodes(g, k->group, &nodes);
    braze_emit_remark(mlirOperationGetLocation(g->nodes[nodes[0]].op), "form-kernels: kernel %s (%s, score %lld)",
                      k->name, k->kind, (long long)g->groups[k->group].score);
    free(nodes);
  }
}

/* A node matches a name when it computes that graph op, its location carries that
 * name (an ONNX node name), or it is its plan name (`plan_names`, may be NULL). */
static bool node_matches(const FkGraph *g, char *const *plan_names, int node, const char *name) {
  const FkNode *n = &g->nodes[node];
  if (plan_names && strcmp(plan_names[node], name) == 0)
    return true;
  for (size_t k = 0; k < n->num_ops; ++k)
    if (strcmp(n->ops[k], name) == 0)
      return true;
  const char *loc_name = NULL;
  size_t len = 0;
  return braze_location_name(mlirOperationGetLocation(n->op), &loc_name, &len) && len == strlen(name) &&
         memcmp(loc_name, name, len) == 0;
}

static bool any_match(const FkGraph *g, char *const *plan_names, const char *name) {
  for (size_t i = 0; i < g->num_nodes; ++i)
    if (node_matches(g, plan_names, (int)i, name))
      return true;
  return false;
}

static void explain_pair(const FkGraph *g, const FkKernelList *kernels, int a, int b) {
  BrazeStr text = {0};
  pair_text(&text, g, a, b);
  FkVerdict v = fk_can_fuse_nodes(g, a, b);
  MlirLocation loc = mlirOperationGetLocation(g->nodes[b].op);
  if (g->nodes[a].group == g->nodes[b].group)
    braze_emit_remark(loc, "explain: %s fused into %s", braze_str_cstr(&text), fk_kernel_of(kernels, g, a)->name);
  else
    braze_emit_remark(loc, "explain: %s not fused: %s", braze_str_cstr(&text), fk_reason_name(v.reason));
  braze_str_free(&text);
}

void fk_explain(const FkGraph *g, const FkKernelList *kernels, const char *a, const char *b,
                char *const *plan_names) {
  const char *names[2] = {a, b};
  for (int i = 0; i < 2; ++i)
    if (!any_match(g, plan_names, names[i]))
      braze_emit_warning(mlirOperationGetLocation(g->func), "explain: no node computes or is named '%s'", names[i]);
  for (size_t i = 0; i < g->num_nodes; ++i)
    for (size_t j = i + 1; j < g->num_nodes; ++j) {
      int x = (int)i, y = (int)j;
      if ((node_matches(g, plan_names, x, a) && node_matches(g, plan_names, y, b)) ||
          (node_matches(g, plan_names, x, b) && node_matches(g, plan_names, y, a)))
        explain_pair(g, kernels, x, y);
    }
}
