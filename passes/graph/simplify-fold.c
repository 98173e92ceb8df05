/* graph-simplify const-fold: a pointwise unary, binary, cmp or cast op whose operands
 * are all dense graph.constant values becomes one graph.constant.
 *
 * Only f32, i32, i64 and i1 are folded (every operand and the result): f16/bf16 would
 * need a software rounding the C API does not offer; unsigned integers (ui32, ui64)
 * are left to the lowering (their division and compares differ). Values are computed as the
 * reference interpreter defines them: floats in double, rounded once to f32 on
 * store; integers in 64 bits, wrapping to the result width; integer division
 * truncates. What the interpreter treats as an error (integer division by zero, a
 * float->int cast of NaN or out of range) is left unfolded. The result may have at
 * most fold-limit elements. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dialects/graph/graph.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "passes/graph/simplify.h"

typedef enum { KIND_NONE, KIND_F32, KIND_I1, KIND_I32, KIND_I64 } Kind;

static Kind kind_of(MlirType tensor) {
  if (!braze_is_ranked_tensor(tensor) || braze_rank(tensor) > BRAZE_MAX_RANK)
    return KIND_NONE;
  MlirType e = braze_element_type(tensor);
  if (mlirTypeIsAF32(e))
    return KIND_F32;
  if (!mlirTypeIsAInteger(e) || mlirIntegerTypeIsUnsigned(e))
    return KIND_NONE;
  switch (mlirIntegerTypeGetWidth(e)) {
  case 1: return KIND_I1;
  case 32: return KIND_I32;
  case 64: return KIND_I64;
  default: return KIND_NONE;
  }
}

/* One element: `f` for f32, `i` for the integer kinds. */
typedef struct {
  double f;
  int64_t i;
} Scalar;

static Scalar read_element(MlirAttribute dense, Kind kind, intptr_t pos) {
  switch (kind) {
  case KIND_F32: return (Scalar){.f = mlirDenseElementsAttrGetFloatValue(dense, pos)};
  case KIND_I1: return (Scalar){.i = mlirDenseElementsAttrGetBoolValue(dense, pos)};
  case KIND_I32: return (Scalar){.i = mlirDenseElementsAttrGetInt32Value(dense, pos)};
  default: return (Scalar){.i = mlirDenseElementsAttrGetInt64Value(dense, pos)};
  }
}

/* Two's-complement wrap of a 64-bit value to the kind's width. */
static int64_t wrap(uint64_t v, Kind kind) {
  if (kind == KIND_I1)
    return (int64_t)(v & 1);
  if (kind == KIND_I32)
    return (int64_t)(int32_t)(uint32_t)v;
  return (int64_t)v;
}

static bool is_float(Kind k) { return k == KIND_F32; }

/* ---- the element functions; false: not foldable (left to the runtime) ---- */

static bool eval_unary(const char *m, Kind kind, Scalar x, Scalar *out) {
  if (is_float(kind)) {
    double v = x.f, r;
    if (!strcmp(m, "neg")) r = -v;
    else if (!strcmp(m, "abs")) r = fabs(v);
    else if (!strcmp(m, "exp")) r = exp(v);
    else if (!strcmp(m, "log")) r = log(v);
    else if (!strcmp(m, "sqrt")) r = sqrt(v);
    else if (!strcmp(m, "rsqrt")) r = 1.0 / sqrt(v);
    else if (!strcmp(m, "tanh")) r = tanh(v);
    else if (!strcmp(m, "sigmoid")) r = 1.0 / (1.0 + exp(-v));
    else if (!strcmp(m, "relu")) r = isnan(v) ? v : (v > 0 ? v : 0.0);
    else if (!strcmp(m, "erf")) r = erf(v);
    else return false;
    out->f = r;
    return true;
  }
  uint64_t u = (uint64_t)x.i;
  if (!strcmp(m, "neg")) out->i = wrap(0 - u, kind);
  else if (!strcmp(m, "abs")) out->i = wrap(x.i < 0 ? 0 - u : u, kind);
  else if (!strcmp(m, "relu")) out->i = x.i > 0 ? x.i : 0;
  else return false;
  return true;
}

