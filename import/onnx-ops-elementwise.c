/* Converters for pointwise ONNX ops: unary math, binary arithmetic with numpy
 * broadcasting, comparisons, Where, variadic Max/Min, Cast, Reciprocal, Gelu,
 * Identity, the Bitwise ops. */
#include <string.h>

#include "import/onnx-internal.h"

typedef struct {
  const char *onnx;
  const char *graph;
  bool float_only; /* the graph op rejects integer tensors */
} OpMapping;

static const OpMapping unary_ops[] = {
    {"Neg", "neg", false},    {"Abs", "abs", false},   {"Relu", "relu", false},
    {"Exp", "exp", true},     {"Log", "log", true},    {"Sqrt", "sqrt", true},
    {"Erf", "erf", true},     {"Tanh", "tanh", true},  {"Sigmoid", "sigmoid", true},
};

static const OpMapping binary_ops[] = {
    {"Add", "add", false}, {"Sub", "sub", false}, {"Mul", "mul", false},
    {"Div", "div", false}, {"Pow", "pow", true},
};

/* Comparisons: the graph op is cmp, the mapping's second field the predicate. */
static const OpMapping compare_ops[] = {
    {"Equal", "eq", false}, {"Less", "lt", false}, {"Greater", "gt", false},
    {"LessOrEqual", "le", false}, {"GreaterOrEqual", "ge", false},
};

static const OpMapping *find_mapping(const OpMapping *table, size_t n, const char *op_type) {
  for (size_t i = 0; i < n; ++i)
    if (strcmp(table[i].onnx, op_type) == 0)
      return &table[i];
  return NULL;
}
#define FIND(table, op) find_mapping(table, sizeof table / sizeof *table, op)

static bool convert_unary(OnnxImporter *im) {
  const OpMapping *m = FIND(unary_ops, im->node->op_type);
  OnnxType t;
  MlirValue x = onnx_operand(im, 0, &t);
  if (mlirValueIsNull(x) || (m->float_only && !onnx_require_float(im, &t, "the input")))
    return false;
  return onnx_set_output(im, 0, onnx_build_unary(im, m->graph, x, &t), &t);
}

/* Two operands of the same element type, broadcast together. */
static bool binary_operands(OnnxImporter *im, MlirValue *a, MlirValue *b, OnnxType *ta, OnnxType *tb,
                            OnnxType *result) {
  *a = onnx_operand(im, 0, ta);
  if (mlirValueIsNull(*a))
    return false;
  *b = onnx_operand(im, 1, tb);
  if (mlirValueIsNull(*b))
    return false;
  if (ta->dtype != tb->dtype)
    return onnx_node_error(im, "operands have different element types (%s and %s)",
                           onnx_dtype_name(ta->dtype), onnx_dtype_name(tb->dtype));
  return onnx_broadcast(im, ta, tb, result);
}

/* Pow's exponent may have another type than the base (ONNX allows it); the graph
 * op wants one type, so the exponent is cast to the base's type. */
static bool convert_pow(OnnxImporter *im) {
  OnnxType ta, tb, r;
  MlirValue a = onnx_operand(im, 0, &ta);
  if (mlirValueIsNull(a) || !onnx_require_float(im, &ta, "the base"))
    return false;
  MlirValue b = onnx_operand(im, 1, &tb);
  if (mlirValueIsNull(b))
    return false;
  if (tb.dtype != ta.dtype) {
    if (tb.dtype == ONNX__TENSOR_PROTO__DATA_TYPE__BOOL)
      return onnx_node_error(im, "a boolean exponent is not supported");
    tb.dtype = ta.dtype;
    b = onnx_build_unary(im, "cast", b, &tb);
  }
  if (!onnx_broadcast(im, &ta, &tb, &r))
    return false;
  return onnx_set_output(im, 0, onnx_build_binary(im, "pow", a, b, &r), &r);
}

static bool convert_binary(OnnxImporter *im) {
  const OpMapping *m = FIND(binary_ops, im->node->op_type);
  if (strcmp(m->onnx, "Pow") == 0)
    return convert_pow(im);
  MlirValue a, b;
  OnnxType ta, tb, r;
  if (!binary_operands(im, &a, &b, &ta, &tb, &r))
    return false;
  if (ta.dtype == ONNX__TENSOR_PROTO__DATA_TYPE__BOOL)
    return onnx_node_error(im, "boolean operands are not supported");
  return onnx_set_output(im, 0, onnx_build_binary(im, m->graph, a, b, &r), &r);
}

