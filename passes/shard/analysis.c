/* The sharding analysis (passes/shard/analysis.h): options, the per-function plan,
 * and the collectives between two shardings. */
#include "passes/shard/analysis.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dialects/graph/graph.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "support/context.h"
#include "support/diag.h"

#define BIT(a) ((uint8_t)(1u << (a)))

/* ---- options ---- */

bool shard_options_parse(const BrazePassOptions *opts, const char *pass, ShardOptions *out, BrazeStr *error) {
  memset(out, 0, sizeof *out);
  const BrazeOption *mesh = braze_option_find(opts, "mesh");
  if (mesh) {
    BrazeStr why = {0};
    out->has_mesh = braze_mesh_parse_text(mesh->value ? mesh->value : "", &out->mesh, &why);
    if (!out->has_mesh)
      braze_str_printf(error, "%s: %s", pass, braze_str_cstr(&why));
    braze_str_free(&why);
    if (!out->has_mesh)
      return false;
  }
  const BrazeOption *conflict = braze_option_find(opts, "conflict");
  const char *rule = conflict && conflict->value ? conflict->value : "largest";
  if (!strcmp(rule, "largest"))
    out->conflict = SHARD_CONFLICT_LARGEST;
  else if (!strcmp(rule, "first"))
    out->conflict = SHARD_CONFLICT_FIRST;
  else if (!strcmp(rule, "replicate"))
    out->conflict = SHARD_CONFLICT_REPLICATE;
  else {
    braze_str_printf(error, "%s: conflict must be 'largest', 'first' or 'replicate', got '%s'", pass, rule);
    return false;
  }
  return braze_option_bool(opts, "eager-reduce", false, &out->eager_reduce, error);
}

/* ---- tensors and values ---- */

ShardTensor shard_tensor_of(MlirType type) {
  ShardTensor t = {0};
  if (!mlirTypeIsARankedTensor(type) || !mlirShapedTypeHasStaticShape(type))
    return t;
  t.rank = (int)braze_shape(type, t.shape);
  int64_t elements = 0;
  braze_tensor_size(type, &elements, &t.bytes);
  return t;
}

const BrazeSharding *shard_plan_value(const ShardPlan *plan, MlirValue v) {
  if (mlirValueIsABlockArgument(v)) {
    intptr_t i = mlirBlockArgumentGetArgNumber(v);
    return i < plan->num_args ? &plan->args[i] : NULL;
  }
  int k = braze_ptrmap_get(&plan->op_index, braze_ptr_key(mlirOpResultGetOwner(v).ptr), -1);
  return k >= 0 ? &plan->ops[k].result : NULL;
}

/* ---- annotations ---- */

/* Entry i's braze.sharding of the function's arg_attrs / res_attrs, or null. */
static MlirAttribute entry_sharding(MlirOperation func, const char *list, intptr_t i) {
  MlirAttribute attrs = mlirOperationGetAttributeByName(func, braze_ref(list));
  if (mlirAttributeIsNull(attrs) || !mlirAttributeIsAArray(attrs) || i >= mlirArrayAttrGetNumElements(attrs))
    return (MlirAttribute){NULL};
  MlirAttribute dict = mlirArrayAttrGetElement(attrs, i);
  return mlirAttributeIsADictionary(dict) ? mlirDictionaryAttrGetElementByName(dict, braze_ref("braze.sharding"))
                                          : (MlirAttribute){NULL};
}

/* Splits over axes of size 1 are no splits: a mesh of one device is the unsharded program. */
static void drop_unit_axes(const BrazeMesh *mesh, BrazeSharding *s) {
  for (int d = 0; d < s->rank; ++d)
    if (s->split[d] >= 0 && mesh->sizes[s->split[d]] == 1)
      s->split[d] = -1;
}

/* A sharding read from `attr` for a tensor of `t`, checked to divide evenly. */
static bool read_sharding(MlirAttribute attr, const BrazeMesh *mesh, const ShardTensor *t, BrazeSharding *s,
                          BrazeStr *why) {
  braze_sharding_replicated(s, t->rank);
  if (mlirAttributeIsNull(attr))
    return true;
  if (!braze_sharding_from_attr(attr, mesh, t->rank, s, why))
    return false;
  drop_unit_axes(mesh, s);
  int64_t local[BRAZE_MAX_RANK];
  int bad = -1;
  if (braze_sharding_local_shape(mesh, s, t->shape, local, &bad))
    return true;
  braze_str_printf(why, "dim %d (size %lld) does not divide over mesh axis '%s' (size %lld)", bad,
                   (long long)t->shape[bad], mesh->names[s->split[bad]], (long long)mesh->sizes[s->split[bad]]);
  return false;
}

