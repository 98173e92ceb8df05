/* shard-partition: rewrite each function with a mesh into its per-device (SPMD)
 * program. It runs the sharding analysis (passes/shard/analysis.h) — the same one
 * shard-propagate shows, honouring its annotations as overrides — then, in block order:
 * every operand whose sharding differs from what its op wants gets the collectives
 * between them (graph.all_reduce, reduce_scatter, all_to_all, all_gather, all_slice:
 * shard_reshard_steps) inserted before the op; every result is retyped to its local
 * shape (a slice's limits on split dims too); an overridden result is resharded right
 * after its op. The arguments and results take their local types; the function keeps
 * braze.mesh (the effective one) and its braze.sharding annotations, which say how
 * the local tensors make up the global ones, and gains braze.partitioned. The op
 * annotations are removed.
 *
 * Options: mesh=, conflict=, eager-reduce, as shard-propagate. Refuses (error at the
 * op or function): an already partitioned function, a non-graph op in a sharded
 * function, an argument/result dim that does not divide over its axis. */
#include <stdlib.h>
#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "passes/graph/builder.h"
#include "passes/shard/analysis.h"
#include "passes/shard/shard-passes.h"
#include "support/context.h"
#include "support/diag.h"

static const char *const option_names[] = {"mesh", "conflict", "eager-reduce", NULL};

static void *create_state(const BrazePassOptions *opts, BrazeStr *error) {
  ShardOptions *o = calloc(1, sizeof *o);
  if (braze_options_check(opts, "shard-partition", option_names, error) &&
      shard_options_parse(opts, "shard-partition", o, error))
    return o;
  free(o);
  return NULL;
}

static void destroy_state(void *state) { free(state); }

static MlirType local_type(const BrazeMesh *mesh, MlirType global, const BrazeSharding *s) {
  int64_t shape[BRAZE_MAX_RANK], local[BRAZE_MAX_RANK];
  intptr_t rank = braze_shape(global, shape);
  int bad = -1;
  braze_sharding_local_shape(mesh, s, shape, local, &bad); /* the analysis checked it divides */
  return mlirRankedTensorTypeGet(rank, local, braze_element_type(global), mlirAttributeGetNull());
}

static MlirNamedAttribute named(MlirContext ctx, const char *name, MlirAttribute value) {
  return mlirNamedAttributeGet(mlirIdentifierGet(ctx, braze_ref(name)), value);
}

static MlirAttribute i64_attr(MlirContext ctx, int64_t v) {
  return mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 64), v);
}

/* One collective of `step` on `v`, before `anchor` (with its location). */
static MlirValue build_step(MlirOperation anchor, const BrazeMesh *mesh, MlirValue v, MlirType global,
                            const ShardStep *step) {
  MlirContext ctx = mlirOperationGetContext(anchor);
  GraphBuilder b = braze_gb_before(anchor);
  MlirNamedAttribute attrs[4];
  int n = 0;
  attrs[n++] = named(ctx, "mesh_axes", braze_mesh_axes_attr(ctx, mesh, step->axes));
  if (step->kind == SHARD_ALL_REDUCE || step->kind == SHARD_REDUCE_SCATTER)
    attrs[n++] = named(ctx, "reduction", mlirStringAttrGet(ctx, braze_ref(braze_partial_name(step->reduction) + 8)));
  if (step->kind == SHARD_ALL_TO_ALL) {
    attrs[n++] = named(ctx, "split_dim", i64_attr(ctx, step->dim));
    attrs[n++] = named(ctx, "concat_dim", i64_attr(ctx, step->concat_dim));
  } else if (step->kind != SHARD_ALL_REDUCE)
    attrs[n++] = named(ctx, "dim", i64_attr(ctx, step->dim));
  MlirOperation op = braze_gb_create(&b, shard_step_name(step->kind), &v, 1, local_type(mesh, global, &step->after),
                                     attrs, n);
  return mlirOperationGetResult(op, 0);
}

/* The collectives turning `v` (of global type `global`) from `from` into `to`. */
static MlirValue reshard(MlirOperation anchor, const BrazeMesh *mesh, MlirValue v, MlirType global,
                         const BrazeSharding *from, const BrazeSharding *to, MlirOperation *first) {
  ShardStep steps[SHARD_MAX_STEPS];
  int n = 0;
  shard_reshard_steps(mesh, from, to, steps, &n); /* the analysis never asks for a partial it lacks */
  for (int s = 0; s < n; ++s) {
    v = build_step(anchor, mesh, v, global, &steps[s]);
    if (s == 0 && first)
      *first = mlirOpResultGetOwner(v);
  }
  return v;
}

