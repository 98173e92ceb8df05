/* Thread-dependent values and divergent barriers of GPU-form user kernels
 * (targets/common/gpu-uniform.h). A forward taint over the body, repeated until nothing
 * changes (loop-carried values take their yields' taint on the next round). */
#include "targets/common/gpu-uniform.h"

#include <string.h>

#include "support/context.h"
#include "support/ptrmap.h"

typedef struct {
  BrazePtrMap tainted; /* value ptr -> 1 */
  bool changed;
} Taint;

static bool is_tainted(const Taint *t, MlirValue v) {
  return braze_ptrmap_get(&t->tainted, braze_ptr_key(v.ptr), 0) != 0;
}

static void taint(Taint *t, MlirValue v) {
  if (is_tainted(t, v))
    return;
  braze_ptrmap_put(&t->tainted, braze_ptr_key(v.ptr), 1);
  t->changed = true;
}

static MlirOperation terminator(MlirOperation op, intptr_t region) {
  MlirBlock b = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, region));
  return mlirBlockGetTerminator(b);
}

static bool any_operand_tainted(const Taint *t, MlirOperation op) {
  for (intptr_t i = 0, n = mlirOperationGetNumOperands(op); i < n; ++i)
    if (is_tainted(t, mlirOperationGetOperand(op, i)))
      return true;
  return false;
}

/* scf.for: the iv when a bound is tainted; iter_arg i and result i when its init or
 * yield is (or a bound is: the trip count differs). */
static void taint_for(Taint *t, MlirOperation op) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0));
  MlirOperation yield = mlirBlockGetTerminator(body);
  bool bounds = is_tainted(t, mlirOperationGetOperand(op, 0)) || is_tainted(t, mlirOperationGetOperand(op, 1)) ||
                is_tainted(t, mlirOperationGetOperand(op, 2));
  if (bounds)
    taint(t, mlirBlockGetArgument(body, 0));
  for (intptr_t i = 0, n = mlirOperationGetNumResults(op); i < n; ++i)
    if (bounds || is_tainted(t, mlirOperationGetOperand(op, 3 + i)) || is_tainted(t, mlirOperationGetOperand(yield, i))) {
      taint(t, mlirBlockGetArgument(body, 1 + i));
      taint(t, mlirOperationGetResult(op, i));
    }
}

/* scf.if: result i when the condition or a branch's yield i is. */
static void taint_if(Taint *t, MlirOperation op) {
  bool cond = is_tainted(t, mlirOperationGetOperand(op, 0));
  for (intptr_t i = 0, n = mlirOperationGetNumResults(op); i < n; ++i) {
    bool y = cond;
    for (intptr_t r = 0; r < 2 && !y; ++r) {
      MlirBlock b = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, r));
      y = !mlirBlockIsNull(b) && is_tainted(t, mlirOperationGetOperand(mlirBlockGetTerminator(b), i));
    }
    if (y)
      taint(t, mlirOperationGetResult(op, i));
  }
}

/* scf.while: before-arg i from init i and the after region's yield i; when the
 * condition is tainted every after-arg and result; else after-arg and result i from
 * scf.condition's arg i. */
static void taint_while(Taint *t, MlirOperation op) {
  MlirBlock before = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0));
  MlirBlock after = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 1));
  MlirOperation cond = terminator(op, 0), yield = terminator(op, 1);
  for (intptr_t i = 0, n = mlirBlockGetNumArguments(before); i < n; ++i)
    if (is_tainted(t, mlirOperationGetOperand(op, i)) || is_tainted(t, mlirOperationGetOperand(yield, i)))
      taint(t, mlirBlockGetArgument(before, i));
  bool c = is_tainted(t, mlirOperationGetOperand(cond, 0));
  for (intptr_t i = 0, n = mlirOperationGetNumResults(op); i < n; ++i)
    if (c || is_tainted(t, mlirOperationGetOperand(cond, 1 + i))) {
      taint(t, mlirBlockGetArgument(after, i));
      taint(t, mlirOperationGetResult(op, i));
    }
}

static MlirWalkResult taint_op(MlirOperation op, void *user) {
  Taint *t = user;
  if (braze_op_is(op, "gpu.thread_id") || braze_op_is(op, "gpu.shuffle") || braze_op_is(op, "gpu.lane_id") ||
      braze_op_is(op, "memref.atomic_rmw") || braze_op_is(op, "memref.generic_atomic_rmw")) {
    for (intptr_t i = 0, n = mlirOperationGetNumResults(op); i < n; ++i)
      taint(t, mlirOperationGetResult(op, i));
  } else if (braze_op_is(op, "scf.for")) {
    taint_for(t, op);
  } else if (braze_op_is(op, "scf.if")) {
    taint_if(t, op);
  } else if (braze_op_is(op, "scf.while")) {
    taint_while(t, op);
  } else if (any_operand_tainted(t, op)) {
    /* any other op: every result (and region argument) from any operand */
    for (intptr_t i = 0, n = mlirOperationGetNumResults(op); i < n; ++i)
      taint(t, mlirOperationGetResult(op, i));
    for (intptr_t r = 0, nr = mlirOperationGetNumRegions(op); r < nr; ++r)
      for (MlirBlock b = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, r)); !mlirBlockIsNull(b);
           b = mlirBlockGetNextInRegion(b))
        for (intptr_t a = 0, na = mlirBlockGetNumArguments(b); a < na; ++a)
          taint(t, mlirBlockGetArgument(b, a));
  }
  return MlirWalkResultAdvance;
}

typedef struct {
  const Taint *t;
  MlirOperation func;
  BrazeDivergentBarrier *out;
  bool found;
} Find;

static MlirWalkResult find_barrier(MlirOperation op, void *user) {
  Find *f = user;
  if (!braze_op_is(op, "gpu.barrier"))
    return MlirWalkResultAdvance;
  for (MlirOperation p = mlirOperationGetParentOperation(op); !mlirOperationIsNull(p) && !mlirOperationEqual(p, f->func);
       p = mlirOperationGetParentOperation(p)) {
    const char *what = NULL;
    if (braze_op_is(p, "scf.if") && is_tainted(f->t, mlirOperationGetOperand(p, 0)))
      what = "an scf.if whose condition depends";
    else if (braze_op_is(p, "scf.for") &&
             (is_tainted(f->t, mlirOperationGetOperand(p, 0)) || is_tainted(f->t, mlirOperationGetOperand(p, 1)) ||
              is_tainted(f->t, mlirOperationGetOperand(p, 2))))
      what = "an scf.for whose bounds depend";
    else if (braze_op_is(p, "scf.while") && is_tainted(f->t, mlirOperationGetOperand(terminator(p, 0), 0)))
      what = "an scf.while whose condition depends";
    if (what) {
      *f->out = (BrazeDivergentBarrier){.barrier = op, .branch = p, .what = what};
      f->found = true;
      return MlirWalkResultInterrupt;
    }
  }
  return MlirWalkResultAdvance;
}

bool braze_gpu_divergent_barrier(MlirOperation func, BrazeDivergentBarrier *out) {
  Taint t;
  memset(&t, 0, sizeof t);
  for (int round = 0; round < 64; ++round) {
    t.changed = false;
    mlirOperationWalk(func, taint_op, &t, MlirWalkPreOrder);
    if (!t.changed)
      break;
  }
  Find f = {.t = &t, .func = func, .out = out};
  mlirOperationWalk(func, find_barrier, &f, MlirWalkPreOrder);
  braze_ptrmap_free(&t.tainted);
  return f.found;
}
