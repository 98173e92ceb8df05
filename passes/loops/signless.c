/* Unsigned graph tensors stored signless at the loop level (passes/loops/signless.h). */
#include "passes/loops/signless.h"

#include <stdlib.h>
#include <string.h>

#include "dialects/graph/graph.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "support/context.h"
#include "support/diag.h"

static bool is_unsigned_element(MlirType t) {
  if (!mlirTypeIsAShaped(t))
    return false;
  MlirType e = mlirShapedTypeGetElementType(t);
  return mlirTypeIsAInteger(e) && mlirIntegerTypeIsUnsigned(e);
}

void braze_signless_collect(const BrazeOpList *ops, BrazePtrMap *flags) {
  for (size_t i = 0; i < ops->count; ++i) {
    MlirOperation op = ops->ops[i];
    intptr_t n = mlirOperationGetNumOperands(op), k = braze_graph_op_class(op) == GRAPH_SELECT ? 1 : 0;
    int f = 0;
    if (k < n && is_unsigned_element(mlirValueGetType(mlirOperationGetOperand(op, k))))
      f |= BRAZE_UNSIGNED_OPERANDS;
    if (mlirOperationGetNumResults(op) == 1 && is_unsigned_element(mlirValueGetType(mlirOperationGetResult(op, 0))))
      f |= BRAZE_UNSIGNED_RESULT;
    if (f)
      braze_ptrmap_put(flags, braze_ptr_key(op.ptr), f);
  }
}

int braze_signless_flags(const BrazePtrMap *flags, MlirOperation op) {
  return braze_ptrmap_get(flags, braze_ptr_key(op.ptr), 0);
}

/* `t` with a signless element type when it is an unsigned ranked tensor. */
static MlirType signless(MlirType t) {
  if (!is_unsigned_element(t) || !mlirTypeIsARankedTensor(t))
    return t;
  MlirType e = mlirShapedTypeGetElementType(t);
  intptr_t rank = mlirShapedTypeGetRank(t);
  int64_t dims[BRAZE_MAX_RANK + 1];
  for (intptr_t i = 0; i < rank && i <= BRAZE_MAX_RANK; ++i)
    dims[i] = mlirShapedTypeGetDimSize(t, i);
  MlirType elt = mlirIntegerTypeGet(mlirTypeGetContext(t), mlirIntegerTypeGetWidth(e));
  return mlirRankedTensorTypeGet(rank, dims, elt, mlirRankedTensorTypeGetEncoding(t));
}

static void retype(MlirValue v) {
  MlirType t = mlirValueGetType(v), s = signless(t);
  if (!mlirTypeEqual(t, s))
    mlirValueSetType(v, s);
}

/* Element i of an unsigned dense_resource attribute into `out` (width bytes). */
static void resource_element(MlirAttribute a, unsigned width, intptr_t i, unsigned char *out) {
  switch (width) {
  case 8: { uint8_t x = mlirDenseUInt8ResourceElementsAttrGetValue(a, i); memcpy(out, &x, 1); break; }
  case 16: { uint16_t x = mlirDenseUInt16ResourceElementsAttrGetValue(a, i); memcpy(out, &x, 2); break; }
  case 32: { uint32_t x = mlirDenseUInt32ResourceElementsAttrGetValue(a, i); memcpy(out, &x, 4); break; }
  default: { uint64_t x = mlirDenseUInt64ResourceElementsAttrGetValue(a, i); memcpy(out, &x, 8); break; }
  }
}

