/* Remarks and the collectives report of the sharding analysis (passes/shard/report.h). */
#include "passes/shard/report.h"

#include <stdio.h>

#include "dialects/graph/graph.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "support/context.h"
#include "support/diag.h"

/* One resharding the plan implies: operand `operand` of ops[index], or (-1) the
 * op's own result into its override. */
typedef void (*ReshardFn)(const ShardPlan *plan, int index, int operand, const ShardTensor *t,
                          const BrazeSharding *from, const ShardStep *steps, int n, void *user);

static void for_each_reshard(const ShardPlan *plan, ReshardFn fn, void *user) {
  ShardStep steps[SHARD_MAX_STEPS];
  int n = 0;
  for (int k = 0; k < plan->num_ops; ++k) {
    const ShardOpPlan *p = &plan->ops[k];
    for (int i = 0; i < p->num_operands; ++i) {
      ShardTensor t = shard_tensor_of(p->global_types[i]);
      if (!braze_sharding_equal(&p->have[i], &p->want[i]) &&
          shard_reshard_steps(&plan->mesh, &p->have[i], &p->want[i], steps, &n) && n)
        fn(plan, k, i, &t, &p->have[i], steps, n, user);
    }
    if (!braze_op_is(p->op, "func.return") && !braze_sharding_equal(&p->natural, &p->result)) {
      ShardTensor t = shard_tensor_of(mlirValueGetType(mlirOperationGetResult(p->op, 0)));
      if (shard_reshard_steps(&plan->mesh, &p->natural, &p->result, steps, &n) && n)
        fn(plan, k, -1, &t, &p->natural, steps, n, user);
    }
  }
}

static void describe_step(const ShardPlan *plan, const ShardStep *s, BrazeStr *out) {
  braze_str_puts(out, shard_step_name(s->kind));
  if (s->kind == SHARD_ALL_REDUCE || s->kind == SHARD_REDUCE_SCATTER)
    braze_str_printf(out, "(%s)", braze_partial_name(s->reduction) + 8);
  if (s->kind == SHARD_ALL_TO_ALL)
    braze_str_printf(out, " split_dim %d concat_dim %d", s->dim, s->concat_dim);
  else if (s->kind != SHARD_ALL_REDUCE)
    braze_str_printf(out, " dim %d", s->dim);
  braze_str_puts(out, " over");
  for (int a = 0; a < plan->mesh.num_axes; ++a)
    if (s->axes & (1u << a))
      braze_str_printf(out, " %s", plan->mesh.names[a]);
}

static void what(int operand, BrazeStr *out) {
  if (operand >= 0)
    braze_str_printf(out, "operand #%d", operand);
  else
    braze_str_puts(out, "the result");
}

static void remark_reshard(const ShardPlan *plan, int index, int operand, const ShardTensor *t,
                           const BrazeSharding *from, const ShardStep *steps, int n, void *user) {
  (void)user;
  const BrazeSharding *before = from;
  for (int s = 0; s < n; before = &steps[s].after, ++s) {
    BrazeStr msg = {0};
    braze_str_puts(&msg, "shard: ");
    describe_step(plan, &steps[s], &msg);
    braze_str_puts(&msg, " of ");
    what(operand, &msg);
    braze_str_printf(&msg, ", %lld bytes per rank", (long long)shard_step_bytes(&plan->mesh, t, before, &steps[s]));
    braze_emit_remark(mlirOperationGetLocation(plan->ops[index].op), "%s", braze_str_cstr(&msg));
    braze_str_free(&msg);
  }
}

void shard_emit_remarks(const ShardPlan *plan) {
  for (int k = 0; k < plan->num_ops; ++k) {
    const ShardOpPlan *p = &plan->ops[k];
    if (braze_op_is(p->op, "func.return"))
      continue;
    BrazeStr msg = {0};
    braze_str_puts(&msg, "shard: result ");
    braze_sharding_describe(&plan->mesh, &p->natural, &msg);
    if (!braze_sharding_equal(&p->natural, &p->result)) {
      braze_str_puts(&msg, p->overridden ? ", overridden to " : ", reduced at once (eager-reduce) to ");
      braze_sharding_describe(&plan->mesh, &p->result, &msg);
    }
    if (p->note.len)
      braze_str_printf(&msg, "; %s", braze_str_cstr(&p->note));
    braze_emit_remark(mlirOperationGetLocation(p->op), "%s", braze_str_cstr(&msg));
    braze_str_free(&msg);
  }
  for_each_reshard(plan, remark_reshard, NULL);
}

typedef struct {
  BrazeStr *out;
  int count;
  int64_t bytes;
} ReportState;

static void type_text(MlirStringRef piece, void *user) { braze_str_append(user, piece.data, piece.length); }

static void report_reshard(const ShardPlan *plan, int index, int operand, const ShardTensor *t,
                           const BrazeSharding *from, const ShardStep *steps, int n, void *user) {
  ReportState *st = user;
  MlirOperation op = plan->ops[index].op;
  const char *file = "?";
  size_t file_len = 1;
  unsigned line = 0, col = 0;
  braze_location_file_line_col(mlirOperationGetLocation(op), &file, &file_len, &line, &col);
  MlirStringRef name = braze_op_name(op);
  MlirValue v = operand >= 0 ? mlirOperationGetOperand(op, operand) : mlirOperationGetResult(op, 0);
  const BrazeSharding *before = from;
  for (int s = 0; s < n; before = &steps[s].after, ++s) {
    int64_t bytes = shard_step_bytes(&plan->mesh, t, before, &steps[s]);
    braze_str_puts(st->out, "  ");
    describe_step(plan, &steps[s], st->out);
    braze_str_puts(st->out, " of ");
    mlirTypePrint(mlirValueGetType(v), type_text, st->out);
    braze_str_puts(st->out, " (");
    what(operand, st->out);
    braze_str_printf(st->out, " of %.*s at %.*s:%u:%u): %lld bytes per rank\n", (int)name.length, name.data,
                     (int)file_len, file, line, col, (long long)bytes);
    st->count++;
    st->bytes += bytes;
  }
}

void shard_report_text(const ShardPlan *plan, BrazeStr *out) {
  MlirAttribute sym = mlirOperationGetAttributeByName(plan->func, braze_ref("sym_name"));
  MlirStringRef name = mlirStringAttrGetValue(sym);
  braze_str_printf(out, "shard report: @%.*s on mesh ", (int)name.length, name.data);
  braze_mesh_describe(&plan->mesh, out);
  int64_t devices = braze_mesh_devices(&plan->mesh);
  braze_str_printf(out, " (%lld device%s)\n", (long long)devices, devices == 1 ? "" : "s");
  ReportState st = {out, 0, 0};
  for_each_reshard(plan, report_reshard, &st);
  braze_str_printf(out, "  total: %d collective%s, %lld bytes per rank\n", st.count, st.count == 1 ? "" : "s",
                   (long long)st.bytes);
}
