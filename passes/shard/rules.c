/* The per-op sharding rules (docs/sharding.md "Rules"): given the shardings an op's
 * operands have, what the op wants them to be and what its result then is.
 *
 * - pointwise (unary, binary, cmp, select, cast, gelu, silu): split dims flow to the
 *   result (broadcast dims stay replicated); operands that disagree are a conflict.
 *   A partial value passes through the ops linear in it (neg; add/sub of partial sums,
 *   max/min of partial maxes/mins, over the same axes; mul by / div of a non-partial).
 * - reductions: a reduced split dim makes a partial result (sum -> partial_sum, max ->
 *   partial_max, min -> partial_min); reduce_mean/reduce_var gather it instead.
 * - matmul / batch_matmul: M from A, N from B, batch dims like pointwise, a K split in
 *   both (the other operand is sliced to match) gives a partial sum: Megatron's column
 *   then row split is one all_reduce at the end.
 * - transpose, broadcast_to, reshape (where the split dim survives whole or as the
 *   leading dim of a merged/split group), slice (split dims taken whole): the split
 *   moves with its dim; partial values pass through.
 * - softmax/log_softmax (dim), layer_norm/rms_norm (dims >= axis), batch_norm (dim 1),
 *   concat (dim), linear (K): those dims are gathered, the others carry.
 * - anything else (constants, gathers, ...) runs replicated.
 * Conflicts are resolved by the options' rule (analysis.h, ShardConflictRule). */
#include <string.h>

#include "dialects/graph/graph.h"
#include "mlir-c/BuiltinAttributes.h"
#include "passes/shard/analysis.h"

#define BIT(a) ((uint8_t)(1u << (a)))

static BrazeSharding unpartial(const BrazeSharding *s) {
  BrazeSharding u = *s;
  u.partial_axes = 0;
  u.partial = BRAZE_PARTIAL_NONE;
  return u;
}

static uint8_t split_axes(const BrazeSharding *s) {
  uint8_t used = 0;
  for (int d = 0; d < s->rank; ++d)
    if (s->split[d] >= 0)
      used |= BIT(s->split[d]);
  return used;
}

static void replicate_all(ShardRuleCall *c, const char *why) {
  for (int i = 0; i < c->n; ++i)
    braze_sharding_replicated(&c->want[i], c->in[i].rank);
  braze_sharding_replicated(c->result, c->out.rank);
  bool any = false;
  for (int i = 0; i < c->n; ++i)
    any = any || !braze_sharding_is_replicated(&c->have[i]);
  if (any && why)
    braze_str_puts(c->note, why);
}

/* Operand indices in the order the conflict rule prefers them. */
static void priority(const ShardRuleCall *c, int *order) {
  for (int i = 0; i < c->n; ++i)
    order[i] = i;
  if (c->opts->conflict != SHARD_CONFLICT_LARGEST)
    return;
  for (int i = 1; i < c->n; ++i) /* stable insertion sort, largest first */
    for (int j = i; j > 0 && c->in[order[j]].bytes > c->in[order[j - 1]].bytes; --j) {
      int t = order[j];
      order[j] = order[j - 1];
      order[j - 1] = t;
    }
}

static const char *rule_name(const ShardRuleCall *c) {
  return c->opts->conflict == SHARD_CONFLICT_LARGEST ? "largest" : c->opts->conflict == SHARD_CONFLICT_FIRST ? "first"
                                                                                                             : "replicate";
}

/* Claim result dim e for axis a unless taken; false on a conflict. */
static bool claim(BrazeSharding *res, uint8_t *used, int e, int a) {
  if (a < 0 || res->split[e] == a)
    return true;
  if (res->split[e] >= 0 || (*used & BIT(a)))
    return false;
  res->split[e] = (int8_t)a;
  *used |= BIT(a);
  return true;
}

static void note_conflict(ShardRuleCall *c, const char *what) {
  if (c->note->len)
    return;
  braze_str_printf(c->note, "conflict: %s; rule conflict=%s", what, rule_name(c));
}

/* ---- pointwise ---- */

