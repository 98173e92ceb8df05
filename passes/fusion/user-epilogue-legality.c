/* form-kernels, user kernels: epilogue legality. Which pointwise consumers of a user
 * kernel's output may be cloned at its store sites (the reasons are listed in
 * passes/fusion/user-epilogue.c's header comment, in the order they are checked). */
#include "passes/fusion/user-epilogue-internal.h"

#include <stdlib.h>
#include <string.h>

#include "mlir-c/AffineMap.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "support/context.h"
#include "support/diag.h"

static const char *kernel_reason(const FuOptions *o, const UkArg *a, const Out *out) {
  if (o->disable)
    return "disabled";
  if (o->no_user_epilogue)
    return "user-epilogue-disabled";
  if (a->read)
    return "reads-output";
  if (a->atomic)
    return "atomic-output";
  if (a->escapes)
    return "escaping-output";
  for (size_t s = 0; s < a->num_stores; ++s)
    if (a->stores[s].kind == UK_STORE_OTHER)
      return "masked-store";
  if (out->copy.ptr)
    return "initialized-output";
  return NULL;
}

static bool all_parallel(MlirOperation g) {
  MlirAttribute its = mlirOperationGetAttributeByName(g, braze_ref("iterator_types"));
  for (intptr_t i = 0; !mlirAttributeIsNull(its) && i < mlirArrayAttrGetNumElements(its); ++i) {
    BrazeStr s = {0};
    mlirAttributePrint(mlirArrayAttrGetElement(its, i), braze_str_callback, &s);
    bool par = strstr(braze_str_cstr(&s), "parallel") != NULL;
    braze_str_free(&s);
    if (!par)
      return false;
  }
  return true;
}

static MlirAffineMap map_of(MlirOperation g, intptr_t k) {
  MlirAttribute maps = mlirOperationGetAttributeByName(g, braze_ref("indexing_maps"));
  return mlirAffineMapAttrGetValue(mlirArrayAttrGetElement(maps, k));
}

typedef struct {
  MlirBlock body;
  bool captures;
} CaptureCheck;

static bool in_block_tree(MlirBlock body, MlirValue v) {
  MlirBlock owner = mlirValueIsABlockArgument(v) ? mlirBlockArgumentGetOwner(v)
                                                 : mlirOperationGetBlock(mlirOpResultGetOwner(v));
  return mlirBlockEqual(owner, body);
}

static MlirWalkResult check_captures(MlirOperation op, void *user) {
  CaptureCheck *c = user;
  if (braze_op_is(op, "linalg.generic") || braze_op_is(op, "linalg.yield"))
    return MlirWalkResultAdvance;
  MlirStringRef name = braze_op_name(op);
  if (mlirOperationGetNumRegions(op) > 0 || (name.length > 7 && !strncmp(name.data, "linalg.", 7)))
    c->captures = true; /* regions, linalg.index */
  for (intptr_t i = 0, n = mlirOperationGetNumOperands(op); i < n; ++i)
    if (!in_block_tree(c->body, mlirOperationGetOperand(op, i)))
      c->captures = true;
  return c->captures ? MlirWalkResultInterrupt : MlirWalkResultAdvance;
}

/* An element type the output buffer may take when the chain changes it (a cast to bf16:
 * the stores then write the new type): a float, or an integer of whole bytes (an i1 or
 * i4 vector store would pack bits where the buffer has one element a byte). */
static bool retypable(MlirType t) {
  if (mlirTypeIsAFloat(t))
    return true;
  return mlirTypeIsAInteger(t) && mlirIntegerTypeGetWidth(t) % 8 == 0;
}