static bool read_signature(ShardPlan *plan) {
  MlirType fn = mlirTypeAttrGetValue(mlirOperationGetAttributeByName(plan->func, braze_ref("function_type")));
  plan->num_args = (int)mlirFunctionTypeGetNumInputs(fn);
  plan->num_results = (int)mlirFunctionTypeGetNumResults(fn);
  plan->args = calloc((size_t)plan->num_args + 1, sizeof *plan->args);
  plan->results = calloc((size_t)plan->num_results + 1, sizeof *plan->results);
  for (int i = 0; i < plan->num_args + plan->num_results; ++i) {
    bool is_arg = i < plan->num_args;
    int k = is_arg ? i : i - plan->num_args;
    ShardTensor t = shard_tensor_of(is_arg ? mlirFunctionTypeGetInput(fn, k) : mlirFunctionTypeGetResult(fn, k));
    BrazeStr why = {0};
    bool ok = read_sharding(entry_sharding(plan->func, is_arg ? "arg_attrs" : "res_attrs", k), &plan->mesh, &t,
                            is_arg ? &plan->args[k] : &plan->results[k], &why);
    if (!ok)
      braze_emit_error(mlirOperationGetLocation(plan->func), "shard: %s #%d: %s", is_arg ? "argument" : "result", k,
                       braze_str_cstr(&why));
    braze_str_free(&why);
    if (!ok)
      return false;
  }
  return true;
}

/* An op's braze.sharding / braze.partial_* override; false with an error when malformed. */
static bool read_override(const ShardPlan *plan, ShardOpPlan *p, const ShardTensor *out) {
  MlirAttribute split = mlirOperationGetAttributeByName(p->op, braze_ref("braze.sharding"));
  if (mlirAttributeIsNull(split))
    return true;
  BrazeStr why = {0};
  bool ok = read_sharding(split, &plan->mesh, out, &p->result, &why);
  static const BrazePartialKind kinds[] = {BRAZE_PARTIAL_SUM, BRAZE_PARTIAL_MAX, BRAZE_PARTIAL_MIN};
  for (int k = 0; ok && k < 3; ++k) {
    char name[32];
    snprintf(name, sizeof name, "braze.%s", braze_partial_name(kinds[k]));
    MlirAttribute axes = mlirOperationGetAttributeByName(p->op, braze_ref(name));
    for (intptr_t i = 0; ok && !mlirAttributeIsNull(axes) && i < mlirArrayAttrGetNumElements(axes); ++i) {
      MlirAttribute e = mlirArrayAttrGetElement(axes, i);
      MlirStringRef s = mlirAttributeIsAString(e) ? mlirStringAttrGetValue(e) : braze_ref("");
      int a = braze_mesh_axis(&plan->mesh, s.data, s.length);
      ok = a >= 0 && (!p->result.partial || p->result.partial == kinds[k]);
      if (!ok)
        braze_str_printf(&why, "%s names '%.*s', not a mesh axis (or a second partial kind)", name, (int)s.length, s.data);
      else if (plan->mesh.sizes[a] > 1) {
        p->result.partial_axes |= BIT(a);
        p->result.partial = kinds[k];
      }
    }
  }
  if (!ok)
    braze_emit_error(mlirOperationGetLocation(p->op), "shard: the op's braze.sharding override: %s", braze_str_cstr(&why));
  braze_str_free(&why);
  p->overridden = ok;
  return ok;
}

/* ---- the plan ---- */

static bool divides(const BrazeMesh *mesh, const BrazeSharding *s, const ShardTensor *t) {
  int64_t local[BRAZE_MAX_RANK];
  int bad = -1;
  return braze_sharding_local_shape(mesh, s, t->shape, local, &bad);
}

static bool plan_graph_op(ShardPlan *plan, const ShardOptions *opts, ShardOpPlan *p) {
  ShardRuleCall c = {.mesh = &plan->mesh, .opts = opts, .op = p->op, .n = p->num_operands, .have = p->have,
                     .want = p->want, .result = &p->natural, .note = &p->note};
  for (int i = 0; i < p->num_operands; ++i)
    c.in[i] = shard_tensor_of(mlirValueGetType(mlirOperationGetOperand(p->op, i)));
  c.out = shard_tensor_of(mlirValueGetType(mlirOperationGetResult(p->op, 0)));
  shard_apply_rule(&c);
  bool even = divides(&plan->mesh, &p->natural, &c.out);
  for (int i = 0; i < p->num_operands; ++i)
    even = even && divides(&plan->mesh, &p->want[i], &c.in[i]);
  if (!even) { /* a split the rule made does not divide: run this op replicated */
    for (int i = 0; i < p->num_operands; ++i)
      braze_sharding_replicated(&p->want[i], c.in[i].rank);
    braze_sharding_replicated(&p->natural, c.out.rank);
    braze_str_clear(&p->note);
    braze_str_puts(&p->note, "a split dim would not divide evenly: runs replicated");
  }
  p->result = p->natural;
  if (opts->eager_reduce && p->natural.partial_axes) {
    p->result.partial_axes = 0;
    p->result.partial = BRAZE_PARTIAL_NONE;
  }
  return read_override(plan, p, &c.out);
}

