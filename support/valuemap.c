#include "support/valuemap.h"

#include "support/grow.h"

void braze_valuemap_put(BrazeValueMap *m, MlirValue from, MlirValue to) {
  int slot = braze_ptrmap_get(&m->index, braze_ptr_key(from.ptr), -1);
  if (slot < 0) {
    m->to = braze_grow(m->to, (size_t)m->count, &m->cap, sizeof *m->to, 16);
    slot = m->count++;
    braze_ptrmap_put(&m->index, braze_ptr_key(from.ptr), slot);
  }
  m->to[slot] = to;
}

bool braze_valuemap_find(const BrazeValueMap *m, MlirValue from, MlirValue *to) {
  int slot = braze_ptrmap_get(&m->index, braze_ptr_key(from.ptr), -1);
  if (slot < 0)
    return false;
  *to = m->to[slot];
  return true;
}

MlirValue braze_valuemap_get(const BrazeValueMap *m, MlirValue from) {
  MlirValue to = {NULL};
  braze_valuemap_find(m, from, &to);
  return to;
}

void braze_valuemap_free(BrazeValueMap *m) {
  braze_ptrmap_free(&m->index);
  free(m->to);
  m->to = NULL;
  m->count = m->cap = 0;
}

MlirWalkResult braze_valuemap_remap_operands(MlirOperation op, void *map) {
  const BrazeValueMap *m = map;
  for (intptr_t i = 0, n = mlirOperationGetNumOperands(op); i < n; ++i) {
    MlirValue to;
    if (braze_valuemap_find(m, mlirOperationGetOperand(op, i), &to))
      mlirOperationSetOperand(op, i, to);
  }
  return MlirWalkResultAdvance;
}
