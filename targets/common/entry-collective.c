/* The collectives of a partitioned graph function in the entry (decision 0018): each
 * graph collective becomes a `kernel.collective` on the entry's buffers, which the
 * target's host code turns into runtime calls (the CUDA target: NCCL). Staging
 * workspace is asked for where the split dim is not the outermost non-unit one, so one
 * contiguous NCCL call cannot do it: the runtime reorders with strided copies. */
#include "targets/common/entry-collective.h"

#include <string.h>

#include "dialects/graph/mesh.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "support/context.h"
#include "support/diag.h"

static int64_t int_attr(MlirOperation op, const char *name) {
  MlirAttribute a = mlirOperationGetAttributeByName(op, braze_ref(name));
  return mlirAttributeIsNull(a) || !mlirAttributeIsAInteger(a) ? -1 : mlirIntegerAttrGetValueInt(a);
}

/* The product of the dims of `t` before `dim`: the rows a split along `dim` strides over. */
static int64_t outer_extent(MlirType t, int64_t dim) {
  int64_t n = 1;
  for (int64_t d = 0; d < dim; ++d)
    n *= mlirShapedTypeGetDimSize(t, d);
  return n;
}

static int64_t tensor_bytes(MlirType t) { return cg_num_elements(t) * cg_elem_bytes(mlirShapedTypeGetElementType(t)); }

static bool is_kind(MlirOperation op, const char *kind) {
  MlirStringRef name = braze_op_name(op);
  size_t n = strlen(kind);
  return name.length == 6 + n && strncmp(name.data, "graph.", 6) == 0 && strncmp(name.data + 6, kind, n) == 0;
}

bool cg_collective_in_place(MlirOperation op) { return is_kind(op, "all_reduce"); }

int64_t cg_collective_scratch_bytes(MlirOperation op) {
  MlirType x = mlirValueGetType(mlirOperationGetOperand(op, 0));
  MlirType y = mlirValueGetType(mlirOperationGetResult(op, 0));
  if (is_kind(op, "all_gather"))
    return outer_extent(x, int_attr(op, "dim")) > 1 ? tensor_bytes(y) : 0;
  if (is_kind(op, "reduce_scatter"))
    return outer_extent(x, int_attr(op, "dim")) > 1 ? tensor_bytes(x) : 0;
  if (is_kind(op, "all_to_all")) /* a send and a receive buffer, each of the pieces of all ranks */
    return 2 * tensor_bytes(x);
  return 0; /* all_reduce (in place or out of place), all_slice (a strided copy) */
}

static MlirAttribute i64_attr(MlirContext ctx, int64_t v) { return mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 64), v); }

bool cg_emit_collective(CgBuilder *b, MlirOperation op, MlirOperation func, MlirValue x, MlirValue y,
                        MlirValue scratch) {
  MlirContext ctx = mlirOperationGetContext(op);
  BrazeMesh mesh;
  bool present = false;
  BrazeStr why = {0};
  int axes[BRAZE_MESH_MAX_AXES], num_axes = 0;
  int64_t group = 0;
  bool ok = braze_mesh_from_func(func, &mesh, &present, &why) && present &&
            braze_collective_axes(op, &mesh, axes, &num_axes, &group, &why);
  if (!ok) {
    MlirStringRef name = braze_op_name(op);
    braze_emit_error(mlirOperationGetLocation(op), "'%.*s': %s", (int)name.length, name.data,
                     why.len ? why.data : "the function has no braze.mesh");
    braze_str_free(&why);
    return false;
  }
  int64_t axis_list[BRAZE_MESH_MAX_AXES];
  for (int i = 0; i < num_axes; ++i)
    axis_list[i] = axes[i];
  MlirStringRef name = braze_op_name(op);
  MlirStringRef kind = {name.data + 6, name.length - 6}; /* "graph." dropped */
  MlirAttribute reduction = mlirOperationGetAttributeByName(op, braze_ref("reduction"));
  bool is_unsigned = !mlirAttributeIsNull(mlirOperationGetDiscardableAttributeByName(op, braze_ref("braze.unsigned")));
  MlirNamedAttribute attrs[8] = {
      cg_named(ctx, "kind", mlirStringAttrGet(ctx, kind)),
      cg_named(ctx, "reduction", mlirAttributeIsNull(reduction) ? mlirStringAttrGet(ctx, braze_ref("none")) : reduction),
      cg_named(ctx, "axes", mlirDenseI64ArrayGet(ctx, num_axes, axis_list)),
      cg_named(ctx, "mesh_shape", mlirDenseI64ArrayGet(ctx, mesh.num_axes, mesh.sizes)),
      cg_named(ctx, "dim", i64_attr(ctx, int_attr(op, "dim"))),
      cg_named(ctx, "split_dim", i64_attr(ctx, int_attr(op, "split_dim"))),
      cg_named(ctx, "concat_dim", i64_attr(ctx, int_attr(op, "concat_dim"))),
      cg_named(ctx, "unsigned", i64_attr(ctx, is_unsigned)),
  };
  MlirValue operands[3] = {x, y, scratch};
  b->loc = mlirOperationGetLocation(op);
  cg_create(b, "kernel.collective", mlirValueIsNull(scratch) ? 2 : 3, operands, 0, NULL, 8, attrs);
  return true;
}
