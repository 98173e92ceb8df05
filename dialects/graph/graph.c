#include "dialects/graph/graph.h"

#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "support/context.h"
#include "support/tensor.h"

typedef struct {
  const char *mnemonic;
  GraphOpClass cls;
} OpClassEntry;

static const OpClassEntry op_classes[] = {
    {"neg", GRAPH_UNARY}, {"abs", GRAPH_UNARY}, {"exp", GRAPH_UNARY}, {"log", GRAPH_UNARY},
    {"sqrt", GRAPH_UNARY}, {"rsqrt", GRAPH_UNARY}, {"tanh", GRAPH_UNARY}, {"sigmoid", GRAPH_UNARY},
    {"relu", GRAPH_UNARY}, {"erf", GRAPH_UNARY}, {"cast", GRAPH_UNARY}, {"sin", GRAPH_UNARY}, {"cos", GRAPH_UNARY},
    {"add", GRAPH_BINARY}, {"sub", GRAPH_BINARY}, {"mul", GRAPH_BINARY}, {"div", GRAPH_BINARY},
    {"max", GRAPH_BINARY}, {"min", GRAPH_BINARY}, {"pow", GRAPH_BINARY},
    {"rem", GRAPH_BINARY}, {"bitwise_and", GRAPH_BINARY}, {"bitwise_or", GRAPH_BINARY}, {"bitwise_xor", GRAPH_BINARY},
    {"bitwise_not", GRAPH_UNARY},
    {"cmp", GRAPH_CMP}, {"select", GRAPH_SELECT},
    {"reduce_sum", GRAPH_REDUCE}, {"reduce_mean", GRAPH_REDUCE}, {"reduce_max", GRAPH_REDUCE},
    {"reduce_min", GRAPH_REDUCE}, {"reduce_var", GRAPH_REDUCE},
    {"softmax", GRAPH_COMPOSITE}, {"log_softmax", GRAPH_COMPOSITE}, {"layer_norm", GRAPH_COMPOSITE},
    {"rms_norm", GRAPH_COMPOSITE}, {"batch_norm", GRAPH_COMPOSITE}, {"gelu", GRAPH_COMPOSITE},
    {"silu", GRAPH_COMPOSITE}, {"linear", GRAPH_COMPOSITE},
    {"matmul", GRAPH_CONTRACTION}, {"batch_matmul", GRAPH_CONTRACTION},
    {"transpose", GRAPH_SHAPE}, {"broadcast_to", GRAPH_SHAPE}, {"reshape", GRAPH_SHAPE},
    {"slice", GRAPH_SHAPE}, {"concat", GRAPH_SHAPE}, {"window", GRAPH_SHAPE},
    {"constant", GRAPH_CONSTANT},
    {"gather", GRAPH_GATHER}, {"gather_elements", GRAPH_GATHER},
    /* convolutions: graph-decompose expands them (passes/graph/decompose-conv.c) */
    {"conv", GRAPH_COMPOSITE}, {"conv_transpose", GRAPH_COMPOSITE},
    /* collectives (decision 0015) */
    {"all_reduce", GRAPH_COLLECTIVE}, {"all_gather", GRAPH_COLLECTIVE}, {"reduce_scatter", GRAPH_COLLECTIVE},
    {"all_to_all", GRAPH_COLLECTIVE}, {"all_slice", GRAPH_COLLECTIVE},
};

static const OpClassEntry *lookup(MlirOperation op) {
  MlirStringRef name = braze_op_name(op);
  if (name.length < 7 || memcmp(name.data, "graph.", 6) != 0)
    return NULL;
  for (size_t i = 0; i < sizeof op_classes / sizeof *op_classes; ++i) {
    size_t n = strlen(op_classes[i].mnemonic);
    if (name.length == 6 + n && memcmp(name.data + 6, op_classes[i].mnemonic, n) == 0)
      return &op_classes[i];
  }
  return NULL;
}

GraphOpClass braze_graph_op_class(MlirOperation op) {
  const OpClassEntry *e = lookup(op);
  return e ? e->cls : GRAPH_NOT_GRAPH;
}

const char *braze_graph_op_mnemonic(MlirOperation op) {
  const OpClassEntry *e = lookup(op);
  return e ? e->mnemonic : NULL;
}

bool braze_is_graph_op(MlirOperation op) { return lookup(op) != NULL; }

bool braze_single_use(MlirValue v) {
  MlirOpOperand first = mlirValueGetFirstUse(v);
  return !mlirOpOperandIsNull(first) && mlirOpOperandIsNull(mlirOpOperandGetNextUse(first));
}

