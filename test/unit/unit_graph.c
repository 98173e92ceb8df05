/* Unit tests for the graph dialect's C helpers (dialects/graph/graph.c): op classes,
 * attribute accessors, tensor helpers and numpy broadcasting. */
#include <string.h>

#include "dialects/graph/graph.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "support/context.h"
#include "test/unit/check.h"

static MlirContext ctx;

static bool broadcast(const int64_t *a, intptr_t ra, const int64_t *b, intptr_t rb, const int64_t *want,
                      intptr_t want_rank) {
  int64_t out[BRAZE_MAX_RANK];
  intptr_t rank = -1;
  if (!braze_broadcast_shapes(a, ra, b, rb, out, &rank))
    return false;
  CHECK(rank == want_rank);
  for (intptr_t i = 0; i < rank; ++i)
    CHECK(out[i] == want[i]);
  return true;
}

static void broadcasting(void) {
  CHECK(broadcast((int64_t[]){4, 8}, 2, (int64_t[]){8}, 1, (int64_t[]){4, 8}, 2));
  CHECK(broadcast((int64_t[]){4, 1}, 2, (int64_t[]){1, 8}, 2, (int64_t[]){4, 8}, 2));
  CHECK(broadcast((int64_t[]){2, 1, 3}, 3, (int64_t[]){5, 1}, 2, (int64_t[]){2, 5, 3}, 3));
  CHECK(broadcast((int64_t[]){0}, 0, (int64_t[]){3}, 1, (int64_t[]){3}, 1)); /* rank 0 */
  CHECK(broadcast((int64_t[]){0}, 0, (int64_t[]){0}, 0, NULL, 0));
  CHECK(broadcast((int64_t[]){1}, 1, (int64_t[]){0}, 1, (int64_t[]){0}, 1)); /* 1 vs 0 gives 0 */
  CHECK(!broadcast((int64_t[]){4, 8}, 2, (int64_t[]){3}, 1, NULL, 0));
  CHECK(!broadcast((int64_t[]){2, 3}, 2, (int64_t[]){3, 3}, 2, NULL, 0));
}

static MlirOperation first_op_named(MlirOperation module, const char *name) {
  MlirOperation fn = mlirBlockGetFirstOperation(mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0)));
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(fn, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    if (braze_op_is(op, name))
      return op;
  return (MlirOperation){NULL};
}

static const char source[] =
    "func.func @f(%x: tensor<2x3xf32>, %y: tensor<3xi64>) -> tensor<2xf32> {\n"
    "  %0 = \"graph.reduce_var\"(%x) {dims = array<i64: 1>, keepdim = false, correction = 1 : i64}"
    " : (tensor<2x3xf32>) -> tensor<2xf32>\n"
    "  %1 = \"graph.gelu\"(%x) {approximate = \"tanh\"} : (tensor<2x3xf32>) -> tensor<2x3xf32>\n"
    "  %2 = \"graph.layer_norm\"(%x, %y, %y) {axis = 1 : i64, eps = 5.0e-01 : f32}"
    " : (tensor<2x3xf32>, tensor<3xi64>, tensor<3xi64>) -> tensor<2x3xf32>\n"
    "  return %0 : tensor<2xf32>\n}\n";

