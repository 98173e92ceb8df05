/* Building and reading graph-dialect ops from C: see passes/graph/builder.h. */
#include "passes/graph/builder.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dialects/graph/graph.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "support/context.h"
#include "support/oplist.h"

GraphBuilder braze_gb_for_pattern(MlirPatternRewriter rewriter, MlirOperation op) {
  MlirRewriterBase base = mlirPatternRewriterAsBase(rewriter);
  mlirRewriterBaseSetInsertionPointBefore(base, op);
  return (GraphBuilder){mlirOperationGetContext(op), mlirOperationGetLocation(op), base, op, 0};
}

GraphBuilder braze_gb_before(MlirOperation op) {
  return (GraphBuilder){mlirOperationGetContext(op), mlirOperationGetLocation(op), {NULL}, op, 0};
}

MlirType braze_gb_tensor_type(MlirContext ctx, const int64_t *shape, intptr_t rank, MlirType element) {
  (void)ctx;
  return mlirRankedTensorTypeGet(rank, shape, element, mlirAttributeGetNull());
}

/* ---- creating ops ---- */

static MlirOperation insert(GraphBuilder *b, MlirOperation op) {
  b->num_created++;
  if (b->rewriter.ptr)
    return mlirRewriterBaseInsert(b->rewriter, op);
  mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(b->anchor), b->anchor, op);
  return op;
}

MlirOperation braze_gb_create(GraphBuilder *b, const char *mnemonic, const MlirValue *operands,
                              intptr_t num_operands, MlirType result, const MlirNamedAttribute *attrs,
                              intptr_t num_attrs) {
  char name[64];
  snprintf(name, sizeof name, "graph.%s", mnemonic);
  MlirOperationState state = mlirOperationStateGet(braze_ref(name), b->loc);
  mlirOperationStateAddOperands(&state, num_operands, operands);
  mlirOperationStateAddResults(&state, 1, &result);
  if (num_attrs)
    mlirOperationStateAddAttributes(&state, num_attrs, attrs);
  return insert(b, mlirOperationCreate(&state));
}

MlirValue braze_gb_make(GraphBuilder *b, const char *mnemonic, const MlirValue *operands, intptr_t num_operands,
                        const int64_t *shape, intptr_t rank, MlirType elem, const MlirNamedAttribute *attrs,
                        intptr_t num_attrs) {
  MlirType type = braze_gb_tensor_type(b->ctx, shape, rank, elem);
  return mlirOperationGetResult(braze_gb_create(b, mnemonic, operands, num_operands, type, attrs, num_attrs), 0);
}

static MlirValue create_value(GraphBuilder *b, const char *mnemonic, const MlirValue *operands,
                              intptr_t num_operands, MlirType result, const MlirNamedAttribute *attrs,
                              intptr_t num_attrs) {
  MlirOperation op = braze_gb_create(b, mnemonic, operands, num_operands, result, attrs, num_attrs);
  return mlirOperationGetResult(op, 0);
}

MlirValue braze_gb_unary(GraphBuilder *b, const char *mnemonic, MlirValue x) {
  return create_value(b, mnemonic, &x, 1, mlirValueGetType(x), NULL, 0);
}

MlirValue braze_gb_binary(GraphBuilder *b, const char *mnemonic, MlirValue lhs, MlirValue rhs) {
  MlirType lt = mlirValueGetType(lhs), rt = mlirValueGetType(rhs);
  int64_t ls[BRAZE_MAX_RANK], rs[BRAZE_MAX_RANK], out[BRAZE_MAX_RANK];
  intptr_t lr = braze_shape(lt, ls), rr = braze_shape(rt, rs), rank = 0;
  if (lr > BRAZE_MAX_RANK || rr > BRAZE_MAX_RANK || !braze_broadcast_shapes(ls, lr, rs, rr, out, &rank))
    return (MlirValue){NULL};
  MlirValue operands[2] = {lhs, rhs};
  MlirType result = braze_gb_tensor_type(b->ctx, out, rank, braze_element_type(lt));
  return create_value(b, mnemonic, operands, 2, result, NULL, 0);
}