/* IEEE maximum/minimum: NaN propagates. */
static double nan_max(double a, double b) { return isnan(a) || isnan(b) ? NAN : (a > b ? a : b); }
static double nan_min(double a, double b) { return isnan(a) || isnan(b) ? NAN : (a < b ? a : b); }

static bool eval_binary(const char *m, Kind kind, Scalar a, Scalar b, Scalar *out) {
  if (is_float(kind)) {
    double x = a.f, y = b.f, r;
    if (!strcmp(m, "add")) r = x + y;
    else if (!strcmp(m, "sub")) r = x - y;
    else if (!strcmp(m, "mul")) r = x * y;
    else if (!strcmp(m, "div")) r = x / y;
    else if (!strcmp(m, "max")) r = nan_max(x, y);
    else if (!strcmp(m, "min")) r = nan_min(x, y);
    else if (!strcmp(m, "pow")) r = pow(x, y);
    else return false;
    out->f = r;
    return true;
  }
  uint64_t x = (uint64_t)a.i, y = (uint64_t)b.i;
  if (!strcmp(m, "add")) out->i = wrap(x + y, kind);
  else if (!strcmp(m, "sub")) out->i = wrap(x - y, kind);
  else if (!strcmp(m, "mul")) out->i = wrap(x * y, kind);
  else if (!strcmp(m, "max")) out->i = a.i > b.i ? a.i : b.i;
  else if (!strcmp(m, "min")) out->i = a.i < b.i ? a.i : b.i;
  else if (!strcmp(m, "div")) {
    if (b.i == 0)
      return false;
    /* INT64_MIN / -1 overflows in C: it wraps to INT64_MIN, as negation does. */
    out->i = b.i == -1 ? wrap(0 - x, kind) : wrap((uint64_t)(a.i / b.i), kind);
  } else
    return false;
  return true;
}

/* Ordered compares for floats (NaN gives false, except ne). */
static bool eval_cmp(const char *pred, size_t len, Kind kind, Scalar a, Scalar b, Scalar *out) {
  int order; /* -1, 0, 1, or 2 for unordered */
  if (is_float(kind))
    order = isnan(a.f) || isnan(b.f) ? 2 : (a.f < b.f ? -1 : a.f > b.f);
  else
    order = a.i < b.i ? -1 : a.i > b.i;
  bool r;
  if (len == 2 && !memcmp(pred, "eq", 2)) r = order == 0;
  else if (len == 2 && !memcmp(pred, "ne", 2)) r = order != 0;
  else if (len == 2 && !memcmp(pred, "lt", 2)) r = order == -1;
  else if (len == 2 && !memcmp(pred, "le", 2)) r = order == -1 || order == 0;
  else if (len == 2 && !memcmp(pred, "gt", 2)) r = order == 1;
  else if (len == 2 && !memcmp(pred, "ge", 2)) r = order == 1 || order == 0;
  else return false;
  out->i = r;
  return true;
}

static bool eval_cast(Kind from, Kind to, Scalar x, Scalar *out) {
  if (to == KIND_I1) {
    out->i = is_float(from) ? x.f != 0 : x.i != 0;
    return true;
  }
  if (is_float(to)) {
    out->f = is_float(from) ? x.f : (double)x.i;
    return true;
  }
  if (!is_float(from)) {
    out->i = wrap((uint64_t)x.i, to);
    return true;
  }
  double t = trunc(x.f);
  double lo = to == KIND_I32 ? -2147483648.0 : -9223372036854775808.0;
  if (isnan(t) || t < lo || t >= -lo)
    return false; /* an error in the interpreter */
  out->i = (int64_t)t;
  return true;
}

/* ---- folding one op ---- */

typedef struct {
  const char *mnemonic;
  GraphOpClass cls;
  intptr_t num_operands;
  MlirAttribute values[2];
  Kind kinds[2];
  Kind result_kind;
  const char *predicate;
  size_t predicate_len;
} FoldOp;

