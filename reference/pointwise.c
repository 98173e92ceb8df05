/* Pointwise ops: unary (incl. gelu, silu), cast, binary, cmp, select. */
#include <math.h>
#include <string.h>

#include "dialects/graph/graph.h"
#include "reference/internal.h"

static bool is(const char *mnemonic, const char *name) { return strcmp(mnemonic, name) == 0; }

/* The result of a broadcasting op must have exactly the broadcast shape of its operands. */
static bool check_broadcast(MlirOperation op, const BrazeHostTensor *const *args, size_t n,
                            const BrazeHostTensor *result) {
  int64_t shape[BRAZE_TENSOR_MAX_RANK] = {0};
  intptr_t rank = 0;
  for (size_t i = 0; i < n; ++i) {
    int64_t next[BRAZE_TENSOR_MAX_RANK];
    intptr_t next_rank;
    if (!braze_broadcast_shapes(shape, rank, args[i]->shape, args[i]->rank, next, &next_rank))
      return ref_fail(op, "operand %zu (%s) does not broadcast with the operands before it", i,
                      ref_type_str(args[i]));
    memcpy(shape, next, sizeof next);
    rank = next_rank;
  }
  return ref_require_shape(op, result, (int)rank, shape, "the result");
}

static bool check_same_dtype(MlirOperation op, const BrazeHostTensor *const *args, size_t first, size_t n,
                             const BrazeHostTensor *result) {
  for (size_t i = first; i < n; ++i)
    if (args[i]->dtype != result->dtype)
      return ref_fail(op, "operand %zu (%s) and the result (%s) must have the same element type", i,
                      ref_type_str(args[i]), ref_type_str(result));
  return true;
}

static double sigmoid(double x) { return 1.0 / (1.0 + exp(-x)); }

static bool unary_is_float_only(const char *m) {
  static const char *const float_only[] = {"exp",  "log", "sqrt", "rsqrt", "tanh", "sigmoid",
                                           "erf", "silu", "gelu", "sin",   "cos"};
  for (size_t i = 0; i < sizeof float_only / sizeof *float_only; ++i)
    if (is(m, float_only[i]))
      return true;
  return false;
}

/* Evaluates one element; the mnemonic is resolved once per op into `kind`. */
typedef enum { U_NEG, U_ABS, U_EXP, U_LOG, U_SQRT, U_RSQRT, U_TANH, U_SIGMOID, U_RELU, U_ERF, U_SILU, U_SIN, U_COS } UnaryKind;

static bool unary_kind(const char *m, UnaryKind *kind) {
  static const char *const names[] = {"neg",  "abs", "exp",  "log", "sqrt", "rsqrt", "tanh",
                                      "sigmoid", "relu", "erf", "silu", "sin", "cos"};
  for (size_t i = 0; i < sizeof names / sizeof *names; ++i) {
    if (is(m, names[i])) {
      *kind = (UnaryKind)i;
      return true;
    }
  }
  return false;
}

static double unary_apply(UnaryKind kind, double x) {
  switch (kind) {
  case U_NEG: return -x;
  case U_ABS: return fabs(x);
  case U_EXP: return exp(x);
  case U_LOG: return log(x);
  case U_SQRT: return sqrt(x);
  case U_RSQRT: return 1.0 / sqrt(x);
  case U_TANH: return tanh(x);
  case U_SIGMOID: return sigmoid(x);
  case U_RELU: return isnan(x) ? x : (x > 0.0 ? x : 0.0);
  case U_ERF: return erf(x);
  case U_SILU: return x * sigmoid(x);
  case U_SIN: return sin(x);
  case U_COS: return cos(x);
  }
  return x;
}

/* Shape and dtype rules shared by unary ops: result shape = x shape, same dtype. */
static bool check_unary(MlirOperation op, const BrazeHostTensor *x, const BrazeHostTensor *result, bool float_only) {
  if (!ref_require_shape(op, result, x->rank, x->shape, "the result"))
    return false;
  if (!check_same_dtype(op, &x, 0, 1, result))
    return false;
  return !float_only || ref_require_float(op, x, "the operand");
}