static bool plan_op(ShardPlan *plan, const ShardOptions *opts, MlirOperation op) {
  bool is_return = braze_op_is(op, "func.return");
  if (!is_return && (!braze_is_graph_op(op) || mlirOperationGetNumResults(op) != 1 ||
                     mlirOperationGetNumOperands(op) > SHARD_MAX_OPERANDS)) {
    MlirStringRef name = braze_op_name(op);
    braze_emit_error(mlirOperationGetLocation(op),
                     "shard: '%.*s' has no sharding rule; a sharded function holds graph ops only", (int)name.length,
                     name.data);
    return false;
  }
  if (braze_graph_op_class(op) == GRAPH_COLLECTIVE) {
    braze_emit_error(mlirOperationGetLocation(op),
                     "shard: 'graph.%s' in a function to partition: collectives belong to the partitioned programs "
                     "shard-partition writes", braze_graph_op_mnemonic(op));
    return false;
  }
  ShardOpPlan *p = &plan->ops[plan->num_ops];
  *p = (ShardOpPlan){.op = op, .num_operands = (int)mlirOperationGetNumOperands(op)};
  size_t n = (size_t)p->num_operands + 1;
  p->have = calloc(n, sizeof *p->have);
  p->want = calloc(n, sizeof *p->want);
  p->global_types = calloc(n, sizeof *p->global_types);
  braze_ptrmap_put(&plan->op_index, braze_ptr_key(op.ptr), plan->num_ops++);
  for (int i = 0; i < p->num_operands; ++i) {
    p->global_types[i] = mlirValueGetType(mlirOperationGetOperand(op, i));
    const BrazeSharding *have = shard_plan_value(plan, mlirOperationGetOperand(op, i));
    if (!have) {
      braze_emit_error(mlirOperationGetLocation(op), "shard: operand #%d is not defined in this function's body", i);
      return false;
    }
    p->have[i] = *have;
  }
  if (!is_return)
    return plan_graph_op(plan, opts, p);
  for (int i = 0; i < p->num_operands && i < plan->num_results; ++i)
    p->want[i] = plan->results[i];
  return true;
}

static bool find_mesh(MlirOperation func, const ShardOptions *opts, BrazeMesh *mesh, bool *applies) {
  BrazeStr why = {0};
  bool present = false;
  bool ok = braze_mesh_from_func(func, mesh, &present, &why);
  if (!ok)
    braze_emit_error(mlirOperationGetLocation(func), "shard: %s", braze_str_cstr(&why));
  braze_str_free(&why);
  if (ok && opts->has_mesh) { /* the option's mesh; the function's other axes at size 1 */
    BrazeMesh own = *mesh;
    *mesh = opts->mesh;
    for (int a = 0; present && a < own.num_axes; ++a) {
      if (braze_mesh_axis(mesh, own.names[a], strlen(own.names[a])) >= 0)
        continue;
      if (mesh->num_axes == BRAZE_MESH_MAX_AXES) {
        braze_emit_error(mlirOperationGetLocation(func), "shard: the mesh option and the function's mesh have more "
                                                         "than %d axes together", BRAZE_MESH_MAX_AXES);
        return false;
      }
      memcpy(mesh->names[mesh->num_axes], own.names[a], sizeof own.names[a]);
      mesh->sizes[mesh->num_axes++] = 1;
    }
  }
  *applies = ok && (present || opts->has_mesh);
  return ok;
}

bool shard_plan_build(MlirOperation func, const ShardOptions *opts, ShardPlan *plan, bool *applies) {
  memset(plan, 0, sizeof *plan);
  plan->func = func;
  if (!find_mesh(func, opts, &plan->mesh, applies))
    return false;
  if (!*applies)
    return true;
  if (!mlirAttributeIsNull(mlirOperationGetAttributeByName(func, braze_ref("braze.partitioned")))) {
    braze_emit_error(mlirOperationGetLocation(func), "shard: the function is already partitioned (braze.partitioned)");
    return false;
  }
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  if (mlirBlockIsNull(body)) {
    *applies = false;
    return true;
  }
  if (!read_signature(plan))
    return false;
  int count = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    ++count;
  plan->ops = calloc((size_t)count + 1, sizeof *plan->ops);
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    if (!plan_op(plan, opts, op))
      return false;
  return true;
}

