/* inline-unrealized: Inductor's buffer.realize() decisions at the loop level.
 *
 * Every linalg.generic is a producer candidate, in program order. Reductions and
 * contractions are realized (they keep their own tensor); so is a generic read by
 * anything but a linalg.generic input (func.return, func.call, tensor.insert_slice)
 * or by a contraction (inlining there recomputes it per k). An all-parallel
 * producer is otherwise inlined into every consumer generic: its body is cloned
 * into the consumer, its inputs become the consumer's inputs with their maps
 * composed (producer map ∘ inverse(producer output map) ∘ consumer map), and the
 * consumer's braze.ops becomes producer ops ++ consumer ops (not into a consumer
 * where a loop would then be indexed by no bare dim: linalg needs one for the
 * loop's extent; that consumer reads the realized tensor). Inlining into a
 * reduction consumer is a prologue and allowed. A producer read more than
 * `reads-threshold` times, or whose body holds more than `opcount-threshold` ops,
 * is realized (Inductor's realize_reads_threshold / realize_opcount_threshold).
 * A producer read by a consumer whose map uses every loop but which reads its
 * elements more than `reads-threshold` times over on average (a window's overlapping
 * taps: a conv's columns copied from a zero-padding gather, 13 reads per element for
 * ResNet's 7x8 stem window) is realized too, unless it is a plain copy: inlined, its
 * body would run once per read. A pool's 3x3 stride-2 window (2.25) keeps it inlined.
 * A producer whose every use was inlined is erased.
 *
 * Two bf16/f16 products read by one consumer (a residual add of two convs' products):
 * the first one's narrowing generic (the cast of its f32 accumulator, and a bias add)
 * is realized, to be its own contraction's epilogue, since only one product can take
 * the consumer into its kernel and the other kernel would read an f32 accumulator
 * (twice the bytes; the tensor-core template's operand copies take half-precision
 * kernels only). Not for two products of one A (form-kernels pairs them in one kernel).
 *
 * With `realize-broadcast`, a producer read through a broadcasting map (a consumer
 * loop it does not depend on, e.g. rsqrt of a row statistic read by every element
 * of the row) is realized instead of being recomputed for every value of that loop.
 *
 * A producer whose body holds a transcendental (exp, log, tanh, erf, ...), read by
 * several generics that all iterate over its rows, with a row of at most
 * `persistent-row-bytes`, is realized (reason expensive-recompute): softmax's
 * exp(x - max) is then computed once per element into a per-row buffer instead
 * of once for the sum and once for the divide.
 *
 * Indexed reads (gather): a producer whose result a consumer body reads with
 * `tensor.extract` (the gather's data) is inlined at the extract: its body is
 * cloned there, its inputs read by tensor.extract at the extracted position
 * through their maps, so it is computed only for the elements gathered. A gather
 * reading more elements than the producer has realizes it instead (inlined, the
 * producer would be computed more often than once per element), unless the producer
 * is a plain copy (a materialized view: a load either way). A producer read by such a
 * copy that only gathers read is realized (inlined, it would be computed once per
 * gathered element: a conv's relu read by the next conv's im2col). A producer body
 * holding `linalg.index` (a gather inlined into its consumer) gets its loop
 * indices computed from the consumer's (arith on index values).
 *
 * Options: disable, reads-threshold=N (4), opcount-threshold=N (64), remarks,
 * realize-broadcast, persistent-row-bytes=N (65536; 0 disables). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/origins.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "passes/loops/builder.h"
#include "passes/loops/indexed-read.h"
#include "passes/loops/loop-passes.h"
#include "support/context.h"
#include "support/diag.h"
#include "support/oplist.h"

/* MAX_INPUTS sizes the tables; an inlined generic takes at most INLINED_INPUTS inputs,
 * what the targets' codegens accept per generic (cpu-codegen's CG_MAX_INPUTS,
 * cuda-codegen's CU_MAX_INPUTS): past it the producer stays realized (found by
 * fuzz-differential: four layer_norms inlined into one 17-input generic). */
enum { MAX_INPUTS = 64, INLINED_INPUTS = 16, MAX_LOOPS = 32, REASON_LEN = 160 };

typedef struct {
  bool disable;
  bool remarks;
  bool realize_broadcast;
  long long reads_threshold;
  long long opcount_threshold;
  long long persistent_row_bytes;
} Options;

/* The generics of the function in program order; entries are updated when a
 * consumer is rebuilt and nulled when a producer is erased. */
typedef BrazeOpList GenericList;

/* ---- facts about producers ---- */

static intptr_t body_op_count(MlirOperation generic) {
  intptr_t n = 0;
  MlirBlock body = braze_generic_body(generic);
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    n++;
  return n - 1; /* the linalg.yield */
}

/* A matmul's loop nest (not the all-parallel generic that converts its f32
 * accumulator to f16/bf16, which carries the same mnemonic). */
static bool is_contraction(MlirOperation generic) {
  return (braze_ops_contains(generic, "matmul") || braze_ops_contains(generic, "batch_matmul")) &&
         !braze_generic_all_parallel(generic);
}

/* The contraction whose f32 result the all-parallel `generic` reads, directly or
 * through up to `depth` more all-parallel generics (its cast, then a bias add); null
 * when none. */
