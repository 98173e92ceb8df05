/* What form-kernels decided, for people: the fusion report (text or JSON), the
 * remarks of the `remarks` option, and `explain=A,B`. */
#ifndef BRAZE_PASSES_FUSION_REPORT_H
#define BRAZE_PASSES_FUSION_REPORT_H

#include "passes/fusion/graph.h"
#include "passes/fusion/outline.h"
#include "support/strbuf.h"

/* Append the report of one function. JSON: one object per function; the caller
 * joins them (fk_report_json_begin/end wrap the list). */
void fk_report_text(BrazeStr *out, const FkGraph *g, const FkKernelList *kernels);
void fk_report_json_begin(BrazeStr *out);
void fk_report_json(BrazeStr *out, const FkGraph *g, const FkKernelList *kernels, bool first);
void fk_report_json_end(BrazeStr *out);

/* Graphviz DOT (report-format=dot, passes/fusion/dot.c): a cluster per function and per
 * kernel, a node per fusion-graph node, an edge per candidate pair labelled with its
 * category, score and decision. One call per function between begin and end. */
void fk_report_dot_begin(BrazeStr *out);
void fk_report_dot(BrazeStr *out, const FkGraph *g, const FkKernelList *kernels, char *const *names, size_t function);
void fk_report_dot_end(BrazeStr *out);

/* Shared by the report formats: a node's kind ("poi", "red", "tem", "ext",
 * "opaque"), its loop ranges ("4x8", "scalar"), whether b reads a result of a. */
const char *fk_node_kind(const FkNode *n);
void fk_node_space(BrazeStr *out, const FkNode *n);
bool fk_has_edge(const FkGraph *g, int a, int b);

/* One remark per candidate pair (at the later node) and per kernel (at its first node). */
void fk_emit_remarks(const FkGraph *g, const FkKernelList *kernels);

/* Remarks on why nodes computing (or named: location or plan name, `plan_names`
 * from fk_node_names, may be NULL) `a` and `b` did or did not fuse. */
void fk_explain(const FkGraph *g, const FkKernelList *kernels, const char *a, const char *b,
                char *const *plan_names);

#endif
