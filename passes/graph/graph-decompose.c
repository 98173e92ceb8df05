/* graph-decompose: rewrite composite graph ops into primitive graph ops.
 *
 * Table-driven: one entry per composite {op name, validate, rewrite}; each entry
 * becomes one C rewrite pattern (mlirOpRewritePatternCreate) and the greedy driver
 * applies them. Every expansion computes exactly the definition in
 * docs/dialect-graph.md; scalars are rank-0 graph.constant ops of the element type,
 * broadcast by the binary op that uses them; new ops keep the composite's location.
 *
 * Options:
 *   keep=OP,...      leave the named composites whole (unknown names are an error)
 *   decompose-mean   also expand reduce_mean into reduce_sum * (1/n); off by default
 *                    because graph-to-loops lowers reduce_mean itself
 *   remarks          a remark per composite: expanded (into how many ops), erased
 *                    (unused) or kept (keep=), and per batch_norm folded into a conv
 *   fold-batch-norm  (default true) fold a batch_norm over a conv with constant f32
 *                    weights and parameters into the conv's weights and a bias add
 *                    (passes/graph/fold-batch-norm.c); =false expands it instead
 *   conv-im2col      window (default: the columns are a view of the padded
 *                    channels-last input, an implicit GEMM) or gather (a gather at a
 *                    constant position table, decision 0016); remarks name the form
 *   conv-half-k-align=N  (default 0: off) a bf16/f16 conv whose K = C/groups x kernel
 *                    size is not a multiple of N gets K padded with zero columns (its
 *                    weight with zero rows) to one, its columns a gather at a table
 *                    with -1 in the padding: the tensor-core template's TMA rows are
 *                    16-byte multiples (the stem's 147 -> 152; decision 0021)
 *   conv-winograd=N  (default 0: off) a 2-D f32 3x3 conv with unit strides, one group,
 *                    a constant weight and at least N channels in and out becomes
 *                    Winograd F(m x m, 3x3) (passes/graph/decompose-winograd.c, decision
 *                    0025): 2.25x (m = 2) or 4x (m = 4) fewer multiply-adds for
 *                    transforms that cost per channel; remarks say which convs took it
 *                    and why others did not
 *   conv-winograd-tile=M  2 (default) or 4: the m above
 *   conv-depthwise=FORM  matmul (default: a batched product, one column per group) or
 *                    window (a depthwise conv, groups = C = OC, as a sum over its taps of
 *                    the channels-last window times the weight: one element kernel with
 *                    its epilogue; passes/graph/decompose-depthwise.c; cuda-default)
 *
 * Validation runs before any op is built, so a pattern either rewrites completely or
 * leaves the IR untouched and reports at the op's location (once per op). */
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dialects/graph/graph.h"
#include "ir/origins.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "passes/graph/builder.h"
#include "passes/graph/decompose-conv.h"
#include "passes/graph/graph-passes.h"
#include "support/context.h"
#include "support/diag.h"

/* ---- per-run state ---- */

typedef struct Decomposition Decomposition;

typedef struct {
  MlirOperation *ops;
  size_t count, cap;
} ReportedOps;

typedef struct {
  bool remarks;
  bool fold_batch_norm; /* batch_norm over a constant-weight conv folds into it */
  BrazeConvIm2col im2col; /* conv-im2col= */
  int64_t half_k_align;   /* conv-half-k-align= */
  int64_t winograd;       /* conv-winograd= (0: off) */
  int winograd_tile;      /* conv-winograd-tile= (2 or 4) */
  bool depthwise_window;  /* conv-depthwise=window */
  MlirOperation dead[2];  /* ops a fold leaves unused, erased after the replacement */
  bool failed;
  ReportedOps reported; /* ops already reported: the driver may retry a pattern */
} DecomposeRun;

