/* The facts of the target being compiled for, as passes below targets/ see them
 * (targets/costs.c sets them when it selects a target; docs/target-costs.md). */
#include <string.h>

#include "passes/passes.h"

static BrazeTargetCosts current;
static bool have_current;

void braze_pass_set_target_costs(const BrazeTargetCosts *costs) {
  have_current = costs != NULL;
  if (costs)
    current = *costs;
  else
    memset(&current, 0, sizeof current);
}

const BrazeTargetCosts *braze_pass_target_costs(void) { return have_current ? &current : NULL; }
