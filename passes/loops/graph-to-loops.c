/* graph-to-loops: lower primitive graph ops to the loop level (docs/architecture.md,
 * "2. loop level"): linalg.generic on tensors with scalar arith/math bodies.
 *
 * Views (transpose, broadcast_to, slice, reshape) emit nothing: each is recorded as
 * (base tensor, affine map from the view's index space to the base's), and every
 * consumer composes its read map through it. A view still used by a non-graph op
 * (func.return, func.call, ...) is materialized by a copy generic at the end, and so
 * is one operand of a generic none of whose operands binds a loop by a bare dim: the
 * one whose view repeats its base's elements the least (a conv's weight, not its
 * window columns: decision 0021).
 * Splat constants (the scalars graph-decompose introduces) are read as scalar
 * arith.constants inside the body instead of as tensor inputs.
 *
 * Composite ops and reduce_var are refused before anything changes: they belong to
 * graph-decompose. Options: none. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dialects/graph/graph.h"
#include "ir/origins.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "passes/loops/builder.h"
#include "passes/loops/graph-to-loops-checks.h"
#include "passes/loops/indexed-read.h"
#include "passes/loops/loop-passes.h"
#include "passes/loops/signless.h"
#include "passes/loops/view-maps.h"
#include "support/affine-bounds.h"
#include "support/context.h"
#include "support/diag.h"
#include "support/oplist.h"

enum { MAX_READS = 16, MAX_LOOPS = BRAZE_MAX_RANK + 1 };

/* A view op's result: it reads `base` through `map` (view index -> base index). */
typedef struct {
  MlirOperation op;
  MlirValue key; /* op's result (kept: op is destroyed before the table is) */
  MlirValue base;
  MlirAffineMap map;
  MlirValue copy; /* the materialized copy, null until something needs a tensor */
} View;

typedef struct {
  MlirContext ctx;
  View *views;
  size_t num_views, cap_views;
  MlirOperation *constants; /* arith.constants made from graph.constant (erased if unused) */
  size_t num_constants, cap_constants;
  MlirOperation *absorbed; /* inner concats of the chain just lowered, outermost first */
  size_t num_absorbed, cap_absorbed;
  BrazePtrMap sign; /* graph op -> BRAZE_UNSIGNED_* flags (types are signless by then) */
} Lowering;

/* How a generic reads its graph operands: deduplicated tensor inputs with their
 * maps, and per graph operand either the block argument or a splat scalar. */
typedef struct {
  MlirValue inputs[MAX_READS];
  MlirAffineMap maps[MAX_READS + 1]; /* + room for the output map */
  intptr_t num_inputs;
  intptr_t arg_of[MAX_READS];     /* block argument index, or -1 for a splat */
  MlirAttribute splat_of[MAX_READS];
  const int64_t *extents; /* the generic's loop extents (num_loops of them) */
  intptr_t num_loops;
} Reads;

/* ---- views ---- */

static View *find_view(Lowering *L, MlirValue v) {
  for (size_t i = 0; i < L->num_views; ++i)
    if (mlirValueEqual(L->views[i].key, v))
      return &L->views[i];
  return NULL;
}

/* The tensor `v` reads and the map from v's index space into it. */
static void resolve(Lowering *L, MlirValue v, MlirValue *base, MlirAffineMap *map) {
  View *view = find_view(L, v);
  if (view) {
    *base = view->base;
    *map = view->map;
  } else {
    *base = v;
    *map = braze_map_identity(L->ctx, braze_rank(mlirValueGetType(v)));
  }
}

static void add_view(Lowering *L, MlirOperation op, MlirAffineMap view_to_input) {
  MlirValue base;
  MlirAffineMap input_map;
  resolve(L, mlirOperationGetOperand(op, 0), &base, &input_map);
  if (L->num_views == L->cap_views) {
    L->cap_views = L->cap_views ? 2 * L->cap_views : 8;
    L->views = realloc(L->views, L->cap_views * sizeof *L->views);
  }
  MlirAffineMap map = braze_map_compose(input_map, view_to_input);
  L->views[L->num_views++] = (View){op, mlirOperationGetResult(op, 0), base, map, {NULL}};
}

/* ---- reads ---- */

/* The scalar of a splat arith.constant tensor, or a null attribute. */
static MlirAttribute splat_scalar(MlirValue v) {
  if (!mlirValueIsAOpResult(v))
    return (MlirAttribute){NULL};
  MlirOperation def = mlirOpResultGetOwner(v);
  if (!braze_op_is(def, "arith.constant"))
    return (MlirAttribute){NULL};
  MlirAttribute value = mlirOperationGetAttributeByName(def, braze_ref("value"));
  if (!mlirAttributeIsADenseElements(value) || !mlirDenseElementsAttrIsSplat(value))
    return (MlirAttribute){NULL};
  return mlirDenseElementsAttrGetSplatValue(value);
}

/* linalg derives each loop's extent from an operand dim it indexes by a bare `d`,
 * and requires every such dim to have exactly that size. A slice that keeps the
 * start of a dim but not its end (start 0, stride 1) composes to a bare `d` over a
 * larger dim: it is read as `d mod E` (E the loop's extent; d < E, so the same
 * element), which linalg only bounds-checks. */