static MlirOperation f32_contraction_read(MlirOperation generic, int depth) {
  for (intptr_t i = 0; i < braze_generic_num_inputs(generic); ++i) {
    MlirValue v = mlirOperationGetOperand(generic, i);
    MlirOperation def = mlirValueIsAOpResult(v) ? mlirOpResultGetOwner(v) : (MlirOperation){NULL};
    if (mlirOperationIsNull(def) || !braze_is_generic(def))
      continue;
    if (is_contraction(def) && mlirTypeIsAF32(mlirShapedTypeGetElementType(mlirValueGetType(v))))
      return def;
    MlirOperation deeper = depth > 0 && braze_generic_all_parallel(def) ? f32_contraction_read(def, depth - 1)
                                                                         : (MlirOperation){NULL};
    if (!mlirOperationIsNull(deeper))
      return deeper;
  }
  return (MlirOperation){NULL};
}

/* For an all-parallel generic writing a 16-bit float from a contraction's f32 result
 * (the cast, and epilogue, of a bf16/f16 matmul): that contraction; null otherwise. */
static MlirOperation narrowed_contraction(MlirOperation generic) {
  if (!braze_is_generic(generic) || !braze_generic_all_parallel(generic) || mlirOperationGetNumResults(generic) != 1)
    return (MlirOperation){NULL};
  MlirType out = mlirShapedTypeGetElementType(mlirValueGetType(mlirOperationGetResult(generic, 0)));
  return mlirTypeIsABF16(out) || mlirTypeIsAF16(out) ? f32_contraction_read(generic, 3) : (MlirOperation){NULL};
}

/* Whether `consumer` also reads the narrowed result of another contraction, made after
 * `producer` (a residual add of two convs' products: ResNet's downsampling blocks). Only
 * one of the two can be the consumer's kernel's contraction; inlined, `producer` would
 * hand the other kernel its contraction's f32 product, and that kernel would read an f32
 * input (twice the bytes, and the tensor-core template's copies take half-precision
 * kernels only). */
static bool consumer_reads_later_narrowing(MlirOperation consumer, MlirOperation producer) {
  MlirOperation mine = narrowed_contraction(producer);
  if (mlirOperationIsNull(mine))
    return false;
  for (intptr_t i = 0; i < braze_generic_num_inputs(consumer); ++i) {
    MlirValue v = mlirOperationGetOperand(consumer, i);
    if (!mlirValueIsAOpResult(v))
      continue;
    MlirOperation other = mlirOpResultGetOwner(v), theirs = narrowed_contraction(other);
    /* two products of one A stay together: form-kernels pairs them in one kernel
     * (horizontal-templates: W6's gate and up projections) */
    if (!mlirOperationEqual(other, producer) && !mlirOperationIsNull(theirs) &&
        !mlirValueEqual(mlirOperationGetOperand(theirs, 0), mlirOperationGetOperand(mine, 0)) &&
        mlirBlockEqual(mlirOperationGetBlock(other), mlirOperationGetBlock(producer)) &&
        mlirOperationIsBeforeInBlock(producer, other))
      return true;
  }
  return false;
}

/* Whether `use` reads the value as an input of a linalg.generic. */
static bool is_generic_input_use(MlirOpOperand use) {
  MlirOperation user = mlirOpOperandGetOwner(use);
  return braze_is_generic(user) && (intptr_t)mlirOpOperandGetOperandNumber(use) < braze_generic_num_inputs(user);
}

/* Whether `use` is the tensor of a `tensor.extract` inside a linalg.generic body
 * (a gather's data read at a run-time index). */
static bool is_indexed_read_use(MlirOpOperand use) {
  MlirOperation user = mlirOpOperandGetOwner(use);
  if (!braze_op_is(user, "tensor.extract") || mlirOpOperandGetOperandNumber(use) != 0)
    return false;
  MlirOperation parent = mlirOperationGetParentOperation(user);
  return !mlirOperationIsNull(parent) && braze_is_generic(parent);
}

static int64_t numel(MlirValue v) {
  MlirType t = mlirValueGetType(v);
  if (!mlirTypeIsARankedTensor(t) || !mlirShapedTypeHasStaticShape(t))
    return 0;
  int64_t n = 1;
  for (intptr_t d = 0, r = mlirShapedTypeGetRank(t); d < r; ++d)
    n *= mlirShapedTypeGetDimSize(t, d);
  return n;
}

/* A generic's iteration space, taken as its largest operand (its result, for an
 * all-parallel one). */
static int64_t largest_operand(MlirOperation generic) {
  int64_t most = 0;
  for (intptr_t i = 0, n = mlirOperationGetNumOperands(generic); i < n; ++i) {
    int64_t e = numel(mlirOperationGetOperand(generic, i));
    most = e > most ? e : most;
  }
  return most;
}

/* The elements an indexed read's consumer (the gather) reads. */
static int64_t indexed_reads_of(MlirOpOperand use) {
  return largest_operand(mlirOperationGetParentOperation(mlirOpOperandGetOwner(use)));
}

/* Whether loop l of `generic` has extent 1 (an operand's map reads it as a bare dim of
 * size 1): ignoring it broadcasts nothing. */