static bool convert_compare(OnnxImporter *im) {
  const OpMapping *m = FIND(compare_ops, im->node->op_type);
  MlirValue ab[2];
  OnnxType ta, tb, r;
  if (!binary_operands(im, &ab[0], &ab[1], &ta, &tb, &r))
    return false;
  r.dtype = ONNX__TENSOR_PROTO__DATA_TYPE__BOOL;
  OnnxNamedAttr attr = {"predicate", onnx_str_attr(im, m->graph)};
  return onnx_set_output(im, 0, onnx_build(im, "cmp", &r, ab, 2, &attr, 1), &r);
}

static bool convert_where(OnnxImporter *im) {
  MlirValue v[3];
  OnnxType t[3], r, r2;
  for (size_t i = 0; i < 3; ++i)
    if (mlirValueIsNull(v[i] = onnx_operand(im, i, &t[i])))
      return false;
  if (t[0].dtype != ONNX__TENSOR_PROTO__DATA_TYPE__BOOL)
    return onnx_node_error(im, "the condition must be a boolean tensor, not %s", onnx_dtype_name(t[0].dtype));
  if (t[1].dtype != t[2].dtype)
    return onnx_node_error(im, "X and Y have different element types (%s and %s)",
                           onnx_dtype_name(t[1].dtype), onnx_dtype_name(t[2].dtype));
  if (!onnx_broadcast(im, &t[1], &t[2], &r) || !onnx_broadcast(im, &r, &t[0], &r2))
    return false;
  r2.dtype = t[1].dtype;
  return onnx_set_output(im, 0, onnx_build(im, "select", &r2, v, 3, NULL, 0), &r2);
}

/* Max/Min of N inputs: a left-to-right chain of binary max/min. */
static bool convert_variadic(OnnxImporter *im) {
  const char *op = strcmp(im->node->op_type, "Max") == 0 ? "max" : "min";
  size_t n = onnx_num_inputs(im->node);
  if (n == 0)
    return onnx_node_error(im, "needs at least one input");
  if (n == 1) {
    OnnxValue *only = onnx_input(im, 0);
    return only && onnx_alias_output(im, 0, only);
  }
  OnnxType acc_t, t;
  MlirValue acc = onnx_operand(im, 0, &acc_t);
  if (mlirValueIsNull(acc))
    return false;
  if (acc_t.dtype == ONNX__TENSOR_PROTO__DATA_TYPE__BOOL)
    return onnx_node_error(im, "boolean operands are not supported");
  for (size_t i = 1; i < n; ++i) {
    MlirValue x = onnx_operand(im, i, &t);
    if (mlirValueIsNull(x))
      return false;
    if (t.dtype != acc_t.dtype)
      return onnx_node_error(im, "inputs have different element types (%s and %s)",
                             onnx_dtype_name(acc_t.dtype), onnx_dtype_name(t.dtype));
    OnnxType r;
    if (!onnx_broadcast(im, &acc_t, &t, &r))
      return false;
    acc = onnx_build_binary(im, op, acc, x, &r);
    acc_t = r;
  }
  return onnx_set_output(im, 0, acc, &acc_t);
}

static bool convert_cast(OnnxImporter *im) {
  OnnxValue *in = onnx_input(im, 0);
  if (!in)
    return false;
  const Onnx__AttributeProto *to = onnx_attr(im->node, "to");
  if (!to || !to->has_i)
    return onnx_node_error(im, "attribute 'to' is missing");
  int32_t dtype = (int32_t)to->i;
  if (mlirTypeIsNull(onnx_element_type(im->ctx, dtype)))
    return onnx_node_error(im, "cast to %s is not supported", onnx_dtype_name(dtype));
  if (dtype == in->type.dtype)
    return onnx_alias_output(im, 0, in);
  OnnxType t = in->type;
  MlirValue x = onnx_materialize(im, in);
  t.dtype = dtype;
  return onnx_set_output(im, 0, onnx_build_unary(im, "cast", x, &t), &t);
}

/* Reciprocal(x) = 1 / x with a rank-0 constant 1. */
static bool convert_reciprocal(OnnxImporter *im) {
  OnnxType t;
  MlirValue x = onnx_operand(im, 0, &t);
  if (mlirValueIsNull(x) || !onnx_require_float(im, &t, "the input"))
    return false;
  MlirValue one = onnx_build_scalar(im, t.dtype, 1.0);
  return onnx_set_output(im, 0, onnx_build_binary(im, "div", one, x, &t), &t);
}

