/* form-kernels, user kernels (docs/user-kernels.md, decision 0006). Before the fusion
 * graph is built, every call of a user kernel in a graph function, written as
 *
 *   %xb = bufferization.to_buffer %x : tensor<..> to memref<..>    (inputs)
 *   %o = memref.alloc() : memref<..>                              (outputs, uninitialized)
 *   [memref.copy %rb, %o]                                         (optional: pre-initialized)
 *   func.call @k(%xb, ..., %o, ...) : (memref<..>, ...) -> ()
 *   %r = bufferization.to_tensor %o : memref<..> to tensor<..>
 *
 * is packed into an `ext` kernel function (tensors in, tensors out; the same ops
 * inside) and one func.call of it. Each output may first absorb its pointwise
 * consumers (user-kernel epilogue fusion): the chain of all-parallel generics that
 * alone read it is cloned at every store site of that output inside a copy of the
 * user kernel (@k_epilogue_N), reading their other inputs at the stored position; the
 * intermediate tensor disappears. Refusals are named reasons (see fu_reason docs in
 * passes/fusion/user-epilogue.c and docs/user-kernels.md). */
#ifndef BRAZE_PASSES_FUSION_USER_EPILOGUE_H
#define BRAZE_PASSES_FUSION_USER_EPILOGUE_H

#include <stdbool.h>
#include <stddef.h>

#include "mlir-c/IR.h"
#include "passes/fusion/user-kernel-effects.h"
#include "support/strbuf.h"

typedef struct {
  char *consumer;     /* the consumer's graph ops ("add,tanh") or op name */
  MlirLocation loc;   /* the consumer's location */
  char *loc_name;     /* its NameLoc name (an ONNX node name), or NULL */
  const char *reason; /* NULL: fused */
} FuEpilogue;

typedef struct {
  int arg; /* the output argument */
  FuEpilogue *eps;
  size_t num_eps;
} FuOutput;

typedef struct {
  char *callee, *kernel, *clone; /* clone: NULL when no epilogue was fused */
  MlirLocation loc;
  char *loc_name;
  char *analysis; /* uk_info_print of the callee */
  FuOutput *outs;
  size_t num_outs;
} FuCall;

typedef struct {
  FuCall *calls;
  size_t count;
} FuRecords;

typedef struct {
  bool disable;          /* form-kernels{disable}: no epilogue fusion either */
  bool no_user_epilogue; /* form-kernels{no-user-epilogue} */
  const char *target;    /* kernel name prefix */
} FuOptions;

/* Pack every user-kernel call of graph function `func` (see above). `next_index`
 * numbers kernels across the module. False after an error at the call (a malformed
 * call or user kernel); nothing is left half rewritten for that call. */
bool fu_form_user_kernels(MlirOperation func, const FuOptions *o, int *next_index, UkCache *cache, FuRecords *rec);
/* The report's user-kernel section (nothing when there were no user-kernel calls). */
void fu_report_text(BrazeStr *out, const FuRecords *rec, MlirOperation func);
/* explain=A,B: a remark per (user kernel, consumer) pair where one names the user
 * kernel (callee or NameLoc) and the other the consumer (graph op or NameLoc). */
void fu_explain(const FuRecords *rec, const char *a, const char *b);
void fu_records_free(FuRecords *rec);

/* passes/fusion/user-epilogue-clone.c: in `clone` (a copy of a user kernel), replace every store
 * to argument `out` of value v by a store of chain(v): the generics `chain` applied in
 * order, `first` reading v (operand `input` the value it stands for); operands of the
 * chain in `extra` (n_extra tensors) are read from the clone's arguments
 * extra_arg0.. at the store's indices through their indexing maps. Vector stores
 * are done lane by lane. */
void fu_apply_epilogue(MlirOperation clone, int out, const MlirOperation *chain, size_t n_chain, MlirValue input,
                       const MlirValue *extra, size_t n_extra, int extra_arg0);

#endif
