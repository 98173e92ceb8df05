/* The graph verifier: the shape and dtype rules of docs/dialect-graph.md that IRDL
 * cannot express. The walk and the checks every op shares live here; the per-op
 * rules are in dialects/graph/verify-pointwise.c, dialects/graph/verify-reduce.c, dialects/graph/verify-structure.c,
 * dialects/graph/verify-shape.c, dialects/graph/verify-gather.c and
 * dialects/graph/verify-collective.c (collectives, meshes and shardings).
 *
 * Each op gets at most one error (its first violation), reported at its location, so
 * one bad op does not drown the rest of the file in follow-on messages. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dialects/graph/symbols.h"
#include "dialects/graph/verify-internal.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "support/context.h"
#include "support/diag.h"
#include "support/strbuf.h"

enum { VARIADIC = -1 };

typedef struct {
  const char *mnemonic;
  int num_operands;  /* VARIADIC: any number (no op uses it since concat became binary) */
  bool float_only;   /* every tensor operand and the result must be f32/f16/bf16 */
  GvRule rule;
} GvOpRules;

static const GvOpRules op_rules[] = {
    {"neg", 1, false, gv_verify_same_type_unary},
    {"abs", 1, false, gv_verify_same_type_unary},
    {"relu", 1, false, gv_verify_same_type_unary},
    {"exp", 1, true, gv_verify_same_type_unary},
    {"log", 1, true, gv_verify_same_type_unary},
    {"sqrt", 1, true, gv_verify_same_type_unary},
    {"rsqrt", 1, true, gv_verify_same_type_unary},
    {"tanh", 1, true, gv_verify_same_type_unary},
    {"sigmoid", 1, true, gv_verify_same_type_unary},
    {"erf", 1, true, gv_verify_same_type_unary},
    {"sin", 1, true, gv_verify_same_type_unary},
    {"cos", 1, true, gv_verify_same_type_unary},
    {"silu", 1, true, gv_verify_same_type_unary},
    {"gelu", 1, true, gv_verify_gelu},
    {"cast", 1, false, gv_verify_cast},
    {"add", 2, false, gv_verify_binary},
    {"sub", 2, false, gv_verify_binary},
    {"mul", 2, false, gv_verify_binary},
    {"div", 2, false, gv_verify_binary},
    {"max", 2, false, gv_verify_binary},
    {"min", 2, false, gv_verify_binary},
    {"pow", 2, true, gv_verify_binary},
    {"rem", 2, false, gv_verify_binary},
    {"bitwise_and", 2, false, gv_verify_bitwise},
    {"bitwise_or", 2, false, gv_verify_bitwise},
    {"bitwise_xor", 2, false, gv_verify_bitwise},
    {"bitwise_not", 1, false, gv_verify_bitwise},
    {"cmp", 2, false, gv_verify_cmp},
    {"select", 3, false, gv_verify_select},
    {"reduce_sum", 1, false, gv_verify_reduce},
    {"reduce_max", 1, false, gv_verify_reduce},
    {"reduce_min", 1, false, gv_verify_reduce},
    {"reduce_mean", 1, true, gv_verify_reduce},
    {"reduce_var", 1, true, gv_verify_reduce},
    {"softmax", 1, true, gv_verify_softmax},
    {"log_softmax", 1, true, gv_verify_softmax},
    {"layer_norm", 3, true, gv_verify_layer_norm},
    {"rms_norm", 2, true, gv_verify_rms_norm},
    {"batch_norm", 5, true, gv_verify_batch_norm},
    {"linear", 3, true, gv_verify_linear},
    {"matmul", 2, true, gv_verify_matmul},
    {"batch_matmul", 2, true, gv_verify_batch_matmul},
    {"transpose", 1, false, gv_verify_transpose},
    {"broadcast_to", 1, false, gv_verify_broadcast_to},
    {"reshape", 1, false, gv_verify_reshape},
    {"slice", 1, false, gv_verify_slice},
    {"concat", 2, false, gv_verify_concat},
    {"window", 1, false, gv_verify_window},
    {"constant", 0, false, gv_verify_constant},
    {"gather", 2, false, gv_verify_gather},
    {"gather_elements", 2, false, gv_verify_gather_elements},
    /* convolutions: dialects/graph/verify-conv.c */
    {"conv", 2, true, gv_verify_conv},
    {"conv_transpose", 2, true, gv_verify_conv},
    /* collectives: dialects/graph/verify-collective.c */
    {"all_reduce", 1, false, gv_verify_collective},
    {"all_gather", 1, false, gv_verify_collective},
    {"reduce_scatter", 1, false, gv_verify_collective},
    {"all_to_all", 1, false, gv_verify_collective},
    {"all_slice", 1, false, gv_verify_collective},
};