/* Report a composite that cannot be expanded, once per op. */
static void report(DecomposeRun *run, MlirOperation op, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void report(DecomposeRun *run, MlirOperation op, const char *fmt, ...) {
  run->failed = true;
  for (size_t i = 0; i < run->reported.count; ++i)
    if (mlirOperationEqual(run->reported.ops[i], op))
      return;
  if (run->reported.count == run->reported.cap) {
    run->reported.cap = run->reported.cap ? 2 * run->reported.cap : 8;
    run->reported.ops = realloc(run->reported.ops, run->reported.cap * sizeof *run->reported.ops);
  }
  run->reported.ops[run->reported.count++] = op;
  BrazeStr msg = {0};
  va_list ap;
  va_start(ap, fmt);
  braze_str_vprintf(&msg, fmt, ap);
  va_end(ap);
  braze_emit_error(mlirOperationGetLocation(op), "graph-decompose: %s: %s", braze_graph_op_mnemonic(op),
                   braze_str_cstr(&msg));
  braze_str_free(&msg);
}

/* ---- shared validation ---- */

static MlirValue operand(MlirOperation op, intptr_t i) { return mlirOperationGetOperand(op, i); }
static MlirType operand_type(MlirOperation op, intptr_t i) { return mlirValueGetType(operand(op, i)); }
static MlirType result_type(MlirOperation op) { return mlirValueGetType(mlirOperationGetResult(op, 0)); }

static bool is_float_tensor(MlirType t) {
  if (!braze_is_ranked_tensor(t) || braze_rank(t) > BRAZE_MAX_RANK)
    return false;
  MlirType e = braze_element_type(t);
  return mlirTypeIsAF32(e) || mlirTypeIsAF16(e) || mlirTypeIsABF16(e) || mlirTypeIsAF64(e);
}

/* x (operand 0) is a float tensor, the op has `num_operands` tensor operands of x's
 * element type, and (when `same_type`) the result has x's type. */
static bool check_operands(DecomposeRun *run, MlirOperation op, intptr_t num_operands, bool same_type) {
  if (mlirOperationGetNumOperands(op) != num_operands || mlirOperationGetNumResults(op) != 1) {
    report(run, op, "expects %ld operands and one result", (long)num_operands);
    return false;
  }
  MlirType x = operand_type(op, 0);
  if (!is_float_tensor(x)) {
    report(run, op, "expects a ranked float tensor input");
    return false;
  }
  for (intptr_t i = 1; i < num_operands; ++i) {
    MlirType t = operand_type(op, i);
    if (!is_float_tensor(t) || !mlirTypeEqual(braze_element_type(t), braze_element_type(x))) {
      report(run, op, "operand %ld must be a float tensor of the input's element type", (long)i);
      return false;
    }
  }
  if (same_type && !mlirTypeEqual(result_type(op), x)) {
    report(run, op, "result type must equal the input type");
    return false;
  }
  return true;
}

/* An integer attribute that is a dim index of a rank-`rank` tensor. */
static bool check_dim_attr(DecomposeRun *run, MlirOperation op, const char *name, intptr_t rank, int64_t *out) {
  if (!braze_attr_i64(op, name, out)) {
    report(run, op, "missing integer attribute '%s'", name);
    return false;
  }
  if (*out < 0 || *out >= rank) {
    report(run, op, "%s %lld out of range for rank %ld", name, (long long)*out, (long)rank);
    return false;
  }
  return true;
}

static bool check_eps(DecomposeRun *run, MlirOperation op, double *eps) {
  if (braze_attr_f64(op, "eps", eps))
    return true;
  report(run, op, "missing float attribute 'eps'");
  return false;
}

/* Operand `i` broadcasts onto x's shape without growing it (weights, biases). */
static bool check_broadcasts_onto(DecomposeRun *run, MlirOperation op, intptr_t i, MlirType target) {
  int64_t ts[BRAZE_MAX_RANK], ps[BRAZE_MAX_RANK], out[BRAZE_MAX_RANK];
  intptr_t tr = braze_shape(target, ts), pr = braze_shape(operand_type(op, i), ps), rank = 0;
  bool ok = pr <= tr && braze_broadcast_shapes(ts, tr, ps, pr, out, &rank);
  for (intptr_t d = 0; ok && d < rank; ++d)
    ok = out[d] == ts[d];
  if (!ok)
    report(run, op, "operand %ld does not broadcast to the result shape", (long)i);
  return ok;
}

/* ---- the expansions ---- */

/* Validate, then (when `b` is non-null) build. Returns the replacement value or a
 * null value when validation failed (reported). */
typedef MlirValue (*RewriteFn)(MlirOperation op, GraphBuilder *b, DecomposeRun *run);

static MlirValue no_value(void) { return (MlirValue){NULL}; }

static MlirValue softmax_like(MlirOperation op, GraphBuilder *b, DecomposeRun *run, bool log_form) {
  int64_t dim;
  if (!check_operands(run, op, 1, true) || !check_dim_attr(run, op, "dim", braze_rank(operand_type(op, 0)), &dim))
    return no_value();
  MlirValue x = operand(op, 0);
  MlirValue max = braze_gb_reduce(b, "reduce_max", x, &dim, 1, true);
  MlirValue shifted = braze_gb_binary(b, "sub", x, max);
  MlirValue e = braze_gb_unary(b, "exp", shifted);
  MlirValue sum = braze_gb_reduce(b, "reduce_sum", e, &dim, 1, true);
  if (!log_form)
    return braze_gb_binary(b, "div", e, sum);
  return braze_gb_binary(b, "sub", shifted, braze_gb_unary(b, "log", sum));
}

static MlirValue rewrite_softmax(MlirOperation op, GraphBuilder *b, DecomposeRun *run) {
  return softmax_like(op, b, run, false);
}

static MlirValue rewrite_log_softmax(MlirOperation op, GraphBuilder *b, DecomposeRun *run) {
  return softmax_like(op, b, run, true);
}

/* Dims [axis, rank) into `dims`; returns how many. */
static intptr_t trailing_dims(int64_t axis, intptr_t rank, int64_t *dims) {
  intptr_t n = 0;
  for (int64_t d = axis; d < rank; ++d)
    dims[n++] = d;
  return n;
}

/* x * rsqrt(v + eps): v is a variance or mean square, x the centred input. */
static MlirValue scale_by_rsqrt(GraphBuilder *b, MlirValue x, MlirValue v, double eps) {
  MlirValue eps_c = braze_gb_scalar(b, braze_element_type(mlirValueGetType(x)), eps);
  MlirValue r = braze_gb_unary(b, "rsqrt", braze_gb_binary(b, "add", v, eps_c));
  return braze_gb_binary(b, "mul", x, r);
}

/* x - mean(x) over `dims` (keepdim), with the mean corrected: m = mean(x), then
 * m + mean(x - m). In exact arithmetic mean(x - m) is 0; in floating point it is
 * the rounding error of m (up to n ulps of |m| for n elements summed in order), and
 * the corrected mean is within about an ulp of the true one (the corrected
 * two-pass algorithm). Without it a row far from zero and of small spread loses
 * its digits: layer_norm of a constant row of 1650 f32 elements gave
 * (x - mean) / sqrt(eps) of 1e-2 instead of 0 (found by fuzz-differential). The
 * consumers still see one subtraction per element. */
static MlirValue centre(GraphBuilder *b, MlirValue x, const int64_t *dims, intptr_t num_dims) {
  MlirValue rough = braze_gb_reduce(b, "reduce_mean", x, dims, num_dims, true);
  MlirValue error = braze_gb_reduce(b, "reduce_mean", braze_gb_binary(b, "sub", x, rough), dims, num_dims, true);
  return braze_gb_binary(b, "sub", x, braze_gb_binary(b, "add", rough, error));
}

static MlirValue rewrite_layer_norm(MlirOperation op, GraphBuilder *b, DecomposeRun *run) {
  int64_t axis, dims[BRAZE_MAX_RANK];
  double eps;
  if (!check_operands(run, op, 3, true))
    return no_value();
  MlirType xt = operand_type(op, 0);
  if (!check_dim_attr(run, op, "axis", braze_rank(xt), &axis) || !check_eps(run, op, &eps) ||
      !check_broadcasts_onto(run, op, 1, xt) || !check_broadcasts_onto(run, op, 2, xt))
    return no_value();
  intptr_t n = trailing_dims(axis, braze_rank(xt), dims);
  MlirValue x = operand(op, 0);
  MlirValue centred = centre(b, x, dims, n);
  MlirValue square = braze_gb_binary(b, "mul", centred, centred);
  MlirValue var = braze_gb_reduce(b, "reduce_mean", square, dims, n, true);
  MlirValue normed = scale_by_rsqrt(b, centred, var, eps);
  MlirValue weighted = braze_gb_binary(b, "mul", normed, operand(op, 1));
  return braze_gb_binary(b, "add", weighted, operand(op, 2));
}

static MlirValue rewrite_rms_norm(MlirOperation op, GraphBuilder *b, DecomposeRun *run) {
  int64_t axis, dims[BRAZE_MAX_RANK];
  double eps;
  if (!check_operands(run, op, 2, true))
    return no_value();
  MlirType xt = operand_type(op, 0);
  if (!check_dim_attr(run, op, "axis", braze_rank(xt), &axis) || !check_eps(run, op, &eps) ||
      !check_broadcasts_onto(run, op, 1, xt))
    return no_value();
  intptr_t n = trailing_dims(axis, braze_rank(xt), dims);
  MlirValue x = operand(op, 0);
  MlirValue square = braze_gb_binary(b, "mul", x, x);
  MlirValue mean_square = braze_gb_reduce(b, "reduce_mean", square, dims, n, true);
  MlirValue normed = scale_by_rsqrt(b, x, mean_square, eps);
  return braze_gb_binary(b, "mul", normed, operand(op, 1));
}

static MlirValue rewrite_batch_norm(MlirOperation op, GraphBuilder *b, DecomposeRun *run) {
  if (run->fold_batch_norm && braze_batch_norm_folds(op)) {
    if (run->remarks)
      braze_emit_remark(mlirOperationGetLocation(op), "graph-decompose: folded batch_norm into the constant weights and bias of the conv it reads");
    return braze_fold_batch_norm(op, b, run->dead);
  }
  double eps;
  if (!check_operands(run, op, 5, true) || !check_eps(run, op, &eps))
    return no_value();
  MlirType xt = operand_type(op, 0);
  intptr_t rank = braze_rank(xt);
  if (rank < 2) {
    report(run, op, "input rank must be >= 2, got %ld", (long)rank);
    return no_value();
  }
  int64_t channels = mlirShapedTypeGetDimSize(xt, 1);
  for (intptr_t i = 1; i < 5; ++i) {
    MlirType t = operand_type(op, i);
    if (braze_rank(t) != 1 || mlirShapedTypeGetDimSize(t, 0) != channels) {
      report(run, op, "operand %ld must have shape [%lld]", (long)i, (long long)channels);
      return no_value();
    }
  }
  /* Parameters [C] -> [1, C, 1, ...] so that they broadcast along dim 1. */
  int64_t param_shape[BRAZE_MAX_RANK];
  for (intptr_t d = 0; d < rank; ++d)
    param_shape[d] = d == 1 ? channels : 1;
  MlirValue p[5];
  for (intptr_t i = 1; i < 5; ++i)
    p[i] = braze_gb_reshape(b, operand(op, i), param_shape, rank);
  MlirValue scale = p[1], bias = p[2], mean = p[3], var = p[4];
  MlirValue centred = braze_gb_binary(b, "sub", operand(op, 0), mean);
  MlirValue normed = scale_by_rsqrt(b, centred, var, eps);
  return braze_gb_binary(b, "add", braze_gb_binary(b, "mul", normed, scale), bias);
}

static MlirValue mul_scalar(GraphBuilder *b, MlirValue x, double c) {
  return braze_gb_binary(b, "mul", x, braze_gb_scalar(b, braze_element_type(mlirValueGetType(x)), c));
}

static MlirValue add_scalar(GraphBuilder *b, MlirValue x, double c) {
  return braze_gb_binary(b, "add", x, braze_gb_scalar(b, braze_element_type(mlirValueGetType(x)), c));
}

static MlirValue rewrite_gelu(MlirOperation op, GraphBuilder *b, DecomposeRun *run) {
  const char *approx = "none";
  size_t len = 4;
  if (!check_operands(run, op, 1, true))
    return no_value();
  if (!mlirAttributeIsNull(mlirOperationGetAttributeByName(op, braze_ref("approximate"))) &&
      !braze_attr_str(op, "approximate", &approx, &len)) {
    report(run, op, "approximate must be a string");
    return no_value();
  }
  bool tanh_form = len == 4 && memcmp(approx, "tanh", 4) == 0;
  if (!tanh_form && !(len == 4 && memcmp(approx, "none", 4) == 0)) {
    report(run, op, "approximate must be \"none\" or \"tanh\", got \"%.*s\"", (int)len, approx);
    return no_value();
  }
  MlirValue x = operand(op, 0), inner;
  if (tanh_form) {
    /* tanh(sqrt(2/pi) * (x + 0.044715 * x^3)) */
    MlirValue cube = braze_gb_binary(b, "mul", braze_gb_binary(b, "mul", x, x), x);
    MlirValue poly = braze_gb_binary(b, "add", x, mul_scalar(b, cube, 0.044715));
    inner = braze_gb_unary(b, "tanh", mul_scalar(b, poly, sqrt(2.0 / 3.14159265358979323846)));
  } else {
    inner = braze_gb_unary(b, "erf", mul_scalar(b, x, 1.0 / sqrt(2.0)));
  }
  return mul_scalar(b, braze_gb_binary(b, "mul", x, add_scalar(b, inner, 1.0)), 0.5);
}

static MlirValue rewrite_silu(MlirOperation op, GraphBuilder *b, DecomposeRun *run) {
  if (!check_operands(run, op, 1, true))
    return no_value();
  MlirValue x = operand(op, 0);
  return braze_gb_binary(b, "mul", x, braze_gb_unary(b, "sigmoid", x));
}

static MlirValue rewrite_linear(MlirOperation op, GraphBuilder *b, DecomposeRun *run) {
  if (!check_operands(run, op, 3, false))
    return no_value();
  MlirType xt = operand_type(op, 0), wt = operand_type(op, 1);
  int64_t xs[BRAZE_MAX_RANK], out[BRAZE_MAX_RANK];
  intptr_t rank = braze_shape(xt, xs);
  if (rank < 1 || braze_rank(wt) != 2 || mlirShapedTypeGetDimSize(wt, 1) != xs[rank - 1]) {
    report(run, op, "expects x [..., K] and weight [N, K]");
    return no_value();
  }
  int64_t k = xs[rank - 1], n = mlirShapedTypeGetDimSize(wt, 0), rows = 1;
  for (intptr_t d = 0; d + 1 < rank; ++d) {
    out[d] = xs[d];
    rows *= xs[d];
  }
  out[rank - 1] = n;
  MlirType expected = braze_gb_tensor_type(b->ctx, out, rank, braze_element_type(xt));
  if (!mlirTypeEqual(result_type(op), expected)) {
    report(run, op, "result type must be the input shape with its last dim replaced by N = %lld", (long long)n);
    return no_value();
  }
  if (!check_broadcasts_onto(run, op, 2, expected))
    return no_value();
  int64_t perm[2] = {1, 0}, flat[2] = {rows, k};
  MlirValue w_t = braze_gb_transpose(b, operand(op, 1), perm);
  MlirValue x2 = rank == 2 ? operand(op, 0) : braze_gb_reshape(b, operand(op, 0), flat, 2);
  MlirValue product = braze_gb_matmul(b, x2, w_t);
  if (rank != 2)
    product = braze_gb_reshape(b, product, out, rank);
  return braze_gb_binary(b, "add", product, operand(op, 2));
}

/* dims of a reduction: non-empty, unique, in range; *count gets the reduced
 * element count. The result type must be what the reduction gives. */
static bool check_reduction(DecomposeRun *run, MlirOperation op, int64_t *dims, intptr_t *num_dims,
                            bool *keepdim, int64_t *count) {
  if (!check_operands(run, op, 1, false))
    return false;
  MlirType xt = operand_type(op, 0);
  intptr_t rank = braze_rank(xt);
  *num_dims = braze_attr_i64_array(op, "dims", dims, BRAZE_MAX_RANK);
  int64_t keep = 0;
  if (*num_dims < 1 || *num_dims > rank || !braze_attr_i64(op, "keepdim", &keep)) {
    report(run, op, "expects non-empty dims (at most the rank) and keepdim");
    return false;
  }
  *keepdim = keep != 0;
  *count = 1;
  int64_t out[BRAZE_MAX_RANK];
  intptr_t out_rank = 0;
  for (intptr_t d = 0; d < rank; ++d) {
    int seen = 0;
    for (intptr_t i = 0; i < *num_dims; ++i)
      seen += dims[i] == d;
    if (seen > 1) {
      report(run, op, "dim %ld repeated in dims", (long)d);
      return false;
    }
    if (seen)
      *count *= mlirShapedTypeGetDimSize(xt, d);
    if (!seen || *keepdim)
      out[out_rank++] = seen ? 1 : mlirShapedTypeGetDimSize(xt, d);
  }
  for (intptr_t i = 0; i < *num_dims; ++i)
    if (dims[i] < 0 || dims[i] >= rank) {
      report(run, op, "dim %lld out of range for rank %ld", (long long)dims[i], (long)rank);
      return false;
    }
  MlirType expected = mlirRankedTensorTypeGet(out_rank, out, braze_element_type(xt), mlirAttributeGetNull());
  if (!mlirTypeEqual(result_type(op), expected)) {
    report(run, op, "result type does not match dims and keepdim");
    return false;
  }
  return true;
}

static MlirValue rewrite_reduce_var(MlirOperation op, GraphBuilder *b, DecomposeRun *run) {
  int64_t dims[BRAZE_MAX_RANK], count, correction;
  intptr_t num_dims;
  bool keepdim;
  if (!check_reduction(run, op, dims, &num_dims, &keepdim, &count))
    return no_value();
  if (!braze_attr_i64(op, "correction", &correction))
    correction = 0;
  if (count - correction <= 0) {
    report(run, op, "n - correction must be > 0 (n = %lld, correction = %lld)", (long long)count,
           (long long)correction);
    return no_value();
  }
  MlirValue x = operand(op, 0);
  MlirValue centred = centre(b, x, dims, num_dims);
  MlirValue square = braze_gb_binary(b, "mul", centred, centred);
  /* The sum takes the op's keepdim: dropping the dims there needs no reshape. */
  MlirValue sum = braze_gb_reduce(b, "reduce_sum", square, dims, num_dims, keepdim);
  return mul_scalar(b, sum, 1.0 / (double)(count - correction));
}

static MlirValue rewrite_reduce_mean(MlirOperation op, GraphBuilder *b, DecomposeRun *run) {
  int64_t dims[BRAZE_MAX_RANK], count;
  intptr_t num_dims;
  bool keepdim;
  if (!check_reduction(run, op, dims, &num_dims, &keepdim, &count))
    return no_value();
  MlirValue sum = braze_gb_reduce(b, "reduce_sum", operand(op, 0), dims, num_dims, keepdim);
  return mul_scalar(b, sum, 1.0 / (double)count);
}

/* conv and conv_transpose: passes/graph/decompose-conv.c. A conv whose batch_norm
 * reader will fold it waits for the fold (a refusal without a report). */
static MlirValue rewrite_conv(MlirOperation op, GraphBuilder *b, DecomposeRun *run) {
  if (run->fold_batch_norm && braze_conv_awaits_fold(op))
    return no_value();
  char why[256];
  int tile = run->winograd_tile;
  if (run->winograd && braze_conv_winograd_applies(op, run->winograd, tile, why, sizeof why)) {
    if (run->remarks)
      braze_emit_remark(mlirOperationGetLocation(op),
                        "graph-decompose: conv as Winograd F(%dx%d, 3x3) (conv-winograd=%lld): %d products, the "
                        "weight transformed at compile time", tile, tile, (long long)run->winograd,
                        (tile + 2) * (tile + 2));
    return braze_decompose_conv_winograd(op, b, tile);
  }
  if (run->winograd && run->remarks)
    braze_emit_remark(mlirOperationGetLocation(op), "graph-decompose: conv not Winograd: %s", why);
  if (run->depthwise_window && braze_conv_depthwise_applies(op, why, sizeof why)) {
    if (run->remarks)
      braze_emit_remark(mlirOperationGetLocation(op), "graph-decompose: depthwise conv as a window reduction over "
                                                      "the channels-last input (conv-depthwise=window)");
    return braze_decompose_conv_depthwise(op, b);
  }
  BrazeConvIm2col form = braze_conv_im2col_form(op, run->im2col, run->half_k_align);
  int64_t kp = braze_conv_padded_k(op, run->im2col, run->half_k_align);
  MlirValue v = braze_decompose_conv(op, b, run->im2col, run->half_k_align, why, sizeof why);
  if (mlirValueIsNull(v))
    report(run, op, "%s", why);
  else if (run->remarks && kp && form == BRAZE_CONV_IM2COL_WINDOW)
    braze_emit_remark(mlirOperationGetLocation(op),
                      "graph-decompose: conv im2col as a window view (implicit GEMM), its last kernel dim widened "
                      "by zero-weight taps to K = %lld (conv-half-k-align=%lld)",
                      (long long)kp, (long long)run->half_k_align);
  else if (run->remarks && kp)
    braze_emit_remark(mlirOperationGetLocation(op),
                      "graph-decompose: conv im2col as a gather, K padded with zero columns to %lld "
                      "(conv-half-k-align=%lld)", (long long)kp, (long long)run->half_k_align);
  else if (run->remarks && form == BRAZE_CONV_IM2COL_GATHER)
    braze_emit_remark(mlirOperationGetLocation(op), "graph-decompose: conv im2col as a gather%s",
                      run->im2col == BRAZE_CONV_IM2COL_GATHER ? " (conv-im2col=gather)"
                                                              : ": a window view has at most 3 spatial dims");
  else if (run->remarks && form == BRAZE_CONV_IM2COL_WINDOW)
    braze_emit_remark(mlirOperationGetLocation(op), "graph-decompose: conv im2col as a window view (implicit GEMM)");
  return v;
}

static MlirValue rewrite_conv_transpose(MlirOperation op, GraphBuilder *b, DecomposeRun *run) {
  char why[256];
  MlirValue v = braze_decompose_conv_transpose(op, b, why, sizeof why);
  if (mlirValueIsNull(v))
    report(run, op, "%s", why);
  return v;
}

/* ---- the table ---- */

struct Decomposition {
  const char *name; /* the op's mnemonic, also its name in keep= */
  RewriteFn rewrite;
  bool opt_in; /* only with decompose-mean */
};

static const Decomposition decompositions[] = {
    {"softmax", rewrite_softmax, false},       {"log_softmax", rewrite_log_softmax, false},
    {"layer_norm", rewrite_layer_norm, false}, {"rms_norm", rewrite_rms_norm, false},
    {"batch_norm", rewrite_batch_norm, false}, {"gelu", rewrite_gelu, false},
    {"silu", rewrite_silu, false},             {"linear", rewrite_linear, false},
    {"reduce_var", rewrite_reduce_var, false}, {"reduce_mean", rewrite_reduce_mean, true},
    {"conv", rewrite_conv, false},             {"conv_transpose", rewrite_conv_transpose, false},
};
enum { NUM_DECOMPOSITIONS = sizeof decompositions / sizeof *decompositions };

/* ---- options ---- */

typedef struct {
  bool active[NUM_DECOMPOSITIONS]; /* false: kept whole (keep=, or opt-in not asked for) */
  bool kept[NUM_DECOMPOSITIONS];   /* named in keep= */
  bool remarks;
  bool fold_batch_norm;
  BrazeConvIm2col im2col;
  int64_t half_k_align; /* conv-half-k-align= (0: off) */
  int64_t winograd;     /* conv-winograd= (0: off) */
  int winograd_tile;    /* conv-winograd-tile= */
  bool depthwise_window; /* conv-depthwise=window */
} DecomposeOptions;

static int find_decomposition(const char *name, size_t len) {
  for (int i = 0; i < NUM_DECOMPOSITIONS; ++i)
    if (strlen(decompositions[i].name) == len && memcmp(decompositions[i].name, name, len) == 0)
      return i;
  return -1;
}

static bool parse_keep(const BrazeOption *keep, DecomposeOptions *opts, BrazeStr *error) {
  for (const char *p = keep->value ? keep->value : "";;) {
    const char *comma = strchr(p, ',');
    size_t len = comma ? (size_t)(comma - p) : strlen(p);
    int i = find_decomposition(p, len);
    if (i < 0) {
      braze_str_printf(error, "graph-decompose: keep= names '%.*s', which is not a composite (", (int)len, p);
      for (int j = 0; j < NUM_DECOMPOSITIONS; ++j)
        braze_str_printf(error, "%s%s", j ? " " : "", decompositions[j].name);
      braze_str_puts(error, ")");
      return false;
    }
    opts->active[i] = false;
    opts->kept[i] = true;
    if (!comma)
      return true;
    p = comma + 1;
  }
}

static bool parse_bool(const BrazeOption *o, bool *out, BrazeStr *error) {
  if (!o->value || !strcmp(o->value, "true") || !strcmp(o->value, "1")) {
    *out = true;
    return true;
  }
  if (!strcmp(o->value, "false") || !strcmp(o->value, "0")) {
    *out = false;
    return true;
  }
  braze_str_printf(error, "graph-decompose: option '%s' expects true or false, got '%s'", o->key, o->value);
  return false;
}

/* Integer option `key` (default `dflt`) in range[0]..range[1] in steps of range[2];
 * otherwise an error saying it `expects`. */
static bool int_option(const BrazePassOptions *options, const char *key, long long dflt, const long long range[3],
                       const char *expects, long long *out, BrazeStr *error) {
  if (!braze_option_int(options, key, dflt, out, error))
    return false;
  if (*out >= range[0] && *out <= range[1] && (*out - range[0]) % range[2] == 0)
    return true;
  braze_str_printf(error, "graph-decompose: %s must be %s, got %lld", key, expects, *out);
  return false;
}

static void *create_state(const BrazePassOptions *options, BrazeStr *error) {
  static const char *const allowed[] = {"keep",        "decompose-mean",     "remarks", "fold-batch-norm",
                                        "conv-im2col", "conv-half-k-align", "conv-winograd",
                                        "conv-winograd-tile", "conv-depthwise", NULL};
  if (!braze_options_check(options, "graph-decompose", allowed, error))
    return NULL;
  DecomposeOptions *opts = calloc(1, sizeof *opts);
  bool decompose_mean = false;
  const BrazeOption *mean = braze_option_find(options, "decompose-mean");
  const BrazeOption *keep = braze_option_find(options, "keep");
  const BrazeOption *remarks = braze_option_find(options, "remarks");
  const BrazeOption *fold = braze_option_find(options, "fold-batch-norm");
  opts->fold_batch_norm = true;
  opts->im2col = BRAZE_CONV_IM2COL_WINDOW;
  const BrazeOption *im2col = braze_option_find(options, "conv-im2col");
  if (im2col && im2col->value && !strcmp(im2col->value, "gather")) {
    opts->im2col = BRAZE_CONV_IM2COL_GATHER;
  } else if (im2col && (!im2col->value || strcmp(im2col->value, "window"))) {
    braze_str_printf(error, "graph-decompose: option 'conv-im2col' expects window or gather, got '%s'",
                     im2col->value ? im2col->value : "");
    free(opts);
    return NULL;
  }
  const BrazeOption *depthwise = braze_option_find(options, "conv-depthwise");
  if (depthwise && depthwise->value && !strcmp(depthwise->value, "window")) {
    opts->depthwise_window = true;
  } else if (depthwise && (!depthwise->value || strcmp(depthwise->value, "matmul"))) {
    braze_str_printf(error, "graph-decompose: option 'conv-depthwise' expects matmul or window, got '%s'",
                     depthwise->value ? depthwise->value : "");
    free(opts);
    return NULL;
  }
  long long k_align, winograd, tile;
  if (!int_option(options, "conv-half-k-align", 0, (long long[3]){0, 64, 1}, "in [0, 64]", &k_align, error) ||
      !int_option(options, "conv-winograd", 0, (long long[3]){0, LLONG_MAX, 1}, "0 (off) or a channel count", &winograd,
                  error) ||
      !int_option(options, "conv-winograd-tile", 2, (long long[3]){2, 4, 2}, "2 or 4", &tile, error)) {
    free(opts);
    return NULL;
  }
  opts->half_k_align = k_align;
  opts->winograd = winograd;
  opts->winograd_tile = (int)tile;
  if ((mean && !parse_bool(mean, &decompose_mean, error)) || (remarks && !parse_bool(remarks, &opts->remarks, error)) ||
      (fold && !parse_bool(fold, &opts->fold_batch_norm, error))) {
    free(opts);
    return NULL;
  }
  for (int i = 0; i < NUM_DECOMPOSITIONS; ++i)
    opts->active[i] = !decompositions[i].opt_in || decompose_mean;
  if (keep && !parse_keep(keep, opts, error)) {
    free(opts);
    return NULL;
  }
  return opts;
}

static void destroy_state(void *state) { free(state); }

/* ---- patterns and the run ---- */

typedef struct {
  const Decomposition *entry;
  DecomposeRun *run;
} PatternData;

static MlirLogicalResult match_and_rewrite(MlirRewritePattern pattern, MlirOperation op,
                                           MlirPatternRewriter rewriter, void *user_data) {
  (void)pattern;
  PatternData *data = user_data;
  MlirRewriterBase base = mlirPatternRewriterAsBase(rewriter);
  MlirLocation loc = mlirOperationGetLocation(op);
  const char *name = data->entry->name;
  /* A composite nobody reads is pure: drop it instead of expanding it. */
  if (mlirOperationGetNumResults(op) == 1 && mlirOpOperandIsNull(mlirValueGetFirstUse(mlirOperationGetResult(op, 0)))) {
    mlirRewriterBaseEraseOp(base, op);
    if (data->run->remarks)
      braze_emit_remark(loc, "graph-decompose: erased unused %s", name);
    return mlirLogicalResultSuccess();
  }
  GraphBuilder b = braze_gb_for_pattern(rewriter, op);
  /* The new ops remember the composite (form-kernels names kernels by it). */
  b.loc = braze_origin_loc(b.loc, name);
  /* Each rewrite fn checks everything before it builds anything, so a failed
   * check leaves the IR untouched. */
  MlirValue replacement = data->entry->rewrite(op, &b, data->run);
  if (mlirValueIsNull(replacement))
    return mlirLogicalResultFailure();
  braze_gb_replace(&b, op, replacement);
  for (int i = 0; i < 2; ++i) /* what a batch_norm fold left unused: its old bias add, then conv */
    if (!mlirOperationIsNull(data->run->dead[i]))
      mlirRewriterBaseEraseOp(base, data->run->dead[i]);
  data->run->dead[0] = data->run->dead[1] = (MlirOperation){NULL};
  if (data->run->remarks)
    braze_emit_remark(loc, "graph-decompose: expanded %s into %zu primitive ops", name, b.num_created);
  return mlirLogicalResultSuccess();
}

static MlirFrozenRewritePatternSet build_patterns(MlirContext ctx, const DecomposeOptions *opts,
                                                  PatternData *data, DecomposeRun *run) {
  MlirRewritePatternSet set = mlirRewritePatternSetCreate(ctx);
  MlirRewritePatternCallbacks callbacks = {NULL, NULL, match_and_rewrite};
  for (int i = 0; i < NUM_DECOMPOSITIONS; ++i) {
    if (!opts->active[i])
      continue;
    data[i] = (PatternData){&decompositions[i], run};
    char root[64];
    snprintf(root, sizeof root, "graph.%s", decompositions[i].name);
    mlirRewritePatternSetAdd(set, mlirOpRewritePatternCreate(braze_ref(root), 1, ctx, callbacks, &data[i], 0, NULL));
  }
  MlirFrozenRewritePatternSet frozen = mlirFreezeRewritePattern(set);
  /* Freezing moves the patterns out but does not free the set object itself. */
  mlirRewritePatternSetDestroy(set);
  return frozen;
}

typedef struct {
  const DecomposeOptions *opts;
  DecomposeRun *run;
} LeftoverCheck;

/* A composite still present after the driver (not kept, not already reported);
 * kept ones get a remark when asked for. */
static MlirWalkResult check_leftover(MlirOperation op, void *user_data) {
  LeftoverCheck *check = user_data;
  const char *m = braze_graph_op_mnemonic(op);
  int i = m ? find_decomposition(m, strlen(m)) : -1;
  if (i >= 0 && check->opts->active[i])
    report(check->run, op, "was not decomposed");
  else if (i >= 0 && check->opts->kept[i] && check->opts->remarks)
    braze_emit_remark(mlirOperationGetLocation(op), "graph-decompose: kept %s (keep=)", m);
  return MlirWalkResultAdvance;
}

static bool run(MlirOperation func, void *state) {
  const DecomposeOptions *opts = state;
  MlirContext ctx = mlirOperationGetContext(func);
  /* The fold needs both composites expanded here (a kept batch_norm keeps its conv whole). */
  int conv = find_decomposition("conv", 4), bn = find_decomposition("batch_norm", 10);
  DecomposeRun run = {.remarks = opts->remarks,
                      .fold_batch_norm = opts->fold_batch_norm && opts->active[conv] && opts->active[bn],
                      .im2col = opts->im2col,
                      .half_k_align = opts->half_k_align,
                      .depthwise_window = opts->depthwise_window,
                      .winograd = opts->winograd,
                      .winograd_tile = opts->winograd_tile};
  PatternData data[NUM_DECOMPOSITIONS];
  MlirFrozenRewritePatternSet patterns = build_patterns(ctx, opts, data, &run);
  MlirGreedyRewriteDriverConfig config = mlirGreedyRewriteDriverConfigCreate();
  mlirGreedyRewriteDriverConfigSetRegionSimplificationLevel(config, MLIR_GREEDY_SIMPLIFY_REGION_LEVEL_DISABLED);
  mlirApplyPatternsAndFoldGreedilyWithOp(func, patterns, config);
  mlirGreedyRewriteDriverConfigDestroy(config);
  mlirFrozenRewritePatternSetDestroy(patterns);
  LeftoverCheck check = {opts, &run};
  mlirOperationWalk(func, check_leftover, &check, MlirWalkPostOrder);
  free(run.reported.ops);
  return !run.failed;
}

const BrazePassInfo braze_pass_graph_decompose = {
    .argument = "graph-decompose",
    .summary = "Rewrite composite graph ops (softmax, layer_norm, gelu, linear, conv, ...) into primitives",
    .options_help = "    keep=OP,...          leave these composites whole (names as in the graph dialect)\n"
                    "    decompose-mean       also expand reduce_mean into reduce_sum * (1/n)\n"
                    "    remarks              a remark per composite: expanded, erased (unused) or kept\n"
                    "    fold-batch-norm      fold batch_norm into a constant-weight conv (default true; =false: expand)\n"
                    "    conv-im2col=FORM     window (default: a view of the padded input, implicit GEMM) or gather\n"
                    "    conv-half-k-align=N  bf16/f16 convs: pad K (C/groups x kernel size) with zeros to a multiple\n"
                    "                         of N, the columns then a gather (0: off, the default; cuda: 8)\n"
                    "    conv-winograd=N      f32 3x3 stride-1 convs with at least N channels in and out as Winograd\n"
                    "                         F(m x m, 3x3) (0: off, the default; cpu-default: 128)\n"
                    "    conv-winograd-tile=M F(2x2, 3x3) (2, the default) or F(4x4, 3x3) (4)\n"
                    "    conv-depthwise=FORM  matmul (default: a batched product per group) or window (a depthwise\n"
                    "                         conv as a sum over taps of its channels-last window; cuda-default)\n",
    .anchor = "func.func",
    .create_state = create_state,
    .destroy_state = destroy_state,
    .run = run,
};