static MlirAffineMap fix_partial_dims(Lowering *L, const Reads *r, MlirAffineMap map, MlirType operand) {
  intptr_t n = mlirAffineMapGetNumResults(map);
  if (n == 0 || n > BRAZE_MAX_RANK)
    return map;
  MlirAffineExpr exprs[BRAZE_MAX_RANK];
  bool changed = false;
  for (intptr_t i = 0; i < n; ++i) {
    exprs[i] = mlirAffineMapGetResult(map, i);
    if (!mlirAffineExprIsADim(exprs[i]))
      continue;
    intptr_t d = mlirAffineDimExprGetPosition(exprs[i]);
    if (d >= r->num_loops || r->extents[d] == mlirShapedTypeGetDimSize(operand, i))
      continue;
    exprs[i] = mlirAffineModExprGet(exprs[i], mlirAffineConstantExprGet(L->ctx, r->extents[d]));
    changed = true;
  }
  return changed ? mlirAffineMapGet(L->ctx, mlirAffineMapGetNumDims(map), 0, n, exprs) : map;
}

/* Record that graph operand `k` (value v) is read through `logical` (loop dims ->
 * v's dims), composed through any view. `tensor`: never as a splat scalar. */
static void add_read(Lowering *L, Reads *r, intptr_t k, MlirValue v, MlirAffineMap logical, bool tensor) {
  MlirValue base;
  MlirAffineMap view_map;
  resolve(L, v, &base, &view_map);
  r->splat_of[k] = tensor ? (MlirAttribute){NULL} : splat_scalar(base);
  r->arg_of[k] = -1;
  if (!mlirAttributeIsNull(r->splat_of[k]))
    return;
  /* a reshape's floordiv/mod, with the loop extents known, often splits into plain
   * terms (support/affine-bounds.h): simpler for the codegens and for form-row-chains */
  MlirAffineMap composed = braze_map_compose(view_map, logical);
  if (mlirAffineMapGetNumDims(composed) == r->num_loops)
    composed = braze_map_simplify_bounded(composed, r->extents);
  MlirAffineMap map = fix_partial_dims(L, r, composed, mlirValueGetType(base));
  for (intptr_t i = 0; i < r->num_inputs; ++i) {
    if (mlirValueEqual(r->inputs[i], base) && mlirAffineMapEqual(r->maps[i], map)) {
      r->arg_of[k] = i;
      return;
    }
  }
  r->arg_of[k] = r->num_inputs;
  r->inputs[r->num_inputs] = base;
  r->maps[r->num_inputs++] = map;
}

static MlirValue materialize(Lowering *L, MlirValue v);

/* Bit l set when loop l is a bare dim of some result of `map`. */
static uint64_t bare_loops(MlirAffineMap map) {
  uint64_t mask = 0;
  for (intptr_t i = 0, n = mlirAffineMapGetNumResults(map); i < n; ++i) {
    MlirAffineExpr e = mlirAffineMapGetResult(map, i);
    if (mlirAffineExprIsADim(e))
      mask |= UINT64_C(1) << mlirAffineDimExprGetPosition(e);
  }
  return mask;
}

/* Of the operands not yet read as tensors whose logical map has the loop `bit` bare,
 * the one whose view repeats its base's elements the least (views that repeat none
 * count alike; then the first; -1 if none). A conv's product has two candidates for k: the columns, a window view that
 * repeats each input element up to KK times, and the weight, a reshape/transpose view
 * (1x). Copying the weight leaves the columns a view of the padded input that the
 * matmul templates read in place (decision 0021) instead of im2col columns. */
static intptr_t cheapest_copy(Lowering *L, const MlirValue *vals, const MlirAffineMap *logical, const bool *tensor,
                              intptr_t n, uint64_t bit) {
  intptr_t best = -1;
  int64_t best_size = 0, best_base = 1;
  for (intptr_t k = 0; k < n; ++k) {
    if (tensor[k] || !(bare_loops(logical[k]) & bit))
      continue;
    MlirValue base;
    MlirAffineMap map;
    resolve(L, vals[k], &base, &map);
    int64_t size = braze_num_elements(mlirValueGetType(vals[k])), base_size = braze_num_elements(mlirValueGetType(base));
    if (size <= base_size || base_size < 1) /* repeats no element: all such views count alike */
      size = base_size = 1;
    /* size / base_size < best_size / best_base */
    __int128 lhs = (__int128)size * best_base, rhs = (__int128)best_size * base_size;
    if (best < 0 || lhs < rhs) {
      best = k;
      best_size = size;
      best_base = base_size;
    }
  }
  return best;
}

/* Plan the reads of graph operands `vals` (read through `logical` maps) of a generic
 * over loops `extents` writing through `out_map`. linalg needs every loop to be a
 * bare dim of some operand's map (its extent comes from there); a loop that only
 * views index through compound expressions (a contraction's k through a reshape or
 * strided slice, a reduced dim of a strided slice) gets no extent. Then an operand
 * whose logical map has that loop bare is read as a real tensor: the view is
 * materialized by a copy generic (a splat constant becomes a tensor input). */