static const GvOpRules *find_rules(const char *mnemonic) {
  for (size_t i = 0; i < sizeof op_rules / sizeof *op_rules; ++i)
    if (strcmp(op_rules[i].mnemonic, mnemonic) == 0)
      return &op_rules[i];
  return NULL;
}

/* ---- message helpers ---- */

bool gv_fail(const GvOp *v, const char *fmt, ...) {
  BrazeStr msg = {0};
  braze_str_printf(&msg, "'graph.%s' op ", v->mnemonic);
  va_list ap;
  va_start(ap, fmt);
  braze_str_vprintf(&msg, fmt, ap);
  va_end(ap);
  braze_emit_error(mlirOperationGetLocation(v->op), "%s", braze_str_cstr(&msg));
  braze_str_free(&msg);
  return false;
}

GvText gv_dims(const int64_t *dims, intptr_t rank) {
  GvText t = {{0}};
  size_t n = 0;
  n += (size_t)snprintf(t.s + n, sizeof t.s - n, "[");
  for (intptr_t i = 0; i < rank && n < sizeof t.s; ++i)
    n += (size_t)snprintf(t.s + n, sizeof t.s - n, "%s%lld", i ? ", " : "", (long long)dims[i]);
  if (n < sizeof t.s)
    snprintf(t.s + n, sizeof t.s - n, "]");
  return t;
}

GvText gv_shape(const GvTensor *t) { return gv_dims(t->dims, t->rank); }

static void append_to_text(MlirStringRef piece, void *user_data) {
  GvText *t = user_data;
  size_t used = strlen(t->s), room = sizeof t->s - 1 - used;
  size_t n = piece.length < room ? piece.length : room;
  memcpy(t->s + used, piece.data, n);
  t->s[used + n] = '\0';
}

GvText gv_type(MlirType type) {
  GvText t = {{0}};
  mlirTypePrint(type, append_to_text, &t);
  return t;
}

/* ---- type predicates ---- */

bool gv_is_float(MlirType elt) {
  return mlirTypeIsAF32(elt) || mlirTypeIsAF64(elt) || mlirTypeIsAF16(elt) || mlirTypeIsABF16(elt);
}

bool gv_is_i1(MlirType elt) {
  return mlirTypeIsAInteger(elt) && mlirIntegerTypeIsSignless(elt) && mlirIntegerTypeGetWidth(elt) == 1;
}

static bool is_supported_element(MlirType elt) {
  if (gv_is_float(elt))
    return true;
  if (!mlirTypeIsAInteger(elt) || mlirIntegerTypeIsSigned(elt))
    return false;
  unsigned width = mlirIntegerTypeGetWidth(elt);
  bool is_unsigned = mlirIntegerTypeIsUnsigned(elt); /* ui8..ui64: decision 0010 */
  return (width == 1 && !is_unsigned) || width == 8 || width == 16 || width == 32 || width == 64;
}

bool gv_dims_equal(const int64_t *a, intptr_t rank_a, const int64_t *b, intptr_t rank_b) {
  if (rank_a != rank_b)
    return false;
  for (intptr_t i = 0; i < rank_a; ++i)
    if (a[i] != b[i])
      return false;
  return true;
}

bool gv_product(const int64_t *dims, intptr_t rank, const bool *only, int64_t *out) {
  int64_t n = 1;
  for (intptr_t i = 0; i < rank; ++i)
    if ((!only || only[i]) && __builtin_mul_overflow(n, dims[i], &n))
      return false;
  *out = n;
  return true;
}

bool gv_same_shape(const GvTensor *a, const GvTensor *b) {
  return gv_dims_equal(a->dims, a->rank, b->dims, b->rank);
}

/* ---- shared checks ---- */

bool gv_result_is(const GvOp *v, const GvTensor *t, const char *what) {
  if (mlirTypeEqual(v->res.type, t->type))
    return true;
  return gv_fail(v, "result type %s must equal the %s type %s", gv_type(v->res.type).s, what,
                 gv_type(t->type).s);
}

bool gv_result_shape_is(const GvOp *v, const int64_t *dims, intptr_t rank, const char *why) {
  if (gv_dims_equal(v->res.dims, v->res.rank, dims, rank))
    return true;
  return gv_fail(v, "result shape %s must be %s (%s)", gv_shape(&v->res).s, gv_dims(dims, rank).s, why);
}