static bool unit_loop(MlirOperation generic, intptr_t l) {
  for (intptr_t i = 0, n = mlirOperationGetNumOperands(generic); i < n; ++i) {
    MlirType t = mlirValueGetType(mlirOperationGetOperand(generic, i));
    MlirAffineMap map = braze_generic_map(generic, i);
    for (intptr_t r = 0, nr = mlirAffineMapGetNumResults(map); r < nr && mlirTypeIsARankedTensor(t); ++r) {
      MlirAffineExpr e = mlirAffineMapGetResult(map, r);
      if (mlirAffineExprIsADim(e) && mlirAffineDimExprGetPosition(e) == l)
        return mlirShapedTypeGetDimSize(t, r) == 1;
    }
  }
  return false;
}

/* Whether a consumer reads through `use` with a map that ignores one of its loops of
 * more than one value: inlining would recompute the producer for every value of it. */
static bool is_broadcast_read(MlirOpOperand use) {
  MlirOperation user = mlirOpOperandGetOwner(use);
  MlirAffineMap map = braze_generic_map(user, mlirOpOperandGetOperandNumber(use));
  for (intptr_t l = 0, n = mlirAffineMapGetNumDims(map); l < n; ++l) {
    bool used = false;
    for (intptr_t r = 0, nr = mlirAffineMapGetNumResults(map); r < nr && !used; ++r)
      used = mlirAffineExprIsFunctionOfDim(mlirAffineMapGetResult(map, r), l);
    if (!used && !unit_loop(user, l))
      return true;
  }
  return false;
}

/* How many times over a consumer generic reads the producer's elements through `use`
 * where it is no broadcast (a window's overlapping taps): the consumer's largest
 * operand over the producer's elements (as indexed_reads_of counts), 0 when unknown. */
static double repeated_reads_of(MlirOpOperand use, MlirValue result) {
  int64_t own = numel(result), most = largest_operand(mlirOpOperandGetOwner(use));
  return own > 0 ? (double)most / (double)own : 0.0;
}

/* Whether the body holds a transcendental (recomputing it per consumer is costly). */
static bool has_transcendental(MlirOperation generic) {
  static const char *const names[] = {"math.exp", "math.exp2", "math.expm1", "math.log", "math.log2", "math.log10",
                                      "math.log1p", "math.tanh", "math.erf", "math.sin", "math.cos", "math.powf",
                                      "math.atan", "math.atan2", NULL};
  MlirBlock body = braze_generic_body(generic);
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    for (const char *const *n = names; *n; ++n)
      if (braze_op_is(op, *n))
        return true;
  return false;
}

/* Inductor's persistent reduction: a producer with a transcendental read by several
 * generics that all iterate over its rows (leading dims, parallel loops, identity
 * on the leading map results) with a row of at most `persistent-row-bytes` is
 * realized: form-kernels fuses it into the consumers' kernel and cpu-codegen keeps
 * the row in a per-row buffer, so it is computed once instead of per consumer. */
static bool persistent_row(MlirOperation producer, const Options *o, intptr_t reads) {
  MlirType t = mlirValueGetType(mlirOperationGetResult(producer, 0));
  if (o->persistent_row_bytes <= 0 || reads < 2 || !mlirTypeIsARankedTensor(t) || !mlirShapedTypeHasStaticShape(t))
    return false;
  intptr_t rank = mlirShapedTypeGetRank(t);
  if (rank < 2 || !has_transcendental(producer))
    return false;
  MlirType elem = mlirShapedTypeGetElementType(t);
  int64_t bits = mlirTypeIsAF64(elem) ? 64 : (mlirTypeIsAF16(elem) || mlirTypeIsABF16(elem)) ? 16 : 32;
  int64_t row = mlirShapedTypeGetDimSize(t, rank - 1) * bits / 8;
  if (row > o->persistent_row_bytes)
    return false;
  MlirValue result = mlirOperationGetResult(producer, 0);
  for (MlirOpOperand use = mlirValueGetFirstUse(result); !mlirOpOperandIsNull(use); use = mlirOpOperandGetNextUse(use)) {
    MlirOperation user = mlirOpOperandGetOwner(use);
    if (!is_generic_input_use(use))
      return false;
    MlirAffineMap map = braze_generic_map(user, mlirOpOperandGetOperandNumber(use));
    if (mlirAffineMapGetNumResults(map) != rank)
      return false;
    for (intptr_t r = 0; r < rank - 1; ++r) {
      MlirAffineExpr e = mlirAffineMapGetResult(map, r);
      if (!mlirAffineExprIsADim(e) || mlirAffineDimExprGetPosition(e) != r ||
          braze_generic_loop_is_reduction(user, r))
        return false;
    }
  }
  return true;
}

/* A copy generic: one input, a body that yields it (a materialized view). Recomputing
 * it costs a load wherever it is read, so an indexed read of it is always inlined (the
 * im2col gather of a conv reads its data viewed [N, G, Cg L] about KK times over). */