static void classes_and_attributes(void) {
  /* Parsed without the verifier: layer_norm with i64 params is only refused by it. */
  MlirOperation module = braze_parse(ctx, source, strlen(source), "unit.mlir");
  CHECK(!mlirOperationIsNull(module));
  if (mlirOperationIsNull(module))
    return;
  MlirOperation var = first_op_named(module, "graph.reduce_var");
  MlirOperation gelu = first_op_named(module, "graph.gelu");
  MlirOperation norm = first_op_named(module, "graph.layer_norm");
  MlirOperation ret = first_op_named(module, "func.return");
  CHECK(braze_graph_op_class(var) == GRAPH_REDUCE);
  CHECK(braze_graph_op_class(gelu) == GRAPH_COMPOSITE);
  CHECK(braze_graph_op_class(ret) == GRAPH_NOT_GRAPH);
  CHECK_STR(braze_graph_op_mnemonic(var), "reduce_var");
  CHECK(braze_graph_op_mnemonic(ret) == NULL);
  CHECK(braze_is_graph_op(norm) && !braze_is_graph_op(ret));

  int64_t dims[4] = {0}, v = 0;
  CHECK(braze_attr_i64_array(var, "dims", dims, 4) == 1 && dims[0] == 1);
  CHECK(braze_attr_i64_array(var, "missing", dims, 4) == -1);
  CHECK(braze_attr_i64_array(var, "correction", dims, 4) == -1); /* wrong kind */
  CHECK(braze_attr_i64(var, "correction", &v) && v == 1);
  CHECK(!braze_attr_i64(var, "dims", &v));
  double eps = 0;
  CHECK(braze_attr_f64(norm, "eps", &eps) && eps == 0.5);
  CHECK(!braze_attr_f64(norm, "axis", &eps));
  const char *s = NULL;
  size_t len = 0;
  CHECK(braze_attr_str(gelu, "approximate", &s, &len) && len == 4 && memcmp(s, "tanh", 4) == 0);
  CHECK(!braze_attr_str(var, "dims", &s, &len));
  CHECK(!braze_graph_verify(module)); /* layer_norm is float-only: its i64 params are refused */
  mlirOperationDestroy(module);
}

static void tensor_helpers(void) {
  MlirType f32 = mlirF32TypeGet(ctx);
  int64_t shape[3] = {2, 3, 4};
  MlirType t = mlirRankedTensorTypeGet(3, shape, f32, mlirAttributeGetNull());
  int64_t dims[BRAZE_MAX_RANK];
  CHECK(braze_is_ranked_tensor(t) && braze_rank(t) == 3);
  CHECK(braze_shape(t, dims) == 3 && dims[0] == 2 && dims[2] == 4);
  CHECK(braze_num_elements(t) == 24);
  CHECK(mlirTypeEqual(braze_element_type(t), f32));
  MlirType scalar = mlirRankedTensorTypeGet(0, NULL, f32, mlirAttributeGetNull());
  CHECK(braze_rank(scalar) == 0 && braze_num_elements(scalar) == 1);
  CHECK_STR(braze_dtype_name(f32), "f32");
  CHECK_STR(braze_dtype_name(mlirF16TypeGet(ctx)), "f16");
  CHECK_STR(braze_dtype_name(mlirBF16TypeGet(ctx)), "bf16");
  CHECK_STR(braze_dtype_name(mlirIntegerTypeGet(ctx, 1)), "i1");
  CHECK_STR(braze_dtype_name(mlirIntegerTypeGet(ctx, 32)), "i32");
  CHECK_STR(braze_dtype_name(mlirIntegerTypeGet(ctx, 64)), "i64");
  CHECK_STR(braze_dtype_name(mlirIntegerTypeGet(ctx, 8)), "i8");
  CHECK_STR(braze_dtype_name(mlirF64TypeGet(ctx)), "f64");
  CHECK_STR(braze_dtype_name(mlirIntegerTypeGet(ctx, 16)), "i16");
  CHECK_STR(braze_dtype_name(mlirIntegerTypeUnsignedGet(ctx, 8)), "ui8");
  CHECK_STR(braze_dtype_name(mlirIntegerTypeUnsignedGet(ctx, 64)), "ui64");
  CHECK(braze_dtype_name(mlirIntegerTypeGet(ctx, 4)) == NULL);
  CHECK(braze_dtype_name(mlirIntegerTypeSignedGet(ctx, 16)) == NULL);
}

int main(void) {
  ctx = braze_context_create();
  if (mlirContextIsNull(ctx))
    return 1;
  RUN_CASE(broadcasting);
  RUN_CASE(classes_and_attributes);
  RUN_CASE(tensor_helpers);
  braze_context_destroy(ctx);
  return check_finish();
}