bool braze_graph_concat_of_collectives(MlirOperation op) {
  const char *m = braze_graph_op_mnemonic(op);
  int64_t dim = 0, shape[BRAZE_MAX_RANK];
  if (!m || strcmp(m, "concat") != 0 || !braze_attr_i64(op, "dim", &dim) ||
      braze_shape(mlirValueGetType(mlirOperationGetResult(op, 0)), shape) > BRAZE_MAX_RANK)
    return false;
  for (int64_t d = 0; d < dim; ++d)
    if (shape[d] != 1)
      return false;
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); ++i) {
    MlirValue v = mlirOperationGetOperand(op, i);
    if (!mlirValueIsAOpResult(v) || !braze_single_use(v))
      return false;
    MlirOperation def = mlirOpResultGetOwner(v);
    if (braze_graph_op_class(def) != GRAPH_COLLECTIVE && !braze_graph_concat_of_collectives(def))
      return false;
  }
  return true;
}

static MlirAttribute get_attr(MlirOperation op, const char *name) {
  return mlirOperationGetAttributeByName(op, braze_ref(name));
}

bool braze_attr_i64(MlirOperation op, const char *name, int64_t *out) {
  MlirAttribute a = get_attr(op, name);
  if (mlirAttributeIsNull(a) || !mlirAttributeIsAInteger(a))
    return false;
  *out = mlirIntegerAttrGetValueInt(a);
  return true;
}

bool braze_attr_f64(MlirOperation op, const char *name, double *out) {
  MlirAttribute a = get_attr(op, name);
  if (mlirAttributeIsNull(a) || !mlirAttributeIsAFloat(a))
    return false;
  *out = mlirFloatAttrGetValueDouble(a);
  return true;
}

bool braze_attr_str(MlirOperation op, const char *name, const char **data, size_t *len) {
  MlirAttribute a = get_attr(op, name);
  if (mlirAttributeIsNull(a) || !mlirAttributeIsAString(a))
    return false;
  MlirStringRef s = mlirStringAttrGetValue(a);
  *data = s.data;
  *len = s.length;
  return true;
}

intptr_t braze_attr_i64_array(MlirOperation op, const char *name, int64_t *out, size_t max) {
  MlirAttribute a = get_attr(op, name);
  if (mlirAttributeIsNull(a) || !mlirAttributeIsADenseI64Array(a))
    return -1;
  intptr_t n = mlirDenseArrayGetNumElements(a);
  for (intptr_t i = 0; i < n && (size_t)i < max; ++i)
    out[i] = mlirDenseI64ArrayGetElement(a, i);
  return n;
}

bool braze_is_ranked_tensor(MlirType t) { return mlirTypeIsARankedTensor(t); }

intptr_t braze_rank(MlirType t) { return mlirShapedTypeGetRank(t); }

intptr_t braze_shape(MlirType t, int64_t *dims) {
  intptr_t rank = mlirShapedTypeGetRank(t);
  for (intptr_t i = 0; i < rank && i < BRAZE_MAX_RANK; ++i)
    dims[i] = mlirShapedTypeGetDimSize(t, i);
  return rank;
}

int64_t braze_num_elements(MlirType t) {
  int64_t n = 1;
  for (intptr_t i = 0, r = mlirShapedTypeGetRank(t); i < r; ++i)
    n *= mlirShapedTypeGetDimSize(t, i);
  return n;
}

bool braze_tensor_size(MlirType t, int64_t *elements, int64_t *bytes) {
  BrazeDType dtype;
  if (!mlirTypeIsARankedTensor(t) || !mlirShapedTypeHasStaticShape(t) ||
      !braze_dtype_from_mlir(mlirShapedTypeGetElementType(t), &dtype))
    return false;
  int64_t n = 1;
  for (intptr_t i = 0, r = mlirShapedTypeGetRank(t); i < r; ++i)
    if (__builtin_mul_overflow(n, mlirShapedTypeGetDimSize(t, i), &n))
      return false;
  *elements = n;
  return !__builtin_mul_overflow(n, (int64_t)braze_dtype_size(dtype), bytes);
}

MlirType braze_element_type(MlirType t) { return mlirShapedTypeGetElementType(t); }

const char *braze_dtype_name(MlirType e) {
  BrazeDType dtype;
  return braze_dtype_from_mlir(e, &dtype) ? braze_dtype_str(dtype) : NULL;
}

bool braze_broadcast_shapes(const int64_t *a, intptr_t rank_a, const int64_t *b, intptr_t rank_b,
                            int64_t *out, intptr_t *rank_out) {
  intptr_t rank = rank_a > rank_b ? rank_a : rank_b;
  for (intptr_t i = 0; i < rank; ++i) {
    intptr_t ia = rank_a - rank + i, ib = rank_b - rank + i;
    int64_t da = ia >= 0 ? a[ia] : 1, db = ib >= 0 ? b[ib] : 1;
    if (da != db && da != 1 && db != 1)
      return false;
    out[i] = da == 1 ? db : da;
  }
  *rank_out = rank;
  return true;
}