static bool is_view_copy(MlirOperation producer) {
  if (mlirOperationGetNumOperands(producer) != 2)
    return false;
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(producer, 0));
  MlirOperation first = mlirBlockGetFirstOperation(body);
  return braze_op_is(first, "linalg.yield") && mlirOperationGetNumOperands(first) == 1 &&
         mlirValueEqual(mlirOperationGetOperand(first, 0), mlirBlockGetArgument(body, 0));
}

/* A view copy read only by gathers (tensor.extract): it is inlined at the extracts, so
 * a producer inlined into it would be recomputed per gathered element. */
static bool is_gathered_view_copy(MlirOperation user) {
  if (!braze_is_generic(user) || !is_view_copy(user))
    return false;
  MlirValue r = mlirOperationGetResult(user, 0);
  MlirOpOperand use = mlirValueGetFirstUse(r);
  if (mlirOpOperandIsNull(use))
    return false;
  for (; !mlirOpOperandIsNull(use); use = mlirOpOperandGetNextUse(use))
    if (!is_indexed_read_use(use))
      return false;
  return true;
}

/* Why `producer` must be realized (written into `reason`), or false when it can be
 * inlined into every consumer. `*reads` gets the number of uses. */
static bool must_realize(MlirOperation producer, const Options *o, char *reason, intptr_t *reads) {
  MlirValue result = mlirOperationGetResult(producer, 0);
  *reads = 0;
  if (is_contraction(producer))
    return snprintf(reason, REASON_LEN, "contraction"), true;
  if (!braze_generic_all_parallel(producer))
    return snprintf(reason, REASON_LEN, "reduction"), true;
  if (mlirOperationGetNumResults(producer) != 1)
    return snprintf(reason, REASON_LEN, "several results"), true;
  if (o->disable)
    return snprintf(reason, REASON_LEN, "inlining disabled"), true;
  for (MlirOpOperand use = mlirValueGetFirstUse(result); !mlirOpOperandIsNull(use); use = mlirOpOperandGetNextUse(use)) {
    MlirOperation user = mlirOpOperandGetOwner(use);
    ++*reads;
    if (braze_op_is(user, "func.return"))
      return snprintf(reason, REASON_LEN, "function result"), true;
    if (is_indexed_read_use(use) && !is_view_copy(producer) && indexed_reads_of(use) > numel(result))
      return snprintf(reason, REASON_LEN, "indexed read of %lld elements > its %lld", (long long)indexed_reads_of(use),
                      (long long)numel(result)),
             true;
    if (is_indexed_read_use(use))
      continue;
    if (!is_generic_input_use(use)) {
      MlirStringRef name = braze_op_name(user);
      return snprintf(reason, REASON_LEN, "read by '%.*s'", (int)name.length, name.data), true;
    }
    if (is_contraction(user))
      return snprintf(reason, REASON_LEN, "read by a contraction"), true;
    if (consumer_reads_later_narrowing(user, producer))
      return snprintf(reason, REASON_LEN, "its contraction's epilogue: the consumer reads another contraction's"), true;
    if (!is_view_copy(producer) && is_gathered_view_copy(user))
      return snprintf(reason, REASON_LEN, "read by a view that gathers read"), true;
    bool broadcast = is_broadcast_read(use);
    if (o->realize_broadcast && broadcast)
      return snprintf(reason, REASON_LEN, "broadcast into a larger consumer (realize-broadcast)"), true;
    double over = is_view_copy(producer) || broadcast ? 0.0 : repeated_reads_of(use, result);
    if (over > (double)o->reads_threshold)
      return snprintf(reason, REASON_LEN, "each element read %.2f times over (a window) > reads-threshold=%lld", over,
                      o->reads_threshold),
             true;
  }
  if (*reads > o->reads_threshold)
    return snprintf(reason, REASON_LEN, "%ld reads > reads-threshold=%lld", (long)*reads, o->reads_threshold), true;
  if (persistent_row(producer, o, *reads))
    return snprintf(reason, REASON_LEN, "expensive-recompute (%ld reads of a row <= persistent-row-bytes=%lld)",
                    (long)*reads, o->persistent_row_bytes),
           true;
  intptr_t ops = body_op_count(producer);
  if (ops > o->opcount_threshold)
    return snprintf(reason, REASON_LEN, "%ld ops > opcount-threshold=%lld", (long)ops, o->opcount_threshold), true;
  MlirAffineMap inverse;
  intptr_t num_inputs = braze_generic_num_inputs(producer);
  if (!braze_map_inverse_permutation(braze_generic_map(producer, num_inputs), &inverse))
    return snprintf(reason, REASON_LEN, "output map is not a permutation"), true;
  MlirValue out_arg = mlirBlockGetArgument(braze_generic_body(producer), num_inputs);
  if (!mlirOpOperandIsNull(mlirValueGetFirstUse(out_arg)))
    return snprintf(reason, REASON_LEN, "body reads its output"), true;
  return false;
}

/* ---- rebuilding one consumer ---- */

/* The consumer's new operand list. For each old input: the new block argument it
 * maps to, or (when it reads the producer) the new argument of each producer input. */