bool gv_same_elt(const GvOp *v, const GvTensor *a, const char *a_name, const GvTensor *b,
                 const char *b_name) {
  if (mlirTypeEqual(a->elt, b->elt))
    return true;
  return gv_fail(v, "%s element type %s must equal the %s element type %s", b_name, gv_type(b->elt).s,
                 a_name, gv_type(a->elt).s);
}

bool gv_dim_attr(const GvOp *v, const char *name, intptr_t rank, int64_t *out) {
  MlirAttribute a = mlirOperationGetAttributeByName(v->op, mlirStringRefCreateFromCString(name));
  if (mlirAttributeIsNull(a) || !mlirAttributeIsAInteger(a) || mlirAttributeIsABool(a))
    return gv_fail(v, "expects an integer attribute '%s' (e.g. %s = 1 : i64)", name, name);
  *out = mlirIntegerAttrGetValueInt(a);
  if (*out < 0 || *out >= rank)
    return gv_fail(v, "%s %lld is out of range for rank %lld", name, (long long)*out, (long long)rank);
  return true;
}

/* ---- size limits ---- */

/* A static tensor of braze's element types within BRAZE_MAX_TENSOR_BYTES; otherwise
 * false with "TYPE has N elements (B bytes); braze supports ..." in *why. */
static bool size_within_limit(MlirType type, BrazeStr *why) {
  int64_t elements = 0, bytes = 0;
  bool counted = braze_tensor_size(type, &elements, &bytes);
  if (counted && bytes <= BRAZE_MAX_TENSOR_BYTES)
    return true;
  if (counted)
    braze_str_printf(why, "%s has %lld elements (%lld bytes); braze supports tensors of at most %s",
                     gv_type(type).s, (long long)elements, (long long)bytes, BRAZE_MAX_TENSOR_BYTES_TEXT);
  else
    braze_str_printf(why, "%s has more elements or bytes than a 64-bit integer can count; braze supports tensors "
                     "of at most %s", gv_type(type).s, BRAZE_MAX_TENSOR_BYTES_TEXT);
  return false;
}

/* A function's tensor arguments and results (graph functions, user kernels): within
 * the rank and size limits when ranked and static. Others (memrefs, dynamic shapes,
 * element types braze does not take) are left to the passes and tools that know
 * what to expect. */
static bool verify_signature(MlirOperation func) {
  MlirAttribute attr = mlirOperationGetAttributeByName(func, mlirStringRefCreateFromCString("function_type"));
  if (mlirAttributeIsNull(attr) || !mlirAttributeIsAType(attr) || !mlirTypeIsAFunction(mlirTypeAttrGetValue(attr)))
    return true;
  MlirType fn = mlirTypeAttrGetValue(attr);
  intptr_t n_in = mlirFunctionTypeGetNumInputs(fn), n = n_in + mlirFunctionTypeGetNumResults(fn);
  for (intptr_t i = 0; i < n; ++i) {
    MlirType t = i < n_in ? mlirFunctionTypeGetInput(fn, i) : mlirFunctionTypeGetResult(fn, i - n_in);
    if (!mlirTypeIsARankedTensor(t))
      continue;
    BrazeStr why = {0};
    if (mlirShapedTypeGetRank(t) > BRAZE_MAX_RANK)
      braze_str_printf(&why, "%s has rank %lld; braze supports rank <= %d", gv_type(t).s,
                       (long long)mlirShapedTypeGetRank(t), BRAZE_MAX_RANK);
    else if (mlirShapedTypeHasStaticShape(t) && braze_dtype_name(mlirShapedTypeGetElementType(t)))
      size_within_limit(t, &why);
    if (why.len) {
      MlirAttribute name = mlirOperationGetAttributeByName(func, mlirStringRefCreateFromCString("sym_name"));
      MlirStringRef sym = mlirAttributeIsAString(name) ? mlirStringAttrGetValue(name) : mlirStringRefCreateFromCString("");
      braze_emit_error(mlirOperationGetLocation(func), "'func.func' op @%.*s %s #%lld: %s", (int)sym.length, sym.data,
                       i < n_in ? "argument" : "result", (long long)(i < n_in ? i : i - n_in), braze_str_cstr(&why));
      braze_str_free(&why);
      return false;
    }
  }
  return true;
}

/* ---- per-op driver ---- */