static bool plan_reads(Lowering *L, MlirOperation op, Reads *r, const MlirValue *vals, const MlirAffineMap *logical,
                       intptr_t n, MlirAffineMap out_map, const int64_t *extents, intptr_t num_loops) {
  bool tensor[MAX_READS] = {false};
  MlirValue use[MAX_READS];
  for (intptr_t k = 0; k < n; ++k)
    use[k] = vals[k];
  uint64_t all = num_loops >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << num_loops) - 1;
  for (int round = 0;; ++round) {
    *r = (Reads){.num_inputs = 0, .extents = extents, .num_loops = num_loops};
    for (intptr_t k = 0; k < n; ++k)
      add_read(L, r, k, use[k], logical[k], tensor[k]);
    uint64_t bound = bare_loops(out_map);
    for (intptr_t i = 0; i < r->num_inputs; ++i)
      bound |= bare_loops(r->maps[i]);
    if ((bound & all) == all)
      return true;
    bool changed = false;
    for (intptr_t l = 0; l < num_loops; ++l) {
      uint64_t bit = UINT64_C(1) << l;
      intptr_t k = bound & bit ? -1 : cheapest_copy(L, vals, logical, tensor, n, bit);
      if (k < 0)
        continue;
      use[k] = materialize(L, vals[k]);
      tensor[k] = changed = true;
      bound |= bare_loops(logical[k]);
    }
    if (!changed || round > 0) {
      braze_emit_error(mlirOperationGetLocation(op),
                       "graph-to-loops: a loop of this op is indexed by no operand dim (no extent for linalg)");
      return false;
    }
  }
}

static MlirValue operand_scalar(BrazeBuilder *b, const Reads *r, const MlirValue *args, intptr_t k) {
  if (r->arg_of[k] >= 0)
    return args[r->arg_of[k]];
  return braze_build_constant_attr(b, r->splat_of[k]);
}

/* ---- scalar bodies ---- */

static bool is_float(MlirValue v) { return mlirTypeIsAFloat(mlirValueGetType(v)); }

/* The reduction kind ("sum", "max", "min") of a reduce_* mnemonic; mean sums. */
static const char *reduce_kind(const char *mnemonic) {
  return strcmp(mnemonic, "reduce_max") == 0 ? "max" : strcmp(mnemonic, "reduce_min") == 0 ? "min" : "sum";
}

static MlirValue zero_like(BrazeBuilder *b, MlirValue x) {
  return braze_build_scalar_constant(b, mlirValueGetType(x), 0.0);
}

static MlirValue scalar_unary(BrazeBuilder *b, const char *m, MlirValue x, MlirType result, int sign) {
  static const char *const math_ops[] = {"exp", "log", "sqrt", "rsqrt", "tanh", "erf", "sin", "cos"};
  for (size_t i = 0; i < sizeof math_ops / sizeof *math_ops; ++i) {
    if (strcmp(m, math_ops[i]) == 0) {
      char name[16] = "math.";
      strcat(name, m);
      return braze_build_unary(b, name, x);
    }
  }
  if (strcmp(m, "neg") == 0)
    return is_float(x) ? braze_build_unary(b, "arith.negf", x) : braze_build_binary(b, "arith.subi", zero_like(b, x), x);
  if (strcmp(m, "abs") == 0 && (sign & BRAZE_UNSIGNED_OPERANDS))
    return x;
  if (strcmp(m, "abs") == 0)
    return braze_build_unary(b, is_float(x) ? "math.absf" : "math.absi", x);
  if (strcmp(m, "relu") == 0)
    return braze_scalar_binary_u(b, "max", x, zero_like(b, x), sign & BRAZE_UNSIGNED_OPERANDS);
  if (strcmp(m, "sigmoid") == 0) { /* 1 / (1 + exp(-x)) */
    MlirValue one = braze_build_scalar_constant(b, mlirValueGetType(x), 1.0);
    MlirValue e = braze_build_unary(b, "math.exp", braze_build_unary(b, "arith.negf", x));
    return braze_build_binary(b, "arith.divf", one, braze_build_binary(b, "arith.addf", one, e));
  }
  if (strcmp(m, "cast") == 0)
    return braze_scalar_cast_u(b, x, result, sign & BRAZE_UNSIGNED_OPERANDS, sign & BRAZE_UNSIGNED_RESULT);
  if (strcmp(m, "bitwise_not") == 0 && !is_float(x)) /* x xor all ones (i1: logical not) */
    return braze_build_binary(b, "arith.xori", x, braze_build_int_constant(b, mlirValueGetType(x), -1));
  return (MlirValue){NULL};
}