bool ref_unary(MlirOperation op, const BrazeHostTensor *const *args, size_t n_args, BrazeHostTensor *result) {
  (void)n_args;
  const char *m = braze_graph_op_mnemonic(op);
  UnaryKind kind;
  if (!unary_kind(m, &kind))
    return ref_fail(op, "not a unary op");
  const BrazeHostTensor *x = args[0];
  if (!check_unary(op, x, result, unary_is_float_only(m)))
    return false;
  int64_t n = braze_tensor_numel(x);
  for (int64_t i = 0; i < n; ++i)
    result->data[i] = unary_apply(kind, x->data[i]);
  return true;
}

bool ref_gelu(MlirOperation op, const BrazeHostTensor *const *args, size_t n_args, BrazeHostTensor *result) {
  (void)n_args;
  const BrazeHostTensor *x = args[0];
  if (!check_unary(op, x, result, true))
    return false;
  const char *approx = "none";
  size_t approx_len = 4;
  braze_attr_str(op, "approximate", &approx, &approx_len);
  bool use_tanh = approx_len == 4 && strncmp(approx, "tanh", 4) == 0;
  if (!use_tanh && !(approx_len == 4 && strncmp(approx, "none", 4) == 0))
    return ref_fail(op, "attribute 'approximate' must be \"none\" or \"tanh\", got \"%.*s\"", (int)approx_len, approx);
  const double pi = 3.14159265358979323846;
  const double sqrt_2_over_pi = sqrt(2.0 / pi);
  int64_t n = braze_tensor_numel(x);
  for (int64_t i = 0; i < n; ++i) {
    double v = x->data[i];
    double inner = use_tanh ? tanh(sqrt_2_over_pi * (v + 0.044715 * v * v * v)) : erf(v / sqrt(2.0));
    result->data[i] = 0.5 * v * (1.0 + inner);
  }
  return true;
}

bool ref_cast(MlirOperation op, const BrazeHostTensor *const *args, size_t n_args, BrazeHostTensor *result) {
  (void)n_args;
  const BrazeHostTensor *x = args[0];
  if (!ref_require_shape(op, result, x->rank, x->shape, "the result"))
    return false;
  bool from_float = braze_dtype_is_float(x->dtype), to_float = braze_dtype_is_float(result->dtype);
  /* The integers the target holds: [-2^(b-1), 2^(b-1)) signed, [0, 2^b) unsigned. */
  int bits = braze_dtype_int_bits(result->dtype);
  bool is_unsigned = braze_dtype_is_unsigned(result->dtype);
  double lo = is_unsigned ? 0.0 : -ldexp(1.0, bits - 1), hi_exclusive = ldexp(1.0, is_unsigned ? bits : bits - 1);
  int64_t n = braze_tensor_numel(x);
  for (int64_t i = 0; i < n; ++i) {
    double v = x->data[i];
    if (result->dtype == BRAZE_DTYPE_I1) {
      result->data[i] = v != 0.0; /* NaN != 0 */
    } else if (from_float && !to_float) {
      double t = trunc(v);
      if (isnan(v) || t < lo || t >= hi_exclusive)
        return ref_fail(op, "element %lld (%g) cannot be converted to %s (NaN or out of range)", (long long)i, v,
                        braze_dtype_str(result->dtype));
      result->data[i] = t;
    } else {
      result->data[i] = v; /* float->float and int->float round on store; int->int wraps */
    }
  }
  return true;
}

typedef enum { B_ADD, B_SUB, B_MUL, B_DIV, B_MAX, B_MIN, B_POW, B_REM } BinaryKind;

static bool binary_kind(const char *m, BinaryKind *kind) {
  static const char *const names[] = {"add", "sub", "mul", "div", "max", "min", "pow", "rem"};
  for (size_t i = 0; i < sizeof names / sizeof *names; ++i) {
    if (is(m, names[i])) {
      *kind = (BinaryKind)i;
      return true;
    }
  }
  return false;
}