/* Right-aligned broadcasting: operand dim d is result dim d + lead when not stretched. */
static bool carries(const ShardRuleCall *c, int i, int d, int *e) {
  *e = d + c->out.rank - c->in[i].rank;
  return c->in[i].shape[d] == c->out.shape[*e];
}

/* The result split from all operands (dim `forbid` kept replicated); false on a conflict. */
static bool merge_splits(ShardRuleCall *c, int forbid) {
  int order[SHARD_MAX_OPERANDS];
  priority(c, order);
  braze_sharding_replicated(c->result, c->out.rank);
  uint8_t used = 0;
  bool clean = true;
  for (int k = 0; k < c->n; ++k)
    for (int d = 0, i = order[k], e; d < c->in[i].rank; ++d)
      if (carries(c, i, d, &e) && e != forbid && !claim(c->result, &used, e, c->have[i].split[d]))
        clean = false;
  return clean;
}

static void want_from_result(ShardRuleCall *c) {
  for (int i = 0; i < c->n; ++i) {
    braze_sharding_replicated(&c->want[i], c->in[i].rank);
    for (int d = 0, e; d < c->in[i].rank; ++d)
      if (carries(c, i, d, &e))
        c->want[i].split[d] = c->result->split[e];
  }
}

static bool same_partial(const BrazeSharding *a, const BrazeSharding *b) {
  return a->partial_axes && a->partial_axes == b->partial_axes && a->partial == b->partial;
}

/* Which operands may stay partial (a bit each), the op being linear in them. */
static unsigned linear_partials(const ShardRuleCall *c, const char *m) {
  const BrazeSharding *h = c->have;
  bool p0 = h[0].partial_axes, p1 = c->n > 1 && h[1].partial_axes;
  if (c->opts->eager_reduce || (!p0 && !p1))
    return 0;
  if (!strcmp(m, "neg") && h[0].partial == BRAZE_PARTIAL_SUM)
    return 1;
  if ((!strcmp(m, "add") || !strcmp(m, "sub")) && same_partial(&h[0], &h[1]) && h[0].partial == BRAZE_PARTIAL_SUM)
    return 3;
  bool max_of_max = !strcmp(m, "max") && h[0].partial == BRAZE_PARTIAL_MAX;
  bool min_of_min = !strcmp(m, "min") && h[0].partial == BRAZE_PARTIAL_MIN;
  if ((max_of_max || min_of_min) && same_partial(&h[0], &h[1]))
    return 3;
  if (!strcmp(m, "mul") && p0 != p1)
    return (p0 ? h[0].partial : h[1].partial) == BRAZE_PARTIAL_SUM ? (p0 ? 1u : 2u) : 0;
  if (!strcmp(m, "div") && p0 && !p1 && h[0].partial == BRAZE_PARTIAL_SUM)
    return 1;
  return 0;
}

/* Keep the partial state of the operands in `mask` (and give it to the result) when
 * no split uses its axes. */
static void keep_partials(ShardRuleCall *c, unsigned mask) {
  for (int i = 0; i < c->n; ++i)
    if ((mask & (1u << i)) && (c->have[i].partial_axes & split_axes(c->result)))
      mask = 0;
  for (int i = 0; i < c->n; ++i) {
    if (!(mask & (1u << i)))
      continue;
    c->want[i].partial_axes = c->have[i].partial_axes;
    c->want[i].partial = c->have[i].partial;
    c->result->partial_axes = c->have[i].partial_axes;
    c->result->partial = c->have[i].partial;
  }
}

static void rule_pointwise(ShardRuleCall *c, const char *m, int forbid) {
  if (!merge_splits(c, forbid)) {
    note_conflict(c, "operands are split differently");
    if (c->opts->conflict == SHARD_CONFLICT_REPLICATE) {
      replicate_all(c, NULL);
      return;
    }
  }
  want_from_result(c);
  keep_partials(c, forbid < 0 ? linear_partials(c, m) : 0);
}

/* ---- reductions ---- */

static BrazePartialKind reduction_partial(const char *m) {
  return !strcmp(m, "reduce_sum") ? BRAZE_PARTIAL_SUM
         : !strcmp(m, "reduce_max") ? BRAZE_PARTIAL_MAX
         : !strcmp(m, "reduce_min") ? BRAZE_PARTIAL_MIN
                                    : BRAZE_PARTIAL_NONE;
}