/* The scalar computation of pointwise graph op `op` on `x` (one per operand). */
static MlirValue scalar_graph_op(BrazeBuilder *b, MlirOperation op, const MlirValue *x, intptr_t n,
                                 MlirType result, int sign) {
  bool u = sign & BRAZE_UNSIGNED_OPERANDS;
  const char *m = braze_graph_op_mnemonic(op);
  MlirValue v = {NULL};
  const char *pred;
  size_t len;
  if (strcmp(m, "select") == 0 && n == 3) {
    MlirValue operands[3] = {x[0], x[1], x[2]};
    v = braze_build_typed(b, "arith.select", operands, 3, result, NULL, 0);
  } else if (strcmp(m, "cmp") == 0 && n == 2) {
    if (braze_attr_str(op, "predicate", &pred, &len))
      v = braze_scalar_cmp_u(b, pred, len, x[0], x[1], u);
  } else if (n == 2) {
    v = braze_scalar_binary_u(b, m, x[0], x[1], u);
  } else if (n == 1) {
    v = scalar_unary(b, m, x[0], result, sign);
  }
  if (mlirValueIsNull(v))
    braze_emit_error(mlirOperationGetLocation(op), "graph-to-loops cannot lower 'graph.%s' on these types", m);
  return v;
}

/* ---- building generics ---- */

/* FINISH turns a reduction's accumulator into the result: times `scale` (mean),
 * then converted to the result element type (f16/bf16 accumulate in f32). */
typedef enum { BODY_POINTWISE, BODY_COPY, BODY_REDUCE, BODY_FINISH, BODY_CONTRACT, BODY_GATHER } BodyKind;

typedef struct {
  BodyKind kind;
  MlirOperation op; /* the graph op (attributes, mnemonic) */
  const Reads *reads;
  intptr_t num_operands;
  MlirType result_element;
  double scale;     /* BODY_FINISH: 1 for none */
  MlirType accumulator; /* BODY_REDUCE, BODY_CONTRACT: operands are extended to it */
  BrazeIndexedRead gather; /* BODY_GATHER: operand 0 is the index */
  int sign;             /* BRAZE_UNSIGNED_* flags of the graph op */
} BodyData;

static bool generic_body(BrazeBuilder *b, const MlirValue *args, intptr_t num_args, MlirValue *yields, void *data) {
  const BodyData *d = data;
  MlirValue x[MAX_READS];
  for (intptr_t k = 0; k < d->num_operands; ++k)
    x[k] = operand_scalar(b, d->reads, args, k);
  MlirValue acc = args[num_args - 1];
  switch (d->kind) {
  case BODY_COPY:
    yields[0] = x[0];
    return true;
  case BODY_REDUCE:
    yields[0] = braze_scalar_reduce_combine_u(b, reduce_kind(braze_graph_op_mnemonic(d->op)),
                                              braze_scalar_cast(b, x[0], d->accumulator), acc,
                                              d->sign & BRAZE_UNSIGNED_OPERANDS);
    return true;
  case BODY_FINISH:
    yields[0] = x[0];
    if (d->scale != 1.0)
      yields[0] = braze_build_binary(b, "arith.mulf", x[0],
                                     braze_build_scalar_constant(b, mlirValueGetType(x[0]), d->scale));
    yields[0] = braze_scalar_cast(b, yields[0], d->result_element);
    return true;
  case BODY_CONTRACT: {
    MlirValue lhs = braze_scalar_cast(b, x[0], d->accumulator), rhs = braze_scalar_cast(b, x[1], d->accumulator);
    yields[0] = braze_scalar_reduce_combine(b, "sum", braze_scalar_binary(b, "mul", lhs, rhs), acc);
    return true;
  }
  case BODY_POINTWISE:
    yields[0] = scalar_graph_op(b, d->op, x, d->num_operands, d->result_element, d->sign);
    return !mlirValueIsNull(yields[0]);
  case BODY_GATHER:
    yields[0] = braze_indexed_read(b, &d->gather, x[0]);
    return !mlirValueIsNull(yields[0]);
  }
  return false;
}

static MlirAttribute ops_attr(MlirContext ctx, const char *mnemonic) {
  return braze_string_array(ctx, &mnemonic, 1);
}

/* braze.origins of a generic built at a graph op's location: the composite the op
 * came from (graph-decompose), where there is one. */
static void set_origins(MlirOperation generic) {
  MlirStringRef origin;
  if (!braze_loc_origin(mlirOperationGetLocation(generic), &origin))
    return;
  MlirContext ctx = mlirOperationGetContext(generic);
  MlirAttribute name = mlirStringAttrGet(ctx, origin);
  braze_set_origins(generic, mlirArrayAttrGet(ctx, 1, &name));
}

/* Build a generic at `op` writing into `init` (whose type is the result type), with
 * `reads`, the output map `out_map`, and loops `reduction` flags. */
static MlirValue build(Lowering *L, MlirOperation op, const char *mnemonic, Reads *reads, MlirValue init,
                       MlirAffineMap out_map, intptr_t num_loops, const bool *reduction, BodyData *body) {
  BrazeBuilder b = braze_builder_before(op);
  reads->maps[reads->num_inputs] = out_map;
  BrazeGenericSpec spec = {
      .inputs = reads->inputs,
      .num_inputs = reads->num_inputs,
      .outputs = &init,
      .num_outputs = 1,
      .maps = reads->maps,
      .num_loops = num_loops,
      .reduction = reduction,
      .ops = ops_attr(L->ctx, mnemonic),
      .body = generic_body,
      .body_data = body,
  };
  body->reads = reads;
  body->sign = braze_signless_flags(&L->sign, body->op);
  MlirOperation generic = braze_build_generic(&b, &spec);
  if (mlirOperationIsNull(generic))
    return (MlirValue){NULL};
  set_origins(generic);
  return mlirOperationGetResult(generic, 0);
}

