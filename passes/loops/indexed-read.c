/* Indexed reads at the loop level: the gather body, and the index arithmetic that
 * cloning such bodies into other loop nests needs (passes/loops/indexed-read.h). */
#include "passes/loops/indexed-read.h"

#include <stdint.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "support/context.h"

enum { MAX_RANK = 8 };

MlirValue braze_build_loop_index(BrazeBuilder *b, intptr_t d) {
  MlirNamedAttribute dim = mlirNamedAttributeGet(mlirIdentifierGet(b->ctx, braze_ref("dim")),
                                                 mlirIntegerAttrGet(mlirIntegerTypeGet(b->ctx, 64), d));
  return braze_build_typed(b, "linalg.index", NULL, 0, mlirIndexTypeGet(b->ctx), &dim, 1);
}

static MlirValue index_const(BrazeBuilder *b, int64_t c) {
  return braze_build_int_constant(b, mlirIndexTypeGet(b->ctx), c);
}

MlirValue braze_affine_eval(BrazeBuilder *b, MlirAffineExpr e, const MlirValue *dims) {
  if (mlirAffineExprIsADim(e))
    return dims[mlirAffineDimExprGetPosition(e)];
  if (mlirAffineExprIsAConstant(e))
    return index_const(b, mlirAffineConstantExprGetValue(e));
  const char *name = mlirAffineExprIsAAdd(e)        ? "arith.addi"
                     : mlirAffineExprIsAMul(e)      ? "arith.muli"
                     : mlirAffineExprIsAFloorDiv(e) ? "arith.divui"
                     : mlirAffineExprIsAMod(e)      ? "arith.remui"
                     : mlirAffineExprIsACeilDiv(e)  ? "arith.ceildivui"
                                                    : NULL;
  if (!name)
    return (MlirValue){NULL};
  MlirValue lhs = braze_affine_eval(b, mlirAffineBinaryOpExprGetLHS(e), dims);
  MlirValue rhs = braze_affine_eval(b, mlirAffineBinaryOpExprGetRHS(e), dims);
  if (mlirValueIsNull(lhs) || mlirValueIsNull(rhs))
    return (MlirValue){NULL};
  return braze_build_binary(b, name, lhs, rhs);
}

MlirValue braze_indexed_read(BrazeBuilder *b, const BrazeIndexedRead *r, MlirValue index) {
  MlirType data_type = mlirValueGetType(r->data), itype = mlirValueGetType(index);
  intptr_t rank = mlirShapedTypeGetRank(data_type);
  int64_t k = mlirShapedTypeGetDimSize(data_type, r->axis);
  if (mlirIntegerTypeGetWidth(itype) < 64 && k > INT32_MAX) { /* K does not fit the index type */
    itype = mlirIntegerTypeGet(b->ctx, 64);
    index = braze_build_typed(b, "arith.extsi", &index, 1, itype, NULL, 0);
  }
  MlirValue zero = braze_build_int_constant(b, itype, 0);
  MlirValue negative = braze_scalar_cmp(b, "lt", 2, index, zero);
  MlirValue wrapped = braze_build_binary(b, "arith.addi", index, braze_build_int_constant(b, itype, k));
  MlirValue sel[3] = {negative, wrapped, index};
  MlirValue i = braze_build_typed(b, "arith.select", sel, 3, itype, NULL, 0);
  i = braze_scalar_binary(b, "min", i, braze_build_int_constant(b, itype, k - 1));
  i = braze_scalar_binary(b, "max", i, zero);
  MlirValue at = braze_build_typed(b, "arith.index_cast", &i, 1, mlirIndexTypeGet(b->ctx), NULL, 0);
  MlirValue operands[1 + MAX_RANK] = {r->data};
  if (rank > MAX_RANK)
    return (MlirValue){NULL};
  for (intptr_t d = 0; d < rank; ++d) {
    intptr_t loop = r->elements || d < r->axis ? d : d - 1 + r->num_index_dims;
    operands[1 + d] = d == r->axis ? at : braze_build_loop_index(b, loop);
  }
  return braze_build_typed(b, "tensor.extract", operands, 1 + rank, mlirShapedTypeGetElementType(data_type), NULL, 0);
}

bool braze_body_has_loop_index(MlirBlock body) {
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    if (braze_op_is(op, "linalg.index"))
      return true;
  return false;
}