typedef struct {
  MlirOperation producer, consumer;
  MlirValue inputs[MAX_INPUTS];
  MlirAffineMap maps[MAX_INPUTS + MAX_LOOPS];
  intptr_t num_inputs;
  intptr_t arg_of[MAX_INPUTS];                  /* per old input not from the producer */
  intptr_t producer_arg[MAX_INPUTS][MAX_INPUTS]; /* per old input from the producer */
  MlirAffineMap to_producer[MAX_INPUTS];         /* per old input from the producer: loops -> its loops */
} Inlining;

static intptr_t add_input(Inlining *in, MlirValue v, MlirAffineMap map) {
  for (intptr_t i = 0; i < in->num_inputs; ++i)
    if (mlirValueEqual(in->inputs[i], v) && mlirAffineMapEqual(in->maps[i], map))
      return i;
  if (in->num_inputs == INLINED_INPUTS)
    return -1;
  in->inputs[in->num_inputs] = v;
  in->maps[in->num_inputs] = map;
  return in->num_inputs++;
}

/* Fill the new operand list; false when it would exceed MAX_INPUTS. */
static bool plan_inputs(Inlining *in) {
  MlirValue produced = mlirOperationGetResult(in->producer, 0);
  intptr_t p_inputs = braze_generic_num_inputs(in->producer);
  intptr_t c_inputs = braze_generic_num_inputs(in->consumer);
  if (c_inputs > MAX_INPUTS || p_inputs > MAX_INPUTS)
    return false;
  MlirAffineMap inverse;
  braze_map_inverse_permutation(braze_generic_map(in->producer, p_inputs), &inverse);
  for (intptr_t i = 0; i < c_inputs; ++i) {
    MlirValue v = mlirOperationGetOperand(in->consumer, i);
    MlirAffineMap map = braze_generic_map(in->consumer, i);
    if (!mlirValueEqual(v, produced)) {
      in->arg_of[i] = add_input(in, v, map);
      if (in->arg_of[i] < 0)
        return false;
      continue;
    }
    /* consumer loops -> producer loops: inverse(producer out map) ∘ consumer map */
    MlirAffineMap to_producer = braze_map_compose(inverse, map);
    in->to_producer[i] = to_producer;
    for (intptr_t j = 0; j < p_inputs; ++j) {
      MlirAffineMap composed = braze_map_compose(braze_generic_map(in->producer, j), to_producer);
      in->producer_arg[i][j] = add_input(in, mlirOperationGetOperand(in->producer, j), composed);
      if (in->producer_arg[i][j] < 0)
        return false;
    }
  }
  return true;
}

/* Clone a producer body into a consumer's: its linalg.index values (producer loops)
 * computed from the consumer's loops through `to_producer`. */
