/* graph-simplify cse: merge graph ops that compute the same value.
 *
 * Upstream cse skips IRDL ops (no side-effect information), so braze walks each
 * block in order with a hash table of the graph ops seen so far. Two ops are the
 * same when they have the same name, operands (in order), attribute dictionary and
 * result types: every one of those is uniqued by MLIR, so pointers identify them.
 * func.call (user kernels) are left alone (their bodies are the user's). Each block has its
 * own table: an op is merged only into an earlier op of the same block. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dialects/graph/graph.h"
#include "passes/graph/simplify.h"
#include "support/context.h"

typedef struct {
  MlirOperation *slots; /* open addressing; null op = empty */
  size_t cap;           /* a power of two */
  size_t count;
} OpTable;

static uint64_t mix(uint64_t h, const void *p) {
  h ^= (uint64_t)(uintptr_t)p + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
  return h;
}

static uint64_t op_hash(MlirOperation op) {
  uint64_t h = mix(0, mlirOperationGetName(op).ptr);
  for (intptr_t i = 0, n = mlirOperationGetNumOperands(op); i < n; ++i)
    h = mix(h, mlirOperationGetOperand(op, i).ptr);
  for (intptr_t i = 0, n = mlirOperationGetNumAttributes(op); i < n; ++i) {
    MlirNamedAttribute a = mlirOperationGetAttribute(op, i);
    h = mix(mix(h, a.name.ptr), a.attribute.ptr);
  }
  for (intptr_t i = 0, n = mlirOperationGetNumResults(op); i < n; ++i)
    h = mix(h, mlirValueGetType(mlirOperationGetResult(op, i)).ptr);
  return h;
}

static bool ops_equivalent(MlirOperation a, MlirOperation b) {
  if (!mlirIdentifierEqual(mlirOperationGetName(a), mlirOperationGetName(b)) ||
      mlirOperationGetNumOperands(a) != mlirOperationGetNumOperands(b) ||
      mlirOperationGetNumAttributes(a) != mlirOperationGetNumAttributes(b) ||
      mlirOperationGetNumResults(a) != mlirOperationGetNumResults(b) ||
      mlirOperationGetNumRegions(a) != 0 || mlirOperationGetNumRegions(b) != 0)
    return false;
  for (intptr_t i = 0, n = mlirOperationGetNumOperands(a); i < n; ++i)
    if (!mlirValueEqual(mlirOperationGetOperand(a, i), mlirOperationGetOperand(b, i)))
      return false;
  /* The attribute dictionary is sorted by name, so positions line up. */
  for (intptr_t i = 0, n = mlirOperationGetNumAttributes(a); i < n; ++i) {
    MlirNamedAttribute x = mlirOperationGetAttribute(a, i), y = mlirOperationGetAttribute(b, i);
    if (!mlirIdentifierEqual(x.name, y.name) || !mlirAttributeEqual(x.attribute, y.attribute))
      return false;
  }
  for (intptr_t i = 0, n = mlirOperationGetNumResults(a); i < n; ++i)
    if (!mlirTypeEqual(mlirValueGetType(mlirOperationGetResult(a, i)), mlirValueGetType(mlirOperationGetResult(b, i))))
      return false;
  return true;
}

static void table_grow(OpTable *t);

/* The slot holding an op equivalent to `op`, or the empty slot where it goes. */
static MlirOperation *table_find(OpTable *t, MlirOperation op) {
  size_t mask = t->cap - 1;
  for (size_t i = op_hash(op) & mask;; i = (i + 1) & mask)
    if (mlirOperationIsNull(t->slots[i]) || ops_equivalent(t->slots[i], op))
      return &t->slots[i];
}

static void table_insert(OpTable *t, MlirOperation *slot, MlirOperation op) {
  *slot = op;
  if (++t->count * 2 > t->cap)
    table_grow(t);
}

static void table_grow(OpTable *t) {
  OpTable bigger = {calloc(t->cap * 2, sizeof *t->slots), t->cap * 2, 0};
  for (size_t i = 0; i < t->cap; ++i) {
    if (mlirOperationIsNull(t->slots[i]))
      continue;
    *table_find(&bigger, t->slots[i]) = t->slots[i];
    bigger.count++;
  }
  free(t->slots);
  *t = bigger;
}

static bool cse_candidate(MlirOperation op) {
  return braze_is_graph_op(op);
}

static size_t cse_region(MlirRegion region, SimplifyRun *run);

static size_t cse_block(MlirBlock block, SimplifyRun *run) {
  OpTable table = {calloc(16, sizeof(MlirOperation)), 16, 0};
  size_t merged = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(block), next; !mlirOperationIsNull(op); op = next) {
    next = mlirOperationGetNextInBlock(op);
    for (intptr_t r = 0, n = mlirOperationGetNumRegions(op); r < n; ++r)
      merged += cse_region(mlirOperationGetRegion(op, r), run);
    if (!cse_candidate(op))
      continue;
    MlirOperation *slot = table_find(&table, op);
    if (mlirOperationIsNull(*slot)) {
      table_insert(&table, slot, op);
      continue;
    }
    char detail[96];
    MlirStringRef name = braze_op_name(op);
    snprintf(detail, sizeof detail, "merged into an identical %.*s", (int)name.length, name.data);
    simplify_applied(run, mlirOperationGetLocation(op), RULE_CSE, detail);
    for (intptr_t i = 0, n = mlirOperationGetNumResults(op); i < n; ++i)
      mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(op, i), mlirOperationGetResult(*slot, i));
    mlirOperationDestroy(op);
    merged++;
  }
  free(table.slots);
  return merged;
}

static size_t cse_region(MlirRegion region, SimplifyRun *run) {
  size_t merged = 0;
  for (MlirBlock b = mlirRegionGetFirstBlock(region); !mlirBlockIsNull(b); b = mlirBlockGetNextInRegion(b))
    merged += cse_block(b, run);
  return merged;
}

size_t simplify_cse(MlirOperation root, SimplifyRun *run) {
  size_t merged = 0;
  for (intptr_t r = 0, n = mlirOperationGetNumRegions(root); r < n; ++r)
    merged += cse_region(mlirOperationGetRegion(root, r), run);
  return merged;
}