static void rule_reduce(ShardRuleCall *c, const char *m) {
  int64_t dims[BRAZE_MAX_RANK];
  intptr_t nd = braze_attr_i64_array(c->op, "dims", dims, BRAZE_MAX_RANK);
  MlirAttribute k = mlirOperationGetAttributeByName(c->op, mlirStringRefCreateFromCString("keepdim"));
  bool keep = !mlirAttributeIsNull(k) && mlirAttributeIsABool(k) && mlirBoolAttrGetValue(k);
  BrazePartialKind kind = reduction_partial(m);
  c->want[0] = c->have[0];
  bool pass = kind && c->have[0].partial == kind && !c->opts->eager_reduce;
  if (!pass)
    c->want[0] = unpartial(&c->have[0]);
  bool reduced[BRAZE_MAX_RANK] = {false};
  for (intptr_t i = 0; i < nd; ++i)
    if (dims[i] >= 0 && dims[i] < c->in[0].rank)
      reduced[dims[i]] = true;
  braze_sharding_replicated(c->result, c->out.rank);
  c->result->partial_axes = c->want[0].partial_axes;
  c->result->partial = c->want[0].partial;
  for (int d = 0, e = 0; d < c->in[0].rank; ++d) {
    int a = c->want[0].split[d];
    if (!reduced[d])
      c->result->split[e] = (int8_t)a;
    else if (a >= 0 && kind) {
      c->result->partial_axes |= BIT(a);
      c->result->partial = kind;
    } else if (a >= 0) {
      c->want[0].split[d] = -1;
      braze_str_printf(c->note, "graph.%s over split dim %d: gathered (a %s of local %ss is not a partial sum)", m, d,
                       m + 7, m + 7);
    }
    e += !reduced[d] || keep;
  }
}

/* ---- contractions ---- */

static void rule_contraction(ShardRuleCall *c) {
  int order[SHARD_MAX_OPERANDS], ro = c->out.rank;
  priority(c, order);
  braze_sharding_replicated(c->result, ro);
  uint8_t used = 0;
  int kaxis = -1;
  bool clean = true;
  for (int k = 0; k < 2; ++k) {
    int i = order[k], r = c->in[i].rank, e;
    const BrazeSharding *h = &c->have[i];
    for (int d = 0; d < r - 2; ++d) /* batch dims, aligned right to the result's */
      if (carries(c, i, d, &e) && !claim(c->result, &used, e, h->split[d]))
        clean = false;
    int own = i == 0 ? r - 2 : r - 1, kdim = i == 0 ? r - 1 : r - 2;
    if (!claim(c->result, &used, i == 0 ? ro - 2 : ro - 1, h->split[own]))
      clean = false;
    int a = h->split[kdim];
    if (a >= 0 && a != kaxis) {
      if (kaxis >= 0 || (used & BIT(a)))
        clean = false;
      else {
        kaxis = a;
        used |= BIT(a);
      }
    }
  }
  if (!clean) {
    note_conflict(c, "the operands' splits cannot all be kept");
    if (c->opts->conflict == SHARD_CONFLICT_REPLICATE) {
      replicate_all(c, NULL);
      return;
    }
  }
  for (int i = 0; i < 2; ++i) {
    int r = c->in[i].rank, e;
    braze_sharding_replicated(&c->want[i], r);
    for (int d = 0; d < r - 2; ++d)
      if (carries(c, i, d, &e))
        c->want[i].split[d] = c->result->split[e];
    c->want[i].split[i == 0 ? r - 2 : r - 1] = c->result->split[i == 0 ? ro - 2 : ro - 1];
    c->want[i].split[i == 0 ? r - 1 : r - 2] = (int8_t)kaxis;
  }
  if (kaxis >= 0) {
    c->result->partial_axes = BIT(kaxis);
    c->result->partial = BRAZE_PARTIAL_SUM;
  }
  /* bilinear: one partial-sum operand stays partial (axes not otherwise used) */
  for (int i = 0; i < 2 && !c->opts->eager_reduce; ++i) {
    const BrazeSharding *h = &c->have[i], *o = &c->have[1 - i];
    if (h->partial == BRAZE_PARTIAL_SUM && h->partial_axes && !o->partial_axes && !(h->partial_axes & used)) {
      c->want[i].partial_axes = h->partial_axes;
      c->want[i].partial = BRAZE_PARTIAL_SUM;
      c->result->partial_axes |= h->partial_axes;
      c->result->partial = BRAZE_PARTIAL_SUM;
    }
  }
}