void shard_plan_free(ShardPlan *plan) {
  for (int i = 0; i < plan->num_ops; ++i) {
    braze_str_free(&plan->ops[i].note);
    free(plan->ops[i].have);
    free(plan->ops[i].want);
    free(plan->ops[i].global_types);
  }
  free(plan->ops);
  free(plan->args);
  free(plan->results);
  braze_ptrmap_free(&plan->op_index);
  memset(plan, 0, sizeof *plan);
}

/* ---- resharding ---- */

const char *shard_step_name(ShardStepKind kind) {
  static const char *const names[] = {"all_reduce", "reduce_scatter", "all_gather", "all_to_all", "all_slice"};
  return names[kind];
}

static void push(ShardStep *steps, int *n, ShardStep step, const BrazeSharding *after) {
  step.after = *after;
  steps[(*n)++] = step;
}

static int dim_split_over(const BrazeSharding *s, int axis) {
  for (int d = 0; d < s->rank; ++d)
    if (s->split[d] == axis)
      return d;
  return -1;
}

/* Reduce the partial axes: reduce_scatter into a dim `to` splits over that axis (and
 * `cur` does not), all_reduce the rest (one collective over all of them). */
static void reduce_partials(const BrazeMesh *mesh, BrazeSharding *cur, const BrazeSharding *to, ShardStep *steps,
                            int *n) {
  BrazePartialKind kind = cur->partial;
  for (int a = 0; a < mesh->num_axes; ++a) {
    int e = dim_split_over(to, a);
    if (!(cur->partial_axes & BIT(a)) || e < 0 || cur->split[e] >= 0)
      continue;
    cur->partial_axes &= (uint8_t)~BIT(a);
    cur->split[e] = (int8_t)a;
    push(steps, n, (ShardStep){SHARD_REDUCE_SCATTER, e, -1, BIT(a), kind, {0}}, cur);
  }
  if (cur->partial_axes) {
    uint8_t axes = cur->partial_axes;
    cur->partial_axes = 0;
    cur->partial = BRAZE_PARTIAL_NONE;
    push(steps, n, (ShardStep){SHARD_ALL_REDUCE, -1, -1, axes, kind, {0}}, cur);
  }
  if (!cur->partial_axes)
    cur->partial = BRAZE_PARTIAL_NONE;
}

bool shard_reshard_steps(const BrazeMesh *mesh, const BrazeSharding *from, const BrazeSharding *to, ShardStep *steps,
                         int *num_steps) {
  *num_steps = 0;
  BrazeSharding cur = *from;
  if (to->partial_axes && !(to->partial_axes == from->partial_axes && to->partial == from->partial))
    return false;
  if (cur.partial_axes && !to->partial_axes)
    reduce_partials(mesh, &cur, to, steps, num_steps);
  for (int d = 0; d < cur.rank; ++d) { /* a split moving to another dim: all_to_all */
    int a = cur.split[d], e = a >= 0 && to->split[d] != a ? dim_split_over(to, a) : -1;
    if (e < 0 || cur.split[e] >= 0)
      continue;
    cur.split[d] = -1;
    cur.split[e] = (int8_t)a;
    push(steps, num_steps, (ShardStep){SHARD_ALL_TO_ALL, e, d, BIT(a), BRAZE_PARTIAL_NONE, {0}}, &cur);
  }
  for (int d = 0; d < cur.rank; ++d)
    if (cur.split[d] >= 0 && cur.split[d] != to->split[d]) {
      uint8_t axes = BIT(cur.split[d]);
      cur.split[d] = -1;
      push(steps, num_steps, (ShardStep){SHARD_ALL_GATHER, d, -1, axes, BRAZE_PARTIAL_NONE, {0}}, &cur);
    }
  for (int d = 0; d < cur.rank; ++d)
    if (to->split[d] >= 0 && cur.split[d] < 0) {
      cur.split[d] = to->split[d];
      push(steps, num_steps, (ShardStep){SHARD_ALL_SLICE, d, -1, BIT(to->split[d]), BRAZE_PARTIAL_NONE, {0}}, &cur);
    }
  return true;
}

static int64_t local_bytes(const BrazeMesh *mesh, const ShardTensor *t, const BrazeSharding *s) {
  int64_t elements = 1, total = 1;
  for (int d = 0; d < t->rank; ++d) {
    total *= t->shape[d];
    elements *= t->shape[d] / (s->split[d] >= 0 ? mesh->sizes[s->split[d]] : 1);
  }
  return total ? t->bytes / total * elements : 0;
}

int64_t shard_step_bytes(const BrazeMesh *mesh, const ShardTensor *t, const BrazeSharding *before, const ShardStep *step) {
  int64_t in = local_bytes(mesh, t, before), out = local_bytes(mesh, t, &step->after);
  return in > out ? in : out;
}
