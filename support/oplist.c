#include "support/oplist.h"

#include <stdio.h>
#include <stdlib.h>

void braze_op_list_push(BrazeOpList *list, MlirOperation op) {
  if (list->count == list->cap) {
    list->cap = list->cap ? 2 * list->cap : 32;
    list->ops = realloc(list->ops, list->cap * sizeof *list->ops);
    if (!list->ops) {
      fputs("braze: out of memory\n", stderr);
      abort();
    }
  }
  list->ops[list->count++] = op;
}

void braze_op_list_free(BrazeOpList *list) {
  free(list->ops);
  *list = (BrazeOpList){0};
}

typedef struct {
  bool (*keep)(MlirOperation);
  BrazeOpList *list;
} Collector;

static MlirWalkResult collect(MlirOperation op, void *data) {
  Collector *c = data;
  if (c->keep(op))
    braze_op_list_push(c->list, op);
  return MlirWalkResultAdvance;
}

void braze_op_list_collect(MlirOperation root, bool (*keep)(MlirOperation), BrazeOpList *list) {
  Collector c = {keep, list};
  mlirOperationWalk(root, collect, &c, MlirWalkPreOrder);
}