static bool eval_element(const FoldOp *f, const Scalar *in, Scalar *out) {
  if (f->cls == GRAPH_CMP)
    return eval_cmp(f->predicate, f->predicate_len, f->kinds[0], in[0], in[1], out);
  if (f->cls == GRAPH_BINARY)
    return eval_binary(f->mnemonic, f->result_kind, in[0], in[1], out);
  if (!strcmp(f->mnemonic, "cast"))
    return eval_cast(f->kinds[0], f->result_kind, in[0], out);
  return eval_unary(f->mnemonic, f->result_kind, in[0], out);
}

/* Row-major position in an operand of the result element at `index`, under numpy
 * broadcasting (operand dims align at the right; size-1 dims repeat). */
static intptr_t broadcast_position(MlirType operand, const int64_t *index, intptr_t rank) {
  int64_t shape[BRAZE_MAX_RANK];
  intptr_t r = braze_shape(operand, shape), pos = 0;
  for (intptr_t d = 0; d < r; ++d) {
    int64_t i = shape[d] == 1 ? 0 : index[rank - r + d];
    pos = pos * shape[d] + i;
  }
  return pos;
}

static MlirAttribute make_dense(MlirType type, Kind kind, const Scalar *values, intptr_t n) {
  MlirAttribute attr;
  if (kind == KIND_F32) {
    float *data = malloc((size_t)n * sizeof *data + 1);
    for (intptr_t i = 0; i < n; ++i)
      data[i] = (float)values[i].f; /* the one rounding to f32 */
    attr = mlirDenseElementsAttrFloatGet(type, n, data);
    free(data);
  } else if (kind == KIND_I1) {
    int *data = malloc((size_t)n * sizeof *data + 1);
    for (intptr_t i = 0; i < n; ++i)
      data[i] = (int)values[i].i;
    attr = mlirDenseElementsAttrBoolGet(type, n, data);
    free(data);
  } else if (kind == KIND_I32) {
    int32_t *data = malloc((size_t)n * sizeof *data + 1);
    for (intptr_t i = 0; i < n; ++i)
      data[i] = (int32_t)values[i].i;
    attr = mlirDenseElementsAttrInt32Get(type, n, data);
    free(data);
  } else {
    int64_t *data = malloc((size_t)n * sizeof *data + 1);
    for (intptr_t i = 0; i < n; ++i)
      data[i] = values[i].i;
    attr = mlirDenseElementsAttrInt64Get(type, n, data);
    free(data);
  }
  return attr;
}

/* Evaluate every result element; NULL when one of them is not foldable. */
static Scalar *evaluate(const FoldOp *f, MlirOperation op, MlirType type, intptr_t n) {
  int64_t shape[BRAZE_MAX_RANK], index[BRAZE_MAX_RANK] = {0};
  intptr_t rank = braze_shape(type, shape);
  Scalar *out = malloc((size_t)n * sizeof *out + 1);
  for (intptr_t e = 0; e < n; ++e) {
    Scalar in[2];
    for (intptr_t k = 0; k < f->num_operands; ++k) {
      MlirType t = mlirValueGetType(mlirOperationGetOperand(op, k));
      in[k] = read_element(f->values[k], f->kinds[k], broadcast_position(t, index, rank));
    }
    if (!eval_element(f, in, &out[e])) {
      free(out);
      return NULL;
    }
    for (intptr_t d = rank - 1; d >= 0 && ++index[d] == shape[d]; --d)
      index[d] = 0;
  }
  return out;
}

