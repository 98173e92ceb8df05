/* graph-verify: run the graph dialect's C verifier (shape and dtype rules that IRDL
 * cannot express) over the module. braze-opt runs it after parsing; pipelines may
 * run it after any pass that builds graph ops.
 *
 * Options: none. */
#include "dialects/graph/graph.h"
#include "passes/graph/graph-passes.h"

static bool run(MlirOperation op, void *state) {
  (void)state;
  return braze_graph_verify(op);
}

const BrazePassInfo braze_pass_graph_verify = {
    .argument = "graph-verify",
    .summary = "Check graph ops' shapes, dtypes and attributes (what IRDL cannot)",
    .options_help = "",
    .anchor = "builtin.module",
    .run = run,
};
