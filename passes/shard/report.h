/* What the sharding analysis decided, for people: remarks at each op and the report
 * of the collectives a partition inserts, with their bytes per rank. */
#ifndef BRAZE_PASSES_SHARD_REPORT_H
#define BRAZE_PASSES_SHARD_REPORT_H

#include "passes/shard/analysis.h"
#include "support/strbuf.h"

/* One remark per graph op ("shard: result [_, tp]", plus the rule's note) and one per
 * collective, at the op that needs it. */
void shard_emit_remarks(const ShardPlan *plan);
/* The text report of one function: its mesh, each collective (kind, axes, tensor,
 * where, bytes per rank) and the total. */
void shard_report_text(const ShardPlan *plan, BrazeStr *out);

#endif
