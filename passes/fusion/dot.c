/* The fusion graph as Graphviz DOT (form-kernels{report-format=dot}; see
 * passes/fusion/report.h). Render with `dot -Tpng`. Layout:
 *   - a cluster per graph function, inside it a cluster per kernel (fill colour by
 *     kind, label: kernel name, kind, score); ops kept in the graph function sit in
 *     the function's cluster;
 *   - a box per node: its index, stable name (the plan's op name), graph ops, kind
 *     and loop ranges;
 *   - an edge per candidate pair: a data edge as an arrow, a shared input as a dotted
 *     line; label: category, score and `fused (step K)` or `refused: REASON`;
 *     refused pairs are red and dashed.
 * Node ids are f<function>_n<node>, so function names need no quoting rules. */
#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "passes/fusion/report.h"
#include "support/context.h"

/* Append `s` inside a DOT string literal ("..." with \" \\ escaped, newlines as \n). */
static void dot_text(BrazeStr *out, const char *s, size_t len) {
  for (size_t i = 0; i < len; ++i) {
    if (s[i] == '"' || s[i] == '\\')
      braze_str_printf(out, "\\%c", s[i]);
    else if (s[i] == '\n')
      braze_str_puts(out, "\\n");
    else
      braze_str_append(out, &s[i], 1);
  }
}

static void dot_cstr(BrazeStr *out, const char *s) { dot_text(out, s, strlen(s)); }

static const char *kind_color(const char *kind) {
  if (!kind)
    return "white";
  if (strcmp(kind, "poi") == 0)
    return "\"#e3f2fd\"";
  if (strcmp(kind, "tem") == 0)
    return "\"#fff3e0\"";
  if (strcmp(kind, "ext") == 0)
    return "\"#eeeeee\"";
  return "\"#e8f5e9\""; /* reductions */
}

void fk_report_dot_begin(BrazeStr *out) {
  braze_str_puts(out, "digraph fusion {\n"
                      "  graph [fontname=\"Helvetica\", fontsize=11];\n"
                      "  node [shape=box, fontname=\"Helvetica\", fontsize=10];\n"
                      "  edge [fontname=\"Helvetica\", fontsize=9];\n");
}

void fk_report_dot_end(BrazeStr *out) { braze_str_puts(out, "}\n"); }

static void dot_node(BrazeStr *out, const FkGraph *g, char *const *names, size_t function, int id,
                     const char *indent) {
  const FkNode *n = &g->nodes[id];
  BrazeStr label = {0};
  braze_str_printf(&label, "#%d %s\n", id, names[id]);
  for (size_t k = 0; k < n->num_ops; ++k)
    braze_str_printf(&label, "%s%s", k ? "," : "", n->ops[k]);
  braze_str_printf(&label, "\n%s", fk_node_kind(n));
  if (n->rank >= 0) {
    braze_str_puts(&label, " ");
    fk_node_space(&label, n);
  }
  braze_str_printf(out, "%sf%zu_n%d [label=\"", indent, function, id);
  dot_text(out, label.data, label.len);
  braze_str_puts(out, "\"];\n");
  braze_str_free(&label);
}

static void dot_kernel(BrazeStr *out, const FkGraph *g, const FkKernel *k, char *const *names, size_t function,
                       size_t index) {
  const FkGroup *gr = &g->groups[k->group];
  const char *indent = "    ";
  if (k->name) {
    braze_str_printf(out, "    subgraph cluster_f%zu_k%zu {\n      label=\"", function, index);
    dot_cstr(out, k->name);
    braze_str_printf(out, "\\n%s, score %lld\";\n      style=filled; fillcolor=%s;\n", k->kind,
                     (long long)gr->score, kind_color(k->kind));
    indent = "      ";
  }
  for (size_t m = 0; m < gr->num_members; ++m)
    dot_node(out, g, names, function, gr->members[m], indent);
  if (k->name)
    braze_str_puts(out, "    }\n");
}

static void dot_candidate(BrazeStr *out, const FkGraph *g, const FkCandidate *c, size_t function) {
  bool edge = fk_has_edge(g, c->a, c->b);
  braze_str_printf(out, "  f%zu_n%d -> f%zu_n%d [label=\"%s %lld\\n", function, c->a, function, c->b,
                   fk_category_name(c->category), (long long)c->score);
  if (c->step)
    braze_str_printf(out, "fused (step %d)\"", c->step);
  else
    braze_str_printf(out, "refused: %s\", color=red, fontcolor=red, style=dashed", fk_reason_name(c->reason));
  if (!edge)
    braze_str_puts(out, c->step ? ", dir=none, style=dotted" : ", dir=none");
  braze_str_puts(out, "];\n");
}

void fk_report_dot(BrazeStr *out, const FkGraph *g, const FkKernelList *kernels, char *const *names,
                   size_t function) {
  MlirStringRef name = mlirStringAttrGetValue(mlirOperationGetAttributeByName(g->func, braze_ref("sym_name")));
  braze_str_printf(out, "  subgraph cluster_f%zu {\n    label=\"@", function);
  dot_text(out, name.data, name.length);
  braze_str_puts(out, "\";\n");
  for (size_t i = 0; i < kernels->count; ++i)
    dot_kernel(out, g, &kernels->items[i], names, function, i);
  braze_str_puts(out, "  }\n");
  for (size_t i = 0; i < g->num_cands; ++i)
    dot_candidate(out, g, &g->cands[i], function);
}