/* Fill `f` from `op`; false when the op is not a foldable one. */
static bool describe(MlirOperation op, FoldOp *f) {
  f->mnemonic = braze_graph_op_mnemonic(op);
  f->cls = braze_graph_op_class(op);
  f->num_operands = mlirOperationGetNumOperands(op);
  bool arity_ok = f->cls == GRAPH_UNARY ? f->num_operands == 1 : f->num_operands == 2;
  if (!f->mnemonic || !arity_ok || mlirOperationGetNumResults(op) != 1)
    return false;
  if (f->cls == GRAPH_CMP && !braze_attr_str(op, "predicate", &f->predicate, &f->predicate_len))
    return false;
  for (intptr_t k = 0; k < f->num_operands; ++k) {
    MlirValue v = mlirOperationGetOperand(op, k);
    f->values[k] = braze_gb_constant_value(v);
    f->kinds[k] = kind_of(mlirValueGetType(v));
    if (mlirAttributeIsNull(f->values[k]) || f->kinds[k] == KIND_NONE)
      return false;
  }
  f->result_kind = kind_of(mlirValueGetType(mlirOperationGetResult(op, 0)));
  if (f->result_kind == KIND_NONE)
    return false;
  /* Element types as the verifier wants them (re-checked: folding must not guess). */
  if (f->cls == GRAPH_CMP)
    return f->kinds[0] == f->kinds[1] && f->result_kind == KIND_I1;
  if (f->cls == GRAPH_BINARY)
    return f->kinds[0] == f->result_kind && f->kinds[1] == f->result_kind;
  return strcmp(f->mnemonic, "cast") == 0 || f->kinds[0] == f->result_kind;
}

/* Each operand broadcasts to the result shape (unary ops: has it). Re-checked here
 * because reading a constant at a position outside it would read out of bounds. */
static bool shapes_fit(const FoldOp *f, MlirOperation op, MlirType type) {
  int64_t rs[BRAZE_MAX_RANK], os[BRAZE_MAX_RANK];
  intptr_t rank = braze_shape(type, rs);
  for (intptr_t k = 0; k < f->num_operands; ++k) {
    MlirType t = mlirValueGetType(mlirOperationGetOperand(op, k));
    intptr_t r = braze_shape(t, os);
    if (r > rank || (f->cls == GRAPH_UNARY && r != rank) || !mlirShapedTypeHasStaticShape(t))
      return false;
    for (intptr_t d = 0; d < r; ++d) {
      int64_t want = rs[rank - r + d];
      if (os[d] != want && (os[d] != 1 || f->cls == GRAPH_UNARY))
        return false;
    }
  }
  return true;
}

static bool const_fold(MlirOperation op, GraphBuilder *b, SimplifyRun *run) {
  FoldOp f = {0};
  MlirType type = mlirValueGetType(mlirOperationGetResult(op, 0));
  if (!describe(op, &f) || !mlirShapedTypeHasStaticShape(type) || !shapes_fit(&f, op, type))
    return false;
  intptr_t n = braze_num_elements(type);
  if (n > run->opts->fold_limit)
    return false;
  Scalar *values = evaluate(&f, op, type, n);
  if (!values)
    return false;
  MlirAttribute dense = make_dense(type, f.result_kind, values, n);
  free(values);
  MlirLocation loc = mlirOperationGetLocation(op);
  braze_gb_replace(b, op, braze_gb_constant(b, dense));
  simplify_applied(run, loc, RULE_CONST_FOLD, NULL);
  return true;
}

const SimplifyPattern simplify_fold_patterns[] = {
    {RULE_CONST_FOLD, "neg", const_fold},  {RULE_CONST_FOLD, "abs", const_fold},
    {RULE_CONST_FOLD, "exp", const_fold},  {RULE_CONST_FOLD, "log", const_fold},
    {RULE_CONST_FOLD, "sqrt", const_fold}, {RULE_CONST_FOLD, "rsqrt", const_fold},
    {RULE_CONST_FOLD, "tanh", const_fold}, {RULE_CONST_FOLD, "sigmoid", const_fold},
    {RULE_CONST_FOLD, "relu", const_fold}, {RULE_CONST_FOLD, "erf", const_fold},
    {RULE_CONST_FOLD, "cast", const_fold}, {RULE_CONST_FOLD, "add", const_fold},
    {RULE_CONST_FOLD, "sub", const_fold},  {RULE_CONST_FOLD, "mul", const_fold},
    {RULE_CONST_FOLD, "div", const_fold},  {RULE_CONST_FOLD, "max", const_fold},
    {RULE_CONST_FOLD, "min", const_fold},  {RULE_CONST_FOLD, "pow", const_fold},
    {RULE_CONST_FOLD, "cmp", const_fold},
};
const size_t simplify_num_fold_patterns = sizeof simplify_fold_patterns / sizeof *simplify_fold_patterns;