/* The same bits under the signless type (dense or dense_resource: a dense copy). */
static MlirAttribute signless_value(MlirAttribute a) {
  MlirType t = mlirAttributeGetType(a), s = signless(t);
  if (mlirTypeEqual(t, s))
    return a;
  unsigned width = mlirIntegerTypeGetWidth(mlirShapedTypeGetElementType(t));
  if (mlirAttributeIsADenseElements(a)) {
    size_t n = mlirDenseElementsAttrIsSplat(a) ? 1 : (size_t)mlirElementsAttrGetNumElements(a);
    return mlirDenseElementsAttrRawBufferGet(s, n * width / 8, mlirDenseElementsAttrGetRawData(a));
  }
  if (!mlirAttributeIsADenseResourceElements(a))
    return a;
  intptr_t n = mlirElementsAttrGetNumElements(a);
  unsigned char *bytes = malloc((size_t)(n ? n : 1) * width / 8);
  for (intptr_t i = 0; i < n; ++i)
    resource_element(a, width, i, bytes + (size_t)i * width / 8);
  MlirAttribute out = mlirDenseElementsAttrRawBufferGet(s, (size_t)n * width / 8, bytes);
  free(bytes);
  return out;
}

static void retype_signature(MlirOperation func) {
  MlirAttribute attr = mlirOperationGetAttributeByName(func, braze_ref("function_type"));
  MlirType type = mlirTypeAttrGetValue(attr);
  intptr_t ni = mlirFunctionTypeGetNumInputs(type), nr = mlirFunctionTypeGetNumResults(type);
  MlirType *types = malloc((size_t)(ni + nr + 1) * sizeof *types);
  bool changed = false;
  for (intptr_t i = 0; i < ni + nr; ++i) {
    MlirType t = i < ni ? mlirFunctionTypeGetInput(type, i) : mlirFunctionTypeGetResult(type, i - ni);
    types[i] = signless(t);
    changed |= !mlirTypeEqual(t, types[i]);
  }
  if (changed) {
    MlirType fn = mlirFunctionTypeGet(mlirTypeGetContext(type), ni, types, nr, types + ni);
    mlirOperationSetAttributeByName(func, braze_ref("function_type"), mlirTypeAttrGet(fn));
  }
  free(types);
}

static bool has_unsigned_value(MlirOperation op) {
  for (intptr_t i = 0, n = mlirOperationGetNumOperands(op); i < n; ++i)
    if (is_unsigned_element(mlirValueGetType(mlirOperationGetOperand(op, i))))
      return true;
  for (intptr_t i = 0, n = mlirOperationGetNumResults(op); i < n; ++i)
    if (is_unsigned_element(mlirValueGetType(mlirOperationGetResult(op, i))))
      return true;
  return false;
}

static MlirWalkResult check_op(MlirOperation op, void *data) {
  bool *ok = data;
  if (braze_is_graph_op(op) || braze_op_is(op, "func.return") || braze_op_is(op, "func.func") ||
      !has_unsigned_value(op))
    return MlirWalkResultAdvance;
  MlirStringRef name = braze_op_name(op);
  braze_emit_error(mlirOperationGetLocation(op),
                   "graph-to-loops: '%.*s' has an unsigned operand or result (ui8..ui64); only graph ops may: "
                   "unsigned tensors are stored signless from here on, so user kernels and other ops take "
                   "signless types (graph.cast to one first)",
                   (int)name.length, name.data);
  *ok = false;
  return MlirWalkResultAdvance;
}

bool braze_signless_check(MlirOperation func) {
  bool ok = true;
  mlirOperationWalk(func, check_op, &ok, MlirWalkPreOrder);
  return ok;
}

void braze_signless_convert(MlirOperation func, const BrazeOpList *ops) {
  retype_signature(func);
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  for (intptr_t i = 0, n = mlirBlockIsNull(entry) ? 0 : mlirBlockGetNumArguments(entry); i < n; ++i)
    retype(mlirBlockGetArgument(entry, i));
  for (size_t i = 0; i < ops->count; ++i) {
    MlirOperation op = ops->ops[i];
    for (intptr_t r = 0, n = mlirOperationGetNumResults(op); r < n; ++r)
      retype(mlirOperationGetResult(op, r));
    if (braze_graph_op_class(op) != GRAPH_CONSTANT)
      continue;
    MlirAttribute value = mlirOperationGetAttributeByName(op, braze_ref("value"));
    if (!mlirAttributeIsNull(value))
      mlirOperationSetAttributeByName(op, braze_ref("value"), signless_value(value));
  }
}