static MlirValue empty_like(MlirOperation op, MlirType type) {
  BrazeBuilder b = braze_builder_before(op);
  return braze_build_empty(&b, type);
}

/* An all-parallel generic over `type`'s shape whose body is `body` and whose
 * graph operands `operands` broadcast numpy-style into it. */
static MlirValue build_parallel(Lowering *L, MlirOperation op, const char *mnemonic, const MlirValue *operands,
                                intptr_t n, MlirType type, BodyData *body) {
  int64_t shape[BRAZE_MAX_RANK], oshape[BRAZE_MAX_RANK];
  intptr_t rank = braze_shape(type, shape);
  Reads reads;
  MlirAffineMap logical[MAX_READS];
  for (intptr_t k = 0; k < n; ++k) {
    intptr_t orank = braze_shape(mlirValueGetType(operands[k]), oshape);
    logical[k] = braze_map_broadcast(L->ctx, rank, shape, rank, oshape, orank);
  }
  MlirAffineMap out_map = braze_map_identity(L->ctx, rank);
  if (!plan_reads(L, op, &reads, operands, logical, n, out_map, shape, rank))
    return (MlirValue){NULL};
  body->num_operands = n;
  body->result_element = braze_element_type(type);
  return build(L, op, mnemonic, &reads, empty_like(op, type), out_map, rank, NULL, body);
}

/* A copy of a view into a new tensor (for consumers that need a real tensor). */
static MlirValue materialize(Lowering *L, MlirValue v) {
  View *view = find_view(L, v);
  if (!view)
    return v;
  if (mlirValueIsNull(view->copy)) {
    BodyData body = {.kind = BODY_COPY, .op = view->op};
    MlirOperation op = view->op; /* build_parallel may grow L->views */
    MlirValue copy = build_parallel(L, op, braze_graph_op_mnemonic(op), &v, 1, mlirValueGetType(v), &body);
    view = find_view(L, v);
    view->copy = copy;
  }
  return view->copy;
}

/* ---- lowering each class of op ---- */

static MlirValue lower_pointwise(Lowering *L, MlirOperation op) {
  MlirValue operands[MAX_READS];
  intptr_t n = mlirOperationGetNumOperands(op);
  for (intptr_t k = 0; k < n && k < MAX_READS; ++k)
    operands[k] = mlirOperationGetOperand(op, k);
  BodyData body = {.kind = BODY_POINTWISE, .op = op};
  MlirType type = mlirValueGetType(mlirOperationGetResult(op, 0));
  return build_parallel(L, op, braze_graph_op_mnemonic(op), operands, n, type, &body);
}

/* Sums and contractions of f16/bf16 accumulate in f32 (like Inductor): the type
 * of the accumulator tensor for a result of `type` and reduction `kind`. */
static MlirType accumulator_type(MlirType type, const char *kind) {
  MlirType element = braze_element_type(type);
  bool low = mlirTypeIsAF16(element) || mlirTypeIsABF16(element);
  if (!low || strcmp(kind, "sum") != 0)
    return type;
  int64_t shape[BRAZE_MAX_RANK];
  intptr_t rank = braze_shape(type, shape);
  return mlirRankedTensorTypeGet(rank, shape, mlirF32TypeGet(mlirTypeGetContext(type)), mlirAttributeGetNull());
}

/* The all-parallel generic turning accumulator `acc` into a `type` result. */
static MlirValue finish_reduction(Lowering *L, MlirOperation op, MlirValue acc, MlirType type, double scale) {
  if (scale == 1.0 && mlirTypeEqual(mlirValueGetType(acc), type))
    return acc;
  BodyData body = {.kind = BODY_FINISH, .op = op, .scale = scale};
  return build_parallel(L, op, braze_graph_op_mnemonic(op), &acc, 1, type, &body);
}

/* linalg.fill of the reduction's identity over a tensor.empty of `type`. */
static MlirValue identity_init(Lowering *L, MlirOperation op, const char *combiner, MlirType type) {
  BrazeBuilder b = braze_builder_before(op);
  bool u = braze_signless_flags(&L->sign, op) & BRAZE_UNSIGNED_OPERANDS;
  MlirValue init = braze_scalar_reduce_identity_u(&b, reduce_kind(combiner), braze_element_type(type), u);
  return braze_build_fill(&b, init, braze_build_empty(&b, type));
}