/* ---- shape ops: the split moves with its dim, partial values pass through ---- */

static void keep_input_partial(ShardRuleCall *c) {
  c->want[0].partial_axes = c->have[0].partial_axes;
  c->want[0].partial = c->have[0].partial;
  c->result->partial_axes = c->have[0].partial_axes;
  c->result->partial = c->have[0].partial;
}

static void rule_transpose(ShardRuleCall *c) {
  int64_t perm[BRAZE_MAX_RANK];
  braze_attr_i64_array(c->op, "perm", perm, BRAZE_MAX_RANK);
  c->want[0] = c->have[0];
  braze_sharding_replicated(c->result, c->out.rank);
  for (int i = 0; i < c->out.rank; ++i)
    c->result->split[i] = c->have[0].split[perm[i]];
  keep_input_partial(c);
}

static void rule_broadcast(ShardRuleCall *c) {
  c->want[0] = c->have[0];
  braze_sharding_replicated(c->result, c->out.rank);
  for (int d = 0, e; d < c->in[0].rank; ++d)
    if (carries(c, 0, d, &e))
      c->result->split[e] = c->have[0].split[d];
    else
      c->want[0].split[d] = -1;
  keep_input_partial(c);
}

/* The result dim a split input dim d of a reshape lands on, or -1 (see the header). */
static int reshape_target(const ShardRuleCall *c, int d, int64_t ways) {
  const int64_t *in = c->in[0].shape, *out = c->out.shape;
  int64_t before = 1, prefix = 1;
  for (int i = 0; i < d; ++i)
    before *= in[i];
  for (int e = 0; e < c->out.rank; prefix *= out[e], ++e) {
    if (prefix != before || out[e] == 1)
      continue;
    bool whole = out[e] == in[d];
    bool merged = out[e] > in[d] && out[e] % in[d] == 0;
    bool split = in[d] > out[e] && in[d] % out[e] == 0 && out[e] % ways == 0;
    return whole || merged || split ? e : -1;
  }
  return -1;
}

static void rule_reshape(ShardRuleCall *c) {
  c->want[0] = c->have[0];
  braze_sharding_replicated(c->result, c->out.rank);
  for (int d = 0; d < c->in[0].rank; ++d) {
    int a = c->have[0].split[d];
    if (a < 0)
      continue;
    int e = reshape_target(c, d, c->mesh->sizes[a]);
    if (e >= 0)
      c->result->split[e] = (int8_t)a;
    else {
      c->want[0].split[d] = -1;
      braze_str_printf(c->note, "reshape does not keep split dim %d whole or leading: gathered", d);
    }
  }
  keep_input_partial(c);
}

static void rule_slice(ShardRuleCall *c) {
  int64_t starts[BRAZE_MAX_RANK], limits[BRAZE_MAX_RANK], strides[BRAZE_MAX_RANK];
  braze_attr_i64_array(c->op, "starts", starts, BRAZE_MAX_RANK);
  braze_attr_i64_array(c->op, "limits", limits, BRAZE_MAX_RANK);
  braze_attr_i64_array(c->op, "strides", strides, BRAZE_MAX_RANK);
  c->want[0] = c->have[0];
  for (int d = 0; d < c->in[0].rank; ++d)
    if (c->have[0].split[d] >= 0 && !(starts[d] == 0 && limits[d] == c->in[0].shape[d] && strides[d] == 1)) {
      c->want[0].split[d] = -1;
      braze_str_printf(c->note, "slice of part of split dim %d: gathered", d);
    }
  *c->result = c->want[0];
  keep_input_partial(c);
}

/* ---- ops that need some dims whole ---- */

/* Operand 0's split except dims >= from (or only `dim` when from < 0); the other
 * operands replicated; the result like operand 0. */
