/* graph-to-loops' input checks (passes/loops/graph-to-loops-checks.c): what the pass refuses
 * before it changes anything. */
#ifndef BRAZE_PASSES_LOOPS_GRAPH_TO_LOOPS_CHECKS_H
#define BRAZE_PASSES_LOOPS_GRAPH_TO_LOOPS_CHECKS_H

#include <stdbool.h>

#include "support/oplist.h"

/* Composites and reduce_var are refused (graph-decompose first), and ops whose ranks
 * or attributes the lowering cannot index: one diagnostic per op. True when none. */
bool braze_graph_to_loops_check(const BrazeOpList *ops);

#endif