/* reduce_sum/max/min/mean: reduction iterators for `dims`; keepdim sends them to 0. */
static MlirValue lower_reduce(Lowering *L, MlirOperation op) {
  MlirValue x = mlirOperationGetOperand(op, 0);
  MlirType type = mlirValueGetType(mlirOperationGetResult(op, 0));
  int64_t dims[BRAZE_MAX_RANK];
  intptr_t num_dims = braze_attr_i64_array(op, "dims", dims, BRAZE_MAX_RANK);
  int64_t keepdim = 0;
  MlirAttribute keep = mlirOperationGetAttributeByName(op, braze_ref("keepdim"));
  if (!mlirAttributeIsNull(keep) && mlirAttributeIsABool(keep))
    keepdim = mlirBoolAttrGetValue(keep);
  intptr_t rank = braze_rank(mlirValueGetType(x));
  bool reduction[BRAZE_MAX_RANK] = {false};
  for (intptr_t i = 0; i < num_dims; ++i)
    reduction[dims[i]] = true;
  MlirAffineExpr out[BRAZE_MAX_RANK];
  intptr_t num_out = 0;
  double count = 1;
  for (intptr_t i = 0; i < rank; ++i) {
    if (reduction[i])
      count *= (double)mlirShapedTypeGetDimSize(mlirValueGetType(x), i);
    if (!reduction[i])
      out[num_out++] = mlirAffineDimExprGet(L->ctx, i);
    else if (keepdim)
      out[num_out++] = mlirAffineConstantExprGet(L->ctx, 0);
  }
  MlirAffineMap out_map = num_out ? mlirAffineMapGet(L->ctx, rank, 0, num_out, out)
                                  : mlirAffineMapZeroResultGet(L->ctx, rank, 0);
  const char *mnemonic = braze_graph_op_mnemonic(op);
  bool mean = strcmp(mnemonic, "reduce_mean") == 0;
  const char *combiner = mean ? "reduce_sum" : mnemonic;
  Reads reads;
  int64_t extents[BRAZE_MAX_RANK];
  braze_shape(mlirValueGetType(x), extents);
  MlirAffineMap logical = braze_map_identity(L->ctx, rank);
  if (!plan_reads(L, op, &reads, &x, &logical, 1, out_map, extents, rank))
    return (MlirValue){NULL};
  MlirType acc_type = accumulator_type(type, reduce_kind(combiner));
  BodyData body = {.kind = BODY_REDUCE, .op = op, .num_operands = 1, .accumulator = braze_element_type(acc_type)};
  MlirValue init = identity_init(L, op, combiner, acc_type);
  MlirValue acc = build(L, op, mnemonic, &reads, init, out_map, rank, reduction, &body);
  return mlirValueIsNull(acc) ? acc : finish_reduction(L, op, acc, type, mean ? 1.0 / count : 1.0);
}

/* One side of a (batch) matmul: batch dims broadcast into loops [0, nb), then the
 * two matrix dims as loops `row` and `col`. */
static MlirAffineMap contraction_read(Lowering *L, MlirType operand, const int64_t *batch, intptr_t nb,
                                      intptr_t row, intptr_t col) {
  int64_t shape[BRAZE_MAX_RANK];
  intptr_t rank = braze_shape(operand, shape);
  MlirAffineMap batch_map = braze_map_broadcast(L->ctx, nb + 3, batch, nb, shape, rank - 2);
  MlirAffineExpr exprs[BRAZE_MAX_RANK];
  for (intptr_t i = 0; i < rank - 2; ++i)
    exprs[i] = mlirAffineMapGetResult(batch_map, i);
  exprs[rank - 2] = mlirAffineDimExprGet(L->ctx, row);
  exprs[rank - 1] = mlirAffineDimExprGet(L->ctx, col);
  return mlirAffineMapGet(L->ctx, nb + 3, 0, rank, exprs);
}

/* matmul/batch_matmul: loops (batch..., m, n, k); k is the reduction. */
static MlirValue lower_contraction(Lowering *L, MlirOperation op) {
  MlirValue a = mlirOperationGetOperand(op, 0), b = mlirOperationGetOperand(op, 1);
  MlirType type = mlirValueGetType(mlirOperationGetResult(op, 0));
  int64_t shape[BRAZE_MAX_RANK];
  intptr_t rank = braze_shape(type, shape), nb = rank - 2;
  intptr_t m = nb, n = nb + 1, k = nb + 2;
  bool reduction[MAX_LOOPS] = {false};
  reduction[k] = true;
  MlirAffineExpr out[BRAZE_MAX_RANK];
  for (intptr_t i = 0; i < rank; ++i)
    out[i] = mlirAffineDimExprGet(L->ctx, i);
  MlirAffineMap out_map = mlirAffineMapGet(L->ctx, nb + 3, 0, rank, out);
  int64_t extents[MAX_LOOPS];
  memcpy(extents, shape, (size_t)rank * sizeof *extents);
  MlirType a_type = mlirValueGetType(a);
  extents[k] = mlirShapedTypeGetDimSize(a_type, braze_rank(a_type) - 1);
  MlirValue vals[2] = {a, b};
  MlirAffineMap logical[2] = {contraction_read(L, a_type, shape, nb, m, k),
                              contraction_read(L, mlirValueGetType(b), shape, nb, k, n)};
  Reads reads;
  if (!plan_reads(L, op, &reads, vals, logical, 2, out_map, extents, nb + 3))
    return (MlirValue){NULL};
  MlirType acc_type = accumulator_type(type, "sum");
  BodyData body = {.kind = BODY_CONTRACT, .op = op, .num_operands = 2, .accumulator = braze_element_type(acc_type)};
  MlirValue init = identity_init(L, op, "reduce_sum", acc_type);
  MlirValue acc = build(L, op, braze_graph_op_mnemonic(op), &reads, init, out_map,
                        nb + 3, reduction, &body);
  return mlirValueIsNull(acc) ? acc : finish_reduction(L, op, acc, type, 1.0);
}