static void rule_whole_dims(ShardRuleCall *c, const char *m, int dim, int from) {
  c->want[0] = unpartial(&c->have[0]);
  for (int d = 0; d < c->in[0].rank; ++d)
    if ((from >= 0 ? d >= from : d == dim) && c->want[0].split[d] >= 0) {
      c->want[0].split[d] = -1;
      braze_str_printf(c->note, "graph.%s needs dim %d whole: gathered", m, d);
    }
  for (int i = 1; i < c->n; ++i)
    braze_sharding_replicated(&c->want[i], c->in[i].rank);
  *c->result = c->want[0];
}

static void rule_linear(ShardRuleCall *c) {
  int r = c->in[0].rank;
  braze_sharding_replicated(c->result, c->out.rank);
  uint8_t used = 0;
  bool clean = true;
  int order[SHARD_MAX_OPERANDS];
  priority(c, order);
  for (int k = 0; k < 2; ++k) { /* x's leading dims and weight's N, by priority */
    int i = order[k];
    if (i == 0)
      for (int d = 0; d < r - 1; ++d)
        clean = claim(c->result, &used, d, c->have[0].split[d]) && clean;
    else if (i == 1)
      clean = claim(c->result, &used, r - 1, c->have[1].split[0]) && clean;
  }
  if (!clean)
    note_conflict(c, "x and weight are split over one axis");
  if (c->have[0].split[r - 1] >= 0 || c->have[1].split[1] >= 0)
    braze_str_puts(c->note, c->note->len ? "; K gathered (the bias is added after the sum)"
                                         : "graph.linear with a split K: gathered (the bias is added after the sum)");
  for (int i = 0; i < c->n; ++i)
    braze_sharding_replicated(&c->want[i], c->in[i].rank);
  for (int d = 0; d < r - 1; ++d)
    c->want[0].split[d] = c->result->split[d];
  c->want[1].split[0] = c->result->split[r - 1];
  if (c->n > 2)
    c->want[2].split[0] = c->result->split[r - 1];
}

void shard_apply_rule(ShardRuleCall *c) {
  const char *m = braze_graph_op_mnemonic(c->op);
  int64_t attr = -1;
  switch (braze_graph_op_class(c->op)) {
  case GRAPH_UNARY:
  case GRAPH_BINARY:
  case GRAPH_CMP:
  case GRAPH_SELECT:
    rule_pointwise(c, m, -1);
    return;
  case GRAPH_REDUCE:
    rule_reduce(c, m);
    return;
  case GRAPH_CONTRACTION:
    rule_contraction(c);
    return;
  case GRAPH_SHAPE:
    if (!strcmp(m, "transpose"))
      rule_transpose(c);
    else if (!strcmp(m, "broadcast_to"))
      rule_broadcast(c);
    else if (!strcmp(m, "reshape"))
      rule_reshape(c);
    else if (!strcmp(m, "slice"))
      rule_slice(c);
    else if (braze_attr_i64(c->op, "dim", &attr)) /* concat */
      rule_pointwise(c, m, (int)attr);
    else
      replicate_all(c, "no dim attribute: runs replicated");
    return;
  case GRAPH_COMPOSITE:
    if (!strcmp(m, "gelu") || !strcmp(m, "silu"))
      rule_pointwise(c, m, -1);
    else if ((!strcmp(m, "softmax") || !strcmp(m, "log_softmax")) && braze_attr_i64(c->op, "dim", &attr))
      rule_whole_dims(c, m, (int)attr, -1);
    else if ((!strcmp(m, "layer_norm") || !strcmp(m, "rms_norm")) && braze_attr_i64(c->op, "axis", &attr))
      rule_whole_dims(c, m, -1, (int)attr);
    else if (!strcmp(m, "batch_norm"))
      rule_whole_dims(c, m, 1, -1);
    else if (!strcmp(m, "linear") && c->n >= 2)
      rule_linear(c);
    else
      replicate_all(c, "no sharding rule: runs replicated, its operands gathered");
    return;
  default:
    replicate_all(c, "no sharding rule: runs replicated, its operands gathered");
  }
}
