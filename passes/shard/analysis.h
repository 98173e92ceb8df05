/* The sharding analysis shared by shard-propagate and shard-partition (decision 0015,
 * docs/sharding.md): from the function's mesh and its arguments' shardings, every op's
 * wanted operand shardings and result sharding, by the per-op rules of rules.c; and
 * the collectives that turn one sharding into another (shard_reshard_steps).
 *
 * An op already carrying braze.sharding (and braze.partial_*) is an override: its
 * result is resharded from what the rule gives into it. shard-propagate writes exactly
 * these attributes, so its output is a fixed point of the analysis. */
#ifndef BRAZE_PASSES_SHARD_ANALYSIS_H
#define BRAZE_PASSES_SHARD_ANALYSIS_H

#include <stdbool.h>
#include <stdint.h>

#include "dialects/graph/mesh.h"
#include "mlir-c/IR.h"
#include "passes/passes.h"
#include "support/ptrmap.h"
#include "support/strbuf.h"

enum { SHARD_MAX_OPERANDS = 8, SHARD_MAX_STEPS = 16 };

/* How an op whose operands disagree is resolved (option conflict=). */
typedef enum {
  SHARD_CONFLICT_LARGEST,   /* keep the largest operand's sharding (fewest bytes moved) */
  SHARD_CONFLICT_FIRST,     /* keep operand 0's, then 1's, ... */
  SHARD_CONFLICT_REPLICATE, /* gather every operand; the op runs replicated */
} ShardConflictRule;

typedef struct {
  BrazeMesh mesh; /* mesh= option; used instead of the function's when has_mesh */
  bool has_mesh;
  ShardConflictRule conflict;
  bool eager_reduce; /* reduce a partial result where it is made instead of deferring */
} ShardOptions;

/* Parse the options both passes share (mesh=, conflict=, eager-reduce). */
bool shard_options_parse(const BrazePassOptions *pass_options, const char *pass, ShardOptions *out, BrazeStr *error);

/* One tensor as the rules see it. */
typedef struct {
  int rank;
  int64_t shape[BRAZE_MAX_RANK]; /* global */
  int64_t bytes;                 /* global */
} ShardTensor;

/* What the analysis decided for one op (graph op or func.return). */
typedef struct {
  MlirOperation op;
  int num_operands;      /* a graph op has at most SHARD_MAX_OPERANDS; func.return any */
  BrazeSharding *have;   /* the operands' shardings as produced */
  BrazeSharding *want;   /* what the op needs */
  MlirType *global_types; /* the operands' types before partitioning */
  BrazeSharding natural;                  /* the rule's result */
  BrazeSharding result;                   /* natural, or the override */
  bool overridden;
  BrazeStr note; /* the rule's decision when it was not the plain one (conflict, refusal) */
} ShardOpPlan;

typedef struct {
  MlirOperation func;
  BrazeMesh mesh;
  int num_args, num_results;
  BrazeSharding *args;    /* one per argument */
  BrazeSharding *results; /* one per function result (what func.return wants) */
  ShardOpPlan *ops;       /* graph ops then func.return, in block order */
  int num_ops;
  BrazePtrMap op_index; /* op ptr -> index in ops */
} ShardPlan;

/* Build the plan of `func`. *applies false (and true returned) when the function has
 * no mesh (neither braze.mesh nor the option): the passes leave it alone. On a
 * refusal (bad annotation, indivisible dim, non-graph op in a sharded function) an
 * error is emitted at the culprit and false returned. */
bool shard_plan_build(MlirOperation func, const ShardOptions *opts, ShardPlan *plan, bool *applies);
void shard_plan_free(ShardPlan *plan);
/* The sharding `v` has where it is defined (an argument or a planned op's result). */
const BrazeSharding *shard_plan_value(const ShardPlan *plan, MlirValue v);
ShardTensor shard_tensor_of(MlirType type);

/* ---- resharding ---- */
typedef enum { SHARD_ALL_REDUCE, SHARD_REDUCE_SCATTER, SHARD_ALL_GATHER, SHARD_ALL_TO_ALL, SHARD_ALL_SLICE } ShardStepKind;

typedef struct {
  ShardStepKind kind;
  int dim;          /* gather/scatter/slice dim; all_to_all: split_dim */
  int concat_dim;   /* all_to_all */
  uint8_t axes;     /* mesh axes, a bit each */
  BrazePartialKind reduction;
  BrazeSharding after; /* the sharding the step leaves */
} ShardStep;

/* The collectives from `from` to `to` in order (none when equal). False when `to`
 * is partial and `from` is not the same partial (a value cannot become partial). */
bool shard_reshard_steps(const BrazeMesh *mesh, const BrazeSharding *from, const BrazeSharding *to, ShardStep *steps,
                         int *num_steps);
/* "all_reduce", "all_gather", ... */
const char *shard_step_name(ShardStepKind kind);
/* The bytes one rank sends or receives in `step` on a tensor of `t`'s global shape:
 * the larger of its local input and output. */
int64_t shard_step_bytes(const BrazeMesh *mesh, const ShardTensor *t, const BrazeSharding *before, const ShardStep *step);

/* ---- the rules (rules.c) ---- */
typedef struct {
  const BrazeMesh *mesh;
  const ShardOptions *opts;
  MlirOperation op;
  int n;
  ShardTensor in[SHARD_MAX_OPERANDS];
  ShardTensor out;
  const BrazeSharding *have; /* n entries */
  BrazeSharding *want;       /* n entries, to fill */
  BrazeSharding *result;     /* to fill */
  BrazeStr *note;            /* to fill when the decision is worth a remark */
} ShardRuleCall;

/* Fill want/result for one graph op. Never fails: an op without a rule runs
 * replicated (its operands gathered), with a note saying so. */
void shard_apply_rule(ShardRuleCall *c);

#endif