/* gather / gather_elements: an all-parallel generic over the result reading the
 * indices through a map (gather: loops [axis, axis + q) are the indices' dims;
 * gather_elements: the identity) and the data by tensor.extract in the body
 * (passes/loops/indexed-read.h). A data view is copied first (inline-unrealized inlines
 * the copy at the extracted position). */
static MlirValue lower_gather(Lowering *L, MlirOperation op) {
  MlirValue data = mlirOperationGetOperand(op, 0), indices = mlirOperationGetOperand(op, 1);
  MlirType type = mlirValueGetType(mlirOperationGetResult(op, 0));
  int64_t shape[BRAZE_MAX_RANK], axis = 0;
  intptr_t rank = braze_shape(type, shape), q = braze_rank(mlirValueGetType(indices));
  braze_attr_i64(op, "axis", &axis);
  bool elements = strcmp(braze_graph_op_mnemonic(op), "gather_elements") == 0;
  MlirAffineExpr exprs[BRAZE_MAX_RANK];
  for (intptr_t j = 0; j < q; ++j)
    exprs[j] = mlirAffineDimExprGet(L->ctx, elements ? j : axis + j);
  MlirAffineMap logical = q ? mlirAffineMapGet(L->ctx, rank, 0, q, exprs) : mlirAffineMapZeroResultGet(L->ctx, rank, 0);
  MlirAffineMap out_map = braze_map_identity(L->ctx, rank);
  Reads reads;
  if (!plan_reads(L, op, &reads, &indices, &logical, 1, out_map, shape, rank))
    return (MlirValue){NULL};
  BodyData body = {.kind = BODY_GATHER, .op = op, .num_operands = 1, .result_element = braze_element_type(type)};
  body.gather = (BrazeIndexedRead){materialize(L, data), axis, q, elements};
  return build(L, op, braze_graph_op_mnemonic(op), &reads, empty_like(op, type), out_map, rank, NULL, &body);
}

static void set_ops_attr(Lowering *L, MlirValue v, const char *mnemonic) {
  mlirOperationSetAttributeByName(mlirOpResultGetOwner(v), braze_ref(BRAZE_OPS_ATTR), ops_attr(L->ctx, mnemonic));
  set_origins(mlirOpResultGetOwner(v));
}

/* A graph.concat whose only use is another graph.concat along the same dim: it is
 * absorbed into that one's lowering (a chain becomes one tensor.empty). */
static bool is_absorbed_concat(MlirOperation op) {
  const char *m = braze_graph_op_mnemonic(op);
  if (!m || strcmp(m, "concat") != 0)
    return false;
  MlirOpOperand use = mlirValueGetFirstUse(mlirOperationGetResult(op, 0));
  if (mlirOpOperandIsNull(use) || !mlirOpOperandIsNull(mlirOpOperandGetNextUse(use)))
    return false;
  MlirOperation user = mlirOpOperandGetOwner(use);
  const char *um = braze_graph_op_mnemonic(user);
  int64_t dim = -1, user_dim = -2;
  return um && strcmp(um, "concat") == 0 && braze_attr_i64(op, "dim", &dim) &&
         braze_attr_i64(user, "dim", &user_dim) && dim == user_dim;
}

/* Insert the leaves of the concat tree rooted at `v` (left to right) into `acc`. */
static MlirValue insert_concat_leaves(Lowering *L, MlirOperation root, MlirValue v, MlirValue acc,
                                      int64_t dim, int64_t offsets[BRAZE_MAX_RANK]) {
  if (mlirValueIsAOpResult(v)) {
    MlirOperation def = mlirOpResultGetOwner(v);
    if (!mlirOperationEqual(def, root) && is_absorbed_concat(def)) {
      if (L->num_absorbed == L->cap_absorbed) {
        L->cap_absorbed = L->cap_absorbed ? 2 * L->cap_absorbed : 8;
        L->absorbed = realloc(L->absorbed, L->cap_absorbed * sizeof *L->absorbed);
      }
      L->absorbed[L->num_absorbed++] = def;
      for (intptr_t i = 0; i < 2 && !mlirValueIsNull(acc); ++i)
        acc = insert_concat_leaves(L, root, mlirOperationGetOperand(def, i), acc, dim, offsets);
      return acc;
    }
  }
  MlirValue input = materialize(L, v);
  BrazeBuilder b = braze_builder_before(root);
  acc = braze_build_insert_slice(&b, input, acc, offsets);
  set_ops_attr(L, acc, "concat");
  offsets[dim] += mlirShapedTypeGetDimSize(mlirValueGetType(input), dim);
  return acc;
}

/* concat: one tensor.empty and a tensor.insert_slice per leaf of the chain of
 * single-use concats along the same dim that ends at `op`. */
