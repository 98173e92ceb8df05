/* A growable list of operations, and collecting the ops under a root that pass a
 * predicate (pre-order walk: program order within a block). Passes snapshot the ops
 * they will rewrite this way before changing the IR. */
#ifndef BRAZE_SUPPORT_OPLIST_H
#define BRAZE_SUPPORT_OPLIST_H

#include <stdbool.h>
#include <stddef.h>

#include "mlir-c/IR.h"

typedef struct {
  MlirOperation *ops;
  size_t count, cap;
} BrazeOpList;

void braze_op_list_push(BrazeOpList *list, MlirOperation op);
void braze_op_list_free(BrazeOpList *list);
/* Append every op under `root` (root included) for which `keep` is true. */
void braze_op_list_collect(MlirOperation root, bool (*keep)(MlirOperation), BrazeOpList *list);

#endif
