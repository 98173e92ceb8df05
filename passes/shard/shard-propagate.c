/* shard-propagate: the sharding analysis (passes/shard/analysis.h) made visible. On
 * every function with a mesh (braze.mesh, or mesh=), each graph op gets the sharding
 * of its result, `braze.sharding = [[], ["tp"]]`, and `braze.partial_sum/max/min =
 * ["tp"]` when the result is partial; remarks and a report say which rule decided
 * what and which collectives shard-partition will insert, with their bytes per rank.
 * An op that already carries these attributes keeps them (an override): the output
 * is a fixed point of the analysis. The IR is otherwise unchanged.
 *
 * Options (docs/passes.md#shard-propagate):
 *   mesh=NAME:SIZE[,NAME:SIZE]  the mesh, instead of the functions' braze.mesh
 *   conflict=largest|first|replicate  how operands that disagree are resolved
 *   eager-reduce                reduce a partial result where it is made
 *   remarks                     a remark per op and per collective
 *   report[=FILE]               the collectives report (stderr, or FILE) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "passes/shard/analysis.h"
#include "passes/shard/report.h"
#include "passes/shard/shard-passes.h"
#include "support/context.h"
#include "support/diag.h"

typedef struct {
  ShardOptions shard;
  bool remarks;
  bool report;
  char *report_file; /* NULL: stderr */
} Options;

static const char *const option_names[] = {"mesh", "conflict", "eager-reduce", "remarks", "report", NULL};

static void destroy_state(void *state) {
  Options *o = state;
  if (o)
    free(o->report_file);
  free(o);
}

static void *create_state(const BrazePassOptions *opts, BrazeStr *error) {
  Options *o = calloc(1, sizeof *o);
  if (!braze_options_check(opts, "shard-propagate", option_names, error) ||
      !shard_options_parse(opts, "shard-propagate", &o->shard, error) ||
      !braze_option_bool(opts, "remarks", false, &o->remarks, error)) {
    destroy_state(o);
    return NULL;
  }
  const BrazeOption *report = braze_option_find(opts, "report");
  o->report = report != NULL;
  if (report && report->value && *report->value && strcmp(report->value, "-") != 0)
    o->report_file = strdup(report->value);
  return o;
}

/* Write the result's sharding (and partial state) on every graph op. */
static void annotate(const ShardPlan *plan) {
  MlirContext ctx = mlirOperationGetContext(plan->func);
  for (int k = 0; k < plan->num_ops; ++k) {
    const ShardOpPlan *p = &plan->ops[k];
    if (braze_op_is(p->op, "func.return"))
      continue;
    mlirOperationSetAttributeByName(p->op, braze_ref("braze.sharding"),
                                    braze_sharding_to_attr(ctx, &plan->mesh, &p->result));
    static const BrazePartialKind kinds[] = {BRAZE_PARTIAL_SUM, BRAZE_PARTIAL_MAX, BRAZE_PARTIAL_MIN};
    for (int i = 0; i < 3; ++i) {
      char name[32];
      snprintf(name, sizeof name, "braze.%s", braze_partial_name(kinds[i]));
      if (p->result.partial_axes && p->result.partial == kinds[i])
        mlirOperationSetAttributeByName(p->op, braze_ref(name),
                                        braze_mesh_axes_attr(ctx, &plan->mesh, p->result.partial_axes));
      else
        mlirOperationRemoveAttributeByName(p->op, braze_ref(name));
    }
  }
}

static bool propagate_func(MlirOperation func, const Options *o, BrazeStr *report) {
  ShardPlan plan;
  bool applies = false;
  bool ok = shard_plan_build(func, &o->shard, &plan, &applies);
  if (ok && applies) {
    if (o->remarks)
      shard_emit_remarks(&plan);
    if (o->report)
      shard_report_text(&plan, report);
    annotate(&plan);
  }
  shard_plan_free(&plan);
  return ok;
}

static bool run(MlirOperation module, void *state) {
  const Options *o = state;
  BrazeStr report = {0};
  bool ok = true;
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    if (braze_op_is(op, "func.func"))
      ok = propagate_func(op, o, &report) && ok;
  if (ok && o->report && !o->report_file)
    fwrite(braze_str_cstr(&report), 1, report.len, stderr);
  if (ok && o->report_file && !braze_write_file(o->report_file, braze_str_cstr(&report), report.len)) {
    braze_emit_error(mlirOperationGetLocation(module), "shard-propagate: cannot write the report to '%s'",
                     o->report_file);
    ok = false;
  }
  braze_str_free(&report);
  return ok;
}

const BrazePassInfo braze_pass_shard_propagate = {
    .argument = "shard-propagate",
    .summary = "Annotate every graph op with the sharding of its result, from the mesh and the arguments' shardings",
    .options_help = "    mesh=NAME:SIZE[,...]  the mesh (instead of each function's braze.mesh)\n"
                    "    conflict=RULE        largest (default), first or replicate: operands that disagree\n"
                    "    eager-reduce         reduce a partial result where it is made\n"
                    "    remarks              a remark per op and per collective\n"
                    "    report[=FILE]        the collectives a partition inserts, bytes per rank (stderr or FILE)\n",
    .anchor = "builtin.module",
    .create_state = create_state,
    .destroy_state = destroy_state,
    .run = run,
};