static MlirValue lower_concat(Lowering *L, MlirOperation op) {
  int64_t dim = 0;
  braze_attr_i64(op, "dim", &dim);
  MlirValue acc = empty_like(op, mlirValueGetType(mlirOperationGetResult(op, 0)));
  int64_t offsets[BRAZE_MAX_RANK] = {0};
  for (intptr_t i = 0; i < 2; ++i)
    acc = insert_concat_leaves(L, op, mlirOperationGetOperand(op, i), acc, dim, offsets);
  return acc;
}

static MlirValue lower_constant(Lowering *L, MlirOperation op) {
  BrazeBuilder b = braze_builder_before(op);
  MlirValue c = braze_build_constant_attr(&b, mlirOperationGetAttributeByName(op, braze_ref("value")));
  if (L->num_constants == L->cap_constants) {
    L->cap_constants = L->cap_constants ? 2 * L->cap_constants : 8;
    L->constants = realloc(L->constants, L->cap_constants * sizeof *L->constants);
  }
  L->constants[L->num_constants++] = mlirOpResultGetOwner(c);
  return c;
}

/* ---- the pass ---- */

static bool is_view(MlirOperation op) {
  return braze_graph_op_class(op) == GRAPH_SHAPE && strcmp(braze_graph_op_mnemonic(op), "concat") != 0;
}

static MlirValue lower_op(Lowering *L, MlirOperation op) {
  switch (braze_graph_op_class(op)) {
  case GRAPH_UNARY:
  case GRAPH_BINARY:
  case GRAPH_CMP:
  case GRAPH_SELECT:
    return lower_pointwise(L, op);
  case GRAPH_REDUCE:
    return lower_reduce(L, op);
  case GRAPH_CONTRACTION:
    return lower_contraction(L, op);
  case GRAPH_SHAPE:
    return lower_concat(L, op);
  case GRAPH_CONSTANT:
    return lower_constant(L, op);
  case GRAPH_GATHER:
    return lower_gather(L, op);
  default:
    braze_emit_error(mlirOperationGetLocation(op), "graph-to-loops cannot lower '%s'",
                     braze_graph_op_mnemonic(op));
    return (MlirValue){NULL};
  }
}

/* Views still used (by func.return, func.call, ...) get a copy; then every view op
 * and every unused constant we made is erased, latest first. */
static void finish_views(Lowering *L) {
  for (size_t i = L->num_views; i-- > 0;) {
    MlirValue result = mlirOperationGetResult(L->views[i].op, 0);
    if (!mlirOpOperandIsNull(mlirValueGetFirstUse(result)))
      mlirValueReplaceAllUsesOfWith(result, materialize(L, result));
    mlirOperationDestroy(L->views[i].op);
  }
  for (size_t i = L->num_constants; i-- > 0;)
    if (mlirOpOperandIsNull(mlirValueGetFirstUse(mlirOperationGetResult(L->constants[i], 0))))
      mlirOperationDestroy(L->constants[i]);
}

static bool run(MlirOperation func, void *state) {
  (void)state;
  BrazeOpList ops = {0};
  braze_op_list_collect(func, braze_is_graph_op, &ops);
  Lowering L = {.ctx = mlirOperationGetContext(func)};
  bool ok = braze_graph_to_loops_check(&ops) && braze_signless_check(func);
  if (ok) { /* unsigned tensors become signless; the ops remember their signedness */
    braze_signless_collect(&ops, &L.sign);
    braze_signless_convert(func, &ops);
  }
  for (size_t i = 0; ok && i < ops.count; ++i) {
    MlirOperation op = ops.ops[i];
    if (is_view(op)) {
      add_view(&L, op, braze_view_map(op));
      continue;
    }
    if (is_absorbed_concat(op))
      continue; /* lowered with the concat that uses it */
    if (braze_graph_concat_of_collectives(op))
      continue; /* the collectives write their blocks of it in place (entry-graph.c) */
    if (braze_graph_op_class(op) == GRAPH_COLLECTIVE) {
      /* a fusion boundary: stays a graph op between kernels (decision 0015); an integer
       * max/min must remember it compares unsigned (decision 0018) */
      if (braze_ptrmap_get(&L.sign, braze_ptr_key(op.ptr), 0) & BRAZE_UNSIGNED_OPERANDS)
        mlirOperationSetDiscardableAttributeByName(op, braze_ref("braze.unsigned"), mlirUnitAttrGet(mlirOperationGetContext(op)));
      continue;
    }
    MlirValue lowered = lower_op(&L, op);
    if (mlirValueIsNull(lowered)) {
      ok = false;
      break;
    }
    mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(op, 0), lowered);
    mlirOperationDestroy(op);
    for (size_t k = 0; k < L.num_absorbed; ++k) /* outermost first: each one's user is gone */
      mlirOperationDestroy(L.absorbed[k]);
    L.num_absorbed = 0;
  }
  if (ok)
    finish_views(&L);
  braze_op_list_free(&ops);
  free(L.views);
  free(L.constants);
  free(L.absorbed);
  braze_ptrmap_free(&L.sign);
  return ok;
}

const BrazePassInfo braze_pass_graph_to_loops = {
    .argument = "graph-to-loops",
    .summary = "Lower primitive graph ops to linalg.generic on tensors (views become indexing maps)",
    .options_help = "",
    .anchor = "func.func",
    .run = run,
};