/* A slice keeps split dims whole: its limits there become the local size. */
static void localize_slice(MlirOperation op, const BrazeMesh *mesh, const BrazeSharding *s) {
  int64_t limits[BRAZE_MAX_RANK];
  intptr_t n = braze_attr_i64_array(op, "limits", limits, BRAZE_MAX_RANK);
  for (intptr_t d = 0; d < n && d < s->rank; ++d)
    if (s->split[d] >= 0)
      limits[d] /= mesh->sizes[s->split[d]];
  MlirNamedAttribute a = braze_gb_attr_i64_array(mlirOperationGetContext(op), "limits", limits, n);
  mlirOperationSetAttributeByName(op, braze_ref("limits"), a.attribute);
}

static void clear_annotations(MlirOperation op) {
  static const char *const names[] = {"braze.sharding", "braze.partial_sum", "braze.partial_max", "braze.partial_min"};
  for (size_t i = 0; i < sizeof names / sizeof *names; ++i)
    mlirOperationRemoveAttributeByName(op, braze_ref(names[i]));
}

/* Rewrite one planned op (its operands' producers are already retyped: the plan kept
 * their global types). */
static void partition_op(const ShardPlan *plan, const ShardOpPlan *p) {
  for (int i = 0; i < p->num_operands; ++i)
    if (!braze_sharding_equal(&p->have[i], &p->want[i]))
      mlirOperationSetOperand(p->op, i, reshard(p->op, &plan->mesh, mlirOperationGetOperand(p->op, i),
                                                p->global_types[i], &p->have[i], &p->want[i], NULL));
  if (braze_op_is(p->op, "func.return"))
    return;
  clear_annotations(p->op);
  MlirValue res = mlirOperationGetResult(p->op, 0);
  MlirType global = mlirValueGetType(res);
  mlirValueSetType(res, local_type(&plan->mesh, global, &p->natural));
  const char *m = braze_graph_op_mnemonic(p->op);
  if (m && !strcmp(m, "slice"))
    localize_slice(p->op, &plan->mesh, &p->natural);
  if (braze_sharding_equal(&p->natural, &p->result))
    return;
  MlirOperation first = {NULL}; /* override: reshard right after the op, for every user */
  MlirValue v = reshard(mlirOperationGetNextInBlock(p->op), &plan->mesh, res, global, &p->natural, &p->result, &first);
  mlirValueReplaceAllUsesOfWith(res, v);
  mlirOperationSetOperand(first, 0, res);
}

/* The signature on local types; braze.mesh the effective mesh; braze.partitioned. */
static void retype_function(const ShardPlan *plan, MlirBlock body) {
  MlirContext ctx = mlirOperationGetContext(plan->func);
  MlirType fn = mlirTypeAttrGetValue(mlirOperationGetAttributeByName(plan->func, braze_ref("function_type")));
  MlirType *ins = calloc((size_t)plan->num_args + 1, sizeof *ins);
  MlirType *outs = calloc((size_t)plan->num_results + 1, sizeof *outs);
  for (int i = 0; i < plan->num_args; ++i) {
    ins[i] = local_type(&plan->mesh, mlirFunctionTypeGetInput(fn, i), &plan->args[i]);
    mlirValueSetType(mlirBlockGetArgument(body, i), ins[i]);
  }
  for (int i = 0; i < plan->num_results; ++i)
    outs[i] = local_type(&plan->mesh, mlirFunctionTypeGetResult(fn, i), &plan->results[i]);
  MlirType local_fn = mlirFunctionTypeGet(ctx, plan->num_args, ins, plan->num_results, outs);
  mlirOperationSetAttributeByName(plan->func, braze_ref("function_type"), mlirTypeAttrGet(local_fn));
  mlirOperationSetAttributeByName(plan->func, braze_ref("braze.mesh"), braze_mesh_to_attr(ctx, &plan->mesh));
  mlirOperationSetAttributeByName(plan->func, braze_ref("braze.partitioned"), mlirUnitAttrGet(ctx));
  free(ins);
  free(outs);
}

static bool partition_func(MlirOperation func, const ShardOptions *o) {
  ShardPlan plan;
  bool applies = false;
  bool ok = shard_plan_build(func, o, &plan, &applies);
  if (ok && applies) {
    for (int k = 0; k < plan.num_ops; ++k)
      partition_op(&plan, &plan.ops[k]);
    retype_function(&plan, mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0)));
  }
  shard_plan_free(&plan);
  return ok;
}

static bool run(MlirOperation module, void *state) {
  bool ok = true;
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    if (braze_op_is(op, "func.func"))
      ok = partition_func(op, state) && ok;
  return ok;
}

const BrazePassInfo braze_pass_shard_partition = {
    .argument = "shard-partition",
    .summary = "Rewrite functions with a mesh into per-device programs: local shapes and collective graph ops",
    .options_help = "    mesh=NAME:SIZE[,...]  the mesh (instead of each function's braze.mesh)\n"
                    "    conflict=RULE        largest (default), first or replicate: operands that disagree\n"
                    "    eager-reduce         reduce a partial result where it is made\n",
    .anchor = "builtin.module",
    .create_state = create_state,
    .destroy_state = destroy_state,
    .run = run,
};