/* Check one operand or result type and fill `t`. `what` names it in messages. */
static bool load_tensor(const GvOp *v, MlirType type, const char *what, GvTensor *t) {
  if (!mlirTypeIsARankedTensor(type) || !mlirShapedTypeHasStaticShape(type))
    return gv_fail(v, "%s must be a ranked tensor with a static shape, got %s", what, gv_type(type).s);
  t->type = type;
  t->elt = mlirShapedTypeGetElementType(type);
  t->rank = mlirShapedTypeGetRank(type);
  if (!is_supported_element(t->elt))
    return gv_fail(v, "%s has element type %s; expected one of f32, f64, f16, bf16, i8, i16, i32, i64, "
                   "ui8, ui16, ui32, ui64, i1", what,
                   gv_type(t->elt).s);
  if (t->rank > BRAZE_MAX_RANK)
    return gv_fail(v, "%s has rank %lld; braze supports rank <= %d", what, (long long)t->rank,
                   BRAZE_MAX_RANK);
  braze_shape(type, t->dims);
  BrazeStr why = {0};
  bool ok = size_within_limit(type, &why);
  if (!ok)
    gv_fail(v, "%s %s", what, braze_str_cstr(&why));
  braze_str_free(&why);
  return ok;
}

static bool check_float(const GvOp *v, const GvTensor *t, const char *what) {
  if (gv_is_float(t->elt))
    return true;
  return gv_fail(v, "%s has element type %s; expected a float type (f32, f64, f16, bf16)", what,
                 gv_type(t->elt).s);
}

static bool check_counts(const GvOp *v, const GvOpRules *rules) {
  intptr_t num_results = mlirOperationGetNumResults(v->op);
  if (rules->num_operands != VARIADIC && v->num_inputs != rules->num_operands)
    return gv_fail(v, "expects %d operands, got %lld", rules->num_operands, (long long)v->num_inputs);
  if (num_results != 1)
    return gv_fail(v, "expects 1 result, got %lld", (long long)num_results);
  return true;
}

static bool load_and_check_types(GvOp *v, GvTensor *in, const GvOpRules *rules) {
  char what[32];
  for (intptr_t i = 0; i < v->num_inputs; ++i) {
    snprintf(what, sizeof what, "operand #%lld", (long long)i);
    MlirType type = mlirValueGetType(mlirOperationGetOperand(v->op, i));
    if (!load_tensor(v, type, what, &in[i]))
      return false;
    if (rules->float_only && !check_float(v, &in[i], what))
      return false;
  }
  if (!load_tensor(v, mlirValueGetType(mlirOperationGetResult(v->op, 0)), "result", &v->res))
    return false;
  return !rules->float_only || check_float(v, &v->res, "result");
}

static bool verify_op(MlirOperation op) {
  if (braze_op_is(op, "func.func"))
    return verify_signature(op) && gv_verify_func_sharding(op);
  const char *mnemonic = braze_graph_op_mnemonic(op);
  const GvOpRules *rules = mnemonic ? find_rules(mnemonic) : NULL;
  if (!rules)
    return true; /* not a graph op */
  GvOp v = {.op = op, .mnemonic = mnemonic, .num_inputs = mlirOperationGetNumOperands(op)};
  if (!check_counts(&v, rules))
    return false;
  GvTensor *in = calloc((size_t)(v.num_inputs ? v.num_inputs : 1), sizeof *in);
  v.in = in;
  bool ok = load_and_check_types(&v, in, rules) && rules->rule(&v);
  free(in);
  return ok;
}

static MlirWalkResult visit(MlirOperation op, void *user_data);

/* A function with symbolic dims (dialects/graph/symbols.h): the shapes agree as
 * expressions first (located errors), then the dtype and attribute rules run on a
 * copy specialized at each symbol's smallest size. */
static bool verify_symbolic(MlirOperation func) {
  BrazeSymShapes s;
  bool ok = braze_sym_infer(func, &s);
  int64_t values[BRAZE_MAX_SYMBOLS] = {0};
  for (int i = 0; i < s.table.count; ++i)
    values[i] = (s.table.sym[i].min + s.table.sym[i].div - 1) / s.table.sym[i].div * s.table.sym[i].div;
  braze_sym_shapes_free(&s);
  if (!ok)
    return false;
  MlirOperation copy = mlirOperationClone(func);
  ok = braze_sym_specialize(copy, values);
  if (ok)
    mlirOperationWalk(copy, visit, &ok, MlirWalkPreOrder);
  mlirOperationDestroy(copy);
  return ok;
}

static MlirWalkResult visit(MlirOperation op, void *user_data) {
  bool *ok = user_data;
  if (braze_op_is(op, "func.func") && braze_func_has_symbols(op)) {
    if (!verify_symbolic(op))
      *ok = false;
    return MlirWalkResultSkip;
  }
  if (!verify_op(op))
    *ok = false;
  return MlirWalkResultAdvance;
}

bool braze_graph_verify(MlirOperation root) {
  bool ok = true;
  mlirOperationWalk(root, visit, &ok, MlirWalkPreOrder);
  return ok;
}