/* False on integer division by zero. */
static bool binary_apply(BinaryKind kind, bool integer, double a, double b, double *out) {
  switch (kind) {
  case B_ADD: *out = a + b; return true;
  case B_SUB: *out = a - b; return true;
  case B_MUL: *out = a * b; return true;
  case B_DIV:
    if (integer && b == 0.0)
      return false;
    *out = integer ? trunc(a / b) : a / b;
    return true;
  case B_MAX: *out = ref_max(a, b); return true;
  case B_MIN: *out = ref_min(a, b); return true;
  case B_POW: *out = pow(a, b); return true;
  case B_REM: /* the sign of a: C's fmod, exact (integers below 2^53 too) */
    if (integer && b == 0.0)
      return false;
    *out = fmod(a, b);
    return true;
  }
  return false;
}

/* Broadcast strides of every operand into the result's shape. */
static void operand_strides(const BrazeHostTensor *const *args, size_t n, const BrazeHostTensor *result,
                            int64_t strides[][BRAZE_TENSOR_MAX_RANK]) {
  for (size_t i = 0; i < n; ++i)
    ref_broadcast_strides(args[i], result->rank, result->shape, strides[i]);
}

bool ref_binary(MlirOperation op, const BrazeHostTensor *const *args, size_t n_args, BrazeHostTensor *result) {
  BinaryKind kind;
  if (!binary_kind(braze_graph_op_mnemonic(op), &kind))
    return ref_fail(op, "not a binary op");
  if (!check_broadcast(op, args, n_args, result) || !check_same_dtype(op, args, 0, n_args, result))
    return false;
  if (kind == B_POW && !ref_require_float(op, result, "the result"))
    return false;
  bool integer = !braze_dtype_is_float(result->dtype);
  int64_t strides[2][BRAZE_TENSOR_MAX_RANK];
  operand_strides(args, 2, result, strides);
  int64_t idx[BRAZE_TENSOR_MAX_RANK] = {0};
  int64_t i = 0, n = braze_tensor_numel(result);
  for (; i < n; ++i, ref_index_next(idx, result->rank, result->shape)) {
    double a = args[0]->data[ref_offset(idx, strides[0], result->rank)];
    double b = args[1]->data[ref_offset(idx, strides[1], result->rank)];
    if (!binary_apply(kind, integer, a, b, &result->data[i]))
      return ref_fail(op, "integer division by zero at result element %lld", (long long)i);
  }
  return true;
}

/* An integer element as its two's-complement bits (values are exact in the double up
 * to 2^53, the reference's integer range). */
static uint64_t to_bits(double v) { return v < 0 ? (uint64_t)(int64_t)v : (uint64_t)v; }

/* Bits back to a value of `dtype`: truncated to its width, sign-extended if signed. */
static double from_bits(uint64_t r, BrazeDType dtype) {
  if (dtype == BRAZE_DTYPE_I1)
    return (double)(r & 1);
  int bits = braze_dtype_int_bits(dtype);
  uint64_t mask = bits >= 64 ? ~0ull : (1ull << bits) - 1;
  r &= mask;
  if (braze_dtype_is_unsigned(dtype))
    return (double)r;
  if (bits < 64 && (r >> (bits - 1)) & 1)
    r |= ~mask;
  return (double)(int64_t)r;
}