MlirValue braze_gb_reduce(GraphBuilder *b, const char *mnemonic, MlirValue x, const int64_t *dims,
                          intptr_t num_dims, bool keepdim) {
  MlirType xt = mlirValueGetType(x);
  int64_t shape[BRAZE_MAX_RANK], out[BRAZE_MAX_RANK];
  intptr_t rank = braze_shape(xt, shape), out_rank = 0;
  if (rank > BRAZE_MAX_RANK)
    return (MlirValue){NULL};
  for (intptr_t d = 0; d < rank; ++d) {
    bool reduced = false;
    for (intptr_t i = 0; i < num_dims; ++i)
      reduced = reduced || dims[i] == d;
    if (!reduced)
      out[out_rank++] = shape[d];
    else if (keepdim)
      out[out_rank++] = 1;
  }
  MlirNamedAttribute attrs[2] = {braze_gb_attr_i64_array(b->ctx, "dims", dims, num_dims),
                                 braze_gb_attr_bool(b->ctx, "keepdim", keepdim)};
  MlirType result = braze_gb_tensor_type(b->ctx, out, out_rank, braze_element_type(xt));
  return create_value(b, mnemonic, &x, 1, result, attrs, 2);
}

MlirValue braze_gb_scalar(GraphBuilder *b, MlirType element, double value) {
  MlirType type = braze_gb_tensor_type(b->ctx, NULL, 0, element);
  MlirAttribute scalar = mlirTypeIsAInteger(element) ? mlirIntegerAttrGet(element, (int64_t)value)
                                                     : mlirFloatAttrDoubleGet(b->ctx, element, value);
  return braze_gb_constant(b, mlirDenseElementsAttrSplatGet(type, scalar));
}

MlirValue braze_gb_constant(GraphBuilder *b, MlirAttribute dense) {
  MlirNamedAttribute value = mlirNamedAttributeGet(mlirIdentifierGet(b->ctx, braze_ref("value")), dense);
  return create_value(b, "constant", NULL, 0, mlirAttributeGetType(dense), &value, 1);
}

MlirValue braze_gb_transpose(GraphBuilder *b, MlirValue x, const int64_t *perm) {
  MlirType xt = mlirValueGetType(x);
  int64_t shape[BRAZE_MAX_RANK], out[BRAZE_MAX_RANK];
  intptr_t rank = braze_shape(xt, shape);
  if (rank > BRAZE_MAX_RANK)
    return (MlirValue){NULL};
  for (intptr_t i = 0; i < rank; ++i) {
    if (perm[i] < 0 || perm[i] >= rank)
      return (MlirValue){NULL};
    out[i] = shape[perm[i]];
  }
  MlirNamedAttribute attr = braze_gb_attr_i64_array(b->ctx, "perm", perm, rank);
  MlirType result = braze_gb_tensor_type(b->ctx, out, rank, braze_element_type(xt));
  return create_value(b, "transpose", &x, 1, result, &attr, 1);
}

MlirValue braze_gb_reshape(GraphBuilder *b, MlirValue x, const int64_t *shape, intptr_t rank) {
  MlirType xt = mlirValueGetType(x);
  MlirType result = braze_gb_tensor_type(b->ctx, shape, rank, braze_element_type(xt));
  if (braze_num_elements(result) != braze_num_elements(xt))
    return (MlirValue){NULL};
  return create_value(b, "reshape", &x, 1, result, NULL, 0);
}

MlirValue braze_gb_broadcast_to(GraphBuilder *b, MlirValue x, MlirType result) {
  return create_value(b, "broadcast_to", &x, 1, result, NULL, 0);
}

MlirValue braze_gb_matmul(GraphBuilder *b, MlirValue lhs, MlirValue rhs) {
  MlirType lt = mlirValueGetType(lhs), rt = mlirValueGetType(rhs);
  if (braze_rank(lt) != 2 || braze_rank(rt) != 2 ||
      mlirShapedTypeGetDimSize(lt, 1) != mlirShapedTypeGetDimSize(rt, 0))
    return (MlirValue){NULL};
  int64_t shape[2] = {mlirShapedTypeGetDimSize(lt, 0), mlirShapedTypeGetDimSize(rt, 1)};
  MlirValue operands[2] = {lhs, rhs};
  MlirType result = braze_gb_tensor_type(b->ctx, shape, 2, braze_element_type(lt));
  return create_value(b, "matmul", operands, 2, result, NULL, 0);
}

/* ---- attributes ---- */