static bool producer_clone(BrazeBuilder *b, MlirBlock p_body, BrazeValueMap *p_map, MlirAffineMap to_producer,
                           MlirValue *y, intptr_t *num_y) {
  if (!braze_body_has_loop_index(p_body))
    return braze_clone_block_body(b, p_body, p_map, y, num_y);
  intptr_t c_loops = mlirAffineMapGetNumDims(to_producer), p_loops = mlirAffineMapGetNumResults(to_producer);
  MlirValue c_dims[MAX_LOOPS] = {{NULL}}, p_dims[MAX_LOOPS] = {{NULL}};
  bool used[MAX_LOOPS] = {false};
  if (c_loops > MAX_LOOPS || p_loops > MAX_LOOPS)
    return false;
  for (MlirOperation op = mlirBlockGetFirstOperation(p_body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    int64_t d = braze_op_is(op, "linalg.index")
                    ? mlirIntegerAttrGetValueInt(mlirOperationGetAttributeByName(op, braze_ref("dim")))
                    : -1;
    if (d >= 0 && d < p_loops)
      used[d] = true;
  }
  for (intptr_t d = 0; d < c_loops; ++d)
    for (intptr_t r = 0; r < p_loops && mlirValueIsNull(c_dims[d]); ++r)
      if (used[r] && mlirAffineExprIsFunctionOfDim(mlirAffineMapGetResult(to_producer, r), d))
        c_dims[d] = braze_build_loop_index(b, d);
  for (intptr_t r = 0; r < p_loops; ++r)
    if (used[r] && mlirValueIsNull(p_dims[r] = braze_affine_eval(b, mlirAffineMapGetResult(to_producer, r), c_dims)))
      return false;
  return braze_clone_body_at(b, p_body, p_map, p_dims, p_loops, y, num_y);
}

/* The new body: one clone of the producer's body per input reading it, then the
 * consumer's body with its old block arguments remapped. */
static bool inlined_body(BrazeBuilder *b, const MlirValue *args, intptr_t num_args, MlirValue *yields, void *data) {
  const Inlining *in = data;
  MlirValue produced = mlirOperationGetResult(in->producer, 0);
  MlirBlock p_body = braze_generic_body(in->producer), c_body = braze_generic_body(in->consumer);
  intptr_t p_inputs = braze_generic_num_inputs(in->producer);
  intptr_t c_inputs = braze_generic_num_inputs(in->consumer);
  intptr_t c_args = mlirBlockGetNumArguments(c_body);
  BrazeValueMap map = {0};
  for (intptr_t i = 0; i < c_inputs; ++i) {
    MlirValue old_arg = mlirBlockGetArgument(c_body, i);
    if (!mlirValueEqual(mlirOperationGetOperand(in->consumer, i), produced)) {
      braze_value_map_add(&map, old_arg, args[in->arg_of[i]]);
      continue;
    }
    BrazeValueMap p_map = {0};
    for (intptr_t j = 0; j < p_inputs; ++j)
      braze_value_map_add(&p_map, mlirBlockGetArgument(p_body, j), args[in->producer_arg[i][j]]);
    MlirValue y;
    intptr_t num_y = 1;
    bool ok = producer_clone(b, p_body, &p_map, in->to_producer[i], &y, &num_y) && num_y == 1;
    braze_value_map_free(&p_map);
    if (!ok) {
      braze_value_map_free(&map);
      braze_emit_error(b->loc, "inline-unrealized: producer body does not yield one value");
      return false;
    }
    braze_value_map_add(&map, old_arg, y);
  }
  for (intptr_t k = c_inputs; k < c_args; ++k) /* the outputs' block arguments */
    braze_value_map_add(&map, mlirBlockGetArgument(c_body, k), args[num_args - (c_args - k)]);
  intptr_t num_yields = c_args - c_inputs;
  bool ok = braze_clone_block_body(b, c_body, &map, yields, &num_yields);
  braze_value_map_free(&map);
  return ok;
}

/* Whether each of `num_loops` loops is a bare dim of some result of `maps`: linalg
 * takes a loop's extent from such an operand dim, and refuses the op otherwise
 * ("invalid indexing maps are non-invertible"). */
static bool loops_bound(const MlirAffineMap *maps, intptr_t n, intptr_t num_loops) {
  bool bound[MAX_LOOPS] = {false};
  for (intptr_t i = 0; i < n; ++i)
    for (intptr_t r = 0, nr = mlirAffineMapGetNumResults(maps[i]); r < nr; ++r) {
      MlirAffineExpr e = mlirAffineMapGetResult(maps[i], r);
      if (mlirAffineExprIsADim(e) && mlirAffineDimExprGetPosition(e) < MAX_LOOPS)
        bound[mlirAffineDimExprGetPosition(e)] = true;
    }
  for (intptr_t l = 0; l < num_loops; ++l)
    if (!bound[l])
      return false;
  return true;
}

/* Rebuild `consumer` with `producer` inlined; returns the new op (null when it
 * cannot: more than MAX_INPUTS inputs, or `*unbound` set when a loop of the
 * consumer would be indexed by no bare dim, e.g. a reduced dim read only through
 * the producer, whose own read of it is a broadcast 0 or a reshape's floordiv). */
static MlirOperation inline_into(MlirOperation producer, MlirOperation consumer, bool *unbound) {
  Inlining *in = calloc(1, sizeof *in);
  in->producer = producer;
  in->consumer = consumer;
  MlirOperation rebuilt = {NULL};
  intptr_t c_inputs = braze_generic_num_inputs(consumer);
  intptr_t num_outputs = mlirOperationGetNumOperands(consumer) - c_inputs;
  intptr_t num_loops = braze_generic_num_loops(consumer);
  if (num_loops <= MAX_LOOPS && num_outputs <= MAX_LOOPS && plan_inputs(in)) {
    MlirValue outputs[MAX_LOOPS];
    bool reduction[MAX_LOOPS];
    for (intptr_t k = 0; k < num_outputs; ++k) {
      outputs[k] = mlirOperationGetOperand(consumer, c_inputs + k);
      in->maps[in->num_inputs + k] = braze_generic_map(consumer, c_inputs + k);
    }
    for (intptr_t l = 0; l < num_loops; ++l)
      reduction[l] = braze_generic_loop_is_reduction(consumer, l);
    if (!loops_bound(in->maps, in->num_inputs + num_outputs, num_loops)) {
      *unbound = true;
      free(in);
      return rebuilt;
    }
    MlirContext ctx = mlirOperationGetContext(consumer);
    MlirAttribute ops = braze_string_array_concat(
        ctx, mlirOperationGetAttributeByName(producer, braze_ref(BRAZE_OPS_ATTR)),
        mlirOperationGetAttributeByName(consumer, braze_ref(BRAZE_OPS_ATTR)));
    BrazeGenericSpec spec = {
        .inputs = in->inputs,
        .num_inputs = in->num_inputs,
        .outputs = outputs,
        .num_outputs = num_outputs,
        .maps = in->maps,
        .num_loops = num_loops,
        .reduction = reduction,
        .ops = ops,
        .body = inlined_body,
        .body_data = in,
    };
    BrazeBuilder b = braze_builder_before(consumer);
    rebuilt = braze_build_generic(&b, &spec);
    if (!mlirOperationIsNull(rebuilt))
      braze_set_origins(rebuilt, braze_string_array_concat(ctx, braze_origins_of(producer), braze_origins_of(consumer)));
  }
  free(in);
  return rebuilt;
}

/* ---- indexed reads ---- */

/* Inline `producer` at `extract` (a tensor.extract of its result in a consumer's
 * body): the producer's loops from the extracted position through its inverse
 * output map, each input read there by tensor.extract through its map, the body
 * cloned. The consumer's braze.ops/origins gain the producer's. */
static bool inline_at_extract(MlirOperation producer, MlirOperation extract) {
  BrazeBuilder b = braze_builder_before(extract);
  intptr_t p_inputs = braze_generic_num_inputs(producer), p_loops = braze_generic_num_loops(producer);
  MlirAffineMap inverse;
  if (p_loops > MAX_LOOPS || !braze_map_inverse_permutation(braze_generic_map(producer, p_inputs), &inverse))
    return false;
  MlirValue coords[MAX_LOOPS], p_dims[MAX_LOOPS];
  for (intptr_t r = 1, n = mlirOperationGetNumOperands(extract); r < n && r <= MAX_LOOPS; ++r)
    coords[r - 1] = mlirOperationGetOperand(extract, r);
  for (intptr_t d = 0; d < p_loops; ++d)
    if (mlirValueIsNull(p_dims[d] = braze_affine_eval(&b, mlirAffineMapGetResult(inverse, d), coords)))
      return false;
  MlirBlock p_body = braze_generic_body(producer);
  BrazeValueMap p_map = {0};
  for (intptr_t j = 0; j < p_inputs; ++j) {
    MlirValue input = mlirOperationGetOperand(producer, j);
    MlirAffineMap map = braze_generic_map(producer, j);
    MlirValue operands[1 + MAX_LOOPS] = {input};
    intptr_t n = mlirAffineMapGetNumResults(map);
    for (intptr_t r = 0; r < n && r < MAX_LOOPS; ++r)
      if (mlirValueIsNull(operands[1 + r] = braze_affine_eval(&b, mlirAffineMapGetResult(map, r), p_dims))) {
        braze_value_map_free(&p_map);
        return false;
      }
    MlirType elem = mlirShapedTypeGetElementType(mlirValueGetType(input));
    MlirValue v = braze_build_typed(&b, "tensor.extract", operands, 1 + n, elem, NULL, 0);
    braze_value_map_add(&p_map, mlirBlockGetArgument(p_body, j), v);
  }
  MlirValue y;
  intptr_t num_y = 1;
  bool ok = braze_clone_body_at(&b, p_body, &p_map, p_dims, p_loops, &y, &num_y) && num_y == 1;
  braze_value_map_free(&p_map);
  if (!ok)
    return false;
  mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(extract, 0), y);
  MlirOperation consumer = mlirOperationGetParentOperation(extract);
  mlirOperationDestroy(extract);
  MlirContext ctx = mlirOperationGetContext(consumer);
  MlirAttribute origins = braze_string_array_concat(ctx, braze_origins_of(producer), braze_origins_of(consumer));
  MlirAttribute ops = braze_string_array_concat(ctx, mlirOperationGetAttributeByName(producer, braze_ref(BRAZE_OPS_ATTR)),
                                                mlirOperationGetAttributeByName(consumer, braze_ref(BRAZE_OPS_ATTR)));
  if (!mlirAttributeIsNull(ops))
    mlirOperationSetAttributeByName(consumer, braze_ref(BRAZE_OPS_ATTR), ops);
  if (!mlirAttributeIsNull(origins))
    braze_set_origins(consumer, origins);
  return true;
}