bool ref_bitwise(MlirOperation op, const BrazeHostTensor *const *args, size_t n_args, BrazeHostTensor *result) {
  const char *m = braze_graph_op_mnemonic(op);
  if (!check_broadcast(op, args, n_args, result) || !check_same_dtype(op, args, 0, n_args, result))
    return false;
  if (braze_dtype_is_float(result->dtype))
    return ref_fail(op, "expects integer tensors, got %s", ref_type_str(result));
  char kind = is(m, "bitwise_and") ? '&' : is(m, "bitwise_or") ? '|' : is(m, "bitwise_xor") ? '^' : '~';
  int64_t strides[2][BRAZE_TENSOR_MAX_RANK];
  operand_strides(args, n_args, result, strides);
  int64_t idx[BRAZE_TENSOR_MAX_RANK] = {0};
  int64_t n = braze_tensor_numel(result);
  for (int64_t i = 0; i < n; ++i, ref_index_next(idx, result->rank, result->shape)) {
    uint64_t a = to_bits(args[0]->data[ref_offset(idx, strides[0], result->rank)]);
    uint64_t b = n_args > 1 ? to_bits(args[1]->data[ref_offset(idx, strides[1], result->rank)]) : 0;
    uint64_t r = kind == '&' ? a & b : kind == '|' ? a | b : kind == '^' ? a ^ b : ~a;
    result->data[i] = from_bits(r, result->dtype);
  }
  return true;
}

static bool cmp_apply(const char *pred, size_t len, double a, double b, double *out) {
  /* C comparisons are IEEE ordered compares: false with a NaN, except != (true). */
  if (len != 2)
    return false;
  if (strncmp(pred, "eq", 2) == 0) *out = a == b;
  else if (strncmp(pred, "ne", 2) == 0) *out = a != b;
  else if (strncmp(pred, "lt", 2) == 0) *out = a < b;
  else if (strncmp(pred, "le", 2) == 0) *out = a <= b;
  else if (strncmp(pred, "gt", 2) == 0) *out = a > b;
  else if (strncmp(pred, "ge", 2) == 0) *out = a >= b;
  else return false;
  return true;
}

bool ref_cmp(MlirOperation op, const BrazeHostTensor *const *args, size_t n_args, BrazeHostTensor *result) {
  const char *pred;
  size_t pred_len;
  double probe;
  if (!braze_attr_str(op, "predicate", &pred, &pred_len) || !cmp_apply(pred, pred_len, 0, 0, &probe))
    return ref_fail(op, "expected attribute 'predicate' = \"eq\"|\"ne\"|\"lt\"|\"le\"|\"gt\"|\"ge\"");
  if (!check_broadcast(op, args, n_args, result) || !ref_require_dtype(op, result, BRAZE_DTYPE_I1, "the result"))
    return false;
  if (args[0]->dtype != args[1]->dtype)
    return ref_fail(op, "operands %s and %s must have the same element type", ref_type_str(args[0]),
                    ref_type_str(args[1]));
  int64_t strides[2][BRAZE_TENSOR_MAX_RANK];
  operand_strides(args, 2, result, strides);
  int64_t idx[BRAZE_TENSOR_MAX_RANK] = {0};
  int64_t n = braze_tensor_numel(result);
  for (int64_t i = 0; i < n; ++i, ref_index_next(idx, result->rank, result->shape)) {
    double a = args[0]->data[ref_offset(idx, strides[0], result->rank)];
    double b = args[1]->data[ref_offset(idx, strides[1], result->rank)];
    cmp_apply(pred, pred_len, a, b, &result->data[i]);
  }
  return true;
}

bool ref_select(MlirOperation op, const BrazeHostTensor *const *args, size_t n_args, BrazeHostTensor *result) {
  if (!check_broadcast(op, args, n_args, result) || !ref_require_dtype(op, args[0], BRAZE_DTYPE_I1, "the condition") ||
      !check_same_dtype(op, args, 1, n_args, result))
    return false;
  int64_t strides[3][BRAZE_TENSOR_MAX_RANK];
  operand_strides(args, 3, result, strides);
  int64_t idx[BRAZE_TENSOR_MAX_RANK] = {0};
  int64_t n = braze_tensor_numel(result);
  for (int64_t i = 0; i < n; ++i, ref_index_next(idx, result->rank, result->shape)) {
    bool cond = args[0]->data[ref_offset(idx, strides[0], result->rank)] != 0.0;
    const BrazeHostTensor *src = cond ? args[1] : args[2];
    result->data[i] = src->data[ref_offset(idx, strides[cond ? 1 : 2], result->rank)];
  }
  return true;
}