MlirNamedAttribute braze_gb_attr_i64_array(MlirContext ctx, const char *name, const int64_t *values,
                                           intptr_t n) {
  return mlirNamedAttributeGet(mlirIdentifierGet(ctx, braze_ref(name)), mlirDenseI64ArrayGet(ctx, n, values));
}

MlirNamedAttribute braze_gb_attr_bool(MlirContext ctx, const char *name, bool value) {
  return mlirNamedAttributeGet(mlirIdentifierGet(ctx, braze_ref(name)), mlirBoolAttrGet(ctx, value));
}

/* ---- reading ---- */

MlirOperation braze_gb_defining(MlirValue v, const char *mnemonic) {
  if (!mlirValueIsAOpResult(v))
    return (MlirOperation){NULL};
  MlirOperation def = mlirOpResultGetOwner(v);
  const char *m = braze_graph_op_mnemonic(def);
  if (!m || strcmp(m, mnemonic) != 0)
    return (MlirOperation){NULL};
  return def;
}

MlirAttribute braze_gb_constant_value(MlirValue v) {
  MlirOperation def = braze_gb_defining(v, "constant");
  if (mlirOperationIsNull(def))
    return mlirAttributeGetNull();
  MlirAttribute value = mlirOperationGetAttributeByName(def, braze_ref("value"));
  if (mlirAttributeIsNull(value) || !mlirAttributeIsADenseElements(value))
    return mlirAttributeGetNull();
  return value;
}

bool braze_gb_splat_value(MlirValue v, double *out) {
  MlirAttribute value = braze_gb_constant_value(v);
  if (mlirAttributeIsNull(value) || !mlirDenseElementsAttrIsSplat(value))
    return false;
  MlirAttribute splat = mlirDenseElementsAttrGetSplatValue(value);
  if (mlirAttributeIsAFloat(splat)) {
    *out = mlirFloatAttrGetValueDouble(splat);
    return true;
  }
  if (!mlirAttributeIsAInteger(splat))
    return false;
  MlirType t = mlirAttributeGetType(splat);
  if (mlirIntegerTypeGetWidth(t) == 1) /* i1 reads back as -1 when signless */
    *out = mlirIntegerAttrGetValueInt(splat) != 0;
  else if (mlirIntegerTypeIsUnsigned(t))
    *out = (double)mlirIntegerAttrGetValueUInt(splat);
  else
    *out = (double)mlirIntegerAttrGetValueInt(splat);
  return true;
}

bool braze_gb_is_identity_perm(const int64_t *perm, intptr_t n) {
  for (intptr_t i = 0; i < n; ++i)
    if (perm[i] != i)
      return false;
  return true;
}

bool braze_gb_types_equal(MlirValue a, MlirValue b) {
  return mlirTypeEqual(mlirValueGetType(a), mlirValueGetType(b));
}

/* ---- replacing and erasing ---- */

void braze_gb_replace(GraphBuilder *b, MlirOperation op, MlirValue v) {
  if (b->rewriter.ptr) {
    mlirRewriterBaseReplaceOpWithValues(b->rewriter, op, 1, &v);
    return;
  }
  mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(op, 0), v);
  mlirOperationDestroy(op);
}

static bool has_uses(MlirOperation op) {
  for (intptr_t i = 0, n = mlirOperationGetNumResults(op); i < n; ++i)
    if (!mlirOpOperandIsNull(mlirValueGetFirstUse(mlirOperationGetResult(op, i))))
      return true;
  return false;
}

size_t braze_graph_erase_dead(MlirOperation root, BrazeEraseCallback on_erase, void *user_data) {
  BrazeOpList list = {0};
  /* Pre-order is program order within a block; going backwards erases users before
   * the values they use, so one sweep clears a dead chain. Nested regions may need
   * more sweeps. */
  braze_op_list_collect(root, braze_is_graph_op, &list);
  size_t erased = 0;
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t i = list.count; i-- > 0;) {
      if (mlirOperationIsNull(list.ops[i]) || has_uses(list.ops[i]))
        continue;
      if (on_erase)
        on_erase(list.ops[i], user_data);
      mlirOperationDestroy(list.ops[i]);
      list.ops[i] = (MlirOperation){NULL};
      erased++;
      changed = true;
    }
  }
  braze_op_list_free(&list);
  return erased;
}
