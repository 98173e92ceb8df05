/* Dynamic shared memory of GPU-form user kernels (passes/fusion/user-kernel-effects.h):
 * the launch's `shared_bytes` and the views into it, which the form check, the CPU
 * target (one buffer per view and block) and the CUDA target (the launch's dynamic
 * shared memory size) read. */
#include <stdio.h>

#include "ir/build.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "passes/fusion/user-kernel-effects.h"
#include "support/context.h"

int64_t uk_gpu_shared_bytes(MlirOperation func) {
  MlirAttribute launch = mlirOperationGetAttributeByName(func, braze_ref("braze.gpu_launch"));
  if (mlirAttributeIsNull(launch) || !mlirAttributeIsADictionary(launch))
    return 0;
  MlirAttribute a = mlirDictionaryAttrGetElementByName(launch, braze_ref("shared_bytes"));
  if (mlirAttributeIsNull(a))
    return 0;
  if (!mlirAttributeIsAInteger(a) || mlirIntegerAttrGetValueInt(a) < 1)
    return -1;
  return mlirIntegerAttrGetValueInt(a);
}

/* The constant an index operand is, or false. */
static bool constant_index(MlirValue v, int64_t *out) {
  if (!mlirValueIsAOpResult(v) || !braze_op_is(mlirOpResultGetOwner(v), "arith.constant"))
    return false;
  MlirAttribute c = mlirOperationGetAttributeByName(mlirOpResultGetOwner(v), braze_ref("value"));
  if (!mlirAttributeIsAInteger(c))
    return false;
  *out = mlirIntegerAttrGetValueInt(c);
  return true;
}

typedef struct {
  MlirOperation func;
  MlirBlock entry;
  int64_t bytes;
  UkSharedView *views;
  int n;
  MlirOperation bad;
  char *why;
  size_t why_len;
} Views;

static bool view_fail(Views *v, MlirOperation op, const char *msg) {
  v->bad = op;
  snprintf(v->why, v->why_len, "%s", msg);
  return false;
}

/* One memref.view of the dynamic shared memory: its constant range and static type. */
static bool add_view(Views *v, MlirOperation view) {
  char msg[256];
  if (!mlirBlockEqual(mlirOperationGetBlock(view), v->entry))
    return view_fail(v, view, "memref.view of gpu.dynamic_shared_memory must be at the top level of the body");
  if (v->n == UK_MAX_SHARED_VIEWS)
    return view_fail(v, view, "more than 16 views of gpu.dynamic_shared_memory");
  MlirType t = mlirValueGetType(mlirOperationGetResult(view, 0));
  intptr_t rank = mlirShapedTypeGetRank(t);
  int64_t shape[8], offset, next = 2;
  int64_t elem = cg_elem_bytes(mlirShapedTypeGetElementType(t));
  if (rank > 8 || elem <= 0 || !constant_index(mlirOperationGetOperand(view, 1), &offset))
    return view_fail(v, view, "memref.view of gpu.dynamic_shared_memory needs a constant byte offset, rank at most 8 "
                              "and an int or float element type");
  int64_t numel = 1;
  for (intptr_t d = 0; d < rank; ++d) {
    shape[d] = mlirShapedTypeGetDimSize(t, d);
    if (mlirShapedTypeIsDynamicDim(t, d) && (next >= mlirOperationGetNumOperands(view) ||
                                              !constant_index(mlirOperationGetOperand(view, next++), &shape[d])))
      return view_fail(v, view, "memref.view of gpu.dynamic_shared_memory needs constant sizes");
    if (shape[d] < 0)
      return view_fail(v, view, "memref.view of gpu.dynamic_shared_memory has a negative size");
    numel *= shape[d];
  }
  int64_t bytes = numel * elem;
  if (offset < 0 || offset % elem || offset + bytes > v->bytes) {
    snprintf(msg, sizeof msg,
             "memref.view of gpu.dynamic_shared_memory at bytes [%lld, %lld) is outside the %lld bytes of "
             "braze.gpu_launch shared_bytes or not aligned to its element (%lld bytes)",
             (long long)offset, (long long)(offset + bytes), (long long)v->bytes, (long long)elem);
    return view_fail(v, view, msg);
  }
  for (int i = 0; i < v->n; ++i)
    if (offset < v->views[i].offset + v->views[i].bytes && v->views[i].offset < offset + bytes && bytes &&
        v->views[i].bytes) {
      snprintf(msg, sizeof msg,
               "memref.view of gpu.dynamic_shared_memory at bytes [%lld, %lld) overlaps another view's [%lld, %lld) "
               "(views must be disjoint)",
               (long long)offset, (long long)(offset + bytes), (long long)v->views[i].offset,
               (long long)(v->views[i].offset + v->views[i].bytes));
      return view_fail(v, view, msg);
    }
  MlirType st = mlirMemRefTypeGet(mlirShapedTypeGetElementType(t), rank, shape, mlirAttributeGetNull(),
                                  mlirMemRefTypeGetMemorySpace(t));
  v->views[v->n++] = (UkSharedView){.view = view, .offset = offset, .bytes = bytes, .type = st};
  return true;
}

static MlirWalkResult visit(MlirOperation op, void *user) {
  Views *v = user;
  if (!braze_op_is(op, "gpu.dynamic_shared_memory"))
    return MlirWalkResultAdvance;
  if (v->bytes <= 0) {
    view_fail(v, op, "gpu.dynamic_shared_memory needs braze.gpu_launch shared_bytes = N (its size in bytes, a "
                     "positive integer)");
    return MlirWalkResultInterrupt;
  }
  if (!mlirBlockEqual(mlirOperationGetBlock(op), v->entry)) {
    view_fail(v, op, "gpu.dynamic_shared_memory must be at the top level of the body");
    return MlirWalkResultInterrupt;
  }
  MlirValue r = mlirOperationGetResult(op, 0);
  for (MlirOpOperand u = mlirValueGetFirstUse(r); !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u)) {
    MlirOperation user_op = mlirOpOperandGetOwner(u);
    if (!braze_op_is(user_op, "memref.view") || mlirOpOperandGetOperandNumber(u) != 0) {
      view_fail(v, user_op, "gpu.dynamic_shared_memory may only be used by memref.view");
      return MlirWalkResultInterrupt;
    }
    if (!mlirBlockEqual(mlirOperationGetBlock(user_op), v->entry)) {
      add_view(v, user_op); /* fails: below the top level */
      return MlirWalkResultInterrupt;
    }
  }
  /* the views in body order (a use list is in no useful order) */
  for (MlirOperation o = mlirOperationGetNextInBlock(op); !mlirOperationIsNull(o); o = mlirOperationGetNextInBlock(o))
    if (braze_op_is(o, "memref.view") && mlirValueEqual(mlirOperationGetOperand(o, 0), r) && !add_view(v, o))
      return MlirWalkResultInterrupt;
  return MlirWalkResultAdvance;
}

bool uk_shared_views(MlirOperation func, UkSharedView views[UK_MAX_SHARED_VIEWS], int *n, MlirOperation *bad,
                     char *why, size_t why_len) {
  Views v = {.func = func,
             .entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0)),
             .bytes = uk_gpu_shared_bytes(func),
             .views = views,
             .why = why,
             .why_len = why_len};
  why[0] = 0;
  mlirOperationWalk(func, visit, &v, MlirWalkPreOrder);
  *n = v.n;
  *bad = v.bad;
  return !v.bad.ptr;
}