/* Inline the producer at every tensor.extract of its result; the count inlined. */
static long inline_indexed_reads(MlirOperation producer) {
  BrazeOpList extracts = {0};
  MlirValue result = mlirOperationGetResult(producer, 0);
  for (MlirOpOperand use = mlirValueGetFirstUse(result); !mlirOpOperandIsNull(use); use = mlirOpOperandGetNextUse(use))
    if (is_indexed_read_use(use))
      braze_op_list_push(&extracts, mlirOpOperandGetOwner(use));
  long n = 0;
  for (size_t k = 0; k < extracts.count; ++k)
    n += inline_at_extract(producer, extracts.ops[k]);
  braze_op_list_free(&extracts);
  return n;
}

/* ---- the pass ---- */

static void replace_in_list(GenericList *list, size_t from, MlirOperation old, MlirOperation rebuilt) {
  for (size_t i = from; i < list->count; ++i)
    if (!mlirOperationIsNull(list->ops[i]) && mlirOperationEqual(list->ops[i], old))
      list->ops[i] = rebuilt;
}

/* The distinct generics reading `v` (all its users, once must_realize said no). */
static GenericList consumers_of(MlirValue v) {
  GenericList list = {0};
  for (MlirOpOperand use = mlirValueGetFirstUse(v); !mlirOpOperandIsNull(use); use = mlirOpOperandGetNextUse(use)) {
    MlirOperation user = mlirOpOperandGetOwner(use);
    bool seen = false;
    for (size_t i = 0; i < list.count && !seen; ++i)
      seen = mlirOperationEqual(list.ops[i], user);
    if (!seen && braze_is_generic(user))
      braze_op_list_push(&list, user);
  }
  return list;
}

/* Erase a producer with no uses left, and its tensor.empty init if now unused. */
static void erase_producer(MlirOperation producer) {
  intptr_t n = mlirOperationGetNumOperands(producer);
  MlirValue init = mlirOperationGetOperand(producer, n - 1);
  mlirOperationDestroy(producer);
  if (!mlirValueIsAOpResult(init))
    return;
  MlirOperation def = mlirOpResultGetOwner(init);
  if (braze_op_is(def, "tensor.empty") && mlirOpOperandIsNull(mlirValueGetFirstUse(init)))
    mlirOperationDestroy(def);
}

