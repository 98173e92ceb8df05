/* The CPU target's OpenMP schedules. convert-scf-to-openmp gives every omp.wsloop no
 * schedule clause: libomp's static schedule, one contiguous equal share per thread,
 * fixed before the loop runs. When one thread is delayed (a shared or virtual machine
 * takes its core for a while) the other waits for it at the loop's closing barrier.
 * cpu-codegen{schedule=dynamic|guided} marks the kernel functions whose parallel loop
 * runs heavy, equal iterations (the matmul template's blocks) with
 * braze.omp_schedule = "dynamic" | "guided"; between convert-scf-to-openmp and
 * convert-openmp-to-llvm every omp.wsloop inside such a function gets that schedule
 * (threads take the next iteration as they finish one: dynamic one at a time, guided
 * in shrinking chunks). Other kernels (many light iterations: pointwise rows, copies)
 * keep static, where a dispatch per iteration would cost more than it balances. */
#include <stdio.h>
#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "support/context.h"
#include "support/diag.h"
#include "targets/cpu/cpu-target.h"

typedef struct {
  MlirAttribute kind; /* #omp<schedulekind ...> */
} ScheduleWalk;

static MlirWalkResult set_schedule(MlirOperation op, void *user) {
  const ScheduleWalk *w = user;
  if (braze_op_is(op, "omp.wsloop"))
    mlirOperationSetAttributeByName(op, braze_ref("schedule_kind"), w->kind);
  return MlirWalkResultAdvance;
}

const char *const braze_cpu_schedule_names[3] = {"static", "dynamic", "guided"};

/* The #omp<schedulekind> attribute for a braze.omp_schedule value, or null. */
static MlirAttribute schedule_kind(MlirContext ctx, MlirStringRef value) {
  for (int i = 0; i < 3; ++i)
    if (braze_ref_eq(value, braze_cpu_schedule_names[i])) {
      char text[64];
      snprintf(text, sizeof text, "#omp<schedulekind %s>", braze_cpu_schedule_names[i]);
      return mlirAttributeParseGet(ctx, braze_ref(text));
    }
  return (MlirAttribute){NULL};
}

bool braze_cpu_apply_schedules(MlirOperation module) {
  MlirContext ctx = mlirOperationGetContext(module);
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  bool ok = true;
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    MlirAttribute mark = mlirOperationGetAttributeByName(op, braze_ref(BRAZE_CPU_SCHEDULE_ATTR));
    if (mlirAttributeIsNull(mark))
      continue;
    ScheduleWalk w = {mlirAttributeIsAString(mark) ? schedule_kind(ctx, mlirStringAttrGetValue(mark))
                                                   : (MlirAttribute){NULL}};
    if (mlirAttributeIsNull(w.kind)) {
      braze_emit_error(mlirOperationGetLocation(op),
                       "cpu target: " BRAZE_CPU_SCHEDULE_ATTR " expects \"static\", \"dynamic\" or \"guided\"");
      ok = false;
      continue;
    }
    mlirOperationWalk(op, set_schedule, &w, MlirWalkPreOrder);
  }
  return ok;
}
