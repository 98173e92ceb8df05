/* Thread-dependent values, divergent barriers and divergent shuffles of GPU-form user
 * kernels (targets/common/gpu-uniform.h). A forward taint over the body, repeated until
 * nothing changes (loop-carried values take their yields' taint on the next round). At
 * the block level (barriers) every thread id is a seed; at the warp level (shuffles) a
 * value the 32 lanes of each warp agree on is not: thread ids y and z when warps do not
 * straddle rows (block x a multiple of 32, or a 1-D block), and the warp index or a
 * warp-granular test computed directly from thread id x (x / c, x >> k, x < c, x >= c
 * for a constant c a multiple of 32, k >= 5). */
#include "targets/common/gpu-uniform.h"

#include <string.h>

#include "support/context.h"
#include "mlir-c/BuiltinAttributes.h"
#include "support/ptrmap.h"
#include "support/strbuf.h"

typedef struct {
  BrazePtrMap tainted; /* value ptr -> 1 */
  bool changed;
  bool warp;       /* the warp level (shuffles), else the block level (barriers) */
  bool warp_rows;  /* warps do not straddle rows: block x % 32 == 0 or a 1-D block */
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

static bool constant_int(MlirValue v, int64_t *out) {
  if (!mlirValueIsAOpResult(v) || !braze_op_is(mlirOpResultGetOwner(v), "arith.constant"))
    return false;
  MlirAttribute a = mlirOperationGetAttributeByName(mlirOpResultGetOwner(v), braze_ref("value"));
  if (!mlirAttributeIsAInteger(a))
    return false;
  *out = mlirIntegerAttrGetValueInt(a);
  return true;
}

static bool is_thread_x(MlirValue v) {
  if (!mlirValueIsAOpResult(v) || !braze_op_is(mlirOpResultGetOwner(v), "gpu.thread_id"))
    return false;
  MlirAttribute d = mlirOperationGetAttributeByName(mlirOpResultGetOwner(v), braze_ref("dimension"));
  BrazeStr s = {0};
  mlirAttributePrint(d, braze_str_callback, &s);
  bool x = strstr(braze_str_cstr(&s), "x") != NULL;
  braze_str_free(&s);
  return x;
}

/* A seed of the taint at this level. */
static bool seed(const Taint *t, MlirOperation op) {
  if (braze_op_is(op, "gpu.shuffle") || braze_op_is(op, "gpu.lane_id") || braze_op_is(op, "memref.atomic_rmw") ||
      braze_op_is(op, "memref.generic_atomic_rmw"))
    return true;
  if (!braze_op_is(op, "gpu.thread_id"))
    return false;
  return !t->warp || !t->warp_rows || is_thread_x(mlirOperationGetResult(op, 0));
}

/* At the warp level: the same for the 32 lanes of each warp although thread id x is an
 * operand (x / 32c, x >> k for k >= 5, x < 32c, x >= 32c). */
static bool warp_uniform(const Taint *t, MlirOperation op) {
  if (!t->warp || !t->warp_rows || mlirOperationGetNumOperands(op) != 2 ||
      !is_thread_x(mlirOperationGetOperand(op, 0)))
    return false;
  int64_t c;
  if (!constant_int(mlirOperationGetOperand(op, 1), &c) || c <= 0)
    return false;
  if (braze_op_is(op, "arith.divui") || braze_op_is(op, "arith.divsi"))
    return c % 32 == 0;
  if (braze_op_is(op, "arith.shrui") || braze_op_is(op, "arith.shrsi"))
    return c >= 5;
  if (!braze_op_is(op, "arith.cmpi") || c % 32 != 0)
    return false;
  int64_t pred = mlirIntegerAttrGetValueInt(mlirOperationGetAttributeByName(op, braze_ref("predicate")));
  return pred == 2 || pred == 5 || pred == 6 || pred == 9; /* slt, sge, ult, uge */
}

static MlirWalkResult taint_op(MlirOperation op, void *user) {
  Taint *t = user;
  if (warp_uniform(t, op))
    return MlirWalkResultAdvance;
  if (seed(t, op)) {
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
  const char *op_name; /* gpu.barrier, gpu.shuffle */
  BrazeDivergentBarrier *out;
  bool found;
} Find;

static MlirWalkResult find_barrier(MlirOperation op, void *user) {
  Find *f = user;
  if (!braze_op_is(op, f->op_name))
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

static bool divergent(MlirOperation func, const char *op_name, bool warp, const int64_t block[3],
                      BrazeDivergentBarrier *out) {
  Taint t;
  memset(&t, 0, sizeof t);
  t.warp = warp;
  t.warp_rows = block && (block[0] % 32 == 0 || block[1] * block[2] == 1);
  for (int round = 0; round < 64; ++round) {
    t.changed = false;
    mlirOperationWalk(func, taint_op, &t, MlirWalkPreOrder);
    if (!t.changed)
      break;
  }
  Find f = {.t = &t, .func = func, .op_name = op_name, .out = out};
  mlirOperationWalk(func, find_barrier, &f, MlirWalkPreOrder);
  braze_ptrmap_free(&t.tainted);
  return f.found;
}

bool braze_gpu_divergent_barrier(MlirOperation func, BrazeDivergentBarrier *out) {
  return divergent(func, "gpu.barrier", false, NULL, out);
}

bool braze_gpu_divergent_shuffle(MlirOperation func, const int64_t block[3], BrazeDivergentBarrier *out) {
  return divergent(func, "gpu.shuffle", true, block, out);
}