/* Decide for the generic at list index `i`; false on an internal failure. */
static bool process(GenericList *list, size_t i, const Options *o) {
  MlirOperation producer = list->ops[i];
  MlirLocation loc = mlirOperationGetLocation(producer);
  char reason[REASON_LEN];
  intptr_t reads;
  if (mlirOperationGetNumResults(producer) == 0 ||
      mlirOpOperandIsNull(mlirValueGetFirstUse(mlirOperationGetResult(producer, 0))))
    return true; /* dead: nothing reads it */
  if (must_realize(producer, o, reason, &reads)) {
    if (o->remarks)
      braze_emit_remark(loc, "realized: %s", reason);
    return true;
  }
  /* Snapshot the consumers first: rebuilding one changes the use list. */
  long inlined = inline_indexed_reads(producer), kept = 0, kept_unbound = 0;
  GenericList consumers = consumers_of(mlirOperationGetResult(producer, 0));
  for (size_t k = 0; k < consumers.count; ++k) {
    MlirOperation c = consumers.ops[k];
    bool unbound = false;
    MlirOperation rebuilt = inline_into(producer, c, &unbound);
    if (mlirOperationIsNull(rebuilt)) { /* it reads the realized tensor */
      kept++;
      kept_unbound += unbound;
      continue;
    }
    for (intptr_t r = 0, n = mlirOperationGetNumResults(c); r < n; ++r)
      mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(c, r), mlirOperationGetResult(rebuilt, r));
    replace_in_list(list, i + 1, c, rebuilt);
    mlirOperationDestroy(c);
    inlined++;
  }
  braze_op_list_free(&consumers);
  if (o->remarks && kept_unbound)
    braze_emit_remark(loc, "inlined into %ld consumer%s, realized for %ld (a loop would be indexed by no operand dim)",
                      inlined, inlined == 1 ? "" : "s", kept);
  else if (o->remarks && kept)
    braze_emit_remark(loc, "inlined into %ld consumer%s, realized for %ld (more than %d inputs)", inlined,
                      inlined == 1 ? "" : "s", kept, INLINED_INPUTS);
  else if (o->remarks)
    braze_emit_remark(loc, "inlined into %ld consumer%s", inlined, inlined == 1 ? "" : "s");
  if (kept == 0 && mlirOpOperandIsNull(mlirValueGetFirstUse(mlirOperationGetResult(producer, 0)))) {
    list->ops[i] = (MlirOperation){NULL};
    erase_producer(producer);
  }
  return true;
}

static bool run(MlirOperation func, void *state) {
  const Options *o = state;
  GenericList list = {0};
  braze_op_list_collect(func, braze_is_generic, &list);
  bool ok = true;
  for (size_t i = 0; ok && i < list.count; ++i)
    ok = process(&list, i, o);
  braze_op_list_free(&list);
  return ok;
}

static void *create_state(const BrazePassOptions *opts, BrazeStr *error) {
  static const char *const allowed[] = {"disable", "reads-threshold", "opcount-threshold", "remarks",
                                        "realize-broadcast", "persistent-row-bytes", NULL};
  if (!braze_options_check(opts, "inline-unrealized", allowed, error))
    return NULL;
  Options o = {.disable = braze_option_flag(opts, "disable"),
               .remarks = braze_option_flag(opts, "remarks"),
               .realize_broadcast = braze_option_flag(opts, "realize-broadcast")};
  if (!braze_option_int(opts, "reads-threshold", 4, &o.reads_threshold, error) ||
      !braze_option_int(opts, "opcount-threshold", 64, &o.opcount_threshold, error) ||
      !braze_option_int(opts, "persistent-row-bytes", 65536, &o.persistent_row_bytes, error))
    return NULL;
  if (o.reads_threshold < 0 || o.opcount_threshold < 0 || o.persistent_row_bytes < 0) {
    braze_str_printf(error, "inline-unrealized: thresholds must be >= 0");
    return NULL;
  }
  Options *state = malloc(sizeof *state);
  *state = o;
  return state;
}

const BrazePassInfo braze_pass_inline_unrealized = {
    .argument = "inline-unrealized",
    .summary = "Inline unrealized pointwise producers into their consumer generics (Inductor's realize decisions)",
    .options_help = "  disable              realize every producer (inline nothing)\n"
                    "  reads-threshold=N    realize producers read more than N times (default 4)\n"
                    "  opcount-threshold=N  realize producers whose body has more than N ops (default 64)\n"
                    "  persistent-row-bytes=N  realize transcendental producers read by several row-wise consumers\n"
                    "                       when a row is at most N bytes (default 65536; 0 disables)\n"
                    "  remarks              one remark per producer: 'realized: <reason>' or 'inlined into N consumers'\n"
                    "  realize-broadcast    realize producers a consumer reads through a broadcasting map\n",
    .anchor = "func.func",
    .create_state = create_state,
    .destroy_state = free,
    .run = run,
};
