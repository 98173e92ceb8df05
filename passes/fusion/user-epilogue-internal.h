/* form-kernels, user kernels: what passes/fusion/user-epilogue.c (packing calls into ext kernels) and
 * passes/fusion/user-epilogue-legality.c (which consumers an output may take as its epilogue) share.
 * Not an interface outside passes/fusion_user*.c. */
#ifndef BRAZE_PASSES_FUSION_USER_EPILOGUE_INTERNAL_H
#define BRAZE_PASSES_FUSION_USER_EPILOGUE_INTERNAL_H

#include "passes/fusion/user-epilogue.h"
#include "support/ptrmap.h"

/* The module's functions by name. */
typedef struct {
  BrazePtrMap index;
  MlirOperation *ops;
  size_t count;
} Symbols;

typedef struct {
  int arg;
  MlirOperation alloc, to_tensor, copy; /* to_tensor, copy: null when absent */
  MlirOperation *chain;                 /* absorbed consumers, in order */
  size_t n_chain;
  FuOutput rec;
} Out;

typedef struct {
  MlirOperation call, callee, func, module;
  Symbols *syms;
  const UkInfo *info;
  MlirValue *tensors; /* the ext kernel's arguments */
  size_t n_tensors;
  int *arg_tensor; /* per call operand: index into tensors (inputs), or -1 */
  int *arg_out;    /* per call operand: index into outs, or -1 */
  Out *outs;
  size_t n_outs;
  MlirValue *extra; /* epilogue inputs (also in tensors), the clone's extra arguments */
  size_t n_extra;
} Pack;

/* small helpers (passes/fusion/user-epilogue.c) */
MlirOperation fu_def_of(MlirValue v);
size_t fu_num_uses(MlirValue v);
MlirOperation fu_first_user(MlirValue v);
/* The location's name (ONNX node names), or NULL; the caller frees it. */
char *fu_loc_name(MlirLocation loc);
/* The graph ops a loop-level op computes ("add,tanh"), or its op name; caller frees. */
char *fu_op_label(MlirOperation op);
/* Index of v in *list, appended when absent. */
int fu_add_value(MlirValue **list, size_t *n, MlirValue v);

/* passes/fusion/user-epilogue-legality.c: the chain of pointwise consumers output `o` absorbs (or the
 * reason each is refused, in o->rec), and the value the graph reads after the chain. */
void fu_plan_epilogue(Pack *p, Out *o, const FuOptions *opts);
MlirValue fu_final_value(const Out *o);

#endif
