/* A map from MlirValue to MlirValue by identity, for passes that clone ops and remap
 * their operands (outlining a kernel, cloning a body into a loop). Hash lookups
 * (support/ptrmap.h) instead of the linear scans each cloner kept on its own. */
#ifndef BRAZE_SUPPORT_VALUEMAP_H
#define BRAZE_SUPPORT_VALUEMAP_H

#include <stdbool.h>

#include "mlir-c/IR.h"
#include "support/ptrmap.h"

typedef struct {
  BrazePtrMap index; /* from.ptr -> slot in to */
  MlirValue *to;
  int count, cap;
} BrazeValueMap;

/* Map `from` to `to` (a later put of the same value replaces the earlier one). */
void braze_valuemap_put(BrazeValueMap *m, MlirValue from, MlirValue to);
/* What `from` maps to; false (and *to untouched) when it is not mapped. */
bool braze_valuemap_find(const BrazeValueMap *m, MlirValue from, MlirValue *to);
/* What `from` maps to, or a null value. */
MlirValue braze_valuemap_get(const BrazeValueMap *m, MlirValue from);
void braze_valuemap_free(BrazeValueMap *m);
/* An mlirOperationWalk callback (user: the map): replace every operand the map holds
 * by what it maps to, so a clone of a region op reads the cloned values. */
MlirWalkResult braze_valuemap_remap_operands(MlirOperation op, void *map);

#endif