/* Whether generic `g` may be applied at the output's stores; `v` is the output tensor. */
static const char *consumer_reason(const Pack *p, MlirOperation g, MlirValue v) {
  intptr_t nops = mlirOperationGetNumOperands(g);
  if (!braze_op_is(g, "linalg.generic") || mlirOperationGetNumResults(g) != 1 || !all_parallel(g) ||
      !mlirAffineMapIsIdentity(map_of(g, nops - 1)))
    return "not-pointwise";
  MlirType rt = mlirValueGetType(mlirOperationGetResult(g, 0)), vt = mlirValueGetType(v);
  MlirType re = mlirShapedTypeGetElementType(rt);
  if (!mlirTypeEqual(re, mlirShapedTypeGetElementType(vt)) && !retypable(re))
    return "dtype-mismatch";
  if (mlirShapedTypeGetRank(rt) != mlirShapedTypeGetRank(vt))
    return "shape-mismatch";
  for (intptr_t d = 0; d < mlirShapedTypeGetRank(rt); ++d)
    if (mlirShapedTypeGetDimSize(rt, d) != mlirShapedTypeGetDimSize(vt, d))
      return "shape-mismatch";
  for (intptr_t k = 0; k < nops - 1; ++k)
    if (mlirValueEqual(mlirOperationGetOperand(g, k), v) && !mlirAffineMapIsIdentity(map_of(g, k)))
      return "layout-mismatch";
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(g, 0));
  CaptureCheck c = {body, mlirBlockGetNumArguments(body) != nops};
  if (!mlirOpOperandIsNull(mlirValueGetFirstUse(mlirBlockGetArgument(body, nops - 1))))
    c.captures = true; /* reads its init */
  if (!c.captures)
    mlirOperationWalk(g, check_captures, &c, MlirWalkPreOrder);
  if (c.captures)
    return "epilogue-captures";
  for (intptr_t k = 0; k < nops - 1; ++k) {
    MlirValue in = mlirOperationGetOperand(g, k);
    if (mlirValueEqual(in, v))
      continue;
    MlirType t = mlirValueGetType(in);
    if (!mlirTypeIsARankedTensor(t) || !mlirShapedTypeHasStaticShape(t))
      return "not-pointwise";
    MlirOperation d = fu_def_of(in);
    if (d.ptr && !mlirOperationIsBeforeInBlock(d, p->call))
      return "epilogue-input-not-ready";
  }
  return NULL;
}

static void add_epilogue(Out *o, MlirOperation consumer, const char *reason) {
  FuOutput *r = &o->rec;
  r->eps = realloc(r->eps, (r->num_eps + 1) * sizeof *r->eps);
  r->eps[r->num_eps++] = (FuEpilogue){fu_op_label(consumer), mlirOperationGetLocation(consumer),
                                      fu_loc_name(mlirOperationGetLocation(consumer)), reason};
}

/* Absorb the chain of consumers of output `o` while legal; record each decision. */
void fu_plan_epilogue(Pack *p, Out *o, const FuOptions *opts) {
  if (!o->to_tensor.ptr)
    return;
  MlirValue v = mlirOperationGetResult(o->to_tensor, 0);
  const char *first_reason = kernel_reason(opts, &p->info->args[o->arg], o);
  for (;;) {
    size_t uses = fu_num_uses(v);
    MlirOperation user = fu_first_user(v);
    if (uses == 0 || (uses == 1 && braze_op_is(user, "func.return")))
      return;
    for (MlirOpOperand u = mlirValueGetFirstUse(v); !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u))
      if (braze_op_is(mlirOpOperandGetOwner(u), "linalg.generic"))
        user = mlirOpOperandGetOwner(u);
    const char *reason = o->n_chain == 0 ? first_reason : NULL;
    if (!reason && uses > 1) {
      /* A generic reading it twice is one consumer. */
      bool one = true;
      for (MlirOpOperand u = mlirValueGetFirstUse(v); !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u))
        one = one && mlirOperationEqual(mlirOpOperandGetOwner(u), user);
      if (!one)
        reason = "multiple-consumers";
    }
    if (!reason)
      reason = consumer_reason(p, user, v);
    add_epilogue(o, user, reason);
    if (reason)
      return;
    o->chain = realloc(o->chain, (o->n_chain + 1) * sizeof *o->chain);
    o->chain[o->n_chain++] = user;
    for (intptr_t k = 0, n = mlirOperationGetNumOperands(user) - 1; k < n; ++k) {
      MlirValue in = mlirOperationGetOperand(user, k);
      if (!mlirValueEqual(in, v)) {
        fu_add_value(&p->extra, &p->n_extra, in);
        fu_add_value(&p->tensors, &p->n_tensors, in);
      }
    }
    v = mlirOperationGetResult(user, 0);
  }
}

/* The value the graph reads for output o after packing (null: none). */
MlirValue fu_final_value(const Out *o) {
  if (o->n_chain)
    return mlirOperationGetResult(o->chain[o->n_chain - 1], 0);
  return o->to_tensor.ptr ? mlirOperationGetResult(o->to_tensor, 0) : (MlirValue){NULL};
}
