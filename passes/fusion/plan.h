/* Fusion plans: form-kernels' grouping as a JSON file (docs/fusion-plans.md,
 * decision 0005). `plan-out=FILE` writes the kernels the pass formed, each op named
 * stably (fk_node_names); `plan=FILE` forms the listed kernels instead of the greedy
 * search, under the same legality rules, and a plan's `forbid` pairs never fuse. */
#ifndef BRAZE_PASSES_FUSION_PLAN_H
#define BRAZE_PASSES_FUSION_PLAN_H

#include <stdbool.h>
#include <stddef.h>

#include "passes/fusion/graph.h"
#include "passes/fusion/outline.h"
#include "support/strbuf.h"

typedef struct {
  char *a, *b;
  char *where; /* "functions[0].forbid[1]": for messages */
  bool matched;
} FkPlanPair;

typedef struct {
  char **ops;
  size_t num_ops;
  char *where; /* "functions[0].kernels[2]" */
} FkPlanKernel;

typedef struct {
  char *name;
  bool has_kernels; /* a "kernels" list: the function's grouping is planned */
  FkPlanKernel *kernels;
  size_t num_kernels;
  FkPlanPair *forbid;
  size_t num_forbid;
  bool matched; /* a graph function of this name was seen */
} FkPlanFunction;

typedef struct {
  char *path;
  FkPlanFunction *funcs;
  size_t num_funcs;
  FkPlanPair *forbid; /* top level: pairs of ops of any one function */
  size_t num_forbid;
} FkPlan;

/* Read and check the shape of a plan file. False with the reason (FILE:LINE:COL for
 * JSON syntax, FILE and the element's path otherwise) in *error. */
bool fk_plan_read(const char *path, FkPlan *out, BrazeStr *error);
void fk_plan_free(FkPlan *plan);

/* Stable op names, one per node: the node's location name (an ONNX node name) when no
 * other node of the function has it, else `<function>/<op>#<node index>` with <op> the
 * graph op the node realizes (the last of its braze.ops). Free with fk_node_names_free. */
char **fk_node_names(const FkGraph *g);
void fk_node_names_free(char **names, size_t count);

/* Impose the plan on g before fk_schedule: with a "kernels" list for g's function,
 * ops fuse only within their listed kernel; unlisted ops stay alone, or with
 * `complete` fuse greedily among themselves. Forbid pairs of the function and of the
 * top level apply in every mode. Errors (an unknown op name, an op listed twice) are
 * emitted at the function; returns false then. */
bool fk_plan_constrain(FkGraph *g, FkPlan *plan, char *const *names, bool complete);
/* After fk_schedule: each listed kernel was formed exactly; otherwise an error at its
 * first op naming the rule that refused it. */
bool fk_plan_verify(const FkGraph *g, const FkPlan *plan, char *const *names);
/* After every function: plan functions and top-level forbid pairs that matched
 * nothing are errors at the module. */
bool fk_plan_check_unmatched(const FkPlan *plan, MlirOperation module);

/* The plan file form-kernels writes for plan-out=: begin, one call per function, end. */
void fk_plan_write_begin(BrazeStr *out);
void fk_plan_write(BrazeStr *out, const FkGraph *g, const FkKernelList *kernels, char *const *names, bool first);
void fk_plan_write_end(BrazeStr *out);

#endif