static bool convert_gelu(OnnxImporter *im) {
  OnnxType t;
  MlirValue x = onnx_operand(im, 0, &t);
  if (mlirValueIsNull(x) || !onnx_require_float(im, &t, "the input"))
    return false;
  char buf[32];
  const char *approx = onnx_attr_string(im->node, "approximate", "none", buf, sizeof buf);
  if (strcmp(approx, "none") != 0 && strcmp(approx, "tanh") != 0)
    return onnx_node_error(im, "approximate = '%s' is not 'none' or 'tanh'", approx);
  OnnxNamedAttr attr = {"approximate", onnx_str_attr(im, approx)};
  return onnx_set_output(im, 0, onnx_build(im, "gelu", &t, &x, 1, &attr, 1), &t);
}

/* BitwiseAnd/Or/Xor/Not (opset 18): graph.bitwise_*, on the integer types ONNX allows
 * (int8..int64, uint8..uint64; not bool: And/Or/Xor/Not are the logical ops). */
static bool require_integer(OnnxImporter *im, const OnnxType *t) {
  switch (t->dtype) {
  case ONNX__TENSOR_PROTO__DATA_TYPE__INT8: case ONNX__TENSOR_PROTO__DATA_TYPE__INT16:
  case ONNX__TENSOR_PROTO__DATA_TYPE__INT32: case ONNX__TENSOR_PROTO__DATA_TYPE__INT64:
  case ONNX__TENSOR_PROTO__DATA_TYPE__UINT8: case ONNX__TENSOR_PROTO__DATA_TYPE__UINT16:
  case ONNX__TENSOR_PROTO__DATA_TYPE__UINT32: case ONNX__TENSOR_PROTO__DATA_TYPE__UINT64:
    return true;
  default:
    return onnx_node_error(im, "%s needs integer operands, got %s", im->node->op_type, onnx_dtype_name(t->dtype));
  }
}

static bool convert_bitwise(OnnxImporter *im) {
  const char *op = im->node->op_type;
  if (strcmp(op, "BitwiseNot") == 0) {
    OnnxType t;
    MlirValue x = onnx_operand(im, 0, &t);
    if (mlirValueIsNull(x) || !require_integer(im, &t))
      return false;
    return onnx_set_output(im, 0, onnx_build_unary(im, "bitwise_not", x, &t), &t);
  }
  MlirValue a, b;
  OnnxType ta, tb, r;
  if (!binary_operands(im, &a, &b, &ta, &tb, &r) || !require_integer(im, &ta))
    return false;
  const char *graph = strcmp(op, "BitwiseAnd") == 0 ? "bitwise_and" : strcmp(op, "BitwiseOr") == 0 ? "bitwise_or"
                                                                                                      : "bitwise_xor";
  return onnx_set_output(im, 0, onnx_build_binary(im, graph, a, b, &r), &r);
}

static bool convert_identity(OnnxImporter *im) {
  OnnxValue *in = onnx_input(im, 0);
  return in && onnx_alias_output(im, 0, in);
}

const OnnxOpEntry onnx_elementwise_ops[] = {
    {"Neg", convert_unary, 0},      {"Abs", convert_unary, 0},       {"Relu", convert_unary, 0},
    {"Exp", convert_unary, 0},      {"Log", convert_unary, 0},       {"Sqrt", convert_unary, 0},
    {"Erf", convert_unary, 9},      {"Tanh", convert_unary, 0},      {"Sigmoid", convert_unary, 0},
    {"Add", convert_binary, 7},     {"Sub", convert_binary, 7},      {"Mul", convert_binary, 7},
    {"Div", convert_binary, 7},     {"Pow", convert_binary, 7},      {"Equal", convert_compare, 7},
    {"Less", convert_compare, 7},   {"Greater", convert_compare, 7}, {"LessOrEqual", convert_compare, 12},
    {"GreaterOrEqual", convert_compare, 12},
    {"Where", convert_where, 9},    {"Max", convert_variadic, 0},    {"Min", convert_variadic, 0},
    {"Cast", convert_cast, 6},      {"Reciprocal", convert_reciprocal, 0},
    {"Gelu", convert_gelu, 20},      {"Identity", convert_identity, 0},
    {"BitwiseAnd", convert_bitwise, 18}, {"BitwiseOr", convert_bitwise, 18},
    {"BitwiseXor", convert_bitwise, 18}, {"BitwiseNot", convert_bitwise, 18},
    {NULL, NULL, 0},
};
